/* SPDX-License-Identifier: MIT */
/*
 * args_int.h - what the two halves of uftrace's argument specs share:
 * args.c parses the specs into item lists and finds a function's list,
 * args_format.c sizes and prints a payload of such a list.  Private to
 * args*.c; the reader goes through args.h.
 */
#ifndef TC_UFTRACE_ARGS_INT_H
#define TC_UFTRACE_ARGS_INT_H

#include "uftrace/args.h"

#include <pthread.h>

typedef enum ua_fmt {
	FMT_AUTO,   /* d: decimal, hex when large */
	FMT_SINT,   /* i */
	FMT_UINT,   /* u */
	FMT_HEX,    /* x */
	FMT_STR,    /* s */
	FMT_STDSTR, /* S: std::string */
	FMT_CHAR,   /* c */
	FMT_FLOAT,  /* f, fparg */
	FMT_PTR,    /* p */
	FMT_ENUM,   /* e:NAME */
	FMT_STRUCT  /* t<N>[:NAME] */
} ua_fmt;

/* Where the recorder took a value from.  Two items of one kind at the same
 * place are the same item. */
typedef enum ua_place { PLACE_INDEX, PLACE_FLOAT, PLACE_REG, PLACE_STACK } ua_place;

typedef struct ua_item {
	ua_fmt fmt;
	ua_place place;
	long index;            /* N of argN/fpargN; 0 for retval */
	long stack_offset;     /* PLACE_STACK */
	const char *reg;       /* PLACE_REG: register name in lower case */
	const char *type_name; /* enum name, or struct name (may be NULL) */
	uint32_t size;         /* bytes stored (strings: see payload) */
	bool exact;            /* set by an exact-name pattern */
} ua_item;

struct ua_list {
	const ua_item *items;
	size_t count;
	bool big_endian; /* the file's byte order, for ua_payload_size() */
	bool retval;     /* return-value items: only the first one is shown */
};

/* Values are 64-bit, as uftrace's long on the 64-bit hosts it runs on. */
typedef struct enum_val {
	const char *name;
	int64_t value;
	size_t seq;
} enum_val;

typedef struct enum_def {
	const char *name;
	enum_val *vals; /* largest value first; among equals, the later one */
	size_t count;
	size_t seq;
} enum_def;

typedef struct enum_set {
	enum_def **defs; /* by name once sorted; one per name */
	size_t count;
	size_t next_seq;
} enum_set;

typedef enum pattern_type { PATT_REGEX, PATT_GLOB, PATT_SIMPLE, PATT_NONE } pattern_type;

/* Open addressing over structs whose first member is their hash. */
typedef struct hash_table {
	uint64_t **slots;
	size_t cap, count;
} hash_table;

/* A function's .dbg lines: F: address, A: and R: specs. */
typedef struct dbg_func {
	uint64_t addr;
	size_t seq;
	unsigned lines[2]; /* A: and R: lines seen for the address */
	ua_list lists[2];
} dbg_func;

typedef struct dbg_module {
	const char *name;
	enum_set enums;
	dbg_func *funcs; /* by address once loaded */
	size_t count;
} dbg_module;

typedef struct spec_entry spec_entry;

struct ua_specs {
	tc_pool pool;
	unsigned word_size;
	bool big_endian;
	bool arm;       /* 32-bit ARM stores long doubles as doubles */
	bool auto_args; /* recorded with -a */
	pattern_type ptype;
	spec_entry **explicit[2];
	size_t explicit_count[2];
	hash_table autos[2]; /* of auto_entry */
	enum_set auto_enums;
	dbg_module **modules;
	size_t module_count;
	hash_table cache; /* of cached_fn */
	/* streams of several tasks are decoded on several threads, which
	 * look functions up and fill the cache at once */
	pthread_mutex_t cache_lock;
};

/* The .dbg module named NAME (a basename, as ua_function.module), or NULL. */
dbg_module *ua_find_module(const ua_specs *s, const char *name);

#endif /* TC_UFTRACE_ARGS_INT_H */
