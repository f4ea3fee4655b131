/* SPDX-License-Identifier: MIT */
/*
 * ctf_write.h - private pieces of the CTF writer:
 *
 *   tsdl_write.c  a trace's classes as CTF 1.8 metadata text
 *   json_write.c  a trace's classes as CTF 2 metadata
 *   copy.c        a CTF trace copied packet for packet (nothing filtered)
 *   writer.c      messages encoded into new packets (tc_ctf_writer)
 *   fit.c         the check that each value fits the layout it is written in
 */
#ifndef TC_CTF_WRITE_H
#define TC_CTF_WRITE_H

#include "core/core.h"

/* Appends the metadata text of T (classes, environment, clocks) to B. */
int ctf_tsdl_write(const tc_trace *t, tc_buf *b);
/* The same as CTF 2: a JSON text sequence (json_write.c). */
int ctf_json_write(const tc_trace *t, tc_buf *b);

/* NAME made a TSDL identifier (other characters become '_'), as the
 * metadata names the clock. */
void ctf_clock_identifier(const char *name, char *out, size_t size);

/* Whether C can be in a TSDL identifier (FIRST: as its first character). */
bool ctf_tsdl_ident_char(char c, bool first);
/* Whether S is a TSDL keyword, which cannot name a field. */
bool ctf_tsdl_is_keyword(const char *s);

/* Writes the bytes of B to DIR/NAME; errors carry the file's path. */
int ctf_write_file(const char *dir, const char *name, const void *data, size_t len);

/* ---- fit.c: values checked against their declared layout ---- */

/* Elements of compound arrays followed when a length is looked for. */
#define CTF_FIT_DEPTH 16

/* What the check knows of the message being encoded, and what it found
 * (one per output stream; writer.c fills ROOTS and ELEMS as it goes). */
typedef struct ctf_fit {
	const tc_field *roots[TC_SCOPE_COUNT];  /* the input's fields, by scope */
	struct {
		const tc_field *array;          /* an input array or sequence */
		size_t index;                   /* its element being encoded */
	} elems[CTF_FIT_DEPTH];                 /* outermost first */
	size_t depth;                           /* may pass CTF_FIT_DEPTH: those are not kept */
	const tc_field_class *bad;              /* the output class of what did not fit */
	char what[128];                         /* how it did not */
} ctf_fit;

/* Whether V, an integer value (signed in v.s when OC is), fits the SIZE
 * bits of output class OC. */
static inline bool ctf_fit_int(const tc_field_class *oc, uint64_t v)
{
	unsigned n = oc->size;
	if (n >= 64)
		return true;
	if (!oc->is_signed)
		return v >> n == 0;
	int64_t s = (int64_t)v, half = (int64_t)1 << (n - 1);
	return s >= -half && s < half;
}

/* Records in FIT that a value of output class OC does not fit it (FMT
 * says how); TC_EINVAL, for ctf_fit_error to name the field. */
int ctf_fit_fail(ctf_fit *fit, const tc_field_class *oc, const char *fmt, ...) TC_PRINTF(3, 4);

/* 0 when input sequence or dynamic BLOB F, written as OC with COUNT
 * elements, has the count its length field holds (found by its class's
 * resolved ref in FIT's message; not checked when it cannot be found),
 * else as ctf_fit_fail. */
int ctf_fit_length(ctf_fit *fit, const tc_field_class *oc, const tc_field *f, uint64_t count);

/* RC, the failure to encode event EVENT of STREAM, as the error that
 * names the field that did not fit (searched in the N output scope
 * classes SCOPES) when that was the cause; RC as it is otherwise. */
int ctf_fit_error(ctf_fit *fit, int rc, const char *stream, const char *event, const tc_field_class *const *scopes,
                  size_t n);

#endif /* TC_CTF_WRITE_H */
