/* SPDX-License-Identifier: MIT */
/*
 * timeline.c - tc_timeline_writer: tracecat's event model read as a
 * timeline (timeline.h says how), handed to the Perfetto or the Chrome
 * JSON writer, whose bytes go to the output file (outfile.c).
 */
#include "perfetto/timeline.h"
#include "text/float_format.h"
#include "text/format.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_S 1000000000

/*
 * The kernel events Perfetto's importer gives a meaning to, with the field
 * numbers of its messages (perfetto_trace.proto), and where each field is
 * under ftrace's names, LTTng's (which call a thread id "tid" and its
 * process "pid") and legacy LTTng's.
 */
#define NAMES(...) { __VA_ARGS__ }
#define FIELD(n, num, t, fl, ...) { .name = n, .number = num, .type = t, .flags = fl, .aliases = { __VA_ARGS__ } }
#define EVENT(k, num, event_names, ...) { .kind = k, .number = num, .names = event_names, .fields = { __VA_ARGS__ } }

const tl_event_spec tl_event_specs[] = {
	EVENT(TL_SCHED_SWITCH, 4, NAMES("sched_switch", "kernel.sched_schedule"),
	      FIELD("prev_comm", 1, TL_STR, 0, "prev_comm"),
	      FIELD("prev_pid", 2, TL_INT, TL_REQUIRED, "prev_pid", "prev_tid"),
	      FIELD("prev_prio", 3, TL_INT, TL_PRIO, "prev_prio"),
	      FIELD("prev_state", 4, TL_INT, 0, "prev_state"),
	      FIELD("next_comm", 5, TL_STR, 0, "next_comm"),
	      FIELD("next_pid", 6, TL_INT, TL_REQUIRED, "next_pid", "next_tid"),
	      FIELD("next_prio", 7, TL_INT, TL_PRIO, "next_prio")),
	EVENT(TL_SCHED_WAKING, 20, NAMES("sched_waking", "kernel.sched_try_wakeup"),
	      FIELD("comm", 1, TL_STR, 0, "comm"),
	      FIELD("pid", 2, TL_INT, TL_REQUIRED, "tid", "pid"),
	      FIELD("prio", 3, TL_INT, TL_PRIO, "prio"),
	      FIELD("success", 4, TL_INT, 0, "success"),
	      FIELD("target_cpu", 5, TL_INT, 0, "target_cpu", "cpu_id")),
	EVENT(TL_SCHED_WAKEUP, 17, NAMES("sched_wakeup"),
	      FIELD("comm", 1, TL_STR, 0, "comm"),
	      FIELD("pid", 2, TL_INT, TL_REQUIRED, "tid", "pid"),
	      FIELD("prio", 3, TL_INT, TL_PRIO, "prio"),
	      FIELD("success", 4, TL_INT, 0, "success"),
	      FIELD("target_cpu", 5, TL_INT, 0, "target_cpu")),
	EVENT(TL_SCHED_WAKEUP_NEW, 114, NAMES("sched_wakeup_new", "kernel.sched_wakeup_new_task"),
	      FIELD("comm", 1, TL_STR, 0, "comm"),
	      FIELD("pid", 2, TL_INT, TL_REQUIRED, "tid", "pid"),
	      FIELD("prio", 3, TL_INT, TL_PRIO, "prio"),
	      FIELD("success", 4, TL_INT, 0, "success"),
	      FIELD("target_cpu", 5, TL_INT, 0, "target_cpu", "cpu_id")),
	EVENT(TL_PROCESS_FORK, 239, NAMES("sched_process_fork", "kernel.process_fork"),
	      FIELD("parent_comm", 1, TL_STR, 0, "parent_comm"),
	      FIELD("parent_pid", 2, TL_INT, TL_REQUIRED, "parent_tid", "parent_pid"),
	      FIELD("child_comm", 3, TL_STR, 0, "child_comm"),
	      FIELD("child_pid", 4, TL_INT, TL_REQUIRED, "child_tid", "child_pid")),
	EVENT(TL_PROCESS_EXIT, 238, NAMES("sched_process_exit", "kernel.process_exit"),
	      FIELD("comm", 1, TL_STR, 0, "comm"),
	      FIELD("pid", 2, TL_INT, TL_REQUIRED, "tid", "pid"),
	      FIELD("tgid", 3, TL_INT, 0, "tgid"),
	      FIELD("prio", 4, TL_INT, TL_PRIO, "prio")),
	EVENT(TL_PROCESS_FREE, 240, NAMES("sched_process_free", "kernel.process_free"),
	      FIELD("comm", 1, TL_STR, 0, "comm"),
	      FIELD("pid", 2, TL_INT, TL_REQUIRED, "tid", "pid"),
	      FIELD("prio", 3, TL_INT, TL_PRIO, "prio")),
	EVENT(TL_TASK_NEWTASK, 235, NAMES("task_newtask"),
	      FIELD("pid", 1, TL_INT, TL_REQUIRED, "pid", "tid"),
	      FIELD("comm", 2, TL_STR, 0, "comm"),
	      FIELD("clone_flags", 3, TL_UINT, 0, "clone_flags"),
	      FIELD("oom_score_adj", 4, TL_INT, 0, "oom_score_adj")),
	EVENT(TL_TASK_RENAME, 236, NAMES("task_rename"),
	      FIELD("pid", 1, TL_INT, TL_REQUIRED, "pid", "tid"),
	      FIELD("oldcomm", 2, TL_STR, 0, "oldcomm"),
	      FIELD("newcomm", 3, TL_STR, 0, "newcomm"),
	      FIELD("oom_score_adj", 4, TL_INT, 0, "oom_score_adj")),
	EVENT(TL_IRQ_ENTRY, 36, NAMES("irq_handler_entry", "kernel.irq_entry"),
	      FIELD("irq", 1, TL_INT, TL_REQUIRED, "irq", "irq_id"),
	      FIELD("name", 2, TL_STR, 0, "name")),
	EVENT(TL_IRQ_EXIT, 37, NAMES("irq_handler_exit", "kernel.irq_exit"),
	      FIELD("irq", 1, TL_INT, 0, "irq"),
	      FIELD("ret", 2, TL_INT, 0, "ret", "handled")),
	EVENT(TL_SOFTIRQ_ENTRY, 24, NAMES("softirq_entry", "irq_softirq_entry", "kernel.softirq_entry"),
	      FIELD("vec", 1, TL_UINT, TL_REQUIRED, "vec", "softirq_id")),
	EVENT(TL_SOFTIRQ_EXIT, 25, NAMES("softirq_exit", "irq_softirq_exit", "kernel.softirq_exit"),
	      FIELD("vec", 1, TL_UINT, TL_REQUIRED, "vec", "softirq_id")),
	EVENT(TL_SOFTIRQ_RAISE, 26, NAMES("softirq_raise", "irq_softirq_raise", "kernel.softirq_raise"),
	      FIELD("vec", 1, TL_UINT, TL_REQUIRED, "vec", "softirq_id")),
	EVENT(TL_WORKQUEUE_START, 58, NAMES("workqueue_execute_start"),
	      FIELD("work", 1, TL_UINT, TL_REQUIRED, "work"),
	      FIELD("function", 2, TL_UINT, 0, "function")),
	EVENT(TL_WORKQUEUE_END, 57, NAMES("workqueue_execute_end"),
	      FIELD("work", 1, TL_UINT, TL_REQUIRED, "work"),
	      FIELD("function", 2, TL_UINT, 0, "function")),
	EVENT(TL_CPU_FREQUENCY, 11, NAMES("cpu_frequency", "power_cpu_frequency"),
	      FIELD("state", 1, TL_UINT, TL_REQUIRED, "state"),
	      FIELD("cpu_id", 2, TL_UINT, TL_REQUIRED, "cpu_id")),
	EVENT(TL_CPU_IDLE, 13, NAMES("cpu_idle", "power_cpu_idle"),
	      FIELD("state", 1, TL_UINT, TL_REQUIRED, "state"),
	      FIELD("cpu_id", 2, TL_UINT, TL_REQUIRED, "cpu_id")),
	EVENT(TL_PRINT, 3, NAMES("print", "lttng_logger"),
	      FIELD("ip", 1, TL_UINT, 0, "ip"),
	      FIELD("buf", 2, TL_STR, TL_REQUIRED, "buf", "msg")),
	/* A ProcessTree entry, and an event kept as it is. */
	EVENT(TL_STATEDUMP_TASK, 0, NAMES("lttng_statedump_process_state", "task_state.process_state"),
	      FIELD("tid", 0, TL_INT, TL_REQUIRED, "tid", "pid"),
	      FIELD("pid", 0, TL_INT, 0, "tgid", "pid"),
	      FIELD("ppid", 0, TL_INT, 0, "ppid", "parent_pid"),
	      FIELD("name", 0, TL_STR, 0, "name")),
	{ .kind = TL_OTHER },
};

