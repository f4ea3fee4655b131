/* SPDX-License-Identifier: MIT */
/*
 * ctf2_build.h - what the CTF 2 unit tests share: classes built by hand as
 * the CTF 2 front end builds them (plans compiled by plan.c, lengths and
 * selectors resolved into the plans' ref_* fields), and payloads decoded
 * with decode.c.  Each test program includes it once (everything is
 * static) after check.h, and sets up B (ctf2_setup()).
 */
#ifndef TC_UNIT_CTF2_BUILD_H
#define TC_UNIT_CTF2_BUILD_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/plan.h"

/* ------------------------------------------------------------------------
 * Classes
 */

static ctf_trace *T;
static ctf_build B;

static void ctf2_setup(void)
{
	T = calloc(1, sizeof *T);
	tc_pool_init(&T->pool);
	B.t = T;
	B.pool = &T->pool;
	B.path = "metadata";
}

static void ctf2_teardown(void)
{
	tc_pool_free(&T->pool);
	free(T);
}

static __attribute__((unused)) tc_field_class *fixed(tc_field_kind kind, unsigned size, unsigned align, tc_byte_order bo)
{
	tc_field_class *fc = ctf_build_class(&B, kind);
	fc->size = size;
	fc->align = align;
	fc->byte_order = bo;
	fc->base = 10;
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *uint_le(unsigned size, unsigned align)
{
	return fixed(TC_FIELD_INT, size, align, TC_LITTLE_ENDIAN);
}

static __attribute__((unused)) tc_field_class *sint_le(unsigned size, unsigned align)
{
	tc_field_class *fc = fixed(TC_FIELD_INT, size, align, TC_LITTLE_ENDIAN);
	fc->is_signed = true;
	return fc;
}

static __attribute__((unused)) tc_field_class *with_base(tc_field_class *fc, unsigned base)
{
	fc->base = base;
	return fc;
}

/* A fixed-length integer, boolean, bit array or float read in the other
 * bit order than its byte order's. */
static __attribute__((unused)) tc_field_class *reversed(tc_field_class *fc)
{
	fc->flags |= TC_FIELD_BIT_REVERSED;
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *varint(bool is_signed)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_INT);
	fc->flags = TC_FIELD_VARLEN;
	fc->size = 64;
	fc->align = 8;
	fc->is_signed = is_signed;
	fc->base = 10;
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *float_cls(unsigned size, tc_byte_order bo)
{
	return fixed(TC_FIELD_FLOAT, size, 1, bo);
}

static __attribute__((unused)) tc_enum_range *ranges_of(size_t n, const int64_t *lohi)
{
	tc_enum_range *r = ctf_build_alloc(&B, n * sizeof *r);
	for (size_t i = 0; i < n; i++) {
		r[i].lo = (uint64_t)lohi[2 * i];
		r[i].hi = (uint64_t)lohi[2 * i + 1];
	}
	return r;
}

/* Labels of COUNT names, each with one range [lo, hi]: "A", lo, hi, ... */
static __attribute__((unused)) tc_enum_label *labels_of(size_t count, ...)
{
	tc_enum_label *l = ctf_build_alloc(&B, count * sizeof *l);
	va_list ap;
	va_start(ap, count);
	for (size_t i = 0; i < count; i++) {
		l[i].label = va_arg(ap, char *);
		int64_t lohi[2];
		lohi[0] = va_arg(ap, int64_t);
		lohi[1] = va_arg(ap, int64_t);
		l[i].ranges = ranges_of(1, lohi);
		l[i].range_count = 1;
		l[i].print_rank = (unsigned)i;
	}
	va_end(ap);
	return l;
}

static __attribute__((unused)) tc_field_class *mapped(tc_field_class *fc, tc_enum_label *labels, size_t count)
{
	fc->kind = TC_FIELD_ENUM;
	fc->labels = labels;
	fc->label_count = count;
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *string_cls(tc_string_encoding enc)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_STRING);
	fc->align = 8;
	fc->encoding = enc;
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *text_element(void)
{
	tc_field_class *el = uint_le(8, 8);
	el->has_encoding = true;
	return el;
}

/* A static-length string of LEN bytes. */
static __attribute__((unused)) tc_field_class *static_string(uint64_t len, tc_string_encoding enc)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_ARRAY);
	fc->flags = TC_FIELD_TEXT;
	fc->element = text_element();
	fc->length = len;
	fc->align = 8;
	fc->encoding = enc;
	ctf_layout_update(&B, fc);
	return fc;
}

/* Sets FC's reference (length or selector) to the field at the N steps
 * from the root of SCOPE, of class TARGET. */
static __attribute__((unused)) void refer(tc_field_class *fc, ctf_scope scope, const tc_field_class *target, size_t n, ...)
{
	ctf_plan *pl = plan_of(fc);
	pl->ref_scope = scope;
	pl->ref_cls = target;
	pl->ref_len = n;
	pl->ref_path = ctf_build_alloc(&B, (n ? n : 1) * sizeof *pl->ref_path);
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		pl->ref_path[i] = (uint16_t)va_arg(ap, int);
	va_end(ap);
	plan_of(target)->referenced = true;
	/* what ctf_trace_finish() publishes in the model */
	fc->ref = (tc_field_path){ (tc_scope)scope, pl->ref_path, n, target };
}

