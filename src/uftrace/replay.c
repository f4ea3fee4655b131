/* SPDX-License-Identifier: MIT */
/*
 * replay.c - `uftrace replay`'s text, byte for byte
 * (doc/formats/uftrace.md §9).
 *
 * uftrace walks the merged records with per-task counters that it keeps
 * even where they go wrong (fork children, exec, longjmp, lost records),
 * merges a function's entry and exit into one line when the exit is the
 * very next visible record, and prints what its counters say.  This file
 * follows that state machine step by step (sections of
 * doc/formats/uftrace.md): accounting (§9.4) for every record, printing
 * (§9.5) for the visible ones, the trailer of functions that never
 * returned (§9.8).  Records are read as the merge yields them; only the
 * few looked ahead of the cursor are kept.
 */
#include "uftrace/uftrace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FLAG_EXEC = 1, FLAG_LONGJMP = 2 };
/* what the function filters decided for a frame (uftrace's fstack flags) */
enum { FF_FILTERED = 1, FF_NOTRACE = 2, FF_NORECORD = 4 };

typedef struct slot {
	uint64_t addr, t;
	bool valid;
	bool sched;                /* a sched-out pseudo-frame */
	uint8_t flags;
	uint8_t fflags;
	int orig_depth;            /* the depth budget before this frame */
} slot;

typedef struct rtask {
	int sc, user;
	slot *slots;               /* max_stack + 1 of them */
	int disp;
	bool disp_set, started, lost_pending;
	int fork_disp;
	uint64_t last_time;        /* of its previous line (-f delta) */
	/* -f task: the name a perf COMM record (linux:task-name) gave the
	 * task, when one did; its executable's name before */
	char comm[16];
	bool renamed;
	/* -F / -N / -D: frames inside an -F function, inside an -N one,
	 * and how many more levels may be shown */
	int in_count, out_count, depth_left;
	int column;                /* --column-view: its column, -1 until its first line */
	bool preempted;            /* --no-sched-preempt: its sched-in is hidden too */
} rtask;

typedef struct item {
	uft_record r;
	bool consumed;
} item;

typedef struct replay {
	uft_data *d;
	uft_merge *merge;
	const tc_replay_options *o;
	rtask *tasks;              /* by uft_task.index */
	item *ring;                /* records pulled from the merge, not yet walked; cap a power of two */
	size_t cap, head, count;
	bool merge_done;
	int setjmp_disp, setjmp_sc;
	uint64_t prev_time;
	FILE *out;
	tc_buf line;
	tc_buf args;               /* an entry's argument text */
	bool filtering;            /* -F, -N, -C, -H, -T or -D in effect */
	uft_rules *rules;          /* -F, -N, -C, -H and -T; NULL: none */
	bool filter_in;            /* some -F names a function: show only inside them */
	bool enabled;              /* not stopped by a trace_off trigger (uftrace's fstack_enabled) */
	bool no_sched;             /* sched events hidden: -C hides them, as uftrace does */
	int prev_tid;              /* --task-newline: the task of the last line; 0 none yet */
	int next_column;           /* --column-view: the next task's column */
	int flat_count;            /* --flat: the next line's number */
	const char *indent_color;  /* --color: the next line's indentation's colour */
	int fields[8];             /* -f */
	size_t field_count;
	uint64_t first_time;       /* of the first record (-f elapsed) */
	uint64_t time_filter;      /* -t, or the recording's default.opts */
	bool have_first;
	/* -f tid's digits: the one difference between uftrace 0.13's and
	 * 0.19's text (set from tc_compat in tc_uftrace_replay()) */
	int tid_width;
} replay;

static rtask *rt(replay *p, const uft_task *t)
{
	return &p->tasks[t->index];
}

/* The Ith record after the cursor, pulling from the merge; NULL at the end. */
static item *peek(replay *p, size_t i, int *err)
{
	while (i >= p->count) {
		if (p->merge_done)
			return NULL;
		if (p->count == p->cap) {
			size_t cap = p->cap ? p->cap * 2 : 64;
			item *ring = malloc(cap * sizeof *ring);
			if (!ring) {
				*err = tc_fail_nomem();
				return NULL;
			}
			for (size_t k = 0; k < p->count; k++)
				ring[k] = p->ring[(p->head + k) & (p->cap - 1)];
			free(p->ring);
			p->ring = ring;
			p->cap = cap;
			p->head = 0;
		}
		item *it = &p->ring[(p->head + p->count) & (p->cap - 1)];
		int rc = uft_merge_next(p->merge, &it->r);
		if (rc < 0) {
			*err = rc;
			return NULL;
		}
		if (rc == 0) {
			p->merge_done = true;
			return NULL;
		}
		it->consumed = false;
		/* -f elapsed counts from here: recordings show uftrace
		 * starting at the first user record or sched-in, whichever
		 * comes first, other perf events counting only when a time
		 * filter is in effect (it then reads perf events apart) */
		if (!p->have_first && (!it->r.from_perf || it->r.addr == UFT_EV_SCHED_IN || p->time_filter)) {
			p->first_time = it->r.time;
			p->have_first = true;
		}
		p->count++;
	}
	return &p->ring[(p->head + i) & (p->cap - 1)];
}

static void pop(replay *p)
{
	p->head = (p->head + 1) & (p->cap - 1);
	p->count--;
}

static bool is_sched(const uft_record *r)
{
	return r->from_perf && (r->addr == UFT_EV_SCHED_IN || r->addr == UFT_EV_SCHED_OUT || r->addr == UFT_EV_SCHED_OUT_PREEMPT);
}