struct tc_timeline_writer {
	tl_ctx c;
};

int tl_warn(tl_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *line = NULL;
	int n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0 || tc_ptr_push((void ***)&c->warnings, &c->warning_count, line) < 0) {
		free(n < 0 ? NULL : line);
		return tc_fail_nomem();
	}
	return 0;
}

/* ---- clocks ---- */

bool tl_epoch_offset(const tc_clock *clk, __int128 *ns)
{
	if (!clk->origin_is_unix_epoch || (clk->offset_s == 0 && clk->offset == 0))
		return false;
	*ns = (__int128)clk->offset_s * NS_PER_S + (__int128)clk->offset * NS_PER_S / clk->freq;
	return true;
}

/* Whether A and B may be traces of one machine: the same hostname, or
 * one of them says none. */
static bool same_machine(const tc_trace *a, const tc_trace *b)
{
	const tc_env_entry *ha = tc_trace_env(a, TC_ENV_HOSTNAME), *hb = tc_trace_env(b, TC_ENV_HOSTNAME);
	return !ha || !hb || ha->is_int || hb->is_int || strcmp(ha->str_value, hb->str_value) == 0;
}

typedef struct clock_source {
	const tc_trace *trace;
	const tc_clock *clk;
} clock_source;

static int relate_clocks(tl_ctx *c)
{
	clock_source *src = NULL;
	size_t n = 0, ref = 0;
	bool have_ref = false;
	for (size_t i = 0; i < c->trace_count; i++) {
		const tc_trace *t = c->traces[i];
		for (size_t k = 0; k < t->stream_class_count; k++) {
			const tc_clock *clk = t->stream_classes[k]->clock;
			bool seen = !clk;
			for (size_t j = 0; j < n && !seen; j++)
				seen = src[j].clk == clk;
			if (seen)
				continue;
			clock_source *m = realloc(src, (n + 1) * sizeof *m);
			if (!m) {
				free(src);
				return tc_fail_nomem();
			}
			src = m;
			src[n] = (clock_source){ t, clk };
			if (!have_ref && tl_trace_is_kernel(t)) {
				ref = n;
				have_ref = true;
			}
			n++;
		}
	}
	if (n && !(c->clocks = calloc(n, sizeof *c->clocks))) {
		free(src);
		return tc_fail_nomem();
	}
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		tl_clock *k = &c->clocks[i];
		const clock_source *r = &src[ref], *s = &src[i];
		__int128 off_s, off_r;
		tc_clock_system kind = s->clk->system;
		k->clk = s->clk;
		if (i == ref || (kind != TC_CLOCK_UNKNOWN && kind == r->clk->system && same_machine(s->trace, r->trace)))
			k->delta_ns = 0;
		else if (tl_epoch_offset(s->clk, &off_s) && tl_epoch_offset(r->clk, &off_r))
			k->delta_ns = (int64_t)(off_s - off_r);
		else
			rc = tl_warn(c, "%s: clock \"%s\" has no known relation to clock \"%s\" of %s, the trace's clock: its times are kept as they are",
			             s->trace->name, s->clk->name, r->clk->name, r->trace->name);
	}
	c->clock_count = n;
	c->reference = n ? &c->clocks[ref] : NULL;
	free(src);
	return rc;
}

