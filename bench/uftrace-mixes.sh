#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uftrace-mixes.sh - `tracecat convert` of uftrace recordings to Chrome
# JSON and Perfetto against `uftrace dump --chrome`, on three kinds of
# recording.  Informational only: exits 0 whatever it finds (unless it
# cannot run at all).  perfetto.sh measures one flat loop; these are the
# shapes users' recordings take.
#
# usage: bash bench/uftrace-mixes.sh        (normally through `make bench`)
#
# The mixes (bench/uftrace_mix_load.c built with gcc -pg -g -O0 and
# recorded once with the installed uftrace, then cached):
#   fib      recursion-heavy: fib(N), N the largest whose records fit in
#            BENCH_MIX_EVENTS (fib(29), 3.3M records, by default)
#   threads  8 threads calling step() -> leaf(): a task file each
#   args     `uftrace record -a`: arguments and return values (integers,
#            a double, a string) in every record
# about BENCH_MIX_EVENTS records each.  For each: a check that both JSON
# outputs load in Python's json with as many function calls begun and
# ended (scheduling events left out: uftrace gives them as unmatched "E"
# events, tracecat as instants), then
# wall time (tracecat: best of BENCH_RUNS, default 3; uftrace:
# BENCH_PEER_RUNS, default 1) and peak RSS of
#   tracecat convert DIR -o OUT.json       (on every core, as users run it)
#   tracecat convert DIR -o OUT.pftrace
#   uftrace dump --chrome -d DIR > OUT.json
# and the ratios uftrace/tracecat, gathered in a last table against issue
# 27's target (5x) with the misses named.
#
# Environment: TRACECAT, BENCH_RUNS, BENCH_PEER_RUNS, TRACECAT_BENCH_CACHE,
# BENCH_MIX_EVENTS (default 4000000; smaller for a quick run, recordings
# of each count cached apart), BENCH_UFTRACE_MIXES (default "fib threads
# args").
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

echo "== uftrace-mixes: tracecat convert vs uftrace dump --chrome on three uftrace recordings"
bench_need uftrace-mixes uftrace gcc /usr/bin/time
bench_need_bin uftrace-mixes "$bin"
export TZ=UTC
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-ufmixes.XXXXXX")
trap 'rm -rf "$work"' EXIT

records=${BENCH_MIX_EVENTS:-4000000}
peer_runs=${BENCH_PEER_RUNS:-1}
mixes=${BENCH_UFTRACE_MIXES:-fib threads args}
key=$( {
	cat "$root/bench/uftrace_mix_load.c"
	uftrace --version 2>&1 | head -n 1
} | sha256sum | cut -c1-12)
bench_purge_cache "$cache" ufmix "$key"

# fib_n: the largest N whose 2 * (2 * fib(N + 1) - 1) records fit.
fib_n() {
	awk -v r="$records" 'BEGIN {
		a = 0; b = 1; n = 0
		while (1) { c = a + b; a = b; b = c; if (2 * (2 * b - 1) > r || n > 40) break; n++ }
		print (n > 1 ? n : 2)
	}'
}

# recording MIX: folder of a cached recording of MIX.
recording() {
	local mix=$1 dir=$cache/ufmix-$1-$records-$key opts=() args
	if [ ! -f "$dir.done" ]; then
		rm -rf "$dir"
		case $mix in
		fib) args=(fib "$(fib_n)") ;;
		threads) args=(threads $((records / 2))) ;;
		args) args=(args $((records / 2))); opts=(-a) ;;
		esac
		echo "recording the $mix mix (${args[*]}) into $dir ..." >&2
		gcc -pg -g -O0 -pthread -o "$work/load" "$root/bench/uftrace_mix_load.c" >&2 || return 1
		nice -n 10 uftrace record "${opts[@]}" -d "$dir" "$work/load" "${args[@]}" >"$work/record.log" 2>&1 ||
			{ cat "$work/record.log" >&2; return 1; }
		rm -f "$work/load" # the symbols are in the .sym files
		touch "$dir.done"
	fi
	echo "$dir"
}

# For measure: runs CMD... OUT after removing OUT.
# shellcheck disable=SC2016  # expanded by the shell measure starts
afresh='rm -rf "$0" && exec "$@" "$0"'

