/* SPDX-License-Identifier: MIT */
/*
 * fuzz_perf.c - libFuzzer target: a whole perf.data file, file or pipe
 * mode (written to a temporary file, since the reader maps files), opened,
 * every message read in time order and printed as text, then printed as
 * `tracecat script` prints it: header, attributes, features, tracing
 * data, records, samples and their tracepoint fields.
 */
#include "fuzz_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_write_file(data, size);
	fuzz_read_and_print(path, fuzz_sink());
	tc_perf_script(fuzz_sink(), path, NULL);
	return 0;
}
