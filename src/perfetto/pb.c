/* SPDX-License-Identifier: MIT */
/*
 * pb.c - the slow paths of the protobuf encoder (pb.h): growing the
 * buffer, and closing a nested message longer than 127 bytes.
 */
#include "perfetto/pb.h"

#include <stdlib.h>

bool pb_grow(pb_buf *b, size_t n)
{
	if (b->failed)
		return false;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap - b->len < n) {
		if (cap > SIZE_MAX / 2) {
			b->failed = true;
			return false;
		}
		cap *= 2;
	}
	uint8_t *data = realloc(b->data, cap);
	if (!data) {
		b->failed = true;
		return false;
	}
	b->data = data;
	b->cap = cap;
	return true;
}

/* The message after MARK is LEN bytes, more than the one byte kept for
 * its length: it moves up by the extra bytes the varint needs. */
void pb_close_long(pb_buf *b, size_t mark, size_t len)
{
	uint8_t head[10];
	size_t n = pb_put_varint(head, len);
	if (!pb_room(b, n - 1))
		return;
	memmove(b->data + mark + n, b->data + mark + 1, len);
	memcpy(b->data + mark, head, n);
	b->len += n - 1;
}

void pb_free(pb_buf *b)
{
	free(b->data);
	*b = (pb_buf){ 0 };
}
