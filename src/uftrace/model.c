/* SPDX-License-Identifier: MIT */
/*
 * model.c - a uftrace record directory as tracecat's event model, with
 * LTTng-UST's conventions (doc/formats/ctf.md §8.5), so that what
 * `print` shows is what `convert` writes and Trace Compass's call-stack
 * views read:
 *
 *   - environment: domain "ust", tracer "lttng-ust" 2.13, hostname, and
 *     where the data came from;
 *   - one clock, "monotonic", nanoseconds (uftrace records
 *     CLOCK_MONOTONIC; 0.17's utc_offset, when present, is its offset);
 *   - one stream class, whose event context is { _vpid, _vtid,
 *     _procname }; one stream per task (id = tid) and one per
 *     perf-cpu*.dat file for the scheduler and task events;
 *   - events: lttng_ust_cyg_profile:func_entry / func_exit with _addr,
 *     _call_site (the caller's address from a per-thread shadow stack),
 *     and, so that no symbol file is needed, _func (the resolved name),
 *     _depth, and when recorded _args or _retval as uftrace prints them;
 *     every other event under its uftrace name ("linux:sched-out",
 *     "sample:step_begin", "read:page-fault") with its data as text;
 *   - LOST records are discarded-event reports.
 */
#include "core/formats.h"
#include "uftrace/uftrace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PERF_STREAM_BASE 0x40000000u   /* ids of perf-cpu streams, above any tid */

/* Function events come in two classes each, of the same name: with and
 * without the text of the arguments or return value, so that no event
 * carries an empty string (babeltrace2 2.0.4 shows an earlier event's
 * text for an empty string of a reused event, see README). */
enum { EC_ENTRY, EC_EXIT, EC_ENTRY_ARGS, EC_EXIT_RETVAL, EC_FIRST_EVENT };

typedef struct um_trace {
	tc_trace pub;
	tc_pool pool;
	uft_data *d;
	tc_stream_class sc;
	tc_clock clock;
	tc_time origin;            /* the time of the clock's cycle 0 */
	/* event classes: entry, exit, then one per known event name */
	tc_event_class **classes;
	size_t class_count;
	uint64_t *class_ids;       /* uftrace event id of classes[i], i >= EC_FIRST_EVENT */
	tc_event_class *other;     /* events of ids nobody named */
} um_trace;

static tc_field_class *new_class(um_trace *t, tc_field_kind kind, unsigned size, unsigned base)
{
	tc_field_class *c = tc_pool_new_class(&t->pool, kind, 8);
	if (c) {
		c->size = size;
		c->base = base ? base : 10;
		c->is_signed = kind == TC_FIELD_INT && base == 0;
		c->byte_order = TC_LITTLE_ENDIAN;
	}
	return c;
}

/* A structure of N members named "_NAME" (shown NAME), of the given classes. */
static tc_field_class *struct_of(um_trace *t, size_t n, const char *const *names, tc_field_class **classes)
{
	tc_field_class *s = new_class(t, TC_FIELD_STRUCT, 0, 10);
	tc_member *m = tc_pool_alloc(&t->pool, n * sizeof *m);
	if (!s || !m)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]) + 2;
		char *name = tc_pool_alloc(&t->pool, len);
		if (!name || !classes[i])
			return NULL;
		snprintf(name, len, "_%s", names[i]);
		m[i] = (tc_member){ name, name + 1, classes[i] };
	}
	s->members = m;
	s->member_count = n;
	return s;
}

static tc_event_class *add_class(um_trace *t, const char *name, int loglevel, tc_field_class *payload, uint64_t id)
{
	tc_event_class *ec = tc_pool_alloc(&t->pool, sizeof *ec);
	if (!ec)
		return NULL;
	ec->id = t->class_count;
	ec->name = tc_pool_strdup(&t->pool, name);
	ec->loglevel = loglevel;
	ec->payload = payload;
	ec->stream_class = &t->sc;
	uint64_t *ids = realloc(t->class_ids, (t->class_count + 1) * sizeof *ids);
	if (ids)
		t->class_ids = ids;
	if (!ec->name || !ids || tc_ptr_push((void ***)&t->classes, &t->class_count, ec) < 0)
		return NULL;
	ids[t->class_count - 1] = id;
	return ec;
}

