/* SPDX-License-Identifier: MIT */
/*
 * prefetch_read.h - how the unit tests of batches read a prefetcher
 * (src/core/prefetch.c) as a merge would: a batch of each stream in turn,
 * so that the streams' workers run ahead of one another.  Included once by
 * each test program that needs it (the function is static).
 */
#ifndef TC_UNIT_PREFETCH_READ_H
#define TC_UNIT_PREFETCH_READ_H

#include "core/core.h"

#include <stdlib.h>

/* Reads the N streams of P to their ends (with STOP_EARLY, only the first
 * batch of each), handing BATCH(CTX, I, B) every batch of stream I and
 * FAIL(CTX, I) the error a stream ends with, recorded. */
static void prefetch_read(tc_prefetch *p, size_t n, bool stop_early, void (*batch)(void *ctx, size_t i, const tc_batch *b),
                          void (*fail)(void *ctx, size_t i), void *ctx)
{
	bool *ended = calloc(n ? n : 1, sizeof *ended);
	for (size_t left = n; left > 0;) {
		for (size_t i = 0; i < n; i++) {
			if (ended[i])
				continue;
			const tc_batch *b;
			int rc = tc_prefetch_next(p, i, &b);
			if (rc > 0)
				batch(ctx, i, b);
			else if (rc < 0)
				fail(ctx, i);
			if (rc <= 0 || stop_early) {
				ended[i] = true;
				left--;
			}
		}
	}
	free(ended);
}

#endif /* TC_UNIT_PREFETCH_READ_H */
