/* SPDX-License-Identifier: MIT */
/*
 * batch.c - the records of one CPU of one buffer in batches, so that
 * `report` can read its CPUs ahead on worker threads with the prefetcher
 * (core/prefetch.c) while it merges and formats on its own thread.
 *
 * The iterator fills batches only (fill, release, free_store): its
 * records are in the batch's store (tracedat_batch_records()), its
 * messages unused.  A batch's records point into the cursor's windows,
 * which the batch keeps (tracedat_cursor_keep()) until it is released:
 * libtraceevent reads some events past their end, into the rest of their
 * page, so a record must be the very bytes its page holds, not a copy.
 */
#include "tracedat/tracedat.h"

#include <stdlib.h>

typedef struct td_batch_store {
	tracedat_record *recs;
	size_t cap;
	tracedat_pages **pages;      /* the windows the records point into */
	size_t page_count, page_cap;
} td_batch_store;

typedef struct td_batch_iter {
	tc_stream_iter base;
	tracedat_cursor *cursor;     /* not ours */
} td_batch_iter;

/* Room for one more window in ST. */
static int reserve_page(td_batch_store *st)
{
	if (st->page_count < st->page_cap)
		return 0;
	size_t cap = st->page_cap ? st->page_cap * 2 : 4;
	tracedat_pages **p = realloc(st->pages, cap * sizeof *p);
	if (!p)
		return tc_fail_nomem();
	st->pages = p;
	st->page_cap = cap;
	return 0;
}

static void batch_release(tc_stream_iter *it, tc_batch *b)
{
	td_batch_store *st = b->store;
	for (size_t i = 0; i < st->page_count; i++)
		tracedat_pages_drop(st->pages[i]);
	st->page_count = 0;
}

static int batch_fill(tc_stream_iter *it, tc_batch *b)
{
	td_batch_iter *s = (td_batch_iter *)it;
	td_batch_store *st = b->store;
	if (!st && !(st = b->store = calloc(1, sizeof *st)))
		return tc_fail_nomem();
	if (st->cap < b->cap) {
		tracedat_record *r = realloc(st->recs, b->cap * sizeof *r);
		if (!r)
			return tc_fail_nomem();
		st->recs = r;
		st->cap = b->cap;
	}
	b->count = 0;
	tracedat_pages *last = NULL;
	int rc = 0;
	while (b->count < b->cap && (rc = tracedat_cursor_next(s->cursor, &st->recs[b->count])) > 0) {
		if (!last || !tracedat_cursor_kept(s->cursor, last)) {
			if (reserve_page(st) < 0 || !(last = tracedat_cursor_keep(s->cursor))) {
				/* A record read but not kept: no batch at all. */
				batch_release(it, b);
				b->count = 0;
				return TC_ENOMEM;
			}
			st->pages[st->page_count++] = last;
		}
		b->count++;
	}
	/* An error after some records comes again with the next fill: the
	 * cursor's errors are sticky, and recorded anew on every call. */
	if (b->count == 0)
		return rc < 0 ? rc : 0;
	return 1;
}

static void batch_free_store(void *store)
{
	td_batch_store *st = store;
	free(st->recs);
	free(st->pages);
	free(st);
}

static void batch_free(tc_stream_iter *it)
{
	free(it);
}

static const tc_stream_iter_ops batch_ops = {
	.free = batch_free,
	.fill = batch_fill,
	.release = batch_release,
	.free_store = batch_free_store,
};

int tracedat_batch_iter_new(tracedat_cursor *c, tc_stream_iter **out)
{
	td_batch_iter *s = calloc(1, sizeof *s);
	if (!s)
		return tc_fail_nomem();
	s->base.ops = &batch_ops;
	s->cursor = c;
	*out = &s->base;
	return 0;
}

const tracedat_record *tracedat_batch_records(const tc_batch *b)
{
	return ((const td_batch_store *)b->store)->recs;
}
