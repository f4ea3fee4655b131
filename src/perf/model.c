/* SPDX-License-Identifier: MIT */
/*
 * model.c - tc_format_perf: a perf.data file opened as one tc_trace (perf.h
 * says what it looks like).  A tracepoint's fields come from the ftrace
 * formats of the file's tracing data, read and planned by the trace.dat
 * reader (tracedat_open_tracing_data(), td_build_classes()), so that they
 * are the same fields as in a trace.dat file of the same events.
 *
 * Opening walks the records once: every record header and sample is
 * checked there, so that a damaged file fails at open with the byte
 * offset of the damage, and the walk collects the CPUs that have records
 * (one stream each) and the COMM records (the trace's tasks).
 */
#include "core/formats.h"
#include "perf/perf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NS_PER_S 1000000000

static void trace_free(void *p)
{
	perf_trace *t = p;
	if (t->td.file) {
		tracedat_close(t->td.file);
		tc_pool_free(&t->td.pool);
	}
	perf_close(&t->file);
	/* the classes are in the pool, their arrays of event classes not */
	for (size_t i = 0; i < t->pub.stream_class_count; i++)
		free(t->pub.stream_classes[i]->event_classes);
	tc_pool_free(&t->pool);
	free(t->pub.env);
	free(t->pub.clocks);
	free(t->pub.stream_classes);
	free(t->pub.streams);
	free(t);
}

static tc_field_class *new_class(perf_trace *t, tc_field_kind kind)
{
	return tc_pool_new_class(&t->pool, kind, 8);
}

static tc_field_class *int_class(perf_trace *t, unsigned bytes, bool is_signed, unsigned base)
{
	tc_field_class *c = new_class(t, TC_FIELD_INT);
	if (c) {
		c->size = bytes * 8;
		c->is_signed = is_signed;
		c->byte_order = t->file.big_endian ? TC_BIG_ENDIAN : TC_LITTLE_ENDIAN;
		c->base = base;
	}
	return c;
}

/* One member of a structure built by add_member(). */
typedef struct member_spec {
	const char *name;
	unsigned bytes;      /* 0: a string */
	bool is_signed;
	unsigned base;
} member_spec;

static int add_member(tc_member *m, const char *name, tc_field_class *cls)
{
	if (!cls)
		return TC_ENOMEM;
	*m = (tc_member){ (char *)name, name[0] == '_' ? name + 1 : name, cls };
	return 0;
}

/* A structure of the N members SPECS. */
static tc_field_class *struct_class(perf_trace *t, const member_spec *specs, size_t n)
{
	tc_field_class *s = new_class(t, TC_FIELD_STRUCT);
	tc_member *m = tc_pool_alloc(&t->pool, n * sizeof *m);
	if (!s || !m)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		tc_field_class *c = specs[i].bytes ? int_class(t, specs[i].bytes, specs[i].is_signed, specs[i].base)
		                                   : new_class(t, TC_FIELD_STRING);
		if (add_member(&m[i], specs[i].name, c) < 0)
			return NULL;
	}
	s->members = m;
	s->member_count = n;
	return s;
}

/* The context of attribute A's events: a tracepoint's common fields, then
 * the sample's own (perf.h). */
static int attr_context(perf_trace *t, perf_attr *a, tc_field_class **out)
{
	const tc_field_class *common = a->plan ? t->td.common : NULL;
	size_t n = common ? common->member_count : 0;
	tc_member *m = tc_pool_alloc(&t->pool, (n + 5) * sizeof *m);
	if (!m)
		return TC_ENOMEM;
	if (n)
		memcpy(m, common->members, n * sizeof *m);
	uint64_t st = a->sample_type;
	int rc = 0;
	if (st & PERF_S_IP)
		rc = add_member(&m[n++], "ip", int_class(t, 8, false, 16));
	if (rc == 0 && st & PERF_S_TID && (rc = add_member(&m[n++], "pid", int_class(t, 4, true, 10))) == 0)
		rc = add_member(&m[n++], "tid", int_class(t, 4, true, 10));
	if (rc == 0 && st & PERF_S_ADDR)
		rc = add_member(&m[n++], "addr", int_class(t, 8, false, 16));
	if (rc == 0 && st & PERF_S_PERIOD)
		rc = add_member(&m[n++], "period", int_class(t, 8, false, 10));
	if (rc < 0)
		return rc;
	a->field_count = n;
	*out = NULL;
	if (n == 0)
		return 0;
	tc_field_class *s = new_class(t, TC_FIELD_STRUCT);
	if (!s)
		return TC_ENOMEM;
	s->members = m;
	s->member_count = n;
	*out = s;
	return tc_resolve_sibling_refs(&t->pool, s, TC_SCOPE_EVENT_CONTEXT);
}

