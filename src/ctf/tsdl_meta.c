/* SPDX-License-Identifier: MIT */
/*
 * tsdl_meta.c - the CTF 1.8 metadata front end's second half: the TSDL
 * syntax tree (tsdl.h, from tsdl_parse.c) into the trace's classes, as
 * json_meta.c does for CTF 2.  metadata.c reads the metadata file and
 * hands the tree to ctf1_metadata_build().
 *
 * Classes are built in babeltrace2's order: env, clocks, root type
 * declarations, trace, streams, events (doc/formats/ctf.md §3.2).
 * Type names live in lexical scopes; every use of a named type is a deep
 * copy, because a sequence length or variant tag written as a relative name
 * resolves differently depending on where the type is used.
 *
 * After building, each layout is compiled (plan_*): special roles, clock
 * auto-mapping, resolution of lengths and tags to field paths, and which
 * fields babeltrace2 hides from the output.
 */
#include "ctf/label_order.h"
#include "ctf/tsdl.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- building classes ---- */

typedef struct type_binding {
	const char *name;    /* "uint32_t", "struct foo", "enum bar", "variant baz" */
	tc_field_class *cls;
} type_binding;

typedef struct type_scope {
	struct type_scope *parent;
	type_binding *items;
	size_t count, cap;
} type_scope;

typedef struct builder {
	ctf_build c;
	type_scope *scope;
} builder;

/* An error about node N (or the metadata as a whole when N is NULL). */
static int berr(builder *b, const ast_node *n, const char *fmt, ...) TC_PRINTF(3, 4);
static int berr(builder *b, const ast_node *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ctf_build_vfail(&b->c, n ? (int64_t)n->offset : -1, n ? n->line : 0, fmt, ap);
	va_end(ap);
	return b->c.err;
}

static tc_field_class *copy_fc(builder *b, const tc_field_class *src)
{
	tc_field_class *fc = ctf_build_class(&b->c, src->kind);
	if (!fc)
		return NULL;
	void *plan = fc->priv;
	*fc = *src;
	fc->priv = plan;
	*(ctf_plan *)plan = *plan_of(src);
	if (src->member_count) {
		fc->members = ctf_build_alloc(&b->c, src->member_count * sizeof *fc->members);
		if (!fc->members)
			return NULL;
		for (size_t i = 0; i < src->member_count; i++) {
			fc->members[i] = src->members[i];
			if (!(fc->members[i].cls = copy_fc(b, src->members[i].cls)))
				return NULL;
		}
	}
	if (src->element && !(fc->element = copy_fc(b, src->element)))
		return NULL;
	return fc;
}

static int scope_push(builder *b)
{
	type_scope *s = calloc(1, sizeof *s);
	if (!s)
		return b->c.err = tc_fail_nomem();
	s->parent = b->scope;
	b->scope = s;
	return 0;
}

static void scope_pop(builder *b)
{
	type_scope *s = b->scope;
	b->scope = s->parent;
	free(s->items);
	free(s);
}

static tc_field_class *scope_lookup(builder *b, const char *name)
{
	for (type_scope *s = b->scope; s; s = s->parent)
		for (size_t i = s->count; i-- > 0;)
			if (strcmp(s->items[i].name, name) == 0)
				return s->items[i].cls;
	return NULL;
}

static int scope_bind(builder *b, const ast_node *where, const char *name, tc_field_class *cls)
{
	type_scope *s = b->scope;
	for (size_t i = 0; i < s->count; i++)
		if (strcmp(s->items[i].name, name) == 0)
			return berr(b, where, "type \"%s\" declared twice in the same scope", name);
	if (s->count == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		type_binding *items = realloc(s->items, cap * sizeof *items);
		if (!items)
			return b->c.err = tc_fail_nomem();
		s->items = items;
		s->cap = cap;
	}
	s->items[s->count].name = name;
	s->items[s->count].cls = cls;
	s->count++;
	return 0;
}

static char *prefixed(builder *b, const char *prefix, const char *name)
{
	size_t a = strlen(prefix), n = strlen(name);
	char *s = ctf_build_alloc(&b->c, a + n + 1);
	if (s) {
		memcpy(s, prefix, a);
		memcpy(s + a, name, n + 1);
	}
	return s;
}

static bool value_is_ident(const ast_value *v, const char *const *names)
{
	if (v->kind != VAL_PATH && v->kind != VAL_STR)
		return false;
	for (; *names; names++)
		if (strcmp(v->s, *names) == 0)
			return true;
	return false;
}

static int value_bool(builder *b, const ast_node *a, bool *out)
{
	static const char *const yes[] = { "true", "TRUE", NULL }, *const no[] = { "false", "FALSE", NULL };
	if (a->value.kind == VAL_INT)
		*out = a->value.u != 0;
	else if (value_is_ident(&a->value, yes))
		*out = true;
	else if (value_is_ident(&a->value, no))
		*out = false;
	else
		return berr(b, a, "\"%s\" expects true or false", a->name);
	return 0;
}

static int value_u64(builder *b, const ast_node *a, uint64_t *out)
{
	if (a->value.kind != VAL_INT || a->value.negative)
		return berr(b, a, "\"%s\" expects an unsigned integer", a->name);
	*out = a->value.u;
	return 0;
}

/* An alignment in bits (ctf_alignment_ok). */
static int value_align(builder *b, const ast_node *a, unsigned *out)
{
	uint64_t v = 0;
	if (value_u64(b, a, &v) < 0)
		return b->c.err;
	if (!ctf_alignment_ok(v))
		return berr(b, a, "alignment %" PRIu64 " is not a power of two up to 2^20", v);
	*out = (unsigned)v;
	return 0;
}

static int value_byte_order(builder *b, const ast_node *a, tc_byte_order *out, bool allow_native)
{
	static const char *const le[] = { "le", "little", NULL }, *const be[] = { "be", "big", "network", NULL },
	                         *const native[] = { "native", NULL };
	if (value_is_ident(&a->value, le))
		*out = TC_LITTLE_ENDIAN;
	else if (value_is_ident(&a->value, be))
		*out = TC_BIG_ENDIAN;
	else if (allow_native && value_is_ident(&a->value, native))
		*out = b->c.t->byte_order;
	else
		return berr(b, a, "invalid byte_order");
	return 0;
}

static const char *value_text(const ast_value *v)
{
	return (v->kind == VAL_STR || v->kind == VAL_PATH) ? v->s : NULL;
}

