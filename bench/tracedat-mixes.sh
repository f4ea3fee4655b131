#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tracedat-mixes.sh - `tracecat report` against `trace-cmd report` on three
# event mixes recorded on this machine, each as trace-cmd's default v7 zstd
# file and as its v6 conversion.  Informational only: it exits 0 whatever
# it finds (unless it cannot run at all).
#
# usage: bash bench/tracedat-mixes.sh        (normally through `make bench`)
#
# The mixes (recorded once, then cached):
#   sched     scheduler-heavy: every sched:* event, two processes passing
#             a byte back and forth through pipes on two CPUs
#   syscalls  syscall-heavy: raw_syscalls and every syscalls:* event, a
#             loop of cheap system calls of several kinds on every CPU
#   all       every event of this kernel enabled at once (the widest
#             variety of print formats), under both loads
# (bench/tracedat_mix_load.c is the load).  Each is recorded into a fresh
# ftrace instance of its own (/sys/kernel/tracing/instances/tcmix-PID),
# saved with tests/tracefs/extract.sh (full metadata: every format and the
# whole kallsyms, as a plain `trace-cmd extract`), converted to v6 with
# `trace-cmd convert`, and the instance removed, whatever happens.
#
# Then, for each of the six files: a check that `tracecat report F` prints
# exactly what `trace-cmd report F` prints, the wall time (best of
# BENCH_RUNS runs, default 3) and peak RSS of both with the output to
# /dev/null, and the speed ratio; the machine's core count and load come
# first, the files below issue 27's target (10x) last.
#
# Recording needs root, tracefs, trace-cmd and a C compiler; it takes about
# a minute for the three mixes.  Environment: TRACECAT (binary, default
# build/tracecat), BENCH_RUNS, TRACECAT_BENCH_CACHE (default
# ${TMPDIR:-/tmp}/tracecat-bench; the files take about 250 MB),
# TRACEDAT_MIX_EVENTS (about how many events per mix, default 1500000, or
# 3/8 of BENCH_MIX_EVENTS when that is set, as for ctf-mixes.sh's quick
# runs).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

events=${TRACEDAT_MIX_EVENTS:-$((${BENCH_MIX_EVENTS:-4000000} * 3 / 8))}
T=/sys/kernel/tracing

echo "== tracedat-mixes: tracecat report vs trace-cmd report on three event mixes"
bench_need tracedat-mixes trace-cmd /usr/bin/time
bench_need_bin tracedat-mixes "$bin"
echo "machine: $(nproc) online CPUs, $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

export TZ=UTC
# The installed trace-cmd is Debian 12's 3.1.6: its text, whatever the
# caller asked of the other peers (tests/live/tracecmd34.sh checks 3.4's).
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}trace-cmd=3.1
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-bench-mixes.XXXXXX")
instance=""
cleanup() {
	set +e
	if [ -n "$instance" ] && [ -d "$T/instances/$instance" ]; then
		echo 0 >"$T/instances/$instance/tracing_on"
		echo 0 >"$T/instances/$instance/events/enable"
		rmdir "$T/instances/$instance"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Rounds of the load per mix for EVENTS events (measured here: events per
# round of the load on two CPUs).
rounds_for() {
	case $1 in
	sched) echo $((events / 9)) ;;
	syscalls) echo $((events / 56)) ;;
	all) echo $((events / 130)) ;;
	esac
}

