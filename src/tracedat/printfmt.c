/* SPDX-License-Identifier: MIT */
/*
 * printfmt.c - ftrace print formats compiled into native formatting plans
 * (see printfmt.h).
 *
 * The compiler walks libtraceevent's parse of the print format: the format
 * text is cut into pieces exactly as libtraceevent's parse_args() cuts it
 * (literal runs, conversions, ">c<" for a conversion letter it does not
 * know), and each conversion's argument, a tree of struct tep_print_arg,
 * becomes an expression over the record: what eval_num_arg() computes
 * for numbers, what print_str_arg() prints for %s, what
 * print_arg_pointer() prints for %p and its extensions.  The plan keeps
 * everything in arrays indexed by number (items, expressions, string
 * arguments, flag and symbol tables, text), so it is a handful of
 * allocations however long the format.
 *
 * What libtraceevent does, and so what the plan does, in the places where
 * a reader would guess otherwise:
 *   - numbers are computed in 64-bit unsigned arithmetic (shifts by the
 *     low 6 bits of the count, as the machine does), cast for printf by
 *     the conversion's length ("hh" char .. "ll" long long), and a cast in
 *     the format only masks (u8, short, int, ...: never sign-extends);
 *   - REC->a[i] reads element i of a fixed array field, but
 *     __get_dynamic_array(a)[i] reads at byte i of the dynamic array;
 *   - %s of a number field prints its bytes up to a NUL; %s of a cast
 *     prints nothing; a flag or symbol table entry whose value is not a
 *     number (and not one of a few softirq and hrtimer names) counts -1;
 *   - %c is not a conversion to libtraceevent 1.7.1: it prints ">c<" and
 *     leaves the argument to the next conversion;
 *   - %p prints "(nil)" or 0x and lowercase hex whatever its flags;
 *     %pS and %pF add "+0x" and the offset to the symbol;
 *   - the '0' flag pads strings and characters with spaces (glibc).
 * A conversion of a record that libtraceevent would print only with a
 * warning on stderr (a field beyond the record) or by reading past the
 * record gives up on the record (pf_print() returns 0): libtraceevent then
 * prints it, warning included.  Division by anything but a non-zero
 * constant is not compiled (libtraceevent would die of SIGFPE on a zero).
 */
#include "tracedat/printfmt.h"

#include "text/format.h"

#include <event-parse.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define NONE UINT32_MAX

/* ------------------------------------------------------------------------
 * The plan
 */

/* A printf conversion as glibc reads it. */
typedef struct pf_spec {
	char conv;               /* d i u x X o s */
	uint8_t bits;            /* the length's width: 8 16 32 64 */
	bool left, plus, alt, zero;
	bool star_width, star_prec;  /* '*': from the item's star argument */
	bool plain;              /* %d %i %u %x %X with no flag, width or precision */
	int32_t width, prec;     /* -1: none */
} pf_spec;

/* Expressions (eval_num_arg()). */
enum {
	E_CONST,                 /* k */
	E_FIELD,                 /* SIZE bytes at OFF (0 unless 1, 2, 4 or 8) */
	E_ELEM,                  /* REC->field[a]: SIZE bytes at OFF + a * ELSIZE, & k */
	E_DYN_ELEM,              /* __get_dynamic_array(f)[a]: SIZE bytes at byte a, & k */
	E_DYN_LEN,               /* __get_dynamic_array_len(f) */
	E_MASK,                  /* a & k: a cast */
	E_OP,                    /* a OP b */
	E_COND,                  /* a ? b : c */
};

enum {
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_SHL, OP_SHR, OP_AND, OP_OR,
	OP_LAND, OP_LOR, OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE, OP_NOT, OP_COMPL,
};

/* Where some bytes of the record are: a fixed field, or a dynamic one
 * through its __data_loc / __rel_loc word. */
typedef struct pf_src {
	bool dyn, rel;
	int32_t off, size;       /* the field (dyn: the location word) */
} pf_src;

typedef struct pf_expr {
	uint8_t kind, op;
	pf_src src;              /* E_FIELD, E_ELEM (fixed), E_DYN_* */
	int32_t size;            /* bytes read: E_ELEM, E_DYN_ELEM */
	uint32_t elsize;         /* E_ELEM */
	uint32_t a, b, c;
	uint64_t k;
} pf_expr;

/* String arguments (print_str_arg()). */
enum {
	S_NONE,                  /* prints nothing */
	S_TEXT,                  /* a literal */
	S_BYTES,                 /* a field's bytes up to a NUL (size 0: the rest) */
	S_DSTR,                  /* __get_str */
	S_FLAGS,                 /* __print_flags */
	S_SYMBOLS,               /* __print_symbolic */
	S_HEX,                   /* __print_hex */
	S_HEX_STR,               /* __print_hex_str */
	S_INT_ARRAY,             /* __print_array */
	S_BITMASK,               /* __get_bitmask */
	S_CPUMASK,               /* __get_cpumask */
	S_COND,                  /* expr ? then : other */
	S_PRINTK,                /* a kernel string's address, by the printk formats */
};

typedef struct pf_sarg {
	uint8_t kind;
	pf_src src;
	uint32_t text, len;      /* S_TEXT; S_FLAGS: the delimiter (NONE: none) */
	uint32_t expr;           /* S_FLAGS, S_SYMBOLS: the value; S_COND: the condition;
	                          * S_HEX*: the length; S_INT_ARRAY: the count */
	uint32_t expr2;          /* S_INT_ARRAY: the element size */
	uint32_t first, count;   /* S_FLAGS, S_SYMBOLS: entries; S_COND: the two sargs */
} pf_sarg;

typedef struct pf_sym {
	int64_t value;
	uint32_t text, len;
} pf_sym;

/* Pieces of the output (parse_args()'s items). */
enum {
	I_TEXT,                  /* literal text */
	I_NUM,                   /* an integer conversion of expression ARG */
	I_STR,                   /* %s of string argument ARG */
	I_SYM,                   /* %pS %ps %pF %pf */
	I_PTR,                   /* plain %p */
	I_MAC, I_IP4, I_IP6, I_IPSA, I_UUID, I_HEXBUF,
	I_UNSUPPORTED,           /* left to libtraceevent */
};

