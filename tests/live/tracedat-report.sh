#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tracedat-report.sh - `tracecat report` against `trace-cmd report` on
# trace.dat files, byte for byte.
#
# usage (from the repository root): bash tests/live/tracedat-report.sh BIN
#
# For every FILE.dat of
#   1. tests/fixtures/tracedat/            (committed; outputs stored beside)
#   2. tests/corpus/trace-dat/              (committed; or the trace-dat/
#      folder of $TRACECAT_CORPUS, an external corpus laid out the same way)
#   3. fresh recordings made now with tests/tracefs/record.sh, layouts
#      "top" and "multi", and "top" with kernel stack traces and raw
#      system calls (when running as root with trace-cmd, gcc, unshare and
#      tracefs; skipped otherwise)
# it checks that
#   BIN report FILE.dat                       = FILE.dat.report.txt
#   BIN report -R FILE.dat                    = FILE.dat.raw.txt
#   BIN report --cpu 0 FILE.dat               = FILE.dat.cpu0.report.txt
#   BIN report -F sched/sched_switch FILE.dat = FILE.dat.F-sched_switch.report.txt
# and the same for -q, --stat, -E, -P, -f, --first-event, -w, --profile
# and `-i FILE.dat --ts-offset 1000` (FILE.dat.KEY.txt, KEY as in the variants
# below), where each expected file is trace-cmd report's stdout with the
# same arguments, stored (fixtures, corpus, recordings) or made now with the
# installed trace-cmd when not stored.  Exit status: where
# trace-cmd exited 0, or crashed with SIGSEGV (139) after printing
# everything (3.1.6 does so at exit for -F on files with instance buffers),
# BIN must exit 0; where trace-cmd failed (a FILE.dat.X.status other than
# 139), BIN must fail too.  Stderr is not compared.  -F takes trace-cmd's
# syntax: SYSTEM/EVENT (trace-cmd reads "sched:sched_switch" as event
# "sched" with the filter expression "sched_switch", and refuses it).
# --profile's text may list a task's events in another order than
# trace-cmd's where trace-cmd's own order changes from run to run
# (tests/tracefs/profile-order.sh says which): the same text once both
# are put in one order is a PASS that says so.
#
# The fixture files also go through build/sanitize/tracecat when it exists
# (ASan/UBSan reports fail the check), and through `BIN info` and
# `BIN print` (exit 0 and some output).
#
# Protocol of the test runner: one line per check, "PASS name",
# "FAIL name: reason" or "SKIP name: reason"; exit status 0 whatever
# happened.  Finishes in well under two minutes.
set -uo pipefail

