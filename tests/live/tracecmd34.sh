#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/tracecmd34.sh BIN [SUITE] - `tracecat report`'s default text
# against trace-cmd 3.4 (with libtraceevent 1.9's plugins) from the Debian
# sid root (scripts/sid-root.sh), byte for byte, on files that 3.4 records
# now.  With SUITE trixie (tests/live/trixie-peers.sh), the same against
# Debian 13's trace-cmd 3.3.1 (libtraceevent 1.8) from the trixie root
# (scripts/debian-root.sh trixie) and `--compat trace-cmd=3.3`'s text, the
# test names starting tracecmd33; what is said of 3.4 below is then said
# of 3.3.1, but for the last part (sid only).
#
# `trace-cmd record` does not work on the project's machines, so, as
# tests/tracefs/record.sh does for 3.1.6, the events are enabled in ftrace
# instances of this test's own (instances/tc34-PID-a and -b of a tracefs
# mounted in the sid root), a workload runs on both CPUs, and trace-cmd 3.4
# saves them with `extract -B`:
#   x7.dat   instance a (sched, irq, timer, syscalls openat, kmem kmalloc,
#            kernel stack traces, a trace_marker line): version 7, zstd,
#            what extract writes
#   x6.dat   the same converted to version 6 (`trace-cmd convert`)
#   m7.dat   instances c (enabled as a) and b (sched_process_exec and
#            irq), no top buffer: --cpu numbers the first instance's CPUs
#            from 0 (c, not a again: trace-cmd 3.3.1's extract removes the
#            instances it saved, and crashes on one that is gone)
#   m6.dat   the same converted to version 6, whose empty top buffer
#            still counts CPUs
#   x7z.dat  x7.dat converted to version 7 with zlib
# and, as 3.4 cannot read the last (below), two committed corpus files
# that have a top buffer, converted by 3.4 to version 7 with zlib:
#   c7z.dat  tests/corpus/trace-dat/sched-irq-v7-zstd.dat
#   ci7z.dat tests/corpus/trace-dat/sched-irq-instance-v7-nocompress.dat
#            (a top buffer and an instance)
# and, when python3 is installed,
#   lz6.dat  tests/corpus/trace-dat/sched-irq-v6.dat with flag 0x02 set
#            on five records (tests/tracefs/lazy-flag.py): the latency
#            column's L in 3.4 (libtraceevent 1.9), X in 3.3.1 (1.8)
# For each file and each option set (none, -R, -t, --cpu 0, --cpu 2,
# -F sched/sched_switch, -I, -S, -N, -l, --ts-diff, -l -R, -l --ts-diff -t,
# -q, --stat, -E, -P, -f, --first-event [-t], -w [-t | --cpu 1],
# --profile and -i FILE --ts-offset 1000)
# BIN's output must equal 3.4's, and its exit status be 0 where 3.4's is.
# Where 3.4 cannot read its own file (it prints nothing for a version 7
# file `convert` wrote from one without a top buffer,
# doc/formats/tracedat.md §11.3) a NOTE line names it (not counted), and BIN must print for it what it prints for x7.dat; where 3.4
# crashes after printing (SIGSEGV at exit, -F on instance files), its text
# must be a prefix of BIN's.  The bytes -R prints for a kernel_stack
# record's caller array past the record's size come from beyond the record
# in 3.4: a difference confined to those lines is a PASS that says so; so
# is a --profile text that differs from 3.4's only in the order of events
# that 3.4 orders by heap addresses (tests/tracefs/profile-order.sh).
#
# Then, when tests/live/newer-compiler.sh has built build/gcc-16/tracecat
# from the current sources (against sid's libraries, libtraceevent 1.9
# among them), that binary runs in the sid root with TRACECAT_REPORT_CHECK
# on these files and on the committed fixtures and corpus, with and without
# -R: every event text a native plan writes for 3.4 must be the one
# libtraceevent 1.9 writes (the plans, not the linked library, make the
# text; the Debian 12 build links 1.7).
#
# Everything happens in a mount namespace of the test's own (unshare -m):
# the sid root's /proc, /sys, /dev, tracefs and /mnt binds vanish with it;
# the instances are disabled and removed on exit, and the temporary
# directory too.  SKIP when not root, when the kernel has no tracefs or
# when there is no sid root with trace-cmd.
# Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.
set -u
BIN=${1:-}
case ${2:-sid} in
sid) ver=3.4 peer=${TRACECAT_SID_ROOT:-/var/cache/tracecat/sid-root} make_root=scripts/sid-root.sh ;;
trixie) ver=3.3 peer=${TRACECAT_TRIXIE_ROOT:-/var/cache/tracecat/trixie-root} make_root="scripts/debian-root.sh trixie" ;;
*) echo "FAIL tracecmd34: usage: $0 BIN [sid|trixie]"; exit 0 ;;
esac
t=tracecmd${ver/./}
[ -n "$BIN" ] || { echo "FAIL $t: usage: $0 BIN [sid|trixie]"; exit 0; }
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
[ -x "$BIN" ] || { echo "FAIL $t: $BIN is not an executable"; exit 0; }
export TZ=UTC
# The release's text whatever the caller asked of the other peers.
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}trace-cmd=$ver

