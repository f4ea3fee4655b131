/* SPDX-License-Identifier: MIT */
/*
 * tsdl_parse.c - lexer and recursive-descent parser for TSDL, the CTF 1.8
 * metadata language (grammar: CTF 1.8 §7 and Appendix C).
 *
 * The parser only builds syntax (tsdl.h); meaning (types, scopes, clocks)
 * is tsdl_meta.c's job.  Keywords are lexed as identifiers and recognised by
 * the parser where the grammar expects them, because TSDL lets keywords
 * appear as parts of dotted names (stream.packet.context, event.header).
 * Nesting is bounded so hostile metadata cannot exhaust the stack.
 */
#include "ctf/tsdl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 64

typedef enum tok_kind { T_EOF, T_IDENT, T_INT, T_STRING, T_PUNCT } tok_kind;

typedef struct token {
	tok_kind kind;
	const char *start;   /* IDENT/PUNCT text in the source */
	size_t len;
	uint64_t u;          /* T_INT */
	char *str;           /* T_STRING, unescaped, pool-owned */
	size_t offset;
	int line;
} token;

typedef struct parser {
	const char *text, *end, *cur;
	int line;
	const char *path;
	tc_pool *pool;
	token tok;          /* current token */
	token peek;         /* one token of lookahead */
	bool have_peek;
	int depth;
	int err;            /* first error code, 0 if none */
} parser;

static const char *const keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env", "event",
	"floating_point", "float", "integer", "int", "long", "short", "signed", "stream",
	"string", "struct", "trace", "typealias", "typedef", "unsigned", "variant", "void",
	"_Bool", "_Complex", "_Imaginary",
};

static int perr(parser *p, size_t offset, int line, const char *fmt, const char *arg)
{
	if (!p->err)
		p->err = tc_fail(TC_EFORMAT, p->path, (int64_t)offset, "metadata line %d: %s%s", line, fmt,
		                 arg ? arg : "");
	return p->err;
}

/* ---- lexer ---- */

static int skip_space(parser *p)
{
	for (;;) {
		while (p->cur < p->end && (*p->cur == ' ' || *p->cur == '\t' || *p->cur == '\r' ||
		                          *p->cur == '\n' || *p->cur == '\f' || *p->cur == '\v')) {
			if (*p->cur == '\n')
				p->line++;
			p->cur++;
		}
		if (p->end - p->cur >= 2 && p->cur[0] == '/' && p->cur[1] == '*') {
			const char *s = p->cur + 2;
			while (s + 1 < p->end && !(s[0] == '*' && s[1] == '/')) {
				if (*s == '\n')
					p->line++;
				s++;
			}
			if (s + 1 >= p->end)
				return perr(p, (size_t)(p->cur - p->text), p->line, "unterminated comment", NULL);
			p->cur = s + 2;
		} else if (p->end - p->cur >= 2 && p->cur[0] == '/' && p->cur[1] == '/') {
			while (p->cur < p->end && *p->cur != '\n')
				p->cur++;
		} else {
			return 0;
		}
	}
}

