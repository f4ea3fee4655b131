/* SPDX-License-Identifier: MIT */
/*
 * filter.c - the message filter `print` and `convert` share: a time range
 * given as babeltrace2's trimmer takes it (--begin/--end), event-name
 * patterns (--events) and CPUs (--cpu), and a time range per trace
 * (--stream-intersection).  Discarded-item messages pass the time and CPU
 * tests only: they have no event name.
 */
#include "core/core.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct time_bound {
	bool set;
	bool needs_date;     /* time of day only: the date comes from the first message */
	bool gmt;
	int64_t sec;         /* seconds from the epoch, or of the day when needs_date */
	uint32_t nsec;
	tc_time t;
} time_bound;

/* A trace's own time range: babeltrace2 puts a trimmer with it on each
 * stream of the trace, before its muxer. */
typedef struct trace_range {
	const tc_trace *trace;
	tc_time begin, end;
} trace_range;

struct tc_filter {
	time_bound begin, end;
	trace_range *trace_ranges;
	size_t trace_range_count;
	char **patterns;
	size_t pattern_count;
	/* The last event class matched against the patterns, with the answer
	 * in its low bit: one word, so that threads matching at once always
	 * read a class with its own answer.  Runs of one class are common. */
	atomic_uintptr_t last_class;
	bool *cpus;          /* indexed by CPU, NULL: any */
	size_t cpu_limit;
};

int tc_filter_new(tc_filter **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? 0 : tc_fail_nomem();
}

void tc_filter_free(tc_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->pattern_count; i++)
		free(f->patterns[i]);
	free(f->patterns);
	free(f->cpus);
	free(f->trace_ranges);
	free(f);
}

bool tc_filter_is_empty(const tc_filter *f)
{
	return !f || (!f->begin.set && !f->end.set && !f->pattern_count && !f->cpus && !f->trace_range_count);
}

/* Up to 9 digits after a dot, as nanoseconds; false on anything else. */
static bool parse_fraction(const char **p, uint32_t *nsec)
{
	*nsec = 0;
	if (**p != '.')
		return true;
	(*p)++;
	int digits = 0;
	while (isdigit((unsigned char)**p)) {
		if (++digits > 9)
			return false;
		*nsec = *nsec * 10 + (uint32_t)(**p - '0');
		(*p)++;
	}
	for (int i = digits; i < 9; i++)
		*nsec *= 10;
	return digits > 0;
}

static bool parse_uint(const char **p, int min_digits, int max_digits, int *out)
{
	int n = 0, v = 0;
	while (isdigit((unsigned char)**p) && n < max_digits) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	*out = v;
	return n >= min_digits;
}

static int64_t calendar_seconds(struct tm *tm, bool gmt)
{
	tm->tm_isdst = -1;
	return (int64_t)(gmt ? timegm(tm) : mktime(tm));
}

/* babeltrace2's trimmer formats: "YYYY-MM-DD HH:MM[:SS[.N]]",
 * "HH:MM[:SS[.N]]" and "[-]SECONDS[.N]". */
static int parse_bound(const char *text, bool gmt, time_bound *b)
{
	const char *p = text;
	memset(b, 0, sizeof *b);
	b->gmt = gmt;
	int y, mo, d, h, mi, s = 0;
	const char *q = p;
	if (parse_uint(&q, 4, 4, &y) && *q == '-' && (q++, parse_uint(&q, 2, 2, &mo)) && *q == '-' &&
	    (q++, parse_uint(&q, 2, 2, &d)) && (*q == ' ' || *q == 'T')) {
		q++;
		if (!parse_uint(&q, 2, 2, &h) || *q++ != ':' || !parse_uint(&q, 2, 2, &mi))
			goto bad;
		if (*q == ':' && (q++, !parse_uint(&q, 2, 2, &s)))
			goto bad;
		if (!parse_fraction(&q, &b->nsec) || *q)
			goto bad;
		struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h, .tm_min = mi, .tm_sec = s };
		b->sec = calendar_seconds(&tm, gmt);
		b->t.sec = b->sec;
		b->t.nsec = b->nsec;
		b->set = true;
		return 0;
	}
	q = p;
	if (parse_uint(&q, 1, 2, &h) && *q == ':') {
		q++;
		if (!parse_uint(&q, 2, 2, &mi))
			goto bad;
		if (*q == ':' && (q++, !parse_uint(&q, 2, 2, &s)))
			goto bad;
		if (!parse_fraction(&q, &b->nsec) || *q)
			goto bad;
		b->sec = (int64_t)h * 3600 + mi * 60 + s;
		b->needs_date = true;
		b->set = true;
		return 0;
	}
	q = p;
	bool neg = *q == '-';
	if (neg)
		q++;
	if (!isdigit((unsigned char)*q))
		goto bad;
	char *end;
	long long secs = strtoll(q, &end, 10);
	q = end;
	if (!parse_fraction(&q, &b->nsec) || *q)
		goto bad;
	if (neg) {
		b->t.sec = -(int64_t)secs - (b->nsec ? 1 : 0);
		b->t.nsec = b->nsec ? 1000000000u - b->nsec : 0;
	} else {
		b->t.sec = secs;
		b->t.nsec = b->nsec;
	}
	b->set = true;
	return 0;
