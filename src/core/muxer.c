/* SPDX-License-Identifier: MIT */
/*
 * muxer.c - merges the streams of any number of inputs into one sequence
 * ordered by time, breaking ties exactly as babeltrace2's muxer does, so
 * that text output matches it line for line.
 *
 * A binary heap holds one entry per stream: its next message, in a batch
 * of that stream's messages (prefetch.c, which decodes batches ahead on
 * worker threads when tc_muxer_set_threads() allows).  The message handed
 * to the caller stays in its batch; that stream is advanced only on the
 * following call, so the message (and the packet bytes it points into)
 * stays valid in between.
 *
 * Ties are broken by the rules of the babeltrace2 release the inputs were
 * opened for (tc_open_options.compat; the first input's), 2.1's as soon as
 * one trace is CTF 2, which 2.0 cannot read: both releases compare the
 * traces, then stream class ids, stream ids, message kinds and event
 * classes (babeltrace2's src/plugins/common/muxing), but 2.0.4's graph
 * (message interchange protocol 0) compares traces by UUID, while 2.1.2's
 * (MIP 1, even for CTF 1.8) compares their identities: namespace, name (the
 * trace name, "hostname/relative-dir", which babeltrace2's ctf.fs source
 * sets over the class's) and uid, so that the traces of a per-process
 * LTTng session come in path order, not UUID order.  2.1.2 also puts a
 * missing event class name or EMF URI last, 2.0.4 first.
 *
 * Where babeltrace2 stops with "time went backwards" (one stream not
 * monotonic) we keep going, as babeltrace 1.5 does: the heap still yields
 * the smallest head, so such a stream's messages come out in file order.
 */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

typedef struct mux_entry {
	const tc_batch *batch;
	size_t next;      /* the batch's message after msg */
	const tc_message *msg;
	tc_time key;      /* time used for ordering */
	size_t seq;       /* registration order: the final tie-break, and the
	                     stream's index in the prefetcher */
} mux_entry;

struct tc_muxer {
	tc_stream_iter **iters;
	tc_prefetch *prefetch;
	unsigned threads;
	mux_entry **heap;
	size_t heap_len;
	mux_entry **all;
	size_t all_count;
	mux_entry *pending;   /* returned last call; advance before the next */
	/* the smaller child of the top, which would be on top without it
	 * (NULL when the top is alone): while the top's next message comes
	 * strictly before this one's, the top stays, with no comparing in
	 * the heap; streams give long runs of such messages */
	mux_entry *second;
	tc_time last_time;
	bool started;
	bool bt21_ties;       /* babeltrace2 2.1's rules for ties, not 2.0's */
};

int tc_muxer_new(tc_muxer **out)
{
	tc_muxer *m = calloc(1, sizeof *m);
	if (!m)
		return tc_fail_nomem();
	m->last_time.sec = INT64_MIN;
	m->threads = 1;
	*out = m;
	return 0;
}

void tc_muxer_free(tc_muxer *m)
{
	if (!m)
		return;
	tc_prefetch_free(m->prefetch);
	for (size_t i = 0; i < m->all_count; i++) {
		m->iters[i]->ops->free(m->iters[i]);
		free(m->all[i]);
	}
	free(m->iters);
	free(m->all);
	free(m->heap);
	free(m);
}

int tc_muxer_add_input(tc_muxer *m, tc_input *in)
{
	if (in->taken)
		return tc_fail(TC_EINVAL, NULL, -1, "input already added to a muxer");
	if (!m->all_count)
		m->bt21_ties = in->babeltrace2 >= TC_RELEASE(2, 1);
	/* CTF 2, which 2.0 cannot read, prints as 2.1.2 does. */
	for (size_t i = 0; i < in->trace_count; i++)
		if (in->traces[i]->ctf_major == 2)
			m->bt21_ties = true;
	for (size_t i = 0; i < in->iter_count; i++) {
		mux_entry *e = calloc(1, sizeof *e);
		if (!e)
			return tc_fail_nomem();
		e->seq = m->all_count;
		size_t iter_count = m->all_count;
		if (tc_ptr_push((void ***)&m->iters, &iter_count, in->iters[i]) < 0) {
			free(e);
			return TC_ENOMEM;
		}
		if (tc_ptr_push((void ***)&m->all, &m->all_count, e) < 0) {
			free(e);
			return TC_ENOMEM;
		}
	}
	in->taken = true;
	free(m->heap);
	m->heap = calloc(m->all_count ? m->all_count : 1, sizeof *m->heap);
	return m->heap ? 0 : tc_fail_nomem();
}

