/* SPDX-License-Identifier: MIT */
/*
 * json_meta.c - CTF 2 metadata fragments (CTF2-SPEC-2.0; doc/formats/ctf.md
 * §4) into the trace's
 * classes: the same tc_field_class trees and plans the TSDL front end
 * builds, so that decoding does not know which one wrote them.
 *
 * Validation follows babeltrace2 2.1.2, the reference reader: every object
 * is checked against its property list (an unknown property is an error),
 * fragments must come in order, extensions are refused.  Field locations
 * are resolved as babeltrace2 resolves them (doc/formats/ctf.md §4.4), into
 * the plans' ref_* paths.  Roles replace CTF 1.8's special member names and
 * hide the fields that carry them; names are shown verbatim.  Mapping
 * labels are ordered as babeltrace2 prints them (doc/formats/ctf.md §4.5).
 */
#include "ctf/json_meta.h"
#include "ctf/label_order.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 64

/* A class being built, from the scope root down to the field being built:
 * field locations in the scope being built may only find what precedes. */
typedef struct build_frame {
	tc_field_class *cls;
	const char *child_name;   /* STRUCT: the member being built */
} build_frame;

typedef struct clock_entry {
	const char *id;
	tc_clock *clock;
} clock_entry;

typedef struct alias {
	const char *name;
	json_object *fc;
} alias;

typedef struct jb {
	ctf_build c;
	size_t frag_offset;             /* of the fragment being read */
	alias *aliases;
	size_t alias_count;
	clock_entry *clocks;
	size_t clock_count;
	bool have_trace_class;
	/* location context */
	ctf_scope scope;
	tc_field_class *roots[SCOPE_COUNT];
	build_frame frames[MAX_NESTING];
	size_t depth;
	int alias_depth;
	const tc_clock *scope_clock;    /* the data stream class's default clock */
} jb;

static int jfail(jb *b, const char *fmt, ...) TC_PRINTF(2, 3);
static int jfail(jb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ctf_build_vfail(&b->c, (int64_t)b->frag_offset, 0, fmt, ap);
	va_end(ap);
	return b->c.err;
}

static char *jstrdup(jb *b, const char *s)
{
	char *p = tc_pool_strdup(b->c.pool, s);
	if (!p && !b->c.err)
		b->c.err = TC_ENOMEM;
	return p;
}

/* ---- JSON values ---- */

static json_object *prop(json_object *o, const char *key)
{
	json_object *v = NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* Refuses a property not in ALLOWED (NULL-terminated; "type",
 * "attributes" and "extensions" always are), and non-empty extensions. */
static int check_props(jb *b, json_object *o, const char *what, const char *const *allowed)
{
	json_object_object_foreach(o, key, val) {
		bool ok = !strcmp(key, "type") || !strcmp(key, "attributes") || !strcmp(key, "extensions");
		for (const char *const *a = allowed; !ok && *a; a++)
			ok = !strcmp(key, *a);
		if (!ok)
			return jfail(b, "%s: unknown property \"%s\"", what, key);
		if (!strcmp(key, "extensions")) {
			if (!json_object_is_type(val, json_type_object))
				return jfail(b, "%s: \"extensions\" must be an object", what);
			json_object_object_foreach(val, ext, ext_val) {
				(void)ext_val;
				return jfail(b, "%s: extension \"%s\" is not supported", what, ext);
			}
		}
		if (!strcmp(key, "attributes") && !json_object_is_type(val, json_type_object))
			return jfail(b, "%s: \"attributes\" must be an object", what);
	}
	return 0;
}

/* An unsigned integer property: 1 and *OUT when present, 0 when absent. */
static int get_uint(jb *b, json_object *o, const char *key, const char *what, bool required, uint64_t *out)
{
	json_object *v = prop(o, key);
	if (!v)
		return required ? jfail(b, "%s: missing \"%s\"", what, key) : 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return jfail(b, "%s: \"%s\" must be an unsigned integer", what, key);
	*out = json_object_get_uint64(v);
	return 1;
}

static bool as_int64(json_object *v, int64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return false;
	int64_t s = json_object_get_int64(v);
	if (s == INT64_MAX && json_object_get_uint64(v) > (uint64_t)INT64_MAX)
		return false;
	*out = s;
	return true;
}

static int get_string(jb *b, json_object *o, const char *key, const char *what, bool required, const char **out)
{
	json_object *v = prop(o, key);
	if (!v)
		return required ? jfail(b, "%s: missing \"%s\"", what, key) : 0;
	if (!json_object_is_type(v, json_type_string))
		return jfail(b, "%s: \"%s\" must be a string", what, key);
	if (!(*out = jstrdup(b, json_object_get_string(v))))
		return b->c.err;
	return 1;
}

/* ---- range sets and mappings ---- */

/* An integer range set (CTF2-SPEC-2.0): [[lo, hi], ...], signed or not. */
static int get_ranges(jb *b, json_object *v, const char *what, bool is_signed, tc_enum_label *out)
{
	if (!json_object_is_type(v, json_type_array) || json_object_array_length(v) == 0)
		return jfail(b, "%s: a range set must be a non-empty array", what);
	size_t n = json_object_array_length(v);
	out->ranges = ctf_build_alloc(&b->c, n * sizeof *out->ranges);
	if (!out->ranges)
		return b->c.err;
	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(v, i);
		if (!json_object_is_type(r, json_type_array) || json_object_array_length(r) != 2)
			return jfail(b, "%s: a range must be an array of two integers", what);
		json_object *lo = json_object_array_get_idx(r, 0), *hi = json_object_array_get_idx(r, 1);
		if (is_signed) {
			int64_t l, h;
			if (!as_int64(lo, &l) || !as_int64(hi, &h))
				return jfail(b, "%s: a range of a signed integer must hold signed 64-bit integers", what);
			if (l > h)
				return jfail(b, "%s: range [%" PRId64 ", %" PRId64 "] has its lower bound above its upper bound", what, l, h);
			out->ranges[i] = (tc_enum_range){ (uint64_t)l, (uint64_t)h };
		} else {
			if (!json_object_is_type(lo, json_type_int) || !json_object_is_type(hi, json_type_int) ||
			    json_object_get_int64(lo) < 0 || json_object_get_int64(hi) < 0)
				return jfail(b, "%s: a range of an unsigned integer must hold unsigned integers", what);
			uint64_t l = json_object_get_uint64(lo), h = json_object_get_uint64(hi);
			if (l > h)
				return jfail(b, "%s: range [%" PRIu64 ", %" PRIu64 "] has its lower bound above its upper bound", what, l, h);
			out->ranges[i] = (tc_enum_range){ l, h };
		}
	}
	out->range_count = n;
	return 0;
}

/* "mappings" (or a bit map's "flags"): FC's labels, in document order. */
static int get_mappings(jb *b, json_object *v, const char *what, bool is_signed, tc_field_class *fc)
{
	if (!json_object_is_type(v, json_type_object))
		return jfail(b, "%s: mappings must be an object", what);
	size_t n = (size_t)json_object_object_length(v), i = 0;
	tc_enum_label *labels = ctf_build_alloc(&b->c, (n ? n : 1) * sizeof *labels);
	if (!labels)
		return b->c.err;
	json_object_object_foreach(v, key, ranges) {
		if (!(labels[i].label = jstrdup(b, key)) || get_ranges(b, ranges, what, is_signed, &labels[i]) < 0)
			return b->c.err;
		i++;
	}
	fc->labels = labels;
	fc->label_count = n;
	return 0;
}

/* Each mapping label's print_rank: babeltrace2 2.1 reads the JSON object
 * into one map, then fills the class's map from it (§4.5). */
static int rank_mappings(jb *b, tc_field_class *fc)
{
	int rc = ctf_rank_labels(fc, 2);
	if (rc < 0)
		b->c.err = rc;
	return rc;
}

