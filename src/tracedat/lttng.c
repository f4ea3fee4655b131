/*
 * lttng.c - trace.dat seen with LTTng's kernel conventions
 * (tc_open_options.lttng_names), the names and values Trace Compass's
 * kernel analyses look for (specs/lttng-conventions.md §3):
 *
 *   - events lose their subsystem as in ftrace, and lttng-modules'
 *     renames apply: softirq_* -> irq_softirq_*, hrtimer_* ->
 *     timer_hrtimer_*, mm_page_* -> kmem_mm_page_*, cpu_frequency ->
 *     power_cpu_frequency, syscalls' sys_enter_X / sys_exit_X ->
 *     syscall_entry_X / syscall_exit_X (without __syscall_nr), ...;
 *   - fields get one leading underscore (readers drop it), ftrace's pid
 *     fields of sched events are LTTng's tids, priorities lose 100,
 *     prev_state is re-encoded (§3.3) and block rwbs strings become
 *     LTTng's bit masks;
 *   - the event context is { _tid } from common_pid;
 *   - the environment claims lttng-modules 2.13 so that Trace Compass
 *     picks its newest event layout.
 *
 * classes.c asks here while it builds classes; stream.c applies the
 * value changes while it decodes.
 */
#include "tracedat/model.h"

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

/* §3.3: what Trace Compass understands, from the kernel's report bits. */
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

/* §3.2: the kernel's rwbs string as lttng-modules' bit mask.  A leading F
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
