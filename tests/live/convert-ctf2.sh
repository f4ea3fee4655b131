#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/convert-ctf2.sh BIN - `tracecat convert --ctf-version 2` read
# back by babeltrace2 2.1.2 (the CTF 2 reference), and CTF 2 converted to
# CTF 1.8 read back by babeltrace2 2.0.4.
#
# For every fixture of every format (CTF 1.8, CTF 2, trace.dat, uftrace,
# legacy LTTng; the *-bad folders hold invalid traces, which are not
# converted), and the corpus's CTF 1.8 (those with a reference text) and
# CTF 2 traces (tests/corpus/ctf, babeltrace's test traces from
# scripts/babeltrace-traces.sh, and $TRACECAT_CORPUS when set):
#   - CTF input: babeltrace2 2.1.2's text of the output equals its text of
#     the input, both when the packets are copied and when every event is
#     re-encoded (`--events '*'`: CTF 2's booleans, bit maps, BLOBs,
#     optionals and variants kept as such, hidden fields left out);
#   - other input: babeltrace2 2.1.2's text of the output equals `BIN
#     print` of the input (trace.dat with --lttng-names, as convert names
#     its events);
#   - CTF 2 input converted to CTF 1.8: babeltrace2 2.0.4 reads as many
#     events as babeltrace2 2.1.2 reads of the input (counted with
#     sink.utils.counter: names may hold line breaks).  Its text is not
#     compared: CTF 1.8 cannot say what a BLOB or an optional is.
# One difference is allowed where CTF 1.8 input is concerned: when several
# mapping labels match a value, babeltrace2 2.1.2 orders them differently
# for CTF 1.8 and CTF 2 metadata (its own converter does the same), so
# the labels inside "{ ... }" are sorted before comparing.
# The cases that cannot be checked so are listed below with the reason.
# Prints PASS/FAIL/SKIP/NOTE lines for tests/run.sh; exits 0.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
BT21=${BABELTRACE21:-$ROOT/tests/peers/babeltrace2-2.1}
if ! "$BT21" --version >/dev/null 2>&1; then
	echo "SKIP convert-ctf2: babeltrace2 2.1.2 does not run ($BT21)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
BT_TRACES=$(BABELTRACE21=$BT21 "$ROOT/scripts/babeltrace-traces.sh" 2>"$tmp/bt-traces.log")
if [ -z "$BT_TRACES" ] || [ ! -f "$BT_TRACES/.traces-ok" ]; then
	echo "SKIP convert-ctf2/babeltrace: no babeltrace test traces: $(tail -1 "$tmp/bt-traces.log")"
	BT_TRACES=""
fi

# Fixtures babeltrace2 2.1.2 does not read, so that nothing can be
# compared with its text of them: the reason.  (Any other fixture it does
# not read is a failure; a corpus trace gets a NOTE with its error: the
# corpus's CTF 1.8 traces with a clock but no packet times make it abort.)
declare -A BT21_UNREADABLE=(
	[ctf-valid/clk-beyond-range]='its clock offset (9300000000 s) is beyond the signed 64-bit nanoseconds babeltrace2 counts from the origin ("Cannot convert clock cycles to nanoseconds from origin"; tracecat reads it: tests/fixtures/ctf-valid)'
)
# CTF 2 inputs whose CTF 1.8 conversion babeltrace2 2.0.4 cannot read for a
# fault of its own: read back with babeltrace 1.5 instead, which must show
# every event.
declare -A TO18_BT1=(
	[ctf2/field-locations]='babeltrace2 2.0.4 aborts on any sequence in an event'"'"'s specific context (assertion `tgt_fc'"'"' in ctf-meta-update-value-storing-indexes.c, also for such a CTF 1.8 trace written by hand)'
	[ctf2/time-backwards]='babeltrace2 2.0.4 stops at an event earlier than the one before it in its stream ("time went backwards": its muxer refuses what 2.1.2 prints)'
)

# Several matching labels "{ "B", "A" }" in a fixed order.
sort_labels() {
	perl -pe 's/\{ ("[^{}]*?"(?:, "[^{}]*?")+) \}/"{ " . join(", ", sort split(", ", $1)) . " }"/ge'
}

