/* SPDX-License-Identifier: MIT */
/*
 * float_format.c - printf's %g and %f for doubles (float_format.h), exact
 * to the last digit, without printf.
 *
 * Both conversions come down to one integer: the exact value of the double,
 * |v| = m * 2^e, times 10^k, rounded to nearest with ties to even (glibc
 * rounds the exact binary value in the current rounding mode, and tracecat
 * never leaves the default one).  For %f, k is the precision; for %g, k
 * brings the precision's significant digits before the point.  The text
 * around that integer is C11 7.21.6.1's layout (the f, e and g conversion
 * specifiers).
 *
 * Fast path: m times a 128-bit truncated 10^k from float_pow10.h gives the
 * scaled value's integer part and 64 bits of its fraction, short of the
 * exact value by less than 3 units of the last fraction bit (proof at
 * scale()).  That decides the rounding unless the fraction is within 3
 * units of a half.  Then an exact tie (2 S an odd integer) is recognised
 * from m's factors of 2 and 5 alone; anything else (a value closer to a
 * half than 2^-62 but not on it, or %f of a value of 2^63 and more) takes
 * an exact big-integer computation, which only multiplies and divides by
 * 32-bit numbers.  Before all that, %g at up to 8 digits (babeltrace2's
 * is 6) tries one double multiplication by the nearest double to 10^k,
 * whose error is small enough for 8 digits away from a half
 * (round_double()), and lays out its text with a few overlapping stores;
 * whole numbers of up to the precision's digits are printed as integers.
 *
 * Why not Debian's libdouble-conversion: it is C++, which would make this
 * C library depend on libstdc++, and its precision conversions (ToFixed,
 * ToPrecision) are ECMAScript's Number.prototype.toFixed/toPrecision, which
 * pick the larger of two equally close results: ties away from zero, where
 * glibc prints 0.125 with "%.2f" as "0.12", the tie to even.
 *
 * The 128-bit arithmetic uses GCC's and Clang's unsigned __int128 (64-bit
 * targets).
 */
#include "text/float_format.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "text/float_pow10.h"
#include "text/format.h"

typedef unsigned __int128 u128;

/* The k of tc_float_pow10[0]: %g asks for k = P - 1 - X, X (the decimal
 * exponent, maybe one low) from -324 to 307 and P up to 17 digits, so
 * -307..340; %f asks for its precision. */
#define POW10_MIN (-307)

/* The k of tc_float_pow10_double[0] and of its last entry. */
#define POW10_DOUBLE_MIN (-307)
#define POW10_DOUBLE_MAX 308

/* A half, in units of 2^-64. */
#define HALF (UINT64_C(1) << 63)

/* |v| = m * 2^e with m's top bit set, subnormals included: the form the
 * table's multiplication wants. */
struct binary {
	uint64_t m;
	int e;
};

/* BITS: a finite, non-zero double's (IEEE 754 binary64) bit pattern. */
static struct binary decompose(uint64_t bits)
{
	int biased = (int)(bits >> 52) & 0x7ff;
	uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
	int shift;

	if (biased)
		return (struct binary){ (m | UINT64_C(1) << 52) << 11, biased - 1075 - 11 };
	shift = __builtin_clzll(m);
	return (struct binary){ m << shift, 1 - 1075 - shift };
}

/* floor(N * log10 2) and floor(N * log2 10) for |N| < 1650, by fixed-point
 * multiplication (tools/gen-float-pow10.py checks the second over the
 * table's range); the offset keeps the shifted operand positive. */
static inline int floor_log10_pow2(int n)
{
	return (int)((((int64_t)n * 78913 + ((int64_t)1 << 40)) >> 18) - (1 << 22));
}

static inline int floor_log2_pow10(int n)
{
	return (int)((((int64_t)n * 1741647 + ((int64_t)1 << 40)) >> 19) - (1 << 21));
}

