/* SPDX-License-Identifier: MIT */
/*
 * model.h - layer 2 of trace.dat support: a trace.dat file as tracecat's
 * event model, on top of the raw reader (tracedat.h).
 *
 *   classes.c  event format texts -> field classes and decoding plans
 *   model.c    the trace: environment, clocks, one stream class per
 *              buffer, one stream per (buffer, CPU); tc_format_tracedat
 *   stream.c   records -> messages (a tc_stream_iter per stream)
 *   symbols.c  the kallsyms as the trace's symbol table (tc_trace_symbol),
 *              read by kallsyms.c, which report's plans share
 *
 * The model, as `tracecat print` shows it:
 *
 *   - one tc_trace per file, named after the file's base name; its
 *     environment has hostname, sysname, kernel_release and machine (from
 *     the UNAME option), domain "kernel", tracer_name "trace-cmd",
 *     tracer_version, trace_clock and trace_dat_version;
 *   - one clock per trace clock name, at 1 GHz (nanoseconds after
 *     TSC2NSEC and TIME_SHIFT), offset by the OFFSET and DATE options, so
 *     that --clock-seconds shows trace-cmd report's seconds;
 *   - one stream class per buffer, id 0 for the top buffer and 1, 2, ...
 *     for instances in file order, each with every event format as an
 *     event class (id = the format's ID, name = the ftrace event name, no
 *     buffer prefix); its packet context is { cpu_id } and its event
 *     context the common_* fields;
 *   - one stream per CPU with data, id = CPU, named "FILE:cpuN" (top) or
 *     "FILE:BUFFER:cpuN" (instances);
 *   - payload: the other fields of the format, in its order: integers in
 *     base 10, char arrays and __data_loc/__rel_loc char[] as strings,
 *     other static arrays as arrays and flexible or dynamic arrays as
 *     sequences of integers, each after a 32-bit length member
 *     __NAME_length (shown _NAME_length, as LTTng's lengths are), which
 *     CTF needs when the trace is converted; so is the last static array
 *     of an ftrace-internal event (kernel_stack's and user_stack's
 *     caller[8]), which holds what the record holds, kernel_stack's
 *     frames flagged TC_FIELD_CODE_ADDRESS;
 *   - a page's missed-events flag gives a discarded-events message (count
 *     0 when the kernel did not store it) before its first event.
 *
 * Records whose id has no format (formats not saved, ftrace-internal
 * records) are skipped, as doc/formats/tracedat.md §12.6 says.
 */
#ifndef TC_TRACEDAT_MODEL_H
#define TC_TRACEDAT_MODEL_H

#include "tracedat/kallsyms.h"
#include "tracedat/tracedat.h"

#include <pthread.h>
#include <stdatomic.h>

/* How one field is decoded. */
typedef enum td_decode {
	TD_INT,          /* 1, 2, 4 or 8 bytes */
	TD_TEXT,         /* char array, fixed or running to the payload's end */
	TD_ARRAY,        /* fixed count of integers */
	TD_TAIL_ARRAY,   /* integers up to the payload's end (size 0, "[]") */
	TD_LOC_TEXT,     /* __data_loc / __rel_loc char[] */
	TD_LOC_ARRAY,    /* __data_loc / __rel_loc of other elements */
	TD_LENGTH        /* the element count of the next field, a sequence */
} td_decode;

/* A value change on the way (lttng.c). */
typedef enum td_transform {
	TD_X_NONE,
	TD_X_PRIO,        /* minus 100 */
	TD_X_PREV_STATE,  /* re-encoded for Trace Compass */
	TD_X_RWBS         /* text -> LTTng's block-request bit mask */
} td_transform;

typedef struct td_field_plan {
	td_decode how;
	td_transform transform;
	bool is_signed;            /* integers, elements */
	bool relative;             /* __rel_loc */
	uint32_t offset, size;     /* the field in the payload */
	uint32_t elem_size;        /* integers and elements: 1, 2, 4 or 8 */
	uint32_t count;            /* TD_ARRAY: elements */
	bool tail;                 /* TD_TEXT: runs to the payload's end */
	bool end_mark;             /* TD_TAIL_ARRAY: ends before an element whose
	                              low 32 bits are all ones (kernel_stack) */
	const tc_field_class *cls;
} td_field_plan;

