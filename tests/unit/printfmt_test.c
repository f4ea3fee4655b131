/* SPDX-License-Identifier: MIT */
/*
 * printfmt_test.c - the native print format plans (src/tracedat/printfmt.h)
 * against libtraceevent, the oracle, on random records.
 *
 * Event formats come from this machine's tracefs (every
 * /sys/kernel/tracing/events/SYSTEM/EVENT/format, with the kallsyms and
 * printk formats of the running kernel, and libtraceevent's plugins
 * loaded as trace-cmd loads them) and from every trace.dat file of
 * tests/fixtures/tracedat (set up as `tracecat report` sets them up).
 * For every format, ROUNDS records with random field values (numbers
 * small, large, negative, all ones, flag-like or kernel addresses; strings
 * and dynamic arrays of every length, empty ones, sockaddrs) are printed
 * with the plan and with tep_print_event(): the event text (for events no
 * plugin prints and whose plan is native, and for the plugin-printed events
 * whose handler the plan emulates) and -R's field list (for every event
 * with a plan), which must be equal byte for byte.
 *
 * Also looks addresses up in kallsyms (this machine's and a sample with
 * aliases, modules and the symbols libtraceevent skips) through printfmt's
 * table and through libtraceevent's own, which must agree.
 *
 * Prints one PASS or FAIL line per source, with how many of its formats
 * not printed by a plugin were compiled natively and how many records
 * were compared; fails when fewer than 95% of this machine's were, and
 * lists (on lines run.sh ignores) why the others were not.  Without
 * tracefs (not root, no kernel support) it prints "SKIP ...".
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <event-parse.h>

#include "core/core.h"
#include "tracedat/printfmt.h"
#include "tracedat/report.h"
#include "linked_tep.h"

#include "check.h"

#define ROUNDS 200
#define TRACEFS "/sys/kernel/tracing"
#define REC_CAP (1u << 16)

/* Kernel addresses to put in fields now and then: functions for %pS,
 * strings of the printk formats for %s of an address. */
static uint64_t *symbols;
static size_t n_symbols;

static void add_symbol(uint64_t addr)
{
	uint64_t *grown = realloc(symbols, (n_symbols + 1) * sizeof *symbols);
	if (grown) {
		symbols = grown;
		symbols[n_symbols++] = addr;
	}
}

/* A number of SIZE bytes worth printing: mostly small or flag-like
 * values (which hit the symbol and flag tables), some extremes. */
static uint64_t random_number(uint64_t *st, int size)
{
	uint64_t x = check_random(st);
	uint64_t mask = size >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * size)) - 1;
	switch (x % 10) {
	case 0: return 0;
	case 1: case 2: return (x >> 8) % 72;
	case 3: return ((uint64_t)1 << ((x >> 8) % (8 * (unsigned)size))) | ((x >> 20) & 0x13);
	case 4: return mask;
	case 5: return (0 - ((x >> 8) % 70 + 1)) & mask;
	case 6:
		if (n_symbols && size == 8)
			return symbols[(x >> 8) % n_symbols] + ((x >> 40) % 3 ? (x >> 44) % 200 : 0);
		return check_random(st) & mask;
	default: return check_random(st) & mask;
	}
}

static void put_number(uint8_t *p, int size, uint64_t v)
{
	/* The machine's byte order: the test traces are little-endian, as
	 * this machine is. */
	switch (size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
	case 8: memcpy(p, &v, 8); break;
	default:
		for (int i = 0; i < size; i++)
			p[i] = (uint8_t)check_random(&v);
	}
}

