/* SPDX-License-Identifier: MIT */
/*
 * layout.c - payload layouts of legacy LTTng events: marker format strings
 * compiled into lg_type plans once, when the metadata describes a marker
 * (doc/formats/lttng-legacy.md §7.4), and the decoder that runs any plan,
 * markers' and XML facilities' alike, over the bytes of a block.
 *
 * The grammar reproduces the kernel serialiser's state machine, quirks
 * included, because the quirks decide where the bytes are: "#1%d" makes
 * no field at all, a name is the first word after the previous
 * conversion, and the trace type ("#2d") wins over the C type ("%ld").
 */
#include "lttng_legacy/legacy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scalar {
	unsigned size;       /* bytes; 0 = unset */
	bool is_signed, is_string, network;
	uint8_t base;
} scalar;

/* A qualifier's size: 'h', 'l', "ll"/'L', 'z'/'Z', 't', and the trace
 * types' '1' '2' '4' '8'; 0 when C is none (the caller then takes int). */
static unsigned qualifier_size(const char **p, const lg_sizes *s, bool trace_type)
{
	switch (**p) {
	case 'h': (*p)++; return 2;
	case 'L': (*p)++; return 8;
	case 'l':
		(*p)++;
		if (**p == 'l') {
			(*p)++;
			return 8;
		}
		return s->long_size;
	case 'z': case 'Z': (*p)++; return s->size_t_size;
	case 't': (*p)++; return s->pointer_size;
	case '1': case '2': case '4': case '8':
		if (!trace_type)
			return 0;
		return (unsigned)(*(*p)++ - '0');
	default: return 0;
	}
}

/* The conversion letter at *P under QUAL; false if it is none. */
static bool conversion(const char **p, unsigned qual, const lg_sizes *s, scalar *out)
{
	*out = (scalar){ .size = qual ? qual : s->int_size, .base = 10 };
	switch (**p) {
	case 'c': out->size = 1; break;
	case 's': out->is_string = true; break;
	case 'p': out->size = s->pointer_size; out->base = 16; break;
	case 'd': case 'i': out->is_signed = true; break;
	case 'o': out->base = 8; break;
	case 'u': break;
	case 'x': case 'X': out->base = 16; break;
	default: return false;
	}
	(*p)++;
	return true;
}

static lg_type *scalar_type(tc_pool *pool, const scalar *sc, const lg_sizes *s)
{
	lg_type *t = tc_pool_alloc(pool, sizeof *t);
	if (!t)
		return NULL;
	t->realign = 1;
	if (sc->is_string) {
		t->kind = LG_STRING;
		t->align = 1;
		return t;
	}
	t->kind = LG_INT;
	t->size = (uint8_t)sc->size;
	t->align = lg_align_of(s, sc->size);
	t->is_signed = sc->is_signed;
	t->big_endian = sc->network || s->big_endian;
	t->base = sc->base;
	return t;
}

/* An LG_STRUCT of COUNT MEMBERS (kept, not copied), aligned to its widest. */
static int struct_of(tc_pool *pool, lg_member *members, size_t count, lg_type **out)
{
	lg_type *t = tc_pool_alloc(pool, sizeof *t);
	if (!t)
		return TC_ENOMEM;
	t->kind = LG_STRUCT;
	t->align = 1;
	t->realign = 1;
	t->members = members;
	t->member_count = count;
	for (size_t i = 0; i < count; i++)
		if (members[i].type->align > t->align)
			t->align = members[i].type->align;
	*out = t;
	return 0;
}

