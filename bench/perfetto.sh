#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# perfetto.sh - `tracecat convert` to Perfetto (.pftrace) and Chrome JSON
# (.json): speed, size and memory, every conversion on one thread (-j 1)
# but where said.  Informational only; exits 0 whatever it finds (unless it
# cannot run at all).
#
#   uftrace: the 2.4M-record recording of tests/uftrace/bench.c (as
#     bench/uftrace-replay.sh makes it), to JSON against `uftrace dump
#     --chrome` (on one thread, and on every core as users run it: decoding
#     ahead, formatting and writing on threads of their own), and to
#     Perfetto; both JSON outputs are first loaded by Python's json and
#     their calls counted;
#   trace.dat: the 1.1M-event recording of bench/tracedat-report.sh (v6 and
#     v7 zstd) and its 4x one (4.5M events): to Perfetto and JSON, in MB/s
#     and events/s of input, the output's size against the v6 file's, and
#     peak RSS from 1x to 4x;
#   CTF: the LTTng-UST recordings of bench/ctf-print.sh (1M and 4M events),
#     and the trace.dat recording converted to LTTng kernel CTF: to
#     Perfetto, in MB/s of input, and peak RSS from 1M to 4M.
#
# Recordings come from the benchmarks' cache (made here when missing and
# possible: trace.dat needs root and tracefs, uftrace needs gcc; the
# LTTng-UST ones only come from bench/ctf-print.sh).
#
# Environment: TRACECAT, BENCH_RUNS (default 3), TRACECAT_BENCH_CACHE,
# PERFETTO_BENCH_4X=0 to skip the 4x trace.dat.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

with_4x=${PERFETTO_BENCH_4X:-1}
export TZ=UTC

echo "== perfetto: tracecat convert to Perfetto and Chrome JSON"
bench_need perfetto /usr/bin/time
bench_need_bin perfetto "$bin"
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-perfetto.XXXXXX")
trap 'rm -rf "$work"' EXIT

mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
# rate BYTES_OR_COUNT SECONDS SCALE: per second, divided by SCALE
rate() { awk -v n="$1" -v s="$2" -v k="$3" 'BEGIN { if (s > 0) printf "%.1f", n / s / k; else print "?" }'; }
# convert_to OUT INPUT...: one conversion on one thread (-j 1, or -j
# $JOBS), replacing OUT (for measure)
convert_to() {
	local out=$1
	shift
	rm -rf "$out" && "$bin" convert -j "${JOBS:-1}" "$@" -o "$out"
}
export -f convert_to
export bin
table_head() { printf '\n%-10s %-44s %9s %9s  %s\n' tool "$1" seconds "peak MiB" "$2"; }
line() { printf '%-10s %-44s %9s %9s  %s\n' "$@"; }

# ---- uftrace ----
if command -v uftrace >/dev/null && d=$(uftrace_recording x1 400000); then
	records=$(cat "$d"/[0-9]*.dat | wc -c | awk '{ printf "%d", $1 / 16 }')
	echo "uftrace recording: $records records, $(du -sh "$d" | cut -f1) ($d)"
	convert_to "$work/u.json" "$d"
	convert_to "$work/u.pftrace" "$d"
	(cd "$work" && uftrace dump --chrome -d "$d" >"$work/uftrace.json" 2>/dev/null) || true
	if command -v python3 >/dev/null; then
		python3 - "$work/u.json" "$work/uftrace.json" <<'EOF' || true
import json, sys
for path, who in ((sys.argv[1], 'tracecat'), (sys.argv[2], 'uftrace dump --chrome')):
    try:
        with open(path, 'rb') as f:
            ev = json.loads(f.read().decode('utf-8'))['traceEvents']
        calls = sum(e.get('ph') in ('B', 'X') for e in ev)
        ends = sum(e.get('ph') in ('E', 'X') for e in ev)
        print('check: %s JSON parses: %d calls begun, %d ended' % (who, calls, ends))
    except Exception as e:
        print('check: %s JSON does not parse: %s' % (who, str(e)[:100]))
EOF
	fi
	table_head "command ($records records)" "output"
	read -r j_s j_m j_rc < <(measure "$runs" bash -c "convert_to '$work/u.json' '$d'")
	line tracecat "convert DIR -o OUT.json" "$j_s" "$j_m" "$(mb "$(stat -c %s "$work/u.json")") MB"
	cores=$(nproc)
	export JOBS=$cores
	read -r jj_s jj_m jj_rc < <(measure "$runs" bash -c "convert_to '$work/u.json' '$d'")
	unset JOBS
	line tracecat "convert -j $cores DIR -o OUT.json" "$jj_s" "$jj_m" "(all $cores cores)"
	read -r p_s p_m p_rc < <(measure "$runs" bash -c "convert_to '$work/u.pftrace' '$d'")
	line tracecat "convert DIR -o OUT.pftrace" "$p_s" "$p_m" "$(mb "$(stat -c %s "$work/u.pftrace")") MB"
	read -r u_s u_m u_rc < <(measure "$runs" bash -c "cd '$work' && uftrace dump --chrome -d '$d' >'$work/uftrace.json'")
	line uftrace "dump --chrome -d DIR > OUT.json" "$u_s" "$u_m" "$(mb "$(stat -c %s "$work/uftrace.json")") MB"
	echo
	echo "speed ratio uftrace dump --chrome / tracecat convert: JSON x$(ratio "$u_s" "$j_s" 1) on one thread, x$(ratio "$u_s" "$jj_s" 1) on $cores cores; Perfetto x$(ratio "$u_s" "$p_s" 1)"
	rm -f "$work"/u.json "$work"/u.pftrace "$work/uftrace.json"
