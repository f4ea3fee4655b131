/*
 * fuzz_lttng_legacy.c - libFuzzer target for legacy LTTng 0.x traces: the
 * input is laid out as a trace directory (metadata and data tracefiles of
 * the 2.x layout, the control/ files of 1.0 and 0.x, an XML facility
 * description), which is then opened, read in time order and printed as
 * `tracecat print` does.
 *
 * Input: a sequence of chunks, each a byte naming the file (an index into
 * FILES below, modulo its size), a 16-bit little-endian length, and that
 * many bytes.  tests/fuzz/run.sh makes seeds from the fixtures in this
 * form (tests/fuzz/lttng_legacy_seed.py).
 */
#include "fuzz_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const FILES[] = {
	"metadata_0", "metadata_1", "kernel_0", "kernel_1", "fs_0",
	"control/metadata_0", "control/facilities_0", "cpu_0", "cpu_1", "eventdefs/kernel.xml",
};
#define NFILES (sizeof FILES / sizeof FILES[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void clear_dir(void)
{
	char path[128];
	for (size_t i = 0; i < NFILES; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, FILES[i]);
		unlink(path);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128];
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "/tmp/fuzz-lttng-legacy-%d", (int)getpid());
		mkdir(dir, 0700);
		snprintf(path, sizeof path, "%s/control", dir);
		mkdir(path, 0700);
		snprintf(path, sizeof path, "%s/eventdefs", dir);
		mkdir(path, 0700);
	}
	clear_dir();
	FILE *files[NFILES] = { 0 };
	size_t pos = 0;
	while (pos + 3 <= size) {
		size_t which = data[pos] % NFILES;
		size_t len = (size_t)data[pos + 1] | (size_t)data[pos + 2] << 8;
		pos += 3;
		if (len > size - pos)
			len = size - pos;
		if (!files[which]) {
			snprintf(path, sizeof path, "%s/%s", dir, FILES[which]);
			files[which] = fopen(path, "wb");
		}
		if (files[which])
			fwrite(data + pos, 1, len, files[which]);
		pos += len;
	}
	for (size_t i = 0; i < NFILES; i++)
		if (files[i])
			fclose(files[i]);
	FILE *sink = fopen("/dev/null", "w");
	if (sink) {
		fuzz_read_and_print(dir, sink);
		fclose(sink);
	}
	return 0;
}
