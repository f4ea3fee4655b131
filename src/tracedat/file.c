/* SPDX-License-Identifier: MIT */
/*
 * file.c - tracedat_open(): everything of a trace.dat file but its CPU
 * data (doc/formats/tracedat.md §2-§6).
 *
 * Version 6 is one sequential stream: header_page, formats, kallsyms,
 * printk formats, cmdlines, the CPU count, an options list and the
 * "flyrecord" table of the top buffer; instances are further flyrecord
 * tables that BUFFER options point to.  Version 7 is a set of sections
 * found through a chain of OPTIONS sections; metadata sections and CPU data
 * may be compressed.
 *
 * Everything is read through a `reader`: a window of the file, or of a
 * section body held in memory (inflated when compressed).  A reader checks
 * every length against the bytes it has left before reading or allocating,
 * and knows which file offset to name when something is wrong.  What the
 * accessors hand out is copied into the file's pool; section bodies are
 * freed once parsed.
 */
#include "tracedat/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "\x17\x08\x44tracing"
#define MAGIC_LEN 10
#define INITIAL_HEADER_END 18     /* magic, "6\0"/"7\0", endian, long size, page size */
#define MIN_PAGE_SIZE 64
#define MAX_PAGE_SIZE (64u << 20) /* far above any kernel sub-buffer */
#define MAX_OPTION_SECTIONS 4096  /* bounds a looping DONE chain */
#define SECTION_HEADER_SIZE 16

/* Option and section ids (§5.3, §6). */
enum {
	OPT_DONE = 0,
	OPT_DATE = 1,
	OPT_BUFFER = 3,
	OPT_TRACECLOCK = 4,
	OPT_UNAME = 5,
	OPT_OFFSET = 7,
	OPT_CPUCOUNT = 8,
	OPT_VERSION = 9,
	OPT_TRACEID = 11,
	OPT_TIME_SHIFT = 12,
	OPT_TSC2NSEC = 14,
	OPT_HEADER_INFO = 16,     /* 16..21: metadata section offsets */
	OPT_FTRACE_EVENTS = 17,
	OPT_EVENT_FORMATS = 18,
	OPT_KALLSYMS = 19,
	OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
	OPT_BUFFER_TEXT = 22
};

#define SECTION_OPTIONS 0
#define SECTION_BUFFER 3
#define SECTION_FLAG_COMPRESSED 1u

typedef struct reader {
	tracedat_file *f;
	const uint8_t *mem;   /* NULL: read the file itself */
	uint64_t pos, end;    /* file offsets, or indexes into MEM */
	uint64_t base;        /* MEM not compressed: file offset of MEM[0] */
	bool compressed;      /* MEM was inflated from the section at SECTION */
	int64_t section;
} reader;

/* What tracedat_open() collects before it hands it out as META. */
typedef struct builder {
	tracedat_file *f;
	const char *path;
	tc_buf options;             /* tracedat_option */
	tc_buf buffers;             /* tracedat_buffer */
	tc_buf ftrace_formats;      /* tracedat_format_text */
	tc_buf event_formats;
	/* v6: the buffer a BUFFER option just added, which a CPUCOUNT
	 * option right after it is about (§4.4); -1 if none */
	int64_t v6_last_buffer;
	/* v7: offsets of the metadata sections 16..21, -1 when absent */
	int64_t section_offset[6];
	bool latency;
} builder;

/* ------------------------------------------------------------------------
 * Reading
 */

int64_t td_pread(const tracedat_file *f, void *dst, size_t n, uint64_t off)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = pread(f->fd, (char *)dst + done, n - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return tc_fail(TC_EIO, f->meta.path, (int64_t)(off + done), "read failed: %s", strerror(errno));
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (int64_t)done;
}

uint64_t tracedat_read_uint(const tracedat_file *f, const void *p, unsigned size)
{
	/* One load per value: this runs for every field of every event. */
	bool swap = f->meta.big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v16, p, 2);
		return swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	default:
		return tc_load_uint(p, size, f->meta.big_endian);
	}
}

/* The file offset to name for an error at R's position. */
static int64_t r_where(const reader *r)
{
	if (!r->mem)
		return (int64_t)r->pos;
	return r->compressed ? r->section : (int64_t)(r->base + r->pos);
}

static int r_fail(const reader *r, const char *fmt, ...) TC_PRINTF(2, 3);
static int r_fail(const reader *r, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->mem && r->compressed)
		return tc_fail(TC_EFORMAT, r->f->meta.path, r->section,
		               "in this compressed section, at byte %" PRIu64 " of its %" PRIu64 " uncompressed bytes: %s",
		               r->pos, r->end, msg);
	return tc_fail(TC_EFORMAT, r->f->meta.path, r_where(r), "%s", msg);
}

static uint64_t r_left(const reader *r)
{
	return r->end - r->pos;
}

static int r_need(const reader *r, uint64_t n, const char *what)
{
	if (n > r_left(r))
		return r_fail(r, "%s needs %" PRIu64 " bytes, only %" PRIu64 " are left%s", what, n, r_left(r),
		              r->mem ? "" : " in the file");
	return 0;
}

static int r_read(reader *r, void *dst, uint64_t n, const char *what)
{
	int rc = r_need(r, n, what);
	if (rc < 0)
		return rc;
	if (r->mem) {
		memcpy(dst, r->mem + r->pos, (size_t)n);
	} else {
		int64_t got = td_pread(r->f, dst, (size_t)n, r->pos);
		if (got < 0)
			return (int)got;
		if ((uint64_t)got != n)
			return r_fail(r, "%s: the file ends after %" PRId64 " of %" PRIu64 " bytes", what, got, n);
	}
	r->pos += n;
	return 0;
}

static int r_uint(reader *r, unsigned size, uint64_t *v, const char *what)
{
	uint8_t b[8];
	int rc = r_read(r, b, size, what);
	*v = rc == 0 ? tracedat_read_uint(r->f, b, size) : 0;
	return rc;
}

static int r_u32(reader *r, uint32_t *v, const char *what)
{
	uint64_t x;
	int rc = r_uint(r, 4, &x, what);
	*v = (uint32_t)x;
	return rc;
}

static int r_u64(reader *r, uint64_t *v, const char *what)
{
	return r_uint(r, 8, v, what);
}

/* N bytes into the pool, NUL-terminated, as a blob that remembers where
 * it came from. */
static int r_blob(reader *r, uint64_t n, tracedat_blob *out, const char *what)
{
	int rc = r_need(r, n, what);
	if (rc < 0)
		return rc;
	int64_t where = r_where(r);
	char *data = tc_pool_alloc(&r->f->pool, (size_t)n + 1);
	if (!data)
		return TC_ENOMEM;
	if ((rc = r_read(r, data, n, what)) < 0)
		return rc;
	out->data = data;
	out->len = (size_t)n;
	out->offset = where;
	out->compressed = r->mem && r->compressed;
	return 0;
}

