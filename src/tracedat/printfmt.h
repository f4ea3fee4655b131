/* SPDX-License-Identifier: MIT */
/*
 * printfmt.h - ftrace print formats compiled into native formatting plans,
 * for `tracecat report` (report.c).  Private to tracecat.
 *
 * An event's "print fmt" (the printf format and its argument expressions,
 * as libtraceevent parsed them into the event's print_fmt) becomes a plan
 * once: literal text, conversions with their printf flags, width and
 * precision, and the arguments as small expression trees over the record's
 * bytes (fields, REC->field[N] elements, casts, arithmetic, comparisons,
 * ternaries, __get_str, __get_dynamic_array(_len), __get_bitmask,
 * __get_cpumask, __get_sockaddr, __print_flags, __print_symbolic,
 * __print_hex(_str), __print_array, %pS-style symbols through the trace's
 * kallsyms, MAC, IPv4/6, sockaddr and UUID pointers).  Printing a record
 * then writes the text libtraceevent 1.7.1's tep_print_event() would write,
 * byte for byte, with tracecat's own digit routines.
 *
 * libtraceevent remains the fallback and the reference:
 *   - a plan of a format using a construct not compiled here says so
 *     (pf_unsupported()), and its records are left to libtraceevent;
 *   - a record a plan cannot print the same way (a field beyond the end of
 *     the record, where libtraceevent warns or reads past it; a string
 *     without its terminating NUL; a negative '*' width) makes pf_print()
 *     return 0 with nothing written, for libtraceevent to print;
 *   - tests/unit/printfmt_test.c prints random records of every event
 *     format of the machine's tracefs and of the test traces both ways and
 *     requires equal text.
 * Whether an event's text comes from a plugin handler is for the caller to
 * know: a plan formats the print format, and the text of the plugins whose
 * events fill scheduler and memory traces (see pf_print_handler()).
 */
#ifndef TC_TRACEDAT_PRINTFMT_H
#define TC_TRACEDAT_PRINTFMT_H

#include "core/core.h"

#include <stdbool.h>

struct tep_handle;
struct tep_event;

typedef struct pf_plan pf_plan;
typedef struct pf_strings pf_strings;

/*
 * The printk formats (the trace's copy of tracefs's printk_formats, which
 * libtraceevent gets from tep_parse_printk_formats()): the kernel's
 * constant strings by address, for "%s" of a pointer-sized field.  NULL
 * when out of memory (error recorded).
 */
pf_strings *pf_strings_parse(const char *printk_formats);
void pf_strings_free(pf_strings *st);
/* Entry I < pf_strings_count() of the table, in the order of
 * libtraceevent's printk_map (by address), as tep_print_printk() lists
 * it (`report -P`). */
size_t pf_strings_count(const pf_strings *st);
void pf_strings_at(const pf_strings *st, size_t i, uint64_t *addr, const char **text);

/*
 * The trace's kallsyms as libtraceevent's look-ups see them once
 * tep_parse_kallsyms() has read them, without its cost (sscanf() and
 * three allocations a symbol): given to libtraceevent as its function
 * resolver (tep_set_function_resolver(tep, pf_kallsyms_resolve, KS)),
 * %pS, plugins and the plans find the same names at the same addresses.
 * pf_kallsyms_parse() returns 1 with *OUT, 0 when the text is not in the
 * plain form the kernel writes (libtraceevent must read it itself), or
 * TC_ENOMEM.  libtraceevent's list of functions stays empty: names in
 * print formats, which libtraceevent looks up there, are compiled from the
 * table, but where a plan leaves one to libtraceevent (an event
 * pf_names_symbols() tells), it needs tep_parse_kallsyms() as well.
 */
typedef struct pf_kallsyms pf_kallsyms;
int pf_kallsyms_parse(const char *kallsyms, pf_kallsyms **out);
void pf_kallsyms_free(pf_kallsyms *ks);
char *pf_kallsyms_resolve(void *priv, unsigned long long *addrp, char **modp);
/* Entry I < pf_kallsyms_count() in the order of libtraceevent's func_map,
 * as tep_print_funcs() lists it (`report -f`); MOD NULL when none. */
size_t pf_kallsyms_count(const pf_kallsyms *ks);
void pf_kallsyms_at(const pf_kallsyms *ks, size_t i, uint64_t *addr, const char **func, const char **mod);
bool pf_names_symbols(const struct tep_event *ev);

