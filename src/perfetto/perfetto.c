/* SPDX-License-Identifier: MIT */
/*
 * perfetto.c - the timeline as Perfetto's protobuf trace
 * (perfetto_trace.proto: a Trace is a sequence of TracePacket fields 1),
 * laid out the way Perfetto's own recorder lays out kernel and
 * user-space data, so that its trace processor builds the same views.
 *
 * Sequences (trusted_packet_sequence_id), one per writer of packets:
 *
 *   1       the writer's own: the first ClockSnapshot (the trace clock is
 *           BOOTTIME, related to REALTIME when the reference clock has an
 *           epoch offset), SystemInfo (utsname: which kernel's task
 *           states), ProcessTree packets (trace.dat saved cmdlines at the
 *           start, statedump tasks as they come) and TrackDescriptors of
 *           processes, threads and streams before their first event;
 *   2...    one per input stream, from its first message:
 *           - kernel streams: FtraceEventBundles of the stream's CPU, each
 *             up to BUNDLE_BYTES.  sched_switch and sched_waking go in
 *             the bundle's compact_sched arrays when that loses nothing:
 *             the compact form has no prev_* fields and no waker, which
 *             the importer takes from the CPU's previous switch, so a
 *             switch whose prev_* differ from that one's next_* (the
 *             first one on a CPU, one after lost events), or a waking
 *             not run by the CPU's current task, is written typed.  The
 *             events of tl_event_specs are typed, every other one is a
 *             generic event described once per sequence in the bundle's
 *             generic_event_descriptors (the dense encoding of Perfetto
 *             v50: a submessage of FtraceEvent numbered from 65536, its
 *             fields numbered from 1; GenericFtraceEvent, field names as
 *             strings, for events of more than 31 fields).  Arrays and
 *             structures are written as text there: the importer keeps
 *             one value per field.  A clock other than the trace clock is
 *             the bundle's ftrace_clock with a pair of timestamps saying
 *             how it relates (ftrace_timestamp and boot_timestamp);
 *           - user-space streams: TrackEvents, names of events and of
 *             debug annotations interned per sequence (the first packet
 *             clears the incremental state; the tables start again when
 *             they reach INTERN_LIMIT entries, so memory stays bounded),
 *             on the thread's track; a clock other than the trace clock
 *             is the sequence's clock 64, related by a ClockSnapshot
 *             before the first event;
 *   then    one short sequence per function call whose entry was not
 *           recorded: its begin, earlier than the sequence it ends on.
 */
#include "perfetto/timeline.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define META_SEQ 1
#define BUNDLE_BYTES 60000
#define INTERN_LIMIT 65536
#define DENSE_BASE 65536          /* FtraceEvent's self-described range */
#define DENSE_MAX_FIELDS 31       /* the importer reads fields 1 to 31 */
#define SEQ_CLOCK 64              /* the first sequence-scoped clock id */
#define COMM_MAX 64

enum {
	/* TracePacket */
	TP_FTRACE = 1, TP_PROCESS_TREE = 2, TP_CLOCK_SNAPSHOT = 6, TP_TIMESTAMP = 8,
	TP_SEQ_ID = 10, TP_TRACK_EVENT = 11, TP_INTERNED = 12, TP_SEQ_FLAGS = 13,
	TP_SYSTEM_INFO = 45, TP_DEFAULTS = 59, TP_TRACK_DESCRIPTOR = 60,
	SEQ_CLEARED = 1, SEQ_NEEDS_STATE = 2,
	/* TrackEvent */
	TE_ANNOTATION = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK = 11, TE_NAME = 23,
	TE_BEGIN = 1, TE_END = 2, TE_INSTANT = 3,
	/* DebugAnnotation */
	DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_DOUBLE = 5, DA_STRING = 6,
	DA_POINTER = 7, DA_NAME = 10, DA_DICT = 11, DA_ARRAY = 12,
	/* builtin clocks */
	CLOCK_REALTIME = 1, CLOCK_BOOTTIME = 6,
	/* FtraceClock: GLOBAL makes the bundle's clock sequence-scoped */
	FTRACE_CLOCK_GLOBAL = 2,
};

/* Strings interned to small ids (iids from 1, or indexes from 0). */
typedef struct strtab {
	pb_buf bytes;              /* the strings, one after another */
	struct slot { uint32_t off, len; uint64_t id; } *slots;
	size_t cap, count;
	/* the strings last looked up, by their address: function names
	 * come from symbol tables, the same few pointers again and again.
	 * A hit is checked against the table's bytes, so an address that
	 * holds other text by now finds nothing. */
	struct recent_id { const char *ptr; struct slot slot; } recent[16];
} strtab;

/* The last sched_switch on a CPU, as the importer will have it. */
typedef struct cpu_state {
	bool valid;
	int64_t ts, next_pid, next_prio;
	char next_comm[COMM_MAX];
	size_t comm_len;
} cpu_state;

/* The compact_sched arrays of sched_switch and sched_waking. */
enum { SW_TS, SW_STATE, SW_PID, SW_PRIO, SW_COMM, SW_COUNT };
enum { WK_TS, WK_PID, WK_CPU, WK_PRIO, WK_COMM, WK_FLAGS, WK_COUNT };

typedef struct pf_stream {
	const tc_stream *stream;
	struct pf_stream *next;    /* hash chain */
	uint32_t seq;
	bool kernel;
	const tl_clock *clock;     /* the clock of its first timed event */
	bool own_clock;            /* timestamps on the stream's clock (delta != 0) */
	int64_t first_own;         /* its first timestamp there */
	/* kernel: the bundle being filled */
	pb_buf events;             /* FtraceEvent fields (2) of the bundle */
	pb_buf descriptors;        /* generic_event_descriptors (11) to add */
	uint8_t *described;        /* per dense event id: described on this sequence */
	size_t described_count;
	bool lost;
	strtab comms;              /* the compact intern table */
	pb_buf sw[SW_COUNT], wk[WK_COUNT];  /* compact arrays: timestamps first */
	size_t sw_count, wk_count;
	int64_t sw_last, wk_last;
	bool wk_flags;             /* the bundle's compact wakings carry flags */
	/* user space: the sequence's interned names */
	strtab names, annotation_names;
	bool cleared;
} pf_stream;

typedef struct pf_writer {
	pf_stream **streams;       /* chains by stream */
	size_t stream_cap;
	pf_stream **order;         /* in the order they came */
	pf_stream *last_stream;    /* the stream of the message before */
	size_t stream_count;
	uint32_t next_seq;
	uint64_t next_uuid;
	uint32_t next_dense;       /* dense event ids handed out */
	cpu_state *cpus;
	size_t cpu_count;
	pb_buf scratch, interned, nested;
	bool started;
} pf_writer;

