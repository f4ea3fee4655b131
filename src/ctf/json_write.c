/* SPDX-License-Identifier: MIT */
/*
 * json_write.c - the model as CTF 2 metadata (doc/formats/ctf.md §7.2), beside
 * tsdl_write.c, which writes it as CTF 1.8: a JSON text sequence that
 * babeltrace2 2.1.2 reads, describing packets laid out exactly as the
 * model says (the writer's own, or a CTF trace's copied unchanged).
 *
 * What CTF 1.8 says with names, CTF 2 says with roles: a model read from
 * TSDL gets its roles from the special member names, and its names with
 * one leading underscore removed, as babeltrace2 shows them; a CTF 2
 * model (read from CTF 2, or built by the writer for CTF 2 output) keeps
 * its roles (tc_field_class.role) and names.  Lengths and selectors
 * become absolute field locations: a TSDL model's paths are followed by
 * name (through structures, arrays, optionals and named variant options),
 * a CTF 2 model's from its resolved paths (tc_field_class.ref: member
 * indexes, arrays, optionals, and variants: the option the path
 * gives, or the one being written).  Each clock class is written once,
 * even when several stream classes share it.
 */
#include "ctf/ctf_write.h"

#include <inttypes.h>
#include <string.h>

#define MAX_DEPTH 64

typedef struct write_frame {
	const tc_field_class *cls;
	size_t child;
} write_frame;

typedef struct jw {
	tc_buf *b;
	const tc_trace *t;
	bool tsdl_model;       /* roles and names by CTF 1.8's rules */
	tc_scope scope;
	const tc_field_class *roots[TC_SCOPE_COUNT];
	write_frame stack[MAX_DEPTH];
	size_t depth;
} jw;

static const char *const scope_origin[TC_SCOPE_COUNT] = {
	"packet-header", "packet-context", "event-record-header",
	"event-record-common-context", "event-record-specific-context", "event-record-payload",
};

static const char *const tsdl_prefix[TC_SCOPE_COUNT] = {
	"trace.packet.header.", "stream.packet.context.", "stream.event.header.",
	"stream.event.context.", "event.context.", "event.fields.",
};

static int put(jw *w, const char *s)
{
	return tc_buf_append(w->b, s, strlen(s));
}

/* A JSON string: quotes, backslashes and control bytes escaped; other
 * bytes as they are.  Control bytes get their short escapes where JSON
 * has one: babeltrace2 2.1.2 reads `\uXXXX` escapes wrongly (it parses
 * the four digits and whatever follows them in its memory). */
static int json_string(tc_buf *b, const char *s)
{
	int rc = tc_buf_append(b, "\"", 1);
	for (; *s && rc == 0; s++) {
		unsigned char c = (unsigned char)*s;
		const char *e = c == '\b' ? "b" : c == '\f' ? "f" : c == '\n' ? "n" : c == '\r' ? "r" : c == '\t' ? "t" : NULL;
		if (c == '"' || c == '\\')
			rc = tc_buf_printf(b, "\\%c", c);
		else if (e)
			rc = tc_buf_printf(b, "\\%s", e);
		else if (c < 0x20)
			rc = tc_buf_printf(b, "\\u%04x", c);
		else
			rc = tc_buf_append(b, s, 1);
	}
	return rc ? rc : tc_buf_append(b, "\"", 1);
}

static int put_string(jw *w, const char *s)
{
	return json_string(w->b, s);
}

/* One more name in a location's path being built. */
static int path_append(tc_buf *path, const char *name)
{
	int rc = path->len ? tc_buf_append(path, ",", 1) : 0;
	return rc ? rc : json_string(path, name);
}

/* ,"KEY": */
static int key(jw *w, const char *k)
{
	int rc = tc_buf_printf(w->b, ",");
	if (rc == 0)
		rc = put_string(w, k);
	return rc ? rc : put(w, ":");
}

static int key_string(jw *w, const char *k, const char *v)
{
	int rc = key(w, k);
	return rc ? rc : put_string(w, v);
}

/* ---- names and roles ---- */

/* A CTF 1.8 member name as babeltrace2 shows it, unless another member of
 * PARENT shows the same, which CTF 2 would refuse. */
static const char *out_name(const jw *w, const tc_field_class *parent, size_t i)
{
	const tc_member *m = &parent->members[i];
	if (!w->tsdl_model)
		return m->name;
	const char *d = m->display_name ? m->display_name : m->name;
	for (size_t j = 0; j < parent->member_count; j++) {
		const tc_member *o = &parent->members[j];
		if (j != i && strcmp(o->display_name ? o->display_name : o->name, d) == 0)
			return m->name;
	}
	return d;
}

