/* SPDX-License-Identifier: MIT */
/*
 * legacy.h - the legacy LTTng (0.x kernel tracer, LTTV era) reader's
 * private interface.  doc/formats/lttng-legacy.md says how tracecat reads
 * the format and where its sources disagree; the section numbers (§N) in
 * this directory's comments are that page's.
 *
 *   tracefile.c  trace discovery, byte order and version, block headers
 *   layout.c     payload layouts: marker format strings compiled into
 *                decoding plans (§7.4), and the decoder that runs them
 *   facility.c   0.x XML facility descriptions into the same plans (§7.3)
 *   events.c     event headers, timestamps and the metadata tables (§6-§8)
 *   model.c      tc_format_lttng_legacy: the trace as tracecat's model
 *
 * Every event type, whatever described it (a marker's format string or an
 * XML facility), becomes an lg_type tree: a decoding plan whose alignments
 * already follow the trace's rule, so the decoder only pads and reads.
 */
#ifndef TC_LTTNG_LEGACY_H
#define TC_LTTNG_LEGACY_H

#include "core/core.h"

/* ---- payload layouts ---- */

typedef enum lg_kind {
	LG_INT,       /* integer, pointer, char: `size` bytes */
	LG_ENUM,      /* an integer with labels (facilities) */
	LG_FLOAT,     /* 4 or 8 bytes, in the trace's float word order */
	LG_STRING,    /* NUL-terminated */
	LG_ARRAY,     /* `count` elements */
	LG_SEQUENCE,  /* a `length` integer, then that many elements */
	LG_STRUCT,    /* members in order */
	LG_UNION      /* members all at the same offset; advances by the largest */
} lg_kind;

typedef struct lg_type lg_type;

typedef struct lg_member {
	char *name;          /* as described: "prev_pid", "field 1", "rw(...)" */
	lg_type *type;
} lg_member;

typedef struct lg_label {
	char *name;
	int64_t value;
} lg_label;

struct lg_type {
	lg_kind kind;
	uint8_t size;        /* bytes: LG_INT, LG_ENUM, LG_FLOAT (1, 2, 4 or 8) */
	/* Padding rules, already resolved against the trace's alignment
	 * (§4): align to `align` bytes before the value and to `realign`
	 * bytes after it (facility strings and sequences realign to the
	 * pointer size, §7.3).  1 means no padding. */
	uint8_t align;
	uint8_t realign;
	bool is_signed;
	bool big_endian;     /* network byte order, or a big-endian trace */
	uint8_t base;        /* how the value reads best: 10, 16 or 8 */
	uint64_t count;      /* LG_ARRAY */
	lg_type *length;     /* LG_SEQUENCE: the length's type (an LG_INT) */
	lg_type *element;    /* LG_ARRAY, LG_SEQUENCE */
	lg_member *members;  /* LG_STRUCT, LG_UNION */
	size_t member_count;
	lg_label *labels;    /* LG_ENUM */
	size_t label_count;
};

/* The C type sizes and alignment a marker or facility was written with. */
typedef struct lg_sizes {
	uint8_t int_size, long_size, pointer_size, size_t_size;
	uint8_t alignment;   /* 0: packed, else the word size (§4) */
	bool cap_alignment;  /* min(alignment, size) (every format but 2.4, 2.5) */
	bool big_endian;     /* the trace's byte order */
} lg_sizes;

/* The alignment, in bytes, of a value of SIZE bytes under S's rule (§4). */
static inline uint8_t lg_align_of(const lg_sizes *s, unsigned size)
{
	if (!s->alignment)
		return 1;
	return (uint8_t)(s->cap_alignment && s->alignment < size ? s->alignment : size);
}

/* POS moved up to a multiple of ALIGN (a power of two; 0 and 1: none),
 * positions counting from the start of the block (§4). */
static inline size_t lg_pad(size_t pos, unsigned align)
{
	return align > 1 ? (pos + align - 1) & ~(size_t)(align - 1) : pos;
}

/* ---- facilities (formats 0.4-0.8, §7.3) ---- */

typedef struct lg_facility_event {
	char *name;
	lg_type *payload;    /* an LG_STRUCT; member_count 0 for none */
	/* compact_data attribute (§6.4): the first field comes from the
	 * compact header, not the payload. */
	bool compact_data;
} lg_facility_event;

typedef struct lg_facility {
	char *name;
	uint32_t checksum;   /* §7.3's CRC-32 of the description */
	lg_facility_event *events;  /* event id = index */
	size_t event_count;
} lg_facility;