# bt_error FILE: the first line of babeltrace2's error report in FILE (or
# of its assertion's, when it aborts).
bt_error() {
	{ sed -n '/ Error is:$/{n;s/^.* [a-z_]*@[^ ]* //p;q}' "$1"; grep -m1 -A1 -e '^ERROR' "$1" | tail -1; } |
		head -1 | sed 's/^ *//; s/: [a-z-]*-addr=.*//' | head -c 200
}

# events BABELTRACE TRACE: the number of events BABELTRACE reads of TRACE
# (the counter's last total); fails when it stops with an error.
events() {
	"$1" "$2" -c sink.utils.counter 2>"$tmp/count.err" | awk '/ Event messages?$/ { n = $1 } END { print n }'
	[ "${PIPESTATUS[0]}" = 0 ]
}

# roundtrip NAME INPUT REFERENCE_FILE [CONVERT_OPTIONS...]
roundtrip() {
	local name=$1 in=$2 ref=$3
	shift 3
	local out=$tmp/out
	rm -rf "$out"
	if ! "$BIN" convert --ctf-version 2 "$@" "$in" -o "$out" >"$tmp/conv.err" 2>&1; then
		echo "FAIL convert-ctf2/$name: convert failed: $(head -c 300 "$tmp/conv.err")"
		return
	fi
	if [ "$(head -c 1 "$(find "$out" -name metadata | head -1)" | od -An -tx1 | tr -d ' ')" != 1e ]; then
		echo "FAIL convert-ctf2/$name: the output metadata is not CTF 2"
		return
	fi
	if ! "$BT21" --clock-gmt "$out" >"$tmp/got" 2>"$tmp/got.err"; then
		echo "FAIL convert-ctf2/$name: babeltrace2 2.1.2 refuses the output: $(grep -m1 -e ERROR -e CAUSED "$tmp/got.err" | head -c 300)"
	elif cmp -s <(sort_labels <"$tmp/got") <(sort_labels <"$ref"); then
		echo "PASS convert-ctf2/$name"
	else
		echo "FAIL convert-ctf2/$name: babeltrace2 2.1.2 shows other events: $(diff <(sort_labels <"$tmp/got") <(sort_labels <"$ref") | head -c 400)"
	fi
}

# ctf_roundtrips NAME TRACE: copied and re-encoded, against 2.1.2's text of TRACE.
ctf_roundtrips() {
	local name=$1 trace=$2
	# A fixture's committed reference is babeltrace2 2.1.2's text already.
	if [ -f "${trace%/}.bt21.txt" ]; then
		cp "${trace%/}.bt21.txt" "$tmp/ref"
	# (in a shell of its own, which reports an abort to /dev/null)
	elif ! ("$BT21" --clock-gmt "$trace" >"$tmp/ref" 2>"$tmp/ref.err"; exit $?) 2>/dev/null; then
		if [ -n "${BT21_UNREADABLE[$name]:-}" ]; then
			echo "NOTE convert-ctf2/$name: not compared: babeltrace2 2.1.2 does not read the input: ${BT21_UNREADABLE[$name]}"
		elif [ "${name#corpus-}" != "$name" ]; then
			echo "NOTE convert-ctf2/$name: not compared: babeltrace2 2.1.2 does not read the input: $(bt_error "$tmp/ref.err")"
		else
			echo "FAIL convert-ctf2/$name: babeltrace2 2.1.2 does not read the input: $(bt_error "$tmp/ref.err")"
		fi
		return
	fi
	roundtrip "$name/copy" "$trace" "$tmp/ref"
	roundtrip "$name/reencode" "$trace" "$tmp/ref" --events '*'
}

