#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uftrace-replay.sh - `tracecat replay` against `uftrace replay`, byte for
# byte.
#
# usage: bash tests/live/uftrace-replay.sh BIN
#
# 1. Stored references: for every recording DIR of
#      tests/fixtures/uftrace/        (committed; tests/fixtures/uftrace/README.md)
#      tests/corpus/uftrace/          (committed; or the uftrace/ folder of
#                                      $TRACECAT_CORPUS, laid out the same way)
#    and every DIR.replay.txt / DIR.OPTS.replay.txt beside it,
#      BIN replay [OPTIONS] DIR   must print exactly that file, exit 0,
#    OPTIONS being OPTS decoded as tests/uftrace/option-sets.txt says
#    ("depth=2+no-merge" -> --depth=2 --no-merge).  These checks also run
#    the sanitizer build beside BIN (build/sanitize/tracecat) when it
#    exists (an ASan/UBSan report fails the check), and the first fixture is
#    read once as `-d DIR` too.
# 2. Live, when uftrace and gcc are installed: tests/uftrace/record.sh
#    records every scenario afresh into a temporary folder (and stores
#    uftrace replay's output for every option set there); then
#      BIN replay ARGS DIR   must print what   uftrace replay ARGS -d DIR
#    printed, with ARGS spelled as in option-sets.txt (short options: -D 2).
#    On a terminal made by script(1): the text uftrace's pager gets and
#    tracecat's does ($PAGER saving it), and with --no-pager, --color=no
#    and TERM=dumb what the terminal gets, must be the same.
# 3. Live on the corpus, when uftrace is installed: the same option sets on
#    every corpus recording, uftrace replay run now.
#
# Protocol of the test runner: one line per check, "PASS name",
# "FAIL name: reason" (the first differing line, shortened) or
# "SKIP name: reason"; exit status 0 whatever happened.  Every tracecat run
# is limited to 60 s, so a hang is a FAIL.  Takes about 15 s with uftrace
# installed (recording included).
set -uo pipefail

bin=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
peers_debian12
prefix=uftrace-replay
fixtures=$root/tests/fixtures/uftrace
corpus=${TRACECAT_CORPUS:-$root/tests/corpus}/uftrace
record=$root/tests/uftrace/record.sh

[ -n "$bin" ] || { echo "FAIL $prefix: usage: $0 BIN"; exit 0; }
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
[ -x "$bin" ] || { echo "FAIL $prefix: $bin is not an executable"; exit 0; }
# shellcheck source=tests/uftrace/lib.sh
. "$root/tests/uftrace/lib.sh"

# The references are Debian 12's uftrace 0.13's text (the newer default,
# 0.19's, is tests/live/uftrace019.sh's); the last item of a request wins.
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}uftrace=0.13
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-live-uftrace.XXXXXX")
# shellcheck disable=SC2317  # only ever called from the EXIT trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 0' INT TERM HUP PIPE

bins=("$bin")
san=$(dirname "$bin")/sanitize/tracecat
[ -x "$san" ] && bins+=("$san")
tag() { case $1 in */sanitize/*) echo " [asan]" ;; *) echo "" ;; esac; }

# check NAME EXPECTED EXPECTED_STATUS BIN ARGS...: run `BIN replay ARGS`
# (ARGS end with the recording) and compare with EXPECTED.
check() {
	local name=$1 exp=$2 exp_rc=$3 b=$4 rc=0
	shift 4
	timeout 60 "$b" replay "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		echo "FAIL $name: tracecat replay did not finish within 60 s"
	elif [ "$exp_rc" = 0 ] && [ "$rc" != 0 ]; then
		echo "FAIL $name: exit status $rc: $(head -n 1 "$work/err" | cut -c 1-120)"
	elif [ "$exp_rc" != 0 ] && [ "$rc" = 0 ]; then
		echo "FAIL $name: exit status 0, uftrace replay $exp_rc"
	elif ! cmp -s "$exp" "$work/out"; then
		echo "FAIL $name: $(uft_describe_diff "$exp" "$work/out")"
	elif grep -q -e 'runtime error' -e 'AddressSanitizer' -e 'LeakSanitizer' "$work/err"; then
		echo "FAIL $name: sanitizer report: $(grep -m 1 -e 'runtime error' -e Sanitizer "$work/err" | cut -c 1-120)"
	else
		echo "PASS $name"
	fi
}

# stored LABEL DIR BINS...: DIR against every DIR[.OPTS].replay.txt.
stored() {
	local label=$1 dir=$2 exp opts b args
	shift 2
	for exp in "$dir".replay.txt "$dir".*.replay.txt; do
		[ -f "$exp" ] || continue
		opts=${exp#"$dir"}
		opts=${opts%.replay.txt}
		opts=${opts#.}
		args=()
		[ -z "$opts" ] || mapfile -t args < <(uft_decode "$opts")
		for b in "$@"; do
			check "$prefix/$label/${dir##*/}${opts:+.$opts}$(tag "$b")" "$exp" 0 "$b" "${args[@]}" "$dir"
		done
	done
}

