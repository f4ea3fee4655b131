/* SPDX-License-Identifier: MIT */
/*
 * json_text.c - CTF 2 metadata as JSON values: the text sequence split into
 * fragments (RFC 7464; doc/formats/ctf.md §4.2), each parsed by json-c,
 * plus the checks json-c does not make and babeltrace2 2.1.2 does: a key
 * given twice in one object, an integer outside both int64 and uint64
 * (json-c silently keeps the last key and clamps the integer), an empty
 * key, -0, and an escaped UTF-16 surrogate pair.
 */
#include "ctf/json_meta.h"

#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

/* Where a raw scan of one fragment stands: a stack of open objects and
 * arrays, each object with the keys seen so far. */
typedef struct raw_key {
	const char *at;
	size_t len;
} raw_key;

typedef struct raw_level {
	bool is_object;
	bool want_key;       /* an object expecting a key next */
	raw_key *keys;
	size_t count, cap;
} raw_level;

static const char *skip_string(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		if (*p == '\\' && p + 1 < end)
			p++;
	return p < end ? p + 1 : end;
}

static bool is_surrogate_escape(const char *p, const char *end, char lo, char hi)
{
	return end - p >= 6 && p[0] == '\\' && p[1] == 'u' && (p[2] == 'd' || p[2] == 'D') &&
	       tolower((unsigned char)p[3]) >= lo && tolower((unsigned char)p[3]) <= hi;
}

/* A string [S, END) holding "\uD8xx\uDCxx": json-c joins the pair, and
 * babeltrace2 refuses it. */
static bool has_surrogate_pair(const char *s, const char *end)
{
	for (const char *p = s; p < end; p++) {
		if (is_surrogate_escape(p, end, '8', 'b') && is_surrogate_escape(p + 6, end, 'c', 'f'))
			return true;
		if (*p == '\\')
			p++;
	}
	return false;
}

/* An integer literal (no fraction, no exponent) that fits neither int64
 * nor uint64. */
static bool integer_overflows(const char *p, const char *end)
{
	const char *q = p + (*p == '-');
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q < end && (*q == '.' || *q == 'e' || *q == 'E'))
		return false;
	char buf[32];
	size_t n = (size_t)(q - p);
	if (n >= sizeof buf)
		return true;
	memcpy(buf, p, n);
	buf[n] = '\0';
	errno = 0;
	if (*p == '-')
		(void)strtoll(buf, NULL, 10);
	else
		(void)strtoull(buf, NULL, 10);
	return errno == ERANGE;
}

/* Checks the fragment text [P, END), which json-c accepted, for repeated
 * keys and oversized integers; 0, or the offset (from P) of the first one
 * plus a description in *WHAT. */
static int raw_check(const char *p, const char *end, size_t *at, const char **what)
{
	raw_level levels[JSON_MAX_DEPTH];
	size_t depth = 0;
	int rc = 0;
	const char *start = p;
	while (p < end && rc == 0) {
		char c = *p;
		raw_level *top = depth ? &levels[depth - 1] : NULL;
		if (c == '{' || c == '[') {
			if (depth == JSON_MAX_DEPTH) {
				*at = (size_t)(p - start);
				*what = "nested too deeply";
				rc = 1;
				break;
			}
			levels[depth++] = (raw_level){ .is_object = c == '{', .want_key = c == '{' };
			p++;
		} else if (c == '}' || c == ']') {
			if (top) {
				free(top->keys);
				depth--;
			}
			p++;
		} else if (c == ',') {
			if (top && top->is_object)
				top->want_key = true;
			p++;
		} else if (c == '"') {
			const char *s = p;
			p = skip_string(p, end);
			if (has_surrogate_pair(s, p)) {
				*at = (size_t)(s - start);
				*what = "a UTF-16 surrogate pair escape (babeltrace2 refuses them)";
				rc = 1;
				break;
			}
			if (top && top->is_object && top->want_key) {
				raw_key k = { s + 1, (size_t)(p - s - 2) };
				if (k.len == 0) {
					*at = (size_t)(s - start);
					*what = "an empty key";
					rc = 1;
					break;
				}
				for (size_t i = 0; i < top->count; i++)
					if (top->keys[i].len == k.len && memcmp(top->keys[i].at, k.at, k.len) == 0) {
						*at = (size_t)(s - start);
						*what = "a key given twice in one object";
						rc = 1;
					}
				if (top->count == top->cap) {
					size_t cap = top->cap ? top->cap * 2 : 8;
					raw_key *keys = realloc(top->keys, cap * sizeof *keys);
					if (!keys) {
						rc = TC_ENOMEM;
						break;
					}
					top->keys = keys;
					top->cap = cap;
				}
				top->keys[top->count++] = k;
				top->want_key = false;
			}
		} else if (c == '-' || isdigit((unsigned char)c)) {
			if (integer_overflows(p, end)) {
				*at = (size_t)(p - start);
				*what = "an integer beyond 64 bits";
				rc = 1;
			} else if (p + 2 <= end && p[0] == '-' && p[1] == '0' &&
			           (p + 2 == end || !(isdigit((unsigned char)p[2]) || p[2] == '.' || p[2] == 'e' || p[2] == 'E'))) {
				*at = (size_t)(p - start);
				*what = "-0 (expecting an integer without a sign)";
				rc = 1;
			}
			while (p < end && (*p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E' ||
			                   isdigit((unsigned char)*p)))
				p++;
		} else {
			p++;
		}
	}
	while (depth)
		free(levels[--depth].keys);
	return rc;
}

