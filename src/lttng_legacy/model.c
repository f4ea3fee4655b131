/* SPDX-License-Identifier: MIT */
/*
 * model.c - tc_format_lttng_legacy: a legacy LTTng trace directory as
 * tracecat's event model.
 *
 *   - one clock, "tsc", in nanoseconds: the value of an event is LTTV's
 *     time for it (the whole counter converted with its double formula,
 *     doc/formats/lttng-legacy.md §8.3), and the clock's offset puts the
 *     trace header's start time at the start counter value, so times of
 *     day are wall-clock;
 *   - one stream class per channel, by name, with a packet context
 *     { cpu_id }; its event classes are the channel's ids, named
 *     "channel.marker" ("kernel.sched_schedule"), or "facility.event" for
 *     the 0.x facilities;
 *   - one stream per tracefile (id and cpu_id: the file's CPU);
 *   - the metadata's own events are events too, so counts match LTTV's;
 *   - a block's lost-event count is a discarded-events report at the end
 *     of the block.
 */
#include "core/formats.h"
#include "lttng_legacy/legacy.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NS_PER_S 1000000000

typedef struct lm_channel {
	tc_stream_class sc;
	tc_event_class **by_id;    /* the channel's classes by event id */
} lm_channel;

typedef struct lm_trace {
	tc_trace pub;
	tc_pool pool;
	lg_reader *r;
	tc_clock clock;
	tc_time origin;            /* the time of counter value 0 */
	tc_field_class *packet_context;
} lm_trace;

typedef struct lm_iter {
	tc_stream_iter base;
	lm_trace *t;
	lm_channel *ch;
	lg_file *file;
	lg_cursor cursor;
	tc_field packet[2];
	tc_field payload;          /* the root; its members live in the cursor */
} lm_iter;

static void trace_free(void *p)
{
	lm_trace *t = p;
	if (t->r)
		for (size_t i = 0; i < t->r->channel_count; i++) {
			lm_channel *ch = t->r->channels[i]->model;
			if (ch) {
				free(ch->by_id);
				free(ch->sc.event_classes);
			}
		}
	lg_reader_free(t->r);
	free(t->pub.env);
	free(t->pub.clocks);
	free(t->pub.stream_classes);
	free(t->pub.streams);
	tc_pool_free(&t->pool);
	free(t);
}

static int add_env(lm_trace *t, const char *key, const char *str, int64_t num)
{
	return tc_trace_env_add(&t->pub, &t->pool, key, str, num);
}

static int build_env(lm_trace *t)
{
	const lg_header *h = &t->r->hdr;
	char format[16];
	snprintf(format, sizeof format, "%u.%u", h->major, h->minor);
	int rc = add_env(t, "tracer_name", "lttng-legacy", 0);
	if (rc == 0)
		rc = add_env(t, "trace_name", t->pub.name, 0);
	if (rc == 0)
		rc = add_env(t, "source_format", "LTTng 0.x (LTTV) trace", 0);
	if (rc == 0)
		rc = add_env(t, "lttng_legacy_format", format, 0);
	if (rc == 0)
		rc = add_env(t, "architecture_bit_width", NULL, (int64_t)h->arch_size * 8);
	if (rc == 0)
		rc = add_env(t, "byte_order", h->big_endian ? "be" : "le", 0);
	if (rc == 0)
		rc = add_env(t, "counter_frequency", NULL, (int64_t)h->start_freq);
	if (rc == 0)
		rc = add_env(t, "counter_freq_scale", NULL, (int64_t)h->freq_scale);
	if (rc == 0)
		rc = add_env(t, "start_tsc", NULL, (int64_t)t->r->hdr.start_tsc);
	return rc;
}

/* Counter value 0 in wall-clock time: the header's start time less the
 * start counter's LTTV time (§8.3), plus the caller's adjustment. */
