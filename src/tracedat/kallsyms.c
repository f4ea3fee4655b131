/* SPDX-License-Identifier: MIT */
/*
 * kallsyms.c - a trace's kallsyms as libtraceevent's func_map (kallsyms.h):
 * built the way func_map_init() builds it from what tep_parse_kallsyms()
 * registers (the symbols in the reverse of the file's order, without "A"
 * and "a" (absolute) and "$" (mapping) symbols, sorted by address with
 * the same qsort() and comparison, an empty entry at the end), and looked
 * up with the same bsearch() and func_bcmp(): equal addresses (aliases)
 * give the same name as in libtraceevent.  Kernels write megabytes of it,
 * so lines are scanned eight bytes at a time and the sort is skipped for
 * text already in address order.
 */
#include "tracedat/kallsyms.h"

#include <stdlib.h>
#include <string.h>

static int symbol_cmp(const void *a, const void *b)
{
	const tc_symbol *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The characters a line is cut at: sscanf()'s spaces, and its end (the
 * newline, or a NUL, as after the last line).  Everything above ' ' is
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

static void ks_reverse(tc_symbol *a, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		tc_symbol t = a[i];
		a[i] = a[j - 1];
		a[j - 1] = t;
	}
}

int td_kallsyms_read(td_kallsyms *ks, const char *text, size_t len, bool lenient)
{
	*ks = (td_kallsyms){ 0 };
	size_t lines = 1;
	for (const char *nl = text; (nl = memchr(nl, '\n', len - (size_t)(nl - text))) != NULL; nl++)
		lines++;
	if (!(ks->text = malloc(len + 1 + 16)) || !(ks->map = malloc((lines + 1) * sizeof *ks->map))) {
		td_kallsyms_free(ks);
		return -1;
	}
	memcpy(ks->text, text, len);
	memset(ks->text + len, 0, 1 + 16);
	/* Lines as sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n") reads them in
	 * tep_parse_kallsyms(), for the plain form the kernel writes.
	 * Anything else (a sign, a 0x, a line cut short, where libtraceevent
	 * warns and stops) is inexact: left to libtraceevent, or, LENIENT,
	 * left out.  A line ends at the first KS_END. */
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
		uint64_t addr = 0;
		int digits = 0;
		uint32_t hi, lo;
		/* (the text has 16 bytes to read past the end) */
		if (ks_hex8(q, &hi) && ks_hex8(q + 8, &lo)) {
			addr = (uint64_t)hi << 32 | lo;
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
		char *name = q;
		q = ks_skip_other(q);
		if (q == name)
			goto inexact;
		char *name_end = q, *mod = NULL, *m_end = NULL;
		if (q[0] == '\t' && q[1] == '[') {
			char *m = q + 2;
			if (ks_class(*m) != KS_OTHER) {
				if (!lenient)
					goto inexact;
			} else {
				for (m_end = m; ks_class(*m_end) == KS_OTHER; m_end++)
					;
				q = m_end;
				if (!lenient || m_end[-1] == ']')
					mod = m;
			}
		}
		/* (the line's end before the NULs below can land on it) */
		char *le = *q == '\n' ? q : memchr(q, '\n', (size_t)(end - q));
		if (!le)
			le = end;
		if (mod)
			m_end[-1] = '\0';   /* the last character, its ']' */
		*name_end = '\0';
		if (name[0] != '$' && type != 'A' && type != 'a')
			ks->map[ks->count++] = (tc_symbol){ .addr = addr, .name = name, .module = mod };
		p = le + 1;
		continue;
inexact:
		if (!lenient) {
			td_kallsyms_free(ks);
			return 0;
		}
		char *nl = memchr(q, '\n', (size_t)(end - q));
		p = nl ? nl + 1 : end;
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
		qsort(ks->map, ks->count, sizeof *ks->map, symbol_cmp);
	}
	ks->map[ks->count] = (tc_symbol){ 0 };
	return 1;
}

void td_kallsyms_free(td_kallsyms *ks)
{
	free(ks->map);
	free(ks->text);
	*ks = (td_kallsyms){ 0 };
}

const tc_symbol *td_kallsyms_find(const td_kallsyms *ks, uint64_t addr)
{
	/* glibc's bsearch() with func_bcmp(), written out: the same probes,
	 * so among aliases the same entry, without a call a probe. */
	for (size_t l = 0, u = ks->count; l < u;) {
		size_t i = (l + u) / 2;
		const tc_symbol *m = &ks->map[i];
		if (addr == m->addr || (addr > m->addr && addr < m[1].addr))
			return m;
		if (addr < m->addr)
			u = i;
		else
			l = i + 1;
	}
	return NULL;
}
