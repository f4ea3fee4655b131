/* SPDX-License-Identifier: MIT */
/*
 * lttng_legacy_facility_test.c - unit tests for src/lttng_legacy/facility.c:
 * LTTng 0.x XML facility descriptions parsed into payload layouts
 * (doc/formats/lttng-legacy.md §7.3).
 *
 * The descriptions are cut down from the XML files in LTTV's
 * ltt-control/facilities (kernel, kernel_arch_i386, net, compact) and from
 * the unquoted files of its older branches, plus constructed ones for the types no shipped file
 * uses (struct, union, array, float).  Each is laid out for i386 without
 * alignment, i386 with alignment 4 and x86_64 with alignment 8.  Checksums
 * are checked against the spec's test vector and against values computed by
 * a second implementation, in Python (the command is above each constant).
 * Malformed files must fail with TC_EFORMAT at the right offset; every
 * prefix and many one-byte mutations of a real file must parse or fail
 * cleanly, which the sanitizer build checks.  Every text is handed over in
 * a buffer of exactly its length, without a NUL, so reading past it shows.
 * One line per check, "PASS name" or "FAIL name: ..."; exit status 0 when
 * everything passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng_legacy/legacy.h"
#include "check.h"

static const char *last_error(void)
{
	static char buf[2048];
	tc_error_format(tc_error_last(), buf, sizeof buf);
	return buf;
}

static const lg_sizes i386_packed = { 4, 4, 4, 4, 0, true, false };
static const lg_sizes i386_aligned = { 4, 4, 4, 4, 4, true, false };
static const lg_sizes x86_64_aligned = { 4, 8, 8, 8, 8, true, false };

/* Parses the first LEN bytes of TEXT from an exact-size copy. */
static int parse_n(tc_pool *pool, const char *text, size_t len, const lg_sizes *sizes, lg_facility **out)
{
	char *copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, text, len);
	*out = NULL;
	int rc = lg_facility_parse(pool, "test.xml", copy, len, sizes, out);
	free(copy);
	return rc;
}

static lg_facility *parse(tc_pool *pool, const char *name, const char *text, const lg_sizes *sizes)
{
	lg_facility *fac;
	int rc = parse_n(pool, text, strlen(text), sizes, &fac);
	check(rc == 0 && fac, name, "rc %d: %s", rc, last_error());
	return rc == 0 ? fac : NULL;
}

/* A compact description of a layout, to compare whole trees at once: kind
 * letter (iefsaqSU in lg_kind's order), size or element count, then 'a'
 * align and 'r' realign when not 1, 's' signed, 'b' big-endian, 'x' hex,
 * then children in brackets. */
static void describe(const lg_type *t, char *buf, size_t size)
{
	size_t n = strlen(buf);
	if (n + 40 >= size)
		return;
	static const char kinds[] = "iefsaqSU";
	char *o = buf + n;
	o += sprintf(o, "%c", kinds[t->kind]);
	bool scalar = t->kind == LG_INT || t->kind == LG_ENUM || t->kind == LG_FLOAT;
	if (scalar)
		o += sprintf(o, "%u", t->size);
	if (t->kind == LG_ARRAY)
		o += sprintf(o, "%llu", (unsigned long long)t->count);
	if (t->align != 1)
		o += sprintf(o, "a%u", t->align);
	if (t->realign != 1)
		o += sprintf(o, "r%u", t->realign);
	if (t->is_signed && t->kind != LG_FLOAT)
		o += sprintf(o, "s");
	if (t->big_endian && scalar)
		o += sprintf(o, "b");
	if (t->base == 16)
		o += sprintf(o, "x");
	switch (t->kind) {
	case LG_ARRAY:
		strcat(buf, "[");
		describe(t->element, buf, size);
		strcat(buf, "]");
		break;
	case LG_SEQUENCE:
		strcat(buf, "[");
		describe(t->length, buf, size);
		strcat(buf, ",");
		describe(t->element, buf, size);
		strcat(buf, "]");
		break;
	case LG_STRUCT:
	case LG_UNION:
		strcat(buf, "{");
		for (size_t i = 0; i < t->member_count; i++) {
			if (strlen(buf) + 40 >= size)
				return;
			strcat(buf, i ? " " : "");
			strcat(buf, t->members[i].name);
			strcat(buf, ":");
			describe(t->members[i].type, buf, size);
		}
		strcat(buf, "}");
		break;
	default:
		break;
	}
}

static void check_layout(const char *name, const lg_facility *fac, size_t event, const char *want)
{
	char buf[4096] = "";
	if (fac && event < fac->event_count)
		describe(fac->events[event].payload, buf, sizeof buf);
	check(strcmp(buf, want) == 0, name, "got \"%s\", expected \"%s\"", buf, want);
}

