/* SPDX-License-Identifier: MIT */
/*
 * pretty_int.h - what the files of the babeltrace2 "pretty" text printer
 * share: the printer's state and the writers of its output buffer.
 * pretty.c owns the printer and prints events; pretty_discarded.c prints
 * the warnings of discarded-item reports.  Private to src/text/pretty*.c.
 *
 * Writers take the cursor D and return the new one.  room() guarantees N
 * bytes (N small, far below the buffer size) after the cursor; after it the
 * caller writes without further checks.  The writers are inline here, as
 * they were when one file held them, so that each line still costs a few
 * block copies and no calls.
 */
#ifndef TC_TEXT_PRETTY_INT_H
#define TC_TEXT_PRETTY_INT_H

#include <stdio.h>
#include <string.h>

#include "tracecat.h"
#include "core/core.h"
#include "format.h"

#define ESC "\x1b"

struct plan_slot;

struct tc_text_printer {
	tc_text_options o;
	FILE *out;
	FILE *err;
	FILE *sink;         /* where buffered bytes go: out, or err while a
	                       discarded-item warning is being built */
	char *buf, *end;    /* the output buffer */
	char *cur;          /* end of the buffered bytes between calls */
	unsigned long flushes;  /* buffer flushes so far: text rendered in
	                           place is whole if this did not change */
	int failed;         /* sticky: TC_EIO once a write came up short
	                       (recorded with the system's reason),
	                       TC_ENOMEM once a plan could not be made */

	bool ctf2;          /* the event being printed is of a CTF 2 trace */
	/* babeltrace2 2.1's text for CTF 1.8 too (o.compat.babeltrace2 >=
	 * 2.1): several enumeration labels in braces in map order (§9.9),
	 * warnings naming the trace's UUID as its "UID" (§9.11) */
	bool bt21;
	bool neg_warned;    /* the once-per-run negative time warning (§9.3) */
	uint64_t last_ns, delta_ns;    /* NO_TIME until known (§9.4) */
	uint64_t last_cyc, delta_cyc;

	/* Wall-clock text ("[YYYY-MM-DD ]HH:MM:SS") of the last second seen:
	 * at most 39 bytes, so PAD bytes are always left to spare. */
	bool tc_valid;
	uint64_t tc_sec;
	size_t tc_len;
	char tc_text[64];

	/* Colour sequences (§9.12); unused when colours are off. */
	bool color;
	const char *c_ts, *c_ev, *c_unknown, *c_bold, *c_field, *c_rst;

	/* Plans (pretty.c), by the address of what they are made for. */
	struct plan_slot *slots;
	size_t slot_mask, slot_used;
};

/* Sends the bytes buffered up to D to the sink; returns the buffer's
 * start (pretty.c). */
char *pretty_flush_to(tc_text_printer *p, char *d);
/* w_mem() when the buffer lacks room for N bytes (pretty.c). */
char *pretty_w_mem_slow(tc_text_printer *p, char *d, const char *s, size_t n);

static inline char *room(tc_text_printer *p, char *d, size_t n)
{
	if ((size_t)(p->end - d) < n)
		d = pretty_flush_to(p, d);
	return d;
}

#define RAW(d, lit) (memcpy((d), (lit), sizeof(lit) - 1), (d) += sizeof(lit) - 1)

static inline char *w_mem(tc_text_printer *p, char *d, const char *s, size_t n)
{
	if ((size_t)(p->end - d) >= n) {
		memcpy(d, s, n);
		return d + n;
	}
	return pretty_w_mem_slow(p, d, s, n);
}

#define W_LIT(p, d, lit) w_mem((p), (d), (lit), sizeof(lit) - 1)

/* Copies N <= 16 bytes with fixed-size moves (overlapping when N is not a
 * power of two); the caller guarantees 16 bytes of room. */
static inline char *copy_small(char *d, const char *s, size_t n)
{
	if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
	return d + n;
}

/*
 * Copies N bytes in whole 16-byte blocks, at least one: a vector move or
 * two instead of a call to memcpy() for the short pieces a line is made
 * of.  Up to 16 bytes past S + N are read, and written past D + N, where
 * the next piece overwrites them: the caller guarantees both (room, PAD).
 */
#define PAD 16

static inline char *copy_blocks(char *d, const char *s, size_t n)
{
	size_t k;

	memcpy(d, s, 16);
	for (k = 16; k < n; k += 16)
		memcpy(d + k, s + k, 16);
	return d + n;
}

/* Longest text w_padded() copies in blocks; anything longer (a name of
 * kilobytes) goes through w_mem(), which can split it across flushes. */
#define PADDED_MAX 4096

/* Text of N bytes followed by PAD readable bytes (a prefix or header kept
 * in a plan), then room for THEN more bytes for the caller. */
static inline char *w_padded(tc_text_printer *p, char *d, const char *s, size_t n, size_t then)
{
	if (n > PADDED_MAX)
		return room(p, w_mem(p, d, s, n), then);
	d = room(p, d, n + PAD + then);
	return copy_blocks(d, s, n);
}

/* A NUL-terminated string: names, labels, environment values.  Most are
 * short enough for copy_small(), which saves a memcpy() call per name. */
static inline char *w_str(tc_text_printer *p, char *d, const char *s)
{
	size_t n = strlen(s);

	if (n <= 16 && p->end - d >= 16)
		return copy_small(d, s, n);
	return w_mem(p, d, s, n);
}

static inline char *w_u64(tc_text_printer *p, char *d, uint64_t v)
{
	d = room(p, d, 20);
	return d + tc_fmt_u64(d, v);
}

static inline char *w_i64(tc_text_printer *p, char *d, int64_t v)
{
	d = room(p, d, 21);
	return d + tc_fmt_i64(d, v);
}

/* The trace of M's stream, or NULL (pretty.c). */
const tc_trace *pretty_msg_trace(const tc_message *m);
/* The wall-clock form of T into DST (at least 96 bytes); returns its
 * length.  Moves the delta, and records T as the previous time when
 * UPDATE_LAST (pretty.c). */
size_t pretty_fmt_wall(tc_text_printer *p, tc_time t, bool update_last, char *dst);
/* The warning line of a discarded-events or discarded-packets report M
 * (WHAT: "event" or "packet"), to the error stream (pretty_discarded.c). */
void pretty_print_discarded(tc_text_printer *p, const tc_message *m, const char *what);

#endif /* TC_TEXT_PRETTY_INT_H */
