#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Synthetic legacy LTTng (0.x kernel tracer, LTTV era) traces for testing
tracecat's reader in src/lttng_legacy/.

    python3 tests/lttng_legacy/mktrace.py OUTDIR

writes each trace as the directory OUTDIR/NAME/ and beside it:

* NAME.expected: what `tracecat print --clock-cycles --no-delta OUTDIR/NAME`
  must print (the bracket holds LTTV's event time in nanoseconds);
* NAME.first-wall: the wall-clock time of the first event, in nanoseconds;
* NAME.lost: the total of lost events, for traces that lose some.

This is a second implementation of the format rules of
doc/formats/lttng-legacy.md (a bare §N below is a section of that page),
written from them and from the code of the period without looking at the
reader, so that each checks the other: where they disagree, the format's
sources decide.  tests/fixtures/lttng-legacy/ holds its
output.  Stdlib only; the output is the same on every run.
"""
import os
import posixpath
import random
import re
import shutil
import struct
import sys
import zlib
from collections import Counter, namedtuple

PAGE_SIZE = 4096
MAGIC = 0x00D6B7ED
TSC27_MASK = (1 << 27) - 1
TSC32_MASK = (1 << 32) - 1

Sizes = namedtuple("Sizes", "int long pointer size_t")


def sizes_for(arch_size):
    return Sizes(int=4, long=arch_size, pointer=arch_size, size_t=arch_size)


def extend_tsc(cur, low, mask):
    """The full TSC a reader rebuilds from the truncated value `low` (§8.2)."""
    if low < cur & mask:
        return ((cur & ~mask) + mask + 1) | low
    return (cur & ~mask) | low


# ---------------------------------------------------------------------------
# Printing (babeltrace2's text syntax for field values)

STRING_ESCAPES = {"\\": "\\\\", "'": "\\'", '"': '\\"', "?": "\\?"}


def quote(text):
    assert all(" " <= c <= "~" for c in text), "fixtures keep to printable ASCII"
    return '"' + "".join(STRING_ESCAPES.get(c, c) for c in text) + '"'


def integer_text(value, base):
    if base == 16:
        assert value >= 0
        return "0x%X" % value
    if base == 8:
        assert value >= 0
        return "0%o" % value
    return str(value)


def field_names(raw_names):
    """Printed names: characters outside [A-Za-z0-9_] become '_', and a name
    met again in the same event gets _2, _3, ..."""
    seen = Counter()
    names = []
    for raw in raw_names:
        name = re.sub(r"[^A-Za-z0-9_]", "_", raw)
        seen[name] += 1
        names.append(name if seen[name] == 1 else "%s_%d" % (name, seen[name]))
    return names


# ---------------------------------------------------------------------------
# Writing a block (§4, §5)

class Layout:
    """Byte order and alignment rule of a trace (§3, §4)."""

    def __init__(self, big_endian, alignment, natural):
        self.byteorder = "big" if big_endian else "little"
        self.struct_prefix = ">" if big_endian else "<"
        self.alignment = alignment
        self.natural = natural      # formats 2.4 and 2.5 align a value to its full size

    def pad(self, pos, size):
        if self.alignment == 0:
            return 0
        boundary = size if self.natural else min(self.alignment, size)
        return -pos % boundary

    def pack(self, fields):
        """Packed (format letter, value) pairs in this byte order."""
        return struct.pack(self.struct_prefix + "".join(f for f, _ in fields), *(v for _, v in fields))


class Block:
    """A block being filled.  Positions count from its start, header included
    (the header bytes are written when the block is closed)."""

    def __init__(self, layout, header_size, begin_tsc, capacity):
        self.layout = layout
        self.data = bytearray(header_size)
        self.begin_tsc = begin_tsc
        self.cur_tsc = begin_tsc        # what a reader's current TSC is here (§8.1)
        self.capacity = capacity
        self.event_count = 0

    @property
    def pos(self):
        return len(self.data)

    def align(self, size):
        self.data += bytes(self.layout.pad(self.pos, size))

    def put_int(self, value, size, network=False):
        order = "big" if network else self.layout.byteorder
        self.data += (value & ((1 << 8 * size) - 1)).to_bytes(size, order)

    def set_int(self, offset, value, size):
        self.data[offset:offset + size] = value.to_bytes(size, self.layout.byteorder)

    def put_string(self, text):
        self.data += text.encode("ascii") + b"\0"

    def rollback(self, length, cur_tsc):
        del self.data[length:]
        self.cur_tsc = cur_tsc


# ---------------------------------------------------------------------------
# Value types: how a field is laid out (§7.3, §7.4) and printed

class Integer:
    def __init__(self, size, signed=False, network=False, base=10):
        self.size, self.signed, self.network, self.base = size, signed, network, base

    def encode(self, block, value):
        bits = 8 * self.size
        low, high = (-(1 << bits - 1), 1 << bits - 1) if self.signed else (0, 1 << bits)
        assert low <= value < high, value
        block.align(self.size)
        block.put_int(value, self.size, self.network)

    def printed(self, name, value):
        return ["%s = %s" % (name, integer_text(value, self.base))]


class Enumeration(Integer):
    def __init__(self, size, labels):
        super().__init__(size)
        self.labels = labels            # value -> label

    def printed(self, name, value):
        label = quote(self.labels[value]) if value in self.labels else "<unknown>"
        return ["%s = ( %s : container = %d )" % (name, label, value)]


class String:
    def __init__(self, realign=0):
        self.realign = realign          # facility strings realign to the pointer size after the NUL

    def encode(self, block, value):
        block.put_string(value)
        if self.realign:
            block.align(self.realign)

    def printed(self, name, value):
        return ["%s = %s" % (name, quote(value))]


class Sequence:
    """A facility sequence: its length, then the elements, then a realignment
    to the pointer size (§7.3)."""

    def __init__(self, length, element, realign):
        self.length, self.element, self.realign = length, element, realign

    def encode(self, block, values):
        block.align(max(self.length.size, self.element.size))
        self.length.encode(block, len(values))
        for value in values:
            self.element.encode(block, value)
        block.align(self.realign)

    def printed(self, name, values):
        items = ", ".join("[%d] = %s" % (i, integer_text(v, self.element.base)) for i, v in enumerate(values))
        elements = "[ %s ]" % items if items else "[ ]"
        return ["%s_length = %d" % (name, len(values)), "%s = %s" % (name, elements)]


class EventType:
    """An event as the generator writes and prints it.

    header_id is what the event header carries (a marker id, or a pair of
    facility and event ids); prefix is what the printed name starts with, or
    None where that is the tracefile's channel (formats 1.0, 2.1, 2.2)."""

    def __init__(self, name, fields, header_id, prefix, resets_tsc=False):
        self.name = name
        self.fields = fields            # [(printed name, value type)]
        self.header_id = header_id
        self.prefix = prefix
        self.resets_tsc = resets_tsc    # heartbeats whose payload replaces the current TSC

    def largest(self):
        return max((t.size for _, t in self.fields if isinstance(t, Integer)), default=1)

    def printed_name(self, tracefile):
        return "%s.%s" % (self.prefix if self.prefix is not None else tracefile.channel, self.name)


# ---------------------------------------------------------------------------
# Marker format strings (§7.4)

def qualifier_size(qualifier, sizes):
    fixed = {"L": 8, "h": 2, "1": 1, "2": 2, "4": 4, "8": 8}
    named = {"l": sizes.long, "z": sizes.size_t, "Z": sizes.size_t, "t": sizes.pointer}
    return fixed.get(qualifier) or named.get(qualifier) or sizes.int


def read_qualifier(fmt, i, allowed):
    if fmt[i:i + 2] == "ll":
        return "L", i + 2
    if fmt[i:i + 1] and fmt[i] in allowed:
        return fmt[i], i + 1
    return None, i


def conversion_type(conversion, qualifier, sizes):
    """(size, signed) of an integer conversion, "string", or None for a letter
    that is no conversion."""
    if conversion == "s":
        return "string"
    if conversion == "c":
        return 1, False
    if conversion == "p":
        return sizes.pointer, False
    if conversion in ("d", "i"):
        return qualifier_size(qualifier, sizes), True
    if conversion in ("o", "u", "x", "X"):
        return qualifier_size(qualifier, sizes), False
    return None


def parse_marker_format(fmt, sizes):
    """The fields of a marker format string: [(raw name, value type)]."""
    fields = []
    word_start = None       # where the pending field name starts
    name = None             # the pending field name, once a space has ended it
    trace_type = None       # (size, signed) or "string", from a '#' type
    network = False
    i = 0
    while i < len(fmt):
        char = fmt[i]
        if char in "#%" and fmt[i + 1:i + 2] == char:
            i += 2                      # '##' and '%%' are literal text
        elif char == "#":
            i += 1
            network = False
            while fmt[i:i + 1] == "n":
                network = True
                i += 1
            qualifier, i = read_qualifier(fmt, i, "hlLzZt1248")
            trace_type = conversion_type(fmt[i:i + 1], qualifier, sizes)
            # QUIRK 1: after a qualifier without a conversion letter, the next
            # character (the '%' of "#1%d") is swallowed with it.
            i += 1
        elif char == "%":
            i += 1
            while fmt[i:i + 1] and fmt[i] in "-+ #0":
                i += 1
            qualifier, i = read_qualifier(fmt, i, "hlLzZtS")
            conversion = fmt[i:i + 1]
            c_type = conversion_type(conversion, qualifier, sizes)
            if c_type is None:
                raise ValueError("no conversion in %r" % fmt)
            i += 1
            chosen = "string" if c_type == "string" else trace_type or c_type
            if chosen == "string":
                value_type = String()
            else:
                base = 16 if conversion in "pxX" else 8 if conversion == "o" else 10
                value_type = Integer(chosen[0], chosen[1], network, base)
            fields.append((name if name is not None else "field %d" % (len(fields) + 1), value_type))
            word_start = name = trace_type = None
            network = False
        else:
            if char == " ":
                if word_start is not None and name is None:
                    name = fmt[word_start:i]
            elif word_start is None:
                word_start = i
            i += 1
    return fields


class Marker(EventType):
    def __init__(self, name, event_id, fmt, sizes, channel=None, resets_tsc=False):
        parsed = parse_marker_format(fmt, sizes)
        fields = list(zip(field_names(raw for raw, _ in parsed), (t for _, t in parsed)))
        super().__init__(name, fields, event_id, channel, resets_tsc)
        self.format = fmt


# ---------------------------------------------------------------------------
# Facilities: XML descriptions of formats 0.x (§7.3)

def xml_attribute(name, value, quoted):
    return '%s="%s"' % (name, value) if quoted else "%s=%s" % (name, value)


class XmlScalar:
    # tag: (signed, size: a number or the name of a C type size, checksum signature)
    TAGS = {
        "int": (True, "int", "int"), "uint": (False, "int", "uint"),
        "long": (True, "long", "long"), "ulong": (False, "long", "unsigned long"),
        "short": (True, 2, "short"), "ushort": (False, 2, "unsigned short"),
        "char": (True, 1, "signed char"), "uchar": (False, 1, "unsigned char"),
        "size_t": (False, "size_t", "size_t"), "ssize_t": (True, "size_t", "ssize_t"),
        "off_t": (True, "size_t", "off_t"), "pointer": (False, "pointer", "void *"),
        "int_fixed": (True, None, "int%d_t"), "uint_fixed": (False, None, "uint%d_t"),
    }

    def __init__(self, tag, size=None, network=False):
        self.tag, self.size, self.network = tag, size, network

    def xml(self, quoted):
        attributes = []
        if self.size is not None:
            attributes.append(xml_attribute("size", self.size, quoted))
        if self.network:
            attributes.append(xml_attribute("byte_order", "network", quoted))
        return "<%s/>" % " ".join([self.tag] + attributes)

    def signature(self):
        signature = self.TAGS[self.tag][2]
        return signature % (8 * self.size) if self.size is not None else signature

    def resolve(self, sizes):
        signed, size, _ = self.TAGS[self.tag]
        if size is None:
            size = self.size
        elif isinstance(size, str):
            size = getattr(sizes, size)
        return Integer(size, signed, self.network, 16 if self.tag == "pointer" else 10)


class XmlEnum:
    def __init__(self, labels):
        self.labels = labels            # [(label, explicit value or None)]

    def values(self):
        """Label by value; a label without a value follows the previous one."""
        by_value, value = {}, 0
        for label, explicit in self.labels:
            value = explicit if explicit is not None else value
            by_value[value] = label
            value += 1
        return by_value

    def xml(self, quoted):
        labels = "".join(
            "\n      <label %s/>" % " ".join(
                [xml_attribute("name", label, quoted)]
                + ([xml_attribute("value", value, quoted)] if value is not None else []))
            for label, value in self.labels)
        return "<enum>%s\n    </enum>" % labels

    def signature(self):
        return "enum" + "".join(label for label, _ in self.labels)

    def resolve(self, sizes):
        return Enumeration(sizes.int, self.values())


class XmlTypeRef:
    def __init__(self, name, target):
        self.name, self.target = name, target

    def xml(self, quoted):
        return "<typeref %s/>" % xml_attribute("name", self.name, quoted)

    def signature(self):
        return self.target.signature()

    def resolve(self, sizes):
        return self.target.resolve(sizes)


class XmlString:
    def xml(self, quoted):
        return "<string/>"

    def signature(self):
        return "string"

    def resolve(self, sizes):
        return String(realign=sizes.pointer)


class XmlSequence:
    def __init__(self, length, element):
        self.length, self.element = length, element

    def xml(self, quoted):
        return "<sequence> %s %s </sequence>" % (self.length.xml(quoted), self.element.xml(quoted))

    def signature(self):
        return "sequence " + self.length.signature() + self.element.signature()

    def resolve(self, sizes):
        return Sequence(self.length.resolve(sizes), self.element.resolve(sizes), sizes.pointer)


FacilityEvent = namedtuple("FacilityEvent", "name fields description resets_tsc", defaults=("", False))


def crc32_continue(crc, text):
    """The table-driven CRC-32 update without the initial and final
    inversions, as genevent chains it (§7.3)."""
    return zlib.crc32(text.encode("ascii"), crc ^ 0xFFFFFFFF) ^ 0xFFFFFFFF


class Facility:
    def __init__(self, name, events, types=(), arch=None, description=""):
        self.name = name
        self.events = events            # [FacilityEvent]; the event id is the position
        self.types = types              # [(name, XmlEnum)] written as named types
        self.arch = arch                # for *_arch facilities: the suffix of the XML file name
        self.description = description

    def file_name(self):
        return "%s_%s.xml" % (self.name, self.arch) if self.arch else self.name + ".xml"

    def checksum(self):
        crc = zlib.crc32(self.name.encode("ascii"))
        for event in self.events:
            crc = crc32_continue(crc, event.name)
            for field_name, field_type in event.fields:
                crc = crc32_continue(crc, field_name)
                crc = crc32_continue(crc, field_type.signature())
        return crc

    def xml(self, quoted):
        """The eventdefs file, as proper XML or in the unquoted style of files
        older than LTTV 0.8.29 (whose field names were quoted already)."""
        facility_attributes = [xml_attribute("name", self.name, quoted)]
        if self.arch:
            facility_attributes.append(xml_attribute("arch", self.arch, quoted))
        lines = ['<?xml version="1.0"?>'] if quoted else []
        lines.append("<facility %s>" % " ".join(facility_attributes))
        if self.description:
            lines.append("  <description>%s</description>" % self.description)
        for type_name, type_xml in self.types:
            lines.append("  <type %s>" % xml_attribute("name", type_name, quoted))
            lines.append("    %s\n  </type>" % type_xml.xml(quoted))
        for event in self.events:
            lines.append("  <event %s>" % xml_attribute("name", event.name, quoted))
            if event.description:
                lines.append("    <description>%s</description>" % event.description)
            for field_name, field_type in event.fields:
                lines.append('    <field name="%s"> %s </field>' % (field_name, field_type.xml(quoted)))
            lines.append("  </event>")
        lines.append("</facility>")
        return "\n".join(lines) + "\n"

    def event_types(self, facility_id, sizes):
        return {
            event.name: EventType(
                event.name,
                [(name, xml_type.resolve(sizes)) for name, xml_type in event.fields],
                (facility_id, index), self.name, event.resets_tsc)
            for index, event in enumerate(self.events)}


def uint32():
    return XmlScalar("uint_fixed", 4)


FACILITY_LOAD_FIELDS = [("name", XmlString())] + [
    (name, uint32()) for name in
    ("checksum", "id", "int_size", "long_size", "pointer_size", "size_t_size", "has_alignment")]


def core_facility(minor):
    """Facility 0, whose events are hard-wired (§7.3): 0.8 inserted
    time_heartbeat_full before state_dump_facility_load."""
    events = [
        FacilityEvent("facility_load", FACILITY_LOAD_FIELDS),
        FacilityEvent("facility_unload", [("id", uint32())]),
        FacilityEvent("time_heartbeat", []),
    ]
    if minor >= 8:
        events.append(FacilityEvent("time_heartbeat_full", [("tsc", XmlScalar("uint_fixed", 8))],
                                    resets_tsc=True))
    events.append(FacilityEvent("state_dump_facility_load", FACILITY_LOAD_FIELDS))
    return Facility("core", events)


# ---------------------------------------------------------------------------
# Traces

class Tracefile:
    def __init__(self, path, block):
        self.path = path
        directory, base = posixpath.split(path)
        channel, _, cpu = base.rpartition("_")
        self.channel = posixpath.join(directory, channel)
        self.cpu = int(cpu)
        self.block = block              # the open block
        self.blocks = []                # closed blocks, as on disk
        self.events_lost = 0            # cumulative counter written in block headers (§9)


class Clock:
    """The TSC shared by all tracefiles of a trace.  Every event gets its own
    value, far enough from the others that no two events print the same time."""

    def __init__(self, start, seed):
        self.now = start
        self.random = random.Random(seed)

    def tick(self):
        self.now += self.random.randrange(400, 9000)
        return self.now

    def skip(self, cycles):
        self.now += cycles

    def skip_to_before_27bit_wrap(self, margin):
        """Moves to `margin` cycles before the low 27 bits wrap: the next
        tick crosses the boundary."""
        boundary = (self.now | TSC27_MASK) + 1
        assert boundary - margin > self.now
        self.now = boundary - margin


class Trace:
    """What all versions share: tracefiles made of blocks, the clock, and the
    expected output.  Subclasses write the block and event headers."""

    header_size = None
    ns_divides_by_freq_scale = True     # §8.3, §10.3: 2.2 is taken in its later reading

    def __init__(self, name, version, *, big_endian, arch_size, alignment, start_freq,
                 start_tsc, start_time, freq_scale=1, block_size=4096):
        self.name = name
        self.major, self.minor = version
        self.layout = Layout(big_endian, alignment, natural=version in ((2, 4), (2, 5)))
        self.arch_size = arch_size
        self.sizes = sizes_for(arch_size)
        self.start_freq, self.freq_scale = start_freq, freq_scale
        self.start_tsc, self.start_time = start_tsc, start_time
        self.block_size = block_size
        self.clock = Clock(start_tsc, seed=sum(map(ord, name)))
        self.tracefiles = {}
        self.lines = []                 # (ns, tracefile, text) in emission order
        self.header_cases = Counter()
        self.lost_count = 0

    # -- tracefiles and blocks

    def tracefile(self, path):
        if path not in self.tracefiles:
            self.tracefiles[path] = Tracefile(path, self.open_block(self.start_tsc))
        return self.tracefiles[path]

    def open_block(self, begin_tsc):
        return Block(self.layout, self.header_size, begin_tsc, self.block_size)

    def disk_size(self, data_size):
        return self.block_size

    def switch_block(self, tracefile, tsc=None):
        """Closes the open block at `tsc` (default: now) and opens the next."""
        tsc = self.clock.now if tsc is None else tsc
        block = tracefile.block
        disk_size = self.disk_size(block.pos)
        header = self.block_header(block, tsc, disk_size, tracefile.events_lost)
        assert len(header) == self.header_size
        assert self.end_of_data(header) == block.pos
        data = header + bytes(block.data[self.header_size:])
        tracefile.blocks.append(data + bytes(disk_size - len(data)))
        self.check_block(tracefile.blocks[-1], block)
        tracefile.block = self.open_block(tsc)

    def check_block(self, data, block):
        """Version-specific check of a closed block."""

    def lose_events(self, tracefile, count):
        tracefile.events_lost = (tracefile.events_lost + count) & TSC32_MASK
        self.lost_count += count

    # -- events

    def emit(self, tracefile, event_type, values, header=None, size_escape=False):
        self.emit_at(self.clock.tick(), tracefile, event_type, values, header, size_escape)

    def emit_heartbeat(self, tracefile, event_type):
        """A heartbeat whose payload is its own full TSC."""
        tsc = self.clock.tick()
        self.emit_at(tsc, tracefile, event_type, [tsc])

    def emit_at(self, tsc, tracefile, event_type, values, header=None, size_escape=False):
        case = self.write_event(tracefile.block, event_type, values, tsc, header, size_escape)
        if case is None:
            # The kernel switches sub-buffers when an event does not fit.
            self.switch_block(tracefile, tsc)
            case = self.write_event(tracefile.block, event_type, values, tsc, header, size_escape)
            assert case is not None, "event larger than a block"
        self.header_cases.update(case)
        payload = [text for (name, value_type), value in zip(event_type.fields, values)
                   for text in value_type.printed(name, value)]
        line = "%s: { cpu_id = %d }" % (event_type.printed_name(tracefile), tracefile.cpu)
        if payload:
            line += ", { %s }" % ", ".join(payload)
        self.lines.append((self.ns(tsc), tracefile, line))

    def write_event(self, block, event_type, values, tsc, header, size_escape):
        """Writes one event; returns the names of the header cases it used,
        or None (and writes nothing) if it does not fit in the block."""
        assert len(values) == len(event_type.fields)
        length, cur_tsc = block.pos, block.cur_tsc
        size_slot, case = self.write_event_header(block, event_type, tsc, header, size_escape)
        start = block.pos
        for (_, value_type), value in zip(event_type.fields, values):
            value_type.encode(block, value)
        if size_slot is not None:
            offset, width = size_slot
            assert block.pos - start < (1 << 8 * width) - 1
            block.set_int(offset, block.pos - start, width)
        if event_type.resets_tsc:
            block.cur_tsc = tsc
        if block.pos > block.capacity:
            block.rollback(length, cur_tsc)
            return None
        assert block.cur_tsc == tsc, "a reader would not rebuild this TSC"
        block.event_count += 1
        return case

    def ns(self, tsc):
        """LTTV's event time (§8.3), in IEEE double as it computes it."""
        scale = self.freq_scale or 1
        if self.ns_divides_by_freq_scale:
            return int(float(tsc) * 1e9 * scale / self.start_freq)
        return int(float(tsc) * (1e9 / scale) / self.start_freq)

    # -- output

    def write(self, outdir):
        for tracefile in self.tracefiles.values():
            self.switch_block(tracefile)
        root = os.path.join(outdir, self.name)
        shutil.rmtree(root, ignore_errors=True)     # no file of an earlier run stays in the trace
        for tracefile in self.tracefiles.values():
            path = os.path.join(root, tracefile.path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(b"".join(tracefile.blocks))
        self.write_extra_files(root)

        times = [ns for ns, _, _ in self.lines]
        assert times == sorted(times) and len(set(times)) == len(times), "events must have distinct times"
        with open(root + ".expected", "w") as out:
            out.writelines("[%020d] %s\n" % (ns, text) for ns, _, text in self.lines)
        sec, usec = self.start_time
        wall = sec * 10**9 + usec * 1000 + times[0] - self.ns(self.start_tsc)
        with open(root + ".first-wall", "w") as out:
            out.write("%d\n" % wall)
        lost = self.total_lost()
        assert lost == self.lost_count
        if lost:
            with open(root + ".lost", "w") as out:
                out.write("%d\n" % lost)

    def write_extra_files(self, root):
        """Files beside the tracefiles (the XML event definitions of 0.x)."""

    def total_lost(self):
        return 0


class MarkerDescriptions:
    """Markers and the metadata events that describe them (§7.1, §7.2)."""

    def init_markers(self, channel_in_metadata):
        """The metadata markers, ids 0 and 1: with a channel (2.3 and later)
        or without (1.0 to 2.2).  Their layouts are also what their own
        format strings say."""
        self.channel_in_metadata = channel_in_metadata
        if channel_in_metadata:
            id_name, format_name, prefix = "core_marker_id", "core_marker_format", "metadata"
            fields = "channel %s name %s "
        else:
            id_name, format_name, prefix = "set_marker_id", "set_marker_format", None
            fields = "name %s "
        sizes = "int #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u"
        self.id_marker = Marker(id_name, 0, fields + "event_id %hu " + sizes, self.sizes, prefix)
        self.format_marker = Marker(format_name, 1, fields + "format %s", self.sizes, prefix)

    def marker(self, name, event_id, fmt, channel=None, resets_tsc=False):
        channel = channel if self.channel_in_metadata else None
        return Marker(name, event_id, fmt, self.sizes, channel, resets_tsc)

    def announce(self, marker, id_file, format_file=None, format_first=False):
        """The two metadata events that describe `marker`."""
        channel = [marker.prefix] if self.channel_in_metadata else []
        id_values = channel + [marker.name, marker.header_id, *self.sizes, self.layout.alignment]
        described = [(id_file, self.id_marker, id_values),
                     (format_file or id_file, self.format_marker, channel + [marker.name, marker.format])]
        for tracefile, event_type, values in described[::-1] if format_first else described:
            self.emit(tracefile, event_type, values)


class Trace2x(MarkerDescriptions, Trace):
    """Formats 2.1 to 2.6: sub-buffer header (§5.1), 32-bit event header
    (§6.1), markers (§7.1, §7.2)."""

    def __init__(self, name, version, subbuffer_size=16384, **options):
        super().__init__(name, version, **options)
        self.header_size = 60 if version == (2, 1) else 68
        self.ns_divides_by_freq_scale = version >= (2, 2)
        self.variable_blocks = version >= (2, 5)
        self.subbuffer_size = subbuffer_size
        self.init_markers(channel_in_metadata=version >= (2, 3))

    def metadata_file(self, cpu):
        return self.tracefile(("metadata_%d" if self.minor >= 3 else "control/metadata_%d") % cpu)

    def open_block(self, begin_tsc):
        capacity = self.subbuffer_size if self.variable_blocks else self.block_size
        return Block(self.layout, self.header_size, begin_tsc, capacity)

    def disk_size(self, data_size):
        if self.variable_blocks:
            return -(-data_size // PAGE_SIZE) * PAGE_SIZE
        return self.block_size

    def block_header(self, block, end_tsc, disk_size, events_lost):
        sec, usec = self.start_time
        fields = [("Q", block.begin_tsc), ("Q", end_tsc), ("I", MAGIC), ("B", 2), ("B", self.minor),
                  ("B", self.arch_size), ("B", self.layout.alignment), ("Q", sec), ("Q", usec),
                  ("Q", self.start_freq), ("I", self.freq_scale)]
        if self.variable_blocks:
            fields += [("I", block.pos), ("I", disk_size)]              # data_size, sb_size
        else:
            fields += [("I", disk_size - block.pos), ("I", disk_size)]  # lost_size, buf_size
        if self.minor >= 2:
            fields += [("I", events_lost), ("I", 0)]                    # subbuf_corrupt
        return self.layout.pack(fields)

    def end_of_data(self, header):
        data_size_or_lost, block_size = struct.unpack_from(self.layout.struct_prefix + "II", header, 52)
        return data_size_or_lost if self.variable_blocks else block_size - data_size_or_lost

    def write_event_header(self, block, event_type, tsc, header, size_escape):
        """header: None to choose as the kernel does, or one of "compact", 29,
        30, 31; size_escape writes the size as 0xFFFF and a u32."""
        full_tsc_needed = tsc - block.cur_tsc >= 1 << 27
        if header is None:
            header = 29 if full_tsc_needed else "compact" if event_type.header_id <= 28 else 31
        block.align(4)
        id5 = event_type.header_id if header == "compact" else header
        assert id5 <= 28 or header != "compact"
        block.put_int(id5 << 27 | tsc & TSC27_MASK, 4)
        case = [header]
        size_slot = None
        if header != "compact":
            block.put_int(event_type.header_id, 2)
        if header in (29, 30):
            if size_escape:
                block.put_int(0xFFFF, 2)
                size_slot = (block.pos, 4)
                block.put_int(0, 4)
                case.append("%s size escape" % header)
            else:
                size_slot = (block.pos, 2)
                block.put_int(0, 2)
        if header == 29:
            if block.layout.pad(block.pos, 8):
                case.append("padded full TSC")
            block.align(8)
            block.put_int(tsc, 8)
            block.cur_tsc = tsc
        else:
            if tsc & TSC27_MASK < block.cur_tsc & TSC27_MASK:
                case.append("27-bit wrap")
            block.cur_tsc = extend_tsc(block.cur_tsc, tsc & TSC27_MASK, TSC27_MASK)
        block.align(event_type.largest())
        return size_slot, case

    def total_lost(self):
        """Lost events by the block counters (2.2 and later): increments
        modulo 2^32 (§9)."""
        if self.minor < 2:
            return 0
        total = 0
        for tracefile in self.tracefiles.values():
            previous = 0
            for data in tracefile.blocks:
                counter = struct.unpack_from(self.layout.struct_prefix + "I", data, 60)[0]
                total += (counter - previous) & TSC32_MASK
                previous = counter
        return total


class BlockStartTrace(Trace):
    """Formats 0.7, 0.8 and 1.0: packed block start header and trace header
    (§5.2), event headers with a 32- or 64-bit TSC and a size (§6.2, §6.3)."""

    ns_divides_by_freq_scale = False
    TRACE_HEADER_FIELDS = {
        (0, 7): "magic arch_type arch_variant float_word_order arch_size major minor flight_recorder "
                "has_heartbeat alignment freq_scale start_freq start_tsc start_monotonic "
                "start_time_sec start_time_usec",
        (0, 8): "magic arch_type arch_variant float_word_order arch_size major minor flight_recorder "
                "has_heartbeat alignment tsc_lsb_truncate tscbits freq_scale start_freq start_tsc "
                "start_monotonic start_time_sec start_time_usec",
        (1, 0): "magic arch_type arch_variant float_word_order arch_size major minor flight_recorder "
                "has_heartbeat alignment tsc_lsb_truncate tscbits compact_data_shift freq_scale start_freq "
                "start_tsc start_monotonic start_time_sec start_time_usec",
    }
    FIELD_FORMATS = {"magic": "I", "arch_type": "I", "arch_variant": "I", "float_word_order": "I",
                     "freq_scale": "I", "start_freq": "Q", "start_tsc": "Q", "start_monotonic": "Q",
                     "start_time_sec": "Q", "start_time_usec": "Q"}     # the others are u8
    HEADER_SIZES = {(0, 7): 106, (0, 8): 108, (1, 0): 109}

    def __init__(self, name, version, *, arch_type, has_heartbeat, **options):
        super().__init__(name, version, **options)
        self.header_size = self.HEADER_SIZES[version]
        self.arch_type = arch_type
        self.has_heartbeat = has_heartbeat

    def block_header(self, block, end_tsc, disk_size, events_lost):
        sec, usec = self.start_time
        values = {
            "magic": MAGIC, "arch_type": self.arch_type, "arch_variant": 0, "float_word_order": 0,
            "arch_size": self.arch_size, "major": self.major, "minor": self.minor, "flight_recorder": 0,
            "has_heartbeat": int(self.has_heartbeat), "alignment": self.layout.alignment,
            "tsc_lsb_truncate": 10, "tscbits": 27, "compact_data_shift": 32,   # for the compact channel
            "freq_scale": self.freq_scale, "start_freq": self.start_freq, "start_tsc": self.start_tsc,
            "start_monotonic": 0, "start_time_sec": sec, "start_time_usec": usec,
        }
        block_start = [("Q", block.begin_tsc), ("Q", self.start_freq), ("Q", end_tsc), ("Q", self.start_freq),
                       ("I", disk_size - block.pos), ("I", disk_size)]
        trace_header = [(self.FIELD_FORMATS.get(name, "B"), values[name])
                        for name in self.TRACE_HEADER_FIELDS[(self.major, self.minor)].split()]
        return self.layout.pack(block_start + trace_header)

    def end_of_data(self, header):
        lost_size, buf_size = struct.unpack_from(self.layout.struct_prefix + "II", header, 32)
        return buf_size - lost_size

    def write_event_header(self, block, event_type, tsc, header, size_escape):
        assert header is None and not size_escape, "only 2.x event headers have variants"
        block.align(self.arch_size)
        case = []
        if self.has_heartbeat:
            block.put_int(tsc & TSC32_MASK, 4)
            if tsc & TSC32_MASK < block.cur_tsc & TSC32_MASK:
                case.append("32-bit wrap")
            block.cur_tsc = extend_tsc(block.cur_tsc, tsc & TSC32_MASK, TSC32_MASK)
        else:
            block.put_int(tsc, 8)
            block.cur_tsc = tsc
        self.put_event_id(block, event_type.header_id)
        size_slot = (block.pos, 2)
        block.put_int(0, 2)
        block.align(self.arch_size)
        return size_slot, case

    def check_block(self, data, block):
        """Steps over the events by their header sizes alone, as a reader
        that cannot decode a payload would: they must end at the end of data."""
        pos, count = self.header_size, 0
        end = self.end_of_data(data)
        while pos < end:
            pos += self.layout.pad(pos, self.arch_size)
            pos += (4 if self.has_heartbeat else 8) + 2     # TSC; u16 id, or u8 facility and u8 event ids
            payload_size = int.from_bytes(data[pos:pos + 2], self.layout.byteorder)
            pos += 2
            pos += self.layout.pad(pos, self.arch_size) + payload_size
            count += 1
        assert pos == end and count == block.event_count


class Trace10(MarkerDescriptions, BlockStartTrace):
    """Format 1.0: markers without channel in control/facilities_N (§7.2)."""

    def __init__(self, name, **options):
        super().__init__(name, (1, 0), **options)
        self.init_markers(channel_in_metadata=False)
        self.heartbeat_32 = self.marker("heartbeat_32", 2, "")
        self.heartbeat_64 = self.marker("heartbeat_64", 3, "tsc #8u%llu", resets_tsc=True)

    def metadata_file(self, cpu):
        return self.tracefile("control/facilities_%d" % cpu)

    def put_event_id(self, block, event_id):
        block.put_int(event_id, 2)


class Trace0x(BlockStartTrace):
    """Formats 0.7 and 0.8: facilities loaded by core events, described by
    eventdefs/*.xml (§7.3)."""

    # by arch_type: the suffix of the XML files of *_arch facilities
    ARCH_NAMES = {1: "i386", 2: "ppc", 3: "sh", 4: "s390", 5: "mips", 6: "arm", 7: "ppc64", 8: "x86_64",
                  9: "c2", 10: "powerpc"}

    def __init__(self, name, version, *, checksums_match, **options):
        super().__init__(name, version, **options)
        self.core = core_facility(self.minor).event_types(0, self.sizes)
        self.checksums_match = checksums_match
        self.eventdefs = {}             # file name -> XML text

    def put_event_id(self, block, header_id):
        facility_id, event_id = header_id
        block.put_int(facility_id, 1)
        block.put_int(event_id, 1)

    def load(self, facility, facility_id, tracefile, quoted, state_dump=False):
        """Emits the facility_load (or state_dump_facility_load) event and
        returns the facility's event types by name.  The checksum is either
        §7.3's or, where the trace says the checksums need not match, the CRC
        of the name alone."""
        if facility.arch:
            assert facility.arch == self.ARCH_NAMES[self.arch_type]
        self.eventdefs[facility.file_name()] = facility.xml(quoted)
        checksum = facility.checksum() if self.checksums_match else zlib.crc32(facility.name.encode())
        values = [facility.name, checksum, facility_id, *self.sizes, self.layout.alignment]
        self.emit(tracefile, self.core["state_dump_facility_load" if state_dump else "facility_load"], values)
        return facility.event_types(facility_id, self.sizes)

    def write_extra_files(self, root):
        os.makedirs(os.path.join(root, "eventdefs"), exist_ok=True)
        for file_name, text in sorted(self.eventdefs.items()):
            with open(os.path.join(root, "eventdefs", file_name), "w") as out:
                out.write(text)


# ---------------------------------------------------------------------------
# Values

WORDS = ["bash", "init", "sshd", "kworker/0:1", "a \"quoted\" name", "back\\slash", "what?", "it's",
         "/usr/lib/libc.so.6", "", "x"]


class Values:
    """Field values, chosen deterministically, with the edge cases of each
    size and signedness among them."""

    def __init__(self, seed):
        self.random = random.Random(seed)

    def integer(self, value_type):
        bits = 8 * value_type.size
        if isinstance(value_type, Enumeration):
            return self.random.choice(sorted(value_type.labels) + [max(value_type.labels) + 7])
        # Any number of significant bits, so that every byte matters sometimes.
        value_bits = bits - 1 if value_type.signed else bits
        magnitude = self.random.randrange(1 << self.random.randrange(value_bits))
        if value_type.signed:
            edges = [0, -1, 1, -(1 << bits - 1), (1 << bits - 1) - 1]
            return self.random.choice(edges + [magnitude, -magnitude - 1] * 2)
        edges = [0, 1, (1 << bits) - 1]
        return self.random.choice(edges + [magnitude] * 3)

    def for_fields(self, event_type):
        values = []
        for _, value_type in event_type.fields:
            if isinstance(value_type, String):
                values.append(self.random.choice(WORDS))
            elif isinstance(value_type, Sequence):
                values.append([self.integer(value_type.element) for _ in range(self.random.randrange(6))])
            else:
                values.append(self.integer(value_type))
        return values


def emit_some(trace, values, tracefile, event_type, count):
    for _ in range(count):
        trace.emit(tracefile, event_type, values.for_fields(event_type))


# ---------------------------------------------------------------------------
# The traces

# The two markers of the worked examples below: a string after a u8, and a
# u64 after a pointer.
DEMO_FORMAT = "pid %d prio #1u%u comm %s"
BIG_FORMAT = "flag #1u%u addr %p count %llu"


def v26_be_64():
    """The layout of the second worked example: 2.6, big-endian, 64-bit,
    aligned; metadata and kernel on two CPUs, fs on one; a marker id also used by another channel;
    variable sub-buffer sizes; an empty block."""
    trace = Trace2x("v26-be-64", (2, 6), big_endian=True, arch_size=8, alignment=8, start_freq=2394199000,
                    start_tsc=430026387953931, start_time=(1265054412, 731204))
    values = Values(1)
    meta0, meta1 = trace.metadata_file(0), trace.metadata_file(1)
    kernel = [trace.tracefile("kernel_0"), trace.tracefile("kernel_1")]
    fs = trace.tracefile("fs_1")

    demo = trace.marker("demo", 5, DEMO_FORMAT, "kernel")
    big = trace.marker("big", 40, BIG_FORMAT, "kernel")
    sched = trace.marker("sched_schedule", 3, "prev_pid %d next_pid %d prev_state #2d%ld", "kernel")
    printk = trace.marker("printk", 7, "ip %lX text %s", "kernel")
    fs_open = trace.marker("open", 5, "fd %d filename %s", "fs")
    fs_read = trace.marker("read", 0, "fd %u count %zu pos %lld", "fs")
    for marker in (demo, big, sched, printk):
        trace.announce(marker, meta0)
    trace.announce(fs_open, meta1)

    trace.emit(kernel[0], demo, [1234, 120, "bash"])
    trace.emit(kernel[0], big, [1, 0xC0FFEE00, 7])
    trace.emit(kernel[1], sched, [0, 1902, -2])
    emit_some(trace, values, fs, fs_open, 3)
    trace.announce(fs_read, meta1)
    # The metadata markers describe themselves in the middle of the stream.
    trace.announce(trace.id_marker, meta1)
    trace.announce(trace.format_marker, meta1)
    for round in range(4):
        for event_type in (demo, big, sched):
            trace.emit(kernel[round % 2], event_type, values.for_fields(event_type))
        trace.emit(fs, fs_read, values.for_fields(fs_read))
    trace.switch_block(kernel[0])
    trace.clock.skip(50000)
    trace.switch_block(kernel[0])       # a block with no event
    # Long messages make one block of kernel_1 two pages long on disk.
    long_text = "The quick brown fox jumps over the lazy dog; " * 40
    for length in (1500, 1800, 1200):
        trace.emit(kernel[1], printk, [0xFFFFFFFF8102A3C0 + length, long_text[:length]])
    for round in range(5):
        for event_type in (sched, demo):
            trace.emit(kernel[round % 2], event_type, values.for_fields(event_type))
        trace.emit(fs, fs_open, values.for_fields(fs_open))
    trace.clock.skip(3 << 27)           # long enough for full-TSC headers
    for tracefile in kernel:
        trace.emit(tracefile, big, values.for_fields(big))
        trace.emit(tracefile, printk, [0xFFFFFFFF81000000, "done"])
    return trace


def aligned_32bit_markers(trace):
    """Markers whose 64-bit fields show which alignment rule applies on a
    32-bit trace with alignment 4 (§4)."""
    return [
        trace.marker("big", 40, BIG_FORMAT, "kernel"),
        trace.marker("sched_schedule", 3, "prev_pid %d next_pid %d prev_state #2d%ld", "kernel"),
        trace.marker("vm_map", 12, "address %lu len #2u%u pgoff #8u%llu", "kernel"),
        trace.marker("timer_update_time", 8, "jiffies #8u%llu xtime_sec %ld", "kernel"),
        trace.marker("demo", 5, DEMO_FORMAT, "kernel"),
    ]


def aligned_32bit_events(trace, blocks_per_cpu):
    """Events on two CPUs, with block switches, for the markers above."""
    values = Values(trace.minor)
    meta = trace.metadata_file(0)
    kernel = [trace.tracefile("kernel_0"), trace.tracefile("kernel_1")]
    markers = aligned_32bit_markers(trace)
    for marker in markers:
        trace.announce(marker, meta)
    for block in range(blocks_per_cpu):
        if block:
            for tracefile in kernel:
                trace.switch_block(tracefile)
        if block == blocks_per_cpu - 1:
            trace.clock.skip(1 << 28)       # the next event per CPU has a full TSC
        for round in range(4):
            for marker in markers:
                trace.emit(kernel[(round + block) % 2], marker, values.for_fields(marker))
    assert 29 in trace.header_cases


def v23_le_32_align4():
    """2.3, 32-bit little-endian, alignment 4: a u64 lies on a 4-byte
    boundary; fixed blocks with lost_size/buf_size."""
    trace = Trace2x("v23-le-32-align4", (2, 3), big_endian=False, arch_size=4, alignment=4,
                    start_freq=1993051000, start_tsc=47642495171450, start_time=(1260799231, 954370))
    aligned_32bit_events(trace, blocks_per_cpu=3)
    return trace


def v25_le_32_align4():
    """2.5, 32-bit little-endian, alignment 4: 2.4/2.5 align a u64 on 8."""
    trace = Trace2x("v25-le-32-align4", (2, 5), big_endian=False, arch_size=4, alignment=4,
                    start_freq=2327507000, start_tsc=27101290476412, start_time=(1265915603, 70112))
    aligned_32bit_events(trace, blocks_per_cpu=2)
    return trace


def v26_le_lost():
    """2.6, packed: cumulative events_lost counters, one wrapping past 2^32;
    a channel whose first block is empty; a CPU number gap."""
    trace = Trace2x("v26-le-lost", (2, 6), big_endian=False, arch_size=4, alignment=0,
                    start_freq=2394199000, start_tsc=430026387953931, start_time=(1265054412, 5))
    values = Values(4)
    meta = trace.metadata_file(0)
    kernel = [trace.tracefile("kernel_0"), trace.tracefile("kernel_2")]
    vm_state = trace.tracefile("vm_state_0")
    syscall_entry = trace.marker("syscall_entry", 0, "ip #p%ld syscall_id #2u%u", "kernel")
    syscall_exit = trace.marker("syscall_exit", 1, "ret %ld", "kernel")
    vm_map = trace.marker("vm_map", 0, "pid %u start %lu end %lu flags %lu pgoff %lu inode %lu", "vm_state")
    for marker in (syscall_entry, syscall_exit, vm_map):
        trace.announce(marker, meta)

    trace.clock.skip(5000000)
    trace.switch_block(vm_state)        # its first block stays empty
    # events lost at the end of each block of the kernel files
    losses = {kernel[0]: [12, 28], kernel[1]: [100, 4294967100, 146]}
    for block in range(3):
        for round in range(5):
            for tracefile in kernel:
                trace.emit(tracefile, syscall_entry, values.for_fields(syscall_entry))
                trace.emit(tracefile, syscall_exit, values.for_fields(syscall_exit))
            if block == 1:
                trace.emit(vm_state, vm_map, values.for_fields(vm_map))
        for tracefile, block_losses in losses.items():
            if block < len(block_losses):
                trace.lose_events(tracefile, block_losses[block])
            if block < len(block_losses) - 1:
                trace.switch_block(tracefile)
    trace.lose_events(vm_state, 3)
    return trace


KERNEL_MARKERS = [      # compact ids 0 to 28 of the headers trace
    ("syscall_entry", "ip #p%ld syscall_id #2u%u"),
    ("syscall_exit", "ret %ld"),
    ("trap_entry", "ip #p%ld trap_id #2u%u"),
    ("trap_exit", " "),
    ("irq_entry", "ip %lu handler %p irq_id #2u%u kernel_mode #1u%u"),
    ("irq_exit", "handled #1u%u"),
    ("softirq_entry", "softirq_id #1u%lu"),
    ("softirq_exit", "softirq_id #1u%lu"),
    ("softirq_raise", "softirq_id #1u%u"),
    ("tasklet_low_entry", "func %p data %lu"),
    ("tasklet_low_exit", "func %p data %lu"),
    ("tasklet_high_entry", "func %p data %lu"),
    ("tasklet_high_exit", "func %p data %lu"),
    ("timer_set", "expires %lu function %p data %lu"),
    ("timer_update_time", "jiffies #8u%llu xtime_sec %ld xtime_nsec %ld walltomonotonic_sec %ld"),
    ("timer_timeout", "pid %d"),
    ("sched_schedule", "prev_pid %d next_pid %d prev_state #2d%ld"),
    ("sched_try_wakeup", "pid %d cpu_id %u state #2d%ld"),
    ("sched_wakeup_new_task", "pid %d cpu_id %u state #2d%ld"),
    ("sched_migrate_task", "pid %d state #2d%ld dest_cpu %d"),
    ("process_fork", "parent_pid %d child_pid %d child_tgid %d"),
    ("process_exit", "pid %d"),
    ("process_free", "pid %d"),
    ("process_wait", "pid %d"),
    ("send_signal", "pid %d signal %d"),
    ("kthread_create", "fn %p pid %d"),
    ("printk", "ip %lX"),
    ("vprintk", "loglevel #1u%u string %s ip %lX"),
    ("module_load", "name %s"),
]


def headers():
    """2.6, 64-bit little-endian, aligned: every event header case of §6.1,
    the TSC wrap of §8.2, the format-string quirks of §7.4, and metadata
    whose format comes first and from the other CPU's file."""
    trace = Trace2x("headers", (2, 6), big_endian=False, arch_size=8, alignment=8, start_freq=2000000000,
                    start_tsc=0x1234500000, start_time=(1262715366, 408819))
    values = Values(5)
    meta0, meta1 = trace.metadata_file(0), trace.metadata_file(1)
    kernel = trace.tracefile("kernel_0")
    pm, net, user = (trace.tracefile(path) for path in ("pm_0", "net_1", "userspace_1"))

    compact = [trace.marker(name, event_id, fmt, "kernel")
               for event_id, (name, fmt) in enumerate(KERNEL_MARKERS)]
    extended = [trace.marker(name, event_id, fmt, "kernel") for name, event_id, fmt in (
        ("page_fault_entry", 29, "ip #p%lu address %lu trap_id #2u%u write_access #1u%u"),
        ("page_fault_exit", 31, "res %d"),
        ("kprobe", 1000, "ip %p"),
        ("big", 40, BIG_FORMAT),
    )]
    idle_entry = trace.marker("idle_entry", 0, "irqstate #1%d", "pm")
    idle_exit = trace.marker("idle_exit", 1, "irqstate #1%d", "pm")
    dev_xmit = trace.marker("dev_xmit", 0, "skb %p protocol #n2u%hu", "net")
    tcpv4_rcv = trace.marker("tcpv4_rcv", 1, "skb %p saddr #n4u%lu daddr #n4u%lu sport #n2u%hu", "net")
    odd = [trace.marker(name, event_id, fmt, "userspace") for name, event_id, fmt in (
        ("request_issue", 6, "data_len %u sector %llu rw(FAILFAST_DRIVER,FAILFAST_TRANSPORT,"
                             "FAILFAST_DEV,DISCARD,META,SYNC,BARRIER,AHEAD,RW) %d"),
        ("narrow", 0, "a #2d%ld b #1x%c c #p%lu d %c"),
        ("unnamed", 1, "%d %s x %u %lu"),
        ("literals", 2, "load%% %u usage 100%% %u tag ## #1u%u"),
        ("repeated", 3, "x %d x %d x %u a-b %d a.b %d"),
        ("bases", 4, "mode %o mask %x MASK %lX size %zu diff %td big %lld"),
        ("glued", 5, "pid%d name %s"),
    )]

    # Formats first, from the other CPU's file; the ids follow in metadata_0.
    for marker in (idle_entry, idle_exit, dev_xmit):
        trace.announce(marker, id_file=meta0, format_file=meta1, format_first=True)
    for marker in compact + extended + [tcpv4_rcv] + odd:
        trace.announce(marker, meta0, meta0 if marker.header_id % 2 else meta1)

    for marker in compact:
        emit_some(trace, values, kernel, marker, 1)
    for marker in extended:
        emit_some(trace, values, kernel, marker, 2)
    for header in (29, 30, 31):
        for escape in (False, True) if header != 31 else (False,):
            for marker in compact[14:18]:   # payloads of several sizes move the next header
                trace.emit(kernel, marker, values.for_fields(marker), header, escape)
    trace.emit(kernel, extended[2], [0xFFFF], header=30)     # u16 id above 28 with a size
    # Crossing a 27-bit boundary with headers that carry only the low bits.
    for header in ("compact", 30, 31):
        trace.clock.skip_to_before_27bit_wrap(10000)
        trace.emit(kernel, compact[16], values.for_fields(compact[16]))
        trace.clock.skip_to_before_27bit_wrap(200)
        trace.emit(kernel, compact[16], values.for_fields(compact[16]), header)
    trace.clock.skip(5 << 27)           # the kernel writes full TSCs after long gaps
    emit_some(trace, values, kernel, compact[0], 1)

    for _ in range(4):
        trace.emit(pm, idle_entry, [])
        trace.emit(pm, idle_exit, [])
    emit_some(trace, values, net, dev_xmit, 3)
    trace.emit(net, tcpv4_rcv, [0xFFFF88003A4C1D00, 0xC0A80001, 0x0A000002, 443])
    emit_some(trace, values, net, tcpv4_rcv, 3)
    for marker in odd:
        emit_some(trace, values, user, marker, 2)
    trace.announce(trace.format_marker, meta1)  # the metadata markers describe themselves late
    trace.announce(trace.id_marker, meta1)
    for marker in compact[:5] + extended:
        emit_some(trace, values, kernel, marker, 1)

    covered = set(trace.header_cases)
    wanted = {"compact", 29, 30, 31, "29 size escape", "30 size escape", "padded full TSC", "27-bit wrap"}
    assert wanted <= covered, wanted - covered
    return trace


def control_markers(trace, cpu0_blocks, state_dump):
    """Markers and events of the formats without channels in the metadata
    (1.0, 2.1, 2.2): one id space for all tracefiles, names from the files.
    With state_dump, control/processes_0 holds process states, and a second
    metadata file describes some markers."""
    values = Values(trace.major * 10 + trace.minor)
    meta = [trace.metadata_file(cpu) for cpu in range(2 if state_dump else 1)]
    cpu = [trace.tracefile("cpu_0"), trace.tracefile("cpu_1")]
    sched = trace.marker("sched_schedule", 8, "prev_pid %d next_pid %d prev_state #2d%ld")
    irq = trace.marker("irq_entry", 9, "ip %lu irq_id #2u%u kernel_mode #1u%u")
    fork = trace.marker("process_fork", 130, "parent_pid %d child_pid %d child_tgid %d")
    big = trace.marker("big", 140, BIG_FORMAT)
    for marker in (sched, irq, fork):
        trace.announce(marker, meta[0])
    trace.announce(big, meta[-1], meta[0])
    if state_dump:
        state = trace.marker("process_state", 131,
                             "pid %d parent_pid %d name %s type %d mode %d submode %d status %d")
        trace.announce(state, meta[1])
        emit_some(trace, values, trace.tracefile("control/processes_0"), state, 6)
    for block in range(cpu0_blocks):
        if block:
            trace.switch_block(cpu[0])
        for round in range(4):
            for marker in (sched, irq, fork, big):
                trace.emit(cpu[(round + block) % 2], marker, values.for_fields(marker))
        if block == 0:
            trace.announce(trace.id_marker, meta[-1])   # self-description, in the middle
            trace.announce(trace.format_marker, meta[-1])
    return cpu, (sched, irq)


def v22_control():
    """2.2: 68-byte header, metadata in control/metadata_N without channel."""
    trace = Trace2x("v22-control", (2, 2), big_endian=False, arch_size=4, alignment=0,
                    start_freq=1862000000, start_tsc=9170014453880, start_time=(1228493817, 261734))
    control_markers(trace, cpu0_blocks=2, state_dump=True)
    return trace


def v21():
    """2.1: 60-byte header, packed."""
    trace = Trace2x("v21", (2, 1), big_endian=False, arch_size=4, alignment=0,
                    start_freq=1596000000, start_tsc=611390471202, start_time=(1224766804, 999999))
    control_markers(trace, cpu0_blocks=1, state_dump=False)
    return trace


def jump_past_32_bits(trace, tracefile, heartbeat, followers):
    """More than 2^32 cycles pass: only a heartbeat with a full TSC lets a
    reader of 32-bit event TSCs follow.  No other tracefile gets events after
    it, since they would have needed heartbeats of their own."""
    trace.clock.skip(3 << 32)
    trace.emit_heartbeat(tracefile, heartbeat)
    values = Values(trace.name)
    for event_type in followers:
        trace.emit(tracefile, event_type, values.for_fields(event_type))


def v10(name, has_heartbeat, state_dump, **options):
    """Format 1.0: the markers of control_markers, heartbeats in every
    tracefile, then a jump that only heartbeat_64 bridges."""
    trace = Trace10(name, has_heartbeat=has_heartbeat, **options)
    cpu, followers = control_markers(trace, cpu0_blocks=2 if state_dump else 1, state_dump=state_dump)
    for tracefile in cpu + [trace.metadata_file(0)]:
        trace.emit(tracefile, trace.heartbeat_32, [])
    jump_past_32_bits(trace, cpu[0], trace.heartbeat_64, [trace.heartbeat_32, *followers])
    assert has_heartbeat == ("32-bit wrap" in trace.header_cases)
    return trace


def v10_hb1():
    """1.0, 32-bit little-endian, alignment 4, 32-bit TSCs in event headers
    (the start TSC is just below a 2^32 boundary, so they wrap early);
    freq_scale 1000 with start_freq in kHz."""
    return v10("v10-hb1", True, state_dump=True, big_endian=False, arch_size=4, alignment=4, arch_type=1,
               freq_scale=1000, start_freq=1993051, start_tsc=0x2B53FFFF0000, start_time=(1199207580, 120033))


def v10_hb0():
    """1.0, 64-bit little-endian, alignment 8, 64-bit TSCs in event headers."""
    return v10("v10-hb0", False, state_dump=False, big_endian=False, arch_size=8, alignment=8, arch_type=8,
               start_freq=2600000000, start_tsc=302117340058812, start_time=(1206628231, 442009))


IRQ_MODE = XmlEnum([("user", 0), ("kernel", 1)])
# Labels without a value follow the previous one: SIGINT is 2, SIGUSR1 10.
SIGNAL_NAME = XmlEnum([("SIGHUP", 1), ("SIGINT", None), ("SIGQUIT", None), ("SIGILL", None),
                       ("SIGKILL", 9), ("SIGUSR1", None), ("SIGSEGV", 11)])
SYSCALL_NAME = XmlEnum([("restart_syscall", 0), ("exit", None), ("fork", None), ("read", None),
                        ("write", None), ("open", None), ("close", None), ("execve", 11), ("chdir", None)])
INT, UINT, LONG, ULONG, POINTER = (XmlScalar(tag) for tag in ("int", "uint", "long", "ulong", "pointer"))
BYTES = XmlSequence(UINT, XmlScalar("uchar"))
NETWORK_U16 = XmlScalar("uint_fixed", 2, network=True)

KERNEL = Facility(
    "kernel", description="Kernel execution status: state is -1 unrunnable, 0 runnable, >0 stopped",
    types=[("irq_mode", IRQ_MODE), ("signal_name", SIGNAL_NAME)],
    events=[
        FacilityEvent("irq_entry", [("irq_id", XmlScalar("uint_fixed", 4)),
                                    ("mode", XmlTypeRef("irq_mode", IRQ_MODE))], "Entry in an irq"),
        FacilityEvent("irq_exit", [], "Exit from an IRQ"),
        FacilityEvent("process_fork", [("parent_pid", INT), ("child_pid", INT)]),
        FacilityEvent("process_signal", [("pid", INT), ("signal", XmlTypeRef("signal_name", SIGNAL_NAME))]),
        FacilityEvent("sched_schedule", [("prev_pid", INT), ("next_pid", INT), ("state", LONG)]),
        FacilityEvent("vprintk", [("loglevel", XmlScalar("uint_fixed", 1)), ("text", BYTES),
                                  ("ip", POINTER)]),
        FacilityEvent("timer_set", [("expires", ULONG), ("function", POINTER), ("data", ULONG)]),
        FacilityEvent("update_time", [("jiffies", XmlScalar("uint_fixed", 8)), ("wall_tv_sec", LONG),
                                      ("wall_tv_nsec", XmlScalar("short"))]),
    ])

FS = Facility(
    "fs", description="File system operations",
    events=[
        FacilityEvent("exec", [("filename", XmlString())]),
        FacilityEvent("open", [("filename", XmlString()), ("flags", UINT), ("mode", XmlScalar("ushort"))],
                      "Fields after a string start at the next pointer-size boundary"),
        FacilityEvent("read_data", [("fd", UINT), ("count", XmlScalar("size_t")), ("data", BYTES),
                                    ("flag", XmlScalar("char"))]),
        FacilityEvent("lseek", [("fd", UINT), ("offset", XmlScalar("off_t")), ("origin", UINT)]),
    ])

NETWORK = Facility(
    "network", description="Low level network operations",
    events=[
        FacilityEvent("packet_in", [("skbuff", POINTER), ("protocol", NETWORK_U16)]),
        FacilityEvent("tcpv4_rcv", [("skbuff", POINTER), ("saddr", XmlScalar("uint_fixed", 4, network=True)),
                                    ("sport", NETWORK_U16), ("flags", XmlScalar("uchar"))]),
    ])

STACK = Facility(
    "stack", description="Stack dumps",
    events=[
        FacilityEvent("dump_kernel_stack", [("eip", XmlSequence(UINT, ULONG))]),
        FacilityEvent("dump_process32_stack", [("eip", XmlSequence(UINT, XmlScalar("uint_fixed", 4)))]),
    ])


def kernel_arch(arch):
    return Facility(
        "kernel_arch", arch=arch, description="System calls",
        types=[("syscall_name", SYSCALL_NAME)],
        events=[
            FacilityEvent("syscall_entry", [("syscall_id", XmlTypeRef("syscall_name", SYSCALL_NAME)),
                                            ("address", XmlScalar("pointer"))]),
            FacilityEvent("syscall_exit", []),
        ])


def facility_events(trace, facilities, cpu, values, rounds):
    """`rounds` times every event of every facility, spread over the CPUs."""
    for round in range(rounds):
        for types in facilities:
            for event_type in types.values():
                trace.emit(cpu[round % len(cpu)], event_type, values.for_fields(event_type))


def v07_facilities():
    """0.7, 64-bit big-endian (ppc64), alignment 8, 64-bit TSCs; XML
    facilities, partly in the old unquoted style; checksums that do not
    match (LTTV only warns); facility ids with gaps, a facility loaded twice,
    one unloaded (its id stays valid)."""
    trace = Trace0x("v07-facilities", (0, 7), big_endian=True, arch_size=8, alignment=8, arch_type=7,
                    has_heartbeat=False, checksums_match=False, start_freq=1600000000,
                    start_tsc=88214567100311, start_time=(1151679600, 500))
    values = Values(7)
    facilities = [trace.tracefile("control/facilities_0"), trace.tracefile("control/facilities_1")]
    cpu = [trace.tracefile("cpu_0"), trace.tracefile("cpu_1")]
    kernel = trace.load(KERNEL, 3, facilities[0], quoted=False)
    fs = trace.load(FS, 7, facilities[0], quoted=True)
    network = trace.load(NETWORK, 12, facilities[1], quoted=False)
    stack = trace.load(STACK, 13, facilities[1], quoted=True)
    arch = trace.load(kernel_arch("ppc64"), 20, facilities[0], quoted=False)
    facility_events(trace, [kernel, fs, network, stack, arch], cpu, values, rounds=2)
    trace.emit(cpu[1], stack["dump_kernel_stack"], [[]])
    trace.load(KERNEL, 3, facilities[1], quoted=False, state_dump=True)
    for tracefile in facilities + cpu:
        trace.emit(tracefile, trace.core["time_heartbeat"], [])
    trace.emit(facilities[1], trace.core["facility_unload"], [12])
    facility_events(trace, [network, kernel, arch], cpu, values, rounds=2)
    return trace


def v08_facilities():
    """0.8, 32-bit little-endian (i386), alignment 4, 32-bit TSCs that wrap
    early; freq_scale 1000 with start_freq in kHz; §7.3 checksums; the 0.8
    core events time_heartbeat_full (id 3) and state_dump_facility_load (id 4);
    a facility loaded again with the same id."""
    trace = Trace0x("v08-facilities", (0, 8), big_endian=False, arch_size=4, alignment=4, arch_type=1,
                    has_heartbeat=True, checksums_match=True, freq_scale=1000, start_freq=2327507,
                    start_tsc=0x6F1FFFFF0000, start_time=(1183386000, 250000))
    values = Values(8)
    facilities = [trace.tracefile("control/facilities_0"), trace.tracefile("control/facilities_1")]
    cpu = [trace.tracefile("cpu_0"), trace.tracefile("cpu_1")]
    kernel = trace.load(KERNEL, 2, facilities[0], quoted=True)
    fs = trace.load(FS, 9, facilities[1], quoted=False)
    network = trace.load(NETWORK, 4, facilities[0], quoted=True)
    arch = trace.load(kernel_arch("i386"), 6, facilities[1], quoted=False)
    trace.load(FS, 9, facilities[0], quoted=False)                  # after a restart: ignored
    trace.load(KERNEL, 2, facilities[1], quoted=True, state_dump=True)
    facility_events(trace, [kernel, fs, network, arch], cpu, values, rounds=2)
    trace.emit(cpu[0], kernel["vprintk"], [6, [], 0xC01A2B3C])
    trace.switch_block(cpu[1])
    facility_events(trace, [arch, kernel], cpu, values, rounds=2)
    for tracefile in facilities + cpu:
        trace.emit(tracefile, trace.core["time_heartbeat"], [])
    jump_past_32_bits(trace, cpu[1], trace.core["time_heartbeat_full"],
                      [trace.core["time_heartbeat"], kernel["sched_schedule"], fs["open"]])
    assert "32-bit wrap" in trace.header_cases
    return trace


# Worked examples, dumped by hand from the layouts of §4 to §7 (block
# headers, event headers, marker and facility events); the generator must
# reproduce them byte for byte before it writes anything.
SECTION_11_1 = bytes.fromhex("""
    00 00 50 34 12 00 00 00  00 01 50 3e 12 00 00 00  ed b7 d6 00 02 06 04 00  e6 81 43 4b 00 00 00 00
    f3 3c 06 00 00 00 00 00  00 94 35 77 00 00 00 00  01 00 00 00 7f 00 00 00  00 10 00 00 00 00 00 00
    00 00 00 00 34 12 50 2c  d2 04 00 00 78 62 61 73  68 00 00 20 50 fc 28 00  01 00 ee ff c0 07 00 00
    00 00 00 00 00 00 00 50  ee 05 00 0a 00 00 00 50  3e 12 00 00 00 01 00 00  00 00 69 6e 69 74 00""")
SECTION_11_2_EVENTS = bytes.fromhex("""
    2c 50 12 34 00 00 04 d2  78 62 61 73 68 00 00 00  fc 50 20 00 00 28 00 00  00 00 00 00 01 00 00 00
    00 00 00 00 00 00 00 00  c0 ff ee 00 00 00 00 00  00 00 00 07 ee 50 00 00  00 05 00 0a 00 00 00 12
    3e 50 00 00 00 00 00 01  00 69 6e 69 74 00""")
SECTION_11_3_EVENT = bytes.fromhex("""
    00 01 50 ec 00 00 1f 00  00 01 50 34 12 00 00 00  6d 65 74 61 64 61 74 61  00 63 6f 72 65 5f 6d 61
    72 6b 65 72 5f 69 64 00  00 00 04 04 04 04 00""")
SECTION_11_4 = bytes.fromhex("""
    00 00 50 34 12 00 00 00  5b 69 1e 00 00 00 00 00  00 00 58 34 12 00 00 00  5b 69 1e 00 00 00 00 00
    6b 0f 00 00 00 10 00 00  ed b7 d6 00 01 00 00 00  00 00 00 00 00 00 00 00  04 00 07 00 01 00 e8 03
    00 00 5b 69 1e 00 00 00  00 00 00 00 50 34 12 00  00 00 00 00 00 00 00 00  00 00 e6 81 43 4b 00 00
    00 00 f3 3c 06 00 00 00  00 00 00 01 50 34 00 00  23 00 6b 65 72 6e 65 6c  00 ef cd ab 89 03 00 00
    00 04 00 00 00 04 00 00  00 04 00 00 00 04 00 00  00 00 00 00 00""")
SECTION_11_START = dict(start_tsc=0x1234500000, start_time=(1262715366, 408819))


def section_11_blocks(version, **options):
    """The first blocks of metadata_0 and kernel_0 holding the worked examples' events."""
    trace = Trace2x("section-11", version, start_freq=2000000000, **SECTION_11_START, **options)
    kernel, metadata = trace.tracefile("kernel_0"), trace.metadata_file(0)
    demo = trace.marker("demo", 5, DEMO_FORMAT, "kernel")
    big = trace.marker("big", 40, BIG_FORMAT, "kernel")
    trace.emit_at(0x1234500100, metadata, trace.id_marker, ["metadata", "core_marker_id", 0, 4, 4, 4, 4, 0],
                  header=29)
    trace.emit_at(0x1234501234, kernel, demo, [1234, 120, "bash"])
    trace.emit_at(0x1234502000, kernel, big, [1, 0xC0FFEE00, 7])
    trace.emit_at(0x123E500000, kernel, demo, [1, 0, "init"])
    for tracefile in metadata, kernel:
        trace.switch_block(tracefile, 0x123E500100)
    return metadata.blocks[0], kernel.blocks[0]


def check_section_11():
    """The generator writes the worked examples exactly as dumped above."""
    packed = dict(big_endian=False, arch_size=4, alignment=0)
    metadata, kernel = section_11_blocks((2, 6), **packed)
    assert kernel[:0x7F] == SECTION_11_1
    assert metadata[0x44:0x73] == SECTION_11_3_EVENT
    # 2.3: the minor version, then lost_size and buf_size instead of data_size and sb_size
    spec_2_3 = bytearray(SECTION_11_1)
    spec_2_3[0x15] = 3
    spec_2_3[0x34:0x3C] = bytes.fromhex("81 0f 00 00 00 10 00 00")
    assert section_11_blocks((2, 3), **packed)[1][:0x7F] == spec_2_3

    kernel = section_11_blocks((2, 6), big_endian=True, arch_size=8, alignment=8)[1]
    assert kernel[0x10:0x18] == bytes.fromhex("00 d6 b7 ed 02 06 08 08")
    assert kernel[0x30:0x3C] == bytes.fromhex("00 00 00 01 00 00 00 92 00 00 10 00")
    assert kernel[0x44:0x92] == SECTION_11_2_EVENTS
    # 32-bit with alignment 4: count on a 4-byte boundary at 0x64, except in 2.4 and 2.5 (0x68)
    for version, count_offset in ((2, 3), 0x64), ((2, 6), 0x64), ((2, 5), 0x68):
        kernel = section_11_blocks(version, big_endian=False, arch_size=4, alignment=4)[1]
        assert kernel[count_offset:count_offset + 8] == (7).to_bytes(8, "little"), version

    trace = Trace0x("section-11.4", (0, 7), big_endian=False, arch_size=4, alignment=0, arch_type=1,
                    has_heartbeat=True, checksums_match=False, freq_scale=1000, start_freq=1993051,
                    **SECTION_11_START)
    facilities = trace.tracefile("control/facilities_0")
    trace.emit_at(0x1234500100, facilities, trace.core["facility_load"],
                  ["kernel", 0x89ABCDEF, 3, 4, 4, 4, 4, 0])
    trace.switch_block(facilities, 0x1234580000)
    assert facilities.blocks[0][:0x95] == SECTION_11_4


TRACES = [v26_be_64, v23_le_32_align4, v25_le_32_align4, v26_le_lost, headers, v22_control, v21,
          v10_hb1, v10_hb0, v07_facilities, v08_facilities]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: mktrace.py OUTDIR")
    assert Facility("demo", [FacilityEvent("ev", [("a", XmlScalar("int"))])]).checksum() == 0xEC813811, \
        "CRC-32 test vector of the §7.3 checksum"
    check_section_11()
    for build in TRACES:
        build().write(sys.argv[1])


if __name__ == "__main__":
    main()