/* ------------------------------------------------------------------------
 * Checksum
 */

static void test_checksum_vector(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	lg_facility *fac = parse(&pool, "vector_parses",
	                         "<facility name=\"demo\"><event name=\"ev\"><field name=\"a\"><int/></field></event></facility>",
	                         &i386_packed);
	check(fac && fac->checksum == 0xEC813811u, "vector_checksum", "got 0x%08X, expected 0xEC813811",
	      fac ? fac->checksum : 0);
	fac = parse(&pool, "vector_name_only_parses", "<facility name=\"demo\"></facility>", &i386_packed);
	check(fac && fac->checksum == 0xD642DFA0u && fac->event_count == 0, "vector_name_only",
	      "got 0x%08X, expected the CRC-32 of \"demo\", 0xD642DFA0", fac ? fac->checksum : 0);
	tc_pool_free(&pool);
}

/* ------------------------------------------------------------------------
 * A real facility: ltt-control's kernel.xml and kernel_arch_i386.xml, cut
 * down to one event of each kind of layout, descriptions kept.
 */

static const char kernel_xml[] =
	"<?xml version=\"1.0\"?>\n"
	"<!-- cut down from ltt-control/facilities/kernel.xml and kernel_arch_i386.xml -->\n"
	"<facility name=\"kernel\">\n"
	"  <description>The kernel facility has events related to kernel execution status.</description>\n"
	"\n"
	"  <type name=\"irq_mode\">\n"
	"    <enum>\n"
	"      <label name=\"user\" value=\"0\"/> <description>User context</description>\n"
	"      <label name=\"kernel\" value=\"1\"/> <description>Kernel context</description>\n"
	"    </enum>\n"
	"  </type>\n"
	"\n"
	"  <event name=\"irq_entry\">\n"
	"    <description>Entry in an irq</description>\n"
	"    <field name=\"irq_id\"> <description>IRQ number</description> <uint size=\"4\"/> </field>\n"
	"    <field name=\"mode\"> <description>Are we executing kernel code</description><typeref name=\"irq_mode\"/> </field>\n"
	"  </event>\n"
	"\n"
	"  <event name=\"irq_exit\">\n"
	"    <description>Exit from an IRQ</description>\n"
	"  </event>\n"
	"\n"
	"  <event name=\"sched_schedule\">\n"
	"    <description>Process exit</description>\n"
	"    <field name=\"prev_pid\"> <description>Previously scheduled PID</description> <int/> </field>\n"
	"    <field name=\"next_pid\"> <description>Next PID to be scheduled</description> <int/> </field>\n"
	"    <field name=\"state\"> <description>State of the process we are waiting for : -1 unrunnable, 0 runnable, >0 stopped</description> <long/> </field>\n"
	"  </event>\n"
	"\n"
	"  <event name=\"vprintk\">\n"
	"    <description>Kernel vprintk</description>\n"
	"    <field name=\"loglevel\"> <description>loglevel</description>\n"
	"      <uint size=\"1\"/>\n"
	"    </field>\n"
	"    <field name=\"text\"> <description>printk string</description>\n"
	"      <sequence>\n"
	"        <uint/>\n"
	"        <uchar/>\n"
	"      </sequence>\n"
	"    </field>\n"
	"    <field name=\"ip\"> <description>Instruction</description>\n"
	"      <pointer/>\n"
	"    </field>\n"
	"  </event>\n"
	"\n"
	"  <event name=\"module_load\">\n"
	"    <description>Load module</description>\n"
	"    <field name=\"name\"> <description>Module name</description>\n"
	"      <string/>\n"
	"    </field>\n"
	"    <field name=\"jiffies\"><uint_fixed size=\"8\"/></field>\n"
	"  </event>\n"
	"\n"
	"  <event name=\"syscall_entry\">\n"
	"    <description>System call entry</description>\n"
	"    <field name=\"address\"> <description>Address from which call was made</description> <ulong format=\"%#x\"/> </field>\n"
	"  </event>\n"
	"\n"
	"</facility>\n";

/*
 * python3 -c "
 * import zlib
 * def cont(c, parts):
 *     for s in parts:
 *         for b in s.encode():
 *             c ^= b
 *             for _ in range(8): c = (c >> 1) ^ (0xEDB88320 if c & 1 else 0)
 *     return c
 * print(hex(cont(zlib.crc32(b'kernel'), ['irq_entry','irq_id','uint','mode','enum','user','kernel',
 *     'irq_exit','sched_schedule','prev_pid','int','next_pid','int','state','long','vprintk','loglevel',
 *     'uint','text','sequence ','uint','unsigned char','ip','void *','module_load','name','string',
 *     'jiffies','uint64_t','syscall_entry','address','unsigned long','%#x'])))"
 */
