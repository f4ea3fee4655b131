#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ctf-mixes.sh - tracecat against babeltrace2 on LTTng-UST traces of six
# payload mixes, each as CTF 1.8 and as the same trace written as CTF 2 by
# babeltrace2 2.1.2.  Informational only: exits 0 whatever it finds
# (unless it cannot run at all).  ctf-print.sh measures one lean layout;
# this one measures the layouts users' traces are made of.
#
# usage: bash bench/ctf-mixes.sh        (normally through `make bench`)
#
# The mixes (tc_app's mix-* modes, tests/lttng/tc_app.c, recorded once
# with tests/lttng/record.sh on two threads and two CPUs, then cached):
#   ints    integers only (seven, 8 to 64 bits, one hex), vpid and vtid
#   kernel  kernel-like: sched_switch's shape (two 16-byte text arrays,
#           five integers) and sched_process_exec's (an integer, a
#           string) in turn, vtid and procname contexts
#   floats  two floats and two doubles, vtid
#   seqs    sequences (numbers, 0-8; text, 0-16 bytes) and enumerations
#           in turn, vtid
#   tiny    one byte of payload, no context: the per-event cost alone
#   large   a byte sequence of 1-4 KiB, vtid (1/64 of the events: the
#           same order of bytes as the others)
# Each CTF 1.8 trace is converted once to CTF 2 with babeltrace2 2.1.2's
# writer (sink.ctf.fs, ctf-version=2), cached beside it.
#
# For each mix it first checks that `tracecat print` prints what
# babeltrace2 2.1.2 prints (the first 20000 lines, CTF 1.8 and CTF 2), then
# shows the wall time (tracecat: best of BENCH_RUNS, default 3; the peers:
# BENCH_PEER_RUNS, default 1, they are slow and steady) and peak RSS of
#   tracecat print T         vs  babeltrace2 2.1.2 T (and 2.0.4 T)
#   tracecat info T          vs  babeltrace2 2.1.2 T -c sink.utils.dummy
#   decode_all T             vs  the same dummy sink (bench/decode_all.c:
#                                every field value built, which info does
#                                not do; visited only by the check)
#   tracecat convert --events '*' T -o O  vs  babeltrace2 2.1.2 T -o ctf -w O
#   the same print, info, decode_all (and peers) on the CTF 2 trace
# and the ratios peer/tracecat, and tracecat's CTF 2 / CTF 1.8 print time.
# A last table gathers every mix's ratios against the targets of issue 27
# (print >= 15x, info >= 20x, decode >= 15x, convert >= 10x, CTF 2 print
# within 10% of CTF 1.8) and names the ones a mix misses.
#
# Environment: TRACECAT, BENCH_RUNS, BENCH_PEER_RUNS, TRACECAT_BENCH_CACHE,
# BABELTRACE21; BENCH_MIX_EVENTS (events per mix, default 4000000 as
# ctf-print.sh's large trace; 200000 makes a quick run: the recordings of
# each count are cached apart), BENCH_MIXES (the mixes to run, default
# "ints kernel floats seqs tiny large"), BENCH_MIX_BT20=0 to leave
# babeltrace2 2.0.4 out (its print is the slowest step).  At 4M events the
# recordings take about 1.7 GB with their CTF 2 copies.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

echo "== ctf-mixes: tracecat vs babeltrace2 on LTTng-UST payload mixes, CTF 1.8 and CTF 2"
bench_need ctf-mixes babeltrace2 lttng lttng-sessiond gcc /usr/bin/time
bench_need_bin ctf-mixes "$bin"
if ! bt21_ok; then
	echo "ctf-mixes: skipped, babeltrace2 2.1.2 does not run ($bt21)"
	exit 0
fi
libdir=$(cd "$(dirname "$bin")" && pwd)
if [ ! -e "$libdir/libtracecat.so" ]; then
	echo "ctf-mixes: $libdir/libtracecat.so not found; run make first" >&2
	exit 1
fi

export TZ=UTC
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-mixes.XXXXXX")
trap 'rm -rf "$work"' EXIT

events=${BENCH_MIX_EVENTS:-4000000}
peer_runs=${BENCH_PEER_RUNS:-1}
mixes=${BENCH_MIXES:-ints kernel floats seqs tiny large}
record=$root/tests/lttng/record.sh
key=$(cat "$root/tests/lttng/tc_tp.h" "$root/tests/lttng/tc_app.c" "$record" |
	sha256sum | cut -c1-12)
bench_purge_cache "$cache" ustmix "$key"