int lg_marker_compile(tc_pool *pool, const char *format, const lg_sizes *s, lg_type **out)
{
	lg_member *members = NULL;
	size_t count = 0, cap = 0;
	const char *name = NULL, *name_end = NULL;
	scalar trace_type = { 0 };
	const char *p = format;
	while (*p) {
		if (*p == '#') {
			if (p[1] == '#') {
				p += 2;
				continue;
			}
			p++;
			trace_type = (scalar){ 0 };
			bool network = false;
			while (*p == 'n' || *p == 'b')
				network |= *p++ == 'n';
			unsigned qual = qualifier_size(&p, s, true);
			if (conversion(&p, qual, s, &trace_type)) {
				trace_type.network = network;
			} else {
				/* QUIRK 1: no trace type, and the scanner eats the
				 * next character ("#1%d": the '%') */
				trace_type = (scalar){ 0 };
				if (*p)
					p++;
			}
			continue;
		}
		if (*p != '%') {
			if (*p == ' ') {
				if (name && !name_end)
					name_end = p;
			} else if (!name) {
				name = p;
			}
			p++;
			continue;
		}
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		p++;
		while (*p && strchr("-+ #0", *p))
			p++;
		if (*p == 'S')
			p++;
		unsigned qual = qualifier_size(&p, s, false);
		if (*p == 'S')
			p++;
		scalar c_type;
		if (!conversion(&p, qual, s, &c_type)) {
			if (*p)
				p++;
			trace_type = (scalar){ 0 };
			name = name_end = NULL;
			continue;
		}
		scalar field = c_type;
		if (trace_type.size && !c_type.is_string) {
			field.size = trace_type.size;
			field.is_signed = trace_type.is_signed;
			field.network = trace_type.network;
		}
		if (count == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			lg_member *m = tc_pool_alloc(pool, ncap * sizeof *m);
			if (!m)
				return TC_ENOMEM;
			if (count)
				memcpy(m, members, count * sizeof *m);
			members = m;
			cap = ncap;
		}
		char fallback[32];
		snprintf(fallback, sizeof fallback, "field %zu", count + 1);
		char *fname = name && name_end ? tc_pool_strndup(pool, name, (size_t)(name_end - name))
		                               : tc_pool_strdup(pool, fallback);
		lg_type *ft = scalar_type(pool, &field, s);
		if (!fname || !ft)
			return TC_ENOMEM;
		members[count++] = (lg_member){ fname, ft };
		trace_type = (scalar){ 0 };
		name = name_end = NULL;
	}
	return struct_of(pool, members, count, out);
}


/* ---- decoding ---- */

static tc_field *take_slots(lg_decoder *d, size_t n)
{
	if (d->cap - d->used < n) {
		d->short_of = true;
		return NULL;
	}
	tc_field *f = &d->slots[d->used];
	d->used += n;
	return f;
}

static int past_end(lg_decoder *d, size_t pos, const char *what)
{
	d->error_pos = pos;
	d->error = what;
	return TC_EFORMAT;
}

static int decode_value(lg_decoder *d, const lg_type *t, const tc_field_class *cls, size_t *pos, tc_field *out);
static int decode_sequence(lg_decoder *d, const lg_type *t, const tc_field_class *cls, uint64_t length, size_t *pos,
                           tc_field *out);

static int decode_int(lg_decoder *d, const lg_type *t, size_t *pos, uint64_t *v)
{
	size_t p = lg_pad(*pos, t->align);
	if (p > d->end || d->end - p < t->size)
		return past_end(d, *pos, "an integer that runs past the end of the block's data");
	*v = tc_load_uint(d->data + p, t->size, t->big_endian);
	if (t->is_signed && t->size < 8 && (*v >> (t->size * 8 - 1)) & 1)
		*v |= ~(uint64_t)0 << (t->size * 8);
	*pos = p + t->size;
	return 0;
}

/* The members of a structure, a sequence member taking two slots: its
 * length and its elements (the model declares the length as a member). */
static int decode_members(lg_decoder *d, const lg_type *t, const tc_field_class *cls, size_t *pos, tc_field *out)
{
	const tc_member *mc = cls->members;
	size_t n = lg_struct_slot_count(t);
	tc_field *items = take_slots(d, n);
	if (!items)
		return 0;
	out->v.compound.items = items;
	out->v.compound.count = n;
	size_t start = *pos, widest = *pos;
	for (size_t i = 0; i < t->member_count; i++) {
		const lg_type *mt = t->members[i].type;
		if (t->kind == LG_UNION)
			*pos = start;
		int rc;
		if (mt->kind == LG_SEQUENCE) {
			*pos = lg_pad(*pos, mt->align);
			items->cls = mc[0].cls;
			rc = decode_int(d, mt->length, pos, &items->v.u);
			if (rc == 0)
				rc = decode_sequence(d, mt, mc[1].cls, items->v.u, pos, items + 1);
			items += 2;
			mc += 2;
		} else {
			rc = decode_value(d, mt, (mc++)->cls, pos, items++);
		}
		if (rc < 0 || d->short_of)
			return rc;
		if (*pos > widest)
			widest = *pos;
	}
	if (t->kind == LG_UNION)
		*pos = widest;
	return 0;
}

static int decode_sequence(lg_decoder *d, const lg_type *t, const tc_field_class *cls, uint64_t length, size_t *pos,
                           tc_field *out)
{
	out->cls = cls;
	/* Every element takes at least one byte, except empty compounds,
	 * which the limit on slots bounds. */
	if (length > d->end - *pos + LG_MAX_SLOTS)
		return past_end(d, *pos, "a sequence longer than the block's data");
	tc_field *items = take_slots(d, (size_t)length);
	if (!items)
		return 0;
	out->v.compound.items = items;
	out->v.compound.count = (size_t)length;
	for (uint64_t i = 0; i < length; i++) {
		int rc = decode_value(d, t->element, cls->element, pos, &items[i]);
		if (rc < 0 || d->short_of)
			return rc;
	}
	*pos = lg_pad(*pos, t->realign);
	if (*pos > d->end)
		*pos = d->end;
	return 0;
}

