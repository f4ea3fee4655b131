/* SPDX-License-Identifier: MIT */
/*
 * order.c - the records of a perf.data data section in time order, as
 * perf sorts them: the stream iterators (stream.c) read their own
 * stream's records through it, `script` every record.
 *
 * perf writes each CPU's ring buffer as it drains it, so records reach the
 * file a little out of time order; it sorts them back with "rounds"
 * (tools/perf/util/ordered-events.c; doc/formats/perf.md §6): at each
 * FINISHED_ROUND record, the events up to the greatest time seen before
 * the previous FINISHED_ROUND are final, and go out sorted by time; at
 * the end, all of them.  Only
 * times and offsets are queued (the bytes stay in the mapping), so memory
 * is bounded by a round's records; equal times keep file order, as perf
 * keeps them.
 */
#include "perf/perf.h"

#include <stdlib.h>
#include <string.h>

static int cmp_pending(const void *a, const void *b)
{
	const perf_pending *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

void perf_order_init(perf_order *o, const perf_file *f, uint64_t key)
{
	memset(o, 0, sizeof *o);
	o->f = f;
	o->key = key;
	o->pos = f->data_offset;
}

void perf_order_free(perf_order *o)
{
	free(o->queue);
	o->queue = NULL;
}

/* Sorts the queue and makes final what is at or before LIMIT (all: every
 * record). */
static void flush(perf_order *o, uint64_t limit, bool all)
{
	if (o->count)
		qsort(o->queue, o->count, sizeof *o->queue, cmp_pending);
	size_t n = o->count;
	if (!all)
		for (n = 0; n < o->count && o->queue[n].time <= limit; n++)
			;
	o->ready = n;
}

/* Reads records until some of the key's are final: 1, 0 at the end, or
 * an error. */
static int refill(perf_order *o)
{
	if (o->next)
		memmove(o->queue, o->queue + o->next, (o->count - o->next) * sizeof *o->queue);
	o->count -= o->next;
	o->ready = o->next = 0;
	while (!o->at_end) {
		perf_record r;
		int rc = perf_record_at(o->f, o->pos, &r);
		if (rc < 0)
			return rc;
		if (rc == 0) {
			o->at_end = true;
			flush(o, 0, true);
			break;
		}
		o->pos = r.next;
		if (r.type == PERF_REC_FINISHED_ROUND) {
			flush(o, o->round_limit, false);
			o->round_limit = o->max_time;
			if (o->ready)
				return 1;
			continue;
		}
		if (!perf_record_is_event(r.type))
			continue;
		perf_sample s;
		if ((rc = perf_parse_sample(o->f, &r, &s)) < 0)
			return rc;
		if (o->key != PERF_ANY_KEY && perf_stream_key(&s) != o->key)
			continue;
		if (tc_array_reserve(&o->queue, &o->cap, o->count, sizeof *o->queue, 256) < 0)
			return TC_ENOMEM;
		o->queue[o->count++] = (perf_pending){ s.time, r.offset };
		if (s.time > o->max_time)
			o->max_time = s.time;
	}
	return o->ready > 0;
}

int perf_order_next(perf_order *o, uint64_t *offset)
{
	if (o->next == o->ready) {
		int rc = refill(o);
		if (rc <= 0)
			return rc;
	}
	*offset = o->queue[o->next++].offset;
	return 1;
}