for d in "$ROOT"/tests/fixtures/ctf/*/ "$ROOT"/tests/fixtures/ctf-valid/*/ "$ROOT"/tests/fixtures/ctf2/*/ \
	"$ROOT"/tests/fixtures/ctf2-lttng/*/ "$ROOT"/tests/fixtures/ctf2-from-ctf1/*/; do
	[ -d "$d" ] || continue
	group=$(basename "$(dirname "$d")")
	ctf_roundtrips "$group/$(basename "$d")" "$d"
done
for base in "$ROOT/tests/corpus" ${BT_TRACES:+"$BT_TRACES"} ${TRACECAT_CORPUS:+"$TRACECAT_CORPUS"}; do
	[ -d "$base/ctf" ] || continue
	while IFS= read -r ref; do
		d=${ref%.bt2.txt}
		[ -d "$d" ] && ctf_roundtrips "corpus-ctf/${d#"$base"/ctf/}" "$d"
	done < <(find "$base/ctf" -name '*.bt2.txt' | sort)
done
for base in ${BT_TRACES:+"$BT_TRACES"} ${TRACECAT_CORPUS:+"$TRACECAT_CORPUS"}; do
	for d in "$base"/ctf2/babeltrace/succeed/*/; do
		[ -d "$d" ] && ctf_roundtrips "corpus-ctf2/$(basename "$d")" "$d"
	done
done

# Other formats: babeltrace2 2.1.2 shows what tracecat print shows in its
# text (tests/run.sh asks for 2.0.4's).
for f in "$ROOT"/tests/fixtures/tracedat/*.dat; do
	if ! "$BIN" print --compat babeltrace2=2.1 --clock-gmt --lttng-names "$f" >"$tmp/ref" 2>"$tmp/ref.err"; then
		echo "FAIL convert-ctf2/tracedat/$(basename "$f"): tracecat print fails: $(head -c 300 "$tmp/ref.err")"
		continue
	fi
	roundtrip "tracedat/$(basename "$f")" "$f" "$tmp/ref"
done
for d in "$ROOT"/tests/fixtures/uftrace/*/ "$ROOT"/tests/fixtures/lttng-legacy/*/; do
	[ -d "$d" ] || continue
	name=$(basename "$(dirname "$d")")/$(basename "$d")
	if ! "$BIN" print --compat babeltrace2=2.1 --clock-gmt "$d" >"$tmp/ref" 2>"$tmp/ref.err"; then
		echo "FAIL convert-ctf2/$name: tracecat print fails: $(head -c 300 "$tmp/ref.err")"
		continue
	fi
	roundtrip "$name" "$d" "$tmp/ref"
done

# CTF 2 to CTF 1.8: babeltrace2 2.0.4 reads as many events of the result
# as babeltrace2 2.1.2 reads of the input.
if command -v babeltrace2 >/dev/null; then
	for d in "$ROOT"/tests/fixtures/ctf2/*/ "$ROOT"/tests/fixtures/ctf2-lttng/*/; do
		[ -d "$d" ] || continue
		name=$(basename "$(dirname "$d")")/$(basename "$d")
		rm -rf "$tmp/out18"
		if ! want=$(events "$BT21" "$d"); then
			echo "FAIL convert-ctf2-to-1.8/$name: babeltrace2 2.1.2 does not read the input"
		elif ! "$BIN" convert "$d" -o "$tmp/out18" >"$tmp/conv.err" 2>&1; then
			echo "FAIL convert-ctf2-to-1.8/$name: convert failed: $(head -c 300 "$tmp/conv.err")"
		elif [ -n "${TO18_BT1[$name]:-}" ]; then
			if ! command -v babeltrace >/dev/null; then
				echo "SKIP convert-ctf2-to-1.8/$name: babeltrace 1.5 is not installed (${TO18_BT1[$name]})"
			elif ! got=$(babeltrace "$tmp/out18" 2>"$tmp/bt1.err" | wc -l) || [ "$got" != "$want" ]; then
				echo "FAIL convert-ctf2-to-1.8/$name: babeltrace 1.5 shows $got events of $want: $(head -c 200 "$tmp/bt1.err")"
			else
				echo "PASS convert-ctf2-to-1.8/$name (read by babeltrace 1.5: ${TO18_BT1[$name]})"
			fi
		elif ! got=$(events babeltrace2 "$tmp/out18") || [ "$got" != "$want" ]; then
			echo "FAIL convert-ctf2-to-1.8/$name: babeltrace2 2.0.4 reads ${got:-no} events of $want: $(grep -m1 -e ERROR -e CAUSED -e 'Assertion' "$tmp/count.err" | head -c 200)"
		else
			echo "PASS convert-ctf2-to-1.8/$name"
		fi
	done
else
	echo "SKIP convert-ctf2-to-1.8: babeltrace2 is not installed"
fi
exit 0
