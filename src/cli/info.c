/* SPDX-License-Identifier: MIT */
/*
 * info.c - `tracecat info`: what a trace holds.  Format, environment,
 * clocks, streams, and per event class the number of events with the first
 * and last time, plus discarded events and packets.  It reads and checks
 * every event, but builds no field value (tc_input_want_values): errors are
 * found at the same bytes as by print, without the cost.  Time order does not
 * matter here, so streams are decoded in parallel: each worker thread takes
 * the next unread stream and keeps its own counts, merged at the end.
 */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct class_stats {
	const tc_event_class *ec;
	uint64_t count;
	bool has_time;
	tc_time first, last;
} class_stats;

typedef struct stream_stats {
	const tc_stream *stream;
	uint64_t events, discarded_events, discarded_packets;
	bool unknown_discards;
} stream_stats;

/* Open-addressing table from event class to its stats. */
typedef struct stats_table {
	class_stats *slots;
	size_t cap, count;
} stats_table;

static size_t ptr_hash(const void *p, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

static class_stats *stats_get(stats_table *t, const tc_event_class *ec)
{
	if (t->count * 2 >= t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		class_stats *slots = calloc(cap, sizeof *slots);
		if (!slots)
			return NULL;
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->slots[i].ec)
				continue;
			size_t h = ptr_hash(t->slots[i].ec, cap);
			while (slots[h].ec)
				h = (h + 1) & (cap - 1);
			slots[h] = t->slots[i];
		}
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	size_t h = ptr_hash(ec, t->cap);
	while (t->slots[h].ec && t->slots[h].ec != ec)
		h = (h + 1) & (t->cap - 1);
	if (!t->slots[h].ec) {
		t->slots[h].ec = ec;
		t->count++;
	}
	return &t->slots[h];
}

/* The time T of clock C: a UTC date and time, as --clock-gmt --clock-date
 * shows it, when C counts from the Unix epoch; otherwise seconds since the
 * clock's origin (often the boot), as `trace-cmd report` and `uftrace
 * replay -f time` show them, since a date in 1970 would be nonsense. */
static void print_time(const tc_clock *c, tc_time t)
{
	time_t sec = (time_t)t.sec;
	struct tm tm;
	if (c->origin_is_unix_epoch && gmtime_r(&sec, &tm)) {
		printf("%04d-%02d-%02d %02d:%02d:%02d.%09" PRIu32, tm.tm_year + 1900, tm.tm_mon + 1,
		       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, t.nsec);
		return;
	}
	/* T.sec is the floor: -0.25 s is { -1, 750000000 }. */
	bool negative = t.sec < 0;
	uint64_t whole = negative ? -(uint64_t)(t.sec + (t.nsec > 0)) : (uint64_t)t.sec;
	uint32_t nsec = negative && t.nsec ? 1000000000u - t.nsec : t.nsec;
	printf("%s%" PRIu64 ".%09" PRIu32 " s", negative ? "-" : "", whole, nsec);
}

/* What info calls the format of T: its name and version. */
static void print_format(const tc_trace *t)
{
	const tc_env_entry *e;
	if (t->ctf_major == 2)
		printf("  format: CTF 2\n");
	else if (t->format == TC_INPUT_CTF)
		printf("  format: CTF 1.8\n");
	else if (t->format == TC_INPUT_TRACE_DAT && (e = tc_trace_env(t, "trace_dat_version")) && e->is_int)
		printf("  format: trace.dat version %" PRId64 "\n", e->int_value);
	else if (t->format == TC_INPUT_PERF && (e = tc_trace_env(t, "tracer_version")) && !e->is_int)
		printf("  format: perf.data (perf %s)\n", e->str_value);
	else if (t->format == TC_INPUT_UFTRACE && (e = tc_trace_env(t, "source_tracer_version")) && !e->is_int)
		printf("  format: uftrace record directory (uftrace %s)\n", e->str_value);
	else if (t->format == TC_INPUT_UFTRACE)
		printf("  format: uftrace record directory\n");
	else if (t->format == TC_INPUT_LTTNG_LEGACY && (e = tc_trace_env(t, "lttng_legacy_format")) && !e->is_int)
		printf("  format: legacy LTTng (0.x) trace, format version %s\n", e->str_value);
	else
		printf("  format: %s\n", tc_input_format_name(t->format));
}

/* Where C counts from: the Unix epoch, a CTF 2 origin by name, or unknown
 * (trace-cmd's local clock, uftrace's monotonic one: usually the boot). */
static const char *clock_origin(const tc_clock *c)
{
	if (c->origin_is_unix_epoch)
		return "Unix epoch";
	return c->origin_name ? c->origin_name : "unknown (not the Unix epoch)";
}

