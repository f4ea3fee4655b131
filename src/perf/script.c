/* SPDX-License-Identifier: MIT */
/*
 * script.c - tc_perf_script(): what `perf script` (perf 6.1, Debian 12)
 * prints for a perf.data file of tracepoint samples, by its default
 * fields.
 *
 * doc/formats/perf.md §8; perf's builtin-script.c, process_event() and
 * perf_sample__fprintf_start(), for PERF_TYPE_TRACEPOINT's default fields
 * comm, tid, cpu, time, event and trace (a field the attribute's
 * sample_type lacks is dropped, as evsel__check_stype() drops it from
 * the first attribute of each type):
 *
 *   "%16s " comm, "%5d " tid, "[%03d] " cpu, "%12s: " of "SEC.USEC"
 *   (--ns: "%5lu.%09llu: "), "%*s: " of the event's name padded to the
 *   longest of all the attributes' (evlist__max_name_len()), the event
 *   text as libtraceevent's tep_print_event(TEP_PRINT_INFO) writes it,
 *   "\n".
 *
 * Records go in perf's order (order.c).  The comm is that of the
 * sample's thread as perf's machine keeps it: "swapper" for tid 0, the
 * last COMM record's name, a FORK's child the parent's, ":TID" for a
 * thread no record named.  Event texts come from the print-format plans
 * (printfmt.h) that `report` uses, libtraceevent printing what they
 * leave; no plugins, since perf 6.1 prints the print formats.
 *
 * --show-task-events and --show-mmap-events add perf_event__fprintf()'s
 * line of each COMM, FORK, EXIT, MMAP and MMAP2 record after the same
 * start of line, by the columns of the record's attribute's type (its
 * sample_id says which; its comm is the record's own thread's).
 */
#include "perf/perf.h"
#include "tracedat/printfmt.h"

#include <event-parse.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define FLUSH_AT (256u * 1024u)
#define TYPES 6   /* perf_event.h's PERF_TYPE_HARDWARE to _BREAKPOINT */

/* perf_event_header.misc bits (perf_event.h) */
#define MISC_COMM_EXEC (1u << 13)
#define MISC_MMAP_DATA (1u << 13)
#define MISC_MMAP_BUILD_ID (1u << 14)

/* Start-of-line columns (perf's PERF_OUTPUT_* of them). */
enum { COL_TID = 1, COL_CPU = 2, COL_TIME = 4, COL_IP = 8 };
#define KALLSYMS_MAX (256u << 20)   /* far above any kernel's */

typedef struct thread_comm {
	int64_t tid;                 /* -1: a free slot */
	const char *comm;            /* NULL: none set, perf's ":TID" */
	size_t len;
} thread_comm;

typedef struct script {
	perf_file f;
	const tc_script_options *o;
	tracedat_file *td;
	struct tep_handle *tep;
	pf_strings *printk;
	pf_kallsyms *kallsyms;
	bool kallsyms_loaded;
	pf_plan **plans;             /* per attribute, NULL: libtraceevent prints */
	struct tep_event **events;   /* per attribute, NULL: not a tracepoint */
	struct trace_seq seq;
	bool seq_ready;
	thread_comm *threads;        /* open addressing by tid */
	size_t thread_cap, thread_count;
	int name_width;
	/* perf's output[] of each attribute type (perf_event.h's types, 0 to
	 * 5): the start-of-line columns, once the first attribute of the
	 * type has dropped those its sample_type lacks */
	uint8_t columns[TYPES];
	bool *cpus;                  /* -C: the CPUs shown, NULL: all */
	size_t cpu_limit;
	FILE *out;
	tc_buf text;
} script;

static size_t tid_hash(int64_t tid, size_t cap)
{
	uint64_t x = (uint64_t)tid * 0x9E3779B97F4A7C15ull;
	return (size_t)(x >> 17) & (cap - 1);
}

static thread_comm *thread_slot(script *s, int64_t tid)
{
	size_t h = tid_hash(tid, s->thread_cap);
	while (s->threads[h].tid != -1 && s->threads[h].tid != tid)
		h = (h + 1) & (s->thread_cap - 1);
	return &s->threads[h];
}

