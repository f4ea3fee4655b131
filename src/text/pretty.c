/* SPDX-License-Identifier: MIT */
/*
 * pretty.c - babeltrace2 2.0.4's "pretty" text output.
 *
 * This file turns the messages a reader or the muxer hands out (events and
 * discarded-item reports) into exactly the bytes babeltrace2 2.0.4 prints
 * with its text.pretty sink: one line per event on the output stream, one
 * warning line per discarded-events/packets report on the error stream
 * (pretty_discarded.c).  The printer's state and the writers of its output
 * buffer are in pretty_int.h.  The rules, quirks included, are in
 * doc/formats/ctf.md §9; the section numbers (§N) cited below are that
 * page's.
 *
 * The printer is the only place in the library that writes anything, and
 * it only writes to the two FILE objects its caller supplies.  The CLI
 * creates one printer per run, feeds it every message in muxed order, and
 * frees it.
 *
 * Speed is the other goal (the whole tool must be an order of magnitude
 * faster than babeltrace2, which spends a few microseconds per event).
 * Lines are written straight into one large output buffer that goes to
 * fwrite() only when full.  The writers pass a bare cursor (char *d) from
 * one to the next and check for room once per bounded chunk rather than
 * once per byte or per literal.  What depends only on classes (member
 * prefixes, the header from the environment to the event name) is
 * rendered once into plans and copied in blocks; numbers are formatted by
 * hand (format.h); strings are copied with a table-driven escape check;
 * the broken-down wall-clock time is computed once per distinct second.
 *
 * Events of CTF 2 traces (tc_trace.ctf_major 2) are printed as
 * babeltrace2 2.1.2 prints them (§9.13): booleans, bit
 * arrays and maps, BLOBs, optionals, several enumeration labels in braces,
 * and UIDs instead of UUIDs in warnings; everything else is common.
 * CTF 1.8 traces print as the release tc_text_options.compat names: what
 * 2.1 changed for them is switched on `bt21` (doc/formats/ctf.md §9.9,
 * §9.11), the two places where its text differs from 2.0.4's.
 *
 * Output is bit-for-bit what babeltrace2 gives, including its oddities:
 * the first negative time falling back to seconds, the hexadecimal mask of
 * 61 to 63-bit integers, the "-f trace" name glued to the next item, and
 * the delta that is not updated after an event exactly 1 ns before the
 * origin (babeltrace2 keeps its "no previous time" marker in the same
 * variable as the time, so a time of -1 ns reads back as "none").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "text/pretty_int.h"
#include "float_format.h"

#define OUTBUF_SIZE ((size_t)256 * 1024)

#define NS_PER_S UINT64_C(1000000000)

/* babeltrace2's marker for "no previous time" (it stores -1 as unsigned). */
#define NO_TIME UINT64_MAX

/* ------------------------------------------------------------------------
 * Output buffer: its slow paths (the writers are in pretty_int.h)
 */

/* Records the failed write to SINK that set errno (tc_error.sys_errno). */
static void write_failed(tc_text_printer *p, const FILE *sink)
{
	p->failed = tc_fail_write(errno, sink == p->out ? "cannot write the output" : "cannot write the error stream");
}

char *pretty_flush_to(tc_text_printer *p, char *d)
{
	size_t n = (size_t)(d - p->buf);

	p->flushes++;
	if (n && !p->failed && fwrite(p->buf, 1, n, p->sink) != n)
		write_failed(p, p->sink);
	return p->buf;
}


char *pretty_w_mem_slow(tc_text_printer *p, char *d, const char *s, size_t n)
{
	d = pretty_flush_to(p, d);
	if (n >= (size_t)(p->end - p->buf)) {
		/* Larger than the whole buffer: copying it would gain nothing. */
		if (!p->failed && fwrite(s, 1, n, p->sink) != n)
			write_failed(p, p->sink);
		return d;
	}
	memcpy(d, s, n);
	return d + n;
}

/* ------------------------------------------------------------------------
 * Strings (§9.10)
 */

enum { ESC_PLAIN = 0, ESC_STOP = 1, ESC_HEX = 'x' };

/* For each byte: ESC_PLAIN (copied), ESC_STOP (NUL ends the string), or the
 * letter that follows the backslash.  Bytes >= 0x80 are plain: babeltrace2
 * runs in the C locale, where iscntrl() is false for them. */
static const unsigned char esc_tab[256] = {
	[0x00] = ESC_STOP,
	[0x01] = ESC_HEX, [0x02] = ESC_HEX, [0x03] = ESC_HEX, [0x04] = ESC_HEX,
	[0x05] = ESC_HEX, [0x06] = ESC_HEX,
	[0x07] = 'a', [0x08] = 'b', [0x09] = 't', [0x0a] = 'n',
	[0x0b] = 'v', [0x0c] = 'f', [0x0d] = 'r',
	[0x0e] = ESC_HEX, [0x0f] = ESC_HEX, [0x10] = ESC_HEX, [0x11] = ESC_HEX,
	[0x12] = ESC_HEX, [0x13] = ESC_HEX, [0x14] = ESC_HEX, [0x15] = ESC_HEX,
	[0x16] = ESC_HEX, [0x17] = ESC_HEX, [0x18] = ESC_HEX, [0x19] = ESC_HEX,
	[0x1a] = ESC_HEX,
	[0x1b] = 'e',
	[0x1c] = ESC_HEX, [0x1d] = ESC_HEX, [0x1e] = ESC_HEX, [0x1f] = ESC_HEX,
	['"'] = '"', ['\''] = '\'', ['?'] = '?', ['\\'] = '\\',
	[0x7f] = ESC_HEX,
};

