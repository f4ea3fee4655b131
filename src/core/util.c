/* SPDX-License-Identifier: MIT */
/*
 * util.c - the small helpers every reader leans on: per-thread error
 * records (the library never prints; the CLI reads tc_error_last()), the
 * memory pool that owns a trace's classes, growable arrays and buffers,
 * UUID text, bounded whole-file reads and sorted folder listings.
 */
#include "core/core.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

static _Thread_local tc_error last_error = { TC_OK, "", -1, "no error", 0 };

const tc_error *tc_error_last(void)
{
	return &last_error;
}

void tc_error_format(const tc_error *err, char *buf, size_t size)
{
	if (err->path[0] && err->offset >= 0)
		snprintf(buf, size, "%s: at byte %lld: %s", err->path, (long long)err->offset, err->message);
	else if (err->path[0])
		snprintf(buf, size, "%s: %s", err->path, err->message);
	else
		snprintf(buf, size, "%s", err->message);
}

int tc_vfail(int code, const char *path, int64_t offset, const char *fmt, va_list ap)
{
	last_error.code = code;
	snprintf(last_error.path, sizeof last_error.path, "%s", path ? path : "");
	last_error.offset = offset;
	vsnprintf(last_error.message, sizeof last_error.message, fmt, ap);
	last_error.sys_errno = 0;
	return code;
}

int tc_fail(int code, const char *path, int64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_vfail(code, path, offset, fmt, ap);
	va_end(ap);
	return code;
}

int tc_fail_nomem(void)
{
	return tc_fail(TC_ENOMEM, NULL, -1, "out of memory");
}

int tc_fail_open(const char *path)
{
	return tc_fail(TC_EIO, path, -1, "cannot open: %s", strerror(errno));
}

int tc_fail_write_at(int errnum, const char *path, int64_t offset, const char *what)
{
	if (what)
		tc_fail(TC_EIO, path, offset, "%s: %s", what, strerror(errnum));
	else
		tc_fail(TC_EIO, path, offset, "%s", strerror(errnum));
	last_error.sys_errno = errnum;
	return TC_EIO;
}

int tc_fail_write(int errnum, const char *what)
{
	return tc_fail_write_at(errnum, NULL, -1, what);
}

void tc_error_restore(const tc_error *e)
{
	last_error = *e;
}

/* ---- pool ---- */

struct tc_pool_chunk {
	tc_pool_chunk *next;
	max_align_t data[];
};

#define POOL_CHUNK 65536

void tc_pool_init(tc_pool *pool)
{
	pool->head = NULL;
	pool->used = pool->cap = 0;
}

void tc_pool_free(tc_pool *pool)
{
	tc_pool_chunk *c = pool->head;
	while (c) {
		tc_pool_chunk *next = c->next;
		free(c);
		c = next;
	}
	tc_pool_init(pool);
}

void *tc_pool_alloc(tc_pool *pool, size_t size)
{
	size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!pool->head || pool->cap - pool->used < size) {
		size_t cap = size > POOL_CHUNK ? size : POOL_CHUNK;
		tc_pool_chunk *c = malloc(sizeof *c + cap);
		if (!c) {
			tc_fail_nomem();
			return NULL;
		}
		c->next = pool->head;
		pool->head = c;
		pool->used = 0;
		pool->cap = cap;
	}
	void *p = (char *)pool->head->data + pool->used;
	pool->used += size;
	memset(p, 0, size);
	return p;
}

tc_field_class *tc_pool_new_class(tc_pool *pool, tc_field_kind kind, unsigned align)
{
	tc_field_class *c = tc_pool_alloc(pool, sizeof *c);
	if (c) {
		c->kind = kind;
		c->align = align;
	}
	return c;
}

void tc_pool_adopt(tc_pool *dst, tc_pool *src)
{
	if (!src->head)
		return;
	/* SRC's chunks go behind DST's current one, which keeps serving. */
	tc_pool_chunk *last = src->head;
	while (last->next)
		last = last->next;
	if (dst->head) {
		last->next = dst->head->next;
		dst->head->next = src->head;
	} else {
		*dst = *src;
	}
	tc_pool_init(src);
}