static tc_field_class *build_type(builder *b, const ast_node *type, const ast_declarator *decl);

static tc_field_class *build_integer(builder *b, const ast_node *n)
{
	tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_INT);
	if (!fc)
		return NULL;
	fc->byte_order = b->c.t->byte_order;
	fc->base = 10;
	bool have_size = false, have_align = false;
	uint32_t seen = 0;
	static const char *const known[] = { "size", "align", "signed", "byte_order", "base", "encoding", "map" };
	for (size_t i = 0; i < n->child_count; i++) {
		const ast_node *a = n->children[i];
		for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
			if (strcmp(a->name, known[k]) == 0) {
				if (seen & (1u << k))
					return berr(b, a, "duplicate integer attribute \"%s\"", a->name), NULL;
				seen |= 1u << k;
			}
		}
		uint64_t v = 0;
		if (strcmp(a->name, "size") == 0) {
			if (value_u64(b, a, &v) < 0)
				return NULL;
			if (v < 1 || v > 64)
				return berr(b, a, "integer size %" PRIu64 " outside 1..64", v), NULL;
			fc->size = (unsigned)v;
			have_size = true;
		} else if (strcmp(a->name, "align") == 0) {
			if (value_align(b, a, &fc->align) < 0)
				return NULL;
			have_align = true;
		} else if (strcmp(a->name, "signed") == 0) {
			if (value_bool(b, a, &fc->is_signed) < 0)
				return NULL;
		} else if (strcmp(a->name, "byte_order") == 0) {
			if (value_byte_order(b, a, &fc->byte_order, true) < 0)
				return NULL;
		} else if (strcmp(a->name, "base") == 0) {
			static const char *const b10[] = { "decimal", "dec", "d", "i", "u", NULL },
			                         *const b16[] = { "hexadecimal", "hex", "x", "X", "p", NULL },
			                         *const b8[] = { "octal", "oct", "o", NULL },
			                         *const b2[] = { "binary", "b", NULL };
			if (a->value.kind == VAL_INT && !a->value.negative &&
			    (a->value.u == 2 || a->value.u == 8 || a->value.u == 10 || a->value.u == 16))
				fc->base = (unsigned)a->value.u;
			else if (value_is_ident(&a->value, b10))
				fc->base = 10;
			else if (value_is_ident(&a->value, b16))
				fc->base = 16;
			else if (value_is_ident(&a->value, b8))
				fc->base = 8;
			else if (value_is_ident(&a->value, b2))
				fc->base = 2;
			else
				return berr(b, a, "invalid integer base"), NULL;
		} else if (strcmp(a->name, "encoding") == 0) {
			static const char *const text[] = { "UTF8", "utf8", "UTF-8", "utf-8", "ASCII", "ascii", NULL },
			                         *const none[] = { "none", NULL };
			if (value_is_ident(&a->value, text))
				fc->has_encoding = true;
			else if (!value_is_ident(&a->value, none))
				return berr(b, a, "invalid integer encoding"), NULL;
		} else if (strcmp(a->name, "map") == 0) {
			const char *m = value_text(&a->value);
			size_t ml = m ? strlen(m) : 0;
			/* Only clock.NAME.value means something; other maps are ignored. */
			if (m && ml > 12 && strncmp(m, "clock.", 6) == 0 && strcmp(m + ml - 6, ".value") == 0) {
				char name[256];
				snprintf(name, sizeof name, "%.*s", (int)(ml - 12), m + 6);
				fc->clock = ctf_find_clock(b->c.t, name);
				if (!fc->clock)
					return berr(b, a, "integer mapped to unknown clock \"%s\"", name), NULL;
			}
		}
	}
	if (!have_size)
		return berr(b, n, "integer without size"), NULL;
	if (!have_align)
		fc->align = fc->size % 8 == 0 ? 8 : 1;
	return fc;
}

static tc_field_class *build_float(builder *b, const ast_node *n)
{
	tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_FLOAT);
	if (!fc)
		return NULL;
	fc->byte_order = b->c.t->byte_order;
	uint64_t exp = 0, mant = 0;
	bool have_align = false;
	for (size_t i = 0; i < n->child_count; i++) {
		const ast_node *a = n->children[i];
		if (strcmp(a->name, "exp_dig") == 0) {
			if (value_u64(b, a, &exp) < 0)
				return NULL;
		} else if (strcmp(a->name, "mant_dig") == 0) {
			if (value_u64(b, a, &mant) < 0)
				return NULL;
		} else if (strcmp(a->name, "byte_order") == 0) {
			if (value_byte_order(b, a, &fc->byte_order, true) < 0)
				return NULL;
		} else if (strcmp(a->name, "align") == 0) {
			if (value_align(b, a, &fc->align) < 0)
				return NULL;
			have_align = true;
		}
	}
	if (exp == 8 && mant == 24)
		fc->size = 32;
	else if (exp == 11 && mant == 53)
		fc->size = 64;
	else
		return berr(b, n, "floating point with exp_dig=%" PRIu64 " mant_dig=%" PRIu64 " (only binary32 and binary64 are supported)", exp, mant), NULL;
	if (!have_align)
		fc->align = 8;
	return fc;
}

static int64_t as_signed(const ast_value *v)
{
	return v->negative ? (int64_t)(0 - v->u) : (int64_t)v->u;
}

