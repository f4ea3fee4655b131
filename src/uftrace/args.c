/* SPDX-License-Identifier: MIT */
/*
 * args.c - uftrace 0.13's argument and return-value specs
 * (doc/formats/uftrace.md §2.4, §4.5, §5.4-§5.7): the spec strings of the
 * info file and of the .dbg files parsed into item lists, the list the
 * recorder used for a function, the size of a payload, and its text as
 * `uftrace replay` prints it (the last two in args_format.c).
 *
 * The uftrace reader resolves each ENTRY/EXIT record that carries data to a
 * function, asks ua_lookup() for its items, steps over the payload with
 * ua_payload_size() and prints it with ua_format().  A payload's length is
 * not stored, so a wrong rule here misaligns every later record of the
 * task: the rules follow uftrace's own code where the documentation is
 * silent (the recorder's filter setup in libmcount and utils/filter.c,
 * utils/argspec.c, utils/auto-args.c, utils/dwarf.c, and get_argspec_string()
 * of the replay command), quirks included.
 *
 * How the recorder picks a function's items (doc/formats/uftrace.md
 * §5.6), which ua_lookup() replays:
 *   1. every argspec:/retspec: entry whose pattern (and module item) matches
 *      merges its items of that kind into the list; an entry with none of
 *      that kind merges the function's automatic items instead;
 *   2. with auto-args:1, a kind still without items gets the automatic ones:
 *      the module's .dbg A:/R: line for the function's address, else the
 *      argauto:/retauto: entry of the same name.
 * Merging keeps one item per place (argN, fpargN, register, stack slot): a
 * later item replaces an earlier one where it stands, except that an item
 * from a regex or glob pattern never replaces one from an exact name.
 */
#include "uftrace/args_int.h"

#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A struct size beyond any payload only comes from a damaged spec; the cap
 * keeps sizes in 32 bits, and ua_payload_size() rejects what is left. */
#define MAX_STRUCT 0xFFFF
/* Bound on the pattern copies glibc's regcomp() makes, times the pattern's
 * length (regex_is_tame). */
#define MAX_REGEX_NODES (1u << 18)
/* What a regex or glob pattern contains; anything else is an exact name. */
#define PATTERN_CHARS ".?*+-^$|()[]{}"

enum { KIND_ARGS, KIND_RETS };

/* ---- item vectors, while lists are being built ---- */

typedef struct item_vec {
	ua_item *v;
	size_t n, cap;
} item_vec;

static int vec_push(item_vec *vec, const ua_item *it)
{
	int rc = tc_array_reserve(&vec->v, &vec->cap, vec->n, sizeof *vec->v, 8);
	if (rc < 0)
		return rc;
	vec->v[vec->n++] = *it;
	return 0;
}

static bool same_place(const ua_item *a, const ua_item *b)
{
	if (a->place != b->place)
		return false;
	switch (a->place) {
	case PLACE_INDEX:
	case PLACE_FLOAT:
		return a->index == b->index;
	case PLACE_REG:
		return strcmp(a->reg, b->reg) == 0;
	case PLACE_STACK:
		return a->stack_offset == b->stack_offset;
	}
	return false;
}

/* utils/filter.c add_arg_spec(): one item per place, replaced in place. */
static int merge_item(item_vec *vec, const ua_item *it, bool exact)
{
	for (size_t i = 0; i < vec->n; i++) {
		ua_item *old = &vec->v[i];
		if (!same_place(old, it))
			continue;
		if (exact || !old->exact) {
			*old = *it;
			old->exact = exact;
		}
		return 0;
	}
	ua_item copy = *it;
	copy.exact = exact;
	return vec_push(vec, &copy);
}