#define KERNEL_CHECKSUM 0xEE308636u

static void test_kernel(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	static const char *const names[] = { "irq_entry", "irq_exit", "sched_schedule", "vprintk", "module_load",
		                             "syscall_entry" };
	const lg_facility *fac = parse(&pool, "kernel_i386_packed_parses", kernel_xml, &i386_packed);
	bool names_ok = fac && fac->event_count == 6 && strcmp(fac->name, "kernel") == 0;
	for (size_t i = 0; names_ok && i < 6; i++)
		names_ok = strcmp(fac->events[i].name, names[i]) == 0 && !fac->events[i].compact_data &&
		           fac->events[i].payload->kind == LG_STRUCT;
	check(names_ok, "kernel_events_in_file_order", "facility or event names differ");
	check(fac && fac->checksum == KERNEL_CHECKSUM, "kernel_checksum_matches_python", "got 0x%08X, expected 0x%08X",
	      fac ? fac->checksum : 0, KERNEL_CHECKSUM);
	check_layout("kernel_i386_packed_irq_entry", fac, 0, "S{irq_id:i4 mode:e4}");
	check_layout("kernel_i386_packed_irq_exit", fac, 1, "S{}");
	check_layout("kernel_i386_packed_sched_schedule", fac, 2, "S{prev_pid:i4s next_pid:i4s state:i4s}");
	check_layout("kernel_i386_packed_vprintk", fac, 3, "S{loglevel:i4 text:q[i4,i1] ip:i4x}");
	check_layout("kernel_i386_packed_module_load", fac, 4, "S{name:s jiffies:i8}");
	check_layout("kernel_i386_packed_syscall_entry", fac, 5, "S{address:i4x}");
	const lg_type *mode = fac && fac->event_count ? fac->events[0].payload->members[1].type : NULL;
	check(mode && mode->label_count == 2 && strcmp(mode->labels[0].name, "user") == 0 && mode->labels[0].value == 0 &&
	          strcmp(mode->labels[1].name, "kernel") == 0 && mode->labels[1].value == 1 && !mode->is_signed,
	      "kernel_enum_labels", "irq_mode's labels differ");

	fac = parse(&pool, "kernel_i386_aligned_parses", kernel_xml, &i386_aligned);
	check(fac && fac->checksum == KERNEL_CHECKSUM, "kernel_checksum_independent_of_sizes", "got 0x%08X",
	      fac ? fac->checksum : 0);
	check_layout("kernel_i386_aligned_irq_entry", fac, 0, "Sa4{irq_id:i4a4 mode:e4a4}");
	check_layout("kernel_i386_aligned_irq_exit", fac, 1, "S{}");
	check_layout("kernel_i386_aligned_sched_schedule", fac, 2, "Sa4{prev_pid:i4a4s next_pid:i4a4s state:i4a4s}");
	check_layout("kernel_i386_aligned_vprintk", fac, 3, "Sa4{loglevel:i4a4 text:qa4r4[i4a4,i1] ip:i4a4x}");
	/* An 8-byte value sits on 4 bytes when the word is 4 (§4). */
	check_layout("kernel_i386_aligned_module_load", fac, 4, "Sa4{name:sr4 jiffies:i8a4}");
	check_layout("kernel_i386_aligned_syscall_entry", fac, 5, "Sa4{address:i4a4x}");

	fac = parse(&pool, "kernel_x86_64_parses", kernel_xml, &x86_64_aligned);
	check_layout("kernel_x86_64_irq_entry", fac, 0, "Sa4{irq_id:i4a4 mode:e4a4}");
	check_layout("kernel_x86_64_sched_schedule", fac, 2, "Sa8{prev_pid:i4a4s next_pid:i4a4s state:i8a8s}");
	check_layout("kernel_x86_64_vprintk", fac, 3, "Sa8{loglevel:i4a4 text:qa4r8[i4a4,i1] ip:i8a8x}");
	check_layout("kernel_x86_64_module_load", fac, 4, "Sa8{name:sr8 jiffies:i8a8}");
	check_layout("kernel_x86_64_syscall_entry", fac, 5, "Sa8{address:i8a8x}");

	lg_sizes big = x86_64_aligned;
	big.big_endian = true;
	fac = parse(&pool, "kernel_big_endian_parses", kernel_xml, &big);
	check_layout("kernel_big_endian_vprintk", fac, 3, "Sa8{loglevel:i4a4b text:qa4r8[i4a4b,i1b] ip:i8a8bx}");
	tc_pool_free(&pool);
}

/* Every prefix of a file cut before </facility> is an error at or before
 * the cut; from there on the file is whole. */
