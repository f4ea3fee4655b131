/* SPDX-License-Identifier: MIT */
/*
 * tracedat_batch_test.c - the trace.dat records read ahead in batches
 * (src/tracedat/batch.c, through src/core/prefetch.c as `report -j`
 * reads them) are exactly the records of the cursors: for every CPU of
 * every fixture, damaged ones included, the same times, CPUs, sizes,
 * offsets, lost-event marks and bytes, in uncompressed files the rest of
 * the record's page too (libtraceevent reads into it), and the error of a
 * damaged CPU after the same records; for small batch sizes, which split
 * pages and wrap the ring of batches, on one to three threads, and with
 * the cursor reading on before a batch is read (the sanitizer build finds
 * a batch whose window went away).
 *
 * Run from the top of the source tree (tests/run.sh does).
 */
#include "check.h"
#include "prefetch_read.h"
#include "tracedat/tracedat.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

/* One CPU of one buffer. */
typedef struct cpu_ref {
	size_t buffer;
	int cpu;
	uint64_t data_offset;    /* of its pages in the file */
	uint32_t page_size;
	bool compressed;
} cpu_ref;

typedef struct trace {
	tracedat_file *f;
	cpu_ref *cpus;
	size_t count;
} trace;

static bool trace_open(trace *t, const char *path)
{
	memset(t, 0, sizeof *t);
	if (tracedat_open(&t->f, path) < 0)
		return false;
	const tracedat_meta *m = tracedat_meta_of(t->f);
	size_t n = 0;
	for (size_t b = 0; b < m->buffer_count; b++)
		n += m->buffers[b].cpu_data_count;
	t->cpus = calloc(n ? n : 1, sizeof *t->cpus);
	for (size_t b = 0; b < m->buffer_count; b++)
		for (size_t i = 0; i < m->buffers[b].cpu_data_count; i++)
			t->cpus[t->count++] = (cpu_ref){ b, m->buffers[b].cpu_data[i].cpu, m->buffers[b].cpu_data[i].offset,
			                                 m->buffers[b].page_size, m->buffers[b].compressed };
	return true;
}

static void trace_close(trace *t)
{
	free(t->cpus);
	tracedat_close(t->f);
}

/* What a record says, its bytes in hex and, where the offset tells where
 * its page ends (uncompressed data), the rest of the page after it. */
static void put_record(FILE *o, const cpu_ref *c, const tracedat_record *r)
{
	fprintf(o, "%llu %d %u %llu %d %llu:", (unsigned long long)r->ts, r->cpu, r->size, (unsigned long long)r->offset,
	        r->missed_events, (unsigned long long)r->missed_count);
	size_t n = r->size;
	if (!c->compressed && c->page_size && r->offset >= c->data_offset) {
		uint64_t page_end = r->offset + c->page_size - (r->offset - c->data_offset) % c->page_size;
		/* The data start 4 or 8 bytes after the offset (the header). */
		if (page_end - r->offset - 8 > n)
			n = (size_t)(page_end - r->offset - 8);
	}
	const uint8_t *p = r->data;
	for (size_t i = 0; i < n; i++)
		fprintf(o, "%02x", p[i]);
	fputc('\n', o);
}

/* One text per CPU: its records, then its error. */
typedef struct cpu_text {
	char *text;
	size_t len;
	FILE *f;
} cpu_text;

static cpu_text *texts_new(size_t n)
{
	cpu_text *t = calloc(n ? n : 1, sizeof *t);
	for (size_t i = 0; i < n; i++)
		t[i].f = open_memstream(&t[i].text, &t[i].len);
	return t;
}

static void put_error(cpu_text *t)
{
	char line[5200];
	tc_error_format(tc_error_last(), line, sizeof line);
	fprintf(t->f, "ERROR %s\n", line);
}

static void texts_free(cpu_text *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (t[i].f)
			fclose(t[i].f);
		free(t[i].text);
	}
	free(t);
}

static void texts_close(cpu_text *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fclose(t[i].f);
		t[i].f = NULL;
	}
}

/* Each CPU of T record by record from its cursor: the reference. */
static cpu_text *read_cursors(const trace *t)
{
	cpu_text *x = texts_new(t->count);
	for (size_t i = 0; i < t->count; i++) {
		tracedat_cursor *c;
		tracedat_record r;
		int rc;
		if (tracedat_cursor_open(t->f, t->cpus[i].buffer, t->cpus[i].cpu, &c) < 0) {
			put_error(&x[i]);
			continue;
		}
		while ((rc = tracedat_cursor_next(c, &r)) > 0)
			put_record(x[i].f, &t->cpus[i], &r);
		if (rc < 0)
			put_error(&x[i]);
		tracedat_cursor_close(c);
	}
	texts_close(x, t->count);
	return x;
}

static tracedat_cursor **open_cursors(const trace *t, tc_stream_iter **iters)
{
	tracedat_cursor **c = calloc(t->count ? t->count : 1, sizeof *c);
	for (size_t i = 0; i < t->count; i++) {
		tracedat_cursor_open(t->f, t->cpus[i].buffer, t->cpus[i].cpu, &c[i]);
		tracedat_batch_iter_new(c[i], &iters[i]);
	}
	return c;
}

static void close_cursors(const trace *t, tracedat_cursor **c, tc_stream_iter **iters)
{
	for (size_t i = 0; i < t->count; i++) {
		iters[i]->ops->free(iters[i]);
		tracedat_cursor_close(c[i]);
	}
	free(c);
}

struct put_batch_ctx {
	const trace *t;
	cpu_text *x;
};

