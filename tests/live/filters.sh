#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/filters.sh BIN - the filters `print` and `convert` share.
#
#   - `BIN print --begin/--end` against babeltrace2's trimmer with the same
#     options, in its three time formats, on the CTF fixtures;
#   - `convert` with --events, --cpu and --begin/--end: babeltrace2 shows in
#     the output exactly what `BIN print` shows with the same filter.
# Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.

# babeltrace2 2.0.4's CTF 1.8 text, as in tests/run.sh, when run alone
export TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0}
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
if ! command -v babeltrace2 >/dev/null; then
	echo "SKIP filters: babeltrace2 is not installed"
	exit 0
fi
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for t in "$ROOT"/tests/fixtures/ctf/*/; do
	t=${t%/}
	name=$(basename "$t")
	# Times of the 3rd and 8th events, in each format the trimmer takes.
	mapfile -t times < <(babeltrace2 --clock-gmt --clock-date "$t" | sed -n '3p;8p' | sed 's/^\[\([^]]*\)\].*/\1/')
	mapfile -t secs < <(babeltrace2 --clock-seconds "$t" | sed -n '3p;8p' | sed 's/^\[\([^]]*\)\].*/\1/')
	[ ${#times[@]} -eq 2 ] || continue
	i=0
	for args in "--begin=${times[0]#* } --end=${times[1]#* }" "--begin=${times[0]}" "--end=${times[1]}" \
	            "--begin=${secs[0]} --end=${secs[1]}"; do
		i=$((i + 1))
		# the 2nd and 3rd are one argument each: a date, a space, a time
		if [ $i = 2 ] || [ $i = 3 ]; then a=("$args"); else read -r -a a <<<"$args"; fi
		if cmp -s <(babeltrace2 --clock-gmt "${a[@]}" "$t" 2>&1) <("$BIN" print --clock-gmt "${a[@]}" "$t" 2>&1); then
			echo "PASS filters-print/$name/$i"
		else
			echo "FAIL filters-print/$name/$i: $args differs from babeltrace2"
		fi
	done
	for args in "--events=tc:str*,tc:ints" "--cpu=1" "--begin=${secs[0]} --end=${secs[1]}"; do
		read -r -a a <<<"$args"
		rm -rf "$tmp/o"
		if ! "$BIN" convert "${a[@]}" "$t" -o "$tmp/o" 2>"$tmp/err"; then
			echo "FAIL filters-convert/$name/$args: $(head -c 200 "$tmp/err")"
		elif cmp -s <(babeltrace2 --clock-gmt "$tmp/o" 2>/dev/null) <("$BIN" print --clock-gmt "${a[@]}" "$t" 2>/dev/null); then
			echo "PASS filters-convert/$name/$args"
		else
			echo "FAIL filters-convert/$name/$args: babeltrace2 shows other events than print with the same filter"
		fi
	done
done
exit 0
