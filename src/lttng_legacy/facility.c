/* SPDX-License-Identifier: MIT */
/*
 * facility.c - the XML facility descriptions of LTTng 0.x (formats 0.4-0.8,
 * doc/formats/lttng-legacy.md §7.3) parsed into payload layouts.
 *
 * Those traces do not describe their events.  A facility_load event names a
 * facility, gives its checksum and the C type sizes its events were written
 * with, and the layouts come from the facility's XML file (eventdefs/NAME.xml).
 * events.c finds the file and the sizes; lg_facility_parse() turns the text
 * into one LG_STRUCT per event whose alignments already follow the genevent
 * rules, so the decoder in layout.c only pads and reads, and computes the
 * checksum facility_load also carries (a mismatch means another version of
 * the file).
 *
 * The tokenizer is hand-written and tolerant, as LTTV's was, because files
 * older than LTTV 0.8.29 are not XML: attribute values are unquoted, some
 * attributes are bare words (`<event name=facility_load per_tracefile>`) and
 * a leaf type may lack its closing slash (`<int size="4">`).  Descriptions,
 * comments and declarations are skipped wherever they stand.  Where the
 * format's documentation is silent, LTTV's parser and reader decide
 * (doc/formats/lttng-legacy.md §10.5, and noted where it matters): a
 * type's `format` enters the checksum, `size` on <int>, <uint> and <enum>
 * is ignored, a typeref must follow its <type> definition.
 *
 * The file may be hostile (a trace brings its own eventdefs/): every read
 * stays inside [text, text + len), type trees are at most MAX_DEPTH deep
 * counting what typerefs bring in (so the decoder may recurse on them), and
 * sizes, counts and checksum text are bounded.
 */
#include "lttng_legacy/legacy.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Levels of lg_type in one event's tree, its payload struct included. */
#define MAX_DEPTH 32
#define MAX_ARRAY_COUNT (1u << 20)
#define MAX_ATTRS 16
/* Real facilities define a handful of types; the bound keeps the linear
 * lookup of typerefs cheap. */
#define MAX_NAMED_TYPES 1024
/* Checksum text of the whole file, which bounds the memory and time its
 * hashing takes: real files make a few kilobytes, but typerefs of typerefs
 * could double it at each level. */
#define MAX_CHECKSUM_TEXT (16u << 20)

typedef struct xml_attr {
	const char *name, *value;   /* value NULL: a bare attribute */
	size_t name_len, value_len;
} xml_attr;

typedef struct xml_tag {
	size_t offset;              /* of its '<' */
	bool closing;               /* </name> */
	bool empty;                 /* <name/> */
	const char *name;
	size_t name_len;
	xml_attr attrs[MAX_ATTRS];
	size_t attr_count;
} xml_tag;

/* A <type name=...> definition, for the typerefs after it. */
typedef struct named_type {
	char *name;
	lg_type *type;
	unsigned depth;
	char *signature;            /* its checksum text, which a typeref repeats */
	size_t signature_len;
} named_type;

typedef struct parser {
	const char *text;
	size_t len, pos;
	const char *path;
	tc_pool *pool;
	lg_sizes sizes;
	tc_buf named;               /* named_type items */
	/* Checksum text of the event or type definition being parsed, in
	 * document order, which is the order §7.3 hashes it in. */
	tc_buf signature;
	size_t signature_total;     /* bytes that went through it */
	uint32_t checksum;
} parser;

static int shown(size_t n)
{
	return n > 64 ? 64 : (int)n;
}

static int fail(parser *p, size_t offset, const char *fmt, ...) TC_PRINTF(3, 4);
static int fail(parser *p, size_t offset, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	unsigned line = 1;
	for (size_t i = 0; i < offset && i < p->len; i++)
		line += p->text[i] == '\n';
	return tc_fail(TC_EFORMAT, p->path, (int64_t)offset, "facility line %u: %s", line, msg);
}

/* ---- checksum (§7.3) ---- */

/* The reflected CRC-32 update (polynomial 0xEDB88320), without the initial
 * and final inversions; bit by bit, which gives what genevent's table gives. */
static uint32_t crc_update(uint32_t crc, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		crc ^= (uint8_t)s[i];
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1)));
	}
	return crc;
}

static int sig_add(parser *p, size_t offset, const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (n > MAX_CHECKSUM_TEXT - p->signature_total)
		return fail(p, offset, "the types expand to more than %u bytes of checksum text", MAX_CHECKSUM_TEXT);
	p->signature_total += n;
	return tc_buf_append(&p->signature, s, n);
}

