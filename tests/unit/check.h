/* SPDX-License-Identifier: MIT */
/*
 * check.h - the reporting the unit test programs share: check() prints one
 * line per check, "PASS name" or "FAIL name: " and the printf-style
 * explanation, and counts the failures in n_fail, which main() turns into
 * the exit status.  tests/run.sh reads these lines.  check_random() gives
 * the tests reproducible random numbers.  Each test program
 * includes it once (the functions are static) and keeps its own wrappers
 * (check_u64, check_str, ...) on top.
 */
#ifndef TC_UNIT_CHECK_H
#define TC_UNIT_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/core.h"

static int n_fail;

static void check(bool ok, const char *name, const char *fmt, ...) TC_PRINTF(3, 4);
static void check(bool ok, const char *name, const char *fmt, ...)
{
	if (ok) {
		printf("PASS %s\n", name);
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	printf("FAIL %s: ", name);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	n_fail++;
}

/* The next of the reproducible random numbers of *STATE (splitmix64). */
static inline uint64_t check_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif /* TC_UNIT_CHECK_H */
