/* SPDX-License-Identifier: MIT */
/*
 * lttng.c - trace.dat seen with LTTng's kernel conventions
 * (tc_open_options.lttng_names), the names and values Trace Compass's
 * kernel analyses look for (doc/formats/ctf.md §8.2):
 *
 *   - events lose their subsystem as in ftrace, and lttng-modules'
 *     renames apply: softirq_* -> irq_softirq_*, hrtimer_* ->
 *     timer_hrtimer_*, mm_page_* -> kmem_mm_page_*, cpu_frequency ->
 *     power_cpu_frequency, syscalls' sys_enter_X / sys_exit_X ->
 *     syscall_entry_X / syscall_exit_X (without __syscall_nr), ...;
 *   - fields get one leading underscore (readers drop it), ftrace's pid
 *     fields of sched events are LTTng's tids, priorities lose 100,
 *     prev_state is re-encoded (§8.4) and block rwbs strings become
 *     LTTng's bit masks;
 *   - raw_syscalls' sys_enter / sys_exit become syscall_entry_NAME /
 *     syscall_exit_NAME by their number (x86-64 table, without the id),
 *     or syscall_entry_unknown / syscall_exit_unknown with it;
 *   - trace_marker lines (ftrace print) are lttng_logger events { _msg };
 *   - the event context is { _tid } from common_pid;
 *   - the environment claims lttng-modules 2.13 so that Trace Compass
 *     picks its newest event layout.
 *
 * classes.c asks here while it builds classes; stream.c applies the
 * value changes while it decodes.
 */
#include "tracedat/model.h"
#include "tracedat/syscalls_x86_64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rename_rule {
	const char *system;      /* NULL: any */
	const char *prefix;      /* of the ftrace name */
	const char *replacement; /* put in place of the prefix */
} rename_rule;

static const rename_rule event_renames[] = {
	{ "irq", "softirq_", "irq_softirq_" },
	{ "timer", "hrtimer_", "timer_hrtimer_" },
	{ "timer", "itimer_", "timer_itimer_" },
	{ "kmem", "mm_page_alloc", "kmem_mm_page_alloc" },
	{ "kmem", "mm_page_free", "kmem_mm_page_free" },
	{ "kmem", "kmalloc", "kmem_kmalloc" },
	{ "kmem", "kfree", "kmem_kfree" },
	{ "power", "cpu_frequency", "power_cpu_frequency" },
	{ "power", "cpu_idle", "power_cpu_idle" },
	{ "net", "netif_receive_skb", "net_if_receive_skb" },
	{ "syscalls", "sys_enter_", "syscall_entry_" },
	{ "syscalls", "sys_exit_", "syscall_exit_" },
	{ "irq_vectors", "", "x86_irq_vectors_" },
	{ "ftrace", "print", "lttng_logger" },
};

const char *td_lttng_event_name(td_trace *t, const char *system, const char *name)
{
	for (size_t i = 0; i < sizeof event_renames / sizeof event_renames[0]; i++) {
		const rename_rule *r = &event_renames[i];
		size_t n = strlen(r->prefix);
		if (strcmp(system, r->system) != 0 || strncmp(name, r->prefix, n) != 0)
			continue;
		size_t len = strlen(r->replacement) + strlen(name + n) + 1;
		char *s = tc_pool_alloc(&t->pool, len);
		if (s)
			snprintf(s, len, "%s%s", r->replacement, name + n);
		return s;
	}
	return name;
}

static bool is_prio(const char *f)
{
	return !strcmp(f, "prio") || !strcmp(f, "prev_prio") || !strcmp(f, "next_prio") || !strcmp(f, "oldprio") ||
	       !strcmp(f, "newprio");
}

