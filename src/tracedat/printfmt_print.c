/* SPDX-License-Identifier: MIT */
/*
 * printfmt_print.c - a compiled print-format plan (printfmt_plan.h, built
 * by printfmt_compile.c) run over one record: pf_print() for the event
 * text, pf_print_fields() for `report -R`'s fields, and pf_print_handler()
 * for the texts of the sched_switch, kmem and tlb plugins.  The numbers and
 * strings are written with tracecat's own digit routines (text/format.h),
 * byte for byte as libtraceevent's printf() calls write them.
 */
#include "tracedat/printfmt_plan.h"

#include "text/format.h"

#include <event-parse.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* ------------------------------------------------------------------------
 * Printing
 */

typedef struct pf_ctx {
	const pf_plan *pl;
	const uint8_t *data;
	int size;
	tc_buf *out;
	bool bail;               /* libtraceevent must print this record */
	bool nomem;
	bool register_comms;     /* pf_print_handler()'s */
	bool fields;             /* pf_print_fields(): the -R text */
	/* The record's last kernel address looked up (find_symbol()) */
	bool sym_known, sym_found;
	uint64_t sym_addr;
	const char *sym_name;
	unsigned long long sym_start;
} pf_ctx;

static inline char *room(pf_ctx *c, size_t n)
{
	if (tc_buf_reserve(c->out, n) < 0) {
		c->nomem = true;
		return NULL;
	}
	return c->out->data + c->out->len;
}

static inline void put(pf_ctx *c, const char *s, size_t n)
{
	char *d = room(c, n);
	if (d) {
		memcpy(d, s, n);
		c->out->len += n;
	}
}

/* N bytes from S, which has 16 bytes to read even when N is less (a
 * piece of the plan's text, add_text(); a char[16] comm): a copy of
 * constant size instead of a call. */
static inline void put16(pf_ctx *c, const char *s, size_t n)
{
	char *d = room(c, n + 16);
	if (d) {
		if (TC_LIKELY(n <= 16))
			memcpy(d, s, 16);
		else
			memcpy(d, s, n);
		c->out->len += n;
	}
}

static inline void putc1(pf_ctx *c, char ch)
{
	char *d = room(c, 1);
	if (d) {
		*d = ch;
		c->out->len++;
	}
}

static void fill(pf_ctx *c, char ch, size_t n)
{
	char *d = room(c, n + 16);
	if (d)
		c->out->len = (size_t)(tc_fmt_fill(d, ch, n) - c->out->data);
}

/* tep_read_number(). */
static inline uint64_t rd(const pf_ctx *c, uint32_t off, int size)
{
	const uint8_t *p = c->data + off;
	switch (size) {
	case 1:
		return *p;
	case 2: {
		uint16_t x;
		memcpy(&x, p, 2);
		return c->pl->swap ? __builtin_bswap16(x) : x;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, 4);
		return c->pl->swap ? __builtin_bswap32(x) : x;
	}
	case 8: {
		uint64_t x;
		memcpy(&x, p, 8);
		return c->pl->swap ? __builtin_bswap64(x) : x;
	}
	default:
		return 0;
	}
}

/* Whether [OFF, OFF + LEN) lies in the record; gives up on it if not. */
static inline bool inside(pf_ctx *c, uint64_t off, uint64_t len)
{
	if (off + len <= (uint64_t)c->size)
		return true;
	c->bail = true;
	return false;
}

/* dynamic_offset_field(): where a dynamic field's bytes are. */
static void locate(const pf_ctx *c, const pf_src *s, uint32_t *off, uint32_t *len)
{
	if (!s->dyn) {
		*off = (uint32_t)s->off;
		*len = (uint32_t)s->size;
		return;
	}
	uint32_t size = (uint32_t)c->size;
	if (s->off + s->size > c->size) {
		*off = *len = 0;
		return;
	}
	uint64_t v = rd(c, (uint32_t)s->off, s->size);
	uint32_t o = (uint32_t)(v & 0xffff);
	uint32_t l = s->size == 2 ? size - o : (uint32_t)((v >> 16) & 0xffff);
	*off = o > size ? 0 : o;
	*len = o + l > size ? 0 : l;
	if (s->rel)
		*off += (uint32_t)(s->off + s->size);
}

static uint64_t eval_expr(pf_ctx *c, const pf_expr *e);

/* eval_num_arg(): most arguments are a field as it is, read here
 * without the call. */
static inline uint64_t eval(pf_ctx *c, uint32_t i)
{
	const pf_expr *e = &c->pl->exprs[i];
	if (TC_LIKELY(e->kind == E_FIELD)) {
		if (!inside(c, (uint64_t)e->src.off, (uint64_t)e->src.size))
			return 0;
		return rd(c, (uint32_t)e->src.off, e->src.size);
	}
	return eval_expr(c, e);
}

