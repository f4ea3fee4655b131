/* SPDX-License-Identifier: MIT */
/*
 * fuzz_text.c - libFuzzer target for the text formatter: every option of
 * babeltrace2's pretty format (taken from the input's first two bytes)
 * over events of every field type, decoded from the rest of the input as a
 * CTF stream of the ust-types fixture (integers in every base and byte
 * order, enumerations, floats, strings, arrays, sequences, text arrays,
 * and the LTTng contexts that `--fields` reads).
 */
#include "fuzz_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64] = "/tmp/tracecat-fuzz-text-XXXXXX";
static char stream_path[128];
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *meta = "tests/fixtures/ctf/ust-types/ust/uid/0/64-bit/metadata";
	char path[128];
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof path, "%s/metadata", dir);
	snprintf(stream_path, sizeof stream_path, "%s/stream", dir);
	FILE *in = fopen(meta, "rb"), *out = fopen(path, "wb");
	if (!in || !out) {
		fprintf(stderr, "cannot copy %s (run from the repository root)\n", meta);
		abort();
	}
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	sink = fopen("/dev/null", "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned bits = (unsigned)data[0] | (unsigned)data[1] << 8;
	tc_text_options o;
	tc_text_options_default(&o);
	bool *flags[] = { &o.clock_cycles, &o.clock_seconds, &o.clock_gmt, &o.clock_date, &o.no_delta,
		          &o.names_payload, &o.names_context, &o.names_scope, &o.names_header, &o.field_trace,
		          &o.field_hostname, &o.field_procname, &o.field_vpid, &o.field_loglevel, &o.field_emf,
		          &o.color };
	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
		*flags[i] = (bits >> i) & 1;
	FILE *f = fopen(stream_path, "wb");
	if (!f || fwrite(data + 2, 1, size - 2, f) != size - 2 || fclose(f) != 0)
		abort();
	tc_open_options oo = { .clock_offset_ns = (int64_t)(bits >> 4) - 2048 };
	fuzz_read_and_print_with(dir, &oo, &o, sink);
	return 0;
}
