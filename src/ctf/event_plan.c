/* SPDX-License-Identifier: MIT */
/*
 * event_plan.c - compiles the specialised plans of the common layouts
 * (ctf_event_plan and ctf_header_plan in ctf.h), for both metadata front
 * ends, once their classes are complete (ctf_stream_class_finish).
 *
 * Most events of most traces have fixed-layout scopes: LTTng's contexts
 * (integers and the 17-byte procname), payloads of integers often ending
 * with one string, and headers of an id and a timestamp in one of two
 * structures.  The general path (decode.c) decodes each structure on its
 * own, checks each run's bounds and dispatches on each member's kind; a
 * plan lays out every member from one start, so decode.c reads them with
 * one bounds check and, for integers, the same few instructions whatever
 * their size, sign and byte order.  A string between members splits an
 * event's plan into runs, each laid out from where the string before it
 * ends (babeltrace2 2.1 writes LTTng's procname so); so do LTTng's
 * sequences (ctf_sequence: a length, then text or numbers) and arrays of
 * numbers, which decode.c reads in one step each, numbers by a loop of
 * their kind, or jumps over by their length when no value is wanted.
 *
 * A layout is walked twice: once to count its slots and operations, once
 * to fill the arrays allocated from the counts.
 */
#include "ctf/plan.h"

#include <string.h>

typedef struct plan_parts {
	ctf_event_plan *p;         /* the plan: its first run */
	ctf_event_plan *run;       /* the run being laid out */
	/* NULL while counting */
	ctf_fixed_root *roots;
	ctf_fixed_int *ints;
	ctf_fixed_other *others;
	ctf_event_plan *runs;      /* the runs after the first */
	uint32_t ints_used, others_used, runs_used;
	ctf_event_plan counting_run;   /* the runs after the first while counting */
	uint64_t pos;              /* bits from the run's start */
	const tc_clock *clock;     /* the stream class's */
	/* the header's variant, when the structure walked may end with one */
	bool variant_allowed;
	uint32_t variant_slot, tag_slot;
	/* the roots walked, by scope (slot UINT32_MAX: none), where a
	 * sequence finds its length */
	const tc_field_class *scope_cls[SCOPE_COUNT];
	uint32_t scope_root[SCOPE_COUNT];
} plan_parts;

static uint64_t align_bits(uint64_t pos, unsigned align)
{
	return (pos + align - 1) & -(uint64_t)align;
}

/* The unsigned integer kind that loads the bits of real M (32 or 64 bits,
 * whole bytes: plan.c's fixed_layout()). */
static ctf_member_kind real_as_int(const tc_field_class *m)
{
	bool swapped = (m->byte_order == TC_LITTLE_ENDIAN) != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
	if (m->size == 32)
		return swapped ? MEMBER_U32_SWAPPED : MEMBER_U32;
	return swapped ? MEMBER_U64_SWAPPED : MEMBER_U64;
}

static void plan_int(plan_parts *pp, ctf_member_kind k, const tc_field_class *m, uint32_t slot, uint32_t offset)
{
	ctf_fixed_int *fi = &pp->ints[pp->ints_used];
	bool swap = k >= MEMBER_U16_SWAPPED && k <= MEMBER_U64_SWAPPED;
	bool host_le = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
	fi->cls = m;
	fi->slot = slot;
	fi->offset = offset;
	fi->swap = swap;
	fi->is_signed = k == MEMBER_S8 || k == MEMBER_S16 || k == MEMBER_S32 || k == MEMBER_S16_SWAPPED ||
	                k == MEMBER_S32_SWAPPED;
	fi->role = (uint8_t)plan_of(m)->role;
	fi->is_float32 = m->kind == TC_FIELD_FLOAT && m->size == 32;
	/* timestamp_end is read but does not move the clock */
	fi->moves_clock = m->clock && m->clock == pp->clock && fi->role != TC_ROLE_TS_END;
	fi->rshift = (uint8_t)(64 - m->size);
	/* The member's first byte ends up lowest in the loaded word when the
	 * word's order is the member's: shifting it up first clears the bytes
	 * loaded past the member. */
	fi->lshift = host_le != swap ? fi->rshift : 0;
}