static uint64_t eval_expr(pf_ctx *c, const pf_expr *e)
{
	switch (e->kind) {
	case E_CONST:
		return e->k;
	case E_FIELD:
		if (!inside(c, (uint64_t)e->src.off, (uint64_t)e->src.size))
			return 0;
		return rd(c, (uint32_t)e->src.off, e->src.size);
	case E_ELEM: {
		uint64_t idx = eval(c, e->a);
		uint64_t off = (uint64_t)e->src.off + (uint32_t)idx * (uint64_t)e->elsize;
		/* libtraceevent's offset is 32 bits: past that it wraps. */
		if (off > UINT32_MAX || !inside(c, off, (uint64_t)e->size))
			return c->bail = true, 0;
		return rd(c, (uint32_t)off, e->size) & e->k;
	}
	case E_DYN_ELEM: {
		uint64_t idx = eval(c, e->a);
		uint32_t off, len;
		locate(c, &e->src, &off, &len);
		uint64_t at = (uint64_t)off + (uint32_t)idx;
		if (at > UINT32_MAX || !inside(c, at, (uint64_t)e->size))
			return c->bail = true, 0;
		return rd(c, (uint32_t)at, e->size) & e->k;
	}
	case E_DYN_LEN: {
		uint32_t off, len;
		locate(c, &e->src, &off, &len);
		return len;
	}
	case E_MASK:
		return eval(c, e->a) & e->k;
	case E_COND:
		return eval(c, e->a) ? eval(c, e->b) : eval(c, e->c);
	default:
		break;
	}
	uint64_t l = eval(c, e->a), r = eval(c, e->b);
	switch (e->op) {
	case OP_ADD: return l + r;
	case OP_SUB: return l - r;
	case OP_MUL: return l * r;
	case OP_DIV: return l / r;
	case OP_MOD: return l % r;
	case OP_SHL: return l << (r & 63);
	case OP_SHR: return l >> (r & 63);
	case OP_AND: return l & r;
	case OP_OR: return l | r;
	case OP_LAND: return l && r;
	case OP_LOR: return l || r;
	case OP_LT: return l < r;
	case OP_GT: return l > r;
	case OP_LE: return l <= r;
	case OP_GE: return l >= r;
	case OP_EQ: return l == r;
	case OP_NE: return l != r;
	case OP_NOT: return !r;
	case OP_COMPL: return ~r;
	}
	return 0;
}

/* The '*' argument: printf's int.  libtraceevent passes a negative one
 * to printf in the wrong place; such records are left to it. */
static inline bool star_value(pf_ctx *c, const pf_item *it, int *v)
{
	*v = -1;
	if (it->star == NONE)
		return true;
	*v = (int)eval(c, it->star);
	if (*v < 0 && (it->sp.star_width || it->sp.star_prec || it->sp.conv)) {
		c->bail = true;
		return false;
	}
	return true;
}

/* printf("%s") with the conversion's flags, width and precision. */
static void put_str(pf_ctx *c, const pf_spec *sp, int star, const char *s, size_t n)
{
	int width = sp->star_width ? star : sp->width;
	int prec = sp->star_prec ? star : sp->prec;
	if (prec >= 0 && (size_t)prec < n)
		n = (size_t)prec;
	size_t pad = width > 0 && (size_t)width > n ? (size_t)width - n : 0;
	if (!sp->left)
		fill(c, ' ', pad);
	put(c, s, n);
	if (sp->left)
		fill(c, ' ', pad);
}

static void put_int_general(pf_ctx *c, const pf_spec *sp, int star, uint64_t v);

/* printf's integer conversions, V being what libtraceevent passes (the
 * value cast to the conversion's length): the common cases inline, the
 * others out of line, whose registers the callers then do not pay for. */
__attribute__((always_inline)) static inline void put_int(pf_ctx *c, const pf_spec *sp, int star, uint64_t v)
{
	if (TC_LIKELY(sp->plain)) {
		/* The common case without the padding arithmetic. */
		char *d = room(c, 32);
		if (!d)
			return;
		unsigned shift = 64 - sp->bits;
		uint64_t u = v << shift >> shift;
		size_t n = 0;
		if (sp->conv == 'x' || sp->conv == 'X') {
			n = tc_fmt_hex(d, u, sp->conv == 'x');
		} else {
			if ((sp->conv == 'd' || sp->conv == 'i') && (int64_t)(u << shift) < 0) {
				d[n++] = '-';
				u = (uint64_t)0 - (uint64_t)((int64_t)(u << shift) >> shift);
			}
			n += tc_fmt_u64(d + n, u);
		}
		c->out->len += n;
		return;
	}
	if (TC_LIKELY(sp->padded)) {
		/* "%08lx", "%5d": the digits counted, the padding (or the
		 * zeros after a sign) before them, all in place. */
		char *d = room(c, 32 + 24 + 16);
		if (!d)
			return;
		unsigned shift = 64 - sp->bits;
		uint64_t u = v << shift >> shift;
		bool hex = sp->conv == 'x' || sp->conv == 'X', neg = false;
		if ((sp->conv == 'd' || sp->conv == 'i') && (int64_t)(u << shift) < 0) {
			neg = true;
			u = (uint64_t)0 - (uint64_t)((int64_t)(u << shift) >> shift);
		}
		size_t nd = hex ? (64u - (unsigned)__builtin_clzll(u | 1u) + 3u) / 4u : tc_fmt_dec_len(u);
		size_t w = (size_t)sp->width, pad = w > nd + neg ? w - nd - neg : 0;
		char *o = d;
		if (!sp->zero)
			o = tc_fmt_fill(o, ' ', pad);
		if (neg)
			*o++ = '-';
		if (sp->zero)
			o = tc_fmt_fill(o, '0', pad);
		if (hex)
			tc_fmt_hex(o, u, sp->conv == 'x');
		else
			tc_fmt_u64(o, u);
		c->out->len += (size_t)(o + nd - d);
		return;
	}
	put_int_general(c, sp, star, v);
}

