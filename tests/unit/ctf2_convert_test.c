/* SPDX-License-Identifier: MIT */
/*
 * ctf2_convert_test.c - unit tests for writing CTF 2 kinds as CTF 1.8
 * (writer.c, tsdl_write.c) and as CTF 2 (writer.c, json_write.c): a CTF 2
 * trace model built by hand (classes as the CTF 2 front end builds them),
 * its events decoded from bytes, written with tc_ctf_writer, and the
 * result read back with the CTF 1.8 or CTF 2 reader and printed as
 * babeltrace2 2.0.4 (2.1.2) prints it.  The expected texts were checked
 * with babeltrace2 2.0.4 and 2.1.2 on the written traces
 * (CTF2_CONVERT_KEEP=DIR keeps them in DIR); babeltrace 1.5 reads the CTF
 * 1.8 ones too.
 *
 * One line per check, "PASS name" or "FAIL name: ..."; exit status 0 when
 * everything passed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ctf2_build.h"

static tc_trace trace;
static tc_stream_class stream_class;
static tc_stream stream;
static tc_event_class event_classes[2];
static tc_event_class *event_class_list[2];
static tc_stream_class *stream_class_list[1];
static ctf_arena arena;
/* convert() also copies the written metadata here when not NULL. */
static char **metadata_copy;
/* The CTF version convert() writes (tc_ctf_writer_options.ctf_version). */
static int out_version = 1;
/* When not NULL: the bytes of the packet header (trace.packet_header) and
 * context (stream_class.packet_context) every event of convert() has. */
static const uint8_t *packet_bytes;
static size_t packet_len;
static ctf_arena packet_arena;

static const char *keep_dir(void)
{
	const char *k = getenv("CTF2_CONVERT_KEEP");
	return k && *k ? k : NULL;
}

static void remove_tree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* Writes the events of each EVENTS[i] (bytes of payloads of event class
 * i, N[i] of them) with the writer into a new folder, reads it back and
 * returns what `tracecat print` shows, or "ERROR: ..." from where it
 * failed.  Malloc'ed. */
