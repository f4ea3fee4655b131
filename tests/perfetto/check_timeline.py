#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_timeline.py - one input converted by `tracecat convert` to
Perfetto's protobuf trace and to Chrome JSON, checked against what tracecat
itself says of the input and against what Perfetto's trace processor makes
of the outputs.

usage: check_timeline.py [--time-goes-back] TRACECAT NAME INPUT WORKDIR SCHEMA_DIR PBDIR [TP_QUERY]

SCHEMA_DIR holds Perfetto's perfetto_trace.proto (tests/third_party/
perfetto), PBDIR the module perfetto_trace_pb2.py made from it (protoc
--python_out, by the caller); TP_QUERY is tests/perfetto/tp-query, or
absent to skip the trace processor's checks.  Run with
Debian's /usr/bin/python3, which has python3-protobuf.  Prints PASS/FAIL
lines "perfetto/NAME/CHECK" for tests/run.sh.  --time-goes-back: the
input's own streams go back in time, and so may the output's sequences.

The Perfetto file, decoded with the generated module (the events Perfetto
describes itself, numbered from 65536 in FtraceEvent, with a small wire
decoder and the descriptors the file carries):
  - every input event once: per event name, as many as `tracecat info`
    counts (kernel events under the names Perfetto gives them, ALIASES;
    sched_switch and sched_waking typed plus compact; function entries and
    exits as slice begins and ends);
  - trace.dat: every sched_switch (typed, or compact with the previous
    switch of its CPU giving its prev_* fields) equal to `tracecat report
    -R -t`'s: comms, pids, priorities, state, and times up to one offset;
  - user space: slice begins and ends per thread equal to `tracecat
    replay`'s entries and exits, and calls whose entry is missing begun on
    a sequence of their own;
  - per sequence: timestamps never go back, interned names and generic
    event descriptors are defined before they are used, after the
    sequence's state was cleared, and a sequence clock after a snapshot
    defines it;
and then by the trace processor: no error or data-loss stats but those the
input explains (lost events; sched_switch whose prev_pid is not the CPU's
previous next_pid), one `sched` row per switch, thread states, named
threads, and slices per thread nested at the replay's depths.

