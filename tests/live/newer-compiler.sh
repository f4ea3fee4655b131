#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# newer-compiler.sh - tracecat builds without a warning with the newest gcc
# users have: sid's gcc 16, in the Debian sid root of the newer peers
# (scripts/sid-root.sh), against sid's libraries (libtraceevent 1.9, ...).
# Debian 12's gcc 12 is the suite's own compiler; a warning a newer gcc adds
# (gcc 15's -Wunterminated-string-initialization, say) shows up here first.
#
# The checkout is bound into the root in a mount namespace of this test's
# own (unshare -m), so the shared root never sees it; the build goes to
# build/gcc-16 of the checkout, made anew each run.
#
# usage (from the repository root): bash tests/live/newer-compiler.sh BIN
# BIN is accepted for the protocol and not used.
#
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.  SKIP when not
# root (chroot, mounts) or when the sid root cannot be built.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
sid=${TRACECAT_SID_ROOT:-/var/cache/tracecat/sid-root}

if [ "$(id -u)" != 0 ]; then
	echo "SKIP newer-compiler: needs root (chroot and bind mounts)"
	exit 0
fi
if ! bash scripts/sid-root.sh || [ ! -x "$sid/usr/bin/gcc-16" ]; then
	echo "SKIP newer-compiler: no sid root with gcc 16 ($sid)"
	exit 0
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# From scratch: an object kept from an earlier run would hide its warnings.
rm -rf build/gcc-16
# shellcheck disable=SC2016  # expanded by the inner shell
unshare -m bash -c '
	set -e
	mount --make-rprivate /
	mount --bind "$1" "$2/mnt"
	mount --bind /dev "$2/dev"
	mount --bind /proc "$2/proc"
	chroot "$2" env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 \
		make -C /mnt --no-print-directory CC=gcc-16 BUILD=build/gcc-16 all
' newer-compiler "$repo" "$sid" >"$log" 2>&1
rc=$?
version=$(chroot "$sid" gcc-16 --version 2>/dev/null | head -n 1)
if [ $rc != 0 ]; then
	echo "FAIL newer-compiler/build: $version: make exited $rc: $(grep -m 3 -E 'error|Error' "$log" | tr '\n' ' ' | head -c 400)"
elif grep -q 'warning:' "$log"; then
	echo "FAIL newer-compiler/warnings: $version: $(grep -c 'warning:' "$log") warnings, first: $(grep -m 1 'warning:' "$log" | head -c 300)"
else
	echo "PASS newer-compiler/gcc-16: $version builds tracecat without a warning"
fi
exit 0
