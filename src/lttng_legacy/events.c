/* SPDX-License-Identifier: MIT */
/*
 * events.c - reading a legacy LTTng trace's events: the event headers of
 * every version family with their truncated timestamps, the metadata
 * files that give each event id its layout, and the cursor that walks one
 * tracefile block by block.  Section numbers (§N) are those of
 * doc/formats/lttng-legacy.md: §6 and §8 for headers and time, §7.1-§7.3
 * for the metadata.
 *
 * Event types are known before any data event is read: lg_reader_open()
 * reads every metadata file to its end first, because an id's description
 * and its format may come in either order and from any CPU's file.
 */
#include "lttng_legacy/legacy.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_XML_SIZE ((size_t)16 << 20)

/* The metadata markers' own layouts, fixed by the format (§7.1, §7.2). */
static const char core_marker_id_format[] =
	"channel %s name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u";
static const char core_marker_format_format[] = "channel %s name %s format %s";
/* Before 2.3 the same, without the leading "channel %s " */
#define WITHOUT_CHANNEL(format) ((format) + sizeof "channel %s " - 1)

/* The 0.x core facility (§7.3), described as its XML would be; 0.8 put
 * time_heartbeat_full before state_dump_facility_load. */
#define FACILITY_LOAD_FIELDS                                                                         \
	"<field name=name><string/></field><field name=checksum><uint_fixed size=4/></field>"          \
	"<field name=id><uint_fixed size=4/></field><field name=int_size><uint_fixed size=4/></field>" \
	"<field name=long_size><uint_fixed size=4/></field>"                                         \
	"<field name=pointer_size><uint_fixed size=4/></field>"                                      \
	"<field name=size_t_size><uint_fixed size=4/></field>"                                       \
	"<field name=has_alignment><uint_fixed size=4/></field>"
static const char core_facility_07[] =
	"<facility name=core><event name=facility_load>" FACILITY_LOAD_FIELDS "</event>"
	"<event name=facility_unload><field name=id><uint_fixed size=4/></field></event>"
	"<event name=time_heartbeat></event>"
	"<event name=state_dump_facility_load>" FACILITY_LOAD_FIELDS "</event></facility>";
static const char core_facility_08[] =
	"<facility name=core><event name=facility_load>" FACILITY_LOAD_FIELDS "</event>"
	"<event name=facility_unload><field name=id><uint_fixed size=4/></field></event>"
	"<event name=time_heartbeat></event>"
	"<event name=time_heartbeat_full><field name=tsc><uint_fixed size=8/></field></event>"
	"<event name=state_dump_facility_load>" FACILITY_LOAD_FIELDS "</event></facility>";

/* ---- event type tables ---- */

static lg_event_type *table_get(const lg_table *t, uint32_t id)
{
	return id < t->cap ? t->by_id[id] : NULL;
}

/* Adds TYPE under its id unless one is there: the first description wins
 * (ids are never reused within a trace, §7.1). */
static int table_put(lg_table *t, lg_event_type *type)
{
	if (type->id >= t->cap) {
		size_t cap = t->cap ? t->cap : 16;
		while (cap <= type->id)
			cap *= 2;
		lg_event_type **grown = realloc(t->by_id, cap * sizeof *grown);
		if (!grown)
			return tc_fail_nomem();
		memset(grown + t->cap, 0, (cap - t->cap) * sizeof *grown);
		t->by_id = grown;
		t->cap = cap;
	}
	if (!t->by_id[type->id])
		t->by_id[type->id] = type;
	return 0;
}

/* Gives TYPE its model class and files it under its id. */
static int register_type(lg_reader *r, lg_table *t, lg_event_type *type)
{
	if (type->payload->member_count && !(type->cls = lg_payload_class(&r->pool, type->payload)))
		return TC_ENOMEM;
	int rc = tc_resolve_sibling_refs(&r->pool, type->cls, TC_SCOPE_PAYLOAD);
	return rc < 0 ? rc : table_put(t, type);
}

static int add_marker_type(lg_reader *r, lg_table *t, uint32_t id, const char *name, const char *format,
                           const lg_sizes *sizes, bool resets_tsc)
{
	lg_event_type *type = tc_pool_alloc(&r->pool, sizeof *type);
	if (!type || !(type->name = tc_pool_strdup(&r->pool, name)))
		return TC_ENOMEM;
	type->id = id;
	type->resets_tsc = resets_tsc;
	int rc = lg_marker_compile(&r->pool, format, sizes, &type->payload);
	return rc < 0 ? rc : register_type(r, t, type);
}