__attribute__((noinline)) static void put_int_general(pf_ctx *c, const pf_spec *sp, int star, uint64_t v)
{
	int width = sp->star_width ? star : sp->width;
	int prec = sp->star_prec ? star : sp->prec;
	bool has_prec = prec >= 0;
	unsigned bits = sp->bits;
	if (sp->conv == 'c') {
		/* printf's %c of the int: its low byte, padded with spaces. */
		size_t pad = width > 1 ? (size_t)width - 1 : 0;
		char *d = room(c, pad + 1);
		if (!d)
			return;
		if (!sp->left)
			memset(d, ' ', pad);
		d[sp->left ? 0 : pad] = (char)(unsigned char)v;
		if (sp->left)
			memset(d + 1, ' ', pad);
		c->out->len += pad + 1;
		return;
	}
	uint64_t u = bits == 64 ? v : v & (((uint64_t)1 << bits) - 1);
	const char *prefix = "";
	size_t plen = 0;
	bool is_signed = sp->conv == 'd' || sp->conv == 'i';
	if (is_signed) {
		int64_t s = bits == 64 ? (int64_t)u : (int64_t)(u << (64 - bits)) >> (64 - bits);
		if (s < 0) {
			prefix = "-", plen = 1;
			u = (uint64_t)0 - (uint64_t)s;
		} else if (sp->plus) {
			prefix = "+", plen = 1;
		}
	}
	/* The digits are counted first and written in place. */
	bool hex = sp->conv == 'x' || sp->conv == 'X', oct = sp->conv == 'o';
	unsigned bitlen = 64u - (unsigned)__builtin_clzll(u | 1u);
	size_t nd = 0;
	if (!(prec == 0 && u == 0))
		nd = hex ? (bitlen + 3) / 4 : oct ? (bitlen + 2) / 3 : tc_fmt_dec_len(u);
	if (sp->alt) {
		/* (an octal number's first digit is '0' only for 0) */
		if (oct) {
			if ((nd == 0 || u != 0) && prec < (int)nd + 1)
				prec = (int)nd + 1;
		} else if (hex && u) {
			prefix = sp->conv == 'x' ? "0x" : "0X", plen = 2;
		}
	}
	size_t zeros = prec > (int)nd ? (size_t)prec - nd : 0;
	size_t total = plen + zeros + nd;
	size_t pad = width > 0 && (size_t)width > total ? (size_t)width - total : 0;
	/* (16 bytes past the end for tc_fmt_fill(), which covers tc_fmt_hex()'s
	 * eight) */
	char *d = room(c, total + pad + 16);
	if (!d)
		return;
	char *o = d;
	if (!sp->left) {
		/* The '0' flag counts only without a precision. */
		if (sp->zero && !has_prec)
			zeros += pad;
		else
			o = tc_fmt_fill(o, ' ', pad);
		pad = 0;
	}
	for (size_t i = 0; i < plen; i++)
		*o++ = prefix[i];
	o = tc_fmt_fill(o, '0', zeros);
	if (nd) {
		if (hex)
			tc_fmt_hex(o, u, sp->conv == 'x');
		else if (oct)
			tc_fmt_oct(o, u);
		else
			tc_fmt_u64(o, u);
		o += nd;
	}
	if (pad)
		o = tc_fmt_fill(o, ' ', pad);
	c->out->len += (size_t)(o - d);
}

/* "0x%llx" */
static void put_hex0x(pf_ctx *c, uint64_t v)
{
	char *d = room(c, 2 + 16 + 8);
	if (d) {
		d[0] = '0';
		d[1] = 'x';
		c->out->len += 2 + tc_fmt_hex(d + 2, v, true);
	}
}

/* "%02x" of each byte, with SEP between. */
static void put_hex_bytes(pf_ctx *c, const uint8_t *p, size_t n, const char *sep, size_t seplen)
{
	char *d = room(c, n * (2 + seplen));
	if (!d)
		return;
	char *o = d;
	for (size_t i = 0; i < n; i++) {
		if (i) {
			memcpy(o, sep, seplen);
			o += seplen;
		}
		*o++ = tc_fmt_hex_digits[p[i] >> 4];
		*o++ = tc_fmt_hex_digits[p[i] & 15];
	}
	c->out->len += (size_t)(o - d);
}

static void put_udec(pf_ctx *c, uint64_t v)
{
	char *d = room(c, 24);
	if (d)
		c->out->len += tc_fmt_u64(d, v);
}

/* print_bitmask_to_seq(): hex, a comma every 32 bits, highest first. */
static void put_bitmask(pf_ctx *c, const pf_spec *sp, int star, const uint8_t *p, uint32_t len)
{
	int nbits = (int)len * 8;
	int n = (nbits + 3) / 4 + (nbits - 1) / 32;
	char stack[256];
	char *s = n < (int)sizeof stack ? stack : malloc((size_t)n + 1);
	if (!s) {
		c->nomem = true;
		tc_fail_nomem();
		return;
	}
	s[n] = '\0';
	int done = 0;
	for (int i = n - 2; i >= 0; i -= 2) {
		uint8_t b = p[c->pl->file_big ? (int)len - (done + 1) : done];
		s[i] = tc_fmt_hex_digits[b >> 4];
		s[i + 1] = tc_fmt_hex_digits[b & 15];
		done++;
		if (!(done & 3) && i > 0)
			s[--i] = ',';
	}
	put_str(c, sp, star, s, strlen(s));
	if (s != stack)
		free(s);
}

