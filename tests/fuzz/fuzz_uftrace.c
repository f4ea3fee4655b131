/* SPDX-License-Identifier: MIT */
/*
 * fuzz_uftrace.c - libFuzzer target for uftrace record directories: the
 * input is laid out as a directory (info, task.txt, a map, symbol and
 * argument-spec files, a task's records, a perf file), which is then read
 * twice: replayed as `tracecat replay` does, and read and printed as
 * `tracecat print` does.
 *
 * Input: a sequence of chunks, each a byte naming the file (an index into
 * FILES below, modulo its size), a 16-bit little-endian length, and that
 * many bytes (fuzz_write_chunks in fuzz_read.h).  tests/fuzz/run.sh makes
 * seeds from the fixtures in this form (tests/fuzz/uftrace_seed.py).
 */
#include "fuzz_read.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const FILES[] = {
	"info", "task.txt", "sid-0000000000000001.map", "prog.sym", "1.dat", "perf-cpu0.dat",
	"default.opts", "events.txt", "prog.dbg", "libc.so.6.sym", "2.dat",
};
#define NFILES (sizeof FILES / sizeof FILES[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/fuzz-uftrace-%d", (int)getpid());
		mkdir(dir, 0700);
	}
	fuzz_write_chunks(dir, FILES, NFILES, data, size);
	FILE *sink = fuzz_sink();
	if (sink) {
		tc_uftrace_replay(dir, NULL, sink);
		fuzz_read_and_print(dir, sink);
	}
	return 0;
}
