/* SPDX-License-Identifier: MIT */
/*
 * ctf2_decode_test.c - unit tests for decoding and printing CTF 2's field
 * kinds (decode.c, pretty.c), on classes built here by hand as the CTF 2
 * front end builds them (plans compiled by plan.c, lengths and selectors
 * resolved into the plans' ref_* fields), without any metadata.
 *
 * Expected texts are what babeltrace2 2.1.2 prints for the same fields,
 * as doc/formats/ctf.md §5.2 and §9 describe it (a bare §N below is a
 * section of that page).  One line per check,
 * "PASS name" or "FAIL name: ..."; exit status 0 when everything passed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctf2_build.h"

/* ------------------------------------------------------------------------
 * Decoding and printing
 */

static tc_trace trace;
static tc_stream_class stream_class;
static tc_stream stream;
static tc_event_class event_class;
static ctf_arena arena;

/* Prints an event of the test's stream and event class with payload ROOT. */
static void print_event(tc_text_printer *p, const tc_field *root)
{
	tc_message m;
	memset(&m, 0, sizeof m);
	m.kind = TC_MSG_EVENT;
	m.stream = &stream;
	m.event_class = &event_class;
	m.payload = root;
	tc_text_printer_print(p, &m);
}

/* The lines babeltrace2 2.1.2 prints for the events of a stream holding
 * only payloads of class PAYLOAD (the N BYTES), then "ERROR: " and the
 * error if decoding failed.  Malloc'ed. */
static char *run_opts(const tc_field_class *payload, const uint8_t *bytes, size_t n, const tc_text_options *opts)
{
	char *out = NULL, *err = NULL;
	size_t out_len = 0, err_len = 0;
	FILE *fo = open_memstream(&out, &out_len), *fe = open_memstream(&err, &err_len);
	tc_text_printer *p;
	tc_text_printer_new(&p, opts, fo, fe);
	trace.format = TC_INPUT_CTF;
	stream_class.trace = &trace;
	stream.stream_class = &stream_class;
	stream.trace = &trace;
	stream.name = "/x/stream";
	event_class.payload = (tc_field_class *)payload;
	event_class.stream_class = &stream_class;
	if (!event_class.name)
		event_class.name = "ev";

	ctf_decoder d;
	decoder_init(&d, bytes, n, &arena);
	int rc = 0;
	while (d.pos < d.limit) {
		tc_field *root;
		if ((rc = decode_payload(&d, payload, &root)) < 0)
			break;
		print_event(p, root);
	}
	tc_text_printer_free(p);
	fclose(fo);
	fclose(fe);
	if (rc < 0) {
		char msg[2048];
		tc_error_format(tc_error_last(), msg, sizeof msg);
		size_t k = strlen(out);
		out = realloc(out, k + strlen(msg) + 16);
		sprintf(out + k, "ERROR: %s", msg);
	}
	free(err);
	return out;
}

static char *run(const tc_field_class *payload, const uint8_t *bytes, size_t n)
{
	tc_text_options o;
	tc_text_options_default(&o);
	return run_opts(payload, bytes, n, &o);
}

static void expect(const char *name, char *got, const char *want)
{
	check(got && strcmp(got, want) == 0, name, "expected \"%s\" got \"%s\"", want, got ? got : "(null)");
	free(got);
}

/* GOT holds the lines of WANT (the events before the error), then an
 * error containing ERROR. */
static void expect_error(const char *name, char *got, const char *want, const char *error)
{
	size_t k = strlen(want);
	bool ok = got && strncmp(got, want, k) == 0 && strncmp(got + k, "ERROR: ", 7) == 0 && strstr(got + k, error);
	check(ok, name, "expected \"%sERROR: ...%s...\" got \"%s\"", want, error, got ? got : "(null)");
	free(got);
}

#define RUN(payload, ...)                                                  \
	({                                                                 \
		static const uint8_t bytes_[] = { __VA_ARGS__ };           \
		run((payload), bytes_, sizeof bytes_);                     \
	})

/* ------------------------------------------------------------------------
 * Tests (worked examples checked against babeltrace2 2.1.2)
 */