static const tl_clock *clock_of(const tl_ctx *c, const tc_clock *clk)
{
	for (size_t i = 0; clk && i < c->clock_count; i++)
		if (c->clocks[i].clk == clk)
			return &c->clocks[i];
	return NULL;
}

/* MSG's time on the trace clock, in ns, its clock being K. */
static int64_t trace_time(const tl_clock *k, const tc_message *msg)
{
	if (!k || !msg->has_time)
		return 0;
	uint64_t freq = k->clk->freq;
	/* the usual case, nanoseconds of the trace clock itself */
	if (freq == NS_PER_S && k->delta_ns == 0)
		return msg->cycles > INT64_MAX ? INT64_MAX : (int64_t)msg->cycles;
	__int128 ns = freq == NS_PER_S ? (__int128)msg->cycles : (__int128)msg->cycles * NS_PER_S / freq;
	ns += k->delta_ns;
	return ns < 0 ? 0 : ns > INT64_MAX ? INT64_MAX : (int64_t)ns;
}

/* ---- values ---- */

size_t tl_utf8_char(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	if (!len)
		return 0;
	if (p[0] < 0x80)
		return 1;
	size_t n = p[0] >= 0xc2 && p[0] <= 0xdf ? 2 : p[0] >= 0xe0 && p[0] <= 0xef ? 3 : p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : 0;
	if (!n || n > len)
		return 0;
	/* the second byte's range excludes overlongs, surrogates and values
	 * past U+10FFFF */
	unsigned char lo = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = p[0] == 0xed ? 0x9f : p[0] == 0xf4 ? 0x8f : 0xbf;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if (p[k] < 0x80 || p[k] > 0xbf)
			return 0;
	return n;
}

size_t tl_utf8_prefix(const char *s, size_t len)
{
	size_t i = 0, n;
	for (;;) {
		/* nearly all text is ASCII: eight bytes at a time, no call per byte */
		uint64_t word;
		while (len - i >= 8 && (memcpy(&word, s + i, 8), !(word & 0x8080808080808080u)))
			i += 8;
		while (i < len && !((unsigned char)s[i] & 0x80))
			i++;
		if (i == len || !(n = tl_utf8_char(s + i, len - i)))
			return i;
		i += n;
	}
}

void tl_put_utf8(pb_buf *out, const char *s, size_t len)
{
	while (len) {
		size_t ok = tl_utf8_prefix(s, len);
		pb_raw(out, s, ok);
		if (ok == len)
			return;
		pb_raw(out, "\xef\xbf\xbd", 3);
		s += ok + 1;
		len -= ok + 1;
	}
}

static void put_text(pb_buf *out, const char *s)
{
	pb_raw(out, s, strlen(s));
}

