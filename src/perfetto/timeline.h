/* SPDX-License-Identifier: MIT */
/*
 * timeline.h - what the Perfetto and Chrome JSON writers share: the
 * reading of tracecat's event model as a timeline of threads, CPUs and
 * function calls, worked out once per event class and kept as the trace
 * goes (timeline.c), and the output file.
 *
 *   timeline.c     tc_timeline_writer_*: dispatch to a format, warnings,
 *                  clocks, event classes, threads
 *   outfile.c      the output file, written on a thread of its own or not
 *   perfetto.c     Perfetto's protobuf trace (pb.h encodes it)
 *   chrome_json.c  Chrome's Trace Event Format
 *
 * The reading:
 *
 *   - Kernel data (trace.dat, CTF with domain "kernel", legacy LTTng):
 *     events Perfetto's importer understands are recognised by name
 *     under each naming convention (ftrace's sched_switch, LTTng's
 *     sched_switch with prev_tid, legacy LTTng's kernel.sched_schedule;
 *     tl_event_specs in timeline.c) and their fields found by role.  The
 *     thread an event ran in is its common_pid (trace.dat), its tid
 *     context (LTTng), or else the task sched_switch last put on its CPU.
 *   - User space (uftrace, every other CTF): LTTng-UST's
 *     lttng_ust_cyg_profile[_fast] func_entry/func_exit are function calls
 *     (named by the _func field uftrace's events carry, else by address),
 *     every other event an instant; the thread is the vtid/vpid/procname
 *     context, or the stream when there is none.
 *   - Time: every clock is related to one trace clock, the clock of the
 *     first kernel trace (else of the first trace): the same clock, the
 *     same kind of system clock on the same machine (CLOCK_MONOTONIC read
 *     by uftrace and LTTng; the hostnames tell machines apart), or both
 *     offset from the Unix epoch (a zero offset says nothing).  Timestamps are the
 *     clock's own nanoseconds (without its offset) plus the difference to
 *     the trace clock; a clock with no known relation keeps its values,
 *     with a warning.
 *   - Function calls on a thread: a call whose entry was not recorded (a
 *     forked child returning through its parent's frames) begins just
 *     before the thread's first event, outer calls before inner ones, so
 *     that every call is one whole slice nested as the replay shows it.
 */
#ifndef TC_PERFETTO_TIMELINE_H
#define TC_PERFETTO_TIMELINE_H

#include "core/core.h"
#include "perfetto/pb.h"

/* What an event is to a timeline. */
typedef enum tl_kind {
	TL_OTHER,              /* kept with its fields */
	/* kernel events with a meaning of their own (tl_event_specs) */
	TL_SCHED_SWITCH,
	TL_SCHED_WAKING,
	TL_SCHED_WAKEUP,
	TL_SCHED_WAKEUP_NEW,
	TL_PROCESS_FORK,
	TL_PROCESS_EXIT,
	TL_PROCESS_FREE,
	TL_TASK_NEWTASK,
	TL_TASK_RENAME,
	TL_IRQ_ENTRY,
	TL_IRQ_EXIT,
	TL_SOFTIRQ_ENTRY,
	TL_SOFTIRQ_EXIT,
	TL_SOFTIRQ_RAISE,
	TL_WORKQUEUE_START,
	TL_WORKQUEUE_END,
	TL_CPU_FREQUENCY,
	TL_CPU_IDLE,
	TL_PRINT,
	TL_STATEDUMP_TASK,     /* a thread alive at the start (LTTng statedumps) */
	/* user space */
	TL_FUNC_ENTRY,
	TL_FUNC_EXIT,
	TL_KIND_COUNT
} tl_kind;

/* The type of a field of a typed event. */
typedef enum tl_type { TL_STR, TL_INT, TL_UINT } tl_type;

#define TL_MAX_FIELDS 7

