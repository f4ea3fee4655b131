/* SPDX-License-Identifier: MIT */
/*
 * writer.c - tc_ctf_writer: messages of any input encoded into new CTF
 * packets (CTF 1.8, or CTF 2 with ctf_version 2), with LTTng's packet and
 * event-header layouts (tracecat.h says what the trace looks like).
 *
 * At creation every input class gets an output class: the same tree with
 * little-endian numbers, text arrays and sequences as strings, and names
 * spelled so that a reader shows what the model shows.  Encoding walks a
 * decoded field tree beside its output class.  Each output stream keeps
 * one packet in memory, bounded by the packet size, and appends it to its
 * file when full, when its visible packet context changes, or when events
 * were lost (a new packet carries the new discarded-event total, which is
 * how CTF says so).  The metadata is written last, by finish.
 *
 * CTF 1.8 output (conv_class): names are made TSDL identifiers ("_" and
 * the shown name with other characters as '_', unique).  CTF 2 inputs
 * have kinds CTF 1.8 lacks; each becomes the nearest CTF 1.8 type:
 * booleans and bit arrays become unsigned integers (base 16 for bit
 * arrays; a bit map's flag names are lost), LEB128 integers 64-bit ones,
 * strings of any encoding UTF-8 `string`s, BLOBs arrays or sequences of
 * hexadecimal bytes.  An optional or a variant selected by integer ranges
 * becomes a structure { tag; value } whose `tag`, a generated enumeration
 * (one label per option; "none" and "some" for an optional), selects the
 * `value` variant's option: babeltrace2 2.0.4 then shows `o = { tag = (
 * "some" : container = 1 ), value = { 42 } }` where 2.1.2 shows `o = { 42
 * }`, and an absent optional as `value = { { } }` (its "none" option, an
 * empty structure).  TSDL cannot select by a plain integer, by ranges,
 * nor name a tag outside the variant's scope, so the tag has to be written
 * next to it; the structure keeps it with its variant wherever that is (in
 * arrays, in other variants), and a sequence of 0 or 1 element would need
 * such a generated length as well while showing `[ [0] = 42 ]`, further
 * from 2.1.2's text.  A static array keeps its element's alignment (TSDL
 * has no other), a structure the largest of its members'.
 *
 * CTF 2 output (conv_class2) keeps CTF 2's kinds as they are: booleans,
 * bit arrays and bit maps (with their flags), BLOBs, optionals and
 * variants selected by ranges, with the input's sizes and alignments in
 * little-endian byte order and the default bit order; LEB128 integers
 * become 64-bit fixed-length ones and strings of any encoding UTF-8
 * null-terminated ones, as babeltrace2's own writer does (it shows the
 * same text).  Names are written as the model shows them, and fields the
 * model hides (CTF 2 fields with roles, CTF 1.8's clock-mapped integers)
 * are left out, so that babeltrace2 2.1.2 shows what it shows of the
 * input: a structure left with no member is `{ }`, as there.  The output
 * classes carry a plan (out_info) with their roles and where their length
 * or selector is, which json_write.c writes as field locations.
 *
 * Lengths and selectors: a sequence (dynamic BLOB; CTF 2: optional,
 * variant) keeps its key field when the output has it where a reader can
 * find it (CTF 1.8: as a sibling, by name, or by an absolute path through
 * structures and arrays; CTF 2: anywhere before it, through structures,
 * arrays, optionals and the variant holding it, with the output's
 * indexes).  A key in a scope the writer replaces (the packet and event
 * headers), or one the output cannot reach, is written again as a member
 * "lengthN" of the output's event header (of its packet header for the
 * packet context's fields), which readers never show: a length, 1 for a
 * present optional, or the option of a variant (whose ranges become
 * [N, N]).  CTF 1.8 output does so for lengths in the replaced scopes
 * only; any other one it cannot name (CTF 2 lengths behind a variant, or
 * that are variants) makes the sequence a structure { length;
 * value[length] } of its own.  (babeltrace2 logs a warning about such a
 * user field of an event header, and ignores it.)
 */
#include "ctf/ctf_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define DEFAULT_PACKET_SIZE (256u * 1024)
#define CTF_MAGIC 0xC1FC1FC1u

/* The packet header: magic, the trace UUID (when the trace has one: a
 * trace read without one keeps none, which readers order traces by),
 * stream_id, stream_instance_id, then the 64-bit keys of packet context
 * fields (see the top); all packed, little-endian. */
#define HEADER_FIXED_BYTES(w) ((w)->out.has_uuid ? 32u : 16u)
#define HEADER_BYTES(w) (HEADER_FIXED_BYTES(w) + 8 * (w)->pkt_key_count)

typedef struct out_stream_class {
	tc_stream_class pub;
	const tc_stream_class *src;
	/* Keys the output's event header carries (see the top): what each
	 * is the key of (NULL: one field's own), and their count. */
	const char **extra_keys;
	size_t extra_count;
	bool compact;                /* 5-bit ids; else 16-bit */
	bool full_times;             /* fields other than the header set the clock */
	/* the input's visible packet context members: their indexes, after
	 * the writer's own PC_SPECIALS members */
	size_t *pc_members;
	size_t pc_member_count;
	size_t pc_specials;
	bool *pc_number;             /* per member: whether it is a number */
	bool pc_deep;                /* one of them is not a number */
	atomic_bool *used;           /* per event class: written at least once */
	size_t ts_end_off;           /* byte offsets in the packet context of */
	size_t content_off;          /* fields patched when a packet ends */
} out_stream_class;

typedef struct out_stream {
	const tc_stream *src;
	out_stream_class *sc;
	char *path;
	int fd;
	uint64_t file_bytes;
	uint8_t *buf;
	size_t cap;
	uint64_t pos;                /* bits from the packet start */
	bool in_packet;
	size_t events_in_packet;
	uint64_t ts_begin, last_ts;
	uint64_t seq, discarded;
	/* Losses before the first packet: CTF counts them from a previous
	 * packet, so an empty one counting none goes first. */
	bool lead_packet;
	/* The packet being written: whether it has an input packet context,
	 * the numbers of its visible members (the others are compared as
	 * encoded), and their bytes. */
	bool has_context;
	uint64_t *context_values;
	size_t context_start, context_end;
	/* Where context_changed() encodes the others to compare them: all
	 * zeros between uses, as reserve() leaves a buffer. */
	uint8_t *cmp_buf;
	size_t cmp_cap;
	/* The packet header's keys: where they are (bits from the packet
	 * start), and their values (w->pkt_key_count). */
	uint64_t pkt_key_pos;
	uint64_t *pkt_key_val;
	/* The event being written: where its header's lengths are (bits from
	 * the packet start), and their values (sc->extra_count). */
	uint64_t extra_pos;
	uint64_t *extra_val;
	/* what the layout check (fit.c) needs of the message being written */
	ctf_fit fit;
} out_stream;

/* Pointer -> index, open addressing. */
typedef struct ptr_map {
	const void **keys;
	size_t *values;
	size_t cap, count;
} ptr_map;

struct tc_ctf_writer {
	char *dir;
	tc_trace out;
	tc_pool pool;
	size_t packet_size;
	int ctf_version;              /* of the metadata written: 1 or 2 */
	out_stream_class **classes;
	size_t class_count;
	ptr_map class_of;            /* input stream class -> classes index */
	ptr_map event_id;            /* input event class -> output id */
	out_stream **streams;
	size_t stream_count;
	ptr_map stream_of;           /* input stream -> streams index */
	ptr_map names_of;            /* input structure (| 1: as a packet
	                                context) -> its members' output names */
	size_t pkt_key_count;        /* the packet header's keys (see the top) */
	uint64_t serial;             /* tells writers apart in last_stream */
	pthread_mutex_t streams_lock; /* streams, stream_of, file_names after tc_ctf_writer_new */
	atomic_uint_least64_t bytes;
	char **file_names;
	size_t file_name_count;
};

/* ---- pointer maps ---- */

static int map_put(ptr_map *m, const void *key, size_t value)
{
	if ((m->count + 1) * 2 > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		const void **keys = calloc(cap, sizeof *keys);
		size_t *values = calloc(cap, sizeof *values);
		if (!keys || !values) {
			free(keys);
			free(values);
			return tc_fail_nomem();
		}
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->keys[i])
				continue;
			size_t h = tc_ptr_hash(m->keys[i], cap);
			while (keys[h])
				h = (h + 1) & (cap - 1);
			keys[h] = m->keys[i];
			values[h] = m->values[i];
		}
		free(m->keys);
		free(m->values);
		m->keys = keys;
		m->values = values;
		m->cap = cap;
	}
	size_t h = tc_ptr_hash(key, m->cap);
	while (m->keys[h] && m->keys[h] != key)
		h = (h + 1) & (m->cap - 1);
	if (!m->keys[h])
		m->count++;
	m->keys[h] = key;
	m->values[h] = value;
	return 0;
}

static bool map_get(const ptr_map *m, const void *key, size_t *value)
{
	if (!m->cap)
		return false;
	size_t h = tc_ptr_hash(key, m->cap);
	while (m->keys[h]) {
		if (m->keys[h] == key) {
			*value = m->values[h];
			return true;
		}
		h = (h + 1) & (m->cap - 1);
	}
	return false;
}

static void map_free(ptr_map *m)
{
	free(m->keys);
	free(m->values);
}

/* ---- output classes ---- */

/* Whether a field of KIND holds a number (its v.u). */
static bool is_number_kind(tc_field_kind k)
{
	return k == TC_FIELD_INT || k == TC_FIELD_ENUM || k == TC_FIELD_BOOL || k == TC_FIELD_BIT_ARRAY;
}

static tc_field_class *new_class(tc_ctf_writer *w, tc_field_kind kind, unsigned align)
{
	tc_field_class *fc = tc_pool_new_class(&w->pool, kind, align);
	if (fc) {
		fc->byte_order = TC_LITTLE_ENDIAN;
		fc->base = 10;
	}
	return fc;
}

static tc_field_class *int_class(tc_ctf_writer *w, unsigned size, unsigned align, const tc_clock *clock)
{
	tc_field_class *fc = new_class(w, TC_FIELD_INT, align);
	if (fc) {
		fc->size = size;
		fc->clock = clock;
	}
	return fc;
}

/* ---- names ---- */

/* Packet context names a reader gives a meaning to (CTF 1.8 §5.2;
 * doc/formats/ctf.md §3.6). */
static const char *const packet_context_specials[] = {
	"timestamp_begin", "timestamp_end", "content_size", "packet_size", "packet_seq_num",
	"events_discarded", NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* Whether S can be written as a TSDL field name. */
static bool is_identifier(const char *s)
{
	if (!ctf_tsdl_ident_char(s[0], true))
		return false;
	for (const char *c = s + 1; *c; c++)
		if (!ctf_tsdl_ident_char(*c, false))
			return false;
	return !ctf_tsdl_is_keyword(s);
}

/* What a CTF reader shows for field name N: one leading '_' dropped. */
static const char *shown_as(const char *n)
{
	return n[0] == '_' ? n + 1 : n;
}

/* Whether C, as name or as shown, is one of NAMES[] (but NAMES[SELF]),
 * or shown as one: babeltrace2 refuses a member whose name is one that an
 * earlier member is shown as (doc/formats/ctf.md §3.3). */
static bool name_clash(char *const *names, size_t n, size_t self, const char *c)
{
	for (size_t j = 0; j < n; j++) {
		if (j == self || !names[j])
			continue;
		if (strcmp(c, names[j]) == 0 || strcmp(shown_as(c), shown_as(names[j])) == 0 ||
		    strcmp(c, shown_as(names[j])) == 0 || strcmp(shown_as(c), names[j]) == 0)
			return true;
	}
	return false;
}

/* "_" and TEXT with every character that cannot be in an identifier made
 * '_' (a reader shows it without the '_'), then SUFFIX. */
static char *escaped_name(tc_ctf_writer *w, const char *text, const char *suffix)
{
	size_t n = strlen(text), k = strlen(suffix);
	char *s = tc_pool_alloc(&w->pool, n + k + 2);
	if (!s)
		return NULL;
	s[0] = '_';
	for (size_t i = 0; i < n; i++)
		s[i + 1] = ctf_tsdl_ident_char(text[i], false) ? text[i] : '_';
	memcpy(s + n + 1, suffix, k + 1);
	return s;
}

/* The names the N members M of an input structure (or CTF 1.8 variant)
 * are written with: each member's own name when a reader shows it as the
 * model does (every CTF 1.8 name), else "_" and what the model shows, made
 * an identifier and unique ("_2", "_3"... added).  PACKET_CONTEXT: none
 * may be shown as a special packet context field. */
static char **out_names(tc_ctf_writer *w, const tc_field_class *st, bool packet_context)
{
	const void *key = (const char *)st + packet_context;
	size_t v;
	if (map_get(&w->names_of, key, &v))
		return (char **)(uintptr_t)v;
	size_t n = st->member_count;
	const tc_member *m = st->members;
	char **names = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *names);
	if (!names)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *name = m[i].name ? m[i].name : "";
		const char *shown = m[i].display_name ? m[i].display_name : name;
		if (strcmp(shown_as(name), shown) == 0 && is_identifier(name) &&
		    !(packet_context && in_list(packet_context_specials, shown)))
			names[i] = (char *)name;
	}
	for (size_t i = 0; i < n; i++) {
		if (names[i])
			continue;
		const char *shown = m[i].display_name ? m[i].display_name : m[i].name ? m[i].name : "";
		char *base = escaped_name(w, shown, "");
		if (base && packet_context && in_list(packet_context_specials, base + 1))
			base = escaped_name(w, shown, "_");
		char *c = base;
		for (unsigned k = 2; c && name_clash(names, n, i, c); k++) {
			char suffix[16];
			snprintf(suffix, sizeof suffix, "_%u", k);
			c = escaped_name(w, shown, suffix);
		}
		if (!c)
			return NULL;
		names[i] = c;
	}
	if (map_put(&w->names_of, key, (size_t)(uintptr_t)names) < 0)
		return NULL;
	return names;
}

