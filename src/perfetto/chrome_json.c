/* SPDX-License-Identifier: MIT */
/*
 * chrome_json.c - the timeline as Chrome's Trace Event Format (the JSON
 * object form, {"traceEvents": [...]}), which the Perfetto UI and Chrome
 * DevTools load.  Written as the events come, one per line:
 *
 *   - function calls: one "X" event each, written at its exit (the
 *     arguments as args.args and the return value as args.retval, when
 *     recorded), "B" for those still open at the end; a call whose entry
 *     was not recorded begins just before its thread's first event
 *     (timeline.h);
 *   - every other event: a thread-scoped instant "i" with its fields as
 *     args (numbers as JSON numbers, hexadecimal ones as "0x..." strings,
 *     structures as objects, arrays as arrays);
 *   - "M" events name processes and threads as their names become known:
 *     from the vtid/procname contexts, and for kernel data from the
 *     saved cmdlines and the comm fields of the scheduler's events.
 *     Kernel tasks whose process is not known are a process of their own.
 *
 * Times ("ts", "dur") are microseconds with three decimals: the trace
 * clock's nanoseconds, exact in any reader's doubles below 2^53 ns (104
 * days); a trace starting beyond that is shifted to its first second,
 * with a warning.  Strings are escaped whatever their bytes: control
 * characters as \uXXXX, bytes that are not UTF-8 as U+FFFD.
 */
#include "perfetto/timeline.h"
#include "text/float_format.h"
#include "text/format.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_LIMIT (INT64_C(1) << 53)
#define STREAM_TID_BASE 0x40000000   /* ids of tracks that are streams */

typedef struct js_writer {
	bool any;                  /* an event was written: commas from now on */
	bool started;
	int64_t base;              /* subtracted from every time */
	uint64_t next_stream_id;
	/* the milliseconds of the last time written, and their digits */
	uint64_t ms;
	uint8_t ms_text[20];
	unsigned ms_len;
} js_writer;

/* ---- text ---- */

#define PUT(o, lit) pb_raw((o), lit, sizeof lit - 1)

/* V in decimal, with a minus sign when NEGATIVE; FRAC: the last three
 * digits after a decimal point (at least "0.000"). */
static void put_number(pb_buf *o, uint64_t v, bool negative, bool frac)
{
	if (!pb_room(o, 24))
		return;
	unsigned n = tc_fmt_dec_len(v);
	if (frac && n < 4)
		n = 4;
	uint8_t *p = o->data + o->len;
	if (negative)
		*p++ = '-';
	if (frac) {
		tc_fmt_dec_fixed((char *)p + n - 2, v % 1000, 3);
		p[n - 3] = '.';
		tc_fmt_dec_fixed((char *)p, v / 1000, n - 3);
		p += n + 1;
	} else {
		tc_fmt_dec_fixed((char *)p, v, n);
		p += n;
	}
	o->len = (size_t)(p - o->data);
}

static void put_u64(pb_buf *o, uint64_t u)
{
	put_number(o, u, false, false);
}

static void put_i64(pb_buf *o, int64_t v)
{
	put_number(o, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0, false);
}

/* NS nanoseconds as microseconds with three decimals.  Times of the
 * same millisecond, thousands of events in a row, share their leading
 * digits: those are written once and copied. */
static void put_us(pb_buf *o, js_writer *w, int64_t ns)
{
	if (ns < 0) {
		put_number(o, 0 - (uint64_t)ns, true, true);
		return;
	}
	uint64_t ms = (uint64_t)ns / 1000000;
	unsigned rest = (unsigned)((uint64_t)ns % 1000000), us = rest / 1000;
	if (!pb_room(o, sizeof w->ms_text + 8))
		return;
	uint8_t *p = o->data + o->len;
	if (ms) {
		if (ms != w->ms) {
			w->ms = ms;
			w->ms_len = tc_fmt_dec_len(ms);
			tc_fmt_dec_fixed((char *)w->ms_text, ms, w->ms_len);
		}
		/* a whole fixed-size copy: the length says what counts */
		memcpy(p, w->ms_text, sizeof w->ms_text);
		p += w->ms_len;
		tc_fmt_dec_fixed((char *)p, us, 3);
		p += 3;
	} else {
		/* durations, mostly */
		unsigned n = tc_fmt_dec_len(us);
		tc_fmt_dec_fixed((char *)p, us, n);
		p += n;
	}
	*p = '.';
	tc_fmt_dec_fixed((char *)p + 1, rest % 1000, 3);
	o->len = (size_t)(p + 4 - o->data);
}

