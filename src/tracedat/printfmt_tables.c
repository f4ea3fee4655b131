/* SPDX-License-Identifier: MIT */
/*
 * printfmt_tables.c - the kernel's tables that print formats refer to, read
 * as libtraceevent reads them: the printk formats (constant strings by
 * address, for "%s" of a pointer-sized field) and kallsyms (names by
 * address, for %pS and the plugin handlers, and the addresses of names in
 * formats).  report.c reads them once a trace and hands them to
 * pf_compile() (printfmt_compile.c) and to libtraceevent; the plans look
 * them up through printfmt_plan.h.
 */
#include "tracedat/printfmt_plan.h"

#include <event-parse.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The printk formats: kernel strings by address. */
typedef struct pf_kstring {
	uint64_t addr;
	const char *text;
} pf_kstring;

struct pf_strings {
	pf_kstring *by_addr;
	size_t count;
	char *text;              /* the strings, one after the other */
};

/* ------------------------------------------------------------------------
 * The printk formats
 */

static int kstring_cmp(const void *a, const void *b)
{
	const pf_kstring *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

pf_strings *pf_strings_parse(const char *text)
{
	pf_strings *st = calloc(1, sizeof *st);
	size_t len = text ? strlen(text) : 0, lines = 0;
	if (!st || !(st->text = malloc(len + 1))) {
		free(st);
		tc_fail_nomem();
		return NULL;
	}
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	st->by_addr = malloc((lines + 1) * sizeof *st->by_addr);
	if (!st->by_addr) {
		pf_strings_free(st);
		tc_fail_nomem();
		return NULL;
	}
	/* tep_parse_printk_formats(): "ADDR : STRING" lines; the address in
	 * hex, then one character skipped after the colon; the string loses
	 * a leading and a trailing quote, then a "\n" before that quote. */
	char *out = st->text;
	for (const char *p = text; p && p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		const char *end = nl ? nl : text + len;
		const char *q = p;
		while (q < end && *q == ':')
			q++;
		const char *colon = memchr(q, ':', (size_t)(end - q));
		/* A line without a string after its colon: libtraceevent reads
		 * past it; left out here. */
		if (q < end && colon && colon + 1 < end) {
			uint64_t addr = strtoull(q, NULL, 16);
			const char *str = colon + 2, *stop = end;
			if (str < stop && *str == '"')
				str++;
			/* (the "\n" only goes when the quote went: libtraceevent
			 * looks for it two characters before the last one) */
			if (stop > str && stop[-1] == '"') {
				stop--;
				if (stop - str >= 2 && stop[-2] == '\\' && stop[-1] == 'n')
					stop -= 2;
			}
			size_t n = str < stop ? (size_t)(stop - str) : 0;
			memcpy(out, str, n);
			out[n] = '\0';
			st->by_addr[st->count++] = (pf_kstring){ .addr = addr, .text = out };
			out += n + 1;
		}
		p = end + 1;
	}
	/* The order of libtraceevent's list, the last registered first, so
	 * that equal addresses sort as in its printk_map. */
	for (size_t i = 0, j = st->count; i + 1 < j; i++, j--) {
		pf_kstring t = st->by_addr[i];
		st->by_addr[i] = st->by_addr[j - 1];
		st->by_addr[j - 1] = t;
	}
	qsort(st->by_addr, st->count, sizeof *st->by_addr, kstring_cmp);
	return st;
}

size_t pf_strings_count(const pf_strings *st)
{
	return st->count;
}

void pf_strings_at(const pf_strings *st, size_t i, uint64_t *addr, const char **text)
{
	*addr = st->by_addr[i].addr;
	*text = st->by_addr[i].text;
}

void pf_strings_free(pf_strings *st)
{
	if (!st)
		return;
	free(st->by_addr);
	free(st->text);
	free(st);
}

const char *pf_strings_find(const pf_strings *st, uint64_t addr)
{
	pf_kstring key = { .addr = addr };
	const pf_kstring *k = bsearch(&key, st->by_addr, st->count, sizeof key, kstring_cmp);
	return k ? k->text : NULL;
}

/* ------------------------------------------------------------------------
 * kallsyms
 *
 * libtraceevent's func_map, built the way func_map_init() builds it from
 * what tep_parse_kallsyms() registers: the symbols in the reverse of the
 * file's order, sorted by address with the same qsort() and comparison,
 * an empty entry at the end; looked up with the same bsearch().  Equal
 * addresses (aliases) therefore give the same name as in libtraceevent.
 */

typedef struct pf_func {
	unsigned long long addr;
	char *func, *mod;
} pf_func;

struct pf_kallsyms {
	pf_func *map;            /* count + 1 entries */
	size_t count;
	char *text;              /* the names, cut out of a copy of the file */
	pf_func found;           /* what the resolver returns points here */
};

static int func_cmp(const void *a, const void *b)
{
	const pf_func *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The characters a line is cut at: sscanf()'s spaces, and its end (the
 * newline, or the NUL after the last line).  Everything above ' ' is
 * neither: one comparison for most characters. */
enum { KS_OTHER, KS_SPACE, KS_END };

static inline int ks_class(char c)
{
	if ((unsigned char)c > ' ')
		return KS_OTHER;
	if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r')
		return KS_SPACE;
	return c == '\n' || c == '\0' ? KS_END : KS_OTHER;
}

static int ks_hex(char c)
{
	unsigned d = (unsigned)(unsigned char)c - '0', l = ((unsigned)(unsigned char)c | 0x20u) - 'a';
	return d < 10 ? (int)d : l < 6 ? (int)l + 10 : -1;
}

/* Bytes of X strictly between M and N (M, N < 128): 0x80 in each such
 * byte (the bit-twiddling "hasbetween", exact per byte). */
static inline uint64_t ks_between(uint64_t x, unsigned m, unsigned n)
{
	const uint64_t ones = UINT64_C(0x0101010101010101), low7 = ones * 127;
	return (ones * (127 + n) - (x & low7)) & ~x & ((x & low7) + ones * (127 - m)) & ones * 128;
}

/* The 8 hexadecimal digits at S as a number; false if one is not a
 * digit.  Eight at once: the kernel writes every address with 16. */
static inline bool ks_hex8(const char *s, uint32_t *out)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	uint64_t x;
	memcpy(&x, s, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	uint64_t ok = ks_between(x, '0' - 1, '9' + 1) | ks_between(x, 'a' - 1, 'f' + 1) | ks_between(x, 'A' - 1, 'F' + 1);
	if (ok != ones * 128)
		return false;
	/* each byte its digit's value ('a' and 'A' have bit 6: + 9), then
	 * the first byte (the highest digit) moved to the top */
	uint64_t n = (x & ones * 15) + ((x >> 6) & ones) * 9;
	n = ((n << 4) | (n >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
	n = ((n << 8) | (n >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
	*out = (uint32_t)((n << 16) | (n >> 32));
	return true;
}

/* The first character at or after Q that is not KS_OTHER: a name's end.
 * Eight at a time, a byte below '!' marking where to look closer (the
 * text has 16 bytes to read past its end). */
static inline char *ks_skip_other(char *q)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	for (;;) {
		uint64_t x;
		memcpy(&x, q, 8);
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		x = __builtin_bswap64(x);
#endif
		uint64_t low = (x - ones * '!') & ~x & ones * 128;
		if (!low) {
			q += 8;
			continue;
		}
		q += __builtin_ctzll(low) / 8;
		if (ks_class(*q) != KS_OTHER)
			return q;
		q++;
	}
}

static void ks_reverse(pf_func *a, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		pf_func t = a[i];
		a[i] = a[j - 1];
		a[j - 1] = t;
	}
}

int pf_kallsyms_parse(const char *text, pf_kallsyms **out)
{
	*out = NULL;
	size_t len = strlen(text), lines = 1;
	for (const char *nl = text; (nl = memchr(nl, '\n', len - (size_t)(nl - text))) != NULL; nl++)
		lines++;
	pf_kallsyms *ks = calloc(1, sizeof *ks);
	if (!ks || !(ks->text = calloc(len + 1 + 16, 1)) || !(ks->map = malloc((lines + 1) * sizeof *ks->map))) {
		pf_kallsyms_free(ks);
		return tc_fail_nomem();
	}
	memcpy(ks->text, text, len + 1);
	/* Lines as sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n") reads them in
	 * tep_parse_kallsyms(), for the plain form the kernel writes:
	 * "ADDR TYPE NAME" and maybe "\t[MODULE]".  Anything else (a sign,
	 * a 0x, a line cut short, where libtraceevent warns and stops) is
	 * left to libtraceevent: 0.  The text has no NUL before its end, so
	 * a line ends at the first KS_END. */
	for (char *p = ks->text, *end = ks->text + len; p < end;) {
		if (*p == '\n') {   /* strtok_r() skips empty lines */
			p++;
			continue;
		}
		char *q = p;
		while (ks_class(*q) == KS_SPACE)
			q++;
		if (ks_class(*q) == KS_END)
			goto inexact;
		unsigned long long addr = 0;
		int digits = 0;
		uint32_t hi, lo;
		/* (the text has 16 bytes to read past the end) */
		if (ks_hex8(q, &hi) && ks_hex8(q + 8, &lo)) {
			addr = (unsigned long long)hi << 32 | lo;
			digits = 16;
			q += 16;
		}
		for (int h; digits < 16 && (h = ks_hex(*q)) >= 0; q++, digits++)
			addr = addr << 4 | (unsigned)h;
		/* (also "0x": sscanf() would read the 0 and stop at the x) */
		if (!digits || ks_class(*q) != KS_SPACE)
			goto inexact;
		while (ks_class(*q) == KS_SPACE)
			q++;
		if (ks_class(*q) == KS_END)
			goto inexact;
		char type = *q++;
		while (ks_class(*q) == KS_SPACE)
			q++;
		char *func = q;
		q = ks_skip_other(q);
		if (q == func)
			goto inexact;
		char *func_end = q, *mod = NULL, *m_end = NULL;
		if (q[0] == '\t' && q[1] == '[') {
			char *m = q + 2;
			if (ks_class(*m) != KS_OTHER)
				goto inexact;
			m_end = m;
			while (ks_class(*m_end) == KS_OTHER)
				m_end++;
			mod = m;
			q = m_end;
		}
		/* (the line's end before the NULs below can land on it) */
		char *le = *q == '\n' ? q : memchr(q, '\n', (size_t)(end - q));
		if (!le)
			le = end;
		if (mod)
			m_end[-1] = '\0';   /* the last character, its ']' */
		*func_end = '\0';
		if (func[0] != '$' && type != 'A' && type != 'a')
			ks->map[ks->count++] = (pf_func){ .addr = addr, .func = func, .mod = mod };
		p = le + 1;
	}
	/* The order of libtraceevent's list is the reverse of the file's (the
	 * last registered first), which it sorts by address with glibc's
	 * qsort(), a merge sort, stable: equal addresses stay last-first.
	 * The kernel writes kallsyms in address order (modules aside): then
	 * that is the file's order with each run of equal addresses
	 * reversed, without the sort. */
	bool sorted = true;
	for (size_t i = 1; i < ks->count && sorted; i++)
		sorted = ks->map[i - 1].addr <= ks->map[i].addr;
	if (sorted) {
		for (size_t i = 0, j; i < ks->count; i = j) {
			for (j = i + 1; j < ks->count && ks->map[j].addr == ks->map[i].addr; j++)
				;
			ks_reverse(ks->map + i, j - i);
		}
	} else {
		ks_reverse(ks->map, ks->count);
		qsort(ks->map, ks->count, sizeof *ks->map, func_cmp);
	}
	ks->map[ks->count] = (pf_func){ 0 };
	*out = ks;
	return 1;
inexact:
	pf_kallsyms_free(ks);
	return 0;
}

size_t pf_kallsyms_count(const pf_kallsyms *ks)
{
	return ks->count;
}

void pf_kallsyms_at(const pf_kallsyms *ks, size_t i, uint64_t *addr, const char **func, const char **mod)
{
	*addr = ks->map[i].addr;
	*func = ks->map[i].func;
	*mod = ks->map[i].mod;
}

void pf_kallsyms_free(pf_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->map);
	free(ks->text);
	free(ks);
}

char *pf_kallsyms_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	pf_kallsyms *ks = priv;
	unsigned long long key = *addrp;
	/* glibc's bsearch() with libtraceevent's func_bcmp() (the entry
	 * whose range, up to the next entry, holds the address), written
	 * out: the same probes, so among aliases the same entry. */
	const pf_func *f = NULL;
	for (size_t l = 0, u = ks->count; l < u;) {
		size_t i = (l + u) / 2;
		const pf_func *m = &ks->map[i];
		if (key == m->addr || (key > m->addr && key < m[1].addr)) {
			f = m;
			break;
		}
		if (key < m->addr)
			u = i;
		else
			l = i + 1;
	}
	if (!f)
		return NULL;
	*addrp = f->addr;
	*modp = f->mod;
	return f->func;
}

bool pf_kallsyms_address(const pf_kallsyms *ks, const char *name, uint64_t *addr)
{
	bool found = false;
	*addr = 0;
	for (size_t i = 0; i < ks->count; i++) {
		if (strcmp(ks->map[i].func, name) != 0)
			continue;
		if (found && ks->map[i].addr != *addr)
			return false;
		*addr = ks->map[i].addr;
		found = true;
	}
	return true;
}

/* Whether A holds an atom that is not a number: test_for_symbol()
 * looks such names up in libtraceevent's list of functions. */
static bool arg_names_symbol(const struct tep_print_arg *a)
{
	if (!a)
		return false;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return a->atom.atom && !isdigit((unsigned char)a->atom.atom[0]) && !strtoull(a->atom.atom, NULL, 0);
	case TEP_PRINT_FLAGS:
		return arg_names_symbol(a->flags.field);
	case TEP_PRINT_SYMBOL:
		return arg_names_symbol(a->symbol.field);
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		return arg_names_symbol(a->hex.field) || arg_names_symbol(a->hex.size);
	case TEP_PRINT_INT_ARRAY:
		return arg_names_symbol(a->int_array.field) || arg_names_symbol(a->int_array.count) ||
		       arg_names_symbol(a->int_array.el_size);
	case TEP_PRINT_TYPE:
		return arg_names_symbol(a->typecast.item);
	case TEP_PRINT_OP:
		return arg_names_symbol(a->op.left) || arg_names_symbol(a->op.right);
	case TEP_PRINT_FUNC:
		for (const struct tep_print_arg *f = a->func.args; f; f = f->next)
			if (arg_names_symbol(f))
				return true;
		return false;
	default:
		return false;
	}
}

bool pf_names_symbols(const struct tep_event *ev)
{
	for (const struct tep_print_arg *a = ev->print_fmt.args; a; a = a->next)
		if (arg_names_symbol(a))
			return true;
	return false;
}