typedef struct tl_field_spec {
	const char *name;          /* Perfetto's name; NULL ends the list */
	uint32_t number;           /* its field number in Perfetto's message */
	tl_type type;
	unsigned flags;            /* TL_REQUIRED, TL_PRIO */
	/* the model's names for it, tried in order (shown names: without
	 * the leading underscore) */
	const char *aliases[3];
} tl_field_spec;

enum {
	TL_REQUIRED = 1,           /* the event is kept generic without it */
	TL_PRIO = 2                /* LTTng records priorities minus 100 */
};

typedef struct tl_event_spec {
	tl_kind kind;
	uint32_t number;           /* its field number in FtraceEvent, 0: none */
	const char *names[4];      /* event names: ftrace's, LTTng's, legacy LTTng's */
	tl_field_spec fields[TL_MAX_FIELDS];
} tl_event_spec;

/* Roles of a statedump task's fields, in tl_event_specs' order. */
enum { TL_TASK_TID, TL_TASK_PID, TL_TASK_PPID, TL_TASK_NAME };

/* One input clock and its relation to the trace clock. */
typedef struct tl_clock {
	const tc_clock *clk;
	int64_t delta_ns;          /* added to the clock's own nanoseconds (0 when unrelated) */
} tl_clock;

/* Where a context field is: which scope, and the member's index. */
typedef struct tl_ref {
	int8_t scope;              /* 0: absent, 1: stream event context, 2: event context */
	int16_t index;
} tl_ref;

/* One event class, read once. */
typedef struct tl_class {
	const tc_event_class *ec;
	tl_kind kind;
	const tl_event_spec *spec; /* kernel events with a meaning */
	int16_t fields[TL_MAX_FIELDS];  /* payload member of each spec field, -1: absent */
	bool lttng_prio;           /* priorities are LTTng's (minus 100) */
	int state_encoding;        /* of sched_switch's prev_state: TL_STATE_* */
	bool kernel;               /* a kernel trace's event */
	const tl_clock *clock;     /* NULL: the events have no time */
	/* threads: tid, pid, name, and the ftrace flags */
	tl_ref tid, pid, procname, flags;
	/* function calls: member indexes, -1 when absent */
	int16_t func_name, func_addr, func_args, func_retval, func_depth;
	/* the writer's own number for this class (Perfetto: its dense
	 * generic event), 0 until it gives one */
	uint32_t writer_id;
} tl_class;

typedef struct tl_frame tl_frame;

/* A track: a thread (its tid) or, when events name no thread, a stream. */
typedef struct tl_track {
	const tc_stream *stream;   /* stream tracks only */
	int64_t tid, pid;          /* pid -1: unknown */
	struct tl_track *process;  /* the track of its process's main thread, once known */
	char *name;                /* malloc'd, NULL: none known */
	size_t name_len;
	char *process_name;        /* the process's, as far as known */
	size_t process_name_len;
	bool has_time;
	int64_t first_ts;          /* the time of its first event */
	/* function calls: the open ones (the bottom UNRESOLVED of which
	 * were entered before the thread's records and are not begun yet),
	 * how many such were begun so far, and the writer's text for them */
	tl_frame *frames;
	uint32_t open_calls, frame_cap, unresolved, inherited;
	pb_buf call_text;
	/* set when a name changes, cleared by the writer that shows it */
	bool renamed, process_renamed;
	/* the writers' state: Perfetto track ids (0: not described yet; the
	 * JSON writer's tid for a stream), the JSON ids' text for the pid it
	 * was made with */
	uint64_t uuid, process_uuid;
	char json_ids[46];
	uint8_t json_ids_len;
	int64_t json_ids_pid;
	struct tl_track *next;     /* hash chain */
} tl_track;

/* Per kernel trace, the task each CPU runs. */
typedef struct tl_cpus {
	const tc_trace *trace;
	int64_t *current;          /* per CPU, -1: unknown */
	size_t count;
} tl_cpus;

typedef struct tl_ops tl_ops;
typedef struct tl_outfile tl_outfile;

