#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/kernel-stacks.sh BIN - ftrace's stack trace records, every
# frame of them (issue 26 of the tracker): with options/stacktrace on,
# each event is followed by an ftrace kernel_stack record whose format
# declares caller[8] while the record holds `size` frames (often more);
# options/userstacktrace adds user_stack records.
#
# Records its own trace: sched_switch, sched_wakeup and sched_process_exec
# with both options on, in an ftrace instance of its own
# (instances/tcks-PID), while a workload runs on both CPUs; saved by
# trace-cmd 3.1.6's extract through tests/tracefs/extract.sh (every format
# and the whole kallsyms) as k7.dat, version 7, and converted to version 6
# (k6.dat, `trace-cmd convert --file-version 6`).  For each file:
#   - print: BIN print shows, for every kernel_stack and user_stack record,
#     the frames trace-cmd report prints (its `=>` lines), in number and
#     value, record for record;
#   - report: BIN report prints what trace-cmd report prints;
#   - ctf1, ctf2: `BIN convert` to CTF 1.8 and CTF 2; babeltrace 1.5 and
#     babeltrace2 2.0.4 (the host's; CTF 1.8 only) and 2.1.2 (Debian
#     sid's, tests/peers/babeltrace2-2.1) print as many events as BIN
#     print prints of the trace.dat, and the same frames as trace-cmd
#     report;
#   - perfetto, json: `BIN convert` to Perfetto and Chrome JSON carries
#     each stack, symbolised with the file's kallsyms: the JSON names the
#     frames trace-cmd report names.
# The instance is disabled and removed on exit, whatever happens.  SKIP
# when not root, without tracefs or trace-cmd; a peer that is missing is a
# SKIP of its checks.  Prints PASS/FAIL/SKIP/NOTE lines; exits 0.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
live_setup kernel-stacks "${1:-}"
peers_debian12
BT21=${BABELTRACE21:-$root/tests/peers/babeltrace2-2.1}
T=/sys/kernel/tracing
if [ "$(id -u)" != 0 ]; then
	echo "SKIP kernel-stacks: needs root (tracefs instances)"
	exit 0
fi
if [ ! -d "$T/instances" ] || ! command -v trace-cmd >/dev/null; then
	echo "SKIP kernel-stacks: no tracefs at $T, or no trace-cmd"
	exit 0
fi

inst=tcks-$$
I=$T/instances/$inst
cleanup() {
	[ -d "$I" ] || return 0
	echo 0 >"$I/tracing_on"
	echo 0 >"$I/options/stacktrace"
	echo 0 >"$I/options/userstacktrace" 2>/dev/null
	echo 0 >"$I/events/enable"
	rmdir "$I" || echo "FAIL kernel-stacks/cleanup: cannot remove instance $inst"
}
trap 'cleanup; chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 0' INT TERM HUP

# ---- the recording ----
record() {
	mkdir "$I" || return 1
	echo 2048 >"$I/buffer_size_kb"
	local e
	for e in sched_switch sched_wakeup sched_process_exec; do
		echo 1 >"$I/events/sched/$e/enable" || return 1
	done
	echo 1 >"$I/options/stacktrace" || return 1
	if ! echo 1 >"$I/options/userstacktrace" 2>/dev/null; then
		echo "NOTE kernel-stacks: options/userstacktrace cannot be set here: no user_stack records"
	fi
	echo 1 >"$I/tracing_on"
	for _ in 1 2 3 4; do
		taskset -c 0 sh -c 'cat /proc/version; ls /' >/dev/null 2>&1
		taskset -c 1 sh -c 'cat /proc/version; ls /' >/dev/null 2>&1
		sleep 0.02
	done
	echo 0 >"$I/tracing_on"
	TC_METADATA=full bash "$root/tests/tracefs/extract.sh" "$work/k7.dat" "$inst" >"$work/extract.log" 2>&1 &&
		trace-cmd convert -i "$work/k7.dat" --file-version 6 --compression none -o "$work/k6.dat" \
			>>"$work/extract.log" 2>&1
}
if ! record; then
	echo "FAIL kernel-stacks/record: $(tail -n 3 "$work/extract.log" 2>/dev/null | tr '\n' ' ' | head -c 300)"
	exit 0
fi
cleanup
if [ -d "$I" ]; then
	echo "FAIL kernel-stacks/cleanup: instance $inst is left"
else
	echo "PASS kernel-stacks/record"
fi

# ---- the frames of each text ----

