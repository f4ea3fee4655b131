# SPDX-License-Identifier: MIT
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *
MD = '''/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000000000; };
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;
stream { packet.context := struct { ts_t timestamp_begin; ts_t timestamp_end; uint32_t packet_size; uint32_t content_size; };
  event.header := struct { ts_t timestamp; }; };
event { name = "e"; fields := struct { uint32_t v; }; };
'''
def mk(name, packets):
    w = BitWriter()
    for (tb, te, evs) in packets:
        start = w.pos
        w.int(tb, 64); w.int(te, 64)
        pps = w.pos; w.int(0, 32)
        pcs = w.pos; w.int(0, 32)
        for (ts, v) in evs: w.int(ts, 64); w.int(v, 32)
        w.patch_int(pps, w.pos - start, 32); w.patch_int(pcs, w.pos - start, 32)
    write_trace(os.path.join(OUT, name), MD, {'s': w.bytes()})
mk('ev-after-end', [(100, 200, [(150, 1), (250, 2)]), (300, 400, [(350, 3)])])
mk('ev-before-begin', [(100, 200, [(150, 1)]), (300, 400, [(250, 2), (350, 3)])])
mk('pkt-overlap', [(100, 300, [(150, 1)]), (200, 400, [(250, 2)])])