/* Accounting, §9.4 */
static void consume(replay *p, item *it)
{
	it->consumed = true;
	const uft_record *r = &it->r;
	bool sched = is_sched(r);
	/* uftrace renames the task as it reads the record, so that the
	 * linux:task-name line already shows the new name */
	if (r->from_perf && r->addr == UFT_EV_TASK_NAME && r->comm && r->task) {
		rtask *t = rt(p, r->task);
		snprintf(t->comm, sizeof t->comm, "%s", r->comm);
		t->renamed = true;
	}
	if (r->type == UFT_EVENT && !sched)
		return;
	rtask *t = rt(p, r->task);
	int type = sched ? (r->addr == UFT_EV_SCHED_IN ? UFT_EXIT : UFT_ENTRY) : r->type;
	int depth = sched ? 0 : r->depth;
	int max = (int)p->d->max_stack;
	if (!t->started) {
		t->sc = depth + (type == UFT_EXIT);
		for (int i = 0; i < t->sc && i <= max; i++) {
			t->slots[i].t = r->time;
			t->slots[i].valid = true;
		}
		t->started = true;
		uft_task *parent = r->task->ppid ? uft_task_by_tid(p->d, r->task->ppid) : NULL;
		if (parent && rt(p, parent)->fork_disp) {
			t->disp = rt(p, parent)->fork_disp;
			t->disp_set = true;
		}
	}
	if (t->lost_pending && type != UFT_LOST) {
		t->sc = depth + (type == UFT_EXIT);
		t->lost_pending = false;
		for (int i = 0; i <= depth && i + t->user <= max; i++)
			t->slots[i + t->user].t = r->time - 1;
	}
	if (!(t->lost_pending && type == UFT_LOST)) {
		if (type == UFT_ENTRY) {
			if (t->sc <= max)
				t->slots[t->sc] = (slot){ .addr = r->addr, .t = r->time, .valid = true, .sched = sched,
				                          .orig_depth = t->depth_left };
		} else if (type == UFT_EXIT) {
			if (t->sc >= 1 && t->sc - 1 <= max) {
				slot *s = &t->slots[t->sc - 1];
				s->t = s->valid ? r->time - s->t : 0;
				s->valid = false;
			}
		} else if (type == UFT_LOST) {
			t->lost_pending = true;
			t->disp_set = false;
			uint64_t l = 0;
			for (int i = t->sc < max ? t->sc : max; i >= t->user; i--) {
				if (i == (t->sc < max ? t->sc : max))
					l = t->slots[i].t + 1;
				t->slots[i].t = l - t->slots[i].t;
			}
		}
	}
	if (type == UFT_ENTRY)
		t->sc++;
	else if (type == UFT_EXIT && t->sc > 0)
		t->sc--;
	if (!sched && r->type == UFT_ENTRY)
		t->user++;
	else if (!sched && r->type == UFT_EXIT && t->user > 0)
		t->user--;
}

/* ---- -F, -N, -C, -H, -T and -D (uftrace's fstack filters) ---- */

/* R's address resolved into *PL: PL, or NULL when nothing covers it. */
static const uft_place *resolve(replay *p, const uft_record *r, uft_place *pl)
{
	return uft_resolve(p->d, r->task, r->time, r->addr, pl, NULL) ? pl : NULL;
}

/* What the rules set on R's function, into *TR (zeroed when none). */
static void rules_of(replay *p, const uft_record *r, uft_trigger *tr)
{
	if (!p->rules) {
		memset(tr, 0, sizeof *tr);
		return;
	}
	char buf[64];
	uft_place place;
	uft_rules_match(p->rules, uft_place_name(resolve(p, r, &place), r->addr, buf, sizeof buf), tr);
}

/* The read filters' question (uft_read_filter.match): R's triggers and
 * its symbol's size. */
static void read_match(void *arg, const uft_record *r, uft_trigger *tr, uint64_t *sym_size)
{
	replay *p = arg;
	char buf[64];
	uft_place place;
	const uft_place *pl = resolve(p, r, &place);
	*sym_size = pl ? pl->sym->size : UINT64_MAX;
	if (p->rules)
		uft_rules_match(p->rules, uft_place_name(pl, r->addr, buf, sizeof buf), tr);
}

static int depth_limit(const replay *p)
{
	return p->o->depth > 0 ? p->o->depth : INT32_MAX;
}

/* With -F, a task shows nothing outside the -F functions. */
static bool outside_filters(const replay *p, const rtask *t)
{
	return p->filter_in && t->in_count == 0;
}

/* A function entry (already accounted, so its frame is slot[sc - 1]):
 * whether it is shown, with the frame marked for its exit. */
static bool filter_entry(replay *p, rtask *t, const uft_record *r)
{
	if (t->sc < 1 || t->sc - 1 > (int)p->d->max_stack)
		return false;
	slot *f = &t->slots[t->sc - 1];
	f->orig_depth = t->depth_left;
	f->fflags = 0;
	if (t->out_count > 0) {
		f->fflags |= FF_NORECORD;
		return false;
	}
	uft_trigger tr;
	rules_of(p, r, &tr);
	if ((tr.flags & (UFT_TR_FILTER | UFT_TR_NOTRACE)) == UFT_TR_FILTER) {
		t->in_count++;
		f->fflags |= FF_FILTERED;
		t->depth_left = depth_limit(p);
	} else if (tr.flags & UFT_TR_FILTER) {
		t->out_count++;
		f->fflags |= FF_NOTRACE | FF_NORECORD;
		return false;
	} else if (outside_filters(p, t)) {
		f->fflags |= FF_NORECORD;
		return false;
	}
	if (tr.flags & UFT_TR_DEPTH)
		t->depth_left = tr.depth;
	if (tr.flags & UFT_TR_TRACE_ON)
		p->enabled = true;
	if (tr.flags & UFT_TR_TRACE_OFF) {
		p->enabled = false;
		t->disp_set = false;
	}
	/* stopped: no NORECORD, so that its exit shows once tracing is on */
	if (!p->enabled)
		return false;
	if (t->depth_left <= 0 || (tr.flags & UFT_TR_HIDE)) {
		f->fflags |= FF_NORECORD;
		return false;
	}
	t->depth_left--;
	return true;
}

/* A function exit (accounted: its frame is slot[sc]): whether it is
 * shown; the filter state is restored either way. */
