/* SPDX-License-Identifier: MIT */
/*
 * header.c - perf_open(): a perf.data file's header, attributes with their
 * ids, and the feature sections tracecat uses (perf.data-file-format.txt,
 * "perf_header", "Feature sections").  Records are records.c's.
 *
 * The file is mapped whole; every section the header or a feature names
 * is checked to lie within it before a byte of it is read.
 */
#include "perf/perf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "PERFILE2"
#define HEADER_SIZE 104             /* magic, size, attr_size, 3 sections, 256 feature bits */
#define PIPE_HEADER_SIZE 16         /* magic, size */
#define ATTR_MIN_SIZE 64            /* PERF_ATTR_SIZE_VER0 */
#define STRING_MAX (1u << 20)       /* no feature string is near this */

/* Feature bits (perf's enum HEADER_*). */
enum {
	FEAT_TRACING_DATA = 1,
	FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4,
	FEAT_VERSION = 5,
	FEAT_ARCH = 6,
	FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8,
	FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12,
	FEAT_LAST = 255
};

uint64_t perf_u64(const perf_file *f, const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return f->swap ? __builtin_bswap64(v) : v;
}

uint32_t perf_u32(const perf_file *f, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return f->swap ? __builtin_bswap32(v) : v;
}

uint16_t perf_u16(const perf_file *f, const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return f->swap ? __builtin_bswap16(v) : v;
}

/* Whether [OFF, OFF + SIZE) lies within the file. */
static bool within(const perf_file *f, uint64_t off, uint64_t size)
{
	return off <= f->size && size <= f->size - off;
}

/* A section {offset, size} read at AT, checked to lie within the file. */
static int section_at(const perf_file *f, uint64_t at, const char *what, uint64_t *off, uint64_t *size)
{
	*off = perf_u64(f, f->map + at);
	*size = perf_u64(f, f->map + at + 8);
	if (!within(f, *off, *size))
		return tc_fail(TC_EFORMAT, f->path, (int64_t)at, "%s section (%" PRIu64 " bytes at byte %" PRIu64 ") runs past the end of the file (%" PRIu64 " bytes)",
		               what, *size, *off, f->size);
	return 0;
}

/* A window of a feature section, read front to back. */
typedef struct cursor {
	const perf_file *f;
	uint64_t pos, end;
	const char *what;
} cursor;

static int c_need(const cursor *c, uint64_t n)
{
	if (n > c->end - c->pos)
		return tc_fail(TC_EFORMAT, c->f->path, (int64_t)c->pos, "%s: %" PRIu64 " bytes needed, only %" PRIu64 " left in the section",
		               c->what, n, c->end - c->pos);
	return 0;
}

static int c_u32(cursor *c, uint32_t *v)
{
	int rc = c_need(c, 4);
	if (rc == 0) {
		*v = perf_u32(c->f, c->f->map + c->pos);
		c->pos += 4;
	}
	return rc;
}

/* perf_header_string: a u32 length, then that many bytes holding the text
 * and its NUL padding. */
static int c_string(cursor *c, perf_file *f, const char **out)
{
	uint32_t len;
	int rc = c_u32(c, &len);
	if (rc == 0 && len > STRING_MAX)
		rc = tc_fail(TC_EFORMAT, f->path, (int64_t)c->pos - 4, "%s: string of %" PRIu32 " bytes", c->what, len);
	if (rc == 0)
		rc = c_need(c, len);
	if (rc < 0)
		return rc;
	const char *s = (const char *)f->map + c->pos;
	if (!(*out = tc_pool_strndup(&f->pool, s, strnlen(s, len))))
		return TC_ENOMEM;
	c->pos += len;
	return 0;
}

static int read_cmdline(cursor *c, perf_file *f)
{
	uint32_t n;
	int rc = c_u32(c, &n);
	tc_buf line = { 0 };
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const char *arg;
		if ((rc = c_string(c, f, &arg)) == 0)
			rc = tc_buf_printf(&line, "%s%s", i ? " " : "", arg);
	}
	if (rc == 0 && !(f->cmdline = tc_pool_strdup(&f->pool, line.data ? line.data : "")))
		rc = TC_ENOMEM;
	tc_buf_free(&line);
	return rc;
}

/* event_desc: each attribute's name, matched to the attributes by their
 * first id (or by their order when they have none). */
