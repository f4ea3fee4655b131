/* SPDX-License-Identifier: MIT */
/*
 * bytes_read_test.c - tc_input_bytes_read(), the figure `tracecat
 * convert`'s progress line sets against the size of its inputs: for a
 * fixture of every format, read message by message, through the streams
 * one by one and through a muxer decoding ahead on worker threads, the
 * count starts with what was read at open, grows as the streams are read
 * and never goes down, and ends at the bytes of the input's files: every
 * file but a CTF trace's index, which is not read.  Run from the top of
 * the source tree (tests/run.sh does).
 */
#include "check.h"

#include <ftw.h>
#include <string.h>
#include <sys/stat.h>

/* nftw() gives its callback no context: the sum. */
static uint64_t counted_sum;

static int add_if_counted(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_F && !strstr(path, "/index/"))
		counted_sum += (uint64_t)st->st_size;
	return 0;
}

/* The bytes of the input PATH's files (the file itself, or those below
 * the folder), but a CTF index's. */
static uint64_t files_bytes(const char *dir)
{
	counted_sum = 0;
	nftw(dir, add_if_counted, 16, FTW_PHYS);
	return counted_sum;
}

/* Reads PATH whole, by tc_input_next() or (THREADS > 0) a muxer on
 * THREADS threads, checking after every message that the count has not
 * gone down; the count at the end, or UINT64_MAX when something failed,
 * and the count at open in *AT_OPEN. */
static uint64_t read_counting(const char *path, unsigned threads, const char *name, uint64_t *at_open)
{
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0) {
		check(false, name, "cannot open %s: %s", path, tc_error_last()->message);
		return UINT64_MAX;
	}
	tc_muxer *mux = NULL;
	if (threads && (tc_muxer_new(&mux) < 0 || tc_muxer_set_threads(mux, threads) < 0 || tc_muxer_add_input(mux, in) < 0)) {
		check(false, name, "cannot make a muxer: %s", tc_error_last()->message);
		tc_muxer_free(mux);
		tc_input_free(in);
		return UINT64_MAX;
	}
	/* what the reader read whole at open is counted from the start */
	uint64_t before = *at_open = tc_input_bytes_read(in), messages = 0;
	bool monotonic = true;
	const tc_message *msg;
	int rc;
	while ((rc = mux ? tc_muxer_next(mux, &msg) : tc_input_next(in, &msg)) > 0) {
		uint64_t now = tc_input_bytes_read(in);
		monotonic &= now >= before;
		before = now;
		messages++;
	}
	uint64_t end = tc_input_bytes_read(in);
	check(rc == 0 && monotonic && messages > 0, name, "rc %d, %llu messages, count %s", rc,
	      (unsigned long long)messages, monotonic ? "monotonic" : "went down");
	tc_muxer_free(mux);
	tc_input_free(in);
	return rc == 0 ? end : UINT64_MAX;
}

static void check_input(const char *path, uint64_t want)
{
	static const unsigned ways[] = { 0, 1, 3 };
	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
		char name[160];
		if (ways[w])
			snprintf(name, sizeof name, "bytes-read/%s/muxer-threads-%u", path + strlen("tests/fixtures/"), ways[w]);
		else
			snprintf(name, sizeof name, "bytes-read/%s/input-next", path + strlen("tests/fixtures/"));
		uint64_t at_open, got = read_counting(path, ways[w], name, &at_open);
		strcat(name, "/total");
		check(got == want && at_open < got, name, "count %llu at open, %llu at the end, want %llu",
		      (unsigned long long)at_open, (unsigned long long)got, (unsigned long long)want);
	}
}

int main(void)
{
	static const char *const inputs[] = {
		"tests/fixtures/ctf/sample",
		"tests/fixtures/ctf/ust-pid",
		"tests/fixtures/lttng-legacy/v26-le-lost",
		"tests/fixtures/lttng-legacy/v07-facilities",
		"tests/fixtures/uftrace/fork",
		"tests/fixtures/uftrace/threads",
		"tests/fixtures/tracedat/top-v6.dat",
		"tests/fixtures/tracedat/top-v7-nocompress.dat",
		"tests/fixtures/tracedat/top-v7-zstd.dat",
		"tests/fixtures/tracedat/instance-overrun-v7-zstd.dat",
	};
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
		check_input(inputs[i], files_bytes(inputs[i]));
	return n_fail ? 1 : 0;
}