/* w_quoted() in general: any length, escapes, flushes on the way. */
static __attribute__((noinline)) char *w_quoted_any(tc_text_printer *p, char *d,
						     const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s, *e = u + n;

	d = room(p, d, 2);      /* both quotes of an empty string */
	*d++ = '"';
	while (u < e) {
		/* The longest run of plain bytes that fits, keeping 5 bytes for
		 * an escape sequence and the closing quote. */
		size_t avail = (size_t)(p->end - d), k = 0, lim;
		unsigned char c, x;

		if (avail < 6) {
			d = pretty_flush_to(p, d);
			continue;
		}
		lim = (size_t)(e - u);
		if (lim > avail - 5)
			lim = avail - 5;
		while (k < lim && esc_tab[u[k]] == ESC_PLAIN)
			k++;
		memcpy(d, u, k);
		d += k;
		u += k;
		if (k == lim)
			continue;
		c = *u++;
		x = esc_tab[c];
		if (x == ESC_STOP)
			break;
		*d++ = '\\';
		if (x == ESC_HEX) {
			d[0] = 'x';
			d[1] = tc_fmt_hex_digits[c >> 4];
			d[2] = tc_fmt_hex_digits[c & 0xf];
			d += 3;
		} else {
			*d++ = (char)x;
		}
	}
	*d++ = '"';
	return d;
}

/* S (N bytes, or none if S is NULL) in double quotes, escaped. */
static inline char *w_quoted(tc_text_printer *p, char *d, const char *s, size_t n)
{
	if (!s) {
		s = "";
		n = 0;
	}
	if (n <= 16 && (size_t)(p->end - d) >= 18) {
		/* Most strings are short words with nothing to escape: one
		 * scan, fixed-size moves, no call. */
		const unsigned char *u = (const unsigned char *)s;
		unsigned char escapes = 0;
		size_t k;

		for (k = 0; k < n; k++)
			escapes |= esc_tab[u[k]];
		if (!escapes) {
			*d = '"';
			d = copy_small(d + 1, s, n);
			*d++ = '"';
			return d;
		}
	}
	return w_quoted_any(p, d, s, n);
}

/* ------------------------------------------------------------------------
 * Times (§9.2, §9.4)
 */

static void warn_negative_time(tc_text_printer *p)
{
	static const char msg[] =
		"[warning] Fallback to [sec.ns] to print negative time value. Use --clock-seconds.\n";

	/* Keep the FILE-level order babeltrace2 has: earlier event lines were
	 * already handed to the output stream when it printed this.  (While a
	 * discarded-item warning is being built, the buffer is bound for the
	 * error stream and must stay behind this line.) */
	if (p->sink == p->out)
		p->cur = pretty_flush_to(p, p->cur);
	if (!p->failed && fwrite(msg, 1, sizeof(msg) - 1, p->err) != sizeof(msg) - 1)
		write_failed(p, p->err);
}

/* Formats "HH:MM:SS" (after "YYYY-MM-DD " with --clock-date) for SEC
 * seconds after the epoch into the cache; false if the C library cannot
 * break the time down. */
static bool wall_second(tc_text_printer *p, uint64_t sec)
{
	struct tm tm, *res;
	time_t t = (time_t)sec;
	char *d = p->tc_text;
	size_t n = 0;

	if (p->tc_valid && p->tc_sec == sec)
		return p->tc_len != 0;
	p->tc_valid = true;
	p->tc_sec = sec;
	p->tc_len = 0;
	res = p->o.clock_gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm);
	if (!res)
		return false;
	if (p->o.clock_date) {
		n = strftime(d, 32, "%Y-%m-%d ", &tm);
		if (n == 0)
			return false;
	}
	if (tm.tm_hour < 0 || tm.tm_hour > 99 || tm.tm_min < 0 || tm.tm_min > 99 ||
	    tm.tm_sec < 0 || tm.tm_sec > 99)
		return false;   /* cannot happen; keeps the fixed layout safe */
	tc_fmt_dec_fixed(d + n, (uint64_t)tm.tm_hour, 2);
	d[n + 2] = ':';
	tc_fmt_dec_fixed(d + n + 3, (uint64_t)tm.tm_min, 2);
	d[n + 5] = ':';
	tc_fmt_dec_fixed(d + n + 6, (uint64_t)tm.tm_sec, 2);
	p->tc_len = n + 8;
	return true;
}

/* The wall-clock form of T into DST (at least 96 bytes); returns its
 * length.  Like babeltrace2, this also moves the delta, and records T as the
 * previous time when UPDATE_LAST. */
size_t pretty_fmt_wall(tc_text_printer *p, tc_time t, bool update_last, char *dst)
{
	/* babeltrace2 splits signed 64-bit nanoseconds with C truncation:
	 * that is the sign and the absolute seconds and nanoseconds.  Taken
	 * from the seconds directly, times beyond its 64-bit range (which it
	 * refuses) come out right too, as in babeltrace 1.5. */
	bool neg = t.sec < 0;
	uint64_t sec = neg ? (uint64_t)0 - (uint64_t)t.sec : (uint64_t)t.sec, nsec = t.nsec;
	if (neg && nsec) {
		sec -= 1;
		nsec = NS_PER_S - nsec;
	}
	/* Its delta is an unsigned 64-bit difference of nanoseconds. */
	uint64_t ns = (uint64_t)t.sec * NS_PER_S + t.nsec;
	size_t n = 0;

	if (p->last_ns != NO_TIME)
		p->delta_ns = ns - p->last_ns;
	if (update_last)
		p->last_ns = ns;

	if (!p->o.clock_seconds) {
		if (neg && !p->neg_warned) {
			p->neg_warned = true;
			warn_negative_time(p);
			goto seconds;
		}
		if (!wall_second(p, sec)) {
			memcpy(dst, "Error", 5);
			return 5;
		}
		/* tc_text has PAD bytes beyond the longest text. */
		n = (size_t)(copy_blocks(dst, p->tc_text, p->tc_len) - dst);
		dst[n++] = '.';
		tc_fmt_dec9(dst + n, (uint32_t)nsec);
		return n + 9;
	}
seconds:
	if (neg)
		dst[n++] = '-';
	n += tc_fmt_u64(dst + n, sec);
	dst[n++] = '.';
	tc_fmt_dec9(dst + n, (uint32_t)nsec);
	return n + 9;
}

/* ------------------------------------------------------------------------
 * Plans
 *
 * Most of a line depends only on classes, not on the event: which members
 * are shown and their ", NAME = " prefixes (names, colours), the header
 * from the trace's environment to the event name.  A plan holds such text
 * rendered once, looked up by the address of the class it was made for
 * (classes outlive the printer), so an event costs a few block copies.
 * The table is open-addressed with linear probing; it holds a few slots
 * per class and stays small.
 */

