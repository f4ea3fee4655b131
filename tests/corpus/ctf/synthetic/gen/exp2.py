# SPDX-License-Identifier: MIT
import sys
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *

def mk(name, clock, tsvals, map_ts=True, tsbits=64, extra_md=''):
    md = f'''/* CTF 1.8 */
trace {{ major = 1; minor = 8; byte_order = le; }};
{clock}
stream {{
	event.header := struct {{
		integer {{ size = {tsbits}; align = 8; signed = false; {'map = clock.c.value;' if map_ts else ''} }} timestamp;
	}};
}};
event {{ name = "e"; fields := struct {{ integer {{ size = 32; align = 8; signed = false; }} v; }}; }};
{extra_md}
'''
    w = BitWriter()
    for i, t in enumerate(tsvals):
        w.int(t, tsbits, 'le', 8)
        w.int(i, 32, 'le', 8)
    write_trace(os.path.join(OUT, 'clk-') + name, md, {'s': w.bytes()})

mk('freq1000', 'clock { name = c; freq = 1000; offset_s = 100; offset = 500; };', [0, 1, 999, 1000, 123456789])
mk('freq3', 'clock { name = c; freq = 3; };', [0, 1, 2, 3, 4, 10, 3000000000])
mk('freq33M', 'clock { name = c; freq = 33333333; };', [0, 1, 2, 33333333, 33333334, 100000000000])
mk('freq2G', 'clock { name = c; freq = 2000000000; };', [0, 1, 2, 3, 2000000001, 4000000003])
mk('negoffset', 'clock { name = c; freq = 1000000000; offset_s = -10; };', [0, 5000000000, 9999999999, 10000000000, 10000000001])
mk('bigoffset', 'clock { name = c; freq = 1000; offset = 1500; };', [0, 1])
mk('noclock-ts', '', [10, 20, 1000000000], map_ts=False)
mk('oneclock-automap', 'clock { name = c; freq = 1000000000; offset_s = 1600000000; };', [10, 20, 1000000000], map_ts=False)
mk('abs', 'clock { name = c; freq = 1000000000; offset_s = 1600000000; absolute = true; };', [10, 20])
mk('year1900', 'clock { name = c; freq = 1; offset_s = -2208988800; };', [0, 1])
mk('ts32wrap', 'clock { name = c; freq = 1000000000; };', [0xFFFFFFF0, 5, 0xFFFFFF00, 10], tsbits=32)
mk('ts8', 'clock { name = c; freq = 1000000000; };', [250, 5, 6, 255, 0], tsbits=8)
mk('backwards', 'clock { name = c; freq = 1000000000; };', [100, 50, 200])
mk('equal', 'clock { name = c; freq = 1000000000; };', [100, 100, 100])
