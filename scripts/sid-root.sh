#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/sid-root.sh - build, once, the Debian sid root the peer wrappers in
# tests/peers/ run their programs from.
#
# Some peers the tests compare against must be newer than Debian 12 ships
# (babeltrace2 2.1.2 is the first to read and write CTF 2).  Rather than
# building them from source, they are taken from Debian's own sid packages,
# installed with debootstrap into a separate root that never touches the
# host's /usr.  The root is built once and cached:
#
#   TRACECAT_SID_ROOT   where the root lives
#                       (default /var/cache/tracecat/sid-root)
#   TRACECAT_SID_MIRROR the Debian mirror to use (default: the first Debian
#                       URI in the host's own apt sources, so a machine that
#                       reaches Debian through a registry or proxy reaches sid
#                       the same way)
#
# A stamp file inside the root records the package list it was built with;
# when it matches, the script exits at once.  A new or changed list rebuilds
# the root from scratch.  The build happens in a sibling directory renamed
# into place at the end, so an interrupted run never leaves a root that looks
# complete.  Building needs root (debootstrap); using the root does not.
#
# Quiet on success; on failure one line on stderr (plus the tail of the log).
set -euo pipefail

# Each peer is PACKAGE=UPSTREAM-VERSION: the tests' expected outputs were
# made with that upstream release, so a sid that has moved on is an error to
# fix (new fixtures or a new version here), not a silent difference.  A bare
# PACKAGE takes sid's version: what building tracecat there needs (the
# newest compiler, whose warnings the tests check, and the -dev packages).
packages=(babeltrace2=2.1.2 trace-cmd=3.4 uftrace=0.19 gcc-16=16.2.0
	make pkgconf libc6-dev libzstd-dev zlib1g-dev libtraceevent-dev libjson-c-dev libelf-dev)

root=${TRACECAT_SID_ROOT:-/var/cache/tracecat/sid-root}
stamp=.tracecat-sid-root
want="tracecat sid root v1: ${packages[*]}"

if [ -f "$root/$stamp" ] && [ "$(cat "$root/$stamp")" = "$want" ]; then
	exit 0
fi

die() {
	echo "sid-root.sh: $*" >&2
	exit 1
}

parent=$(dirname "$root")
mkdir -p "$parent" 2>/dev/null || true
# Parallel tests may all find the root missing; one builds, the others wait
# and then find it done.
if [ -w "$parent" ] && command -v flock >/dev/null; then
	exec 9>"$parent/.sid-root.lock"
	flock 9
	if [ -f "$root/$stamp" ] && [ "$(cat "$root/$stamp")" = "$want" ]; then
		exit 0
	fi
fi

[ "$(id -u)" = 0 ] || die "the sid root $root is missing or out of date; building it needs root: sudo $(cd "$(dirname "$0")" && pwd)/sid-root.sh"

# The host's apt sources name the mirror the machine can reach; deb822 files
# first (Debian 12's default), then the one-line format.
host_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) print $i }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break } }' "$f"
	done
}
mirror=${TRACECAT_SID_MIRROR:-$(host_mirror | grep -v -e security -e '^$' | head -n 1)}
[ -n "$mirror" ] || die "no Debian mirror in the host's apt sources; set TRACECAT_SID_MIRROR"

if ! command -v debootstrap >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap; } >/dev/null 2>&1 ||
		die "could not install debootstrap with apt-get"
fi

tmp=$(mktemp -d "$parent/.sid-root.XXXXXX")
# mktemp's 0700 would keep the root, renamed into place, from other users.
chmod 755 "$tmp"
log=$(mktemp)
fail() {
	tail -n 20 "$log" >&2 || true
	rm -f "$log"
	umount_all
	rm -rf --one-file-system "$tmp"
	die "$*"
}
mounted=()
umount_all() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" 2>/dev/null || true
	done
	mounted=()
}
trap 'umount_all; rm -rf --one-file-system "$tmp"; rm -f "$log"' EXIT
# The build's commands run in a session of their own, so that an interrupt
# stops all of them (dpkg inside the chroot too) before the half-built root
# is removed, instead of waiting for debootstrap to finish.
child=
spawn() {
	local rc=0
	setsid "$@" &
	child=$!
	wait "$child" || rc=$?
	child=
	return "$rc"
}
trap 'if [ -n "$child" ]; then kill -TERM -- "-$child" 2>/dev/null; wait "$child" || true; fi; exit 130' INT TERM

# sid's Release file carries a Valid-Until date that a snapshot mirror has
# long passed; debootstrap itself does not check it, apt inside the root does.
spawn debootstrap --variant=minbase sid "$tmp" "$mirror" >"$log" 2>&1 ||
	fail "debootstrap sid from $mirror failed"

conf=$tmp/etc/apt/apt.conf.d
printf 'Acquire::Check-Valid-Until "false";\n' >"$conf/90tracecat-valid-until"
# A registry that speaks for Debian may need the host's apt settings and a
# private certificate authority; give the root the same ones.
for f in /etc/apt/apt.conf.d/*registry*; do
	[ -f "$f" ] && cp "$f" "$conf/"
done
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
	mkdir -p "$tmp/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$tmp/usr/local/share/ca-certificates/"
fi
cp /etc/resolv.conf "$tmp/etc/resolv.conf" 2>/dev/null || true

# apt and dpkg's maintainer scripts want /proc, /sys and /dev.
for m in proc sys dev; do
	mount --bind "/$m" "$tmp/$m" || fail "cannot bind-mount /$m into the sid root"
	mounted+=("$tmp/$m")
done

names=()
for p in "${packages[@]}"; do names+=("${p%%=*}"); done
in_root() { spawn chroot "$tmp" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
# minbase has no ca-certificates package; until it has, the host's bundle
# (which already holds the local authorities) lets apt reach an https mirror.
if [ -x "$tmp/usr/sbin/update-ca-certificates" ]; then
	in_root update-ca-certificates >>"$log" 2>&1 || fail "update-ca-certificates in the sid root failed"
elif [ -f /etc/ssl/certs/ca-certificates.crt ] && [ ! -e "$tmp/etc/ssl/certs/ca-certificates.crt" ]; then
	mkdir -p "$tmp/etc/ssl/certs"
	cp /etc/ssl/certs/ca-certificates.crt "$tmp/etc/ssl/certs/"
fi
{ in_root apt-get update -qq && in_root apt-get install -y -qq --no-install-recommends "${names[@]}"; } >>"$log" 2>&1 ||
	fail "apt-get install ${names[*]} in the sid root failed"
umount_all

for p in "${packages[@]}"; do
	[[ $p == *=* ]] || continue
	name=${p%%=*} version=${p#*=}
	# shellcheck disable=SC2016  # a dpkg-query format, not a shell expansion
	got=$(chroot "$tmp" dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || got=
	upstream=${got#*:}
	upstream=${upstream%-*}
	[ "$upstream" = "$version" ] || fail "sid has $name ${got:-nothing}, the tests want $version"
done
# The package caches are of no further use and are most of the root's size.
in_root apt-get clean >/dev/null 2>&1 || true
rm -rf "$tmp/var/lib/apt/lists/"*

printf '%s\n' "$want" >"$tmp/$stamp"
if [ -e "$root" ]; then
	old=$(mktemp -d "$parent/.sid-root-old.XXXXXX")
	mv "$root" "$old/"
	mv "$tmp" "$root"
	rm -rf --one-file-system "$old"
else
	mv "$tmp" "$root"
fi
rm -f "$log"
trap - EXIT