static int build_classes(um_trace *t)
{
	const char *const entry_names[] = { "addr", "call_site", "func", "depth", "args" };
	const char *const exit_names[] = { "addr", "call_site", "func", "depth", "retval" };
	const char *const ev_names[] = { "data" };
	const char *const other_names[] = { "id", "data" };
	const char *const ctx_names[] = { "vpid", "vtid", "procname" };
	tc_field_class *entry[5] = { new_class(t, TC_FIELD_INT, 64, 16), new_class(t, TC_FIELD_INT, 64, 16),
		                     new_class(t, TC_FIELD_STRING, 0, 10), new_class(t, TC_FIELD_INT, 32, 0),
		                     new_class(t, TC_FIELD_STRING, 0, 10) };
	if (entry[3])
		entry[3]->is_signed = false;
	tc_field_class *ctx[3] = { new_class(t, TC_FIELD_INT, 32, 0), new_class(t, TC_FIELD_INT, 32, 0),
		                   new_class(t, TC_FIELD_STRING, 0, 10) };
	tc_field_class *data[2] = { new_class(t, TC_FIELD_INT, 64, 10), new_class(t, TC_FIELD_STRING, 0, 10) };
	if (data[0])
		data[0]->is_signed = false;
	tc_field_class *entry_s = struct_of(t, 4, entry_names, entry);
	tc_field_class *exit_s = struct_of(t, 4, exit_names, entry);
	tc_field_class *entry_args = struct_of(t, 5, entry_names, entry);
	tc_field_class *exit_ret = struct_of(t, 5, exit_names, entry);
	tc_field_class *ev_s = struct_of(t, 1, ev_names, &data[1]);
	tc_field_class *other_s = struct_of(t, 2, other_names, data);
	if (!entry_s || !exit_s || !entry_args || !exit_ret || !ev_s || !other_s ||
	    !(t->sc.event_context = struct_of(t, 3, ctx_names, ctx)))
		return TC_ENOMEM;
	/* LTTng-UST's DEBUG_FUNCTION log level for the function events */
	if (!add_class(t, "lttng_ust_cyg_profile:func_entry", 12, entry_s, 0) ||
	    !add_class(t, "lttng_ust_cyg_profile:func_exit", 12, exit_s, 0) ||
	    !add_class(t, "lttng_ust_cyg_profile:func_entry", 12, entry_args, 0) ||
	    !add_class(t, "lttng_ust_cyg_profile:func_exit", 12, exit_ret, 0))
		return TC_ENOMEM;
	static const uint64_t builtin[] = {
		UFT_EV_READ_STATM,     UFT_EV_READ_PAGE_FAULT, UFT_EV_DIFF_STATM,      UFT_EV_DIFF_PAGE_FAULT,
		UFT_EV_READ_PMU_CYCLE, UFT_EV_DIFF_PMU_CYCLE,  UFT_EV_READ_PMU_CACHE,  UFT_EV_DIFF_PMU_CACHE,
		UFT_EV_READ_PMU_BRANCH, UFT_EV_DIFF_PMU_BRANCH, UFT_EV_WATCH_CPU,      UFT_EV_SCHED_IN,
		UFT_EV_SCHED_OUT,      UFT_EV_TASK_NEW,        UFT_EV_TASK_EXIT,       UFT_EV_TASK_NAME,
		UFT_EV_SCHED_OUT_PREEMPT, UFT_EV_EXTERN_DATA,
	};
	char buf[64];
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (!add_class(t, uft_event_name_of(t->d, builtin[i], buf, sizeof buf), -1, ev_s, builtin[i]))
			return TC_ENOMEM;
	for (size_t i = 0; i < t->d->event_count; i++)
		if (!add_class(t, t->d->events[i].name, -1, ev_s, t->d->events[i].id))
			return TC_ENOMEM;
	if (!(t->other = add_class(t, "uftrace:event", -1, other_s, 0)))
		return TC_ENOMEM;
	t->sc.event_classes = t->classes;
	t->sc.event_class_count = t->class_count;
	return 0;
}

static const tc_event_class *class_of_event(const um_trace *t, uint64_t id)
{
	for (size_t i = EC_FIRST_EVENT; i < t->class_count; i++)
		if (t->class_ids[i] == id)
			return t->classes[i];
	return t->other;
}

static int add_env(um_trace *t, const char *key, const char *str, int64_t num)
{
	return tc_trace_env_add(&t->pub, &t->pool, key, str, num);
}

