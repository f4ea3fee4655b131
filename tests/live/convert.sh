#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/convert.sh BIN - `tracecat convert` read back by babeltrace2
# and babeltrace 1.5.
#
# CTF (every corpus trace with a .bt2.txt: tests/corpus/ctf, babeltrace's
# test traces, $TRACECAT_CORPUS/ctf; and tests/fixtures/ctf):
#   - copied packet for packet (no filter), and re-encoded by the writer
#     (`--events '*'` keeps every event but forces decoding), then
#     `babeltrace2 --clock-gmt OUT` must equal the .bt2.txt byte for byte;
#   - babeltrace 1.5 must read OUT whenever it reads the original.
#   One corpus trace re-encodes with a known difference, listed below with
#   the reason: synthetic/empties is compared with its reference less that
#   difference.  synthetic/paths has a sequence whose length is in the
#   event header, which the writer replaces by its own: the writer carries
#   that length in its own header (as a member babeltrace2 ignores), so
#   the re-encoding must show exactly the reference.
# trace.dat (corpus and tests/fixtures/tracedat), both namings:
#   - `babeltrace2 --clock-gmt OUT` equals `BIN print --clock-gmt IN`
#     (with --lttng-names for the default LTTng conventions);
#   - babeltrace 1.5 reads OUT;
#   - the metadata carries the kernel conventions Trace Compass needs.
# uftrace (corpus and tests/fixtures/uftrace): babeltrace2 shows what
# `BIN print DIR` shows, babeltrace 1.5 reads it, LTTng-UST conventions.
# What convert does around the conversion (--force, signals, write
# errors, layout, -o -, progress): convert-safety.sh.  Prints
# PASS/FAIL/SKIP/NOTE lines for tests/run.sh; exits 0.

# babeltrace2 2.0.4's CTF 1.8 text, as in tests/run.sh, when run alone
export TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0}
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
CORPUS=${TRACECAT_CORPUS:-$ROOT/tests/corpus}
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP convert: babeltrace2 is not installed"
	exit 0
fi
have_bt1=false
if command -v babeltrace >/dev/null; then
	have_bt1=true
else
	echo "SKIP convert/babeltrace1: babeltrace 1.5 is not installed (conversions not read back with it)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Re-encodings (the copy path is exact) with a known difference:
# REENCODE_EDIT holds the sed expression that makes the reference what the
# re-encoding must give, and the difference; REENCODE_UNCHECKED the reason
# a trace's re-encoding is not checked.
declare -A REENCODE_EDIT=(
	[synthetic/empties]='s/: { }, /: /|the input'"'"'s empty packet context, which babeltrace2 shows as { }, is the writer'"'"'s own, whose fields babeltrace2 hides'
)
declare -A REENCODE_UNCHECKED=()

# check_ctf NAME DIR REFERENCE: both paths.
check_ctf() {
	local name=$1 dir=$2 ref=$3 mode out
	for mode in copy reencode; do
		out=$tmp/out-$mode
		rm -rf "$out"
		local args=()
		[ $mode = reencode ] && args=(--events '*')
		local want=$ref edit="" note=""
		if [ $mode = reencode ] && [ -n "${REENCODE_UNCHECKED[$name]:-}" ]; then
			echo "NOTE convert-ctf-$mode/$name: not checked: ${REENCODE_UNCHECKED[$name]}"
			continue
		fi
		if [ $mode = reencode ] && [ -n "${REENCODE_EDIT[$name]:-}" ]; then
			edit=${REENCODE_EDIT[$name]%%|*}
			note=" (but for a known difference: ${REENCODE_EDIT[$name]#*|})"
			want=$tmp/want.txt
			sed "$edit" "$ref" >"$want"
		fi
		if ! "$BIN" convert "${args[@]}" "$dir" -o "$out" 2>"$tmp/err"; then
			echo "FAIL convert-ctf-$mode/$name: $(head -c 300 "$tmp/err")"
			continue
		fi
		if ! (cd "$(dirname "$dir")" && TZ=UTC babeltrace2 --clock-gmt "$out" 2>/dev/null) | cmp -s - "$want"; then
			echo "FAIL convert-ctf-$mode/$name: babeltrace2 does not show the original's events"
			continue
		fi
		if $have_bt1 && ! babeltrace "$out" >/dev/null 2>&1 && babeltrace "$dir" >/dev/null 2>&1; then
			echo "FAIL convert-ctf-$mode/$name: babeltrace 1.5 reads the original but not the conversion"
			continue
		fi
		echo "PASS convert-ctf-$mode/$name$note"
	done
}

