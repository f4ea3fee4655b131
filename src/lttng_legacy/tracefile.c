/* SPDX-License-Identifier: MIT */
/*
 * tracefile.c - the files of a legacy LTTng trace: finding them under the
 * trace directory, telling the format version and byte order from the
 * magic number's place and bytes, reading block headers of every version
 * family, and indexing a file's blocks so that the event cursor
 * (events.c) can walk them.  Section numbers (§N) are those of
 * doc/formats/lttng-legacy.md: §2 for the directory, §3 for the magic
 * number, §5 for block headers.
 *
 * Damage met while indexing does not fail the file: the blocks before it
 * stay readable, and the cursor reports the damage when it gets there.
 */
#include "lttng_legacy/legacy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC 0x00D6B7EDu
#define MAX_DEPTH 8          /* directory levels searched for tracefiles */
#define PROBE_SIZE 136       /* enough for every version's first header */

enum { FAMILY_NONE, FAMILY_SUBBUF, FAMILY_BLOCK40, FAMILY_BLOCK72 };

/* Where the magic number says the trace's byte order, or -1 if absent. */
static int magic_order(const uint8_t *p)
{
	if (tc_load_uint(p, 4, false) == MAGIC)
		return 0;
	if (tc_load_uint(p, 4, true) == MAGIC)
		return 1;
	return -1;
}

/*
 * Reads the header of the block at B (N bytes available) into *H; returns
 * its family, FAMILY_NONE if the magic number is not where a known family
 * has it.  Probes offset 16 first (§3).
 */
static int read_header(const uint8_t *b, size_t n, lg_header *h)
{
	memset(h, 0, sizeof *h);
	int order;
	if (n >= 68 && (order = magic_order(b + 16)) >= 0 && b[20] == 2 && b[21] >= 1 && b[21] <= 6) {
		bool be = order;
		h->big_endian = be;
		h->major = 2;
		h->minor = b[21];
		h->arch_size = b[22];
		h->alignment = b[23];
		h->start_sec = tc_load_uint(b + 24, 8, be);
		h->start_usec = tc_load_uint(b + 32, 8, be);
		h->start_freq = tc_load_uint(b + 40, 8, be);
		h->freq_scale = (uint32_t)tc_load_uint(b + 48, 4, be);
		h->header_size = h->minor == 1 ? 60 : 68;
		return FAMILY_SUBBUF;
	}
	if (n >= 109 && (order = magic_order(b + 40)) >= 0) {
		bool be = order;
		h->big_endian = be;
		h->major = b[57];
		h->minor = b[58];
		h->arch_type = (uint32_t)tc_load_uint(b + 44, 4, be);
		h->arch_size = b[56];
		/* Where the fields after the four bytes of versions sit (§5.2). */
		unsigned scale_at;
		if (h->major == 2) {
			h->alignment = b[60];
			scale_at = 64;
			h->header_size = 108;
		} else {
			h->has_heartbeat = b[60];
			h->alignment = b[61];
			scale_at = h->major == 1 ? 65 : h->minor >= 8 ? 64 : 62;
			h->header_size = scale_at + 44;
		}
		h->freq_scale = (uint32_t)tc_load_uint(b + scale_at, 4, be);
		h->start_freq = tc_load_uint(b + scale_at + 4, 8, be);
		h->start_tsc = tc_load_uint(b + scale_at + 12, 8, be);
		h->start_sec = tc_load_uint(b + scale_at + 28, 8, be);
		h->start_usec = tc_load_uint(b + scale_at + 36, 8, be);
		return FAMILY_BLOCK40;
	}
	if (n >= 91 && (order = magic_order(b + 72)) >= 0) {
		h->big_endian = order;
		h->major = b[89];
		h->minor = b[90];
		return FAMILY_BLOCK72;
	}
	return FAMILY_NONE;
}

bool lg_has_channel_markers(const lg_header *hdr)
{
	return hdr->major == 2 && hdr->minor >= 3;
}

bool lg_version_supported(const lg_header *hdr)
{
	if (hdr->major == 2)
		return hdr->minor <= 6;
	if (hdr->major == 1)
		return hdr->minor == 0;
	return hdr->major == 0 && (hdr->minor == 7 || hdr->minor == 8);
}

/* ---- discovery ---- */

typedef struct found {
	tc_pool *pool;
	lg_file **files;
	size_t count;
	tc_buf seen;  /* folders entered (tc_dir_first_visit) */
} found;

