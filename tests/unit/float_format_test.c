/* SPDX-License-Identifier: MIT */
/*
 * float_format_test.c - tc_fmt_g() and tc_fmt_f() (src/text/float_format.c)
 * against glibc's snprintf, which is what the peers print with: every
 * class of double (zeros, infinities, NaNs, subnormals, the limits), every
 * power of ten and its neighbours, ties built on purpose (exact halves at
 * the rounding digit, which glibc rounds to even), values that round up to
 * the next power of ten, values a hair from a half, whole numbers,
 * millions of random bit patterns, and floats (random, and a strided
 * sweep of all their bit patterns) widened to double as babeltrace2 does.  Precisions 0..17 throughout.  The text is
 * written into heap blocks of exactly TC_FMT_G_MAX and TC_FMT_F_MAX bytes,
 * so that the sanitizer build catches a write past the promised room.
 * Each group is one check; a failure names the first few values that
 * differ.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text/float_format.h"

/* One group of comparisons: how many, how many differed, the first few. */
struct group {
	unsigned long count, failed;
	char first[3][160];
};

/* Exactly the room the functions promise to need, on the heap: the
 * sanitizer build sees any byte written past it. */
static char *g_room, *f_room;

static void compare_one(struct group *g, const char *conv, double v, unsigned precision)
{
	char want[400], *got = conv[0] == 'g' ? g_room : f_room;
	size_t n;

	if (conv[0] == 'g') {
		snprintf(want, sizeof want, "%.*g", (int)precision, v);
		n = tc_fmt_g(got, v, precision);
	} else if (conv[0] == 'f') {
		snprintf(want, sizeof want, "%.*f", (int)precision, v);
		n = tc_fmt_f(got, v, precision, false);
	} else {
		snprintf(want, sizeof want, "%#.*f", (int)precision, v);
		n = tc_fmt_f(got, v, precision, true);
	}
	g->count++;
	if (strlen(want) == n && memcmp(want, got, n) == 0)
		return;
	if (g->failed < 3) {
		uint64_t bits;

		memcpy(&bits, &v, sizeof bits);
		snprintf(g->first[g->failed], sizeof g->first[0], "%s%u of %a (0x%016" PRIx64 "): want \"%.40s\" got \"%.*s\"",
		         conv, precision, v, bits, want, (int)(n < 40 ? n : 40), got);
	}
	g->failed++;
}

/* %g, %f and %#f at every precision. */
static void compare_all(struct group *g, double v)
{
	for (unsigned p = 0; p <= TC_FMT_FLOAT_MAX_PRECISION; p++) {
		compare_one(g, "g", v, p);
		compare_one(g, "f", v, p);
		compare_one(g, "#f", v, p);
	}
}

static void report(const char *name, const struct group *g)
{
	check(g->failed == 0 && g->count > 0, name, "%lu of %lu differ: %s; %s; %s", g->failed, g->count, g->first[0],
	      g->failed > 1 ? g->first[1] : "", g->failed > 2 ? g->first[2] : "");
}

static double from_bits(uint64_t bits)
{
	double v;

	memcpy(&v, &bits, sizeof v);
	return v;
}

