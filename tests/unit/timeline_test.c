/* SPDX-License-Identifier: MIT */
/*
 * timeline_test.c - unit tests for what the Perfetto and JSON writers
 * build on, checked against bytes worked out by hand: the protobuf encoder
 * (varints of every length, negative int32s in ten bytes, nested messages
 * whose length needs one, two or three bytes, the sticky error), and the
 * UTF-8 rules every string goes through (overlong forms, surrogates, code
 * points past U+10FFFF, truncated sequences each replaced by U+FFFD, valid
 * text kept), and the output file, written on the caller's thread or on
 * one of its own: every byte in order, a failed write reported.  The
 * writers themselves are checked end to end by
 * tests/live/perfetto.sh.  One line per check; exit status 0 when
 * everything passed.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfetto/pb.h"
#include "perfetto/timeline.h"
#include "check.h"

static void check_bytes(const char *name, const pb_buf *b, const void *want, size_t len)
{
	char got[256] = "";
	for (size_t i = 0; i < b->len && i < 40; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%02x ", b->data[i]);
	check(!b->failed && b->len == len && memcmp(b->data, want, len) == 0, name, "got %zu bytes: %s", b->len, got);
}

static void test_varints(void)
{
	pb_buf b = { 0 };
	pb_uint(&b, 1, 0);
	pb_uint(&b, 2, 127);
	pb_uint(&b, 3, 128);
	pb_uint(&b, 4, 300);
	check_bytes("pb/varint small", &b, "\x08\x00\x10\x7f\x18\x80\x01\x20\xac\x02", 10);
	b.len = 0;
	pb_uint(&b, 1, UINT64_MAX);
	check_bytes("pb/varint max", &b, "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
	b.len = 0;
	pb_int(&b, 1, -1);
	check_bytes("pb/int32 -1 in ten bytes", &b, "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
	b.len = 0;
	pb_uint(&b, 65536, 5);   /* FtraceEvent's self-described range */
	check_bytes("pb/tag 65536", &b, "\x80\x80\x20\x05", 4);
	b.len = 0;
	pb_str(&b, 2, "abc");
	check_bytes("pb/string", &b, "\x12\x03" "abc", 5);
	pb_free(&b);
}

/* A message of N bytes nested in field 1: its length takes 1, 2 or 3 bytes. */
static void test_nested(size_t n, const char *name, const uint8_t *head, size_t head_len)
{
	pb_buf b = { 0 };
	pb_uint(&b, 9, 1);
	size_t m = pb_open(&b, 1);
	for (size_t i = 0; i < n; i++)
		pb_raw(&b, "x", 1);
	pb_close(&b, m);
	pb_uint(&b, 9, 2);
	bool ok = !b.failed && b.len == 2 + head_len + n + 2 && memcmp(b.data + 2, head, head_len) == 0 &&
	          b.data[2 + head_len] == 'x' && b.data[2 + head_len + n - 1] == 'x' &&
	          memcmp(b.data + 2 + head_len + n, "\x48\x02", 2) == 0;
	check(ok, name, "%zu bytes, head %02x %02x %02x", b.len, b.len > 2 ? b.data[2] : 0, b.len > 3 ? b.data[3] : 0,
	      b.len > 4 ? b.data[4] : 0);
	pb_free(&b);
}

static void test_nesting(void)
{
	test_nested(127, "pb/nested 127 bytes", (const uint8_t *)"\x0a\x7f", 2);
	test_nested(128, "pb/nested 128 bytes", (const uint8_t *)"\x0a\x80\x01", 3);
	test_nested(20000, "pb/nested 20000 bytes", (const uint8_t *)"\x0a\xa0\x9c\x01", 4);
	/* nested twice, the inner one long: both lengths right */
	pb_buf b = { 0 };
	size_t outer = pb_open(&b, 1);
	size_t inner = pb_open(&b, 2);
	for (int i = 0; i < 200; i++)
		pb_raw(&b, "y", 1);
	pb_close(&b, inner);
	pb_close(&b, outer);
	check(b.len == 206 && memcmp(b.data, "\x0a\xcb\x01\x12\xc8\x01", 6) == 0, "pb/nested in nested", "%zu bytes",
	      b.len);
	pb_free(&b);
}

static void test_sticky(void)
{
	pb_buf b = { .failed = true };
	pb_uint(&b, 1, 1);
	size_t m = pb_open(&b, 2);
	pb_close(&b, m);
	check(b.failed && b.len == 0, "pb/sticky error", "len %zu", b.len);
}

static void check_utf8(const char *name, const char *in, size_t len, const char *want)
{
	pb_buf b = { 0 };
	tl_put_utf8(&b, in, len);
	check(!b.failed && b.len == strlen(want) && memcmp(b.data, want, b.len) == 0, name, "got \"%.*s\"", (int)b.len,
	      (const char *)b.data);
	pb_free(&b);
}

