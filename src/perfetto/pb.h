/* SPDX-License-Identifier: MIT */
/*
 * pb.h - the little protobuf encoder the Perfetto writer is built on:
 * varints, tags, doubles, strings and nested (length-delimited) messages
 * appended to a growable byte buffer.  Only what Perfetto's trace schema
 * needs: no zigzag, no fixed-width fields but the double.
 *
 * A nested message is opened with pb_open(), which writes its tag and one
 * byte for its length, and closed with pb_close(), which writes the
 * length and, when it needs more than one byte, moves the message's bytes
 * to make room.  Most messages of a trace are short (an event, its
 * fields), so the move is rare and small; the few long ones (a bundle, a
 * packet holding one) pay it once.
 *
 * Errors are sticky: once an allocation fails every call does nothing and
 * `failed` stays set, so that an encoder checks once, after a packet.
 */
#ifndef TC_PERFETTO_PB_H
#define TC_PERFETTO_PB_H

#include "core/core.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct pb_buf {
	uint8_t *data;
	size_t len, cap;
	bool failed;
} pb_buf;

/* Wire types of Perfetto's fields. */
enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2 };

/* Room for N more bytes: the slow path of pb_room. */
bool pb_grow(pb_buf *b, size_t n);

static inline bool pb_room(pb_buf *b, size_t n)
{
	return !b->failed && (b->cap - b->len >= n || pb_grow(b, n));
}

/* V as a varint at P, which has room for 10 bytes; returns the bytes written. */
static inline size_t pb_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static inline void pb_varint(pb_buf *b, uint64_t v)
{
	if (pb_room(b, 10))
		b->len += pb_put_varint(b->data + b->len, v);
}

static inline void pb_tag(pb_buf *b, uint32_t field, unsigned wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

/* An unsigned varint field at P, which has room for 20 bytes; returns
 * the bytes written.  For a message of several fields written after one
 * pb_room() for them all. */
static inline size_t pb_put_uint(uint8_t *p, uint32_t field, uint64_t v)
{
	size_t n = pb_put_varint(p, (uint64_t)field << 3 | PB_VARINT);
	return n + pb_put_varint(p + n, v);
}

/* An unsigned varint field (uint32, uint64, bool, enum). */
static inline void pb_uint(pb_buf *b, uint32_t field, uint64_t v)
{
	if (pb_room(b, 20))
		b->len += pb_put_uint(b->data + b->len, field, v);
}

/* A signed varint field (int32, int64): negatives take ten bytes, as in
 * every protobuf encoder, so an int32 reads back whatever its width. */
static inline void pb_int(pb_buf *b, uint32_t field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

/* A double field: its eight bytes little-endian, whatever the host. */
static inline void pb_double(pb_buf *b, uint32_t field, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	if (pb_room(b, 18)) {
		uint8_t *p = b->data + b->len;
		size_t n = pb_put_varint(p, (uint64_t)field << 3 | PB_FIXED64);
		tc_store_le64(p + n, bits);
		b->len += n + sizeof bits;
	}
}

/* A string or bytes field at P, which has room for 20 + LEN bytes;
 * returns the bytes written. */
static inline size_t pb_put_bytes(uint8_t *p, uint32_t field, const void *data, size_t len)
{
	size_t n = pb_put_varint(p, (uint64_t)field << 3 | PB_LEN);
	n += pb_put_varint(p + n, len);
	if (len)
		memcpy(p + n, data, len);
	return n + len;
}

/* A string or bytes field. */
static inline void pb_bytes(pb_buf *b, uint32_t field, const void *data, size_t len)
{
	if (pb_room(b, 20 + len))
		b->len += pb_put_bytes(b->data + b->len, field, data, len);
}

static inline void pb_str(pb_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/* Appends bytes already encoded (fields of another buffer). */
static inline void pb_raw(pb_buf *b, const void *data, size_t len)
{
	if (len && pb_room(b, len)) {
		memcpy(b->data + b->len, data, len);
		b->len += len;
	}
}

/* Opens the nested message (or packed repeated field) FIELD; returns
 * where its length goes, for pb_close(). */
static inline size_t pb_open(pb_buf *b, uint32_t field)
{
	pb_tag(b, field, PB_LEN);
	size_t mark = b->len;
	if (pb_room(b, 1))
		b->data[b->len++] = 0;
	return mark;
}

void pb_close_long(pb_buf *b, size_t mark, size_t len);

static inline void pb_close(pb_buf *b, size_t mark)
{
	if (b->failed)
		return;
	size_t len = b->len - mark - 1;
	if (len < 0x80)
		b->data[mark] = (uint8_t)len;
	else
		pb_close_long(b, mark, len);
}

void pb_free(pb_buf *b);

#endif /* TC_PERFETTO_PB_H */