static int sig_add_str(parser *p, size_t offset, const char *s)
{
	return sig_add(p, offset, s, strlen(s));
}

/* ---- tokenizer ---- */

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || c == '.' || c == ':';
}

static bool starts_with(const parser *p, size_t at, const char *s)
{
	size_t n = strlen(s);
	return n <= p->len - at && memcmp(p->text + at, s, n) == 0;
}

/* The offset of the first S at or after FROM, or p->len. */
static size_t find(const parser *p, size_t from, const char *s)
{
	for (size_t i = from; i < p->len; i++)
		if (starts_with(p, i, s))
			return i;
	return p->len;
}

static void skip_space(parser *p)
{
	while (p->pos < p->len && is_space(p->text[p->pos]))
		p->pos++;
}

static size_t scan_name(const parser *p, size_t at)
{
	size_t end = at;
	while (end < p->len && is_name_char(p->text[end]))
		end++;
	return end;
}

static int read_attr(parser *p, xml_tag *t)
{
	xml_attr a = { .name = p->text + p->pos };
	size_t end = scan_name(p, p->pos);
	if (end == p->pos)
		return fail(p, p->pos, "expected an attribute, '/>' or '>' in <%.*s>", shown(t->name_len), t->name);
	a.name_len = end - p->pos;
	p->pos = end;
	skip_space(p);
	if (p->pos < p->len && p->text[p->pos] == '=') {
		p->pos++;
		skip_space(p);
		char quote = p->pos < p->len ? p->text[p->pos] : '\0';
		if (quote == '"' || quote == '\'') {
			size_t close = p->pos + 1;
			while (close < p->len && p->text[close] != quote)
				close++;
			if (close >= p->len)
				return fail(p, p->pos, "expected a closing %c for the value of %.*s=", quote,
				            shown(a.name_len), a.name);
			a.value = p->text + p->pos + 1;
			a.value_len = close - p->pos - 1;
			p->pos = close + 1;
		} else {
			/* Old files: a bare word, up to a space, '/' or '>'. */
			size_t v = p->pos;
			while (v < p->len && !is_space(p->text[v]) && !strchr("<>/\"'=", p->text[v]))
				v++;
			if (v == p->pos)
				return fail(p, p->pos, "expected a value after %.*s=", shown(a.name_len), a.name);
			a.value = p->text + p->pos;
			a.value_len = v - p->pos;
			p->pos = v;
		}
	}
	if (t->attr_count == MAX_ATTRS)
		return fail(p, (size_t)(a.name - p->text), "more than %d attributes in <%.*s>", MAX_ATTRS,
		            shown(t->name_len), t->name);
	t->attrs[t->attr_count++] = a;
	return 0;
}

/* Reads the tag whose '<' is at p->pos. */
static int read_tag(parser *p, xml_tag *t)
{
	memset(t, 0, sizeof *t);
	t->offset = p->pos++;
	if (p->pos < p->len && p->text[p->pos] == '/') {
		t->closing = true;
		p->pos++;
	}
	size_t end = scan_name(p, p->pos);
	if (end == p->pos)
		return fail(p, t->offset, "expected an element name after '<'");
	t->name = p->text + p->pos;
	t->name_len = end - p->pos;
	p->pos = end;
	for (;;) {
		skip_space(p);
		if (p->pos >= p->len)
			return fail(p, t->offset, "expected '>' to close <%s%.*s>", t->closing ? "/" : "",
			            shown(t->name_len), t->name);
		char c = p->text[p->pos];
		if (c == '>') {
			p->pos++;
			return 0;
		}
		if (c == '/' && !t->closing) {
			if (p->pos + 1 >= p->len || p->text[p->pos + 1] != '>')
				return fail(p, p->pos, "expected '>' after '/' in <%.*s>", shown(t->name_len), t->name);
			t->empty = true;
			p->pos += 2;
			return 0;
		}
		if (t->closing)
			return fail(p, p->pos, "expected '>' to close </%.*s>", shown(t->name_len), t->name);
		int rc = read_attr(p, t);
		if (rc < 0)
			return rc;
	}
}

static bool tag_is(const xml_tag *t, const char *name)
{
	return strlen(name) == t->name_len && memcmp(t->name, name, t->name_len) == 0;
}

static int skip_description(parser *p, const xml_tag *t)
{
	/* Free text, up to the closing tag; LTTV stopped at any '<', which
	 * the text cannot then contain, so this accepts more. */
	size_t end = find(p, p->pos, "</description");
	if (end >= p->len)
		return fail(p, t->offset, "expected </description> to end this description");
	p->pos = end + strlen("</description");
	skip_space(p);
	if (p->pos >= p->len || p->text[p->pos] != '>')
		return fail(p, end, "expected '>' to close </description>");
	p->pos++;
	return 0;
}

