// SPDX-License-Identifier: MIT
/*
 * busy.c - a program that keeps the CPU busy for a fraction of a second in
 * a few nested functions, for tests/live/perf.sh to record with
 * `perf record -g -e cpu-clock`: its samples have call chains through
 * main, mid and leaf.
 */
#include <stdio.h>

static volatile unsigned long sink;

static void leaf(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

static void mid(unsigned long n)
{
	leaf(n);
	leaf(n / 2);
}

int main(void)
{
	for (int k = 0; k < 40; k++)
		mid(2000000);
	printf("%lu\n", sink);
	return 0;
}
