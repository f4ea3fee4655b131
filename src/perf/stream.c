/* SPDX-License-Identifier: MIT */
/*
 * stream.c - one stream of a perf.data file (the records of one CPU, or of
 * none) as a tc_stream_iter, in time order (order.c).
 *
 * Fields go into an arena of slots owned by the iterator and reused for
 * every event (valid until the next call, as messages are); strings point
 * into the mapping.
 */
#include "perf/perf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct perf_iter {
	tc_stream_iter base;
	perf_trace *t;
	perf_order order;
	tc_field packet[2];          /* { cpu_id }: the same for every event */
	tc_field *slots;
	size_t slot_cap;
	bool have_last;              /* the previous event's time, for the */
	uint64_t last_time;          /* range of a discarded-events report */
	int failed;                  /* sticky error */
} perf_iter;

/* NEED is bounded by the record's size (a u16: perf.data-file-format.txt,
 * "struct perf_event_header"), so it fits a size_t. */
static int ensure_slots(perf_iter *it, size_t need)
{
	return tc_array_reserve_n(&it->slots, &it->slot_cap, need, sizeof *it->slots, 64);
}

static void set_int(tc_field *f, const tc_field_class *cls, uint64_t v)
{
	f->cls = cls;
	f->v.u = v;
}

static void set_s32(tc_field *f, const tc_field_class *cls, uint32_t v)
{
	f->cls = cls;
	f->v.s = (int32_t)v;
}

/* The fields of a SAMPLE of attribute S->attr into M's context and
 * payload (perf.h).  The slots: the context, the payload, their members,
 * the call chain's addresses, then what the tracepoint's record needs. */
static int decode_sample(perf_iter *it, const perf_record *r, const perf_sample *s, tc_message *m)
{
	perf_trace *t = it->t;
	const perf_attr *a = s->attr;
	const td_event_plan *plan = a->plan;
	const tc_event_class *ec = a->ec;
	tracedat_record rec = { .data = s->raw, .size = s->raw_size, .offset = (uint64_t)s->raw_offset };
	size_t common = 0, ctx_n = a->field_count, pay_n = ec->payload ? ec->payload->member_count : 0;
	uint64_t need = 2 + ctx_n + pay_n + s->callchain_nr;
	if (plan) {
		const td_trace *td = &t->td;
		if (!s->raw || s->raw_size < td->common_size || s->raw_size < plan->min_size)
			return tc_fail(TC_EFORMAT, t->file.path, s->raw ? s->raw_offset : (int64_t)r->offset,
			               "%s sample with %" PRIu32 " bytes of raw data, its format needs %" PRIu32, plan->name, s->raw_size,
			               plan->min_size > td->common_size ? plan->min_size : td->common_size);
		common = td->common_count;
		need += 2 + td_record_slots(td, plan, &rec);
	}
	if (ensure_slots(it, (size_t)need) < 0)
		return TC_ENOMEM;
	tc_field *ctx = &it->slots[0], *payload = &it->slots[1], *ctx_items = &it->slots[2];
	tc_field *pay_items = ctx_items + ctx_n, *chain = pay_items + pay_n, *next = chain + s->callchain_nr;
	if (plan) {
		tc_field *td_ctx = next, *td_payload = next + 1;
		td_decode_record(&t->td, plan, &rec, td_ctx, td_payload, next + 2);
		memcpy(ctx_items, td_ctx->v.compound.items, common * sizeof *ctx_items);
		if (a->format_count)
			memcpy(pay_items, td_payload->v.compound.items, a->format_count * sizeof *pay_items);
	}
	const tc_field_class *cls = ec->context;
	size_t i = common;
	uint64_t st = a->sample_type;
	if (st & PERF_S_IP)
		set_int(&ctx_items[i], cls->members[i].cls, s->ip), i++;
	if (st & PERF_S_TID) {
		set_s32(&ctx_items[i], cls->members[i].cls, s->pid), i++;
		set_s32(&ctx_items[i], cls->members[i].cls, s->tid), i++;
	}
	if (st & PERF_S_ADDR)
		set_int(&ctx_items[i], cls->members[i].cls, s->addr), i++;
	if (st & PERF_S_PERIOD)
		set_int(&ctx_items[i], cls->members[i].cls, s->period), i++;
	if (st & PERF_S_CALLCHAIN) {
		size_t k = a->format_count;
		const tc_field_class *seq = ec->payload->members[k + 1].cls;
		set_int(&pay_items[k], ec->payload->members[k].cls, s->callchain_nr);
		pay_items[k + 1].cls = seq;
		pay_items[k + 1].v.compound.items = chain;
		pay_items[k + 1].v.compound.count = (size_t)s->callchain_nr;
		for (uint64_t j = 0; j < s->callchain_nr; j++)
			set_int(&chain[j], seq->element, perf_u64(&t->file, s->callchain + 8 * j));
	}
	if (cls) {
		ctx->cls = cls;
		ctx->v.compound.items = ctx_items;
		ctx->v.compound.count = i;
		m->event_context = ctx;
	}
	if (ec->payload) {
		payload->cls = ec->payload;
		payload->v.compound.items = pay_items;
		payload->v.compound.count = pay_n;
		m->payload = payload;
	}
	m->event_class = ec;
	return 0;
}