static lg_channel *channel_named(const lg_reader *r, const char *name)
{
	size_t lo = 0, hi = r->channel_count;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(r->channels[mid]->name, name);
		if (c == 0)
			return r->channels[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- the metadata ---- */

/* What the metadata said of one marker: its id and sizes, or its format. */
typedef struct marker_note {
	const char *channel; /* NULL before 2.3 */
	const char *name;
	bool has_id;
	uint16_t id;
	lg_sizes sizes;
	const char *format;
} marker_note;

typedef struct metadata_pass {
	lg_reader *r;
	marker_note *notes;
	size_t count, cap;
} metadata_pass;

static marker_note *note_for(metadata_pass *m, const char *channel, const char *name)
{
	for (size_t i = 0; i < m->count; i++)
		if (strcmp(m->notes[i].name, name) == 0 &&
		    (channel ? m->notes[i].channel && strcmp(m->notes[i].channel, channel) == 0 : !m->notes[i].channel))
			return &m->notes[i];
	if (m->count == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		marker_note *grown = realloc(m->notes, cap * sizeof *grown);
		if (!grown) {
			tc_fail_nomem();
			return NULL;
		}
		m->notes = grown;
		m->cap = cap;
	}
	marker_note *n = &m->notes[m->count];
	*n = (marker_note){ 0 };
	n->channel = channel ? tc_pool_strdup(&m->r->pool, channel) : NULL;
	n->name = tc_pool_strdup(&m->r->pool, name);
	if ((channel && !n->channel) || !n->name)
		return NULL;
	m->count++;
	return n;
}

/* A string field of a decoded payload, copied with its NUL. */
static char *field_text(tc_pool *pool, const tc_field *f)
{
	return tc_pool_strndup(pool, f->v.str.ptr, f->v.str.len);
}

/* Alignment as the header or an id description gives it: non-zero means
 * the word size, which some tracers wrote as 1 (§4). */
static uint8_t alignment_of(uint64_t value, uint8_t word)
{
	return value == 0 ? 0 : value == 1 ? word : (uint8_t)(value > 8 ? 8 : value);
}

static bool size_ok(uint64_t v)
{
	return v == 1 || v == 2 || v == 4 || v == 8;
}

/* The C type sizes a marker or facility description gives in five fields
 * from F: int, long, pointer and size_t sizes, then the alignment; false
 * when a size is not 1, 2, 4 or 8 (*BAD is then the value). */
static bool sizes_from(const lg_reader *r, const tc_field *f, lg_sizes *out, uint64_t *bad)
{
	for (size_t i = 0; i < 4; i++)
		if (!size_ok(f[i].v.u)) {
			*bad = f[i].v.u;
			return false;
		}
	*out = r->sizes;
	out->int_size = (uint8_t)f[0].v.u;
	out->long_size = (uint8_t)f[1].v.u;
	out->pointer_size = (uint8_t)f[2].v.u;
	out->size_t_size = (uint8_t)f[3].v.u;
	out->alignment = alignment_of(f[4].v.u, out->pointer_size);
	return true;
}

/* A core_marker_id or core_marker_format event (set_marker_* before
 * 2.3) of the metadata file PATH; the first description of a marker wins,
 * as ids are never reused (§7.1). */
static int note_marker(metadata_pass *m, const lg_item *it, const char *path)
{
	lg_reader *r = m->r;
	const tc_field *f = it->payload.v.compound.items;
	bool with_channel = lg_has_channel_markers(&r->hdr);
	size_t first = with_channel;
	char *channel = with_channel ? field_text(&r->pool, &f[0]) : NULL;
	char *name = field_text(&r->pool, &f[first]);
	if ((with_channel && !channel) || !name)
		return TC_ENOMEM;
	marker_note *n = note_for(m, channel, name);
	if (!n)
		return TC_ENOMEM;
	if (it->type->id == 0) {
		if (n->has_id)
			return 0;
		uint64_t bad;
		if (!sizes_from(r, &f[first + 2], &n->sizes, &bad))
			return tc_fail(TC_EFORMAT, path, (int64_t)it->offset,
			               "the description of marker %s%s%s gives a C type size of %" PRIu64
			               " (expected 1, 2, 4 or 8)",
			               channel ? channel : "", channel ? "." : "", name, bad);
		n->has_id = true;
		n->id = (uint16_t)f[first + 1].v.u;
	} else if (!n->format && !(n->format = field_text(&r->pool, &f[first + 1]))) {
		return TC_ENOMEM;
	}
	return 0;
}

/* The events of facility FAC, loaded as facility ID: "facility.event",
 * ids ID << 8 | index (§7.3). */
static int add_facility_types(lg_reader *r, const lg_facility *fac, uint32_t id)
{
	for (size_t i = 0; i < fac->event_count && i < 256; i++) {
		lg_event_type *type = tc_pool_alloc(&r->pool, sizeof *type);
		size_t n = strlen(fac->name) + strlen(fac->events[i].name) + 2;
		if (!type || !(type->name = tc_pool_alloc(&r->pool, n)))
			return TC_ENOMEM;
		snprintf(type->name, n, "%s.%s", fac->name, fac->events[i].name);
		type->id = id << 8 | (uint32_t)i;
		type->payload = fac->events[i].payload;
		/* the core facility's full heartbeat (0.8) */
		type->resets_tsc = id == 0 && strcmp(fac->events[i].name, "time_heartbeat_full") == 0;
		int rc = register_type(r, &r->global, type);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A 0.x facility_load: the facility's XML description under eventdefs/,
 * its events registered under the facility's id (§7.3). */
static int load_facility(lg_reader *r, const lg_item *it, const char *file)
{
	int64_t offset = (int64_t)it->offset;
	static const char *const arch_suffix[] = { "", "_i386", "_ppc", "_sh", "_s390", "_mips",
		                                   "_arm", "_ppc64", "_x86_64", "_c2", "_powerpc" };
	const tc_field *f = it->payload.v.compound.items;
	uint64_t id = f[2].v.u;
	if (id > 255)
		return tc_fail(TC_EFORMAT, file, offset, "facility id %" PRIu64 " does not fit in a byte", id);
	if (table_get(&r->global, (uint32_t)id << 8) || id == 0)
		return 0;
	lg_sizes sizes;
	uint64_t bad;
	if (!sizes_from(r, &f[3], &sizes, &bad))
		return tc_fail(TC_EFORMAT, file, offset, "facility_load gives a C type size of %" PRIu64, bad);
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)f[0].v.str.len, f[0].v.str.ptr);
	if (strchr(name, '/') || !name[0])
		return tc_fail(TC_EFORMAT, file, offset, "facility name \"%s\" is not a file name", name);
	const char *suffix = "";
	size_t len = strlen(name);
	if (len > 5 && strcmp(name + len - 5, "_arch") == 0)
		suffix = r->hdr.arch_type < sizeof arch_suffix / sizeof arch_suffix[0] ? arch_suffix[r->hdr.arch_type] : "";
	char path[4096];
	snprintf(path, sizeof path, "%s/eventdefs/%s%s.xml", r->path, name, suffix);
	char *text;
	size_t text_len;
	struct stat st;
	int rc = tc_read_file(path, MAX_XML_SIZE, &text, &text_len);
	/* One that is there but cannot be read keeps tc_read_file's reason. */
	if (rc < 0 && lstat(path, &st) == 0)
		return rc;
	if (rc < 0)
		return tc_fail(rc, path, -1,
		               "no description of facility \"%s\", which the trace loads: LTTng 0.x traces describe their "
		               "events in eventdefs/%s%s.xml beside the tracefiles",
		               name, name, suffix);
	r->xml_bytes += text_len;
	lg_facility *fac;
	rc = lg_facility_parse(&r->pool, path, text, text_len, &sizes, &fac);
	free(text);
	return rc < 0 ? rc : add_facility_types(r, fac, (uint32_t)id);
}

/* Reads one metadata file to its end or its first damage, which its own
 * stream reports when printed, noting every description. */
static int read_metadata_file(metadata_pass *m, lg_file *f)
{
	lg_reader *r = m->r;
	lg_cursor c;
	lg_cursor_init(&c, r, f);
	lg_item it;
	uint32_t state_dump_load = r->hdr.minor >= 8 ? 4 : 3;
	int rc = 0, more;
	while (rc == 0 && (more = lg_cursor_next(&c, &it)) > 0) {
		if (it.kind != LG_ITEM_EVENT)
			continue;
		if (r->hdr.major > 0 && it.type->id <= 1)
			rc = note_marker(m, &it, f->path);
		else if (r->hdr.major == 0 && (it.type->id == 0 || it.type->id == state_dump_load))
			rc = load_facility(r, &it, f->path);
	}
	lg_cursor_free(&c);
	/* damage is the stream's to report; a file that cannot be read is not */
	return rc < 0 ? rc : more == TC_EFORMAT ? 0 : more;
}

/* Turns the notes into event types: an id needs a format, which may have
 * come from another file (§7.1). */
static int build_marker_types(metadata_pass *m)
{
	lg_reader *r = m->r;
	for (size_t i = 0; i < m->count; i++) {
		const marker_note *n = &m->notes[i];
		if (!n->has_id)
			continue;
		lg_table *t = &r->global;
		if (n->channel) {
			lg_channel *ch = channel_named(r, n->channel);
			if (!ch)
				continue;
			t = &ch->own;
		}
		int rc = add_marker_type(r, t, n->id, n->name, n->format ? n->format : "", &n->sizes, false);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The ids every trace of the version has before its metadata is read. */
static int add_builtin_types(lg_reader *r)
{
	if (r->hdr.major == 0) {
		const char *xml = r->hdr.minor >= 8 ? core_facility_08 : core_facility_07;
		lg_facility *core;
		int rc = lg_facility_parse(&r->pool, "core facility", xml, strlen(xml), &r->sizes, &core);
		return rc < 0 ? rc : add_facility_types(r, core, 0);
	}
	if (lg_has_channel_markers(&r->hdr)) {
		lg_channel *meta = channel_named(r, r->metadata_channel);
		if (!meta)
			return 0;
		int rc = add_marker_type(r, &meta->own, 0, "core_marker_id", core_marker_id_format, &r->sizes, false);
		return rc < 0 ? rc
		              : add_marker_type(r, &meta->own, 1, "core_marker_format", core_marker_format_format,
		                                &r->sizes, false);
	}
	/* 1.0 to 2.2: the same markers without their channel (§7.2) */
	int rc = add_marker_type(r, &r->global, 0, "set_marker_id", WITHOUT_CHANNEL(core_marker_id_format), &r->sizes,
	                         false);
	if (rc == 0)
		rc = add_marker_type(r, &r->global, 1, "set_marker_format", WITHOUT_CHANNEL(core_marker_format_format),
		                     &r->sizes, false);
	if (rc == 0 && r->hdr.major == 1)
		rc = add_marker_type(r, &r->global, 2, "heartbeat_32", "", &r->sizes, false);
	if (rc == 0 && r->hdr.major == 1)
		rc = add_marker_type(r, &r->global, 3, "heartbeat_64", "tsc #8u%llu", &r->sizes, true);
	return rc;
}

/* ---- opening ---- */

static int build_channels(lg_reader *r)
{
	bool own = lg_has_channel_markers(&r->hdr);
	for (size_t i = 0; i < r->file_count; i++) {
		lg_file *f = r->files[i];
		lg_channel *ch = r->channel_count ? r->channels[r->channel_count - 1] : NULL;
		if (!ch || strcmp(ch->name, f->channel_name) != 0) {
			/* files are sorted by channel, so channels come out sorted */
			if (!(ch = tc_pool_alloc(&r->pool, sizeof *ch)) ||
			    tc_ptr_push((void ***)&r->channels, &r->channel_count, ch) < 0)
				return TC_ENOMEM;
			ch->name = f->channel_name;
			ch->table = own ? &ch->own : &r->global;
		}
		f->channel = ch;
	}
	return 0;
}

static const char *metadata_channel_of(const lg_header *h)
{
	if (lg_has_channel_markers(h))
		return "metadata";
	return h->major == 2 ? "control/metadata" : "control/facilities";
}

/* The frequency and its scale as the version reads them (§8.3). */
static int set_time_scale(lg_reader *r, const lg_file *ref)
{
	lg_header *h = &r->hdr;
	if (h->major == 2)
		h->start_tsc = ref->block_count ? ref->blocks[0].begin_tsc : 0;
	if (!h->start_freq)
		return tc_fail(TC_EFORMAT, ref->path, -1, "the trace header gives a counter frequency of 0");
	double freq = (double)h->start_freq, scale = h->freq_scale ? (double)h->freq_scale : 1;
	bool divisor = h->major == 2 && h->minor >= 3;
	if (h->major == 2 && h->minor == 2) {
		double eff = freq / scale;
		divisor = eff >= 1e6 && eff <= 1e11;
	}
	r->freq = freq;
	r->freq_scale = scale;
	r->scale_divides_freq = divisor;
	return 0;
}

bool lg_tsc_to_ns(const lg_reader *r, uint64_t tsc, uint64_t *ns)
{
	/* in LTTV's order of operations, so that its doubles come out */
	double d = r->scale_divides_freq ? (double)tsc * 1e9 * r->freq_scale / r->freq
	                                 : (double)tsc * (1e9 / r->freq_scale) / r->freq;
	if (!(d >= 0 && d < 18446744073709551616.0))
		return false;
	*ns = (uint64_t)d;
	return true;
}

int lg_reader_open(lg_reader **out, const char *dir)
{
	lg_reader *r = calloc(1, sizeof *r);
	if (!r)
		return tc_fail_nomem();
	tc_pool_init(&r->pool);
	int rc = (r->path = tc_pool_strdup(&r->pool, dir)) ? 0 : TC_ENOMEM;
	if (rc == 0)
		rc = lg_find_tracefiles(&r->pool, dir, &r->files, &r->file_count);
	if (rc == 0 && r->file_count == 0)
		rc = TC_ENOTFOUND;
	if (rc < 0) {
		lg_reader_free(r);
		return rc;
	}
	const lg_header *first = &r->files[0]->hdr;
	r->metadata_channel = metadata_channel_of(first);
	lg_file *ref = r->files[0];
	for (size_t i = 0; i < r->file_count; i++)
		if (strcmp(r->files[i]->channel_name, r->metadata_channel) == 0) {
			ref = r->files[i];
			break;
		}
	r->hdr = ref->hdr;
	for (size_t i = 0; i < r->file_count && rc == 0; i++) {
		const lg_header *h = &r->files[i]->hdr;
		if (!lg_version_supported(h))
			rc = tc_fail(TC_EUNSUPPORTED, r->files[i]->path, -1,
			             "legacy LTTng trace format %u.%u is not supported (2.0 to 2.6, 1.0, 0.7 and 0.8 are)",
			             h->major, h->minor);
		else if (h->major != r->hdr.major || h->minor != r->hdr.minor || h->big_endian != r->hdr.big_endian)
			rc = tc_fail(TC_EFORMAT, r->files[i]->path, -1,
			             "format %u.%u %s-endian, where %s has %u.%u %s-endian", h->major, h->minor,
			             h->big_endian ? "big" : "little", ref->path, r->hdr.major, r->hdr.minor,
			             r->hdr.big_endian ? "big" : "little");
		else if (!size_ok(h->arch_size) || h->arch_size < 4)
			rc = tc_fail(TC_EFORMAT, r->files[i]->path, 22, "architecture word size %u is not 4 or 8",
			             h->arch_size);
		else if (h->major < 2 && strcmp(r->files[i]->channel_name, "control/compact") == 0)
			rc = tc_fail(TC_EUNSUPPORTED, r->files[i]->path, -1,
			             "the compact channel of LTTng 0.8 and 1.0 is not supported");
	}
	r->sizes = (lg_sizes){ .int_size = 4,
		               .long_size = r->hdr.arch_size,
		               .pointer_size = r->hdr.arch_size,
		               .size_t_size = r->hdr.arch_size,
		               .alignment = alignment_of(r->hdr.alignment, r->hdr.arch_size),
		               .cap_alignment = !(r->hdr.major == 2 && (r->hdr.minor == 4 || r->hdr.minor == 5)),
		               .big_endian = r->hdr.big_endian };
	r->v2 = r->hdr.major == 2;
	r->header_align = lg_align_of(&r->sizes, r->v2 ? 4 : r->hdr.arch_size);
	r->tsc_align = lg_align_of(&r->sizes, 8);
	r->payload_align = r->v2 ? 1 : lg_align_of(&r->sizes, r->hdr.arch_size);
	if (rc == 0)
		rc = lg_file_load(ref);
	if (rc == 0)
		rc = set_time_scale(r, ref);
	if (rc == 0)
		rc = build_channels(r);
	if (rc == 0)
		rc = add_builtin_types(r);
	metadata_pass m = { r, NULL, 0, 0 };
	for (size_t i = 0; i < r->file_count && rc == 0; i++)
		if (strcmp(r->files[i]->channel_name, r->metadata_channel) == 0)
			rc = read_metadata_file(&m, r->files[i]);
	if (rc == 0)
		rc = build_marker_types(&m);
	free(m.notes);
	if (rc < 0) {
		lg_reader_free(r);
		return rc;
	}
	*out = r;
	return 0;
}

void lg_reader_free(lg_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->file_count; i++)
		lg_file_unload(r->files[i]);
	for (size_t i = 0; i < r->channel_count; i++)
		free(r->channels[i]->own.by_id);
	free(r->global.by_id);
	free(r->files);
	free(r->channels);
	tc_pool_free(&r->pool);
	free(r);
}

/* ---- the cursor ---- */

void lg_cursor_init(lg_cursor *c, const lg_reader *r, lg_file *f)
{
	memset(c, 0, sizeof *c);
	c->r = r;
	c->f = f;
}

void lg_cursor_free(lg_cursor *c)
{
	free(c->dec.slots);
	c->dec.slots = NULL;
}

/* Rebuilds the TSC from its low bits (§8.2): at most one wrap happened. */
static uint64_t extend_tsc(uint64_t cur, uint64_t low, unsigned bits)
{
	uint64_t mask = ((uint64_t)1 << bits) - 1;
	if (low < (cur & mask))
		return ((cur & ~mask) + mask + 1) | low;
	return (cur & ~mask) | low;
}

static int event_fail(lg_cursor *c, size_t pos, const char *fmt, ...) TC_PRINTF(3, 4);

static int event_fail(lg_cursor *c, size_t pos, const char *fmt, ...)
{
	/* an event cut by the end of a truncated file: the truncation is why */
	if (c->f->blocks[c->block].truncated)
		return c->failed = tc_fail(TC_EFORMAT, c->f->path, c->f->damage_offset, "%s", c->f->damage);
	va_list ap;
	va_start(ap, fmt);
	c->failed = tc_vfail(TC_EFORMAT, c->f->path, (int64_t)(c->f->blocks[c->block].offset + pos), fmt, ap);
	va_end(ap);
	return c->failed;
}

/* The event header at P (§6); sets *ID, *SIZE (-1 when absent) and the
 * TSC in the cursor, and returns the position after it, or 0 when it
 * runs past END. */
static size_t read_event_header(lg_cursor *c, const uint8_t *b, size_t p, size_t end, uint32_t *id, int64_t *size)
{
	const lg_reader *r = c->r;
	bool be = r->hdr.big_endian;
	*size = -1;
	if (r->v2) {
		if (end - p < 4)
			return 0;
		uint32_t w = (uint32_t)tc_load_uint(b + p, 4, be);
		unsigned id5 = w >> 27;
		p += 4;
		*id = id5;
		if (id5 == 29 || id5 == 30) {
			if (end - p < 4)
				return 0;
			*id = (uint32_t)tc_load_uint(b + p, 2, be);
			*size = (int64_t)tc_load_uint(b + p + 2, 2, be);
			p += 4;
			if (*size == 0xFFFF) {
				if (end - p < 4)
					return 0;
				*size = (int64_t)tc_load_uint(b + p, 4, be);
				p += 4;
			}
		} else if (id5 == 31) {
			if (end - p < 2)
				return 0;
			*id = (uint32_t)tc_load_uint(b + p, 2, be);
			p += 2;
		}
		if (id5 == 29) {
			p = lg_pad(p, r->tsc_align);
			if (p > end || end - p < 8)
				return 0;
			c->cur = tc_load_uint(b + p, 8, be);
			p += 8;
		} else {
			c->cur = extend_tsc(c->cur, w & 0x07FFFFFFu, 27);
		}
		return p;
	}
	/* 1.0 and 0.x: a 32- or 64-bit TSC, the ids, the payload size */
	size_t tsc_size = r->hdr.has_heartbeat ? 4 : 8;
	if (end - p < tsc_size + 4)
		return 0;
	uint64_t tsc = tc_load_uint(b + p, tsc_size, be);
	c->cur = tsc_size == 4 ? extend_tsc(c->cur, tsc, 32) : tsc;
	p += tsc_size;
	if (r->hdr.major == 1)
		*id = (uint32_t)tc_load_uint(b + p, 2, be);
	else
		*id = (uint32_t)b[p] << 8 | b[p + 1];
	uint64_t sz = tc_load_uint(b + p + 2, 2, be);
	*size = sz == 0xFFFF ? -1 : (int64_t)sz;
	return lg_pad(p + 4, r->payload_align);
}

static int next_event(lg_cursor *c, const lg_block *blk, lg_item *out)
{
	const lg_reader *r = c->r;
	const uint8_t *b = c->f->map + blk->offset;
	size_t start = c->pos;
	uint32_t id;
	int64_t size;
	size_t p = read_event_header(c, b, start, blk->data_end, &id, &size);
	if (!p)
		return event_fail(c, start, "event header runs past the end of the block's data (%u bytes)", blk->data_end);
	const lg_event_type *type = table_get(c->f->channel->table, id);
	if (!type) {
		if (r->hdr.major == 0)
			return event_fail(c, start, "event %u of facility %u has no description (no facility_load for it)",
			                  id & 0xFF, id >> 8);
		return event_fail(c, start, "event id %u of channel \"%s\" has no description in the metadata", id,
		                  c->f->channel->name);
	}
	p = lg_pad(p, type->payload->align);
	if (p > blk->data_end)
		return event_fail(c, start, "event payload starts past the end of the block's data");
	c->dec.data = b;
	c->dec.end = blk->data_end;
	size_t payload_start = p;
	int rc = type->cls ? lg_decode(&c->dec, type->payload, type->cls, &p, &out->payload) : 0;
	if (rc == TC_EFORMAT)
		return event_fail(c, c->dec.error_pos, "event %s: expected %s", type->name, c->dec.error);
	if (rc < 0)
		return c->failed = rc;
	if (size >= 0 && (uint64_t)size != p - payload_start)
		return event_fail(c, start, "event %s: its header gives a payload of %" PRId64 " bytes, its format %zu",
		                  type->name, size, p - payload_start);
	if (type->resets_tsc)
		c->cur = out->payload.v.compound.items[0].v.u;
	out->kind = LG_ITEM_EVENT;
	out->offset = blk->offset + start;
	out->type = type;
	out->tsc = c->cur;
	c->pos = p;
	c->last_tsc = c->cur;
	c->have_last = true;
	return 1;
}

int lg_cursor_next(lg_cursor *c, lg_item *out)
{
	if (c->failed)
		return c->failed;
	lg_file *f = c->f;
	int rc = lg_file_load(f);
	if (rc < 0)
		return c->failed = rc;
	while (c->block < f->block_count) {
		const lg_block *blk = &f->blocks[c->block];
		if (!c->in_block) {
			c->in_block = true;
			c->pos = f->hdr.header_size;
			c->cur = blk->begin_tsc;
		}
		size_t p = lg_pad(c->pos, c->r->header_align);
		if (p < blk->data_end) {
			c->pos = p;
			return next_event(c, blk, out);
		}
		lg_file_release(f, blk);
		/* a block the file ends in ends at the file's end */
		tc_count_read(c->bytes_read, blk->truncated ? blk->data_end : blk->size);
		c->block++;
		c->in_block = false;
		uint32_t lost = blk->events_lost - c->lost_seen;
		c->lost_seen = blk->events_lost;
		if (lost) {
			out->kind = LG_ITEM_LOST;
			out->lost = lost;
			out->tsc = c->have_last ? c->last_tsc : blk->begin_tsc;
			out->end_tsc = blk->end_tsc;
			return 1;
		}
	}
	if (f->damage)
		return c->failed = tc_fail(TC_EFORMAT, f->path, f->damage_offset, "%s", f->damage);
	return 0;
}