/* print_cpumask_to_seq(): the set bits as a list of ranges, "0-3,8". */
static void put_cpumask(pf_ctx *c, const pf_spec *sp, int star, const uint8_t *p, uint32_t len)
{
	tc_buf list = { 0 };
	int first = -1;
	int nbits = (int)len * 8;
	for (int bit = 0; bit <= nbits; bit++) {
		bool set = false;
		if (bit < nbits) {
			int byte = bit / 8;
			uint8_t b = p[c->pl->file_big ? (int)len - (byte + 1) : byte];
			set = (b >> (bit % 8)) & 1;
		}
		if (set && first < 0) {
			first = bit;
		} else if (!set && first >= 0) {
			/* ",FIRST" or ",FIRST-LAST" */
			char tmp[48];
			size_t n = 0;
			if (list.len)
				tmp[n++] = ',';
			n += tc_fmt_u64(tmp + n, (uint64_t)first);
			if (bit - 1 > first) {
				tmp[n++] = '-';
				n += tc_fmt_u64(tmp + n, (uint64_t)(bit - 1));
			}
			if (tc_buf_append(&list, tmp, n) < 0) {
				c->nomem = true;
				break;
			}
			first = -1;
		}
	}
	put_str(c, sp, star, list.data ? list.data : "", list.len);
	tc_buf_free(&list);
}

static void print_sarg(pf_ctx *c, uint32_t si, const pf_spec *sp, int star)
{
	const pf_plan *pl = c->pl;
	const pf_sarg *s = &pl->sargs[si];
	switch (s->kind) {
	case S_NONE:
		return;
	case S_TEXT:
		put_str(c, sp, star, pl->text + s->text, s->len);
		return;
	case S_BYTES: {
		int64_t len = s->src.size ? s->src.size : (int64_t)c->size - s->src.off;
		if (len < 0 || !inside(c, (uint64_t)s->src.off, (uint64_t)len))
			return;
		const char *p = (const char *)c->data + s->src.off;
		put_str(c, sp, star, p, strnlen(p, (size_t)len));
		return;
	}
	case S_DSTR: {
		uint32_t off, len;
		locate(c, &s->src, &off, &len);
		if (!len)
			return;
		const char *p = (const char *)c->data + off;
		const char *nul = off < (uint32_t)c->size ? memchr(p, '\0', (size_t)c->size - off) : NULL;
		if (!nul) {
			c->bail = true;
			return;
		}
		put_str(c, sp, star, p, (size_t)(nul - p));
		return;
	}
	case S_FLAGS:
	case S_SYMBOLS: {
		int64_t val = (int64_t)eval(c, s->expr);
		const pf_sym *y = pl->syms + s->first, *end = y + s->count;
		if (s->kind == S_SYMBOLS) {
			for (; y < end; y++)
				if (val == y->value) {
					put_str(c, sp, star, pl->text + y->text, y->len);
					return;
				}
			put_hex0x(c, (uint64_t)val);
			return;
		}
		bool printed = false;
		for (; y < end; y++) {
			if (!val && y->value < 0) {
				put_str(c, sp, star, pl->text + y->text, y->len);
				break;
			}
			if (y->value > 0 && (val & y->value) == y->value) {
				if (printed && s->text != NONE)
					put(c, pl->text + s->text, s->len);
				put_str(c, sp, star, pl->text + y->text, y->len);
				printed = true;
				val &= ~y->value;
			}
		}
		if (val) {
			if (printed && s->text != NONE)
				put(c, pl->text + s->text, s->len);
			put_hex0x(c, (uint64_t)val);
		}
		return;
	}
	case S_HEX:
	case S_HEX_STR: {
		uint32_t off, dlen;
		locate(c, &s->src, &off, &dlen);
		uint32_t len = (uint32_t)eval(c, s->expr);
		if (!inside(c, off, len))
			return;
		put_hex_bytes(c, c->data + off, len, " ", s->kind == S_HEX);
		return;
	}
	case S_INT_ARRAY: {
		uint32_t off, dlen;
		locate(c, &s->src, &off, &dlen);
		uint32_t count = (uint32_t)eval(c, s->expr);
		int el = (int)eval(c, s->expr2);
		bool bad = el != 1 && el != 2 && el != 4 && el != 8;
		if (!inside(c, off, (uint64_t)count * (bad ? 1 : (uint64_t)el)))
			return;
		const uint8_t *p = c->data + off;
		/* libtraceevent 1.7.1: "%u" of each element (in our byte order),
		 * a space between; an odd size gives "BAD SIZE:%d 0x%x" of the
		 * first byte, then one byte an element.  1.8 and later (the
		 * kernel's __print_array): "0x%x" of each, a comma between,
		 * in braces. */
		bool tep19 = c->pl->tep19;
		pf_spec u = { .conv = 'u', .bits = 64, .plain = true, .width = -1, .prec = -1 };
		if (tep19)
			putc1(c, '{');
		for (uint32_t i = 0; i < count; i++) {
			if (i)
				putc1(c, tep19 ? ',' : ' ');
			if (bad) {
				pf_spec d = { .conv = 'd', .bits = 32, .plain = true, .width = -1, .prec = -1 };
				put(c, "BAD SIZE:", 9);
				put_int(c, &d, -1, (uint64_t)el);
				putc1(c, ' ');
				put_hex0x(c, *p);
				el = 1;
				bad = false;
				p++;
				continue;
			}
			uint64_t v = 0;
			switch (el) {
			case 1: v = *p; break;
			case 2: { uint16_t x; memcpy(&x, p, 2); v = x; break; }
			case 4: { uint32_t x; memcpy(&x, p, 4); v = x; break; }
			case 8: memcpy(&v, p, 8); break;
			}
			if (tep19)
				put_hex0x(c, v);
			else
				put_int(c, &u, -1, v);
			p += el;
		}
		if (tep19)
			putc1(c, '}');
		return;
	}
	case S_BITMASK:
	case S_CPUMASK: {
		uint32_t off, len;
		locate(c, &s->src, &off, &len);
		if (!inside(c, off, len))
			return;
		if (s->kind == S_BITMASK)
			put_bitmask(c, sp, star, c->data + off, len);
		else
			put_cpumask(c, sp, star, c->data + off, len);
		return;
	}
	case S_COND:
		print_sarg(c, eval(c, s->expr) ? s->first : s->count, sp, star);
		return;
	case S_PRINTK: {
		/* The address in our byte order, as libtraceevent reads it;
		 * the string, or the address in hex, whatever the flags. */
		if (!inside(c, (uint64_t)s->src.off, (uint64_t)pl->long_size))
			return;
		uint64_t addr;
		if (pl->long_size == 8) {
			memcpy(&addr, c->data + s->src.off, 8);
		} else {
			uint32_t a32;
			memcpy(&a32, c->data + s->src.off, 4);
			addr = a32;
		}
		const char *text = pf_strings_find(pl->printk, addr);
		if (text) {
			put(c, text, strlen(text));
		} else {
			char *d = room(c, 24);
			if (d)
				c->out->len += tc_fmt_hex(d, addr, true);
		}
		return;
	}
	}
}