/* sched's pid fields hold thread ids: LTTng's tid. */
static const char *tid_name(const char *f)
{
	static const char *const pairs[][2] = {
		{ "pid", "tid" }, { "prev_pid", "prev_tid" }, { "next_pid", "next_tid" },
		{ "parent_pid", "parent_tid" }, { "child_pid", "child_tid" }, { "old_pid", "old_tid" },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (strcmp(f, pairs[i][0]) == 0)
			return pairs[i][1];
	return NULL;
}

td_lttng_field td_lttng_field_of(const char *system, const char *event, const char *field)
{
	td_lttng_field r = { field, TD_X_NONE, false };
	if (strcmp(system, "syscalls") == 0 && strcmp(field, "__syscall_nr") == 0) {
		r.drop = true;
	} else if (strcmp(system, "ftrace") == 0 && strcmp(event, "print") == 0) {
		/* trace_marker lines: LTTng's logger event has only the text */
		if (strcmp(field, "ip") == 0)
			r.drop = true;
		else if (strcmp(field, "buf") == 0)
			r.name = "msg";
	} else if (strcmp(system, "sched") == 0) {
		const char *tid = tid_name(field);
		if (tid)
			r.name = tid;
		if (is_prio(field))
			r.transform = TD_X_PRIO;
		if (strcmp(event, "sched_switch") == 0 && strcmp(field, "prev_state") == 0)
			r.transform = TD_X_PREV_STATE;
	} else if (strcmp(system, "block") == 0 && strcmp(field, "rwbs") == 0) {
		r.transform = TD_X_RWBS;
	}
	return r;
}

/*
 * The letters of prev_state from sched_switch's print fmt, e.g.
 * `{ 0x0001, "S" }, { 0x0002, "D" }, ...`; a preempted task has the bit
 * above all of them ("R+").  Kernels before 4.14 print other tables;
 * there the defaults of 4.14 and later stay.
 */
void td_lttng_read_states(td_trace *t, const char *print_fmt, size_t len)
{
	static const char letters[] = "SDTtXZPI";
	uint32_t all = 0;
	for (int i = 0; i < 8; i++) {
		t->state_mask[i] = 1u << i;
		all |= 1u << i;
	}
	const char *p = print_fmt, *end = print_fmt + len;
	bool found = false;
	while (p < end && (p = memmem(p, (size_t)(end - p), "{ 0x", 4)) != NULL) {
		char *after;
		unsigned long mask = strtoul(p + 2, &after, 16);
		p = after;
		const char *q = p;
		while (q < end && (*q == ',' || *q == ' '))
			q++;
		if (q + 2 < end && q[0] == '"' && q[2] == '"') {
			const char *l = strchr(letters, q[1]);
			if (l && q[1]) {
				if (!found)
					all = 0;
				found = true;
				t->state_mask[l - letters] = (uint32_t)mask;
				all |= (uint32_t)mask;
			}
		}
	}
	t->preempt_mask = (all + 1) << 1;
}

/* §8.4: what Trace Compass understands, from the kernel's report bits. */
uint64_t td_lttng_prev_state(const td_trace *t, uint64_t v)
{
	enum { S, D, T, t_, X, Z, P, I };
	if (v & t->preempt_mask)
		return 0;
	if (v & t->state_mask[D])
		return 2;
	if (v & t->state_mask[S])
		return 1;
	if (v & t->state_mask[I])
		return 2;
	if (v & t->state_mask[P])
		return 1;
	if (v & t->state_mask[T])
		return 4;
	if (v & t->state_mask[t_])
		return 8;
	if (v & (t->state_mask[X] | t->state_mask[Z]))
		return 64;
	return 0;
}

/* §8.3: the kernel's rwbs string as lttng-modules' bit mask.  A leading F
 * followed by an operation is a preflush; F after it is FUA. */
uint64_t td_lttng_rwbs(const char *s, size_t len)
{
	enum { WRITE = 1, DISCARD = 2, READ = 4, RAHEAD = 8, SYNC = 32, META = 64, SECURE = 128, FLUSH = 256,
	       FUA = 512, PREFLUSH = 1024 };
	uint64_t m = 0;
	size_t i = 0;
	if (len > 1 && s[0] == 'F' && strchr("WRDFN", s[1])) {
		m |= PREFLUSH;
		i = 1;
	}
	if (i < len) {
		switch (s[i]) {
		case 'W': m |= WRITE; i++; break;
		case 'R': m |= READ; i++; break;
		case 'D':
			m |= DISCARD;
			i++;
			if (i < len && s[i] == 'E') {
				m |= SECURE;
				i++;
			}
			break;
		case 'F': m |= FLUSH; i++; break;
		case 'N': i++; break;
		default: break;
		}
	}
	for (; i < len; i++) {
		switch (s[i]) {
		case 'F': m |= FUA; break;
		case 'A': m |= RAHEAD; break;
		case 'S': m |= SYNC; break;
		case 'M': m |= META; break;
		default: break;
		}
	}
	return m;
}

#define NR_COUNT (sizeof td_syscalls_x86_64 / sizeof td_syscalls_x86_64[0])

size_t td_lttng_extra_plans(void)
{
	return 2 * (NR_COUNT + 1);
}

/* RAW's plan and class without its "id" member. */
static int without_id(td_trace *t, const td_event_plan *raw, td_event_plan *out, const td_field_plan **nr_field)
{
	const tc_field_class *pc = raw->payload;
	size_t n = raw->field_count;
	td_field_plan *fields = tc_pool_alloc(&t->pool, (n ? n : 1) * sizeof *fields);
	tc_member *members = tc_pool_alloc(&t->pool, (n ? n : 1) * sizeof *members);
	tc_field_class *s = tc_pool_alloc(&t->pool, sizeof *s);
	if (!fields || !members || !s)
		return TC_ENOMEM;
	*s = *pc;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(pc->members[i].display_name, "id") == 0 && raw->fields[i].how == TD_INT) {
			*nr_field = &raw->fields[i];
			continue;
		}
		fields[k] = raw->fields[i];
		members[k++] = pc->members[i];
	}
	s->members = members;
	s->member_count = k;
	*out = *raw;
	out->fields = fields;
	out->field_count = k;
	out->payload = s;
	return 0;
}