# ---- 1. stored references
first=""
for dir in "$fixtures"/*/; do
	dir=${dir%/}
	[ -f "$dir.replay.txt" ] || continue
	stored fixture "$dir" "${bins[@]}"
	[ -n "$first" ] || first=$dir
done
if [ -z "$first" ]; then
	echo "FAIL $prefix/fixture: no recording with a .replay.txt in $fixtures"
else
	check "$prefix/fixture/${first##*/} (-d DIR)" "$first.replay.txt" 0 "$bin" -d "$first"
fi
# The corpus is committed: finding no recording there is a failure.
found=0
for dir in "$corpus"/*/; do
	dir=${dir%/}
	[ -f "$dir.replay.txt" ] || continue
	found=1
	stored corpus "$dir" "${bins[@]}"
done
[ "$found" = 1 ] || echo "FAIL $prefix/corpus: no recording with a .replay.txt in $corpus"

# ---- 2. fresh recordings
if ! command -v uftrace >/dev/null 2>&1; then
	echo "SKIP $prefix/live: uftrace is not installed"
	exit 0
fi
if ! command -v gcc >/dev/null 2>&1; then
	echo "SKIP $prefix/live: gcc is not installed"
else
	rec=$work/rec
	if ! bash "$record" "$rec" >"$work/record.log" 2>&1 </dev/null; then
		echo "FAIL $prefix/live: tests/uftrace/record.sh failed: $(grep -m 1 'record.sh:' "$work/record.log" | cut -c 1-160)"
	else
		for dir in "$rec"/*/; do
			dir=${dir%/}
			s=${dir##*/}
			check "$prefix/live/$s" "$dir.replay.txt" 0 "$bin" "$dir"
			while IFS=$'\t' read -r label name args; do
				# shellcheck disable=SC2086  # args is a blank-separated list
				check "$prefix/live/$s.$label" "$dir.$name.replay.txt" 0 "$bin" $args "$dir"
			done < <(uft_option_sets "$dir")
		done
	fi
fi

# ---- 2b. on a terminal (script(1) gives one): uftrace's colours, and the
# text its pager gets ($PAGER as a command that saves its input), with
# --no-pager, and TERM=dumb (no colours)
if [ -n "${rec:-}" ] && [ -d "$rec/lifecycle" ] && command -v script >/dev/null 2>&1; then
	tty_check() {
		local name=$1 envs=$2 args=$3
		# shellcheck disable=SC2086  # envs and args are blank-separated lists
		timeout 60 script -q -c "env $envs PAGER='cat > $work/tty-u.txt' uftrace replay $args -d $rec/lifecycle" \
			/dev/null >"$work/tty-u.out" 2>&1 </dev/null
		timeout 60 script -q -c "env $envs PAGER='cat > $work/tty-t.txt' $bin replay $args $rec/lifecycle" \
			/dev/null >"$work/tty-t.out" 2>&1 </dev/null
		if [ -f "$work/tty-u.txt" ] && ! cmp -s "$work/tty-u.txt" "$work/tty-t.txt"; then
			echo "FAIL $prefix/tty/$name: the pager got $(uft_describe_diff "$work/tty-u.txt" "$work/tty-t.txt")"
		elif ! cmp -s "$work/tty-u.out" "$work/tty-t.out"; then
			echo "FAIL $prefix/tty/$name: the terminal got $(uft_describe_diff "$work/tty-u.out" "$work/tty-t.out")"
		else
			echo "PASS $prefix/tty/$name"
		fi
		rm -f "$work"/tty-*
	}
	tty_check pager "TERM=xterm" ""
	tty_check no-pager "TERM=xterm" "--no-pager"
	tty_check color-no "TERM=xterm" "--no-pager --color=no"
	tty_check term-dumb "TERM=dumb" "--no-pager"
fi

# ---- 3. option sets on the corpus, uftrace run now
[ -d "$corpus" ] || exit 0
for dir in "$corpus"/*/; do
	dir=${dir%/}
	[ -f "$dir.replay.txt" ] || continue
	while IFS=$'\t' read -r label _ args; do
		rc=0
		# shellcheck disable=SC2086  # args is a blank-separated list
		timeout 60 uftrace replay $args -d "$dir" >"$work/expected" 2>/dev/null </dev/null || rc=$?
		# shellcheck disable=SC2086
		check "$prefix/corpus-live/${dir##*/}.$label" "$work/expected" "$rc" "$bin" $args "$dir"
	done < <(uft_option_sets "$dir")
done
exit 0
