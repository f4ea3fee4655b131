#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mkrc.py FIXTURES OUTDIR - CTF 2 traces in the release-candidate 7.0
dialect (doc/formats/ctf.md §4.6), made from final-CTF-2 fixtures by undoing
what the final specification renamed:

    attributes                 -> user-attributes
    integer with mappings      -> fixed/variable-length-*-enumeration
    {"origin": o, "path": p}   -> [o, *p]  (relative locations made absolute)
    clock id                   -> removed (its name stands for it)
    default-clock-class-id     -> default-clock-class-name
    uid (trace, clock class)   -> uuid: 16 integers, when it is a UUID
    offset-from-origin         -> offset; origin "unix-epoch" -> origin-is-unix-epoch

babeltrace2 2.1.2 refuses every one of these; tracecat reads them as the
final CTF 2 they stand for, so each must print exactly what its source
fixture's .bt21.txt says.  Only fixtures whose locations are all
absolute are taken (the release candidate had no relative ones), and the
data files are copied unchanged.
"""
import json
import os
import shutil
import sys
import uuid as uuidlib

# Fixtures covering what the dialect renames: clocks, LTTng's header
# variant, mappings, log levels, attributes, trace identity.
SOURCES = ["lttng-large-header", "clock-all-properties", "clock-unix-epoch", "clock-negative",
           "discarded-with-clock", "multi-stream", "mappings", "log-levels", "trace-class"]
RS = b"\x1e"


SCOPES = {
    "packet-header-field-class": "packet-header",
    "packet-context-field-class": "packet-context",
    "event-record-header-field-class": "event-record-header",
    "event-record-common-context-field-class": "event-record-common-context",
    "specific-context-field-class": "event-record-specific-context",
    "payload-field-class": "event-record-payload",
}


def rc_location(loc, scope, chain):
    """[scope, names...]: a relative location (without parent steps) made
    absolute from CHAIN, the member names down to the dependent field."""
    if "origin" in loc:
        return [loc["origin"]] + loc["path"]
    if scope is None or any(p is None for p in loc["path"]):
        return None
    return [scope] + chain[:-1] + loc["path"]


def to_rc(value, fragment_type=None, scope=None, chain=()):
    """The value rewritten in the release-candidate dialect, or None when
    it cannot be."""
    if isinstance(value, list):
        out = []
        for v in value:
            r = to_rc(v, None, scope, chain)
            if r is None:
                return None
            out.append(r)
        return out
    if not isinstance(value, dict):
        return value
    out = {}
    for key, v in value.items():
        if key == "attributes":
            out["user-attributes"] = v
        elif key.endswith("-field-location"):
            loc = rc_location(v, scope, list(chain))
            if loc is None:
                return None
            out[key] = loc
        elif key == "member-classes":
            members = []
            for m in v:
                r = to_rc(m, None, scope, list(chain) + [m["name"]])
                if r is None:
                    return None
                members.append(r)
            out[key] = members
        else:
            r = to_rc(v, None, SCOPES.get(key, scope), chain)
            if r is None:
                return None
            out[key] = r
    t = out.get("type", "")
    if t.endswith("-integer") and "mappings" in out and out["mappings"]:
        out["type"] = t[: -len("-integer")] + "-enumeration"
    if fragment_type == "clock-class":
        out.pop("id", None)
        if out.get("origin") == "unix-epoch":
            del out["origin"]
            out["origin-is-unix-epoch"] = True
        if "offset-from-origin" in out:
            out["offset"] = out.pop("offset-from-origin")
    if fragment_type in ("clock-class", "trace-class") and "uid" in out:
        # the release candidate's identities are UUIDs; another uid only
        # names the class, which a single trace's text does not show
        try:
            out["uuid"] = list(uuidlib.UUID(out.pop("uid")).bytes)
        except ValueError:
            pass
    return out


def convert(src, dst):
    frags = [f for f in open(os.path.join(src, "metadata"), "rb").read().split(RS) if f.strip()]
    out = []
    clock_names = {}
    for raw in frags:
        frag = json.loads(raw)
        if frag["type"] == "clock-class":
            # the release candidate names a clock class by its name only
            frag.setdefault("name", frag["id"])
            clock_names[frag["id"]] = frag["name"]
        if frag["type"] == "data-stream-class" and "default-clock-class-id" in frag:
            frag["default-clock-class-name"] = clock_names[frag.pop("default-clock-class-id")]
        r = to_rc(frag, frag["type"])
        if r is None:
            return False
        out.append(r)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("metadata"))
    with open(os.path.join(dst, "metadata"), "wb") as f:
        for frag in out:
            f.write(RS + json.dumps(frag, indent=1).encode() + b"\n")
    return True


def main():
    fixtures, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    for name in SOURCES:
        src = os.path.join(fixtures, name)
        dst = os.path.join(outdir, name)
        if os.path.isdir(src) and convert(src, dst):
            shutil.copy(os.path.join(fixtures, name + ".bt21.txt"), os.path.join(outdir, name + ".bt21.txt"))
        else:
            print("mkrc.py: %s has a relative location or cannot be written in the release candidate's terms" % name,
                  file=sys.stderr)


if __name__ == "__main__":
    main()
