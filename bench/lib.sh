# bench/lib.sh - helpers shared by the benchmark scripts (sourced, not run).
# They expect $work to name a scratch directory.

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
