/* SPDX-License-Identifier: MIT */
/*
 * data.c - a uftrace record directory's description (doc/formats/uftrace.md
 * §1-§4): the info file, task.txt's sessions, tasks, forks and dlopens,
 * the memory maps and symbol files, events.txt, and symbol resolution by
 * (task, time, address), which is how uftrace names every record: a
 * process that forked or exec'ed resolves each record in the session it
 * was in at that time.
 *
 * Maps and symbol files are read when first needed.  A module without
 * its .sym file takes its symbols from its binary (elfsyms.c), and
 * without that either leaves addresses unresolved ("<hex>"), never an
 * error, as in uftrace.
 */
#include "uftrace/uftrace.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_TEXT_FILE (256u << 20)   /* info, task.txt, maps, .sym files */
#define INFO_HEADER 40

static int ensure_maps(uft_data *d, uft_session *s);

static char *path_in(uft_data *d, const char *name)
{
	size_t n = strlen(d->dir) + strlen(name) + 2;
	char *p = tc_pool_alloc(&d->pool, n);
	if (p)
		snprintf(p, n, "%s/%s", d->dir, name);
	return p;
}

/* The whole of DIR/NAME: 0, 1 when it is absent (*DATA NULL), < 0 on error. */
static int read_text(uft_data *d, const char *name, char **data, size_t *len)
{
	char *path = path_in(d, name);
	struct stat st;
	*data = NULL;
	*len = 0;
	if (!path)
		return TC_ENOMEM;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 1;
	return tc_read_file(path, MAX_TEXT_FILE, data, len);
}

/* Next line of [*P, END): its start, length without '\n'; false at the end. */
static bool next_line(const char **p, const char *end, const char **line, size_t *len)
{
	if (*p >= end)
		return false;
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	*line = *p;
	*len = nl ? (size_t)(nl - *p) : (size_t)(end - *p);
	*p = nl ? nl + 1 : end;
	return true;
}

static bool has_prefix(const char *line, size_t len, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);
	if (len < n || memcmp(line, prefix, n) != 0)
		return false;
	*rest = line + n;
	return true;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static uft_task *add_task(uft_data *d, int tid)
{
	uft_task *t = uft_task_by_tid(d, tid);
	if (t)
		return t;
	t = tc_pool_alloc(&d->pool, sizeof *t);
	if (!t || tc_ptr_push((void ***)&d->tasks, &d->task_count, t) < 0)
		return NULL;
	t->tid = t->pid = tid;
	return t;
}

uft_task *uft_task_by_tid(const uft_data *d, int tid)
{
	for (size_t i = 0; i < d->task_count; i++)
		if (d->tasks[i]->tid == tid)
			return d->tasks[i];
	return NULL;
}

/* taskinfo:tids=1,2,3 */
static int read_tids(uft_data *d, const char *s, size_t len)
{
	char *copy = tc_pool_strndup(&d->pool, s, len);
	if (!copy)
		return TC_ENOMEM;
	int *tids = NULL;
	size_t n = 0, cap = 0;
	for (char *p = copy; *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v <= 0 || v > INT32_MAX) {
			free(tids);
			return tc_fail(TC_EFORMAT, d->dir, -1, "info: malformed taskinfo:tids line");
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			int *more = realloc(tids, cap * sizeof *more);
			if (!more) {
				free(tids);
				return tc_fail_nomem();
			}
			tids = more;
		}
		tids[n++] = (int)v;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			break;
	}
	if (n)
		qsort(tids, n, sizeof *tids, cmp_int);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (!add_task(d, tids[i]))
			rc = TC_ENOMEM;
	free(tids);
	return rc;
}

