#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/tracefs/lazy-flag.py IN OUT EVENT PID [COUNT] - a copy of the
trace.dat IN with flag 0x02 set in the common_flags of the first COUNT
(default 5) records of EVENT by task PID whose flags are 0.

Flag 0x02 was "interrupt state not supported" and is, since Linux 6.13,
the lazy need-resched; libtraceevent 1.9 prints it as L in the latency
column, 1.7 and 1.8 as X (doc/formats/tracedat.md §11.3).  A recording
rarely holds one where neither d nor N hides it, so tests/live/tracecmd34.sh
makes some.  IN's ring-buffer pages must not be compressed (a version 6
file, or version 7 without compression) and must be little-endian; each
record starts with common_type (2 bytes), common_flags, common_preempt_count
and common_pid (4 bytes), EVENT's id read from its format text in IN.
Exits 1, writing nothing, when no record matched.
"""
import re
import struct
import sys


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.split("\n\n")[0])
    src, dst, event, pid = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    count = int(sys.argv[5]) if len(sys.argv) == 6 else 5
    data = bytearray(open(src, "rb").read())
    m = re.search(rb"name: " + re.escape(event.encode()) + rb"\nID: (\d+)\n", data)
    if not m:
        sys.exit(f"{src}: no format for event {event}")
    head = struct.pack("<H", int(m.group(1)))
    rec = re.compile(re.escape(head) + rb"\x00.", re.DOTALL)
    tail = struct.pack("<i", pid)
    done = 0
    for r in rec.finditer(data):
        if done == count:
            break
        if data[r.end():r.end() + 4] != tail:
            continue
        data[r.start() + 2] = 0x02
        done += 1
    if not done:
        sys.exit(f"{src}: no record of {event} by {pid} with flags 0")
    open(dst, "wb").write(data)


main()
