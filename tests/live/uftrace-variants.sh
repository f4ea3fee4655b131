#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/uftrace-variants.sh BIN - uftrace data as older or other
# recorders write it, made from the fixtures: each variant must replay
# exactly as the fixture it was made from.
#   - absolute-sym: symbol files with absolute addresses and the info
#     header without the SYM_REL_ADDR feature (uftrace before 0.7).
# Also: `-t` values beyond 64-bit nanoseconds are refused; and copies of
# the fixture single with a time going back and with LOST records replay
# as uftrace 0.13 replays them, when it is installed.
# Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
FIX=$ROOT/tests/fixtures/uftrace
if ! command -v python3 >/dev/null; then
	echo "SKIP uftrace-variants: python3 is not installed"
	exit 0
fi
# The references are Debian 12's uftrace 0.13's text (the newer default,
# 0.19's, is tests/live/uftrace019.sh's); the last item of a request wins.
export TRACECAT_COMPAT=${TRACECAT_COMPAT:+$TRACECAT_COMPAT,}uftrace=0.13
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in single threads; do
	[ -d "$FIX/$name" ] || continue
	cp -r "$FIX/$name" "$tmp/$name"
	python3 - "$tmp/$name" <<'PY'
import glob, os, struct, sys
d = sys.argv[1]
info = bytearray(open(os.path.join(d, "info"), "rb").read())
feat = struct.unpack_from("<Q", info, 16)[0]
struct.pack_into("<Q", info, 16, feat & ~0x20)
open(os.path.join(d, "info"), "wb").write(info)
starts = {}
for m in glob.glob(os.path.join(d, "sid-*.map")):
    for line in open(m):
        f = line.split()
        if len(f) >= 6 and not f[5].startswith("["):
            starts.setdefault(os.path.basename(f[5]), int(f[0].split("-")[0], 16))
for sym in glob.glob(os.path.join(d, "*.sym")):
    base = os.path.basename(sym)[:-4]
    if base not in starts:
        continue
    out = []
    for line in open(sym):
        if not line.startswith("#") and " " in line:
            a, rest = line.split(" ", 1)
            line = "%016x %s" % (int(a, 16) + starts[base], rest)
        out.append(line)
    open(sym, "w").write("".join(out))
PY
	if timeout 60 "$BIN" replay "$tmp/$name" 2>&1 | cmp -s - "$FIX/$name.replay.txt"; then
		echo "PASS uftrace-variants/absolute-sym/$name"
	else
		echo "FAIL uftrace-variants/absolute-sym/$name: replay differs from $name.replay.txt"
	fi
done
# A time filter beyond 64-bit nanoseconds (or not a number) is refused as
# malformed, with a usage error, rather than cast into some other value.
for t in 1e30s nan; do
	if [ -d "$FIX/single" ]; then
		"$BIN" replay -t "$t" "$FIX/single" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "time-filter expects" "$tmp/err"; then
			echo "PASS uftrace-variants/time-filter-$t"
		else
			echo "FAIL uftrace-variants/time-filter-$t: exit $rc, $(head -c 200 "$tmp/err")"
		fi
	fi
done
# Records written when something went wrong (tests/uftrace/damage.py): a
# time that goes back, LOST records of a count and of none, against
# Debian 12's uftrace 0.13 when installed; without the duration column,
# which differs around such records (doc/reading.md).
if ! command -v uftrace >/dev/null; then
	echo "SKIP uftrace-variants/damaged: uftrace is not installed"
elif [ -d "$FIX/single" ]; then
	for kind in inverted lost0 lost3; do
		python3 "$ROOT/tests/uftrace/damage.py" "$FIX/single" "$tmp/$kind" "$kind" || continue
		for opts in "-f tid" "-f tid,addr,task,module" "--no-merge -f tid"; do
			# shellcheck disable=SC2086  # opts is a blank-separated list
			uftrace replay $opts -d "$tmp/$kind" >"$tmp/expected" 2>/dev/null
			# shellcheck disable=SC2086
			timeout 60 "$BIN" replay $opts "$tmp/$kind" >"$tmp/out" 2>&1
			if cmp -s "$tmp/expected" "$tmp/out"; then
				echo "PASS uftrace-variants/damaged/$kind [$opts]"
			else
				echo "FAIL uftrace-variants/damaged/$kind [$opts]: $(diff "$tmp/expected" "$tmp/out" | head -n 3 | tr '\n' ' ' | head -c 300)"
			fi
		done
	done
fi
exit 0