/* The payload of attribute A's events: a tracepoint's format fields, then
 * the call chain when the sample_type records it (perf.h). */
static int attr_payload(perf_trace *t, perf_attr *a, tc_field_class **out)
{
	const tc_field_class *format = a->plan ? a->plan->payload : NULL;
	size_t n = format ? format->member_count : 0;
	a->format_count = n;
	*out = (tc_field_class *)format;
	if (!(a->sample_type & PERF_S_CALLCHAIN))
		return 0;
	tc_field_class *s = new_class(t, TC_FIELD_STRUCT), *seq = new_class(t, TC_FIELD_SEQUENCE);
	tc_member *m = tc_pool_alloc(&t->pool, (n + 2) * sizeof *m);
	if (!s || !seq || !m || !(seq->element = int_class(t, 8, false, 16)))
		return TC_ENOMEM;
	if (n)
		memcpy(m, format->members, n * sizeof *m);
	seq->length_ref = "__callchain_length";
	int rc = add_member(&m[n], "__callchain_length", int_class(t, 4, false, 10));
	if (rc == 0)
		rc = add_member(&m[n + 1], "callchain", seq);
	s->members = m;
	s->member_count = n + 2;
	*out = s;
	return rc;
}

static int new_event_class(perf_trace *t, tc_stream_class *sc, const char *name, tc_field_class *payload, tc_event_class **out)
{
	tc_event_class *ec = tc_pool_alloc(&t->pool, sizeof *ec);
	if (!ec || !(ec->name = tc_pool_strdup(&t->pool, name)))
		return TC_ENOMEM;
	ec->id = sc->event_class_count;
	ec->loglevel = -1;
	ec->payload = payload;
	ec->stream_class = sc;
	*out = ec;
	return tc_ptr_push((void ***)&sc->event_classes, &sc->event_class_count, ec);
}

/* The task records' classes (perf_event.h's record layouts). */
static int task_classes(perf_trace *t, tc_stream_class *sc)
{
	static const member_spec comm[] = { { "pid", 4, true, 10 }, { "tid", 4, true, 10 }, { "comm", 0, false, 0 } };
	static const member_spec fork[] = { { "pid", 4, true, 10 }, { "ppid", 4, true, 10 }, { "tid", 4, true, 10 },
		                            { "ptid", 4, true, 10 }, { "time", 8, false, 10 } };
	static const member_spec mmap[] = { { "pid", 4, true, 10 }, { "tid", 4, true, 10 }, { "addr", 8, false, 16 },
		                            { "len", 8, false, 16 }, { "pgoff", 8, false, 16 }, { "filename", 0, false, 0 } };
	static const member_spec mmap2[] = { { "pid", 4, true, 10 }, { "tid", 4, true, 10 }, { "addr", 8, false, 16 },
		                             { "len", 8, false, 16 }, { "pgoff", 8, false, 16 }, { "prot", 4, false, 10 },
		                             { "flags", 4, false, 16 }, { "filename", 0, false, 0 } };
	tc_field_class *c[5] = { struct_class(t, comm, 3), struct_class(t, fork, 5), struct_class(t, fork, 5),
		                 struct_class(t, mmap, 6), struct_class(t, mmap2, 8) };
	for (int i = 0; i < 5; i++)
		if (!c[i])
			return TC_ENOMEM;
	int rc;
	if ((rc = new_event_class(t, sc, "perf_comm", c[0], &t->comm)) < 0 || (rc = new_event_class(t, sc, "perf_fork", c[1], &t->fork)) < 0 ||
	    (rc = new_event_class(t, sc, "perf_exit", c[2], &t->exit)) < 0 || (rc = new_event_class(t, sc, "perf_mmap", c[3], &t->mmap)) < 0)
		return rc;
	return new_event_class(t, sc, "perf_mmap2", c[4], &t->mmap2);
}

