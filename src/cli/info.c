/*
 * info.c - `tracecat info`: what a trace holds.  Format, environment,
 * clocks, streams, and per event class the number of events with the first
 * and last time, plus discarded events and packets.  It decodes every
 * event (stream after stream, no time merge), so it doubles as the
 * decoding-speed benchmark.
 */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* UTC date and time, as --clock-gmt --clock-date shows it. */
static void print_time(tc_time t)
{
	time_t sec = (time_t)t.sec;
	struct tm tm;
	if (gmtime_r(&sec, &tm))
		printf("%04d-%02d-%02d %02d:%02d:%02d.%09" PRIu32, tm.tm_year + 1900, tm.tm_mon + 1,
		       tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, t.nsec);
	else
		printf("%" PRId64 ".%09" PRIu32 " s", t.sec, t.nsec);
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
	printf("  format: %s\n", t->format);
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
		printf("  clock %s: %" PRIu64 " Hz, offset %" PRId64 " s + %" PRIu64 " cycles, precision %" PRIu64 " cycles%s\n",
		       c->name, c->freq, c->offset_s, c->offset, c->precision, c->absolute ? ", absolute" : "");
		if (c->description)
			printf("    description: %s\n", c->description);
	}
}

static int info_input(tc_input *in)
{
	stats_table classes = { 0 };
	stream_stats *streams = NULL;
	size_t nstreams = 0;
	const tc_stream *last_stream = NULL;
	stream_stats *cur = NULL;
	const tc_message *m;
	int rc;
	while ((rc = tc_input_next(in, &m)) > 0) {
		if (m->stream != last_stream) {
			stream_stats *s = realloc(streams, (nstreams + 1) * sizeof *s);
			if (!s) {
				rc = -1;
				break;
			}
			streams = s;
			cur = &streams[nstreams++];
			memset(cur, 0, sizeof *cur);
			cur->stream = m->stream;
			last_stream = m->stream;
		}
		if (m->kind == TC_MSG_EVENT) {
			cur->events++;
			class_stats *cs = stats_get(&classes, m->event_class);
			if (!cs) {
				rc = -1;
				break;
			}
			cs->count++;
			if (m->has_time) {
				if (!cs->has_time || tc_time_cmp(m->time, cs->first) < 0)
					cs->first = m->time;
				if (!cs->has_time || tc_time_cmp(m->time, cs->last) > 0)
					cs->last = m->time;
				cs->has_time = true;
			}
		} else if (m->kind == TC_MSG_DISCARDED_EVENTS) {
			cur->discarded_events += m->count;
			cur->unknown_discards |= m->count == 0;
		} else {
			cur->discarded_packets += m->count;
		}
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
		printf("  event classes: %zu declared, %zu seen (count, first and last time in UTC, name)\n", declared, n);
		for (size_t i = 0; i < n; i++) {
			printf("    %12" PRIu64 "  ", list[i].count);
			if (list[i].has_time) {
				print_time(list[i].first);
				printf("  ");
				print_time(list[i].last);
			}
			printf("  %s\n", list[i].ec->name);
			total += list[i].count;
		}
		printf("  events: %" PRIu64 "\n", total);
		free(list);
	}
	free(classes.slots);
	free(streams);
	return rc;
}

int cli_info(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "tracecat: info needs a trace path\n");
		return 2;
	}
	tc_input **inputs;
	if (cli_open_inputs(argv + 1, argc - 1, NULL, &inputs))
		return 1;
	int status = 0;
	for (int i = 0; i < argc - 1; i++) {
		if (info_input(inputs[i]) < 0) {
			cli_report_error();
			status = 1;
			break;
		}
	}
	cli_free_inputs(inputs, argc - 1);
	if (fflush(stdout) != 0 && !status) {
		fprintf(stderr, "tracecat: cannot write the output\n");
		status = 1;
	}
	return status;
}
