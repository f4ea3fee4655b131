/* SPDX-License-Identifier: MIT */
/*
 * event_plan_test.c - the specialised plans of fixed-layout events
 * (event_plan.c, decode.c) against the general path, the oracle.
 *
 * Metadata written here (CTF 1.8 in both byte orders, CTF 2) declares
 * event headers and scopes of every fixed-layout kind: integers of each
 * size, signed or not, at odd alignments, enumerations, floats, text
 * arrays, strings last or between members, sequences of text and of
 * numbers and arrays of numbers (their lengths in the payload or the
 * event context), LTTng's large header with its compact and extended
 * options.  Random bytes are decoded as an event by both paths (those
 * the general path refuses, as a length too large for the bytes, the
 * plans must hand back too), and every slot, the position, the event id
 * and the clock must agree; cut short, the plans must hand the event back
 * untouched.  Passing over
 * an event without building its fields (ctf_pass_fixed_*) must end where
 * the general path does, with the same id and clock.  Layouts the
 * plans do not cover must get no plan.
 *
 * One line per check, "PASS name" or "FAIL name: ..."; exit status 0 when
 * everything passed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctf/ctf.h"

#define EVENTS 300
#define EVENT_BYTES 160    /* more than any event here, string included */

static const char tsdl_common[] =
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 8; align = 8; signed = true; } := int8_t;\n"
	"typealias integer { size = 16; align = 16; signed = true; } := int16_t;\n"
	"typealias integer { size = 32; align = 32; signed = true; } := int32_t;\n"
	"typealias integer { size = 64; align = 64; signed = true; } := int64_t;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n"
	"clock { name = \"monotonic\"; freq = 1000000000; offset = 0; };\n"
	"typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; } := uint32_clock_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;\n"
	"struct event_header_large {\n"
	"  enum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
	"  variant <id> {\n"
	"    struct { uint32_clock_t timestamp; } compact;\n"
	"    struct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
	"  } v;\n"
	"} align(8);\n"
	"struct event_header_compact {\n"
	"  enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"  variant <id> {\n"
	"    struct { uint27_clock_t timestamp; } compact;\n"
	"    struct { uint32_t id; uint64_clock_t timestamp; } extended;\n"
	"  } v;\n"
	"} align(8);\n"
	/* stream 0: LTTng's large header and context; stream 1: a fixed
	 * header; stream 2: the compact header, whose bit fields no plan
	 * covers */
	"stream { id = 0; event.header := struct event_header_large;\n"
	"  event.context := struct { int32_t vpid; uint8_t b;\n"
	"    integer { size = 8; align = 8; signed = 1; encoding = UTF8; } procname[17]; int64_t tid; }; };\n"
	"stream { id = 1; event.header := struct { uint8_t id; uint64_clock_t timestamp; int16_t pad; }; };\n"
	"stream { id = 2; event.header := struct event_header_compact; };\n"
	/* stream 3: babeltrace2 2.1's CTF 2 writing of LTTng's context,
	 * procname a string between integers */
	"stream { id = 3; event.header := struct event_header_large;\n"
	"  event.context := struct { int32_t vpid; string procname; uint64_t tid; }; };\n"
	"event { name = \"ints\"; id = 0; stream_id = 0; fields := struct { uint64_t seq; int32_t w; uint32_t f;\n"
	"  int8_t c; int16_t h; int64_t q; uint16_t u; string tag; }; };\n"
	"event { name = \"mixed\"; id = 1; stream_id = 0;\n"
	"  context := struct { enum : int8_t { neg = -128 ... -1, pos = 0 ... 127 } sign; };\n"
	"  fields := struct { floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f32;\n"
	"    floating_point { exp_dig = 11; mant_dig = 53; align = 64; } f64;\n"
	"    integer { size = 8; align = 8; signed = 0; encoding = UTF8; } name[5]; uint8_t last; }; };\n"
	"event { name = \"seq\"; id = 2; stream_id = 0; fields := struct { uint8_t n; uint32_t v[n]; }; };\n"
	"event { name = \"midstr\"; id = 3; stream_id = 0; fields := struct { string s; uint32_t after; }; };\n"
	"event { name = \"fixed\"; id = 0; stream_id = 1; fields := struct { uint32_t a; string b; }; };\n"
	"event { name = \"empty\"; id = 1; stream_id = 1; };\n"
	"event { name = \"bits\"; id = 0; stream_id = 2; fields := struct { uint32_t a; }; };\n"
	"event { name = \"twostr\"; id = 4; stream_id = 0; fields := struct { string a; string b; uint8_t c; }; };\n"
	"event { name = \"strwide\"; id = 5; stream_id = 0; fields := struct { string s; uint8_t x; int64_t q; }; };\n"
	"event { name = \"ctxstr\"; id = 0; stream_id = 3; fields := struct { uint64_t seq; string tag; }; };\n"
	/* LTTng's ctf_sequence and ctf_sequence_text, and what follows them */
	"event { name = \"seqs\"; id = 6; stream_id = 0; fields := struct { uint8_t n; int16_t v[n]; uint8_t tl;\n"
	"  integer { size = 8; align = 8; signed = 0; encoding = UTF8; } t[tl]; uint8_t after; int32_t s[n];\n"
	"  uint8_t last; }; };\n"
	/* numbers of every other kind, elements aligned on more than their
	 * size, an array of static length */
	"event { name = \"numbers\"; id = 7; stream_id = 0; fields := struct { uint8_t n;\n"
	"  floating_point { exp_dig = 11; mant_dig = 53; align = 8; } d[n];\n"
	"  floating_point { exp_dig = 8; mant_dig = 24; align = 32; } f[2];\n"
	"  enum : uint16_t { a = 0, b = 1 } e[n]; integer { size = 8; align = 32; signed = true; } w[3];\n"
	"  uint64_t q[n]; int8_t c[n]; }; };\n"
	/* a length in the event's context */
	"event { name = \"ctxlen\"; id = 8; stream_id = 0; context := struct { uint8_t cn; };\n"
	"  fields := struct { uint64_t v[event.context.cn]; }; };\n"
	/* numbers before a scope: their slots would come before its own */
	"event { name = \"ctxseq\"; id = 9; stream_id = 0; context := struct { uint8_t cn; uint32_t cv[cn]; };\n"
	"  fields := struct { uint8_t x; }; };\n"
	/* a length outside the event */
	"event { name = \"pktlen\"; id = 10; stream_id = 0;\n"
	"  fields := struct { uint32_t v[trace.packet.header.stream_id]; }; };\n";

static const char ctf2_metadata[] =
	"\x1e{\"type\":\"preamble\",\"version\":2}\n"
	"\x1e{\"type\":\"trace-class\"}\n"
	"\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000}\n"
	"\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\","
	"\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"big-endian\",\"alignment\":8,\"roles\":[\"event-record-class-id\"]}},"
	"{\"name\":\"ts\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]}}\n"
	"\x1e{\"type\":\"event-record-class\",\"id\":0,\"name\":\"e\",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"a\",\"field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":32,\"byte-order\":\"big-endian\",\"alignment\":32}},"
	"{\"name\":\"b\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":8}},"
	"{\"name\":\"c\",\"field-class\":{\"type\":\"null-terminated-string\"}},"
	"{\"name\":\"n\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":8}},"
	"{\"name\":\"v\",\"field-class\":{\"type\":\"dynamic-length-array\",\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"n\"]},"
	"\"element-field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":16,\"byte-order\":\"big-endian\",\"alignment\":16}}},"
	"{\"name\":\"s\",\"field-class\":{\"type\":\"dynamic-length-string\",\"length-field-location\":{\"origin\":\"event-record-payload\",\"path\":[\"n\"]}}}]}}\n";

