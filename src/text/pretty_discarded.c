/* SPDX-License-Identifier: MIT */
/*
 * pretty_discarded.c - the warning babeltrace2's text.pretty sink prints on
 * the error stream for a discarded-events or discarded-packets report
 * (doc/formats/ctf.md §9.11), with the times, trace and stream it names.
 * tc_text_printer_print() (pretty.c) hands such reports here; the warning
 * is built in the printer's buffer (pretty_int.h) once the event lines
 * before it are out, so that the two streams keep babeltrace2's order.
 */
#include "text/pretty_int.h"

void pretty_print_discarded(tc_text_printer *p, const tc_message *m, const char *what)
{
	const tc_stream *s = m->stream;
	const tc_trace *t = pretty_msg_trace(m);
	char tbuf[96];
	size_t tlen;
	char *d;

	/* Event lines printed so far go out first; the warning is then built
	 * in the (now empty) buffer and sent to the error stream. */
	d = pretty_flush_to(p, p->cur);
	p->cur = d;
	p->sink = p->err;

	if (p->o.color_warnings)
		d = W_LIT(p, d, ESC "[33m" ESC "[1mWARNING" ESC "[0m" ESC "[33m: ");
	else
		d = W_LIT(p, d, "WARNING: ");
	if (m->count == 0) {
		d = W_LIT(p, d, "Tracer may have discarded ");
	} else {
		d = W_LIT(p, d, "Tracer discarded ");
		d = w_u64(p, d, m->count);
		d = W_LIT(p, d, " ");
	}
	d = w_str(p, d, what);
	if (m->count != 1)
		d = W_LIT(p, d, "s");
	d = W_LIT(p, d, " ");
	if (m->has_range) {
		d = W_LIT(p, d, "between [");
		tlen = pretty_fmt_wall(p, m->time, false, tbuf);
		d = w_mem(p, d, tbuf, tlen);
		d = W_LIT(p, d, "] and [");
		tlen = pretty_fmt_wall(p, m->end_time, false, tbuf);
		d = w_mem(p, d, tbuf, tlen);
		d = W_LIT(p, d, "]");
	} else {
		d = W_LIT(p, d, "(unknown time range)");
	}
	d = W_LIT(p, d, " in trace \"");
	d = w_str(p, d, t && t->name ? t->name : "");
	d = W_LIT(p, d, "\" ");
	if (t && t->ctf_major == 2) {
		/* babeltrace2 2.1.2 names CTF 2 traces by their UID. */
		if (t->class_uid) {
			d = W_LIT(p, d, "(UID: ");
			d = w_str(p, d, t->class_uid);
			d = W_LIT(p, d, ") ");
		} else {
			d = W_LIT(p, d, "(no UID) ");
		}
	} else if (t && t->has_uuid) {
		size_t i;

		/* 2.1 makes a CTF 1.8 trace's UUID its UID, and says so. */
		d = room(p, d, 48);
		if (p->bt21)
			RAW(d, "(UID: ");
		else
			RAW(d, "(UUID: ");
		for (i = 0; i < 16; i++) {
			if (i == 4 || i == 6 || i == 8 || i == 10)
				*d++ = '-';
			*d++ = tc_fmt_hex_digits[t->uuid[i] >> 4];
			*d++ = tc_fmt_hex_digits[t->uuid[i] & 0xf];
		}
		RAW(d, ") ");
	} else if (p->bt21) {
		d = W_LIT(p, d, "(no UID) ");
	} else {
		d = W_LIT(p, d, "(no UUID) ");
	}
	d = W_LIT(p, d, "within stream \"");
	d = w_str(p, d, s && s->name ? s->name : "(unknown)");
	d = W_LIT(p, d, "\" (stream class ID: ");
	d = w_u64(p, d, s && s->stream_class ? s->stream_class->id : 0);
	d = W_LIT(p, d, ", stream ID: ");
	d = w_u64(p, d, s ? s->id : 0);
	d = W_LIT(p, d, ").");
	if (p->o.color_warnings)
		d = W_LIT(p, d, ESC "[0m");
	d = W_LIT(p, d, "\n");

	p->cur = pretty_flush_to(p, d);
	p->sink = p->out;
}
