#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/tracedat-values.sh BIN - the values BIN decodes from trace.dat
# files against trace-cmd's own reading of them.
#
# For every FILE.dat with a FILE.dat.raw.txt beside it (`trace-cmd report
# -R FILE.dat`) in tests/corpus/trace-dat (or the trace-dat folder of
# $TRACECAT_CORPUS) and in tests/fixtures/tracedat, it runs
#   BIN print --no-delta --clock-seconds FILE.dat
# and checks that
#   - the number of events equals the number of event lines of .raw.txt
#     (not counting the cpus= header and "CPU:N [... EVENTS DROPPED]");
#   - event by event, in order: the buffer, the time (seconds.microseconds,
#     rounded as trace-cmd rounds), the CPU, the pid, the event name and
#     every payload field name=value trace-cmd prints.
# Values compare as trace-cmd prints them: decimal, or hexadecimal (with or
# without 0x, modulo 2^32 or 2^64 for signed values printed as unsigned),
# strings (trace-cmd drops one trailing newline), and kernel symbols (%ps),
# which are resolved with the file's kallsyms (`trace-cmd dump --kallsyms`)
# or else counted as not checked.
#
# trace-cmd 3.1.6 as Debian builds it writes and reads zstd only, so zlib
# is checked another way: every uncompressed v7 file is rewritten here with
# zlib sections and chunked CPU data (laid out as trace-cmd writes
# compressed files), and BIN must print exactly what it prints for the
# original.  Prints PASS/FAIL/SKIP lines for tests/run.sh; exits 0.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# Debian 12's peers, the references, where the host's are other releases.
# shellcheck source=tests/lib.sh
. "$ROOT/tests/lib.sh"
peers_debian12
CORPUS=${TRACECAT_CORPUS:-$ROOT/tests/corpus}
if ! command -v python3 >/dev/null; then
	echo "SKIP tracedat-values: python3 is not installed"
	exit 0
