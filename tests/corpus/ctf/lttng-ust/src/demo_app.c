/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <stdint.h>
#include <arpa/inet.h>
#include "demo_tp.h"

static void *worker(void *arg)
{
	int cpu = (int) (intptr_t) arg;
	cpu_set_t set;
	uint16_t seq[6] = { 1, 2, 3, 0xFFFF, 0x8000, 42 };
	const char *strs[] = { "hello", "with \"quotes\"", "tab\there", "", "unicode: \xc3\xa9t\xc3\xa9", "a long string beyond eight chars" };
	int colors[] = { 0, 1, 15, 20, -5, 7 };
	double dbls[] = { 0.0, -1.5, 3.141592653589793, 1e300, 1.0/3.0, 123456789.125 };
	float flts[] = { 0.0f, 2.5f, -0.1f, 1e-10f, 65536.0f, 3.4e38f };
	int i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	usleep(100 * cpu);
	for (i = 0; i < 6; i++) {
		lttng_ust_tracepoint(demo, all_types, i + 10 * cpu, strs[i], dbls[i], flts[i], seq, (size_t) i, colors[i], (uint64_t) UINT64_MAX - i);
		lttng_ust_tracepoint(demo, empty_event);
		usleep(300);
	}
	return NULL;
}

int main(void)
{
	pthread_t t0, t1;

	pthread_create(&t0, NULL, worker, (void *) (intptr_t) 0);
	pthread_create(&t1, NULL, worker, (void *) (intptr_t) 1);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	return 0;
}
