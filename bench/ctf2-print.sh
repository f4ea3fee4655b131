#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctf2-print.sh - tracecat against babeltrace2 2.1.2 (the CTF 2 reference)
# on CTF 2 traces, and against itself on the same trace as CTF 1.8.
# Informational only: exits 0 whatever it finds.  Named to run after
# ctf-print.sh, whose LTTng-UST recordings (1M and 4M events, in its cache)
# it converts to CTF 2 once with babeltrace2 2.1.2's writer.
#
#   tracecat print T2 > /dev/null   vs  babeltrace2-2.1 T2 > /dev/null
#   tracecat info T2                vs  babeltrace2-2.1 T2 -c sink.utils.dummy
#   tracecat print/info T2          vs  tracecat print/info T1.8 (same events)
#   peak RSS from 1M to 4M events
#
# Environment: TRACECAT, BENCH_RUNS (default 3), TRACECAT_BENCH_CACHE,
# BABELTRACE21 (default tests/peers/babeltrace2-2.1, Debian sid's package).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC

echo "== ctf2-print: tracecat vs babeltrace2 2.1.2 on CTF 2 traces"
bench_need ctf2-print /usr/bin/time
if ! bt21_ok; then
	echo "ctf2-print: skipped, babeltrace2 2.1.2 does not run ($bt21)"
	exit 0
fi
bench_need_bin ctf2-print "$bin"
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# recording EVENTS: ctf-print.sh's cached CTF 1.8 recording, or nothing.
recording() {
	ls -d "$cache"/ust-bench-"$1"-* 2>/dev/null | grep -v -e '\.done$' -e '-ctf2$' | head -1 || true
}

# as_ctf2 T18: T18 converted to CTF 2 by babeltrace2 2.1.2 (cached beside it).
as_ctf2() {
	local out=$1-ctf2
	if [ ! -f "$out.done" ]; then
		rm -rf "$out"
		echo "converting $1 to CTF 2 with babeltrace2 2.1.2 ..." >&2
		"$bt21" "$1" -c sink.ctf.fs -p "path=\"$out\",ctf-version=\"2\"" >/dev/null
		touch "$out.done"
	fi
	echo "$out"
}

t1m=$(recording 1000000)
t4m=$(recording 4000000)
if [ -z "$t1m" ] || [ -z "$t4m" ]; then
	echo "ctf2-print: skipped, run bench/ctf-print.sh first (it records the traces)"
	exit 0
fi
c1m=$(as_ctf2 "$t1m")
c4m=$(as_ctf2 "$t4m")
echo "traces: $c4m ($(du -sh "$c4m" | cut -f1), CTF 2), $t4m ($(du -sh "$t4m" | cut -f1), CTF 1.8)"

if cmp -s <("$bin" print "$c1m" 2>/dev/null) <("$bt21" "$c1m" 2>/dev/null); then
	echo "check: tracecat print output is identical to babeltrace2 2.1.2's on the 1M CTF 2 trace"
else
	echo "check: tracecat print output DIFFERS from babeltrace2 2.1.2's on the 1M CTF 2 trace"
fi

printf '\n%-10s %-40s %9s %9s\n' tool "command (4M events)" seconds "peak MiB"
read -r tp_s tp_m tp_rc < <(measure "$runs" "$bin" print "$c4m")
row tracecat "print T2 > /dev/null" "$tp_s" "$tp_m" "$tp_rc"
read -r bp_s bp_m bp_rc < <(measure 1 "$bt21" "$c4m")
row babeltrace2-2.1 "T2 > /dev/null" "$bp_s" "$bp_m" "$bp_rc"
read -r ti_s ti_m ti_rc < <(measure "$runs" "$bin" info "$c4m")
row tracecat "info T2 (one thread per core)" "$ti_s" "$ti_m" "$ti_rc"
read -r bi_s bi_m bi_rc < <(measure 1 "$bt21" "$c4m" -c sink.utils.dummy)
row babeltrace2-2.1 "T2 -c sink.utils.dummy" "$bi_s" "$bi_m" "$bi_rc"
read -r sp_s sp_m sp_rc < <(measure "$runs" "$bin" print "$t4m")
row tracecat "print T1.8 > /dev/null" "$sp_s" "$sp_m" "$sp_rc"
read -r si_s si_m si_rc < <(measure "$runs" "$bin" info "$t4m")
row tracecat "info T1.8" "$si_s" "$si_m" "$si_rc"
read -r p1_s p1_m p1_rc < <(measure 1 "$bin" print "$c1m")
read -r i1_s i1_m i1_rc < <(measure 1 "$bin" info "$c1m")

echo
echo "speed ratio babeltrace2 2.1.2/tracecat on CTF 2: print x$(ratio "$bp_s" "$tp_s"), info x$(ratio "$bi_s" "$ti_s") ($(nproc) cores)"
echo "CTF 2 against the same trace as CTF 1.8 (time ratio, 1.00 = as fast): print $(ratio "$tp_s" "$sp_s"), info $(ratio "$ti_s" "$si_s")"
echo "tracecat peak RSS on CTF 2, 1M -> 4M events: print $p1_m -> $tp_m MiB, info $i1_m -> $ti_m MiB"