static char *convert(const char *name, const tc_field_class *const *payloads, size_t classes,
                     const uint8_t *const *events, const size_t *n)
{
	static char tmpl[4096];
	char dir[4096];
	if (keep_dir())
		snprintf(dir, sizeof dir, "%s/%s", keep_dir(), name);
	else
		snprintf(tmpl, sizeof tmpl, "%s/ctf2-convert-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (keep_dir()) {
		remove_tree(dir);
		mkdir(keep_dir(), 0755);
		if (mkdir(dir, 0755) < 0)
			return strdup("ERROR: cannot create the output folder");
	} else {
		if (!mkdtemp(tmpl))
			return strdup("ERROR: cannot create a temporary folder");
		snprintf(dir, sizeof dir, "%s", tmpl);
	}

	trace.format = TC_INPUT_CTF;
	trace.ctf_major = 2;
	trace.layout = TC_LAYOUT_CTF2;
	trace.name = "";
	trace.dir_in_input = "";
	trace.path = "/x";
	trace.stream_classes = stream_class_list;
	trace.stream_class_count = 1;
	stream_class_list[0] = &stream_class;
	stream_class.trace = &trace;
	stream_class.event_classes = event_class_list;
	stream_class.event_class_count = classes;
	for (size_t i = 0; i < classes; i++) {
		event_class_list[i] = &event_classes[i];
		event_classes[i].id = i;
		event_classes[i].loglevel = -1;
		event_classes[i].payload = (tc_field_class *)payloads[i];
		event_classes[i].stream_class = &stream_class;
	}
	stream.stream_class = &stream_class;
	stream.trace = &trace;
	stream.name = "/x/stream";
	stream.cpu = -1;

	char err[2048] = "";
	tc_trace *traces[1] = { &trace };
	tc_ctf_writer *w = NULL;
	tc_ctf_writer_options opts = { .ctf_version = out_version };
	int rc = tc_ctf_writer_new(&w, dir, traces, 1, &opts);
	ctf_decoder pd;
	tc_field *packet_context = NULL;
	while (rc == 0 && packet_bytes) {
		tc_field *h;
		decoder_init(&pd, packet_bytes, packet_len, &packet_arena);
		packet_arena.used = 0;
		rc = ctf_decode_scope(&pd, SCOPE_PACKET_HEADER, trace.packet_header, &h);
		if (rc == 0)
			rc = ctf_decode_scope(&pd, SCOPE_PACKET_CONTEXT, stream_class.packet_context, &packet_context);
		if (rc != CTF_ARENA_RETRY)
			break;
		rc = ctf_arena_grow(&packet_arena);
	}
	for (size_t c = 0; c < classes && rc == 0; c++) {
		ctf_decoder d;
		decoder_init(&d, events[c], n[c], &arena);
		if (packet_context)
			d.roots[SCOPE_PACKET_CONTEXT] = packet_context;
		while (rc == 0 && d.pos < d.limit) {
			tc_field *root;
			if ((rc = decode_event(&d, stream_class.event_header, payloads[c], &root)) < 0)
				break;
			tc_message m;
			memset(&m, 0, sizeof m);
			m.kind = TC_MSG_EVENT;
			m.stream = &stream;
			m.event_class = &event_classes[c];
			m.packet_context = packet_context;
			m.payload = root;
			rc = tc_ctf_writer_write(w, &m);
		}
	}
	if (rc == 0)
		rc = tc_ctf_writer_finish(w);
	if (rc < 0)
		tc_error_format(tc_error_last(), err, sizeof err);
	tc_ctf_writer_free(w);

	char *out = NULL;
	size_t out_len = 0;
	FILE *fo = open_memstream(&out, &out_len);
	if (rc == 0) {
		tc_input *in = NULL;
		rc = tc_input_open(&in, dir, NULL);
		tc_text_options o;
		tc_text_options_default(&o);
		tc_text_printer *p = NULL;
		const tc_message *m;
		if (rc == 0)
			rc = tc_text_printer_new(&p, &o, fo, stderr);
		if (rc == 0)
			while ((rc = tc_input_next(in, &m)) > 0)
				tc_text_printer_print(p, m);
		if (rc < 0)
			tc_error_format(tc_error_last(), err, sizeof err);
		tc_text_printer_free(p);
		tc_input_free(in);
	}
	if (rc < 0)
		fprintf(fo, "ERROR: %s", err);
	fclose(fo);
	if (metadata_copy) {
		char path[4200];
		snprintf(path, sizeof path, "%s/metadata", dir);
		FILE *f = fopen(path, "r");
		size_t len = 0;
		*metadata_copy = NULL;
		if (f) {
			FILE *mo = open_memstream(metadata_copy, &len);
			int c;
			while ((c = fgetc(f)) != EOF)
				fputc(c, mo);
			fclose(mo);
			fclose(f);
		}
	}
	if (!keep_dir())
		remove_tree(dir);
	return out;
}

static void expect(const char *name, char *got, const char *want)
{
	check(got && strcmp(got, want) == 0, name, "expected \"%s\" got \"%s\"", want, got ? got : "(null)");
	free(got);
}

static char *convert1(const char *name, const tc_field_class *payload, const uint8_t *bytes, size_t n)
{
	return convert(name, &payload, 1, &bytes, &n);
}

#define CONVERT(name, payload, ...)                                        \
	({                                                                 \
		static const uint8_t bytes_[] = { __VA_ARGS__ };           \
		convert1((name), (payload), bytes_, sizeof bytes_);        \
	})

/* ------------------------------------------------------------------------
 * Tests
 */

