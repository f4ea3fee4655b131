/* SPDX-License-Identifier: MIT */
/*
 * decode_all.c - reads every event of a trace through libtracecat's public
 * API and visits every field value, the like-for-like counterpart of
 * `babeltrace2 T -c sink.utils.dummy` (which gets every event, in time
 * order, with every field built) for bench/ctf-mixes.sh.  `tracecat info`
 * asks for no field values at all (tc_input_want_values), so it measures
 * less work than the dummy sink does; this measures the same work.
 * Built on the fly by that script against build/libtracecat.so; not part
 * of tracecat.
 *
 * usage: decode_all [-c] [-j THREADS] PATH
 *
 * Events come from a muxer (time order, as babeltrace2's muxer gives
 * them) decoding on THREADS threads (default: the online cores, as the
 * CLI's -j), every value built (the default of tc_input_want_values) and
 * left alone, as the dummy sink leaves its fields: what is timed.  With
 * -c every value is also visited and folded into a checksum, printed with
 * the event and field counts: a check that the values are all there,
 * whose walk (a third of the time on 4 KiB sequences) is not part of the
 * comparison.  Exit status 0 on success, 1 on a read error, 2 on usage.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracecat.h"

struct tally {
	uint64_t events, fields, sum;
};

/* Folds a string or blob value into T: its length and first byte. */
static void fold_bytes(struct tally *t, const tc_field *f)
{
	t->sum = t->sum * 31 + f->v.str.len + (f->v.str.len ? (uint8_t) f->v.str.ptr[0] : 0);
}

/* Folds F and everything below it into T. */
static void visit(struct tally *t, const tc_field *f)
{
	uint64_t bits;
	size_t i;

	t->fields++;
	/* text arrays and sequences hold a string, not elements */
	if (f->cls->flags & TC_FIELD_TEXT) {
		fold_bytes(t, f);
		return;
	}
	switch (f->cls->kind) {
	case TC_FIELD_FLOAT:
		memcpy(&bits, &f->v.f, sizeof bits);
		t->sum = t->sum * 31 + bits;
		break;
	case TC_FIELD_STRING:
	case TC_FIELD_BLOB:
		fold_bytes(t, f);
		break;
	case TC_FIELD_STRUCT:
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
	case TC_FIELD_VARIANT:
	case TC_FIELD_OPTIONAL:
		for (i = 0; i < f->v.compound.count; i++)
			visit(t, &f->v.compound.items[i]);
		break;
	default: /* integers, enumerations, booleans, bit arrays */
		t->sum = t->sum * 31 + f->v.u;
		break;
	}
}

int main(int argc, char **argv)
{
	long threads = sysconf(_SC_NPROCESSORS_ONLN);
	struct tally t = { 0, 0, 0 };
	const tc_message *msg;
	tc_muxer *mux = NULL;
	tc_input *in = NULL;
	char err[8192];
	int argi = 1, rc, check = 0;

	if (argi < argc && strcmp(argv[argi], "-c") == 0) {
		check = 1;
		argi++;
	}
	if (argi + 1 < argc && strcmp(argv[argi], "-j") == 0) {
		threads = atol(argv[argi + 1]);
		argi += 2;
	}
	if (argc != argi + 1 || threads < 1) {
		fprintf(stderr, "usage: decode_all [-c] [-j THREADS] PATH\n");
		return 2;
	}
	rc = tc_input_open(&in, argv[argi], NULL);
	if (rc >= 0)
		rc = tc_muxer_new(&mux);
	if (rc >= 0)
		rc = tc_muxer_set_threads(mux, (unsigned) threads);
	if (rc >= 0)
		rc = tc_muxer_add_input(mux, in);
	while (rc >= 0 && (rc = tc_muxer_next(mux, &msg)) > 0) {
		if (msg->kind != TC_MSG_EVENT)
			continue;
		t.events++;
		t.sum = t.sum * 31 + msg->cycles;
		if (!check)
			continue;
		if (msg->stream_event_context)
			visit(&t, msg->stream_event_context);
		if (msg->event_context)
			visit(&t, msg->event_context);
		if (msg->payload)
			visit(&t, msg->payload);
	}
	if (rc < 0) {
		tc_error_format(tc_error_last(), err, sizeof err);
		fprintf(stderr, "decode_all: %s\n", err);
	}
	tc_muxer_free(mux);
	tc_input_free(in);
	if (rc < 0)
		return 1;
	if (check)
		printf("%llu events, %llu field values, checksum %016llx\n", (unsigned long long) t.events,
		       (unsigned long long) t.fields, (unsigned long long) t.sum);
	else
		printf("%llu events\n", (unsigned long long) t.events);
	return 0;
}
