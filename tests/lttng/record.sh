#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# record.sh - record an LTTng-UST trace of tests/lttng/tc_app into OUTDIR.
#
# usage: tests/lttng/record.sh OUTDIR ITERATIONS [EVENTS...]
#
# Used to make tracecat's CTF fixtures (tests/fixtures/ctf/), the live
# comparison test (tests/live/lttng-ust.sh) and the benchmark traces
# (bench/ctf-print.sh).  It builds the test program in a temporary folder,
# starts a session daemon of its own, records one session into OUTDIR (a
# full LTTng session output folder: OUTDIR/ust/uid/0/64-bit/...), stops the
# daemon (and waits for it and its consumer daemons to end) and checks
# with babeltrace2 that no event was lost.
#
# The daemon never meets another one: LTTNG_HOME is a private folder (a
# user's daemon keeps its sockets in $LTTNG_HOME/.lttng), and as root,
# whose daemon always uses /var/run/lttng, the script runs in a private
# mount namespace (unshare) with a tmpfs of its own on /var/run/lttng.
# The daemon is started in the background (not --daemonize), so its pid is
# $!; it is ready when it sends SIGUSR1 (--sig-parent).  Every lttng
# command runs with --no-sessiond, so none can spawn another daemon.
# Exit status 3: the session daemon could not be started (the reason is
# on stderr); 1: any other failure.
#
# EVENTS defaults to the events the mode emits.  Environment knobs:
#   TC_MODE         tc_app's mode: full (every tc:* event but tc:bench,
#                   tc:bench_float and tc:mix_*), bench (tc:bench),
#                   bench-float (tc:bench_float), empty (empty strings;
#                   tc:strings and tc:seqs) or one of bench/ctf-mixes.sh's
#                   payload mixes: mix-ints, mix-kernel, mix-floats,
#                   mix-seqs, mix-tiny, mix-large (tc:mix_* events, see
#                   tc_app.c).  Default: bench if EVENTS is just tc:bench,
#                   else full
#   TC_SUBBUF_SIZE  sub-buffer (= packet) size; default 4096 for up to
#                   20000 events (small packets keep fixtures small and give
#                   streams many packets), else 1M: with 4 KiB packets a
#                   blocking app waits on the consumer and 300k events take
#                   minutes instead of a fraction of a second
#   TC_NUM_SUBBUF   sub-buffers per CPU, default 8
#   TC_BUFFERS      uid (default) or pid: per-pid buffers give the other
#                   LTTng layout, OUTDIR/ust/pid/tc_app-PID-DATE/
#   TC_CONTEXTS     context types, default "vpid vtid procname pthread_id";
#                   set and empty: none
#   TC_PROCS        how many tc_app processes run at once, default 1: many
#                   with TC_BUFFERS=pid give a trace per process, whose
#                   events at equal times the reader must order as
#                   babeltrace2's muxer does
#   TC_TRACE_FORMAT LTTng 2.15 and later: `lttng create --trace-format`'s
#                   value (ctf-1.8 or ctf-2); default: the daemon's default
#   TC_VERIFY       1 (default) to count the recorded events with babeltrace2
#   CC              compiler, default gcc
#
# The channel blocks instead of discarding when its buffers are full
# (--blocking-timeout=inf plus LTTNG_UST_ALLOW_BLOCKING=1 for the app), so
# even multi-million event recordings are complete.
set -euo pipefail

# As root: again, in a private mount namespace (see above).  Without the
# right to make one (a container), the daemon uses the machine's
# /var/run/lttng and fails to start if another root daemon holds it.
# TC_RECORD_OUTER_NS tells the second run the namespace it came from.
in_namespace=0
if [ -n "${TC_RECORD_OUTER_NS:-}" ] && [ "$TC_RECORD_OUTER_NS" != "$(readlink /proc/self/ns/mnt)" ]; then
	in_namespace=1
