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
 *     CPU 0 in a two-CPU trace - as trace-cmd does.
 *
 *   - Times are the record's nanoseconds after TSC2NSEC, OFFSET and DATE
 *     (and, for the top buffer only, the guest TIME_SHIFT correction:
 *     trace-cmd clears it in the handles it makes for instances).
 *
 *   - A line is "%16s-%-5d [%03d]" of comm, pid and CPU, the time
 *     (" %5llu.%06llu:" of the time rounded to microseconds, or "%12llu:"
 *     of the raw count for clocks that are not in nanoseconds), " NAME: "
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
 * slot).  The comm, pid, CPU, time and name columns are written here
 * straight into the output buffer; the event text comes from
 * tep_print_event() into one reused trace_seq.
 */
#include "tracedat/report.h"

#include "core/core.h"
#include "tracedat/tracedat.h"

#include <event-parse.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* One CPU of one buffer, with its next record. */
typedef struct rp_src {
	tracedat_cursor *cur;
	tracedat_record rec;
	uint64_t ns;             /* the time trace-cmd shows and sorts by */
	uint32_t slot;           /* trace-cmd's CPU slot (see above) */
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
	bool time_shift;         /* TIME_SHIFT applies (top buffer only) */
} rp_handle;

typedef struct rp_filter {
	struct tep_event_filter **pos, **neg;
	size_t npos, nneg;
	int kernel_stack_id, user_stack_id;
	bool *last_printed;
	int nr_cpus;
} rp_filter;

struct fp_plan;

typedef struct rp {
	const tracedat_report_options *o;
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
	bool usecs;              /* times in microseconds (trace-cmd's IN_USECS) */
	bool swap;               /* the file's byte order is not ours */
	struct fp_plan **plans;  /* by event id: the fast formatter's plans */
	/* Lazy parsing: format index by event id, ids already parsed. */
	int32_t *fmt_of_id;
	bool *id_parsed;
	size_t format_count;
	bool dup_ids, all_parsed, symbols_parsed;
	/* Caches of libtraceevent look-ups: events by id, comms by pid
	 * (valid until libtraceevent prints an event: plugins add comms). */
	struct tep_event **ev_by_id;
	struct rp_comm { int pid; unsigned gen; const char *comm; } *comms;
	unsigned comm_gen;
	int type_off, type_size, pid_off, pid_size;
	bool *slot_shown;        /* --cpu */
	uint32_t slot_count;
	/* The output: lines are built here and written in large blocks. */
	FILE *out;
	char *buf;
	size_t len, cap;
	int write_error;
} rp;

#define RP_FLUSH_AT (256u * 1024u)

/* ------------------------------------------------------------------------
 * Output
 */

static int rp_flush(rp *r)
{
	if (r->len && !r->write_error) {
		if (fwrite(r->buf, 1, r->len, r->out) != r->len)
			r->write_error = tc_fail(TC_EIO, NULL, -1, "cannot write the report");
	}
	r->len = 0;
	return r->write_error;
}

/* Room for N more bytes; false when out of memory. */
static bool rp_reserve(rp *r, size_t n)
{
	if (TC_LIKELY(r->len + n <= r->cap))
		return true;
	size_t cap = r->cap ? r->cap : RP_FLUSH_AT * 2;
	while (cap < r->len + n)
		cap *= 2;
	char *b = realloc(r->buf, cap);
	if (!b) {
		if (!r->write_error)
			r->write_error = tc_fail_nomem();
		return false;
	}
	r->buf = b;
	r->cap = cap;
	return true;
}

static void rp_put(rp *r, const char *s, size_t n)
{
	if (!rp_reserve(r, n))
		return;
	memcpy(r->buf + r->len, s, n);
	r->len += n;
}

static void rp_putc(rp *r, char c)
{
	if (rp_reserve(r, 1))
		r->buf[r->len++] = c;
}

static void rp_spaces(rp *r, size_t n)
{
	if (!rp_reserve(r, n))
		return;
	memset(r->buf + r->len, ' ', n);
	r->len += n;
}

