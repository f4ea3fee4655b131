#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# record.sh - record real trace.dat files with trace-cmd 3.1.6, and the
# output of `trace-cmd report` for each, to test tracecat's trace.dat reader.
#
# usage: tests/tracefs/record.sh OUTDIR [SCALE]
#
# Used to make tests/fixtures/tracedat/, by the live test
# tests/live/tracedat-report.sh and by bench/tracedat-report.sh.
# `trace-cmd record` does not work on the project's machines (ftrace_enabled
# cannot be written), so this enables events in fresh ftrace instances of
# its own (/sys/kernel/tracing/instances/tcrec-PID-*), runs a workload,
# stops, and saves the instances with `trace-cmd extract` through
# tests/tracefs/extract.sh, which keeps trace-cmd away from the machine's
# top-level buffer.  The instances, the uprobe it defines and, if it had to
# mount it, tracefs itself are removed on exit, whatever happens.
#
# Recorded, in the main buffer (clock "local"):
#   sched: sched_switch, sched_wakeup, sched_wakeup_new, sched_process_fork,
#          sched_process_exec (a __data_loc string), sched_process_exit
#   irq:   every event (irq_handler_entry has a __data_loc string; softirqs)
#   syscalls/sys_enter_openat, sys_exit_openat (8-byte "int" fields; the
#          file name is only a user pointer on this kernel)
#   a uprobe TCGROUP/probe on tc_workload's tc_probe_point(): a user string
#          (__data_loc char[] path) and an s32
#   ftrace print and raw_data records written by tc_workload to the
#          instance's trace_marker and trace_marker_raw
# of the whole machine (other processes' activity is recorded too), while
# this runs: tc_workload (tests/tracefs/tc_workload.c) writing marker lines
# and raw markers of every kind, true, sh and taskset, then tc_workload's
# load loop of openat + uprobe on every CPU, 20 * SCALE iterations per CPU
# (about 122 * SCALE events on 2 CPUs).  SCALE defaults to 1: about 300
# events on a quiet machine; 8800 gives a million.  It takes about a
# second at SCALE 1, 20 s for a million events (mostly extract, convert
# and counting with trace-cmd report).
#
# Output, NAME being TC_NAME:
#   NAME-v7-zstd.dat        what trace-cmd extract writes by default
#   NAME-v6.dat             trace-cmd convert --file-version 6 --compression none
#   NAME-v7-nocompress.dat  trace-cmd convert --file-version 7 --compression none
# and for each F.dat of these, trace-cmd report's stdout (run with stdbuf
# -oL, so that what it printed before a crash is kept):
#   F.dat.report.txt                 trace-cmd report F.dat
#   F.dat.raw.txt                    trace-cmd report -R F.dat
#   F.dat.cpu0.report.txt            trace-cmd report --cpu 0 F.dat
#   F.dat.F-sched_switch.report.txt  trace-cmd report -F sched/sched_switch F.dat
# with, beside each X.txt, X.err (its stderr) when not empty and X.status
# (its exit status) when not 0.  NAME.recording.txt describes the
# recording (kernel, trace-cmd, buffers, per-CPU statistics, event counts,
# sizes, timings).
#
# Environment:
#   TC_NAME      file name prefix (default "tracefs")
#   TC_LAYOUT    top (default): one buffer, stored as the file's top buffer
#                  (like `trace-cmd record` or a plain `trace-cmd extract`)
#                multi: that top buffer plus a second instance stored as
#                  buffer "aux" (clock "global", sched_process_exec/exit and
#                  its own trace_marker lines 0.2 s apart, so it holds a
#                  TIME_EXTEND), like `trace-cmd record -B` / `extract -t -B`
#                instance: only the main buffer, stored as buffer
#                  "tracecat" with no top buffer (`trace-cmd extract -B`)
#   TC_VERSIONS  which files to write (default "v7-zstd v6 v7-nocompress";
#                v7-zstd is always made, the others are converted from it)
#   TC_REPORTS   1 (default) writes the trace-cmd report outputs, 0 does not
#   TC_METADATA  reduced (default) or full: see tests/tracefs/extract.sh
#   TC_BUFFER_KB ring buffer size per CPU in KiB (default 1024 + 8 * SCALE,
#                at least 1410: about 3 times what the load needs; 70 MB
#                per CPU for a million events)
#   TC_ALLOW_OVERRUN  1: keep a recording whose ring buffer overflowed
#                (with a small TC_BUFFER_KB: trace-cmd then prints
#                "CPU:N [N EVENTS DROPPED]" lines); default 0: fail
#   TC_EXTRA_EVENTS  more events for the main buffer, as SYSTEM or
#                SYSTEM/EVENT (e.g. "raw_syscalls sched/sched_waking"); their
#                formats are stored too
#   TC_STACKTRACE  1: a kernel stack trace (ftrace kernel_stack) after
#                every event of the main buffer (its "stacktrace" option),
#                for `report --profile`'s caller trees; default 0
#   CC           compiler for tc_workload (default gcc)
#
# Needs root, trace-cmd, a C compiler, unshare and stdbuf.
set -euo pipefail

