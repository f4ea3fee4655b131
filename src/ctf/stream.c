/* SPDX-License-Identifier: MIT */
/*
 * stream.c - one CTF stream (one or more files, packet after packet) as a
 * tc_stream_iter: the muxer pulls events and discarded-item reports from it.
 *
 * Files are mapped whole and read in place: strings in events point into
 * the mapping.  Pages already read are handed back to the kernel every few
 * megabytes (MADV_DONTNEED on a read-only mapping just drops them), so the
 * resident size stays flat however long the trace is.
 *
 * Events are decoded in batches (tc_batch) that own their fields: each
 * has arenas of its own for the events and for the packet context, and a
 * reference on the mapping, so a batch stays valid while the iterator
 * decodes the next ones, on another thread if need be (core/prefetch.c).
 * A batch holds messages of one packet; one that starts inside a packet
 * decodes the packet's header and context again into its own arena.
 *
 * Packet rules follow CTF 1.8 §5 and doc/formats/ctf.md §5.3: header,
 * context, sizes, events up to the content size; the stream's clock value
 * carries over packets and files.  Discarded events and packets are
 * derived from the packet context counters as babeltrace2 does
 * (doc/formats/ctf.md §5.4).
 */
#include "ctf/ctf_stream.h"

#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CTF_MAGIC 0xC1FC1FC1u
#define DONTNEED_STEP (8u << 20)
#define DONTNEED_LAG (1u << 20)
/* A returned CTF_ARENA_RETRY when the batch already holds events: it ends
 * there, and the event is decoded again at the start of the next one. */
#define CTF_BATCH_FULL (CTF_ARENA_RETRY + 1)
/* The field slots a batch's events fill before it ends (once it holds
 * one): 128 KiB of them, so that a batch of events with long arrays
 * (4 KiB of bytes, each a slot of 32 bytes) is written and read while it
 * is in the caches, as a batch of small events is.  At 4 times as many,
 * reading every value of LTTng-UST events of 1-4 KiB byte sequences took
 * a fifth more processor time; 40 times as many took twice as much and
 * 150 MiB. */
#define BATCH_SLOTS 4096u

struct ctf_mapping {
	const uint8_t *base;      /* NULL for an empty file */
	uint64_t size;
	atomic_uint refs;
};

/* What a batch's messages point to, besides the mapping's bytes. */
typedef struct ctf_batch_store {
	ctf_arena events, packet;
	ctf_mapping *mapping;
	bool events_ran_out;      /* the last batch ended early for room */
} ctf_batch_store;

static void mapping_unref(ctf_mapping *m)
{
	if (m && atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) == 1) {
		if (m->base)
			munmap((void *)m->base, (size_t)m->size);
		free(m);
	}
}

static int map_file(ctf_stream_iter *s, ctf_file *f)
{
	ctf_mapping *m = calloc(1, sizeof *m);
	if (!m)
		return tc_fail_nomem();
	atomic_init(&m->refs, 1);
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(m);
		return tc_fail_open(f->path);
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close(fd);
		free(m);
		return tc_fail(TC_EIO, f->path, -1, "cannot stat: %s", strerror(errno));
	}
	m->size = (uint64_t)st.st_size;
	if (m->size > 0) {
		void *base = mmap(NULL, (size_t)m->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (base == MAP_FAILED) {
			close(fd);
			free(m);
			return tc_fail(TC_EIO, f->path, -1, "cannot map: %s", strerror(errno));
		}
		m->base = base;
	}
	close(fd);
	s->mapping = m;
	s->map = m->base;
	s->map_size = m->size;
	return 0;
}

static void unmap_file(ctf_stream_iter *s)
{
	mapping_unref(s->mapping);
	s->mapping = NULL;
	s->map = NULL;
	s->map_size = 0;
}

/* Where decoding stood: a decode that filled the arena starts over from
 * here once the arena has grown (the CTF_ARENA_RETRY contract). */