/* tep_find_function_info() of V: the function's name and start, true
 * when found.  A record often names one address twice (the kmem
 * plugin's call site, then the format's %pS of it): the last answer is
 * kept. */
static bool find_symbol(pf_ctx *c, uint64_t v, const char **name, unsigned long long *start)
{
	if (!c->sym_known || c->sym_addr != v) {
		unsigned long fsize = 0;
		c->sym_name = NULL;
		c->sym_start = 0;
		c->sym_found = tep_find_function_info(c->pl->tep, v, &c->sym_name, &c->sym_start, &fsize) && c->sym_name;
		c->sym_addr = v;
		c->sym_known = true;
	}
	*name = c->sym_name;
	*start = c->sym_start;
	return c->sym_found;
}

/* print_function(): "name", "name+0x1f", or the address. */
static void print_symbol(pf_ctx *c, const pf_item *it)
{
	uint64_t v = eval(c, it->arg);
	const char *name;
	unsigned long long start;
	bool found = find_symbol(c, v, &name, &start);
	if (found) {
		put(c, name, strlen(name));
		if (it->ext[0] == 'F' || it->ext[0] == 'S') {
			put(c, "+", 1);
			put_hex0x(c, v - start);
		}
	}
	/* libtraceevent 1.8 and later follow the name, in the fields of -R
	 * (trace-cmd 3.4's), with the address: "name+0x3b (0xffff...)"; an
	 * address without a symbol gets an empty name: " (0x4000...)". */
	bool then_address = c->fields && c->pl->tep19;
	if (!found && !then_address)
		put_hex0x(c, v);
	if (then_address) {
		put(c, " (", 2);
		put_hex0x(c, v);
		putc1(c, ')');
	}
}

static void put_ip4(pf_ctx *c, bool leading_zeros, bool reverse, const uint8_t *b)
{
	for (int i = 0; i < 4; i++) {
		if (i)
			putc1(c, '.');
		uint8_t x = b[reverse ? 3 - i : i];
		if (leading_zeros) {
			char d[3] = { (char)('0' + x / 100), (char)('0' + x / 10 % 10), (char)('0' + x % 10) };
			put(c, d, 3);
		} else {
			put_udec(c, x);
		}
	}
}

/* print_ip6c_addr(): RFC 5952-ish compressed form. */
static void put_ip6c(pf_ctx *c, const uint8_t *a)
{
	uint16_t w[8];
	for (int i = 0; i < 8; i++)
		w[i] = (uint16_t)(a[2 * i] << 8 | a[2 * i + 1]);
	bool v4mapped = !w[0] && !w[1] && !w[2] && !w[3] && !w[4] && w[5] == 0xffff;
	bool isatap = (w[4] | 0x0200) == 0x0200 && w[5] == 0x5efe;
	bool use4 = v4mapped || isatap;
	int range = use4 ? 6 : 8, longest = 1, colonpos = -1;
	for (int i = 0; i < range; i++) {
		int z = 0;
		for (int j = i; j < range && !w[j]; j++)
			z++;
		if (z > longest) {
			longest = z;
			colonpos = i;
		}
	}
	if (longest == 1)
		colonpos = -1;
	bool needcolon = false;
	for (int i = 0; i < range; i++) {
		if (i == colonpos) {
			if (needcolon || i == 0)
				putc1(c, ':');
			putc1(c, ':');
			needcolon = false;
			i += longest - 1;
			continue;
		}
		if (needcolon)
			putc1(c, ':');
		char *d = room(c, 24);
		if (d)
			c->out->len += tc_fmt_hex(d, w[i], true);
		needcolon = true;
	}
	if (use4) {
		if (needcolon)
			putc1(c, ':');
		put_ip4(c, false, false, a + 12);
	}
}

static void put_ip6(pf_ctx *c, char i, bool compressed, const uint8_t *a)
{
	if (compressed) {
		put_ip6c(c, a);
		return;
	}
	for (int j = 0; j < 16; j += 2) {
		put_hex_bytes(c, a + j, 2, "", 0);
		if (i == 'I' && j < 14)
			putc1(c, ':');
	}
}

/* parse_ip4_print_args(): whether the bytes are printed backwards. */
static bool ip4_reverse(const pf_ctx *c, char x)
{
	return x == 'h' ? !c->pl->file_big : x == 'l';
}