The JSON file: parsed strictly (UTF-8, no NaN), every input event once,
"B"/"E"/"X" per thread as the replay says, times in microseconds with at
most three decimals equal to the Perfetto file's in nanoseconds, and the
same checks by the trace processor.
"""
import collections
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

# Model names of kernel events (trace.dat's ftrace names, LTTng's, legacy
# LTTng's) and the name Perfetto gives them.
ALIASES = {
    'kernel.sched_schedule': 'sched_switch', 'kernel.sched_try_wakeup': 'sched_waking',
    'kernel.sched_wakeup_new_task': 'sched_wakeup_new', 'kernel.process_fork': 'sched_process_fork',
    'kernel.process_exit': 'sched_process_exit', 'kernel.process_free': 'sched_process_free',
    'kernel.irq_entry': 'irq_handler_entry', 'kernel.irq_exit': 'irq_handler_exit',
    'kernel.softirq_entry': 'softirq_entry', 'kernel.softirq_exit': 'softirq_exit',
    'kernel.softirq_raise': 'softirq_raise', 'irq_softirq_entry': 'softirq_entry',
    'irq_softirq_exit': 'softirq_exit', 'irq_softirq_raise': 'softirq_raise',
    'power_cpu_frequency': 'cpu_frequency', 'power_cpu_idle': 'cpu_idle', 'lttng_logger': 'print',
}
ENTRIES = ('lttng_ust_cyg_profile:func_entry', 'lttng_ust_cyg_profile_fast:func_entry')
EXITS = ('lttng_ust_cyg_profile:func_exit', 'lttng_ust_cyg_profile_fast:func_exit')
DISCARDED = 'discarded events'
SEQ_CLEARED, SEQ_NEEDS = 1, 2
TIME_MAY_GO_BACK = False

results = []


def check(name, ok, why=''):
    results.append((name, ok, why))


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


# ---- the wire format, for what the schema leaves undescribed ----

def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return v, i


def wire_fields(b):
    """(number, wire type, value) of each field of message bytes B."""
    i = 0
    while i < len(b):
        tag, i = varint(b, i)
        num, wt = tag >> 3, tag & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError('wire type %d' % wt)
        yield num, wt, v


def signed64(v):
    return v - (1 << 64) if v >= 1 << 63 else v


# ---- what tracecat says of the input ----

def info_counts(tc, path):
    """Per event name, the count `tracecat info` gives (over its traces),
    and whether events were discarded."""
    out = run([tc, 'info', path])
    counts = collections.Counter()
    # "    %12u  ", the first and last times (absent without a clock), "  NAME"
    line_re = re.compile(r'^    ([ \d]{12})  (?:\S+ \S+  \S+ \S+)?  (.*)$')
    lost = False
    section = False
    for line in out.stdout.decode('utf-8', 'replace').splitlines():
        if line.startswith('  event classes:'):
            section = True
            continue
        if re.match(r'^  \S', line):
            section = False
        if ' discarded events' in line and not re.search(r' 0 discarded events', line):
            lost = True
        m = line_re.match(line) if section else None
        if m:
            counts[m.group(2)] += int(m.group(1))
    return counts, lost


SWITCH_RE = re.compile(r'^(?:\S+: )?\s*.*? \[(\d+)\]\s+(\d+)\.(\d+): sched_switch:\s+prev_comm=(.*) prev_pid=(-?\d+) '
                       r'prev_prio=(-?\d+) prev_state=(\S+) next_comm=(.*) next_pid=(-?\d+) next_prio=(-?\d+)$')


def report_switches(tc, path):
    """sched_switch as `tracecat report -R -t` prints them: (cpu, ns, prev_comm,
    prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio)."""
    out = run([tc, 'report', '-R', '-t', path]).stdout.decode('utf-8', 'surrogateescape')
    rows = []
    for line in out.splitlines():
        m = SWITCH_RE.match(line)
        if m:
            state = m.group(7)
            rows.append((int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3).ljust(9, '0')), m.group(4),
                         int(m.group(5)), int(m.group(6)), int(state, 0), m.group(8), int(m.group(9)), int(m.group(10))))
    return rows


REPLAY_RE = re.compile(r'^ \[\s*(\d+)\] \| ( *)(.*)$')
UNRECORDED = "(entered before the thread's records)"


class Calls:
    """Per tid, the calls `tracecat replay --no-merge` shows, and the
    slices they must make, by the rule of tracecat.h: depth says what is
    open; a call entered before the thread's records begins before them
    (named by its exit, or UNRECORDED when it never exits); a call whose
    depth is no longer on the stack ends when the next event says so."""

    def __init__(self, text):
        self.entries = collections.defaultdict(list)    # (name, depth)
        self.exits = collections.defaultdict(list)
        self.inherited = collections.defaultdict(list)  # (name, depth) of the begins before the records
        self.unrecorded = collections.Counter()         # of which never exited
        self.abandoned = collections.Counter()
        state = {}
        for line in text.splitlines():
            m = REPLAY_RE.match(line)
            if not m:
                continue
            tid, depth, body = int(m.group(1)), len(m.group(2)) // 2, m.group(3)
            entry = re.match(r'^([^(]+)\(.*\) \{$', body)
            exit_ = re.match(r'^\}(?: = .*;)? /\* (.*) \*/$', body)
            if not entry and not exit_:
                continue
            st = state.setdefault(tid, {'open': 0, 'unresolved': 0})
            want = depth + (0 if entry else 1)
            while st['open'] > want:
                if st['open'] == st['unresolved']:
                    self.unrecorded[tid] += 1
                    st['unresolved'] -= 1
                st['open'] -= 1
                self.abandoned[tid] += 1
            if st['open'] < want and st['open'] == st['unresolved']:
                st['open'] = st['unresolved'] = want
            if entry:
                self.entries[tid].append((entry.group(1), depth))
                st['open'] += 1
                continue
            self.exits[tid].append((exit_.group(1), depth))
            if st['open'] == st['unresolved']:
                self.inherited[tid].append((exit_.group(1), depth))
                if st['unresolved']:
                    st['unresolved'] -= 1
            if st['open']:
                st['open'] -= 1
        for tid, st in state.items():
            self.unrecorded[tid] += st['unresolved']

    def tids(self):
        return set(self.entries) | set(self.exits)

    def slices(self, tid):
        """(name, depth) of the calls the trace processor must show."""
        return collections.Counter(self.entries[tid] + self.inherited[tid])

    def counts(self, tid):
        """Begins, ends, and inherited begins (unrecorded ones included)."""
        return (len(self.entries[tid]), len(self.exits[tid]) + self.abandoned[tid],
                len(self.inherited[tid]) + self.unrecorded[tid])


def replay_calls(tc, path):
    return Calls(run([tc, 'replay', '--no-merge', '-f', 'tid', path]).stdout.decode('utf-8', 'replace'))


# ---- the Perfetto file ----

class Perfetto:
    def __init__(self, pb, data):
        self.trace = pb.Trace()
        self.trace.ParseFromString(data)
        self.kernel = []        # (cpu, ts, order, name, fields, pid, compact)
        self.track_events = []  # (seq, ts, type, uuid, name, annotations, inline name)
        self.threads = {}       # track uuid -> (pid, tid, name)
        self.generic_text = collections.Counter()  # (event, field, text) of generic kernel events
        self.errors = []
        self.read()

    def error(self, why):
        if len(self.errors) < 5:
            self.errors.append(why)

    def read(self):
        seqs = collections.defaultdict(lambda: {'cleared': False, 'names': {}, 'ann': {}, 'ts': None,
                                                'ftrace_ts': None, 'sw_ts': None, 'wk_ts': None,
                                                'clock64': False, 'defaults64': False, 'desc': {}})
        order = 0
        for p in self.trace.packet:
            if not p.HasField('trusted_packet_sequence_id'):
                self.error('a packet without a sequence id')
                continue
            s = seqs[p.trusted_packet_sequence_id]
            if p.sequence_flags & SEQ_CLEARED:
                s.update(cleared=True, names={}, ann={}, defaults64=False)
            if p.HasField('clock_snapshot') and any(c.clock_id == 64 for c in p.clock_snapshot.clocks):
                s['clock64'] = True
            if p.HasField('trace_packet_defaults') and p.trace_packet_defaults.timestamp_clock_id == 64:
                if not s['clock64']:
                    self.error('sequence clock 64 used before a snapshot defines it')
                s['defaults64'] = True
            if p.HasField('interned_data'):
                if not s['cleared']:
                    self.error('interned data before the sequence state was cleared')
                for e in p.interned_data.event_names:
                    s['names'][e.iid] = e.name
                for e in p.interned_data.debug_annotation_names:
                    s['ann'][e.iid] = e.name
            if p.HasField('track_descriptor'):
                d = p.track_descriptor
                if d.HasField('thread'):
                    self.threads[d.uuid] = (d.thread.pid, d.thread.tid, d.thread.thread_name)
            if p.HasField('track_event'):
                self.read_track_event(p, s)
            if p.HasField('ftrace_events'):
                order = self.read_bundle(p.ftrace_events, s, order)

    def read_track_event(self, p, s):
        if s['ts'] is not None and p.timestamp < s['ts'] and not TIME_MAY_GO_BACK:
            self.error('sequence %d: time goes back, %d after %d' % (p.trusted_packet_sequence_id, p.timestamp, s['ts']))
        s['ts'] = p.timestamp
        e = p.track_event
        name, inline = None, False
        if e.HasField('name_iid'):
            if not (p.sequence_flags & SEQ_NEEDS):
                self.error('interned name used without SEQ_NEEDS_INCREMENTAL_STATE')
            name = s['names'].get(e.name_iid)
            if name is None:
                self.error('event name iid %d used before it is defined' % e.name_iid)
        elif e.HasField('name'):
            name, inline = e.name, True
        ann = {}
        for a in e.debug_annotations:
            an = s['ann'].get(a.name_iid)
            if an is None:
                self.error('annotation name iid %d used before it is defined' % a.name_iid)
            ann[an] = a
        self.track_events.append((p.trusted_packet_sequence_id, p.timestamp, e.type, e.track_uuid, name, ann, inline))

    def read_bundle(self, b, s, order):
        cpu = b.cpu
        for d in b.generic_event_descriptors:
            s['desc'][d.field_id] = d.event_descriptor
        for ev in b.event:
            if s['ftrace_ts'] is not None and ev.timestamp < s['ftrace_ts'] and not TIME_MAY_GO_BACK:
                self.error('ftrace event time goes back on CPU %d' % cpu)
            s['ftrace_ts'] = ev.timestamp
            kind = ev.WhichOneof('event')
            if kind == 'generic':
                fields = {f.name: getattr(f, f.WhichOneof('value')) for f in ev.generic.field}
                name = ev.generic.event_name
            elif kind:
                msg = getattr(ev, kind)
                fields = {f.name: v for f, v in msg.ListFields()}
                name = kind
            else:
                name, fields = self.dense(ev, s)
            order += 1
            self.kernel.append((cpu, ev.timestamp, order, name, fields, ev.pid, False))
            if kind in (None, 'generic'):
                self.generic_text.update((name, k, v) for k, v in fields.items() if isinstance(v, str))
        c = b.compact_sched
        table = list(c.intern_table)
        ts = 0
        for i in range(len(c.switch_timestamp)):
            ts += c.switch_timestamp[i]
            if s['sw_ts'] is not None and ts < s['sw_ts'] and not TIME_MAY_GO_BACK:
                self.error('compact switch time goes back on CPU %d' % cpu)
            s['sw_ts'] = ts
            order += 1
            self.kernel.append((cpu, ts, order, 'sched_switch',
                                {'prev_state': c.switch_prev_state[i], 'next_pid': c.switch_next_pid[i],
                                 'next_prio': c.switch_next_prio[i], 'next_comm': table[c.switch_next_comm_index[i]]},
                                None, True))
        ts = 0
        for i in range(len(c.waking_timestamp)):
            ts += c.waking_timestamp[i]
            if s['wk_ts'] is not None and ts < s['wk_ts'] and not TIME_MAY_GO_BACK:
                self.error('compact waking time goes back on CPU %d' % cpu)
            s['wk_ts'] = ts
            order += 1
            self.kernel.append((cpu, ts, order, 'sched_waking',
                                {'pid': c.waking_pid[i], 'target_cpu': c.waking_target_cpu[i],
                                 'prio': c.waking_prio[i], 'comm': table[c.waking_comm_index[i]]}, None, True))
        return order

    def dense(self, ev, s):
        """An event Perfetto's schema leaves to the descriptor in the file."""
        for num, wt, v in wire_fields(ev.SerializeToString()):
            if num < 65536:
                continue
            if num not in s['desc']:
                self.error('generic event %d used before its descriptor' % num)
                return '?', {}
            desc = list(wire_fields(s['desc'][num]))
            name = next(x for n, w, x in desc if n == 1).decode()
            cols = {}
            for n, w, f in desc:
                if n == 2:
                    fd = {k: x for k, w2, x in wire_fields(f)}
                    cols[fd[3]] = (fd[1].decode(), fd[5])
            fields = {}
            for fn, fw, fv in wire_fields(v):
                col, ftype = cols[fn]
                if ftype == 9:
                    fields[col] = fv.decode('utf-8')
                elif ftype == 3:
                    fields[col] = signed64(fv)
                else:
                    fields[col] = fv
            return name, fields
        self.error('an ftrace event of no kind')
        return '?', {}

    def switches(self):
        """Every sched_switch, compact ones completed by their CPU's
        previous switch, in the report's tuple form."""
        rows = []
        last = {}
        for cpu, ts, order, name, f, pid, compact in sorted(self.kernel, key=lambda k: (k[0], k[1], k[2])):
            if name != 'sched_switch':
                continue
            if compact:
                prev = last.get(cpu)
                if prev is None:
                    self.error('a compact switch first on CPU %d' % cpu)
                    continue
                row = (cpu, ts, prev[0], prev[1], prev[2], f['prev_state'], f['next_comm'], f['next_pid'], f['next_prio'])
            else:
                row = (cpu, ts, f.get('prev_comm'), f.get('prev_pid'), f.get('prev_prio'), f.get('prev_state'),
                       f.get('next_comm'), f.get('next_pid'), f.get('next_prio'))
            last[cpu] = (row[6], row[7], row[8])
            rows.append(row)
        return rows