static tc_field_class *build_enum(builder *b, const ast_node *n)
{
	if (!n->has_body) {
		char *key = prefixed(b, "enum ", n->name);
		tc_field_class *found = key ? scope_lookup(b, key) : NULL;
		if (!found)
			return berr(b, n, "unknown enumeration \"%s\"", n->name), NULL;
		return copy_fc(b, found);
	}
	tc_field_class *container;
	if (n->type) {
		container = build_type(b, n->type, NULL);
	} else {
		tc_field_class *intfc = scope_lookup(b, "int");
		if (!intfc)
			return berr(b, n, "enumeration without container type and no \"int\" type declared"), NULL;
		container = copy_fc(b, intfc);
	}
	if (!container)
		return NULL;
	if (container->kind != TC_FIELD_INT)
		return berr(b, n, "enumeration container is not an integer"), NULL;
	tc_field_class *fc = container;
	fc->kind = TC_FIELD_ENUM;
	fc->labels = ctf_build_alloc(&b->c, (n->enumerator_count ? n->enumerator_count : 1) * sizeof *fc->labels);
	if (!fc->labels)
		return NULL;
	int64_t next = 0;   /* value for a label without one: previous upper bound + 1 */
	for (size_t i = 0; i < n->enumerator_count; i++) {
		const ast_enumerator *e = &n->enumerators[i];
		int64_t lo = next, hi = next;
		if (e->has_value) {
			lo = as_signed(&e->lo);
			hi = e->is_range ? as_signed(&e->hi) : lo;
		}
		if (!fc->is_signed && e->has_value && e->is_range && (uint64_t)lo > (uint64_t)hi) {
			uint64_t tmp = (uint64_t)lo;
			lo = hi;
			hi = (int64_t)tmp;
		} else if (fc->is_signed && lo > hi) {
			int64_t tmp = lo;
			lo = hi;
			hi = tmp;
		}
		next = hi + 1;
		tc_enum_label *l = NULL;
		for (size_t k = 0; k < fc->label_count; k++)
			if (strcmp(fc->labels[k].label, e->label) == 0)
				l = &fc->labels[k];
		if (!l) {
			l = &fc->labels[fc->label_count++];
			l->label = e->label;
		}
		tc_enum_range *r = ctf_build_alloc(&b->c, (l->range_count + 1) * sizeof *r);
		if (!r)
			return NULL;
		if (l->range_count)
			memcpy(r, l->ranges, l->range_count * sizeof *r);
		r[l->range_count].lo = (uint64_t)lo;
		r[l->range_count].hi = (uint64_t)hi;
		l->ranges = r;
		l->range_count++;
	}
	/* babeltrace2 2.1 fills one map from the labels (merged as here),
	 * then only moves or copies it whole, which keeps its order. */
	int rc = ctf_rank_labels(fc, 1);
	if (rc < 0)
		return b->c.err = rc, NULL;
	if (n->name) {
		char *key = prefixed(b, "enum ", n->name);
		if (!key || scope_bind(b, n, key, fc) < 0)
			return NULL;
	}
	return fc;
}

static int build_members(builder *b, const ast_node *n, tc_field_class *fc);

static tc_field_class *build_compound(builder *b, const ast_node *n)
{
	bool is_struct = n->kind == AST_STRUCT;
	const char *prefix = is_struct ? "struct " : "variant ";
	tc_field_class *fc;
	if (!n->has_body) {
		char *key = prefixed(b, prefix, n->name);
		tc_field_class *found = key ? scope_lookup(b, key) : NULL;
		if (!found)
			return berr(b, n, "unknown %s\"%s\"", prefix, n->name), NULL;
		fc = copy_fc(b, found);
	} else {
		fc = ctf_build_class(&b->c, is_struct ? TC_FIELD_STRUCT : TC_FIELD_VARIANT);
		if (!fc || scope_push(b) < 0)
			return NULL;
		build_members(b, n, fc);
		scope_pop(b);
		if (b->c.err)
			return NULL;
		if (n->name) {
			char *key = prefixed(b, prefix, n->name);
			if (!key || scope_bind(b, n, key, fc) < 0)
				return NULL;
		}
	}
	if (!fc)
		return NULL;
	if (n->has_align) {
		if (n->align == 0 || (n->align & (n->align - 1)) || n->align > (1u << 20))
			return berr(b, n, "alignment %" PRIu64 " is not a power of two", n->align), NULL;
		if (n->align > fc->align)
			fc->align = (unsigned)n->align;
	}
	if (!is_struct && n->tag) {
		if (n->has_body || !fc->tag_ref) {
			fc = n->has_body ? fc : copy_fc(b, fc);
			if (!fc)
				return NULL;
		}
		fc->tag_ref = n->tag;
	}
	return fc;
}

static tc_field_class *build_type_spec(builder *b, const ast_node *n)
{
	switch (n->kind) {
	case AST_INTEGER: return build_integer(b, n);
	case AST_FLOAT: return build_float(b, n);
	case AST_STRING: {
		tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_STRING);
		if (fc)
			fc->align = 8;
		return fc;
	}
	case AST_ENUM: return build_enum(b, n);
	case AST_STRUCT:
	case AST_VARIANT: return build_compound(b, n);
	case AST_TYPENAME: {
		tc_field_class *found = scope_lookup(b, n->name);
		if (!found)
			return berr(b, n, "unknown type \"%s\"", n->name), NULL;
		return copy_fc(b, found);
	}
	default:
		return berr(b, n, "expected a type"), NULL;
	}
}

static const tc_env_entry *env_lookup(const ctf_trace *t, const char *key)
{
	return tc_trace_env(&t->pub, key);
}

static tc_field_class *build_type(builder *b, const ast_node *type, const ast_declarator *decl)
{
	tc_field_class *fc;
	if (decl && decl->pointers && type->kind == AST_TYPENAME) {
		/* "struct page *p" style: the alias named with its stars, shown in hex. */
		tc_buf nm = { 0 };
		tc_buf_printf(&nm, "%s", type->name);
		for (int i = 0; i < decl->pointers; i++)
			tc_buf_printf(&nm, " *");
		tc_field_class *found = nm.data ? scope_lookup(b, nm.data) : NULL;
		tc_buf_free(&nm);
		if (!found)
			return berr(b, type, "unknown pointer type \"%s *\"", type->name), NULL;
		if (!(fc = copy_fc(b, found)))
			return NULL;
		if (fc->kind == TC_FIELD_INT)
			fc->base = 16;
	} else {
		fc = build_type_spec(b, type);
	}
	if (!fc)
		return NULL;
	plan_of(fc)->src_offset = type->offset;
	plan_of(fc)->src_line = type->line;
	if (ctf_layout_update(&b->c, fc) < 0)
		return NULL;
	if (!decl)
		return fc;
	for (size_t i = decl->dim_count; i-- > 0;) {
		const ast_dim *d = &decl->dims[i];
		tc_field_class *arr;
		if (d->is_int || (d->path && strncmp(d->path, "env.", 4) == 0)) {
			uint64_t len = d->n;
			if (!d->is_int) {
				const tc_env_entry *e = env_lookup(b->c.t, d->path + 4);
				if (!e || !e->is_int || e->int_value < 0)
					return berr(b, type, "array length \"%s\" is not a non-negative integer in env", d->path), NULL;
				len = (uint64_t)e->int_value;
			}
			if (!(arr = ctf_build_class(&b->c, TC_FIELD_ARRAY)))
				return NULL;
			arr->length = len;
		} else if (d->path) {
			if (!(arr = ctf_build_class(&b->c, TC_FIELD_SEQUENCE)))
				return NULL;
			arr->length_ref = d->path;
		} else {
			return berr(b, type, "array without a length"), NULL;
		}
		arr->element = fc;
		if (fc->kind == TC_FIELD_INT && fc->size == 8 && fc->align == 8 && fc->has_encoding)
			arr->flags |= TC_FIELD_TEXT;
		plan_of(arr)->src_offset = type->offset;
		plan_of(arr)->src_line = type->line;
		if (ctf_layout_update(&b->c, arr) < 0)
			return NULL;
		fc = arr;
	}
	return fc;
}

