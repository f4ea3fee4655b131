#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctf-print.sh - speed and memory of tracecat against babeltrace2 on large
# LTTng-UST traces.  Informational only: it is not part of any test and
# exits 0 whatever it finds (unless it cannot run at all).
#
# usage: bash bench/ctf-print.sh        (normally through `make bench`)
#
# It records (once; later runs reuse the cache) a 1M-event and a 4M-event
# trace of tests/lttng/tc_app's lean tc:bench event, checks that
# `tracecat print` prints exactly what babeltrace2 prints on the 1M trace,
# then measures wall time (best of BENCH_RUNS runs, default 3) and peak RSS
# of:
#   tracecat print T > /dev/null    vs  babeltrace2 T > /dev/null
#   tracecat info T > /dev/null     vs  babeltrace2 T -c sink.utils.dummy
#   (info reads streams on all cores; info -j 1 on one, shown too)
# (the dummy sink makes babeltrace2 read every event without formatting
# it, the closest equivalent of `info`, which reads and checks every event
# but builds no field value it does not show), and how tracecat's peak RSS
# grows from 1M to 4M events: a streaming reader should stay flat.
#
# Environment: TRACECAT (binary, default build/tracecat), BENCH_RUNS,
# TRACECAT_BENCH_CACHE (default ${TMPDIR:-/tmp}/tracecat-bench; the traces
# take about 60 and 240 MB).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

record=$root/tests/lttng/record.sh

echo "== ctf-print: tracecat vs babeltrace2 on LTTng-UST traces"
for tool in babeltrace2 lttng lttng-sessiond gcc /usr/bin/time; do
	if ! command -v "$tool" >/dev/null; then
		echo "ctf-print: skipped, $tool is not installed"
		exit 0
	fi
done
if [ ! -x "$bin" ]; then
	echo "ctf-print: $bin not found; run make first" >&2
	exit 1
fi

# Same output on every machine, whatever its time zone.
export TZ=UTC
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Recordings are keyed by the recorder's sources so that a changed event
# layout is never benchmarked against a stale trace.
key=$(cat "$root/tests/lttng/tc_tp.h" "$root/tests/lttng/tc_app.c" "$record" |
	sha256sum | cut -c1-12)
mkdir -p "$cache"
# Drop recordings made by older versions of the recorder, and ctf2-print.sh's
# CTF 2 conversions of them; they are large.
for old in "$cache"/ust-bench-*; do
	case $old in *-"$key" | *-"$key".done | *-"$key"-ctf2 | *-"$key"-ctf2.done) ;; *) rm -rf "$old" ;; esac
done

# trace_for EVENTS: path of a cached recording of EVENTS tc:bench events.
trace_for() {
	local events=$1 dir=$cache/ust-bench-$1-$key start end
	if [ ! -f "$dir.done" ]; then
		rm -rf "$dir"
		echo "recording $events events into $dir ..." >&2
		start=$(date +%s%N)
		TC_MODE=bench TC_SUBBUF_SIZE=1M TC_NUM_SUBBUF=8 \
			bash "$record" "$dir" "$events" tc:bench >&2
		end=$(date +%s%N)
		awk -v ns=$((end - start)) 'BEGIN { printf "recorded and verified in %.1f s\n", ns / 1e9 }' >&2
		touch "$dir.done"
	fi
	echo "$dir"
}

t1m=$(trace_for 1000000)
t4m=$(trace_for 4000000)
echo "traces: $t1m ($(du -sh "$t1m" | cut -f1)), $t4m ($(du -sh "$t4m" | cut -f1))"

# Correctness first: a fast tool that prints something else proves nothing.
cmp_out=$(cmp <("$bin" print "$t1m" 2>/dev/null) <(babeltrace2 "$t1m" 2>/dev/null) 2>&1) && same=1 || same=0
if [ "$same" = 1 ]; then
	echo "check: tracecat print output is identical to babeltrace2's on the 1M trace"
else
	echo "check: tracecat print output DIFFERS from babeltrace2's on the 1M trace: ${cmp_out:-exit status differs}"