/*
 * Compiles EV's print format.  NULL when out of memory (error recorded) or
 * when no plan can stand for libtraceevent at all (binary printk events,
 * whose format is in each record); *WHY then says which (NULL for out of
 * memory).  PRINTK: the trace's printk formats; KALLSYMS: its kallsyms,
 * for names in the format (NULL: a format needing them is left to
 * libtraceevent).  TEP19: libtraceevent 1.8 and later's reading of the
 * format (%c a conversion, which 1.7 prints as ">c<"), and their texts
 * (pf_set_tep19()).  The plan keeps pointers into EV, TEP, PRINTK and
 * KALLSYMS, which must outlive it.
 */
pf_plan *pf_compile(struct tep_handle *tep, struct tep_event *ev, const pf_strings *printk, const pf_kallsyms *kallsyms,
                    bool tep19, const char **why);

/* Whether PL's text may hold a NUL (a %c of 0), where trace-cmd's line
 * ends (it prints lines with "%.*s"). */
bool pf_may_write_nul(const pf_plan *pl);
void pf_free(pf_plan *pl);

/* NULL when pf_print() formats the event text natively; otherwise the
 * construct that leaves it to libtraceevent (static text). */
const char *pf_unsupported(const pf_plan *pl);

/* Whether printing looks kernel addresses up: the caller must have given
 * kallsyms to libtraceevent (tep_parse_kallsyms) first. */
bool pf_uses_symbols(const pf_plan *pl);

/*
 * Appends the event text of the record DATA (SIZE bytes, in the file's
 * byte order) to OUT: what tep_print_event()'s TEP_PRINT_INFO writes when
 * no handler prints the event.  Returns 1, or 0 with OUT unchanged when
 * libtraceevent must print this record, or TC_ENOMEM.
 */
int pf_print(const pf_plan *pl, tc_buf *out, const void *data, int size);

/* The same for TEP_PRINT_INFO_RAW (`report -R`): " NAME=VALUE" for every
 * field. */
int pf_print_fields(const pf_plan *pl, tc_buf *out, const void *data, int size);

/*
 * Plugin handlers: the event texts that libtraceevent's plugins print for
 * the events that fill scheduler and memory traces are also written here:
 * the sched_switch plugin's (sched_switch, sched_wakeup, sched_wakeup_new),
 * the kmem plugin's (the allocation's caller before the print format, for
 * kfree, kmalloc(_node), kmem_cache_alloc(_node), kmem_cache_free) and the
 * tlb plugin's (tlb_flush).  pf_emulates_handler() says whether PL's event
 * is one of them (with the fields the plugin expects).  pf_print_handler()
 * then appends what the plugin would print and, as it does, registers the
 * comms it shows with libtraceevent (tep_register_comm()); it returns 1,
 * 2 when a comm new to libtraceevent was registered (so cached comm
 * look-ups are stale), 0 with OUT unchanged when libtraceevent must print
 * the record, or TC_ENOMEM.  Whether the handler libtraceevent has for the
 * event is that plugin's is for the caller to make sure of (by comparing
 * a first record's texts; REGISTER_COMMS false leaves the comms to the
 * plugin then: registered twice, before libtraceevent first looks one up,
 * a comm is listed twice, and a later look-up may find the other one).
 * KNOWN_PIDS (PF_KNOWN_PIDS_BYTES zeroed bytes the caller keeps for the tep
 * handle, or NULL) remembers the pids libtraceevent has a comm for, so that
 * they are not registered again (which changes nothing).
 */
/*
 * Which libtraceevent's text PL writes where its releases differ,
 * whatever release tracecat links: 1.7's (Debian 12, under trace-cmd
 * 3.1.6; the default) or, with TEP19 true, 1.9's (sid, under trace-cmd
 * 3.4): the sched_switch plugin's state letters, and " (0xADDR)" after a
 * function name in the -R fields.
 */
void pf_set_tep19(pf_plan *pl, bool tep19);

#define PF_KNOWN_PIDS_BYTES ((1u << 22) / 8)
bool pf_emulates_handler(const pf_plan *pl);
int pf_print_handler(const pf_plan *pl, tc_buf *out, const void *data, int size, uint8_t *known_pids,
                     bool register_comms);

#endif /* TC_TRACEDAT_PRINTFMT_H */
