/* SPDX-License-Identifier: MIT */
/*
 * ctf_fit_test.c - the CTF writer's layout check (src/ctf/fit.c): a
 * message whose values do not fit the classes they are written as (an
 * array of more or fewer elements than its length, a sequence longer or
 * shorter than its length field says, also inside the elements of an
 * array, an integer beyond its bits, a structure missing members) is
 * refused, CTF 1.8 and CTF 2 alike, with an error naming the event and
 * the field; one that fits is written and reads back as it was.  Then
 * random messages, most of them fitting: each is refused exactly when one
 * of its values does not fit, and read back equal otherwise.
 *
 * The model, made here as any reader would make it:
 *   fit:ev { n: u32, arr: u32[2], seq: u32[n], b: u8, s: s8,
 *            pts: { m: u8, vs: u8[m] }[2] }
 * (before issue 26 of the tracker, an ftrace kernel_stack's caller
 * declared as an array of 8 and written with 27 elements made a stream
 * babeltrace2 stopped reading.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"

static tc_clock clock_ = { .name = "monotonic", .freq = 1000000000 };
static tc_clock *clocks[] = { &clock_ };
static tc_field_class u8 = { .kind = TC_FIELD_INT, .align = 8, .size = 8, .base = 10 };
static tc_field_class s8 = { .kind = TC_FIELD_INT, .align = 8, .size = 8, .is_signed = true, .base = 10 };
static tc_field_class u32 = { .kind = TC_FIELD_INT, .align = 8, .size = 32, .base = 10 };
static const uint16_t to_n[] = { 0 }, to_m[] = { 5, TC_PATH_ELEMENT, 0 };
static tc_field_class arr = { .kind = TC_FIELD_ARRAY, .align = 8, .element = &u32, .length = 2 };
static tc_field_class seq = { .kind = TC_FIELD_SEQUENCE, .align = 8, .element = &u32, .length_ref = "n",
                              .ref = { TC_SCOPE_PAYLOAD, to_n, 1, &u32 } };
static tc_field_class vs = { .kind = TC_FIELD_SEQUENCE, .align = 8, .element = &u8, .length_ref = "m",
                             .ref = { TC_SCOPE_PAYLOAD, to_m, 3, &u8 } };
static tc_member pt_members[] = { { "m", "m", &u8 }, { "vs", "vs", &vs } };
static tc_field_class pt = { .kind = TC_FIELD_STRUCT, .align = 8, .members = pt_members, .member_count = 2 };
static tc_field_class pts = { .kind = TC_FIELD_ARRAY, .align = 8, .element = &pt, .length = 2 };
static tc_member members[] = { { "n", "n", &u32 }, { "arr", "arr", &arr }, { "seq", "seq", &seq },
                               { "b", "b", &u8 }, { "s", "s", &s8 }, { "pts", "pts", &pts } };
static tc_field_class payload = { .kind = TC_FIELD_STRUCT, .align = 8, .members = members, .member_count = 6 };
static tc_event_class ev = { .id = 0, .name = "fit:ev", .loglevel = -1, .payload = &payload };
static tc_event_class *event_classes[] = { &ev };
static tc_stream_class stream_class = { .clock = &clock_, .event_classes = event_classes, .event_class_count = 1 };
static tc_stream_class *stream_classes[] = { &stream_class };
static tc_stream stream = { .stream_class = &stream_class, .name = "fit" };
static tc_stream *streams[] = { &stream };
static tc_env_entry env[] = { { TC_ENV_DOMAIN, false, 0, "ust" } };
static tc_trace trace = { .name = "fit", .path = "fit", .dir_in_input = "", .env = env, .env_count = 1,
                          .clocks = clocks, .clock_count = 1, .stream_classes = stream_classes,
                          .stream_class_count = 1, .streams = streams, .stream_count = 1 };

#define MAXN 6

/* One message's fields: the sizes and values to give it. */
typedef struct spec {
	uint64_t n, b;
	int64_t s;
	size_t arr_count, seq_count, pt_count, member_count;
	uint64_t m[2];
	size_t vs_count[2];
} spec;

typedef struct event {
	tc_message msg;
	tc_field root, items[6], arr_items[MAXN], seq_items[MAXN], pt[2], pt_items[2][2], vs_items[2][MAXN];
} event;