bin=${1:-}
root=$(pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
peers_debian12
prefix=tracedat-report
fixtures=$root/tests/fixtures/tracedat
record=$root/tests/tracefs/record.sh
profile_order=$root/tests/tracefs/profile-order.sh
corpus=${TRACECAT_CORPUS:-$root/tests/corpus}/trace-dat

[ -n "$bin" ] || { echo "FAIL $prefix: usage: $0 BIN"; exit 0; }
case $bin in /*) ;; *) bin=$root/$bin ;; esac
[ -x "$bin" ] || { echo "FAIL $prefix: $bin is not an executable"; exit 0; }
[ -f "$record" ] || { echo "FAIL $prefix: run from the repository root"; exit 0; }

export TZ=UTC
# The installed trace-cmd is Debian 12's 3.1.6: its text, whatever the
# caller asked of the other peers (tests/live/tracecmd34.sh checks 3.4's).
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}trace-cmd=3.1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-live-tracedat.XXXXXX")
# shellcheck disable=SC2317  # only ever called from the EXIT trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 0' INT TERM HUP PIPE

bins=("$bin")
san=$(dirname "$bin")/sanitize/tracecat
[ -x "$san" ] && bins+=("$san")
tag() { case $1 in */sanitize/*) echo asan ;; *) echo plain ;; esac; }

# The report variants: expected-file infix and arguments (@FILE stands
# for the file where it must not come last).
variants=("report|" "raw|-R" "cpu0.report|--cpu 0" "F-sched_switch.report|-F sched/sched_switch"
	"q.report|-q" "stat|--stat" "E|-E" "P|-P" "f|-f" "first-event|--first-event" "w|-w"
	"ts-offset|-i @FILE --ts-offset 1000" "profile|--profile")

# with_file FILE ARGS...: ARGS with @FILE made FILE, or FILE after them,
# in the array cmd_args.
with_file() {
	local file=$1 a found=0
	shift
	cmd_args=()
	for a in "$@"; do
		if [ "$a" = @FILE ]; then
			cmd_args+=("$file")
			found=1
		else
			cmd_args+=("$a")
		fi
	done
	[ "$found" = 1 ] || cmd_args+=("$file")
}

# Reason for a mismatch, kept to one short line.
describe_diff() {
	local line
	line=$(cmp "$1" "$2" 2>&1 | head -n 1)
	case $line in
	*EOF*) echo "output is a prefix of trace-cmd's or the reverse (${line##*: })" ;;
	*line*) echo "output differs at line ${line##* line }: expected '$(sed -n "${line##* line }p" "$1" | head -c 80 | tr -c '[:print:]' '?')'" ;;
	*) echo "output differs" ;;
	esac
}

# check NAME DIR FILE EXPECTED_TXT EXPECTED_STATUS BIN ARGS...
check() {
	local name=$1 dir=$2 file=$3 exp=$4 exp_rc=$5 b=$6 rc
	shift 6
	with_file "$file" "$@"
	(cd "$dir" && timeout 60 "$b" report "${cmd_args[@]}" >"$work/out" 2>"$work/err")
	rc=$?
	if [ "$exp_rc" = 139 ]; then exp_rc=0; fi
	if [ "$rc" -ge 124 ] && [ "$rc" != 0 ]; then
		echo "FAIL $name: tracecat exit status $rc $(head -n 1 "$work/err" | head -c 120)"
	elif [ "$exp_rc" = 0 ] && [ "$rc" != 0 ]; then
		echo "FAIL $name: exit status $rc, trace-cmd 0: $(head -n 1 "$work/err" | head -c 120)"
	elif [ "$exp_rc" != 0 ] && [ "$rc" = 0 ]; then
		echo "FAIL $name: exit status 0, trace-cmd $exp_rc"
	elif ! cmp -s "$exp" "$work/out" && renumbered "$exp" "$dir" "$file" "$@"; then
		echo "PASS $name: trace-cmd 3.4's numbering, 3.1.6's --cpu $(sed 's/cpus=//' "$exp")"
	elif ! cmp -s "$exp" "$work/out" && [ "$*" = --profile ] &&
		cmp -s <(bash "$profile_order" <"$exp") <(bash "$profile_order" <"$work/out"); then
		echo "PASS $name: the same events, in another order where trace-cmd's depends on heap addresses"
	elif ! cmp -s "$exp" "$work/out"; then
		echo "FAIL $name: $(describe_diff "$exp" "$work/out")"
	elif grep -q -e 'runtime error' -e 'AddressSanitizer' -e 'LeakSanitizer' "$work/err"; then
		echo "FAIL $name: sanitizer report: $(grep -m 1 -e 'runtime error' -e Sanitizer "$work/err" | head -c 120)"
	else
		echo "PASS $name"
	fi
}

# renumbered EXPECTED DIR FILE ARGS...: for `--cpu 0` on a version 7 file
# without a top buffer, where trace-cmd 3.1.6 shows nothing ("cpus=N") and
# tracecat follows trace-cmd 3.4, which numbers the first instance's CPUs
# from 0 (doc/formats/tracedat.md §11.3): true when $work/out is what
# 3.1.6 shows for that CPU, `--cpu N`.
renumbered() {
	local exp=$1 dir=$2 file=$3 n
	shift 3
	[ "$*" = "--cpu 0" ] && [ "$(wc -l <"$exp")" = 1 ] && grep -qx 'cpus=[0-9]*' "$exp" || return 1
	command -v trace-cmd >/dev/null 2>&1 || return 1
	n=$(sed 's/cpus=//' "$exp")
	(cd "$dir" && timeout 60 trace-cmd report --cpu "$n" "$file" 2>/dev/null) | cmp -s - "$work/out"
}

# trace_cmd_expect DIR FILE ARGS...: trace-cmd's output now, in
# $work/exp.txt and its exit status in $work/exp.rc.
trace_cmd_expect() {
	local dir=$1 file=$2 rc=0
	shift 2
	with_file "$file" "$@"
	{ (cd "$dir" && timeout 60 stdbuf -oL trace-cmd report "${cmd_args[@]}" >"$work/exp.txt" 2>/dev/null); } 2>/dev/null || rc=$?
	echo "$rc" >"$work/exp.rc"
}

# check_file LABEL DIR FILE LIVE BINS...: every variant of DIR/FILE.  Stored
# expected outputs are used when present; otherwise, with LIVE=1,
# trace-cmd is run now.
check_file() {
	local label=$1 dir=$2 file=$3 live=$4 spec key args exp exp_rc b
	shift 4
	for spec in "${variants[@]}"; do
		key=${spec%%|*}
		args=${spec#*|}
		case " ${only_keys:-$key} " in *" $key "*) ;; *) continue ;; esac
		exp=$dir/$file.$key.txt
		exp_rc=0
		if [ -f "$exp" ]; then
			[ -f "$dir/$file.$key.status" ] && exp_rc=$(cat "$dir/$file.$key.status")
		elif [ "$live" = 1 ] && command -v trace-cmd >/dev/null 2>&1; then
			# shellcheck disable=SC2086  # args is a list of options
			trace_cmd_expect "$dir" "$file" $args
			cp "$work/exp.txt" "$work/expected.txt"
			exp=$work/expected.txt
			exp_rc=$(cat "$work/exp.rc")
		elif [ "$live" = 1 ]; then
			echo "SKIP $prefix/$label/$file.$key: trace-cmd is not installed (no stored output to compare with)"
			continue
		else
			continue
		fi
		for b in "$@"; do
			# shellcheck disable=SC2086
			check "$prefix/$label/$file.$key [$(tag "$b")]" "$dir" "$file" "$exp" "$exp_rc" "$b" $args
		done
	done
}

# smoke CMD LABEL DIR FILE: `BIN CMD FILE` reads the file (exit 0, output).
smoke() {
	local cmd=$1 label=$2 dir=$3 file=$4 b rc
	for b in "${bins[@]}"; do
		(cd "$dir" && timeout 60 "$b" "$cmd" "$file" >"$work/out" 2>"$work/err")
		rc=$?
		if [ "$rc" != 0 ]; then
			echo "FAIL tracedat-$cmd/$label/$file [$(tag "$b")]: exit status $rc: $(head -n 1 "$work/err" | head -c 120)"
		elif [ ! -s "$work/out" ]; then
			echo "FAIL tracedat-$cmd/$label/$file [$(tag "$b")]: no output"
		elif grep -q -e 'runtime error' -e 'Sanitizer' "$work/err"; then
			echo "FAIL tracedat-$cmd/$label/$file [$(tag "$b")]: sanitizer report"
		else
			echo "PASS tracedat-$cmd/$label/$file [$(tag "$b")]"
		fi
	done
}

# ---- 1. committed fixtures
found=0
for f in "$fixtures"/*.dat; do
	[ -f "$f" ] || continue
	found=1
	check_file fixture "$fixtures" "${f##*/}" 1 "${bins[@]}"
	smoke print fixture "$fixtures" "${f##*/}"
	smoke info fixture "$fixtures" "${f##*/}"
