/* SPDX-License-Identifier: MIT */
/*
 * ahead.c - the text printer's work done on the decoding threads: the
 * "%g" text of real-number fields (babeltrace2's, §9.7 of
 * doc/formats/ctf.md), written for each message of a batch by the worker
 * that decoded it (core/prefetch.c), so that the thread that merges and
 * prints copies it instead of converting.
 *
 * Why: with two threads the printing thread is the busier one, and a real
 * costs it about five times a decimal integer; moving the conversion to
 * the decoder, which waits part of the time, keeps a trace of doubles
 * and floats printing nearly as fast as one without them
 * (bench/ctf-float.sh).
 *
 * A message's texts are a run of tc_ahead_real records in the order the
 * printer meets the fields (the contexts, then the payload, members and
 * elements in order); the printer (pretty.c) takes the next record when
 * its field is the one it is printing and converts the value itself
 * otherwise, so an order that differed would cost time, never text.
 * Events whose classes hold no real cost one look-up in a small cache.
 * The records of one batch are bounded (REALS_PER_MESSAGE a message on
 * average); reals past that are converted by the printer.
 */
#include <stdlib.h>
#include <string.h>

#include "ahead.h"
#include "float_format.h"

/* Bound on a batch's records, per message: a batch holds at most a few
 * hundred messages (prefetch.c), so a slot's records stay within some
 * tens of KiB whatever the fields. */
#define REALS_PER_MESSAGE 8

/* Event classes seen, and whether theirs hold a real: direct-mapped. */
#define SEEN_SLOTS 64

struct ahead_state {
	tc_ahead_real *reals;
	size_t cap;
	struct {
		const tc_event_class *cls;
		bool has_real;
	} seen[SEEN_SLOTS];
};

static bool class_has_real(const tc_field_class *c)
{
	if (!c)
		return false;
	switch (c->kind) {
	case TC_FIELD_FLOAT:
		return true;
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT:
		for (size_t i = 0; i < c->member_count; i++)
			if (class_has_real(c->members[i].cls))
				return true;
		return false;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
	case TC_FIELD_OPTIONAL:
		return !(c->flags & TC_FIELD_TEXT) && class_has_real(c->element);
	default:
		return false;
	}
}

/* Whether M's fields may hold a real, from its event class when known. */
static bool message_has_real(struct ahead_state *st, const tc_message *m)
{
	const tc_field *const roots[] = { m->stream_event_context, m->event_context, m->payload };
	size_t slot = ((uintptr_t)m->event_class >> 4) % SEEN_SLOTS;
	bool has = false;

	if (m->event_class && st->seen[slot].cls == m->event_class)
		return st->seen[slot].has_real;
	for (size_t i = 0; i < sizeof roots / sizeof roots[0] && !has; i++)
		has = roots[i] && class_has_real(roots[i]->cls);
	if (m->event_class) {
		st->seen[slot].cls = m->event_class;
		st->seen[slot].has_real = has;
	}
	return has;
}

/* Appends F's reals to ST's records from *N on, below LIMIT: false once
 * LIMIT is reached. */
static bool add_reals(struct ahead_state *st, size_t *n, size_t limit, const tc_field *f)
{
	const tc_field_class *c = f->cls;

	if (!c)
		return true;
	switch (c->kind) {
	case TC_FIELD_FLOAT: {
		char text[TC_FMT_G_MAX];
		size_t len = tc_fmt_g(text, f->v.f, 6);
		tc_ahead_real *r;

		if (*n == limit)
			return false;
		r = &st->reals[(*n)++];
		r->field = f;
		memcpy(r->text, text, sizeof r->text);
		r->len = (uint8_t)len;
		return true;
	}
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		if ((c->flags & TC_FIELD_TEXT) || !class_has_real(c->element))
			return true;
		/* fall through */
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT:
	case TC_FIELD_OPTIONAL:
		for (size_t i = 0; i < f->v.compound.count; i++)
			if (!add_reals(st, n, limit, &f->v.compound.items[i]))
				return false;
		return true;
	default:
		return true;
	}
}

static void prepare(void *ctx, tc_message *msgs, size_t count, void **state)
{
	struct ahead_state *st = *state;
	size_t want = count * REALS_PER_MESSAGE, n = 0;

	(void)ctx;
	if (!st && !(st = *state = calloc(1, sizeof *st)))
		return;
	if (st->cap < want) {
		tc_ahead_real *grown = realloc(st->reals, want * sizeof *grown);

		if (!grown)
			return;
		st->reals = grown;
		st->cap = want;
	}
	/* Each message's run ends with a record of no field: a message
	 * takes one more record than its reals. */
	for (size_t i = 0; i < count; i++) {
		tc_message *m = &msgs[i];
		const tc_field *const roots[] = { m->stream_event_context, m->event_context, m->payload };
		size_t first = n;
		bool room = true;

		if (m->kind != TC_MSG_EVENT || !message_has_real(st, m))
			continue;
		for (size_t k = 0; k < sizeof roots / sizeof roots[0] && room; k++)
			room = !roots[k] || add_reals(st, &n, want - 1, roots[k]);
		if (n == first)
			continue;
		st->reals[n++].field = NULL;
		m->prepared = &st->reals[first];
		if (!room)
			break;
	}
}

static void free_state(void *state)
{
	struct ahead_state *st = state;

	free(st->reals);
	free(st);
}

const tc_prepare tc_ahead_prepare = { prepare, free_state, NULL };
