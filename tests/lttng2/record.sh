#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# record.sh - record tracecat's LTTng 2.15 CTF 2 fixtures into OUTDIR, and
# babeltrace2 2.1's text output for them.
#
# usage: tests/lttng2/record.sh OUTDIR          record every trace, then refs
#        tests/lttng2/record.sh --refs-only DIR  only remake DIR/*.bt21.*
#
# Not run by the tests: it is how the committed fixtures were made.  To renew
# them, keeping README.md, whose dates and counts then need updating:
#     cd tests/fixtures/ctf2-lttng && rm -rf ust-* && cd - &&
#     tests/lttng2/record.sh tests/fixtures/ctf2-lttng
#
# What it does:
#  1. builds tc2_app (tc2_app.c, tc2_tp.c, tc2_tp.h beside this script)
#     against LTTng 2.15 in a temporary folder, compiled from there so that
#     __FILE__ (recorded by tracelog) is "tc2_app.c", not a path;
#  2. starts a session daemon of its own (below), and for each trace of the
#     TRACES table creates a session (LTTng 2.15 writes CTF 2 by default;
#     --trace-format=ctf-2 says it anyway), runs tc2_app, stops and destroys
#     the session, and copies the trace folder (the one holding `metadata`,
#     e.g. ust/uid/0/64-bit/) to OUTDIR/NAME without its index/ folder once
#     babeltrace2 printed the same text with and without it;
#  3. stops the daemon and its consumer daemon (and waits for them);
#  4. checks every metadata file starts with 0x1E (CTF 2), counts events
#     where the program's output is deterministic, and writes, from inside
#     OUTDIR with the trace given by its bare name (trace names in `-f all`
#     output depend on the path):
#         TZ=UTC babeltrace2 --clock-gmt [OPTIONS] NAME > NAME[.OPTS].bt21.txt
#     for the option sets of option-sets.txt beside this script, plus
#     NAME[.OPTS].bt21.stderr when babeltrace2 wrote anything on stderr,
#     with OUTDIR's absolute path (which babeltrace2's discarded-events
#     warnings name stream files by) made "./", so the files do not depend
#     on where the fixtures were made.  babeltrace2 must exit with status 0.
#
# The daemon is private, as root too: LTTng 2.15 takes its run directory
# from LTTNG_RUNDIR (client, health, consumer sockets, lock and pid files)
# and the application socket and "wait" shared-memory file from
# LTTNG_UST_CTL_PATH, so nothing goes to /var/run/lttng*, /dev/shm or
# ~/.lttng; LTTNG_HOME is a private folder too. tc2_app gets
# LTTNG_UST_APP_PATH=$LTTNG_UST_CTL_PATH, so it registers with this daemon
# only and never with a system one (Debian's 2.13 daemon, if any, is not
# touched). The only shared resource is the agent TCP port on 127.0.0.1,
# taken from the 5345-5354 range as every session daemon does. The daemon
# runs in the background (not --daemonize), so its pid is $!; it is ready
# when it sends SIGUSR1 (--sig-parent); every lttng command runs with
# --no-sessiond, so none can start another daemon.
#
# Environment knobs:
#   LTTNG215  prefix of an LTTng >= 2.15 install (lttng-tools and lttng-ust
#             built from source with that --prefix: bin/lttng,
#             bin/lttng-sessiond, include/, lib/ with liblttng-ust); needed
#             for recording, not for --refs-only.  Debian 12 has only 2.13,
#             which cannot write CTF 2.
#   BT21      babeltrace2 2.1 binary, default tests/peers/babeltrace2-2.1
#             (Debian sid's package, see tests/peers/README.md)
#   CC        compiler, default gcc
#
# Software perf counters (perf:thread:task-clock, page-fault) are recorded in
# ust-uid: they need perf_event_open (refused by some container seccomp
# profiles). Beware: when the application cannot create a context (we tried
# the hardware counter perf:thread:cpu-cycles on a machine without a CPU
# PMU), LTTng 2.15.1's session daemon logs "UST app create channel context
# failed" and "UST app start session failed", and crashed with SIGSEGV on
# `lttng destroy`.
#
# Exit status: 0 ok; 1 failure; 2 usage; 3 the session daemon did not start.
set -euo pipefail

