/* SPDX-License-Identifier: MIT */
/*
 * tc_workload.c - the activity traced by tests/tracefs/record.sh.
 *
 * Built on the fly by record.sh (gcc -O2); not part of tracecat.  It makes
 * the kernel emit a known mix of events into an ftrace instance:
 *
 *   tc_workload probe-offset
 *       print the file offset of tc_probe_point() in this executable, for
 *       a uprobe ("p:GROUP/EVENT /path/to/tc_workload:0xOFFSET ...").
 *       Computed from /proc/self/maps, so no binutils are needed.
 *
 *   tc_workload markers INSTANCE_DIR
 *       write a fixed set of lines to INSTANCE_DIR/trace_marker (ftrace
 *       "print" events: short, empty, without a trailing newline, with
 *       printf directives, tabs, quotes and UTF-8, and long ones whose
 *       payload is over 112 bytes so the ring buffer stores the length in
 *       array[0]) and binary records to INSTANCE_DIR/trace_marker_raw
 *       (ftrace "raw_data" events: a u32 id then 0..40 bytes).
 *
 *   tc_workload load INSTANCE_DIR ITERATIONS
 *       one child per online CPU (at most 2), pinned to it; each runs
 *       ITERATIONS times: openat() of an existing or a missing file (the
 *       exit event then holds -ENOENT), close(), a call of tc_probe_point()
 *       (the uprobe target) and, every 64 iterations, a 30 us sleep (sched
 *       switch/wakeup) and every 1024 iterations a trace_marker line.
 *       About 3 events per iteration and CPU.
 *
 * Exit status 0 on success, 1 on a failed write to tracefs, 2 on usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The uprobe target: record.sh fetches both arguments (path as a user
 * string, n as s32).  noinline + the asm barrier keep the call and the
 * arguments in %rdi/%rsi at the first instruction. */
__attribute__((noinline, used)) int tc_probe_point(const char *path, int n);
__attribute__((noinline, used)) int tc_probe_point(const char *path, int n)
{
	__asm__ volatile("" : : "r"(path), "r"(n) : "memory");
	return n & 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: tc_workload probe-offset\n"
			"       tc_workload markers INSTANCE_DIR\n"
			"       tc_workload load INSTANCE_DIR ITERATIONS\n");
	return 2;
}

static int open_in(const char *dir, const char *file)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "tc_workload: %s: %s\n", path, strerror(errno));
	return fd;
}

static int put(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);
	if (n < 0 || (size_t)n != len) {
		fprintf(stderr, "tc_workload: write of %zu bytes: %s\n", len,
			n < 0 ? strerror(errno) : "short write");
		return -1;
	}
	return 0;
}

static int probe_offset(void)
{
	uintptr_t target = (uintptr_t)&tc_probe_point;
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[4096];
	if (!maps)
		return 1;
	while (fgets(line, sizeof(line), maps)) {
		uintptr_t start, end;
		unsigned long long off;
		char perms[8];
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx", &start, &end, perms, &off) != 4)
			continue;
		if (target >= start && target < end) {
			printf("0x%llx\n", (unsigned long long)(target - start) + off);
			fclose(maps);
			return 0;
		}
	}
	fclose(maps);
	fprintf(stderr, "tc_workload: tc_probe_point not found in /proc/self/maps\n");
	return 1;
}

static int markers(const char *dir)
{
	int fd = open_in(dir, "trace_marker");
	int raw = open_in(dir, "trace_marker_raw");
	if (fd < 0 || raw < 0)
		return 1;
	static const char *const lines[] = {
		"tc-workload: markers begin\n",
		"\n",
		"no trailing newline",
		"printf directives stay text: %s %d %p %% \\n \\t\n",
		"tab\tseparated\tfields, \"double\" and 'single' quotes\n",
		"UTF-8: caf\xc3\xa9 \xe2\x86\x92 \xe2\x9c\x93\n",
		/* > 112 bytes of payload: long-form event header (type_len 0) */
		"long line: the quick brown fox jumps over the lazy dog; "
		"the quick brown fox jumps over the lazy dog; "
		"the quick brown fox jumps over the lazy dog.\n",
		"two\nlines in one write\n",
		"trailing spaces   \n",
	};
	int rc = 0;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		rc |= put(fd, lines[i], strlen(lines[i]));
	/* A 1000-character line. */
	char big[1002];
	for (int i = 0; i < 1000; i++)
		big[i] = (char)('a' + i % 26);
	big[1000] = '\n';
	rc |= put(fd, big, 1001);

	/* raw_data: u32 id, then payloads of several lengths (the ring buffer
	 * pads to 4 bytes: the padding must not be shown). */
	static const unsigned lens[] = {0, 1, 3, 4, 7, 8, 13, 40};
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		unsigned char rec[4 + 40];
		uint32_t id = 0x2a + (uint32_t)i;
		memcpy(rec, &id, 4);
		for (unsigned j = 0; j < lens[i]; j++)
			rec[4 + j] = (unsigned char)(0xf0 + j * 7);
		rc |= put(raw, rec, 4 + lens[i]);
	}
	rc |= put(fd, "tc-workload: markers end\n", 25);
	close(fd);
	close(raw);
	return rc ? 1 : 0;
}

static int load_child(const char *dir, long iterations, int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		fprintf(stderr, "tc_workload: cannot pin to CPU %d: %s\n", cpu, strerror(errno));
	int marker = open_in(dir, "trace_marker");
	if (marker < 0)
		return 1;
	static const char *const paths[] = {"/etc/hostname", "/nonexistent/tc-workload",
					    "/proc/self/stat", "/etc/os-release"};
	struct timespec nap = {0, 30000};
	char msg[128];
	for (long i = 0; i < iterations; i++) {
		const char *p = paths[(i + cpu) & 3];
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		tc_probe_point(p, (int)i);
		if ((i & 63) == 63)
			nanosleep(&nap, NULL);
		if ((i & 1023) == 0) {
			int n = snprintf(msg, sizeof(msg), "tc-workload: cpu %d iteration %ld\n", cpu, i);
			if (put(marker, msg, (size_t)n) != 0)
				return 1;
		}
	}
	close(marker);
	return 0;
}

static int load(const char *dir, const char *count)
{
	char *end;
	long iterations = strtol(count, &end, 10);
	if (*count == '\0' || *end != '\0' || iterations < 0)
		return usage();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	if (ncpu > 2)
		ncpu = 2;
	pid_t kids[2];
	for (int c = 0; c < ncpu; c++) {
		kids[c] = fork();
		if (kids[c] < 0)
			return 1;
		if (kids[c] == 0)
			_exit(load_child(dir, iterations, c));
	}
	int rc = 0;
	for (int c = 0; c < ncpu; c++) {
		int st;
		if (waitpid(kids[c], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "probe-offset") == 0)
		return probe_offset();
	if (argc == 3 && strcmp(argv[1], "markers") == 0)
		return markers(argv[2]);
	if (argc == 4 && strcmp(argv[1], "load") == 0)
		return load(argv[2], argv[3]);
	return usage();
}