static void build(event *e, const spec *sp, uint64_t seed)
{
	memset(e, 0, sizeof *e);
	for (size_t i = 0; i < MAXN; i++) {
		e->arr_items[i] = (tc_field){ .cls = &u32, .v.u = seed + i };
		e->seq_items[i] = (tc_field){ .cls = &u32, .v.u = seed * 7 + i };
		for (size_t k = 0; k < 2; k++)
			e->vs_items[k][i] = (tc_field){ .cls = &u8, .v.u = (seed + 10 * k + i) & 0xFF };
	}
	for (size_t k = 0; k < 2; k++) {
		e->pt_items[k][0] = (tc_field){ .cls = &u8, .v.u = sp->m[k] };
		e->pt_items[k][1] = (tc_field){ .cls = &vs, .v.compound = { e->vs_items[k], sp->vs_count[k] } };
		e->pt[k] = (tc_field){ .cls = &pt, .v.compound = { e->pt_items[k], 2 } };
	}
	e->items[0] = (tc_field){ .cls = &u32, .v.u = sp->n };
	e->items[1] = (tc_field){ .cls = &arr, .v.compound = { e->arr_items, sp->arr_count } };
	e->items[2] = (tc_field){ .cls = &seq, .v.compound = { e->seq_items, sp->seq_count } };
	e->items[3] = (tc_field){ .cls = &u8, .v.u = sp->b };
	e->items[4] = (tc_field){ .cls = &s8, .v.s = sp->s };
	e->items[5] = (tc_field){ .cls = &pts, .v.compound = { e->pt, sp->pt_count } };
	e->root = (tc_field){ .cls = &payload, .v.compound = { e->items, sp->member_count } };
	e->msg = (tc_message){ .kind = TC_MSG_EVENT, .stream = &stream, .has_time = true, .cycles = 1000 + seed,
	                       .event_class = &ev, .payload = &e->root };
}

static const spec fitting = { .n = 3, .b = 255, .s = -128, .arr_count = 2, .seq_count = 3, .pt_count = 2,
                              .member_count = 6, .m = { 1, 0 }, .vs_count = { 1, 0 } };

static bool fits(const spec *sp)
{
	return sp->arr_count == 2 && sp->seq_count == sp->n && sp->b < 256 && sp->s >= -128 && sp->s < 128 &&
	       sp->pt_count == 2 && sp->member_count == 6 && sp->vs_count[0] == sp->m[0] && sp->vs_count[1] == sp->m[1];
}

/* Writes E as the only event of a new trace in DIR; 0 or the error. */
static int write_one(const char *dir, int version, const event *e)
{
	tc_ctf_writer_options o = { .ctf_version = version };
	tc_ctf_writer *w = NULL;
	tc_trace *list[] = { &trace };
	int rc = mkdir(dir, 0755) == 0 ? tc_ctf_writer_new(&w, dir, list, 1, &o) : TC_EIO;
	if (rc == 0)
		rc = tc_ctf_writer_write(w, &e->msg);
	if (rc == 0)
		rc = tc_ctf_writer_finish(w);
	tc_ctf_writer_free(w);
	return rc;
}

/* Whether the values of A and B are the same, structure for structure. */
static bool same(const tc_field *a, const tc_field *b)
{
	if (!a->cls || !b->cls)
		return false;
	switch (a->cls->kind) {
	case TC_FIELD_INT:
		return b->cls->kind == TC_FIELD_INT && a->v.u == b->v.u;
	case TC_FIELD_STRUCT:
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		if (a->v.compound.count != b->v.compound.count)
			return false;
		for (size_t i = 0; i < a->v.compound.count; i++)
			if (!same(&a->v.compound.items[i], &b->v.compound.items[i]))
				return false;
		return true;
	default:
		return false;
	}
}

/* Whether the trace in DIR holds one event, E's values. */
static bool reads_back(const char *dir, const event *e)
{
	tc_input *in = NULL;
	const tc_message *m;
	int events = 0;
	bool ok = tc_input_open(&in, dir, NULL) == 0;
	while (ok && tc_input_next(in, &m) > 0)
		if (m->kind == TC_MSG_EVENT)
			ok = ++events == 1 && m->payload && same(&e->root, m->payload);
	tc_input_free(in);
	return ok && events == 1;
}

