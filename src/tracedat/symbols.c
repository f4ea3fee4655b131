/* SPDX-License-Identifier: MIT */
/*
 * symbols.c - a trace.dat file's kallsyms (doc/formats/tracedat.md §5) as
 * the model's symbol table: the tc_trace.symbol_at of the trace model.c
 * makes, behind tc_trace_symbol(), which writers call to name the code
 * addresses of kernel stack traces (TC_FIELD_CODE_ADDRESS).
 *
 * The names are the ones trace-cmd report prints for a stack frame
 * ("=> NAME (ADDR)"): libtraceevent's func_map, the symbols in the
 * reverse of the file's order (tep_parse_kallsyms() registers them so),
 * without "A" (absolute) and "$" (mapping) symbols, sorted by address with
 * qsort(), and looked up by the entry whose range, up to the next entry,
 * holds the address (the last entry holds its own address only).  The
 * table is read on the first look-up, once, whichever thread asks first:
 * printing and converting to CTF never need it.  Lines that are not
 * "ADDR TYPE NAME[\t[MODULE]]" are left out.
 */
#include "tracedat/model.h"

#include <stdlib.h>
#include <string.h>

static int symbol_cmp(const void *a, const void *b)
{
	const tc_symbol *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* func_bcmp(): the entry whose range holds the key's address. */
static int range_cmp(const void *a, const void *b)
{
	const tc_symbol *key = a, *f = b;
	if (key->addr == f->addr || (key->addr > f->addr && key->addr < f[1].addr))
		return 0;
	return key->addr < f->addr ? -1 : 1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Reads line [P, END) of the copy of kallsyms into *OUT: false when it
 * is not a symbol line, or a symbol libtraceevent does not register. */
static bool parse_line(char *p, char *end, tc_symbol *out)
{
	while (p < end && is_space(*p))
		p++;
	uint64_t addr = 0;
	int digits = 0;
	for (int h; digits < 16 && p < end && (h = hex_digit(*p)) >= 0; p++, digits++)
		addr = addr << 4 | (unsigned)h;
	if (!digits || p == end || !is_space(*p))
		return false;
	while (p < end && is_space(*p))
		p++;
	if (p == end)
		return false;
	char type = *p++;
	while (p < end && is_space(*p))
		p++;
	char *name = p;
	while (p < end && !is_space(*p))
		p++;
	if (p == name || name[0] == '$' || type == 'A' || type == 'a')
		return false;
	char *name_end = p, *module = NULL;
	if (p + 2 < end && p[0] == '\t' && p[1] == '[') {
		char *m_end = p + 2;
		while (m_end < end && !is_space(*m_end))
			m_end++;
		if (m_end[-1] == ']') {
			m_end[-1] = '\0';
			module = p + 2;
		}
	}
	*name_end = '\0';
	*out = (tc_symbol){ addr, name, module };
	return true;
}

/* T's table from its kallsyms: once read, T->symbols (and a zero entry
 * after the last); nothing when out of memory (no names then). */
static void read_symbols(td_trace *t)
{
	const tracedat_blob *b = &tracedat_meta_of(t->file)->kallsyms;
	size_t lines = 1;
	for (size_t i = 0; i < b->len; i++)
		lines += b->data[i] == '\n';
	char *text = malloc(b->len + 1);
	tc_symbol *map = malloc((lines + 1) * sizeof *map);
	if (!text || !map) {
		free(text);
		free(map);
		return;
	}
	memcpy(text, b->data, b->len);
	text[b->len] = '\0';
	size_t n = 0;
	for (char *p = text, *end = text + b->len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end;
		if (parse_line(p, le, &map[n]))
			n++;
		p = le + 1;
	}
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		tc_symbol s = map[i];
		map[i] = map[j - 1];
		map[j - 1] = s;
	}
	qsort(map, n, sizeof *map, symbol_cmp);
	map[n] = (tc_symbol){ 0 };
	t->symbol_text = text;
	t->symbols = map;
	t->symbol_count = n;
}

bool td_symbol_at(const tc_trace *trace, uint64_t addr, tc_symbol *out)
{
	td_trace *t = (td_trace *)((char *)trace - offsetof(td_trace, pub));
	if (!atomic_load_explicit(&t->symbols_read, memory_order_acquire)) {
		pthread_mutex_lock(&t->symbols_lock);
		if (!atomic_load_explicit(&t->symbols_read, memory_order_relaxed)) {
			read_symbols(t);
			atomic_store_explicit(&t->symbols_read, true, memory_order_release);
		}
		pthread_mutex_unlock(&t->symbols_lock);
	}
	tc_symbol key = { .addr = addr };
	const tc_symbol *s = t->symbol_count ? bsearch(&key, t->symbols, t->symbol_count, sizeof key, range_cmp) : NULL;
	if (s)
		*out = *s;
	return s != NULL;
}

void td_symbols_free(td_trace *t)
{
	free(t->symbols);
	free(t->symbol_text);
	pthread_mutex_destroy(&t->symbols_lock);
}
