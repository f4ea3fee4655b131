/* SPDX-License-Identifier: MIT */
/*
 * uftrace.h - private structures of the uftrace reader
 * (doc/formats/uftrace.md).
 *
 *   data.c     the record directory: info, task.txt (sessions, tasks,
 *              dlopens), sid-*.map, *.sym, events.txt; symbol resolution
 *              by (task, time, address) as uftrace does it
 *   elfsyms.c  a module's symbols from its binary, when its .sym is missing
 *   records.c  <tid>.dat records with their payloads, perf-cpu*.dat
 *              scheduler and task events, and the k-way merge of all of
 *              them in uftrace's order
 *   args.c     argument and return-value specs (args.h)
 *   args_format.c  a payload of them: its size, and replay's text of it
 *   replay.c   `uftrace replay`'s text, byte for byte
 *   replay_filter.c  replay's function rules (-F, -N, -C, -H, -T)
 *   demangle.c C++ names as replay's --demangle shows them
 *   model.c    the directory as tracecat's event model (tc_format_uftrace)
 */
#ifndef TC_UFTRACE_H
#define TC_UFTRACE_H

#include "core/core.h"
#include "uftrace/args.h"

#include <pthread.h>
#include <stdatomic.h>

enum { UFT_ENTRY = 0, UFT_EXIT = 1, UFT_LOST = 2, UFT_EVENT = 3 };

/* Event ids (§5.8.1). */
enum {
	UFT_EV_READ_STATM = 100001,
	UFT_EV_READ_PAGE_FAULT = 100002,
	UFT_EV_DIFF_STATM = 100003,
	UFT_EV_DIFF_PAGE_FAULT = 100004,
	UFT_EV_READ_PMU_CYCLE = 100005,
	UFT_EV_DIFF_PMU_CYCLE = 100006,
	UFT_EV_READ_PMU_CACHE = 100007,
	UFT_EV_DIFF_PMU_CACHE = 100008,
	UFT_EV_READ_PMU_BRANCH = 100009,
	UFT_EV_DIFF_PMU_BRANCH = 100010,
	UFT_EV_WATCH_CPU = 100011,
	UFT_EV_SCHED_IN = 200001,
	UFT_EV_SCHED_OUT = 200002,
	UFT_EV_SCHEDULE = 200003,
	UFT_EV_TASK_NEW = 200004,
	UFT_EV_TASK_EXIT = 200005,
	UFT_EV_TASK_NAME = 200006,
	UFT_EV_SCHED_OUT_PREEMPT = 200007,
	UFT_EV_SCHEDULE_PREEMPT = 200008,
	UFT_EV_USER = 1000000,
	UFT_EV_EXTERN_DATA = 2000000
};

typedef struct uft_symbol {
	uint64_t addr, size;       /* module-relative */
	char type;
	uint8_t fixup;             /* replay's cache: which special function it is, 0 unknown */
	uint32_t name_len;
	const char *name;
} uft_symbol;

typedef struct uft_symtab {
	uft_symbol *syms;          /* sorted by address */
	size_t count;
} uft_symtab;

typedef struct uft_module {
	uint64_t start, end;
	const char *path;
	const char *base;          /* basename of path */
	const char *build_id;      /* NULL if none */
	bool is_main;
	atomic_bool loaded;        /* set once syms is complete (see uft_data.load_lock) */
	uft_symtab syms;
} uft_module;

typedef struct uft_dlop {
	uint64_t time, base;
	uft_module mod;            /* its symbols; start/end unknown */
} uft_dlop;

typedef struct uft_session {
	char sid[17];
	int pid;
	uint64_t start;
	const char *exename;
	atomic_bool maps_loaded;   /* set once maps is complete */
	uft_module *maps;
	size_t map_count;
	uft_dlop *dlops;           /* by time */
	size_t dlop_count;
} uft_session;

typedef struct uft_sref {
	uint64_t start;
	uft_session *session;
} uft_sref;

typedef struct uft_task {
	int tid, pid, ppid;
	size_t index;              /* in taskinfo:tids order */
	uft_sref *refs;
	size_t ref_count;
	const char *data_path;     /* DIR/<tid>.dat */
	bool has_data;             /* a <tid>.dat exists */
	bool excluded;             /* left out of merges (replay --tid) */
} uft_task;

typedef struct uft_event_name {
	uint64_t id;
	const char *name;
} uft_event_name;