# row TOOL COMMAND SECONDS MIB STATUS OUTPUT
row() {
	local note=
	[ "$5" = 0 ] || note="  (exit status $5)"
	printf '%-10s %-40s %9s %9s  %s%s\n' "$1" "$2" "$3" "$4" "$6" "$note"
}

summary=$work/summary
misses=$work/misses
: >"$summary"
: >"$misses"
echo "machine: $(nproc) online CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $(uftrace --version 2>&1 | head -n 1)"
for mix in $mixes; do
	case $mix in fib | threads | args) ;; *) echo "uftrace-mixes: no mix named $mix" >&2; continue ;; esac
	d=$(recording "$mix") || { echo "uftrace-mixes: skipped $mix, cannot record it"; continue; }
	n=$(cat "$d"/[0-9]*.dat | wc -c | awk '{ printf "%d", $1 / 16 }')
	echo
	echo "-- $mix: $d ($(du -sh "$d" | cut -f1), $n 16-byte units of records and arguments)"
	"$bin" convert "$d" -o "$work/t.json"
	(cd "$work" && uftrace dump --chrome -d "$d" >"$work/u.json" 2>/dev/null) || true
	if command -v python3 >/dev/null; then
		python3 - "$work/t.json" "$work/u.json" <<'EOF' || true
import json, sys
seen = []
for path in sys.argv[1:]:
    try:
        with open(path, 'rb') as f:
            ev = json.loads(f.read().decode('utf-8'))['traceEvents']
        # uftrace shows scheduling as "E" events of their own, tracecat as
        # instants: calls only
        ev = [e for e in ev if not str(e.get('name', '')).startswith('linux:')]
        seen.append((sum(e.get('ph') in ('B', 'X') for e in ev), sum(e.get('ph') in ('E', 'X') for e in ev)))
    except Exception as e:
        seen.append('does not parse: ' + str(e)[:80])
if seen[0] == seen[1]:
    print('check: both JSON outputs parse, %d calls begun and %d ended' % seen[0])
else:
    print('check: the JSON outputs DIFFER: tracecat %s, uftrace %s' % (seen[0], seen[1]))
EOF
	fi
	rm -f "$work/t.json" "$work/u.json"
	printf '%-10s %-40s %9s %9s  %s\n' tool "command ($mix)" seconds "peak MiB" output
	read -r j_s j_m j_rc < <(measure "$runs" bash -c "$afresh" "$work/t.json" "$bin" convert "$d" -o)
	row tracecat "convert DIR -o OUT.json" "$j_s" "$j_m" "$j_rc" "$(du -m "$work/t.json" | cut -f1) MB"
	read -r p_s p_m p_rc < <(measure "$runs" bash -c "$afresh" "$work/t.pftrace" "$bin" convert "$d" -o)
	row tracecat "convert DIR -o OUT.pftrace" "$p_s" "$p_m" "$p_rc" "$(du -m "$work/t.pftrace" | cut -f1) MB"
	# shellcheck disable=SC2016  # expanded by the shell measure starts
	read -r u_s u_m u_rc < <(measure "$peer_runs" bash -c 'cd "$0" && uftrace dump --chrome -d "$1" >u.json' "$work" "$d")
	row uftrace "dump --chrome -d DIR > OUT.json" "$u_s" "$u_m" "$u_rc" "$(du -m "$work/u.json" | cut -f1) MB"
	rm -f "$work"/t.json "$work"/t.pftrace "$work"/u.json
	rj=$(ratio "$u_s" "$j_s" 1) rp=$(ratio "$u_s" "$p_s" 1)
	echo "speed ratio uftrace dump --chrome / tracecat convert ($mix): JSON x$rj, Perfetto x$rp ($(nproc) cores)"
	printf '%-8s %9s %9s\n' "$mix" "x$rj" "x$rp" >>"$summary"
	for f in "JSON:$rj" "Perfetto:$rp"; do
		if awk -v r="${f#*:}" 'BEGIN { exit !(r + 0 < 5) }'; then
			echo "$mix: ${f%%:*} x${f#*:} (target x5)" >>"$misses"
		fi
	done
done

echo
echo "uftrace-mixes summary (about $records records a mix; uftrace dump --chrome time / tracecat convert time; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '%-8s %9s %9s\n' mix JSON Perfetto
printf '%-8s %9s %9s\n' target ">=5" ">=5"
cat "$summary"
if [ -s "$misses" ]; then
	echo "below target:"
	sed 's/^/  /' "$misses"
else
	echo "every mix meets the target"
fi