/* Whether byte C stands for itself in a JSON string. */
static inline bool is_plain(char c)
{
	return (unsigned char)c >= 0x20 && (unsigned char)c < 0x80 && c != '"' && c != '\\';
}

/* Whether the eight bytes of X all stand for themselves (is_plain): no
 * byte below 0x20 or from 0x80 up, no quote, no backslash.  The tests
 * for a byte below N and for a zero byte of "Bit Twiddling Hacks"
 * (Sean Eron Anderson, "Determine if a word has a byte less than n"). */
static inline bool is_plain8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
	uint64_t quote = x ^ ones * '"', backslash = x ^ ones * '\\';
	return !((((x - ones * 0x20) & ~x) | ((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | x) & highs);
}

/* S as a JSON string, in one pass straight into the buffer, eight plain
 * bytes at a time: argument texts are full of quotes, and a copy per run
 * of plain bytes cost more than the bytes. */
static void put_string(pb_buf *o, const char *s, size_t len)
{
	/* a byte takes at most six ("\u001f", "\ufffd") */
	if (len > SIZE_MAX / 8 || !pb_room(o, len * 6 + 2)) {
		o->failed = true;
		return;
	}
	uint8_t *p = o->data + o->len;
	*p++ = '"';
	for (size_t i = 0; i < len;) {
		uint64_t word;
		if (len - i >= 8 && (memcpy(&word, s + i, 8), is_plain8(word))) {
			memcpy(p, &word, 8);
			p += 8;
			i += 8;
			continue;
		}
		unsigned char b = (unsigned char)s[i];
		if (is_plain((char)b)) {
			*p++ = b;
			i++;
			continue;
		}
		if (b >= 0x80) {
			size_t n = tl_utf8_char(s + i, len - i);
			if (n)
				memcpy(p, s + i, n);
			else
				memcpy(p, "\\ufffd", 6);
			p += n ? n : 6;
			i += n ? n : 1;
			continue;
		}
		*p++ = '\\';
		switch (b) {
		case '"': *p++ = '"'; break;
		case '\\': *p++ = '\\'; break;
		case '\n': *p++ = 'n'; break;
		case '\t': *p++ = 't'; break;
		case '\r': *p++ = 'r'; break;
		default:
			memcpy(p, "u00", 3);
			p[3] = (uint8_t)tc_fmt_hex_digits[b >> 4];
			p[4] = (uint8_t)tc_fmt_hex_digits[b & 15];
			p += 5;
		}
		i++;
	}
	*p++ = '"';
	o->len = (size_t)(p - o->data);
}

static void put_value(pb_buf *o, const tc_trace *trace, const tc_field *f);

static void put_member(pb_buf *o, const tc_trace *trace, bool first, const char *name, const tc_field *f)
{
	if (!first)
		PUT(o, ",");
	put_string(o, name, strlen(name));
	PUT(o, ":");
	put_value(o, trace, f);
}

/* A field of TRACE's as a JSON value: a code address its symbol's name
 * as a string (tl_symbol_text). */
static void put_value(pb_buf *o, const tc_trace *trace, const tc_field *f)
{
	const tc_field_class *fc = f->cls;
	const char *s;
	size_t len;
	char num[TC_FMT_G_MAX], sym[600];
	if (tl_text_value(f, &s, &len)) {
		put_string(o, s, len);
		return;
	}
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_BIT_ARRAY:
		if ((fc->flags & TC_FIELD_CODE_ADDRESS) && (len = tl_symbol_text(trace, f, sym, sizeof sym))) {
			put_string(o, sym, len);
		} else if (fc->base == 16 && !fc->is_signed) {
			memcpy(num, "\"0x", 3);
			len = 3 + tc_fmt_hex(num + 3, f->v.u, true);
			num[len++] = '"';
			pb_raw(o, num, len);
		} else if (fc->is_signed) {
			put_i64(o, f->v.s);
		} else {
			put_u64(o, f->v.u);
		}
		return;
	case TC_FIELD_BOOL:
		if (f->v.u)
			PUT(o, "true");
		else
			PUT(o, "false");
		return;
	case TC_FIELD_FLOAT:
		/* "%.17g" reads back as the same double; JSON has no
		 * infinities or NaNs, so they go as strings ("inf", "-nan"). */
		if (isfinite(f->v.f)) {
			len = tc_fmt_g(num, f->v.f, 17);
		} else {
			num[0] = '"';
			len = 1 + tc_fmt_g(num + 1, f->v.f, 6);
			num[len++] = '"';
		}
		pb_raw(o, num, len);
		return;
	case TC_FIELD_STRUCT:
		PUT(o, "{");
		for (size_t i = 0; i < f->v.compound.count && i < fc->member_count; i++)
			put_member(o, trace, i == 0, fc->members[i].display_name, &f->v.compound.items[i]);
		PUT(o, "}");
		return;
	case TC_FIELD_VARIANT:
		PUT(o, "{");
		if (f->v.compound.count && f->option < fc->member_count)
			put_member(o, trace, true, fc->members[f->option].name[0] ? fc->members[f->option].display_name : "value",
			           &f->v.compound.items[0]);
		PUT(o, "}");
		return;
	case TC_FIELD_OPTIONAL:
		if (f->v.compound.count)
			put_value(o, trace, &f->v.compound.items[0]);
		else
			PUT(o, "null");
		return;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		PUT(o, "[");
		for (size_t i = 0; i < f->v.compound.count; i++) {
			if (i)
				PUT(o, ",");
			put_value(o, trace, &f->v.compound.items[i]);
		}
		PUT(o, "]");
		return;
	default: {
		pb_buf text = { 0 };
		tl_render(&text, trace, f);
		put_string(o, (const char *)text.data, text.len);
		if (text.failed)
			o->failed = true;
		pb_free(&text);
	}
	}
}

