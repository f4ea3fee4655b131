/* SPDX-License-Identifier: MIT */
/*
 * fuzz_read.h - what the file-based fuzz targets do with their input once
 * it is on disk: open PATH as tracecat print does, read every message in
 * time order and print it as text to SINK (so the reader, the muxer and
 * the printer all see the hostile bytes).  Errors are expected and ignored.
 * Also how the targets that read a directory put their input there
 * (fuzz_write_chunks) and where they print (fuzz_sink).
 */
#ifndef TC_FUZZ_READ_H
#define TC_FUZZ_READ_H

#include "tracecat.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* As fuzz_read_and_print, with the open options OPEN_OPTS and the text
 * options TEXT_OPTS (NULL: the defaults, as tracecat print without
 * options). */
static inline void fuzz_read_and_print_with(const char *path, const tc_open_options *open_opts,
					    const tc_text_options *text_opts, FILE *sink)
{
	tc_input *in;
	if (tc_input_open(&in, path, open_opts) < 0)
		return;
	tc_muxer *mux;
	tc_text_options o;
	if (!text_opts) {
		tc_text_options_default(&o);
		text_opts = &o;
	}
	tc_text_printer *p;
	if (tc_muxer_new(&mux) == 0 && tc_muxer_add_input(mux, in) == 0 &&
	    tc_text_printer_new(&p, text_opts, sink, sink) == 0) {
		const tc_message *m;
		while (tc_muxer_next(mux, &m) > 0)
			tc_text_printer_print(p, m);
		tc_text_printer_free(p);
	}
	tc_muxer_free(mux);
	tc_input_free(in);
}

static inline void fuzz_read_and_print(const char *path, FILE *sink)
{
	fuzz_read_and_print_with(path, NULL, NULL, sink);
}

/* /dev/null, opened on the first call and kept: NULL if it cannot be. */
static inline FILE *fuzz_sink(void)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	return sink;
}

/* DATA written to a temporary file of its own (made on the first call and
 * rewritten by each), for the targets whose reader takes one file. */
static inline const char *fuzz_write_file(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "%s", "/tmp/tracecat-fuzz-XXXXXX");
		int fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return path;
}

/* The most files fuzz_write_chunks can lay out. */
#define FUZZ_MAX_FILES 16

/*
 * Lays out DATA in the directory DIR as the files FILES[0..N): removes
 * those the previous input left, then reads DATA as a sequence of chunks,
 * each a byte naming the file (an index into FILES, modulo N), a 16-bit
 * little-endian length and that many bytes (fewer if DATA ends first),
 * which are appended to the file; a trailing piece too short for a chunk
 * is ignored.  Files no chunk names stay absent.  The subdirectories FILES
 * name must exist.  tests/fuzz/chunks.py writes seeds in this form.
 */
static inline void fuzz_write_chunks(const char *dir, const char *const *files, size_t n, const uint8_t *data,
				     size_t size)
{
	char path[512];
	FILE *out[FUZZ_MAX_FILES] = { 0 };
	if (n == 0 || n > FUZZ_MAX_FILES)
		abort();
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	size_t pos = 0;
	while (pos + 3 <= size) {
		size_t which = data[pos] % n;
		size_t len = (size_t)data[pos + 1] | (size_t)data[pos + 2] << 8;
		pos += 3;
		if (len > size - pos)
			len = size - pos;
		if (!out[which]) {
			snprintf(path, sizeof path, "%s/%s", dir, files[which]);
			out[which] = fopen(path, "wb");
		}
		if (out[which])
			fwrite(data + pos, 1, len, out[which]);
		pos += len;
	}
	for (size_t i = 0; i < n; i++)
		if (out[i])
			fclose(out[i]);
}

#endif /* TC_FUZZ_READ_H */