static void test_numbers(void)
{
	tc_field_class *bm = fixed(TC_FIELD_BIT_ARRAY, 8, 1, TC_LITTLE_ENDIAN);
	bm->labels = labels_of(1, "A", (int64_t)0, (int64_t)0);
	bm->label_count = 1;
	tc_field_class *p = structure(1,
		"b", fixed(TC_FIELD_BOOL, 3, 1, TC_LITTLE_ENDIAN),
		"ba", fixed(TC_FIELD_BIT_ARRAY, 12, 1, TC_LITTLE_ENDIAN),
		"bm", bm,
		"u", varint(false),
		"s", with_base(varint(true), 16),
		"r", reversed(fixed(TC_FIELD_INT, 16, 1, TC_BIG_ENDIAN)),
		"f", reversed(fixed(TC_FIELD_FLOAT, 32, 8, TC_LITTLE_ENDIAN)),
		"e", mapped(uint_le(8, 8), labels_of(2, "ONE", (int64_t)1, (int64_t)1, "LOW", (int64_t)0, (int64_t)3), 2),
		"z", mapped(sint_le(8, 8), NULL, 0),
		NULL);
	/* b: 5 (true) in bits 0-2, ba: 0x234 in bits 3-14, bm: 0x81 in bits
	 * 15-22; LEB128 624485 and -1; 1 reversed over 16 bits; 1.5 with its
	 * bits reversed; 1; -2 */
	expect("numbers",
	       CONVERT("numbers", p, 0xA5, 0x91, 0x40, 0xE5, 0x8E, 0x26, 0x7F, 0x00, 0x01, 0xFC, 0x03, 0x00, 0x00, 0x01,
	               0xFE),
	       "ev: { b = 1, ba = 0x234, bm = 0x81, u = 624485, s = 0xFFFFFFFFFFFFFFFF, r = 32768, f = 1.5, "
	       "e = ( { \"LOW\", \"ONE\" } : container = 1 ), z = -2 }\n");
}

static void test_strings_blobs(void)
{
	tc_field_class *n = uint_le(8, 8), *s = dynamic_string(TC_UTF16LE), *d = blob(0, true);
	tc_field_class *p = structure(1, "n", n, "s", s, "t", string_cls(TC_UTF32BE), "a", blob(3, false),
	                              "m", uint_le(8, 8), "d", d, NULL);
	refer(s, SCOPE_PAYLOAD, n, 1, 0);
	refer(d, SCOPE_PAYLOAD, p->members[4].cls, 1, 4);
	expect("strings-blobs",
	       CONVERT("strings-blobs", p, 0x04, 0xAC, 0x20, 0x78, 0x00, 0x00, 0x00, 0x00, 0xE9, 0x00, 0x00, 0x00, 0x00,
	               0xDE, 0xAD, 0x01, 0x02, 0x0A, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00),
	       "ev: { n = 4, s = \"\xE2\x82\xAC" "x\", t = \"\xC3\xA9\", a = [ [0] = 0xDE, [1] = 0xAD, [2] = 0x1 ], "
	       "m = 2, d = [ [0] = 0xA, [1] = 0xFF ] }\n"
	       "ev: { n = 0, s = \"\", t = \"\", a = [ [0] = 0x0, [1] = 0x0, [2] = 0x0 ], m = 0, d = [ ] }\n");
}

/* The payload members f, o, sel and v that both selection tests start
 * with: an optional behind a boolean, a variant by integer ranges. */
static void selection_members(tc_field_class **f, tc_field_class **o, tc_field_class **sel, tc_field_class **v)
{
	*f = fixed(TC_FIELD_BOOL, 8, 8, TC_LITTLE_ENDIAN);
	*sel = sint_le(8, 8);
	*o = optional_of(uint_le(8, 8), NULL);
	refer(*o, SCOPE_PAYLOAD, *f, 1, 0);
	*v = variant(3,
		"s", string_cls(TC_UTF8), ranges_label(1, (int64_t)-10, (int64_t)-1),
		"", uint_le(16, 8), ranges_label(2, (int64_t)0, (int64_t)0, (int64_t)5, (int64_t)6),
		"int", structure(1, "x", uint_le(8, 8), NULL), ranges_label(1, (int64_t)7, (int64_t)7));
	refer(*v, SCOPE_PAYLOAD, *sel, 1, 2);
}

