/* SPDX-License-Identifier: MIT */
/*
 * args_format.c - a payload of uftrace argument or return-value items
 * (doc/formats/uftrace.md §5.4-§5.7): how many bytes it takes in a
 * <tid>.dat file (ua_payload_size()) and its text as `uftrace replay`
 * prints it (ua_format(), get_argspec_string() of the replay command).
 * The item lists come from args.c, which parses the specs and finds the
 * list the recorder used for a function (args_int.h).
 */
#include "uftrace/args_int.h"
#include "text/float_format.h"
#include "text/format.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libmcount keeps a payload in a 1024-byte buffer whose first 4 bytes hold
 * its length, and gives up on values that do not fit. */
#define MAX_PAYLOAD 1020
/* libmcount cuts longer strings to 95 bytes and "...". */
#define MAX_STRING 98
/* Values above this (or below its negation) print in hex. */
#define SMALL_INT 100000

/* ---- enum values (utils/auto-args.c convert_enum_val) ---- */

static const enum_def *find_enum(const enum_set *set, const char *name)
{
	size_t lo = 0, hi = set->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(set->defs[mid]->name, name);
		if (c == 0)
			return set->defs[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* printf's "%#" PRIx64: "0x" and the digits, "0" alone for 0.  Written
 * by hand, as the decimals below: most payloads are a few integers, and
 * printf's parsing cost more than the rest of a record. */
static int print_hex(tc_buf *out, uint64_t u)
{
	char text[20] = "0x";
	return u ? tc_buf_append(out, text, 2 + tc_fmt_hex(text + 2, u, true)) : tc_buf_append(out, "0", 1);
}

static int print_dec(tc_buf *out, int64_t v)
{
	char text[24];
	return tc_buf_append(out, text, tc_fmt_i64(text, v));
}

static int print_small_or_hex(tc_buf *out, int64_t v)
{
	if (v < -SMALL_INT || v > SMALL_INT)
		return print_hex(out, (uint64_t)v);
	return print_dec(out, v);
}

/* convert_enum_val(): an exact member, else members OR-ed from the largest
 * value down while they fit (so a member of value 0 joins any positive
 * rest), with what is left as "+0x..". */
static int print_enum(tc_buf *out, const enum_def *def, int64_t value)
{
	for (size_t i = 0; i < def->count; i++)
		if (def->vals[i].value == value)
			return tc_buf_printf(out, "%s", def->vals[i].name);
	uint64_t left = (uint64_t)value; /* wraps as uftrace's long does */
	bool any = false;
	int rc = 0;
	for (size_t i = 0; i < def->count && rc == 0; i++) {
		if (def->vals[i].value <= (int64_t)left) {
			left -= (uint64_t)def->vals[i].value;
			rc = tc_buf_printf(out, "%s%s", any ? "|" : "", def->vals[i].name);
			any = true;
		}
		if (left == 0)
			break;
	}
	if (rc < 0)
		return rc;
	if (!any)
		return print_small_or_hex(out, value);
	return left ? tc_buf_printf(out, "+%#" PRIx64, left) : 0;
}

/* ---- payloads ---- */

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Bytes item IT takes at DATA[OFF] (AVAIL readable), aligned to 4. */
static int item_bytes(const ua_item *it, const uint8_t *data, size_t avail, size_t off, bool be, size_t *bytes,
                      const char *path, int64_t offset)
{
	if (it->fmt != FMT_STR && it->fmt != FMT_STDSTR) {
		*bytes = align4(it->size);
		return 0;
	}
	if (off + 2 > avail)
		return tc_fail(TC_EFORMAT, path, offset + (int64_t)off, "argument string length runs past the end of the data");
	size_t len = (size_t)tc_load_uint(data + off, 2, be);
	if (len > MAX_STRING)
		return tc_fail(TC_EFORMAT, path, offset + (int64_t)off,
		               "argument string of %zu bytes: uftrace stores at most %d", len, MAX_STRING);
	*bytes = align4(2 + len);
	return 0;
}

int ua_payload_size(const ua_list *l, const uint8_t *data, size_t avail, size_t *size, const char *path,
                    int64_t offset)
{
	*size = 0;
	if (!l)
		return tc_fail(TC_EFORMAT, path, offset, "argument data without an argument spec");
	size_t total = 0;
	for (size_t i = 0; i < l->count; i++) {
		size_t bytes = 0;
		int rc = item_bytes(&l->items[i], data, avail, total, l->big_endian, &bytes, path, offset);
		if (rc < 0)
			return rc;
		total += bytes;
		if (total > MAX_PAYLOAD)
			return tc_fail(TC_EFORMAT, path, offset,
			               "argument data of more than %d bytes: uftrace never stores that much", MAX_PAYLOAD);
	}
	size_t padded = (total + 7) & ~(size_t)7;
	if (padded > avail)
		return tc_fail(TC_EFORMAT, path, offset, "argument data of %zu bytes runs past the end of the data", padded);
	*size = padded;
	return 0;
}

/* ---- replay text (get_argspec_string of uftrace's replay) ---- */

typedef struct fmt_ctx {
	const ua_specs *s;
	const ua_function *f;
	ua_symbolize sym;
	void *sym_ctx;
	tc_buf *out;
	bool color;
} fmt_ctx;

/* --color: uftrace's colours of argument values (utils/debug.c:
 * color_string, color_symbol, color_struct, color_enum, color_enum_or) */
#define COLOR_RESET "\033[0m"
#define COLOR_MAGENTA "\033[35m"
#define COLOR_CYAN "\033[36m"
#define COLOR_BLUE "\033[94m"

static int color_on(const fmt_ctx *c, const char *code)
{
	return c->color ? tc_buf_append(c->out, code, strlen(code)) : 0;
}

/* replay's "%#<hh|h||ll><d|u|x>": the value cut to BYTES; hex gets "0x"
 * unless it is 0. */
static int print_int(tc_buf *out, char conv, unsigned bytes, uint64_t raw)
{
	uint64_t mask = bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * bytes)) - 1;
	uint64_t u = raw & mask;
	if (conv == 'd') {
		int64_t v = (int64_t)u;
		if (bytes < 8) {
			uint64_t sign = UINT64_C(1) << (8 * bytes - 1);
			v = (int64_t)(u ^ sign) - (int64_t)sign;
		}
		return print_dec(out, v);
	}
	if (conv == 'u') {
		char text[24];
		return tc_buf_append(out, text, tc_fmt_u64(text, u));
	}
	return print_hex(out, u);
}

