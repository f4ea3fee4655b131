/* SPDX-License-Identifier: MIT */
/*
 * compress.c - decompression of trace.dat v7 blocks (doc/formats/tracedat.md
 * §7): compressed metadata sections are one block each, compressed CPU
 * data a list of chunks, each one zstd frame or one zlib stream with its
 * uncompressed size stored beside it.
 *
 * trace-cmd writes zstd frames without a content size, so the size stored
 * in the container is the only one there is.  It is trusted only as an
 * upper bound: output is produced into a buffer that grows as bytes come
 * out, and the block must end exactly at that size.
 */
#include "tracedat/internal.h"

#include <inttypes.h>
#include <string.h>

/* First output allocation when the container announces a large block. */
#define FIRST_STEP (64u << 10)

int td_codec_init(td_codec *c, td_compression kind)
{
	memset(c, 0, sizeof *c);
	c->kind = kind;
	if (kind == TD_COMPRESSION_ZSTD && !(c->zstd = ZSTD_createDCtx()))
		return tc_fail_nomem();
	if (kind == TD_COMPRESSION_ZLIB) {
		if (inflateInit(&c->zlib) != Z_OK)
			return tc_fail_nomem();
		c->zlib_ready = true;
	}
	return 0;
}

void td_codec_free(td_codec *c)
{
	if (c->zstd)
		ZSTD_freeDCtx(c->zstd);
	if (c->zlib_ready)
		inflateEnd(&c->zlib);
	memset(c, 0, sizeof *c);
}

/* Room for the next piece of output: at least one byte, at most what the
 * block still owes, doubling what was produced so far. */
static int reserve_output(tc_buf *out, size_t produced, uint32_t usize, size_t *room)
{
	size_t want = usize - produced;
	size_t step = produced > FIRST_STEP ? produced : FIRST_STEP;
	if (want > step)
		want = step;
	if (want == 0)
		want = 1;   /* to see whether the block would go on */
	if (tc_buf_reserve(out, want) < 0)
		return TC_ENOMEM;
	*room = want;
	return 0;
}

static int decompress_zstd(td_codec *c, const uint8_t *src, size_t csize, uint32_t usize, tc_buf *out,
                           const char *path, uint64_t offset)
{
	ZSTD_DCtx_reset(c->zstd, ZSTD_reset_session_only);
	ZSTD_inBuffer in = { src, csize, 0 };
	size_t produced = 0;
	for (;;) {
		size_t room;
		if (reserve_output(out, produced, usize, &room) < 0)
			return TC_ENOMEM;
		ZSTD_outBuffer o = { out->data + out->len, room, 0 };
		size_t ret = ZSTD_decompressStream(c->zstd, &o, &in);
		if (ZSTD_isError(ret))
			return tc_fail(TC_EFORMAT, path, (int64_t)offset, "corrupt zstd block: %s", ZSTD_getErrorName(ret));
		produced += o.pos;
		if (produced > usize)
			return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zstd block holds more than the %" PRIu32 " bytes announced", usize);
		out->len += o.pos;
		if (ret == 0)
			break;
		if (o.pos == 0 && in.pos == in.size)
			return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zstd block of %zu bytes ends inside its frame", csize);
	}
	if (produced != usize)
		return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zstd block holds %zu bytes, %" PRIu32 " announced", produced, usize);
	if (in.pos != csize)
		return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zstd frame ends %zu bytes before its block", csize - in.pos);
	out->data[out->len] = '\0';
	return 0;
}

static int decompress_zlib(td_codec *c, const uint8_t *src, size_t csize, uint32_t usize, tc_buf *out,
                           const char *path, uint64_t offset)
{
	z_stream *z = &c->zlib;
	if (inflateReset(z) != Z_OK)
		return tc_fail(TC_EFORMAT, path, (int64_t)offset, "cannot reset the zlib decompressor");
	/* Block sizes are u32 (§7.2), so they fit zlib's counters. */
	z->next_in = (Bytef *)(uintptr_t)src;
	z->avail_in = (uInt)csize;
	size_t produced = 0;
	for (;;) {
		size_t room;
		if (reserve_output(out, produced, usize, &room) < 0)
			return TC_ENOMEM;
		z->next_out = (Bytef *)out->data + out->len;
		z->avail_out = (uInt)room;
		int ret = inflate(z, Z_NO_FLUSH);
		size_t got = room - z->avail_out;
		produced += got;
		if (produced > usize)
			return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zlib block holds more than the %" PRIu32 " bytes announced", usize);
		out->len += got;
		if (ret == Z_STREAM_END)
			break;
		if (ret == Z_BUF_ERROR && got == 0)
			return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zlib block of %zu bytes ends inside its stream", csize);
		if (ret != Z_OK && ret != Z_BUF_ERROR)
			return tc_fail(TC_EFORMAT, path, (int64_t)offset, "corrupt zlib block: %s", z->msg ? z->msg : "inflate failed");
	}
	if (produced != usize)
		return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zlib block holds %zu bytes, %" PRIu32 " announced", produced, usize);
	if (z->avail_in != 0)
		return tc_fail(TC_EFORMAT, path, (int64_t)offset, "zlib stream ends %u bytes before its block", z->avail_in);
	out->data[out->len] = '\0';
	return 0;
}

int td_decompress(td_codec *c, const uint8_t *src, size_t csize, uint32_t usize, tc_buf *out,
                  const char *path, uint64_t offset)
{
	size_t start = out->len;
	int rc;
	switch (c->kind) {
	case TD_COMPRESSION_ZSTD:
		rc = decompress_zstd(c, src, csize, usize, out, path, offset);
		break;
	case TD_COMPRESSION_ZLIB:
		rc = decompress_zlib(c, src, csize, usize, out, path, offset);
		break;
	default:
		rc = tc_fail(TC_EFORMAT, path, (int64_t)offset, "compressed block in a file that declares no compression");
		break;
	}
	if (rc < 0)
		out->len = start;
	return rc;
}
