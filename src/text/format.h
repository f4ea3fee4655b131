/* SPDX-License-Identifier: MIT */
/*
 * format.h - hand-written number formatting for the text printer.
 *
 * The printer formats several integers per event (timestamp parts, delta,
 * every integer field), and printf's format parsing and locale machinery
 * would dominate its cost.  These helpers write the digits straight into a
 * caller-supplied buffer and return how many bytes they wrote; none of them
 * writes a terminating NUL.  The caller guarantees room: at most 20 bytes
 * for decimal, 16 for hexadecimal, 22 for octal, 64 for binary, or the
 * requested width if that is larger.
 *
 * Everything here is static (inline but for one long path) so that each
 * user gets its own copy and no symbol leaks out of the library.
 */
#ifndef TC_TEXT_FORMAT_H
#define TC_TEXT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Lower-case hexadecimal digits by value (a string, so one byte longer
 * than the 16 used: gcc 15's -Wunterminated-string-initialization warns
 * about a char[16] holding them). */
static const char tc_fmt_hex_digits[] = "0123456789abcdef";

/* Two decimal digits per entry: halves the number of divisions. */
static const char tc_fmt_digit_pairs[201] =
	"00010203040506070809"
	"10111213141516171819"
	"20212223242526272829"
	"30313233343536373839"
	"40414243444546474849"
	"50515253545556575859"
	"60616263646566676869"
	"70717273747576777879"
	"80818283848586878889"
	"90919293949596979899";

/* 10^i for i = 0..19. */
static const uint64_t tc_fmt_pow10[20] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
	UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
	UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
	UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000),
	UINT64_C(100000000000000), UINT64_C(1000000000000000),
	UINT64_C(10000000000000000), UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000), UINT64_C(10000000000000000000),
};

static inline unsigned tc_fmt_dec_len(uint64_t v)
{
	/* From the bit length (1233/4096 ~ log10 2) the digit count is T or
	 * T + 1; one comparison settles it, without a loop or a division.
	 * (V | 1 gives 0 its one digit and changes no other answer.) */
	unsigned t = ((unsigned)(64 - __builtin_clzll(v | 1u)) * 1233u) >> 12;

	return t + 1 - ((v | 1u) < tc_fmt_pow10[t]);
}

/* The four digits of V < 10000, zero-padded, at D. */
static inline void tc_fmt_dec4(char *d, uint32_t v)
{
	uint32_t hi = v / 100u;

	memcpy(d, &tc_fmt_digit_pairs[hi * 2u], 2);
	memcpy(d + 2, &tc_fmt_digit_pairs[(v - hi * 100u) * 2u], 2);
}

/* Writes exactly LEN digits of V (the low LEN decimal digits), ending at
 * DST + LEN; used both for plain numbers and zero-padded fields. */
static inline void tc_fmt_dec_fixed(char *dst, uint64_t v, unsigned len)
{
	char *d = dst + len;
	uint32_t w;

	/* Four digits per division; 64-bit division by a constant costs
	 * twice the 32-bit one, so finish in 32 bits as soon as V fits. */
	while (len >= 4 && v > UINT32_MAX) {
		uint64_t q = v / 10000u;

		d -= 4;
		tc_fmt_dec4(d, (uint32_t)(v - q * 10000u));
		v = q;
		len -= 4;
	}
	/* Still wide only when asked for fewer digits than V has: the last
	 * LEN < 4 digits are all that is left to write. */
	w = (uint32_t)(v > UINT32_MAX ? v % 10000u : v);
	while (len >= 4) {
		uint32_t q = w / 10000u;

		d -= 4;
		tc_fmt_dec4(d, w - q * 10000u);
		w = q;
		len -= 4;
	}
	if (len >= 2) {
		d -= 2;
		memcpy(d, &tc_fmt_digit_pairs[(w % 100u) * 2u], 2);
		w /= 100u;
		len -= 2;
	}
	if (len)
		*--d = (char)('0' + w % 10u);
}

/* The low nine digits of V, zero-padded: nanoseconds, without the loops
 * of tc_fmt_dec_fixed(). */
static inline void tc_fmt_dec9(char *d, uint32_t v)
{
	uint32_t hi = v / 100000000u, lo = v - hi * 100000000u, mid = lo / 10000u;

	d[0] = (char)('0' + hi % 10u);
	tc_fmt_dec4(d + 1, mid);
	tc_fmt_dec4(d + 5, lo - mid * 10000u);
}

