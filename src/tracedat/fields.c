/* SPDX-License-Identifier: MIT */
/*
 * fields.c - the field lines of trace.dat format texts
 * (doc/formats/tracedat.md §3.1, §9.1, §9.2): header_page, which gives the
 * ring-buffer page layout, and the event formats, which give each event's
 * fields.  Only the declarative
 * part is parsed (name, ID, fields); the "print fmt" line is left to
 * libtraceevent.
 *
 *   name: sched_switch
 *   ID: 372
 *   format:
 *   	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *   	(more common fields)
 *
 *   	field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *   	(more event fields)
 *
 *   print fmt: ...
 *
 * header_page writes "field: u64 timestamp;" with a space; spaces are
 * accepted around every token.  A declaration's name is its last
 * identifier, before an optional "[...]"; the rest is its type.
 */
#include "tracedat/tracedat.h"

#include <inttypes.h>
#include <string.h>

typedef struct line_ctx {
	const char *path;
	const tracedat_blob *blob;
	const char *line;          /* start of the line in BLOB */
} line_ctx;

static int line_fail(const line_ctx *lc, const char *fmt, ...) TC_PRINTF(2, 3);
static int line_fail(const line_ctx *lc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	size_t pos = (size_t)(lc->line - lc->blob->data);
	/* Inflated text has no file offset of its own: name the section and
	 * the place inside the text instead. */
	if (lc->blob->compressed)
		return tc_fail(TC_EFORMAT, lc->path, lc->blob->offset, "format text at byte %zu of this compressed section: %s", pos, msg);
	return tc_fail(TC_EFORMAT, lc->path, lc->blob->offset + (int64_t)pos, "format text: %s", msg);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && is_space(*p))
		p++;
	return p;
}

/* [P, END) without surrounding spaces, as *S and *E. */
static void trim(const char *p, const char *end, const char **s, const char **e)
{
	p = skip_spaces(p, end);
	while (end > p && is_space(end[-1]))
		end--;
	*s = p;
	*e = end;
}

/* Whether the line [P, END) starts with KEY (after spaces); *REST: after it. */
static bool starts_with(const char *p, const char *end, const char *key, const char **rest)
{
	size_t n = strlen(key);
	p = skip_spaces(p, end);
	if ((size_t)(end - p) < n || memcmp(p, key, n) != 0)
		return false;
	*rest = p + n;
	return true;
}

/* A decimal number that fits 32 bits, making up all of [P, END). */
static bool parse_u32(const char *p, const char *end, uint32_t *out)
{
	uint64_t v = 0;
	if (p == end)
		return false;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX)
			return false;
	}
	*out = (uint32_t)v;
	return true;
}

/* "DECL" of a field line: name, type, array suffix. */
static int parse_declaration(tc_pool *pool, const line_ctx *lc, const char *p, const char *end, tracedat_field *fd)
{
	const char *s, *e;
	trim(p, end, &s, &e);
	const char *name_end = e;
	if (e > s && e[-1] == ']') {
		const char *open = e - 1;
		while (open > s && *open != '[')
			open--;
		if (*open != '[')
			return line_fail(lc, "unbalanced ']' in \"%.*s\"", (int)(e - s), s);
		const char *ls, *le;
		trim(open + 1, e - 1, &ls, &le);
		fd->is_array = true;
		fd->is_flexible = ls == le;
		if (!parse_u32(ls, le, &fd->array_len))
			fd->array_len = 0;   /* an expression: sizes decide (§9.2) */
		name_end = open;
		while (name_end > s && is_space(name_end[-1]))
			name_end--;
	}
	const char *name = name_end;
	while (name > s && is_ident(name[-1]))
		name--;
	if (name == name_end)
		return line_fail(lc, "no field name in \"%.*s\"", (int)(e - s), s);
	const char *ts, *te;
	trim(s, name, &ts, &te);
	fd->name = tc_pool_strndup(pool, name, (size_t)(name_end - name));
	fd->type = tc_pool_strndup(pool, ts, (size_t)(te - ts));
	if (!fd->name || !fd->type)
		return TC_ENOMEM;
	fd->is_data_loc = strncmp(fd->type, "__data_loc", 10) == 0;
	fd->is_rel_loc = strncmp(fd->type, "__rel_loc", 9) == 0;
	return 0;
}