static tc_field_role tsdl_role(const jw *w, const char *name, const tc_field_class *fc)
{
	static const struct {
		tc_scope scope;
		const char *name;
		tc_field_role role;
	} roles[] = {
		{ TC_SCOPE_PACKET_HEADER, "magic", TC_ROLE_MAGIC },
		{ TC_SCOPE_PACKET_HEADER, "uuid", TC_ROLE_UUID },
		{ TC_SCOPE_PACKET_HEADER, "stream_id", TC_ROLE_STREAM_ID },
		{ TC_SCOPE_PACKET_HEADER, "stream_instance_id", TC_ROLE_STREAM_INSTANCE_ID },
		{ TC_SCOPE_PACKET_CONTEXT, "packet_size", TC_ROLE_PACKET_SIZE },
		{ TC_SCOPE_PACKET_CONTEXT, "content_size", TC_ROLE_CONTENT_SIZE },
		{ TC_SCOPE_PACKET_CONTEXT, "timestamp_begin", TC_ROLE_TS_BEGIN },
		{ TC_SCOPE_PACKET_CONTEXT, "timestamp_end", TC_ROLE_TS_END },
		{ TC_SCOPE_PACKET_CONTEXT, "events_discarded", TC_ROLE_EVENTS_DISCARDED },
		{ TC_SCOPE_PACKET_CONTEXT, "packet_seq_num", TC_ROLE_PACKET_SEQ_NUM },
		{ TC_SCOPE_EVENT_HEADER, "id", TC_ROLE_EVENT_ID },
		{ TC_SCOPE_EVENT_HEADER, "timestamp", TC_ROLE_TIMESTAMP },
	};
	/* Only the packet scopes' top-level members are special; the event
	 * header's at any depth. */
	if (w->scope != TC_SCOPE_EVENT_HEADER && w->depth != 1)
		return TC_ROLE_NONE;
	for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++)
		if (roles[i].scope == w->scope && strcmp(roles[i].name, name) == 0)
			return roles[i].role;
	if (w->scope == TC_SCOPE_EVENT_HEADER && fc->clock)
		return TC_ROLE_TIMESTAMP;
	return TC_ROLE_NONE;
}

static const char *role_name(tc_field_role role)
{
	switch (role) {
	case TC_ROLE_MAGIC: return "packet-magic-number";
	case TC_ROLE_UUID: return "metadata-stream-uuid";
	case TC_ROLE_STREAM_ID: return "data-stream-class-id";
	case TC_ROLE_STREAM_INSTANCE_ID: return "data-stream-id";
	case TC_ROLE_PACKET_SIZE: return "packet-total-length";
	case TC_ROLE_CONTENT_SIZE: return "packet-content-length";
	case TC_ROLE_TS_BEGIN: case TC_ROLE_TIMESTAMP: return "default-clock-timestamp";
	case TC_ROLE_TS_END: return "packet-end-default-clock-timestamp";
	case TC_ROLE_EVENTS_DISCARDED: return "discarded-event-record-counter-snapshot";
	case TC_ROLE_PACKET_SEQ_NUM: return "packet-sequence-number";
	case TC_ROLE_EVENT_ID: return "event-record-class-id";
	default: return NULL;
	}
}

/* The role of FC, a member named NAME in the scope being written: by name
 * for a CTF 1.8 model, the class's own for a CTF 2 one.  Roles go on unsigned
 * integers (and the UUID BLOB) only. */
static tc_field_role role_of(const jw *w, const char *name, const tc_field_class *fc)
{
	tc_field_role r = w->tsdl_model ? tsdl_role(w, name, fc) : fc->role;
	if (r == TC_ROLE_UUID)
		return w->t->has_uuid && (fc->kind == TC_FIELD_BLOB || fc->kind == TC_FIELD_ARRAY) && fc->length == 16
		           ? r : TC_ROLE_NONE;
	bool uint = (fc->kind == TC_FIELD_INT || fc->kind == TC_FIELD_ENUM) && !fc->is_signed;
	if (!uint || ((r == TC_ROLE_TS_BEGIN || r == TC_ROLE_TS_END || r == TC_ROLE_TIMESTAMP) && !fc->clock))
		return TC_ROLE_NONE;
	return r;
}

/* ---- field locations ---- */

static const tc_field_class *member_named(const tc_field_class *s, const char *name, size_t len, size_t limit,
                                          size_t *index)
{
	for (size_t i = 0; i < s->member_count && i < limit; i++)
		if (strlen(s->members[i].name) == len && memcmp(s->members[i].name, name, len) == 0) {
			*index = i;
			return s->members[i].cls;
		}
	return NULL;
}

