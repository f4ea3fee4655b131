#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/trixie-peers.sh BIN - tracecat's text against the releases of
# Debian 13 (trixie) that `--compat` follows (doc/reading.md, "Peer
# releases"), run from the trixie root scripts/debian-root.sh trixie builds:
#   - trace-cmd 3.3.1 (libtraceevent 1.8) and `report --compat
#     trace-cmd=3.3`: tests/live/tracecmd34.sh BIN trixie records in
#     ftrace instances with 3.3.1 and compares every report option set
#     (tests named tracecmd33/...);
#   - uftrace 0.17 and `replay --compat uftrace=0.17` (0.19's text):
#     tests/live/uftrace019.sh BIN trixie records the scenarios of
#     tests/uftrace with trixie's gcc and uftrace 0.17 and compares every
#     replay option set (uftrace017/...);
#   - babeltrace2 2.1.1 (tests/peers/babeltrace2-trixie) and `print`'s
#     default text, 2.1's: every CTF 1.8 and CTF 2 trace of the fixtures,
#     the corpus and babeltrace's committed test traces, with --clock-gmt
#     alone and with each option set of tests/lttng/option-sets.txt; the
#     exit status, the standard output and the WARNING lines must be the
#     same (tests/lib.sh's peer_compare: a trace 2.1.1 dies on or refuses
#     where tracecat reads is a NOTE).
# Prints PASS/FAIL/SKIP/NOTE lines for tests/run.sh; exits 0.  SKIP when
# not root (the first two) or when there is no trixie root.  Takes about
# five minutes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
. "$here/../lib.sh"
[ -n "${1:-}" ] || { echo "FAIL trixie-peers: usage: $0 BIN"; exit 0; }
live_setup trixie-peers "$1"
bash "$here/tracecmd34.sh" "$bin" trixie
bash "$here/uftrace019.sh" "$bin" trixie

BT=$root/tests/peers/babeltrace2-trixie
# peer_compare's names for the binary and the scratch folder
BIN=$bin tmp=$work
unset TRACECAT_COMPAT
cd "$root" || exit 0
if [ ! -x "${TRACECAT_TRIXIE_ROOT:-/var/cache/tracecat/trixie-root}/usr/bin/babeltrace2" ] ||
	! "$BT" --version 2>/dev/null | grep -q '2\.1\.1'; then
	echo "SKIP babeltrace211: no trixie root with babeltrace2 2.1.1 (scripts/debian-root.sh trixie builds it)"
	exit 0
fi
sets=("")
while read -r _ args; do
	sets+=("$args")
done < <(grep -v '^#' tests/lttng/option-sets.txt)
traces=()
while IFS= read -r m; do
	traces+=("${m%/metadata}")
done < <(find tests/fixtures/ctf tests/fixtures/ctf2 tests/fixtures/ctf2-lttng tests/fixtures/ctf2-from-ctf1 \
	tests/corpus/ctf tests/third_party/babeltrace-ctf-traces/1/succeed \
	tests/third_party/babeltrace-ctf-traces/2/succeed -name metadata -type f 2>/dev/null | sort)
for t in "${traces[@]}"; do
	for opts in "${sets[@]}"; do
		# shellcheck disable=SC2086  # opts is a list of options
		peer_compare "babeltrace211/$t [$opts]" "babeltrace2 2.1.1" "$BT" --clock-gmt $opts "$t" -- \
			--clock-gmt $opts "$t"
	done
done
exit 0