/* ---- interning ---- */

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static void strtab_reset(strtab *t)
{
	t->bytes.len = 0;
	t->count = 0;
	memset(t->recent, 0, sizeof t->recent);
	if (t->slots)
		memset(t->slots, 0xff, t->cap * sizeof *t->slots);
}

static void strtab_free(strtab *t)
{
	pb_free(&t->bytes);
	free(t->slots);
}

static bool strtab_grow(strtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 64;
	struct slot *n = malloc(cap * sizeof *n);
	if (!n)
		return false;
	memset(n, 0xff, cap * sizeof *n);
	for (size_t i = 0; i < t->cap; i++) {
		if (t->slots[i].off == UINT32_MAX)
			continue;
		size_t h = str_hash((const char *)t->bytes.data + t->slots[i].off, t->slots[i].len) & (cap - 1);
		while (n[h].off != UINT32_MAX)
			h = (h + 1) & (cap - 1);
		n[h] = t->slots[i];
	}
	free(t->slots);
	t->slots = n;
	t->cap = cap;
	return true;
}

/* T's recent entry for the string at S. */
static struct recent_id *strtab_recent(strtab *t, const char *s)
{
	return &t->recent[((uintptr_t)s >> 3 ^ (uintptr_t)s >> 7) % (sizeof t->recent / sizeof t->recent[0])];
}

/* Whether the LEN bytes at S were looked up lately: their id in *ID. */
static inline bool strtab_recent_id(strtab *t, const char *s, size_t len, uint64_t *id)
{
	const struct recent_id *r = strtab_recent(t, s);
	if (!s || r->ptr != s || r->slot.len != len || memcmp(t->bytes.data + r->slot.off, s, len) != 0)
		return false;
	*id = r->slot.id;
	return true;
}

/* The id of S in T, adding it with id T->count + BASE when new (*ADDED);
 * 0 and *FAILED when out of memory. */
static uint64_t strtab_id(strtab *t, const char *s, size_t len, uint64_t base, bool *added, bool *failed)
{
	*added = false;
	uint64_t id;
	if (strtab_recent_id(t, s, len, &id))
		return id;
	struct recent_id *r = strtab_recent(t, s);
	uint64_t hash = str_hash(s, len);
	if (t->cap) {
		for (size_t h = hash & (t->cap - 1);; h = (h + 1) & (t->cap - 1)) {
			struct slot *sl = &t->slots[h];
			if (sl->off == UINT32_MAX)
				break;
			if (sl->len == len && memcmp(t->bytes.data + sl->off, s, len) == 0) {
				*r = (struct recent_id){ s, *sl };
				return sl->id;
			}
		}
	}
	if (((t->count + 1) * 2 > t->cap && !strtab_grow(t)) || t->bytes.len + len > UINT32_MAX) {
		*failed = true;
		return 0;
	}
	size_t h = hash & (t->cap - 1);
	while (t->slots[h].off != UINT32_MAX)
		h = (h + 1) & (t->cap - 1);
	t->slots[h] = (struct slot){ (uint32_t)t->bytes.len, (uint32_t)len, t->count + base };
	pb_raw(&t->bytes, s, len);
	if (t->bytes.failed) {
		*failed = true;
		return 0;
	}
	t->count++;
	*added = true;
	*r = (struct recent_id){ s, t->slots[h] };
	return t->slots[h].id;
}

/* ---- packets ---- */

static size_t varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* A whole message field: its tag and length. */
static size_t field_size(uint32_t field, size_t len)
{
	return varint_size((uint64_t)field << 3 | PB_LEN) + varint_size(len) + len;
}

static size_t open_packet(tl_ctx *c, uint32_t seq)
{
	size_t m = pb_open(&c->out, 1);
	pb_uint(&c->out, TP_SEQ_ID, seq);
	return m;
}

static uint32_t new_sequence(pf_writer *w)
{
	return w->next_seq++;
}

/* ---- the writer's own sequence ---- */

static void put_env(pb_buf *b, uint32_t field, const tc_trace *t, const char *key)
{
	const tc_env_entry *e = tc_trace_env(t, key);
	if (e && !e->is_int)
		pb_str(b, field, e->str_value);
}

typedef struct tree_state {
	int64_t first_ts;          /* the packets' time */
	size_t packet, tree;
	bool open;
	size_t count;
} tree_state;

static int add_saved_task(tl_ctx *c, int64_t tid, const char *name, size_t len, void *arg)
{
	tree_state *ts = arg;
	if (!ts->open) {
		ts->packet = open_packet(c, META_SEQ);
		pb_uint(&c->out, TP_TIMESTAMP, (uint64_t)ts->first_ts);
		ts->tree = pb_open(&c->out, TP_PROCESS_TREE);
		ts->open = true;
	}
	size_t m = pb_open(&c->out, 2);     /* threads */
	pb_int(&c->out, 1, tid);
	size_t s = pb_open(&c->out, 2);
	tl_put_utf8(&c->out, name, len);
	pb_close(&c->out, s);
	pb_close(&c->out, m);
	if (++ts->count % 4096 == 0) {
		pb_close(&c->out, ts->tree);
		pb_close(&c->out, ts->packet);
		ts->open = false;
	}
	return 0;
}

/* What the trace knows before its first event: clocks, kernel, tasks. */
static int start(tl_ctx *c, pf_writer *w, int64_t first_ts)
{
	w->started = true;
	size_t p = open_packet(c, META_SEQ);
	pb_uint(&c->out, TP_SEQ_FLAGS, SEQ_CLEARED);
	size_t cs = pb_open(&c->out, TP_CLOCK_SNAPSHOT);
	size_t k = pb_open(&c->out, 1);
	pb_uint(&c->out, 1, CLOCK_BOOTTIME);
	pb_uint(&c->out, 2, (uint64_t)first_ts);
	pb_close(&c->out, k);
	__int128 off;
	if (c->reference && tl_epoch_offset(c->reference->clk, &off)) {
		__int128 real = off + first_ts;
		if (real >= 0 && real <= INT64_MAX) {
			k = pb_open(&c->out, 1);
			pb_uint(&c->out, 1, CLOCK_REALTIME);
			pb_uint(&c->out, 2, (uint64_t)real);
			pb_close(&c->out, k);
		}
	}
	pb_uint(&c->out, 2, CLOCK_BOOTTIME);   /* primary_trace_clock */
	pb_close(&c->out, cs);
	pb_close(&c->out, p);

	for (size_t i = 0; i < c->trace_count; i++) {
		const tc_trace *t = c->traces[i];
		if (!tl_trace_is_kernel(t) || !tc_trace_env(t, TC_ENV_KERNEL_RELEASE))
			continue;
		p = open_packet(c, META_SEQ);
		size_t si = pb_open(&c->out, TP_SYSTEM_INFO);
		size_t u = pb_open(&c->out, 1);
		put_env(&c->out, 1, t, TC_ENV_SYSNAME);
		put_env(&c->out, 2, t, TC_ENV_KERNEL_VERSION);
		put_env(&c->out, 3, t, TC_ENV_KERNEL_RELEASE);
		put_env(&c->out, 4, t, TC_ENV_MACHINE);
		pb_close(&c->out, u);
		pb_close(&c->out, si);
		pb_close(&c->out, p);
		break;
	}
	tree_state ts = { .first_ts = first_ts };
	int rc = tl_known_tasks(c, add_saved_task, &ts);
	if (ts.open) {
		pb_close(&c->out, ts.tree);
		pb_close(&c->out, ts.packet);
	}
	return rc;
}

