/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tracedat.c - libFuzzer target: a whole trace.dat file (the input is
 * written to a temporary file, since the reader works on files) opened,
 * every message read in time order and printed as text: container,
 * sections, decompression, pages, event formats and field decoding.
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
	return 0;
}