/* A NUL-terminated string into the pool (the NUL is consumed). */
static int r_cstr(reader *r, char **out, const char *what)
{
	uint64_t len = 0;
	if (r->mem) {
		const uint8_t *nul = memchr(r->mem + r->pos, 0, (size_t)r_left(r));
		if (!nul)
			return r_fail(r, "%s: no NUL before the end", what);
		len = (uint64_t)(nul - (r->mem + r->pos));
	} else {
		char chunk[256];
		for (;;) {
			uint64_t n = r_left(r) - len < sizeof chunk ? r_left(r) - len : sizeof chunk;
			if (n == 0)
				return r_fail(r, "%s: no NUL before the end of the file", what);
			int64_t got = td_pread(r->f, chunk, (size_t)n, r->pos + len);
			if (got < 0)
				return (int)got;
			if (got == 0)
				return r_fail(r, "%s: the file ends before its NUL", what);
			const char *nul = memchr(chunk, 0, (size_t)got);
			if (nul) {
				len += (uint64_t)(nul - chunk);
				break;
			}
			len += (uint64_t)got;
		}
	}
	tracedat_blob b;
	int rc = r_blob(r, len, &b, what);
	if (rc == 0) {
		r->pos++;   /* the NUL */
		*out = (char *)b.data;
	}
	return rc;
}

/* Reads the TAG_LEN bytes expected at R's position. */
static int r_expect(reader *r, const char *tag, size_t tag_len, const char *what)
{
	char buf[16];
	uint64_t at = r->pos;
	int rc = r_read(r, buf, tag_len, what);
	if (rc == 0 && memcmp(buf, tag, tag_len) != 0) {
		r->pos = at;
		return r_fail(r, "expected %s", what);
	}
	return rc;
}

/* ------------------------------------------------------------------------
 * Metadata payloads (§3), the same in both versions
 */

static int find_page_field(const tracedat_format *fmt, const char *name, const tracedat_field **out)
{
	for (size_t i = 0; i < fmt->field_count; i++)
		if (strcmp(fmt->fields[i].name, name) == 0) {
			*out = &fmt->fields[i];
			return 1;
		}
	return 0;
}

/* The page layout from header_page text (§3.1, §8.1). */
static int page_layout(builder *b)
{
	tracedat_meta *m = &b->f->meta;
	if (m->header_page.len == 0) {
		/* Kernels before 2.6.31 (§3.1): fixed layout. */
		m->kernel_long_size = m->file_long_size;
		m->page_ts_offset = 0;
		m->page_commit_offset = 8;
		m->page_data_offset = 8 + m->file_long_size;
		return 0;
	}
	tc_pool tmp;
	tc_pool_init(&tmp);
	tracedat_format fmt;
	const tracedat_field *ts = NULL, *commit = NULL, *data = NULL;
	int rc = tracedat_parse_format(&tmp, b->path, &m->header_page, &fmt);
	if (rc == 0 && !(find_page_field(&fmt, "timestamp", &ts) && find_page_field(&fmt, "commit", &commit) &&
	                 find_page_field(&fmt, "data", &data)))
		rc = tc_fail(TC_EFORMAT, b->path, m->header_page.offset, "header_page lacks its timestamp, commit or data field");
	else if (rc == 0 && ts->size != 8)
		rc = tc_fail(TC_EUNSUPPORTED, b->path, m->header_page.offset, "header_page timestamp of %" PRIu32 " bytes (only 8 is known)", ts->size);
	else if (rc == 0 && commit->size != 4 && commit->size != 8)
		rc = tc_fail(TC_EFORMAT, b->path, m->header_page.offset, "header_page commit of %" PRIu32 " bytes (a kernel long: 4 or 8)", commit->size);
	else if (rc == 0 && (data->offset < ts->offset + 8 || data->offset < commit->offset + commit->size))
		rc = tc_fail(TC_EFORMAT, b->path, m->header_page.offset, "header_page puts data at %" PRIu32 ", inside the page header", data->offset);
	if (rc == 0) {
		/* commit is a kernel long: the authority on the kernel's long
		 * size, unlike the writer's long size in the initial header. */
		m->kernel_long_size = commit->size;
		m->page_ts_offset = ts->offset;
		m->page_commit_offset = commit->offset;
		m->page_data_offset = data->offset;
	}
	tc_pool_free(&tmp);
	return rc;
}

static int read_header_info(builder *b, reader *r)
{
	tracedat_meta *m = &b->f->meta;
	uint64_t n;
	int rc;
	if ((rc = r_expect(r, "header_page", 12, "\"header_page\"")) < 0 || (rc = r_u64(r, &n, "header_page size")) < 0 ||
	    (rc = r_blob(r, n, &m->header_page, "header_page text")) < 0 ||
	    (rc = r_expect(r, "header_event", 13, "\"header_event\"")) < 0 ||
	    (rc = r_u64(r, &n, "header_event size")) < 0 || (rc = r_blob(r, n, &m->header_event, "header_event text")) < 0)
		return rc;
	return page_layout(b);
}

static int add_format(tc_buf *list, const char *system, const tracedat_blob *text)
{
	tracedat_format_text ft = { system, *text };
	return tc_buf_append(list, &ft, sizeof ft);
}

static int read_ftrace_formats(builder *b, reader *r)
{
	uint32_t count;
	int rc = r_u32(r, &count, "ftrace format count");
	for (uint32_t i = 0; i < count && rc == 0; i++) {
		uint64_t len;
		tracedat_blob text;
		if ((rc = r_u64(r, &len, "ftrace format size")) == 0 && (rc = r_blob(r, len, &text, "ftrace format text")) == 0)
			rc = add_format(&b->ftrace_formats, "ftrace", &text);
	}
	return rc;
}

static int read_event_formats(builder *b, reader *r)
{
	uint32_t systems;
	int rc = r_u32(r, &systems, "event system count");
	for (uint32_t s = 0; s < systems && rc == 0; s++) {
		char *system;
		uint32_t count;
		if ((rc = r_cstr(r, &system, "event system name")) < 0 || (rc = r_u32(r, &count, "event format count")) < 0)
			return rc;
		for (uint32_t i = 0; i < count && rc == 0; i++) {
			uint64_t len;
			tracedat_blob text;
			if ((rc = r_u64(r, &len, "event format size")) == 0 && (rc = r_blob(r, len, &text, "event format text")) == 0)
				rc = add_format(&b->event_formats, system, &text);
		}
	}
	return rc;
}

/* kallsyms and printk formats have a u32 length, cmdlines a u64 one. */
static int read_sized_text(reader *r, unsigned len_size, tracedat_blob *out, const char *what)
{
	uint64_t len;
	int rc = r_uint(r, len_size, &len, what);
	return rc < 0 ? rc : r_blob(r, len, out, what);
}

/* ------------------------------------------------------------------------
 * Options (§6)
 */

/* The text of a string option: up to its NUL, or all of it. */
static char *option_text(builder *b, const tracedat_option *o)
{
	return tc_pool_strndup(&b->f->pool, (const char *)o->data, strnlen((const char *)o->data, o->size));
}

