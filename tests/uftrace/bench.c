/* SPDX-License-Identifier: MIT */
/* bench.c - the program bench/uftrace-replay.sh records: one thread,
 * ITERATIONS calls of work(), each calling leaf() twice, so about
 * 6 * ITERATIONS records (ENTRY and EXIT of three functions). */
#include <stdio.h>
#include <stdlib.h>

static int leaf(int x)
{
	return x ^ (x >> 1);
}

static int work(int i)
{
	return leaf(i) + leaf(i + 1);
}

int main(int argc, char *argv[])
{
	long n = argc > 1 ? atol(argv[1]) : 400000;
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += work((int)i);
	printf("bench: %ld\n", sum);
	return 0;
}