/* Fills BUF with a record of EV; returns its size, -1 if it cannot. */
static int random_record(struct tep_event *ev, uint64_t *st, uint8_t *buf)
{
	int end = 0;
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	for (int l = 0; l < 2; l++)
		for (struct tep_format_field *f = lists[l]; f; f = f->next)
			if (f->offset + f->size > end)
				end = f->offset + f->size;
	if ((unsigned)end + 4096 > REC_CAP)
		return -1;
	memset(buf, 0, (size_t)end);
	int pos = end;
	for (int l = 0; l < 2; l++) {
		for (struct tep_format_field *f = lists[l]; f; f = f->next) {
			uint8_t *p = buf + f->offset;
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && (f->size == 4 || f->size == 2)) {
				/* A string, bytes, or a sockaddr; sometimes empty. */
				uint64_t x = check_random(st);
				int len = (int)(x % 40);
				bool text = (f->flags & TEP_FIELD_IS_STRING) || x % 3 == 0;
				for (int k = 0; k < len; k++)
					buf[pos + k] = text ? (uint8_t)('a' + check_random(st) % 26) : (uint8_t)check_random(st);
				if (!text && len >= 28 && x % 5 < 3) {
					uint16_t family = x % 5 == 0 ? 2 : 10;
					memcpy(buf + pos, &family, 2);
				}
				int total = len;
				if (text || x % 4 == 0)
					buf[pos + total++] = 0;
				if (x % 9 == 0)
					total = 0;
				int off = (f->flags & TEP_FIELD_IS_RELATIVE) ? pos - (f->offset + f->size) : pos;
				uint32_t loc = f->size == 4 ? ((uint32_t)total << 16) | (uint32_t)(off & 0xffff) : (uint32_t)(off & 0xffff);
				put_number(p, f->size, loc);
				pos += total;
			} else if (f->flags & TEP_FIELD_IS_ARRAY) {
				uint64_t x = check_random(st);
				if ((f->flags & TEP_FIELD_IS_STRING) && x % 4) {
					int len = f->size > 0 ? (int)(check_random(st) % (uint64_t)f->size) : 0;
					for (int k = 0; k < len; k++)
						p[k] = (uint8_t)('a' + check_random(st) % 26);
					if (f->size > 0)
						p[len] = 0;
				} else {
					int el = f->elementsize >= 1 && f->elementsize <= 8 ? (int)f->elementsize : 1;
					for (int k = 0; k + el <= f->size; k += el)
						put_number(p + k, el, random_number(st, el));
				}
			} else if (f->size > 0) {
				put_number(p, f->size, random_number(st, f->size > 8 ? 8 : f->size));
			}
		}
	}
	struct tep_format_field *type = tep_find_common_field(ev, "common_type");
	if (type)
		put_number(buf + type->offset, type->size, (uint64_t)ev->id);
	return pos;
}

typedef struct stats {
	size_t formats, plugin, emulated, native, compared, left;
	/* Why the others are not native: reason and count. */
	const char *why[64];
	size_t why_count[64];
	size_t n_why;
	char first_failure[2048];
	size_t failures;
} stats;

static void count_why(stats *s, const char *why)
{
	for (size_t i = 0; i < s->n_why; i++)
		if (!strcmp(s->why[i], why)) {
			s->why_count[i]++;
			return;
		}
	if (s->n_why < 64) {
		s->why[s->n_why] = why;
		s->why_count[s->n_why++] = 1;
	}
}

/* What is compared: the event text by the print format or by the
 * emulated plugin handler, or -R's fields. */
enum { TEXT, HANDLER, FIELDS };

/* One record both ways: false (and the first difference remembered) when
 * the texts differ. */