/*
 * S = m 2^e 10^k as its integer part *INT and the next 64 bits of its
 * fraction *FRAC, both perhaps a little short: S lies in [*INT + *FRAC /
 * 2^64, *INT + (*FRAC + 3) / 2^64).  A value below 1/4 comes out as 0 (it
 * rounds to 0 whatever the precision).  False when S may reach 2^63.
 *
 * The bound: the table holds c = floor(10^k 2^-b), b = floor(log2 10^k) -
 * 127, so 10^k 2^-b lies in [c, c + 1).  T = floor(m c / 2^64), and with
 * U = 2^(64 + e + b), S = m 2^e 10^k lies in [T U, (T + 1 + m / 2^64) U):
 * less than 2 U above T U.  T has s = -(64 + e + b) fraction bits; with
 * s >= 65, 2 U is less than 2 units of a 64-bit fraction, and cutting T's
 * fraction to 64 bits loses less than one more.
 */
static inline bool scale(struct binary b, int k, uint64_t *int_part, uint64_t *frac)
{
	const uint64_t *c = tc_float_pow10[k - POW10_MIN];
	int s = 127 - floor_log2_pow10(k) - 64 - b.e;
	u128 t = (u128)b.m * c[0] + (uint64_t)(((u128)b.m * c[1]) >> 64);

	if (s < 65)
		return false;
	if (s >= 130) {
		/* T < 2^128: S < 2^-2 + 2^-129. */
		*int_part = 0;
		*frac = 0;
		return true;
	}
	*int_part = s >= 128 ? 0 : (uint64_t)(t >> s);
	*frac = (uint64_t)(t >> (s - 64));
	return true;
}

/*
 * Whether m 2^e 10^k lies exactly halfway between two integers: whether
 * 2 S = odd 5^k 2^(e + t + k + 1), with m = odd 2^t, is an odd integer.
 * The powers of two must cancel exactly, and for k < 0 the odd part must
 * be a multiple of 5^-k (so -k <= 27: 5^28 > 2^64).  Out of line: it is
 * seldom needed, and the fast path stays short without it.
 */
__attribute__((noinline)) static bool exact_tie(struct binary b, int k)
{
	int t = __builtin_ctzll(b.m);
	uint64_t p5 = 1;

	if (b.e + t + k != -1)
		return false;
	if (k >= 0)
		return true;
	if (k < -27)
		return false;
	for (int i = 0; i < -k; i++)
		p5 *= 5;
	return (b.m >> t) % p5 == 0;
}

/*
 * *R = S = m 2^e 10^k (TENS 0) or S / 10 (TENS 1) rounded to nearest, ties
 * to even, from scale()'s INT and FRAC when their bounds decide it or the
 * value is an exact tie; false when neither does.
 */
static inline bool round_fast(struct binary b, int k, uint64_t i, uint64_t f, int tens, uint64_t *r)
{
	uint64_t q = tens ? i / 10 : i;
	unsigned d = (unsigned)(i - q * 10);

	if (!tens) {
		if (f > HALF || f <= HALF - 3) {
			*r = q + (f > HALF);
			return true;
		}
	} else if (d > 5 || (d == 5 && f != 0)) {
		*r = q + 1;
		return true;
	} else if (d < 4 || (d == 4 && f < UINT64_MAX - 1)) {
		/* Even with the 3 units S may lack it stays below 10 q + 5. */
		*r = q;
		return true;
	}
	if (!exact_tie(b, k - tens))
		return false;
	*r = q + (q & 1);
	return true;
}

/* ---- exact path ---- */

/* Enough 32-bit limbs for the largest integer the exact path builds: m
 * (64 bits) times 10^340 (1130 bits), or times 2^960 and 10^17 (1081). */
#define BIG_LIMBS 40

/* A non-negative integer, least significant limb first; N limbs in use. */
struct big {
	uint32_t limb[BIG_LIMBS];
	int n;
};

static void big_mul(struct big *a, uint32_t factor)
{
	uint64_t carry = 0;

	for (int i = 0; i < a->n; i++) {
		uint64_t p = (uint64_t)a->limb[i] * factor + carry;

		a->limb[i] = (uint32_t)p;
		carry = p >> 32;
	}
	if (carry)
		a->limb[a->n++] = (uint32_t)carry;
}

