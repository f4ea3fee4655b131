/* SPDX-License-Identifier: MIT */
/*
 * tc_app.c - test program that fires the "tc" tracepoints (tc_tp.h) so that
 * record.sh can produce tracecat's CTF fixtures and benchmark traces.
 *
 * usage: tc_app ITERATIONS [full|bench|bench-float|empty|mix-NAME]
 *
 *   full  (default) two threads, each pinned to its own CPU so the trace gets
 *         two per-CPU stream files whose events interleave; every iteration
 *         of every thread emits one event of each tc:* type except tc:bench
 *         (7 events).  Values come from tables indexed by the row
 *         k = 2 * iteration + thread, so two iterations already cover every
 *         table entry.
 *   bench ITERATIONS tc:bench events in total, split across the two threads.
 *   bench-float  the same with tc:bench_float: the double is seq / 7 and the
 *         float sqrt(seq), values that print with six rounded digits.
 *   empty like full, but only tc:strings and tc:seqs (2 events), alternating
 *         empty and non-empty strings and text sequences: see below.
 *   mix-ints, mix-kernel, mix-floats, mix-seqs, mix-tiny, mix-large
 *         the payload mixes of bench/ctf-mixes.sh: ITERATIONS events in
 *         total, split across the two threads like bench, of the tc:mix_*
 *         classes tc_tp.h describes (mix-kernel and mix-seqs take turns
 *         between their two classes).  See emit_mix().
 *
 * All values are deterministic; only timestamps and ids differ per run.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tc_tp.h"

#define NTHREADS 2
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum mode {
	MODE_FULL, MODE_BENCH, MODE_BENCH_FLOAT, MODE_EMPTY,
	MODE_MIX_INTS, MODE_MIX_KERNEL, MODE_MIX_FLOATS, MODE_MIX_SEQS,
	MODE_MIX_TINY, MODE_MIX_LARGE
};

/* The mix-* modes' names, in enum mode's order from MODE_MIX_INTS. */
static const char *const mix_names[] = {
	"mix-ints", "mix-kernel", "mix-floats", "mix-seqs", "mix-tiny", "mix-large",
};

struct worker {
	pthread_t thread;
	int index;
	unsigned long long iterations;
	enum mode mode;
};

static pthread_barrier_t start_barrier;

/* Extremes first: they are the values most likely to be mis-printed. */
static const int64_t s_vals[][4] = {
	{ INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN },
	{ INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX },
	{ -1, -1, -1, -1 },
	{ 42, -1234, 100000, -5000000000LL },
};

static const uint64_t u_vals[][4] = {
	{ 0, 0, 0, 0 },
	{ UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX },
	{ 1, 1, 1, 1 },
	{ 200, 60000, 3000000000U, 10000000000000000000ULL },
};

/*
 * Values where %g-style formatting differs from naive printing: signed
 * zero, denormals, exponent thresholds (1e-05, 1e+06, 1e+16), limits,
 * infinities, NaNs of both signs, and values that are not exact in binary.
 */
static const float f_vals[16] = {
	0.0f, -0.0f, 1.5f, -3.25f,
	0.1f, FLT_MIN, 1e-45f, FLT_MAX,
	1e-10f, 16777217.0f, 65536.0f, 100000.0f,
	INFINITY, -INFINITY, NAN, 1.0f / 3.0f,
};

static const double d_vals[20] = {
	0.0, -0.0, 1.0 / 3.0, -1.5, 3.141592653589793,
	1e-300, 5e-324, DBL_MAX, NAN, -2.5e-8,
	123456789.125, 1e16, 999999.5, 100000.0, 1000000.0,
	0.0001, 1e-05, INFINITY, -INFINITY, -NAN,
};

