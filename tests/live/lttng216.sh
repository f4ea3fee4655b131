#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/lttng216.sh BIN - `tracecat print`'s default text against
# babeltrace2 2.1.2 (tests/peers/babeltrace2-2.1) on LTTng 2.16 traces
# recorded now, in the Debian sid root (scripts/sid-root.sh), with
# tests/lttng/record.sh and its tc_app (integers, floats, strings, enums,
# arrays, sequences; two threads pinned to the two CPUs):
#   ctf2        the daemon's default format, which must be CTF 2
#   ctf18       `lttng create --trace-format=ctf-1.8`
#   ctf2-pids   CTF 2, per-process buffers (`enable-channel --buffers-pid`),
#               30 processes at once: one trace per process, and events of
#               equal times in different traces, whose order is the
#               muxer's rule for ties (babeltrace2 2.1.2 compares the
#               traces' names, hostname/ust/pid/PROCESS-PID-DATE; 2.0.4
#               their UUIDs)
#   ctf18-pids  the same in CTF 1.8, also printed by Debian 12's
#               babeltrace2 2.0.4 and BIN --compat babeltrace2=2.0
# For each trace, the default options and the 14 sets of
# tests/lttng/option-sets.txt (what tests/live/lttng-ust.sh uses):
#   TZ=UTC BIN print --clock-gmt OPTS TRACE
# must print what the peer prints with the same arguments, with the same
# exit status and the same WARNING lines on the error stream.  A NOTE line
# (not counted) says how many ties across processes a recording had, or
# that it had none, in which case the tie order went untested this time.
#
# The recordings run in a mount namespace of the test's own (unshare -m)
# with the host's /proc, /sys and /dev (with /dev/shm, where LTTng-UST
# keeps its buffers) bound into the root and the test's folder on its
# /mnt; record.sh starts a session daemon of its own (with a private
# /var/run/lttng) and stops it by its pid, and the binds vanish with the
# namespace.  SKIP when not root or when the root has no LTTng 2.16.
# Prints PASS/FAIL/SKIP/NOTE lines for tests/run.sh; exits 0.
set -u
BIN=${1:-}
[ -n "$BIN" ] || { echo "FAIL lttng216: usage: $0 BIN"; exit 0; }
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
[ -x "$BIN" ] || { echo "FAIL lttng216: $BIN is not an executable"; exit 0; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
sid=${TRACECAT_SID_ROOT:-/var/cache/tracecat/sid-root}
BT21=${BABELTRACE21:-$ROOT/tests/peers/babeltrace2-2.1}
export TZ=UTC
# The default text is 2.1.2's; the 2.0.4 comparison asks for 2.0 itself.
unset TRACECAT_COMPAT

if [ "$(id -u)" != 0 ]; then
	echo "SKIP lttng216: needs root (chroot, mounts, a root session daemon)"
	exit 0
fi
if [ ! -x "$sid/usr/bin/lttng-sessiond" ] || [ ! -x "$sid/usr/bin/gcc-16" ]; then
	echo "SKIP lttng216: no sid root with LTTng 2.16 and gcc-16 ($sid; scripts/sid-root.sh builds it)"
	exit 0
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-lttng216.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 0' INT TERM HUP
cp -r "$ROOT/tests/lttng" "$work/lttng"

# name|record.sh environment|ITERATIONS
traces=("ctf2||3" "ctf18|TC_TRACE_FORMAT=ctf-1.8|3"
	"ctf2-pids|TC_BUFFERS=pid TC_PROCS=30|300" "ctf18-pids|TC_TRACE_FORMAT=ctf-1.8 TC_BUFFERS=pid TC_PROCS=30|300")
printf '%s\n' "${traces[@]}" >"$work/traces"

# shellcheck disable=SC2016  # expanded by the inner shell
unshare -m bash -c '
	set -u
	sid=$1 work=$2
	mount --make-rprivate / &&
		mount --bind /proc "$sid/proc" && mount --bind /sys "$sid/sys" &&
		mount --rbind /dev "$sid/dev" && mount --bind "$work" "$sid/mnt" || { echo "mounts failed" >&2; exit 1; }
	while IFS="|" read -r name envs iterations; do
		# shellcheck disable=SC2086  # envs is a list of assignments
		chroot "$sid" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C CC=gcc-16 $envs \
			timeout 120 bash /mnt/lttng/record.sh "/mnt/$name" "$iterations" >"$work/record-$name.log" 2>&1
		echo $? >"$work/record-$name.rc"
	done <"$work/traces"
	chroot "$sid" lttng --version >"$work/version" 2>&1
	exit 0
' lttng216 "$sid" "$work" >"$work/log" 2>&1 ||
	{ echo "FAIL lttng216/record: $(tr '\n' ' ' <"$work/log" | head -c 300)"; exit 0; }

# ties TEXT: how many events of TEXT (the default format) have the time of
# the event before them and another process id.
ties() {
	awk 'match($0, /vpid = [0-9]+/) {
		t = substr($0, 1, 21); p = substr($0, RSTART, RLENGTH)
		if (t == lt && p != lp) n++
		lt = t; lp = p
	} END { print n + 0 }' "$1"
}

