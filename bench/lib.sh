# SPDX-License-Identifier: MIT
# bench/lib.sh - helpers shared by the benchmark scripts (sourced, not run).
# measure expects $work to name a scratch directory.

# What every script measures and where: the tracecat binary (TRACECAT),
# runs per measurement (BENCH_RUNS), the recordings' cache
# (TRACECAT_BENCH_CACHE) and babeltrace2 2.1.2 (BABELTRACE21, by default
# the wrapper running Debian sid's package, see tests/peers/README.md).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${TRACECAT:-$root/build/tracecat}
runs=${BENCH_RUNS:-3}
cache=${TRACECAT_BENCH_CACHE:-${TMPDIR:-/tmp}/tracecat-bench}
bt21=${BABELTRACE21:-$root/tests/peers/babeltrace2-2.1}

# measure RUNS CMD...: prints "best_seconds peak_MiB status".  The time is
# the best run's; the peak RSS is the largest seen over all runs.
measure() {
	local n=$1 i start end ns best='' rss peak=0 rc=0
	shift
	for ((i = 0; i < n; i++)); do
		start=$(date +%s%N)
		/usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>"$work/err" || rc=$?
		end=$(date +%s%N)
		ns=$((end - start))
		if [ -z "$best" ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
		# /usr/bin/time prefixes a note when the command fails.
		rss=$(tail -n 1 "$work/rss")
		if [ "$rss" -gt "$peak" ]; then peak=$rss; fi
	done
	awk -v ns="$best" -v kib="$peak" -v rc="$rc" \
		'BEGIN { printf "%.3f %.1f %d\n", ns / 1e9, kib / 1024, rc }'
}

# ratio A B [DIGITS]: A / B with DIGITS decimals (2 by default).
ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b > 0) printf "%.*f", d, a / b; else print "?" }'
}

# bench_need NAME TOOL...: when a TOOL is not installed, says that benchmark
# NAME is skipped and exits 0.
bench_need() {
	local name=$1 tool
	shift
	for tool in "$@"; do
		if ! command -v "$tool" >/dev/null; then
			echo "$name: skipped, $tool is not installed"
			exit 0
		fi
	done
}

# bt21_ok: whether babeltrace2 2.1.2 runs.  Asked once before any timing,
# since the default wrapper builds its sid root on first use.
bt21_ok() {
	"$bt21" --version >/dev/null 2>&1
}

# bench_need_bin NAME BIN: when BIN (the tracecat to measure) is not built,
# says so and exits 1.
bench_need_bin() {
	if [ ! -x "$2" ]; then
		echo "$1: $2 not found; run make first" >&2
		exit 1
	fi
}

# bench_purge_cache CACHE PREFIX KEY: makes the cache folder CACHE and
# removes its recordings PREFIX-* (and their PREFIX-*.done marks) that are
# not keyed by KEY: those of older sources or tool versions.
bench_purge_cache() {
	local cache=$1 prefix=$2 key=$3 old
	mkdir -p "$cache"
	for old in "$cache/$prefix"-*; do
		[ -e "$old" ] || continue
		case $old in *-"$key" | *-"$key".done) ;; *) rm -rf "$old" ;; esac
	done
}

# row TOOL COMMAND SECONDS MIB STATUS: one line of a results table, the
# exit status noted when it is not 0.
row() {
	local tool=$1 cmd=$2 secs=$3 mib=$4 rc=$5 note=
	[ "$rc" = 0 ] || note="  (exit status $rc)"
	printf '%-10s %-40s %9s %9s%s\n' "$tool" "$cmd" "$secs" "$mib" "$note"
}

# The recordings several benchmarks share, cached in $cache (made with the
# scratch directory $work, from the sources under $root).

# tracedat_trace NAME SCALE VERSIONS: folder of a cached trace.dat
# recording of tests/tracefs/record.sh (full metadata, no reports), keyed
# by the recorder's sources, the kernel and trace-cmd; recorded when
# missing (needs root, tracefs and gcc).
tracedat_trace() {
	local name=$1 scale=$2 versions=$3 key dir
	key=$( {
		cat "$root/tests/tracefs/record.sh" "$root/tests/tracefs/extract.sh" "$root/tests/tracefs/tc_workload.c"
		uname -r
		{ trace-cmd -h 2>&1 || true; } | sed -n 2p
	} | sha256sum | cut -c1-12)
	bench_purge_cache "$cache" "tracedat-$name" "$key"
	dir=$cache/tracedat-$name-$key
	if [ ! -f "$dir.done" ]; then
		if [ "$(id -u)" != 0 ] || ! command -v gcc >/dev/null || ! command -v trace-cmd >/dev/null; then
			echo "cannot record $name (needs root, gcc and trace-cmd) and nothing is cached in $cache" >&2
			return 1
		fi
		rm -rf "$dir"
		echo "recording $name (scale $scale) into $dir ..." >&2
		TC_NAME=$name TC_VERSIONS=$versions TC_REPORTS=0 TC_METADATA=full \
			bash "$root/tests/tracefs/record.sh" "$dir" "$scale" >"$work/record-$name.log" 2>&1 ||
			{ cat "$work/record-$name.log" >&2; return 1; }
		sed -n 's/^timings: /recorded: /p' "$dir/$name.recording.txt" >&2
		touch "$dir.done"
	fi
	echo "$dir"
}

# tracedat_events RECORDING_TXT: the event count record.sh noted.
tracedat_events() { sed -n 's/^events in trace-cmd report: //p' "$1"; }

# uftrace_recording NAME ITERATIONS: folder of a cached uftrace recording of
# tests/uftrace/bench.c (6 records per iteration, built with gcc -pg -O0),
# keyed by its source and the uftrace version; recorded when missing.
uftrace_recording() {
	local name=$1 n=$2 key dir
	key=$( {
		cat "$root/tests/uftrace/bench.c"
		uftrace --version 2>&1 | head -n 1
	} | sha256sum | cut -c1-12)
	bench_purge_cache "$cache" "uftrace-$name" "$key"
	dir=$cache/uftrace-$name-$key
	if [ ! -f "$dir.done" ]; then
		if ! command -v gcc >/dev/null; then
			echo "cannot record $name (needs gcc) and nothing is cached in $cache" >&2
			return 1
		fi
		rm -rf "$dir"
		echo "recording $name ($n iterations) into $dir ..." >&2
		gcc -pg -O0 -o "$work/bench" "$root/tests/uftrace/bench.c" >&2 || return 1
		(cd "$cache" && uftrace record -d "${dir##*/}" "$work/bench" "$n") >"$work/record-$name.log" 2>&1 ||
			{ cat "$work/record-$name.log" >&2; return 1; }
		rm -f "$work/bench" # the symbols are in the .sym files
		touch "$dir.done"
	fi
	echo "$dir"
}

