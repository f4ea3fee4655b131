#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/debian-root.sh SUITE - build, once, a Debian root of SUITE (sid,
# trixie or bookworm) that the peer wrappers in tests/peers/ and the live
# tests run their programs from.
#
# Some peers the tests compare against are not Debian 12's releases: sid's
# are the newest (babeltrace2 2.1.2 is the first to read and write CTF 2),
# trixie's (Debian 13) are the older ones tracecat's --compat still
# follows.  And on a host other than Debian 12 the suite's own references,
# Debian 12's releases, come from a bookworm root.  Rather than building them from source, they are taken from
# Debian's own packages, installed with debootstrap into a separate root
# that never touches the host's /usr.  Each root is built once and cached:
#
#   TRACECAT_SID_ROOT      where the sid root lives
#                          (default /var/cache/tracecat/sid-root)
#   TRACECAT_TRIXIE_ROOT   where the trixie root lives
#                          (default /var/cache/tracecat/trixie-root)
#   TRACECAT_BOOKWORM_ROOT where the bookworm root lives
#                          (default /var/cache/tracecat/bookworm-root)
#   TRACECAT_DEBIAN_MIRROR the Debian mirror to use (TRACECAT_SID_MIRROR,
#                          its older name, too; default: the first Debian
#                          URI in the host's own apt sources, so a machine
#                          that reaches Debian through a registry or proxy
#                          reaches sid and trixie the same way)
#
# scripts/sid-root.sh is this script for sid.
#
# A stamp file inside the root records the package list it was built with;
# when it holds every package of the list, the script exits at once.  The
# list's packages the stamp lacks are installed into the existing root
# (seconds, not the minutes of a debootstrap), and those only the stamp
# lists (another branch's) stay: the stamp is removed first and written
# last, so an interrupted update leaves a root without one, which the next
# run rebuilds.  A package the stamp lists at another version rebuilds the
# root from scratch, in a sibling directory renamed into place at the end,
# so an interrupted run never leaves a root that looks complete.  Building
# needs root (debootstrap); using the root does not.
#
# Quiet on success; on failure one line on stderr (plus the tail of the log).
set -euo pipefail

suite=${1:-}
# Each peer is PACKAGE=UPSTREAM-VERSION: the tests' expected outputs were
# made with that upstream release, so a suite that has moved on is an error
# to fix (new fixtures or a new version here), not a silent difference.  A
# bare PACKAGE takes the suite's version: what building tracecat there
# needs (sid's newest compiler, whose warnings the tests check, and the
# -dev packages; trixie's compiler builds the uftrace tests' workloads).
case $suite in
sid)
	# lttng-tools and liblttng-ust-dev record the CTF 2 traces of LTTng
	# 2.16 (tests/live/lttng216.sh); g++-16 builds the C++ scenario that
	# tests/live/uftrace019.sh records with uftrace 0.19.
	packages=(babeltrace2=2.1.2 trace-cmd=3.4 uftrace=0.19 gcc-16=16.2.0 g++-16=16.2.0
		make pkgconf libc6-dev libzstd-dev zlib1g-dev libtraceevent-dev libjson-c-dev libelf-dev
		lttng-tools=2.16.0 liblttng-ust-dev=2.16.0)
	root=${TRACECAT_SID_ROOT:-/var/cache/tracecat/sid-root}
	;;
trixie)
	# The releases tests/live/trixie-peers.sh compares tracecat's
	# --compat texts with (g++: the C++ scenario of tests/uftrace).
	packages=(babeltrace2=2.1.1 trace-cmd=3.3.1 uftrace=0.17 gcc g++ make pkgconf libc6-dev)
	root=${TRACECAT_TRIXIE_ROOT:-/var/cache/tracecat/trixie-root}
	;;
bookworm)
	# Debian 12's peers, the releases the suite's references were made
	# with, for hosts that have other ones (tests/peers/debian12/).  The
	# trace-cmd package alone leaves out libtraceevent's plugins, which
	# format some events.
	packages=(babeltrace2=2.0.4 babeltrace=1.5.11 trace-cmd=3.1.6 libtraceevent1-plugin=1.7.1 uftrace=0.13)
	root=${TRACECAT_BOOKWORM_ROOT:-/var/cache/tracecat/bookworm-root}
	;;
*)
	echo "usage: debian-root.sh sid|trixie|bookworm" >&2
	exit 2
	;;
esac
stamp=.tracecat-$suite-root
head="tracecat $suite root v1:"
want="$head ${packages[*]}"

up_to_date() {
	local have p
	have=$(cat "$root/$stamp" 2>/dev/null) || return 1
	[[ $have == "$head "* ]] || return 1
	have=" ${have#"$head "} "
	for p in "${packages[@]}"; do
		[[ $have == *" $p "* ]] || return 1
	done
}
up_to_date && exit 0

die() {
	echo "debian-root.sh $suite: $*" >&2
	exit 1
}

parent=$(dirname "$root")
mkdir -p "$parent" 2>/dev/null || true
# Parallel tests may all find the root missing; one builds, the others wait
# and then find it done.
if [ -w "$parent" ] && command -v flock >/dev/null; then
	exec 9>"$parent/.$suite-root.lock"
	flock 9
	up_to_date && exit 0
