/* SPDX-License-Identifier: MIT */
/*
 * report_int.h - what the files of `tracecat report` (report.c, the
 * events; report_list.c, the listings of --stat, -E, -P, -f and
 * --first-event; report_wakeup.c, -w's latencies; report_profile.c,
 * --profile) share: the report's
 * state and the output helpers of report.c.  Private to them.
 */
#ifndef TC_TRACEDAT_REPORT_INT_H
#define TC_TRACEDAT_REPORT_INT_H

#include "core/core.h"
#include "tracedat/printfmt.h"
#include "tracedat/report.h"
#include "tracedat/tracedat.h"

#include <event-parse.h>

typedef struct rp_wakeup rp_wakeup;
typedef struct rp_profile rp_profile;

/* One CPU of one buffer, with its next record. */
typedef struct rp_src {
	tracedat_cursor *cur;
	tc_stream_iter *batches;  /* with threads: CUR's records in batches */
	const tc_batch *batch;    /* the one REC comes from */
	size_t batch_next;
	tracedat_record rec;
	uint64_t ns;             /* the time trace-cmd shows and sorts by */
	uint32_t slot;           /* trace-cmd's CPU slot (report.c) */
	uint32_t handle;         /* index into rp.handles */
	uint64_t cpu_offset;     /* file offset of this CPU's pages */
} rp_src;

/* A buffer, as trace-cmd's handle for it. */
typedef struct rp_handle {
	size_t buffer;           /* index into meta->buffers */
	const char *prefix;      /* "NAME: " or spaces; NULL without instances */
	size_t prefix_len;
	uint32_t max_cpu;        /* CPU slots */
	uint32_t start_slot;
	uint32_t page_size, page_data_offset;
	bool compressed;
	bool time_shift;         /* TIME_SHIFT applies: the top buffer of a file with it */
} rp_handle;

typedef struct rp_filter {
	struct tep_event_filter **pos, **neg;
	size_t npos, nneg;
	int kernel_stack_id, user_stack_id;
	bool *last_printed;
	int nr_cpus;
} rp_filter;

typedef struct rp {
	const tc_report_options *o;
	tracedat_file *f;
	const tracedat_meta *m;
	struct tep_handle *tep;
	struct tep_plugin_list *plugins;
	struct trace_seq seq;
	bool seq_ready;
	rp_filter filter;
	rp_handle *handles;
	size_t handle_count;
	rp_src *srcs;
	size_t src_count;
	rp_src **heap;
	size_t heap_len;
	tc_prefetch *prefetch;   /* with threads: reads SRCS ahead */
	bool usecs;              /* times in microseconds (trace-cmd's IN_USECS) */
	/* trace-cmd 3.4's text (with libtraceevent 1.9's plugins), not
	 * 3.1.6's (with 1.7's): o->compat.trace_cmd >= 3.3, Debian 13's
	 * 3.3.1 (libtraceevent 1.8) printing 3.4's but for lazy_l */
	bool tc34;
	/* flag 0x02 is libtraceevent 1.9's L (lazy need-resched), not 1.7's
	 * and 1.8's X (interrupt state not supported): trace_cmd >= 3.4 */
	bool lazy_l;
	uint64_t last_ts;        /* --ts-diff: the previous line's time */
	/* The time column's seconds and point (" %5llu."), made again when
	 * the second changes */
	struct { uint64_t secs; char text[32]; uint8_t len; } time_head;
	bool swap;               /* the file's byte order is not ours */
	pf_plan **plans;         /* by event id: native formatting plans */
	pf_strings *printk;      /* the plans' printk formats */
	uint8_t *handler_trust;  /* by event id: RP_HANDLER_* */
	uint8_t *known_pids;     /* pf_print_handler()'s */
	/* Lazy parsing: format index by event id, ids already parsed. */
	int32_t *fmt_of_id;
	bool *id_parsed;
	size_t format_count;
	bool dup_ids, all_parsed, symbols_parsed, symbol_names_parsed;
	pf_kallsyms *kallsyms;   /* libtraceevent's function resolver */
	/* Caches of libtraceevent look-ups: events by id, comms by pid
	 * (valid until libtraceevent prints an event: plugins add comms). */
	struct rp_event { struct tep_event *ev; size_t name_len; } *ev_by_id;
	/* (COL: the line's "%16s-%-5d" of the comm and pid, COL_LEN 0 when
	 * not made: -l's column, or a comm too long for it) */
	struct rp_comm { int pid; unsigned gen; const char *comm; size_t len; char col[40]; uint8_t col_len; } *comms;
	unsigned comm_gen;
	int type_off, type_size, pid_off, pid_size;
	bool *slot_shown;        /* --cpu */
	uint32_t slot_count;
	/* The output: lines are built here and written in large blocks. */
	FILE *out;
	tc_buf text;
	int write_error;
	rp_wakeup *wakeup;       /* -w's state, NULL without -w */
	rp_profile *profile;     /* --profile's state, NULL without it */
} rp;