/* The state both writers share: struct tc_timeline_writer. */
typedef struct tl_ctx {
	const tl_ops *ops;
	void *impl;                /* the format's writer */
	int fd;
	char *name;                /* the output, for errors */
	pb_buf out;                /* bytes not yet written */
	uint64_t written;          /* bytes written to FD, or handed to its thread */
	tl_outfile *file;          /* the thread writing FD, NULL: none */
	tc_trace **traces;
	size_t trace_count;
	tl_clock *clocks;
	size_t clock_count;
	const tl_clock *reference; /* the trace clock */
	char **warnings;
	size_t warning_count;
	/* event classes and tracks, by pointer / tid (open addressing and chains) */
	tl_class **classes;
	size_t class_cap, class_count;
	/* the classes last looked up, by their id's low bits: a few
	 * classes (function entries and exits) make most events */
	tl_class *recent[8];
	tl_track **threads;        /* chains by tid */
	size_t thread_cap, thread_count;
	tl_track *last_thread;
	tl_track **stream_tracks;  /* chains by stream */
	size_t stream_track_cap, stream_track_count;
	tl_track **tracks;         /* every track, in the order they came */
	size_t track_count;
	tl_cpus *cpus;
	size_t cpus_count, last_cpus;
} tl_ctx;

struct tl_ops {
	int (*init)(tl_ctx *c);
	/* MSG with its class (NULL for discards) and time (trace clock, ns) */
	int (*write)(tl_ctx *c, const tc_message *msg, tl_class *cls, int64_t ts);
	int (*finish)(tl_ctx *c);
	void (*free)(tl_ctx *c);
};

extern const tl_ops tl_perfetto_ops;
extern const tl_ops tl_chrome_json_ops;

/* ---- timeline.c ---- */

extern const tl_event_spec tl_event_specs[];

/* The class of MSG's event, read on first use; NULL when out of memory. */
tl_class *tl_class_of(tl_ctx *c, const tc_message *msg);

/* Adds a warning line (copied); 0 or TC_ENOMEM. */
int tl_warn(tl_ctx *c, const char *fmt, ...) TC_PRINTF(2, 3);

/* ---- outfile.c ---- */

/* tl_flush() when there is something to do. */
int tl_flush_out(tl_ctx *c, size_t limit);

/* Appends the output buffer to the file when it holds more than LIMIT
 * bytes (0: always, and only returns once all is written); 0 or a
 * recorded TC_EIO.  Inline: it is asked after every event. */
static inline int tl_flush(tl_ctx *c, size_t limit)
{
	/* the last flush waits for the thread even with nothing left */
	if (!c->out.failed && c->out.len <= limit && (limit || !c->file))
		return 0;
	return tl_flush_out(c, limit);
}

/* Has a thread of its own write the file from now on (the caller's
 * thread still does when none starts); 0 or TC_ENOMEM. */
int tl_outfile_start(tl_ctx *c);

/* Stops that thread once it has written what it was given. */
void tl_outfile_stop(tl_ctx *c);

/* ---- timeline.c ---- */

/* The offset of CLK from the Unix epoch in ns, when it has one.  An
 * offset of 0 says nothing: readers give it to clocks nobody measured
 * against the epoch (uftrace before 0.17, trace.dat without DATE and its
 * CTF conversions), and a clock counting from the epoch itself is rare. */
bool tl_epoch_offset(const tc_clock *clk, __int128 *ns);

/* Whether a trace is kernel data. */
bool tl_trace_is_kernel(const tc_trace *t);

/* The member of a structure field, or NULL. */
static inline const tc_field *tl_member(const tc_field *s, int index)
{
	return s && index >= 0 && (size_t)index < s->v.compound.count ? &s->v.compound.items[index] : NULL;
}

/* A context field of MSG, or NULL. */
static inline const tc_field *tl_context(const tc_message *msg, tl_ref r)
{
	return r.scope == 1 ? tl_member(msg->stream_event_context, r.index)
	       : r.scope == 2 ? tl_member(msg->event_context, r.index) : NULL;
}

/* Integer value of F (integers, enumerations, booleans, bit arrays);
 * false for other kinds. */
