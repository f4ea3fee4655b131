#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/deps.sh build|test - install the Debian 12 packages tracecat needs
# that are missing.
#
#   build  what compiling needs: gcc, make, pkg-config and the -dev packages
#          of libzstd, zlib, libtraceevent, json-c and libelf
#   test   build, plus every program the tests run: the peer tools they
#          compare against (babeltrace2, babeltrace 1.5, trace-cmd, uftrace,
#          lttng-tools with liblttng-ust-dev), clang for the fuzz targets,
#          python3, and the smaller tools the scripts call
#
# Checks with dpkg-query; when nothing is missing it prints nothing and
# exits 0 at once (`make check` calls it every time).  Otherwise, as root it
# prints "installing: PKG..." and installs them quietly with apt-get
# (--no-install-recommends); as another user it prints the one
# `sudo apt-get install ...` command to run on stderr and exits 1.
set -euo pipefail

build=(gcc make pkg-config libzstd-dev zlib1g-dev libtraceevent-dev libjson-c-dev libelf-dev)
# The tests' tools beyond build, with what needs them:
#   python3          fixture generators, damaged-input test, value checks
#   procps           ps and pgrep, to look for leftover processes by hand
#   trace-cmd        tests/live/tracedat-*.sh, tests/tracefs/record.sh
#   babeltrace2, babeltrace   tests/live/*.sh (babeltrace 1.5 reads conversions)
#   lttng-tools, liblttng-ust-dev   tests/live/lttng-ust.sh (records anew)
#   uftrace          tests/live/uftrace-replay.sh (gcc -pg, uftrace record)
#   clang, libclang-rt-dev   make fuzz: the libFuzzer regression inputs (the
#                    default clang's runtime: 14 in Debian 12, 19 in 13)
#   groff-base, mandoc   the man page lint
#   bash-completion  the completion test
#   debootstrap      scripts/sid-root.sh: the Debian sid root that the peers
#                    newer than Debian 12's (tests/peers/) run from
#   binutils (nm), util-linux (setpriv, unshare, taskset), file
#   bsdutils         script: a terminal for convert-safety.sh's progress line
#   time             /usr/bin/time: peak memory in tests/live/ctf2-memory.sh
#   linux-perf       tests/live/perf.sh records perf.data and compares with
#                    perf script
#   protobuf-compiler, python3-protobuf   tests/live/perfetto.sh decodes Perfetto
#                    output with Perfetto's schema, tests/third_party/perfetto
#   nodejs, npm      tests/live/perfetto.sh runs Perfetto's trace processor
#                    (tests/perfetto/tp-query, whose engine npm fetches once); npm
#                    is only asked for when no npm command is there, since
#                    NodeSource's nodejs package provides one and conflicts
#                    with Debian's
# (timeout, stdbuf, cmp, diff, awk, find, sed come with every Debian system.)
tests=(python3 procps trace-cmd babeltrace2 babeltrace lttng-tools liblttng-ust-dev uftrace
	clang libclang-rt-dev groff-base mandoc bash-completion debootstrap binutils util-linux bsdutils file time
	protobuf-compiler python3-protobuf nodejs linux-perf)
command -v npm >/dev/null || tests+=(npm)

case ${1:-} in
build) want=("${build[@]}") ;;
test) want=("${build[@]}" "${tests[@]}") ;;
*) echo "usage: $0 build|test" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null; then
	echo "deps.sh: no dpkg here; make sure these (Debian names) are installed: ${want[*]}" >&2
	exit 0
fi
# One dpkg-query for all: "ii" is installed; unknown packages print nothing.
installed=" $(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${want[@]}" 2>/dev/null |
	awk '$1 == "ii" { printf "%s ", $2 }') " || true
missing=()
for pkg in "${want[@]}"; do
	case $installed in *" $pkg "*) ;; *) missing+=("$pkg") ;; esac
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "sudo apt-get install --no-install-recommends ${missing[*]}" >&2
	exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "deps.sh: apt-get failed" >&2
	exit 1
fi