typedef struct uft_data {
	tc_pool pool;
	/* Maps and symbol files are read when first needed, by whichever
	 * thread reads a stream that needs them: one at a time. */
	pthread_mutex_t load_lock;
	char *dir;
	bool big_endian;
	unsigned word_size;        /* 4 or 8 */
	unsigned data_version;     /* the info header's: 3 or 4 */
	uint64_t feat_mask;
	unsigned max_stack;
	const char *exename, *hostname, *version;
	int64_t utc_offset;        /* seconds, when recorded (0.17+) */
	bool has_utc_offset;
	uft_task **tasks;          /* in taskinfo:tids order */
	size_t task_count;
	uft_session **sessions;
	size_t session_count;
	uft_event_name *events;    /* events.txt */
	size_t event_count;
	char **perf_files;         /* perf-cpu*.dat, in glob order */
	size_t perf_file_count;
	ua_specs *specs;
	uint64_t time_filter;      /* default.opts -t, ns; 0 none */
	/* how symbols' C++ names are shown (set before any is loaded):
	 * mangled unless replay asks otherwise */
	enum { UFT_DEMANGLE_NO, UFT_DEMANGLE_SIMPLE, UFT_DEMANGLE_FULL } demangle;
	/* told, when set, of what degrades the output without failing (a
	 * module without symbols); called under load_lock */
	void (*warn)(void *arg, const char *message);
	void *warn_arg;
} uft_data;

/* Opens the record directory DIR: info, task.txt, events.txt, specs.
 * TC_ENOTFOUND when DIR is not a uftrace directory. */
int uft_open(uft_data **out, const char *dir);
void uft_close(uft_data *d);

uft_task *uft_task_by_tid(const uft_data *d, int tid);

/* Module I of session S's maps, its symbols loaded; NULL past the last
 * (or when the maps cannot be read). */
const uft_module *uft_session_module(uft_data *d, uft_session *s, size_t i);

/* The traced executable's module in session S, its symbols loaded. */
const uft_module *uft_session_main_module(uft_data *d, uft_session *s);

/* What an address is, resolved as uftrace does (§4.3). */
typedef struct uft_place {
	const uft_symbol *sym;     /* NULL: unresolved */
	const uft_module *module;
	ua_function fn;            /* for args.h */
	struct uft_recent_slot *slot;  /* where the answer is remembered, NULL: nowhere */
} uft_place;

/* What one reader resolved lately, by address: the same functions come
 * again and again, and a symbol search costs more than the rest of a
 * record.  Only the addresses a session's maps cover are kept: what they
 * resolve to does not depend on time.  A reader's own, not shared between
 * threads. */
typedef struct uft_recent_slot {
	const uft_session *session;
	uint64_t addr;
	const uft_symbol *sym;     /* NULL: an empty slot */
	const uft_module *module;
	/* the function's ua_lookup() answers, arguments and return value,
	 * once asked (bit 0 and 1 of KNOWN): a payload is sized when read
	 * and formatted when shown, and the lookup hashes and compares
	 * names under a lock */
	const ua_list *lists[2];
	unsigned known;
} uft_recent_slot;

typedef struct uft_recent {
	uft_recent_slot slots[64];
} uft_recent;

/* Resolves ADDR of TASK at TIME; false when no symbol covers it.  RECENT,
 * when not NULL, is the caller's memory of earlier answers. */
bool uft_resolve(uft_data *d, const uft_task *task, uint64_t time, uint64_t addr, uft_place *out, uft_recent *recent);

/* ua_lookup() of PL's function (RETVAL: its return value's items),
 * remembered in PL's recent slot. */
const ua_list *uft_place_items(uft_data *d, const uft_place *pl, bool retval);

/* The file name of the module that maps ADDR of TASK at TIME (a
 * dlopen'ed one included), as `replay -f module` shows it; NULL when
 * none does. */
const char *uft_module_name(uft_data *d, const uft_task *task, uint64_t time, uint64_t addr);

/* The name uftrace prints for ADDR: the symbol of PL, where uft_resolve()
 * found it, or "<hex>" in BUF when PL is NULL. */
const char *uft_place_name(const uft_place *pl, uint64_t addr, char *buf, size_t size);

/* The printed name of event ID ("linux:schedule", "sample:step_begin"). */
const char *uft_event_name_of(const uft_data *d, uint64_t id, char *buf, size_t size);

/* ---- demangle.c ---- */

/* NAME as D->demangle asks (uftrace-replay(1), --demangle): NAME itself
 * when it is no mangled C++ name, when D keeps names mangled, or when the
 * C++ runtime that demangles is missing; else a copy in D's pool. */
const char *uft_demangled(uft_data *d, const char *name);

/* ---- elfsyms.c ---- */

/* M's symbols from its ELF file M->path, as uftrace reads them when the
 * .sym file is missing: 0, 1 when the file gives none (*WHY says why),
 * < 0 on an error. */
int uft_elf_symbols(uft_data *d, uft_module *m, const char **why);

/* ---- records.c ---- */

