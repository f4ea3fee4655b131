/* SPDX-License-Identifier: MIT */
/*
 * uftrace_args_test.c - unit tests for src/uftrace/args.c: uftrace 0.13's
 * argument specs, payload sizes and replay text.
 *
 * The payload bytes and expected texts are those of the corpus recording
 * `args` (tests/corpus/uftrace/args: args.dump-hex.txt and
 * args.replay.txt), kept here as well so that these checks need no file;
 * the rest checks the printing and spec rules of uftrace 0.13 (the
 * ARGUMENTS section of its doc/uftrace-record.md, and what its
 * utils/argspec.c, utils/filter.c and utils/fstack.c do) on values the
 * corpus does not hold.  The recorded args/<tid>.dat is also walked record
 * by record, with a small resolver of its own, and every argument list and
 * return value must read as args.replay.txt shows it; the recording is
 * read from tests/corpus (the test runs from the repository root) or from
 * $TRACECAT_CORPUS, and is committed, so not finding it fails.  One line per check,
 * "PASS name" or "FAIL name: ..."; exit status 0 when everything passed.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace/args.h"
#include "check.h"

static void check_str(const char *name, const char *got, const char *want)
{
	check(got && strcmp(got, want) == 0, name, "got \"%s\", expected \"%s\"", got ? got : "(error)", want);
}

static const char *last_error(void)
{
	static char buf[2048];
	tc_error_format(tc_error_last(), buf, sizeof buf);
	return buf;
}

/* ------------------------------------------------------------------------
 * Specs built from info text
 */

/* The corpus info's ARG_SPEC section, with the built-in lists cut to the
 * entries the recording used (and mmap's, for enumauto). */
static const char corpus_info[] =
	"exename:/tmp/uft-research/cb/args\n"
	"cmdline:uftrace record -d data/args -a -A add@arg1/i32,arg2/i32 -R add@retval/i32 ./args\n"
	"argspec:lines=6\n"
	"argspec:add@arg1/i32,arg2/i32\n"
	"retspec:add@retval/i32\n"
	"argauto:malloc@arg1/u;free@arg1/p;strlen@arg1/s;printf@arg1/s;"
	"mmap@arg1/p,arg2/u,arg3/e:uft_mmap_prot,arg4/e:uft_mmap_flag,arg5/d32,arg6\n"
	"retauto:malloc@retval/p;strlen@retval/u;printf@retval/d32;mmap@retval/p\n"
	"enumauto:enum uft_mmap_prot { PROT_NONE, PROT_READ, PROT_WRITE, PROT_EXEC = 4, };"
	"enum uft_mmap_flag {MAP_SHARED = 0x1,MAP_PRIVATE = 0x2,MAP_FIXED = 0x10,MAP_ANON = 0x20,"
	"MAP_GROWSDOWN = 0x100,MAP_DENYWRITE = 0x800,MAP_EXECUTABLE = 0x1000,}\n"
	"auto-args:1\n"
	"record_date:Sun Nov 22 00:47:30 2026\n"
	"pattern_type:regex\n"
	"uftrace_version:v0.13 ( x86_64 dwarf python3 luajit tui perf sched dynamic )\n";

/* args/args.dbg, complete. */
static const char corpus_dbg[] = "# path name: /tmp/uft-research/cb/args\n"
				 "# build-id: 6aa98dbb41c35b8d9a947618e56dc95d5c53d073\n"
				 "E: enum color {RED,GREEN=2,BLUE=4}\n"
				 "F: 11f9 add\n"
				 "L: 13 args.c\n"
				 "A: @arg1,arg2\n"
				 "R: @retval\n"
				 "F: 1217 scale\n"
				 "L: 18 args.c\n"
				 "A: @arg1,fparg1/64\n"
				 "R: @retval\n"
				 "F: 1244 average\n"
				 "L: 23 args.c\n"
				 "A: @fparg1/32,fparg2/64\n"
				 "R: @retval/f64\n"
				 "F: 1282 greet\n"
				 "L: 28 args.c\n"
				 "A: @arg1/s,arg2/c\n"
				 "R: @retval/s\n"
				 "F: 12be dist\n"
				 "L: 33 args.c\n"
				 "A: @arg1/t8:point%RDI\n"
				 "R: @retval\n"
				 "F: 12e8 paint\n"
				 "L: 38 args.c\n"
				 "A: @arg1/e:color\n"
				 "R: @retval/e:color\n"
				 "F: 130d big\n"
				 "L: 43 args.c\n"
				 "A: @arg1\n"
				 "R: @retval\n"
				 "F: 132e main\n"
				 "L: 48 args.c\n"
				 "R: @retval\n";

static ua_specs *specs_from(const char *info, unsigned word_size, bool big_endian)
{
	ua_specs *s;
	if (ua_specs_new(&s, info, strlen(info), word_size, big_endian, "info") < 0) {
		check(false, "specs", "ua_specs_new: %s", last_error());
		return NULL;
	}
	return s;
}

/* Specs whose ARG_SPEC section holds ARGSPEC and RETSPEC (either may be
 * NULL), the built-in lists of corpus_info, and the given pattern type. */
static ua_specs *specs_with(const char *argspec, const char *retspec, bool auto_args, const char *ptype,
                            unsigned word_size, bool big_endian)
{
	char info[4096];
	int n = snprintf(info, sizeof info, "argspec:lines=%d\n%s%s%s%s%s%s%s%s%s", 3 + !!argspec + !!retspec + auto_args,
	                 argspec ? "argspec:" : "", argspec ? argspec : "", argspec ? "\n" : "",
	                 retspec ? "retspec:" : "", retspec ? retspec : "", retspec ? "\n" : "",
	                 "argauto:malloc@arg1/u;free@arg1/p;strlen@arg1/s\n", "retauto:malloc@retval/p\n",
	                 "enumauto:enum uft_mmap_prot { PROT_NONE, PROT_READ, PROT_WRITE, PROT_EXEC = 4, }\n");
	snprintf(info + n, sizeof info - (size_t)n, "%spattern_type:%s\n", auto_args ? "auto-args:1\n" : "", ptype);
	return specs_from(info, word_size, big_endian);
}

static ua_function fn(const char *name, uint64_t addr)
{
	return (ua_function){ .name = name, .module = "args", .is_main_module = true, .sym_addr = addr };
}

static ua_function plt(const char *name, uint64_t addr)
{
	ua_function f = fn(name, addr);
	f.is_plt = true;
	return f;
}

/* A symbolizer that knows one address. */
static const char *fake_symbols(void *ctx, uint64_t addr)
{
	(void)ctx;
	return addr == 0x55d950989040 ? "buf" : NULL;
}

