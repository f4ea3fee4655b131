/* SPDX-License-Identifier: MIT */
/*
 * plan.h - what the two CTF metadata front ends share: building classes
 * into a trace's pool, and compiling their decoding plans.
 *
 *   tsdl_meta.c  CTF 1.8: TSDL syntax tree -> classes (metadata.c reads
 *                the file, tsdl_parse.c the text)
 *   json_meta.c  CTF 2: JSON fragments -> classes
 *   plan.c       both: layouts (alignment, fixed-layout runs, enumeration
 *                ranges), stream-class tables, tracer quirks
 *   event_plan.c both: specialised plans of fixed-layout events
 *
 * A front end builds each class with ctf_build_class(), calls
 * ctf_layout_update() on it once its children are complete (bottom-up),
 * resolves lengths and tags into the plans' ref_* fields, marks roles and
 * hidden fields, and ends with ctf_stream_class_finish() on every stream
 * class and ctf_trace_finish().  The decoder only ever sees plans, so a
 * CTF 2 trace decodes exactly as fast as its CTF 1.8 twin.
 */
#ifndef TC_CTF_PLAN_H
#define TC_CTF_PLAN_H

#include "ctf/ctf.h"

#define METADATA_MAX_BYTES (256u << 20)

typedef struct ctf_build {
	ctf_trace *t;
	tc_pool *pool;               /* the trace's: owns every class */
	const char *path;            /* the metadata file, for errors */
	const tc_open_options *opts;
	int err;                     /* the first error, then every call fails */
} ctf_build;

/* Records the first metadata error and returns it: at byte OFFSET (< 0:
 * none) and, for TSDL, LINE (0: none). */
int ctf_build_fail(ctf_build *b, int64_t offset, int line, const char *fmt, ...) TC_PRINTF(4, 5);
int ctf_build_vfail(ctf_build *b, int64_t offset, int line, const char *fmt, va_list ap);
/* The same at the place FC was written (its plan's src_offset/src_line). */
int ctf_build_fail_at(ctf_build *b, const tc_field_class *fc, const char *fmt, ...) TC_PRINTF(3, 4);

/* Pool memory, zeroed; NULL (and b->err set) when out of memory. */
void *ctf_build_alloc(ctf_build *b, size_t size);
/* A new class of KIND with an empty plan, alignment 1. */
tc_field_class *ctf_build_class(ctf_build *b, tc_field_kind kind);

/* Computes FC's alignment and minimum size from what it holds, and its
 * fixed-layout runs (structures) or flattened label ranges (enumerations). */
int ctf_layout_update(ctf_build *b, tc_field_class *fc);
/* An alignment metadata may give: a power of two up to 2^20 bits (a bound
 * against hostile metadata; real traces use at most 64). */
bool ctf_alignment_ok(uint64_t align);

tc_clock *ctf_find_clock(const ctf_trace *t, const char *name);
/* Sets C's offset from its origin to its offset_s plus CYCLES, with the
 * --clock-offset options of OPTS added, keeping offset < freq. */
void ctf_clock_set_offset(tc_clock *c, uint64_t cycles, const tc_open_options *opts);

/* Once roles, references and hidden fields are set: the stream class's
 * clock (the one its integers map), its packet flags, and the event class
 * table by id. */
int ctf_stream_class_finish(ctf_build *b, ctf_stream_class *sc);
/* Sets *OUT to the specialised plan of event class EC of stream class SC
 * (see ctf_event_plan), or to NULL when its layout does not allow one. */
int ctf_event_plan_compile(ctf_build *b, const ctf_stream_class *sc, const tc_event_class *ec,
                           const ctf_event_plan **out);
/* The same for SC's event header (see ctf_header_plan). */
int ctf_header_plan_compile(ctf_build *b, const ctf_stream_class *sc, const ctf_header_plan **out);
/* Tracer quirks from the environment, class counts. */
void ctf_trace_finish(ctf_trace *t);

#endif /* TC_CTF_PLAN_H */