static int build_env(um_trace *t, const char *path)
{
	const uft_data *d = t->d;
	const char *base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	char version[64] = "";
	if (d->version)
		snprintf(version, sizeof version, "%.*s", (int)strcspn(d->version, " "), d->version);
	int rc = add_env(t, "domain", "ust", 0);
	if (rc == 0)
		rc = add_env(t, "tracer_name", "lttng-ust", 0);
	if (rc == 0)
		rc = add_env(t, "tracer_major", NULL, 2);
	if (rc == 0)
		rc = add_env(t, "tracer_minor", NULL, 13);
	if (rc == 0)
		rc = add_env(t, "tracer_patchlevel", NULL, 0);
	if (rc == 0)
		rc = add_env(t, "tracer_buffering_scheme", "pid", 0);
	if (rc == 0)
		rc = add_env(t, "architecture_bit_width", NULL, (int64_t)d->word_size * 8);
	if (rc == 0 && d->hostname)
		rc = add_env(t, "hostname", d->hostname, 0);
	if (rc == 0)
		rc = add_env(t, "trace_name", base, 0);
	if (rc == 0)
		rc = add_env(t, "source_format", "uftrace", 0);
	if (rc == 0 && version[0])
		rc = add_env(t, "source_tracer_version", version, 0);
	return rc;
}

/* ---- streams ---- */

/* A stream's messages are decoded in batches (tc_batch), which a worker
 * thread may fill ahead of the reader: what a message points to, besides
 * the trace's model and the symbol tables, lives in its batch's store
 * until the batch is released. */

/* The event context of a run of one task's messages. */
typedef struct um_context {
	const uft_task *task;
	tc_field f[4];
	char proc[16];             /* the procname's text */
} um_context;

/* The payload of one message. */
typedef struct um_payload {
	tc_field f[6];
	char name[24];             /* an unresolved address, "<hex>" */
} um_payload;

typedef struct um_store {
	um_payload *payloads;      /* one per message */
	um_context *contexts;      /* at most one per message */
	size_t cap, context_count;
	tc_pool text;              /* arguments, return values, event data */
} um_store;

typedef struct um_iter {
	tc_stream_iter base;
	um_trace *t;
	uft_task *task;            /* a task stream */
	uft_task_reader *reader;
	uft_perf perf;             /* a perf-cpu stream (the file is its name), read when first needed */
	uint64_t *shadow;          /* addresses by depth: the callers */
	tc_buf text;               /* a message's text as it is formatted */
	uft_recent recent;         /* functions resolved lately */
	tc_stream_failure failure; /* the error that ended the stream */
} um_iter;

static const char *procname(const um_trace *t, const uft_task *task, char *buf)
{
	const char *exe = NULL;
	if (task && task->ref_count)
		exe = task->refs[task->ref_count - 1].session->exename;
	if (!exe)
		exe = t->d->exename;
	if (!exe)
		return "";
	const char *slash = strrchr(exe, '/');
	snprintf(buf, 16, "%s", slash ? slash + 1 : exe);
	return buf;
}

/* The event context of TASK's events: the one of the message before in
 * the batch when it is the same task's. */
static const tc_field *context_of(um_iter *it, um_store *st, const uft_task *task)
{
	if (st->context_count && st->contexts[st->context_count - 1].task == task)
		return st->contexts[st->context_count - 1].f;
	um_context *x = &st->contexts[st->context_count++];
	const tc_field_class *c = it->t->sc.event_context;
	x->task = task;
	x->f[0] = (tc_field){ .cls = c };
	x->f[0].v.compound.items = &x->f[1];
	x->f[0].v.compound.count = 3;
	x->f[1] = (tc_field){ .cls = c->members[0].cls, .v.s = task ? task->pid : -1 };
	x->f[2] = (tc_field){ .cls = c->members[1].cls, .v.s = task ? task->tid : -1 };
	const char *p = procname(it->t, task, x->proc);
	x->f[3] = (tc_field){ .cls = c->members[2].cls };
	x->f[3].v.str.ptr = p;
	x->f[3].v.str.len = strlen(p);
	return x->f;
}

/* F as a string field of class CLS holding the iterator's text, copied
 * into the batch's store. */
static int set_text(um_iter *it, um_store *st, tc_field *f, const tc_field_class *cls)
{
	*f = (tc_field){ .cls = cls };
	f->v.str.ptr = "";
	if (it->text.len) {
		char *s = tc_pool_strndup(&st->text, it->text.data, it->text.len);
		if (!s)
			return TC_ENOMEM;
		f->v.str.ptr = s;
		f->v.str.len = it->text.len;
	}
	return 0;
}