static int merge_list(item_vec *vec, const ua_list *l, bool exact)
{
	for (size_t i = 0; i < l->count; i++) {
		int rc = merge_item(vec, &l->items[i], exact);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The vector's items as a list owned by POOL (the vector is emptied). */
static int vec_to_list(tc_pool *pool, item_vec *vec, ua_list *out)
{
	out->items = NULL;
	out->count = vec->n;
	if (vec->n) {
		ua_item *items = tc_pool_alloc(pool, vec->n * sizeof *items);
		if (!items)
			return TC_ENOMEM;
		memcpy(items, vec->v, vec->n * sizeof *items);
		out->items = items;
	}
	free(vec->v);
	*vec = (item_vec){ 0 };
	return 0;
}

/* ---- enums (utils/auto-args.c parse_enum_string, convert_enum_val) ---- */

typedef enum token_kind { TOK_INVALID, TOK_NULL, TOK_STR, TOK_SIGN, TOK_NUM } token_kind;

typedef struct enum_lexer {
	const char *pos; /* NULL once a token ran to the end of the text */
	char token[256];
} enum_lexer;

/* enum_next_token(): one punctuation character, or a word ending at one of
 * " \n\t=,{}"; an unknown character leaves position and token unchanged. */
static token_kind enum_next(enum_lexer *lx)
{
	const char *tok = lx->pos;
	if (!tok)
		return TOK_NULL;
	while (isspace((unsigned char)*tok))
		tok++;
	if (*tok == '\0')
		return TOK_NULL;
	unsigned char c = (unsigned char)*tok;
	if (ispunct(c) && c != '_') {
		lx->token[0] = (char)c;
		lx->token[1] = '\0';
		lx->pos = tok + 1;
		return TOK_SIGN;
	}
	token_kind kind;
	if (isalpha(c) || c == '_')
		kind = TOK_STR;
	else if (isdigit(c))
		kind = TOK_NUM;
	else
		return TOK_INVALID;
	const char *end = strpbrk(tok, " \n\t=,{}");
	size_t len = end ? (size_t)(end - tok) : strlen(tok);
	if (len >= sizeof lx->token)
		len = sizeof lx->token - 1;
	memcpy(lx->token, tok, len);
	lx->token[len] = '\0';
	lx->pos = end;
	return kind;
}

static int cmp_enum_val(const void *a, const void *b)
{
	const enum_val *x = a, *y = b;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->seq > y->seq ? -1 : x->seq < y->seq;
}

static int cmp_enum_def(const void *a, const void *b)
{
	const enum_def *x = *(enum_def *const *)a, *y = *(enum_def *const *)b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts SET by name and keeps the first definition of each name, as
 * uftrace ignores a second enum of the same name. */
static void enum_set_finish(enum_set *set)
{
	if (set->count < 2)
		return;
	qsort(set->defs, set->count, sizeof *set->defs, cmp_enum_def);
	size_t n = 1;
	for (size_t i = 1; i < set->count; i++)
		if (strcmp(set->defs[i]->name, set->defs[n - 1]->name) != 0)
			set->defs[n++] = set->defs[i];
	set->count = n;
}

/* Adds the "enum NAME {A, B = 4, ...}" of TEXT to SET; *OK turns false
 * when it is malformed.  Values take strtol's base 0 (octal 0100, hex 0x20)
 * and count on from the previous one. */
static int parse_enum(tc_pool *pool, enum_set *set, const char *text, bool *ok)
{
	enum_lexer lx = { .pos = text };
	*ok = false;
	token_kind t = enum_next(&lx);
	if (t == TOK_NULL) {
		*ok = true;
		return 0;
	}
	if (t != TOK_STR || strcmp(lx.token, "enum") != 0)
		return 0;
	if (enum_next(&lx) != TOK_STR)
		return 0;
	enum_def *def = tc_pool_alloc(pool, sizeof *def);
	if (!def || !(def->name = tc_pool_strdup(pool, lx.token)))
		return TC_ENOMEM;
	if (enum_next(&lx) != TOK_SIGN || strcmp(lx.token, "{") != 0)
		return 0;

	enum_val *vals = NULL;
	size_t count = 0, cap = 0;
	int64_t value = 0;
	int rc = 0;
	t = enum_next(&lx);
	while (t != TOK_NULL && strcmp(lx.token, "}") != 0) {
		char *name = tc_pool_strdup(pool, lx.token);
		if (!name) {
			rc = TC_ENOMEM;
			goto out;
		}
		t = enum_next(&lx);
		if (t != TOK_SIGN)
			goto out;
		if (strcmp(lx.token, "=") == 0) {
			const char *p = lx.pos;
			while (isspace((unsigned char)*p))
				p++;
			char *end;
			value = strtoll(p, &end, 0);
			lx.pos = end;
			t = enum_next(&lx);
			if (t != TOK_SIGN)
				goto out;
		}
		if (count == cap) {
			cap = cap ? cap * 2 : 8;
			enum_val *v = realloc(vals, cap * sizeof *v);
			if (!v) {
				rc = tc_fail_nomem();
				goto out;
			}
			vals = v;
		}
		vals[count] = (enum_val){ name, value, count };
		count++;
		/* wraps like uftrace's long would */
		value = (int64_t)((uint64_t)value + 1);
		if (strcmp(lx.token, ",") == 0)
			t = enum_next(&lx);
	}
	if (strcmp(lx.token, "}") != 0)
		goto out;
	if (count) {
		qsort(vals, count, sizeof *vals, cmp_enum_val);
		def->vals = tc_pool_alloc(pool, count * sizeof *vals);
		if (!def->vals) {
			rc = TC_ENOMEM;
			goto out;
		}
		memcpy(def->vals, vals, count * sizeof *vals);
	}
	def->count = count;
	def->seq = set->next_seq++;
	rc = tc_ptr_push((void ***)&set->defs, &set->count, def);
	*ok = rc == 0;
out:
	free(vals);
	return rc;
}

/* parse_enum_string(): ';'-separated definitions, stopping at the first
 * malformed one (those before it stay).  *OK tells whether all were read. */
static int parse_enums(tc_pool *pool, enum_set *set, const char *text, bool *ok)
{
	char *copy = strdup(text), *save = NULL;
	int rc = 0;
	*ok = true;
	if (!copy)
		return tc_fail_nomem();
	for (char *def = strtok_r(copy, ";", &save); def && rc == 0 && *ok; def = strtok_r(NULL, ";", &save))
		rc = parse_enum(pool, set, def, ok);
	free(copy);
	return rc;
}

/* ---- patterns ---- */

typedef enum match_kind { MATCH_EXACT, MATCH_REGEX, MATCH_GLOB, MATCH_NEVER } match_kind;

/* The module item of an entry (utils/filter.c setup_trigger()). */
typedef enum module_kind {
	MOD_ANY,
	MOD_PLT,    /* "PLT": the executable's PLT symbols */
	MOD_KERNEL, /* "kernel"/"k": never a user function when recording */
	MOD_PREFIX  /* the module whose basename starts with the text */
} module_kind;

/* One entry of argspec:/retspec:. */
typedef struct spec_entry {
	const char *pattern;
	match_kind match;
	regex_t re; /* MATCH_REGEX */
	module_kind module_kind;
	const char *module;
	ua_list items;
} spec_entry;

/* An argauto:/retauto: entry, found by exact name. */
typedef struct auto_entry {
	uint64_t hash;
	const char *name;
	ua_list items;
} auto_entry;

/* A function already looked up. */
typedef struct cached_fn {
	uint64_t hash;
	const char *name, *module;
	uint64_t sym_addr;
	bool is_plt, is_main_module;
	const ua_list *lists[2];
} cached_fn;

static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	/* the terminator keeps ("ab","c") apart from ("a","bc") */
	return hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 0);
}

#define HASH_SEED 0xcbf29ce484222325ull

/* The entry SAME accepts among those of HASH, or NULL. */
static void *table_find(const hash_table *t, uint64_t hash, bool (*same)(const void *entry, const void *key),
                        const void *key)
{
	if (!t->cap)
		return NULL;
	size_t mask = t->cap - 1;
	for (size_t i = (size_t)hash & mask; t->slots[i]; i = (i + 1) & mask)
		if (*t->slots[i] == hash && same(t->slots[i], key))
			return t->slots[i];
	return NULL;
}

static void table_place(uint64_t **slots, size_t cap, uint64_t *entry)
{
	size_t i = (size_t)*entry & (cap - 1);
	while (slots[i])
		i = (i + 1) & (cap - 1);
	slots[i] = entry;
}

static int table_add(hash_table *t, uint64_t *entry)
{
	if ((t->count + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		uint64_t **slots = calloc(cap, sizeof *slots);
		if (!slots)
			return tc_fail_nomem();
		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i])
				table_place(slots, cap, t->slots[i]);
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	table_place(t->slots, t->cap, entry);
	t->count++;
	return 0;
}

static bool same_name(const void *entry, const void *key)
{
	return strcmp(((const auto_entry *)entry)->name, key) == 0;
}

static auto_entry *find_auto(const hash_table *t, const char *name)
{
	return table_find(t, hash_str(HASH_SEED, name), same_name, name);
}

/* ---- spec items (utils/argspec.c parse_argspec) ---- */

static char *lower_dup(tc_pool *pool, const char *s, size_t n)
{
	char *d = tc_pool_strndup(pool, s, n);
	if (d)
		for (char *p = d; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	return d;
}

/* Reads one "argN[/fmt][%place]", "fparg..." or "retval..." item into
 * *IT.  Returns 1, 0 when the item is invalid (uftrace then drops the
 * entry), or TC_ENOMEM.  The keywords are matched case-sensitively here,
 * though the caller found them case-insensitively: "ARG1" is invalid. */
static int parse_item(ua_specs *s, const char *str, ua_item *it)
{
	ua_item item = { .fmt = FMT_AUTO, .place = PLACE_INDEX, .size = s->word_size };
	char *suffix;
	char *end;

	if (strncmp(str, "arg", 3) == 0 && isdigit((unsigned char)str[3])) {
		item.index = strtol(str + 3, &suffix, 0);
	} else if (strncmp(str, "retval", 6) == 0) {
		suffix = (char *)str + 6;
	} else if (strncmp(str, "fparg", 5) == 0 && isdigit((unsigned char)str[5])) {
		item.index = strtol(str + 5, &suffix, 0);
		item.fmt = FMT_FLOAT;
		item.place = PLACE_FLOAT;
		item.size = 8;
	} else {
		return 0;
	}

	if (*suffix == '\0')
		goto out;
	if (*suffix == '%')
		goto place;
	if (*suffix != '/')
		return 0;
	suffix++;
	switch (*suffix) {
	case 'd':
		item.fmt = FMT_AUTO;
		break;
	case 'i':
		item.fmt = FMT_SINT;
		break;
	case 'u':
		item.fmt = FMT_UINT;
		break;
	case 'x':
		item.fmt = FMT_HEX;
		break;
	case 's':
		item.fmt = FMT_STR;
		break;
	case 'c':
		item.fmt = FMT_CHAR;
		item.size = 1;
		break;
	case 'f':
		item.fmt = FMT_FLOAT;
		item.place = PLACE_FLOAT;
		item.size = 8;
		break;
	case 'S':
		item.fmt = FMT_STDSTR;
		break;
	case 'p':
		item.fmt = FMT_PTR;
		break;
	case 'e': {
		item.fmt = FMT_ENUM;
		if (suffix[1] != ':' || (!isalpha((unsigned char)suffix[2]) && suffix[2] != '_'))
			return 0;
		size_t n = strcspn(suffix + 2, "%");
		if (!(item.type_name = tc_pool_strndup(&s->pool, suffix + 2, n)))
			return TC_ENOMEM;
		suffix += 2 + n;
		goto place;
	}
	case 't': {
		item.fmt = FMT_STRUCT;
		long size = strtol(suffix + 1, &suffix, 0);
		if (size < 0 || size > MAX_STRUCT)
			return 0;
		item.size = (uint32_t)size;
		if (*suffix == ':') {
			size_t n = strcspn(suffix + 1, "%");
			if (!(item.type_name = tc_pool_strndup(&s->pool, suffix + 1, n)))
				return TC_ENOMEM;
			suffix += 1 + n;
		}
		if (*suffix == '%') {
			if (strncmp(suffix, "%stack+", 7) == 0)
				goto place;
			/* "%RDI+RSI": the place is the last register named */
			const char *reg = NULL;
			size_t reg_len = 0;
			for (const char *p = suffix + 1;;) {
				size_t n = strcspn(p, "+");
				if (n) {
					reg = p;
					reg_len = n;
				}
				if (p[n] == '\0')
					break;
				p += n + 1;
			}
			if (reg) {
				if (!(item.reg = lower_dup(&s->pool, reg, reg_len)))
					return TC_ENOMEM;
				item.place = PLACE_REG;
			}
		}
		/* anything after the struct's size and name is ignored */
		goto out;
	}
	default:
		if (item.fmt == FMT_FLOAT && isdigit((unsigned char)*suffix))
			goto size;
		return 0;
	}
	suffix++;
	if (*suffix == '\0')
		goto out;
	if (*suffix == '%')
		goto place;
size:;
	long bits = strtol(suffix, &end, 10);
	suffix = end;
	if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
		item.size = (uint32_t)bits / 8;
	else if (bits == 80 && item.fmt == FMT_FLOAT)
		item.size = 10;
	else
		return 0;
place:
	if (*suffix == '%') {
		suffix++;
		if (strncmp(suffix, "stack", 5) == 0) {
			item.stack_offset = strtol(suffix + 5, NULL, 0);
			item.place = PLACE_STACK;
		} else {
			/* uftrace checks the name against its register table;
			 * any name is accepted here */
			if (*suffix == '\0')
				return 0;
			if (!(item.reg = lower_dup(&s->pool, suffix, strlen(suffix))))
				return TC_ENOMEM;
			item.place = PLACE_REG;
		}
	} else if (*suffix != '\0') {
		return 0;
	}
out:
	if (item.fmt == FMT_FLOAT && item.size == 10 && s->arm)
		item.size = 8;
	*it = item;
	return 1;
}

/* The words that can follow '@' (utils/filter.c actions[]), matched by
 * case-insensitive prefix in this order.  Only arg/fparg (arguments) and
 * retval (return values) carry items; the rest are trigger actions. */
static const struct {
	const char *name;
	int kind; /* KIND_ARGS, KIND_RETS, or -1 */
} actions[] = {
	{ "arg", KIND_ARGS },  { "fparg", KIND_ARGS }, { "retval", KIND_RETS }, { "filter", -1 },
	{ "notrace", -1 },     { "depth=", -1 },       { "time=", -1 },         { "caller", -1 },
	{ "hide", -1 },        { "trace", -1 },        { "finish", -1 },        { "read=", -1 },
	{ "color=", -1 },      { "backtrace", -1 },    { "recover", -1 },       { "auto-args", -1 },
};

/*
 * setup_trigger_action(): the ','-separated words after '@' into VEC (items
 * of KIND only).  A word that is no action is a module name, kept in
 * *MODULE when MODULE is not NULL (the first one only).  Returns 1, 0 at the
 * first invalid item (the items before it stay in VEC), or TC_ENOMEM.
 */
static int parse_actions(ua_specs *s, char *text, int kind, const char **module, item_vec *vec)
{
	char *save = NULL;
	for (char *w = strtok_r(text, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t a;
		for (a = 0; a < sizeof actions / sizeof actions[0]; a++)
			if (strncasecmp(w, actions[a].name, strlen(actions[a].name)) == 0)
				break;
		if (a == sizeof actions / sizeof actions[0]) {
			if (module && !*module && !(*module = tc_pool_strdup(&s->pool, w)))
				return TC_ENOMEM;
			continue;
		}
		if (actions[a].kind != kind)
			continue;
		/* parse_argument_spec() wants the digit before the generic parser */
		if ((a == 0 && !isdigit((unsigned char)w[3])) || (a == 1 && !isdigit((unsigned char)w[5])))
			return 0;
		ua_item it;
		int rc = parse_item(s, w, &it);
		if (rc <= 0)
			return rc;
		if ((rc = vec_push(vec, &it)) < 0)
			return rc;
	}
	return 1;
}

/* ---- pattern matching ---- */

/*
 * Whether glibc could compile regex P without exhausting memory or match it
 * without exhausting time: regcomp() copies a sub-expression for each "+"
 * and "{n,m}", so nested repetitions grow exponentially ("f++++..." of a
 * hundred "+" takes all memory), and back-references make regexec()
 * backtrack.  The bound, on the product of the copies times the length,
 * is far above what a function-name pattern needs.
 */
static bool regex_is_tame(const char *p)
{
	/* every copy may hold the whole pattern */
	uint64_t copies = 1, len = strlen(p);
	for (; *p; p++) {
		uint64_t factor = 1;
		if (*p == '\\') {
			if (isdigit((unsigned char)p[1]))
				return false;
			if (p[1])
				p++;
			continue;
		}
		if (*p == '+') {
			factor = 2;
		} else if (*p == '{') {
			for (const char *q = p + 1; isdigit((unsigned char)*q) || *q == ','; q++) {
				uint64_t n = 0;
				while (isdigit((unsigned char)*q) && n <= MAX_REGEX_NODES)
					n = n * 10 + (uint64_t)(*q++ - '0');
				if (n + 1 > factor)
					factor = n + 1;
				if (*q != ',')
					break;
			}
		}
		copies *= factor;
		if (copies * len > MAX_REGEX_NODES)
			return false;
	}
	return true;
}

static int init_pattern(ua_specs *s, spec_entry *e)
{
	e->match = MATCH_EXACT;
	if (!strpbrk(e->pattern, PATTERN_CHARS))
		return 0;
	switch (s->ptype) {
	case PATT_REGEX:
		/* demangled "operator new" etc. would be odd regexes */
		if (strncmp(e->pattern, "operator ", 9) == 0)
			break;
		if (!regex_is_tame(e->pattern))
			return tc_fail(TC_EUNSUPPORTED, NULL, -1, "regex \"%.60s\" is too complex to match safely", e->pattern);
		if (regcomp(&e->re, e->pattern, REG_NOSUB | REG_EXTENDED) == 0)
			e->match = MATCH_REGEX;
		break;
	case PATT_GLOB:
		e->match = MATCH_GLOB;
		break;
	case PATT_SIMPLE:
		break;
	case PATT_NONE:
		e->match = MATCH_NEVER;
		break;
	}
	return 0;
}

static bool pattern_matches(const spec_entry *e, const char *name)
{
	switch (e->match) {
	case MATCH_EXACT:
		return strcmp(e->pattern, name) == 0;
	case MATCH_REGEX:
		return regexec(&e->re, name, 0, NULL, 0) == 0;
	case MATCH_GLOB:
		return fnmatch(e->pattern, name, 0) == 0;
	case MATCH_NEVER:
		break;
	}
	return false;
}

/*
 * Whether entry E applies to F.  A module item picks the first map entry
 * whose basename starts with it; knowing only F's own module, this accepts
 * F when its module starts with the text (a superset: an earlier map entry
 * with the same prefix, as libcapstone before libc for "libc", would have
 * been uftrace's choice).
 */
static bool entry_matches(const spec_entry *e, const ua_function *f)
{
	if (!pattern_matches(e, f->name))
		return false;
	switch (e->module_kind) {
	case MOD_ANY:
		return true;
	case MOD_PLT:
		return f->is_main_module && f->is_plt;
	case MOD_KERNEL:
		return false;
	case MOD_PREFIX:
		return f->module && strncmp(f->module, e->module, strlen(e->module)) == 0;
	}
	return false;
}

/* ---- the info file's spec lines ---- */

static bool is_kernel_module(const char *m)
{
	return strcasecmp(m, "kernel") == 0 || strcasecmp(m, "k") == 0;
}

/* One argspec:/retspec: ENTRY ("pattern@items") of KIND. */
static int add_explicit(ua_specs *s, char *entry, int kind)
{
	item_vec vec = { 0 };
	const char *module = NULL;
	char *at = strchr(entry, '@');
	int rc = 1;
	if (at) {
		*at = '\0';
		rc = parse_actions(s, at + 1, kind, &module, &vec);
	}
	spec_entry *e = NULL;
	if (rc > 0) {
		e = tc_pool_alloc(&s->pool, sizeof *e);
		if (!e || !(e->pattern = tc_pool_strdup(&s->pool, entry)) || vec_to_list(&s->pool, &vec, &e->items) < 0)
			rc = TC_ENOMEM;
	}
	free(vec.v);
	if (rc <= 0)
		return rc; /* an invalid entry is skipped */
	e->module = module;
	if (!module)
		e->module_kind = MOD_ANY;
	else if (strcasecmp(module, "PLT") == 0)
		e->module_kind = MOD_PLT;
	else if (is_kernel_module(module))
		e->module_kind = MOD_KERNEL;
	else
		e->module_kind = MOD_PREFIX;
	if ((rc = init_pattern(s, e)) < 0)
		return rc;
	if ((rc = tc_ptr_push((void ***)&s->explicit[kind], &s->explicit_count[kind], e)) < 0 && e->match == MATCH_REGEX)
		regfree(&e->re);
	return rc;
}

/* One argauto:/retauto: ENTRY (auto-args.c build_auto_args): dropped
 * without '@' or with an invalid item; a second entry of a name merges. */
static int add_auto(ua_specs *s, char *entry, int kind)
{
	char *at = strchr(entry, '@');
	if (!at)
		return 0;
	*at = '\0';
	item_vec vec = { 0 }, merged = { 0 };
	int rc = parse_actions(s, at + 1, kind, NULL, &vec);
	auto_entry *e = rc > 0 ? find_auto(&s->autos[kind], entry) : NULL;
	if (rc > 0 && e) {
		ua_list add = { .items = vec.v, .count = vec.n };
		if ((rc = merge_list(&merged, &e->items, true)) == 0 && (rc = merge_list(&merged, &add, true)) == 0)
			rc = vec_to_list(&s->pool, &merged, &e->items);
	} else if (rc > 0) {
		e = tc_pool_alloc(&s->pool, sizeof *e);
		if (!e || !(e->name = tc_pool_strdup(&s->pool, entry)) || vec_to_list(&s->pool, &vec, &e->items) < 0) {
			rc = TC_ENOMEM;
		} else {
			e->hash = hash_str(HASH_SEED, e->name);
			rc = table_add(&s->autos[kind], &e->hash);
		}
	}
	free(vec.v);
	free(merged.v);
	return rc < 0 ? rc : 0;
}

/* ADD for each ';'-separated entry of TEXT, on a copy it may cut up. */
static int add_entries(ua_specs *s, const char *text, int kind, int (*add)(ua_specs *, char *, int))
{
	char *copy = strdup(text), *save = NULL;
	int rc = 0;
	if (!copy)
		return tc_fail_nomem();
	for (char *e = strtok_r(copy, ";", &save); e && rc >= 0; e = strtok_r(NULL, ";", &save))
		rc = add(s, e, kind);
	free(copy);
	return rc < 0 ? rc : 0;
}

/* The arch in "uftrace_version:v0.13 ( x86_64 dwarf ... )". */
static bool version_is_arm(const char *v)
{
	const char *p = strstr(v, "( ");
	return p && strncmp(p + 2, "arm ", 4) == 0;
}

static pattern_type parse_pattern_type(const char *v)
{
	if (strcmp(v, "regex") == 0)
		return PATT_REGEX;
	if (strcmp(v, "glob") == 0)
		return PATT_GLOB;
	if (strcmp(v, "simple") == 0)
		return PATT_SIMPLE;
	return PATT_NONE;
}

typedef struct info_lines {
	char **v;
	size_t n;
} info_lines;

/* The ARG_SPEC lines, kept until the pattern type (a later line) is known. */
typedef struct arg_spec_text {
	const char *arg, *ret, *argauto, *retauto, *enumauto;
} arg_spec_text;

static int read_arg_spec(ua_specs *s, const info_lines *lines, size_t *i, arg_spec_text *t, const char *path)
{
	const char *head = lines->v[*i];
	if (strncmp(head, "argspec:lines=", 14) != 0) {
		/* before the lines= form: one line holding both kinds */
		t->arg = t->ret = head + 8;
		return 0;
	}
	char *end;
	long n = strtol(head + 14, &end, 10);
	if (end == head + 14 || *end != '\0' || n < 0 || (size_t)n > lines->n - *i - 1)
		return tc_fail(TC_EFORMAT, path, -1, "info: bad ARG_SPEC section header \"%.40s\"", head);
	for (long k = 0; k < n; k++) {
		const char *l = lines->v[++*i];
		if (strncmp(l, "argspec:", 8) == 0)
			t->arg = l + 8;
		else if (strncmp(l, "retspec:", 8) == 0)
			t->ret = l + 8;
		else if (strncmp(l, "argauto:", 8) == 0)
			t->argauto = l + 8;
		else if (strncmp(l, "retauto:", 8) == 0)
			t->retauto = l + 8;
		else if (strncmp(l, "enumauto:", 9) == 0)
			t->enumauto = l + 9;
		else if (strncmp(l, "auto-args:1", 11) == 0)
			s->auto_args = true;
		else
			return tc_fail(TC_EFORMAT, path, -1, "info: unexpected line in the ARG_SPEC section: \"%.40s\"", l);
	}
	return 0;
}

static int split_lines(const char *text, size_t len, info_lines *out)
{
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i == len && start == len)
			break;
		char *l = strndup(text + start, i - start);
		if (!l || tc_ptr_push((void ***)&out->v, &out->n, l) < 0) {
			free(l);
			return tc_fail_nomem();
		}
		start = i + 1;
	}
	return 0;
}

int ua_specs_new(ua_specs **out, const char *info_text, size_t info_len, unsigned word_size, bool big_endian,
                 const char *path)
{
	*out = NULL;
	if (word_size != 4 && word_size != 8)
		return tc_fail(TC_EINVAL, path, -1, "word size %u is neither 4 nor 8", word_size);
	ua_specs *s = calloc(1, sizeof *s);
	if (!s)
		return tc_fail_nomem();
	tc_pool_init(&s->pool);
	pthread_mutex_init(&s->cache_lock, NULL);
	s->word_size = word_size;
	s->big_endian = big_endian;
	/* data without a pattern_type line predates it and used regexes */
	s->ptype = PATT_REGEX;

	info_lines lines = { 0 };
	arg_spec_text t = { 0 };
	int rc = split_lines(info_text, info_len, &lines);
	for (size_t i = 0; i < lines.n && rc == 0; i++) {
		const char *l = lines.v[i];
		if (strncmp(l, "argspec:", 8) == 0)
			rc = read_arg_spec(s, &lines, &i, &t, path);
		else if (strncmp(l, "pattern_type:", 13) == 0)
			s->ptype = parse_pattern_type(l + 13);
		else if (strncmp(l, "uftrace_version:", 16) == 0)
			s->arm = word_size == 4 && version_is_arm(l + 16);
	}
	/* uftrace keeps the enums before a malformed one, and says nothing */
	bool ok;
	if (rc == 0 && t.enumauto)
		rc = parse_enums(&s->pool, &s->auto_enums, t.enumauto, &ok);
	enum_set_finish(&s->auto_enums);
	if (rc == 0 && t.argauto)
		rc = add_entries(s, t.argauto, KIND_ARGS, add_auto);
	if (rc == 0 && t.retauto)
		rc = add_entries(s, t.retauto, KIND_RETS, add_auto);
	if (rc == 0 && t.arg)
		rc = add_entries(s, t.arg, KIND_ARGS, add_explicit);
	if (rc == 0 && t.ret)
		rc = add_entries(s, t.ret, KIND_RETS, add_explicit);
	for (size_t i = 0; i < lines.n; i++)
		free(lines.v[i]);
	free(lines.v);
	if (rc < 0) {
		ua_specs_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* ---- .dbg files ---- */

static int cmp_dbg_func(const void *a, const void *b)
{
	const dbg_func *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

dbg_module *ua_find_module(const ua_specs *s, const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < s->module_count; i++)
		if (strcmp(s->modules[i]->name, name) == 0)
			return s->modules[i];
	return NULL;
}

static void free_module(dbg_module *m)
{
	if (m) {
		free(m->enums.defs);
		free(m->funcs);
	}
}

/* An A: or R: line: dwarf.c keeps the items read before an invalid one. */
static int add_dbg_spec(ua_specs *s, dbg_func *fn, int kind, char *text)
{
	if (fn->lines[kind]++)
		return 0; /* a conflict: see merge_dbg_funcs() */
	item_vec vec = { 0 };
	char *at = strchr(text, '@');
	int rc = at ? parse_actions(s, at + 1, kind, NULL, &vec) : 1;
	if (rc >= 0)
		rc = vec_to_list(&s->pool, &vec, &fn->lists[kind]);
	free(vec.v);
	return rc < 0 ? rc : 0;
}

/* One function per address.  dwarf.c add_debug_entry() marks an address
 * given two A: (or R:) lines as broken, and uftrace then falls back on the
 * argauto:/retauto: lists: an empty list does the same here. */
static void merge_dbg_funcs(dbg_module *m)
{
	if (m->count > 1)
		qsort(m->funcs, m->count, sizeof *m->funcs, cmp_dbg_func);
	size_t n = 0;
	for (size_t i = 0; i < m->count; i++) {
		const dbg_func *fn = &m->funcs[i];
		if (n && fn->addr == m->funcs[n - 1].addr) {
			dbg_func *into = &m->funcs[n - 1];
			for (int k = 0; k < 2; k++) {
				if (fn->lines[k] && !into->lines[k])
					into->lists[k] = fn->lists[k];
				into->lines[k] += fn->lines[k];
			}
		} else {
			m->funcs[n++] = *fn;
		}
	}
	m->count = n;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			if (m->funcs[i].lines[k] > 1)
				m->funcs[i].lists[k] = (ua_list){ 0 };
}

static int parse_dbg(ua_specs *s, dbg_module *m, const char *text, size_t len, const char *path)
{
	size_t cap = 0;
	/* funcs only moves when an F: line grows it, which sets cur anew */
	dbg_func *cur = NULL;
	int rc = 0;
	for (size_t start = 0; start < len && rc == 0;) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t n = nl ? (size_t)(nl - (text + start)) : len - start;
		char *line = strndup(text + start, n);
		int64_t where = (int64_t)start;
		start += n + 1;
		if (!line)
			return tc_fail_nomem();
		if (line[0] == '#') {
			free(line);
			continue;
		}
		if (strlen(line) < 3 || line[1] != ':' || line[2] != ' ') {
			rc = tc_fail(TC_EFORMAT, path, where, "not a .dbg line: \"%.40s\"", line);
		} else if (line[0] == 'F') {
			if (m->count == cap) {
				cap = cap ? cap * 2 : 64;
				dbg_func *v = realloc(m->funcs, cap * sizeof *v);
				if (!v) {
					free(line);
					return tc_fail_nomem();
				}
				m->funcs = v;
			}
			cur = &m->funcs[m->count];
			*cur = (dbg_func){ .addr = strtoull(line + 3, NULL, 16), .seq = m->count };
			m->count++;
		} else if (line[0] == 'A' || line[0] == 'R') {
			if (!cur)
				rc = tc_fail(TC_EFORMAT, path, where, "%c: line before any F: line", line[0]);
			else
				rc = add_dbg_spec(s, cur, line[0] == 'A' ? KIND_ARGS : KIND_RETS, line + 3);
		} else if (line[0] == 'E') {
			bool ok;
			rc = parse_enums(&s->pool, &m->enums, line + 3, &ok);
			if (rc == 0 && !ok)
				rc = tc_fail(TC_EFORMAT, path, where, "malformed enum: \"%.40s\"", line + 3);
		} else if (line[0] != 'L') {
			rc = tc_fail(TC_EFORMAT, path, where, "unknown .dbg line \"%.40s\"", line);
		}
		free(line);
	}
	return rc;
}

int ua_specs_add_dbg(ua_specs *s, const char *module, const char *text, size_t len, const char *path)
{
	if (!module)
		return tc_fail(TC_EINVAL, path, -1, "a .dbg file needs its module's name");
	/* a second file of the same basename (a name clash,
	 * §4.2.4) cannot be
	 * told apart by the functions' module names: the first one stays */
	if (ua_find_module(s, module))
		return 0;
	dbg_module *m = tc_pool_alloc(&s->pool, sizeof *m);
	if (!m || !(m->name = tc_pool_strdup(&s->pool, module)))
		return TC_ENOMEM;
	int rc = parse_dbg(s, m, text, len, path);
	if (rc == 0) {
		enum_set_finish(&m->enums);
		merge_dbg_funcs(m);
		rc = tc_ptr_push((void ***)&s->modules, &s->module_count, m);
	}
	if (rc < 0)
		free_module(m);
	return rc;
}

void ua_specs_free(ua_specs *s)
{
	if (!s)
		return;
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; i < s->explicit_count[k]; i++)
			if (s->explicit[k][i]->match == MATCH_REGEX)
				regfree(&s->explicit[k][i]->re);
		free(s->explicit[k]);
		free(s->autos[k].slots);
	}
	free(s->auto_enums.defs);
	for (size_t i = 0; i < s->module_count; i++)
		free_module(s->modules[i]);
	free(s->modules);
	free(s->cache.slots);
	pthread_mutex_destroy(&s->cache_lock);
	tc_pool_free(&s->pool);
	free(s);
}

