#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/babeltrace21-ctf1.sh BIN - the two babeltrace2 texts of CTF
# 1.8 (doc/reading.md, "Peer releases"): every CTF 1.8 trace of the
# fixtures, the corpus and babeltrace's committed test traces, printed with
# several option sets
#   - by BIN with its default text and by Debian sid's babeltrace2 2.1.2
#     (tests/peers/babeltrace2-2.1), TRACECAT_COMPAT unset;
#   - by BIN with --compat babeltrace2=2.0 and by Debian 12's babeltrace2
#     2.0.4;
# the exit status, the standard output and the WARNING lines of the error
# stream must be the same.  A trace the peer crashes on (a signal: 2.1.2
# aborts on the packets of a stream class whose events have times but
# whose packet context has none, 2.0.4 on a clock without a frequency), or one the peer
# refuses where tracecat reads on (doc/reading.md, "Where tracecat differs
# from babeltrace2 2.0.4"), is skipped with the reason.  Also: TRACECAT_COMPAT and --compat select the
# text, the option winning, and a bad value of either is a usage error.
# Prints PASS/FAIL/SKIP lines for tests/run.sh, and NOTE lines (not
# counted) for the traces a peer cannot read: it dies or refuses them where
# tracecat reads them (doc/reading.md lists them); exits 0.
set -u
BIN=$1
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BT21=${BABELTRACE21:-$ROOT/tests/peers/babeltrace2-2.1}
export TZ=UTC
unset TRACECAT_COMPAT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tc-bt21-ctf1.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$ROOT" || exit 0
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12

# ---- the request itself ----
enum_line() {
	grep -o 'state1 = [^)]*= 5 )' "$1" | head -n 1
}
"$BIN" print --clock-gmt tests/fixtures/ctf/ust-types >"$tmp/default" 2>&1
TRACECAT_COMPAT=babeltrace2=2.0 "$BIN" print --clock-gmt tests/fixtures/ctf/ust-types >"$tmp/env20" 2>&1
TRACECAT_COMPAT=babeltrace2=2.0 "$BIN" print --compat babeltrace2=2.1.2 --clock-gmt tests/fixtures/ctf/ust-types \
	>"$tmp/env20-opt21" 2>&1
"$BIN" print --compat=trace-cmd=3.1,babeltrace2=2.0 --clock-gmt tests/fixtures/ctf/ust-types >"$tmp/opt20" 2>&1
check_enum() {
	local name=$1 file=$2 want=$3 got
	got=$(enum_line "$file")
	if [ "$got" = "$want" ]; then
		echo "PASS babeltrace21-ctf1/compat/$name"
	else
		echo "FAIL babeltrace21-ctf1/compat/$name: got \"$got\", want \"$want\""
	fi
}
check_enum default "$tmp/default" 'state1 = ( { "OVERLAP", "RESERVED" } : container = 5 )'
check_enum env "$tmp/env20" 'state1 = ( "RESERVED", "OVERLAP" : container = 5 )'
check_enum option-overrides-env "$tmp/env20-opt21" 'state1 = ( { "OVERLAP", "RESERVED" } : container = 5 )'
check_enum option-list "$tmp/opt20" 'state1 = ( "RESERVED", "OVERLAP" : container = 5 )'
# bad values: exit 2, the message naming where the value came from
check_usage() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		echo "PASS babeltrace21-ctf1/usage/$name"
	else
		echo "FAIL babeltrace21-ctf1/usage/$name: exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}
check_usage env-peer 'TRACECAT_COMPAT: unknown peer "lttng"' \
	env TRACECAT_COMPAT=lttng=2.13 "$BIN" print tests/fixtures/ctf/ust-types
check_usage option-release '--compat: babeltrace2 1.5: unknown release; known: 2.0, 2.1' \
	"$BIN" print --compat babeltrace2=1.5 tests/fixtures/ctf/ust-types
check_usage option-version '--compat: babeltrace2: "2" is not a version' \
	"$BIN" print --compat babeltrace2=2 tests/fixtures/ctf/ust-types
check_usage option-missing 'option --compat needs a value' "$BIN" print --compat
check_usage report-release '--compat: trace-cmd 3.2: unknown release; known: 3.1, 3.3, 3.4' \
	"$BIN" report --compat trace-cmd=3.2 tests/fixtures/tracedat/top-v7-zstd.dat
check_usage replay-env 'TRACECAT_COMPAT: uftrace 0.18: unknown release; known: 0.13, 0.17, 0.19' \
	env TRACECAT_COMPAT=uftrace=0.18 "$BIN" replay tests/fixtures/uftrace/abc
check_usage report-missing 'option --compat needs a value' "$BIN" report --compat

# ---- the traces against the peers ----
traces=()
while IFS= read -r m; do
	# CTF 2 metadata starts with a record separator
	[ "$(head -c 1 "$m" | od -An -tx1 | tr -d ' ')" = 1e ] && continue
	traces+=("${m%/metadata}")
done < <(find tests/fixtures/ctf tests/corpus/ctf tests/third_party/babeltrace-ctf-traces/1/succeed \
	-name metadata -type f 2>/dev/null | sort)
optsets=("" "-n all -f all" "--clock-cycles --no-delta" "--clock-seconds -n none" "--clock-date -f trace,loglevel")

if ! "$BT21" --version >/dev/null 2>&1; then
	echo "SKIP babeltrace21-ctf1/2.1: babeltrace2 2.1.2 does not run ($BT21)"
else
	for t in "${traces[@]}"; do
		for opts in "${optsets[@]}"; do
			# shellcheck disable=SC2086
			peer_compare "babeltrace21-ctf1/2.1/$t [$opts]" "babeltrace2 2.1.2" "$BT21" --clock-gmt $opts "$t" -- \
				--clock-gmt $opts "$t"
		done
	done
fi
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP babeltrace21-ctf1/2.0: babeltrace2 is not installed"
else
	for t in "${traces[@]}"; do
		for opts in "${optsets[@]}"; do
			# shellcheck disable=SC2086
			peer_compare "babeltrace21-ctf1/2.0/$t [$opts]" "babeltrace2 2.0.4" babeltrace2 --clock-gmt $opts "$t" -- \
				--compat babeltrace2=2.0 --clock-gmt $opts "$t"
		done
	done
fi