/* The text of PAYLOAD for F, or NULL with the error shown (the string
 * lives until the next call). */
static const char *text_of(ua_specs *s, const ua_function *f, bool retval, const void *payload, size_t len,
                           ua_symbolize sym)
{
	static tc_buf out;
	tc_buf_free(&out);
	const ua_list *l = ua_lookup(s, f, retval);
	if (!l)
		return "(no spec)";
	size_t size;
	if (ua_payload_size(l, payload, len, &size, "payload", 0) < 0 || size != len) {
		printf("# %s: payload size %zu of %zu: %s\n", f->name, size, len, last_error());
		return NULL;
	}
	if (ua_format(s, l, payload, len, f, sym, NULL, false, &out) < 0) {
		printf("# %s: %s\n", f->name, last_error());
		return NULL;
	}
	return out.data ? out.data : "";
}

/* ------------------------------------------------------------------------
 * The corpus recording's payloads (args.dump-hex.txt)
 */

typedef struct corpus_call {
	const char *name;
	uint64_t addr;
	bool is_plt;
	uint8_t args[16];
	size_t args_len;
	uint8_t ret[16];
	size_t ret_len; /* 0: the exit carries nothing */
	const char *want_args, *want_ret;
} corpus_call;

static const corpus_call corpus_calls[] = {
	{ "add", 0x11f9, false, { 1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff }, 8,
	  { 0xff, 0xff, 0xff, 0xff, 0x0a, 0x56, 0, 0 }, 8, "(1, -2)", "-1" },
	{ "scale", 0x1217, false, { 0x0a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x04, 0x40 }, 16,
	  { 0x19, 0, 0, 0, 0, 0, 0, 0 }, 8, "(10, 2.500000)", "25" },
	{ "average", 0x1244, false, { 0, 0, 0xc0, 0x3f, 0, 0, 0, 0, 0, 0, 0x04, 0x40, 0, 0, 0, 0 }, 16,
	  { 0, 0, 0, 0, 0, 0, 0, 0x40 }, 8, "(1.500000, 2.500000)", "2.000000" },
	{ "greet", 0x1282, false, { 7, 0, 'u', 'f', 't', 'r', 'a', 'c', 'e', 0, 0x04, 0x40, 'u', 0, 0, 0 }, 16,
	  { 5, 0, 'm', 'a', 't', 'c', 'h', 0 }, 8, "(\"uftrace\", 'u')", "\"match\"" },
	{ "greet", 0x1282, false, { 4, 0, 'N', 'U', 'L', 'L', 0x68, 0, 'z', 0, 0, 0, 0, 0, 0, 0 }, 16,
	  { 7, 0, 'n', 'o', 'm', 'a', 't', 'c', 'h', 0, 0, 0, 0, 0, 0, 0 }, 16, "(\"NULL\", 'z')", "\"nomatch\"" },
	{ "dist", 0x12be, false, { 0x14, 0x04, 0x6d, 0x94, 0xb9, 0x7f, 0, 0 }, 8,
	  { 0x19, 0, 0, 0, 0, 0, 0, 0 }, 8, "(point{...})", "25" },
	{ "paint", 0x12e8, false, { 2, 0, 0, 0, 0, 0, 0, 0 }, 8, { 0 }, 8, "(GREEN)", "RED" },
	{ "paint", 0x12e8, false, { 6, 0, 0, 0, 0, 0, 0, 0 }, 8, { 0 }, 8, "(BLUE|GREEN)", "RED" },
	{ "big", 0x130d, false, { 0x9a, 0x78, 0x56, 0x34, 0x12, 0, 0, 0 }, 8,
	  { 0xce, 0x69, 0x03, 0x9d, 0x36, 0, 0, 0 }, 8, "(0x123456789a)", "0x369d0369ce" },
	{ "malloc", 0x1080, true, { 0x20, 0, 0, 0, 0, 0, 0, 0 }, 8,
	  { 0xb0, 0x40, 0x23, 0x7b, 0xd9, 0x55, 0, 0 }, 8, "(32)", "0x55d97b2340b0" },
	{ "strlen", 0x1040, true, { 5, 0, 'h', 'e', 'l', 'l', 'o', 0 }, 8,
	  { 5, 0, 0, 0, 0, 0, 0, 0 }, 8, "(\"hello\")", "5" },
	{ "printf", 0x1060, true, { 7, 0, '%', 's', ' ', '%', 'z', 'u', '\n', 0, 0, 0, 0, 0, 0, 0 }, 16,
	  { 8, 0, 0, 0, 0x0a, 0x56, 0, 0 }, 8, "(\"%s %zu\\n\")", "8" },
	{ "free", 0x1030, true, { 0xb0, 0x40, 0x23, 0x7b, 0xd9, 0x55, 0, 0 }, 8, { 0 }, 0, "(0x55d97b2340b0)", NULL },
};

static ua_specs *corpus_specs(void)
{
	ua_specs *s = specs_from(corpus_info, 8, false);
	if (s && ua_specs_add_dbg(s, "args", corpus_dbg, strlen(corpus_dbg), "args.dbg") < 0) {
		check(false, "corpus_dbg", "%s", last_error());
		ua_specs_free(s);
		return NULL;
	}
	return s;
}