/* Where decode.c's fill_run() wants an entry: plain values it stores as
 * loaded, then 32-bit reals it widens, then those with a meaning. */
static int fill_rank(const ctf_fixed_int *fi)
{
	if (fi->role != TC_ROLE_NONE || fi->moves_clock)
		return 2;
	return fi->is_float32;
}

/* Orders the N entries INTS by fill_rank(), keeping the order of those of
 * a rank (an id before the timestamp of its header); sets the run R's
 * counts of the first two ranks. */
static void order_ints(ctf_event_plan *r, ctf_fixed_int *ints, uint32_t n)
{
	uint32_t counts[2] = { 0, 0 };
	for (int rank = 1; rank >= 0; rank--) {
		uint32_t done = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (fill_rank(&ints[i]) > rank)
				continue;
			ctf_fixed_int x = ints[i];
			memmove(&ints[done + 1], &ints[done], (i - done) * sizeof *ints);
			ints[done++] = x;
		}
		counts[rank] = done;
	}
	r->plain_int_count = counts[0];
	r->float32_count = counts[1] - counts[0];
}

/* Aligns pp->pos on ALIGN bits: false when that is more than the run's
 * start is aligned on, so that the place would depend on where the run
 * starts.  A run after a tail starts aligned on its first member. */
static bool run_align(plan_parts *pp, unsigned align)
{
	if (!pp->run->align)
		pp->run->align = align;
	if (align > pp->run->align)
		return false;
	pp->pos = align_bits(pp->pos, align);
	return true;
}

/* Ends the current run where pp->pos is. */
static void finish_run(plan_parts *pp)
{
	ctf_event_plan *r = pp->run;
	r->bytes = (uint32_t)(pp->pos / 8);
	if (pp->ints)
		order_ints(r, pp->ints + (r->ints - pp->ints), r->int_count);
}

/* Ends the current run with its tail (set), and starts the next one;
 * false when the plan would have too many runs. */
static bool end_run(plan_parts *pp)
{
	ctf_event_plan *r = pp->run;
	finish_run(pp);
	if (++pp->runs_used >= CTF_PLAN_MAX_RUNS)
		return false;
	ctf_event_plan *next = pp->runs ? &pp->runs[pp->runs_used - 1] : &pp->counting_run;
	*next = (ctf_event_plan){ .tail_len_slot = UINT32_MAX };
	if (pp->runs) {
		next->ints = pp->ints + pp->ints_used;
		next->others = pp->others + pp->others_used;
		r->next_run = next;
	}
	pp->run = next;
	pp->pos = 0;
	return true;
}

/* The kind of tail member M (planned as K) makes: TAIL_NONE when it is
 * none.  UTF-16/32 text, and numbers with a meaning (a role, a clock),
 * take the general path. */
static ctf_tail_kind tail_kind(const tc_field_class *m, ctf_member_kind k)
{
	if (k == MEMBER_STRING)
		return TAIL_STRING;
	if (m->kind == TC_FIELD_SEQUENCE && (m->flags & TC_FIELD_TEXT))
		return m->encoding == TC_UTF8 ? TAIL_TEXT : TAIL_NONE;
	if ((m->kind == TC_FIELD_SEQUENCE || m->kind == TC_FIELD_ARRAY) && plan_of(m)->numbers &&
	    !m->element->clock && plan_of(m->element)->role == TC_ROLE_NONE)
		return TAIL_NUMBERS;
	return TAIL_NONE;
}

/* The slot of the integer sequence M's length is, when the plan holds it:
 * a member, before M, of a structure walked (member INDEX of the one of
 * SCOPE being walked).  UINT32_MAX when it is not. */
static uint32_t length_slot(const plan_parts *pp, const tc_field_class *m, int scope, size_t index)
{
	const ctf_plan *pl = plan_of(m);
	if (pl->ref_len != 1 || pl->ref_scope >= SCOPE_COUNT || pp->scope_root[pl->ref_scope] == UINT32_MAX)
		return UINT32_MAX;
	const tc_field_class *root = pp->scope_cls[pl->ref_scope];
	size_t at = pl->ref_path[0];
	if (at >= root->member_count || ((int)pl->ref_scope == scope && at >= index) ||
	    plan_of(root)->members[at].kind > MEMBER_U64_SWAPPED)
		return UINT32_MAX;
	return pp->scope_root[pl->ref_scope] + 1 + (uint32_t)at;
}

