/* SPDX-License-Identifier: MIT */
/* lifecycle.c - sleeps of several lengths, two threads and a fork, so
 * that a recording has scheduler events (sched-out/sched-in pairs) from
 * a few microseconds to over 10 ms, functions on both sides of every
 * -t threshold the tests try (1us to 10ms), and a child whose first
 * record is the exit of fork().
 * Traced by tests/uftrace/record.sh (scenario lifecycle). */
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap(long us)
{
	struct timespec ts = { us / 1000000, us % 1000000 * 1000 };

	nanosleep(&ts, NULL);
}

static int leaf(int x)
{
	return x * 2;
}

static int busy(int n)
{
	int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += leaf(i);
	return sum;
}

static void *worker(void *arg)
{
	long id = (long)arg;

	nap(200 * (id + 1));
	busy(50);
	nap(2000);
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	pid_t pid;
	long i;

	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	nap(30);
	busy(10);
	pid = fork();
	if (pid == 0) {
		nap(100);
		busy(20);
		nap(12000);
		_exit(0);
	}
	nap(5000);
	waitpid(pid, NULL, 0);
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	usleep(1500);
	return 0;
}