/* Sets TID's comm (COMM bytes at P, up to LEN). */
static int set_comm(script *s, int64_t tid, const char *comm, size_t len)
{
	if ((s->thread_count + 1) * 2 > s->thread_cap) {
		size_t cap = s->thread_cap ? s->thread_cap * 2 : 1024;
		thread_comm *n = malloc(cap * sizeof *n), *old = s->threads;
		if (!n)
			return tc_fail_nomem();
		for (size_t i = 0; i < cap; i++)
			n[i].tid = -1;
		size_t old_cap = s->thread_cap;
		s->threads = n;
		s->thread_cap = cap;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].tid != -1)
				*thread_slot(s, old[i].tid) = old[i];
		free(old);
	}
	thread_comm *t = thread_slot(s, tid);
	if (t->tid == -1)
		s->thread_count++;
	*t = (thread_comm){ tid, comm, len };
	return 0;
}

static const thread_comm *find_comm(script *s, int64_t tid)
{
	const thread_comm *t = s->thread_cap ? thread_slot(s, tid) : NULL;
	return t && t->tid != -1 && t->comm ? t : NULL;
}

static int flush(script *s)
{
	if (s->text.len && fwrite(s->text.data, 1, s->text.len, s->out) != s->text.len)
		return tc_fail_write(errno, NULL);
	s->text.len = 0;
	return 0;
}

/* libtraceevent with the tracing data's formats, as perf sets it up
 * (tools/perf/util/trace-event-read.c), without plugins. */
static int setup_tep(script *s)
{
	const tracedat_meta *m = tracedat_meta_of(s->td);
	struct tep_handle *tep = tep_alloc();
	if (!tep)
		return tc_fail_nomem();
	s->tep = tep;
	tep_set_flag(tep, TEP_DISABLE_PLUGINS);
	tep_set_file_bigendian(tep, m->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)m->file_long_size);
	tep_set_page_size(tep, (int)m->page_size);
	/* tep_parse_header_page() does not write to the text, whatever its
	 * prototype says. */
	tep_parse_header_page(tep, (char *)m->header_page.data, m->header_page.len, (int)m->file_long_size);
	for (size_t i = 0; i < m->ftrace_format_count + m->event_format_count; i++) {
		const tracedat_format_text *ft = i < m->ftrace_format_count ? &m->ftrace_formats[i]
		                                                            : &m->event_formats[i - m->ftrace_format_count];
		tep_parse_event(tep, ft->text.data, ft->text.len, ft->system);
	}
	if (m->printk_formats.len)
		tep_parse_printk_formats(tep, m->printk_formats.data);
	if (!(s->printk = pf_strings_parse(m->printk_formats.len ? m->printk_formats.data : "")))
		return TC_ENOMEM;
	return 0;
}

/* The running kernel's /proc/kallsyms, when the recording is of this
 * kernel release: where perf finds kernel symbols when the recording has
 * none and no vmlinux is around.  0 with OUT empty when it is not. */
static int running_kallsyms(const script *s, tc_buf *out)
{
	struct utsname u;
	if (uname(&u) < 0 || strcmp(u.release, s->f.osrelease) != 0)
		return 0;
	FILE *in = fopen("/proc/kallsyms", "r");
	if (!in)
		return 0;
	int rc = 0;
	size_t n;
	do {
		if ((rc = tc_buf_reserve(out, 1 << 16)) < 0)
			break;
		n = fread(out->data + out->len, 1, 1 << 16, in);
		out->len += n;
		out->data[out->len] = '\0';
	} while (n > 0 && out->len < KALLSYMS_MAX);
	fclose(in);
	return rc;
}

/* Kernel symbols for %pS and the like, as perf's machine resolves them:
 * the tracing data's kallsyms, else the running kernel's. */
static int load_kallsyms(script *s)
{
	const tracedat_meta *m = tracedat_meta_of(s->td);
	tc_buf text = { 0 };
	int rc = m->kallsyms.len ? 0 : running_kallsyms(s, &text);
	const char *syms = m->kallsyms.len ? m->kallsyms.data : text.data ? text.data : "";
	if (rc == 0 && (rc = pf_kallsyms_parse(syms, &s->kallsyms)) == 1) {
		tep_set_function_resolver(s->tep, pf_kallsyms_resolve, s->kallsyms);
		rc = 0;
	} else if (rc == 0) {
		/* not the kernel's plain form: libtraceevent reads it */
		tep_parse_kallsyms(s->tep, syms);
	}
	tc_buf_free(&text);
	return rc;
}