# late_only PEER-TEXT TC-TEXT: babeltrace2 2.1.2 prints a few events of
# some traces of many processes after later ones (a negative delta), where
# tracecat keeps time order.  Prints how many such late events PEER-TEXT
# has and succeeds when they are the only difference: without them (found
# in TC-TEXT by their text, deltas aside) both texts are the same lines,
# but for the delta of a line that followed a removed one, and TC-TEXT's
# times never go back.  A line's time is its first [...] (a time of day,
# a date and time, seconds or cycles: numbers compare as numbers).
late_only() {
	awk '
	function key(l,  k) {
		k = substr(l, 2, index(l, "]") - 2)
		if (k ~ /^[0-9]+(\.[0-9]+)?$/) {
			split(k, part, ".")
			k = sprintf("%020s.%s", part[1], part[2])
		}
		return k
	}
	function masked(l) { sub(/\(\+[^)]*\)/, "(+D)", l); return l }
	FNR == 1 { file++; max = ""; after = 0 }
	file == 1 {
		k = key($0)
		if (max != "" && k < max) { late[masked($0)]++; nlate++; after = 1; next }
		if (k > max) max = k
		bt[++nb] = $0; bt_after[nb] = after; after = 0
		next
	}
	{
		k = key($0)
		if (max != "" && k < max) backwards = 1
		if (k > max) max = k
		m = masked($0)
		if (late[m] > 0) { late[m]--; after = 1; next }
		tc[++nt] = $0; tc_after[nt] = after; after = 0
	}
	END {
		if (!nlate || backwards || nb != nt) exit 1
		for (m in late) if (late[m]) exit 1
		for (i = 1; i <= nb; i++)
			if (bt[i] != tc[i] && !((bt_after[i] || tc_after[i]) && masked(bt[i]) == masked(tc[i])))
				exit 1
		print nlate
	}' "$1" "$2"
}