static void test_corpus_payloads(void)
{
	ua_specs *s = corpus_specs();
	if (!s)
		return;
	char name[96];
	for (size_t i = 0; i < sizeof corpus_calls / sizeof corpus_calls[0]; i++) {
		const corpus_call *c = &corpus_calls[i];
		ua_function f = c->is_plt ? plt(c->name, c->addr) : fn(c->name, c->addr);
		snprintf(name, sizeof name, "corpus_%s_%zu_args", c->name, i);
		check_str(name, text_of(s, &f, false, c->args, c->args_len, NULL), c->want_args);
		snprintf(name, sizeof name, "corpus_%s_%zu_retval", c->name, i);
		if (c->ret_len)
			check_str(name, text_of(s, &f, true, c->ret, c->ret_len, NULL), c->want_ret);
		else
			check(ua_lookup(s, &f, true) == NULL, name, "free's exit should carry nothing");
	}

	/* the 98-byte string libmcount cut to 95 bytes and "..." */
	static const char longer[] = "a-very-long-string-that-goes-on-and-on-to-exceed-the-limit-of-"
				     "ninety-eight-characters-for-sure-...";
	uint8_t p[104] = { 98, 0 };
	memcpy(p + 2, longer, 98);
	p[100] = 'a';
	ua_function greet = fn("greet", 0x1282);
	char want[160];
	snprintf(want, sizeof want, "(\"%s\", 'a')", longer);
	check_str("corpus_greet_truncated", text_of(s, &greet, false, p, sizeof p, NULL), want);

	ua_function main_fn = fn("main", 0x132e);
	uint8_t zero[8] = { 0 };
	check(ua_lookup(s, &main_fn, false) == NULL, "corpus_main_no_args", "main has no A: line");
	check_str("corpus_main_retval", text_of(s, &main_fn, true, zero, 8, NULL), "0");

	/* explicit beats auto: add's entry holds two i32 (8 bytes), not the
	 * two 8-byte words the .dbg line "A: @arg1,arg2" would store */
	ua_function add = fn("add", 0x11f9);
	size_t size = 0;
	uint8_t sixteen[16] = { 1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0x75, 0x48 };
	int rc = ua_payload_size(ua_lookup(s, &add, false), sixteen, sizeof sixteen, &size, "add", 0);
	check(rc == 0 && size == 8, "explicit_beats_auto_size", "rc %d size %zu", rc, size);
	rc = ua_payload_size(ua_lookup(s, &add, true), sixteen, sizeof sixteen, &size, "add", 0);
	check(rc == 0 && size == 8, "explicit_beats_auto_retval_size", "rc %d size %zu", rc, size);

	/* p with a symbolizer */
	ua_function free_fn = plt("free", 0x1030);
	uint8_t ptr[8] = { 0x40, 0x90, 0x98, 0x50, 0xd9, 0x55, 0, 0 };
	check_str("ptr_symbolized", text_of(s, &free_fn, false, ptr, 8, fake_symbols), "(&buf)");
	check_str("ptr_zero", text_of(s, &free_fn, false, zero, 8, fake_symbols), "(0)");

	/* mmap: enumauto enums for a PLT call of the executable */
	ua_function mmap_fn = plt("mmap", 0x1090);
	uint8_t m[48] = { 0 };
	m[8] = 0x10;                       /* length 16 */
	m[16] = 5;                         /* PROT_EXEC|PROT_READ */
	m[24] = 0x22;                      /* MAP_ANON|MAP_PRIVATE */
	m[32] = 0xff, m[33] = 0xff, m[34] = 0xff, m[35] = 0xff; /* fd -1 (d32) */
	check_str("enumauto_mmap", text_of(s, &mmap_fn, false, m, sizeof m, NULL),
	          "(0, 16, PROT_EXEC|PROT_READ, MAP_ANON|MAP_PRIVATE, -1, 0)");
	ua_specs_free(s);
}

/* ------------------------------------------------------------------------
 * Printing rules (uftrace 0.13's replay) one item at a time
 */

/* The text of VALUE (little-endian) under ITEM ("arg1/x"); a NULL ITEM
 * frees what the last call kept. */
static const char *one(const char *item, uint64_t value, unsigned word_size)
{
	static ua_specs *s;
	char spec[128];
	ua_specs_free(s);
	s = NULL;
	if (!item)
		return NULL;
	snprintf(spec, sizeof spec, "f@%s", item);
	s = specs_with(spec, NULL, false, "regex", word_size, false);
	if (!s)
		return NULL;
	ua_function f = fn("f", 0);
	uint8_t p[32] = { 0 };
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(value >> (8 * i));
	const ua_list *l = ua_lookup(s, &f, false);
	size_t size;
	if (!l || ua_payload_size(l, p, sizeof p, &size, "p", 0) < 0)
		return "(no spec)";
	return text_of(s, &f, false, p, size, NULL);
}

static void test_integers(void)
{
	static const struct {
		const char *item;
		uint64_t value;
		const char *want;
	} cases[] = {
		{ "arg1", 100000, "(100000)" },
		{ "arg1", 100001, "(0x186a1)" },
		{ "arg1", (uint64_t)-100000, "(-100000)" },
		{ "arg1", (uint64_t)-100001, "(0xfffffffffffe795f)" },
		{ "arg1", (uint64_t)-2, "(-2)" },
		/* a 4-byte int in a zero-extended 8-byte slot */
		{ "arg1", 0xfffffffe, "(-2)" },
		{ "arg1", 0xffff0000, "(0xffff0000)" },
		{ "arg1", 0xffff0001, "(-65535)" },
		{ "arg1", 0xffffffff, "(-1)" },
		{ "arg1", 0x100000000, "(0x100000000)" },
		{ "arg1", 0, "(0)" },
		{ "arg1/d32", 0x80000000, "(0x80000000)" },
		{ "arg1/d32", 0xfffffffe, "(-2)" },
		{ "arg1/d32", 99999, "(99999)" },
		{ "arg1/d16", 0xfffb, "(-5)" },
		{ "arg1/d8", 0xff, "(-1)" },
		{ "arg1/i32", 0xfffffffe, "(-2)" },
		{ "arg1/i32", 0x7fffffff, "(2147483647)" },
		{ "arg1/i16", 0xfffb, "(-5)" },
		{ "arg1/i64", (uint64_t)-300000, "(-300000)" },
		{ "arg1/i", 0x123456789a, "(78187493530)" },
		{ "arg1/u", 100000, "(100000)" },
		{ "arg1/u", 100001, "(0x186a1)" },
		{ "arg1/u32", 0xffffffff, "(0xffffffff)" },
		{ "arg1/u16", 0xffff, "(65535)" },
		{ "arg1/u8", 0x1ff, "(255)" },
		{ "arg1/x", 0, "(0)" },
		{ "arg1/x", 255, "(0xff)" },
		{ "arg1/x32", 0xfffffffe, "(0xfffffffe)" },
		{ "arg1/x8", 0x1ff, "(0xff)" },
		{ "arg1/p", 0, "(0)" },
		{ "arg1/p", 0x7ffd1234, "(0x7ffd1234)" },
		{ "arg1/p32", 0xdeadbeef, "(0xdeadbeef)" },
		{ "arg1/c", 'u', "('u')" },
		{ "arg1/c", '\n', "('\\n')" },
		{ "arg1/c", '\b', "('\\b')" },
		{ "arg1/c", 0, "('\\0')" },
		{ "arg1/c", '\t', "('\t')" },
		{ "arg1/e:color", 2, "(2)" }, /* no such enum here: plain decimal */
		{ "arg1/t0", 0, "({})" },
		{ "arg1/t4:<lambda", 0, "({...})" },
		{ "arg1/t8:point%RDI", 0, "(point{...})" },
		{ "arg1/t16:pair%RDI+RSI", 0, "(pair{...})" },
	};
	char name[96];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(name, sizeof name, "print_%s_%" PRIx64, cases[i].item, cases[i].value);
		check_str(name, one(cases[i].item, cases[i].value, 8), cases[i].want);
	}
	/* 32-bit data: integers default to 4 bytes */
	check_str("print_word4_default", one("arg1", 0xfffffffe, 4), "(-2)");
	check_str("print_word4_large", one("arg1", 0x12345678, 4), "(0x12345678)");
	one(NULL, 0, 8); /* frees the last specs */
}