/* A /= DIVISOR; returns the remainder. */
static uint32_t big_div(struct big *a, uint32_t divisor)
{
	uint64_t rem = 0;

	for (int i = a->n; i-- > 0;) {
		uint64_t cur = rem << 32 | a->limb[i];

		a->limb[i] = (uint32_t)(cur / divisor);
		rem = cur % divisor;
	}
	while (a->n && !a->limb[a->n - 1])
		a->n--;
	return (uint32_t)rem;
}

static void big_increment(struct big *a)
{
	int i = 0;

	while (i < a->n && ++a->limb[i] == 0)
		i++;
	if (i == a->n)
		a->limb[a->n++] = 1;
}

/* What the divisions so far cut off, against half their product. */
enum cut { CUT_ZERO, CUT_BELOW_HALF, CUT_HALF, CUT_ABOVE_HALF };

/*
 * The cut after one more division, by the even DIVISOR, left REM: the new
 * remainder is the most significant part of the total one, so it decides
 * unless it is exactly half its divisor, when the earlier cut breaks the
 * tie (even divisors make half of the product a multiple of the earlier
 * divisors).
 */
static enum cut cut_after(enum cut cut, uint32_t rem, uint32_t divisor)
{
	uint64_t twice = 2 * (uint64_t)rem;

	if (twice < divisor)
		return rem || cut ? CUT_BELOW_HALF : CUT_ZERO;
	if (twice == divisor)
		return cut ? CUT_ABOVE_HALF : CUT_HALF;
	return CUT_ABOVE_HALF;
}

/* The decimal digits of A (which it consumes) at DIGITS; returns their
 * count ("0" for zero). */
static size_t big_decimal(struct big *a, char *digits)
{
	uint32_t group[BIG_LIMBS * 32 / 29 + 1]; /* 10^9 > 2^29 */
	int groups = 0;
	size_t n;

	do
		group[groups++] = big_div(a, 1000000000u);
	while (a->n);
	n = tc_fmt_u64(digits, group[--groups]);
	while (groups--) {
		tc_fmt_dec9(digits + n, group[groups]);
		n += 9;
	}
	return n;
}

/*
 * The digits of m 2^e 10^k rounded to nearest, ties to even, computed
 * exactly: the integer m 2^max(e,0) 10^max(k,0) divided by 2^max(-e,0)
 * 10^max(-k,0) in steps of at most 31 bits or 9 decimal digits; floor of
 * floor is the floor of the whole division, and the cuts tell the
 * rounding.
 */
__attribute__((noinline)) static size_t exact_digits(struct binary b, int k, char *digits)
{
	struct big a = { { (uint32_t)b.m, (uint32_t)(b.m >> 32) }, 2 };
	enum cut cut = CUT_ZERO;
	int i;

	for (i = k; i > 0; i -= 9)
		big_mul(&a, (uint32_t)tc_fmt_pow10[i < 9 ? i : 9]);
	for (i = b.e; i > 0; i -= 31)
		big_mul(&a, UINT32_C(1) << (i < 31 ? i : 31));
	for (i = -b.e; i > 0; i -= 31) {
		uint32_t divisor = UINT32_C(1) << (i < 31 ? i : 31);

		cut = cut_after(cut, big_div(&a, divisor), divisor);
	}
	for (i = -k; i > 0; i -= 9) {
		uint32_t divisor = (uint32_t)tc_fmt_pow10[i < 9 ? i : 9];

		cut = cut_after(cut, big_div(&a, divisor), divisor);
	}
	if (cut == CUT_ABOVE_HALF || (cut == CUT_HALF && a.n && (a.limb[0] & 1)))
		big_increment(&a);
	return big_decimal(&a, digits);
}

/* ---- conversions ---- */

/* Writes the sign of BITS, and for infinities and NaNs the whole text
 * (glibc's "inf" and "nan", "-nan" for a NaN with its sign bit set);
 * returns the number of bytes and sets *DONE for those. */
static size_t sign_or_special(char *d, uint64_t bits, bool *done)
{
	size_t n = 0;

	if (bits >> 63)
		d[n++] = '-';
	*done = ((bits >> 52) & 0x7ff) == 0x7ff;
	if (*done) {
		memcpy(d + n, bits << 12 ? "nan" : "inf", 3);
		n += 3;
	}
	return n;
}