static int bind_typealias(builder *b, const ast_node *n)
{
	tc_field_class *fc = build_type(b, n->type, n->decl_count ? n->decls[0] : NULL);
	if (!fc)
		return b->c.err;
	if (fc->kind == TC_FIELD_VARIANT && !fc->tag_ref)
		return berr(b, n, "typealias of a variant without a tag");
	return scope_bind(b, n, n->name, fc);
}

static int bind_typedef(builder *b, const ast_node *n)
{
	for (size_t i = 0; i < n->decl_count; i++) {
		tc_field_class *fc = build_type(b, n->type, n->decls[i]);
		if (!fc)
			return b->c.err;
		if (fc->kind == TC_FIELD_VARIANT && !fc->tag_ref)
			return berr(b, n, "typedef of a variant without a tag");
		if (scope_bind(b, n, n->decls[i]->name, fc) < 0)
			return b->c.err;
	}
	return 0;
}

/* typealias, typedef and bare type declarations in a body or at the root. */
static int build_declaration(builder *b, const ast_node *n)
{
	switch (n->kind) {
	case AST_TYPEALIAS: return bind_typealias(b, n);
	case AST_TYPEDEF: return bind_typedef(b, n);
	case AST_TYPE_DECL: return build_type_spec(b, n->type) ? 0 : b->c.err;
	default: return 0;
	}
}

static int build_members(builder *b, const ast_node *n, tc_field_class *fc)
{
	size_t total = 0;
	for (size_t i = 0; i < n->child_count; i++)
		if (n->children[i]->kind == AST_FIELD)
			total += n->children[i]->decl_count;
	fc->members = ctf_build_alloc(&b->c, (total ? total : 1) * sizeof *fc->members);
	if (!fc->members)
		return b->c.err;
	for (size_t i = 0; i < n->child_count; i++) {
		const ast_node *c = n->children[i];
		if (c->kind != AST_FIELD) {
			if (build_declaration(b, c) < 0)
				return b->c.err;
			continue;
		}
		for (size_t k = 0; k < c->decl_count; k++) {
			const ast_declarator *d = c->decls[k];
			tc_field_class *m = build_type(b, c->type, d);
			if (!m)
				return b->c.err;
			if (m->kind == TC_FIELD_VARIANT && !m->tag_ref && fc->kind == TC_FIELD_STRUCT)
				return berr(b, c, "variant \"%s\" has no tag", d->name);
			/* babeltrace2 compares the new name as written with the
			 * displayed names already present
			 * (doc/formats/ctf.md §3.3). */
			for (size_t j = 0; j < fc->member_count; j++)
				if (strcmp(fc->members[j].display_name, d->name) == 0 ||
				    (fc->kind == TC_FIELD_VARIANT && strcmp(fc->members[j].name, d->name) == 0))
					return berr(b, c, "duplicate member \"%s\"", d->name);
			tc_member *mem = &fc->members[fc->member_count++];
			mem->name = d->name;
			mem->display_name = d->name[0] == '_' ? d->name + 1 : d->name;
			mem->cls = m;
		}
	}
	return ctf_layout_update(&b->c, fc);
}

/* ---- top-level blocks ---- */

static int build_env(builder *b, const ast_node *blk)
{
	ctf_trace *t = b->c.t;
	for (size_t i = 0; i < blk->child_count; i++) {
		const ast_node *a = blk->children[i];
		if (a->kind != AST_ATTR)
			continue;
		/* identifiers are not env values */
		if (a->value.kind != VAL_INT && a->value.kind != VAL_STR)
			continue;
		bool is_int = a->value.kind == VAL_INT;
		if (tc_trace_env_add(&t->pub, &t->pool, a->name, is_int ? NULL : a->value.s, is_int ? as_signed(&a->value) : 0) < 0)
			return b->c.err = TC_ENOMEM;
	}
	return 0;
}

static int build_clock(builder *b, const ast_node *blk)
{
	tc_clock *c = ctf_build_alloc(&b->c, sizeof *c);
	if (!c)
		return b->c.err;
	c->freq = 1000000000u;   /* CTF 1.8 §8's default; babeltrace2 2.0.4 divides by zero */
	for (size_t i = 0; i < blk->child_count; i++) {
		const ast_node *a = blk->children[i];
		if (a->kind != AST_ATTR)
			continue;
		const char *text = value_text(&a->value);
		if (strcmp(a->name, "name") == 0) {
			if (!text)
				return berr(b, a, "clock name must be a name or a string");
			c->name = (char *)text;
		} else if (strcmp(a->name, "uuid") == 0) {
			if (!text || !tc_uuid_parse(text, c->uuid))
				return berr(b, a, "malformed clock UUID");
			c->has_uuid = true;
		} else if (strcmp(a->name, "description") == 0) {
			c->description = (char *)text;
		} else if (strcmp(a->name, "freq") == 0) {
			if (value_u64(b, a, &c->freq) < 0)
				return b->c.err;
			if (c->freq == 0)
				return berr(b, a, "clock frequency must be above 0");
		} else if (strcmp(a->name, "precision") == 0) {
			if (value_u64(b, a, &c->precision) < 0)
				return b->c.err;
		} else if (strcmp(a->name, "offset_s") == 0) {
			if (a->value.kind != VAL_INT || (!a->value.negative && a->value.u > INT64_MAX) ||
			    (a->value.negative && a->value.u > (uint64_t)INT64_MAX + 1))
				return berr(b, a, "clock offset_s must be a 64-bit signed integer");
			c->offset_s = as_signed(&a->value);
		} else if (strcmp(a->name, "offset") == 0) {
			if (value_u64(b, a, &c->offset) < 0)
				return b->c.err;
		} else if (strcmp(a->name, "absolute") == 0) {
			if (value_bool(b, a, &c->absolute) < 0)
				return b->c.err;
		}
	}
	if (!c->name)
		return berr(b, blk, "clock without a name");
	if (ctf_find_clock(b->c.t, c->name))
		return berr(b, blk, "clock \"%s\" declared twice", c->name);
	/* CTF 1.8 §8 counts offsets from the Unix epoch, but a clock
	 * neither absolute nor given an offset (a counter from power-on, as
	 * barectf's are) is tied to no date.  Decided before --clock-offset. */
	c->origin_is_unix_epoch = c->absolute || c->offset_s != 0 || c->offset != 0;
	ctf_clock_set_offset(c, c->offset, b->c.opts);
	return tc_ptr_push((void ***)&b->c.t->pub.clocks, &b->c.t->pub.clock_count, c) < 0 ? (b->c.err = TC_ENOMEM) : 0;
}