fi
files=()
for f in "$CORPUS"/trace-dat/*.dat "$ROOT"/tests/fixtures/tracedat/*.dat; do
	[ -f "$f" ] && [ -f "$f.raw.txt" ] && files+=("$f")
done
# Both folders are committed with their .raw.txt files: an empty one is a
# broken checkout or a wrong TRACECAT_CORPUS.
if ! compgen -G "$CORPUS/trace-dat/*.dat.raw.txt" >/dev/null; then
	echo "FAIL tracedat-values/corpus: no trace.dat file with a .raw.txt under $CORPUS/trace-dat"
fi
if [ ${#files[@]} -eq 0 ]; then
	echo "FAIL tracedat-values: no trace.dat files with a .raw.txt under $CORPUS/trace-dat or tests/fixtures/tracedat"
	exit 0
fi
command -v trace-cmd >/dev/null ||
	echo "SKIP tracedat-values/kallsyms: trace-cmd is not installed (kernel symbols, %ps values, not checked)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${files[@]}"; do
	name=${f#"$CORPUS"/}
	name=${name#"$ROOT"/}
	if ! "$BIN" print --no-delta --clock-seconds "$f" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL tracedat-values/$name: exit $?: $(head -c 300 "$tmp/err")"
		continue
	fi
	syms=
	if command -v trace-cmd >/dev/null && trace-cmd dump --kallsyms "$f" >"$tmp/kallsyms" 2>/dev/null; then
		syms=$tmp/kallsyms
	fi
	python3 - "$name" "$f.raw.txt" "$tmp/out" "$syms" <<'EOF'
import re, sys

name, raw_path, out_path, syms_path = sys.argv[1:5]

def fail(msg):
    print(f"FAIL tracedat-values/{name}: {msg}")
    sys.exit(0)

# ---- trace-cmd report -R: "[BUF:]  comm-pid [CPU] SEC.USEC: event: fields"
RAW = re.compile(r'^(?:(\S+?):)?(.*)-(\d+)\s+\[(\d+)\]\s+(\d+\.\d{6}):\s+(\S+):\s?(.*)$')
ref = []
for line in open(raw_path, encoding='latin-1').read().split('\n'):
    if line.startswith('cpus=') or re.match(r'^(\S+:)?\s*CPU:\d+ \[', line) or line == '':
        continue
    m = RAW.match(line)
    # A buffer prefix never starts with a space; a top-buffer line does
    # (its comm is right-aligned in 16 columns).
    if m and line[0] == ' ' and m.group(1):
        m = RAW.match(' ' + line)
    if not m:
        if not ref:
            fail(f"cannot read trace-cmd line: {line[:100]}")
        ref[-1]['fields'] += '\n' + line   # a string with a newline inside
        continue
    ref.append({'buf': m.group(1) or '', 'pid': int(m.group(3)), 'cpu': int(m.group(4)),
                'time': m.group(5), 'event': m.group(6), 'fields': m.group(7)})

# ---- tracecat: "[SEC.NSEC] [HOST] event: { cpu_id = N }, { ctx }, { payload }"
def parse_value(s, i):
    if s[i] == '"':
        out, i = [], i + 1
        esc = {'a': '\a', 'b': '\b', 't': '\t', 'n': '\n', 'v': '\v', 'f': '\f', 'r': '\r',
               'e': '\x1b', '"': '"', "'": "'", '?': '?', '\\': '\\'}
        while s[i] != '"':
            if s[i] == '\\':
                if s[i + 1] == 'x':
                    out.append(chr(int(s[i + 2:i + 4], 16)))
                    i += 4
                else:
                    out.append(esc[s[i + 1]])
                    i += 2
            else:
                out.append(s[i])
                i += 1
        return ''.join(out), i + 1
    if s[i] == '[':
        items, i = [], i + 1
        while s[i] == ' ':
            i += 1
        while s[i] != ']':
            j = s.index('] = ', i)
            v, i = parse_value(s, j + 4)
            items.append(v)
            if s[i] == ',':
                i += 1
            while s[i] == ' ':
                i += 1
        return items, i + 1
    if s[i] == '{':
        return parse_struct(s, i)
    m = re.compile(r'-?\d+').match(s, i)
    return int(m.group(0)), m.end()

def parse_struct(s, i):
    assert s[i] == '{'
    i += 1
    fields = []
    while True:
        while s[i] == ' ':
            i += 1
        if s[i] == '}':
            return fields, i + 1
        j = s.index(' = ', i)
        key = s[i:j]
        v, i = parse_value(s, j + 3)
        fields.append((key, v))
        if s[i] == ',':
            i += 1

OUT = re.compile(r'^\[(\d+)\.(\d{9})\] (?:\S+ )?(\S+): ')
mine = []
for line in open(out_path, encoding='latin-1').read().split('\n'):
    if not line:
        continue
    m = OUT.match(line)
    if not m:
        fail(f"cannot read tracecat line: {line[:100]}")
    ns = int(m.group(1)) * 10**9 + int(m.group(2))
    us = (ns + 500) // 1000
    scopes, i = [], m.end()
    while i < len(line):
        st, i = parse_struct(line, i)
        scopes.append(dict(st) if len(scopes) < 2 else st)
        if line.startswith(', ', i):
            i += 2
    ctx = scopes[1]
    mine.append({'time': f"{us // 10**6}.{us % 10**6:06d}", 'cpu': scopes[0]['cpu_id'],
                 'pid': ctx.get('common_pid'), 'event': m.group(3),
                 'payload': scopes[2] if len(scopes) > 2 else []})

if len(mine) != len(ref):
    fail(f"{len(mine)} events, trace-cmd reports {len(ref)}")

# ---- kernel symbols, for %ps values
syms = []
if syms_path:
    for line in open(syms_path):
        p = line.split()
        if len(p) >= 3 and re.fullmatch(r'[0-9a-fA-F]+', p[0]) and p[1] not in 'aA':
            syms.append((int(p[0], 16), p[2]))
    syms.sort()

def symbol(addr):
    best = None
    for a, n in syms:
        if a > addr:
            break
        best = n
    return best

unchecked = past_end = 0
def same(theirs, ours):
    """Whether trace-cmd's text THEIRS shows our value OURS; None: cannot tell."""
    if isinstance(ours, str):
        return theirs == ours or (ours.endswith('\n') and theirs == ours[:-1])
    if isinstance(ours, list):
        if theirs.startswith('ARRAY['):
            raw = [int(x, 16) for x in theirs[6:-1].split(', ') if x]
            if raw == ours:
                return True
            # trace-cmd shows the bytes; elements wider than a byte are
            # little-endian groups of them (raw_syscalls' args[6])
            if ours and len(raw) % len(ours) == 0:
                w = len(raw) // len(ours)
                words = [int.from_bytes(bytes(raw[i:i + w]), 'little') for i in range(0, len(raw), w)]
                return [x % (1 << (8 * w)) for x in ours] == words
            return False
        return None
    for m in (0, 1 << 32, 1 << 64):
        want = ours % m if m else ours
        if re.fullmatch(r'-?\d+', theirs) and int(theirs) == want:
            return True
        if re.fullmatch(r'0x[0-9a-fA-F]+', theirs) and int(theirs, 16) == want:
            return True
        # %x without a prefix: only when it shows as hexadecimal
        if re.fullmatch(r'(0[0-9a-fA-F]*|[0-9]*[a-fA-F][0-9a-fA-F]*)', theirs) and int(theirs, 16) == want:
            return True
    if re.fullmatch(r'[A-Za-z_.$][\w.$]*(\+0x[0-9a-f]+)?', theirs):
        if not syms:
            return None
        return symbol(ours % (1 << 64)) == theirs.split('+')[0]
    return False

checked = 0
for k, (r, t) in enumerate(zip(ref, mine)):
    where = f"event {k + 1} ({r['event']} at {r['time']})"
    for key in ('time', 'cpu', 'pid', 'event'):
        if r[key] != t[key]:
            fail(f"{where}: {key} {t[key]!r}, trace-cmd {r[key]!r}")
    names = [n for n, _ in t['payload']]
    text = r['fields']
    # name=value pairs: a value runs to the next " name=" of the payload.
    starts = []
    pos = 0
    for n in names:
        j = text.find(n + '=', pos)
        while j > 0 and text[j - 1] != ' ':
            j = text.find(n + '=', j + 1)
        if j < 0:
            fail(f"{where}: trace-cmd shows no {n}= in {text[:120]!r}")
        starts.append((n, j))
        pos = j + len(n) + 1
    for idx, (n, j) in enumerate(starts):
        end = starts[idx + 1][1] - 1 if idx + 1 < len(starts) else len(text)
        theirs = text[j + len(n) + 1:end]
        ours = dict(t['payload'])[n]
        ok = same(theirs, ours)
        if ok is False and isinstance(ours, str) and theirs.startswith(ours) and idx == len(starts) - 1:
            # Text that the record ends without a NUL: libtraceevent reads
            # on past the record's end and prints the bytes that follow.
            past_end += 1
        elif ok is None:
            unchecked += 1
        elif not ok:
            fail(f"{where}: {n} = {ours!r}, trace-cmd {theirs!r}")
        else:
            checked += 1
note = f", {unchecked} not checked" if unchecked else ""
if past_end:
    note += f", {past_end} trailing texts trace-cmd shows with bytes from past the record"
print(f"PASS tracedat-values/{name}: {len(mine)} events, {checked} field values{note}")
EOF
done

# ---- zlib: the same traces recompressed
cat >"$tmp/recompress.py" <<'EOF'
# v7 uncompressed trace.dat -> the same trace with zlib-compressed sections
# and chunked CPU data, laid out as trace-cmd 3.1.6 writes compressed files.
import struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]
d = open(src, 'rb').read()
assert d[10:12] == b'7\0' and d[12] == 0
page = struct.unpack_from('<I', d, 14)[0]
p = 18
name_end = d.index(b'\0', p); ver_end = d.index(b'\0', name_end + 1)
assert d[p:name_end] == b'none'
first_opt = struct.unpack_from('<Q', d, ver_end + 1)[0]
p = ver_end + 9
sections = []                       # (old offset, id, flags, desc, body)
while p + 16 <= len(d):
    sid, flags, desc, size = struct.unpack_from('<HHIQ', d, p)
    sections.append((p, sid, flags, desc, d[p + 16:p + 16 + size]))
    p += 16 + size
def options(body):                  # (id, payload offset in body, payload)
    q = 0
    while q < len(body):
        oid, size = struct.unpack_from('<HI', body, q)
        yield oid, q + 6, body[q + 6:q + 6 + size]
        q += 6 + size
        if oid == 0:
            break
buffers = {}                        # old section offset -> [(cpu, offset, size)]
for off, sid, _, _, body in sections:
    if sid == 0:
        for oid, _, pl in options(body):
            if oid == 3:
                sec = struct.unpack_from('<Q', pl, 0)[0]
                q = pl.index(b'\0', 8) + 1; q = pl.index(b'\0', q) + 1
                n = struct.unpack_from('<I', pl, q + 4)[0]
                buffers[sec] = [struct.unpack_from('<IQQ', pl, q + 8 + 20 * i) for i in range(n)]
header = d[:18] + b'zlib\0' + zlib.ZLIB_VERSION.encode() + b'\0'
out = bytearray(header + b'\0' * 8)
newoff = {}; cpumap = {}; opts = []
def comp(b):
    c = zlib.compress(b, 9)
    return struct.pack('<II', len(c), len(b)) + c
for off, sid, flags, desc, body in sections:
    newoff[off] = len(out)
    if sid == 0:
        opts.append((len(out), body))
        out += struct.pack('<HHIQ', sid, 0, desc, len(body)) + body
    elif sid == 3:
        start = len(out); out += b'\0' * 16
        while len(out) % page: out.append(0)
        for cpu, coff, csize in buffers[off]:
            while len(out) % page: out.append(0)
            raw = d[coff:coff + csize]
            chunks = [raw[i:i + 10 * page] for i in range(0, len(raw), 10 * page)]
            at = len(out)
            out += struct.pack('<I', len(chunks))
            for ch in chunks:
                out += comp(ch)
            cpumap[(off, cpu)] = (at, len(out) - at - 4)   # 3.1.6 counts 4 bytes short
        struct.pack_into('<HHIQ', out, start, sid, 1, desc, len(out) - start - 16)
    else:
        body = comp(body)
        out += struct.pack('<HHIQ', sid, 1, desc, len(body)) + body
struct.pack_into('<Q', out, len(header), newoff[first_opt])
for at, body in opts:
    b = bytearray(body)
    for oid, q, pl in options(body):
        if 16 <= oid <= 21 or (oid == 0 and struct.unpack_from('<Q', pl)[0]):
            struct.pack_into('<Q', b, q, newoff[struct.unpack_from('<Q', pl)[0]])
        elif oid == 3:
            sec = struct.unpack_from('<Q', pl, 0)[0]
            struct.pack_into('<Q', b, q, newoff[sec])
            r = pl.index(b'\0', 8) + 1; r = pl.index(b'\0', r) + 1
            for i, (cpu, _, _) in enumerate(buffers[sec]):
                struct.pack_into('<QQ', b, q + r + 8 + 20 * i + 4, *cpumap[(sec, cpu)])
    out[at + 16:at + 16 + len(b)] = b
open(dst, 'wb').write(out)
EOF
for f in "${files[@]}"; do
	# v7 ("7\0" at byte 10) and compression "none" (at byte 18)
	[ "$(head -c 12 "$f" | tail -c 2 | tr -d '\0')" = 7 ] && [ "$(head -c 23 "$f" | tail -c 5 | tr -d '\0')" = none ] || continue
	name=${f#"$CORPUS"/}
	name=${name#"$ROOT"/}
	if ! python3 "$tmp/recompress.py" "$f" "$tmp/zlib.dat" 2>"$tmp/err"; then
		echo "FAIL tracedat-values/zlib/$name: cannot rewrite it: $(tail -1 "$tmp/err")"
	elif ! "$BIN" print --clock-seconds "$tmp/zlib.dat" >"$tmp/zlib.out" 2>"$tmp/err"; then
		echo "FAIL tracedat-values/zlib/$name: exit $?: $(head -c 300 "$tmp/err")"
	elif ! "$BIN" print --clock-seconds "$f" >"$tmp/orig.out" 2>/dev/null || ! cmp -s "$tmp/zlib.out" "$tmp/orig.out"; then
		echo "FAIL tracedat-values/zlib/$name: output differs from the uncompressed file's"
	else
		echo "PASS tracedat-values/zlib/$name: $(wc -l <"$tmp/zlib.out") events as in the uncompressed file"
	fi
done
exit 0