/* Appends to the location's path the output names along the dotted names
 * REST from FC; the class found, or NULL.  Arrays and optionals are
 * crossed (CTF 2 paths name neither), and a variant by the option REST
 * names next (TSDL names it, CTF 2 does not). */
static const tc_field_class *follow(jw *w, const tc_field_class *fc, const char *rest, tc_buf *path)
{
	while (*rest && fc) {
		while (fc->kind == TC_FIELD_ARRAY || fc->kind == TC_FIELD_SEQUENCE || fc->kind == TC_FIELD_OPTIONAL)
			fc = fc->element;
		if (fc->kind != TC_FIELD_STRUCT && fc->kind != TC_FIELD_VARIANT)
			return NULL;
		const char *dot = strchr(rest, '.');
		size_t len = dot ? (size_t)(dot - rest) : strlen(rest), i;
		const tc_field_class *m = member_named(fc, rest, len, SIZE_MAX, &i);
		if (!m)
			return NULL;
		if (fc->kind == TC_FIELD_STRUCT && path_append(path, out_name(w, fc, i)) < 0)
			return NULL;
		fc = m;
		rest = dot ? dot + 1 : rest + len;
	}
	return fc;
}

/* The option of variant V whose field is being written (the frame of V
 * on the stack), or TC_PATH_SELECTED when none is. */
static uint16_t option_written(const jw *w, const tc_field_class *v)
{
	for (size_t lvl = w->depth; lvl-- > 0;)
		if (w->stack[lvl].cls == v)
			return (uint16_t)w->stack[lvl].child;
	return TC_PATH_SELECTED;
}

/* The location of FC's length or selector from its ref (a model read
 * from CTF 2, or the writer's CTF 2 output): the path resolved by the
 * reader, from the root of its scope, as member names.  Arrays and
 * optionals add nothing; a variant adds nothing either, its option
 * being the one the step gives (the writer's) or (TC_PATH_SELECTED, the
 * reader's) the one holding the field being written; a path may end on
 * a variant, whose options are then integers.  *KEY is the key's class
 * (a variant's: its first option's). */
static int write_path_location(jw *w, const char *k, const tc_field_class *fc, const tc_field_class **key_cls)
{
	const tc_field_path *ref = &fc->ref;
	const tc_field_class *c = ref->scope < TC_SCOPE_COUNT ? w->roots[ref->scope] : NULL;
	tc_buf path = { 0 };
	int rc = 0;
	for (size_t i = 0; c && rc == 0 && i < ref->len; i++) {
		uint16_t step = ref->steps[i];
		switch (c->kind) {
		case TC_FIELD_STRUCT:
			if (step < c->member_count)
				rc = path_append(&path, out_name(w, c, step));
			c = step < c->member_count ? c->members[step].cls : NULL;
			break;
		case TC_FIELD_ARRAY:
		case TC_FIELD_SEQUENCE:
			c = step == TC_PATH_ELEMENT ? c->element : NULL;
			break;
		case TC_FIELD_OPTIONAL:
			c = step == TC_PATH_SELECTED ? c->element : NULL;
			break;
		case TC_FIELD_VARIANT:
			if (step == TC_PATH_SELECTED)
				step = i + 1 == ref->len ? 0 : option_written(w, c);
			c = step < c->member_count ? c->members[step].cls : NULL;
			break;
		default:
			c = NULL;
			break;
		}
	}
	if (rc == 0 && (!c || !path.len))
		rc = tc_fail(TC_EUNSUPPORTED, NULL, -1, "cannot write the CTF 2 location of the %s of a %s field",
		             fc->kind == TC_FIELD_VARIANT || fc->kind == TC_FIELD_OPTIONAL ? "selector" : "length",
		             scope_origin[ref->scope < TC_SCOPE_COUNT ? ref->scope : 0]);
	if (rc == 0)
		rc = key(w, k);
	if (rc == 0)
		rc = tc_buf_printf(w->b, "{\"origin\":\"%s\",\"path\":[%.*s]}", scope_origin[ref->scope], (int)path.len,
		                   path.data);
	tc_buf_free(&path);
	*key_cls = c;
	return rc;
}

/* The field REF (a TSDL path: absolute, or relative to the structures
 * being written) as a CTF 2 absolute location; *KEY is its class. */
