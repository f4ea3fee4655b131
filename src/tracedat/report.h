/* SPDX-License-Identifier: MIT */
/*
 * report.h - `trace-cmd report` for trace.dat files: the same text, byte
 * for byte, as trace-cmd 3.4 prints with libtraceevent 1.9 and its
 * plugins, or (compat.trace_cmd 3.1) as 3.1.6 does with libtraceevent
 * 1.7.1's, whichever libtraceevent tracecat links.  Private to tracecat;
 * the CLI's `report` command calls it.
 *
 * The engine reads the file with the raw reader (tracedat.h), hands the
 * format texts, kallsyms, printk formats and saved cmdlines to
 * libtraceevent, merges the per-CPU record cursors of every buffer by time
 * as trace-cmd does, and formats each line: the task, CPU and time columns
 * here, the event text with the event's native plan (printfmt.h), or with
 * libtraceevent's tep_print_event() for plugin-printed events and what the
 * plans leave to it.
 *
 * Memory stays flat: one record per CPU is held at a time (with threads,
 * a few batches per CPU: see tracedat_report_options), the line is built
 * in one reused trace_seq and the output goes through one buffer.
 */
#ifndef TC_TRACEDAT_REPORT_H
#define TC_TRACEDAT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "tracecat.h"

/* What the report prints: the events, or one of trace-cmd report's
 * listings (trace-cmd checks them in this order: -f wins over -P, which
 * wins over -E, then --first-event, then --stat). */
typedef enum tracedat_report_listing {
	TRACEDAT_LIST_NONE = 0,    /* the events */
	TRACEDAT_LIST_FUNCS,       /* -f: kallsyms, "%016llx NAME [MODULE]" by address */
	TRACEDAT_LIST_PRINTK,      /* -P: the printk formats, "%016llx TEXT" by address */
	TRACEDAT_LIST_EVENTS,      /* -E: "SYSTEM:NAME" of every event format, sorted */
	TRACEDAT_LIST_FIRST_EVENT, /* --first-event: each CPU's first time */
	TRACEDAT_LIST_STAT,        /* --stat: the ring buffer statistics the file saved */
} tracedat_report_listing;

typedef struct tracedat_report_options {
	tracedat_report_listing listing;
	/* --first-event: the file's name as the user gave it, for the
	 * heading (NULL: the path) */
	const char *name;
	bool quiet;            /* -q: libtraceevent's warnings silenced */
	bool wakeup;           /* -w: wakeup latencies after sched_switch lines, and a summary */
	bool profile;          /* --profile: per task, the times events took, not the events */
	bool raw;              /* -R: the fields as name=value, not the print format */
	bool nsec;             /* -t: nine fractional digits, no rounding */
	bool no_plugins;       /* -N: load no libtraceevent plugins */
	bool no_sys_plugins;   /* -L: only the user's plugins */
	bool no_irqs;          /* -I: drop events with the hard-IRQ flag */
	bool no_softirqs;      /* -S: drop events with the soft-IRQ flag */
	bool latency;          /* -l: "%8.8s-%-5d %3d" and the latency column */
	bool ts_diff;          /* --ts-diff: the time since the previous line */
	/* --cpu: the CPUs to show, as trace-cmd numbers them: CPU c of the
	 * top buffer is c, CPU c of the k-th instance is c plus the CPU
	 * counts of the buffers before it.  NULL: every CPU. */
	const int *cpus;
	size_t cpu_count;
	/* -F: libtraceevent filter expressions ("sched_switch",
	 * "sched/sched_switch", "sched_switch: prev_pid == 0", ...); those
	 * whose NEGATE flag is set (given after -v) hide what they match. */
	const char *const *filters;
	const bool *filter_negate;
	size_t filter_count;
	/* For tests: also have libtraceevent format every event text a
	 * native plan printed, and fail (TC_EINVAL) at the first difference
	 * (so only for the release whose libtraceevent is linked: 3.1 with
	 * Debian 12's 1.7). */
	bool check_fast_path;
	/* Threads to read on: above 1, the CPUs' pages are read, inflated and
	 * split into records ahead, in batches, on THREADS - 1 workers
	 * (core/prefetch.c) while this thread merges and formats; the text is
	 * the same for every count.  0 or 1: all on this thread. */
	unsigned threads;
	/* whose text: .trace_cmd 3.1 (Debian 12's 3.1.6 with libtraceevent
	 * 1.7) or 3.4 and later (sid's 3.4 with 1.9; a zeroed field is 3.1) */
	tc_compat compat;
} tracedat_report_options;

/*
 * Writes the report of the trace.dat file PATH to OUT.  Returns 0, or a
 * negative TC_E* code with the error recorded (tc_error_last()):
 * TC_EINVAL for a filter libtraceevent refuses (nothing is written),
 * TC_ENOTFOUND / TC_EUNSUPPORTED / TC_EFORMAT / TC_EIO as tracedat_open()
 * and the record cursors report them (everything read before the damage
 * is written first), TC_EIO when OUT refuses the text, TC_ENOMEM.
 */
int tracedat_report(FILE *out, const char *path, const tracedat_report_options *opts);

/*
 * For tests: ROUNDS random times in the time column's three forms (" %5u.%06u:",
 * -t's nine digits, raw counts), against libtraceevent's print_event_time()
 * with trace-cmd's formats; the first event of PATH makes the record.
 * Fails (TC_EINVAL, both texts in the message) at the first difference.
 */
int tracedat_report_time_selfcheck(const char *path, unsigned rounds, uint64_t seed);

/*
 * For tests (tests/unit/printfmt_test.c): libtraceevent set up for PATH as
 * the report sets it up (plugins, every event format, kallsyms, printk
 * formats, saved comms), to free with tracedat_report_tep_close().
 */
struct tep_handle;
struct pf_strings;
struct pf_kallsyms;
typedef struct tracedat_report_tep tracedat_report_tep;
int tracedat_report_tep_open(const char *path, tracedat_report_tep **out);
struct tep_handle *tracedat_report_tep_handle(tracedat_report_tep *t);
/* The printk formats and kallsyms the report gives the plans
 * (printfmt.h); the latter NULL when libtraceevent reads kallsyms itself. */
const struct pf_strings *tracedat_report_tep_printk(tracedat_report_tep *t);
const struct pf_kallsyms *tracedat_report_tep_kallsyms(tracedat_report_tep *t);
void tracedat_report_tep_close(tracedat_report_tep *t);

#endif /* TC_TRACEDAT_REPORT_H */