/* Plans and field choices for every attribute.  Kernel symbols are loaded
 * only for events whose formats print or name them. */
static int setup_events(script *s)
{
	size_t n = s->f.attr_count;
	if (!(s->plans = calloc(n, sizeof *s->plans)) || !(s->events = calloc(n, sizeof *s->events)))
		return tc_fail_nomem();
	/* builtin-script.c's output[] defaults: every type shows comm, tid,
	 * cpu and time; all but tracepoints the ip (and symbols) too. */
	bool seen[TYPES] = { false };
	for (int k = 0; k < TYPES; k++)
		s->columns[k] = COL_TID | COL_CPU | COL_TIME | (k == PERF_TYPE_TRACEPOINT ? 0 : COL_IP);
	for (size_t i = 0; i < n; i++) {
		const perf_attr *a = &s->f.attrs[i];
		int len = (int)strlen(a->name);
		if (len > s->name_width)
			s->name_width = len;
		/* perf_session__check_output_opt(): the first of each type */
		if (a->type < TYPES && !seen[a->type]) {
			uint64_t st = a->sample_type;
			seen[a->type] = true;
			s->columns[a->type] &= (uint8_t)((st & PERF_S_TID ? COL_TID : 0) | (st & PERF_S_CPU ? COL_CPU : 0) |
			                                 (st & PERF_S_TIME ? COL_TIME : 0) | (st & PERF_S_IP ? COL_IP : 0));
		}
		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		if (!s->tep || a->config > INT32_MAX || !(s->events[i] = tep_find_event(s->tep, (int)a->config)))
			continue;
		const char *why;
		s->plans[i] = pf_compile(s->tep, s->events[i], s->printk, NULL, false, &why);
		bool symbols = pf_names_symbols(s->events[i]) || (s->plans[i] && pf_uses_symbols(s->plans[i]));
		if (symbols && !s->kallsyms_loaded) {
			s->kallsyms_loaded = true;
			int rc = load_kallsyms(s);
			if (rc < 0)
				return rc;
		}
	}
	/* Compiled again with the symbols, for the formats that name them. */
	for (size_t i = 0; s->kallsyms && i < n; i++) {
		const char *why;
		if (!s->events[i])
			continue;
		pf_free(s->plans[i]);
		s->plans[i] = pf_compile(s->tep, s->events[i], s->printk, s->kallsyms, false, &why);
	}
	return 0;
}

/* The event text of a tracepoint sample. */
static int put_trace(script *s, size_t attr, const perf_sample *smp)
{
	struct tep_event *ev = s->events[attr];
	if (!ev || !smp->raw)
		return 0;
	int rc = s->plans[attr] ? pf_print(s->plans[attr], &s->text, smp->raw, (int)smp->raw_size) : 0;
	if (rc != 0)
		return rc < 0 ? rc : 0;
	if (!s->seq_ready) {
		trace_seq_init(&s->seq);
		s->seq_ready = true;
	}
	trace_seq_reset(&s->seq);
	struct tep_record rec = { .cpu = (int)smp->cpu, .size = (int)smp->raw_size, .data = (void *)smp->raw };
	tep_print_event(s->tep, &s->seq, &rec, "%s", TEP_PRINT_INFO);
	return tc_buf_append(&s->text, s->seq.buffer, s->seq.len);
}

/* perf_sample__fprintf_start(): comm ("%s " when the line goes on with
 * a call chain, else "%16s "), tid, cpu and time, as the attribute's type
 * has them; the comm is THREAD's. */
