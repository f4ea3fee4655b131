/* SPDX-License-Identifier: MIT */
/*
 * records.c - the records of a uftrace directory (doc/formats/uftrace.md
 * §5, §6, §9.2): each <tid>.dat as 16-byte records with their payloads, each
 * perf-cpu<N>.dat as scheduler, task and name events, and all of them
 * merged in the order uftrace replays them.
 *
 * A payload's length is not stored: arguments and return values are
 * sized from the specs of the function the record resolves to (args.h),
 * events from their u16 length.  After each payload the next record must
 * carry the magic again, which catches a wrong size at once.
 */
#include "uftrace/uftrace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_MAGIC 5
#define MAX_PERF_FILE (1u << 30)

/* A record word: one load on the usual little-endian host and data. */
static inline uint64_t load_u64(const uint8_t *p, bool be)
{
	uint64_t v;
	memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return be ? __builtin_bswap64(v) : v;
#else
	return be ? v : __builtin_bswap64(v);
#endif
}

struct uft_task_reader {
	uft_data *d;
	uft_task *task;
	const char *path;          /* task->data_path */
	const uint8_t *map;
	size_t size, pos;
	size_t released;           /* bytes of the map given back to the kernel */
	unsigned reads;
	atomic_uint_least64_t *bytes_read;  /* uft_task_reader_count_into() */
	size_t counted;            /* of the bytes read, those added to it */
	uft_recent recent;         /* functions whose payloads were sized lately */
};

/* Pages read long ago are given back as the reader goes, so memory stays
 * flat however large the file; a record still held refers to pages the
 * kernel reads in again if needed (a private, read-only file mapping). */
#define RELEASE_STEP (8u << 20)

static void release_behind(uft_task_reader *r)
{
	if (r->pos - r->released < 2 * RELEASE_STEP)
		return;
	size_t upto = (r->pos - RELEASE_STEP) & ~(size_t)4095;
	madvise((void *)(r->map + r->released), upto - r->released, MADV_DONTNEED);
	r->released = upto;
}

int uft_task_reader_new(uft_task_reader **out, uft_data *d, uft_task *task)
{
	uft_task_reader *r = calloc(1, sizeof *r);
	if (!r)
		return tc_fail_nomem();
	r->d = d;
	r->task = task;
	r->path = task->data_path;
	/* *OUT is set only on success: callers free what they were given */
	*out = NULL;
	if (!task->has_data) {
		*out = r;
		return 0;
	}
	int fd = open(r->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int rc = 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		rc = tc_fail_open(r->path);
	else if (!S_ISREG(st.st_mode))   /* a directory would map as ENODEV */
		rc = tc_fail(TC_EIO, r->path, -1, "not a regular file");
	if (rc < 0) {
		if (fd >= 0)
			close(fd);
		uft_task_reader_free(r);
		return rc;
	}
	r->size = (size_t)st.st_size;
	if (r->size) {
		void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			rc = tc_fail(TC_EIO, r->path, -1, "cannot map: %s", strerror(errno));
			close(fd);
			uft_task_reader_free(r);
			return rc;
		}
		madvise(m, r->size, MADV_SEQUENTIAL);
		r->map = m;
	}
	close(fd);
	*out = r;
	return 0;
}

void uft_task_reader_count_into(uft_task_reader *r, atomic_uint_least64_t *bytes_read)
{
	r->bytes_read = bytes_read;
}

/* Adds the bytes read up to UPTO to the count. */
static void count_read(uft_task_reader *r, size_t upto)
{
	tc_count_read(r->bytes_read, upto - r->counted);
	r->counted = upto;
}

void uft_task_reader_free(uft_task_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->size);
	free(r);
}

