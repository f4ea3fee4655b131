#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uftrace-replay.sh - speed and memory of `tracecat replay` against
# `uftrace replay` on large uftrace recordings.  Informational only: it is
# not part of any test and exits 0 whatever it finds (unless it cannot run
# at all).
#
# usage: bash bench/uftrace-replay.sh        (normally through `make bench`)
#
# It records (once; later runs reuse the cache) tests/uftrace/bench.c,
# built with gcc -pg -O0: one thread calling work() -> leaf() twice in a
# loop, 400000 iterations, so 2.4M records (38 MB of .dat), and a 4x larger
# recording (9.6M records, 154 MB).  Then:
#   - checks that `tracecat replay DIR` prints exactly what `uftrace replay
#     -d DIR` prints on the 2.4M recording (when tracecat replay fails, for
#     instance because tracecat has no replay command yet, it says so and
#     only times uftrace);
#   - measures wall time (best of BENCH_RUNS runs, default 3) and peak RSS
#     (/usr/bin/time -f %M, largest over the runs) of
#       tracecat replay DIR > /dev/null   vs   uftrace replay -d DIR > /dev/null
#     with the ratios;
#   - shows how peak RSS grows from the 2.4M to the 9.6M recording: a
#     streaming reader should stay flat.
#
# Recording needs uftrace and gcc and takes about a second (2.4M) and four
# seconds (9.6M), once.
#
# Environment: TRACECAT (binary, default build/tracecat), BENCH_RUNS,
# TRACECAT_BENCH_CACHE (default ${TMPDIR:-/tmp}/tracecat-bench; the
# recordings take about 200 MB), UFTRACE_BENCH_4X=0 to skip the 4x
# recording.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

# The installed uftrace is Debian 12's 0.13: its text, not the default
# (0.19's), is the one to compare with; the last item of a request wins.
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}uftrace=0.13

iterations=400000 # 6 records per iteration
with_4x=${UFTRACE_BENCH_4X:-1}

echo "== uftrace-replay: tracecat replay vs uftrace replay on uftrace recordings"
bench_need uftrace-replay uftrace /usr/bin/time
bench_need_bin uftrace-replay "$bin"

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-uftrace.XXXXXX")
trap 'rm -rf "$work"' EXIT

# records DIR: how many records the task files hold (16 bytes each; the
# bench program records no arguments).
records() {
	cat "$1"/[0-9]*.dat | wc -c | awk '{ printf "%d", $1 / 16 }'
}

d1=$(uftrace_recording x1 "$iterations") || { echo "uftrace-replay: skipped, no recording"; exit 0; }
n1=$(records "$d1")
echo "recording: $n1 records, $(du -sh "$d1" | cut -f1) ($d1)"
[ "$n1" -ge 2000000 ] || echo "note: fewer than 2 million records were recorded"
d4=""
if [ "$with_4x" != 0 ]; then
	d4=$(uftrace_recording x4 $((4 * iterations))) || d4=""
fi
if [ -n "$d4" ]; then
	n4=$(records "$d4")
	echo "4x recording: $n4 records, $(du -sh "$d4" | cut -f1)"
fi

# Correctness first: a fast tool that prints something else proves nothing.
# A tracecat whose replay fails here (no replay command yet, or a broken
# one) is not timed.
have_replay=1
urc=0
trc=0
uftrace replay -d "$d1" >"$work/expected" 2>/dev/null || urc=$?
"$bin" replay "$d1" >"$work/actual" 2>"$work/err" || trc=$?
if [ "$trc" != 0 ]; then
	have_replay=0
	echo "check: tracecat replay exits $trc (uftrace replay $urc): $(head -n 1 "$work/err" | cut -c 1-120); timing uftrace only"
elif cmp_out=$(cmp "$work/expected" "$work/actual" 2>&1); then
	echo "check: tracecat replay output is identical to uftrace replay's ($(wc -l <"$work/expected") lines)"
else
	echo "check: tracecat replay output DIFFERS from uftrace replay's: $cmp_out"
fi
rm -f "$work/expected" "$work/actual"

printf '\n%-10s %-40s %9s %9s\n' tool "command ($n1 records)" seconds "peak MiB"
read -r u_s u_m u_rc < <(measure "$runs" uftrace replay -d "$d1")
row uftrace "replay -d DIR > /dev/null" "$u_s" "$u_m" "$u_rc"
if [ "$have_replay" = 1 ]; then
	read -r t_s t_m t_rc < <(measure "$runs" "$bin" replay "$d1")
	row tracecat "replay DIR > /dev/null" "$t_s" "$t_m" "$t_rc"
	echo
	echo "speed ratio uftrace/tracecat: x$(ratio "$u_s" "$t_s" 1)"
	echo "peak RSS ratio uftrace/tracecat: x$(ratio "$u_m" "$t_m" 2)"
fi

if [ -n "$d4" ]; then
	# One run each is enough for memory.
	printf '\n%-10s %-40s %9s %9s\n' tool "command ($n4 records)" seconds "peak MiB"
	read -r u4_s u4_m u4_rc < <(measure 1 uftrace replay -d "$d4")
	row uftrace "replay -d DIR > /dev/null" "$u4_s" "$u4_m" "$u4_rc"
	if [ "$have_replay" = 1 ]; then
		read -r t4_s t4_m t4_rc < <(measure 1 "$bin" replay "$d4")
		row tracecat "replay DIR > /dev/null" "$t4_s" "$t4_m" "$t4_rc"
		echo
		echo "tracecat peak RSS, 1x -> 4x records: $t_m -> $t4_m MiB"
	fi
	echo "uftrace peak RSS, 1x -> 4x records: $u_m -> $u4_m MiB"
fi
