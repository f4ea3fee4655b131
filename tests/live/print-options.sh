#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/print-options.sh BIN - the babeltrace2 options of `print` that
# choose what is read rather than how it is shown (doc/reading.md,
# "Choosing what is printed"): --timerange (BEGIN,END and [BEGIN,END], in
# seconds and as dates), --stream-intersection and -i/--input-format, alone
# and together, on every CTF trace of the fixtures, the corpus and
# babeltrace's committed test traces
#   - by BIN with its default text and by Debian sid's babeltrace2 2.1.2
#     (tests/peers/babeltrace2-2.1), CTF 2 traces included;
#   - by BIN with --compat babeltrace2=2.0 and by Debian 12's babeltrace2
#     2.0.4, CTF 1.8 traces only;
# the exit status, the standard output and the WARNING lines of the error
# stream must be the same (peer_compare, tests/lib.sh).  The time ranges
# run from the 3rd to the 8th event, which on the corpus's mux trace cuts
# discarded-events reports in two.  Also: -v changes nothing on stdout and
# says what was read on stderr, and the usage errors of these options.
# Prints PASS/FAIL/SKIP lines for tests/run.sh, and NOTE lines (not
# counted) where a peer dies or refuses what tracecat reads; exits 0.
set -u
BIN=$1
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BT21=${BABELTRACE21:-$ROOT/tests/peers/babeltrace2-2.1}
export TZ=UTC
unset TRACECAT_COMPAT
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tc-print-options.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$ROOT" || exit 0
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12

# ---- usage, and -v ----
check_usage() {
	local name=$1 want=$2 rc
	shift 2
	"$BIN" print "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		echo "PASS print-options/usage/$name"
	else
		echo "FAIL print-options/usage/$name: exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
}
t=tests/fixtures/ctf/ust-types
check_usage timerange-one '--timerange expects BEGIN,END' --timerange=5 $t
check_usage timerange-empty-end '--timerange expects BEGIN,END or \[BEGIN,END\], got "\[1,\]"' '--timerange=[1,]' $t
check_usage timerange-after-begin '--timerange after --begin or --end' --begin=1 --timerange=1,2 $t
check_usage begin-twice '--begin given twice' --begin=1 -b 2 $t
check_usage input-format-live 'does not connect to LTTng live' -i lttng-live $t
check_usage input-format-unknown 'unknown --input-format "text"' --input-format=text $t
"$BIN" print -i trace.dat $t >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q 'a ctf trace, not trace.dat (--input-format)' "$tmp/err"; then
	echo "PASS print-options/input-format-other"
else
	echo "FAIL print-options/input-format-other: $(head -c 300 "$tmp/err")"
fi
"$BIN" print $t >"$tmp/plain" 2>/dev/null
"$BIN" print -v --stream-intersection $t >"$tmp/out" 2>"$tmp/err"
if cmp -s "$tmp/plain" "$tmp/out" && grep -q ': ctf trace .* (2 streams)$' "$tmp/err" &&
	grep -q 'stream intersection .* to .* 2 streams)$' "$tmp/err" &&
	grep -qx "tracecat: $(wc -l <"$tmp/plain") events printed" "$tmp/err"; then
	echo "PASS print-options/verbose"
else
	echo "FAIL print-options/verbose: $(head -c 300 "$tmp/err")"
fi

# ---- the traces against the peers ----
traces=()
while IFS= read -r m; do
	traces+=("${m%/metadata}")
done < <(find tests/fixtures/ctf tests/fixtures/ctf2 tests/corpus/ctf tests/third_party/babeltrace-ctf-traces/1/succeed \
	-name metadata -type f 2>/dev/null | sort)

# event_times PEER-COMMAND...: the times of the 3rd and 8th events as the
# peer prints them, one a line
event_times() {
	"$@" 2>/dev/null | grep -a '^\[' | sed -n '3p;8p' | sed 's/^\[\([^]]*\)\].*/\1/'
}

# against PEER-NAME LABEL TRACE PEER-COMMAND... -- TRACECAT-ARGS...
against() {
	local peer=$1 label=$2 t=$3 secs dates opts
	shift 3
	local cmd=() args=()
	while [ "$1" != -- ]; do
		cmd+=("$1")
		shift
	done
	shift
	args=("$@")
	for opts in "--stream-intersection" "--input-format=ctf --stream-intersection -n all" "-i ctf --clock-seconds"; do
		# shellcheck disable=SC2086
		peer_compare "print-options/$label/$t [$opts]" "$peer" "${cmd[@]}" --clock-gmt $opts "$t" -- \
			"${args[@]}" --clock-gmt $opts "$t"
	done
	mapfile -t secs < <(event_times "${cmd[@]}" --clock-seconds "$t")
	mapfile -t dates < <(event_times "${cmd[@]}" --clock-gmt --clock-date "$t")
	[ ${#secs[@]} -eq 2 ] && [ ${#dates[@]} -eq 2 ] || return
	for opts in "--timerange=${secs[0]},${secs[1]}" "--timerange=[${dates[0]},${dates[1]}]"; do
		peer_compare "print-options/$label/$t [$opts]" "$peer" "${cmd[@]}" --clock-gmt "$opts" "$t" -- \
			"${args[@]}" --clock-gmt "$opts" "$t"
	done
	# Trimming and --stream-intersection together stop babeltrace2 (its
	# trimmer cannot seek the stream-intersection trimmers): a NOTE
	# (doc/reading.md); tracecat applies both.
	opts="--timerange=${secs[0]},${secs[1]}"
	peer_compare "print-options/$label/$t [$opts --stream-intersection]" "$peer" "${cmd[@]}" --clock-gmt "$opts" \
		--stream-intersection "$t" -- "${args[@]}" --clock-gmt "$opts" --stream-intersection "$t"
}

is_ctf2() {
	[ "$(head -c 1 "$1/metadata" | od -An -tx1 | tr -d ' ')" = 1e ]
}

if ! "$BT21" --version >/dev/null 2>&1; then
	echo "SKIP print-options/2.1: babeltrace2 2.1.2 does not run ($BT21)"
else
	for t in "${traces[@]}"; do
		against "babeltrace2 2.1.2" 2.1 "$t" "$BT21" --
	done
fi
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP print-options/2.0: babeltrace2 is not installed"
else
	for t in "${traces[@]}"; do
		is_ctf2 "$t" && continue
		against "babeltrace2 2.0.4" 2.0 "$t" babeltrace2 -- --compat babeltrace2=2.0
	done
fi
exit 0
