# bench/lib.sh - helpers shared by the benchmark scripts (sourced, not run).
# measure expects $work to name a scratch directory.

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