typedef struct pf_item {
	uint8_t kind;
	char ext[6];             /* pointers: the letters after 'p' */
	pf_spec sp;
	pf_src src;              /* I_MAC .. I_HEXBUF */
	uint32_t text, len;      /* I_TEXT */
	uint32_t arg;            /* expression (I_NUM, I_SYM, I_PTR) or string argument (I_STR) */
	uint32_t star;           /* expression of the '*' argument, or NONE */
	/* The field the argument is (after casts): -R prints the field so. */
	const struct tep_format_field *field;
} pf_item;

/* Plugin handlers: the sched_switch plugin's for sched_switch and for
 * sched_wakeup(_new); the kmem plugin's (the allocation's caller, then
 * the print format) for kfree, kmalloc(_node), kmem_cache_alloc(_node)
 * and kmem_cache_free; the tlb plugin's for tlb_flush. */
enum { H_NONE, H_SCHED_SWITCH, H_SCHED_WAKEUP, H_KMEM, H_TLB };

/* A field the handler reads: where, and how wide (0: absent). */
typedef struct pf_hfield {
	int32_t off, size;
} pf_hfield;

enum {
	HF_PID, HF_COMM, HF_PRIO, HF_SUCCESS, HF_TARGET_CPU,          /* wakeup */
	HF_PREV_PID = 0, HF_PREV_COMM, HF_PREV_PRIO, HF_PREV_STATE,   /* switch */
	HF_NEXT_PID, HF_NEXT_COMM, HF_NEXT_PRIO,
	HF_CALL_SITE = 0,                                             /* kmem */
	HF_PAGES = 0, HF_REASON,                                      /* tlb */
	HF_COUNT = 7,
};

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