static tc_field_class *build_scope_type(builder *b, const ast_node *a)
{
	tc_field_class *fc = build_type(b, a->type, NULL);
	if (fc && fc->kind != TC_FIELD_STRUCT)
		return berr(b, a, "\"%s\" must be a structure", a->name), NULL;
	return fc;
}

static int build_trace_block(builder *b, const ast_node *blk)
{
	ctf_trace *t = b->c.t;
	bool have_major = false, have_minor = false;
	for (size_t i = 0; i < blk->child_count; i++) {
		const ast_node *a = blk->children[i];
		if (a->kind == AST_ATTR_TYPE) {
			if (strcmp(a->name, "packet.header") == 0 && !(t->pub.packet_header = build_scope_type(b, a)))
				return b->c.err;
		} else if (a->kind == AST_ATTR) {
			uint64_t v = 0;
			if (strcmp(a->name, "major") == 0 || strcmp(a->name, "minor") == 0) {
				bool major = a->name[1] == 'a';
				if (value_u64(b, a, &v) < 0)
					return b->c.err;
				if (v != (major ? 1u : 8u))
					return berr(b, a, "trace %s version is %" PRIu64 " (expected %s)", a->name, v, major ? "1" : "8");
				*(major ? &have_major : &have_minor) = true;
			} else if (strcmp(a->name, "uuid") == 0) {
				const char *text = value_text(&a->value);
				if (!text || !tc_uuid_parse(text, t->pub.uuid))
					return berr(b, a, "malformed trace UUID");
				t->pub.has_uuid = true;
			}
		} else if (build_declaration(b, a) < 0) {
			return b->c.err;
		}
	}
	if (!have_major || !have_minor)
		return berr(b, blk, "trace block without major and minor version");
	return 0;
}

static int block_attr_u64(builder *b, const ast_node *blk, const char *name, bool *have, uint64_t *v)
{
	*have = false;
	for (size_t i = 0; i < blk->child_count; i++) {
		const ast_node *a = blk->children[i];
		if (a->kind == AST_ATTR && strcmp(a->name, name) == 0) {
			if (value_u64(b, a, v) < 0)
				return b->c.err;
			*have = true;
		}
	}
	return 0;
}

static int build_stream_block(builder *b, const ast_node *blk)
{
	ctf_trace *t = b->c.t;
	ctf_stream_class *sc = ctf_build_alloc(&b->c, sizeof *sc);
	if (!sc || scope_push(b) < 0)
		return b->c.err;
	bool have_id;
	uint64_t id = 0;
	block_attr_u64(b, blk, "id", &have_id, &id);
	for (size_t i = 0; i < blk->child_count && !b->c.err; i++) {
		const ast_node *a = blk->children[i];
		if (a->kind == AST_ATTR_TYPE) {
			tc_field_class **slot = NULL;
			if (strcmp(a->name, "packet.context") == 0)
				slot = &sc->pub.packet_context;
			else if (strcmp(a->name, "event.header") == 0)
				slot = &sc->pub.event_header;
			else if (strcmp(a->name, "event.context") == 0)
				slot = &sc->pub.event_context;
			if (slot)
				*slot = build_scope_type(b, a);
		} else if (a->kind != AST_ATTR) {
			build_declaration(b, a);
		}
	}
	scope_pop(b);
	if (b->c.err)
		return b->c.err;
	sc->pub.id = id;
	sc->pub.trace = &t->pub;
	if (ctf_stream_class_by_id(t, id))
		return berr(b, blk, "stream class id %" PRIu64 " declared twice", id);
	if (!have_id)
		for (size_t i = 0; i < t->pub.stream_class_count; i++)
			if (!((ctf_stream_class *)t->pub.stream_classes[i])->has_explicit_id)
				return berr(b, blk, "only one stream block may omit its id");
	sc->has_explicit_id = have_id;
	return tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, sc) < 0 ? (b->c.err = TC_ENOMEM) : 0;
}

static int build_event_block(builder *b, const ast_node *blk)
{
	ctf_trace *t = b->c.t;
	tc_event_class *ec = ctf_build_alloc(&b->c, sizeof *ec);
	if (!ec || scope_push(b) < 0)
		return b->c.err;
	ec->loglevel = -1;
	bool have_id, have_sid;
	uint64_t sid = 0;
	block_attr_u64(b, blk, "id", &have_id, &ec->id);
	block_attr_u64(b, blk, "stream_id", &have_sid, &sid);
	for (size_t i = 0; i < blk->child_count && !b->c.err; i++) {
		const ast_node *a = blk->children[i];
		if (a->kind == AST_ATTR_TYPE) {
			if (strcmp(a->name, "context") == 0)
				ec->context = build_scope_type(b, a);
			else if (strcmp(a->name, "fields") == 0)
				ec->payload = build_scope_type(b, a);
		} else if (a->kind == AST_ATTR) {
			const char *text = value_text(&a->value);
			if (strcmp(a->name, "name") == 0) {
				if (!text)
					berr(b, a, "event name must be a name or a string");
				ec->name = (char *)text;
			} else if (strcmp(a->name, "loglevel") == 0) {
				if (a->value.kind == VAL_INT && !a->value.negative && a->value.u <= 14)
					ec->loglevel = (int)a->value.u;
			} else if (strcmp(a->name, "model.emf.uri") == 0) {
				ec->emf_uri = (char *)text;
			}
		} else {
			build_declaration(b, a);
		}
	}
	scope_pop(b);
	if (b->c.err)
		return b->c.err;
	if (!ec->name)
		return berr(b, blk, "event without a name");
	/* babeltrace2 shows an empty name as it shows a CTF 2 event record
	 * class without one. */
	if (!ec->name[0])
		ec->name = (char *)"<unknown>";
	if (!have_sid) {
		if (t->pub.stream_class_count > 1)
			return berr(b, blk, "event \"%s\" has no stream_id but the trace has several stream classes", ec->name);
		if (t->pub.stream_class_count == 0) {
			ctf_stream_class *sc = ctf_build_alloc(&b->c, sizeof *sc);
			if (!sc)
				return b->c.err;
			sc->pub.trace = &t->pub;
			if (tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, sc) < 0)
				return b->c.err = TC_ENOMEM;
		}
		sid = t->pub.stream_classes[0]->id;
	}
	ctf_stream_class *sc = ctf_stream_class_by_id(t, sid);
	if (!sc)
		return berr(b, blk, "event \"%s\" refers to unknown stream class %" PRIu64, ec->name, sid);
	for (size_t i = 0; i < sc->pub.event_class_count; i++)
		if (sc->pub.event_classes[i]->id == ec->id)
			return berr(b, blk, "event id %" PRIu64 " declared twice in stream class %" PRIu64, ec->id, sid);
	ec->stream_class = &sc->pub;
	return tc_ptr_push((void ***)&sc->pub.event_classes, &sc->pub.event_class_count, ec) < 0 ? (b->c.err = TC_ENOMEM) : 0;
}

