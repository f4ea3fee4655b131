/* SPDX-License-Identifier: MIT */
/*
 * tc2_app.c - test program that fires the "tc2" tracepoints (tc2_tp.h),
 * tracef() and tracelog() so that record.sh can record tracecat's LTTng
 * 2.15 CTF 2 fixtures.
 *
 * usage: tc2_app ITERATIONS MODE[,MODE...]
 *
 *   full  two threads, each pinned to its own CPU (so a per-CPU buffer
 *         layout gets two stream files whose events interleave); each
 *         iteration of each thread emits one event of every payload type:
 *         tc2:ints, ctypes, floats, strings, enums, arrays, seqs, empty
 *         (8 events).  Values come from tables indexed by the row
 *         k = 2 * iteration + thread, so a few iterations cover every entry.
 *   log   the main thread, once:
 *         lttng_ust_tracef() twice and lttng_ust_vtracef() once,
 *         lttng_ust_tracelog() at each of the 15 log levels plus one
 *         lttng_ust_vtracelog(), and tc2:log_both, log_emf_only,
 *         log_debug_line and log_none (23 events).
 *   lost  two pinned threads, each emitting ITERATIONS tc2:burst and
 *         tc2:ring events as fast as it can, so that small discard-mode and
 *         overwrite-mode channels lose some of them.
 *
 * All values are deterministic; only timestamps, ids and addresses differ
 * between runs.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <endian.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lttng/tracef.h>
#include <lttng/tracelog.h>

#include "tc2_tp.h"

#define NTHREADS 2
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { MODE_FULL = 1, MODE_LOG = 2, MODE_LOST = 4 };

struct worker {
	pthread_t thread;
	int index;
	unsigned long long iterations;
	int modes;
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

/*
 * Empty strings sit between non-empty ones, so an empty string always
 * follows a non-empty one of the same field (babeltrace2 2.0.4 printed
 * stale text there; see tests/lttng/tc_app.c).
 */
static const char *const strs[] = {
	" ",
	"plain ASCII text",
	"",
	"quotes \" and 'single' and question? and ?\?= trigraph",
	"back\\slash, tab\there, newline\nend",
	"",
	"controls \x01\x02\x07\x08\x0b\x0c\x1b[31m red \x7f end",
	"utf-8: caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80 done",
	"carriage\rreturn, percent %s %d %%, brace {x} [y]",
	"invalid utf-8: \xff\xfe\xc3 end",
};

/* Enum values: mapped, range, overlapping ranges, auto, negative, unmapped. */
static const int state_vals[] = { 0, 1, 2, 5, 9, 10, -3, 42 };
static const uint64_t size_vals[] = { 0, 7, 255, 256, 257, UINT64_MAX, 1000, 1 };
static const uint8_t flag_vals[] = { 0, 2, 3, 4, 5, 6, 200, 255 };
static const int8_t sign_vals[] = { -128, -127, -1, 0, 1, 127, 0, -128 };
static const int64_t wide_vals[] = { INT64_MIN, -1, 0, INT64_MAX, 1, INT64_MIN + 1, 42, INT64_MAX - 1 };
static const unsigned int odd_vals[] = { 0, 1, 2, 3, 4, 5, 1000, 65535 };

/* Exactly 8 bytes each: array_text copies the full length. */
static const char text8[][8] = {
	{ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h' },
	{ 'a', 'b', '\0', 'c', 'd', 'e', 'f', 'g' },
	{ 't', '\t', '"', 'q', '"', '\n', '\\', '\0' },
	{ '\xc3', '\xa9', 't', '\xc3', '\xa9', '\0', '\0', '\0' },
	{ '\0', 'h', 'i', 'd', 'd', 'e', 'n', '!' },
};

static const size_t seq_lens[] = { 0, 1, 3, 5 };

/* "" comes third: it follows non-empty ones in the same stream. */
static const char *const seq_texts[] = {
	"abc",
	"x",
	"",
	"seq \"text\"\twith\\escapes",
	"nul\0inside",
};
static const size_t seq_text_lens[] = { 3, 1, 0, 24, 11 };

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

	lttng_ust_tracepoint(tc2, ints, s, u,
		htons((uint16_t) u[1]), htonl((uint32_t) s[2]), htobe64(u[3]));

	lttng_ust_tracepoint(tc2, ctypes, k);

	for (i = 0; i < 4; i++)
		f[i] = f_vals[(4 * k + i) % COUNT(f_vals)];
	for (i = 0; i < 5; i++)
		d[i] = d_vals[(5 * k + i) % COUNT(d_vals)];
	lttng_ust_tracepoint(tc2, floats, f, d);

	lttng_ust_tracepoint(tc2, strings,
		strs[(2 * k) % COUNT(strs)], strs[(2 * k + 1) % COUNT(strs)],
		k % 3 == 1 ? NULL : k % 3 == 2 ? "" : "not null");

	lttng_ust_tracepoint(tc2, enums,
		state_vals[k % COUNT(state_vals)],
		size_vals[k % COUNT(size_vals)],
		flag_vals[k % COUNT(flag_vals)],
		sign_vals[k % COUNT(sign_vals)],
		wide_vals[k % COUNT(wide_vals)],
		odd_vals[k % COUNT(odd_vals)]);

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
	lttng_ust_tracepoint(tc2, arrays, a_s32, a_u8, a_u16, a_s64, a_be32,
		text8[k % COUNT(text8)]);

	for (i = 0; i < 5; i++) {
		q_s16[i] = (int16_t) (-i * 1111 + k);
		q_u32[i] = 0xfffffff0u + (uint32_t) i;
		q_u64[i] = UINT64_MAX / (uint64_t) (i + 1) - (uint64_t) k;
		q_be16[i] = htons((uint16_t) (0x0102 * (i + 1)));
	}
	lttng_ust_tracepoint(tc2, seqs, q_s16, q_u32, q_u64, q_be16, len,
		seq_texts[k % COUNT(seq_texts)],
		seq_text_lens[k % COUNT(seq_text_lens)]);

	lttng_ust_tracepoint(tc2, empty);
}