size_t tl_symbol_text(const tc_trace *trace, const tc_field *f, char *buf, size_t size)
{
	tc_symbol sym;
	if (!trace || !(f->cls->flags & TC_FIELD_CODE_ADDRESS) || !tc_trace_symbol(trace, f->v.u, &sym))
		return 0;
	int n = snprintf(buf, size, "%s+0x%" PRIx64 "%s%s%s", sym.name, f->v.u - sym.addr, sym.module ? " [" : "",
	                 sym.module ? sym.module : "", sym.module ? "]" : "");
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

void tl_render(pb_buf *out, const tc_trace *trace, const tc_field *f)
{
	const tc_field_class *fc = f->cls;
	char num[600];
	const char *s;
	size_t len;
	if (tl_text_value(f, &s, &len)) {
		pb_raw(out, "\"", 1);
		tl_put_utf8(out, s, len);
		pb_raw(out, "\"", 1);
		return;
	}
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		if (tl_symbol_text(trace, f, num, sizeof num))
			;
		else if (fc->base == 16)
			snprintf(num, sizeof num, "0x%" PRIx64, f->v.u);
		else if (fc->is_signed)
			snprintf(num, sizeof num, "%" PRId64, f->v.s);
		else
			snprintf(num, sizeof num, "%" PRIu64, f->v.u);
		put_text(out, num);
		return;
	case TC_FIELD_FLOAT:
		pb_raw(out, num, tc_fmt_g(num, f->v.f, 17));
		return;
	case TC_FIELD_BLOB:
		for (size_t i = 0; i < f->v.str.len; i++) {
			snprintf(num, sizeof num, "%s%02x", i ? " " : "", (unsigned char)f->v.str.ptr[i]);
			put_text(out, num);
		}
		return;
	case TC_FIELD_STRUCT:
		put_text(out, "{ ");
		for (size_t i = 0; i < f->v.compound.count && i < fc->member_count; i++) {
			put_text(out, i ? ", " : "");
			put_text(out, fc->members[i].display_name);
			put_text(out, " = ");
			tl_render(out, trace, &f->v.compound.items[i]);
		}
		put_text(out, " }");
		return;
	case TC_FIELD_VARIANT:
	case TC_FIELD_OPTIONAL:
		if (f->v.compound.count)
			tl_render(out, trace, &f->v.compound.items[0]);
		else
			put_text(out, "none");
		return;
	default:   /* arrays and sequences */
		put_text(out, "[");
		for (size_t i = 0; i < f->v.compound.count; i++) {
			put_text(out, i ? ", " : "");
			tl_render(out, trace, &f->v.compound.items[i]);
		}
		put_text(out, "]");
		return;
	}
}

/* A task state of ENCODING as ftrace reports it on kernels since 4.14,
 * the encoding Perfetto reads for them. */
static int64_t report_state(int encoding, int64_t v)
{
	enum { S = 1, D = 2, T = 4, t = 8, X = 16, Z = 32, P = 64, I = 128, PREEMPTED = 256 };
	if (encoding == TL_STATE_REPORT || v <= 0)
		return v;
	if (encoding == TL_STATE_TRACE_COMPASS)
		return v == 64 ? X : v;
	int64_t r = v & (S | T | t);
	if (v & D)
		r |= v & 0x400 ? I : D;   /* TASK_NOLOAD: an idle kernel thread */
	if (encoding == TL_STATE_LEGACY) {
		/* 2.6: EXIT_ZOMBIE 16, EXIT_DEAD 32, TASK_DEAD 64 */
		r |= (v & 16 ? Z : 0) | (v & (32 | 64) ? X : 0);
		return r ? r : PREEMPTED;
	}
	/* lttng-modules: the 4.x task state (EXIT_DEAD 16, EXIT_ZOMBIE 32,
	 * TASK_PARKED 64, TASK_DEAD 128, TASK_STATE_MAX for a preempted
	 * task) or, from kernel 4.14 on, the report itself */
	r |= v & (X | Z | P | I);
	return r ? r : PREEMPTED;
}

bool tl_spec_int(const tl_class *cls, const tc_message *msg, int i, int64_t *v)
{
	if (!tl_int_value(tl_spec_field(cls, msg, i), v))
		return false;
	if (cls->lttng_prio && (cls->spec->fields[i].flags & TL_PRIO))
		*v += 100;
	if (cls->kind == TL_SCHED_SWITCH && i == 3)
		*v = report_state(cls->state_encoding, *v);
	return true;
}

/* ---- event classes ---- */

bool tl_trace_is_kernel(const tc_trace *t)
{
	return t->domain == TC_DOMAIN_KERNEL;
}

/* The index of the member of structure class S shown as NAME, or -1. */
static int member_index(const tc_field_class *s, const char *name)
{
	if (!s || s->kind != TC_FIELD_STRUCT)
		return -1;
	for (size_t i = 0; i < s->member_count && i < INT16_MAX; i++)
		if (strcmp(s->members[i].display_name, name) == 0)
			return (int)i;
	return -1;
}

/* The first of NAMES found in the stream event context, then the event context. */
static tl_ref context_ref(const tc_event_class *ec, const char *const *names)
{
	for (const char *const *n = names; *n; n++) {
		int i = member_index(ec->stream_class->event_context, *n);
		if (i >= 0)
			return (tl_ref){ 1, (int16_t)i };
		if ((i = member_index(ec->context, *n)) >= 0)
			return (tl_ref){ 2, (int16_t)i };
	}
	return (tl_ref){ 0, 0 };
}

/* Looks up the spec of a kernel event and its fields; false when the
 * event has none or lacks a required field. */
static bool read_spec(tl_class *cls, const tl_event_spec *spec)
{
	const tc_field_class *payload = cls->ec->payload;
	for (int i = 0; i < TL_MAX_FIELDS; i++) {
		const tl_field_spec *f = &spec->fields[i];
		cls->fields[i] = -1;
		for (int a = 0; f->name && a < 3 && f->aliases[a] && cls->fields[i] < 0; a++) {
			int m = member_index(payload, f->aliases[a]);
			if (m < 0)
				continue;
			const tc_field_class *mc = payload->members[m].cls;
			bool text = mc->kind == TC_FIELD_STRING || (mc->flags & TC_FIELD_TEXT);
			bool number = mc->kind == TC_FIELD_INT || mc->kind == TC_FIELD_ENUM;
			if (f->type == TL_STR ? text : number)
				cls->fields[i] = (int16_t)m;
		}
		if (f->name && (f->flags & TL_REQUIRED) && cls->fields[i] < 0)
			return false;
	}
	cls->spec = spec;
	cls->kind = spec->kind;
	return true;
}