static int write_location(jw *w, const char *k, const char *ref, const tc_field_class **key_cls)
{
	tc_buf path = { 0 };
	const tc_field_class *found = NULL;
	tc_scope scope = w->scope;
	bool absolute = false;
	for (int s = 0; s < TC_SCOPE_COUNT && !absolute; s++) {
		size_t n = strlen(tsdl_prefix[s]);
		if (strncmp(ref, tsdl_prefix[s], n) == 0) {
			absolute = true;
			scope = (tc_scope)s;
			found = w->roots[s] ? follow(w, w->roots[s], ref + n, &path) : NULL;
		}
	}
	if (!absolute) {
		/* innermost structure first, then outwards
		 * (doc/formats/ctf.md §3.4) */
		const char *dot = strchr(ref, '.');
		size_t len = dot ? (size_t)(dot - ref) : strlen(ref);
		for (size_t lvl = w->depth; lvl-- > 0 && !found;) {
			const tc_field_class *s = w->stack[lvl].cls;
			size_t i;
			if (s->kind != TC_FIELD_STRUCT || !member_named(s, ref, len, w->stack[lvl].child, &i))
				continue;
			/* the structures from the root down to this one */
			tc_buf_free(&path);
			path = (tc_buf){ 0 };
			for (size_t up = 0; up < lvl; up++) {
				const write_frame *f = &w->stack[up];
				if (f->cls->kind == TC_FIELD_STRUCT && path_append(&path, out_name(w, f->cls, f->child)) < 0)
					break;
			}
			found = follow(w, s, ref, &path);
		}
	}
	int rc = 0;
	if (!found || !path.len)
		rc = tc_fail(TC_EUNSUPPORTED, NULL, -1, "cannot write the CTF 2 location of \"%s\"", ref);
	if (rc == 0)
		rc = key(w, k);
	if (rc == 0)
		rc = tc_buf_printf(w->b, "{\"origin\":\"%s\",\"path\":[%.*s]}", scope_origin[scope], (int)path.len, path.data);
	tc_buf_free(&path);
	*key_cls = found;
	return rc;
}

/* The location of FC's length or selector, REF in TSDL: from FC's ref
 * when the model is a CTF 2 one with it resolved. */
static int write_ref(jw *w, const char *k, const tc_field_class *fc, const char *ref, const tc_field_class **key_cls)
{
	if (!w->tsdl_model && fc->ref.len)
		return write_path_location(w, k, fc, key_cls);
	return write_location(w, k, ref ? ref : "", key_cls);
}

/* ---- field classes ---- */

static int write_fc(jw *w, const tc_field_class *fc, const char *name);

/* Whether label L counts: every label when NAME is NULL, else those named NAME. */
static bool label_selected(const tc_enum_label *l, const char *name)
{
	return !name || strcmp(l->label, name) == 0;
}

/* "[[lo,hi],...]": the ranges of the labels LABELS[0..COUNT) that NAME
 * selects (label_selected). */
static int write_ranges(jw *w, const tc_enum_label *labels, size_t count, const char *name, bool is_signed)
{
	int rc = put(w, "[");
	bool first = true;
	for (size_t l = 0; l < count && rc == 0; l++) {
		if (!label_selected(&labels[l], name))
			continue;
		for (size_t r = 0; r < labels[l].range_count && rc == 0; r++, first = false) {
			const tc_enum_range *x = &labels[l].ranges[r];
			rc = is_signed ? tc_buf_printf(w->b, "%s[%" PRId64 ",%" PRId64 "]", first ? "" : ",", (int64_t)x->lo, (int64_t)x->hi)
			               : tc_buf_printf(w->b, "%s[%" PRIu64 ",%" PRIu64 "]", first ? "" : ",", x->lo, x->hi);
		}
	}
	return rc ? rc : put(w, "]");
}

static int write_mappings(jw *w, const char *k, const tc_field_class *fc)
{
	int rc = key(w, k);
	if (rc == 0)
		rc = put(w, "{");
	for (size_t i = 0; i < fc->label_count && rc == 0; i++) {
		if (i)
			rc = put(w, ",");
		if (rc == 0)
			rc = put_string(w, fc->labels[i].label ? fc->labels[i].label : "");
		if (rc == 0)
			rc = put(w, ":");
		if (rc == 0)
			rc = write_ranges(w, &fc->labels[i], 1, NULL, fc->kind != TC_FIELD_BIT_ARRAY && fc->is_signed);
	}
	return rc ? rc : put(w, "}");
}