static bool filter_exit(replay *p, rtask *t)
{
	if (t->sc > (int)p->d->max_stack)
		return false;
	slot *f = &t->slots[t->sc];
	bool shown = !(f->fflags & FF_NORECORD) && p->enabled;
	if (f->fflags & FF_FILTERED)
		t->in_count--;
	else if (f->fflags & FF_NOTRACE)
		t->out_count--;
	t->depth_left = f->orig_depth;
	f->fflags = 0;
	return shown;
}

/* Events are shown only where functions would be. */
static bool filter_event(const replay *p, const rtask *t)
{
	return t->out_count == 0 && !outside_filters(p, t) && t->depth_left > 0 && p->enabled;
}

/* Whether the look-ahead would stop at R (uftrace's fstack_check_skip). */
static bool would_show(replay *p, const uft_record *r)
{
	rtask *t = rt(p, r->task);
	if (t->out_count > 0)
		return false;
	if (r->type == UFT_EXIT)
		return t->sc < 1 || t->sc - 1 > (int)p->d->max_stack || !(t->slots[t->sc - 1].fflags & FF_NORECORD);
	int depth = t->depth_left;
	/* an event's id is no function's address: no rule names it */
	uft_trigger tr = { 0 };
	if (r->type == UFT_ENTRY)
		rules_of(p, r, &tr);
	if ((tr.flags & (UFT_TR_FILTER | UFT_TR_NOTRACE)) == (UFT_TR_FILTER | UFT_TR_NOTRACE))
		return false;
	if (tr.flags & UFT_TR_FILTER)
		depth = depth_limit(p);
	else if (outside_filters(p, t))
		return false;
	if (tr.flags & (UFT_TR_DEPTH | UFT_TR_TRACE_ON))
		return true;
	return !(tr.flags & (UFT_TR_TRACE_OFF | UFT_TR_HIDE)) && depth > 0;
}

/* The next record the cursor would reach, consuming the invisible events
 * and the filtered records on the way (the look-ahead of
 * §9.5); NULL when none
 * or when it is LOST. */
static item *look_ahead(replay *p, const rtask *t, int *err)
{
	if (p->o->no_merge || (t->sc >= 1 && (t->slots[t->sc - 1].flags & (FLAG_EXEC | FLAG_LONGJMP))))
		return NULL;
	for (size_t i = 1;; i++) {
		item *it = peek(p, i, err);
		if (!it)
			return NULL;
		if (it->consumed)
			continue;
		if (it->r.type == UFT_EVENT && rt(p, it->r.task)->user == 0 && !p->o->event_full) {
			consume(p, it);
			continue;
		}
		if (it->r.type == UFT_LOST)
			return NULL;
		/* with filters, hidden perf events are stepped over, but events
		 * recorded in the task's data stop the look-ahead */
		if (p->filtering && !(it->r.type == UFT_EVENT && !it->r.from_perf) && !would_show(p, &it->r)) {
			rtask *nt = rt(p, it->r.task);
			consume(p, it);
			if (it->r.type == UFT_ENTRY)
				filter_entry(p, nt, &it->r);
			else if (it->r.type == UFT_EXIT)
				filter_exit(p, nt);
			if (!p->enabled)
				return NULL;
			continue;
		}
		return it;
	}
}

/* ---- output ----
 *
 * Lines are built by hand rather than with printf: replay prints one
 * line per function, and formatting dominated its time. */

static void put_str(tc_buf *b, const char *s)
{
	tc_buf_append(b, s, strlen(s));
}

/* V right-aligned in WIDTH columns (at least), digits in base 10 or 16
 * (the divisions by a constant are what the compiler makes fast). */
static void put_uint(tc_buf *b, uint64_t v, int width, unsigned base, char pad)
{
	char tmp[24];
	int n = 0;
	if (base == 16) {
		do {
			unsigned d = (unsigned)(v & 15);
			tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
			v >>= 4;
		} while (v);
	} else {
		do {
			tmp[n++] = (char)('0' + v % 10);
			v /= 10;
		} while (v);
	}
	if (tc_buf_reserve(b, (size_t)(n > width ? n : width)) < 0)
		return;
	char *o = b->data + b->len;
	int k = 0;
	for (; k < width - n; k++)
		o[k] = pad;
	while (n)
		o[k++] = tmp[--n];
	b->len += (size_t)k;
}

/* --color: uftrace's terminal colours (utils/debug.c) */
#define C_RESET "\033[0m"
#define C_RED "\033[91m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_GRAY "\033[90m"

static void color(replay *p, const char *code)
{
	if (p->o->color)
		put_str(&p->line, code);
}

/* A duration in replay's 10 columns; COLORED, its unit coloured as
 * uftrace colours units beyond microseconds (print_time_unit()). */
static void duration(tc_buf *b, uint64_t n, bool colored)
{
	if (n == 0) {
		tc_buf_append(b, "          ", 10);
		return;
	}
	static const struct {
		unsigned div, stop;
		const char *unit;
	} steps[] = { { 1000, 1000, "us" }, { 1000, 1000, "ms" }, { 1000, 60, " s" }, { 60, 24, " m" }, { 24, 0, " h" } };
	uint64_t q = n, r = 0;
	const char *unit = "us";
	for (size_t i = 0; i < 5; i++) {
		r = q % steps[i].div;
		q = q / steps[i].div;
		unit = steps[i].unit;
		if (steps[i].stop == 0 || q < steps[i].stop)
			break;
	}
	if (q > 999) {
		q = 999;
		r = 999;
	}
	put_uint(b, q, 3, 10, ' ');
	tc_buf_append(b, ".", 1);
	put_uint(b, r, 3, 10, '0');
	tc_buf_append(b, " ", 1);
	const char *code = !colored || unit[0] == 'u' ? NULL : unit[0] == 'm' ? C_GREEN : unit[1] == 's' ? C_YELLOW : C_RED;
	if (code)
		put_str(b, code);
	tc_buf_append(b, unit, 2);
	if (code)
		put_str(b, C_RESET);
}

static int flush_line(replay *p)
{
	if (p->line.len < (1u << 16))
		return 0;
	size_t n = fwrite(p->line.data, 1, p->line.len, p->out);
	bool ok = n == p->line.len;
	p->line.len = 0;
	return ok ? 0 : tc_fail_write(errno, "cannot write the output");
}