static void read_class(tl_ctx *c, tl_class *cls)
{
	const tc_event_class *ec = cls->ec;
	const tc_trace *t = ec->stream_class->trace;
	static const char *const tid_kernel[] = { "common_pid", "tid", "vtid", NULL };
	static const char *const tid_user[] = { "vtid", "tid", NULL };
	static const char *const pid_names[] = { "vpid", "pid", NULL };
	static const char *const procname[] = { "procname", NULL };
	static const char *const flags[] = { "common_flags", NULL };
	cls->kernel = tl_trace_is_kernel(t);
	cls->clock = clock_of(c, ec->stream_class->clock);
	cls->tid = context_ref(ec, cls->kernel ? tid_kernel : tid_user);
	cls->pid = context_ref(ec, pid_names);
	cls->procname = context_ref(ec, procname);
	cls->flags = context_ref(ec, flags);
	cls->func_name = cls->func_addr = cls->func_args = cls->func_retval = cls->func_depth = -1;
	cls->kind = TL_OTHER;
	if (cls->kernel) {
		const tc_env_entry *tracer = tc_trace_env(t, TC_ENV_TRACER_NAME), *source = tc_trace_env(t, TC_ENV_SOURCE_FORMAT);
		bool named = tracer && !tracer->is_int;
		cls->lttng_prio = named && strcmp(tracer->str_value, "lttng-modules") == 0;
		if (named && strcmp(tracer->str_value, "lttng-legacy") == 0)
			cls->state_encoding = TL_STATE_LEGACY;
		else if (cls->lttng_prio && source && !source->is_int && strncmp(source->str_value, "trace-cmd", 9) == 0)
			cls->state_encoding = TL_STATE_TRACE_COMPASS;
		else if (cls->lttng_prio)
			cls->state_encoding = TL_STATE_LTTNG;
		for (const tl_event_spec *s = tl_event_specs; s->kind != TL_OTHER; s++)
			for (int n = 0; n < 4 && s->names[n]; n++)
				if (strcmp(ec->name, s->names[n]) == 0 && read_spec(cls, s))
					return;
		return;
	}
	static const char *const entries[] = { "lttng_ust_cyg_profile:func_entry", "lttng_ust_cyg_profile_fast:func_entry" };
	static const char *const exits[] = { "lttng_ust_cyg_profile:func_exit", "lttng_ust_cyg_profile_fast:func_exit" };
	for (int i = 0; i < 2; i++) {
		if (strcmp(ec->name, entries[i]) == 0)
			cls->kind = TL_FUNC_ENTRY;
		else if (strcmp(ec->name, exits[i]) == 0)
			cls->kind = TL_FUNC_EXIT;
	}
	if (cls->kind == TL_OTHER)
		return;
	cls->func_name = (int16_t)member_index(ec->payload, "func");
	cls->func_addr = (int16_t)member_index(ec->payload, "addr");
	cls->func_args = (int16_t)member_index(ec->payload, "args");
	cls->func_retval = (int16_t)member_index(ec->payload, "retval");
	cls->func_depth = (int16_t)member_index(ec->payload, "depth");
}

static int grow_classes(tl_ctx *c)
{
	size_t cap = c->class_cap ? c->class_cap * 2 : 256;
	tl_class **n = calloc(cap, sizeof *n);
	if (!n)
		return tc_fail_nomem();
	for (size_t i = 0; i < c->class_cap; i++) {
		if (!c->classes[i])
			continue;
		size_t h = tc_ptr_hash(c->classes[i]->ec, cap);
		while (n[h])
			h = (h + 1) & (cap - 1);
		n[h] = c->classes[i];
	}
	free(c->classes);
	c->classes = n;
	c->class_cap = cap;
	return 0;
}

tl_class *tl_class_of(tl_ctx *c, const tc_message *msg)
{
	const tc_event_class *ec = msg->event_class;
	tl_class **recent = &c->recent[ec->id % (sizeof c->recent / sizeof c->recent[0])];
	if (*recent && (*recent)->ec == ec)
		return *recent;
	if (c->class_cap) {
		for (size_t h = tc_ptr_hash(ec, c->class_cap);; h = (h + 1) & (c->class_cap - 1)) {
			if (!c->classes[h])
				break;
			if (c->classes[h]->ec == ec)
				return *recent = c->classes[h];
		}
	}
	if ((c->class_count + 1) * 2 > c->class_cap && grow_classes(c) < 0)
		return NULL;
	tl_class *cls = calloc(1, sizeof *cls);
	if (!cls) {
		tc_fail_nomem();
		return NULL;
	}
	cls->ec = ec;
	read_class(c, cls);
	size_t h = tc_ptr_hash(ec, c->class_cap);
	while (c->classes[h])
		h = (h + 1) & (c->class_cap - 1);
	c->classes[h] = cls;
	c->class_count++;
	return *recent = cls;
}