struct plan_slot {
	uintptr_t key;      /* the class's address; | 1: a structure's plan
	                       with names, | 2: a bit map's (classes are
	                       aligned) */
	void *plan;         /* malloc()ed, freed with the printer */
};

#define PLAN_SLOTS_MIN 64

static size_t plan_slot(const tc_text_printer *p, uintptr_t key)
{
	/* Fibonacci hashing spreads addresses that differ in few bits. */
	size_t i = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & p->slot_mask;

	while (p->slots[i].key && p->slots[i].key != key)
		i = (i + 1) & p->slot_mask;
	return i;
}

/* The plan for KEY, or NULL. */
static inline void *plan_get(const tc_text_printer *p, uintptr_t key)
{
	return p->slots[plan_slot(p, key)].plan;
}

/* Makes PLAN the one for KEY (freeing one it replaces); false, with PLAN
 * freed, if memory ran out. */
static bool plan_set(tc_text_printer *p, uintptr_t key, void *plan)
{
	size_t i = plan_slot(p, key);

	if (p->slots[i].key) {
		free(p->slots[i].plan);
		p->slots[i].plan = plan;
		return true;
	}
	if ((p->slot_used + 1) * 2 > p->slot_mask + 1) {
		/* Keep the table at most half full: probes stay short. */
		size_t old_n = p->slot_mask + 1, j;
		struct plan_slot *old = p->slots;

		p->slots = calloc(old_n * 2, sizeof(*p->slots));
		if (!p->slots) {
			p->slots = old;
			free(plan);
			return false;
		}
		p->slot_mask = old_n * 2 - 1;
		for (j = 0; j < old_n; j++)
			if (old[j].key)
				p->slots[plan_slot(p, old[j].key)] = old[j];
		free(old);
		i = plan_slot(p, key);
	}
	p->slots[i].key = key;
	p->slots[i].plan = plan;
	p->slot_used++;
	return true;
}

/* ------------------------------------------------------------------------
 * Field values (§9.7)
 */

/* "NAME = " for a header item or a scope (bold when coloured). */
static char *w_header_name(tc_text_printer *p, char *d, const char *name)
{
	if (p->color) {
		d = w_str(p, d, p->c_bold);
		d = w_str(p, d, name);
		d = w_str(p, d, p->c_rst);
	} else {
		d = w_str(p, d, name);
	}
	return W_LIT(p, d, " = ");
}

/* An integer's digits by its display base (§9.8), without colour. */
static inline char *w_int_digits(tc_text_printer *p, char *d, const tc_field *f)
{
	const tc_field_class *c = f->cls;
	unsigned len = c->size;
	uint64_t v = f->v.u;

	d = room(p, d, 66);
	switch (c->base) {
	case 16:
		if (len < 64) {
			unsigned rounded = (len + 3) & ~3u;

			/* babeltrace2 computes (1 << 64) - 1 for 61..63 bits,
			 * which x86-64 evaluates to an empty mask. */
			v = rounded >= 64 ? 0 : v & ((UINT64_C(1) << rounded) - 1);
		}
		d[0] = '0';
		d[1] = 'x';
		return d + 2 + tc_fmt_hex_upper(d + 2, v);
	case 8:
		if (c->is_signed && len < 64 && len > 0) {
			unsigned rounded = ((len - 1) / 3 + 1) * 3;

			v &= (UINT64_C(1) << rounded) - 1;
		}
		d[0] = '0';
		return d + 1 + tc_fmt_oct(d + 1, v);
	case 2:
		d[0] = '0';
		d[1] = 'b';
		return d + 2 + tc_fmt_bin(d + 2, v, len);
	default:
		if (c->is_signed)
			return d + tc_fmt_i64(d, f->v.s);
		return d + tc_fmt_u64(d, v);
	}
}

static char *w_int(tc_text_printer *p, char *d, const tc_field *f)
{
	if (!p->color)
		return w_int_digits(p, d, f);
	d = w_str(p, d, p->c_bold);
	d = w_int_digits(p, d, f);
	return w_str(p, d, p->c_rst);
}

static bool range_has(const tc_field *f, const tc_enum_range *r)
{
	if (f->cls->is_signed)
		return (int64_t)r->lo <= f->v.s && f->v.s <= (int64_t)r->hi;
	return r->lo <= f->v.u && f->v.u <= r->hi;
}

/* Whether F's value is in one of label L's ranges. */
static bool label_has(const tc_field *f, const tc_enum_label *l)
{
	size_t j;

	for (j = 0; j < l->range_count; j++)
		if (range_has(f, &l->ranges[j]))
			return true;
	return false;
}

/* A label quoted, bold when coloured. */
static char *w_label(tc_text_printer *p, char *d, const char *label)
{
	if (!label)
		label = "";
	if (p->color)
		d = w_str(p, d, p->c_bold);
	d = w_quoted(p, d, label, strlen(label));
	if (p->color)
		d = w_str(p, d, p->c_rst);
	return d;
}

static char *w_unknown_label(tc_text_printer *p, char *d)
{
	if (p->color)
		d = w_str(p, d, p->c_unknown);
	d = W_LIT(p, d, "<unknown>");
	if (p->color)
		d = w_str(p, d, p->c_rst);
	return d;
}

/* babeltrace2 2.1 (§9.9, §4.5): the matching labels in the order of
 * their print_rank, two or more of them in braces: "( { "A", "B" } : ...". */
static __attribute__((noinline)) char *w_enum_labels_ranked(tc_text_printer *p, char *d, const tc_field *f)
{
	const tc_field_class *c = f->cls;
	size_t local[16], *match = local, n = 0, i, j;

	for (i = 0; i < c->label_count; i++)
		n += label_has(f, &c->labels[i]);
	if (n == 0)
		return w_unknown_label(p, d);
	if (n > sizeof(local) / sizeof(local[0]) && !(match = malloc(n * sizeof(*match)))) {
		p->failed = tc_fail_nomem();
		return d;
	}
	/* Insertion by rank; equal ranks keep the labels' order. */
	for (i = 0, n = 0; i < c->label_count; i++) {
		if (!label_has(f, &c->labels[i]))
			continue;
		for (j = n++; j > 0 && c->labels[match[j - 1]].print_rank > c->labels[i].print_rank; j--)
			match[j] = match[j - 1];
		match[j] = i;
	}
	if (n > 1)
		d = W_LIT(p, d, "{ ");
	for (i = 0; i < n; i++) {
		if (i)
			d = W_LIT(p, d, ", ");
		d = w_label(p, d, c->labels[match[i]].label);
	}
	if (n > 1)
		d = W_LIT(p, d, " }");
	if (match != local)
		free(match);
	return d;
}

