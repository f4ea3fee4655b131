/* SPDX-License-Identifier: MIT */
/*
 * report_list.c - the listings `trace-cmd report` prints instead of the
 * events (tracecmd/trace-read.c's trace_report() and read_data_info()),
 * byte for byte, for `tracecat report`:
 *
 *   -f             tep_print_funcs(): the kallsyms libtraceevent keeps,
 *                  "%016llx NAME" and " [MODULE]", by address
 *   -P             tep_print_printk(): the printk formats, "%016llx TEXT"
 *   -E             "SYSTEM:NAME" of every event format, in the order of
 *                  tep_list_events(TEP_EVENT_SORT_SYSTEM)
 *   --first-event  "List of CPUs in FILE with data:", then for each CPU of
 *                  the top buffer with data "  N\tFirst event:" and the
 *                  time of its first record in the time column's format
 *                  without the column's space and colon
 *   --stat         "cpus=N", a note, the CPUSTAT options' texts, then
 *                  where each CPU's data of the top buffer is
 *                  (libtracecmd's tracecmd_print_stats())
 *
 * trace-cmd 3.1.6 and 3.4 print the same texts.  The kallsyms and printk
 * tables are printfmt_tables.c's copies of libtraceevent's (same order, same
 * sort), so the listing does not depend on which libtraceevent is linked.
 */
#include "tracedat/report_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CPUSTAT option (trace-cmd.dat.v7(5), OPTIONS: id 2). */
#define RP_OPTION_CPUSTAT 2

static void put_line_end(rp *r)
{
	rp_putc(r, '\n');
	if (r->text.len >= RP_FLUSH_AT)
		rp_flush(r);
}

static int list_funcs(rp *r)
{
	pf_kallsyms *ks;
	int rc = pf_kallsyms_parse(r->m->kallsyms.len ? r->m->kallsyms.data : "", &ks);
	if (rc == 0)
		return tc_fail(TC_EUNSUPPORTED, r->m->path, r->m->kallsyms.offset,
		               "kallsyms not in the kernel's plain form: tracecat does not list them");
	if (rc < 0)
		return rc;
	for (size_t i = 0, n = pf_kallsyms_count(ks); i < n; i++) {
		uint64_t addr;
		const char *func, *mod;
		pf_kallsyms_at(ks, i, &addr, &func, &mod);
		rp_printf(r, "%016" PRIx64 " ", addr);
		rp_put(r, func, strlen(func));
		if (mod) {
			rp_put(r, " [", 2);
			rp_put(r, mod, strlen(mod));
			rp_putc(r, ']');
		}
		put_line_end(r);
	}
	pf_kallsyms_free(ks);
	return 0;
}

static int list_printk(rp *r)
{
	pf_strings *st = pf_strings_parse(r->m->printk_formats.data);
	if (!st)
		return TC_ENOMEM;
	for (size_t i = 0, n = pf_strings_count(st); i < n; i++) {
		uint64_t addr;
		const char *text;
		pf_strings_at(st, i, &addr, &text);
		rp_printf(r, "%016" PRIx64 " ", addr);
		rp_put(r, text, strlen(text));
		put_line_end(r);
	}
	pf_strings_free(st);
	return 0;
}

static int list_events(rp *r)
{
	rp_parse_all_formats(r);
	struct tep_event **events = tep_list_events(r->tep, TEP_EVENT_SORT_SYSTEM);
	if (!events)
		return tc_fail_nomem();
	for (size_t i = 0; events[i]; i++) {
		if (events[i]->system) {
			rp_put(r, events[i]->system, strlen(events[i]->system));
			rp_putc(r, ':');
		}
		rp_put(r, events[i]->name, strlen(events[i]->name));
		put_line_end(r);
	}
	return 0;
}

/* The top buffer, or NULL when the file has none (`extract -B` files of
 * version 7): trace-cmd's top handle then has no CPUs. */
static const tracedat_buffer *top_buffer(const rp *r)
{
	size_t b = r->handles[0].buffer;
	return b == (size_t)-1 ? NULL : &r->m->buffers[b];
}

/* trace-cmd numbers the top handle's CPUs by their place in its CPU
 * table (every CPU in version 6, those with data in version 7). */
