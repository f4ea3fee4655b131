/* SPDX-License-Identifier: MIT */
/*
 * printfmt_compile.c - ftrace print formats compiled into native formatting
 * plans (printfmt.h; the plan is printfmt_plan.h, printfmt_print.c runs it).
 *
 * The compiler walks libtraceevent's parse of the print format: the format
 * text is cut into pieces exactly as libtraceevent's parse_args() cuts it
 * (literal runs, conversions, ">c<" for a conversion letter it does not
 * know), and each conversion's argument, a tree of struct tep_print_arg,
 * becomes an expression over the record: what eval_num_arg() computes
 * for numbers, what print_str_arg() prints for %s, what
 * print_arg_pointer() prints for %p and its extensions.
 */
#include "tracedat/printfmt_plan.h"

#include <event-parse.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The text grows 16 bytes ahead of what it holds: the printer copies a
 * short piece as 16 bytes at once (put_text()). */
static uint32_t add_text(pf_plan *pl, const char *s, size_t n)
{
	if (!grow((void **)&pl->text, &pl->cap_text, pl->text_len + n + 16, 1)) {
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

bool pf_dyn_src(struct tep_format_field *f, pf_src *s)
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
		if (!v && !isdigit((unsigned char)s[0]) && (!pl->kallsyms || !pf_kallsyms_address(pl->kallsyms, s, &v)))
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
		if (!pf_dyn_src(a->dynarray.field, &e.src))
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
			if (!pf_dyn_src(f, &e.src))
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
		return pf_dyn_src(a->dynarray.field, s);
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
			pf_dyn_src(f, &s.src);
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
			pf_dyn_src(f, &s.src);
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
	sp->padded = strchr("diuxX", sp->conv) && !sp->left && !sp->plus && !sp->alt && sp->width > 0 && sp->width <= 32 &&
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
				if (!pf_dyn_src(a->dynarray.field, &it->src))
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
		} else if (!pf_dyn_src(a->dynarray.field, &it->src)) {
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
bool pf_may_write_nul(const pf_plan *pl)
{
	return pl->may_nul;
}

void pf_set_tep19(pf_plan *pl, bool tep19)
{
	pl->tep19 = tep19;
}
