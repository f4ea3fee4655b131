#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctf-float.sh - what floating-point fields cost `tracecat print`, against
# babeltrace2 and against the same events without them.  Informational
# only: exits 0 whatever it finds (unless it cannot run at all).
#
# usage: bash bench/ctf-float.sh        (normally through `make bench`)
#
# It records (once; later runs reuse the cache) two 4M-event LTTng-UST
# traces with tests/lttng/record.sh, made the way ctf-print.sh makes its
# own: tc:bench_float events (tc:bench's four fields, a double seq / 7 and a
# float sqrt(seq): values printed with six rounded digits, babeltrace2's
# "%g") and tc:bench events (the same without the two floats).  It checks
# that `tracecat print` prints exactly what babeltrace2 prints on the float
# trace, then shows the wall time (best of BENCH_RUNS, default 3, the two
# traces' runs taken in turn) and peak RSS of
#   tracecat print T > /dev/null    on both traces, and with -j 1 (one
#                                   thread: steadier on a busy machine,
#                                   where the two-thread time swings)
#   babeltrace2 T > /dev/null       (2.0.4, and 2.1.2 when it runs) on the
#                                   float trace, once: it is slow and steady
# with the speed ratios babeltrace2/tracecat and tracecat's float/no-float
# time ratio: the floats' share of the printing.
#
# Environment: TRACECAT, BENCH_RUNS, TRACECAT_BENCH_CACHE (the two traces
# take about 520 MB), BABELTRACE21, FLOAT_BENCH_EVENTS (default 4000000).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

echo "== ctf-float: tracecat print with and without floating-point fields"
bench_need ctf-float babeltrace2 lttng lttng-sessiond gcc /usr/bin/time
bench_need_bin ctf-float "$bin"

export TZ=UTC
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

record=$root/tests/lttng/record.sh
events=${FLOAT_BENCH_EVENTS:-4000000}
key=$(cat "$root/tests/lttng/tc_tp.h" "$root/tests/lttng/tc_app.c" "$record" |
	sha256sum | cut -c1-12)
bench_purge_cache "$cache" ust-float "$key"

# trace_for MODE: a cached recording of $events events of tc_app's MODE.
trace_for() {
	local mode=$1 dir=$cache/ust-float-$1-$events-$key
	if [ ! -f "$dir.done" ]; then
		rm -rf "$dir"
		echo "recording $events $mode events into $dir ..." >&2
		TC_MODE=$mode TC_SUBBUF_SIZE=1M TC_NUM_SUBBUF=8 \
			bash "$record" "$dir" "$events" >&2
		touch "$dir.done"
	fi
	echo "$dir"
}

with=$(trace_for bench-float)
without=$(trace_for bench)
echo "traces: $with ($(du -sh "$with" | cut -f1)), $without ($(du -sh "$without" | cut -f1))"

if cmp_out=$(cmp <("$bin" print "$with" 2>/dev/null) <(babeltrace2 "$with" 2>/dev/null) 2>&1); then
	echo "check: tracecat print output is identical to babeltrace2's on the float trace"
else
	echo "check: tracecat print output DIFFERS from babeltrace2's on the float trace: ${cmp_out:-exit status differs}"
fi

# best_pair A_ARGS B_ARGS: prints "a_s a_mib a_rc b_s b_mib b_rc", the best
# of $runs runs of tracecat with each argument list (split on spaces), run
# in turn: a busy machine's load then weighs on both alike, where two
# blocks of runs can meet different loads.
best_pair() {
	local i a b out=''
	for ((i = 0; i < runs; i++)); do
		# shellcheck disable=SC2086  # the argument lists are words
		read -r -a a < <(measure 1 "$bin" $1)
		# shellcheck disable=SC2086
		read -r -a b < <(measure 1 "$bin" $2)
		out=$(awk -v prev="$out" -v cur="${a[*]} ${b[*]}" 'BEGIN {
			n = split(cur, c, " ")
			if (prev == "") { print cur; exit }
			split(prev, p, " ")
			for (i = 1; i <= n; i += 3) {
				if (c[i] + 0 < p[i] + 0) p[i] = c[i]
				if (c[i + 1] + 0 > p[i + 1] + 0) p[i + 1] = c[i + 1]
				if (c[i + 2] != 0) p[i + 2] = c[i + 2]
			}
			print p[1], p[2], p[3], p[4], p[5], p[6]
		}')
	done
	echo "$out"
}

printf '\n%-10s %-40s %9s %9s\n' tool "command ($events events)" seconds "peak MiB"
read -r tf_s tf_m tf_rc tn_s tn_m tn_rc < <(best_pair "print $with" "print $without")
row tracecat "print T-float > /dev/null" "$tf_s" "$tf_m" "$tf_rc"
row tracecat "print T-nofloat > /dev/null" "$tn_s" "$tn_m" "$tn_rc"
read -r tf1_s tf1_m tf1_rc tn1_s tn1_m tn1_rc < <(best_pair "print -j 1 $with" "print -j 1 $without")
row tracecat "print -j 1 T-float > /dev/null" "$tf1_s" "$tf1_m" "$tf1_rc"
row tracecat "print -j 1 T-nofloat > /dev/null" "$tn1_s" "$tn1_m" "$tn1_rc"
read -r b_s b_m b_rc < <(measure 1 babeltrace2 "$with")
row bt2-2.0 "T-float > /dev/null" "$b_s" "$b_m" "$b_rc"
have_bt21=0
bt21_ok && have_bt21=1
if [ "$have_bt21" = 1 ]; then
	read -r b21_s b21_m b21_rc < <(measure 1 "$bt21" "$with")
	row bt2-2.1 "T-float > /dev/null" "$b21_s" "$b21_m" "$b21_rc"
fi

echo
echo "tracecat float/no-float time: x$(ratio "$tf_s" "$tn_s"), on one thread x$(ratio "$tf1_s" "$tn1_s")"
line="speed ratio babeltrace2/tracecat on the float trace: 2.0.4 x$(ratio "$b_s" "$tf_s")"
if [ "$have_bt21" = 1 ]; then
	line="$line, 2.1.2 x$(ratio "$b21_s" "$tf_s")"
else
	line="$line; 2.1.2 does not run ($bt21)"
fi
echo "$line"