/* C (NULL: none), or the first of C_2, C_3... that is none of NAMES[0]
 * to NAMES[I - 1]; with EMPTY_OK, "" clashes with nothing. NULL when out
 * of memory. */
static char *unique_name(tc_ctf_writer *w, char *const *names, size_t i, char *c, bool empty_ok)
{
	const char *base = c;
	for (unsigned k = 2; c; k++) {
		size_t j = 0;
		while (j < i && (strcmp(names[j], c) != 0 || (empty_ok && !*c)))
			j++;
		if (j == i)
			break;
		size_t len = strlen(base) + 16;
		if ((c = tc_pool_alloc(&w->pool, len)))
			snprintf(c, len, "%s_%u", base, k);
	}
	return c;
}

/* The option names of a variant written for a CTF 2 one, which its tag's
 * labels repeat: identifiers that do not start with '_' (babeltrace 1.5
 * matches those to labels wrongly), unique; "optionN" for the others. */
static char **option_names(tc_ctf_writer *w, const tc_field_class *src)
{
	size_t n = src->member_count;
	char **names = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *names);
	if (!names)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *name = src->members[i].name ? src->members[i].name : "";
		char buf[32];
		if (!is_identifier(name) || name[0] == '_') {
			snprintf(buf, sizeof buf, "option%zu", i);
			name = buf;
		}
		char *c = unique_name(w, names, i, tc_pool_strdup(&w->pool, name), false);
		if (!c)
			return NULL;
		names[i] = c;
	}
	return names;
}

static bool has_inner_clock(const tc_field_class *fc)
{
	if (!fc)
		return false;
	if (fc->clock)
		return true;
	for (size_t i = 0; i < fc->member_count; i++)
		if (has_inner_clock(fc->members[i].cls))
			return true;
	return fc->element && has_inner_clock(fc->element);
}

/* ---- output classes ---- */

/* What encoding must know of an output class beyond the model (its
 * priv; NULL for most). */
typedef enum out_kind {
	OUT_PLAIN,
	OUT_KEY_IN_HEADER,        /* its length (ARRAY, SEQUENCE, BLOB) or, CTF 2,
	                             selector (OPTIONAL: 1 when present; VARIANT:
	                             the option) is header key EXTRA (see the top) */
	OUT_WRAP_VARIANT,         /* STRUCT { tag; value } for a CTF 2 variant */
	OUT_WRAP_OPTIONAL,        /* STRUCT { tag; value } for an optional */
	OUT_WRAP_LENGTH           /* STRUCT { length; value[length] } for a sequence or BLOB */
} out_kind;

typedef struct out_info {
	out_kind kind;
	bool packet_key;          /* OUT_KEY_IN_HEADER: in the packet header */
	size_t extra;
	/* CTF 2 STRUCT: the input member of each member, when hidden input
	 * members were left out (NULL otherwise). */
	const size_t *src_index;
	/* STRUCT: its first run_len members are whole-byte integers, each at
	 * run_offset[i] bytes from the structure's start (which is aligned
	 * for all of them): encoded with one reservation, a store each. */
	uint32_t run_len, run_bytes;
	const uint32_t *run_offset;
} out_info;

/* FC's out_info, made when it has none; NULL when out of memory. */
static out_info *info_of(tc_ctf_writer *w, tc_field_class *fc)
{
	if (!fc->priv)
		fc->priv = tc_pool_alloc(&w->pool, sizeof(out_info));
	return fc->priv;
}

/* Whether output class FC is an integer put_bits stores as one word. */
static bool is_whole_int(const tc_field_class *fc)
{
	const out_info *i = fc->priv;
	return (fc->kind == TC_FIELD_INT || fc->kind == TC_FIELD_ENUM || fc->kind == TC_FIELD_BIT_ARRAY) &&
	       (!i || i->kind == OUT_PLAIN) && fc->align % 8 == 0 && fc->size % 8 == 0 && fc->size >= 8 &&
	       fc->size <= 64;
}

/* Plans the leading run of structure FC's whole-byte integers (see
 * out_info); 0 or TC_ENOMEM. */
static int plan_run(tc_ctf_writer *w, tc_field_class *fc)
{
	size_t n = 0;
	while (n < fc->member_count && n < UINT32_MAX && is_whole_int(fc->members[n].cls))
		n++;
	if (n == 0)
		return 0;
	out_info *info = info_of(w, fc);
	uint32_t *offset = tc_pool_alloc(&w->pool, n * sizeof *offset);
	if (!info || !offset)
		return TC_ENOMEM;
	uint64_t pos = 0;
	for (size_t i = 0; i < n; i++) {
		const tc_field_class *m = fc->members[i].cls;
		pos = (pos + m->align - 1) & ~(uint64_t)(m->align - 1);
		if (pos / 8 > UINT32_MAX / 2)
			break;
		offset[i] = (uint32_t)(pos / 8);
		pos += m->size;
		info->run_len = (uint32_t)(i + 1);
		info->run_bytes = (uint32_t)(pos / 8);
	}
	info->run_offset = offset;
	return 0;
}

static int set_info(tc_ctf_writer *w, tc_field_class *fc, out_kind kind, size_t extra)
{
	out_info *i = info_of(w, fc);
	if (!i)
		return TC_ENOMEM;
	i->kind = kind;
	i->extra = extra;
	return 0;
}

/* CTF 2 output: FC, one of the writer's own fields, has ROLE, which
 * json_write.c writes. */
static int set_role(tc_ctf_writer *w, tc_field_class *fc, tc_field_role role)
{
	if (w->ctf_version == 2 && fc)
		fc->role = role;
	return 0;
}

/* CTF 2 output: FC's length or selector is the field at the N steps PATH
 * from the root of SCOPE of the output (its tc_field_class.ref, which
 * json_write.c writes as its location). */
static int set_ref(tc_ctf_writer *w, tc_field_class *fc, tc_scope scope, const uint16_t *path, size_t n)
{
	uint16_t *p = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *p);
	if (!p)
		return TC_ENOMEM;
	memcpy(p, path, n * sizeof *p);
	fc->ref = (tc_field_path){ scope, p, n, NULL };
	return 0;
}

#define CONV_MAX_PATH 256

/* The innermost input structure enclosing the class being converted,
 * through arrays only. */
typedef struct conv_struct {
	const tc_field_class *cls;
	char **names;             /* its members' output names */
	size_t path_len;          /* steps from the scope's root to it */
	size_t child;             /* the member being converted */
} conv_struct;

/* Where out_class stands: which input scope, and the path from its root
 * in the steps of a tc_field_path (member indexes, TC_PATH_ELEMENT, TC_PATH_SELECTED). */
typedef struct conv {
	tc_ctf_writer *w;
	out_stream_class *sc;
	tc_layout layout;                        /* the input's */
	const tc_field_class *roots[TC_SCOPE_COUNT]; /* the input's scopes */
	tc_scope scope;
	const conv_struct *inner;                /* NULL past a variant or optional */
	uint16_t path[CONV_MAX_PATH];
	size_t path_len;
} conv;

static const char *const scope_prefixes[TC_SCOPE_COUNT] = {
	"trace.packet.header.", "stream.packet.context.", "stream.event.header.",
	"stream.event.context.", "event.context.", "event.fields.",
};

static tc_field_class *conv_class(conv *cv, const tc_field_class *src);

/* Converts CLS, reached from the current position by STEP, into *OUT. */
static int conv_child(conv *cv, uint16_t step, const conv_struct *inner, const tc_field_class *cls,
                      tc_field_class **out)
{
	if (cv->path_len >= CONV_MAX_PATH)
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "fields nested too deeply to be written");
	const conv_struct *saved = cv->inner;
	cv->path[cv->path_len++] = step;
	cv->inner = inner;
	*out = conv_class(cv, cls);
	cv->inner = saved;
	cv->path_len--;
	return *out ? 0 : (tc_error_last()->code ? tc_error_last()->code : TC_ENOMEM);
}

/* Whether REF (an input's resolved reference) names a field the output
 * does not have where the input has it: in the packet or event header, or
 * a hidden packet context member. */
static bool ref_replaced(const conv *cv, const tc_field_path *ref)
{
	if (ref->scope == TC_SCOPE_PACKET_HEADER || ref->scope == TC_SCOPE_EVENT_HEADER)
		return true;
	if (ref->scope != TC_SCOPE_PACKET_CONTEXT)
		return false;
	const tc_field_class *pc = cv->roots[TC_SCOPE_PACKET_CONTEXT];
	return !pc || !ref->len || ref->steps[0] >= pc->member_count ||
	       (pc->members[ref->steps[0]].cls->flags & TC_FIELD_HIDDEN);
}

/* The output name of an earlier member of the innermost structure when
 * REF refers to it: a relative reference both CTF 1.8 readers resolve to
 * it. */
static const char *sibling_ref(const conv *cv, const tc_field_path *ref)
{
	const conv_struct *in = cv->inner;
	if (!in || ref->scope != cv->scope || ref->len != in->path_len + 1)
		return NULL;
	if (memcmp(ref->steps, cv->path, in->path_len * sizeof *cv->path) != 0)
		return NULL;
	size_t i = ref->steps[in->path_len];
	return i < in->child ? in->names[i] : NULL;
}

/* REF as an absolute TSDL path through structures and arrays, in the
 * output's names; NULL when it crosses anything else. */
static char *absolute_ref(conv *cv, const tc_field_path *ref)
{
	const tc_field_class *c = ref->scope < TC_SCOPE_COUNT ? cv->roots[ref->scope] : NULL;
	tc_buf b = { 0 };
	bool ok = c && tc_buf_printf(&b, "%s", scope_prefixes[ref->scope]) == 0;
	for (size_t i = 0; ok && i < ref->len; i++) {
		uint16_t step = ref->steps[i];
		if ((c->kind == TC_FIELD_ARRAY || c->kind == TC_FIELD_SEQUENCE) && step == TC_PATH_ELEMENT) {
			c = c->element;
		} else if (c->kind == TC_FIELD_STRUCT && step < c->member_count) {
			char **names = out_names(cv->w, c, i == 0 && ref->scope == TC_SCOPE_PACKET_CONTEXT);
			ok = names && tc_buf_printf(&b, "%s%s", b.data[b.len - 1] == '.' ? "" : ".", names[step]) == 0;
			c = c->members[step].cls;
		} else {
			ok = false;
		}
	}
	ok = ok && (c->kind == TC_FIELD_INT || c->kind == TC_FIELD_ENUM);
	char *s = ok ? tc_pool_strdup(&cv->w->pool, b.data) : NULL;
	tc_buf_free(&b);
	return s;
}

/* A key of the writer's own for OC (see the top), the output of a field
 * at CV's position: in the packet header for the packet context's fields,
 * else in the event header, shared with the other fields whose key is
 * SHARED (NULL: none); its index in *K and whether in the packet header
 * in *PACKET. */