/*
 * Reads the next tag, skipping white space, comments, <?...?> and <!...>
 * declarations and <description> elements.  At the end of the text: 0 when
 * EXPECTED is NULL, else an error saying what was expected, as for stray
 * text.  Returns 1 with the tag in *T.
 */
static int next_tag(parser *p, xml_tag *t, const char *expected)
{
	for (;;) {
		skip_space(p);
		if (p->pos >= p->len) {
			if (!expected)
				return 0;
			return fail(p, p->pos, "expected %s, found the end of the file", expected);
		}
		if (p->text[p->pos] != '<')
			return fail(p, p->pos, "expected %s, found text", expected ? expected : "a tag or the end of the file");
		/* Comments, <?xml ...?> and <!DOCTYPE ...>: each up to its end. */
		static const char *const skipped[][3] = {
			{ "<!--", "-->", "comment" }, { "<?", "?>", "declaration" }, { "<!", ">", "declaration" }
		};
		size_t k = 0;
		while (k < 3 && !starts_with(p, p->pos, skipped[k][0]))
			k++;
		if (k < 3) {
			size_t end = find(p, p->pos + strlen(skipped[k][0]), skipped[k][1]);
			if (end >= p->len)
				return fail(p, p->pos, "expected '%s' to end this %s", skipped[k][1], skipped[k][2]);
			p->pos = end + strlen(skipped[k][1]);
			continue;
		}
		int rc = read_tag(p, t);
		if (rc < 0)
			return rc;
		if (!tag_is(t, "description") || t->closing)
			return 1;
		if (!t->empty && (rc = skip_description(p, t)) < 0)
			return rc;
	}
}

/* Old files may write a leaf element as <int size=4>, without the slash,
 * and it has then no closing tag; consumes one if it is there. */
static int skip_leaf_close(parser *p, const xml_tag *open)
{
	if (open->empty)
		return 0;
	size_t save = p->pos;
	xml_tag t;
	int rc = next_tag(p, &t, NULL);
	if (rc < 0)
		return rc;
	if (!(rc > 0 && t.closing && t.name_len == open->name_len && memcmp(t.name, open->name, t.name_len) == 0))
		p->pos = save;
	return 0;
}

static const xml_attr *find_attr(const xml_tag *t, const char *name)
{
	for (size_t i = 0; i < t->attr_count; i++)
		if (strlen(name) == t->attrs[i].name_len && memcmp(t->attrs[i].name, name, t->attrs[i].name_len) == 0)
			return &t->attrs[i];
	return NULL;
}

static bool value_is(const xml_attr *a, const char *s)
{
	return a && a->value && strlen(s) == a->value_len && memcmp(a->value, s, a->value_len) == 0;
}

static int name_attr(parser *p, const xml_tag *t, char **out)
{
	const xml_attr *a = find_attr(t, "name");
	if (!a || !a->value || !a->value_len)
		return fail(p, t->offset, "expected a name=\"...\" attribute in <%.*s>", shown(t->name_len), t->name);
	*out = tc_pool_strndup(p->pool, a->value, a->value_len);
	return *out ? 0 : TC_ENOMEM;
}

/* An integer attribute as LTTV read it (strtol, base 0): decimal, 0x hex or
 * 0 octal, with a sign. */