static void test_classes(void)
{
	static const double values[] = {
		0.0, 1.0, 0.5, 0.1, 2.5, 1.5, 123456.0, 1e-5, 1e-4, 9.5e-5, 1e15, 1e16, 1e17,
		DBL_MIN, DBL_MAX, DBL_TRUE_MIN, DBL_EPSILON, FLT_MIN, FLT_MAX, 4.9406564584124654e-324,
		2.2250738585072009e-308, 0.125, 0.375, 1.0 / 3.0, 2.0 / 3.0, M_PI, 1e22, 1e23,
		9007199254740992.0, 9007199254740993.0, 18446744073709551616.0, 9223372036854775808.0,
		4503599627370495.5, 0.30000000000000004,
	};
	struct group g = { 0 };

	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		compare_all(&g, values[i]);
		compare_all(&g, -values[i]);
	}
	/* Infinities and NaNs of both signs, quiet and signalling payloads. */
	compare_all(&g, INFINITY);
	compare_all(&g, -INFINITY);
	compare_all(&g, from_bits(UINT64_C(0x7ff8000000000000)));
	compare_all(&g, from_bits(UINT64_C(0xfff8000000000000)));
	compare_all(&g, from_bits(UINT64_C(0x7ff0000000000001)));
	compare_all(&g, from_bits(UINT64_C(0xfff0000000000001)));
	/* Subnormals: the smallest few, the largest, powers of two. */
	for (uint64_t m = 1; m < 64; m++)
		compare_all(&g, from_bits(m));
	for (int s = 0; s < 52; s++) {
		compare_all(&g, from_bits(UINT64_C(1) << s));
		compare_all(&g, from_bits((UINT64_C(1) << 52) - 1 - s));
		compare_all(&g, from_bits((UINT64_C(1) << 52) + s));
	}
	/* Normals' largest few and every binade's edges. */
	for (uint64_t m = 0; m < 16; m++)
		compare_all(&g, from_bits(UINT64_C(0x7fefffffffffffff) - m));
	for (int e = 0; e < 2047; e++) {
		compare_one(&g, "g", from_bits((uint64_t)e << 52), 6);
		compare_one(&g, "g", from_bits((uint64_t)e << 52), 17);
		compare_one(&g, "g", from_bits(((uint64_t)e << 52) | ((UINT64_C(1) << 52) - 1)), 6);
		compare_one(&g, "g", from_bits(((uint64_t)e << 52) | ((UINT64_C(1) << 52) - 1)), 17);
	}
	report("classes: zeros, limits, infinities, NaNs, subnormals, binade edges", &g);
}

static void test_powers_of_ten(void)
{
	struct group g = { 0 };
	char text[32];

	for (int j = -323; j <= 308; j++) {
		double v;

		snprintf(text, sizeof text, "1e%d", j);
		v = strtod(text, NULL);
		compare_all(&g, v);
		compare_all(&g, nextafter(v, 0));
		compare_all(&g, nextafter(v, INFINITY));
		/* Halfway at every precision: 5, 15, 25, ... times 10^j. */
		for (int d = 5; d < 100; d += 10) {
			snprintf(text, sizeof text, "%de%d", d, j);
			compare_all(&g, strtod(text, NULL));
		}
	}
	report("powers of ten 1e-323..1e308, their neighbours and near-halves", &g);
}

/* Exact ties at the rounding digit, which glibc rounds to even. */
static void test_ties(uint64_t *rng)
{
	struct group g = { 0 };

	/* Integers of P + 1 digits ending in 5, below 2^53: ties for %.Pg
	 * (P - 1 decimals after the first digit). */
	for (unsigned p = 1; p <= 15; p++) {
		for (int i = 0; i < 2000; i++) {
			uint64_t lo = (uint64_t)pow(10, p), a = lo + check_random(rng) % (9 * lo);
			double v = (double)(a * 10 + 5);

			compare_one(&g, "g", v, p);
			compare_one(&g, "g", v, p + 1);
			compare_one(&g, "g", -v, p);
		}
	}
	/* Dyadic fractions a / 2^j have exactly j decimals, the last a 5 when
	 * a is odd: ties for %.(j-1)f and for %g at their digit count. */
	for (int j = 1; j <= 30; j++) {
		for (int i = 0; i < 1500; i++) {
			uint64_t a = (check_random(rng) >> (11 + check_random(rng) % 40)) | 1;
			double v = ldexp((double)a, -j);

			compare_one(&g, "f", v, (unsigned)(j - 1 < 17 ? j - 1 : 17));
			compare_one(&g, "#f", v, (unsigned)(j - 1 < 17 ? j - 1 : 17));
			for (unsigned p = 1; p <= 17; p += 2)
				compare_one(&g, "g", v, p);
		}
	}
	/* k + 0.5 at precision 0, and the halves that %g's default meets. */
	for (int i = 0; i < 20000; i++) {
		double v = (double)(check_random(rng) >> (12 + i % 40)) + 0.5;

		compare_one(&g, "f", v, 0);
		compare_one(&g, "#f", v, 0);
		compare_one(&g, "g", v, 6);
	}
	report("exact ties (integers ending in 5, dyadic fractions, k + 0.5)", &g);
}