/* -f fields, in uftrace's order of appearance in the list. */
enum { F_DURATION, F_TID, F_ADDR, F_TIME, F_DELTA, F_ELAPSED, F_TASK, F_MODULE, F_COUNT };

static const char *const field_names[F_COUNT] = { "duration", "tid",     "addr", "time",
	                                          "delta",    "elapsed", "task", "module" };
static const char *const field_headers[F_COUNT] = { " DURATION ", "   TID  ",  "   ADDRESS  ",    "     TIMESTAMP    ",
	                                            " TIMEDELTA", "  ELAPSED ", "      TASK NAME", "     MODULE NAME" };

static int parse_fields(replay *p, const char *list)
{
	p->field_count = 0;
	/* "+LIST": the default fields and LIST's; "all": every field (both
	 * releases, doc/formats/uftrace.md §9.1) */
	bool plus = list && *list == '+';
	if (!list || plus) {
		/* -r adds the timestamps it is given in (cmds/replay.c,
		 * setup_default_field()) */
		if (p->o->range_start || p->o->range_stop)
			p->fields[p->field_count++] = F_TIME;
		p->fields[p->field_count++] = F_DURATION;
		p->fields[p->field_count++] = F_TID;
		if (!list)
			return 0;
		list++;
	}
	/* "none" only alone: "+none" names an unknown field */
	if (!plus && !strcmp(list, "none"))
		return 0;
	/* "all" anywhere in the list wins over the rest of it, unknown
	 * names included (uftrace 0.13 and 0.19 alike) */
	for (const char *s = list; *s;) {
		size_t n = strcspn(s, ",");
		if (n == 3 && !strncmp(s, "all", 3)) {
			for (int i = 0; i < F_COUNT; i++)
				p->fields[i] = i;
			p->field_count = F_COUNT;
			return 0;
		}
		s += n + (s[n] == ',');
	}
	const char *s = list;
	while (*s) {
		size_t n = strcspn(s, ",");
		int f = -1;
		for (int i = 0; i < F_COUNT; i++)
			if (strlen(field_names[i]) == n && !strncmp(s, field_names[i], n))
				f = i;
		if (f < 0)
			return tc_fail(TC_EINVAL, NULL, -1,
			               "unknown output field \"%.*s\" (duration, tid, addr, time, delta, elapsed, task, module, all or none)",
			               (int)n, s);
		bool dup = false;
		for (size_t i = 0; i < p->field_count; i++)
			dup = dup || p->fields[i] == f;
		if (!dup && p->field_count < F_COUNT)
			p->fields[p->field_count++] = f;
		s += n + (s[n] == ',');
	}
	/* shown in uftrace's order, whatever the list's */
	for (size_t i = 1; i < p->field_count; i++)
		for (size_t k = i; k > 0 && p->fields[k - 1] > p->fields[k]; k--) {
			int x = p->fields[k];
			p->fields[k] = p->fields[k - 1];
			p->fields[k - 1] = x;
		}
	return 0;
}

/* uftrace prints the column titles when there is any record to replay,
 * shown or not (cmds/replay.c, command_replay()), and otherwise an empty
 * line in their place. */
static int header(replay *p)
{
	int rc = 0;
	if (!p->field_count)
		return 0;
	/* --flat has no titles, only the line after them */
	if (!p->o->flat && peek(p, 0, &rc)) {
		tc_buf_append(&p->line, "#", 1);
		for (size_t i = 0; i < p->field_count; i++) {
			tc_buf_printf(&p->line, "%s%s", i ? " " : "", field_headers[p->fields[i]]);
			/* the title widens with the column, on its right */
			if (p->fields[i] == F_TID)
				tc_buf_printf(&p->line, "%*s", p->tid_width - 6, "");
		}
		tc_buf_append(&p->line, "   FUNCTION", 11);
	}
	tc_buf_append(&p->line, "\n", 1);
	return rc;
}

/* The fields' place on a line that has none (inverted time): each
 * field's width, its title's (the task id's widened as the header
 * widens it), and a blank, then " | " when there is any field. */
static void empty_fields(replay *p)
{
	for (size_t i = 0; i < p->field_count; i++) {
		int f = p->fields[i];
		int w = (int)strlen(field_headers[f]) + (f == F_TID ? p->tid_width - 6 : 0) + 1;
		tc_buf_printf(&p->line, "%*s", w, "");
	}
	if (p->field_count)
		tc_buf_append(&p->line, " | ", 3);
}

/* -f task: the command name, as the kernel keeps it (15 bytes at
 * most): the last linux:task-name's, else the task's latest session's
 * executable's; 15 columns, right-aligned (doc/formats/uftrace.md §9.1). */
static void task_name(const replay *p, const uft_task *task, tc_buf *b)
{
	const rtask *t = &p->tasks[task->index];
	if (t->renamed) {
		tc_buf_printf(b, "%15.15s", t->comm);
		return;
	}
	const char *exe = task->ref_count ? task->refs[task->ref_count - 1].session->exename : NULL;
	if (!exe)
		exe = p->d->exename ? p->d->exename : "";
	const char *slash = strrchr(exe, '/');
	tc_buf_printf(b, "%15.15s", slash ? slash + 1 : exe);
}

/* -f module: the file name of the module mapping the line's address,
 * 16 columns, right-aligned and cut to 16; blank for lines without an
 * address (events, LOST), "[unknown]" where no module maps it
 * (doc/formats/uftrace.md §9.1). */
static void module_name(replay *p, const uft_record *r, bool has_addr, uint64_t addr, tc_buf *b)
{
	if (!has_addr) {
		tc_buf_printf(b, "%16s", "");
		return;
	}
	const char *name = uft_module_name(p->d, r->task, r->time, addr);
	/* the pseudo-frame of a sched-out/sched-in pair has the event's id
	 * for an address */
	if (!name &&
	    (addr == UFT_EV_SCHED_IN || addr == UFT_EV_SCHED_OUT || addr == UFT_EV_SCHED_OUT_PREEMPT))
		name = "[event]";
	tc_buf_printf(b, "%16.16s", name ? name : "[unknown]");
}