/* A reader over an option's payload. */
static reader payload_reader(builder *b, const tracedat_option *o, const reader *from)
{
	reader r = { b->f, o->data, 0, o->size, 0, from->mem && from->compressed, from->section };
	r.base = (uint64_t)o->offset;
	return r;
}

/* A C integer literal as trace-cmd reads DATE and OFFSET (strtoll, base 0). */
static int option_integer(builder *b, const tracedat_option *o, const char *what, int64_t *sum)
{
	const char *text = option_text(b, o);
	if (!text)
		return TC_ENOMEM;
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 0);
	if (end == text || errno)
		return tc_fail(TC_EFORMAT, b->path, o->offset, "%s option \"%s\" is not an integer", what, text);
	if (!tc_add_i64(*sum, v, sum))
		return tc_fail(TC_EFORMAT, b->path, o->offset, "%s options overflow 64 bits", what);
	return 0;
}

static int new_buffer(builder *b, tracedat_buffer *buf, int64_t *index)
{
	*index = (int64_t)(b->buffers.len / sizeof *buf);
	return tc_buf_append(&b->buffers, buf, sizeof *buf);
}

static tracedat_buffer *buffer_at(builder *b, size_t i)
{
	return (tracedat_buffer *)b->buffers.data + i;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* v7 BUFFER option (§5.9). */
static int parse_buffer_v7(builder *b, reader *r)
{
	tracedat_buffer buf = { 0 };
	uint64_t section;
	uint32_t page_size, n;
	char *name, *clock;
	int rc;
	if ((rc = r_u64(r, &section, "BUFFER section offset")) < 0 || (rc = r_cstr(r, &name, "BUFFER name")) < 0 ||
	    (rc = r_cstr(r, &clock, "BUFFER clock")) < 0 || (rc = r_u32(r, &page_size, "BUFFER page size")) < 0 ||
	    (rc = r_u32(r, &n, "BUFFER CPU count")) < 0)
		return rc;
	if ((uint64_t)n * 20 > r_left(r))
		return r_fail(r, "BUFFER option lists %" PRIu32 " CPUs in %" PRIu64 " bytes", n, r_left(r));
	tracedat_cpu_data *cpus = n ? tc_pool_alloc(&b->f->pool, n * sizeof *cpus) : NULL;
	int *ids = n ? malloc(n * sizeof *ids) : NULL;
	if (n && (!cpus || !ids)) {
		free(ids);
		return tc_fail_nomem();
	}
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		uint32_t cpu;
		if ((rc = r_u32(r, &cpu, "BUFFER CPU id")) < 0 || (rc = r_u64(r, &cpus[i].offset, "BUFFER CPU offset")) < 0 ||
		    (rc = r_u64(r, &cpus[i].size, "BUFFER CPU size")) < 0)
			break;
		if (cpu > INT32_MAX) {
			rc = r_fail(r, "BUFFER CPU id %" PRIu32 " is out of range", cpu);
			break;
		}
		cpus[i].cpu = ids[i] = (int)cpu;
	}
	/* Index by id (§5.9): the same id twice would be two streams. */
	if (rc == 0 && n > 1) {
		qsort(ids, n, sizeof *ids, cmp_int);
		for (uint32_t i = 1; i < n && rc == 0; i++)
			if (ids[i] == ids[i - 1])
				rc = r_fail(r, "BUFFER \"%s\" lists CPU %d twice", name, ids[i]);
	}
	free(ids);
	if (rc < 0)
		return rc;
	buf.name = name;
	buf.clock = clock;
	buf.page_size = page_size;
	buf.cpu_data = cpus;
	buf.cpu_data_count = n;
	buf.offset = (int64_t)section;
	int64_t index;
	return new_buffer(b, &buf, &index);
}

/* v6 BUFFER option (§4.4): where the instance's flyrecord table is,
 * and its name; a CPUCOUNT option may follow with its CPU count. */
static int parse_buffer_v6(builder *b, reader *r)
{
	tracedat_buffer buf = { 0 };
	uint64_t off;
	char *name;
	int rc;
	if ((rc = r_u64(r, &off, "BUFFER offset")) < 0 || (rc = r_cstr(r, &name, "BUFFER name")) < 0)
		return rc;
	if (off > INT64_MAX)
		return r_fail(r, "BUFFER offset %" PRIu64 " is out of range", off);
	buf.name = name;
	buf.offset = (int64_t)off;
	buf.cpu_count = b->f->meta.cpu_count;
	return new_buffer(b, &buf, &b->v6_last_buffer);
}

/* TIME_SHIFT (§10.5): per CPU, samples sorted by time without
 * duplicate times, as trace-cmd keeps them. */
typedef struct shift_sample {
	int64_t time, offset, scaling, fraction;
} shift_sample;

static int cmp_sample(const void *a, const void *b)
{
	const shift_sample *x = a, *y = b;
	return (x->time > y->time) - (x->time < y->time);
}