fi
unset TC_RECORD_OUTER_NS
if [ "$in_namespace" = 0 ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	unshare --mount true 2>/dev/null; then
	TC_RECORD_OUTER_NS=$(readlink /proc/self/ns/mnt) \
		exec unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" "$@"
fi

usage() {
	echo "usage: $0 OUTDIR ITERATIONS [EVENTS...]" >&2
	exit 2
}

[ $# -ge 2 ] || usage
outdir=$1
iterations=$2
shift 2
case $iterations in
'' | *[!0-9]*) usage ;;
esac

if [ -z "${TC_MODE:-}" ]; then
	if [ "$*" = "tc:bench" ]; then TC_MODE=bench; else TC_MODE=full; fi
fi
# What the mode emits, and how many events per thread and iteration.
case $TC_MODE in
full) mode_events=(tc:ints tc:floats tc:strings tc:enums tc:arrays tc:seqs tc:empty) ;;
empty) mode_events=(tc:strings tc:seqs) ;;
bench) mode_events=(tc:bench) ;;
bench-float) mode_events=(tc:bench_float) ;;
mix-ints) mode_events=(tc:mix_ints) ;;
mix-kernel) mode_events=(tc:mix_switch tc:mix_exec) ;;
mix-floats) mode_events=(tc:mix_floats) ;;
mix-seqs) mode_events=(tc:mix_seq tc:mix_enum) ;;
mix-tiny) mode_events=(tc:mix_tiny) ;;
mix-large) mode_events=(tc:mix_blob) ;;
*) echo "record.sh: TC_MODE must be full, bench, bench-float, empty or mix-NAME" >&2; exit 2 ;;
esac
if [ $# -gt 0 ]; then
	events=("$@")
else
	events=("${mode_events[@]}")
fi
# bench and the mixes spread ITERATIONS over the threads, the others run
# it per thread.
case $TC_MODE in
bench | bench-float | mix-*) approx_events=$iterations ;;
*) approx_events=$((iterations * 2 * ${#mode_events[@]})) ;;
esac
if [ "$approx_events" -le 20000 ]; then
	subbuf_size=${TC_SUBBUF_SIZE:-4096}
else
	subbuf_size=${TC_SUBBUF_SIZE:-1M}
fi
num_subbuf=${TC_NUM_SUBBUF:-8}
case ${TC_BUFFERS:=uid} in
uid | pid) ;;
*) echo "record.sh: TC_BUFFERS must be uid or pid" >&2; exit 2 ;;
esac
read -r -a contexts <<<"${TC_CONTEXTS-vpid vtid procname pthread_id}"
procs=${TC_PROCS:-1}
case $procs in
'' | *[!0-9]* | 0) echo "record.sh: TC_PROCS must be a positive number" >&2; exit 2 ;;
esac
format_args=()
[ -z "${TC_TRACE_FORMAT:-}" ] || format_args=(--trace-format="$TC_TRACE_FORMAT")

for tool in lttng lttng-sessiond "${CC:-gcc}"; do
	command -v "$tool" >/dev/null || { echo "record.sh: $tool not found" >&2; exit 1; }
done

# lttng create refuses nothing and would mix two sessions' files.
if [ -e "$outdir" ] && [ -n "$(ls -A "$outdir" 2>/dev/null)" ]; then
	echo "record.sh: $outdir exists and is not empty" >&2
	exit 1
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-record.XXXXXX")
session="tc-rec-$$-${RANDOM}"
session_created=0
sessiond_pid=
rundir_mounted=0
rundir_made=0
export LTTNG_HOME=$work/home
mkdir "$LTTNG_HOME"
# Never spawn a daemon behind our back: only ours is talked to.
lttng() { command lttng --no-sessiond "$@"; }

# shellcheck source=tests/lttng/sessiond.sh
. "$(dirname "${BASH_SOURCE[0]}")/sessiond.sh"

