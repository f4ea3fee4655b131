/* SPDX-License-Identifier: MIT */
/*
 * ctf.h - private structures of the CTF reader, for CTF 1.8 and CTF 2
 * alike (doc/formats/ctf.md): the trace and its stream classes
 * (ctf_trace), the plan each field class carries, and the decoder.
 *
 * The reader, in the order a trace goes through it:
 *   ctf.c          trace discovery under a path, grouping files into streams
 *   metadata.c     the metadata file: CTF 2 or CTF 1.8, packetized or plain
 *   tsdl_parse.c   CTF 1.8: TSDL text -> syntax tree (tsdl.h)
 *   tsdl_meta.c    CTF 1.8: syntax tree -> classes
 *   json_text.c    CTF 2: the JSON text sequence -> fragments (json_meta.h)
 *   json_rc.c      CTF 2: the release-candidate dialect made final CTF 2
 *   json_meta.c    CTF 2: fragments -> classes
 *   label_order.c  both: babeltrace2 2.1's order of mapping labels
 *   plan.c         both: layouts, stream-class tables, tracer quirks (plan.h)
 *   event_plan.c   both: fixed-layout event headers and scopes ->
 *                  specialised plans
 *   decode.c       packet bytes -> tc_field trees, following each class's
 *                  plan (or an event's specialised plan)
 *   stream.c       stream files -> packets -> messages (a tc_stream_iter;
 *                  ctf_stream.h)
 * The writer (metadata text, packets copied whole, messages encoded into
 * new packets) uses none of this header; ctf_write.h lists its files.
 *
 * Each tc_field_class gets a ctf_plan (its `priv`) compiled once when the
 * metadata is read: the special role of the field, where a sequence finds
 * its length or a variant its tag, and which option each tag label picks.
 */
#ifndef TC_CTF_H
#define TC_CTF_H

#include "core/core.h"


typedef enum ctf_scope {
	SCOPE_PACKET_HEADER = TC_SCOPE_PACKET_HEADER,
	SCOPE_PACKET_CONTEXT = TC_SCOPE_PACKET_CONTEXT,
	SCOPE_EVENT_HEADER = TC_SCOPE_EVENT_HEADER,
	SCOPE_STREAM_EVENT_CONTEXT = TC_SCOPE_STREAM_EVENT_CONTEXT,
	SCOPE_EVENT_CONTEXT = TC_SCOPE_EVENT_CONTEXT,
	SCOPE_PAYLOAD = TC_SCOPE_PAYLOAD,
	SCOPE_COUNT = TC_SCOPE_COUNT
} ctf_scope;

/* Steps of a resolved field path besides member indexes (tc_field_path). */
#define PATH_ELEMENT ((uint16_t)TC_PATH_ELEMENT)
#define PATH_SELECTED ((uint16_t)TC_PATH_SELECTED)

/*
 * How decode.c decodes a member of a structure.  Fixed-layout members
 * (whole-byte numbers, static text arrays) are read with one load, with
 * their sign extension and byte swap (when their byte order is not the
 * host's) chosen when the layout is compiled.
 */
typedef enum ctf_member_kind {
	MEMBER_U8,             /* fixed-layout integers and enumerations */
	MEMBER_S8,
	MEMBER_U16,
	MEMBER_S16,
	MEMBER_U32,
	MEMBER_S32,
	MEMBER_U64,            /* signed or not: nothing to extend */
	MEMBER_U16_SWAPPED,
	MEMBER_S16_SWAPPED,
	MEMBER_U32_SWAPPED,
	MEMBER_S32_SWAPPED,
	MEMBER_U64_SWAPPED,
	MEMBER_FLOAT,          /* fixed-layout, 32 or 64 bits, either byte order */
	MEMBER_TEXT,           /* fixed-layout: a static array of text characters */
	MEMBER_STRING,         /* a UTF-8 string; UTF-16/32 take the general path */
	MEMBER_SIBLING_VARIANT, /* a variant whose tag is an earlier member */
	MEMBER_OTHER           /* anything else: the general path */
} ctf_member_kind;

#define MEMBER_IS_FIXED(kind) ((kind) <= MEMBER_TEXT)

/*
 * A structure's fixed-layout members are grouped into runs: when a run
 * starts aligned to its largest alignment, each member sits at a known
 * byte offset from the run's start, so the run needs one bounds check.
 * 32 bytes, like a tc_member and a tc_field, so that one index walks the
 * three arrays.
 */