def mismatched_switches(rows):
    """What the trace processor counts as mismatched_sched_switch_tids."""
    last, n = {}, 0
    for row in sorted(rows, key=lambda r: (r[0], r[1])):
        if row[0] in last and last[row[0]] != row[3]:
            n += 1
        last[row[0]] = row[7]
    return n


# ---- the trace processor ----

TP_SQL = """
select 'stat' as k, name as a, coalesce(idx, '') as b, severity as c, value as d from stats
  where value > 0 and severity in ('error', 'data_loss')
union all select 'count', 'sched', '', '', count(*) from sched
union all select 'count', 'thread_state', '', '', count(*) from thread_state
union all select 'count', 'named_threads', '', '', count(*) from thread where name is not null and tid != 0
union all select 'count', 'named_processes', '', '', count(*) from process where name is not null and pid != 0
union all select 'slice', t.tid, s.name, s.depth, s.dur from slice s join thread_track tt on s.track_id = tt.id
  join thread t using(utid)
"""


def trace_processor(tpq, path, work):
    sql = os.path.join(work, 'q.sql')
    with open(sql, 'w') as f:
        f.write(TP_SQL)
    out = run([tpq, path, sql])
    if out.returncode != 0:
        return None, out.stderr.decode('utf-8', 'replace')[-300:]
    rows = []
    for line in out.stdout.decode('utf-8').splitlines()[1:]:
        rows.append(json.loads('[' + line.replace('[NULL]', 'null') + ']'))
    return rows, ''