/*
 * json-c 0.18's strict mode takes every byte from 0x80 up for a control
 * character, so it refuses any UTF-8 in a string (json-c issues 875 and
 * 892), names included; 0.16 (Debian 12) accepts it.  Where the linked
 * library refuses (asked once, benignly racing), a fragment with such
 * bytes is checked strictly with each of them replaced by an ASCII letter
 * (the same structure byte for byte, so the same error offsets), then
 * parsed as it is, without the strict flag, for its values.
 */
static bool strict_refuses_utf8(void)
{
	static _Atomic int answer = -1;
	int a = answer;
	if (a < 0) {
		json_tokener *t = json_tokener_new();
		json_object *o = NULL;
		a = 0;
		if (t) {
			json_tokener_set_flags(t, JSON_TOKENER_STRICT);
			o = json_tokener_parse_ex(t, "\"\xc3\xa9\"", 4);
			a = !o;
			json_object_put(o);
			json_tokener_free(t);
		}
		answer = a;
	}
	return a;
}

/* Parses the LEN bytes at TEXT with TOK (strict), into *OBJ, json-c's
 * error into *JERR and where the parse stopped into *END; false when out
 * of memory. */
static bool parse_fragment(json_tokener *tok, const char *text, size_t len, json_object **obj,
                           enum json_tokener_error *jerr, size_t *end)
{
	size_t i = 0;
	while (i < len && (unsigned char)text[i] < 0x80)
		i++;
	json_tokener_reset(tok);
	*obj = NULL;
	if (i < len && strict_refuses_utf8()) {
		char *ascii = malloc(len);
		if (!ascii)
			return false;
		for (size_t j = 0; j < len; j++)
			ascii[j] = (unsigned char)text[j] < 0x80 ? text[j] : 'a';
		json_object_put(json_tokener_parse_ex(tok, ascii, (int)len));
		free(ascii);
		*jerr = json_tokener_get_error(tok);
		*end = json_tokener_get_parse_end(tok);
		if (*jerr != json_tokener_success)
			return true;
		json_tokener_reset(tok);
		json_tokener_set_flags(tok, 0);
		*obj = json_tokener_parse_ex(tok, text, (int)len);
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	} else {
		*obj = json_tokener_parse_ex(tok, text, (int)len);
	}
	*jerr = json_tokener_get_error(tok);
	*end = json_tokener_get_parse_end(tok);
	return true;
}

static bool is_json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int ctf2_split(const char *path, const char *data, size_t len, ctf2_fragment **out, size_t *count)
{
	ctf2_fragment *frags = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	json_tokener *tok = json_tokener_new_ex(JSON_MAX_DEPTH);
	if (!tok)
		return tc_fail_nomem();
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	size_t i = 0;
	while (i < len && rc == 0) {
		if (data[i] == 0x1E) {
			i++;
			continue;
		}
		size_t start = i;
		while (i < len && data[i] != 0x1E)
			i++;
		size_t b = start, e = i;
		while (b < e && is_json_space(data[b]))
			b++;
		while (e > b && is_json_space(data[e - 1]))
			e--;
		if (b == e) {
			rc = tc_fail(TC_EFORMAT, path, (int64_t)start, "metadata: an empty fragment (only white space after a record separator)");
			break;
		}
		json_object *obj;
		enum json_tokener_error jerr;
		size_t end;
		if (!parse_fragment(tok, data + b, e - b, &obj, &jerr, &end)) {
			rc = tc_fail_nomem();
			break;
		}
		if (!obj || jerr != json_tokener_success) {
			json_object_put(obj);
			rc = tc_fail(TC_EFORMAT, path, (int64_t)(b + end),
			             "metadata: fragment is not valid JSON: %s", json_tokener_error_desc(jerr));
			break;
		}
		if (end != e - b) {
			json_object_put(obj);
			rc = tc_fail(TC_EFORMAT, path, (int64_t)(b + end), "metadata: more than one JSON value in a fragment");
			break;
		}
		if (!json_object_is_type(obj, json_type_object)) {
			json_object_put(obj);
			rc = tc_fail(TC_EFORMAT, path, (int64_t)b, "metadata: a fragment must be a JSON object");
			break;
		}
		size_t at = 0;
		const char *what = NULL;
		int raw = raw_check(data + b, data + e, &at, &what);
		if (raw) {
			json_object_put(obj);
			rc = raw < 0 ? raw : tc_fail(TC_EFORMAT, path, (int64_t)(b + at), "metadata: %s", what);
			break;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			ctf2_fragment *more = realloc(frags, ncap * sizeof *more);
			if (!more) {
				json_object_put(obj);
				rc = tc_fail_nomem();
				break;
			}
			frags = more;
			cap = ncap;
		}
		frags[n++] = (ctf2_fragment){ obj, b };
	}
	json_tokener_free(tok);
	if (rc < 0) {
		ctf2_fragments_free(frags, n);
		return rc;
	}
	*out = frags;
	*count = n;
	return 0;
}

void ctf2_fragments_free(ctf2_fragment *frags, size_t count)
{
	for (size_t i = 0; i < count; i++)
		json_object_put(frags[i].value);
	free(frags);
}