/*
 * Parses the XML description TEXT (LEN bytes, from PATH, for errors) of a
 * facility into *OUT, allocated in POOL, its layouts resolved with SIZES.
 * Accepts the unquoted attributes of old files as LTTV's parser did.
 * Returns 0, TC_EFORMAT (with PATH and the byte offset) or TC_ENOMEM.
 */
int lg_facility_parse(tc_pool *pool, const char *path, const char *text, size_t len, const lg_sizes *sizes,
                      lg_facility **out);

/* ---- marker layouts and decoding (layout.c) ---- */

/*
 * Compiles a marker's FORMAT string (§7.4) with the C type sizes and
 * alignment of S into an LG_STRUCT of its fields.
 */
int lg_marker_compile(tc_pool *pool, const char *format, const lg_sizes *s, lg_type **out);

/* How many tc_field slots a structure's members take: a sequence member
 * takes two, its length (a member of its own in the model) and itself. */
size_t lg_struct_slot_count(const lg_type *t);

/*
 * The model's class for a payload structure: member names made CTF
 * identifiers ("_" + the name, other characters turned into '_', shown
 * without the '_'), each sequence member preceded by a NAME_length member.
 */
tc_field_class *lg_payload_class(tc_pool *pool, const lg_type *payload);

#define LG_MAX_SLOTS ((size_t)1 << 20)

/* The bytes one event is decoded from, and the tc_field slots it fills. */
typedef struct lg_decoder {
	const uint8_t *data; /* the block: positions count from its start (§4) */
	size_t end;          /* end of its data */
	tc_field *slots;
	size_t used, cap;
	bool short_of;       /* ran out of slots: lg_decode() grows and retries */
	size_t error_pos;    /* on TC_EFORMAT: where, and what was expected */
	const char *error;
} lg_decoder;

/*
 * Decodes PAYLOAD, whose model class is CLS (model.c makes it: a sequence
 * member is preceded by its length, a sequence elsewhere is a structure
 * { length, elements }), at *POS into OUT (its slots owned by D, valid
 * until the next call), moving *POS past it.  TC_EFORMAT leaves the position and the
 * reason in D for the caller, which knows the file, to report.
 */
int lg_decode(lg_decoder *d, const lg_type *payload, const tc_field_class *cls, size_t *pos, tc_field *out);

/* ---- tracefiles (tracefile.c) ---- */

/* What a tracefile's first block header says about the whole trace (§5). */
typedef struct lg_header {
	uint8_t major, minor;
	bool big_endian;
	uint8_t arch_size;       /* pointer size of the traced kernel */
	uint8_t alignment;       /* 0: packed (§4) */
	bool has_heartbeat;      /* 0.x and 1.0: event headers carry 32-bit TSCs */
	uint32_t arch_type;      /* 0.x and 1.0: picks the _arch facility files */
	uint32_t freq_scale;
	uint64_t start_freq;     /* Hz (kHz with freq_scale 1000 before 2.2) */
	uint64_t start_tsc;      /* 0.x and 1.0; 2.x: the metadata's first block's begin */
	uint64_t start_sec, start_usec;  /* wall clock when tracing started */
	unsigned header_size;    /* where a block's events begin */
} lg_header;

typedef struct lg_block {
	uint64_t offset;         /* in the file */
	uint32_t size;           /* bytes on disk */
	uint32_t data_end;       /* end of its events, from the block's start */
	uint64_t begin_tsc, end_tsc;
	uint32_t events_lost;    /* cumulative (2.2 and later) */
	bool truncated;          /* the file ends in it: data_end is the file's end */
} lg_block;

typedef struct lg_channel lg_channel;

typedef struct lg_file {
	char *path;
	char *channel_name;      /* "kernel", "control/facilities" */
	int cpu;
	lg_channel *channel;
	lg_header hdr;
	lg_block *blocks;
	size_t block_count;
	bool loaded;             /* mapped and indexed (lg_file_load) */
	const uint8_t *map;      /* the whole file */
	size_t map_size;
	/* The first damage the index met: reported after the blocks before it. */
	int64_t damage_offset;
	char *damage;            /* NULL when none */
} lg_file;

/* Whether HDR's format version is one this reader decodes. */
bool lg_version_supported(const lg_header *hdr);
bool lg_has_channel_markers(const lg_header *hdr);  /* 2.3 and later */

/*
 * Finds the tracefiles under DIR (§2), sorted by channel then CPU, each
 * with its first header read; *COUNT is 0 when none has the magic.
 */
