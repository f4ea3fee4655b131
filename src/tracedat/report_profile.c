/* SPDX-License-Identifier: MIT */
/*
 * report_profile.c - `report --profile`: trace-cmd report's profile
 * (tracecmd/trace-profile.c), the same in trace-cmd 3.1.6 and 3.4.
 *
 * The records the report would show are not printed; each goes through
 * trace-cmd's accounting instead, and after "cpus=N" come the tasks by
 * pid, each with its events:
 *
 *   - Events are paired, a start with an end of the same task (or of the
 *     task a field names): sched_switch out with the wakeup of the task
 *     (blocked) or its next switch in (preempted), sched_wakeup with the
 *     switch in, irq_handler_entry/exit by "irq", softirq_raise/entry/exit
 *     by "vec", funcgraph_entry/exit by "func", raw_syscalls sys_enter/exit
 *     by "id".  A pair's time is the end's time minus the start's; a task
 *     sums the times of each (event, value) in an "event hash": count,
 *     total, average, largest and smallest with the time they ended.  The
 *     value is sched_switch's prev_state, the irq, vector, function or
 *     syscall number; for the other events (counted, not timed) the first
 *     field after the common ones.
 *   - A kernel_stack record after an event is added to that event's
 *     stacks (or to the pending start, for when its end comes); each
 *     event's stacks print as a tree of callers with their share of the
 *     time.
 *   - Lost events drop the pending starts of their CPU and those that may
 *     migrate.
 *   - Output: "\ntask: COMM-PID", then per event hash "  Event: TEXT
 *     (COUNT)" and, when timed, " Total: T Avg: A Max: M(ts:S.U)
 *     Min:M(ts:S.U)"; sched_switch first (by state), then the wakeups,
 *     then by event id and largest total.
 *
 * trace-cmd keeps its tables in hash tables whose keys mix in heap
 * addresses; where its output order depends on them (two event hashes
 * that sort equal), the order here is that of the values.  Records of
 * instance buffers make trace-cmd die ("Handle not found?"): the profile
 * only knows the top buffer's handle; the report fails the same way.
 * Not done: -G (global irq events), -H hooks, --by-comm.
 */
#include "tracedat/report_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum pe_type {
	PE_UNDEFINED,
	PE_STACK,
	PE_SCHED_SWITCH,
	PE_WAKEUP,
	PE_FUNC,
	PE_SYSCALL,
	PE_IRQ,
	PE_SOFTIRQ,
	PE_SOFTIRQ_RAISE,
	PE_PROCESS_EXEC,
};

enum pe_handler { PH_DEFAULT, PH_STACK, PH_SCHED_SWITCH, PH_WAKEUP, PH_FGRAPH_ENTRY, PH_FGRAPH_EXIT, PH_EXEC };
enum pe_print { PP_DEFAULT, PP_SCHED_SWITCH, PP_SOFTIRQ, PP_FUNC, PP_SYSCALL };

/* trace-cmd's event_data: how one event is accounted. */
typedef struct pe_data {
	int id;
	struct tep_event *event;
	struct pe_data *start, *end;
	struct tep_format_field *pid_field, *start_match_field, *end_match_field, *data_field;
	enum pe_type type;
	enum pe_handler handler;
	enum pe_print print;
	bool migrate;
} pe_data;

/* A kernel_stack record's caller array, kept past its record. */
typedef struct pe_stackrec {
	uint8_t *caller;
	size_t size;
	uint64_t ts;
} pe_stackrec;

typedef struct pe_start {
	pe_data *ed;
	uint64_t timestamp, search_val, val;
	int cpu;
	pe_stackrec *stack;
} pe_start;

typedef struct pe_stack {
	uint64_t key;
	uint64_t count, time, time_min, ts_min, time_max, ts_max;
	size_t size;
	uint8_t *caller;
} pe_stack;

typedef struct pe_ehash {
	pe_data *ed;
	uint64_t search_val, val;
	uint64_t count, time_total, time_max, ts_max, time_min, ts_min, last_time;
	pe_stack **stacks;
	size_t nstacks, capstacks;
} pe_ehash;

typedef struct pe_task pe_task;
struct pe_task {
	int pid;
	bool sleeping;
	char *comm;
	pe_start **starts;       /* pending, oldest first */
	size_t nstarts, capstarts;
	pe_ehash **events;
	size_t nevents, capevents;
	pe_task *proxy;
	pe_start *last_start;
	pe_ehash *last_event;
	pe_stackrec *last_stack;
};

struct rp_profile {
	pe_data *by_id[0x10000]; /* the last added of each id, as trace-cmd finds them */
	pe_data **all;           /* every one added, to free */
	size_t nall, capall;
	pe_data *stacktrace;
	struct tep_format_field *common_pid, *wakeup_comm, *switch_prev_comm, *switch_next_comm;
	pe_task **tasks;         /* open addressing by pid */
	size_t cap, count;
	int failed;
};

/* ------------------------------------------------------------------------
 * Output
 */

static uint64_t secs(uint64_t ts)
{
	return ts / 1000000000u;
}

/* (may be 1000000: trace-cmd rounds the fraction alone) */
static uint64_t usecs_of(uint64_t ts)
{
	return (ts % 1000000000u + 500) / 1000;
}