/* ---- which items a function got ---- */

/*
 * The automatic items of F (auto-args.c find_auto_argspec): its module's
 * .dbg line for its address when that line has items of KIND, else the
 * argauto:/retauto: entry of its name (which counts even when empty).
 */
static const ua_list *auto_items(const ua_specs *s, const ua_function *f, int kind)
{
	const dbg_module *m = ua_find_module(s, f->module);
	if (m) {
		size_t lo = 0, hi = m->count;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->funcs[mid].addr < f->sym_addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < m->count && m->funcs[lo].addr == f->sym_addr && m->funcs[lo].lists[kind].count)
			return &m->funcs[lo].lists[kind];
	}
	const auto_entry *e = find_auto(&s->autos[kind], f->name);
	return e ? &e->items : NULL;
}

/* The recorder's "." (regex) or "*" (glob) pattern of -a; any other pattern
 * type makes it an exact name nothing is called. */
static bool auto_pattern_matches(const ua_specs *s, const char *name)
{
	switch (s->ptype) {
	case PATT_REGEX:
		return name[0] != '\0';
	case PATT_GLOB:
		return true;
	case PATT_SIMPLE:
		return strcmp(name, ".") == 0;
	case PATT_NONE:
		break;
	}
	return false;
}

static int build_list(ua_specs *s, const ua_function *f, int kind, const ua_list **out)
{
	item_vec vec = { 0 };
	bool given = false;
	int rc = 0;
	*out = NULL;
	for (size_t i = 0; i < s->explicit_count[kind] && rc == 0; i++) {
		const spec_entry *e = s->explicit[kind][i];
		if (!entry_matches(e, f))
			continue;
		const ua_list *add = e->items.count ? &e->items : auto_items(s, f, kind);
		if (add) {
			rc = merge_list(&vec, add, e->match == MATCH_EXACT);
			given = true;
		}
	}
	if (rc == 0 && !given && s->auto_args && auto_pattern_matches(s, f->name)) {
		const ua_list *add = auto_items(s, f, kind);
		if (add)
			rc = merge_list(&vec, add, false);
	}
	if (rc == 0 && vec.n) {
		ua_list *l = tc_pool_alloc(&s->pool, sizeof *l);
		if (!l)
			rc = TC_ENOMEM;
		else if ((rc = vec_to_list(&s->pool, &vec, l)) == 0) {
			l->big_endian = s->big_endian;
			l->retval = kind == KIND_RETS;
			*out = l;
		}
	}
	free(vec.v);
	return rc;
}