static void test_booleans_bit_arrays(void)
{
	tc_field_class *p = structure(1, "b", fixed(TC_FIELD_BOOL, 8, 1, TC_LITTLE_ENDIAN),
	                              "b3", fixed(TC_FIELD_BOOL, 3, 1, TC_LITTLE_ENDIAN), "pad", uint_le(5, 1), NULL);
	expect("bool", RUN(p, 0x00, 0x00, 0x01, 0x01, 0x80, 0xFC, 0xFF, 0x07),
	       "ev: { b = false, b3 = false, pad = 0 }\n"
	       "ev: { b = true, b3 = true, pad = 0 }\n"
	       "ev: { b = true, b3 = true, pad = 31 }\n"
	       "ev: { b = true, b3 = true, pad = 0 }\n");

	p = structure(1, "ba", fixed(TC_FIELD_BIT_ARRAY, 12, 1, TC_LITTLE_ENDIAN), "p", uint_le(4, 1),
	              "bb", fixed(TC_FIELD_BIT_ARRAY, 64, 8, TC_BIG_ENDIAN), NULL);
	expect("bit-array", RUN(p, 0x34, 0x12, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08),
	       "ev: { ba = 0x234, p = 1, bb = 0x102030405060708 }\n");

	/* §9.13: flags sorted with strcmp, quoted and escaped */
	tc_field_class *bm = fixed(TC_FIELD_BIT_ARRAY, 16, 1, TC_LITTLE_ENDIAN);
	tc_enum_label *f = ctf_build_alloc(&B, 6 * sizeof *f);
	static const char *const names[6] = { "b", "A", "a", "Z", "x y", "q\"uote" };
	static const int64_t bits[6][2] = { { 0, 0 }, { 1, 1 }, { 0, 1 }, { 15, 15 }, { 3, 4 }, { 8, 8 } };
	for (int i = 0; i < 6; i++) {
		f[i].label = (char *)names[i];
		f[i].ranges = ranges_of(1, bits[i]);
		f[i].range_count = 1;
	}
	bm->labels = f;
	bm->label_count = 6;
	p = structure(1, "bm", bm, NULL);
	expect("bit-map", RUN(p, 0x00, 0x00, 0x03, 0x00, 0x18, 0x80, 0x00, 0x01, 0x40, 0x00),
	       "ev: { bm = 0x0 }\n"
	       "ev: { bm = 0x3 { \"A\", \"a\", \"b\" } }\n"
	       "ev: { bm = 0x8018 { \"Z\", \"x y\" } }\n"
	       "ev: { bm = 0x100 { \"q\\\"uote\" } }\n"
	       "ev: { bm = 0x40 }\n");
}

static void test_bit_order(void)
{
	/* bit order reversed from the byte order (§5.2) */
	tc_field_class *p = structure(1,
		"be_ltf", fixed(TC_FIELD_INT, 4, 1, TC_BIG_ENDIAN),
		"be_ftl", reversed(fixed(TC_FIELD_INT, 4, 1, TC_BIG_ENDIAN)),
		"le_ftl", uint_le(4, 1),
		"le_ltf", reversed(uint_le(4, 1)),
		"be16ftl", reversed(fixed(TC_FIELD_INT, 16, 1, TC_BIG_ENDIAN)),
		"le16ltf", reversed(uint_le(16, 8)), NULL);
	expect("bit-order", RUN(p, 0x33, 0x33, 0x00, 0x01, 0x00, 0x01),
	       "ev: { be_ltf = 3, be_ftl = 12, le_ftl = 3, le_ltf = 12, be16ftl = 32768, le16ltf = 128 }\n");

	tc_field_class *sb = reversed(sint_le(8, 8));
	tc_field_class *bo = reversed(fixed(TC_FIELD_BOOL, 8, 8, TC_LITTLE_ENDIAN));
	tc_field_class *ba = reversed(fixed(TC_FIELD_BIT_ARRAY, 8, 8, TC_LITTLE_ENDIAN));
	/* 1.5 as a binary32 with its bits reversed */
	tc_field_class *fl = reversed(fixed(TC_FIELD_FLOAT, 32, 8, TC_LITTLE_ENDIAN));
	p = structure(1, "s", sb, "b", bo, "ba", ba, "f", fl, NULL);
	expect("bit-order-kinds", RUN(p, 0x01, 0x80, 0x01, 0xFC, 0x03, 0x00, 0x00),
	       "ev: { s = -128, b = true, ba = 0x80, f = 1.5 }\n");

	/* Two fields sharing a byte in different byte orders. */
	p = structure(1, "a", uint_le(4, 1), "b", fixed(TC_FIELD_INT, 4, 1, TC_BIG_ENDIAN), NULL);
	expect_error("byte-order-in-byte", RUN(p, 0x12), "", "byte order changes in the middle of a byte");
}