def check_tp(tag, rows, why, lost, expected_stats, calls, events, want):
    if rows is None:
        check(tag + '/trace-processor', False, 'tp-query failed: ' + why)
        return
    stats = {(r[1], r[2]): r[4] for r in rows if r[0] == 'stat'}
    counts = {r[1]: r[4] for r in rows if r[0] == 'count'}
    unexplained = {k: v for k, v in stats.items() if expected_stats.get(k) != v and
                   not (k[0] == 'ftrace_cpu_has_data_loss' and lost)}
    missing = {k: v for k, v in expected_stats.items() if stats.get(k) != v}
    check(tag + '/tp-stats', not unexplained and not missing,
          'stats %s, expected only %s' % (sorted(stats.items()), sorted(expected_stats.items())))
    if 'sched' in want:
        check(tag + '/tp-sched', counts.get('sched') == want['sched'] and (not want['sched'] or counts.get('thread_state', 0) > 0),
              'sched %s thread_state %s, expected %d switches' % (counts.get('sched'), counts.get('thread_state'), want['sched']))
    if want.get('named_threads'):
        check(tag + '/tp-threads', counts.get('named_threads', 0) > 0, 'no named thread')
    if want.get('named_processes'):
        check(tag + '/tp-processes', counts.get('named_processes', 0) > 0, 'no named process')
    if calls is not None:
        got = collections.defaultdict(collections.Counter)
        for r in rows:
            if r[0] == 'slice' and r[2] not in events and r[2] not in (DISCARDED, UNRECORDED):
                got[int(r[1])][(r[2], int(r[3]))] += 1
        bad = [tid for tid in set(got) | calls.tids() if got[tid] != calls.slices(tid)]
        check(tag + '/tp-slices', not bad,
              'tid %s: slices (name, depth) %s, replay %s' % (bad[:1], sorted(got[bad[0]].items())[:6] if bad else '',
                                                             sorted(calls.slices(bad[0]).items())[:6] if bad else ''))