done
[ "$found" = 1 ] || echo "FAIL $prefix/fixture: no .dat file in $fixtures"

# ---- 2. the corpus: committed, so an empty one is a broken checkout or a
# wrong TRACECAT_CORPUS, never a reason to skip
found=0
for f in "$corpus"/*.dat; do
	[ -f "$f" ] || continue
	found=1
	check_file corpus "$corpus" "${f##*/}" 1 "$bin"
done
[ "$found" = 1 ] || echo "FAIL $prefix/corpus: no .dat file in $corpus"

# ---- 3. fresh recordings
why=""
if [ "$(id -u)" != 0 ]; then
	why="not running as root"
else
	for tool in trace-cmd gcc unshare stdbuf; do
		command -v "$tool" >/dev/null 2>&1 || { why="$tool is not installed"; break; }
	done
fi
if [ -z "$why" ] && [ ! -d /sys/kernel/tracing/instances ] &&
	! grep -qw tracefs /proc/filesystems 2>/dev/null; then
	why="the kernel has no tracefs"
fi
if [ -n "$why" ]; then
	echo "SKIP $prefix/live: $why"
	exit 0
fi
# "stacks": a top buffer with kernel stack traces and raw system calls,
# for --profile's caller trees and system call pairs
for layout in top multi stacks; do
	out=$work/rec-$layout
	extra=()
	only_keys=""
	# (-R and -F on kernel_stack records are not this recording's subject:
	# only the options it was made for, and the default text)
	[ "$layout" != stacks ] || {
		extra=(TC_STACKTRACE=1 TC_EXTRA_EVENTS=raw_syscalls TC_VERSIONS=v7-zstd)
		only_keys="report cpu0.report q.report stat E P f first-event w ts-offset profile"
	}
	if timeout 120 env TC_NAME="$layout" TC_LAYOUT="${layout/stacks/top}" "${extra[@]}" bash "$record" "$out" 1 \
		>"$work/record-$layout.log" 2>&1; then
		echo "PASS $prefix/live/$layout/record"
		for f in "$out"/*.dat; do
			check_file "live/$layout" "$out" "${f##*/}" 1 "$bin"
		done
	else
		reason=$(grep -m 1 'record.sh:' "$work/record-$layout.log" | head -c 160)
		echo "FAIL $prefix/live/$layout/record: ${reason:-record.sh failed}"
	fi
done
exit 0
