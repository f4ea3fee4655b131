#!/bin/bash
# SPDX-License-Identifier: MIT
# Records babeltrace2 2.1.2's reference outputs for the CTF 2 fixtures.
#
#   tests/ctf2/mkrefs.sh [--generate] [--convert] [FIXTURES]
#
# FIXTURES defaults to tests/fixtures.  Steps:
#
#   --generate  first rebuild the traces: python3 tests/ctf2/mktraces.py FIXTURES
#               (writes FIXTURES/ctf2/NAME/ and FIXTURES/ctf2-bad/NAME/);
#   --convert   first rebuild FIXTURES/ctf2-from-ctf1/NAME/ from each CTF 1.8
#               trace FIXTURES/ctf/NAME/ with babeltrace2's sink.ctf.fs
#               (ctf-version="2"; new random UUIDs on every run), keeping
#               only the directory that holds the converted trace's metadata;
#
# then, from inside each group directory, for every trace directory NAME:
#
#   TZ=UTC babeltrace2 --clock-gmt [OPTIONS] NAME > NAME[.OPTS].bt21.txt
#
# and keeps, as the CTF 1.8 fixtures do (see FIXTURES/ctf2/README.md):
#   NAME.bt21.txt          stdout, exit status 0
#   NAME.bt21.stderr       stderr when not empty, exit status 0
#   NAME.bt21.err          "exit status: N", "--- stderr:", stderr (exit status != 0)
#   NAME.bt21.partial.txt  stdout printed before a failure (when not empty)
# with the absolute path of the group directory replaced by "./" in stderr,
# and that of babeltrace's plugin folder by "PLUGINS/" (machine paths).
# Traces with a NAME.expect-error marker (babeltrace crashes on them) get no
# reference: the script only checks that babeltrace still fails on them.
# Extra option sets for the valid traces come from tests/ctf2/option-sets.txt.
#
# Environment: BT (default tests/peers/babeltrace2-2.1, sid's 2.1.2), TIMEOUT
# (seconds per run, default 20; `total-zero` makes babeltrace loop forever).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BT=${BT:-$HERE/../peers/babeltrace2-2.1}
GEN=0
CONV=0
while [ $# -gt 0 ]; do
	case $1 in
	--generate) GEN=1 ;;
	--convert) CONV=1 ;;
	-*) echo "usage: $0 [--generate] [--convert] [FIXTURES]" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
FIX=$(cd "${1:-$HERE/../fixtures}" && pwd)
problems=0

"$BT" --version | head -1 | grep -q '2\.1\.2' || { echo "$BT is not babeltrace2 2.1.2" >&2; exit 1; }

if [ $GEN = 1 ]; then
	python3 "$HERE/mktraces.py" "$FIX" || exit 1
fi

if [ $CONV = 1 ]; then
	mkdir -p "$FIX/ctf2-from-ctf1"
	for src in "$FIX"/ctf/*/; do
		n=$(basename "$src")
		out="$FIX/ctf2-from-ctf1/$n"
		rm -rf "$out" "$FIX/ctf2-from-ctf1/$n".tmp
		if ! "$BT" "$src" -c sink.ctf.fs -p "path=\"$out.tmp\",ctf-version=\"2\"" \
			>/dev/null 2>"$FIX/ctf2-from-ctf1/$n.convert.log"; then
			echo "conversion of $n failed: skipped" >&2
			rm -rf "$out.tmp"
			continue
		fi
		rm -f "$FIX/ctf2-from-ctf1/$n.convert.log"
		# flatten: babeltrace writes HOST/SESSION/ust/...; keep only the
		# directory holding the metadata (one trace per CTF 1.8 fixture)
		metas=$(find "$out.tmp" -name metadata)
		if [ "$(printf '%s\n' "$metas" | wc -l)" != 1 ]; then
			echo "conversion of $n: not exactly one trace: kept as written" >&2
			mv "$out.tmp" "$out"
		else
			mv "$(dirname "$metas")" "$out"
			rm -rf "$out.tmp"
		fi
	done
fi

# run GROUPDIR NAME OUTBASE [OPTIONS...]: runs babeltrace, sets $rc, leaves
# stdout in OUTBASE.out.tmp and stderr (paths made relative) in OUTBASE.stderr.tmp
run() {
	local dir=$1 name=$2 base=$3
	shift 3
	(cd "$dir" && TZ=UTC timeout "${TIMEOUT:-20}" "$BT" --clock-gmt "$@" "$name" >"$base.out.tmp" 2>"$base.stderr.tmp")
	rc=$?
	sed -i -e "s|$dir/|./|g" -e "s|\"[^\"]*/babeltrace2/plugins/|\"PLUGINS/|g" "$dir/$base.stderr.tmp"
}