static void test_floats(void)
{
	ua_specs *s = specs_with("f@fparg1/32,fparg2,arg4/f80,fparg3/f64", NULL, false, "regex", 8, false);
	if (!s)
		return;
	ua_function f = fn("f", 0);
	/* 4 + 8 + 12 (x87 1.0 padded) + 8 = 32 */
	uint8_t p[32] = { 0, 0, 0xc0, 0xbf,                               /* -1.5f */
		          0, 0, 0, 0, 0, 0, 0x04, 0x40,                    /* 2.5 */
		          0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0x3f, 0, 0,     /* 1.0L */
		          0x9a, 0x99, 0x99, 0x99, 0x99, 0x99, 0xb9, 0x3f }; /* 0.1 */
	check_str("print_floats", text_of(s, &f, false, p, sizeof p, NULL),
	          "(-1.500000, 2.500000, 1.000000, 0.100000)");
	ua_specs_free(s);

	s = specs_with("f@fparg1/80", NULL, false, "regex", 8, false);
	uint8_t inf[16] = { 0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0xff };
	if (s)
		check_str("print_f80_minus_inf", text_of(s, &f, false, inf, sizeof inf, NULL), "(-inf)");
	ua_specs_free(s);
}

static void test_strings(void)
{
	ua_specs *s = specs_with("f@arg1/s;g@arg1/S", NULL, false, "regex", 8, false);
	if (!s)
		return;
	ua_function f = fn("f", 0), g = fn("g", 0);
	static const struct {
		const char *name;
		const char *text;
		size_t len;
		const char *want;
	} cases[] = {
		{ "str_escapes", "a\nb\bc\td", 7, "(\"a\\nb\\bc\td\")" },
		{ "str_stops_at_nul", "ab\0cd", 5, "(\"ab\")" },
		{ "str_empty", "", 0, "(\"\")" },
		/* a byte >= 0x80 followed by another: copied raw, \n included */
		{ "str_utf8_raw", "\xc3\xa9\n", 3, "(\"\xc3\xa9\n\")" },
		/* ... but not when it is the last byte */
		{ "str_high_last_escaped", "a\n\xc3", 3, "(\"a\\n\xc3\")" },
		{ "str_old_null", "\xff\xff\xff\xff", 4, "(NULL)" },
		{ "str_unreadable", "<0x1234>", 8, "(\"<0x1234>\")" },
	};
	char name[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t p[24] = { (uint8_t)cases[i].len, 0 };
		memcpy(p + 2, cases[i].text, cases[i].len);
		size_t len = (2 + cases[i].len + 7) & ~(size_t)7;
		check_str(cases[i].name, text_of(s, &f, false, p, len, NULL), cases[i].want);
	}
	uint8_t p[8] = { 3, 0, 'a', 'b', 'c' };
	snprintf(name, sizeof name, "str_std_string");
	check_str(name, text_of(s, &g, false, p, 8, NULL), "(\"abc\"s)");
	ua_specs_free(s);
}