/* ---- tracks ---- */

static size_t tid_hash(int64_t tid, size_t cap)
{
	uint64_t x = (uint64_t)tid * 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 32) & (cap - 1);
}

/* Rehashes a chained table of tracks into twice the buckets. */
static bool grow_table(tl_track ***table, size_t *cap, bool by_stream)
{
	size_t ncap = *cap ? *cap * 2 : 256;
	tl_track **n = calloc(ncap, sizeof *n);
	if (!n)
		return false;
	for (size_t i = 0; i < *cap; i++) {
		for (tl_track *t = (*table)[i], *next; t; t = next) {
			next = t->next;
			size_t h = by_stream ? tc_ptr_hash(t->stream, ncap) : tid_hash(t->tid, ncap);
			t->next = n[h];
			n[h] = t;
		}
	}
	free(*table);
	*table = n;
	*cap = ncap;
	return true;
}

tl_track *tl_process_find(tl_ctx *c, tl_track *t)
{
	return t->process = t->pid == t->tid ? t : tl_thread(c, t->pid, t->pid);
}

tl_track *tl_thread_find(tl_ctx *c, int64_t tid, int64_t pid)
{
	tl_track *t = c->thread_cap ? c->threads[tid_hash(tid, c->thread_cap)] : NULL;
	while (t && t->tid != tid)
		t = t->next;
	if (t) {
		if (pid >= 0)
			t->pid = pid;
		return c->last_thread = t;
	}
	if (c->thread_count >= c->thread_cap && !grow_table(&c->threads, &c->thread_cap, false))
		return NULL;
	t = calloc(1, sizeof *t);
	if (!t || tc_ptr_push((void ***)&c->tracks, &c->track_count, t) < 0) {
		free(t);
		return NULL;
	}
	t->tid = tid;
	t->pid = pid;
	size_t h = tid_hash(tid, c->thread_cap);
	t->next = c->threads[h];
	c->threads[h] = t;
	c->thread_count++;
	return t;
}

static tl_track *stream_track(tl_ctx *c, const tc_stream *s)
{
	if (c->stream_track_cap) {
		for (tl_track *t = c->stream_tracks[tc_ptr_hash(s, c->stream_track_cap)]; t; t = t->next)
			if (t->stream == s)
				return t;
	}
	if (c->stream_track_count >= c->stream_track_cap && !grow_table(&c->stream_tracks, &c->stream_track_cap, true))
		return NULL;
	tl_track *t = calloc(1, sizeof *t);
	const char *base = s->name ? strrchr(s->name, '/') : NULL;
	char name[512];
	snprintf(name, sizeof name, "%s %s", s->trace->name, base ? base + 1 : s->name ? s->name : "stream");
	if (!t || !(t->name = strdup(name)) || tc_ptr_push((void ***)&c->tracks, &c->track_count, t) < 0) {
		if (t)
			free(t->name);
		free(t);
		return NULL;
	}
	t->name_len = strlen(name);
	t->stream = s;
	t->tid = t->pid = -1;
	size_t h = tc_ptr_hash(s, c->stream_track_cap);
	t->next = c->stream_tracks[h];
	c->stream_tracks[h] = t;
	c->stream_track_count++;
	return t;
}

void tl_track_set_name(tl_track *t, const char *s, size_t len, bool process)
{
	char **slot = process ? &t->process_name : &t->name;
	char *n = malloc(len + 1);
	if (!n)
		return;    /* the old name stays: a name is no reason to fail */
	memcpy(n, s, len);
	n[len] = '\0';
	free(*slot);
	*slot = n;
	if (process) {
		t->process_renamed = true;
		t->process_name_len = len;
	} else {
		t->renamed = true;
		t->name_len = len;
	}
}

/* The task CPU runs in kernel trace T. */
static int64_t *current_task(tl_ctx *c, const tc_trace *t, int cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	tl_cpus *k = c->cpus_count && c->cpus[c->last_cpus].trace == t ? &c->cpus[c->last_cpus] : NULL;
	for (size_t i = 0; i < c->cpus_count && !k; i++)
		if (c->cpus[i].trace == t)
			k = &c->cpus[c->last_cpus = i];
	if (!k) {
		tl_cpus *n = realloc(c->cpus, (c->cpus_count + 1) * sizeof *n);
		if (!n)
			return NULL;
		c->cpus = n;
		c->last_cpus = c->cpus_count;
		k = &c->cpus[c->cpus_count++];
		*k = (tl_cpus){ t, NULL, 0 };
	}
	if ((size_t)cpu >= k->count) {
		int64_t *n = realloc(k->current, ((size_t)cpu + 1) * sizeof *n);
		if (!n)
			return NULL;
		for (size_t i = k->count; i <= (size_t)cpu; i++)
			n[i] = -1;
		k->current = n;
		k->count = (size_t)cpu + 1;
	}
	return &k->current[cpu];
}