/* ---- field locations ---- */

/* Follows NAMES from the root of SCOPE as babeltrace2 does
 * (doc/formats/ctf.md §4.4):
 * arrays are crossed (the element being decoded), a variant or optional
 * by its selected field; in the scope being built only what precedes the
 * dependent field counts.  Appends the steps to STEPS; NULL when nothing
 * is found. */
static tc_field_class *locate(jb *b, ctf_scope scope, const char *const *names, size_t n, uint16_t *steps, size_t *nsteps)
{
	bool on_chain = scope == b->scope;
	size_t lvl = 0;
	tc_field_class *cur = on_chain ? (b->depth ? b->frames[0].cls : NULL) : b->roots[scope];
	*nsteps = 0;
	for (size_t k = 0; cur; k++) {
		for (;;) {
			bool array = (cur->kind == TC_FIELD_ARRAY || cur->kind == TC_FIELD_SEQUENCE) &&
			             !(cur->flags & TC_FIELD_TEXT);
			bool through = cur->kind == TC_FIELD_OPTIONAL || (cur->kind == TC_FIELD_VARIANT && k < n);
			if (!array && !through)
				break;
			if (*nsteps >= MAX_NESTING * 2)
				return NULL;
			steps[(*nsteps)++] = array ? PATH_ELEMENT : PATH_SELECTED;
			if (on_chain) {
				if (++lvl >= b->depth)
					return NULL;
				cur = b->frames[lvl].cls;
			} else if (cur->kind == TC_FIELD_VARIANT) {
				/* a finished variant: every option must have the
				 * next member at the same place */
				return NULL;
			} else {
				cur = cur->element;
			}
		}
		if (k == n)
			break;
		if (cur->kind != TC_FIELD_STRUCT || *nsteps >= MAX_NESTING * 2)
			return NULL;
		size_t i = 0;
		while (i < cur->member_count && strcmp(cur->members[i].name, names[k]) != 0)
			i++;
		if (i < cur->member_count) {
			steps[(*nsteps)++] = (uint16_t)i;
			cur = cur->members[i].cls;
			on_chain = false;
		} else if (on_chain && b->frames[lvl].child_name && !strcmp(b->frames[lvl].child_name, names[k]) &&
		           lvl + 1 < b->depth) {
			steps[(*nsteps)++] = (uint16_t)cur->member_count;
			cur = b->frames[++lvl].cls;
		} else {
			return NULL;
		}
	}
	/* A location may end on a variant all of whose options are integers
	 * of one kind: its value is the selected option's. */
	if (cur && cur->kind == TC_FIELD_VARIANT) {
		for (size_t i = 0; i < cur->member_count; i++) {
			const tc_field_class *o = cur->members[i].cls;
			if ((o->kind != TC_FIELD_INT && o->kind != TC_FIELD_ENUM) ||
			    o->is_signed != cur->members[0].cls->is_signed)
				return NULL;
		}
		if (!cur->member_count || *nsteps >= MAX_NESTING * 2)
			return NULL;
		steps[(*nsteps)++] = PATH_SELECTED;
		cur = cur->members[0].cls;
	}
	return cur;
}

static const char *const scope_names[SCOPE_COUNT] = {
	"packet-header", "packet-context", "event-record-header",
	"event-record-common-context", "event-record-specific-context", "event-record-payload",
};

static const char *const tsdl_scope_prefix[SCOPE_COUNT] = {
	"trace.packet.header", "stream.packet.context", "stream.event.header",
	"stream.event.context", "event.context", "event.fields",
};

/* Resolves the location LOC of dependent FC (a length or a selector) into
 * FC's plan, and returns the key field's class. */
static tc_field_class *resolve_location(jb *b, tc_field_class *fc, json_object *loc, const char *what)
{
	json_object *path = json_object_is_type(loc, json_type_object) ? prop(loc, "path") : NULL;
	if (!path)
		return jfail(b, "%s: a field location must be an object with a \"path\"", what), NULL;
	if (check_props(b, loc, what, (const char *const[]){ "origin", "path", NULL }) < 0)
		return NULL;
	size_t n = json_object_is_type(path, json_type_array) ? json_object_array_length(path) : 0;
	if (n == 0 || n > MAX_NESTING || json_object_is_type(json_object_array_get_idx(path, n - 1), json_type_null))
		return jfail(b, "%s: a field location's path must be a non-empty array not ending with null", what), NULL;
	const char *names[2 * MAX_NESTING];
	size_t count = 0;
	ctf_scope scope = b->scope;
	json_object *origin = prop(loc, "origin");
	if (origin) {
		const char *o = json_object_is_type(origin, json_type_string) ? json_object_get_string(origin) : "";
		int s = 0;
		while (s < SCOPE_COUNT && strcmp(scope_names[s], o) != 0)
			s++;
		if (s == SCOPE_COUNT)
			return jfail(b, "%s: unknown field location origin \"%s\"", what, o), NULL;
		if ((ctf_scope)s > b->scope)
			return jfail(b, "%s: field location origin \"%s\" is decoded after the field", what, o), NULL;
		scope = (ctf_scope)s;
		for (size_t i = 0; i < n; i++) {
			json_object *item = json_object_array_get_idx(path, i);
			if (!json_object_is_type(item, json_type_string))
				return jfail(b, "%s: an absolute field location's path holds member names only", what), NULL;
			names[count++] = json_object_get_string(item);
		}
	} else {
		/* babeltrace2's simplification: a null removes the item before
		 * it, even another null (so two leading nulls cancel out). */
		json_object *list[MAX_NESTING];
		size_t len = 0, up = 0;
		for (size_t i = 0; i < n; i++) {
			json_object *item = json_object_array_get_idx(path, i);
			bool is_null = json_object_is_type(item, json_type_null);
			if (!is_null && !json_object_is_type(item, json_type_string))
				return jfail(b, "%s: a field location's path holds member names and nulls only", what), NULL;
			if (len == 0 || !is_null)
				list[len++] = item;
			else
				len--;
		}
		while (up < len && json_object_is_type(list[up], json_type_null))
			up++;
		/* the structure member names from the scope root to the
		 * dependent field, less the dependent and one per parent step */
		for (size_t f = 0; f < b->depth; f++)
			if (b->frames[f].cls->kind == TC_FIELD_STRUCT && b->frames[f].child_name)
				names[count++] = b->frames[f].child_name;
		if (count < 1 + up)
			return jfail(b, "%s: field location has too many \"parent\" path items", what), NULL;
		count -= 1 + up;
		for (size_t i = up; i < len; i++)
			names[count++] = json_object_get_string(list[i]);
	}
	uint16_t steps[MAX_NESTING * 2];
	size_t nsteps = 0;
	tc_field_class *key = locate(b, scope, names, count, steps, &nsteps);
	if (!key)
		return jfail(b, "%s: field location doesn't locate anything before the field", what), NULL;
	ctf_plan *pl = plan_of(fc);
	pl->ref_scope = scope;
	pl->ref_cls = key;
	pl->ref_len = nsteps;
	pl->ref_path = ctf_build_alloc(&b->c, (nsteps ? nsteps : 1) * sizeof *pl->ref_path);
	if (!pl->ref_path)
		return NULL;
	memcpy(pl->ref_path, steps, nsteps * sizeof *steps);
	plan_of(key)->referenced = true;
	/* The key's TSDL path, which a CTF 1.8 writer can use as is. */
	tc_buf ref = { 0 };
	int rc = tc_buf_printf(&ref, "%s", tsdl_scope_prefix[scope]);
	for (size_t i = 0; i < count && rc == 0; i++)
		rc = tc_buf_printf(&ref, ".%s", names[i]);
	char *text = rc == 0 ? jstrdup(b, ref.data) : NULL;
	tc_buf_free(&ref);
	if (!text)
		return b->c.err ? NULL : (b->c.err = TC_ENOMEM, NULL);
	if (fc->kind == TC_FIELD_VARIANT || fc->kind == TC_FIELD_OPTIONAL)
		fc->tag_ref = text;
	else
		fc->length_ref = text;
	return key;
}