/* d, i, u, x.  RAW holds SIZE bytes zero-extended, which is what replay
 * compares: a 4-byte d is never negative there. */
static int format_int(tc_buf *out, ua_fmt fmt, uint32_t size, uint64_t raw)
{
	/* the printf length modifier comes from the lowest bit of the size */
	unsigned bytes = size & -size;
	if (bytes == 0 || bytes > 8)
		bytes = 8;
	int64_t v = (int64_t)raw;
	switch (fmt) {
	case FMT_AUTO:
		if (v <= SMALL_INT && v >= -SMALL_INT)
			return print_int(out, 'd', bytes, raw);
		/* a negative int in a zero-extended 64-bit slot reads naturally */
		if (raw > 0xffff0000u && raw <= 0xffffffffu)
			return print_int(out, 'd', 4, raw);
		return print_int(out, 'x', bytes, raw);
	case FMT_SINT:
		return print_int(out, 'd', bytes, raw);
	case FMT_UINT:
		return print_int(out, raw > SMALL_INT ? 'x' : 'u', bytes, raw);
	default:
		return print_int(out, 'x', bytes, raw);
	}
}

static int print_escaped(tc_buf *out, unsigned char c)
{
	if (c == '\0')
		return tc_buf_append(out, "\\0", 2);
	if (c == '\b')
		return tc_buf_append(out, "\\b", 2);
	if (c == '\n')
		return tc_buf_append(out, "\\n", 2);
	return tc_buf_append(out, &c, 1);
}

/*
 * A string item's text: up to the first NUL, with \b and \n escaped --
 * unless a byte >= 0x80 is followed by another byte, which replay takes
 * for UTF-8 and copies raw.
 */
