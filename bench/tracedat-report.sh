#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tracedat-report.sh - speed and memory of `tracecat report` against
# `trace-cmd report` on large trace.dat files.  Informational only: it is
# not part of any test and exits 0 whatever it finds (unless it cannot run
# at all).
#
# usage: bash bench/tracedat-report.sh        (normally through `make bench`)
#
# It records (once; later runs reuse the cache) with tests/tracefs/record.sh
# a trace of over a million events (sched, irq, openat, a uprobe and
# trace_marker lines on both CPUs; full metadata: every event format and
# the whole kallsyms, as a plain `trace-cmd extract` stores them), as
# trace-cmd's default v7 zstd file and as its v6 conversion, and a 4x
# larger v7 zstd one.  Then:
#   - checks that `tracecat report F` prints exactly what `trace-cmd report
#     F` prints on both 1M files (or says that tracecat has no report
#     command yet, and only times trace-cmd);
#   - measures wall time (best of BENCH_RUNS runs, default 3) and peak RSS
#     (/usr/bin/time -f %M, largest over the runs) of
#       tracecat report F > /dev/null   vs   trace-cmd report F > /dev/null
#     for the v7 zstd and the v6 file, with the speed ratios;
#   - shows how tracecat's (and trace-cmd's) peak RSS grows from the 1M to
#     the 4M trace: a streaming reader should stay flat.
#
# Recording needs root, tracefs, trace-cmd and gcc; it takes about 25 s
# for the 1M trace and 2 minutes for the 4M one, once.
#
# Environment: TRACECAT (binary, default build/tracecat), BENCH_RUNS,
# TRACECAT_BENCH_CACHE (default ${TMPDIR:-/tmp}/tracecat-bench; the files
# take about 60 MB (1M, both versions) and 25 MB (4M, zstd)),
# TRACEDAT_BENCH_4X=0 to skip the 4x trace.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

scale_1m=8800 # record.sh makes about 122 events per unit of scale
with_4x=${TRACEDAT_BENCH_4X:-1}

echo "== tracedat-report: tracecat report vs trace-cmd report on trace.dat files"
bench_need tracedat-report trace-cmd /usr/bin/time
bench_need_bin tracedat-report "$bin"

export TZ=UTC
# The installed trace-cmd is Debian 12's 3.1.6: its text, whatever the
# caller asked of the other peers (tests/live/tracecmd34.sh checks 3.4's).
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}trace-cmd=3.1
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-tracedat.XXXXXX")
trap 'rm -rf "$work"' EXIT

d1=$(tracedat_trace bench1m "$scale_1m" "v7-zstd v6") || { echo "tracedat-report: skipped, no trace"; exit 0; }
z1=$d1/bench1m-v7-zstd.dat
v1=$d1/bench1m-v6.dat
n1=$(tracedat_events "$d1/bench1m.recording.txt")
echo "trace: $n1 events; $(du -h "$z1" | cut -f1) as v7 zstd, $(du -h "$v1" | cut -f1) as v6 ($d1)"
[ "${n1:-0}" -ge 1000000 ] || echo "note: fewer than a million events were recorded"
d4=""
if [ "$with_4x" != 0 ]; then
	d4=$(tracedat_trace bench4m $((4 * scale_1m)) v7-zstd) || d4=""
fi
if [ -n "$d4" ]; then
	z4=$d4/bench4m-v7-zstd.dat
	n4=$(tracedat_events "$d4/bench4m.recording.txt")
	echo "4x trace: $n4 events; $(du -h "$z4" | cut -f1) as v7 zstd"
fi

# Does this tracecat have a report command?  (Same test as the live test.)
have_report=1
help_rc=0
help=$("$bin" report --help 2>&1) || help_rc=$?
if [ "$help_rc" = 2 ] && grep -qiE 'unknown|usage' <<<"$help" &&
	! "$bin" --help 2>&1 | grep -qE '(^|[^a-z-])report([^a-z-]|$)'; then
	have_report=0
	echo "check: tracecat has no report command yet; timing trace-cmd only"
fi

# Correctness first: a fast tool that prints something else proves nothing.
if [ "$have_report" = 1 ]; then
	for f in "$z1" "$v1"; do
		trc=0
		tcrc=0
		trace-cmd report "$f" >"$work/expected" 2>/dev/null || trc=$?
		"$bin" report "$f" >"$work/actual" 2>"$work/err" || tcrc=$?
		if [ "$tcrc" != "$trc" ]; then
			echo "check: ${f##*/}: tracecat report exits $tcrc, trace-cmd $trc: $(head -n 1 "$work/err" | head -c 120)"
		elif cmp_out=$(cmp "$work/expected" "$work/actual" 2>&1); then
			echo "check: ${f##*/}: tracecat report output is identical to trace-cmd report's"
		else
			echo "check: ${f##*/}: tracecat report output DIFFERS from trace-cmd report's: $cmp_out"
		fi
		rm -f "$work/expected" "$work/actual"
	done
fi

printf '\n%-10s %-40s %9s %9s\n' tool "command ($n1 events)" seconds "peak MiB"
read -r cz_s cz_m cz_rc < <(measure "$runs" trace-cmd report "$z1")
row trace-cmd "report v7-zstd > /dev/null" "$cz_s" "$cz_m" "$cz_rc"
if [ "$have_report" = 1 ]; then
	read -r tz_s tz_m tz_rc < <(measure "$runs" "$bin" report "$z1")
	row tracecat "report v7-zstd > /dev/null" "$tz_s" "$tz_m" "$tz_rc"
fi
read -r c6_s c6_m c6_rc < <(measure "$runs" trace-cmd report "$v1")
row trace-cmd "report v6 > /dev/null" "$c6_s" "$c6_m" "$c6_rc"
if [ "$have_report" = 1 ]; then
	read -r t6_s t6_m t6_rc < <(measure "$runs" "$bin" report "$v1")
	row tracecat "report v6 > /dev/null" "$t6_s" "$t6_m" "$t6_rc"
	echo
	echo "speed ratio trace-cmd/tracecat: v7 zstd x$(ratio "$cz_s" "$tz_s" 1), v6 x$(ratio "$c6_s" "$t6_s" 1)"
	echo "peak RSS ratio trace-cmd/tracecat: v7 zstd x$(ratio "$cz_m" "$tz_m" 1), v6 x$(ratio "$c6_m" "$t6_m" 1)"
fi

if [ -n "$d4" ]; then
	# One run each is enough for memory.
	printf '\n%-10s %-40s %9s %9s\n' tool "command ($n4 events)" seconds "peak MiB"
	read -r c4_s c4_m c4_rc < <(measure 1 trace-cmd report "$z4")
	row trace-cmd "report v7-zstd > /dev/null" "$c4_s" "$c4_m" "$c4_rc"
	if [ "$have_report" = 1 ]; then
		read -r t4_s t4_m t4_rc < <(measure 1 "$bin" report "$z4")
		row tracecat "report v7-zstd > /dev/null" "$t4_s" "$t4_m" "$t4_rc"
		echo
		echo "tracecat peak RSS, 1M -> 4M events (v7 zstd): $tz_m -> $t4_m MiB"
	fi
	echo "trace-cmd peak RSS, 1M -> 4M events (v7 zstd): $cz_m -> $c4_m MiB"
fi