static bool is_unsigned_int(const tc_field_class *fc)
{
	return (fc->kind == TC_FIELD_INT || fc->kind == TC_FIELD_ENUM) && !fc->is_signed;
}

/* ---- field classes ---- */

/* FC (a dynamic-length string, BLOB or array) with the unsigned integer
 * its "length-field-location" finds; NULL after an error. */
static tc_field_class *dynamic_length(jb *b, json_object *j, tc_field_class *fc, const char *what)
{
	json_object *loc = prop(j, "length-field-location");
	if (!loc)
		return jfail(b, "%s: missing \"length-field-location\"", what), NULL;
	tc_field_class *key = resolve_location(b, fc, loc, what);
	if (key && !is_unsigned_int(key))
		return jfail(b, "%s: its length field is not an unsigned integer", what), NULL;
	return key ? fc : NULL;
}

static tc_field_class *build_fc(jb *b, json_object *j, const char *what);

static const struct {
	const char *name;
	tc_field_role role;
	ctf_scope scope;
} role_names[] = {
	{ "packet-magic-number", TC_ROLE_MAGIC, SCOPE_PACKET_HEADER },
	{ "metadata-stream-uuid", TC_ROLE_UUID, SCOPE_PACKET_HEADER },
	{ "data-stream-class-id", TC_ROLE_STREAM_ID, SCOPE_PACKET_HEADER },
	{ "data-stream-id", TC_ROLE_STREAM_INSTANCE_ID, SCOPE_PACKET_HEADER },
	{ "packet-total-length", TC_ROLE_PACKET_SIZE, SCOPE_PACKET_CONTEXT },
	{ "packet-content-length", TC_ROLE_CONTENT_SIZE, SCOPE_PACKET_CONTEXT },
	{ "default-clock-timestamp", TC_ROLE_TS_BEGIN, SCOPE_PACKET_CONTEXT },
	{ "default-clock-timestamp", TC_ROLE_TIMESTAMP, SCOPE_EVENT_HEADER },
	{ "packet-end-default-clock-timestamp", TC_ROLE_TS_END, SCOPE_PACKET_CONTEXT },
	{ "discarded-event-record-counter-snapshot", TC_ROLE_EVENTS_DISCARDED, SCOPE_PACKET_CONTEXT },
	{ "packet-sequence-number", TC_ROLE_PACKET_SEQ_NUM, SCOPE_PACKET_CONTEXT },
	{ "event-record-class-id", TC_ROLE_EVENT_ID, SCOPE_EVENT_HEADER },
};

/* "roles": at most one here, allowed in the scope being built. */
static int get_roles(jb *b, json_object *j, const char *what, tc_field_class *fc)
{
	json_object *roles = prop(j, "roles");
	if (!roles)
		return 0;
	if (!json_object_is_type(roles, json_type_array))
		return jfail(b, "%s: \"roles\" must be an array of strings", what);
	size_t n = json_object_array_length(roles);
	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(roles, i);
		const char *name = json_object_is_type(r, json_type_string) ? json_object_get_string(r) : NULL;
		if (!name)
			return jfail(b, "%s: \"roles\" must be an array of strings", what);
		size_t k = 0;
		bool known = false;
		for (; k < sizeof role_names / sizeof role_names[0]; k++) {
			known = known || !strcmp(role_names[k].name, name);
			if (!strcmp(role_names[k].name, name) && role_names[k].scope == b->scope)
				break;
		}
		if (!known)
			return jfail(b, "%s: unknown role \"%s\"", what, name);
		if (k == sizeof role_names / sizeof role_names[0])
			return jfail(b, "%s: role \"%s\" is not allowed in the %s", what, name, scope_names[b->scope]);
		ctf_plan *pl = plan_of(fc);
		if (pl->role != TC_ROLE_NONE && pl->role != role_names[k].role)
			return jfail(b, "%s: several roles on one field are not supported", what);
		pl->role = role_names[k].role;
		if (fc->kind == TC_FIELD_BLOB ? pl->role != TC_ROLE_UUID || fc->length != 16 : pl->role == TC_ROLE_UUID)
			return jfail(b, "%s: role \"%s\" needs %s", what, name,
			             pl->role == TC_ROLE_UUID ? "a static-length BLOB of 16 bytes" : "an unsigned integer");
		if (pl->role == TC_ROLE_TIMESTAMP || pl->role == TC_ROLE_TS_BEGIN || pl->role == TC_ROLE_TS_END) {
			if (!b->scope_clock)
				return jfail(b, "%s: role \"%s\" needs a data stream class with a default clock class", what, name);
			fc->clock = b->scope_clock;
		}
		fc->flags |= TC_FIELD_HIDDEN;
	}
	return 0;
}

/* An integer with labelled ranges; "mappings": {} leaves a plain integer,
 * as babeltrace2 prints it. */
static bool has_mappings(json_object *j)
{
	json_object *m = prop(j, "mappings");
	return m && (!json_object_is_type(m, json_type_object) || json_object_object_length(m) > 0);
}

static int get_base(jb *b, json_object *j, const char *what, tc_field_class *fc)
{
	uint64_t base = 10;
	if (get_uint(b, j, "preferred-display-base", what, false, &base) < 0)
		return b->c.err;
	if (base != 2 && base != 8 && base != 10 && base != 16)
		return jfail(b, "%s: preferred display base %" PRIu64 " is not 2, 8, 10 or 16", what, base);
	fc->base = (unsigned)base;
	return 0;
}

static int get_alignment(jb *b, json_object *j, const char *key, const char *what, unsigned *out)
{
	uint64_t a = 1;
	if (get_uint(b, j, key, what, false, &a) < 0)
		return b->c.err;
	if (!ctf_alignment_ok(a))
		return jfail(b, "%s: \"%s\" %" PRIu64 " is not a power of two up to 2^20", what, key, a);
	*out = (unsigned)a;
	return 0;
}

