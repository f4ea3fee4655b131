/* SPDX-License-Identifier: MIT */
/*
 * fuzz_ctf_metadata.c - libFuzzer target: CTF metadata bytes (plain TSDL or
 * packetized) through the parser and the class builder.  Built by
 * `make fuzz` into build/fuzz/; run by tests/fuzz/run.sh.
 */
#include "ctf/ctf.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	static const tc_open_options opts;
	ctf_trace *t;
	if (ctf_metadata_parse(&t, "fuzz", copy, size, &opts) == 0)
		ctf_trace_free(t);
	return 0;
}
