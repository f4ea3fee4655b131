/* SPDX-License-Identifier: MIT */
/* names.c - tasks that rename themselves: main with prctl(PR_SET_NAME),
 * a thread with pthread_setname_np, each calling leaf() before and after,
 * so that `replay -f task` shows the name change where the kernel's COMM
 * record (linux:task-name, recorded as root) comes.
 * Traced by tests/uftrace/record.sh (scenario names). */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/prctl.h>

static int leaf(int x)
{
	return x + 1;
}

static void *worker(void *arg)
{
	leaf(1);
	pthread_setname_np(pthread_self(), "names-worker");
	leaf(2);
	return arg;
}

int main(void)
{
	pthread_t th;

	leaf(0);
	prctl(PR_SET_NAME, "names-main");
	leaf(3);
	pthread_create(&th, NULL, worker, NULL);
	pthread_join(th, NULL);
	return leaf(4) == 5 ? 0 : 1;
}
