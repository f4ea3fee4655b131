/* SPDX-License-Identifier: MIT */
/*
 * tsdl.h - the TSDL (CTF 1.8 metadata language) syntax tree.
 *
 * tsdl_parse.c turns metadata text into this tree; tsdl_meta.c walks it to
 * build the trace's classes (metadata.c calls both).  Two passes are needed
 * because declarations take effect in babeltrace2's order (env, clocks,
 * root types, trace, streams, events), not in source order.
 */
#ifndef TC_CTF_TSDL_H
#define TC_CTF_TSDL_H

#include "ctf/plan.h"

typedef enum ast_kind {
	AST_BLOCK,        /* trace/env/clock/stream/event/callsite { entries } */
	AST_ATTR,         /* name = value; */
	AST_ATTR_TYPE,    /* name := type; */
	AST_TYPEALIAS,    /* typealias type [declarator] := name; */
	AST_TYPEDEF,      /* typedef type declarator, ...; */
	AST_TYPE_DECL,    /* struct name { ... }; and the like */
	AST_FIELD,        /* type declarator, ...; inside struct/variant */
	AST_INTEGER,      /* integer { attrs } */
	AST_FLOAT,        /* floating_point { attrs } */
	AST_STRING,       /* string [{ attrs }] */
	AST_ENUM,
	AST_STRUCT,
	AST_VARIANT,
	AST_TYPENAME      /* a name bound by typealias/typedef */
} ast_kind;

typedef enum ast_value_kind { VAL_INT, VAL_STR, VAL_PATH } ast_value_kind;

typedef struct ast_value {
	ast_value_kind kind;
	bool negative;    /* VAL_INT: a unary minus was applied */
	uint64_t u;       /* VAL_INT: magnitude */
	char *s;          /* VAL_STR: unescaped text; VAL_PATH: "a.b.c" */
} ast_value;

typedef struct ast_dim {
	bool is_int;
	uint64_t n;       /* is_int */
	char *path;       /* otherwise: length reference, or NULL for [] */
} ast_dim;

typedef struct ast_declarator {
	char *name;       /* NULL in an abstract declarator */
	int pointers;
	ast_dim *dims;
	size_t dim_count;
	int line;
} ast_declarator;

typedef struct ast_enumerator {
	char *label;
	bool has_value, is_range;
	ast_value lo, hi;
} ast_enumerator;

typedef struct ast_node ast_node;

struct ast_node {
	ast_kind kind;
	int line;
	size_t offset;          /* byte offset in the metadata text */
	char *name;             /* block keyword, attribute name, type/alias name */
	char *tag;              /* AST_VARIANT: tag reference, NULL if untagged */
	ast_value value;        /* AST_ATTR */
	ast_node *type;         /* ATTR_TYPE, TYPEALIAS, TYPEDEF, TYPE_DECL, FIELD; ENUM container */
	ast_node **children;    /* BLOCK entries, INTEGER/FLOAT/STRING attrs, STRUCT/VARIANT members */
	size_t child_count;
	ast_declarator **decls; /* TYPEDEF, FIELD, TYPEALIAS (one, abstract) */
	size_t decl_count;
	ast_enumerator *enumerators;
	size_t enumerator_count;
	bool has_body;          /* STRUCT/VARIANT/ENUM written with { } */
	bool has_align;
	uint64_t align;         /* STRUCT align(N) */
};

typedef struct tsdl_doc {
	tc_pool pool;
	ast_node **top;
	size_t top_count;
} tsdl_doc;

/* Parses TEXT; on error returns TC_EFORMAT naming PATH and the byte offset
 * within the text (for plain-text metadata, the file offset). */
int tsdl_parse(tsdl_doc *doc, const char *text, size_t len, const char *path);
void tsdl_doc_free(tsdl_doc *doc);

/* Builds B->t's classes from DOC (tsdl_meta.c), as ctf2_metadata_build()
 * does from CTF 2 metadata.  The classes' names point into DOC's pool,
 * which the caller must keep (metadata.c adopts it into the trace's). */
int ctf1_metadata_build(ctf_build *b, const tsdl_doc *doc);

#endif /* TC_CTF_TSDL_H */
