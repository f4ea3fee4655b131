#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uftrace-unopenable.sh - every file the uftrace reader opens, made
# impossible to open, gives what tests/uftrace/unopenable.txt says: one
# error line naming it and exit status 1 (or, for a .sym file, what
# uftrace does: the binary's symbols, here a warning that there are
# none), never a crash, a leak or a sanitizer report (issue 21: an
# unreadable <tid>.dat was freed twice).
#
# usage: bash tests/live/uftrace-unopenable.sh BIN
#
# Each row of the table runs with BIN and, when it is built, with
# build/sanitize/tracecat (ASan with leak detection, UBSan), from a
# scratch folder holding the damaged copy as "rec".  An "unreadable" row
# runs as user 65534 through setpriv when the test runs as root (root
# reads anything).  Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.
set -uo pipefail

bin=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
table=$root/tests/uftrace/unopenable.txt
fixtures=$root/tests/fixtures/uftrace
prefix=uftrace-unopenable
[ -n "$bin" ] || { echo "FAIL $prefix: usage: $0 BIN"; exit 0; }
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
# The references are Debian 12's uftrace 0.13's text (the newer default,
# 0.19's, is tests/live/uftrace019.sh's); the last item of a request wins.
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}uftrace=0.13
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-uftrace-unopenable.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
# Open to every user: the rows run as user 65534 reach the binaries and
# write convert's output in the scratch folder.
chmod 755 "$work"
mkdir "$work/bin" "$work/run"
chmod 777 "$work/run"
cp "$bin" "$work/bin/plain"
bins=(plain)
if [ -x "$root/build/sanitize/tracecat" ]; then
	cp "$root/build/sanitize/tracecat" "$work/bin/asan"
	bins+=(asan)
fi
chmod 755 "$work/bin"/*

as_nobody=()
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null || { echo "SKIP $prefix: setpriv (util-linux) is not installed"; exit 0; }
	as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi

# trim TEXT: TEXT without its leading and trailing blanks.
trim() {
	local t
	read -r t <<<"$1"
	printf '%s' "$t"
}

rows=0
while IFS='|' read -r fixture pattern damage args want_rc want_err; do
	fixture=$(trim "$fixture")
	case $fixture in '' | '#'*) continue ;; esac
	rows=$((rows + 1))
	pattern=$(trim "$pattern") damage=$(trim "$damage") args=$(trim "$args") want_rc=$(trim "$want_rc")
	want_err=${want_err# }
	name="$prefix/$fixture/$pattern/$damage/${args%% *}"
	run=()
	[ "$damage" = unreadable ] && run=("${as_nobody[@]}")
	for b in "${bins[@]}"; do
		cd "$work/run" || exit 0
		chmod -R u+rwx . 2>/dev/null
		rm -rf ./rec ./out
		cp -r "$fixtures/$fixture" rec
		chmod -R a+rX rec
		mapfile -t files < <(compgen -G "rec/$pattern")
		if [ ${#files[@]} != 1 ]; then
			echo "FAIL $name [$b]: $pattern matches ${#files[@]} files of $fixture"
			continue
		fi
		file=${files[0]}
		case $damage in
		unreadable) chmod 000 "$file" ;;
		directory) rm -f "$file" && mkdir "$file" ;;
		loop) rm -f "$file" && ln -s "${file##*/}" "$file" ;;
		*) echo "FAIL $name: unknown damage $damage"; continue ;;
		esac
		# (in a subshell, whose "Aborted" for a crash goes nowhere)
		# shellcheck disable=SC2086  # the table's arguments are words
		(timeout 60 "${run[@]}" "$work/bin/$b" $args >/dev/null 2>"$work/err" </dev/null) 2>/dev/null
		rc=$?
		err=$(cat "$work/err")
		# shellcheck disable=SC2053  # the expected line is a pattern
		if [ "$rc" != "$want_rc" ]; then
			echo "FAIL $name [$b]: exit status $rc, expected $want_rc: $(head -c 300 "$work/err")"
		elif { [ "$want_err" = - ] && [ -n "$err" ]; } || { [ "$want_err" != - ] && [[ $err != $want_err ]]; }; then
			echo "FAIL $name [$b]: stderr was: $(head -c 400 "$work/err")"
		else
			echo "PASS $name [$b]"
		fi
	done
done <"$table"
[ "$rows" -ge 100 ] || echo "FAIL $prefix/table: only $rows rows read from $table"
exit 0
