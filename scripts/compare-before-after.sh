#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/compare-before-after.sh - proof that a change keeps every output:
# builds tracecat at REV in a temporary git worktree, then runs that binary
# and this tree's build/tracecat on every committed fixture and corpus
# trace with every command and option set the tests use, and compares
# standard output, standard error and exit status (and, for `convert`, the
# files written, and what `print` makes of them).
#
#   scripts/compare-before-after.sh REV [GROUP...]
#
# GROUPs are folders of tests/fixtures and tests/corpus ("fixtures/ctf");
# default: all.  For each trace it runs
#   print              plain, with each option set of its NAME.OPTS.bt2.txt /
#                      .bt21.txt references, and with --clock-cycles,
#                      --fields=all --names=all
#   info
#   report             trace.dat files: plain, -R, -t, --cpu=0, -F sched_switch
#   replay             uftrace folders: plain and each NAME.OPTS.replay.txt set
#   convert            to CTF 1.8, CTF 2, Perfetto and Chrome JSON (and for
#                      trace.dat, CTF with --ftrace-names); the files must be
#                      the same byte for byte, and CTF results print the same
# under the test suite's TRACECAT_COMPAT and TZ=UTC.  Prints one line per
# difference and ends with "N same, N different"; exits 1 on a difference.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
REV=${1:?usage: scripts/compare-before-after.sh REV [GROUP...]}
shift
export TZ=UTC
export TRACECAT_COMPAT=babeltrace2=2.0,trace-cmd=3.1,uftrace=0.13

TMP=$(mktemp -d /tmp/tc-compare.XXXXXX)
OLD_TREE=$TMP/old-tree
cleanup() {
	git worktree remove --force "$OLD_TREE" >/dev/null 2>&1
	rm -rf "$TMP"
}
trap cleanup EXIT

git worktree add --detach "$OLD_TREE" "$REV" >/dev/null 2>&1 || { echo "cannot check out $REV" >&2; exit 2; }
echo "building $REV and this tree..." >&2
nice -n 10 make -C "$OLD_TREE" -j2 build/tracecat >"$TMP/old-build.log" 2>&1 || { tail "$TMP/old-build.log" >&2; echo "$REV does not build" >&2; exit 2; }
nice -n 10 make -j2 build/tracecat >"$TMP/new-build.log" 2>&1 || { echo "this tree does not build" >&2; exit 2; }
# copies, so that rebuilding either tree meanwhile changes nothing
cp "$OLD_TREE/build/tracecat" "$TMP/old-tracecat" && cp build/tracecat "$TMP/new-tracecat" || exit 2
OLD_BIN=$TMP/old-tracecat
NEW_BIN=$TMP/new-tracecat

same=0
different=0

# run ID ARGS...: runs both binaries with ARGS (BIN stands for the binary)
# in an empty folder, and compares what they print, their exit status and
# the files they leave there.
run() {
	local id=$1 side bin
	shift
	for side in old new; do
		bin=$OLD_BIN
		[ $side = new ] && bin=$NEW_BIN
		rm -rf "$TMP/$side" && mkdir -p "$TMP/$side/work"
		(cd "$TMP/$side/work" && timeout 300 nice -n 10 "$bin" "$@" >"$TMP/$side/stdout" 2>"$TMP/$side/stderr"
		 echo $? >"$TMP/$side/status")
		# stderr names the binary in usage errors
		sed -i "s|$bin|tracecat|g" "$TMP/$side/stderr"
		# what the converted traces print
		for out in "$TMP/$side/work"/*.ctf; do
			[ -d "$out" ] || continue
			(cd "$TMP/$side/work" && timeout 300 nice -n 10 "$bin" print --clock-gmt "$(basename "$out")" \
				>"$TMP/$side/$(basename "$out").print" 2>"$TMP/$side/$(basename "$out").print-err"
			 echo $? >"$TMP/$side/$(basename "$out").print-status")
		done
		# errors name the files written by their full path
		sed -i "s|$TMP/$side/work|WORK|g" "$TMP/$side"/std* "$TMP/$side"/*.print* 2>/dev/null
	done
	if diff -r "$TMP/old" "$TMP/new" >"$TMP/diff" 2>&1; then
		same=$((same + 1))
	else
		different=$((different + 1))
		echo "DIFFERENT $id: $(head -c 300 "$TMP/diff" | tr '\n' ' ')"
	fi
}

# opts_from_name "no-delta+names=all" -> --no-delta --names=all
opts_from_name() {
	local IFS=+ o
	for o in $1; do printf -- '--%s\n' "$o"; done
}

# Every option set its references in DIR name for trace NAME with SUFFIX.
option_sets() {
	local dir=$1 name=$2 suffix=$3 exp base
	for exp in "$dir/$name".*."$suffix"; do
		[ -e "$exp" ] || continue
		base=$(basename "$exp" ".$suffix")
		echo "${base#"$name".}"
	done
}

groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
	for g in tests/fixtures/*/ tests/corpus/*/; do
		g=${g%/}
		groups+=("${g#tests/}")
	done
fi

for g in "${groups[@]}"; do
	gdir=$ROOT/tests/$g
	for trace in "$gdir"/*; do
		name=$(basename "$trace")
		case $name in
		*.txt | *.md | *.status | *.expected | *.err | *.source | *.lost | *.py | *.sh) continue ;;
		esac
		[ -d "$trace" ] || case $name in *.dat) ;; *) continue ;; esac
		id="$g/$name"
		run "$id: print" print --clock-gmt "$trace"
		for set in $(option_sets "$gdir" "$name" bt2.txt) $(option_sets "$gdir" "$name" bt21.txt); do
			mapfile -t opts < <(opts_from_name "$set")
			run "$id: print $set" print --clock-gmt "${opts[@]}" "$trace"
		done
		run "$id: print --clock-cycles" print --clock-cycles "$trace"
		run "$id: print --fields=all --names=all" print --clock-gmt --fields=all --names=all "$trace"
		run "$id: info" info "$trace"
		case $name in
		*.dat)
			run "$id: report" report "$trace"
			run "$id: report -R" report -R "$trace"
			run "$id: report -t" report -t "$trace"
			run "$id: report --cpu=0" report --cpu=0 "$trace"
			run "$id: report -F sched_switch" report -F sched_switch "$trace"
			run "$id: convert --ftrace-names" convert -j 1 --ftrace-names "$trace" -o out.ctf
			;;
		esac
		if [ -d "$trace" ] && [ -f "$trace/info" ]; then
			run "$id: replay" replay "$trace"
			for set in $(option_sets "$gdir" "$name" replay.txt); do
				mapfile -t opts < <(opts_from_name "$set")
				run "$id: replay $set" replay "${opts[@]}" "$trace"
			done
		fi
		run "$id: convert ctf 1.8" convert -j 1 "$trace" -o out.ctf
		run "$id: convert ctf 2" convert -j 1 --ctf-version=2 "$trace" -o out.ctf
		run "$id: convert perfetto" convert -j 1 "$trace" -o out.pftrace
		run "$id: convert json" convert -j 1 "$trace" -o out.json
	done
done
echo "$same same, $different different"
[ $different -eq 0 ]