static __attribute__((unused)) tc_field_class *dynamic_string(tc_string_encoding enc)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_SEQUENCE);
	fc->flags = TC_FIELD_TEXT;
	fc->element = text_element();
	fc->align = 8;
	fc->encoding = enc;
	fc->length_ref = "event.fields.n";
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *blob(uint64_t len, bool dynamic)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_BLOB);
	fc->length = len;
	if (dynamic)
		fc->length_ref = "event.fields.n";
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *array_of(tc_field_class *el, uint64_t len, unsigned min_align)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_ARRAY);
	fc->element = el;
	fc->length = len;
	fc->align = min_align;
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *sequence_of(tc_field_class *el)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_SEQUENCE);
	fc->element = el;
	fc->length_ref = "event.fields.n";
	ctf_layout_update(&B, fc);
	return fc;
}

static __attribute__((unused)) tc_field_class *optional_of(tc_field_class *el, tc_enum_label *ranges)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_OPTIONAL);
	fc->element = el;
	fc->tag_ref = "event.fields.sel";
	if (ranges) {
		fc->labels = ranges;
		fc->label_count = 1;
	}
	ctf_layout_update(&B, fc);
	return fc;
}

/* A structure (MIN_ALIGN: its minimum alignment) of NAME, CLASS pairs,
 * NULL-terminated; names are verbatim, as CTF 2 prints them. */
static __attribute__((unused)) tc_field_class *structure(unsigned min_align, ...)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_STRUCT);
	fc->align = min_align;
	va_list ap;
	va_start(ap, min_align);
	size_t n = 0;
	while (va_arg(ap, const char *)) {
		(void)va_arg(ap, tc_field_class *);
		n++;
	}
	va_end(ap);
	fc->members = ctf_build_alloc(&B, (n ? n : 1) * sizeof *fc->members);
	fc->member_count = n;
	va_start(ap, min_align);
	for (size_t i = 0; i < n; i++) {
		fc->members[i].name = va_arg(ap, char *);
		fc->members[i].display_name = fc->members[i].name;
		fc->members[i].cls = va_arg(ap, tc_field_class *);
	}
	va_end(ap);
	ctf_layout_update(&B, fc);
	return fc;
}

/* A CTF 2 variant of N options: NAME, CLASS, then its selector ranges
 * as a label built with labels_of(). */
static __attribute__((unused)) tc_field_class *variant(size_t n, ...)
{
	tc_field_class *fc = ctf_build_class(&B, TC_FIELD_VARIANT);
	fc->members = ctf_build_alloc(&B, n * sizeof *fc->members);
	fc->labels = ctf_build_alloc(&B, n * sizeof *fc->labels);
	fc->member_count = fc->label_count = n;
	fc->tag_ref = "event.fields.sel";
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < n; i++) {
		fc->members[i].name = va_arg(ap, char *);
		fc->members[i].display_name = fc->members[i].name;
		fc->members[i].cls = va_arg(ap, tc_field_class *);
		fc->labels[i] = *va_arg(ap, tc_enum_label *);
	}
	va_end(ap);
	ctf_layout_update(&B, fc);
	return fc;
}

/* One label holding N [lo, hi] ranges. */
static __attribute__((unused)) tc_enum_label *ranges_label(size_t n, ...)
{
	tc_enum_label *l = ctf_build_alloc(&B, sizeof *l);
	int64_t lohi[16];
	va_list ap;
	va_start(ap, n);
	for (size_t i = 0; i < 2 * n && i < 16; i++)
		lohi[i] = va_arg(ap, int64_t);
	va_end(ap);
	l->label = "";
	l->ranges = ranges_of(n, lohi);
	l->range_count = n;
	return l;
}

/* Decodes an event header of class HEADER (NULL: none), then a payload
 * of class PAYLOAD at D's position into *ROOT, in D's arena (grown as
 * needed, reset first). */
static __attribute__((unused)) int decode_event(ctf_decoder *d, const tc_field_class *header,
                                                const tc_field_class *payload, tc_field **root)
{
	uint64_t start = d->pos;
	int rc;
	for (;;) {
		tc_field *h;
		d->arena->used = 0;
		rc = header ? ctf_decode_scope(d, SCOPE_EVENT_HEADER, header, &h) : 0;
		if (rc == 0)
			rc = ctf_decode_scope(d, SCOPE_PAYLOAD, payload, root);
		if (rc != CTF_ARENA_RETRY)
			return rc;
		if (ctf_arena_grow(d->arena) < 0)
			return TC_ENOMEM;
		d->pos = start;
	}
}

static __attribute__((unused)) int decode_payload(ctf_decoder *d, const tc_field_class *payload, tc_field **root)
{
	return decode_event(d, NULL, payload, root);
}

/* A decoder of the N bytes at BYTES, a stream of payloads, into ARENA. */
static void decoder_init(ctf_decoder *d, const uint8_t *bytes, size_t n, ctf_arena *arena)
{
	memset(d, 0, sizeof *d);
	d->buf = bytes;
	d->limit = (uint64_t)n * 8;
	d->last_bo = -1;
	d->path = "stream";
	d->arena = arena;
}

#endif /* TC_UNIT_CTF2_BUILD_H */