/* printf("%u") for V < 10000: one to four digits. */
static inline size_t tc_fmt_u4(char *d, uint32_t v)
{
	uint32_t hi;

	if (v < 10u) {
		d[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100u) {
		memcpy(d, &tc_fmt_digit_pairs[v * 2u], 2);
		return 2;
	}
	hi = v / 100u;
	if (v < 1000u) {
		d[0] = (char)('0' + hi);
		memcpy(d + 1, &tc_fmt_digit_pairs[(v - hi * 100u) * 2u], 2);
		return 3;
	}
	tc_fmt_dec4(d, v);
	return 4;
}

/* printf("%08u") for V < 10^8. */
static inline void tc_fmt_dec8(char *d, uint32_t v)
{
	uint32_t hi = v / 10000u;

	tc_fmt_dec4(d, hi);
	tc_fmt_dec4(d + 4, v - hi * 10000u);
}

/* printf("%u") for V < 10^8. */
static inline size_t tc_fmt_u8d(char *dst, uint32_t v)
{
	uint32_t hi;
	size_t n;

	if (v < 10000u)
		return tc_fmt_u4(dst, v);
	hi = v / 10000u;
	n = tc_fmt_u4(dst, hi);
	tc_fmt_dec4(dst + n, v - hi * 10000u);
	return n + 4;
}

/* printf("%" PRIu64) for V >= 10^8, out of line: rarer, and longer. */
__attribute__((noinline, unused)) static size_t tc_fmt_u64_wide(char *dst, uint64_t v)
{
	uint64_t hi = v / 100000000u;
	uint32_t lo = (uint32_t)(v - hi * 100000000u);
	size_t n;

	if (hi < 100000000u) {
		n = tc_fmt_u8d(dst, (uint32_t)hi);
	} else {
		/* At most 20 digits: the top group has four at most. */
		uint32_t top = (uint32_t)(hi / 100000000u);

		n = tc_fmt_u4(dst, top);
		tc_fmt_dec8(dst + n, (uint32_t)(hi - (uint64_t)top * 100000000u));
		n += 8;
	}
	tc_fmt_dec8(dst + n, lo);
	return n + 8;
}

/* printf("%" PRIu64) */
static inline size_t tc_fmt_u64(char *dst, uint64_t v)
{
	/* Counters, ids, sizes: most printed integers are below 10^8, in
	 * one group of up to four digits and one of four: no digit count
	 * first, no loop. */
	if (v < 100000000u)
		return tc_fmt_u8d(dst, (uint32_t)v);
	return tc_fmt_u64_wide(dst, v);
}

/* N copies of C at DST for a padding; returns the end.  Paddings are
 * short: any N up to 16 is one store of constant size rather than a call,
 * so the caller leaves room for 16 bytes past the end. */
static inline char *tc_fmt_fill(char *dst, char c, size_t n)
{
	if (n <= 16)
		memset(dst, c, 16);
	else
		memset(dst, c, n);
	return dst + n;
}

/* printf("%" PRId64) */
static inline size_t tc_fmt_i64(char *dst, int64_t v)
{
	if (v < 0) {
		*dst = '-';
		/* Negate in unsigned arithmetic so INT64_MIN does not overflow. */
		return 1 + tc_fmt_u64(dst + 1, 0u - (uint64_t)v);
	}
	return tc_fmt_u64(dst, (uint64_t)v);
}

/* printf("%0*" PRIu64, width, v): at least WIDTH digits, zero-padded. */
static inline size_t tc_fmt_u64_zpad(char *dst, uint64_t v, unsigned width)
{
	unsigned len = tc_fmt_dec_len(v);

	if (len < width)
		len = width;
	tc_fmt_dec_fixed(dst, v, len);
	return len;
}

/* The eight hexadecimal digits of V, uppercase (or lowercase with LOWER),
 * as eight bytes in memory order: every nibble moved into a byte of its
 * own and turned into ASCII at once, instead of a loop over the nibbles. */
static inline uint64_t tc_fmt_hex8(uint32_t v, bool lower)
{
	uint64_t x = v;

	x = (x | (x << 16)) & UINT64_C(0x0000FFFF0000FFFF);
	x = (x | (x << 8)) & UINT64_C(0x00FF00FF00FF00FF);
	x = (x | (x << 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
	/* Nibble I is now byte I; from 10 up, 7 more for 'A' - '9' - 1, or
	 * 39 for 'a' - '9' - 1. */
	x += UINT64_C(0x3030303030303030) +
	     (((x + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101)) * (lower ? 39u : 7u);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_bswap64(x);
#else
	return x;
#endif
}

/* The last N (1..8) digits of tc_fmt_hex8(V, LOWER) at D, writing 8 bytes. */
static inline void tc_fmt_hex_tail(char *d, uint32_t v, size_t n, bool lower)
{
	uint64_t x = tc_fmt_hex8(v, lower);

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x >>= 8u * (8u - n);
#else
	x <<= 8u * (8u - n);
#endif
	memcpy(d, &x, 8);
}

/* printf("%" PRIx64) with LOWER, printf("%" PRIX64) without: no prefix.
 * Writes at least 8 bytes, whatever the number of digits. */
static inline size_t tc_fmt_hex(char *dst, uint64_t v, bool lower)
{
	size_t n = ((size_t)(64 - __builtin_clzll(v | 1u)) + 3u) / 4u;

	if (n <= 8) {
		tc_fmt_hex_tail(dst, (uint32_t)v, n, lower);
	} else {
		tc_fmt_hex_tail(dst, (uint32_t)(v >> 32), n - 8, lower);
		tc_fmt_hex_tail(dst + n - 8, (uint32_t)v, 8, lower);
	}
	return n;
}

/* printf("%" PRIX64): uppercase, no prefix. */
static inline size_t tc_fmt_hex_upper(char *dst, uint64_t v)
{
	return tc_fmt_hex(dst, v, false);
}

/* printf("%" PRIo64): no prefix. */
static inline size_t tc_fmt_oct(char *dst, uint64_t v)
{
	char tmp[22];
	size_t n = 0;

	do {
		tmp[21 - n++] = (char)('0' + (v & 7u));
		v >>= 3;
	} while (v);
	memcpy(dst, tmp + 22 - n, n);
	return n;
}

/* The low BITS bits of V, most significant first, exactly BITS digits. */
static inline size_t tc_fmt_bin(char *dst, uint64_t v, unsigned bits)
{
	unsigned i;

	if (bits > 64)
		bits = 64;
	for (i = 0; i < bits; i++)
		dst[i] = (char)('0' + ((v >> (bits - 1 - i)) & 1u));
	return bits;
}

#endif /* TC_TEXT_FORMAT_H */