/* Ends the current run with member M of kind TAIL in SLOT (the INDEX-th of
 * the structure of SCOPE being walked; ENDS when it ends the plan): false
 * when it cannot be planned. */
static bool plan_tail(plan_parts *pp, const tc_field_class *m, ctf_tail_kind tail, int scope, size_t index,
                      uint32_t slot, bool ends)
{
	ctf_event_plan *r = pp->run;
	uint32_t len_slot = UINT32_MAX;
	if (m->kind == TC_FIELD_SEQUENCE && (len_slot = length_slot(pp, m, scope, index)) == UINT32_MAX)
		return false;
	/* an empty run (two tails in a row) starts on a byte: the tail
	 * aligns itself */
	if (!r->align)
		r->align = 8;
	r->tail = (uint8_t)tail;
	r->tail_slot = slot;
	r->tail_cls = m;
	r->tail_len_slot = len_slot;
	return ends || end_run(pp);
}

/* Lays out structure CLS from pp->pos as the root of SCOPE (-1: none).
 * False when a member does not allow a plan; LAST says whether CLS ends
 * the plan: its last member may then be a tail that starts no run, and
 * only its tails may hold numbers. */
static bool plan_struct(plan_parts *pp, const tc_field_class *cls, int scope, bool last)
{
	ctf_event_plan *p = pp->p;
	if (cls->kind != TC_FIELD_STRUCT || !run_align(pp, cls->align))
		return false;
	uint32_t root = p->slot_count++;
	if (scope >= 0) {
		pp->scope_root[scope] = root;
		pp->scope_cls[scope] = cls;
	}
	if (pp->roots) {
		pp->roots[p->root_count] = (ctf_fixed_root){
			.cls = cls,
			.slot = root,
			.scope = (int8_t)scope,
			.shown = scope >= SCOPE_STREAM_EVENT_CONTEXT && !(cls->flags & TC_FIELD_HIDDEN),
		};
	}
	p->root_count++;
	const ctf_member_plan *mps = plan_of(cls)->members;
	for (size_t i = 0; i < cls->member_count; i++) {
		const tc_field_class *m = cls->members[i].cls;
		ctf_member_kind k = (ctf_member_kind)mps[i].kind;
		uint32_t slot = p->slot_count++;
		bool ends = last && i + 1 == cls->member_count;
		if (m->kind == TC_FIELD_VARIANT && ends && pp->variant_allowed) {
			/* tagged by an earlier member; its options are planned
			 * on their own */
			const ctf_plan *vp = plan_of(m);
			if ((int)vp->ref_scope != scope || vp->ref_len != 1 || vp->ref_path[0] >= i)
				return false;
			pp->variant_slot = slot;
			pp->tag_slot = root + 1 + vp->ref_path[0];
			continue;
		}
		ctf_tail_kind tail = pp->variant_allowed ? TAIL_NONE : tail_kind(m, k);
		/* a tail aligns itself once the run's place is known */
		if (!run_align(pp, tail != TAIL_NONE ? 8 : m->align) || pp->pos % 8 || pp->pos / 8 >= (uint64_t)1 << 31)
			return false;
		if (tail != TAIL_NONE) {
			/* what follows a tail has no fixed place: a run of
			 * its own, if any */
			if ((tail == TAIL_NUMBERS && !last) || !plan_tail(pp, m, tail, scope, i, slot, ends))
				return false;
			continue;
		}
		if (!MEMBER_IS_FIXED(k))
			return false;
		uint32_t offset = (uint32_t)(pp->pos / 8);
		if (k == MEMBER_TEXT) {
			if (pp->others)
				pp->others[pp->others_used] = (ctf_fixed_other){ .cls = m, .slot = slot, .offset = offset };
			pp->others_used++;
			pp->run->other_count++;
			pp->pos += m->length * 8;
		} else {
			if (pp->ints)
				plan_int(pp, k == MEMBER_FLOAT ? real_as_int(m) : k, m, slot, offset);
			pp->ints_used++;
			pp->run->int_count++;
			pp->pos += m->size;
		}
	}
	return true;
}