static bool compare(stats *s, struct tep_handle *tep, struct tep_event *ev, const pf_plan *pl, uint8_t *buf, int size,
                    int what, uint8_t *known_pids, tc_buf *mine, struct trace_seq *theirs)
{
	bool fields = what == FIELDS;
	mine->len = 0;
	int rc = what == FIELDS ? pf_print_fields(pl, mine, buf, size)
	         : what == HANDLER ? pf_print_handler(pl, mine, buf, size, known_pids, true)
	                           : pf_print(pl, mine, buf, size);
	if (rc == 0) {
		s->left++;
		return true;
	}
	if (rc < 0) {
		snprintf(s->first_failure, sizeof s->first_failure, "out of memory");
		return false;
	}
	struct tep_record rec = { .data = buf, .size = size, .record_size = size, .ref_count = 1 };
	trace_seq_reset(theirs);
	tep_print_event(tep, theirs, &rec, "%s", fields ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
	s->compared++;
	/* trace-cmd's lines end at a NUL (%c of 0): compare what it shows. */
	size_t a = strnlen(mine->data, mine->len), b = strnlen(theirs->buffer, theirs->len);
	if (a == b && memcmp(mine->data, theirs->buffer, a) == 0)
		return true;
	if (!s->failures++)
		snprintf(s->first_failure, sizeof s->first_failure, "%s%s:%s (format \"%.300s\"): native \"%.*s\", libtraceevent \"%.*s\"",
		         fields ? "-R: " : "", ev->system, ev->name, ev->print_fmt.format ? ev->print_fmt.format : "", (int)(a < 600 ? a : 600),
		         mine->data, (int)(b < 600 ? b : 600), theirs->buffer);
	return false;
}

static void check_events(stats *s, struct tep_handle *tep, const pf_strings *printk, const pf_kallsyms *kallsyms, uint64_t seed)
{
	uint8_t *buf = calloc(1, REC_CAP), *known_pids = calloc(PF_KNOWN_PIDS_BYTES, 1);
	tc_buf mine = { 0 };
	struct trace_seq theirs;
	trace_seq_init(&theirs);
	int n = tep_get_events_count(tep);
	for (int e = 0; e < n && buf && known_pids; e++) {
		struct tep_event *ev = tep_get_event(tep, e);
		const char *why = NULL;
		pf_plan *pl = pf_compile(tep, ev, printk, kallsyms, linked_tep_is_newer(), &why);
		bool plugin = ev->handler && !(ev->flags & TEP_EVENT_FL_NOHANDLE);
		s->formats++;
		if (plugin && pl && pf_emulates_handler(pl))
			s->emulated++;
		if (plugin)
			s->plugin++;
		else if (pl && !pf_unsupported(pl))
			s->native++;
		else
			count_why(s, pl ? pf_unsupported(pl) : why ? why : "out of memory");
		if (!pl)
			continue;
		bool text = !plugin && !pf_unsupported(pl) && !(ev->flags & TEP_EVENT_FL_PRINTRAW);
		uint64_t st = seed ^ (uint64_t)ev->id * 0x9e3779b97f4a7c15ULL;
		for (unsigned k = 0; k < ROUNDS; k++) {
			int size = random_record(ev, &st, buf);
			if (size < 0)
				break;
			if (text && !compare(s, tep, ev, pl, buf, size, TEXT, NULL, &mine, &theirs))
				break;
			if (plugin && pf_emulates_handler(pl) && !compare(s, tep, ev, pl, buf, size, HANDLER, known_pids, &mine, &theirs))
				break;
			if (!compare(s, tep, ev, pl, buf, size, FIELDS, NULL, &mine, &theirs))
				break;
		}
		pf_free(pl);
	}
	trace_seq_destroy(&theirs);
	tc_buf_free(&mine);
	free(known_pids);
	free(buf);
}

static void report_stats(const char *name, stats *s, bool require_95)
{
	size_t eligible = s->formats - s->plugin;
	double pct = eligible ? 100.0 * (double)s->native / (double)eligible : 100.0;
	if (s->failures || s->first_failure[0]) {
		check(false, name, "%zu differences; the first: %s", s->failures, s->first_failure);
		return;
	}
	char summary[512];
	snprintf(summary, sizeof summary,
	         "%zu of %zu formats not printed by a plugin compiled natively (%.1f%%; %zu plugin-printed, %zu of them emulated), %zu random records compared, %zu left to libtraceevent",
	         s->native, eligible, pct, s->plugin, s->emulated, s->compared, s->left);
	if (require_95 && pct < 95.0)
		check(false, name, "%s: below 95%%", summary);
	else
		printf("PASS %s: %s\n", name, summary);
	for (size_t i = 0; i < s->n_why; i++)
		printf("printfmt: %s: not native: %s (%zu)\n", name, s->why[i], s->why_count[i]);
}

/* ------------------------------------------------------------------------
 * kallsyms: printfmt's table against libtraceevent's own
 */

/* Looks ADDRS up with libtraceevent having parsed KALLSYMS itself and with
 * printfmt's table as its resolver; the names and starts must agree. */
static void check_kallsyms(const char *name, const char *kallsyms, const uint64_t *addrs, size_t n)
{
	struct tep_handle *theirs = tep_alloc(), *mine = tep_alloc();
	pf_kallsyms *ks = NULL;
	int rc = pf_kallsyms_parse(kallsyms, &ks);
	if (!theirs || !mine || rc != 1) {
		check(false, name, "cannot set up (pf_kallsyms_parse: %d)", rc);
		goto out;
	}
	tep_parse_kallsyms(theirs, kallsyms);
	tep_set_function_resolver(mine, pf_kallsyms_resolve, ks);
	size_t found = 0;
	for (size_t i = 0; i < n; i++) {
		const char *a = NULL, *b = NULL;
		unsigned long long sa = 0, sb = 0;
		int fa = tep_find_function_info(theirs, addrs[i], &a, &sa, NULL);
		int fb = tep_find_function_info(mine, addrs[i], &b, &sb, NULL);
		if (fa != fb || (fa && (strcmp(a, b) != 0 || sa != sb))) {
			check(false, name, "address %#llx: libtraceevent %s (at %#llx), printfmt %s (at %#llx)", (unsigned long long)addrs[i],
			      fa ? a : "(none)", sa, fb ? b : "(none)", sb);
			goto out;
		}
		found += fa != 0;
	}
	printf("PASS %s: %zu addresses, %zu of them in a function, looked up alike\n", name, n, found);
out:
	if (mine)
		tep_free(mine);
	if (theirs)
		tep_free(theirs);
	pf_kallsyms_free(ks);
}

/* A small kallsyms with what libtraceevent treats specially: aliases at
 * one address, modules, absolute symbols, '$' names, no order. */
static void check_kallsyms_sample(void)
{
	static const char text[] =
		"ffffffff81000200 T second\n"
		"ffffffff81000100 T first\n"
		"ffffffff81000100 t first_alias\n"
		"ffffffff81000100 T first_alias2\n"
		"0000000000001000 A absolute\n"
		"ffffffff81000180 a absolute2\n"
		"ffffffff81000300 t $x\n"
		"\n"
		"ffffffffc0000000 t mod_func\t[some_mod]\n"
		"ffffffffc0000100 T mod_func2\t[other]\n"
		"ffffffff81000200 W second_alias\n";
	uint64_t addrs[64];
	size_t n = 0;
	static const uint64_t base[] = { 0xffffffff81000100, 0xffffffff81000180, 0xffffffff81000200, 0xffffffff81000300,
		                         0xffffffffc0000000, 0xffffffffc0000100, 0x1000 };
	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
		for (int d = -2; d <= 3; d++)
			addrs[n++] = base[i] + (uint64_t)(int64_t)d;
	addrs[n++] = 0;
	addrs[n++] = ~(uint64_t)0;
	check_kallsyms("printfmt/kallsyms-sample", text, addrs, n);
}

/* The same in address order, as the kernel writes it, which
 * pf_kallsyms_parse() takes without sorting: runs of aliases (the last in
 * the file is the name libtraceevent gives), one at the very start and
 * one at the end; a name with a control character in it (not a space to
 * sscanf()) and an address in capitals, which the parser's eight-bytes-
 * at-once scans must read as sscanf() does. */
static void check_kallsyms_sorted_sample(void)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T first\n"
		"ffffffff81000100 t first_alias\n"
		"ffffffff81000100 T first_alias2\n"
		"ffffffff81000180 t between\n"
		"ffffffff81000200 T second\n"
		"ffffffff81000200 W second_alias\n"
		"ffffffff81000280 t name\001with_a_control_character\n"
		"FFFFFFFF81000300 T upper_case_address\n"
		"ffffffffc0000000 t mod_func\t[some_mod]\n"
		"ffffffffc0000000 t mod_alias\t[some_mod]\n";
	uint64_t addrs[64];
	size_t n = 0;
	static const uint64_t base[] = { 0xffffffff81000000, 0xffffffff81000100, 0xffffffff81000180, 0xffffffff81000200,
		                         0xffffffff81000280, 0xffffffff81000300, 0xffffffffc0000000 };
	for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
		for (int d = -2; d <= 3; d++)
			addrs[n++] = base[i] + (uint64_t)(int64_t)d;
	check_kallsyms("printfmt/kallsyms-sorted", text, addrs, n);
}