/* Where a field of a task record is: its byte offset and width. */
typedef struct field_at {
	uint8_t offset, width;
} field_at;

/* A task record (perf_event.h's layouts) as the payload of EC: the N
 * fields AT, then a string at STRING_AT when it is not 0. */
static int decode_task(perf_iter *it, const perf_record *r, const perf_sample *s, const tc_event_class *ec,
                       const field_at *at, size_t n, uint32_t string_at, tc_message *m)
{
	const perf_file *f = &it->t->file;
	uint64_t trailer = s->attr ? s->attr->id_trailer : 0, end = r->size > trailer ? r->size - trailer : 0;
	uint64_t fixed = string_at ? string_at : (uint64_t)at[n - 1].offset + at[n - 1].width;
	if (end < fixed)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "%s record of %" PRIu64 " bytes, too short for its fields",
		               ec->name + 5, r->size);
	size_t members = n + (string_at != 0);
	if (ensure_slots(it, 1 + members) < 0)
		return TC_ENOMEM;
	tc_field *root = &it->slots[0], *items = &it->slots[1];
	const tc_field_class *cls = ec->payload;
	for (size_t i = 0; i < n; i++) {
		const tc_field_class *c = cls->members[i].cls;
		const uint8_t *p = r->p + at[i].offset;
		if (c->is_signed)
			set_s32(&items[i], c, perf_u32(f, p));
		else
			set_int(&items[i], c, at[i].width == 8 ? perf_u64(f, p) : perf_u32(f, p));
	}
	if (string_at) {
		const char *str = (const char *)r->p + string_at;
		items[n].cls = cls->members[n].cls;
		items[n].v.str.ptr = str;
		items[n].v.str.len = strnlen(str, (size_t)(end - string_at));
	}
	root->cls = cls;
	root->v.compound.items = items;
	root->v.compound.count = members;
	m->event_class = ec;
	m->payload = root;
	return 0;
}

