/* SPDX-License-Identifier: MIT */
/*
 * records.c - the records of a perf.data data section: each record's
 * header (struct perf_event_header: type, misc, size), the body of a
 * PERF_RECORD_SAMPLE in the order perf_event.h gives its sample_type
 * fields, and the sample_id trailer the kernel's other records carry when
 * their attribute has sample_id_all.
 *
 * Which attribute a record belongs to is said by its id (IDENTIFIER, or
 * ID at the place the first attribute's sample_type puts it, as perf's
 * evlist id_pos and is_pos do); a single attribute needs none, and id 0
 * (perf's synthesized records, whose trailer is zeroed) is the first
 * attribute's, as evlist__event2evsel() has it.
 */
#include "perf/perf.h"

#include <inttypes.h>

/* read_format bits (perf_event.h, enum perf_event_read_format). */
enum {
	READ_ENABLED = 1,
	READ_RUNNING = 2,
	READ_ID = 4,
	READ_GROUP = 8,
	READ_LOST = 16
};

int perf_record_at(const perf_file *f, uint64_t off, perf_record *r)
{
	if (off >= f->data_end)
		return 0;
	if (f->data_end - off < 8)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)off, "record header cut by the end of the data section (%" PRIu64 " bytes left)",
		               f->data_end - off);
	r->p = f->map + off;
	r->offset = off;
	r->type = perf_u32(f, r->p);
	r->misc = perf_u16(f, r->p + 4);
	r->size = perf_u16(f, r->p + 6);
	if (r->size < 8)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)off, "record of type %" PRIu32 " says it has %" PRIu64 " bytes, fewer than its header", r->type, r->size);
	if (r->size > f->data_end - off)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)off, "record of type %" PRIu32 " and %" PRIu64 " bytes runs past the end of the data section at byte %" PRIu64,
		               r->type, r->size, f->data_end);
	r->next = off + r->size;
	if (r->type == PERF_REC_HEADER_TRACING_DATA) {
		/* Pipe mode: the tracing data follow the record, to 8 bytes. */
		if (r->size < 12)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)off, "tracing data record of %" PRIu64 " bytes, too short for its size", r->size);
		uint64_t size = ((uint64_t)perf_u32(f, r->p + 8) + 7) & ~(uint64_t)7;
		if (size > f->data_end - r->next)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)off + 8, "tracing data of %" PRIu64 " bytes run past the end of the file", size);
		r->next += size;
	}
	if (r->type == PERF_REC_AUXTRACE) {
		/* The trace data follow the record (perf_record_auxtrace.size). */
		if (r->size < 16)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)off, "AUXTRACE record of %" PRIu64 " bytes, too short for its data size", r->size);
		uint64_t aux = perf_u64(f, r->p + 8);
		if (aux > f->data_end - r->next)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)off + 8, "AUXTRACE data of %" PRIu64 " bytes run past the end of the data section", aux);
		r->next += aux;
	}
	return 1;
}

/* The attribute of sample id ID. */
static int attr_of_id(const perf_file *f, const perf_record *r, uint64_t id, const perf_attr **out)
{
	if (id == 0 || f->attr_count == 1) {
		*out = &f->attrs[0];
		return 0;
	}
	size_t lo = 0, hi = f->id_count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (f->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->id_count || f->ids[lo].id != id)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "record of type %" PRIu32 " has the sample id %" PRIu64 ", which no attribute has",
		               r->type, id);
	*out = &f->attrs[f->ids[lo].attr];
	return 0;
}

/* Reading a record body: where we are, checked against its end. */
typedef struct body {
	const perf_file *f;
	const perf_record *r;
	uint64_t pos;   /* from the record's start */
} body;

static int b_need(const body *b, uint64_t n, const char *what)
{
	if (n > b->r->size - b->pos)
		return tc_fail(TC_EFORMAT, b->f->path, (int64_t)(b->r->offset + b->pos), "sample record of %" PRIu64 " bytes ends inside its %s",
		               b->r->size, what);
	return 0;
}

static int b_u64(body *b, uint64_t *v, const char *what)
{
	int rc = b_need(b, 8, what);
	if (rc == 0) {
		*v = perf_u64(b->f, b->r->p + b->pos);
		b->pos += 8;
	}
	return rc;
}

/* Two u32s (pid and tid, cpu and its padding). */
static int b_pair(body *b, uint32_t *x, uint32_t *y, const char *what)
{
	int rc = b_need(b, 8, what);
	if (rc == 0) {
		*x = perf_u32(b->f, b->r->p + b->pos);
		*y = perf_u32(b->f, b->r->p + b->pos + 4);
		b->pos += 8;
	}
	return rc;
}

static int skip_read(body *b, uint64_t rf)
{
	uint64_t per = 8 + (rf & READ_ID ? 8 : 0) + (rf & READ_LOST ? 8 : 0), nr = 1;
	int rc = 0;
	if (rf & READ_GROUP)
		rc = b_u64(b, &nr, "read group count");
	uint64_t times = (rf & READ_ENABLED ? 8 : 0) + (rf & READ_RUNNING ? 8 : 0);
	if (rc == 0 && nr > (b->r->size - b->pos) / per)
		return b_need(b, UINT64_MAX, "read values");
	if (rc == 0 && (rc = b_need(b, times + nr * per, "read values")) == 0)
		b->pos += times + nr * per;
	return rc;
}