static int build_classes(perf_trace *t, tc_stream_class *sc)
{
	perf_file *f = &t->file;
	for (size_t i = 0; i < f->attr_count; i++) {
		perf_attr *a = &f->attrs[i];
		if (a->type == PERF_TYPE_TRACEPOINT && t->td.file && a->config < t->td.id_limit && t->td.plan_by_id[a->config])
			a->plan = &t->td.plans[t->td.plan_by_id[a->config] - 1];
		tc_field_class *ctx, *payload;
		int rc = attr_context(t, a, &ctx);
		if (rc == 0)
			rc = attr_payload(t, a, &payload);
		if (rc == 0)
			rc = new_event_class(t, sc, a->plan ? a->plan->name : a->name, payload, &a->ec);
		if (rc < 0)
			return rc;
		a->ec->context = ctx;
		if (a->ec->payload && (rc = tc_resolve_sibling_refs(&t->pool, a->ec->payload, TC_SCOPE_PAYLOAD)) < 0)
			return rc;
	}
	return task_classes(t, sc);
}

/* The tracing data's formats, planned as trace.dat's are. */
static int read_tracing_data(perf_trace *t)
{
	perf_file *f = &t->file;
	if (!f->has_tracing_data)
		return 0;
	tc_pool_init(&t->td.pool);
	int rc = tracedat_open_tracing_data(&t->td.file, f->path, f->tracing_offset, f->tracing_size);
	return rc < 0 ? rc : td_build_classes(&t->td);
}

static int add_env(perf_trace *t, const char *key, const char *str, int64_t num)
{
	return tc_trace_env_add(&t->pub, &t->pool, key, str, num);
}

static int build_env(perf_trace *t)
{
	const perf_file *f = &t->file;
	int rc = add_env(t, TC_ENV_DOMAIN, "kernel", 0);
	if (rc == 0 && f->hostname[0])
		rc = add_env(t, TC_ENV_HOSTNAME, f->hostname, 0);
	if (rc == 0 && f->osrelease[0] && (rc = add_env(t, TC_ENV_SYSNAME, "Linux", 0)) == 0)
		rc = add_env(t, TC_ENV_KERNEL_RELEASE, f->osrelease, 0);
	if (rc == 0 && f->arch[0])
		rc = add_env(t, TC_ENV_MACHINE, f->arch, 0);
	if (rc == 0)
		rc = add_env(t, TC_ENV_TRACER_NAME, "perf", 0);
	if (rc == 0 && f->version[0])
		rc = add_env(t, "tracer_version", f->version, 0);
	if (rc == 0 && f->cmdline[0])
		rc = add_env(t, "perf_cmdline", f->cmdline, 0);
	if (rc == 0 && f->has_nrcpus && (rc = add_env(t, "nr_cpus_online", NULL, f->nr_cpus_online)) == 0)
		rc = add_env(t, "nr_cpus_available", NULL, f->nr_cpus_available);
	if (rc == 0 && f->cpudesc[0])
		rc = add_env(t, "cpu_desc", f->cpudesc, 0);
	return rc;
}