/* "( "A", "B" : container = N )": every matching label in declaration
 * order, no braces, as babeltrace2 2.0 prints (§9.9); CTF 2 traces and
 * babeltrace2 2.1's text as w_enum_labels_ranked() says. */
static char *w_enum(tc_text_printer *p, char *d, const tc_field *f)
{
	const tc_field_class *c = f->cls;
	size_t i, shown = 0;

	d = W_LIT(p, d, "( ");
	if (p->ctf2 || p->bt21) {
		d = w_enum_labels_ranked(p, d, f);
	} else {
		for (i = 0; i < c->label_count; i++) {
			const tc_enum_label *l = &c->labels[i];

			if (!label_has(f, l))
				continue;
			if (shown++)
				d = W_LIT(p, d, ", ");
			d = w_label(p, d, l->label);
		}
		if (shown == 0)
			d = w_unknown_label(p, d);
	}
	d = W_LIT(p, d, " : container = ");
	d = w_int(p, d, f);
	return W_LIT(p, d, " )");
}

static char *w_string_value(tc_text_printer *p, char *d, const tc_field *f)
{
	size_t n = f->v.str.ptr ? f->v.str.len : 0;

	if (!p->color)
		return w_quoted(p, d, f->v.str.ptr, n);
	d = w_str(p, d, p->c_bold);
	d = w_quoted(p, d, f->v.str.ptr, n);
	return w_str(p, d, p->c_rst);
}

/* babeltrace2 prints real fields with "%g" (floats widened to double);
 * the caller guarantees TC_FMT_G_MAX bytes of room. */
static inline char *put_g(char *d, double v)
{
	return d + tc_fmt_g(d, v, 6);
}

static inline char *w_g(tc_text_printer *p, char *d, double v)
{
	return put_g(room(p, d, TC_FMT_G_MAX), v);
}

/* A real field, bold when coloured. */
static char *w_float(tc_text_printer *p, char *d, double v)
{
	if (p->color)
		d = w_str(p, d, p->c_bold);
	d = w_g(p, d, v);
	if (p->color)
		d = w_str(p, d, p->c_rst);
	return d;
}

static char *w_field(tc_text_printer *p, char *d, const tc_field *f, bool names);

/* ---- CTF 2 kinds (§9.13) ---- */

/* "true" or "false", bold when coloured. */
static char *w_bool(tc_text_printer *p, char *d, const tc_field *f)
{
	if (p->color)
		d = w_str(p, d, p->c_bold);
	d = f->v.u ? W_LIT(p, d, "true") : W_LIT(p, d, "false");
	if (p->color)
		d = w_str(p, d, p->c_rst);
	return d;
}

/* A bit map's flags sorted by name (strcmp), each with the mask of its
 * bits: a flag is active when any of them is set. */
struct bitmap_plan {
	size_t count;
	struct bitmap_flag {
		uint64_t mask;
		const char *name;
	} flag[];
};

static int cmp_flag(const void *a, const void *b)
{
	return strcmp(((const struct bitmap_flag *)a)->name, ((const struct bitmap_flag *)b)->name);
}

static const struct bitmap_plan *bitmap_plan_of(tc_text_printer *p, const tc_field_class *c)
{
	uintptr_t key = (uintptr_t)c | 2;
	struct bitmap_plan *pl = plan_get(p, key);
	size_t i, r;

	if (pl)
		return pl;
	pl = calloc(1, sizeof(*pl) + c->label_count * sizeof(pl->flag[0]));
	if (!pl) {
		p->failed = tc_fail_nomem();
		return NULL;
	}
	pl->count = c->label_count;
	for (i = 0; i < c->label_count; i++) {
		const tc_enum_label *l = &c->labels[i];

		pl->flag[i].name = l->label ? l->label : "";
		for (r = 0; r < l->range_count; r++) {
			uint64_t lo = l->ranges[r].lo, hi = l->ranges[r].hi;

			if (lo > 63 || lo > hi)
				continue;
			if (hi > 63)
				hi = 63;
			/* bits lo..hi */
			pl->flag[i].mask |= (hi == 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1) &
					    ~((UINT64_C(1) << lo) - 1);
		}
	}
	qsort(pl->flag, pl->count, sizeof(pl->flag[0]), cmp_flag);
	if (!plan_set(p, key, pl)) {
		p->failed = tc_fail_nomem();
		return NULL;
	}
	return pl;
}

/* "0x" and the value in uppercase hexadecimal, unmasked; for a bit map,
 * then " { "A", "B" }" with its active flags, if any. */
static char *w_bit_array(tc_text_printer *p, char *d, const tc_field *f)
{
	const tc_field_class *c = f->cls;
	const struct bitmap_plan *pl;
	size_t i, shown = 0;

	if (p->color)
		d = w_str(p, d, p->c_bold);
	d = room(p, d, 18);
	d[0] = '0';
	d[1] = 'x';
	d += 2 + tc_fmt_hex_upper(d + 2, f->v.u);
	if (p->color)
		d = w_str(p, d, p->c_rst);
	if (!c->label_count || !(pl = bitmap_plan_of(p, c)))
		return d;
	for (i = 0; i < pl->count; i++) {
		if (!(f->v.u & pl->flag[i].mask))
			continue;
		d = shown++ ? W_LIT(p, d, ", ") : W_LIT(p, d, " { ");
		d = w_label(p, d, pl->flag[i].name);
	}
	return shown ? W_LIT(p, d, " }") : d;
}

/* "{ de ad }": each byte in lowercase hexadecimal and a space. */
static char *w_blob(tc_text_printer *p, char *d, const tc_field *f)
{
	const unsigned char *b = (const unsigned char *)f->v.str.ptr;
	size_t n = b ? f->v.str.len : 0, i;

	d = W_LIT(p, d, "{ ");
	for (i = 0; i < n; i++) {
		d = room(p, d, 3);
		d[0] = tc_fmt_hex_digits[b[i] >> 4];
		d[1] = tc_fmt_hex_digits[b[i] & 15];
		d[2] = ' ';
		d += 3;
	}
	return W_LIT(p, d, "}");
}