static int number_attr(parser *p, const xml_tag *t, const xml_attr *a, int64_t *out)
{
	if (!a->value)
		return fail(p, t->offset, "expected a value for %.*s in <%.*s>", shown(a->name_len), a->name,
		            shown(t->name_len), t->name);
	const char *s = a->value, *end = a->value + a->value_len;
	while (s < end && is_space(*s))
		s++;
	while (end > s && is_space(end[-1]))
		end--;
	bool negative = s < end && *s == '-';
	if (s < end && (*s == '-' || *s == '+'))
		s++;
	unsigned base = 10;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (end - s > 1 && s[0] == '0') {
		base = 8;
	}
	uint64_t v = 0;
	const char *digits = s;
	for (; s < end; s++) {
		unsigned d = *s >= '0' && *s <= '9'   ? (unsigned)(*s - '0')
		             : *s >= 'a' && *s <= 'f' ? (unsigned)(*s - 'a' + 10)
		             : *s >= 'A' && *s <= 'F' ? (unsigned)(*s - 'A' + 10)
		                                      : 99;
		if (d >= base || !tc_mul_u64(v, base, &v) || !tc_add_u64(v, d, &v) || v > (uint64_t)INT64_MAX + 1)
			break;
	}
	if (s != end || s == digits || (!negative && v > INT64_MAX))
		return fail(p, t->offset, "expected a 64-bit integer as %.*s= in <%.*s>", shown(a->name_len), a->name,
		            shown(t->name_len), t->name);
	*out = negative ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

/* ---- types ---- */

/* Where a scalar's size comes from. */
typedef enum size_rule { SIZE_FIXED, SIZE_ATTR, SIZE_INT, SIZE_LONG, SIZE_POINTER, SIZE_SIZE_T } size_rule;

typedef struct scalar_def {
	const char *element;
	const char *signature;   /* §7.3's checksum text; NULL: it depends on the size */
	lg_kind kind;
	size_rule size_rule;
	uint8_t size;            /* SIZE_FIXED */
	bool is_signed;
	uint8_t base;
} scalar_def;

static const scalar_def scalars[] = {
	{ "int_fixed", NULL, LG_INT, SIZE_ATTR, 0, true, 10 },
	{ "uint_fixed", NULL, LG_INT, SIZE_ATTR, 0, false, 10 },
	{ "char", "signed char", LG_INT, SIZE_FIXED, 1, true, 10 },
	{ "uchar", "unsigned char", LG_INT, SIZE_FIXED, 1, false, 10 },
	{ "short", "short", LG_INT, SIZE_FIXED, 2, true, 10 },
	{ "ushort", "unsigned short", LG_INT, SIZE_FIXED, 2, false, 10 },
	{ "int", "int", LG_INT, SIZE_INT, 0, true, 10 },
	{ "uint", "uint", LG_INT, SIZE_INT, 0, false, 10 },
	{ "long", "long", LG_INT, SIZE_LONG, 0, true, 10 },
	{ "ulong", "unsigned long", LG_INT, SIZE_LONG, 0, false, 10 },
	{ "size_t", "size_t", LG_INT, SIZE_SIZE_T, 0, false, 10 },
	{ "ssize_t", "ssize_t", LG_INT, SIZE_SIZE_T, 0, true, 10 },
	{ "off_t", "off_t", LG_INT, SIZE_SIZE_T, 0, true, 10 },
	{ "pointer", "void *", LG_INT, SIZE_POINTER, 0, false, 16 },
	{ "float", NULL, LG_FLOAT, SIZE_ATTR, 0, true, 10 },
};

static bool valid_size(int64_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* A C type size from the trace's facility_load. */
static int trace_size(parser *p, size_t offset, size_rule rule, uint8_t *out)
{
	const char *what = rule == SIZE_INT ? "int_size" : rule == SIZE_LONG ? "long_size"
	                 : rule == SIZE_POINTER ? "pointer_size" : "size_t_size";
	uint8_t n = rule == SIZE_INT ? p->sizes.int_size : rule == SIZE_LONG ? p->sizes.long_size
	          : rule == SIZE_POINTER ? p->sizes.pointer_size : p->sizes.size_t_size;
	if (!valid_size(n))
		return fail(p, offset, "the trace's facility_load gives %s %u, not 1, 2, 4 or 8", what, n);
	*out = n;
	return 0;
}

/* genevent realigns to the pointer size after strings and sequences. */
static int pointer_realign(parser *p, size_t offset, uint8_t *out)
{
	uint8_t size = 0;
	int rc = trace_size(p, offset, SIZE_POINTER, &size);
	if (rc < 0)
		return rc;
	*out = lg_align_of(&p->sizes, size);
	return 0;
}

/* LTTV printed integers with the type's printf `format`; of it, only the
 * base is kept (kernel_arch's addresses are "%#x"). */
static uint8_t base_of_format(const xml_attr *format, uint8_t base)
{
	if (!format || !format->value)
		return base;
	const char *pct = memchr(format->value, '%', format->value_len);
	if (!pct)
		return base;
	for (const char *s = pct + 1; s < format->value + format->value_len; s++) {
		if (strchr("#-+ 0123456789.hlLqjzt", *s))
			continue;
		return *s == 'x' || *s == 'X' || *s == 'p' ? 16 : *s == 'o' ? 8 : 10;
	}
	return base;
}

static lg_type *new_type(parser *p, lg_kind kind)
{
	lg_type *t = tc_pool_alloc(p->pool, sizeof *t);
	if (t) {
		t->kind = kind;
		t->align = t->realign = 1;
		t->base = 10;
		t->big_endian = p->sizes.big_endian;
	}
	return t;
}

/* A new type for the element OPEN, and its checksum text: KEYWORD then, as
 * LTTV's getTypeChecksum has it, the `format` attribute if any. */
static int begin_type(parser *p, const xml_tag *open, lg_kind kind, const char *keyword, lg_type **out)
{
	lg_type *t = new_type(p, kind);
	if (!t)
		return TC_ENOMEM;
	/* LTTV also took a bare `network` for it. */
	t->big_endian |= value_is(find_attr(open, "byte_order"), "network") || find_attr(open, "network");
	int rc = sig_add_str(p, open->offset, keyword);
	const xml_attr *format = find_attr(open, "format");
	if (rc == 0 && format && format->value)
		rc = sig_add(p, open->offset, format->value, format->value_len);
	*out = t;
	return rc;
}

static int parse_scalar(parser *p, const xml_tag *open, const scalar_def *def, lg_type **out)
{
	uint8_t size = def->size;
	char keyword[16];
	int rc = 0;
	if (def->size_rule == SIZE_ATTR) {
		const xml_attr *a = find_attr(open, "size");
		int64_t n = 0;
		if (a && (rc = number_attr(p, open, a, &n)) < 0)
			return rc;
		bool is_float = def->kind == LG_FLOAT;
		if (is_float ? n != 4 && n != 8 : !valid_size(n))
			return fail(p, open->offset, "expected size=\"%s\" in <%.*s>",
			            is_float ? "4\" or \"8" : "1\", \"2\", \"4\" or \"8", shown(open->name_len), open->name);
		size = (uint8_t)n;
		if (is_float)
			snprintf(keyword, sizeof keyword, "%s", size == 4 ? "float" : "double");
		else
			snprintf(keyword, sizeof keyword, "%sint%u_t", def->is_signed ? "" : "u", 8u * size);
	} else {
		/* LTTV's reader ignores `size` on <int>, <uint> and the like:
		 * their size is the trace's. */
		if (def->size_rule != SIZE_FIXED && (rc = trace_size(p, open->offset, def->size_rule, &size)) < 0)
			return rc;
		snprintf(keyword, sizeof keyword, "%s", def->signature);
	}
	lg_type *t;
	if ((rc = begin_type(p, open, def->kind, keyword, &t)) < 0)
		return rc;
	t->size = size;
	t->align = lg_align_of(&p->sizes, size);
	t->is_signed = def->is_signed;
	t->base = def->kind == LG_INT ? base_of_format(find_attr(open, "format"), def->base) : 10;
	*out = t;
	return skip_leaf_close(p, open);
}

static int parse_string(parser *p, const xml_tag *open, lg_type **out)
{
	lg_type *t;
	int rc = begin_type(p, open, LG_STRING, "string", &t);
	if (rc < 0 || (rc = pointer_realign(p, open->offset, &t->realign)) < 0)
		return rc;
	*out = t;
	return skip_leaf_close(p, open);
}

static int parse_enum(parser *p, const xml_tag *open, lg_type **out)
{
	lg_type *t;
	uint8_t size = 0;
	/* genevent fixed enums to the target's int, whatever `size` says. */
	int rc = trace_size(p, open->offset, SIZE_INT, &size);
	if (rc < 0 || (rc = begin_type(p, open, LG_ENUM, "enum", &t)) < 0)
		return rc;
	t->size = size;
	t->align = lg_align_of(&p->sizes, size);
	tc_buf labels = { 0 };
	int64_t value = -1;
	while (!open->empty) {
		xml_tag tag;
		if ((rc = next_tag(p, &tag, "<label> or </enum>")) < 0)
			goto out;
		if (tag.closing && tag_is(&tag, "enum"))
			break;
		if (tag.closing || !tag_is(&tag, "label")) {
			rc = fail(p, tag.offset, "expected <label> or </enum>");
			goto out;
		}
		lg_label label = { 0 };
		const xml_attr *a = find_attr(&tag, "value");
		if ((rc = name_attr(p, &tag, &label.name)) < 0 || (a && (rc = number_attr(p, &tag, a, &value)) < 0))
			goto out;
		if (!a && value == INT64_MAX) {
			rc = fail(p, tag.offset, "label value above 2^63 - 1");
			goto out;
		}
		label.value = a ? value : ++value;
		t->is_signed |= label.value < 0;
		if ((rc = sig_add_str(p, tag.offset, label.name)) < 0 ||
		    (rc = tc_buf_append(&labels, &label, sizeof label)) < 0 || (rc = skip_leaf_close(p, &tag)) < 0)
			goto out;
	}
	t->label_count = labels.len / sizeof(lg_label);
	if (t->label_count) {
		if (!(t->labels = tc_pool_alloc(p->pool, labels.len))) {
			rc = TC_ENOMEM;
			goto out;
		}
		memcpy(t->labels, labels.data, labels.len);
	}
	*out = t;
	rc = 0;
out:
	tc_buf_free(&labels);
	return rc;
}

static int parse_type(parser *p, const xml_tag *open, unsigned level, lg_type **out, unsigned *depth);

/* The next tag, which must open a type, parsed at LEVEL. */
static int parse_child_type(parser *p, const char *expected, unsigned level, lg_type **out, unsigned *depth)
{
	xml_tag tag;
	int rc = next_tag(p, &tag, expected);
	if (rc < 0)
		return rc;
	if (tag.closing)
		return fail(p, tag.offset, "expected %s", expected);
	return parse_type(p, &tag, level, out, depth);
}

static int expect_close(parser *p, const char *name, const char *expected)
{
	xml_tag tag;
	int rc = next_tag(p, &tag, expected);
	if (rc < 0)
		return rc;
	if (!tag.closing || !tag_is(&tag, name))
		return fail(p, tag.offset, "expected %s", expected);
	return 0;
}

static int parse_array(parser *p, const xml_tag *open, unsigned level, lg_type **out, unsigned *depth)
{
	const xml_attr *a = find_attr(open, "size");
	int64_t count = 0;
	int rc;
	if (a && (rc = number_attr(p, open, a, &count)) < 0)
		return rc;
	if (count < 1 || count > MAX_ARRAY_COUNT)
		return fail(p, open->offset, "expected size=N in <array>, N from 1 to %u", MAX_ARRAY_COUNT);
	if (open->empty)
		return fail(p, open->offset, "expected the element type inside <array>");
	char keyword[32];
	snprintf(keyword, sizeof keyword, "array %u", (unsigned)count);
	lg_type *t;
	if ((rc = begin_type(p, open, LG_ARRAY, keyword, &t)) < 0 ||
	    (rc = parse_child_type(p, "the element type of <array>", level + 1, &t->element, depth)) < 0 ||
	    (rc = expect_close(p, "array", "</array> after the element type")) < 0)
		return rc;
	t->count = (uint64_t)count;
	t->align = t->element->align;
	++*depth;
	*out = t;
	return 0;
}

static int parse_sequence(parser *p, const xml_tag *open, unsigned level, lg_type **out, unsigned *depth)
{
	if (open->empty)
		return fail(p, open->offset, "expected the length and element types inside <sequence>");
	lg_type *t;
	unsigned length_depth, element_depth;
	int rc = begin_type(p, open, LG_SEQUENCE, "sequence ", &t);
	if (rc < 0 || (rc = parse_child_type(p, "the length type of <sequence>", level + 1, &t->length,
	                                     &length_depth)) < 0)
		return rc;
	if (t->length->kind != LG_INT)
		return fail(p, open->offset, "expected an integer type as the length of <sequence>");
	if ((rc = parse_child_type(p, "the element type of <sequence>", level + 1, &t->element, &element_depth)) < 0 ||
	    (rc = expect_close(p, "sequence", "</sequence> after the length and element types")) < 0 ||
	    (rc = pointer_realign(p, open->offset, &t->realign)) < 0)
		return rc;
	t->align = t->length->align > t->element->align ? t->length->align : t->element->align;
	*depth = 1 + (length_depth > element_depth ? length_depth : element_depth);
	*out = t;
	return 0;
}

/* <field name=...> [<description>] TYPE </field>, OPEN being its first tag:
 * a member at LEVEL, its name and then its type's in the checksum. */
static int parse_field(parser *p, const xml_tag *open, unsigned level, lg_member *m, unsigned *depth)
{
	int rc = name_attr(p, open, &m->name);
	if (rc < 0 || (rc = sig_add_str(p, open->offset, m->name)) < 0)
		return rc;
	if (open->empty)
		return fail(p, open->offset, "expected a type inside <field name=\"%s\">", m->name);
	if ((rc = parse_child_type(p, "a type inside <field>", level, &m->type, depth)) < 0)
		return rc;
	return expect_close(p, "field", "</field> after the field's type");
}

/* The <field> elements up to </CLOSE> as the members of T, at LEVEL. */
static int parse_members(parser *p, const xml_tag *open, const char *close, unsigned level, lg_type *t,
                         unsigned *depth)
{
	char expected[48];
	snprintf(expected, sizeof expected, "<field> or </%s>", close);
	tc_buf members = { 0 };
	unsigned deepest = 0;
	int rc = 0;
	while (!open->empty) {
		xml_tag tag;
		if ((rc = next_tag(p, &tag, expected)) < 0)
			goto out;
		if (tag.closing && tag_is(&tag, close))
			break;
		if (tag.closing || !tag_is(&tag, "field")) {
			rc = fail(p, tag.offset, "expected %s", expected);
			goto out;
		}
		lg_member m = { 0 };
		unsigned d = 0;
		if ((rc = parse_field(p, &tag, level + 1, &m, &d)) < 0 ||
		    (rc = tc_buf_append(&members, &m, sizeof m)) < 0)
			goto out;
		if (m.type->align > t->align)
			t->align = m.type->align;
		if (d > deepest)
			deepest = d;
	}
	*depth = 1 + deepest;
	t->member_count = members.len / sizeof(lg_member);
	if (t->member_count) {
		if (!(t->members = tc_pool_alloc(p->pool, members.len))) {
			rc = TC_ENOMEM;
			goto out;
		}
		memcpy(t->members, members.data, members.len);
	}
out:
	tc_buf_free(&members);
	return rc;
}

static const named_type *find_named(const parser *p, const char *name, size_t len)
{
	const named_type *named = (const named_type *)(const void *)p->named.data;
	for (size_t i = 0; i < p->named.len / sizeof *named; i++)
		if (strlen(named[i].name) == len && memcmp(named[i].name, name, len) == 0)
			return &named[i];
	return NULL;
}

static int parse_typeref(parser *p, const xml_tag *open, lg_type **out, unsigned *depth)
{
	const xml_attr *a = find_attr(open, "name");
	if (!a || !a->value)
		return fail(p, open->offset, "expected a name=\"...\" attribute in <typeref>");
	/* LTTV required the definition first, which also rules out cycles. */
	const named_type *n = find_named(p, a->value, a->value_len);
	if (!n)
		return fail(p, open->offset, "no <type name=\"%.*s\"> before this typeref", shown(a->value_len),
		            a->value);
	int rc = sig_add(p, open->offset, n->signature, n->signature_len);
	if (rc < 0)
		return rc;
	*out = n->type;
	*depth = n->depth;
	return skip_leaf_close(p, open);
}

static int parse_type_element(parser *p, const xml_tag *open, unsigned level, lg_type **out, unsigned *depth)
{
	*depth = 1;
	for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
		if (tag_is(open, scalars[i].element))
			return parse_scalar(p, open, &scalars[i], out);
	if (tag_is(open, "string"))
		return parse_string(p, open, out);
	if (tag_is(open, "enum"))
		return parse_enum(p, open, out);
	if (tag_is(open, "typeref"))
		return parse_typeref(p, open, out, depth);
	if (tag_is(open, "array"))
		return parse_array(p, open, level, out, depth);
	if (tag_is(open, "sequence"))
		return parse_sequence(p, open, level, out, depth);
	bool is_union = tag_is(open, "union");
	if (is_union || tag_is(open, "struct")) {
		lg_type *t;
		const char *name = is_union ? "union" : "struct";
		int rc = begin_type(p, open, is_union ? LG_UNION : LG_STRUCT, name, &t);
		if (rc < 0 || (rc = parse_members(p, open, name, level, t, depth)) < 0)
			return rc;
		*out = t;
		return 0;
	}
	return fail(p, open->offset, "expected a type, not <%.*s>", shown(open->name_len), open->name);
}

/* The type element OPEN into *OUT; LEVEL: its distance from the payload
 * struct (1 for a field of an event); *DEPTH: the levels of its own tree,
 * typerefs included.  A type at LEVEL deepens its event's tree to at least
 * LEVEL + *DEPTH. */
static int parse_type(parser *p, const xml_tag *open, unsigned level, lg_type **out, unsigned *depth)
{
	int rc = level < MAX_DEPTH ? parse_type_element(p, open, level, out, depth) : 0;
	if (rc == 0 && (level >= MAX_DEPTH || level + *depth > MAX_DEPTH))
		return fail(p, open->offset, "types nested more than %d deep", MAX_DEPTH);
	return rc;
}

/* ---- facility ---- */

static int parse_type_definition(parser *p, const xml_tag *open)
{
	named_type n = { 0 };
	int rc = name_attr(p, open, &n.name);
	if (rc < 0)
		return rc;
	if (find_named(p, n.name, strlen(n.name)))
		return fail(p, open->offset, "type \"%s\" is defined twice", n.name);
	if (p->named.len / sizeof n == MAX_NAMED_TYPES)
		return fail(p, open->offset, "more than %d <type> definitions", MAX_NAMED_TYPES);
	if (open->empty)
		return fail(p, open->offset, "expected a type inside <type name=\"%s\">", n.name);
	p->signature.len = 0;
	if ((rc = parse_child_type(p, "a type inside <type>", 1, &n.type, &n.depth)) < 0 ||
	    (rc = expect_close(p, "type", "</type> after the type")) < 0)
		return rc;
	n.signature_len = p->signature.len;
	if (n.signature_len && !(n.signature = tc_pool_strndup(p->pool, p->signature.data, n.signature_len)))
		return TC_ENOMEM;
	return tc_buf_append(&p->named, &n, sizeof n);
}

static bool has_word(const xml_attr *a, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; a->value && i + n <= a->value_len; i++)
		if (memcmp(a->value + i, word, n) == 0 && (i == 0 || !is_name_char(a->value[i - 1])) &&
		    (i + n == a->value_len || !is_name_char(a->value[i + n])))
			return true;
	return false;
}

static int parse_event(parser *p, const xml_tag *open, lg_facility_event *ev)
{
	int rc = name_attr(p, open, &ev->name);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < open->attr_count; i++) {
		const xml_attr *a = &open->attrs[i];
		if ((a->name_len == 9 && memcmp(a->name, "attribute", 9) == 0 && has_word(a, "compact_data")) ||
		    (a->name_len == 12 && memcmp(a->name, "compact_data", 12) == 0 && !a->value))
			ev->compact_data = true;
	}
	p->signature.len = 0;
	if ((rc = sig_add_str(p, open->offset, ev->name)) < 0)
		return rc;
	if (!(ev->payload = new_type(p, LG_STRUCT)))
		return TC_ENOMEM;
	unsigned depth;
	if ((rc = parse_members(p, open, "event", 0, ev->payload, &depth)) < 0)
		return rc;
	p->checksum = crc_update(p->checksum, p->signature.data, p->signature.len);
	return 0;
}

