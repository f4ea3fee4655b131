#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/lttng-legacy.sh BIN - legacy LTTng 0.x traces: the real ones
# of the corpus against what is known of them, and every trace (corpus
# and tests/fixtures/lttng-legacy) through `convert` and back.
#
# For the corpus traces (tests/corpus/lttng-legacy, committed, or the
# lttng-legacy folder of $TRACECAT_CORPUS):
#   - `print` reads all of it, exit 0, as many events as
#     tests/corpus/lttng-legacy/README.md gives (metadata events included),
#     times never going back;
#   - the values the Eclipse LTTng 0.x plugin's own tests assert
#     (LttngTimestampTest, JniTracefileTest) and those an independent
#     decoder, written from the 0.x tracefile format as LTTV reads it,
#     printed: first events, their fields and LTTV's nanoseconds,
#     per-channel counts;
#   - the wall clock: the first event's time of day equals the header's
#     start time plus the counter's progress since the start TSC, worked
#     out here independently from the header bytes;
#   - `info` reads it.
# For every trace: `convert` gives CTF that babeltrace2 prints exactly as
# BIN prints the original (but for babeltrace2 2.0.4's stale empty
# strings), that BIN itself prints exactly so, and that babeltrace 1.5
# reads with as many events.
# Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.

# babeltrace2 2.0.4's CTF 1.8 text, as in tests/run.sh, when run alone
export TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0}
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
CORPUS=${TRACECAT_CORPUS:-$ROOT/tests/corpus}/lttng-legacy
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export TZ=UTC

pass() { echo "PASS lttng-legacy/$1"; }
fail() { echo "FAIL lttng-legacy/$1"; }
check() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', expected '$3'"; fi; }

# LINE's bracketed cycles value, event name and payload, for comparisons.
first_line() { grep -m1 -e "$2" "$1"; }