/* ---- events ---- */

/* The text of T's ids, ',"pid":P,"tid":T', kept with it: they are in
 * every event.  A stream's track gets ids of its own. */
static void make_ids(js_writer *w, tl_track *t)
{
	if (t->tid < 0 && !t->uuid)
		t->uuid = STREAM_TID_BASE + w->next_stream_id++;
	int64_t tid = t->tid >= 0 ? t->tid : (int64_t)t->uuid;
	int64_t pid = t->tid >= 0 && t->pid >= 0 ? t->pid : tid;
	int n = snprintf(t->json_ids, sizeof t->json_ids, ",\"pid\":%" PRId64 ",\"tid\":%" PRId64, pid, tid);
	t->json_ids_len = n > 0 && (size_t)n < sizeof t->json_ids ? (uint8_t)n : 0;
	t->json_ids_pid = t->pid;
}

/* The start of an event of phase PH on track T: '{"ph":"B","pid":P,"tid":T'. */
static void open_event(tl_ctx *c, js_writer *w, char ph, tl_track *t)
{
	pb_buf *o = &c->out;
	if (!t->json_ids_len || t->json_ids_pid != t->pid)
		make_ids(w, t);
	if (!pb_room(o, 11 + sizeof t->json_ids))
		return;
	/* whole fixed-size copies: the lengths below say what counts */
	uint8_t *p = o->data + o->len;
	memcpy(p, ",\n{\"ph\":\"?\"", 11);
	p[9] = (uint8_t)ph;
	size_t head = 11;
	if (!w->any) {
		memmove(p, p + 2, 9);
		head = 9;
	}
	w->any = true;
	memcpy(p + head, t->json_ids, sizeof t->json_ids);
	o->len += head + t->json_ids_len;
}

static void put_ts(tl_ctx *c, js_writer *w, int64_t ns)
{
	PUT(&c->out, ",\"ts\":");
	put_us(&c->out, w, ns - w->base);
}

static void put_name_field(tl_ctx *c, const char *s, size_t len)
{
	PUT(&c->out, ",\"name\":");
	put_string(&c->out, s, len);
}