static int lex_int(parser *p, token *t)
{
	const char *s = p->cur;
	uint64_t v = 0;
	unsigned base = 10;
	if (s[0] == '0' && s + 1 < p->end && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	const char *digits = s;
	for (; s < p->end; s++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if ((unsigned)d >= base)
			return perr(p, t->offset, t->line, "invalid digit in integer literal", NULL);
		if (!tc_mul_u64(v, base, &v) || !tc_add_u64(v, (uint64_t)d, &v))
			return perr(p, t->offset, t->line, "integer literal does not fit in 64 bits", NULL);
	}
	if (base == 16 && s == digits)
		return perr(p, t->offset, t->line, "hexadecimal literal without digits", NULL);
	while (s < p->end && (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L'))
		s++;
	if (s < p->end && (isalnum((unsigned char)*s) || *s == '_'))
		return perr(p, t->offset, t->line, "malformed integer literal", NULL);
	t->kind = T_INT;
	t->u = v;
	p->cur = s;
	return 0;
}

static int lex_string(parser *p, token *t)
{
	tc_buf b = { 0 };
	const char *s = p->cur + 1;
	while (s < p->end && *s != '"') {
		char c = *s++;
		if (c == '\n')
			p->line++;
		if (c == '\\' && s < p->end) {
			char e = *s++;
			switch (e) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'v': c = '\v'; break;
			case 'x': {
				unsigned v = 0;
				int n = 0;
				while (s < p->end && n < 2 && isxdigit((unsigned char)*s)) {
					v = v * 16 + (unsigned)(isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
					s++;
					n++;
				}
				c = (char)v;
				break;
			}
			default:
				if (e >= '0' && e <= '7') {
					unsigned v = (unsigned)(e - '0');
					int n = 1;
					while (s < p->end && n < 3 && *s >= '0' && *s <= '7') {
						v = v * 8 + (unsigned)(*s++ - '0');
						n++;
					}
					c = (char)v;
				} else {
					c = e;   /* \" \\ \' \? */
				}
			}
		}
		if (tc_buf_append(&b, &c, 1) < 0) {
			tc_buf_free(&b);
			return p->err = TC_ENOMEM;
		}
	}
	if (s >= p->end) {
		tc_buf_free(&b);
		return perr(p, t->offset, t->line, "unterminated string literal", NULL);
	}
	t->kind = T_STRING;
	t->str = tc_pool_strndup(p->pool, b.data ? b.data : "", b.len);
	tc_buf_free(&b);
	if (!t->str)
		return p->err = TC_ENOMEM;
	p->cur = s + 1;
	return 0;
}

static int lex(parser *p, token *t)
{
	memset(t, 0, sizeof *t);
	if (skip_space(p) < 0)
		return p->err;
	t->offset = (size_t)(p->cur - p->text);
	t->line = p->line;
	t->start = p->cur;
	if (p->cur >= p->end) {
		t->kind = T_EOF;
		return 0;
	}
	char c = *p->cur;
	if (isalpha((unsigned char)c) || c == '_') {
		if (c == 'L' && p->cur + 1 < p->end && (p->cur[1] == '"' || p->cur[1] == '\''))
			return perr(p, t->offset, t->line, "wide string literals are not supported", NULL);
		while (p->cur < p->end && (isalnum((unsigned char)*p->cur) || *p->cur == '_'))
			p->cur++;
		t->kind = T_IDENT;
		t->len = (size_t)(p->cur - t->start);
		return 0;
	}
	if (isdigit((unsigned char)c))
		return lex_int(p, t);
	if (c == '"')
		return lex_string(p, t);
	if (c == '\'') {
		/* Character literals exist in the grammar; they carry no meaning here. */
		const char *s = p->cur + 1;
		while (s < p->end && *s != '\'')
			s += (*s == '\\') ? 2 : 1;
		if (s >= p->end)
			return perr(p, t->offset, t->line, "unterminated character literal", NULL);
		t->kind = T_INT;
		t->u = (unsigned char)p->cur[1];
		p->cur = s + 1;
		return 0;
	}
	static const char *const multi[] = { ":=", "...", "->" };
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(multi[i]);
		if ((size_t)(p->end - p->cur) >= n && memcmp(p->cur, multi[i], n) == 0) {
			t->kind = T_PUNCT;
			t->len = n;
			p->cur += n;
			return 0;
		}
	}
	if (strchr("[](){}.*+-<>:;=,", c)) {
		t->kind = T_PUNCT;
		t->len = 1;
		p->cur++;
		return 0;
	}
	char bad[8];
	snprintf(bad, sizeof bad, "'%c'", isprint((unsigned char)c) ? c : '?');
	return perr(p, t->offset, t->line, "unexpected character ", bad);
}

static int advance(parser *p)
{
	if (p->have_peek) {
		p->tok = p->peek;
		p->have_peek = false;
		return 0;
	}
	return lex(p, &p->tok);
}

static token *peek(parser *p)
{
	if (!p->have_peek) {
		if (lex(p, &p->peek) < 0)
			p->peek.kind = T_EOF;
		p->have_peek = true;
	}
	return &p->peek;
}

static bool tok_is(const token *t, const char *s)
{
	size_t n = strlen(s);
	return (t->kind == T_IDENT || t->kind == T_PUNCT) && t->len == n && memcmp(t->start, s, n) == 0;
}

static bool is(parser *p, const char *s)
{
	return tok_is(&p->tok, s);
}

static bool is_keyword_tok(const token *t)
{
	if (t->kind != T_IDENT)
		return false;
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (tok_is(t, keywords[i]))
			return true;
	return false;
}

static bool is_plain_ident(parser *p)
{
	return p->tok.kind == T_IDENT && !is_keyword_tok(&p->tok);
}

static int expect(parser *p, const char *s)
{
	if (!is(p, s))
		return perr(p, p->tok.offset, p->tok.line, "expected ", s);
	return advance(p);
}

static char *tok_text(parser *p)
{
	char *s = tc_pool_strndup(p->pool, p->tok.start, p->tok.len);
	if (!s)
		p->err = TC_ENOMEM;
	return s;
}

static ast_node *new_node(parser *p, ast_kind kind)
{
	ast_node *n = tc_pool_alloc(p->pool, sizeof *n);
	if (!n) {
		p->err = TC_ENOMEM;
		return NULL;
	}
	n->kind = kind;
	n->line = p->tok.line;
	n->offset = p->tok.offset;
	return n;
}

/* Arrays grow inside the pool (capacity implied by the count, doubled at
 * powers of two): the whole tree is released with its pool. */
static int push_node(parser *p, ast_node ***arr, size_t *count, ast_node *n)
{
	size_t c = *count;
	if (c == 0 || (c >= 4 && (c & (c - 1)) == 0)) {
		ast_node **a = tc_pool_alloc(p->pool, (c ? c * 2 : 4) * sizeof *a);
		if (!a)
			return p->err = TC_ENOMEM;
		if (c)
			memcpy(a, *arr, c * sizeof *a);
		*arr = a;
	}
	(*arr)[c] = n;
	*count = c + 1;
	return 0;
}

/* ---- grammar ---- */

static ast_node *parse_type(parser *p);
static int parse_body_entry(parser *p, ast_node *owner, bool in_block);

/* ident { "." ident } where keywords are allowed as parts. */
static char *parse_dotted(parser *p, bool allow_arrow)
{
	tc_buf b = { 0 };
	for (;;) {
		if (p->tok.kind != T_IDENT) {
			tc_buf_free(&b);
			perr(p, p->tok.offset, p->tok.line, "expected an identifier", NULL);
			return NULL;
		}
		if (tc_buf_append(&b, p->tok.start, p->tok.len) < 0 || advance(p) < 0)
			break;
		if (is(p, ".") || (allow_arrow && is(p, "->"))) {
			if (tc_buf_append(&b, ".", 1) < 0 || advance(p) < 0)
				break;
			continue;
		}
		char *s = tc_pool_strndup(p->pool, b.data, b.len);
		tc_buf_free(&b);
		if (!s)
			p->err = TC_ENOMEM;
		return s;
	}
	tc_buf_free(&b);
	if (!p->err)
		p->err = TC_ENOMEM;
	return NULL;
}

static int parse_value(parser *p, ast_value *v)
{
	memset(v, 0, sizeof *v);
	if (is(p, "-") || is(p, "+")) {
		v->negative = is(p, "-");
		if (advance(p) < 0)
			return p->err;
		if (p->tok.kind != T_INT)
			return perr(p, p->tok.offset, p->tok.line, "expected an integer after the sign", NULL);
	}
	if (p->tok.kind == T_INT) {
		v->kind = VAL_INT;
		v->u = p->tok.u;
		if (v->negative && v->u == 0)
			v->negative = false;
		return advance(p);
	}
	if (p->tok.kind == T_STRING) {
		v->kind = VAL_STR;
		v->s = p->tok.str;
		if (advance(p) < 0)
			return p->err;
		/* Adjacent string literals concatenate, as in C. */
		while (p->tok.kind == T_STRING) {
			size_t a = strlen(v->s), b = strlen(p->tok.str);
			char *s = tc_pool_alloc(p->pool, a + b + 1);
			if (!s)
				return p->err = TC_ENOMEM;
			memcpy(s, v->s, a);
			memcpy(s + a, p->tok.str, b + 1);
			v->s = s;
			if (advance(p) < 0)
				return p->err;
		}
		return 0;
	}
	if (p->tok.kind == T_IDENT) {
		v->kind = VAL_PATH;
		v->s = parse_dotted(p, true);
		return v->s ? 0 : p->err;
	}
	return perr(p, p->tok.offset, p->tok.line, "expected a value", NULL);
}

/* integer/floating_point/string attribute list: { name = value; ... } */
static int parse_attr_list(parser *p, ast_node *n)
{
	if (expect(p, "{") < 0)
		return p->err;
	while (!is(p, "}")) {
		if (p->tok.kind != T_IDENT)
			return perr(p, p->tok.offset, p->tok.line, "expected an attribute name", NULL);
		ast_node *a = new_node(p, AST_ATTR);
		if (!a || !(a->name = tok_text(p)) || advance(p) < 0 || expect(p, "=") < 0 ||
		    parse_value(p, &a->value) < 0 || expect(p, ";") < 0)
			return p->err ? p->err : TC_ENOMEM;
		if (push_node(p, &n->children, &n->child_count, a) < 0)
			return p->err;
	}
	return advance(p);
}

static int parse_dim(parser *p, ast_dim *d, bool allow_empty)
{
	memset(d, 0, sizeof *d);
	if (is(p, "]")) {
		if (!allow_empty)
			return perr(p, p->tok.offset, p->tok.line, "array length missing", NULL);
		return 0;
	}
	if (p->tok.kind == T_INT) {
		d->is_int = true;
		d->n = p->tok.u;
		return advance(p);
	}
	if (p->tok.kind == T_IDENT) {
		d->path = parse_dotted(p, false);
		return d->path ? 0 : p->err;
	}
	return perr(p, p->tok.offset, p->tok.line, "expected an array length", NULL);
}

static ast_declarator *parse_declarator(parser *p, bool abstract)
{
	ast_declarator *d = tc_pool_alloc(p->pool, sizeof *d);
	if (!d) {
		p->err = TC_ENOMEM;
		return NULL;
	}
	d->line = p->tok.line;
	while (is(p, "*")) {
		d->pointers++;
		if (advance(p) < 0)
			return NULL;
		if (is(p, "const") && advance(p) < 0)
			return NULL;
	}
	if (p->tok.kind == T_IDENT && !(abstract && is(p, ":="))) {
		if (is_keyword_tok(&p->tok))
			return perr(p, p->tok.offset, p->tok.line, "a keyword cannot be a field name: ",
			            tok_text(p)), NULL;
		if (!(d->name = tok_text(p)) || advance(p) < 0)
			return NULL;
	} else if (!abstract) {
		perr(p, p->tok.offset, p->tok.line, "expected a field name", NULL);
		return NULL;
	}
	while (is(p, "[")) {
		if (advance(p) < 0)
			return NULL;
		ast_dim *dims = tc_pool_alloc(p->pool, (d->dim_count + 1) * sizeof *dims);
		if (!dims) {
			p->err = TC_ENOMEM;
			return NULL;
		}
		if (d->dim_count)
			memcpy(dims, d->dims, d->dim_count * sizeof *dims);
		if (parse_dim(p, &dims[d->dim_count], abstract) < 0)
			return NULL;
		d->dims = dims;
		d->dim_count++;
		if (expect(p, "]") < 0)
			return NULL;
	}
	if (is(p, ":")) {
		perr(p, p->tok.offset, p->tok.line, "bit-field declarators (name:bits) are not supported", NULL);
		return NULL;
	}
	return d;
}

static int push_decl(parser *p, ast_node *n, ast_declarator *d)
{
	ast_declarator **a = tc_pool_alloc(p->pool, (n->decl_count + 1) * sizeof *a);
	if (!a)
		return p->err = TC_ENOMEM;
	if (n->decl_count)
		memcpy(a, n->decls, n->decl_count * sizeof *a);
	a[n->decl_count++] = d;
	n->decls = a;
	return 0;
}

static bool is_c_type_word(const token *t)
{
	static const char *const words[] = { "unsigned", "signed", "int", "long", "short", "char",
	                                     "double", "float", "const", "_Bool", "_Complex",
	                                     "_Imaginary", "void" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (tok_is(t, words[i]))
			return true;
	return false;
}

/* A run of C type words ("unsigned long") or one declared type name. */
static ast_node *parse_typename(parser *p)
{
	ast_node *n = new_node(p, AST_TYPENAME);
	if (!n)
		return NULL;
	if (is_c_type_word(&p->tok)) {
		tc_buf b = { 0 };
		while (is_c_type_word(&p->tok)) {
			if ((b.len && tc_buf_append(&b, " ", 1) < 0) ||
			    tc_buf_append(&b, p->tok.start, p->tok.len) < 0 || advance(p) < 0) {
				tc_buf_free(&b);
				if (!p->err)
					p->err = TC_ENOMEM;
				return NULL;
			}
		}
		n->name = tc_pool_strndup(p->pool, b.data, b.len);
		tc_buf_free(&b);
		if (!n->name)
			p->err = TC_ENOMEM;
		return n->name ? n : NULL;
	}
	if (!is_plain_ident(p)) {
		perr(p, p->tok.offset, p->tok.line, "expected a type", NULL);
		return NULL;
	}
	if (!(n->name = tok_text(p)) || advance(p) < 0)
		return NULL;
	return n;
}

static int parse_enum_body(parser *p, ast_node *n)
{
	if (expect(p, "{") < 0)
		return p->err;
	size_t cap = 0;
	while (!is(p, "}")) {
		if (n->enumerator_count == cap) {
			cap = cap ? cap * 2 : 8;
			ast_enumerator *e = tc_pool_alloc(p->pool, cap * sizeof *e);
			if (!e)
				return p->err = TC_ENOMEM;
			if (n->enumerator_count)
				memcpy(e, n->enumerators, n->enumerator_count * sizeof *e);
			n->enumerators = e;
		}
		ast_enumerator *e = &n->enumerators[n->enumerator_count];
		memset(e, 0, sizeof *e);
		if (p->tok.kind == T_STRING)
			e->label = p->tok.str;
		else if (p->tok.kind == T_IDENT)
			e->label = tok_text(p);
		else
			return perr(p, p->tok.offset, p->tok.line, "expected an enumeration label", NULL);
		if (!e->label || advance(p) < 0)
			return p->err ? p->err : TC_ENOMEM;
		if (is(p, "=")) {
			e->has_value = true;
			if (advance(p) < 0 || parse_value(p, &e->lo) < 0)
				return p->err;
			if (e->lo.kind != VAL_INT)
				return perr(p, p->tok.offset, p->tok.line, "enumeration values must be integers", NULL);
			if (is(p, "...")) {
				e->is_range = true;
				if (advance(p) < 0 || parse_value(p, &e->hi) < 0)
					return p->err;
				if (e->hi.kind != VAL_INT)
					return perr(p, p->tok.offset, p->tok.line, "enumeration values must be integers", NULL);
			}
		}
		n->enumerator_count++;
		if (is(p, ","))
			advance(p);
		else if (!is(p, "}"))
			return perr(p, p->tok.offset, p->tok.line, "expected ',' or '}' in enumeration", NULL);
		if (p->err)
			return p->err;
	}
	return advance(p);
}

static int parse_members(parser *p, ast_node *n)
{
	if (expect(p, "{") < 0)
		return p->err;
	while (!is(p, "}")) {
		if (p->tok.kind == T_EOF)
			return perr(p, p->tok.offset, p->tok.line, "unexpected end of metadata in a body", NULL);
		if (parse_body_entry(p, n, false) < 0)
			return p->err;
	}
	return advance(p);
}

static ast_node *parse_type(parser *p)
{
	if (++p->depth > MAX_NESTING) {
		perr(p, p->tok.offset, p->tok.line, "types nested too deeply", NULL);
		return NULL;
	}
	ast_node *n = NULL;
	if (is(p, "integer") || is(p, "floating_point")) {
		n = new_node(p, is(p, "integer") ? AST_INTEGER : AST_FLOAT);
		if (!n || advance(p) < 0 || parse_attr_list(p, n) < 0)
			n = NULL;
	} else if (is(p, "string")) {
		n = new_node(p, AST_STRING);
		if (!n || advance(p) < 0 || (is(p, "{") && parse_attr_list(p, n) < 0))
			n = NULL;
	} else if (is(p, "enum")) {
		n = new_node(p, AST_ENUM);
		if (!n || advance(p) < 0)
			goto fail;
		if (is_plain_ident(p)) {
			if (!(n->name = tok_text(p)) || advance(p) < 0)
				goto fail;
		}
		if (is(p, ":")) {
			if (advance(p) < 0 || !(n->type = parse_type(p)))
				goto fail;
		}
		if (is(p, "{")) {
			n->has_body = true;
			if (parse_enum_body(p, n) < 0)
				goto fail;
		} else if (!n->name) {
			perr(p, p->tok.offset, p->tok.line, "enumeration without name or body", NULL);
			goto fail;
		}
	} else if (is(p, "struct") || is(p, "variant")) {
		bool is_struct = is(p, "struct");
		n = new_node(p, is_struct ? AST_STRUCT : AST_VARIANT);
		if (!n || advance(p) < 0)
			goto fail;
		if (is_plain_ident(p)) {
			if (!(n->name = tok_text(p)) || advance(p) < 0)
				goto fail;
		}
		if (!is_struct && is(p, "<")) {
			if (advance(p) < 0 || !(n->tag = parse_dotted(p, false)) || expect(p, ">") < 0)
				goto fail;
		}
		if (is(p, "{")) {
			n->has_body = true;
			if (parse_members(p, n) < 0)
				goto fail;
		} else if (!n->name) {
			perr(p, p->tok.offset, p->tok.line, is_struct ? "structure without name or body" :
			                                                "variant without name or body", NULL);
			goto fail;
		}
		if (is_struct && is(p, "align")) {
			if (advance(p) < 0 || expect(p, "(") < 0)
				goto fail;
			if (p->tok.kind != T_INT) {
				perr(p, p->tok.offset, p->tok.line, "expected an alignment", NULL);
				goto fail;
			}
			n->has_align = true;
			n->align = p->tok.u;
			if (advance(p) < 0 || expect(p, ")") < 0)
				goto fail;
		}
	} else {
		n = parse_typename(p);
	}
	p->depth--;
	return p->err ? NULL : n;
fail:
	p->depth--;
	if (!p->err)
		p->err = TC_ENOMEM;
	return NULL;
}

static int parse_typealias(parser *p, ast_node *owner)
{
	ast_node *n = new_node(p, AST_TYPEALIAS);
	if (!n || advance(p) < 0 || !(n->type = parse_type(p)))
		return p->err ? p->err : TC_ENOMEM;
	ast_declarator *d = parse_declarator(p, true);
	if (!d || push_decl(p, n, d) < 0 || expect(p, ":=") < 0)
		return p->err;
	/* The new name: C type words, identifiers and '*' ("unsigned long",
	 * "struct page *"). */
	tc_buf b = { 0 };
	while (p->tok.kind == T_IDENT || is(p, "*")) {
		if ((b.len && tc_buf_append(&b, " ", 1) < 0) ||
		    tc_buf_append(&b, p->tok.start, p->tok.len) < 0 || advance(p) < 0) {
			tc_buf_free(&b);
			return p->err ? p->err : (p->err = TC_ENOMEM);
		}
	}
	if (!b.len) {
		tc_buf_free(&b);
		return perr(p, p->tok.offset, p->tok.line, "expected a name after ':='", NULL);
	}
	n->name = tc_pool_strndup(p->pool, b.data, b.len);
	tc_buf_free(&b);
	if (!n->name)
		return p->err = TC_ENOMEM;
	if (expect(p, ";") < 0)
		return p->err;
	return push_node(p, &owner->children, &owner->child_count, n);
}

/* declarator { "," declarator } into N. */
static int parse_declarator_list(parser *p, ast_node *n)
{
	for (;;) {
		ast_declarator *d = parse_declarator(p, false);
		if (!d || push_decl(p, n, d) < 0)
			return p->err;
		if (!is(p, ","))
			return 0;
		if (advance(p) < 0)
			return p->err;
	}
}

static int parse_typedef(parser *p, ast_node *owner)
{
	ast_node *n = new_node(p, AST_TYPEDEF);
	if (!n || advance(p) < 0 || !(n->type = parse_type(p)))
		return p->err ? p->err : TC_ENOMEM;
	if (parse_declarator_list(p, n) < 0)
		return p->err;
	if (expect(p, ";") < 0)
		return p->err;
	return push_node(p, &owner->children, &owner->child_count, n);
}

/*
 * One entry of a body: typealias, typedef, a type declaration, a field
 * (struct/variant bodies), or an attribute (trace/stream/event/... blocks).
 */
static int parse_body_entry(parser *p, ast_node *owner, bool in_block)
{
	if (is(p, "typealias"))
		return parse_typealias(p, owner);
	if (is(p, "typedef"))
		return parse_typedef(p, owner);
	if (in_block) {
		/* name [. name]* ( "=" value | ":=" type ) ";" */
		if ((is(p, "struct") || is(p, "variant") || is(p, "enum")) && !tok_is(peek(p), "."))
			goto type_decl;
		ast_node *a = new_node(p, AST_ATTR);
		if (!a || !(a->name = parse_dotted(p, false)))
			return p->err ? p->err : TC_ENOMEM;
		if (is(p, ":=")) {
			a->kind = AST_ATTR_TYPE;
			if (advance(p) < 0 || !(a->type = parse_type(p)))
				return p->err;
		} else if (is(p, "=")) {
			if (advance(p) < 0 || parse_value(p, &a->value) < 0)
				return p->err;
		} else {
			return perr(p, p->tok.offset, p->tok.line, "expected '=' or ':=' after ", a->name);
		}
		if (expect(p, ";") < 0)
			return p->err;
		return push_node(p, &owner->children, &owner->child_count, a);
	}
type_decl:;
	ast_node *f = new_node(p, AST_FIELD);
	if (!f || !(f->type = parse_type(p)))
		return p->err ? p->err : TC_ENOMEM;
	if (is(p, ";")) {
		f->kind = AST_TYPE_DECL;
	} else {
		if (in_block)
			return perr(p, p->tok.offset, p->tok.line, "expected ';' after a type declaration", NULL);
		if (parse_declarator_list(p, f) < 0)
			return p->err;
	}
	if (expect(p, ";") < 0)
		return p->err;
	return push_node(p, &owner->children, &owner->child_count, f);
}

static const char *const block_kws[] = { "trace", "env", "clock", "stream", "event", "callsite" };

static int parse_top(parser *p, tsdl_doc *doc, ast_node *root)
{
	for (size_t i = 0; i < sizeof block_kws / sizeof block_kws[0]; i++) {
		if (is(p, block_kws[i]) && tok_is(peek(p), "{")) {
			ast_node *b = new_node(p, AST_BLOCK);
			if (!b || !(b->name = tok_text(p)) || advance(p) < 0 || advance(p) < 0)
				return p->err ? p->err : TC_ENOMEM;
			while (!is(p, "}")) {
				if (p->tok.kind == T_EOF)
					return perr(p, p->tok.offset, p->tok.line, "unexpected end of metadata in block ", b->name);
				if (parse_body_entry(p, b, true) < 0)
					return p->err;
			}
			if (advance(p) < 0 || expect(p, ";") < 0)
				return p->err;
			return push_node(p, &doc->top, &doc->top_count, b);
		}
	}
	size_t before = root->child_count;
	if (parse_body_entry(p, root, false) < 0)
		return p->err;
	for (size_t i = before; i < root->child_count; i++) {
		ast_node *n = root->children[i];
		if (n->kind == AST_FIELD)
			return perr(p, n->offset, n->line, "field declaration outside any block", NULL);
		if (push_node(p, &doc->top, &doc->top_count, n) < 0)
			return p->err;
	}
	return 0;
}

int tsdl_parse(tsdl_doc *doc, const char *text, size_t len, const char *path)
{
	memset(doc, 0, sizeof *doc);
	tc_pool_init(&doc->pool);
	parser p = { .text = text, .end = text + len, .cur = text, .line = 1, .path = path,
	             .pool = &doc->pool };
	ast_node root = { 0 };
	if (advance(&p) == 0) {
		while (p.tok.kind != T_EOF && !p.err)
			parse_top(&p, doc, &root);
	}
	return p.err;
}

void tsdl_doc_free(tsdl_doc *doc)
{
	tc_pool_free(&doc->pool);
	memset(doc, 0, sizeof *doc);
}