/* How a member or element value is written: the common leaves without
 * colour directly, everything else through w_field(). */
enum { HOW_FIELD, HOW_UDEC, HOW_SDEC, HOW_INT, HOW_STRING, HOW_FLOAT };

static unsigned value_how(const tc_text_printer *p, const tc_field_class *c)
{
	if (!c || p->color)
		return HOW_FIELD;
	switch (c->kind) {
	case TC_FIELD_INT:
		if (c->base != 10 && c->base != 0)
			return HOW_INT;
		return c->is_signed ? HOW_SDEC : HOW_UDEC;
	case TC_FIELD_STRING:
		return HOW_STRING;
	case TC_FIELD_FLOAT:
		return HOW_FLOAT;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		return (c->flags & TC_FIELD_TEXT) ? HOW_STRING : HOW_FIELD;
	default:
		return HOW_FIELD;
	}
}

/* Room w_value() needs for the values it writes itself: a decimal integer
 * (20 digits and a sign) or a real (TC_FMT_G_MAX). */
#define VALUE_ROOM (TC_FMT_G_MAX > 21 ? TC_FMT_G_MAX : 21)

/* F's value, written as HOW says (HOW_FIELD is always right); the caller
 * guarantees VALUE_ROOM bytes of room. */
static inline char *w_value(tc_text_printer *p, char *d, const tc_field *f,
			    unsigned how, bool names)
{
	switch (how) {
	case HOW_UDEC:
		return d + tc_fmt_u64(d, f->v.u);
	case HOW_SDEC:
		return d + tc_fmt_i64(d, f->v.s);
	case HOW_INT:
		return w_int_digits(p, d, f);
	case HOW_STRING:
		return w_quoted(p, d, f->v.str.ptr, f->v.str.ptr ? f->v.str.len : 0);
	case HOW_FLOAT:
		/* uncoloured (value_how()): no w_float() around it */
		return put_g(d, f->v.f);
	default:
		return w_field(p, d, f, names);
	}
}

/* A structure class's shown members, in order, with their prefixes:
 * "{ NAME = " for the first and ", NAME = " after it ("{ " and ", "
 * without names), colours included. */
struct member_plan {
	const tc_field_class *cls;  /* the declared class: HOW holds for it */
	const char *pre;            /* PAD readable bytes follow */
	size_t pre_len;
	size_t index;               /* in the class's members */
	unsigned how;
};

struct struct_plan {
	size_t count;
	struct member_plan m[];     /* then the prefixes' text */
};

static bool member_hidden(const tc_member *mem)
{
	return mem->cls && (mem->cls->flags & TC_FIELD_HIDDEN);
}

static const char *member_name(const tc_member *mem)
{
	return mem->display_name ? mem->display_name : mem->name ? mem->name : "";
}

static struct struct_plan *make_struct_plan(const tc_text_printer *p,
					    const tc_field_class *c, bool names)
{
	const char *c_on = p->color ? p->c_field : "", *c_off = p->color ? p->c_rst : "";
	size_t shown = 0, text = 0, i;
	struct struct_plan *pl;
	char *t;

	for (i = 0; i < c->member_count; i++) {
		if (member_hidden(&c->members[i]))
			continue;
		shown++;
		text += 2 + PAD;
		if (names)
			text += strlen(c_on) + strlen(member_name(&c->members[i])) +
				strlen(c_off) + 3;
	}
	/* Zeroed, so that the padding copied along is defined. */
	pl = calloc(1, sizeof(*pl) + shown * sizeof(pl->m[0]) + text);
	if (!pl)
		return NULL;
	t = (char *)&pl->m[shown];
	for (i = 0; i < c->member_count; i++) {
		struct member_plan *pm = &pl->m[pl->count];
		const tc_member *mem = &c->members[i];

		if (member_hidden(mem))
			continue;
		pm->cls = mem->cls;
		pm->index = i;
		pm->how = value_how(p, mem->cls);
		pm->pre = t;
		t = stpcpy(t, pl->count ? ", " : "{ ");
		if (names) {
			t = stpcpy(t, c_on);
			t = stpcpy(t, member_name(mem));
			t = stpcpy(t, c_off);
			t = stpcpy(t, " = ");
		}
		pm->pre_len = (size_t)(t - pm->pre);
		t += PAD;
		pl->count++;
	}
	return pl;
}

/* The plan for structure class C, with or without names; NULL, the
 * printer failed, if memory ran out. */
static const struct struct_plan *struct_plan_of(tc_text_printer *p, const tc_field_class *c,
						bool names)
{
	uintptr_t key = (uintptr_t)c | (uintptr_t)names;
	struct struct_plan *pl = plan_get(p, key);

	if (pl)
		return pl;
	pl = make_struct_plan(p, c, names);
	if (!pl || !plan_set(p, key, pl)) {
		p->failed = tc_fail_nomem();
		return NULL;
	}
	return pl;
}

/*
 * Structure F as PL, its class's plan, says.  Which members are shown is
 * decided by their declared classes (hidden ones have a special meaning).
 * A value is written through its own class: the declared one in a decoded
 * tree, for which the plan's shortcut holds; any other through w_field().
 */
static char *w_members(tc_text_printer *p, char *d, const tc_field *f,
		       const struct struct_plan *pl, bool names)
{
	const tc_field *items = f->v.compound.items;
	const struct member_plan *pm = pl->m, *end = pm + pl->count;

	/* A field with fewer items than members shows those it has. */
	if (f->v.compound.count < f->cls->member_count)
		while (end > pm && end[-1].index >= f->v.compound.count)
			end--;
	if (pm == end)
		return W_LIT(p, d, "{ }");
	for (; pm < end; pm++) {
		const tc_field *it = &items[pm->index];

		d = w_padded(p, d, pm->pre, pm->pre_len, VALUE_ROOM);
		d = w_value(p, d, it, it->cls == pm->cls ? pm->how : HOW_FIELD, names);
	}
	return W_LIT(p, d, " }");
}

static char *w_struct(tc_text_printer *p, char *d, const tc_field *f, bool names)
{
	const struct struct_plan *pl = struct_plan_of(p, f->cls, names);

	return pl ? w_members(p, d, f, pl, names) : d;
}