static tc_field_class *fixed_length(jb *b, json_object *j, const char *type, const char *what)
{
	static const char *const props[] = { "length", "byte-order", "bit-order", "alignment", "preferred-display-base",
		                             "mappings", "roles", "flags", NULL };
	bool is_uint = !strcmp(type, "fixed-length-unsigned-integer"), is_sint = !strcmp(type, "fixed-length-signed-integer");
	bool is_map = !strcmp(type, "fixed-length-bit-map"), is_bool = !strcmp(type, "fixed-length-boolean");
	bool is_float = !strcmp(type, "fixed-length-floating-point-number");
	if (check_props(b, j, what, props) < 0)
		return NULL;
	if ((prop(j, "preferred-display-base") || prop(j, "mappings")) && !is_uint && !is_sint)
		return jfail(b, "%s: unknown property \"%s\"", what, prop(j, "mappings") ? "mappings" : "preferred-display-base"), NULL;
	if (prop(j, "roles") && !is_uint)
		return jfail(b, "%s: unknown property \"roles\"", what), NULL;
	if (prop(j, "flags") && !is_map)
		return jfail(b, "%s: unknown property \"flags\"", what), NULL;
	uint64_t length = 0;
	if (get_uint(b, j, "length", what, true, &length) < 0)
		return NULL;
	if (length < 1 || length > 64)
		return jfail(b, "%s: length %" PRIu64 " is outside 1 to 64 bits", what, length), NULL;
	if (is_float && length != 32 && length != 64)
		return jfail(b, "%s: a floating point number of %" PRIu64 " bits (32 or 64 are read)", what, length), NULL;
	const char *bo = NULL, *bito = NULL;
	if (get_string(b, j, "byte-order", what, true, &bo) < 0 || get_string(b, j, "bit-order", what, false, &bito) < 0)
		return NULL;
	bool le = !strcmp(bo, "little-endian");
	if (!le && strcmp(bo, "big-endian") != 0)
		return jfail(b, "%s: byte order \"%s\" (little-endian or big-endian)", what, bo), NULL;
	if (bito && strcmp(bito, "first-to-last") != 0 && strcmp(bito, "last-to-first") != 0)
		return jfail(b, "%s: bit order \"%s\" (first-to-last or last-to-first)", what, bito), NULL;
	tc_field_kind kind = is_float ? TC_FIELD_FLOAT : is_bool ? TC_FIELD_BOOL
	                   : (is_uint || is_sint) ? (has_mappings(j) ? TC_FIELD_ENUM : TC_FIELD_INT) : TC_FIELD_BIT_ARRAY;
	tc_field_class *fc = ctf_build_class(&b->c, kind);
	if (!fc || get_alignment(b, j, "alignment", what, &fc->align) < 0)
		return NULL;
	fc->size = (unsigned)length;
	fc->is_signed = is_sint;
	fc->byte_order = le ? TC_LITTLE_ENDIAN : TC_BIG_ENDIAN;
	fc->base = is_map || !strcmp(type, "fixed-length-bit-array") ? 16 : 10;
	if (bito && strcmp(bito, le ? "first-to-last" : "last-to-first") != 0)
		fc->flags |= TC_FIELD_BIT_REVERSED;
	if ((is_uint || is_sint) && get_base(b, j, what, fc) < 0)
		return NULL;
	if (has_mappings(j) && (get_mappings(b, prop(j, "mappings"), what, is_sint, fc) < 0 || rank_mappings(b, fc) < 0))
		return NULL;
	if (is_map) {
		json_object *flags = prop(j, "flags");
		if (!flags || !json_object_is_type(flags, json_type_object) || json_object_object_length(flags) == 0)
			return jfail(b, "%s: a bit map needs \"flags\" with at least one flag", what), NULL;
		if (get_mappings(b, flags, what, false, fc) < 0)
			return NULL;
		for (size_t l = 0; l < fc->label_count; l++)
			for (size_t r = 0; r < fc->labels[l].range_count; r++)
				if (fc->labels[l].ranges[r].hi >= length)
					return jfail(b, "%s: flag \"%s\" names bit %" PRIu64 " of a %" PRIu64 "-bit map", what,
					             fc->labels[l].label, fc->labels[l].ranges[r].hi, length), NULL;
	}
	if (is_uint && get_roles(b, j, what, fc) < 0)
		return NULL;
	return fc;
}

static tc_field_class *variable_length(jb *b, json_object *j, bool is_signed, const char *what)
{
	static const char *const props[] = { "preferred-display-base", "mappings", "roles", NULL };
	if (check_props(b, j, what, props) < 0)
		return NULL;
	if (is_signed && prop(j, "roles"))
		return jfail(b, "%s: unknown property \"roles\"", what), NULL;
	tc_field_class *fc = ctf_build_class(&b->c, has_mappings(j) ? TC_FIELD_ENUM : TC_FIELD_INT);
	if (!fc)
		return NULL;
	fc->flags |= TC_FIELD_VARLEN;
	fc->size = 64;
	fc->align = 8;
	fc->is_signed = is_signed;
	if (get_base(b, j, what, fc) < 0)
		return NULL;
	if (has_mappings(j) && (get_mappings(b, prop(j, "mappings"), what, is_signed, fc) < 0 || rank_mappings(b, fc) < 0))
		return NULL;
	if (!is_signed && get_roles(b, j, what, fc) < 0)
		return NULL;
	return fc;
}

static int get_encoding(jb *b, json_object *j, const char *what, tc_string_encoding *out)
{
	static const char *const names[] = { "utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be" };
	const char *e = NULL;
	if (get_string(b, j, "encoding", what, false, &e) < 0)
		return b->c.err;
	*out = TC_UTF8;
	if (!e)
		return 0;
	for (size_t i = 0; i < 5; i++)
		if (!strcmp(names[i], e)) {
			*out = (tc_string_encoding)i;
			return 0;
		}
	return jfail(b, "%s: unknown string encoding \"%s\"", what, e);
}

/* The byte class static and dynamic strings count in. */
static tc_field_class *byte_class(jb *b)
{
	tc_field_class *u8 = ctf_build_class(&b->c, TC_FIELD_INT);
	if (!u8)
		return NULL;
	u8->size = 8;
	u8->align = 8;
	u8->base = 10;
	u8->has_encoding = true;
	return ctf_layout_update(&b->c, u8) < 0 ? NULL : u8;
}

static tc_field_class *string_fc(jb *b, json_object *j, const char *type, const char *what)
{
	bool is_static = !strcmp(type, "static-length-string"), is_dynamic = !strcmp(type, "dynamic-length-string");
	static const char *const nt_props[] = { "encoding", NULL }, *const static_props[] = { "length", "encoding", NULL },
	                         *const dyn_props[] = { "length-field-location", "encoding", NULL };
	if (check_props(b, j, what, is_static ? static_props : is_dynamic ? dyn_props : nt_props) < 0)
		return NULL;
	tc_field_class *fc = ctf_build_class(&b->c, is_static ? TC_FIELD_ARRAY : is_dynamic ? TC_FIELD_SEQUENCE : TC_FIELD_STRING);
	if (!fc || get_encoding(b, j, what, &fc->encoding) < 0)
		return NULL;
	fc->align = 8;
	if (fc->kind == TC_FIELD_STRING)
		return fc;
	fc->flags |= TC_FIELD_TEXT;
	if (!(fc->element = byte_class(b)))
		return NULL;
	if (is_static)
		return get_uint(b, j, "length", what, true, &fc->length) < 0 ? NULL : fc;
	return dynamic_length(b, j, fc, what);
}

static tc_field_class *blob_fc(jb *b, json_object *j, bool is_static, const char *what)
{
	static const char *const static_props[] = { "length", "media-type", "roles", NULL },
	                         *const dyn_props[] = { "length-field-location", "media-type", NULL };
	if (check_props(b, j, what, is_static ? static_props : dyn_props) < 0)
		return NULL;
	tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_BLOB);
	if (!fc)
		return NULL;
	fc->align = 8;
	const char *media = NULL;
	if (get_string(b, j, "media-type", what, false, &media) < 0)
		return NULL;
	fc->media_type = (char *)media;
	if (is_static) {
		if (get_uint(b, j, "length", what, true, &fc->length) < 0)
			return NULL;
		return get_roles(b, j, what, fc) < 0 ? NULL : fc;
	}
	return dynamic_length(b, j, fc, what);
}

static int push_frame(jb *b, tc_field_class *fc)
{
	if (b->depth >= MAX_NESTING)
		return jfail(b, "field classes nested more than %d levels", MAX_NESTING);
	b->frames[b->depth++] = (build_frame){ fc, NULL };
	return 0;
}