int uft_task_reader_next(uft_task_reader *r, uft_record *rec)
{
	/* a trailing partial record is the end of the data (§5.1) */
	if (r->size - r->pos < 16) {
		count_read(r, r->size);
		return 0;
	}
	const uint8_t *p = r->map + r->pos;
	bool be = r->d->big_endian;
	uint64_t w = load_u64(p + 8, be);
	memset(rec, 0, sizeof *rec);
	rec->time = load_u64(p, be);
	rec->type = (uint8_t)(w & 3);
	rec->more = (uint8_t)((w >> 2) & 1);
	rec->depth = (uint16_t)((w >> 6) & 0x3ff);
	rec->addr = w >> 16;
	rec->task = r->task;
	if (((w >> 3) & 7) != RECORD_MAGIC)
		return tc_fail(TC_EFORMAT, r->path, (int64_t)r->pos,
		               "record without its magic (control word 0x%016llx): damaged data, or the previous record's payload was sized wrongly",
		               (unsigned long long)w);
	r->pos += 16;
	if ((++r->reads & 4095) == 0) {
		release_behind(r);
		count_read(r, r->pos);
	}
	if (!rec->more)
		return 1;
	const uint8_t *data = r->map + r->pos;
	size_t avail = r->size - r->pos, size = 0;
	if (rec->type == UFT_EVENT) {
		if (avail < 2)
			return tc_fail(TC_EFORMAT, r->path, (int64_t)r->pos, "event payload length runs past the end of the file");
		size_t len = (size_t)tc_load_uint(data, 2, be);
		size = (2 + len + 7) & ~(size_t)7;
		if (size > avail)
			return tc_fail(TC_EFORMAT, r->path, (int64_t)r->pos, "event payload of %zu bytes runs past the end of the file", len);
		rec->payload = data + 2;
		rec->payload_len = (uint32_t)len;
	} else if (rec->type == UFT_ENTRY || rec->type == UFT_EXIT) {
		uft_place pl;
		const ua_list *l = NULL;
		if (uft_resolve(r->d, r->task, rec->time, rec->addr, &pl, &r->recent))
			l = uft_place_items(r->d, &pl, rec->type == UFT_EXIT);
		if (!l)
			return tc_fail(TC_EFORMAT, r->path, (int64_t)r->pos - 16,
			               "%s record of %s carries data, but no argument spec of the recording covers it",
			               rec->type == UFT_ENTRY ? "entry" : "exit", pl.sym ? pl.sym->name : "an unknown function");
		int rc = ua_payload_size(l, data, avail, &size, r->path, (int64_t)r->pos);
		if (rc < 0)
			return rc;
		rec->payload = data;
		rec->payload_len = (uint32_t)size;
	} else {
		return tc_fail(TC_EFORMAT, r->path, (int64_t)r->pos - 16, "LOST record with data");
	}
	r->pos += size;
	return 1;
}

/* ---- perf-cpu*.dat (§6) ---- */

enum { PERF_EXIT = 4, PERF_COMM = 3, PERF_FORK = 7, PERF_SWITCH = 14 };
#define PERF_SWITCH_OUT 0x2000
#define PERF_SWITCH_PREEMPT 0x4000

static int perf_push(uft_perf *q, const uft_record *r)
{
	int rc = tc_array_reserve(&q->recs, &q->cap, q->count, sizeof *q->recs, 64);
	if (rc < 0)
		return rc;
	q->recs[q->count++] = *r;
	return 0;
}

int uft_perf_read(uft_data *d, const char *path, uft_perf *q)
{
	size_t len;
	char *data;
	int rc = tc_read_file(path, MAX_PERF_FILE, &data, &len);
	if (rc < 0)
		return rc;
	q->data = (uint8_t *)data;
	q->size = len;
	bool be = d->big_endian;
	for (size_t off = 0; off + 8 <= len;) {
		const uint8_t *h = q->data + off;
		uint32_t type = (uint32_t)tc_load_uint(h, 4, be);
		uint16_t misc = (uint16_t)tc_load_uint(h + 4, 2, be), size = (uint16_t)tc_load_uint(h + 6, 2, be);
		if (size < 8 || size > len - off)
			return tc_fail(TC_EFORMAT, path, (int64_t)off, "perf record of %u bytes does not fit in the file", size);
		const uint8_t *b = h + 8;
		size_t body = size - 8u;
		uft_record r = { .type = UFT_EVENT, .from_perf = true };
		int tid = -1;
		if (type == PERF_SWITCH && body >= 16) {
			tid = (int)tc_load_uint(b + 4, 4, be);
			r.time = tc_load_uint(b + 8, 8, be);
			r.addr = !(misc & PERF_SWITCH_OUT) ? UFT_EV_SCHED_IN
			         : (misc & PERF_SWITCH_PREEMPT) ? UFT_EV_SCHED_OUT_PREEMPT : UFT_EV_SCHED_OUT;
		} else if ((type == PERF_FORK || type == PERF_EXIT) && body >= 24) {
			tid = (int)tc_load_uint(b + 8, 4, be);
			r.time = tc_load_uint(b + 16, 8, be);
			r.addr = type == PERF_FORK ? UFT_EV_TASK_NEW : UFT_EV_TASK_EXIT;
		} else if (type == PERF_COMM && body >= 8 + 16) {
			tid = (int)tc_load_uint(b + 4, 4, be);
			r.time = tc_load_uint(b + body - 8, 8, be);
			r.addr = UFT_EV_TASK_NAME;
			size_t comm_len = body - 8 - 16;
			r.comm = (const char *)b + 8;
			if (!memchr(r.comm, 0, comm_len))
				r.comm = NULL;
		}
		off += size;
		uft_task *task = tid >= 0 ? uft_task_by_tid(d, tid) : NULL;
		/* uftrace drops events of tasks it has no records of */
		if (!task || !task->has_data || task->excluded)
			continue;
		r.task = task;
		if ((rc = perf_push(q, &r)) < 0)
			return rc;
	}
	return 0;
}

