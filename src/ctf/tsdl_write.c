/* SPDX-License-Identifier: MIT */
/*
 * tsdl_write.c - the model back to CTF 1.8 metadata text (TSDL).
 *
 * The writer of converted traces describes its own layouts with it, and a
 * CTF trace copied packet for packet gets metadata that describes the
 * original packets: every attribute a reader uses to decode or display a
 * field is written explicitly (size, alignment, byte order, signedness,
 * base, encoding, clock mapping), so nothing depends on defaults or on the
 * trace's native byte order.  Field names, sequence lengths and variant
 * tags are written as the model holds them.  CTF 2's own kinds (booleans,
 * bit arrays, BLOBs, optionals, LEB128 integers...) have no TSDL: the
 * writer maps them to CTF 1.8 types first (writer.c), and a CTF 2 trace is
 * never copied packet for packet (copy.c).
 */
#include "ctf/ctf_write.h"

#include <inttypes.h>
#include <string.h>

static int indent(tc_buf *b, int depth)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
	int rc = 0;
	for (; depth > 0 && rc == 0; depth -= 16)
		rc = tc_buf_append(b, tabs, depth > 16 ? 16 : (size_t)depth);
	return rc;
}

/* A TSDL string literal: quotes, backslashes and control bytes escaped. */
static int quoted(tc_buf *b, const char *s)
{
	int rc = tc_buf_append(b, "\"", 1);
	for (; *s && rc == 0; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			rc = tc_buf_printf(b, "\\%c", c);
		else if (c == '\n')
			rc = tc_buf_append(b, "\\n", 2);
		else if (c < 0x20 || c == 0x7f)
			rc = tc_buf_printf(b, "\\x%02x", c);
		else
			rc = tc_buf_append(b, s, 1);
	}
	return rc ? rc : tc_buf_append(b, "\"", 1);
}

void ctf_clock_identifier(const char *name, char *out, size_t size)
{
	size_t n = 0;
	for (; name[n] && n + 1 < size; n++) {
		char c = name[n];
		out[n] = ctf_tsdl_ident_char(c, n == 0) ? c : '_';
	}
	if (n == 0 && size > 1)
		out[n++] = '_';
	out[n] = '\0';
}

bool ctf_tsdl_ident_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

bool ctf_tsdl_is_keyword(const char *s)
{
	static const char *const keywords[] = {
		"align", "callsite", "char", "clock", "const", "double", "enum", "env", "event",
		"floating_point", "float", "integer", "int", "long", "short", "signed", "stream",
		"string", "struct", "trace", "typealias", "typedef", "unsigned", "variant", "void",
		"_Bool", "_Complex", "_Imaginary", NULL,
	};
	for (const char *const *k = keywords; *k; k++)
		if (strcmp(*k, s) == 0)
			return true;
	return false;
}

/* "\tKEY = "VALUE";" on a line of its own. */
static int quoted_attr(tc_buf *b, const char *key, const char *value)
{
	int rc = tc_buf_printf(b, "\t%s = ", key);
	if (rc == 0)
		rc = quoted(b, value);
	return rc ? rc : tc_buf_printf(b, ";\n");
}

static const char *byte_order_name(tc_byte_order bo)
{
	return bo == TC_BIG_ENDIAN ? "be" : "le";
}

static int write_integer(tc_buf *b, const tc_field_class *fc)
{
	if (fc->flags & (TC_FIELD_VARLEN | TC_FIELD_BIT_REVERSED))
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a CTF 2 integer layout has no CTF 1.8 metadata");
	int rc = tc_buf_printf(b, "integer { size = %u; align = %u; signed = %s; byte_order = %s; base = %u;",
	                       fc->size, fc->align, fc->is_signed ? "true" : "false", byte_order_name(fc->byte_order),
	                       fc->base ? fc->base : 10);
	if (rc == 0 && fc->has_encoding)
		rc = tc_buf_printf(b, " encoding = UTF8;");
	if (rc == 0 && fc->clock) {
		char id[128];
		ctf_clock_identifier(fc->clock->name, id, sizeof id);
		rc = tc_buf_printf(b, " map = clock.%s.value;", id);
	}
	return rc ? rc : tc_buf_printf(b, " }");
}