/*
 * For P <= 8 digits, the P significant digits of normal |V| (bit pattern
 * BITS) rounded, into *R in [10^(P-1), 10^P] (10^P for the caller to carry
 * into the exponent), and the decimal exponent X of the first, into *X,
 * with double multiplications: false when they do not decide.  The steps
 * are chosen for few instructions, which is what this path's time is.
 *
 * With 2^E2 <= |V| < 2^(E2 + 1), X is X0 = floor(E2 log10 2) or X0 + 1:
 * X0 + 1 when |V| reaches fl(10^(X0 + 1)), the table's double nearest to
 * that power.  S' = fl(|V| fl(10^k)), k = P - 1 - X, two roundings to
 * nearest (IEEE 754 binary64, C11 F.3), is S = |V| 10^k times (1 + d),
 * |d| < 2^-52 + 2^-106.  S < 10^8 < 2^27 puts S' within 2^-25 of S, so S'
 * rounds as S unless it lies within that of a half (margin 2^-20).  When
 * fl(10^(X0 + 1)) is not the power itself, the choice of X may be wrong
 * for a |V| between the two; then |V| 10^k is within 2^-51 of 10^(P-1)
 * or 10^P and rounds to it, which is the right text: 10^(P-1) at the
 * exponent one up, or 10^P for the caller to carry.  So *R is never out
 * of [10^(P-1), 10^P].
 *
 * Adding 2^52 rounds S' to an integer, to nearest, in the mantissa's low
 * bits: the default rounding mode (see the top of this file) and no wider
 * intermediate precision (FLT_EVAL_METHOD 0, checked below).
 */
#if FLT_EVAL_METHOD != 0
#error "float_format.c rounds with double additions: it needs FLT_EVAL_METHOD 0"
#endif
static inline bool round_double(double v, uint64_t bits, unsigned p, uint64_t *r, int *x)
{
	const double *pow10 = tc_float_pow10_double - POW10_DOUBLE_MIN;
	const double two52 = 0x1p52;
	double a = fabs(v), s, t;
	int x0 = floor_log10_pow2((int)((bits >> 52) & 0x7ff) - 1023);
	uint64_t t_bits;

	/* 10^(X0 + 1) and 10^k, k <= P - 1 - X0, in the table: X0 from
	 * P - 1 - POW10_DOUBLE_MAX to 307, which leaves out only the smallest
	 * normal values, and zeros, subnormals, infinities and NaNs (their
	 * biased exponents 0 and 0x7ff give X0 -308 and 308). */
	if ((unsigned)(x0 - ((int)p - 1 - POW10_DOUBLE_MAX)) > (unsigned)(307 - ((int)p - 1 - POW10_DOUBLE_MAX)))
		return false;
	*x = x0 + (a >= pow10[x0 + 1]);
	s = a * pow10[(int)p - 1 - *x];
	t = s + two52;
	memcpy(&t_bits, &t, sizeof t_bits);
	*r = t_bits & ((UINT64_C(1) << 52) - 1);
	/* |S' - round(S')|: exact, as both subtractions are. */
	return fabs(s - (t - two52)) < 0.5 - 0x1p-20;
}

/* The P significant digits of |v| (B) rounded, as an integer in
 * [10^(P-1), 10^P), and *EXP10 the decimal exponent of the first. */
static inline uint64_t significant(struct binary b, unsigned p, int *exp10)
{
	/* |v| lies in [2^(e+63), 2^(e+64)): its exponent is X or X + 1. */
	int x = floor_log10_pow2(b.e + 63);
	int k = (int)p - 1 - x;
	uint64_t i = 0, f = 0, r, limit = tc_fmt_pow10[p];
	int tens;

	/* S < 10^(P+1) <= 10^18: scale() never refuses it. */
	scale(b, k, &i, &f);
	/* S has P + 1 digits: round one digit higher.  (S cannot be short
	 * of 10^P without I being so: I <= S.) */
	tens = i >= limit;
	if (!round_fast(b, k, i, f, tens, &r)) {
		char digits[24];
		size_t n = exact_digits(b, k - tens, digits);

		r = 0;
		for (size_t j = 0; j < n; j++)
			r = r * 10 + (uint64_t)(digits[j] - '0');
	}
	x += tens;
	/* Rounded up to 10^P: one more digit before the point. */
	if (r == limit) {
		r /= 10;
		x++;
	}
	*exp10 = x;
	return r;
}

