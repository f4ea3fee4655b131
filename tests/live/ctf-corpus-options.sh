#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/ctf-corpus-options.sh BIN - every CTF trace of the shared corpus
# that babeltrace2 reads, printed by babeltrace2 (run now) and by BIN with
# several option sets: stdout must be identical, and so must the WARNING
# lines babeltrace2 writes on stderr (its log lines are not part of the
# contract).  Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.
set -u
BIN=$1
CORPUS=${TRACECAT_CORPUS:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/corpus}
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP ctf-corpus-options: babeltrace2 is not installed"
	exit 0
fi
if [ ! -d "$CORPUS/ctf" ]; then
	echo "SKIP ctf-corpus-options: no corpus at $CORPUS"
	exit 0
fi
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Through a symbolic link, as a checkout with shared/ linked beside it has
# it: warnings name streams by their path as the shell sees it, unresolved.
ln -s "$CORPUS" "$tmp/corpus"
CORPUS=$tmp/corpus
optsets=("-f trace" "--clock-seconds -n all" "--clock-cycles --clock-gmt" "--no-delta --clock-date -f all"
	"-n none --clock-gmt" "--clock-offset=-2 --clock-offset-ns=700")
for exp in "$CORPUS"/ctf/*/*.bt2.txt "$CORPUS"/ctf/babeltrace/*/*.bt2.txt; do
	[ -f "$exp" ] || continue
	dir=$(dirname "$exp")
	name=$(basename "$exp" .bt2.txt)
	for opts in "${optsets[@]}"; do
		# shellcheck disable=SC2086
		(cd "$dir" && babeltrace2 $opts "$name" >"$tmp/bt.out" 2>"$tmp/bt.err"); brc=$?
		# shellcheck disable=SC2086
		(cd "$dir" && "$BIN" print $opts "$name" >"$tmp/tc.out" 2>"$tmp/tc.err"); trc=$?
		label="ctf-corpus-options/${dir##*/ctf/}/$name [$opts]"
		if [ $brc -ne $trc ]; then
			echo "FAIL $label: exit $trc, babeltrace2 $brc"
		elif ! cmp -s "$tmp/bt.out" "$tmp/tc.out"; then
			echo "FAIL $label: stdout differs"
		elif ! diff -q <(grep '^WARNING\|^\[warning\]' "$tmp/bt.err") <(grep '^WARNING\|^\[warning\]' "$tmp/tc.err") >/dev/null; then
			echo "FAIL $label: warnings differ"
		else
			echo "PASS $label"
		fi
	done
done