typedef struct decode_mark {
	uint64_t pos, clock;
	int last_bo;
	size_t used;
} decode_mark;

static decode_mark mark_here(const ctf_stream_iter *s)
{
	decode_mark m = { s->dec.pos, s->clock_value, s->dec.last_bo, s->dec.arena->used };
	return m;
}

static void rewind_to(ctf_stream_iter *s, const decode_mark *m)
{
	s->dec.pos = m->pos;
	s->dec.last_bo = m->last_bo;
	s->dec.arena->used = m->used;
	s->clock_value = m->clock;
}

/* Grows the arena and rewinds to M: 0, or TC_ENOMEM. */
static int grow_and_rewind(ctf_stream_iter *s, const decode_mark *m)
{
	if (ctf_arena_grow(s->dec.arena) < 0)
		return TC_ENOMEM;
	rewind_to(s, m);
	return 0;
}

/* Decodes one scope, growing the arena and starting over if it fills up. */
static int decode_scope_retry(ctf_stream_iter *s, ctf_scope scope, const tc_field_class *cls, tc_field **root)
{
	decode_mark mark = mark_here(s);
	int rc;
	while ((rc = ctf_decode_scope(&s->dec, scope, cls, root)) == CTF_ARENA_RETRY)
		if (grow_and_rewind(s, &mark) < 0)
			return TC_ENOMEM;
	return rc;
}


/*
 * Decodes the packet header and context at OFF of the current file into
 * s->pkt, their fields into ARENA.  Used both to peek at a file's first
 * packet (discovery) and to start every packet while iterating.
 */