/* A ProcessTree entry from a statedump event. */
static void write_statedump(tl_ctx *c, const tl_class *cls, const tc_message *msg, int64_t ts)
{
	int64_t tid, pid, ppid;
	const char *name = NULL;
	size_t len = 0;
	if (!tl_spec_int(cls, msg, TL_TASK_TID, &tid))
		return;
	if (!tl_spec_int(cls, msg, TL_TASK_PID, &pid))
		pid = tid;
	bool named = tl_text_value(tl_spec_field(cls, msg, TL_TASK_NAME), &name, &len);
	size_t p = open_packet(c, META_SEQ);
	pb_uint(&c->out, TP_TIMESTAMP, (uint64_t)ts);
	size_t tree = pb_open(&c->out, TP_PROCESS_TREE);
	if (tid == pid) {
		size_t m = pb_open(&c->out, 1);
		pb_int(&c->out, 1, pid);
		if (tl_spec_int(cls, msg, TL_TASK_PPID, &ppid))
			pb_int(&c->out, 2, ppid);
		if (named) {
			size_t s = pb_open(&c->out, 3);
			tl_put_utf8(&c->out, name, len);
			pb_close(&c->out, s);
			pb_uint(&c->out, 9, 1);    /* cmdline_is_comm */
		}
		pb_close(&c->out, m);
	}
	size_t m = pb_open(&c->out, 2);
	pb_int(&c->out, 1, tid);
	pb_int(&c->out, 3, pid);
	if (named) {
		size_t s = pb_open(&c->out, 2);
		tl_put_utf8(&c->out, name, len);
		pb_close(&c->out, s);
	}
	pb_close(&c->out, m);
	pb_close(&c->out, tree);
	pb_close(&c->out, p);
}

/* ---- track descriptors ---- */

static void put_utf8_field(pb_buf *b, uint32_t field, const char *s, size_t len)
{
	size_t m = pb_open(b, field);
	tl_put_utf8(b, s, len);
	pb_close(b, m);
}

/* Describes T (and its process) if not done yet or renamed since. */
static void describe_track(tl_ctx *c, pf_writer *w, tl_track *t)
{
	bool thread = t->tid >= 0;
	int64_t pid = t->pid >= 0 ? t->pid : t->tid;
	tl_track *main = !thread ? NULL : t->pid < 0 ? t : tl_process_of(c, t);
	if (main && (!main->process_uuid || main->process_renamed)) {
		if (!main->process_uuid)
			main->process_uuid = w->next_uuid++;
		main->process_renamed = false;
		size_t p = open_packet(c, META_SEQ);
		size_t d = pb_open(&c->out, TP_TRACK_DESCRIPTOR);
		pb_uint(&c->out, 1, main->process_uuid);
		size_t pd = pb_open(&c->out, 3);
		pb_int(&c->out, 1, pid);
		if (main->process_name)
			put_utf8_field(&c->out, 6, main->process_name, strlen(main->process_name));
		pb_close(&c->out, pd);
		pb_close(&c->out, d);
		pb_close(&c->out, p);
	}
	if (t->uuid && !t->renamed)
		return;
	if (!t->uuid)
		t->uuid = w->next_uuid++;
	t->renamed = false;
	size_t p = open_packet(c, META_SEQ);
	size_t d = pb_open(&c->out, TP_TRACK_DESCRIPTOR);
	pb_uint(&c->out, 1, t->uuid);
	if (main) {
		pb_uint(&c->out, 5, main->process_uuid);
		size_t td = pb_open(&c->out, 4);
		pb_int(&c->out, 1, pid);
		pb_int(&c->out, 2, t->tid);
		if (t->name)
			put_utf8_field(&c->out, 5, t->name, strlen(t->name));
		pb_close(&c->out, td);
	} else if (t->name) {
		put_utf8_field(&c->out, 2, t->name, strlen(t->name));
	}
	pb_close(&c->out, d);
	pb_close(&c->out, p);
}

/* describe_track() when there is something to do: every event asks,
 * and nearly always of a thread described, in a process described. */
static inline void describe(tl_ctx *c, pf_writer *w, tl_track *t)
{
	tl_track *main = t->tid < 0 ? NULL : t->pid < 0 ? t : tl_process_of(c, t);
	if (!t->uuid || t->renamed || (main && (!main->process_uuid || main->process_renamed)))
		describe_track(c, w, t);
}

/* ---- streams ---- */

static pf_stream *stream_find(pf_writer *w, const tc_stream *s);

/* The writer's stream of S: most messages are of the stream before. */
static inline pf_stream *stream_of(pf_writer *w, const tc_stream *s)
{
	if (w->last_stream && w->last_stream->stream == s)
		return w->last_stream;
	return w->last_stream = stream_find(w, s);
}

static pf_stream *stream_find(pf_writer *w, const tc_stream *s)
{
	if (w->stream_cap)
		for (pf_stream *p = w->streams[tc_ptr_hash(s, w->stream_cap)]; p; p = p->next)
			if (p->stream == s)
				return p;
	if (w->stream_count >= w->stream_cap) {
		size_t cap = w->stream_cap ? w->stream_cap * 2 : 64;
		pf_stream **n = calloc(cap, sizeof *n);
		if (!n)
			return NULL;
		for (size_t i = 0; i < w->stream_cap; i++)
			for (pf_stream *p = w->streams[i], *next; p; p = next) {
				next = p->next;
				size_t h = tc_ptr_hash(p->stream, cap);
				p->next = n[h];
				n[h] = p;
			}
		free(w->streams);
		w->streams = n;
		w->stream_cap = cap;
	}
	pf_stream *p = calloc(1, sizeof *p);
	if (!p || tc_ptr_push((void ***)&w->order, &w->stream_count, p) < 0) {
		free(p);
		return NULL;
	}
	p->stream = s;
	p->seq = new_sequence(w);
	p->kernel = tl_trace_is_kernel(s->trace);
	size_t h = tc_ptr_hash(s, w->stream_cap);
	p->next = w->streams[h];
	w->streams[h] = p;
	return p;
}