static int header_key(conv *cv, const char *shared, tc_field_class *oc, size_t *k, bool *packet)
{
	tc_ctf_writer *w = cv->w;
	*packet = cv->scope <= TC_SCOPE_PACKET_CONTEXT;
	if (*packet) {
		*k = w->pkt_key_count++;
	} else {
		out_stream_class *sc = cv->sc;
		*k = 0;
		while (*k < sc->extra_count && !(shared && sc->extra_keys[*k] && strcmp(sc->extra_keys[*k], shared) == 0))
			(*k)++;
		if (*k == sc->extra_count) {
			const char **keys = tc_pool_alloc(&w->pool, (*k + 1) * sizeof *keys);
			if (!keys)
				return TC_ENOMEM;
			if (*k)
				memcpy(keys, sc->extra_keys, *k * sizeof *keys);
			keys[*k] = shared;
			sc->extra_keys = keys;
			sc->extra_count = *k + 1;
		}
	}
	int rc = set_info(w, oc, OUT_KEY_IN_HEADER, *k);
	if (rc == 0)
		((out_info *)oc->priv)->packet_key = *packet;
	return rc;
}

/* The length reference of OC, the output of sequence or dynamic BLOB
 * SRC: set on OC (or OC's length moved to a header), or *WRAP set when OC
 * needs a length of its own. */
static int conv_length(conv *cv, const tc_field_class *src, tc_field_class *oc, bool *wrap)
{
	*wrap = false;
	const tc_field_path *ref = &src->ref;
	if (!ref->len) {
		/* unresolved by its reader: the reference as it was given */
		oc->length_ref = src->length_ref;
		return 0;
	}
	if (ref_replaced(cv, ref)) {
		size_t k;
		bool packet;
		int rc = header_key(cv, src->length_ref, oc, &k, &packet);
		if (rc < 0)
			return rc;
		char key[64];
		snprintf(key, sizeof key, "%s.length%zu", packet ? "trace.packet.header" : "stream.event.header", k);
		return (oc->length_ref = tc_pool_strdup(&cv->w->pool, key)) ? 0 : TC_ENOMEM;
	}
	if (cv->layout == TC_LAYOUT_CTF1) {
		/* CTF 1.8 names are written as they are. */
		oc->length_ref = src->length_ref;
		return 0;
	}
	const char *sib = sibling_ref(cv, ref);
	if (sib) {
		oc->length_ref = (char *)sib;
		return 0;
	}
	if ((oc->length_ref = absolute_ref(cv, ref)))
		return 0;
	*wrap = true;
	return 0;
}

/* A new structure of N members, aligned at least to ALIGN; NULL members. */
static tc_field_class *new_struct(tc_ctf_writer *w, size_t n, unsigned align)
{
	tc_field_class *s = new_class(w, TC_FIELD_STRUCT, align);
	if (s && n && !(s->members = tc_pool_alloc(&w->pool, n * sizeof *s->members)))
		return NULL;
	if (s)
		s->member_count = n;
	return s;
}

/* N labels of FC, label I named NAMES[I] (NAMES NULL: "") with the one
 * range [I, I] (ONES: [1, 1]). */
static int single_labels(tc_ctf_writer *w, tc_field_class *fc, char *const *names, size_t n, bool ones)
{
	tc_enum_label *labels = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *labels);
	tc_enum_range *ranges = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *ranges);
	if (!labels || !ranges)
		return TC_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		ranges[i].lo = ranges[i].hi = ones ? 1 : i;
		labels[i].label = names ? names[i] : "";
		labels[i].ranges = &ranges[i];
		labels[i].range_count = 1;
	}
	fc->labels = labels;
	fc->label_count = n;
	return 0;
}

/* An enumeration whose label I (NAMES[I]) is value I. */
static tc_field_class *tag_class(tc_ctf_writer *w, char *const *names, size_t n)
{
	tc_field_class *e = new_class(w, TC_FIELD_ENUM, 8);
	if (!e || single_labels(w, e, names, n, false) < 0)
		return NULL;
	e->size = n <= 256 ? 8 : n <= 65536 ? 16 : 32;
	return e;
}

/* struct { TAG tag; variant <tag> { ... } value; } for a CTF 2 variant
 * (SRC->members are its options) or an optional (options "none", an
 * empty structure, and "some", SRC->element). */
static tc_field_class *wrap_selection(conv *cv, const tc_field_class *src)
{
	tc_ctf_writer *w = cv->w;
	bool optional = src->kind == TC_FIELD_OPTIONAL;
	static char *const none_some[] = { "none", "some" };
	size_t n = optional ? 2 : src->member_count;
	char **names = optional ? (char **)none_some : option_names(w, src);
	tc_field_class *var = new_class(w, TC_FIELD_VARIANT, 1);
	tc_field_class *wrap = new_struct(w, 2, 8);
	tc_member *opts = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *opts);
	if (!names || !var || !wrap || !opts || !(wrap->members[0].cls = tag_class(w, names, n)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		opts[i].name = names[i];
		opts[i].display_name = names[i];
		if (optional && i == 0)
			opts[i].cls = new_struct(w, 0, 1);
		else if (conv_child(cv, TC_PATH_SELECTED, NULL, optional ? src->element : src->members[i].cls, &opts[i].cls) < 0)
			return NULL;
		if (!opts[i].cls)
			return NULL;
		if (opts[i].cls->align > wrap->align)
			wrap->align = opts[i].cls->align;
	}
	var->members = opts;
	var->member_count = n;
	var->tag_ref = "tag";
	wrap->members[0].name = "tag";
	wrap->members[0].display_name = "tag";
	wrap->members[1].name = "value";
	wrap->members[1].display_name = "value";
	wrap->members[1].cls = var;
	return set_info(w, wrap, optional ? OUT_WRAP_OPTIONAL : OUT_WRAP_VARIANT, 0) < 0 ? NULL : wrap;
}

/* struct { uint64 length; SEQ value[length]; } */
static tc_field_class *wrap_length(tc_ctf_writer *w, tc_field_class *seq)
{
	tc_field_class *wrap = new_struct(w, 2, seq->align > 8 ? seq->align : 8);
	if (!wrap || !(wrap->members[0].cls = int_class(w, 64, 8, NULL)))
		return NULL;
	seq->length_ref = "length";
	wrap->members[0].name = "length";
	wrap->members[0].display_name = "length";
	wrap->members[1].name = "value";
	wrap->members[1].display_name = "value";
	wrap->members[1].cls = seq;
	return set_info(w, wrap, OUT_WRAP_LENGTH, 0) < 0 ? NULL : wrap;
}

static tc_field_class *conv_class2(conv *cv, const tc_field_class *src);

/* An integer or enumeration FC, a copy of SRC, as both versions write it:
 * a variable-length one as 64 bits, and one without labels (which CTF 1.8
 * cannot have) as an integer. */
static void int_fixup(tc_field_class *fc, const tc_field_class *src)
{
	if (src->flags & TC_FIELD_VARLEN) {
		fc->size = 64;
		if (fc->align < 8)
			fc->align = 8;
	}
	if (src->kind == TC_FIELD_ENUM && !src->label_count) {
		fc->kind = TC_FIELD_INT;
		fc->labels = NULL;
	}
}

/* What both versions' output classes start from: a copy of SRC,
 * little-endian, UTF-8, without the writer's data or (but a BLOB's) a
 * media type; integers fixed up (int_fixup), strings byte-aligned, and a
 * text array or sequence a new string class. */
static tc_field_class *clone_class(tc_ctf_writer *w, const tc_field_class *src)
{
	if ((src->kind == TC_FIELD_ARRAY || src->kind == TC_FIELD_SEQUENCE) && (src->flags & TC_FIELD_TEXT))
		return new_class(w, TC_FIELD_STRING, 8);
	tc_field_class *fc = tc_pool_alloc(&w->pool, sizeof *fc);
	if (!fc)
		return NULL;
	*fc = *src;
	/* the input's notes, meaning and references are not the output's */
	fc->priv = NULL;
	fc->role = TC_ROLE_NONE;
	fc->ref = (tc_field_path){ 0 };
	fc->byte_order = TC_LITTLE_ENDIAN;
	fc->encoding = TC_UTF8;
	if (src->kind != TC_FIELD_BLOB)
		fc->media_type = NULL;
	if (src->kind == TC_FIELD_INT || src->kind == TC_FIELD_ENUM)
		int_fixup(fc, src);
	else if (src->kind == TC_FIELD_STRING)
		fc->align = 8;
	return fc;
}

/* The output class of input class SRC at CV's position (see the top). */
static tc_field_class *conv_class(conv *cv, const tc_field_class *src)
{
	tc_ctf_writer *w = cv->w;
	if (!src)
		return NULL;
	if (w->ctf_version == 2)
		return conv_class2(cv, src);
	if ((src->kind == TC_FIELD_VARIANT && src->labels) || src->kind == TC_FIELD_OPTIONAL)
		return wrap_selection(cv, src);
	tc_field_class *fc = clone_class(w, src);
	if (!fc)
		return NULL;
	fc->flags &= ~(uint32_t)(TC_FIELD_HIDDEN | TC_FIELD_VARLEN | TC_FIELD_BIT_REVERSED);
	if (fc->kind == TC_FIELD_STRING)   /* a string, or text made one */
		return fc;
	switch (src->kind) {
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		/* Booleans as 0 or 1; bit arrays as numbers, a bit map's flag
		 * names lost (CTF 1.8 has no way to show them). */
		fc->kind = TC_FIELD_INT;
		fc->is_signed = false;
		fc->base = src->kind == TC_FIELD_BIT_ARRAY ? 16 : 10;
		fc->has_encoding = false;
		fc->clock = NULL;
		fc->labels = NULL;
		fc->label_count = 0;
		break;
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT: {
		char **names = out_names(w, src, false);
		if (!names || (src->member_count && !(fc->members = tc_pool_alloc(&w->pool, src->member_count * sizeof *fc->members))))
			return NULL;
		conv_struct in = { src, names, cv->path_len, 0 };
		for (size_t i = 0; i < src->member_count; i++) {
			in.child = i;
			fc->members[i].name = names[i];
			fc->members[i].display_name = src->members[i].display_name;
			if (conv_child(cv, (uint16_t)i, src->kind == TC_FIELD_STRUCT ? &in : NULL, src->members[i].cls,
			               &fc->members[i].cls) < 0)
				return NULL;
			/* members may align more than the input's (a wrapped
			 * optional), and a reader aligns a structure to its
			 * largest member's alignment */
			if (src->kind == TC_FIELD_STRUCT && fc->members[i].cls->align > fc->align)
				fc->align = fc->members[i].cls->align;
		}
		if (src->kind == TC_FIELD_STRUCT && plan_run(w, fc) < 0)
			return NULL;
		break;
	}
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
	case TC_FIELD_BLOB: {
		bool wrap = false;
		if (src->kind == TC_FIELD_BLOB) {
			/* bytes in hexadecimal */
			fc->kind = src->length_ref ? TC_FIELD_SEQUENCE : TC_FIELD_ARRAY;
			fc->align = 8;
			fc->media_type = NULL;
			if (!(fc->element = int_class(w, 8, 8, NULL)))
				return NULL;
			fc->element->base = 16;
		} else if (src->kind == TC_FIELD_SEQUENCE && !src->length_ref) {
			return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a sequence without a length field cannot be written"), NULL;
		} else if (conv_child(cv, TC_PATH_ELEMENT, cv->inner, src->element, &fc->element) < 0) {
			return NULL;
		} else {
			/* TSDL aligns an array as its element (a CTF 2
			 * minimum alignment has no TSDL) */
			fc->align = fc->element->align;
		}
		if (fc->kind == TC_FIELD_SEQUENCE && conv_length(cv, src, fc, &wrap) < 0)
			return NULL;
		return wrap ? wrap_length(w, fc) : fc;
	}
	default:
		break;
	}
	return fc;
}

/* ---- CTF 2 output classes ---- */

/* CTF 2 output: the names of the members (options) of ST, as the model
 * shows them: verbatim, made unique ("_2", "_3"... added) since CTF 2
 * requires it; "" stays "" for options (no name). */
