/* SPDX-License-Identifier: MIT */
/*
 * lttng_legacy_layout_test.c - unit tests for src/lttng_legacy/layout.c:
 * marker format strings compiled into layouts (doc/formats/lttng-legacy.md
 * §7.4, quirks included), the alignment rules of every version (§4), the
 * decoder on byte examples worked out by hand (the same as
 * tests/lttng_legacy/mktrace.py checks itself against), and the model's
 * member names.
 * One line per check, "PASS name" or "FAIL name: ..."; exit status 0 when
 * everything passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng_legacy/legacy.h"
#include "check.h"

/* "name:s4@4" (signed, 4 bytes, aligned to 4), "name:u8@8n" (network
 * order), "name:x4" (base 16), "name:str", space-separated. */
static void describe(const lg_type *t, char *out, size_t size)
{
	size_t n = 0;
	out[0] = '\0';
	for (size_t i = 0; i < t->member_count && n < size; i++) {
		const lg_type *m = t->members[i].type;
		if (m->kind == LG_STRING)
			n += (size_t)snprintf(out + n, size - n, "%s%s:str", i ? " " : "", t->members[i].name);
		else
			n += (size_t)snprintf(out + n, size - n, "%s%s:%c%u@%u%s", i ? " " : "", t->members[i].name,
			                      m->base == 16 ? 'x' : m->base == 8 ? 'o' : m->is_signed ? 's' : 'u', m->size,
			                      m->align, m->big_endian ? "n" : "");
	}
}

static const lg_sizes i386_packed = { 4, 4, 4, 4, 0, true, false };
static const lg_sizes i386_aligned = { 4, 4, 4, 4, 4, true, false };
static const lg_sizes i386_aligned_v25 = { 4, 4, 4, 4, 4, false, false };
static const lg_sizes x86_64_aligned = { 4, 8, 8, 8, 8, true, false };

static void check_format(const char *name, const char *format, const lg_sizes *s, const char *want)
{
	tc_pool pool;
	tc_pool_init(&pool);
	lg_type *t = NULL;
	char got[1024] = "";
	int rc = lg_marker_compile(&pool, format, s, &t);
	if (rc == 0)
		describe(t, got, sizeof got);
	check(rc == 0 && strcmp(got, want) == 0, name, "format \"%s\": got \"%s\", expected \"%s\"", format, got, want);
	tc_pool_free(&pool);
}

static void test_formats(void)
{
	check_format("format/sched_schedule", "prev_pid %d next_pid %d prev_state #2d%ld", &i386_packed,
	             "prev_pid:s4@1 next_pid:s4@1 prev_state:s2@1");
	check_format("format/core_marker_id",
	             "channel %s name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u",
	             &i386_aligned,
	             "channel:str name:str event_id:u2@2 int:u1@1 long:u1@1 pointer:u1@1 size_t:u1@1 alignment:u1@1");
	/* QUIRK 1: "#1%d" eats the '%', so no field at all */
	check_format("format/quirk-1", "irqstate #1%d", &i386_packed, "");
	/* a name is the first word after the previous field: "a" here */
	check_format("format/quirk-1-then-field", "a #1%d b %d", &i386_packed, "a:s4@1");
	check_format("format/network", "port #n2u%hu addr #n4u%lu", &i386_aligned, "port:u2@2n addr:u4@4n");
	check_format("format/pointer-trace-type", "address #p%lu write_access #1u%u", &x86_64_aligned,
	             "address:u8@8 write_access:u1@1");
	/* the C conversion letter decides the base, the trace type the size */
	check_format("format/hex-c-type", "ip 0x%lX flags #1x%c", &i386_packed, "ip:x4@1 flags:u1@1");
	check_format("format/pointer", "addr %p", &x86_64_aligned, "addr:x8@8");
	check_format("format/long-long", "count %llu delta %lld off %o", &i386_aligned,
	             "count:u8@4 delta:s8@4 off:o4@4");
	check_format("format/v25-natural", "count %llu", &i386_aligned_v25, "count:u8@8");
	check_format("format/size-t", "len %zu diff %zd", &x86_64_aligned, "len:u8@8 diff:s8@8");
	check_format("format/unnamed", "%d %s", &i386_packed, "field 1:s4@1 field 2:str");
	check_format("format/name-with-parens", "rw(FAILFAST_DRIVER,...,RW) %d", &i386_packed,
	             "rw(FAILFAST_DRIVER,...,RW):s4@1");
	check_format("format/literals", "pct %% hash ## v %u", &i386_packed, "pct:u4@1");
	check_format("format/flags-skipped", "w %-#lu", &x86_64_aligned, "w:u8@8");
	/* no field width: "%-08lu" stops at the 8, and makes no field */
	check_format("format/width-unsupported", "w %-08lu", &x86_64_aligned, "");
	check_format("format/string-wins", "comm #8u%s", &i386_packed, "comm:str");
	check_format("format/unknown-letter", "f %q g %u", &i386_packed, "g:u4@1");
	check_format("format/empty", "", &i386_packed, "");
	check_format("format/trailing-hash", "x #", &i386_packed, "");
	check_format("format/trailing-percent", "x %", &i386_packed, "");
	check_format("format/trailing-qualifier", "x #2", &i386_packed, "");
}

