/* SPDX-License-Identifier: MIT */
/*
 * kallsyms.h - a trace's kallsyms (doc/formats/tracedat.md §3.4) read into
 * libtraceevent's func_map and looked up as it looks names up
 * (kallsyms.c).  One table for both its users: the model's symbol table
 * behind tc_trace_symbol() (symbols.c, in every build) and the function
 * resolver of report's and script's print-format plans (printfmt_tables.c,
 * built with libtraceevent only).
 */
#ifndef TC_TRACEDAT_KALLSYMS_H
#define TC_TRACEDAT_KALLSYMS_H

#include "tracecat.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct td_kallsyms {
	tc_symbol *map;            /* count entries, then a zero one */
	size_t count;
	char *text;                /* the names, cut out of a copy of the text */
} td_kallsyms;

/*
 * Reads the LEN bytes of TEXT into *KS: the symbols libtraceevent's
 * tep_parse_kallsyms() registers, in the order of its func_map.  Returns
 * 1; -1 when out of memory (nothing recorded, *KS empty); 0 when a line is
 * not in the plain form the kernel writes ("ADDR TYPE NAME" and maybe
 * "\t[MODULE]"), which libtraceevent may read otherwise (*KS empty).
 * LENIENT: such lines are left out and the others read, never 0; and a
 * module without its closing ']' is none rather than cut short.
 * td_kallsyms_free() frees *KS whatever the result.
 */
int td_kallsyms_read(td_kallsyms *ks, const char *text, size_t len, bool lenient);
void td_kallsyms_free(td_kallsyms *ks);

/* The entry whose range holds ADDR (libtraceevent's func_bcmp(): from its
 * address up to the next entry's, the last one its own address only), the
 * one glibc's bsearch() finds among aliases; NULL when none. */
const tc_symbol *td_kallsyms_find(const td_kallsyms *ks, uint64_t addr);

#endif