/* ------------------------------------------------------------------------
 * Formats written here: what libtraceevent does in corners no kernel
 * format of a given machine may reach
 */

#define COMMON_FIELDS                                                                     \
	"format:\n"                                                                        \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"             \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"             \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"     \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char *const synthetic_formats[] = {
	/* %c is no conversion to libtraceevent 1.7.1: ">c<", and its
	 * argument goes to the next conversion. */
	"name: chars\nID: 901\n" COMMON_FIELDS
	"\tfield:char a;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:int b;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"[%c%c] b=%d %5c|%-3d\", REC->a, REC->a, REC->b, REC->b, REC->a\n",
	/* '+' is a flag to libtraceevent 1.8 and later, ">+<" to 1.7.1. */
	"name: plus\nID: 905\n" COMMON_FIELDS
	"\tfield:int b;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%+d|%+5d|%-+4d|\", REC->b, REC->b, REC->b\n",
	/* Names: a kernel symbol's address (none here: 0), casts, flags by
	 * name, a ternary of strings, division by a constant, shifts. */
	"name: names\nID: 902\n" COMMON_FIELDS
	"\tfield:unsigned long pfn;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int state;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:int vec;\toffset:20;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"page=%p pfn=0x%lx state=%s vec=%s q=%lu r=%u s=%llx t=%s\", "
	"(((struct page *)vmemmap_base) + (REC->pfn)), REC->pfn, "
	"__print_flags(REC->state, \"|\", {I_DIRTY, \"I_DIRTY\"}, {1, \"ONE\"}, {4, \"FOUR\"}), "
	"__print_symbolic(REC->vec, {HI_SOFTIRQ, \"HI\"}, {TIMER_SOFTIRQ, \"TIMER\"}, {RCU_SOFTIRQ, \"RCU\"}), "
	"REC->pfn / 1000L, (u8)(REC->state >> 3) % 7, ~REC->pfn << (REC->vec & 70), REC->vec > 2 ? \"big\" : \"small\"\n",
	/* printf's corners: '*' widths and precisions, '#', '+', '0' and
	 * '-' together, precision on numbers, octal. */
	"name: printf\nID: 903\n" COMMON_FIELDS
	"\tfield:int w;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:long v;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:char s[12];\toffset:24;\tsize:12;\tsigned:0;\n\n"
	"print fmt: \"[%*d][%-*.*s][%#o][%#.3x][%+05ld][%-+8ld][%.0u][%08.3lx][%% %hhu %hd %#lX]\", "
	"REC->w & 15, REC->v, REC->w & 7, REC->s, REC->v, REC->v, REC->v, REC->v, REC->v, REC->w, REC->v, REC->v, REC->v, REC->v\n",
	/* Bit masks, CPU masks, hex dumps and arrays of a dynamic array. */
	"name: arrays\nID: 904\n" COMMON_FIELDS
	"\tfield:__data_loc unsigned long[] mask;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] buf;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int n;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s|%s|%s|%s|%s|%*ph|%*phC\", __get_bitmask(mask), __get_cpumask(mask), "
	"__print_hex(__get_dynamic_array(buf), __get_dynamic_array_len(buf)), "
	"__print_hex_str(__get_dynamic_array(buf), REC->n & 3), "
	"__print_array(__get_dynamic_array(buf), __get_dynamic_array_len(buf) / 2, 2), "
	"(int)(REC->n & 7), __get_dynamic_array(buf), (int)(REC->n & 3), __get_dynamic_array(buf)\n",
};

