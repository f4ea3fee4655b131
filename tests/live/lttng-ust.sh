#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lttng-ust.sh - live comparison of tracecat with babeltrace2 on a trace
# recorded right now with LTTng-UST.
#
# usage (from the repository root): bash tests/live/lttng-ust.sh BIN
#
# The committed fixtures only cover what the tracer did on the day they were
# recorded; this test records fresh traces with tests/lttng/record.sh (both
# buffer layouts, per-uid and per-pid) and checks, for the default options and
# every set in tests/lttng/option-sets.txt, that
#   TZ=UTC BIN print --clock-gmt OPTS TRACE
# prints exactly what
#   TZ=UTC babeltrace2 --clock-gmt OPTS TRACE
# prints and exits with the same status.  It also checks that `BIN info`
# decodes both traces (exit status 0).
#
# record.sh starts a session daemon of its own for each recording (private
# LTTNG_HOME, and as root a private /var/run/lttng) and stops it, with its
# consumer daemons, before it returns: no daemon is shared with anything
# else, none is left behind.
#
# Protocol of the test runner: one line per check, "PASS name",
# "FAIL name: reason" or "SKIP name: reason", and exit status 0 whatever
# happened.  Without LTTng, or when record.sh cannot start a session daemon
# (its exit status 3), the checks are reported as skipped.

# babeltrace2 2.0.4's CTF 1.8 text, as in tests/run.sh, when run alone
export TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0}
set -uo pipefail

bin=${1:-}
root=$(pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
peers_debian12
record=$root/tests/lttng/record.sh
option_sets=$root/tests/lttng/option-sets.txt
prefix=lttng-ust

skip_all() {
	echo "SKIP $prefix: $1"
	exit 0
}

[ -n "$bin" ] || { echo "FAIL $prefix: usage: $0 BIN"; exit 0; }
case $bin in /*) ;; *) bin=$root/$bin ;; esac
[ -x "$bin" ] || { echo "FAIL $prefix: $bin is not an executable"; exit 0; }
[ -f "$record" ] || { echo "FAIL $prefix: run from the repository root"; exit 0; }

for tool in lttng lttng-sessiond babeltrace2 gcc timeout; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
done
echo '#include <lttng/tracepoint.h>' | gcc -E -x c - >/dev/null 2>&1 ||
	skip_all "LTTng-UST headers not installed"

# The references here are Debian 12's babeltrace2, which reads CTF 1.8 only;
# LTTng 2.15 and later write CTF 2 unless asked (lttng216.sh compares that
# with babeltrace2 2.1.2).
lttng_minor=$(lttng --version 2>/dev/null | sed -n 's/.* 2\.\([0-9][0-9]*\)\..*/\1/p')
[ "${lttng_minor:-0}" -ge 15 ] && export TC_TRACE_FORMAT=${TC_TRACE_FORMAT:-ctf-1.8}

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-live-lttng.XXXXXX")
# shellcheck disable=SC2317  # only ever called from the EXIT trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 0' INT TERM HUP PIPE

# name, record.sh environment and arguments (after OUTDIR)
traces=(
	"uid||3"
	"pid|TC_BUFFERS=pid|150 tc:bench"
)

recorded=()
for spec in "${traces[@]}"; do
	IFS='|' read -r name envs args <<<"$spec"
	read -r -a argv <<<"$args"
	read -r -a envv <<<"$envs"
	rc=0
	timeout 90 env "${envv[@]}" bash "$record" "$work/$name" "${argv[@]}" \
		>"$work/record-$name.log" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		echo "PASS $prefix/$name/record"
		recorded+=("$name")
	elif [ "$rc" = 3 ]; then
		echo "SKIP $prefix/$name: $(grep -m 1 'record.sh:' "$work/record-$name.log")"
	else
		echo "FAIL $prefix/$name/record: $(grep -m 1 -i 'error\|record.sh:' "$work/record-$name.log" || echo "record.sh failed (exit $rc)")"
	fi
done

# Reason for a mismatch, kept to one short line.
describe_diff() {
	local expected=$1 actual=$2 line
	line=$(cmp "$expected" "$actual" 2>&1 | head -n 1)
	case $line in
	*EOF*) echo "output is a prefix of the other (${line##*: })" ;;
	*line*) echo "output differs at line ${line##* line }" ;;
	*) echo "output differs" ;;
	esac
}

compare() {
	local name=$1 trace=$2
	shift 2
	local exp=$work/expected.txt act=$work/actual.txt exp_rc act_rc
	TZ=UTC timeout 60 babeltrace2 --clock-gmt "$@" "$trace" >"$exp" 2>/dev/null
	exp_rc=$?
	TZ=UTC timeout 60 "$bin" print --clock-gmt "$@" "$trace" >"$act" 2>"$work/stderr.txt"
	act_rc=$?
	if [ "$act_rc" -ge 124 ] && [ "$act_rc" != "$exp_rc" ]; then
		echo "FAIL $name: tracecat exit status $act_rc (babeltrace2 $exp_rc) $(head -c 120 "$work/stderr.txt" | head -n 1)"
	elif [ "$act_rc" != "$exp_rc" ]; then
		echo "FAIL $name: exit status $act_rc, babeltrace2 $exp_rc"
	elif ! cmp -s "$exp" "$act"; then
		echo "FAIL $name: $(describe_diff "$exp" "$act")"
	else
		echo "PASS $name"
	fi
}

for name in "${recorded[@]}"; do
	trace=$work/$name
	compare "$prefix/$name/default" "$trace"
	while read -r set args; do
		case $set in '' | '#'*) continue ;; esac
		read -r -a argv <<<"$args"
		compare "$prefix/$name/$set" "$trace" "${argv[@]}"
	done <"$option_sets"

	if timeout 60 "$bin" info "$trace" >"$work/info.txt" 2>&1; then
		echo "PASS $prefix/$name/info"
	else
		echo "FAIL $prefix/$name/info: exit status $? $(head -n 1 "$work/info.txt" | head -c 120)"
	fi
done
exit 0
