/* SPDX-License-Identifier: MIT */
/*
 * printfmt_tables.c - the kernel's tables that print formats refer to, read
 * as libtraceevent reads them: the printk formats (constant strings by
 * address, for "%s" of a pointer-sized field) and kallsyms (names by
 * address, for %pS and the plugin handlers, and the addresses of names in
 * formats; read by kallsyms.c).  report.c reads them once a trace and
 * hands them to pf_compile() (printfmt_compile.c) and to libtraceevent;
 * the plans look them up through printfmt_plan.h.
 */
#include "tracedat/printfmt_plan.h"
#include "tracedat/kallsyms.h"

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
 * kallsyms: kallsyms.c's reading of them (libtraceevent's func_map),
 * strict: a line libtraceevent may read otherwise leaves the text to it.
 */

struct pf_kallsyms {
	td_kallsyms table;
};

int pf_kallsyms_parse(const char *text, pf_kallsyms **out)
{
	*out = NULL;
	pf_kallsyms *ks = malloc(sizeof *ks);
	if (!ks)
		return tc_fail_nomem();
	int rc = td_kallsyms_read(&ks->table, text, strlen(text), false);
	if (rc != 1) {
		free(ks);
		return rc < 0 ? tc_fail_nomem() : 0;
	}
	*out = ks;
	return 1;
}

size_t pf_kallsyms_count(const pf_kallsyms *ks)
{
	return ks->table.count;
}

void pf_kallsyms_at(const pf_kallsyms *ks, size_t i, uint64_t *addr, const char **func, const char **mod)
{
	*addr = ks->table.map[i].addr;
	*func = ks->table.map[i].name;
	*mod = ks->table.map[i].module;
}

void pf_kallsyms_free(pf_kallsyms *ks)
{
	if (!ks)
		return;
	td_kallsyms_free(&ks->table);
	free(ks);
}

char *pf_kallsyms_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const pf_kallsyms *ks = priv;
	const tc_symbol *f = td_kallsyms_find(&ks->table, *addrp);
	if (!f)
		return NULL;
	*addrp = f->addr;
	/* (tep_func_resolver_t's strings are not const; libtraceevent only
	 * reads them) */
	*modp = (char *)f->module;
	return (char *)f->name;
}

bool pf_kallsyms_address(const pf_kallsyms *ks, const char *name, uint64_t *addr)
{
	bool found = false;
	*addr = 0;
	for (size_t i = 0; i < ks->table.count; i++) {
		const tc_symbol *f = &ks->table.map[i];
		if (strcmp(f->name, name) != 0)
			continue;
		if (found && f->addr != *addr)
			return false;
		*addr = f->addr;
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
