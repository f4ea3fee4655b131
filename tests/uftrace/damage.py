#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""damage.py - a copy of a uftrace record directory with records a
recorder writes only when something went wrong, for the replay lines
uftrace prints then (doc/formats/uftrace.md §5.1, §5.3, §9.5).

usage: damage.py SRC OUT KIND

KIND is
  inverted   the 21st record of the first task's .dat gets the time of the
             11th: "inverted time: broken data?" when it is read;
  lostN      a LOST record of count N (0: "LOST some records!!") inserted
             after the 16th record, at that record's depth.

The recording should have no payloads (no -a, -A, -R) in its first 21
records: records are taken as the bare 16 bytes of §5.1.
"""
import glob
import os
import shutil
import struct
import sys

MAGIC = 5
LOST = 2


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, out, kind = sys.argv[1:]
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(src, out)
    dats = sorted(glob.glob(os.path.join(out, "[0-9]*.dat")), key=lambda p: int(os.path.basename(p)[:-4]))
    dat = dats[0]
    with open(dat, "rb") as f:
        data = f.read()
    recs = [list(struct.unpack_from("<QQ", data, i)) for i in range(0, len(data) - 15, 16)]
    if len(recs) < 21:
        sys.exit("%s: fewer than 21 records" % dat)
    if kind == "inverted":
        recs[20][0] = recs[10][0]
    elif kind.startswith("lost") and kind[4:].isdigit():
        depth = (recs[15][1] >> 6) & 0x3FF
        recs.insert(16, [0, LOST | MAGIC << 3 | depth << 6 | int(kind[4:]) << 16])
    else:
        sys.exit("unknown KIND %s" % kind)
    with open(dat, "wb") as f:
        f.write(b"".join(struct.pack("<QQ", *r) for r in recs))


if __name__ == "__main__":
    main()