/* ---- compiling layouts: roles, clocks, references, visibility ---- */

typedef struct path_frame {
	tc_field_class *cls;
	size_t child;          /* member index, or PATH_ELEMENT inside arrays */
} path_frame;

typedef struct compile_ctx {
	builder *b;
	ctf_stream_class *sc;
	tc_field_class *roots[SCOPE_COUNT];
	ctf_scope scope;
	path_frame stack[128];
	size_t depth;
} compile_ctx;

static const char *const scope_prefixes[SCOPE_COUNT] = {
	"trace.packet.header.", "stream.packet.context.", "stream.event.header.",
	"stream.event.context.", "event.context.", "event.fields.",
};

/* Descends from FC along the dotted names in REST, appending steps. */
static tc_field_class *descend(tc_field_class *fc, const char *rest, uint16_t *steps, size_t *n, size_t max)
{
	while (*rest) {
		while (fc->kind == TC_FIELD_ARRAY || fc->kind == TC_FIELD_SEQUENCE) {
			if (*n >= max)
				return NULL;
			steps[(*n)++] = PATH_ELEMENT;
			fc = fc->element;
		}
		if (fc->kind != TC_FIELD_STRUCT)
			return NULL;
		const char *dot = strchr(rest, '.');
		size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
		size_t i;
		for (i = 0; i < fc->member_count; i++)
			if (strlen(fc->members[i].name) == len && memcmp(fc->members[i].name, rest, len) == 0)
				break;
		if (i == fc->member_count || *n >= max)
			return NULL;
		steps[(*n)++] = (uint16_t)i;
		fc = fc->members[i].cls;
		rest = dot ? dot + 1 : rest + len;
	}
	return fc;
}

static int resolve_ref(compile_ctx *cx, tc_field_class *fc, const char *ref)
{
	builder *b = cx->b;
	uint16_t steps[128];
	size_t n = 0;
	tc_field_class *target = NULL;
	ctf_scope scope = cx->scope;
	bool absolute = false;
	for (int s = 0; s < SCOPE_COUNT; s++) {
		size_t pl = strlen(scope_prefixes[s]);
		if (strncmp(ref, scope_prefixes[s], pl) == 0) {
			absolute = true;
			scope = (ctf_scope)s;
			if (scope > cx->scope)
				return ctf_build_fail_at(&b->c, fc, "\"%s\" refers to a scope decoded later", ref);
			if (cx->roots[s])
				target = descend(cx->roots[s], ref + pl, steps, &n, 128);
			break;
		}
	}
	if (!absolute) {
		/* Innermost enclosing structure first, then outwards, looking
		 * only at members before the one that leads to us
		 * (doc/formats/ctf.md §3.4). */
		const char *dot = strchr(ref, '.');
		size_t len = dot ? (size_t)(dot - ref) : strlen(ref);
		for (size_t lvl = cx->depth; lvl-- > 0 && !target;) {
			tc_field_class *s = cx->stack[lvl].cls;
			if (s->kind != TC_FIELD_STRUCT)
				continue;
			for (size_t i = 0; i < cx->stack[lvl].child && i < s->member_count; i++) {
				if (strlen(s->members[i].name) != len || memcmp(s->members[i].name, ref, len) != 0)
					continue;
				n = 0;
				for (size_t k = 0; k < lvl; k++)
					steps[n++] = (uint16_t)cx->stack[k].child;
				steps[n++] = (uint16_t)i;
				target = dot ? descend(s->members[i].cls, dot + 1, steps, &n, 128) : s->members[i].cls;
				break;
			}
		}
	} else if (target && scope == cx->scope) {
		/* The target must come before the field that uses it. */
		bool before = false;
		for (size_t k = 0; k < n && k < cx->depth; k++) {
			if (steps[k] == cx->stack[k].child)
				continue;
			before = steps[k] < cx->stack[k].child;
			break;
		}
		if (!before)
			target = NULL;
	}
	if (!target)
		return ctf_build_fail_at(&b->c, fc, "cannot find the field \"%s\" (a %s %s) before it", ref,
		            fc->kind == TC_FIELD_SEQUENCE ? "sequence" : "variant",
		            fc->kind == TC_FIELD_SEQUENCE ? "length" : "tag");
	ctf_plan *pl = plan_of(fc);
	if (fc->kind == TC_FIELD_SEQUENCE) {
		if ((target->kind != TC_FIELD_INT && target->kind != TC_FIELD_ENUM) || target->is_signed)
			return ctf_build_fail_at(&b->c, fc, "sequence length \"%s\" is not an unsigned integer", ref);
	} else {
		if (target->kind != TC_FIELD_ENUM)
			return ctf_build_fail_at(&b->c, fc, "variant tag \"%s\" is not an enumeration", ref);
		pl->label_option = ctf_build_alloc(&b->c, (target->label_count ? target->label_count : 1) * sizeof(int32_t));
		if (!pl->label_option)
			return b->c.err;
		for (size_t l = 0; l < target->label_count; l++) {
			pl->label_option[l] = -1;
			for (size_t o = 0; o < fc->member_count; o++)
				if (strcmp(fc->members[o].name, target->labels[l].label) == 0) {
					pl->label_option[l] = (int32_t)o;
					break;
				}
		}
	}
	pl->ref_scope = scope;
	pl->ref_cls = target;
	pl->ref_len = n;
	pl->ref_path = ctf_build_alloc(&b->c, (n ? n : 1) * sizeof *pl->ref_path);
	if (!pl->ref_path)
		return b->c.err;
	memcpy(pl->ref_path, steps, n * sizeof *steps);
	plan_of(target)->referenced = true;
	return 0;
}