static int build_clock(lm_trace *t, const tc_open_options *opts)
{
	const lg_header *h = &t->r->hdr;
	uint64_t start_ns;
	if (!lg_tsc_to_ns(t->r, t->r->hdr.start_tsc, &start_ns))
		return tc_fail(TC_EFORMAT, t->r->path, -1, "the start counter value does not fit in 64-bit nanoseconds");
	__int128 ns = (__int128)h->start_sec * NS_PER_S + (__int128)h->start_usec * 1000 - start_ns +
	              (__int128)opts->clock_offset_s * NS_PER_S + opts->clock_offset_ns;
	if (!tc_clock_set_offset_ns(&t->clock, ns))
		return tc_fail(TC_EFORMAT, t->r->path, -1, "the trace's start time is beyond 64-bit seconds");
	t->clock.name = "tsc";
	t->clock.description = "LTTng 0.x cycle counter, in LTTV's nanoseconds";
	t->clock.freq = NS_PER_S;
	t->clock.origin_is_unix_epoch = h->start_sec != 0;
	if (!tc_clock_origin_time(&t->clock, &t->origin))
		return tc_fail(TC_EFORMAT, t->r->path, -1, "the trace's start time is beyond 64-bit seconds");
	tc_clock *clk = &t->clock;
	return tc_ptr_push((void ***)&t->pub.clocks, &t->pub.clock_count, clk);
}

/* The channel's stream class, with a class per id its table holds. */
static int build_stream_class(lm_trace *t, lg_channel *lc, size_t index)
{
	lm_channel *ch = tc_pool_alloc(&t->pool, sizeof *ch);
	if (!ch)
		return TC_ENOMEM;
	lc->model = ch;
	ch->sc.id = index;
	ch->sc.trace = &t->pub;
	ch->sc.clock = &t->clock;
	ch->sc.packet_context = t->packet_context;
	/* lost-event counters exist from 2.2 on (§9) */
	const lg_header *h = &t->r->hdr;
	ch->sc.has_discarded_events = h->major == 2 && h->minor >= 2;
	const lg_table *table = lc->table;
	if (table->cap && !(ch->by_id = calloc(table->cap, sizeof *ch->by_id)))
		return tc_fail_nomem();
	for (size_t id = 0; id < table->cap; id++) {
		const lg_event_type *type = table->by_id[id];
		if (!type)
			continue;
		tc_event_class *ec = tc_pool_alloc(&t->pool, sizeof *ec);
		size_t n = strlen(lc->name) + strlen(type->name) + 2;
		if (!ec || !(ec->name = tc_pool_alloc(&t->pool, n)))
			return TC_ENOMEM;
		if (h->major == 0)
			snprintf(ec->name, n, "%s", type->name);
		else
			snprintf(ec->name, n, "%s.%s", lc->name, type->name);
		ec->id = id;
		ec->loglevel = -1;
		ec->payload = type->cls;
		ec->stream_class = &ch->sc;
		ch->by_id[id] = ec;
		if (tc_ptr_push((void ***)&ch->sc.event_classes, &ch->sc.event_class_count, ec) < 0)
			return TC_ENOMEM;
	}
	tc_stream_class *scp = &ch->sc;
	return tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, scp);
}

/* ---- streams ---- */

static int iter_next(tc_stream_iter *base, tc_message *m)
{
	lm_iter *it = (lm_iter *)base;
	lg_item item;
	int rc = lg_cursor_next(&it->cursor, &item);
	if (rc <= 0)
		return rc;
	const lg_reader *r = it->t->r;
	memset(m, 0, sizeof *m);
	m->stream = it->base.stream;
	m->has_time = lg_tsc_to_ns(r, item.tsc, &m->cycles) && tc_time_add_ns(it->t->origin, m->cycles, &m->time);
	if (!m->has_time)
		return tc_fail(TC_EFORMAT, it->file->path, -1, "an event time beyond 64-bit nanoseconds");
	if (item.kind == LG_ITEM_LOST) {
		m->kind = TC_MSG_DISCARDED_EVENTS;
		m->count = item.lost;
		m->has_range = lg_tsc_to_ns(r, item.end_tsc, &m->end_cycles) &&
		               tc_time_add_ns(it->t->origin, m->end_cycles, &m->end_time) && m->end_cycles >= m->cycles;
		return 1;
	}
	m->kind = TC_MSG_EVENT;
	m->event_class = it->ch->by_id[item.type->id];
	m->packet_context = &it->packet[0];
	if (item.type->cls) {
		it->payload = item.payload;
		m->payload = &it->payload;
	}
	return 1;
}