fi

row() {
	local tool=$1 cmd=$2 secs=$3 mib=$4 rc=$5 note=
	[ "$rc" = 0 ] || note="  (exit status $rc)"
	printf '%-12s %-44s %9s %9s%s\n' "$tool" "$cmd" "$secs" "$mib" "$note"
}


printf '\n%-12s %-44s %9s %9s\n' tool "command (1M events)" seconds "peak MiB"
read -r tp_s tp_m tp_rc < <(measure "$runs" "$bin" print "$t1m")
row tracecat "print T > /dev/null" "$tp_s" "$tp_m" "$tp_rc"
read -r bp_s bp_m bp_rc < <(measure "$runs" babeltrace2 "$t1m")
row babeltrace2 "T > /dev/null" "$bp_s" "$bp_m" "$bp_rc"
read -r ti_s ti_m ti_rc < <(measure "$runs" "$bin" info "$t1m")
row tracecat "info T > /dev/null (one thread per core)" "$ti_s" "$ti_m" "$ti_rc"
read -r t1_s t1_m t1_rc < <(measure "$runs" "$bin" info -j 1 "$t1m")
row tracecat "info -j 1 T > /dev/null (one thread)" "$t1_s" "$t1_m" "$t1_rc"
read -r bi_s bi_m bi_rc < <(measure "$runs" babeltrace2 "$t1m" -c sink.utils.dummy)
row babeltrace2 "T -c sink.utils.dummy" "$bi_s" "$bi_m" "$bi_rc"

echo
echo "speed ratio babeltrace2/tracecat: print x$(ratio "$bp_s" "$tp_s"), info x$(ratio "$bi_s" "$ti_s") ($(nproc) cores), info -j 1 x$(ratio "$bi_s" "$t1_s")"

# tracecat's runs are short enough to take the best of several, as on 1M
# events (a single one swings by a third on a busy virtual machine);
# babeltrace2's, 1.3 to 5.6 s, are steadier and run once.
printf '\n%-12s %-44s %9s %9s\n' tool "command (4M events)" seconds "peak MiB"
read -r tp4_s tp4_m tp4_rc < <(measure "$runs" "$bin" print "$t4m")
row tracecat "print T > /dev/null" "$tp4_s" "$tp4_m" "$tp4_rc"
read -r ti4_s ti4_m ti4_rc < <(measure "$runs" "$bin" info "$t4m")
row tracecat "info T > /dev/null" "$ti4_s" "$ti4_m" "$ti4_rc"
read -r bp4_s bp4_m bp4_rc < <(measure 1 babeltrace2 "$t4m")
row babeltrace2 "T > /dev/null" "$bp4_s" "$bp4_m" "$bp4_rc"

echo
echo "tracecat peak RSS, 1M -> 4M events: print $tp_m -> $tp4_m MiB, info $ti_m -> $ti4_m MiB"
echo "babeltrace2 peak RSS, 1M -> 4M events: print $bp_m -> $bp4_m MiB"

# The newest babeltrace2 too (much faster than 2.0.4), when it runs.
if bt21_ok; then
	read -r b21p_s b21p_m b21p_rc < <(measure 1 "$bt21" "$t4m")
	row babeltrace2-2.1 "T > /dev/null (4M events)" "$b21p_s" "$b21p_m" "$b21p_rc"
	read -r b21i_s b21i_m b21i_rc < <(measure 1 "$bt21" "$t4m" -c sink.utils.dummy)
	row babeltrace2-2.1 "T -c sink.utils.dummy (4M events)" "$b21i_s" "$b21i_m" "$b21i_rc"
	echo "speed ratio babeltrace2 2.1.2/tracecat, 4M events: print x$(ratio "$b21p_s" "$tp4_s"), info x$(ratio "$b21i_s" "$ti4_s") ($(nproc) cores); 2.0.4: print x$(ratio "$bp4_s" "$tp4_s")"
else
	echo "babeltrace2 2.1.2: does not run ($bt21; see tests/peers/README.md)"
fi
