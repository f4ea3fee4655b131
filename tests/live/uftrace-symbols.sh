#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uftrace-symbols.sh - `tracecat replay` of record directories without
# their .sym files, against `uftrace replay`, byte for byte: both then read
# the symbols from the traced binaries (issue 21), and without the binary
# either both print addresses, tracecat with one warning.
#
# usage: bash tests/live/uftrace-symbols.sh BIN
#
# Builds tests/uftrace/lifecycle.c (sleeps, two threads, a fork) with
# gcc -pg as a PIE and as a fixed-address executable, and records each
# with uftrace; single.c with --no-libcall and args.c with -a add plain
# calls and DWARF arguments.  Then, for every recording with all its .sym
# files removed:
#   BIN replay [-t 100us | -f addr,time] DIR   must print what uftrace
#   replay prints, with nothing on stderr;
# and with the program deleted as well, the same output and exit status
# (args fails as uftrace does: its arguments need the symbols) plus one
# line "tracecat: warning: DIR/NAME.sym is missing or unreadable, ...".
# Each check also runs build/sanitize/tracecat when it is built.
# Needs uftrace and gcc (tests/uftrace/record.sh's needs); SKIPs without.
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.
set -uo pipefail

bin=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
peers_debian12
prefix=uftrace-symbols
[ -n "$bin" ] || { echo "FAIL $prefix: usage: $0 BIN"; exit 0; }
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
for tool in uftrace gcc; do
	command -v $tool >/dev/null 2>&1 || { echo "SKIP $prefix: $tool is not installed"; exit 0; }
done
# shellcheck source=tests/uftrace/lib.sh
. "$root/tests/uftrace/lib.sh"
# The references are Debian 12's uftrace 0.13's text (the newer default,
# 0.19's, is tests/live/uftrace019.sh's); the last item of a request wins.
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}uftrace=0.13
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-uftrace-symbols.XXXXXX")
trap 'rm -rf "$work"' EXIT
bins=("$bin")
[ -x "$root/build/sanitize/tracecat" ] && bins+=("$root/build/sanitize/tracecat")
tag() { case $1 in */sanitize/*) echo " [asan]" ;; *) echo "" ;; esac; }

src=$root/tests/uftrace
mkdir "$work/prog" "$work/rec"
build() { gcc -pg -O0 -Wall "$@" 2>"$work/gcc.err" || { echo "FAIL $prefix: gcc $*: $(head -c 200 "$work/gcc.err")"; exit 0; }; }
build -pthread -o "$work/prog/lifecycle" "$src/lifecycle.c"
build -pthread -no-pie -o "$work/prog/lifecycle-nopie" "$src/lifecycle.c"
build -o "$work/prog/single" "$src/single.c"
build -g -o "$work/prog/args" "$src/args.c"

# NAME PROGRAM [RECORD OPTION]
recordings=(
	"pie lifecycle"
	"nopie lifecycle-nopie"
	"nolibcall single --no-libcall"
	"args args -a"
)
for r in "${recordings[@]}"; do
	read -r name prog opt <<<"$r"
	# shellcheck disable=SC2086  # no option, or one
	if ! (cd "$work/rec" && uftrace record -d "$name" $opt "$work/prog/$prog") >"$work/record.log" 2>&1 </dev/null; then
		echo "FAIL $prefix/$name: uftrace record failed: $(head -c 200 "$work/record.log")"
		continue
	fi
	rm -f "$work/rec/$name"/*.sym
done

# check NAME DIR WARNINGS ARGS...: BIN replay ARGS DIR against uftrace:
# the same stdout and exit status, and on stderr WARNINGS (0 or 1) lines
# warning about DIR's symbols, then the error line when uftrace failed
# too (args without its binary: no function to take the specs from).
check() {
	local name=$1 dir=$2 warnings=$3 b rc want_rc=0 lines want_lines
	shift 3
	timeout 60 uftrace replay "$@" -d "$dir" >"$work/expected" 2>/dev/null </dev/null || want_rc=$?
	want_lines=$((warnings + (want_rc != 0)))
	for b in "${bins[@]}"; do
		rc=0
		timeout 60 "$b" replay "$@" "$dir" >"$work/out" 2>"$work/err" </dev/null || rc=$?
		lines=$(wc -l <"$work/err")
		if [ "$rc" != "$want_rc" ]; then
			echo "FAIL $name$(tag "$b"): exit status $rc, uftrace $want_rc: $(head -c 200 "$work/err")"
		elif ! cmp -s "$work/expected" "$work/out"; then
			echo "FAIL $name$(tag "$b"): $(uft_describe_diff "$work/expected" "$work/out")"
		elif [ "$lines" != "$want_lines" ] || [ "$(grep -c "^tracecat: warning: $dir/.*\.sym is missing or unreadable, and so is .*: its functions are shown as addresses$" "$work/err")" != "$warnings" ]; then
			echo "FAIL $name$(tag "$b"): $warnings warning line(s) expected on stderr, got: $(head -c 300 "$work/err")"
		else
			echo "PASS $name$(tag "$b")"
		fi
	done
}

for r in "${recordings[@]}"; do
	read -r name _ <<<"$r"
	dir=$work/rec/$name
	[ -f "$dir/info" ] || continue
	check "$prefix/$name" "$dir" 0
	check "$prefix/$name -t 100us" "$dir" 0 -t 100us
	check "$prefix/$name -f addr,time" "$dir" 0 -f addr,time
done
# without the binaries: addresses, and one warning for the program
rm -f "$work/prog"/*
for r in "${recordings[@]}"; do
	read -r name _ <<<"$r"
	dir=$work/rec/$name
	[ -f "$dir/info" ] || continue
	check "$prefix/$name (no binary)" "$dir" 1
done
exit 0
