/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what the files of the raw trace.dat reader (layer 1) share
 * beyond tracedat.h: the open file's state, positioned reads, and the
 * zstd/zlib decompressor that both metadata sections (file.c) and CPU data
 * chunks (cursor.c) go through.
 */
#ifndef TC_TRACEDAT_INTERNAL_H
#define TC_TRACEDAT_INTERNAL_H

#include "tracedat/tracedat.h"

#include <zlib.h>
#include <zstd.h>

typedef enum td_compression {
	TD_COMPRESSION_NONE,
	TD_COMPRESSION_ZSTD,
	TD_COMPRESSION_ZLIB
} td_compression;

struct tracedat_file {
	tracedat_meta meta;
	tc_pool pool;              /* owns every string and array of META */
	int fd;
	td_compression compression;
};

/*
 * Reads up to N bytes at file offset OFF into DST; returns how many were
 * read (fewer only at the end of the file) or TC_EIO (recorded).
 */
int64_t td_pread(const tracedat_file *f, void *dst, size_t n, uint64_t off);

/* A decompressor, reused from block to block. */
typedef struct td_codec {
	td_compression kind;
	ZSTD_DCtx *zstd;
	z_stream zlib;
	bool zlib_ready;
} td_codec;

int td_codec_init(td_codec *c, td_compression kind);
void td_codec_free(td_codec *c);

/*
 * Decompresses one block (a zstd frame or a zlib stream) of CSIZE bytes
 * that must give exactly USIZE bytes, appending them to OUT.  OUT grows as
 * output really comes out, so a USIZE the data does not back costs
 * nothing.  Errors name PATH and OFFSET, where the block is in the file.
 */
int td_decompress(td_codec *c, const uint8_t *src, size_t csize, uint32_t usize, tc_buf *out,
                  const char *path, uint64_t offset);

#endif /* TC_TRACEDAT_INTERNAL_H */