corpus_trace() {
	local name=$1 total=$2 metadata=$3 out=$TMP/$1.txt
	local dir=$CORPUS/$name
	"$BIN" print --clock-cycles --no-delta "$dir" >"$out" 2>"$TMP/err"
	check "$name/exit" "$?" 0
	check "$name/events" "$(wc -l <"$out")" "$total"
	check "$name/metadata-events" "$(grep -c '\] metadata\.' "$out")" "$metadata"
	check "$name/time-order" "$(awk -F'[][]' '$2 < prev { print NR; exit } { prev = $2 }' "$out")" ""
	check "$name/stderr" "$(cat "$TMP/err")" ""
	"$BIN" info "$dir" >/dev/null 2>&1
	check "$name/info" "$?" 0
	# The sub-buffer header opening the metadata's first file, as LTTV reads
	# it: start time, frequency, scale and the start TSC; the first event's
	# expected wall-clock time.
	local meta
	meta=$(ls "$dir"/metadata_* | sort | head -1)
	local cycles wall
	cycles=$(head -1 "$out" | sed 's/^\[0*\([0-9]*\)\].*/\1/')
	wall=$(python3 - "$meta" "$cycles" <<'EOF'
import struct, sys
h = open(sys.argv[1], 'rb').read(68)
begin, = struct.unpack_from('<Q', h, 0)
sec, usec, freq = struct.unpack_from('<QQQ', h, 24)
scale, = struct.unpack_from('<I', h, 48)
ns = lambda tsc: int(float(tsc) * 1e9 * scale / freq)
wall = sec * 10**9 + usec * 1000 + int(sys.argv[2]) - ns(begin)
print('%d.%09d' % (wall // 10**9, wall % 10**9))
EOF
)
	check "$name/wall-clock" "$("$BIN" print --clock-seconds "$dir" 2>/dev/null | head -1 | sed 's/^\[\([0-9.]*\)\].*/\1/')" "$wall"
}

# babeltrace2 2.0.4 does not clear a recycled string field, so an empty
# string shows the text an earlier event of the class had (README, "Where
# tracecat differs").  Succeeds, printing how many lines, when ORIG and
# BT2 differ only there: every differing line of BT2 is its ORIG line with
# some of its "" replaced by other strings.
stale_empty_strings() {
	python3 - "$1" "$2" <<'PY'
import re, sys
orig = open(sys.argv[1]).read().splitlines()
bt2 = open(sys.argv[2]).read().splitlines()
if len(orig) != len(bt2):
    sys.exit(1)
any_string = r'"(?:[^"\\]|\\.)*"'
stale = 0
for a, b in zip(orig, bt2):
    if a == b:
        continue
    pattern = any_string.join(re.escape(part) for part in a.split('""'))
    if '""' not in a or not re.fullmatch(pattern, b):
        sys.exit(1)
    stale += 1
print(stale)
PY
}

# Converted, then printed by babeltrace2: the same lines as BIN prints.
round_trip() {
	local label=$1 dir=$2 out=$TMP/ctf-$(basename "$2")
	rm -rf "$out"
	if ! "$BIN" convert "$dir" -o "$out" >/dev/null 2>"$TMP/err"; then
		fail "$label/convert: $(head -c 300 "$TMP/err")"
		return
	fi
	"$BIN" print --clock-gmt "$dir" >"$TMP/orig.txt" 2>/dev/null
	if ! babeltrace2 --clock-gmt "$out" >"$TMP/bt2.txt" 2>"$TMP/err"; then
		fail "$label/convert: babeltrace2 refuses it: $(head -c 300 "$TMP/err")"
	elif cmp -s "$TMP/orig.txt" "$TMP/bt2.txt"; then
		pass "$label/convert"
	elif stale=$(stale_empty_strings "$TMP/orig.txt" "$TMP/bt2.txt"); then
		pass "$label/convert ($stale lines differ only where babeltrace2 2.0.4 shows an earlier event's text for an empty string)"
	else
		fail "$label/convert: babeltrace2's output differs at $(cmp "$TMP/orig.txt" "$TMP/bt2.txt" | sed 's/.*differ: //')"
	fi
	"$BIN" print --clock-gmt "$out" >"$TMP/back.txt" 2>/dev/null
	if cmp -s "$TMP/orig.txt" "$TMP/back.txt"; then
		pass "$label/convert-read-back"
	else
		fail "$label/convert-read-back: BIN prints the conversion differently at $(cmp "$TMP/orig.txt" "$TMP/back.txt" | sed 's/.*differ: //')"
	fi
	if command -v babeltrace >/dev/null; then
		check "$label/convert-babeltrace1" "$(babeltrace "$out" 2>/dev/null | wc -l)" "$(wc -l <"$TMP/orig.txt")"
	fi
}

# The corpus is committed: its absence is a broken checkout or a wrong
# TRACECAT_CORPUS, which the corpus_trace checks report as failures.
if ! command -v python3 >/dev/null; then
	echo "SKIP lttng-legacy/corpus: python3 is not installed"
else
	corpus_trace trace-1021events-nolost-1cpu 1021 6
	corpus_trace trace-15316events_nolost_newformat 15316 302
	corpus_trace trace-2.6 219558 284
	t=$TMP/trace-1021events-nolost-1cpu.txt
	check 1021/first-kernel "$(first_line "$t" ' kernel\.')" \
		"[00000023904356614421] kernel.sched_schedule: { cpu_id = 0 }, { prev_pid = 14802, next_pid = 1902, prev_state = 2 }"
	t=$TMP/trace-15316events_nolost_newformat.txt
	# Eclipse's LttngTimestampTest and JniTracefileTest values
	check 15316/first-event "$(head -1 "$t" | cut -c1-22)" "[00000013589759412128]"
	check 15316/first-event-name "$(head -1 "$t" | grep -o 'channel = "vm_state", name = "vm_map"')" \
		'channel = "vm_state", name = "vm_map"'
	check 15316/first-kernel "$(first_line "$t" ' kernel\.')" \
		"[00000013589760262237] kernel.printk: { cpu_id = 0 }, { ip = 0xC1421750 }"
	check 15316/last-kernel "$(grep ' kernel\.' "$t" | tail -1 | sed 's/, { ip = [0-9]*,/, {/')" \
		"[00000013589906758692] kernel.syscall_entry: { cpu_id = 0 }, { syscall_id = 4 }"
	check 15316/channels "$(sed 's/^[^]]*\] \([a-z_]*\)\..*/\1/' "$t" | sort | uniq -c | sort -rn | head -4 | awk '{ printf "%s=%s ", $2, $1 }')" \
		"vm_state=9560 kernel=2042 fd_state=1165 fs=1108 "
	t=$TMP/trace-2.6.txt
	check 2.6/first-kernel-cpu0 "$(first_line "$t" ' kernel\..*cpu_id = 0 }')" \
		"[00000179611822892951] kernel.syscall_exit: { cpu_id = 0 }, { ret = 8 }"
	check 2.6/last-event "$(tail -1 "$t" | cut -c1-22) $(tail -1 "$t" | grep -o 'cpu_id = [0-9]*')" \
		"[00000179622746865962] cpu_id = 1"
	check 2.6/kernel-events "$(grep -c '\] kernel\.' "$t")" 148459
fi

if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP lttng-legacy/convert: babeltrace2 is not installed"
	exit 0
fi
command -v babeltrace >/dev/null ||
	echo "SKIP lttng-legacy/convert-babeltrace1: babeltrace 1.5 is not installed"
for d in "$CORPUS"/*/ "$ROOT"/tests/fixtures/lttng-legacy/*/; do
	[ -d "$d" ] || continue
	round_trip "$(basename "$d")" "${d%/}"
done
exit 0