static int read_packet_start(ctf_stream_iter *s, uint64_t off, bool need_context, ctf_arena *arena)
{
	ctf_decoder *d = &s->dec;
	ctf_packet *p = &s->pkt;
	const char *path = s->files[s->cur_file].path;
	memset(p, 0, sizeof *p);
	d->buf = s->map + off;
	d->pos = 0;
	d->limit = (s->map_size - off) * 8;
	d->last_bo = -1;
	d->path = path;
	d->packet_offset = off;
	d->arena = arena;
	d->arena->used = 0;
	memset(d->have_role, 0, sizeof d->have_role);
	memset(d->roots, 0, sizeof d->roots);
	d->clock_value = &s->clock_value;
	d->clock = s->sc ? s->sc->pub.clock : NULL;
	tc_field *root;
	int rc;
	const ctf_trace *t = s->trace;
	if (t->pub.packet_header) {
		if ((rc = decode_scope_retry(s, SCOPE_PACKET_HEADER, t->pub.packet_header, &root)) < 0)
			return rc;
		if (d->have_role[TC_ROLE_MAGIC] && d->role_value[TC_ROLE_MAGIC] != CTF_MAGIC && !t->quirks.any_magic)
			return tc_fail(TC_EFORMAT, path, (int64_t)off, "bad packet magic 0x%08" PRIx64 " (expected 0xc1fc1fc1)", d->role_value[TC_ROLE_MAGIC]);
	}
	if (t->pub.stream_class_count == 0)
		return tc_fail(TC_EFORMAT, path, (int64_t)off, "stream file, but the metadata declares no stream or event");
	uint64_t sc_id = d->have_role[TC_ROLE_STREAM_ID] ? d->role_value[TC_ROLE_STREAM_ID] : t->pub.stream_classes[0]->id;
	ctf_stream_class *sc = ctf_stream_class_by_id(t, sc_id);
	if (!sc)
		return tc_fail(TC_EFORMAT, path, (int64_t)off, "packet refers to unknown stream class %" PRIu64, sc_id);
	if (s->sc && sc != s->sc)
		return tc_fail(TC_EFORMAT, path, (int64_t)off, "packet of stream class %" PRIu64 " in a stream of class %" PRIu64, sc_id, s->sc->pub.id);
	s->sc = sc;
	d->clock = sc->pub.clock;
	p->has_instance_id = d->have_role[TC_ROLE_STREAM_INSTANCE_ID];
	p->instance_id = d->role_value[TC_ROLE_STREAM_INSTANCE_ID];
	p->context = NULL;
	if (sc->pub.packet_context) {
		if ((rc = decode_scope_retry(s, SCOPE_PACKET_CONTEXT, sc->pub.packet_context, &root)) < 0)
			return rc;
		if (!(sc->pub.packet_context->flags & TC_FIELD_HIDDEN))
			p->context = root;
		for (size_t i = 0; i < sc->pub.packet_context->member_count; i++) {
			const tc_member *m = &sc->pub.packet_context->members[i];
			if (strcmp(m->display_name, "cpu_id") == 0 && root->v.compound.items[i].cls->kind == TC_FIELD_INT)
				p->cpu = (int)root->v.compound.items[i].v.u;
		}
	}
	uint64_t left = (s->map_size - off) * 8;
	bool has_ps = d->have_role[TC_ROLE_PACKET_SIZE], has_cs = d->have_role[TC_ROLE_CONTENT_SIZE];
	p->packet_bits = has_ps ? d->role_value[TC_ROLE_PACKET_SIZE] : has_cs ? d->role_value[TC_ROLE_CONTENT_SIZE] : left;
	p->content_bits = has_cs ? d->role_value[TC_ROLE_CONTENT_SIZE] : p->packet_bits;
	if (p->content_bits > p->packet_bits)
		return tc_fail(TC_EFORMAT, path, (int64_t)off, "packet content size %" PRIu64 " bits exceeds its packet size %" PRIu64 " bits", p->content_bits, p->packet_bits);
	if (p->packet_bits % 8 || p->packet_bits > left)
		return tc_fail(TC_EFORMAT, path, (int64_t)off, "packet size %" PRIu64 " bits is not a whole number of bytes within the %" PRIu64 " bytes left in the file", p->packet_bits, left / 8);
	if (p->packet_bits == 0 || (need_context && d->pos > p->content_bits))
		return tc_fail(TC_EFORMAT, path, (int64_t)off, "packet size %" PRIu64 " bits is smaller than its header and context", p->packet_bits);
	d->limit = p->content_bits;
	p->offset = off;
	p->has_ts_begin = d->have_role[TC_ROLE_TS_BEGIN];
	p->ts_begin = s->clock_value;
	p->has_ts_end = d->have_role[TC_ROLE_TS_END];
	p->ts_end = d->role_value[TC_ROLE_TS_END];
	p->has_discarded = d->have_role[TC_ROLE_EVENTS_DISCARDED];
	p->discarded = d->role_value[TC_ROLE_EVENTS_DISCARDED];
	p->has_seq = d->have_role[TC_ROLE_PACKET_SEQ_NUM];
	p->seq = d->role_value[TC_ROLE_PACKET_SEQ_NUM];
	return 0;
}

/*
 * The current packet's header and context decoded again, into ARENA, for a
 * batch that starts inside the packet: the batch before may still be in
 * use with the fields decoded first.  Changes nothing else.
 */
static int read_packet_scopes_again(ctf_stream_iter *s, ctf_arena *arena)
{
	ctf_decoder *d = &s->dec, saved = *d;
	uint64_t clock = s->clock_value;
	d->pos = 0;
	d->last_bo = -1;
	d->arena = arena;
	arena->used = 0;
	tc_field *root = NULL;
	int rc = 0;
	if (s->trace->pub.packet_header)
		rc = decode_scope_retry(s, SCOPE_PACKET_HEADER, s->trace->pub.packet_header, &root);
	const tc_field_class *ctx = s->sc->pub.packet_context;
	if (rc == 0 && ctx)
		rc = decode_scope_retry(s, SCOPE_PACKET_CONTEXT, ctx, &root);
	tc_field *header_root = d->roots[SCOPE_PACKET_HEADER], *context_root = d->roots[SCOPE_PACKET_CONTEXT];
	*d = saved;
	s->clock_value = clock;
	if (rc < 0)
		return rc;
	d->roots[SCOPE_PACKET_HEADER] = header_root;
	d->roots[SCOPE_PACKET_CONTEXT] = context_root;
	s->pkt.context = ctx && !(ctx->flags & TC_FIELD_HIDDEN) ? context_root : NULL;
	return 0;
}