/* "kernel_0" -> channel "kernel", CPU 0; "flight-cpu_1" -> "cpu", 1. */
static bool split_name(const char *rel, char *channel, size_t size, int *cpu)
{
	const char *us = strrchr(rel, '_');
	if (!us || !us[1] || strspn(us + 1, "0123456789") != strlen(us + 1) || strlen(us + 1) > 9)
		return false;
	const char *base = strrchr(rel, '/');
	base = base ? base + 1 : rel;
	size_t dir_len = (size_t)(base - rel);
	if (strncmp(base, "flight-", 7) == 0)
		base += 7;
	if (base >= us)
		return false;
	int n = snprintf(channel, size, "%.*s%.*s", (int)dir_len, rel, (int)(us - base), base);
	if (n < 0 || (size_t)n >= size)
		return false;
	*cpu = atoi(us + 1);
	return true;
}

static int add_file(found *fd, const char *path, const char *rel)
{
	char channel[4096];
	int cpu;
	if (!split_name(rel, channel, sizeof channel, &cpu))
		return 0;
	uint8_t probe[PROBE_SIZE];
	int fdesc = open(path, O_RDONLY | O_CLOEXEC);
	if (fdesc < 0)
		return tc_fail_open(path);
	ssize_t n = pread(fdesc, probe, sizeof probe, 0);
	close(fdesc);
	lg_header h;
	int family = n > 0 ? read_header(probe, (size_t)n, &h) : FAMILY_NONE;
	if (family == FAMILY_NONE)
		return 0;
	lg_file *f = tc_pool_alloc(fd->pool, sizeof *f);
	if (!f || !(f->path = tc_pool_strdup(fd->pool, path)) || !(f->channel_name = tc_pool_strdup(fd->pool, channel)))
		return TC_ENOMEM;
	f->cpu = cpu;
	f->hdr = h;
	f->damage_offset = -1;
	return tc_ptr_push((void ***)&fd->files, &fd->count, f);
}

static int walk(found *fd, const char *dir, const char *rel, int depth);

/* One pass over DIR: its tracefiles (FILES), or the folders below it. */
static int walk_pass(found *fd, DIR *d, const char *dir, const char *rel, int depth, bool files)
{
	int rc = 0;
	struct dirent *e;
	rewinddir(d);
	while (rc == 0 && (e = readdir(d))) {
		/* LTTV skips dot-files, and eventdefs/ holds XML, not tracefiles */
		if (e->d_name[0] == '.' || (depth == 0 && strcmp(e->d_name, "eventdefs") == 0))
			continue;
		char path[4096], sub[4096];
		if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
		    snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name) >= (int)sizeof sub)
			continue;
		struct stat st;
		char channel[4096];
		int cpu;
		if ((rc = tc_stat_entry(path, &st)) < 0)
			break;
		if (files) {
			if (S_ISREG(st.st_mode))
				rc = add_file(fd, path, sub);
		} else if (S_ISDIR(st.st_mode) && split_name(sub, channel, sizeof channel, &cpu)) {
			/* Tracefiles are named CHANNEL_CPU (§2); folders
			 * (control/) are not. */
			rc = tc_fail(TC_EFORMAT, path, -1, "a directory, not a tracefile");
		} else if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH && (rc = tc_dir_first_visit(&fd->seen, &st)) > 0) {
			rc = walk(fd, path, sub, depth + 1);
		}
	}
	return rc;
}

/* A trace's root holds tracefiles of its own (cpu_N, or CHANNEL_N; §2):
 * only then are the folders below it searched, so that a folder that is
 * no trace costs one listing, and one holding several traces is not read
 * as one. */
static int walk(found *fd, const char *dir, const char *rel, int depth)
{
	/* What cannot be listed or opened is an error, not a file or folder
	 * quietly left out of the trace. */
	DIR *d = opendir(dir);
	if (!d)
		return tc_fail(TC_EIO, dir, -1, "cannot read directory: %s", strerror(errno));
	int rc = walk_pass(fd, d, dir, rel, depth, true);
	if (rc == 0 && (depth > 0 || fd->count))
		rc = walk_pass(fd, d, dir, rel, depth, false);
	closedir(d);
	return rc;
}