static int add_virtual(td_trace *t, const td_event_plan *like, const char *prefix, const char *name, uint32_t *index)
{
	td_event_plan *p = &t->plans[t->plan_count];
	size_t len = strlen(prefix) + strlen(name) + 1;
	char *full = tc_pool_alloc(&t->pool, len);
	if (!full)
		return TC_ENOMEM;
	snprintf(full, len, "%s%s", prefix, name);
	*p = *like;
	p->name = full;
	/* no ftrace id: above every real one, unique in the stream class */
	p->id = 0x100000u + (uint32_t)t->plan_count;
	p->raw_syscall = 0;
	p->by_nr = NULL;
	*index = (uint32_t)++t->plan_count;
	return 0;
}

static int cmp_plan_name(const void *a, const void *b)
{
	return strcmp((*(const td_event_plan *const *)a)->name, (*(const td_event_plan *const *)b)->name);
}

/* Gives each plan from REAL on (the raw syscalls' plans by number) the
 * named event of its name, found once here rather than for every record. */
static int link_twins(td_trace *t, size_t real)
{
	const td_event_plan **named = malloc((real ? real : 1) * sizeof *named);
	if (!named)
		return tc_fail_nomem();
	size_t n = 0;
	for (size_t i = 0; i < real; i++)
		if (!t->plans[i].raw_syscall)
			named[n++] = &t->plans[i];
	qsort(named, n, sizeof *named, cmp_plan_name);
	for (size_t i = real; i < t->plan_count; i++) {
		const td_event_plan *key = &t->plans[i], **hit = bsearch(&key, named, n, sizeof *named, cmp_plan_name);
		t->plans[i].twin = hit ? (uint32_t)(*hit - t->plans) + 1 : 0;
	}
	free(named);
	return 0;
}

int td_lttng_add_syscalls(td_trace *t)
{
	const tracedat_meta *m = tracedat_meta_of(t->file);
	if (!strstr(m->uname, "x86_64"))
		return 0;   /* no table for other machines: the raw names stay */
	size_t real = t->plan_count;
	for (size_t i = 0; i < real; i++) {
		if (!t->plans[i].raw_syscall || !t->plans[i].payload)
			continue;
		td_event_plan named;
		const td_field_plan *nr = NULL;
		int rc = without_id(t, &t->plans[i], &named, &nr);
		if (rc < 0)
			return rc;
		if (!nr)
			continue;
		const char *prefix = t->plans[i].raw_syscall == 1 ? "syscall_entry_" : "syscall_exit_";
		uint32_t *by_nr = tc_pool_alloc(&t->pool, NR_COUNT * sizeof *by_nr);
		uint32_t unknown;
		if (!by_nr || (rc = add_virtual(t, &t->plans[i], prefix, "unknown", &unknown)) < 0)
			return rc < 0 ? rc : TC_ENOMEM;
		for (size_t k = 0; k < NR_COUNT; k++)
			if (td_syscalls_x86_64[k] && (rc = add_virtual(t, &named, prefix, td_syscalls_x86_64[k], &by_nr[k])) < 0)
				return rc;
		td_event_plan *raw = &t->plans[i];
		raw->nr_field = nr;
		raw->by_nr = by_nr;
		raw->nr_count = NR_COUNT;
		raw->unknown_plan = unknown;
	}
	return link_twins(t, real);
}

const td_event_plan *td_lttng_syscall_plan(const td_trace *t, const td_event_plan *plan, const uint8_t *payload)
{
	const td_field_plan *f = plan->nr_field;
	uint64_t nr = tracedat_read_uint(t->file, payload + f->offset, f->elem_size);
	uint32_t index = nr < plan->nr_count && plan->by_nr[nr] ? plan->by_nr[nr] : plan->unknown_plan;
	return &t->plans[index - 1];
}
