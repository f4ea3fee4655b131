#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tracecat-convert.sh - `tracecat convert` against babeltrace2's CTF
# writer, and its trace.dat throughput.  Informational only; exits 0
# whatever it finds.  Named to run after ctf-print.sh and
# tracedat-report.sh, whose recordings (in their cache) it uses.
#
#   CTF -> CTF on the 1M- and 4M-event LTTng-UST traces:
#     tracecat convert T -o OUT                (packets copied)
#     tracecat convert --events '*' T -o OUT   (every event re-encoded,
#                                               streams on every core)
#     babeltrace2 T -o ctf -w OUT              (2.0.4, and 2.1.2 when built)
#   checked first on 1M: babeltrace2 shows the same events in every output;
#   trace.dat -> CTF on the 1.1M-event recording (v7 zstd and v6), with
#   LTTng names: seconds, input MB/s and events/s, and peak RSS.
#
# Environment: TRACECAT, BENCH_RUNS (default 3), TRACECAT_BENCH_CACHE,
# BABELTRACE21 (default tests/peers/babeltrace2-2.1: sid's 2.1.2).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

export TZ=UTC

echo "== tracecat-convert: tracecat convert vs babeltrace2 -o ctf"
if ! command -v babeltrace2 >/dev/null || [ ! -x /usr/bin/time ]; then
	echo "tracecat-convert: skipped, babeltrace2 or /usr/bin/time is missing"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

ust=$(ls -d "$cache"/ust-bench-1000000-* 2>/dev/null | grep -v -e '\.done$' -e '-ctf2$' | head -1 || true)
ust4=$(ls -d "$cache"/ust-bench-4000000-* 2>/dev/null | grep -v -e '\.done$' -e '-ctf2$' | head -1 || true)
td=$(ls -d "$cache"/tracedat-bench1m-* 2>/dev/null | grep -v '\.done$' | head -1 || true)

row() {
	printf '%-16s %-46s %9s %9s %s\n' "$@"
}

# ctf_rows T EVENTS: the rows and ratios of CTF -> CTF on trace T.
ctf_rows() {
	local t=$1 events=$2 c_s c_m c_rc r_s r_m r_rc b_s b_m b_rc b21_s b21_m b21_rc
	echo
	row tool "command ($events events, $(du -sh "$t" | cut -f1))" seconds "peak MiB" ""
	# Each run writes a fresh folder, after removing the last one.
	read -r c_s c_m c_rc < <(measure "$runs" bash -c "rm -rf '$work/o' && '$bin' convert '$t' -o '$work/o'")
	row tracecat "convert T -o OUT (packets copied)" "$c_s" "$c_m"
	read -r r_s r_m r_rc < <(measure "$runs" bash -c "rm -rf '$work/o' && '$bin' convert --events '*' '$t' -o '$work/o'")
	row tracecat "convert --events '*' T -o OUT (re-encoded)" "$r_s" "$r_m"
	read -r b_s b_m b_rc < <(measure "$runs" bash -c "rm -rf '$work/o' && babeltrace2 '$t' -o ctf -w '$work/o'")
	row babeltrace2 "T -o ctf -w OUT" "$b_s" "$b_m"
	echo "speed ratio babeltrace2 2.0.4/tracecat, $events events: copy x$(ratio "$b_s" "$c_s" 1), re-encoded x$(ratio "$b_s" "$r_s" 1) ($(nproc) cores)"
	if bt21_ok; then
		read -r b21_s b21_m b21_rc < <(measure "$runs" bash -c "rm -rf '$work/o' && '$bt21' '$t' -o ctf -w '$work/o'")
		row babeltrace2-2.1 "T -o ctf -w OUT" "$b21_s" "$b21_m"
		echo "speed ratio babeltrace2 2.1.2/tracecat, $events events: copy x$(ratio "$b21_s" "$c_s" 1), re-encoded x$(ratio "$b21_s" "$r_s" 1) ($(nproc) cores)"
	fi
}

if [ -n "$ust" ]; then
	t=$ust
	babeltrace2 "$t" >"$work/ref.txt" 2>/dev/null
	echo "trace: $t ($(du -sh "$t" | cut -f1), $(wc -l <"$work/ref.txt") events)"
	ok=1
	for how in copy reencode bt2; do
		rm -rf "$work/o"
		case $how in
		copy) "$bin" convert "$t" -o "$work/o" ;;
		reencode) "$bin" convert --events '*' "$t" -o "$work/o" ;;
		bt2) babeltrace2 "$t" -o ctf -w "$work/o" >/dev/null 2>&1 ;;
		esac
		if ! babeltrace2 "$work/o" 2>/dev/null | cmp -s - "$work/ref.txt"; then
			echo "check: the $how output shows other events than the input"
			ok=0
		fi
	done
	[ $ok = 1 ] && echo "check: babeltrace2 shows the input's events in all three outputs"
	ctf_rows "$t" 1M
	[ -z "$ust4" ] || ctf_rows "$ust4" 4M
else
	echo "tracecat-convert: no 1M-event LTTng-UST recording in $cache (bench/ctf-print.sh makes it)"
fi

if [ -n "$td" ]; then
	echo
	row tool "command (trace.dat, LTTng names)" seconds "peak MiB" "throughput"
	for f in "$td"/*-v7-zstd.dat "$td"/*-v6.dat; do
		[ -f "$f" ] || continue
		rm -rf "$work/o"
		"$bin" convert "$f" -o "$work/o"
		n=$(babeltrace2 "$work/o" 2>/dev/null | wc -l)
		read -r s m rc < <(measure "$runs" bash -c "rm -rf '$work/o' && '$bin' convert '$f' -o '$work/o'")
		bytes=$(stat -c %s "$f")
		row tracecat "convert $(basename "$f") -o OUT" "$s" "$m" \
			"$(awk -v b="$bytes" -v s="$s" -v n="$n" 'BEGIN { printf "%.0f MB/s in, %.2f M events/s (%d events)", b / 1e6 / s, n / 1e6 / s, n }')"
	done
else
	echo "tracecat-convert: no trace.dat recording in $cache (bench/tracedat-report.sh makes it)"
fi
exit 0