/* perf's clock: perf_clock() unless the attributes chose one (-k). */
static int build_clock(perf_trace *t, const tc_open_options *opts, const tc_clock **out)
{
	tc_clock *c = tc_pool_alloc(&t->pool, sizeof *c);
	if (!c || !(c->name = tc_pool_strdup(&t->pool, "perf")))
		return TC_ENOMEM;
	__int128 ns = (__int128)opts->clock_offset_s * NS_PER_S + opts->clock_offset_ns;
	if (!tc_clock_set_offset_ns(c, ns))
		return tc_fail(TC_EINVAL, t->file.path, -1, "clock offset beyond 64-bit seconds");
	c->freq = NS_PER_S;
	const perf_attr *a = &t->file.attrs[0];
	if (a->use_clockid)
		c->system = a->clockid == 0 ? TC_CLOCK_REALTIME
		          : a->clockid == 1 ? TC_CLOCK_MONOTONIC
		          : a->clockid == 4 ? TC_CLOCK_MONOTONIC_RAW
		          : a->clockid == 7 ? TC_CLOCK_BOOTTIME : TC_CLOCK_UNKNOWN;
	c->origin_is_unix_epoch = a->use_clockid && a->clockid == 0;
	if (!(c->description = tc_pool_strdup(&t->pool, a->use_clockid ? "perf sample time (the clock perf record -k chose)"
	                                                                 : "perf sample time (perf_clock)")))
		return TC_ENOMEM;
	if (tc_ptr_push((void ***)&t->pub.clocks, &t->pub.clock_count, c) < 0)
		return TC_ENOMEM;
	*out = c;
	return 0;
}

/* Whether the stream iterators hand out records of type TYPE. */
bool perf_record_is_event(uint32_t type)
{
	return type == PERF_REC_SAMPLE || type == PERF_REC_COMM || type == PERF_REC_FORK || type == PERF_REC_EXIT ||
	       type == PERF_REC_MMAP || type == PERF_REC_MMAP2 || type == PERF_REC_LOST;
}

/* What the walk at open collects. */
typedef struct scan {
	uint8_t *cpus;          /* TC_CPU_LIST_MAX bits */
	bool no_cpu;
	tc_buf tasks;           /* tc_task */
} scan;

static int scan_comm(perf_trace *t, scan *sc, const perf_record *r, const perf_sample *s)
{
	const perf_file *f = &t->file;
	uint64_t trailer = s->attr ? s->attr->id_trailer : 0, end = r->size > trailer ? r->size - trailer : 0;
	if (end < 16)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "COMM record of %" PRIu64 " bytes, too short for its pid, tid and name", r->size);
	uint64_t room = end - 16;
	const char *name = (const char *)r->p + 16;
	tc_task task = { (int32_t)perf_u32(f, r->p + 12), (int32_t)perf_u32(f, r->p + 8), NULL, s->has_time, false, s->time, 0 };
	if (!(task.name = tc_pool_strndup(&t->pool, name, strnlen(name, (size_t)room))))
		return TC_ENOMEM;
	return tc_buf_append(&sc->tasks, &task, sizeof task);
}

static int scan_records(perf_trace *t, scan *sc)
{
	const perf_file *f = &t->file;
	perf_record r;
	int rc;
	for (uint64_t off = f->data_offset; (rc = perf_record_at(f, off, &r)) > 0; off = r.next) {
		if (r.type == PERF_REC_COMPRESSED)
			return tc_fail(TC_EUNSUPPORTED, f->path, (int64_t)r.offset, "compressed records (perf record -z) are not read yet");
		if (!perf_record_is_event(r.type))
			continue;
		perf_sample s;
		if ((rc = perf_parse_sample(f, &r, &s)) < 0)
			return rc;
		if (s.has_cpu && s.cpu >= TC_CPU_LIST_MAX)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)r.offset, "record of CPU %" PRIu32 " (above %d)", s.cpu, TC_CPU_LIST_MAX - 1);
		if (s.has_cpu)
			sc->cpus[s.cpu / 8] |= (uint8_t)(1u << (s.cpu % 8));
		else
			sc->no_cpu = true;
		if (r.type == PERF_REC_COMM && (rc = scan_comm(t, sc, &r, &s)) < 0)
			return rc;
	}
	return rc;
}