/* Message I of batch B, from record R. */
static int fill_message(um_iter *it, tc_batch *b, size_t i, const uft_record *r)
{
	um_trace *t = it->t;
	um_store *st = b->store;
	tc_message *m = &b->msgs[i];
	/* copied from an empty one: zeroing (memset) is a `rep stos`, which
	 * costs more than the rest of the message */
	static const tc_message empty;
	*m = empty;
	m->stream = it->base.stream;
	m->has_time = true;
	m->cycles = r->time;
	tc_time_add_ns(t->origin, r->time, &m->time);
	if (r->type == UFT_LOST) {
		m->kind = TC_MSG_DISCARDED_EVENTS;
		m->count = r->addr;
		return 0;
	}
	m->kind = TC_MSG_EVENT;
	m->stream_event_context = context_of(it, st, r->task);
	it->text.len = 0;
	tc_field *f = st->payloads[i].f;
	if (r->type == UFT_EVENT) {
		const tc_event_class *ec = class_of_event(t, r->addr);
		m->event_class = ec;
		const tc_field_class *pc = ec->payload;
		f[0] = (tc_field){ .cls = pc };
		f[0].v.compound.items = &f[1];
		f[0].v.compound.count = pc->member_count;
		bool other = ec == t->other;
		if (other)
			f[1] = (tc_field){ .cls = pc->members[0].cls, .v.u = r->addr };
		uft_event_data(t->d, r, &it->text);
		if (it->text.len == 0 && r->payload && r->addr == UFT_EV_EXTERN_DATA)
			tc_buf_append(&it->text, r->payload, r->payload_len);
		m->payload = &f[0];
		return set_text(it, st, &f[other ? 2 : 1], pc->members[other ? 1 : 0].cls);
	}
	bool entry = r->type == UFT_ENTRY;
	unsigned max = t->d->max_stack;
	if (entry && r->depth <= max)
		it->shadow[r->depth] = r->addr;
	uint64_t call_site = r->depth > 0 && r->depth <= max ? it->shadow[r->depth - 1] : 0;
	uft_place pl;
	bool resolved = uft_resolve(t->d, r->task, r->time, r->addr, &pl, &it->recent);
	const char *name = uft_place_name(resolved ? &pl : NULL, r->addr, st->payloads[i].name, sizeof st->payloads[i].name);
	if (r->more && resolved) {
		const ua_list *l = uft_place_items(t->d, &pl, !entry);
		int rc = l ? ua_format(t->d->specs, l, r->payload, r->payload_len, &pl.fn, NULL, NULL, false, &it->text) : 0;
		if (rc < 0)
			return rc;
	}
	bool text = it->text.len > 0;
	m->event_class = t->classes[entry ? (text ? EC_ENTRY_ARGS : EC_ENTRY) : (text ? EC_EXIT_RETVAL : EC_EXIT)];
	const tc_field_class *pc = m->event_class->payload;
	f[0] = (tc_field){ .cls = pc };
	f[0].v.compound.items = &f[1];
	f[0].v.compound.count = pc->member_count;
	f[1] = (tc_field){ .cls = pc->members[0].cls, .v.u = r->addr };
	f[2] = (tc_field){ .cls = pc->members[1].cls, .v.u = call_site };
	f[3] = (tc_field){ .cls = pc->members[2].cls };
	f[3].v.str.ptr = name;
	f[3].v.str.len = resolved ? pl.sym->name_len : strlen(name);
	f[4] = (tc_field){ .cls = pc->members[3].cls, .v.u = r->depth };
	m->payload = &f[0];
	return text ? set_text(it, st, &f[5], pc->members[4].cls) : 0;
}

/* The stream's next record: 1, 0 at its end, < 0 on an error. */
static int next_record(um_iter *it, uft_record *r)
{
	if (it->task)
		return uft_task_reader_next(it->reader, r);
	if (!it->perf.data) {
		int rc = uft_perf_read(it->t->d, it->base.stream->name, &it->perf);
		if (rc < 0)
			return rc;
		/* read whole, so counted whole */
		tc_count_read(it->base.bytes_read, it->perf.size);
	}
	if (it->perf.next >= it->perf.count)
		return 0;
	*r = it->perf.recs[it->perf.next++];
	return 1;
}