static void put_meta(tl_ctx *c, js_writer *w, tl_track *t, bool process, const char *name)
{
	open_event(c, w, 'M', t);
	if (process)
		PUT(&c->out, ",\"name\":\"process_name\",\"args\":{\"name\":");
	else
		PUT(&c->out, ",\"name\":\"thread_name\",\"args\":{\"name\":");
	put_string(&c->out, name, strlen(name));
	PUT(&c->out, "}}");
}

/* Names T and its process when they changed. */
static void name_track(tl_ctx *c, js_writer *w, tl_track *t)
{
	if (t->renamed && t->name) {
		put_meta(c, w, t, false, t->name);
		/* a kernel task of no known process is a process of its own */
		if (t->pid < 0 && t->tid >= 0)
			put_meta(c, w, t, true, t->name);
	}
	t->renamed = false;
	tl_track *main = tl_process_of(c, t);
	if (main && main->process_renamed && main->process_name)
		put_meta(c, w, main, true, main->process_name);
	if (main)
		main->process_renamed = false;
}

static void rename_task(tl_ctx *c, js_writer *w, int64_t tid, const char *s, size_t len)
{
	tl_track *t = tl_thread(c, tid, -1);
	if (t && tid != 0) {
		tl_track_rename(t, s, len, false);
		name_track(c, w, t);
	}
}

static int add_saved_task(tl_ctx *c, int64_t tid, const char *name, size_t len, void *arg)
{
	rename_task(c, arg, tid, name, len);
	return 0;
}

/* The names kernel events give to tasks: comm fields beside pid fields. */
static void learn_names(tl_ctx *c, js_writer *w, const tl_class *cls, const tc_message *msg)
{
	static const struct { tl_kind kind; int comm, pid; } pairs[] = {
		{ TL_SCHED_SWITCH, 0, 1 }, { TL_SCHED_SWITCH, 4, 5 }, { TL_SCHED_WAKING, 0, 1 },
		{ TL_SCHED_WAKEUP, 0, 1 }, { TL_SCHED_WAKEUP_NEW, 0, 1 }, { TL_PROCESS_FORK, 0, 1 },
		{ TL_PROCESS_FORK, 2, 3 }, { TL_PROCESS_EXIT, 0, 1 }, { TL_PROCESS_FREE, 0, 1 },
		{ TL_TASK_NEWTASK, 1, 0 }, { TL_TASK_RENAME, 2, 0 }, { TL_STATEDUMP_TASK, TL_TASK_NAME, TL_TASK_TID },
	};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		const char *s;
		size_t len;
		int64_t tid;
		if (pairs[i].kind == cls->kind && tl_spec_int(cls, msg, pairs[i].pid, &tid) &&
		    tl_text_value(tl_spec_field(cls, msg, pairs[i].comm), &s, &len))
			rename_task(c, w, tid, s, len);
	}
}

static void put_payload_args(tl_ctx *c, const tc_message *msg)
{
	const tc_field_class *payload = msg->event_class->payload;
	if (!msg->payload || !payload || payload->kind != TC_FIELD_STRUCT || !msg->payload->v.compound.count)
		return;
	PUT(&c->out, ",\"args\":");
	put_value(&c->out, msg->stream->trace, msg->payload);
}

/* A function call event on its way to tl_call(). */
typedef struct call_event {
	js_writer *w;
	const tl_class *cls;
	const tc_message *msg;
} call_event;

/*
 * A call is one "X" event at its end, from its frame: its name and
 * arguments are kept as JSON text in the track's call_text from its begin
 * (',"name":"f"', then the args member), the return value is added at the
 * end.  A call still open when the trace ends is a "B" event.
 */
