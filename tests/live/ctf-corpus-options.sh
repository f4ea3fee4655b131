#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/ctf-corpus-options.sh BIN - every CTF 1.8 trace of the corpus
# that babeltrace2 reads (tests/corpus/ctf, babeltrace's test traces from
# scripts/babeltrace-traces.sh, and $TRACECAT_CORPUS/ctf when set), printed
# by babeltrace2 (run now) and by BIN with several option sets: stdout must
# be identical, and so must the WARNING lines babeltrace2 writes on stderr
# (its log lines, -v's among them, are not part of the contract).  Prints PASS/FAIL/SKIP
# lines for tests/run.sh; exits 0.

# babeltrace2 2.0.4's CTF 1.8 text, as in tests/run.sh, when run alone
export TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0}
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP ctf-corpus-options: babeltrace2 is not installed"
	exit 0
fi
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only the CTF 1.8 references are needed here: the traces are usable when
# those are written, whatever became of the CTF 2 ones.
BT_TRACES=$("$ROOT/scripts/babeltrace-traces.sh" 2>"$tmp/bt-traces.log")
if [ -z "$BT_TRACES" ] || ! ls "$BT_TRACES"/ctf/babeltrace/*/*.bt2.txt >/dev/null 2>&1; then
	echo "SKIP ctf-corpus-options/babeltrace: no babeltrace test traces: $(tail -1 "$tmp/bt-traces.log")"
	BT_TRACES=""
fi
# Each base through a symbolic link: warnings name streams by their path
# as the shell sees it, unresolved.
bases=()
i=0
for base in "$ROOT/tests/corpus" ${BT_TRACES:+"$BT_TRACES"} ${TRACECAT_CORPUS:+"$TRACECAT_CORPUS"}; do
	[ -d "$base/ctf" ] || continue
	i=$((i + 1))
	ln -s "$base" "$tmp/base$i"
	bases+=("$tmp/base$i")
done
optsets=("-f trace" "--clock-seconds -n all" "--clock-cycles --clock-gmt" "--no-delta --clock-date -f all"
	"-n none --clock-gmt" "--clock-offset=-2 --clock-offset-ns=700" "--stream-intersection --clock-seconds"
	"-i ctf -v --clock-offset=3")
exps=()
for base in "${bases[@]}"; do
	exps+=("$base"/ctf/*/*.bt2.txt "$base"/ctf/babeltrace/*/*.bt2.txt)
done
for exp in "${exps[@]}"; do
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
