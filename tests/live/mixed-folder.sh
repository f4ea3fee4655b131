#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mixed-folder.sh - a folder holding traces of several formats is read
# whole (issue 21: `print DIR` printed its CTF traces only and exited 0).
# The folder holds a trace.dat file, a uftrace record directory, two CTF
# traces, and in a subfolder a second trace.dat file named otherwise (found
# by its magic, not its name) and a legacy LTTng trace; symbolic links to
# the folder and to its subfolder's parent, which must not make the search
# endless (two such links did) nor read a trace twice.  Checked:
#   print DIR     = print of its six traces named one by one, exit 0
#   info DIR      lists the six traces, with their formats
#   convert DIR   writes the six, each at its place below the output
#                 folder, and `print` of the output prints as many events
# with BIN and, when it is built, build/sanitize/tracecat.
#
# usage (from the repository root): bash tests/live/mixed-folder.sh BIN
# Protocol of tests/run.sh: PASS/FAIL lines, exit 0.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
live_setup mixed "${1:?usage: $0 BIN}"
mkdir -p "$work/mix/more"
cd "$work/mix" || exit 0
cp "$root/tests/fixtures/tracedat/top-v7-zstd.dat" trace.dat
cp "$root/tests/fixtures/tracedat/exec-comm-v6.dat" more/exec-comm.bin
cp -r "$root/tests/fixtures/uftrace/args" uftrace.data
cp -r "$root/tests/fixtures/ctf/sample" ctf-sample
cp -r "$root/tests/fixtures/ctf/ust-pid" ctf-ust-pid
cp -r "$root/tests/fixtures/lttng-legacy/v21" more/legacy
ln -s . again
ln -s .. more/up
paths=(ctf-sample ctf-ust-pid more/exec-comm.bin more/legacy trace.dat uftrace.data)

for b in "${bins[@]}"; do
	case $b in */sanitize/*) tag=asan ;; *) tag=plain ;; esac
	"$b" print --clock-gmt "${paths[@]}" >"$work/each.txt" 2>"$work/each.err"
	timeout 60 "$b" print --clock-gmt . >"$work/dir.txt" 2>"$work/dir.err"
	rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL mixed-folder/print [$tag]: exit $rc: $(head -c 300 "$work/dir.err")"
	elif ! cmp -s "$work/each.txt" "$work/dir.txt" || ! cmp -s "$work/each.err" "$work/dir.err"; then
		echo "FAIL mixed-folder/print [$tag]: differs from printing the traces one by one ($(wc -l <"$work/dir.txt") lines, $(wc -l <"$work/each.txt") expected)"
	else
		echo "PASS mixed-folder/print [$tag]"
	fi

	timeout 60 "$b" info . >"$work/info.txt" 2>"$work/info.err"
	rc=$?
	got=$(grep -E '^trace |^  format: ' "$work/info.txt" | paste -d' ' - - | sort)
	want="trace ./ctf-sample/ust/uid/0/64-bit   format: CTF 1.8
trace ./ctf-ust-pid/ust/pid/tc_app-17865-20261122-011024   format: CTF 1.8
trace ./more/exec-comm.bin   format: trace.dat version 6
trace ./more/legacy   format: legacy LTTng (0.x) trace, format version 2.1
trace ./trace.dat   format: trace.dat version 7
trace ./uftrace.data   format: uftrace record directory (uftrace v0.13)"
	if [ $rc != 0 ] || [ "$got" != "$want" ]; then
		echo "FAIL mixed-folder/info [$tag]: exit $rc, traces: $got $(head -c 300 "$work/info.err")"
	else
		echo "PASS mixed-folder/info [$tag]"
	fi

	rm -rf "$work/out"
	timeout 60 "$b" convert -o "$work/out" . >/dev/null 2>"$work/convert.err"
	rc=$?
	"$b" print "$work/out" 2>/dev/null | wc -l >"$work/out.count"
	if [ $rc != 0 ]; then
		echo "FAIL mixed-folder/convert [$tag]: exit $rc: $(head -c 300 "$work/convert.err")"
	elif ! [ -f "$work/out/trace.dat/metadata" ] || ! [ -f "$work/out/more/exec-comm.bin/metadata" ] ||
		! [ -f "$work/out/more/legacy/metadata" ] ||
		! [ -f "$work/out/uftrace.data/metadata" ] || ! [ -d "$work/out/ctf-sample" ] || ! [ -d "$work/out/ctf-ust-pid" ]; then
		echo "FAIL mixed-folder/convert [$tag]: output folders: $(cd "$work/out" && find . -name metadata | sort | tr '\n' ' ')"
	elif [ "$(cat "$work/out.count")" != "$(wc -l <"$work/dir.txt")" ]; then
		echo "FAIL mixed-folder/convert [$tag]: $(cat "$work/out.count") events printed from the output, $(wc -l <"$work/dir.txt") from the folder"
	else
		echo "PASS mixed-folder/convert [$tag]"
	fi
done
exit 0