static void test_utf8(void)
{
	static const char r[] = "\xef\xbf\xbd";   /* U+FFFD */
	char want[64];
	check_utf8("utf8/ascii", "plain", 5, "plain");
	check_utf8("utf8/valid", "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", 14, "caf\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80");
	snprintf(want, sizeof want, "a%s%sb", r, r);
	check_utf8("utf8/overlong", "a\xc0\xaf" "b", 4, want);
	snprintf(want, sizeof want, "%s%s%s", r, r, r);
	check_utf8("utf8/surrogate", "\xed\xa0\x80", 3, want);
	snprintf(want, sizeof want, "%s%s%s%s", r, r, r, r);
	check_utf8("utf8/past U+10FFFF", "\xf4\x90\x80\x80", 4, want);
	snprintf(want, sizeof want, "x%s%s", r, r);
	check_utf8("utf8/truncated", "x\xe6\x97", 3, want);
	snprintf(want, sizeof want, "%sA", r);
	check_utf8("utf8/stray continuation", "\x80" "A", 2, want);
	pb_buf b = { 0 };
	tl_put_utf8(&b, "a\0b", 3);
	check(b.len == 3 && b.data[1] == 0, "utf8/nul is valid", "len %zu", b.len);
	pb_free(&b);
	check(tl_utf8_char("\xf4\x8f\xbf\xbf", 4) == 4 && tl_utf8_char("\xe0\x9f\xbf", 3) == 0 &&
	      tl_utf8_char("\xc2", 1) == 0, "utf8/boundaries", "U+10FFFF, an overlong 3-byte form, a cut 2-byte one");
}

/* The output file written a few bytes a flush, so that the buffers
 * change hands many times: on the caller's thread, or on a thread of its
 * own (THREADED); the file holds every byte in order. */
static void test_outfile(bool threaded)
{
	char path[] = "/tmp/tc-outfile-XXXXXX";
	tl_ctx c = { .fd = mkstemp(path), .name = path };
	pb_buf want = { 0 };
	int rc = c.fd >= 0 && threaded ? tl_outfile_start(&c) : 0;
	for (int i = 0; i < 2000 && rc == 0; i++) {
		char line[32];
		int n = snprintf(line, sizeof line, "line %d\n", i);
		pb_raw(&c.out, line, (size_t)n);
		pb_raw(&want, line, (size_t)n);
		rc = tl_flush(&c, 64);
	}
	/* a large last buffer handed over, then a last flush with nothing
	 * left, which must still wait for it to be written */
	for (int i = 0; i < 4 << 20 && rc == 0; i++) {
		char b = (char)('a' + i % 26);
		pb_raw(&c.out, &b, 1);
		pb_raw(&want, &b, 1);
	}
	if (rc == 0)
		rc = tl_flush(&c, 1);
	if (rc == 0)
		rc = tl_flush(&c, 0);
	char *got = NULL;
	size_t len = 0;
	if (c.fd >= 0)
		tc_read_file(path, 8u << 20, &got, &len);
	char name[64];
	snprintf(name, sizeof name, "outfile/%s/bytes", threaded ? "thread" : "caller");
	check(rc == 0 && got && len == want.len && memcmp(got, want.data, len) == 0 && c.written == want.len, name,
	      "rc %d, %zu bytes of %zu", rc, len, want.len);
	free(got);
	tl_outfile_stop(&c);
	if (c.fd >= 0)
		close(c.fd);
	unlink(path);
	pb_free(&c.out);
	pb_free(&want);
}

/* A failed write is an error of the flush that waits for it, with the
 * system's reason; /dev/full takes nothing. */
static void test_outfile_full(bool threaded)
{
	char name[64];
	snprintf(name, sizeof name, "outfile/%s/error", threaded ? "thread" : "caller");
	tl_ctx c = { .fd = open("/dev/full", O_WRONLY), .name = "/dev/full" };
	if (c.fd < 0) {
		printf("PASS %s (skipped: no /dev/full)\n", name);
		return;
	}
	int rc = threaded ? tl_outfile_start(&c) : 0;
	for (int i = 0; i < 3 && rc == 0; i++) {
		pb_raw(&c.out, "0123456789", 10);
		rc = tl_flush(&c, 5);
	}
	if (rc == 0)
		rc = tl_flush(&c, 0);
	const tc_error *e = tc_error_last();
	check(rc == TC_EIO && e->offset == 0 && strstr(e->message, "No space left on device"), name, "rc %d: %s", rc,
	      e->message);
	tl_outfile_stop(&c);
	close(c.fd);
	pb_free(&c.out);
}

int main(void)
{
	test_varints();
	test_nesting();
	test_sticky();
	test_utf8();
	test_outfile(false);
	test_outfile(true);
	test_outfile_full(false);
	test_outfile_full(true);
	return n_fail != 0;
}