int ctf_peek_first_packet(ctf_stream_iter *s, ctf_file *f)
{
	int rc = map_file(s, f);
	if (rc < 0)
		return rc;
	s->cur_file = 0;
	rc = read_packet_start(s, 0, true, &s->packet_arena);
	if (rc == 0) {
		f->class_id = s->sc->pub.id;
		f->has_instance_id = s->pkt.has_instance_id;
		f->instance_id = s->pkt.instance_id;
		f->has_ts_begin = s->pkt.has_ts_begin;
		f->ts_begin = s->pkt.ts_begin;
		f->cpu = s->pkt.cpu;
	}
	unmap_file(s);
	s->clock_value = 0;
	return rc;
}

/* Hands the pages of the current file up to DONTNEED_LAG before UPTO back
 * to the kernel, every DONTNEED_STEP bytes, so that the resident size
 * stays flat.  The lag spares the pages that batches decoded ahead of
 * their reader still point to; one given back too early is only read
 * again. */
static void give_back_pages(ctf_stream_iter *s, uint64_t upto)
{
	if (upto - s->dontneed_mark < (uint64_t)DONTNEED_STEP + DONTNEED_LAG)
		return;
	uint64_t start = s->dontneed_mark & ~(uint64_t)4095, end = (upto - DONTNEED_LAG) & ~(uint64_t)4095;
	if (end > start)
		madvise((void *)(s->map + start), (size_t)(end - start), MADV_DONTNEED);
	s->dontneed_mark = end;
}

/* Reads the start (header and context) of every packet of every file of
 * S, in order, calling VISIT (when not NULL) after each with the file's
 * index and the packet's offset; stops at the first error.  The caller
 * puts the iterator back with rewind_packets() before reading events. */
static int walk_packets(ctf_stream_iter *s, void (*visit)(ctf_stream_iter *, size_t, uint64_t, void *), void *ctx)
{
	int rc = 0;
	for (size_t i = 0; i < s->file_count && rc == 0; i++) {
		s->cur_file = i;
		if ((rc = map_file(s, &s->files[i])) < 0)
			break;
		s->dontneed_mark = 0;
		for (uint64_t off = 0; off < s->map_size && rc == 0; off += s->pkt.packet_bits / 8) {
			s->sc = NULL;
			give_back_pages(s, off);
			if ((rc = read_packet_start(s, off, false, &s->packet_arena)) == 0 && visit)
				visit(s, i, off, ctx);
		}
		unmap_file(s);
	}
	return rc;
}

/* S as before walk_packets(), its stream class SC. */
static void rewind_packets(ctf_stream_iter *s, ctf_stream_class *sc)
{
	s->sc = sc;
	s->cur_file = 0;
	s->clock_value = 0;
	s->last_event_cycles = 0;
	s->dontneed_mark = 0;
}

int ctf_check_packets(ctf_stream_iter *s)
{
	/* A context running past the content, or a packet of another
	 * stream class, is found while decoding, after the events before
	 * it, as babeltrace2 finds them. */
	ctf_stream_class *first = s->sc;
	int rc = walk_packets(s, NULL, NULL);
	rewind_packets(s, first);
	return rc;
}

static void set_time(const ctf_stream_iter *s, uint64_t cycles, uint64_t *out_cycles, tc_time *out, bool *ok)
{
	*out_cycles = cycles;
	*ok = s->sc->pub.clock && tc_clock_cycles_to_time(s->sc->pub.clock, cycles, out);
}

/* Queues the discarded-events and discarded-packets reports the counters
 * of the packet just opened reveal, relative to the previous packet. */
