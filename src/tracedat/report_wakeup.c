/* SPDX-License-Identifier: MIT */
/*
 * report_wakeup.c - `report -w`: trace-cmd report's wakeup latencies
 * (tracecmd/trace-read.c: init_wakeup(), process_wakeup(), add_sched(),
 * finish_wakeup()), the same in trace-cmd 3.1.6 and 3.4.
 *
 * Of the lines printed, a sched_wakeup or sched_wakeup_new (whose
 * "success" field, where the format has one, is not 0) notes the time its
 * task "pid" was woken; a later sched_switch to that task ("next_pid")
 * ends its line with " Latency: U.NNN usecs", the time since, and forgets
 * the wakeup.  A task woken twice counts from the second wakeup.  Tasks
 * with "next_prio" up to 99 also count as real-time.  After the events
 * come the average, the largest and the smallest latency with the time of
 * their sched_switch, then the same for real-time tasks alone.  Without
 * the sched_wakeup and sched_switch formats (or their fields) nothing of
 * this is printed.
 *
 * trace-cmd keeps the pending wakeups in a hash table keyed by
 * rp_trace_hash(pid) alone (libtracecmd's trace-hash-local.h), so two pids
 * with one hash share an entry; the key here is that hash too.
 */
#include "tracedat/report_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rp_lat {
	uint64_t total, count;
	uint64_t max_lat, max_time, min_lat, min_time;
} rp_lat;

typedef struct rp_pending {
	uint32_t key;
	bool used;
	uint64_t start;
} rp_pending;

struct rp_wakeup {
	int wakeup_id, wakeup_new_id, sched_id;
	struct tep_format_field *wakeup_task, *wakeup_success;
	struct tep_format_field *wakeup_new_task, *wakeup_new_success;
	struct tep_format_field *sched_task, *sched_prio;
	rp_pending *slots;       /* open addressing, linear probing */
	size_t cap, used;
	rp_lat all, rt;
};

static size_t slot_of(const rp_wakeup *w, uint32_t key)
{
	size_t i = (key * 2654435761u) & (w->cap - 1);
	while (w->slots[i].used && w->slots[i].key != key)
		i = (i + 1) & (w->cap - 1);
	return i;
}

static int grow(rp_wakeup *w)
{
	size_t old_cap = w->cap;
	rp_pending *old = w->slots;
	w->cap = old_cap ? old_cap * 2 : 1024;
	w->slots = calloc(w->cap, sizeof *w->slots);
	if (!w->slots) {
		w->slots = old;
		w->cap = old_cap;
		return tc_fail_nomem();
	}
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].used)
			w->slots[slot_of(w, old[i].key)] = old[i];
	free(old);
	return 0;
}

/* Removes slot I, moving the entries after it back (no tombstones). */
static void remove_slot(rp_wakeup *w, size_t i)
{
	size_t mask = w->cap - 1, j = i;
	w->slots[i].used = false;
	w->used--;
	for (;;) {
		j = (j + 1) & mask;
		if (!w->slots[j].used)
			return;
		size_t home = (w->slots[j].key * 2654435761u) & mask;
		/* J's entry may move to I when I lies between its home and J */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			w->slots[i] = w->slots[j];
			w->slots[j].used = false;
			i = j;
		}
	}
}

int rp_wakeup_init(rp *r)
{
	rp_parse_all_formats(r);
	struct tep_event *wake = tep_find_event_by_name(r->tep, "sched", "sched_wakeup");
	struct tep_event *sched = tep_find_event_by_name(r->tep, "sched", "sched_switch");
	struct tep_event *wake_new = tep_find_event_by_name(r->tep, "sched", "sched_wakeup_new");
	struct tep_format_field *wake_task = wake ? tep_find_field(wake, "pid") : NULL;
	struct tep_format_field *sched_task = sched ? tep_find_field(sched, "next_pid") : NULL;
	struct tep_format_field *sched_prio = sched ? tep_find_field(sched, "next_prio") : NULL;
	struct tep_format_field *new_task = wake_new ? tep_find_field(wake_new, "pid") : NULL;
	if (!wake_task || !sched_task || !sched_prio || (wake_new && !new_task))
		return 0;
	rp_wakeup *w = calloc(1, sizeof *w);
	if (!w)
		return tc_fail_nomem();
	r->wakeup = w;
	w->wakeup_id = wake->id;
	w->wakeup_task = wake_task;
	w->wakeup_success = tep_find_field(wake, "success");
	w->sched_id = sched->id;
	w->sched_task = sched_task;
	w->sched_prio = sched_prio;
	w->wakeup_new_id = wake_new ? wake_new->id : -1;
	w->wakeup_new_task = new_task;
	w->wakeup_new_success = wake_new ? tep_find_field(wake_new, "success") : NULL;
	w->all.min_lat = w->rt.min_lat = UINT64_MAX;
	return grow(w);
}

