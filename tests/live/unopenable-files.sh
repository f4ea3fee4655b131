#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# unopenable-files.sh - every file and folder the CTF, trace.dat and legacy
# LTTng readers open, made impossible to open, must give one error line
# naming it and exit status 1: never a crash, a leak, a sanitizer report,
# or a trace read on without it (issue 21).  The table
# tests/cli/unopenable-files.txt says, for each fixture, file, damage and
# command, the exit status and the stderr line.
#
# Damages: "unreadable" (mode 000; the command runs as user 65534 through
# setpriv when the test runs as root, since root reads anything),
# "directory" (an empty folder in its place) and "loop" (a symbolic link
# to itself).  Each case runs with BIN and, when it is built, with
# build/sanitize/tracecat (ASan with leak detection, UBSan).
#
# usage (from the repository root): bash tests/live/unopenable-files.sh BIN
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.
set -uo pipefail

bin=${1:?usage: $0 BIN}
root=$(pwd)
case $bin in /*) ;; *) bin=$root/$bin ;; esac
table=$root/tests/cli/unopenable-files.txt
export TZ=UTC ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-unopenable.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
# Open to every user, so that the cases run as user 65534 reach the
# binaries and may write convert's output.
chmod 755 "$work"
mkdir "$work/bin" "$work/fixtures" "$work/run"
chmod 777 "$work/run"
cp "$bin" "$work/bin/plain"
bins=(plain)
if [ -x "$root/build/sanitize/tracecat" ]; then
	cp "$root/build/sanitize/tracecat" "$work/bin/asan"
	bins+=(asan)
fi
f=$work/fixtures
cp -r "$root/tests/fixtures/ctf/sample" "$f/ctf"
cp -r "$root/tests/fixtures/ctf2/lttng-like" "$f/ctf2"
mkdir "$f/dat"
cp "$root/tests/fixtures/tracedat/top-v7-zstd.dat" "$f/dat/trace.dat"
cp -r "$root/tests/fixtures/lttng-legacy/v07-facilities" "$f/legacy07"
cp -r "$root/tests/fixtures/lttng-legacy/v26-le-lost" "$f/legacy26"
mkdir "$f/mixed"
cp -r "$root/tests/fixtures/ctf/sample" "$f/mixed/ctf"
cp "$root/tests/fixtures/tracedat/top-v7-zstd.dat" "$f/mixed/trace.dat"
cp -r "$root/tests/fixtures/uftrace/args" "$f/mixed/uftrace.data"
cp -r "$root/tests/fixtures/lttng-legacy/v21" "$f/mixed/legacy"
chmod -R a+rX "$work/bin" "$f"

# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
live_as_nobody

n=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	n=$((n + 1))
	IFS='|' read -r fixture file damage args want_rc want_err <<<"$line"
	fixture=$(echo $fixture) file=$(echo $file) damage=$(echo $damage) args=$(echo $args) want_rc=$(echo $want_rc)
	want_err=${want_err# }
	name="unopenable/$fixture/$file/$damage/${args%% *}"
	run=()
	if [ "$damage" = unreadable ] && [ ${#as_nobody[@]} -gt 0 ]; then
		if [ "${as_nobody[0]}" = missing-setpriv ]; then
			echo "SKIP $name: setpriv (util-linux) is not installed"
			continue
		fi
		run=("${as_nobody[@]}")
	fi
	for b in "${bins[@]}"; do
		cd "$work/run" || exit 0
		chmod -R u+rwx . 2>/dev/null
		rm -rf ./* 
		cp -r "$f/$fixture" "$fixture"
		case $damage in
		unreadable) chmod 000 "$fixture/$file" ;;
		directory) rm -rf "${fixture:?}/$file" && mkdir "$fixture/$file" ;;
		loop) rm -rf "${fixture:?}/$file" && ln -s "$(basename "$file")" "$fixture/$file" ;;
		*) echo "FAIL $name: unknown damage $damage"; continue ;;
		esac
		# shellcheck disable=SC2086  # the table's arguments are words
		"${run[@]}" "$work/bin/$b" $args >/dev/null 2>"$work/err" </dev/null
		rc=$?
		# CTF names stream files by their absolute path.
		err=$(sed "s|$work/run/||" "$work/err")
		if [ "$rc" != "$want_rc" ]; then
			echo "FAIL $name [$b]: exit $rc, expected $want_rc: $(head -c 300 "$work/err")"
		elif [ "$err" != "$want_err" ]; then
			echo "FAIL $name [$b]: stderr was: $(head -c 400 "$work/err")"
		else
			echo "PASS $name [$b]"
		fi
	done
done <"$table"
[ "$n" -gt 50 ] || echo "FAIL unopenable/table: only $n cases read from $table"
exit 0