static uint64_t function_hash(const ua_function *f)
{
	uint64_t h = hash_str(HASH_SEED, f->name);
	h = hash_str(h, f->module);
	h = hash_bytes(h, &f->sym_addr, sizeof f->sym_addr);
	return hash_bytes(h, (unsigned char[]){ f->is_plt, f->is_main_module }, 2);
}

static bool same_function(const void *entry, const void *key)
{
	const cached_fn *c = entry;
	const ua_function *f = key;
	return c->sym_addr == f->sym_addr && c->is_plt == f->is_plt && c->is_main_module == f->is_main_module &&
	       strcmp(c->name, f->name) == 0 &&
	       (c->module && f->module ? strcmp(c->module, f->module) == 0 : c->module == f->module);
}

/* ua_lookup() with the cache's lock held. */
static const ua_list *lookup_locked(ua_specs *s, const ua_function *f, int kind)
{
	uint64_t hash = function_hash(f);
	const cached_fn *found = table_find(&s->cache, hash, same_function, f);
	if (found)
		return found->lists[kind];
	cached_fn *c = tc_pool_alloc(&s->pool, sizeof *c);
	if (!c || !(c->name = tc_pool_strdup(&s->pool, f->name)) ||
	    (f->module && !(c->module = tc_pool_strdup(&s->pool, f->module))))
		return NULL;
	c->hash = hash;
	c->sym_addr = f->sym_addr;
	c->is_plt = f->is_plt;
	c->is_main_module = f->is_main_module;
	/* on failure the error is set and the function stays uncached */
	if (build_list(s, f, KIND_ARGS, &c->lists[KIND_ARGS]) < 0 ||
	    build_list(s, f, KIND_RETS, &c->lists[KIND_RETS]) < 0 || table_add(&s->cache, &c->hash) < 0)
		return NULL;
	return c->lists[kind];
}

const ua_list *ua_lookup(ua_specs *s, const ua_function *f, bool retval)
{
	if (!s || !f || !f->name)
		return NULL;
	pthread_mutex_lock(&s->cache_lock);
	const ua_list *l = lookup_locked(s, f, retval ? KIND_RETS : KIND_ARGS);
	pthread_mutex_unlock(&s->cache_lock);
	return l;
}