static void test_enums(void)
{
	static const char dbg[] = "E: enum color {RED,GREEN=2,BLUE=4}\n"
				  "E: enum flags {A=1,B=2,C=0x10};enum big {HUGE=0x1000000}\n"
				  "E: enum dup {X=1,Y=1,Z}\n"
				  "E: enum neg {M=-5}\n"
				  "E: enum uft_mmap_prot {OWN=1}\n"
				  "F: 10 f\n"
				  "A: @arg1/e:color,arg2/e:flags,arg3/e:big,arg4/e:dup,arg5/e:neg,arg6/e:uft_mmap_prot\n";
	ua_specs *s = specs_with(NULL, NULL, true, "regex", 8, false);
	if (!s)
		return;
	if (ua_specs_add_dbg(s, "prog", dbg, strlen(dbg), "prog.dbg") < 0) {
		check(false, "enum_dbg", "%s", last_error());
		ua_specs_free(s);
		return;
	}
	ua_function f = { .name = "f", .module = "prog", .is_main_module = true, .sym_addr = 0x10 };
	static const struct {
		const char *name;
		int64_t v[6];
		const char *want;
	} cases[] = {
		/* among equal values the later member wins */
		{ "enum_exact", { 0, 3, 0x1000000, 1, -5, 1 }, "(RED, B|A, HUGE, Y, M, OWN)" },
		/* OR from the largest value down; a 0 member joins any rest */
		{ "enum_or", { 6, 0x13, 0, 2, -3, 3 }, "(BLUE|GREEN, C|B|A, 0, Z, M+0x2, OWN+0x2)" },
		{ "enum_remainder", { 7, 0x20, 200000, 3, 0, 0 }, "(BLUE|GREEN|RED+0x1, C|B|A+0xd, 0x30d40, Z|Y, M+0x5, 0)" },
		{ "enum_none_fits", { -3, 0, -200000, 0, -6, -1 },
		  "(-3, 0, 0xfffffffffffcf2c0, 0, -6, -1)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint8_t p[48];
		for (int k = 0; k < 6; k++)
			for (int b = 0; b < 8; b++)
				p[8 * k + b] = (uint8_t)((uint64_t)cases[i].v[k] >> (8 * b));
		check_str(cases[i].name, text_of(s, &f, false, p, sizeof p, NULL), cases[i].want);
	}
	/* the module's own enum beats enumauto's of the same name; enumauto
	 * serves modules without one */
	ua_function other = { .name = "f", .module = "lib.so", .sym_addr = 0x10 };
	ua_specs_free(s);
	s = specs_with("f@arg1/e:uft_mmap_prot", NULL, false, "regex", 8, false);
	uint8_t p[8] = { 6 };
	if (s) {
		check_str("enum_auto", text_of(s, &other, false, p, 8, NULL), "(PROT_EXEC|PROT_WRITE)");
		other.module = NULL;
		check_str("enum_unknown_module", text_of(s, &other, false, p, 8, NULL), "(<ENUM?> 6)");
	}
	ua_specs_free(s);
}

/* ------------------------------------------------------------------------
 * Which spec applies (uftrace 0.13's utils/filter.c and auto-args)
 */

/* The argument text of a function NAME given 16 bytes 1, 2 (two words). */
static const char *args_of(ua_specs *s, const ua_function *f)
{
	const ua_list *l = ua_lookup(s, f, false);
	if (!l)
		return "(no spec)";
	static const uint8_t p[32] = { 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0 };
	size_t size;
	if (ua_payload_size(l, p, sizeof p, &size, "p", 0) < 0)
		return "(bad size)";
	return text_of(s, f, false, p, size, NULL);
}

static void check_args(const char *name, const char *argspec, bool auto_args, const char *ptype,
                       const ua_function *f, const char *want)
{
	ua_specs *s = specs_with(argspec, NULL, auto_args, ptype, 8, false);
	if (!s)
		return;
	check_str(name, args_of(s, f), want);
	ua_specs_free(s);
}

static void test_rules(void)
{
	ua_function foo = fn("foo", 0x100), xaddy = fn("xaddy", 0x200), add = fn("add", 0x300);
	ua_function malloc_plt = plt("malloc", 0x1080);
	ua_function malloc_lib = { .name = "malloc", .module = "libc.so.6", .sym_addr = 0x9a0 };

	check_args("dup_replaces_in_place", "foo@arg1/x,arg2/u;foo@arg1/i", false, "regex", &foo, "(1, 2)");
	check_args("dup_keeps_order", "foo@arg2/x,arg1/x;foo@arg2/i", false, "regex", &foo, "(1, 0x2)");
	check_args("exact_beats_regex", "foo@arg1/x;f.o@arg1/s", false, "regex", &foo, "(0x1)");
	check_args("regex_after_regex", "f.o@arg1/s;fo+@arg1/x", false, "regex", &foo, "(0x1)");
	check_args("exact_after_regex", "f.o@arg1/s;foo@arg1/x", false, "regex", &foo, "(0x1)");
	check_args("regex_unanchored", "a.d@arg1/x", false, "regex", &xaddy, "(0x1)");
	check_args("exact_is_whole_name", "ad@arg1/x", false, "regex", &add, "(no spec)");
	check_args("glob", "ad*@arg1/x", false, "glob", &add, "(0x1)");
	check_args("glob_anchored", "ad*@arg1/x", false, "glob", &xaddy, "(no spec)");
	check_args("simple_takes_metachars_literally", "a.d@arg1/x", false, "simple", &add, "(no spec)");
	check_args("bad_regex_is_exact", "a(d@arg1/x", false, "regex", &add, "(no spec)");
	check_args("trigger_actions_ignored", "foo@depth=2,arg1/x,backtrace,retval,color=red,trace_on", false,
	           "regex", &foo, "(0x1)");
	check_args("invalid_item_drops_entry", "foo@arg1/x;foo@arg2,arg3/zz", false, "regex", &foo, "(0x1)");
	check_args("keywords_case_sensitive", "foo@ARG1/x", false, "regex", &foo, "(no spec)");
	check_args("module_plt", "malloc@PLT,arg1/x", false, "regex", &malloc_plt, "(0x1)");
	check_args("module_plt_not_lib", "malloc@plt,arg1/x", false, "regex", &malloc_lib, "(no spec)");
	check_args("module_prefix", "malloc@libc,arg1/x", false, "regex", &malloc_lib, "(0x1)");
	check_args("module_prefix_other", "malloc@libc,arg1/x", false, "regex", &malloc_plt, "(no spec)");
	check_args("module_kernel", "malloc@kernel,arg1/x", false, "regex", &malloc_plt, "(no spec)");
	/* an entry with no item of its kind takes the automatic ones, even
	 * without auto-args */
	check_args("entry_without_items", "malloc", false, "regex", &malloc_plt, "(1)");
	check_args("entry_with_retval_only", "malloc@retval/x", false, "regex", &malloc_plt, "(1)");
	check_args("auto_needs_auto_args", NULL, false, "regex", &malloc_plt, "(no spec)");
	check_args("auto_by_name", NULL, true, "regex", &malloc_plt, "(1)");
	check_args("auto_glob", NULL, true, "glob", &malloc_plt, "(1)");
	check_args("auto_simple_never", NULL, true, "simple", &malloc_plt, "(no spec)");
	check_args("explicit_first", "malloc@arg1/x", true, "regex", &malloc_plt, "(0x1)");
	/* one item per place: arg2%RDI replaces arg1%rdi, arg1/f replaces fparg1 */
	check_args("places", "foo@arg1%rdi,arg2/x%RDI,arg3%stack+2,fparg1,arg1/f", false, "regex", &foo,
	           "(0x1, 2, 0.000000)");

	/* retval: one spec string kind each; the old single line serves both */
	ua_specs *s = specs_with("foo@arg1,retval/x", "foo@arg2/x,retval/u", false, "regex", 8, false);
	if (s) {
		uint8_t p[8] = { 0xa0, 0x86, 0x01 }; /* 100000 */
		check_str("retspec_only_retvals", text_of(s, &foo, true, p, 8, NULL), "100000");
		check_str("argspec_only_args", args_of(s, &foo), "(1)");
	}
	ua_specs_free(s);
	s = specs_from("argspec:foo@arg1/x,retval/x\n", 8, false);
	if (s) {
		uint8_t p[8] = { 7 };
		check_str("old_format_args", args_of(s, &foo), "(0x1)");
		check_str("old_format_retval", text_of(s, &foo, true, p, 8, NULL), "0x7");
	}
	ua_specs_free(s);

	/* no ARG_SPEC section at all */
	s = specs_from("exename:/bin/true\npattern_type:regex\n", 8, false);
	if (s)
		check(ua_lookup(s, &foo, false) == NULL && ua_lookup(s, &malloc_plt, true) == NULL, "no_arg_spec",
		      "a trace without specs has no lists");
	ua_specs_free(s);
}

/* .dbg rules: address lookup, A:/R: fallback, conflicts, errors. */
static void test_dbg(void)
{
	ua_specs *s = specs_with(NULL, NULL, true, "regex", 8, false);
	if (!s)
		return;
	static const char dbg[] = "# path name: /x/prog\n"
				  "F: 100 foo\n"
				  "A: @arg1/x,arg2/zz,arg3\n" /* items before the invalid one stay */
				  "F: 200 malloc\n"
				  "L: 3 x.c\n"                /* no A: line: argauto by name */
				  "F: 300 bar\n"
				  "A: @arg1/x\n"
				  "F: 300 bar_alias\n"
				  "A: @arg1/u\n";             /* a second A: for 0x300: broken */
	int rc = ua_specs_add_dbg(s, "prog", dbg, strlen(dbg), "prog.dbg");
	check(rc == 0, "dbg_load", "%s", last_error());
	ua_function foo = { .name = "foo", .module = "prog", .sym_addr = 0x100 };
	ua_function foo_elsewhere = { .name = "foo", .module = "prog", .sym_addr = 0x101 };
	ua_function m = { .name = "malloc", .module = "prog", .sym_addr = 0x200 };
	ua_function bar = { .name = "bar", .module = "prog", .sym_addr = 0x300 };
	check_str("dbg_by_address", args_of(s, &foo), "(0x1)");
	check_str("dbg_other_address", args_of(s, &foo_elsewhere), "(no spec)");
	check_str("dbg_falls_back_to_argauto", args_of(s, &m), "(1)");
	check_str("dbg_conflict_is_broken", args_of(s, &bar), "(no spec)");
	ua_specs_free(s);

	/* auto items only for a kind no explicit entry gave: a regex entry's
	 * one item is not completed (nor replaced) by the .dbg line's two */
	s = specs_with("f.o@arg1/x", NULL, true, "regex", 8, false);
	static const char two[] = "F: 100 foo\nA: @arg1/u,arg2\n";
	if (s && ua_specs_add_dbg(s, "prog", two, strlen(two), "prog.dbg") == 0)
		check_str("dbg_only_for_empty_kind", args_of(s, &foo), "(0x1)");
	ua_specs_free(s);

	static const char *const bad[] = {
		"F: 10 f\nX: what\n", "A: @arg1\n", "F: 10 f\n\nA: @arg1\n", "E: enum {A}\n", "E: enum e {A B}\n", "F:10\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		s = specs_with(NULL, NULL, true, "regex", 8, false);
		if (!s)
			return;
		char name[32];
		snprintf(name, sizeof name, "dbg_bad_%zu", i);
		rc = ua_specs_add_dbg(s, "prog", bad[i], strlen(bad[i]), "prog.dbg");
		check(rc == TC_EFORMAT && strstr(last_error(), "prog.dbg"), name, "rc %d: %s", rc, last_error());
		ua_specs_free(s);
	}
}

/* Sizes, byte order and the limits a reader can check. */
static void test_sizes(void)
{
	ua_function f = fn("f", 0);
	ua_specs *s = specs_with("f@arg1/c,arg2/s,fparg1/80,arg3/t6:s,arg4/i16", NULL, false, "regex", 8, false);
	if (!s)
		return;
	const ua_list *l = ua_lookup(s, &f, false);
	/* c: 4, s "hi": 4, f80: 12, t6: 8, i16: 4 = 32 */
	uint8_t p[160] = { 'x', 0, 0, 0, 2, 0, 'h', 'i' };
	size_t size = 0;
	int rc = ua_payload_size(l, p, sizeof p, &size, "p", 0);
	check(rc == 0 && size == 32, "size_mixed", "rc %d size %zu", rc, size);
	rc = ua_payload_size(l, p, 31, &size, "p", 100);
	check(rc == TC_EFORMAT && tc_error_last()->offset == 100, "size_past_end", "rc %d: %s", rc, last_error());
	rc = ua_payload_size(l, p, 5, &size, "p", 0);
	check(rc == TC_EFORMAT, "size_string_length_past_end", "rc %d", rc);
	p[4] = 99;
	rc = ua_payload_size(l, p, sizeof p, &size, "p", 0);
	check(rc == TC_EFORMAT, "size_string_too_long", "rc %d", rc);
	rc = ua_payload_size(NULL, p, sizeof p, &size, "p", 0);
	check(rc == TC_EFORMAT, "size_without_spec", "rc %d", rc);
	tc_buf out = { 0 };
	p[4] = 30; /* the string runs past what format is given */
	rc = ua_format(s, l, p, 16, &f, NULL, NULL, false, &out);
	check(rc == TC_EFORMAT && out.len == 0, "format_past_end", "rc %d, \"%s\"", rc, out.data ? out.data : "");
	tc_buf_free(&out);
	ua_specs_free(s);

	s = specs_with("f@arg1/t1021", NULL, false, "regex", 8, false);
	if (s) {
		uint8_t big[1032] = { 0 };
		rc = ua_payload_size(ua_lookup(s, &f, false), big, sizeof big, &size, "p", 0);
		check(rc == TC_EFORMAT, "size_over_1020", "rc %d", rc);
	}
	ua_specs_free(s);

	/* big-endian data: values and string lengths in the file's order */
	s = specs_with("f@arg1/i32,arg2/s,arg3,fparg1", NULL, false, "regex", 8, true);
	if (s) {
		uint8_t be[32] = { 0xff, 0xff, 0xff, 0xfe, 0, 2, 'o', 'k', 0, 0, 0, 0, 0, 0, 0x01, 0x00,
			           0x40, 0x04, 0, 0, 0, 0, 0, 0 };
		check_str("big_endian", text_of(s, &f, false, be, 24, NULL), "(-2, \"ok\", 256, 2.500000)");
	}
	ua_specs_free(s);

	/* 32-bit ARM stores long doubles as doubles */
	s = specs_from("argspec:lines=3\nargspec:f@fparg1/80\nargauto:\nretauto:\n"
	               "uftrace_version:v0.13 ( arm dwarf )\n", 4, false);
	if (s) {
		uint8_t d[8] = { 0, 0, 0, 0, 0, 0, 0x04, 0x40 };
		check_str("arm_long_double", text_of(s, &f, false, d, 8, NULL), "(2.500000)");
	}
	ua_specs_free(s);

	ua_specs *bad;
	static const char broken[] = "argspec:lines=4\nargspec:f@arg1\n";
	rc = ua_specs_new(&bad, broken, strlen(broken), 8, false, "info");
	check(rc == TC_EFORMAT && !bad, "info_short_section", "rc %d", rc);
	/* glibc's regcomp() needs memory exponential in nested repetitions */
	char info[200] = "argspec:lines=1\nargspec:f";
	memset(info + strlen(info), '+', 100);
	strcat(info, "@arg1\n");
	rc = ua_specs_new(&bad, info, strlen(info), 8, false, "info");
	check(rc == TC_EUNSUPPORTED && !bad, "info_regex_too_complex", "rc %d", rc);
	s = specs_with("ma+l+o+c@arg1/x", NULL, false, "regex", 8, false);
	ua_function m = plt("malloc", 0x1080);
	if (s)
		check_str("info_regex_tame", args_of(s, &m), "(0x1)");
	ua_specs_free(s);
	static const char backref[] = "argspec:lines=1\nargspec:(f)\\1@arg1\n";
	rc = ua_specs_new(&bad, backref, strlen(backref), 8, false, "info");
	check(rc == TC_EUNSUPPORTED && !bad, "info_regex_backreference", "rc %d", rc);
	static const char stray[] = "argspec:lines=1\nsomething:else\n";
	rc = ua_specs_new(&bad, stray, strlen(stray), 8, false, "info");
	check(rc == TC_EFORMAT && !bad, "info_unknown_line", "rc %d", rc);
}

/* Random specs and payloads must give results or errors, never crashes
 * (the sanitizer build checks memory). */
static void test_random(void)
{
	static const char alphabet[] = "@,;/%:.-+*argfpretvalsidxucSpeET0123456789{}=_ \n";
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int crashes = 0;
	for (int round = 0; round < 400; round++) {
		char info[300] = "argspec:lines=4\nargspec:";
		size_t n = strlen(info);
		for (int i = 0; i < 60; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			info[n++] = alphabet[x % (sizeof alphabet - 1)];
		}
		info[n] = '\0';
		strcat(info, "\nretspec:f@retval/s\nargauto:f@arg1/s\nenumauto:enum e {A,B=3}\n");
		ua_specs *s;
		if (ua_specs_new(&s, info, strlen(info), 8, false, "info") < 0)
			continue;
		char dbg[80];
		snprintf(dbg, sizeof dbg, "F: 0 f\nA: %.30s\nE: %.20s\n", info + 24, info + 40);
		ua_specs_add_dbg(s, "m", dbg, strlen(dbg), "m.dbg");
		ua_function f = { .name = "f", .module = "m" };
		for (int k = 0; k < 2; k++) {
			const ua_list *l = ua_lookup(s, &f, k);
			uint8_t p[64];
			for (size_t i = 0; i < sizeof p; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				p[i] = (uint8_t)x;
			}
			size_t len = x % sizeof p, size;
			tc_buf out = { 0 };
			if (l && ua_payload_size(l, p, len, &size, "p", 0) == 0 && size > len)
				crashes++;
			if (l)
				ua_format(s, l, p, len, &f, fake_symbols, NULL, false, &out);
			tc_buf_free(&out);
		}
		ua_specs_free(s);
	}
	check(crashes == 0, "random_specs_and_payloads", "%d payload sizes beyond the data", crashes);
}

/* ------------------------------------------------------------------------
 * The corpus recording itself
 */

typedef struct sym {
	uint64_t addr, size;
	char type;
	char *name;
} sym;

typedef struct module {
	uint64_t start, end;
	char *base; /* basename of the mapped path */
	sym *syms;
	size_t count;
	bool loaded;
} module;

typedef struct corpus {
	char dir[512];
	module *mods;
	size_t nmods;
} corpus;

static char *read_all(const char *path, size_t *len)
{
	char *data;
	return tc_read_file(path, 64u << 20, &data, len) < 0 ? NULL : data;
}

/* <module>.sym as uftrace 0.13's utils/symbol.c reads it: aliases
 * skipped, '?' lines end sizes. */
static void load_syms(const corpus *c, module *m)
{
	m->loaded = true;
	char path[1100];
	snprintf(path, sizeof path, "%s/%s.sym", c->dir, m->base);
	size_t len;
	char *text = read_all(path, &len);
	if (!text)
		return;
	size_t cap = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		uint64_t addr;
		char type;
		int off;
		if (line[0] == '#' || sscanf(line, "%" SCNx64 " %c %n", &addr, &type, &off) != 2)
			continue;
		sym *last = m->count ? &m->syms[m->count - 1] : NULL;
		if (last && last->addr == addr && last->type == type)
			continue;
		if (last && last->size == 0)
			last->size = addr - last->addr;
		if (type == '?')
			continue;
		if (m->count == cap) {
			cap = cap ? cap * 2 : 256;
			m->syms = realloc(m->syms, cap * sizeof *m->syms);
		}
		m->syms[m->count++] = (sym){ addr, 0, type, strdup(line + off) };
	}
	free(text);
}