static int compile_refs(compile_ctx *cx, tc_field_class *fc)
{
	if (cx->depth >= 127)
		return berr(cx->b, NULL, "types nested too deeply");
	if (fc->kind == TC_FIELD_SEQUENCE && resolve_ref(cx, fc, fc->length_ref) < 0)
		return cx->b->c.err;
	if (fc->kind == TC_FIELD_VARIANT && fc->tag_ref && resolve_ref(cx, fc, fc->tag_ref) < 0)
		return cx->b->c.err;
	if (fc->kind == TC_FIELD_VARIANT && !fc->tag_ref)
		return ctf_build_fail_at(&cx->b->c, fc, "variant without a tag");
	path_frame *f = &cx->stack[cx->depth++];
	f->cls = fc;
	int rc = 0;
	if (fc->kind == TC_FIELD_STRUCT || fc->kind == TC_FIELD_VARIANT) {
		for (size_t i = 0; i < fc->member_count && !rc; i++) {
			f->child = i;
			rc = compile_refs(cx, fc->members[i].cls);
		}
	} else if (fc->kind == TC_FIELD_ARRAY || fc->kind == TC_FIELD_SEQUENCE) {
		f->child = PATH_ELEMENT;
		rc = compile_refs(cx, fc->element);
	}
	cx->depth--;
	return rc;
}

static tc_clock *default_clock(builder *b)
{
	ctf_trace *t = b->c.t;
	if (t->pub.clock_count == 1)
		return t->pub.clocks[0];
	if (t->pub.clock_count > 1)
		return berr(b, NULL, "a timestamp is not mapped to a clock and the trace has several"), NULL;
	/* No clock at all: babeltrace2 invents a 1 GHz one, at offset 0 even
	 * with --clock-offset (its offsets apply to declared clocks only). */
	tc_clock *c = ctf_build_alloc(&b->c, sizeof *c);
	if (!c)
		return NULL;
	c->name = "default";
	c->freq = 1000000000u;
	if (tc_ptr_push((void ***)&t->pub.clocks, &t->pub.clock_count, c) < 0) {
		b->c.err = TC_ENOMEM;
		return NULL;
	}
	return c;
}

static bool is_int(const tc_field_class *fc)
{
	return fc->kind == TC_FIELD_INT || fc->kind == TC_FIELD_ENUM;
}

/* Event header: every `id` is an event class id, every `timestamp` a time. */
static int mark_header(builder *b, tc_field_class *fc, int depth)
{
	if (depth > 64)
		return berr(b, NULL, "event header nested too deeply");
	for (size_t i = 0; i < fc->member_count; i++) {
		tc_member *m = &fc->members[i];
		if (is_int(m->cls)) {
			if (strcmp(m->display_name, "id") == 0)
				plan_of(m->cls)->role = TC_ROLE_EVENT_ID;
			else if (strcmp(m->display_name, "timestamp") == 0) {
				plan_of(m->cls)->role = TC_ROLE_TIMESTAMP;
				if (!m->cls->clock && !(m->cls->clock = default_clock(b)))
					return b->c.err;
			}
		} else if (m->cls->kind == TC_FIELD_STRUCT || m->cls->kind == TC_FIELD_VARIANT) {
			if (mark_header(b, m->cls, depth + 1) < 0)
				return b->c.err;
		}
	}
	return 0;
}

static int mark_top_roles(builder *b, tc_field_class *fc, bool packet_header)
{
	static const struct { const char *name; tc_field_role role; } header_roles[] = {
		{ "magic", TC_ROLE_MAGIC }, { "uuid", TC_ROLE_UUID }, { "stream_id", TC_ROLE_STREAM_ID },
		{ "stream_instance_id", TC_ROLE_STREAM_INSTANCE_ID },
	}, context_roles[] = {
		{ "packet_size", TC_ROLE_PACKET_SIZE }, { "content_size", TC_ROLE_CONTENT_SIZE },
		{ "timestamp_begin", TC_ROLE_TS_BEGIN }, { "timestamp_end", TC_ROLE_TS_END },
		{ "events_discarded", TC_ROLE_EVENTS_DISCARDED }, { "packet_seq_num", TC_ROLE_PACKET_SEQ_NUM },
	};
	const __typeof__(header_roles[0]) *roles = packet_header ? header_roles : context_roles;
	size_t nroles = packet_header ? 4 : 6;
	for (size_t i = 0; i < fc->member_count; i++) {
		tc_member *m = &fc->members[i];
		for (size_t r = 0; r < nroles; r++) {
			if (strcmp(m->display_name, roles[r].name) != 0)
				continue;
			if (roles[r].role == TC_ROLE_UUID) {
				if (m->cls->kind == TC_FIELD_ARRAY && m->cls->length == 16 && is_int(m->cls->element) &&
				    m->cls->element->size == 8)
					plan_of(m->cls)->role = TC_ROLE_UUID;
				continue;
			}
			if (!is_int(m->cls) || m->cls->is_signed)
				return ctf_build_fail_at(&b->c, m->cls, "\"%s\" must be an unsigned integer", m->display_name);
			if (roles[r].role == TC_ROLE_MAGIC && (i != 0 || m->cls->size != 32))
				return ctf_build_fail_at(&b->c, m->cls, "\"magic\" must be the first member and 32 bits wide");
			plan_of(m->cls)->role = roles[r].role;
			if ((roles[r].role == TC_ROLE_TS_BEGIN || roles[r].role == TC_ROLE_TS_END) && !m->cls->clock &&
			    !(m->cls->clock = default_clock(b)))
				return b->c.err;
		}
	}
	return 0;
}

/* Hidden: special fields, clock-mapped integers (unless used as a length or
 * tag), and compounds whose every member is hidden (doc/formats/ctf.md
 * §3.5). */