static tc_field_class *structure_fc(jb *b, json_object *j, const char *what)
{
	static const char *const props[] = { "member-classes", "minimum-alignment", NULL };
	if (check_props(b, j, what, props) < 0)
		return NULL;
	tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_STRUCT);
	if (!fc || get_alignment(b, j, "minimum-alignment", what, &fc->align) < 0)
		return NULL;
	json_object *members = prop(j, "member-classes");
	if (members && !json_object_is_type(members, json_type_array))
		return jfail(b, "%s: \"member-classes\" must be an array", what), NULL;
	size_t n = members ? json_object_array_length(members) : 0;
	if (n > 65000)
		return jfail(b, "%s: too many members", what), NULL;
	if (n && !(fc->members = ctf_build_alloc(&b->c, n * sizeof *fc->members)))
		return NULL;
	if (push_frame(b, fc) < 0)
		return NULL;
	build_frame *frame = &b->frames[b->depth - 1];
	for (size_t i = 0; i < n; i++) {
		json_object *m = json_object_array_get_idx(members, i);
		const char *name = NULL;
		if (!json_object_is_type(m, json_type_object))
			return jfail(b, "%s: a member class must be an object", what), NULL;
		if (check_props(b, m, "member class", (const char *const[]){ "name", "field-class", NULL }) < 0 ||
		    get_string(b, m, "name", "member class", true, &name) < 0)
			return NULL;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(fc->members[k].name, name))
				return jfail(b, "%s: two members named \"%s\"", what, name), NULL;
		json_object *mfc = prop(m, "field-class");
		if (!mfc)
			return jfail(b, "%s: member \"%s\" has no \"field-class\"", what, name), NULL;
		frame->child_name = name;
		tc_field_class *cls = build_fc(b, mfc, name);
		if (!cls)
			return NULL;
		fc->members[i] = (tc_member){ (char *)name, name, cls };
		fc->member_count = i + 1;
	}
	b->depth--;
	return fc;
}

static tc_field_class *array_fc(jb *b, json_object *j, bool is_static, const char *what)
{
	static const char *const static_props[] = { "length", "element-field-class", "minimum-alignment", NULL },
	                         *const dyn_props[] = { "length-field-location", "element-field-class", "minimum-alignment", NULL };
	if (check_props(b, j, what, is_static ? static_props : dyn_props) < 0)
		return NULL;
	tc_field_class *fc = ctf_build_class(&b->c, is_static ? TC_FIELD_ARRAY : TC_FIELD_SEQUENCE);
	if (!fc || get_alignment(b, j, "minimum-alignment", what, &fc->align) < 0)
		return NULL;
	if (is_static) {
		if (get_uint(b, j, "length", what, true, &fc->length) < 0)
			return NULL;
	} else {
		if (!dynamic_length(b, j, fc, what))
			return NULL;
	}
	json_object *el = prop(j, "element-field-class");
	if (!el)
		return jfail(b, "%s: missing \"element-field-class\"", what), NULL;
	if (push_frame(b, fc) < 0 || !(fc->element = build_fc(b, el, what)))
		return NULL;
	b->depth--;
	return fc;
}

/* "selector-field-ranges" of an option or optional, against its selector. */
static int selector_ranges(jb *b, json_object *j, const tc_field_class *key, const char *what, tc_enum_label *out)
{
	json_object *r = prop(j, "selector-field-ranges");
	if (!r)
		return jfail(b, "%s: missing \"selector-field-ranges\"", what);
	return get_ranges(b, r, what, key->is_signed, out);
}

static tc_field_class *optional_fc(jb *b, json_object *j, const char *what)
{
	static const char *const props[] = { "field-class", "selector-field-location", "selector-field-ranges", NULL };
	if (check_props(b, j, what, props) < 0)
		return NULL;
	tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_OPTIONAL);
	json_object *loc = prop(j, "selector-field-location"), *inner = prop(j, "field-class");
	if (!fc)
		return NULL;
	if (!loc || !inner)
		return jfail(b, "%s: missing \"%s\"", what, loc ? "field-class" : "selector-field-location"), NULL;
	tc_field_class *key = resolve_location(b, fc, loc, what);
	if (!key)
		return NULL;
	if (key->kind == TC_FIELD_BOOL) {
		if (prop(j, "selector-field-ranges"))
			return jfail(b, "%s: a boolean selector takes no \"selector-field-ranges\"", what), NULL;
	} else if (key->kind == TC_FIELD_INT || key->kind == TC_FIELD_ENUM) {
		if (!(fc->labels = ctf_build_alloc(&b->c, sizeof *fc->labels)) ||
		    selector_ranges(b, j, key, what, &fc->labels[0]) < 0)
			return NULL;
		fc->labels[0].label = "";
		fc->label_count = 1;
	} else {
		return jfail(b, "%s: the selector of an optional must be a boolean or an integer", what), NULL;
	}
	if (push_frame(b, fc) < 0 || !(fc->element = build_fc(b, inner, what)))
		return NULL;
	b->depth--;
	return fc;
}

static tc_field_class *variant_fc(jb *b, json_object *j, const char *what)
{
	static const char *const props[] = { "selector-field-location", "options", NULL };
	if (check_props(b, j, what, props) < 0)
		return NULL;
	tc_field_class *fc = ctf_build_class(&b->c, TC_FIELD_VARIANT);
	json_object *loc = prop(j, "selector-field-location"), *options = prop(j, "options");
	if (!fc)
		return NULL;
	if (!loc)
		return jfail(b, "%s: missing \"selector-field-location\"", what), NULL;
	size_t n = options && json_object_is_type(options, json_type_array) ? json_object_array_length(options) : 0;
	if (n == 0 || n > 65000)
		return jfail(b, "%s: \"options\" must be a non-empty array", what), NULL;
	tc_field_class *key = resolve_location(b, fc, loc, what);
	if (!key)
		return NULL;
	if (key->kind != TC_FIELD_INT && key->kind != TC_FIELD_ENUM)
		return jfail(b, "%s: the selector of a variant must be an integer", what), NULL;
	fc->members = ctf_build_alloc(&b->c, n * sizeof *fc->members);
	fc->labels = ctf_build_alloc(&b->c, n * sizeof *fc->labels);
	if (!fc->members || !fc->labels || push_frame(b, fc) < 0)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(options, i);
		const char *name = NULL;
		if (!json_object_is_type(o, json_type_object))
			return jfail(b, "%s: a variant option must be an object", what), NULL;
		if (check_props(b, o, "variant option", (const char *const[]){ "name", "field-class", "selector-field-ranges", NULL }) < 0 ||
		    get_string(b, o, "name", "variant option", false, &name) < 0 ||
		    selector_ranges(b, o, key, "variant option", &fc->labels[i]) < 0)
			return NULL;
		name = name ? name : "";
		for (size_t k = 0; *name && k < i; k++)
			if (!strcmp(fc->members[k].name, name))
				return jfail(b, "%s: two options named \"%s\"", what, name), NULL;
		/* Overlapping ranges would make the option ambiguous. */
		for (size_t k = 0; k < i; k++)
			for (size_t r = 0; r < fc->labels[i].range_count; r++)
				for (size_t s = 0; s < fc->labels[k].range_count; s++) {
					const tc_enum_range *x = &fc->labels[i].ranges[r], *y = &fc->labels[k].ranges[s];
					bool overlap = key->is_signed ? (int64_t)x->lo <= (int64_t)y->hi && (int64_t)y->lo <= (int64_t)x->hi
					                              : x->lo <= y->hi && y->lo <= x->hi;
					if (overlap)
						return jfail(b, "%s: the ranges of two options overlap", what), NULL;
				}
		json_object *ofc = prop(o, "field-class");
		if (!ofc)
			return jfail(b, "%s: an option has no \"field-class\"", what), NULL;
		fc->labels[i].label = (char *)name;
		tc_field_class *cls = build_fc(b, ofc, what);
		if (!cls)
			return NULL;
		fc->members[i] = (tc_member){ (char *)name, name, cls };
		fc->member_count = i + 1;
	}
	b->depth--;
	fc->label_count = n;
	return fc;
}

