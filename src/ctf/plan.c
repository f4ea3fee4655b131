/* SPDX-License-Identifier: MIT */
/*
 * plan.c - the half of reading CTF metadata that does not depend on how it
 * is written (TSDL or JSON): classes allocated in the trace's pool, their
 * layouts compiled into decoding plans, stream-class tables and tracer
 * quirks.  See plan.h for the order a front end calls these in.
 */
#include "ctf/plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ctf_build_vfail(ctf_build *b, int64_t offset, int line, const char *fmt, va_list ap)
{
	if (b->err)
		return b->err;
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (line)
		b->err = tc_fail(TC_EFORMAT, b->path, offset, "metadata line %d: %s", line, msg);
	else if (offset >= 0)
		b->err = tc_fail(TC_EFORMAT, b->path, offset, "metadata: %s", msg);
	else
		b->err = tc_fail(TC_EFORMAT, b->path, -1, "metadata: %s", msg);
	return b->err;
}

int ctf_build_fail(ctf_build *b, int64_t offset, int line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ctf_build_vfail(b, offset, line, fmt, ap);
	va_end(ap);
	return b->err;
}

int ctf_build_fail_at(ctf_build *b, const tc_field_class *fc, const char *fmt, ...)
{
	const ctf_plan *pl = fc->priv;
	va_list ap;
	va_start(ap, fmt);
	ctf_build_vfail(b, (int64_t)pl->src_offset, pl->src_line, fmt, ap);
	va_end(ap);
	return b->err;
}

/* ---- classes ---- */

void *ctf_build_alloc(ctf_build *b, size_t size)
{
	void *p = tc_pool_alloc(b->pool, size);
	if (!p && !b->err)
		b->err = TC_ENOMEM;
	return p;
}

tc_field_class *ctf_build_class(ctf_build *b, tc_field_kind kind)
{
	tc_field_class *fc = ctf_build_alloc(b, sizeof *fc);
	ctf_plan *plan = ctf_build_alloc(b, sizeof *plan);
	if (!fc || !plan)
		return NULL;
	fc->kind = kind;
	fc->align = 1;
	fc->priv = plan;
	return fc;
}

tc_clock *ctf_find_clock(const ctf_trace *t, const char *name)
{
	for (size_t i = 0; i < t->pub.clock_count; i++)
		if (strcmp(t->pub.clocks[i]->name, name) == 0)
			return t->pub.clocks[i];
	return NULL;
}

/* Adds CYCLES (any sign) to C's offset, keeping offset < freq by moving
 * whole seconds. */
static void normalize(tc_clock *c, __int128 cycles)
{
	__int128 f = c->freq;
	__int128 s = cycles / f, r = cycles % f;
	if (r < 0) {
		r += f;
		s -= 1;
	}
	c->offset_s += (int64_t)s;
	c->offset = (uint64_t)r;
}

void ctf_clock_set_offset(tc_clock *c, uint64_t cycles, const tc_open_options *opts)
{
	__int128 total = cycles;
	/* --clock-offset-ns in whole cycles, rounded down as babeltrace2 does
	 * (it moves a negative offset into the seconds and truncates the
	 * positive rest): -500 ns on a 1 kHz clock is -1 cycle, not 0. */
	if (opts->clock_offset_ns) {
		__int128 ns_cycles = (__int128)opts->clock_offset_ns * c->freq;
		__int128 q = ns_cycles / 1000000000;
		if (ns_cycles % 1000000000 < 0)
			q--;
		total += q;
	}
	c->offset_s += opts->clock_offset_s;
	normalize(c, total);
}

bool ctf_alignment_ok(uint64_t align)
{
	return align && !(align & (align - 1)) && align <= (1u << 20);
}

/* ---- layouts ---- */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;
	return tc_add_u64(a, b, &r) ? r : UINT64_MAX;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return tc_mul_u64(a, b, &r) ? r : UINT64_MAX;
}

/* Fixed-layout members: their size and alignment never change, and one
 * load reads them.  Sets *BITS to their size; returns MEMBER_OTHER for any
 * other member. */