/*
 * %g's digits as a byte string in words: byte I of the text is byte I % 8
 * of W[I / 8] counted from the least significant end, whatever the host's
 * byte order.  The layout stores pieces of it at the offsets it wants
 * straight from registers: reading back bytes just written one or two at
 * a time with a wider load stalls store-to-load forwarding, which cost a
 * third of the conversion.
 */
struct digit_words {
	uint64_t w[4];
};

static inline void store_le64(char *d, uint64_t x)
{
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(d, &x, 8);
}

/* The eight digits of V < 10^8 as numbers 0..9, first digit in the low
 * byte: both four-digit halves, then all four pairs, then all eight digits
 * split at once (lane-wise division by 100 and 10 as multiplications,
 * exact for these ranges). */
static inline uint64_t digit_values8(uint32_t v)
{
	uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t hundreds = ((x * 5243) >> 19) & UINT64_C(0x0000007f0000007f);
	uint64_t pairs = hundreds | (x - hundreds * 100) << 16;
	uint64_t tens = ((pairs * 103) >> 10) & UINT64_C(0x000f000f000f000f);

	return tens | (pairs - tens * 10) << 8;
}

/* 8 bytes of the string from byte OFF on. */
static inline uint64_t digit_bytes(const struct digit_words *s, unsigned off)
{
	unsigned i = off / 8, shift = off % 8 * 8;

	return shift ? s->w[i] >> shift | s->w[i + 1] << (64 - shift) : s->w[i];
}

/* Writes LEN bytes of the string from byte OFF on at D, in 8-byte pieces
 * (the last one's excess is scratch); returns D + LEN. */
static inline char *put_digits(char *d, const struct digit_words *s, unsigned off, unsigned len)
{
	for (unsigned i = 0; i < len; i += 8)
		store_le64(d + i, digit_bytes(s, off + i));
	return d + len;
}

/* Lays out %g's text at D (C11 7.21.6.1p8): the digits S, N of them up
 * to the last non-zero one (the fraction's trailing zeros are dropped),
 * of the value rounded to P digits, X the exponent of the first. */
static inline char *layout_g(char *d, const struct digit_words *s, unsigned n, unsigned p, int x)
{
	if (x < -4 || x >= (int)p) {
		/* Style e: d.ddde+XX, at least two exponent digits. */
		unsigned ax = (unsigned)(x < 0 ? -x : x);

		*d = (char)s->w[0];
		if (n > 1) {
			d[1] = '.';
			d = put_digits(d + 2, s, 1, n - 1);
		} else {
			d++;
		}
		*d++ = 'e';
		*d++ = x < 0 ? '-' : '+';
		if (ax >= 100) {
			*d++ = (char)('0' + ax / 100);
			ax %= 100;
		}
		memcpy(d, &tc_fmt_digit_pairs[ax * 2], 2);
		return d + 2;
	}
	if (x >= 0) {
		/* Style f with P - 1 - X decimals: X + 1 digits before the point. */
		unsigned whole = (unsigned)x + 1;

		d = put_digits(d, s, 0, whole);
		if (n <= whole)
			return d;
		*d = '.';
		return put_digits(d + 1, s, whole, n - whole);
	}
	/* 0.000ddd: "0." and -X - 1 zeros before the digits. */
	memcpy(d, "0.000000", 8);
	return put_digits(d + 1 - x, s, 0, n);
}

/*
 * layout_g()'s style f for a text of at most 8 digits, the word W (byte I
 * digit I, N of them up to the last non-zero one), X in -4..7: overlapping
 * 8-byte stores and a length computed without a branch, where layout_g()
 * chooses between pieces by the digit count, which changes from one value
 * to the next and so is mispredicted.
 */