/* length, byte-order, bit-order, alignment of a fixed-length class */
static int fixed_props(jw *w, const tc_field_class *fc)
{
	bool le = fc->byte_order == TC_LITTLE_ENDIAN;
	int rc = tc_buf_printf(w->b, ",\"length\":%u,\"byte-order\":\"%s\"", fc->size, le ? "little-endian" : "big-endian");
	if (rc == 0 && (fc->flags & TC_FIELD_BIT_REVERSED))
		rc = tc_buf_printf(w->b, ",\"bit-order\":\"%s\"", le ? "last-to-first" : "first-to-last");
	if (rc == 0 && fc->align > 1)
		rc = tc_buf_printf(w->b, ",\"alignment\":%u", fc->align);
	return rc;
}

static const char *const encoding_names[] = { "utf-8", "utf-16le", "utf-16be", "utf-32le", "utf-32be" };

static int write_integer(jw *w, const tc_field_class *fc, tc_field_role role)
{
	bool varlen = fc->flags & TC_FIELD_VARLEN;
	int rc = tc_buf_printf(w->b, "{\"type\":\"%s-length-%s-integer\"", varlen ? "variable" : "fixed",
	                       fc->is_signed ? "signed" : "unsigned");
	if (rc == 0 && !varlen)
		rc = fixed_props(w, fc);
	if (rc == 0 && fc->base && fc->base != 10)
		rc = tc_buf_printf(w->b, ",\"preferred-display-base\":%u", fc->base);
	if (rc == 0 && fc->kind == TC_FIELD_ENUM)
		rc = write_mappings(w, "mappings", fc);
	if (rc == 0 && role != TC_ROLE_NONE)
		rc = tc_buf_printf(w->b, ",\"roles\":[\"%s\"]", role_name(role));
	return rc ? rc : put(w, "}");
}

static int write_struct(jw *w, const tc_field_class *fc)
{
	int rc = put(w, "{\"type\":\"structure\",\"member-classes\":[");
	if (w->depth >= MAX_DEPTH)
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "field classes nested too deeply to write");
	write_frame *f = &w->stack[w->depth++];
	f->cls = fc;
	for (size_t i = 0; i < fc->member_count && rc == 0; i++) {
		f->child = i;
		rc = put(w, i ? ",{\"name\":" : "{\"name\":");
		if (rc == 0)
			rc = put_string(w, out_name(w, fc, i));
		if (rc == 0)
			rc = key(w, "field-class");
		if (rc == 0)
			rc = write_fc(w, fc->members[i].cls,
			              fc->members[i].display_name ? fc->members[i].display_name : fc->members[i].name);
		if (rc == 0)
			rc = put(w, "}");
	}
	w->depth--;
	if (rc == 0)
		rc = put(w, "]");
	if (rc == 0 && fc->align > 1)
		rc = tc_buf_printf(w->b, ",\"minimum-alignment\":%u", fc->align);
	return rc ? rc : put(w, "}");
}

/* Arrays, optionals and variants are frames too: relative TSDL paths from
 * inside them look outwards past them; a variant's records the option
 * being written (CHILD). */
static int write_inner(jw *w, const tc_field_class *holder, size_t child, const tc_field_class *inner, const char *name)
{
	if (w->depth >= MAX_DEPTH)
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "field classes nested too deeply to write");
	w->stack[w->depth++] = (write_frame){ holder, child };
	int rc = write_fc(w, inner, name);
	w->depth--;
	return rc;
}

static int write_variant(jw *w, const tc_field_class *fc)
{
	const tc_field_class *tag = NULL;
	int rc = put(w, "{\"type\":\"variant\"");
	if (rc == 0)
		rc = write_ref(w, "selector-field-location", fc, fc->tag_ref, &tag);
	if (rc == 0 && (!tag || (tag->kind != TC_FIELD_INT && tag->kind != TC_FIELD_ENUM)))
		rc = tc_fail(TC_EUNSUPPORTED, NULL, -1, "a variant tag that is not an integer cannot be written as CTF 2");
	if (rc == 0)
		rc = put(w, ",\"options\":[");
	bool first = true;
	for (size_t i = 0; i < fc->member_count && rc == 0; i++) {
		/* CTF 2: the option's own ranges.  CTF 1.8: those of the tag's
		 * labels of its name; an option no label selects is left out. */
		const tc_enum_label *labels = fc->labels ? &fc->labels[i] : tag->labels;
		size_t count = fc->labels ? 1 : tag->label_count;
		const char *name = fc->labels ? NULL : fc->members[i].name;
		bool any = false;
		for (size_t l = 0; l < count && !any; l++)
			any = label_selected(&labels[l], name) && labels[l].range_count;
		if (!any)
			continue;
		rc = put(w, first ? "{" : ",{");
		first = false;
		if (rc == 0 && fc->members[i].name && fc->members[i].name[0]) {
			rc = put(w, "\"name\":");
			if (rc == 0)
				rc = put_string(w, out_name(w, fc, i));
			if (rc == 0)
				rc = put(w, ",");
		}
		if (rc == 0)
			rc = put(w, "\"selector-field-ranges\":");
		if (rc == 0)
			rc = write_ranges(w, labels, count, name, tag->is_signed);
		if (rc == 0)
			rc = key(w, "field-class");
		if (rc == 0)
			rc = write_inner(w, fc, i, fc->members[i].cls, fc->members[i].name);
		if (rc == 0)
			rc = put(w, "}");
	}
	if (rc == 0 && first)
		rc = tc_fail(TC_EUNSUPPORTED, NULL, -1, "a variant none of whose options can be selected cannot be written as CTF 2");
	return rc ? rc : put(w, "]}");
}