static void test_kernel_truncated(void)
{
	size_t len = strlen(kernel_xml);
	size_t whole = (size_t)(strstr(kernel_xml, "</facility>") - kernel_xml) + strlen("</facility>");
	size_t bad = 0;
	char first[256] = "";
	for (size_t n = 0; n <= len; n++) {
		tc_pool pool;
		tc_pool_init(&pool);
		lg_facility *fac;
		int rc = parse_n(&pool, kernel_xml, n, &i386_aligned, &fac);
		bool ok = n < whole ? rc == TC_EFORMAT && tc_error_last()->offset >= 0 &&
		                          (size_t)tc_error_last()->offset <= n
		                    : rc == 0 && fac->event_count == 6;
		if (!ok && !bad++)
			snprintf(first, sizeof first, "prefix %zu: rc %d: %s", n, rc, last_error());
		tc_pool_free(&pool);
	}
	check(bad == 0, "kernel_every_prefix", "%zu prefixes wrong, first %s", bad, first);
}

/* One byte replaced at every position by characters that matter to the
 * tokenizer: the parse succeeds or fails with TC_EFORMAT inside the text. */
static void test_kernel_mutated(void)
{
	static const char replacements[] = { '<', '>', '/', '"', '=', ' ', 'x', '\0', '-', '!' };
	size_t len = strlen(kernel_xml);
	char *copy = malloc(len);
	if (!copy)
		abort();
	size_t bad = 0, failed = 0;
	char first[256] = "";
	for (size_t i = 0; i < len; i++) {
		for (size_t r = 0; r < sizeof replacements; r++) {
			memcpy(copy, kernel_xml, len);
			copy[i] = replacements[r];
			tc_pool pool;
			tc_pool_init(&pool);
			lg_facility *fac;
			int rc = parse_n(&pool, copy, len, &x86_64_aligned, &fac);
			failed += rc != 0;
			bool ok = rc == 0 || (rc == TC_EFORMAT && tc_error_last()->offset >= 0 &&
			                      (size_t)tc_error_last()->offset <= len);
			if (!ok && !bad++)
				snprintf(first, sizeof first, "byte %zu = 0x%02x: rc %d: %s", i, (unsigned char)replacements[r], rc,
				         last_error());
			tc_pool_free(&pool);
		}
	}
	free(copy);
	check(bad == 0 && failed > 0, "kernel_mutations", "%zu wrong (first %s), %zu failed", bad, first, failed);
}

/* ------------------------------------------------------------------------
 * Old files: unquoted values, bare attributes, leaf types without slash
 * (LTTV's ltt/branches/poly/facilities/core.xml and tests/facilities/tests.xml)
 */

static const char old_core_xml[] =
	"<facility name=core>\n"
	"  <description>The core facility contains the basic tracing related events</description>\n"
	"\t\n"
	"  <type name=timestamp>\n"
	"\t\t<struct>\n"
	"\t\t\t<field name=\"seconds\"><uint size=4/></field>\n"
	"\t\t\t<field name=\"nanoseconds\"><uint size=4/></field>\n"
	"\t\t\t<field name=\"cycle_count\"><uint_fixed size=8/></field>\n"
	"\t\t</struct>\n"
	"  </type>\n"
	"  <type name=state>\n"
	"    <enum size=4> <label name=A/> <label name=B value=5/> <label name=C/> </enum>\n"
	"  </type>\n"
	"\n"
	"  <event name=facility_load per_tracefile>\n"
	"    <description>Facility is loaded</description>\n"
	"\t\t<field name=\"name\"><string/></field>\n"
	"\t\t<field name=\"checksum\"><uint size=4/></field>\n"
	"  </event>\n"
	"\n"
	"  <event name=time_heartbeat per_tracefile>\n"
	"\t\t<field name=\"timestamp\"><typeref name=timestamp/></field>\n"
	"  </event>\n"
	"\n"
	"  <event name=write_4bytes per_trace>\n"
	"\t\t<field name=data><int size=\"4\"></field>\n"
	"\t\t<field name=more><int size=\"4\"></int></field>\n"
	"\t\t<field name=st><typeref name=state></typeref></field>\n"
	"  </event>\n"
	"</facility>\n";