static inline char *layout_f8(char *d, uint64_t w, unsigned n, int x)
{
	unsigned whole;

	if (x < 0) {
		/* 0.000ddd: "0." and -X - 1 zeros before the digits. */
		memcpy(d, "0.000000", 8);
		store_le64(d + 1 - x, w);
		return d + 1 - x + n;
	}
	/* X + 1 digits, the point, the others; the point and what follows
	 * it are overwritten or left past the end when there are no others.
	 * (WHOLE may be 8: the shift is split.) */
	whole = (unsigned)x + 1;
	store_le64(d, w);
	d[whole] = '.';
	store_le64(d + whole + 1, w >> (8 * whole - 8) >> 8);
	return d + (n > whole ? n + 1 : whole);
}

/* "00".."99" as words (byte I the digit I, counted from the least
 * significant end): %g's six digits in three loads from 200 bytes, which
 * stay in the cache while a trace's text streams through it (a table of
 * "000".."999", two loads, was slower there for its misses). */
#define PAIR(a, b) (uint16_t)(0x3030 + (a) + ((b) << 8))
#define PAIRS10(a)                                                                                  \
	PAIR(a, 0), PAIR(a, 1), PAIR(a, 2), PAIR(a, 3), PAIR(a, 4), PAIR(a, 5), PAIR(a, 6),         \
	PAIR(a, 7), PAIR(a, 8), PAIR(a, 9)
static const uint16_t digit_pairs[100] = {
	PAIRS10(0), PAIRS10(1), PAIRS10(2), PAIRS10(3), PAIRS10(4),
	PAIRS10(5), PAIRS10(6), PAIRS10(7), PAIRS10(8), PAIRS10(9),
};

/* The precision g_six() is for: printf's default, babeltrace2's. */
#define SIX 6

/* ceil(2^32 / 10^4). */
#define FRAC32_PER_1E4 UINT64_C(429497)

static size_t g_general(char *dst, uint64_t bits, unsigned precision);

/* layout_g() of six digits W at D, the text starting at DST; returns its
 * length.  Out of line, as the style e is rare, and called last, so that
 * g_six() needs neither a stack frame nor saved registers. */
static __attribute__((noinline)) size_t layout_e6(char *dst, char *d, uint64_t w, unsigned n, int x)
{
	struct digit_words s = { { w } };

	return (size_t)(layout_g(d, &s, n, SIX, x) - dst);
}

/*
 * tc_fmt_g() at precision 6 of normal doubles: the common case without
 * g_general()'s slower paths, its digits from three table loads, short
 * enough to need few registers.  Every way out is a return or a call in
 * tail position, so that it needs no stack frame.
 */
__attribute__((always_inline)) static inline size_t g_six(char *dst, double v, uint64_t bits)
{
	uint64_t r, y, hi, mid, w;
	char *d = dst + (bits >> 63);
	unsigned n;
	int x;

	if (!round_double(v, bits, SIX, &r, &x))
		return g_general(dst, bits, SIX);
	/* Rounded up to 10^6: one more digit before the point. */
	if (r == 1000000) {
		r = 100000;
		x++;
	}
	/* R / 10^4 as a 32.32 fixed-point number: its integer part is the
	 * first pair, and each multiplication of the fraction by 100 brings
	 * the next pair into the integer part, one multiplication a pair
	 * instead of divisions.  The rounded-up constant's excess, 0.28 units
	 * of 2^-32 per unit of R, grows to less than 0.63 of the last pair's
	 * unit, so no pair reaches the next integer (checked for every R
	 * below 10^6 by tests/unit/float_format_test.c's exhaustive run). */
	y = r * FRAC32_PER_1E4;
	hi = y >> 32;
	y = (uint64_t)(uint32_t)y * 100;
	mid = y >> 32;
	y = (uint64_t)(uint32_t)y * 100;
	w = digit_pairs[hi] | (uint64_t)digit_pairs[mid] << 16 | (uint64_t)digit_pairs[y >> 32] << 32;
	/* The count, up to the last non-zero digit: the first is not zero. */
	n = (unsigned)(71 - __builtin_clzll(w - UINT64_C(0x303030303030))) / 8;
	*dst = '-';
	if (x >= -4 && x < SIX)
		return (size_t)(layout_f8(d, w, n, x) - dst);
	return layout_e6(dst, d, w, n, x);
}