static int write_fc(jw *w, const tc_field_class *fc, const char *name)
{
	const tc_field_class *key_cls;
	tc_field_role role = role_of(w, name, fc);
	int rc = 0;
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
		return write_integer(w, fc, role);
	case TC_FIELD_FLOAT:
		rc = put(w, "{\"type\":\"fixed-length-floating-point-number\"");
		break;
	case TC_FIELD_BOOL:
		rc = put(w, "{\"type\":\"fixed-length-boolean\"");
		break;
	case TC_FIELD_BIT_ARRAY:
		rc = put(w, fc->label_count ? "{\"type\":\"fixed-length-bit-map\"" : "{\"type\":\"fixed-length-bit-array\"");
		if (rc == 0)
			rc = fixed_props(w, fc);
		if (rc == 0 && fc->label_count)
			rc = write_mappings(w, "flags", fc);
		return rc ? rc : put(w, "}");
	case TC_FIELD_STRING:
		rc = put(w, "{\"type\":\"null-terminated-string\"");
		if (rc == 0 && fc->encoding != TC_UTF8)
			rc = key_string(w, "encoding", encoding_names[fc->encoding]);
		return rc ? rc : put(w, "}");
	case TC_FIELD_STRUCT:
		return write_struct(w, fc);
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE: {
		bool text = fc->flags & TC_FIELD_TEXT, dynamic = fc->kind == TC_FIELD_SEQUENCE;
		if (role == TC_ROLE_UUID && !dynamic)
			return put(w, "{\"type\":\"static-length-blob\",\"length\":16,\"roles\":[\"metadata-stream-uuid\"]}");
		rc = tc_buf_printf(w->b, "{\"type\":\"%s-length-%s\"", dynamic ? "dynamic" : "static", text ? "string" : "array");
		if (rc == 0 && dynamic)
			rc = write_ref(w, "length-field-location", fc, fc->length_ref, &key_cls);
		else if (rc == 0)
			rc = tc_buf_printf(w->b, ",\"length\":%" PRIu64, fc->length * (text ? fc->element->size / 8 : 1));
		if (rc == 0 && text && fc->encoding != TC_UTF8)
			rc = key_string(w, "encoding", encoding_names[fc->encoding]);
		if (rc == 0 && !text) {
			rc = key(w, "element-field-class");
			if (rc == 0)
				rc = write_inner(w, fc, 0, fc->element, name);
			if (rc == 0 && fc->align > fc->element->align)
				rc = tc_buf_printf(w->b, ",\"minimum-alignment\":%u", fc->align);
		}
		return rc ? rc : put(w, "}");
	}
	case TC_FIELD_BLOB:
		rc = tc_buf_printf(w->b, "{\"type\":\"%s-length-blob\"", fc->length_ref ? "dynamic" : "static");
		if (rc == 0 && fc->length_ref)
			rc = write_ref(w, "length-field-location", fc, fc->length_ref, &key_cls);
		else if (rc == 0)
			rc = tc_buf_printf(w->b, ",\"length\":%" PRIu64, fc->length);
		if (rc == 0 && fc->media_type)
			rc = key_string(w, "media-type", fc->media_type);
		if (rc == 0 && role == TC_ROLE_UUID)
			rc = put(w, ",\"roles\":[\"metadata-stream-uuid\"]");
		return rc ? rc : put(w, "}");
	case TC_FIELD_OPTIONAL:
		rc = put(w, "{\"type\":\"optional\"");
		if (rc == 0)
			rc = write_ref(w, "selector-field-location", fc, fc->tag_ref, &key_cls);
		if (rc == 0 && fc->label_count) {
			rc = put(w, ",\"selector-field-ranges\":");
			if (rc == 0)
				rc = write_ranges(w, &fc->labels[0], 1, NULL, key_cls->is_signed);
		}
		if (rc == 0)
			rc = key(w, "field-class");
		if (rc == 0)
			rc = write_inner(w, fc, 0, fc->element, name);
		return rc ? rc : put(w, "}");
	case TC_FIELD_VARIANT:
		return write_variant(w, fc);
	}
	if (rc == 0)
		rc = fixed_props(w, fc);
	return rc ? rc : put(w, "}");
}