static void test_old_unquoted(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	const lg_facility *fac = parse(&pool, "old_unquoted_parses", old_core_xml, &i386_aligned);
	check(fac && strcmp(fac->name, "core") == 0 && fac->event_count == 3 &&
	          strcmp(fac->events[0].name, "facility_load") == 0 && strcmp(fac->events[1].name, "time_heartbeat") == 0 &&
	          strcmp(fac->events[2].name, "write_4bytes") == 0,
	      "old_unquoted_names", "names differ");
	check_layout("old_unquoted_facility_load", fac, 0, "Sa4{name:sr4 checksum:i4a4}");
	check_layout("old_unquoted_time_heartbeat", fac, 1,
	             "Sa4{timestamp:Sa4{seconds:i4a4 nanoseconds:i4a4 cycle_count:i8a4}}");
	check_layout("old_unquoted_write_4bytes", fac, 2, "Sa4{data:i4a4s more:i4a4s st:e4a4}");
	const lg_type *st = fac && fac->event_count == 3 ? fac->events[2].payload->members[2].type : NULL;
	check(st && st->label_count == 3 && st->labels[0].value == 0 && st->labels[1].value == 5 &&
	          st->labels[2].value == 6 && strcmp(st->labels[2].name, "C") == 0,
	      "old_unquoted_enum_counts_up", "labels differ");
	tc_pool_free(&pool);
}

/* ------------------------------------------------------------------------
 * Byte order, compact data, the facility's align attribute
 */

static const char net_xml[] =
	"<?xml version=\"1.0\"?>\n"
	"<facility name=\"net\">\n"
	"\t<event name=\"dev_xmit\">\n"
	"\t\t<field name=\"skbuff\"><pointer/></field>\n"
	"\t\t<field name=\"protocol\"><uint_fixed size=\"2\" byte_order=\"network\"/></field>\n"
	"\t\t<field name=\"addr\"><uint size=\"4\" byte_order=network/></field>\n"
	"\t\t<field name=\"old\"><ushort network/></field>\n"
	"\t</event>\n"
	"</facility>\n";

static void test_network(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	const lg_facility *fac = parse(&pool, "network_parses", net_xml, &i386_packed);
	check_layout("network_little_endian_trace", fac, 0, "S{skbuff:i4x protocol:i2b addr:i4b old:i2b}");
	lg_sizes big = i386_packed;
	big.big_endian = true;
	fac = parse(&pool, "network_big_endian_parses", net_xml, &big);
	check_layout("network_big_endian_trace", fac, 0, "S{skbuff:i4bx protocol:i2b addr:i4b old:i2b}");
	tc_pool_free(&pool);
}

static const char compact_xml[] =
	"<?xml version=\"1.0\"?>\n"
	"<facility name=\"compact\" align=\"0\">\n"
	"  <description>The compact facility contains high rate compact events.</description>\n"
	"  <event name=\"time_heartbeat_full\" scope=\"tracefile\" scope=\"trace\" attribute=\"force\">\n"
	"\t\t<field name=\"tsc\"><uint_fixed size=\"8\"/></field>\n"
	"  </event>\n"
	"  <event name=\"event_c\">\n"
	"    <field name=\"data1\"> <uint_fixed size=\"8\"/> </field>\n"
	"  </event>\n"
	"  <event name=\"event_d\" attribute=\"compact_data\">\n"
	"    <field name=\"data1\"> <uint_fixed size=\"4\"/> </field>\n"
	"  </event>\n"
	"  <event name=\"event_e\" attribute=\"compact_data\">\n"
	"    <field name=\"data1\"> <uint_fixed size=\"4\"/> </field>\n"
	"    <field name=\"data2\"> <uint_fixed size=\"8\"/> </field>\n"
	"  </event>\n"
	"  <event name=event_f compact_data>\n"
	"    <field name=\"data1\"> <uint_fixed size=\"4\"/> </field>\n"
	"  </event>\n"
	"  <event name=\"event_g\" attribute=\"not_compact_data\"/>\n"
	"</facility>\n";

static void test_compact(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	const lg_facility *fac = parse(&pool, "compact_parses", compact_xml, &i386_aligned);
	static const bool want[] = { false, false, true, true, true, false };
	bool ok = fac && fac->event_count == 6;
	for (size_t i = 0; ok && i < 6; i++)
		ok = fac->events[i].compact_data == want[i];
	check(ok, "compact_data_attribute", "compact_data flags differ");
	/* align="0": packed although the trace aligns. */
	check_layout("compact_align0_packed", fac, 3, "S{data1:i4 data2:i8}");
	check_layout("compact_empty_event_element", fac, 5, "S{}");

	static const char align4[] = "<facility name=\"f\" align=\"4\"><event name=\"e\"><field name=\"a\"><uint_fixed "
	                             "size=\"8\"/></field></event></facility>";
	fac = parse(&pool, "facility_align_nonzero_parses", align4, &i386_aligned);
	check_layout("facility_align_nonzero_keeps_trace_rule", fac, 0, "Sa4{a:i8a4}");
	tc_pool_free(&pool);
}

/* ------------------------------------------------------------------------
 * Composite types and enums
 */