static char **names2(tc_ctf_writer *w, const tc_field_class *st)
{
	size_t v;
	if (map_get(&w->names_of, st, &v))
		return (char **)(uintptr_t)v;
	size_t n = st->member_count;
	char **names = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *names);
	if (!names)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const tc_member *m = &st->members[i];
		const char *shown = m->display_name ? m->display_name : m->name ? m->name : "";
		char *c = unique_name(w, names, i, (char *)shown, st->kind == TC_FIELD_VARIANT);
		if (!c)
			return NULL;
		names[i] = c;
	}
	if (map_put(&w->names_of, st, (size_t)(uintptr_t)names) < 0)
		return NULL;
	return names;
}

/* CTF 2 output: the index in the output of member I of input structure
 * ST, the root of SCOPE when ROOT: hidden members are left out, and the
 * packet context starts with the writer's own. */
static uint16_t out_member2(const conv *cv, tc_scope scope, bool root, const tc_field_class *st, size_t i)
{
	size_t k = root && scope == TC_SCOPE_PACKET_CONTEXT ? cv->sc->pc_specials : 0;
	for (size_t j = 0; j < i; j++)
		if (!(st->members[j].cls->flags & TC_FIELD_HIDDEN))
			k++;
	return (uint16_t)k;
}

/* CTF 2 output: the output path of the input field at the N steps IN
 * from the root of SCOPE, as a field at CV's position (the dependent)
 * finds it: through structures (to members the output keeps), arrays,
 * optionals and the variant option holding the dependent; a variant
 * option is written as its index.  False when the output has no such
 * field a CTF 2 location reaches: in a scope the writer replaces, left
 * out, or in another option of a variant. */
static bool out_location2(const conv *cv, tc_scope scope, const uint16_t *in, size_t n, uint16_t *out)
{
	if (scope == TC_SCOPE_PACKET_HEADER || scope == TC_SCOPE_EVENT_HEADER || !n)
		return false;
	const tc_field_class *c = cv->roots[scope];
	/* whether C holds the dependent too (CV's path goes through it) */
	bool holds = scope == cv->scope;
	for (size_t i = 0; i < n; i++) {
		uint16_t step = in[i];
		if (!c || (c->flags & TC_FIELD_HIDDEN))
			return false;
		holds = holds && i < cv->path_len;
		uint16_t mine = holds ? cv->path[i] : TC_PATH_ELEMENT;
		switch (c->kind) {
		case TC_FIELD_STRUCT:
			if (step >= c->member_count)
				return false;
			out[i] = out_member2(cv, scope, i == 0, c, step);
			holds = holds && mine == step;
			c = c->members[step].cls;
			break;
		case TC_FIELD_ARRAY:
		case TC_FIELD_SEQUENCE:
			if ((c->flags & TC_FIELD_TEXT) || step != TC_PATH_ELEMENT)
				return false;
			out[i] = TC_PATH_ELEMENT;
			holds = holds && mine == TC_PATH_ELEMENT;
			c = c->element;
			break;
		case TC_FIELD_OPTIONAL:
			if (step != TC_PATH_SELECTED)
				return false;
			out[i] = TC_PATH_SELECTED;
			holds = holds && mine == TC_PATH_SELECTED;
			c = c->element;
			break;
		case TC_FIELD_VARIANT:
			if (step == TC_PATH_SELECTED && i + 1 == n) {
				/* the key is the variant itself (integer options) */
				out[i] = TC_PATH_SELECTED;
				return true;
			}
			if (!holds || mine >= c->member_count || (step != TC_PATH_SELECTED && step != mine))
				return false;
			out[i] = mine;
			c = c->members[mine].cls;
			break;
		default:
			return false;
		}
	}
	return c && !(c->flags & TC_FIELD_HIDDEN) &&
	       (c->kind == TC_FIELD_INT || c->kind == TC_FIELD_ENUM || c->kind == TC_FIELD_BOOL);
}

/* CTF 2 output: ranges [I, I] for each option of OC (a variant whose
 * selector is the writer's key), or [1, 1] for an optional. */
static int key_ranges(tc_ctf_writer *w, tc_field_class *oc)
{
	bool variant = oc->kind == TC_FIELD_VARIANT;
	return single_labels(w, oc, NULL, variant ? oc->member_count : 1, !variant);
}

/* CTF 2 output: where OC, the output of SRC (a sequence, dynamic BLOB,
 * optional or variant at CV's position), finds its length or selector
 * (see the top). */
static int conv_key2(conv *cv, const tc_field_class *src, tc_field_class *oc)
{
	uint16_t in[CONV_MAX_PATH], out[CONV_MAX_PATH];
	size_t n = 0;
	tc_scope scope = cv->scope;
	if (src->ref.len && src->ref.len <= CONV_MAX_PATH) {
		n = src->ref.len;
		scope = src->ref.scope;
		memcpy(in, src->ref.steps, n * sizeof *in);
	}
	if (n && out_location2(cv, scope, in, n, out))
		return set_ref(cv->w, oc, scope, out, n);
	if (!n && !src->length_ref && !src->tag_ref)
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a %s without its %s cannot be written",
		               src->kind == TC_FIELD_OPTIONAL || src->kind == TC_FIELD_VARIANT ? "selection" : "sequence",
		               src->kind == TC_FIELD_OPTIONAL || src->kind == TC_FIELD_VARIANT ? "selector" : "length");
	/* The writer's own key: lengths of one field share one. */
	char *shared = NULL;
	if (src->kind == TC_FIELD_SEQUENCE || src->kind == TC_FIELD_BLOB) {
		tc_buf b = { 0 };
		int rc = tc_buf_printf(&b, "%d", (int)scope);
		for (size_t i = 0; i < n && rc == 0; i++)
			rc = tc_buf_printf(&b, ",%u", in[i]);
		if (rc == 0 && !n)
			rc = tc_buf_printf(&b, ":%s", src->length_ref);
		shared = rc == 0 ? tc_pool_strdup(&cv->w->pool, b.data) : NULL;
		tc_buf_free(&b);
		if (!shared)
			return TC_ENOMEM;
	}
	size_t k;
	bool packet;
	int rc = header_key(cv, shared, oc, &k, &packet);
	uint16_t at = (uint16_t)(k + (packet ? (cv->w->out.has_uuid ? 4 : 3) : cv->sc->pub.event_header->member_count));
	if (rc == 0)
		rc = set_ref(cv->w, oc, packet ? TC_SCOPE_PACKET_HEADER : TC_SCOPE_EVENT_HEADER, &at, 1);
	if (rc == 0 && (oc->kind == TC_FIELD_OPTIONAL || oc->kind == TC_FIELD_VARIANT))
		rc = key_ranges(cv->w, oc);
	return rc;
}

/* The option of variant V (without labels) that label L of its tag TAG
 * selects: the first of that name (tc_field_class.ref), or -1. */
static ptrdiff_t option_of_label(const tc_field_class *v, const tc_field_class *tag, size_t l)
{
	for (size_t o = 0; o < v->member_count; o++)
		if (strcmp(v->members[o].name, tag->labels[l].label) == 0)
			return (ptrdiff_t)o;
	return -1;
}

/* CTF 2 output: the selector ranges of each option of OC, the output of
 * CTF 1.8 variant SRC: those of the labels of its tag that select it. */
static int tag_ranges(tc_ctf_writer *w, const tc_field_class *src, tc_field_class *oc)
{
	const tc_field_class *tag = src->ref.len ? src->ref.target : NULL;
	size_t n = src->member_count;
	tc_enum_label *labels = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *labels);
	if (!labels || !tag || tag->kind != TC_FIELD_ENUM)
		return labels ? tc_fail(TC_EUNSUPPORTED, NULL, -1, "a variant without its tag cannot be written") : TC_ENOMEM;
	for (size_t o = 0; o < n; o++) {
		size_t count = 0;
		for (size_t l = 0; l < tag->label_count; l++)
			if (option_of_label(src, tag, l) == (ptrdiff_t)o)
				count += tag->labels[l].range_count;
		tc_enum_range *r = tc_pool_alloc(&w->pool, (count ? count : 1) * sizeof *r);
		if (!r)
			return TC_ENOMEM;
		labels[o].label = "";
		labels[o].ranges = r;
		for (size_t l = 0; l < tag->label_count; l++)
			if (option_of_label(src, tag, l) == (ptrdiff_t)o)
				for (size_t i = 0; i < tag->labels[l].range_count; i++)
					r[labels[o].range_count++] = tag->labels[l].ranges[i];
	}
	oc->labels = labels;
	oc->label_count = n;
	return 0;
}

/* The output class of input class SRC at CV's position, for CTF 2 output
 * (see the top). */
static tc_field_class *conv_class2(conv *cv, const tc_field_class *src)
{
	tc_ctf_writer *w = cv->w;
	tc_field_class *fc = clone_class(w, src);
	if (!fc)
		return NULL;
	fc->flags = 0;
	fc->clock = NULL;
	fc->has_encoding = false;
	if (fc->kind == TC_FIELD_STRING)   /* a string, or text made one */
		return fc;
	switch (src->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_FLOAT:
	case TC_FIELD_STRING:
		return fc;
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		fc->is_signed = false;
		return fc;
	case TC_FIELD_STRUCT: {
		size_t n = src->member_count, k = 0;
		char **names = names2(w, src);
		size_t *from = tc_pool_alloc(&w->pool, (n ? n : 1) * sizeof *from);
		if (!names || !from || (n && !(fc->members = tc_pool_alloc(&w->pool, n * sizeof *fc->members))))
			return NULL;
		conv_struct in = { src, names, cv->path_len, 0 };
		for (size_t i = 0; i < n; i++) {
			if (src->members[i].cls->flags & TC_FIELD_HIDDEN)
				continue;
			in.child = i;
			from[k] = i;
			fc->members[k].name = names[i];
			fc->members[k].display_name = names[i];
			if (conv_child(cv, (uint16_t)i, &in, src->members[i].cls, &fc->members[k].cls) < 0)
				return NULL;
			if (fc->members[k].cls->align > fc->align)
				fc->align = fc->members[k].cls->align;
			k++;
		}
		fc->member_count = k;
		if (k < n) {
			out_info *info = info_of(w, fc);
			if (!info)
				return NULL;
			info->src_index = from;
		}
		return plan_run(w, fc) < 0 ? NULL : fc;
	}
	case TC_FIELD_VARIANT: {
		size_t n = src->member_count;
		char **names = names2(w, src);
		if (!n || (!src->labels && !src->ref.len))
			return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a variant without options or ranges cannot be written"), NULL;
		if (!names || !(fc->members = tc_pool_alloc(&w->pool, n * sizeof *fc->members)))
			return NULL;
		fc->align = 1;
		if (!src->labels && tag_ranges(w, src, fc) < 0)
			return NULL;
		if (conv_key2(cv, src, fc) < 0)
			return NULL;
		for (size_t i = 0; i < n; i++) {
			fc->members[i].name = names[i];
			fc->members[i].display_name = names[i];
			if (conv_child(cv, (uint16_t)i, NULL, src->members[i].cls, &fc->members[i].cls) < 0)
				return NULL;
		}
		return fc;
	}
	case TC_FIELD_OPTIONAL:
		fc->align = 1;
		if (conv_key2(cv, src, fc) < 0 || conv_child(cv, TC_PATH_SELECTED, NULL, src->element, &fc->element) < 0)
			return NULL;
		return fc;
	case TC_FIELD_BLOB:
		fc->align = 8;
		return !src->length_ref || conv_key2(cv, src, fc) == 0 ? fc : NULL;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		if (conv_child(cv, TC_PATH_ELEMENT, cv->inner, src->element, &fc->element) < 0)
			return NULL;
		if (fc->element->align > fc->align)
			fc->align = fc->element->align;
		return src->kind == TC_FIELD_ARRAY || conv_key2(cv, src, fc) == 0 ? fc : NULL;
	}
	return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a field of an unknown kind cannot be written"), NULL;
}

/* A new position at the root of SCOPE of stream class SC (and event
 * class EC, or none); NULL when out of memory. */
static conv *conv_new(tc_ctf_writer *w, out_stream_class *sc, const tc_event_class *ec, tc_scope scope)
{
	conv *cv = calloc(1, sizeof *cv);
	if (!cv)
		return tc_fail_nomem(), NULL;
	const tc_stream_class *ss = sc->src;
	const tc_trace *t = ss->trace;
	cv->w = w;
	cv->sc = sc;
	cv->layout = t ? t->layout : TC_LAYOUT_OWN;
	cv->roots[TC_SCOPE_PACKET_HEADER] = t ? t->packet_header : NULL;
	cv->roots[TC_SCOPE_PACKET_CONTEXT] = ss->packet_context;
	cv->roots[TC_SCOPE_EVENT_HEADER] = ss->event_header;
	cv->roots[TC_SCOPE_STREAM_EVENT_CONTEXT] = ss->event_context;
	cv->roots[TC_SCOPE_EVENT_CONTEXT] = ec ? ec->context : NULL;
	cv->roots[TC_SCOPE_PAYLOAD] = ec ? ec->payload : NULL;
	cv->scope = scope;
	return cv;
}