# The like-for-like decoder, against the library next to $bin.
cc -O2 -std=c11 -I"$root/include" -o "$work/decode_all" "$root/bench/decode_all.c" \
	-L"$libdir" -ltracecat -Wl,-rpath,"$libdir"

# mix_setting MIX: "CONTEXTS|EVENTS" of a mix.
mix_setting() {
	case $1 in
	ints) echo "vpid vtid|$events" ;;
	kernel) echo "vtid procname|$events" ;;
	floats | seqs) echo "vtid|$events" ;;
	tiny) echo "|$events" ;;
	large) echo "vtid|$((events / 64))" ;;
	*) return 1 ;;
	esac
}

# trace_for MIX: a cached CTF 1.8 recording of MIX.
trace_for() {
	local mix=$1 ctx n dir start end
	IFS='|' read -r ctx n < <(mix_setting "$mix")
	dir=$cache/ustmix-$mix-$n-$key
	if [ ! -f "$dir.done" ]; then
		rm -rf "$dir"
		echo "recording $n events of the $mix mix into $dir ..." >&2
		start=$(date +%s%N)
		TC_MODE=mix-$mix TC_CONTEXTS=$ctx TC_SUBBUF_SIZE=1M TC_NUM_SUBBUF=8 \
			nice -n 10 bash "$record" "$dir" "$n" >&2
		end=$(date +%s%N)
		awk -v ns=$((end - start)) 'BEGIN { printf "recorded and verified in %.1f s\n", ns / 1e9 }' >&2
		touch "$dir.done"
	fi
	echo "$dir"
}

# as_ctf2 T: T written as CTF 2 by babeltrace2 2.1.2 (cached beside
# it, under the same key: bench_purge_cache keeps it).
as_ctf2() {
	local out=${1%-"$key"}-ctf2-$key
	if [ ! -f "$out.done" ]; then
		rm -rf "$out"
		echo "converting $1 to CTF 2 with babeltrace2 2.1.2 ..." >&2
		nice -n 10 "$bt21" "$1" -c sink.ctf.fs -p "path=\"$out\",ctf-version=\"2\"" >/dev/null
		touch "$out.done"
	fi
	echo "$out"
}

# check T WHAT: whether tracecat's print starts as babeltrace2 2.1.2's.
check() {
	if cmp -s <("$bin" print "$1" 2>/dev/null | head -n 20000) <("$bt21" "$1" 2>/dev/null | head -n 20000); then
		echo "check: tracecat print output is identical to babeltrace2 2.1.2's on $2 (first 20000 lines)"
	else
		echo "check: tracecat print output DIFFERS from babeltrace2 2.1.2's on $2"
	fi
	echo "check: decode_all -c on $2: $("$work/decode_all" -c "$1" 2>&1)"
}

row() {
	local tool=$1 cmd=$2 secs=$3 mib=$4 rc=$5 note=
	[ "$rc" = 0 ] || note="  (exit status $rc)"
	printf '%-10s %-46s %9s %9s%s\n' "$tool" "$cmd" "$secs" "$mib" "$note"
}

# For measure: runs CMD... DIR after removing the folder DIR it writes.
# shellcheck disable=SC2016  # expanded by the shell measure starts
afresh='rm -rf "$0" && exec "$@" "$0"'

