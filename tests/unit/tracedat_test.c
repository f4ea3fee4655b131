/* SPDX-License-Identifier: MIT */
/*
 * tracedat_test.c - unit tests for the trace.dat reader on files built
 * here byte by byte, for what the shared corpus (little-endian files of
 * one machine) cannot show: big-endian files, every special record type
 * on one page (time extend, padding with a delta, absolute time stamp,
 * long-form event), a stored missed-events count, format texts with every
 * declaration form, the TSC2NSEC and TIME_SHIFT arithmetic of spec
 * §10, and kallsyms.c's strict and lenient readings of kallsyms.  One line per check, "PASS name" or "FAIL name: ..."; exit status
 * 0 when everything passed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat/kallsyms.h"
#include "tracedat/tracedat.h"
#include "check.h"

static void check_u64(const char *name, uint64_t got, uint64_t want)
{
	check(got == want, name, "got %" PRIu64 ", expected %" PRIu64, got, want);
}

static const char *last_error(void)
{
	static char buf[2048];
	tc_error_format(tc_error_last(), buf, sizeof buf);
	return buf;
}

/* ------------------------------------------------------------------------
 * Building files
 */

typedef struct bytes {
	uint8_t *d;
	size_t len, cap;
	bool be;
} bytes;

static void put(bytes *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->d = realloc(b->d, b->cap);
		if (!b->d)
			abort();
	}
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void put_uint(bytes *b, uint64_t v, unsigned size)
{
	uint8_t x[8];
	for (unsigned i = 0; i < size; i++)
		x[b->be ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
	put(b, x, size);
}

static void put_cstr(bytes *b, const char *s)
{
	put(b, s, strlen(s) + 1);
}

static void put_sized_text(bytes *b, const char *s, unsigned len_size)
{
	put_uint(b, strlen(s), len_size);
	put(b, s, strlen(s));
}

static void pad_to(bytes *b, size_t align)
{
	static const uint8_t zero[1];
	while (b->len % align)
		put(b, zero, 1);
}

static void put_option(bytes *b, uint16_t id, const void *payload, uint32_t size)
{
	put_uint(b, id, 2);
	put_uint(b, size, 4);
	put(b, payload, size);
}

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char format_test[] =
	"name: tc_test\nID: 100\nformat:\n" COMMON_FIELDS
	"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:char tag[4];\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"value=%d\", REC->value\n";

static const char format_tail[] =
	"name: tc_tail\nID: 101\nformat:\n" COMMON_FIELDS
	"\tfield:u16 vals[];\toffset:8;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"\"\n";

#define PAGE 4096
#define T0 5000000000ull            /* the page's timestamp */
#define EXTEND_DELTA 1000u
#define ABSOLUTE (7ull << 32 | 12345) /* a TIME_STAMP's value */
#define MISSED 9u

static void put_header_word(bytes *b, unsigned type_len, uint32_t delta)
{
	/* type_len:5, time_delta:27 as C bit-fields (spec §8.3). */
	put_uint(b, b->be ? (uint64_t)type_len << 27 | delta : type_len | (uint64_t)delta << 5, 4);
}

static void put_common(bytes *b, uint16_t type, int32_t pid)
{
	put_uint(b, type, 2);
	put_uint(b, 1, 1);
	put_uint(b, 2, 1);
	put_uint(b, (uint32_t)pid, 4);
}

/* tc_test: value -7, name "hi" (after the fixed fields), tag "ab". */
static void put_test_payload(bytes *b)
{
	put_common(b, 100, -5);
	put_uint(b, (uint32_t)-7, 4);
	put_uint(b, 3u << 16 | 20, 4);
	put(b, "ab\0\0", 4);
	put(b, "hi\0\xee", 4);   /* one byte of slack that is not zero */
}

/* One page: tc_test, a time extend, a padding with a delta, tc_tail, an
 * absolute time stamp, a long-form tc_test; the missed-events count after
 * the events. */
static void put_page(bytes *b)
{
	bytes ev = { .be = b->be };
	put_header_word(&ev, 6, 0);
	put_test_payload(&ev);
	put_header_word(&ev, 30, EXTEND_DELTA);
	put_uint(&ev, 1, 4);
	put_header_word(&ev, 29, 7);
	put_uint(&ev, 8, 4);
	put_uint(&ev, 0xdeadbeef, 4);
	put_header_word(&ev, 3, 5);
	put_common(&ev, 101, 42);
	put_uint(&ev, 1, 2);
	put_uint(&ev, 515, 2);
	put_header_word(&ev, 31, (uint32_t)(ABSOLUTE & 0x7FFFFFF));
	put_uint(&ev, ABSOLUTE >> 27, 4);
	put_header_word(&ev, 0, 3);
	put_uint(&ev, 24 + 4, 4);
	put_test_payload(&ev);
	size_t start = b->len;
	put_uint(b, T0, 8);
	put_uint(b, ev.len | 1u << 31 | 1u << 30, 8);
	put(b, ev.d, ev.len);
	put_uint(b, MISSED, 8);
	while (b->len - start < PAGE)
		put_uint(b, 0, 1);
	free(ev.d);
}

/* A version 6 file with one CPU of one page.  EXTRA_OPTIONS: more
 * options to write (TSC2NSEC, TIME_SHIFT). */
static void build_v6(bytes *b, bool be, void (*extra_options)(bytes *b))
{
	memset(b, 0, sizeof *b);
	b->be = be;
	put(b, "\x17\x08\x44tracing6", 12);
	put_uint(b, be, 1);
	put_uint(b, 8, 1);
	put_uint(b, PAGE, 4);
	put(b, "header_page", 12);
	put_sized_text(b, header_page, 8);
	put(b, "header_event", 13);
	put_sized_text(b, "# compressed entry header\n", 8);
	put_uint(b, 0, 4);                  /* no ftrace formats */
	put_uint(b, 1, 4);                  /* one system */
	put_cstr(b, "test");
	put_uint(b, 2, 4);
	put_sized_text(b, format_test, 8);
	put_sized_text(b, format_tail, 8);
	put_sized_text(b, "", 4);           /* kallsyms */
	put_sized_text(b, "", 4);           /* printk formats */
	put_sized_text(b, "", 8);           /* saved cmdlines */
	put_uint(b, 1, 4);                  /* CPUs */
	put(b, "options  ", 10);
	put_option(b, 4, "[local] global\n", 16);
	put_option(b, 7, "1000", 5);        /* OFFSET: 1 us */
	put_option(b, 5, "Linux box 6.1.0 ppc64", 22);
	if (extra_options)
		extra_options(b);
	put_uint(b, 0, 2);
	put(b, "flyrecord", 10);
	size_t table = b->len;
	put_uint(b, 0, 8);
	put_uint(b, PAGE, 8);
	put_sized_text(b, "[local]", 8);
	pad_to(b, PAGE);
	size_t data = b->len;
	bytes t = { .be = be };
	put_uint(&t, data, 8);
	memcpy(b->d + table, t.d, 8);
	free(t.d);
	put_page(b);
}

static const char *write_temp(const bytes *b, const char *name)
{
	static char path[256];
	snprintf(path, sizeof path, "%s/tracecat-%s-%d.dat", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name, (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(b->d, 1, b->len, f) != b->len || fclose(f) != 0)
		abort();
	return path;
}

/* ------------------------------------------------------------------------
 * Tests
 */

static void test_records(bool be)
{
	const char *order = be ? "be" : "le";
	char name[128];
	bytes b;
	build_v6(&b, be, NULL);
	const char *path = write_temp(&b, order);
	free(b.d);
	tracedat_file *f;
	snprintf(name, sizeof name, "records/%s/open", order);
	int rc = tracedat_open(&f, path);
	check(rc == 0, name, "%s", last_error());
	if (rc < 0) {
		unlink(path);
		return;
	}
	const tracedat_meta *m = tracedat_meta_of(f);
	snprintf(name, sizeof name, "records/%s/meta", order);
	check(m->big_endian == be && m->kernel_long_size == 8 && m->page_data_offset == 16 && m->buffer_count == 1 &&
	      m->event_format_count == 2 && strcmp(m->trace_clock, "local") == 0 && strcmp(m->buffers[0].clock, "local") == 0 &&
	      m->has_ts_offset && m->ts_offset_ns == 1000 && strcmp(m->uname, "Linux box 6.1.0 ppc64") == 0,
	      name, "big_endian %d long %u data %u buffers %zu formats %zu clock \"%s\" offset %" PRId64, m->big_endian,
	      m->kernel_long_size, m->page_data_offset, m->buffer_count, m->event_format_count, m->trace_clock, m->ts_offset_ns);
	tracedat_cursor *c;
	tracedat_record r[4];
	int n = 0;
	if (tracedat_cursor_open(f, 0, 0, &c) == 0) {
		while (n < 4 && (rc = tracedat_cursor_next(c, &r[n])) > 0)
			n++;
		tracedat_cursor_close(c);
	}
	snprintf(name, sizeof name, "records/%s/count", order);
	check(n == 3 && rc == 0, name, "%d records, last rc %d: %s", n, rc, last_error());
	if (n == 3) {
		snprintf(name, sizeof name, "records/%s/page-time", order);
		check_u64(name, r[0].ts, T0);
		snprintf(name, sizeof name, "records/%s/extend-and-padding", order);
		check_u64(name, r[1].ts, T0 + (1ull << 27) + EXTEND_DELTA + 7 + 5);
		snprintf(name, sizeof name, "records/%s/time-stamp-and-long-form", order);
		check_u64(name, r[2].ts, ABSOLUTE + 3);
		snprintf(name, sizeof name, "records/%s/sizes", order);
		check(r[0].size == 24 && r[1].size == 12 && r[2].size == 24, name, "%u %u %u", r[0].size, r[1].size, r[2].size);
		snprintf(name, sizeof name, "records/%s/missed", order);
		check(r[0].missed_events && r[0].missed_count == MISSED && !r[1].missed_events, name, "%d %" PRIu64 " %d",
		      r[0].missed_events, r[0].missed_count, r[1].missed_events);
		snprintf(name, sizeof name, "records/%s/offset", order);
		check_u64(name, r[0].offset, PAGE + 16);   /* the metadata fit in the first page */
	}
	tracedat_close(f);

	/* The same through the event model. */
	tc_input *in;
	snprintf(name, sizeof name, "model/%s/open", order);
	rc = tc_input_open(&in, path, NULL);
	check(rc == 0, name, "%s", last_error());
	if (rc == 0) {
		const tc_message *msg[5];
		char text[5][256];
		n = 0;
		while (n < 5 && (rc = tc_input_next(in, &msg[n])) > 0) {
			const tc_message *x = msg[n];
			if (x->kind == TC_MSG_DISCARDED_EVENTS) {
				snprintf(text[n], sizeof text[n], "discarded %" PRIu64 " range %d", x->count, x->has_range);
			} else {
				const tc_field *p = x->payload, *ctx = x->stream_event_context;
				int len = snprintf(text[n], sizeof text[n], "%s %" PRId64 ".%09u pid %" PRId64 " cpu %" PRIu64 ":",
				                   x->event_class->name, x->time.sec, x->time.nsec, ctx->v.compound.items[3].v.s,
				                   x->packet_context->v.compound.items[0].v.u);
				for (size_t i = 0; p && i < p->v.compound.count && len < 200; i++) {
					const tc_field *fd = &p->v.compound.items[i];
					if (fd->cls->kind == TC_FIELD_STRING)
						len += snprintf(text[n] + len, sizeof text[n] - (size_t)len, " \"%.*s\"", (int)fd->v.str.len, fd->v.str.ptr);
					else if (fd->cls->kind == TC_FIELD_INT)
						len += snprintf(text[n] + len, sizeof text[n] - (size_t)len, " %" PRId64, fd->v.s);
					else
						for (size_t k = 0; k < fd->v.compound.count; k++)
							len += snprintf(text[n] + len, sizeof text[n] - (size_t)len, " [%" PRIu64 "]", fd->v.compound.items[k].v.u);
				}
			}
			n++;
		}
		/* Times: nanoseconds after the clock's zero, which is the 1 us
		 * OFFSET option before the raw zero. */
		char expect[4][128];
		uint64_t ns[3] = { T0 + 1000, T0 + (1ull << 27) + EXTEND_DELTA + 7 + 5 + 1000, ABSOLUTE + 3 + 1000 };
		snprintf(expect[0], sizeof expect[0], "discarded %u range 0", MISSED);
		snprintf(expect[1], sizeof expect[1], "tc_test %" PRIu64 ".%09" PRIu64 " pid -5 cpu 0: -7 \"hi\" \"ab\"", ns[0] / 1000000000u, ns[0] % 1000000000u);
		/* the tail array comes after its length member, __vals_length = 2 */
		snprintf(expect[2], sizeof expect[2], "tc_tail %" PRIu64 ".%09" PRIu64 " pid 42 cpu 0: 2 [1] [515]", ns[1] / 1000000000u, ns[1] % 1000000000u);
		snprintf(expect[3], sizeof expect[3], "tc_test %" PRIu64 ".%09" PRIu64 " pid -5 cpu 0: -7 \"hi\" \"ab\"", ns[2] / 1000000000u, ns[2] % 1000000000u);
		snprintf(name, sizeof name, "model/%s/count", order);
		check(n == 4 && rc == 0, name, "%d messages, rc %d: %s", n, rc, last_error());
		for (int i = 0; i < n && i < 4; i++) {
			snprintf(name, sizeof name, "model/%s/message-%d", order, i);
			check(strcmp(text[i], expect[i]) == 0, name, "got \"%s\", expected \"%s\"", text[i], expect[i]);
		}
		const tc_trace *t = tc_input_trace(in, 0);
		const tc_env_entry *host = tc_trace_env(t, "hostname"), *machine = tc_trace_env(t, "machine");
		snprintf(name, sizeof name, "model/%s/environment", order);
		check(host && machine && strcmp(host->str_value, "box") == 0 && strcmp(machine->str_value, "ppc64") == 0, name,
		      "hostname %s machine %s", host ? host->str_value : "(none)", machine ? machine->str_value : "(none)");
		tc_input_free(in);
	}
	unlink(path);
}

static void tsc_and_shift_options(bytes *b)
{
	bytes o = { .be = b->be };
	put_uint(&o, 3, 4);          /* TSC2NSEC: mult 3, shift 1 */
	put_uint(&o, 1, 4);
	put_uint(&o, 0, 8);
	put_option(b, 14, o.d, (uint32_t)o.len);
	o.len = 0;
	put_uint(&o, 0x1234, 8);     /* TIME_SHIFT: peer id, interpolate, 1 CPU */
	put_uint(&o, 1, 4);
	put_uint(&o, 1, 4);
	put_uint(&o, 2, 4);          /* two samples, given out of order */
	put_uint(&o, 2000, 8);
	put_uint(&o, 1000, 8);
	put_uint(&o, 300, 8);
	put_uint(&o, 100, 8);
	put_uint(&o, 1, 8);
	put_uint(&o, 1, 8);
	put_option(b, 12, o.d, (uint32_t)o.len);
	free(o.d);
}

static void test_time_rules(void)
{
	bytes b;
	build_v6(&b, false, tsc_and_shift_options);
	const char *path = write_temp(&b, "time");
	free(b.d);
	tracedat_file *f;
	int rc = tracedat_open(&f, path);
	check(rc == 0, "time/open", "%s", last_error());
	unlink(path);
	if (rc < 0)
		return;
	/* Interpolated between (1000, +100) and (2000, +300), outside the
	 * samples from the nearest pair, C division truncating; then
	 * TSC2NSEC: x * 3 >> 1. */
	check_u64("time/shift-inside", tracedat_ts_to_ns(f, 0, 1500), (1500 + 200) * 3 / 2);
	check_u64("time/shift-before", tracedat_ts_to_ns(f, 0, 500), (500 + 1) * 3 / 2);
	check_u64("time/shift-after", tracedat_ts_to_ns(f, 0, 2500), (2500 + 400) * 3 / 2);
	check_u64("time/shift-other-cpu", tracedat_ts_to_ns(f, 1, 1500), 1500 * 3 / 2);
	uint64_t big = (1ull << 40) + 12345;
	check_u64("time/tsc2nsec-high-bits", tracedat_ts_to_ns(f, 1, big), (uint64_t)(((unsigned __int128)big * 3) >> 1));
	check_u64("time/report-adds-offset", tracedat_report_ns(f, 1, 1000), 1500 + 1000);
	check(tracedat_clock_is_ns(f, "x86-tsc"), "time/tsc2nsec-makes-ns", "x86-tsc with TSC2NSEC should be ns");
	tracedat_close(f);
}

/* A latency-tracer file: "latency" and text where "flyrecord" would be. */
static void test_latency(void)
{
	bytes b;
	build_v6(&b, false, NULL);
	uint8_t *tag = memmem(b.d, b.len, "flyrecord", 10);
	static const char text[] = "# tracer: irqsoff\n";
	memcpy(tag, "latency  ", 10);
	b.len = (size_t)(tag + 10 - b.d);
	put(&b, text, sizeof text - 1);
	const char *path = write_temp(&b, "latency");
	free(b.d);
	tracedat_file *f;
	int rc = tracedat_open(&f, path);
	check(rc == TC_EUNSUPPORTED && strstr(tc_error_last()->message, "latency"), "latency/refused", "rc %d: %s", rc, last_error());
	if (rc == 0)
		tracedat_close(f);
	unlink(path);
}

static void test_format_text(void)
{
	static const char text[] =
		"name: forms\nID: 7\nformat:\n" COMMON_FIELDS
		"\tfield:char comm[TASK_COMM_LEN];\toffset:8;\tsize:16;\tsigned:0;\n"
		"\tfield:unsigned long args[6];\toffset:24;\tsize:48;\tsigned:0;\n"
		"\tfield:__data_loc u64[] addrs;\toffset:72;\tsize:4;\tsigned:0;\n"
		"\tfield:__rel_loc char[] rel;\toffset:76;\tsize:4;\tsigned:0;\n"
		"\tfield:const char * fmt;\toffset:80;\tsize:8;\tsigned:0;\n"
		"\tfield: char buf[] ;\toffset: 88 ;\tsize:0;\tsigned:0;\textra:1;\n\n"
		"print fmt: \"\"\n";
	tracedat_blob blob = { text, sizeof text - 1, 0, false };
	tc_pool pool;
	tc_pool_init(&pool);
	tracedat_format fmt;
	int rc = tracedat_parse_format(&pool, "forms", &blob, &fmt);
	check(rc == 0 && fmt.has_id && fmt.id == 7 && strcmp(fmt.name, "forms") == 0 && fmt.field_count == 10 &&
	      fmt.common_count == 4, "format/header", "rc %d id %u fields %zu common %zu: %s", rc, fmt.id, fmt.field_count,
	      fmt.common_count, last_error());
	if (rc == 0 && fmt.field_count == 10) {
		const tracedat_field *x = fmt.fields;
		check(strcmp(x[4].name, "comm") == 0 && strcmp(x[4].type, "char") == 0 && x[4].is_array && x[4].array_len == 0 &&
		      x[4].size == 16, "format/array-expression", "%s %s %u", x[4].name, x[4].type, x[4].array_len);
		check(strcmp(x[5].name, "args") == 0 && x[5].array_len == 6 && x[5].size == 48, "format/array",
		      "%s %u", x[5].name, x[5].array_len);
		check(strcmp(x[6].name, "addrs") == 0 && x[6].is_data_loc && strcmp(x[6].type, "__data_loc u64[]") == 0,
		      "format/data-loc", "%s \"%s\"", x[6].name, x[6].type);
		check(strcmp(x[7].name, "rel") == 0 && x[7].is_rel_loc && !x[7].is_data_loc, "format/rel-loc", "%s", x[7].name);
		check(strcmp(x[8].name, "fmt") == 0 && strcmp(x[8].type, "const char *") == 0 && x[8].size == 8,
		      "format/pointer", "%s \"%s\"", x[8].name, x[8].type);
		check(strcmp(x[9].name, "buf") == 0 && x[9].is_flexible && x[9].offset == 88 && x[9].size == 0,
		      "format/flexible-and-spaces", "%s %u", x[9].name, x[9].offset);
	}
	static const char bad[] = "name: bad\nID: 8\nformat:\n\tfield:int x;\toffset:zero;\tsize:4;\n";
	tracedat_blob bad_blob = { bad, sizeof bad - 1, 1000, false };
	rc = tracedat_parse_format(&pool, "bad", &bad_blob, &fmt);
	check(rc == TC_EFORMAT && tc_error_last()->offset == 1000 + 24 && strstr(tc_error_last()->message, "offset is not a number"),
	      "format/error-offset", "rc %d: %s", rc, last_error());
	tc_pool_free(&pool);
}

/* kallsyms.c's two readings of one text: strict (print-format plans, which
 * leave a line libtraceevent may read otherwise to it) and lenient
 * (tc_trace_symbol(), which leaves such lines out), the same table
 * otherwise: func_map's order, aliases last-first, range look-ups. */
static void test_kallsyms(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"0xffffffff81000080 T hex_prefix\n"
		"ffffffff81000100 t mod_func\t[mod]\n"
		"ffffffff81000180 t open_mod\t[mod\n"
		"ffffffff81000200 A absolute\n"
		"ffffffff81000280 t $x\n"
		"ffffffff81000300\n"
		"ffffffff81000380 T last";
	td_kallsyms ks;
	int rc = td_kallsyms_read(&ks, text, sizeof text - 1, false);
	check(rc == 0 && ks.count == 0, "kallsyms/strict-inexact", "rc %d, %zu symbols", rc, ks.count);
	td_kallsyms_free(&ks);
	rc = td_kallsyms_read(&ks, text, sizeof text - 1, true);
	check(rc == 1 && ks.count == 5, "kallsyms/lenient-count", "rc %d, %zu symbols", rc, ks.count);
	if (rc == 1 && ks.count == 5) {
		check(strcmp(ks.map[0].name, "_text") == 0 && strcmp(ks.map[1].name, "_stext") == 0, "kallsyms/aliases-last-first",
		      "%s %s", ks.map[0].name, ks.map[1].name);
		/* (bsearch()'s second probe, the second of the aliases) */
		const tc_symbol *s = td_kallsyms_find(&ks, 0xffffffff81000040);
		check(s && strcmp(s->name, "_stext") == 0 && !s->module, "kallsyms/find-alias", "%s", s ? s->name : "(none)");
		s = td_kallsyms_find(&ks, 0xffffffff81000101);
		check(s && strcmp(s->name, "mod_func") == 0 && s->module && strcmp(s->module, "mod") == 0, "kallsyms/module",
		      "%s [%s]", s ? s->name : "(none)", s && s->module ? s->module : "");
		s = td_kallsyms_find(&ks, 0xffffffff81000300);
		check(s && strcmp(s->name, "open_mod") == 0 && !s->module, "kallsyms/lenient-open-module", "%s [%s]",
		      s ? s->name : "(none)", s && s->module ? s->module : "");
		check(td_kallsyms_find(&ks, 0xffffffff80ffffff) == NULL && td_kallsyms_find(&ks, 0xffffffff81000381) == NULL &&
		      td_kallsyms_find(&ks, 0xffffffff81000380) != NULL, "kallsyms/outside", "found outside the table");
	}
	td_kallsyms_free(&ks);
	static const char plain[] = "ffffffff81000180 t open_mod\t[mod\nffffffff81000100 t mod_func\t[mod]\n";
	rc = td_kallsyms_read(&ks, plain, sizeof plain - 1, false);
	check(rc == 1 && ks.count == 2 && ks.map[1].module && strcmp(ks.map[1].module, "mo") == 0, "kallsyms/strict-open-module",
	      "rc %d, %zu symbols, module %s", rc, ks.count, rc == 1 && ks.count == 2 && ks.map[1].module ? ks.map[1].module : "(none)");
	td_kallsyms_free(&ks);
}

int main(void)
{
	test_format_text();
	test_records(false);
	test_records(true);
	test_time_rules();
	test_latency();
	test_kallsyms();
	return n_fail ? 1 : 0;
}