fi

[ "$(id -u)" = 0 ] || die "the $suite root $root is missing or out of date; building it needs root: sudo $(cd "$(dirname "$0")" && pwd)/debian-root.sh $suite"

# The packages to add to the existing root: ours that its stamp lacks.  One
# that is another version of a package the stamp lists needs a rebuild
# (apt would not replace it in place).  Packages only the stamp lists
# (another branch's) stay, installed and listed.
added=()
have=$(cat "$root/$stamp" 2>/dev/null) || have=
if [[ $have == "$head "* ]]; then
	listed=" ${have#"$head "} "
	for p in "${packages[@]}"; do
		[[ $listed == *" $p "* ]] && continue
		if [[ $listed == *" ${p%%=*}="* || $listed == *" ${p%%=*} "* ]]; then
			added=()
			break
		fi
		added+=("$p")
	done
fi

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
mirror=${TRACECAT_DEBIAN_MIRROR:-${TRACECAT_SID_MIRROR:-$(host_mirror | grep -v -e security -e '^$' | head -n 1)}}
[ -n "$mirror" ] || die "no Debian mirror in the host's apt sources; set TRACECAT_DEBIAN_MIRROR"

if ! command -v debootstrap >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap; } >/dev/null 2>&1 ||
		die "could not install debootstrap with apt-get"
fi

# tmp is the half-built root a failure removes; an update works in the root
# itself (dir), whose missing stamp is what tells it is not complete.
tmp=
if [ ${#added[@]} -gt 0 ]; then
	dir=$root
	rm -f "$root/$stamp"
else
	tmp=$(mktemp -d "$parent/.$suite-root.XXXXXX")
	# mktemp's 0700 would keep the root, renamed into place, from other users.
	chmod 755 "$tmp"
	dir=$tmp
fi
log=$(mktemp)
fail() {
	tail -n 20 "$log" >&2 || true
	rm -f "$log"
	umount_all
	[ -z "$tmp" ] || rm -rf --one-file-system "$tmp"
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
trap 'umount_all; [ -z "$tmp" ] || rm -rf --one-file-system "$tmp"; rm -f "$log"' EXIT
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

if [ -n "$tmp" ]; then
	# A suite's Release file carries a Valid-Until date that a snapshot mirror
	# has long passed; debootstrap itself does not check it, apt inside the root does.
	spawn debootstrap --variant=minbase "$suite" "$tmp" "$mirror" >"$log" 2>&1 ||
		fail "debootstrap $suite from $mirror failed"
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
fi
cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true

# apt and dpkg's maintainer scripts want /proc, /sys and /dev.
for m in proc sys dev; do
	mount --bind "/$m" "$dir/$m" || fail "cannot bind-mount /$m into the $suite root"
	mounted+=("$dir/$m")
done

names=()
for p in "${added[@]:-${packages[@]}}"; do names+=("${p%%=*}"); done
in_root() { spawn chroot "$dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }
# minbase has no ca-certificates package; until it has, the host's bundle
# (which already holds the local authorities) lets apt reach an https mirror.
if [ -x "$dir/usr/sbin/update-ca-certificates" ]; then
	in_root update-ca-certificates >>"$log" 2>&1 || fail "update-ca-certificates in the $suite root failed"
elif [ -f /etc/ssl/certs/ca-certificates.crt ] && [ ! -e "$dir/etc/ssl/certs/ca-certificates.crt" ]; then
	mkdir -p "$dir/etc/ssl/certs"
	cp /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/"
fi
{ in_root apt-get update -qq && in_root apt-get install -y -qq --no-install-recommends --no-upgrade "${names[@]}"; } >>"$log" 2>&1 ||
	fail "apt-get install ${names[*]} in the $suite root failed"
umount_all

for p in "${packages[@]}"; do
	[[ $p == *=* ]] || continue
	name=${p%%=*} version=${p#*=}
	# shellcheck disable=SC2016  # a dpkg-query format, not a shell expansion
	got=$(chroot "$dir" dpkg-query -W -f='${Version}' "$name" 2>/dev/null) || got=
	upstream=${got#*:}
	upstream=${upstream%-*}
	[ "$upstream" = "$version" ] || fail "$suite has $name ${got:-nothing}, the tests want $version"
done
# The package caches are of no further use and are most of the root's size.
in_root apt-get clean >/dev/null 2>&1 || true
rm -rf "$dir/var/lib/apt/lists/"*

# An update keeps the packages the stamp listed (another branch's), which
# are still installed, beside ours.
[ ${#added[@]} = 0 ] || want="$have ${added[*]}"
printf '%s\n' "$want" >"$dir/$stamp"
if [ -n "$tmp" ] && [ -e "$root" ]; then
	old=$(mktemp -d "$parent/.$suite-root-old.XXXXXX")
	mv "$root" "$old/"
	mv "$tmp" "$root"
	rm -rf --one-file-system "$old"
elif [ -n "$tmp" ]; then
	mv "$tmp" "$root"
fi
rm -f "$log"
trap - EXIT
