#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lttng-legacy.sh - speed of tracecat on a legacy LTTng 0.x trace.  No
# program that reads these traces runs today (LTTV and Eclipse's 0.x
# plugin are gone), so the peer is what a user does instead: convert once
# and read the CTF with babeltrace2.  Informational only: it is not part
# of any test and exits 0 whatever it finds (unless it cannot run at all).
#
# usage: bash bench/lttng-legacy.sh [TRACE_DIR]   (normally through `make bench`)
#
# TRACE_DIR defaults to the committed tests/corpus/lttng-legacy/trace-2.6
# (or that of $TRACECAT_CORPUS; 2 CPUs, 219558 events, 2.4 MB).  It measures wall time (best of BENCH_RUNS runs, default
# 5) and peak RSS of
#   tracecat print TRACE_DIR                  (the legacy reader)
#   babeltrace2 CTF                            (the same events as CTF)
#   tracecat print CTF                         (tracecat's CTF reader)
#   tracecat convert TRACE_DIR -o CTF          (legacy to CTF)
# with CTF the conversion of TRACE_DIR, checked first to print the same
# lines in both tools; and the ratios against babeltrace2.
#
# Environment: TRACECAT (binary, default build/tracecat), BENCH_RUNS.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

runs=${BENCH_RUNS:-5}
trace=${1:-${TRACECAT_CORPUS:-$root/tests/corpus}/lttng-legacy/trace-2.6}

echo "== lttng-legacy: tracecat on a legacy LTTng trace vs babeltrace2 on its CTF conversion"
bench_need lttng-legacy babeltrace2 /usr/bin/time
if [ ! -d "$trace" ]; then
	echo "lttng-legacy: skipped, no trace at $trace"
	exit 0
fi
bench_need_bin lttng-legacy "$bin"

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-legacy.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin" convert "$trace" -o "$work/ctf" >/dev/null
"$bin" print "$trace" >"$work/tracecat.txt"
babeltrace2 "$work/ctf" >"$work/bt2.txt"
events=$(wc -l <"$work/tracecat.txt")
if cmp -s "$work/tracecat.txt" "$work/bt2.txt"; then
	echo "input: $trace, $events events; the conversion prints the same lines in babeltrace2"
else
	echo "input: $trace, $events events; WARNING: babeltrace2 prints the conversion differently"
fi

read -r l_s l_m _ < <(measure "$runs" "$bin" print "$trace")
read -r b_s b_m _ < <(measure "$runs" babeltrace2 "$work/ctf")
read -r c_s c_m _ < <(measure "$runs" "$bin" print "$work/ctf")
rm -rf "$work/ctf2"
read -r v_s v_m _ < <(measure 1 "$bin" convert "$trace" -o "$work/ctf2")
printf '%-34s %8s s %8s MiB %12s events/s\n' "tracecat print LEGACY" "$l_s" "$l_m" \
	"$(awk -v n="$events" -v s="$l_s" 'BEGIN { printf "%.0f", n / s }')"
printf '%-34s %8s s %8s MiB\n' "babeltrace2 CTF" "$b_s" "$b_m"
printf '%-34s %8s s %8s MiB\n' "tracecat print CTF" "$c_s" "$c_m"
printf '%-34s %8s s %8s MiB\n' "tracecat convert LEGACY -o CTF" "$v_s" "$v_m"
echo "speed ratio babeltrace2 CTF / tracecat print LEGACY: x$(ratio "$b_s" "$l_s" 1)"