/* Values that round up to the next power of ten, and their neighbours. */
static void test_carry_to_next_power(void)
{
	struct group g = { 0 };
	char text[48];

	for (unsigned p = 1; p <= 17; p++) {
		for (int j = -310; j <= 300; j += 7) {
			/* P nines then a 5: 9.5, 99.5, 999999.5, 9.999995 ... */
			snprintf(text, sizeof text, "%.*se%d", (int)p + 2, "9.999999999999999999", j);
			text[p + 1] = '5';
			double v = strtod(text, NULL);

			compare_all(&g, v);
			compare_all(&g, nextafter(v, 0));
			compare_all(&g, nextafter(v, INFINITY));
		}
	}
	compare_all(&g, 999999.5);
	compare_all(&g, 9.999995);
	compare_all(&g, 99999.95);
	compare_all(&g, 0.00009999995);
	report("values rounding up to the next power of ten", &g);
}

/* Values within an ulp or two of a half at the rounding digit, at the
 * precisions of tc_fmt_g()'s one-multiplication path (up to 8): its
 * truncated 10^k leaves a fraction that close to a half undecided, for
 * the longer paths to settle.  The nearest double to a decimal half lies
 * within about 2^-53 of it relatively, which for P + 1 digits is well
 * inside that path's margin. */
static void test_near_halves(uint64_t *rng)
{
	struct group g = { 0 };
	char text[48];

	for (unsigned p = 1; p <= 8; p++) {
		for (int i = 0; i < 20000; i++) {
			uint64_t r = check_random(rng), lo = (uint64_t)pow(10, p - 1);
			uint64_t a = lo + r % (9 * lo);
			double v;

			/* A P-digit integer then a 5, at any magnitude. */
			snprintf(text, sizeof text, "%" PRIu64 "5e%d", a, (int)((r >> 32) % 600) - 300);
			v = strtod(text, NULL);
			compare_one(&g, "g", v, p);
			compare_one(&g, "g", nextafter(v, 0), p);
			compare_one(&g, "g", nextafter(v, INFINITY), p);
			compare_one(&g, "g", -v, p);
		}
	}
	report("near halves at precisions 1..8, every magnitude", &g);
}

/* %g at 6 digits first tries one double multiplication, trusted only
 * where the scaled value lies further than 2^-20 from a half: values
 * placed at distances from 2^-26 to 2^-14 of a half (either side), at the
 * magnitudes that path takes, and the smallest and largest it takes. */
static void test_six_digit_margin(uint64_t *rng)
{
	struct group g = { 0 };

	for (int i = 0; i < 200000; i++) {
		uint64_t r = check_random(rng);
		/* A six-digit integer and a half, off by +-2^-D. */
		double half = (double)(100000 + r % 900000) + 0.5;
		int dist = 14 + (int)((r >> 20) % 13), e = (int)((r >> 32) % 600) - 300;
		double scaled = half + ((r >> 40) & 1 ? 1 : -1) * ldexp(1, -dist);
		double v = scaled * pow(10, e - 5);

		compare_one(&g, "g", v, 6);
		compare_one(&g, "g", nextafter(v, 0), 6);
		compare_one(&g, "g", -nextafter(v, INFINITY), 6);
	}
	for (int e = -309; e <= 308; e++) {
		double v = 1.234567 * pow(10, e);

		compare_one(&g, "g", v, 6);
		compare_one(&g, "g", 9.999995 * pow(10, e), 6);
	}
	report("precision 6: a hair (2^-26..2^-14) from a half, every magnitude", &g);
}

/* Every six significant digits %g can print, each at a magnitude of its
 * own: the layout splits them into pairs with fixed-point multiplications
 * whose error bound this run checks exhaustively. */
