/* SPDX-License-Identifier: MIT */
/*
 * printfmt_plan.h - the compiled print-format plan that printfmt_compile.c
 * builds from libtraceevent's parse of an event's print format and
 * printfmt_print.c runs over each record; with the two look-ups into the
 * kernel's tables (printfmt_tables.c) that they use.  Private to the
 * printfmt*.c files; everyone else goes through printfmt.h.
 *
 * The plan keeps everything in arrays indexed by number (items,
 * expressions, string arguments, flag and symbol tables, text), so it is
 * a handful of allocations however long the format.
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
#ifndef TC_TRACEDAT_PRINTFMT_PLAN_H
#define TC_TRACEDAT_PRINTFMT_PLAN_H

#include "tracedat/printfmt.h"

#include <stdint.h>

#define NONE UINT32_MAX

/* A printf conversion as glibc reads it. */
typedef struct pf_spec {
	char conv;               /* d i u x X o s */
	uint8_t bits;            /* the length's width: 8 16 32 64 */
	bool left, plus, alt, zero;
	bool star_width, star_prec;  /* '*': from the item's star argument */
	bool plain;              /* %d %i %u %x %X with no flag, width or precision */
	bool padded;             /* the same with a width of 1 to 32, maybe the '0' flag */
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

/* The source of the dynamic field F, through its __data_loc or __rel_loc
 * word; false when there is no F (printfmt_compile.c). */
bool pf_dyn_src(struct tep_format_field *f, pf_src *s);

/* The text of the printk format at ADDR, or NULL (printfmt_tables.c). */
const char *pf_strings_find(const pf_strings *st, uint64_t addr);

/* The address test_for_symbol() finds for NAME: false when which of
 * several symbols of that name it finds first depends on its state. */
bool pf_kallsyms_address(const pf_kallsyms *ks, const char *name, uint64_t *addr);

#endif /* TC_TRACEDAT_PRINTFMT_PLAN_H */