static int write_enum(tc_buf *b, const tc_field_class *fc, int depth)
{
	int rc = tc_buf_printf(b, "enum : ");
	if (rc == 0)
		rc = write_integer(b, fc);
	if (rc == 0)
		rc = tc_buf_printf(b, " {\n");
	for (size_t i = 0; i < fc->label_count && rc == 0; i++) {
		const tc_enum_label *l = &fc->labels[i];
		for (size_t r = 0; r < l->range_count && rc == 0; r++) {
			uint64_t lo = l->ranges[r].lo, hi = l->ranges[r].hi;
			rc = indent(b, depth + 1);
			if (rc == 0)
				rc = quoted(b, l->label);
			if (rc == 0 && fc->is_signed)
				rc = lo == hi ? tc_buf_printf(b, " = %" PRId64 ",\n", (int64_t)lo)
				              : tc_buf_printf(b, " = %" PRId64 " ... %" PRId64 ",\n", (int64_t)lo, (int64_t)hi);
			else if (rc == 0)
				rc = lo == hi ? tc_buf_printf(b, " = %" PRIu64 ",\n", lo)
				              : tc_buf_printf(b, " = %" PRIu64 " ... %" PRIu64 ",\n", lo, hi);
		}
	}
	if (rc == 0)
		rc = indent(b, depth);
	return rc ? rc : tc_buf_printf(b, "}");
}

static int write_member(tc_buf *b, const char *name, const tc_field_class *fc, int depth);

static int write_type(tc_buf *b, const tc_field_class *fc, int depth)
{
	switch (fc->kind) {
	case TC_FIELD_INT:
		return write_integer(b, fc);
	case TC_FIELD_ENUM:
		return write_enum(b, fc, depth);
	case TC_FIELD_FLOAT:
		return tc_buf_printf(b, "floating_point { exp_dig = %u; mant_dig = %u; byte_order = %s; align = %u; }",
		                     fc->size == 32 ? 8 : 11, fc->size == 32 ? 24 : 53, byte_order_name(fc->byte_order),
		                     fc->align);
	case TC_FIELD_STRING:
		return tc_buf_printf(b, "string");
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT: {
		int rc = fc->kind == TC_FIELD_STRUCT ? tc_buf_printf(b, "struct {\n")
		         : fc->tag_ref               ? tc_buf_printf(b, "variant <%s> {\n", fc->tag_ref)
		                                     : tc_buf_printf(b, "variant {\n");
		for (size_t i = 0; i < fc->member_count && rc == 0; i++)
			rc = write_member(b, fc->members[i].name, fc->members[i].cls, depth + 1);
		if (rc == 0)
			rc = indent(b, depth);
		if (rc == 0)
			rc = fc->kind == TC_FIELD_STRUCT && fc->align > 1 ? tc_buf_printf(b, "} align(%u)", fc->align)
			                                                  : tc_buf_printf(b, "}");
		return rc;
	}
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		break;
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
	case TC_FIELD_BLOB:
	case TC_FIELD_OPTIONAL:
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a CTF 2 field type has no CTF 1.8 metadata");
	}
	/* an array or sequence */
	return tc_fail(TC_EINVAL, NULL, -1, "an array type has no name to be written with");
}

/* "TYPE NAME[d1][d2];" with the outermost dimension first, as in C. */
static int write_member(tc_buf *b, const char *name, const tc_field_class *fc, int depth)
{
	const tc_field_class *el = fc;
	while (el->kind == TC_FIELD_ARRAY || el->kind == TC_FIELD_SEQUENCE)
		el = el->element;
	int rc = indent(b, depth);
	if (rc == 0)
		rc = write_type(b, el, depth);
	if (rc == 0)
		rc = tc_buf_printf(b, " %s", name);
	for (el = fc; rc == 0 && (el->kind == TC_FIELD_ARRAY || el->kind == TC_FIELD_SEQUENCE); el = el->element)
		rc = el->kind == TC_FIELD_ARRAY ? tc_buf_printf(b, "[%" PRIu64 "]", el->length)
		                                : tc_buf_printf(b, "[%s]", el->length_ref ? el->length_ref : "");
	return rc ? rc : tc_buf_printf(b, ";\n");
}

static int write_scope(tc_buf *b, const char *scope, const tc_field_class *fc)
{
	if (!fc)
		return 0;
	int rc = tc_buf_printf(b, "\t%s := ", scope);
	if (rc == 0)
		rc = write_type(b, fc, 1);
	return rc ? rc : tc_buf_printf(b, ";\n");
}

static int write_env(tc_buf *b, const tc_trace *t)
{
	if (!t->env_count)
		return 0;
	int rc = tc_buf_printf(b, "env {\n");
	for (size_t i = 0; i < t->env_count && rc == 0; i++) {
		const tc_env_entry *e = &t->env[i];
		/* A key made an identifier (CTF 2 keys are any text). */
		char key[256];
		ctf_clock_identifier(e->key ? e->key : "", key, sizeof key);
		rc = tc_buf_printf(b, "\t%s%s = ", ctf_tsdl_is_keyword(key) ? "_" : "", key);
		if (rc == 0)
			rc = e->is_int ? tc_buf_printf(b, "%" PRId64, e->int_value) : quoted(b, e->str_value ? e->str_value : "");
		if (rc == 0)
			rc = tc_buf_printf(b, ";\n");
	}
	return rc ? rc : tc_buf_printf(b, "};\n\n");
}