static void test_every_six_digits(void)
{
	struct group g = { 0 };

	for (uint32_t r = 100000; r < 1000000; r++)
		compare_one(&g, "g", ((double)r + 0.25) * pow(10, (int)(r % 13) - 9), 6);
	report("precision 6: every six-digit string", &g);
}

/* Whole numbers, which tc_fmt_g() prints with an integer conversion when
 * they have at most P digits, and the edges of that: 10^P and its
 * neighbours, 2^52 and 2^53, halves next to them. */
static void test_whole_numbers(uint64_t *rng)
{
	struct group g = { 0 };

	for (int i = 0; i < 100000; i++) {
		uint64_t r = check_random(rng);
		double v = (double)(r >> (11 + r % 53));

		compare_one(&g, "g", v, 6);
		compare_one(&g, "g", -v, 6);
		compare_one(&g, "g", v, (unsigned)((r >> 8) % 18));
	}
	for (unsigned j = 0; j <= 22; j++) {
		double t = pow(10, j);

		compare_all(&g, t);
		compare_all(&g, t - 1);
		compare_all(&g, t + 1);
		compare_all(&g, -t);
		compare_all(&g, t - 0.5);
	}
	for (int j = 0; j < 64; j++) {
		compare_all(&g, ldexp(1, j));
		compare_all(&g, ldexp(1, j) - 1);
		compare_all(&g, ldexp(1, j) + 1);
		compare_all(&g, -ldexp(1, j));
	}
	report("whole numbers: random, 10^j and 2^j and their neighbours", &g);
}

static void test_random_doubles(uint64_t *rng)
{
	struct group g = { 0 }, f = { 0 };

	for (int i = 0; i < 1000000; i++) {
		double v = from_bits(check_random(rng));
		uint64_t r = check_random(rng);

		compare_one(&g, "g", v, 6);
		compare_one(&g, "g", v, 17);
		compare_one(&g, "g", v, (unsigned)(r % 18));
		/* %f of every size, the larger ones less often (long text). */
		if (fabs(v) < 1e20 || r % 64 == 0)
			compare_one(&f, "f", v, (unsigned)((r >> 8) % 18));
	}
	/* Doubles of the magnitudes traces carry, where %f is common too. */
	for (int i = 0; i < 300000; i++) {
		uint64_t r = check_random(rng);
		double v = from_bits((check_random(rng) & UINT64_C(0x800fffffffffffff)) | (uint64_t)(1023 - 40 + r % 80) << 52);

		compare_one(&g, "g", v, 6);
		compare_one(&f, "#f", v, 6);
		compare_one(&f, "f", v, (unsigned)((r >> 8) % 18));
	}
	report("random doubles, %g at precisions 6, 17 and any", &g);
	report("random doubles, %f and %#f", &f);
}

static void test_floats(uint64_t *rng)
{
	struct group g = { 0 };
	float x;
	uint32_t bits;

	for (int i = 0; i < 500000; i++) {
		bits = (uint32_t)check_random(rng);
		memcpy(&x, &bits, sizeof x);
		compare_one(&g, "g", (double)x, 6);
		compare_one(&g, "g", (double)x, 9);
	}
	/* Every 4099th pattern (a prime stride, so every low-bit residue and
	 * every exponent comes round). */
	for (uint64_t b = 0; b < (UINT64_C(1) << 32); b += 4099) {
		bits = (uint32_t)b;
		memcpy(&x, &bits, sizeof x);
		compare_one(&g, "g", (double)x, 6);
	}
	report("floats widened to double (random and a strided sweep)", &g);
}

int main(void)
{
	uint64_t rng = 0x5eed0f10a75ULL;

	g_room = malloc(TC_FMT_G_MAX);
	f_room = malloc(TC_FMT_F_MAX);
	if (!g_room || !f_room)
		return 1;

	test_classes();
	test_powers_of_ten();
	test_ties(&rng);
	test_carry_to_next_power();
	test_near_halves(&rng);
	test_six_digit_margin(&rng);
	test_every_six_digits();
	test_whole_numbers(&rng);
	test_random_doubles(&rng);
	test_floats(&rng);
	free(g_room);
	free(f_room);
	return n_fail != 0;
}