# record MIX DIR: DIR/MIX-v7-zstd.dat and DIR/MIX-v6.dat.
record() {
	local mix=$1 dir=$2 d load ev
	[ "$(id -u)" = 0 ] || { echo "tracedat-mixes: recording needs root" >&2; return 1; }
	command -v "${CC:-cc}" >/dev/null || { echo "tracedat-mixes: no C compiler" >&2; return 1; }
	[ -d "$T/instances" ] || mount -t tracefs nodev "$T" || return 1
	"${CC:-cc}" -O2 -o "$work/load" "$root/bench/tracedat_mix_load.c" || return 1
	instance=tcmix-$$-$mix
	d=$T/instances/$instance
	mkdir "$d"
	echo 0 >"$d/tracing_on"
	echo 196608 >"$d/buffer_size_kb"
	echo local >"$d/trace_clock"
	case $mix in
	sched) echo 1 >"$d/events/sched/enable"; load=pingpong ;;
	syscalls) echo 1 >"$d/events/raw_syscalls/enable"; echo 1 >"$d/events/syscalls/enable"; load=syscalls ;;
	all) echo 1 >"$d/events/enable"; load=mixed ;;
	esac
	echo >"$d/trace"
	echo 1 >"$d/tracing_on"
	"$work/load" "$load" "$(rounds_for "$mix")"
	echo 0 >"$d/tracing_on"
	echo 0 >"$d/events/enable"
	mkdir -p "$dir"
	TC_METADATA=full bash "$root/tests/tracefs/extract.sh" "$dir/$mix-v7-zstd.dat" "$instance" >"$work/extract.log" 2>&1 ||
		{ cat "$work/extract.log" >&2; return 1; }
	rmdir "$d"
	instance=""
	trace-cmd convert --file-version 6 --compression none -i "$dir/$mix-v7-zstd.dat" -o "$dir/$mix-v6.dat" >"$work/convert.log" 2>&1 ||
		{ cat "$work/convert.log" >&2; return 1; }
	ev=$(trace-cmd report "$dir/$mix-v7-zstd.dat" 2>/dev/null | grep -cE '\[[0-9]{3}\] +[0-9]+(\.[0-9]+)?: ' || true)
	echo "$ev" >"$dir/$mix.events"
}

# Keyed by what records (the functions below, not the whole script, whose
# reporting may change without making the recordings stale).
key=$( {
	declare -f rounds_for record
	cat "$root/bench/tracedat_mix_load.c" "$root/tests/tracefs/extract.sh"
	echo "$events"
	uname -r
	{ trace-cmd -h 2>&1 || true; } | sed -n 2p
} | sha256sum | cut -c1-12)
# (not "tracedat-...": tracedat-report.sh purges those of other keys)
bench_purge_cache "$cache" mixes "$key"
dir=$cache/mixes-$key
for mix in sched syscalls all; do
	if [ ! -f "$dir/$mix.done" ]; then
		echo "recording the $mix mix into $dir ..." >&2
		record "$mix" "$dir" || { echo "tracedat-mixes: skipped, cannot record the $mix mix"; exit 0; }
		touch "$dir/$mix.done"
	fi
done

printf '\n%-9s %-8s %9s %9s %10s %10s %9s %9s %7s\n' mix file events MB "trace-cmd" tracecat "tc MiB" "tcat MiB" ratio
for mix in sched syscalls all; do
	for v in v7-zstd v6; do
		f=$dir/$mix-$v.dat
		check=""
		trace-cmd report "$f" >"$work/expected" 2>/dev/null || true
		"$bin" report "$f" >"$work/actual" 2>/dev/null || true
		cmp -s "$work/expected" "$work/actual" || check="  OUTPUT DIFFERS: $(cmp "$work/expected" "$work/actual" 2>&1 | head -n 1)"
		rm -f "$work/expected" "$work/actual"
		read -r c_s c_m _ < <(measure "$runs" trace-cmd report "$f")
		read -r t_s t_m _ < <(measure "$runs" "$bin" report "$f")
		r=$(ratio "$c_s" "$t_s" 1)
		printf '%-9s %-8s %9s %9s %10s %10s %9s %9s %7s%s\n' "$mix" "$v" "$(cat "$dir/$mix.events")" \
			"$(du -m "$f" | cut -f1)" "$c_s" "$t_s" "$c_m" "$t_m" "x$r" "$check"
		if awk -v r="$r" 'BEGIN { exit !(r + 0 < 10) }'; then
			printf ' %s %s x%s;' "$mix" "$v" "$r" >>"$work/misses"
		fi
	done
done
echo "(seconds: best of $runs runs, output to /dev/null; ratio: trace-cmd time / tracecat time; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
if [ -s "$work/misses" ]; then
	echo "below target (x10):$(cat "$work/misses")"
else
	echo "every file meets the target (x10)"
fi