static ctf_member_kind fixed_layout(const tc_field_class *m, uint64_t *bits)
{
	if (plan_of(m)->whole_bytes) {
		*bits = m->size;
		if (m->kind == TC_FIELD_FLOAT)
			return MEMBER_FLOAT;
		bool swapped = m->size > 8 &&
		               (m->byte_order == TC_LITTLE_ENDIAN) != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
		switch (m->size) {
		case 8: return m->is_signed ? MEMBER_S8 : MEMBER_U8;
		case 16:
			if (swapped)
				return m->is_signed ? MEMBER_S16_SWAPPED : MEMBER_U16_SWAPPED;
			return m->is_signed ? MEMBER_S16 : MEMBER_U16;
		case 32:
			if (swapped)
				return m->is_signed ? MEMBER_S32_SWAPPED : MEMBER_U32_SWAPPED;
			return m->is_signed ? MEMBER_S32 : MEMBER_U32;
		default:
			return swapped ? MEMBER_U64_SWAPPED : MEMBER_U64;
		}
	}
	if (m->kind == TC_FIELD_ARRAY && (m->flags & TC_FIELD_TEXT) && m->encoding == TC_UTF8 && m->length < (1u << 20)) {
		*bits = m->length * 8;
		return MEMBER_TEXT;
	}
	return MEMBER_OTHER;
}

/* Whether array or sequence FC holds fixed-layout numbers, and how they
 * are read: each element starts aligned, so the next one is its size or
 * its alignment further, whichever is more (both powers of two).  Text
 * is read as a whole (decode.c: decode_elements), not by elements. */
static void element_layout(tc_field_class *fc)
{
	ctf_plan *pl = plan_of(fc);
	const tc_field_class *el = fc->element;
	uint64_t bits;
	ctf_member_kind k = fixed_layout(el, &bits);
	pl->numbers = k <= MEMBER_FLOAT && !(fc->flags & TC_FIELD_TEXT);
	if (!pl->numbers)
		return;
	pl->element_kind = (uint8_t)k;
	pl->element_stride = (uint32_t)((el->size > el->align ? el->size : el->align) / 8);
}

/* A variant member named after the tag written without dots, when an
 * earlier member of the structure has that name: relative references look
 * in the innermost structure first (doc/formats/ctf.md §3.4), so
 * resolve_ref resolves the tag to that member, and decoding can take it
 * from there instead of following the resolved path.  Returns its index,
 * or -1. */
static long sibling_tag(const tc_field_class *fc, size_t i)
{
	const tc_field_class *m = fc->members[i].cls;
	if (!m->tag_ref || strchr(m->tag_ref, '.'))
		return -1;
	for (size_t j = 0; j < i; j++)
		if (strcmp(fc->members[j].name, m->tag_ref) == 0)
			return fc->members[j].cls->kind == TC_FIELD_ENUM ? (long)j : -1;
	return -1;
}

static int compile_runs(ctf_build *b, tc_field_class *fc)
{
	ctf_plan *pl = plan_of(fc);
	/* at least one, so that the decoder's end pointer of an empty
	 * structure is never a null pointer plus 0 */
	pl->members = ctf_build_alloc(b, (fc->member_count ? fc->member_count : 1) * sizeof *pl->members);
	if (!pl->members)
		return b->err;
	if (!fc->member_count)
		return 0;
	size_t start = 0;
	uint64_t cur = 0;
	for (size_t i = 0; i < fc->member_count; i++) {
		const tc_field_class *m = fc->members[i].cls;
		ctf_member_plan *mp = &pl->members[i];
		uint64_t bits;
		mp->kind = (uint8_t)fixed_layout(m, &bits);
		if (!MEMBER_IS_FIXED(mp->kind)) {
			long tag = m->kind == TC_FIELD_VARIANT ? sibling_tag(fc, i) : -1;
			/* UTF-16/32 strings take the general path. */
			if (m->kind == TC_FIELD_STRING && m->encoding == TC_UTF8) {
				mp->kind = MEMBER_STRING;
			} else if (tag >= 0) {
				mp->kind = MEMBER_SIBLING_VARIANT;
				mp->tag_member = (uint32_t)tag;
			}
			start = i + 1;
			continue;
		}
		uint64_t off = (cur + m->align - 1) & ~(uint64_t)(m->align - 1);
		/* Offsets are kept in 32 bits: a run that would outgrow them
		 * ends here and a new one starts. */
		if (start < i && off + bits >= (uint64_t)1 << 32)
			start = i;
		ctf_member_plan *run = &pl->members[start];
		if (start == i) {
			cur = off = 0;
			run->lead_mask = m->align - 1;
		}
		mp->offset = (uint32_t)(off / 8);
		cur = off + bits;
		run->run_len = (uint32_t)(i - start + 1);
		run->run_bits = cur;
		if (m->align - 1 > run->align_mask)
			run->align_mask = m->align - 1;
	}
	/* A structure is aligned at least as much as each of its members
	 * (ctf_layout_update computes its alignment first), so a run starting
	 * with its first member needs no alignment of its own. */
	pl->members[0].lead_mask = 0;
	pl->members[0].align_mask = 0;
	pl->simple = pl->members[0].run_len + 1 >= fc->member_count;
	return 0;
}

