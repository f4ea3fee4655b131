/* SPDX-License-Identifier: MIT */
/*
 * fit.c - the CTF writer's check that every value it encodes fits the
 * layout its metadata declares (ctf_write.h, ctf_fit).  A reader reads a
 * CTF stream by its metadata alone: one array element more than the
 * declared length, or a sequence longer than its length field says,
 * shifts every later field, and babeltrace2 then stops at the next event
 * header it cannot make sense of ("No event class with ID ...").  So the
 * writer refuses such a message, with an error naming the event and the
 * field, instead of writing a stream no one can read.
 *
 * writer.c checks what it can see where it encodes (integer ranges,
 * array and structure counts); here are the parts that need more: the
 * value of a sequence's length field, found by the input class's resolved
 * reference (tc_field_class.ref) in the message's fields, and the name of
 * the field that did not fit, found in the output classes once encoding
 * failed.
 */
#include "ctf/ctf_write.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

int ctf_fit_fail(ctf_fit *fit, const tc_field_class *oc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(fit->what, sizeof fit->what, fmt, ap);
	va_end(ap);
	fit->bad = oc;
	return tc_fail(TC_EINVAL, NULL, -1, "%s", fit->what);
}

/* The element of input array or sequence A being encoded, NULL when not
 * known (deeper than CTF_FIT_DEPTH, or not being encoded). */
static const tc_field *element_of(const ctf_fit *fit, const tc_field *a)
{
	size_t n = fit->depth < CTF_FIT_DEPTH ? fit->depth : CTF_FIT_DEPTH;
	for (size_t i = n; i-- > 0;)
		if (fit->elems[i].array == a)
			return a->v.compound.count > fit->elems[i].index ? &a->v.compound.items[fit->elems[i].index] : NULL;
	return NULL;
}

/* The input field REF leads to in the message being encoded (steps as
 * tracecat.h's tc_field_path says), NULL when it cannot be followed. */
static const tc_field *field_at(const ctf_fit *fit, const tc_field_path *ref)
{
	const tc_field *f = ref->scope < TC_SCOPE_COUNT ? fit->roots[ref->scope] : NULL;
	for (size_t i = 0; f && f->cls && i < ref->len; i++) {
		uint16_t step = ref->steps[i];
		switch (f->cls->kind) {
		case TC_FIELD_STRUCT:
			f = step < f->v.compound.count ? &f->v.compound.items[step] : NULL;
			break;
		case TC_FIELD_VARIANT:
			f = f->v.compound.count && (step == TC_PATH_SELECTED || step == f->option) ? &f->v.compound.items[0]
			                                                                          : NULL;
			break;
		case TC_FIELD_OPTIONAL:
			f = f->v.compound.count && step == TC_PATH_SELECTED ? &f->v.compound.items[0] : NULL;
			break;
		case TC_FIELD_ARRAY:
		case TC_FIELD_SEQUENCE:
			f = step == TC_PATH_ELEMENT ? element_of(fit, f) : NULL;
			break;
		default:
			f = NULL;
		}
	}
	return f && f->cls ? f : NULL;
}

int ctf_fit_length(ctf_fit *fit, const tc_field_class *oc, const tc_field *f, uint64_t count)
{
	if (!f->cls || !f->cls->ref.len)
		return 0;
	const tc_field *len = field_at(fit, &f->cls->ref);
	if (!len || (len->cls->kind != TC_FIELD_INT && len->cls->kind != TC_FIELD_ENUM))
		return 0;
	if (len->cls->is_signed && len->v.s < 0)
		return ctf_fit_fail(fit, oc, "%" PRIu64 " elements where its length field says %" PRId64, count, len->v.s);
	if (len->v.u != count)
		return ctf_fit_fail(fit, oc, "%" PRIu64 " elements where its length field says %" PRIu64, count, len->v.u);
	return 0;
}

/* Appends to B the path of class TARGET inside class C (member names
 * joined by '.', "[]" into elements): true when found. */
static bool path_to(const tc_field_class *c, const tc_field_class *target, tc_buf *b)
{
	if (c == target)
		return true;
	size_t mark = b->len;
	switch (c->kind) {
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT:
		for (size_t i = 0; i < c->member_count; i++) {
			const tc_member *m = &c->members[i];
			const char *name = m->display_name ? m->display_name : m->name ? m->name : "";
			if (tc_buf_printf(b, "%s%s", mark ? "." : "", name) < 0)
				return false;
			if (path_to(m->cls, target, b))
				return true;
			b->len = mark;
		}
		return false;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
	case TC_FIELD_OPTIONAL:
		if (!c->element || (c->kind != TC_FIELD_OPTIONAL && tc_buf_printf(b, "[]") < 0))
			return false;
		if (path_to(c->element, target, b))
			return true;
		b->len = mark;
		return false;
	default:
		return false;
	}
}

int ctf_fit_error(ctf_fit *fit, int rc, const char *stream, const char *event, const tc_field_class *const *scopes,
                  size_t n)
{
	if (!fit->bad)
		return rc;
	tc_buf path = { 0 };
	bool found = false;
	for (size_t i = 0; i < n && !found; i++) {
		path.len = 0;
		if (path.data)
			path.data[0] = '\0';
		found = scopes[i] && path_to(scopes[i], fit->bad, &path);
	}
	if (found && path.data)
		path.data[path.len] = '\0';
	rc = tc_fail(TC_EINVAL, stream, -1, "event \"%s\": field %s: %s: not written, as readers would not read the stream",
	             event ? event : "(unnamed)", found && path.len ? path.data : "(unnamed)", fit->what);
	tc_buf_free(&path);
	fit->bad = NULL;
	return rc;
}