else
	echo "perfetto: no uftrace recording (needs uftrace and gcc, or $cache)"
fi

# ---- trace.dat ----
d1=$(tracedat_trace bench1m 8800 "v7-zstd v6") || d1=""
d4=""
if [ -n "$d1" ] && [ "$with_4x" != 0 ]; then
	d4=$(tracedat_trace bench4m $((4 * 8800)) v7-zstd) || d4=""
fi
if [ -n "$d1" ]; then
	n1=$(tracedat_events "$d1/bench1m.recording.txt")
	v6=$d1/bench1m-v6.dat
	echo
	echo "trace.dat recording: $n1 events, $(mb "$(stat -c %s "$v6")") MB as v6 ($d1)"
	table_head "command ($n1 events)" "input MB/s, events/s, output"
	for f in "$v6" "$d1/bench1m-v7-zstd.dat"; do
		size=$(stat -c %s "$f")
		for ext in pftrace json; do
			read -r s m rc < <(measure "$runs" bash -c "convert_to '$work/t.$ext' '$f'")
			out=$(stat -c %s "$work/t.$ext")
			line tracecat "convert ${f##*-} -o OUT.$ext" "$s" "$m" \
				"$(rate "$size" "$s" 1e6) MB/s, $(rate "$n1" "$s" 1e6) M events/s, $(mb "$out") MB ($(ratio "$out" "$(stat -c %s "$v6")") x v6)"
			[ "$ext" = pftrace ] && [ "$f" = "$v6" ] && { t1_s=$s; t1_m=$m; }
			[ "$ext" = json ] && [ "$f" = "$v6" ] && j1_m=$m
		done
	done
	rm -f "$work"/t.*
	echo
	echo "trace.dat v6 to Perfetto: $(rate "$(stat -c %s "$v6")" "$t1_s" 1e6) MB/s of input on one core"
	# LTTng kernel CTF: the same events as tracecat writes them for Trace Compass.
	if "$bin" convert "$v6" -o "$work/kernel-ctf" 2>/dev/null; then
		csize=$(du -sb "$work/kernel-ctf" | cut -f1)
		read -r s m rc < <(measure "$runs" bash -c "convert_to '$work/k.pftrace' '$work/kernel-ctf'")
		echo "LTTng kernel CTF ($(mb "$csize") MB, from the v6 file) to Perfetto: $s s, $(rate "$csize" "$s" 1e6) MB/s, peak $m MiB, $(mb "$(stat -c %s "$work/k.pftrace")") MB out"
		rm -rf "$work/kernel-ctf" "$work/k.pftrace"
	fi
	if [ -n "$d4" ]; then
		z4=$d4/bench4m-v7-zstd.dat
		n4=$(tracedat_events "$d4/bench4m.recording.txt")
		read -r s4 m4 rc < <(measure 1 bash -c "convert_to '$work/t4.pftrace' '$z4'")
		read -r js4 jm4 rc < <(measure 1 bash -c "convert_to '$work/t4.json' '$z4'")
		echo "4x trace.dat ($n4 events, v7 zstd): Perfetto $s4 s, JSON $js4 s"
		echo "peak RSS 1x -> 4x events: Perfetto $t1_m -> $m4 MiB, JSON $j1_m -> $jm4 MiB"
		rm -f "$work"/t4.*
	fi
else
	echo "perfetto: no trace.dat recording (needs root, tracefs, gcc and trace-cmd, or $cache)"
fi

# ---- CTF (LTTng-UST) ----
u1=$(ls -d "$cache"/ust-bench-1000000-* 2>/dev/null | grep -v '\.done$' | head -1 || true)
u4=$(ls -d "$cache"/ust-bench-4000000-* 2>/dev/null | grep -v '\.done$' | head -1 || true)
if [ -n "$u1" ]; then
	echo
	table_head "command (LTTng-UST CTF)" "input MB/s"
	for t in "$u1" ${u4:+"$u4"}; do
		size=$(du -sb "$t" | cut -f1)
		n=$([ "$t" = "$u1" ] && echo 1M || echo 4M)
		r=$runs
		[ "$t" = "$u4" ] && r=1
		read -r s m rc < <(measure "$r" bash -c "convert_to '$work/c.pftrace' '$t'")
		line tracecat "convert $n-event trace -o OUT.pftrace" "$s" "$m" "$(rate "$size" "$s" 1e6) MB/s of $(mb "$size") MB"
		rm -f "$work/c.pftrace"
	done
else
	echo "perfetto: no LTTng-UST recording in $cache (bench/ctf-print.sh makes them)"
fi