/* ---- the merge (§9.2) ---- */

/* A -t or -Z threshold a time= or size= trigger set for the functions
 * below one (utils/fstack.c, struct uftrace_task_filter_stack). */
typedef struct filter_frame {
	int depth;
	uint64_t time, size;
} filter_frame;

typedef struct task_queue {
	uft_task_reader *reader;
	uft_record head;
	bool has_head;
	/* with read filters: entries held until their exit shows whether
	 * they stay, then released in order */
	uft_record *held;
	size_t held_count, held_cap, released;
	bool releasing;
	filter_frame *frames;
	size_t frame_count, frame_cap;
} task_queue;

struct uft_merge {
	uft_read_filter f;
	bool reading_filters;      /* any of f's filters in effect */
	task_queue *tasks;
	size_t task_count;
	uft_perf *perf;            /* the perf-cpu*.dat files */
	size_t perf_count;
	/* what the merge takes perf events from: the files themselves, or,
	 * with a time filter, one list per task (by_task) */
	uft_perf *events;
	size_t event_count;
	uft_perf *by_task;
};

static int hold(task_queue *q, const uft_record *r)
{
	int rc = tc_array_reserve(&q->held, &q->held_cap, q->held_count, sizeof *q->held, 64);
	if (rc < 0)
		return rc;
	q->held[q->held_count++] = *r;
	return 0;
}

/* -r: whether T is inside the range (utils/utils.c, check_time_range()). */
static bool in_range(const uft_merge *m, uint64_t t)
{
	return !(m->f.range_start && m->f.range_start > t) && !(m->f.range_stop && m->f.range_stop < t);
}

/* The next record of the task without what uftrace drops while it reads
 * (utils/fstack.c, get_task_ustack()): an entry waits for its exit, and
 * so do the events after it; the exit of a function shorter than -t
 * (or its time= trigger), or not a -C function, deletes its entry and
 * everything after it, unless a trace trigger keeps it; anything else (a
 * kept exit, a user event, LOST, the end of the data) releases what
 * waits.  -Z (or a size= trigger) drops the entries of smaller
 * functions as they come, and their exits. */