# ---- the checks ----

def check_perfetto(tag, pf, counts, switches_ref, calls):
    check(tag + '/sequences', not pf.errors, '; '.join(pf.errors))
    got = collections.Counter()
    for k in pf.kernel:
        got[ALIASES.get(k[3], k[3])] += 1
    begins = ends = inherited = 0
    for seq, ts, typ, uuid, name, ann, inline in pf.track_events:
        if typ == 1 and inline:
            inherited += 1
        elif typ == 1:
            begins += 1
        elif typ == 2:
            ends += 1
        elif typ == 3 and name != DISCARDED:
            got[name] += 1
    want = collections.Counter()
    for name, n in counts.items():
        if name in ENTRIES:
            want['<entries>'] += n
        elif name in EXITS:
            want['<exits>'] += n
        else:
            want[ALIASES.get(name, name)] += n
    got['<entries>'] = begins
    got['<exits>'] = ends - (sum(calls.abandoned.values()) if calls else 0)
    got = +got
    want = +want
    diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)}
    check(tag + '/every-event-once', not diff, 'name: (output, input) %s' % sorted(diff.items())[:8])
    if switches_ref is not None:
        mine = pf.switches()
        ref = sorted(switches_ref, key=lambda r: (r[0], r[1], r))
        mine = sorted(mine, key=lambda r: (r[0], r[1], r))
        offsets = {a[1] - b[1] for a, b in zip(ref, mine)}
        same = len(ref) == len(mine) and len(offsets) <= 1 and \
            all(a[:1] + a[2:] == b[:1] + b[2:] for a, b in zip(ref, mine))
        first = next((i for i, (a, b) in enumerate(zip(ref, mine)) if a[:1] + a[2:] != b[:1] + b[2:]), None)
        check(tag + '/sched-switch-fields', same, '%d switches, report %d; first difference: %s vs %s' % (
            len(mine), len(ref), mine[first] if first is not None else '', ref[first] if first is not None else ''))
    if calls is not None:
        per = collections.defaultdict(lambda: [0, 0, 0])
        for seq, ts, typ, uuid, name, ann, inline in pf.track_events:
            tid = pf.threads.get(uuid, (0, -1, ''))[1]
            if typ == 1:
                per[tid][2 if inline else 0] += 1
            elif typ == 2:
                per[tid][1] += 1
        bad = [tid for tid in set(per) | calls.tids() if tuple(per[tid]) != calls.counts(tid)]
        check(tag + '/slices-balanced', not bad, 'tid %s: begins, ends, inherited begins %s, replay %s' % (
            bad[:1], per[bad[0]] if bad else '', calls.counts(bad[0]) if bad else ''))