static void queue_discards(ctf_stream_iter *s)
{
	const ctf_packet *p = &s->pkt;
	const ctf_stream_class *sc = s->sc;
	bool ranges = sc->has_ts_begin && sc->has_ts_end;
	s->pending_count = s->pending_next = 0;
	if (sc->pub.has_discarded_events && p->has_discarded) {
		uint64_t count = 0;
		bool report = false, ok1 = true, ok2 = true;
		tc_message *m = &s->pending[s->pending_count];
		memset(m, 0, sizeof *m);
		if (!s->have_prev) {
			/* "may have discarded": count unknown */
			report = p->discarded != 0 && !s->trace->quirks.quiet_first_discards;
			if (report && ranges) {
				set_time(s, p->ts_begin, &m->cycles, &m->time, &ok1);
				set_time(s, p->ts_end, &m->end_cycles, &m->end_time, &ok2);
			}
		} else if (p->discarded != s->prev_discarded) {
			count = p->discarded - s->prev_discarded;
			report = true;
			if (ranges) {
				set_time(s, s->prev_end, &m->cycles, &m->time, &ok1);
				set_time(s, p->ts_end, &m->end_cycles, &m->end_time, &ok2);
			}
		}
		if (report) {
			m->kind = TC_MSG_DISCARDED_EVENTS;
			m->stream = &s->stream->pub;
			m->count = count;
			m->has_range = ranges && ok1 && ok2;
			m->has_time = m->has_range;
			s->pending_count++;
		}
	}
	if (sc->pub.has_packet_seq_num && p->has_seq && s->have_prev && p->seq - s->prev_seq > 1) {
		tc_message *m = &s->pending[s->pending_count];
		bool ok1 = true, ok2 = true;
		memset(m, 0, sizeof *m);
		m->kind = TC_MSG_DISCARDED_PACKETS;
		m->stream = &s->stream->pub;
		m->count = p->seq - s->prev_seq - 1;
		if (ranges) {
			set_time(s, s->prev_end, &m->cycles, &m->time, &ok1);
			set_time(s, p->ts_begin, &m->end_cycles, &m->end_time, &ok2);
		}
		m->has_range = ranges && ok1 && ok2;
		m->has_time = m->has_range;
		s->pending_count++;
	}
}

static int open_file(ctf_stream_iter *s)
{
	unmap_file(s);
	s->dontneed_mark = 0;
	return map_file(s, &s->files[s->cur_file]);
}

/* Opens the next packet, its fields into ARENA: 1 when one is ready, 0 at
 * the end of the stream. */
static int next_packet(ctf_stream_iter *s, ctf_arena *arena)
{
	for (;;) {
		if (!s->file_open) {
			if (s->cur_file >= s->file_count)
				return 0;
			int rc = open_file(s);
			if (rc < 0)
				return rc;
			s->file_open = true;
			s->offset = 0;
		}
		if (s->offset < s->map_size)
			break;
		unmap_file(s);
		s->file_open = false;
		s->cur_file++;
	}
	give_back_pages(s, s->offset);
	int rc = read_packet_start(s, s->offset, true, arena);
	if (rc < 0)
		return rc;
	const tc_clock *clk = s->sc->pub.clock;
	s->clock_is_1ghz = clk && clk->freq == 1000000000u && tc_clock_origin_time(clk, &s->clock_origin);
	queue_discards(s);
	s->in_packet = true;
	s->last_event_cycles = s->pkt.ts_begin;
	return 1;
}