/* --task-newline: an empty line (but for its fields' blanks) where the
 * task changes (cmds/replay.c, print_task_newline()). */
static void task_newline(replay *p, int tid)
{
	if (p->prev_tid && tid != p->prev_tid) {
		empty_fields(p);
		tc_buf_append(&p->line, "\n", 1);
	}
	p->prev_tid = tid;
}

/* Starts the line of record R: its fields, " | ", the indentation
 * (with --column-view, the task's column's too, but for LOST lines). */
static void line_start_at(replay *p, const uft_record *r, bool has_addr, uint64_t addr, uint64_t dur, int indent)
{
	tc_buf *b = &p->line;
	rtask *t = rt(p, r->task);
	if (p->o->task_newline)
		task_newline(p, r->task->tid);
	if (p->o->column_view && r->type != UFT_LOST) {
		if (t->column < 0)
			t->column = p->next_column++;
		indent += t->column * (p->o->column_offset ? p->o->column_offset : 8);
	}
	for (size_t i = 0; i < p->field_count; i++) {
		tc_buf_append(b, " ", 1);
		switch (p->fields[i]) {
		case F_DURATION: duration(b, dur, p->o->color); break;
		case F_TID:
			tc_buf_append(b, "[", 1);
			if (r->task->tid < 0)
				tc_buf_printf(b, "%*d", p->tid_width, r->task->tid);
			else
				put_uint(b, (uint64_t)r->task->tid, p->tid_width, 10, ' ');
			tc_buf_append(b, "]", 1);
			break;
		case F_ADDR:
			if (has_addr)
				put_uint(b, addr, 12, 16, ' ');
			else
				tc_buf_printf(b, "%12s", "");
			break;
		case F_TIME:
			put_uint(b, r->time / 1000000000u, 8, 10, ' ');
			tc_buf_append(b, ".", 1);
			put_uint(b, r->time % 1000000000u, 9, 10, '0');
			break;
		case F_DELTA: duration(b, t->last_time ? r->time - t->last_time : 0, p->o->color); break;
		case F_ELAPSED: duration(b, r->time - p->first_time, p->o->color); break;
		case F_TASK: task_name(p, r->task, b); break;
		case F_MODULE: module_name(p, r, has_addr, addr, b); break;
		}
	}
	t->last_time = r->time;
	if (p->field_count)
		tc_buf_append(b, " | ", 3);
	/* events and LOST lines are coloured from their indentation on */
	if (p->indent_color) {
		color(p, p->indent_color);
		p->indent_color = NULL;
	}
	if (indent > 0 && tc_buf_reserve(b, (size_t)indent * 2) == 0) {
		memset(b->data + b->len, ' ', (size_t)indent * 2);
		b->len += (size_t)indent * 2;
	}
}

/* The address column is blank for events. */
static void line_start(replay *p, const uft_record *r, uint64_t dur, int indent)
{
	line_start_at(p, r, r->type == UFT_ENTRY, r->addr, dur, indent);
}

typedef struct sym_ctx {
	replay *p;
	const uft_task *task;
	uint64_t time;
} sym_ctx;

static const char *symbolize(void *ctx, uint64_t addr)
{
	sym_ctx *c = ctx;
	uft_place pl;
	return uft_resolve(c->p->d, c->task, c->time, addr, &pl, NULL) ? pl.sym->name : NULL;
}

/* "(args)" of an entry, or " = value" of an exit (RETVAL), into B; PL is
 * what R's address resolved to, NULL when nothing. */
static int payload_text(replay *p, const uft_record *r, const uft_place *pl, bool retval, tc_buf *b)
{
	if (!r->more || r->type == UFT_EVENT || !pl)
		return 0;
	const ua_list *l = ua_lookup(p->d->specs, &pl->fn, retval);
	if (!l)
		return 0;
	sym_ctx c = { p, r->task, r->time };
	if (retval)
		tc_buf_append(b, " = ", 3);
	return ua_format(p->d->specs, l, r->payload, r->payload_len, &pl->fn, symbolize, &c, p->o->color, b);
}

enum { FIX_NONE = 1, FIX_EXEC, FIX_SETJMP, FIX_LONGJMP, FIX_FORK };

/* Which of uftrace's special functions NAME is (exact names). */
static uint8_t fixup_kind(const char *name)
{
	static const struct {
		const char *name;
		uint8_t kind;
	} table[] = {
		{ "execl", FIX_EXEC }, { "execlp", FIX_EXEC }, { "execle", FIX_EXEC }, { "execv", FIX_EXEC },
		{ "execve", FIX_EXEC }, { "execvp", FIX_EXEC }, { "execvpe", FIX_EXEC }, { "setjmp", FIX_SETJMP },
		{ "_setjmp", FIX_SETJMP }, { "sigsetjmp", FIX_SETJMP }, { "__sigsetjmp", FIX_SETJMP },
		{ "longjmp", FIX_LONGJMP }, { "siglongjmp", FIX_LONGJMP }, { "__longjmp_chk", FIX_LONGJMP },
		{ "fork", FIX_FORK }, { "vfork", FIX_FORK }, { "daemon", FIX_FORK },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(name, table[i].name))
			return table[i].kind;
	return FIX_NONE;
}

static void fixups(replay *p, rtask *t, slot *f, uint8_t kind)
{
	switch (kind) {
	case FIX_EXEC: f->flags |= FLAG_EXEC; break;
	case FIX_SETJMP:
		p->setjmp_disp = t->disp + 1;
		p->setjmp_sc = t->sc;
		break;
	case FIX_LONGJMP: f->flags |= FLAG_LONGJMP; break;
	case FIX_FORK: t->fork_disp = t->disp + 1; break;
	default: break;
	}
}

/* Whether entry NAME, ending in ")", gets "()" all the same: a simple
 * demangled "operator()" does in uftrace 0.19 ("X::operator()()"), not
 * in 0.13, nor "operator(cast)" in either (seen on both). */