/* tc_fmt_g() of everything g_six() leaves, V's bit pattern BITS. */
static __attribute__((noinline)) size_t g_general(char *dst, uint64_t bits, unsigned precision)
{
	unsigned p = precision ? precision : 1, n, e2;
	uint64_t r;
	bool done;
	char *d;
	int x;

	/* 2^E2 <= |v| < 2^(E2 + 1) for normal values: whole when E2 < 53
	 * and none of the mantissa's bits is below the point. */
	e2 = (unsigned)((bits >> 52) & 0x7ff) - 1023;
	if (e2 < 53 && !(bits << 12 << e2)) {
		/* Whole numbers below 10^P print as their digits, and such
		 * values are common (counters stored as doubles, which "%.17g"
		 * prints): an integer conversion is four times quicker than
		 * the rest. */
		uint64_t whole = ((bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52) >> (52 - e2);

		if (whole < tc_fmt_pow10[p]) {
			n = (unsigned)(bits >> 63);
			*dst = '-';
			return n + tc_fmt_u64(dst + n, whole);
		}
	}
	d = dst + sign_or_special(dst, bits, &done);
	if (done)
		return (size_t)(d - dst);
	if (!(bits << 1)) {
		*d = '0';
		return (size_t)(d + 1 - dst);
	}
	r = significant(decompose(bits), p, &x);
	if (p <= 8) {
		/* One word, and the count from its highest non-zero byte. */
		uint64_t values = digit_values8((uint32_t)r) >> (8 * (8 - p));
		struct digit_words s = { { values + UINT64_C(0x3030303030303030) } };

		n = (unsigned)(71 - __builtin_clzll(values)) / 8;
		d = layout_g(d, &s, n, p, x);
	} else {
		struct digit_words s = { { 0 } };
		char text[sizeof s.w];

		tc_fmt_dec_fixed(text, r, p);
		for (n = p; text[n - 1] == '0'; n--)
			;
		for (unsigned i = 0; i < p; i++)
			s.w[i / 8] |= (uint64_t)(unsigned char)text[i] << i % 8 * 8;
		d = layout_g(d, &s, n, p, x);
	}
	return (size_t)(d - dst);
}

size_t tc_fmt_g(char *dst, double v, unsigned precision)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof bits);
	/* The quick path for the one precision that is common (normal
	 * values only: round_double()). */
	if (precision == SIX)
		return g_six(dst, v, bits);
	return g_general(dst, bits, precision);
}

size_t tc_fmt_f(char *dst, double v, unsigned precision, bool alt)
{
	char digits[TC_FMT_F_MAX];
	uint64_t bits, i, f, r;
	size_t n, whole;
	bool done;
	char *d;

	memcpy(&bits, &v, sizeof bits);
	d = dst + sign_or_special(dst, bits, &done);
	if (done)
		return (size_t)(d - dst);
	if (!(bits << 1)) {
		digits[0] = '0';
		n = 1;
	} else {
		struct binary b = decompose(bits);

		if (scale(b, (int)precision, &i, &f) && round_fast(b, (int)precision, i, f, 0, &r))
			n = tc_fmt_u64(digits, r);
		else
			n = exact_digits(b, (int)precision, digits);
	}
	/* The digits are |v| 10^precision: the point goes before the last
	 * PRECISION of them, with zeros in front if there are not that many,
	 * and at least one digit before it. */
	if (n > precision) {
		whole = n - precision;
		memcpy(d, digits, whole);
		d += whole;
	} else {
		whole = 0;
		*d++ = '0';
	}
	if (precision || alt)
		*d++ = '.';
	if (n < precision) {
		memset(d, '0', precision - n);
		d += precision - n;
	}
	memcpy(d, digits + whole, n - whole);
	return (size_t)(d + n - whole - dst);
}