/* The output class of a whole input scope SRC (SCOPE of stream class SC,
 * event class EC or neither). */
static tc_field_class *out_scope(tc_ctf_writer *w, out_stream_class *sc, const tc_event_class *ec, tc_scope scope,
                                 const tc_field_class *src)
{
	conv *cv = conv_new(w, sc, ec, scope);
	tc_field_class *fc = cv ? conv_class(cv, src) : NULL;
	free(cv);
	return fc;
}

/* LTTng's event headers: an id enumeration whose last value means
 * "extended", and a variant holding a short time or the full id and time. */
static tc_field_class *event_header_class(tc_ctf_writer *w, bool compact, const tc_clock *clk)
{
	if (!clk) {
		tc_field_class *s = new_class(w, TC_FIELD_STRUCT, 8);
		tc_member *m = tc_pool_alloc(&w->pool, sizeof *m);
		if (!s || !m || !(m->cls = int_class(w, 32, 8, NULL)))
			return NULL;
		m->name = "id";
		m->display_name = "id";
		s->members = m;
		s->member_count = 1;
		return set_role(w, m->cls, TC_ROLE_EVENT_ID) < 0 ? NULL : s;
	}
	unsigned id_bits = compact ? 5 : 16;
	tc_field_class *id = new_class(w, TC_FIELD_ENUM, compact ? 1 : 8);
	tc_enum_label *labels = tc_pool_alloc(&w->pool, 2 * sizeof *labels);
	tc_enum_range *ranges = tc_pool_alloc(&w->pool, 2 * sizeof *ranges);
	tc_field_class *short_s = new_class(w, TC_FIELD_STRUCT, compact ? 1 : 8);
	tc_field_class *long_s = new_class(w, TC_FIELD_STRUCT, 8);
	tc_field_class *var = new_class(w, TC_FIELD_VARIANT, 1);
	tc_field_class *hdr = new_class(w, TC_FIELD_STRUCT, compact ? 32 : 8);
	tc_member *mem = tc_pool_alloc(&w->pool, 7 * sizeof *mem);
	if (!id || !labels || !ranges || !short_s || !long_s || !var || !hdr || !mem)
		return NULL;
	id->size = id_bits;
	uint64_t escape = (1u << id_bits) - 1;
	ranges[0] = (tc_enum_range){ 0, escape - 1 };
	ranges[1] = (tc_enum_range){ escape, escape };
	labels[0] = (tc_enum_label){ .label = "compact", .ranges = &ranges[0], .range_count = 1 };
	labels[1] = (tc_enum_label){ .label = "extended", .ranges = &ranges[1], .range_count = 1 };
	id->labels = labels;
	id->label_count = 2;
	mem[0] = (tc_member){ "timestamp", "timestamp", int_class(w, compact ? 27 : 32, compact ? 1 : 8, clk) };
	mem[1] = (tc_member){ "id", "id", int_class(w, 32, 8, NULL) };
	mem[2] = (tc_member){ "timestamp", "timestamp", int_class(w, 64, 8, clk) };
	mem[3] = (tc_member){ "compact", "compact", short_s };
	mem[4] = (tc_member){ "extended", "extended", long_s };
	mem[5] = (tc_member){ "id", "id", id };
	mem[6] = (tc_member){ "v", "v", var };
	if (!mem[0].cls || !mem[1].cls || !mem[2].cls)
		return NULL;
	short_s->members = &mem[0];
	short_s->member_count = 1;
	long_s->members = &mem[1];
	long_s->member_count = 2;
	var->members = &mem[3];
	var->member_count = 2;
	var->tag_ref = "id";
	hdr->members = &mem[5];
	hdr->member_count = 2;
	if (w->ctf_version == 2) {
		/* roles instead of names; the variant's selector is `id` */
		static const uint16_t to_id[] = { 0 };
		if (set_role(w, id, TC_ROLE_EVENT_ID) < 0 || set_role(w, mem[0].cls, TC_ROLE_TIMESTAMP) < 0 ||
		    set_role(w, mem[1].cls, TC_ROLE_EVENT_ID) < 0 || set_role(w, mem[2].cls, TC_ROLE_TIMESTAMP) < 0 ||
		    set_ref(w, var, TC_SCOPE_EVENT_HEADER, to_id, 1) < 0)
			return NULL;
	}
	return hdr;
}

static tc_field_class *packet_header_class(tc_ctf_writer *w)
{
	static const char *const names[] = { "magic", "uuid", "stream_id", "stream_instance_id" };
	tc_field_class *s = new_class(w, TC_FIELD_STRUCT, 8);
	tc_member *m = tc_pool_alloc(&w->pool, 4 * sizeof *m);
	tc_field_class *uuid = new_class(w, TC_FIELD_ARRAY, 8);
	if (!s || !m || !uuid || !(uuid->element = int_class(w, 8, 8, NULL)))
		return NULL;
	uuid->length = 16;
	m[0].cls = int_class(w, 32, 8, NULL);
	m[1].cls = uuid;
	m[2].cls = int_class(w, 32, 8, NULL);
	m[3].cls = int_class(w, 64, 8, NULL);
	for (size_t i = 0; i < 4; i++) {
		if (!m[i].cls)
			return NULL;
		m[i].name = (char *)names[i];
		m[i].display_name = names[i];
	}
	m[0].cls->base = 16;
	if (!w->out.has_uuid) {
		m[1] = m[2];
		m[2] = m[3];
	}
	s->members = m;
	s->member_count = w->out.has_uuid ? 4 : 3;
	if (set_role(w, m[0].cls, TC_ROLE_MAGIC) < 0 ||
	    (w->out.has_uuid && set_role(w, uuid, TC_ROLE_UUID) < 0) ||
	    set_role(w, m[s->member_count - 2].cls, TC_ROLE_STREAM_ID) < 0 ||
	    set_role(w, m[s->member_count - 1].cls, TC_ROLE_STREAM_INSTANCE_ID) < 0)
		return NULL;
	return s;
}

/* Appends COUNT 64-bit members "lengthN" to the header HDR: the keys the
 * writer carries there for fields the output cannot reach where the input
 * had them (see the top). */
static int append_length_members(tc_ctf_writer *w, tc_field_class *hdr, size_t count)
{
	size_t n = hdr->member_count + count;
	tc_member *m = tc_pool_alloc(&w->pool, n * sizeof *m);
	if (!m)
		return TC_ENOMEM;
	memcpy(m, hdr->members, hdr->member_count * sizeof *m);
	for (size_t i = 0; i < count; i++) {
		char name[32];
		snprintf(name, sizeof name, "length%zu", i);
		tc_member *x = &m[hdr->member_count + i];
		if (!(x->name = tc_pool_strdup(&w->pool, name)) || !(x->cls = int_class(w, 64, 8, NULL)))
			return TC_ENOMEM;
		x->display_name = x->name;
	}
	hdr->members = m;
	hdr->member_count = n;
	if (hdr->align < 8)
		hdr->align = 8;
	return 0;
}

/* The special fields, then the input's visible packet context fields. */
static int packet_context_class(tc_ctf_writer *w, out_stream_class *sc)
{
	static const char *const timed[] = { "timestamp_begin", "timestamp_end" };
	static const char *const counts[] = { "content_size", "packet_size", "packet_seq_num", "events_discarded" };
	static const tc_field_role roles[] = { TC_ROLE_TS_BEGIN, TC_ROLE_TS_END, TC_ROLE_CONTENT_SIZE, TC_ROLE_PACKET_SIZE,
	                                  TC_ROLE_PACKET_SEQ_NUM, TC_ROLE_EVENTS_DISCARDED };
	const tc_field_class *src = sc->src->packet_context;
	const tc_clock *clk = sc->src->clock;
	size_t extra = 0;
	if (src && src->member_count &&
	    (!(sc->pc_members = tc_pool_alloc(&w->pool, src->member_count * sizeof(size_t))) ||
	     !(sc->pc_number = tc_pool_alloc(&w->pool, src->member_count * sizeof(bool)))))
		return TC_ENOMEM;
	for (size_t i = 0; src && i < src->member_count; i++)
		if (!(src->members[i].cls->flags & TC_FIELD_HIDDEN)) {
			bool number = is_number_kind(src->members[i].cls->kind);
			sc->pc_number[extra] = number;
			sc->pc_members[extra++] = i;
			if (!number)
				sc->pc_deep = true;
		}
	sc->pc_member_count = extra;
	sc->pc_specials = (clk ? 2 : 0) + 4;
	size_t n = sc->pc_specials + extra, k = 0;
	tc_field_class *s = new_class(w, TC_FIELD_STRUCT, 8);
	tc_member *m = tc_pool_alloc(&w->pool, n * sizeof *m);
	if (!s || !m)
		return TC_ENOMEM;
	char **names = NULL;
	if (extra)
		names = w->ctf_version == 2 ? names2(w, src) : out_names(w, src, true);
	for (size_t i = 0; i < 6; i++) {
		if (i < 2 && !clk)
			continue;
		const char *name = i < 2 ? timed[i] : counts[i - 2];
		/* CTF 2: a name of the input's (theirs are shown as they are),
		 * but these are known by their roles */
		for (size_t j = 0; w->ctf_version == 2 && j < extra; j++)
			if (strcmp(names[sc->pc_members[j]], name) == 0) {
				size_t len = strlen(name) + 2;
				char *c = tc_pool_alloc(&w->pool, len);
				if (!c)
					return TC_ENOMEM;
				snprintf(c, len, "_%s", name);
				name = c;
				j = (size_t)-1;
			}
		m[k] = (tc_member){ (char *)name, name, int_class(w, 64, 8, i < 2 ? clk : NULL) };
		if (set_role(w, m[k].cls, roles[i]) < 0)
			return TC_ENOMEM;
		k++;
	}
	conv *cv = extra ? conv_new(w, sc, NULL, TC_SCOPE_PACKET_CONTEXT) : NULL;
	if (extra && (!names || !cv)) {
		free(cv);
		return TC_ENOMEM;
	}
	conv_struct in = { src, names, 0, 0 };
	int rc = 0;
	for (size_t i = 0; i < extra && rc == 0; i++, k++) {
		const tc_member *sm = &src->members[sc->pc_members[i]];
		in.child = sc->pc_members[i];
		m[k].name = names[in.child];
		m[k].display_name = w->ctf_version == 2 ? names[in.child] : sm->display_name;
		rc = conv_child(cv, (uint16_t)in.child, &in, sm->cls, &m[k].cls);
	}
	free(cv);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (!m[i].cls)
			return tc_error_last()->code ? tc_error_last()->code : TC_ENOMEM;
	s->members = m;
	s->member_count = n;
	sc->pub.packet_context = s;
	sc->ts_end_off = 8;
	sc->content_off = clk ? 16 : 0;
	return 0;
}

/* Whether the output has scope FC: CTF 2 output leaves out a scope the
 * model hides (CTF 1.8 readers do not show it, CTF 2 readers would). */
static bool shown(const tc_ctf_writer *w, const tc_field_class *fc)
{
	return fc && (w->ctf_version != 2 || !(fc->flags & TC_FIELD_HIDDEN));
}