char *tc_pool_strndup(tc_pool *pool, const char *s, size_t n)
{
	char *d = tc_pool_alloc(pool, n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

char *tc_pool_strdup(tc_pool *pool, const char *s)
{
	return tc_pool_strndup(pool, s, strlen(s));
}

/* ---- arrays and buffers ---- */

int tc_array_reserve_n(void *items, size_t *cap, size_t need, size_t size, size_t first)
{
	void **p = items;
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : first;
	while (n < need && n <= SIZE_MAX / 2)
		n *= 2;
	void *more = n >= need && n <= SIZE_MAX / size ? realloc(*p, n * size) : NULL;
	if (!more)
		return tc_fail_nomem();
	*p = more;
	*cap = n;
	return 0;
}

int tc_array_reserve(void *items, size_t *cap, size_t count, size_t size, size_t first)
{
	return tc_array_reserve_n(items, cap, count + 1, size, first);
}

int tc_ptr_push(void ***array, size_t *count, void *item)
{
	size_t n = *count;
	/* Capacity is implied by the count: 4, then doubled at each power of two. */
	if (n == 0 || (n >= 4 && (n & (n - 1)) == 0)) {
		void **a = realloc(*array, (n ? n * 2 : 4) * sizeof *a);
		if (!a)
			return tc_fail_nomem();
		*array = a;
	}
	(*array)[n] = item;
	*count = n + 1;
	return 0;
}

int tc_buf_grow(tc_buf *b, size_t extra)
{
	size_t cap = b->cap ? b->cap : 256;
	while (cap - b->len <= extra) {
		if (cap > SIZE_MAX / 2)
			return tc_fail_nomem();
		cap *= 2;
	}
	char *d = realloc(b->data, cap);
	if (!d)
		return tc_fail_nomem();
	b->data = d;
	b->cap = cap;
	return 0;
}

int tc_buf_printf(tc_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || tc_buf_reserve(b, (size_t)n + 1) < 0)
		return TC_ENOMEM;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void tc_buf_free(tc_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* ---- UUIDs ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool tc_uuid_parse(const char *text, uint8_t out[16])
{
	size_t n = 0;
	for (size_t i = 0; text[i]; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (text[i] != '-')
				return false;
			continue;
		}
		int hi = hexval(text[i]), lo = text[i + 1] ? hexval(text[i + 1]) : -1;
		if (hi < 0 || lo < 0 || n >= 16)
			return false;
		out[n++] = (uint8_t)(hi << 4 | lo);
		i++;
	}
	return n == 16 && strlen(text) == 36;
}

void tc_uuid_format(const uint8_t u[16], char out[37])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
	         u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
	         u[14], u[15]);
}

/* ---- files ---- */

int tc_read_file(const char *path, size_t max, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return tc_fail_open(path);
	struct stat st;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode)) {
		fclose(f);
		return tc_fail(TC_EIO, path, -1, "not a regular file");
	}
	if ((uint64_t)st.st_size > max) {
		fclose(f);
		return tc_fail(TC_EFORMAT, path, -1, "file is %lld bytes, more than the %zu allowed",
		               (long long)st.st_size, max);
	}
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		fclose(f);
		return tc_fail_nomem();
	}
	size_t n = fread(buf, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return tc_fail(TC_EIO, path, -1, "read failed: %s", strerror(errno));
	}
	fclose(f);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int tc_stat_entry(const char *path, struct stat *st)
{
	return stat(path, st) == 0 ? 0 : tc_fail_open(path);
}

char *tc_path_join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	size_t n = la;
	if (la && lb && a[la - 1] != '/')
		s[n++] = '/';
	memcpy(s + n, b, lb + 1);
	return s;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tc_list_dir(const char *dir, char ***names, size_t *count)
{
	*names = NULL;
	*count = 0;
	/* A folder that cannot be listed may hold traces: an error, not a
	 * folder quietly left out. */
	DIR *d = opendir(dir);
	if (!d)
		return tc_fail(TC_EIO, dir, -1, "cannot read directory: %s", strerror(errno));
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *n = strdup(e->d_name);
		if (!n || tc_ptr_push((void ***)names, count, n) < 0) {
			free(n);
			rc = tc_fail_nomem();
			break;
		}
	}
	closedir(d);
	if (*count)
		qsort(*names, *count, sizeof **names, cmp_names);
	return rc;
}

void tc_free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/* A folder's identity: its device and inode numbers. */
typedef struct dir_id {
	dev_t dev;
	ino_t ino;
} dir_id;

int tc_dir_first_visit(tc_buf *seen, const struct stat *st)
{
	const dir_id *ids = (const dir_id *)seen->data;
	for (size_t i = 0; i < seen->len / sizeof *ids; i++)
		if (ids[i].dev == st->st_dev && ids[i].ino == st->st_ino)
			return 0;
	dir_id id = { st->st_dev, st->st_ino };
	return tc_buf_append(seen, &id, sizeof id) < 0 ? TC_ENOMEM : 1;
}

int tc_visit_entries(tc_buf *seen, const char *dir, const char *rel, tc_entry_visit visit, void *ctx)
{
	char **names;
	size_t n;
	int rc = tc_list_dir(dir, &names, &n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path = tc_path_join(dir, names[i]), *entry_rel = tc_path_join(rel, names[i]);
		struct stat st;
		if (!path || !entry_rel)
			rc = tc_fail_nomem();
		else if ((rc = tc_stat_entry(path, &st)) == 0 &&
		         (S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && (rc = tc_dir_first_visit(seen, &st)) > 0)))
			rc = visit(ctx, path, entry_rel, &st);
		free(path);
		free(entry_rel);
	}
	tc_free_names(names, n);
	return rc;
}

int tc_path_kind(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return tc_fail(errno == ENOENT || errno == ENOTDIR ? TC_ENOTFOUND : TC_EIO, path, -1, "%s", strerror(errno));
	if (S_ISREG(st.st_mode)) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
		close(fd);
		return TC_PATH_FILE;
	}
	if (!S_ISDIR(st.st_mode))
		return tc_fail(TC_ENOTFOUND, path, -1, "neither a file nor a directory");
	DIR *d = opendir(path);
	if (!d)
		return tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
	errno = 0;
	const struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	int err = errno;
	closedir(d);
	if (empty && err)
		return tc_fail(TC_EIO, path, -1, "%s", strerror(err));
	if (empty)
		return tc_fail(TC_ENOTFOUND, path, -1, "empty directory: no trace in it");
	return TC_PATH_DIR;
}

const char *tc_version(void)
{
	return TRACECAT_VERSION;
}