static void test_integers(void)
{
	tc_field_class *p = structure(1, "d", uint_le(8, 1), "x", with_base(uint_le(8, 1), 16),
	                              "o", with_base(sint_le(8, 1), 8), "b", with_base(sint_le(5, 1), 2),
	                              "p", uint_le(3, 1), "sx", with_base(sint_le(12, 8), 16),
	                              "s62", with_base(sint_le(62, 8), 16), NULL);
	expect_error("int-bases",
	             RUN(p, 0xC8, 0xAB, 0xFF, 0x1D, 0xFE, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F),
	             "ev: { d = 200, x = 0xAB, o = 0777, b = 0b11101, p = 0, sx = 0xFFE, s62 = 0x0 }\n",
	             "runs past the end");

	p = structure(1, "e", mapped(uint_le(8, 1), labels_of(3, "ONE", (int64_t)1, (int64_t)1, "LOW", (int64_t)0,
	                                                 (int64_t)3, "HIGH", (int64_t)200, (int64_t)255), 3),
	              "se", mapped(sint_le(8, 1), labels_of(2, "NEG", (int64_t)-128, (int64_t)-1, "ZERO", (int64_t)0,
	                                                   (int64_t)0), 2), NULL);
	expect("mappings", RUN(p, 0x01, 0x80, 0x09, 0x05),
	       "ev: { e = ( { \"ONE\", \"LOW\" } : container = 1 ), se = ( \"NEG\" : container = -128 ) }\n"
	       "ev: { e = ( <unknown> : container = 9 ), se = ( <unknown> : container = 5 ) }\n");
	/* babeltrace2's order of several labels (print_rank), not theirs */
	p->members[0].cls->labels[0].print_rank = 2;
	p->members[0].cls->labels[2].print_rank = 0;
	expect("mappings-rank", RUN(p, 0x01, 0x00),
	       "ev: { e = ( { \"LOW\", \"ONE\" } : container = 1 ), se = ( \"ZERO\" : container = 0 ) }\n");
	p = structure(1, "h", mapped(with_base(uint_le(8, 1), 16),
	                             labels_of(1, "A", (int64_t)16, (int64_t)16), 1), NULL);
	expect("mappings-hex", RUN(p, 0x10), "ev: { h = ( \"A\" : container = 0x10 ) }\n");

	p = structure(1, "f", float_cls(32, TC_LITTLE_ENDIAN), "d", float_cls(64, TC_BIG_ENDIAN), NULL);
	expect("floats", RUN(p, 0x00, 0x00, 0xC0, 0x3F, 0xBF, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A),
	       "ev: { f = 1.5, d = -0.1 }\n");
}

static void test_varints(void)
{
	tc_field_class *p = structure(1, "u", varint(false), "s", varint(true), NULL);
	expect("leb128", RUN(p, 0xE5, 0x8E, 0x26, 0xC0, 0xBB, 0x78), "ev: { u = 624485, s = -123456 }\n");
	/* non-minimal encodings (§5.2) */
	expect("leb128-long", RUN(p, 0x81, 0x80, 0x80, 0x00, 0xFF, 0x00, 0x01, 0x80, 0x7F),
	       "ev: { u = 1, s = 127 }\nev: { u = 1, s = -128 }\n");

	p = structure(1, "u", varint(false), NULL);
	expect("leb128-max", RUN(p, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01),
	       "ev: { u = 18446744073709551615 }\n");
	expect_error("leb128-oversized", RUN(p, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00), "",
	             "unsupported oversized (more than 64 bits of data) variable-length integer field");
	expect_error("leb128-eleven-bytes",
	             RUN(p, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x00), "",
	             "unsupported oversized");
	expect_error("leb128-truncated", RUN(p, 0x05, 0x80, 0x80), "ev: { u = 5 }\n",
	             "variable-length integer runs past the end");
	tc_field_class *s = varint(true);
	p = structure(1, "s", s, NULL);
	expect("leb128-signed-max", RUN(p, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F),
	       "ev: { s = -1 }\n");

	p = structure(1, "a", uint_le(3, 1), "u", varint(false), "b", uint_le(8, 1), NULL);
	expect("leb128-aligned", RUN(p, 0x05, 0x7F, 0x09), "ev: { a = 5, u = 127, b = 9 }\n");

	/* §9.8: printed as 64-bit integers */
	p = structure(1, "h", with_base(varint(false), 16), "sh", with_base(varint(true), 16),
	              "so", with_base(varint(true), 8), "b", with_base(varint(false), 2), NULL);
	expect("leb128-bases", RUN(p, 0xFF, 0x01, 0x7F, 0x7F, 0x05),
	       "ev: { h = 0xFF, sh = 0xFFFFFFFFFFFFFFFF, so = 01777777777777777777777, b = 0b"
	       "0000000000000000000000000000000000000000000000000000000000000101 }\n");
}