static void close_packet(ctf_stream_iter *s)
{
	const ctf_packet *p = &s->pkt;
	const ctf_quirks *q = &s->trace->quirks;
	uint64_t end = p->has_ts_end ? p->ts_end : s->clock_value;
	/* Tracer bugs babeltrace2 works around (doc/formats/ctf.md §10.1): the
	 * packet really ended at its last event. */
	if (p->has_ts_end && ((q->lttng_crash && p->ts_begin != 0 && p->ts_end == 0) ||
	                      (q->lttng_event_after_packet && s->last_event_cycles > p->ts_end)))
		end = s->last_event_cycles;
	else if (p->has_ts_end)
		s->clock_value = p->ts_end;
	s->have_prev = true;
	s->prev_end = end;
	s->prev_discarded = p->discarded;
	s->prev_seq = p->seq;
	s->offset += p->packet_bits / 8;
	s->in_packet = false;
	tc_count_read(s->base.bytes_read, p->packet_bits / 8);
}

/* The event's scopes after its header, into M; CTF_ARENA_RETRY when the
 * arena filled up.  Roots of absent scopes are never looked up: a length
 * or tag only refers to scopes of its own event's layout. */
static int decode_event_fields(ctf_stream_iter *s, tc_message *m, uint64_t start)
{
	ctf_decoder *d = &s->dec;
	const ctf_stream_class *sc = s->sc;
	const ctf_event_entry *entry;
	tc_field *root;
	int rc;
	bool header_passed = false;
	d->have_id = false;
	if (sc->pub.event_header) {
		/* No message shows the header's fields: only the general path
		 * may read them, and it has the header decoded again. */
		rc = CTF_FIXED_FALLBACK;
		if (sc->header_plan)
			header_passed = (rc = ctf_pass_fixed_header(d, sc->header_plan)) == 0;
		if (rc == CTF_FIXED_FALLBACK)
			rc = ctf_decode_scope(d, SCOPE_EVENT_HEADER, sc->pub.event_header, &root);
		if (rc != 0)
			return rc;
	}
	if (d->have_id)
		entry = ctf_event_entry_by_id(sc, d->id);
	else
		entry = sc->pub.event_class_count == 1 ? &sc->entries[0] : NULL;
	if (TC_UNLIKELY(!entry)) {
		if (d->have_id)
			return tc_fail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + start / 8), "unknown event class id %" PRIu64 " in stream class %" PRIu64, d->id, sc->pub.id);
		return tc_fail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + start / 8), "event without an id in a stream class with %zu event classes", sc->pub.event_class_count);
	}
	const tc_event_class *ec = entry->ec;
	m->event_class = ec;
	m->cycles = s->clock_value;
	if (entry->plan) {
		if (s->values_wanted && !s->values_wanted[entry - sc->entries])
			rc = ctf_pass_fixed_event(d, entry->plan, m);
		else
			rc = ctf_decode_fixed_event(d, entry->plan, m);
		if (rc != CTF_FIXED_FALLBACK)
			return rc;
	}
	if (header_passed) {
		/* The general path may read the header's fields. */
		d->pos = start;
		if ((rc = ctf_decode_fixed_header(d, sc->header_plan, &root)) != 0)
			return rc;
	}
	const tc_field_class *const scopes[3] = { sc->pub.event_context, ec->context, ec->payload };
	const tc_field **const slots[3] = { &m->stream_event_context, &m->event_context, &m->payload };
	for (int i = 0; i < 3; i++) {
		*slots[i] = NULL;
		if (!scopes[i])
			continue;
		if ((rc = ctf_decode_scope(d, (ctf_scope)(SCOPE_STREAM_EVENT_CONTEXT + i), scopes[i], &root)) != 0)
			return rc;
		if (!(scopes[i]->flags & TC_FIELD_HIDDEN))
			*slots[i] = root;
	}
	return 0;
}

/* Decodes the next event into M, its fields after those of ARENA; returns
 * 1, CTF_BATCH_FULL (nothing decoded) or < 0. */
