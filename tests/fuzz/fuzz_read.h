/*
 * fuzz_read.h - what the file-based fuzz targets do with their input once
 * it is on disk: open PATH as tracecat print does, read every message in
 * time order and print it as text to SINK (so the reader, the muxer and
 * the printer all see the hostile bytes).  Errors are expected and ignored.
 */
#ifndef TC_FUZZ_READ_H
#define TC_FUZZ_READ_H

#include "tracecat.h"

static inline void fuzz_read_and_print(const char *path, FILE *sink)
{
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0)
		return;
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
}

#endif /* TC_FUZZ_READ_H */