static void check_synthetic(void)
{
	const char *name = "printfmt/synthetic";
	struct tep_handle *tep = tep_alloc();
	pf_kallsyms *kallsyms = NULL;
	pf_strings *printk = pf_strings_parse("");
	if (!tep || !printk || pf_kallsyms_parse("ffffffff81000000 T _stext\n", &kallsyms) != 1) {
		check(false, name, "cannot set up");
		goto out;
	}
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)sizeof(long));
	tep_parse_kallsyms(tep, "ffffffff81000000 T _stext\n");
	for (size_t i = 0; i < sizeof synthetic_formats / sizeof synthetic_formats[0]; i++) {
		const char *f = synthetic_formats[i];
		if (tep_parse_event(tep, f, strlen(f), "synthetic") != 0) {
			check(false, name, "libtraceevent cannot parse format %zu", i);
			goto out;
		}
	}
	stats s = { 0 };
	check_events(&s, tep, printk, kallsyms, 0x73796e7468657469ULL);
	if (s.native != s.formats)
		check(false, name, "%zu of %zu formats compiled natively", s.native, s.formats);
	else
		report_stats(name, &s, false);
out:
	if (tep)
		tep_free(tep);
	pf_strings_free(printk);
	pf_kallsyms_free(kallsyms);
}

