/* SPDX-License-Identifier: MIT */
/* single.c - one thread: nested calls, a loop of leaves, recursion, a
 * chain deep enough for -D, a function slow enough for -t 1us, and
 * library calls (malloc, snprintf, strlen, free, printf).
 * Traced by tests/uftrace/record.sh (scenarios single, nolibcall, depth,
 * timefilter). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int leaf(int x)
{
	return x * 2 + 1;
}

static void middle(int n)
{
	int i;

	for (i = 0; i < n; i++)
		leaf(i);
}

static int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

/* main -> level1 -> ... -> level5 -> leaf: depth 7 below main's caller */
static int level5(int n)
{
	return leaf(n) + 1;
}

static int level4(int n)
{
	return level5(n) + 1;
}

static int level3(int n)
{
	return level4(n) + 1;
}

static int level2(int n)
{
	return level3(n) + leaf(n);
}

static int level1(int n)
{
	return level2(n) + 1;
}

/* a few microseconds of work, so that -t 1us keeps it */
static unsigned spin(unsigned n)
{
	volatile unsigned s = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static size_t text(int n)
{
	char *buf = malloc(32);
	size_t len;

	snprintf(buf, 32, "tracecat-%d", n);
	len = strlen(buf);
	free(buf);
	return len;
}

int main(void)
{
	int r;

	middle(3);
	r = level1(2);
	r += fib(4);
	r += (int)spin(3000);
	r += (int)text(r & 0xff);
	printf("single: %d\n", r & 0xffff);
	return 0;
}