static void add_wakeup(rp *r, uint32_t pid, uint64_t start)
{
	rp_wakeup *w = r->wakeup;
	if (w->used * 2 >= w->cap && grow(w) < 0) {
		r->write_error = TC_ENOMEM;
		return;
	}
	uint32_t key = rp_trace_hash(pid);
	size_t i = slot_of(w, key);
	if (!w->slots[i].used) {
		w->slots[i] = (rp_pending){ .key = key, .used = true };
		w->used++;
	}
	w->slots[i].start = start;
}

static void note(rp_lat *l, uint64_t lat, uint64_t end)
{
	if (lat > l->max_lat) {
		l->max_lat = lat;
		l->max_time = end;
	}
	if (lat < l->min_lat) {
		l->min_lat = lat;
		l->min_time = end;
	}
	l->total += lat;
	l->count++;
}

static void add_sched(rp *r, uint32_t pid, uint64_t end, bool rt)
{
	rp_wakeup *w = r->wakeup;
	size_t i = slot_of(w, rp_trace_hash(pid));
	if (!w->slots[i].used)
		return;
	uint64_t lat = end - w->slots[i].start;
	note(&w->all, lat, end);
	if (rt)
		note(&w->rt, lat, end);
	rp_printf(r, " Latency: %" PRIu64 ".%03" PRIu64 " usecs", lat / 1000, lat % 1000);
	remove_slot(w, i);
}

void rp_wakeup_record(rp *r, struct tep_record *rec)
{
	rp_wakeup *w = r->wakeup;
	unsigned long long val;
	int id = tep_data_type(r->tep, rec);
	if (id == w->wakeup_id || id == w->wakeup_new_id) {
		bool is_new = id == w->wakeup_new_id && id != w->wakeup_id;
		struct tep_format_field *success = is_new ? w->wakeup_new_success : w->wakeup_success;
		if (tep_read_number_field(success, rec->data, &val) == 0 && !val)
			return;
		if (tep_read_number_field(is_new ? w->wakeup_new_task : w->wakeup_task, rec->data, &val))
			return;
		add_wakeup(r, (uint32_t)val, rec->ts);
	} else if (id == w->sched_id) {
		if (tep_read_number_field(w->sched_prio, rec->data, &val))
			return;
		bool rt = val <= 99;
		if (tep_read_number_field(w->sched_task, rec->data, &val))
			return;
		add_sched(r, (uint32_t)val, rec->ts, rt);
	}
}

static void timings(rp *r, const rp_lat *l)
{
	uint64_t avg = l->total / l->count;
	/* (the seconds are not rounded with the microseconds: 3.1.6 and 3.4 print them so) */
	rp_printf(r, "\nAverage wakeup latency: %" PRIu64 ".%03" PRIu64 " usecs\n"
	                              "Maximum Latency: %" PRIu64 ".%03" PRIu64 " usecs at timestamp: %" PRIu64 ".%06" PRIu64 "\n"
	                              "Minimum Latency: %" PRIu64 ".%03" PRIu64 " usecs at timestamp: %" PRIu64 ".%06" PRIu64 "\n\n",
	                              avg / 1000, avg % 1000, l->max_lat / 1000, l->max_lat % 1000, l->max_time / 1000000000,
	                              (l->max_time + 500) % 1000000000 / 1000, l->min_lat / 1000, l->min_lat % 1000,
	                              l->min_time / 1000000000, (l->min_time + 500) % 1000000000 / 1000);
}

void rp_wakeup_finish(rp *r)
{
	rp_wakeup *w = r->wakeup;
	if (!w->all.count)
		return;
	timings(r, &w->all);
	if (w->rt.count) {
		rp_put(r, "RT task timings:\n", 17);
		timings(r, &w->rt);
	}
}

void rp_wakeup_free(rp *r)
{
	if (!r->wakeup)
		return;
	free(r->wakeup->slots);
	free(r->wakeup);
	r->wakeup = NULL;
}