static int put_start(script *s, const perf_sample *smp, int64_t thread)
{
	const perf_attr *a = smp->attr;
	unsigned cols = a && a->type < TYPES ? s->columns[a->type] : COL_TID | COL_CPU | COL_TIME;
	const thread_comm *t = find_comm(s, thread);
	char unknown[24];
	const char *comm = t ? t->comm : unknown;
	int comm_len = t ? (int)t->len : snprintf(unknown, sizeof unknown, ":%d", (int32_t)thread);
	int pad = (cols & COL_IP) && a && (a->sample_type & PERF_S_CALLCHAIN) ? 0 : comm_len < 16 ? 16 - comm_len : 0;
	int rc = tc_buf_printf(&s->text, "%*s%.*s ", pad, "", comm_len, comm);
	if (rc == 0 && (cols & COL_TID))
		rc = tc_buf_printf(&s->text, "%5d ", (int32_t)smp->tid);
	if (rc == 0 && (cols & COL_CPU))
		rc = tc_buf_printf(&s->text, "[%03d] ", (int32_t)smp->cpu);
	if (rc == 0 && (cols & COL_TIME)) {
		uint64_t sec = smp->time / 1000000000u, ns = smp->time % 1000000000u;
		if (s->o->ns) {
			rc = tc_buf_printf(&s->text, "%5" PRIu64 ".%09" PRIu64 ": ", sec, ns);
		} else {
			char usec[48];
			snprintf(usec, sizeof usec, "%" PRIu64 ".%06" PRIu64, sec, ns / 1000);
			rc = tc_buf_printf(&s->text, "%12s: ", usec);
		}
	}
	return rc;
}

/* Whether -C leaves out the lines of SMP's CPU (perf's filter_cpu()). */
static bool cpu_hidden(const script *s, const perf_sample *smp)
{
	return s->cpus && (smp->cpu >= s->cpu_limit || !s->cpus[smp->cpu]);
}

static int print_sample(script *s, const perf_record *r, const perf_sample *smp)
{
	const perf_attr *a = smp->attr;
	if (cpu_hidden(s, smp))
		return 0;
	if (a->type != PERF_TYPE_TRACEPOINT)
		return tc_fail(TC_EUNSUPPORTED, s->f.path, (int64_t)r->offset,
		               "script: samples of %s, which need symbols, are not printed yet (only tracepoints)", a->name);
	if (a->sample_type & PERF_S_CALLCHAIN)
		return tc_fail(TC_EUNSUPPORTED, s->f.path, (int64_t)r->offset,
		               "script: call chains (perf record -g), which need symbols, are not printed yet");
	int rc = put_start(s, smp, smp->tid);
	if (rc == 0)
		rc = tc_buf_printf(&s->text, "%*s: ", s->name_width, a->name);
	if (rc == 0)
		rc = put_trace(s, (size_t)(a - s->f.attrs), smp);
	if (rc == 0)
		rc = tc_buf_append(&s->text, "\n", 1);
	return rc;
}

/* The task record R's fields, after checking that they are there: its
 * u32 at byte AT, signed. */
static int32_t task_s32(const script *s, const perf_record *r, uint64_t at)
{
	return (int32_t)perf_u32(&s->f, r->p + at);
}

/* COMM and FORK change what perf's machine calls a thread
 * (machine__process_comm_event(), machine__process_fork_event()): a FORK
 * child takes its parent's comm, or none when the parent has none. */
static int track_task(script *s, const perf_record *r, const char *comm, size_t comm_len)
{
	if (r->type == PERF_REC_COMM)
		return set_comm(s, task_s32(s, r, 12), comm, comm_len);
	const thread_comm *parent = find_comm(s, task_s32(s, r, 20));
	thread_comm copy = parent ? *parent : (thread_comm){ 0 };
	return set_comm(s, task_s32(s, r, 16), copy.comm, copy.len);
}

/* perf_event__fprintf() of a task or mmap record, after its start of line
 * (print_event_with_time()): the thread is the record's own. */