int lg_find_tracefiles(tc_pool *pool, const char *dir, lg_file ***files, size_t *count);

/* Maps F and indexes its blocks, once; damage is kept in F, not returned. */
int lg_file_load(lg_file *f);
void lg_file_unload(lg_file *f);

/* Gives back the memory of block BLK, read to its end: a file is read
 * once, in order, and multi-gigabyte ones must not stay resident. */
void lg_file_release(lg_file *f, const lg_block *blk);

/* ---- event types, the metadata and the event cursor (events.c) ---- */

typedef struct lg_event_type {
	char *name;          /* marker name, or "facility.event" in 0.x */
	uint32_t id;         /* 0.x: facility id << 8 | event id */
	lg_type *payload;    /* an LG_STRUCT */
	tc_field_class *cls; /* its class in the model */
	bool resets_tsc;     /* heartbeat_64, time_heartbeat_full (§8.2) */
} lg_event_type;

/* Event types by id: a channel's own (2.3 and later) or the trace's. */
typedef struct lg_table {
	lg_event_type **by_id;
	size_t cap;
} lg_table;

struct lg_channel {
	char *name;
	lg_table *table;     /* where its ids are looked up */
	lg_table own;
	void *model;         /* the model's stream class (model.c) */
};

typedef struct lg_reader {
	char *path;          /* the trace directory */
	tc_pool pool;
	lg_header hdr;       /* trace-wide, from the metadata's first file */
	lg_sizes sizes;      /* the header's word size and alignment */
	lg_file **files;     /* by channel, then CPU */
	size_t file_count;
	lg_channel **channels;  /* by name */
	size_t channel_count;
	lg_table global;     /* 0.x to 2.2: one id space for every channel */
	const char *metadata_channel;
	/* The event header's layout (§6), worked out once: 32-bit words with
	 * escapes (2.x), or a TSC, ids and size; the alignment of the header,
	 * of a full TSC (2.x) and of the payload's start (0.x and 1.0). */
	bool v2;
	uint8_t header_align, tsc_align, payload_align;
	/* Counter to nanoseconds (§8.3): the scale divides the frequency from
	 * 2.3 on, and multiplies it before. */
	double freq, freq_scale;
	bool scale_divides_freq;
	/* The bytes of the facilities' XML descriptions, read at open (the
	 * tracefiles are counted as their streams read them). */
	uint64_t xml_bytes;
} lg_reader;

/*
 * Opens the legacy trace in DIR: finds its files, reads every metadata
 * file and builds the event types.  TC_ENOTFOUND when DIR holds no
 * tracefile.  Damage in the metadata is not fatal: the metadata stream
 * reports it when read.
 */
int lg_reader_open(lg_reader **out, const char *dir);
void lg_reader_free(lg_reader *r);

/* LTTV's time of TSC in nanoseconds from the counter's origin (§8.3). */
bool lg_tsc_to_ns(const lg_reader *r, uint64_t tsc, uint64_t *ns);

typedef enum lg_item_kind { LG_ITEM_EVENT, LG_ITEM_LOST } lg_item_kind;

/* What the cursor hands out: an event, or the events lost in a block. */
typedef struct lg_item {
	lg_item_kind kind;
	uint64_t offset;     /* the event's place in its file */
	uint64_t tsc;        /* event time; for losses, the range's begin */
	const lg_event_type *type;
	tc_field payload;
	uint64_t lost, end_tsc;
} lg_item;

/* A walk over the events of one tracefile, which it loads when first read. */
typedef struct lg_cursor {
	const lg_reader *r;
	lg_file *f;
	size_t block;        /* the block being read; block_count at the end */
	size_t pos;          /* in that block */
	bool in_block;
	uint64_t cur;        /* the current TSC (§8.1) */
	uint64_t last_tsc;
	bool have_last;
	uint32_t lost_seen;  /* events_lost of the previous block */
	int failed;          /* sticky error */
	lg_decoder dec;
	/* Where each block read is counted (tc_input_bytes_read()); NULL:
	 * nowhere. */
	atomic_uint_least64_t *bytes_read;
} lg_cursor;

void lg_cursor_init(lg_cursor *c, const lg_reader *r, lg_file *f);
void lg_cursor_free(lg_cursor *c);

/* The next item of the file: 1, 0 at its end, < 0 with the error
 * (file and offset) recorded.  The payload lives until the next call. */
int lg_cursor_next(lg_cursor *c, lg_item *out);

#endif /* TC_LTTNG_LEGACY_H */