static const char nest_xml[] =
	"<facility name=\"nest\">\n"
	" <type name=\"pair\"><struct>\n"
	"   <field name=\"a\"><array size=\"3\"><short/></array></field>\n"
	"   <field name=\"u\"><union>\n"
	"       <field name=\"x\"><int_fixed size=\"8\"/></field>\n"
	"       <field name=\"y\"><float size=\"4\"/></field>\n"
	"       <field name=\"s\"><string/></field>\n"
	"   </union></field>\n"
	" </struct></type>\n"
	" <event name=\"e\">\n"
	"   <field name=\"p\"><typeref name=\"pair\"/></field>\n"
	"   <field name=\"seq\"><sequence><uint_fixed size=\"2\"/><typeref name=\"pair\"/></sequence></field>\n"
	"   <field name=\"d\"><float size=\"8\"/></field>\n"
	"   <field name=\"c\"><char/></field>\n"
	"   <field name=\"arr\"><array size=\"2\"><string/></array></field>\n"
	" </event>\n"
	"</facility>\n";

/* Same Python function as KERNEL_CHECKSUM, with pair = ['struct','a','array 3','short','u','union',
 * 'x','int64_t','y','float','s','string']:
 * cont(zlib.crc32(b'nest'), ['e','p'] + pair + ['seq','sequence ','uint16_t'] + pair +
 *      ['d','double','c','signed char','arr','array 2','string']) */
#define NEST_CHECKSUM 0x4564299Eu

static void test_nested(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	const lg_facility *fac = parse(&pool, "nested_parses", nest_xml, &x86_64_aligned);
	const char *pair = "Sa8{a:a3a2[i2a2s] u:Ua8{x:i8a8s y:f4a4 s:sr8}}";
	char want[512];
	snprintf(want, sizeof want, "Sa8{p:%s seq:qa8r8[i2a2,%s] d:f8a8 c:i1s arr:a2[sr8]}", pair, pair);
	check_layout("nested_x86_64", fac, 0, want);
	const lg_type *payload = fac && fac->event_count ? fac->events[0].payload : NULL;
	check(payload && payload->members[0].type == payload->members[1].type->element, "nested_typeref_shared",
	      "a typeref should give the named type itself");
	check(fac && fac->checksum == NEST_CHECKSUM, "nested_checksum_matches_python", "got 0x%08X, expected 0x%08X",
	      fac ? fac->checksum : 0, NEST_CHECKSUM);
	fac = parse(&pool, "nested_packed_parses", nest_xml, &i386_packed);
	snprintf(want, sizeof want, "S{p:S{a:a3[i2s] u:U{x:i8s y:f4 s:s}} seq:q[i2,S{a:a3[i2s] u:U{x:i8s y:f4 s:s}}] "
	                            "d:f8 c:i1s arr:a2[s]}");
	check_layout("nested_packed", fac, 0, want);
	tc_pool_free(&pool);
}

static void test_enum_values(void)
{
	tc_pool pool;
	tc_pool_init(&pool);
	static const char xml[] =
		"<facility name=\"e\"><type name=\"t\"><enum format=\"%d\"><label name=\"neg\" value=\"-1\"/>"
		"<label name=\"zero\"/><label name=\"hex\" value=\"0x10\"/><label name=\"next\"/></enum></type>"
		"<event name=\"a\"><field name=\"f\"><typeref name=\"t\"/></field></event></facility>";
	const lg_facility *fac = parse(&pool, "enum_parses", xml, &x86_64_aligned);
	const lg_type *t = fac && fac->event_count ? fac->events[0].payload->members[0].type : NULL;
	check(t && t->kind == LG_ENUM && t->size == 4 && t->align == 4 && t->is_signed && t->label_count == 4 &&
	          t->labels[0].value == -1 && t->labels[1].value == 0 && t->labels[2].value == 16 &&
	          t->labels[3].value == 17,
	      "enum_negative_is_signed_and_counts_up", "enum differs");
	tc_pool_free(&pool);
}

/* ------------------------------------------------------------------------
 * Malformed descriptions
 */

typedef struct bad_case {
	const char *name;
	const char *text;
	const char *at;        /* the error's offset: where this text first starts */
	const char *message;   /* a part of the message */
} bad_case;

#define EV(fields) "<facility name=\"x\"><event name=\"e\">" fields "</event></facility>"

