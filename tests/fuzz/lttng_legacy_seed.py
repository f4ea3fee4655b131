#!/usr/bin/env python3
"""tests/fuzz/lttng_legacy_seed.py DIR OUT - one seed for fuzz_lttng_legacy:
the files of the legacy LTTng trace directory DIR that fuzz_lttng_legacy.c
names (FILES below), in its chunked form: a byte naming the file, a 16-bit
little-endian length, the bytes, files cut into chunks of at most 65535
bytes.  Other files of DIR are left out."""
import os
import struct
import sys

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
        for start in range(0, max(len(data), 1), 65535):
            chunk = data[start:start + 65535]
            seed += struct.pack("<BH", index, len(chunk)) + chunk
    with open(out, "wb") as f:
        f.write(seed)


main()