static int print_string(tc_buf *out, const uint8_t *p, size_t slen, bool std_string)
{
	/* recorders before 0.13 stored a NULL pointer as the int -1 */
	static const uint8_t old_null[4] = { 0xff, 0xff, 0xff, 0xff };
	int rc;
	if (slen == 4 && memcmp(p, old_null, 4) == 0) {
		rc = tc_buf_append(out, "NULL", 4);
	} else {
		size_t n = strnlen((const char *)p, slen), high = 0;
		while (high < n && !(p[high] & 0x80))
			high++;
		rc = tc_buf_append(out, "\"", 1);
		if (rc == 0 && high + 1 < n) {
			rc = tc_buf_append(out, p, n);
		} else {
			/* the runs between escapes in one copy each (no NUL
			 * before N: strnlen) */
			for (size_t i = 0, run; i < n && rc == 0; i = run + 1) {
				for (run = i; run < n && p[run] != '\b' && p[run] != '\n';)
					run++;
				rc = tc_buf_append(out, p + i, run - i);
				if (rc == 0 && run < n)
					rc = print_escaped(out, p[run]);
			}
		}
		if (rc == 0)
			rc = tc_buf_append(out, "\"", 1);
	}
	return rc == 0 && std_string ? tc_buf_append(out, "s", 1) : rc;
}

/* An x87 80-bit extended value, whatever the host's long double is. */
static long double x87_value(const uint8_t *p, bool big_endian)
{
	uint8_t b[10];
	for (int i = 0; i < 10; i++)
		b[i] = p[big_endian ? 9 - i : i];
	uint64_t mant = tc_load_uint(b, 8, false);
	unsigned se = (unsigned)b[8] | (unsigned)b[9] << 8;
	int exp = (int)(se & 0x7fff);
	long double v;
	if (exp == 0x7fff)
		v = (mant << 1) ? NAN : INFINITY;
	else /* the integer bit is explicit; denormals share exponent 1 */
		v = ldexpl((long double)mant, (exp ? exp : 1) - 16383 - 63);
	return copysignl(v, (se & 0x8000) ? -1.0L : 1.0L);
}

/* replay prints float arguments with "%#f"; tc_fmt_f() covers doubles
 * (floats widened), x87 long doubles still go through printf. */
static int format_float(tc_buf *out, uint32_t size, const uint8_t *p, bool be)
{
	char text[TC_FMT_F_MAX];
	if (size == 4) {
		uint32_t bits = (uint32_t)tc_load_uint(p, 4, be);
		float f;
		memcpy(&f, &bits, sizeof f);
		return tc_buf_append(out, text, tc_fmt_f(text, (double)f, 6, true));
	}
	if (size == 8) {
		uint64_t bits = tc_load_uint(p, 8, be);
		double d;
		memcpy(&d, &bits, sizeof d);
		return tc_buf_append(out, text, tc_fmt_f(text, d, 6, true));
	}
	if (size == 10)
		return tc_buf_printf(out, "%#Lf", x87_value(p, be));
	/* f8/f16: replay prints nothing */
	return 0;
}

static int format_enum(const fmt_ctx *c, const ua_item *it, uint64_t raw)
{
	/* replay passes the zero-extended value as a long, not an int */
	int64_t v = (int64_t)raw;
	if (!c->f || !c->f->module)
		return tc_buf_printf(c->out, "<ENUM?> %x", (unsigned)raw);
	const dbg_module *m = ua_find_module(c->s, c->f->module);
	const enum_def *def = m ? find_enum(&m->enums, it->type_name) : NULL;
	if (!def)
		def = find_enum(&c->s->auto_enums, it->type_name);
	size_t start = c->out->len;
	int rc = color_on(c, COLOR_BLUE);
	if (rc == 0)
		rc = def ? print_enum(c->out, def, v) : tc_buf_printf(c->out, "%" PRId64, v);
	/* each "|" between the names in bold, the names in blue */
	for (size_t i = start; c->color && rc == 0 && i < c->out->len; i++) {
		if (c->out->data[i] != '|')
			continue;
		static const char join[] = COLOR_RESET "\033[1m|" COLOR_RESET COLOR_BLUE;
		size_t tail = c->out->len - i - 1;
		if ((rc = tc_buf_reserve(c->out, sizeof join - 2)) < 0)
			break;
		char *at = c->out->data + i;
		memmove(at + sizeof join - 1, at + 1, tail);
		memcpy(at, join, sizeof join - 1);
		c->out->len += sizeof join - 2;
		i += sizeof join - 2;
	}
	return rc == 0 ? color_on(c, COLOR_RESET) : rc;
}