static int cmp_file(const void *a, const void *b)
{
	const lg_file *x = *(const lg_file *const *)a, *y = *(const lg_file *const *)b;
	int c = strcmp(x->channel_name, y->channel_name);
	return c ? c : (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int lg_find_tracefiles(tc_pool *pool, const char *dir, lg_file ***files, size_t *count)
{
	found fd = { pool, NULL, 0, { 0 } };
	struct stat st;
	int rc = stat(dir, &st) < 0 ? tc_fail(TC_EIO, dir, -1, "%s", strerror(errno)) : tc_dir_first_visit(&fd.seen, &st);
	if (rc > 0)
		rc = walk(&fd, dir, "", 0);
	tc_buf_free(&fd.seen);
	if (rc < 0) {
		free(fd.files);
		return rc;
	}
	if (fd.count)
		qsort(fd.files, fd.count, sizeof *fd.files, cmp_file);
	*files = fd.files;
	*count = fd.count;
	return 0;
}

/* ---- the block index ---- */

static void damage(lg_file *f, uint64_t offset, const char *fmt, ...) TC_PRINTF(3, 4);

static void damage(lg_file *f, uint64_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	f->damage_offset = (int64_t)offset;
	f->damage = strdup(msg);
}

/* The block at OFF (REMAINING bytes to the end of the file) into *BLK;
 * false, with the damage recorded, when its header is not sound. */
static bool read_block(lg_file *f, uint64_t off, uint64_t remaining, lg_block *blk)
{
	const uint8_t *b = f->map + off;
	const lg_header *first = &f->hdr;
	lg_header h;
	if (remaining < first->header_size || read_header(b, remaining, &h) == FAMILY_NONE || h.major != first->major ||
	    h.minor != first->minor || h.big_endian != first->big_endian) {
		damage(f, off, "expected a block header of format %u.%u (magic number 0x00D6B7ED), found none",
		       first->major, first->minor);
		return false;
	}
	bool be = h.big_endian;
	uint32_t size, used;
	/* formats before 2.2 have no lost-event counter: 0 throughout */
	*blk = (lg_block){ .offset = off };
	blk->begin_tsc = tc_load_uint(b, 8, be);
	if (h.header_size == 60 || h.header_size == 68) {
		blk->end_tsc = tc_load_uint(b + 8, 8, be);
		uint32_t a = (uint32_t)tc_load_uint(b + 52, 4, be), s = (uint32_t)tc_load_uint(b + 56, 4, be);
		blk->events_lost = h.header_size == 68 ? (uint32_t)tc_load_uint(b + 60, 4, be) : 0;
		if (h.minor >= 5) {
			if (a == 0xFFFFFFFFu) {
				damage(f, off + 52, "sub-buffer was never closed (data_size 0xFFFFFFFF)");
				return false;
			}
			size = s;
			used = a;
		} else {
			size = s;
			used = a <= s ? s - a : 0;
		}
	} else {
		blk->end_tsc = tc_load_uint(b + 16, 8, be);
		uint32_t lost = (uint32_t)tc_load_uint(b + 32, 4, be);
		size = (uint32_t)tc_load_uint(b + 36, 4, be);
		used = lost <= size ? size - lost : 0;
	}
	if (size < h.header_size || used < h.header_size || used > size) {
		damage(f, off + (h.minor >= 5 && h.major == 2 ? 52 : 32),
		       "block sizes do not add up: %u bytes of data in a block of %u, headers take %u", used, size,
		       h.header_size);
		return false;
	}
	if (f->block_count && size != f->blocks[0].size && !(h.major == 2 && h.minor >= 5)) {
		damage(f, off, "block of %u bytes where the file's blocks have %u", size, f->blocks[0].size);
		return false;
	}
	blk->size = size;
	blk->data_end = used;
	blk->truncated = used > remaining;
	if (blk->truncated) {
		/* the events the file still holds stay readable */
		damage(f, off + remaining, "the file ends inside a block: the block at byte %" PRIu64 " has %u bytes of data",
		       off, used);
		blk->data_end = (uint32_t)remaining;
	}
	return true;
}

int lg_file_load(lg_file *f)
{
	if (f->loaded)
		return 0;
	f->loaded = true;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tc_fail_open(f->path);
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return tc_fail(TC_EIO, f->path, -1, "cannot read: %s", strerror(errno));
	}
	size_t size = (size_t)st.st_size;
	void *map = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (map == MAP_FAILED)
		return tc_fail(TC_EIO, f->path, -1, "cannot map: %s", strerror(errno));
	f->map = map;
	f->map_size = size;
	uint64_t off = 0;
	size_t cap = 0;
	while (off < size) {
		lg_block blk;
		if (!read_block(f, off, size - off, &blk))
			break;
		if (f->block_count == cap) {
			cap = cap ? cap * 2 : 16;
			lg_block *grown = realloc(f->blocks, cap * sizeof *grown);
			if (!grown)
				return tc_fail_nomem();
			f->blocks = grown;
		}
		f->blocks[f->block_count++] = blk;
		if (blk.truncated)
			break;
		off += blk.size;
	}
	return 0;
}

void lg_file_release(lg_file *f, const lg_block *blk)
{
	/* whole pages of the mapping inside the block only */
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t start = (blk->offset + page - 1) / page * page, end = (blk->offset + blk->size) / page * page;
	if (end > f->map_size)
		end = f->map_size / page * page;
	if (f->map && start < end)
		madvise((void *)(f->map + start), end - start, MADV_DONTNEED);
}

void lg_file_unload(lg_file *f)
{
	if (f->map)
		munmap((void *)f->map, f->map_size);
	free(f->blocks);
	free(f->damage);
}