static bool resolve(corpus *c, uint64_t addr, module **mod, sym **out)
{
	for (size_t i = 0; i < c->nmods; i++) {
		module *m = &c->mods[i];
		if (addr < m->start || addr >= m->end)
			continue;
		if (!m->loaded)
			load_syms(c, m);
		for (size_t k = 0; k < m->count; k++) {
			if (addr - m->start >= m->syms[k].addr && addr - m->start < m->syms[k].addr + m->syms[k].size) {
				*mod = m;
				*out = &m->syms[k];
				return true;
			}
		}
		return false;
	}
	return false;
}

static const char *corpus_symbolize(void *ctx, uint64_t addr)
{
	module *m;
	sym *s;
	return resolve(ctx, addr, &m, &s) ? s->name : NULL;
}

static bool load_map(corpus *c)
{
	DIR *d = opendir(c->dir);
	if (!d)
		return false;
	struct dirent *e;
	char path[1100] = "";
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "sid-", 4) == 0 && strstr(e->d_name, ".map"))
			snprintf(path, sizeof path, "%s/%s", c->dir, e->d_name);
	closedir(d);
	size_t len;
	char *text = path[0] ? read_all(path, &len) : NULL;
	if (!text)
		return false;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		uint64_t start, end;
		char file[600];
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %*s %*s %*s %599s", &start, &end, file) != 3 || file[0] != '/')
			continue;
		c->mods = realloc(c->mods, (c->nmods + 1) * sizeof *c->mods);
		c->mods[c->nmods++] = (module){ .start = start, .end = end, .base = strdup(strrchr(file, '/') + 1) };
	}
	free(text);
	return c->nmods > 0;
}