tl_track *tl_track_of(tl_ctx *c, const tl_class *cls, const tc_message *msg, int64_t ts, bool *failed)
{
	static const tl_class no_context;
	if (!cls)
		cls = &no_context;
	int64_t tid = -1, pid = -1;
	tl_track *t = NULL;
	*failed = false;
	bool has_tid = tl_int_value(tl_context(msg, cls->tid), &tid);
	if (!tl_int_value(tl_context(msg, cls->pid), &pid))
		pid = -1;
	if (cls->kernel) {
		int64_t *cur = current_task(c, msg->stream->trace, msg->stream->cpu);
		if (!has_tid && cur && *cur >= 0) {
			tid = *cur;
			has_tid = true;
		}
		int64_t next;
		if (!has_tid && cls->kind == TL_SCHED_SWITCH && tl_spec_int(cls, msg, 1, &tid))
			has_tid = true;
		if (cur && cls->kind == TL_SCHED_SWITCH && tl_spec_int(cls, msg, 5, &next))
			*cur = next;
		else if (cur && has_tid)
			*cur = tid;
		/* the idle task is one per CPU, never a process of its own */
		if (has_tid)
			t = tl_thread(c, tid, tid == 0 ? 0 : pid);
	} else if (has_tid) {
		t = tl_thread(c, tid, pid);
		const char *s;
		size_t len;
		if (t && tl_text_value(tl_context(msg, cls->procname), &s, &len)) {
			tl_track_rename(t, s, len, false);
			/* the process is named by its main thread, else by the first seen */
			tl_track *main = tl_process_of(c, t);
			if (main && ((main == t && t->renamed) || !main->process_name))
				tl_track_rename(main, s, len, true);
		}
	}
	if (!has_tid)
		t = stream_track(c, msg->stream);
	if (!t) {
		*failed = true;
		tc_fail_nomem();
		return NULL;
	}
	if (!t->has_time) {
		t->has_time = true;
		t->first_ts = ts;
	}
	return t;
}

/* The time an inherited call begins: before the first event, each one
 * discovered earlier than the last, as outer calls are discovered after
 * inner ones. */
static int64_t inherited_begin(tl_track *t, int64_t ts)
{
	int64_t first = t->has_time ? t->first_ts : ts;
	t->inherited++;
	return first > (int64_t)t->inherited ? first - (int64_t)t->inherited : 0;
}

/* Opens COUNT more calls on T, beginning at BEGIN; false when out of memory. */
static bool push_frames(tl_track *t, uint32_t count, int64_t begin)
{
	if (t->open_calls + count > t->frame_cap) {
		size_t cap = (size_t)t->open_calls + count + 16;
		tl_frame *n = cap <= UINT32_MAX ? realloc(t->frames, cap * sizeof *n) : NULL;
		if (!n)
			return false;
		t->frames = n;
		t->frame_cap = (uint32_t)cap;
	}
	for (uint32_t i = 0; i < count; i++)
		t->frames[t->open_calls++] = (tl_frame){ begin, (uint32_t)t->call_text.len, 0 };
	return true;
}

/* The function name of call event MSG of CLS: its _func field, else its
 * address written as 0x... into BUF, else "?". */
static void call_name(const tl_class *cls, const tc_message *msg, char buf[19], const char **name, size_t *len)
{
	int64_t addr;
	if (tl_text_value(tl_member(msg->payload, cls->func_name), name, len))
		return;
	if (tl_int_value(tl_member(msg->payload, cls->func_addr), &addr)) {
		memcpy(buf, "0x", 2);
		*len = 2 + tc_fmt_hex(buf + 2, (uint64_t)addr, true);
		*name = buf;
		return;
	}
	*name = "?";
	*len = 1;
}

/* Ends T's innermost call at TS as WHAT, the exit MSG of CLS when there
 * is one, beginning the call first when it was entered before the records
 * (named by MSG, else TL_UNRECORDED_ENTRY). */
static int end_call(tl_ctx *c, tl_track *t, tl_slice what, int64_t ts, const tl_class *cls, const tc_message *msg,
                    tl_slice_fn fn, void *arg)
{
	tl_frame *f = &t->frames[t->open_calls - 1];
	int rc = 0;
	if (t->open_calls == t->unresolved) {
		char addr[19];
		const char *name = TL_UNRECORDED_ENTRY;
		size_t len = sizeof TL_UNRECORDED_ENTRY - 1;
		if (what == TL_SLICE_END)
			call_name(cls, msg, addr, &name, &len);
		f->begin = inherited_begin(t, ts);
		rc = fn(c, arg, t, TL_SLICE_BEGIN_INHERITED, f->begin, name, len, f);
		t->unresolved--;
	}
	if (rc == 0)
		rc = fn(c, arg, t, what, ts, NULL, 0, f);
	t->call_text.len = f->text;
	t->open_calls--;
	return rc;
}