/* Room in B's store for B->cap messages; 0 or TC_ENOMEM. */
static int store_for(tc_batch *b)
{
	um_store *st = b->store;
	if (!st && !(st = b->store = calloc(1, sizeof *st)))
		return tc_fail_nomem();
	if (st->cap < b->cap) {
		um_payload *p = realloc(st->payloads, b->cap * sizeof *p);
		if (p)
			st->payloads = p;
		um_context *c = realloc(st->contexts, b->cap * sizeof *c);
		if (c)
			st->contexts = c;
		if (!p || !c)
			return tc_fail_nomem();
		st->cap = b->cap;
	}
	st->context_count = 0;
	return 0;
}

static int iter_fill(tc_stream_iter *base, tc_batch *b)
{
	um_iter *it = (um_iter *)base;
	b->count = 0;
	if (it->failure.rc)
		return tc_failure_again(&it->failure);
	int rc = store_for(b);
	uft_record r;
	while (rc >= 0 && b->count < b->cap && (rc = next_record(it, &r)) > 0)
		if ((rc = fill_message(it, b, b->count, &r)) == 0)
			b->count++;
	/* the messages before it first; the error is final */
	tc_failure_keep(&it->failure, rc);
	if (b->count == 0)
		return rc < 0 ? rc : 0;
	return 1;
}

static void iter_release(tc_stream_iter *base, tc_batch *b)
{
	(void)base;
	um_store *st = b->store;
	tc_pool_free(&st->text);
}

static void free_store(void *store)
{
	um_store *st = store;
	tc_pool_free(&st->text);
	free(st->payloads);
	free(st->contexts);
	free(st);
}

static void iter_free(tc_stream_iter *base)
{
	um_iter *it = (um_iter *)base;
	uft_task_reader_free(it->reader);
	uft_perf_free(&it->perf);
	free(it->shadow);
	tc_buf_free(&it->text);
	free(it);
}

static const tc_stream_iter_ops um_iter_ops = {
	.free = iter_free,
	.fill = iter_fill,
	.release = iter_release,
	.free_store = free_store,
};

static void trace_free(void *p)
{
	um_trace *t = p;
	uft_close(t->d);
	free(t->pub.env);
	free(t->pub.clocks);
	free(t->pub.stream_classes);
	for (size_t i = 0; i < t->pub.stream_count; i++)
		free(t->pub.streams[i]);
	free(t->pub.streams);
	free(t->classes);
	free(t->class_ids);
	tc_pool_free(&t->pool);
	free(t);
}

static int add_stream(tc_input *in, um_trace *t, uint64_t id, const char *name, uft_task *task)
{
	tc_stream *st = calloc(1, sizeof *st);
	um_iter *it = calloc(1, sizeof *it);
	if (!st || !it || tc_ptr_push((void ***)&t->pub.streams, &t->pub.stream_count, st) < 0) {
		free(st);
		free(it);
		return tc_fail_nomem();
	}
	st->id = id;
	st->stream_class = &t->sc;
	st->trace = &t->pub;
	st->name = tc_pool_strdup(&t->pool, name);
	st->cpu = -1;
	it->base.ops = &um_iter_ops;
	it->base.stream = st;
	it->t = t;
	it->task = task;
	int rc = st->name ? 0 : TC_ENOMEM;
	if (rc == 0 && task) {
		rc = uft_task_reader_new(&it->reader, t->d, task);
		if (rc == 0 && !(it->shadow = calloc(t->d->max_stack + 1, sizeof *it->shadow)))
			rc = tc_fail_nomem();
	}
	if (rc == 0)
		rc = tc_input_add_iter(in, &it->base);
	if (rc < 0)
		iter_free(&it->base);
	else if (it->reader)
		uft_task_reader_count_into(it->reader, it->base.bytes_read);
	return rc;
}