/* ,"KEY": a scope's structure */
static int write_scope(jw *w, const char *k, tc_scope scope, const tc_field_class *fc)
{
	if (!fc)
		return 0;
	w->scope = scope;
	w->roots[scope] = fc;
	w->depth = 0;
	int rc = key(w, k);
	return rc ? rc : write_fc(w, fc, "");
}

/* ---- fragments ---- */

static int fragment_start(jw *w, const char *type)
{
	return tc_buf_printf(w->b, "\x1e{\"type\":\"%s\"", type);
}

static int fragment_end(jw *w)
{
	return put(w, "}\n");
}

static bool is_lttng(const tc_trace *t)
{
	const tc_env_entry *e = tc_trace_env(t, "tracer_name");
	return e && !e->is_int && e->str_value && strncmp(e->str_value, "lttng", 5) == 0;
}

static int write_trace_class(jw *w)
{
	const tc_trace *t = w->t;
	char uid[37] = "";
	if (t->has_uuid)
		tc_uuid_format(t->uuid, uid);
	int rc = fragment_start(w, "trace-class");
	/* Directories of one trace merge only when their class has a name
	 * and a uid (doc/formats/ctf.md §6.3): LTTng's conversions name it
	 * "". */
	const char *ns = t->class_ns ? t->class_ns : t->ctf_major != 2 && is_lttng(t) && uid[0] ? "lttng.org,2009" : NULL;
	const char *name = t->class_name ? t->class_name : t->ctf_major != 2 && is_lttng(t) && uid[0] ? "" : NULL;
	const char *u = t->class_uid ? t->class_uid : t->ctf_major != 2 && uid[0] ? uid : NULL;
	if (rc == 0 && ns)
		rc = key_string(w, "namespace", ns);
	if (rc == 0 && name)
		rc = key_string(w, "name", name);
	if (rc == 0 && u)
		rc = key_string(w, "uid", u);
	if (rc == 0 && t->env_count) {
		rc = put(w, ",\"environment\":{");
		for (size_t i = 0; i < t->env_count && rc == 0; i++) {
			const tc_env_entry *e = &t->env[i];
			if (i)
				rc = put(w, ",");
			if (rc == 0)
				rc = put_string(w, e->key);
			if (rc == 0)
				rc = e->is_int ? tc_buf_printf(w->b, ":%" PRId64, e->int_value) : put(w, ":");
			if (rc == 0 && !e->is_int)
				rc = put_string(w, e->str_value ? e->str_value : "");
		}
		if (rc == 0)
			rc = put(w, "}");
	}
	if (rc == 0)
		rc = write_scope(w, "packet-header-field-class", TC_SCOPE_PACKET_HEADER, t->packet_header);
	return rc ? rc : fragment_end(w);
}

static int write_clock_class(jw *w, const tc_clock *c)
{
	int rc = fragment_start(w, "clock-class");
	if (rc == 0)
		rc = key_string(w, "id", c->name);
	if (rc == 0 && c->ns)
		rc = key_string(w, "namespace", c->ns);
	if (rc == 0)
		rc = key_string(w, "name", c->name);
	char uid[37];
	if (c->has_uuid)
		tc_uuid_format(c->uuid, uid);
	if (rc == 0 && (c->uid || c->has_uuid))
		rc = key_string(w, "uid", c->uid ? c->uid : uid);
	if (rc == 0 && c->description)
		rc = key_string(w, "description", c->description);
	if (rc == 0)
		rc = tc_buf_printf(w->b, ",\"frequency\":%" PRIu64, c->freq);
	if (rc == 0 && (c->offset_s || c->offset))
		rc = tc_buf_printf(w->b, ",\"offset-from-origin\":{\"seconds\":%" PRId64 ",\"cycles\":%" PRIu64 "}",
		                   c->offset_s, c->offset);
	if (rc == 0 && c->precision)
		rc = tc_buf_printf(w->b, ",\"precision\":%" PRIu64, c->precision);
	if (rc == 0 && c->accuracy)
		rc = tc_buf_printf(w->b, ",\"accuracy\":%" PRIu64, c->accuracy);
	if (rc == 0 && c->origin_name && c->origin_uid) {
		rc = put(w, ",\"origin\":{\"name\":");
		if (rc == 0)
			rc = put_string(w, c->origin_name);
		if (rc == 0)
			rc = put(w, ",\"uid\":");
		if (rc == 0)
			rc = put_string(w, c->origin_uid);
		if (rc == 0 && c->origin_ns)
			rc = key_string(w, "namespace", c->origin_ns);
		if (rc == 0)
			rc = put(w, "}");
	} else if (rc == 0 && c->absolute) {
		rc = put(w, ",\"origin\":\"unix-epoch\"");
	}
	return rc ? rc : fragment_end(w);
}

