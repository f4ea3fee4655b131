#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fuzz/uftrace_seed.py DIR OUT - one seed for fuzz_uftrace: the files
of the uftrace record directory DIR in fuzz_uftrace.c's chunked form (a
byte naming the file, a 16-bit length, the bytes; files are cut into
chunks of at most 65535 bytes).  The first session's map and the main
program's symbols take the names the target gives them, and every
reference to the session id, the tid and the program is rewritten to
match."""
import glob
import os
import re
import sys

# chunks.py sits beside this script; no __pycache__ is left in the tree.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
from chunks import encode  # noqa: E402

FILES = ["info", "task.txt", "sid-0000000000000001.map", "prog.sym", "1.dat", "perf-cpu0.dat",
         "default.opts", "events.txt", "prog.dbg", "libc.so.6.sym", "2.dat"]


def main():
    src, out = sys.argv[1], sys.argv[2]
    task = open(os.path.join(src, "task.txt"), "rb").read()
    sid = re.search(rb"sid=([0-9a-f]{16})", task).group(1)
    tids = sorted(int(os.path.basename(p)[:-4]) for p in glob.glob(os.path.join(src, "[0-9]*.dat")))
    exe = re.search(rb'exename="([^"]*)"', task).group(1)
    base = os.path.basename(exe)

    def fix(data):
        data = data.replace(sid, b"0000000000000001").replace(exe, b"/prog")
        for n, tid in enumerate(tids[:2]):
            data = re.sub(rb"\b%d\b" % tid, str(n + 1).encode(), data)
        return data

    chunks = []
    pick = {
        "info": "info", "task.txt": "task.txt", "sid-0000000000000001.map": "sid-%s.map" % sid.decode(),
        "prog.sym": base.decode() + ".sym", "perf-cpu0.dat": "perf-cpu0.dat", "default.opts": "default.opts",
        "events.txt": "events.txt", "prog.dbg": base.decode() + ".dbg", "libc.so.6.sym": "libc.so.6.sym",
    }
    for n, tid in enumerate(tids[:2]):
        pick["%d.dat" % (n + 1)] = "%d.dat" % tid
    for name, orig in pick.items():
        path = os.path.join(src, orig)
        if not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        if not name.endswith(".dat") or name.startswith("perf"):
            data = fix(data)
        chunks.append(encode(FILES.index(name), data))
    open(out, "wb").write(b"".join(chunks))


main()