static int next_filtered(uft_merge *m, task_queue *q, uft_record *out)
{
	const uft_read_filter *f = &m->f;
	for (;;) {
		if (q->releasing) {
			if (q->released < q->held_count) {
				*out = q->held[q->released++];
				return 1;
			}
			q->releasing = false;
			q->held_count = q->released = 0;
		}
		uft_record r;
		int rc = q->reader ? uft_task_reader_next(q->reader, &r) : 0;
		if (rc < 0)
			return rc;
		if (rc == 0) {
			if (!q->held_count)
				return 0;
			q->releasing = true;
			continue;
		}
		if ((f->range_start || f->range_stop) && !in_range(m, r.time))
			continue;
		uft_trigger tr = { 0 };
		uint64_t sym_size = UINT64_MAX;
		if (f->match && (r.type == UFT_ENTRY || r.type == UFT_EXIT))
			f->match(f->arg, &r, &tr, &sym_size);
		uint64_t t = f->time, size = f->size;
		if (q->frame_count) {
			t = q->frames[q->frame_count - 1].time;
			size = q->frames[q->frame_count - 1].size;
		}
		if (tr.flags & UFT_TR_TIME)
			t = tr.time;
		if (tr.flags & UFT_TR_SIZE)
			size = tr.size;
		if (r.type == UFT_ENTRY) {
			if ((!size || (sym_size != UINT64_MAX && sym_size >= size)) && (rc = hold(q, &r)) < 0)
				return rc;
			if (tr.flags & (UFT_TR_TIME | UFT_TR_SIZE)) {
				rc = tc_array_reserve(&q->frames, &q->frame_cap, q->frame_count, sizeof *q->frames, 8);
				if (rc < 0)
					return rc;
				q->frames[q->frame_count++] = (filter_frame){ r.depth, t, size };
			}
			continue;
		}
		if (r.type == UFT_EXIT) {
			if (q->frame_count && q->frames[q->frame_count - 1].depth == r.depth)
				q->frame_count--;
			if (size && sym_size != UINT64_MAX && sym_size < size)
				continue;
			size_t k = q->held_count;
			while (k > 0 && q->held[k - 1].type != UFT_ENTRY)
				k--;
			bool drop = k > 0 && (r.time - q->held[k - 1].time < t || (f->caller && !(tr.flags & UFT_TR_CALLER)));
			if (drop && !(tr.flags & UFT_TR_TRACE)) {
				q->held_count = k - 1;
				continue;
			}
		}
		if ((rc = hold(q, &r)) < 0)
			return rc;
		if (r.type == UFT_EVENT && r.addr < UFT_EV_USER)
			continue;
		q->releasing = true;
	}
}

static int fill(uft_merge *m, task_queue *q)
{
	if (q->has_head || (!q->reader && !q->held_count))
		return 0;
	int rc = m->reading_filters ? next_filtered(m, q, &q->head) : uft_task_reader_next(q->reader, &q->head);
	if (rc < 0)
		return rc;
	q->has_head = rc > 0;
	if (!q->has_head) {
		uft_task_reader_free(q->reader);
		q->reader = NULL;
	}
	return 0;
}

static bool is_sched_out(const uft_record *r)
{
	return r->addr == UFT_EV_SCHED_OUT || r->addr == UFT_EV_SCHED_OUT_PREEMPT;
}

/* With a time filter, uftrace first deals every perf event out to its
 * task's list, in time order (lower CPU first on ties), and drops each
 * sched-out ... sched-in span shorter than the filter together with what
 * the list got between them (utils/perf.c, process_perf_event()). */