/* The stream's clock, fixed by its first timed event: timestamps are then
 * written on it (OWN) when it differs from the trace clock. */
static void set_clock(pf_stream *s, const tl_clock *k, int64_t ts)
{
	if (s->clock || !k)
		return;
	s->clock = k;
	s->own_clock = k->delta_ns != 0;
	s->first_own = ts - k->delta_ns;
}

static uint64_t stamp(const pf_stream *s, int64_t ts)
{
	int64_t v = s->own_clock ? ts - s->clock->delta_ns : ts;
	return v < 0 ? 0 : (uint64_t)v;
}

/* ---- kernel data ---- */

static cpu_state *cpu_of(pf_writer *w, int cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if ((size_t)cpu >= w->cpu_count) {
		cpu_state *n = realloc(w->cpus, ((size_t)cpu + 1) * sizeof *n);
		if (!n)
			return NULL;
		memset(n + w->cpu_count, 0, ((size_t)cpu + 1 - w->cpu_count) * sizeof *n);
		w->cpus = n;
		w->cpu_count = (size_t)cpu + 1;
	}
	return &w->cpus[cpu];
}

static uint32_t bundle_cpu(const pf_stream *s)
{
	return s->stream->cpu >= 0 ? (uint32_t)s->stream->cpu : 0;
}

static int flush_bundle(tl_ctx *c, pf_writer *w, pf_stream *s)
{
	if (!s->events.len && !s->sw_count && !s->wk_count)
		return 0;
	pb_buf *cs = &w->scratch;
	cs->len = 0;
	if (s->sw_count || s->wk_count) {
		pb_buf *bytes = &s->comms.bytes;
		/* intern_table: the strings in id order */
		struct slot *order = NULL;
		if (s->comms.count && !(order = calloc(s->comms.count, sizeof *order)))
			return tc_fail_nomem();
		for (size_t i = 0; i < s->comms.cap; i++)
			if (s->comms.slots[i].off != UINT32_MAX)
				order[s->comms.slots[i].id] = s->comms.slots[i];
		for (size_t i = 0; i < s->comms.count; i++)
			pb_bytes(cs, 5, bytes->data + order[i].off, order[i].len);
		free(order);
		static const uint32_t sw_fields[SW_COUNT] = { 1, 2, 3, 4, 6 };
		static const uint32_t wk_fields[WK_COUNT] = { 7, 8, 9, 10, 11, 12 };
		for (int i = 0; i < SW_COUNT && s->sw_count; i++)
			pb_bytes(cs, sw_fields[i], s->sw[i].data, s->sw[i].len);
		for (int i = 0; i < WK_COUNT && s->wk_count; i++)
			if (i != WK_FLAGS || s->wk_flags)
				pb_bytes(cs, wk_fields[i], s->wk[i].data, s->wk[i].len);
	}
	uint32_t cpu = bundle_cpu(s);
	size_t bundle = 1 + varint_size(cpu) + s->events.len + (s->lost ? 2 : 0) + (cs->len ? field_size(4, cs->len) : 0) +
	                s->descriptors.len;
	int64_t own_first = s->first_own, boot_first = own_first + (s->clock ? s->clock->delta_ns : 0);
	if (s->own_clock)
		bundle += 2 + 1 + varint_size((uint64_t)own_first) + 1 + varint_size((uint64_t)boot_first);
	size_t packet = 1 + varint_size(s->seq) + field_size(TP_FTRACE, bundle);
	pb_buf *o = &c->out;
	if (!pb_room(o, field_size(1, packet)))
		return tc_fail_nomem();
	pb_tag(o, 1, PB_LEN);
	pb_varint(o, packet);
	pb_uint(o, TP_SEQ_ID, s->seq);
	pb_tag(o, TP_FTRACE, PB_LEN);
	pb_varint(o, bundle);
	pb_uint(o, 1, cpu);
	pb_raw(o, s->events.data, s->events.len);
	if (s->lost)
		pb_uint(o, 3, 1);
	if (cs->len)
		pb_bytes(o, 4, cs->data, cs->len);
	if (s->own_clock) {
		pb_uint(o, 5, FTRACE_CLOCK_GLOBAL);
		pb_int(o, 6, own_first);
		pb_int(o, 7, boot_first);
	}
	pb_raw(o, s->descriptors.data, s->descriptors.len);
	s->events.len = s->descriptors.len = 0;
	s->lost = false;
	strtab_reset(&s->comms);
	for (int i = 0; i < SW_COUNT; i++)
		s->sw[i].len = 0;
	for (int i = 0; i < WK_COUNT; i++)
		s->wk[i].len = 0;
	s->sw_count = s->wk_count = 0;
	return o->failed || cs->failed ? tc_fail_nomem() : 0;
}

static size_t bundle_size(const pf_stream *s)
{
	size_t n = s->events.len + s->comms.bytes.len + s->descriptors.len;
	for (int i = 0; i < SW_COUNT; i++)
		n += s->sw[i].len;
	for (int i = 0; i < WK_COUNT; i++)
		n += s->wk[i].len;
	return n;
}