n=0
# CTF: the project's traces, babeltrace's test traces (laid out with
# their references by scripts/babeltrace-traces.sh) and those of
# $TRACECAT_CORPUS when set.
BT_TRACES=$("$ROOT/scripts/babeltrace-traces.sh" 2>"$tmp/bt-traces.log")
if [ -z "$BT_TRACES" ] || ! ls "$BT_TRACES"/ctf/babeltrace/*/*.bt2.txt >/dev/null 2>&1; then
	echo "SKIP convert/ctf-babeltrace: no babeltrace test traces: $(tail -1 "$tmp/bt-traces.log")"
	BT_TRACES=""
fi
for ctf_base in "$ROOT/tests/corpus" ${BT_TRACES:+"$BT_TRACES"} ${TRACECAT_CORPUS:+"$TRACECAT_CORPUS"}; do
	[ -d "$ctf_base/ctf" ] || continue
	while IFS= read -r ref; do
		x=${ref%.bt2.txt}
		check_ctf "${x#"$ctf_base"/ctf/}" "$x" "$ref"
		n=$((n + 1))
	done < <(find "$ctf_base/ctf" -name '*.bt2.txt' | sort)
done
for ref in "$ROOT"/tests/fixtures/ctf/*.bt2.txt; do
	x=${ref%.bt2.txt}
	[ -d "$x" ] || continue
	check_ctf "fixtures/$(basename "$x")" "$x" "$ref"
done

# ---- trace.dat ----
# The total of the discarded-events warnings in the stderr file $1.
lost() { grep -o 'discarded [0-9]* events' "$1" | awk '{ s += $2 } END { print s + 0 }'; }
files=()
for f in "$CORPUS"/trace-dat/*.dat "$ROOT"/tests/fixtures/tracedat/*.dat; do
	[ -f "$f" ] && files+=("$f")
done
# The corpus's trace.dat files are committed: none is a broken checkout.
compgen -G "$CORPUS/trace-dat/*.dat" >/dev/null ||
	echo "FAIL convert-tracedat/corpus: no .dat file in $CORPUS/trace-dat"
for f in "${files[@]}"; do
	name=${f#"$CORPUS"/}
	name=${name#"$ROOT"/tests/}
	for naming in lttng ftrace; do
		out=$tmp/td-$naming
		rm -rf "$out"
		if [ $naming = lttng ]; then conv=(); view=(--lttng-names); else conv=(--ftrace-names); view=(); fi
		if ! "$BIN" convert "${conv[@]}" "$f" -o "$out" 2>"$tmp/err"; then
			echo "FAIL convert-tracedat-$naming/$name: $(head -c 300 "$tmp/err")"
			continue
		fi
		TZ=UTC babeltrace2 --clock-gmt "$out" >"$tmp/bt2" 2>"$tmp/bt2.err"
		TZ=UTC "$BIN" print "${view[@]}" --clock-gmt "$f" >"$tmp/tc" 2>"$tmp/tc.err"
		if ! cmp -s "$tmp/bt2" "$tmp/tc"; then
			echo "FAIL convert-tracedat-$naming/$name: babeltrace2 shows other events than tracecat print${view:+ ${view[*]}}"
			continue
		fi
		# Lost events: the same total, each loss with its count.
		if [ "$(lost "$tmp/bt2.err")" != "$(lost "$tmp/tc.err")" ] || grep -q 'may have discarded' "$tmp/bt2.err"; then
			echo "FAIL convert-tracedat-$naming/$name: babeltrace2 reports $(lost "$tmp/bt2.err") lost events, the input has $(lost "$tmp/tc.err")"
			continue
		fi
		if $have_bt1 && ! babeltrace "$out" >/dev/null 2>&1; then
			echo "FAIL convert-tracedat-$naming/$name: babeltrace 1.5 cannot read it"
			continue
		fi
		echo "PASS convert-tracedat-$naming/$name ($(wc -l <"$tmp/bt2") events)"
	done
	# Each raw_syscalls record is one event under its LTTng name, dropped
	# only where it repeats the syscalls:* event just before it: as many
	# syscall_entry_* (exit_*) events as raw sys_enter (sys_exit) records.
	"$BIN" print "$f" >"$tmp/raw.txt" 2>/dev/null
	"$BIN" print --lttng-names "$f" >"$tmp/named.txt" 2>/dev/null
	for pair in enter:entry exit:exit; do
		raw=$(grep -c " sys_${pair%%:*}: " "$tmp/raw.txt")
		[ "$raw" -gt 0 ] || continue
		named=$(grep -c " syscall_${pair#*:}_[a-z0-9_]*: " "$tmp/named.txt")
		if [ "$named" = "$raw" ]; then
			echo "PASS convert-tracedat-raw-syscalls/$name/${pair%%:*} ($raw)"
		else
			echo "FAIL convert-tracedat-raw-syscalls/$name/${pair%%:*}: $named syscall_${pair#*:}_* events for $raw raw records"
		fi
	done
	# What Trace Compass's LTTng kernel analyses look for (the names and
	# environment lttng-modules 2.13 writes, which its LTTng kernel event
	# layout expects), checked on the metadata as babeltrace2 parsed it.
	meta=$tmp/td-lttng/metadata
	[ -f "$meta" ] || continue
	missing=()
	# events are declared when written: ask for those the input has
	seen=$(awk '{ print $4 }' "$tmp/named.txt" | sort -u)
	wants=('domain = "kernel";' 'tracer_name = "lttng-modules";' 'tracer_major = 2;' 'tracer_minor = 13;'
	       'hostname = "' 'kernel_release = "' 'cpu_id;' ' _tid;')
	if grep -qx "sched_switch:" <<<"$seen"; then
		wants+=('name = "sched_switch";' ' _prev_tid;' ' _next_tid;' ' _prev_state;')
	fi
	for ev in irq_softirq_entry irq_handler_entry syscall_entry_openat syscall_exit_openat syscall_entry_close; do
		grep -qx "$ev:" <<<"$seen" && wants+=("name = \"$ev\";")
	done
	for want in "${wants[@]}"; do
		grep -qF -- "$want" "$meta" || missing+=("$want")
	done
	switch_block=$(awk '/name = "sched_switch";/ { on = 1 } on { print } on && /^};/ { exit }' "$meta")
	if grep -q 'common_pid;' "$meta" || grep -q ' _prev_pid;\| _next_pid;' <<<"$switch_block"; then
		echo "FAIL convert-tracedat-conventions/$name: ftrace pid fields left"
	elif [ ${#missing[@]} -eq 0 ]; then
		echo "PASS convert-tracedat-conventions/$name"
	elif grep -q 'name = "softirq_entry";\|name = "sys_enter_openat";' "$meta"; then
		echo "FAIL convert-tracedat-conventions/$name: ftrace names left"
	else
		echo "FAIL convert-tracedat-conventions/$name: missing ${missing[*]}"
	fi
done

# ---- uftrace (corpus and tests/fixtures/uftrace): LTTng-UST conventions ----
compgen -G "$CORPUS/uftrace/*/info" >/dev/null ||
	echo "FAIL convert-uftrace/corpus: no recording in $CORPUS/uftrace"