static int read_info(uft_data *d)
{
	char *data;
	size_t len;
	int rc = read_text(d, "info", &data, &len);
	if (rc != 0)
		return rc < 0 ? rc : TC_ENOTFOUND;
	char *path = path_in(d, "info");
	if (!path) {
		free(data);
		return TC_ENOMEM;
	}
	const uint8_t *h = (const uint8_t *)data;
	if (len < INFO_HEADER || memcmp(h, "Ftrace!\0", 8) != 0) {
		bool magic = len >= 8 && memcmp(h, "Ftrace!\0", 8) == 0;
		free(data);
		return magic ? tc_fail(TC_EFORMAT, path, (int64_t)len, "info header ends after %zu bytes (40 expected)", len)
		             : tc_fail(TC_EFORMAT, path, 0, "not a uftrace info file (the magic \"Ftrace!\" expected)");
	}
	unsigned endian = h[14], cls = h[15];
	d->big_endian = endian == 2;
	uint32_t version = (uint32_t)tc_load_uint(h + 8, 4, d->big_endian);
	if (endian != 1 && endian != 2)
		rc = tc_fail(TC_EFORMAT, path, 14, "info: byte order %u is neither 1 (little) nor 2 (big)", endian);
	else if (version < 3 || version > 4)
		rc = tc_fail(TC_EUNSUPPORTED, path, 8, "info: data version %" PRIu32 " (3 and 4 are read)", version);
	else if (cls != 1 && cls != 2)
		rc = tc_fail(TC_EFORMAT, path, 15, "info: ELF class %u is neither 1 (32-bit) nor 2 (64-bit)", cls);
	if (rc < 0) {
		free(data);
		return rc;
	}
	d->data_version = version;
	d->word_size = h[15] == 2 ? 8 : 4;
	d->feat_mask = tc_load_uint(h + 16, 8, d->big_endian);
	d->max_stack = (d->feat_mask & 0x40) ? (unsigned)tc_load_uint(h + 32, 2, d->big_endian) : 1024;
	if (d->max_stack == 0)
		d->max_stack = 1024;
	const char *p = data + INFO_HEADER, *end = data + len, *line, *rest;
	size_t n;
	while (rc == 0 && next_line(&p, end, &line, &n)) {
		const char **field = NULL;
		if (has_prefix(line, n, "exename:", &rest))
			field = &d->exename;
		else if (has_prefix(line, n, "osinfo:hostname=", &rest))
			field = &d->hostname;
		else if (has_prefix(line, n, "uftrace_version:", &rest))
			field = &d->version;
		else if (has_prefix(line, n, "taskinfo:tids=", &rest))
			rc = read_tids(d, rest, n - (size_t)(rest - line));
		else if (has_prefix(line, n, "utc_offset:", &rest)) {
			d->utc_offset = strtoll(rest, NULL, 10);
			d->has_utc_offset = true;
		}
		if (field && !(*field = tc_pool_strndup(&d->pool, rest, n - (size_t)(rest - line))))
			rc = TC_ENOMEM;
	}
	if (rc == 0)
		rc = ua_specs_new(&d->specs, data + INFO_HEADER, len - INFO_HEADER, d->word_size, d->big_endian, path);
	free(data);
	return rc;
}

/* "key=value" in LINE: its value up to a space (or, quoted, to the last quote). */
static bool field_of(const char *line, size_t len, const char *key, const char **val, size_t *vlen)
{
	size_t k = strlen(key);
	for (size_t i = 0; i + k < len; i++) {
		if ((i == 0 || line[i - 1] == ' ') && memcmp(line + i, key, k) == 0 && line[i + k] == '=') {
			const char *v = line + i + k + 1, *e = line + len;
			if (v < e && *v == '"') {
				const char *q = e;
				while (q > v + 1 && q[-1] != '"')
					q--;
				*val = v + 1;
				*vlen = q > v + 1 ? (size_t)(q - 1 - (v + 1)) : 0;
				return true;
			}
			const char *s = memchr(v, ' ', (size_t)(e - v));
			*val = v;
			*vlen = s ? (size_t)(s - v) : (size_t)(e - v);
			return true;
		}
	}
	return false;
}