static int print_task(script *s, const perf_record *r, const perf_sample *smp, const char *str, size_t str_len)
{
	const perf_file *f = &s->f;
	perf_sample start = *smp;
	bool task = r->type == PERF_REC_FORK || r->type == PERF_REC_EXIT;
	int32_t tid = task_s32(s, r, task ? 16 : 12);
	if (!start.attr && f->attr_count > 1)
		return 0;   /* perf finds no attribute: it prints nothing */
	if (!start.attr || !start.attr->sample_id_all) {
		/* the record's own pid and tid, time for FORK and EXIT */
		start.attr = &f->attrs[0];
		start.cpu = 0;
		start.time = task ? perf_u64(f, r->p + 24) : 0;
		start.pid = (uint32_t)task_s32(s, r, 8);
		start.tid = (uint32_t)tid;
	}
	if (cpu_hidden(s, &start))
		return 0;
	int rc = put_start(s, &start, tid);
	if (rc < 0)
		return rc;
	switch (r->type) {
	case PERF_REC_COMM:
		return tc_buf_printf(&s->text, "PERF_RECORD_COMM%s: %.*s:%d/%d\n", r->misc & MISC_COMM_EXEC ? " exec" : "",
		                     (int)str_len, str, task_s32(s, r, 8), task_s32(s, r, 12));
	case PERF_REC_FORK:
	case PERF_REC_EXIT:
		return tc_buf_printf(&s->text, "PERF_RECORD_%s(%d:%d):(%d:%d)\n", r->type == PERF_REC_FORK ? "FORK" : "EXIT",
		                     task_s32(s, r, 8), task_s32(s, r, 16), task_s32(s, r, 12), task_s32(s, r, 20));
	case PERF_REC_MMAP:
		return tc_buf_printf(&s->text, "PERF_RECORD_MMAP %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
		                     task_s32(s, r, 8), task_s32(s, r, 12), perf_u64(f, r->p + 16), perf_u64(f, r->p + 24),
		                     perf_u64(f, r->p + 32), r->misc & MISC_MMAP_DATA ? 'r' : 'x', (int)str_len, str);
	default:
		break;
	}
	uint32_t prot = perf_u32(f, r->p + 64), flags = perf_u32(f, r->p + 68);
	rc = tc_buf_printf(&s->text, "PERF_RECORD_MMAP2 %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, task_s32(s, r, 8),
	                   task_s32(s, r, 12), perf_u64(f, r->p + 16), perf_u64(f, r->p + 24), perf_u64(f, r->p + 32));
	if (rc == 0 && (r->misc & MISC_MMAP_BUILD_ID)) {
		/* build_id__sprintf(): the id's bytes in hex */
		unsigned n = r->p[40] <= 20 ? r->p[40] : 20;
		rc = tc_buf_append(&s->text, " <", 2);
		for (unsigned i = 0; i < n && rc == 0; i++)
			rc = tc_buf_printf(&s->text, "%02x", r->p[44 + i]);
		if (rc == 0)
			rc = tc_buf_append(&s->text, ">", 1);
	} else if (rc == 0) {
		rc = tc_buf_printf(&s->text, " %02x:%02x %" PRIu64 " %" PRIu64, perf_u32(f, r->p + 40), perf_u32(f, r->p + 44),
		                   perf_u64(f, r->p + 48), perf_u64(f, r->p + 56));
	}
	if (rc == 0)
		rc = tc_buf_printf(&s->text, "]: %c%c%c%c %.*s\n", prot & 1 ? 'r' : '-', prot & 2 ? 'w' : '-', prot & 4 ? 'x' : '-',
		                   flags & 1 ? 's' : 'p', (int)str_len, str);
	return rc;
}

/* A task or mmap record: the threads it changes, and its line when asked
 * for, in perf script's order (an EXIT is printed before it is processed,
 * the others after). */
static int task_record(script *s, const perf_record *r, const perf_sample *smp)
{
	static const uint32_t fixed[] = { [PERF_REC_MMAP] = 40, [PERF_REC_COMM] = 16, [PERF_REC_EXIT] = 32,
		                          [PERF_REC_FORK] = 32, [PERF_REC_MMAP2] = 72 };
	uint64_t trailer = smp->attr ? smp->attr->id_trailer : 0, end = r->size > trailer ? r->size - trailer : 0;
	if (end < fixed[r->type])
		return tc_fail(TC_EFORMAT, s->f.path, (int64_t)r->offset, "record of type %" PRIu32 " and %" PRIu64 " bytes, too short for its fields",
		               r->type, r->size);
	bool has_str = r->type == PERF_REC_COMM || r->type == PERF_REC_MMAP || r->type == PERF_REC_MMAP2;
	const char *str = has_str ? (const char *)r->p + fixed[r->type] : "";
	size_t str_len = has_str ? strnlen(str, (size_t)(end - fixed[r->type])) : 0;
	bool mmap = r->type == PERF_REC_MMAP || r->type == PERF_REC_MMAP2;
	bool show = mmap ? s->o->show_mmap_events : s->o->show_task_events;
	if (r->type == PERF_REC_EXIT)
		return show ? print_task(s, r, smp, str, str_len) : 0;
	int rc = r->type == PERF_REC_COMM || r->type == PERF_REC_FORK ? track_task(s, r, str, str_len) : 0;
	return rc == 0 && show ? print_task(s, r, smp, str, str_len) : rc;
}