static bool same_text(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

/* Appends a value to a compact array: a packed varint. */
static void put_packed(pb_buf *b, uint64_t v)
{
	pb_varint(b, v);
}

/* The compact sched_switch, when nothing is lost by it. */
static bool compact_switch(pf_writer *w, pf_stream *s, const tl_class *cls, const tc_message *msg, uint64_t ts, bool *failed)
{
	cpu_state *st = cpu_of(w, s->stream->cpu);
	int64_t prev_pid, prev_prio, state, next_pid, next_prio;
	const char *prev_comm, *next_comm;
	size_t prev_len, next_len;
	if (!st || !st->valid || (int64_t)ts <= st->ts || !tl_spec_int(cls, msg, 1, &prev_pid) ||
	    !tl_spec_int(cls, msg, 2, &prev_prio) || !tl_spec_int(cls, msg, 3, &state) ||
	    !tl_spec_int(cls, msg, 5, &next_pid) || !tl_spec_int(cls, msg, 6, &next_prio) ||
	    !tl_text_value(tl_spec_field(cls, msg, 0), &prev_comm, &prev_len) ||
	    !tl_text_value(tl_spec_field(cls, msg, 4), &next_comm, &next_len) || prev_pid != st->next_pid ||
	    prev_prio != st->next_prio || !same_text(prev_comm, prev_len, st->next_comm, st->comm_len) ||
	    tl_utf8_prefix(next_comm, next_len) != next_len)
		return false;
	bool added;
	uint64_t index = strtab_id(&s->comms, next_comm, next_len, 0, &added, failed);
	if (*failed)
		return false;
	if (!s->sw_count)
		s->sw_last = 0;
	put_packed(&s->sw[SW_TS], ts - (uint64_t)s->sw_last);
	s->sw_last = (int64_t)ts;
	put_packed(&s->sw[SW_STATE], (uint64_t)state);
	put_packed(&s->sw[SW_PID], (uint64_t)next_pid);
	put_packed(&s->sw[SW_PRIO], (uint64_t)next_prio);
	put_packed(&s->sw[SW_COMM], index);
	s->sw_count++;
	return true;
}

/* The compact sched_waking, when nothing is lost by it. */
static bool compact_waking(pf_writer *w, pf_stream *s, const tl_class *cls, const tc_message *msg, uint64_t ts,
                           const tl_track *t, bool *failed)
{
	cpu_state *st = cpu_of(w, s->stream->cpu);
	int64_t pid, prio, target, flags = 0;
	const char *comm;
	size_t len;
	bool has_flags = tl_int_value(tl_context(msg, cls->flags), &flags);
	if (!st || !st->valid || (int64_t)ts <= st->ts || !t || t->tid != st->next_pid || cls->fields[3] >= 0 ||
	    (s->wk_count && has_flags != s->wk_flags) || !tl_spec_int(cls, msg, 1, &pid) ||
	    !tl_spec_int(cls, msg, 2, &prio) || !tl_spec_int(cls, msg, 4, &target) ||
	    !tl_text_value(tl_spec_field(cls, msg, 0), &comm, &len) || tl_utf8_prefix(comm, len) != len)
		return false;
	bool added;
	uint64_t index = strtab_id(&s->comms, comm, len, 0, &added, failed);
	if (*failed)
		return false;
	if (!s->wk_count) {
		s->wk_last = 0;
		s->wk_flags = has_flags;
	}
	put_packed(&s->wk[WK_TS], ts - (uint64_t)s->wk_last);
	s->wk_last = (int64_t)ts;
	put_packed(&s->wk[WK_PID], (uint64_t)pid);
	put_packed(&s->wk[WK_CPU], (uint64_t)target);
	put_packed(&s->wk[WK_PRIO], (uint64_t)prio);
	put_packed(&s->wk[WK_COMM], index);
	if (has_flags)
		put_packed(&s->wk[WK_FLAGS], (uint64_t)flags);
	s->wk_count++;
	return true;
}

/* Remembers a switch as the importer will: the CPU's next task. */
static void note_switch(pf_writer *w, const pf_stream *s, const tl_class *cls, const tc_message *msg, int64_t ts)
{
	cpu_state *st = cpu_of(w, s->stream->cpu);
	const char *comm;
	size_t len;
	if (!st)
		return;
	st->valid = tl_spec_int(cls, msg, 5, &st->next_pid) && tl_spec_int(cls, msg, 6, &st->next_prio) &&
	            tl_text_value(tl_spec_field(cls, msg, 4), &comm, &len) && len <= COMM_MAX;
	st->ts = ts;
	if (st->valid) {
		memcpy(st->next_comm, comm, len);
		st->comm_len = len;
	}
}

/* Whether S (LEN bytes) is a whole decimal number: an int64 with SIGNED,
 * else a uint32, as the importer's atrace parser reads them. */
static bool is_number(const char *s, size_t len, bool is_signed)
{
	char buf[24];
	if (!len || len >= sizeof buf || (!is_signed && s[0] == '-'))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	return *end == '\0' && errno == 0 && !isspace((unsigned char)buf[0]) && buf[0] != '+' &&
	       (is_signed || v <= UINT32_MAX);
}

/*
 * Whether a trace marker's text is one the importer reads as atrace
 * ("B|pid|name", "E", "C|pid|name|value", ...) and would otherwise count
 * as a parse failure: only those are written as typed print events, the
 * others are kept as generic ones.  Fields split at '|' once the trailing
 * newlines and NULs are dropped.
 */
static bool is_atrace(const char *s, size_t len)
{
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\0'))
		len--;
	const char *f[5];
	size_t fl[5], n = 0;
	for (size_t start = 0, i = 0; n < 5; i++) {
		if (i == len || s[i] == '|' || s[i] == '\0') {
			f[n] = s + start;
			fl[n++] = i - start;
			start = i + 1;
			if (i >= len)
				break;
		}
	}
	while (n < 5) {
		f[n] = s + len;
		fl[n++] = 0;
	}
	if (!fl[0])
		return false;
	bool tgid = is_number(f[1], fl[1], false);
	switch (f[0][0]) {
	case 'B':
		return tgid;
	case 'E':
		return true;
	case 'S':
	case 'F':
	case 'C':
		return tgid && fl[2] && is_number(f[3], fl[3], true);
	case 'I':
		return tgid && fl[2];
	case 'N':
		return tgid && fl[2] && fl[3];
	case 'G':
		return tgid && fl[2] && fl[3] && is_number(f[4], fl[4], true);
	case 'H':
		return tgid && fl[2] && (fl[4] ? is_number(f[4], fl[4], true) : is_number(f[3], fl[3], true));
	default:
		return false;
	}
}

static void put_typed(pb_buf *b, const tl_class *cls, const tc_message *msg)
{
	const tl_event_spec *spec = cls->spec;
	size_t m = pb_open(b, spec->number);
	for (int i = 0; i < TL_MAX_FIELDS && spec->fields[i].name; i++) {
		const tl_field_spec *f = &spec->fields[i];
		const char *s;
		size_t len;
		int64_t v;
		if (f->type == TL_STR) {
			if (tl_text_value(tl_spec_field(cls, msg, i), &s, &len))
				put_utf8_field(b, f->number, s, len);
		} else if (tl_spec_int(cls, msg, i, &v)) {
			pb_uint(b, f->number, (uint64_t)v);
		}
	}
	pb_close(b, m);
}

/* The dense encoding's field types: FieldDescriptorProto.Type's numbers. */
enum { TYPE_DOUBLE = 1, TYPE_INT64 = 3, TYPE_UINT64 = 4, TYPE_STRING = 9 };

/* The dense encoding's field type for a member class. */
static int dense_type(const tc_field_class *fc)
{
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
		return fc->is_signed ? TYPE_INT64 : TYPE_UINT64;
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		return TYPE_UINT64;
	case TC_FIELD_FLOAT:
		return TYPE_DOUBLE;
	default:
		return TYPE_STRING;
	}
}