/* Walks the COUNT structures STRUCTS (NULL: absent), the first the root of
 * scope FIRST_SCOPE and each next one of the next scope (-1: none);
 * false when they do not allow a plan. */
static bool plan_structs(plan_parts *pp, const tc_field_class *const *structs, int count, int first_scope)
{
	ctf_event_plan *p = pp->p;
	int last = -1;
	for (int i = 0; i < count; i++)
		if (structs[i])
			last = i;
	if (last < 0)
		return false;
	*p = (ctf_event_plan){ .tail_len_slot = UINT32_MAX, .ints = pp->ints, .others = pp->others };
	for (int i = 0; i < count && !p->align; i++)
		if (structs[i])
			p->align = structs[i]->align;
	/* Fixed-layout members are whole bytes: a start aligned on less than
	 * a byte would leave them anywhere. */
	if (p->align < 8)
		return false;
	pp->run = p;
	pp->pos = 0;
	pp->ints_used = pp->others_used = pp->runs_used = 0;
	pp->variant_slot = UINT32_MAX;
	for (int i = 0; i < SCOPE_COUNT; i++)
		pp->scope_root[i] = UINT32_MAX;
	for (int i = 0; i <= last; i++)
		if (structs[i] && !plan_struct(pp, structs[i], first_scope < 0 ? -1 : first_scope + i, i == last))
			return false;
	finish_run(pp);
	return true;
}

/* Points each sequence of plan P at the integer holding its length, in
 * its run or one before, once every run's integers are in their final
 * order (finish_run). */
static bool find_lengths(ctf_event_plan *p)
{
	uint32_t n = 0;
	for (ctf_event_plan *r = p; r; r = (ctf_event_plan *)r->next_run, n++) {
		if (r->tail_len_slot == UINT32_MAX)
			continue;
		uint32_t k = 0;
		for (const ctf_event_plan *q = p; k <= n && !r->tail_len; q = q->next_run, k++)
			for (uint32_t i = 0; i < q->int_count; i++)
				if (q->ints[i].slot == r->tail_len_slot) {
					r->tail_len = &q->ints[i];
					r->tail_len_run = k;
				}
		if (!r->tail_len)
			return false;
	}
	return true;
}

/* Compiles the plan of STRUCTS (see plan_structs), in a stream class of
 * clock CLOCK, into OUT; *OK false when they do not allow one.  *PARTS
 * tells where the header's variant went. */
static int plan_compile(ctf_build *b, const tc_clock *clock, const tc_field_class *const *structs, int count,
                        int first_scope, bool variant_allowed, ctf_event_plan *out, plan_parts *parts, bool *ok)
{
	ctf_event_plan counted = { 0 };
	plan_parts pp = { .p = &counted, .clock = clock, .variant_allowed = variant_allowed };
	*ok = false;
	if (!plan_structs(&pp, structs, count, first_scope))
		return 0;
	*parts = (plan_parts){
		.p = out,
		.roots = ctf_build_alloc(b, counted.root_count * sizeof *parts->roots),
		.ints = ctf_build_alloc(b, (pp.ints_used ? pp.ints_used : 1) * sizeof *parts->ints),
		.others = ctf_build_alloc(b, (pp.others_used ? pp.others_used : 1) * sizeof *parts->others),
		.runs = ctf_build_alloc(b, (pp.runs_used ? pp.runs_used : 1) * sizeof *parts->runs),
		.clock = clock,
		.variant_allowed = variant_allowed,
	};
	if (!parts->roots || !parts->ints || !parts->others || !parts->runs)
		return b->err;
	plan_structs(parts, structs, count, first_scope);
	out->roots = parts->roots;
	*ok = find_lengths(out);
	return 0;
}

int ctf_event_plan_compile(ctf_build *b, const ctf_stream_class *sc, const tc_event_class *ec,
                           const ctf_event_plan **out)
{
	const tc_field_class *const scopes[3] = { sc->pub.event_context, ec->context, ec->payload };
	ctf_event_plan *p = ctf_build_alloc(b, sizeof *p);
	plan_parts parts;
	bool ok;
	*out = NULL;
	if (!p || plan_compile(b, sc->pub.clock, scopes, 3, SCOPE_STREAM_EVENT_CONTEXT, false, p, &parts, &ok) < 0)
		return b->err;
	/* An event of no bits is an error the general path reports. */
	if (ok && (p->bytes > 0 || p->tail != TAIL_NONE))
		*out = p;
	return 0;
}