# measure_mix MIX T FORMAT: the rows of one trace; sets r_print r_print20
# r_info r_decode r_convert (peer/tracecat ratios) and s_print (tracecat's
# print seconds).
measure_mix() {
	local mix=$1 t=$2 fmt=$3 s m rc ps pm prc
	printf '\n%-10s %-46s %9s %9s\n' tool "$mix mix, $fmt, $4 events" seconds "peak MiB"
	read -r s m rc < <(measure "$runs" "$bin" print "$t")
	row tracecat "print T > /dev/null" "$s" "$m" "$rc"
	s_print=$s
	read -r ps pm prc < <(measure "$peer_runs" "$bt21" "$t")
	row bt2-2.1 "T > /dev/null" "$ps" "$pm" "$prc"
	r_print=$(ratio "$ps" "$s" 1)
	r_print20=-
	if [ "${BENCH_MIX_BT20:-1}" = 1 ] && [ "$fmt" = "CTF 1.8" ]; then
		read -r ps pm prc < <(measure "$peer_runs" babeltrace2 "$t")
		row bt2-2.0 "T > /dev/null" "$ps" "$pm" "$prc"
		r_print20=$(ratio "$ps" "$s_print" 1)
	fi
	read -r ps pm prc < <(measure "$peer_runs" "$bt21" "$t" -c sink.utils.dummy)
	row bt2-2.1 "T -c sink.utils.dummy" "$ps" "$pm" "$prc"
	read -r s m rc < <(measure "$runs" "$bin" info "$t")
	row tracecat "info T > /dev/null" "$s" "$m" "$rc"
	r_info=$(ratio "$ps" "$s" 1)
	read -r s m rc < <(measure "$runs" "$work/decode_all" "$t")
	row decode_all "T (every field value)" "$s" "$m" "$rc"
	r_decode=$(ratio "$ps" "$s" 1)
	r_convert=-
	if [ "$fmt" = "CTF 1.8" ]; then
		read -r s m rc < <(measure "$runs" bash -c "$afresh" "$work/o" "$bin" convert --events '*' "$t" -o)
		row tracecat "convert --events '*' T -o OUT (re-encoded)" "$s" "$m" "$rc"
		read -r ps pm prc < <(measure "$peer_runs" bash -c "$afresh" "$work/o" "$bt21" "$t" -o ctf -w)
		row bt2-2.1 "T -o ctf -w OUT" "$ps" "$pm" "$prc"
		r_convert=$(ratio "$ps" "$s" 1)
		rm -rf "$work/o"
	fi
	echo "speed ratio babeltrace2/tracecat ($mix, $fmt): print x$r_print (2.0.4 x$r_print20), info x$r_info, decode_all x$r_decode, convert x$r_convert ($(nproc) cores)"
}

echo "machine: $(nproc) online CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
summary=$work/summary
misses=$work/misses
: >"$summary"
: >"$misses"
# miss MIX WHAT RATIO TARGET: notes RATIO when below TARGET.
miss() {
	if [ "$3" != - ] && awk -v r="$3" -v t="$4" 'BEGIN { exit !(r + 0 < t + 0) }'; then
		echo "$1: $2 x$3 (target x$4)" >>"$misses"
	fi
}
for mix in $mixes; do
	if ! mix_setting "$mix" >/dev/null; then
		echo "ctf-mixes: no mix named $mix" >&2
		continue
	fi
	t=$(trace_for "$mix")
	t2=$(as_ctf2 "$t")
	n=$(mix_setting "$mix" | cut -d'|' -f2)
	echo
	echo "-- $mix: $t ($(du -sh "$t" | cut -f1) as CTF 1.8, $(du -sh "$t2" | cut -f1) as CTF 2)"
	check "$t" "CTF 1.8"
	check "$t2" "CTF 2"
	measure_mix "$mix" "$t" "CTF 1.8" "$n"
	p1=$r_print p20=$r_print20 i1=$r_info d1=$r_decode c1=$r_convert s1=$s_print
	measure_mix "$mix" "$t2" "CTF 2" "$n"
	p2=$r_print i2=$r_info d2=$r_decode s2=$s_print
	r_ctf2=$(ratio "$s2" "$s1")
	echo "tracecat CTF 2 / CTF 1.8 print time ($mix): $r_ctf2"
	printf '%-7s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' "$mix" "x$p1" "x$p20" "x$i1" "x$d1" "x$c1" \
		"$r_ctf2" "x$p2" "x$i2" "x$d2" >>"$summary"
	for f in "CTF 1.8:$p1:$i1:$d1" "CTF 2:$p2:$i2:$d2"; do
		IFS=: read -r fmt p i d <<<"$f"
		miss "$mix" "$fmt print vs 2.1.2" "$p" 15
		miss "$mix" "$fmt info vs dummy sink" "$i" 20
		miss "$mix" "$fmt decode_all vs dummy sink" "$d" 15
	done
	miss "$mix" "convert re-encoded vs 2.1.2" "$c1" 10
	if awk -v r="$r_ctf2" 'BEGIN { exit !(r + 0 > 1.10) }'; then
		echo "$mix: CTF 2 print time $r_ctf2 of CTF 1.8's (target at most 1.10)" >>"$misses"
	fi
done

echo
echo "ctf-mixes summary ($events events a mix, large 1/64 of it; babeltrace2 time / tracecat time; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)):"
printf '%-7s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' "" "CTF 1.8" "" "" "" "" "CTF2/1.8" "CTF 2" "" ""
printf '%-7s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' mix print print20 info decode convert "print t" print info decode
printf '%-7s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' target ">=15" - ">=20" ">=15" ">=10" "<=1.10" ">=15" ">=20" ">=15"
cat "$summary"
if [ -s "$misses" ]; then
	echo "below target:"
	sed 's/^/  /' "$misses"
else
	echo "every mix meets every target"
fi