usage() {
	echo "usage: $0 OUTDIR [SCALE]" >&2
	exit 2
}
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
outdir=$1
scale=${2:-1}
case $scale in '' | *[!0-9]* | 0) usage ;; esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=${TC_NAME:-tracefs}
layout=${TC_LAYOUT:-top}
versions=${TC_VERSIONS:-v7-zstd v6 v7-nocompress}
reports=${TC_REPORTS:-1}
metadata=${TC_METADATA:-reduced}
iterations=$((20 * scale))
buffer_kb=${TC_BUFFER_KB:-$((1024 + 8 * scale))}
[ -n "${TC_BUFFER_KB:-}" ] || [ "$buffer_kb" -ge 1410 ] || buffer_kb=1410
case $layout in top | multi | instance) ;; *) echo "record.sh: TC_LAYOUT must be top, multi or instance" >&2; exit 2 ;; esac
case $metadata in reduced | full) ;; *) echo "record.sh: TC_METADATA must be reduced or full" >&2; exit 2 ;; esac

die() {
	echo "record.sh: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "must run as root"
for tool in trace-cmd unshare stdbuf "${CC:-gcc}"; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed"
done

T=/sys/kernel/tracing
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f s", b - a }'; }

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-record.XXXXXX")
chmod 755 "$work" # tc_workload is run and probed from here
main=tcrec-$$-main
aux=tcrec-$$-aux
group=tcrec_$$
mounted=0
uprobe=0
instances=()

# shellcheck disable=SC2317  # called from the EXIT trap
cleanup() {
	local rc=$? i
	set +e
	for i in "${instances[@]}"; do
		[ -d "$T/instances/$i" ] || continue
		echo 0 >"$T/instances/$i/tracing_on"
		echo 0 >"$T/instances/$i/events/enable"
		rmdir "$T/instances/$i" || echo "record.sh: could not remove instance $i" >&2
	done
	if [ "$uprobe" = 1 ]; then
		echo "-:$group/probe" >>"$T/uprobe_events" ||
			echo "record.sh: could not remove uprobe $group/probe" >&2
	fi
	# Unmount what we mounted, unless someone else has started using it.
	if [ "$mounted" = 1 ] && [ -z "$(ls -A "$T/instances" 2>/dev/null)" ]; then
		umount "$T" || echo "record.sh: could not unmount $T" >&2
	fi
	rm -rf "$work"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

t0=$(now)
if [ ! -d "$T/instances" ]; then
	mount -t tracefs nodev "$T" || die "cannot mount tracefs on $T"
	mounted=1
fi

"${CC:-gcc}" -O2 -o "$work/tc_workload" "$here/tc_workload.c" || die "cannot build tc_workload"
tcw=$work/tc_workload

# A uprobe on tc_workload's tc_probe_point(path, n): a real user-space
# string argument.  Optional: without uprobe support it is left out.
probe_events=()
offset=$("$tcw" probe-offset)
if [ -w "$T/uprobe_events" ] &&
	echo "p:$group/probe $tcw:$offset path=+0(%di):ustring n=%si:s32" >>"$T/uprobe_events" 2>/dev/null; then
	uprobe=1
	probe_events=("$group/probe")
else
	echo "record.sh: uprobes unavailable; recording without $group/probe" >&2
fi

main_events=(sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new
	sched/sched_process_fork sched/sched_process_exec sched/sched_process_exit
	irq syscalls/sys_enter_openat syscalls/sys_exit_openat "${probe_events[@]}")
# shellcheck disable=SC2206  # word splitting wanted
main_events+=(${TC_EXTRA_EVENTS:-})
aux_events=(sched/sched_process_exec sched/sched_process_exit)

# new_instance NAME CLOCK: an instance, stopped and empty, BUFFER_KB per CPU.
new_instance() {
	local d=$T/instances/$1
	mkdir "$d" || die "cannot create instance $1"
	instances+=("$1")
	echo 0 >"$d/tracing_on"
	echo "$buffer_kb" >"$d/buffer_size_kb" || die "cannot set buffer_size_kb to $buffer_kb"
	echo "$2" >"$d/trace_clock"
	echo >"$d/trace"
}
new_instance "$main" local
A=$T/instances/$main
for ev in "${main_events[@]}"; do
	echo 1 >"$A/events/$ev/enable" || die "cannot enable $ev"
done
if [ "${TC_STACKTRACE:-0}" = 1 ]; then
	echo 1 >"$A/options/stacktrace" || die "cannot enable stack traces"
fi
if [ "$layout" = multi ]; then
	new_instance "$aux" global
	B=$T/instances/$aux
	for ev in "${aux_events[@]}"; do echo 1 >"$B/events/$ev/enable"; done
fi
ncpu=$(nproc)

# ---- the workload
t1=$(now)
[ "$layout" != multi ] || echo 1 >"$B/tracing_on"
echo 1 >"$A/tracing_on"
echo "tc-record: begin (scale $scale)" >"$A/trace_marker"
[ "$layout" != multi ] || taskset -c 0 sh -c "echo 'aux: begin' >'$B/trace_marker'"
"$tcw" markers "$A"
# A few short processes (fork, exec, exit; each exec of a dynamic binary
# adds about 25 events: the loader's openat calls, scheduling, softirqs).
/bin/true
sh -c 'exit 3' || true
[ "$ncpu" -lt 2 ] || taskset -c 1 /bin/true
"$tcw" load "$A" "$iterations"
# aux: a marker 0.2 s after the previous event of its CPU (TIME_EXTEND).
[ "$layout" != multi ] || { sleep 0.2; taskset -c 0 sh -c "echo 'aux: end, 0.2 s later' >'$B/trace_marker'"; }
echo "tc-record: end" >"$A/trace_marker"
for i in "${instances[@]}"; do
	echo 0 >"$T/instances/$i/tracing_on"
	echo 0 >"$T/instances/$i/events/enable"
	echo 0 >"$T/instances/$i/options/stacktrace"
done
t_workload=$(since "$t1")

# ---- ring buffer statistics: nothing may have been overwritten
stats=""
entries=0
lost=0
for i in "${instances[@]}"; do
	for c in "$T/instances/$i/per_cpu"/cpu*; do
		s=$(cat "$c/stats")
		e=$(awk '/^entries:/ { print $2 }' <<<"$s")
		o=$(awk '/^overrun:/ { print $2 }' <<<"$s")
		d=$(awk '/^dropped events:/ { print $3 }' <<<"$s")
		entries=$((entries + e))
		lost=$((lost + o + d))
		stats+="  $i ${c##*/}: entries $e, overrun $o, dropped $d"$'\n'
	done
done
if [ "$lost" -gt 0 ] && [ "${TC_ALLOW_OVERRUN:-0}" != 1 ]; then
	printf '%s' "$stats" >&2
	die "$lost events were overwritten or dropped; raise TC_BUFFER_KB (now $buffer_kb)"
fi

# ---- extract and convert
t2=$(now)
zstd=$outdir/$name-v7-zstd.dat
rm -f "$outdir/$name"-v*.dat*
formats="sched irq syscalls/sys_enter_openat syscalls/sys_exit_openat ${probe_events[*]} ${TC_EXTRA_EVENTS:-}"
case $layout in
top) buffers=("$main") ;;
multi) buffers=("$main" "aux=$aux") ;;
instance) buffers=(- "tracecat=$main") ;;
esac
TC_METADATA=$metadata TC_FORMATS=$formats \
	bash "$here/extract.sh" "$zstd" "${buffers[@]}" >"$work/extract.log" 2>&1 ||
	{ cat "$work/extract.log" >&2; die "trace-cmd extract failed"; }