#define RP_FLUSH_AT (256u * 1024u)

/* Output: the text goes to R->text and out in large blocks. */
int rp_flush(rp *r);
void rp_put(rp *r, const char *s, size_t n);
void rp_putc(rp *r, char c);
/* printf() into the text. */
void rp_printf(rp *r, const char *fmt, ...) TC_PRINTF(2, 3);
/* printf's %-5d / %03d style: WIDTH, left or PAD padded. */
void rp_int(rp *r, int64_t v, int width, char pad, bool left);
/* The time column at O (room for 48 bytes): " %6.1000d:", " %9.1d:" or
 * "%12d:" as trace-cmd's time format asks; returns the end. */
char *rp_put_time_at(const rp *r, char *o, uint64_t ns);
/* The time trace-cmd gives a record of handle HD. */
uint64_t rp_time(rp *r, const rp_handle *hd, const tracedat_record *rec);
/* Every event format, parsed by libtraceevent. */
void rp_parse_all_formats(rp *r);
/* Function names by address for libtraceevent's look-ups. */
void rp_need_symbols(rp *r);

/* libtracecmd's trace_hash() (trace-hash-local.h, after Paul Hsieh's
 * SuperFastHash): -w and --profile key their tables with it as trace-cmd
 * does, where equal keys decide what trace-cmd finds. */
static inline uint32_t rp_trace_hash(uint32_t val)
{
	uint32_t hash = 12546869, tmp;
	hash += val & 0xffff;
	tmp = (val >> 16) ^ hash;
	hash = (hash << 16) ^ tmp;
	hash += hash >> 11;
	hash ^= hash << 3;
	hash += hash >> 5;
	hash ^= hash << 4;
	hash += hash >> 17;
	hash ^= hash << 25;
	hash += hash >> 6;
	return hash;
}

/* report_list.c: the listing the options ask for instead of the events
 * (--stat, -E, -P, -f, --first-event), after the set-up; 0 or < 0. */
int rp_list(rp *r);

/* report_wakeup.c: -w.  rp_wakeup_init() before the events (nothing is
 * measured when the trace lacks the sched events); rp_wakeup_record()
 * after each line printed, before its newline, appends " Latency: ..."
 * to a sched_switch's line; rp_wakeup_finish() prints the summary. */
int rp_wakeup_init(rp *r);
void rp_wakeup_record(rp *r, struct tep_record *rec);
void rp_wakeup_finish(rp *r);
void rp_wakeup_free(rp *r);

/* report_profile.c: --profile.  rp_profile_init() before the events;
 * rp_profile_record() takes each record the report would print (TOP: it
 * is the top buffer's; others fail, as in trace-cmd) instead of printing
 * it; rp_profile_finish() prints the tasks.  0 or < 0. */
int rp_profile_init(rp *r);
int rp_profile_record(rp *r, struct tep_record *rec, bool top);
int rp_profile_finish(rp *r);
void rp_profile_free(rp *r);

#endif /* TC_TRACEDAT_REPORT_INT_H */
