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
 * Everything here is static inline so that each user gets its own copy
 * and no symbol leaks out of the library.
 */
#ifndef TC_TEXT_FORMAT_H
#define TC_TEXT_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

static inline unsigned tc_fmt_dec_len(uint64_t v)
{
	unsigned n = 1;

	/* Most values printed are small: test from the bottom. */
	for (;;) {
		if (v < 10u) return n;
		if (v < 100u) return n + 1;
		if (v < 1000u) return n + 2;
		if (v < 10000u) return n + 3;
		v /= 10000u;
		n += 4;
	}
}

/* Writes exactly LEN digits of V (the low LEN decimal digits), ending at
 * DST + LEN; used both for plain numbers and zero-padded fields. */
static inline void tc_fmt_dec_fixed(char *dst, uint64_t v, unsigned len)
{
	char *d = dst + len;

	/* 64-bit division by a constant costs twice the 32-bit one: finish
	 * in 32 bits as soon as the value fits. */
	while (len >= 2 && v > UINT32_MAX) {
		const char *pair = &tc_fmt_digit_pairs[(v % 100u) * 2u];

		v /= 100u;
		d -= 2;
		d[0] = pair[0];
		d[1] = pair[1];
		len -= 2;
	}
	if (v > UINT32_MAX) {
		/* Only when asked for fewer digits than V has. */
		if (len)
			*--d = (char)('0' + v % 10u);
		return;
	}
	{
		uint32_t w = (uint32_t)v;

		while (len >= 2) {
			const char *pair = &tc_fmt_digit_pairs[(w % 100u) * 2u];

			w /= 100u;
			d -= 2;
			d[0] = pair[0];
			d[1] = pair[1];
			len -= 2;
		}
		if (len)
			*--d = (char)('0' + w % 10u);
	}
}

/* printf("%" PRIu64) */
static inline size_t tc_fmt_u64(char *dst, uint64_t v)
{
	unsigned len;

	/* Counters, ids and flags: most printed integers are tiny. */
	if (v < 10u) {
		dst[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100u) {
		dst[0] = tc_fmt_digit_pairs[v * 2u];
		dst[1] = tc_fmt_digit_pairs[v * 2u + 1u];
		return 2;
	}
	len = tc_fmt_dec_len(v);

	tc_fmt_dec_fixed(dst, v, len);
	return len;
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

/* printf("%" PRIX64): uppercase, no prefix. */
static inline size_t tc_fmt_hex_upper(char *dst, uint64_t v)
{
	static const char digits[16] = "0123456789ABCDEF";
	size_t n = ((size_t)(64 - __builtin_clzll(v | 1u)) + 3u) / 4u;
	char *d = dst + n;

	do {
		*--d = digits[v & 0xFu];
		v >>= 4;
	} while (d != dst);
	return n;
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
