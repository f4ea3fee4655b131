#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/fuzz/run.sh TARGET SECONDS - runs one libFuzzer target of
# build/fuzz/ (make fuzz) for SECONDS, with a seed corpus taken from the
# project's own fixtures, kept in build/fuzz/corpus-TARGET between runs.
# Crashes, leaks and timeouts are written to build/fuzz/findings-TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=$1
seconds=${2:-60}
bin=build/fuzz/$target
corpus=build/fuzz/corpus-$target
findings=build/fuzz/findings-$target
[ -x "$bin" ] || { echo "no $bin: run make fuzz first" >&2; exit 2; }
mkdir -p "$corpus" "$findings"
case "$target" in
fuzz_ctf_metadata)
	i=0
	for m in $(find tests/fixtures -name metadata); do cp "$m" "$corpus/seed-$((i++))"; done;;
fuzz_ctf_stream)
	for s in tests/fixtures/ctf/sample/ust/uid/0/64-bit/channel0_*; do cp "$s" "$corpus/seed-$(basename "$s")"; done;;
fuzz_tracedat)
	for s in tests/fixtures/tracedat/*.dat; do cp "$s" "$corpus/seed-$(basename "$s")"; done;;
fuzz_text)
	for s in tests/fixtures/ctf/ust-types/ust/uid/0/64-bit/channel0_*; do
		for opts in '\x00\x00' '\xff\xff' '\x25\x12'; do
			{ printf "$opts"; cat "$s"; } >"$corpus/seed-$(basename "$s")-$(printf '%s' "$opts" | tr -dc 0-9a-f)"
		done
	done;;
fuzz_lttng_legacy)
	for d in tests/fixtures/lttng-legacy/*/; do
		python3 tests/fuzz/lttng_legacy_seed.py "$d" "$corpus/seed-$(basename "$d")"
	done;;
fuzz_perf)
	# (no perf.data fixture yet: the regression inputs, small crafted files)
	for s in tests/fuzz/regressions/fuzz_perf/*; do cp "$s" "$corpus/seed-$(basename "$s")"; done;;
fuzz_uftrace)
	for d in tests/fixtures/uftrace/*/; do
		python3 tests/fuzz/uftrace_seed.py "$d" "$corpus/seed-$(basename "$d")"
	done;;
esac
exec "$bin" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$findings/" -print_final_stats=1
