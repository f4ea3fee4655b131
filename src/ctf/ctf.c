/* SPDX-License-Identifier: MIT */
/*
 * ctf.c - finds the CTF traces under a path and prepares their streams, as
 * babeltrace2's source.ctf.fs does (doc/formats/ctf.md §2):
 *
 *   - every directory holding a `metadata` file is a trace; below it,
 *     nothing else is searched;
 *   - traces declaring the same UUID are one trace (LTTng rotation chunks):
 *     the metadata with the most classes wins and all their files count;
 *   - every other non-empty, non-hidden regular file of a trace directory
 *     is a stream file; files of the same stream class and instance id that
 *     have a beginning time are one stream, in time order;
 *   - streams are ordered by the path of their first file, and those
 *     without an instance id are numbered in that order.
 */
#include "core/formats.h"
#include "ctf/ctf_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct trace_dir {
	char *dir;
	char *rel;                 /* relative to the path given, "" for itself */
	ctf_trace *trace;
	size_t group;              /* index of the first directory with the same UUID */
	uint64_t metadata_bytes;   /* of its metadata file, read whole at open */
} trace_dir;

typedef struct dir_list {
	trace_dir *items;
	size_t count, cap;
} dir_list;

/* Where find_traces() is in its walk, for search_entry(). */
typedef struct trace_search {
	dir_list *out;
	tc_buf *seen;
	int depth;
} trace_search;

static int search_entry(void *ctx, const char *path, const char *rel, const struct stat *st);