static void free_corpus(corpus *c)
{
	for (size_t i = 0; i < c->nmods; i++) {
		for (size_t k = 0; k < c->mods[i].count; k++)
			free(c->mods[i].syms[k].name);
		free(c->mods[i].syms);
		free(c->mods[i].base);
	}
	free(c->mods);
}

static ua_specs *load_corpus_specs(const corpus *c)
{
	char path[1100];
	size_t len;
	snprintf(path, sizeof path, "%s/info", c->dir);
	char *info = read_all(path, &len);
	if (!info || len < 40) {
		free(info);
		return NULL;
	}
	ua_specs *s;
	int rc = ua_specs_new(&s, info + 40, len - 40, info[15] == 2 ? 8 : 4, info[14] == 2, path);
	free(info);
	check(rc == 0, "corpus_info", "%s", last_error());
	if (rc < 0)
		return NULL;
	DIR *d = opendir(c->dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".dbg") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", c->dir, e->d_name);
		char *text = read_all(path, &len);
		char module_name[256];
		snprintf(module_name, sizeof module_name, "%.*s", (int)(n - 4), e->d_name);
		rc = text ? ua_specs_add_dbg(s, module_name, text, len, path) : -1;
		check(rc == 0, "corpus_dbg_file", "%s: %s", e->d_name, last_error());
		free(text);
	}
	if (d)
		closedir(d);
	return s;
}