files=("$name-v7-zstd.dat")
for v in $versions; do
	case $v in
	v7-zstd) ;;
	v6) trace-cmd convert --file-version 6 --compression none -i "$zstd" -o "$outdir/$name-v6.dat" >>"$work/extract.log" 2>&1 ||
		die "trace-cmd convert to v6 failed"
		files+=("$name-v6.dat") ;;
	v7-nocompress) trace-cmd convert --file-version 7 --compression none -i "$zstd" -o "$outdir/$name-v7-nocompress.dat" >>"$work/extract.log" 2>&1 ||
		die "trace-cmd convert to v7 without compression failed"
		files+=("$name-v7-nocompress.dat") ;;
	*) die "unknown version $v in TC_VERSIONS" ;;
	esac
done
t_extract=$(since "$t2")

# ---- trace-cmd report outputs
# report OUT ARGS...: stdout to OUT.txt; OUT.err and OUT.status if any.
report() {
	local out=$1 rc=0
	shift
	# (the braces keep bash's "Segmentation fault" notice off our stderr)
	{ (cd "$outdir" && stdbuf -oL trace-cmd report "$@" >"$out.txt" 2>"$out.err"); } 2>/dev/null || rc=$?
	[ -s "$outdir/$out.err" ] || rm -f "$outdir/$out.err"
	if [ "$rc" != 0 ]; then echo "$rc" >"$outdir/$out.status"; else rm -f "$outdir/$out.status"; fi
}
# Event lines: "[CPU] SECONDS.USECS: " (or the raw integer of a non-ns
# clock) - marker texts with new lines make more lines than events.
count_events() { grep -cE '\[[0-9]{3}\] +[0-9]+(\.[0-9]+)?: ' "$1" || true; }
t3=$(now)
notes=""
if [ "$reports" = 1 ]; then
	for f in "${files[@]}"; do
		report "$f.report" "$f"
		report "$f.raw" -R "$f"
		report "$f.cpu0.report" --cpu 0 "$f"
		report "$f.F-sched_switch.report" -F sched/sched_switch "$f"
	done
	for x in "$outdir/$name"-v*.err "$outdir/$name"-v*.status; do
		[ -e "$x" ] || continue
		notes+="  ${x##*/}: $(head -c 200 "$x" | tr '\n' '|')"$'\n'
	done
	# The three files hold the same events: their outputs must agree.
	for f in "${files[@]:1}"; do
		for kind in report raw cpu0.report F-sched_switch.report; do
			cmp -s "$outdir/${files[0]}.$kind.txt" "$outdir/$f.$kind.txt" ||
				notes+="  $f.$kind.txt differs from ${files[0]}.$kind.txt"$'\n'
		done
	done
	events=$(count_events "$outdir/${files[0]}.report.txt")