static int add_stream_class(tc_ctf_writer *w, const tc_stream_class *src, uint64_t id)
{
	out_stream_class *sc = tc_pool_alloc(&w->pool, sizeof *sc);
	if (!sc)
		return TC_ENOMEM;
	sc->src = src;
	sc->pub.id = id;
	sc->pub.clock = src->clock;
	sc->pub.trace = &w->out;
	sc->pub.has_discarded_events = sc->pub.has_packet_seq_num = sc->pub.has_packet_times = true;
	sc->compact = src->event_class_count <= 31;
	sc->full_times = has_inner_clock(src->event_context);
	int rc = packet_context_class(w, sc);
	if (rc < 0)
		return rc;
	if (!(sc->pub.event_header = event_header_class(w, sc->compact, src->clock)))
		return TC_ENOMEM;
	if (shown(w, src->event_context) &&
	    !(sc->pub.event_context = out_scope(w, sc, NULL, TC_SCOPE_STREAM_EVENT_CONTEXT, src->event_context)))
		return tc_error_last()->code ? tc_error_last()->code : TC_ENOMEM;
	if (src->event_class_count &&
	    (!(sc->pub.event_classes = tc_pool_alloc(&w->pool, src->event_class_count * sizeof *sc->pub.event_classes)) ||
	     !(sc->used = tc_pool_alloc(&w->pool, src->event_class_count * sizeof *sc->used))))
		return TC_ENOMEM;
	for (size_t i = 0; i < src->event_class_count; i++) {
		const tc_event_class *se = src->event_classes[i];
		tc_event_class *ec = tc_pool_alloc(&w->pool, sizeof *ec);
		if (!ec)
			return TC_ENOMEM;
		*ec = *se;
		ec->id = i;
		ec->stream_class = &sc->pub;
		ec->context = ec->payload = NULL;
		if ((shown(w, se->context) && !(ec->context = out_scope(w, sc, se, TC_SCOPE_EVENT_CONTEXT, se->context))) ||
		    (shown(w, se->payload) && !(ec->payload = out_scope(w, sc, se, TC_SCOPE_PAYLOAD, se->payload))))
			return tc_error_last()->code ? tc_error_last()->code : TC_ENOMEM;
		sc->full_times = sc->full_times || has_inner_clock(se->context) || has_inner_clock(se->payload);
		sc->pub.event_classes[i] = ec;
		if ((rc = map_put(&w->event_id, se, i)) < 0)
			return rc;
	}
	sc->pub.event_class_count = src->event_class_count;
	if (sc->extra_count && (rc = append_length_members(w, sc->pub.event_header, sc->extra_count)) < 0)
		return rc;
	if ((rc = map_put(&w->class_of, src, w->class_count)) < 0 ||
	    (rc = tc_ptr_push((void ***)&w->classes, &w->class_count, sc)) < 0 ||
	    (rc = tc_ptr_push((void ***)&w->out.stream_classes, &w->out.stream_class_count, sc)) < 0)
		return rc;
	return 0;
}

static int add_clock(tc_ctf_writer *w, tc_clock *c)
{
	for (size_t i = 0; i < w->out.clock_count; i++)
		if (strcmp(w->out.clocks[i]->name, c->name) == 0)
			return 0;
	return tc_ptr_push((void ***)&w->out.clocks, &w->out.clock_count, c);
}

/* CTF 2 output: the trace class's identity.  One CTF 2 trace keeps its
 * own; other traces get what json_write.c gives a CTF 1.8 model (LTTng's
 * namespace and an empty name, so that folders of one trace merge, and
 * the UUID as uid). */
static int trace_identity(tc_ctf_writer *w, tc_trace *const *traces, size_t count)
{
	const tc_trace *t = traces[0];
	w->out.ctf_major = 2;
	if (count == 1 && t->layout == TC_LAYOUT_CTF2) {
		w->out.class_ns = t->class_ns;
		w->out.class_name = t->class_name;
		w->out.class_uid = t->class_uid;
		return 0;
	}
	if (!w->out.has_uuid)
		return 0;
	char uid[37];
	tc_uuid_format(w->out.uuid, uid);
	if (!(w->out.class_uid = tc_pool_strdup(&w->pool, uid)))
		return TC_ENOMEM;
	const tc_env_entry *e = tc_trace_env(t, TC_ENV_TRACER_NAME);
	if (e && !e->is_int && e->str_value && strncmp(e->str_value, "lttng", 5) == 0) {
		w->out.class_ns = "lttng.org,2009";
		w->out.class_name = "";
	}
	return 0;
}

static int add_stream(tc_ctf_writer *w, const tc_stream *src);

/* Numbers the writers for stream_of()'s per-thread memory. */
static atomic_uint_least64_t writer_serials;

