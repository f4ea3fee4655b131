# SPDX-License-Identifier: MIT
import sys, uuid
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *
def mk(path, u, host, vals, with_uuid=True):
    md = '''/* CTF 1.8 */
trace { major = 1; minor = 8; byte_order = le; %s };
env { hostname = "%s"; };
clock { name = c; freq = 1000000000; offset_s = 1000; %s };
stream { event.header := struct { integer { size = 64; align = 8; signed = false; map = clock.c.value; } timestamp; }; };
event { name = "ev"; fields := struct { string who; }; };
''' % (('uuid = "%s";' % u) if with_uuid else '', host, '')
    w = BitWriter()
    for t in vals:
        w.int(t, 64); w.string(path.split('/')[-1])
    write_trace(path, md, {'s': w.bytes()})
base = os.path.join(OUT, 'multi')
mk(base + '/zz', 'aaaaaaaa-0000-0000-0000-000000000000', 'hostB', [10, 20, 30])
mk(base + '/aa', 'bbbbbbbb-0000-0000-0000-000000000000', 'hostA', [10, 20, 30])
mk(base + '/sub/mm', None, 'hostA', [10, 20], with_uuid=False)
mk(base + '/sub/nn', None, 'hostA', [10, 25], with_uuid=False)