/* "field:DECL;	offset:N;	size:N;	signed:N;" after "field:". */
static int parse_field_line(tc_pool *pool, const line_ctx *lc, const char *p, const char *end, tracedat_field *fd)
{
	memset(fd, 0, sizeof *fd);
	const char *semi = memchr(p, ';', (size_t)(end - p));
	if (!semi)
		return line_fail(lc, "field declaration without ';'");
	int rc = parse_declaration(pool, lc, p, semi, fd);
	if (rc < 0)
		return rc;
	bool have_offset = false, have_size = false;
	for (p = semi + 1;;) {
		p = skip_spaces(p, end);
		if (p == end)
			break;
		const char *colon = memchr(p, ':', (size_t)(end - p));
		const char *stop = memchr(p, ';', (size_t)(end - p));
		if (!colon || !stop || colon > stop)
			return line_fail(lc, "field %s: expected KEY:VALUE; after the declaration", fd->name);
		const char *ks, *ke, *vs, *ve;
		trim(p, colon, &ks, &ke);
		trim(colon + 1, stop, &vs, &ve);
		uint32_t v;
		/* Unknown attributes are skipped: newer kernels may add some. */
		bool known = true;
		if ((size_t)(ke - ks) == 6 && memcmp(ks, "offset", 6) == 0)
			have_offset = true;
		else if ((size_t)(ke - ks) == 4 && memcmp(ks, "size", 4) == 0)
			have_size = true;
		else if (!((size_t)(ke - ks) == 6 && memcmp(ks, "signed", 6) == 0))
			known = false;
		if (known && !parse_u32(vs, ve, &v))
			return line_fail(lc, "field %s: %.*s is not a number: \"%.*s\"", fd->name, (int)(ke - ks), ks, (int)(ve - vs), vs);
		if (known && ks[0] == 'o')
			fd->offset = v;
		else if (known && ks[0] == 's' && ks[1] == 'i' && ks[2] == 'z')
			fd->size = v;
		else if (known)
			fd->is_signed = v != 0;
		p = stop + 1;
	}
	if (!have_offset || !have_size)
		return line_fail(lc, "field %s has no %s", fd->name, have_offset ? "size" : "offset");
	if ((uint64_t)fd->offset + fd->size > UINT32_MAX)
		return line_fail(lc, "field %s: offset %" PRIu32 " + size %" PRIu32 " overflows", fd->name, fd->offset, fd->size);
	return 0;
}

int tracedat_parse_format(tc_pool *pool, const char *path, const tracedat_blob *blob, tracedat_format *out)
{
	memset(out, 0, sizeof *out);
	const char *p = blob->data, *end = blob->data + blob->len;
	line_ctx lc = { path, blob, p };
	tc_buf fields = { 0 };
	bool common_done = false;
	int rc = 0;
	out->name = "";
	while (p < end && rc == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *rest;
		lc.line = p;
		const char *ts, *te;
		trim(p, le, &ts, &te);
		if (ts == te) {
			/* The first blank line after fields ends the common block. */
			if (out->field_count && !common_done) {
				out->common_count = out->field_count;
				common_done = true;
			}
		} else if (starts_with(p, le, "print fmt:", &rest)) {
			break;
		} else if (starts_with(p, le, "name:", &rest)) {
			trim(rest, le, &ts, &te);
			if (!(out->name = tc_pool_strndup(pool, ts, (size_t)(te - ts))))
				rc = TC_ENOMEM;
		} else if (starts_with(p, le, "ID:", &rest)) {
			trim(rest, le, &ts, &te);
			if (!parse_u32(ts, te, &out->id))
				rc = line_fail(&lc, "event ID \"%.*s\" is not a number", (int)(te - ts), ts);
			out->has_id = true;
		} else if (starts_with(p, le, "field", &rest) && (rest = skip_spaces(rest, le)) < le && *rest == ':') {
			tracedat_field fd;
			rc = parse_field_line(pool, &lc, rest + 1, le, &fd);
			if (rc == 0)
				rc = tc_buf_append(&fields, &fd, sizeof fd);
			if (rc == 0)
				out->field_count++;
		}
		/* Other lines ("format:", comments) carry nothing needed here. */
		p = nl ? nl + 1 : end;
	}
	if (rc == 0 && !common_done)
		out->common_count = out->field_count;
	if (rc == 0 && out->field_count) {
		out->fields = tc_pool_alloc(pool, fields.len);
		if (out->fields)
			memcpy(out->fields, fields.data, fields.len);
		else
			rc = TC_ENOMEM;
	}
	tc_buf_free(&fields);
	return rc;
}
