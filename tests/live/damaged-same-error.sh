#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# damaged-same-error.sh - one damaged trace, one story: every command that
# reads a format gives the same error line for the same damaged input
# (issue 21).  Checked on
#   1. the cuts of tests/fixtures/tracedat-bad/cuts.txt: print, info,
#      report and convert each exit 1 with exactly the line of the table;
#   2. every damaged fixture of tests/fixtures/tracedat-bad (NAME.dat and
#      its NAME.err): info and convert give NAME.err, as print and report
#      do (tests/run.sh checks those two);
#   3. every damaged CTF and legacy LTTng fixture (tests/fixtures/ctf-bad,
#      ctf2-bad, lttng-legacy-bad): info and convert end with print's
#      error line (warnings may come before it).
# Each command runs with build/sanitize/tracecat too when it is built.
#
# usage (from the repository root): bash tests/live/damaged-same-error.sh BIN
# Protocol of tests/run.sh: PASS/FAIL lines, exit 0.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
live_setup same-error "${1:?usage: $0 BIN}"

# run BIN COMMAND TRACE: the command's exit status, its stderr in $work/err.
run() {
	local b=$1 cmd=$2 trace=$3
	rm -rf "$work/out"
	if [ "$cmd" = convert ]; then
		(cd "$work" && timeout 120 "$b" convert -o out "$trace" >/dev/null 2>err)
	else
		(cd "$work" && timeout 120 "$b" "$cmd" "$trace" >/dev/null 2>err)
	fi
}

tag() { case $1 in */sanitize/*) echo asan ;; *) echo plain ;; esac; }

# expect NAME TRACE WANT COMMAND...: each COMMAND exits 1, its last stderr
# line WANT, no other line unless it is a warning (print's discarded
# events) and no sanitizer report.
expect() {
	local name=$1 trace=$2 want=$3 b cmd rc; shift 3
	for b in "${bins[@]}"; do
		for cmd in "$@"; do
			run "$b" "$cmd" "$trace"
			rc=$?
			if [ $rc != 1 ]; then
				echo "FAIL same-error/$name/$cmd [$(tag "$b")]: exit $rc, expected 1: $(head -c 300 "$work/err")"
			elif grep -q -e 'runtime error' -e 'Sanitizer' "$work/err"; then
				echo "FAIL same-error/$name/$cmd [$(tag "$b")]: sanitizer report: $(grep -m1 -e 'runtime error' -e Sanitizer "$work/err")"
			elif [ "$(tail -n 1 "$work/err")" != "$want" ] || grep -v -e '^WARNING' -e '^tracecat: ' "$work/err" | grep -q .; then
				echo "FAIL same-error/$name/$cmd [$(tag "$b")]: stderr was: $(head -c 400 "$work/err")"
			else
				echo "PASS same-error/$name/$cmd [$(tag "$b")]"
			fi
		done
	done
}

while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	file=${line%% | *}
	rest=${line#* | }
	bytes=${rest%% | *}
	want=${rest#* | }
	head -c "$bytes" "$root/tests/fixtures/tracedat/$file" >"$work/cut.dat"
	expect "cut/$file@$bytes" cut.dat "$want" print info report convert
done <"$root/tests/fixtures/tracedat-bad/cuts.txt"

for f in "$root"/tests/fixtures/tracedat-bad/*.dat; do
	[ -f "$f" ] || continue
	cp "$f" "$work/$(basename "$f")"
	want=$(sed "s|tests/fixtures/tracedat-bad/||" "${f%.dat}.err")
	expect "tracedat-bad/$(basename "$f")" "$(basename "$f")" "$want" info convert
done

for d in "$root"/tests/fixtures/ctf-bad/*/ "$root"/tests/fixtures/ctf2-bad/*/ "$root"/tests/fixtures/lttng-legacy-bad/*/; do
	[ -d "$d" ] || continue
	d=${d%/}
	n=$(basename "$(dirname "$d")")/$(basename "$d")
	run "$bin" print "$d"
	[ $? = 1 ] || continue # a fixture some other reader accepts (tests/run.sh)
	want=$(tail -n 1 "$work/err")
	expect "$n" "$d" "$want" info convert
done
exit 0