static void print_ipsa(pf_ctx *c, const pf_item *it)
{
	const char *x = it->ext + 2;
	char i = it->ext[0];
	bool have_p = false, have_c = false;
	if (i == 'I') {
		if (*x == 'p')
			have_p = true, x++;
		if (*x == 'c')
			have_c = true, x++;
	}
	bool reverse = ip4_reverse(c, *x);
	uint32_t off, len;
	locate(c, &it->src, &off, &len);
	if (!inside(c, off, 2))
		return;
	const uint8_t *sa = c->data + off;
	uint16_t family;
	memcpy(&family, sa, 2);
	if (family == AF_INET) {
		if (len < 16) {
			put(c, "INVALIDIPv4", 11);
			return;
		}
		if (!inside(c, off, 8))
			return;
		put_ip4(c, i == 'i', reverse, sa + 4);
		if (have_p) {
			putc1(c, ':');
			put_udec(c, (uint16_t)(sa[2] << 8 | sa[3]));
		}
	} else if (family == AF_INET6) {
		if (len < 28) {
			put(c, "INVALIDIPv6", 11);
			return;
		}
		if (!inside(c, off, 24))
			return;
		if (have_p)
			putc1(c, '[');
		put_ip6(c, i, have_c, sa + 8);
		if (have_p) {
			put(c, "]:", 2);
			put_udec(c, (uint16_t)(sa[2] << 8 | sa[3]));
		}
	}
}

static void print_uuid(pf_ctx *c, const pf_item *it)
{
	static const uint8_t guid[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	char kind = it->ext[1];
	bool swapped = kind == 'L' || kind == 'l';
	const char *hex = (kind == 'L' || kind == 'B') ? "0123456789ABCDEF" : "0123456789abcdef";
	if (!inside(c, (uint64_t)it->src.off, 16))
		return;
	const uint8_t *b = c->data + it->src.off;
	char *d = room(c, 36);
	if (!d)
		return;
	char *o = d;
	for (int i = 0; i < 16; i++) {
		uint8_t x = b[swapped ? guid[i] : i];
		*o++ = hex[x >> 4];
		*o++ = hex[x & 15];
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*o++ = '-';
	}
	c->out->len += (size_t)(o - d);
}

__attribute__((noinline)) static void print_item(pf_ctx *c, const pf_item *it)
{
	const pf_plan *pl = c->pl;
	int star;
	switch (it->kind) {
	case I_TEXT:
		put16(c, pl->text + it->text, it->len);
		return;
	case I_NUM:
		if (star_value(c, it, &star))
			put_int(c, &it->sp, star, eval(c, it->arg));
		return;
	case I_STR:
		if (star_value(c, it, &star))
			print_sarg(c, it->arg, &it->sp, star);
		return;
	case I_SYM:
		star_value(c, it, &star);
		print_symbol(c, it);
		return;
	case I_PTR: {
		star_value(c, it, &star);
		uint64_t v = eval(c, it->arg);
		if (v)
			put_hex0x(c, v);
		else
			put(c, "(nil)", 5);
		return;
	}
	case I_MAC: {
		star_value(c, it, &star);
		if (!inside(c, (uint64_t)it->src.off, 6))
			return;
		const uint8_t *b = c->data + it->src.off;
		uint8_t mac[6];
		for (int i = 0; i < 6; i++)
			mac[i] = b[it->ext[1] == 'R' ? 5 - i : i];
		const char *sep = it->ext[0] == 'm' ? "" : it->ext[1] == 'F' ? "-" : ":";
		put_hex_bytes(c, mac, 6, sep, strlen(sep));
		return;
	}
	case I_IP4:
		star_value(c, it, &star);
		if (inside(c, (uint64_t)it->src.off, 4))
			put_ip4(c, it->ext[0] == 'i', ip4_reverse(c, it->ext[2]), c->data + it->src.off);
		return;
	case I_IP6:
		star_value(c, it, &star);
		if (inside(c, (uint64_t)it->src.off, 16))
			put_ip6(c, it->ext[0], it->ext[0] == 'I' && it->ext[2] == 'c', c->data + it->src.off);
		return;
	case I_IPSA:
		star_value(c, it, &star);
		print_ipsa(c, it);
		return;
	case I_UUID:
		star_value(c, it, &star);
		print_uuid(c, it);
		return;
	case I_HEXBUF: {
		/* The count is the '*' argument, 1 without one; libtraceevent
		 * compares it with the array's length as unsigned. */
		int n = 1;
		if (it->star != NONE)
			n = (int)eval(c, it->star);
		uint32_t off, len;
		locate(c, &it->src, &off, &len);
		if (len < (uint32_t)n)
			n = (int)len;
		if (n < 1 || !inside(c, off, (uint32_t)n))
			return;
		const char *sep = it->ext[1] == 'C' ? ":" : it->ext[1] == 'D' ? "-" : it->ext[1] == 'N' ? "" : " ";
		put_hex_bytes(c, c->data + off, (size_t)n, sep, strlen(sep));
		return;
	}
	default:
		c->bail = true;
		return;
	}
}

/* print_field_raw(): a field the print format does not print. */
static void print_field_raw(pf_ctx *c, struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_ARRAY) {
		uint32_t off, len;
		pf_src s = { .off = f->offset, .size = f->size };
		if (f->flags & TEP_FIELD_IS_DYNAMIC)
			pf_dyn_src(f, &s);
		locate(c, &s, &off, &len);
		if (!inside(c, off, len))
			return;
		const char *p = (const char *)c->data + off;
		bool printable = true;
		for (uint32_t k = 0; k < len && p[k]; k++)
			if (!isprint((unsigned char)p[k]) && !isspace((unsigned char)p[k])) {
				printable = false;
				break;
			}
		if ((f->flags & TEP_FIELD_IS_STRING) && printable) {
			const char *nul = memchr(p, '\0', (size_t)c->size - off);
			if (!nul) {
				c->bail = true;
				return;
			}
			put(c, p, (size_t)(nul - p));
			return;
		}
		put(c, "ARRAY[", 6);
		put_hex_bytes(c, (const uint8_t *)p, len, ", ", 2);
		putc1(c, ']');
		/* libtraceevent forgets from then on that the field is a
		 * string. */
		f->flags &= ~(unsigned long)TEP_FIELD_IS_STRING;
		return;
	}
	if (!inside(c, (uint64_t)f->offset, (uint64_t)f->size))
		return;
	uint64_t v = rd(c, (uint32_t)f->offset, f->size);
	pf_spec sp = { .conv = 'u', .bits = 64, .width = -1, .prec = -1 };
	if (f->flags & TEP_FIELD_IS_POINTER) {
		put_hex0x(c, v);
		return;
	}
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		sp.conv = 'd';
		switch (f->size) {
		case 4:
			if (f->flags & TEP_FIELD_IS_LONG) {
				put_hex0x(c, (uint32_t)v);
				return;
			}
			sp.bits = 32;
			break;
		case 2:
			sp.bits = 16;
			sp.width = 2;
			break;
		case 1:
			sp.bits = 8;
			sp.width = 1;
			break;
		}
	} else if (f->flags & TEP_FIELD_IS_LONG) {
		put_hex0x(c, v);
		return;
	}
	put_int(c, &sp, -1, v);
}

