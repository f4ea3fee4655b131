# SPDX-License-Identifier: MIT
import sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *

EMPTIES = '''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; %s};
typealias integer { size = 8; align = 8; signed = false; map = clock.c.value; } := clk8;
stream {
  packet.context := struct { };
  event.header := struct { clk8 timestamp; };
  event.context := struct { clk8 only_clock; };
};
event { name = "e"; context := struct { }; fields := struct { uint8_t a; struct { clk8 hidden; } gone; struct { clk8 hidden; uint8_t kept; } partial; clk8 len; uint8_t seq[len]; }; };
'''
data = bytes([5, 6, 1, 7, 8, 2, 1, 10])
write_trace(os.path.join(OUT, 'empties'), EMPTIES % 'freq = 1000000000; ', {'s': data})
write_trace(os.path.join(OUT, 'clock-nofreq'), EMPTIES % '', {'s': data})

# variant tag written as a dotted (absolute) path: rejected by the 2.0.4 parser
VT = '''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
trace { major = 1; minor = 8; byte_order = le; };
stream { event.context := struct { enum : uint8_t { A, B } sel; }; };
event { name = "e"; fields := struct { variant <%s> { uint8_t A; uint16_t B; } v; }; };
'''
write_trace(os.path.join(OUT, 'variant-tag-absolute'), VT % 'stream.event.context.sel', {'s': bytes([0, 7])})
write_trace(os.path.join(OUT, 'variant-tag-other-scope-relative'), VT % 'sel', {'s': bytes([0, 7])})

# variant tag value without a matching option -> decoding error after first event
VU = '''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
event { name = "e"; fields := struct { enum : uint8_t { A = 0, B = 1, C = 2 } sel; variant <sel> { uint8_t A; uint8_t B; } v; }; };
'''
write_trace(os.path.join(OUT, 'variant-no-option'), VU, {'s': bytes([0, 7, 1, 8, 2, 9])})

# byte order change in the middle of a byte -> decoding error
BO = '''/* CTF 1.8 */
trace { major = 1; minor = 8; byte_order = le; };
event { name = "e"; fields := struct {
  integer { size = 4; align = 1; signed = false; byte_order = le; } a;
  integer { size = 4; align = 1; signed = false; byte_order = be; } b;
  integer { size = 8; align = 8; signed = false; byte_order = be; } c;
}; };
'''
write_trace(os.path.join(OUT, 'byte-order-mid-byte'), BO, {'s': bytes([0x21, 0x03])})

# bit-packed fields, both byte orders (same logical values)
def bitpacked(bo):
    md = '''/* CTF 1.8 */
trace { major = 1; minor = 8; byte_order = %s; };
event { name = "bits"; fields := struct {
  integer { size = 10; align = 1; signed = false; } a;
  integer { size = 5; align = 1; signed = false; } b;
  integer { size = 4; align = 1; signed = true; } c;
  integer { size = 7; align = 1; signed = false; base = 16; } d;
  integer { size = 33; align = 1; signed = false; base = 2; } e;
  integer { size = 3; align = 1; signed = true; base = 8; } f;
  integer { size = 8; align = 8; signed = false; } g;
}; };
''' % bo
    w = BitWriter()
    for i in range(3):
        w.int(0x2AB + i, 10, bo, 1); w.int(0x15 - i, 5, bo, 1); w.int(-3 + i, 4, bo, 1)
        w.int(0x5A + i, 7, bo, 1); w.int(0x1DEADBEEF - i, 33, bo, 1); w.int(-1 - i, 3, bo, 1)
        w.int(200 + i, 8, bo, 8)
    write_trace(os.path.join(OUT, 'bitpacked-' + bo), md, {'s': w.bytes()})
bitpacked('le'); bitpacked('be')

# wide hex/octal/binary integers: exposes the 61..63-bit hex quirk of 2.0.4
import struct
HX = '''/* CTF 1.8 */
trace { major = 1; minor = 8; byte_order = le; };
event { name = "h"; fields := struct {
  integer { size = 61; align = 8; signed = false; base = 16; } u61;
  integer { size = 62; align = 8; signed = true; base = 16; } s62;
  integer { size = 63; align = 8; signed = false; base = 16; } u63;
  integer { size = 60; align = 8; signed = true; base = 16; } s60;
  integer { size = 64; align = 8; signed = false; base = 8; } o64;
  integer { size = 63; align = 8; signed = true; base = 8; } o63s;
  integer { size = 62; align = 8; signed = true; base = 8; } o62s;
  integer { size = 64; align = 8; signed = true; base = 2; } b64s;
}; };
'''
d = struct.pack('<8Q', 0x123456789ABCDEF, (1 << 62) - 1, 0x7123456789ABCDEF, (1 << 60) - 2, 0,
                (1 << 63) - 1, (1 << 62) - 1, 5)
write_trace(os.path.join(OUT, 'int-wide-bases'), HX, {'s': d})