/* Decimal digits of V into the end of TMP; returns where they start. */
static char *utoa_end(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* printf's %-5d / %03d / %5llu style: WIDTH, left or zero padded. */
static void rp_int(rp *r, int64_t v, int width, char pad, bool left)
{
	char tmp[24], *end = tmp + sizeof tmp, *p;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	p = utoa_end(end, u);
	size_t digits = (size_t)(end - p);
	size_t n = digits + (v < 0);
	size_t padn = (size_t)width > n ? (size_t)width - n : 0;
	if (!rp_reserve(r, n + padn))
		return;
	char *o = r->buf + r->len;
	if (!left && pad == ' ') {
		memset(o, ' ', padn);
		o += padn;
	}
	if (v < 0)
		*o++ = '-';
	if (!left && pad == '0') {
		memset(o, '0', padn);
		o += padn;
	}
	memcpy(o, p, digits);
	o += digits;
	if (left) {
		memset(o, ' ', padn);
		o += padn;
	}
	r->len = (size_t)(o - r->buf);
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
static void rp_parse_all_formats(rp *r)
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

/* The format of REC's event, parsed if it was not yet. */
static void rp_need_event(rp *r, struct tep_record *rec)
{
	if (r->all_parsed)
		return;
	int id = tep_data_type(r->tep, rec);
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

/* kallsyms and the printk formats, which only libtraceevent's own
 * formatting and the filters use. */
static void rp_need_symbols(rp *r)
{
	if (r->symbols_parsed)
		return;
	r->symbols_parsed = true;
	if (r->m->kallsyms.len)
		tep_parse_kallsyms(r->tep, r->m->kallsyms.data);
	if (r->m->printk_formats.len)
		tep_parse_printk_formats(r->tep, r->m->printk_formats.data);
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
	const tracedat_report_options *o = r->o;
	rp_filter *fl = &r->filter;
	if (!o->filter_count)
		return 0;
	rp_parse_all_formats(r);
	rp_need_symbols(r);
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
		slot += max_cpu;
		hd->time_shift = h == 0;
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
static uint64_t rp_time(rp *r, const rp_handle *hd, const tracedat_record *rec)
{
	const tracedat_meta *m = r->m;
	if (hd->time_shift)
		return tracedat_report_ns(r->f, rec->cpu, rec->ts);
	/* Instances: TSC2NSEC and the offsets, but no TIME_SHIFT. */
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
	int rc = tracedat_cursor_next(s->cur, &s->rec);
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
	return 0;
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

/* ------------------------------------------------------------------------
 * The event text without libtraceevent, for the common print formats
 *
 * tep_print_event() renders an event's print format one piece at a time
 * through vsnprintf(); that is most of trace-cmd's time.  For the formats
 * made only of text and conversions of plain fields, casts of fields and
 * __get_str() strings, the same pieces are computed here from a plan built
 * once per event, mirroring libtraceevent's parse_args() and
 * eval_num_arg(); a conversion with anything but a width, '0' or '-' goes
 * through snprintf() with libtraceevent's own printf format and argument
 * type, so the digits are printf's.  Events with a plugin or trace-cmd
 * handler, failed or binary-printk formats, other argument kinds (%p,
 * '*' widths, __print_flags, operators, ...) and records whose strings are
 * not terminated inside the record keep libtraceevent's output.
 */

enum { FP_LIT, FP_INT, FP_STR_DYN, FP_STR_ARR };

typedef struct fp_op {
	uint8_t kind;
	int8_t ls;               /* libtraceevent's length count: hh -2 .. ll 2 */
	char conv;               /* d i u x X o c s */
	bool simple;             /* width, '0' and '-' only: formatted here */
	bool left, zero;
	bool rel;                /* __rel_loc string */
	uint16_t width;
	uint32_t lit_off, lit_len;  /* FP_LIT: text in plan->text */
	int32_t off, size;       /* the field */
	const struct tep_format_field *field;  /* FP_INT: the field printed */
	uint64_t mask;           /* casts to narrower types */
	char fmt[32];            /* libtraceevent's printf format of the piece */
} fp_op;

typedef struct fp_plan {
	int state;               /* 1: use the plan; -1: libtraceevent */
	fp_op *ops;
	size_t n;
	char *text;
} fp_plan;

/* libtraceevent's eval_type_str() for a value cast to TYPE (not a
 * pointer): the mask it applies, all ones when none. */
static uint64_t fp_cast_mask(const char *type)
{
	size_t len = strlen(type);
	if (len < 2 || type[len - 1] == '*' || strncmp(type, "struct", 6) == 0)
		return ~(uint64_t)0;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return 0xffffffff;
	if (strncmp(type, "unsigned ", 9) == 0)
		type += 9;
	if (!strcmp(type, "char"))
		return 0xff;
	if (!strcmp(type, "short"))
		return 0xffff;
	if (!strcmp(type, "int"))
		return 0xffffffff;
	return ~(uint64_t)0;
}

static bool fp_add(fp_plan *pl, size_t *cap, const fp_op *op)
{
	if (pl->n == *cap) {
		size_t c = *cap ? *cap * 2 : 8;
		fp_op *o = realloc(pl->ops, c * sizeof *o);
		if (!o)
			return false;
		pl->ops = o;
		*cap = c;
	}
	pl->ops[pl->n++] = *op;
	return true;
}

/* Builds EV's plan; state -1 when libtraceevent must print it. */
static void fp_compile(struct tep_handle *tep, struct tep_event *ev, fp_plan *pl, bool raw)
{
	pl->state = -1;
	/* -R prints the fields whatever the handler and flags (but
	 * TEP_EVENT_FL_FAILED); otherwise a handler prints the event. */
	if (ev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT))
		return;
	if (!raw && (ev->handler || (ev->flags & (TEP_EVENT_FL_PRINTRAW | TEP_EVENT_FL_NOHANDLE))))
		return;
	const char *f = ev->print_fmt.format;
	struct tep_print_arg *arg = ev->print_fmt.args;
	if (!f || tep_get_long_size(tep) != (int)sizeof(long))
		return;
	size_t flen = strlen(f), cap = 0, tcap = flen + 1, tlen = 0;
	pl->text = malloc(tcap);
	if (!pl->text)
		return;
	while (*f) {
		fp_op op = { 0 };
		if (*f == '%' && f[1] != '%') {
			/* parse_arg_format() */
			const char *start = f++;
			int ls = 0;
			bool plain_mod = true, simple = true, in_prec = false, seen_ls = false;
			for (;; f++) {
				char c = *f;
				if (c == '\0')
					goto fail;   /* a '%' at the very end */
				if (c == 'h' || c == 'l') {
					ls += c == 'l' ? 1 : -1;
					seen_ls = true;
					continue;
				}
				if (c == 'L' || c == 'z' || c == 'Z') {
					ls = c == 'L' ? 2 : 1;
					plain_mod = false;
					continue;
				}
				if (c == '#' || c == '+') {
					simple = false;
					continue;
				}
				if (c == '.') {
					in_prec = true;
					simple = false;
					continue;
				}
				if (c >= '0' && c <= '9') {
					if (seen_ls)
						simple = false;   /* digits after h/l: let printf decide */
					if (!in_prec) {
						if (c == '0' && op.width == 0)
							op.zero = true;
						else if (op.width < 1000)
							op.width = (uint16_t)(op.width * 10 + (c - '0'));
						else
							simple = false;
					}
					continue;
				}
				if (c == '-') {
					op.left = true;
					continue;
				}
				if (c == '*' || c == 'p')
					goto fail;
				break;
			}
			char c = *f++;
			size_t n = (size_t)(f - start);
			if (c == 's' && ls != 0)
				goto fail;
			if (strchr("cduixXos", c)) {
				if (!arg || n > 30)
					goto fail;
				memcpy(op.fmt, start, n);
				op.fmt[n] = '\0';
				op.conv = c;
				op.ls = (int8_t)ls;
				if (ls < -2 || ls > 2)
					goto fail;
				op.simple = simple && plain_mod && c != 'c' && c != 'o';
				/* Only "hh", "h", "", "l", "ll" spell their count. */
				if (op.simple) {
					const char *m = start + 1;
					while (*m && !strchr("hlcduixXos", *m))
						m++;
					size_t ml = strspn(m, "hl");
					if (!((ml == 0 && ls == 0) || (ml == 1 && m[0] == 'l' && ls == 1) ||
					      (ml == 2 && !strncmp(m, "ll", 2) && ls == 2) ||
					      (ml == 1 && m[0] == 'h' && ls == -1) || (ml == 2 && !strncmp(m, "hh", 2) && ls == -2)))
						op.simple = false;
				}
				struct tep_print_arg *a = arg;
				arg = arg->next;
				if (c == 's') {
					if (a->type == TEP_PRINT_STRING) {
						struct tep_format_field *fld = a->string.field;
						if (!fld)
							fld = tep_find_any_field(ev, a->string.string);
						if (!fld || (fld->size != 4 && fld->size != 2))
							goto fail;
						op.kind = FP_STR_DYN;
						op.off = fld->offset;
						op.size = fld->size;
						op.rel = fld->flags & TEP_FIELD_IS_RELATIVE;
					} else if (a->type == TEP_PRINT_FIELD) {
						struct tep_format_field *fld = a->field.field;
						if (!fld)
							fld = tep_find_any_field(ev, a->field.name);
						if (!fld || !(fld->flags & TEP_FIELD_IS_ARRAY) || (fld->flags & TEP_FIELD_IS_DYNAMIC) || fld->size <= 0)
							goto fail;
						op.kind = FP_STR_ARR;
						op.off = fld->offset;
						op.size = fld->size;
					} else {
						goto fail;
					}
				} else {
					uint64_t mask = ~(uint64_t)0;
					while (a->type == TEP_PRINT_TYPE) {
						mask &= fp_cast_mask(a->typecast.type);
						a = a->typecast.item;
					}
					if (a->type != TEP_PRINT_FIELD)
						goto fail;
					struct tep_format_field *fld = a->field.field;
					if (!fld)
						fld = tep_find_any_field(ev, a->field.name);
					if (!fld || (fld->size != 1 && fld->size != 2 && fld->size != 4 && fld->size != 8))
						goto fail;
					op.kind = FP_INT;
					op.off = fld->offset;
					op.size = fld->size;
					op.mask = mask;
					op.field = a->field.field;
				}
			} else {
				/* libtraceevent prints an unknown conversion as ">c<". */
				op.kind = FP_LIT;
				op.lit_off = (uint32_t)tlen;
				char tmp[4] = { '>', c, '<', 0 };
				if (tlen + 3 > tcap)
					goto fail;
				memcpy(pl->text + tlen, tmp, 3);
				tlen += 3;
				op.lit_len = 3;
				if (c == '\0')
					goto fail;
			}
		} else {
			/* parse_arg_string(): text up to the next conversion. */
			op.kind = FP_LIT;
			op.lit_off = (uint32_t)tlen;
			for (; *f; f++) {
				char c = *f;
				if (c == '\\') {
					c = *++f;
					if (c == '\0')
						goto fail;
					c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
				} else if (c == '%') {
					if (f[1] != '%')
						break;
					f++;
				}
				if (tlen + 1 > tcap)
					goto fail;
				pl->text[tlen++] = c;
			}
			op.lit_len = (uint32_t)(tlen - op.lit_off);
			if (op.lit_len == 0)
				continue;
		}
		if (!fp_add(pl, &cap, &op))
			goto fail;
	}
	pl->state = 1;
	return;
fail:
	free(pl->ops);
	free(pl->text);
	pl->ops = NULL;
	pl->text = NULL;
	pl->n = 0;
	pl->state = -1;
}

static const fp_plan *fp_plan_of(rp *r, struct tep_event *ev)
{
	if (ev->id < 0 || ev->id > 0xffff)
		return NULL;
	if (!r->plans) {
		r->plans = calloc(0x10000, sizeof *r->plans);
		if (!r->plans)
			return NULL;
	}
	fp_plan *pl = r->plans[ev->id];
	if (!pl) {
		pl = calloc(1, sizeof *pl);
		if (!pl)
			return NULL;
		fp_compile(r->tep, ev, pl, r->o->raw);
		r->plans[ev->id] = pl;
	}
	return pl->state > 0 ? pl : NULL;
}

static inline uint64_t rp_read(const rp *r, const void *p, int size)
{
	uint64_t v = 0;
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
	case 8:
		memcpy(&v, p, 8);
		return r->swap ? __builtin_bswap64(v) : v;
	}
	return 0;
}

/* A conversion of a number, as printf would with libtraceevent's cast. */
static void fp_number(rp *r, const fp_op *op, uint64_t val)
{
	if (!op->simple) {
		char tmp[128];
		int n;
		switch (op->ls) {
		case -2: n = snprintf(tmp, sizeof tmp, op->fmt, (char)val); break;
		case -1: n = snprintf(tmp, sizeof tmp, op->fmt, (short)val); break;
		case 0: n = snprintf(tmp, sizeof tmp, op->fmt, (int)val); break;
		case 1: n = snprintf(tmp, sizeof tmp, op->fmt, (long)val); break;
		default: n = snprintf(tmp, sizeof tmp, op->fmt, (long long)val); break;
		}
		if (n > 0)
			rp_put(r, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
		return;
	}
	unsigned bits = op->ls <= -2 ? 8 : op->ls == -1 ? 16 : op->ls == 0 ? 32 : 64;
	uint64_t u = bits == 64 ? val : val & (((uint64_t)1 << bits) - 1);
	bool neg = false;
	if (op->conv == 'd' || op->conv == 'i') {
		int64_t sv = bits == 64 ? (int64_t)u : (int64_t)(u << (64 - bits)) >> (64 - bits);
		if (sv < 0) {
			neg = true;
			u = (uint64_t)0 - (uint64_t)sv;
		}
	}
	char tmp[24], *end = tmp + sizeof tmp, *p = end;
	if (op->conv == 'x' || op->conv == 'X') {
		const char *digits = op->conv == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
		do {
			*--p = digits[u & 15];
			u >>= 4;
		} while (u);
	} else {
		p = utoa_end(end, u);
	}
	size_t nd = (size_t)(end - p), total = nd + neg;
	size_t pad = op->width > total ? op->width - total : 0;
	if (!rp_reserve(r, total + pad))
		return;
	char *o = r->buf + r->len;
	if (op->left) {
		if (neg)
			*o++ = '-';
		memcpy(o, p, nd);
		o += nd;
		memset(o, ' ', pad);
		o += pad;
	} else if (op->zero) {
		if (neg)
			*o++ = '-';
		memset(o, '0', pad);
		o += pad;
		memcpy(o, p, nd);
		o += nd;
	} else {
		memset(o, ' ', pad);
		o += pad;
		if (neg)
			*o++ = '-';
		memcpy(o, p, nd);
		o += nd;
	}
	r->len = (size_t)(o - r->buf);
}

static void fp_string(rp *r, const fp_op *op, const char *str, size_t n)
{
	if (op->simple) {
		size_t pad = op->width > n ? op->width - n : 0;
		if (!op->left)
			rp_spaces(r, pad);
		rp_put(r, str, n);
		if (op->left)
			rp_spaces(r, pad);
		return;
	}
	char tmp[512];
	char *copy = n < 256 ? tmp + 256 : malloc(n + 1);
	if (!copy)
		return;
	memcpy(copy, str, n);
	copy[n] = '\0';
	int len = snprintf(tmp, 256, op->fmt, copy);
	if (len >= 0 && len < 256) {
		rp_put(r, tmp, (size_t)len);
	} else if (len >= 256) {
		char *big = malloc((size_t)len + 1);
		if (big) {
			snprintf(big, (size_t)len + 1, op->fmt, copy);
			rp_put(r, big, (size_t)len);
			free(big);
		}
	}
	if (copy != tmp + 256)
		free(copy);
}

/* Writes the event text of REC with PLAN; false (and nothing written)
 * when the record needs libtraceevent. */
static bool fp_print(rp *r, const fp_plan *pl, const struct tep_record *rec)
{
	const uint8_t *data = rec->data;
	int32_t size = rec->size;
	size_t mark = r->len;
	for (size_t i = 0; i < pl->n; i++) {
		const fp_op *op = &pl->ops[i];
		switch (op->kind) {
		case FP_LIT:
			rp_put(r, pl->text + op->lit_off, op->lit_len);
			break;
		case FP_INT: {
			uint64_t v = 0;
			if (op->off + op->size <= size)
				v = rp_read(r, data + op->off, op->size) & op->mask;
			fp_number(r, op, v);
			break;
		}
		case FP_STR_DYN: {
			/* dynamic_offset_field() */
			if (op->off + op->size > size)
				break;
			uint32_t v = (uint32_t)rp_read(r, data + op->off, op->size);
			uint32_t o = v & 0xffff, l = op->size == 2 ? (uint32_t)size - o : (v >> 16) & 0xffff;
			uint32_t off = o > (uint32_t)size ? 0 : o;
			uint32_t len = o + l > (uint32_t)size ? 0 : l;
			if (op->rel)
				off += (uint32_t)(op->off + op->size);
			if (!len)
				break;
			if (off >= (uint32_t)size)
				goto slow;
			const char *str = (const char *)data + off;
			const char *nul = memchr(str, '\0', (size_t)size - off);
			if (!nul)
				goto slow;
			fp_string(r, op, str, (size_t)(nul - str));
			break;
		}
		case FP_STR_ARR: {
			if (op->off + op->size > size)
				goto slow;
			const char *str = (const char *)data + op->off;
			fp_string(r, op, str, strnlen(str, (size_t)op->size));
			break;
		}
		}
	}
	return true;
slow:
	r->len = mark;
	return false;
}

/* -R: " NAME=VALUE" for every field, as libtraceevent's tep_print_fields():
 * a field some conversion of the print format prints (parse items are
 * searched round from where the last match left) is printed that way,
 * after "0x" when the text before the conversion ends so; the others by
 * type (print_field_raw()).  False (and nothing written) when the record
 * needs libtraceevent. */
static bool fp_print_raw(rp *r, const fp_plan *pl, struct tep_event *ev, const struct tep_record *rec)
{
	const uint8_t *data = rec->data;
	int32_t size = rec->size;
	size_t mark = r->len;
	size_t at = 0;              /* next parse item; pl->n: none left */
	for (struct tep_format_field *fld = ev->format.fields; fld; fld = fld->next) {
		rp_putc(r, ' ');
		rp_put(r, fld->name, strlen(fld->name));
		rp_putc(r, '=');
		if (pl->n && at < pl->n && !(fld->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))) {
			size_t i = at;
			bool has_0x = false, found = false;
			do {
				const fp_op *op = &pl->ops[i];
				if (op->kind == FP_LIT) {
					has_0x = op->lit_len > 1 && memcmp(pl->text + op->lit_off + op->lit_len - 2, "0x", 2) == 0;
				} else if (op->kind == FP_INT && op->field == fld) {
					if (has_0x)
						rp_put(r, "0x", 2);
					uint64_t v = 0;
					if (op->off + op->size <= size)
						v = rp_read(r, data + op->off, op->size) & op->mask;
					fp_number(r, op, v);
					at = i + 1;
					found = true;
					break;
				} else {
					has_0x = false;
				}
				i = i + 1 < pl->n ? i + 1 : 0;
			} while (i != at);
			if (found)
				continue;
		}
		/* print_field_raw() */
		if (fld->flags & TEP_FIELD_IS_ARRAY) {
			uint32_t off, len;
			if (fld->flags & TEP_FIELD_IS_DYNAMIC) {
				if (fld->offset + fld->size > size) {
					off = len = 0;
				} else {
					uint32_t v = (uint32_t)rp_read(r, data + fld->offset, fld->size);
					uint32_t o = v & 0xffff, l = fld->size == 2 ? (uint32_t)size - o : (v >> 16) & 0xffff;
					off = o > (uint32_t)size ? 0 : o;
					len = o + l > (uint32_t)size ? 0 : l;
					if (fld->flags & TEP_FIELD_IS_RELATIVE)
						off += (uint32_t)(fld->offset + fld->size);
				}
			} else {
				off = (uint32_t)fld->offset;
				len = (uint32_t)fld->size;
			}
			if ((uint64_t)off + len > (uint64_t)size)
				goto slow;
			const char *p = (const char *)data + off;
			bool printable = true;
			for (uint32_t k = 0; k < len && p[k]; k++)
				if (!isprint((unsigned char)p[k]) && !isspace((unsigned char)p[k])) {
					printable = false;
					break;
				}
			if ((fld->flags & TEP_FIELD_IS_STRING) && printable) {
				const char *nul = memchr(p, '\0', (size_t)size - off);
				if (!nul)
					goto slow;
				rp_put(r, p, (size_t)(nul - p));
			} else {
				static const char hex[] = "0123456789abcdef";
				rp_put(r, "ARRAY[", 6);
				for (uint32_t k = 0; k < len; k++) {
					if (k)
						rp_put(r, ", ", 2);
					rp_putc(r, hex[(uint8_t)p[k] >> 4]);
					rp_putc(r, hex[(uint8_t)p[k] & 15]);
				}
				rp_putc(r, ']');
				/* libtraceevent forgets that the field is a string. */
				fld->flags &= ~(unsigned long)TEP_FIELD_IS_STRING;
			}
			continue;
		}
		if (fld->offset + fld->size > size)
			goto slow;
		uint64_t v = rp_read(r, data + fld->offset, fld->size);
		fp_op op = { .simple = true };
		if (fld->flags & TEP_FIELD_IS_POINTER) {
			rp_put(r, "0x", 2);
			op.conv = 'x';
			op.ls = 2;
		} else if (fld->flags & TEP_FIELD_IS_SIGNED) {
			op.conv = 'd';
			switch (fld->size) {
			case 4:
				if (fld->flags & TEP_FIELD_IS_LONG) {
					rp_put(r, "0x", 2);
					op.conv = 'x';
				}
				break;
			case 2:
				op.ls = -1;
				op.width = 2;
				break;
			case 1:
				op.ls = -2;
				op.width = 1;
				break;
			default:
				op.ls = 2;
			}
		} else {
			op.ls = 2;
			op.conv = 'u';
			if (fld->flags & TEP_FIELD_IS_LONG) {
				rp_put(r, "0x", 2);
				op.conv = 'x';
			}
		}
		fp_number(r, &op, v);
	}
	return true;
slow:
	r->len = mark;
	return false;
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

static inline uint64_t rp_read(const rp *r, const void *p, int size);

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

/* tep_find_event_by_record(), remembered by id. */
static struct tep_event *rp_event(rp *r, struct tep_record *rec)
{
	int id = rp_type(r, rec);
	if (id < 0 || id > 0xffff || !r->ev_by_id)
		return tep_find_event_by_record(r->tep, rec);
	struct tep_event *ev = r->ev_by_id[id];
	if (!ev) {
		ev = tep_find_event(r->tep, id);
		r->ev_by_id[id] = ev ? ev : RP_NO_EVENT;
		return ev;
	}
	return ev == RP_NO_EVENT ? NULL : ev;
}

/* tep_data_comm_from_pid(), remembered until libtraceevent prints. */
static const char *rp_comm(rp *r, int pid)
{
	if (!r->comms)
		return tep_data_comm_from_pid(r->tep, pid);
	struct rp_comm *c = &r->comms[(unsigned)pid & (RP_COMMS - 1)];
	if (c->comm && c->pid == pid && c->gen == r->comm_gen)
		return c->comm;
	c->comm = tep_data_comm_from_pid(r->tep, pid);
	c->pid = pid;
	c->gen = r->comm_gen;
	return c->comm;
}

/* ------------------------------------------------------------------------
 * Lines
 */

/* libtraceevent's print_event_time() with trace-cmd's formats:
 * " %6.1000d:" (microseconds, rounded), " %9.1d:" (-t) or "%12d:" (raw
 * counts, whose 10^12 overflows libtraceevent's int and so is printed
 * whole). */
static void rp_time_column(rp *r, uint64_t ns)
{
	if (r->usecs) {
		uint64_t t = r->o->nsec ? ns : (ns + 500) / 1000;
		uint64_t p10 = r->o->nsec ? 1000000000u : 1000000u;
		rp_putc(r, ' ');
		rp_int(r, (int64_t)(t / p10), 5, ' ', false);
		rp_putc(r, '.');
		rp_int(r, (int64_t)(t % p10), r->o->nsec ? 9 : 6, '0', false);
	} else {
		char tmp[24], *end = tmp + sizeof tmp, *p = utoa_end(end, ns);
		size_t n = (size_t)(end - p);
		if (n < 12)
			rp_spaces(r, 12 - n);
		rp_put(r, p, n);
	}
	rp_putc(r, ':');
}

/* trace-cmd's print_event_name(). */
static void rp_name_column(rp *r, const char *name)
{
	size_t n = strlen(name);
	rp_putc(r, ' ');
	rp_put(r, name, n);
	rp_put(r, ": ", 2);
	if (n < 20)
		rp_spaces(r, 20 - n);
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

	rp_need_event(r, &rec);
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
	size_t line_start = r->len;
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
	struct tep_event *ev = rp_event(r, &rec);
	size_t info_start;
	if (TC_LIKELY(ev != NULL)) {
		int pid = rp_pid(r, &rec);
		const char *comm = rp_comm(r, pid);
		size_t n = strlen(comm);
		if (n < 16)
			rp_spaces(r, 16 - n);
		rp_put(r, comm, n);
		rp_putc(r, '-');
		rp_int(r, pid, 5, ' ', true);
		rp_put(r, " [", 2);
		rp_int(r, rec.cpu, 3, '0', false);
		rp_putc(r, ']');
		rp_time_column(r, rec.ts);
		rp_name_column(r, ev->name);
		info_start = r->len;
		const fp_plan *pl = fp_plan_of(r, ev);
		if (!pl || !(r->o->raw ? fp_print_raw(r, pl, ev, &rec) : fp_print(r, pl, &rec))) {
			rp_need_symbols(r);
			trace_seq_reset(sq);
			tep_print_event(tep, sq, &rec, "%s", info);
			r->comm_gen++;
			rp_put(r, sq->buffer, sq->len);
		} else if (r->o->check_fast_path) {
			rp_need_symbols(r);
			trace_seq_reset(sq);
			tep_print_event(tep, sq, &rec, "%s", info);
			size_t got = r->len - info_start;
			if (got != sq->len || memcmp(r->buf + info_start, sq->buffer, got) != 0) {
				r->write_error = tc_fail(TC_EINVAL, NULL, -1, "event %s:%s at byte %" PRIu64 ": fast text \"%.*s\", libtraceevent \"%.*s\"",
				                         ev->system, ev->name, (uint64_t)rec.offset, (int)got, r->buf + info_start, (int)sq->len, sq->buffer);
				return;
			}
		}
	} else {
		/* An event libtraceevent does not know: its own output for
		 * every column, as trace-cmd asks for them. */
		const char *tfmt = !r->usecs ? "%12d:" : r->o->nsec ? " %9.1d:" : " %6.1000d:";
		rp_need_symbols(r);
		trace_seq_reset(sq);
		tep_print_event(tep, sq, &rec, "%16s-%-5d [%03d]", TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU);
		tep_print_event(tep, sq, &rec, tfmt, TEP_PRINT_TIME);
		trace_seq_printf(sq, " %s: %.*s", "(NULL)", 20 - 6, "                    ");
		tep_print_event(tep, sq, &rec, "%s", info);
		r->comm_gen++;
		info_start = r->len;
		rp_put(r, sq->buffer, sq->len);
	}
	if (r->len > info_start && r->buf[r->len - 1] == '\n')
		r->len--;
	/* trace-cmd prints the line with "%.*s": it ends at a NUL. */
	char *nul = memchr(r->buf + line_start, '\0', r->len - line_start);
	if (nul)
		r->len = (size_t)(nul - r->buf);
	rp_putc(r, '\n');
	if (r->len >= RP_FLUSH_AT)
		rp_flush(r);
}

/* ------------------------------------------------------------------------
 * The report
 */

static void rp_free(rp *r)
{
	for (size_t i = 0; i < r->src_count; i++)
		tracedat_cursor_close(r->srcs[i].cur);
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
	if (r->plans) {
		for (size_t i = 0; i < 0x10000; i++)
			if (r->plans[i]) {
				free(r->plans[i]->ops);
				free(r->plans[i]->text);
				free(r->plans[i]);
			}
		free(r->plans);
	}
	if (r->seq_ready)
		trace_seq_destroy(&r->seq);
	if (r->tep) {
		if (r->plugins)
			tep_unload_plugins(r->plugins, r->tep);
		tep_free(r->tep);
	}
	if (r->f)
		tracedat_close(r->f);
	free(r->buf);
}

static int rp_run(rp *r)
{
	int rc;
	if ((rc = rp_setup_tep(r)) < 0 || (rc = rp_setup_filters(r)) < 0 || (rc = rp_setup_handles(r)) < 0)
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
	return r->write_error;
}

int tracedat_report(FILE *out, const char *path, const tracedat_report_options *opts)
{
	static const tracedat_report_options defaults;
	rp r = { .o = opts ? opts : &defaults, .out = out };
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
		rc = tc_fail(TC_EIO, NULL, -1, "cannot write the report");
	rp_free(&r);
	return rc;
}

/* ------------------------------------------------------------------------
 * Self-check of the fast formatter (report.h)
 */

static uint64_t sc_next(uint64_t *state)
{
	/* splitmix64 */
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A record of EV with random field values and well-formed strings. */
static int sc_record(rp *r, struct tep_event *ev, uint64_t *st, uint8_t *buf, size_t cap)
{
	struct tep_format_field **fields = tep_event_fields(ev);
	struct tep_format_field **common = tep_event_common_fields(ev);
	int end = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct tep_format_field **fl = pass ? fields : common;
		for (size_t i = 0; fl && fl[i]; i++)
			if (fl[i]->offset + fl[i]->size > end)
				end = fl[i]->offset + fl[i]->size;
	}
	if ((size_t)end + 256 > cap) {
		free(fields);
		free(common);
		return -1;
	}
	for (size_t i = 0; i < (size_t)end + 256; i++) {
		uint64_t x = sc_next(st);
		/* Mostly small values and printable bytes, some extremes. */
		buf[i] = (x & 3) == 0 ? (uint8_t)(x >> 8) : (x & 3) == 1 ? 0 : (x & 3) == 2 ? 0xff : (uint8_t)(' ' + (x >> 8) % 95);
	}
	int pos = end;
	for (size_t i = 0; fields && fields[i]; i++) {
		struct tep_format_field *fld = fields[i];
		if ((fld->flags & TEP_FIELD_IS_DYNAMIC) && (fld->size == 4 || fld->size == 2)) {
			int len = (int)(sc_next(st) % 24);
			for (int k = 0; k < len; k++)
				buf[pos + k] = (uint8_t)('a' + sc_next(st) % 26);
			buf[pos + len] = 0;
			int total = len + 1, off = pos;
			if (fld->flags & TEP_FIELD_IS_RELATIVE)
				off = pos - (fld->offset + fld->size);
			uint32_t v = fld->size == 4 ? ((uint32_t)total << 16) | (uint32_t)(off & 0xffff) : (uint32_t)(off & 0xffff);
			if (sc_next(st) % 8 == 0)
				v = fld->size == 4 ? (uint32_t)(off & 0xffff) : v;   /* empty */
			memcpy(buf + fld->offset, &v, (size_t)fld->size);
			pos += total;
		} else if ((fld->flags & TEP_FIELD_IS_ARRAY) && fld->size > 0 && sc_next(st) % 2) {
			/* A string with its NUL inside. */
			int len = (int)(sc_next(st) % (uint64_t)fld->size);
			for (int k = 0; k < len; k++)
				buf[fld->offset + k] = (uint8_t)('a' + sc_next(st) % 26);
			buf[fld->offset + len] = 0;
		}
	}
	free(fields);
	free(common);
	/* common_type: the event's id. */
	if (r->type_size)
		memcpy(buf + r->type_off, &ev->id, (size_t)r->type_size);
	return pos;
}

int tracedat_report_selfcheck(const char *path, unsigned rounds, uint64_t seed, size_t *checked)
{
	static const tracedat_report_options defaults;
	rp r = { .o = &defaults };
	size_t events = 0;
	r.write_error = 0;
	uint8_t *buf = NULL;
	int rc = tracedat_open(&r.f, path);
	if (rc < 0)
		return rc;
	r.m = tracedat_meta_of(r.f);
	if ((rc = rp_setup_tep(&r)) < 0)
		goto out;
	rp_parse_all_formats(&r);
	rp_need_symbols(&r);
	rp_common_fields(&r);
	trace_seq_init(&r.seq);
	r.seq_ready = true;
	r.swap = r.m->big_endian != (bool)tep_is_bigendian();
	buf = calloc(1, 1 << 16);
	if (!buf || r.swap) {
		rc = buf ? 0 : tc_fail_nomem();
		goto out;
	}
	int n = tep_get_events_count(r.tep);
	/* The time column, against libtraceevent's three formats. */
	for (unsigned k = 0; k < rounds * 10 && n > 0; k++) {
		static const char *const tfmt[3] = { " %6.1000d:", " %9.1d:", "%12d:" };
		static const tracedat_report_options nsec_opts = { .nsec = true };
		struct tep_event *ev = tep_get_event(r.tep, 0);
		uint64_t x = sc_next(&seed);
		uint64_t ts = x >> (sc_next(&seed) % 64);
		memset(buf, 0, 64);
		memcpy(buf + r.type_off, &ev->id, (size_t)r.type_size);
		struct tep_record rec = { .data = buf, .size = 64, .ts = ts, .ref_count = 1 };
		for (int f = 0; f < 3; f++) {
			r.o = f == 1 ? &nsec_opts : &defaults;
			r.usecs = f < 2;
			r.len = 0;
			rp_time_column(&r, ts);
			trace_seq_reset(&r.seq);
			tep_print_event(r.tep, &r.seq, &rec, tfmt[f], TEP_PRINT_TIME);
			if (r.len != r.seq.len || memcmp(r.buf, r.seq.buffer, r.len) != 0) {
				rc = tc_fail(TC_EINVAL, path, -1, "time %" PRIu64 " as \"%s\": \"%.*s\", libtraceevent \"%.*s\"", ts, tfmt[f],
				             (int)r.len, r.buf, (int)r.seq.len, r.seq.buffer);
				goto out;
			}
		}
	}
	r.o = &defaults;
	for (int mode = 0; mode < 2; mode++) {
		/* The event text, then -R's fields: plans differ. */
		static const tracedat_report_options raw_opts = { .raw = true };
		r.o = mode ? &raw_opts : &defaults;
		if (r.plans) {
			for (size_t i = 0; i < 0x10000; i++)
				if (r.plans[i]) {
					free(r.plans[i]->ops);
					free(r.plans[i]->text);
					free(r.plans[i]);
					r.plans[i] = NULL;
				}
		}
		for (int e = 0; e < n; e++) {
			struct tep_event *ev = tep_get_event(r.tep, e);
			if (!ev || !fp_plan_of(&r, ev))
				continue;
			events += mode == 0;
			for (unsigned k = 0; k < rounds; k++) {
				int size = sc_record(&r, ev, &seed, buf, 1 << 16);
				if (size < 0)
					break;
				struct tep_record rec = { .data = buf, .size = size, .record_size = size, .ref_count = 1 };
				r.len = 0;
				if (!(mode ? fp_print_raw(&r, r.plans[ev->id], ev, &rec) : fp_print(&r, r.plans[ev->id], &rec)))
					continue;
				trace_seq_reset(&r.seq);
				tep_print_event(r.tep, &r.seq, &rec, "%s", mode ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
				if (r.len != r.seq.len || memcmp(r.buf, r.seq.buffer, r.len) != 0) {
					rc = tc_fail(TC_EINVAL, path, -1, "%sevent %s:%s (format \"%s\"): fast text \"%.*s\", libtraceevent \"%.*s\"",
					             mode ? "-R: " : "", ev->system, ev->name, ev->print_fmt.format, (int)r.len, r.buf,
					             (int)r.seq.len, r.seq.buffer);
					goto out;
				}
			}
		}
	}
	if (r.write_error)
		rc = r.write_error;
out:
	free(buf);
	if (checked)
		*checked = events;
	rp_free(&r);
	return rc;
}
