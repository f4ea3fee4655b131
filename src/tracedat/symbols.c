/* SPDX-License-Identifier: MIT */
/*
 * symbols.c - a trace.dat file's kallsyms (doc/formats/tracedat.md §3.4) as
 * the model's symbol table: the tc_trace.symbol_at of the trace model.c
 * makes, behind tc_trace_symbol(), which writers call to name the code
 * addresses of kernel stack traces (TC_FIELD_CODE_ADDRESS).
 *
 * The names are the ones trace-cmd report prints for a stack frame
 * ("=> NAME (ADDR)"): libtraceevent's func_map and its look-up, as
 * kallsyms.c builds them for the print-format plans too.  The table is
 * read on the first look-up, once, whichever thread asks first: printing
 * and converting to CTF never need it.  It is read leniently: lines that
 * are not "ADDR TYPE NAME[\t[MODULE]]" are left out, the others kept.
 */
#include "tracedat/model.h"

bool td_symbol_at(const tc_trace *trace, uint64_t addr, tc_symbol *out)
{
	td_trace *t = (td_trace *)((char *)trace - offsetof(td_trace, pub));
	if (!atomic_load_explicit(&t->symbols_read, memory_order_acquire)) {
		pthread_mutex_lock(&t->symbols_lock);
		if (!atomic_load_explicit(&t->symbols_read, memory_order_relaxed)) {
			const tracedat_blob *b = &tracedat_meta_of(t->file)->kallsyms;
			/* (out of memory: an empty table, no names) */
			td_kallsyms_read(&t->symbols, b->data, b->len, true);
			atomic_store_explicit(&t->symbols_read, true, memory_order_release);
		}
		pthread_mutex_unlock(&t->symbols_lock);
	}
	const tc_symbol *s = td_kallsyms_find(&t->symbols, addr);
	if (s)
		*out = *s;
	return s != NULL;
}

void td_symbols_free(td_trace *t)
{
	td_kallsyms_free(&t->symbols);
	pthread_mutex_destroy(&t->symbols_lock);
}