typedef struct ctf_member_plan {
	uint8_t kind;          /* ctf_member_kind */
	uint32_t offset;       /* fixed-layout: bytes from its run's start */
	/* MEMBER_SIBLING_VARIANT: the index of its tag, an earlier member
	 * (relative references look there first, doc/formats/ctf.md §3.4). */
	uint32_t tag_member;
	/* The run starting here, of run_len members (0 if none starts here):
	 * it starts where its first member does once aligned with lead_mask
	 * (its alignment - 1), and only a start on a multiple of align_mask +
	 * 1 (its largest alignment) puts the members at their offsets.  Both
	 * masks are 0 for a run at the start of its structure, which the
	 * structure's own alignment places. */
	uint32_t run_len;
	uint32_t lead_mask;
	uint32_t align_mask;
	uint64_t run_bits;     /* size of the run, below 2^32 */
} ctf_member_plan;

/* An enumeration's range as one unsigned interval [lo, lo + span]: the
 * values of signed enumerations are offset by 2^63 so that unsigned order
 * matches signed order. */
typedef struct ctf_label_range {
	uint64_t lo, span;
	size_t label;          /* index in the enumeration's labels */
} ctf_label_range;

typedef struct ctf_plan {
	tc_field_role role;
	bool referenced;          /* a length or tag: never hidden */
	/* SEQUENCE length / VARIANT tag */
	ctf_scope ref_scope;
	uint16_t *ref_path;
	size_t ref_len;
	const tc_field_class *ref_cls;
	/* VARIANT: option index per label of the tag enum, -1 when none */
	int32_t *label_option;
	/* ENUM: every range of every label, in label order. */
	ctf_label_range *label_ranges;
	size_t label_range_count;
	/* INT, ENUM, FLOAT of 8/16/32/64 bits aligned on bytes: read with one
	 * load, and decoded inline by its structure, without the general
	 * dispatch. */
	bool whole_bytes;
	/* Smallest encoded size in bits, to bound element counts. */
	uint64_t min_bits;
	/* STRUCT: one entry per member */
	ctf_member_plan *members;
	/* STRUCT: its members are a run (maybe empty), then at most one
	 * other member; most structures are. */
	bool simple;
	/* ARRAY, SEQUENCE of fixed-layout numbers (integers, enumerations,
	 * reals of whole bytes; not text): element_kind (a ctf_member_kind up
	 * to MEMBER_FLOAT) reads each, element_stride bytes apart, without
	 * the general dispatch (decode.c: fill_numbers). */
	bool numbers;
	uint8_t element_kind;
	uint32_t element_stride;
	/* Where the type was written, for error messages. */
	size_t src_offset;
	int src_line;
} ctf_plan;

static inline ctf_plan *plan_of(const tc_field_class *fc)
{
	return (ctf_plan *)fc->priv;
}

/*
 * Specialised plans for the common layouts (event_plan.c compiles them,
 * decode.c runs them):
 *  - an event's scopes after its header (stream event context, event
 *    context, payload) when all their members are fixed-layout, UTF-8
 *    strings, UTF-8 text sequences or arrays and sequences of fixed-layout
 *    numbers (LTTng's ctf_sequence, ctf_array) whose lengths are integers
 *    of the plan: such a field (a tail) ends a run of fixed-layout
 *    members, and what follows starts the next run (babeltrace2 2.1 writes
 *    LTTng's procname as a string between integers), as long as nothing
 *    in that run is aligned on more than the run's start;
 *  - a stream class's event header when it is a structure of fixed-layout
 *    members, maybe with a last variant, tagged by one of them, whose
 *    options are structures of fixed-layout members (LTTng's compact and
 *    large headers).
 * Each member sits at a byte offset, known when the metadata is read,
 * from where its structure's plan starts, so a plan needs one bounds check
 * and, for each integer, the same few instructions whatever its size, sign
 * and byte order; each slot is written once.  The slots come out exactly
 * as the general path lays them out.
 */
typedef struct ctf_fixed_int {
	const tc_field_class *cls;
	uint32_t slot, offset;     /* slot in the plan's block, bytes from its start */
	/* One 8-byte load (swapped when swap) then << lshift, then >> rshift,
	 * arithmetic when is_signed, leaves the value. */
	uint8_t lshift, rshift;
	bool swap, is_signed;
	/* what reading it means (see apply_meaning): a role, and whether it
	 * moves the stream's clock */
	uint8_t role;              /* tc_field_role */
	bool moves_clock;
	/* a 32-bit real, whose bits the value is: widened to the double the
	 * field holds (a 64-bit real's bits are the double's already) */
	bool is_float32;
} ctf_fixed_int;

