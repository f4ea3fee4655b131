/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ctf_stream.c - libFuzzer target: a CTF stream file decoded against
 * fixed metadata (the sample LTTng-UST fixture's, or the file named by
 * TRACECAT_FUZZ_METADATA), every message read and printed as text, so the
 * packet decoder, the muxer and the printer all see hostile bytes; then
 * read again wanting no field value, as `tracecat info` reads, so the
 * plans' passes over events do too.
 */
#include "fuzz_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64] = "/tmp/tracecat-fuzz-XXXXXX";
static char stream_path[128];
static FILE *sink;

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;
	int rc = in && out ? 0 : -1;
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		rc = -1;
	return rc;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *meta = getenv("TRACECAT_FUZZ_METADATA");
	if (!meta)
		meta = "tests/fixtures/ctf/sample/ust/uid/0/64-bit/metadata";
	char meta_copy[128];
	if (!mkdtemp(dir))
		abort();
	snprintf(meta_copy, sizeof meta_copy, "%s/metadata", dir);
	snprintf(stream_path, sizeof stream_path, "%s/stream", dir);
	if (copy_file(meta, meta_copy) < 0) {
		fprintf(stderr, "cannot copy %s (run from the repository root)\n", meta);
		abort();
	}
	sink = fopen("/dev/null", "w");
	return 0;
}

static bool no_values(void *ctx, const tc_event_class *ec)
{
	(void)ctx;
	(void)ec;
	return false;
}

static void read_without_values(const char *path)
{
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0)
		return;
	const tc_message *m;
	if (tc_input_want_values(in, no_values, NULL) == 0)
		while (tc_input_next(in, &m) > 0)
			;
	tc_input_free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(stream_path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	fuzz_read_and_print(dir, sink);
	read_without_values(dir);
	return 0;
}