static bool field_num(const char *line, size_t len, const char *key, int base, uint64_t *out)
{
	const char *v;
	size_t n;
	char buf[32];
	if (!field_of(line, len, key, &v, &n) || n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, v, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	*out = strtoull(buf, &end, base);
	return *end == '\0' && errno == 0;
}

/* "SEC.NSEC" as nanoseconds. */
static bool field_time(const char *line, size_t len, uint64_t *out)
{
	const char *v;
	size_t n;
	if (!field_of(line, len, "timestamp", &v, &n))
		return false;
	uint64_t sec = 0, ns = 0;
	size_t i = 0;
	for (; i < n && isdigit((unsigned char)v[i]); i++)
		sec = sec * 10 + (uint64_t)(v[i] - '0');
	if (i >= n || v[i] != '.' || i > 12)
		return false;
	size_t digits = 0;
	for (i++; i < n && isdigit((unsigned char)v[i]) && digits < 9; i++, digits++)
		ns = ns * 10 + (uint64_t)(v[i] - '0');
	for (; digits < 9; digits++)
		ns *= 10;
	*out = sec * 1000000000u + ns;
	return true;
}

static uft_session *find_session(const uft_data *d, int pid, uint64_t t)
{
	uft_session *best = NULL;
	for (size_t i = 0; i < d->session_count; i++) {
		uft_session *s = d->sessions[i];
		if (s->pid == pid && s->start <= t && (!best || s->start >= best->start))
			best = s;
	}
	return best;
}

static int add_ref(uft_data *d, uft_task *t, uint64_t start, uft_session *s)
{
	uft_sref *refs = tc_pool_alloc(&d->pool, (t->ref_count + 1) * sizeof *refs);
	if (!refs)
		return TC_ENOMEM;
	if (t->ref_count)
		memcpy(refs, t->refs, t->ref_count * sizeof *refs);
	/* kept in time order, lines being in arrival order */
	size_t i = t->ref_count;
	while (i > 0 && refs[i - 1].start > start) {
		refs[i] = refs[i - 1];
		i--;
	}
	refs[i] = (uft_sref){ start, s };
	t->refs = refs;
	t->ref_count++;
	return 0;
}

static uft_session *latest_ref(const uft_task *t, uint64_t before)
{
	for (size_t i = t->ref_count; i-- > 0;)
		if (t->refs[i].start <= before)
			return t->refs[i].session;
	return NULL;
}

/* task.txt (§3): sessions first, since lines come in arrival order. */
static int read_tasks(uft_data *d)
{
	char *data;
	size_t len;
	int rc = read_text(d, "task.txt", &data, &len);
	if (rc != 0)
		return rc < 0 ? rc : tc_fail(TC_EUNSUPPORTED, d->dir, -1, "no task.txt (data older than uftrace 0.7 is not read)");
	const char *p, *end = data + len, *line, *v;
	size_t n, vn;
	uint64_t num, t;
	for (p = data; rc == 0 && next_line(&p, end, &line, &n);) {
		if (n < 5 || memcmp(line, "SESS ", 5) != 0)
			continue;
		uft_session *s = tc_pool_alloc(&d->pool, sizeof *s);
		if (!s)
			rc = TC_ENOMEM;
		else if (!field_time(line, n, &t) || !field_num(line, n, "pid", 10, &num) || !field_of(line, n, "sid", &v, &vn) ||
		         vn != 16)
			rc = tc_fail(TC_EFORMAT, path_in(d, "task.txt"), (int64_t)(line - data), "malformed SESS line");
		else {
			s->start = t;
			s->pid = (int)num;
			memcpy(s->sid, v, 16);
			if (field_of(line, n, "exename", &v, &vn))
				s->exename = tc_pool_strndup(&d->pool, v, vn);
			rc = tc_ptr_push((void ***)&d->sessions, &d->session_count, s);
		}
	}
	for (p = data; rc == 0 && next_line(&p, end, &line, &n);) {
		uint64_t tid, pid;
		if (n > 5 && memcmp(line, "TASK ", 5) == 0) {
			if (!field_time(line, n, &t) || !field_num(line, n, "tid", 10, &tid) || !field_num(line, n, "pid", 10, &pid)) {
				rc = tc_fail(TC_EFORMAT, path_in(d, "task.txt"), (int64_t)(line - data), "malformed TASK line");
				break;
			}
			uft_task *task = add_task(d, (int)tid);
			if (!task) {
				rc = TC_ENOMEM;
				break;
			}
			/* a new task has no references yet */
			if (task->ref_count == 0)
				task->pid = (int)pid;
			uft_session *s = find_session(d, (int)pid, t);
			if (!s && task->ref_count == 0) {
				uft_task *leader = uft_task_by_tid(d, (int)pid);
				s = leader ? latest_ref(leader, t) : NULL;
			}
			if (s)
				rc = add_ref(d, task, t, s);
		} else if (n > 5 && memcmp(line, "FORK ", 5) == 0) {
			uint64_t ppid;
			if (!field_time(line, n, &t) || !field_num(line, n, "pid", 10, &pid) || !field_num(line, n, "ppid", 10, &ppid)) {
				rc = tc_fail(TC_EFORMAT, path_in(d, "task.txt"), (int64_t)(line - data), "malformed FORK line");
				break;
			}
			uft_task *task = add_task(d, (int)pid);
			if (!task) {
				rc = TC_ENOMEM;
				break;
			}
			task->ppid = (int)ppid;
			uft_session *s = find_session(d, (int)ppid, t);
			uft_task *parent = uft_task_by_tid(d, (int)ppid);
			if (!s && parent)
				s = latest_ref(parent, t);
			if (s)
				rc = add_ref(d, task, t, s);
		} else if (n > 5 && memcmp(line, "DLOP ", 5) == 0) {
			uint64_t base;
			if (!field_time(line, n, &t) || !field_num(line, n, "base", 16, &base) || !field_of(line, n, "sid", &v, &vn) ||
			    vn != 16)
				continue;
			for (size_t i = 0; i < d->session_count; i++) {
				uft_session *s = d->sessions[i];
				if (memcmp(s->sid, v, 16) != 0)
					continue;
				const char *lib;
				size_t ln;
				if (!field_of(line, n, "libname", &lib, &ln))
					break;
				uft_dlop *dl = tc_pool_alloc(&d->pool, (s->dlop_count + 1) * sizeof *dl);
				if (!dl) {
					rc = TC_ENOMEM;
					break;
				}
				if (s->dlop_count)
					memcpy(dl, s->dlops, s->dlop_count * sizeof *dl);
				size_t k = s->dlop_count;
				while (k > 0 && dl[k - 1].time > t) {
					dl[k] = dl[k - 1];
					k--;
				}
				memset(&dl[k], 0, sizeof dl[k]);
				dl[k].time = t;
				dl[k].base = base;
				dl[k].mod.path = tc_pool_strndup(&d->pool, lib, ln);
				if (dl[k].mod.path) {
					const char *slash = strrchr(dl[k].mod.path, '/');
					dl[k].mod.base = slash ? slash + 1 : dl[k].mod.path;
				}
				s->dlops = dl;
				s->dlop_count++;
				break;
			}
		}
	}
	free(data);
	return rc;
}

static int read_events_txt(uft_data *d)
{
	char *data;
	size_t len;
	int rc = read_text(d, "events.txt", &data, &len);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	const char *p = data, *end = data + len, *line, *rest;
	size_t n;
	while (rc == 0 && next_line(&p, end, &line, &n)) {
		if (!has_prefix(line, n, "EVENT: ", &rest))
			continue;
		char *e;
		uint64_t id = strtoull(rest, &e, 10);
		if (e == rest || *e != ' ')
			continue;
		uft_event_name *ev = realloc(d->events, (d->event_count + 1) * sizeof *ev);
		if (!ev) {
			rc = tc_fail_nomem();
			break;
		}
		d->events = ev;
		ev[d->event_count].id = id;
		ev[d->event_count].name = tc_pool_strndup(&d->pool, e + 1, n - (size_t)(e + 1 - line));
		if (!ev[d->event_count].name)
			rc = TC_ENOMEM;
		d->event_count++;
	}
	free(data);
	return rc;
}

/* default.opts: "-t TIME" is the recording's time filter (§8.1). */
static int read_default_opts(uft_data *d)
{
	char *data;
	size_t len;
	int rc = read_text(d, "default.opts", &data, &len);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	const char *t = strstr(data, "-t ");
	if (t) {
		char *e;
		double v = strtod(t + 3, &e);
		double scale = 1;
		if (!strncmp(e, "us", 2))
			scale = 1e3;
		else if (!strncmp(e, "ms", 2))
			scale = 1e6;
		else if (!strncmp(e, "m", 1) && e[1] != 's')
			scale = 6e10;
		else if (!strncmp(e, "s", 1))
			scale = 1e9;
		/* a threshold beyond 2^64 ns filters out everything, as the largest one does */
		if (e != t + 3 && v > 0)
			d->time_filter = v * scale < 18446744073709551616.0 ? (uint64_t)(v * scale) : UINT64_MAX;
	}
	free(data);
	return 0;
}

static int read_dbg_files(uft_data *d)
{
	glob_t g;
	char *pattern = path_in(d, "*.dbg");
	if (!pattern)
		return TC_ENOMEM;
	int rc = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		char *data;
		size_t len;
		/* one there but unreadable is an error: uftrace would go on
		 * and stop later at the first record needing its specs */
		if ((rc = tc_read_file(g.gl_pathv[i], MAX_TEXT_FILE, &data, &len)) < 0)
			break;
		const char *slash = strrchr(g.gl_pathv[i], '/');
		char module[512];
		snprintf(module, sizeof module, "%s", slash ? slash + 1 : g.gl_pathv[i]);
		size_t ml = strlen(module);
		if (ml > 4)
			module[ml - 4] = '\0';
		/* uftrace leaves out a .dbg file it cannot parse; so do we */
		rc = ua_specs_add_dbg(d->specs, module, data, len, g.gl_pathv[i]);
		if (rc < 0 && rc != TC_ENOMEM)
			rc = 0;
		free(data);
	}
	globfree(&g);
	return rc;
}