typedef struct uft_record {
	uint64_t time;
	uint8_t type, more;
	uint16_t depth;
	uint64_t addr;             /* function, LOST count or event id */
	const uint8_t *payload;    /* arguments, return value or event data */
	uint32_t payload_len;
	uft_task *task;
	bool from_perf;            /* made from perf-cpu*.dat */
	const char *comm;          /* perf COMM: the new name */
} uft_record;

/* ---- replay_filter.c ---- */

/* What the rules naming a function set on it (uftrace's trigger flags). */
enum {
	UFT_TR_FILTER = 1 << 0,    /* -F, or -N with UFT_TR_NOTRACE */
	UFT_TR_NOTRACE = 1 << 1,
	UFT_TR_CALLER = 1 << 2,    /* -C */
	UFT_TR_HIDE = 1 << 3,      /* -H */
	UFT_TR_DEPTH = 1 << 4,     /* @depth=N */
	UFT_TR_TRACE_ON = 1 << 5,  /* @trace_on */
	UFT_TR_TRACE_OFF = 1 << 6, /* @trace_off */
	UFT_TR_TIME = 1 << 7,      /* @time=T */
	UFT_TR_SIZE = 1 << 8,      /* @size=N */
	UFT_TR_TRACE = 1 << 9,     /* @trace: shown whatever -t says */
};

typedef struct uft_trigger {
	unsigned flags;
	int depth;
	uint64_t time, size;
} uft_trigger;

typedef struct uft_rules uft_rules;

/* The rules of O (NULL *OUT when it has none), matched against D's
 * symbols as uftrace sets them up: when a kind names no function, its
 * message ("Usage: failed to set filter or trigger: ...") goes to MSG. */
int uft_rules_new(uft_rules **out, const tc_replay_options *o, uft_data *d, tc_buf *msg);
/* What the rules naming NAME set on it, into *TR (zeroed when none). */
void uft_rules_match(const uft_rules *r, const char *name, uft_trigger *tr);
/* Whether an opt-in rule (-F) names some function: nothing outside
 * such functions is shown then. */
bool uft_rules_filter_in(const uft_rules *r);
/* Whether a caller rule (-C) names some function. */
bool uft_rules_caller(const uft_rules *r);
void uft_rules_free(uft_rules *r);

typedef struct uft_merge uft_merge;

/* What uftrace drops from a task's records as it reads them
 * (utils/fstack.c, get_task_ustack()). */
typedef struct uft_read_filter {
	uint64_t time;             /* -t: functions shorter than this, ns; 0 none */
	uint64_t size;             /* -Z: functions smaller than this, bytes; 0 none */
	bool caller;               /* -C: keep only the paths to caller functions */
	uint64_t range_start, range_stop; /* -r: records outside [start, stop] (ns, 0: open) */
	/* the triggers of function record R, and the size of its symbol
	 * (UINT64_MAX: none); NULL when no rule applies while reading */
	void (*match)(void *arg, const uft_record *r, uft_trigger *tr, uint64_t *sym_size);
	void *arg;
} uft_read_filter;

/* Every record of D in uftrace's merged order (§9.2), without what F
 * drops (NULL: nothing). */
int uft_merge_new(uft_merge **out, uft_data *d, const uft_read_filter *f);
/* 1 and *REC, 0 at the end, < 0 on error.  Payloads and names a record
 * points to stay valid until the merge is freed. */
int uft_merge_next(uft_merge *m, uft_record *rec);
void uft_merge_free(uft_merge *m);

/* One task's records in file order (the event model reads streams apart). */
typedef struct uft_task_reader uft_task_reader;
int uft_task_reader_new(uft_task_reader **out, uft_data *d, uft_task *task);
int uft_task_reader_next(uft_task_reader *r, uft_record *rec);
void uft_task_reader_free(uft_task_reader *r);
/* Has R add the bytes of its file it has read to *BYTES_READ
 * (tc_input_bytes_read()), every few thousand records and at the end. */
void uft_task_reader_count_into(uft_task_reader *r, atomic_uint_least64_t *bytes_read);

/* The events of one perf-cpu*.dat file, in file order (tasks without
 * records left out, as uftrace does). */
typedef struct uft_perf {
	uft_record *recs;
	size_t count, next, cap;
	uint8_t *data;             /* the file: COMM names point into it */
	size_t size;               /* of the file */
} uft_perf;

int uft_perf_read(uft_data *d, const char *path, uft_perf *out);
void uft_perf_free(uft_perf *p);

/* Formats event data as replay shows it after the name, e.g.
 * "major=0 minor=798"; false when the event has none. */
bool uft_event_data(const uft_data *d, const uft_record *r, tc_buf *out);

#endif /* TC_UFTRACE_H */
