# SPDX-License-Identifier: MIT
"""tests/fuzz/chunks.py - the chunked form in which the file-based fuzz
targets (fuzz_uftrace.c, fuzz_lttng_legacy.c) take their input, shared by
the seed makers beside it: each chunk is a byte naming the file (its index
in the target's FILES), a 16-bit little-endian length and that many bytes;
a file is cut into chunks of at most 65535 bytes (an empty file is one
chunk of length 0)."""
import struct


def encode(index, data):
    """The chunks of DATA, the contents of the file at INDEX, as bytes."""
    out = bytearray()
    for start in range(0, max(len(data), 1), 65535):
        part = data[start:start + 65535]
        out += struct.pack("<BH", index, len(part)) + part
    return bytes(out)