static int add_stream(tc_input *in, perf_trace *t, tc_stream_class *sc, uint64_t key)
{
	tc_stream *st = tc_pool_alloc(&t->pool, sizeof *st);
	tc_buf name = { 0 };
	int rc = 0;
	if (!st || (key == PERF_NO_CPU ? tc_buf_printf(&name, "%s", t->pub.path) : tc_buf_printf(&name, "%s:cpu%" PRIu64, t->pub.path, key)) < 0)
		rc = TC_ENOMEM;
	else if (!(st->name = tc_pool_strdup(&t->pool, name.data)))
		rc = TC_ENOMEM;
	tc_buf_free(&name);
	if (rc < 0)
		return rc;
	st->id = key;
	st->cpu = key == PERF_NO_CPU ? -1 : (int)key;
	st->stream_class = sc;
	st->trace = &t->pub;
	if (tc_ptr_push((void ***)&t->pub.streams, &t->pub.stream_count, st) < 0)
		return TC_ENOMEM;
	return perf_stream_iter_add(in, t, st, key);
}

static int build_streams(tc_input *in, perf_trace *t, tc_stream_class *sc)
{
	scan s = { calloc(TC_CPU_LIST_MAX / 8, 1), false, { 0 } };
	if (!s.cpus)
		return tc_fail_nomem();
	int rc = scan_records(t, &s);
	for (uint64_t cpu = 0; cpu < TC_CPU_LIST_MAX && rc == 0; cpu++)
		if (s.cpus[cpu / 8] >> (cpu % 8) & 1)
			rc = add_stream(in, t, sc, cpu);
	if (rc == 0 && s.no_cpu)
		rc = add_stream(in, t, sc, PERF_NO_CPU);
	size_t n = s.tasks.len / sizeof(tc_task);
	if (rc == 0 && n) {
		if (!(t->pub.tasks = tc_pool_alloc(&t->pool, s.tasks.len)))
			rc = TC_ENOMEM;
		else {
			memcpy(t->pub.tasks, s.tasks.data, s.tasks.len);
			t->pub.task_count = n;
		}
	}
	free(s.cpus);
	tc_buf_free(&s.tasks);
	return rc;
}

static int perf_input_open(tc_input *in, const char *path, const tc_open_options *opts)
{
	perf_trace *t = calloc(1, sizeof *t);
	if (!t)
		return tc_fail_nomem();
	tc_pool_init(&t->pool);
	int rc = perf_open(&t->file, path);
	if (rc < 0) {
		trace_free(t);
		return rc;
	}
	/* Owned by the input from here: it frees T on any failure below. */
	if ((rc = tc_input_own(in, t, trace_free)) < 0)
		return rc;
	/* The file is read through its mapping, at open and by the streams;
	 * counted whole here. */
	tc_count_read(&in->bytes_read, t->file.size);
	const char *base = strrchr(path, '/');
	t->pub.format = TC_INPUT_PERF;
	t->pub.format_major = 2;   /* PERFILE2 */
	t->pub.domain = TC_DOMAIN_KERNEL;
	t->pub.path = tc_pool_strdup(&t->pool, path);
	t->pub.name = tc_pool_strdup(&t->pool, base ? base + 1 : path);
	t->pub.dir_in_input = "";
	tc_stream_class *sc = tc_pool_alloc(&t->pool, sizeof *sc);
	if (!t->pub.path || !t->pub.name || !sc || !(t->packet_context = tc_cpu_packet_context(&t->pool)))
		return TC_ENOMEM;
	t->file.path = t->pub.path;
	/* Listed first, so that trace_free() frees what the class holds. */
	if (tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, sc) < 0)
		return TC_ENOMEM;
	sc->trace = &t->pub;
	sc->packet_context = t->packet_context;
	sc->has_discarded_events = true;
	if ((rc = read_tracing_data(t)) < 0 || (rc = build_clock(t, opts, &sc->clock)) < 0 || (rc = build_env(t)) < 0 ||
	    (rc = build_classes(t, sc)) < 0)
		return rc;
	if (!tc_clock_origin_time(sc->clock, &t->origin))
		return tc_fail(TC_EINVAL, path, -1, "clock offset overflows");
	if ((rc = tc_input_add_trace(in, &t->pub)) < 0)
		return rc;
	return build_streams(in, t, sc);
}

const tc_format tc_format_perf = { "perf.data", perf_input_open };
