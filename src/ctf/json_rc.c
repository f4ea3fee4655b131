/* SPDX-License-Identifier: MIT */
/*
 * json_rc.c - the CTF 2 release-candidate 7.0 dialect
 * (doc/formats/ctf.md §4.6), which Trace Compass's test traces and older
 * LTTng development builds write and babeltrace2 2.1.2 refuses, rewritten
 * in place as final CTF 2 before json_meta.c reads it:
 *
 *   user-attributes                     -> attributes
 *   *-enumeration (with mappings)       -> the integer type of that kind
 *   ["scope", "a", "b"] locations       -> {"origin": "scope", "path": ["a", "b"]}
 *   clock class without id              -> id = its name
 *   default-clock-class-name            -> default-clock-class-id
 *   uuid: [16 integers] (trace, clock)  -> uid: "xxxxxxxx-xxxx-..."
 *   offset, origin-is-unix-epoch        -> offset-from-origin, origin
 *
 * A trace is taken as written in this dialect only when it uses one of
 * these constructs, so that final CTF 2 stays checked as strictly as
 * babeltrace2 checks it.
 */
#include "ctf/json_meta.h"

#include <stdio.h>
#include <string.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* A construct only the release candidate has, in O or below it. */
static bool has_rc_construct(json_object *o, bool is_fragment)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (has_rc_construct(json_object_array_get_idx(o, i), false))
				return true;
		return false;
	}
	if (!json_object_is_type(o, json_type_object))
		return false;
	json_object *type = NULL;
	const char *t = json_object_object_get_ex(o, "type", &type) && json_object_is_type(type, json_type_string)
	                    ? json_object_get_string(type) : "";
	if (ends_with(t, "-enumeration"))
		return true;
	if (is_fragment && !strcmp(t, "clock-class") &&
	    (!json_object_object_get_ex(o, "id", NULL) || json_object_object_get_ex(o, "offset", NULL) ||
	     json_object_object_get_ex(o, "origin-is-unix-epoch", NULL) || json_object_object_get_ex(o, "uuid", NULL)))
		return true;
	if (is_fragment && !strcmp(t, "trace-class") && json_object_object_get_ex(o, "uuid", NULL))
		return true;
	json_object_object_foreach(o, key, val) {
		if (!strcmp(key, "user-attributes") || !strcmp(key, "default-clock-class-name"))
			return true;
		if (ends_with(key, "-field-location") && json_object_is_type(val, json_type_array))
			return true;
		if (strcmp(key, "attributes") != 0 && strcmp(key, "extensions") != 0 && has_rc_construct(val, false))
			return true;
	}
	return false;
}

bool ctf2_is_rc(ctf2_fragment *frags, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (has_rc_construct(frags[i].value, true))
			return true;
	return false;
}

static int rename_key(json_object *o, const char *from, const char *to)
{
	json_object *v;
	if (!json_object_object_get_ex(o, from, &v))
		return 0;
	if (json_object_object_add(o, to, json_object_get(v)) < 0)
		return tc_fail_nomem();
	json_object_object_del(o, from);
	return 0;
}

/* uuid: [16 integers] -> uid: canonical text. */
static int uuid_to_uid(json_object *o)
{
	json_object *v;
	if (!json_object_object_get_ex(o, "uuid", &v) || !json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != 16)
		return 0;
	uint8_t u[16];
	for (size_t i = 0; i < 16; i++)
		u[i] = (uint8_t)json_object_get_int(json_object_array_get_idx(v, i));
	char text[37];
	tc_uuid_format(u, text);
	json_object *s = json_object_new_string(text);
	if (!s || json_object_object_add(o, "uid", s) < 0)
		return tc_fail_nomem();
	json_object_object_del(o, "uuid");
	return 0;
}

/* ["scope", names...] -> {"origin": "scope", "path": [names...]} */
static json_object *location_object(json_object *arr)
{
	json_object *loc = json_object_new_object(), *path = json_object_new_array();
	if (!loc || !path) {
		json_object_put(loc);
		json_object_put(path);
		return NULL;
	}
	size_t n = json_object_array_length(arr);
	for (size_t i = 1; i < n; i++)
		json_object_array_add(path, json_object_get(json_object_array_get_idx(arr, i)));
	if (n)
		json_object_object_add(loc, "origin", json_object_get(json_object_array_get_idx(arr, 0)));
	json_object_object_add(loc, "path", path);
	return loc;
}

static int normalize(json_object *o, bool is_fragment)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			if (normalize(json_object_array_get_idx(o, i), false) < 0)
				return TC_ENOMEM;
		return 0;
	}
	if (!json_object_is_type(o, json_type_object))
		return 0;
	if (rename_key(o, "user-attributes", "attributes") < 0)
		return TC_ENOMEM;
	json_object *type;
	if (json_object_object_get_ex(o, "type", &type) && json_object_is_type(type, json_type_string)) {
		const char *t = json_object_get_string(type);
		if (ends_with(t, "-enumeration")) {
			char name[64];
			snprintf(name, sizeof name, "%.*s-integer", (int)(strlen(t) - strlen("-enumeration")), t);
			json_object_object_add(o, "type", json_object_new_string(name));
		} else if (is_fragment && !strcmp(t, "clock-class")) {
			json_object *name;
			if (!json_object_object_get_ex(o, "id", NULL) && json_object_object_get_ex(o, "name", &name))
				json_object_object_add(o, "id", json_object_get(name));
			json_object *epoch;
			if (json_object_object_get_ex(o, "origin-is-unix-epoch", &epoch)) {
				if (json_object_get_boolean(epoch))
					json_object_object_add(o, "origin", json_object_new_string("unix-epoch"));
				json_object_object_del(o, "origin-is-unix-epoch");
			}
			if (rename_key(o, "offset", "offset-from-origin") < 0 || uuid_to_uid(o) < 0)
				return TC_ENOMEM;
		} else if (is_fragment && !strcmp(t, "trace-class")) {
			if (uuid_to_uid(o) < 0)
				return TC_ENOMEM;
		} else if (is_fragment && !strcmp(t, "data-stream-class")) {
			if (rename_key(o, "default-clock-class-name", "default-clock-class-id") < 0)
				return TC_ENOMEM;
		}
	}
	/* Keys first: the object changes while its children are rewritten. */
	size_t n = (size_t)json_object_object_length(o), k = 0;
	const char *keys[n ? n : 1];
	json_object_object_foreach(o, key, val) {
		(void)val;
		keys[k++] = key;
	}
	for (size_t i = 0; i < k; i++) {
		json_object *v;
		if (!json_object_object_get_ex(o, keys[i], &v) || !strcmp(keys[i], "attributes") || !strcmp(keys[i], "extensions"))
			continue;
		if (ends_with(keys[i], "-field-location") && json_object_is_type(v, json_type_array)) {
			json_object *loc = location_object(v);
			if (!loc || json_object_object_add(o, keys[i], loc) < 0)
				return tc_fail_nomem();
		} else if (normalize(v, false) < 0) {
			return TC_ENOMEM;
		}
	}
	return 0;
}

int ctf2_normalize_rc(ctf2_fragment *frags, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (normalize(frags[i].value, true) < 0)
			return TC_ENOMEM;
	return 0;
}
