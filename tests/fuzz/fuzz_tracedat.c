/*
 * fuzz_tracedat.c - libFuzzer target: a whole trace.dat file (the input is
 * written to a temporary file, since the reader works on files) opened,
 * every message read in time order and printed as text: container,
 * sections, decompression, pages, event formats and field decoding.
 */
#include "tracecat.h"

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
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0)
		return 0;
	tc_muxer *mux;
	tc_text_options o;
	tc_text_options_default(&o);
	tc_text_printer *p;
	if (tc_muxer_new(&mux) == 0 && tc_muxer_add_input(mux, in) == 0 &&
	    tc_text_printer_new(&p, &o, sink, sink) == 0) {
		const tc_message *m;
		while (tc_muxer_next(mux, &m) > 0)
			tc_text_printer_print(p, m);
		tc_text_printer_free(p);
	}
	tc_muxer_free(mux);
	tc_input_free(in);
	return 0;
}