static int cmp_stats(const void *a, const void *b)
{
	const class_stats *x = a, *y = b;
	if (x->ec->stream_class->id != y->ec->stream_class->id)
		return x->ec->stream_class->id < y->ec->stream_class->id ? -1 : 1;
	if (x->ec->id != y->ec->id)
		return x->ec->id < y->ec->id ? -1 : 1;
	return 0;
}

static void print_trace_header(const tc_trace *t)
{
	printf("trace %s\n", t->path);
	print_format(t);
	if (t->name)
		printf("  name: %s\n", t->name);
	if (t->has_uuid) {
		char u[37];
		tc_uuid_format(t->uuid, u);
		printf("  uuid: %s\n", u);
	}
	if (t->env_count) {
		printf("  environment:\n");
		for (size_t i = 0; i < t->env_count; i++) {
			if (t->env[i].is_int)
				printf("    %s = %" PRId64 "\n", t->env[i].key, t->env[i].int_value);
			else
				printf("    %s = \"%s\"\n", t->env[i].key, t->env[i].str_value);
		}
	}
	for (size_t i = 0; i < t->clock_count; i++) {
		const tc_clock *c = t->clocks[i];
		printf("  clock %s: %" PRIu64 " Hz, offset %" PRId64 " s + %" PRIu64 " cycles, precision %" PRIu64
		       " cycles%s, origin: %s\n", c->name, c->freq, c->offset_s, c->offset, c->precision,
		       c->absolute ? ", absolute" : "", clock_origin(c));
		if (c->description)
			printf("    description: %s\n", c->description);
	}
}

/* What one thread counts (cli_read_streams). */
typedef struct info_worker {
	tc_input *in;
	stream_stats *streams;       /* shared array; a slot is written by one worker */
	stats_table classes;         /* this worker's own */
} info_worker;

/* Extends C's time range to cover [FIRST, LAST]. */
static void widen_range(class_stats *c, tc_time first, tc_time last)
{
	if (!c->has_time || tc_time_cmp(first, c->first) < 0)
		c->first = first;
	if (!c->has_time || tc_time_cmp(last, c->last) > 0)
		c->last = last;
	c->has_time = true;
}

/* Reads stream I to its end into the counts of worker STATE: 0 or < 0. */
static int count_stream(void *state, size_t i)
{
	info_worker *w = state;
	/* Counted here and stored once: slots of the shared array written
	 * by two threads per event would bounce between their caches. */
	stream_stats local = { 0 }, *ss = &local;
	class_stats *cs = NULL;      /* the last event's class: runs of one class are common */
	const tc_message *m;
	int rc;
	while ((rc = tc_input_stream_next(w->in, i, &m)) > 0) {
		ss->stream = m->stream;
		if (m->kind == TC_MSG_EVENT) {
			ss->events++;
			if ((!cs || cs->ec != m->event_class) && !(cs = stats_get(&w->classes, m->event_class))) {
				rc = TC_ENOMEM;
				break;
			}
			cs->count++;
			if (m->has_time)
				widen_range(cs, m->time, m->time);
		} else if (m->kind == TC_MSG_DISCARDED_EVENTS) {
			ss->discarded_events += m->count;
			ss->unknown_discards |= m->count == 0;
		} else {
			ss->discarded_packets += m->count;
		}
	}
	w->streams[i] = local;
	return rc < 0 ? -1 : 0;
}

/* Adds the counts of FROM into INTO. */
static int merge_classes(stats_table *into, const stats_table *from)
{
	for (size_t i = 0; i < from->cap; i++) {
		const class_stats *f = &from->slots[i];
		if (!f->ec)
			continue;
		class_stats *c = stats_get(into, f->ec);
		if (!c)
			return TC_ENOMEM;
		c->count += f->count;
		if (f->has_time)
			widen_range(c, f->first, f->last);
	}
	return 0;
}

/* info counts events and their times: it reads no field value. */
static bool no_values(void *ctx, const tc_event_class *ec)
{
	(void)ctx;
	(void)ec;
	return false;
}

