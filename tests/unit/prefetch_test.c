/* SPDX-License-Identifier: MIT */
/*
 * prefetch_test.c - decoding ahead on worker threads (src/core/prefetch.c
 * and the CTF and uftrace readers' batches) hands out exactly what reading
 * each stream message by message does: for small batch sizes, which split
 * packets and wrap the ring of batches, and for one to three threads,
 * every stream's messages render to the same text, the error of a damaged
 * stream comes after the same messages, and stopping early releases
 * everything.
 *
 * Run from the top of the source tree (tests/run.sh does) on fixtures with
 * several streams, discarded events and packets; a damaged copy of one is
 * made in a temporary folder.
 */
#include "check.h"
#include "prefetch_read.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One text per stream: what its messages print as, then the error. */
typedef struct stream_text {
	char *text;
	size_t len;
	FILE *f;
	tc_text_printer *printer;
} stream_text;

static stream_text *texts_new(size_t n)
{
	tc_text_options o;
	tc_text_options_default(&o);
	o.clock_gmt = true;
	o.field_trace = true;
	stream_text *t = calloc(n ? n : 1, sizeof *t);
	for (size_t i = 0; t && i < n; i++) {
		t[i].f = open_memstream(&t[i].text, &t[i].len);
		tc_text_printer_new(&t[i].printer, &o, t[i].f, t[i].f);
	}
	return t;
}

static void text_error(stream_text *t)
{
	char line[5200];
	tc_error_format(tc_error_last(), line, sizeof line);
	tc_text_printer_flush(t->printer);
	fprintf(t->f, "ERROR %s\n", line);
}

static void texts_close(stream_text *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		tc_text_printer_free(t[i].printer);
		fclose(t[i].f);
	}
}

static void texts_free(stream_text *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].text);
	free(t);
}

/* Each stream of PATH read message by message, the reference. */
static stream_text *read_one_by_one(const char *path, size_t *count)
{
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0)
		return NULL;
	*count = tc_input_stream_count(in);
	stream_text *t = texts_new(*count);
	for (size_t i = 0; i < *count; i++) {
		const tc_message *msg;
		int rc;
		while ((rc = tc_input_stream_next(in, i, &msg)) > 0)
			tc_text_printer_print(t[i].printer, msg);
		if (rc < 0)
			text_error(&t[i]);
	}
	texts_close(t, *count);
	tc_input_free(in);
	return t;
}

typedef struct prefetched {
	stream_text *t;
	tc_prefetch *p;
	unsigned switch_every;    /* batches between changes of who fills; 0: none */
	unsigned batches;
} prefetched;

static void print_batch(void *ctx, size_t i, const tc_batch *b)
{
	prefetched *c = ctx;
	for (size_t k = 0; k < b->count; k++)
		tc_text_printer_print(c->t[i].printer, &b->msgs[k]);
	if (c->switch_every && ++c->batches % c->switch_every == 0)
		tc_prefetch_set_alone(c->p, c->batches / c->switch_every % 2);
}

static void print_error(void *ctx, size_t i)
{
	text_error(((prefetched *)ctx)->t + i);
}

/* The same through a prefetcher, taking a batch of each stream in turn;
 * with STOP_EARLY, only the first batch of each; every SWITCH_EVERY
 * batches (0: never), the caller takes over filling or hands it back. */
static stream_text *read_prefetched(const char *path, unsigned threads, size_t cap, bool stop_early,
                                    unsigned switch_every, size_t *count)
{
	tc_input *in;
	tc_prefetch *p;
	if (tc_input_open(&in, path, NULL) < 0)
		return NULL;
	size_t n = *count = in->iter_count;
	if (tc_prefetch_new(&p, in->iters, n, threads, cap) < 0) {
		tc_input_free(in);
		return NULL;
	}
	stream_text *t = texts_new(n);
	prefetched ctx = { t, p, switch_every, 0 };
	prefetch_read(p, n, stop_early, print_batch, print_error, &ctx);
	texts_close(t, n);
	tc_prefetch_free(p);
	tc_input_free(in);
	return t;
}

/*
 * Each stream of PATH through the iterators' batches directly, each batch
 * of CAP messages printed only after the one before has been released and
 * its storage freed: a batch that kept a pointer into the one before (its
 * packet context, say) is a use after free for the sanitizer build.
 */
static stream_text *read_batches_alone(const char *path, size_t cap, size_t *count)
{
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0)
		return NULL;
	size_t n = *count = in->iter_count;
	stream_text *t = texts_new(n);
	for (size_t i = 0; i < n; i++) {
		tc_stream_iter *it = in->iters[i];
		tc_batch b[2] = { { .cap = cap }, { .cap = cap } };
		b[0].msgs = calloc(cap, sizeof *b[0].msgs);
		b[1].msgs = calloc(cap, sizeof *b[1].msgs);
		int rc;
		for (unsigned k = 0; (rc = it->ops->fill(it, &b[k % 2])) > 0; k++) {
			tc_batch *before = &b[(k + 1) % 2];
			if (before->store) {
				it->ops->release(it, before);
				it->ops->free_store(before->store);
				before->store = NULL;
			}
			for (size_t m = 0; m < b[k % 2].count; m++)
				tc_text_printer_print(t[i].printer, &b[k % 2].msgs[m]);
		}
		if (rc < 0)
			text_error(&t[i]);
		for (int k = 0; k < 2; k++) {
			if (b[k].store) {
				if (b[k].count)
					it->ops->release(it, &b[k]);
				it->ops->free_store(b[k].store);
			}
			free(b[k].msgs);
		}
	}
	texts_close(t, n);
	tc_input_free(in);
	return t;
}

