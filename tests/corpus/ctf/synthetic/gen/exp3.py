# SPDX-License-Identifier: MIT
import sys, uuid
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *

U = uuid.UUID('11111111-2222-3333-4444-555555555555')

MD = '''/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace { major = 1; minor = 8; uuid = "%s"; byte_order = le;
  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; uint32_t stream_instance_id; };
};
env { hostname = "h"; };
clock { name = c; freq = 1000000000; offset_s = 1000; };
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;
stream { id = 0;
  packet.context := struct { ts_t timestamp_begin; ts_t timestamp_end; uint64_t content_size; uint64_t packet_size; uint64_t events_discarded; uint64_t packet_seq_num; uint32_t cpu_id; };
  event.header := struct { uint32_t id; ts_t timestamp; };
};
stream { id = 1;
  packet.context := struct { uint64_t content_size; uint64_t packet_size; };
  event.header := struct { uint32_t id; };
};
event { name = "a"; id = 0; stream_id = 0; fields := struct { uint32_t v; }; };
event { name = "b"; id = 1; stream_id = 0; fields := struct { uint32_t v; }; };
event { name = "nots"; id = 0; stream_id = 1; fields := struct { uint32_t v; }; };
''' % U

def packet(w, sid, inst, tb, te, disc, seq, cpu, events, padbytes=16):
    start = w.pos
    w.int(0xC1FC1FC1, 32); w.raw(U.bytes); w.int(sid, 32); w.int(inst, 32)
    w.int(tb, 64); w.int(te, 64)
    pcs = w.pos; w.int(0, 64)
    pps = w.pos; w.int(0, 64)
    w.int(disc, 64); w.int(seq, 64); w.int(cpu, 32)
    for (eid, ts, v) in events:
        w.int(eid, 32); w.int(ts, 64); w.int(v, 32)
    content = w.pos - start
    w.raw(b'\0' * padbytes)
    total = w.pos - start
    w.patch_int(pcs, content, 64); w.patch_int(pps, total, 64)

# stream file s0: instance 0, 3 packets, discarded events, lost packet seq
w = BitWriter()
packet(w, 0, 0, 100, 200, 0, 0, 0, [(0, 100, 1), (1, 150, 2), (0, 200, 3)])
packet(w, 0, 0, 300, 400, 5, 1, 0, [(0, 300, 4), (1, 350, 5)])
packet(w, 0, 0, 500, 600, 5, 4, 0, [(0, 500, 6)])
s0 = w.bytes()
# stream file s1: instance 1 events with ties against s0
w = BitWriter()
packet(w, 0, 1, 100, 200, 2, 0, 1, [(1, 100, 10), (0, 150, 11), (0, 200, 12)])
s1 = w.bytes()
write_trace(os.path.join(OUT, 'mux'), MD, {'s0': s0, 's1': s1})

# stream class 1 without clock, in same trace -> muxer clock expectation error?
def packet1(w, events, padbytes=8):
    start = w.pos
    w.int(0xC1FC1FC1, 32); w.raw(U.bytes); w.int(1, 32); w.int(7, 32)
    pcs = w.pos; w.int(0, 64)
    pps = w.pos; w.int(0, 64)
    for (eid, v) in events:
        w.int(eid, 32); w.int(v, 32)
    content = w.pos - start
    w.raw(b'\0' * padbytes)
    total = w.pos - start
    w.patch_int(pcs, content, 64); w.patch_int(pps, total, 64)
w = BitWriter(); packet1(w, [(0, 1), (0, 2)])
write_trace(os.path.join(OUT, 'mux-noclock'), MD, {'s0': s0, 's2': w.bytes()})
write_trace(os.path.join(OUT, 'only-noclock'), MD, {'s2': w.bytes()})