typedef struct ctf_fixed_other {
	const tc_field_class *cls; /* a static text array */
	uint32_t slot, offset;
} ctf_fixed_other;

typedef struct ctf_fixed_root {
	const tc_field_class *cls; /* a structure */
	uint32_t slot;
	int8_t scope;              /* ctf_scope, or -1 for a variant's option */
	bool shown;                /* an event's scope the message points to */
} ctf_fixed_root;

/* The most runs of an event plan (the strings and sequences between its
 * members, plus one): the decoder keeps where each run lies before
 * filling any. */
#define CTF_PLAN_MAX_RUNS 8

/* What ends a run of an event plan, besides its fixed-layout part: a
 * field whose size is known only once the event is read.  Each aligns
 * itself where the run ends, and the next run starts after it. */
typedef enum ctf_tail_kind {
	TAIL_NONE,
	TAIL_STRING,           /* a UTF-8 string */
	TAIL_TEXT,             /* a UTF-8 text sequence */
	/* an array or sequence of fixed-layout numbers (ctf_plan.numbers),
	 * only in the plan's last structure: their slots follow the plan's,
	 * in member order, as the general path lays them out */
	TAIL_NUMBERS
} ctf_tail_kind;

typedef struct ctf_event_plan ctf_event_plan;
struct ctf_event_plan {
	unsigned align;            /* where it starts (the first structure or member), in bits */
	uint32_t bytes;            /* the fixed-layout part */
	uint32_t slot_count;       /* of the whole plan (first run) */
	const ctf_fixed_root *roots;   /* all of them in the first run */
	uint32_t root_count;
	/* Integers and reals: those without a meaning first (the 32-bit
	 * reals last among them), then the others in member order. */
	const ctf_fixed_int *ints;
	uint32_t int_count, plain_int_count, float32_count;
	const ctf_fixed_other *others;
	uint32_t other_count;
	uint8_t tail;              /* ctf_tail_kind */
	uint32_t tail_slot;
	const tc_field_class *tail_cls;
	/* A sequence's length: the integer tail_len of the run numbered
	 * tail_len_run (0: the first), this one or one before (slot
	 * tail_len_slot, UINT32_MAX for an array of static length). */
	const ctf_fixed_int *tail_len;
	uint32_t tail_len_run, tail_len_slot;
	const ctf_event_plan *next_run;   /* what follows the tail, or NULL */
};

/* A range of a header variant's tag values (biased by 2^63 when the tag
 * is signed, so that unsigned order is the tag's) and its option. */
typedef struct ctf_option_range {
	uint64_t lo, span;
	const ctf_event_plan *plan;  /* the option's; NULL: the general path */
	uint32_t option;
} ctf_option_range;

typedef struct ctf_header_plan {
	ctf_event_plan lead;       /* the structure and its members but the variant */
	const tc_field_class *variant;    /* NULL: none */
	uint32_t variant_slot;
	uint32_t tag_int;          /* the tag: lead.ints[tag_int] */
	uint64_t tag_bias;
	/* in the order the general path tries them: the first that holds the
	 * tag selects */
	const ctf_option_range *ranges;
	uint32_t range_count;
} ctf_header_plan;

/* An event class of a stream class, with its specialised plan (NULL when
 * its layout does not allow one). */
typedef struct ctf_event_entry {
	tc_event_class *ec;
	const ctf_event_plan *plan;
} ctf_event_entry;

typedef struct ctf_trace ctf_trace;

typedef struct ctf_stream_class {
	tc_stream_class pub;
	ctf_event_entry *entries;      /* one per event class, in their order */
	const ctf_event_entry **by_id; /* dense table when ids are small */
	size_t by_id_len;
	const ctf_header_plan *header_plan;  /* NULL when not allowed */
	bool has_ts_begin, has_ts_end;
	bool has_explicit_id;
} ctf_stream_class;

/* Work-arounds babeltrace2 applies to known tracer bugs
 * (doc/formats/ctf.md §10.1). */