static int parse_time_shift(builder *b, reader *r)
{
	tracedat_meta *m = &b->f->meta;
	uint32_t ncpus, flags;
	int rc;
	if ((rc = r_u64(r, &m->time_shift_peer_id, "TIME_SHIFT peer id")) < 0 ||
	    (rc = r_u32(r, &flags, "TIME_SHIFT flags")) < 0 || (rc = r_u32(r, &ncpus, "TIME_SHIFT CPU count")) < 0)
		return rc;
	if ((uint64_t)ncpus * 4 > r_left(r))
		return r_fail(r, "TIME_SHIFT lists %" PRIu32 " CPUs in %" PRIu64 " bytes", ncpus, r_left(r));
	tracedat_shift_cpu *cpus = ncpus ? tc_pool_alloc(&b->f->pool, ncpus * sizeof *cpus) : NULL;
	if (ncpus && !cpus)
		return TC_ENOMEM;
	for (uint32_t c = 0; c < ncpus && rc == 0; c++) {
		uint32_t count;
		if ((rc = r_u32(r, &count, "TIME_SHIFT sample count")) < 0)
			break;
		if ((uint64_t)count * 24 > r_left(r))
			return r_fail(r, "TIME_SHIFT CPU %" PRIu32 " has %" PRIu32 " samples in %" PRIu64 " bytes", c, count, r_left(r));
		tracedat_shift_cpu *sc = &cpus[c];
		sc->count = count;
		int64_t **arrays[3] = { &sc->times, &sc->offsets, &sc->scalings };
		for (int a = 0; a < 3 && rc == 0; a++) {
			*arrays[a] = tc_pool_alloc(&b->f->pool, (count ? count : 1) * sizeof(int64_t));
			if (!*arrays[a])
				return TC_ENOMEM;
			for (uint32_t i = 0; i < count && rc == 0; i++)
				rc = r_u64(r, (uint64_t *)&(*arrays[a])[i], "TIME_SHIFT sample");
		}
		if (rc == 0 && !(sc->fractions = tc_pool_alloc(&b->f->pool, (count ? count : 1) * sizeof(int64_t))))
			return TC_ENOMEM;
	}
	/* Newer writers append each CPU's fraction bits (§10.5). */
	for (uint32_t c = 0; c < ncpus && rc == 0 && r_left(r) > 0; c++)
		for (size_t i = 0; i < cpus[c].count && rc == 0; i++)
			rc = r_u64(r, (uint64_t *)&cpus[c].fractions[i], "TIME_SHIFT fraction bits");
	for (uint32_t c = 0; c < ncpus && rc == 0; c++) {
		tracedat_shift_cpu *sc = &cpus[c];
		shift_sample *s = malloc((sc->count ? sc->count : 1) * sizeof *s);
		if (!s)
			return tc_fail_nomem();
		for (size_t i = 0; i < sc->count; i++)
			s[i] = (shift_sample){ sc->times[i], sc->offsets[i], sc->scalings[i], sc->fractions[i] };
		qsort(s, sc->count, sizeof *s, cmp_sample);
		size_t kept = 0;
		for (size_t i = 0; i < sc->count; i++) {
			if (kept && s[kept - 1].time == s[i].time)
				continue;
			s[kept++] = s[i];
		}
		for (size_t i = 0; i < kept; i++) {
			sc->times[i] = s[i].time;
			sc->offsets[i] = s[i].offset;
			sc->scalings[i] = s[i].scaling;
			sc->fractions[i] = s[i].fraction;
			if (s[i].fraction < 0 || s[i].fraction > 63)
				rc = r_fail(r, "TIME_SHIFT fraction bits %" PRId64 " out of range", s[i].fraction);
		}
		sc->count = kept;
		free(s);
	}
	if (rc == 0) {
		m->has_time_shift = true;
		m->time_shift_flags = flags;
		m->time_shift_cpus = cpus;
		m->time_shift_cpu_count = ncpus;
	}
	return rc;
}

/* Interprets one option (its payload in the pool); FROM: the reader it
 * came out of, for the offsets errors name. */
static int apply_option(builder *b, const tracedat_option *o, const reader *from)
{
	tracedat_meta *m = &b->f->meta;
	reader r = payload_reader(b, o, from);
	int64_t last_buffer = b->v6_last_buffer;
	int rc = 0;
	b->v6_last_buffer = -1;
	switch (o->id) {
	case OPT_DATE:
		m->has_date = true;
		return option_integer(b, o, "DATE", &m->date_offset_us);
	case OPT_OFFSET:
		m->has_ts_offset = true;
		return option_integer(b, o, "OFFSET", &m->ts_offset_ns);
	case OPT_BUFFER:
		return m->version >= 7 ? parse_buffer_v7(b, &r) : parse_buffer_v6(b, &r);
	case OPT_TRACECLOCK: {
		char *text = option_text(b, o);
		if (!text)
			return TC_ENOMEM;
		m->trace_clock_option = text;
		const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
		m->trace_clock = close ? tc_pool_strndup(&b->f->pool, open + 1, (size_t)(close - open - 1)) : "";
		return m->trace_clock ? 0 : TC_ENOMEM;
	}
	case OPT_UNAME:
		return (m->uname = option_text(b, o)) ? 0 : TC_ENOMEM;
	case OPT_VERSION:
		return (m->tracer_version = option_text(b, o)) ? 0 : TC_ENOMEM;
	case OPT_CPUCOUNT: {
		uint32_t n;
		if ((rc = r_u32(&r, &n, "CPUCOUNT")) < 0)
			return rc;
		/* v6: right after a BUFFER option it is that instance's count. */
		if (m->version < 7 && last_buffer >= 0)
			buffer_at(b, (size_t)last_buffer)->cpu_count = n;
		else
			m->cpu_count = n;
		return 0;
	}
	case OPT_TRACEID:
		m->has_trace_id = true;
		return r_u64(&r, &m->trace_id, "TRACEID");
	case OPT_TIME_SHIFT:
		return parse_time_shift(b, &r);
	case OPT_TSC2NSEC:
		if ((rc = r_u32(&r, &m->tsc2nsec_mult, "TSC2NSEC mult")) < 0 ||
		    (rc = r_u32(&r, &m->tsc2nsec_shift, "TSC2NSEC shift")) < 0 ||
		    (rc = r_u64(&r, &m->tsc2nsec_offset, "TSC2NSEC offset")) < 0)
			return rc;
		/* The conversion shifts by 32 - shift (§10.3). */
		if (m->tsc2nsec_shift > 32)
			return tc_fail(TC_EFORMAT, b->path, o->offset, "TSC2NSEC shift %" PRIu32 " is above 32", m->tsc2nsec_shift);
		m->has_tsc2nsec = true;
		return 0;
	case OPT_HEADER_INFO:
	case OPT_FTRACE_EVENTS:
	case OPT_EVENT_FORMATS:
	case OPT_KALLSYMS:
	case OPT_PRINTK:
	case OPT_CMDLINES: {
		uint64_t off;
		if (m->version < 7)
			return 0;
		if ((rc = r_u64(&r, &off, "section offset")) < 0)
			return rc;
		if (off > INT64_MAX)
			return tc_fail(TC_EFORMAT, b->path, o->offset, "section offset %" PRIu64 " is out of range", off);
		b->section_offset[o->id - OPT_HEADER_INFO] = (int64_t)off;
		return 0;
	}
	case OPT_BUFFER_TEXT:
		b->latency = true;
		return 0;
	default:
		/* CPUSTAT, HOOK, PROCMAPS, GUEST and unknown ids: kept raw. */
		return 0;
	}
}

/* Reads one option's id, size and payload; *ID 0 (DONE) ends a list. */
static int read_option(builder *b, reader *r, bool v6, uint16_t *id, tracedat_option *o)
{
	uint64_t v;
	int rc = r_uint(r, 2, &v, "option id");
	if (rc < 0)
		return rc;
	*id = (uint16_t)v;
	memset(o, 0, sizeof *o);
	o->id = *id;
	if (v6 && *id == OPT_DONE)
		return 0;   /* v6's DONE is the bare id (§4.1) */
	uint32_t size;
	tracedat_blob payload;
	if ((rc = r_u32(r, &size, "option size")) < 0 || (rc = r_blob(r, size, &payload, "option payload")) < 0)
		return rc;
	o->size = size;
	o->data = (const uint8_t *)payload.data;
	o->offset = payload.offset;
	return 0;
}

static int read_options_v6(builder *b, reader *r)
{
	for (;;) {
		uint16_t id;
		tracedat_option o;
		int rc = read_option(b, r, true, &id, &o);
		if (rc < 0 || id == OPT_DONE)
			return rc;
		if ((rc = tc_buf_append(&b->options, &o, sizeof o)) < 0 || (rc = apply_option(b, &o, r)) < 0)
			return rc;
	}
}