/* LTTng 2.15's header: a variant selected by ranges of the id */
static const char ctf2_lttng_metadata[] =
	"\x1e{\"type\":\"preamble\",\"version\":2}\n"
	"\x1e{\"type\":\"trace-class\"}\n"
	"\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000}\n"
	"\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\","
	"\"event-record-header-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":16,\"byte-order\":\"little-endian\",\"alignment\":8,"
	"\"mappings\":{\"compact\":[[0,65534]],\"extended\":[[65535,65535]]},\"roles\":[\"event-record-class-id\"]}},"
	"{\"name\":\"v\",\"field-class\":{\"type\":\"variant\",\"selector-field-location\":{\"origin\":\"event-record-header\",\"path\":[\"id\"]},\"options\":["
	"{\"name\":\"compact\",\"selector-field-ranges\":[[0,65534]],\"field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"timestamp\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]}},"
	"{\"name\":\"extended\",\"selector-field-ranges\":[[65535,65535]],\"field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"id\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":32,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"event-record-class-id\"]}},"
	"{\"name\":\"timestamp\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":\"little-endian\",\"alignment\":8,\"roles\":[\"default-clock-timestamp\"]}}]}}]}}]}}\n"
	"\x1e{\"type\":\"event-record-class\",\"id\":0,\"name\":\"e\",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":["
	"{\"name\":\"a\",\"field-class\":{\"type\":\"fixed-length-signed-integer\",\"length\":64,\"byte-order\":\"little-endian\",\"alignment\":8}},"
	"{\"name\":\"c\",\"field-class\":{\"type\":\"null-terminated-string\"}}]}}\n";

static uint64_t rng = 0x9E3779B97F4A7C15u;

static ctf_trace *parse(const char *name, const char *byte_order_or_json)
{
	char *text;
	size_t len;
	if (byte_order_or_json[0] == 0x1e) {
		text = strdup(byte_order_or_json);
		len = strlen(text);
	} else {
		tc_buf b = { 0 };
		tc_buf_printf(&b, "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = %s;\n"
		                  "  packet.header := struct { uint32_t magic; uint8_t stream_id; }; };\n%s",
		              byte_order_or_json, tsdl_common);
		text = b.data;
		len = b.len;
	}
	static const tc_open_options opts;
	ctf_trace *t = NULL;
	int rc = ctf_metadata_parse(&t, "/x", text, len, &opts);
	check(rc == 0, name, "metadata refused: %s", tc_error_last()->message);
	return rc == 0 ? t : NULL;
}

typedef struct run {
	ctf_decoder d;
	ctf_arena arena;
	uint64_t clock;
	tc_message m;
	tc_field *header;
} run;

static void run_init(run *r, const ctf_stream_class *sc, const uint8_t *buf, size_t len)
{
	r->arena.used = 0;
	r->d = (ctf_decoder){ .buf = buf, .limit = (uint64_t)len * 8, .last_bo = -1, .clock_value = &r->clock,
		              .clock = sc->pub.clock, .arena = &r->arena, .path = "/x/stream" };
	r->clock = 0x123456789ull;
	memset(&r->m, 0, sizeof r->m);
	r->header = NULL;
}

/* The general path: every scope by ctf_decode_scope, as stream.c does
 * without plans. */
static int decode_general(run *r, const ctf_stream_class *sc, const tc_event_class *ec)
{
	int rc;
	while (r->arena.cap < 256)
		if ((rc = ctf_arena_grow(&r->arena)) < 0)
			return rc;
	if (sc->pub.event_header && (rc = ctf_decode_scope(&r->d, SCOPE_EVENT_HEADER, sc->pub.event_header, &r->header)))
		return rc;
	const tc_field_class *scopes[3] = { sc->pub.event_context, ec->context, ec->payload };
	const tc_field **slots[3] = { &r->m.stream_event_context, &r->m.event_context, &r->m.payload };
	for (int i = 0; i < 3; i++) {
		tc_field *root;
		if (scopes[i] && (rc = ctf_decode_scope(&r->d, (ctf_scope)(SCOPE_STREAM_EVENT_CONTEXT + i), scopes[i], &root)))
			return rc;
		*slots[i] = scopes[i] && !(scopes[i]->flags & TC_FIELD_HIDDEN) ? root : NULL;
	}
	return 0;
}

/* The plans; *USED and *POS tell where the arena and the position were
 * before the part that returned. */
static int decode_planned(run *r, const ctf_stream_class *sc, const ctf_event_entry *e, size_t *used, uint64_t *pos)
{
	int rc;
	while (r->arena.cap < 256)
		if ((rc = ctf_arena_grow(&r->arena)) < 0)
			return rc;
	*used = 0;
	*pos = 0;
	if (sc->header_plan)
		rc = ctf_decode_fixed_header(&r->d, sc->header_plan, &r->header);
	else
		rc = ctf_decode_scope(&r->d, SCOPE_EVENT_HEADER, sc->pub.event_header, &r->header);
	if (rc)
		return rc;
	*used = r->arena.used;
	*pos = r->d.pos;
	return ctf_decode_fixed_event(&r->d, e->plan, &r->m);
}

/* The plans' steps that build no field (tc_input_want_values), header
 * included when it has a plan; *POS as for decode_planned. */
static int pass_planned(run *r, const ctf_stream_class *sc, const ctf_event_entry *e, uint64_t *pos)
{
	int rc;
	while (r->arena.cap < 256)
		if ((rc = ctf_arena_grow(&r->arena)) < 0)
			return rc;
	*pos = 0;
	if (sc->header_plan)
		rc = ctf_pass_fixed_header(&r->d, sc->header_plan);
	else
		rc = ctf_decode_scope(&r->d, SCOPE_EVENT_HEADER, sc->pub.event_header, &r->header);
	if (rc)
		return rc;
	*pos = r->d.pos;
	static const tc_field unset;
	r->m.stream_event_context = r->m.event_context = r->m.payload = &unset;
	return ctf_pass_fixed_event(&r->d, e->plan, &r->m);
}

/* Whether passing over an event left R where the general path left G,
 * with the same id and clock, and built nothing. */
static bool same_pass(const run *g, const run *r, bool header_planned, char *why, size_t why_len)
{
	if (g->d.pos != r->d.pos || g->d.have_id != r->d.have_id || (g->d.have_id && g->d.id != r->d.id) ||
	    g->clock != r->clock) {
		snprintf(why, why_len, "pos %" PRIu64 "/%" PRIu64 " id %" PRIu64 "/%" PRIu64 " clock %" PRIx64 "/%" PRIx64,
		         g->d.pos, r->d.pos, g->d.id, r->d.id, g->clock, r->clock);
		return false;
	}
	if ((header_planned && r->arena.used) || r->m.stream_event_context || r->m.event_context || r->m.payload) {
		snprintf(why, why_len, "%zu slots built, scopes %s", r->arena.used,
		         r->m.stream_event_context || r->m.event_context || r->m.payload ? "set" : "left NULL");
		return false;
	}
	return true;
}

/* Whether the slots of A and B, and where decoding left them, agree. */
static bool same_run(const run *a, const run *b, char *why, size_t why_len)
{
	if (a->arena.used != b->arena.used || a->d.pos != b->d.pos || a->d.have_id != b->d.have_id ||
	    (a->d.have_id && a->d.id != b->d.id) || a->clock != b->clock) {
		snprintf(why, why_len, "slots %zu/%zu pos %" PRIu64 "/%" PRIu64 " id %" PRIu64 "/%" PRIu64 " clock %" PRIx64 "/%" PRIx64,
		         a->arena.used, b->arena.used, a->d.pos, b->d.pos, a->d.id, b->d.id, a->clock, b->clock);
		return false;
	}
	for (size_t i = 0; i < a->arena.used; i++) {
		const tc_field *x = &a->arena.slots[i], *y = &b->arena.slots[i];
		bool same = x->cls == y->cls && x->option == y->option;
		if (same) {
			switch (x->cls->flags & TC_FIELD_TEXT ? TC_FIELD_STRING : x->cls->kind) {
			case TC_FIELD_STRUCT:
			case TC_FIELD_VARIANT:
			case TC_FIELD_ARRAY:
			case TC_FIELD_SEQUENCE:
				same = x->v.compound.count == y->v.compound.count &&
				       x->v.compound.items - a->arena.slots == y->v.compound.items - b->arena.slots;
				break;
			case TC_FIELD_STRING:
				same = x->v.str.ptr == y->v.str.ptr && x->v.str.len == y->v.str.len;
				break;
			default:
				same = memcmp(&x->v, &y->v, sizeof x->v.u) == 0;
			}
		}
		if (!same) {
			snprintf(why, why_len, "slot %zu differs", i);
			return false;
		}
	}
	const tc_field *const ma[3] = { a->m.stream_event_context, a->m.event_context, a->m.payload };
	const tc_field *const mb[3] = { b->m.stream_event_context, b->m.event_context, b->m.payload };
	for (int i = 0; i < 3; i++)
		if ((ma[i] ? ma[i] - a->arena.slots : -1) != (mb[i] ? mb[i] - b->arena.slots : -1)) {
			snprintf(why, why_len, "message scope %d differs", i);
			return false;
		}
	return true;
}

/* EVENTS random events of class E of SC through both paths, whole and cut
 * short. */
static void compare_class(const char *trace_name, const ctf_stream_class *sc, const ctf_event_entry *e)
{
	char name[160], why[200] = "", pass_why[200] = "", refused_why[200] = "";
	uint8_t buf[EVENT_BYTES];
	int bad = 0, fallbacks = 0, pass_bad = 0, pass_fallbacks = 0, refused_bad = 0;
	run g = { 0 }, p = { 0 }, q = { 0 };
	for (int n = 0; n < EVENTS && !bad; n++) {
		size_t len, used;
		uint64_t pos;
		int rg, rp, tries = 0;
		/* bytes the general path decodes, with the 8 bytes after the
		 * event the plans' loads may read: lengths read from random
		 * bytes often ask for more than there is */
		do {
			for (size_t i = 0; i < sizeof buf; i++)
				buf[i] = (uint8_t)check_random(&rng);
			/* a string every few bytes, and a first few events
			 * with the large header's rarer extended option */
			for (size_t i = 0; i < sizeof buf; i += 1 + check_random(&rng) % 24)
				buf[i] = 0;
			if (n < 20)
				buf[0] = buf[1] = 0xff;
			len = sizeof buf - check_random(&rng) % 8;
			run_init(&g, sc, buf, len);
			if ((rg = decode_general(&g, sc, e->ec)) == 0) {
				if (g.d.pos / 8 + 8 <= len)
					break;
				continue;
			}
			run_init(&p, sc, buf, len);
			if ((rp = decode_planned(&p, sc, e, &used, &pos)) != CTF_FIXED_FALLBACK && !refused_bad) {
				snprintf(refused_why, sizeof refused_why, "general %d, planned %d", rg, rp);
				refused_bad = 1;
			}
		} while (++tries < 1000);
		run_init(&p, sc, buf, len);
		rp = decode_planned(&p, sc, e, &used, &pos);
		if (rg != 0 || rp != 0) {
			snprintf(why, sizeof why, "general %d, planned %d: %.100s", rg, rp, tc_error_last()->message);
			bad = 1;
		} else if (!same_run(&g, &p, why, sizeof why)) {
			bad = 1;
		}
		run_init(&q, sc, buf, len);
		int rq = pass_planned(&q, sc, e, &pos);
		if (rq != 0 && !pass_bad) {
			snprintf(pass_why, sizeof pass_why, "passing returned %d", rq);
			pass_bad = 1;
		} else if (rg == 0 && !pass_bad && !same_pass(&g, &q, sc->header_plan != NULL, pass_why, sizeof pass_why)) {
			pass_bad = 1;
		}
		/* cut inside the event: the plans give it back as it was */
		size_t cut = (size_t)(g.d.pos / 8) - 1 - check_random(&rng) % 4;
		run_init(&p, sc, buf, cut);
		rp = decode_planned(&p, sc, e, &used, &pos);
		if (rp == CTF_FIXED_FALLBACK && p.arena.used == used && p.d.pos == pos)
			fallbacks++;
		run_init(&q, sc, buf, cut);
		rq = pass_planned(&q, sc, e, &pos);
		if (rq == CTF_FIXED_FALLBACK && q.d.pos == pos)
			pass_fallbacks++;
	}
	snprintf(name, sizeof name, "%s_%s_same_as_general", trace_name, e->ec->name);
	check(!bad, name, "%s", why);
	snprintf(name, sizeof name, "%s_%s_refused_as_general", trace_name, e->ec->name);
	check(!refused_bad, name, "%s", refused_why);
	snprintf(name, sizeof name, "%s_%s_cut_short_falls_back", trace_name, e->ec->name);
	check(fallbacks == EVENTS, name, "%d of %d", fallbacks, EVENTS);
	snprintf(name, sizeof name, "%s_%s_passed_as_general", trace_name, e->ec->name);
	check(!pass_bad, name, "%s", pass_why);
	snprintf(name, sizeof name, "%s_%s_cut_short_pass_falls_back", trace_name, e->ec->name);
	check(pass_fallbacks == EVENTS, name, "%d of %d", pass_fallbacks, EVENTS);
	ctf_arena_free(&g.arena);
	ctf_arena_free(&p.arena);
	ctf_arena_free(&q.arena);
}

static const ctf_event_entry *entry_named(const ctf_stream_class *sc, const char *name)
{
	for (size_t i = 0; i < sc->pub.event_class_count; i++)
		if (strcmp(sc->entries[i].ec->name, name) == 0)
			return &sc->entries[i];
	return NULL;
}

static void test_tsdl(const char *byte_order)
{
	char name[64];
	snprintf(name, sizeof name, "tsdl_%s", byte_order);
	ctf_trace *t = parse(name, byte_order);
	if (!t)
		return;
	const ctf_stream_class *s0 = (ctf_stream_class *)t->pub.stream_classes[0];
	const ctf_stream_class *s1 = (ctf_stream_class *)t->pub.stream_classes[1];
	const ctf_stream_class *s2 = (ctf_stream_class *)t->pub.stream_classes[2];
	const ctf_stream_class *s3 = (ctf_stream_class *)t->pub.stream_classes[3];
	const struct {
		const char *what;
		bool planned, expected;
	} plans[] = {
		{ "large_header", s0->header_plan && s0->header_plan->variant, true },
		{ "fixed_header", s1->header_plan && !s1->header_plan->variant, true },
		{ "bit_field_header", s2->header_plan != NULL, false },
		{ "ints", entry_named(s0, "ints")->plan != NULL, true },
		{ "mixed", entry_named(s0, "mixed")->plan != NULL, true },
		{ "sequence", entry_named(s0, "seq")->plan != NULL, true },
		{ "sequences_text_and_numbers", entry_named(s0, "seqs")->plan != NULL, true },
		{ "numbers_of_every_kind", entry_named(s0, "numbers")->plan != NULL, true },
		{ "length_in_context", entry_named(s0, "ctxlen")->plan != NULL, true },
		{ "numbers_before_a_scope", entry_named(s0, "ctxseq")->plan != NULL, false },
		{ "length_outside_the_event", entry_named(s0, "pktlen")->plan != NULL, false },
		{ "string_before_integer", entry_named(s0, "midstr")->plan != NULL, true },
		{ "two_strings", entry_named(s0, "twostr")->plan != NULL, true },
		/* after a string, a place aligned on more than a byte moves
		 * with the string's length */
		{ "string_before_wider_alignment", entry_named(s0, "strwide")->plan != NULL, false },
		{ "string_in_context", entry_named(s3, "ctxstr")->plan != NULL, true },
		{ "fixed", entry_named(s1, "fixed")->plan != NULL, true },
		{ "no_fields", entry_named(s1, "empty")->plan != NULL, false },
		/* after a header the general path decodes */
		{ "bits", entry_named(s2, "bits")->plan != NULL, true },
	};
	for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
		snprintf(name, sizeof name, "tsdl_%s_plan_%s", byte_order, plans[i].what);
		check(plans[i].planned == plans[i].expected, name, "%s", plans[i].planned ? "planned" : "not planned");
	}
	if (s0->header_plan) {
		snprintf(name, sizeof name, "tsdl_%s", byte_order);
		compare_class(name, s0, entry_named(s0, "ints"));
		compare_class(name, s0, entry_named(s0, "mixed"));
		compare_class(name, s0, entry_named(s0, "midstr"));
		compare_class(name, s0, entry_named(s0, "twostr"));
		compare_class(name, s0, entry_named(s0, "seq"));
		compare_class(name, s0, entry_named(s0, "seqs"));
		compare_class(name, s0, entry_named(s0, "numbers"));
		compare_class(name, s0, entry_named(s0, "ctxlen"));
	}
	if (s3->header_plan && entry_named(s3, "ctxstr")->plan)
		compare_class(name, s3, entry_named(s3, "ctxstr"));
	if (s1->header_plan && entry_named(s1, "fixed")->plan)
		compare_class(name, s1, entry_named(s1, "fixed"));
	if (entry_named(s2, "bits")->plan)
		compare_class(name, s2, entry_named(s2, "bits"));
	ctf_trace_free(t);
}

static void test_ctf2(const char *name, const char *metadata, bool header_variant)
{
	char check_name[64];
	ctf_trace *t = parse(name, metadata);
	if (!t)
		return;
	const ctf_stream_class *sc = (ctf_stream_class *)t->pub.stream_classes[0];
	snprintf(check_name, sizeof check_name, "%s_plans_where_fixed", name);
	check(sc->header_plan && (sc->header_plan->variant != NULL) == header_variant && sc->entries[0].plan,
	      check_name, "header plan %s, event plan %s", sc->header_plan ? "made" : "missing",
	      sc->entries[0].plan ? "made" : "missing");
	if (sc->header_plan && sc->entries[0].plan)
		compare_class(name, sc, &sc->entries[0]);
	ctf_trace_free(t);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_tsdl("le");
	test_tsdl("be");
	test_ctf2("ctf2", ctf2_metadata, false);
	test_ctf2("ctf2_lttng", ctf2_lttng_metadata, true);
	return n_fail ? 1 : 0;
}
