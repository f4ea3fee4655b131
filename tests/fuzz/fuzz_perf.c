/* SPDX-License-Identifier: MIT */
/*
 * fuzz_perf.c - libFuzzer target: a whole perf.data file, file or pipe
 * mode (written to a temporary file, since the reader maps files), opened,
 * every message read in time order and printed as text, then printed as
 * `tracecat script` prints it: header, attributes, features, tracing
 * data, records, samples and their tracepoint fields.
 */
#include "fuzz_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64] = "/tmp/tracecat-fuzz-XXXXXX";
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = mkstemp(path);
	if (fd < 0)
		abort();
	close(fd);
	sink = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	fuzz_read_and_print(path, sink);
	tc_perf_script(sink, path, NULL);
	return 0;
}