static inline bool tl_int_value(const tc_field *f, int64_t *v)
{
	if (!f)
		return false;
	switch (f->cls->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		*v = f->v.s;
		return true;
	default:
		return false;
	}
}

/* The text of F (strings, text arrays); false for other kinds.  Char
 * arrays (ftrace's comms) end at their first NUL. */
static inline bool tl_text_value(const tc_field *f, const char **s, size_t *len)
{
	if (!f)
		return false;
	tc_field_kind k = f->cls->kind;
	if (k != TC_FIELD_STRING && !((k == TC_FIELD_ARRAY || k == TC_FIELD_SEQUENCE) && (f->cls->flags & TC_FIELD_TEXT)))
		return false;
	*s = f->v.str.ptr;
	*len = f->v.str.len;
	const char *nul = k != TC_FIELD_STRING && *len ? memchr(*s, '\0', *len) : NULL;
	if (nul)
		*len = (size_t)(nul - *s);
	return true;
}

/* The spec field I of CLS's event in MSG, or NULL when absent. */
static inline const tc_field *tl_spec_field(const tl_class *cls, const tc_message *msg, int i)
{
	return tl_member(msg->payload, cls->fields[i]);
}

/* How a trace writes sched_switch's prev_state. */
enum {
	TL_STATE_REPORT,           /* ftrace's, as the kernel reports it */
	TL_STATE_LTTNG,            /* lttng-modules: the kernel's task state, or its report */
	TL_STATE_TRACE_COMPASS,    /* tracecat's LTTng conversion of trace.dat: 0 R, 1 S, 2 D, 4 T, 8 t, 64 X */
	TL_STATE_LEGACY            /* LTTng 0.x: Linux 2.6's task state */
};

/* Integer of spec field I, priorities made the kernel's and prev_state
 * ftrace's report (the letters S 1, D 2, T 4, t 8, X 16, Z 32, P 64,
 * I 128, and 256 for a preempted task); false when absent. */
bool tl_spec_int(const tl_class *cls, const tc_message *msg, int i, int64_t *v);

/* The thread of MSG's event, of class CLS (NULL for discards: their
 * stream's): its track (NULL with no thread and no stream, or out of
 * memory, *FAILED set then).  Kernel events keep the task running on
 * their CPU up to date. */
tl_track *tl_track_of(tl_ctx *c, const tl_class *cls, const tc_message *msg, int64_t ts, bool *failed);

/* The slow paths of the next three, which are inline: every event asks,
 * and nearly always about the thread, process and name of the one before. */
tl_track *tl_thread_find(tl_ctx *c, int64_t tid, int64_t pid);
tl_track *tl_process_find(tl_ctx *c, tl_track *t);
void tl_track_set_name(tl_track *t, const char *s, size_t len, bool process);

/* The thread track of TID, made on first use (PID -1: unknown). */
static inline tl_track *tl_thread(tl_ctx *c, int64_t tid, int64_t pid)
{
	tl_track *t = c->last_thread;
	if (!t || t->tid != tid)
		return tl_thread_find(c, tid, pid);
	if (pid >= 0)
		t->pid = pid;
	return t;
}

/* The track of T's process's main thread (T itself, or NULL when its
 * process is not known or out of memory). */
static inline tl_track *tl_process_of(tl_ctx *c, tl_track *t)
{
	if (t->tid < 0 || t->pid < 0)
		return NULL;
	return t->process && t->process->tid == t->pid ? t->process : tl_process_find(c, t);
}

/* Sets the name of T (or, on a process's main thread, the process's) to
 * the LEN bytes at S, and its renamed flag when it changed. */
static inline void tl_track_rename(tl_track *t, const char *s, size_t len, bool process)
{
	const char *old = process ? t->process_name : t->name;
	if (old && (process ? t->process_name_len : t->name_len) == len) {
		/* names are short, and the same at nearly every call */
		size_t i = 0;
		while (i < len && old[i] == s[i])
			i++;
		if (i == len)
			return;
	}
	tl_track_set_name(t, s, len, process);
}