/* Flattens the ranges that select the options of H's variant, each with
 * its option's plan among PLANS, in the order the general path tries them
 * (decode.c: select_option, select_ranged_option). */
static int option_ranges(ctf_build *b, ctf_header_plan *h, const ctf_event_plan **plans)
{
	const tc_field_class *v = h->variant;
	const ctf_plan *vp = plan_of(v), *tp = plan_of(vp->ref_cls);
	h->tag_bias = h->lead.ints[h->tag_int].cls->is_signed ? (uint64_t)1 << 63 : 0;
	size_t n = 0;
	if (v->labels) {
		for (size_t o = 0; o < v->label_count && o < v->member_count; o++)
			n += v->labels[o].range_count;
	} else {
		n = tp->label_range_count;
	}
	ctf_option_range *ranges = ctf_build_alloc(b, (n ? n : 1) * sizeof *ranges);
	if (!ranges)
		return b->err;
	uint32_t k = 0;
	if (v->labels) {
		/* CTF 2: ranges of the tag's values as they are */
		for (size_t o = 0; o < v->label_count && o < v->member_count; o++)
			for (size_t r = 0; r < v->labels[o].range_count; r++) {
				uint64_t lo = v->labels[o].ranges[r].lo ^ h->tag_bias, hi = v->labels[o].ranges[r].hi ^ h->tag_bias;
				if (lo <= hi)
					ranges[k++] = (ctf_option_range){ lo, hi - lo, plans[o], (uint32_t)o };
			}
	} else {
		/* CTF 1.8: the tag enumeration's ranges (biased already), each
		 * selecting its label's option, if any */
		for (size_t r = 0; r < tp->label_range_count; r++) {
			const ctf_label_range *lr = &tp->label_ranges[r];
			int32_t o = vp->label_option[lr->label];
			if (o >= 0)
				ranges[k++] = (ctf_option_range){ lr->lo, lr->span, plans[o], (uint32_t)o };
		}
	}
	h->ranges = ranges;
	h->range_count = k;
	return 0;
}

int ctf_header_plan_compile(ctf_build *b, const ctf_stream_class *sc, const ctf_header_plan **out)
{
	const tc_field_class *hdr = sc->pub.event_header;
	ctf_header_plan *h = ctf_build_alloc(b, sizeof *h);
	plan_parts parts;
	bool ok;
	*out = NULL;
	if (!h || plan_compile(b, sc->pub.clock, &hdr, 1, SCOPE_EVENT_HEADER, true, &h->lead, &parts, &ok) < 0)
		return b->err;
	if (!ok || !h->lead.bytes)
		return 0;
	*out = h;
	if (parts.variant_slot == UINT32_MAX)
		return 0;   /* fixed-layout all through */
	h->variant_slot = parts.variant_slot;
	h->variant = hdr->members[parts.variant_slot - 1].cls;
	h->tag_int = UINT32_MAX;
	for (uint32_t i = 0; i < h->lead.int_count; i++)
		if (h->lead.ints[i].slot == parts.tag_slot)
			h->tag_int = i;
	if (h->tag_int == UINT32_MAX) {
		*out = NULL;
		return 0;
	}
	size_t n = h->variant->member_count;
	const ctf_event_plan **plans = ctf_build_alloc(b, (n ? n : 1) * sizeof *plans);
	if (!plans)
		return b->err;
	for (size_t i = 0; i < n; i++) {
		const tc_field_class *opt = h->variant->members[i].cls;
		ctf_event_plan *p = ctf_build_alloc(b, sizeof *p);
		if (!p || plan_compile(b, sc->pub.clock, &opt, 1, -1, false, p, &parts, &ok) < 0)
			return b->err;
		/* Placed after the lead wherever the header starts: aligned on no
		 * more than the header. */
		if (ok && p->tail == TAIL_NONE && p->align <= h->lead.align)
			plans[i] = p;
	}
	return option_ranges(b, h, plans);
}