if [ "$(id -u)" != 0 ]; then
	echo "SKIP $t: needs root (tracefs instances, chroot, mounts)"
	exit 0
fi
if ! grep -qw tracefs /proc/filesystems 2>/dev/null; then
	echo "SKIP $t: the kernel has no tracefs"
	exit 0
fi
if [ ! -x "$peer/usr/bin/trace-cmd" ] || [ ! -x "$peer/usr/bin/stdbuf" ]; then
	echo "SKIP $t: no ${2:-sid} root with trace-cmd ($peer; $make_root builds it)"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-$t.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
corpus=$(cd "$(dirname "$0")/../corpus/trace-dat" 2>/dev/null && pwd)
if [ -z "$corpus" ] || ! cp "$corpus/sched-irq-v7-zstd.dat" "$work/c.dat" ||
	! cp "$corpus/sched-irq-instance-v7-nocompress.dat" "$work/ci.dat"; then
	echo "FAIL $t: no tests/corpus/trace-dat beside this script"
	exit 0
fi
files="x7 x6 m7 m6 x7z c7z ci7z"
if command -v python3 >/dev/null &&
	python3 "$(dirname "$0")/../tracefs/lazy-flag.py" "$corpus/sched-irq-v6.dat" "$work/lz6.dat" \
		sys_enter_openat 25289 >"$work/log" 2>&1; then
	files="$files lz6"
fi
echo "$files" >"$work/files"
trap 'exit 0' INT TERM HUP

# The option sets: name|arguments.
# @FILE stands for the file where it must not come last.
variants=("plain|" "R|-R" "t|-t" "cpu0|--cpu 0" "cpu2|--cpu 2" "F|-F sched/sched_switch" "I|-I" "S|-S"
	"N|-N" "l|-l" "tsdiff|--ts-diff" "lR|-l -R" "ltsdiff-t|-l --ts-diff -t"
	"q|-q" "stat|--stat" "E|-E" "P|-P" "f|-f" "first|--first-event" "first-t|--first-event -t"
	"w|-w" "w-t|-w -t" "w-cpu1|-w --cpu 1" "tso|-i @FILE --ts-offset 1000" "profile|--profile")
printf '%s\n' "${variants[@]}" >"$work/variants"

