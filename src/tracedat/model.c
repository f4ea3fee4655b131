/* SPDX-License-Identifier: MIT */
/*
 * model.c - tc_format_tracedat: a trace.dat file opened as one tc_trace
 * (model.h describes what it looks like), its streams registered with the
 * tc_input as iterators for the muxer.
 */
#include "core/formats.h"
#include "tracedat/model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NS_PER_S 1000000000

static void trace_free(void *p)
{
	td_trace *t = p;
	td_symbols_free(t);
	tracedat_close(t->file);
	tc_pool_free(&t->pool);
	free(t->pub.env);
	free(t->pub.clocks);
	free(t->pub.stream_classes);
	free(t->pub.streams);
	free(t);
}

static int add_env(td_trace *t, const char *key, const char *str, int64_t num)
{
	return tc_trace_env_add(&t->pub, &t->pool, key, str, num);
}

/* UNAME is "sysname nodename release machine" (doc/formats/tracedat.md §6). */
static int add_uname(td_trace *t, const char *uname)
{
	static const char *const keys[] = { "sysname", "hostname", "kernel_release", "machine" };
	const char *p = uname;
	int rc = 0;
	for (size_t i = 0; i < 4 && rc == 0 && *p; i++) {
		const char *end = strchr(p, ' ');
		size_t len = end && i < 3 ? (size_t)(end - p) : strlen(p);
		char *word = tc_pool_strndup(&t->pool, p, len);
		if (!word)
			return TC_ENOMEM;
		rc = add_env(t, keys[i], word, 0);
		p += len;
		while (*p == ' ')
			p++;
	}
	return rc;
}

static int build_env(td_trace *t)
{
	const tracedat_meta *m = tracedat_meta_of(t->file);
	char version[64];
	snprintf(version, sizeof version, "%.*s", (int)strcspn(m->tracer_version, " "), m->tracer_version);
	int rc = add_env(t, "domain", "kernel", 0);
	if (rc == 0 && m->uname[0])
		rc = add_uname(t, m->uname);
	if (t->lttng) {
		/* lttng-modules 2.13: Trace Compass's newest kernel layout
		 * (doc/formats/ctf.md §8.1); where it came from after. */
		char source[64];
		snprintf(source, sizeof source, "trace-cmd trace.dat v%u", (unsigned)m->version);
		if (rc == 0)
			rc = add_env(t, "tracer_name", "lttng-modules", 0);
		if (rc == 0)
			rc = add_env(t, "tracer_major", NULL, 2);
		if (rc == 0)
			rc = add_env(t, "tracer_minor", NULL, 13);
		if (rc == 0)
			rc = add_env(t, "tracer_patchlevel", NULL, 0);
		if (rc == 0)
			rc = add_env(t, "trace_buffering_scheme", "global", 0);
		if (rc == 0)
			rc = add_env(t, "trace_name", t->pub.name, 0);
		if (rc == 0)
			rc = add_env(t, "source_format", source, 0);
		if (rc == 0 && version[0])
			rc = add_env(t, "source_tracer_version", version, 0);
		if (rc == 0 && m->trace_clock[0])
			rc = add_env(t, "trace_clock", m->trace_clock, 0);
		return rc;
	}
	if (rc == 0)
		rc = add_env(t, "tracer_name", "trace-cmd", 0);
	if (rc == 0 && version[0])
		rc = add_env(t, "tracer_version", version, 0);
	if (rc == 0 && m->trace_clock[0])
		rc = add_env(t, "trace_clock", m->trace_clock, 0);
	if (rc == 0)
		rc = add_env(t, "trace_dat_version", NULL, m->version);
	return rc;
}

/* The clock named NAME, made on first use: nanoseconds (model.h), its
 * offset the OFFSET and DATE options plus the caller's adjustment. */