static int info_input(tc_input *in, unsigned jobs)
{
	size_t nstreams = tc_input_stream_count(in);
	stream_stats *streams = calloc(nstreams + 1, sizeof *streams);
	info_worker *workers = calloc(jobs, sizeof *workers);
	int rc = 0;
	if (!streams || !workers) {
		fprintf(stderr, "tracecat: out of memory\n");
		free(streams);
		free(workers);
		return -1;
	}
	for (unsigned j = 0; j < jobs; j++)
		workers[j] = (info_worker){ in, streams, { 0 } };
	tc_error error;
	if (tc_input_want_values(in, no_values, NULL) < 0) {
		cli_report_error();
		free(streams);
		free(workers);
		return -1;
	}
	bool failed = cli_read_streams(in, jobs, count_stream, workers, sizeof *workers, &error) < 0;
	stats_table classes = { 0 };
	for (unsigned j = 0; j < jobs; j++) {
		if (merge_classes(&classes, &workers[j].classes) < 0)
			rc = -1;
		free(workers[j].classes.slots);
	}
	for (size_t t = 0; t < tc_input_trace_count(in); t++) {
		const tc_trace *tr = tc_input_trace(in, t);
		print_trace_header(tr);
		printf("  streams: %zu\n", tr->stream_count);
		for (size_t i = 0; i < tr->stream_count; i++) {
			const tc_stream *st = tr->streams[i];
			const stream_stats *ss = NULL;
			for (size_t k = 0; k < nstreams; k++)
				if (streams[k].stream == st)
					ss = &streams[k];
			printf("    stream %" PRIu64 " (class %" PRIu64, st->id, st->stream_class->id);
			if (st->cpu >= 0)
				printf(", cpu %d", st->cpu);
			printf("): %" PRIu64 " events", ss ? ss->events : 0);
			if (ss && ss->discarded_events)
				printf(", %" PRIu64 " discarded events", ss->discarded_events);
			if (ss && ss->unknown_discards)
				printf(", may have discarded events");
			if (ss && ss->discarded_packets)
				printf(", %" PRIu64 " discarded packets", ss->discarded_packets);
			printf("  %s\n", st->name);
		}
		size_t n = 0;
		class_stats *list = calloc(classes.count + 1, sizeof *list);
		for (size_t i = 0; list && i < classes.cap; i++)
			if (classes.slots[i].ec && classes.slots[i].ec->stream_class->trace == tr)
				list[n++] = classes.slots[i];
		if (list)
			qsort(list, n, sizeof *list, cmp_stats);
		uint64_t total = 0;
		size_t declared = 0;
		for (size_t i = 0; i < tr->stream_class_count; i++)
			declared += tr->stream_classes[i]->event_class_count;
		bool dates = false, seconds = false;
		for (size_t i = 0; i < n; i++) {
			const tc_clock *c = list[i].ec->stream_class->clock;
			dates |= list[i].has_time && c->origin_is_unix_epoch;
			seconds |= list[i].has_time && !c->origin_is_unix_epoch;
		}
		printf("  event classes: %zu declared, %zu seen (count, first and last time %s, name)\n", declared, n,
		       !seconds ? "in UTC"
		       : !dates ? "in seconds since the clock's origin"
		                : "in UTC, or in seconds since the clock's origin when that is not the Unix epoch");
		for (size_t i = 0; i < n; i++) {
			printf("    %12" PRIu64 "  ", list[i].count);
			if (list[i].has_time) {
				print_time(list[i].ec->stream_class->clock, list[i].first);
				printf("  ");
				print_time(list[i].ec->stream_class->clock, list[i].last);
			}
			printf("  %s\n", list[i].ec->name);
			total += list[i].count;
		}
		printf("  events: %" PRIu64 "\n", total);
		free(list);
	}
	free(classes.slots);
	free(streams);
	if (failed) {
		/* What was read is shown; then the first damaged stream's error. */
		fflush(stdout);
		cli_report(&error);
		rc = -1;
	}
	free(workers);
	return rc;
}

int cli_info(int argc, char **argv)
{
	unsigned jobs = cli_default_jobs();
	char **paths = calloc((size_t)argc, sizeof *paths);
	int count = 0;
	if (!paths)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_jobs_option(argc, argv, &i, "info", &jobs)) {
		} else if (cli_is_help_option(a)) {
			cli_help("info", stdout);
			return free(paths), 0;
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				paths[count++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			return free(paths), cli_usage_error("info", "unknown option %s", a);
		} else {
			paths[count++] = argv[i];
		}
	}
	if (count == 0)
		return free(paths), cli_usage_error("info", "no trace path given");
	/* traces read as `print` reads them under the same TRACECAT_COMPAT */
	tc_compat compat = cli_compat_default("info");
	tc_open_options oo = { .compat = &compat };
	tc_input **inputs;
	if (cli_open_inputs("info", paths, count, &oo, &inputs))
		return free(paths), 1;
	int status = 0;
	for (int i = 0; i < count; i++) {
		if (info_input(inputs[i], jobs) < 0) {
			status = 1;
			break;
		}
	}
	cli_free_inputs(inputs, count);
	free(paths);
	return status;
}