static bool simple_parens(const replay *p, const char *name)
{
	size_t n = strlen(name);
	return p->d->demangle == UFT_DEMANGLE_SIMPLE && p->o->compat.uftrace >= TC_RELEASE(0, 19) && n >= 10 &&
	       !strcmp(name + n - 10, "operator()");
}

static int print_entry(replay *p, const uft_record *r)
{
	rtask *t = rt(p, r->task);
	if (t->sc < 1 || t->sc - 1 > (int)p->d->max_stack)
		return 0;
	slot *f = &t->slots[t->sc - 1];
	f->flags = 0;
	if (p->filtering && !filter_entry(p, t, r))
		return 0;
	uft_place place;
	const uft_place *pl = resolve(p, r, &place);
	char unresolved[32];
	const char *name_copy = uft_place_name(pl, r->addr, unresolved, sizeof unresolved);
	uint8_t kind = FIX_NONE;
	if (pl) {
		uft_symbol *sym = (uft_symbol *)pl->sym;   /* the symbol caches its kind */
		if (!sym->fixup)
			sym->fixup = fixup_kind(sym->name);
		kind = sym->fixup;
	}
	if (!t->disp_set) {
		t->disp = t->sc - 1 > 0 ? t->sc - 1 : 0;
		t->disp_set = true;
	}
	fixups(p, t, f, kind);
	tc_buf *args = &p->args;
	args->len = 0;
	int rc = 0;
	if (r->more && !p->o->no_args)
		rc = payload_text(p, r, pl, false, args);
	else if (!*name_copy || name_copy[strlen(name_copy) - 1] != ')' || simple_parens(p, name_copy))
		rc = tc_buf_append(args, "()", 2);
	item *next = rc == 0 ? look_ahead(p, t, &rc) : NULL;
	if (rc == 0 && next && next->r.task == r->task && next->r.type == UFT_EXIT && next->r.depth == r->depth &&
	    !next->r.from_perf) {
		consume(p, next);
		line_start(p, r, f->t, t->disp);
		put_str(&p->line, name_copy);
		tc_buf_append(&p->line, args->data ? args->data : "", args->len);
		if (next->r.more && !p->o->no_args) {
			/* the exit, at its own time */
			uft_place exit_place;
			rc = payload_text(p, &next->r, resolve(p, &next->r, &exit_place), true, &p->line);
		}
		tc_buf_append(&p->line, ";\n", 2);
		if (p->filtering)
			filter_exit(p, t);
	} else if (rc == 0) {
		line_start(p, r, 0, t->disp);
		put_str(&p->line, name_copy);
		tc_buf_append(&p->line, args->data ? args->data : "", args->len);
		tc_buf_append(&p->line, " {\n", 3);
		if (f->flags & FLAG_EXEC) {
			t->disp = 0;
			t->sc = 0;
			t->user = 0;
		} else if (f->flags & FLAG_LONGJMP) {
			t->disp = p->setjmp_disp;
			t->sc = p->setjmp_sc;
			t->user = p->setjmp_sc;
		} else {
			t->disp++;
		}
		f->flags = 0;
	}
	return rc;
}

static int print_exit(replay *p, const uft_record *r)
{
	rtask *t = rt(p, r->task);
	if (t->sc > (int)p->d->max_stack)
		return 0;
	slot *f = &t->slots[t->sc];
	if (p->filtering && !filter_exit(p, t))
		return 0;
	if (!t->disp_set) {
		t->disp = t->sc + 1;
		t->disp_set = true;
	}
	if (t->disp > 0)
		t->disp--;
	/* uftrace shows the frame's address, 0 for one it never saw entered */
	line_start_at(p, r, true, f->addr, f->t, t->disp);
	tc_buf_append(&p->line, "}", 1);
	int rc = 0;
	uft_place place;
	const uft_place *pl = resolve(p, r, &place);
	if (r->more && !p->o->no_args) {
		rc = payload_text(p, r, pl, true, &p->line);
		tc_buf_append(&p->line, ";", 1);
	}
	char unresolved[32];
	color(p, C_GRAY);
	tc_buf_append(&p->line, " /* ", 4);
	put_str(&p->line, uft_place_name(pl, r->addr, unresolved, sizeof unresolved));
	tc_buf_append(&p->line, " */", 3);
	color(p, C_RESET);
	tc_buf_append(&p->line, "\n", 1);
	return rc;
}

/* An event's name and, for record R when not NULL, its data, as
 * uftrace's print_event() writes them: "NAME (DATA)", each part in the
 * event colour with --color. */
static void event_text(replay *p, const char *name, const uft_record *r)
{
	color(p, C_GREEN);
	put_str(&p->line, name);
	color(p, C_RESET);
	if (!r)
		return;
	size_t before = p->line.len;
	color(p, C_GREEN);
	tc_buf_append(&p->line, " (", 2);
	if (uft_event_data(p->d, r, &p->line)) {
		tc_buf_append(&p->line, ")", 1);
		color(p, C_RESET);
	} else {
		p->line.len = before;
	}
}

/* The rest of an event's line after its fields, the event in a C
 * comment, coloured in three parts as uftrace prints it (the last
 * reset after the newline). */
static void event_line(replay *p, const char *name, const uft_record *r)
{
	tc_buf_append(&p->line, "/* ", 3);
	color(p, C_RESET);
	event_text(p, name, r);
	color(p, C_GREEN);
	tc_buf_append(&p->line, " */\n", 4);
	color(p, C_RESET);
}