/* The bytes of the file PATH; 0 for anything else. */
static uint64_t file_bytes(const char *path)
{
	struct stat st;
	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* The bytes of the files of T's folder PATH that no stream reads: info,
 * task.txt, maps, symbols, read at open, when a stream first needs them,
 * or never.  Counted at open (tc_input_bytes_read()), so that the count
 * ends at the folder's size. */
static uint64_t metadata_bytes(const um_trace *t, const char *path)
{
	char **names;
	size_t count;
	uint64_t all = 0, data = 0;
	if (tc_list_dir(path, &names, &count) < 0)
		return 0;
	for (size_t i = 0; i < count; i++) {
		char *p = tc_path_join(path, names[i]);
		all += file_bytes(p);
		free(p);
	}
	tc_free_names(names, count);
	for (size_t i = 0; i < t->d->task_count; i++)
		if (t->d->tasks[i]->has_data)
			data += file_bytes(t->d->tasks[i]->data_path);
	for (size_t i = 0; i < t->d->perf_file_count; i++)
		data += file_bytes(t->d->perf_files[i]);
	return all > data ? all - data : 0;
}

/* The record's tasks (task.txt) as T's task table: each named as uftrace
 * replay's task column names it (its last session's program, else the
 * record's), from the time its first session saw it. */
static int build_tasks(um_trace *t)
{
	size_t n = t->d->task_count;
	if (n && !(t->pub.tasks = tc_pool_alloc(&t->pool, n * sizeof *t->pub.tasks)))
		return TC_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const uft_task *task = t->d->tasks[i];
		tc_task *out = &t->pub.tasks[i];
		const char *exe = task->ref_count ? task->refs[task->ref_count - 1].session->exename : NULL;
		if (!exe)
			exe = t->d->exename ? t->d->exename : "";
		const char *slash = strrchr(exe, '/');
		out->tid = task->tid;
		out->pid = task->pid;
		out->has_begin = task->ref_count > 0;
		out->begin = task->ref_count ? task->refs[0].start : 0;
		if (!(out->name = tc_pool_strdup(&t->pool, slash ? slash + 1 : exe)))
			return TC_ENOMEM;
	}
	t->pub.task_count = n;
	return 0;
}

static int uftrace_open(tc_input *in, const char *path, const tc_open_options *opts)
{
	struct stat st;
	char info[4096];
	snprintf(info, sizeof info, "%s/info", path);
	/* lstat: an info that cannot be read (a symbolic link loop) is this
	 * format's error, not another format's directory */
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode) || lstat(info, &st) < 0)
		return TC_ENOTFOUND;
	um_trace *t = calloc(1, sizeof *t);
	if (!t)
		return tc_fail_nomem();
	tc_pool_init(&t->pool);
	int rc = uft_open(&t->d, path);
	if (rc < 0) {
		trace_free(t);
		return rc;
	}
	if ((rc = tc_input_own(in, t, trace_free)) < 0)
		return rc;
	const char *base = strrchr(path, '/');
	t->pub.format = TC_INPUT_UFTRACE;
	t->pub.format_major = (int)t->d->data_version;
	t->pub.domain = TC_DOMAIN_USER;
	t->pub.path = tc_pool_strdup(&t->pool, path);
	t->pub.name = tc_pool_strdup(&t->pool, base && base[1] ? base + 1 : path);
	t->pub.dir_in_input = "";
	t->clock.name = "monotonic";
	t->clock.description = "uftrace's record clock (CLOCK_MONOTONIC unless recorded with --clock)";
	t->clock.freq = 1000000000u;
	t->clock.system = TC_CLOCK_MONOTONIC;
	__int128 offset = ((__int128)(t->d->has_utc_offset ? t->d->utc_offset : 0) + opts->clock_offset_s) * 1000000000 +
	                  opts->clock_offset_ns;
	if (!tc_clock_set_offset_ns(&t->clock, offset))
		return tc_fail(TC_EINVAL, path, -1, "clock offset beyond 64-bit seconds");
	t->clock.origin_is_unix_epoch = t->d->has_utc_offset;
	tc_clock_origin_time(&t->clock, &t->origin);
	t->sc.clock = &t->clock;
	t->sc.trace = &t->pub;
	t->sc.has_discarded_events = true;
	if (!t->pub.path || !t->pub.name)
		return TC_ENOMEM;
	tc_clock *clk = &t->clock;
	tc_stream_class *scp = &t->sc;
	if ((rc = build_classes(t)) < 0 || (rc = build_env(t, path)) < 0 || (rc = build_tasks(t)) < 0 ||
	    (rc = tc_ptr_push((void ***)&t->pub.clocks, &t->pub.clock_count, clk)) < 0 ||
	    (rc = tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, scp)) < 0 ||
	    (rc = tc_input_add_trace(in, &t->pub)) < 0)
		return rc;
	for (size_t i = 0; i < t->d->task_count && rc == 0; i++) {
		uft_task *task = t->d->tasks[i];
		if (task->has_data)
			rc = add_stream(in, t, (uint64_t)task->tid, task->data_path, task);
	}
	for (size_t i = 0; i < t->d->perf_file_count && rc == 0; i++)
		rc = add_stream(in, t, PERF_STREAM_BASE + i, t->d->perf_files[i], NULL);
	if (rc == 0)
		tc_count_read(&in->bytes_read, metadata_bytes(t, path));
	return rc;
}

const tc_format tc_format_uftrace = { "uftrace", uftrace_open };
