# SPDX-License-Identifier: MIT
import sys, uuid
import os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); OUT = os.environ['SYNTH_OUT']
from ctfgen import *

UUID = uuid.UUID('2a6422d0-6cee-11e0-8c08-cb07d7b3a564')

def make(bo, outdir, with_hostname=True):
    md = f'''/* CTF 1.8 */
typealias integer {{ size = 8; align = 8; signed = false; }} := uint8_t;
typealias integer {{ size = 16; align = 8; signed = false; }} := uint16_t;
typealias integer {{ size = 32; align = 8; signed = false; }} := uint32_t;
typealias integer {{ size = 64; align = 8; signed = false; }} := uint64_t;
typealias integer {{ size = 5; align = 1; signed = false; }} := uint5_t;
typealias integer {{ size = 27; align = 1; signed = false; }} := uint27_t;

trace {{
	major = 1;
	minor = 8;
	uuid = "{UUID}";
	byte_order = {bo};
	packet.header := struct {{
		uint32_t magic;
		uint8_t  uuid[16];
		uint32_t stream_id;
	}};
}};

env {{
	{'hostname = "myhost";' if with_hostname else ''}
	domain = "ust";
	procname = "myproc";
	vpid = 1234;
	some_int = -5;
}};

clock {{
	name = monotonic;
	uuid = "c19b5ac9-b8e6-4f78-be95-a605d04e34c6";
	description = "Monotonic Clock";
	freq = 1000000000;
	offset_s = 1351530929;
	offset = 945824323;
}};

typealias integer {{ size = 27; align = 1; signed = false; map = clock.monotonic.value; }} := uint27_clock_t;
typealias integer {{ size = 64; align = 8; signed = false; map = clock.monotonic.value; }} := uint64_clock_t;

stream {{
	id = 0;
	packet.context := struct {{
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint32_t content_size;
		uint32_t packet_size;
		uint32_t cpu_id;
	}};
	event.header := struct {{
		enum : uint5_t {{ compact = 0 ... 30, extended = 31 }} id;
		variant <id> {{
			struct {{ uint27_clock_t timestamp; }} compact;
			struct {{ uint32_t id; uint64_clock_t timestamp; }} extended;
		}} v;
	}} align(8);
	event.context := struct {{
		integer {{ size = 32; signed = true; }} _vtid;
	}};
}};

event {{
	name = "ints";
	id = 0;
	stream_id = 0;
	fields := struct {{
		integer {{ size = 8; signed = true; base = 2; }} b8s;
		integer {{ size = 3; signed = false; base = 2; }} b3;
		integer {{ size = 13; signed = true; base = 2; align = 1; }} b13s;
		integer {{ size = 8; signed = false; base = 8; }} o8;
		integer {{ size = 8; signed = true; base = 8; }} o8s;
		integer {{ size = 7; signed = true; base = 8; align = 1; }} o7s;
		integer {{ size = 64; signed = true; base = 8; }} o64s;
		integer {{ size = 64; signed = false; base = 8; }} o64;
		integer {{ size = 8; signed = true; base = 16; }} x8s;
		integer {{ size = 10; signed = true; base = 16; align = 1; }} x10s;
		integer {{ size = 64; signed = true; base = 16; }} x64s;
		integer {{ size = 64; signed = false; base = x; }} x64;
		integer {{ size = 64; signed = true; base = 10; }} d64s;
		integer {{ size = 64; signed = false; }} d64;
		integer {{ size = 1; signed = false; align = 1; }} bit1;
		integer {{ size = 1; signed = true; align = 1; }} sbit1;
		integer {{ size = 32; signed = false; byte_order = be; }} be32;
		integer {{ size = 32; signed = false; byte_order = le; }} le32;
		integer {{ size = 32; signed = false; byte_order = network; }} net32;
		integer {{ size = 32; signed = false; byte_order = native; }} nat32;
		integer {{ size = 16; signed = false; encoding = UTF8; }} utf16bits;
		integer {{ size = 8; signed = false; encoding = ASCII; }} chr;
		integer {{ size = 8; signed = true; base = p; }} ptrbase;
	}};
}};

event {{
	name = "enums";
	id = 1;
	stream_id = 0;
	loglevel = 4;
	model.emf.uri = "http://example.com/emf";
	fields := struct {{
		enum : integer {{ size = 8; }} {{ ZERO, ONE, TWO, TEN = 10, ELEVEN, "quoted label" = 20 ... 29, "RANGE2" = 25 ... 35, OVER = 25 }} e1;
		enum : integer {{ size = 8; }} {{ A, B }} e_unknown;
		enum : integer {{ size = 16; signed = true; }} {{ NEG = -10 ... -1, ZERO2 = 0, POS = 1 ... 100 }} e_signed;
		enum : integer {{ size = 8; base = 16; }} {{ HEXA = 0x10 }} e_hex;
		enum : integer {{ size = 8; base = 2; }} {{ BINA = 5 }} e_bin;
		enum : integer {{ size = 8; }} {{ "with \\"esc\\" \\n" = 3 }} e_esc;
	}};
}};

event {{
	name = "floats";
	id = 2;
	stream_id = 0;
	fields := struct {{
		floating_point {{ exp_dig = 8; mant_dig = 24; }} f0;
		floating_point {{ exp_dig = 8; mant_dig = 24; }} f1;
		floating_point {{ exp_dig = 8; mant_dig = 24; }} f2;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d0;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d1;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d2;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d3;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d4;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d5;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d6;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d7;
		floating_point {{ exp_dig = 11; mant_dig = 53; }} d8;
		floating_point {{ exp_dig = 11; mant_dig = 53; byte_order = be; align = 64; }} dbe;
	}};
}};

event {{
	name = "strings";
	id = 3;
	stream_id = 0;
	fields := struct {{
		string s1;
		string s2;
		string {{ encoding = ASCII; }} s3;
		integer {{ size = 8; align = 8; signed = true; encoding = UTF8; }} text[6];
		uint32_t len;
		integer {{ size = 8; align = 8; signed = false; encoding = UTF8; }} tseq[len];
		integer {{ size = 8; align = 8; signed = false; }} notext[3];
		integer {{ size = 8; align = 16; signed = false; encoding = UTF8; }} text_al16[2];
	}};
}};

event {{
	name = "compound";
	id = 4;
	stream_id = 0;
	context := struct {{
		uint8_t ctx_a;
	}};
	fields := struct {{
		uint8_t a2[2][3];
		struct {{ uint8_t x; struct {{ uint16_t y; }} inner; }} st;
		struct {{ }} empty_st;
		uint8_t zero_arr[0];
		uint8_t n;
		uint16_t seq[n];
		struct {{ uint8_t p; uint8_t q; }} arr_st[2];
		enum : uint8_t {{ INT, STR, STRUCT, "_ALIGN" }} tag;
		variant <tag> {{
			uint32_t INT;
			string STR;
			struct {{ uint8_t m; }} STRUCT;
			uint8_t _ALIGN;
		}} var;
		variant <tag> {{
			uint32_t INT;
			string STR;
			struct {{ uint8_t m; }} STRUCT;
			uint8_t _ALIGN;
		}} var_arr[2];
		uint8_t _underscored;
		uint8_t __double;
		uint64_clock_t clockfield;
		uint8_t after_clock;
	}};
}};

event {{
	name = "empty";
	id = 5;
	stream_id = 0;
}};

event {{
	name = "empty_fields";
	id = 6;
	stream_id = 0;
	fields := struct {{ }};
}};
'''
    w = BitWriter()
    B = bo
    # packet header
    w.int(0xC1FC1FC1, 32, B)
    w.raw(UUID.bytes)
    w.int(0, 32, B)
    # packet context
    ts_begin = 1000
    pos_tsb = w.pos; w.int(ts_begin, 64, B)
    pos_tse = w.pos; w.int(0, 64, B)
    pos_cs = w.pos; w.int(0, 32, B)
    pos_ps = w.pos; w.int(0, 32, B)
    w.int(3, 32, B)  # cpu_id

    def header(evid, ts, extended=False):
        w.align(8)
        if not extended and evid < 31:
            w.int(evid, 5, B, 1)
            w.int(ts & ((1 << 27) - 1), 27, B, 1)
        else:
            w.int(31, 5, B, 1)
            w.int(evid, 32, B, 8)
            w.int(ts, 64, B, 8)
        w.int(42 + evid, 32, B)  # vtid stream event context

    # event ints
    header(0, 1500)
    w.int(-3, 8, B)            # b8s
    w.int(5, 3, B, 1)          # b3
    w.int(-2, 13, B, 1)        # b13s
    w.int(8, 8, B)             # o8
    w.int(-1, 8, B)            # o8s
    w.int(-2, 7, B, 1)         # o7s
    w.int(-8, 64, B)           # o64s
    w.int(0o777, 64, B)        # o64
    w.int(-1, 8, B)            # x8s
    w.int(-2, 10, B, 1)        # x10s
    w.int(-1, 64, B)           # x64s
    w.int(0xDEADBEEFCAFEBABE, 64, B)  # x64
    w.int(-9223372036854775808, 64, B)  # d64s
    w.int(18446744073709551615, 64, B)  # d64
    w.int(1, 1, B, 1)          # bit1
    w.int(1, 1, B, 1)          # sbit1 -> -1
    w.int(0x01020304, 32, 'be')
    w.int(0x01020304, 32, 'le')
    w.int(0x01020304, 32, 'be')
    w.int(0x01020304, 32, B)
    w.int(0x4142, 16, B)       # utf16bits
    w.int(0x41, 8, B)          # chr
    w.int(-16, 8, B)           # ptrbase

    # enums (extended header to test)
    header(1, 2000, extended=True)
    w.int(25, 8, B)
    w.int(7, 8, B)
    w.int(-3 & 0xffff, 16, B)
    w.int(0x10, 8, B)
    w.int(5, 8, B)
    w.int(3, 8, B)
    header(1, 2001)
    w.int(11, 8, B)
    w.int(0, 8, B)
    w.int(0, 16, B)
    w.int(0x11, 8, B)
    w.int(6, 8, B)
    w.int(4, 8, B)

    # floats
    header(2, 3000)
    import math
    w.align(64)  # payload struct alignment = max member alignment (dbe: 64)
    w.f32(1.5, B); w.f32(-0.0, B); w.f32(3.4028234663852886e38, B)
    for x in [0.1, 1e-5, 123456789.0, 1e100, float('nan'), float('inf'), -float('inf'), 100000.0, 1e-310]:
        w.f64(x, B)
    w.f64(2.5, 'be', 64)

    # strings
    header(3, 4000)
    w.align(16)  # payload alignment (text_al16)
    w.string(b'hello "world" \\ back\x01\x1b\x7f\t\n\r\x0b\x0c\x07\x08?\'')
    w.string(b'\xc3\xa9t\xc3\xa9 \xff\xfe raw')
    w.string(b'')
    w.raw(b'abc\0de')
    w.int(4, 32, B)
    w.raw(b'wxyz')
    w.raw(b'abc')
    w.align(16); w.raw(b'Q'); w.align(16); w.raw(b'R')

    # compound
    header(4, 5000)
    w.int(7, 8, B)  # event ctx
    for i in range(6): w.int(i, 8, B)
    w.int(9, 8, B); w.int(0x1234, 16, B)
    w.int(3, 8, B)  # n
    for i in range(3): w.int(100 + i, 16, B)
    w.int(1, 8, B); w.int(2, 8, B); w.int(3, 8, B); w.int(4, 8, B)
    w.int(1, 8, B)  # tag = STR
    w.string('variant-string')
    # var_arr: tag is still STR (1) -> two strings
    w.string('v0'); w.string('v1')
    w.int(11, 8, B); w.int(12, 8, B)
    w.int(99999, 64, B)   # clockfield (updates clock!)
    w.int(13, 8, B)

    header(4, 6000)
    w.int(8, 8, B)
    for i in range(6): w.int(i + 10, 8, B)
    w.int(1, 8, B); w.int(2, 16, B)
    w.int(0, 8, B)  # n = 0
    w.int(1, 8, B); w.int(2, 8, B); w.int(3, 8, B); w.int(4, 8, B)
    w.int(3, 8, B)  # tag = _ALIGN
    w.int(77, 8, B)
    w.int(78, 8, B); w.int(79, 8, B)
    w.int(11, 8, B); w.int(12, 8, B)
    w.int(100000, 64, B)
    w.int(14, 8, B)

    header(5, 7000)
    header(6, 7001)
    # wrap test: compact timestamps going over 2^27 boundaries
    base = 7001
    t = (1 << 27) + 5   # low bits 5 < current low bits -> wrap +2^27
    header(5, t)
    header(5, t + 10)
    header(5, (1 << 28) + 3)  # low bits 3 < previous low bits -> wrap again
    header(5, (3 << 27) + 50)  # low bits 50 > prev low 3 -> no wrap detected! (missed wrap)

    w.pad_to_bytes()
    content = w.pos
    # pad packet to 1024 bytes
    total = 1024 * 8
    w.patch_int(pos_tse, 1 << 30, 64, B)
    w.patch_int(pos_cs, content, 32, B)
    w.patch_int(pos_ps, total, 32, B)
    data = w.bytes() + b'\0' * (total // 8 - len(w.bytes()))
    write_trace(outdir, md, {'stream_0': data})

make('le', os.path.join(OUT, 'types-le'))
make('be', os.path.join(OUT, 'types-be'))
make('le', os.path.join(OUT, 'types-le-nohost'), with_hostname=False)