static int decode_event(ctf_stream_iter *s, tc_message *m, ctf_arena *arena)
{
	ctf_decoder *d = &s->dec;
	uint64_t start = d->pos;
	int rc;
	d->arena = arena;
	decode_mark mark = mark_here(s);
	while ((rc = decode_event_fields(s, m, start)) == CTF_ARENA_RETRY) {
		/* Growing would move the fields of the events before. */
		if (mark.used > 0) {
			rewind_to(s, &mark);
			return CTF_BATCH_FULL;
		}
		if (grow_and_rewind(s, &mark) < 0)
			return TC_ENOMEM;
	}
	if (rc < 0)
		return rc;
	if (TC_UNLIKELY(d->pos == start))
		return tc_fail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + start / 8), "event of class \"%s\" occupies no bits (CTF forbids empty events)", m->event_class->name);
	m->kind = TC_MSG_EVENT;
	m->stream = &s->stream->pub;
	m->packet_context = s->pkt.context;
	m->has_time = s->sc->pub.clock != NULL;
	if (m->has_time) {
		bool ok = s->clock_is_1ghz ? tc_time_add_ns(s->clock_origin, m->cycles, &m->time)
		                           : tc_clock_cycles_to_time(s->sc->pub.clock, m->cycles, &m->time);
		if (!ok)
			return tc_fail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + start / 8), "event time overflows 64-bit seconds from the clock origin");
	}
	s->last_event_cycles = m->cycles;
	return 1;
}

static int stream_fill(tc_stream_iter *it, tc_batch *b)
{
	ctf_stream_iter *s = (ctf_stream_iter *)it;
	if (s->failure.rc)
		return tc_failure_again(&s->failure);
	ctf_batch_store *st = b->store;
	if (!st && !(st = b->store = calloc(1, sizeof *st)))
		return tc_fail_nomem();
	b->count = 0;
	int rc = 0;
	/* A batch that ran out of room grows now, while nothing points into
	 * its arena, until batches are full. */
	if (st->events_ran_out)
		rc = ctf_arena_grow(&st->events);
	st->events_ran_out = false;
	st->events.used = 0;
	if (rc == 0 && s->in_packet)
		rc = read_packet_scopes_again(s, &st->packet);
	while (rc >= 0 && b->count < b->cap && st->events.used < BATCH_SLOTS) {
		if (s->pending_next < s->pending_count) {
			b->msgs[b->count++] = s->pending[s->pending_next++];
			continue;
		}
		if (!s->in_packet) {
			if (b->count > 0)
				break;
			if ((rc = next_packet(s, &st->packet)) == 0)
				break;
			continue;
		}
		if (s->dec.pos >= s->dec.limit) {
			close_packet(s);
			continue;
		}
		rc = decode_event(s, &b->msgs[b->count], &st->events);
		if (rc == CTF_BATCH_FULL) {
			st->events_ran_out = b->count < b->cap / 2;
			rc = 0;
			break;
		}
		if (rc > 0)
			b->count++;
	}
	tc_failure_keep(&s->failure, rc);
	if (b->count == 0)
		return rc < 0 ? rc : 0;
	/* The batch's events all come from the current file: a batch ends
	 * with its packet, and the next file is opened by the next batch. */
	st->mapping = s->mapping;
	atomic_fetch_add_explicit(&st->mapping->refs, 1, memory_order_relaxed);
	return 1;
}

/* The clock value after the last event of the packet at OFF in file F
 * (its beginning time when it has none), decoding it from its start as
 * babeltrace2 does to mend its packet index (fs.c,
 * decode_packet_last_event_timestamp). */
static int last_event_cycles(ctf_stream_iter *s, size_t f, uint64_t off, uint64_t *cycles)
{
	ctf_arena events = { 0 };
	tc_message m;
	s->cur_file = f;
	s->clock_value = 0;
	int rc = map_file(s, &s->files[f]);
	if (rc == 0)
		rc = read_packet_start(s, off, true, &s->packet_arena);
	if (rc == 0) {
		const tc_clock *clk = s->sc->pub.clock;
		s->clock_is_1ghz = clk && clk->freq == 1000000000u && tc_clock_origin_time(clk, &s->clock_origin);
		s->last_event_cycles = s->pkt.ts_begin;
	}
	while (rc >= 0 && s->dec.pos < s->dec.limit) {
		events.used = 0;
		rc = decode_event(s, &m, &events);
	}
	*cycles = s->last_event_cycles;
	ctf_arena_free(&events);
	unmap_file(s);
	return rc < 0 ? rc : 0;
}

