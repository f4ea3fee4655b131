/* SPDX-License-Identifier: MIT */
/*
 * report.c - `trace-cmd report` for trace.dat files (see report.h).
 *
 * What trace-cmd 3.1.6 does, and so what this does:
 *
 *   - libtraceevent gets the header_page text, every event format (the
 *     ftrace ones under system "ftrace"), kallsyms, the printk formats and
 *     the saved cmdlines, then its plugins (tep_load_plugins).
 *
 *   - Every buffer becomes a "handle": the top buffer first, then the
 *     instances in file order.  A handle has max_cpu CPU slots: the
 *     CPUCOUNT option or the v6 header count, raised to the highest CPU
 *     with data plus one; an instance starts from the top buffer's count.
 *     The slots of all handles are numbered one after the other (the top
 *     buffer's CPU c is slot c, an instance's CPU c is c plus the slots
 *     before it); the next record printed is the one with the smallest
 *     time, and on equal times the one in the lowest slot.  `--cpu N`
 *     selects slots, not CPUs, so `--cpu 2` shows the first instance's
 *     CPU 0 in a two-CPU trace - as trace-cmd does.  A top buffer with
 *     no CPU table (a version 7 file made by `extract -B`) has no slots
 *     (trace-cmd 3.4's fix; 3.1.6 counted them).
 *
 *   - Times are the record's nanoseconds after TSC2NSEC, OFFSET and DATE
 *     (and, for the top buffer only, the guest TIME_SHIFT correction:
 *     trace-cmd clears it in the handles it makes for instances).
 *
 *   - A line is "%16s-%-5d [%03d]" of comm, pid and CPU (with -l,
 *     "%8.8s-%-5d %3d"), the latency column (trace-cmd 3.4 always, 3.1.6
 *     with -l: put_latency_at()), the time (" %5llu.%06llu:" of the time
 *     rounded to microseconds, or "%12llu:" of the raw count for clocks
 *     that are not in nanoseconds), with --ts-diff "(+N)", " NAME: "
 *     padded to line up names shorter than 20 characters, then the event
 *     text from tep_print_event() (INFO, or INFO_RAW for -R) without its
 *     last newline.  A record that follows lost events is preceded by
 *     "CPU:N [M EVENTS DROPPED]".  With instances, every line starts with
 *     the instance name padded to the longest one and ": ", or spaces for
 *     the top buffer.  The first line is "cpus=N", N the top buffer's
 *     CPU slots.
 *
 *   - -F filters are libtraceevent filters; a record is shown when one of
 *     them matches it (or it is a kernel stack trace right after a shown
 *     event on its CPU) and none given after -v does.
 *
 * The merge keeps one record per CPU in a binary heap keyed by (time,
 * slot).  With threads, worker threads read each CPU's records ahead in
 * batches (tracedat_batch_iter_new(), through core/prefetch.c) and the
 * merge takes them from there: the same records, in the same order, their
 * pages kept alive until the batch is done with.  The comm, pid, CPU,
 * time and name columns are written here straight into the output
 * buffer; so is the event text, by the event's plan (printfmt.h, compiled
 * when the event's first record comes), unless a plugin handler prints
 * the event or the plan leaves the record to libtraceevent:
 * tep_print_event() then writes it into one reused trace_seq.
 */
#include "tracedat/report.h"
#include "tracedat/report_int.h"

#include "core/core.h"
#include "text/format.h"
#include "tracedat/printfmt.h"
#include "tracedat/tracedat.h"

#include <event-parse.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------------------
 * Output
 */

int rp_flush(rp *r)
{
	if (r->text.len && !r->write_error) {
		if (fwrite(r->text.data, 1, r->text.len, r->out) != r->text.len)
			r->write_error = tc_fail_write(errno, "cannot write the report");
	}
	r->text.len = 0;
	return r->write_error;
}

/* Room for N more bytes; false when out of memory. */
static bool rp_reserve(rp *r, size_t n)
{
	if (TC_LIKELY(tc_buf_reserve(&r->text, n) == 0))
		return true;
	if (!r->write_error)
		r->write_error = TC_ENOMEM;
	return false;
}

void rp_put(rp *r, const char *s, size_t n)
{
	if (!rp_reserve(r, n))
		return;
	memcpy(r->text.data + r->text.len, s, n);
	r->text.len += n;
}

void rp_putc(rp *r, char c)
{
	if (rp_reserve(r, 1))
		r->text.data[r->text.len++] = c;
}