/* The function texts of replay's lines, after the "| " column. */
typedef struct line_list {
	char **v;
	size_t n;
} line_list;

static void add_line(line_list *l, const char *text)
{
	l->v = realloc(l->v, (l->n + 1) * sizeof *l->v);
	l->v[l->n++] = strdup(text);
}

static void free_lines(line_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

typedef struct rec {
	uint64_t addr;
	int type, depth;
	const uint8_t *payload;
	size_t len;
} rec;

/* The payload text of R (arguments or return value) into OUT. */
static bool payload_text(ua_specs *s, corpus *c, const rec *r, tc_buf *out)
{
	module *m;
	sym *y;
	if (!resolve(c, r->addr, &m, &y))
		return false;
	ua_function f = { y->name, m->base, m == &c->mods[0], y->type == 'P', y->addr };
	const ua_list *l = ua_lookup(s, &f, r->type == 1);
	return l && ua_format(s, l, r->payload, r->len, &f, corpus_symbolize, c, false, out) == 0;
}

static const char *name_of(corpus *c, uint64_t addr)
{
	module *m;
	sym *y;
	return resolve(c, addr, &m, &y) ? y->name : "?";
}

static void test_corpus(void)
{
	corpus c = { 0 };
	const char *root = getenv("TRACECAT_CORPUS");
	snprintf(c.dir, sizeof c.dir, "%s/uftrace/args", root ? root : "tests/corpus");
	if (!load_map(&c)) {
		check(false, "corpus_found", "no recording at %s (run from the repository root)", c.dir);
		free_corpus(&c);
		return;
	}
	ua_specs *s = load_corpus_specs(&c);
	char path[1100];
	snprintf(path, sizeof path, "%s/16256.dat", c.dir);
	size_t len = 0;
	uint8_t *dat = (uint8_t *)read_all(path, &len);
	if (!s || !dat) {
		check(false, "corpus_args", "cannot read %s", path);
		goto out;
	}

	/* walk the records, sizing each payload with the specs */
	rec *recs = NULL;
	size_t nrecs = 0, pos = 0;
	bool ok = true;
	while (ok && pos + 16 <= len) {
		uint64_t w = 0;
		for (int i = 0; i < 8; i++)
			w |= (uint64_t)dat[pos + 8 + i] << (8 * i);
		rec r = { .addr = w >> 16, .type = (int)(w & 3), .depth = (int)((w >> 6) & 0x3ff) };
		ok = ((w >> 3) & 7) == 5;
		pos += 16;
		if (ok && (w >> 2) & 1) {
			module *m;
			sym *y;
			ok = resolve(&c, r.addr, &m, &y);
			ua_function f = { ok ? y->name : "", ok ? m->base : NULL, ok && m == &c.mods[0], ok && y->type == 'P',
				          ok ? y->addr : 0 };
			const ua_list *l = ok ? ua_lookup(s, &f, r.type == 1) : NULL;
			ok = l && ua_payload_size(l, dat + pos, len - pos, &r.len, path, (int64_t)pos) == 0;
			if (!ok)
				printf("# at %zu: %s\n", pos, last_error());
			r.payload = dat + pos;
			pos += r.len;
		}
		recs = realloc(recs, (nrecs + 1) * sizeof *recs);
		recs[nrecs++] = r;
	}
	check(ok && pos == len, "corpus_walk_ends_at_eof", "stopped at %zu of %zu", pos, len);

	/* uftrace replay's lines for a trace without threads or events: a leaf
	 * "name(args) = ret;", else "name(args) {" and "} = ret; (comment)" */
	line_list got = { 0 }, want = { 0 };
	tc_buf b = { 0 }, t = { 0 };
	for (size_t i = 0; i < nrecs; i++) {
		const rec *r = &recs[i];
		const char *name = name_of(&c, r->addr);
		b.len = 0;
		tc_buf_printf(&b, "%s", r->type == 0 ? name : "}");
		t.len = 0;
		if (r->type == 0) {
			if (r->payload && payload_text(s, &c, r, &t))
				tc_buf_append(&b, t.data, t.len);
			else
				tc_buf_append(&b, "()", 2);
			const rec *next = i + 1 < nrecs ? &recs[i + 1] : NULL;
			if (next && next->type == 1 && next->depth == r->depth) {
				t.len = 0;
				if (next->payload && payload_text(s, &c, next, &t))
					tc_buf_printf(&b, " = %s", t.data);
				tc_buf_append(&b, ";", 1);
				i++;
			} else {
				tc_buf_append(&b, " {", 2);
			}
		} else if (r->type == 1) {
			if (r->payload && payload_text(s, &c, r, &t))
				tc_buf_printf(&b, " = %s;", t.data);
			tc_buf_printf(&b, " /* %s */", name);
		}
		add_line(&got, b.data);
	}
	tc_buf_free(&b);
	tc_buf_free(&t);

	snprintf(path, sizeof path, "%s/../args.replay.txt", c.dir);
	char *replay = read_all(path, &len);
	for (char *line = replay ? strtok(replay, "\n") : NULL; line; line = strtok(NULL, "\n")) {
		char *bar = strstr(line, "| ");
		if (line[0] == '#' || !bar)
			continue;
		for (bar += 2; *bar == ' '; bar++)
			;
		add_line(&want, bar);
	}
	free(replay);
	size_t same = 0;
	for (size_t i = 0; i < got.n && i < want.n; i++) {
		if (strcmp(got.v[i], want.v[i]) == 0)
			same++;
		else
			printf("# line %zu: got \"%s\", expected \"%s\"\n", i + 1, got.v[i], want.v[i]);
	}
	check(want.n > 0 && same == want.n && got.n == want.n, "corpus_replay_text", "%zu of %zu lines match (%zu made)",
	      same, want.n, got.n);
	free_lines(&got);
	free_lines(&want);
	free(recs);
out:
	free(dat);
	ua_specs_free(s);
	free_corpus(&c);
}

int main(void)
{
	test_corpus_payloads();
	test_integers();
	test_floats();
	test_strings();
	test_enums();
	test_rules();
	test_dbg();
	test_sizes();
	test_random();
	test_corpus();
	return n_fail ? 1 : 0;
}
