/*
 * decode.c - turns the bytes of one packet into tc_field trees, following
 * the plans metadata.c compiled (ctf.md 8: alignment, bit packing in both
 * byte orders, strings, arrays, sequences, variants).
 *
 * Fields go into an arena of slots that is reset for every event; a
 * compound reserves its children's slots before decoding them, so each
 * struct's members are contiguous and a length or tag found earlier can be
 * reached by index.  When the arena is too small the decode reports
 * CTF_ARENA_RETRY and the caller grows it and decodes the event again: no
 * pointer into the arena is ever invalidated mid-event.
 *
 * Every read is checked against the decoder's limit (the packet's content
 * size) before it happens; element counts are checked against the bits
 * that remain before any slot is reserved.
 */
#include "ctf/ctf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EMPTY_ELEMENTS (1u << 20)

int ctf_arena_grow(ctf_arena *a)
{
	size_t cap = a->cap ? a->cap * 2 : 256;
	tc_field *s = realloc(a->slots, cap * sizeof *s);
	if (!s)
		return tc_fail_nomem();
	a->slots = s;
	a->cap = cap;
	return 0;
}

void ctf_arena_free(ctf_arena *a)
{
	free(a->slots);
	a->slots = NULL;
	a->cap = a->used = 0;
}

static tc_field *arena_take(ctf_decoder *d, uint64_t n)
{
	ctf_arena *a = d->arena;
	if (n > a->cap - a->used) {
		d->arena_full = true;
		return NULL;
	}
	tc_field *f = a->slots + a->used;
	a->used += (size_t)n;
	return f;
}

static int derr(ctf_decoder *d, const char *fmt, ...) TC_PRINTF(2, 3);
static int derr(ctf_decoder *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_vfail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + d->pos / 8), fmt, ap);
	va_end(ap);
	return TC_EFORMAT;
}

static inline uint64_t bswap_n(uint64_t v, unsigned bytes)
{
	switch (bytes) {
	case 2: return __builtin_bswap16((uint16_t)v);
	case 4: return __builtin_bswap32((uint32_t)v);
	case 8: return __builtin_bswap64(v);
	default: return v;
	}
}