static int print_event(replay *p, const uft_record *r)
{
	rtask *t = rt(p, r->task);
	int rc = 0;
	if (r->from_perf && (r->addr == UFT_EV_SCHED_OUT || r->addr == UFT_EV_SCHED_OUT_PREEMPT)) {
		bool preempt = r->addr == UFT_EV_SCHED_OUT_PREEMPT;
		item *next = look_ahead(p, t, &rc);
		if (rc == 0 && next && next->r.task == r->task && next->r.from_perf && next->r.addr == UFT_EV_SCHED_IN) {
			consume(p, next);
			/* the pseudo-frame's address: the sched-out event id */
			p->indent_color = C_GREEN;
			line_start_at(p, r, true, t->slots[t->sc].addr, t->slots[t->sc].t, t->disp);
			event_line(p, preempt ? "linux:schedule (pre-empted)" : "linux:schedule", NULL);
		} else if (rc == 0) {
			p->indent_color = C_GREEN;
			line_start(p, r, 0, t->disp);
			event_line(p, preempt ? "linux:sched-out (pre-empted)" : "linux:sched-out", NULL);
		}
		return rc;
	}
	if (r->from_perf && r->addr == UFT_EV_SCHED_IN) {
		p->indent_color = C_GREEN;
		line_start_at(p, r, true, t->slots[t->sc].addr, t->slots[t->sc].t, t->disp);
		event_line(p, "linux:sched-in", NULL);
		return 0;
	}
	char buf[64];
	p->indent_color = C_GREEN;
	line_start(p, r, 0, t->disp);
	event_line(p, uft_event_name_of(p->d, r->addr, buf, sizeof buf), r);
	return 0;
}

/* --flat: one line per record, numbered, as uftrace prints it for
 * debugging (cmds/replay.c, print_flat_rstack()); frames beyond the
 * stack's size are left out, and events outside functions. */
static void print_flat(replay *p, const uft_record *r)
{
	rtask *t = rt(p, r->task);
	if (r->type == UFT_EVENT && t->user == 0)
		return;
	if (r->type != UFT_LOST && r->depth > p->d->max_stack)
		return;
	char buf[64];
	uft_place place;
	int tid = r->task->tid;
	tc_buf *b = &p->line;
	switch (r->type) {
	case UFT_ENTRY:
	case UFT_EXIT:
		tc_buf_printf(b, "[%d] %s %d/%d: ip (%s), time (%" PRIu64, p->flat_count++, r->type == UFT_ENTRY ? "==>" : "<==",
		              tid, r->depth, uft_place_name(resolve(p, r, &place), r->addr, buf, sizeof buf), r->time);
		/* the exit's total time, as accounting left it in its frame */
		if (r->type == UFT_EXIT)
			tc_buf_printf(b, ":%" PRIu64, t->slots[r->depth].t);
		tc_buf_append(b, ")\n", 2);
		break;
	case UFT_LOST: tc_buf_printf(b, "[%d] XXX %d: lost %d records\n", p->flat_count++, tid, (int)r->addr); break;
	default:
		tc_buf_printf(b, "[%d] !!! %d: ", p->flat_count++, tid);
		event_text(p, uft_event_name_of(p->d, r->addr, buf, sizeof buf), r);
		tc_buf_printf(b, " time (%" PRIu64 ")\n", r->time);
		break;
	}
}

/* --no-event (unless -E names some), --no-sched, -C, and
 * --no-sched-preempt: events left out before printing, looked ahead at
 * all the same (cmds/replay.c, fstack_check_opts()). */
static bool hidden_event(replay *p, const uft_record *r)
{
	if (r->type != UFT_EVENT)
		return false;
	if (p->o->no_event && !p->o->events)
		return true;
	if (p->no_sched && is_sched(r))
		return true;
	if (!p->o->no_sched_preempt || !r->from_perf)
		return false;
	/* a pre-empted sched-out, and the sched-in after it */
	rtask *t = rt(p, r->task);
	if (r->addr == UFT_EV_SCHED_OUT_PREEMPT) {
		t->preempted = true;
		return true;
	}
	if (r->addr == UFT_EV_SCHED_IN && t->preempted) {
		t->preempted = false;
		return true;
	}
	return false;
}

static int walk(replay *p)
{
	int rc = 0;
	for (;;) {
		item *it = peek(p, 0, &rc);
		if (!it)
			return rc;
		if (it->consumed) {
			pop(p);
			continue;
		}
		consume(p, it);
		if (p->o->flat) {
			print_flat(p, &it->r);
			pop(p);
			if ((rc = flush_line(p)) < 0)
				return rc;
			continue;
		}
		/* a copy: looking ahead may move the ring */
		uft_record rec = it->r;
		const uft_record *r = &rec;
		rtask *t = rt(p, r->task);
		bool visible = !((r->type == UFT_EVENT && t->user == 0 && !p->o->event_full) ||
		                 (r->type == UFT_LOST && t->user == 0)) &&
		               !(p->filtering && r->type == UFT_EVENT && !filter_event(p, t)) && !hidden_event(p, r);
		if (visible) {
			if (r->time && r->time < p->prev_time) {
				empty_fields(p);
				color(p, C_RED);
				for (int i = 0; i < (t->disp + 1) * 2 + 1; i++)
					tc_buf_append(&p->line, " ", 1);
				tc_buf_printf(&p->line, "/* inverted time: broken data? */\n");
				color(p, C_RESET);
			}
			if (r->time)
				p->prev_time = r->time;
			switch (r->type) {
			case UFT_ENTRY: rc = print_entry(p, r); break;
			case UFT_EXIT: rc = print_exit(p, r); break;
			case UFT_LOST:
				p->indent_color = C_RED;
				line_start(p, r, 0, t->disp + 1);
				/* uftrace reads the count as an int: none, or one
				 * beyond INT_MAX, is "some" (the kernel's losses can
				 * be of unknown count) */
				if ((int)r->addr > 0)
					tc_buf_printf(&p->line, "/* LOST %d records!! */\n", (int)r->addr);
				else
					tc_buf_printf(&p->line, "/* LOST some records!! */\n");
				color(p, C_RESET);
				break;
			default: rc = print_event(p, r); break;
			}
		}
		pop(p);
		if (rc == 0)
			rc = flush_line(p);
		if (rc < 0)
			return rc;
	}
}

/* The lowest frame of T the trailer lists (those below, never seen
 * entered, have no address); -1 when it lists none of T's. */
static int trailer_first(const rtask *t)
{
	int z = 0;
	while (z < t->sc && t->slots[z].addr == 0)
		z++;
	if (t->sc == 0 || (t->sc == 1 && t->slots[0].sched) || z >= t->sc)
		return -1;
	return z;
}