# shellcheck disable=SC2317  # called from the EXIT trap
cleanup() {
	local rc=$?
	set +e
	if [ "$session_created" = 1 ]; then
		lttng destroy "$session" >/dev/null 2>&1
	fi
	[ -z "$sessiond_pid" ] || stop_sessiond
	if [ "$rundir_mounted" = 1 ]; then
		umount /var/run/lttng
		# only if empty: it was made for this mount
		[ "$rundir_made" = 0 ] || rmdir /var/run/lttng 2>/dev/null
	fi
	rm -rf "$work"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

"${CC:-gcc}" -std=c11 -O2 -Wall -Wextra -I"$here" -o "$work/tc_app" \
	"$here/tc_app.c" "$here/tc_tp.c" -llttng-ust -ldl -lpthread -lm

# The root daemon's run directory, private to this namespace.
if [ "$in_namespace" = 1 ]; then
	[ -d /var/run/lttng ] || { mkdir -p /var/run/lttng && rundir_made=1; }
	mount -t tmpfs -o mode=0755 tc-record-lttng /var/run/lttng
	rundir_mounted=1
fi

start_sessiond lttng-sessiond "$work/sessiond.log"

lttng create "$session" --output="$outdir" "${format_args[@]}" >/dev/null
session_created=1
lttng enable-channel -u -s "$session" channel0 \
	--subbuf-size="$subbuf_size" --num-subbuf="$num_subbuf" \
	--buffers-"$TC_BUFFERS" --discard --blocking-timeout=inf >/dev/null
# enable-event takes one comma-separated list of names.
event_list=$(IFS=,; echo "${events[*]}")
lttng enable-event -u -s "$session" -c channel0 "$event_list" >/dev/null
ctx_args=()
for c in "${contexts[@]}"; do ctx_args+=(-t "$c"); done
if [ ${#ctx_args[@]} -gt 0 ]; then
	lttng add-context -u -s "$session" -c channel0 "${ctx_args[@]}" >/dev/null
fi
lttng start "$session" >/dev/null

start_ns=$(date +%s%N)
app_pids=()
for ((i = 0; i < procs; i++)); do
	LTTNG_UST_ALLOW_BLOCKING=1 "$work/tc_app" "$iterations" "$TC_MODE" &
	app_pids+=($!)
done
for p in "${app_pids[@]}"; do
	wait "$p" || { echo "record.sh: tc_app failed" >&2; exit 1; }
done
end_ns=$(date +%s%N)

lttng stop "$session" >/dev/null
lttng destroy "$session" >/dev/null
session_created=0
stop_sessiond

echo "record.sh: ran $procs tc_app $TC_MODE x $iterations in $(((end_ns - start_ns) / 1000000)) ms, trace in $outdir" >&2

if [ "${TC_VERIFY:-1}" = 1 ] && command -v babeltrace2 >/dev/null; then
	# The counter sink reports events and discarded-event notices
	# without formatting every event, so it is quick on big traces.
	counts=$(babeltrace2 "$outdir" -c sink.utils.counter -p step=+0 2>&1) || {
		echo "record.sh: babeltrace2 failed on $outdir:" >&2
		echo "$counts" >&2
		exit 1
	}
	got=$(awk '$2 == "Event" && $3 == "messages" { print $1 }' <<<"$counts")
	discarded=$(awk '$2 == "Discarded" && $3 == "event" { print $1 }' <<<"$counts")
	# Only known when exactly the mode's events are enabled.
	expected=
	if [ "${events[*]}" = "${mode_events[*]}" ]; then
		expected=$((approx_events * procs))
	fi
	echo "record.sh: babeltrace2 counts ${got:-?} events (expected ${expected:-?}), ${discarded:-0} discarded-events notices" >&2
	if [ "${discarded:-0}" != 0 ] || { [ -n "$expected" ] && [ "$got" != "$expected" ]; }; then
		echo "record.sh: events were lost" >&2
		exit 1
	fi
fi