static int write_clock(tc_buf *b, const tc_clock *c)
{
	char id[128];
	ctf_clock_identifier(c->name, id, sizeof id);
	int rc = tc_buf_printf(b, "clock {\n\tname = %s;\n", id);
	if (rc == 0 && c->has_uuid) {
		char u[37];
		tc_uuid_format(c->uuid, u);
		rc = tc_buf_printf(b, "\tuuid = \"%s\";\n", u);
	}
	if (rc == 0 && c->description)
		rc = quoted_attr(b, "description", c->description);
	if (rc == 0)
		rc = tc_buf_printf(b, "\tfreq = %" PRIu64 ";\n\tprecision = %" PRIu64 ";\n\toffset_s = %" PRId64
		                      ";\n\toffset = %" PRIu64 ";\n\tabsolute = %s;\n};\n\n",
		                   c->freq, c->precision, c->offset_s, c->offset, c->absolute ? "true" : "false");
	return rc;
}

static int write_event_class(tc_buf *b, const tc_event_class *ec, bool stream_ids, uint64_t stream_id)
{
	int rc = tc_buf_printf(b, "event {\n\tname = ");
	/* babeltrace2 shows an empty name as a missing one (CTF 2 allows
	 * none); TSDL requires one. */
	if (rc == 0)
		rc = quoted(b, ec->name ? ec->name : "");
	if (rc == 0)
		rc = tc_buf_printf(b, ";\n\tid = %" PRIu64 ";\n", ec->id);
	if (rc == 0 && stream_ids)
		rc = tc_buf_printf(b, "\tstream_id = %" PRIu64 ";\n", stream_id);
	if (rc == 0 && ec->loglevel >= 0)
		rc = tc_buf_printf(b, "\tloglevel = %d;\n", ec->loglevel);
	if (rc == 0 && ec->emf_uri)
		rc = quoted_attr(b, "model.emf.uri", ec->emf_uri);
	if (rc == 0)
		rc = write_scope(b, "context", ec->context);
	if (rc == 0)
		rc = write_scope(b, "fields", ec->payload);
	return rc ? rc : tc_buf_printf(b, "};\n\n");
}

/* Stream class ids may only be written when packets say which class
 * they belong to (babeltrace2 refuses them otherwise). */
static bool has_stream_ids(const tc_trace *t)
{
	for (size_t i = 0; t->packet_header && i < t->packet_header->member_count; i++)
		if (strcmp(t->packet_header->members[i].name, "stream_id") == 0)
			return true;
	return false;
}

int ctf_tsdl_write(const tc_trace *t, tc_buf *b)
{
	bool stream_ids = has_stream_ids(t);
	int rc = tc_buf_printf(b, "/* CTF 1.8 */\n\ntrace {\n\tmajor = 1;\n\tminor = 8;\n");
	if (rc == 0 && t->has_uuid) {
		char u[37];
		tc_uuid_format(t->uuid, u);
		rc = tc_buf_printf(b, "\tuuid = \"%s\";\n", u);
	}
	if (rc == 0)
		rc = tc_buf_printf(b, "\tbyte_order = le;\n");
	if (rc == 0)
		rc = write_scope(b, "packet.header", t->packet_header);
	if (rc == 0)
		rc = tc_buf_printf(b, "};\n\n");
	if (rc == 0)
		rc = write_env(b, t);
	for (size_t i = 0; i < t->clock_count && rc == 0; i++)
		rc = write_clock(b, t->clocks[i]);
	for (size_t i = 0; i < t->stream_class_count && rc == 0; i++) {
		const tc_stream_class *sc = t->stream_classes[i];
		rc = stream_ids ? tc_buf_printf(b, "stream {\n\tid = %" PRIu64 ";\n", sc->id) : tc_buf_printf(b, "stream {\n");
		if (rc == 0)
			rc = write_scope(b, "packet.context", sc->packet_context);
		if (rc == 0)
			rc = write_scope(b, "event.header", sc->event_header);
		if (rc == 0)
			rc = write_scope(b, "event.context", sc->event_context);
		if (rc == 0)
			rc = tc_buf_printf(b, "};\n\n");
		for (size_t e = 0; e < sc->event_class_count && rc == 0; e++)
			rc = write_event_class(b, sc->event_classes[e], stream_ids, sc->id);
	}
	return rc;
}