usage() {
	echo "usage: $0 OUTDIR | --refs-only DIR" >&2
	exit 2
}

refs_only=0
if [ "${1:-}" = --refs-only ]; then
	refs_only=1
	shift
fi
[ $# -eq 1 ] || usage
outdir=$1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
P=${LTTNG215:-}
BT=${BT21:-$here/../peers/babeltrace2-2.1}
CC=${CC:-gcc}

# The traces: NAME, ITERATIONS, tc2_app MODES, then the setup: CHANNEL
# specifications (name:enable-channel options, comma-separated) and, after
# "--", the contexts and, after "::", the event rules (channel:pattern),
# both whitespace-separated. Event counts are checked for full and log.
#
#   ust-uid          per-user buffers, one per CPU; two threads pinned to
#                    CPU 0 and CPU 1; every payload type; contexts including
#                    ip and two software perf counters
#   ust-pid          per-process buffers (ust/pid/tc2_app-PID-DATE/, whose
#                    environment names the process); payload types, tracef,
#                    tracelog; id/namespace contexts
#   ust-per-channel  new in LTTng 2.15: one buffer for the whole channel
#                    (--buffer-allocation=per-channel): one stream, no
#                    cpu_id in the packet context, cpu_id as a context
#   ust-log          tracef, tracelog at every level, log levels and EMF URIs
#   ust-lost         two channels (two data stream classes): tc2:burst in a
#                    tiny discard-mode channel, tc2:ring in a tiny
#                    overwrite-mode one, both overrun by the two threads:
#                    discarded events and discarded packets
# and ust-pid-twins, ust-pid beside a copy of it posing as another
# process's trace (tests/lttng/twin.py).
TRACES=(
	"ust-uid 4 full ch:--buffer-ownership=user,--buffer-allocation=per-cpu,--subbuf-size=4096,--num-subbuf=8,--blocking-timeout=inf -- vpid vtid procname pthread_id ip perf:thread:task-clock perf:thread:page-fault :: ch:tc2:*"
	"ust-pid 1 full,log ch:--buffer-ownership=process,--buffer-allocation=per-cpu,--subbuf-size=4096,--num-subbuf=8,--blocking-timeout=inf -- vpid vtid procname vuid vgid pid_ns mnt_ns :: ch:tc2:* ch:lttng_ust_tracef:* ch:lttng_ust_tracelog:*"
	"ust-per-channel 2 full ch:--buffer-ownership=user,--buffer-allocation=per-channel,--subbuf-size=4096,--num-subbuf=8,--blocking-timeout=inf -- cpu_id vpid vtid procname :: ch:tc2:*"
	"ust-log 1 log ch:--buffer-ownership=user,--buffer-allocation=per-cpu,--subbuf-size=4096,--num-subbuf=8,--blocking-timeout=inf -- vpid vtid procname :: ch:tc2:* ch:lttng_ust_tracef:* ch:lttng_ust_tracelog:*"
	"ust-lost 1500 lost discard:--buffer-ownership=user,--buffer-allocation=per-cpu,--subbuf-size=4096,--num-subbuf=2,--discard ring:--buffer-ownership=user,--buffer-allocation=per-cpu,--subbuf-size=4096,--num-subbuf=2,--overwrite -- vtid :: discard:tc2:burst ring:tc2:ring"
)

expected_events() { # ITERATIONS MODES
	local n=0
	case ,$2, in *,full,*) n=$((n + $1 * 2 * 8)) ;; esac
	case ,$2, in *,log,*) n=$((n + 23)) ;; esac
	case ,$2, in *,lost,*) n= ;; esac
	echo "$n"
}