/* The record at OFFSET as message M. */
static int decode(perf_iter *it, uint64_t offset, tc_message *m)
{
	perf_trace *t = it->t;
	perf_record r;
	perf_sample s;
	int rc = perf_record_at(&t->file, offset, &r);
	if (rc >= 0)
		rc = perf_parse_sample(&t->file, &r, &s);
	if (rc < 0)
		return rc;
	/* MMAP2's device, inode and generation (or build id), bytes 40 to
	 * 63, are not kept. */
	static const field_at comm[] = { { 8, 4 }, { 12, 4 } },
	                      fork[] = { { 8, 4 }, { 12, 4 }, { 16, 4 }, { 20, 4 }, { 24, 8 } },
	                      mmap[] = { { 8, 4 }, { 12, 4 }, { 16, 8 }, { 24, 8 }, { 32, 8 } },
	                      mmap2[] = { { 8, 4 }, { 12, 4 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 64, 4 }, { 68, 4 } };
	memset(m, 0, sizeof *m);
	m->stream = it->base.stream;
	m->packet_context = &it->packet[0];
	m->cycles = s.time;
	m->has_time = true;
	if (!tc_time_add_ns(t->origin, m->cycles, &m->time))
		return tc_fail(TC_EFORMAT, t->file.path, (int64_t)offset, "event time overflows 64-bit seconds");
	switch (r.type) {
	case PERF_REC_SAMPLE:
		rc = decode_sample(it, &r, &s, m);
		break;
	case PERF_REC_COMM:
		rc = decode_task(it, &r, &s, t->comm, comm, 2, 16, m);
		break;
	case PERF_REC_FORK:
		rc = decode_task(it, &r, &s, t->fork, fork, 5, 0, m);
		break;
	case PERF_REC_EXIT:
		rc = decode_task(it, &r, &s, t->exit, fork, 5, 0, m);
		break;
	case PERF_REC_MMAP:
		rc = decode_task(it, &r, &s, t->mmap, mmap, 5, 40, m);
		break;
	case PERF_REC_MMAP2:
		rc = decode_task(it, &r, &s, t->mmap2, mmap2, 7, 72, m);
		break;
	case PERF_REC_LOST:
		if (r.size < 24)
			return tc_fail(TC_EFORMAT, t->file.path, (int64_t)offset, "LOST record of %" PRIu64 " bytes, too short for its count", r.size);
		m->kind = TC_MSG_DISCARDED_EVENTS;
		m->packet_context = NULL;
		m->count = perf_u64(&t->file, r.p + 16);
		m->has_time = m->has_range = it->have_last;
		if (it->have_last) {
			m->end_cycles = m->cycles;
			m->end_time = m->time;
			m->cycles = it->last_time;
			tc_time_add_ns(t->origin, m->cycles, &m->time);
		}
		return 0;
	}
	if (rc < 0)
		return rc;
	m->kind = TC_MSG_EVENT;
	it->have_last = true;
	it->last_time = s.time;
	return 0;
}

static int iter_next(tc_stream_iter *base, tc_message *m)
{
	perf_iter *it = (perf_iter *)base;
	if (it->failed)
		return it->failed;
	uint64_t offset;
	int rc = perf_order_next(&it->order, &offset);
	if (rc > 0 && (rc = decode(it, offset, m)) == 0)
		rc = 1;
	if (rc < 0)
		it->failed = rc;
	return rc;
}

static void iter_free(tc_stream_iter *base)
{
	perf_iter *it = (perf_iter *)base;
	perf_order_free(&it->order);
	free(it->slots);
	free(it);
}

static const tc_stream_iter_ops perf_iter_ops = { .next = iter_next, .free = iter_free };

int perf_stream_iter_add(tc_input *in, perf_trace *t, tc_stream *stream, uint64_t key)
{
	perf_iter *it = calloc(1, sizeof *it);
	if (!it)
		return tc_fail_nomem();
	it->base.ops = &perf_iter_ops;
	it->base.stream = stream;
	it->t = t;
	perf_order_init(&it->order, &t->file, key);
	it->packet[0].cls = t->packet_context;
	it->packet[0].v.compound.items = &it->packet[1];
	it->packet[0].v.compound.count = 1;
	it->packet[1].cls = t->packet_context->members[0].cls;
	it->packet[1].v.u = key == PERF_NO_CPU ? UINT32_MAX : key;
	int rc = tc_input_add_iter(in, &it->base);
	if (rc < 0)
		iter_free(&it->base);
	return rc;
}
