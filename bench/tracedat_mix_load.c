/* SPDX-License-Identifier: MIT */
/*
 * tracedat_mix_load.c - the activity bench/tracedat-mixes.sh records, one
 * kind of load per event mix.  Built on the fly by that script (cc -O2);
 * not part of tracecat.
 *
 *   tracedat_mix_load pingpong ROUNDS
 *       two processes pinned to CPUs 0 and 1 (both to 0 on a one-CPU
 *       machine) pass a byte back and forth through two pipes ROUNDS
 *       times: every pass wakes the other side and puts this one to sleep
 *       (sched_waking, sched_wakeup, sched_switch, ...).
 *
 *   tracedat_mix_load syscalls ROUNDS
 *       one process per CPU (at most 2), pinned, each making ROUNDS times
 *       a round of cheap system calls of several kinds: getppid, read of
 *       /dev/zero, write to /dev/null, lseek, fstat, sched_yield, and
 *       every 8 rounds openat/close, every 64 an mmap/munmap.
 *
 *   tracedat_mix_load mixed ROUNDS
 *       both at once, for the mix with every event enabled.
 *
 * Exit status 0 on success, 1 on a failed system call, 2 on usage.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: tracedat_mix_load pingpong|syscalls|mixed ROUNDS\n");
	return 2;
}

static int cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 2 ? 2 : 1;
}

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof set, &set);
}

/* Waits for every child; 0 when all exited with 0. */
static int reap(const pid_t *kids, int n)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		int st;
		if (kids[i] <= 0 || waitpid(kids[i], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = 1;
	}
	return rc;
}

static int pingpong(long rounds)
{
	int there[2], back[2];
	if (pipe(there) != 0 || pipe(back) != 0)
		return 1;
	pid_t kid = fork();
	if (kid < 0)
		return 1;
	char b = 'x';
	if (kid == 0) {
		pin(cpus() - 1);
		for (long i = 0; i < rounds; i++)
			if (read(there[0], &b, 1) != 1 || write(back[1], &b, 1) != 1)
				_exit(1);
		_exit(0);
	}
	pin(0);
	int rc = 0;
	for (long i = 0; i < rounds && !rc; i++)
		if (write(there[1], &b, 1) != 1 || read(back[0], &b, 1) != 1)
			rc = 1;
	return reap(&kid, 1) | rc;
}

static int syscalls_child(long rounds, int cpu)
{
	pin(cpu);
	int zero = open("/dev/zero", O_RDONLY | O_CLOEXEC), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (zero < 0 || null < 0)
		return 1;
	char buf[64];
	struct stat st;
	for (long i = 0; i < rounds; i++) {
		getppid();
		if (read(zero, buf, sizeof buf) != (ssize_t)sizeof buf || write(null, buf, sizeof buf) != (ssize_t)sizeof buf)
			return 1;
		lseek(zero, 0, SEEK_SET);
		fstat(null, &st);
		sched_yield();
		if ((i & 7) == 0) {
			int fd = open("/etc/hostname", O_RDONLY | O_CLOEXEC);
			if (fd >= 0)
				close(fd);
		}
		if ((i & 63) == 0) {
			void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p != MAP_FAILED)
				munmap(p, 4096);
		}
	}
	return 0;
}

static int syscalls(long rounds)
{
	pid_t kids[2];
	int n = cpus();
	for (int c = 0; c < n; c++) {
		kids[c] = fork();
		if (kids[c] == 0)
			_exit(syscalls_child(rounds, c));
	}
	return reap(kids, n);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return usage();
	char *end;
	long rounds = strtol(argv[2], &end, 10);
	if (*argv[2] == '\0' || *end != '\0' || rounds < 0)
		return usage();
	if (strcmp(argv[1], "pingpong") == 0)
		return pingpong(rounds);
	if (strcmp(argv[1], "syscalls") == 0)
		return syscalls(rounds);
	if (strcmp(argv[1], "mixed") == 0) {
		pid_t kid = fork();
		if (kid == 0)
			_exit(pingpong(rounds));
		int rc = syscalls(rounds);
		return reap(&kid, 1) | rc;
	}
	return usage();
}
