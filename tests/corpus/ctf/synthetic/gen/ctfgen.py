# SPDX-License-Identifier: MIT
"""Tiny CTF 1.8 trace writer for experiments (bit-exact control over layout)."""
import os, struct, uuid as uuidmod

class BitWriter:
    def __init__(self):
        self.buf = bytearray()
        self.pos = 0  # bits
    def _ensure(self, nbits):
        need = (nbits + 7) // 8
        if len(self.buf) < need:
            self.buf.extend(b'\0' * (need - len(self.buf)))
    def align(self, a):
        if a > 1 and self.pos % a:
            self.pos += a - (self.pos % a)
        self._ensure(self.pos)
    def int(self, v, size, bo='le', align=None):
        if align is None:
            align = 8 if size % 8 == 0 else 1
        self.align(align)
        v &= (1 << size) - 1
        self._ensure(self.pos + size)
        for i in range(size):
            p = self.pos + i
            if bo == 'le':
                bit = (v >> i) & 1
                if bit: self.buf[p // 8] |= 1 << (p % 8)
            else:
                bit = (v >> (size - 1 - i)) & 1
                if bit: self.buf[p // 8] |= 1 << (7 - p % 8)
        self.pos += size
    def raw(self, b, align=8):
        self.align(align)
        assert self.pos % 8 == 0
        self._ensure(self.pos)
        self.buf[self.pos // 8:] = b''  # truncate
        self.buf.extend(b)
        self.pos += 8 * len(b)
    def string(self, s):
        if isinstance(s, str): s = s.encode()
        self.raw(s + b'\0')
    def f64(self, x, bo='le', align=8):
        self.align(align)
        self.int(struct.unpack('<Q', struct.pack('<d', x))[0], 64, bo, 1)
    def f32(self, x, bo='le', align=8):
        self.align(align)
        self.int(struct.unpack('<I', struct.pack('<f', x))[0], 32, bo, 1)
    def patch_int(self, bitpos, v, size, bo='le'):
        save = self.pos
        self.pos = bitpos
        # clear bits
        for i in range(size):
            p = bitpos + i
            if bo == 'le': self.buf[p // 8] &= ~(1 << (p % 8)) & 0xff
            else: self.buf[p // 8] &= ~(1 << (7 - p % 8)) & 0xff
        self.int(v, size, bo, 1)
        self.pos = save
    def pad_to_bytes(self):
        self.align(8)
    def bytes(self):
        return bytes(self.buf[: (self.pos + 7) // 8])

def write_trace(dirname, metadata, streams):
    """streams: dict filename -> bytes"""
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, 'metadata'), 'w') as f:
        f.write(metadata)
    for name, data in streams.items():
        with open(os.path.join(dirname, name), 'wb') as f:
            f.write(data)