/* One event format, shared by every buffer's event class for it. */
typedef struct td_event_plan {
	const char *name;
	uint32_t id;
	tc_field_class *payload;   /* NULL when the event has no own fields */
	td_field_plan *fields;
	size_t field_count;
	uint32_t min_size;         /* payload bytes its scalar fields need */
	/* LTTng conventions, raw_syscalls: 1 sys_enter, 2 sys_exit; their
	 * records go to the plan of their number (lttng.c) */
	uint8_t raw_syscall;
	const td_field_plan *nr_field;
	uint32_t *by_nr;           /* plan index + 1 per number, 0: unnamed */
	size_t nr_count;
	uint32_t unknown_plan;     /* plan index + 1: syscall_entry/exit_unknown */
	/* a raw syscall's plan by number: plan index + 1 of the named event
	 * (syscalls:*) of the same LTTng name, which a raw record repeats
	 * when both were recorded; 0 when none */
	uint32_t twin;
} td_event_plan;

typedef struct td_stream_class {
	tc_stream_class pub;
	size_t buffer_index;
	tc_event_class *classes;   /* one per plan, same index */
} td_stream_class;

typedef struct td_trace {
	tc_trace pub;
	tc_pool pool;
	tracedat_file *file;
	/* the common fields: the stream event context */
	tc_field_class *common;
	td_field_plan *common_fields;
	size_t common_count;
	uint32_t common_size;      /* bytes every payload needs for them */
	uint32_t type_offset, type_size;   /* common_type: the event id */
	tc_field_class *packet_context;    /* { cpu_id } */
	td_event_plan *plans;
	size_t plan_count;
	uint32_t *plan_by_id;      /* index + 1, 0: none; id_limit entries */
	size_t id_limit;
	/* the first format's common fields, which every format must share */
	const tracedat_field *common_fmt;
	size_t common_fmt_count;
	/* LTTng's conventions (lttng.c), and prev_state's letters */
	bool lttng;
	uint32_t state_mask[8];    /* S D T t X Z P I */
	uint32_t preempt_mask;
	/* the kallsyms as a symbol table (symbols.c), read on first use */
	pthread_mutex_t symbols_lock;
	atomic_bool symbols_read;
	td_kallsyms symbols;
} td_trace;

/* ---- lttng.c ---- */

typedef struct td_lttng_field {
	const char *name;          /* shown name, without the leading '_' */
	td_transform transform;
	bool drop;
} td_lttng_field;

/* The LTTng name of SYSTEM's event NAME (allocated in T's pool). */
const char *td_lttng_event_name(td_trace *t, const char *system, const char *name);
td_lttng_field td_lttng_field_of(const char *system, const char *event, const char *field);
void td_lttng_read_states(td_trace *t, const char *print_fmt, size_t len);
uint64_t td_lttng_prev_state(const td_trace *t, uint64_t v);
uint64_t td_lttng_rwbs(const char *s, size_t len);
/* Plans to add after the formats': room td_build_classes keeps for them. */
size_t td_lttng_extra_plans(void);
/* Named plans for every system call of raw_syscalls' plans (x86-64). */
int td_lttng_add_syscalls(td_trace *t);
/* The plan for REC's system call number when PLAN is a raw_syscalls one. */
const td_event_plan *td_lttng_syscall_plan(const td_trace *t, const td_event_plan *plan, const uint8_t *payload);

/* ---- symbols.c ---- */

/* tc_trace.symbol_at of a trace.dat trace with kallsyms. */
bool td_symbol_at(const tc_trace *trace, uint64_t addr, tc_symbol *out);
/* Frees what the look-ups read, and SYMBOLS_LOCK (initialised with T). */
void td_symbols_free(td_trace *t);

/* Parses every format of T's file into T's plans and common fields. */
int td_build_classes(td_trace *t);

/*
 * Decoding one ftrace record REC (common_type onward, at least
 * PLAN->min_size bytes) along PLAN, for the trace.dat streams and for
 * perf.data's RAW samples (src/perf): td_record_slots() says how many
 * fields SLOTS must have room for; td_decode_record() then fills CONTEXT
 * with the common fields and, when PLAN has a payload, PAYLOAD with the
 * others, their members in SLOTS.  It cannot fail.
 */
size_t td_record_slots(const td_trace *t, const td_event_plan *plan, const tracedat_record *rec);
void td_decode_record(const td_trace *t, const td_event_plan *plan, const tracedat_record *rec, tc_field *context,
                      tc_field *payload, tc_field *slots);

/* Adds to IN the iterator of one stream. */
int td_stream_iter_add(tc_input *in, td_trace *t, td_stream_class *sc, tc_stream *stream);

#endif /* TC_TRACEDAT_MODEL_H */