static void test_selections(void)
{
	tc_field_class *f, *o, *sel, *v;
	selection_members(&f, &o, &sel, &v);
	tc_field_class *p = structure(1, "f", f, "o", o, "sel", sel, "v", v, NULL);
	expect("selections",
	       CONVERT("selections", p, 0x01, 0x2A, 0xFF, 0x6D, 0x00, 0x00, 0x05, 0x34, 0x12, 0x01, 0x07, 0x07, 0x09),
	       "ev: { f = 1, o = { tag = ( \"some\" : container = 1 ), value = { 42 } }, sel = -1, "
	       "v = { tag = ( \"s\" : container = 0 ), value = { \"m\" } } }\n"
	       "ev: { f = 0, o = { tag = ( \"none\" : container = 0 ), value = { { } } }, sel = 5, "
	       "v = { tag = ( \"option1\" : container = 1 ), value = { 4660 } } }\n"
	       "ev: { f = 1, o = { tag = ( \"some\" : container = 1 ), value = { 7 } }, sel = 7, "
	       "v = { tag = ( \"option2\" : container = 2 ), value = { { x = 9 } } } }\n");
}

static void test_lengths(void)
{
	/* a sibling, an outer length (absolute path), a length in each
	 * array element, a length that is a variant (a structure of its own
	 * in CTF 1.8, located natively in CTF 2) */
	tc_field_class *n = uint_le(8, 8), *a = sequence_of(uint_le(8, 8));
	refer(a, SCOPE_PAYLOAD, n, 1, 0);
	tc_field_class *a2 = sequence_of(uint_le(8, 8));
	refer(a2, SCOPE_PAYLOAD, n, 1, 0);
	tc_field_class *en = uint_le(8, 8), *ed = sequence_of(uint_le(8, 8));
	refer(ed, SCOPE_PAYLOAD, en, 3, 3, PATH_ELEMENT, 0);
	tc_field_class *usel = uint_le(8, 8);
	tc_field_class *v = variant(2, "a", uint_le(8, 8), ranges_label(1, (int64_t)0, (int64_t)0),
	                            "b", uint_le(16, 8), ranges_label(1, (int64_t)1, (int64_t)1));
	refer(v, SCOPE_PAYLOAD, usel, 1, 4);
	tc_field_class *va = sequence_of(uint_le(8, 8));
	refer(va, SCOPE_PAYLOAD, v, 2, 5, PATH_SELECTED);
	tc_field_class *p = structure(1, "n", n, "a", a, "s", structure(1, "a2", a2, NULL),
	                              "arr", array_of(structure(1, "n", en, "d", ed, NULL), 2, 1),
	                              "sel", usel, "v", v, "va", va, NULL);
	const char *name = out_version == 2 ? "lengths-2" : "lengths";
	expect(name,
	       CONVERT(name, p, 0x02, 0x07, 0x08, 0x09, 0x0A, 0x01, 0x05, 0x00, 0x01, 0x02, 0x00, 0x08, 0x09),
	       out_version == 2
	           ? "ev: { n = 2, a = [ [0] = 7, [1] = 8 ], s = { a2 = [ [0] = 9, [1] = 10 ] }, "
	             "arr = [ [0] = { n = 1, d = [ [0] = 5 ] }, [1] = { n = 0, d = [ ] } ], sel = 1, "
	             "v = { 2 }, va = [ [0] = 8, [1] = 9 ] }\n"
	           : "ev: { n = 2, a = [ [0] = 7, [1] = 8 ], s = { a2 = [ [0] = 9, [1] = 10 ] }, "
	             "arr = [ [0] = { n = 1, d = [ [0] = 5 ] }, [1] = { n = 0, d = [ ] } ], sel = 1, "
	             "v = { tag = ( \"b\" : container = 1 ), value = { 2 } }, va = { length = 2, value = [ [0] = 8, [1] = 9 ] } }\n");
}

