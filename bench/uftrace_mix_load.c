/* SPDX-License-Identifier: MIT */
/*
 * uftrace_mix_load.c - the programs bench/uftrace-mixes.sh records with
 * uftrace, one per mix.  Built on the fly by that script (gcc -pg -g -O0:
 * every function traced, and DWARF for `uftrace record -a`); not part of
 * tracecat.
 *
 *   uftrace_mix_load fib N
 *       fib(N) the recursive way: 2 * fib(N + 1) - 1 calls, deep stacks,
 *       every record a call or return of the same function.
 *   uftrace_mix_load threads CALLS
 *       8 threads, each making CALLS / 8 calls of step() -> leaf(): a
 *       task file per thread, records of all of them at the same times.
 *   uftrace_mix_load args CALLS
 *       CALLS / 3 rounds of three functions taking and returning integers,
 *       a double and a string (recorded with -a: arguments and return
 *       values in every record's payload).
 *
 * Prints a checksum so that nothing is optimised out; exit status 0, or
 * 2 on usage.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8

static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int leaf(int x)
{
	return x ^ (x >> 3);
}

static int step(int i)
{
	return leaf(i) + 1;
}

static void *worker(void *arg)
{
	long n = *(const long *)arg, i;
	long sum = 0;

	for (i = 0; i < n / 2; i++)
		sum += step((int)i);
	return (void *)sum;
}

static int threads(long calls)
{
	pthread_t t[THREADS];
	long each = calls / THREADS, sum = 0;
	void *r;
	int i;

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, &each) != 0)
			return 1;
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("threads: %ld\n", sum);
	return 0;
}

static long add(long a, int b)
{
	return a + b;
}

static double scale(double x, unsigned factor)
{
	return x * factor;
}

static size_t name_len(const char *name, int tag)
{
	return strlen(name) + (size_t)tag;
}

static int args(long calls)
{
	static const char *const names[] = { "alpha", "beta", "a longer name" };
	long i, sum = 0;
	double d = 0;

	for (i = 0; i < calls / 3; i++) {
		sum = add(sum, (int)i);
		d = scale((double)i, 3);
		sum += (long)name_len(names[i % 3], (int)(i & 7));
	}
	printf("args: %ld %g\n", sum, d);
	return 0;
}

int main(int argc, char *argv[])
{
	long n;

	if (argc != 3)
		goto usage;
	n = atol(argv[2]);
	if (strcmp(argv[1], "fib") == 0) {
		printf("fib: %ld\n", fib((int)n));
		return 0;
	}
	if (strcmp(argv[1], "threads") == 0)
		return threads(n);
	if (strcmp(argv[1], "args") == 0)
		return args(n);
usage:
	fprintf(stderr, "usage: uftrace_mix_load fib N | threads CALLS | args CALLS\n");
	return 2;
}