static int read_event_desc(cursor *c, perf_file *f)
{
	uint32_t n, attr_size;
	int rc;
	if ((rc = c_u32(c, &n)) < 0 || (rc = c_u32(c, &attr_size)) < 0)
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nr_ids;
		const char *name;
		if ((rc = c_need(c, attr_size)) < 0)
			return rc;
		c->pos += attr_size;
		if ((rc = c_u32(c, &nr_ids)) < 0 || (rc = c_string(c, f, &name)) < 0 || (rc = c_need(c, (uint64_t)nr_ids * 8)) < 0)
			return rc;
		perf_attr *a = i < f->attr_count ? &f->attrs[i] : NULL;
		if (nr_ids) {
			uint64_t id = perf_u64(f, f->map + c->pos);
			a = NULL;
			for (size_t k = 0; k < f->id_count && !a; k++)
				if (f->ids[k].id == id)
					a = &f->attrs[f->ids[k].attr];
		}
		if (a)
			a->name = name;
		c->pos += (uint64_t)nr_ids * 8;
	}
	return 0;
}

static int read_feature(perf_file *f, int feat, uint64_t off, uint64_t size)
{
	cursor c = { f, off, off + size, "" };
	switch (feat) {
	case FEAT_TRACING_DATA:
		f->has_tracing_data = true;
		f->tracing_offset = off;
		f->tracing_size = size;
		return 0;
	case FEAT_HOSTNAME:
		c.what = "hostname";
		return c_string(&c, f, &f->hostname);
	case FEAT_OSRELEASE:
		c.what = "osrelease";
		return c_string(&c, f, &f->osrelease);
	case FEAT_VERSION:
		c.what = "version";
		return c_string(&c, f, &f->version);
	case FEAT_ARCH:
		c.what = "arch";
		return c_string(&c, f, &f->arch);
	case FEAT_CPUDESC:
		c.what = "cpudesc";
		return c_string(&c, f, &f->cpudesc);
	case FEAT_NRCPUS:
		c.what = "nrcpus";
		f->has_nrcpus = true;
		int rc = c_u32(&c, &f->nr_cpus_available);
		return rc < 0 ? rc : c_u32(&c, &f->nr_cpus_online);
	case FEAT_CMDLINE:
		c.what = "cmdline";
		return read_cmdline(&c, f);
	case FEAT_EVENT_DESC:
		c.what = "event_desc";
		return read_event_desc(&c, f);
	default:
		return 0;   /* not used yet */
	}
}

/* The feature sections: one {offset, size} per bit set, in bit order,
 * right after the data section. */
static int read_features(perf_file *f)
{
	uint64_t at = f->data_end;
	int rc = 0;
	for (int feat = 1; feat <= FEAT_LAST && rc == 0; feat++) {
		if (!(f->features[feat / 64] >> (feat % 64) & 1))
			continue;
		uint64_t off, size;
		if (!within(f, at, 16))
			return tc_fail(TC_EFORMAT, f->path, (int64_t)at, "the table of feature sections runs past the end of the file (feature %d)", feat);
		if ((rc = section_at(f, at, "feature", &off, &size)) == 0)
			rc = read_feature(f, feat, off, size);
		at += 16;
	}
	return rc;
}