typedef struct ctf_quirks {
	bool lttng_event_after_packet;
	bool barectf_event_before_packet;
	bool lttng_crash;
	/* How babeltrace2 2.1.2 reads CTF 2 (set by json_meta.c): every
	 * packet's header and context checked before the first event, a wrong
	 * magic taken, and nothing said of a first packet's discard counter
	 * (the last also for CTF 1.8 when 2.1's text is asked for). */
	bool check_packets_first;
	bool any_magic;
	bool quiet_first_discards;
} ctf_quirks;

struct ctf_trace {
	tc_trace pub;
	tc_pool pool;                  /* owns every class of this trace */
	tc_byte_order byte_order;
	ctf_quirks quirks;
	char *metadata_path;
	size_t class_count;            /* stream + event classes, to pick among same-UUID copies */
};

/* Reads DIR/metadata into a new trace.  OPTS adjusts clock offsets. */
int ctf_metadata_load(ctf_trace **out, const char *dir, const tc_open_options *opts);
/* The same from the metadata bytes DATA (LEN bytes, NUL-terminated,
 * malloc'd; taken over): the entry point for fuzzing. */
int ctf_metadata_parse(ctf_trace **out, const char *dir, char *data, size_t len, const tc_open_options *opts);
void ctf_trace_free(ctf_trace *t);

const ctf_event_entry *ctf_event_entry_by_id(const ctf_stream_class *sc, uint64_t id);
ctf_stream_class *ctf_stream_class_by_id(const ctf_trace *t, uint64_t id);

/* ---- decoding ---- */

/* A block of UTF-8 text converted from UTF-16/32 strings (CTF 2). */
typedef struct ctf_text_block ctf_text_block;

typedef struct ctf_arena {
	tc_field *slots;
	size_t cap, used;
	/* The converted text its fields point to: blocks are chained, never
	 * moved, so a string stays put while its field lives.  Taken from
	 * text_cur on; reused from the first block whenever a scope starts
	 * with the arena empty (nothing can point into them then). */
	ctf_text_block *text, *text_cur;
} ctf_arena;

typedef struct ctf_decoder {
	const uint8_t *buf;        /* packet start */
	uint64_t pos;              /* bit position from the packet start */
	uint64_t limit;            /* bits readable */
	int last_bo;               /* byte order of the last bit array, -1 at packet start */
	uint64_t *clock_value;     /* the stream's current clock value */
	const tc_clock *clock;     /* the stream class's clock */
	ctf_arena *arena;          /* where fields go now */
	tc_field *roots[SCOPE_COUNT];
	/* values of special fields seen while decoding */
	bool have_id;
	uint64_t id;
	bool have_role[TC_ROLE_TIMESTAMP + 1];
	uint64_t role_value[TC_ROLE_TIMESTAMP + 1];
	/* for error messages */
	const char *path;
	uint64_t packet_offset;    /* byte offset of the packet in the file */
} ctf_decoder;

#define CTF_ARENA_RETRY 1000   /* internal: decode again with a bigger arena */

/* Decodes the scope CLS into *ROOT (a slot in the arena). */
int ctf_decode_scope(ctf_decoder *d, ctf_scope scope, const tc_field_class *cls, tc_field **root);
/* Decode with a specialised plan: the scopes of plan P into their slots
 * and M's pointers to them, or the event header of plan H into *ROOT.
 * CTF_FIXED_FALLBACK when the plan does not fit this event (too near the
 * end of the packet content, an option without a plan): the general path
 * then decodes it again, and reports what is wrong. */
#define CTF_FIXED_FALLBACK 1001
int ctf_decode_fixed_event(ctf_decoder *d, const ctf_event_plan *p, tc_message *m);
int ctf_decode_fixed_header(ctf_decoder *d, const ctf_header_plan *h, tc_field **root);
/* The same steps without building fields (tc_input_want_values): the
 * event's or header's integers with a meaning (event id, clock) are
 * applied, M's scopes left NULL, and d->pos moved past it; the same
 * CTF_FIXED_FALLBACK cases.  The header's root is not set: an event whose
 * scopes refer to it must have its header decoded again. */
int ctf_pass_fixed_event(ctf_decoder *d, const ctf_event_plan *p, tc_message *m);
int ctf_pass_fixed_header(ctf_decoder *d, const ctf_header_plan *h);
int ctf_arena_grow(ctf_arena *a);
void ctf_arena_free(ctf_arena *a);

#endif /* TC_CTF_H */
