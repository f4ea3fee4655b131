/*
 * ctf2_convert_test.c - unit tests for writing CTF 2 kinds as CTF 1.8
 * (writer.c, tsdl_write.c): a CTF 2 trace model built by hand (classes as
 * the CTF 2 front end builds them), its events decoded from bytes, written
 * with tc_ctf_writer, and the result read back with the CTF 1.8 reader and
 * printed as babeltrace2 2.0.4 prints it.  The expected texts were checked
 * with babeltrace2 2.0.4 on the written traces (CTF2_CONVERT_KEEP=DIR
 * keeps them in DIR), which babeltrace 1.5 reads too.
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

	trace.format = "ctf";
	trace.ctf_major = 2;
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
	int rc = tc_ctf_writer_new(&w, dir, traces, 1, NULL);
	for (size_t c = 0; c < classes && rc == 0; c++) {
		ctf_decoder d;
		decoder_init(&d, events[c], n[c], &arena);
		while (rc == 0 && d.pos < d.limit) {
			tc_field *root;
			if ((rc = decode_event(&d, stream_class.event_header, payloads[c], &root)) < 0)
				break;
			tc_message m;
			memset(&m, 0, sizeof m);
			m.kind = TC_MSG_EVENT;
			m.stream = &stream;
			m.event_class = &event_classes[c];
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
	       "e = ( \"ONE\", \"LOW\" : container = 1 ), z = -2 }\n");
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

static void test_selections(void)
{
	tc_field_class *f = fixed(TC_FIELD_BOOL, 8, 8, TC_LITTLE_ENDIAN), *sel = sint_le(8, 8);
	tc_field_class *o = optional_of(uint_le(8, 8), NULL);
	refer(o, SCOPE_PAYLOAD, f, 1, 0);
	tc_field_class *v = variant(3,
		"s", string_cls(TC_UTF8), ranges_label(1, (int64_t)-10, (int64_t)-1),
		"", uint_le(16, 8), ranges_label(2, (int64_t)0, (int64_t)0, (int64_t)5, (int64_t)6),
		"int", structure(1, "x", uint_le(8, 8), NULL), ranges_label(1, (int64_t)7, (int64_t)7));
	refer(v, SCOPE_PAYLOAD, sel, 1, 2);
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
	 * array element, a length that is a variant (a structure of its own) */
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
	expect("lengths",
	       CONVERT("lengths", p, 0x02, 0x07, 0x08, 0x09, 0x0A, 0x01, 0x05, 0x00, 0x01, 0x02, 0x00, 0x08, 0x09),
	       "ev: { n = 2, a = [ [0] = 7, [1] = 8 ], s = { a2 = [ [0] = 9, [1] = 10 ] }, "
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
 * sequence cannot be. */
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
	expect("header-length", CONVERT("header-length", p, 0x02, 0x07, 0x08, 0x09, 0x0A, 0x00, 0x01, 0x05, 0x06),
	       "ev: { a = [ [0] = 7, [1] = 8 ], s = { b = [ [0] = 9, [1] = 10 ] } }\n"
	       "ev: { a = [ ], s = { b = [ ] } }\nev: { a = [ [0] = 5 ], s = { b = [ [0] = 6 ] } }\n");
	stream_class.event_header = NULL;

	tc_field_class *magic = uint_le(8, 8);
	trace.packet_header = structure(1, "m", magic, NULL);
	tc_field_class *c = sequence_of(uint_le(8, 8));
	refer(c, SCOPE_PACKET_HEADER, magic, 1, 0);
	c->length_ref = "trace.packet.header.m";
	stream_class.packet_context = structure(1, "c", c, NULL);
	char *got = CONVERT("packet-header-length", structure(1, "x", uint_le(8, 8), NULL), 0x01);
	check(got && strstr(got, "ERROR: ") && strstr(got, "packet context"), "packet-header-length",
	      "got \"%s\"", got ? got : "(null)");
	free(got);
	stream_class.packet_context = NULL;
	trace.packet_header = NULL;
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
	check(B.err == 0, "classes-built", "a class could not be built: %d", B.err);
	ctf_arena_free(&arena);
	ctf2_teardown();
	return n_fail ? 1 : 0;
}