static int clock_for(td_trace *t, const char *name, const tc_open_options *opts, const tc_clock **out)
{
	for (size_t i = 0; i < t->pub.clock_count; i++)
		if (strcmp(t->pub.clocks[i]->name, name) == 0) {
			*out = t->pub.clocks[i];
			return 0;
		}
	const tracedat_meta *m = tracedat_meta_of(t->file);
	__int128 ns = (__int128)m->ts_offset_ns + (__int128)m->date_offset_us * 1000 +
	              (__int128)opts->clock_offset_s * NS_PER_S + opts->clock_offset_ns;
	tc_clock *c = tc_pool_alloc(&t->pool, sizeof *c);
	if (c && !tc_clock_set_offset_ns(c, ns))
		return tc_fail(TC_EINVAL, m->path, -1, "clock offset beyond 64-bit seconds");
	char desc[128];
	snprintf(desc, sizeof desc, "trace-cmd trace clock \"%s\"%s", name,
	         tracedat_clock_is_ns(t->file, name) ? "" : " (not nanoseconds: its counts are shown as such)");
	if (!c || !(c->name = tc_pool_strdup(&t->pool, name)) || !(c->description = tc_pool_strdup(&t->pool, desc)))
		return TC_ENOMEM;
	c->freq = NS_PER_S;
	/* trace-cmd's clocks of the kernel's system clocks (trace-cmd-record(1)
	 * -C: mono, mono_raw, boot); the others (local, global, x86-tsc...)
	 * are the tracer's own counters. */
	c->system = strcmp(name, "mono") == 0 ? TC_CLOCK_MONOTONIC
	          : strcmp(name, "mono_raw") == 0 ? TC_CLOCK_MONOTONIC_RAW
	          : strcmp(name, "boot") == 0 ? TC_CLOCK_BOOTTIME : TC_CLOCK_UNKNOWN;
	/* DATE maps trace time to the time of day (§10.4). */
	c->origin_is_unix_epoch = m->has_date;
	if (tc_ptr_push((void ***)&t->pub.clocks, &t->pub.clock_count, c) < 0)
		return TC_ENOMEM;
	*out = c;
	return 0;
}

static int build_stream_class(td_trace *t, size_t index, const tc_open_options *opts, td_stream_class **out)
{
	const tracedat_meta *m = tracedat_meta_of(t->file);
	const tracedat_buffer *buf = &m->buffers[index];
	td_stream_class *sc = tc_pool_alloc(&t->pool, sizeof *sc);
	if (!sc)
		return TC_ENOMEM;
	sc->buffer_index = index;
	sc->pub.id = index;
	sc->pub.trace = &t->pub;
	sc->pub.packet_context = t->packet_context;
	sc->pub.event_context = t->common;
	sc->pub.has_discarded_events = true;
	const char *clock = buf->clock[0] ? buf->clock : m->trace_clock[0] ? m->trace_clock : "unknown";
	int rc = clock_for(t, clock, opts, &sc->pub.clock);
	if (rc < 0)
		return rc;
	size_t n = t->plan_count;
	sc->classes = n ? tc_pool_alloc(&t->pool, n * sizeof *sc->classes) : NULL;
	sc->pub.event_classes = n ? tc_pool_alloc(&t->pool, n * sizeof *sc->pub.event_classes) : NULL;
	if (n && (!sc->classes || !sc->pub.event_classes))
		return TC_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		tc_event_class *ec = &sc->classes[i];
		ec->id = t->plans[i].id;
		ec->name = (char *)t->plans[i].name;
		ec->loglevel = -1;
		ec->payload = t->plans[i].payload;
		if ((rc = tc_resolve_sibling_refs(&t->pool, ec->payload, TC_SCOPE_PAYLOAD)) < 0)
			return rc;
		ec->stream_class = &sc->pub;
		sc->pub.event_classes[i] = ec;
	}
	sc->pub.event_class_count = n;
	*out = sc;
	return tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, &sc->pub);
}

static int cmp_cpu(const void *a, const void *b)
{
	const tracedat_cpu_data *x = *(const tracedat_cpu_data *const *)a, *y = *(const tracedat_cpu_data *const *)b;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* One stream per CPU with data, by CPU id. */
static int build_streams(tc_input *in, td_trace *t, td_stream_class *sc, const char *path)
{
	const tracedat_buffer *buf = &tracedat_meta_of(t->file)->buffers[sc->buffer_index];
	const tracedat_cpu_data **cpus = malloc((buf->cpu_data_count ? buf->cpu_data_count : 1) * sizeof *cpus);
	if (!cpus)
		return tc_fail_nomem();
	size_t n = 0;
	for (size_t i = 0; i < buf->cpu_data_count; i++)
		if (buf->cpu_data[i].size)
			cpus[n++] = &buf->cpu_data[i];
	qsort(cpus, n, sizeof *cpus, cmp_cpu);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		tc_stream *st = tc_pool_alloc(&t->pool, sizeof *st);
		tc_buf name = { 0 };
		if (!st || tc_buf_printf(&name, "%s:%s%scpu%d", path, buf->name, buf->name[0] ? ":" : "", cpus[i]->cpu) < 0) {
			tc_buf_free(&name);
			rc = TC_ENOMEM;
			break;
		}
		st->name = tc_pool_strdup(&t->pool, name.data);
		tc_buf_free(&name);
		st->id = (uint64_t)cpus[i]->cpu;
		st->cpu = cpus[i]->cpu;
		st->stream_class = &sc->pub;
		st->trace = &t->pub;
		if (!st->name || tc_ptr_push((void ***)&t->pub.streams, &t->pub.stream_count, st) < 0)
			rc = TC_ENOMEM;
		else
			rc = td_stream_iter_add(in, t, sc, st);
	}
	free(cpus);
	return rc;
}