static int finish(pf_ctx *c, size_t mark)
{
	if (c->nomem)
		return TC_ENOMEM;
	if (c->bail) {
		c->out->len = mark;
		if (c->out->data)
			c->out->data[mark] = '\0';
		return 0;
	}
	if (c->out->data)
		c->out->data[c->out->len] = '\0';
	return 1;
}

/* " NAME=VALUE" for every field (print_selected_fields()): a field that a
 * conversion prints is printed that way, after "0x" when the text before
 * the conversion ends so; the search starts after the conversion that
 * printed the previous field and goes round. */
static void print_fields(pf_ctx *c)
{
	const pf_plan *pl = c->pl;
	size_t at = 0;
	for (struct tep_format_field *f = pl->ev->format.fields; f; f = f->next) {
		putc1(c, ' ');
		put(c, f->name, strlen(f->name));
		putc1(c, '=');
		/* After the last item matched, no item is looked at again. */
		if (!pl->failed && at < pl->n_items && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING))) {
			size_t i = at;
			bool has_0x = false, found = false;
			do {
				const pf_item *it = &pl->items[i];
				if (it->kind == I_TEXT && !it->field) {
					has_0x = it->len > 1 && memcmp(pl->text + it->text + it->len - 2, "0x", 2) == 0;
				} else if (it->field == f) {
					if (has_0x)
						put(c, "0x", 2);
					print_item(c, it);
					at = i + 1 < pl->n_items ? i + 1 : pl->n_items;
					found = true;
					break;
				} else {
					has_0x = false;
				}
				i = i + 1 < pl->n_items ? i + 1 : 0;
			} while (i != at);
			if (found)
				continue;
		}
		print_field_raw(c, f);
	}
}

int pf_print(const pf_plan *pl, tc_buf *out, const void *data, int size)
{
	if (pl->unsupported)
		return 0;
	pf_ctx c = { .pl = pl, .data = data, .size = size, .out = out };
	size_t mark = out->len;
	if (pl->failed) {
		put(&c, "[FAILED TO PARSE]", 17);
		print_fields(&c);
		return finish(&c, mark);
	}
	/* Text and numbers, most of the items, without print_item()'s call. */
	for (const pf_item *it = pl->items, *end = it + pl->n_items; it < end; it++) {
		if (it->kind == I_TEXT)
			put16(&c, pl->text + it->text, it->len);
		else if (it->kind == I_NUM && it->star == NONE)
			put_int(&c, &it->sp, -1, eval(&c, it->arg));
		else
			print_item(&c, it);
	}
	return finish(&c, mark);
}

bool pf_emulates_handler(const pf_plan *pl)
{
	return pl->handler != H_NONE;
}

/* Reads a handler's field (tep_read_number_field(), which does not look
 * at the record's size: the caller checked). */
static uint64_t hval(const pf_ctx *c, int slot)
{
	return rd(c, (uint32_t)c->pl->hf[slot].off, c->pl->hf[slot].size);
}

/* write_and_save_comm(): the comm, and libtraceevent told of it;
 * true when that taught it a new one.  Telling it again what it knows
 * changes nothing (tep_register_comm() does not override): KNOWN keeps
 * those pids; pid 0 is always "<idle>" to it. */
static bool put_comm(pf_ctx *c, int slot, uint64_t pid, uint8_t *known)
{
	const pf_hfield *f = &c->pl->hf[slot];
	const char *comm = (const char *)c->data + f->off;
	size_t n = strnlen(comm, (size_t)f->size);
	char copy[256];
	if (n >= sizeof copy) {
		c->bail = true;
		return false;
	}
	if (f->size >= 16)
		put16(c, comm, n);
	else
		put(c, comm, n);
	putc1(c, ':');
	int p = (int)pid;
	bool mapped = known && p > 0 && p < (1 << 22);
	if (!c->register_comms || p == 0 || (mapped && (known[p >> 3] >> (p & 7) & 1)))
		return false;
	memcpy(copy, comm, n);
	copy[n] = '\0';
	errno = 0;
	bool learnt = tep_register_comm(c->pl->tep, copy, p) == 0;
	if (mapped && (learnt || errno == EEXIST))
		known[p >> 3] |= (uint8_t)(1u << (p & 7));
	return learnt;
}

/* "%lld" of a handler's number as read (zero-extended). */
static const pf_spec handler_lld = { .conv = 'd', .bits = 64, .plain = true, .width = -1, .prec = -1 };