int tc_ctf_writer_new(tc_ctf_writer **out, const char *dir, tc_trace *const *traces, size_t count,
                      const tc_ctf_writer_options *opts)
{
	if (!count)
		return tc_fail(TC_EINVAL, dir, -1, "a writer needs at least one trace");
	tc_ctf_writer *w = calloc(1, sizeof *w);
	if (!w)
		return tc_fail_nomem();
	tc_pool_init(&w->pool);
	pthread_mutex_init(&w->streams_lock, NULL);
	w->serial = atomic_fetch_add_explicit(&writer_serials, 1, memory_order_relaxed) + 1;
	w->packet_size = opts && opts->packet_size ? opts->packet_size : DEFAULT_PACKET_SIZE;
	w->ctf_version = opts && opts->ctf_version == 2 ? 2 : 1;
	int rc = 0;
	if (!(w->dir = strdup(dir)))
		rc = tc_fail_nomem();
	const tc_trace *first = traces[0];
	w->out.format = TC_INPUT_CTF;
	w->out.layout = w->ctf_version == 2 ? TC_LAYOUT_CTF2 : TC_LAYOUT_CTF1;
	w->out.name = first->name;
	w->out.env = first->env;
	w->out.env_count = first->env_count;
	/* A trace keeps its UUID, or its lack of one; a merged trace gets a new one. */
	w->out.has_uuid = count > 1 || first->has_uuid;
	if (count == 1) {
		memcpy(w->out.uuid, first->uuid, 16);
	} else if (getrandom(w->out.uuid, 16, 0) != 16) {
		rc = tc_fail(TC_EIO, NULL, -1, "no random numbers for the trace UUID: %s", strerror(errno));
	} else {
		w->out.uuid[6] = (uint8_t)((w->out.uuid[6] & 0x0f) | 0x40);
		w->out.uuid[8] = (uint8_t)((w->out.uuid[8] & 0x3f) | 0x80);
	}
	if (rc == 0 && !(w->out.packet_header = packet_header_class(w)))
		rc = TC_ENOMEM;
	uint64_t next_id = 0;
	for (size_t t = 0; t < count && rc == 0; t++) {
		for (size_t c = 0; c < traces[t]->clock_count && rc == 0; c++)
			rc = add_clock(w, traces[t]->clocks[c]);
		for (size_t s = 0; s < traces[t]->stream_class_count && rc == 0; s++) {
			const tc_stream_class *src = traces[t]->stream_classes[s];
			rc = add_stream_class(w, src, count == 1 ? src->id : next_id++);
		}
	}
	for (size_t t = 0; t < count && rc == 0; t++)
		for (size_t i = 0; i < traces[t]->stream_count && rc == 0; i++)
			rc = add_stream(w, traces[t]->streams[i]);
	if (rc == 0 && w->pkt_key_count)
		rc = append_length_members(w, w->out.packet_header, w->pkt_key_count);
	if (rc == 0 && w->ctf_version == 2)
		rc = trace_identity(w, traces, count);
	if (rc < 0) {
		tc_ctf_writer_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

/* ---- encoding ---- */

static __attribute__((noinline)) int grow_buffer(out_stream *s, size_t need)
{
	size_t cap = s->cap ? s->cap : 4096;
	while (cap < need)
		cap *= 2;
	uint8_t *b = realloc(s->buf, cap);
	if (!b)
		return tc_fail_nomem();
	memset(b + s->cap, 0, cap - s->cap);
	s->buf = b;
	s->cap = cap;
	return 0;
}

/* Room for BITS more bits, and 8 bytes beyond them: a whole-byte field
 * is stored as one 8-byte word (see put_bits). */
static inline int reserve(out_stream *s, uint64_t bits)
{
	size_t need = (size_t)((s->pos + bits + 7) / 8) + 8;
	return need <= s->cap ? 0 : grow_buffer(s, need);
}

static inline int align_to(out_stream *s, unsigned align)
{
	uint64_t p = (s->pos + align - 1) & ~(uint64_t)(align - 1);
	int rc = reserve(s, p - s->pos);
	if (rc == 0)
		s->pos = p;   /* the buffer is zeroed: padding is zeros */
	return rc;
}

/* N bits of V at the current position, least significant first, as CTF
 * lays out little-endian bit fields. */
static inline int put_bits(out_stream *s, uint64_t v, unsigned n)
{
	int rc = reserve(s, n);
	if (rc < 0)
		return rc;
	if (n < 64)
		v &= (1ull << n) - 1;
	if ((s->pos & 7) == 0 && (n & 7) == 0) {
		/* The bytes past the field get zeros, as padding must be, or
		 * the next field. */
		tc_store_le64(s->buf + s->pos / 8, v);
		s->pos += n;
		return 0;
	}
	while (n) {
		unsigned bit = (unsigned)(s->pos & 7);
		unsigned take = 8 - bit < n ? 8 - bit : n;
		uint8_t *p = &s->buf[s->pos / 8];
		uint8_t mask = (uint8_t)(((1u << take) - 1) << bit);
		*p = (uint8_t)((*p & ~mask) | ((v << bit) & mask));
		v >>= take;
		n -= take;
		s->pos += take;
	}
	return 0;
}

static int put_bytes(out_stream *s, const void *data, size_t n)
{
	int rc = reserve(s, (uint64_t)n * 8);
	if (rc == 0) {
		memcpy(s->buf + s->pos / 8, data, n);
		s->pos += (uint64_t)n * 8;
	}
	return rc;
}

static int encode(out_stream *s, const tc_field_class *oc, const tc_field *f);

/* An integer of class OC (aligned) holding V. */
static int put_int(out_stream *s, const tc_field_class *oc, uint64_t v)
{
	int rc = align_to(s, oc->align);
	return rc ? rc : put_bits(s, v, oc->size);
}

/* F, an input variant, optional, sequence or BLOB, as structure OC
 * { tag or length; value } (see out_info). */
static int encode_wrapped(out_stream *s, const tc_field_class *oc, const tc_field *f)
{
	const out_info *info = oc->priv;
	const tc_field_class *first = oc->members[0].cls, *value = oc->members[1].cls;
	int rc;
	switch (info->kind) {
	case OUT_WRAP_VARIANT:
		if (f->option >= value->member_count || !f->v.compound.count)
			return tc_fail(TC_EINVAL, NULL, -1, "a variant value without its option");
		if ((rc = put_int(s, first, f->option)) < 0)
			return rc;
		return encode(s, value->members[f->option].cls, &f->v.compound.items[0]);
	case OUT_WRAP_OPTIONAL:
		if ((rc = put_int(s, first, f->v.compound.count ? 1 : 0)) < 0 || !f->v.compound.count)
			return rc;
		return encode(s, value->members[1].cls, &f->v.compound.items[0]);
	default: {
		uint64_t n = f->cls && f->cls->kind == TC_FIELD_BLOB ? f->v.str.len : f->v.compound.count;
		if ((rc = put_int(s, first, n)) < 0)
			return rc;
		return encode(s, value, f);
	}
	}
}

/* The value of a header key (see out_info) of the field being encoded. */
static void set_key(out_stream *s, const out_info *info, uint64_t v)
{
	uint64_t *vals = info->packet_key ? s->pkt_key_val : s->extra_val;
	if (vals)
		vals[info->extra] = v;
}

/* The failure of integer V to fit output class OC (fit.c). */
static __attribute__((noinline)) int int_unfit(out_stream *s, const tc_field_class *oc, uint64_t v)
{
	if (oc->is_signed)
		return ctf_fit_fail(&s->fit, oc, "%" PRId64 " does not fit its %u-bit signed integer", (int64_t)v, oc->size);
	return ctf_fit_fail(&s->fit, oc, "%" PRIu64 " does not fit its %u-bit unsigned integer", v, oc->size);
}

/* Whether the N elements (bytes of a BLOB) of input field F are what
 * output class OC declares: its fixed length, or the value of the length
 * field the input refers to when OC refers to its output (OC's own
 * length, in a header or a structure of its own, is N itself). */
static int count_fits(out_stream *s, const tc_field_class *oc, const tc_field *f, uint64_t n)
{
	const out_info *info = oc->priv;
	if (oc->kind == TC_FIELD_ARRAY || (oc->kind == TC_FIELD_BLOB && !oc->length_ref && !oc->ref.len)) {
		if (n != oc->length)
			return ctf_fit_fail(&s->fit, oc, "%" PRIu64 " %s where its layout holds %" PRIu64, n,
			                    oc->kind == TC_FIELD_BLOB || (f->cls && f->cls->kind == TC_FIELD_BLOB) ? "bytes" : "elements",
			                    oc->length);
		return 0;
	}
	return info && info->kind != OUT_PLAIN ? 0 : ctf_fit_length(&s->fit, oc, f, n);
}

static bool is_compound(tc_field_kind k)
{
	return k == TC_FIELD_STRUCT || k == TC_FIELD_ARRAY || k == TC_FIELD_SEQUENCE || k == TC_FIELD_VARIANT ||
	       k == TC_FIELD_OPTIONAL;
}

static int encode(out_stream *s, const tc_field_class *oc, const tc_field *f)
{
	int rc = align_to(s, oc->align);
	if (rc < 0)
		return rc;
	const out_info *info = oc->priv;
	switch (oc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_BIT_ARRAY:
		if (!ctf_fit_int(oc, f->v.u))
			return int_unfit(s, oc, f->v.u);
		return put_bits(s, f->v.u, oc->size);
	case TC_FIELD_BOOL:
		return put_bits(s, f->v.u != 0, oc->size);
	case TC_FIELD_FLOAT:
		if (oc->size == 32) {
			float x = (float)f->v.f;
			uint32_t u;
			memcpy(&u, &x, 4);
			return put_bits(s, u, 32);
		} else {
			uint64_t u;
			memcpy(&u, &f->v.f, 8);
			return put_bits(s, u, 64);
		}
	case TC_FIELD_STRING: {
		/* Text stops at its first NUL, as readers show it. */
		const char *p = f->v.str.ptr;
		size_t n = f->v.str.len;
		const char *nul = n ? memchr(p, 0, n) : NULL;
		if (nul)
			n = (size_t)(nul - p);
		if ((rc = put_bytes(s, p, n)) < 0)
			return rc;
		return put_bits(s, 0, 8);
	}
	case TC_FIELD_STRUCT: {
		if (info && info->kind >= OUT_WRAP_VARIANT)
			return encode_wrapped(s, oc, f);
		const size_t *src = info ? info->src_index : NULL;
		const tc_field *items = f->v.compound.items;
		size_t i = 0, need = src && oc->member_count ? src[oc->member_count - 1] + 1 : oc->member_count;
		if (f->v.compound.count < need)
			return ctf_fit_fail(&s->fit, oc, "%zu members where its layout has %zu", f->v.compound.count, need);
		if (info && info->run_len) {
			/* the structure's alignment placed the run */
			if ((rc = reserve(s, (uint64_t)info->run_bytes * 8)) < 0)
				return rc;
			uint8_t *base = s->buf + s->pos / 8;
			for (; i < info->run_len; i++) {
				unsigned size = oc->members[i].cls->size;
				uint64_t v = items[src ? src[i] : i].v.u;
				if (!ctf_fit_int(oc->members[i].cls, v))
					return int_unfit(s, oc->members[i].cls, v);
				/* in offset order: each word's bytes past its integer
				 * are zeros, padding or the next integer's */
				tc_store_le64(base + info->run_offset[i], size < 64 ? v & ((1ull << size) - 1) : v);
			}
			s->pos += (uint64_t)info->run_bytes * 8;
		}
		for (; i < oc->member_count && rc == 0; i++)
			rc = encode(s, oc->members[i].cls, &items[src ? src[i] : i]);
		return rc;
	}
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE: {
		bool blob = f->cls && f->cls->kind == TC_FIELD_BLOB;
		uint64_t n = blob ? f->v.str.len : f->v.compound.count;
		if ((rc = count_fits(s, oc, f, n)) < 0)
			return rc;
		if (info && info->kind == OUT_KEY_IN_HEADER)
			set_key(s, info, n);
		if (blob)
			return put_bytes(s, f->v.str.ptr, f->v.str.len);
		if (!is_compound(oc->element->kind)) {
			for (size_t i = 0; i < n && rc == 0; i++)
				rc = encode(s, oc->element, &f->v.compound.items[i]);
			return rc;
		}
		/* where a length inside an element finds its element (fit.c) */
		size_t d = s->fit.depth++;
		for (size_t i = 0; i < n && rc == 0; i++) {
			if (d < CTF_FIT_DEPTH)
				s->fit.elems[d].array = f, s->fit.elems[d].index = i;
			rc = encode(s, oc->element, &f->v.compound.items[i]);
		}
		s->fit.depth = d;
		return rc;
	}
	case TC_FIELD_BLOB:
		if ((rc = count_fits(s, oc, f, f->v.str.len)) < 0)
			return rc;
		if (info && info->kind == OUT_KEY_IN_HEADER)
			set_key(s, info, f->v.str.len);
		return put_bytes(s, f->v.str.ptr, f->v.str.len);
	case TC_FIELD_VARIANT:
		if (f->option >= oc->member_count || !f->v.compound.count)
			return tc_fail(TC_EINVAL, NULL, -1, "a variant value without its option");
		if (info && info->kind == OUT_KEY_IN_HEADER)
			set_key(s, info, f->option);
		return encode(s, oc->members[f->option].cls, &f->v.compound.items[0]);
	case TC_FIELD_OPTIONAL:
		if (info && info->kind == OUT_KEY_IN_HEADER)
			set_key(s, info, f->v.compound.count ? 1 : 0);
		return f->v.compound.count ? encode(s, oc->element, &f->v.compound.items[0]) : 0;
	}
	return tc_fail(TC_EINVAL, NULL, -1, "a field of an unknown kind");
}

/* Whether one of L's ranges holds 0. */
static bool holds_zero(const tc_enum_label *l)
{
	for (size_t r = 0; r < l->range_count; r++)
		if (l->ranges[r].lo == 0 || ((int64_t)l->ranges[r].lo <= 0 && (int64_t)l->ranges[r].hi >= 0 &&
		                             (int64_t)l->ranges[r].lo <= (int64_t)l->ranges[r].hi))
			return true;
	return false;
}

/* A scope the reader does not hand out because nothing of it is shown
 * (all hidden): zeros, which no reader displays either (with the options
 * a zero selector selects). */
static int encode_zero(out_stream *s, const tc_field_class *oc)
{
	int rc = align_to(s, oc->align);
	switch (oc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_FLOAT:
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		return rc ? rc : put_bits(s, 0, oc->size);
	case TC_FIELD_STRING:
		return rc ? rc : put_bits(s, 0, 8);
	case TC_FIELD_STRUCT:
		for (size_t i = 0; i < oc->member_count && rc == 0; i++)
			rc = encode_zero(s, oc->members[i].cls);
		return rc;
	case TC_FIELD_ARRAY:
		for (uint64_t i = 0; i < oc->length && rc == 0; i++)
			rc = encode_zero(s, oc->element);
		return rc;
	case TC_FIELD_BLOB:
		for (uint64_t i = 0; !oc->length_ref && i < oc->length && rc == 0; i++)
			rc = put_bits(s, 0, 8);
		return rc;
	case TC_FIELD_VARIANT: {
		size_t o = 0;
		while (oc->labels && o < oc->member_count && o < oc->label_count && !holds_zero(&oc->labels[o]))
			o++;
		return o < oc->member_count && rc == 0 ? encode_zero(s, oc->members[o].cls) : rc;
	}
	case TC_FIELD_OPTIONAL:
		return oc->label_count && holds_zero(&oc->labels[0]) && rc == 0 ? encode_zero(s, oc->element) : rc;
	default:
		return rc;
	}
}

static int encode_scope(out_stream *s, const tc_field_class *oc, const tc_field *f)
{
	if (!oc)
		return 0;
	return f ? encode(s, oc, f) : encode_zero(s, oc);
}

static int write_out(tc_ctf_writer *w, out_stream *s, const uint8_t *data, size_t len)
{
	while (len) {
		ssize_t n = write(s->fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tc_fail(TC_EIO, s->path, (int64_t)s->file_bytes, "%s", strerror(errno));
		data += n;
		len -= (size_t)n;
		s->file_bytes += (uint64_t)n;
		atomic_fetch_add_explicit(&w->bytes, (uint64_t)n, memory_order_relaxed);
	}
	return 0;
}

static int close_packet(tc_ctf_writer *w, out_stream *s)
{
	if (!s->in_packet)
		return 0;
	uint64_t content = s->pos;
	uint64_t bytes = (content + 7) / 8;
	uint8_t *pc = s->buf + HEADER_BYTES(w);
	if (s->sc->pub.clock)
		tc_store_le64(pc + s->sc->ts_end_off, s->last_ts);
	tc_store_le64(pc + s->sc->content_off, content);
	tc_store_le64(pc + s->sc->content_off + 8, bytes * 8);
	s->in_packet = false;
	s->seq++;
	int rc = write_out(w, s, s->buf, (size_t)bytes);
	memset(s->buf, 0, (size_t)bytes);
	s->pos = 0;
	return rc;
}

/* The input's visible packet context members of PC (NULL: zeros) at S's
 * position. */
static int encode_context(out_stream *s, const tc_field *pc)
{
	const tc_field_class *oc = s->sc->pub.packet_context;
	size_t first = s->sc->pc_specials;
	int rc = 0;
	s->fit.roots[TC_SCOPE_PACKET_CONTEXT] = pc;
	s->fit.depth = 0;
	for (size_t i = 0; i < s->sc->pc_member_count && rc == 0; i++) {
		const tc_field *sf = pc ? &pc->v.compound.items[s->sc->pc_members[i]] : NULL;
		rc = encode_scope(s, oc->members[first + i].cls, sf);
	}
	return rc;
}

static int open_packet(tc_ctf_writer *w, out_stream *s, const tc_message *msg)
{
	s->pos = 0;
	int rc = put_bits(s, CTF_MAGIC, 32);
	if (rc == 0 && w->out.has_uuid)
		rc = put_bytes(s, w->out.uuid, 16);
	if (rc == 0)
		rc = put_bits(s, s->sc->pub.id, 32);
	if (rc == 0)
		rc = put_bits(s, s->src->id, 64);
	/* the packet context's keys, patched once it is written */
	s->pkt_key_pos = s->pos;
	for (size_t i = 0; i < w->pkt_key_count && rc == 0; i++) {
		s->pkt_key_val[i] = 0;
		rc = put_bits(s, 0, 64);
	}
	if (rc < 0)
		return rc;
	uint64_t ts = msg->has_time ? msg->cycles : s->last_ts;
	if (s->sc->pub.clock) {
		s->ts_begin = s->last_ts = ts;
		if ((rc = put_bits(s, ts, 64)) < 0 || (rc = put_bits(s, ts, 64)) < 0)
			return rc;
	}
	/* content_size and packet_size are patched when the packet ends */
	if ((rc = put_bits(s, 0, 64)) < 0 || (rc = put_bits(s, 0, 64)) < 0 || (rc = put_bits(s, s->seq, 64)) < 0 ||
	    (rc = put_bits(s, s->discarded, 64)) < 0)
		return rc;
	s->context_start = (size_t)(s->pos / 8);
	if ((rc = encode_context(s, msg->packet_context)) < 0)
		return rc;
	s->context_end = (size_t)((s->pos + 7) / 8);
	for (size_t i = 0; i < w->pkt_key_count; i++)
		tc_store_le64(s->buf + s->pkt_key_pos / 8 + 8 * i, s->pkt_key_val[i]);
	/* what context_changed() compares the next events' contexts with */
	s->has_context = msg->packet_context != NULL;
	for (size_t i = 0; s->has_context && i < s->sc->pc_member_count; i++) {
		const tc_field *f = &msg->packet_context->v.compound.items[s->sc->pc_members[i]];
		s->context_values[i] = s->sc->pc_number[i] ? f->v.u : 0;
	}
	s->in_packet = true;
	s->events_in_packet = 0;
	return 0;
}

/* Whether MSG's visible packet context differs from the open packet's:
 * its numbers, and the others as encoded (a reader may hand out the next
 * packet's context in the same fields). */
static bool context_changed(out_stream *s, const tc_message *msg)
{
	if (!s->sc->pc_member_count)
		return false;
	if (!msg->packet_context || !s->has_context)
		return msg->packet_context || s->has_context;
	for (size_t i = 0; i < s->sc->pc_member_count; i++) {
		const tc_field *f = &msg->packet_context->v.compound.items[s->sc->pc_members[i]];
		if (s->sc->pc_number[i] && f->v.u != s->context_values[i])
			return true;
	}
	if (!s->sc->pc_deep)
		return false;
	/* encoded where the open packet has it, and compared */
	out_stream t = { .sc = s->sc, .pos = (uint64_t)s->context_start * 8, .buf = s->cmp_buf, .cap = s->cmp_cap };
	bool changed = encode_context(&t, msg->packet_context) < 0 || (t.pos + 7) / 8 != s->context_end ||
	               memcmp(t.buf + s->context_start, s->buf + s->context_start, s->context_end - s->context_start) != 0;
	s->cmp_buf = t.buf;
	s->cmp_cap = t.cap;
	if (t.buf && t.pos > (uint64_t)s->context_start * 8)
		memset(t.buf + s->context_start, 0, (size_t)((t.pos + 7) / 8) - s->context_start);
	return changed;
}

static int file_name(tc_ctf_writer *w, const out_stream *s, char *out, size_t size)
{
	const tc_stream *src = s->src;
	const char *base = NULL;
	if (src->trace->layout != TC_LAYOUT_OWN && src->name) {
		base = strrchr(src->name, '/');
		base = base ? base + 1 : src->name;
	}
	for (unsigned n = 0;; n++) {
		if (base)
			snprintf(out, size, n ? "%s.%u" : "%s", base, n);
		else
			snprintf(out, size, n ? "channel%llu_%llu.%u" : "channel%llu_%llu", (unsigned long long)s->sc->pub.id,
			         (unsigned long long)src->id, n);
		bool taken = strcmp(out, "metadata") == 0 || out[0] == '.';
		for (size_t i = 0; i < w->file_name_count && !taken; i++)
			taken = strcmp(w->file_names[i], out) == 0;
		if (!taken)
			break;
	}
	char *copy = strdup(out);
	if (!copy || tc_ptr_push((void ***)&w->file_names, &w->file_name_count, copy) < 0) {
		free(copy);
		return tc_fail_nomem();
	}
	return 0;
}

/* The output stream of input stream SRC, with its file's name: made for
 * every stream of the traces when the writer is, so that the names do not
 * depend on which thread writes first (and for a stream the trace does
 * not list, with its first message). */
static int add_stream(tc_ctf_writer *w, const tc_stream *src)
{
	size_t ci;
	if (!map_get(&w->class_of, src->stream_class, &ci))
		return tc_fail(TC_EINVAL, src->name, -1, "a stream of a trace this writer was not given");
	out_stream *s = calloc(1, sizeof *s);
	if (!s)
		return tc_fail_nomem();
	s->src = src;
	s->sc = w->classes[ci];
	s->fd = -1;
	char name[512], path[4096];
	int rc = 0;
	if ((s->sc->extra_count && !(s->extra_val = calloc(s->sc->extra_count, sizeof *s->extra_val))) ||
	    (w->pkt_key_count && !(s->pkt_key_val = calloc(w->pkt_key_count, sizeof *s->pkt_key_val))) ||
	    (s->sc->pc_member_count &&
	     !(s->context_values = calloc(s->sc->pc_member_count, sizeof *s->context_values))))
		rc = tc_fail_nomem();
	if (rc == 0)
		rc = file_name(w, s, name, sizeof name);
	if (rc == 0 && snprintf(path, sizeof path, "%s/%s", w->dir, name) >= (int)sizeof path)
		rc = tc_fail(TC_EINVAL, w->dir, -1, "path too long");
	if (rc == 0 && !(s->path = strdup(path)))
		rc = tc_fail_nomem();
	if (rc == 0 && (rc = map_put(&w->stream_of, src, w->stream_count)) == 0)
		rc = tc_ptr_push((void ***)&w->streams, &w->stream_count, s);
	if (rc < 0) {
		free(s->extra_val);
		free(s->pkt_key_val);
		free(s->context_values);
		free(s->path);
		free(s);
	}
	return rc;
}

/* The output stream of SRC, its file created with its first message.
 * Each thread remembers the last one it wrote to, without the lock:
 * messages come in runs of one stream. */
static int stream_of(tc_ctf_writer *w, const tc_stream *src, out_stream **out)
{
	static _Thread_local struct {
		uint64_t serial;
		const tc_stream *src;
		out_stream *s;
	} last_stream;
	if (last_stream.serial == w->serial && last_stream.src == src) {
		*out = last_stream.s;
		return 0;
	}
	size_t i;
	int rc = 0;
	pthread_mutex_lock(&w->streams_lock);
	if (!map_get(&w->stream_of, src, &i) && (rc = add_stream(w, src)) == 0)
		i = w->stream_count - 1;
	out_stream *s = rc == 0 ? w->streams[i] : NULL;
	if (s && s->fd < 0 && (s->fd = open(s->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
		rc = tc_fail(TC_EIO, s->path, -1, "%s", strerror(errno));
	pthread_mutex_unlock(&w->streams_lock);
	if (rc < 0)
		return rc;
	last_stream.serial = w->serial;
	last_stream.src = src;
	last_stream.s = s;
	*out = s;
	return 0;
}

/* The lengths an event header carries (see the top): zeros for now,
 * patched once the event's fields have given them. */
static int write_header_lengths(out_stream *s)
{
	int rc = align_to(s, 8);
	s->extra_pos = s->pos;
	for (size_t i = 0; i < s->sc->extra_count && rc == 0; i++) {
		s->extra_val[i] = 0;
		rc = put_bits(s, 0, 64);
	}
	return rc;
}

static int write_header(out_stream *s, uint64_t id, uint64_t ts)
{
	const out_stream_class *sc = s->sc;
	int rc;
	if (!sc->pub.clock) {
		if ((rc = align_to(s, 8)) < 0 || (rc = put_bits(s, id, 32)) < 0)
			return rc;
		return sc->extra_count ? write_header_lengths(s) : 0;
	}
	unsigned id_bits = sc->compact ? 5 : 16, ts_bits = sc->compact ? 27 : 32;
	uint64_t escape = (1u << id_bits) - 1;
	bool fits = !sc->full_times && id < escape && ts >= s->last_ts && ts - s->last_ts < (1ull << ts_bits);
	if ((rc = align_to(s, sc->compact ? 32 : 8)) < 0)
		return rc;
	if (fits)
		rc = put_bits(s, id, id_bits) < 0 ? TC_ENOMEM : put_bits(s, ts, ts_bits);
	else if ((rc = put_bits(s, escape, id_bits)) == 0 && (rc = align_to(s, 8)) == 0 && (rc = put_bits(s, id, 32)) == 0)
		rc = put_bits(s, ts, 64);
	s->last_ts = ts;
	if (rc == 0 && sc->extra_count)
		rc = write_header_lengths(s);
	return rc;
}

int tc_ctf_writer_write(tc_ctf_writer *w, const tc_message *msg)
{
	out_stream *s = NULL;
	int rc = stream_of(w, msg->stream, &s);
	if (rc < 0)
		return rc;
	if (msg->kind != TC_MSG_EVENT) {
		/* The next packet tells: a higher discarded total, or a gap in
		 * the sequence numbers. */
		if (s->seq == 0 && !s->in_packet)
			s->lead_packet = true;
		if (msg->kind == TC_MSG_DISCARDED_EVENTS)
			s->discarded += msg->count ? msg->count : 1;
		else
			s->seq += msg->count ? msg->count : 1;
		return close_packet(w, s);
	}
	if (s->lead_packet) {
		/* nothing was discarded before the lead packet's own losses */
		uint64_t total = s->discarded, seq = s->seq;
		s->discarded = 0;
		s->seq = 0;
		s->lead_packet = false;
		if ((rc = open_packet(w, s, msg)) < 0 || (rc = close_packet(w, s)) < 0)
			return rc;
		s->discarded = total;
		s->seq = seq + 1;
	}
	if (s->in_packet && (context_changed(s, msg) || s->pos / 8 >= w->packet_size) && (rc = close_packet(w, s)) < 0)
		return rc;
	if (!s->in_packet && (rc = open_packet(w, s, msg)) < 0) {
		const tc_field_class *pc = s->sc->pub.packet_context;
		return ctf_fit_error(&s->fit, rc, msg->stream->name, msg->event_class->name, &pc, 1);
	}
	size_t id;
	if (!map_get(&w->event_id, msg->event_class, &id))
		return tc_fail(TC_EINVAL, msg->stream->name, -1, "event class \"%s\" unknown to the writer",
		               msg->event_class->name ? msg->event_class->name : "(unnamed)");
	const out_stream_class *sc = s->sc;
	const tc_event_class *ec = sc->pub.event_classes[id];
	if (!atomic_load_explicit(&sc->used[id], memory_order_relaxed))
		atomic_store_explicit(&sc->used[id], true, memory_order_relaxed);
	if ((rc = write_header(s, id, msg->has_time ? msg->cycles : s->last_ts)) < 0)
		return rc;
	s->fit.roots[TC_SCOPE_PACKET_CONTEXT] = msg->packet_context;
	s->fit.roots[TC_SCOPE_STREAM_EVENT_CONTEXT] = msg->stream_event_context;
	s->fit.roots[TC_SCOPE_EVENT_CONTEXT] = msg->event_context;
	s->fit.roots[TC_SCOPE_PAYLOAD] = msg->payload;
	s->fit.depth = 0;
	if ((rc = encode_scope(s, sc->pub.event_context, msg->stream_event_context)) < 0 ||
	    (rc = encode_scope(s, ec->context, msg->event_context)) < 0 || (rc = encode_scope(s, ec->payload, msg->payload)) < 0) {
		const tc_field_class *scopes[] = { ec->payload, ec->context, sc->pub.event_context };
		return ctf_fit_error(&s->fit, rc, msg->stream->name, ec->name, scopes, 3);
	}
	for (size_t i = 0; i < sc->extra_count; i++)
		tc_store_le64(s->buf + s->extra_pos / 8 + 8 * i, s->extra_val[i]);
	s->events_in_packet++;
	return 0;
}

int tc_ctf_writer_finish(tc_ctf_writer *w)
{
	int rc = 0;
	/* Streams end together, at the last event of any (as LTTng's do when
	 * a session stops), so that no CPU looks idle at the end. */
	const tc_clock *clock = w->stream_count ? w->streams[0]->sc->pub.clock : NULL;
	uint64_t end = 0;
	for (size_t i = 0; i < w->stream_count; i++)
		if (w->streams[i]->sc->pub.clock == clock && w->streams[i]->last_ts > end)
			end = w->streams[i]->last_ts;
	for (size_t i = 0; i < w->stream_count && rc == 0; i++) {
		out_stream *s = w->streams[i];
		if (s->in_packet && clock && s->sc->pub.clock == clock && end > s->last_ts)
			s->last_ts = end;
		rc = close_packet(w, s);
		if (s->fd >= 0 && close(s->fd) < 0 && rc == 0)
			rc = tc_fail(TC_EIO, s->path, -1, "%s", strerror(errno));
		s->fd = -1;
	}
	/* Only the event classes written are declared: Trace Compass picks
	 * its analyses' events from the declared ones (a declared but empty
	 * sched_waking hides the sched_wakeup events), and a raw_syscalls
	 * input would otherwise declare every system call.  Ids stay. */
	for (size_t i = 0; i < w->class_count; i++) {
		out_stream_class *sc = w->classes[i];
		size_t k = 0;
		for (size_t e = 0; e < sc->pub.event_class_count; e++)
			if (atomic_load_explicit(&sc->used[e], memory_order_relaxed))
				sc->pub.event_classes[k++] = sc->pub.event_classes[e];
		sc->pub.event_class_count = k;
	}
	tc_buf meta = { 0 };
	if (rc == 0)
		rc = w->ctf_version == 2 ? ctf_json_write(&w->out, &meta) : ctf_tsdl_write(&w->out, &meta);
	if (rc == 0)
		rc = ctf_write_file(w->dir, "metadata", meta.data, meta.len);
	tc_buf_free(&meta);
	return rc;
}

uint64_t tc_ctf_writer_bytes(const tc_ctf_writer *w)
{
	return w ? atomic_load_explicit(&w->bytes, memory_order_relaxed) : 0;
}

void tc_ctf_writer_free(tc_ctf_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->stream_count; i++) {
		out_stream *s = w->streams[i];
		if (s->fd >= 0)
			close(s->fd);
		free(s->buf);
		free(s->cmp_buf);
		free(s->extra_val);
		free(s->pkt_key_val);
		free(s->context_values);
		free(s->path);
		free(s);
	}
	for (size_t i = 0; i < w->file_name_count; i++)
		free(w->file_names[i]);
	free(w->file_names);
	free(w->streams);
	free(w->classes);
	free(w->out.clocks);
	free(w->out.stream_classes);
	map_free(&w->class_of);
	map_free(&w->event_id);
	map_free(&w->stream_of);
	map_free(&w->names_of);
	pthread_mutex_destroy(&w->streams_lock);
	tc_pool_free(&w->pool);
	free(w->dir);
	free(w);
}
