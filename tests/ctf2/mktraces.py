#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hand-made CTF 2 traces for testing tracecat's CTF 2 reader.

    python3 tests/ctf2/mktraces.py OUTDIR

writes

* OUTDIR/ctf2/NAME/      traces that babeltrace2 2.1.2 reads (exit 0);
* OUTDIR/ctf2-bad/NAME/  traces that babeltrace2 2.1.2 rejects (exit 1), and
  the traces on which it crashes, each of the latter with a marker file
  OUTDIR/ctf2-bad/NAME.expect-error (a reader must exit 1 cleanly on them).

Each trace directory holds a `metadata` file (a JSON text sequence, CTF2-SPEC-2.0)
and its data stream files.  Only the traces are written, never babeltrace's
reference outputs (tests/ctf2/mkrefs.sh records those), so
`python3 tests/ctf2/mktraces.py tests/fixtures` regenerates the committed traces
in place and the test suite can check that a fresh run reproduces them.

The traces follow CTF2-SPEC-2.0 (cited by section name) and what
babeltrace2 2.1.2 does with it, as doc/formats/ctf.md describes (a bare §N
below is a section of that page); they were written without looking at
tracecat's reader.  Standard library only; the output is the same on every run
(fixed UUIDs, no clocks, no randomness).

    python3 tests/ctf2/mktraces.py --table valid|bad|crash

prints the Markdown case tables used in the fixture READMEs.