static int decode_value(lg_decoder *d, const lg_type *t, const tc_field_class *cls, size_t *pos, tc_field *out)
{
	out->cls = cls;
	switch (t->kind) {
	case LG_INT:
	case LG_ENUM:
		return decode_int(d, t, pos, &out->v.u);
	case LG_FLOAT: {
		uint64_t bits;
		int rc = decode_int(d, t, pos, &bits);
		if (rc < 0)
			return rc;
		if (t->size == 4) {
			uint32_t b32 = (uint32_t)bits;
			float f;
			memcpy(&f, &b32, sizeof f);
			out->v.f = f;
		} else {
			memcpy(&out->v.f, &bits, sizeof out->v.f);
		}
		return 0;
	}
	case LG_STRING: {
		const uint8_t *s = d->data + *pos;
		const uint8_t *nul = *pos < d->end ? memchr(s, 0, d->end - *pos) : NULL;
		if (!nul)
			return past_end(d, *pos, "a string whose terminating NUL lies past the end of the block's data");
		out->v.str.ptr = (const char *)s;
		out->v.str.len = (size_t)(nul - s);
		*pos = lg_pad(*pos + out->v.str.len + 1, t->realign);
		if (*pos > d->end)
			*pos = d->end;
		return 0;
	}
	case LG_ARRAY: {
		*pos = lg_pad(*pos, t->align);
		if (*pos > d->end)
			return past_end(d, *pos, "an array that runs past the end of the block's data");
		if (t->count > d->end - *pos + LG_MAX_SLOTS)
			return past_end(d, *pos, "an array longer than the block's data");
		tc_field *items = take_slots(d, (size_t)t->count);
		if (!items)
			return 0;
		out->v.compound.items = items;
		out->v.compound.count = (size_t)t->count;
		for (uint64_t i = 0; i < t->count; i++) {
			int rc = decode_value(d, t->element, cls->element, pos, &items[i]);
			if (rc < 0 || d->short_of)
				return rc;
		}
		return 0;
	}
	case LG_SEQUENCE: {
		/* Not a structure member: the model wraps it as { length, elements }. */
		tc_field *items = take_slots(d, 2);
		if (!items)
			return 0;
		out->v.compound.items = items;
		out->v.compound.count = 2;
		*pos = lg_pad(*pos, t->align);
		items[0].cls = cls->members[0].cls;
		int rc = decode_int(d, t->length, pos, &items[0].v.u);
		return rc < 0 ? rc : decode_sequence(d, t, cls->members[1].cls, items[0].v.u, pos, &items[1]);
	}
	case LG_STRUCT:
	case LG_UNION:
		*pos = lg_pad(*pos, t->align);
		if (*pos > d->end)
			return past_end(d, *pos, "a structure that runs past the end of the block's data");
		return decode_members(d, t, cls, pos, out);
	}
	return 0;
}

size_t lg_struct_slot_count(const lg_type *t)
{
	size_t n = t->member_count;
	for (size_t i = 0; i < t->member_count; i++)
		n += t->members[i].type->kind == LG_SEQUENCE;
	return n;
}

int lg_decode(lg_decoder *d, const lg_type *payload, const tc_field_class *cls, size_t *pos, tc_field *out)
{
	for (;;) {
		size_t p = *pos;
		d->used = 0;
		d->short_of = false;
		int rc = decode_value(d, payload, cls, &p, out);
		if (rc < 0)
			return rc;
		if (!d->short_of) {
			*pos = p;
			return 0;
		}
		if (d->cap >= LG_MAX_SLOTS)
			return past_end(d, *pos, "an event of more than a million values");
		size_t ncap = d->cap ? d->cap * 4 : 64;
		tc_field *slots = realloc(d->slots, ncap * sizeof *slots);
		if (!slots)
			return tc_fail_nomem();
		d->slots = slots;
		d->cap = ncap;
	}
}

/* ---- the model's classes ---- */

/* NAME as a CTF identifier: other characters become '_' ("field 1" ->
 * "field_1"), and a leading '_' keeps keywords ("int") and digits legal. */
static char *member_name(tc_pool *pool, const char *name, const char *suffix, const tc_member *done, size_t n)
{
	size_t len = strlen(name), slen = strlen(suffix);
	char *s = tc_pool_alloc(pool, len + slen + 16);
	if (!s)
		return NULL;
	s[0] = '_';
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		s[i + 1] = ok ? c : '_';
	}
	memcpy(s + 1 + len, suffix, slen + 1);
	/* a repeated name gets "_2", "_3"... */
	for (unsigned k = 2;; k++) {
		bool taken = false;
		for (size_t i = 0; i < n && !taken; i++)
			taken = strcmp(done[i].name, s) == 0;
		if (!taken)
			return s;
		snprintf(s + 1 + len + slen, 15, "_%u", k);
	}
}