/* ------------------------------------------------------------------------
 * v7 sections (§5)
 */

/* The body of the section WANT_ID at OFF into BODY (inflated when
 * compressed), and *R to read it. */
static int load_section(builder *b, uint64_t off, uint16_t want_id, const char *what, tc_buf *body, reader *r)
{
	tracedat_file *f = b->f;
	reader hr = { f, NULL, off, f->meta.file_size, 0, false, (int64_t)off };
	uint64_t id, flags, size;
	uint32_t desc;
	int rc;
	if (off > f->meta.file_size)
		return tc_fail(TC_EFORMAT, b->path, -1, "%s section at byte %" PRIu64 " is beyond the end of the %" PRIu64 "-byte file", what, off, f->meta.file_size);
	if ((rc = r_uint(&hr, 2, &id, "section id")) < 0 || (rc = r_uint(&hr, 2, &flags, "section flags")) < 0 ||
	    (rc = r_u32(&hr, &desc, "section description")) < 0 || (rc = r_u64(&hr, &size, "section size")) < 0)
		return rc;
	if (id != want_id)
		return tc_fail(TC_EFORMAT, b->path, (int64_t)off, "expected the %s section (id %u) here, found id %" PRIu64, what, want_id, id);
	if ((rc = r_need(&hr, size, "section body")) < 0)
		return rc;
	memset(r, 0, sizeof *r);
	r->f = f;
	r->section = (int64_t)off;
	if (flags & SECTION_FLAG_COMPRESSED) {
		uint32_t csize, usize;
		if (f->compression == TD_COMPRESSION_NONE)
			return tc_fail(TC_EFORMAT, b->path, (int64_t)off, "compressed %s section in a file that declares no compression", what);
		if ((rc = r_u32(&hr, &csize, "compressed size")) < 0 || (rc = r_u32(&hr, &usize, "uncompressed size")) < 0)
			return rc;
		if ((uint64_t)csize + 8 > size)
			return tc_fail(TC_EFORMAT, b->path, (int64_t)off, "%s section of %" PRIu64 " bytes holds a compressed block of %" PRIu32, what, size, csize);
		uint8_t *src = malloc(csize ? csize : 1);
		td_codec codec;
		if (!src)
			return tc_fail_nomem();
		rc = r_read(&hr, src, csize, "compressed block");
		if (rc == 0 && (rc = td_codec_init(&codec, f->compression)) == 0) {
			rc = td_decompress(&codec, src, csize, usize, body, b->path, off);
			td_codec_free(&codec);
		}
		free(src);
		r->compressed = true;
	} else {
		if ((rc = tc_buf_reserve(body, (size_t)size)) == 0 && (rc = r_read(&hr, body->data, size, "section body")) == 0)
			body->len = (size_t)size;
		r->base = off + SECTION_HEADER_SIZE;
	}
	r->mem = (const uint8_t *)body->data;
	r->end = body->len;
	return rc;
}

/* The whole body must have been used (§5.7). */
static int section_done(const reader *r, const char *what)
{
	if (r_left(r))
		return r_fail(r, "%" PRIu64 " bytes after the end of the %s", r_left(r), what);
	return 0;
}

static int read_options_chain(builder *b, uint64_t first)
{
	tc_buf visited = { 0 };
	int rc = 0;
	for (uint64_t off = first; off != 0 && rc == 0;) {
		const uint64_t *seen = (const uint64_t *)visited.data;
		for (size_t i = 0; i < visited.len / sizeof *seen; i++)
			if (seen[i] == off) {
				rc = tc_fail(TC_EFORMAT, b->path, (int64_t)off, "the chain of OPTIONS sections comes back here");
				break;
			}
		if (rc == 0 && visited.len / sizeof off >= MAX_OPTION_SECTIONS)
			rc = tc_fail(TC_EFORMAT, b->path, (int64_t)off, "more than %d OPTIONS sections", MAX_OPTION_SECTIONS);
		if (rc == 0)
			rc = tc_buf_append(&visited, &off, sizeof off);
		tc_buf body = { 0 };
		reader r;
		if (rc == 0)
			rc = load_section(b, off, SECTION_OPTIONS, "OPTIONS", &body, &r);
		uint64_t next = 0;
		while (rc == 0) {
			uint16_t id;
			tracedat_option o;
			if (r_left(&r) == 0) {
				rc = r_fail(&r, "OPTIONS section without a DONE option");
				break;
			}
			if ((rc = read_option(b, &r, false, &id, &o)) < 0)
				break;
			if (id == OPT_DONE) {
				/* v7 DONE: the next OPTIONS section, 0 for none. */
				reader pr = payload_reader(b, &o, &r);
				rc = r_u64(&pr, &next, "DONE option");
				break;
			}
			if ((rc = tc_buf_append(&b->options, &o, sizeof o)) == 0)
				rc = apply_option(b, &o, &r);
		}
		tc_buf_free(&body);
		off = next;
	}
	tc_buf_free(&visited);
	return rc;
}

typedef int (*section_parser)(builder *b, reader *r);

static int parse_kallsyms(builder *b, reader *r)
{
	return read_sized_text(r, 4, &b->f->meta.kallsyms, "kallsyms");
}

static int parse_printk(builder *b, reader *r)
{
	return read_sized_text(r, 4, &b->f->meta.printk_formats, "printk formats");
}

static int parse_cmdlines(builder *b, reader *r)
{
	return read_sized_text(r, 8, &b->f->meta.cmdlines, "saved cmdlines");
}