/* No "" here: empty strings have their own mode, see emit_empty(). */
static const char *const strs[] = {
	" ",
	"plain ASCII text",
	"quotes \" and 'single' and question? and ?\?= trigraph",
	"back\\slash, tab\there, newline\nend",
	"controls \x01\x02\x07\x08\x0b\x0c\x1b[31m red \x7f end",
	"utf-8: caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 done",
	"carriage\rreturn, percent %s %d %%, brace {x} [y]",
	"invalid utf-8: \xff\xfe\xc3 end",
};

/* Values: mapped, range, overlapping ranges, auto, negative, unmapped. */
static const int state_vals[] = { 0, 1, 2, 5, 9, 10, -3, 42 };
static const uint64_t size_vals[] = { 0, 7, 255, 256, 257, UINT64_MAX, 1000, 1 };

/* Exactly 8 bytes each: array_text copies the full length. */
static const char text8[][8] = {
	{ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' },
	{ 'a', 'b', '\0', 'c', 'd', 'e', 'f', 'g' },
	{ 't', '\t', '"', 'q', '"', '\n', '\\', '\0' },
	{ '\xc3', '\xa9', 't', '\xc3', '\xa9', '\0', '\0', '\0' },
};

static const size_t seq_lens[] = { 0, 1, 3, 5 };

/* Numeric sequences go down to length 0, text ones do not (emit_empty). */
static const char *const seq_texts[] = {
	"abc",
	"x",
	"seq \"text\"\twith\\escapes",
	"nul\0inside",
};
static const size_t seq_text_lens[] = { 3, 1, 24, 11 };

static void emit_full(int k)
{
	const int64_t *s = s_vals[k % COUNT(s_vals)];
	const uint64_t *u = u_vals[k % COUNT(u_vals)];
	float f[4];
	double d[5];
	int32_t a_s32[4];
	uint8_t a_u8[3];
	uint16_t a_u16[3];
	int64_t a_s64[2];
	uint32_t a_be32[2];
	int16_t q_s16[5];
	uint32_t q_u32[5];
	uint64_t q_u64[5];
	uint16_t q_be16[5];
	size_t len = seq_lens[k % COUNT(seq_lens)];
	int i;

	lttng_ust_tracepoint(tc, ints, s, u,
		htons((uint16_t) u[1]), htonl((uint32_t) s[2]), htobe64(u[3]));

	for (i = 0; i < 4; i++)
		f[i] = f_vals[(4 * k + i) % COUNT(f_vals)];
	for (i = 0; i < 5; i++)
		d[i] = d_vals[(5 * k + i) % COUNT(d_vals)];
	lttng_ust_tracepoint(tc, floats, f, d);

	lttng_ust_tracepoint(tc, strings,
		strs[(2 * k) % COUNT(strs)], strs[(2 * k + 1) % COUNT(strs)],
		k % 2 ? NULL : "not null");

	lttng_ust_tracepoint(tc, enums,
		state_vals[(2 * k) % COUNT(state_vals)],
		state_vals[(2 * k + 1) % COUNT(state_vals)],
		size_vals[(2 * k) % COUNT(size_vals)],
		size_vals[(2 * k + 1) % COUNT(size_vals)]);

	for (i = 0; i < 4; i++)
		a_s32[i] = (int32_t) (i - 2) * (k + 1) * 1000003;
	for (i = 0; i < 3; i++) {
		a_u8[i] = (uint8_t) (k * 100 + i * 77);
		a_u16[i] = (uint16_t) (0xbeef + k * 0x1111 + i);
	}
	a_s64[0] = -(int64_t) k - 1;
	a_s64[1] = INT64_MAX - k;
	a_be32[0] = htonl(0xdeadbeefu + (uint32_t) k);
	a_be32[1] = htonl((uint32_t) k);
	lttng_ust_tracepoint(tc, arrays, a_s32, a_u8, a_u16, a_s64, a_be32,
		text8[k % COUNT(text8)]);

	for (i = 0; i < 5; i++) {
		q_s16[i] = (int16_t) (-i * 1111 + k);
		q_u32[i] = 0xfffffff0u + (uint32_t) i;
		q_u64[i] = UINT64_MAX / (uint64_t) (i + 1) - (uint64_t) k;
		q_be16[i] = htons((uint16_t) (0x0102 * (i + 1)));
	}
	lttng_ust_tracepoint(tc, seqs, q_s16, q_u32, q_u64, q_be16, len,
		seq_texts[k % COUNT(seq_texts)],
		seq_text_lens[k % COUNT(seq_text_lens)]);

	lttng_ust_tracepoint(tc, empty);
}

/*
 * Empty strings and zero-length text sequences, each right after a
 * non-empty one of the same event class.  babeltrace2 2.0.4 clears a
 * string field by setting its length to 0 without writing a NUL, and it
 * recycles event objects, so such a field can print the text an earlier
 * event of the class held: what it prints depends on babeltrace2's message
 * batching, not only on the trace.  Kept out of "full" so that those
 * fixtures do not depend on it.
 */
static void emit_empty(int k)
{
	static const int16_t s16[1] = { 7 };
	static const uint32_t u32[1] = { 7 };
	static const uint64_t u64[1] = { 7 };
	static const uint16_t be16[1] = { 0x0700 };
	int empty = k % 2;

	lttng_ust_tracepoint(tc, strings,
		empty ? "" : "text before an empty string",
		empty ? "" : "b",
		k % 3 == 0 ? NULL : "");
	lttng_ust_tracepoint(tc, seqs, s16, u32, u64, be16, (size_t) !empty,
		"text before an empty sequence", empty ? 0 : 29);
}

/* Task names of 16 bytes exactly, NUL-padded as the kernel's comm. */
static const char comms[][16] = {
	"swapper/0", "kworker/u4:2", "systemd-journal", "bash", "tc_app-worker",
	"rcu_preempt", "ksoftirqd/1", "gnome-shell",
};

static const char *const exec_paths[] = {
	"/usr/bin/ls", "/usr/lib/systemd/systemd-udevd", "/bin/sh", "/usr/local/bin/a-longer-program-name",
};

/* mix-large's payload bytes, filled by main() before the threads start. */
static uint8_t blob[4096];

/*
 * Event I of a mix-* mode, from thread W (I = W, W + 2, ...: the classes
 * of a two-class mix take turns on k = I / 2, so that both threads' streams
 * hold both).  Values are cheap functions of I so that recording stays
 * fast.
 */
static void emit_mix(enum mode mode, unsigned long long i, int w)
{
	static const char text[] = "sequence of text";
	unsigned long long k = i / 2;
	int32_t vals[8];
	size_t n, j;

	switch (mode) {
	case MODE_MIX_INTS:
		lttng_ust_tracepoint(tc, mix_ints, i, w);
		break;
	case MODE_MIX_KERNEL:
		if (k % 2 == 0)
			lttng_ust_tracepoint(tc, mix_switch, comms[i % 8], (int32_t) (i % 32768), 120,
				(int64_t) (i % 3 == 0), comms[k % 8], (int32_t) ((i + 1) % 32768),
				(int32_t) (100 + i % 40));
		else
			lttng_ust_tracepoint(tc, mix_exec, (int32_t) (i % 32768), exec_paths[k % 4]);
		break;
	case MODE_MIX_FLOATS:
		lttng_ust_tracepoint(tc, mix_floats, (float) i / 3.0f, sqrtf((float) i),
			(double) i / 7.0, (double) i * 1e-9 - 1e3);
		break;
	case MODE_MIX_SEQS:
		if (k % 2 == 0) {
			n = (size_t) (k / 2) % 9;
			for (j = 0; j < n; j++)
				vals[j] = (int32_t) (i + j) * -7;
			lttng_ust_tracepoint(tc, mix_seq, vals, n, text, (size_t) (k / 2) % 17);
		} else {
			lttng_ust_tracepoint(tc, mix_enum, state_vals[(k / 2) % COUNT(state_vals)],
				size_vals[(k / 2) % COUNT(size_vals)], (uint32_t) i);
		}
		break;
	case MODE_MIX_TINY:
		lttng_ust_tracepoint(tc, mix_tiny, (uint8_t) i);
		break;
	case MODE_MIX_LARGE:
		lttng_ust_tracepoint(tc, mix_blob, (uint32_t) i, blob,
			1024 + (size_t) ((i * 2654435761u) % 3073));
		break;
	default:
		break;
	}
}

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	unsigned long long i;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	/*
	 * Pinning makes each thread write to its own per-CPU buffer, which is
	 * what produces two interleaving stream files.  Failure only loses
	 * that property, so it is not fatal.
	 */
	CPU_ZERO(&set);
	CPU_SET(ncpu > 0 ? w->index % ncpu : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		perror("tc_app: sched_setaffinity");

	pthread_barrier_wait(&start_barrier);

	if (w->mode == MODE_BENCH) {
		for (i = (unsigned long long) w->index; i < w->iterations; i += NTHREADS)
			lttng_ust_tracepoint(tc, bench, i, w->index,
				(uint32_t) (i * 2654435761u), "bench");
		return NULL;
	}
	if (w->mode == MODE_BENCH_FLOAT) {
		for (i = (unsigned long long) w->index; i < w->iterations; i += NTHREADS)
			lttng_ust_tracepoint(tc, bench_float, i, w->index,
				(uint32_t) (i * 2654435761u), "bench",
				(double) i / 7.0, sqrtf((float) i));
		return NULL;
	}
	if (w->mode >= MODE_MIX_INTS) {
		for (i = (unsigned long long) w->index; i < w->iterations; i += NTHREADS)
			emit_mix(w->mode, i, w->index);
		return NULL;
	}
	for (i = 0; i < w->iterations; i++) {
		/* thread 0 takes even table rows, thread 1 odd ones */
		int k = (int) ((2 * i + (unsigned long long) w->index) % 1000000);

		if (w->mode == MODE_EMPTY)
			emit_empty(k);
		else
			emit_full(k);
		/* spread the events in time so the two streams interleave */
		if (w->iterations <= 1000)
			usleep(200);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker workers[NTHREADS];
	char *end;
	unsigned long long iterations;
	enum mode mode = MODE_FULL;
	int i;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s ITERATIONS [full|bench|bench-float|empty|mix-NAME]\n", argv[0]);
		return 2;
	}
	iterations = strtoull(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0') {
		fprintf(stderr, "%s: bad iteration count '%s'\n", argv[0], argv[1]);
		return 2;
	}
	if (argc == 3) {
		if (strcmp(argv[2], "bench") == 0)
			mode = MODE_BENCH;
		else if (strcmp(argv[2], "bench-float") == 0)
			mode = MODE_BENCH_FLOAT;
		else if (strcmp(argv[2], "empty") == 0)
			mode = MODE_EMPTY;
		else if (strncmp(argv[2], "mix-", 4) == 0) {
			for (i = 0; i < (int) COUNT(mix_names); i++)
				if (strcmp(argv[2], mix_names[i]) == 0)
					mode = (enum mode) (MODE_MIX_INTS + i);
			if (mode == MODE_FULL) {
				fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], argv[2]);
				return 2;
			}
		} else if (strcmp(argv[2], "full") != 0) {
			fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], argv[2]);
			return 2;
		}
	}

	for (i = 0; i < (int) sizeof(blob); i++)
		blob[i] = (uint8_t) (i * 7 + 1);
	pthread_barrier_init(&start_barrier, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		workers[i].index = i;
		workers[i].iterations = iterations;
		workers[i].mode = mode;
		if (pthread_create(&workers[i].thread, NULL, run_worker, &workers[i]) != 0) {
			fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
			return 1;
		}
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(workers[i].thread, NULL);
	pthread_barrier_destroy(&start_barrier);
	return 0;
}