/* Flattens LABELS' ranges into PL->label_ranges, values biased by 2^63
 * when IS_SIGNED so that one unsigned comparison orders them. */
static int label_ranges(ctf_build *b, ctf_plan *pl, const tc_enum_label *labels, size_t count, bool is_signed)
{
	uint64_t bias = is_signed ? (uint64_t)1 << 63 : 0;
	size_t n = 0;
	for (size_t l = 0; l < count; l++)
		n += labels[l].range_count;
	pl->label_ranges = ctf_build_alloc(b, (n ? n : 1) * sizeof *pl->label_ranges);
	if (!pl->label_ranges)
		return b->err;
	pl->label_range_count = 0;
	for (size_t l = 0; l < count; l++) {
		for (size_t r = 0; r < labels[l].range_count; r++) {
			uint64_t lo = labels[l].ranges[r].lo ^ bias, hi = labels[l].ranges[r].hi ^ bias;
			if (lo > hi)
				continue;   /* matches nothing */
			ctf_label_range *out = &pl->label_ranges[pl->label_range_count++];
			out->lo = lo;
			out->span = hi - lo;
			out->label = l;
		}
	}
	return 0;
}

int ctf_layout_update(ctf_build *b, tc_field_class *fc)
{
	ctf_plan *pl = plan_of(fc);
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
		pl->min_bits = fc->size;
		pl->whole_bytes = fc->size % 8 == 0 && (fc->size & (fc->size - 1)) == 0 && fc->align >= 8 &&
		                  !(fc->flags & TC_FIELD_BIT_REVERSED);
		if (fc->flags & TC_FIELD_VARLEN) {
			pl->min_bits = 8;
			pl->whole_bytes = false;
		}
		if (fc->kind == TC_FIELD_ENUM)
			return label_ranges(b, pl, fc->labels, fc->label_count, fc->is_signed);
		break;
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		pl->min_bits = fc->size;
		break;
	case TC_FIELD_FLOAT:
		pl->min_bits = fc->size;
		pl->whole_bytes = fc->align >= 8 && !(fc->flags & TC_FIELD_BIT_REVERSED);
		break;
	case TC_FIELD_STRING: pl->min_bits = 8; break;
	case TC_FIELD_STRUCT: {
		uint64_t sum = 0;
		for (size_t i = 0; i < fc->member_count; i++) {
			const tc_field_class *m = fc->members[i].cls;
			if (m->align > fc->align && m->kind != TC_FIELD_VARIANT)
				fc->align = m->align;
			sum = sat_add(sum, plan_of(m)->min_bits);
		}
		pl->min_bits = sum;
		return compile_runs(b, fc);
	}
	/* Arrays align as their element does, or more: CTF 2's
	 * minimum-alignment is set before this runs. */
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		if (fc->element->align > fc->align)
			fc->align = fc->element->align;
		pl->min_bits = fc->kind == TC_FIELD_ARRAY ? sat_mul(fc->length, plan_of(fc->element)->min_bits) : 0;
		element_layout(fc);
		break;
	case TC_FIELD_BLOB:
		fc->align = 8;
		pl->min_bits = fc->length_ref ? 0 : sat_mul(fc->length, 8);
		break;
	case TC_FIELD_VARIANT:
	case TC_FIELD_OPTIONAL:
		fc->align = 1;
		pl->min_bits = 0;
		break;
	}
	return 0;
}

/* ---- stream classes and traces ---- */

