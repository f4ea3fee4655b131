/* SPDX-License-Identifier: MIT */
/*
 * stream.c - one (buffer, CPU) of a trace.dat file as a tc_stream_iter:
 * each record of the raw cursor becomes an event message whose fields are
 * decoded along the plans classes.c made.
 *
 * Fields go into an arena of slots owned by the iterator and reused for
 * every event (they stay valid until the next call, as messages do).  The
 * slots an event needs are counted before any is filled, so the arena
 * grows before decoding and no pointer into it moves mid-event.  Strings
 * point into the cursor's page, which also stays put until the next call.
 */
#include "tracedat/model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct td_iter {
	tc_stream_iter base;
	td_trace *t;
	td_stream_class *sc;
	tracedat_cursor *cursor;
	tc_time origin;              /* the time of the clock's zero */
	tc_field packet[2];          /* { cpu_id }: the same for every event */
	tc_field *slots;
	size_t slot_cap;
	/* A record waiting behind the discarded-events report made for it. */
	tracedat_record held;
	bool holding;
	bool have_last;              /* the previous event's time, for the */
	uint64_t last_cycles;        /* range of a discarded-events report */
	const td_event_plan *last_plan;  /* of the previous event */
	int failed;                  /* sticky error */
} td_iter;

static int64_t sign_extend(uint64_t v, uint32_t bytes)
{
	unsigned shift = 64 - 8 * bytes;
	return bytes >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

static void decode_int(const td_trace *t, const uint8_t *p, uint32_t bytes, bool is_signed, const tc_field_class *cls,
                       tc_field *out)
{
	uint64_t v = tracedat_read_uint(t->file, p, bytes);
	out->cls = cls;
	if (is_signed)
		out->v.s = sign_extend(v, bytes);
	else
		out->v.u = v;
}

/* Where a __data_loc / __rel_loc field's data are
 * (doc/formats/tracedat.md §9.4); an empty range when they would leave
 * the record, as libtraceevent reads it. */
static void locate(const td_trace *t, const td_field_plan *p, const tracedat_record *rec, uint32_t *start, uint32_t *len)
{
	const uint8_t *d = rec->data;
	uint32_t desc = (uint32_t)tracedat_read_uint(t->file, d + p->offset, 4);
	uint64_t off = desc & 0xFFFF, n = desc >> 16;
	if (p->relative)
		off += p->offset + p->size;
	if (off + n > rec->size)
		off = n = 0;
	*start = (uint32_t)off;
	*len = (uint32_t)n;
}

/* Elements of an array field P in REC, and where they start. */
static uint32_t element_count(const td_trace *t, const td_field_plan *p, const tracedat_record *rec, uint32_t *start)
{
	uint32_t room = rec->size > p->offset ? rec->size - p->offset : 0, len;
	*start = p->offset;
	switch (p->how) {
	case TD_ARRAY:
		/* A static array the record does not wholly hold is cut. */
		return p->count * p->elem_size <= room ? p->count : room / p->elem_size;
	case TD_TAIL_ARRAY:
		if (p->end_mark) {
			uint32_t n = 0;
			while (n < room / p->elem_size &&
			       (uint32_t)tracedat_read_uint(t->file, (const uint8_t *)rec->data + p->offset + n * p->elem_size, p->elem_size) != UINT32_MAX)
				n++;
			return n;
		}
		return room / p->elem_size;
	case TD_LOC_ARRAY:
		locate(t, p, rec, start, &len);
		return len / p->elem_size;
	default:
		return 0;
	}
}

/* Text: up to the first NUL of [START, START + LEN). */
static void decode_text(const tracedat_record *rec, uint32_t start, uint32_t len, const tc_field_class *cls, tc_field *out)
{
	const char *s = (const char *)rec->data + start;
	out->cls = cls;
	out->v.str.ptr = s;
	out->v.str.len = strnlen(s, len);
}

static void decode_field(const td_trace *t, const td_field_plan *p, const tracedat_record *rec, tc_field *out,
                         tc_field **next_slot)
{
	const uint8_t *d = rec->data;
	uint32_t start, len, n;
	switch (p->how) {
	case TD_INT:
		decode_int(t, d + p->offset, p->elem_size, p->is_signed, p->cls, out);
		if (p->transform == TD_X_PRIO)
			out->v.s -= 100;
		else if (p->transform == TD_X_PREV_STATE)
			out->v.u = td_lttng_prev_state(t, out->v.u);
		return;
	case TD_TEXT:
		start = p->offset < rec->size ? p->offset : rec->size;
		len = rec->size - start;
		if (!p->tail && p->size < len)
			len = p->size;
		decode_text(rec, start, len, p->cls, out);
		break;
	case TD_LOC_TEXT:
		locate(t, p, rec, &start, &len);
		decode_text(rec, start, len, p->cls, out);
		break;
	case TD_LENGTH:
		out->cls = p->cls;
		out->v.u = element_count(t, p + 1, rec, &start);
		return;
	default:
		n = element_count(t, p, rec, &start);
		out->cls = p->cls;
		out->v.compound.items = *next_slot;
		out->v.compound.count = n;
		for (uint32_t i = 0; i < n; i++)
			decode_int(t, d + start + i * p->elem_size, p->elem_size, p->is_signed, p->cls->element, &(*next_slot)[i]);
		*next_slot += n;
		return;
	}
	/* text */
	if (p->transform == TD_X_RWBS)
		out->v.u = td_lttng_rwbs(out->v.str.ptr, out->v.str.len);
}

/* A structure of N fields into ROOT, its members at *NEXT_SLOT. */
static void decode_struct(const td_trace *t, const tc_field_class *cls, const td_field_plan *plans, size_t n,
                          const tracedat_record *rec, tc_field *root, tc_field **next_slot)
{
	tc_field *members = *next_slot;
	*next_slot += n;
	root->cls = cls;
	root->v.compound.items = members;
	root->v.compound.count = n;
	for (size_t i = 0; i < n; i++)
		decode_field(t, &plans[i], rec, &members[i], next_slot);
}

size_t td_record_slots(const td_trace *t, const td_event_plan *plan, const tracedat_record *rec)
{
	size_t need = t->common_count + plan->field_count;
	for (size_t i = 0; i < plan->field_count; i++) {
		uint32_t start;
		need += element_count(t, &plan->fields[i], rec, &start);
	}
	return need;
}

void td_decode_record(const td_trace *t, const td_event_plan *plan, const tracedat_record *rec, tc_field *context,
                      tc_field *payload, tc_field *slots)
{
	decode_struct(t, t->common, t->common_fields, t->common_count, rec, context, &slots);
	if (plan->payload)
		decode_struct(t, plan->payload, plan->fields, plan->field_count, rec, payload, &slots);
}

static int ensure_slots(td_iter *it, size_t need)
{
	return tc_array_reserve_n(&it->slots, &it->slot_cap, need, sizeof *it->slots, 64);
}

static int record_fail(td_iter *it, const tracedat_record *rec, const char *fmt, ...) TC_PRINTF(3, 4);
static int record_fail(td_iter *it, const tracedat_record *rec, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return tc_fail(TC_EFORMAT, it->t->pub.path, (int64_t)rec->offset, "CPU %d: %s", rec->cpu, msg);
}

/* REC as an event message: 1, or 0 when no format describes it. */
static int decode_event(td_iter *it, const tracedat_record *rec, tc_message *m)
{
	const td_trace *t = it->t;
	if (t->plan_count == 0)
		return 0;
	if (rec->size < t->common_size)
		return record_fail(it, rec, "event of %" PRIu32 " bytes, too short for its %" PRIu32 " bytes of common fields", rec->size, t->common_size);
	uint64_t id = tracedat_read_uint(t->file, (const uint8_t *)rec->data + t->type_offset, t->type_size);
	size_t index = id < t->id_limit ? t->plan_by_id[id] : 0;
	if (index == 0)
		return 0;
	const td_event_plan *plan = &t->plans[index - 1];
	if (rec->size < plan->min_size)
		return record_fail(it, rec, "%s event of %" PRIu32 " bytes, its format needs %" PRIu32, plan->name, rec->size, plan->min_size);
	if (plan->by_nr) {
		plan = td_lttng_syscall_plan(t, plan, rec->data);
		index = (size_t)(plan - t->plans) + 1;
		/* With both syscalls:* and raw_syscalls recorded, the kernel
		 * writes the named event, then the raw one: one event, once. */
		if (plan->twin && it->last_plan == &t->plans[plan->twin - 1]) {
			it->last_plan = NULL;
			return 0;
		}
	}
	it->last_plan = plan;
	/* Every slot the event needs, then the decoding, which cannot fail. */
	if (ensure_slots(it, 2 + td_record_slots(t, plan, rec)) < 0)
		return TC_ENOMEM;
	tc_field *context = &it->slots[0], *payload = &it->slots[1];
	td_decode_record(t, plan, rec, context, payload, &it->slots[2]);
	memset(m, 0, sizeof *m);
	m->kind = TC_MSG_EVENT;
	m->stream = it->base.stream;
	m->event_class = &it->sc->classes[index - 1];
	m->packet_context = &it->packet[0];
	m->stream_event_context = context;
	m->payload = plan->payload ? payload : NULL;
	m->cycles = tracedat_ts_to_ns(t->file, rec->cpu, rec->ts);
	m->has_time = true;
	if (!tc_time_add_ns(it->origin, m->cycles, &m->time))
		return record_fail(it, rec, "event time overflows 64-bit seconds");
	it->have_last = true;
	it->last_cycles = m->cycles;
	return 1;
}

/* The report of events the kernel lost before REC (§8.2): between
 * the previous event of this CPU and REC, when there was one. */
static void discarded_message(td_iter *it, const tracedat_record *rec, tc_message *m)
{
	memset(m, 0, sizeof *m);
	m->kind = TC_MSG_DISCARDED_EVENTS;
	m->stream = it->base.stream;
	m->count = rec->missed_count;
	if (it->have_last) {
		m->cycles = it->last_cycles;
		m->end_cycles = tracedat_ts_to_ns(it->t->file, rec->cpu, rec->ts);
		m->has_range = tc_time_add_ns(it->origin, m->cycles, &m->time) &&
		               tc_time_add_ns(it->origin, m->end_cycles, &m->end_time);
		m->has_time = m->has_range;
	}
}

static int iter_next(tc_stream_iter *base, tc_message *m)
{
	td_iter *it = (td_iter *)base;
	if (it->failed)
		return it->failed;
	for (;;) {
		tracedat_record rec;
		int rc;
		if (it->holding) {
			rec = it->held;
			it->holding = false;
		} else {
			rc = tracedat_cursor_next(it->cursor, &rec);
			if (rc < 0)
				it->failed = rc;
			if (rc <= 0)
				return rc;
			if (rec.missed_events) {
				/* The record's bytes stay valid: the cursor is not
				 * called again before it is decoded. */
				discarded_message(it, &rec, m);
				it->held = rec;
				it->holding = true;
				return 1;
			}
		}
		rc = decode_event(it, &rec, m);
		if (rc < 0)
			it->failed = rc;
		if (rc != 0)
			return rc;
	}
}

static void iter_free(tc_stream_iter *base)
{
	td_iter *it = (td_iter *)base;
	tracedat_cursor_close(it->cursor);
	free(it->slots);
	free(it);
}

static const tc_stream_iter_ops td_iter_ops = { .next = iter_next, .free = iter_free };

int td_stream_iter_add(tc_input *in, td_trace *t, td_stream_class *sc, tc_stream *stream)
{
	td_iter *it = calloc(1, sizeof *it);
	if (!it)
		return tc_fail_nomem();
	it->base.ops = &td_iter_ops;
	it->base.stream = stream;
	it->t = t;
	it->sc = sc;
	it->packet[0].cls = t->packet_context;
	it->packet[0].v.compound.items = &it->packet[1];
	it->packet[0].v.compound.count = 1;
	it->packet[1].cls = t->packet_context->members[0].cls;
	it->packet[1].v.u = (uint64_t)stream->cpu;
	int rc = 0;
	if (!tc_clock_origin_time(sc->pub.clock, &it->origin))
		rc = tc_fail(TC_EINVAL, t->pub.path, -1, "clock offset overflows");
	if (rc == 0)
		rc = tracedat_cursor_open(t->file, sc->buffer_index, stream->cpu, &it->cursor);
	if (rc == 0)
		rc = tc_input_add_iter(in, &it->base);
	if (rc < 0) {
		iter_free(&it->base);
		return rc;
	}
	tracedat_cursor_count_into(it->cursor, it->base.bytes_read);
	return 0;
}