for d in "$CORPUS"/uftrace/*/ "$ROOT"/tests/fixtures/uftrace/*/; do
	d=${d%/}
	[ -f "$d/info" ] || continue
	name=${d#"$CORPUS"/}
	name=${name#"$ROOT"/tests/}
	out=$tmp/uft
	rm -rf "$out"
	if ! "$BIN" convert "$d" -o "$out" 2>"$tmp/err"; then
		echo "FAIL convert-uftrace/$name: $(head -c 300 "$tmp/err")"
		continue
	fi
	TZ=UTC babeltrace2 --clock-gmt "$out" >"$tmp/bt2" 2>/dev/null
	TZ=UTC "$BIN" print --clock-gmt "$d" >"$tmp/tc" 2>/dev/null
	if ! cmp -s "$tmp/bt2" "$tmp/tc"; then
		echo "FAIL convert-uftrace/$name: babeltrace2 shows other events than tracecat print"
	elif $have_bt1 && ! babeltrace "$out" >/dev/null 2>&1; then
		echo "FAIL convert-uftrace/$name: babeltrace 1.5 cannot read it"
	elif ! grep -q 'domain = "ust";' "$out/metadata" || ! grep -q 'tracer_name = "lttng-ust";' "$out/metadata" ||
	     ! grep -q 'name = "lttng_ust_cyg_profile:func_entry";' "$out/metadata" || ! grep -q ' _vtid;' "$out/metadata"; then
		echo "FAIL convert-uftrace/$name: the metadata lacks LTTng-UST's conventions"
	else
		echo "PASS convert-uftrace/$name ($(wc -l <"$tmp/bt2") events)"
	fi
done

exit 0