struct pf_plan {
	struct tep_handle *tep;
	const pf_strings *printk;
	const pf_kallsyms *kallsyms;
	struct tep_event *ev;
	bool swap;               /* the file's byte order is not ours */
	bool file_big;
	int long_size;
	bool failed;             /* libtraceevent could not parse the format */
	bool broken;             /* cut into other pieces than libtraceevent's */
	bool symbols;
	const char *unsupported;
	pf_item *items;
	pf_expr *exprs;
	pf_sarg *sargs;
	pf_sym *syms;
	char *text;
	size_t n_items, n_exprs, n_sargs, n_syms, text_len;
	size_t cap_items, cap_exprs, cap_sargs, cap_syms, cap_text;
	bool nomem;
	uint8_t handler;         /* H_*: the plugin handler emulated */
	pf_hfield hf[HF_COUNT];
	bool tep19;              /* libtraceevent 1.9's texts (pf_set_tep19()) */
	bool may_nul;            /* a %c, which may print a NUL */
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

static const char *pf_strings_find(const pf_strings *st, uint64_t addr)
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

/* func_bcmp(): the entry whose range (up to the next entry) holds the
 * address. */
static int func_range_cmp(const void *a, const void *b)
{
	const pf_func *key = a, *f = b;
	if (key->addr == f->addr || (key->addr > f->addr && key->addr < f[1].addr))
		return 0;
	return key->addr < f->addr ? -1 : 1;
}

static bool ks_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static int ks_hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int pf_kallsyms_parse(const char *text, pf_kallsyms **out)
{
	*out = NULL;
	size_t len = strlen(text), lines = 1;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	pf_kallsyms *ks = calloc(1, sizeof *ks);
	if (!ks || !(ks->text = malloc(len + 1)) || !(ks->map = malloc((lines + 1) * sizeof *ks->map))) {
		pf_kallsyms_free(ks);
		return tc_fail_nomem();
	}
	memcpy(ks->text, text, len + 1);
	/* Lines as sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n") reads them in
	 * tep_parse_kallsyms(), for the plain form the kernel writes:
	 * "ADDR TYPE NAME" and maybe "\t[MODULE]".  Anything else (a sign,
	 * a 0x, a line cut short, where libtraceevent warns and stops) is
	 * left to libtraceevent: 0. */
	for (char *p = ks->text, *end = ks->text + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end;
		if (p == le) {   /* strtok_r() skips empty lines */
			p = le + 1;
			continue;
		}
		char *q = p;
		while (q < le && ks_space(*q))
			q++;
		if (q == le)
			goto inexact;
		unsigned long long addr = 0;
		int digits = 0;
		for (int h; digits < 16 && q < le && (h = ks_hex(*q)) >= 0; q++, digits++)
			addr = addr << 4 | (unsigned)h;
		if (!digits || q == le || !ks_space(*q) || (digits == 1 && (*q == 'x' || *q == 'X')))
			goto inexact;
		while (q < le && ks_space(*q))
			q++;
		if (q == le)
			goto inexact;
		char type = *q++;
		while (q < le && ks_space(*q))
			q++;
		char *func = q;
		while (q < le && !ks_space(*q))
			q++;
		if (q == func)
			goto inexact;
		char *func_end = q, *mod = NULL;
		if (q + 1 < le && q[0] == '\t' && q[1] == '[') {
			char *m = q + 2;
			if (m == le || ks_space(*m))
				goto inexact;
			char *m_end = m;
			while (m_end < le && !ks_space(*m_end))
				m_end++;
			m_end[-1] = '\0';   /* the last character, its ']' */
			mod = m;
		}
		*func_end = '\0';
		if (func[0] != '$' && type != 'A' && type != 'a')
			ks->map[ks->count++] = (pf_func){ .addr = addr, .func = func, .mod = mod };
		p = le + 1;
	}
	/* The order of libtraceevent's list: the last registered first. */
	for (size_t i = 0, j = ks->count; i + 1 < j; i++, j--) {
		pf_func t = ks->map[i];
		ks->map[i] = ks->map[j - 1];
		ks->map[j - 1] = t;
	}
	qsort(ks->map, ks->count, sizeof *ks->map, func_cmp);
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
	pf_func key = { .addr = *addrp };
	const pf_func *f = ks->count ? bsearch(&key, ks->map, ks->count, sizeof key, func_range_cmp) : NULL;
	if (!f)
		return NULL;
	*addrp = f->addr;
	*modp = f->mod;
	return f->func;
}

/* The address test_for_symbol() finds for NAME: false when which of
 * several symbols of that name it finds first depends on its state. */
static bool kallsyms_address(const pf_kallsyms *ks, const char *name, uint64_t *addr)
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

/* ------------------------------------------------------------------------
 * Building the plan
 */

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 8;
	while (c < need)
		c *= 2;
	void *p = realloc(*arr, c * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = c;
	return true;
}

#define PUSH(pl, name, value)                                                                        \
	(grow((void **)&(pl)->name##s, &(pl)->cap_##name##s, (pl)->n_##name##s + 1, sizeof *(pl)->name##s) \
	         ? ((pl)->name##s[(pl)->n_##name##s] = (value), (uint32_t)(pl)->n_##name##s++)            \
	         : ((pl)->nomem = true, NONE))

static uint32_t add_text(pf_plan *pl, const char *s, size_t n)
{
	if (!grow((void **)&pl->text, &pl->cap_text, pl->text_len + n + 1, 1)) {
		pl->nomem = true;
		return 0;
	}
	uint32_t at = (uint32_t)pl->text_len;
	memcpy(pl->text + at, s, n);
	pl->text_len += n;
	pl->text[pl->text_len] = '\0';
	return at;
}

/* Records the first reason the text cannot be native; returns NONE. */
static uint32_t unsupported(pf_plan *pl, const char *why)
{
	if (!pl->unsupported)
		pl->unsupported = why;
	return NONE;
}

static uint32_t add_const(pf_plan *pl, uint64_t k)
{
	return PUSH(pl, expr, ((pf_expr){ .kind = E_CONST, .k = k }));
}

static struct tep_format_field *arg_field(pf_plan *pl, struct tep_print_arg *a)
{
	struct tep_format_field *f = a->field.field;
	return f ? f : tep_find_any_field(pl->ev, a->field.name);
}

/* eval_type_str(): the mask a cast to TYPE applies; 0 when libtraceevent
 * would warn. */
static uint64_t cast_mask(const char *type, bool pointer)
{
	size_t len = strlen(type);
	if (len < 2)
		return 0;
	if (pointer) {
		/* The type pointed to: "T *" less its last two characters. */
		if (type[len - 1] != '*')
			return 0;
		char ref[128];
		if (len - 2 >= sizeof ref)
			return 0;
		memcpy(ref, type, len - 2);
		ref[len - 2] = '\0';
		return cast_mask(ref, false);
	}
	if (type[len - 1] == '*' || strncmp(type, "struct", 6) == 0)
		return ~(uint64_t)0;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		return 0xff;
	if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		return 0xffff;
	if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		return 0xffffffff;
	if (strncmp(type, "unsigned ", 9) == 0)
		type += 9;
	if (!strcmp(type, "char"))
		return 0xff;
	if (!strcmp(type, "short"))
		return 0xffff;
	if (!strcmp(type, "int"))
		return 0xffffffff;
	return ~(uint64_t)0;
}

static bool dyn_src(struct tep_format_field *f, pf_src *s)
{
	if (!f)
		return false;
	*s = (pf_src){ .dyn = true, .rel = (f->flags & TEP_FIELD_IS_RELATIVE) != 0, .off = f->offset, .size = f->size };
	return true;
}

static int op_code(const char *op)
{
	static const char *const names[] = {
		[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%",
		[OP_SHL] = "<<", [OP_SHR] = ">>", [OP_AND] = "&", [OP_OR] = "|", [OP_LAND] = "&&",
		[OP_LOR] = "||", [OP_LT] = "<", [OP_GT] = ">", [OP_LE] = "<=", [OP_GE] = ">=",
		[OP_EQ] = "==", [OP_NE] = "!=", [OP_NOT] = "!", [OP_COMPL] = "~",
	};
	for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
		if (!strcmp(op, names[i]))
			return i;
	return -1;
}

/* An expression for A as eval_num_arg() evaluates it; NONE when not
 * compiled. */
static uint32_t compile_num(pf_plan *pl, struct tep_print_arg *a)
{
	if (!a)
		return add_const(pl, 0);
	switch (a->type) {
	case TEP_PRINT_NULL:
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
	case TEP_PRINT_INT_ARRAY:
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
	case TEP_PRINT_STRING:
	case TEP_PRINT_BSTRING:
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK:
		return add_const(pl, 0);
	case TEP_PRINT_ATOM: {
		const char *s = a->atom.atom;
		uint64_t v = strtoull(s, NULL, 0);
		/* A zero that is not a number is a kernel symbol's name,
		 * which libtraceevent looks up in kallsyms (test_for_symbol():
		 * the first of that name in its list, 0 if none). */
		if (!v && !isdigit((unsigned char)s[0]) && (!pl->kallsyms || !kallsyms_address(pl->kallsyms, s, &v)))
			return unsupported(pl, "a name in an expression");
		return add_const(pl, v);
	}
	case TEP_PRINT_FIELD: {
		struct tep_format_field *f = arg_field(pl, a);
		if (!f)
			return unsupported(pl, "an unknown field");
		return PUSH(pl, expr, ((pf_expr){ .kind = E_FIELD, .src = { .off = f->offset, .size = f->size } }));
	}
	case TEP_PRINT_TYPE: {
		uint64_t mask = cast_mask(a->typecast.type, false);
		if (!mask)
			return unsupported(pl, "a cast to an odd type");
		uint32_t x = compile_num(pl, a->typecast.item);
		if (x == NONE || mask == ~(uint64_t)0)
			return x;
		return PUSH(pl, expr, ((pf_expr){ .kind = E_MASK, .a = x, .k = mask }));
	}
	case TEP_PRINT_DYNAMIC_ARRAY_LEN: {
		pf_expr e = { .kind = E_DYN_LEN };
		if (!dyn_src(a->dynarray.field, &e.src))
			return unsupported(pl, "an unknown field");
		return PUSH(pl, expr, e);
	}
	case TEP_PRINT_DYNAMIC_ARRAY:
		return unsupported(pl, "the address of a dynamic array");
	case TEP_PRINT_FUNC:
		return unsupported(pl, "a function a plugin defines");
	case TEP_PRINT_OP:
		break;
	default:
		return unsupported(pl, "an unknown argument");
	}

	const char *op = a->op.op;
	if (!op)
		return unsupported(pl, "an unknown argument");
	if (!strcmp(op, "[")) {
		struct tep_print_arg *l = a->op.left, *cast = NULL;
		while (l && l->type == TEP_PRINT_TYPE) {
			if (!cast)
				cast = l;
			l = l->typecast.item;
		}
		uint64_t mask = ~(uint64_t)0;
		if (cast && !(mask = cast_mask(cast->typecast.type, true)))
			return unsupported(pl, "an element cast to a non-pointer");
		pf_expr e = { .k = mask };
		if (l && l->type == TEP_PRINT_DYNAMIC_ARRAY) {
			struct tep_format_field *f = l->dynarray.field;
			if (!dyn_src(f, &e.src))
				return unsupported(pl, "an unknown field");
			e.kind = E_DYN_ELEM;
			e.size = f->elementsize ? (int32_t)f->elementsize : pl->long_size;
		} else if (l && l->type == TEP_PRINT_FIELD) {
			struct tep_format_field *f = arg_field(pl, l);
			if (!f)
				return unsupported(pl, "an unknown field");
			e.kind = E_ELEM;
			e.src = (pf_src){ .off = f->offset, .size = f->size };
			e.size = (int32_t)f->elementsize;
			e.elsize = f->elementsize;
		} else {
			return unsupported(pl, "an index into something not an array");
		}
		e.a = compile_num(pl, a->op.right);
		return e.a == NONE ? NONE : PUSH(pl, expr, e);
	}
	if (!strcmp(op, "?")) {
		struct tep_print_arg *r = a->op.right;
		if (!r || r->type != TEP_PRINT_OP)
			return unsupported(pl, "a broken conditional");
		pf_expr e = { .kind = E_COND };
		e.a = compile_num(pl, a->op.left);
		e.b = compile_num(pl, r->op.left);
		e.c = compile_num(pl, r->op.right);
		if (e.a == NONE || e.b == NONE || e.c == NONE)
			return NONE;
		return PUSH(pl, expr, e);
	}
	int code = op_code(op);
	if (code < 0)
		return unsupported(pl, "an operator libtraceevent does not evaluate");
	pf_expr e = { .kind = E_OP, .op = (uint8_t)code };
	e.a = compile_num(pl, a->op.left);
	e.b = compile_num(pl, a->op.right);
	if (e.a == NONE || e.b == NONE)
		return NONE;
	if ((code == OP_DIV || code == OP_MOD) && (pl->exprs[e.b].kind != E_CONST || pl->exprs[e.b].k == 0))
		return unsupported(pl, "a division by a variable");
	return PUSH(pl, expr, e);
}

/* eval_flag(): a table entry's value. */
static int64_t flag_value(const char *s)
{
	static const struct {
		const char *name;
		int64_t value;
	} known[] = {
		{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 }, { "NET_TX_SOFTIRQ", 2 }, { "NET_RX_SOFTIRQ", 3 },
		{ "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 }, { "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 },
		{ "HRTIMER_SOFTIRQ", 8 }, { "RCU_SOFTIRQ", 9 }, { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};
	if (isdigit((unsigned char)s[0]))
		return (int64_t)strtoull(s, NULL, 0);
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strcmp(known[i].name, s))
			return known[i].value;
	return -1;
}

static bool compile_table(pf_plan *pl, struct tep_print_flag_sym *list, pf_sarg *s)
{
	s->first = (uint32_t)pl->n_syms;
	for (struct tep_print_flag_sym *f = list; f; f = f->next) {
		if (!f->value || !f->str)
			return false;
		size_t n = strlen(f->str);
		pf_sym y = { .value = flag_value(f->value), .len = (uint32_t)n };
		y.text = add_text(pl, f->str, n);
		if (PUSH(pl, sym, y) == NONE)
			return false;
		s->count++;
	}
	return true;
}

/* __print_hex and __print_array find their bytes in a dynamic array or a
 * field. */
static bool array_src(pf_plan *pl, struct tep_print_arg *a, pf_src *s)
{
	if (a && a->type == TEP_PRINT_DYNAMIC_ARRAY)
		return dyn_src(a->dynarray.field, s);
	if (!a || a->type != TEP_PRINT_FIELD)
		return false;
	struct tep_format_field *f = arg_field(pl, a);
	if (!f)
		return false;
	*s = (pf_src){ .off = f->offset, .size = f->size };
	return true;
}

/* A string argument for A as print_str_arg() prints it. */
static uint32_t compile_str(pf_plan *pl, struct tep_print_arg *a)
{
	pf_sarg s = { .kind = S_NONE, .text = NONE };
	switch (a->type) {
	case TEP_PRINT_ATOM: {
		size_t n = strlen(a->atom.atom);
		s.kind = S_TEXT;
		s.text = add_text(pl, a->atom.atom, n);
		s.len = (uint32_t)n;
		break;
	}
	case TEP_PRINT_FIELD: {
		struct tep_format_field *f = arg_field(pl, a);
		if (!f)
			return unsupported(pl, "an unknown field");
		s.src = (pf_src){ .off = f->offset, .size = f->size };
		s.kind = S_BYTES;
		/* A pointer-sized field is looked up in the printk formats. */
		if (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size == pl->long_size) {
			if (!pl->printk)
				return unsupported(pl, "%s of a printk format address");
			s.kind = S_PRINTK;
		}
		break;
	}
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL: {
		bool flags = a->type == TEP_PRINT_FLAGS;
		s.kind = flags ? S_FLAGS : S_SYMBOLS;
		s.expr = compile_num(pl, flags ? a->flags.field : a->symbol.field);
		if (s.expr == NONE)
			return NONE;
		if (flags && a->flags.delim) {
			s.len = (uint32_t)strlen(a->flags.delim);
			s.text = add_text(pl, a->flags.delim, s.len);
		}
		if (!compile_table(pl, flags ? a->flags.flags : a->symbol.symbols, &s))
			return unsupported(pl, "a broken flag table");
		break;
	}
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		s.kind = a->type == TEP_PRINT_HEX ? S_HEX : S_HEX_STR;
		if (!array_src(pl, a->hex.field, &s.src))
			return unsupported(pl, "__print_hex of something not an array");
		if ((s.expr = compile_num(pl, a->hex.size)) == NONE)
			return NONE;
		break;
	case TEP_PRINT_INT_ARRAY:
		s.kind = S_INT_ARRAY;
		if (!array_src(pl, a->int_array.field, &s.src))
			return unsupported(pl, "__print_array of something not an array");
		if ((s.expr = compile_num(pl, a->int_array.count)) == NONE ||
		    (s.expr2 = compile_num(pl, a->int_array.el_size)) == NONE)
			return NONE;
		break;
	case TEP_PRINT_STRING: {
		struct tep_format_field *f = a->string.field;
		if (!f)
			f = tep_find_any_field(pl->ev, a->string.string);
		if (f) {
			s.kind = S_DSTR;
			dyn_src(f, &s.src);
		}
		break;
	}
	case TEP_PRINT_BITMASK:
	case TEP_PRINT_CPUMASK: {
		struct tep_format_field *f = a->bitmask.field;
		if (!f)
			f = tep_find_any_field(pl->ev, a->bitmask.bitmask);
		if (f) {
			s.kind = a->type == TEP_PRINT_BITMASK ? S_BITMASK : S_CPUMASK;
			dyn_src(f, &s.src);
		} else if (a->type == TEP_PRINT_CPUMASK) {
			return unsupported(pl, "an unknown field");
		}
		break;
	}
	case TEP_PRINT_OP: {
		if (!a->op.op || a->op.op[0] != '?')
			break;
		struct tep_print_arg *r = a->op.right;
		if (!r || r->type != TEP_PRINT_OP || !r->op.left || !r->op.right)
			return unsupported(pl, "a broken conditional");
		s.kind = S_COND;
		s.expr = compile_num(pl, a->op.left);
		s.first = compile_str(pl, r->op.left);
		s.count = compile_str(pl, r->op.right);
		if (s.expr == NONE || s.first == NONE || s.count == NONE)
			return NONE;
		break;
	}
	case TEP_PRINT_BSTRING:
		return unsupported(pl, "a binary printk string");
	case TEP_PRINT_FUNC:
		return unsupported(pl, "a function a plugin defines");
	default:
		break;   /* casts, dynamic arrays, NULL: nothing */
	}
	return PUSH(pl, sarg, s);
}

/* The printf conversion TEXT (from '%' to its letter, as libtraceevent
 * hands it to printf) with length LS; false when glibc would read it
 * another way than this file's printer. */
static bool parse_spec(const char *text, int ls, pf_spec *sp)
{
	const char *p = text + 1;
	*sp = (pf_spec){ .width = -1, .prec = -1 };
	for (;; p++) {
		if (*p == '-')
			sp->left = true;
		else if (*p == '+')
			sp->plus = true;
		else if (*p == '#')
			sp->alt = true;
		else if (*p == '0')
			sp->zero = true;
		else
			break;
	}
	if (*p == '*') {
		sp->star_width = true;
		p++;
	} else if (isdigit((unsigned char)*p)) {
		sp->width = 0;
		while (isdigit((unsigned char)*p) && sp->width < 100000)
			sp->width = sp->width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		sp->prec = 0;
		if (*p == '*') {
			if (sp->star_width)
				return false;
			sp->star_prec = true;
			p++;
		} else {
			while (isdigit((unsigned char)*p) && sp->prec < 100000)
				sp->prec = sp->prec * 10 + (*p++ - '0');
		}
	}
	if (sp->width > 4096 || sp->prec > 4096)
		return false;
	int got;
	if (p[0] == 'h' && p[1] == 'h')
		got = -2, p += 2;
	else if (p[0] == 'h')
		got = -1, p++;
	else if (p[0] == 'l' && p[1] == 'l')
		got = 2, p += 2;
	else if (p[0] == 'l' || p[0] == 'z' || p[0] == 'Z')
		got = 1, p++;
	else if (p[0] == 'L')
		got = 2, p++;
	else
		got = 0;
	if (got != ls || !*p || p[1])
		return false;
	sp->conv = *p;
	sp->bits = ls <= -2 ? 8 : ls == -1 ? 16 : ls == 0 ? 32 : 64;
	sp->plain = strchr("diuxX", sp->conv) && !sp->left && !sp->plus && !sp->alt && !sp->zero && sp->width < 0 &&
	            sp->prec < 0 && !sp->star_width && !sp->star_prec;
	/* A length on %c or %s means a wide character or string. */
	return sp->conv != 's' || ls == 0;
}

/* parse_arg_format_pointer(): how many letters after 'p' libtraceevent
 * takes as the pointer's kind. */
static int pointer_ext_len(const char *f)
{
	int ret = 0, index = 2;
	switch (*f) {
	case 'F': case 'S': case 'f': case 's':
		return 1;
	case 'M': case 'm':
		return (f[1] == 'R' || f[1] == 'F') ? 2 : 1;
	case 'I': case 'i':
		switch (f[1]) {
		case 'S':
			while (f[index] == 'p' || f[index] == 'f' || f[index] == 's') {
				ret++;
				index++;
			}
			/* fall through */
		case '4':
			if (f[index] == 'h' || f[index] == 'n' || f[index] == 'l' || f[index] == 'b') {
				ret++;
				index++;
			}
			if (f[1] == '4') {
				ret++;
				break;
			}
			/* fall through */
		case '6':
			if (f[index] == 'c')
				ret++;
			ret++;
			break;
		}
		return ret + 1;
	case 'U':
		return (f[1] == 'L' || f[1] == 'l' || f[1] == 'B' || f[1] == 'b') ? 2 : 1;
	case 'h':
		return (f[1] == 'C' || f[1] == 'D' || f[1] == 'N') ? 2 : 1;
	default:
		return 0;
	}
}

/* The literal "ARG TYPE NOT FIELD BUT %d" libtraceevent prints for a
 * pointer extension given something else. */
static void wrong_arg_text(pf_plan *pl, pf_item *it, const char *what, int type)
{
	char tmp[64];
	int n = snprintf(tmp, sizeof tmp, "%s %d", what, type);
	it->kind = I_TEXT;
	it->len = (uint32_t)n;
	it->text = add_text(pl, tmp, (size_t)n);
}

static void const_text(pf_plan *pl, pf_item *it, const char *s)
{
	it->kind = I_TEXT;
	it->len = (uint32_t)strlen(s);
	it->text = add_text(pl, s, it->len);
}

/* IT left to libtraceevent: the first one's WHY is the plan's. */
static void item_unsupported(pf_plan *pl, pf_item *it, const char *why)
{
	it->kind = I_UNSUPPORTED;
	unsupported(pl, why);
}

/* The field of a pointer extension's argument (casts skipped), with the
 * size the extension needs; false when the item became literal text or is
 * not compiled. */
static bool pointer_field(pf_plan *pl, pf_item *it, struct tep_print_arg *a, int size, const char *invalid)
{
	if (a->type == TEP_PRINT_FUNC) {
		item_unsupported(pl, it, "a function a plugin defines");
		return false;
	}
	while (a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	if (a->type != TEP_PRINT_FIELD) {
		wrong_arg_text(pl, it, "ARG TYPE NOT FIELD BUT", a->type);
		return false;
	}
	struct tep_format_field *f = arg_field(pl, a);
	if (!f) {
		item_unsupported(pl, it, "an unknown field");
		return false;
	}
	if (size && f->size != size) {
		const_text(pl, it, invalid);
		return false;
	}
	it->src = (pf_src){ .off = f->offset, .size = f->size };
	return true;
}

/* print_arg_pointer(): the item for "%p" + EXT of argument A. */
static void compile_pointer(pf_plan *pl, pf_item *it, struct tep_print_arg *a)
{
	const char *x = it->ext;
	switch (x[0]) {
	case 'F': case 'f': case 'S': case 's':
		it->kind = I_SYM;
		pl->symbols = true;
		if ((it->arg = compile_num(pl, a)) == NONE)
			it->kind = I_UNSUPPORTED;
		return;
	case 'M': case 'm':
		it->kind = I_MAC;
		pointer_field(pl, it, a, 6, "INVALIDMAC");
		return;
	case 'I': case 'i':
		if (x[1] == '4') {
			it->kind = I_IP4;
			pointer_field(pl, it, a, 4, "INVALIDIPv4");
		} else if (x[1] == '6') {
			it->kind = I_IP6;
			pointer_field(pl, it, a, 16, "INVALIDIPv6");
		} else if (x[1] == 'S') {
			it->kind = I_IPSA;
			if (a->type == TEP_PRINT_FUNC) {
				item_unsupported(pl, it, "a function a plugin defines");
				return;
			}
			while (a->type == TEP_PRINT_TYPE)
				a = a->typecast.item;
			if (a->type == TEP_PRINT_DYNAMIC_ARRAY) {
				if (!dyn_src(a->dynarray.field, &it->src))
					item_unsupported(pl, it, "an unknown field");
			} else if (a->type == TEP_PRINT_FIELD) {
				pointer_field(pl, it, a, 0, NULL);
			} else {
				wrong_arg_text(pl, it, "ARG NOT FIELD NOR DYNAMIC ARRAY BUT TYPE", a->type);
			}
		} else {
			const_text(pl, it, "");
		}
		return;
	case 'U':
		it->kind = I_UUID;
		pointer_field(pl, it, a, 16, "INVALIDUUID");
		return;
	case 'h':
		it->kind = I_HEXBUF;
		if (a->type == TEP_PRINT_FUNC) {
			item_unsupported(pl, it, "a function a plugin defines");
		} else if (a->type != TEP_PRINT_DYNAMIC_ARRAY) {
			wrong_arg_text(pl, it, "ARG TYPE NOT FIELD BUT", a->type);
		} else if (!dyn_src(a->dynarray.field, &it->src)) {
			item_unsupported(pl, it, "an unknown field");
		}
		return;
	default:
		it->kind = I_PTR;
		if ((it->arg = compile_num(pl, a)) == NONE)
			it->kind = I_UNSUPPORTED;
		return;
	}
}

static void add_item(pf_plan *pl, const pf_item *it)
{
	PUSH(pl, item, *it);
}

/* The field argument A is, casts skipped (print_field()'s test). */
static const struct tep_format_field *direct_field(struct tep_print_arg *a)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_FIELD ? a->field.field : NULL;
}

/* parse_arg_format(): the conversion at F; returns how many characters
 * libtraceevent takes. */
static int compile_conversion(pf_plan *pl, const char *f, struct tep_print_arg **args)
{
	const char *start = f;
	struct tep_print_arg *star = NULL;
	int ls = 0, ret = 1;
	pf_item it = { .star = NONE };
	for (f++; *f; f++, ret++) {
		char c = *f;
		switch (c) {
		case '+':
			/* a flag since libtraceevent 1.8; 1.7.1 prints ">+<" */
			if (!pl->tep19)
				break;
			continue;
		case '#': case '.': case '-':
		case '0': case '1': case '2': case '3': case '4':
		case '5': case '6': case '7': case '8': case '9':
			continue;
		case 'h':
			ls--;
			continue;
		case 'l':
			ls++;
			continue;
		case 'L':
			ls = 2;
			continue;
		case 'z': case 'Z':
			ls = 1;
			continue;
		case '*':
			if (!*args || star) {
				unsupported(pl, "a '*' without its argument");
				return ret;
			}
			star = *args;
			*args = star->next;
			continue;
		default:
			break;
		}
		/* libtraceevent 1.7.1 does not know %c: ">c<" below, and
		 * its argument goes to the next conversion; 1.8 made it one
		 * of the integer conversions (printed with printf's %c). */
		if (c == 'p' || strchr("duixXos", c) || (c == 'c' && pl->tep19)) {
			struct tep_print_arg *a = *args;
			if (!a) {
				unsupported(pl, "a conversion without its argument");
				return ret + 1;
			}
			*args = a->next;
			if (c == 'p') {
				int res = pointer_ext_len(f + 1);
				if (res > (int)sizeof it.ext - 1) {
					it.kind = I_UNSUPPORTED;
					it.field = direct_field(a);
					add_item(pl, &it);
					unsupported(pl, "an odd pointer extension");
					return ret + res + 1;
				}
				memcpy(it.ext, f + 1, (size_t)res);
				f += res;
				ret += res;
			}
			size_t n = (size_t)(f + 1 - start);
			char text[40];
			if (n >= sizeof text) {
				/* libtraceevent fails the event before. */
				pl->broken = true;
				unsupported(pl, "an odd conversion");
				return ret + 1;
			}
			memcpy(text, start, n);
			text[n] = '\0';
			it.field = direct_field(a);
			if (star && (it.star = compile_num(pl, star)) == NONE)
				it.kind = I_UNSUPPORTED;
			else if (c == 'p')
				compile_pointer(pl, &it, a);
			else if (!parse_spec(text, c == 's' ? 0 : ls, &it.sp))
				item_unsupported(pl, &it, "a printf conversion glibc reads another way");
			else if (c == 'c' && (ls != 0 || it.sp.zero))
				item_unsupported(pl, &it, "a %c of a wide character or with zeros");
			else if (c == 's')
				it.kind = (it.arg = compile_str(pl, a)) == NONE ? I_UNSUPPORTED : I_STR;
			else
				it.kind = (it.arg = compile_num(pl, a)) == NONE ? I_UNSUPPORTED : I_NUM;
			if (c == 'c')
				pl->may_nul = true;
			add_item(pl, &it);
			return ret + 1;
		}
		/* A letter libtraceevent does not know: ">c<". */
		char lit[3] = { '>', c, '<' };
		it.kind = I_TEXT;
		it.len = 3;
		it.text = add_text(pl, lit, 3);
		add_item(pl, &it);
		return ret + 1;
	}
	if (star)
		unsupported(pl, "a '*' at the end of the format");
	return ret;
}

/* parse_arg_string(): literal text up to the next conversion. */
static int compile_literal(pf_plan *pl, const char *f)
{
	int ret = 0;
	pf_item it = { .kind = I_TEXT, .star = NONE };
	it.text = (uint32_t)pl->text_len;
	for (; *f; f++, ret++) {
		char c = *f;
		if (c == '\\') {
			c = *++f;
			ret++;
			if (c == '\0') {
				/* libtraceevent reads on past the end. */
				pl->broken = true;
				unsupported(pl, "a backslash at the end of the format");
				return ret;
			}
			c = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
		} else if (c == '%') {
			if (f[1] != '%')
				break;
			f++;
			ret++;
		}
		add_text(pl, &c, 1);
	}
	it.len = (uint32_t)(pl->text_len - it.text);
	add_item(pl, &it);
	return ret;
}

/* A field of the handler's: tep_get_field_val() finds it among the
 * event's own fields, and reads it only when 1, 2, 4 or 8 bytes wide;
 * false when the handler would print an error instead (REQUIRED) or the
 * field is there but unreadable. */
static bool handler_field(pf_plan *pl, int slot, const char *name, bool required)
{
	struct tep_format_field *f = tep_find_field(pl->ev, name);
	if (!f)
		return !required;
	if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
		return false;
	pl->hf[slot] = (pf_hfield){ .off = f->offset, .size = f->size };
	return true;
}

/* The comm a handler prints and registers: any field, common ones first. */
static void handler_comm(pf_plan *pl, int slot, const char *name)
{
	struct tep_format_field *f = tep_find_any_field(pl->ev, name);
	if (f)
		pl->hf[slot] = (pf_hfield){ .off = f->offset, .size = f->size };
}

static void compile_handler(pf_plan *pl)
{
	static const char *const kmem_events[] = { "kfree", "kmalloc", "kmalloc_node", "kmem_cache_alloc",
		                                   "kmem_cache_alloc_node", "kmem_cache_free" };
	struct tep_event *ev = pl->ev;
	if (!ev->system)
		return;
	if (!strcmp(ev->system, "kmem")) {
		for (size_t i = 0; i < sizeof kmem_events / sizeof kmem_events[0]; i++)
			if (!strcmp(ev->name, kmem_events[i])) {
				/* Without a readable call_site the handler adds
				 * nothing to the print format. */
				if (!handler_field(pl, HF_CALL_SITE, "call_site", true))
					pl->hf[HF_CALL_SITE].size = 0;
				pl->handler = H_KMEM;
				pl->symbols = true;
			}
		return;
	}
	if (!strcmp(ev->system, "tlb")) {
		if (!strcmp(ev->name, "tlb_flush") && handler_field(pl, HF_PAGES, "pages", true) &&
		    handler_field(pl, HF_REASON, "reason", true))
			pl->handler = H_TLB;
		return;
	}
	if (strcmp(ev->system, "sched") != 0)
		return;
	if (!strcmp(ev->name, "sched_switch")) {
		if (!handler_field(pl, HF_PREV_PID, "prev_pid", true) || !handler_field(pl, HF_PREV_PRIO, "prev_prio", true) ||
		    !handler_field(pl, HF_PREV_STATE, "prev_state", true) || !handler_field(pl, HF_NEXT_PID, "next_pid", true) ||
		    !handler_field(pl, HF_NEXT_PRIO, "next_prio", true))
			return;
		handler_comm(pl, HF_PREV_COMM, "prev_comm");
		handler_comm(pl, HF_NEXT_COMM, "next_comm");
		pl->handler = H_SCHED_SWITCH;
	} else if (!strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new")) {
		if (!handler_field(pl, HF_PID, "pid", true) || !handler_field(pl, HF_PRIO, "prio", true) ||
		    !handler_field(pl, HF_SUCCESS, "success", false) || !handler_field(pl, HF_TARGET_CPU, "target_cpu", true))
			return;
		handler_comm(pl, HF_COMM, "comm");
		pl->handler = H_SCHED_WAKEUP;
	}
}

pf_plan *pf_compile(struct tep_handle *tep, struct tep_event *ev, const pf_strings *printk, const pf_kallsyms *kallsyms,
                    bool tep19, const char **why)
{
	*why = NULL;
	if (ev->flags & TEP_EVENT_FL_ISBPRINT) {
		*why = "a binary printk event";
		return NULL;
	}
	pf_plan *pl = calloc(1, sizeof *pl);
	if (!pl) {
		tc_fail_nomem();
		return NULL;
	}
	pl->tep = tep;
	pl->tep19 = tep19;
	pl->printk = printk;
	pl->kallsyms = kallsyms;
	pl->ev = ev;
	pl->long_size = tep_get_long_size(tep);
	pl->file_big = tep_is_file_bigendian(tep);
	pl->swap = pl->file_big != tep_is_bigendian();
	pl->failed = (ev->flags & TEP_EVENT_FL_FAILED) != 0;
	const char *f = ev->print_fmt.format;
	if (!pl->failed && f) {
		/* parse_args() */
		struct tep_print_arg *args = ev->print_fmt.args;
		int len = (int)strlen(f);
		while (*f && !pl->nomem) {
			int ret = *f == '%' && f[1] != '%' ? compile_conversion(pl, f, &args) : compile_literal(pl, f);
			len -= ret;
			if (len <= 0)
				break;
			f += ret;
		}
	}
	compile_handler(pl);
	if (pl->nomem) {
		tc_fail_nomem();
		pf_free(pl);
		return NULL;
	}
	return pl;
}

void pf_free(pf_plan *pl)
{
	if (!pl)
		return;
	free(pl->items);
	free(pl->exprs);
	free(pl->sargs);
	free(pl->syms);
	free(pl->text);
	free(pl);
}

const char *pf_unsupported(const pf_plan *pl)
{
	return pl->unsupported;
}

bool pf_uses_symbols(const pf_plan *pl)
{
	return pl->symbols;
}

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
	char *d = room(c, n);
	if (d) {
		memset(d, ch, n);
		c->out->len += n;
	}
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

static uint64_t eval(pf_ctx *c, uint32_t i)
{
	const pf_expr *e = &c->pl->exprs[i];
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
static bool star_value(pf_ctx *c, const pf_item *it, int *v)
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

/* printf's integer conversions, V being what libtraceevent passes (the
 * value cast to the conversion's length). */
static void put_int(pf_ctx *c, const pf_spec *sp, int star, uint64_t v)
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
	char digits[32];
	size_t nd = 0;
	if (!(prec == 0 && u == 0)) {
		if (sp->conv == 'x' || sp->conv == 'X')
			nd = tc_fmt_hex(digits, u, sp->conv == 'x');
		else if (sp->conv == 'o')
			nd = tc_fmt_oct(digits, u);
		else
			nd = tc_fmt_u64(digits, u);
	}
	if (sp->alt) {
		if (sp->conv == 'o') {
			if ((nd == 0 || digits[0] != '0') && prec < (int)nd + 1)
				prec = (int)nd + 1;
		} else if ((sp->conv == 'x' || sp->conv == 'X') && u) {
			prefix = sp->conv == 'x' ? "0x" : "0X", plen = 2;
		}
	}
	size_t zeros = prec > (int)nd ? (size_t)prec - nd : 0;
	size_t total = plen + zeros + nd;
	size_t pad = width > 0 && (size_t)width > total ? (size_t)width - total : 0;
	char *d = room(c, total + pad);
	if (!d)
		return;
	char *o = d;
	if (!sp->left) {
		/* The '0' flag counts only without a precision. */
		if (sp->zero && !has_prec) {
			zeros += pad;
		} else {
			memset(o, ' ', pad);
			o += pad;
		}
		pad = 0;
	}
	memcpy(o, prefix, plen);
	o += plen;
	memset(o, '0', zeros);
	o += zeros;
	memcpy(o, digits, nd);
	o += nd;
	memset(o, ' ', pad);
	o += pad;
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

/* print_function(): "name", "name+0x1f", or the address. */
static void print_symbol(pf_ctx *c, const pf_item *it)
{
	uint64_t v = eval(c, it->arg);
	const char *name = NULL;
	unsigned long long start = 0;
	unsigned long fsize = 0;
	bool found = tep_find_function_info(c->pl->tep, v, &name, &start, &fsize) && name;
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

static void print_item(pf_ctx *c, const pf_item *it)
{
	const pf_plan *pl = c->pl;
	int star;
	switch (it->kind) {
	case I_TEXT:
		put(c, pl->text + it->text, it->len);
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
			dyn_src(f, &s);
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
	for (size_t i = 0; i < pl->n_items; i++)
		print_item(&c, &pl->items[i]);
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
static const pf_spec handler_lld = { .conv = 'd', .bits = 64, .width = -1, .prec = -1 };

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
		const char *func = tep_find_function(pl->tep, v);
		if (func) {
			pf_spec x = { .conv = 'x', .bits = 32, .plain = true, .width = -1, .prec = -1 };
			putc1(c, '(');
			put(c, func, strlen(func));
			put(c, "+0x", 3);
			put_int(c, &x, -1, v - tep_find_function_address(pl->tep, v));
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
	pf_spec d = { .conv = 'd', .bits = 32, .width = -1, .prec = -1 };
	pf_spec cpu = { .conv = 'u', .bits = 64, .width = 3, .prec = -1, .zero = true };
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

bool pf_may_write_nul(const pf_plan *pl)
{
	return pl->may_nul;
}

void pf_set_tep19(pf_plan *pl, bool tep19)
{
	pl->tep19 = tep19;
}