static void vtracef_helper(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lttng_ust_vtracef(fmt, ap);
	va_end(ap);
}

static void vtracelog_helper(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lttng_ust_vtracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE, fmt, ap);
	va_end(ap);
}

/* tracef/tracelog messages are formatted by the application (vasprintf). */
static void emit_log(void)
{
	lttng_ust_tracef("tracef: int %d, str \"%s\", hex %#x, double %.3f", -42, "quoted", 0xbeefu, 2.5);
	lttng_ust_tracef("%s", "");
	vtracef_helper("vtracef: %s=%u", "answer", 42u);

	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG, "level %d: %s", 0, "emerg");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_ALERT, "level %d: %s", 1, "alert");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_CRIT, "level %d: %s", 2, "crit");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR, "level %d: %s", 3, "err");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING, "level %d: %s", 4, "warning");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE, "level %d: %s", 5, "notice");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO, "level %d: %s", 6, "info");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_SYSTEM, "level %d: %s", 7, "debug system");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROGRAM, "level %d: %s", 8, "debug program");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS, "level %d: %s", 9, "debug process");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_MODULE, "level %d: %s", 10, "debug module");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_UNIT, "level %d: %s", 11, "debug unit");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION, "level %d: %s", 12, "debug function");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE, "level %d: %s", 13, "debug line");
	lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG, "level %d: %s", 14, "debug");
	vtracelog_helper("vtracelog: %s", "notice via va_list");

	lttng_ust_tracepoint(tc2, log_both, 1);
	lttng_ust_tracepoint(tc2, log_emf_only, 2);
	lttng_ust_tracepoint(tc2, log_debug_line, 3);
	lttng_ust_tracepoint(tc2, log_none, 4);
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
		perror("tc2_app: sched_setaffinity");

	pthread_barrier_wait(&start_barrier);

	if (w->modes & MODE_FULL) {
		for (i = 0; i < w->iterations; i++) {
			/* thread 0 takes even table rows, thread 1 odd ones */
			emit_full((int) ((2 * i + (unsigned long long) w->index) % 1000000));
			/* spread the events in time so the two streams interleave */
			usleep(200);
		}
	}
	pthread_barrier_wait(&start_barrier);
	if (w->modes & MODE_LOST) {
		for (i = 0; i < w->iterations; i++) {
			lttng_ust_tracepoint(tc2, burst, i, w->index);
			lttng_ust_tracepoint(tc2, ring, i, w->index);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker workers[NTHREADS];
	char *end, *modes_arg, *tok, *save = NULL;
	unsigned long long iterations;
	int modes = 0;
	int i;

	if (argc != 3) {
		fprintf(stderr, "usage: %s ITERATIONS MODE[,MODE...]  (modes: full, log, lost)\n", argv[0]);
		return 2;
	}
	iterations = strtoull(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0') {
		fprintf(stderr, "%s: bad iteration count '%s'\n", argv[0], argv[1]);
		return 2;
	}
	modes_arg = argv[2];
	for (tok = strtok_r(modes_arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "full") == 0)
			modes |= MODE_FULL;
		else if (strcmp(tok, "log") == 0)
			modes |= MODE_LOG;
		else if (strcmp(tok, "lost") == 0)
			modes |= MODE_LOST;
		else {
			fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], tok);
			return 2;
		}
	}

	if (modes & MODE_LOG)
		emit_log();
	if (!(modes & (MODE_FULL | MODE_LOST)))
		return 0;

	pthread_barrier_init(&start_barrier, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		workers[i].index = i;
		workers[i].iterations = iterations;
		workers[i].modes = modes;
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