/* ------------------------------------------------------------------------
 * This machine's tracefs
 */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	tc_buf b = { 0 };
	char tmp[65536];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		if (tc_buf_append(&b, tmp, n) < 0)
			break;
	fclose(f);
	if (!b.data)
		tc_buf_append(&b, "", 0);
	*len = b.len;
	return b.data;
}

static int count_formats(struct tep_handle *tep, const char *events)
{
	DIR *d = opendir(events);
	if (!d)
		return -1;
	int parsed = 0;
	struct dirent *sys;
	while ((sys = readdir(d))) {
		if (sys->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", events, sys->d_name);
		DIR *sd = opendir(path);
		if (!sd)
			continue;
		struct dirent *e;
		while ((e = readdir(sd))) {
			if (e->d_name[0] == '.')
				continue;
			char fpath[4096 + 512];
			snprintf(fpath, sizeof fpath, "%s/%s/format", path, e->d_name);
			size_t len;
			char *text = slurp(fpath, &len);
			if (!text)
				continue;
			if (tep_parse_event(tep, text, len, sys->d_name) == 0)
				parsed++;
			free(text);
		}
		closedir(sd);
	}
	closedir(d);
	return parsed;
}

/* kallsyms for libtraceevent, and a sample of its addresses for the
 * records; returns printfmt's table of it. */
static pf_kallsyms *load_symbols(struct tep_handle *tep)
{
	size_t len;
	pf_kallsyms *table = NULL;
	char *ks = slurp("/proc/kallsyms", &len);
	if (ks) {
		tep_parse_kallsyms(tep, ks);
		pf_kallsyms_parse(ks, &table);
		/* Every symbol's address, around it and between, and far off. */
		size_t cap = 1 << 16, n = 0;
		uint64_t *addrs = malloc(cap * sizeof *addrs), st = 42;
		for (char *line = ks; addrs && line && *line && n + 4 <= cap;) {
			unsigned long long addr;
			if (sscanf(line, "%llx", &addr) == 1 && check_random(&st) % 16 == 0) {
				addrs[n++] = addr;
				addrs[n++] = addr - 1;
				addrs[n++] = addr + 1 + check_random(&st) % 64;
			}
			line = strchr(line, '\n');
			line = line ? line + 1 : NULL;
		}
		if (addrs) {
			addrs[n++] = ~(uint64_t)0;
			check_kallsyms("printfmt/kallsyms", ks, addrs, n);
		}
		free(addrs);
		/* A sample of the text symbols' addresses, for the records. */
		for (char *line = ks; line && *line && n_symbols < 4096;) {
			char *nl = strchr(line, '\n');
			unsigned long long addr;
			char type;
			if (sscanf(line, "%llx %c", &addr, &type) == 2 && (type == 't' || type == 'T') && addr &&
			    check_random(&(uint64_t){ addr }) % 16 == 0)
				add_symbol(addr);
			line = nl ? nl + 1 : NULL;
		}
		free(ks);
	}
	return table;
}

static void check_tracefs(void)
{
	const char *name = "printfmt/tracefs";
	struct stat st;
	bool mounted = false;
	if (stat(TRACEFS "/events", &st) != 0) {
		if (mount("nodev", TRACEFS, "tracefs", 0, NULL) != 0) {
			printf("SKIP %s: no tracefs at %s and cannot mount it (%s)\n", name, TRACEFS, strerror(errno));
			return;
		}
		mounted = true;
	}
	struct tep_handle *tep = tep_alloc();
	if (!tep) {
		check(false, name, "out of memory");
		return;
	}
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (int)sizeof(long));
	size_t len;
	char *header = slurp(TRACEFS "/events/header_page", &len);
	if (header) {
		tep_parse_header_page(tep, header, len, (int)sizeof(long));
		free(header);
	}
	struct tep_plugin_list *plugins = tep_load_plugins(tep);
	int parsed = count_formats(tep, TRACEFS "/events");
	if (parsed <= 0) {
		printf("SKIP %s: no event format could be read under %s/events\n", name, TRACEFS);
	} else {
		pf_kallsyms *kallsyms = load_symbols(tep);
		char *text = slurp(TRACEFS "/printk_formats", &len);
		if (text) {
			tep_parse_printk_formats(tep, text);
			for (char *line = text; line && *line;) {
				unsigned long long addr;
				if (sscanf(line, "%llx", &addr) == 1)
					add_symbol(addr);
				line = strchr(line, '\n');
				line = line ? line + 1 : NULL;
			}
		}
		pf_strings *printk = pf_strings_parse(text ? text : "");
		free(text);
		stats s = { 0 };
		check_events(&s, tep, printk, kallsyms, 0x7472616365636174ULL);
		report_stats(name, &s, true);
		pf_strings_free(printk);
		pf_kallsyms_free(kallsyms);
	}
	if (plugins)
		tep_unload_plugins(plugins, tep);
	tep_free(tep);
	if (mounted)
		umount(TRACEFS);
}