/* Adds the descriptor of CLS's dense event to the bundle, once per sequence. */
static void describe_dense(pf_writer *w, pf_stream *s, tl_class *cls)
{
	uint32_t id = cls->writer_id - 1;
	if (id < s->described_count && s->described[id])
		return;
	if (id >= s->described_count) {
		size_t n = (size_t)id + 64;
		uint8_t *d = realloc(s->described, n);
		if (!d) {
			s->descriptors.failed = true;
			return;
		}
		memset(d + s->described_count, 0, n - s->described_count);
		s->described = d;
		s->described_count = n;
	}
	s->described[id] = 1;
	pb_buf *d = &w->nested;
	d->len = 0;
	pb_str(d, 1, cls->ec->name);
	const tc_field_class *payload = cls->ec->payload;
	for (size_t i = 0; payload && i < payload->member_count; i++) {
		size_t f = pb_open(d, 2);
		pb_str(d, 1, payload->members[i].display_name);
		pb_uint(d, 3, i + 1);
		pb_uint(d, 4, 1);     /* optional */
		pb_uint(d, 5, (uint64_t)dense_type(payload->members[i].cls));
		pb_close(d, f);
	}
	size_t g = pb_open(&s->descriptors, 11);
	pb_uint(&s->descriptors, 1, DENSE_BASE + id);
	pb_bytes(&s->descriptors, 2, d->data, d->len);
	pb_close(&s->descriptors, g);
	if (d->failed)
		s->descriptors.failed = true;
}

static void put_dense_value(pb_buf *b, pf_writer *w, const tc_trace *trace, uint32_t number, const tc_field *f)
{
	const char *s;
	size_t len;
	switch (dense_type(f->cls)) {
	case TYPE_DOUBLE:
		pb_double(b, number, f->v.f);
		return;
	case TYPE_INT64:
	case TYPE_UINT64:
		pb_uint(b, number, f->v.u);
		return;
	default:
		if (tl_text_value(f, &s, &len)) {
			put_utf8_field(b, number, s, len);
		} else {
			pb_buf *t = &w->nested;
			t->len = 0;
			tl_render(t, trace, f);
			pb_bytes(b, number, t->data, t->len);
		}
	}
}

/* Every other kernel event, with its fields. */
static void put_generic(pb_buf *b, pf_writer *w, pf_stream *s, tl_class *cls, const tc_message *msg)
{
	const tc_field_class *payload = cls->ec->payload;
	size_t count = msg->payload ? msg->payload->v.compound.count : 0;
	if (payload && payload->kind != TC_FIELD_STRUCT)
		count = 0;
	if (!cls->writer_id && (!payload || payload->member_count <= DENSE_MAX_FIELDS))
		cls->writer_id = ++w->next_dense;
	if (cls->writer_id) {
		describe_dense(w, s, cls);
		size_t m = pb_open(b, DENSE_BASE + cls->writer_id - 1);
		for (size_t i = 0; i < count; i++)
			put_dense_value(b, w, msg->stream->trace, (uint32_t)i + 1, &msg->payload->v.compound.items[i]);
		pb_close(b, m);
		return;
	}
	size_t m = pb_open(b, 327);     /* GenericFtraceEvent */
	pb_str(b, 1, cls->ec->name);
	for (size_t i = 0; i < count; i++) {
		const tc_field *f = &msg->payload->v.compound.items[i];
		size_t fm = pb_open(b, 2);
		pb_str(b, 1, payload->members[i].display_name);
		int type = dense_type(f->cls);
		if (type == TYPE_INT64)
			pb_int(b, 4, f->v.s);
		else if (type == TYPE_UINT64)
			pb_uint(b, 5, f->v.u);
		else {
			const char *sv;
			size_t len;
			pb_buf *t = &w->nested;
			t->len = 0;
			if (tl_text_value(f, &sv, &len))
				tl_put_utf8(t, sv, len);
			else
				tl_render(t, msg->stream->trace, f);
			pb_bytes(b, 3, t->data, t->len);
		}
		pb_close(b, fm);
	}
	pb_close(b, m);
}

static int write_kernel(tl_ctx *c, pf_writer *w, pf_stream *s, const tc_message *msg, tl_class *cls, int64_t ts)
{
	if (msg->kind != TC_MSG_EVENT) {
		/* the importer marks the CPU as having lost data */
		int rc = flush_bundle(c, w, s);
		s->lost = true;
		return rc;
	}
	bool failed = false;
	tl_track *t = tl_track_of(c, cls, msg, ts, &failed);
	if (failed)
		return TC_ENOMEM;
	uint64_t at = stamp(s, ts);
	if (cls->kind == TL_STATEDUMP_TASK)
		write_statedump(c, cls, msg, ts);
	bool compact = false;
	if (cls->kind == TL_SCHED_SWITCH) {
		compact = compact_switch(w, s, cls, msg, at, &failed);
		note_switch(w, s, cls, msg, (int64_t)at);
	} else if (cls->kind == TL_SCHED_WAKING) {
		compact = compact_waking(w, s, cls, msg, at, t, &failed);
	}
	if (failed)
		return tc_fail_nomem();
	if (!compact) {
		pb_buf *b = &s->events;
		size_t m = pb_open(b, 2);
		pb_uint(b, 1, at);
		/* the importer needs a task: before a CPU's first switch
		 * names one, the idle task */
		pb_uint(b, 2, t && t->tid >= 0 ? (uint64_t)t->tid : 0);
		int64_t flags;
		if (cls->kind == TL_SCHED_WAKING && tl_int_value(tl_context(msg, cls->flags), &flags))
			pb_uint(b, 5, (uint64_t)flags);
		const char *text;
		size_t len;
		bool typed = cls->spec && cls->spec->number &&
		             (cls->kind != TL_PRINT || (tl_text_value(tl_spec_field(cls, msg, 1), &text, &len) && is_atrace(text, len)));
		if (typed)
			put_typed(b, cls, msg);
		else
			put_generic(b, w, s, cls, msg);
		pb_close(b, m);
		if (b->failed || s->descriptors.failed || w->nested.failed)
			return tc_fail_nomem();
	}
	return bundle_size(s) >= BUNDLE_BYTES ? flush_bundle(c, w, s) : 0;
}

/* ---- user space ---- */

/* Interned name ids of the stream's sequence: NAMES for event names,
 * else debug annotation names; new ones go to w->interned. */