# compare LABEL PEER-NAME PEER-COMMAND... -- TRACECAT-ARGS...
compare() {
	local label=$1 peer=$2 brc trc
	shift 2
	local cmd=()
	while [ "$1" != -- ]; do
		cmd+=("$1")
		shift
	done
	shift
	timeout 120 "${cmd[@]}" >"$work/bt.out" 2>"$work/bt.err"
	brc=$?
	timeout 120 "$BIN" print "$@" >"$work/tc.out" 2>"$work/tc.err"
	trc=$?
	if [ $brc -ne $trc ]; then
		echo "FAIL $label: exit $trc, $peer $brc $(head -c 160 "$work/tc.err" | head -n 1)"
	elif ! cmp -s "$work/bt.out" "$work/tc.out" && late=$(late_only "$work/bt.out" "$work/tc.out"); then
		echo "NOTE $label: $peer prints $late events after later ones (negative deltas), tracecat in time order; nothing else differs"
	elif ! cmp -s "$work/bt.out" "$work/tc.out"; then
		echo "FAIL $label: stdout differs from $peer's: $(cmp "$work/bt.out" "$work/tc.out" 2>&1 | head -n 1)"
	elif ! diff -q <(grep '^WARNING\|^\[warning\]' "$work/bt.err") <(grep '^WARNING\|^\[warning\]' "$work/tc.err") >/dev/null; then
		echo "FAIL $label: warnings differ from $peer's"
	else
		echo "PASS $label"
	fi
}

optsets=("default|")
while read -r set args; do
	case $set in '' | '#'*) continue ;; esac
	optsets+=("$set|$args")
done <"$ROOT/tests/lttng/option-sets.txt"

bt21_runs=1
"$BT21" --version >/dev/null 2>&1 || { bt21_runs=0; echo "SKIP lttng216/2.1: babeltrace2 2.1.2 does not run ($BT21)"; }
while IFS="|" read -r name _; do
	trace=$work/$name
	if [ "$(cat "$work/record-$name.rc")" != 0 ]; then
		echo "FAIL lttng216/$name/record: $(grep -m 1 -i 'error\|record.sh:\|timeout' "$work/record-$name.log" |
			head -c 200) (exit $(cat "$work/record-$name.rc"))"
		continue
	fi
	echo "PASS lttng216/$name/record: $(head -n 1 "$work/version"), $(grep -m 1 'counts' "$work/record-$name.log" |
		sed 's/^record.sh: babeltrace2 //')"
	metadata=$(find "$trace" -name metadata -type f | sort | head -n 1)
	format=1.8
	[ "$(head -c 1 "$metadata" | od -An -tx1 | tr -d ' ')" = 1e ] && format=2
	case $name in
	ctf2*) want=2 ;;
	*) want=1.8 ;;
	esac
	if [ "$format" = "$want" ]; then
		echo "PASS lttng216/$name/format: CTF $format"
	else
		echo "FAIL lttng216/$name/format: CTF $format, not $want"
	fi
	[ "$bt21_runs" = 1 ] || continue
	for spec in "${optsets[@]}"; do
		set=${spec%%|*}
		read -r -a argv <<<"${spec#*|}"
		compare "lttng216/2.1/$name/$set" "babeltrace2 2.1.2" "$BT21" --clock-gmt "${argv[@]}" "$trace" -- \
			--clock-gmt "${argv[@]}" "$trace"
		[ "$set" = default ] && cp "$work/bt.out" "$work/$name.bt21.txt"
	done
	case $name in
	*-pids)
		n=$(ties "$work/$name.bt21.txt")
		if [ "$n" = 0 ]; then
			echo "NOTE lttng216/$name: no two processes recorded events at the same time: the tie order went untested"
		else
			echo "NOTE lttng216/$name: $n events tie in time with the event of another process before them"
		fi
		;;
	esac
done <"$work/traces"

# ---- babeltrace2 2.0.4's order of ties, under --compat babeltrace2=2.0
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP lttng216/2.0: babeltrace2 is not installed"
elif [ "$(cat "$work/record-ctf18-pids.rc")" = 0 ]; then
	for spec in "${optsets[@]}"; do
		set=${spec%%|*}
		read -r -a argv <<<"${spec#*|}"
		compare "lttng216/2.0/ctf18-pids/$set" "babeltrace2 2.0.4" babeltrace2 --clock-gmt "${argv[@]}" \
			"$work/ctf18-pids" -- --compat babeltrace2=2.0 --clock-gmt "${argv[@]}" "$work/ctf18-pids"
	done
fi
exit 0
