/* SPDX-License-Identifier: MIT */
/* threads.c - main and two worker threads.  The workers start together at
 * a barrier and call work() -> leaf() in lockstep (each spins, without any
 * call, until the other has reached the same iteration), so that on two
 * CPUs their records interleave and break uftrace's leaf merging; the
 * three threads share a mutex.
 * Traced by tests/uftrace/record.sh (scenario threads). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define NR_WORKERS 2
#define LOOPS 10

static pthread_barrier_t barrier;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;
static atomic_int progress[NR_WORKERS];

static int leaf(int x)
{
	return x + 1;
}

static int work(int n)
{
	int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += leaf(i);
	return sum;
}

static void add_total(int v)
{
	pthread_mutex_lock(&lock);
	total += v;
	pthread_mutex_unlock(&lock);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	int i, sum = 0;

	pthread_barrier_wait(&barrier);
	for (i = 0; i < LOOPS; i++) {
		/* inline atomics, no calls: nothing recorded while spinning */
		atomic_store(&progress[id], i);
		while (atomic_load(&progress[1 - id]) < i)
			;
		sum += work(1 + (int)((i + id) % 3));
	}
	add_total(sum);
	return NULL;
}

int main(void)
{
	pthread_t th[NR_WORKERS];
	long i;

	pthread_barrier_init(&barrier, NULL, NR_WORKERS);
	for (i = 0; i < NR_WORKERS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	add_total(work(2));
	for (i = 0; i < NR_WORKERS; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&barrier);
	printf("threads: %ld\n", total);
	return 0;
}