static bool compute_hidden(tc_field_class *fc, bool specials_hidden)
{
	ctf_plan *pl = plan_of(fc);
	bool hidden = false;
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
		hidden = (fc->clock && !pl->referenced) ||
		         (specials_hidden && pl->role != TC_ROLE_NONE && pl->role != TC_ROLE_EVENT_ID &&
		          pl->role != TC_ROLE_TIMESTAMP);
		break;
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT: {
		bool all = fc->member_count > 0;
		for (size_t i = 0; i < fc->member_count; i++)
			if (!compute_hidden(fc->members[i].cls, specials_hidden))
				all = false;
		hidden = all;
		break;
	}
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		hidden = compute_hidden(fc->element, false);
		break;
	default:
		break;
	}
	if (hidden)
		fc->flags |= TC_FIELD_HIDDEN;
	return hidden;
}

static int compile_scope(compile_ctx *cx, ctf_scope scope, tc_field_class *fc)
{
	if (!fc)
		return 0;
	cx->scope = scope;
	cx->roots[scope] = fc;
	cx->depth = 0;
	return compile_refs(cx, fc);
}

static int compile_stream_class(builder *b, ctf_stream_class *sc)
{
	ctf_trace *t = b->c.t;
	if (sc->pub.packet_context && mark_top_roles(b, sc->pub.packet_context, false) < 0)
		return b->c.err;
	if (sc->pub.event_header && mark_header(b, sc->pub.event_header, 0) < 0)
		return b->c.err;
	compile_ctx cx = { .b = b, .sc = sc };
	/* Lengths and tags are resolved per event class, since a stream's
	 * contexts may refer to nothing else; the stream-level scopes are
	 * compiled once here with no event scopes present. */
	if (compile_scope(&cx, SCOPE_PACKET_HEADER, t->pub.packet_header) < 0 ||
	    compile_scope(&cx, SCOPE_PACKET_CONTEXT, sc->pub.packet_context) < 0 ||
	    compile_scope(&cx, SCOPE_EVENT_HEADER, sc->pub.event_header) < 0 ||
	    compile_scope(&cx, SCOPE_STREAM_EVENT_CONTEXT, sc->pub.event_context) < 0)
		return b->c.err;
	for (size_t i = 0; i < sc->pub.event_class_count; i++) {
		tc_event_class *ec = sc->pub.event_classes[i];
		if (compile_scope(&cx, SCOPE_EVENT_CONTEXT, ec->context) < 0 ||
		    compile_scope(&cx, SCOPE_PAYLOAD, ec->payload) < 0)
			return b->c.err;
	}
	if (sc->pub.packet_context)
		compute_hidden(sc->pub.packet_context, true);
	if (sc->pub.event_context)
		compute_hidden(sc->pub.event_context, false);
	for (size_t i = 0; i < sc->pub.event_class_count; i++) {
		tc_event_class *ec = sc->pub.event_classes[i];
		if (ec->context)
			compute_hidden(ec->context, false);
		if (ec->payload)
			compute_hidden(ec->payload, false);
	}
	return ctf_stream_class_finish(&b->c, sc);
}

static const ast_node *find_trace_byte_order(const tsdl_doc *doc)
{
	for (size_t i = 0; i < doc->top_count; i++) {
		const ast_node *n = doc->top[i];
		if (n->kind != AST_BLOCK || strcmp(n->name, "trace") != 0)
			continue;
		for (size_t k = 0; k < n->child_count; k++)
			if (n->children[k]->kind == AST_ATTR && strcmp(n->children[k]->name, "byte_order") == 0)
				return n->children[k];
	}
	return NULL;
}

static int build_all(builder *b, const tsdl_doc *doc)
{
	const ast_node *bo = find_trace_byte_order(doc);
	if (!bo)
		return berr(b, NULL, "the trace block has no byte_order");
	if (value_byte_order(b, bo, &b->c.t->byte_order, false) < 0)
		return b->c.err;
	static const char *const order[] = { "env", "clock", NULL, "trace", "stream", "event" };
	for (size_t pass = 0; pass < 6 && !b->c.err; pass++) {
		for (size_t i = 0; i < doc->top_count && !b->c.err; i++) {
			const ast_node *n = doc->top[i];
			bool is_block = n->kind == AST_BLOCK;
			if (order[pass] == NULL) {
				if (!is_block)
					build_declaration(b, n);
				continue;
			}
			if (!is_block || strcmp(n->name, order[pass]) != 0)
				continue;
			switch (pass) {
			case 0: build_env(b, n); break;
			case 1: build_clock(b, n); break;
			case 3: build_trace_block(b, n); break;
			case 4: build_stream_block(b, n); break;
			case 5: build_event_block(b, n); break;
			}
		}
		if (pass == 3 && !b->c.err) {
			size_t ntrace = 0;
			for (size_t i = 0; i < doc->top_count; i++)
				if (doc->top[i]->kind == AST_BLOCK && strcmp(doc->top[i]->name, "trace") == 0)
					ntrace++;
			if (ntrace != 1)
				return berr(b, NULL, "expected exactly one trace block, found %zu", ntrace);
		}
	}
	if (b->c.err)
		return b->c.err;
	ctf_trace *t = b->c.t;
	if (t->pub.packet_header && mark_top_roles(b, t->pub.packet_header, true) < 0)
		return b->c.err;
	bool header_has_stream_id = false;
	if (t->pub.packet_header)
		for (size_t i = 0; i < t->pub.packet_header->member_count; i++)
			if (plan_of(t->pub.packet_header->members[i].cls)->role == TC_ROLE_STREAM_ID)
				header_has_stream_id = true;
	if (t->pub.stream_class_count > 1 && !header_has_stream_id)
		return berr(b, NULL, "several stream classes but no stream_id in the packet header");
	if (t->pub.packet_header)
		compute_hidden(t->pub.packet_header, true);
	for (size_t i = 0; i < t->pub.stream_class_count; i++)
		if (compile_stream_class(b, (ctf_stream_class *)t->pub.stream_classes[i]) < 0)
			return b->c.err;
	ctf_trace_finish(t);
	return 0;
}

int ctf1_metadata_build(ctf_build *cb, const tsdl_doc *doc)
{
	builder b = { .c = *cb };
	scope_push(&b);
	int rc = b.c.err ? b.c.err : build_all(&b, doc);
	while (b.scope)
		scope_pop(&b);
	cb->err = b.c.err;
	return rc;
}