/* THREADS 0: read_batches_alone(). */
static void compare(const char *path, unsigned threads, size_t cap, unsigned switch_every)
{
	size_t n = 0, got_n = 0;
	stream_text *want = read_one_by_one(path, &n);
	stream_text *got = threads ? read_prefetched(path, threads, cap, false, switch_every, &got_n)
	                           : read_batches_alone(path, cap, &got_n);
	char name[4200];
	snprintf(name, sizeof name, "prefetch/%s/threads=%u/batch=%zu%s", path, threads, cap,
	         switch_every ? "/switching" : "");
	if (!want || !got || n != got_n) {
		check(false, name, "cannot open the trace");
	} else {
		size_t bad = n;
		for (size_t i = 0; i < n && bad == n; i++)
			if (want[i].len != got[i].len || memcmp(want[i].text, got[i].text, want[i].len) != 0)
				bad = i;
		check(bad == n, name, "stream %zu differs:\n--- one by one\n%.2000s\n--- prefetched\n%.2000s", bad,
		      bad < n ? want[bad].text : "", bad < n ? got[bad].text : "");
	}
	if (want)
		texts_free(want, n);
	if (got)
		texts_free(got, got_n);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static const char *copy_from, *copy_to;

static int copy_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	char dst[4200];
	snprintf(dst, sizeof dst, "%s%s", copy_to, path + strlen(copy_from));
	if (flag == FTW_D)
		return mkdir(dst, 0755) < 0 && ftw->level > 0;
	if (flag != FTW_F)
		return 0;
	FILE *in = fopen(path, "rb"), *out = fopen(dst, "wb");
	char buf[8192];
	size_t got;
	while (in && out && (got = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, got, out);
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	return !in || !out;
}

/* A copy of the trace TRACE whose biggest stream file loses its last 100
 * bytes: its last packet runs past the end of the file. */
static bool make_damaged(const char *trace, char *dir)
{
	strcpy(dir, "/tmp/tc-prefetch-XXXXXX");
	if (!mkdtemp(dir))
		return false;
	copy_from = trace;
	copy_to = dir;
	if (nftw(trace, copy_entry, 16, FTW_PHYS) != 0)
		return false;
	char cmd[9000];
	snprintf(cmd, sizeof cmd,
	         "f=$(find '%s' -type f ! -name metadata ! -name '*.idx' -printf '%%s %%p\\n' | sort -n | tail -1 | cut -d' ' -f2-);"
	         " truncate -s -100 \"$f\"", dir);
	return system(cmd) == 0;
}

static void compare_all(const char *path)
{
	static const unsigned thread_counts[] = { 1, 2, 3 };
	static const size_t caps[] = { 1, 2, 3, 7, 0 };
	for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++)
		for (size_t c = 0; c < sizeof caps / sizeof *caps; c++)
			compare(path, thread_counts[t], caps[c], 0);
	for (size_t c = 0; c + 1 < sizeof caps / sizeof *caps; c++)
		compare(path, 0, caps[c], 0);
	/* the caller filling alone, then the workers again, over and over */
	compare(path, 2, 2, 3);
	compare(path, 3, 1, 2);
}

int main(void)
{
	static const char *const traces[] = {
		"tests/fixtures/ctf2-lttng/ust-lost",     /* discarded events */
		"tests/fixtures/ctf2-lttng/ust-per-channel",
		"tests/fixtures/ctf/ust-pid",
		"tests/fixtures/ctf/sample",
		"tests/fixtures/uftrace/args",       /* texts in the batches' stores */
		"tests/fixtures/uftrace/fork",       /* tasks and perf-cpu streams */
	};
	for (size_t i = 0; i < sizeof traces / sizeof *traces; i++)
		compare_all(traces[i]);

	/* CTF 1.8: a CTF 2 trace with a damaged packet is refused when opened,
	 * as babeltrace2 2.1.2 checks every packet first. */
	char dir[64];
	bool made = make_damaged(traces[2], dir);
	check(made, "prefetch/damaged-copy", "cannot copy %s", traces[2]);
	if (made) {
		compare_all(dir);
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	/* Batches still waiting when the reader stops are released: the
	 * sanitizer build finds a leak or a use after unmap. */
	size_t n = 0;
	stream_text *t = read_prefetched(traces[0], 3, 2, true, 0, &n);
	check(t != NULL, "prefetch/stop-early", "cannot open %s", traces[0]);
	if (t)
		texts_free(t, n);
	return n_fail ? 1 : 0;
}