static tc_field_class *build_fc(jb *b, json_object *j, const char *what)
{
	if (json_object_is_type(j, json_type_string)) {
		const char *name = json_object_get_string(j);
		for (size_t i = b->alias_count; i-- > 0;)
			if (!strcmp(b->aliases[i].name, name)) {
				if (b->alias_depth >= MAX_NESTING)
					return jfail(b, "field class alias \"%s\" refers to itself", name), NULL;
				b->alias_depth++;
				tc_field_class *fc = build_fc(b, b->aliases[i].fc, what);
				b->alias_depth--;
				return fc;
			}
		return jfail(b, "%s: unknown field class alias \"%s\"", what, name), NULL;
	}
	if (!json_object_is_type(j, json_type_object))
		return jfail(b, "%s: a field class must be an object or an alias name", what), NULL;
	const char *type = NULL;
	json_object *t = prop(j, "type");
	if (!t || !json_object_is_type(t, json_type_string))
		return jfail(b, "%s: a field class needs a \"type\" string", what), NULL;
	type = json_object_get_string(t);
	tc_field_class *fc;
	if (!strncmp(type, "fixed-length-", 13))
		fc = strcmp(type, "fixed-length-bit-array") && strcmp(type, "fixed-length-bit-map") &&
		             strcmp(type, "fixed-length-boolean") && strcmp(type, "fixed-length-unsigned-integer") &&
		             strcmp(type, "fixed-length-signed-integer") && strcmp(type, "fixed-length-floating-point-number")
		         ? jfail(b, "%s: unknown field class type \"%s\"", what, type), NULL
		         : fixed_length(b, j, type, what);
	else if (!strcmp(type, "variable-length-unsigned-integer") || !strcmp(type, "variable-length-signed-integer"))
		fc = variable_length(b, j, type[16] == 's', what);
	else if (!strcmp(type, "null-terminated-string") || !strcmp(type, "static-length-string") ||
	         !strcmp(type, "dynamic-length-string"))
		fc = string_fc(b, j, type, what);
	else if (!strcmp(type, "static-length-blob") || !strcmp(type, "dynamic-length-blob"))
		fc = blob_fc(b, j, type[1] == 't', what);
	else if (!strcmp(type, "structure"))
		fc = structure_fc(b, j, what);
	else if (!strcmp(type, "static-length-array") || !strcmp(type, "dynamic-length-array"))
		fc = array_fc(b, j, type[1] == 't', what);
	else if (!strcmp(type, "optional"))
		fc = optional_fc(b, j, what);
	else if (!strcmp(type, "variant"))
		fc = variant_fc(b, j, what);
	else
		fc = (jfail(b, "%s: unknown field class type \"%s\"", what, type), NULL);
	if (!fc)
		return NULL;
	plan_of(fc)->src_offset = b->frag_offset;
	return ctf_layout_update(&b->c, fc) < 0 ? NULL : fc;
}

/* A scope's field class: a structure. */
static tc_field_class *build_scope(jb *b, json_object *frag, const char *key, ctf_scope scope)
{
	json_object *j = prop(frag, key);
	if (!j)
		return NULL;
	b->scope = scope;
	b->depth = 0;
	tc_field_class *fc = build_fc(b, j, key);
	if (fc && fc->kind != TC_FIELD_STRUCT)
		return jfail(b, "\"%s\" must be a structure", key), NULL;
	b->roots[scope] = fc;
	return fc;
}

/* ---- fragments ---- */

static int identity(jb *b, json_object *f, const char *what, char **ns, char **name, char **uid)
{
	const char *a = NULL, *n = NULL, *u = NULL;
	if (get_string(b, f, "namespace", what, false, &a) < 0 || get_string(b, f, "name", what, false, &n) < 0 ||
	    get_string(b, f, "uid", what, false, &u) < 0)
		return b->c.err;
	*ns = (char *)a;
	*name = (char *)n;
	*uid = (char *)u;
	return 0;
}

static int read_preamble(jb *b, json_object *f)
{
	static const char *const props[] = { "version", "uuid", NULL };
	uint64_t version = 0;
	if (check_props(b, f, "preamble", props) < 0 || get_uint(b, f, "version", "preamble", true, &version) < 0)
		return b->c.err;
	if (version != 2)
		return jfail(b, "preamble: version %" PRIu64 " (expected 2)", version);
	json_object *uuid = prop(f, "uuid");
	if (!uuid)
		return 0;
	if (!json_object_is_type(uuid, json_type_array) || json_object_array_length(uuid) != 16)
		return jfail(b, "preamble: \"uuid\" must be an array of 16 integers from 0 to 255");
	for (size_t i = 0; i < 16; i++) {
		json_object *v = json_object_array_get_idx(uuid, i);
		if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 || json_object_get_int64(v) > 255)
			return jfail(b, "preamble: \"uuid\" must be an array of 16 integers from 0 to 255");
		b->c.t->pub.uuid[i] = (uint8_t)json_object_get_int64(v);
	}
	b->c.t->pub.has_uuid = true;
	return 0;
}

/* Every alias name FC uses (in any field class position) is an earlier
 * alias: babeltrace2 checks this where the alias is defined. */
static int check_alias_uses(jb *b, json_object *fc, const char *name, int depth)
{
	if (depth > MAX_NESTING)
		return jfail(b, "field class alias \"%s\" nested too deeply", name);
	if (json_object_is_type(fc, json_type_string)) {
		for (size_t i = 0; i < b->alias_count; i++)
			if (!strcmp(b->aliases[i].name, json_object_get_string(fc)))
				return 0;
		return jfail(b, "field class alias \"%s\" uses \"%s\", which is not an earlier alias", name,
		             json_object_get_string(fc));
	}
	if (!json_object_is_type(fc, json_type_object))
		return 0;
	static const char *const inner[] = { "element-field-class", "field-class" };
	for (size_t k = 0; k < 2; k++) {
		json_object *v = prop(fc, inner[k]);
		if (v && check_alias_uses(b, v, name, depth + 1) < 0)
			return b->c.err;
	}
	static const char *const lists[] = { "member-classes", "options" };
	for (size_t k = 0; k < 2; k++) {
		json_object *list = prop(fc, lists[k]);
		for (size_t i = 0; list && json_object_is_type(list, json_type_array) && i < json_object_array_length(list); i++) {
			json_object *item = json_object_array_get_idx(list, i), *v;
			if (json_object_is_type(item, json_type_object) && (v = prop(item, "field-class")) &&
			    check_alias_uses(b, v, name, depth + 1) < 0)
				return b->c.err;
		}
	}
	return 0;
}

static int read_alias(jb *b, json_object *f)
{
	static const char *const props[] = { "name", "field-class", NULL };
	const char *name = NULL;
	if (check_props(b, f, "field class alias", props) < 0 || get_string(b, f, "name", "field class alias", true, &name) < 0)
		return b->c.err;
	json_object *fc = prop(f, "field-class");
	if (!fc)
		return jfail(b, "field class alias \"%s\": missing \"field-class\"", name);
	for (size_t i = 0; i < b->alias_count; i++)
		if (!strcmp(b->aliases[i].name, name))
			return jfail(b, "field class alias \"%s\" defined twice", name);
	if (check_alias_uses(b, fc, name, 0) < 0)
		return b->c.err;
	alias *more = realloc(b->aliases, (b->alias_count + 1) * sizeof *more);
	if (!more)
		return b->c.err = tc_fail_nomem();
	b->aliases = more;
	b->aliases[b->alias_count++] = (alias){ name, fc };
	return 0;
}

