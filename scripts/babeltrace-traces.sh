#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/babeltrace-traces.sh - babeltrace's own CTF test traces, with
# babeltrace2's text of each, for tests/run.sh and the live tests.
#
# The traces are committed as third-party data in
# tests/third_party/babeltrace-ctf-traces (babeltrace 2.1.2's, README
# there).  They are copied into a cache and laid out as the tests read
# them:
#
#   DIR/ctf/babeltrace/{succeed,fail,intersection,packet-seq-num,deterministic-ordering}/
#   DIR/ctf2/babeltrace/{succeed,fail,intersection}/
#
# and the reference outputs are written beside each trace
# (tests/corpus/ctf/README.md): X.bt2.* by babeltrace2 2.0.4 (Debian 12's)
# for CTF 1.8, X.bt21.* by babeltrace2 2.1.2 (tests/peers/babeltrace2-2.1)
# for CTF 2, since 2.0.4 does not read CTF 2.  The references are made here
# by the peers rather than committed, so that the third-party folder stays
# exactly the upstream release (checkable against its SHA256SUMS) with no
# file of the project's mixed in, and because the peers that remake them
# are the ones the live tests need anyway.
#
# DIR is named by a checksum of the committed traces and of this script,
# so that a change to either lays the traces out again and remakes every
# reference.  Once DIR is complete a run only checks two marker files.
#
# Prints DIR on stdout.  Exit status 0 when the traces and all their
# references are there; 1 when the traces could not be laid out; 2 when
# they are there but a babeltrace2 was missing, so some references are not
# (DIR is printed all the same, and a later run writes them).
#
# Environment:
#   TRACECAT_CACHE   cache root (default /var/cache/tracecat, or
#                    ~/.cache/tracecat where that cannot be written)
#   BABELTRACE2      babeltrace2 2.0.4 (default: babeltrace2 on PATH)
#   BABELTRACE21     babeltrace2 2.1.2 (default tests/peers/babeltrace2-2.1)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/tests/third_party/babeltrace-ctf-traces
BT20=${BABELTRACE2:-babeltrace2}
BT21=${BABELTRACE21:-$ROOT/tests/peers/babeltrace2-2.1}

say() { echo "babeltrace-traces: $*" >&2; }

if [ ! -d "$SRC/1" ] || [ ! -d "$SRC/2" ]; then
	say "no traces in $SRC"
	exit 1
fi
key=$( (cd "$SRC" && find 1 2 -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
	sha256sum <"$ROOT/scripts/babeltrace-traces.sh") | sha256sum | cut -c1-16)

cache=${TRACECAT_CACHE:-/var/cache/tracecat}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	[ -n "${TRACECAT_CACHE:-}" ] && { say "cannot write $cache"; exit 1; }
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracecat
	mkdir -p "$cache"
fi
dir=$cache/babeltrace-traces/$key
mkdir -p "$dir"
# Both markers there: nothing to do, quickly (every test script calls this).
if [ -f "$dir/.traces-ok" ] && [ -f "$dir/.references-ok" ]; then
	echo "$dir"
	exit 0
fi

# One writer at a time: two test scripts may start this together.
exec 9>"$dir/.lock"
flock 9

layout() {
	local g
	rm -rf "$dir/ctf" "$dir/ctf2"
	mkdir -p "$dir/ctf/babeltrace" "$dir/ctf2/babeltrace" || return 1
	# Copies, not links: the references are written beside the traces and
	# must not land in the checkout.
	for g in succeed fail intersection packet-seq-num deterministic-ordering; do
		cp -R "$SRC/1/$g" "$dir/ctf/babeltrace/" || return 1
	done
	for g in succeed fail intersection; do
		cp -R "$SRC/2/$g" "$dir/ctf2/babeltrace/" || return 1
	done
	touch "$dir/.traces-ok"
}

# reference TOOL TAG GROUPDIR NAME: TOOL's text of GROUPDIR/NAME as the
# files NAME.TAG.{txt,stderr,err,partial.txt}, the way
# tests/corpus/ctf/README.md says.
reference() {
	local tool=$1 tag=$2 gdir=$3 n=$4 rc
	[ -f "$gdir/$n.$tag.txt" ] || [ -f "$gdir/$n.$tag.err" ] && return 0
	# (in a shell of its own, which reports an abort to /dev/null)
	(cd "$gdir" && TZ=UTC "$tool" --clock-gmt "$n" >"$n.$tag.out.tmp" 2>"$n.$tag.stderr.tmp"; exit $?) 2>/dev/null && rc=0 || rc=$?
	# babeltrace2 names stream files by their absolute path: made relative
	# to the set's babeltrace/, as the committed corpus's files are.
	sed -i "s|${gdir%/*}/|./|g" "$gdir/$n.$tag.stderr.tmp"
	if [ $rc -eq 0 ]; then
		if [ -s "$gdir/$n.$tag.stderr.tmp" ]; then
			mv "$gdir/$n.$tag.stderr.tmp" "$gdir/$n.$tag.stderr"
		else
			rm "$gdir/$n.$tag.stderr.tmp"
		fi
		mv "$gdir/$n.$tag.out.tmp" "$gdir/$n.$tag.txt"
	else
		if [ -s "$gdir/$n.$tag.out.tmp" ]; then
			mv "$gdir/$n.$tag.out.tmp" "$gdir/$n.$tag.partial.txt"
		else
			rm "$gdir/$n.$tag.out.tmp"
		fi
		{ echo "exit status: $rc"; echo "--- stderr:"; cat "$gdir/$n.$tag.stderr.tmp"; } >"$gdir/$n.$tag.err"
		rm "$gdir/$n.$tag.stderr.tmp"
	fi
}

# references TOOL TAG SET: every trace of DIR/SET/babeltrace/*/.
references() {
	local tool=$1 tag=$2 set=$3 gdir t
	for gdir in "$dir/$set"/babeltrace/*/; do
		gdir=${gdir%/}
		for t in "$gdir"/*/; do
			t=${t%/}
			reference "$tool" "$tag" "$gdir" "$(basename "$t")"
		done
	done
}

if [ ! -f "$dir/.traces-ok" ]; then
	layout || { say "could not copy the traces into $dir"; exit 1; }
fi
complete=true
if "$BT20" --version 2>/dev/null | grep -q '^Babeltrace 2\.0\.4 '; then
	references "$BT20" bt2 ctf
else
	say "babeltrace2 2.0.4 is not there ($BT20): no CTF 1.8 references written"
	complete=false
fi
if "$BT21" --version 2>/dev/null | grep -q '^Babeltrace 2\.1\.2 '; then
	references "$BT21" bt21 ctf2
else
	say "babeltrace2 2.1.2 is not there ($BT21): no CTF 2 references written"
	complete=false
fi
echo "$dir"
$complete || exit 2
touch "$dir/.references-ok"