static int parse_facility(parser *p, lg_facility *fac, tc_buf *events)
{
	xml_tag open;
	int rc = next_tag(p, &open, "<facility>");
	if (rc < 0)
		return rc;
	if (open.closing || !tag_is(&open, "facility"))
		return fail(p, open.offset, "expected <facility>");
	if ((rc = name_attr(p, &open, &fac->name)) < 0)
		return rc;
	/* align="0" (the compact facility): genevent wrote it packed,
	 * whatever the trace's alignment. */
	const xml_attr *align = find_attr(&open, "align");
	int64_t n;
	if (align && (rc = number_attr(p, &open, align, &n)) < 0)
		return rc;
	if (align && n == 0)
		p->sizes.alignment = 0;
	p->checksum = ~crc_update(0xFFFFFFFFu, fac->name, strlen(fac->name));
	while (!open.empty) {
		xml_tag tag;
		if ((rc = next_tag(p, &tag, "<event>, <type> or </facility>")) < 0)
			return rc;
		if (tag.closing && tag_is(&tag, "facility"))
			break;
		if (tag.closing || !(tag_is(&tag, "event") || tag_is(&tag, "type")))
			return fail(p, tag.offset, "expected <event>, <type> or </facility>");
		if (tag_is(&tag, "type")) {
			if ((rc = parse_type_definition(p, &tag)) < 0)
				return rc;
			continue;
		}
		lg_facility_event ev = { 0 };
		if ((rc = parse_event(p, &tag, &ev)) < 0 || (rc = tc_buf_append(events, &ev, sizeof ev)) < 0)
			return rc;
	}
	if ((rc = next_tag(p, &open, NULL)) != 0)
		return rc < 0 ? rc : fail(p, open.offset, "expected nothing after </facility>");
	fac->checksum = p->checksum;
	fac->event_count = events->len / sizeof(lg_facility_event);
	if (fac->event_count) {
		if (!(fac->events = tc_pool_alloc(p->pool, events->len)))
			return TC_ENOMEM;
		memcpy(fac->events, events->data, events->len);
	}
	return 0;
}

int lg_facility_parse(tc_pool *pool, const char *path, const char *text, size_t len, const lg_sizes *sizes,
                      lg_facility **out)
{
	parser p = { .text = text, .len = len, .path = path, .pool = pool, .sizes = *sizes };
	tc_buf events = { 0 };
	lg_facility *fac = tc_pool_alloc(pool, sizeof *fac);
	int rc = fac ? parse_facility(&p, fac, &events) : TC_ENOMEM;
	tc_buf_free(&events);
	tc_buf_free(&p.named);
	tc_buf_free(&p.signature);
	if (rc < 0)
		return rc;
	*out = fac;
	return 0;
}