/* ------------------------------------------------------------------------
 * The test traces
 */

static void check_file(const char *path)
{
	char name[4096];
	snprintf(name, sizeof name, "printfmt/%s", path);
	tracedat_report_tep *t;
	if (tracedat_report_tep_open(path, &t) < 0) {
		char msg[1024];
		tc_error_format(tc_error_last(), msg, sizeof msg);
		check(false, name, "%s", msg);
		return;
	}
	stats s = { 0 };
	check_events(&s, tracedat_report_tep_handle(t), tracedat_report_tep_printk(t), tracedat_report_tep_kallsyms(t),
	             0x6669787475726573ULL);
	report_stats(name, &s, false);
	tracedat_report_tep_close(t);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_fixtures(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		check(false, "printfmt/fixtures", "cannot open %s", dir);
		return;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len <= 4 || strcmp(e->d_name + len - 4, ".dat") != 0)
			continue;
		char **grown = realloc(names, (n + 1) * sizeof *names);
		if (!grown)
			break;
		names = grown;
		size_t plen = strlen(dir) + len + 2;
		if (!(names[n] = malloc(plen)))
			break;
		snprintf(names[n++], plen, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	for (size_t i = 0; i < n; i++) {
		check_file(names[i]);
		free(names[i]);
	}
	free(names);
}

/* libtraceevent 1.7.1 leaks a few bytes parsing some of this machine's
 * formats: not ours to report (the sanitizer build reads this). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int main(void)
{
	/* Every line out at once: a sanitizer report ends the process
	 * without flushing stdio. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_fixtures("tests/fixtures/tracedat");
	check_kallsyms_sample();
	check_kallsyms_sorted_sample();
	check_synthetic();
	check_tracefs();
	free(symbols);
	return n_fail ? 1 : 0;
}