static int read_perf_files(uft_data *d)
{
	glob_t g;
	char *pattern = path_in(d, "perf-cpu*.dat");
	if (!pattern)
		return TC_ENOMEM;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	int rc = 0;
	for (size_t i = 0; i < g.gl_pathc && rc == 0; i++) {
		char *p = tc_pool_strdup(&d->pool, g.gl_pathv[i]);
		rc = p ? tc_ptr_push((void ***)&d->perf_files, &d->perf_file_count, p) : TC_ENOMEM;
	}
	globfree(&g);
	return rc;
}

int uft_open(uft_data **out, const char *dir)
{
	uft_data *d = calloc(1, sizeof *d);
	if (!d)
		return tc_fail_nomem();
	pthread_mutex_init(&d->load_lock, NULL);
	tc_pool_init(&d->pool);
	int rc = (d->dir = strdup(dir)) ? 0 : tc_fail_nomem();
	if (rc == 0)
		rc = read_info(d);
	if (rc == 0)
		rc = read_tasks(d);
	if (rc == 0)
		rc = read_events_txt(d);
	if (rc == 0)
		rc = read_default_opts(d);
	if (rc == 0 && (d->feat_mask & 0x400))
		rc = read_dbg_files(d);
	if (rc == 0)
		rc = read_perf_files(d);
	/* the maps now, so that one that cannot be read is an error here
	 * rather than addresses silently left unresolved later */
	for (size_t i = 0; i < d->session_count && rc == 0; i++)
		rc = ensure_maps(d, d->sessions[i]);
	for (size_t i = 0; i < d->task_count && rc == 0; i++) {
		char name[32];
		struct stat st;
		snprintf(name, sizeof name, "%d.dat", d->tasks[i]->tid);
		if (!(d->tasks[i]->data_path = path_in(d, name)))
			rc = TC_ENOMEM;
		else   /* there unless absent: one that cannot be read is an error when read */
			d->tasks[i]->has_data = stat(d->tasks[i]->data_path, &st) == 0 || errno != ENOENT;
		d->tasks[i]->index = i;
	}
	if (rc < 0) {
		uft_close(d);
		return rc;
	}
	*out = d;
	return 0;
}