/* What stream_time_range() gathers from the packets: the first
 * beginning, and the packet that begins last. */
typedef struct packet_span {
	bool any;
	uint64_t first, last_begin, last_end, last_off;
	size_t last_file;
} packet_span;

static void span_packet(ctf_stream_iter *s, size_t file, uint64_t off, void *ctx)
{
	packet_span *sp = ctx;
	if (!s->pkt.has_ts_begin || !s->pkt.has_ts_end)
		return;
	if (!sp->any || s->pkt.ts_begin < sp->first)
		sp->first = s->pkt.ts_begin;
	if (!sp->any || s->pkt.ts_begin >= sp->last_begin) {
		sp->last_begin = s->pkt.ts_begin;
		sp->last_end = s->pkt.ts_end;
		sp->last_file = file;
		sp->last_off = off;
	}
	sp->any = true;
}

/*
 * The stream's time range as babeltrace2's source.ctf.fs gives it in its
 * `babeltrace.trace-infos` query (babeltrace2-query-babeltrace.trace-infos(7),
 * "range-ns"), from its packet index: from the beginning time of the packet
 * that begins first to the end time of the packet that begins last, every
 * file of the stream counted.  Where it works around tracer bugs
 * (doc/formats/ctf.md §10.1), that last end is the time of the packet's
 * last event.  Known only when the packets have both times and the stream
 * class a clock.  Reads every packet's header and context and leaves the
 * iterator as it was, so it runs before any event is read.
 */
static int stream_time_range(tc_stream_iter *it, tc_time *begin, tc_time *end)
{
	ctf_stream_iter *s = (ctf_stream_iter *)it;
	const ctf_stream_class *sc = (const ctf_stream_class *)it->stream->stream_class;
	if (!sc->pub.clock || !sc->has_ts_begin || !sc->has_ts_end)
		return 0;
	packet_span sp = { 0 };
	ctf_stream_class *saved_sc = s->sc;
	int rc = walk_packets(s, span_packet, &sp);
	const ctf_quirks *q = &s->trace->quirks;
	if (rc == 0 && sp.any &&
	    (q->lttng_event_after_packet || (q->lttng_crash && sp.last_end == 0 && sp.last_begin != 0))) {
		s->sc = NULL;
		rc = last_event_cycles(s, sp.last_file, sp.last_off, &sp.last_end);
	}
	rewind_packets(s, saved_sc);
	if (rc < 0)
		return rc;
	if (!sp.any || !tc_clock_cycles_to_time(sc->pub.clock, sp.first, begin) ||
	    !tc_clock_cycles_to_time(sc->pub.clock, sp.last_end, end))
		return 0;
	return 1;
}

static void stream_release(tc_stream_iter *it, tc_batch *b)
{
	ctf_batch_store *st = b->store;
	mapping_unref(st->mapping);
	st->mapping = NULL;
}

static void stream_free_store(void *store)
{
	ctf_batch_store *st = store;
	ctf_arena_free(&st->events);
	ctf_arena_free(&st->packet);
	free(st);
}

static void stream_free(tc_stream_iter *it)
{
	ctf_stream_iter *s = (ctf_stream_iter *)it;
	unmap_file(s);
	ctf_arena_free(&s->packet_arena);
	free(s->files);
	free(s);
}

/* The stream class's entries are its event classes in their order. */
static void stream_want_values(tc_stream_iter *it, const bool *wanted)
{
	((ctf_stream_iter *)it)->values_wanted = wanted;
}

const tc_stream_iter_ops ctf_stream_ops = {
	.free = stream_free,
	.fill = stream_fill,
	.release = stream_release,
	.free_store = stream_free_store,
	.want_values = stream_want_values,
	.time_range = stream_time_range,
};