static int format_item(const fmt_ctx *c, const ua_item *it, const uint8_t *data, size_t len, size_t off,
                       size_t *bytes)
{
	bool be = c->s->big_endian;
	tc_buf *out = c->out;
	if (it->fmt == FMT_STR || it->fmt == FMT_STDSTR) {
		size_t slen = off + 2 <= len ? (size_t)tc_load_uint(data + off, 2, be) : 0;
		if (off + 2 > len || slen > len - off - 2)
			return tc_fail(TC_EFORMAT, NULL, -1, "argument string runs past its %zu bytes of data", len);
		*bytes = align4(2 + slen);
		int rc = color_on(c, COLOR_MAGENTA);
		if (rc == 0)
			rc = print_string(out, data + off + 2, slen, it->fmt == FMT_STDSTR);
		return rc == 0 ? color_on(c, COLOR_RESET) : rc;
	}
	*bytes = align4(it->size);
	if (it->size > len || off > len - it->size)
		return tc_fail(TC_EFORMAT, NULL, -1, "argument value runs past its %zu bytes of data", len);
	const uint8_t *p = data + off;
	uint64_t raw = tc_load_uint(p, it->size < 8 ? it->size : 8, be);
	switch (it->fmt) {
	case FMT_AUTO:
	case FMT_SINT:
	case FMT_UINT:
	case FMT_HEX:
		return format_int(out, it->fmt, it->size, raw);
	case FMT_CHAR: {
		int rc = color_on(c, COLOR_MAGENTA);
		if (rc == 0)
			rc = tc_buf_append(out, "'", 1);
		if (rc == 0)
			rc = print_escaped(out, p[0]);
		if (rc == 0)
			rc = tc_buf_append(out, "'", 1);
		return rc == 0 ? color_on(c, COLOR_RESET) : rc;
	}
	case FMT_FLOAT:
		return format_float(out, it->size, p, be);
	case FMT_PTR: {
		const char *name = c->sym ? c->sym(c->sym_ctx, raw) : NULL;
		if (name) {
			int rc = color_on(c, COLOR_CYAN);
			if (rc == 0)
				rc = tc_buf_printf(out, "&%s", name);
			return rc == 0 ? color_on(c, COLOR_RESET) : rc;
		}
		return print_hex(out, raw);
	}
	case FMT_ENUM:
		return format_enum(c, it, raw);
	case FMT_STRUCT: {
		/* gcc names lambdas "<lambda"; replay drops it to look like clang */
		int rc = color_on(c, COLOR_CYAN);
		if (rc == 0 && it->type_name && strcmp(it->type_name, "<lambda") != 0)
			rc = tc_buf_printf(out, "%s", it->type_name);
		if (rc == 0)
			rc = color_on(c, COLOR_RESET);
		return rc == 0 ? tc_buf_printf(out, "%s", it->size ? "{...}" : "{}") : rc;
	}
	case FMT_STR:
	case FMT_STDSTR:
		break;
	}
	return 0;
}

int ua_format(const ua_specs *s, const ua_list *l, const uint8_t *payload, size_t len, const ua_function *f,
              ua_symbolize sym, void *ctx, bool color, tc_buf *out)
{
	if (!l)
		return tc_fail(TC_EINVAL, NULL, -1, "no argument spec to format the data with");
	fmt_ctx c = { s, f, sym, ctx, out, color };
	size_t start = out->len, off = 0;
	size_t shown = l->retval && l->count ? 1 : l->count;
	int rc = l->retval ? 0 : tc_buf_append(out, "(", 1);
	for (size_t i = 0; i < shown && rc == 0; i++) {
		size_t bytes = 0;
		if (i)
			rc = tc_buf_append(out, ", ", 2);
		if (rc == 0)
			rc = format_item(&c, &l->items[i], payload, len, off, &bytes);
		off += bytes;
	}
	if (rc == 0 && !l->retval)
		rc = tc_buf_append(out, ")", 1);
	if (rc < 0 && out->data) {
		out->len = start;
		out->data[start] = '\0';
	}
	return rc;
}