else
	events=$(trace-cmd report "$zstd" 2>/dev/null | grep -cE '\[[0-9]{3}\] +[0-9]+(\.[0-9]+)?: ' || true)
fi
t_reports=$(since "$t3")

# ---- description
{
	echo "recording: $name (record.sh, layout $layout, scale $scale, $metadata metadata)"
	echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "kernel: $(uname -srm)"
	echo "trace-cmd: $(trace-cmd -h 2>&1 | sed -n 's/^trace-cmd version //p' | head -n 1)"
	echo "cpus: $ncpu, ring buffer $buffer_kb KiB per CPU"
	case $layout in
	top) echo "buffers: top (clock local)" ;;
	multi) echo "buffers: top (clock local) + aux (clock global)" ;;
	instance) echo "buffers: tracecat (clock local), no top buffer" ;;
	esac
	echo "top buffer events: ${main_events[*]} + ftrace print/raw_data"
	[ "$layout" != multi ] || echo "aux buffer events: ${aux_events[*]} + ftrace print"
	echo "ring buffer statistics before extract (total entries $entries, lost $lost):"
	printf '%s' "$stats"
	echo "events in trace-cmd report: $events"
	echo "files:"
	for f in "${files[@]}"; do
		printf '  %-36s %10d bytes  sha256 %s\n' "$f" "$(stat -c %s "$outdir/$f")" \
			"$(sha256sum "$outdir/$f" | cut -c1-16)"
	done
	if [ "$reports" = 1 ]; then
		echo "trace-cmd report notes (stderr, exit status, differences):"
		printf '%s' "${notes:-  none}"
		[ -n "$notes" ] || echo
	fi
	echo "timings: workload $t_workload, extract+convert $t_extract, reports $t_reports, total $(since "$t0")"
} >"$outdir/$name.recording.txt"
cat "$outdir/$name.recording.txt"