# make_refs DIR: the *.bt21.txt / *.bt21.stderr files for every trace in DIR.
make_refs() {
	local dir=$1 trace name args
	(
		cd "$dir"
		rm -f ./*.bt21.txt ./*.bt21.stderr
		for trace in */; do
			trace=${trace%/}
			[ -n "$(find "$trace" -name metadata -print -quit)" ] || continue
			run_bt "$trace" "$trace" || exit 1
			while read -r t name args; do
				case $t in '' | '#'*) continue ;; esac
				[ "$t" = "$trace" ] || continue
				# shellcheck disable=SC2086  # ARGS are blank-separated
				run_bt "$trace" "$trace.$name" $args </dev/null || exit 1
			done <"$here/option-sets.txt"
		done
	)
}
# run_bt TRACE OUTNAME ARGS...: babeltrace2 into OUTNAME.bt21.txt (+ .stderr)
run_bt() {
	local trace=$1 out=$2 rc=0
	shift 2
	TZ=UTC "$BT" --clock-gmt "$@" "$trace" >"$out.bt21.txt" 2>"$out.bt21.stderr" || rc=$?
	sed -i "s|$(pwd -P)/|./|g" "$out.bt21.stderr"
	if [ "$rc" != 0 ]; then
		echo "record.sh: babeltrace2 $* $trace: exit status $rc" >&2
		cat "$out.bt21.stderr" >&2
		return 1
	fi
	[ -s "$out.bt21.stderr" ] || rm -f "$out.bt21.stderr"
}

[ -x "$BT" ] || { echo "record.sh: $BT not found (set BT21)" >&2; exit 1; }
if [ "$refs_only" = 1 ]; then
	[ -d "$outdir" ] || { echo "record.sh: no folder $outdir" >&2; exit 1; }
	make_refs "$outdir"
	exit 0
fi

[ -n "$P" ] || { echo "record.sh: set LTTNG215 to the prefix of an LTTng >= 2.15 install" >&2; exit 1; }
for tool in "$P/bin/lttng" "$P/bin/lttng-sessiond"; do
	[ -x "$tool" ] || { echo "record.sh: $tool not found (set LTTNG215)" >&2; exit 1; }
done
command -v "$CC" >/dev/null || { echo "record.sh: $CC not found" >&2; exit 1; }
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
for spec in "${TRACES[@]}"; do
	name=${spec%% *}
	if [ -e "$outdir/$name" ]; then
		echo "record.sh: $outdir/$name exists" >&2
		exit 1
	fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tc2-record.XXXXXX")
sessiond_pid=
session=
export LTTNG_HOME=$work/home LTTNG_RUNDIR=$work/run LTTNG_UST_CTL_PATH=$work/run/ust
mkdir -p "$LTTNG_HOME" "$LTTNG_UST_CTL_PATH"
# The 2.15 tools and libraries (their rpath says so too), never Debian's.
export LD_LIBRARY_PATH=$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
lttng() { "$P/bin/lttng" --no-sessiond "$@"; }

# shellcheck source=tests/lttng/sessiond.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lttng/sessiond.sh"

