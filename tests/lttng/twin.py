#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# tests/lttng/twin.py SRC DST VPID - writes DST, a copy of the LTTng
# per-process trace folder SRC (CTF 1.8 or CTF 2) posing as the trace of
# another process, VPID: the same events at the same times, the trace's
# environment entry vpid set to VPID, and another UUID, SRC's with its
# first byte 0 (in the metadata and in every packet header).
#
# Every event of the pair of traces then ties in time with its twin, and
# the muxer's rule for ties decides which comes first: babeltrace2 2.0.4
# compares the traces' UUIDs (the twin's is the smaller: it comes first),
# 2.1.2 their names, hostname/FOLDER (DST named after SRC, with a greater
# process id, comes second).  Used to make tests/fixtures/ctf/ust-pid-twins
# and tests/fixtures/ctf2-lttng/ust-pid-twins (see their READMEs).
import json
import os
import re
import shutil
import sys
import uuid


def twin_fragment(text, new, new_text, vpid):
    """A CTF 2 metadata fragment of the twin: the preamble's UUID, the trace
    class's uid and vpid; the others as they are."""
    if not text.strip():
        return text
    fragment = json.loads(text)
    if fragment["type"] == "preamble":
        fragment["uuid"] = list(new)
    elif fragment["type"] == "trace-class":
        fragment["uid"] = new_text.decode()
        fragment["environment"]["vpid"] = vpid
    else:
        return text
    return json.dumps(fragment, indent=2).encode() + b"\n"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: twin.py SRC DST VPID")
    src, dst, vpid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    meta = open(os.path.join(src, "metadata"), "rb").read()
    if meta[:1] == b"\x1e":
        old = bytes(json.loads(meta[1:meta.index(b"\x1e", 1)])["uuid"])
    else:
        found = re.search(rb'uuid = "([0-9a-f-]{36})";', meta)
        old = uuid.UUID(found.group(1).decode()).bytes
    new = b"\0" + old[1:]
    old_text, new_text = str(uuid.UUID(bytes=old)).encode(), str(uuid.UUID(bytes=new)).encode()
    shutil.copytree(src, dst)
    for folder, _, files in os.walk(dst):
        for name in files:
            path = os.path.join(folder, name)
            data = open(path, "rb").read()
            if name == "metadata" and data[:1] == b"\x1e":
                data = b"\x1e".join(twin_fragment(f, new, new_text, vpid) for f in data.split(b"\x1e"))
            elif name == "metadata":
                data = data.replace(old_text, new_text)
                # the same length: a packetized metadata's sizes hold
                data = re.sub(rb"\bvpid = \d+;", lambda m: (b"vpid = %d;" % vpid).ljust(len(m.group(0))), data)
            data = data.replace(old, new)
            open(path, "wb").write(data)


main()