static void iter_free(tc_stream_iter *base)
{
	lm_iter *it = (lm_iter *)base;
	lg_cursor_free(&it->cursor);
	free(it);
}

static const tc_stream_iter_ops lm_iter_ops = { .next = iter_next, .free = iter_free };

static int add_stream(tc_input *in, lm_trace *t, lg_file *f)
{
	lm_channel *ch = f->channel->model;
	tc_stream *st = tc_pool_alloc(&t->pool, sizeof *st);
	lm_iter *it = calloc(1, sizeof *it);
	if (!st || !it || tc_ptr_push((void ***)&t->pub.streams, &t->pub.stream_count, st) < 0) {
		free(it);
		return tc_fail_nomem();
	}
	st->id = (uint64_t)f->cpu;
	st->cpu = f->cpu;
	st->name = f->path;
	st->stream_class = &ch->sc;
	st->trace = &t->pub;
	it->base.ops = &lm_iter_ops;
	it->base.stream = st;
	it->t = t;
	it->ch = ch;
	it->file = f;
	lg_cursor_init(&it->cursor, t->r, f);
	it->packet[0] = (tc_field){ .cls = t->packet_context };
	it->packet[0].v.compound.items = &it->packet[1];
	it->packet[0].v.compound.count = 1;
	it->packet[1] = (tc_field){ .cls = t->packet_context->members[0].cls, .v.u = (uint64_t)f->cpu };
	int rc = tc_input_add_iter(in, &it->base);
	if (rc < 0)
		iter_free(&it->base);
	else
		it->cursor.bytes_read = it->base.bytes_read;
	return rc;
}

static int legacy_open(tc_input *in, const char *path, const tc_open_options *opts)
{
	struct stat st;
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return TC_ENOTFOUND;
	lg_reader *r;
	int rc = lg_reader_open(&r, path);
	if (rc < 0)
		return rc;
	lm_trace *t = calloc(1, sizeof *t);
	if (!t) {
		lg_reader_free(r);
		return tc_fail_nomem();
	}
	tc_pool_init(&t->pool);
	t->r = r;
	tc_count_read(&in->bytes_read, r->xml_bytes);
	if ((rc = tc_input_own(in, t, trace_free)) < 0)
		return rc;
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	const char *base = path + len;
	while (base > path && base[-1] != '/')
		base--;
	t->pub.format = TC_INPUT_LTTNG_LEGACY;
	t->pub.format_major = (int)r->hdr.major;
	t->pub.format_minor = (int)r->hdr.minor;
	t->pub.domain = TC_DOMAIN_KERNEL;
	t->pub.path = tc_pool_strdup(&t->pool, path);
	t->pub.name = tc_pool_strndup(&t->pool, base, (size_t)(path + len - base));
	t->pub.dir_in_input = "";
	if (!t->pub.path || !t->pub.name || !(t->packet_context = tc_cpu_packet_context(&t->pool)))
		return TC_ENOMEM;
	if ((rc = build_clock(t, opts)) < 0 || (rc = build_env(t)) < 0 || (rc = tc_input_add_trace(in, &t->pub)) < 0)
		return rc;
	for (size_t i = 0; i < r->channel_count && rc == 0; i++)
		rc = build_stream_class(t, r->channels[i], i);
	for (size_t i = 0; i < r->file_count && rc == 0; i++)
		rc = add_stream(in, t, r->files[i]);
	return rc;
}

const tc_format tc_format_lttng_legacy = { "lttng-legacy", legacy_open };