static __attribute__((noinline)) char *w_array(tc_text_printer *p, char *d,
						const tc_field *f, bool names)
{
	const tc_field_class *elem = f->cls->element;
	const tc_field *items = f->v.compound.items;
	size_t n = f->v.compound.count, i;
	unsigned how = value_how(p, elem);

	d = room(p, d, 1);
	*d++ = '[';
	for (i = 0; i < n; i++) {
		d = room(p, d, 28 + VALUE_ROOM);
		if (i)
			RAW(d, ", ");
		else
			*d++ = ' ';
		if (names) {
			*d++ = '[';
			d += tc_fmt_u64(d, i);
			RAW(d, "] = ");
		}
		d = w_value(p, d, &items[i], items[i].cls == elem ? how : HOW_FIELD, names);
	}
	d = room(p, d, 2);
	RAW(d, " ]");
	return d;
}

static char *w_field(tc_text_printer *p, char *d, const tc_field *f, bool names)
{
	const tc_field_class *c = f->cls;

	if (!c)
		return W_LIT(p, d, "<unknown>");
	switch (c->kind) {
	case TC_FIELD_INT:
		return w_int(p, d, f);
	case TC_FIELD_ENUM:
		return w_enum(p, d, f);
	case TC_FIELD_FLOAT:
		return w_float(p, d, f->v.f);
	case TC_FIELD_STRING:
		return w_string_value(p, d, f);
	case TC_FIELD_STRUCT:
		return w_struct(p, d, f, names);
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		if (c->flags & TC_FIELD_TEXT)
			return w_string_value(p, d, f);
		return w_array(p, d, f, names);
	case TC_FIELD_VARIANT:
		d = W_LIT(p, d, "{ ");
		if (f->v.compound.count > 0)
			d = w_field(p, d, &f->v.compound.items[0], names);
		return W_LIT(p, d, " }");
	case TC_FIELD_BOOL:
		return w_bool(p, d, f);
	case TC_FIELD_BIT_ARRAY:
		return w_bit_array(p, d, f);
	case TC_FIELD_BLOB:
		return w_blob(p, d, f);
	case TC_FIELD_OPTIONAL:
		if (f->v.compound.count == 0)
			return W_LIT(p, d, "<none>");
		d = W_LIT(p, d, "{ ");
		d = w_field(p, d, &f->v.compound.items[0], names);
		return W_LIT(p, d, " }");
	}
	return d;
}

/* ------------------------------------------------------------------------
 * Event lines (§9.1, §9.5, §9.6)
 */

static const char *const loglevel_names[15] = {
	"TRACE_EMERG", "TRACE_ALERT", "TRACE_CRIT", "TRACE_ERR",
	"TRACE_WARNING", "TRACE_NOTICE", "TRACE_INFO", "TRACE_DEBUG_SYSTEM",
	"TRACE_DEBUG_PROGRAM", "TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE",
	"TRACE_DEBUG_UNIT", "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",
	"TRACE_DEBUG",
};

struct env_fields {
	const tc_env_entry *hostname, *domain, *procname, *vpid;
};

/* A repeated key keeps its last value, as in the metadata.  Runs once
 * per event class: the header plan keeps what it gives. */
static void find_env(const tc_trace *t, struct env_fields *e)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	if (!t)
		return;
	for (i = 0; i < t->env_count; i++) {
		const tc_env_entry *x = &t->env[i];
		const char *k = x->key;

		if (!k)
			continue;
		if (strcmp(k, "hostname") == 0)
			e->hostname = x;
		else if (strcmp(k, "domain") == 0)
			e->domain = x;
		else if (strcmp(k, "procname") == 0)
			e->procname = x;
		else if (strcmp(k, "vpid") == 0)
			e->vpid = x;
	}
	/* babeltrace2 reads hostname, domain and procname as strings and vpid
	 * as an integer; an entry of the other type is left out. */
	if (e->hostname && (e->hostname->is_int || !e->hostname->str_value))
		e->hostname = NULL;
	if (e->domain && (e->domain->is_int || !e->domain->str_value))
		e->domain = NULL;
	if (e->procname && (e->procname->is_int || !e->procname->str_value))
		e->procname = NULL;
	if (e->vpid && !e->vpid->is_int)
		e->vpid = NULL;
}

/* Starts one item of the "HOST:PROC:(VPID)" group: ", " after a named
 * header item, ":" between bare items, nothing before the first (§9.5) nor,
 * as in babeltrace2, between items shown with their names on a line that
 * starts without a time. */
static char *w_env_sep(tc_text_printer *p, char *d, bool start_line, bool dom)
{
	if (!start_line)
		return W_LIT(p, d, ", ");
	if (dom && !p->o.names_header)
		return W_LIT(p, d, ":");
	return d;
}

/* "+S.NNNNNNNNN", or the cycles form; D has room for 40 bytes. */
static char *w_delta(tc_text_printer *p, char *d)
{
	*d++ = '+';
	if (p->o.clock_cycles) {
		if (p->delta_cyc == NO_TIME) {
			memcpy(d, "????????????", 12);
			return d + 12;
		}
		return d + tc_fmt_u64_zpad(d, p->delta_cyc, 12);
	}
	if (p->delta_ns == NO_TIME) {
		memcpy(d, "?.?????????", 11);
		return d + 11;
	}
	d += tc_fmt_u64(d, p->delta_ns / NS_PER_S);
	*d++ = '.';
	tc_fmt_dec9(d, (uint32_t)(p->delta_ns % NS_PER_S));
	return d + 9;
}

/* What follows the time and delta up to the scopes (§9.5): the trace name,
 * environment, log level, EMF URI and event name.  START_LINE: nothing of
 * the line is written yet (no named time before). */