static void put_batch(void *ctx, size_t i, const tc_batch *b)
{
	struct put_batch_ctx *c = ctx;
	for (size_t k = 0; k < b->count; k++)
		put_record(c->x[i].f, &c->t->cpus[i], &tracedat_batch_records(b)[k]);
}

static void put_batch_error(void *ctx, size_t i)
{
	put_error(&((struct put_batch_ctx *)ctx)->x[i]);
}

/* The same through a prefetcher on THREADS threads in batches of CAP,
 * a batch of each CPU in turn; with STOP_EARLY, only the first of each. */
static cpu_text *read_prefetched(const trace *t, unsigned threads, size_t cap, bool stop_early)
{
	size_t n = t->count;
	tc_stream_iter **iters = calloc(n ? n : 1, sizeof *iters);
	tracedat_cursor **c = open_cursors(t, iters);
	tc_prefetch *p;
	cpu_text *x = texts_new(n);
	if (tc_prefetch_new(&p, iters, n, threads, cap) < 0)
		return NULL;
	struct put_batch_ctx ctx = { t, x };
	prefetch_read(p, n, stop_early, put_batch, put_batch_error, &ctx);
	tc_prefetch_free(p);
	close_cursors(t, c, iters);
	free(iters);
	texts_close(x, n);
	return x;
}

/*
 * Each CPU through its iterator's batches directly: a batch is read only
 * after the next one is filled (the cursor has read on, into new windows),
 * then released and its storage freed.
 */
static cpu_text *read_batches_behind(const trace *t, size_t cap)
{
	size_t n = t->count;
	tc_stream_iter **iters = calloc(n ? n : 1, sizeof *iters);
	tracedat_cursor **c = open_cursors(t, iters);
	cpu_text *x = texts_new(n);
	for (size_t i = 0; i < n; i++) {
		tc_stream_iter *it = iters[i];
		tc_batch b[2] = { { .cap = cap }, { .cap = cap } };
		int rc;
		for (unsigned k = 0;; k++) {
			tc_batch *now = &b[k % 2], *before = &b[(k + 1) % 2];
			rc = it->ops->fill(it, now);
			if (rc <= 0)
				now->count = 0;
			for (size_t m = 0; m < before->count; m++)
				put_record(x[i].f, &t->cpus[i], &tracedat_batch_records(before)[m]);
			if (before->count)
				it->ops->release(it, before);
			if (before->store)
				it->ops->free_store(before->store);
			*before = (tc_batch){ .cap = cap };
			if (rc <= 0)
				break;
		}
		if (rc < 0)
			put_error(&x[i]);
		for (int k = 0; k < 2; k++)
			if (b[k].store)
				it->ops->free_store(b[k].store);
	}
	close_cursors(t, c, iters);
	free(iters);
	texts_close(x, n);
	return x;
}

/* THREADS 0: read_batches_behind(). */
static void compare(const char *path, unsigned threads, size_t cap)
{
	trace t;
	char name[4200];
	snprintf(name, sizeof name, "tracedat-batch/%s/threads=%u/batch=%zu", path, threads, cap);
	if (!trace_open(&t, path)) {
		check(false, name, "cannot open the trace");
		return;
	}
	cpu_text *want = read_cursors(&t);
	cpu_text *got = threads ? read_prefetched(&t, threads, cap, false) : read_batches_behind(&t, cap);
	size_t bad = t.count;
	for (size_t i = 0; got && i < t.count && bad == t.count; i++)
		if (want[i].len != got[i].len || memcmp(want[i].text, got[i].text, want[i].len) != 0)
			bad = i;
	check(got && bad == t.count, name, "CPU %zu differs:\n--- cursor\n%.2000s\n--- batches\n%.2000s", bad,
	      got && bad < t.count ? want[bad].text : "", got && bad < t.count ? got[bad].text : "");
	texts_free(want, t.count);
	if (got)
		texts_free(got, t.count);
	trace_close(&t);
}

int main(void)
{
	static const unsigned thread_counts[] = { 1, 2, 3 };
	static const size_t caps[] = { 1, 2, 3, 7, 0 };
	glob_t g;
	if (glob("tests/fixtures/tracedat/*.dat", 0, NULL, &g) != 0 ||
	    glob("tests/fixtures/tracedat-bad/*.dat", GLOB_APPEND, NULL, &g) != 0) {
		check(false, "tracedat-batch/fixtures", "no trace.dat fixture (run from the top of the tree)");
		return 1;
	}
	for (size_t f = 0; f < g.gl_pathc; f++) {
		/* A damaged file refused when it is opened (one cut short) has
		 * no CPU to read in batches. */
		tracedat_file *probe;
		if (strstr(g.gl_pathv[f], "tracedat-bad/")) {
			if (tracedat_open(&probe, g.gl_pathv[f]) < 0)
				continue;
			tracedat_close(probe);
		}
		for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++)
			for (size_t c = 0; c < sizeof caps / sizeof *caps; c++)
				compare(g.gl_pathv[f], thread_counts[t], caps[c]);
		for (size_t c = 0; c + 1 < sizeof caps / sizeof *caps; c++)
			compare(g.gl_pathv[f], 0, caps[c]);
	}
	/* Batches still waiting when the reader stops are released: the
	 * sanitizer build finds a leak. */
	trace t;
	bool opened = trace_open(&t, g.gl_pathv[0]);
	check(opened, "tracedat-batch/stop-early", "cannot open %s", g.gl_pathv[0]);
	if (opened) {
		cpu_text *x = read_prefetched(&t, 3, 2, true);
		texts_free(x, t.count);
		trace_close(&t);
	}
	globfree(&g);
	return n_fail ? 1 : 0;
}
