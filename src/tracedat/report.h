/* SPDX-License-Identifier: MIT */
/*
 * report.h - `trace-cmd report` for trace.dat files: the same text, byte
 * for byte, as trace-cmd 3.4 prints with libtraceevent 1.9 and its
 * plugins, or (compat.trace_cmd 3.3) as Debian 13's 3.3.1 does with
 * libtraceevent 1.8's, or (3.1) as 3.1.6 does with libtraceevent 1.7.1's,
 * whichever libtraceevent tracecat links: tc_report() of
 * tracecat.h.  What is left here is for the tests.
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
 * a few batches per CPU: see tc_report_options), the line is built
 * in one reused trace_seq and the output goes through one buffer.
 */
#ifndef TC_TRACEDAT_REPORT_H
#define TC_TRACEDAT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "tracecat.h"

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