void uft_close(uft_data *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->session_count; i++) {
		uft_session *s = d->sessions[i];
		for (size_t k = 0; k < s->map_count; k++)
			free(s->maps[k].syms.syms);
		for (size_t k = 0; k < s->dlop_count; k++)
			free(s->dlops[k].mod.syms.syms);
		free(s->maps);
	}
	ua_specs_free(d->specs);
	pthread_mutex_destroy(&d->load_lock);
	free(d->tasks);
	free(d->sessions);
	free(d->events);
	free(d->perf_files);
	free(d->dir);
	tc_pool_free(&d->pool);
	free(d);
}

/* ---- maps and symbols ---- */

static int load_map(uft_data *d, uft_session *s)
{
	char name[64];
	snprintf(name, sizeof name, "sid-%.16s.map", s->sid);
	char *data;
	size_t len;
	int rc = read_text(d, name, &data, &len);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	const char *p = data, *end = data + len, *line;
	size_t n;
	while (rc == 0 && next_line(&p, end, &line, &n)) {
		char *copy = tc_pool_strndup(&d->pool, line, n);
		if (!copy) {
			rc = TC_ENOMEM;
			break;
		}
		char *tok[8] = { 0 }, *save = NULL;
		int nt = 0;
		for (char *w = strtok_r(copy, " \t", &save); w && nt < 8; w = strtok_r(NULL, " \t", &save))
			tok[nt++] = w;
		if (nt < 6 || tok[5][0] == '[')
			continue;
		uint64_t start, stop;
		if (sscanf(tok[0], "%" SCNx64 "-%" SCNx64, &start, &stop) != 2 || stop <= start)
			continue;
		if (s->map_count && strcmp(s->maps[s->map_count - 1].path, tok[5]) == 0) {
			s->maps[s->map_count - 1].end = stop;
			continue;
		}
		uft_module *m = realloc(s->maps, (s->map_count + 1) * sizeof *m);
		if (!m) {
			rc = tc_fail_nomem();
			break;
		}
		s->maps = m;
		m = &s->maps[s->map_count++];
		memset(m, 0, sizeof *m);
		m->start = start;
		m->end = stop;
		m->path = tok[5];
		const char *slash = strrchr(m->path, '/');
		m->base = slash ? slash + 1 : m->path;
		m->is_main = s->map_count == 1 || (s->exename && strcmp(s->exename, m->path) == 0);
		if (nt > 6 && strncmp(tok[6], "build-id:", 9) == 0)
			m->build_id = tok[6] + 9;
	}
	free(data);
	return rc;
}

