/* SPDX-License-Identifier: MIT */
/*
 * fuzz_lttng_legacy.c - libFuzzer target for legacy LTTng 0.x traces: the
 * input is laid out as a trace directory (metadata and data tracefiles of
 * the 2.x layout, the control/ files of 1.0 and 0.x, an XML facility
 * description), which is then opened, read in time order and printed as
 * `tracecat print` does.
 *
 * Input: a sequence of chunks, each a byte naming the file (an index into
 * FILES below, modulo its size), a 16-bit little-endian length, and that
 * many bytes (fuzz_write_chunks in fuzz_read.h).  tests/fuzz/run.sh makes
 * seeds from the fixtures in this form (tests/fuzz/lttng_legacy_seed.py).
 */
#include "fuzz_read.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const FILES[] = {
	"metadata_0", "metadata_1", "kernel_0", "kernel_1", "fs_0",
	"control/metadata_0", "control/facilities_0", "cpu_0", "cpu_1", "eventdefs/kernel.xml",
};
#define NFILES (sizeof FILES / sizeof FILES[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		char path[128];
		snprintf(dir, sizeof dir, "/tmp/fuzz-lttng-legacy-%d", (int)getpid());
		mkdir(dir, 0700);
		snprintf(path, sizeof path, "%s/control", dir);
		mkdir(path, 0700);
		snprintf(path, sizeof path, "%s/eventdefs", dir);
		mkdir(path, 0700);
	}
	fuzz_write_chunks(dir, FILES, NFILES, data, size);
	FILE *sink = fuzz_sink();
	if (sink)
		fuzz_read_and_print(dir, sink);
	return 0;
}