static const bad_case bad_cases[] = {
	{ "bad_empty", "", "", "expected <facility>, found the end" },
	{ "bad_not_a_facility", "<event name=\"x\"/>", "<event", "expected <facility>" },
	{ "bad_unterminated", "<facility name=\"x\">\n<event name=\"e\">", "", "expected <field> or </event>, found the end" },
	{ "bad_missing_field_close", EV("<field name=\"a\"><int/></event>"), "</event>", "expected </field>" },
	{ "bad_field_without_type", EV("<field name=\"a\"></field>"), "</field>", "expected a type inside <field>" },
	{ "bad_event_without_name", "<facility name=\"x\"><event><field name=\"a\"><int/></field></event></facility>",
	  "<event>", "expected a name" },
	{ "bad_int_fixed_size", EV("<field name=\"a\"><int_fixed size=\"3\"/></field>"), "<int_fixed", "size=" },
	{ "bad_int_fixed_no_size", EV("<field name=\"a\"><uint_fixed/></field>"), "<uint_fixed", "size=" },
	{ "bad_int_fixed_negative_size", EV("<field name=\"a\"><uint_fixed size=\"-4294967292\"/></field>"),
	  "<uint_fixed", "size=" },
	{ "bad_float_size", EV("<field name=\"a\"><float size=\"2\"/></field>"), "<float", "size=" },
	{ "bad_array_too_large", EV("<field name=\"a\"><array size=\"1048577\"><int/></array></field>"), "<array",
	  "size=N" },
	{ "bad_array_size_text", EV("<field name=\"a\"><array size=\"many\"><int/></array></field>"), "<array",
	  "64-bit integer" },
	{ "bad_forward_typeref",
	  "<facility name=\"x\"><event name=\"e\"><field name=\"a\"><typeref name=\"later\"/></field></event>"
	  "<type name=\"later\"><int/></type></facility>",
	  "<typeref", "no <type name=\"later\">" },
	{ "bad_self_typeref", "<facility name=\"x\"><type name=\"t\"><struct><field name=\"a\"><typeref name=\"t\"/>"
	                      "</field></struct></type></facility>",
	  "<typeref", "no <type name=\"t\">" },
	{ "bad_type_twice", "<facility name=\"x\"><type name=\"t\"><int/></type><type name=\"t\"><int/></type></facility>",
	  "<type name=\"t\"><int/></type></facility>", "defined twice" },
	{ "bad_unknown_type", EV("<field name=\"a\"><integer/></field>"), "<integer", "expected a type, not <integer>" },
	{ "bad_unterminated_quote", "<facility name=\"x>\n</facility>\n", "\"x", "closing \"" },
	{ "bad_unterminated_comment", "<!-- no end <facility name=\"x\"/>", "<!--", "'-->'" },
	{ "bad_unterminated_description", "<facility name=\"x\"><description>words <b>bold</b>", "<description>",
	  "</description>" },
	{ "bad_trailing_element", "<facility name=\"x\"/>\n<facility name=\"y\"/>", "<facility name=\"y\"",
	  "expected nothing after </facility>" },
	{ "bad_trailing_text", "<facility name=\"x\"></facility> junk", "junk", "found text" },
	{ "bad_text_between_tags", "<facility name=\"x\"> hello </facility>", "hello", "found text" },
	{ "bad_slash_without_gt", EV("<field name=\"a\"><int/ ></field>"), "/ >", "expected '>' after '/'" },
	{ "bad_sequence_one_type", EV("<field name=\"a\"><sequence><uint/></sequence></field>"), "</sequence>",
	  "expected the element type of <sequence>" },
	{ "bad_sequence_three_types", EV("<field name=\"a\"><sequence><uint/><int/><int/></sequence></field>"),
	  "<int/></sequence>", "expected </sequence>" },
	{ "bad_sequence_string_length", EV("<field name=\"a\"><sequence><string/><int/></sequence></field>"),
	  "<sequence", "integer type as the length" },
	{ "bad_label_overflow",
	  "<facility name=\"x\"><type name=\"t\"><enum><label name=\"a\" value=\"99999999999999999999\"/></enum></type>"
	  "</facility>",
	  "<label", "64-bit integer" },
	{ "bad_label_outside_enum", EV("<field name=\"a\"><enum><int/></enum></field>"), "<int/></enum>",
	  "expected <label> or </enum>" },
	{ "bad_two_types_in_field", EV("<field name=\"a\"><int/><int/></field>"), "<int/></field>",
	  "expected </field>" },
	{ "bad_tag_name", "<facility name=\"x\"><  event/></facility>", "<  event", "element name" },
	{ "bad_value_missing", "<facility name=></facility>", ">", "expected a value after name=" },
	{ "bad_stray_closing", "<facility name=\"x\"></event></facility>", "</event>", "expected <event>, <type>" },
};

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		const bad_case *c = &bad_cases[i];
		tc_pool pool;
		tc_pool_init(&pool);
		lg_facility *fac;
		int rc = parse_n(&pool, c->text, strlen(c->text), &i386_aligned, &fac);
		const char *at = *c->at ? strstr(c->text, c->at) : c->text + strlen(c->text);
		int64_t want = at ? at - c->text : -2;
		const tc_error *e = tc_error_last();
		check(rc == TC_EFORMAT && e->offset == want && strstr(e->message, c->message) && strcmp(e->path, "test.xml") == 0,
		      c->name, "rc %d, offset %lld, expected %lld and a message with \"%s\": %s", rc, (long long)e->offset,
		      (long long)want, c->message, last_error());
		tc_pool_free(&pool);
	}
}