/* "COMM:PID [PRIO]" of the task in slots PID_SLOT, COMM_SLOT and
 * PRIO_SLOT, the comm where the event has one; true as put_comm(). */
static bool put_task(pf_ctx *c, int pid_slot, int comm_slot, int prio_slot, const pf_spec *prio, uint8_t *known)
{
	uint64_t pid = hval(c, pid_slot);
	bool learnt = c->pl->hf[comm_slot].size && put_comm(c, comm_slot, pid, known);
	put_int(c, &handler_lld, -1, pid);
	put(c, " [", 2);
	put_int(c, prio, -1, hval(c, prio_slot));
	putc1(c, ']');
	return learnt;
}

/* The plugin's write_state(): prev_state as letters, bit i of the low
 * eight the i-th letter.  libtraceevent 1.9's plugin names them as the
 * kernel has since Linux 4.14 (TASK_REPORT: X dead, Z zombie, P parked,
 * I idle); 1.7's kept the older "SDTtZXxW" (trace-cmd 3.4's text and
 * 3.1.6's, doc/formats/tracedat.md §11.3). */
static void put_state(pf_ctx *c, int state)
{
	const char *states = c->pl->tep19 ? "SDTtXZPI" : "SDTtZXxW";
	bool found = false;
	for (int i = 0; i < 8; i++) {
		if (!(state & (1 << i)))
			continue;
		if (found)
			putc1(c, '|');
		found = true;
		putc1(c, states[i]);
	}
	if (!found)
		putc1(c, 'R');
}

/* The kmem plugin's call_site_handler(): "(func+0xoff) " when the
 * caller's address is in a function, then the print format. */
static void print_kmem(pf_ctx *c)
{
	const pf_plan *pl = c->pl;
	if (pl->hf[HF_CALL_SITE].size) {
		unsigned long long v = hval(c, HF_CALL_SITE);
		const char *func;
		unsigned long long start;
		if (find_symbol(c, v, &func, &start)) {
			pf_spec x = { .conv = 'x', .bits = 32, .plain = true, .width = -1, .prec = -1 };
			putc1(c, '(');
			put(c, func, strlen(func));
			put(c, "+0x", 3);
			put_int(c, &x, -1, v - start);
			put(c, ") ", 2);
		}
	}
	for (size_t i = 0; i < pl->n_items; i++)
		print_item(c, &pl->items[i]);
}

/* The tlb plugin's tlb_flush_handler(). */
static void print_tlb(pf_ctx *c)
{
	static const char *const reasons[] = { "flush on task switch", "remote shootdown", "local shootdown",
		                               "local mm shootdown" };
	pf_spec ld = { .conv = 'd', .bits = 64, .plain = true, .width = -1, .prec = -1 };
	put(c, "pages=", 6);
	put_int(c, &ld, -1, hval(c, HF_PAGES));
	uint64_t reason = hval(c, HF_REASON);
	put(c, " reason=", 8);
	if (reason < sizeof reasons / sizeof reasons[0])
		put(c, reasons[reason], strlen(reasons[reason]));
	put(c, " (", 2);
	put_int(c, &ld, -1, reason);
	putc1(c, ')');
}

int pf_print_handler(const pf_plan *pl, tc_buf *out, const void *data, int size, uint8_t *known_pids,
                     bool register_comms)
{
	if (pl->handler == H_NONE || (pl->handler == H_KMEM && (pl->unsupported || pl->failed)))
		return 0;
	pf_ctx c = { .pl = pl, .data = data, .size = size, .out = out, .register_comms = register_comms };
	size_t mark = out->len;
	for (int i = 0; i < HF_COUNT; i++)
		if (pl->hf[i].size && !inside(&c, (uint64_t)pl->hf[i].off, (uint64_t)pl->hf[i].size))
			return finish(&c, mark);
	/* the plugin's "%d" of a number cast to int, and its "%03llu" */
	pf_spec d = { .conv = 'd', .bits = 32, .plain = true, .width = -1, .prec = -1 };
	pf_spec cpu = { .conv = 'u', .bits = 64, .width = 3, .prec = -1, .zero = true, .padded = true };
	bool learnt = false;
	if (pl->handler == H_KMEM) {
		print_kmem(&c);
	} else if (pl->handler == H_TLB) {
		print_tlb(&c);
	} else if (pl->handler == H_SCHED_WAKEUP) {
		learnt = put_task(&c, HF_PID, HF_COMM, HF_PRIO, &handler_lld, known_pids);
		if (pl->hf[HF_SUCCESS].size) {
			put(&c, " success=", 9);
			put_int(&c, &handler_lld, -1, hval(&c, HF_SUCCESS));
		}
		put(&c, " CPU:", 5);
		put_int(&c, &cpu, -1, hval(&c, HF_TARGET_CPU));
	} else {
		learnt = put_task(&c, HF_PREV_PID, HF_PREV_COMM, HF_PREV_PRIO, &d, known_pids);
		putc1(&c, ' ');
		put_state(&c, (int)hval(&c, HF_PREV_STATE));
		put(&c, " ==> ", 5);
		learnt |= put_task(&c, HF_NEXT_PID, HF_NEXT_COMM, HF_NEXT_PRIO, &d, known_pids);
	}
	int rc = finish(&c, mark);
	return rc == 1 && learnt ? 2 : rc;
}

int pf_print_fields(const pf_plan *pl, tc_buf *out, const void *data, int size)
{
	if (pl->broken)
		return 0;
	pf_ctx c = { .pl = pl, .data = data, .size = size, .out = out, .fields = true };
	size_t mark = out->len;
	print_fields(&c);
	return finish(&c, mark);
}