static int cmp_id(const void *a, const void *b)
{
	const perf_id *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* Bytes of the sample_id trailer that records other than samples carry
 * when sample_id_all is set (perf_event.h, "struct sample_id"). */
static uint32_t id_trailer(uint64_t st)
{
	uint32_t n = 0;
	n += st & PERF_S_TID ? 8 : 0;
	n += st & PERF_S_TIME ? 8 : 0;
	n += st & PERF_S_ID ? 8 : 0;
	n += st & PERF_S_STREAM_ID ? 8 : 0;
	n += st & PERF_S_CPU ? 8 : 0;
	n += st & PERF_S_IDENTIFIER ? 8 : 0;
	return n;
}

/* The perf_event_attr of SIZE bytes at AT into *A. */
static void parse_attr(const perf_file *f, uint64_t at, uint64_t size, perf_attr *a)
{
	const uint8_t *p = f->map + at;
	a->type = perf_u32(f, p);
	a->config = perf_u64(f, p + 8);
	a->sample_type = perf_u64(f, p + 24);
	a->read_format = perf_u64(f, p + 32);
	uint64_t flags = perf_u64(f, p + 40);
	a->sample_id_all = flags >> 18 & 1;
	a->use_clockid = flags >> 25 & 1;
	a->clockid = size >= 96 ? (int32_t)perf_u32(f, p + 92) : 0;
	a->id_trailer = a->sample_id_all ? id_trailer(a->sample_type) : 0;
}

/* Sorts the ids, which must each name one attribute. */
static int sort_ids(perf_file *f)
{
	if (f->id_count)
		qsort(f->ids, f->id_count, sizeof *f->ids, cmp_id);
	for (size_t k = 1; k < f->id_count; k++)
		if (f->ids[k].id == f->ids[k - 1].id && f->ids[k].attr != f->ids[k - 1].attr)
			return tc_fail(TC_EFORMAT, f->path, -1, "two attributes share the sample id %" PRIu64, f->ids[k].id);
	return 0;
}

/* The attributes section: attr_size bytes each, a perf_event_attr then
 * the {offset, size} of its ids. */
static int read_attrs(perf_file *f, uint64_t attr_size, uint64_t off, uint64_t size)
{
	if (attr_size < ATTR_MIN_SIZE + 16 || attr_size > 4096)
		return tc_fail(TC_EFORMAT, f->path, 16, "attribute size %" PRIu64 " (perf writes 136 and more, never below %d)", attr_size, ATTR_MIN_SIZE + 16);
	if (size % attr_size)
		return tc_fail(TC_EFORMAT, f->path, 24, "attributes section of %" PRIu64 " bytes is not a whole number of %" PRIu64 "-byte attributes", size, attr_size);
	f->attr_count = size / attr_size;
	if (f->attr_count == 0)
		return tc_fail(TC_EFORMAT, f->path, 24, "no attributes: no record can be read");
	if (!(f->attrs = tc_pool_alloc(&f->pool, f->attr_count * sizeof *f->attrs)))
		return TC_ENOMEM;
	uint64_t total_ids = 0;
	for (size_t i = 0; i < f->attr_count; i++) {
		uint64_t at = off + i * attr_size, ids_off, ids_size;
		int rc = section_at(f, at + attr_size - 16, "attribute ids", &ids_off, &ids_size);
		if (rc < 0)
			return rc;
		if (ids_size % 8)
			return tc_fail(TC_EFORMAT, f->path, (int64_t)(at + attr_size - 8), "attribute ids of %" PRIu64 " bytes, not a multiple of 8", ids_size);
		parse_attr(f, at, attr_size - 16, &f->attrs[i]);
		total_ids += ids_size / 8;
	}
	if (total_ids && !(f->ids = tc_pool_alloc(&f->pool, total_ids * sizeof *f->ids)))
		return TC_ENOMEM;
	for (size_t i = 0; i < f->attr_count; i++) {
		uint64_t at = off + i * attr_size, ids_off, ids_size;
		section_at(f, at + attr_size - 16, "attribute ids", &ids_off, &ids_size);
		for (uint64_t k = 0; k < ids_size / 8; k++)
			f->ids[f->id_count++] = (perf_id){ perf_u64(f, f->map + ids_off + 8 * k), (uint32_t)i };
	}
	return sort_ids(f);
}

/* Pipe mode (perf record -o -): no sections; attributes, features and
 * the tracing data come as records of perf's own before the events
 * (perf.data-file-format.txt, "Pipe-mode data"): HEADER_ATTR (the
 * attribute, then its ids up to the record's end), HEADER_FEATURE (the
 * feature's id, then its section's bytes), HEADER_TRACING_DATA (its
 * size; the tracing data follow the record). */
static int read_pipe_header(perf_file *f)
{
	tc_buf attrs = { 0 }, ids = { 0 };
	perf_record r;
	int rc;
	for (uint64_t off = f->data_offset; (rc = perf_record_at(f, off, &r)) > 0; off = r.next) {
		if (r.type == PERF_REC_HEADER_ATTR) {
			uint64_t size = r.size >= 16 ? perf_u32(f, r.p + 12) : 0;
			if (size < ATTR_MIN_SIZE || size > r.size - 8 || (r.size - 8 - size) % 8) {
				rc = tc_fail(TC_EFORMAT, f->path, (int64_t)r.offset, "attribute record of %" PRIu64 " bytes with an attribute of %" PRIu64,
				             r.size, size);
				break;
			}
			perf_attr a = { 0 };
			parse_attr(f, r.offset + 8, size, &a);
			uint32_t index = (uint32_t)(attrs.len / sizeof a);
			for (uint64_t k = 8 + size; k < r.size && rc >= 0; k += 8)
				rc = tc_buf_append(&ids, &(perf_id){ perf_u64(f, r.p + k), index }, sizeof(perf_id));
			if (rc >= 0)
				rc = tc_buf_append(&attrs, &a, sizeof a);
		} else if (r.type == PERF_REC_HEADER_FEATURE) {
			if (r.size < 16) {
				rc = tc_fail(TC_EFORMAT, f->path, (int64_t)r.offset, "feature record of %" PRIu64 " bytes, too short for its id", r.size);
				break;
			}
			uint64_t feat = perf_u64(f, r.p + 8);
			/* event_desc names the attributes read before it */
			if (feat == FEAT_EVENT_DESC) {
				f->attrs = (perf_attr *)attrs.data;
				f->attr_count = attrs.len / sizeof(perf_attr);
				f->ids = (perf_id *)ids.data;
				f->id_count = ids.len / sizeof(perf_id);
			}
			if (feat <= FEAT_LAST)
				rc = read_feature(f, (int)feat, r.offset + 16, r.size - 16);
		} else if (r.type == PERF_REC_HEADER_TRACING_DATA) {
			f->has_tracing_data = true;
			f->tracing_offset = r.offset + r.size;
			f->tracing_size = perf_u32(f, r.p + 8);
		}
		if (rc < 0)
			break;
	}
	/* The arrays move to the pool, which frees them with the file. */
	f->attr_count = attrs.len / sizeof(perf_attr);
	f->id_count = ids.len / sizeof(perf_id);
	f->attrs = f->attr_count ? tc_pool_alloc(&f->pool, attrs.len) : NULL;
	f->ids = f->id_count ? tc_pool_alloc(&f->pool, ids.len) : NULL;
	if (rc == 0 && ((f->attr_count && !f->attrs) || (f->id_count && !f->ids)))
		rc = TC_ENOMEM;
	if (rc == 0) {
		if (f->attr_count)
			memcpy(f->attrs, attrs.data, attrs.len);
		if (f->id_count)
			memcpy(f->ids, ids.data, ids.len);
	}
	tc_buf_free(&attrs);
	tc_buf_free(&ids);
	if (rc == 0 && f->attr_count == 0)
		rc = tc_fail(TC_EFORMAT, f->path, (int64_t)f->data_offset, "no attribute records: no record can be read");
	return rc < 0 ? rc : sort_ids(f);
}

/* Names for the attributes event_desc does not name. */
static int name_attrs(perf_file *f)
{
	for (size_t i = 0; i < f->attr_count; i++) {
		perf_attr *a = &f->attrs[i];
		if (a->name)
			continue;
		char name[64];
		snprintf(name, sizeof name, "%" PRIu32 ":%" PRIu64, a->type, a->config);
		if (!(a->name = tc_pool_strdup(&f->pool, name)))
			return TC_ENOMEM;
	}
	return 0;
}

int perf_open(perf_file *f, const char *path)
{
	memset(f, 0, sizeof *f);
	tc_pool_init(&f->pool);
	f->path = path;
	f->hostname = f->osrelease = f->version = f->arch = f->cpudesc = f->cmdline = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tc_fail_open(path);
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 8) {
		close(fd);
		return TC_ENOTFOUND;
	}
	f->size = (uint64_t)st.st_size;
	void *map = mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return tc_fail(TC_EIO, path, -1, "cannot map: %s", strerror(errno));
	f->map = map;
	char swapped[8];
	for (int i = 0; i < 8; i++)
		swapped[i] = MAGIC[7 - i];
	bool native = memcmp(f->map, MAGIC, 8) == 0, other = memcmp(f->map, swapped, 8) == 0;
	if (!native && !other)
		return TC_ENOTFOUND;
	/* The magic is a u64 written in the writer's byte order. */
	f->swap = other;
	f->big_endian = (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) != f->swap;
	if (f->size < PIPE_HEADER_SIZE)
		return tc_fail(TC_EFORMAT, path, (int64_t)f->size, "the file ends inside its header");
	uint64_t header_size = perf_u64(f, f->map + 8);
	if (header_size == PIPE_HEADER_SIZE) {
		f->pipe = true;
		f->data_offset = PIPE_HEADER_SIZE;
		f->data_end = f->size;
		int rc = read_pipe_header(f);
		return rc < 0 ? rc : name_attrs(f);
	}
	if (header_size != HEADER_SIZE)
		return tc_fail(TC_EFORMAT, path, 8, "header size %" PRIu64 " (perf writes %d, or %d in pipe mode)", header_size, HEADER_SIZE,
		               PIPE_HEADER_SIZE);
	if (f->size < HEADER_SIZE)
		return tc_fail(TC_EFORMAT, path, (int64_t)f->size, "the file ends inside its %d-byte header", HEADER_SIZE);
	uint64_t attr_off, attr_size, data_size;
	int rc;
	if ((rc = section_at(f, 24, "attributes", &attr_off, &attr_size)) < 0 ||
	    (rc = section_at(f, 40, "data", &f->data_offset, &data_size)) < 0)
		return rc;
	f->data_end = f->data_offset + data_size;
	for (int i = 0; i < 4; i++)
		f->features[i] = perf_u64(f, f->map + 72 + 8 * i);
	if ((rc = read_attrs(f, perf_u64(f, f->map + 16), attr_off, attr_size)) < 0 || (rc = read_features(f)) < 0)
		return rc;
	return name_attrs(f);
}

void perf_close(perf_file *f)
{
	if (f->map)
		munmap((void *)f->map, (size_t)f->size);
	f->map = NULL;
	tc_pool_free(&f->pool);
}