/* The clock an integer in FC maps, checking there is only one. */
static int find_scope_clock(ctf_build *b, const tc_field_class *fc, const tc_clock **clk)
{
	if (!fc)
		return 0;
	if ((fc->kind == TC_FIELD_INT || fc->kind == TC_FIELD_ENUM) && fc->clock) {
		if (*clk && *clk != fc->clock)
			return ctf_build_fail(b, -1, 0, "stream class maps integers to two different clocks");
		*clk = fc->clock;
	}
	for (size_t i = 0; i < fc->member_count; i++)
		if (find_scope_clock(b, fc->members[i].cls, clk) < 0)
			return b->err;
	return fc->element ? find_scope_clock(b, fc->element, clk) : 0;
}

const ctf_event_entry *ctf_event_entry_by_id(const ctf_stream_class *sc, uint64_t id)
{
	if (sc->by_id)
		return id < sc->by_id_len ? sc->by_id[id] : NULL;
	for (size_t i = 0; i < sc->pub.event_class_count; i++)
		if (sc->entries[i].ec->id == id)
			return &sc->entries[i];
	return NULL;
}

ctf_stream_class *ctf_stream_class_by_id(const ctf_trace *t, uint64_t id)
{
	for (size_t i = 0; i < t->pub.stream_class_count; i++)
		if (t->pub.stream_classes[i]->id == id)
			return (ctf_stream_class *)t->pub.stream_classes[i];
	return NULL;
}

static void detect_quirks(ctf_trace *t)
{
	const tc_env_entry *name = tc_trace_env(&t->pub, "tracer_name");
	const tc_env_entry *maj = tc_trace_env(&t->pub, "tracer_major");
	const tc_env_entry *min = tc_trace_env(&t->pub, "tracer_minor");
	const tc_env_entry *pat = tc_trace_env(&t->pub, "tracer_patch");
	if (!pat)
		pat = tc_trace_env(&t->pub, "tracer_patchlevel");
	if (!name || name->is_int)
		return;
	int64_t M = maj && maj->is_int ? maj->int_value : -1, m = min && min->is_int ? min->int_value : -1,
	        p = pat && pat->is_int ? pat->int_value : -1;
	bool is_ust = strcmp(name->str_value, "lttng-ust") == 0;
	bool is_mod = strcmp(name->str_value, "lttng-modules") == 0;
	if (is_ust || is_mod)
		t->quirks.lttng_crash = true;
	if (is_ust && (M < 2 || (M == 2 && m < 11)))
		t->quirks.lttng_event_after_packet = true;
	if (is_mod && (M < 2 || (M == 2 && m < 9) || (M == 2 && m == 9 && p < 13) ||
	               (M == 2 && m == 10 && p < 10)))
		t->quirks.lttng_event_after_packet = true;
	if (strcmp(name->str_value, "barectf") == 0 &&
	    (M < 2 || (M == 2 && m < 3) || (M == 2 && m == 3 && p < 1)))
		t->quirks.barectf_event_before_packet = true;
	/* LTTng's monotonic clock is treated as absolute (doc/formats/ctf.md
	 * §6.1). */
	if (strncmp(name->str_value, "lttng", 5) == 0)
		for (size_t i = 0; i < t->pub.clock_count; i++)
			if (strcmp(t->pub.clocks[i]->name, "monotonic") == 0)
				t->pub.clocks[i]->absolute = t->pub.clocks[i]->origin_is_unix_epoch = true;
}

/* What the packet context's roles tell of every packet (CTF 2 roles may
 * be at any depth; CTF 1.8's are top-level members). */
static void note_packet_roles(ctf_stream_class *sc, const tc_field_class *fc, int depth)
{
	if (!fc || depth > 64)
		return;
	switch (plan_of(fc)->role) {
	case TC_ROLE_TS_BEGIN: sc->has_ts_begin = true; break;
	case TC_ROLE_TS_END: sc->has_ts_end = true; break;
	case TC_ROLE_EVENTS_DISCARDED: sc->pub.has_discarded_events = true; break;
	case TC_ROLE_PACKET_SEQ_NUM: sc->pub.has_packet_seq_num = true; break;
	default: break;
	}
	for (size_t i = 0; i < fc->member_count; i++)
		note_packet_roles(sc, fc->members[i].cls, depth + 1);
}