int tl_call(tl_ctx *c, const tl_class *cls, const tc_message *msg, tl_track *t, int64_t ts, tl_slice_fn fn, void *arg)
{
	bool entry = cls->kind == TL_FUNC_ENTRY;
	int64_t depth;
	int rc = 0;
	if (tl_int_value(tl_member(msg->payload, cls->func_depth), &depth) && depth >= 0 && depth < UINT16_MAX) {
		/* the calls this event's depth says are open */
		uint32_t want = (uint32_t)depth + (entry ? 0 : 1);
		while (t->open_calls > want && rc == 0)
			rc = end_call(c, t, TL_SLICE_END_ABANDONED, ts, NULL, NULL, fn, arg);
		if (rc == 0 && t->open_calls < want && t->open_calls == t->unresolved) {
			if (!push_frames(t, want - t->open_calls, 0))
				return tc_fail_nomem();
			t->unresolved = want;
		}
	}
	if (rc < 0)
		return rc;
	if (entry) {
		char addr[19];
		const char *name;
		size_t len;
		call_name(cls, msg, addr, &name, &len);
		return push_frames(t, 1, ts) ? fn(c, arg, t, TL_SLICE_BEGIN, ts, name, len, &t->frames[t->open_calls - 1])
		                             : tc_fail_nomem();
	}
	/* an exit with nothing open: a call entered before the records */
	if (!t->open_calls) {
		if (!push_frames(t, 1, 0))
			return tc_fail_nomem();
		t->unresolved = 1;
	}
	return end_call(c, t, TL_SLICE_END, ts, cls, msg, fn, arg);
}

int tl_calls_finish(tl_ctx *c, tl_slice_fn fn, void *arg)
{
	for (size_t i = 0; i < c->track_count; i++) {
		tl_track *t = c->tracks[i];
		int rc = 0;
		while (t->open_calls && rc == 0)
			rc = end_call(c, t, TL_SLICE_UNENDED, t->first_ts, NULL, NULL, fn, arg);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int tl_known_tasks(tl_ctx *c, int (*visit)(tl_ctx *c, int64_t tid, const char *name, size_t len, void *arg), void *arg)
{
	for (size_t i = 0; i < c->trace_count; i++) {
		const tc_trace *t = c->traces[i];
		/* A kernel trace's table names the tasks of every process; a
		 * user-space trace's threads are named by its events. */
		if (!tl_trace_is_kernel(t))
			continue;
		for (size_t k = 0; k < t->task_count; k++) {
			int rc = visit(c, t->tasks[k].tid, t->tasks[k].name, strlen(t->tasks[k].name), arg);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* ---- the writer ---- */

int tc_timeline_writer_new(tc_timeline_writer **out, tc_timeline_format format, int fd, const char *name,
                           tc_trace *const *traces, size_t count)
{
	if (format != TC_TIMELINE_PERFETTO && format != TC_TIMELINE_CHROME_JSON)
		return tc_fail(TC_EINVAL, name, -1, "unknown timeline format %d", (int)format);
	tc_timeline_writer *w = calloc(1, sizeof *w);
	if (!w)
		return tc_fail_nomem();
	tl_ctx *c = &w->c;
	c->ops = format == TC_TIMELINE_PERFETTO ? &tl_perfetto_ops : &tl_chrome_json_ops;
	c->fd = fd;
	c->trace_count = count;
	int rc = 0;
	if (!(c->name = strdup(name ? name : "")) || (count && !(c->traces = malloc(count * sizeof *c->traces))))
		rc = tc_fail_nomem();
	if (rc == 0) {
		if (count)
			memcpy(c->traces, traces, count * sizeof *traces);
		rc = relate_clocks(c);
	}
	if (rc == 0)
		rc = c->ops->init(c);
	if (rc < 0) {
		tc_timeline_writer_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

int tc_timeline_writer_set_threads(tc_timeline_writer *w, unsigned threads)
{
	if (threads == 0)
		return tc_fail(TC_EINVAL, w->c.name, -1, "no thread to write with");
	return threads > 1 ? tl_outfile_start(&w->c) : 0;
}

int tc_timeline_writer_write(tc_timeline_writer *w, const tc_message *msg)
{
	tl_ctx *c = &w->c;
	tl_class *cls = NULL;
	if (msg->kind == TC_MSG_EVENT && !(cls = tl_class_of(c, msg)))
		return TC_ENOMEM;
	int64_t ts = trace_time(cls ? cls->clock : clock_of(c, msg->stream->stream_class->clock), msg);
	int rc = c->ops->write(c, msg, cls, ts);
	return rc < 0 ? rc : tl_flush(c, 1u << 20);
}

int tc_timeline_writer_finish(tc_timeline_writer *w)
{
	int rc = w->c.ops->finish(&w->c);
	return rc < 0 ? rc : tl_flush(&w->c, 0);
}

uint64_t tc_timeline_writer_bytes(const tc_timeline_writer *w)
{
	return w->c.written + w->c.out.len;
}

const char *tc_timeline_writer_warning(const tc_timeline_writer *w, size_t i)
{
	return i < w->c.warning_count ? w->c.warnings[i] : NULL;
}

void tc_timeline_writer_free(tc_timeline_writer *w)
{
	if (!w)
		return;
	tl_ctx *c = &w->c;
	tl_outfile_stop(c);
	if (c->impl)
		c->ops->free(c);
	for (size_t i = 0; i < c->class_cap; i++)
		free(c->classes[i]);
	free(c->classes);
	for (size_t i = 0; i < c->track_count; i++) {
		tl_track *t = c->tracks[i];
		free(t->name);
		free(t->process_name);
		free(t->frames);
		pb_free(&t->call_text);
		free(t);
	}
	free(c->tracks);
	free(c->threads);
	free(c->stream_tracks);
	for (size_t i = 0; i < c->cpus_count; i++)
		free(c->cpus[i].current);
	free(c->cpus);
	for (size_t i = 0; i < c->warning_count; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c->clocks);
	free(c->traces);
	free(c->name);
	pb_free(&c->out);
	free(w);
}