/* The body of a SAMPLE record of attribute A. */
static int parse_sample_body(const perf_file *f, const perf_record *r, const perf_attr *a, perf_sample *s)
{
	body b = { f, r, 8 };
	uint64_t st = a->sample_type, skip;
	uint32_t pad;
	int rc = 0;
	if (st & PERF_S_IDENTIFIER)
		rc = b_u64(&b, &skip, "identifier");
	if (rc == 0 && st & PERF_S_IP)
		rc = b_u64(&b, &s->ip, "ip");
	if (rc == 0 && st & PERF_S_TID)
		rc = b_pair(&b, &s->pid, &s->tid, "pid and tid");
	if (rc == 0 && st & PERF_S_TIME) {
		rc = b_u64(&b, &s->time, "time");
		s->has_time = true;
	}
	if (rc == 0 && st & PERF_S_ADDR)
		rc = b_u64(&b, &s->addr, "addr");
	if (rc == 0 && st & PERF_S_ID)
		rc = b_u64(&b, &skip, "id");
	if (rc == 0 && st & PERF_S_STREAM_ID)
		rc = b_u64(&b, &skip, "stream id");
	if (rc == 0 && st & PERF_S_CPU) {
		rc = b_pair(&b, &s->cpu, &pad, "cpu");
		s->has_cpu = true;
	}
	if (rc == 0 && st & PERF_S_PERIOD)
		rc = b_u64(&b, &s->period, "period");
	if (rc == 0 && st & PERF_S_READ)
		rc = skip_read(&b, a->read_format);
	if (rc == 0 && st & PERF_S_CALLCHAIN) {
		uint64_t nr;
		if ((rc = b_u64(&b, &nr, "call chain length")) == 0 && nr > (r->size - b.pos) / 8)
			rc = b_need(&b, UINT64_MAX, "call chain");
		if (rc == 0) {
			s->callchain = r->p + b.pos;
			s->callchain_nr = nr;
			b.pos += nr * 8;
		}
	}
	if (rc == 0 && st & PERF_S_RAW) {
		uint32_t size;
		if ((rc = b_need(&b, 4, "raw data size")) == 0) {
			size = perf_u32(f, r->p + b.pos);
			b.pos += 4;
			if ((rc = b_need(&b, size, "raw data")) == 0) {
				s->raw = r->p + b.pos;
				s->raw_size = size;
				s->raw_offset = (int64_t)(r->offset + b.pos);
			}
		}
	}
	/* What follows RAW (branch stacks, registers, user stacks...) is
	 * not read yet. */
	return rc;
}

/* The sample_id trailer of a record of attribute A (struct sample_id:
 * tid, time, id, stream_id, cpu, identifier, as sample_type has them). */
static int parse_trailer(const perf_file *f, const perf_record *r, const perf_attr *a, perf_sample *s)
{
	if (r->size < 8 + (uint64_t)a->id_trailer)
		return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "record of type %" PRIu32 " and %" PRIu64 " bytes is too short for its %" PRIu32 "-byte sample id",
		               r->type, r->size, a->id_trailer);
	const uint8_t *p = r->p + r->size - a->id_trailer;
	uint64_t st = a->sample_type;
	if (st & PERF_S_TID) {
		s->pid = perf_u32(f, p);
		s->tid = perf_u32(f, p + 4);
		p += 8;
	}
	if (st & PERF_S_TIME) {
		s->time = perf_u64(f, p);
		s->has_time = true;
		p += 8;
	}
	p += st & PERF_S_ID ? 8 : 0;
	p += st & PERF_S_STREAM_ID ? 8 : 0;
	if (st & PERF_S_CPU) {
		s->cpu = perf_u32(f, p);
		s->has_cpu = true;
	}
	return 0;
}

int perf_parse_sample(const perf_file *f, const perf_record *r, perf_sample *s)
{
	memset(s, 0, sizeof *s);
	const perf_attr *first = &f->attrs[0];
	uint64_t st = first->sample_type, id = 0;
	int rc;
	if (r->type >= PERF_REC_USER_FIRST)
		return 0;
	if (r->type == PERF_REC_SAMPLE) {
		/* ID's place: after IP, TID, TIME and ADDR, when present. */
		uint64_t at = st & PERF_S_IDENTIFIER ? 8 : 8 + 8 * (uint64_t)(!!(st & PERF_S_IP) + !!(st & PERF_S_TID) + !!(st & PERF_S_TIME) + !!(st & PERF_S_ADDR));
		if (f->attr_count > 1 && !(st & (PERF_S_IDENTIFIER | PERF_S_ID)))
			return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "several attributes, but samples carry no id to tell which");
		if (f->attr_count > 1 && r->size < at + 8)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "sample record of %" PRIu64 " bytes ends before its id", r->size);
		if (f->attr_count > 1)
			id = perf_u64(f, r->p + at);
		if ((rc = attr_of_id(f, r, id, &s->attr)) < 0)
			return rc;
		return parse_sample_body(f, r, s->attr, s);
	}
	if (!first->sample_id_all)
		return 0;
	if (f->attr_count > 1 && (st & (PERF_S_IDENTIFIER | PERF_S_ID))) {
		/* ID's place from the end: before STREAM_ID and CPU. */
		uint64_t back = st & PERF_S_IDENTIFIER ? 8 : 8 * (uint64_t)(1 + !!(st & PERF_S_STREAM_ID) + !!(st & PERF_S_CPU));
		if (r->size < 8 + back)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)r->offset, "record of type %" PRIu32 " and %" PRIu64 " bytes ends before its sample id", r->type, r->size);
		id = perf_u64(f, r->p + r->size - back);
	}
	if ((rc = attr_of_id(f, r, id, &s->attr)) < 0)
		return rc;
	return parse_trailer(f, r, s->attr, s);
}