int ctf_stream_class_finish(ctf_build *b, ctf_stream_class *sc)
{
	const tc_clock *clk = NULL;
	if (find_scope_clock(b, sc->pub.packet_context, &clk) < 0 ||
	    find_scope_clock(b, sc->pub.event_header, &clk) < 0 ||
	    find_scope_clock(b, sc->pub.event_context, &clk) < 0)
		return b->err;
	for (size_t i = 0; i < sc->pub.event_class_count; i++)
		if (find_scope_clock(b, sc->pub.event_classes[i]->context, &clk) < 0 ||
		    find_scope_clock(b, sc->pub.event_classes[i]->payload, &clk) < 0)
			return b->err;
	sc->pub.clock = clk;
	note_packet_roles(sc, sc->pub.packet_context, 0);
	sc->pub.has_packet_times = sc->has_ts_begin && sc->has_ts_end;
	if (!sc->pub.event_header && sc->pub.event_class_count > 1)
		return ctf_build_fail(b, -1, 0, "stream class %" PRIu64 " has several event classes but no event header with an id", sc->pub.id);
	if (sc->pub.event_header && ctf_header_plan_compile(b, sc, &sc->header_plan) < 0)
		return b->err;
	size_t n = sc->pub.event_class_count;
	if (!(sc->entries = ctf_build_alloc(b, (n ? n : 1) * sizeof *sc->entries)))
		return b->err;
	for (size_t i = 0; i < n; i++) {
		sc->entries[i].ec = sc->pub.event_classes[i];
		if (ctf_event_plan_compile(b, sc, sc->entries[i].ec, &sc->entries[i].plan) < 0)
			return b->err;
	}
	/* Event class lookup: a table for small ids, else a scan. */
	uint64_t max_id = 0;
	for (size_t i = 0; i < n; i++)
		if (sc->pub.event_classes[i]->id > max_id)
			max_id = sc->pub.event_classes[i]->id;
	if (n && max_id < 65536) {
		sc->by_id_len = (size_t)max_id + 1;
		sc->by_id = ctf_build_alloc(b, sc->by_id_len * sizeof *sc->by_id);
		if (!sc->by_id)
			return b->err;
		for (size_t i = 0; i < n; i++)
			sc->by_id[sc->entries[i].ec->id] = &sc->entries[i];
	}
	return 0;
}

/* Gives FC and what it holds the roles and resolved references of their
 * plans, which writers read from the model (tc_field_class.role, .ref).
 * The front ends bound nesting (MAX_NESTING) before this runs. */
static void publish_class(tc_field_class *fc)
{
	if (!fc)
		return;
	const ctf_plan *pl = plan_of(fc);
	fc->role = (tc_field_role)pl->role;
	if (pl->ref_len)
		fc->ref = (tc_field_path){ (tc_scope)pl->ref_scope, pl->ref_path, pl->ref_len, pl->ref_cls };
	for (size_t i = 0; i < fc->member_count; i++)
		publish_class(fc->members[i].cls);
	publish_class(fc->element);
}

/* What the model says beyond the classes: who recorded the trace (its
 * environment's domain), which system clock LTTng's "monotonic" is
 * (lttng-ust(3), lttng-modules: CLOCK_MONOTONIC), the roles and
 * references of every class. */
static void publish_model(ctf_trace *t)
{
	const tc_env_entry *d = tc_trace_env(&t->pub, TC_ENV_DOMAIN);
	if (d && !d->is_int && strcmp(d->str_value, "kernel") == 0)
		t->pub.domain = TC_DOMAIN_KERNEL;
	else if (d && !d->is_int && strcmp(d->str_value, "ust") == 0)
		t->pub.domain = TC_DOMAIN_USER;
	for (size_t i = 0; i < t->pub.clock_count; i++)
		if (strcmp(t->pub.clocks[i]->name, "monotonic") == 0)
			t->pub.clocks[i]->system = TC_CLOCK_MONOTONIC;
	publish_class(t->pub.packet_header);
	for (size_t i = 0; i < t->pub.stream_class_count; i++) {
		tc_stream_class *sc = t->pub.stream_classes[i];
		publish_class(sc->packet_context);
		publish_class(sc->event_header);
		publish_class(sc->event_context);
		for (size_t k = 0; k < sc->event_class_count; k++) {
			publish_class(sc->event_classes[k]->context);
			publish_class(sc->event_classes[k]->payload);
		}
	}
}

void ctf_trace_finish(ctf_trace *t)
{
	detect_quirks(t);
	publish_model(t);
	t->class_count = t->pub.stream_class_count;
	for (size_t i = 0; i < t->pub.stream_class_count; i++)
		t->class_count += t->pub.stream_classes[i]->event_class_count;
}