static void test_names(void)
{
	tc_field_class *p = structure(1, "_x", uint_le(8, 8), "a b", uint_le(8, 8), "a_b", uint_le(8, 8),
	                              "int", uint_le(8, 8), "", uint_le(8, 8), "1st", uint_le(8, 8), NULL);
	expect("names", CONVERT("names", p, 1, 2, 3, 4, 5, 6),
	       "ev: { _x = 1, a_b_2 = 2, a_b = 3, int = 4,  = 5, 1st = 6 }\n");

	/* no event name (CTF 2 allows none) */
	tc_field_class *q = structure(1, "y", uint_le(8, 8), NULL);
	const tc_field_class *payloads[2] = { p, q };
	static const uint8_t e0[] = { 1, 2, 3, 4, 5, 6 }, e1[] = { 7 };
	const uint8_t *events[2] = { e0, e1 };
	size_t n[2] = { sizeof e0, sizeof e1 };
	event_classes[0].name = "ev";
	event_classes[1].name = NULL;
	/* TSDL requires a name: an empty one, which babeltrace2 2.0.4 shows
	 * as it shows a missing one, "<unknown>" */
	char *meta = NULL;
	metadata_copy = &meta;
	char *got = convert("unnamed-event", payloads, 2, events, n);
	metadata_copy = NULL;
	check(got && strncmp(got, "ev: { _x = 1, a_b_2 = 2, a_b = 3, int = 4,  = 5, 1st = 6 }\n", 59) == 0 &&
	      strstr(got, ": { y = 7 }\n"), "unnamed-event", "got \"%s\"", got ? got : "(null)");
	check(meta && strstr(meta, "event {\n\tname = \"\";\n\tid = 1;\n"), "unnamed-event-metadata",
	      "no event with an empty name in \"%s\"", meta ? meta : "(null)");
	free(got);
	free(meta);
}

/* A length in the event header, which the writer replaces: carried in
 * the writer's own header; one in the packet header of a packet context
 * sequence in the writer's packet header. */
static void test_header_lengths(void)
{
	tc_field_class *hlen = uint_le(8, 8);
	tc_field_class *hdr = structure(1, "hlen", hlen, NULL);
	tc_field_class *a = sequence_of(uint_le(8, 8)), *b = sequence_of(uint_le(8, 8));
	refer(a, SCOPE_EVENT_HEADER, hlen, 1, 0);
	refer(b, SCOPE_EVENT_HEADER, hlen, 1, 0);
	a->length_ref = b->length_ref = "stream.event.header.hlen";
	tc_field_class *p = structure(1, "a", a, "s", structure(1, "b", b, NULL), NULL);
	stream_class.event_header = hdr;
	const char *name = out_version == 2 ? "header-length-2" : "header-length";
	expect(name, CONVERT(name, p, 0x02, 0x07, 0x08, 0x09, 0x0A, 0x00, 0x01, 0x05, 0x06),
	       "ev: { a = [ [0] = 7, [1] = 8 ], s = { b = [ [0] = 9, [1] = 10 ] } }\n"
	       "ev: { a = [ ], s = { b = [ ] } }\nev: { a = [ [0] = 5 ], s = { b = [ [0] = 6 ] } }\n");
	stream_class.event_header = NULL;

	tc_field_class *magic = uint_le(8, 8);
	trace.packet_header = structure(1, "m", magic, NULL);
	tc_field_class *c = sequence_of(uint_le(8, 8));
	refer(c, SCOPE_PACKET_HEADER, magic, 1, 0);
	c->length_ref = "trace.packet.header.m";
	stream_class.packet_context = structure(1, "c", c, NULL);
	static const uint8_t packet[] = { 0x02, 0x05, 0x06 };
	packet_bytes = packet;
	packet_len = sizeof packet;
	name = out_version == 2 ? "packet-header-length-2" : "packet-header-length";
	expect(name, CONVERT(name, structure(1, "x", uint_le(8, 8), NULL), 0x01),
	       "ev: { c = [ [0] = 5, [1] = 6 ] }, { x = 1 }\n");
	packet_bytes = NULL;
	stream_class.packet_context = NULL;
	trace.packet_header = NULL;
}