/* Nesting deeper than 32 levels, written out or through typerefs, and
 * sizes the trace gives wrong. */
static void test_limits(void)
{
	tc_buf b = { 0 };
	tc_buf_printf(&b, "<facility name=\"x\"><event name=\"e\">");
	for (int i = 0; i < 40; i++)
		tc_buf_printf(&b, "<field name=\"f\"><struct>");
	tc_buf_printf(&b, "<field name=\"leaf\"><int/></field>");
	for (int i = 0; i < 40; i++)
		tc_buf_printf(&b, "</struct></field>");
	tc_buf_printf(&b, "</event></facility>");
	tc_pool pool;
	tc_pool_init(&pool);
	lg_facility *fac;
	int rc = parse_n(&pool, b.data, b.len, &i386_aligned, &fac);
	check(rc == TC_EFORMAT && strstr(tc_error_last()->message, "nested more than 32"), "limit_nesting_written",
	      "rc %d: %s", rc, last_error());

	/* t0 = int, tN = array of tN-1: each definition is shallow. */
	b.len = 0;
	tc_buf_printf(&b, "<facility name=\"x\"><type name=\"t0\"><int/></type>");
	for (int i = 1; i < 40; i++)
		tc_buf_printf(&b, "<type name=\"t%d\"><array size=\"1\"><typeref name=\"t%d\"/></array></type>", i, i - 1);
	tc_buf_printf(&b, "<event name=\"e\"><field name=\"f\"><typeref name=\"t39\"/></field></event></facility>");
	rc = parse_n(&pool, b.data, b.len, &i386_aligned, &fac);
	check(rc == TC_EFORMAT && strstr(tc_error_last()->message, "nested more than 32"), "limit_nesting_typerefs",
	      "rc %d: %s", rc, last_error());

	/* Exactly 32 levels, the payload struct included, is accepted. */
	b.len = 0;
	tc_buf_printf(&b, "<facility name=\"x\"><event name=\"e\">");
	for (int i = 0; i < 30; i++)
		tc_buf_printf(&b, "<field name=\"f\"><struct>");
	tc_buf_printf(&b, "<field name=\"leaf\"><int/></field>");
	for (int i = 0; i < 30; i++)
		tc_buf_printf(&b, "</struct></field>");
	tc_buf_printf(&b, "</event></facility>");
	rc = parse_n(&pool, b.data, b.len, &i386_aligned, &fac);
	check(rc == 0, "limit_nesting_32_accepted", "rc %d: %s", rc, last_error());

	/* Typerefs of typerefs double the checksum text at each level. */
	b.len = 0;
	tc_buf_printf(&b, "<facility name=\"x\"><type name=\"t0\"><string/></type>");
	for (int i = 1; i < 30; i++)
		tc_buf_printf(&b, "<type name=\"t%d\"><struct><field name=\"a\"><typeref name=\"t%d\"/></field>"
		                  "<field name=\"b\"><typeref name=\"t%d\"/></field></struct></type>",
		              i, i - 1, i - 1);
	tc_buf_printf(&b, "</facility>");
	rc = parse_n(&pool, b.data, b.len, &i386_aligned, &fac);
	check(rc == TC_EFORMAT && strstr(tc_error_last()->message, "checksum text"), "limit_checksum_text",
	      "rc %d: %s", rc, last_error());
	tc_buf_free(&b);

	static const char int_event[] = EV("<field name=\"a\"><int/></field>");
	lg_sizes odd = i386_aligned;
	odd.int_size = 3;
	rc = parse_n(&pool, int_event, strlen(int_event), &odd, &fac);
	check(rc == TC_EFORMAT && strstr(tc_error_last()->message, "int_size 3"), "limit_bad_int_size", "rc %d: %s", rc,
	      last_error());
	static const char string_event[] = EV("<field name=\"a\"><string/></field>");
	odd = i386_aligned;
	odd.pointer_size = 0;
	rc = parse_n(&pool, string_event, strlen(string_event), &odd, &fac);
	check(rc == TC_EFORMAT && strstr(tc_error_last()->message, "pointer_size 0"), "limit_bad_pointer_size",
	      "rc %d: %s", rc, last_error());
	tc_pool_free(&pool);
}

int main(void)
{
	test_checksum_vector();
	test_kernel();
	test_kernel_truncated();
	test_kernel_mutated();
	test_old_unquoted();
	test_network();
	test_compact();
	test_nested();
	test_enum_values();
	test_bad();
	test_limits();
	return n_fail ? 1 : 0;
}