keep() { # dir base rc: files of one run under their final names
	local dir=$1 base=$2 rc=$3
	rm -f "$dir/$base.bt21.txt" "$dir/$base.bt21.stderr" "$dir/$base.bt21.err" "$dir/$base.bt21.partial.txt"
	if [ "$rc" = 0 ]; then
		mv "$dir/$base.out.tmp" "$dir/$base.bt21.txt"
		if [ -s "$dir/$base.stderr.tmp" ]; then
			mv "$dir/$base.stderr.tmp" "$dir/$base.bt21.stderr"
		fi
	else
		{ echo "exit status: $rc"; echo "--- stderr:"; cat "$dir/$base.stderr.tmp"; } >"$dir/$base.bt21.err"
		if [ -s "$dir/$base.out.tmp" ]; then
			mv "$dir/$base.out.tmp" "$dir/$base.bt21.partial.txt"
		fi
	fi
	rm -f "$dir/$base.out.tmp" "$dir/$base.stderr.tmp"
}

# valid traces (and conversions): exit status 0 expected
for group in ctf2 ctf2-from-ctf1; do
	dir="$FIX/$group"
	[ -d "$dir" ] || continue
	for t in "$dir"/*/; do
		n=$(basename "$t")
		run "$dir" "$n" "$n"
		[ $rc = 0 ] || { echo "$group/$n: exit status $rc (expected 0)" >&2; problems=$((problems + 1)); }
		keep "$dir" "$n" $rc
	done
done

# option sets: lines "NAME --opt ..." (long options only)
if [ -f "$HERE/option-sets.txt" ]; then
	while read -r n opts; do
		case $n in '' | '#'*) continue ;; esac
		[ -d "$FIX/ctf2/$n" ] || { echo "option-sets.txt: no trace $n" >&2; problems=$((problems + 1)); continue; }
		# shellcheck disable=SC2086
		tag=$(printf '%s\n' $opts | sed 's/^--//' | paste -sd+)
		# shellcheck disable=SC2086
		run "$FIX/ctf2" "$n" "$n.$tag" $opts
		[ $rc = 0 ] || { echo "ctf2/$n $opts: exit status $rc" >&2; problems=$((problems + 1)); }
		keep "$FIX/ctf2" "$n.$tag" $rc
	done <"$HERE/option-sets.txt"
fi

# rejected traces: exit status 1 expected; crash cases (NAME.expect-error):
# anything but 0 and 1 (or a known non-reproducible exit 0)
dir="$FIX/ctf2-bad"
if [ -d "$dir" ]; then
	for t in "$dir"/*/; do
		n=$(basename "$t")
		run "$dir" "$n" "$n"
		if [ -f "$dir/$n.expect-error" ]; then
			rm -f "$dir/$n.out.tmp" "$dir/$n.stderr.tmp" "$dir/$n".bt21.*
			want=$(grep -o 'exit [0-9]*' "$dir/$n.expect-error" | head -1 | cut -d' ' -f2)
			if [ "$rc" != "$want" ]; then
				echo "ctf2-bad/$n: crash case exits $rc, its marker says $want" >&2
				problems=$((problems + 1))
			fi
			continue
		fi
		[ $rc = 1 ] || { echo "ctf2-bad/$n: exit status $rc (expected 1)" >&2; problems=$((problems + 1)); }
		keep "$dir" "$n" $rc
	done
fi

echo "mkrefs: $problems problem(s)"
[ $problems = 0 ]