static int kind_rank(tc_message_kind k)
{
	/* babeltrace2's message-type order for equal times. */
	switch (k) {
	case TC_MSG_EVENT: return 2;
	case TC_MSG_DISCARDED_EVENTS: return 3;
	case TC_MSG_DISCARDED_PACKETS: return 6;
	}
	return 9;
}

static int cmp_str_present_first(const char *a, const char *b)
{
	if (a && b)
		return strcmp(a, b);
	if (a)
		return -1;
	return b ? 1 : 0;
}

static int cmp_str_absent_first(const char *a, const char *b)
{
	if (a && b)
		return strcmp(a, b);
	if (a)
		return 1;
	return b ? -1 : 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* A trace's uid as babeltrace2 2.1 has it: a CTF 2 trace class's, or a
 * CTF 1.8 UUID as text (in BUF), whose order is the bytes' order. */
static const char *trace_uid(const tc_trace *t, char buf[37])
{
	if (t->ctf_major == 2)
		return t->class_uid;
	if (!t->has_uuid)
		return NULL;
	tc_uuid_format(t->uuid, buf);
	return buf;
}

static int trace_cmp(const tc_trace *ta, const tc_trace *tb, bool bt21)
{
	int c;
	if (bt21) {
		char ua[37], ub[37];
		if ((c = cmp_str_present_first(ta->class_ns, tb->class_ns)) != 0 ||
		    (c = cmp_str_present_first(ta->name, tb->name)) != 0)
			return c;
		return cmp_str_present_first(trace_uid(ta, ua), trace_uid(tb, ub));
	}
	if (ta->has_uuid != tb->has_uuid)
		return ta->has_uuid ? -1 : 1;
	if (ta->has_uuid && (c = memcmp(ta->uuid, tb->uuid, 16)) != 0)
		return c;
	return cmp_str_present_first(ta->name, tb->name);
}

static int entry_cmp(const tc_muxer *m, const mux_entry *a, const mux_entry *b)
{
	int t = tc_time_cmp(a->key, b->key);
	if (t)
		return t;
	const tc_stream *sa = a->msg->stream, *sb = b->msg->stream;
	int c;
	if (sa->trace != sb->trace && (c = trace_cmp(sa->trace, sb->trace, m->bt21_ties)) != 0)
		return c;
	if ((c = cmp_u64(sa->stream_class->id, sb->stream_class->id)) != 0)
		return c;
	if ((c = cmp_u64(sa->id, sb->id)) != 0)
		return c;
	if ((c = kind_rank(a->msg->kind) - kind_rank(b->msg->kind)) != 0)
		return c;
	if (a->msg->kind == TC_MSG_EVENT) {
		const tc_event_class *ea = a->msg->event_class, *eb = b->msg->event_class;
		if ((c = cmp_u64(ea->id, eb->id)) != 0)
			return c;
		int (*cmp_str)(const char *, const char *) = m->bt21_ties ? cmp_str_present_first : cmp_str_absent_first;
		if ((c = cmp_str(ea->name, eb->name)) != 0)
			return c;
		if (ea->loglevel != eb->loglevel) {
			if (ea->loglevel < 0 || eb->loglevel < 0)
				return ea->loglevel < 0 ? 1 : -1;
			return ea->loglevel - eb->loglevel;
		}
		if ((c = cmp_str(ea->emf_uri, eb->emf_uri)) != 0)
			return c;
	}
	if ((c = cmp_str_present_first(sa->name, sb->name)) != 0)
		return c;
	return a->seq < b->seq ? -1 : (a->seq > b->seq);
}

static void heap_sift_up(tc_muxer *m, size_t i)
{
	mux_entry *e = m->heap[i];
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (entry_cmp(m, m->heap[p], e) <= 0)
			break;
		m->heap[i] = m->heap[p];
		i = p;
	}
	m->heap[i] = e;
}

