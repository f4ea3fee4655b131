#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# doc-examples.sh - every example README.md and doc/*.md (doc/formats/*.md
# too) mark as such is run, and its output must be what the page shows, so
# that no page can go stale unnoticed.
#
# An example is a ```console block on the line after <!-- example -->:
#
#   <!-- example -->
#   ```console
#   $ tracecat report tests/fixtures/tracedat/top-v7-zstd.dat | head -n 2
#   cpus=2
#   ...
#   ```
#
# Each "$ " line is a command for bash, run as written; the lines up to the
# next "$ " line or the fence are its standard output, byte for byte.
# Standard error is not compared: a page that shows an error writes 2>&1.
# The commands of one block run in order in one scratch folder, so that a
# later one reads what an earlier one wrote; the folder holds a link to
# each top-level entry of the repository, so paths read as from the
# repository root while files written stay out of it.  `tracecat` is BIN;
# TZ=UTC, so times of day are the page's wherever it runs.
#
# Also: every relative link and every backquoted path into the checkout
# that those pages give must exist, so that no page cites a document or a
# script the repository does not hold.
#
# usage (from the repository root): bash tests/live/doc-examples.sh BIN
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
live_setup doc-examples "${1:?usage: $0 BIN}"
# The pages show tracecat's default text, not the suite's older one.
unset TRACECAT_COMPAT

mkdir -p "$work/path"
ln -s "$bin" "$work/path/tracecat"

# run_block PAGE LINE BLOCKFILE: the block's commands in one scratch
# folder, each checked against the lines the page shows after it.
nblocks=0
run_block() {
	local page=$1 line=$2 block=$3 scratch cmd want got n=0 e
	scratch=$work/run$nblocks
	mkdir -p "$scratch"
	for e in "$root"/* "$root"/.[!.]*; do
		[ -e "$e" ] && ln -s "$e" "$scratch/"
	done
	if ! grep -q '^\$ ' "$block"; then
		echo "FAIL doc-examples/$page:$line: the example shows no \"\$ \" command"
		return
	fi
	# Split the block into cmdN (the command) and wantN (its output).
	awk -v dir="$work" '
		/^\$ / { n++; print substr($0, 3) > (dir "/cmd" n); close(dir "/cmd" n); printf "" > (dir "/want" n); next }
		n { print >> (dir "/want" n) }' "$block"
	while [ -f "$work/cmd$((n + 1))" ]; do
		n=$((n + 1))
		cmd=$(cat "$work/cmd$n")
		want=$work/want$n
		got=$work/got
		(cd "$scratch" && PATH=$work/path:$PATH LC_ALL=C.UTF-8 bash -c "$cmd") >"$got" 2>"$work/err"
		if cmp -s "$got" "$want"; then
			echo "PASS doc-examples/$page:$line: $cmd"
		else
			echo "FAIL doc-examples/$page:$line: \`$cmd\` prints other than the page shows:" \
				"$(diff "$want" "$got" | head -n 6 | tr '\n' ' ' | head -c 400)" \
				"$(head -c 200 "$work/err" | tr '\n' ' ')"
		fi
	done
	rm -f "$work"/cmd* "$work"/want*
}

pages=(README.md doc/*.md doc/formats/*.md)
found=0
for page in "${pages[@]}"; do
	[ -f "$root/$page" ] || continue
	# Each marked block to blockN.txt, its opening line to blockN.line.
	rm -f "$work"/block*
	awk -v dir="$work" '
		/^<!-- example -->$/ { mark = NR; next }
		mark && !on && /^```console$/ { on = 1; k++; print mark > (dir "/block" k ".line"); printf "" > (dir "/block" k ".txt"); mark = 0; next }
		mark && !on { print "unmarked " mark > (dir "/bad"); mark = 0 }
		on && /^```$/ { on = 0; next }
		on { print >> (dir "/block" k ".txt") }' "$root/$page"
	if [ -f "$work/bad" ]; then
		echo "FAIL doc-examples/$page:$(cut -d' ' -f2 "$work/bad" | head -n 1): <!-- example --> is not followed by a \`\`\`console block"
		rm -f "$work/bad"
	fi
	k=1
	while [ -f "$work/block$k.txt" ]; do
		nblocks=$((nblocks + 1))
		found=$((found + 1))
		run_block "$page" "$(cat "$work/block$k.line")" "$work/block$k.txt"
		k=$((k + 1))
	done
done

# References: a page must not send the reader to what the repository does
# not hold.  Every relative Markdown link, and every `path` in backquotes
# that starts with a top-level folder of the checkout, must name a file or
# folder of it (capitals, *, $ and ... mark a placeholder, not a path).
for page in "${pages[@]}"; do
	[ -f "$root/$page" ] || continue
	dir=$(dirname "$page")
	missing=
	while IFS= read -r target; do
		target=${target%%#*}
		[ -n "$target" ] || continue
		[ -e "$root/$dir/$target" ] || missing+=" $target"
	done < <(grep -oE '\]\([^)]+\)' "$root/$page" | sed -E 's/^\]\(//; s/\)$//' | grep -vE '^[a-z]+:|^#')
	# build/ is made, not held
	tops=$(cd "$root" && find . -mindepth 1 -maxdepth 1 -type d ! -name '.*' ! -name build -printf '%f\n' | paste -sd '|')
	# A path after a possessive ("uftrace's `doc/...`", "its `doc/...`")
	# is another project's.
	possessive="^([^ ]*'s|[(]?its) "
	# shellcheck disable=SC2016  # the backquotes are Markdown's
	while IFS= read -r target; do
		[[ $target =~ $possessive ]] && continue
		target=${target#* }
		[[ $target =~ [A-Z*\$]|\.\.\. ]] && continue
		target=${target%%:*}
		[ -e "$root/$target" ] || missing+=" $target"
	done < <(grep -oE '(^|[^ `]+ )`('"$tops"')/[^` ]*`' "$root/$page" | tr -d '`' | sort -u)
	if [ -n "$missing" ]; then
		echo "FAIL doc-examples/references/$page: names what the repository does not hold:$missing"
	else
		echo "PASS doc-examples/references/$page"
	fi
done

# The README promises an example of every input and output format; losing
# the marks would pass silently otherwise.
if [ "$found" -lt 8 ]; then
	echo "FAIL doc-examples/count: only $found marked examples in README.md and doc/"
else
	echo "PASS doc-examples/count: $found marked examples"
fi
exit 0
