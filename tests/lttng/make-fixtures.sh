#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make-fixtures.sh - (re)create tracecat's LTTng-UST CTF fixtures in
# tests/fixtures/ctf/ and babeltrace2's expected text output for them.
#
# usage: tests/lttng/make-fixtures.sh [--record]
#
#   --record  first re-record the traces with record.sh (needs LTTng);
#             without it only the *.bt2.txt files are regenerated from the
#             committed traces, e.g. after adding a line to option-sets.txt.
#
# Expected outputs are made from inside tests/fixtures/ctf/ with the trace
# given by its bare name, exactly as the README there describes, because
# some babeltrace2 output (trace names with -f all) depends on the path.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$here/../fixtures/ctf"
ctf=$(cd "$here/../fixtures/ctf" && pwd)

# name, iterations, then VAR=value settings for record.sh
record_one() {
	local name=$1 iterations=$2
	shift 2
	rm -rf "${ctf:?}/$name"
	env "$@" bash "$here/record.sh" "$ctf/$name" "$iterations"
}

if [ "${1:-}" = --record ]; then
	# Both CPUs, every field type; 28 events.
	record_one sample 2
	# Same types with several packets per stream; 168 events.
	record_one ust-types 12
	# Per-process buffers (the ust/pid/ layout, whose env names the
	# process) and the lean benchmark event; 200 events.
	record_one ust-pid 200 TC_BUFFERS=pid TC_MODE=bench
	# ust-pid beside a twin of itself (twin.py): every event ties in
	# time with its twin's, in another trace; 400 events.
	rm -rf "$ctf/ust-pid-twins"
	mkdir -p "$ctf/ust-pid-twins/ust/pid"
	src=$(ls -d "$ctf"/ust-pid/ust/pid/*)
	cp -r "$src" "$ctf/ust-pid-twins/ust/pid/"
	IFS=- read -r app pid date <<<"$(basename "$src")"
	python3 "$here/twin.py" "$src" "$ctf/ust-pid-twins/ust/pid/$app-$((pid + 1))-$date" $((pid + 1))
	# Empty strings after non-empty ones: babeltrace2 2.0.4 prints stale
	# text for some of them (see tc_app.c, emit_empty); 40 events.  Kept
	# apart in ../fixtures/ctf-valid: its expected output is tracecat's
	# (babeltrace2's with the stale strings shown as ""), checked by hand.
	ctf_saved=$ctf
	ctf=$here/../fixtures/ctf-valid
	record_one ust-empty-strings 10 TC_MODE=empty
	ctf=$ctf_saved
elif [ $# -gt 0 ]; then
	echo "usage: $0 [--record]" >&2
	exit 2
fi

cd "$ctf"
rm -f ./*.bt2.txt
for dir in */; do
	trace=${dir%/}
	TZ=UTC babeltrace2 --clock-gmt "$trace" >"$trace.bt2.txt"
	while read -r name args; do
		case $name in '' | '#'*) continue ;; esac
		read -r -a argv <<<"$args"
		TZ=UTC babeltrace2 --clock-gmt "${argv[@]}" "$trace" >"$trace.$name.bt2.txt"
	done <"$here/option-sets.txt"
done
ls -l "$ctf"