static int cmp_sym(const void *a, const void *b)
{
	const uft_symbol *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static bool is_sentinel(const char *name)
{
	return !strcmp(name, "__sym_end") || !strcmp(name, "__dynsym_end") || !strcmp(name, "__func_end");
}

/* A .sym file's text into M's table (§4.2.3,
 * with 0.14's sizes). */
static int parse_syms(uft_data *d, uft_module *m, const char *data, size_t len)
{
	const char *p = data, *end = data + len, *line;
	size_t n, cap = 0;
	uft_symtab *tab = &m->syms;
	uint64_t last_addr = UINT64_MAX;
	char last_type = 0;
	while (next_line(&p, end, &line, &n)) {
		if (n == 0 || line[0] == '#')
			continue;
		char *copy = tc_pool_strndup(&d->pool, line, n);
		if (!copy)
			return TC_ENOMEM;
		char *tab_char = strchr(copy, '\t');
		if (tab_char)
			*tab_char = '\0';
		char *e;
		uint64_t addr = strtoull(copy, &e, 16);
		if (e == copy || *e != ' ')
			continue;
		char *q = e + 1;
		uint64_t size = 0;
		bool sized = false;
		char *sp = strchr(q, ' ');
		if (sp && sp - q > 1) {   /* 0.14: "<addr> <size> <type> <name>" */
			size = strtoull(q, NULL, 16);
			sized = true;
			q = sp + 1;
		}
		if (!q[0] || q[1] != ' ')
			continue;
		char type = q[0];
		const char *name = q + 2;
		if (addr == last_addr && type == last_type)
			continue;
		if (type == '?' || is_sentinel(name)) {
			if (tab->count && tab->syms[tab->count - 1].size == 0 && addr > tab->syms[tab->count - 1].addr)
				tab->syms[tab->count - 1].size = addr - tab->syms[tab->count - 1].addr;
			continue;
		}
		if (!strchr("TtwWPDdvuKVi", type))
			continue;
		if (tab->count == cap) {
			cap = cap ? cap * 2 : 256;
			uft_symbol *more = realloc(tab->syms, cap * sizeof *more);
			if (!more)
				return tc_fail_nomem();
			tab->syms = more;
		}
		if (!sized && tab->count && tab->syms[tab->count - 1].size == 0 && addr > tab->syms[tab->count - 1].addr)
			tab->syms[tab->count - 1].size = addr - tab->syms[tab->count - 1].addr;
		/* a .sym file is at most MAX_TEXT_FILE bytes: the length fits */
		name = uft_demangled(d, name);
		tab->syms[tab->count++] = (uft_symbol){ .addr = addr, .size = size, .type = type,
		                                        .name_len = (uint32_t)strlen(name), .name = name };
		last_addr = addr;
		last_type = type;
	}
	if (tab->count)
		qsort(tab->syms, tab->count, sizeof *tab->syms, cmp_sym);
	return 0;
}

/* "<base>-<4 hex>.sym" for modules whose basename another one took
 * (§4.2.4). */
static void alt_sym_name(const uft_module *m, char *out, size_t size)
{
	if (m->build_id && strlen(m->build_id) >= 4) {
		snprintf(out, size, "%s-%.4s.sym", m->base, m->build_id);
		return;
	}
	unsigned sum = 0;
	for (const char *c = m->path; *c; c++)
		sum += (unsigned char)*c;
	snprintf(out, size, "%s-%04x.sym", m->base, sum & 0xffff);
}

static bool sym_file_matches(const uft_module *m, const char *data, size_t len)
{
	const char *p = data, *end = data + len, *line, *rest;
	size_t n;
	while (next_line(&p, end, &line, &n) && n && line[0] == '#') {
		if (has_prefix(line, n, "# path name: ", &rest))
			if ((size_t)(line + n - rest) != strlen(m->path) || memcmp(rest, m->path, strlen(m->path)) != 0)
				return false;
		if (has_prefix(line, n, "# build-id: ", &rest) && m->build_id)
			if ((size_t)(line + n - rest) != strlen(m->build_id) || memcmp(rest, m->build_id, strlen(m->build_id)) != 0)
				return false;
	}
	return true;
}

/* M's symbols from its binary, as uftrace reads them without a .sym
 * file; when that fails too, its addresses stay unresolved, with a word
 * to the caller. */
static int load_binary_syms(uft_data *d, uft_module *m)
{
	const char *why;
	int rc = uft_elf_symbols(d, m, &why);
	if (rc <= 0 || !d->warn)
		return rc < 0 ? rc : 0;
	tc_buf msg = { 0 };
	tc_buf_printf(&msg, "%s/%s.sym is missing or unreadable, and so is %s (%s): its functions are shown as addresses",
	              d->dir, m->base, m->path, why);
	bool told = msg.data != NULL;
	if (told)
		d->warn(d->warn_arg, msg.data);
	tc_buf_free(&msg);
	return told ? 0 : TC_ENOMEM;
}

static int load_syms(uft_data *d, uft_module *m)
{
	if (!m->base)
		return 0;
	char name[600];
	char *data;
	size_t len;
	/* "<base>.sym"; when that one describes another module, the
	 * alternative name (§4.2.4), whose header is not checked */
	for (int attempt = 0;; attempt++) {
		if (attempt == 0)
			snprintf(name, sizeof name, "%s.sym", m->base);
		else
			alt_sym_name(m, name, sizeof name);
		int rc = read_text(d, name, &data, &len);
		/* absent or unreadable: the binary, as in uftrace */
		if (rc == TC_ENOMEM)
			return rc;
		if (rc != 0)
			return load_binary_syms(d, m);
		if (attempt > 0 || sym_file_matches(m, data, len))
			break;
		free(data);
	}
	/* The names point into the pool's copy of each line. */
	int rc = parse_syms(d, m, data, len);
	free(data);
	return rc;
}

/* S's maps, read the first time: 0 or < 0.  A failure is not retried. */
static int ensure_maps(uft_data *d, uft_session *s)
{
	if (atomic_load_explicit(&s->maps_loaded, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&d->load_lock);
	int rc = 0;
	if (!atomic_load_explicit(&s->maps_loaded, memory_order_relaxed)) {
		rc = load_map(d, s);
		atomic_store_explicit(&s->maps_loaded, true, memory_order_release);
	}
	pthread_mutex_unlock(&d->load_lock);
	return rc;
}

/* M's symbols, read the first time, as ensure_maps. */
static int ensure_syms(uft_data *d, uft_module *m)
{
	if (atomic_load_explicit(&m->loaded, memory_order_acquire))
		return 0;
	pthread_mutex_lock(&d->load_lock);
	int rc = 0;
	if (!atomic_load_explicit(&m->loaded, memory_order_relaxed)) {
		rc = load_syms(d, m);
		atomic_store_explicit(&m->loaded, true, memory_order_release);
	}
	pthread_mutex_unlock(&d->load_lock);
	return rc;
}

const uft_module *uft_session_module(uft_data *d, uft_session *s, size_t i)
{
	if (ensure_maps(d, s) < 0 || i >= s->map_count || ensure_syms(d, &s->maps[i]) < 0)
		return NULL;
	return &s->maps[i];
}

const uft_module *uft_session_main_module(uft_data *d, uft_session *s)
{
	if (ensure_maps(d, s) < 0)
		return NULL;
	for (size_t i = 0; i < s->map_count; i++) {
		uft_module *m = &s->maps[i];
		if (!m->is_main)
			continue;
		if (ensure_syms(d, m) < 0)
			return NULL;
		return m;
	}
	return NULL;
}

static const uft_symbol *find_sym(const uft_symtab *t, uint64_t rel)
{
	size_t lo = 0, hi = t->count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->syms[mid].addr <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const uft_symbol *s = &t->syms[lo - 1];
	return rel < s->addr + s->size ? s : NULL;
}

static uft_session *session_of(const uft_data *d, const uft_task *task, uint64_t t)
{
	for (int hops = 0; task && hops < 64; hops++) {
		for (size_t i = 0; i < task->ref_count; i++) {
			bool last = i + 1 == task->ref_count;
			if (task->refs[i].start <= t && (last || t < task->refs[i + 1].start))
				return task->refs[i].session;
		}
		int next = task->ppid ? task->ppid : task->pid != task->tid ? task->pid : 0;
		task = next ? uft_task_by_tid(d, next) : NULL;
	}
	return NULL;
}

static void set_place(uft_place *out, const uft_symbol *sym, const uft_module *m)
{
	out->sym = sym;
	out->module = m;
	out->fn.name = sym->name;
	out->fn.module = m->base;
	out->fn.is_main_module = m->is_main;
	out->fn.is_plt = sym->type == 'P';
	out->fn.sym_addr = sym->addr;
}

bool uft_resolve(uft_data *d, const uft_task *task, uint64_t time, uint64_t addr, uft_place *out, uft_recent *recent)
{
	memset(out, 0, sizeof *out);
	uft_session *s = session_of(d, task, time);
	if (!s && task && task->ref_count)
		s = task->refs[0].session;   /* before its first reference: the first session */
	if (!s)
		return false;
	size_t n = sizeof recent->slots / sizeof recent->slots[0];
	uft_recent_slot *slot = recent ? &recent->slots[(addr >> 4 ^ addr >> 10) % n] : NULL;
	if (slot && slot->sym && slot->session == s && slot->addr == addr) {
		set_place(out, slot->sym, slot->module);
		out->slot = slot;
		return true;
	}
	if (ensure_maps(d, s) < 0)
		return false;
	uft_module *m = NULL;
	uint64_t rel = 0;
	bool in_map = false;
	for (size_t i = 0; i < s->map_count; i++) {
		if (s->maps[i].start <= addr && addr < s->maps[i].end) {
			m = &s->maps[i];
			rel = addr - m->start;
			in_map = true;
			break;
		}
	}
	if (!m) {
		for (size_t i = s->dlop_count; i-- > 0;) {
			uft_dlop *dl = &s->dlops[i];
			if (dl->time > time || addr < dl->base)
				continue;
			if (ensure_syms(d, &dl->mod) < 0)
				continue;
			const uft_symbol *sym = find_sym(&dl->mod.syms, addr - dl->base);
			if (sym) {
				m = &dl->mod;
				rel = addr - dl->base;
				break;
			}
		}
		if (!m)
			return false;
	}
	if (ensure_syms(d, m) < 0)
		return false;
	/* very old data (no SYM_REL_ADDR feature) stores absolute addresses */
	if (!(d->feat_mask & 0x20) && in_map)
		rel = addr;
	const uft_symbol *sym = find_sym(&m->syms, rel);
	if (!sym)
		return false;
	set_place(out, sym, m);
	if (slot && in_map) {
		slot->session = s;
		slot->addr = addr;
		slot->sym = sym;
		slot->module = m;
		slot->known = 0;
		out->slot = slot;
	}
	return true;
}

const ua_list *uft_place_items(uft_data *d, const uft_place *pl, bool retval)
{
	uft_recent_slot *slot = pl->slot;
	if (slot && (slot->known >> retval & 1))
		return slot->lists[retval];
	const ua_list *l = ua_lookup(d->specs, &pl->fn, retval);
	/* NULL may be a failure: asked again next time */
	if (slot && l) {
		slot->lists[retval] = l;
		slot->known |= 1u << retval;
	}
	return l;
}

const char *uft_place_name(const uft_place *pl, uint64_t addr, char *buf, size_t size)
{
	if (pl)
		return pl->sym->name;
	snprintf(buf, size, "<%" PRIx64 ">", addr);
	return buf;
}

const char *uft_event_name_of(const uft_data *d, uint64_t id, char *buf, size_t size)
{
	static const struct {
		uint64_t id;
		const char *name;
	} builtin[] = {
		{ UFT_EV_READ_STATM, "read:proc/statm" },
		{ UFT_EV_READ_PAGE_FAULT, "read:page-fault" },
		{ UFT_EV_DIFF_STATM, "diff:proc/statm" },
		{ UFT_EV_DIFF_PAGE_FAULT, "diff:page-fault" },
		{ UFT_EV_READ_PMU_CYCLE, "read:pmu-cycle" },
		{ UFT_EV_DIFF_PMU_CYCLE, "diff:pmu-cycle" },
		{ UFT_EV_READ_PMU_CACHE, "read:pmu-cache" },
		{ UFT_EV_DIFF_PMU_CACHE, "diff:pmu-cache" },
		{ UFT_EV_READ_PMU_BRANCH, "read:pmu-branch" },
		{ UFT_EV_DIFF_PMU_BRANCH, "diff:pmu-branch" },
		{ UFT_EV_WATCH_CPU, "watch:cpu" },
		{ UFT_EV_SCHED_IN, "linux:sched-in" },
		{ UFT_EV_SCHED_OUT, "linux:sched-out" },
		{ UFT_EV_SCHEDULE, "linux:schedule" },
		{ UFT_EV_TASK_NEW, "linux:task-new" },
		{ UFT_EV_TASK_EXIT, "linux:task-exit" },
		{ UFT_EV_TASK_NAME, "linux:task-name" },
		{ UFT_EV_SCHED_OUT_PREEMPT, "linux:sched-out (pre-empted)" },
		{ UFT_EV_SCHEDULE_PREEMPT, "linux:schedule (pre-empted)" },
		{ UFT_EV_EXTERN_DATA, "external-data" },
	};
	for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (builtin[i].id == id)
			return builtin[i].name;
	for (size_t i = 0; i < d->event_count; i++)
		if (d->events[i].id == id)
			return d->events[i].name;
	snprintf(buf, size, "%s:%" PRIu64, id >= UFT_EV_USER ? "user_event" : "event", id);
	return buf;
}

const char *uft_module_name(uft_data *d, const uft_task *task, uint64_t time, uint64_t addr)
{
	uft_session *s = session_of(d, task, time);
	if (!s && task && task->ref_count)
		s = task->refs[0].session;
	if (!s || ensure_maps(d, s) < 0)
		return NULL;
	for (size_t i = 0; i < s->map_count; i++)
		if (s->maps[i].start <= addr && addr < s->maps[i].end)
			return s->maps[i].base;
	/* a dlopen'ed library, §4.4: the latest loaded by then below ADDR
	 * whose symbols cover it */
	uft_place pl;
	if (uft_resolve(d, task, time, addr, &pl, NULL) && pl.module)
		return pl.module->base;
	return NULL;
}
