#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/fuzz/lttng_legacy_seed.py DIR OUT - one seed for fuzz_lttng_legacy:
the files of the legacy LTTng trace directory DIR that fuzz_lttng_legacy.c
names (FILES below), in its chunked form: a byte naming the file, a 16-bit
little-endian length, the bytes, files cut into chunks of at most 65535
bytes.  Other files of DIR are left out."""
import os
import sys

# chunks.py sits beside this script; no __pycache__ is left in the tree.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
from chunks import encode  # noqa: E402

FILES = ["metadata_0", "metadata_1", "kernel_0", "kernel_1", "fs_0",
         "control/metadata_0", "control/facilities_0", "cpu_0", "cpu_1", "eventdefs/kernel.xml"]


def main():
    src, out = sys.argv[1], sys.argv[2]
    seed = bytearray()
    for index, name in enumerate(FILES):
        path = os.path.join(src, name)
        if not os.path.isfile(path):
            continue
        data = open(path, "rb").read()
        seed += encode(index, data)
    with open(out, "wb") as f:
        f.write(seed)


main()