static int find_traces(dir_list *out, tc_buf *seen, const char *dir, const char *rel, int depth)
{
	char *meta = tc_path_join(dir, "metadata");
	if (!meta)
		return tc_fail_nomem();
	struct stat st;
	int rc = 0;
	/* EACCES: the folder cannot be searched; that is said of it. */
	if (stat(meta, &st) < 0)
		rc = errno == ENOENT ? TC_ENOTFOUND
		     : errno == EACCES ? tc_fail(TC_EIO, dir, -1, "cannot read directory: %s", strerror(errno))
		                       : tc_fail_open(meta);
	else if (!S_ISREG(st.st_mode))
		rc = tc_fail(TC_EFORMAT, meta, -1, "%s, not a CTF metadata file", S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
	free(meta);
	if (rc < 0 && rc != TC_ENOTFOUND)
		return rc;
	if (rc == 0) {
		if (out->count == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 8;
			trace_dir *items = realloc(out->items, cap * sizeof *items);
			if (!items)
				return tc_fail_nomem();
			out->items = items;
			out->cap = cap;
		}
		trace_dir *td = &out->items[out->count];
		memset(td, 0, sizeof *td);
		td->dir = strdup(dir);
		td->rel = strdup(rel);
		td->metadata_bytes = (uint64_t)st.st_size;
		if (!td->dir || !td->rel) {
			free(td->dir);
			free(td->rel);
			return tc_fail_nomem();
		}
		out->count++;
		return 0;
	}
	if (depth >= TC_MAX_DIR_DEPTH)
		return 0;
	return tc_visit_entries(seen, dir, rel, search_entry, &(trace_search){ out, seen, depth });
}

static int search_entry(void *ctx, const char *path, const char *rel, const struct stat *st)
{
	const trace_search *s = ctx;
	return S_ISDIR(st->st_mode) ? find_traces(s->out, s->seen, path, rel, s->depth + 1) : 0;
}

typedef struct stream_build {
	ctf_file *files;
	size_t count;
} stream_build;

static int cmp_file_ts(const void *a, const void *b)
{
	const ctf_file *x = a, *y = b;
	if (x->ts_begin != y->ts_begin)
		return x->ts_begin < y->ts_begin ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int cmp_stream_path(const void *a, const void *b)
{
	const stream_build *x = a, *y = b;
	return strcmp(x->files[0].path, y->files[0].path);
}

static int add_file(stream_build **streams, size_t *nstreams, ctf_file *f)
{
	/* Files of one stream instance with a beginning time go together. */
	if (f->has_instance_id && f->has_ts_begin) {
		for (size_t i = 0; i < *nstreams; i++) {
			ctf_file *g = &(*streams)[i].files[0];
			if (g->has_instance_id && g->has_ts_begin && g->class_id == f->class_id &&
			    g->instance_id == f->instance_id) {
				stream_build *sb = &(*streams)[i];
				ctf_file *files = realloc(sb->files, (sb->count + 1) * sizeof *files);
				if (!files)
					return tc_fail_nomem();
				files[sb->count++] = *f;
				sb->files = files;
				return 0;
			}
		}
	}
	stream_build *s = realloc(*streams, (*nstreams + 1) * sizeof *s);
	if (!s)
		return tc_fail_nomem();
	*streams = s;
	s[*nstreams].files = malloc(sizeof *f);
	if (!s[*nstreams].files)
		return tc_fail_nomem();
	s[*nstreams].files[0] = *f;
	s[*nstreams].count = 1;
	(*nstreams)++;
	return 0;
}

/* The current directory as the shell names it ($PWD when it is really
 * the current directory, symbolic links kept), as babeltrace2 sees it. */
static char *logical_cwd(void)
{
	const char *pwd = getenv("PWD");
	struct stat a, b;
	if (pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino)
		return strdup(pwd);
	return getcwd(NULL, 0);
}

/* PATH made absolute and cleaned of ".", ".." and repeated slashes without
 * resolving links: babeltrace2 names streams this way. */
static char *absolute_path(const char *path)
{
	char *cwd = path[0] == '/' ? strdup("") : logical_cwd();
	char *full = cwd ? tc_path_join(cwd, path) : NULL;
	free(cwd);
	if (!full)
		return NULL;
	/* Components are copied down in place; ".." drops the last one. */
	char *out = full;
	size_t n = 0;
	for (char *p = full; *p;) {
		while (*p == '/')
			p++;
		char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == 0 || (len == 1 && p[0] == '.')) {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[--n] != '/')
				;
		} else {
			out[n++] = '/';
			memmove(out + n, p, len);
			n += len;
		}
		p += len;
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

static int collect_stream_files(ctf_trace *t, const char *dir, const char *rel, stream_build **streams, size_t *nstreams)
{
	const char *rel_dir = tc_pool_strdup(&t->pool, rel);
	if (!rel_dir)
		return TC_ENOMEM;
	char **names;
	size_t n;
	int rc = tc_list_dir(dir, &names, &n);
	ctf_stream_iter scratch;
	memset(&scratch, 0, sizeof scratch);
	scratch.trace = t;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (names[i][0] == '.' || strcmp(names[i], "metadata") == 0)
			continue;
		char *path = tc_path_join(dir, names[i]);
		struct stat st;
		if (!path) {
			rc = tc_fail_nomem();
			break;
		}
		/* Folders (LTTng's index/) and empty files hold no stream;
		 * what cannot be looked at may. */
		if ((rc = tc_stat_entry(path, &st)) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
			free(path);
			continue;
		}
		/* babeltrace2 names a stream by its first file's absolute path. */
		char *abs = absolute_path(path);
		char *owned = tc_pool_strdup(&t->pool, abs ? abs : path);
		free(abs);
		free(path);
		if (!owned) {
			rc = TC_ENOMEM;
			break;
		}
		ctf_file f = { .path = owned, .rel_dir = rel_dir, .cpu = -1 };
		scratch.files = &f;
		scratch.file_count = 1;
		scratch.sc = NULL;
		rc = ctf_peek_first_packet(&scratch, &f);
		if (rc == 0)
			rc = add_file(streams, nstreams, &f);
	}
	ctf_arena_free(&scratch.packet_arena);
	tc_free_names(names, n);
	return rc;
}

static void free_trace_void(void *p)
{
	ctf_trace_free(p);
}

/* Length of the leading directories REL shares with PREFIX (LEN chars). */
static size_t common_dirs(const char *prefix, size_t len, const char *rel)
{
	size_t i = 0, last = 0;
	while (i < len && prefix[i] == rel[i]) {
		i++;
		if (i == len || prefix[i] == '/')
			last = (rel[i] == '/' || rel[i] == '\0') ? i : last;
	}
	return last;
}

/* babeltrace2's trace name: the hostname, then the trace's directory
 * relative to the path given; for directories merged by UUID, the
 * directories they all share. */
static int set_trace_name(ctf_trace *t, const char *rel, size_t rel_len)
{
	const tc_env_entry *host = tc_trace_env(&t->pub, "hostname");
	const char *h = host && !host->is_int ? host->str_value : NULL;
	tc_buf b = { 0 };
	int rc = 0;
	if (h)
		rc = tc_buf_printf(&b, "%s", h);
	if (rc == 0 && rel_len)
		rc = tc_buf_printf(&b, "%s%.*s", h ? "/" : "", (int)rel_len, rel);
	if (rc == 0 && b.data)
		t->pub.name = tc_pool_strdup(&t->pool, b.data);
	tc_buf_free(&b);
	if (rc < 0 || (b.len && !t->pub.name))
		return TC_ENOMEM;
	t->pub.dir_in_input = tc_pool_strndup(&t->pool, rel, rel_len);
	return t->pub.dir_in_input ? 0 : TC_ENOMEM;
}

/* Builds the streams of one UUID group whose winning trace is DIRS[WIN]. */
static int build_group(tc_input *in, ctf_trace *t, dir_list *dirs, size_t first, size_t win)
{
	stream_build *streams = NULL;
	size_t nstreams = 0;
	const char *rel = dirs->items[win].rel;
	size_t rel_len = strlen(rel);
	for (size_t i = first; i < dirs->count; i++)
		if (dirs->items[i].group == first)
			rel_len = common_dirs(rel, rel_len, dirs->items[i].rel);
	int rc = set_trace_name(t, rel, rel_len);
	for (size_t i = first; i < dirs->count && rc == 0; i++)
		if (dirs->items[i].group == first)
			rc = collect_stream_files(t, dirs->items[i].dir, dirs->items[i].rel, &streams, &nstreams);
	if (rc == 0 && nstreams)
		qsort(streams, nstreams, sizeof *streams, cmp_stream_path);
	uint64_t next_id = 0;
	for (size_t i = 0; i < nstreams && rc == 0; i++) {
		stream_build *sb = &streams[i];
		if (sb->count > 1)
			qsort(sb->files, sb->count, sizeof *sb->files, cmp_file_ts);
		ctf_stream *st = calloc(1, sizeof *st);
		ctf_stream_iter *it = calloc(1, sizeof *it);
		tc_stream_file *pf = tc_pool_alloc(&t->pool, sb->count * sizeof *pf);
		if (!st || !it || !pf || tc_ptr_push((void ***)&t->pub.streams, &t->pub.stream_count, st) < 0) {
			free(st);
			free(it);
			rc = tc_fail_nomem();
			break;
		}
		st->pub.id = sb->files[0].has_instance_id ? sb->files[0].instance_id : next_id++;
		st->pub.stream_class = &ctf_stream_class_by_id(t, sb->files[0].class_id)->pub;
		st->pub.trace = &t->pub;
		st->pub.name = sb->files[0].path;
		st->pub.cpu = sb->files[0].cpu;
		for (size_t f = 0; f < sb->count; f++)
			pf[f] = (tc_stream_file){ sb->files[f].path, sb->files[f].rel_dir };
		st->pub.files = pf;
		st->pub.file_count = sb->count;
		it->base.ops = &ctf_stream_ops;
		it->base.stream = &st->pub;
		it->trace = t;
		it->stream = st;
		it->files = sb->files;
		it->file_count = sb->count;
		sb->files = NULL;
		if (tc_input_add_iter(in, &it->base) < 0) {
			ctf_stream_ops.free(&it->base);
			rc = TC_ENOMEM;
		} else if (t->quirks.check_packets_first) {
			rc = ctf_check_packets(it);
		}
	}
	for (size_t i = 0; i < nstreams; i++)
		free(streams[i].files);
	free(streams);
	return rc;
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Directories holding one trace: CTF 1.8's share a UUID; CTF 2's a trace
 * class identity with both a name and a uid (doc/formats/ctf.md
 * §2.4, §6.3). */
static bool same_trace(const tc_trace *a, const tc_trace *b)
{
	if (a->ctf_major == 2 || b->ctf_major == 2)
		return a->ctf_major == b->ctf_major && a->class_name && a->class_uid && same_text(a->class_ns, b->class_ns) &&
		       same_text(a->class_name, b->class_name) && same_text(a->class_uid, b->class_uid);
	return a->has_uuid && b->has_uuid && memcmp(a->uuid, b->uuid, 16) == 0;
}

static int ctf_open(tc_input *in, const char *path, const tc_open_options *opts)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return tc_fail(TC_ENOTFOUND, path, -1, "cannot access: %s", strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return TC_ENOTFOUND;
	dir_list dirs = { 0 };
	tc_buf seen = { 0 };
	int rc = tc_dir_first_visit(&seen, &st);
	if (rc > 0)
		rc = find_traces(&dirs, &seen, path, "", 0);
	tc_buf_free(&seen);
	if (rc == 0 && dirs.count == 0)
		rc = TC_ENOTFOUND;
	for (size_t i = 0; i < dirs.count && rc == 0; i++) {
		rc = ctf_metadata_load(&dirs.items[i].trace, dirs.items[i].dir, opts);
		tc_count_read(&in->bytes_read, dirs.items[i].metadata_bytes);
	}
	/* Group the directories of one trace; each group's richest metadata
	 * stands for all. */
	for (size_t i = 0; i < dirs.count && rc == 0; i++) {
		dirs.items[i].group = i;
		const tc_trace *ti = &dirs.items[i].trace->pub;
		for (size_t j = 0; j < i; j++) {
			const tc_trace *tj = &dirs.items[j].trace->pub;
			if (same_trace(ti, tj)) {
				dirs.items[i].group = dirs.items[j].group;
				break;
			}
		}
	}
	for (size_t i = 0; i < dirs.count && rc == 0; i++) {
		if (dirs.items[i].group != i)
			continue;
		size_t win = i;
		for (size_t j = i + 1; j < dirs.count; j++)
			if (dirs.items[j].group == i && dirs.items[j].trace->class_count > dirs.items[win].trace->class_count)
				win = j;
		ctf_trace *t = dirs.items[win].trace;
		dirs.items[win].trace = NULL;
		rc = tc_input_own(in, t, free_trace_void);
		if (rc == 0)
			rc = tc_input_add_trace(in, &t->pub);
		if (rc == 0)
			rc = build_group(in, t, &dirs, i, win);
	}
	for (size_t i = 0; i < dirs.count; i++) {
		ctf_trace_free(dirs.items[i].trace);
		free(dirs.items[i].dir);
		free(dirs.items[i].rel);
	}
	free(dirs.items);
	return rc;
}

const tc_format tc_format_ctf = { "ctf", ctf_open };