/* The trailer, §9.8 */
static void trailer(replay *p)
{
	bool any = false;
	for (size_t i = 0; i < p->d->task_count && !any; i++)
		any = trailer_first(&p->tasks[i]) >= 0;
	if (!any)
		return;
	tc_buf_printf(&p->line, "\nuftrace stopped tracing with remaining functions\n"
	                        "================================================\n");
	for (size_t i = 0; i < p->d->task_count; i++) {
		rtask *t = &p->tasks[i];
		int z = trailer_first(t);
		if (z < 0)
			continue;
		uft_task *task = p->d->tasks[i];
		tc_buf_printf(&p->line, "task: %d\n", task->tid);
		for (int k = t->sc - 1; k >= z; k--) {
			if (k > (int)p->d->max_stack)
				continue;
			char buf[64];
			uft_place pl;
			bool found = uft_resolve(p->d, task, t->slots[k].t, t->slots[k].addr, &pl, NULL);
			/* a sched-out whose sched-in -r cut off: uftrace's
			 * symbol for the pair */
			tc_buf_printf(&p->line, "[%d] %s\n", k - z,
			              t->slots[k].sched ? (t->slots[k].addr == UFT_EV_SCHED_OUT_PREEMPT ? "linux:schedule (pre-empted)"
			                                                                                : "linux:schedule")
			                                : uft_place_name(found ? &pl : NULL, t->slots[k].addr, buf, sizeof buf));
		}
		tc_buf_append(&p->line, "\n", 1);
	}
}

int tc_uftrace_replay(const char *dir, const tc_replay_options *opts, FILE *out)
{
	static const tc_replay_options defaults;
	replay p = { .o = opts ? opts : &defaults, .out = out };
	/* uftrace 0.19 prints task ids in 7 columns ("[%7d]", title "   TID   ",
	 * pid_max reaching 4194304), 0.13 in 6 (doc/formats/uftrace.md §9.1) */
	p.tid_width = p.o->compat.uftrace >= TC_RELEASE(0, 19) ? 7 : 6;
	int rc = parse_fields(&p, p.o->fields);
	if (rc < 0)
		return rc;
	int kind = tc_path_kind(dir);
	if (kind < 0)
		rc = kind;
	else if (kind == TC_PATH_FILE)
		rc = tc_fail(TC_ENOTFOUND, dir, -1, "a file, not a uftrace record directory");
	else if ((rc = uft_open(&p.d, dir)) == TC_ENOTFOUND)
		rc = tc_fail(TC_ENOTFOUND, dir, -1, "not a uftrace record directory (no info file)");
	if (rc == 0) {
		p.d->warn = p.o->warning;
		p.d->warn_arg = p.o->warning_arg;
		p.d->demangle = p.o->demangle == TC_DEMANGLE_FULL   ? UFT_DEMANGLE_FULL
		                : p.o->demangle == TC_DEMANGLE_NO ? UFT_DEMANGLE_NO
		                                                  : UFT_DEMANGLE_SIMPLE;
	}
	for (size_t i = 0; rc == 0 && p.o->tid_count && i < p.d->task_count; i++) {
		bool keep = false;
		for (size_t k = 0; k < p.o->tid_count; k++)
			keep = keep || p.o->tids[k] == p.d->tasks[i]->tid;
		p.d->tasks[i]->excluded = !keep;
	}
	p.time_filter = p.o->time_filter ? p.o->time_filter : p.d ? p.d->time_filter : 0;
	p.enabled = true;
	if (rc == 0)
		rc = uft_rules_new(&p.rules, p.o, p.d, &p.line);
	p.filter_in = uft_rules_filter_in(p.rules);
	/* "caller filter focuses onto a given function, displaying sched
	 * event with it is annoying" (uftrace.c, -C) */
	p.no_sched = p.o->no_sched || p.o->caller_count > 0;
	p.filtering = p.o->depth > 0 || p.rules;
	if (rc == 0) {
		uft_read_filter f = {
			.time = p.time_filter,
			.size = p.o->size_filter,
			.caller = uft_rules_caller(p.rules),
			.range_start = p.o->range_start,
			.range_stop = p.o->range_stop,
			/* time= and size= triggers, -C and -Z need the function */
			.match = p.rules || p.o->size_filter ? read_match : NULL,
			.arg = &p,
		};
		rc = uft_merge_new(&p.merge, p.d, &f);
	}
	if (rc == 0 && !(p.tasks = calloc(p.d->task_count ? p.d->task_count : 1, sizeof *p.tasks)))
		rc = tc_fail_nomem();
	for (size_t i = 0; rc == 0 && i < p.d->task_count; i++) {
		if (!(p.tasks[i].slots = calloc(p.d->max_stack + 2, sizeof(slot)))) {
			rc = tc_fail_nomem();
			break;
		}
		/* frames never seen entered (a fork child's) restore the full depth */
		p.tasks[i].depth_left = depth_limit(&p);
		p.tasks[i].column = -1;
		/* uftrace counts a task's display depth from 0 (the shown
		 * entries), unless a time range starts the output mid-way:
		 * then from the first shown entry's depth (fstack.c,
		 * setup_task_handle()) */
		p.tasks[i].disp_set = !p.o->range_start;
		for (unsigned k = 0; k < p.d->max_stack + 2; k++)
			p.tasks[i].slots[k].orig_depth = p.tasks[i].depth_left;
	}
	if (rc == 0)
		rc = header(&p);
	if (rc == 0)
		rc = walk(&p);
	if (rc == 0)
		trailer(&p);
	/* what was decoded before an error is printed before it */
	if (p.line.len && fwrite(p.line.data, 1, p.line.len, out) != p.line.len && rc == 0)
		rc = tc_fail_write(errno, "cannot write the output");
	tc_buf_free(&p.line);
	tc_buf_free(&p.args);
	for (size_t i = 0; p.tasks && i < p.d->task_count; i++)
		free(p.tasks[i].slots);
	free(p.tasks);
	free(p.ring);
	uft_rules_free(p.rules);
	uft_merge_free(p.merge);
	uft_close(p.d);
	return rc;
}