/* The saved cmdlines ("PID COMM" lines, §11.1) as T's tasks, in their
 * order: one pass counts them, the second fills T->pub.tasks. */
static int build_tasks(td_trace *t)
{
	const tracedat_blob *b = &tracedat_meta_of(t->file)->cmdlines;
	const char *text = b->data, *end = text + b->len;
	for (int pass = 0; pass < 2; pass++) {
		size_t n = 0;
		for (const char *p = text; p && p < end;) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			if (!eol)
				eol = end;
			char *after;
			long long tid = strtoll(p, &after, 10);
			if (after > p && after < eol && *after == ' ') {
				if (pass == 1) {
					tc_task *task = &t->pub.tasks[n];
					task->tid = tid;
					task->pid = -1;
					if (!(task->name = tc_pool_strndup(&t->pool, after + 1, (size_t)(eol - after - 1))))
						return TC_ENOMEM;
				}
				n++;
			}
			p = eol + 1;
		}
		if (pass == 0 && n && !(t->pub.tasks = tc_pool_alloc(&t->pool, n * sizeof *t->pub.tasks)))
			return TC_ENOMEM;
		t->pub.task_count = pass == 1 ? n : 0;
	}
	return 0;
}

static int tracedat_input_open(tc_input *in, const char *path, const tc_open_options *opts)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !tracedat_has_magic(path))
		return TC_ENOTFOUND;
	td_trace *t = calloc(1, sizeof *t);
	if (!t)
		return tc_fail_nomem();
	tc_pool_init(&t->pool);
	pthread_mutex_init(&t->symbols_lock, NULL);
	int rc = tracedat_open(&t->file, path);
	if (rc < 0) {
		trace_free(t);
		return rc;
	}
	/* Owned by the input from here: it frees T on any failure below. */
	if ((rc = tc_input_own(in, t, trace_free)) < 0)
		return rc;
	const tracedat_meta *m = tracedat_meta_of(t->file);
	/* read here: all but the CPU data, which the cursors count */
	uint64_t data = 0;
	for (size_t b = 0; b < m->buffer_count; b++)
		for (size_t i = 0; i < m->buffers[b].cpu_data_count; i++)
			data += m->buffers[b].cpu_data[i].size;
	tc_count_read(&in->bytes_read, m->file_size > data ? m->file_size - data : 0);
	const char *base = strrchr(path, '/');
	t->pub.format = TC_INPUT_TRACE_DAT;
	t->pub.format_major = (int)m->version;
	t->pub.domain = TC_DOMAIN_KERNEL;
	t->pub.path = tc_pool_strdup(&t->pool, path);
	t->pub.name = tc_pool_strdup(&t->pool, base ? base + 1 : path);
	t->pub.dir_in_input = "";
	if (m->kallsyms.len)
		t->pub.symbol_at = td_symbol_at;
	t->lttng = opts->lttng_names;
	if (!t->pub.path || !t->pub.name || !(t->packet_context = tc_cpu_packet_context(&t->pool)))
		return TC_ENOMEM;
	if ((rc = td_build_classes(t)) < 0 || (rc = build_env(t)) < 0 || (rc = build_tasks(t)) < 0 ||
	    (rc = tc_input_add_trace(in, &t->pub)) < 0)
		return rc;
	for (size_t i = 0; i < m->buffer_count && rc == 0; i++) {
		td_stream_class *sc;
		if ((rc = build_stream_class(t, i, opts, &sc)) == 0)
			rc = build_streams(in, t, sc, path);
	}
	return rc;
}

const tc_format tc_format_tracedat = { "trace.dat", tracedat_input_open };
