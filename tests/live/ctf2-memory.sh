#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/ctf2-memory.sh BIN - memory stays flat on a CTF 2 trace of
# many packets.  Reading a CTF 2 trace first checks every packet's header
# and context (as babeltrace2 2.1.2 does); that pass once kept every page
# it touched, so a trace's whole file stayed resident.  Here a 64 MiB
# stream of 16384 packets of 4 KiB must be read by `BIN info -j 1` and
# `BIN print` within 40 MiB of peak RSS.
# Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.
set -u
BIN=$1
if ! command -v python3 >/dev/null || [ ! -x /usr/bin/time ]; then
	echo "SKIP ctf2-memory: python3 or /usr/bin/time is not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"
python3 - "$tmp/t" <<'EOF'
import json, struct, sys
d = sys.argv[1]
u64 = {"type": "fixed-length-unsigned-integer", "length": 64, "byte-order": "little-endian", "alignment": 8}
frags = [
    {"type": "preamble", "version": 2},
    {"type": "clock-class", "id": "c", "frequency": 1000000000},
    {"type": "data-stream-class", "default-clock-class-id": "c",
     "packet-context-field-class": {"type": "structure", "member-classes": [
         {"name": "size", "field-class": dict(u64, roles=["packet-total-length"])},
         {"name": "begin", "field-class": dict(u64, roles=["default-clock-timestamp"])}]},
     "event-record-header-field-class": {"type": "structure", "member-classes": [
         {"name": "ts", "field-class": dict(u64, roles=["default-clock-timestamp"])}]}},
    {"type": "event-record-class", "name": "ev", "payload-field-class": {"type": "structure", "member-classes": [
        {"name": "v", "field-class": u64}]}},
]
with open(d + "/metadata", "wb") as f:
    for fr in frags:
        f.write(b"\x1e" + json.dumps(fr).encode() + b"\n")
packet = 4096
events = (packet - 16) // 16
with open(d + "/stream", "wb") as f:
    t = 0
    for p in range(16384):
        f.write(struct.pack("<QQ", packet * 8, t))
        for e in range(events):
            f.write(struct.pack("<QQ", t, e))
            t += 1
EOF
for cmd in "info -j 1" print; do
	# shellcheck disable=SC2086  # the command and its option are words
	if ! /usr/bin/time -f %M -o "$tmp/rss" "$BIN" $cmd "$tmp/t" >/dev/null 2>"$tmp/err"; then
		echo "FAIL ctf2-memory/$cmd: exit status $?: $(head -c 200 "$tmp/err")"
		continue
	fi
	kib=$(tail -n 1 "$tmp/rss")
	if [ "$kib" -le $((40 * 1024)) ]; then
		echo "PASS ctf2-memory/$cmd: $((kib / 1024)) MiB for a 64 MiB stream"
	else
		echo "FAIL ctf2-memory/$cmd: peak RSS $((kib / 1024)) MiB for a 64 MiB stream (at most 40)"
	fi
done
exit 0
