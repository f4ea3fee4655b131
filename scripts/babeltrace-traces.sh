#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/babeltrace-traces.sh - babeltrace's own CTF test traces, with
# babeltrace2's text of each, for tests/run.sh and the live tests.
#
# The traces are third-party data (babeltrace, MIT) that the project does
# not commit: Debian's babeltrace2 source package holds them, so it is
# fetched once with apt-get into a cache, checked against the checksums of
# its .dsc, and the traces are laid out as the tests read them:
#
#   DIR/ctf/babeltrace/{succeed,fail,intersection,packet-seq-num,deterministic-ordering}/
#   DIR/ctf2/babeltrace/{succeed,fail,intersection}/
#
# The reference outputs beside each trace (tests/corpus/ctf/README.md) are
# written when missing: X.bt2.* by babeltrace2 2.0.4 (Debian 12's) for
# CTF 1.8, X.bt21.* by babeltrace2 2.1.2 (tests/peers/babeltrace2-2.1) for
# CTF 2, since 2.0.4 does not read CTF 2.  Once everything is there a run
# only checks two marker files.
#
# Prints DIR on stdout.  Exit status 0 when the traces and all their
# references are there; 1 when the traces could not be had; 2 when they
# are there but a babeltrace2 was missing, so some references are not
# (DIR is printed all the same, and run again writes them).
#
# Environment:
#   TRACECAT_CACHE   cache root (default /var/cache/tracecat, or
#                    ~/.cache/tracecat where that cannot be written)
#   BABELTRACE_SOURCE  SUITE=VERSION of the source package (default
#                    sid=2.1.2-2.1): one package for both sets, since
#                    bookworm's 2.0.4 has no CTF 2 traces and 2.1.2's CTF
#                    1.8 set holds every trace the tests read before.
#   BABELTRACE2      babeltrace2 2.0.4 (default: babeltrace2 on PATH)
#   BABELTRACE21     babeltrace2 2.1.2 (default tests/peers/babeltrace2-2.1)
#   DEBIAN_MIRROR    the archive to fetch from (default: the Debian
#                    archive this machine's apt is configured with)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source_spec=${BABELTRACE_SOURCE:-sid=2.1.2-2.1}
suite=${source_spec%%=*}
version=${source_spec#*=}
BT20=${BABELTRACE2:-babeltrace2}
BT21=${BABELTRACE21:-$ROOT/tests/peers/babeltrace2-2.1}

say() { echo "babeltrace-traces: $*" >&2; }

cache=${TRACECAT_CACHE:-/var/cache/tracecat}
if ! mkdir -p "$cache" 2>/dev/null || [ ! -w "$cache" ]; then
	[ -n "${TRACECAT_CACHE:-}" ] && { say "cannot write $cache"; exit 1; }
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/tracecat
	mkdir -p "$cache"
fi
dir=$cache/babeltrace-traces/$version
mkdir -p "$dir"
# Both markers there: nothing to do, quickly (every test script calls this).
if [ -f "$dir/.traces-ok" ] && [ -f "$dir/.references-ok" ]; then
	echo "$dir"
	exit 0
fi

# One writer at a time: two test scripts may start this together.
exec 9>"$dir/.lock"
flock 9

fetch() {
	local mirror
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mirror=${DEBIAN_MIRROR:-$(apt-get indextargets --format '$(LABEL) $(REPO_URI)' 2>/dev/null |
		awk '$1 == "Debian" { print $2; exit }')}
	if [ -z "$mirror" ]; then
		say "no Debian archive in apt's configuration; set DEBIAN_MIRROR"
		return 1
	fi
	# A private apt configuration, so that the host's sources (which may
	# have no deb-src line, nor sid) stay as they are.
	mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/parts" "$tmp/dl"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" >"$tmp/sources.list"
	local apt=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o "Dir::Etc::SourceParts=$tmp/parts"
		-o "Dir::Etc::PreferencesParts=$tmp/parts" -o "Dir::State::Lists=$tmp/lists"
		-o "Dir::Cache=$tmp/cache" -o "Dir::State::status=/dev/null" -o Debug::NoLocking=1
		-o APT::Sandbox::User="$(id -un)")
	say "fetching Debian's babeltrace2 $version source ($suite)"
	if ! apt-get "${apt[@]}" -qq update >"$tmp/apt.log" 2>&1 ||
		! (cd "$tmp/dl" && apt-get "${apt[@]}" -qq source --download-only "babeltrace2=$version") >>"$tmp/apt.log" 2>&1; then
		say "apt-get failed: $(grep -m1 -e '^E:' -e '^W:' "$tmp/apt.log" || tail -1 "$tmp/apt.log")"
		return 1
	fi
	# apt checked the files against the signed Sources index; the .dsc's
	# own list is checked too, so that a file can only be the one the
	# upload named.
	local dsc orig
	dsc=$tmp/dl/babeltrace2_$version.dsc
	if ! (cd "$tmp/dl" && sed -n '/^Checksums-Sha256:/,/^[^ ]/{/^ /{s/^ \([0-9a-f]*\) [0-9]* \(.*\)/\1  \2/p}}' "$dsc" |
		sha256sum --quiet -c -) >&2; then
		say "the files do not match $(basename "$dsc")"
		return 1
	fi
	for orig in "$tmp/dl/babeltrace2_${version%-*}".orig.tar.*; do
		case $orig in *.asc) ;; *) break ;; esac
	done
	mkdir "$tmp/src"
	tar -xf "$orig" -C "$tmp/src" --strip-components=1 --wildcards '*/tests/data/ctf-traces/*'
	local t=$tmp/src/tests/data/ctf-traces one
	# 2.1 moved the CTF 1.8 traces into 1/ when it added CTF 2's in 2/.
	one=$t; [ -d "$t/1" ] && one=$t/1
	rm -rf "$dir/ctf" "$dir/ctf2"
	mkdir -p "$dir/ctf/babeltrace" "$dir/ctf2/babeltrace"
	local g
	for g in succeed fail intersection packet-seq-num deterministic-ordering; do
		[ -d "$one/$g" ] && cp -a "$one/$g" "$dir/ctf/babeltrace/"
	done
	for g in succeed fail intersection; do
		[ -d "$t/2/$g" ] && cp -a "$t/2/$g" "$dir/ctf2/babeltrace/"
	done
	cp "$dsc" "$dir/"
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
	fetch || exit 1
	say "traces in $dir"
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