/* ---- CTF 2 output: CTF 2's kinds kept ---- */

static void test2_numbers(void)
{
	tc_field_class *bm = fixed(TC_FIELD_BIT_ARRAY, 8, 1, TC_LITTLE_ENDIAN);
	bm->labels = labels_of(2, "A", (int64_t)0, (int64_t)0, "B", (int64_t)6, (int64_t)7);
	bm->label_count = 2;
	tc_field_class *p = structure(1,
		"b", fixed(TC_FIELD_BOOL, 3, 1, TC_LITTLE_ENDIAN),
		"ba", fixed(TC_FIELD_BIT_ARRAY, 12, 1, TC_LITTLE_ENDIAN),
		"bm", bm,
		"u", varint(false),
		"s", with_base(varint(true), 16),
		"r", reversed(fixed(TC_FIELD_INT, 16, 1, TC_BIG_ENDIAN)),
		"f", reversed(fixed(TC_FIELD_FLOAT, 32, 8, TC_LITTLE_ENDIAN)),
		"e", mapped(uint_le(8, 8), labels_of(2, "ONE", (int64_t)1, (int64_t)1, "LOW", (int64_t)0, (int64_t)3), 2),
		"z", mapped(sint_le(8, 8), NULL, 0),
		"bb", reversed(fixed(TC_FIELD_BOOL, 8, 8, TC_BIG_ENDIAN)),
		NULL);
	/* as test_numbers, then a boolean 0x80 read in reverse: 1 */
	expect("numbers-2",
	       CONVERT("numbers-2", p, 0xA5, 0x91, 0x40, 0xE5, 0x8E, 0x26, 0x7F, 0x00, 0x01, 0xFC, 0x03, 0x00, 0x00, 0x01,
	               0xFE, 0x80),
	       "ev: { b = true, ba = 0x234, bm = 0x81 { \"A\", \"B\" }, u = 624485, s = 0xFFFFFFFFFFFFFFFF, r = 32768, "
	       "f = 1.5, e = ( { \"ONE\", \"LOW\" } : container = 1 ), z = -2, bb = true }\n");
}

static void test2_strings_blobs(void)
{
	tc_field_class *n = uint_le(8, 8), *s = dynamic_string(TC_UTF16LE), *d = blob(0, true);
	tc_field_class *p = structure(1, "n", n, "s", s, "t", string_cls(TC_UTF32BE), "a", blob(3, false),
	                              "m", uint_le(8, 8), "d", d, "z", static_string(4, TC_UTF8), NULL);
	refer(s, SCOPE_PAYLOAD, n, 1, 0);
	refer(d, SCOPE_PAYLOAD, p->members[4].cls, 1, 4);
	expect("strings-blobs-2",
	       CONVERT("strings-blobs-2", p, 0x04, 0xAC, 0x20, 0x78, 0x00, 0x00, 0x00, 0x00, 0xE9, 0x00, 0x00, 0x00, 0x00,
	               0xDE, 0xAD, 0x01, 0x02, 0x0A, 0xFF, 'a', 'b', 0x00, 'c',
	               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 'x', 'y', 'z', 'w'),
	       "ev: { n = 4, s = \"\xE2\x82\xAC" "x\", t = \"\xC3\xA9\", a = { de ad 01 }, m = 2, d = { 0a ff }, "
	       "z = \"ab\" }\n"
	       "ev: { n = 0, s = \"\", t = \"\", a = { 00 00 00 }, m = 0, d = { }, z = \"xyzw\" }\n");
}