# Records and reports inside the namespace; the log says what failed.
# shellcheck disable=SC2016  # expanded by the inner shell
unshare -m bash -c '
	set -u
	peer=$1 work=$2 tag=$3
	T=$peer/sys/kernel/tracing
	a=tc34-$tag-a b=tc34-$tag-b c=tc34-$tag-c
	made=()
	cleanup() {
		local i
		for i in "${made[@]}"; do
			[ -d "$T/instances/$i" ] || continue
			echo 0 >"$T/instances/$i/tracing_on"
			echo 0 >"$T/instances/$i/options/stacktrace" 2>/dev/null
			echo 0 >"$T/instances/$i/events/enable"
			rmdir "$T/instances/$i" || echo "cannot remove instance $i" >&2
		done
	}
	trap cleanup EXIT
	mount --make-rprivate / &&
		mount --bind /proc "$peer/proc" && mount --bind /sys "$peer/sys" &&
		mount --bind /dev "$peer/dev" && mount -t tracefs nodev "$T" &&
		mount --bind "$work" "$peer/mnt" || { echo "mounts failed" >&2; exit 1; }
	in_root() { chroot "$peer" env -i PATH=/usr/bin:/bin TZ=UTC "$@"; }
	for i in "$a" "$b" "$c"; do
		mkdir "$T/instances/$i" || { echo "cannot make instance $i" >&2; exit 1; }
		made+=("$i")
		echo 2048 >"$T/instances/$i/buffer_size_kb"
	done
	for e in sched irq timer syscalls/sys_enter_openat syscalls/sys_exit_openat kmem/kmalloc; do
		for i in "$a" "$c"; do
			[ -e "$T/instances/$i/events/$e/enable" ] && echo 1 >"$T/instances/$i/events/$e/enable"
		done
	done
	echo 1 >"$T/instances/$b/events/sched/sched_process_exec/enable"
	echo 1 >"$T/instances/$b/events/irq/enable"
	for i in "$a" "$c"; do echo 1 >"$T/instances/$i/options/stacktrace"; done
	for i in "$a" "$b" "$c"; do echo 1 >"$T/instances/$i/tracing_on"; done
	for i in 1 2 3; do
		taskset -c 0 sh -c "cat /proc/version >/dev/null"
		taskset -c 1 sh -c "cat /proc/version >/dev/null"
		sleep 0.02
	done
	for i in "$a" "$c"; do echo "tracecmd34 marker" >"$T/instances/$i/trace_marker"; done
	for i in "$a" "$b" "$c"; do echo 0 >"$T/instances/$i/tracing_on"; done
	for i in "$a" "$c"; do echo 0 >"$T/instances/$i/options/stacktrace"; done
	in_root timeout 120 trace-cmd extract -B "$a" -o /mnt/x7.dat >/dev/null 2>&1 || { echo "extract -B $a failed" >&2; exit 1; }
	in_root timeout 120 trace-cmd extract -B "$c" -B "$b" -o /mnt/m7.dat >/dev/null 2>&1 || { echo "extract -B $c -B $b failed" >&2; exit 1; }
	cleanup
	made=()
	ls "$T/instances" | grep "^tc34-$tag-" >"$work/left"
	in_root timeout 120 trace-cmd convert -i /mnt/x7.dat --file-version 6 --compression none -o /mnt/x6.dat >/dev/null 2>&1 ||
		{ echo "convert to v6 failed" >&2; exit 1; }
	in_root timeout 120 trace-cmd convert -i /mnt/m7.dat --file-version 6 --compression none -o /mnt/m6.dat >/dev/null 2>&1 ||
		{ echo "convert m7 to v6 failed" >&2; exit 1; }
	for c in x7:x7z c:c7z ci:ci7z; do
		in_root timeout 120 trace-cmd convert -i "/mnt/${c%%:*}.dat" --file-version 7 --compression zlib \
			-o "/mnt/${c#*:}.dat" >/dev/null 2>&1 || { echo "convert ${c%%:*} to v7 zlib failed" >&2; exit 1; }
	done
	while IFS="|" read -r name args; do
		for f in $(cat "$work/files"); do
			a=${args//@FILE/$f.dat}
			[ "$a" = "$args" ] && a="$args $f.dat"
			# (in /mnt: --first-event names the file as given)
			# shellcheck disable=SC2086  # a is a list of options
			in_root env -C /mnt timeout 120 stdbuf -oL trace-cmd report $a >"$work/$f.$name.exp" 2>/dev/null
			echo $? >"$work/$f.$name.rc"
		done
	done <"$work/variants"
	in_root trace-cmd version 2>/dev/null | grep -m 1 version >"$work/version"
	exit 0
' tracecmd34 "$peer" "$work" "$$" >"$work/log" 2>&1
rc=$?
if [ $rc != 0 ] || [ ! -s "$work/x7.dat" ]; then
	echo "FAIL $t/record: $(tr '\n' ' ' <"$work/log" | head -c 300)"
	exit 0
fi
echo "PASS $t/record: $(tr -d '\n' <"$work/version")"
if [ -s "$work/left" ]; then
	echo "FAIL $t/cleanup: instances left: $(tr '\n' ' ' <"$work/left")"
fi

profile_order=$(cd "$(dirname "$0")/../tracefs" && pwd)/profile-order.sh

# The text with kernel_stack's caller array cut off (for -R).
mask_stack() { sed -E 's/(kernel_stack: +size=[0-9]+ caller=ARRAY\[).*/\1.../' "$1"; }

"$BIN" report "$work/x7.dat" >"$work/x7.plain.ref" 2>/dev/null
for spec in "${variants[@]}"; do
	name=${spec%%|*}
	args=${spec#*|}
	for f in $files; do
		label="$t/$f/${name}"
		exp=$work/$f.$name.exp
		exp_rc=$(cat "$work/$f.$name.rc")
		a=${args//@FILE/$f.dat}
		[ "$a" = "$args" ] && a="$args $f.dat"
		# shellcheck disable=SC2086  # a is a list of options
		(cd "$work" && timeout 60 "$BIN" report $a >"$work/out" 2>"$work/err")
		got_rc=$?
		if [ "$exp_rc" = 0 ] && [ ! -s "$exp" ]; then
			echo "NOTE $label: trace-cmd $ver prints nothing for the file trace-cmd convert wrote from one without a top buffer"
			if [ "$name" = plain ]; then
				if cmp -s "$work/out" "$work/x7.plain.ref"; then
					echo "PASS $label/same-as-x7: the text of the file extract wrote"
				else
					echo "FAIL $label/same-as-x7: the text differs from x7.dat's"
				fi
			fi
			continue
		fi
		if [ "$exp_rc" != 0 ] && [ "$exp_rc" != 139 ]; then
			if [ "$got_rc" != 0 ]; then
				echo "PASS $label: both fail (trace-cmd $exp_rc, tracecat $got_rc)"
			else
				echo "FAIL $label: exit status 0, trace-cmd $exp_rc"
			fi
			continue
		fi
		if [ "$got_rc" != 0 ]; then
			echo "FAIL $label: exit status $got_rc: $(head -c 200 "$work/err")"
		elif cmp -s "$exp" "$work/out"; then
			echo "PASS $label"
		elif [ "$exp_rc" = 139 ] && [ "$(head -c "$(stat -c %s "$exp")" "$work/out" | cmp - "$exp" 2>&1)" = "" ]; then
			echo "PASS $label: trace-cmd $ver crashed (SIGSEGV) after printing a prefix of this text"
		elif mask_stack "$exp" | cmp -s - <(mask_stack "$work/out"); then
			echo "PASS $label: same but for the kernel_stack caller bytes past the record"
		elif [ "$name" = profile ] && cmp -s <(bash "$profile_order" <"$exp") <(bash "$profile_order" <"$work/out"); then
			echo "PASS $label: the same events, in another order where trace-cmd's depends on heap addresses"
		else
			line=$(cmp "$exp" "$work/out" 2>&1 | head -n 1)
			echo "FAIL $label: $line: expected '$(sed -n "${line##* line }p" "$exp" 2>/dev/null | head -c 100)'"
		fi
	done
done

# ---- the plans against libtraceevent 1.9 itself
[ "$ver" = 3.4 ] || exit 0
root=$(cd "$(dirname "$0")/../.." && pwd)
g16=$root/build/gcc-16/tracecat
if [ ! -x "$g16" ] || [ -n "$(find "$root/src" "$root/include" -newer "$g16" -name '*.[ch]' | head -n 1)" ]; then
	echo "SKIP $t/plans-vs-libtraceevent-1.9: no build/gcc-16/tracecat from the current sources (tests/live/newer-compiler.sh builds it)"
	exit 0
fi
mkdir -p "$work/fx"
cp "$g16" "$work/tc16"
cp "$root"/tests/fixtures/tracedat/*.dat "$root"/tests/corpus/trace-dat/*.dat "$work/fx/" 2>/dev/null
# shellcheck disable=SC2016  # expanded by the inner shell
unshare -m bash -c '
	peer=$1 work=$2
	mount --make-rprivate / && mount --bind "$work" "$peer/mnt" && mount --bind /dev "$peer/dev" &&
		mount --bind /proc "$peer/proc" || exit 1
	cd "$work" || exit 1
	for f in x7.dat x6.dat m7.dat ci7z.dat fx/*.dat; do
		for o in "" -R; do
			# shellcheck disable=SC2086  # o is an option or nothing
			chroot "$peer" env -i PATH=/usr/bin:/bin TZ=UTC TRACECAT_REPORT_CHECK=1 \
				/mnt/tc16 report --compat trace-cmd=3.4 $o "/mnt/$f" >/dev/null 2>"$work/check.err"
			echo "$f|$o|$?|$(head -c 300 "$work/check.err" | tr "\n" " ")"
		done
	done
' tracecmd34 "$peer" "$work" >"$work/checks" 2>&1
while IFS='|' read -r f o rc err; do
	[ -n "$f" ] || continue
	label="$t/plans-vs-libtraceevent-1.9/${f#fx/}${o:+ $o}"
	case $err in
	*"fast text"*) echo "FAIL $label: $err" ;;
	*) echo "PASS $label (exit $rc)" ;;
	esac
done <"$work/checks"
exit 0