static void refused(const char *tmp, int version, const char *name, const spec *sp, const char *want)
{
	char dir[4200], label[96];
	snprintf(dir, sizeof dir, "%s/%s-%d", tmp, name, version);
	snprintf(label, sizeof label, "ctf%d/%s", version, name);
	event e;
	build(&e, sp, 1);
	int rc = write_one(dir, version, &e);
	const char *msg = tc_error_last()->message;
	check(rc == TC_EINVAL && strstr(msg, "event \"fit:ev\": field ") && strstr(msg, want), label,
	      "rc %d, error \"%s\", wanted one with \"%s\"", rc, rc ? msg : "", want);
}

int main(void)
{
	stream_class.trace = stream.trace = &trace;
	ev.stream_class = &stream_class;
	char tmp[] = "/tmp/ctf-fit-XXXXXX";
	if (!mkdtemp(tmp))
		return 1;
	for (int version = 1; version <= 2; version++) {
		char dir[4200], label[64];
		event e;
		build(&e, &fitting, 1);
		snprintf(dir, sizeof dir, "%s/fits-%d", tmp, version);
		snprintf(label, sizeof label, "ctf%d/fits", version);
		int rc = write_one(dir, version, &e);
		check(rc == 0 && reads_back(dir, &e), label, "rc %d (%s), or read back otherwise", rc,
		      rc ? tc_error_last()->message : "");

		spec sp = fitting;
		sp.arr_count = 3;
		refused(tmp, version, "array-longer", &sp, "field arr: 3 elements where its layout holds 2");
		sp.arr_count = 1;
		refused(tmp, version, "array-shorter", &sp, "field arr: 1 elements where its layout holds 2");
		sp = fitting;
		sp.seq_count = 4;
		refused(tmp, version, "sequence-longer", &sp, "field seq: 4 elements where its length field says 3");
		sp.seq_count = 2;
		refused(tmp, version, "sequence-shorter", &sp, "field seq: 2 elements where its length field says 3");
		sp = fitting;
		sp.vs_count[0] = 2;
		refused(tmp, version, "sequence-in-element", &sp, "field pts[].vs: 2 elements where its length field says 1");
		sp = fitting;
		sp.b = 256;
		refused(tmp, version, "unsigned-range", &sp, "field b: 256 does not fit its 8-bit unsigned integer");
		sp = fitting;
		sp.s = -129;
		refused(tmp, version, "signed-range", &sp, "field s: -129 does not fit its 8-bit signed integer");
		sp = fitting;
		sp.member_count = 5;
		refused(tmp, version, "members", &sp, "5 members where its layout has 6");

		/* random messages: refused exactly when one value does not fit */
		uint64_t state = 26 + (uint64_t)version;
		int wrong = 0, written = 0, refusals = 0;
		for (int i = 0; i < 120; i++) {
			uint64_t r = check_random(&state);
			sp = fitting;
			sp.n = r % 5;
			sp.seq_count = r & 0x100 ? (r >> 9) % 5 : sp.n;
			sp.arr_count = r & 0x4000 ? (r >> 15) % 4 : 2;
			sp.b = r & 0x80000 ? (r >> 20) % 300 : 7;
			sp.s = r & 0x10000000 ? (int64_t)((r >> 29) % 300) - 150 : -3;
			sp.m[1] = (r >> 40) % 4;
			sp.vs_count[1] = r & (1ull << 45) ? (r >> 46) % 4 : sp.m[1];
			build(&e, &sp, r & 0xFFFF);
			snprintf(dir, sizeof dir, "%s/random-%d-%d", tmp, version, i);
			rc = write_one(dir, version, &e);
			bool ok = fits(&sp) ? rc == 0 && reads_back(dir, &e) : rc == TC_EINVAL;
			wrong += !ok;
			written += rc == 0;
			refusals += rc != 0;
			if (!ok)
				printf("NOTE ctf%d/random %d: rc %d: %s\n", version, i, rc, rc ? tc_error_last()->message : "");
		}
		snprintf(label, sizeof label, "ctf%d/random", version);
		check(wrong == 0 && written && refusals, label, "%d of 120 wrong (%d written, %d refused)", wrong, written,
		      refusals);
	}
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		return 1;
	return n_fail ? 1 : 0;
}