void rp_printf(rp *r, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof b, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof b) {
		rp_put(r, b, (size_t)n);
		return;
	}
	/* longer: straight into the text */
	if (tc_buf_reserve(&r->text, (size_t)n + 1) != 0) {
		if (!r->write_error)
			r->write_error = TC_ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(r->text.data + r->text.len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	r->text.len += (size_t)n;
}

/* printf's %-5d / %03d / %5llu style at O (room for WIDTH + 21 bytes):
 * WIDTH, left or zero padded; returns the end.  The digits are counted
 * first and written in place; a padding is there only when the number is
 * shorter than WIDTH, so tc_fmt_fill()'s 16 bytes stay in the room. */
static char *put_int_at(char *o, int64_t v, int width, char pad, bool left)
{
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = tc_fmt_dec_len(u) + (v < 0);
	size_t padn = (size_t)width > n ? (size_t)width - n : 0;
	if (padn && !left && pad == ' ')
		o = tc_fmt_fill(o, ' ', padn);
	if (v < 0)
		*o++ = '-';
	if (padn && !left && pad == '0')
		o = tc_fmt_fill(o, '0', padn);
	o += tc_fmt_u64(o, u);
	if (padn && left)
		o = tc_fmt_fill(o, ' ', padn);
	return o;
}

void rp_int(rp *r, int64_t v, int width, char pad, bool left)
{
	if (rp_reserve(r, (size_t)width + 24))
		r->text.len = (size_t)(put_int_at(r->text.data + r->text.len, v, width, pad, left) - r->text.data);
}

/* ------------------------------------------------------------------------
 * libtraceevent set-up, as trace-cmd's tracecmd_alloc_fd() and
 * tracecmd_read_headers() do it
 */

/* The I-th format text: the ftrace ones, then the others. */
static const tracedat_blob *rp_format_text(const rp *r, size_t i)
{
	const tracedat_meta *m = r->m;
	return i < m->ftrace_format_count ? &m->ftrace_formats[i].text : &m->event_formats[i - m->ftrace_format_count].text;
}

static const char *rp_format_system(const rp *r, size_t i)
{
	const tracedat_meta *m = r->m;
	return i < m->ftrace_format_count ? "ftrace" : m->event_formats[i - m->ftrace_format_count].system;
}

/* The number of a format text's "ID:" line, -1 if none. */
static long rp_format_id(const tracedat_blob *t)
{
	const char *p = t->data, *end = t->data + t->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (le - p > 3 && memcmp(p, "ID:", 3) == 0) {
			const char *q = p + 3;
			while (q < le && (*q == ' ' || *q == '\t'))
				q++;
			long id = 0;
			bool digits = false;
			while (q < le && *q >= '0' && *q <= '9' && id <= 0xffff) {
				id = id * 10 + (*q++ - '0');
				digits = true;
			}
			return digits ? id : -1;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return -1;
}

/* Formats libtraceevent cannot parse are kept as failed events and
 * printed as such, as trace-cmd does. */
static void rp_parse_format(rp *r, size_t i)
{
	const tracedat_blob *t = rp_format_text(r, i);
	tep_parse_event(r->tep, t->data, t->len, rp_format_system(r, i));
}

/* Every format, in file order (filters name events). */
void rp_parse_all_formats(rp *r)
{
	if (r->all_parsed)
		return;
	r->all_parsed = true;
	for (size_t i = 1; i < r->format_count; i++) {
		long id = rp_format_id(rp_format_text(r, i));
		if (id >= 0 && id <= 0xffff && r->fmt_of_id[id] == (int32_t)i && r->id_parsed[id])
			continue;
		rp_parse_format(r, i);
		if (id >= 0 && id <= 0xffff)
			r->id_parsed[id] = true;
	}
}

/* The format of event ID, parsed if it was not yet. */
static void rp_need_event(rp *r, int id)
{
	if (r->all_parsed)
		return;
	if (id < 0 || id > 0xffff || r->id_parsed[id])
		return;
	r->id_parsed[id] = true;
	if (r->dup_ids) {
		/* Several formats claim this id: let libtraceevent see all. */
		rp_parse_all_formats(r);
		return;
	}
	if (r->fmt_of_id[id] > 0)
		rp_parse_format(r, (size_t)r->fmt_of_id[id]);
}

static void rp_need_symbol_names(rp *r);

/* Function names by address from kallsyms (for %pS and plugins), and the
 * printk formats, which libtraceevent's own formatting uses.  kallsyms
 * (megabytes) is read natively when it can be (printfmt.h). */
void rp_need_symbols(rp *r)
{
	if (r->symbols_parsed)
		return;
	r->symbols_parsed = true;
	/* (no kallsyms: an empty table, as libtraceevent's is then) */
	if (pf_kallsyms_parse(r->m->kallsyms.len ? r->m->kallsyms.data : "", &r->kallsyms) == 1)
		tep_set_function_resolver(r->tep, pf_kallsyms_resolve, r->kallsyms);
	else
		rp_need_symbol_names(r);
	if (r->m->printk_formats.len)
		tep_parse_printk_formats(r->tep, r->m->printk_formats.data);
}

/* libtraceevent's own list of functions too, where it looks names in
 * print formats up (pf_names_symbols()) and filters. */
static void rp_need_symbol_names(rp *r)
{
	if (r->symbol_names_parsed)
		return;
	r->symbol_names_parsed = true;
	if (r->m->kallsyms.len)
		tep_parse_kallsyms(r->tep, r->m->kallsyms.data);
	rp_need_symbols(r);
}

static int rp_setup_tep(rp *r)
{
	const tracedat_meta *m = r->m;
	struct tep_handle *tep = tep_alloc();
	if (!tep)
		return tc_fail_nomem();
	r->tep = tep;
	if (r->o->no_plugins)
		tep_set_flag(tep, TEP_DISABLE_PLUGINS);
	if (r->o->no_sys_plugins)
		tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	if (r->o->quiet)
		tep_set_loglevel(TEP_LOG_NONE);
	r->plugins = tep_load_plugins(tep);
	tep_set_file_bigendian(tep, m->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)m->file_long_size);
	/* tep_parse_header_page() does not write to the text, whatever its
	 * prototype says. */
	tep_parse_header_page(tep, (char *)m->header_page.data, m->header_page.len, (int)m->file_long_size);
	/* Event formats are parsed when a record of the event first comes
	 * (a trace.dat file holds the formats of every event of the machine,
	 * a trace uses a few); one is parsed now, for the common fields. */
	r->format_count = m->ftrace_format_count + m->event_format_count;
	r->fmt_of_id = malloc(0x10000 * sizeof *r->fmt_of_id);
	r->id_parsed = calloc(0x10000, sizeof *r->id_parsed);
	if (!r->fmt_of_id || !r->id_parsed)
		return tc_fail_nomem();
	for (size_t i = 0; i < 0x10000; i++)
		r->fmt_of_id[i] = -1;
	for (size_t i = 0; i < r->format_count; i++) {
		long id = rp_format_id(rp_format_text(r, i));
		if (id >= 0 && id <= 0xffff && r->fmt_of_id[id] < 0)
			r->fmt_of_id[id] = (int32_t)i;
		else if (id >= 0 && id <= 0xffff)
			r->dup_ids = true;
	}
	if (r->format_count) {
		long id0 = rp_format_id(rp_format_text(r, 0));
		rp_parse_format(r, 0);
		if (id0 >= 0 && id0 <= 0xffff)
			r->id_parsed[id0] = true;
	}
	if (m->cmdlines.len)
		tep_parse_saved_cmdlines(tep, m->cmdlines.data);
	tep_set_cpus(tep, (int)m->cpu_count);
	if (r->o->nsec)
		tep_set_flag(tep, TEP_NSEC_OUTPUT);
	return 0;
}

/* Whether libtraceevent can parse filter STR without crashing: a child
 * process tries first. */
static bool rp_filter_survives(struct tep_handle *tep, const char *str)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return true;   /* cannot tell: let the real attempt go ahead */
	if (pid == 0) {
		/* Its warnings come again from the real attempt. */
		int null_fd = open("/dev/null", O_WRONLY);
		if (null_fd >= 0)
			dup2(null_fd, 2);
		struct tep_event_filter *ef = tep_filter_alloc(tep);
		if (ef)
			tep_filter_add_filter_str(ef, str);
		_exit(0);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* -F: one libtraceevent filter per expression, as tracecmd_filter_add(). */
static int rp_setup_filters(rp *r)
{
	const tc_report_options *o = r->o;
	rp_filter *fl = &r->filter;
	if (!o->filter_count)
		return 0;
	rp_parse_all_formats(r);
	rp_need_symbol_names(r);
	fl->pos = calloc(o->filter_count, sizeof *fl->pos);
	fl->neg = calloc(o->filter_count, sizeof *fl->neg);
	if (!fl->pos || !fl->neg)
		return tc_fail_nomem();
	for (size_t i = 0; i < o->filter_count; i++) {
		/* libtraceevent 1.7.1's filter parser crashes on some
		 * malformed expressions ("sched_switch: prev_pid ==",
		 * unterminated strings): try it in a child process first. */
		if (!rp_filter_survives(r->tep, o->filters[i]))
			return tc_fail(TC_EINVAL, NULL, -1, "cannot create the event filter \"%s\": libtraceevent cannot parse it", o->filters[i]);
		struct tep_event_filter *ef = tep_filter_alloc(r->tep);
		if (!ef)
			return tc_fail_nomem();
		enum tep_errno err = tep_filter_add_filter_str(ef, o->filters[i]);
		if (err < 0) {
			char why[256];
			if (tep_filter_strerror(ef, err, why, sizeof why) < 0)
				snprintf(why, sizeof why, "libtraceevent error %d", (int)err);
			/* libtraceevent points at the place on lines above its
			 * message; keep the message, on one line. */
			char *last = strrchr(why, '\n');
			while (last && last[1] == '\0') {
				*last = '\0';
				last = strrchr(why, '\n');
			}
			if (last)
				memmove(why, last + 1, strlen(last + 1) + 1);
			tep_filter_free(ef);
			return tc_fail(TC_EINVAL, NULL, -1, "cannot create the event filter \"%s\": %s", o->filters[i], why);
		}
		if (o->filter_negate && o->filter_negate[i])
			fl->neg[fl->nneg++] = ef;
		else
			fl->pos[fl->npos++] = ef;
	}
	/* Kernel and user stack traces follow a shown event (trace-cmd's
	 * filter: a missing kernel_stack is -1, a missing user_stack 0). */
	struct tep_event *ev = tep_find_event_by_name(r->tep, "ftrace", "kernel_stack");
	fl->kernel_stack_id = ev ? ev->id : -1;
	ev = tep_find_event_by_name(r->tep, "ftrace", "user_stack");
	fl->user_stack_id = ev ? ev->id : 0;
	fl->nr_cpus = tep_get_cpus(r->tep);
	if (fl->nr_cpus > 0) {
		fl->last_printed = calloc((size_t)fl->nr_cpus, sizeof *fl->last_printed);
		if (!fl->last_printed)
			return tc_fail_nomem();
	}
	return 0;
}

static bool rp_stack_follows(rp *r, struct tep_record *rec, int id)
{
	rp_filter *fl = &r->filter;
	if (id < 0 || tep_data_type(r->tep, rec) != id)
		return false;
	return fl->last_printed && rec->cpu >= 0 && rec->cpu < fl->nr_cpus && fl->last_printed[rec->cpu];
}

/* trace-cmd's tracecmd_filter_match(): true when the record is shown. */
static bool rp_filter_match(rp *r, struct tep_record *rec)
{
	rp_filter *fl = &r->filter;
	bool found = false, is_stack = false;
	for (size_t i = 0; i < fl->npos && !found; i++) {
		enum tep_errno ret = tep_filter_match(fl->pos[i], rec);
		found = ret == TEP_ERRNO__NO_FILTER || ret == TEP_ERRNO__FILTER_MATCH;
	}
	if (!found && fl->npos) {
		if (!rp_stack_follows(r, rec, fl->kernel_stack_id) && !rp_stack_follows(r, rec, fl->user_stack_id))
			return false;
		is_stack = true;
	}
	found = false;
	for (size_t i = 0; i < fl->nneg && !found; i++) {
		enum tep_errno ret = tep_filter_match(fl->neg[i], rec);
		found = ret == TEP_ERRNO__NO_FILTER || ret == TEP_ERRNO__FILTER_MATCH;
	}
	if (fl->last_printed && rec->cpu >= 0 && rec->cpu < fl->nr_cpus)
		fl->last_printed[rec->cpu] = !is_stack && !found;
	return !found;
}

/* ------------------------------------------------------------------------
 * Handles, CPU slots and cursors
 */

static int rp_setup_handles(rp *r)
{
	const tracedat_meta *m = r->m;
	size_t nb = m->buffer_count, top = nb;
	/* The top buffer (named "") wherever the reader lists it, then the
	 * instances in file order. */
	for (size_t b = 0; b < nb && top == nb; b++)
		if (m->buffers[b].name[0] == '\0')
			top = b;
	bool has_top = top < nb;
	/* Without a top buffer trace-cmd still has a top handle: no data. */
	r->handle_count = nb + !has_top;
	r->handles = calloc(r->handle_count, sizeof *r->handles);
	if (!r->handles)
		return tc_fail_nomem();
	size_t instances = nb - has_top, longest = 0;
	for (size_t b = 0; b < nb; b++)
		if (b != top && strlen(m->buffers[b].name) > longest)
			longest = strlen(m->buffers[b].name);

	uint32_t slot = 0, top_max = m->cpu_count;
	size_t next = 0;   /* next instance in the reader's list */
	for (size_t h = 0; h < r->handle_count; h++) {
		rp_handle *hd = &r->handles[h];
		const tracedat_buffer *buf = NULL;
		if (h == 0) {
			hd->buffer = has_top ? top : (size_t)-1;
		} else {
			if (next == top)
				next++;
			hd->buffer = next++;
		}
		if (hd->buffer != (size_t)-1)
			buf = &m->buffers[hd->buffer];
		/* handle->max_cpu: the top buffer's count, raised to the CPUs
		 * its data names (v7 lays the CPU table out by CPU id). */
		uint32_t max_cpu = top_max;
		if (buf)
			for (size_t i = 0; i < buf->cpu_data_count; i++)
				if (buf->cpu_data[i].cpu >= 0 && (uint32_t)buf->cpu_data[i].cpu + 1 > max_cpu)
					max_cpu = (uint32_t)buf->cpu_data[i].cpu + 1;
		if (h == 0)
			top_max = max_cpu;
		hd->max_cpu = max_cpu;
		hd->start_slot = slot;
		/* A version 7 file without a top buffer (`trace-cmd extract
		 * -B NAME`; a version 6 file always has its CPU table):
		 * trace-cmd 3.1.6 still counted slots for the missing top
		 * buffer's CPUs, so that `--cpu 0` showed nothing and the
		 * first instance's CPU 0 was `--cpu N`; 3.4 fixed that, the
		 * first instance's CPUs being 0 to N-1.  Both modes follow the
		 * fix (doc/formats/tracedat.md §11.3). */
		if (h != 0 || (buf && buf->cpu_data_count))
			slot += max_cpu;
		hd->time_shift = h == 0 && m->has_time_shift;
		if (buf) {
			hd->page_size = buf->page_size;
			hd->compressed = buf->compressed;
		}
		hd->page_data_offset = m->page_data_offset;
		if (instances) {
			const char *name = h == 0 ? "" : buf->name;
			size_t n = strlen(name);
			char *p = malloc(longest + 3);
			if (!p)
				return tc_fail_nomem();
			memset(p, ' ', longest - n);
			memcpy(p + longest - n, name, n);
			p[longest] = h == 0 ? ' ' : ':';
			p[longest + 1] = ' ';
			p[longest + 2] = '\0';
			hd->prefix = p;
			hd->prefix_len = longest + 2;
		}
	}
	r->slot_count = slot;
	return 0;
}

static inline bool src_before(const rp_src *a, const rp_src *b)
{
	return a->ns < b->ns || (a->ns == b->ns && a->slot < b->slot);
}

static void heap_down(rp *r, size_t i)
{
	rp_src **h = r->heap;
	size_t n = r->heap_len;
	rp_src *x = h[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && src_before(h[c + 1], h[c]))
			c++;
		if (!src_before(h[c], x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static void heap_up(rp *r, size_t i)
{
	rp_src **h = r->heap;
	rp_src *x = h[i];
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!src_before(x, h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = x;
}

/* The time trace-cmd gives a record (timestamp_calc()). */
uint64_t rp_time(rp *r, const rp_handle *hd, const tracedat_record *rec)
{
	const tracedat_meta *m = r->m;
	if (hd->time_shift)
		return tracedat_report_ns(r->f, rec->cpu, rec->ts);
	/* Instances, and the top buffer of a file without TIME_SHIFT (where
	 * tracedat_report_ns() comes to the same, in three calls): TSC2NSEC
	 * and the offsets. */
	uint64_t ts = rec->ts;
	if (m->has_tsc2nsec && m->tsc2nsec_mult) {
		uint64_t lo = (uint32_t)ts, hi = ts >> 32;
		uint64_t ns = (lo * m->tsc2nsec_mult) >> m->tsc2nsec_shift;
		if (hi)
			ns += (hi * m->tsc2nsec_mult) << (32 - m->tsc2nsec_shift);
		ts = ns;
	}
	return ts + (uint64_t)m->ts_offset_ns + (uint64_t)m->date_offset_us * 1000u;
}

/* Reads SRC's next record; 1 when there is one, 0 at the end, < 0. */
static int src_next(rp *r, rp_src *s)
{
	int rc = 1;
	if (!r->prefetch) {
		rc = tracedat_cursor_next(s->cur, &s->rec);
	} else if (!s->batch || s->batch_next == s->batch->count) {
		/* (releases the batch before: its last record is printed) */
		rc = tc_prefetch_next(r->prefetch, (size_t)(s - r->srcs), &s->batch);
		s->batch_next = 0;
	}
	if (rc > 0 && r->prefetch)
		s->rec = tracedat_batch_records(s->batch)[s->batch_next++];
	if (rc > 0)
		s->ns = rp_time(r, &r->handles[s->handle], &s->rec);
	return rc;
}

static int rp_open_cursors(rp *r)
{
	const tracedat_meta *m = r->m;
	size_t total = 0;
	for (size_t b = 0; b < m->buffer_count; b++)
		total += m->buffers[b].cpu_data_count;
	r->srcs = calloc(total ? total : 1, sizeof *r->srcs);
	r->heap = calloc(total ? total : 1, sizeof *r->heap);
	if (!r->srcs || !r->heap)
		return tc_fail_nomem();
	for (size_t h = 0; h < r->handle_count; h++) {
		const rp_handle *hd = &r->handles[h];
		if (hd->buffer == (size_t)-1)
			continue;
		const tracedat_buffer *buf = &m->buffers[hd->buffer];
		for (size_t i = 0; i < buf->cpu_data_count; i++) {
			const tracedat_cpu_data *cd = &buf->cpu_data[i];
			if (cd->size == 0 || cd->cpu < 0 || (uint32_t)cd->cpu >= hd->max_cpu)
				continue;
			rp_src *s = &r->srcs[r->src_count++];
			s->slot = hd->start_slot + (uint32_t)cd->cpu;
			s->handle = (uint32_t)h;
			s->cpu_offset = cd->offset;
			int rc = tracedat_cursor_open(r->f, hd->buffer, cd->cpu, &s->cur);
			if (rc < 0)
				return rc;
		}
	}
	if (r->o->threads <= 1 || r->src_count == 0)
		return 0;
	tc_stream_iter **iters = calloc(r->src_count, sizeof *iters);
	if (!iters)
		return tc_fail_nomem();
	int rc = 0;
	for (size_t i = 0; i < r->src_count && rc == 0; i++)
		if ((rc = tracedat_batch_iter_new(r->srcs[i].cur, &r->srcs[i].batches)) == 0)
			iters[i] = r->srcs[i].batches;
	if (rc == 0)
		rc = tc_prefetch_new(&r->prefetch, iters, r->src_count, r->o->threads, 0);
	free(iters);
	return rc;
}

/* Primes the heap with every CPU's first record.  Records are read in slot
 * order, so an error names the CPU trace-cmd would meet first. */
static int rp_prime(rp *r)
{
	for (size_t i = 0; i < r->src_count; i++) {
		int rc = src_next(r, &r->srcs[i]);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			r->heap[r->heap_len] = &r->srcs[i];
			heap_up(r, r->heap_len++);
		}
	}
	return 0;
}

/* tep_read_number() for the common fields. */
static inline uint64_t rp_read(const rp *r, const void *p, int size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2: {
		uint16_t x;
		memcpy(&x, p, 2);
		return r->swap ? __builtin_bswap16(x) : x;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, 4);
		return r->swap ? __builtin_bswap32(x) : x;
	}
	case 8: {
		uint64_t x;
		memcpy(&x, p, 8);
		return r->swap ? __builtin_bswap64(x) : x;
	}
	}
	return 0;
}

#define RP_COMMS 1024
#define RP_NO_EVENT ((struct tep_event *)&rp_no_event)
static const int rp_no_event;

/* The common fields' places, from the first parsed event. */
static void rp_common_fields(rp *r)
{
	struct tep_event *ev = tep_get_first_event(r->tep);
	struct tep_format_field *t = ev ? tep_find_common_field(ev, "common_type") : NULL;
	struct tep_format_field *p = ev ? tep_find_common_field(ev, "common_pid") : NULL;
	if (t && p && (t->size == 1 || t->size == 2 || t->size == 4) && (p->size == 2 || p->size == 4)) {
		r->type_off = t->offset;
		r->type_size = t->size;
		r->pid_off = p->offset;
		r->pid_size = p->size;
	}
}

static int rp_type(rp *r, struct tep_record *rec)
{
	if (r->type_size && r->type_off + r->type_size <= rec->size)
		return (int)rp_read(r, (const uint8_t *)rec->data + r->type_off, r->type_size);
	return tep_data_type(r->tep, rec);
}

static int rp_pid(rp *r, struct tep_record *rec)
{
	if (r->pid_size && r->pid_off + r->pid_size <= rec->size) {
		uint64_t v = rp_read(r, (const uint8_t *)rec->data + r->pid_off, r->pid_size);
		return r->pid_size == 2 ? (int)(int16_t)v : (int)(int32_t)v;
	}
	return tep_data_pid(r->tep, rec);
}

/* tep_find_event_by_record() of REC, whose type is ID, remembered by id. */
static struct tep_event *rp_event(rp *r, struct tep_record *rec, int id)
{
	if (id < 0 || id > 0xffff)
		return tep_find_event_by_record(r->tep, rec);
	struct rp_event *e = &r->ev_by_id[id];
	if (!e->ev) {
		e->ev = tep_find_event(r->tep, id);
		if (!e->ev)
			e->ev = RP_NO_EVENT;
		else
			e->name_len = strlen(e->ev->name);
	}
	return e->ev == RP_NO_EVENT ? NULL : e->ev;
}

static size_t rp_name_len(const rp *r, const struct tep_event *ev)
{
	return ev->id >= 0 && ev->id <= 0xffff && r->ev_by_id[ev->id].ev == ev ? r->ev_by_id[ev->id].name_len : strlen(ev->name);
}

static char *put_comm_pid_at(const rp *r, char *o, const char *comm, size_t comm_len, int pid);

/* tep_data_comm_from_pid(), its length and its column, remembered until
 * libtraceevent learns comms. */
static const struct rp_comm *rp_comm(rp *r, int pid)
{
	struct rp_comm *c = &r->comms[(unsigned)pid & (RP_COMMS - 1)];
	if (!c->comm || c->pid != pid || c->gen != r->comm_gen) {
		c->comm = tep_data_comm_from_pid(r->tep, pid);
		c->len = strlen(c->comm);
		c->pid = pid;
		c->gen = r->comm_gen;
		/* (16 + 1 + 11 bytes at most, and tc_fmt_fill()'s 16) */
		c->col_len = 0;
		if (!r->o->latency && c->len <= 16)
			c->col_len = (uint8_t)(put_comm_pid_at(r, c->col, c->comm, c->len, pid) - c->col);
	}
	return c;
}

/* ------------------------------------------------------------------------
 * Native event text (printfmt.h)
 */

#define RP_NO_PLAN ((pf_plan *)&rp_no_plan)
static const int rp_no_plan;

/* Whether a plugin handler's text may come from its plan
 * (pf_print_handler()): known after the event's first record. */
enum { RP_HANDLER_UNTRIED, RP_HANDLER_SAME, RP_HANDLER_OTHER };

static void rp_free_plans(rp *r)
{
	free(r->handler_trust);
	r->handler_trust = NULL;
	free(r->known_pids);
	r->known_pids = NULL;
	if (r->plans) {
		for (size_t i = 0; i < 0x10000; i++)
			if (r->plans[i] != RP_NO_PLAN)
				pf_free(r->plans[i]);
		free(r->plans);
		r->plans = NULL;
	}
	pf_strings_free(r->printk);
	r->printk = NULL;
}

/* EV's plan, compiled when its first record comes; NULL when
 * libtraceevent prints it. */
static const pf_plan *rp_plan(rp *r, struct tep_event *ev)
{
	if (ev->id < 0 || ev->id > 0xffff)
		return NULL;
	if (!r->plans) {
		r->plans = calloc(0x10000, sizeof *r->plans);
		r->handler_trust = calloc(0x10000, sizeof *r->handler_trust);
		r->printk = pf_strings_parse(r->m->printk_formats.len ? r->m->printk_formats.data : "");
		if (!r->plans || !r->handler_trust || !r->printk) {
			rp_free_plans(r);
			return NULL;
		}
	}
	pf_plan *pl = r->plans[ev->id];
	if (!pl) {
		const char *why;
		pl = pf_compile(r->tep, ev, r->printk, r->kallsyms, r->tc34, &why);
		/* A name the format computes with compiles only with kallsyms
		 * (megabytes to read): the plan is tried without first, a
		 * name it met leaving it unsupported.  (pf_names_symbols()
		 * also counts strings such as "true", which need none.) */
		if (pl && pf_unsupported(pl) && !r->symbols_parsed && pf_names_symbols(ev)) {
			pf_free(pl);
			rp_need_symbols(r);
			pl = pf_compile(r->tep, ev, r->printk, r->kallsyms, r->tc34, &why);
		}
		if (pl && pf_uses_symbols(pl))
			rp_need_symbols(r);
		r->plans[ev->id] = pl ? pl : RP_NO_PLAN;
	}
	return pl == RP_NO_PLAN ? NULL : pl;
}

/* A plugin handler's text by the plan, once the event's first record
 * came out the same from the handler (whose text is used for it): another
 * plugin of the same name, the user's, would show there. */
static int rp_print_handler(rp *r, struct tep_event *ev, const pf_plan *pl, struct tep_record *rec)
{
	uint8_t *trust = &r->handler_trust[ev->id];
	if (*trust == RP_HANDLER_OTHER)
		return 0;
	size_t mark = r->text.len;
	if (!r->known_pids && !(r->known_pids = calloc(PF_KNOWN_PIDS_BYTES, 1)))
		return tc_fail_nomem();
	/* The first record is printed by the plugin, which registers its
	 * comms: ours only to compare. */
	int rc = pf_print_handler(pl, &r->text, rec->data, rec->size, r->known_pids, *trust == RP_HANDLER_SAME);
	if (rc == 2) {
		r->comm_gen++;
		rc = 1;
	}
	if (rc <= 0 || *trust == RP_HANDLER_SAME)
		return rc;
	struct trace_seq *sq = &r->seq;
	trace_seq_reset(sq);
	tep_print_event(r->tep, sq, rec, "%s", TEP_PRINT_INFO);
	r->comm_gen++;
	size_t got = r->text.len - mark;
	if (got == sq->len && memcmp(r->text.data + mark, sq->buffer, got) == 0) {
		*trust = RP_HANDLER_SAME;
		return 1;
	}
	/* The plugin of the other libtraceevent release than the text
	 * asked for (pf_set_tep19()) is the same plugin: the text stays
	 * the selected release's. */
	size_t alt = r->text.len;
	pf_set_tep19((pf_plan *)pl, !r->tc34);
	rc = pf_print_handler(pl, &r->text, rec->data, rec->size, r->known_pids, false);
	pf_set_tep19((pf_plan *)pl, r->tc34);
	if (rc < 0)
		return rc;
	got = r->text.len - alt;
	if (rc > 0 && got == sq->len && memcmp(r->text.data + alt, sq->buffer, got) == 0) {
		*trust = RP_HANDLER_SAME;
		r->text.len = alt;
		return 1;
	}
	*trust = RP_HANDLER_OTHER;
	r->text.len = mark;
	rp_put(r, sq->buffer, sq->len);
	return 1;
}

/* The event text of REC without libtraceevent, as tep_print_event()'s
 * print_event_info() chooses it: the fields for -R and for events marked
 * so, the handler's text or the print format, by EV's plan PL (rp_plan(),
 * NULL for none).  1 when written, 0 when libtraceevent must print it, < 0. */
static int rp_print_native(rp *r, struct tep_event *ev, const pf_plan *pl, struct tep_record *rec)
{
	bool fields = r->o->raw || (ev->flags & TEP_EVENT_FL_PRINTRAW);
	if (!pl)
		return 0;
	if (fields)
		return pf_print_fields(pl, &r->text, rec->data, rec->size);
	if (ev->handler && !(ev->flags & TEP_EVENT_FL_NOHANDLE))
		return pf_emulates_handler(pl) ? rp_print_handler(r, ev, pl, rec) : 0;
	return pf_print(pl, &r->text, rec->data, rec->size);
}

/* ------------------------------------------------------------------------
 * Lines
 */

/* libtraceevent's print_event_time() with trace-cmd's formats at O (room
 * for 48 bytes): " %6.1000d:" (microseconds, rounded), " %9.1d:" (-t) or
 * "%12d:" (raw counts, whose 10^12 overflows libtraceevent's int and so
 * is printed whole).  Returns the end. */
char *rp_put_time_at(const rp *r, char *o, uint64_t ns)
{
	if (r->usecs) {
		bool nsec = r->o->nsec;
		uint64_t t = nsec ? ns : (ns + 500) / 1000;
		uint64_t p10 = nsec ? 1000000000u : 1000000u;
		*o++ = ' ';
		o = put_int_at(o, (int64_t)(t / p10), 5, ' ', false);
		*o++ = '.';
		tc_fmt_dec_fixed(o, t % p10, nsec ? 9 : 6);
		o += nsec ? 9 : 6;
	} else {
		char digits[24];
		size_t nd = tc_fmt_u64(digits, ns);
		if (nd < 12) {
			memset(o, ' ', 12 - nd);
			o += 12 - nd;
		}
		memcpy(o, digits, nd);
		o += nd;
	}
	*o++ = ':';
	return o;
}

/* The format rp_put_time_at() follows, for libtraceevent's TEP_PRINT_TIME. */
static const char *rp_time_format(const rp *r)
{
	return !r->usecs ? "%12d:" : r->o->nsec ? " %9.1d:" : " %6.1000d:";
}

static void rp_time_column(rp *r, uint64_t ns)
{
	if (rp_reserve(r, 48))
		r->text.len = (size_t)(rp_put_time_at(r, r->text.data + r->text.len, ns) - r->text.data);
}

/* The common_flags bits the latency column reads, the kernel's trace_flag_type
 * values: named here because libtraceevent's header renamed bit 0x02
 * (TRACE_FLAG_IRQS_NOSUPPORT in 1.7) between releases. */
enum {
	RP_FLAG_IRQS_OFF = 0x01,
	RP_FLAG_BIT1 = 0x02,
	RP_FLAG_NEED_RESCHED = 0x04,
	RP_FLAG_HARDIRQ = 0x08,
	RP_FLAG_SOFTIRQ = 0x10,
};

/* libtraceevent's TEP_PRINT_LATENCY at O (room for 24 bytes); returns the
 * end.  trace-cmd 3.4 prints it after the CPU of every line (after a
 * space, but for -R), 3.1.6 only with -l.  Without -R: 'd' for interrupts
 * off; 'N' for need-resched; 'H', 'h' or 's' for hard and soft interrupt
 * context; then the preempt count's low nibble and its high one (the
 * migrate-disable depth), each in hex or '.' when 0.  The flag bit 0x02 is
 * where the two libtraceevents differ: 1.9 (under 3.4) reads it as the
 * lazy need-resched, 'L' in the second column unless 'N'; 1.7 (under
 * 3.1.6) as "interrupt state not supported", 'X' in the first column
 * unless 'd' (doc/formats/tracedat.md §11.3).  With -R, "-0xFLAGS": the
 * raw common_flags. */
static char *put_latency_at(const rp *r, char *o, struct tep_record *rec)
{
	int flags = tep_data_flags(r->tep, rec);
	if (r->o->raw) {
		*o++ = '-';
		*o++ = '0';
		*o++ = 'x';
		return o + tc_fmt_hex(o, (uint32_t)flags, true);
	}
	unsigned pc = (unsigned)tep_data_preempt_count(r->tep, rec);
	bool hard = flags & RP_FLAG_HARDIRQ, soft = flags & RP_FLAG_SOFTIRQ;
	bool bit1 = flags & RP_FLAG_BIT1;
	*o++ = flags & RP_FLAG_IRQS_OFF ? 'd' : bit1 && !r->lazy_l ? 'X' : '.';
	*o++ = flags & RP_FLAG_NEED_RESCHED ? 'N' : bit1 && r->lazy_l ? 'L' : '.';
	*o++ = hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.';
	*o++ = pc & 0xf ? tc_fmt_hex_digits[pc & 0xf] : '.';
	*o++ = pc >> 4 & 0xf ? tc_fmt_hex_digits[pc >> 4 & 0xf] : '.';
	return o;
}

/* --ts-diff's column after the time, at O (room for 32 bytes): " %-8s" of
 * "(+N)", N the time since the previous line printed (in microseconds
 * where the time column rounds to them), or of nothing on the first line
 * (trace-cmd's test is that the previous time is not 0). */
static char *put_ts_diff_at(rp *r, char *o, uint64_t ns)
{
	uint64_t t = r->usecs && !r->o->nsec ? (ns + 500) / 1000 : ns;
	char *start = o;
	*o++ = ' ';
	if (r->last_ts) {
		*o++ = '(';
		*o++ = '+';
		o = put_int_at(o, (int64_t)(t - r->last_ts), 0, ' ', false);
		*o++ = ')';
	}
	r->last_ts = t;
	while (o - start < 9)
		*o++ = ' ';
	return o;
}

/* The task column at O (room for 40 bytes plus COMM_LEN):
 * "%16s-%-5d", with -l "%8.8s-%-5d".  Returns the end. */
static char *put_comm_pid_at(const rp *r, char *o, const char *comm, size_t comm_len, int pid)
{
	size_t width = r->o->latency ? 8 : 16;
	if (r->o->latency && comm_len > 8)
		comm_len = 8;
	if (comm_len < width)
		o = tc_fmt_fill(o, ' ', width - comm_len);
	memcpy(o, comm, comm_len);
	o += comm_len;
	*o++ = '-';
	return put_int_at(o, pid, 5, ' ', true);
}

/* The CPU column after the task's at O (room for 48 bytes): " [%03d]"
 * and, for trace-cmd 3.4, the latency column after a space (none for
 * -R's); with -l, " %3d" and the latency column right after it (both
 * releases).  Returns the end. */
static char *put_cpu_at(const rp *r, char *o, struct tep_record *rec, int cpu)
{
	*o++ = ' ';
	if (r->o->latency)
		return put_latency_at(r, put_int_at(o, cpu, 3, ' ', false), rec);
	*o++ = '[';
	if (cpu >= 0)
		o += tc_fmt_u64_zpad(o, (uint64_t)cpu, 3);
	else
		o = put_int_at(o, cpu, 3, '0', false);
	*o++ = ']';
	if (r->tc34) {
		if (!r->o->raw)
			*o++ = ' ';
		o = put_latency_at(r, o, rec);
	}
	return o;
}

/* The task and CPU columns at O (room for 88 bytes plus COMM_LEN). */
static char *put_task_at(const rp *r, char *o, struct tep_record *rec, const char *comm, size_t comm_len, int pid,
                         int cpu)
{
	return put_cpu_at(r, put_comm_pid_at(r, o, comm, comm_len, pid), rec, cpu);
}

/* rp_put_time_at() for the lines, the seconds and point made once a
 * second (room for 48 bytes). */
static char *rp_time_at(rp *r, char *o, uint64_t ns)
{
	if (!r->usecs)
		return rp_put_time_at(r, o, ns);
	bool nsec = r->o->nsec;
	uint64_t t = nsec ? ns : (ns + 500) / 1000;
	uint64_t p10 = nsec ? 1000000000u : 1000000u;
	uint64_t secs = t / p10;
	if (secs != r->time_head.secs || !r->time_head.len) {
		char *h = r->time_head.text;
		*h++ = ' ';
		h = put_int_at(h, (int64_t)secs, 5, ' ', false);
		*h++ = '.';
		r->time_head.len = (uint8_t)(h - r->time_head.text);
		r->time_head.secs = secs;
	}
	memcpy(o, r->time_head.text, sizeof r->time_head.text);
	o += r->time_head.len;
	tc_fmt_dec_fixed(o, t - secs * p10, nsec ? 9 : 6);
	o += nsec ? 9 : 6;
	*o++ = ':';
	return o;
}

/* The columns before the event text: the task and CPU (put_task_at()),
 * the time, --ts-diff's column and trace-cmd's print_event_name() (" NAME: "
 * padded to 20). */
static void rp_columns(rp *r, struct tep_record *rec, const struct rp_comm *c, int cpu, uint64_t ns,
                       const char *name, size_t name_len)
{
	if (!rp_reserve(r, 16 + c->len + 40 + 48 + 48 + 32 + name_len + 24))
		return;
	char *o = r->text.data + r->text.len;
	if (c->col_len) {
		memcpy(o, c->col, sizeof c->col);
		o += c->col_len;
	} else {
		o = put_comm_pid_at(r, o, c->comm, c->len, c->pid);
	}
	o = put_cpu_at(r, o, rec, cpu);
	o = rp_time_at(r, o, ns);
	if (r->o->ts_diff)
		o = put_ts_diff_at(r, o, ns);
	*o++ = ' ';
	memcpy(o, name, name_len);
	o += name_len;
	*o++ = ':';
	*o++ = ' ';
	if (name_len < 20)
		o = tc_fmt_fill(o, ' ', 20 - name_len);
	r->text.len = (size_t)(o - r->text.data);
}

/* The lost-events count trace-cmd shows: kbuffer reports it with the
 * record at the very start of the page only, as an int; -1 when the
 * kernel did not store the count. */
static long long rp_missed(const rp *r, const rp_src *s)
{
	const tracedat_record *rec = &s->rec;
	if (!rec->missed_events)
		return 0;
	const rp_handle *hd = &r->handles[s->handle];
	/* Uncompressed data give the record's file offset: check that it is
	 * the first thing on its page.  (Compressed data only say which
	 * chunk; the reader flags the first record of the page.) */
	if (!hd->compressed && hd->page_size &&
	    (rec->offset < s->cpu_offset + hd->page_data_offset ||
	     (rec->offset - s->cpu_offset - hd->page_data_offset) % hd->page_size != 0))
		return 0;
	return rec->missed_count ? (long long)(int)rec->missed_count : -1;
}

static void rp_line(rp *r, rp_src *s)
{
	struct tep_handle *tep = r->tep;
	const rp_handle *hd = &r->handles[s->handle];
	struct tep_record rec = {
		.ts = s->ns,
		.offset = s->rec.offset,
		.missed_events = rp_missed(r, s),
		.record_size = (int)s->rec.size,
		.size = (int)s->rec.size,
		.data = (void *)s->rec.data,
		.cpu = s->rec.cpu,
		.ref_count = 1,
		.locked = 1,
	};

	int id = rp_type(r, &rec);
	rp_need_event(r, id);
	if (r->filter.npos || r->filter.nneg) {
		if (!rp_filter_match(r, &rec))
			return;
	}
	if (r->slot_shown && (s->slot >= r->slot_count || !r->slot_shown[s->slot]))
		return;
	if (r->o->no_irqs || r->o->no_softirqs) {
		int flags = tep_data_flags(tep, &rec);
		if ((r->o->no_irqs && (flags & TRACE_FLAG_HARDIRQ)) || (r->o->no_softirqs && (flags & TRACE_FLAG_SOFTIRQ)))
			return;
	}

	if (hd->prefix)
		rp_put(r, hd->prefix, hd->prefix_len);
	if (r->profile) {
		/* the profile takes the line (trace-cmd's show-data function),
		 * after the buffer's prefix */
		int rc = rp_profile_record(r, &rec, s->handle == 0);
		if (rc < 0 && rp_flush(r) == 0)
			r->write_error = rc;
		return;
	}
	size_t line_start = r->text.len;
	if (rec.missed_events > 0) {
		rp_put(r, "CPU:", 4);
		rp_int(r, rec.cpu, 0, ' ', false);
		rp_put(r, " [", 2);
		rp_int(r, rec.missed_events, 0, ' ', false);
		rp_put(r, " EVENTS DROPPED]\n", 17);
	} else if (rec.missed_events < 0) {
		rp_put(r, "CPU:", 4);
		rp_int(r, rec.cpu, 0, ' ', false);
		rp_put(r, " [EVENTS DROPPED]\n", 18);
	}

	const char *info = r->o->raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO;
	struct trace_seq *sq = &r->seq;
	struct tep_event *ev = rp_event(r, &rec, id);
	size_t info_start;
	bool may_nul = true;     /* whether the text may hold a NUL */
	if (TC_LIKELY(ev != NULL)) {
		rp_columns(r, &rec, rp_comm(r, rp_pid(r, &rec)), rec.cpu, rec.ts, ev->name, rp_name_len(r, ev));
		info_start = r->text.len;
		const pf_plan *pl = rp_plan(r, ev);
		int done = rp_print_native(r, ev, pl, &rec);
		if (done < 0) {
			r->write_error = done;
			return;
		}
		/* (a plan's text holds one only from a %c: pf_may_write_nul()) */
		may_nul = !done || pf_may_write_nul(pl);
		if (!done) {
			/* pf_names_symbols() walks the print args: not on every
			 * such record once the names are parsed anyway */
			if (!r->symbol_names_parsed && pf_names_symbols(ev))
				rp_need_symbol_names(r);
			rp_need_symbols(r);
			trace_seq_reset(sq);
			tep_print_event(tep, sq, &rec, "%s", info);
			r->comm_gen++;
			rp_put(r, sq->buffer, sq->len);
		} else if (r->o->check_fast_path) {
			rp_need_symbols(r);
			trace_seq_reset(sq);
			tep_print_event(tep, sq, &rec, "%s", info);
			size_t got = r->text.len - info_start;
			if (got != sq->len || memcmp(r->text.data + info_start, sq->buffer, got) != 0) {
				r->write_error = tc_fail(TC_EINVAL, NULL, -1, "event %s:%s at byte %" PRIu64 ": fast text \"%.*s\", libtraceevent \"%.*s\"",
				                         ev->system, ev->name, (uint64_t)rec.offset, (int)got, r->text.data + info_start, (int)sq->len, sq->buffer);
				return;
			}
		}
	} else {
		/* An event libtraceevent does not know: its own output for
		 * every column, as trace-cmd asks for them. */
		rp_need_symbols(r);
		trace_seq_reset(sq);
		char cols[128];
		trace_seq_reset(sq);
		tep_print_event(tep, sq, &rec, "%s", TEP_PRINT_COMM);
		size_t comm_len = sq->len < 64 ? sq->len : 64;
		memcpy(cols + 64, sq->buffer, comm_len);
		trace_seq_reset(sq);
		char *end = put_task_at(r, cols, &rec, cols + 64, comm_len, rp_pid(r, &rec), rec.cpu);
		trace_seq_printf(sq, "%.*s", (int)(end - cols), cols);
		tep_print_event(tep, sq, &rec, rp_time_format(r), TEP_PRINT_TIME);
		if (r->o->ts_diff)
			trace_seq_printf(sq, "%.*s", (int)(put_ts_diff_at(r, cols, s->ns) - cols), cols);
		trace_seq_printf(sq, " %s: %.*s", "(NULL)", 20 - 6, "                    ");
		tep_print_event(tep, sq, &rec, "%s", info);
		r->comm_gen++;
		info_start = r->text.len;
		rp_put(r, sq->buffer, sq->len);
	}
	if (r->text.len > info_start && r->text.data[r->text.len - 1] == '\n')
		r->text.len--;
	/* trace-cmd prints the line with "%.*s": it ends at a NUL. */
	char *nul = may_nul ? memchr(r->text.data + line_start, '\0', r->text.len - line_start) : NULL;
	if (nul)
		r->text.len = (size_t)(nul - r->text.data);
	if (r->wakeup)
		rp_wakeup_record(r, &rec);
	if (rp_reserve(r, 1))
		r->text.data[r->text.len++] = '\n';
	if (r->text.len >= RP_FLUSH_AT)
		rp_flush(r);
}

/* ------------------------------------------------------------------------
 * The report
 */

static void rp_free(rp *r)
{
	/* The workers stop before the cursors they read go. */
	tc_prefetch_free(r->prefetch);
	for (size_t i = 0; i < r->src_count; i++) {
		if (r->srcs[i].batches)
			r->srcs[i].batches->ops->free(r->srcs[i].batches);
		tracedat_cursor_close(r->srcs[i].cur);
	}
	free(r->srcs);
	free(r->heap);
	for (size_t h = 0; h < r->handle_count; h++)
		free((char *)r->handles[h].prefix);
	free(r->handles);
	for (size_t i = 0; i < r->filter.npos; i++)
		tep_filter_free(r->filter.pos[i]);
	for (size_t i = 0; i < r->filter.nneg; i++)
		tep_filter_free(r->filter.neg[i]);
	free(r->filter.pos);
	free(r->filter.neg);
	free(r->filter.last_printed);
	free(r->slot_shown);
	free(r->fmt_of_id);
	free(r->id_parsed);
	free(r->ev_by_id);
	free(r->comms);
	rp_free_plans(r);
	rp_wakeup_free(r);
	rp_profile_free(r);
	if (r->seq_ready)
		trace_seq_destroy(&r->seq);
	if (r->tep) {
		if (r->plugins)
			tep_unload_plugins(r->plugins, r->tep);
		tep_free(r->tep);
	}
	pf_kallsyms_free(r->kallsyms);
	if (r->f)
		tracedat_close(r->f);
	tc_buf_free(&r->text);
}

static int rp_run(rp *r)
{
	int rc;
	/* trace-cmd lists kallsyms, printk formats, events and first events
	 * before it reads the -F filters; for --stat 3.4 reads them first
	 * (and dies on a bad one), 3.1.6 never does. */
	const tc_report_options *o = r->o;
	bool filters = !o->listing || (o->listing == TC_REPORT_LIST_STAT && r->tc34);
	if ((rc = rp_setup_tep(r)) < 0 || (filters && (rc = rp_setup_filters(r)) < 0) || (rc = rp_setup_handles(r)) < 0)
		return rc;
	const tracedat_meta *m = r->m;
	/* IN_USECS: cleared by a selected clock that is not in nanoseconds
	 * (a v6 file also names it after its CPU table), set by TSC2NSEC. */
	r->usecs = tracedat_clock_is_ns(r->f, m->trace_clock);
	r->swap = m->big_endian != (bool)tep_is_bigendian();
	/* The function plugin prints a func_repeats event's last time with
	 * the format in its tep_func_repeat_format, which trace-cmd defines
	 * as its own time format. */
	if (r->plugins) {
		const char **repeat_fmt = dlsym(RTLD_DEFAULT, "tep_func_repeat_format");
		if (repeat_fmt)
			*repeat_fmt = !r->usecs ? "%12d" : r->o->nsec ? "%9.1d" : "%6.1000d";
	}
	if (m->version < 7 && r->handles[0].buffer != (size_t)-1 &&
	    !tracedat_clock_is_ns(r->f, m->buffers[r->handles[0].buffer].clock))
		r->usecs = false;
	if (o->listing)
		return rp_list(r);

	if (r->o->cpus) {
		r->slot_shown = calloc(r->slot_count ? r->slot_count : 1, sizeof *r->slot_shown);
		if (!r->slot_shown)
			return tc_fail_nomem();
		for (size_t i = 0; i < r->o->cpu_count; i++)
			if (r->o->cpus[i] >= 0 && (uint32_t)r->o->cpus[i] < r->slot_count)
				r->slot_shown[r->o->cpus[i]] = true;
	}
	trace_seq_init(&r->seq);
	r->seq_ready = true;
	r->ev_by_id = calloc(0x10000, sizeof *r->ev_by_id);
	r->comms = calloc(RP_COMMS, sizeof *r->comms);
	if (!r->ev_by_id || !r->comms)
		return tc_fail_nomem();
	rp_common_fields(r);
	/* (the profile takes the records: no lines, so no latencies) */
	if (o->profile && (rc = rp_profile_init(r)) < 0)
		return rc;
	if (o->wakeup && !o->profile && (rc = rp_wakeup_init(r)) < 0)
		return rc;

	rp_put(r, "cpus=", 5);
	rp_int(r, r->handles[0].max_cpu, 0, ' ', false);
	rp_putc(r, '\n');

	if ((rc = rp_open_cursors(r)) < 0 || (rc = rp_prime(r)) < 0)
		return rc;
	while (r->heap_len) {
		rp_src *s = r->heap[0];
		rp_line(r, s);
		if (r->write_error)
			return r->write_error;
		rc = src_next(r, s);
		if (rc < 0)
			return rc;
		if (rc == 0)
			r->heap[0] = r->heap[--r->heap_len];
		if (r->heap_len)
			heap_down(r, 0);
	}
	if (r->wakeup)
		rp_wakeup_finish(r);
	if (r->profile && (rc = rp_profile_finish(r)) < 0)
		return rc;
	return r->write_error;
}

bool tc_report_available(void)
{
	return true;
}

int tc_report(FILE *out, const char *path, const tc_report_options *opts)
{
	static const tc_report_options defaults;
	rp r = { .o = opts ? opts : &defaults, .out = out };
	r.tc34 = r.o->compat.trace_cmd >= TC_RELEASE(3, 3);
	r.lazy_l = r.o->compat.trace_cmd >= TC_RELEASE(3, 4);
	/* The path as the system sees it first, so that a missing file or a
	 * directory is said as such (tc_input_open does the same). */
	int rc = tc_path_kind(path);
	if (rc == TC_PATH_DIR)
		rc = tc_fail(TC_ENOTFOUND, path, -1, "a directory, not a trace.dat file");
	if (rc < 0 || (rc = tracedat_open(&r.f, path)) < 0)
		return rc;
	r.m = tracedat_meta_of(r.f);
	rc = rp_run(&r);
	/* Whatever was read before an error is printed, as trace-cmd does;
	 * nothing is when the set-up failed (a bad filter). */
	int wrc = rp_flush(&r);
	if (rc == 0 && wrc < 0)
		rc = wrc;
	if (rc == 0 && fflush(out) != 0)
		rc = tc_fail_write(errno, "cannot write the report");
	rp_free(&r);
	return rc;
}

/* ------------------------------------------------------------------------
 * For tests (report.h)
 */

static uint64_t sc_next(uint64_t *state)
{
	/* splitmix64 */
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct tracedat_report_tep {
	rp r;
	pf_strings *printk;
};

/* The report's set-up of libtraceevent, every format parsed. */
static int rp_open_for_test(const char *path, rp *r)
{
	static const tc_report_options defaults;
	r->o = &defaults;
	int rc = tracedat_open(&r->f, path);
	if (rc < 0)
		return rc;
	r->m = tracedat_meta_of(r->f);
	if ((rc = rp_setup_tep(r)) < 0)
		return rc;
	rp_parse_all_formats(r);
	rp_need_symbols(r);
	rp_common_fields(r);
	r->swap = r->m->big_endian != (bool)tep_is_bigendian();
	return 0;
}

int tracedat_report_tep_open(const char *path, tracedat_report_tep **out)
{
	*out = NULL;
	tracedat_report_tep *t = calloc(1, sizeof *t);
	if (!t)
		return tc_fail_nomem();
	int rc = rp_open_for_test(path, &t->r);
	if (rc == 0 && !(t->printk = pf_strings_parse(t->r.m->printk_formats.len ? t->r.m->printk_formats.data : "")))
		rc = TC_ENOMEM;
	if (rc < 0) {
		tracedat_report_tep_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

const pf_strings *tracedat_report_tep_printk(tracedat_report_tep *t)
{
	return t->printk;
}

const pf_kallsyms *tracedat_report_tep_kallsyms(tracedat_report_tep *t)
{
	return t->r.kallsyms;
}

struct tep_handle *tracedat_report_tep_handle(tracedat_report_tep *t)
{
	return t->r.tep;
}

void tracedat_report_tep_close(tracedat_report_tep *t)
{
	if (!t)
		return;
	rp_free(&t->r);
	pf_strings_free(t->printk);
	free(t);
}

int tracedat_report_time_selfcheck(const char *path, unsigned rounds, uint64_t seed)
{
	static const tc_report_options defaults, nsec_opts = { .nsec = true };
	rp r = { 0 };
	int rc = rp_open_for_test(path, &r);
	uint8_t buf[64] = { 0 };
	if (rc < 0 || tep_get_events_count(r.tep) <= 0 || !r.type_size)
		goto out;
	trace_seq_init(&r.seq);
	r.seq_ready = true;
	struct tep_event *ev = tep_get_event(r.tep, 0);
	memcpy(buf + r.type_off, &ev->id, (size_t)r.type_size);
	for (unsigned k = 0; k < rounds; k++) {
		uint64_t ts = sc_next(&seed) >> (sc_next(&seed) % 64);
		struct tep_record rec = { .data = buf, .size = sizeof buf, .ts = ts, .ref_count = 1 };
		for (int f = 0; f < 3; f++) {
			r.o = f == 1 ? &nsec_opts : &defaults;
			r.usecs = f < 2;
			r.text.len = 0;
			rp_time_column(&r, ts);
			const char *tfmt = rp_time_format(&r);
			trace_seq_reset(&r.seq);
			tep_print_event(r.tep, &r.seq, &rec, tfmt, TEP_PRINT_TIME);
			if (r.write_error) {
				rc = r.write_error;
				goto out;
			}
			if (r.text.len != r.seq.len || memcmp(r.text.data, r.seq.buffer, r.text.len) != 0) {
				rc = tc_fail(TC_EINVAL, path, -1, "time %" PRIu64 " as \"%s\": \"%.*s\", libtraceevent \"%.*s\"", ts, tfmt,
				             (int)r.text.len, r.text.data, (int)r.seq.len, r.seq.buffer);
				goto out;
			}
		}
	}
out:
	rp_free(&r);
	return rc;
}