bad:
	return tc_fail(TC_EINVAL, NULL, -1,
	               "cannot read time \"%s\" (expected YYYY-MM-DD HH:MM[:SS[.NNNNNNNNN]], HH:MM[:SS[.NNNNNNNNN]] or [-]SECONDS[.NNNNNNNNN])",
	               text);
}

int tc_filter_set_begin(tc_filter *f, const char *text, bool gmt)
{
	return parse_bound(text, gmt, &f->begin);
}

int tc_filter_set_end(tc_filter *f, const char *text, bool gmt)
{
	return parse_bound(text, gmt, &f->end);
}

int tc_filter_set_trace_range(tc_filter *f, const tc_trace *t, tc_time begin, tc_time end)
{
	trace_range *r = realloc(f->trace_ranges, (f->trace_range_count + 1) * sizeof *r);
	if (!r)
		return tc_fail_nomem();
	f->trace_ranges = r;
	r[f->trace_range_count++] = (trace_range){ t, begin, end };
	return 0;
}

int tc_filter_add_events(tc_filter *f, const char *list)
{
	const char *p = list;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n) {
			char *pat = strndup(p, n);
			if (!pat || tc_ptr_push((void ***)&f->patterns, &f->pattern_count, pat) < 0) {
				free(pat);
				return tc_fail_nomem();
			}
		}
		p += n + (comma != NULL);
	}
	return 0;
}

int tc_filter_add_cpus(tc_filter *f, const char *list)
{
	if (!f->cpus && !(f->cpus = calloc(TC_CPU_LIST_MAX, sizeof *f->cpus)))
		return tc_fail_nomem();
	return tc_cpu_list_add(f->cpus, &f->cpu_limit, list);
}

int tc_cpu_list_add(bool *cpus, size_t *limit, const char *list)
{
	const char *p = list;
	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		if (end == p || lo < 0 || lo >= TC_CPU_LIST_MAX)
			goto bad;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo || hi >= TC_CPU_LIST_MAX)
				goto bad;
			p = end;
		}
		for (long c = lo; c <= hi; c++)
			cpus[c] = true;
		if ((size_t)hi + 1 > *limit)
			*limit = (size_t)hi + 1;
		if (*p == ',')
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return tc_fail(TC_EINVAL, NULL, -1, "cannot read CPU list \"%s\" (expected numbers and ranges: 0,2-3)", list);
}

/* A time-of-day bound on the date of T, in the bound's time zone. */
static void resolve_bound(time_bound *b, tc_time t)
{
	time_t secs = (time_t)t.sec;
	struct tm tm;
	if (b->gmt)
		gmtime_r(&secs, &tm);
	else
		localtime_r(&secs, &tm);
	tm.tm_hour = (int)(b->sec / 3600);
	tm.tm_min = (int)(b->sec / 60 % 60);
	tm.tm_sec = (int)(b->sec % 60);
	b->t.sec = calendar_seconds(&tm, b->gmt);
	b->t.nsec = b->nsec;
	b->needs_date = false;
}

void tc_filter_set_first_time(tc_filter *f, tc_time first)
{
	if (f->begin.needs_date)
		resolve_bound(&f->begin, first);
	if (f->end.needs_date)
		resolve_bound(&f->end, first);
}

/* The trimmer's test: an event at its time, a discarded-items report
 * over its whole span. */
static bool before(const tc_message *msg, tc_time begin)
{
	return tc_time_cmp(msg->kind == TC_MSG_EVENT ? msg->time : msg->end_time, begin) < 0;
}