static char *w_header_rest(tc_text_printer *p, char *d, const tc_event_class *ec,
			   const tc_trace *trace, bool start_line)
{
	const tc_text_options *o = &p->o;
	bool names = o->names_header;
	bool dom = false;

	if (o->field_trace) {
		/* Quirk (§9.5): no separator after the bare trace name. */
		if (!start_line)
			d = W_LIT(p, d, ", ");
		if (names)
			d = w_header_name(p, d, "trace");
		d = w_str(p, d, trace && trace->name ? trace->name : "");
		if (names)
			d = W_LIT(p, d, ", ");
	}
	if (o->field_hostname || o->field_domain || o->field_procname || o->field_vpid) {
		struct env_fields e;

		find_env(trace, &e);
		if (o->field_hostname && e.hostname) {
			if (!start_line)
				d = W_LIT(p, d, ", ");
			if (names)
				d = w_header_name(p, d, "trace:hostname");
			d = w_str(p, d, e.hostname->str_value);
			dom = true;
		}
		if (o->field_domain && e.domain) {
			d = w_env_sep(p, d, start_line, dom);
			if (names)
				d = w_header_name(p, d, "trace:domain");
			d = w_str(p, d, e.domain->str_value);
			dom = true;
		}
		if (o->field_procname && e.procname) {
			d = w_env_sep(p, d, start_line, dom);
			if (names)
				d = w_header_name(p, d, "trace:procname");
			d = w_str(p, d, e.procname->str_value);
			dom = true;
		}
		if (o->field_vpid && e.vpid) {
			d = w_env_sep(p, d, start_line, dom);
			if (names)
				d = w_header_name(p, d, "trace:vpid");
			d = room(p, d, 23);
			*d++ = '(';
			d += tc_fmt_i64(d, e.vpid->int_value);
			*d++ = ')';
			dom = true;
		}
	}
	if (o->field_loglevel && ec && ec->loglevel >= 0 && ec->loglevel <= 14) {
		d = w_env_sep(p, d, start_line, dom);
		if (names)
			d = w_header_name(p, d, "loglevel");
		d = w_str(p, d, loglevel_names[ec->loglevel]);
		d = W_LIT(p, d, " (");
		d = w_i64(p, d, ec->loglevel);
		d = W_LIT(p, d, ")");
		dom = true;
	}
	if (o->field_emf && ec && ec->emf_uri) {
		d = w_env_sep(p, d, start_line, dom);
		if (names)
			d = w_header_name(p, d, "model.emf.uri");
		d = w_str(p, d, ec->emf_uri);
		dom = true;
	}
	/* field_callsite: accepted by babeltrace2 2.0.4, prints nothing. */
	if (dom && !names)
		d = W_LIT(p, d, " ");
	if (!start_line)
		d = W_LIT(p, d, ", ");

	if (names)
		d = w_header_name(p, d, "name");
	if (p->color)
		d = w_str(p, d, ec && ec->name ? p->c_ev : p->c_unknown);
	d = w_str(p, d, ec && ec->name ? ec->name : "<unknown>");
	if (p->color)
		d = w_str(p, d, p->c_rst);
	if (names)
		return W_LIT(p, d, ", ");
	return W_LIT(p, d, ": ");
}

/* The scopes an event line shows, in order (§9.6). */
enum { SCOPES = 4 };

/* An event class's plan: w_header_rest() as rendered for it, which depends
 * on nothing else but the trace (the environment) and START_LINE, checked
 * on use; and its scopes' structure plans, for the classes they were last
 * made for (a scope's class is the same for every event of a class, but
 * the message says which it is). */
struct event_plan {
	const tc_trace *trace;
	bool start_line;
	const tc_field_class *scope_cls[SCOPES];
	const struct struct_plan *scope_plan[SCOPES];
	size_t len;
	char text[];        /* LEN bytes, then PAD */
};

/* The trace of M's stream, or NULL. */
const tc_trace *pretty_msg_trace(const tc_message *m)
{
	const tc_stream *s = m->stream;

	if (!s)
		return NULL;
	return s->trace ? s->trace : s->stream_class ? s->stream_class->trace : NULL;
}

/* The line up to the scopes, for message M of TRACE; *EP is the event
 * class's plan, or NULL. */
static char *w_header(tc_text_printer *p, char *d, const tc_message *m, const tc_trace *trace,
		      const char *tbuf, size_t tlen, struct event_plan **ep)
{
	const tc_text_options *o = &p->o;
	const tc_event_class *ec = m->event_class;
	bool names = o->names_header;
	bool start_line = true;
	struct event_plan *plan;
	unsigned long flushes;
	char *start;

	if (m->has_time) {
		if (!names && !p->color) {
			/* The common case in one go; tbuf has PAD bytes to
			 * spare beyond any time. */
			d = room(p, d, 96 + 48);
			*d++ = '[';
			d = copy_blocks(d, tbuf, tlen);
			RAW(d, "] ");
			if (!o->no_delta) {
				*d++ = '(';
				d = w_delta(p, d);
				RAW(d, ") ");
			}
		} else {
			if (names)
				d = w_header_name(p, d, "timestamp");
			else
				d = W_LIT(p, d, "[");
			if (p->color)
				d = w_str(p, d, p->c_ts);
			d = w_mem(p, d, tbuf, tlen);
			if (p->color)
				d = w_str(p, d, p->c_rst);
			if (!names)
				d = W_LIT(p, d, "] ");
			if (!o->no_delta) {
				if (names) {
					d = W_LIT(p, d, ", ");
					d = w_header_name(p, d, "delta");
				} else {
					d = W_LIT(p, d, "(");
				}
				d = room(p, d, 40);
				d = w_delta(p, d);
				if (!names)
					d = W_LIT(p, d, ") ");
			}
		}
		start_line = !names;
	}

	*ep = NULL;
	if (!ec)
		return w_header_rest(p, d, ec, trace, start_line);
	/* Keyed by the event class's own address, which no field class
	 * shares. */
	plan = plan_get(p, (uintptr_t)ec);
	if (plan && plan->trace == trace && plan->start_line == start_line) {
		*ep = plan;
		return w_padded(p, d, plan->text, plan->len, 0);
	}
	start = d;
	flushes = p->flushes;
	d = w_header_rest(p, d, ec, trace, start_line);
	if (p->flushes == flushes) {
		/* Rendered in one piece: keep it.  Without memory it is
		 * rendered again next time, to the same effect. */
		size_t len = (size_t)(d - start);

		plan = calloc(1, sizeof(*plan) + len + PAD);
		if (plan) {
			plan->trace = trace;
			plan->start_line = start_line;
			plan->len = len;
			memcpy(plan->text, start, len);
			if (plan_set(p, (uintptr_t)ec, plan))
				*ep = plan;
		}
	}
	return d;
}

