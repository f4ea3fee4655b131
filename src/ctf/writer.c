/*
 * writer.c - tc_ctf_writer: messages of any input encoded into CTF 1.8
 * packets, with LTTng's packet and event-header layouts (tracecat.h says
 * what the trace looks like).
 *
 * At creation every input class gets an output class: the same tree with
 * little-endian numbers, text arrays and sequences as strings, and names
 * spelled so that a reader shows what the model shows.  Encoding walks a
 * decoded field tree beside its output class.  Each output stream keeps
 * one packet in memory, bounded by the packet size, and appends it to its
 * file when full, when its visible packet context changes, or when events
 * were lost (a new packet carries the new discarded-event total, which is
 * how CTF says so).  The metadata is written last, by finish.
 */
#include "ctf/ctf_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define DEFAULT_PACKET_SIZE (256u * 1024)
#define CTF_MAGIC 0xC1FC1FC1u

/* The packet header: magic, the trace UUID (when the trace has one: a
 * trace read without one keeps none, which readers order traces by),
 * stream_id, stream_instance_id; all packed, little-endian. */
#define HEADER_BYTES(w) ((w)->out.has_uuid ? 32u : 16u)

typedef struct out_stream_class {
	tc_stream_class pub;
	const tc_stream_class *src;
	bool compact;                /* 5-bit ids; else 16-bit */
	bool full_times;             /* fields other than the header set the clock */
	/* the input's visible packet context members: their indexes */
	size_t *pc_members;
	size_t pc_member_count;
	bool *used;                  /* per event class: written at least once */
	size_t ts_end_off;           /* byte offsets of fields patched when a packet ends */
	size_t content_off;
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
	const tc_field *src_context; /* the packet context of the packet being written */
	size_t context_start, context_end;   /* its visible members' bytes */
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
	out_stream_class **classes;
	size_t class_count;
	ptr_map class_of;            /* input stream class -> classes index */
	ptr_map event_id;            /* input event class -> output id */
	out_stream **streams;
	size_t stream_count;
	ptr_map stream_of;           /* input stream -> streams index */
	out_stream *last;
	uint64_t bytes;
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

static tc_field_class *new_class(tc_ctf_writer *w, tc_field_kind kind, unsigned align)
{
	tc_field_class *fc = tc_pool_alloc(&w->pool, sizeof *fc);
	if (fc) {
		fc->kind = kind;
		fc->align = align;
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

/* The name a CTF reader shows as DISPLAY: readers drop one leading '_'. */
static char *member_name(tc_ctf_writer *w, const tc_member *m)
{
	const char *d = m->display_name ? m->display_name : m->name;
	if (m->name[0] == '_' ? strcmp(d, m->name + 1) == 0 : strcmp(d, m->name) == 0)
		return m->name;
	size_t n = strlen(d);
	char *s = tc_pool_alloc(&w->pool, n + 2);
	if (s) {
		s[0] = '_';
		memcpy(s + 1, d, n + 1);
	}
	return s;
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

static tc_field_class *out_class(tc_ctf_writer *w, const tc_field_class *src)
{
	if (!src)
		return NULL;
	if ((src->kind == TC_FIELD_ARRAY || src->kind == TC_FIELD_SEQUENCE) && (src->flags & TC_FIELD_TEXT))
		return new_class(w, TC_FIELD_STRING, 8);
	tc_field_class *fc = tc_pool_alloc(&w->pool, sizeof *fc);
	if (!fc)
		return NULL;
	*fc = *src;
	fc->priv = NULL;
	fc->flags &= ~TC_FIELD_HIDDEN;
	fc->byte_order = TC_LITTLE_ENDIAN;
	switch (src->kind) {
	case TC_FIELD_STRING:
		fc->align = 8;
		break;
	case TC_FIELD_STRUCT:
	case TC_FIELD_VARIANT:
		if (src->member_count && !(fc->members = tc_pool_alloc(&w->pool, src->member_count * sizeof *fc->members)))
			return NULL;
		for (size_t i = 0; i < src->member_count; i++) {
			fc->members[i].name = member_name(w, &src->members[i]);
			fc->members[i].display_name = src->members[i].display_name;
			if (!fc->members[i].name || !(fc->members[i].cls = out_class(w, src->members[i].cls)))
				return NULL;
		}
		break;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		if (src->kind == TC_FIELD_SEQUENCE && !src->length_ref)
			return tc_fail(TC_EUNSUPPORTED, NULL, -1, "a sequence without a length field cannot be written"), NULL;
		if (!(fc->element = out_class(w, src->element)))
			return NULL;
		break;
	default:
		break;
	}
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
		s->members = m;
		s->member_count = 1;
		return s;
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
	labels[0] = (tc_enum_label){ "compact", &ranges[0], 1 };
	labels[1] = (tc_enum_label){ "extended", &ranges[1], 1 };
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
	return s;
}

/* The special fields, then the input's visible packet context fields. */
static int packet_context_class(tc_ctf_writer *w, out_stream_class *sc)
{
	static const char *const timed[] = { "timestamp_begin", "timestamp_end" };
	static const char *const counts[] = { "content_size", "packet_size", "packet_seq_num", "events_discarded" };
	const tc_field_class *src = sc->src->packet_context;
	const tc_clock *clk = sc->src->clock;
	size_t extra = 0;
	if (src && src->member_count && !(sc->pc_members = tc_pool_alloc(&w->pool, src->member_count * sizeof(size_t))))
		return TC_ENOMEM;
	for (size_t i = 0; src && i < src->member_count; i++)
		if (!(src->members[i].cls->flags & TC_FIELD_HIDDEN))
			sc->pc_members[extra++] = i;
	sc->pc_member_count = extra;
	size_t n = (clk ? 2 : 0) + 4 + extra, k = 0;
	tc_field_class *s = new_class(w, TC_FIELD_STRUCT, 8);
	tc_member *m = tc_pool_alloc(&w->pool, n * sizeof *m);
	if (!s || !m)
		return TC_ENOMEM;
	for (size_t i = 0; clk && i < 2; i++, k++)
		m[k] = (tc_member){ (char *)timed[i], timed[i], int_class(w, 64, 8, clk) };
	for (size_t i = 0; i < 4; i++, k++)
		m[k] = (tc_member){ (char *)counts[i], counts[i], int_class(w, 64, 8, NULL) };
	for (size_t i = 0; i < extra; i++, k++) {
		const tc_member *sm = &src->members[sc->pc_members[i]];
		m[k].name = member_name(w, sm);
		m[k].display_name = sm->display_name;
		m[k].cls = out_class(w, sm->cls);
		if (!m[k].name)
			return TC_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		if (!m[i].cls)
			return tc_error_last()->code ? tc_error_last()->code : TC_ENOMEM;
	s->members = m;
	s->member_count = n;
	sc->pub.packet_context = s;
	sc->ts_end_off = HEADER_BYTES(w) + 8;
	sc->content_off = HEADER_BYTES(w) + (clk ? 16 : 0);
	return 0;
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
	if (src->event_context && !(sc->pub.event_context = out_class(w, src->event_context)))
		return tc_error_last()->code;
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
		if ((se->context && !(ec->context = out_class(w, se->context))) ||
		    (se->payload && !(ec->payload = out_class(w, se->payload))))
			return tc_error_last()->code;
		sc->full_times = sc->full_times || has_inner_clock(se->context) || has_inner_clock(se->payload);
		sc->pub.event_classes[i] = ec;
		if ((rc = map_put(&w->event_id, se, i)) < 0)
			return rc;
	}
	sc->pub.event_class_count = src->event_class_count;
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

int tc_ctf_writer_new(tc_ctf_writer **out, const char *dir, tc_trace *const *traces, size_t count,
                      const tc_ctf_writer_options *opts)
{
	if (!count)
		return tc_fail(TC_EINVAL, dir, -1, "a writer needs at least one trace");
	tc_ctf_writer *w = calloc(1, sizeof *w);
	if (!w)
		return tc_fail_nomem();
	tc_pool_init(&w->pool);
	w->packet_size = opts && opts->packet_size ? opts->packet_size : DEFAULT_PACKET_SIZE;
	int rc = 0;
	if (!(w->dir = strdup(dir)))
		rc = tc_fail_nomem();
	const tc_trace *first = traces[0];
	w->out.format = "ctf";
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
	if (rc < 0) {
		tc_ctf_writer_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

/* ---- encoding ---- */

static int reserve(out_stream *s, uint64_t bits)
{
	size_t need = (size_t)((s->pos + bits + 7) / 8) + 8;
	if (need <= s->cap)
		return 0;
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

static int align_to(out_stream *s, unsigned align)
{
	uint64_t p = (s->pos + align - 1) & ~(uint64_t)(align - 1);
	int rc = reserve(s, p - s->pos);
	if (rc == 0)
		s->pos = p;   /* the buffer is zeroed: padding is zeros */
	return rc;
}

/* N bits of V at the current position, least significant first, as CTF
 * lays out little-endian bit fields. */
static int put_bits(out_stream *s, uint64_t v, unsigned n)
{
	int rc = reserve(s, n);
	if (rc < 0)
		return rc;
	if (n < 64)
		v &= (1ull << n) - 1;
	if ((s->pos & 7) == 0 && (n & 7) == 0) {
		uint8_t *p = s->buf + s->pos / 8;
		for (unsigned i = 0; i < n / 8; i++)
			p[i] = (uint8_t)(v >> (8 * i));
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

static int encode(out_stream *s, const tc_field_class *oc, const tc_field *f)
{
	int rc = align_to(s, oc->align);
	if (rc < 0)
		return rc;
	switch (oc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
		return put_bits(s, f->v.u, oc->size);
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
	case TC_FIELD_STRUCT:
		for (size_t i = 0; i < oc->member_count && rc == 0; i++)
			rc = encode(s, oc->members[i].cls, &f->v.compound.items[i]);
		return rc;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		for (size_t i = 0; i < f->v.compound.count && rc == 0; i++)
			rc = encode(s, oc->element, &f->v.compound.items[i]);
		return rc;
	case TC_FIELD_VARIANT:
		if (f->option >= oc->member_count || !f->v.compound.count)
			return tc_fail(TC_EINVAL, NULL, -1, "a variant value without its option");
		return encode(s, oc->members[f->option].cls, &f->v.compound.items[0]);
	}
	return 0;
}

/* A scope the reader does not hand out because nothing of it is shown
 * (all hidden): zeros, which no reader displays either. */
static int encode_zero(out_stream *s, const tc_field_class *oc)
{
	int rc = align_to(s, oc->align);
	switch (oc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM:
	case TC_FIELD_FLOAT:
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
	case TC_FIELD_SEQUENCE:
		return rc;
	case TC_FIELD_VARIANT:
		return oc->member_count && rc == 0 ? encode_zero(s, oc->members[0].cls) : rc;
	}
	return rc;
}

static int encode_scope(out_stream *s, const tc_field_class *oc, const tc_field *f)
{
	if (!oc)
		return 0;
	return f ? encode(s, oc, f) : encode_zero(s, oc);
}

static void put_u64_at(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int write_out(tc_ctf_writer *w, out_stream *s, const uint8_t *data, size_t len)
{
	while (len) {
		ssize_t n = write(s->fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tc_fail(TC_EIO, s->path, (int64_t)s->file_bytes, "cannot write: %s", strerror(errno));
		data += n;
		len -= (size_t)n;
		s->file_bytes += (uint64_t)n;
		w->bytes += (uint64_t)n;
	}
	return 0;
}

static int close_packet(tc_ctf_writer *w, out_stream *s)
{
	if (!s->in_packet)
		return 0;
	uint64_t content = s->pos;
	uint64_t bytes = (content + 7) / 8;
	if (s->sc->pub.clock)
		put_u64_at(s->buf + s->sc->ts_end_off, s->last_ts);
	put_u64_at(s->buf + s->sc->content_off, content);
	put_u64_at(s->buf + s->sc->content_off + 8, bytes * 8);
	s->in_packet = false;
	s->seq++;
	int rc = write_out(w, s, s->buf, (size_t)bytes);
	memset(s->buf, 0, (size_t)bytes);
	s->pos = 0;
	return rc;
}

static int open_packet(tc_ctf_writer *w, out_stream *s, const tc_message *msg)
{
	s->pos = 0;
	uint8_t header[32];
	size_t n = 0;
	for (int i = 0; i < 4; i++)
		header[n++] = (uint8_t)(CTF_MAGIC >> (8 * i));
	if (w->out.has_uuid) {
		memcpy(header + n, w->out.uuid, 16);
		n += 16;
	}
	for (int i = 0; i < 4; i++)
		header[n++] = (uint8_t)(s->sc->pub.id >> (8 * i));
	put_u64_at(header + n, s->src->id);
	int rc = put_bytes(s, header, n + 8);
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
	const tc_field_class *pc = s->sc->pub.packet_context;
	size_t first = pc->member_count - s->sc->pc_member_count;
	for (size_t i = 0; i < s->sc->pc_member_count && rc == 0; i++) {
		const tc_field *sf = msg->packet_context ? &msg->packet_context->v.compound.items[s->sc->pc_members[i]] : NULL;
		rc = encode_scope(s, pc->members[first + i].cls, sf);
	}
	if (rc < 0)
		return rc;
	s->context_end = (size_t)((s->pos + 7) / 8);
	s->src_context = msg->packet_context;
	s->in_packet = true;
	s->events_in_packet = 0;
	return 0;
}

/* Whether MSG's visible packet context differs from the open packet's. */
static bool context_changed(out_stream *s, const tc_message *msg)
{
	if (!s->sc->pc_member_count || msg->packet_context == s->src_context)
		return false;
	if (!msg->packet_context || !s->src_context)
		return true;
	for (size_t i = 0; i < s->sc->pc_member_count; i++) {
		const tc_field *a = &msg->packet_context->v.compound.items[s->sc->pc_members[i]];
		const tc_field *b = &s->src_context->v.compound.items[s->sc->pc_members[i]];
		bool scalar = a->cls->kind == TC_FIELD_INT || a->cls->kind == TC_FIELD_ENUM;
		if (!scalar || a->v.u != b->v.u)
			return true;
	}
	s->src_context = msg->packet_context;
	return false;
}

static int file_name(tc_ctf_writer *w, const out_stream *s, char *out, size_t size)
{
	const tc_stream *src = s->src;
	const char *base = NULL;
	if (strcmp(src->trace->format, "ctf") == 0 && src->name) {
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

static int stream_of(tc_ctf_writer *w, const tc_stream *src, out_stream **out)
{
	size_t i;
	if (w->last && w->last->src == src) {
		*out = w->last;
		return 0;
	}
	if (map_get(&w->stream_of, src, &i)) {
		*out = w->last = w->streams[i];
		return 0;
	}
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
	int rc = file_name(w, s, name, sizeof name);
	if (rc == 0 && snprintf(path, sizeof path, "%s/%s", w->dir, name) >= (int)sizeof path)
		rc = tc_fail(TC_EINVAL, w->dir, -1, "path too long");
	if (rc == 0 && !(s->path = strdup(path)))
		rc = tc_fail_nomem();
	if (rc == 0 && (s->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
		rc = tc_fail(TC_EIO, path, -1, "cannot create: %s", strerror(errno));
	if (rc == 0 && (rc = map_put(&w->stream_of, src, w->stream_count)) == 0)
		rc = tc_ptr_push((void ***)&w->streams, &w->stream_count, s);
	if (rc < 0) {
		if (s->fd >= 0)
			close(s->fd);
		free(s->path);
		free(s);
		return rc;
	}
	*out = w->last = s;
	return 0;
}

static int write_header(out_stream *s, uint64_t id, uint64_t ts)
{
	const out_stream_class *sc = s->sc;
	int rc;
	if (!sc->pub.clock) {
		if ((rc = align_to(s, 8)) < 0)
			return rc;
		return put_bits(s, id, 32);
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
	return rc;
}

int tc_ctf_writer_write(tc_ctf_writer *w, const tc_message *msg)
{
	out_stream *s;
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
	if (!s->in_packet && (rc = open_packet(w, s, msg)) < 0)
		return rc;
	size_t id;
	if (!map_get(&w->event_id, msg->event_class, &id))
		return tc_fail(TC_EINVAL, msg->stream->name, -1, "event class \"%s\" unknown to the writer", msg->event_class->name);
	const out_stream_class *sc = s->sc;
	const tc_event_class *ec = sc->pub.event_classes[id];
	sc->used[id] = true;
	if ((rc = write_header(s, id, msg->has_time ? msg->cycles : s->last_ts)) < 0)
		return rc;
	if ((rc = encode_scope(s, sc->pub.event_context, msg->stream_event_context)) < 0 ||
	    (rc = encode_scope(s, ec->context, msg->event_context)) < 0 || (rc = encode_scope(s, ec->payload, msg->payload)) < 0)
		return rc;
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
			rc = tc_fail(TC_EIO, s->path, -1, "cannot write: %s", strerror(errno));
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
			if (sc->used[e])
				sc->pub.event_classes[k++] = sc->pub.event_classes[e];
		sc->pub.event_class_count = k;
	}
	tc_buf meta = { 0 };
	if (rc == 0)
		rc = ctf_tsdl_write(&w->out, &meta);
	if (rc == 0)
		rc = ctf_write_file(w->dir, "metadata", meta.data, meta.len);
	tc_buf_free(&meta);
	return rc;
}

uint64_t tc_ctf_writer_bytes(const tc_ctf_writer *w)
{
	return w ? w->bytes : 0;
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
	tc_pool_free(&w->pool);
	free(w->dir);
	free(w);
}