static int list_first_events(rp *r)
{
	const char *name = r->o->name ? r->o->name : r->m->path;
	rp_put(r, "List of CPUs in ", 16);
	rp_put(r, name, strlen(name));
	rp_put(r, " with data:\n", 12);
	const tracedat_buffer *buf = top_buffer(r);
	for (size_t i = 0; buf && i < buf->cpu_data_count; i++) {
		const tracedat_cpu_data *cd = &buf->cpu_data[i];
		if (!cd->size)
			continue;
		tracedat_cursor *c = NULL;
		tracedat_record rec;
		int rc = tracedat_cursor_open(r->f, r->handles[0].buffer, cd->cpu, &c);
		if (rc == 0)
			rc = tracedat_cursor_next(c, &rec);
		if (rc > 0) {
			/* the column's format without its space and colon:
			 * "%6.1000d", "%9.1d" or "%12d" */
			char t[64];
			char *end = rp_put_time_at(r, t, rp_time(r, &r->handles[0], &rec)) - 1;
			char *start = r->usecs ? t + 1 : t;
			rp_put(r, "  ", 2);
			rp_int(r, (int64_t)i, 0, ' ', false);
			rp_put(r, "\tFirst event:", 13);
			rp_put(r, start, (size_t)(end - start));
			put_line_end(r);
		}
		tracedat_cursor_close(c);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int list_stat(rp *r)
{
	const tracedat_meta *m = r->m;
	rp_put(r, "cpus=", 5);
	rp_int(r, r->handles[0].max_cpu, 0, ' ', false);
	static const char note[] = "\n\nKernel buffer statistics:\n"
	                           "  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	                           "        recorded in the trace data. They should all be zero.\n\n";
	rp_put(r, note, sizeof note - 1);
	/* The CPUSTAT texts one after the other, the last byte of each (its
	 * NUL) made a newline, printed with "%s\n": up to a NUL inside. */
	size_t start = r->text.len;
	bool any = false;
	for (size_t i = 0; i < m->option_count; i++) {
		const tracedat_option *o = &m->options[i];
		if (o->id != RP_OPTION_CPUSTAT)
			continue;
		any = true;
		if (!o->size)
			continue;
		rp_put(r, (const char *)o->data, o->size);
		if (r->write_error)
			return r->write_error;
		r->text.data[r->text.len - 1] = '\n';
	}
	if (any) {
		char *nul = memchr(r->text.data + start, '\0', r->text.len - start);
		if (nul)
			r->text.len = (size_t)(nul - r->text.data);
		rp_putc(r, '\n');
	} else {
		rp_put(r, " No stats in this file\n", 23);
	}
	/* Compressed data: libtracecmd lays the inflated CPUs out one after
	 * the other from one page into the file, each on a page boundary,
	 * and shows those places and sizes. */
	const tracedat_buffer *buf = top_buffer(r);
	uint64_t next = m->page_size;
	for (size_t i = 0; buf && i < buf->cpu_data_count; i++) {
		uint64_t offset = buf->cpu_data[i].offset, size = buf->cpu_data[i].size;
		if (buf->compressed && size) {
			tracedat_cursor *c = NULL;
			int rc = tracedat_cursor_open(r->f, r->handles[0].buffer, buf->cpu_data[i].cpu, &c);
			if (rc == 0)
				rc = tracedat_cursor_inflated_size(c, &size);
			tracedat_cursor_close(c);
			if (rc < 0)
				return rc;
			offset = next;
			if (m->page_size)
				next = (next + size + m->page_size - 1) / m->page_size * m->page_size;
		}
		rp_printf(r, "CPU%zu data recorded at offset=0x%" PRIx64 "\n    %" PRId64 " bytes in size\n", i, offset, (int64_t)size);
	}
	return 0;
}

int rp_list(rp *r)
{
	switch (r->o->listing) {
	case TC_REPORT_LIST_FUNCS:
		return list_funcs(r);
	case TC_REPORT_LIST_PRINTK:
		return list_printk(r);
	case TC_REPORT_LIST_EVENTS:
		return list_events(r);
	case TC_REPORT_LIST_FIRST_EVENT:
		return list_first_events(r);
	case TC_REPORT_LIST_STAT:
		return list_stat(r);
	case TC_REPORT_LIST_NONE:
		break;
	}
	return 0;
}