static void print_event(tc_text_printer *p, const tc_message *m)
{
	static const char *const scope_names[SCOPES] = {
		"stream.packet.context", "stream.event.context", "event.context", "event.fields",
	};
	const tc_text_options *o = &p->o;
	const tc_field *scopes[SCOPES] = {
		m->packet_context, m->stream_event_context, m->event_context, m->payload,
	};
	bool start_line = true;
	struct event_plan *ep;
	char tbuf[96];
	size_t tlen = 0, k;
	char *d;
	const tc_trace *tr = pretty_msg_trace(m);

	p->ctf2 = tr && tr->ctf_major == 2;
	/* The time first: formatting it may print the negative-time warning,
	 * which must not land in the middle of this line. */
	if (m->has_time) {
		if (o->clock_cycles) {
			tlen = tc_fmt_u64_zpad(tbuf, m->cycles, 20);
			if (p->last_cyc != NO_TIME)
				p->delta_cyc = m->cycles - p->last_cyc;
			p->last_cyc = m->cycles;
		} else {
			tlen = pretty_fmt_wall(p, m->time, true, tbuf);
		}
	}

	d = w_header(p, p->cur, m, tr, tbuf, tlen, &ep);
	for (k = 0; k < SCOPES; k++) {
		const tc_field *f = scopes[k];
		bool names = k == SCOPES - 1 ? o->names_payload : o->names_context;

		if (!f)
			continue;
		if (!start_line)
			d = W_LIT(p, d, ", ");
		start_line = false;
		if (o->names_scope)
			d = w_header_name(p, d, scope_names[k]);
		if (!ep || !f->cls || f->cls->kind != TC_FIELD_STRUCT) {
			d = w_field(p, d, f, names);
			continue;
		}
		/* The structure plan from the event plan: no lookup. */
		if (ep->scope_cls[k] != f->cls) {
			const struct struct_plan *pl = struct_plan_of(p, f->cls, names);

			if (!pl)
				break;
			ep->scope_cls[k] = f->cls;
			ep->scope_plan[k] = pl;
		}
		d = w_members(p, d, f, ep->scope_plan[k], names);
	}
	d = room(p, d, 1);
	*d++ = '\n';
	p->cur = d;
}

/* ------------------------------------------------------------------------
 * Public interface
 */

void tc_text_options_default(tc_text_options *opts)
{
	if (!opts)
		return;
	memset(opts, 0, sizeof(*opts));
	opts->names_payload = true;
	opts->names_context = true;
	opts->field_hostname = true;
	opts->field_procname = true;
	opts->field_vpid = true;
	opts->compat = tc_compat_default();
}

int tc_text_printer_new(tc_text_printer **out, const tc_text_options *opts,
			FILE *out_stream, FILE *err_stream)
{
	tc_text_printer *p;

	if (!out)
		return TC_EINVAL;
	*out = NULL;
	if (!out_stream || !err_stream)
		return TC_EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return tc_fail_nomem();
	p->buf = malloc(OUTBUF_SIZE);
	if (!p->buf) {
		free(p);
		return tc_fail_nomem();
	}
	p->slots = calloc(PLAN_SLOTS_MIN, sizeof(*p->slots));
	if (!p->slots) {
		free(p->buf);
		free(p);
		return tc_fail_nomem();
	}
	p->slot_mask = PLAN_SLOTS_MIN - 1;
	p->end = p->buf + OUTBUF_SIZE;
	p->cur = p->buf;
	if (opts)
		p->o = *opts;
	else
		tc_text_options_default(&p->o);
	p->out = out_stream;
	p->err = err_stream;
	p->sink = out_stream;
	p->last_ns = p->delta_ns = NO_TIME;
	p->last_cyc = p->delta_cyc = NO_TIME;
	p->bt21 = p->o.compat.babeltrace2 >= TC_RELEASE(2, 1);

	p->color = p->o.color;
	if (p->color) {
		/* babeltrace2 renders "bright" colours as bold + the normal
		 * colour unless this variable is "0". */
		const char *b = getenv("BABELTRACE_TERM_COLOR_BRIGHT_MEANS_BOLD");
		bool bold = !(b && strcmp(b, "0") == 0);

		p->c_ts = bold ? ESC "[1m" ESC "[1m" ESC "[33m" : ESC "[1m" ESC "[93m";
		p->c_ev = bold ? ESC "[1m" ESC "[1m" ESC "[35m" : ESC "[1m" ESC "[95m";
		p->c_unknown = bold ? ESC "[1m" ESC "[1m" ESC "[31m" : ESC "[1m" ESC "[91m";
		p->c_bold = ESC "[1m";
		p->c_field = ESC "[36m";
		p->c_rst = ESC "[0m";
	} else {
		p->c_ts = p->c_ev = p->c_unknown = p->c_bold = p->c_field = p->c_rst = "";
	}
	/* localtime_r() need not read TZ by itself. */
	if (!p->o.clock_gmt)
		tzset();
	*out = p;
	return TC_OK;
}

int tc_text_printer_print(tc_text_printer *p, const tc_message *msg)
{
	if (!p || !msg)
		return TC_EINVAL;
	switch (msg->kind) {
	case TC_MSG_EVENT:
		print_event(p, msg);
		break;
	case TC_MSG_DISCARDED_EVENTS:
		pretty_print_discarded(p, msg, "event");
		break;
	case TC_MSG_DISCARDED_PACKETS:
		pretty_print_discarded(p, msg, "packet");
		break;
	default:
		return TC_EINVAL;
	}
	return p->failed;
}

int tc_text_printer_flush(tc_text_printer *p)
{
	if (!p)
		return TC_EINVAL;
	p->cur = pretty_flush_to(p, p->cur);
	if (!p->failed && fflush(p->out) != 0)
		write_failed(p, p->out);
	if (!p->failed && fflush(p->err) != 0)
		write_failed(p, p->err);
	return p->failed;
}

void tc_text_printer_free(tc_text_printer *p)
{
	size_t i;

	if (!p)
		return;
	p->cur = pretty_flush_to(p, p->cur);
	fflush(p->out);
	fflush(p->err);
	for (i = 0; i <= p->slot_mask; i++)
		free(p->slots[i].plan);
	free(p->slots);
	free(p->buf);
	free(p);
}