# shellcheck disable=SC2317  # called from the EXIT trap
cleanup() {
	local rc=$?
	set +e
	if [ -n "$session" ] && [ -n "$sessiond_pid" ]; then
		lttng destroy "$session" >/dev/null 2>&1
	fi
	[ -z "$sessiond_pid" ] || stop_sessiond
	rm -rf "$work"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkdir "$work/build"
cp "$here/tc2_app.c" "$here/tc2_tp.c" "$here/tc2_tp.h" "$work/build/"
# -Wno-sign-compare: lttng-ust's enum value macros compare signed and
# unsigned (UINT64_MAX in tc2:size_class).
(cd "$work/build" && "$CC" -std=c11 -O2 -Wall -Wextra -Wno-sign-compare -I"$P/include" -I. \
	-o tc2_app tc2_app.c tc2_tp.c -L"$P/lib" -Wl,-rpath,"$P/lib" -llttng-ust -ldl -lpthread)

start_sessiond "$P/bin/lttng-sessiond" "$work/sessiond.log"

for spec in "${TRACES[@]}"; do
	read -r name iterations modes rest <<<"$spec"
	channels=${rest%% -- *}
	rest=${rest#* -- }
	contexts=${rest%% :: *}
	rules=${rest#* :: }
	session=tc2-$name
	sessdir=$work/sessions/$name

	lttng create "$session" --output="$sessdir" --trace-format=ctf-2 >/dev/null
	for ch in $channels; do
		IFS=, read -r -a opts <<<"${ch#*:}"
		lttng enable-channel -u -s "$session" "${opts[@]}" "${ch%%:*}" >/dev/null
		ctx_args=()
		for c in $contexts; do ctx_args+=(-t "$c"); done
		lttng add-context -u -s "$session" -c "${ch%%:*}" "${ctx_args[@]}" >/dev/null
	done
	for r in $rules; do
		lttng enable-event -u -s "$session" -c "${r%%:*}" "${r#*:}" >/dev/null
	done
	lttng start "$session" >/dev/null
	LTTNG_UST_APP_PATH=$LTTNG_UST_CTL_PATH LTTNG_UST_ALLOW_BLOCKING=1 \
		"$work/build/tc2_app" "$iterations" "$modes"
	lttng stop "$session" >/dev/null
	lttng destroy "$session" >/dev/null
	session=

	mapfile -t metas < <(find "$sessdir" -name metadata)
	if [ ${#metas[@]} != 1 ]; then
		echo "record.sh: $name: expected one trace, found ${#metas[@]}" >&2
		exit 1
	fi
	trace=$(dirname "${metas[0]}")
	echo "record.sh: $name: ${trace#"$sessdir"/}" >&2
	if [ "$(head -c 1 "$trace/metadata" | od -An -tx1 | tr -d ' ')" != 1e ]; then
		echo "record.sh: $name: metadata is not CTF 2" >&2
		exit 1
	fi
	cp -r "$trace" "$outdir/$name"
	chmod -R u+rwX,go+rX "$outdir/$name"
	# Drop index/ only if babeltrace2 prints the same without it.
	if [ -d "$outdir/$name/index" ]; then
		(cd "$outdir" && TZ=UTC "$BT" --clock-gmt "$name" >"$work/with-index.txt" 2>&1)
		mv "$outdir/$name/index" "$work/index-$name"
		(cd "$outdir" && TZ=UTC "$BT" --clock-gmt "$name" >"$work/without-index.txt" 2>&1)
		if ! cmp -s "$work/with-index.txt" "$work/without-index.txt"; then
			echo "record.sh: $name: babeltrace2 output differs without index/; kept" >&2
			mv "$work/index-$name" "$outdir/$name/index"
		fi
	fi
done
stop_sessiond
# ust-pid beside a twin of itself (tests/lttng/twin.py), in folders named
# as LTTng names per-process traces: every event ties in time with its
# twin's, in another trace.
rm -rf "$outdir/ust-pid-twins"
mkdir "$outdir/ust-pid-twins"
pid=$(sed -n 's/^.*"vpid": \([0-9]*\).*$/\1/p' "$outdir/ust-pid/metadata" | head -n 1)
date=$(sed -n 's/^.*"vpid_datetime": "\([0-9]*\)T\([0-9]*\)+.*$/\1-\2/p' "$outdir/ust-pid/metadata" | head -n 1)
cp -r "$outdir/ust-pid" "$outdir/ust-pid-twins/tc2_app-$pid-$date"
python3 "$here/../lttng/twin.py" "$outdir/ust-pid" "$outdir/ust-pid-twins/tc2_app-$((pid + 1))-$date" $((pid + 1))

make_refs "$outdir"
status=0
for spec in "${TRACES[@]}"; do
	read -r name iterations modes _ <<<"$spec"
	counts=$("$BT" "$outdir/$name" -c sink.utils.counter 2>&1)
	got=$(awk '$2 == "Event" && $3 == "messages" { print $1 }' <<<"$counts")
	disc_ev=$(awk '$2 == "Discarded" && $3 == "event" { print $1 }' <<<"$counts")
	disc_pk=$(awk '$2 == "Discarded" && $3 == "packet" { print $1 }' <<<"$counts")
	expected=$(expected_events "$iterations" "$modes")
	echo "record.sh: $name: $got events (expected ${expected:-?}), ${disc_ev:-0} discarded-events and ${disc_pk:-0} discarded-packets messages, $(du -sk "$outdir/$name" | cut -f1) KiB" >&2
	if [ -n "$expected" ] && [ "$got" != "$expected" ]; then
		echo "record.sh: $name: events were lost" >&2
		status=1
	fi
done
exit "$status"