static int read_metadata_sections(builder *b)
{
	static const struct {
		const char *name;
		section_parser parse;
		bool required;
	} sections[6] = {
		{ "HEADER_INFO", read_header_info, true },
		{ "FTRACE_EVENTS", read_ftrace_formats, false },
		{ "EVENT_FORMATS", read_event_formats, false },
		{ "KALLSYMS", parse_kallsyms, false },
		{ "PRINTK", parse_printk, false },
		{ "CMDLINES", parse_cmdlines, false },
	};
	for (int i = 0; i < 6; i++) {
		if (b->section_offset[i] < 0) {
			if (sections[i].required)
				return tc_fail(TC_EFORMAT, b->path, -1, "no %s option: the file does not say where its %s section is",
				               sections[i].name, sections[i].name);
			continue;
		}
		tc_buf body = { 0 };
		reader r;
		int rc = load_section(b, (uint64_t)b->section_offset[i], (uint16_t)(OPT_HEADER_INFO + i), sections[i].name, &body, &r);
		if (rc == 0)
			rc = sections[i].parse(b, &r);
		if (rc == 0)
			rc = section_done(&r, sections[i].name);
		tc_buf_free(&body);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A v7 buffer's section header says whether its CPU data are compressed. */
static int read_buffer_section(builder *b, tracedat_buffer *buf)
{
	tracedat_file *f = b->f;
	reader hr = { f, NULL, (uint64_t)buf->offset, f->meta.file_size, 0, false, buf->offset };
	uint64_t id, flags;
	int rc;
	if ((uint64_t)buf->offset > f->meta.file_size)
		return tc_fail(TC_EFORMAT, b->path, -1, "buffer \"%s\" section at byte %" PRId64 " is beyond the end of the file", buf->name, buf->offset);
	if ((rc = r_uint(&hr, 2, &id, "section id")) < 0 || (rc = r_uint(&hr, 2, &flags, "section flags")) < 0)
		return rc;
	if (id != SECTION_BUFFER)
		return tc_fail(TC_EFORMAT, b->path, buf->offset, "expected the BUFFER section of buffer \"%s\" (id 3), found id %" PRIu64, buf->name, id);
	buf->compressed = flags & SECTION_FLAG_COMPRESSED;
	if (buf->compressed && f->compression == TD_COMPRESSION_NONE)
		return tc_fail(TC_EFORMAT, b->path, buf->offset, "compressed buffer \"%s\" in a file that declares no compression", buf->name);
	int max_cpu = -1;
	for (size_t i = 0; i < buf->cpu_data_count; i++)
		if (buf->cpu_data[i].cpu > max_cpu)
			max_cpu = buf->cpu_data[i].cpu;
	buf->cpu_count = f->meta.cpu_count > (uint32_t)(max_cpu + 1) ? f->meta.cpu_count : (uint32_t)(max_cpu + 1);
	return 0;
}

/* Moves the top buffer (named "") in front of the instances, which the
 * files list before it (v6) or in any order (v7). */
static void put_top_first(builder *b)
{
	size_t n = b->buffers.len / sizeof(tracedat_buffer);
	for (size_t i = 1; i < n; i++) {
		if (buffer_at(b, i)->name[0] != '\0')
			continue;
		tracedat_buffer top = *buffer_at(b, i);
		memmove(buffer_at(b, 1), buffer_at(b, 0), i * sizeof top);
		*buffer_at(b, 0) = top;
		return;
	}
}

/* ------------------------------------------------------------------------
 * v6 flyrecord tables (§4.3, §4.4)
 */

/* "flyrecord\0", the CPU table of BUF (cpu_count entries) and the
 * "[clock]" text that trace-cmd writes after it when it wrote a
 * TRACECLOCK option (§12.2). */
static int read_flyrecord_v6(builder *b, reader *r, tracedat_buffer *buf)
{
	tracedat_meta *m = &b->f->meta;
	int rc = r_expect(r, "flyrecord", 10, "\"flyrecord\"");
	if (rc < 0)
		return rc;
	uint32_t n = buf->cpu_count;
	if ((uint64_t)n * 16 > r_left(r))
		return r_fail(r, "a table of %" PRIu32 " CPUs needs %" PRIu64 " bytes, only %" PRIu64 " are left in the file", n,
		              (uint64_t)n * 16, r_left(r));
	if (n > INT32_MAX)
		return r_fail(r, "%" PRIu32 " CPUs is out of range", n);
	tracedat_cpu_data *cpus = n ? tc_pool_alloc(&b->f->pool, n * sizeof *cpus) : NULL;
	if (n && !cpus)
		return TC_ENOMEM;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		cpus[i].cpu = (int)i;
		if ((rc = r_u64(r, &cpus[i].offset, "CPU data offset")) == 0)
			rc = r_u64(r, &cpus[i].size, "CPU data size");
	}
	if (rc < 0)
		return rc;
	buf->cpu_data = cpus;
	buf->cpu_data_count = n;
	buf->page_size = m->page_size;
	buf->clock = m->trace_clock;
	if (m->trace_clock_option[0]) {
		uint64_t len;
		char *text;
		tracedat_blob clock;
		if ((rc = r_u64(r, &len, "clock name size")) < 0 || (rc = r_blob(r, len, &clock, "clock name")) < 0)
			return rc;
		text = (char *)clock.data;
		char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
		if (close) {
			*close = '\0';
			buf->clock = open + 1;
		}
	}
	return 0;
}

static int read_v6(builder *b, reader *r)
{
	tracedat_meta *m = &b->f->meta;
	uint32_t cpus;
	char tag[10];
	int rc;
	if ((rc = read_header_info(b, r)) < 0 || (rc = read_ftrace_formats(b, r)) < 0 || (rc = read_event_formats(b, r)) < 0 ||
	    (rc = read_sized_text(r, 4, &m->kallsyms, "kallsyms")) < 0 ||
	    (rc = read_sized_text(r, 4, &m->printk_formats, "printk formats")) < 0 ||
	    (rc = read_sized_text(r, 8, &m->cmdlines, "saved cmdlines")) < 0 || (rc = r_u32(r, &cpus, "CPU count")) < 0)
		return rc;
	m->cpu_count = cpus;
	if ((rc = r_read(r, tag, sizeof tag, "\"options\", \"latency\" or \"flyrecord\"")) < 0)
		return rc;
	if (memcmp(tag, "options  ", 10) == 0) {
		if ((rc = read_options_v6(b, r)) < 0 || (rc = r_read(r, tag, sizeof tag, "\"latency\" or \"flyrecord\"")) < 0)
			return rc;
	}
	if (memcmp(tag, "latency  ", 10) == 0)
		return tc_fail(TC_EUNSUPPORTED, b->path, r_where(r) - 10, "latency (text) trace.dat files are not supported");
	if (memcmp(tag, "flyrecord", 10) != 0)
		return tc_fail(TC_EFORMAT, b->path, r_where(r) - 10, "expected \"options\", \"latency\" or \"flyrecord\"");
	r->pos -= 10;
	/* The top buffer, then the instances BUFFER options announced. */
	tracedat_buffer top = { .name = "", .cpu_count = cpus, .offset = r_where(r) };
	if ((rc = read_flyrecord_v6(b, r, &top)) < 0)
		return rc;
	size_t instances = b->buffers.len / sizeof top;
	for (size_t i = 0; i < instances; i++) {
		tracedat_buffer *buf = buffer_at(b, i);
		reader ir = { b->f, NULL, (uint64_t)buf->offset, m->file_size, 0, false, buf->offset };
		if ((uint64_t)buf->offset > m->file_size)
			return tc_fail(TC_EFORMAT, b->path, -1, "buffer \"%s\" at byte %" PRId64 " is beyond the end of the file", buf->name, buf->offset);
		if ((rc = read_flyrecord_v6(b, &ir, buf)) < 0)
			return rc;
	}
	int64_t index;
	if ((rc = new_buffer(b, &top, &index)) < 0)
		return rc;
	put_top_first(b);
	return 0;
}

/* ------------------------------------------------------------------------
 * Opening
 */

static int read_v7(builder *b, reader *r)
{
	tracedat_meta *m = &b->f->meta;
	char *name, *version;
	uint64_t first;
	int rc;
	if ((rc = r_cstr(r, &name, "compression name")) < 0 || (rc = r_cstr(r, &version, "compression version")) < 0 ||
	    (rc = r_u64(r, &first, "offset of the first OPTIONS section")) < 0)
		return rc;
	m->compression = name;
	m->compression_version = version;
	if (strcmp(name, "none") == 0)
		b->f->compression = TD_COMPRESSION_NONE;
	else if (strcmp(name, "zstd") == 0)
		b->f->compression = TD_COMPRESSION_ZSTD;
	else if (strcmp(name, "zlib") == 0)
		b->f->compression = TD_COMPRESSION_ZLIB;
	else
		return tc_fail(TC_EUNSUPPORTED, b->path, INITIAL_HEADER_END, "compression \"%s\" is not supported (only zstd and zlib)", name);
	if (first == 0)
		return tc_fail(TC_EFORMAT, b->path, (int64_t)r->pos - 8, "no OPTIONS section");
	if ((rc = read_options_chain(b, first)) < 0)
		return rc;
	if (b->latency)
		return tc_fail(TC_EUNSUPPORTED, b->path, -1, "latency (text) trace.dat files are not supported");
	if ((rc = read_metadata_sections(b)) < 0)
		return rc;
	put_top_first(b);
	size_t n = b->buffers.len / sizeof(tracedat_buffer);
	for (size_t i = 0; i < n; i++)
		if ((rc = read_buffer_section(b, buffer_at(b, i))) < 0)
			return rc;
	return 0;
}

/* The CPU whose data starts first among those running past the end of a
 * cut file, or NULL when every CPU's data lies within the file.  Checked
 * when the file is opened, as trace-cmd does ("File possibly truncated"),
 * so that every command tells the same story: read page by page, each
 * command would meet a different CPU's end first. */
static const tracedat_cpu_data *first_cut_cpu(builder *b, const tracedat_buffer **in)
{
	const tracedat_meta *m = &b->f->meta;
	const tracedat_cpu_data *first = NULL;
	size_t n = b->buffers.len / sizeof(tracedat_buffer);
	for (size_t i = 0; i < n; i++) {
		const tracedat_buffer *buf = buffer_at(b, i);
		for (size_t c = 0; c < buf->cpu_data_count; c++) {
			const tracedat_cpu_data *cd = &buf->cpu_data[c];
			if (cd->size && cd->offset + cd->size > m->file_size && (!first || cd->offset < first->offset)) {
				first = cd;
				*in = buf;
			}
		}
	}
	return first;
}

static int check_buffers(builder *b)
{
	const tracedat_meta *m = &b->f->meta;
	size_t n = b->buffers.len / sizeof(tracedat_buffer);
	for (size_t i = 0; i < n; i++) {
		const tracedat_buffer *buf = buffer_at(b, i);
		uint32_t ps = buf->page_size;
		/* trace-cmd finds pages by masking offsets: a power of two. */
		if (ps < MIN_PAGE_SIZE || ps > MAX_PAGE_SIZE || (ps & (ps - 1)))
			return tc_fail(TC_EFORMAT, b->path, buf->offset, "buffer \"%s\": page size %" PRIu32 " is not a power of two between %d and %u",
			               buf->name, ps, MIN_PAGE_SIZE, MAX_PAGE_SIZE);
		if (m->page_data_offset >= ps)
			return tc_fail(TC_EFORMAT, b->path, buf->offset, "buffer \"%s\": page size %" PRIu32 " leaves no room after the %" PRIu32 "-byte page header",
			               buf->name, ps, m->page_data_offset);
		for (size_t c = 0; c < buf->cpu_data_count; c++) {
			const tracedat_cpu_data *cd = &buf->cpu_data[c];
			uint64_t end;
			if (!tc_add_u64(cd->offset, cd->size, &end) || cd->offset > INT64_MAX)
				return tc_fail(TC_EFORMAT, b->path, buf->offset, "buffer \"%s\" CPU %d: offset %" PRIu64 " and size %" PRIu64 " overflow",
				               buf->name, cd->cpu, cd->offset, cd->size);
			/* trace-cmd writes CPU data page-aligned and refuses
			 * other offsets ("bad page offset"). */
			if (cd->size && cd->offset % ps)
				return tc_fail(TC_EFORMAT, b->path, buf->offset, "buffer \"%s\" CPU %d: data at byte %" PRIu64 " is not aligned to its %" PRIu32 "-byte pages",
				               buf->name, cd->cpu, cd->offset, ps);
		}
	}
	const tracedat_buffer *cut_buf = NULL;
	const tracedat_cpu_data *cut = first_cut_cpu(b, &cut_buf);
	if (cut) {
		const char *name = cut_buf->name;
		return tc_fail(TC_EFORMAT, b->path, (int64_t)m->file_size, "%s%s%sCPU %d: the file ends here, before the end of the CPU's data at byte %" PRIu64 " (truncated file?)",
		               name[0] ? "buffer \"" : "", name, name[0] ? "\", " : "", cut->cpu, cut->offset + cut->size);
	}
	return 0;
}

/* The items of LIST copied into the pool as an array (NULL if none);
 * false when memory ran out. */
static bool to_array(builder *b, const tc_buf *list, void **out)
{
	*out = NULL;
	if (list->len == 0)
		return true;
	if (!(*out = tc_pool_alloc(&b->f->pool, list->len)))
		return false;
	memcpy(*out, list->data, list->len);
	return true;
}

/* Hands out what B collected as F's META. */
static int publish(builder *b)
{
	tracedat_meta *m = &b->f->meta;
	void *options, *buffers, *ftrace, *events;
	if (!to_array(b, &b->options, &options) || !to_array(b, &b->buffers, &buffers) ||
	    !to_array(b, &b->ftrace_formats, &ftrace) || !to_array(b, &b->event_formats, &events))
		return TC_ENOMEM;
	m->options = options;
	m->option_count = b->options.len / sizeof *m->options;
	m->buffers = buffers;
	m->buffer_count = b->buffers.len / sizeof *m->buffers;
	m->ftrace_formats = ftrace;
	m->ftrace_format_count = b->ftrace_formats.len / sizeof *m->ftrace_formats;
	m->event_formats = events;
	m->event_format_count = b->event_formats.len / sizeof *m->event_formats;
	return 0;
}

static int read_initial_header(builder *b, reader *r)
{
	tracedat_meta *m = &b->f->meta;
	uint8_t h[INITIAL_HEADER_END];
	int rc = r_read(r, h, sizeof h, "initial header");
	if (rc < 0)
		return rc;
	if (memcmp(h, MAGIC, MAGIC_LEN) != 0)
		return tc_fail(TC_ENOTFOUND, b->path, 0, "not a trace.dat file");
	/* The version is decimal text and a NUL; 6 and 7 take two bytes. */
	if (h[11] != 0 || (h[10] != '6' && h[10] != '7'))
		return tc_fail(TC_EUNSUPPORTED, b->path, 10, "trace.dat version \"%.*s\" is not supported (only 6 and 7)",
		               (int)strnlen((const char *)h + 10, 8), (const char *)h + 10);
	m->version = h[10] - '0';
	if (h[12] > 1)
		return tc_fail(TC_EFORMAT, b->path, 12, "endian flag %u (0 little, 1 big)", h[12]);
	m->big_endian = h[12] == 1;
	m->file_long_size = h[13];
	if (m->file_long_size != 4 && m->file_long_size != 8)
		return tc_fail(TC_EFORMAT, b->path, 13, "long size %u (4 or 8)", h[13]);
	m->page_size = (uint32_t)tracedat_read_uint(b->f, h + 14, 4);
	return 0;
}

static void builder_free(builder *b)
{
	tc_buf_free(&b->options);
	tc_buf_free(&b->buffers);
	tc_buf_free(&b->ftrace_formats);
	tc_buf_free(&b->event_formats);
}

bool tracedat_has_magic(const char *path)
{
	char buf[MAGIC_LEN];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = pread(fd, buf, sizeof buf, 0) == (ssize_t)sizeof buf && memcmp(buf, MAGIC, MAGIC_LEN) == 0;
	close(fd);
	return ok;
}

/* A file with nothing read yet: every text empty, no descriptor. */
static tracedat_file *file_new(void)
{
	tracedat_file *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	tc_pool_init(&f->pool);
	f->fd = -1;
	tracedat_meta *m = &f->meta;
	static const tracedat_blob empty = { "", 0, -1, false };
	m->header_page = m->header_event = m->kallsyms = m->printk_formats = m->cmdlines = empty;
	m->compression = "none";
	m->compression_version = m->trace_clock_option = m->trace_clock = m->uname = m->tracer_version = "";
	return f;
}

/* Opens PATH, a regular file, into F: its descriptor, path and size. */
static int open_regular(tracedat_file *f, const char *path)
{
	struct stat st;
	if (!(f->meta.path = tc_pool_strdup(&f->pool, path)))
		return TC_ENOMEM;
	if ((f->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return tc_fail(errno == ENOENT ? TC_ENOTFOUND : TC_EIO, path, -1, "cannot open: %s", strerror(errno));
	if (fstat(f->fd, &st) < 0)
		return tc_fail(TC_EIO, path, -1, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return tc_fail(TC_ENOTFOUND, path, -1, "not a regular file");
	f->meta.file_size = (uint64_t)st.st_size;
	return 0;
}

/* Ends an open that read B's file with RC: the file published into *OUT,
 * or closed. */
static int finish_open(builder *b, int rc, tracedat_file **out)
{
	if (rc == 0)
		rc = publish(b);
	tracedat_file *f = b->f;
	builder_free(b);
	if (rc < 0) {
		tracedat_close(f);
		return rc;
	}
	*out = f;
	return 0;
}

int tracedat_open(tracedat_file **out, const char *path)
{
	tracedat_file *f = file_new();
	if (!f)
		return tc_fail_nomem();
	tracedat_meta *m = &f->meta;
	builder b = { .f = f, .path = path, .v6_last_buffer = -1 };
	for (int i = 0; i < 6; i++)
		b.section_offset[i] = -1;
	int rc = open_regular(f, path);
	reader r = { f, NULL, 0, m->file_size, 0, false, -1 };
	if (rc == 0) {
		if (m->file_size < MAGIC_LEN)
			rc = tc_fail(TC_ENOTFOUND, path, 0, "not a trace.dat file");
		else
			rc = read_initial_header(&b, &r);
	}
	if (rc == 0)
		rc = m->version == 6 ? read_v6(&b, &r) : read_v7(&b, &r);
	if (rc == 0)
		rc = check_buffers(&b);
	return finish_open(&b, rc, out);
}

/* perf's tracing data (tools/perf/util/trace-event-info.c): the magic, a
 * version "0.5" or "0.6", endianness, long size and page size, then the
 * metadata exactly as a v6 trace.dat file lays it out (§3), the saved
 * cmdlines only from 0.6 on; no CPU data follow (doc/formats/perf.md
 * says how perf.data holds them). */
static int read_tracing_data(builder *b, reader *r)
{
	tracedat_meta *m = &b->f->meta;
	uint8_t h[MAGIC_LEN], after[6];
	char *version;
	int rc;
	if ((rc = r_read(r, h, sizeof h, "tracing data magic")) < 0)
		return rc;
	if (memcmp(h, MAGIC, MAGIC_LEN) != 0)
		return tc_fail(TC_EFORMAT, b->path, (int64_t)r->pos - MAGIC_LEN, "tracing data does not start with its magic");
	if ((rc = r_cstr(r, &version, "tracing data version")) < 0 || (rc = r_read(r, after, sizeof after, "tracing data header")) < 0)
		return rc;
	if (strcmp(version, "0.5") != 0 && strcmp(version, "0.6") != 0)
		return tc_fail(TC_EUNSUPPORTED, b->path, (int64_t)r->pos - 6 - (int64_t)strlen(version) - 1,
		               "tracing data version \"%s\" is not supported (only 0.5 and 0.6)", version);
	if (after[0] > 1 || (after[1] != 4 && after[1] != 8))
		return tc_fail(TC_EFORMAT, b->path, (int64_t)r->pos - 6, "tracing data: endian flag %u, long size %u", after[0], after[1]);
	m->version = 6;
	m->big_endian = after[0] == 1;
	m->file_long_size = after[1];
	m->page_size = (uint32_t)tracedat_read_uint(b->f, after + 2, 4);
	if ((rc = read_header_info(b, r)) < 0 || (rc = read_ftrace_formats(b, r)) < 0 || (rc = read_event_formats(b, r)) < 0 ||
	    (rc = read_sized_text(r, 4, &m->kallsyms, "kallsyms")) < 0 ||
	    (rc = read_sized_text(r, 4, &m->printk_formats, "printk formats")) < 0)
		return rc;
	if (strcmp(version, "0.6") == 0 && (rc = read_sized_text(r, 8, &m->cmdlines, "saved cmdlines")) < 0)
		return rc;
	return 0;
}

int tracedat_open_tracing_data(tracedat_file **out, const char *path, uint64_t offset, uint64_t size)
{
	tracedat_file *f = file_new();
	if (!f)
		return tc_fail_nomem();
	tracedat_meta *m = &f->meta;
	builder b = { .f = f, .path = path, .v6_last_buffer = -1 };
	int rc = open_regular(f, path);
	reader r = { f, NULL, offset, offset + size, 0, false, -1 };
	if (rc == 0 && (offset > m->file_size || size > m->file_size - offset))
		rc = tc_fail(TC_EFORMAT, path, (int64_t)offset, "tracing data of %" PRIu64 " bytes runs past the end of the file", size);
	if (rc == 0)
		rc = read_tracing_data(&b, &r);
	return finish_open(&b, rc, out);
}

void tracedat_close(tracedat_file *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	tc_pool_free(&f->pool);
	free(f);
}

const tracedat_meta *tracedat_meta_of(const tracedat_file *f)
{
	return &f->meta;
}