static void test_strings(void)
{
	tc_field_class *p = structure(1, "a", string_cls(TC_UTF8), "b", string_cls(TC_UTF16LE),
	                              "d", string_cls(TC_UTF32LE), NULL);
	expect("nt-strings",
	       RUN(p, 0x68, 0xC3, 0xA9, 0x00, 0x68, 0x00, 0xAC, 0x20, 0x3D, 0xD8, 0x00, 0xDE, 0x00, 0x00, 0x41, 0x00,
	           0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
	       "ev: { a = \"h\xC3\xA9\", b = \"h\xE2\x82\xAC\xF0\x9F\x98\x80\", d = \"A\" }\n");

	p = structure(1, "b", string_cls(TC_UTF16BE), "d", string_cls(TC_UTF32BE), NULL);
	expect("nt-strings-be", RUN(p, 0x00, 0x41, 0x00, 0x00, 0x00, 0x00, 0x00, 0xE9, 0x00, 0x00, 0x00, 0x00),
	       "ev: { b = \"A\", d = \"\xC3\xA9\" }\n");

	/* the end is an all-zero unit on a unit boundary (§5.2) */
	p = structure(1, "a", string_cls(TC_UTF16LE), NULL);
	expect("nt-utf16-units", RUN(p, 0x00, 0x41, 0x41, 0x00, 0x00, 0x00),
	       "ev: { a = \"\xE4\x84\x80" "A\" }\n");
	expect_error("nt-utf16-lone-surrogate", RUN(p, 0x00, 0xD8, 0x41, 0x00, 0x00, 0x00), "",
	             "unpaired surrogate 0xD800");
	expect_error("nt-utf16-unterminated", RUN(p, 0x41, 0x00, 0x42), "", "without a terminating NUL");
	p = structure(1, "a", string_cls(TC_UTF32LE), NULL);
	expect_error("nt-utf32-invalid", RUN(p, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x00, 0x00), "",
	             "0x110000 is not a Unicode scalar value");

	p = structure(1, "a", static_string(8, TC_UTF8), "b", static_string(6, TC_UTF16LE),
	              "c", static_string(0, TC_UTF8), "d", static_string(3, TC_UTF8), NULL);
	expect("static-strings",
	       RUN(p, 0x61, 0x62, 0x00, 0x63, 0x64, 0x65, 0x66, 0x67, 0x78, 0x00, 0x79, 0x00, 0x00, 0x00, 0x61, 0x62,
	           0x63),
	       "ev: { a = \"ab\", b = \"xy\", c = \"\", d = \"abc\" }\n");
	/* what follows the end unit is padding, even a half unit or an
	 * invalid one; without an end unit, the length must be whole units */
	p = structure(1, "a", static_string(5, TC_UTF16LE), NULL);
	expect("static-utf16-padding", RUN(p, 0x61, 0x00, 0x00, 0x00, 0x62), "ev: { a = \"a\" }\n");
	p = structure(1, "a", static_string(6, TC_UTF16LE), NULL);
	expect("static-utf16-after-end", RUN(p, 0x61, 0x00, 0x00, 0x00, 0x00, 0xD8), "ev: { a = \"a\" }\n");
	p = structure(1, "a", static_string(3, TC_UTF16LE), NULL);
	expect_error("static-utf16-half-unit", RUN(p, 0x61, 0x00, 0x62), "", "ends in the middle of a code unit");
	/* the same as array elements (never fixed-layout) */
	p = structure(1, "a", array_of(static_string(4, TC_UTF16BE), 2, 1), NULL);
	expect("static-utf16-elements", RUN(p, 0x00, 0x78, 0x00, 0x79, 0x20, 0xAC, 0x00, 0x00),
	       "ev: { a = [ [0] = \"xy\", [1] = \"\xE2\x82\xAC\" ] }\n");
	p = structure(1, "a", array_of(static_string(3, TC_UTF16LE), 1, 1), NULL);
	expect_error("static-utf16-half-unit-element", RUN(p, 0x61, 0x00, 0x62), "", "ends in the middle of a code unit");
	p = structure(1, "a", static_string(8, TC_UTF16LE), NULL);
	expect_error("static-utf16-truncated", RUN(p, 0x61, 0x00, 0x62), "", "runs past the end");

	tc_field_class *n = uint_le(8, 8), *s = dynamic_string(TC_UTF8);
	p = structure(1, "n", n, "s", s, NULL);
	refer(s, SCOPE_PAYLOAD, n, 1, 0);
	expect("dynamic-string", RUN(p, 0x05, 0x68, 0x65, 0x6C, 0x6C, 0x6F), "ev: { n = 5, s = \"hello\" }\n");
	s = dynamic_string(TC_UTF32LE);
	p = structure(1, "n", n, "s", s, "t", string_cls(TC_UTF16LE), NULL);
	refer(s, SCOPE_PAYLOAD, n, 1, 0);
	expect("dynamic-utf32", RUN(p, 0x08, 0x3D, 0xF6, 0x01, 0x00, 0x21, 0x00, 0x00, 0x00, 0x6F, 0x00, 0x00, 0x00),
	       "ev: { n = 8, s = \"\xF0\x9F\x98\xBD!\", t = \"o\" }\n");
	expect_error("dynamic-string-truncated", RUN(p, 0x09, 0x3D, 0xF6, 0x01, 0x00, 0x21, 0x00, 0x00, 0x00), "",
	             "runs past the end");

	/* Many converted strings in one event: the text keeps its place
	 * while more is converted. */
	tc_field_class *el = string_cls(TC_UTF16LE);
	p = structure(1, "a", array_of(el, 3000, 1), NULL);
	uint8_t *big = malloc(3000 * 6);
	for (int i = 0; i < 3000; i++) {
		big[6 * i] = 0xAC; big[6 * i + 1] = 0x20; big[6 * i + 2] = (uint8_t)('0' + i % 10); big[6 * i + 3] = 0;
		big[6 * i + 4] = 0; big[6 * i + 5] = 0;
	}
	char *got = run(p, big, 3000 * 6);
	static const char head[] = "ev: { a = [ [0] = \"\xE2\x82\xAC" "0\", [1] = \"\xE2\x82\xAC" "1\"";
	bool ok = got && strncmp(got, head, strlen(head)) == 0 && strstr(got, "[2999] = \"\xE2\x82\xAC" "9\" ] }\n");
	check(ok, "utf16-many", "got \"%.80s...\"", got ? got : "(null)");
	free(got);
	free(big);
}

static void test_blobs(void)
{
	tc_field_class *n = uint_le(8, 1), *d = blob(0, true);
	tc_field_class *p = structure(1, "a", blob(4, false), "n", n, "d", d, NULL);
	refer(d, SCOPE_PAYLOAD, n, 1, 1);
	expect("blobs", RUN(p, 0xDE, 0xAD, 0xBE, 0xEF, 0x03, 0x61, 0x0A, 0xFF),
	       "ev: { a = { de ad be ef }, n = 3, d = { 61 0a ff } }\n");
	expect("blob-empty", RUN(p, 0xDE, 0xAD, 0xBE, 0xEF, 0x00), "ev: { a = { de ad be ef }, n = 0, d = { } }\n");
	expect_error("blob-truncated", RUN(p, 0xDE, 0xAD, 0xBE, 0xEF, 0x05, 0x01), "",
	             "a BLOB of 5 bytes runs past the end of the packet content (1 bytes left)");
}

static void test_optionals_variants(void)
{
	tc_field_class *f = fixed(TC_FIELD_BOOL, 8, 1, TC_LITTLE_ENDIAN), *sel = sint_le(8, 1);
	tc_field_class *o = optional_of(uint_le(8, 1), NULL);
	tc_field_class *o2 = optional_of(string_cls(TC_UTF8), ranges_label(2, (int64_t)-5, (int64_t)-1, (int64_t)10,
	                                                                    (int64_t)10));
	refer(o, SCOPE_PAYLOAD, f, 1, 0);
	refer(o2, SCOPE_PAYLOAD, sel, 1, 2);
	tc_field_class *p = structure(1, "f", f, "o", o, "sel", sel, "o2", o2, NULL);
	expect("optionals", RUN(p, 0x01, 0x2A, 0xFE, 0x6E, 0x65, 0x67, 0x00, 0x00, 0x05, 0x00, 0x0A, 0x00),
	       "ev: { f = true, o = { 42 }, sel = -2, o2 = { \"neg\" } }\n"
	       "ev: { f = false, o = <none>, sel = 5, o2 = <none> }\n"
	       "ev: { f = false, o = <none>, sel = 10, o2 = { \"\" } }\n");

	/* an optional structure */
	tc_field_class *inner = structure(1, "x", uint_le(8, 1), NULL);
	o = optional_of(inner, NULL);
	refer(o, SCOPE_PAYLOAD, f, 1, 0);
	p = structure(1, "f", f, "o", o, NULL);
	expect("optional-struct", RUN(p, 0x01, 0x63), "ev: { f = true, o = { { x = 99 } } }\n");

	sel = sint_le(8, 1);
	tc_field_class *v = variant(3,
		"s", string_cls(TC_UTF8), ranges_label(1, (int64_t)-10, (int64_t)-1),
		"u", uint_le(16, 1), ranges_label(2, (int64_t)0, (int64_t)0, (int64_t)5, (int64_t)6),
		"st", structure(1, "x", uint_le(8, 1), "y", uint_le(8, 1), NULL), ranges_label(1, (int64_t)7, (int64_t)7));
	refer(v, SCOPE_PAYLOAD, sel, 1, 0);
	p = structure(1, "sel", sel, "v", v, NULL);
	expect("variant", RUN(p, 0xFF, 0x6D, 0x31, 0x00, 0x05, 0x34, 0x12, 0x07, 0x01, 0x02),
	       "ev: { sel = -1, v = { \"m1\" } }\n"
	       "ev: { sel = 5, v = { 4660 } }\n"
	       "ev: { sel = 7, v = { { x = 1, y = 2 } } }\n");
	expect_error("variant-unselected", RUN(p, 0x05, 0x34, 0x12, 0xF0), "ev: { sel = 5, v = { 4660 } }\n",
	             "no variant field option selected by the selector value -16");

	/* a length that is a variant whose options are integers */
	tc_field_class *usel = uint_le(8, 1);
	v = variant(2, "a", uint_le(8, 1), ranges_label(1, (int64_t)0, (int64_t)0),
	            "b", uint_le(16, 1), ranges_label(1, (int64_t)1, (int64_t)1));
	refer(v, SCOPE_PAYLOAD, usel, 1, 0);
	tc_field_class *a = sequence_of(uint_le(8, 1));
	refer(a, SCOPE_PAYLOAD, v, 2, 1, PATH_SELECTED);
	p = structure(1, "sel", usel, "v", v, "a", a, NULL);
	expect("variant-length", RUN(p, 0x00, 0x01, 0x09, 0x01, 0x02, 0x00, 0x08, 0x09),
	       "ev: { sel = 0, v = { 1 }, a = [ [0] = 9 ] }\n"
	       "ev: { sel = 1, v = { 2 }, a = [ [0] = 8, [1] = 9 ] }\n");
	expect_error("variant-unselected-unsigned", RUN(p, 0x07), "",
	             "no variant field option selected by the selector value 7");

	/* a selector inside an optional's structure */
	tc_field_class *x = uint_le(8, 1), *sx = sequence_of(uint_le(8, 1));
	inner = structure(1, "x", x, "s", sx, NULL);
	o = optional_of(inner, NULL);
	refer(o, SCOPE_PAYLOAD, f, 1, 0);
	refer(sx, SCOPE_PAYLOAD, x, 3, 1, PATH_SELECTED, 0);
	p = structure(1, "f", f, "o", o, NULL);
	expect("optional-inner-length", RUN(p, 0x01, 0x02, 0x07, 0x08, 0x00),
	       "ev: { f = true, o = { { x = 2, s = [ [0] = 7, [1] = 8 ] } } }\nev: { f = false, o = <none> }\n");
}

static void test_structs_arrays(void)
{
	tc_field_class *p = structure(1, "a", uint_le(8, 1), "s", structure(32, "b", uint_le(8, 1), NULL),
	                              "c", uint_le(8, 1), NULL);
	expect("struct-min-align", RUN(p, 0x01, 0xAA, 0xAA, 0xAA, 0x02, 0x03), "ev: { a = 1, s = { b = 2 }, c = 3 }\n");

	p = structure(1, "a", uint_le(8, 1), "flags", array_of(fixed(TC_FIELD_BOOL, 1, 1, TC_LITTLE_ENDIAN), 4, 16),
	              "p", uint_le(4, 1), NULL);
	expect("array-min-align", RUN(p, 0x07, 0xEE, 0xA5),
	       "ev: { a = 7, flags = [ [0] = true, [1] = false, [2] = true, [3] = false ], p = 10 }\n");

	tc_field_class *n = uint_le(8, 1), *a = sequence_of(uint_le(8, 1));
	refer(a, SCOPE_PAYLOAD, n, 1, 0);
	p = structure(1, "n", n, "s", structure(1, "a", a, NULL), NULL);
	expect("length-outer", RUN(p, 0x02, 0x07, 0x08), "ev: { n = 2, s = { a = [ [0] = 7, [1] = 8 ] } }\n");

	n = uint_le(8, 1);
	a = sequence_of(uint_le(8, 1));
	refer(a, SCOPE_PAYLOAD, n, 3, 0, PATH_ELEMENT, 0);
	p = structure(1, "arr", array_of(structure(1, "n", n, "d", a, NULL), 2, 1), NULL);
	expect("length-in-element", RUN(p, 0x01, 0x05, 0x02, 0x06, 0x07),
	       "ev: { arr = [ [0] = { n = 1, d = [ [0] = 5 ] }, [1] = { n = 2, d = [ [0] = 6, [1] = 7 ] } ] }\n");

	/* names verbatim (§4.3), an empty structure */
	p = structure(1, "_x", uint_le(8, 1), "__y", uint_le(8, 1), "", uint_le(8, 1), "a b", uint_le(8, 1),
	              "e", structure(1, NULL), NULL);
	expect("names", RUN(p, 1, 2, 3, 4), "ev: { _x = 1, __y = 2,  = 3, a b = 4, e = { } }\n");
}

static void test_header_and_warnings(void)
{
	tc_field_class *p = structure(1, "x", uint_le(8, 1), NULL);
	/* a missing name */
	event_class.name = NULL;
	{
		static const uint8_t b[] = { 1 };
		char *out = NULL, *err = NULL;
		size_t ol = 0, el = 0;
		FILE *fo = open_memstream(&out, &ol), *fe = open_memstream(&err, &el);
		tc_text_printer *pr;
		tc_text_options o;
		tc_text_options_default(&o);
		/* babeltrace2 2.0's text: CTF 2 keeps 2.1.2's whatever is asked,
		 * CTF 1.8 keeps 2.0.4's UUIDs */
		o.compat.babeltrace2 = TC_RELEASE(2, 0);
		tc_text_printer_new(&pr, &o, fo, fe);
		ctf_decoder d;
		decoder_init(&d, b, sizeof b, &arena);
		tc_field *root = NULL;
		decode_payload(&d, p, &root);
		event_class.payload = p;
		print_event(pr, root);
		tc_message m;

		/* discarded items name the trace by UID (§9.13) */
		memset(&m, 0, sizeof m);
		m.kind = TC_MSG_DISCARDED_EVENTS;
		m.stream = &stream;
		m.count = 17;
		tc_text_printer_print(pr, &m);
		trace.class_uid = "830f2129-77d5-cb4e-90cf-b0754d8ce889";
		m.kind = TC_MSG_DISCARDED_PACKETS;
		m.count = 1;
		tc_text_printer_print(pr, &m);
		trace.class_uid = NULL;
		/* CTF 1.8 traces keep UUIDs in 2.0's text */
		trace.ctf_major = 1;
		m.kind = TC_MSG_DISCARDED_EVENTS;
		m.count = 2;
		tc_text_printer_print(pr, &m);
		trace.ctf_major = 2;
		tc_text_printer_free(pr);
		fclose(fo);
		fclose(fe);
		expect("unnamed-event", out, "<unknown>: { x = 1 }\n");
		expect("discarded-uid", err,
		       "WARNING: Tracer discarded 17 events (unknown time range) in trace \"\" (no UID) within stream "
		       "\"/x/stream\" (stream class ID: 0, stream ID: 0).\n"
		       "WARNING: Tracer discarded 1 packet (unknown time range) in trace \"\" (UID: "
		       "830f2129-77d5-cb4e-90cf-b0754d8ce889) within stream \"/x/stream\" (stream class ID: 0, stream ID: 0).\n"
		       "WARNING: Tracer discarded 2 events (unknown time range) in trace \"\" (no UUID) within stream "
		       "\"/x/stream\" (stream class ID: 0, stream ID: 0).\n");
	}
	event_class.name = "ev";

	/* colours, as babeltrace2 2.1.2 prints them */
	tc_field_class *f = fixed(TC_FIELD_BOOL, 8, 1, TC_LITTLE_ENDIAN);
	tc_field_class *o = optional_of(uint_le(8, 1), NULL);
	refer(o, SCOPE_PAYLOAD, f, 1, 0);
	tc_field_class *bm = fixed(TC_FIELD_BIT_ARRAY, 8, 1, TC_LITTLE_ENDIAN);
	bm->labels = labels_of(2, "A", (int64_t)0, (int64_t)0, "B", (int64_t)1, (int64_t)1);
	bm->label_count = 2;
	p = structure(1, "b", f, "bm", bm, "bl", blob(2, false), "o", o,
	              "e", mapped(uint_le(8, 1), labels_of(2, "ONE", (int64_t)1, (int64_t)1, "LOW", (int64_t)0,
	                                                   (int64_t)3), 2), NULL);
	tc_text_options opts;
	tc_text_options_default(&opts);
	opts.color = true;
	static const uint8_t b[] = { 1, 3, 0xde, 0xad, 42, 1 };
#define E "\x1b["
	expect("colours", run_opts(p, b, sizeof b, &opts),
	       E "1m" E "1m" E "35mev" E "0m: { " E "36mb" E "0m = " E "1mtrue" E "0m, " E "36mbm" E "0m = " E "1m0x3" E
	       "0m { " E "1m\"A\"" E "0m, " E "1m\"B\"" E "0m }, " E "36mbl" E "0m = { de ad }, " E "36mo" E "0m = { " E
	       "1m42" E "0m }, " E "36me" E "0m = ( { " E "1m\"ONE\"" E "0m, " E "1m\"LOW\"" E "0m } : container = " E
	       "1m1" E "0m ) }\n");
#undef E
}

/* CTF 1.8 traces print several labels as babeltrace2 2.1.2 does by
 * default, and without braces, whatever the ranks, in 2.0.4's text. */
static void test_ctf18_labels(void)
{
	tc_field_class *p = structure(1, "e", mapped(uint_le(8, 8), labels_of(2, "ONE", (int64_t)1, (int64_t)1, "LOW",
	                                                                     (int64_t)0, (int64_t)3), 2), NULL);
	p->members[0].cls->labels[0].print_rank = 1;
	p->members[0].cls->labels[1].print_rank = 0;
	static const uint8_t b[] = { 1 };
	trace.ctf_major = 1;
	expect("ctf18-labels", run(p, b, sizeof b), "ev: { e = ( { \"LOW\", \"ONE\" } : container = 1 ) }\n");
	tc_text_options o;
	tc_text_options_default(&o);
	o.compat.babeltrace2 = TC_RELEASE(2, 0);
	expect("ctf18-labels-2.0", run_opts(p, b, sizeof b, &o), "ev: { e = ( \"ONE\", \"LOW\" : container = 1 ) }\n");
	trace.ctf_major = 2;
	/* CTF 2 ignores the request: 2.0 cannot read it */
	expect("ctf2-labels-2.0", run_opts(p, b, sizeof b, &o), "ev: { e = ( { \"LOW\", \"ONE\" } : container = 1 ) }\n");
}

int main(void)
{
	ctf2_setup();
	trace.ctf_major = 2;   /* the tests of CTF 1.8 text set 1, then 2 again */

	test_booleans_bit_arrays();
	test_bit_order();
	test_integers();
	test_varints();
	test_strings();
	test_blobs();
	test_optionals_variants();
	test_structs_arrays();
	test_header_and_warnings();
	test_ctf18_labels();

	check(B.err == 0, "classes-built", "a class could not be built: %d", B.err);
	ctf_arena_free(&arena);
	ctf2_teardown();
	return n_fail ? 1 : 0;
}