/* The length of the valid UTF-8 character at S (of LEN bytes), 0 when
 * it is not one. */
size_t tl_utf8_char(const char *s, size_t len);

/* The length of the longest prefix of the LEN bytes at S that is valid
 * UTF-8 (protobuf strings and JSON text must be). */
size_t tl_utf8_prefix(const char *s, size_t len);

/* Appends the text of S as valid UTF-8 to OUT: each byte that does not
 * start a valid sequence becomes U+FFFD. */
void tl_put_utf8(pb_buf *out, const char *s, size_t len);

/* Appends F, a field of TRACE's, as text to OUT: numbers, "quoted
 * strings", [ arrays ] and { name = value } structures, for formats
 * without nested values; code addresses as tl_symbol_text() names them. */
void tl_render(pb_buf *out, const tc_trace *trace, const tc_field *f);

/* When F is a code address (TC_FIELD_CODE_ADDRESS) that TRACE's symbol
 * table names: its text in BUF, "NAME+0xOFFSET" and " [MODULE]" for a
 * module's, the way the kernel's %pS names code; its length, 0 when F is
 * not such an address or BUF is too short. */
size_t tl_symbol_text(const tc_trace *trace, const tc_field *f, char *buf, size_t size);

/* The slices a function call event makes on its thread's track, in the
 * order tl_call() hands them to a writer: */
typedef enum tl_slice {
	TL_SLICE_BEGIN,        /* the entry (MSG is it) */
	TL_SLICE_END,          /* the exit (MSG is it) */
	/* the begin of a call entered before the thread's records began, at
	 * TS just before its first event (outer calls earlier): named by its
	 * exit, or TL_UNRECORDED_ENTRY when it has none */
	TL_SLICE_BEGIN_INHERITED,
	/* the end, at the event's time, of a call the thread left without
	 * returning: the record's depth says it is no longer on the stack
	 * (exec starts afresh, longjmp) */
	TL_SLICE_END_ABANDONED,
	/* at the end of the trace, a call still open (tl_calls_finish) */
	TL_SLICE_UNENDED
} tl_slice;

#define TL_UNRECORDED_ENTRY "(entered before the thread's records)"

/* An open call: when it began, and text its writer keeps with it in its
 * track's call_text, from TEXT to the next frame's (or the end), SPLIT
 * bytes in (JSON: its name and arguments, written at its end). */
struct tl_frame {
	int64_t begin;
	uint32_t text, split;
};

/* FRAME is the call's: new for a begin, the one ending for an end.  NAME
 * (LEN bytes) is the function's for begins, NULL for ends. */
typedef int (*tl_slice_fn)(tl_ctx *c, void *arg, tl_track *t, tl_slice what, int64_t ts, const char *name, size_t len,
                           tl_frame *frame);

/*
 * Hands FN the slices of MSG, a function entry or exit of CLS on track T
 * at TS.  With the records' depth (uftrace's), a thread whose first call
 * is deeper than what is open has calls beneath it entered before its
 * records (a forked child returns through its parent's frames), and an
 * event shallower than what is open abandons the calls above it; without
 * depth (LTTng-UST), an exit with nothing open is such a call.  Returns
 * FN's first negative result, else 0.
 */
int tl_call(tl_ctx *c, const tl_class *cls, const tc_message *msg, tl_track *t, int64_t ts, tl_slice_fn fn, void *arg);

/* At the end: every call still open, the inherited ones begun first. */
int tl_calls_finish(tl_ctx *c, tl_slice_fn fn, void *arg);

/* Visits the tasks the kernel traces name in their task tables
 * (tc_trace.tasks: trace.dat's saved cmdlines): TID, the name (LEN bytes). */
int tl_known_tasks(tl_ctx *c, int (*visit)(tl_ctx *c, int64_t tid, const char *name, size_t len, void *arg), void *arg);

#endif /* TC_PERFETTO_TIMELINE_H */
