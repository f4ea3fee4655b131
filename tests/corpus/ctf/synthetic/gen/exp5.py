# SPDX-License-Identifier: MIT
import sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *
MD = '''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 32; align = 32; signed = true; } := int;
trace { major = 1; minor = 8; byte_order = le; };
stream {
  event.header := struct { uint8_t id; uint8_t hlen; };
  event.context := struct { uint8_t clen; enum { X, Y } sel; };
};
event { name = "paths"; id = 0;
  context := struct { uint8_t ectx_len; };
  fields := struct {
    uint8_t a[stream.event.header.hlen];
    uint8_t b[stream.event.context.clen];
    uint8_t c[event.context.ectx_len];
    struct { uint8_t n; struct { uint8_t inner[n]; } s2; } outer;
    enum : uint8_t { X, Y } lsel;
    variant <lsel> { uint8_t X; struct { uint8_t m; } Y; } v1;
  };
};
event { name = "vstruct"; id = 1;
  fields := struct {
    enum : uint8_t { S, T } t;
    variant <t> { struct { uint8_t m; uint8_t k; } S; variant <t> { uint8_t S; uint8_t T; } T; } v;
    uint8_t len;
    variant <t> { uint8_t S; string T; } arr[len];
  };
};
'''
w = BitWriter()
def hdr(eid, hlen, clen, sel):
    w.int(eid, 8); w.int(hlen, 8)
    w.align(32); w.int(clen, 8); w.int(sel, 32, align=32)
hdr(0, 2, 1, 1)
w.int(3, 8)
w.raw(b'\x01\x02'); w.raw(b'\x03'); w.raw(b'\x04\x05\x06')
w.int(2, 8); w.raw(b'\x07\x08')
w.int(1, 8); w.int(9, 8)
hdr(1, 0, 0, 0)
w.int(0, 8); w.int(5, 8); w.int(6, 8); w.int(2, 8); w.int(7, 8); w.int(8, 8)
hdr(1, 0, 0, 0)
w.int(1, 8); w.int(42, 8); w.int(2, 8); w.string('x'); w.string('yy')
write_trace(os.path.join(OUT, 'paths'), MD, {'s': w.bytes()})