static uint64_t intern(pf_writer *w, pf_stream *s, bool names, const char *str, size_t len, bool *failed)
{
	bool added;
	strtab *t = names ? &s->names : &s->annotation_names;
	uint64_t iid;
	/* before the UTF-8 check: the table holds valid text only */
	if (strtab_recent_id(t, str, len, &iid))
		return iid;
	size_t ok = tl_utf8_prefix(str, len);
	pb_buf *fixed = NULL;
	if (ok != len) {
		/* interned strings must be UTF-8 too; the table keys the fixed text */
		fixed = &w->nested;
		fixed->len = 0;
		tl_put_utf8(fixed, str, len);
		str = (const char *)fixed->data;
		len = fixed->len;
	}
	iid = strtab_id(t, str, len, 1, &added, failed);
	if (added) {
		size_t m = pb_open(&w->interned, names ? 2 : 3);
		pb_uint(&w->interned, 1, iid);
		pb_bytes(&w->interned, 2, str, len);
		pb_close(&w->interned, m);
	}
	return iid;
}

static void put_annotation_value(pb_buf *b, const tc_field *f);

static void put_named_annotation(pb_buf *b, const char *name, const tc_field *f)
{
	size_t m = pb_open(b, DA_DICT);
	pb_str(b, DA_NAME, name);
	put_annotation_value(b, f);
	pb_close(b, m);
}

/* The value of a DebugAnnotation: the message's value fields. */
static void put_annotation_value(pb_buf *b, const tc_field *f)
{
	const tc_field_class *fc = f->cls;
	const char *s;
	size_t len;
	if (tl_text_value(f, &s, &len)) {
		put_utf8_field(b, DA_STRING, s, len);
		return;
	}
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_BIT_ARRAY:
		if (fc->is_signed)
			pb_int(b, DA_INT, f->v.s);
		else
			pb_uint(b, fc->base == 16 ? DA_POINTER : DA_UINT, f->v.u);
		return;
	case TC_FIELD_BOOL:
		pb_uint(b, DA_BOOL, f->v.u != 0);
		return;
	case TC_FIELD_FLOAT:
		pb_double(b, DA_DOUBLE, f->v.f);
		return;
	case TC_FIELD_STRUCT:
		for (size_t i = 0; i < f->v.compound.count && i < fc->member_count; i++)
			put_named_annotation(b, fc->members[i].display_name, &f->v.compound.items[i]);
		return;
	case TC_FIELD_VARIANT:
		if (f->v.compound.count && f->option < fc->member_count)
			put_named_annotation(b, fc->members[f->option].name[0] ? fc->members[f->option].display_name : "value",
			                     &f->v.compound.items[0]);
		return;
	case TC_FIELD_OPTIONAL:
		if (f->v.compound.count)
			put_annotation_value(b, &f->v.compound.items[0]);
		else
			pb_str(b, DA_STRING, "none");
		return;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		for (size_t i = 0; i < f->v.compound.count; i++) {
			size_t m = pb_open(b, DA_ARRAY);
			put_annotation_value(b, &f->v.compound.items[i]);
			pb_close(b, m);
		}
		return;
	default: {
		pb_buf text = { 0 };
		tl_render(&text, NULL, f);
		pb_bytes(b, DA_STRING, text.data, text.len);
		if (text.failed)
			b->failed = true;
		pb_free(&text);
	}
	}
}

/* A top-level debug annotation, its name interned. */
static void put_annotation(pf_writer *w, pf_stream *s, pb_buf *b, const char *name, const tc_field *f, bool *failed)
{
	uint64_t iid = intern(w, s, false, name, strlen(name), failed);
	size_t m = pb_open(b, TE_ANNOTATION);
	pb_uint(b, DA_NAME_IID, iid);
	put_annotation_value(b, f);
	pb_close(b, m);
}

/* The first packet of a user-space sequence, and again when its
 * interned tables start over. */
static void clear_sequence(tl_ctx *c, pf_stream *s)
{
	size_t p = open_packet(c, s->seq);
	pb_uint(&c->out, TP_SEQ_FLAGS, SEQ_CLEARED);
	if (s->own_clock) {
		size_t d = pb_open(&c->out, TP_DEFAULTS);
		pb_uint(&c->out, 58, SEQ_CLOCK);
		pb_close(&c->out, d);
		if (!s->cleared) {
			size_t cs = pb_open(&c->out, TP_CLOCK_SNAPSHOT);
			size_t k = pb_open(&c->out, 1);
			pb_uint(&c->out, 1, SEQ_CLOCK);
			pb_uint(&c->out, 2, (uint64_t)s->first_own);
			pb_close(&c->out, k);
			k = pb_open(&c->out, 1);
			pb_uint(&c->out, 1, CLOCK_BOOTTIME);
			pb_int(&c->out, 2, s->first_own + s->clock->delta_ns);
			pb_close(&c->out, k);
			pb_close(&c->out, cs);
		}
	}
	pb_close(&c->out, p);
	s->cleared = true;
	strtab_reset(&s->names);
	strtab_reset(&s->annotation_names);
}

/* A TrackEvent packet: NAME_IID its interned name (0: none),
 * w->scratch holds the TrackEvent's fields after type, track and name,
 * w->interned the new interned entries.  One room check for the whole
 * packet, written straight into the output: it is one per function
 * entry and exit. */
static void emit_track_event(tl_ctx *c, pf_writer *w, pf_stream *s, uint64_t at, int type, const tl_track *t,
                             uint64_t name_iid)
{
	pb_buf *b = &c->out;
	/* the tags, varints and lengths around the two buffers: 81 bytes at most */
	if (!pb_room(b, 120 + w->interned.len + w->scratch.len))
		return;
	uint8_t *p = b->data + b->len;
	size_t n = 0;
	p[n++] = 1 << 3 | PB_LEN;     /* Trace.packet */
	size_t packet = b->len + n++;
	n += pb_put_uint(p + n, TP_SEQ_ID, s->seq);
	n += pb_put_uint(p + n, TP_TIMESTAMP, at);
	n += pb_put_uint(p + n, TP_SEQ_FLAGS, SEQ_NEEDS_STATE);
	if (w->interned.len)
		n += pb_put_bytes(p + n, TP_INTERNED, w->interned.data, w->interned.len);
	n += pb_put_varint(p + n, TP_TRACK_EVENT << 3 | PB_LEN);
	size_t event = b->len + n++;
	n += pb_put_uint(p + n, TE_TYPE, (uint64_t)type);
	n += pb_put_uint(p + n, TE_TRACK, t->uuid);
	if (name_iid)
		n += pb_put_uint(p + n, TE_NAME_IID, name_iid);
	if (w->scratch.len)
		memcpy(p + n, w->scratch.data, w->scratch.len);
	b->len += n + w->scratch.len;
	pb_close(b, event);
	pb_close(b, packet);
}