How a case is built: field classes are JSON dicts made by the helpers below
(u, s, bits, bitmap, boolean, flt, vu, vs, nts, sls, dls, sblob, dblob, st,
sarr, darr, opt, var, loc); fragments are dicts (or raw bytes for framing
and JSON cases); the data is encoded by Encoder from the field classes and
hand-given values (lengths and selectors are given explicitly, never derived
from field locations), bit by bit following CTF 1.8 §4.1.5 and, for CTF 2's
own kinds and packets, doc/formats/ctf.md §5.2-§5.3; Trace.packet() fills in
the packet total/content lengths.
"""
import json
import os
import shutil
import struct
import sys

RS = b"\x1e"

# ---------------------------------------------------------------------------
# Metadata helpers


def _bo(bo):
    return {"le": "little-endian", "be": "big-endian"}.get(bo, bo)


def _fl(typ, length, bo, align=None, bit_order=None, **extra):
    fc = {"type": typ, "length": length, "byte-order": _bo(bo)}
    if bit_order is not None:
        fc["bit-order"] = bit_order
    if align is not None:
        fc["alignment"] = align
    for k, v in extra.items():
        if v is not None:
            fc[k.replace("_", "-")] = v
    return fc


def u(n, bo="le", align=None, base=None, mappings=None, roles=None, bit_order=None, **kw):
    """Fixed-length unsigned integer (CTF2-SPEC-2.0, fixed-length field classes)."""
    return _fl("fixed-length-unsigned-integer", n, bo, align, bit_order,
               preferred_display_base=base, mappings=mappings, roles=roles, **kw)


def s(n, bo="le", align=None, base=None, mappings=None, bit_order=None, **kw):
    """Fixed-length signed integer (CTF2-SPEC-2.0, fixed-length field classes)."""
    return _fl("fixed-length-signed-integer", n, bo, align, bit_order,
               preferred_display_base=base, mappings=mappings, **kw)


def bits(n, bo="le", align=None, bit_order=None, **kw):
    return _fl("fixed-length-bit-array", n, bo, align, bit_order, **kw)


def bitmap(n, flags, bo="le", align=None, bit_order=None, **kw):
    return _fl("fixed-length-bit-map", n, bo, align, bit_order, flags=flags, **kw)


def boolean(n, bo="le", align=None, bit_order=None, **kw):
    return _fl("fixed-length-boolean", n, bo, align, bit_order, **kw)


def flt(n, bo="le", align=None, bit_order=None, **kw):
    return _fl("fixed-length-floating-point-number", n, bo, align, bit_order, **kw)


def vu(base=None, mappings=None, roles=None, **kw):
    fc = {"type": "variable-length-unsigned-integer"}
    for k, v in (("preferred-display-base", base), ("mappings", mappings), ("roles", roles)):
        if v is not None:
            fc[k] = v
    fc.update(kw)
    return fc


def vs(base=None, mappings=None, **kw):
    fc = {"type": "variable-length-signed-integer"}
    for k, v in (("preferred-display-base", base), ("mappings", mappings)):
        if v is not None:
            fc[k] = v
    fc.update(kw)
    return fc


def nts(enc=None, **kw):
    fc = {"type": "null-terminated-string"}
    if enc is not None:
        fc["encoding"] = enc
    fc.update(kw)
    return fc


def sls(length, enc=None, **kw):
    fc = {"type": "static-length-string", "length": length}
    if enc is not None:
        fc["encoding"] = enc
    fc.update(kw)
    return fc


def dls(location, enc=None, **kw):
    fc = {"type": "dynamic-length-string", "length-field-location": location}
    if enc is not None:
        fc["encoding"] = enc
    fc.update(kw)
    return fc


def sblob(length, media_type=None, roles=None, **kw):
    fc = {"type": "static-length-blob", "length": length}
    if media_type is not None:
        fc["media-type"] = media_type
    if roles is not None:
        fc["roles"] = roles
    fc.update(kw)
    return fc


def dblob(location, media_type=None, **kw):
    fc = {"type": "dynamic-length-blob", "length-field-location": location}
    if media_type is not None:
        fc["media-type"] = media_type
    fc.update(kw)
    return fc


def st(*members, min_align=None, **kw):
    """Structure; members are (name, fc) or (name, fc, {extra member props})."""
    fc = {"type": "structure", "member-classes": []}
    for m in members:
        mc = {"name": m[0], "field-class": m[1]}
        if len(m) > 2:
            mc.update(m[2])
        fc["member-classes"].append(mc)
    if min_align is not None:
        fc["minimum-alignment"] = min_align
    fc.update(kw)
    return fc


def sarr(length, elem, min_align=None, **kw):
    fc = {"type": "static-length-array", "length": length, "element-field-class": elem}
    if min_align is not None:
        fc["minimum-alignment"] = min_align
    fc.update(kw)
    return fc


def darr(location, elem, min_align=None, **kw):
    fc = {"type": "dynamic-length-array", "length-field-location": location,
          "element-field-class": elem}
    if min_align is not None:
        fc["minimum-alignment"] = min_align
    fc.update(kw)
    return fc


def opt(fc, location, ranges=None, **kw):
    o = {"type": "optional", "field-class": fc, "selector-field-location": location}
    if ranges is not None:
        o["selector-field-ranges"] = ranges
    o.update(kw)
    return o


def var(location, *options, **kw):
    """Variant; options are (name or None, ranges, fc) or with a 4th dict of extra props."""
    fc = {"type": "variant", "selector-field-location": location, "options": []}
    for o in options:
        oc = {}
        if o[0] is not None:
            oc["name"] = o[0]
        oc["selector-field-ranges"] = o[1]
        oc["field-class"] = o[2]
        if len(o) > 3:
            oc.update(o[3])
        fc["options"].append(oc)
    fc.update(kw)
    return fc


def loc(*path, origin=None):
    lo = {}
    if origin is not None:
        lo["origin"] = origin
    lo["path"] = list(path)
    return lo


def frag(typ, **kw):
    f = {"type": typ}
    for k, v in kw.items():
        f[k.replace("_", "-")] = v
    return f


def preamble(uuid=None, **kw):
    f = {"type": "preamble", "version": 2}
    if uuid is not None:
        f["uuid"] = list(uuid)
    for k, v in kw.items():
        f[k.replace("_", "-")] = v
    return f


def uuid_bytes(text):
    return bytes.fromhex(text.replace("-", ""))


# ---------------------------------------------------------------------------
# Binary encoding

class Raw:
    """Bytes written as they are (byte-aligned), in place of a field value."""

    def __init__(self, data):
        self.data = bytes(data)


class RawBits:
    """`n` bits of `value` written in byte order `bo`, in place of a field value."""

    def __init__(self, value, n, bo="le"):
        self.value, self.n, self.bo = value, n, bo


class BitWriter:
    def __init__(self):
        self.buf = bytearray()
        self.pos = 0          # in bits
        self.last_bo = None   # byte order of the last fixed-length field
        self.check_bo = True

    def _ensure(self, nbits):
        need = (self.pos + nbits + 7) // 8
        if len(self.buf) < need:
            self.buf.extend(b"\0" * (need - len(self.buf)))

    def align(self, a):
        if self.pos % a:
            self.pos += a - self.pos % a
            self._ensure(0)
            self.last_bo = None if self.pos % 8 == 0 else self.last_bo

    def bits(self, value, n, bo):
        assert 0 <= value < (1 << n), (value, n)
        if self.check_bo and self.pos % 8 and self.last_bo not in (None, bo):
            raise ValueError("byte order change inside a byte at bit %d" % self.pos)
        self._ensure(n)
        for i in range(n):
            q = self.pos + i
            if bo == "le":
                bit = (value >> i) & 1
                shift = q % 8
            else:
                bit = (value >> (n - 1 - i)) & 1
                shift = 7 - q % 8
            if bit:
                self.buf[q // 8] |= 1 << shift
        self.pos += n
        self.last_bo = bo

    def raw(self, data):
        assert self.pos % 8 == 0, "raw bytes at a non-byte boundary"
        self._ensure(0)
        self.buf.extend(data)
        self.pos += 8 * len(data)
        self.last_bo = None

    def bytes(self):
        return bytes(self.buf[: (self.pos + 7) // 8])


def leb128(value, signed=False):
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if signed:
            done = (value == 0 and not b & 0x40) or (value == -1 and b & 0x40)
        else:
            done = value == 0
        out.append(b if done else b | 0x80)
        if done:
            return bytes(out)


ENCODINGS = {"utf-8": ("utf-8", 1), "utf-16le": ("utf-16-le", 2), "utf-16be": ("utf-16-be", 2),
             "utf-32le": ("utf-32-le", 4), "utf-32be": ("utf-32-be", 4)}


def enc_str(text, enc):
    return text.encode(ENCODINGS[enc or "utf-8"][0])


def unit(enc):
    return ENCODINGS[enc or "utf-8"][1]


def rev_bits(v, n):
    r = 0
    for i in range(n):
        if v >> i & 1:
            r |= 1 << (n - 1 - i)
    return r


class Encoder:
    """Encodes field values following a field class (values supplied by hand:
    the encoder never resolves field locations, the caller gives lengths and
    selectors consistently)."""

    def __init__(self, aliases):
        self.aliases = aliases

    def fc(self, fc):
        while isinstance(fc, str):
            fc = self.aliases[fc]
        return fc

    def alignment(self, fc):
        fc = self.fc(fc)
        t = fc["type"]
        if t.startswith("fixed-length-"):
            return fc.get("alignment", 1)
        if t in ("structure",):
            a = fc.get("minimum-alignment", 1)
            for m in fc.get("member-classes", []):
                a = max(a, self.alignment(m["field-class"]))
            return a
        if t in ("static-length-array", "dynamic-length-array"):
            return max(fc.get("minimum-alignment", 1), self.alignment(fc["element-field-class"]))
        if t in ("optional", "variant"):
            return 1
        return 8  # variable-length integers, strings, BLOBs

    def encode(self, w, fc, value, subst=None):
        fc = self.fc(fc)
        t = fc["type"]
        if isinstance(value, Raw):
            w.align(8)
            w.raw(value.data)
            return
        if isinstance(value, RawBits):
            w.bits(value.value, value.n, value.bo)
            return
        if isinstance(value, str) and subst is not None and value in subst and \
                t.startswith("fixed-length-"):
            value = subst[value]
        if t.startswith("fixed-length-"):
            n = fc["length"]
            bo = "le" if fc["byte-order"] == "little-endian" else "be"
            w.align(fc.get("alignment", 1))
            if t == "fixed-length-floating-point-number":
                raw = struct.unpack("<I", struct.pack("<f", value))[0] if n == 32 else \
                    struct.unpack("<Q", struct.pack("<d", value))[0]
            elif t == "fixed-length-boolean":
                raw = (1 if value else 0) if isinstance(value, bool) else value
            else:
                raw = value & ((1 << n) - 1)
            default = "first-to-last" if bo == "le" else "last-to-first"
            if fc.get("bit-order", default) != default:
                raw = rev_bits(raw, n)
            w.bits(raw, n, bo)
        elif t == "variable-length-unsigned-integer":
            w.align(8)
            w.raw(leb128(value))
        elif t == "variable-length-signed-integer":
            w.align(8)
            w.raw(leb128(value, signed=True))
        elif t == "null-terminated-string":
            w.align(8)
            enc = fc.get("encoding")
            w.raw(value if isinstance(value, bytes) else enc_str(value, enc) + b"\0" * unit(enc))
        elif t == "static-length-string":
            w.align(8)
            data = value if isinstance(value, bytes) else enc_str(value, fc.get("encoding"))
            assert len(data) <= fc["length"], (data, fc)
            w.raw(data + b"\0" * (fc["length"] - len(data)))
        elif t == "dynamic-length-string":
            w.align(8)
            w.raw(value if isinstance(value, bytes) else enc_str(value, fc.get("encoding")))
        elif t == "static-length-blob":
            w.align(8)
            assert len(value) == fc["length"]
            w.raw(value)
        elif t == "dynamic-length-blob":
            w.align(8)
            w.raw(value)
        elif t == "structure":
            w.align(self.alignment(fc))
            members = fc.get("member-classes", [])
            assert isinstance(value, dict) and list(value) == [m["name"] for m in members], \
                (list(value), [m["name"] for m in members])
            for m in members:
                self.encode(w, m["field-class"], value[m["name"]], subst)
        elif t in ("static-length-array", "dynamic-length-array"):
            w.align(self.alignment(fc))
            if t == "static-length-array":
                assert len(value) == fc["length"]
            for v in value:
                self.encode(w, fc["element-field-class"], v, subst)
        elif t == "optional":
            if value is not None:
                self.encode(w, fc["field-class"], value, subst)
        elif t == "variant":
            idx, v = value
            self.encode(w, fc["options"][idx]["field-class"], v, subst)
        else:
            raise ValueError(t)


# ---------------------------------------------------------------------------
# Traces

def dump_json(obj, style):
    if style == "compact":
        return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    if style == "indent":
        return json.dumps(obj, ensure_ascii=False, indent=2)
    return json.dumps(obj, ensure_ascii=False)


class Trace:
    def __init__(self, name, doc, style="line"):
        self.name = name
        self.doc = doc
        self.style = style
        self.frags = []          # dicts or raw bytes
        self.aliases = {}
        self.trace_class = None
        self.dscs = {}
        self.files = {}          # relative path -> bytearray
        self.crash = None        # for crash cases: text of the .expect-error marker
        self.enc = Encoder(self.aliases)

    def add(self, f):
        """Adds a fragment (a dict, or raw bytes written as they are)."""
        self.frags.append(f)
        if isinstance(f, dict):
            if f.get("type") == "field-class-alias":
                self.aliases[f.get("name")] = f.get("field-class")
            elif f.get("type") == "trace-class":
                self.trace_class = f
            elif f.get("type") == "data-stream-class":
                self.dscs[f.get("id", 0)] = f
        return f

    def metadata(self):
        out = bytearray()
        for f in self.frags:
            if isinstance(f, (bytes, bytearray)):
                out += f
            else:
                out += RS + dump_json(f, self.style).encode() + b"\n"
        return bytes(out)

    def encode(self, fc, value, w=None, subst=None):
        w = w or BitWriter()
        self.enc.encode(w, fc, value, subst)
        return w

    def packet(self, dsc_id=0, header=None, context=None, events=(), pad=0, total=None,
               writer_check=True):
        """Bytes of one packet.  `events` = list of dicts with keys
        erc (the event record class dict), h, cc, sc, p (values of the four
        scopes, those absent in the classes omitted).  In `context`, the value
        "TOTAL" / "CONTENT" is replaced by the packet's total / content length
        in bits; the packet gets `pad` zero bytes after its content."""
        dsc = self.dscs[dsc_id]

        def build(subst):
            w = BitWriter()
            w.check_bo = writer_check
            ph = self.trace_class.get("packet-header-field-class") if self.trace_class else None
            if ph is not None:
                self.enc.encode(w, ph, header, subst)
            pc = dsc.get("packet-context-field-class")
            if pc is not None:
                self.enc.encode(w, pc, context, subst)
            for ev in events:
                erc = ev["erc"]
                for key, fcname, fcd in (("h", "event-record-header-field-class", dsc),
                                         ("cc", "event-record-common-context-field-class", dsc),
                                         ("sc", "specific-context-field-class", erc),
                                         ("p", "payload-field-class", erc)):
                    if fcd.get(fcname) is not None:
                        self.enc.encode(w, fcd[fcname], ev[key], subst)
                    else:
                        assert key not in ev, (key, erc)
            return w

        w = build({"TOTAL": 0, "CONTENT": 0})
        content = w.pos
        tot = total if total is not None else (content + 7) // 8 * 8 + 8 * pad
        w = build({"TOTAL": tot, "CONTENT": content})
        assert w.pos == content
        data = w.bytes()
        return data + b"\0" * (tot // 8 - len(data)) if tot // 8 > len(data) else data

    def stream(self, path, *packets):
        self.files.setdefault(path, bytearray())
        for p in packets:
            self.files[path] += p

    def write(self, outdir):
        d = os.path.join(outdir, self.name)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        with open(os.path.join(d, "metadata"), "wb") as f:
            f.write(self.metadata())
        for path, data in sorted(self.files.items()):
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "wb") as f:
                f.write(data)
        marker = os.path.join(outdir, self.name + ".expect-error")
        if self.crash is not None:
            with open(marker, "w") as f:
                f.write(self.crash.rstrip("\n") + "\n")
        elif os.path.exists(marker):
            os.remove(marker)


def ev(erc, **scopes):
    e = {"erc": erc}
    e.update(scopes)
    return e


VALID = []
BAD = []


def valid(fn):
    VALID.append(fn)
    return fn


def bad(fn):
    BAD.append(fn)
    return fn


LE, BE = "le", "be"
U8 = u(8)
UUID_A = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564"
UUID_B = "c7ad3e8b-4d34-45b1-9a3f-0f6b0ee9d2a1"
UUID_C = "00112233-4455-6677-8899-aabbccddeeff"


def ts_role(n=64, bo=LE, align=8, **kw):
    return u(n, bo, align=align, roles=["default-clock-timestamp"], **kw)


# ---------------------------------------------------------------------------
# Valid traces: fragments


@valid
def t_basic():
    t = Trace("basic", "smallest trace: preamble without uuid, a data stream class with no "
              "property (id 0 by default), one event record class, one stream file of "
              "payloads only (no packet header/context: one packet up to end of file)")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("x", U8))))
    t.stream("stream", t.packet(events=[ev(e, p={"x": i}) for i in (1, 2, 255)]))
    return t


@valid
def t_framing():
    t = Trace("framing", "JSON text sequence framing accepted by babeltrace (§4.2): a "
              "fragment without LF, one with CRLF, spaces and tabs around the object, "
              "an indented multi-line object, a run of RS bytes; `extensions: {}` on the "
              "preamble")
    t.add(RS + b'{"type":"preamble","version":2,"extensions":{}}')
    t.add(RS + b'{"type":"data-stream-class","id":0}\r\n')
    t.add(RS + RS + b' \t {"type": "event-record-class", "id": 0, "name": "ev",\n'
          b'  "payload-field-class": {\n    "type": "structure",\n'
          b'    "member-classes": [\n      {"name": "x", "field-class":\n'
          b'        {"type": "fixed-length-unsigned-integer", "length": 16,'
          b' "byte-order": "big-endian"}}\n    ]\n  }\n}\n \n')
    w = BitWriter()
    for x in (1, 258, 65535):
        w.bits(x, 16, BE)
    t.stream("stream", w.bytes())
    return t


@valid
def t_attributes_extensions():
    attrs = {"my.org,2024": {"note": "ignored", "n": [1, 2.5, None, True, {"k": "v"}]},
             "empty": {}}
    ext = {}
    x = {"attributes": attrs, "extensions": ext}
    t = Trace("attributes-extensions", "`attributes` (free JSON) and empty `extensions` on "
              "every fragment, field class, member class and variant option; they never "
              "change decoding (§4.3)", style="indent")
    t.add(preamble(**x))
    t.add(frag("field-class-alias", name="byte", field_class=u(8, **x), **x))
    t.add(frag("trace-class", **x))
    t.add(frag("clock-class", id="clk", frequency=1000000000, **x))
    t.add(frag("data-stream-class", default_clock_class_id="clk",
               packet_context_field_class=st(("ts", ts_role(**x), x), **x), **x))
    e = t.add(frag("event-record-class", name="ev",
                   payload_field_class=st(
                       ("a", "byte", x),
                       ("b", s(8, **x), x),
                       ("c", var(loc("a"), (None, [[0, 0]], nts(**x), x),
                                 ("one", [[1, 255]], boolean(8, **x), x), **x), x),
                       ("d", sarr(2, "byte", **x), x),
                       ("e", opt(u(8, **x), loc("b"), [[1, 127]], **x), x),
                       ("f", flt(32, **x), x),
                       ("g", vu(**x), x), ("h", vs(**x), x),
                       ("i", bits(8, **x), x), ("j", bitmap(8, {"F": [[0, 0]]}, **x), x),
                       ("k", sls(2, **x), x), ("l", dls(loc("a"), **x), x),
                       ("m", sblob(1, **x), x), ("n", dblob(loc("a"), **x), x),
                       ("o", darr(loc("a"), "byte", **x), x),
                       **x), **x))
    t.stream("stream", t.packet(context={"ts": 10}, events=[
        ev(e, p={"a": 0, "b": 0, "c": (0, "z"), "d": [1, 2], "e": None, "f": 0.5, "g": 7,
                 "h": -7, "i": 0x81, "j": 1, "k": "ok", "l": b"", "m": b"\x01", "n": b"",
                 "o": []}),
        ev(e, p={"a": 1, "b": 5, "c": (1, True), "d": [3, 4], "e": 9, "f": -2.0, "g": 0,
                 "h": 0, "i": 0, "j": 0, "k": "", "l": b"Q", "m": b"\xff", "n": b"\x02",
                 "o": [8]})]))
    return t



def std_header(with_uuid=True, dsc_id=True, dsid=True, bo=LE):
    """LTTng-like packet header: magic, metadata stream UUID, data stream class
    id, data stream id (CTF2-SPEC-2.0, roles)."""
    m = [("magic", u(32, bo, align=8, base=16, roles=["packet-magic-number"]))]
    if with_uuid:
        m.append(("uuid", sblob(16, roles=["metadata-stream-uuid"])))
    if dsc_id:
        m.append(("stream_id", u(32, bo, align=8, roles=["data-stream-class-id"])))
    if dsid:
        m.append(("stream_instance_id", u(64, bo, align=8, roles=["data-stream-id"])))
    return st(*m)


def hdr_val(uuid=None, dsc=None, dsid=None):
    v = {"magic": 0xC1FC1FC1}
    if uuid is not None:
        v["uuid"] = uuid_bytes(uuid)
    if dsc is not None:
        v["stream_id"] = dsc
    if dsid is not None:
        v["stream_instance_id"] = dsid
    return v


@valid
def t_trace_class():
    t = Trace("trace-class", "preamble with uuid; trace class with namespace, name, uid, "
              "environment (string and integer values, negative, zero, INT64 limits, "
              "empty value, non-ASCII) and a packet header with magic (base 16), "
              "metadata-stream-uuid BLOB, data-stream-class-id (u8) and data-stream-id (u16 "
              "BE) roles; data stream class id 7 selected by the header; packet context with "
              "total/content lengths; 3 packets with padding in one stream file")
    t.add(preamble(uuid_bytes(UUID_A)))
    t.add(frag("trace-class", namespace="tracecat.test,2025", name="the trace", uid=UUID_A,
               environment={"hostname": "host-a", "domain": "test", "procname": "prog",
                            "vpid": 1234, "zero": 0, "negative": -42,
                            "int64_max": 9223372036854775807,
                            "int64_min": -9223372036854775808,
                            "empty value": "", "ünïcode": "värde ✓",
                            "quote\"back\\slash": "tab\there"},
               packet_header_field_class=st(
                   ("magic", u(32, LE, align=8, base=16, roles=["packet-magic-number"])),
                   ("uuid", sblob(16, roles=["metadata-stream-uuid"])),
                   ("dsc", u(8, roles=["data-stream-class-id"])),
                   ("stream", u(16, BE, roles=["data-stream-id"])))))
    t.add(frag("data-stream-class", id=7, packet_context_field_class=st(
        ("total", u(32, LE, align=8, roles=["packet-total-length"])),
        ("content", u(32, LE, align=8, roles=["packet-content-length"])),
        ("extra", u(16, LE, align=8)))))
    e = t.add(frag("event-record-class", id=0, data_stream_class_id=7, name="ev",
                   payload_field_class=st(("x", u(32, align=32)), ("s", nts()))))
    pk = []
    for i, pad in enumerate((0, 3, 17)):
        pk.append(t.packet(7, header={"magic": 0xC1FC1FC1, "uuid": uuid_bytes(UUID_A),
                                      "dsc": 7, "stream": 3},
                           context={"total": "TOTAL", "content": "CONTENT", "extra": 100 + i},
                           events=[ev(e, p={"x": 10 * i + k, "s": "p%d e%d" % (i, k)})
                                   for k in range(i + 1)], pad=pad))
    t.stream("stream3", *pk)
    return t



# ---------------------------------------------------------------------------
# Valid traces: clocks


def clock_trace(name, doc, clock, begin, stamps, hdr_fc=None, end=None, payload=True, style="line"):
    """One clock, packet context with begin (and end) timestamp, event header
    with a timestamp field; `stamps` = the raw header timestamp values."""
    t = Trace(name, doc, style)
    t.add(preamble())
    t.add(clock)
    pc = [("tb", ts_role())]
    if end is not None:
        pc.append(("te", u(64, align=8, roles=["packet-end-default-clock-timestamp"])))
    t.add(frag("data-stream-class", default_clock_class_id=clock["id"],
               packet_context_field_class=st(*pc),
               event_record_header_field_class=st(("ts", hdr_fc or ts_role()))))
    e = t.add(frag("event-record-class", name="ev",
                   payload_field_class=st(("x", U8)) if payload else None))
    if not payload:
        del e["payload-field-class"]
    ctx = {"tb": begin}
    if end is not None:
        ctx["te"] = end
    evs = []
    for i, v in enumerate(stamps):
        evs.append(ev(e, h={"ts": v}, p={"x": i + 1}) if payload else ev(e, h={"ts": v}))
    t.stream("stream", t.packet(context=ctx, events=evs))
    return t


@valid
def t_clock_unix_epoch():
    return clock_trace(
        "clock-unix-epoch", "a worked example: 1 GHz clock with origin unix-epoch and "
        "offset {seconds 1700000000, cycles 5}, u64 packet-context and event-header "
        "timestamps; plus a packet end timestamp",
        frag("clock-class", id="c", frequency=1000000000, origin="unix-epoch",
             offset_from_origin={"seconds": 1700000000, "cycles": 5}),
        0, [1000, 2500, 2500, 999999999995, 1000000000000], end=1000000000000)


@valid
def t_clock_all_properties():
    return clock_trace(
        "clock-all-properties", "clock class with every property: id, frequency 1000 Hz "
        "(cycles → ns in double), namespace, name, uid, description, custom origin object "
        "{namespace, name, uid}, offset-from-origin with negative seconds and non-zero "
        "cycles, precision, accuracy; times before the origin print negative (with the "
        "stderr warning), then cross zero",
        frag("clock-class", id="my clock", frequency=1000, namespace="tracecat.test,2025",
             name="wall", uid="clock-uid-1", description="A clock with\teverything",
             origin={"namespace": "tracecat.test,2025", "name": "boot", "uid": "boot-0001"},
             offset_from_origin={"seconds": -3, "cycles": 250},
             precision=2, accuracy=5),
        0, [0, 1, 999, 2749, 2750, 2751, 5000, 123456], end=200000)


@valid
def t_clock_origin_partial():
    return clock_trace(
        "clock-origin-partial", "clock with a custom origin object without namespace, "
        "offset with only seconds, frequency 1, 16-bit BE event timestamps",
        frag("clock-class", id="slow", frequency=1, origin={"name": "o", "uid": "u"},
             offset_from_origin={"seconds": 86399}),
        5, [5, 6, 60, 3600], hdr_fc=ts_role(16, BE))


@valid
def t_clock_freq3():
    return clock_trace(
        "clock-freq3", "a worked example (§6.1): frequency 3, offset {seconds 10, cycles 2}, clock "
        "values 1, 2, 4 (cyc→ns truncated separately); clock without origin nor identity; "
        "events without payload",
        frag("clock-class", id="c3", frequency=3, offset_from_origin={"seconds": 10, "cycles": 2}),
        0, [1, 2, 4], payload=False)


@valid
def t_clock_negative():
    return clock_trace(
        "clock-negative", "negative offset seconds with cycles only (offset {seconds: -10}) "
        "and 2 GHz frequency: first times negative (stderr warning), crossing the origin",
        frag("clock-class", id="neg", frequency=2000000000, offset_from_origin={"seconds": -10},
             origin="unix-epoch"),
        0, [0, 3, 19999999999, 20000000000, 20000000001, 40000000000])


@valid
def t_clock_wrap():
    return clock_trace(
        "clock-wrap", "wraparound (§6.2): 8-bit event timestamps 250, 5, 5, 4 after a packet "
        "beginning at 0 → 250, 261, 261, 516 ns; then 0 (wrap) and 255",
        frag("clock-class", id="c", frequency=1000000000),
        0, [250, 5, 5, 4, 0, 255], hdr_fc=ts_role(8, align=1))



# ---------------------------------------------------------------------------
# Valid traces: fixed-length field classes

ID8_HEADER = st(("id", u(8, roles=["event-record-class-id"])))

SPEC_FLAGS = {"b": [[0, 0]], "A": [[1, 1]], "a": [[0, 1]], "Z": [[15, 15]], "x y": [[3, 4]],
              "q\"uote": [[8, 8]]}


@valid
def t_bit_arrays():
    t = Trace("bit-arrays", "fixed-length bit arrays (1, 12, 64-bit BE aligned, 64-bit all "
              "ones), booleans (1, 3, 8, 16 BE, 64 bits; true iff any bit set), bit maps: "
              "a worked example (§9.13; flags sorted with strcmp, escaped names, flag over a range), a "
              "BE 8-bit map with overlapping ranges, a map with multi-range flags")
    t.add(preamble())
    t.add(frag("data-stream-class", event_record_header_field_class=ID8_HEADER))
    e1 = t.add(frag("event-record-class", id=0, name="bitarray", payload_field_class=st(
        ("b1", bits(1)), ("ba", bits(12)), ("p", u(3)), ("bb", bits(64, BE, align=8)),
        ("ones", bits(64, LE, align=8)))))
    e2 = t.add(frag("event-record-class", id=1, name="bool", payload_field_class=st(
        ("b", boolean(8)), ("b3", boolean(3)), ("pad", u(5)), ("b1", boolean(1)),
        ("b16", boolean(16, BE, align=8)), ("b64", boolean(64, LE, align=8)))))
    e3 = t.add(frag("event-record-class", id=2, name="bitmap", payload_field_class=st(
        ("bm", bitmap(16, SPEC_FLAGS)),
        ("be", bitmap(8, {"SALUT": [[1, 3]], "MEOW": [[2, 5]], "MIX": [[7, 7]]}, BE)),
        ("multi", bitmap(32, {"low": [[0, 3], [28, 31]], "mid": [[12, 19]],
                              "one": [[20, 20], [22, 22]]}, LE, align=8)))))
    evs = [
        ev(e1, h={"id": 0}, p={"b1": 1, "ba": 0x234, "p": 5, "bb": 0x102030405060708,
                              "ones": (1 << 64) - 1}),
        ev(e1, h={"id": 0}, p={"b1": 0, "ba": 0, "p": 0, "bb": 0, "ones": 0x8000000000000000}),
        ev(e2, h={"id": 1}, p={"b": 0, "b3": 0, "pad": 0, "b1": 0, "b16": 0, "b64": 0}),
        ev(e2, h={"id": 1}, p={"b": 1, "b3": 1, "pad": 0, "b1": 1, "b16": 0x8000,
                              "b64": 1 << 63}),
        ev(e2, h={"id": 1}, p={"b": 0x80, "b3": 4, "pad": 31, "b1": 1, "b16": 1, "b64": 1}),
        ev(e2, h={"id": 1}, p={"b": 0xFF, "b3": 7, "pad": 0, "b1": 0, "b16": 0xFFFF,
                              "b64": (1 << 64) - 1}),
    ]
    for bm, be, multi in ((0, 0, 0), (3, 2, 1), (0x8018, 0x12, 1 << 29), (0x100, 0xFF, 0x000FF000),
                          (0x40, 0x10, 1 << 22), (0xFFFF, 0x01, 0x00200000)):
        evs.append(ev(e3, h={"id": 2}, p={"bm": bm, "be": be, "multi": multi}))
    t.stream("stream", t.packet(events=evs))
    return t


@valid
def t_bit_order():
    t = Trace("bit-order", "non-default bit orders (§5.2): a worked example (bytes 33 33 00 01 "
              "00 01 → 3, 12, 3, 12, 32768, 128), and a bit map, a boolean, a bit array, a "
              "signed integer and 32-bit floats with reversed bit order")
    t.add(preamble())
    t.add(frag("data-stream-class", event_record_header_field_class=ID8_HEADER))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(
        ("be_ltf", u(4, BE)), ("be_ftl", u(4, BE, bit_order="first-to-last")),
        ("le_ftl", u(4, LE)), ("le_ltf", u(4, LE, bit_order="last-to-first")),
        ("be16ftl", u(16, BE, bit_order="first-to-last")),
        ("le16ltf", u(16, LE, bit_order="last-to-first")))))
    e2 = t.add(frag("event-record-class", id=1, name="others", payload_field_class=st(
        ("bm", bitmap(8, {"bit0": [[0, 0]], "bit7": [[7, 7]]}, LE, bit_order="last-to-first")),
        ("bo", boolean(8, BE, bit_order="first-to-last")),
        ("ba", bits(12, LE, bit_order="last-to-first")), ("p", u(4)),
        ("sn", s(8, BE, bit_order="first-to-last")),
        ("f", flt(32, LE, bit_order="last-to-first")),
        ("fb", flt(32, BE, bit_order="first-to-last", align=8)))))
    w = BitWriter()
    w.raw(b"\x00\x33\x33\x00\x01\x00\x01")
    t.encode(ID8_HEADER, {"id": 1}, w)
    t.encode(e2["payload-field-class"], {"bm": 0x01, "bo": 0x80, "ba": 0x001, "p": 0,
                                         "sn": 0x01, "f": 1.5, "fb": -0.25}, w)
    t.encode(ID8_HEADER, {"id": 1}, w)
    t.encode(e2["payload-field-class"], {"bm": 0x80, "bo": 0x01, "ba": 0x800, "p": 0,
                                         "sn": -128, "f": -2.0, "fb": 3.0}, w)
    t.stream("stream", w.bytes())
    return t



INT_MEMBERS = [
    ("u1", u(1)), ("u3_b2", u(3, base=2)), ("s5_b2", s(5, base=2)), ("u7_b8", u(7, base=8)),
    ("s7_b8", s(7, base=8)), ("u13_b16", u(13, base=16)), ("s13_b16", s(13, base=16)),
    ("s2", s(2)), ("u9_be", u(9, BE, align=8)), ("s11_be_b16", s(11, BE, base=16)),
    ("u17_be_b2", u(17, BE, base=2)), ("s31_be_b8", s(31, BE, base=8)), ("u33_be", u(33, BE)),
    ("s63_be_b16", s(63, BE, base=16)), ("u63_b16", u(63, BE, base=16)),
    ("u61_b16", u(61, BE, base=16)), ("u62_b16", u(62, BE, base=16)),
    ("u60_b16", u(60, BE, base=16)), ("s64_be_b8", s(64, BE, base=8)),
    ("u64_b2", u(64, LE, align=64, base=2)), ("s64", s(64, LE, align=8)),
    ("u64_b16", u(64, LE, align=8, base=16)), ("s64_b16", s(64, LE, align=8, base=16)),
    ("s33", s(33, LE)), ("u32_a32_b8", u(32, LE, align=32, base=8)),
    ("u16_a16_be_b16", u(16, BE, align=16, base=16)), ("s8_a4", s(8, LE, align=4)),
    ("s10_10", s(10, LE, base=10)), ("u8_a2", u(8, LE, align=2)), ("u6", u(6)),
]


@valid
def t_integers():
    t = Trace("integers", "fixed-length integers: odd lengths 1-64, signed and unsigned, "
              "every preferred display base (2, 8, 10 explicit and default, 16), both byte "
              "orders, bit-packed and aligned (2 to 64); minimum, maximum, -1, zero and "
              "patterns; the 61-63-bit hexadecimal quirk")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="ints", payload_field_class=st(*INT_MEMBERS)))
    rows = []
    for kind in ("zero", "max", "min", "minus1", "one", "pattern"):
        row = {}
        for name, fc in INT_MEMBERS:
            n = fc["length"]
            signed = fc["type"].endswith("signed-integer") and "unsigned" not in fc["type"]
            lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)
            row[name] = {"zero": 0, "max": hi, "min": lo, "minus1": -1 if signed else hi - 1,
                         "one": 1 if n > 1 or not signed else -1,
                         "pattern": (0x5A5A5A5A5A5A5A5A >> (64 - n)) if not signed
                         else -((0x2D2D2D2D2D2D2D2D >> (64 - n)) or 1)}[kind]
        rows.append(row)
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t



def _labels(prefix, count, rng):
    return {"%s%02d" % (prefix, i): rng(i) for i in range(count)}


MAPPING_MEMBERS = [
    ("e", u(8, mappings={"ONE": [[1, 1]], "LOW": [[0, 3]], "HIGH": [[200, 255]]})),
    ("se", s(8, mappings={"NEG": [[-128, -1]], "ZERO": [[0, 0]]})),
    ("two", u(8, mappings={"first": [[0, 9]], "second": [[5, 15]]})),
    ("c3", u(8, mappings={"c": [[0, 0]], "b": [[0, 0]], "a": [[0, 0]]})),
    ("z4", u(8, mappings={"zeta": [[0, 10]], "alpha": [[0, 10]], "mid": [[0, 10]],
                          "beta": [[0, 10]]})),
    ("six", u(16, BE, align=8, mappings={
        "red": [[0, 100]], "green": [[50, 150]], "blue": [[100, 100]],
        "cyan": [[90, 110], [300, 400]], "magenta": [[1, 1], [100, 200]],
        "yellow": [[99, 101]]})),
    ("twelve", u(32, LE, align=8, mappings=_labels("L", 12, lambda i: [[0, 7 + i], [1000, 1000 + i]]))),
    ("thirty", s(32, LE, align=8, mappings=_labels(
        "label_", 31, lambda i: [[-i, i]] if i % 2 else [[-100, -50], [0, 0], [i, i]]))),
    ("hex", u(16, LE, align=8, base=16, mappings={"A": [[16, 16]], "B": [[0, 15], [17, 65535]]})),
    ("bin", s(6, LE, base=2, mappings={"minus": [[-32, -1]]})),
    ("oct", u(10, LE, base=8, mappings={"oct": [[8, 8], [64, 64]]})),
    ("empty", u(8, align=8, mappings={})),
    ("odd names", u(8, mappings={"quote\"": [[1, 1]], "back\\slash": [[1, 2]], "tab\there": [[2, 2]],
                                 "ünï ✓": [[3, 3]], "_under": [[3, 3]], " ": [[4, 4]]})),
    ("u64", u(64, LE, align=8, mappings={"MAX": [[18446744073709551615, 18446744073709551615]],
                                         "ZERO": [[0, 0]], "ALL": [[0, 18446744073709551615]]})),
    ("s64", s(64, BE, align=8, mappings={"MIN": [[-9223372036854775808, -9223372036854775808]],
                                         "MAX": [[9223372036854775807, 9223372036854775807]],
                                         "ALL": [[-9223372036854775808, 9223372036854775807]]})),
    ("vu", vu(mappings={"small": [[0, 127]], "big": [[128, 18446744073709551615]]})),
    ("vs", vs(base=16, mappings={"neg": [[-9223372036854775808, -1]], "pos": [[1, 100]]})),
]

MAPPING_ROWS = [
    dict(e=1, se=-128, two=7, c3=0, z4=5, six=100, twelve=7, thirty=0, hex=16, bin=-1, oct=8,
         empty=3, **{"odd names": 1}, u64=18446744073709551615, s64=-9223372036854775808,
         vu=127, vs=-1),
    dict(e=9, se=5, two=3, c3=1, z4=11, six=101, twelve=1005, thirty=-1, hex=15, bin=5, oct=64,
         empty=0, **{"odd names": 2}, u64=0, s64=9223372036854775807, vu=128, vs=100),
    dict(e=200, se=0, two=12, c3=0, z4=10, six=350, twelve=20, thirty=29, hex=17, bin=-32, oct=9,
         empty=255, **{"odd names": 3}, u64=5, s64=0, vu=18446744073709551615, vs=0),
    dict(e=0, se=-1, two=200, c3=0, z4=0, six=1, twelve=1011, thirty=-75, hex=0, bin=31, oct=0,
         empty=1, **{"odd names": 4}, u64=1, s64=-1, vu=0, vs=-9223372036854775808),
]


@valid
def t_mappings():
    t = Trace("mappings", "integers with mappings (enumerations, §9.9): one label, no label, "
              "several labels printed in braces in babeltrace's hash-table order (Appendix B: "
              "sets of 2, 3, 4, 6, 12 and 31 labels, including spec examples `ONE/LOW`, "
              "`c, b, a` and `zeta, alpha, mid, beta`), multi-range labels, display bases of the "
              "container, empty mappings, label names to escape, 64-bit limits, "
              "variable-length integers with mappings")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="enums", payload_field_class=st(*MAPPING_MEMBERS)))
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in MAPPING_ROWS]))
    return t



@valid
def t_floats():
    t = Trace("floats", "32- and 64-bit floating point numbers in both byte orders, aligned "
              "and bit-packed: zeros, signed zero, integers, fractions, %g exponent "
              "thresholds, denormals, limits, infinities, NaNs (raw bit patterns)")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="floats", payload_field_class=st(
        ("f32le", flt(32, LE, align=32)), ("f32be", flt(32, BE, align=8)),
        ("f64le", flt(64, LE, align=64)), ("f64be", flt(64, BE, align=8)),
        ("p3", u(3, LE)), ("f32pk", flt(32, LE)), ("p5", u(5, LE)))))
    vals32 = [0.0, -0.0, 1.0, -1.5, 0.1, 3.4028234663852886e+38, 1.1754943508222875e-38,
              1.401298464324817e-45, 123456.0, 1234567.0, 12345678.0, 0.0001, 0.00001,
              float("inf"), float("-inf")]
    vals64 = [0.0, -0.0, 1.0, -1.5, 0.1, 1.7976931348623157e+308, 2.2250738585072014e-308,
              5e-324, 123456.0, 1234567.0, 1e16, 0.0001, 1e-05, float("inf"), float("-inf")]
    rows = []
    for i, (a, b) in enumerate(zip(vals32, vals64)):
        rows.append({"f32le": a, "f32be": vals32[-1 - i], "f64le": b, "f64be": vals64[-1 - i],
                     "p3": i % 8, "f32pk": a, "p5": 0})
    nan_rows = [(0x7FC00000, 0x7FF8000000000000), (0xFFC00000, 0xFFF8000000000000),
                (0x7F800001, 0x7FF0000000000001)]
    for a, b in nan_rows:
        rows.append({"f32le": RawBits(a, 32, LE), "f32be": RawBits(a, 32, BE),
                     "f64le": RawBits(b, 64, LE), "f64be": RawBits(b, 64, BE),
                     "p3": 7, "f32pk": RawBits(a, 32, LE), "p5": 31})
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t



@valid
def t_varints():
    t = Trace("varints", "variable-length (LEB128) integers (§5.2): minimal and non-minimal "
              "encodings, 10-byte maxima, signed limits, every display base (printed as 64-bit "
              "values), byte alignment after bit-packed fields")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="vl", payload_field_class=st(
        ("a", u(3)), ("u", vu()), ("s", vs()), ("ux", vu(base=16)), ("so", vs(base=8)),
        ("ub", vu(base=2)), ("sx", vs(base=16)), ("sd", vs(base=10)))))
    rows = [
        # spec examples: 624485 = E5 8E 26, -123456 = C0 BB 78
        {"a": 5, "u": 624485, "s": -123456, "ux": 255, "so": -1, "ub": 5, "sx": -1, "sd": 0},
        {"a": 0, "u": Raw(b"\x81\x80\x80\x00"), "s": Raw(b"\xff\x00"), "ux": Raw(b"\x80\x00"),
         "so": Raw(b"\x80\x7f"), "ub": 0, "sx": Raw(b"\xff\xff\xff\x7f"), "sd": Raw(b"\x80\x80\x00")},
        {"a": 7, "u": Raw(b"\xff" * 9 + b"\x01"), "s": -9223372036854775808,
         "ux": 18446744073709551615, "so": 9223372036854775807, "ub": 1 << 63,
         "sx": Raw(b"\x80" * 9 + b"\x7f"), "sd": Raw(b"\xff" * 9 + b"\x00")},
        {"a": 1, "u": 127, "s": 63, "ux": 128, "so": 64, "ub": 16383, "sx": -64, "sd": -65},
        {"a": 2, "u": Raw(b"\x80" * 9 + b"\x01"), "s": Raw(b"\x80" * 9 + b"\x00"),
         "ux": Raw(b"\xff" * 8 + b"\x00"), "so": Raw(b"\x7f"), "ub": Raw(b"\xc0\x00"),
         "sx": Raw(b"\x40"), "sd": Raw(b"\xc0\x00")},
    ]
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t



ENCS = ["utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be"]
TEXTS = ["", "hé", "h€😀", "quote\" back\\slash tab\t nl\n cr\r bell\a esc\x1b del\x7f ?'",
         "日本語テキスト"]


@valid
def t_strings_null_terminated():
    t = Trace("strings-null-terminated", "null-terminated strings in UTF-8 (default and "
              "explicit), UTF-16LE/BE and UTF-32LE/BE: empty, non-ASCII, astral (surrogate "
              "pairs), characters to escape; a UTF-16 code unit 0x4100 (the zero byte is not a "
              "terminator off a unit boundary, §5.2); invalid UTF-8 passed through")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    members = [("default", nts())] + [(enc, nts(enc)) for enc in ENCS] + [("p", u(8))]
    e = t.add(frag("event-record-class", name="nt", payload_field_class=st(*members)))
    evs = []
    for i, text in enumerate(TEXTS):
        p = {"default": text}
        p.update({enc: text for enc in ENCS})
        p["p"] = i
        evs.append(ev(e, p=p))
    p = {"default": b"\xff\xfe bad \xc3\x28 utf8\0", "utf-8": b"A\0",
         "utf-16le": b"\x00\x41\x41\x00\x00\x00", "utf-16be": b"\x41\x00\x00\x41\x00\x00",
         "utf-32le": b"\x00\x41\x00\x00\x41\x00\x00\x00\x00\x00\x00\x00",
         "utf-32be": b"\x00\x00\x01\x00\x00\x00\x00\x00", "p": 99}
    evs.append(ev(e, p=p))
    t.stream("stream", t.packet(events=evs))
    return t


@valid
def t_strings_sized():
    t = Trace("strings-sized", "static-length and dynamic-length strings in every encoding "
              "(§5.2; CTF2-SPEC-2.0, string field classes): value up to the first zero code unit, the rest is padding "
              "(garbage after the terminator is ignored), length 0, full length without "
              "terminator, dynamic length from an earlier u8 and from a variable-length integer")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    members = [("a", sls(8)), ("b", sls(6, "utf-16le")), ("c", sls(0)), ("d", sls(3))]
    for enc in ENCS:
        members.append(("s_" + enc, sls(12, enc)))
    for enc in ENCS:
        members.append(("n_" + enc, u(8)))
        members.append(("d_" + enc, dls(loc("n_" + enc), enc)))
    members.append(("vn", vu()))
    members.append(("vd", dls(loc("vn"))))
    e = t.add(frag("event-record-class", name="sized", payload_field_class=st(*members)))
    evs = []
    # Worked row: 61 62 00 63 64 65 66 67 | 78 00 79 00 00 00 | | 61 62 63
    base = {"a": b"ab\0cdefg", "b": b"x\0y\0\0\0", "c": b"", "d": b"abc"}
    for i, text in enumerate(["", "hé", "h€😀", "x\ty\"z", "日本"]):
        p = dict(base)
        for enc in ENCS:
            data = enc_str(text, enc)
            p["s_" + enc] = data + b"\0" * (12 - len(data)) if len(data) <= 12 else data[:12]
        for enc in ENCS:
            data = enc_str(text, enc) + (b"\0" * unit(enc) + b"junk" if i % 2 else b"")
            p["n_" + enc] = len(data)
            p["d_" + enc] = data
        p["vn"] = 3 if i else 0
        p["vd"] = b"xyz" if i else b""
        evs.append(ev(e, p=p))
    # full-length values without terminator, garbage after a terminator
    p = {"a": b"12345678", "b": b"a\0b\0c\0", "c": b"", "d": b"\0zz"}
    for enc in ENCS:
        data = enc_str("abc", enc)
        p["s_" + enc] = (data + b"\0" * unit(enc) + b"\xff" * 12)[:12] if unit(enc) < 4 else \
            enc_str("abc", enc)
    for enc in ENCS:
        p["n_" + enc] = 0
        p["d_" + enc] = b""
    p["vn"] = 1
    p["vd"] = b"\0"
    evs.append(ev(e, p=p))
    t.stream("stream", t.packet(events=evs))
    return t



@valid
def t_blobs():
    t = Trace("blobs", "static-length BLOBs (1, 4, 16 bytes; default and explicit media "
              "types) and dynamic-length BLOBs (length 0, from a u8, a BE u16 and a "
              "variable-length integer); alignment 8 after bit-packed fields")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="blobs", payload_field_class=st(
        ("a", sblob(4)), ("one", sblob(1, "application/x-one")),
        ("u", sblob(16, "application/x-uuid")), ("n", U8),
        ("d", dblob(loc("n"), "text/plain; charset=utf-8")),
        ("bit", u(1)), ("n16", u(16, BE, align=8)), ("d16", dblob(loc("n16"))),
        ("vn", vu()), ("vd", dblob(loc("vn"), "image/png")))))
    rows = [
        {"a": b"\xde\xad\xbe\xef", "one": b"\x00", "u": uuid_bytes(UUID_A), "n": 3,
         "d": b"a\n\xff", "bit": 1, "n16": 0, "d16": b"", "vn": 0, "vd": b""},
        {"a": b"\x00\x00\x00\x00", "one": b"\x7f", "u": bytes(range(16)), "n": 0, "d": b"",
         "bit": 0, "n16": 300, "d16": bytes(i % 256 for i in range(300)), "vn": 2,
         "vd": b"\x89P"},
    ]
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t


@valid
def t_structs_arrays():
    t = Trace("structs-arrays", "structures (empty, nested, minimum-alignment 8/32/64, "
              "alignment from members), static-length arrays (length 0 with minimum-alignment "
              "still aligning, arrays of structures, of arrays, of booleans with "
              "minimum-alignment 16), dynamic-length arrays (length 0, from a VL integer, "
              "of dynamic arrays, of strings)")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="compound", payload_field_class=st(
        ("a", U8),
        ("s", st(("b", U8), min_align=32)),
        ("c", U8),
        ("empty", st()),
        ("nested", st(("x", u(4)), ("inner", st(("y", u(4)), ("z", st(("w", u(8)))))))),
        ("flags", sarr(4, boolean(1), min_align=16)), ("p", u(4)),
        ("zero", sarr(0, U8, min_align=64)), ("after_zero", U8),
        ("pts", sarr(2, st(("x", s(16, LE, align=16)), ("y", s(16, LE, align=16))))),
        ("matrix", sarr(2, sarr(3, u(4)))),
        ("n", vu()), ("dyn", darr(loc("n"), u(16, BE, align=8), min_align=32)),
        ("m", U8), ("dyn0", darr(loc("m"), U8, min_align=64)), ("after_dyn0", U8),
        ("k", U8), ("rows", darr(loc("k"), st(("len", U8), ("v", darr(loc("len"), U8))))),
        ("words", sarr(3, nts())),
        ("al", st(("q", U8), min_align=8)))))
    rows = [
        {"a": 1, "s": {"b": 2}, "c": 3, "empty": {}, "nested": {"x": 1, "inner": {"y": 2, "z": {"w": 3}}},
         "flags": [True, False, True, False], "p": 10, "zero": [], "after_zero": 4,
         "pts": [{"x": -1, "y": 1}, {"x": 300, "y": -300}], "matrix": [[1, 2, 3], [4, 5, 15]],
         "n": 2, "dyn": [0x1234, 0xFFFF], "m": 0, "dyn0": [], "after_dyn0": 5,
         "k": 2, "rows": [{"len": 1, "v": [7]}, {"len": 0, "v": []}],
         "words": ["one", "", "three"], "al": {"q": 6}},
        {"a": 255, "s": {"b": 0}, "c": 0, "empty": {}, "nested": {"x": 0, "inner": {"y": 15, "z": {"w": 0}}},
         "flags": [False, False, False, True], "p": 0, "zero": [], "after_zero": 0,
         "pts": [{"x": 0, "y": 0}, {"x": 1, "y": 2}], "matrix": [[0, 0, 0], [0, 0, 0]],
         "n": 0, "dyn": [], "m": 3, "dyn0": [1, 2, 3], "after_dyn0": 9,
         "k": 0, "rows": [], "words": ["a", "b", "c"], "al": {"q": 0}},
    ]
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t



@valid
def t_optionals():
    t = Trace("optionals", "optionals (§5.2) with a boolean selector (8-bit and 1-bit), an "
              "unsigned integer selector with several ranges, a signed selector with negative "
              "ranges, a variable-length selector, one selector shared by two optionals, "
              "optional structures, arrays and strings, an optional whose content aligns itself")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="opt", payload_field_class=st(
        ("f", boolean(8)), ("o", opt(U8, loc("f"))),
        ("sel", s(8)), ("o2", opt(nts(), loc("sel"), [[-5, -1], [10, 10]])),
        ("us", u(16, LE, align=8)), ("o3", opt(st(("x", U8), ("y", nts())), loc("us"),
                                                [[1, 1], [100, 200], [65535, 65535]])),
        ("b1", boolean(1)), ("o4", opt(u(32, LE, align=32), loc("b1"))), ("p", u(7)),
        ("vsel", vs()), ("o5", opt(sarr(2, U8), loc("vsel"), [[-9223372036854775808, -1]])),
        ("o6", opt(dls(loc("us"), ), loc("vsel"), [[-9223372036854775808, -1]])),
        ("tail", U8))))
    rows = [
        # A worked example, then variations
        {"f": True, "o": 42, "sel": -2, "o2": "neg", "us": 0, "o3": None, "b1": True,
         "o4": 0xDEADBEEF, "p": 1, "vsel": -1, "o5": [1, 2], "o6": b"", "tail": 1},
        {"f": False, "o": None, "sel": 0, "o2": None, "us": 1, "o3": {"x": 9, "y": "one"},
         "b1": False, "o4": None, "p": 2, "vsel": 0, "o5": None, "o6": None, "tail": 2},
        {"f": 0x10, "o": 7, "sel": 10, "o2": "ten", "us": 150, "o3": {"x": 1, "y": ""},
         "b1": False, "o4": None, "p": 127, "vsel": 5, "o5": None, "o6": None, "tail": 3},
        {"f": False, "o": None, "sel": -6, "o2": None, "us": 3, "o3": None, "b1": True,
         "o4": 1, "p": 0, "vsel": -100, "o5": [9, 9], "o6": b"abc", "tail": 4},
        {"f": False, "o": None, "sel": 11, "o2": None, "us": 65535, "o3": {"x": 255, "y": "max"},
         "b1": False, "o4": None, "p": 5, "vsel": 1, "o5": None, "o6": None, "tail": 5},
    ]
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t


@valid
def t_variants():
    t = Trace("variants", "variants (§5.2): signed selector with negative ranges (a worked "
              "example), unsigned selector with several ranges per option, options with and "
              "without names, a variant nested in a variant option, a variant selected by a "
              "variable-length integer and by a 64-bit value, a variant used as a dynamic "
              "array length (all options unsigned integers), a variant inside an array element "
              "with a relative selector")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    inner = var(loc("k"), ("small", [[0, 9]], u(8)), (None, [[10, 19]], nts()))
    e = t.add(frag("event-record-class", name="var", payload_field_class=st(
        ("sel", s(8)),
        ("v", var(loc("sel"), ("neg", [[-10, -1]], nts()), ("mid", [[0, 0], [5, 6]], u(16)),
                  (None, [[7, 7]], st(("x", U8), ("y", U8))))),
        ("us", u(8)), ("k", u(8)),
        ("nest", var(loc("us"), ("plain", [[0, 0]], U8),
                     ("deep", [[1, 1], [3, 3]], st(("k", U8), ("inner", inner))),
                     (None, [[2, 2]], inner))),
        ("vsel", vu()),
        ("vv", var(loc("vsel"), ("zero", [[0, 0]], st()),
                   ("big", [[1, 18446744073709551615]], boolean(8)))),
        ("lsel", U8),
        ("len", var(loc("lsel"), ("l8", [[0, 0]], U8), ("l16", [[1, 1]], u(16, BE, align=8)))),
        ("a", darr(loc("len"), U8)),
        ("items", sarr(2, st(("t", U8), ("val", var(loc("t"), ("i", [[0, 0]], s(32, LE, align=8)),
                                                     ("s", [[1, 1]], nts())))))),
        ("s64", s(64, LE, align=8)),
        ("w", var(loc("s64"), ("min", [[-9223372036854775808, -9223372036854775808]], U8),
                  ("rest", [[-9223372036854775807, 9223372036854775807]], nts()))))))
    rows = [
        {"sel": -1, "v": (0, "m1"), "us": 0, "k": 0, "nest": (0, 9), "vsel": 0, "vv": (0, {}),
         "lsel": 0, "len": (0, 1), "a": [9],
         "items": [{"t": 0, "val": (0, -5)}, {"t": 1, "val": (1, "x")}],
         "s64": -9223372036854775808, "w": (0, 1)},
        {"sel": 5, "v": (1, 0x1234), "us": 1, "k": 0, "nest": (1, {"k": 12, "inner": (1, "deep")}),
         "vsel": 300, "vv": (1, True), "lsel": 1, "len": (1, 2), "a": [8, 9],
         "items": [{"t": 1, "val": (1, "")}, {"t": 1, "val": (1, "y")}],
         "s64": 9223372036854775807, "w": (1, "max")},
        {"sel": 7, "v": (2, {"x": 1, "y": 2}), "us": 2, "k": 3, "nest": (2, (0, 3)),
         "vsel": 18446744073709551615, "vv": (1, False), "lsel": 1, "len": (1, 0), "a": [],
         "items": [{"t": 0, "val": (0, 2147483647)}, {"t": 0, "val": (0, -2147483648)}],
         "s64": 0, "w": (1, "zero")},
        {"sel": 0, "v": (1, 0), "us": 3, "k": 15, "nest": (1, {"k": 5, "inner": (0, 255)}),
         "vsel": 0, "vv": (0, {}), "lsel": 0, "len": (0, 0), "a": [],
         "items": [{"t": 0, "val": (0, 0)}, {"t": 1, "val": (1, "z")}],
         "s64": -1, "w": (1, "m")},
    ]
    t.stream("stream", t.packet(events=[ev(e, p=r) for r in rows]))
    return t



@valid
def t_field_locations():
    t = Trace("field-locations", "field locations (CTF2-SPEC-2.0, field locations): absolute from each of the six origins "
              "(packet header, packet context, event record header, common context, specific "
              "context, payload), relative ones: sibling, `[null, \"n\"]` from a nested "
              "structure and from inside array elements, a path descending into an earlier "
              "structure, the element-local `[\"n\"]` inside array elements, a selector in a "
              "variant option")
    t.add(preamble())
    t.add(frag("trace-class", packet_header_field_class=st(("hn", U8))))
    t.add(frag("data-stream-class",
               packet_context_field_class=st(("pn", U8), ("parr", darr(loc("hn", origin="packet-header"), U8)),
                                             ("prel", darr(loc("pn"), u(4))), ("pp", u(4))),
               event_record_header_field_class=st(("id", u(8, roles=["event-record-class-id"])),
                                                  ("en", U8)),
               event_record_common_context_field_class=st(
                   ("cn", U8), ("cstr", dls(loc("en", origin="event-record-header"))))))
    e = t.add(frag("event-record-class", id=3, name="locs",
                   specific_context_field_class=st(
                       ("sn", U8), ("sarr", darr(loc("cn", origin="event-record-common-context"), U8))),
                   payload_field_class=st(
                       ("a", darr(loc("pn", origin="packet-context"), U8)),
                       ("b", dblob(loc("sn", origin="event-record-specific-context"))),
                       ("n", U8),
                       ("s", st(("c", darr(loc(None, "n"), U8)), ("n", U8), ("d", darr(loc("n"), U8)),
                                ("e", darr(loc(None, "n"), U8)))),
                       ("arr", sarr(2, st(("n", U8), ("d", darr(loc("n"), U8)),
                                          ("x", darr(loc(None, "n"), U8))))),
                       ("down", darr(loc("s", "n"), U8)),
                       ("abs", darr(loc("s", "n", origin="event-record-payload"), U8)),
                       ("hdr", dls(loc("hn", origin="packet-header"))),
                       ("o", var(loc("n"), ("zero", [[0, 0]], U8),
                                 ("more", [[1, 255]], st(("m", U8), ("l", darr(loc("m"), U8)),
                                                         ("l2", darr(loc(None, "n"), U8))))))
                   )))

    def payload(n, sn_n):
        return {"a": [0xA] * 2, "b": bytes(range(sn_n)), "n": n,
                "s": {"c": [1] * n, "n": 2, "d": [2, 2], "e": [3] * n},
                "arr": [{"n": 1, "d": [4], "x": [5] * n}, {"n": 0, "d": [], "x": [6] * n}],
                "down": [7, 7], "abs": [8, 8], "hdr": "hi",
                "o": (0, 9) if n == 0 else (1, {"m": 1, "l": [10], "l2": [11] * n})}

    evs = [ev(e, h={"id": 3, "en": 2}, cc={"cn": 1, "cstr": "ab"}, sc={"sn": 2, "sarr": [0xC]},
              p=payload(1, 2)),
           ev(e, h={"id": 3, "en": 0}, cc={"cn": 0, "cstr": ""}, sc={"sn": 0, "sarr": []},
              p=payload(0, 0)),
           ev(e, h={"id": 3, "en": 3}, cc={"cn": 2, "cstr": "xyz"}, sc={"sn": 1, "sarr": [1, 2]},
              p=payload(2, 1))]
    t.stream("stream", t.packet(header={"hn": 2}, context={"pn": 2, "parr": [0xB, 0xB],
                                                           "prel": [1, 2], "pp": 0}, events=evs))
    return t



# ---------------------------------------------------------------------------
# Valid traces: roles, packets, streams


def lttng_header(id_bits=5):
    """LTTng compact (5-bit id) or large (16-bit id) event header."""
    if id_bits == 5:
        idfc = u(5, mappings={"compact": [[0, 30]], "extended": [[31, 31]]},
                 roles=["event-record-class-id"])
        compact = st(("timestamp", u(27, roles=["default-clock-timestamp"])))
        sel_c, sel_e = [[0, 30]], [[31, 31]]
    else:
        idfc = u(16, align=8, mappings={"compact": [[0, 65534]], "extended": [[65535, 65535]]},
                 roles=["event-record-class-id"])
        compact = st(("timestamp", u(32, align=8, roles=["default-clock-timestamp"])))
        sel_c, sel_e = [[0, 65534]], [[65535, 65535]]
    extended = st(("id", u(32, align=8, roles=["event-record-class-id"])),
                  ("timestamp", u(64, align=8, roles=["default-clock-timestamp"])))
    return st(("id", idfc),
              ("v", var(loc("id"), ("compact", sel_c, compact), ("extended", sel_e, extended))),
              min_align=8)


def lttng_packet_context():
    return st(("timestamp_begin", u(64, align=8, roles=["default-clock-timestamp"])),
              ("timestamp_end", u(64, align=8, roles=["packet-end-default-clock-timestamp"])),
              ("content_size", u(64, align=8, roles=["packet-content-length"])),
              ("packet_size", u(64, align=8, roles=["packet-total-length"])),
              ("packet_seq_num", u(64, align=8, roles=["packet-sequence-number"])),
              ("events_discarded", u(64, align=8,
                                     roles=["discarded-event-record-counter-snapshot"])),
              ("cpu_id", u(32, align=8)))


class LttngClock:
    """Chooses compact or extended headers like LTTng: compact when the 27-bit
    value rebuilds the time (§6.2), else extended."""

    def __init__(self, bits=27):
        self.cur = 0
        self.bits = bits

    def set(self, v):
        self.cur = v

    def header(self, erc_id, time, compact_ids=31):
        """Header value for event record class `erc_id` at clock value `time`;
        `compact_ids` = the id value that means "extended" (31 or 65535)."""
        mask = (1 << self.bits) - 1
        low = time & mask
        rebuilt = ((self.cur & ~mask) + (1 << self.bits) if low < (self.cur & mask) else
                   self.cur & ~mask) | low
        if erc_id < compact_ids and rebuilt == time:
            self.cur = time
            return {"id": erc_id, "v": (0, {"timestamp": low})}
        self.cur = time
        return {"id": compact_ids, "v": (1, {"id": erc_id, "timestamp": time})}


@valid
def t_lttng_like():
    t = Trace("lttng-like", "an LTTng-UST-like trace: trace class namespace "
              "lttng.org,2009 with empty name and uid, LTTng environment (hostname, domain, "
              "tracer name/version, procname, vpid), clock `monotonic` (unix-epoch origin, uid, "
              "description, precision), packet header magic/uuid/stream_id/stream_instance_id, "
              "LTTng packet context with every packet role and a plain cpu_id, compact/extended "
              "event headers (5-bit id with mappings + variant, ids above 30 and timestamp gaps "
              "of 2^27 or more force extended headers; 27-bit timestamps wrapping), a common "
              "context, log levels and EMF URI in the lttng.org,2009 attributes; two streams "
              "(two CPUs), two packets each, interleaved by time; 3 discarded events "
              "(stderr warning) in stream 0 and a missing packet (sequence number jump) in "
              "stream 1", style="indent")
    t.add(preamble(uuid_bytes(UUID_B)))
    t.add(frag("trace-class", namespace="lttng.org,2009", name="", uid=UUID_B,
               environment={"hostname": "tchost", "domain": "ust", "tracer_name": "lttng-ust",
                            "tracer_major": 2, "tracer_minor": 13, "tracer_patchlevel": 5,
                            "trace_buffering_scheme": "uid", "architecture_bit_width": 64,
                            "trace_name": "tcsession", "trace_creation_datetime": "20250101T000000+0000",
                            "product_uuid": UUID_C, "procname": "tc_app", "vpid": 4242},
               packet_header_field_class=std_header()))
    t.add(frag("clock-class", id="monotonic", name="monotonic", uid=UUID_C,
               description="Monotonic Clock", frequency=1000000000, precision=0,
               origin="unix-epoch", offset_from_origin={"seconds": 1735689600, "cycles": 123456789}))
    t.add(frag("data-stream-class", id=0, default_clock_class_id="monotonic",
               packet_context_field_class=lttng_packet_context(),
               event_record_header_field_class=lttng_header(),
               event_record_common_context_field_class=st(("vtid", s(32, LE, align=8)),
                                                          ("procname", sls(17)))))
    lv = lambda level, **kw: {"lttng.org,2009": dict({"log-level": level}, **kw)}
    e0 = t.add(frag("event-record-class", id=0, name="tc:start", attributes=lv("info"),
                    payload_field_class=st(("n", s(32, LE, align=8)))))
    e1 = t.add(frag("event-record-class", id=1, name="tc:msg", attributes=lv("debug:line"),
                    payload_field_class=st(("_msg_length", u(32, LE, align=8)),
                                           ("msg", dls(loc("_msg_length"))))))
    e40 = t.add(frag("event-record-class", id=40, name="tc:rare",
                     attributes=lv("warning", **{"emf-uri": "https://example.com/rare"}),
                     payload_field_class=st(("x", u(64, LE, align=8, base=16)))))
    e2 = t.add(frag("event-record-class", id=2, name="tc:empty"))

    def packets(cpu, plan, seqs, discarded):
        clk = LttngClock()
        out = []
        for (begin, end, evs), seq, disc in zip(plan, seqs, discarded):
            clk.set(begin)
            items = []
            for time, erc, p in evs:
                h = clk.header(erc["id"], time)
                e = ev(erc, h=h, cc={"vtid": 100 + cpu, "procname": "tc_app"})
                if p is not None:
                    e["p"] = p
                items.append(e)
            out.append(t.packet(0, header=hdr_val(UUID_B, 0, cpu),
                                context={"timestamp_begin": begin, "timestamp_end": end,
                                         "content_size": "CONTENT", "packet_size": "TOTAL",
                                         "packet_seq_num": seq, "events_discarded": disc,
                                         "cpu_id": cpu},
                                events=items, pad=13))
        return out

    msg = lambda text: {"_msg_length": len(text), "msg": text}
    W = 1 << 27
    s0 = [(1000, 5000, [(1000, e0, {"n": 0}), (1500, e1, msg("hello")), (W - 1, e1, msg("wrap-")),
                        (W + 10, e1, msg("wrapped")), (3 * W + 5, e40, {"x": 0xDEADBEEF})]),
          (4 * W, 5 * W, [(4 * W + 1, e2, None), (4 * W + 2, e0, {"n": -1}),
                          (5 * W - 1, e1, msg(""))])]
    s0[0] = (s0[0][0], 3 * W + 100, s0[0][2])
    s1 = [(1200, 2 * W, [(1200, e1, msg("cpu1")), (1501, e0, {"n": 1}), (W + 3, e2, None)]),
          (3 * W + 200, 6 * W, [(3 * W + 300, e40, {"x": 1}), (5 * W, e1, msg("last"))])]
    t.stream("chan_0", *packets(0, s0, [0, 1], [0, 3]))
    t.stream("chan_1", *packets(1, s1, [0, 2], [0, 0]))
    return t



@valid
def t_multi_stream():
    t = Trace("multi-stream", "three data stream classes (ids 0, 1, 5) selected by a u16 BE "
              "data-stream-class-id, two clock classes (1 GHz and 1 kHz, both unix-epoch) one "
              "of them shared by two data stream classes, data-stream-id grouping (one stream "
              "split across two files, two streams of the same class), several packets per "
              "stream with sequence numbers and begin/end timestamps, events ordered by time "
              "across streams including equal times (ties), event record class ids per data "
              "stream class (same id 0 in each)")
    t.add(preamble(uuid_bytes(UUID_C)))
    t.add(frag("trace-class", namespace="tracecat.test,2025", name="multi", uid=UUID_C,
               environment={"hostname": "mhost"},
               packet_header_field_class=st(
                   ("magic", u(32, BE, align=8, roles=["packet-magic-number"])),
                   ("uuid", sblob(16, roles=["metadata-stream-uuid"])),
                   ("dsc", u(16, BE, align=8, roles=["data-stream-class-id"])),
                   ("sid", u(32, BE, align=8, roles=["data-stream-id"])))))
    t.add(frag("clock-class", id="ns", frequency=1000000000, origin="unix-epoch",
               offset_from_origin={"seconds": 1000}))
    t.add(frag("clock-class", id="ms", frequency=1000, origin="unix-epoch",
               offset_from_origin={"seconds": 1000, "cycles": 1}))
    pc = lambda: st(("size", u(32, BE, align=8, roles=["packet-total-length"])),
                    ("csize", u(32, BE, align=8, roles=["packet-content-length"])),
                    ("tb", u(64, BE, align=8, roles=["default-clock-timestamp"])),
                    ("te", u(64, BE, align=8, roles=["packet-end-default-clock-timestamp"])),
                    ("seq", u(8, BE, align=8, roles=["packet-sequence-number"])))
    eh = lambda: st(("id", u(8, BE, align=8, roles=["event-record-class-id"])),
                    ("ts", u(32, BE, align=8, roles=["default-clock-timestamp"])))
    t.add(frag("data-stream-class", id=0, namespace="tracecat.test,2025", name="zero",
               uid="dsc-zero", default_clock_class_id="ns",
               packet_context_field_class=pc(), event_record_header_field_class=eh()))
    t.add(frag("data-stream-class", id=1, name="one", default_clock_class_id="ms",
               packet_context_field_class=pc(), event_record_header_field_class=eh()))
    t.add(frag("data-stream-class", id=5, name="five", default_clock_class_id="ns",
               packet_context_field_class=pc(), event_record_header_field_class=eh()))
    ercs = {}
    for d in (0, 1, 5):
        for i in (0, 1):
            ercs[d, i] = t.add(frag("event-record-class", id=i, data_stream_class_id=d,
                                    name="d%d_e%d" % (d, i),
                                    payload_field_class=st(("v", u(16, BE, align=8)))))

    def pk(d, sid, seq, tb, te, evs):
        return t.packet(d, header={"magic": 0xC1FC1FC1, "uuid": uuid_bytes(UUID_C), "dsc": d, "sid": sid},
                        context={"size": "TOTAL", "csize": "CONTENT", "tb": tb, "te": te, "seq": seq},
                        events=[ev(ercs[d, i], h={"id": i, "ts": ts}, p={"v": v}) for i, ts, v in evs],
                        pad=2)
    MS = 1000000
    # data stream class 0, stream 0 in two files; stream 1
    t.stream("zero_0_a", pk(0, 0, 0, 0, 2 * MS, [(0, 1 * MS, 1), (1, 2 * MS, 2)]))
    t.stream("zero_0_b", pk(0, 0, 1, 3 * MS, 5 * MS, [(0, 3 * MS, 3), (0, 5 * MS, 4)]))
    t.stream("zero_1", pk(0, 1, 0, 0, 6 * MS, [(1, 2 * MS, 10), (0, 2 * MS + 1, 11), (1, 6 * MS, 12)]))
    # data stream class 1 (1 kHz clock, offset 1 ms)
    t.stream("one_7", pk(1, 7, 0, 0, 3, [(0, 0, 20), (1, 1, 21), (1, 3, 22)]),
             pk(1, 7, 1, 4, 9, [(0, 4, 23), (1, 6, 24)]))
    # data stream class 5 shares clock ns
    t.stream("five_0", pk(5, 0, 0, 1 * MS, 4 * MS, [(0, 1 * MS, 30), (1, 4 * MS, 31)]))
    return t


@valid
def t_no_clock_streams():
    t = Trace("no-clock-streams", "two data stream classes without clocks, two stream files "
              "each with two packets (packet total length only, no content length): events "
              "without timestamps ordered by babeltrace's muxer")
    t.add(preamble())
    t.add(frag("trace-class", packet_header_field_class=st(
        ("dsc", u(8, roles=["data-stream-class-id"])))))
    for d in (0, 1):
        t.add(frag("data-stream-class", id=d, packet_context_field_class=st(
            ("len", u(16, LE, align=8, roles=["packet-total-length"])))))
    e0 = t.add(frag("event-record-class", data_stream_class_id=0, name="a",
                    payload_field_class=st(("v", U8))))
    e1 = t.add(frag("event-record-class", data_stream_class_id=1, name="b",
                    payload_field_class=st(("v", U8))))
    for d, e in ((0, e0), (1, e1)):
        t.stream("s%d" % d, *[t.packet(d, header={"dsc": d}, context={"len": "TOTAL"},
                                       events=[ev(e, p={"v": 10 * d + 2 * k + j}) for j in range(2)])
                              for k in range(2)])
    return t



# ---------------------------------------------------------------------------
# Valid traces: names, scopes, attributes, environment


@valid
def t_names():
    t = Trace("names", "names printed verbatim (§4.3): event record classes without a name "
              "(`<unknown>`), names with a leading underscore or two, a tab, spaces, a "
              "trailing space, quotes, non-ASCII, a name that is only spaces; the same for "
              "member and variant option names; namespace and uid on event record classes")
    t.add(preamble())
    t.add(frag("data-stream-class", event_record_header_field_class=ID8_HEADER))
    members = [("_x", U8), ("__y", U8), ("a b", U8), ("tab\there", U8), ("trail ", U8),
               (" ", U8), ("quo\"te", U8), ("ünï", U8), ("_", U8),
               ("v", var(loc("_x"), ("_opt", [[0, 0]], U8), ("tab\topt", [[1, 1]], U8)))]
    names = [None, "_ev", "__ev", "tab\tev", "spaced name ", "   ", "quo\"te:ev", "événement"]
    ercs = []
    for i, n in enumerate(names):
        kw = {"name": n} if n is not None else {}
        if i == 2:
            kw.update(namespace="ns", uid="uid-2")
        ercs.append(t.add(frag("event-record-class", id=i, payload_field_class=st(*members), **kw)))
    evs = []
    for i, e in enumerate(ercs):
        p = {m[0]: i for m in members[:-1]}
        p["_x"] = i % 2
        p["v"] = (i % 2, 100 + i)
        evs.append(ev(e, h={"id": i}, p=p))
    t.stream("stream", t.packet(events=evs))
    return t


LOG_LEVELS = ["emergency", "alert", "critical", "error", "warning", "notice", "info",
              "debug:system", "debug:program", "debug:process", "debug:module", "debug:unit",
              "debug:function", "debug:line", "debug"]


@valid
def t_log_levels():
    t = Trace("log-levels", "event record class attributes (§9.14): each of the 15 log level "
              "names under babeltrace.org,2020 and under lttng.org,2009; unknown level "
              "strings, a non-string level; EMF URIs under either namespace; babeltrace.org,2020 "
              "taking precedence over lttng.org,2009 for both keys; the environment's hostname, "
              "procname and vpid for `-f` output")
    t.add(preamble())
    t.add(frag("trace-class", environment={"hostname": "lvhost", "procname": "lvproc", "vpid": -5,
                                           "domain": "kernel"}))
    t.add(frag("clock-class", id="c", frequency=1000000000, origin="unix-epoch",
               offset_from_origin={"seconds": 1600000000}))
    t.add(frag("data-stream-class", default_clock_class_id="c",
               packet_context_field_class=st(("tb", ts_role())),
               event_record_header_field_class=st(("id", u(8, roles=["event-record-class-id"])),
                                                  ("ts", ts_role(32)))))
    ercs = []
    BT, LT = "babeltrace.org,2020", "lttng.org,2009"
    for i, lvl in enumerate(LOG_LEVELS):
        ns = BT if i % 2 == 0 else LT
        attrs = {ns: {"log-level": lvl}}
        if i % 3 == 0:
            attrs[ns]["emf-uri"] = "http://example.com/e%d" % i
        ercs.append(attrs)
    extra = [
        {BT: {"log-level": "TRACE_INFO"}},                     # unknown name: ignored
        {LT: {"log-level": 6}},                                # not a string: ignored
        {BT: {"log-level": "error"}, LT: {"log-level": "debug", "emf-uri": "lttng-uri"}},
        {LT: {"log-level": "notice", "emf-uri": "lttng-uri"}, BT: {"emf-uri": "bt-uri"}},
        {BT: {"emf-uri": "only-uri"}},
        {"other.org,2020": {"log-level": "alert"}, BT: {"other": 1}},
        {},
    ]
    erc_objs = []
    for i, attrs in enumerate(ercs + extra):
        kw = {"attributes": attrs} if attrs else {}
        erc_objs.append(t.add(frag("event-record-class", id=i, name="ev%02d" % i,
                                   payload_field_class=st(("i", U8)), **kw)))
    t.stream("stream", t.packet(context={"tb": 0}, events=[
        ev(e, h={"id": i, "ts": 1000 * i}, p={"i": i}) for i, e in enumerate(erc_objs)]))
    return t


@valid
def t_scopes():
    t = Trace("scopes", "which scopes print (§9.6): a packet context with only role fields "
              "(absent), a packet context with a nested structure of role fields and plain "
              "fields (the structure prints `{ }`), empty common and specific contexts, "
              "empty payload, events with and without payload classes; roles at depth in the "
              "packet header and packet context; a data stream class without event record "
              "classes whose stream file is empty; an empty stream file of another class")
    t.add(preamble())
    t.add(frag("trace-class", packet_header_field_class=st(
        ("h", st(("inner", st(("dsc", u(8, roles=["data-stream-class-id"])))))))))
    t.add(frag("data-stream-class", id=0, packet_context_field_class=st(
        ("sizes", st(("total", u(16, roles=["packet-total-length"])),
                     ("content", u(16, roles=["packet-content-length"])))),
        ("cpu", U8),
        ("counters", st(("disc", u(8, roles=["discarded-event-record-counter-snapshot"])),
                        ("seq", u(8, roles=["packet-sequence-number"])))))))
    t.add(frag("data-stream-class", id=1, packet_context_field_class=st(
        ("len", u(16, roles=["packet-total-length"]))),
        event_record_header_field_class=ID8_HEADER,
        event_record_common_context_field_class=st(),
        ))
    t.add(frag("data-stream-class", id=2, packet_context_field_class=st()))
    t.add(frag("data-stream-class", id=3, packet_context_field_class=st(("plain", U8))))
    a = t.add(frag("event-record-class", data_stream_class_id=0, name="a",
                   payload_field_class=st(("x", U8))))
    b0 = t.add(frag("event-record-class", id=0, data_stream_class_id=1, name="b0",
                    specific_context_field_class=st(), payload_field_class=st()))
    b1 = t.add(frag("event-record-class", id=1, data_stream_class_id=1, name="b1",
                    specific_context_field_class=st(("s", U8))))
    b2 = t.add(frag("event-record-class", id=2, data_stream_class_id=1, name="b2"))
    c = t.add(frag("event-record-class", data_stream_class_id=2, name="c",
                   payload_field_class=st(("y", U8))))
    hv = lambda d: {"h": {"inner": {"dsc": d}}}
    t.stream("s0", t.packet(0, header=hv(0), context={"sizes": {"total": "TOTAL", "content": "CONTENT"},
                                                      "cpu": 3, "counters": {"disc": 0, "seq": 0}},
                            events=[ev(a, p={"x": 1}), ev(a, p={"x": 2})], pad=1))
    t.stream("s1", t.packet(1, header=hv(1), context={"len": "TOTAL"},
                            events=[ev(b0, h={"id": 0}, cc={}, sc={}, p={}),
                                    ev(b1, h={"id": 1}, cc={}, sc={"s": 5}),
                                    ev(b2, h={"id": 2}, cc={})]))
    t.stream("s2", t.packet(2, header=hv(2), context={}, events=[ev(c, p={"y": 9})]))
    t.stream("s3-empty", b"")
    return t



@valid
def t_aliases():
    t = Trace("aliases", "field-class-alias fragments (CTF2-SPEC-2.0, field class alias fragment): a chain of three aliases, "
              "aliases of every field class kind, used in every position: the six scope "
              "properties, structure members, array elements (static and dynamic), optional "
              "and variant option field classes, inside another alias; an alias holding a "
              "relative field location, used at two places where it resolves differently")
    t.add(preamble())
    A = lambda name, fc: t.add(frag("field-class-alias", name=name, field_class=fc))
    A("u8", U8)
    A("byte", "u8")
    A("octet", "byte")
    A("magic", u(32, LE, align=8, roles=["packet-magic-number"]))
    A("header", st(("magic", "magic"), ("dsc", u(8, roles=["data-stream-class-id"]))))
    A("ctx", st(("len", u(16, LE, align=8, roles=["packet-total-length"])), ("cpu", "octet")))
    A("evh", st(("id", u(8, roles=["event-record-class-id"]))))
    A("common", st(("c", "byte")))
    A("specific", st(("s", "u8")))
    A("counted", st(("n", "u8"), ("items", darr(loc("n"), "octet"))))
    A("str", nts())
    A("bool", boolean(8))
    A("flags", bitmap(8, {"lo": [[0, 3]], "hi": [[4, 7]]}))
    A("level", u(8, mappings={"LOW": [[0, 9]], "HIGH": [[10, 255]]}))
    A("vl", vu())
    A("f64", flt(64, BE, align=8))
    A("blob4", sblob(4, "application/x-four"))
    A("pair", sarr(2, "octet"))
    A("sel", opt("str", loc("b")))
    A("choice", var(loc("k"), ("num", [[0, 0]], "vl"), ("txt", [[1, 1]], "str")))
    A("payload", st(("k", "u8"), ("b", "bool"), ("first", "counted"), ("second", "counted"),
                    ("o", "sel"), ("v", "choice"), ("arr", sarr(2, "counted")),
                    ("d", darr(loc("k"), "level")), ("f", "flags"), ("x", "f64"),
                    ("blob", "blob4"), ("pr", "pair"),
                    ("vo", var(loc("k"), ("zero", [[0, 0]], "octet"), ("one", [[1, 1]], "pair")))))
    t.add(frag("trace-class", packet_header_field_class="header"))
    t.add(frag("data-stream-class", packet_context_field_class="ctx",
               event_record_header_field_class="evh",
               event_record_common_context_field_class="common"))
    e = t.add(frag("event-record-class", name="ev", specific_context_field_class="specific",
                   payload_field_class="payload"))
    e2 = t.add(frag("event-record-class", id=1, name="ev2",
                    payload_field_class=st(("inner", "payload"), ("n", "octet"),
                                           ("again", "counted"))))
    p0 = {"k": 0, "b": True, "first": {"n": 1, "items": [1]}, "second": {"n": 2, "items": [2, 3]},
          "o": "yes", "v": (0, 300), "arr": [{"n": 0, "items": []}, {"n": 1, "items": [4]}],
          "d": [], "f": 0x31, "x": 2.5, "blob": b"\x01\x02\x03\x04", "pr": [5, 6], "vo": (0, 7)}
    p1 = {"k": 1, "b": False, "first": {"n": 0, "items": []}, "second": {"n": 1, "items": [9]},
          "o": None, "v": (1, "text"), "arr": [{"n": 2, "items": [1, 2]}, {"n": 0, "items": []}],
          "d": [10], "f": 0x0F, "x": -1.0, "blob": b"abcd", "pr": [0, 255], "vo": (1, [8, 9])}
    t.stream("stream", t.packet(header={"magic": 0xC1FC1FC1, "dsc": 0}, context={"len": "TOTAL", "cpu": 2},
                                events=[ev(e, h={"id": 0}, cc={"c": 1}, sc={"s": 2}, p=p0),
                                        ev(e, h={"id": 0}, cc={"c": 3}, sc={"s": 4}, p=p1),
                                        ev(e2, h={"id": 1}, cc={"c": 5},
                                           p={"inner": p1, "n": 7, "again": {"n": 1, "items": [42]}})]))
    return t



@valid
def t_lttng_large_header():
    t = Trace("lttng-large-header", "LTTng large event header: 16-bit id with mappings "
              "compact [0, 65534] / extended [65535], variant with a 32-bit compact timestamp "
              "or a 32-bit id + 64-bit timestamp; event record class ids 0, 65534 (compact) and "
              "70000 (extended only); 32-bit timestamp wrapping; the uid-less clock of a trace "
              "class without namespace")
    t.add(preamble())
    t.add(frag("trace-class", name="large", uid="large-uid",
               environment={"hostname": "big", "tracer_name": "lttng-modules", "tracer_major": 2,
                            "tracer_minor": 13, "tracer_patchlevel": 0, "domain": "kernel"}))
    t.add(frag("clock-class", id="monotonic", frequency=1000000000, origin="unix-epoch"))
    t.add(frag("data-stream-class", default_clock_class_id="monotonic",
               packet_context_field_class=st(
                   ("timestamp_begin", u(64, align=8, roles=["default-clock-timestamp"])),
                   ("timestamp_end", u(64, align=8, roles=["packet-end-default-clock-timestamp"]))),
               event_record_header_field_class=lttng_header(16)))
    ercs = {i: t.add(frag("event-record-class", id=i, name="k%d" % i,
                          payload_field_class=st(("v", u(32, LE, align=8)))))
            for i in (0, 65534, 70000)}
    clk = LttngClock(32)
    clk.set(10)
    evs = []
    T = 1 << 32
    for i, time in ((0, 10), (65534, 20), (70000, 30), (0, T - 1), (0, T + 5), (70000, T + 6),
                    (65534, 3 * T), (0, 3 * T + 1)):
        evs.append(ev(ercs[i], h=clk.header(i, time, compact_ids=65535), p={"v": time & 0xFFFFFFFF}))
    t.stream("stream", t.packet(context={"timestamp_begin": 10, "timestamp_end": 4 * T}, events=evs))
    return t


@valid
def t_packet_lengths():
    t = Trace("packet-lengths", "packet sizes (§5.3): total and content lengths with content "
              "ending inside a byte (4-bit events) and padding bytes after it; content length "
              "only (total = content); total length only (content = total); 64-bit BE lengths; "
              "a packet with no event record; packets in one file for each class")
    t.add(preamble())
    t.add(frag("trace-class", packet_header_field_class=st(
        ("dsc", u(8, roles=["data-stream-class-id"])))))
    t.add(frag("data-stream-class", id=0, packet_context_field_class=st(
        ("total", u(32, LE, align=8, roles=["packet-total-length"])),
        ("content", u(32, LE, align=8, roles=["packet-content-length"])))))
    t.add(frag("data-stream-class", id=1, packet_context_field_class=st(
        ("content", u(64, BE, align=8, roles=["packet-content-length"])))))
    t.add(frag("data-stream-class", id=2, packet_context_field_class=st(
        ("total", u(64, BE, align=8, roles=["packet-total-length"])))))
    e0 = t.add(frag("event-record-class", data_stream_class_id=0, name="nibble",
                    payload_field_class=st(("v", u(4)))))
    e1 = t.add(frag("event-record-class", data_stream_class_id=1, name="byte",
                    payload_field_class=st(("v", U8))))
    e2 = t.add(frag("event-record-class", data_stream_class_id=2, name="word",
                    payload_field_class=st(("v", u(16, BE, align=16)))))
    t.stream("s0", t.packet(0, header={"dsc": 0}, context={"total": "TOTAL", "content": "CONTENT"},
                            events=[ev(e0, p={"v": v}) for v in (1, 2, 3)], pad=5),
             t.packet(0, header={"dsc": 0}, context={"total": "TOTAL", "content": "CONTENT"},
                      events=[], pad=2),
             t.packet(0, header={"dsc": 0}, context={"total": "TOTAL", "content": "CONTENT"},
                      events=[ev(e0, p={"v": 15})], pad=0))
    t.stream("s1", t.packet(1, header={"dsc": 1}, context={"content": "CONTENT"},
                            events=[ev(e1, p={"v": v}) for v in (10, 11)]),
             t.packet(1, header={"dsc": 1}, context={"content": "CONTENT"},
                      events=[ev(e1, p={"v": 12})]))
    t.stream("s2", t.packet(2, header={"dsc": 2}, context={"total": "TOTAL"},
                            events=[ev(e2, p={"v": v}) for v in (0x100, 0x200)]),
             t.packet(2, header={"dsc": 2}, context={"total": "TOTAL"},
                      events=[ev(e2, p={"v": 0xFFFF})]))
    return t


class MultiTrace(Trace):
    """A directory holding several traces (sub-directories)."""

    def __init__(self, name, doc, parts):
        super().__init__(name, doc)
        self.parts = parts

    def write(self, outdir):
        d = os.path.join(outdir, self.name)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        for sub, t in self.parts:
            t.name = sub
            t.write(d)


def small_clocked(host, ns, name, uid, clock, times, values, evname="ev", dsid=0):
    t = Trace("x", "")
    t.add(preamble())
    t.add(frag("trace-class", namespace=ns, name=name, uid=uid, environment={"hostname": host},
               packet_header_field_class=st(("sid", u(8, roles=["data-stream-id"])))))
    t.add(clock)
    t.add(frag("data-stream-class", default_clock_class_id=clock["id"],
               packet_context_field_class=st(("tb", ts_role())),
               event_record_header_field_class=st(("ts", ts_role()))))
    e = t.add(frag("event-record-class", name=evname, payload_field_class=st(("v", U8))))
    t.stream("stream%d" % dsid, t.packet(header={"sid": dsid}, context={"tb": times[0]},
                                         events=[ev(e, h={"ts": ts}, p={"v": v})
                                                 for ts, v in zip(times, values)]))
    return t


@valid
def t_two_traces():
    clk = lambda: frag("clock-class", id="c", frequency=1000000000, origin="unix-epoch",
                       offset_from_origin={"seconds": 1700000000})
    return MultiTrace("two-traces", "a directory holding two traces (sub-directories `a` and "
                      "`b`) with different trace class identities and hostnames, clocks with the "
                      "unix-epoch origin: the muxer interleaves their events by time, ties "
                      "ordered by trace identity (§6.3); `-f trace` shows the hostnames", [
                          ("a", small_clocked("host-a", "ns", "a", "uid-a", clk(), [10, 30, 50], [1, 3, 5], "from_a")),
                          ("b", small_clocked("host-b", "ns", "b", "uid-b", clk(), [20, 30, 40], [2, 4, 6], "from_b")),
                      ])


@valid
def t_merged_traces():
    clk = lambda: frag("clock-class", id="c", frequency=1000000000, name="mono", uid="clock-uid",
                       offset_from_origin={"seconds": 100})
    return MultiTrace("merged-traces", "two sub-directories whose trace classes share namespace, "
                      "name and uid: babeltrace merges them into one trace (§6.3); clocks "
                      "without origin but with the same name and uid; different data stream "
                      "ids", [
                          ("part1", small_clocked("mhost", "ns", "same", "same-uid", clk(), [5, 15], [1, 3], dsid=0)),
                          ("part2", small_clocked("mhost", "ns", "same", "same-uid", clk(), [10, 20], [2, 4], dsid=1)),
                      ])



# ---------------------------------------------------------------------------
# Valid traces: times that are not monotonic.  babeltrace2 2.0.4 stopped with
# "time went backwards" on these; 2.1.2 (release build)
# prints them, with a wrapped-around unsigned delta when time goes back.

def _clock_order_cases():
    clocked_case("time-backwards", "64-bit event timestamps going back within a packet: "
                 "accepted by babeltrace 2.1.2, the delta of the earlier event prints as a "
                 "wrapped unsigned value", [(0, 100, [10, 20, 15, 30])], accepted=True)
    clocked_case("event-after-packet-end", "an event later than its packet's end timestamp "
                 "(accepted)", [(0, 100, [10, 150]), (200, 300, [210])], accepted=True)
    clocked_case("event-before-packet-begin", "an event earlier than its packet's begin "
                 "timestamp (accepted)", [(0, 100, [10, 20]), (200, 300, [150, 250])], accepted=True)
    clocked_case("packets-overlap", "a packet beginning before the previous one ends "
                 "(accepted)", [(0, 100, [10, 20]), (50, 300, [60])], accepted=True)
    clocked_case("packet-end-before-begin", "a packet whose end timestamp precedes its begin, "
                 "no event (accepted, prints nothing)", [(100, 50, [])], accepted=True)


# ---------------------------------------------------------------------------
# Rejected traces (ctf2-bad): metadata errors (§4; CTF2-SPEC-2.0, fragments,
# field classes, roles and field locations)


def J(obj):
    """One raw fragment: RS + compact JSON + LF."""
    return RS + json.dumps(obj, ensure_ascii=False).encode() + b"\n"


def base_frags(payload=None, dsc=None, pre=None, tc=None, clock=None, erc=None):
    """preamble, [trace class], [clock class], data stream class, event record
    class `ev` with payload {x: u8} (or `payload`)."""
    frags = [pre if pre is not None else preamble()]
    if tc is not None:
        frags.append(tc)
    if clock is not None:
        frags.append(clock)
    frags.append(dsc if dsc is not None else frag("data-stream-class"))
    frags.append(erc if erc is not None else
                 frag("event-record-class", name="ev",
                      payload_field_class=payload if payload is not None else st(("x", U8))))
    return frags


def bad_case(name, doc, frags, stream=b"\x01\x02", crash=None, files=None):
    def build():
        t = Trace(name, doc)
        for f in frags() if callable(frags) else frags:
            t.add(f)
        if files is not None:
            for path, data in files.items():
                t.stream(path, data)
        elif stream is not None:
            t.stream("stream", stream)
        t.crash = crash
        return t
    build.__name__ = "bad_" + name
    BAD.append(build)


def bad_fc(name, doc, fc, stream=b"\x01\x02", crash=None, before=()):
    """A payload {x: fc} (after members `before`)."""
    bad_case(name, doc, lambda: base_frags(payload=st(*(list(before) + [("x", fc)]))),
             stream=stream, crash=crash)


VALID_META = b"".join(J(f) for f in base_frags())

# Framing and JSON (§4.1-§4.2)
bad_case("leading-newline", "metadata starting with LF before the first RS: babeltrace takes "
         "the TSDL path (§4.1)", [b"\n" + VALID_META])
bad_case("utf8-bom", "metadata starting with a UTF-8 BOM (§4.1)", [b"\xef\xbb\xbf" + VALID_META])
bad_case("whitespace-fragment", "a fragment made only of whitespace (§4.2)",
         [VALID_META + RS + b" \n\t\n"])
bad_case("two-objects", "two JSON objects in one fragment (§4.2)",
         [RS + b'{"type":"preamble","version":2}{"type":"data-stream-class"}\n'] +
         [J(f) for f in base_frags()[2:]])
bad_case("trailing-garbage", "garbage after the JSON object of a fragment (§4.2)",
         [RS + b'{"type":"preamble","version":2} x\n'] + [J(f) for f in base_frags()[1:]])
bad_case("non-object-fragment", "a fragment that is a JSON array (§4.2)",
         [VALID_META + RS + b'[{"type":"data-stream-class","id":1}]\n'])
bad_case("json-comment", "a comment inside a fragment (§4.2)",
         [RS + b'{"type":"preamble", /* v2 */ "version":2}\n'] + [J(f) for f in base_frags()[1:]])
bad_case("duplicate-key", "a key twice in one object (§4.2)",
         [RS + b'{"type":"preamble","version":2,"version":2}\n'] + [J(f) for f in base_frags()[1:]])
bad_case("integer-too-large", "an integer above UINT64_MAX (§4.2)",
         [J(preamble()), RS + b'{"type":"data-stream-class","id":18446744073709551616}\n'] +
         [J(base_frags()[2])])
bad_case("integer-below-int64", "an integer below INT64_MIN (clock offset seconds, §4.2)",
         [J(preamble()), RS + b'{"type":"clock-class","id":"c","frequency":1000,'
          b'"offset-from-origin":{"seconds":-9223372036854775809}}\n'] + [J(f) for f in base_frags()[1:]])
bad_case("float-for-integer", "`8.0` where an integer is required (§4.2)",
         [J(preamble()), J(frag("data-stream-class")),
          RS + b'{"type":"event-record-class","name":"ev","payload-field-class":{"type":"structure",'
          b'"member-classes":[{"name":"x","field-class":{"type":"fixed-length-unsigned-integer",'
          b'"length":8.0,"byte-order":"little-endian"}}]}}\n'])
bad_case("exponent-for-integer", "`8e0` where an integer is required (§4.2)",
         [J(preamble()), J(frag("data-stream-class")),
          RS + b'{"type":"event-record-class","name":"ev","payload-field-class":{"type":"structure",'
          b'"member-classes":[{"name":"x","field-class":{"type":"fixed-length-unsigned-integer",'
          b'"length":8e0,"byte-order":"little-endian"}}]}}\n'])
bad_case("json-syntax", "an unterminated JSON object (§4.2)",
         [J(preamble()), RS + b'{"type":"data-stream-class"\n'] + [J(base_frags()[2])])
bad_case("json-empty-key", "an empty object key (environment entry \"\"): babeltrace's JSON "
         "parser refuses empty keys",
         base_frags(tc=frag("trace-class", environment={"": "x"})))
bad_case("json-empty-mapping-label", "an empty mapping label (empty object key)",
         base_frags(payload=st(("x", u(8, mappings={"": [[1, 1]]})))))
bad_case("json-control-char", "a raw tab character inside a JSON string (JSON requires `\\t`)",
         [J(preamble()), J(frag("data-stream-class")),
          RS + b'{"type":"event-record-class","name":"a\tb"}\n'])
bad_case("json-surrogate-pair", "a `\\ud83d\\ude00` surrogate-pair escape in a name: "
         "valid JSON, but babeltrace's parser refuses surrogate code points in `\\u` escapes",
         [J(preamble()), J(frag("data-stream-class")),
          RS + b'{"type":"event-record-class","name":"\\ud83d\\ude00","payload-field-class":'
          b'{"type":"structure","member-classes":[{"name":"x","field-class":'
          b'{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian"}}]}}\n'])
bad_case("json-minus-zero", "an event record class id written `-0` (a signed integer where "
         "an unsigned one is required)",
         [J(preamble()), J(frag("data-stream-class")),
          RS + b'{"type":"event-record-class","id":-0,"name":"ev","payload-field-class":'
          b'{"type":"structure","member-classes":[{"name":"x","field-class":'
          b'{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian"}}]}}\n'])
bad_case("version-string", "preamble version given as the string \"2\"",
         [RS + b'{"type":"preamble","version":"2"}\n'] + [J(f) for f in base_frags()[1:]])
bad_case("packetized-metadata", "CTF2-PMETA-1.0 packetized metadata (§4.1): not supported "
         "by babeltrace 2.1.2 (taken as CTF 1.8, version 2.0 refused)",
         lambda: [packetize(VALID_META)])
bad_case("empty-metadata", "an empty metadata file", [b""],
         crash="babeltrace2 2.1.2 aborts (exit 134)")
bad_case("only-rs", "a metadata file holding one RS byte", [RS])
bad_case("no-fragment-type", "a fragment without `type`",
         base_frags(dsc={"id": 0}))
bad_case("unknown-fragment-type", "a fragment of unknown type",
         base_frags() + [frag("event-record-class-alias", name="x")])


def packetize(data):
    """CTF2-PMETA-1.0-like packet: CTF 1.8 metadata packet header (magic
    0x75D11D57, UUID, checksum, content/total sizes, compression, encryption,
    checksum scheme, major 2, minor 0)."""
    hdr_len = 37
    total = hdr_len + len(data)
    hdr = struct.pack("<I16sIIIBBBBB", 0x75D11D57, uuid_bytes(UUID_A), 0, total * 8, total * 8,
                      0, 0, 0, 2, 0)
    assert len(hdr) == hdr_len
    return hdr + data


# Property validation (§4.3)
bad_case("unknown-property-fragment", "an unknown property in a fragment (§4.3)",
         base_frags(pre=preamble(comment="x")))
bad_fc("unknown-property-fc", "an unknown property in a field class (§4.3)",
       u(8, signed=False))
bad_case("unknown-property-member", "an unknown property in a structure member class (§4.3)",
         base_frags(payload=st(("x", U8, {"doc": "x"}))))
bad_fc("unknown-property-option", "an unknown property in a variant option (§4.3)",
       var(loc("s"), ("a", [[0, 255]], U8, {"doc": "x"})), before=[("s", U8)], stream=b"\x00\x01")
bad_case("unknown-property-origin", "an unknown property in a clock origin object (§4.3)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000,
                                origin={"name": "n", "uid": "u", "epoch": 0})))
bad_case("unknown-property-offset", "an unknown property in offset-from-origin (§4.3)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000,
                                offset_from_origin={"seconds": 1, "nanoseconds": 5})))
bad_case("unknown-property-location", "an unknown property in a field location",
         base_frags(payload=st(("n", U8), ("x", darr({"path": ["n"], "origin2": "x"}, U8)))))
bad_fc("wrong-json-type", "`length` given as a string (§4.3)", u("8"))
bad_fc("alignment-float", "`alignment` given as the real number 1.0 (babeltrace does not "
       "type-check `alignment`: it reads the bits of the double, 4607182418800017408, and "
       "reports that it is not a power of two)", u(8, align=1.0))
bad_case("extensions-preamble", "a non-empty `extensions` object in the preamble (§4.3): "
         "an extension babeltrace does not support",
         base_frags(pre=preamble(extensions={"my.org,2024": {"ext": True}})))
bad_fc("extensions-fc", "a non-empty `extensions` object in a field class (§4.3)",
       u(8, extensions={"my.org,2024": {"ext": 1}}))
bad_case("extensions-erc", "a non-empty `extensions` object in an event record class (§4.3)",
         base_frags(erc=frag("event-record-class", name="ev", payload_field_class=st(("x", U8)),
                             extensions={"ns": {"e": None}})))
bad_fc("unknown-fc-type", "an unknown field class type", {"type": "fixed-length-integer", "length": 8,
                                                          "byte-order": "little-endian"})
bad_fc("signed-int-roles", "`roles` on a signed integer (an unknown property, CTF2-SPEC-2.0, fixed-length field classes)",
       s(8, roles=["packet-magic-number"]))
bad_fc("bit-array-roles", "`roles` on a bit array (an unknown property)",
       bits(8, roles=["packet-magic-number"]))
bad_fc("attributes-not-object", "`attributes` given as an array", u(8, attributes=[1]))
bad_case("attributes-erc-not-object", "event record class `attributes` given as a string",
         base_frags(erc=frag("event-record-class", name="ev", payload_field_class=st(("x", U8)),
                             attributes="info")))

# Fragments (CTF2-SPEC-2.0, fragments)
bad_case("no-preamble", "the first fragment is not the preamble (CTF2-SPEC-2.0, fragments)", base_frags()[1:])
bad_case("preamble-not-first", "the preamble after a trace class (CTF2-SPEC-2.0, fragments)",
         lambda: [frag("trace-class")] + base_frags())
bad_case("two-preambles", "two preambles (CTF2-SPEC-2.0, fragments)", lambda: [preamble()] + base_frags())
bad_case("two-trace-classes", "two trace classes (CTF2-SPEC-2.0, fragments)",
         base_frags(tc=frag("trace-class"))[:2] + [frag("trace-class")] + base_frags()[1:])
bad_case("trace-class-after-dsc", "a trace class after a data stream class (CTF2-SPEC-2.0, fragments: implicit "
         "trace class, then `Duplicate trace class fragment`)",
         base_frags()[:2] + [frag("trace-class")] + base_frags()[2:])
bad_case("clock-after-dsc", "a data stream class naming a clock class defined after it (CTF2-SPEC-2.0, fragments)",
         lambda: [preamble(), frag("data-stream-class", default_clock_class_id="c",
                                   packet_context_field_class=st(("ts", ts_role()))),
                  frag("clock-class", id="c", frequency=1000), base_frags()[2]])
bad_case("unknown-clock-id", "default-clock-class-id naming no clock class (CTF2-SPEC-2.0, data stream class fragment)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000),
                    dsc=frag("data-stream-class", default_clock_class_id="d",
                             packet_context_field_class=st(("ts", ts_role())))))
bad_case("erc-before-dsc", "an event record class before its data stream class (CTF2-SPEC-2.0, fragments)",
         lambda: [preamble(), base_frags()[2], base_frags()[1]])
bad_case("erc-unknown-dsc", "an event record class of a missing data stream class id (CTF2-SPEC-2.0, event record class fragment)",
         base_frags(erc=frag("event-record-class", data_stream_class_id=1, name="ev",
                             payload_field_class=st(("x", U8)))))
bad_case("alias-unknown", "a field class naming an undefined alias (CTF2-SPEC-2.0, field class alias fragment)",
         base_frags(payload=st(("x", "nothing"))))
bad_case("alias-after-use", "an alias defined after its use (CTF2-SPEC-2.0, field class alias fragment)",
         lambda: base_frags(payload=st(("x", "byte"))) +
         [frag("field-class-alias", name="byte", field_class=U8)])
bad_case("alias-duplicate", "two aliases with the same name (CTF2-SPEC-2.0, fragments)",
         lambda: [preamble(), frag("field-class-alias", name="byte", field_class=U8),
                  frag("field-class-alias", name="byte", field_class=u(16))] +
         base_frags(payload=st(("x", "byte")))[1:])
bad_case("alias-self", "an alias whose field class names itself",
         lambda: [preamble(), frag("field-class-alias", name="byte", field_class="byte")] +
         base_frags()[1:])
bad_case("alias-missing-field-class", "an alias without `field-class`",
         lambda: [preamble(), frag("field-class-alias", name="byte")] + base_frags()[1:])
bad_case("duplicate-clock-id", "two clock classes with the same id (CTF2-SPEC-2.0, fragments)",
         lambda: [preamble(), frag("clock-class", id="c", frequency=1000),
                  frag("clock-class", id="c", frequency=1000)] + base_frags()[1:])
bad_case("duplicate-dsc-id", "two data stream classes with the same id (CTF2-SPEC-2.0, fragments)",
         lambda: base_frags()[:2] + [frag("data-stream-class", id=0)] + base_frags()[2:])
bad_case("duplicate-erc-id", "two event record classes with the same (data stream class, "
         "id) (CTF2-SPEC-2.0, fragments)", lambda: base_frags() + [frag("event-record-class", name="ev2")])
bad_case("duplicate-erc-id-explicit", "event record classes with ids 0 (default) and 0 "
         "(explicit), each with its data stream class id written differently",
         lambda: base_frags() + [frag("event-record-class", id=0, data_stream_class_id=0, name="ev2")])
bad_case("version-1", "preamble version 1 (CTF2-SPEC-2.0, preamble fragment)", base_frags(pre={"type": "preamble", "version": 1}))
bad_case("version-3", "preamble version 3 (CTF2-SPEC-2.0, preamble fragment)", base_frags(pre={"type": "preamble", "version": 3}))
bad_case("version-missing", "preamble without version (CTF2-SPEC-2.0, preamble fragment)", base_frags(pre={"type": "preamble"}))
bad_case("frequency-0", "clock class frequency 0 (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", id="c", frequency=0)))
bad_case("frequency-missing", "clock class without frequency (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", id="c")))
bad_case("clock-id-missing", "clock class without id (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", frequency=1000)))
bad_case("cycles-equal-frequency", "offset-from-origin cycles equal to the frequency (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000,
                                offset_from_origin={"seconds": 0, "cycles": 1000})))
bad_case("cycles-negative", "negative offset-from-origin cycles (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000,
                                offset_from_origin={"cycles": -1})))
bad_case("origin-missing-uid", "a custom clock origin without uid (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000, origin={"name": "o"})))
bad_case("origin-unknown-string", "clock origin given as an unknown string (CTF2-SPEC-2.0, clock class fragment)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000, origin="boot")))
bad_case("no-dsc", "no data stream class fragment (CTF2-SPEC-2.0, fragments)", [preamble()], stream=None)
bad_case("no-dsc-with-trace-class", "a trace class but no data stream class (CTF2-SPEC-2.0, fragments)",
         [preamble(), frag("trace-class")], stream=None)
bad_case("env-boolean", "an environment value that is a boolean (CTF2-SPEC-2.0, trace class fragment)",
         base_frags(tc=frag("trace-class", environment={"flag": True})))
bad_case("env-float", "an environment value that is a real number (CTF2-SPEC-2.0, trace class fragment)",
         base_frags(tc=frag("trace-class", environment={"ratio": 0.5})))
bad_case("env-object", "an environment value that is an object (CTF2-SPEC-2.0, trace class fragment)",
         base_frags(tc=frag("trace-class", environment={"o": {}})))
bad_case("env-null", "an environment value that is null (CTF2-SPEC-2.0, trace class fragment)",
         base_frags(tc=frag("trace-class", environment={"n": None})))
bad_case("preamble-uuid-15", "a preamble uuid of 15 integers (CTF2-SPEC-2.0, preamble fragment)",
         base_frags(pre=preamble(bytes(15))))
bad_case("preamble-uuid-256", "a preamble uuid item above 255 (CTF2-SPEC-2.0, preamble fragment)",
         base_frags(pre={"type": "preamble", "version": 2, "uuid": [256] + [0] * 15}))
bad_case("dsc-id-negative", "a negative data stream class id",
         base_frags(dsc=frag("data-stream-class", id=-1)))
bad_case("erc-name-not-string", "an event record class name that is an integer",
         base_frags(erc=frag("event-record-class", name=5, payload_field_class=st(("x", U8)))))


# Field classes (CTF2-SPEC-2.0, field classes)
for _t, _mk in (("int", lambda n: u(n)), ("signed", lambda n: s(n)), ("bitarray", lambda n: bits(n)),
                ("bool", lambda n: boolean(n)), ("bitmap", lambda n: bitmap(n, {"f": [[0, 0]]}))):
    bad_fc("%s-length-0" % _t, "fixed-length %s of length 0 (CTF2-SPEC-2.0, fixed-length field classes)" % _t, _mk(0))
    bad_fc("%s-length-65" % _t, "fixed-length %s of length 65 (CTF2-SPEC-2.0, fixed-length field classes: babeltrace 1-64)" % _t, _mk(65),
           stream=bytes(18))
bad_fc("float-length-128", "128-bit floating point number (CTF2-SPEC-2.0, fixed-length field classes: > 64 is a validation error)",
       flt(128, align=8), stream=bytes(32))
bad_fc("float-length-0", "floating point number of length 0", flt(0))
bad_fc("alignment-3", "alignment 3, not a power of two (CTF2-SPEC-2.0, fixed-length field classes)", u(8, align=3))
bad_fc("alignment-0", "alignment 0 (CTF2-SPEC-2.0, fixed-length field classes)", u(8, align=0))
bad_fc("byte-order-native", "byte order `native` (CTF2-SPEC-2.0, field classes)", u(8, bo="native"))
bad_fc("byte-order-missing", "no byte order (CTF2-SPEC-2.0, field classes)", {"type": "fixed-length-unsigned-integer", "length": 8})
bad_fc("bit-order-invalid", "an invalid bit order (CTF2-SPEC-2.0, fixed-length field classes)", u(8, bit_order="msb-first"))
bad_fc("display-base-3", "preferred display base 3 (CTF2-SPEC-2.0, fixed-length field classes)", u(8, base=3))
bad_fc("display-base-vl-7", "preferred display base 7 on a variable-length integer", vu(base=7))
bad_fc("mapping-lower-gt-upper", "a mapping range whose lower bound exceeds the upper (CTF2-SPEC-2.0, fixed-length field classes)",
       u(8, mappings={"A": [[5, 1]]}))
bad_fc("mapping-empty-range-set", "a mapping with an empty range set (CTF2-SPEC-2.0, fixed-length field classes)",
       u(8, mappings={"A": []}))
bad_fc("mapping-range-3-items", "a mapping range of three integers (CTF2-SPEC-2.0, fixed-length field classes)",
       u(8, mappings={"A": [[1, 2, 3]]}))
bad_fc("mapping-range-1-item", "a mapping range of one integer (CTF2-SPEC-2.0, fixed-length field classes)", u(8, mappings={"A": [[1]]}))
bad_fc("mapping-negative-unsigned", "a negative bound in an unsigned integer's mapping (CTF2-SPEC-2.0, fixed-length field classes)",
       u(8, mappings={"A": [[-1, 1]]}))
bad_fc("mapping-signed-too-large", "a bound above INT64_MAX in a signed integer's mapping",
       s(8, mappings={"A": [[0, 9223372036854775808]]}))
bad_fc("mapping-not-array", "a mapping whose range set is an object (CTF2-SPEC-2.0, fixed-length field classes)",
       u(8, mappings={"A": {"lower": 1, "upper": 2}}))
bad_fc("bitmap-no-flags", "a bit map with an empty `flags` object (CTF2-SPEC-2.0, fixed-length field classes)", bitmap(8, {}))
bad_fc("bitmap-missing-flags", "a bit map without `flags` (CTF2-SPEC-2.0, fixed-length field classes)", bits(8, type="fixed-length-bit-map"))
bad_fc("bitmap-flag-out-of-range", "a bit map flag on bit 8 of an 8-bit map (CTF2-SPEC-2.0, fixed-length field classes)",
       bitmap(8, {"f": [[0, 0]], "g": [[7, 8]]}))
bad_fc("bitmap-flag-empty-ranges", "a bit map flag with an empty range set (CTF2-SPEC-2.0, fixed-length field classes)",
       bitmap(8, {"f": []}))
bad_fc("static-string-negative-length", "static-length string of length -1 (CTF2-SPEC-2.0, string field classes)", sls(-1))
bad_fc("static-string-no-length", "static-length string without length (CTF2-SPEC-2.0, string field classes)",
       {"type": "static-length-string"})
bad_fc("encoding-unknown", "string encoding `latin1` (CTF2-SPEC-2.0, string field classes)", nts("latin1"))
bad_fc("encoding-uppercase", "string encoding `UTF-8` (CTF2-SPEC-2.0, string field classes: names are lowercase)", nts("UTF-8"))
bad_fc("static-blob-no-length", "static-length BLOB without length (CTF2-SPEC-2.0, BLOB field classes)",
       {"type": "static-length-blob"})
bad_fc("blob-media-type-int", "a BLOB media type that is not a string (CTF2-SPEC-2.0, BLOB field classes)", sblob(2, 5))
bad_case("duplicate-member-names", "two members named `x` in one structure (CTF2-SPEC-2.0, compound field classes)",
         base_frags(payload=st(("x", U8), ("x", U8))))
bad_fc("duplicate-option-names", "two variant options named `a` (CTF2-SPEC-2.0, compound field classes)",
       var(loc("s"), ("a", [[0, 0]], U8), ("a", [[1, 1]], U8)), before=[("s", U8)], stream=b"\x00\x01")
bad_fc("member-no-name", "a structure member class without `name` (CTF2-SPEC-2.0, compound field classes)",
       {"type": "structure", "member-classes": [{"field-class": U8}]})
bad_fc("member-name-not-string", "a structure member name that is an integer",
       {"type": "structure", "member-classes": [{"name": 1, "field-class": U8}]})
bad_fc("min-alignment-3", "structure minimum-alignment 3 (CTF2-SPEC-2.0, compound field classes)", st(("a", U8), min_align=3))
bad_fc("array-min-alignment-0", "array minimum-alignment 0 (CTF2-SPEC-2.0, compound field classes)", sarr(1, U8, min_align=0))
bad_fc("static-array-negative-length", "static-length array of length -1 (CTF2-SPEC-2.0, compound field classes)", sarr(-1, U8))
bad_fc("variant-no-options", "a variant with an empty `options` array (CTF2-SPEC-2.0, compound field classes)",
       var(loc("s")), before=[("s", U8)])
bad_fc("variant-option-no-ranges", "a variant option without selector-field-ranges (CTF2-SPEC-2.0, compound field classes)",
       {"type": "variant", "selector-field-location": loc("s"),
        "options": [{"name": "a", "field-class": U8}]}, before=[("s", U8)])
bad_fc("variant-option-empty-ranges", "a variant option with an empty range set (CTF2-SPEC-2.0, compound field classes)",
       var(loc("s"), ("a", [], U8)), before=[("s", U8)])
bad_fc("variant-no-location", "a variant without selector-field-location (CTF2-SPEC-2.0, compound field classes)",
       {"type": "variant", "options": [{"name": "a", "selector-field-ranges": [[0, 0]],
                                        "field-class": U8}]}, before=[("s", U8)])
bad_fc("optional-int-no-ranges", "an optional with an integer selector and no "
       "selector-field-ranges (CTF2-SPEC-2.0, compound field classes)", opt(U8, loc("s")), before=[("s", U8)])
bad_fc("optional-int-empty-ranges", "an optional with an integer selector and an empty range "
       "set (CTF2-SPEC-2.0, compound field classes)", opt(U8, loc("s"), []), before=[("s", U8)])
bad_fc("dynamic-array-no-location", "a dynamic-length array without length-field-location",
       {"type": "dynamic-length-array", "element-field-class": U8}, before=[("n", U8)])
for _scope in ("payload-field-class", "specific-context-field-class"):
    bad_case("scope-not-structure-" + _scope.split("-")[0], "an event record class %s that is "
             "an integer, not a structure (CTF2-SPEC-2.0, event record class fragment)" % _scope,
             base_frags(erc=frag("event-record-class", name="ev", **{_scope.replace("-", "_"): U8})))
bad_case("scope-not-structure-packet-context", "a packet context field class that is an "
         "integer (CTF2-SPEC-2.0, data stream class fragment)", base_frags(dsc=frag("data-stream-class", packet_context_field_class=U8)))
bad_case("scope-not-structure-event-header", "an event record header field class that is an "
         "array (CTF2-SPEC-2.0, data stream class fragment)", base_frags(dsc=frag("data-stream-class",
                                              event_record_header_field_class=sarr(1, U8))))
bad_case("scope-not-structure-common-context", "an event record common context field class "
         "that is a string (CTF2-SPEC-2.0, data stream class fragment)",
         base_frags(dsc=frag("data-stream-class", event_record_common_context_field_class=nts())))
bad_case("scope-not-structure-packet-header", "a packet header field class that is an alias "
         "of an integer (CTF2-SPEC-2.0, trace class fragment)",
         lambda: [preamble(), frag("field-class-alias", name="int", field_class=U8)] +
         base_frags(tc=frag("trace-class", packet_header_field_class="int"))[1:])


# Roles (CTF2-SPEC-2.0, roles)
MAGIC = u(32, align=8, roles=["packet-magic-number"])
bad_case("magic-not-first", "the packet-magic-number member is not the first member of the "
         "packet header (CTF2-SPEC-2.0, roles)",
         base_frags(tc=frag("trace-class", packet_header_field_class=st(("a", U8), ("magic", MAGIC)))))
bad_case("magic-16-bit", "a 16-bit packet-magic-number (CTF2-SPEC-2.0, roles)",
         base_frags(tc=frag("trace-class", packet_header_field_class=st(
             ("magic", u(16, align=8, roles=["packet-magic-number"]))))))
bad_case("magic-in-packet-context", "packet-magic-number in the packet context (CTF2-SPEC-2.0, roles)",
         base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(("magic", MAGIC)))))
bad_case("magic-nested", "packet-magic-number as the first member of a structure that is the "
         "packet header's first member (CTF2-SPEC-2.0, roles: must be the first member of the packet header)",
         base_frags(tc=frag("trace-class", packet_header_field_class=st(("s", st(("magic", MAGIC)))))))
bad_case("two-magics", "two packet-magic-number members (CTF2-SPEC-2.0, roles)",
         base_frags(tc=frag("trace-class", packet_header_field_class=st(
             ("magic", MAGIC), ("magic2", MAGIC)))))
bad_case("uuid-role-without-preamble-uuid", "a metadata-stream-uuid BLOB without a preamble "
         "uuid (CTF2-SPEC-2.0, roles)", base_frags(tc=frag("trace-class", packet_header_field_class=st(
             ("uuid", sblob(16, roles=["metadata-stream-uuid"]))))))
bad_case("uuid-role-length-8", "a metadata-stream-uuid BLOB of 8 bytes (CTF2-SPEC-2.0, BLOB field classes)",
         base_frags(pre=preamble(uuid_bytes(UUID_A)), tc=frag("trace-class", packet_header_field_class=st(
             ("uuid", sblob(8, roles=["metadata-stream-uuid"]))))))
bad_case("uuid-role-on-integer", "metadata-stream-uuid on an integer (CTF2-SPEC-2.0, roles)",
         base_frags(pre=preamble(uuid_bytes(UUID_A)), tc=frag("trace-class", packet_header_field_class=st(
             ("uuid", u(64, roles=["metadata-stream-uuid"]))))))
bad_case("uuid-role-in-payload", "a metadata-stream-uuid BLOB in the payload (CTF2-SPEC-2.0, roles)",
         base_frags(pre=preamble(uuid_bytes(UUID_A)),
                    payload=st(("uuid", sblob(16, roles=["metadata-stream-uuid"])))))
bad_case("role-on-dynamic-blob", "`roles` on a dynamic-length BLOB (CTF2-SPEC-2.0, BLOB field classes: unknown property)",
         base_frags(pre=preamble(uuid_bytes(UUID_A)), payload=st(
             ("n", U8), ("b", dblob(loc("n"), roles=["metadata-stream-uuid"])))))
bad_case("total-length-in-header", "packet-total-length in the packet header (CTF2-SPEC-2.0, roles)",
         base_frags(tc=frag("trace-class", packet_header_field_class=st(
             ("len", u(32, roles=["packet-total-length"]))))))
bad_case("content-length-in-event-header", "packet-content-length in the event record header "
         "(CTF2-SPEC-2.0, roles)", base_frags(dsc=frag("data-stream-class", event_record_header_field_class=st(
             ("len", u(32, roles=["packet-content-length"]))))))
bad_case("timestamp-in-payload", "default-clock-timestamp in the payload (CTF2-SPEC-2.0, roles: common context, "
         "specific context and payload have no roles)",
         base_frags(clock=frag("clock-class", id="c", frequency=1000),
                    dsc=frag("data-stream-class", default_clock_class_id="c",
                             packet_context_field_class=st(("tb", ts_role()))),
                    payload=st(("ts", ts_role()))))
bad_case("role-in-common-context", "data-stream-id in the event record common context (CTF2-SPEC-2.0, roles)",
         base_frags(dsc=frag("data-stream-class", event_record_common_context_field_class=st(
             ("sid", u(8, roles=["data-stream-id"]))))))
bad_case("role-in-specific-context", "event-record-class-id in the specific context (CTF2-SPEC-2.0, roles)",
         base_frags(erc=frag("event-record-class", name="ev", specific_context_field_class=st(
             ("id", u(8, roles=["event-record-class-id"]))))))
bad_case("erc-id-in-packet-context", "event-record-class-id in the packet context (CTF2-SPEC-2.0, roles)",
         base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("id", u(8, roles=["event-record-class-id"]))))))
bad_case("dsc-id-in-event-header", "data-stream-class-id in the event record header (CTF2-SPEC-2.0, roles)",
         base_frags(dsc=frag("data-stream-class", event_record_header_field_class=st(
             ("d", u(8, roles=["data-stream-class-id"]))))))
bad_case("seq-num-in-header", "packet-sequence-number in the packet header (CTF2-SPEC-2.0, roles)",
         base_frags(tc=frag("trace-class", packet_header_field_class=st(
             ("seq", u(8, roles=["packet-sequence-number"]))))))
bad_case("timestamp-without-clock", "default-clock-timestamp in a data stream class without a "
         "default clock class (CTF2-SPEC-2.0, roles)", base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("tb", ts_role())))))
bad_case("end-timestamp-without-clock", "packet-end-default-clock-timestamp without a default "
         "clock class (CTF2-SPEC-2.0, roles)", base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("te", u(64, align=8, roles=["packet-end-default-clock-timestamp"]))))))
bad_case("unknown-role", "an unknown role name (CTF2-SPEC-2.0, roles)",
         base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("x", u(8, roles=["packet-checksum"]))))))
bad_case("roles-not-array", "`roles` given as a string (CTF2-SPEC-2.0, roles)",
         base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("x", u(32, roles="packet-total-length"))))))

# Field locations (CTF2-SPEC-2.0, field locations)
bad_fc("location-empty-path", "a field location with an empty path (CTF2-SPEC-2.0, field locations)",
       darr({"path": []}, U8), before=[("n", U8)])
bad_fc("location-ends-with-null", "a field location path ending with null (CTF2-SPEC-2.0, field locations)",
       darr(loc("n", None), U8), before=[("n", U8)])
bad_fc("location-no-path", "a field location without path (CTF2-SPEC-2.0, field locations)",
       darr({"origin": "event-record-payload"}, U8), before=[("n", U8)])
bad_fc("location-bad-origin", "a field location with an unknown origin (CTF2-SPEC-2.0, field locations)",
       darr(loc("n", origin="payload"), U8), before=[("n", U8)])
bad_fc("location-path-item-int", "a field location path item that is an integer (CTF2-SPEC-2.0, field locations)",
       darr({"path": [0]}, U8), before=[("n", U8)])
bad_fc("location-missing-member", "a field location naming no member (CTF2-SPEC-2.0, field locations)",
       darr(loc("m"), U8), before=[("n", U8)])
bad_case("location-later-member", "a length field located after the dependent field (CTF2-SPEC-2.0, field locations)",
         base_frags(payload=st(("x", darr(loc("n"), U8)), ("n", U8))))
bad_case("location-itself", "a dynamic array whose length location is the array itself (CTF2-SPEC-2.0, field locations)",
         base_frags(payload=st(("x", darr(loc("x"), U8)))))
bad_fc("location-too-many-parents", "a relative location going up past the scope root (CTF2-SPEC-2.0, field locations: "
       "too many \"parent\" path items)", darr(loc(None, "n"), U8), before=[("n", U8)])
bad_case("location-later-scope", "a packet context length located in the payload (CTF2-SPEC-2.0, field locations: the "
         "key must be in the same or an earlier scope)",
         base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("a", darr(loc("x", origin="event-record-payload"), U8))))))
bad_case("location-absolute-later", "an absolute location to a later member of the same scope",
         base_frags(payload=st(("a", darr(loc("n", origin="event-record-payload"), U8)), ("n", U8))))
bad_case("location-into-array", "a length located through an array (static array of u8)",
         base_frags(payload=st(("arr", sarr(2, U8)), ("a", darr(loc("arr"), U8)))))
bad_fc("length-signed", "a dynamic array length that is a signed integer (CTF2-SPEC-2.0, field locations)",
       darr(loc("n"), U8), before=[("n", s(8))])
bad_fc("length-string", "a dynamic array length that is a string (CTF2-SPEC-2.0, field locations)",
       darr(loc("n"), U8), before=[("n", nts())])
bad_fc("length-boolean", "a dynamic string length that is a boolean (CTF2-SPEC-2.0, field locations)",
       dls(loc("n")), before=[("n", boolean(8))])
bad_fc("length-structure", "a dynamic BLOB length that is a structure (CTF2-SPEC-2.0, field locations)",
       dblob(loc("n")), before=[("n", st(("a", U8)))])
bad_fc("selector-string", "a variant selector that is a string (CTF2-SPEC-2.0, field locations)",
       var(loc("n"), ("a", [[0, 0]], U8)), before=[("n", nts())])
bad_fc("optional-selector-float", "an optional selector that is a float (CTF2-SPEC-2.0, field locations)",
       opt(U8, loc("n")), before=[("n", flt(32))])
bad_fc("optional-selector-bitarray", "an optional selector that is a bit array (CTF2-SPEC-2.0, field locations)",
       opt(U8, loc("n")), before=[("n", bits(8))])
bad_fc("variant-selector-mixed-signedness", "a variant whose selector location resolves to a "
       "signed integer in one option and an unsigned one in the other (CTF2-SPEC-2.0, field locations)",
       var(loc("s", "k"), ("a", [[0, 0]], U8)),
       before=[("t", U8), ("s", var(loc("t"), ("u", [[0, 0]], st(("k", U8))),
                                     ("i", [[1, 1]], st(("k", s(8))))))])
bad_case("location-two-parents", "a spec-correct relative location going up two levels "
         "(`[null, null, \"n\"]` from a member of a structure in a structure): babeltrace "
         "cancels the two leading nulls (a babeltrace bug against CTF2-SPEC-2.0, field locations) and then finds nothing",
         base_frags(payload=st(("n", U8), ("s", st(("t", st(("a", darr(loc(None, None, "n"), U8)))))))))



# ---------------------------------------------------------------------------
# Rejected traces: data errors (§5, §6; exit 1 after the events decoded so far)


def data_case(name, doc, payloads, bad_payload_fc, raw_tail, crash=None):
    """Events: `ok` (id 0, payload u8) for each value of `payloads`, then one
    event of class `bad` (id 1, payload `bad_payload_fc`) whose bytes are
    `raw_tail` (header byte included by the caller when wanted)."""
    def build():
        t = Trace(name, doc)
        t.add(preamble())
        t.add(frag("data-stream-class", event_record_header_field_class=ID8_HEADER))
        ok = t.add(frag("event-record-class", id=0, name="ok", payload_field_class=st(("v", U8))))
        t.add(frag("event-record-class", id=1, name="bad", payload_field_class=bad_payload_fc))
        w = BitWriter()
        for v in payloads:
            t.encode(ID8_HEADER, {"id": 0}, w)
            t.encode(ok["payload-field-class"], {"v": v}, w)
        w.raw(raw_tail)
        t.stream("stream", w.bytes())
        t.crash = crash
        return t
    build.__name__ = "bad_" + name
    BAD.append(build)


data_case("byte-order-change-in-byte", "a 4-bit LE field followed by a 4-bit BE field in the "
          "same byte, after two valid events",
          [1, 2], st(("a", u(4, LE)), ("b", u(4, BE))), b"\x01\x12")
data_case("unknown-erc-id", "an event record class id (7) that does not exist (CTF2-SPEC-2.0, event record class fragment), after "
          "two valid events", [1, 2], st(("x", U8)), b"\x07\x00")
data_case("leb128-oversized-unsigned", "a 10-byte unsigned LEB128 whose last byte is 0x00 "
          "(§5.2: more than 64 bits of data)", [1], st(("u", vu())), b"\x01" + b"\x80" * 9 + b"\x00")
data_case("leb128-11-bytes", "an 11-byte LEB128 (§5.2)", [1], st(("u", vu())),
          b"\x01" + b"\x80" * 10 + b"\x01")
data_case("leb128-oversized-signed", "a 10-byte signed LEB128 whose last byte is 0x01 (§5.2)",
          [1], st(("s", vs())), b"\x01" + b"\x80" * 9 + b"\x01")
data_case("leb128-truncated", "a LEB128 whose continuation bit is set on the last byte of the "
          "stream", [1], st(("u", vu())), b"\x01\x80\x80")
data_case("utf16-lone-surrogate", "a null-terminated UTF-16LE string with a lone high surrogate "
          "(§5.2; babeltrace: g_iconv() failed)", [1], st(("a", nts("utf-16le"))),
          b"\x01\x00\xd8\x41\x00\x00\x00")
data_case("utf16-truncated-static", "a 5-byte static-length UTF-16BE string without "
          "terminator (§5.2: truncated code unit)", [1], st(("a", sls(5, "utf-16be"))),
          b"\x01\x00\x41\x00\x42\x00")
data_case("utf16be-low-surrogate-first", "a dynamic-length UTF-16BE string starting with a "
          "low surrogate (§5.2)", [1], st(("n", U8), ("a", dls(loc("n"), "utf-16be"))),
          b"\x01\x04\xdc\x00\x00\x41")
data_case("utf32-too-large", "a UTF-32LE code unit above U+10FFFF (§5.2)", [1],
          st(("a", nts("utf-32le"))), b"\x01\x00\x00\x11\x00\x00\x00\x00\x00")
data_case("utf32-surrogate", "a UTF-32BE code unit that is a surrogate (§5.2)", [1],
          st(("a", sls(8, "utf-32be"))), b"\x01\x00\x00\xd8\x00\x00\x00\x00\x00")
data_case("variant-no-option", "a variant selector value matching no option (§5.2), after a "
          "valid event of the same class", [1],
          st(("sel", s(8)), ("v", var(loc("sel"), ("a", [[-10, -1]], U8), ("b", [[1, 1]], u(16))))),
          b"\x01\xff\x05" + b"\x01\x00\x05")
data_case("truncated-event", "a 32-bit payload field cut by the end of the stream (§5.3)",
          [1, 2], st(("x", u(32, LE, align=8))), b"\x01\xaa\xbb")
data_case("unterminated-string", "a null-terminated string running to the end of the stream",
          [1], st(("s", nts())), b"\x01abc")
data_case("dynamic-array-past-end", "a dynamic array longer than the data left (§5.3)",
          [1], st(("n", U8), ("a", darr(loc("n"), U8))), b"\x01\xc8\x01\x02")
data_case("static-blob-past-end", "a static BLOB longer than the data left", [1],
          st(("b", sblob(16))), b"\x01" + bytes(8))
bad_case("trailing-bits", "trailing bits: two 3-bit event records fill 6 bits of the "
         "only byte, the 2 remaining bits cannot form an event record (§5.3)",
         base_frags(payload=st(("x", u(3)))), stream=b"\x0b")
bad_case("trailing-bits-after-bytes", "two 12-bit event records (3 bytes) then one spare "
         "byte, too short for a third one",
         base_frags(payload=st(("x", u(12)))), stream=b"\xff\x0f\x01\x00")
bad_case("empty-event-record", "an event record class without any field: a 0-bit event "
         "record (§5.3: Invalid empty event record)",
         base_frags(erc=frag("event-record-class", name="nothing")), stream=b"\x00")
bad_case("empty-event-record-empty-struct", "event record whose only scope is an empty "
         "structure (0 bits)", base_frags(payload=st()), stream=b"\x00")


def packet_case(name, doc, ctx_fc, packets, crash=None, header_fc=None, headers=None):
    """Data stream class with packet context `ctx_fc`, event `ev` {v: u8}; each
    packet = (context value, payloads, pad); the raw `total` keeps what is given."""
    def build():
        t = Trace(name, doc)
        t.add(preamble())
        if header_fc is not None:
            t.add(frag("trace-class", packet_header_field_class=header_fc))
        t.add(frag("data-stream-class", packet_context_field_class=ctx_fc))
        e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
        out = b""
        for i, (ctx, payloads, pad) in enumerate(packets):
            hdr = headers[i] if headers else None
            out += t.packet(header=hdr, context=ctx, events=[ev(e, p={"v": v}) for v in payloads],
                            pad=pad)
        t.stream("stream", out)
        t.crash = crash
        return t
    build.__name__ = "bad_" + name
    BAD.append(build)


LEN_CTX = st(("total", u(32, LE, align=8, roles=["packet-total-length"])),
             ("content", u(32, LE, align=8, roles=["packet-content-length"])))
packet_case("content-gt-total", "a packet whose content length (96) exceeds its total length "
            "(72) (§5.3)", LEN_CTX, [({"total": 72, "content": 96}, [1], 0)])
packet_case("content-gt-total-second-packet", "a valid packet, then one whose content length "
            "exceeds its total length", LEN_CTX,
            [({"total": "TOTAL", "content": "CONTENT"}, [1, 2], 0),
             ({"total": 72, "content": 80}, [3, 4], 0)])
packet_case("total-past-eof", "a packet whose total length runs past the end of the file",
            LEN_CTX, [({"total": "TOTAL", "content": "CONTENT"}, [1], 0),
                      ({"total": 800, "content": "CONTENT"}, [2], 0)])
packet_case("total-not-byte-multiple", "a packet total length of 84 bits (not a multiple of "
            "8), then another packet", LEN_CTX,
            [({"total": 84, "content": 80}, [1, 2], 0), ({"total": "TOTAL", "content": "CONTENT"}, [3], 0)])
packet_case("content-before-context-end", "a content length (32 bits) smaller than the packet "
            "context itself", LEN_CTX, [({"total": "TOTAL", "content": 32}, [1], 0)])
packet_case("total-zero", "a packet total length of 0 (babeltrace loops forever on it)",
            LEN_CTX, [({"total": 0, "content": 0}, [], 0)],
            crash="babeltrace2 2.1.2 never ends (killed by timeout, exit 124)")
packet_case("content-mid-event", "a content length ending inside an event record", LEN_CTX,
            [({"total": 96, "content": 76}, [1, 2], 0)])
packet_case("unknown-dsc-id", "a packet header data-stream-class-id (9) naming no data stream "
            "class (§5.3), after a valid packet",
            st(("len", u(16, LE, align=8, roles=["packet-total-length"]))),
            [({"len": "TOTAL"}, [1], 0), ({"len": "TOTAL"}, [2], 0)],
            header_fc=st(("dsc", u(8, roles=["data-stream-class-id"]))),
            headers=[{"dsc": 0}, {"dsc": 9}])



def clocked_case(name, doc, packets, crash=None, hdr_bits=64, accepted=False):
    """One clock (1 GHz), packet context begin/end timestamps, event header
    timestamp; packets = (begin, end, [times]) in one stream file."""
    def build():
        t = Trace(name, doc)
        t.add(preamble())
        t.add(frag("clock-class", id="c", frequency=1000000000))
        t.add(frag("data-stream-class", default_clock_class_id="c",
                   packet_context_field_class=st(
                       ("len", u(32, align=8, roles=["packet-total-length"])),
                       ("tb", ts_role()),
                       ("te", u(64, align=8, roles=["packet-end-default-clock-timestamp"]))),
                   event_record_header_field_class=st(("ts", ts_role(hdr_bits)))))
        e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
        out = b""
        n = 0
        for tb, te, times in packets:
            evs = []
            for ts in times:
                n += 1
                evs.append(ev(e, h={"ts": ts}, p={"v": n}))
            out += t.packet(context={"len": "TOTAL", "tb": tb, "te": te}, events=evs)
        t.stream("stream", out)
        t.crash = crash
        return t
    build.__name__ = ("t_" if accepted else "bad_") + name
    (VALID if accepted else BAD).append(build)




_clock_order_cases()


@bad
def bad_mux_clock_and_no_clock():
    t = Trace("mux-clock-and-no-clock", "two data stream classes in one trace, one with a clock "
              "and one without: the muxer expects a clock class for every stream once the first "
              "has one (§6.3)")
    t.add(preamble())
    t.add(frag("trace-class", packet_header_field_class=st(("dsc", u(8, roles=["data-stream-class-id"])))))
    t.add(frag("clock-class", id="c", frequency=1000000000))
    t.add(frag("data-stream-class", id=0, default_clock_class_id="c",
               packet_context_field_class=st(("tb", ts_role()))))
    t.add(frag("data-stream-class", id=1))
    a = t.add(frag("event-record-class", data_stream_class_id=0, name="a", payload_field_class=st(("v", U8))))
    b = t.add(frag("event-record-class", data_stream_class_id=1, name="b", payload_field_class=st(("v", U8))))
    t.stream("s0", t.packet(0, header={"dsc": 0}, context={"tb": 5}, events=[ev(a, p={"v": 1})]))
    t.stream("s1", t.packet(1, header={"dsc": 1}, events=[ev(b, p={"v": 2})]))
    return t


@bad
def bad_dsc_change_in_stream():
    t = Trace("dsc-change-in-stream", "a stream file whose second packet belongs to another data "
              "stream class")
    t.add(preamble())
    t.add(frag("trace-class", packet_header_field_class=st(("dsc", u(8, roles=["data-stream-class-id"])))))
    for d in (0, 1):
        t.add(frag("data-stream-class", id=d, packet_context_field_class=st(
            ("len", u(16, LE, align=8, roles=["packet-total-length"])))))
    a = t.add(frag("event-record-class", data_stream_class_id=0, name="a", payload_field_class=st(("v", U8))))
    b = t.add(frag("event-record-class", data_stream_class_id=1, name="b", payload_field_class=st(("v", U8))))
    t.stream("stream", t.packet(0, header={"dsc": 0}, context={"len": "TOTAL"}, events=[ev(a, p={"v": 1})]),
             t.packet(1, header={"dsc": 1}, context={"len": "TOTAL"}, events=[ev(b, p={"v": 2})]))
    return t


@bad
def bad_two_traces_unrelated_clocks():
    clk = lambda: frag("clock-class", id="c", frequency=1000000000)
    return MultiTrace("two-traces-unrelated-clocks", "two traces whose clocks have neither an "
                      "origin nor a name/uid identity: the muxer cannot correlate them (§6.3)", [
                          ("a", small_clocked("ha", "ns", "a", "uid-a", clk(), [10, 30], [1, 3])),
                          ("b", small_clocked("hb", "ns", "b", "uid-b", clk(), [20, 40], [2, 4])),
                      ])


@bad
def bad_two_traces_different_origins():
    return MultiTrace("two-traces-different-origins", "two traces, one clock with the unix-epoch "
                      "origin and one with a custom origin (§6.3)", [
                          ("a", small_clocked("ha", "ns", "a", "uid-a",
                                              frag("clock-class", id="c", frequency=1000000000,
                                                   origin="unix-epoch"), [10, 30], [1, 3])),
                          ("b", small_clocked("hb", "ns", "b", "uid-b",
                                              frag("clock-class", id="c", frequency=1000000000,
                                                   origin={"name": "boot", "uid": "b1"}), [20, 40], [2, 4])),
                      ])



# ---------------------------------------------------------------------------
# Traces on which babeltrace2 2.1.2 crashes: generated with a
# NAME.expect-error marker; a reader must exit 1 on them without crashing.

ABORT = "babeltrace2 2.1.2 aborts (exit 134)"
SEGV = "babeltrace2 2.1.2 segfaults (exit 139)"

bad_fc("float-length-16", "a 16-bit floating point number (CTF2-SPEC-2.0, fixed-length field classes: lengths other than 32 and 64 "
       "up to 64 crash babeltrace)", flt(16), crash=ABORT)
bad_fc("float-length-48", "a 48-bit floating point number (CTF2-SPEC-2.0, fixed-length field classes)", flt(48, align=8),
       stream=bytes(12), crash=ABORT)
bad_case("vl-integer-with-role", "a variable-length unsigned integer with a role (packet "
         "sequence number) in the packet context (CTF2-SPEC-2.0, variable-length integer field class)",
         base_frags(dsc=frag("data-stream-class", packet_context_field_class=st(
             ("seq", vu(roles=["packet-sequence-number"]))))), stream=b"\x00\x01\x02", crash=ABORT)
bad_fc("static-blob-length-0", "a static-length BLOB of length 0 (CTF2-SPEC-2.0, BLOB field classes)", sblob(0),
       before=[("a", U8)], crash=ABORT)
bad_fc("overlapping-option-ranges", "variant options whose selector ranges overlap (CTF2-SPEC-2.0, compound field classes)",
       var(loc("s"), ("a", [[0, 5]], U8), ("b", [[5, 9]], U8)), before=[("s", U8)],
       stream=b"\x00\x01", crash=ABORT)
bad_fc("array-no-element-class", "a static-length array without element-field-class (CTF2-SPEC-2.0, compound field classes)",
       {"type": "static-length-array", "length": 1}, crash=SEGV)
bad_fc("dynamic-array-no-element-class", "a dynamic-length array without element-field-class "
       "(CTF2-SPEC-2.0, compound field classes)", {"type": "dynamic-length-array", "length-field-location": loc("n")},
       before=[("n", U8)], crash=SEGV)
bad_case("member-no-field-class", "a structure member class without field-class (CTF2-SPEC-2.0, compound field classes)",
         base_frags(payload={"type": "structure", "member-classes": [{"name": "x"}]}), crash=SEGV)
bad_fc("optional-no-field-class", "an optional without field-class (CTF2-SPEC-2.0, compound field classes)",
       {"type": "optional", "selector-field-location": loc("f")},
       before=[("f", boolean(8))], crash=SEGV)
bad_fc("variant-boolean-selector", "a variant whose selector is a boolean (CTF2-SPEC-2.0, field locations)",
       var(loc("f"), ("a", [[0, 0]], U8), ("b", [[1, 1]], u(16))), before=[("f", boolean(8))],
       stream=b"\x00\x01", crash=ABORT)
bad_fc("optional-boolean-selector-ranges", "an optional with a boolean selector and "
       "selector-field-ranges (CTF2-SPEC-2.0, field locations)", opt(U8, loc("f"), [[1, 1]]), before=[("f", boolean(8))],
       stream=b"\x01\x02", crash=ABORT)


@bad
def bad_several_dsc_without_id():
    t = Trace("several-dsc-without-id", "two data stream classes and no data-stream-class-id "
              "field to choose between them (§5.3)")
    t.add(preamble())
    t.add(frag("data-stream-class", id=0))
    t.add(frag("data-stream-class", id=1))
    t.add(frag("event-record-class", data_stream_class_id=0, name="a", payload_field_class=st(("v", U8))))
    t.add(frag("event-record-class", data_stream_class_id=1, name="b", payload_field_class=st(("v", U8))))
    t.stream("stream", b"\x01\x02")
    t.crash = ABORT
    return t


@bad
def bad_several_erc_without_id():
    t = Trace("several-erc-without-id", "two event record classes in a data stream class "
              "without event-record-class-id field (§5.3)")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    t.add(frag("event-record-class", id=0, name="a", payload_field_class=st(("v", U8))))
    t.add(frag("event-record-class", id=1, name="b", payload_field_class=st(("v", U8))))
    t.stream("stream", b"\x01\x02")
    t.crash = SEGV
    return t


@bad
def bad_clock_without_packet_timestamp():
    t = Trace("clock-without-packet-timestamp", "a data stream class with a default clock class "
              "but no packet-context default-clock-timestamp field (§5.3), event header "
              "timestamps only")
    t.add(preamble())
    t.add(frag("clock-class", id="c", frequency=1000000000))
    t.add(frag("data-stream-class", default_clock_class_id="c",
               event_record_header_field_class=st(("ts", ts_role()))))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
    t.stream("stream", t.packet(events=[ev(e, h={"ts": 5}, p={"v": 1})]))
    t.crash = ABORT
    return t


@bad
def bad_dsc_without_erc_nonempty():
    t = Trace("dsc-without-erc-nonempty", "a data stream class without event record classes "
              "and a non-empty stream file")
    t.add(preamble())
    t.add(frag("data-stream-class", packet_context_field_class=st(("x", U8))))
    t.stream("stream", b"\x01\x02")
    t.crash = SEGV
    return t


def _env_crash(name, env, doc):
    bad_case(name, doc, base_frags(tc=frag("trace-class", environment=env)), crash=SEGV)


bad_case("env-vpid-string", "environment `vpid` given as a string (§9.5)",
         base_frags(tc=frag("trace-class", environment={"hostname": "h", "procname": "p",
                                                        "vpid": "12"})),
         crash="babeltrace2 2.1.2 prints a memory address as the vpid (undefined behaviour, "
         "not reproducible; exit 0)")
_env_crash("env-hostname-integer", {"hostname": 5}, "environment `hostname` given as an integer "
           "(§9.5)")
_env_crash("env-procname-integer", {"procname": 7, "vpid": 1}, "environment `procname` given "
           "as an integer (§9.5)")



@valid
def t_discarded_no_clock():
    t = Trace("discarded-no-clock", "discarded event records and packets without a clock "
              "(§5.4, §9.11): a first packet with a non-zero discarded-event counter (no "
              "warning from babeltrace 2.1.2), increments of 2 and 5, a packet sequence number "
              "jump of 3; warnings on stderr without times")
    t.add(preamble())
    t.add(frag("trace-class", name="disc", uid="disc-uid", environment={"hostname": "dhost"}))
    t.add(frag("data-stream-class", packet_context_field_class=st(
        ("size", u(16, BE, align=8, roles=["packet-total-length"])),
        ("disc", u(16, BE, align=8, roles=["discarded-event-record-counter-snapshot"])),
        ("seq", u(16, BE, align=8, roles=["packet-sequence-number"])))))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
    pk = []
    for i, (disc, seq) in enumerate(((4, 0), (6, 1), (6, 2), (11, 5))):
        pk.append(t.packet(context={"size": "TOTAL", "disc": disc, "seq": seq},
                           events=[ev(e, p={"v": i})]))
    t.stream("stream", *pk)
    return t


@valid
def t_discarded_with_clock():
    t = Trace("discarded-with-clock", "discarded event records and packets with begin and end "
              "timestamps: a first packet with a non-zero counter (no warning from babeltrace "
              "2.1.2), then increments of 7 and 246 and 3 lost packets, in a trace without "
              "uid (`no UID` in the warnings)")
    t.add(preamble())
    t.add(frag("trace-class", environment={"hostname": "dhost"}))
    t.add(frag("clock-class", id="c", frequency=1000, origin="unix-epoch",
               offset_from_origin={"seconds": 1234567890}))
    t.add(frag("data-stream-class", default_clock_class_id="c", packet_context_field_class=st(
        ("size", u(16, LE, align=8, roles=["packet-total-length"])),
        ("tb", u(32, LE, align=8, roles=["default-clock-timestamp"])),
        ("te", u(32, LE, align=8, roles=["packet-end-default-clock-timestamp"])),
        ("disc", u(8, roles=["discarded-event-record-counter-snapshot"])),
        ("seq", u(8, roles=["packet-sequence-number"]))),
        event_record_header_field_class=st(("ts", u(16, LE, align=8, roles=["default-clock-timestamp"])))))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
    pk = []
    for i, (tb, te, disc, seq) in enumerate(((100, 200, 2, 0), (300, 400, 2, 1), (500, 600, 9, 2),
                                             (900, 1000, 9, 6), (1100, 1200, 255, 7))):
        pk.append(t.packet(context={"size": "TOTAL", "tb": tb, "te": te, "disc": disc, "seq": seq},
                           events=[ev(e, h={"ts": tb + 10}, p={"v": i})]))
    t.stream("stream", *pk)
    return t


@valid
def t_magic_uuid_mismatch():
    t = Trace("magic-uuid-mismatch", "a wrong packet magic number (0xC1FC1FC2) and a packet "
              "metadata-stream-uuid differing from the preamble's: babeltrace 2.1.2 reports "
              "neither (CTF2-SPEC-2.0, roles), prints the events")
    t.add(preamble(uuid_bytes(UUID_A)))
    t.add(frag("trace-class", packet_header_field_class=std_header(dsc_id=False, dsid=False)))
    t.add(frag("data-stream-class", packet_context_field_class=st(
        ("size", u(32, LE, align=8, roles=["packet-total-length"])))))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
    t.stream("stream", t.packet(header={"magic": 0xC1FC1FC2, "uuid": uuid_bytes(UUID_B)},
                                context={"size": "TOTAL"}, events=[ev(e, p={"v": 1})]),
             t.packet(header={"magic": 0xC1FC1FC1, "uuid": uuid_bytes(UUID_C)},
                      context={"size": "TOTAL"}, events=[ev(e, p={"v": 2})]))
    return t



@valid
def t_location_parent_bug():
    t = Trace("location-parent-bug", "relative field locations with several leading nulls "
              "(a babeltrace bug against CTF2-SPEC-2.0, field locations): babeltrace cancels two consecutive leading nulls, so `[null, null, "
              "\"n\"]` finds the sibling `n` (spec: the `n` two structures up) and `[null, null, "
              "null, \"n\"]` finds the parent structure's `n` (spec: three structures up); "
              "every `n` has a different value so the output shows which one is used")
    t.add(preamble())
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(
        ("n", U8),
        ("s", st(("n", U8),
                 ("t", st(("n", U8),
                          ("two", darr(loc(None, None, "n"), U8)),
                          ("u", st(("n", U8),
                                   ("three", darr(loc(None, None, None, "n"), U8)))))))))))
    t.stream("stream", t.packet(events=[ev(e, p={
        "n": 1, "s": {"n": 2, "t": {"n": 3, "two": [0xA] * 3,
                                    "u": {"n": 4, "three": [0xB] * 3}}}})]))
    return t



@valid
def t_env_uint64():
    t = Trace("env-uint64", "an environment value above INT64_MAX (UINT64_MAX): babeltrace "
              "drops the entry with a warning log line on stderr (CTF2-SPEC-2.0, trace class fragment) and prints the rest "
              "(`-f all` shows the remaining entries)")
    t.add(preamble())
    t.add(frag("trace-class", environment={"hostname": "uhost", "big": 18446744073709551615,
                                           "vpid": 9223372036854775808, "procname": "up"}))
    t.add(frag("data-stream-class"))
    e = t.add(frag("event-record-class", name="ev", payload_field_class=st(("v", U8))))
    t.stream("stream", t.packet(events=[ev(e, p={"v": 1})]))
    return t



@valid
def t_json_escapes():
    t = Trace("json-escapes", "JSON string escapes in names, mapping labels and environment "
              "values (quote, backslash, slash, backspace, form feed, LF, CR, tab) and literal "
              "UTF-8; names print verbatim (control characters raw), labels and string "
              "values escaped.  No `\\uXXXX` escape: babeltrace 2.1.2 intermittently aborts "
              "on them (assertion `cp <= 0xffff` in its JSON string scanner)")
    t.add(preamble())
    t.add(RS + b'{"type":"trace-class","environment":{"hostname":"h\xc3\xa9\\/st","procname":'
          b'"p\\"r\\\\o\\tc","vpid":1}}\n')
    t.add(frag("data-stream-class"))
    t.add(RS + b'{"type":"event-record-class","name":"ev\xe2\x82\xac\\/\\"q\\"\\\\",'
          b'"payload-field-class":{"type":"structure","member-classes":['
          b'{"name":"a\\nb","field-class":{"type":"fixed-length-unsigned-integer","length":8,'
          b'"byte-order":"little-endian"}},'
          b'{"name":"c\\b\\f\\r","field-class":{"type":"fixed-length-unsigned-integer","length":8,'
          b'"byte-order":"little-endian","mappings":{"L\xc3\xa9\\"\\t":[[0,255]]}}},'
          b'{"name":"\xc3\xa9t\xc3\xa9","field-class":{"type":"null-terminated-string"}}]}}\n')
    t.stream("stream", b"\x01\x02h\xc3\xa9\x00")
    return t


# ---------------------------------------------------------------------------

def table(which):
    """Markdown table rows of the cases (for the READMEs)."""
    for build in VALID if which == "valid" else BAD:
        t = build()
        if which == "valid" or (which == "bad") == (t.crash is None):
            doc = t.doc.replace("|", "\\|").replace("\t", "\\t")
            extra = " — " + t.crash if which == "crash" else ""
            print("| `%s` | %s%s |" % (t.name, doc, extra))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--table" and sys.argv[2] in ("valid", "bad", "crash"):
        table(sys.argv[2])
        return
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: mktraces.py OUTDIR | --table valid|bad|crash")
    out = sys.argv[1]
    names = set()
    for group, builders in (("ctf2", VALID), ("ctf2-bad", BAD)):
        gdir = os.path.join(out, group)
        os.makedirs(gdir, exist_ok=True)
        for build in builders:
            t = build()
            assert t.name not in names, t.name
            names.add(t.name)
            assert (t.crash is None) or group == "ctf2-bad"
            t.write(gdir)


if __name__ == "__main__":
    main()