static void heap_sift_down(tc_muxer *m, size_t i)
{
	mux_entry *e = m->heap[i];
	size_t n = m->heap_len;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && entry_cmp(m, m->heap[c + 1], m->heap[c]) < 0)
			c++;
		if (entry_cmp(m, e, m->heap[c]) <= 0)
			break;
		m->heap[i] = m->heap[c];
		i = c;
	}
	m->heap[i] = e;
}

static mux_entry *second_of(const tc_muxer *m)
{
	if (m->heap_len < 2)
		return NULL;
	if (m->heap_len == 2 || entry_cmp(m, m->heap[1], m->heap[2]) <= 0)
		return m->heap[1];
	return m->heap[2];
}

/* How many bytes of a message's fields prefetch_message() asks for: the
 * slots of an event of a dozen or so fields. */
#define PREFETCH_FIELD_BYTES 384

/*
 * Asks the caches for message M and the first PREFETCH_FIELD_BYTES of its
 * fields, while the message before it is being formatted.  A worker
 * thread decoded them (prefetch.c), so they sit in another core's cache,
 * and the first touch of each line waited for it: a tenth of `print -j 2`
 * on an LTTng-UST trace.  Every batch reader lays out an event's fields
 * together, contexts first, in the order it decodes them.
 */
static inline void prefetch_message(const tc_message *m)
{
	const char *f = (const char *)(m->stream_event_context ? m->stream_event_context
	                               : m->event_context      ? m->event_context
	                                                       : m->payload);
	__builtin_prefetch(m + 1);
	if (f)
		for (int i = 0; i < PREFETCH_FIELD_BYTES; i += 64)
			__builtin_prefetch(f + i);
}

/* Fetches E's next message; returns 1 (E now has one), 0 (stream ended) or < 0. */
static int entry_advance(tc_muxer *m, mux_entry *e)
{
	if (!e->batch || e->next == e->batch->count) {
		int rc = tc_prefetch_next(m->prefetch, e->seq, &e->batch);
		if (rc <= 0)
			return rc;
		e->next = 0;
	}
	e->msg = &e->batch->msgs[e->next++];
	if (e->next < e->batch->count)
		prefetch_message(&e->batch->msgs[e->next]);
	/* A message without a time sorts as if it came right now. */
	e->key = e->msg->has_time ? e->msg->time : m->last_time;
	return 1;
}

int tc_muxer_set_threads(tc_muxer *m, unsigned threads)
{
	if (m->started)
		return tc_fail(TC_EINVAL, NULL, -1, "the muxer has started reading");
	if (threads == 0)
		return tc_fail(TC_EINVAL, NULL, -1, "no thread to read with");
	m->threads = threads;
	return 0;
}

int tc_muxer_next(tc_muxer *m, const tc_message **out)
{
	int rc;
	if (!m->started) {
		if ((rc = tc_prefetch_new(&m->prefetch, m->iters, m->all_count, m->threads, 0)) < 0)
			return rc;
		m->started = true;
		for (size_t i = 0; i < m->all_count; i++) {
			rc = entry_advance(m, m->all[i]);
			if (rc < 0)
				return rc;
			if (rc > 0) {
				m->heap[m->heap_len++] = m->all[i];
				heap_sift_up(m, m->heap_len - 1);
				m->second = second_of(m);
			}
		}
	} else if (m->pending) {
		mux_entry *e = m->pending;
		m->pending = NULL;
		rc = entry_advance(m, e);
		if (rc <= 0) {
			/* the stream is done; after an error too, so that a
			 * caller that goes on still terminates */
			m->heap[0] = m->heap[--m->heap_len];
			if (m->heap_len)
				heap_sift_down(m, 0);
			m->second = second_of(m);
			if (rc < 0)
				return rc;
		} else if (m->second && tc_time_cmp(e->key, m->second->key) >= 0) {
			heap_sift_down(m, 0);
			m->second = second_of(m);
		}
	}
	if (m->heap_len == 0)
		return 0;
	mux_entry *top = m->heap[0];
	m->pending = top;
	if (tc_time_cmp(top->key, m->last_time) > 0)
		m->last_time = top->key;
	*out = top->msg;
	return 1;
}