# The frames of trace-cmd report's stack records: one line per record,
# "kernel_stack" or "user_stack" and each `=>` line's address, in hex
# without leading zeros ("=> sym (addr)", "=> addr" or "=> 0xaddr").
report_frames() {
	awk '
		function flush() { if (rec != "") print rec; rec = "" }
		function frame(line,   s) {
			s = line
			sub(/.*=> */, "", s)
			if (s ~ /\(/) { sub(/.*\(/, "", s); sub(/\).*/, "", s) }
			sub(/^0x/, "", s); sub(/[ \t].*/, "", s); sub(/^0+/, "", s)
			if (s == "") s = "0"
			rec = rec " " tolower(s)
		}
		/^ *[^ =].*: +(kernel_stack|user_stack): / {
			flush()
			rec = ($0 ~ /: +kernel_stack: /) ? "kernel_stack" : "user_stack"
			if ($0 ~ /=> /) frame($0)
			next
		}
		/^[ \t]*=> / { if (rec != "") frame($0); next }
		{ flush() }
		END { flush() }
	' "$1"
}

# The same of a babeltrace2 text (BIN print's or babeltrace2's): the
# caller sequence of each kernel_stack and user_stack event, in hex.
text_frames() {
	local kind values v out
	while read -r kind values; do
		out=$kind
		for v in $values; do
			out+=" $(printf '%x' "$v")"
		done
		echo "$out"
	done < <(sed -n 's/.* \(kernel_stack\|user_stack\): .*caller = \[\(.*\)\] }$/\1 \2/p' "$1" |
		sed 's/\[[0-9]*\] = //g; s/,//g')
}

# The names trace-cmd report gives the frames of each kernel_stack record
# ("=> NAME (ADDR)"; the address in hex when kallsyms has none), one line
# per record.
report_names() {
	awk '
		function flush() { if (rec != "") print rec; rec = "" }
		function frame(line,   s) {
			s = line
			sub(/.*=> */, "", s)
			if (s ~ / \(/) sub(/ \(.*/, "", s)
			rec = rec " " s
		}
		/^ *[^ =].*: +kernel_stack: / { flush(); rec = "kernel_stack"; next }
		/^ *[^ =].*: +user_stack: / { flush(); next }
		/^[ \t]*=> / { if (rec != "") frame($0); next }
		{ flush() }
		END { flush() }
	' "$1"
}

# The same of BIN's Chrome JSON: the caller array of each kernel_stack
# event, its symbols' names without "+0xOFFSET", numbers in hex.
json_names() {
	local values v out
	while read -r values; do
		out=kernel_stack
		for v in ${values//,/ }; do
			case $v in
			\"*) v=${v#\"}; out+=" ${v%%+*}" ;;
			*) out+=" $(printf '%x' "$v")" ;;
			esac
		done
		echo "$out"
	done < <(grep '"name":"kernel_stack"' "$1" | sed -n 's/.*"caller":\[\([^]]*\)\].*/\1/p' | sed 's/ \[[^]]*\]//g')
}

# compare NAME EXPECTED GOT [NOTE]: PASS when the frame lists are the same.
compare() {
	local n
	n=$(grep -c . "$2")
	if [ "$n" = 0 ]; then
		echo "FAIL $1: no stack records"
	elif cmp -s "$2" "$3"; then
		echo "PASS $1 ($n stack records, $(grep -c '^kernel_stack' "$2") kernel, $(wc -w <"$2" | tr -d ' ') words${4:+, $4})"
	else
		echo "FAIL $1: frames differ from trace-cmd report's: $(diff "$2" "$3" | head -n 4 | cut -c 1-150 | tr '\n' ' ')"
	fi
}

# count NAME WANT TEXT: PASS when TEXT has WANT event lines.
count() {
	local got
	got=$(wc -l <"$3" | tr -d ' ')
	if [ "$got" = "$2" ]; then
		echo "PASS $1 ($got events)"
	else
		echo "FAIL $1: $got events, BIN print shows $2"
	fi
}

for v in 7 6; do
	f=$work/k$v.dat
	t=kernel-stacks/v$v
	trace-cmd report "$f" >"$work/r$v.txt" 2>/dev/null
	report_frames "$work/r$v.txt" >"$work/r$v.frames"
	if ! grep -q '^kernel_stack ' "$work/r$v.frames"; then
		echo "FAIL $t/record: trace-cmd report shows no kernel_stack record"
		continue
	fi
	# what the format's caller[8] would lose
	deep=$(awk '$1 == "kernel_stack" && NF > 9' "$work/r$v.frames" | wc -l)
	[ "$deep" -gt 0 ] || echo "NOTE $t: no kernel stack here is deeper than the format's 8 frames"
	for b in "${bins[@]}"; do
		tag=$t
		[ "$b" = "$bin" ] || tag=$t/sanitize
		"$b" print "$f" >"$work/p$v.txt" 2>"$work/p$v.err" || { echo "FAIL $tag/print: $(head -c 300 "$work/p$v.err")"; continue; }
		text_frames "$work/p$v.txt" >"$work/p$v.frames"
		compare "$tag/print" "$work/r$v.frames" "$work/p$v.frames" "$deep deeper than 8"
	done
	events=$(wc -l <"$work/p$v.txt" | tr -d ' ')
	# report: trace-cmd report's text, byte for byte (its release's, 3.1)
	if "$bin" report "$f" >"$work/tr$v.txt" 2>"$work/tr$v.err" && cmp -s "$work/r$v.txt" "$work/tr$v.txt"; then
		echo "PASS $t/report"
	else
		echo "FAIL $t/report: differs from trace-cmd report: $(diff "$work/r$v.txt" "$work/tr$v.txt" | head -n 3 | cut -c 1-120 | tr '\n' ' ')$(head -c 200 "$work/tr$v.err")"
	fi

	# CTF 1.8 and CTF 2, read back by both babeltrace2 releases
	for c in 1 2; do
		out=$work/ctf$c-v$v
		if ! "$bin" convert --ctf-version "$c" "$f" -o "$out" >"$work/conv.err" 2>&1; then
			echo "FAIL $t/ctf$c/convert: $(head -c 300 "$work/conv.err")"
			continue
		fi
		for peer in 1.5 2.0 2.1; do
			if [ $peer = 1.5 ]; then
				[ $c = 1 ] || continue
				command -v babeltrace >/dev/null || { echo "SKIP $t/ctf$c/bt1.5: no babeltrace"; continue; }
				babeltrace "$out" >"$work/bt.txt" 2>"$work/bt.err"
			elif [ $peer = 2.0 ]; then
				[ $c = 1 ] || continue
				command -v babeltrace2 >/dev/null || { echo "SKIP $t/ctf$c/bt2.0: no babeltrace2"; continue; }
				babeltrace2 "$out" >"$work/bt.txt" 2>"$work/bt.err"
			else
				"$BT21" --version >/dev/null 2>&1 || { echo "SKIP $t/ctf$c/bt2.1: babeltrace2 2.1.2 does not run ($BT21)"; continue; }
				"$BT21" "$out" >"$work/bt.txt" 2>"$work/bt.err"
			fi
			if grep -q 'ERROR\|\[error\]' "$work/bt.err"; then
				# the innermost cause, the last one written
				echo "FAIL $t/ctf$c/bt$peer: $(awk '/^CAUSED BY/ { c = $0; getline; c = c " " $0 } END { print c }' \
					"$work/bt.err" | tr -s ' ' | head -c 300)"
				continue
			fi
			count "$t/ctf$c/bt$peer/events" "$events" "$work/bt.txt"
			text_frames "$work/bt.txt" >"$work/bt.frames"
			compare "$t/ctf$c/bt$peer/frames" "$work/r$v.frames" "$work/bt.frames"
		done
	done

	# Chrome JSON and Perfetto: the frames named by the file's kallsyms
	report_names "$work/r$v.txt" >"$work/r$v.names"
	if ! "$bin" convert "$f" -o "$work/k$v.json" >"$work/conv.err" 2>&1; then
		echo "FAIL $t/json/convert: $(head -c 300 "$work/conv.err")"
	else
		json_names "$work/k$v.json" >"$work/j$v.names"
		compare "$t/json/names" "$work/r$v.names" "$work/j$v.names"
	fi
	if ! command -v protoc >/dev/null; then
		echo "SKIP $t/perfetto: protoc is not installed (Debian protobuf-compiler)"
	elif ! "$bin" convert "$f" -o "$work/k$v.pftrace" >"$work/conv.err" 2>&1; then
		echo "FAIL $t/perfetto/convert: $(head -c 300 "$work/conv.err")"
	else
		# kernel_stack's caller, the third field of its generic event
		# (dense or GenericFtraceEvent's str_value), is the text of
		# its frames; the bundles go by CPU, so the lists are sorted
		protoc --decode=perfetto.protos.Trace -I "$root/tests/third_party/perfetto" perfetto_trace.proto \
			<"$work/k$v.pftrace" 2>"$work/protoc.err" |
			sed -n 's/^ *3: "\[\(.*+0x.*\)\]"$/\1/p' |
			sed 's/+0x[0-9a-f]*\( \[[^]]*\]\)\{0,1\}//g; s/,//g; s/^/kernel_stack /' | sort >"$work/pf$v.names"
		sort "$work/r$v.names" >"$work/r$v.sorted"
		compare "$t/perfetto/names" "$work/r$v.sorted" "$work/pf$v.names"
	fi
done
exit 0