static int read_trace_class(jb *b, json_object *f)
{
	static const char *const props[] = { "namespace", "name", "uid", "environment", "packet-header-field-class", NULL };
	tc_trace *t = &b->c.t->pub;
	if (b->have_trace_class)
		return jfail(b, "duplicate trace class fragment");
	b->have_trace_class = true;
	if (check_props(b, f, "trace class", props) < 0 ||
	    identity(b, f, "trace class", &t->class_ns, &t->class_name, &t->class_uid) < 0)
		return b->c.err;
	json_object *env = prop(f, "environment");
	if (env && !json_object_is_type(env, json_type_object))
		return jfail(b, "trace class: \"environment\" must be an object");
	if (env) {
		json_object_object_foreach(env, key, val) {
			char *k = jstrdup(b, key);
			int64_t num;
			if (!k)
				return b->c.err;
			if (json_object_is_type(val, json_type_string)) {
				if (tc_trace_env_add(t, b->c.pool, k, json_object_get_string(val), 0) < 0)
					return b->c.err = TC_ENOMEM;
			} else if (json_object_is_type(val, json_type_int)) {
				/* babeltrace2 drops unsigned values above INT64_MAX */
				if (as_int64(val, &num) && tc_trace_env_add(t, b->c.pool, k, NULL, num) < 0)
					return b->c.err = TC_ENOMEM;
			} else {
				return jfail(b, "trace class: environment entry \"%s\" must be an integer or a string", key);
			}
		}
	}
	if (prop(f, "packet-header-field-class")) {
		b->scope_clock = NULL;
		if (!(t->packet_header = build_scope(b, f, "packet-header-field-class", SCOPE_PACKET_HEADER)))
			return b->c.err;
		const tc_field_class *h = t->packet_header;
		for (size_t i = 0; i < h->member_count; i++)
			if (plan_of(h->members[i].cls)->role == TC_ROLE_MAGIC &&
			    (i != 0 || h->members[i].cls->size != 32 || (h->members[i].cls->flags & TC_FIELD_VARLEN)))
				return jfail(b, "trace class: the packet magic number must be the first member, a 32-bit fixed-length integer");
	}
	return 0;
}

static int read_clock_class(jb *b, json_object *f)
{
	static const char *const props[] = { "id", "frequency", "namespace", "name", "uid", "description", "origin",
		                             "offset-from-origin", "precision", "accuracy", NULL };
	tc_clock *c = ctf_build_alloc(&b->c, sizeof *c);
	const char *id = NULL, *description = NULL;
	char *ns = NULL, *name = NULL, *uid = NULL;
	if (!c || check_props(b, f, "clock class", props) < 0 || get_string(b, f, "id", "clock class", true, &id) < 0 ||
	    get_uint(b, f, "frequency", "clock class", true, &c->freq) < 0 ||
	    identity(b, f, "clock class", &ns, &name, &uid) < 0 ||
	    get_string(b, f, "description", "clock class", false, &description) < 0 ||
	    get_uint(b, f, "precision", "clock class", false, &c->precision) < 0 ||
	    get_uint(b, f, "accuracy", "clock class", false, &c->accuracy) < 0)
		return b->c.err;
	if (c->freq == 0)
		return jfail(b, "clock class \"%s\": frequency 0", id);
	for (size_t i = 0; i < b->clock_count; i++)
		if (!strcmp(b->clocks[i].id, id))
			return jfail(b, "clock class \"%s\" defined twice", id);
	c->name = name ? name : (char *)id;
	c->ns = ns;
	c->uid = uid;
	c->description = (char *)description;
	json_object *origin = prop(f, "origin");
	if (origin && json_object_is_type(origin, json_type_string)) {
		if (strcmp(json_object_get_string(origin), "unix-epoch") != 0)
			return jfail(b, "clock class \"%s\": origin \"%s\" (unix-epoch or an object)", id, json_object_get_string(origin));
		c->origin_is_unix_epoch = c->absolute = true;
	} else if (origin) {
		const char *o_ns = NULL, *o_name = NULL, *o_uid = NULL;
		if (!json_object_is_type(origin, json_type_object))
			return jfail(b, "clock class \"%s\": origin must be \"unix-epoch\" or an object", id);
		if (check_props(b, origin, "clock origin", (const char *const[]){ "namespace", "name", "uid", NULL }) < 0 ||
		    get_string(b, origin, "namespace", "clock origin", false, &o_ns) < 0 ||
		    get_string(b, origin, "name", "clock origin", true, &o_name) < 0 ||
		    get_string(b, origin, "uid", "clock origin", true, &o_uid) < 0)
			return b->c.err;
		c->origin_ns = (char *)o_ns;
		c->origin_name = (char *)o_name;
		c->origin_uid = (char *)o_uid;
	}
	json_object *off = prop(f, "offset-from-origin");
	uint64_t cycles = 0;
	if (off) {
		json_object *secs = json_object_is_type(off, json_type_object) ? prop(off, "seconds") : NULL;
		if (!json_object_is_type(off, json_type_object) ||
		    check_props(b, off, "clock offset", (const char *const[]){ "seconds", "cycles", NULL }) < 0)
			return b->c.err ? b->c.err : jfail(b, "clock class \"%s\": \"offset-from-origin\" must be an object", id);
		if (secs && !as_int64(secs, &c->offset_s))
			return jfail(b, "clock class \"%s\": offset seconds must be a signed 64-bit integer", id);
		if (get_uint(b, off, "cycles", "clock offset", false, &cycles) < 0)
			return b->c.err;
		if (cycles >= c->freq)
			return jfail(b, "clock class \"%s\": offset of %" PRIu64 " cycles is not below the frequency", id, cycles);
	}
	ctf_clock_set_offset(c, cycles, b->c.opts);
	clock_entry *more = realloc(b->clocks, (b->clock_count + 1) * sizeof *more);
	if (!more)
		return b->c.err = tc_fail_nomem();
	b->clocks = more;
	b->clocks[b->clock_count++] = (clock_entry){ id, c };
	return tc_ptr_push((void ***)&b->c.t->pub.clocks, &b->c.t->pub.clock_count, c) < 0 ? (b->c.err = TC_ENOMEM) : 0;
}

static int read_data_stream_class(jb *b, json_object *f)
{
	static const char *const props[] = { "id", "namespace", "name", "uid", "default-clock-class-id",
		                             "packet-context-field-class", "event-record-header-field-class",
		                             "event-record-common-context-field-class", NULL };
	ctf_trace *t = b->c.t;
	ctf_stream_class *sc = ctf_build_alloc(&b->c, sizeof *sc);
	const char *clock_id = NULL;
	char *ns, *name, *uid;
	if (!sc || check_props(b, f, "data stream class", props) < 0 ||
	    get_uint(b, f, "id", "data stream class", false, &sc->pub.id) < 0 ||
	    identity(b, f, "data stream class", &ns, &name, &uid) < 0 ||
	    get_string(b, f, "default-clock-class-id", "data stream class", false, &clock_id) < 0)
		return b->c.err;
	if (ctf_stream_class_by_id(t, sc->pub.id))
		return jfail(b, "data stream class %" PRIu64 " defined twice", sc->pub.id);
	b->scope_clock = NULL;
	for (size_t i = 0; clock_id && i < b->clock_count; i++)
		if (!strcmp(b->clocks[i].id, clock_id))
			b->scope_clock = b->clocks[i].clock;
	if (clock_id && !b->scope_clock)
		return jfail(b, "data stream class %" PRIu64 ": no clock class \"%s\" before it", sc->pub.id, clock_id);
	sc->pub.trace = &t->pub;
	sc->has_explicit_id = true;
	b->roots[SCOPE_PACKET_HEADER] = t->pub.packet_header;
	for (int s = SCOPE_PACKET_CONTEXT; s < SCOPE_COUNT; s++)
		b->roots[s] = NULL;
	sc->pub.packet_context = build_scope(b, f, "packet-context-field-class", SCOPE_PACKET_CONTEXT);
	sc->pub.event_header = b->c.err ? NULL : build_scope(b, f, "event-record-header-field-class", SCOPE_EVENT_HEADER);
	sc->pub.event_context = b->c.err ? NULL : build_scope(b, f, "event-record-common-context-field-class", SCOPE_STREAM_EVENT_CONTEXT);
	if (b->c.err)
		return b->c.err;
	/* Without roles left to show, the packet context is absent. */
	if (sc->pub.packet_context) {
		bool visible = false;
		for (size_t i = 0; i < sc->pub.packet_context->member_count; i++)
			visible = visible || !(sc->pub.packet_context->members[i].cls->flags & TC_FIELD_HIDDEN);
		if (!visible)
			sc->pub.packet_context->flags |= TC_FIELD_HIDDEN;
	}
	/* The stream class's clock even when no field maps it yet. */
	sc->pub.clock = b->scope_clock;
	return tc_ptr_push((void ***)&t->pub.stream_classes, &t->pub.stream_class_count, sc) < 0 ? (b->c.err = TC_ENOMEM) : 0;
}