/* Log level numbers as CTF 2 names (doc/formats/ctf.md §9.14). */
static const char *const loglevel_names[] = {
	"emergency", "alert", "critical", "error", "warning", "notice", "info", "debug:system",
	"debug:program", "debug:process", "debug:module", "debug:unit", "debug:function", "debug:line", "debug",
};

static int write_event_record_class(jw *w, const tc_event_class *ec, const tc_stream_class *sc)
{
	int rc = fragment_start(w, "event-record-class");
	if (rc == 0)
		rc = tc_buf_printf(w->b, ",\"id\":%" PRIu64 ",\"data-stream-class-id\":%" PRIu64, ec->id, sc->id);
	if (rc == 0)
		rc = key_string(w, "name", ec->name);
	bool level = ec->loglevel >= 0 && ec->loglevel < 15;
	if (rc == 0 && (level || ec->emf_uri)) {
		rc = put(w, ",\"attributes\":{\"babeltrace.org,2020\":{");
		if (rc == 0 && level)
			rc = tc_buf_printf(w->b, "\"log-level\":\"%s\"%s", loglevel_names[ec->loglevel], ec->emf_uri ? "," : "");
		if (rc == 0 && ec->emf_uri) {
			rc = put(w, "\"emf-uri\":");
			if (rc == 0)
				rc = put_string(w, ec->emf_uri);
		}
		if (rc == 0)
			rc = put(w, "}}");
	}
	if (rc == 0)
		rc = write_scope(w, "specific-context-field-class", TC_SCOPE_EVENT_CONTEXT, ec->context);
	if (rc == 0)
		rc = write_scope(w, "payload-field-class", TC_SCOPE_PAYLOAD, ec->payload);
	return rc ? rc : fragment_end(w);
}

int ctf_json_write(const tc_trace *t, tc_buf *b)
{
	jw w = { .b = b, .t = t, .tsdl_model = t->layout != TC_LAYOUT_CTF2 };
	int rc = tc_buf_printf(b, "\x1e{\"type\":\"preamble\",\"version\":2");
	for (size_t i = 0; t->has_uuid && i < 16 && rc == 0; i++)
		rc = tc_buf_printf(b, "%s%u", i ? "," : ",\"uuid\":[", t->uuid[i]);
	if (rc == 0)
		rc = put(&w, t->has_uuid ? "]}\n" : "}\n");
	if (rc == 0)
		rc = write_trace_class(&w);
	for (size_t i = 0; i < t->clock_count && rc == 0; i++)
		rc = write_clock_class(&w, t->clocks[i]);
	for (size_t i = 0; i < t->stream_class_count && rc == 0; i++) {
		const tc_stream_class *sc = t->stream_classes[i];
		w.roots[TC_SCOPE_PACKET_HEADER] = t->packet_header;
		for (int s = TC_SCOPE_PACKET_CONTEXT; s < TC_SCOPE_COUNT; s++)
			w.roots[s] = NULL;
		rc = fragment_start(&w, "data-stream-class");
		if (rc == 0)
			rc = tc_buf_printf(b, ",\"id\":%" PRIu64, sc->id);
		if (rc == 0 && sc->clock)
			rc = key_string(&w, "default-clock-class-id", sc->clock->name);
		if (rc == 0)
			rc = write_scope(&w, "packet-context-field-class", TC_SCOPE_PACKET_CONTEXT, sc->packet_context);
		if (rc == 0)
			rc = write_scope(&w, "event-record-header-field-class", TC_SCOPE_EVENT_HEADER, sc->event_header);
		if (rc == 0)
			rc = write_scope(&w, "event-record-common-context-field-class", TC_SCOPE_STREAM_EVENT_CONTEXT, sc->event_context);
		if (rc == 0)
			rc = fragment_end(&w);
		for (size_t e = 0; e < sc->event_class_count && rc == 0; e++) {
			w.roots[TC_SCOPE_EVENT_CONTEXT] = w.roots[TC_SCOPE_PAYLOAD] = NULL;
			rc = write_event_record_class(&w, sc->event_classes[e], sc);
		}
	}
	return rc;
}
