/* SPDX-License-Identifier: MIT */
/*
 * float_format.h - printf's %g and %f for doubles, written without printf.
 *
 * The peers print floating-point fields with printf: babeltrace2's text
 * sink with "%g", uftrace's argument formats with "%#f", and the Chrome
 * JSON and Perfetto writers want "%.17g" (every double read back exactly).
 * These functions write exactly the bytes glibc's printf writes for those
 * conversions (C11 7.21.6.1), in the default rounding mode (to nearest,
 * ties to even, which glibc applies to the exact binary value), about
 * fourteen times faster than snprintf's "%g": glibc's __printf_fp was a
 * fifth of the time of printing a trace with a double field.  The text
 * is not NUL-terminated; the functions return its length.  Float fields
 * go through them too, converted to double first, as babeltrace2 does.
 */
#ifndef TC_TEXT_FLOAT_FORMAT_H
#define TC_TEXT_FLOAT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

/* The largest precision either function takes: "%.17g" is the most the
 * callers ask for, and all a double's digits need. */
#define TC_FMT_FLOAT_MAX_PRECISION 17u

/* Room tc_fmt_g() needs: its text is at most 24 bytes
 * ("-1.2345678901234567e-308"), but it stores digits 8 bytes at a time,
 * which may write scratch bytes past the text, up to 30 bytes in all. */
#define TC_FMT_G_MAX 32u

/* Room tc_fmt_f() needs: a sign, DBL_MAX's 309 digits, a point and
 * TC_FMT_FLOAT_MAX_PRECISION decimals. */
#define TC_FMT_F_MAX 336u

/* printf("%.*g", PRECISION, V): PRECISION (0 counts as 1, as in printf)
 * significant digits, in fixed or exponent notation, trailing zeros and a
 * trailing point removed.  PRECISION <= TC_FMT_FLOAT_MAX_PRECISION;
 * writes at most TC_FMT_G_MAX bytes. */
size_t tc_fmt_g(char *dst, double v, unsigned precision);

/* printf("%.*f", PRECISION, V), or printf("%#.*f", ...) with ALT (which
 * only keeps the point when PRECISION is 0).  PRECISION <=
 * TC_FMT_FLOAT_MAX_PRECISION; writes at most TC_FMT_F_MAX bytes. */
size_t tc_fmt_f(char *dst, double v, unsigned precision, bool alt);

#endif /* TC_TEXT_FLOAT_FORMAT_H */