def check_json(tag, data, counts, pf, calls):
    inherited = sum(1 for e in pf.track_events if e[2] == 1 and e[6]) if pf else 0
    abandoned = sum(calls.abandoned.values()) if calls else 0
    try:
        text = data.decode('utf-8')
        doc = json.loads(text, parse_float=Decimal,
                         parse_constant=lambda c: (_ for _ in ()).throw(ValueError('constant ' + c)))
        events = doc['traceEvents']
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as e:
        check(tag + '/json-parses', False, str(e))
        return
    check(tag + '/json-parses', True)
    bad_ts = [e for e in events if 'ts' in e and e['ph'] != 'M' and
              not (isinstance(e['ts'], (int, Decimal)) and Decimal(e['ts']) * 1000 == int(Decimal(e['ts']) * 1000))]
    check(tag + '/json-ns', not bad_ts, 'times not whole nanoseconds: %s' % bad_ts[:2])
    got = collections.Counter()
    for e in events:
        if e['ph'] == 'i' and e['name'] != DISCARDED:
            got[ALIASES.get(e['name'], e['name'])] += 1
        elif e['ph'] in 'XB':
            got['<entries>'] += 1
            got['<exits>'] += e['ph'] == 'X'
    want = collections.Counter()
    for name, n in counts.items():
        want['<entries>' if name in ENTRIES else '<exits>' if name in EXITS else ALIASES.get(name, name)] += n
    got['<entries>'] -= inherited
    got['<exits>'] -= abandoned
    got, want = +got, +want
    diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)}
    check(tag + '/json-every-event-once', not diff, 'name: (json, input) %s' % sorted(diff.items())[:8])
    bad_ph = [e for e in events if e['ph'] not in 'MXBi']
    check(tag + '/json-phases', not bad_ph, 'unexpected events: %s' % bad_ph[:2])
    # user-space events: their fields, as debug annotations and as args
    if pf is not None and pf.track_events:
        pf_fields = collections.Counter((name, tuple(sorted(ann))) for seq, ts, typ, uuid, name, ann, inline
                                        in pf.track_events if typ == 3 and name != DISCARDED)
        js_fields = collections.Counter((e['name'], tuple(sorted(e.get('args', {})))) for e in events
                                        if e['ph'] == 'i' and e['name'] != DISCARDED)
        check(tag + '/event-fields', pf_fields == js_fields,
              'annotations %s, JSON args %s' % (sorted(pf_fields - js_fields)[:3], sorted(js_fields - pf_fields)[:3]))
        # text the same in both, whatever its bytes were (escaped in JSON,
        # UTF-8 in protobuf, U+FFFD for bytes that were not)
        args = [(e['name'], k, v) for e in events if e['ph'] == 'i' and e['name'] != DISCARDED
                for k, v in e.get('args', {}).items()]
        not_text = {(n, k) for n, k, v in args if not isinstance(v, str)}
        pf_text = collections.Counter((name, k, a.string_value) for seq, ts, typ, uuid, name, ann, inline
                                      in pf.track_events if typ == 3 for k, a in ann.items()
                                      if a.HasField('string_value') and (name, k) not in not_text)
        text_fields = {(name, k) for name, k, v in pf_text}
        js_text = collections.Counter(a for a in args if a[:2] in text_fields)
        check(tag + '/event-text', pf_text == js_text,
              'protobuf %s, JSON %s' % (sorted(pf_text - js_text)[:2], sorted(js_text - pf_text)[:2]))
    if pf is not None and pf.generic_text:
        # fields that are text in the input (Perfetto has arrays and
        # structures as text too; JSON has them as such)
        args = [(e['name'], k, v) for e in events if e['ph'] == 'i' for k, v in e.get('args', {}).items()]
        nested = {(n, k) for n, k, v in args if not isinstance(v, str)}
        fields = {(n, k) for n, k, v in pf.generic_text} - nested
        js_text = collections.Counter(a for a in args if a[:2] in fields)
        pf_text = collections.Counter({a: n for a, n in pf.generic_text.items() if a[:2] in fields})
        check(tag + '/kernel-event-text', pf_text == js_text,
              'protobuf %s, JSON %s' % (sorted(pf_text - js_text)[:2], sorted(js_text - pf_text)[:2]))
    if calls is not None:
        per = collections.defaultdict(collections.Counter)
        for e in events:
            if e['ph'] in 'XB':
                per[e['tid']][e['ph']] += 1
        # every end is an X event, every call left open a B event
        want_xb = lambda tid: (calls.counts(tid)[1], calls.counts(tid)[0] + calls.counts(tid)[2] - calls.counts(tid)[1])
        bad = [tid for tid in set(per) | calls.tids() if (per[tid]['X'], per[tid]['B']) != want_xb(tid)]
        check(tag + '/json-slices-balanced', not bad, 'tid %s: X/B %s, replay %s' % (
            bad[:1], dict(per[bad[0]]) if bad else '', want_xb(bad[0]) if bad else ''))
    # the same times as the Perfetto file's, to the nanosecond
    if pf is not None:
        ns = lambda v: int(Decimal(v) * 1000)
        js_begins = sorted((e['tid'], ns(e['ts'])) for e in events if e['ph'] in 'XB')
        js_ends = sorted((e['tid'], ns(e['ts']) + ns(e['dur'])) for e in events if e['ph'] == 'X')
        pf_begins, pf_ends = [], []
        for seq, ts, typ, uuid, name, ann, inline in pf.track_events:
            if typ in (1, 2) and uuid in pf.threads:
                (pf_begins if typ == 1 else pf_ends).append((pf.threads[uuid][1], ts))
        kernel_js = sorted((ALIASES.get(e['name'], e['name']), ns(e['ts'])) for e in events
                           if e['ph'] == 'i' and e['name'] != DISCARDED and pf.kernel)
        kernel_pf = sorted((ALIASES.get(k[3], k[3]), k[1]) for k in pf.kernel)
        same_calls = js_begins == sorted(pf_begins) and js_ends == sorted(pf_ends)
        check(tag + '/json-times', same_calls and kernel_js == kernel_pf,
              'slice times differ' if not same_calls else 'kernel event times differ')


