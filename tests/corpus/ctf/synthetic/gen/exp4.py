# SPDX-License-Identifier: MIT
import sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *
MD = '''/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000000000; };
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;
stream { packet.context := struct { ts_t timestamp_begin; ts_t timestamp_end; uint32_t packet_size; uint32_t content_size; }; };
event { name = "e"; fields := struct { uint32_t v; }; };
'''
w = BitWriter()
for p, (tb, te) in enumerate([(100, 200), (300, 400)]):
    start = w.pos
    w.int(tb, 64); w.int(te, 64)
    pps = w.pos; w.int(0, 32)
    pcs = w.pos; w.int(0, 32)
    for i in range(2): w.int(10 * p + i, 32)
    content = w.pos - start
    w.raw(b'\xAA' * 4)   # padding garbage
    w.patch_int(pps, w.pos - start, 32); w.patch_int(pcs, content, 32)
write_trace(os.path.join(OUT, 'evnots'), MD, {'s': w.bytes()})

# packetized metadata, big-endian header, 2 packets, with padding
import struct, uuid
text = MD.encode()
U = uuid.UUID('0f0e0d0c-0b0a-4908-8706-050403020100').bytes
def mpkt(chunk, pad):
    content = (37 + len(chunk)) * 8
    total = content + pad * 8
    return struct.pack('>I16sIIIBBBBB', 0x75D11D57, U, 0, content, total, 0, 0, 0, 1, 8) + chunk + b'\0' * pad
half = len(text) // 2
meta = mpkt(text[:half], 13) + mpkt(text[half:], 0)
import os
os.makedirs(os.path.join(OUT, 'pmeta-be'), exist_ok=True)
open(os.path.join(OUT, 'pmeta-be/metadata'), 'wb').write(meta)
open(os.path.join(OUT, 'pmeta-be/s'), 'wb').write(w.bytes())
# text metadata without signature
os.makedirs(os.path.join(OUT, 'nosig'), exist_ok=True)
open(os.path.join(OUT, 'nosig/metadata'), 'w').write(MD.replace('/* CTF 1.8 */\n', ''))
open(os.path.join(OUT, 'nosig/s'), 'wb').write(w.bytes())
# signature with extra text
os.makedirs(os.path.join(OUT, 'sig2'), exist_ok=True)
open(os.path.join(OUT, 'sig2/metadata'), 'w').write(MD.replace('/* CTF 1.8 */', '/* CTF 1.8 produced by foo */'))
open(os.path.join(OUT, 'sig2/s'), 'wb').write(w.bytes())