static inline bool host_is_le(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

/* An 8, 16, 32 or 64-bit value at a byte boundary. */
static inline uint64_t load_whole(const uint8_t *p, unsigned size, tc_byte_order bo)
{
	uint64_t v;
	switch (size) {
	case 8: return *p;
	case 16: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
	case 32: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
	default: memcpy(&v, p, 8); break;
	}
	if ((bo == TC_LITTLE_ENDIAN) != host_is_le())
		v = bswap_n(v, size / 8);
	return v;
}

/* Bits [pos, pos+size) in the given byte order (ctf.md 8.2). */
static uint64_t read_bits(const uint8_t *buf, uint64_t pos, unsigned size, tc_byte_order bo)
{
	if ((pos & 7) == 0 && (size == 8 || size == 16 || size == 32 || size == 64))
		return load_whole(buf + pos / 8, size, bo);
	uint64_t v = 0;
	unsigned done = 0;
	while (done < size) {
		uint8_t byte = buf[pos >> 3];
		unsigned bit = (unsigned)(pos & 7);
		unsigned take = 8 - bit;
		if (take > size - done)
			take = size - done;
		uint64_t mask = (1u << take) - 1;
		if (bo == TC_LITTLE_ENDIAN) {
			v |= (uint64_t)((byte >> bit) & mask) << done;
		} else {
			v = (v << take) | ((byte >> (8 - bit - take)) & mask);
		}
		done += take;
		pos += take;
	}
	return v;
}

static inline int align_to(ctf_decoder *d, unsigned align)
{
	uint64_t p = (d->pos + align - 1) & ~(uint64_t)(align - 1);
	if (p > d->limit)
		return derr(d, "alignment to %u bits runs past the end of the packet content", align);
	d->pos = p;
	return 0;
}

static int read_bit_array(ctf_decoder *d, const tc_field_class *fc, uint64_t *out)
{
	if (align_to(d, fc->align) < 0)
		return TC_EFORMAT;
	if (d->limit - d->pos < fc->size)
		return derr(d, "a %u-bit field runs past the end of the packet content (%" PRIu64 " bits left)",
		            fc->size, d->limit - d->pos);
	if (d->last_bo >= 0 && d->last_bo != (int)fc->byte_order && (d->pos & 7))
		return derr(d, "byte order changes in the middle of a byte");
	d->last_bo = (int)fc->byte_order;
	*out = read_bits(d->buf, d->pos, fc->size, fc->byte_order);
	d->pos += fc->size;
	return 0;
}

static inline void update_clock(ctf_decoder *d, uint64_t v, unsigned size)
{
	uint64_t *cur = d->clock_value;
	if (size == 64) {
		*cur = v;
		return;
	}
	/* A narrower value replaces the low bits, assuming at most one wrap
	 * since the last full value (ctf.md 9.2). */
	uint64_t mask = ((uint64_t)1 << size) - 1;
	if (v < (*cur & mask))
		*cur += mask + 1;
	*cur = (*cur & ~mask) | v;
}

static int lookup_ref(ctf_decoder *d, const ctf_plan *pl, const tc_field **out)
{
	const tc_field *f = d->roots[pl->ref_scope];
	if (!f)
		return derr(d, "a length or tag refers to a scope that was not decoded");
	for (size_t i = 0; i < pl->ref_len; i++) {
		uint16_t step = pl->ref_path[i];
		if (step == PATH_ELEMENT) {
			f = &f->v.compound.items[f->option];
		} else if (f->cls->kind == TC_FIELD_VARIANT) {
			if (f->option != step)
				return derr(d, "a length or tag lies in a variant option that was not selected");
			f = &f->v.compound.items[0];
		} else {
			f = &f->v.compound.items[step];
		}
	}
	*out = f;
	return 0;
}

static bool label_matches(const tc_field_class *fc, const tc_enum_label *l, uint64_t v)
{
	for (size_t r = 0; r < l->range_count; r++) {
		if (fc->is_signed) {
			if ((int64_t)v >= (int64_t)l->ranges[r].lo && (int64_t)v <= (int64_t)l->ranges[r].hi)
				return true;
		} else if (v >= l->ranges[r].lo && v <= l->ranges[r].hi) {
			return true;
		}
	}
	return false;
}

static inline uint64_t sign_extend(uint64_t v, unsigned size)
{
	if (size < 64 && (v >> (size - 1)) & 1)
		v |= ~(uint64_t)0 << size;
	return v;
}

static inline void store_float(tc_field *out, uint64_t bits, unsigned size)
{
	if (size == 32) {
		uint32_t u = (uint32_t)bits;
		float f;
		memcpy(&f, &u, 4);
		out->v.f = f;
	} else {
		memcpy(&out->v.f, &bits, 8);
	}
}

/* Stores an integer's value and applies what reading it means: an event
 * id, a special packet field, a clock update. */
static inline void store_int(ctf_decoder *d, const tc_field_class *fc, const ctf_plan *pl, tc_field *out, uint64_t v)
{
	if (fc->is_signed)
		v = sign_extend(v, fc->size);
	out->v.u = v;
	if (TC_UNLIKELY(pl->role != ROLE_NONE)) {
		if (pl->role == ROLE_EVENT_ID) {
			d->have_id = true;
			d->id = v;
		} else {
			d->have_role[pl->role] = true;
			d->role_value[pl->role] = v;
		}
		/* timestamp_end is read but does not move the clock. */
		if (pl->role == ROLE_TS_END)
			return;
	}
	if (fc->clock && fc->clock == d->clock)
		update_clock(d, v, fc->size);
}

/* Decodes the run of fixed-layout members starting at member FIRST of FC,
 * placed at bit P (checked by the caller to be aligned and in bounds). */
static void decode_run(ctf_decoder *d, const tc_field_class *fc, const ctf_plan *pl, size_t first, uint64_t p, tc_field *items)
{
	size_t end = first + pl->members[first].run_len;
	const tc_field_class *m = NULL;
	for (size_t i = first; i < end; i++) {
		m = fc->members[i].cls;
		const ctf_plan *mp = plan_of(m);
		tc_field *o = &items[i];
		const uint8_t *at = d->buf + (p + pl->members[i].offset) / 8;
		o->cls = m;
		o->option = 0;
		if (m->kind == TC_FIELD_ARRAY) {
			const char *nul = memchr(at, '\0', (size_t)m->length);
			o->v.str.ptr = (const char *)at;
			o->v.str.len = nul ? (size_t)(nul - (const char *)at) : (size_t)m->length;
			continue;
		}
		uint64_t v = load_whole(at, m->size, m->byte_order);
		if (m->kind == TC_FIELD_FLOAT)
			store_float(o, v, m->size);
		else
			store_int(d, m, mp, o, v);
		d->last_bo = (int)m->byte_order;
	}
	d->pos = p + pl->members[first].run_bits;
}

static int decode_field(ctf_decoder *d, const tc_field_class *fc, tc_field *out, int depth);

static int decode_elements(ctf_decoder *d, const tc_field_class *fc, tc_field *out, uint64_t n, int depth)
{
	const tc_field_class *el = fc->element;
	if (align_to(d, el->align) < 0)
		return TC_EFORMAT;
	uint64_t left = d->limit - d->pos;
	if (fc->flags & TC_FIELD_TEXT) {
		if (n > left / 8)
			return derr(d, "a text array of %" PRIu64 " bytes runs past the end of the packet content", n);
		const char *p = (const char *)d->buf + d->pos / 8;
		const char *nul = memchr(p, '\0', (size_t)n);
		out->v.str.ptr = p;
		out->v.str.len = nul ? (size_t)(nul - p) : (size_t)n;
		d->pos += n * 8;
		return 0;
	}
	uint64_t min = plan_of(el)->min_bits;
	if ((min && n > left / min) || (!min && n > MAX_EMPTY_ELEMENTS))
		return derr(d, "an array of %" PRIu64 " elements cannot fit in the %" PRIu64 " bits left in the packet", n, left);
	tc_field *items = arena_take(d, n);
	if (!items)
		return CTF_ARENA_RETRY;
	out->v.compound.items = items;
	out->v.compound.count = (size_t)n;
	for (uint64_t i = 0; i < n; i++) {
		out->option = (uint32_t)i;
		int rc = decode_field(d, el, &items[i], depth + 1);
		if (rc)
			return rc;
	}
	return 0;
}

static int decode_field(ctf_decoder *d, const tc_field_class *fc, tc_field *out, int depth)
{
	const ctf_plan *pl = plan_of(fc);
	out->cls = fc;
	out->option = 0;
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM: {
		uint64_t v;
		/* Byte-aligned and in bounds: a byte order change is allowed here. */
		if (pl->whole_bytes && (d->pos & (fc->align - 1)) == 0 && d->limit - d->pos >= fc->size) {
			v = load_whole(d->buf + d->pos / 8, fc->size, fc->byte_order);
			d->pos += fc->size;
			d->last_bo = (int)fc->byte_order;
		} else if (read_bit_array(d, fc, &v) < 0) {
			return TC_EFORMAT;
		}
		store_int(d, fc, pl, out, v);
		return 0;
	}
	case TC_FIELD_FLOAT: {
		uint64_t v;
		if (read_bit_array(d, fc, &v) < 0)
			return TC_EFORMAT;
		store_float(out, v, fc->size);
		return 0;
	}
	case TC_FIELD_STRING: {
		if (align_to(d, 8) < 0)
			return TC_EFORMAT;
		const char *p = (const char *)d->buf + d->pos / 8;
		size_t avail = (size_t)((d->limit - d->pos) / 8);
		const char *nul = memchr(p, '\0', avail);
		if (!nul)
			return derr(d, "string without a terminating NUL before the end of the packet content");
		out->v.str.ptr = p;
		out->v.str.len = (size_t)(nul - p);
		d->pos += (out->v.str.len + 1) * 8;
		return 0;
	}
	case TC_FIELD_STRUCT: {
		if (depth > 64)
			return derr(d, "fields nested too deeply");
		if (align_to(d, fc->align) < 0)
			return TC_EFORMAT;
		tc_field *items = arena_take(d, fc->member_count);
		if (!items)
			return CTF_ARENA_RETRY;
		out->v.compound.items = items;
		out->v.compound.count = fc->member_count;
		for (size_t i = 0; i < fc->member_count; i++) {
			const ctf_member_plan *run = &pl->members[i];
			if (run->run_len) {
				const tc_field_class *first = fc->members[i].cls;
				uint64_t p = (d->pos + first->align - 1) & ~(uint64_t)(first->align - 1);
				if ((p & (run->run_align - 1)) == 0 && p <= d->limit && d->limit - p >= run->run_bits) {
					decode_run(d, fc, pl, i, p, items);
					i += run->run_len - 1;
					continue;
				}
			}
			int rc = decode_field(d, fc->members[i].cls, &items[i], depth + 1);
			if (rc)
				return rc;
		}
		return 0;
	}
	case TC_FIELD_ARRAY:
		out->v.compound.count = 0;
		return decode_elements(d, fc, out, fc->length, depth);
	case TC_FIELD_SEQUENCE: {
		const tc_field *len;
		if (lookup_ref(d, pl, &len) < 0)
			return TC_EFORMAT;
		out->v.compound.count = 0;
		return decode_elements(d, fc, out, len->v.u, depth);
	}
	case TC_FIELD_VARIANT: {
		const tc_field *tag;
		if (depth > 64)
			return derr(d, "fields nested too deeply");
		if (lookup_ref(d, pl, &tag) < 0)
			return TC_EFORMAT;
		const tc_field_class *tc = pl->ref_cls;
		int32_t opt = -1;
		for (size_t l = 0; l < tc->label_count && opt < 0; l++)
			if (pl->label_option[l] >= 0 && label_matches(tc, &tc->labels[l], tag->v.u))
				opt = pl->label_option[l];
		if (opt < 0) {
			if (tc->is_signed)
				return derr(d, "variant tag value %" PRId64 " selects no option", tag->v.s);
			return derr(d, "variant tag value %" PRIu64 " selects no option", tag->v.u);
		}
		tc_field *item = arena_take(d, 1);
		if (!item)
			return CTF_ARENA_RETRY;
		out->option = (uint32_t)opt;
		out->v.compound.items = item;
		out->v.compound.count = 1;
		return decode_field(d, fc->members[opt].cls, item, depth + 1);
	}
	}
	return derr(d, "unknown field kind");
}

int ctf_decode_scope(ctf_decoder *d, ctf_scope scope, const tc_field_class *cls, tc_field **root)
{
	tc_field *slot = arena_take(d, 1);
	if (!slot)
		return CTF_ARENA_RETRY;
	d->roots[scope] = slot;
	*root = slot;
	return decode_field(d, cls, slot, 0);
}
