#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/damaged_input.py BIN [VARIANTS] - damaged copies of every fixture
trace (CTF directories, trace.dat files, uftrace record directories and
legacy LTTng trace directories),
read by BIN (the sanitizer build) with `print` and `convert` (and, for
uftrace, `replay`):
each run must end with exit status 0 or 1, print no sanitizer report,
finish within a few seconds and stay under a memory ceiling; a convert
that fails must leave no output folder.

Damage, chosen by a fixed seed so every run tries the same inputs:
truncation at a random offset, a few flipped bytes, 0xFF runs written over
what may be a length or size field, zeroed runs, and in plain-text
metadata an integer literal (a size, an alignment, an array length, an id)
replaced by an extreme value.  One file of the trace is damaged per variant
(metadata or a stream file).  Prints one line per
fixture, "PASS name: N variants" or "FAIL name: ...", for tests/run.sh."""
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile

TIME_LIMIT = 10
# Peak resident memory any run may reach (sanitizer build included): a
# length field read from a damaged file must never become an allocation.
MEMORY_LIMIT_MB = 512


EXTREMES = [b"0", b"1", b"63", b"65", b"4096", b"65536", b"1073741824", b"4294967295",
            b"18446744073709551615", b"9223372036854775807"]


def damage(data, rng):
    """A damaged copy of DATA and a short description of the damage."""
    if data.startswith(b"/* CTF") and rng.randrange(2) == 0:
        literals = list(re.finditer(rb"\b\d+\b", data))
        if literals:
            m = rng.choice(literals)
            value = rng.choice(EXTREMES)
            return data[:m.start()] + value + data[m.end():], f"literal at {m.start()} set to {value.decode()}"
    data = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        cut = rng.randrange(len(data))
        return data[:cut], f"truncated at {cut}"
    if kind == 1:
        where = [rng.randrange(len(data)) for _ in range(rng.randint(1, 8))]
        for p in where:
            data[p] = rng.randrange(256)
        return data, f"bytes changed at {where}"
    if kind == 2:
        p = rng.randrange(max(1, len(data) - 8))
        data[p:p + 8] = b"\xff" * 8
        return data, f"0xff x8 at {p}"
    p = rng.randrange(len(data))
    n = min(rng.randint(1, 64), len(data) - p)
    data[p:p + n] = b"\0" * n
    return data, f"{n} zero bytes at {p}"


def trace_files(root):
    if os.path.isfile(root):
        return [root]
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                  if os.path.getsize(os.path.join(d, f)) > 0)


def check_trace(binary, trace, variants, rng, scratch):
    files = trace_files(trace)
    commands = ("print", "convert")
    # uftrace: the record files, not the symbol tables of shared libraries;
    # replayed too
    if os.path.isfile(os.path.join(trace, "info")):
        files = [f for f in files if not f.endswith((".sym", ".dbg")) or "lib" not in os.path.basename(f)]
        commands = ("print", "convert", "replay")
    for i in range(variants):
        copy = os.path.join(scratch, "t")
        shutil.rmtree(copy, ignore_errors=True)
        victim = rng.choice(files)
        if os.path.isfile(trace):       # a one-file trace (trace.dat)
            rel = os.path.basename(trace)
            target = copy + ".dat"
        else:
            shutil.copytree(trace, copy)
            rel = os.path.relpath(victim, trace)
            target = os.path.join(copy, rel)
        with open(victim, "rb") as f:
            data, what = damage(f.read(), rng)
        with open(target, "wb") as f:
            f.write(data)
        if os.path.isfile(trace):
            copy = target
        for command in commands:
            argv = [binary, command, copy]
            if command == "convert":
                out = os.path.join(scratch, "out")
                shutil.rmtree(out, ignore_errors=True)
                argv += ["-o", out]
            try:
                r = subprocess.run(argv, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, timeout=TIME_LIMIT)
            except subprocess.TimeoutExpired:
                return f"variant {i} ({rel}: {what}) {command} ran over {TIME_LIMIT} s"
            err = r.stderr.decode(errors="replace")
            if r.returncode not in (0, 1):
                return f"variant {i} ({rel}: {what}) {command} exited {r.returncode}: {err[-300:]}"
            if "Sanitizer" in err or "runtime error" in err:
                return f"variant {i} ({rel}: {what}) {command}: {err[:300]}"
            # the largest resident set of any child so far, in KiB on Linux
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
            if peak > MEMORY_LIMIT_MB:
                return f"variant {i} ({rel}: {what}) {command} used {peak} MB, over {MEMORY_LIMIT_MB} MB"
            if command == "convert" and r.returncode == 1 and os.path.exists(argv[-1]):
                return f"variant {i} ({rel}: {what}) convert failed but left {argv[-1]}"
            # Discarded-events warnings and "tracecat: warning:" lines (replay:
            # a module without symbols) may come first; the error is one line.
            errors = [l for l in err.splitlines()
                      if l.startswith("tracecat: ") and not l.startswith("tracecat: warning: ")]
            if r.returncode == 1 and len(errors) != 1:
                return f"variant {i} ({rel}: {what}) {command}: expected one error line, got {err[-300:]}"
    return None


def main():
    binary = os.path.abspath(sys.argv[1])
    variants = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    here = os.path.dirname(os.path.abspath(__file__))
    roots = [os.path.join(here, "fixtures", d) for d in ("ctf", "ctf-valid")]
    traces = sorted(os.path.join(r, t) for r in roots if os.path.isdir(r)
                    for t in os.listdir(r) if os.path.isdir(os.path.join(r, t)))
    dat = os.path.join(here, "fixtures", "tracedat")
    if os.path.isdir(dat):
        traces += sorted(os.path.join(dat, f) for f in os.listdir(dat) if f.endswith(".dat"))
    uft = os.path.join(here, "fixtures", "uftrace")
    if os.path.isdir(uft):
        traces += sorted(os.path.join(uft, d) for d in os.listdir(uft) if os.path.isdir(os.path.join(uft, d)))
    legacy = os.path.join(here, "fixtures", "lttng-legacy")
    if os.path.isdir(legacy):
        traces += sorted(os.path.join(legacy, d) for d in os.listdir(legacy)
                         if os.path.isdir(os.path.join(legacy, d)))
    rng = random.Random(20261122)
    with tempfile.TemporaryDirectory() as scratch:
        for trace in traces:
            name = os.path.relpath(trace, os.path.join(here, "fixtures"))
            problem = check_trace(binary, trace, variants, rng, scratch)
            if problem:
                print(f"FAIL damaged-input/{name}: {problem}")
            else:
                print(f"PASS damaged-input/{name}: {variants} variants")


main()
