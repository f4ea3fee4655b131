/* SPDX-License-Identifier: MIT */
/*
 * fuzz_tracedat.c - libFuzzer target: a whole trace.dat file (the input is
 * written to a temporary file, since the reader works on files) opened,
 * every message read in time order and printed as text: container,
 * sections, decompression, pages, event formats and field decoding.
 */
#include "fuzz_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_file(data, size);
	fuzz_read_and_print(path, fuzz_sink());
	return 0;
}