bool tc_filter_match(tc_filter *f, const tc_message *msg)
{
	if (msg->has_time && (f->begin.set || f->end.set)) {
		if (f->begin.needs_date || f->end.needs_date)
			tc_filter_set_first_time(f, msg->time);
		if (f->begin.set && before(msg, f->begin.t))
			return false;
		if (f->end.set && tc_time_cmp(msg->time, f->end.t) > 0)
			return false;
	}
	for (size_t i = 0; msg->has_time && i < f->trace_range_count; i++) {
		const trace_range *r = &f->trace_ranges[i];
		if (r->trace == msg->stream->trace && (before(msg, r->begin) || tc_time_cmp(msg->time, r->end) > 0))
			return false;
	}
	if (f->cpus) {
		int cpu = msg->stream->cpu;
		if (cpu < 0 || (size_t)cpu >= f->cpu_limit || !f->cpus[cpu])
			return false;
	}
	return msg->kind != TC_MSG_EVENT || tc_filter_match_class(f, msg->event_class);
}

/* The clock value of time T on CLK, as babeltrace2 works it out
 * (bt_common_clock_value_from_ns_from_origin): whole periods, then the
 * nanoseconds left scaled down.  False when T is before the clock's zero
 * or out of reach. */
static bool time_to_cycles(const tc_clock *clk, tc_time t, uint64_t *cycles)
{
	const int64_t ns_per_s = 1000000000;
	__int128 offset = (__int128)clk->offset_s * ns_per_s +
	                  (clk->freq == (uint64_t)ns_per_s ? (__int128)clk->offset : (__int128)clk->offset * ns_per_s / clk->freq);
	__int128 value = (__int128)t.sec * ns_per_s + t.nsec - offset;
	if (value < 0)
		return false;
	unsigned __int128 c = (unsigned __int128)(value / ns_per_s) * clk->freq +
	                      (unsigned __int128)clk->freq * (uint64_t)(value % ns_per_s) / (uint64_t)ns_per_s;
	if (c > UINT64_MAX)
		return false;
	*cycles = (uint64_t)c;
	return true;
}

/* Moves one end of a discarded-items report to bound T, its count then
 * unknown: the cycles T is on the stream's clock, and their time. */
static void cut(const tc_clock *clk, tc_time t, uint64_t *cycles, tc_time *time, tc_message *m)
{
	uint64_t c;
	if (!clk || !time_to_cycles(clk, t, &c) || !tc_clock_cycles_to_time(clk, c, time))
		return;
	*cycles = c;
	m->count = 0;
}

const tc_message *tc_filter_clip(const tc_filter *f, const tc_message *msg, tc_message *copy)
{
	if (msg->kind == TC_MSG_EVENT || !msg->has_time || !msg->has_range)
		return msg;
	bool has_begin = f->begin.set && !f->begin.needs_date, has_end = f->end.set && !f->end.needs_date;
	tc_time begin = f->begin.t, end = f->end.t;
	for (size_t i = 0; i < f->trace_range_count; i++) {
		const trace_range *r = &f->trace_ranges[i];
		if (r->trace != msg->stream->trace)
			continue;
		if (!has_begin || tc_time_cmp(r->begin, begin) > 0)
			begin = r->begin;
		if (!has_end || tc_time_cmp(r->end, end) < 0)
			end = r->end;
		has_begin = has_end = true;
	}
	bool early = has_begin && tc_time_cmp(msg->time, begin) < 0, late = has_end && tc_time_cmp(msg->end_time, end) > 0;
	if (!early && !late)
		return msg;
	const tc_clock *clk = msg->stream->stream_class->clock;
	*copy = *msg;
	/* Seeking to the beginning cuts a report that straddles it
	 * (bt_message_iterator_seek_ns_from_origin's auto-seek); the trimmer
	 * cuts one that runs past its end (filter.utils.trimmer). */
	if (early)
		cut(clk, begin, &copy->cycles, &copy->time, copy);
	if (late)
		cut(clk, end, &copy->end_cycles, &copy->end_time, copy);
	return copy;
}

bool tc_filter_match_class(tc_filter *f, const tc_event_class *ec)
{
	if (!f->pattern_count)
		return true;
	uintptr_t last = atomic_load_explicit(&f->last_class, memory_order_relaxed);
	if ((last & ~(uintptr_t)1) == (uintptr_t)ec)
		return last & 1;
	bool match = false;
	for (size_t i = 0; i < f->pattern_count && !match; i++)
		match = fnmatch(f->patterns[i], ec->name, 0) == 0;
	atomic_store_explicit(&f->last_class, (uintptr_t)ec | match, memory_order_relaxed);
	return match;
}