def main():
    args = sys.argv[1:]
    global TIME_MAY_GO_BACK
    if args and args[0] == '--time-goes-back':
        TIME_MAY_GO_BACK = True
        args = args[1:]
    tc, name, path, work, schema, pbdir = args[:6]
    tpq = args[6] if len(args) > 6 else None
    sys.path.insert(0, pbdir)
    import perfetto_trace_pb2 as pb
    counts, lost = info_counts(tc, path)
    is_tracedat = os.path.isfile(path)
    user_calls = any(n in counts for n in ENTRIES)
    switches_ref = report_switches(tc, path) if is_tracedat else None
    calls = replay_calls(tc, path) if os.path.isfile(os.path.join(path, 'info')) else None
    user_events = {n for n in counts if n not in ENTRIES + EXITS}
    outputs = {}
    for ext in ('pftrace', 'json'):
        out = os.path.join(work, name.replace('/', '_') + '.' + ext)
        if os.path.exists(out):
            os.unlink(out)
        r = run([tc, 'convert', path, '-o', out])
        check('%s/convert-%s' % (name, ext), r.returncode == 0 and os.path.isfile(out),
              'exit %d: %s' % (r.returncode, r.stderr.decode('utf-8', 'replace')[:300]))
        outputs[ext] = out if r.returncode == 0 else None
    pf = None
    if outputs['pftrace']:
        with open(outputs['pftrace'], 'rb') as f:
            r = run(['protoc', '--decode=perfetto.protos.Trace', '-I', schema, 'perfetto_trace.proto'], stdin=f)
        check(name + '/protoc-decode', r.returncode == 0, r.stderr.decode('utf-8', 'replace')[:300])
        with open(outputs['pftrace'], 'rb') as f:
            pf = Perfetto(pb, f.read())
        check_perfetto(name, pf, counts, switches_ref, calls)
    if outputs['json']:
        with open(outputs['json'], 'rb') as f:
            check_json(name, f.read(), counts, pf, calls)
    if tpq:
        expected = {}
        if pf is not None:
            mismatched = mismatched_switches(pf.switches())
            if mismatched:
                expected[('mismatched_sched_switch_tids', '')] = mismatched
        want = {}
        if pf is not None and any(k[3] == 'sched_switch' for k in pf.kernel):
            want['sched'] = sum(1 for k in pf.kernel if k[3] == 'sched_switch')
            want['named_threads'] = any(k[4].get('next_comm') for k in pf.kernel if k[3] == 'sched_switch')
        if user_calls:
            want['named_threads'] = want['named_processes'] = True
        for ext in ('pftrace', 'json'):
            if not outputs[ext]:
                continue
            rows, why = trace_processor(tpq, outputs[ext], work)
            exp = expected if ext == 'pftrace' else {}
            w = want if ext == 'pftrace' else {k: v for k, v in want.items() if k != 'sched'}
            check_tp('%s/%s' % (name, ext), rows, why, lost, exp, calls, user_events, w)
    for cname, ok, why in results:
        print(('PASS %s' % cname) if ok else ('FAIL %s: %s' % (cname, why)))


if __name__ == '__main__':
    main()
