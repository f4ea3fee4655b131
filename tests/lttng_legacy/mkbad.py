#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/lttng_legacy/mkbad.py FIXTURES OUTDIR - damaged copies of the
synthetic legacy LTTng traces in FIXTURES (tests/fixtures/lttng-legacy),
one per kind of damage a reader must report, written to OUTDIR/NAME/ with
OUTDIR/NAME.source naming the intact trace.  tests/run.sh checks that
`tracecat print` prints a prefix of the intact trace's lines, then the one
error line of OUTDIR/NAME.err, and exits 1.  Deterministic."""
import os
import shutil
import struct
import sys


def copy(src_root, out_root, name, source):
    dst = os.path.join(out_root, name)
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(src_root, source), dst)
    with open(os.path.join(out_root, name + ".source"), "w") as f:
        f.write(source + "\n")
    return dst


def patch(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)

    # The file ends 100 bytes into its third block (format 2.3: every
    # block 4096 bytes): the events the file still holds come first.
    d = copy(src, out, "truncated-block", "v23-le-32-align4")
    with open(os.path.join(d, "kernel_1"), "r+b") as f:
        f.truncate(2 * 4096 + 100)

    # The second block of kernel_0 lost its magic number.
    d = copy(src, out, "bad-magic", "v23-le-32-align4")
    patch(os.path.join(d, "kernel_0"), 4096 + 16, b"\0\0\0\0")

    # The first event of kernel_1 (format 2.6, big-endian) now carries
    # compact id 28, which the metadata never describes for kernel.
    d = copy(src, out, "undescribed-id", "v26-be-64")
    path = os.path.join(d, "kernel_1")
    with open(path, "rb") as f:
        word, = struct.unpack_from(">I", f.read(72), 68)
    patch(path, 68, struct.pack(">I", (word & 0x07FFFFFF) | 28 << 27))

    # A facility the trace loads has no XML description beside it.
    d = copy(src, out, "missing-facility", "v07-facilities")
    os.remove(os.path.join(d, "eventdefs", "fs.xml"))

    # A 2.5-style block whose data_size says it was never closed.
    d = copy(src, out, "unclosed-subbuffer", "v26-le-lost")
    patch(os.path.join(d, "kernel_0"), 4096 + 52, b"\xff\xff\xff\xff")

    # The first marker description of metadata_0 (format 2.5, every size 4)
    # says its pointers are 9 bytes, which its "%p" field would read.
    d = copy(src, out, "bad-type-size", "v25-le-32-align4")
    path = os.path.join(d, "metadata_0")
    with open(path, "rb") as f:
        sizes = f.read().index(b"\x04\x04\x04\x04\x04", 68)
    patch(path, sizes + 2, b"\x09")

    # A 0.8 trace with the experimental compact channel, which the reader
    # refuses rather than decoding its headers as ordinary ones.
    d = copy(src, out, "compact-channel", "v08-facilities")
    shutil.copyfile(os.path.join(d, "control", "facilities_0"), os.path.join(d, "control", "compact_0"))


main()