/* Log level names (doc/formats/ctf.md §9.14), in number order. */
static int loglevel_number(const char *name)
{
	static const char *const names[] = {
		"emergency", "alert", "critical", "error", "warning", "notice", "info", "debug:system",
		"debug:program", "debug:process", "debug:module", "debug:unit", "debug:function", "debug:line", "debug",
	};
	for (int i = 0; i < 15; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static void event_attributes(jb *b, json_object *f, tc_event_class *ec)
{
	json_object *attrs = prop(f, "attributes");
	static const char *const namespaces[] = { "babeltrace.org,2020", "lttng.org,2009" };
	for (size_t i = 0; attrs && i < 2; i++) {
		json_object *ns = prop(attrs, namespaces[i]);
		if (!ns || !json_object_is_type(ns, json_type_object))
			continue;
		json_object *ll = prop(ns, "log-level"), *emf = prop(ns, "emf-uri");
		if (ec->loglevel < 0 && ll && json_object_is_type(ll, json_type_string))
			ec->loglevel = loglevel_number(json_object_get_string(ll));
		if (!ec->emf_uri && emf && json_object_is_type(emf, json_type_string))
			ec->emf_uri = jstrdup(b, json_object_get_string(emf));
	}
}

static int read_event_record_class(jb *b, json_object *f)
{
	static const char *const props[] = { "id", "data-stream-class-id", "namespace", "name", "uid",
		                             "specific-context-field-class", "payload-field-class", NULL };
	ctf_trace *t = b->c.t;
	tc_event_class *ec = ctf_build_alloc(&b->c, sizeof *ec);
	uint64_t sid = 0;
	char *ns, *name, *uid;
	if (!ec || check_props(b, f, "event record class", props) < 0 ||
	    get_uint(b, f, "id", "event record class", false, &ec->id) < 0 ||
	    get_uint(b, f, "data-stream-class-id", "event record class", false, &sid) < 0 ||
	    identity(b, f, "event record class", &ns, &name, &uid) < 0)
		return b->c.err;
	ctf_stream_class *sc = ctf_stream_class_by_id(t, sid);
	if (!sc)
		return jfail(b, "event record class %" PRIu64 ": no data stream class %" PRIu64 " before it", ec->id, sid);
	for (size_t i = 0; i < sc->pub.event_class_count; i++)
		if (sc->pub.event_classes[i]->id == ec->id)
			return jfail(b, "event record class %" PRIu64 " defined twice in data stream class %" PRIu64, ec->id, sid);
	ec->name = name ? name : (char *)"<unknown>";
	ec->loglevel = -1;
	event_attributes(b, f, ec);
	b->roots[SCOPE_PACKET_HEADER] = t->pub.packet_header;
	b->roots[SCOPE_PACKET_CONTEXT] = sc->pub.packet_context;
	b->roots[SCOPE_EVENT_HEADER] = sc->pub.event_header;
	b->roots[SCOPE_STREAM_EVENT_CONTEXT] = sc->pub.event_context;
	b->roots[SCOPE_EVENT_CONTEXT] = b->roots[SCOPE_PAYLOAD] = NULL;
	b->scope_clock = sc->pub.clock;
	ec->context = build_scope(b, f, "specific-context-field-class", SCOPE_EVENT_CONTEXT);
	ec->payload = b->c.err ? NULL : build_scope(b, f, "payload-field-class", SCOPE_PAYLOAD);
	if (b->c.err)
		return b->c.err;
	ec->stream_class = &sc->pub;
	return tc_ptr_push((void ***)&sc->pub.event_classes, &sc->pub.event_class_count, ec) < 0 ? (b->c.err = TC_ENOMEM) : 0;
}

static int read_fragment(jb *b, json_object *f, size_t index)
{
	const char *type = NULL;
	if (get_string(b, f, "type", "fragment", true, &type) < 0)
		return b->c.err;
	bool preamble = !strcmp(type, "preamble");
	if ((index == 0) != preamble)
		return jfail(b, index == 0 ? "expecting the preamble fragment first" : "a second preamble fragment");
	if (preamble)
		return read_preamble(b, f);
	if (!strcmp(type, "field-class-alias"))
		return read_alias(b, f);
	if (!strcmp(type, "trace-class")) {
		if (b->c.t->pub.stream_class_count)
			return jfail(b, "the trace class fragment comes after a data stream class");
		return read_trace_class(b, f);
	}
	if (!strcmp(type, "clock-class"))
		return read_clock_class(b, f);
	/* A trace class is implied once a stream class comes. */
	b->have_trace_class = true;
	if (!strcmp(type, "data-stream-class"))
		return read_data_stream_class(b, f);
	if (!strcmp(type, "event-record-class"))
		return read_event_record_class(b, f);
	return jfail(b, "unknown fragment type \"%s\"", type);
}

static bool has_role(const tc_field_class *fc, tc_field_role role)
{
	if (!fc)
		return false;
	if (plan_of(fc)->role == role)
		return true;
	for (size_t i = 0; i < fc->member_count; i++)
		if (has_role(fc->members[i].cls, role))
			return true;
	return has_role(fc->element, role);
}

/* The stream class's checks and tables, once every event class is known. */
static int finish(jb *b)
{
	ctf_trace *t = b->c.t;
	b->frag_offset = (size_t)-1;   /* about the whole metadata: no position */
	if (t->pub.stream_class_count == 0)
		return jfail(b, "missing data stream class fragment");
	if (t->pub.stream_class_count > 1 && !has_role(t->pub.packet_header, TC_ROLE_STREAM_ID))
		return jfail(b, "several data stream classes but no packet header field with the data-stream-class-id role");
	for (size_t i = 0; i < t->pub.stream_class_count; i++) {
		ctf_stream_class *sc = (ctf_stream_class *)t->pub.stream_classes[i];
		if (sc->pub.event_class_count > 1 && !has_role(sc->pub.event_header, TC_ROLE_EVENT_ID))
			return jfail(b, "data stream class %" PRIu64 " has several event record classes but no event record header", sc->pub.id);
		if (ctf_stream_class_finish(&b->c, sc) < 0)
			return b->c.err;
	}
	t->pub.ctf_major = t->pub.format_major = 2;
	t->pub.layout = TC_LAYOUT_CTF2;
	t->quirks.check_packets_first = t->quirks.any_magic = t->quirks.quiet_first_discards = true;
	ctf_trace_finish(t);
	return 0;
}

int ctf2_metadata_build(ctf_build *cb, const char *data, size_t len)
{
	jb b = { .c = *cb };
	ctf2_fragment *frags = NULL;
	size_t count = 0;
	int rc = ctf2_split(cb->path, data, len, &frags, &count);
	if (rc == 0 && ctf2_is_rc(frags, count))
		rc = ctf2_normalize_rc(frags, count);
	for (size_t i = 0; rc == 0 && i < count; i++) {
		b.frag_offset = frags[i].offset;
		rc = read_fragment(&b, frags[i].value, i);
	}
	if (rc == 0 && count == 0)
		rc = tc_fail(TC_EFORMAT, cb->path, 0, "metadata: no fragment (expecting the preamble fragment)");
	if (rc == 0)
		rc = finish(&b);
	free(b.aliases);
	free(b.clocks);
	ctf2_fragments_free(frags, count);
	cb->err = b.c.err;
	return rc;
}