static int write_slice(tl_ctx *c, void *arg, tl_track *t, tl_slice what, int64_t ts, const char *name, size_t len,
                       tl_frame *f)
{
	call_event *e = arg;
	pb_buf *o = &c->out;
	if (what == TL_SLICE_BEGIN || what == TL_SLICE_BEGIN_INHERITED) {
		pb_buf *text = &t->call_text;
		PUT(text, ",\"name\":");
		put_string(text, name, len);
		f->split = (uint32_t)(text->len - f->text);
		const tc_field *args = what == TL_SLICE_BEGIN ? tl_member(e->msg->payload, e->cls->func_args) : NULL;
		/* the keys of calls are known: no escaping at every call */
		if (args) {
			PUT(text, "\"args\":");
			put_value(text, e->msg->stream->trace, args);
		}
		return text->failed ? tc_fail_nomem() : 0;
	}
	const char *text = (const char *)t->call_text.data + f->text;
	size_t text_len = t->call_text.len - f->text;
	open_event(c, e->w, what == TL_SLICE_UNENDED ? 'B' : 'X', t);
	put_ts(c, e->w, f->begin);
	if (what != TL_SLICE_UNENDED) {
		PUT(o, ",\"dur\":");
		put_us(o, e->w, ts - f->begin);
	}
	pb_raw(o, text, f->split);
	const tc_field *retval = what == TL_SLICE_END ? tl_member(e->msg->payload, e->cls->func_retval) : NULL;
	if (retval || text_len > f->split) {
		PUT(o, ",\"args\":{");
		pb_raw(o, text + f->split, text_len - f->split);
		if (retval) {
			if (text_len == f->split)
				PUT(o, "\"retval\":");
			else
				PUT(o, ",\"retval\":");
			put_value(o, e->msg->stream->trace, retval);
		}
		PUT(o, "}");
	}
	PUT(o, "}");
	return o->failed ? tc_fail_nomem() : 0;
}

static int json_init(tl_ctx *c)
{
	js_writer *w = calloc(1, sizeof *w);
	if (!w)
		return tc_fail_nomem();
	c->impl = w;
	PUT(&c->out, "{\"traceEvents\":[\n");
	return 0;
}

static int start(tl_ctx *c, js_writer *w, int64_t first_ts)
{
	w->started = true;
	if (first_ts >= EXACT_LIMIT) {
		w->base = first_ts - first_ts % 1000000000;
		int rc = tl_warn(c, "%s: the trace starts %" PRId64 " s after its clock's origin, too far for JSON numbers to keep nanoseconds: times are counted from %" PRId64 " s",
		                 c->name, first_ts / 1000000000, w->base / 1000000000);
		if (rc < 0)
			return rc;
	}
	return tl_known_tasks(c, add_saved_task, w);
}

static int json_write(tl_ctx *c, const tc_message *msg, tl_class *cls, int64_t ts)
{
	js_writer *w = c->impl;
	int rc;
	if (!w->started && (rc = start(c, w, ts)) < 0)
		return rc;
	bool failed = false;
	tl_track *t = tl_track_of(c, cls, msg, ts, &failed);
	if (!t)
		return failed ? TC_ENOMEM : 0;
	if (cls && cls->kernel)
		learn_names(c, w, cls, msg);
	name_track(c, w, t);
	pb_buf *o = &c->out;
	if (!cls) {
		open_event(c, w, 'i', t);
		put_ts(c, w, ts);
		PUT(o, ",\"s\":\"t\",\"name\":\"discarded events\",\"args\":{\"count\":");
		put_u64(o, msg->count);
		PUT(o, "}}");
	} else if (cls->kind == TL_FUNC_ENTRY || cls->kind == TL_FUNC_EXIT) {
		return tl_call(c, cls, msg, t, ts, write_slice, &(call_event){ w, cls, msg });
	} else {
		open_event(c, w, 'i', t);
		put_ts(c, w, ts);
		PUT(o, ",\"s\":\"t\"");
		put_name_field(c, cls->ec->name, strlen(cls->ec->name));
		put_payload_args(c, msg);
		PUT(o, "}");
	}
	return o->failed ? tc_fail_nomem() : 0;
}

static int json_finish(tl_ctx *c)
{
	js_writer *w = c->impl;
	int rc = 0;
	if (!w->started)
		rc = start(c, w, 0);
	if (rc == 0)
		rc = tl_calls_finish(c, write_slice, &(call_event){ w, NULL, NULL });
	PUT(&c->out, "\n],\"displayTimeUnit\":\"ns\"}\n");
	return rc < 0 ? rc : c->out.failed ? tc_fail_nomem() : 0;
}

static void json_free(tl_ctx *c)
{
	free(c->impl);
}

const tl_ops tl_chrome_json_ops = { json_init, json_write, json_finish, json_free };