static int split_by_task(uft_merge *m, uft_data *d)
{
	if (!(m->by_task = calloc(d->task_count ? d->task_count : 1, sizeof *m->by_task)))
		return tc_fail_nomem();
	m->events = m->by_task;
	m->event_count = d->task_count;
	for (;;) {
		uft_perf *src = NULL;
		for (size_t i = 0; i < m->perf_count; i++) {
			uft_perf *p = &m->perf[i];
			if (p->next < p->count && (!src || p->recs[p->next].time < src->recs[src->next].time))
				src = p;
		}
		if (!src)
			break;
		const uft_record *r = &src->recs[src->next++];
		uft_perf *q = &m->by_task[r->task->index];
		if (r->addr == UFT_EV_SCHED_IN) {
			size_t k = q->count;
			while (k > 0 && !is_sched_out(&q->recs[k - 1]))
				k--;
			if (k > 0 && r->time - q->recs[k - 1].time < m->f.time) {
				q->count = k - 1;
				continue;
			}
		}
		int rc = perf_push(q, r);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int uft_merge_new(uft_merge **out, uft_data *d, const uft_read_filter *f)
{
	uft_merge *m = calloc(1, sizeof *m);
	if (!m)
		return tc_fail_nomem();
	if (f)
		m->f = *f;
	m->reading_filters = m->f.time || m->f.size || m->f.caller || m->f.range_start || m->f.range_stop || m->f.match;
	int rc = 0;
	m->tasks = calloc(d->task_count ? d->task_count : 1, sizeof *m->tasks);
	m->perf = calloc(d->perf_file_count ? d->perf_file_count : 1, sizeof *m->perf);
	if (!m->tasks || !m->perf)
		rc = tc_fail_nomem();
	for (size_t i = 0; i < d->task_count && rc == 0; i++, m->task_count++)
		if (d->tasks[i]->has_data && !d->tasks[i]->excluded)
			rc = uft_task_reader_new(&m->tasks[i].reader, d, d->tasks[i]);
	for (size_t i = 0; i < d->perf_file_count && rc == 0; i++, m->perf_count++)
		rc = uft_perf_read(d, d->perf_files[i], &m->perf[i]);
	m->events = m->perf;
	m->event_count = m->perf_count;
	if (rc == 0 && m->f.time)
		rc = split_by_task(m, d);
	if (rc < 0) {
		uft_merge_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

void uft_merge_free(uft_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->task_count; i++) {
		uft_task_reader_free(m->tasks[i].reader);
		free(m->tasks[i].held);
		free(m->tasks[i].frames);
	}
	for (size_t i = 0; i < m->perf_count; i++)
		uft_perf_free(&m->perf[i]);
	for (size_t i = 0; m->by_task && i < m->event_count; i++)
		uft_perf_free(&m->by_task[i]);
	free(m->tasks);
	free(m->perf);
	free(m->by_task);
	free(m);
}

int uft_merge_next(uft_merge *m, uft_record *rec)
{
	/* The smallest head wins; on ties tasks before perf events, and
	 * lower indexes first.  A LOST record's time 0 makes it win at once. */
	task_queue *best_task = NULL;
	uft_perf *best_perf = NULL;
	uint64_t best = 0;
	for (size_t i = 0; i < m->task_count; i++) {
		task_queue *q = &m->tasks[i];
		int rc = fill(m, q);
		if (rc < 0)
			return rc;
		if (q->has_head && (!best_task || q->head.time < best)) {
			best_task = q;
			best = q->head.time;
		}
	}
	for (size_t i = 0; i < m->event_count; i++) {
		uft_perf *q = &m->events[i];
		/* -r holds for perf events too */
		while ((m->f.range_start || m->f.range_stop) && q->next < q->count && !in_range(m, q->recs[q->next].time))
			q->next++;
		if (q->next < q->count && ((!best_task && !best_perf) || q->recs[q->next].time < best)) {
			best_perf = q;
			best_task = NULL;
			best = q->recs[q->next].time;
		}
	}
	if (best_perf) {
		*rec = best_perf->recs[best_perf->next++];
		return 1;
	}
	if (!best_task)
		return 0;
	*rec = best_task->head;
	best_task->has_head = false;
	return 1;
}

void uft_perf_free(uft_perf *q)
{
	free(q->recs);
	free(q->data);
	memset(q, 0, sizeof *q);
}

bool uft_event_data(const uft_data *d, const uft_record *r, tc_buf *out)
{
	if (r->addr == UFT_EV_TASK_NAME && r->comm) {
		tc_buf_printf(out, "comm=\"%s\"", r->comm);
		return true;
	}
	if (!r->payload)
		return false;
	bool be = d->big_endian;
	const uint8_t *p = r->payload;
	size_t n = r->payload_len;
	bool diff = r->addr == UFT_EV_DIFF_STATM || r->addr == UFT_EV_DIFF_PAGE_FAULT || r->addr == UFT_EV_DIFF_PMU_CYCLE ||
	            r->addr == UFT_EV_DIFF_PMU_CACHE || r->addr == UFT_EV_DIFF_PMU_BRANCH;
	const char *sign = diff ? "+" : "";
	switch (r->addr) {
	case UFT_EV_READ_STATM:
	case UFT_EV_DIFF_STATM:
		if (n < 24)
			return false;
		tc_buf_printf(out, "vmsize=%s%lldKB vmrss=%s%lldKB shared=%s%lldKB", sign, (long long)tc_load_uint(p, 8, be), sign,
		              (long long)tc_load_uint(p + 8, 8, be), sign, (long long)tc_load_uint(p + 16, 8, be));
		return true;
	case UFT_EV_READ_PAGE_FAULT:
	case UFT_EV_DIFF_PAGE_FAULT:
		if (n < 16)
			return false;
		tc_buf_printf(out, "major=%s%lld minor=%s%lld", sign, (long long)tc_load_uint(p, 8, be), sign,
		              (long long)tc_load_uint(p + 8, 8, be));
		return true;
	case UFT_EV_WATCH_CPU:
		if (n < 4)
			return false;
		tc_buf_printf(out, "cpu=%d", (int)tc_load_uint(p, 4, be));
		return true;
	default:
		return false;
	}
}