/* A call's begin on a sequence of its own, at BEGIN (trace clock). */
static void write_inherited_begin(tl_ctx *c, pf_writer *w, const tl_track *t, int64_t begin, const char *name, size_t len)
{
	size_t p = open_packet(c, new_sequence(w));
	pb_uint(&c->out, TP_TIMESTAMP, (uint64_t)begin);
	size_t e = pb_open(&c->out, TP_TRACK_EVENT);
	pb_uint(&c->out, TE_TYPE, TE_BEGIN);
	pb_uint(&c->out, TE_TRACK, t->uuid);
	put_utf8_field(&c->out, TE_NAME, name, len);
	pb_close(&c->out, e);
	pb_close(&c->out, p);
}

/* A function call event on its way to tl_call(). */
typedef struct call_event {
	pf_writer *w;
	pf_stream *s;
	const tl_class *cls;
	const tc_message *msg;
} call_event;

static int write_slice(tl_ctx *c, void *arg, tl_track *t, tl_slice what, int64_t ts, const char *name, size_t len,
                       tl_frame *frame)
{
	call_event *e = arg;
	pf_writer *w = e->w;
	bool failed = false;
	(void)frame;
	if (what == TL_SLICE_BEGIN_INHERITED) {
		write_inherited_begin(c, w, t, ts, name, len);
		return 0;
	}
	if (what == TL_SLICE_UNENDED)
		return 0;    /* the importer shows a slice without end as such */
	w->scratch.len = w->interned.len = 0;
	uint64_t name_iid = what == TL_SLICE_BEGIN ? intern(w, e->s, true, name, len, &failed) : 0;
	const tc_field *extra = what == TL_SLICE_BEGIN ? tl_member(e->msg->payload, e->cls->func_args)
	                        : what == TL_SLICE_END ? tl_member(e->msg->payload, e->cls->func_retval) : NULL;
	if (extra)
		put_annotation(w, e->s, &w->scratch, what == TL_SLICE_BEGIN ? "args" : "retval", extra, &failed);
	if (failed || w->scratch.failed || w->interned.failed)
		return tc_fail_nomem();
	emit_track_event(c, w, e->s, stamp(e->s, ts), what == TL_SLICE_BEGIN ? TE_BEGIN : TE_END, t, name_iid);
	return 0;
}

static int write_user(tl_ctx *c, pf_writer *w, pf_stream *s, const tc_message *msg, tl_class *cls, int64_t ts)
{
	bool failed = false;
	tl_track *t = tl_track_of(c, cls, msg, ts, &failed);
	if (!t)
		return failed ? TC_ENOMEM : 0;
	describe(c, w, t);
	if (!s->cleared || s->names.count >= INTERN_LIMIT || s->annotation_names.count >= INTERN_LIMIT)
		clear_sequence(c, s);
	if (cls && (cls->kind == TL_FUNC_ENTRY || cls->kind == TL_FUNC_EXIT))
		return tl_call(c, cls, msg, t, ts, write_slice, &(call_event){ w, s, cls, msg });
	w->scratch.len = w->interned.len = 0;
	pb_buf *b = &w->scratch;
	uint64_t name_iid;
	if (!cls) {
		static const char text[] = "discarded events";
		name_iid = intern(w, s, true, text, sizeof text - 1, &failed);
		tc_field count = { .cls = &(tc_field_class){ .kind = TC_FIELD_INT, .size = 64, .base = 10 } };
		count.v.u = msg->count;
		put_annotation(w, s, b, "count", &count, &failed);
	} else {
		name_iid = intern(w, s, true, cls->ec->name, strlen(cls->ec->name), &failed);
		const tc_field_class *payload = cls->ec->payload;
		for (size_t i = 0; msg->payload && payload && payload->kind == TC_FIELD_STRUCT &&
		                   i < msg->payload->v.compound.count && i < payload->member_count; i++)
			put_annotation(w, s, b, payload->members[i].display_name, &msg->payload->v.compound.items[i], &failed);
	}
	if (failed || b->failed || w->interned.failed)
		return tc_fail_nomem();
	emit_track_event(c, w, s, stamp(s, ts), TE_INSTANT, t, name_iid);
	return 0;
}

/* ---- tl_ops ---- */

static int perfetto_init(tl_ctx *c)
{
	pf_writer *w = calloc(1, sizeof *w);
	if (!w)
		return tc_fail_nomem();
	w->next_seq = META_SEQ + 1;
	w->next_uuid = 1;
	c->impl = w;
	return 0;
}

static int perfetto_write(tl_ctx *c, const tc_message *msg, tl_class *cls, int64_t ts)
{
	pf_writer *w = c->impl;
	int rc;
	if (!w->started && (rc = start(c, w, ts)) < 0)
		return rc;
	pf_stream *s = stream_of(w, msg->stream);
	if (!s)
		return tc_fail_nomem();
	if (msg->has_time)
		set_clock(s, cls ? cls->clock : NULL, ts);
	rc = s->kernel ? write_kernel(c, w, s, msg, cls, ts) : write_user(c, w, s, msg, cls, ts);
	return rc < 0 ? rc : c->out.failed ? tc_fail_nomem() : 0;
}

static int perfetto_finish(tl_ctx *c)
{
	pf_writer *w = c->impl;
	int rc = 0;
	if (!w->started)
		rc = start(c, w, 0);
	for (size_t i = 0; i < w->stream_count && rc == 0; i++)
		if (w->order[i]->kernel)
			rc = flush_bundle(c, w, w->order[i]);
	if (rc == 0)
		rc = tl_calls_finish(c, write_slice, &(call_event){ w, NULL, NULL, NULL });
	return rc < 0 ? rc : c->out.failed ? tc_fail_nomem() : 0;
}

static void perfetto_free(tl_ctx *c)
{
	pf_writer *w = c->impl;
	for (size_t i = 0; i < w->stream_count; i++) {
		pf_stream *s = w->order[i];
		pb_free(&s->events);
		pb_free(&s->descriptors);
		free(s->described);
		strtab_free(&s->comms);
		strtab_free(&s->names);
		strtab_free(&s->annotation_names);
		for (int k = 0; k < SW_COUNT; k++)
			pb_free(&s->sw[k]);
		for (int k = 0; k < WK_COUNT; k++)
			pb_free(&s->wk[k]);
		free(s);
	}
	free(w->streams);
	free(w->order);
	free(w->cpus);
	pb_free(&w->scratch);
	pb_free(&w->interned);
	pb_free(&w->nested);
	free(w);
}

const tl_ops tl_perfetto_ops = { perfetto_init, perfetto_write, perfetto_finish, perfetto_free };