static void test2_selections(void)
{
	tc_field_class *f, *o, *sel, *v;
	selection_members(&f, &o, &sel, &v);
	tc_field_class *o2 = optional_of(string_cls(TC_UTF8), ranges_label(1, (int64_t)-1, (int64_t)5));
	refer(o2, SCOPE_PAYLOAD, sel, 1, 2);
	tc_field_class *p = structure(1, "f", f, "o", o, "sel", sel, "v", v, "o2", o2, NULL);
	expect("selections-2",
	       CONVERT("selections-2", p, 0x01, 0x2A, 0xFF, 0x6D, 0x00, 0x6E, 0x00, 0x00, 0x05, 0x34, 0x12, 0x70, 0x00,
	               0x01, 0x07, 0x07, 0x09),
	       "ev: { f = true, o = { 42 }, sel = -1, v = { \"m\" }, o2 = { \"n\" } }\n"
	       "ev: { f = false, o = <none>, sel = 5, v = { 4660 }, o2 = { \"p\" } }\n"
	       "ev: { f = true, o = { 7 }, sel = 7, v = { { x = 9 } }, o2 = <none> }\n");
}

static void test2_other_option_length(void)
{
	/* a length inside another option of a variant (CTF 2 locations reach
	 * only the option holding the field): the writer's own key */
	tc_field_class *k = uint_le(8, 8);
	tc_field_class *v2 = variant(2, "none", structure(1, NULL), ranges_label(1, (int64_t)0, (int64_t)0),
	                             "some", structure(1, "k", k, NULL), ranges_label(1, (int64_t)1, (int64_t)1));
	tc_field_class *sel2 = uint_le(8, 8);
	refer(v2, SCOPE_PAYLOAD, sel2, 1, 0);
	tc_field_class *v3 = variant(1, "x", structure(1, "l", sequence_of(uint_le(8, 8)), NULL),
	                             ranges_label(1, (int64_t)1, (int64_t)1));
	refer(v3, SCOPE_PAYLOAD, sel2, 1, 0);
	refer(v3->members[0].cls->members[0].cls, SCOPE_PAYLOAD, k, 3, 1, 1, 0);
	tc_field_class *q = structure(1, "sel", sel2, "v", v2, "w", v3, NULL);
	expect("other-option-length-2", CONVERT("other-option-length-2", q, 0x01, 0x02, 0x0A, 0x0B),
	       "ev: { sel = 1, v = { { k = 2 } }, w = { { l = [ [0] = 10, [1] = 11 ] } } }\n");
}

/* Names as the model shows them; hidden members (roles) left out. */
static void test2_names_hidden(void)
{
	tc_field_class *role = uint_le(8, 8);
	role->flags |= TC_FIELD_HIDDEN;
	tc_field_class *p = structure(1, "_x", uint_le(8, 8), "a b", uint_le(8, 8), "a_b", uint_le(8, 8),
	                              "int", uint_le(8, 8), "", uint_le(8, 8), "1st", uint_le(8, 8),
	                              "roles", structure(1, "r", role, NULL), "after", uint_le(8, 8), NULL);
	expect("names-hidden-2", CONVERT("names-hidden-2", p, 1, 2, 3, 4, 5, 6, 7, 8),
	       "ev: { _x = 1, a b = 2, a_b = 3, int = 4,  = 5, 1st = 6, roles = { }, after = 8 }\n");
}

int main(void)
{
	ctf2_setup();
	event_classes[0].name = "ev";
	test_numbers();
	test_strings_blobs();
	test_selections();
	test_lengths();
	test_names();
	test_header_lengths();
	out_version = 2;
	test2_numbers();
	test2_strings_blobs();
	test2_selections();
	test_lengths();
	test2_other_option_length();
	test2_names_hidden();
	test_header_lengths();
	out_version = 1;
	check(B.err == 0, "classes-built", "a class could not be built: %d", B.err);
	ctf_arena_free(&arena);
	ctf_arena_free(&packet_arena);
	ctf2_teardown();
	return n_fail ? 1 : 0;
}