/* -C: the CPUs, once every attribute type's first attribute is known to
 * record them and each CPU is below the recording's CPU count (perf's
 * perf_session__cpu_bitmap(), which runs before pipe mode's features are
 * read: every CPU is too large there). */
static int setup_cpus(script *s)
{
	if (!s->o->cpus)
		return 0;
	/* setup_events() took COL_CPU away from the types whose first
	 * attribute samples no CPU */
	for (int k = 0; k < TYPES; k++)
		if (!(s->columns[k] & COL_CPU))
			return tc_fail(TC_EINVAL, s->f.path, -1, "File does not contain CPU events. Remove -C option to proceed.");
	if (!(s->cpus = calloc(TC_CPU_LIST_MAX, sizeof *s->cpus)))
		return tc_fail_nomem();
	int rc = tc_cpu_list_add(s->cpus, &s->cpu_limit, s->o->cpus);
	uint32_t nr = s->f.pipe ? 0 : s->f.nr_cpus_available;
	for (size_t cpu = nr; rc == 0 && cpu < s->cpu_limit; cpu++)
		if (s->cpus[cpu])
			rc = tc_fail(TC_EINVAL, s->f.path, -1, "Requested CPU %zu too large. Consider raising MAX_NR_CPUS", cpu);
	return rc;
}

static int run(script *s, const char *path)
{
	/* The path as the system sees it first, so that a missing file or a
	 * directory is said as such (tc_input_open does the same). */
	int rc = tc_path_kind(path);
	if (rc == TC_PATH_DIR)
		rc = tc_fail(TC_ENOTFOUND, path, -1, "a directory, not a perf.data file");
	if (rc >= 0 && (rc = perf_open(&s->f, path)) == TC_ENOTFOUND)
		rc = tc_fail(TC_ENOTFOUND, path, 0, "not a perf.data file");
	if (rc < 0)
		return rc;
	if (s->f.has_tracing_data &&
	    ((rc = tracedat_open_tracing_data(&s->td, path, s->f.tracing_offset, s->f.tracing_size)) < 0 || (rc = setup_tep(s)) < 0))
		return rc;
	if ((rc = setup_events(s)) < 0 || (rc = set_comm(s, 0, "swapper", 7)) < 0 || (rc = setup_cpus(s)) < 0)
		return rc;
	perf_order order;
	perf_order_init(&order, &s->f, PERF_ANY_KEY);
	uint64_t off;
	while (rc == 0 && (rc = perf_order_next(&order, &off)) > 0) {
		perf_record r;
		perf_sample smp;
		if ((rc = perf_record_at(&s->f, off, &r)) < 0 || (rc = perf_parse_sample(&s->f, &r, &smp)) < 0)
			break;
		rc = 0;
		if (r.type == PERF_REC_SAMPLE)
			rc = print_sample(s, &r, &smp);
		else if (r.type != PERF_REC_LOST)
			rc = task_record(s, &r, &smp);
		if (rc == 0 && s->text.len >= FLUSH_AT)
			rc = flush(s);
	}
	perf_order_free(&order);
	return rc;
}

int tc_perf_script(FILE *out, const char *path, const tc_script_options *opts)
{
	static const tc_script_options defaults;
	script s = { .o = opts ? opts : &defaults, .out = out };
	int rc = run(&s, path);
	/* What was read before an error is written first. */
	tc_error err = *tc_error_last();
	int frc = flush(&s);
	if (rc < 0)
		tc_error_restore(&err);
	else
		rc = frc;
	tc_buf_free(&s.text);
	if (s.seq_ready)
		trace_seq_destroy(&s.seq);
	for (size_t i = 0; s.plans && i < s.f.attr_count; i++)
		pf_free(s.plans[i]);
	free(s.plans);
	free(s.events);
	free(s.threads);
	free(s.cpus);
	pf_strings_free(s.printk);
	pf_kallsyms_free(s.kallsyms);
	if (s.tep)
		tep_free(s.tep);
	tracedat_close(s.td);
	perf_close(&s.f);
	return rc;
}