static tc_field_class *class_new(tc_pool *pool, tc_field_kind kind)
{
	tc_field_class *c = tc_pool_alloc(pool, sizeof *c);
	if (c) {
		c->kind = kind;
		c->align = 8;
		c->base = 10;
	}
	return c;
}

static tc_field_class *model_class(tc_pool *pool, const lg_type *t);

/* A sequence member NAME: M[K] its length, M[K + 1] its elements. */
static int sequence_members(tc_pool *pool, const lg_type *t, const char *name, tc_member *m, size_t k)
{
	tc_field_class *seq = class_new(pool, TC_FIELD_SEQUENCE);
	if (!seq || !(m[k].name = member_name(pool, name, "_length", m, k)) || !(m[k].cls = model_class(pool, t->length)) ||
	    !(m[k + 1].name = member_name(pool, name, "", m, k + 1)) || !(seq->element = model_class(pool, t->element)))
		return TC_ENOMEM;
	seq->length_ref = m[k].name;
	m[k].display_name = m[k].name + 1;
	m[k + 1].display_name = m[k + 1].name + 1;
	m[k + 1].cls = seq;
	return 0;
}

static tc_field_class *struct_class(tc_pool *pool, const lg_type *t)
{
	tc_field_class *c = class_new(pool, TC_FIELD_STRUCT);
	size_t n = lg_struct_slot_count(t);
	tc_member *m = n ? tc_pool_alloc(pool, n * sizeof *m) : NULL;
	if (!c || (n && !m))
		return NULL;
	c->members = m;
	c->member_count = n;
	size_t k = 0;
	for (size_t i = 0; i < t->member_count; i++) {
		const lg_member *lm = &t->members[i];
		if (lm->type->kind == LG_SEQUENCE) {
			if (sequence_members(pool, lm->type, lm->name, m, k) < 0)
				return NULL;
			k += 2;
			continue;
		}
		if (!(m[k].name = member_name(pool, lm->name, "", m, k)) || !(m[k].cls = model_class(pool, lm->type)))
			return NULL;
		m[k].display_name = m[k].name + 1;
		k++;
	}
	return c;
}

static tc_field_class *model_class(tc_pool *pool, const lg_type *t)
{
	static const tc_field_kind kinds[] = { [LG_INT] = TC_FIELD_INT,      [LG_ENUM] = TC_FIELD_ENUM,
		                               [LG_FLOAT] = TC_FIELD_FLOAT,  [LG_STRING] = TC_FIELD_STRING,
		                               [LG_ARRAY] = TC_FIELD_ARRAY,  [LG_SEQUENCE] = TC_FIELD_STRUCT,
		                               [LG_STRUCT] = TC_FIELD_STRUCT, [LG_UNION] = TC_FIELD_STRUCT };
	if (t->kind == LG_STRUCT || t->kind == LG_UNION)
		return struct_class(pool, t);
	tc_field_class *c = class_new(pool, kinds[t->kind]);
	if (!c)
		return NULL;
	c->size = t->size * 8u;
	c->is_signed = t->is_signed;
	c->byte_order = t->big_endian ? TC_BIG_ENDIAN : TC_LITTLE_ENDIAN;
	c->base = t->base ? t->base : 10;
	switch (t->kind) {
	case LG_ENUM:
		if (t->label_count && !(c->labels = tc_pool_alloc(pool, t->label_count * sizeof *c->labels)))
			return NULL;
		for (size_t i = 0; i < t->label_count; i++) {
			tc_enum_range *r = tc_pool_alloc(pool, sizeof *r);
			if (!r)
				return NULL;
			r->lo = r->hi = (uint64_t)t->labels[i].value;
			c->labels[i] = (tc_enum_label){ .label = t->labels[i].name, .ranges = r, .range_count = 1 };
		}
		c->label_count = t->label_count;
		break;
	case LG_ARRAY:
		c->length = t->count;
		if (!(c->element = model_class(pool, t->element)))
			return NULL;
		break;
	case LG_SEQUENCE: {
		/* not a structure member: a structure { length, elements } */
		tc_member *m = tc_pool_alloc(pool, 2 * sizeof *m);
		if (!m || sequence_members(pool, t, "elements", m, 0) < 0)
			return NULL;
		c->members = m;
		c->member_count = 2;
		break;
	}
	default:
		break;
	}
	return c;
}

tc_field_class *lg_payload_class(tc_pool *pool, const lg_type *payload)
{
	return model_class(pool, payload);
}