/* The worked example's kernel_0 payloads (format 2.6): demo (pid, prio,
 * comm) and big (flag, addr, count), packed little-endian 32-bit. */
static void test_decode(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	lg_type *demo, *big;
	const uint8_t block[] = { 0xd2, 0x04, 0x00, 0x00, 0x78, 'b', 'a', 's', 'h', 0x00, 0x01, 0x00, 0xee,
		                  0xff, 0xc0, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00 };
	int rc = lg_marker_compile(&pool, "pid %d prio #1u%u comm %s", &i386_packed, &demo);
	if (rc == 0)
		rc = lg_marker_compile(&pool, "flag #1u%u addr %p count %llu", &i386_packed, &big);
	tc_field_class *demo_cls = rc == 0 ? lg_payload_class(&pool, demo) : NULL;
	tc_field_class *big_cls = rc == 0 ? lg_payload_class(&pool, big) : NULL;
	lg_decoder d = { .data = block, .end = sizeof block };
	tc_field f;
	size_t pos = 0;
	rc = demo_cls && big_cls ? lg_decode(&d, demo, demo_cls, &pos, &f) : -1;
	check(rc == 0 && pos == 10 && f.v.compound.count == 3 && f.v.compound.items[0].v.s == 1234 &&
	              f.v.compound.items[1].v.u == 120 && f.v.compound.items[2].v.str.len == 4 &&
	              memcmp(f.v.compound.items[2].v.str.ptr, "bash", 4) == 0,
	      "decode/demo", "rc %d, end %zu", rc, pos);
	rc = rc == 0 ? lg_decode(&d, big, big_cls, &pos, &f) : -1;
	check(rc == 0 && pos == sizeof block && f.v.compound.items[0].v.u == 1 &&
	              f.v.compound.items[1].v.u == 0xC0FFEE00u && f.v.compound.items[2].v.u == 7,
	      "decode/big", "rc %d, end %zu", rc, pos);
	/* the same string with its NUL cut off by the end of the data */
	lg_decoder cut = { .data = block, .end = 8 };
	pos = 0;
	rc = lg_decode(&cut, demo, demo_cls, &pos, &f);
	check(rc == TC_EFORMAT && cut.error_pos == 5 && strstr(cut.error, "NUL"), "decode/string-past-end",
	      "rc %d at %zu", rc, cut.error_pos);
	/* a sign-extended 2-byte value */
	lg_type *neg;
	const uint8_t minus[] = { 0xfe, 0xff };
	lg_decoder dn = { .data = minus, .end = sizeof minus };
	pos = 0;
	rc = lg_marker_compile(&pool, "prev_state #2d%ld", &i386_packed, &neg);
	tc_field_class *neg_cls = rc == 0 ? lg_payload_class(&pool, neg) : NULL;
	rc = neg_cls ? lg_decode(&dn, neg, neg_cls, &pos, &f) : -1;
	check(rc == 0 && f.v.compound.items[0].v.s == -2, "decode/sign-extension", "rc %d", rc);
	free(d.slots);
	free(cut.slots);
	free(dn.slots);
	tc_pool_free(&pool);
}

/* Member names become CTF identifiers shown without their leading '_'. */
static void test_names(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	lg_type *t;
	int rc = lg_marker_compile(&pool, "int %d rw(A,B) %d %d x %d x %d", &i386_packed, &t);
	tc_field_class *c = rc == 0 ? lg_payload_class(&pool, t) : NULL;
	static const char *const want[] = { "_int", "_rw_A_B_", "_field_3", "_x", "_x_2" };
	bool ok = c && c->member_count == 5;
	for (size_t i = 0; ok && i < 5; i++)
		ok = strcmp(c->members[i].name, want[i]) == 0 && strcmp(c->members[i].display_name, want[i] + 1) == 0;
	check(ok, "names/identifiers", "got %s %s %s %s %s", ok || !c ? "" : c->members[0].name,
	      c && c->member_count > 1 ? c->members[1].name : "", c && c->member_count > 2 ? c->members[2].name : "",
	      c && c->member_count > 3 ? c->members[3].name : "", c && c->member_count > 4 ? c->members[4].name : "");
	tc_pool_free(&pool);
}

int main(void)
{
	test_formats();
	test_decode();
	test_names();
	return n_fail != 0;
}