/* ------------------------------------------------------------------------
 * Tables
 */

static bool grow_array(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 8;
	void *p = realloc(*v, c * size);
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

static pe_task *find_task(rp *r, int pid)
{
	rp_profile *p = r->profile;
	if (p->count * 2 >= p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 1024;
		pe_task **t = calloc(cap, sizeof *t);
		if (!t) {
			p->failed = TC_ENOMEM;
			return NULL;
		}
		for (size_t i = 0; i < p->cap; i++) {
			if (!p->tasks[i])
				continue;
			size_t j = rp_trace_hash((uint32_t)p->tasks[i]->pid) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = p->tasks[i];
		}
		free(p->tasks);
		p->tasks = t;
		p->cap = cap;
	}
	size_t j = rp_trace_hash((uint32_t)pid) & (p->cap - 1);
	while (p->tasks[j] && p->tasks[j]->pid != pid)
		j = (j + 1) & (p->cap - 1);
	if (!p->tasks[j]) {
		pe_task *t = calloc(1, sizeof *t);
		if (!t) {
			p->failed = TC_ENOMEM;
			return NULL;
		}
		t->pid = pid;
		p->tasks[j] = t;
		p->count++;
	}
	return p->tasks[j];
}

static void free_stackrec(pe_stackrec *s)
{
	if (s) {
		free(s->caller);
		free(s);
	}
}

static pe_stackrec *copy_stack(rp *r, struct tep_record *rec)
{
	rp_profile *p = r->profile;
	int off = p->stacktrace->data_field->offset;
	pe_stackrec *s = calloc(1, sizeof *s);
	size_t size = rec->size > off ? (size_t)(rec->size - off) : 0;
	if (s && size && !(s->caller = malloc(size))) {
		free(s);
		s = NULL;
	}
	if (!s) {
		p->failed = TC_ENOMEM;
		return NULL;
	}
	if (size)
		memcpy(s->caller, (const uint8_t *)rec->data + off, size);
	s->size = size;
	s->ts = rec->ts;
	return s;
}

static pe_start *add_start(rp *r, pe_task *task, pe_data *ed, struct tep_record *rec, uint64_t search_val, uint64_t val)
{
	pe_start *s = calloc(1, sizeof *s);
	if (!s || !grow_array((void **)&task->starts, &task->capstarts, task->nstarts, sizeof *task->starts)) {
		free(s);
		r->profile->failed = TC_ENOMEM;
		return NULL;
	}
	*s = (pe_start){ .ed = ed, .timestamp = rec->ts, .search_val = search_val, .val = val, .cpu = rec->cpu };
	task->starts[task->nstarts++] = s;
	return s;
}

static void free_start(pe_task *task, size_t i)
{
	pe_start *s = task->starts[i];
	if (task->last_start == s)
		task->last_start = NULL;
	free_stackrec(s->stack);
	free(s);
	memmove(task->starts + i, task->starts + i + 1, (task->nstarts - i - 1) * sizeof *task->starts);
	task->nstarts--;
}

/* The newest pending start of ED for SEARCH_VAL (trace-cmd's hash
 * buckets put the newest first). */
static ssize_t find_start(pe_task *task, pe_data *ed, uint64_t search_val)
{
	for (size_t i = task->nstarts; i-- > 0;)
		if (task->starts[i]->ed == ed && task->starts[i]->search_val == search_val)
			return (ssize_t)i;
	return -1;
}

static pe_ehash *find_event_hash(rp *r, pe_task *task, pe_data *ed, uint64_t search_val, uint64_t val)
{
	for (size_t i = 0; i < task->nevents; i++) {
		pe_ehash *e = task->events[i];
		if (e->ed == ed && e->search_val == search_val && e->val == val)
			return e;
	}
	pe_ehash *e = calloc(1, sizeof *e);
	if (!e || !grow_array((void **)&task->events, &task->capevents, task->nevents, sizeof *task->events)) {
		free(e);
		r->profile->failed = TC_ENOMEM;
		return NULL;
	}
	e->ed = ed;
	e->search_val = search_val;
	e->val = val;
	task->events[task->nevents++] = e;
	return e;
}

static void add_event_stack(rp *r, pe_ehash *e, const uint8_t *caller, size_t size, uint64_t time, uint64_t ts)
{
	if (size < sizeof(int))
		return;
	uint64_t key = 0;
	for (size_t i = 0; i + sizeof(int) <= size; i += sizeof(int)) {
		uint32_t w;
		memcpy(&w, caller + i, sizeof w);
		key += rp_trace_hash(w);
	}
	pe_stack *st = NULL;
	for (size_t i = 0; i < e->nstacks && !st; i++)
		if (e->stacks[i]->key == key && e->stacks[i]->size == size && memcmp(e->stacks[i]->caller, caller, size) == 0)
			st = e->stacks[i];
	if (!st) {
		st = calloc(1, sizeof *st);
		if (!st || !(st->caller = malloc(size)) ||
		    !grow_array((void **)&e->stacks, &e->capstacks, e->nstacks, sizeof *e->stacks)) {
			if (st)
				free(st->caller);
			free(st);
			r->profile->failed = TC_ENOMEM;
			return;
		}
		memcpy(st->caller, caller, size);
		st->size = size;
		st->key = key;
		e->stacks[e->nstacks++] = st;
	}
	st->count++;
	st->time += time;
	if (st->count == 1 || time < st->time_min) {
		st->time_min = time;
		st->ts_min = ts;
	}
	if (time > st->time_max) {
		st->time_max = time;
		st->ts_max = ts;
	}
}

static pe_ehash *add_and_free_start(rp *r, pe_task *task, size_t si, uint64_t ts)
{
	pe_start *s = task->starts[si];
	int64_t delta = (int64_t)(ts - s->timestamp);
	/* (on a live trace, CPUs' clocks may disagree) */
	if (delta < 0)
		delta = 0;
	pe_ehash *e = find_event_hash(r, task, s->ed, s->search_val, s->val);
	if (!e)
		return NULL;
	e->count++;
	e->time_total += (uint64_t)delta;
	e->last_time = (uint64_t)delta;
	if ((uint64_t)delta > e->time_max) {
		e->time_max = (uint64_t)delta;
		e->ts_max = ts;
	}
	if (e->count == 1 || (uint64_t)delta < e->time_min) {
		e->time_min = (uint64_t)delta;
		e->ts_min = ts;
	}
	if (s->stack)
		add_event_stack(r, e, s->stack->caller, s->stack->size, (uint64_t)delta, s->stack->ts);
	free_start(task, si);
	return e;
}

static pe_ehash *find_and_update_start(rp *r, pe_task *task, pe_data *ed, uint64_t ts, uint64_t search_val)
{
	ssize_t i = ed ? find_start(task, ed, search_val) : -1;
	return i < 0 ? NULL : add_and_free_start(r, task, (size_t)i, ts);
}

static uint64_t read_field(struct tep_format_field *f, struct tep_record *rec, uint64_t dflt)
{
	unsigned long long v;
	return f && tep_read_number_field(f, rec->data, &v) == 0 ? v : dflt;
}

static void set_comm(pe_task *task, struct tep_format_field *f, struct tep_record *rec)
{
	if (!f || task->comm)
		return;
	task->comm = malloc((size_t)f->size + 1);
	if (!task->comm)
		return;
	memcpy(task->comm, (const char *)rec->data + f->offset, (size_t)f->size);
	task->comm[f->size] = '\0';
}

/* ------------------------------------------------------------------------
 * Accounting (trace-cmd's handlers)
 */

static pe_task *event_task(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	if (ed->pid_field)
		pid = read_field(ed->pid_field, rec, pid);
	return find_task(r, (int)pid);
}

static pe_task *handle_end(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	pe_task *task = event_task(r, ed, rec, pid);
	if (!task)
		return NULL;
	uint64_t val = read_field(ed->start_match_field, rec, 0);
	pe_ehash *e = find_and_update_start(r, task, ed->start, rec->ts, val);
	task->last_start = NULL;
	task->last_event = e;
	return task;
}

static pe_task *handle_start(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	pe_task *task = event_task(r, ed, rec, pid);
	if (!task)
		return NULL;
	uint64_t val = read_field(ed->end_match_field, rec, 0);
	pe_start *s = add_start(r, task, ed, rec, val, val);
	if (!s)
		return NULL;
	task->last_start = s;
	task->last_event = NULL;
	return task;
}

/* Events without starts: counted by their value. */
static void account_task(rp *r, pe_task *task, pe_data *ed, struct tep_record *rec)
{
	if (ed->pid_field) {
		pe_task *proxy = task;
		task = find_task(r, (int)read_field(ed->pid_field, rec, 0));
		if (!task)
			return;
		proxy->proxy = task;
	}
	uint64_t val = read_field(ed->data_field, rec, 0);
	pe_ehash *e = find_event_hash(r, task, ed, val, val);
	if (!e)
		return;
	e->count++;
	task->last_event = e;
}

static void handle_default(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	pe_task *task = NULL;
	if (ed->start)
		task = handle_end(r, ed, rec, pid);
	if (ed->end && !(task = handle_start(r, ed, rec, pid)))
		return;
	if (!task) {
		if (!(task = find_task(r, (int)pid)))
			return;
		task->proxy = NULL;
		task->last_start = NULL;
		task->last_event = NULL;
		account_task(r, task, ed, rec);
	}
}

static void handle_sched_switch(rp *r, pe_data *ed, struct tep_record *rec)
{
	rp_profile *p = r->profile;
	uint64_t prev_pid = read_field(ed->pid_field, rec, 0);
	/* only the real states */
	uint64_t prev_state = read_field(ed->data_field, rec, 0) & (1024 - 1);
	uint64_t next_pid = read_field(ed->end_match_field, rec, 0);
	pe_task *task = find_task(r, (int)prev_pid);
	if (!task)
		return;
	set_comm(task, p->switch_prev_comm, rec);
	task->sleeping = prev_state != 0;
	/* scheduled out; prev_state says why */
	task->last_start = add_start(r, task, ed, rec, prev_pid, prev_state);
	task->last_event = NULL;
	if (!(task = find_task(r, (int)next_pid)))
		return;
	set_comm(task, p->switch_next_comm, rec);
	/* blocked: ended by its wakeup; preempted: by its switch out */
	find_and_update_start(r, task, ed->start, rec->ts, next_pid);
	find_and_update_start(r, task, ed, rec->ts, next_pid);
}

static void handle_wakeup(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	pe_task *proxy = find_task(r, (int)pid);
	if (!proxy)
		return;
	if (ed->data_field && read_field(ed->data_field, rec, 1) == 0)
		return;
	pid = read_field(ed->pid_field, rec, pid);
	pe_task *task = find_task(r, (int)pid);
	if (!task)
		return;
	set_comm(task, r->profile->wakeup_comm, rec);
	if (!task->sleeping) {
		/* stack traces after it are nobody's */
		proxy->proxy = NULL;
		proxy->last_start = NULL;
		proxy->last_event = NULL;
		return;
	}
	task->sleeping = false;
	/* the stack trace goes to the woken task, not the waker */
	proxy->proxy = task;
	find_and_update_start(r, task, ed->start, rec->ts, pid);
	pe_start *s = add_start(r, task, ed, rec, pid, pid);
	task->last_event = NULL;
	task->last_start = s;
}

static void handle_stack(rp *r, struct tep_record *rec, uint64_t pid)
{
	pe_task *task = find_task(r, (int)pid), *orig = NULL, *proxy;
	/* (copied before the old one goes, so that it is not at its address:
	 * rp_profile_record() tells them apart by it) */
	pe_stackrec *s = task ? copy_stack(r, rec) : NULL;
	if (!s)
		return;
	free_stackrec(task->last_stack);
	task->last_stack = NULL;
	if ((proxy = task->proxy)) {
		task->proxy = NULL;
		orig = task;
		task = proxy;
	}
	if (!task->last_start && !task->last_event) {
		/* kept for a function graph entry: the task's own */
		if (proxy)
			task = orig;
		task->last_stack = s;
		return;
	}
	if (task->last_start) {
		free_stackrec(task->last_start->stack);
		task->last_start->stack = s;
		task->last_start = NULL;
		task->last_event = NULL;
		return;
	}
	pe_ehash *e = task->last_event;
	task->last_event = NULL;
	add_event_stack(r, e, s->caller, s->size, e->last_time, s->ts);
	free_stackrec(s);
}

static void handle_fgraph_entry(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	pe_task *task = handle_start(r, ed, rec, pid);
	if (!task)
		return;
	/* stack traces come before the function graph entry they belong to */
	if (task->last_stack) {
		free_stackrec(task->last_start->stack);
		task->last_start->stack = task->last_stack;
		task->last_stack = NULL;
		task->last_event = NULL;
	}
	task->last_start = NULL;
}

static void handle_exec(rp *r, pe_data *ed, struct tep_record *rec, uint64_t pid)
{
	pe_task *task = find_task(r, (int)read_field(ed->data_field, rec, pid));
	if (!task)
		return;
	free(task->comm);
	task->comm = NULL;
}

int rp_profile_record(rp *r, struct tep_record *rec, bool top)
{
	rp_profile *p = r->profile;
	if (!top)
		return tc_fail(TC_EUNSUPPORTED, r->m->path, -1,
		               "the profile reads the top buffer only (trace-cmd: \"Handle not found?\")");
	if (rec->missed_events) {
		/* drop the starts of this CPU and those that may migrate */
		for (size_t t = 0; t < p->cap; t++) {
			pe_task *task = p->tasks[t];
			for (size_t i = task ? task->nstarts : 0; i-- > 0;)
				if (task->starts[i]->ed->migrate || task->starts[i]->cpu == rec->cpu)
					free_start(task, i);
		}
	}
	int id = tep_data_type(r->tep, rec);
	pe_data *ed = id >= 0 && id < 0x10000 ? p->by_id[id] : NULL;
	if (!ed)
		return 0;
	uint64_t pid = read_field(p->common_pid, rec, 0);
	pe_task *task = find_task(r, (int)pid);
	if (!task)
		return p->failed;
	pe_stackrec *stack = task->last_stack;
	switch (ed->handler) {
	case PH_STACK:
		handle_stack(r, rec, pid);
		break;
	case PH_SCHED_SWITCH:
		handle_sched_switch(r, ed, rec);
		break;
	case PH_WAKEUP:
		handle_wakeup(r, ed, rec, pid);
		break;
	case PH_FGRAPH_ENTRY:
		handle_fgraph_entry(r, ed, rec, pid);
		break;
	case PH_FGRAPH_EXIT:
		if ((task = handle_end(r, ed, rec, pid)))
			task->last_event = NULL;   /* no stacks for exits */
		break;
	case PH_EXEC:
		handle_exec(r, ed, rec, pid);
		break;
	case PH_DEFAULT:
		handle_default(r, ed, rec, pid);
		break;
	}
	/* a stack trace nothing took is dropped at the task's next event */
	task = find_task(r, (int)pid);
	if (stack && task && task->last_stack == stack) {
		free_stackrec(stack);
		task->last_stack = NULL;
	}
	return p->failed;
}

/* ------------------------------------------------------------------------
 * Set-up (trace_init_profile())
 */

static pe_data *add_event(rp *r, const char *system, const char *name, enum pe_type type)
{
	rp_profile *p = r->profile;
	struct tep_event *ev = tep_find_event_by_name(r->tep, system, name);
	if (!ev || ev->id < 0 || ev->id >= 0x10000)
		return NULL;
	if (!p->common_pid && !(p->common_pid = tep_find_common_field(ev, "common_pid"))) {
		p->failed = tc_fail(TC_EFORMAT, r->m->path, -1, "No 'common_pid' found in event");
		return NULL;
	}
	pe_data *ed = calloc(1, sizeof *ed);
	if (!ed || !grow_array((void **)&p->all, &p->capall, p->nall, sizeof *p->all)) {
		free(ed);
		p->failed = TC_ENOMEM;
		return NULL;
	}
	p->all[p->nall++] = ed;
	ed->id = ev->id;
	ed->event = ev;
	ed->type = type;
	p->by_id[ev->id] = ed;
	return ed;
}

static int mate(rp *r, pe_data *start, const char *pid_field, const char *end_match, pe_data *end, const char *start_match,
                bool migrate)
{
	start->end = end;
	end->start = start;
	if (pid_field && !(start->pid_field = tep_find_field(start->event, pid_field)))
		return tc_fail(TC_EFORMAT, r->m->path, -1, "Event: %s does not have field %s", start->event->name, pid_field);
	if (!(start->end_match_field = tep_find_field(start->event, end_match)))
		return tc_fail(TC_EFORMAT, r->m->path, -1, "Event: %s does not have field %s", start->event->name, end_match);
	if (!(end->start_match_field = tep_find_field(end->event, start_match)))
		return tc_fail(TC_EFORMAT, r->m->path, -1, "Event: %s does not have field %s", end->event->name, start_match);
	start->migrate = end->migrate = migrate;
	return 0;
}

static int need_field(rp *r, pe_data *ed, const char *name, struct tep_format_field **out)
{
	if ((*out = tep_find_field(ed->event, name)))
		return 0;
	return tc_fail(TC_EFORMAT, r->m->path, -1, "Event: %s does not have field %s", ed->event->name, name);
}

int rp_profile_init(rp *r)
{
	rp_parse_all_formats(r);
	rp_need_symbols(r);
	rp_profile *p = calloc(1, sizeof *p);
	if (!p)
		return tc_fail_nomem();
	r->profile = p;
	pe_data *irq_entry = add_event(r, "irq", "irq_handler_entry", PE_IRQ);
	pe_data *irq_exit = add_event(r, "irq", "irq_handler_exit", PE_IRQ);
	pe_data *softirq_entry = add_event(r, "irq", "softirq_entry", PE_SOFTIRQ);
	pe_data *softirq_exit = add_event(r, "irq", "softirq_exit", PE_SOFTIRQ);
	pe_data *softirq_raise = add_event(r, "irq", "softirq_raise", PE_SOFTIRQ_RAISE);
	pe_data *wakeup = add_event(r, "sched", "sched_wakeup", PE_WAKEUP);
	pe_data *sw = add_event(r, "sched", "sched_switch", PE_SCHED_SWITCH);
	pe_data *fg_entry = add_event(r, "ftrace", "funcgraph_entry", PE_FUNC);
	pe_data *fg_exit = add_event(r, "ftrace", "funcgraph_exit", PE_FUNC);
	pe_data *sys_enter = add_event(r, "raw_syscalls", "sys_enter", PE_SYSCALL);
	pe_data *sys_exit = add_event(r, "raw_syscalls", "sys_exit", PE_SYSCALL);
	pe_data *exec = add_event(r, "sched", "sched_process_exec", PE_PROCESS_EXEC);
	int rc;
	if ((p->stacktrace = add_event(r, "ftrace", "kernel_stack", PE_STACK))) {
		p->stacktrace->handler = PH_STACK;
		if ((rc = need_field(r, p->stacktrace, "caller", &p->stacktrace->data_field)) < 0)
			return rc;
	}
	if (exec) {
		exec->handler = PH_EXEC;
		exec->data_field = tep_find_field(exec->event, "old_pid");
	}
	if (sw) {
		sw->handler = PH_SCHED_SWITCH;
		sw->print = PP_SCHED_SWITCH;
		if ((rc = need_field(r, sw, "prev_state", &sw->data_field)) < 0 ||
		    (rc = need_field(r, sw, "prev_comm", &p->switch_prev_comm)) < 0 ||
		    (rc = need_field(r, sw, "next_comm", &p->switch_next_comm)) < 0)
			return rc;
	}
	if (sw && wakeup) {
		if ((rc = mate(r, sw, "prev_pid", "next_pid", wakeup, "pid", true)) < 0 ||
		    (rc = mate(r, wakeup, "pid", "pid", sw, "prev_pid", true)) < 0)
			return rc;
		wakeup->handler = PH_WAKEUP;
		/* ("success" is in older kernels' format only) */
		wakeup->data_field = tep_find_field(wakeup->event, "success");
		if ((rc = need_field(r, wakeup, "comm", &p->wakeup_comm)) < 0)
			return rc;
	}
	if (irq_entry && irq_exit && (rc = mate(r, irq_entry, NULL, "irq", irq_exit, "irq", false)) < 0)
		return rc;
	if (softirq_entry)
		softirq_entry->print = PP_SOFTIRQ;
	if (softirq_exit)
		softirq_exit->print = PP_SOFTIRQ;
	if (softirq_raise)
		softirq_raise->print = PP_SOFTIRQ;
	if (softirq_entry && softirq_exit && (rc = mate(r, softirq_entry, NULL, "vec", softirq_exit, "vec", false)) < 0)
		return rc;
	if (softirq_entry && softirq_raise && (rc = mate(r, softirq_raise, NULL, "vec", softirq_entry, "vec", false)) < 0)
		return rc;
	if (fg_entry && fg_exit) {
		if ((rc = mate(r, fg_entry, NULL, "func", fg_exit, "func", true)) < 0)
			return rc;
		fg_entry->handler = PH_FGRAPH_ENTRY;
		fg_exit->handler = PH_FGRAPH_EXIT;
		fg_entry->print = PP_FUNC;
	}
	if (sys_enter && sys_exit) {
		if ((rc = mate(r, sys_enter, NULL, "id", sys_exit, "id", true)) < 0)
			return rc;
		sys_enter->print = sys_exit->print = PP_SYSCALL;
	}
	pe_data *func = add_event(r, "ftrace", "function", PE_FUNC);
	if (func)
		func->data_field = tep_find_field(func->event, "ip");
	/* every other event: counted by its first field */
	struct tep_event **events = tep_list_events(r->tep, TEP_EVENT_SORT_ID);
	for (size_t i = 0; events && events[i]; i++) {
		if (events[i]->id < 0 || events[i]->id >= 0x10000 || p->by_id[events[i]->id])
			continue;
		pe_data *ed = add_event(r, events[i]->system, events[i]->name, PE_UNDEFINED);
		struct tep_format_field **fields = tep_event_fields(events[i]);
		if (ed && fields && fields[0])
			ed->data_field = fields[0];
		free(fields);
	}
	return p->failed;
}

/* ------------------------------------------------------------------------
 * Stacks as trees of callers (output_stacks())
 */

typedef struct pe_chain {
	struct pe_chain *children;
	uint64_t val, time, time_min, ts_min, time_max, ts_max, time_avg, count;
	int percent, nr_children;
} pe_chain;

static int cmp_chains(const void *a, const void *b)
{
	const pe_chain *x = a, *y = b;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return 0;
}

static bool overflows(const pe_stack *s, int longsize, int level)
{
	return (long)longsize * level > (long)s->size - longsize;
}

static uint64_t stack_value(const pe_stack *s, int longsize, int level)
{
	const uint8_t *ptr = s->caller + (size_t)longsize * (size_t)level;
	if (longsize == 8) {
		uint64_t v;
		memcpy(&v, ptr, 8);
		return v;
	}
	uint32_t v;
	memcpy(&v, ptr, 4);
	return v;
}

static pe_chain *make_chain(pe_stack **stacks, int cnt, int longsize, int level, int *nr_children)
{
	uint64_t stop = longsize < 8 ? (1ULL << (longsize * 8)) - 1 : UINT64_MAX;
	uint64_t last = 0, total_time = 0, total_count = 0;
	int nr = 0;
	for (int i = 0; i < cnt; i++) {
		if (overflows(stacks[i], longsize, level))
			continue;
		uint64_t val = stack_value(stacks[i], longsize, level);
		if (val == stop)
			continue;
		if (!nr || val != last)
			nr++;
		last = val;
	}
	*nr_children = 0;
	if (!nr)
		return NULL;
	pe_chain *chain = calloc((size_t)nr, sizeof *chain);
	if (!chain)
		return NULL;
	int x = 0, start = 0;
	uint64_t count = 0, time = 0, time_min = 0, time_max = 0, ts_min = 0, ts_max = 0;
	for (int i = 0; i < cnt; i++) {
		if (overflows(stacks[i], longsize, level)) {
			start = i + 1;
			continue;
		}
		uint64_t val = stack_value(stacks[i], longsize, level);
		if (val == stop) {
			start = i + 1;
			continue;
		}
		count += stacks[i]->count;
		time += stacks[i]->time;
		if (stacks[i]->time_max > time_max) {
			time_max = stacks[i]->time_max;
			ts_max = stacks[i]->ts_max;
		}
		if (i == start || stacks[i]->time_min < time_min) {
			time_min = stacks[i]->time_min;
			ts_min = stacks[i]->ts_min;
		}
		if (i == cnt - 1 || overflows(stacks[i + 1], longsize, level) || val != stack_value(stacks[i + 1], longsize, level)) {
			total_time += time;
			total_count += count;
			chain[x] = (pe_chain){ .val = val, .time_avg = count ? time / count : 0, .count = count, .time = time,
			                       .time_min = time_min, .ts_min = ts_min, .time_max = time_max, .ts_max = ts_max };
			chain[x].children = make_chain(&stacks[start], i - start + 1, longsize, level + 1, &chain[x].nr_children);
			x++;
			start = i + 1;
			count = time = time_min = time_max = 0;
		}
	}
	qsort(chain, (size_t)nr, sizeof *chain, cmp_chains);
	*nr_children = nr;
	for (int i = 0; i < nr; i++) {
		if (total_time)
			chain[i].percent = (int)((chain[i].time * 100 + total_time / 2) / total_time);
		else if (total_count)
			chain[i].percent = (int)((chain[i].count * 100 + total_count / 2) / total_count);
	}
	return chain;
}

static void free_chain(pe_chain *chain, int n)
{
	if (!chain)
		return;
	for (int i = 0; i < n; i++)
		free_chain(chain[i].children, chain[i].nr_children);
	free(chain);
}

#define INDENT 5

static void print_indent(rp *r, int level, uint64_t mask)
{
	for (int p = 0; p < level + 1; p++)
		rp_printf(r, "%*c ", INDENT, mask & (1ULL << p) ? '|' : ' ');
}

static void print_chain_func(rp *r, const pe_chain *c)
{
	const char *func = tep_find_function(r->tep, c->val);
	if (func)
		rp_printf(r, "%s (0x%" PRIx64 ")\n", func, c->val);
	else
		rp_printf(r, "0x%" PRIx64 "\n", c->val);
}

static void output_chain(rp *r, pe_chain *chain, int level, int nr, uint64_t *mask)
{
	char line = '|';
	if (!nr)
		return;
	*mask |= 1ULL << (level + 1);
	print_indent(r, level + 1, *mask);
	rp_printf(r, "\n");
	for (int i = 0; i < nr; i++) {
		print_indent(r, level, *mask);
		rp_printf(r, "%*c ", INDENT, '+');
		if (i == nr - 1) {
			*mask &= ~(1ULL << (level + 1));
			line = ' ';
		}
		print_chain_func(r, &chain[i]);
		print_indent(r, level, *mask);
		rp_printf(r, "%*c ", INDENT, line);
		rp_printf(r, "  %d%% (%" PRId64 ")", chain[i].percent, (int64_t)chain[i].count);
		if (chain[i].time)
			rp_printf(r, " time:%" PRId64 " max:%" PRId64 "(ts:%" PRId64 ".%06" PRId64 ") min:%" PRId64 "(ts:%" PRId64 ".%06" PRId64 ") avg:%" PRId64,
			   (int64_t)chain[i].time, (int64_t)chain[i].time_max, (int64_t)secs(chain[i].ts_max),
			   (int64_t)usecs_of(chain[i].ts_max), (int64_t)chain[i].time_min, (int64_t)secs(chain[i].ts_min),
			   (int64_t)usecs_of(chain[i].ts_min), (int64_t)chain[i].time_avg);
		rp_printf(r, "\n");
		pe_chain *child = chain[i].children;
		int n = chain[i].nr_children;
		for (; child && n == 1; n = child->nr_children, child = child->children) {
			print_indent(r, level, *mask);
			rp_printf(r, "%*c ", INDENT, line);
			rp_printf(r, "   ");
			print_chain_func(r, child);
		}
		if (child)
			output_chain(r, child, level + 1, n, mask);
		print_indent(r, level + 1, *mask);
		rp_printf(r, "\n");
	}
	*mask &= ~(1ULL << (level + 1));
	print_indent(r, level, *mask);
	rp_printf(r, "\n");
}

static int cmp_stacks(const void *a, const void *b)
{
	const pe_stack *x = *(pe_stack *const *)a, *y = *(pe_stack *const *)b;
	size_t size = x->size < y->size ? x->size : y->size;
	for (size_t i = 0; i + 4 <= size; i += 4) {
		uint32_t sa, sb;
		memcpy(&sa, x->caller + i, 4);
		memcpy(&sb, y->caller + i, 4);
		if (sa != sb)
			return sa > sb ? 1 : -1;
	}
	return x->size > y->size ? 1 : x->size < y->size ? -1 : 0;
}

static void output_stacks(rp *r, pe_ehash *e)
{
	if (!e->nstacks)
		return;
	int longsize = tep_get_long_size(r->tep);
	qsort(e->stacks, e->nstacks, sizeof *e->stacks, cmp_stacks);
	int nr;
	pe_chain *chain = make_chain(e->stacks, (int)e->nstacks, longsize == 4 ? 4 : 8, 0, &nr);
	uint64_t mask = 0;
	output_chain(r, chain, 0, nr, &mask);
	free_chain(chain, nr);
}

/* ------------------------------------------------------------------------
 * Output (output_task(), output_event())
 */

static const char *const softirqs[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "BLOCK_IOPOLL", "TASKLET", "SCHED", "HRTIMER", "RCU" };

static void event_text(rp *r, const pe_ehash *e)
{
	const pe_data *ed = e->ed;
	const char *name = ed->event->name;
	switch (ed->print) {
	case PP_SCHED_SWITCH: {
		/* the states' letters; a bit past them is a NUL that ends the text */
		static const char states[] = "RSDTtXZxKWP";
		rp_printf(r, "%s:", name);
		int val = (int)e->val;
		if (!val) {
			rp_putc(r, 'R');
			break;
		}
		for (size_t i = 0; val && i < sizeof states - 1; i++, val >>= 1) {
			if (!(val & 1))
				continue;
			if (!states[i + 1])
				return;
			rp_putc(r, states[i + 1]);
		}
		break;
	}
	case PP_SOFTIRQ: {
		int v = (int)e->val;
		if (v >= 0 && v < (int)(sizeof softirqs / sizeof *softirqs))
			rp_printf(r, "%s:%s", name, softirqs[v]);
		else
			rp_printf(r, "%s:%d", name, v);
		break;
	}
	case PP_SYSCALL:
		/* (Debian's trace-cmd is built without libaudit's names) */
		rp_printf(r, "%s:%d", name, (int)e->val);
		break;
	case PP_FUNC:
	case PP_DEFAULT:
		if (ed->print == PP_FUNC || ed->type == PE_FUNC) {
			const char *func = tep_find_function(r->tep, e->val);
			if (func)
				rp_printf(r, "func: %s()", func);
			else
				rp_printf(r, "func: 0x%" PRIx64, e->val);
		} else {
			rp_printf(r, "%s:0x%" PRIx64, name, e->val);
		}
		break;
	}
}

static int cmp_events(const void *a, const void *b)
{
	const pe_ehash *x = *(pe_ehash *const *)a, *y = *(pe_ehash *const *)b;
	enum pe_type tx = x->ed->type, ty = y->ed->type;
	if (tx == PE_SCHED_SWITCH || ty == PE_SCHED_SWITCH) {
		if (tx != ty)
			return tx == PE_SCHED_SWITCH ? -1 : 1;
		return x->val > y->val ? 1 : x->val < y->val ? -1 : 0;
	}
	if (tx == PE_WAKEUP || ty == PE_WAKEUP) {
		if (tx != ty)
			return tx == PE_WAKEUP ? -1 : 1;
		return x->val > y->val ? 1 : x->val < y->val ? -1 : 0;
	}
	if (x->ed->id != y->ed->id)
		return x->ed->id > y->ed->id ? 1 : -1;
	if (x->time_total != y->time_total)
		return x->time_total > y->time_total ? -1 : 1;
	/* trace-cmd: hash order, which heap addresses decide */
	return x->val > y->val ? 1 : x->val < y->val ? -1 : 0;
}

static void output_event(rp *r, pe_ehash *e)
{
	rp_printf(r, "  Event: ");
	size_t start = r->text.len;
	event_text(r, e);
	/* ("%s": up to a NUL) */
	char *nul = r->write_error ? NULL : memchr(r->text.data + start, '\0', r->text.len - start);
	if (nul)
		r->text.len = (size_t)(nul - r->text.data);
	rp_printf(r, " (%" PRId64 ")", (int64_t)e->count);
	if (e->time_total)
		rp_printf(r, " Total: %" PRId64 " Avg: %" PRId64 " Max: %" PRId64 "(ts:%" PRId64 ".%06" PRId64 ") Min:%" PRId64 "(ts:%" PRId64 ".%06" PRId64 ")",
		   (int64_t)e->time_total, (int64_t)(e->time_total / e->count), (int64_t)e->time_max, (int64_t)secs(e->ts_max),
		   (int64_t)usecs_of(e->ts_max), (int64_t)e->time_min, (int64_t)secs(e->ts_min), (int64_t)usecs_of(e->ts_min));
	rp_printf(r, "\n");
	output_stacks(r, e);
	if (r->text.len >= RP_FLUSH_AT)
		rp_flush(r);
}

static int cmp_tasks(const void *a, const void *b)
{
	const pe_task *x = *(pe_task *const *)a, *y = *(pe_task *const *)b;
	return x->pid > y->pid ? 1 : x->pid < y->pid ? -1 : 0;
}

int rp_profile_finish(rp *r)
{
	rp_profile *p = r->profile;
	pe_task **tasks = malloc((p->count ? p->count : 1) * sizeof *tasks);
	if (!tasks)
		return tc_fail_nomem();
	size_t n = 0;
	for (size_t i = 0; i < p->cap; i++)
		if (p->tasks[i])
			tasks[n++] = p->tasks[i];
	qsort(tasks, n, sizeof *tasks, cmp_tasks);
	for (size_t i = 0; i < n && !r->write_error; i++) {
		pe_task *t = tasks[i];
		const char *comm = t->comm ? t->comm : tep_data_comm_from_pid(r->tep, t->pid);
		rp_printf(r, "\ntask: %s-%d\n", comm, t->pid);
		if (t->nevents)
			qsort(t->events, t->nevents, sizeof *t->events, cmp_events);
		for (size_t j = 0; j < t->nevents; j++)
			output_event(r, t->events[j]);
	}
	free(tasks);
	return r->write_error;
}

void rp_profile_free(rp *r)
{
	rp_profile *p = r->profile;
	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++) {
		pe_task *t = p->tasks[i];
		if (!t)
			continue;
		for (size_t j = 0; j < t->nstarts; j++) {
			free_stackrec(t->starts[j]->stack);
			free(t->starts[j]);
		}
		for (size_t j = 0; j < t->nevents; j++) {
			for (size_t k = 0; k < t->events[j]->nstacks; k++) {
				free(t->events[j]->stacks[k]->caller);
				free(t->events[j]->stacks[k]);
			}
			free(t->events[j]->stacks);
			free(t->events[j]);
		}
		free_stackrec(t->last_stack);
		free(t->starts);
		free(t->events);
		free(t->comm);
		free(t);
	}
	free(p->tasks);
	for (size_t i = 0; i < p->nall; i++)
		free(p->all[i]);
	free(p->all);
	free(p);
	r->profile = NULL;
}
