/* SPDX-License-Identifier: MIT */
/*
 * tracecat.h - the public interface of libtracecat.
 *
 * libtracecat reads trace files of several formats (CTF 1.8, trace-cmd's
 * trace.dat, uftrace record directories, legacy LTTng 0.x traces, perf's
 * perf.data) into one event model, merges the streams of one or several traces by time,
 * renders events as text (babeltrace2's format; uftrace's replay view),
 * and writes any of them as CTF 1.8, or as a Perfetto or Chrome JSON
 * timeline.  This header is the whole public API and its manual;
 * everything under src/ is private.
 *
 * The model, top-down:
 *
 *   tc_input          what was opened from one path: one or more traces
 *   tc_trace          environment, clocks, stream classes, streams, the
 *                     tasks it names; its format, domain and layout
 *   tc_clock          frequency, offset from its origin, precision
 *   tc_stream_class   layouts shared by streams: packet context, event
 *                     header, common event context; its event classes
 *   tc_event_class    name, id, log level, context and payload layouts
 *   tc_field_class    a type: integer, enumeration, float, string,
 *                     structure, array, sequence, variant; where its
 *                     length or selector is, what a header field means
 *   tc_stream         one sequence of packets (one CTF stream, one CPU)
 *   tc_message        what a reader hands out: an event, or a report of
 *                     discarded events or packets
 *   tc_field          a decoded value, a tree mirroring tc_field_class
 *
 * Reading:
 *
 *   tc_input *in;
 *   if (tc_input_open(&in, "path/to/trace", NULL) < 0) {
 *       const tc_error *e = tc_error_last();   // e->message, e->path, e->offset
 *       ...
 *   }
 *   tc_muxer *mux;
 *   tc_muxer_new(&mux);
 *   tc_muxer_add_input(mux, in);
 *   const tc_message *msg;
 *   while ((rc = tc_muxer_next(mux, &msg)) > 0) { ...use msg... }
 *   // rc == 0: end of all streams; rc < 0: tc_error_last() says why
 *   tc_muxer_free(mux);
 *   tc_input_free(in);
 *
 * Errors: every function that can fail returns a negative TC_E* code and
 * records a description, retrievable with tc_error_last() until the next
 * failing call on the same thread.  The library never prints.
 *
 * Writers (CTF, Perfetto, JSON) read nothing but this model: a program may
 * hand them the traces of a reader of its own.
 *
 * Lifetimes: a message and the fields it points to stay valid until the next
 * call to tc_muxer_next() (or tc_stream_next()) on the same object.  Classes,
 * traces and streams live as long as their tc_input.
 */
#ifndef TRACECAT_H
#define TRACECAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRACECAT_VERSION "0.1.0"

/* Marks the functions libtracecat.so exports; it is built with every other
 * symbol hidden, so that nothing private becomes part of its ABI. */
#if defined(__GNUC__) && defined(TRACECAT_BUILDING_LIBRARY)
#define TC_API __attribute__((visibility("default")))
#else
#define TC_API
#endif

/* The release of the library running, TRACECAT_VERSION as it was built
 * ("0.1.0"): a program built against one header may run with a later
 * libtracecat.so of the same soname.  Never fails. */
TC_API const char *tc_version(void);

/* ------------------------------------------------------------------------
 * Errors
 */

enum {
	TC_OK = 0,
	TC_ENOMEM = -1,    /* allocation failed */
	TC_EIO = -2,       /* the operating system refused a read or write */
	TC_EFORMAT = -3,   /* the input is malformed: message says where */
	TC_EUNSUPPORTED = -4, /* valid input using something not implemented */
	TC_EINVAL = -5,    /* the caller passed a wrong argument */
	TC_ENOTFOUND = -6  /* nothing readable at the given path */
};

typedef struct tc_error {
	int code;            /* one of the TC_E* values */
	char path[4096];     /* file the error is about, "" if none */
	int64_t offset;      /* byte offset in that file, -1 if none */
	char message[1024];  /* what was expected, in plain words */
	/* TC_EIO from writing to a stream the caller gave (a text printer's,
	 * a report's): the errno of the write that failed, so that the caller,
	 * who knows what the stream is, can give the system's reason in its
	 * own words.  0 for every other error. */
	int sys_errno;
} tc_error;

/* The last error recorded on this thread (never NULL). */
TC_API const tc_error *tc_error_last(void);

/* Renders the last error as one line: "PATH: at byte OFFSET: MESSAGE". */
TC_API void tc_error_format(const tc_error *err, char *buf, size_t size);

/* ------------------------------------------------------------------------
 * Clocks
 */

/* Which system clock a trace clock reads, where its reader knows (Linux
 * clock_gettime(2) names): what relates the clocks of traces recorded
 * side by side on one machine. */
typedef enum tc_clock_system {
	TC_CLOCK_UNKNOWN,        /* a counter of the tracer's own, or not said */
	TC_CLOCK_REALTIME,       /* CLOCK_REALTIME */
	TC_CLOCK_MONOTONIC,      /* CLOCK_MONOTONIC: LTTng's "monotonic", uftrace's,
	                            trace-cmd's "mono" */
	TC_CLOCK_MONOTONIC_RAW,  /* CLOCK_MONOTONIC_RAW: trace-cmd's "mono_raw" */
	TC_CLOCK_BOOTTIME        /* CLOCK_BOOTTIME: trace-cmd's "boot" */
} tc_clock_system;

typedef struct tc_clock {
	char *name;
	char *description;   /* NULL if none */
	bool has_uuid;
	uint8_t uuid[16];
	uint64_t freq;       /* Hz, > 0 */
	uint64_t precision;  /* cycles */
	int64_t offset_s;    /* seconds from the origin to the clock's zero */
	uint64_t offset;     /* cycles added to offset_s, always < freq */
	bool absolute;       /* origin is the Unix epoch for every reader */
	/* Whether the clock's origin (offset 0) is the Unix epoch, so that its
	 * times are dates: CTF 1.8 clocks, CTF 2 ones of origin "unix-epoch",
	 * trace-cmd's with a DATE option, uftrace's with a utc_offset, legacy
	 * LTTng's with a start time.  False for the clocks that count from an
	 * unknown zero, usually the boot: trace-cmd's local, global, mono...,
	 * uftrace's monotonic. */
	bool origin_is_unix_epoch;
	/* CTF 2: the accuracy (cycles, 0 when unknown); the clock's identity
	 * and a custom origin's, each NULL when absent. */
	uint64_t accuracy;
	char *ns, *uid;      /* with name: the clock's identity */
	char *origin_ns, *origin_name, *origin_uid;
	tc_clock_system system;  /* which system clock it is, when known */
} tc_clock;

/*
 * A point in time relative to a clock's origin: whole seconds (floor) and
 * nanoseconds within that second.  Wider than 64-bit nanoseconds, so clocks
 * whose offset puts them beyond the years 1678-2262 are still exact.
 */
typedef struct tc_time {
	int64_t sec;
	uint32_t nsec;       /* 0..999999999 */
} tc_time;

/* -1, 0 or 1 as A is before, equal to or after B. */
static inline int tc_time_cmp(tc_time a, tc_time b)
{
	if (a.sec != b.sec)
		return a.sec < b.sec ? -1 : 1;
	return a.nsec < b.nsec ? -1 : a.nsec > b.nsec;
}

/*
 * The time of a clock value in cycles.  Uses the conversion babeltrace2
 * uses (double precision unless the clock runs at 1 GHz), so times match it
 * to the nanosecond.  Returns false only if the seconds overflow 64 bits.
 */
TC_API bool tc_clock_cycles_to_time(const tc_clock *clk, uint64_t cycles, tc_time *t);

/* ------------------------------------------------------------------------
 * Field classes (types)
 */

typedef enum tc_field_kind {
	TC_FIELD_INT,
	TC_FIELD_ENUM,       /* an integer with labelled ranges */
	TC_FIELD_FLOAT,
	TC_FIELD_STRING,     /* NUL-terminated, or a text array/sequence */
	TC_FIELD_STRUCT,
	TC_FIELD_ARRAY,      /* static length */
	TC_FIELD_SEQUENCE,   /* length taken from an earlier field */
	TC_FIELD_VARIANT,    /* one option selected by an earlier field */
	/* CTF 2 only */
	TC_FIELD_BOOL,       /* a fixed-length bit array, true when any bit is set */
	TC_FIELD_BIT_ARRAY,  /* bits shown as a number; a bit map when it has labels */
	TC_FIELD_BLOB,       /* bytes, of a static length or one an earlier field gives */
	TC_FIELD_OPTIONAL    /* `element`, present or not as an earlier field says */
} tc_field_kind;

/* The encoding of CTF 2 strings (NUL-terminated, static or dynamic length:
 * TC_FIELD_STRING, or a text array/sequence whose length counts bytes). */
typedef enum tc_string_encoding {
	TC_UTF8,
	TC_UTF16LE,
	TC_UTF16BE,
	TC_UTF32LE,
	TC_UTF32BE
} tc_string_encoding;

typedef enum tc_byte_order { TC_LITTLE_ENDIAN, TC_BIG_ENDIAN } tc_byte_order;

typedef struct tc_field_class tc_field_class;

typedef struct tc_enum_range {
	uint64_t lo, hi;     /* inclusive; compare as signed when the container is signed */
} tc_enum_range;

typedef struct tc_enum_label {
	char *label;         /* shown verbatim */
	tc_enum_range *ranges;
	size_t range_count;
	/* Where babeltrace2 2.1 prints this label when several match a
	 * value (labels themselves stay in declaration order). */
	unsigned print_rank;
} tc_enum_label;

/*
 * The six scopes of an event's fields, as CTF names them (CTF 1.8 §7.3.2,
 * CTF 2 "field location" origins); readers of other formats use the same
 * scopes for the same meanings (a trace.dat event's fields: its payload).
 */
typedef enum tc_scope {
	TC_SCOPE_PACKET_HEADER,
	TC_SCOPE_PACKET_CONTEXT,
	TC_SCOPE_EVENT_HEADER,
	TC_SCOPE_STREAM_EVENT_CONTEXT,   /* the stream class's common context */
	TC_SCOPE_EVENT_CONTEXT,          /* the event class's specific context */
	TC_SCOPE_PAYLOAD,
	TC_SCOPE_COUNT
} tc_scope;

/* Steps of a tc_field_path other than member indexes. */
enum {
	/* into the element of an array or sequence: the element being
	 * decoded when the path is followed */
	TC_PATH_ELEMENT = 0xFFFF,
	/* into a variant's selected option or an optional's field, when present */
	TC_PATH_SELECTED = 0xFFFE
};

/*
 * Where a sequence or dynamic BLOB finds its length, or a variant or
 * optional its selector, as babeltrace2's field paths say it (its
 * bt_field_path: a scope and the index path from that scope's root): the
 * field reached from the root of SCOPE by STEPS, each a member index of a
 * structure (or an option index of a variant), TC_PATH_ELEMENT or
 * TC_PATH_SELECTED.  The field is always decoded before the one that
 * refers to it.  Filled by every reader that resolves lengths and
 * selectors; LEN 0 when not resolved (the class's length_ref or tag_ref
 * then names it, if anything does).
 */
typedef struct tc_field_path {
	tc_scope scope;
	const uint16_t *steps;
	size_t len;
	const tc_field_class *target;  /* the class found there: readers set it */
} tc_field_path;

/*
 * What a field means to a reader of packets, beyond its value: CTF 2's
 * field roles (CTF 2 "roles" of the packet header, packet context and
 * event header), which CTF 1.8 says with reserved member names
 * (CTF 1.8 §5, §8: magic, uuid, stream_id, stream_instance_id,
 * packet_size, content_size, timestamp_begin, timestamp_end,
 * events_discarded, packet_seq_num, id, timestamp).  A writer that copies
 * packets, or that describes a layout in CTF 2, takes them from here.
 */
typedef enum tc_field_role {
	TC_ROLE_NONE,
	TC_ROLE_MAGIC,               /* packet header: 0xC1FC1FC1 */
	TC_ROLE_UUID,                /* packet header: the trace's UUID */
	TC_ROLE_STREAM_ID,           /* packet header: the stream class id */
	TC_ROLE_STREAM_INSTANCE_ID,  /* packet header: the stream id */
	TC_ROLE_PACKET_SIZE,         /* packet context: total size, bits */
	TC_ROLE_CONTENT_SIZE,        /* packet context: content size, bits */
	TC_ROLE_TS_BEGIN,            /* packet context: clock value at the start */
	TC_ROLE_TS_END,              /* packet context: clock value at the end */
	TC_ROLE_EVENTS_DISCARDED,    /* packet context: events lost so far */
	TC_ROLE_PACKET_SEQ_NUM,      /* packet context: packet number */
	TC_ROLE_EVENT_ID,            /* event header: the event class id */
	TC_ROLE_TIMESTAMP            /* event header: the clock value (low bits) */
} tc_field_role;

typedef struct tc_member {
	char *name;          /* as declared, e.g. "_vtid" */
	const char *display_name; /* one leading '_' removed: "vtid" */
	tc_field_class *cls;
} tc_member;

/* Flags in tc_field_class.flags. */
enum {
	/* Never shown: special meaning (packet_size, timestamp_begin, ...),
	 * clock-mapped, or a compound all of whose members are hidden. */
	TC_FIELD_HIDDEN = 1u << 0,
	/* An array or sequence of 8-bit text characters, decoded as a string. */
	TC_FIELD_TEXT = 1u << 1,
	/* CTF 2 INT, ENUM: a variable-length (LEB128) integer; `size` is 64. */
	TC_FIELD_VARLEN = 1u << 2,
	/* CTF 2 fixed-length fields in the other bit order than their byte
	 * order's: the value is the bits read, reversed over `size` bits. */
	TC_FIELD_BIT_REVERSED = 1u << 3,
	/* An integer holding the address of kernel code (the frames of an
	 * ftrace kernel_stack record), which tc_trace_symbol() may name. */
	TC_FIELD_CODE_ADDRESS = 1u << 4
};

struct tc_field_class {
	tc_field_kind kind;
	uint32_t flags;
	unsigned align;          /* bits, power of two */

	/* TC_FIELD_INT, TC_FIELD_ENUM (its container), TC_FIELD_FLOAT,
	 * TC_FIELD_BOOL, TC_FIELD_BIT_ARRAY */
	unsigned size;           /* bits: 1..64; floats 32 or 64 */
	bool is_signed;
	tc_byte_order byte_order;
	unsigned base;           /* display base: 2, 8, 10 or 16 */
	bool has_encoding;       /* UTF-8/ASCII character */
	const tc_clock *clock;   /* the clock this integer updates, or NULL */

	/* TC_FIELD_ENUM: its labels.  TC_FIELD_BIT_ARRAY: a bit map's flags,
	 * whose ranges are bit indexes.  CTF 2 TC_FIELD_VARIANT: labels[i]
	 * holds the selector ranges of option i (label_count = member_count);
	 * CTF 2 TC_FIELD_OPTIONAL: labels[0] those of an integer selector (no
	 * labels: a boolean selector).  CTF 1.8 variants have none. */
	tc_enum_label *labels;
	size_t label_count;

	/* TC_FIELD_STRUCT and TC_FIELD_VARIANT (options; a CTF 2 option may
	 * have no name: "") */
	tc_member *members;
	size_t member_count;

	/* TC_FIELD_ARRAY, TC_FIELD_SEQUENCE; TC_FIELD_OPTIONAL's field */
	tc_field_class *element;
	/* TC_FIELD_ARRAY (elements; bytes for text), static TC_FIELD_BLOB (bytes) */
	uint64_t length;
	/* TC_FIELD_SEQUENCE and dynamic TC_FIELD_BLOB: the length field's path
	 * as written in TSDL, or (CTF 2) the absolute TSDL path of the field
	 * its location finds */
	char *length_ref;

	/* TC_FIELD_VARIANT, TC_FIELD_OPTIONAL: the tag (selector) field's path,
	 * as length_ref */
	char *tag_ref;
	/* TC_FIELD_SEQUENCE and dynamic TC_FIELD_BLOB: where the length is;
	 * TC_FIELD_VARIANT and TC_FIELD_OPTIONAL: where the selector is.  A
	 * variant without labels (CTF 1.8's) selects the option named as the
	 * selector's enumeration label that matches its value. */
	tc_field_path ref;
	tc_field_role role;      /* TC_ROLE_NONE for most */

	/* TC_FIELD_STRING, text arrays and sequences */
	tc_string_encoding encoding;
	/* TC_FIELD_BLOB: its media type, NULL for application/octet-stream */
	char *media_type;

	/* Private to whoever made the class (a reader's decoding plan, a
	 * writer's encoding notes): no one else reads it. */
	void *priv;
};

/* ------------------------------------------------------------------------
 * Decoded fields
 */

typedef struct tc_field tc_field;

struct tc_field {
	const tc_field_class *cls;
	union {
		uint64_t u;          /* TC_FIELD_INT / ENUM, unsigned; BOOL (0 or 1),
		                        BIT_ARRAY */
		int64_t s;           /* TC_FIELD_INT / ENUM, signed */
		double f;            /* TC_FIELD_FLOAT */
		struct {
			const char *ptr; /* not NUL-terminated; UTF-8 whatever
			                    the encoding read */
			size_t len;
		} str;               /* TC_FIELD_STRING, text arrays and sequences,
		                        TC_FIELD_BLOB (the bytes) */
		struct {
			tc_field *items;
			size_t count;
		} compound;          /* STRUCT (members), ARRAY, SEQUENCE (elements),
		                        VARIANT (count 1: the selected option),
		                        OPTIONAL (count 0: absent, 1: its field) */
	} v;
	/* TC_FIELD_VARIANT: index of the selected option in cls->members. */
	uint32_t option;
};

/* ------------------------------------------------------------------------
 * Traces, stream classes, event classes, streams
 */

typedef struct tc_env_entry {
	char *key;
	bool is_int;
	int64_t int_value;
	char *str_value;     /* NULL when is_int */
} tc_env_entry;

/*
 * Environment keys with a meaning beyond display (readers set them, writers
 * and `print` read them).  Values are strings unless said otherwise.
 */
#define TC_ENV_DOMAIN "domain"               /* "kernel" or "ust" (LTTng's); see tc_trace.domain */
#define TC_ENV_TRACER_NAME "tracer_name"     /* "lttng-modules", "lttng-ust", "trace-cmd",
                                                "lttng-legacy", "barectf"... */
#define TC_ENV_TRACER_MAJOR "tracer_major"   /* integers: the tracer's release */
#define TC_ENV_TRACER_MINOR "tracer_minor"
#define TC_ENV_TRACER_PATCHLEVEL "tracer_patchlevel"
#define TC_ENV_SOURCE_FORMAT "source_format" /* what a converted trace was read from:
                                                "trace-cmd trace.dat vN", "uftrace",
                                                "LTTng 0.x (LTTV) trace" */
#define TC_ENV_HOSTNAME "hostname"           /* the machine traced */
#define TC_ENV_SYSNAME "sysname"             /* uname(2) of the kernel traced */
#define TC_ENV_KERNEL_RELEASE "kernel_release"
#define TC_ENV_KERNEL_VERSION "kernel_version"
#define TC_ENV_MACHINE "machine"
#define TC_ENV_TRACE_NAME "trace_name"

typedef struct tc_trace tc_trace;
typedef struct tc_stream_class tc_stream_class;

/* A symbol of a trace's symbol table (tc_trace_symbol). */
typedef struct tc_symbol {
	uint64_t addr;       /* where it starts */
	const char *name;
	const char *module;  /* NULL: the kernel's own */
} tc_symbol;

typedef struct tc_event_class {
	uint64_t id;
	char *name;
	int loglevel;        /* 0..14, or -1 when absent */
	char *emf_uri;       /* NULL when absent */
	tc_field_class *context;  /* NULL when absent */
	tc_field_class *payload;  /* NULL when absent */
	tc_stream_class *stream_class;
} tc_event_class;

struct tc_stream_class {
	uint64_t id;
	const tc_clock *clock;       /* NULL: its events have no time */
	tc_field_class *packet_context;
	tc_field_class *event_header;
	tc_field_class *event_context;
	tc_event_class **event_classes;
	size_t event_class_count;
	tc_trace *trace;
	bool has_discarded_events;   /* packets count lost events */
	bool has_packet_seq_num;     /* packets are numbered */
	bool has_packet_times;       /* packets have begin and end times */
};

/* A file holding a stream's bytes as they are (see tc_stream.files). */
typedef struct tc_stream_file {
	const char *path;
	const char *dir_in_input;    /* its folder relative to the path opened */
} tc_stream_file;

typedef struct tc_stream {
	uint64_t id;                 /* unique within its stream class */
	tc_stream_class *stream_class;
	tc_trace *trace;
	char *name;                  /* path of the stream's first file */
	int cpu;                     /* -1 when unknown */
	/* TC_LAYOUT_CTF1 and TC_LAYOUT_CTF2 traces: the stream's files, in
	 * reading order, each a run of packets laid out as the classes say
	 * (what tc_ctf_copy() copies); none for the other layouts. */
	const tc_stream_file *files;
	size_t file_count;
} tc_stream;

/* The format a trace was read from. */
typedef enum tc_input_format {
	TC_INPUT_OTHER,              /* built by a reader outside the library */
	TC_INPUT_CTF,
	TC_INPUT_TRACE_DAT,
	TC_INPUT_UFTRACE,
	TC_INPUT_LTTNG_LEGACY,
	TC_INPUT_PERF                /* perf record's perf.data */
} tc_input_format;

/* FORMAT's short name, for display: "ctf", "trace.dat", "uftrace",
 * "lttng-legacy", "perf.data" or "other". */
TC_API const char *tc_input_format_name(tc_input_format format);

/* Who recorded a trace's events. */
typedef enum tc_domain {
	TC_DOMAIN_UNKNOWN,
	TC_DOMAIN_KERNEL,            /* the kernel's tracer (ftrace, LTTng's modules) */
	TC_DOMAIN_USER               /* a user-space tracer (LTTng-UST, uftrace) */
} tc_domain;

/* How the bytes of a trace's stream files relate to its classes. */
typedef enum tc_layout {
	/* the reader decodes its own format into the classes: they say
	 * what the values are, not how they are stored */
	TC_LAYOUT_OWN,
	/* the streams are CTF 1.8 packets laid out exactly as the classes
	 * say (sizes, alignments, byte orders; roles as tc_field_class.role
	 * gives them), and length_ref/tag_ref are TSDL as written */
	TC_LAYOUT_CTF1,
	/* the same for CTF 2 packets (LEB128 integers, other encodings...) */
	TC_LAYOUT_CTF2
} tc_layout;

/*
 * A task (thread) the trace names, whatever its events say: trace.dat's
 * saved cmdlines, a uftrace record's task list.  Times are in cycles of
 * the trace's first clock.
 */
typedef struct tc_task {
	int64_t tid;
	int64_t pid;                 /* its process (thread group), -1 when unknown */
	char *name;                  /* comm, or the program's name */
	bool has_begin, has_end;     /* whether begin and end are known */
	uint64_t begin, end;         /* when it started (was first seen), ended */
} tc_task;

struct tc_trace {
	tc_input_format format;
	/* The format's version: CTF 1.8 or 2.0; trace.dat 6 or 7 (minor 0);
	 * uftrace's data format version (its file header's, minor 0); legacy
	 * LTTng's major and minor. */
	int format_major, format_minor;
	/* CTF: 1 (1.8, TSDL metadata) or 2 (JSON metadata), as format_major;
	 * 0 for the others.  Text follows babeltrace2 2.1.2's rules for CTF 2
	 * traces. */
	int ctf_major;
	tc_domain domain;
	tc_layout layout;
	/* CTF 2: the trace class's identity (namespace, name, uid), each NULL
	 * when absent. */
	char *class_ns, *class_name, *class_uid;
	char *path;                  /* the directory or file read */
	char *name;                  /* babeltrace2's trace name: hostname/relative-dir */
	/* The trace's folder relative to the path opened: "" for the path
	 * itself, "kernel" for PATH/kernel (for a trace.dat file found in a
	 * folder, the file's path: "more/x.dat"); converted traces keep it. */
	char *dir_in_input;
	/* CTF: the packet header layout (magic, uuid, stream id...), NULL
	 * when the format has none. */
	tc_field_class *packet_header;
	bool has_uuid;
	uint8_t uuid[16];
	tc_env_entry *env;
	size_t env_count;
	tc_clock **clocks;
	size_t clock_count;
	tc_stream_class **stream_classes;
	size_t stream_class_count;
	tc_stream **streams;
	size_t stream_count;
	/* The tasks the trace names (see tc_task), in the order it lists them;
	 * a tid may come back with another name. */
	tc_task *tasks;
	size_t task_count;
	/* The reader's look-up of code addresses, which tc_trace_symbol()
	 * calls: NULL when the trace has no symbol table. */
	bool (*symbol_at)(const tc_trace *trace, uint64_t addr, tc_symbol *out);
};

/* Writes UUID as 36 lowercase characters and a NUL. */
TC_API void tc_uuid_format(const uint8_t uuid[16], char out[37]);

/* The environment entry named KEY, or NULL. */
TC_API const tc_env_entry *tc_trace_env(const tc_trace *trace, const char *key);

/* The symbol of the code at ADDR in TRACE's symbol table (a trace.dat
 * file's kallsyms), the one libtraceevent names it by (trace-cmd report's
 * stack traces: the nearest symbol at or below ADDR): true and *OUT
 * filled, its strings living as long as TRACE; false when the trace has
 * no table or no symbol for ADDR.  The table is read on first use; the
 * function may be called from several threads at once. */
TC_API bool tc_trace_symbol(const tc_trace *trace, uint64_t addr, tc_symbol *out);

/* ------------------------------------------------------------------------
 * Messages
 */

typedef enum tc_message_kind {
	TC_MSG_EVENT,
	TC_MSG_DISCARDED_EVENTS,
	TC_MSG_DISCARDED_PACKETS
} tc_message_kind;

typedef struct tc_message {
	tc_message_kind kind;
	const tc_stream *stream;
	bool has_time;
	uint64_t cycles;             /* clock value; for discards, range begin */
	tc_time time;                /* the same from the clock origin */

	/* TC_MSG_EVENT */
	const tc_event_class *event_class;
	const tc_field *packet_context;        /* NULL when absent */
	const tc_field *stream_event_context;  /* NULL when absent */
	const tc_field *event_context;         /* NULL when absent */
	const tc_field *payload;               /* NULL when absent */

	/* TC_MSG_DISCARDED_*: count 0 means "unknown" */
	uint64_t count;
	bool has_range;
	uint64_t end_cycles;
	tc_time end_time;
} tc_message;

/* ------------------------------------------------------------------------
 * Opening inputs
 */

/* The peer releases to follow (defined with tc_compat_parse below). */
typedef struct tc_compat tc_compat;

typedef struct tc_open_options {
	int64_t clock_offset_s;      /* added to every clock's offset */
	int64_t clock_offset_ns;
	/* trace.dat: LTTng kernel tracer conventions instead of ftrace's
	 * (event and field names, values, environment), as Trace Compass
	 * expects a kernel trace; see README "trace.dat as LTTng". */
	bool lttng_names;
	/* the peer releases whose reading to follow where they differ (NULL:
	 * tc_compat_default()): babeltrace2 2.0 refuses plain-text CTF 1.8
	 * metadata that does not open with the comment "CTF 1.8", 2.1 reads it */
	const tc_compat *compat;
} tc_open_options;

typedef struct tc_input tc_input;

/*
 * Opens PATH: a trace.dat or perf.data file, or a directory and every
 * trace below it, of every format, as if each had been opened on its own:
 * CTF traces (every folder with a "metadata" file is a trace, as
 * babeltrace2 discovers them), uftrace record directories, trace.dat and
 * perf.data files (found by their magic, whatever their name); or, when
 * it holds none of these, a legacy LTTng trace directory (its metadata
 * files are read whole here).
 * A trace below PATH keeps its place in tc_trace.dir_in_input.  Metadata
 * is parsed; stream files are opened lazily.  A file or folder below PATH
 * that cannot be opened or listed is an error.  OPTS may be NULL.
 */
TC_API int tc_input_open(tc_input **out, const char *path, const tc_open_options *opts);
TC_API void tc_input_free(tc_input *in);

/*
 * Every message of IN, stream after stream in file order, without merging
 * by time: the fastest way to visit all events when order does not matter
 * (statistics).  Same return values as tc_muxer_next().  Not to be mixed
 * with tc_muxer_add_input() on the same input.
 */
TC_API int tc_input_next(tc_input *in, const tc_message **msg);

/*
 * The streams of IN one by one, for readers that do not need time order
 * and want to decode streams in parallel: tc_input_stream_next() hands out
 * the next message of stream I, in file order, with the same return values
 * as tc_muxer_next().  Different streams may be read from different
 * threads at the same time; each stream from one thread at a time.  A
 * message stays valid until the next call for the same stream.  Not to be
 * mixed with tc_input_next() or a muxer on the same input.
 */
TC_API size_t tc_input_stream_count(const tc_input *in);
TC_API int tc_input_stream_next(tc_input *in, size_t i, const tc_message **msg);

/* The stream tc_input_stream_next(IN, I, ...) reads, or NULL when I is
 * not below tc_input_stream_count(). */
TC_API const tc_stream *tc_input_stream(const tc_input *in, size_t i);

/*
 * The time range of stream I of IN where its reader knows it without
 * decoding events: for CTF, the packet index as babeltrace2's
 * source.ctf.fs gives it (from the beginning time of its first packet to
 * the end time of its last).  Returns 1 with *BEGIN and *END set, 0 when
 * the range is not known (packets without both times, no clock, other
 * formats), < 0 on an error reading the packets.  Call it before any
 * message of IN is read.
 */
TC_API int tc_input_stream_time_range(tc_input *in, size_t i, tc_time *begin, tc_time *end);

TC_API size_t tc_input_trace_count(const tc_input *in);
TC_API tc_trace *tc_input_trace(const tc_input *in, size_t i);

/*
 * How far reading IN has got, in bytes of its files: for a progress
 * figure, set against the size of the files (a trace.dat file's, or every
 * file's below the folder opened).  What a reader reads whole at open
 * (CTF metadata, trace.dat headers and options, legacy LTTng facility
 * descriptions, a uftrace record's files other than its data, which are
 * read then or later or not needed) is counted from the start; the
 * streams' files are counted as they are read, by whichever means
 * (tc_input_next(), tc_input_stream_next(), a muxer and its worker
 * threads), a packet, page or chunk at a time: CTF packets, trace.dat
 * pages (compressed data: the chunks as stored), uftrace task files a few
 * thousand records at a time and perf files whole, legacy LTTng blocks;
 * a perf.data file is counted whole when it is opened (it is mapped).
 * Read to the end, the count is the size of the files, but for files no
 * reader looks at (a CTF index, a file beside the traces of a folder).
 * Safe to call from any thread while others read the streams; never
 * fails.
 */
TC_API uint64_t tc_input_bytes_read(const tc_input *in);

/*
 * Which events' field values the caller reads; by default, every event's.
 * For the event classes WANTED answers false for, a reader may leave the
 * messages' stream event context, event context and payload NULL instead
 * of building values nobody reads (most of the cost of decoding simple
 * events).  Those events are read and checked as fully as the others: the
 * same class ids, times, counts and errors, at the same bytes.  `tracecat
 * info` wants no values; `print --events` only those of the classes it
 * shows.  WANTED is asked once per event class, during this call, which
 * comes before the first message is read; NULL wants every value again.
 * The CTF reader honours it; the others build every value.
 */
typedef bool (*tc_values_wanted_fn)(void *ctx, const tc_event_class *ec);
TC_API int tc_input_want_values(tc_input *in, tc_values_wanted_fn wanted, void *ctx);

/* ------------------------------------------------------------------------
 * Merging by time
 */

typedef struct tc_muxer tc_muxer;

TC_API int tc_muxer_new(tc_muxer **out);
TC_API void tc_muxer_free(tc_muxer *mux);

/* Adds every stream of every trace of IN; IN must outlive the muxer. */
TC_API int tc_muxer_add_input(tc_muxer *mux, tc_input *in);

/*
 * Decodes streams ahead on THREADS threads in all, the caller's included
 * (worker threads decode while the caller goes on with the messages
 * decoded before); 1, the default, reads on the caller's thread only.
 * Messages come in the same order either way.  Call before the first
 * tc_muxer_next().
 */
TC_API int tc_muxer_set_threads(tc_muxer *mux, unsigned threads);

/*
 * The next message in time order, with babeltrace2's rules for ties (the
 * traces: their UUIDs and names under babeltrace2 2.0, their namespaces,
 * names and uids under 2.1, as the first input's tc_open_options.compat
 * says, and always when a trace is CTF 2; then stream class id, stream
 * id, message kind, event class).
 * Returns 1 and sets *msg, 0 at the end, or a negative error.
 */
TC_API int tc_muxer_next(tc_muxer *mux, const tc_message **msg);

/* ------------------------------------------------------------------------
 * Filtering messages (what `print` and `convert` share)
 */

typedef struct tc_filter tc_filter;

TC_API int tc_filter_new(tc_filter **out);
TC_API void tc_filter_free(tc_filter *f);

/*
 * Keeps messages from BEGIN on (up to END), written as babeltrace2's
 * trimmer takes them: "YYYY-MM-DD HH:MM[:SS[.NNNNNNNNN]]", "HH:MM[:SS[.N]]"
 * (on the date of the first message) or "[-]SECONDS[.NNNNNNNNN]" from the
 * Unix epoch; dates and times of day in UTC when GMT, local time otherwise.
 */
TC_API int tc_filter_set_begin(tc_filter *f, const char *text, bool gmt);
TC_API int tc_filter_set_end(tc_filter *f, const char *text, bool gmt);
/* Keeps the messages of trace T from BEGIN to END, as babeltrace2's
 * --stream-intersection does with the range all of T's streams cover
 * (tc_input_stream_time_range); other traces' messages pass.  Once per
 * trace. */
TC_API int tc_filter_set_trace_range(tc_filter *f, const tc_trace *t, tc_time begin, tc_time end);
/* Keeps events whose name matches one of the comma-separated shell
 * patterns (fnmatch), e.g. "sched_*,irq_handler_entry". */
TC_API int tc_filter_add_events(tc_filter *f, const char *patterns);
/* Keeps messages of streams of the listed CPUs, e.g. "0,2-3". */
TC_API int tc_filter_add_cpus(tc_filter *f, const char *list);
/* Gives times of day their date, from the first message's time, before
 * messages are matched out of time order. */
TC_API void tc_filter_set_first_time(tc_filter *f, tc_time first);
TC_API bool tc_filter_is_empty(const tc_filter *f);
/* Whether F keeps MSG.  Several threads may match at once once the times
 * of day have their date (tc_filter_set_first_time, or none given). */
TC_API bool tc_filter_match(tc_filter *f, const tc_message *msg);
/* A discarded-items report F keeps, cut to F's time bounds as babeltrace2
 * cuts it: a report that starts before the beginning starts at it, one
 * that ends after the end ends at it, and its count becomes unknown.
 * Returns MSG when nothing is cut, COPY (filled) otherwise. */
TC_API const tc_message *tc_filter_clip(const tc_filter *f, const tc_message *msg, tc_message *copy);
/* Whether F keeps the events of class EC whatever their time and CPU:
 * false only for a class its event-name patterns leave out. */
TC_API bool tc_filter_match_class(tc_filter *f, const tc_event_class *ec);

/* ------------------------------------------------------------------------
 * Writing CTF
 *
 * A converted trace is a folder holding a `metadata` file (CTF 1.8's TSDL
 * text, or CTF 2's JSON text sequence) and
 * one file per stream, as babeltrace2 and Trace Compass read them.  These
 * functions write into a folder the caller created; making the result
 * appear whole (a temporary folder renamed when done) is the caller's job,
 * as `tracecat convert` does it.
 */

/* Whether TRACE is CTF that tc_ctf_copy() can write packet for packet as
 * CTF CTF_VERSION (1 for 1.8, or 2): CTF 2 packets can only be described
 * in CTF 2 metadata, and CTF 1.8 packets in CTF 2 metadata only when CTF 2
 * can hide every field CTF 1.8 hides (not an integer mapped to a clock
 * outside the headers). */
TC_API bool tc_ctf_can_copy(const tc_trace *trace, int ctf_version);

/*
 * Writes TRACE, one of IN's traces, without decoding it: metadata text
 * describing the original layouts (packetized metadata becomes text), and
 * every stream file copied whole.  DIR stands for the path IN was opened
 * from: each file goes to the folder it had below that path (folders are
 * created), so traces split over several folders by UUID stay split.  *BYTES, when not
 * NULL, grows by the bytes copied as the copy goes.
 */
TC_API int tc_ctf_copy(tc_input *in, const tc_trace *trace, const char *dir, int ctf_version, uint64_t *bytes);

typedef struct tc_ctf_writer tc_ctf_writer;

typedef struct tc_ctf_writer_options {
	size_t packet_size;  /* bytes of a packet, 0 for 256 KiB; larger events get a packet of their own */
	int ctf_version;     /* the metadata written: 1 (CTF 1.8, also for 0) or 2 (CTF 2) */
} tc_ctf_writer_options;

/*
 * A writer of one CTF trace into the folder DIR holding the streams of
 * the COUNT traces TRACES, which share their clocks.  The trace gets the
 * first trace's environment, every clock, and one stream class per input
 * stream class with the same event classes (new ids, numbered in order).
 * Its packets have LTTng's layout: a header with magic, trace UUID, stream
 * class id and stream id; a context with begin and end times, sizes,
 * sequence number, discarded-event total and the input's own visible
 * packet context fields (cpu_id); compact event headers (5-bit id, 27-bit
 * time) when a stream class has at most 31 event classes, large ones
 * (16-bit id, 32-bit time) otherwise, extended when an id or a time gap
 * does not fit.  Field names are written so that a CTF reader shows them
 * as the model does (one leading underscore added where needed); text
 * arrays and sequences become strings.  A length or selector the output
 * cannot reach where the input had it becomes a key of the writer's own in
 * the event (or packet) header.  CTF 2 output (opts->ctf_version 2) keeps
 * CTF 2's booleans, bit maps, BLOBs, optionals and range-selected
 * variants; CTF 1.8 output makes them integers, arrays and tagged
 * variants.
 */
TC_API int tc_ctf_writer_new(tc_ctf_writer **out, const char *dir, tc_trace *const *traces, size_t count,
                      const tc_ctf_writer_options *opts);

/* Encodes MSG, a message of a stream of one of the writer's traces.  The
 * messages of each stream must come in their order; streams may come in
 * any order (tc_input_next() is fine), and from different threads at the
 * same time (each stream from one thread at a time: tc_input_stream_next()
 * on several threads, as `tracecat convert -j` does).  A value that does
 * not fit the layout its class declares (an array of another length than
 * the class's, a sequence of another count than its length field holds, an
 * integer beyond its bits, a structure without all its members) is not
 * written: TC_EINVAL, the error naming the event and the field, and the
 * writer must not be used further. */
TC_API int tc_ctf_writer_write(tc_ctf_writer *w, const tc_message *msg);

/* Ends every open packet and writes the metadata file: only after it
 * returns 0 does the folder hold a complete trace. */
TC_API int tc_ctf_writer_finish(tc_ctf_writer *w);

/* Bytes written to stream files so far. */
TC_API uint64_t tc_ctf_writer_bytes(const tc_ctf_writer *w);

TC_API void tc_ctf_writer_free(tc_ctf_writer *w);

/* ------------------------------------------------------------------------
 * Peer releases: whose text to write
 */

/* A peer's release as one number: TC_RELEASE(2, 1) is 2.1 (201). */
#define TC_RELEASE(major, minor) ((unsigned)(major) * 100u + (unsigned)(minor))

/* The release of each peer whose text is written, when releases differ.
 * Each difference between two releases is one switch in the writer that
 * reads the field here; a later release prints what the newest one known
 * below it prints. */
struct tc_compat {
	/* babeltrace2, for `print`: 2.0 (Debian 12's 2.0.4) or 2.1 (Debian
	 * 13's 2.1.1, sid's 2.1.2).  CTF 2, which 2.0 cannot read, always
	 * prints as 2.1 does. */
	unsigned babeltrace2;
	/* trace-cmd, for `report`: 3.1 (Debian 12's 3.1.6 with libtraceevent
	 * 1.7), 3.3 (Debian 13's 3.3.1 with libtraceevent 1.8: 3.4's text but
	 * for flag 0x02, which it prints as 1.7's X, not 1.9's L) or 3.4
	 * (sid's 3.4 with libtraceevent 1.9's plugins), whatever
	 * libtraceevent tracecat links. */
	unsigned trace_cmd;
	/* uftrace, for `replay`: 0.13 (Debian 12) or 0.19 (Debian sid).
	 * 0.19 prints the task id one column wider.  A request for Debian
	 * 13's 0.17, whose text is 0.19's, sets 0.19. */
	unsigned uftrace;
};

/* The newest text written of each peer: babeltrace2 2.1, trace-cmd 3.4,
 * uftrace 0.19. */
TC_API tc_compat tc_compat_default(void);

/*
 * Sets the releases SPEC names in C, leaving the other peers as they are:
 * "PEER=VERSION[,PEER=VERSION...]", PEER one of babeltrace2, trace-cmd,
 * uftrace, VERSION "X.Y" or "X.Y.Z" (the patch level is ignored): the
 * releases babeltrace2 2.0 and 2.1, trace-cmd 3.1, 3.3 and 3.4, uftrace
 * 0.13, 0.17 and 0.19.  0, or
 * TC_EINVAL (C unchanged) for an unknown peer or release or a malformed
 * SPEC, with a message listing the known releases.
 */
TC_API int tc_compat_parse(tc_compat *c, const char *spec);

/* ------------------------------------------------------------------------
 * uftrace's replay view
 */

typedef struct tc_replay_options {
	/* -f: comma-separated duration, tid, addr, time, delta, elapsed,
	 * task, module; "+LIST" for the default ones and LIST's; "all" or
	 * "none"; NULL for uftrace's default "duration,tid" */
	const char *fields;
	/* --tid: only these tasks (COUNT 0: all) */
	const int *tids;
	size_t tid_count;
	/* -F: only these functions and what they call; -N: not these nor
	 * what they call (exact names, or regular expressions) */
	const char *const *filters;
	size_t filter_count;
	const char *const *notrace;
	size_t notrace_count;
	/* -T: triggers, "FUNC@ACTION[,ACTION...]" with the actions depth=N,
	 * time=T, size=N, filter, notrace, caller, hide, trace, trace_on,
	 * trace_off (uftrace-replay(1), TRIGGERS) */
	const char *const *triggers;
	size_t trigger_count;
	/* -C: only the calls leading to these functions, each shown as a
	 * leaf; -H: these functions hidden, what they call shown */
	const char *const *callers;
	size_t caller_count;
	const char *const *hides;
	size_t hide_count;
	bool match_glob;     /* --match=glob: patterns are globs, not regular expressions */
	/* --demangle: C++ names shown (and matched by patterns) as
	 * "std::vector::push_back" (SIMPLE, uftrace's default), in full
	 * ("std::vector<int, ...>::push_back(int&&)") or mangled (NO); the
	 * demangling is the C++ runtime's (libstdc++), names stay mangled
	 * without it */
	enum { TC_DEMANGLE_SIMPLE, TC_DEMANGLE_FULL, TC_DEMANGLE_NO } demangle;
	int depth;           /* -D: levels shown below each start, 0: all */
	uint64_t time_filter; /* -t, in ns: hide shorter functions (0: the recording's default.opts) */
	uint64_t size_filter; /* -Z: hide functions of fewer bytes (0: none) */
	/* -r START~STOP: only records within, timestamps in ns as -f time
	 * shows them (0: open) */
	uint64_t range_start, range_stop;
	bool no_args;        /* --no-args */
	bool no_merge;       /* --no-merge: no "leaf();" lines */
	bool no_event;       /* --no-event: no events, unless EVENTS */
	bool events;         /* -E was given (it makes --no-event void) */
	bool no_sched;       /* --no-sched: no scheduler events */
	bool no_sched_preempt; /* --no-sched-preempt: none for pre-emptions */
	bool event_full;     /* --event-full: events outside functions too */
	bool flat;           /* --flat: one "[N] ==> tid/depth: ..." line per record */
	bool task_newline;   /* --task-newline: an empty line where the task changes */
	bool column_view;    /* --column-view: each task indented by its own column */
	int column_offset;   /* --column-offset: a column's width in levels (0: uftrace's 8) */
	bool color;          /* --color=yes: uftrace's terminal colours */
	/* told, when set, of what makes the output poorer without failing
	 * it: one line, no newline (a module whose symbols are neither in
	 * a .sym file nor in its binary, so its functions show as <hex>) */
	void (*warning)(void *arg, const char *message);
	void *warning_arg;
	/* whose text: .uftrace is read (zeroed options: the oldest known) */
	tc_compat compat;
} tc_replay_options;

/*
 * Writes to OUT what `uftrace replay -d DIR` prints for the uftrace record
 * directory DIR, byte for byte.  OPTS may be NULL.  On an error the text
 * of the records read before it is written first.
 */
TC_API int tc_uftrace_replay(const char *dir, const tc_replay_options *opts, FILE *out);

/* A duration as uftrace spells it for -t and -T time= ("100" or "100ns",
 * "1us", "2.5ms", "3s", "1m"): the LEN bytes at TEXT into *NS.  False when
 * malformed or beyond 64-bit nanoseconds. */
TC_API bool tc_uftrace_parse_time(const char *text, size_t len, uint64_t *ns);

/* ------------------------------------------------------------------------
 * Text output (babeltrace2's "pretty" format)
 */

typedef struct tc_text_options {
	/* babeltrace2's clock switches, independent as there: cycles, when
	 * set, is what event lines show; warnings show wall-clock times. */
	bool clock_cycles;   /* raw cycles on event lines */
	bool clock_seconds;  /* SECONDS.NNNNNNNNN instead of HH:MM:SS.NNNNNNNNN */
	bool clock_gmt;      /* UTC instead of local time */
	bool clock_date;     /* YYYY-MM-DD before the time */
	bool no_delta;
	/* -n/--names */
	bool names_payload, names_context, names_scope, names_header;
	/* -f/--fields */
	bool field_trace, field_hostname, field_domain, field_procname,
	     field_vpid, field_loglevel, field_emf, field_callsite;
	/* babeltrace2's terminal colours on event lines (its --color decides)
	 * and on warnings (it colours them whenever the terminal can) */
	bool color;
	bool color_warnings;
	/* whose text: .babeltrace2 is read (tc_text_options_default sets
	 * tc_compat_default()) */
	tc_compat compat;
} tc_text_options;

/* babeltrace2's defaults: local time, delta, payload and context names,
 * hostname, procname and vpid; the newest babeltrace2 text. */
TC_API void tc_text_options_default(tc_text_options *opts);

typedef struct tc_text_printer tc_text_printer;

/*
 * A printer writes event lines to OUT and discarded-item warnings to ERR,
 * buffering its output; tc_text_printer_free() flushes.
 */
TC_API int tc_text_printer_new(tc_text_printer **out, const tc_text_options *opts, FILE *out_stream, FILE *err_stream);
TC_API int tc_text_printer_print(tc_text_printer *p, const tc_message *msg);
TC_API int tc_text_printer_flush(tc_text_printer *p);
TC_API void tc_text_printer_free(tc_text_printer *p);

/* ------------------------------------------------------------------------
 * Writing timelines: Perfetto and Chrome JSON
 *
 * Any input written as a trace the Perfetto UI (ui.perfetto.dev) and
 * Chrome DevTools open, with their views of CPUs, threads and calls:
 *
 *   - Perfetto's protobuf trace (perfetto_trace.proto).  Kernel data
 *     (trace.dat, LTTng kernel CTF, legacy LTTng) becomes per-CPU ftrace
 *     event bundles: sched_switch, sched_waking, sched_wakeup[_new],
 *     sched_process_fork/exit/free, task_newtask/rename,
 *     irq_handler_entry/exit, softirq_entry/exit/raise,
 *     workqueue_execute_start/end, cpu_frequency, cpu_idle and print
 *     (the trace marker) as Perfetto's typed events, under ftrace's,
 *     LTTng's or legacy LTTng's names (LTTng's prev_tid is prev_pid,
 *     its priorities get back their 100); switches and wakings in the
 *     compact scheduling encoding where it loses nothing; every other
 *     event generic, with its fields.  Tasks named by the trace
 *     (a kernel trace's tc_trace.tasks, statedumps) are a ProcessTree, its
 *     uname the SystemInfo.  User-space function entries and exits
 *     (lttng_ust_cyg_profile, as uftrace's records read) are slices on
 *     their thread's track, named by the function (else its address),
 *     with the recorded arguments and return value; every other event is
 *     an instant on its thread's track (its stream's without a thread
 *     context) with its fields as debug annotations.
 *   - Chrome's Trace Event Format (JSON): each call one "X" event
 *     written at its exit ("B" when still open at the end), every other
 *     event an instant with its fields as args, process and thread names
 *     as "M" events; times in microseconds with three decimals, exact to
 *     the nanosecond in any JSON reader's doubles.
 *
 * Time: every input clock is related to one trace clock, the first kernel
 * trace's (else the first trace's): the same clock or the same system
 * clock (CLOCK_MONOTONIC, read by LTTng and uftrace), or both offset from
 * the Unix epoch.  Perfetto output says how with ClockSnapshots; a clock
 * with no known relation keeps its values, and the writer says so in a
 * warning.  A call whose entry the trace lacks (a forked child returning
 * through its parent's frames) begins just before its thread's first
 * event.
 *
 * The writer writes to a file descriptor the caller opened, as the
 * messages come (memory does not grow with the trace); making the file
 * appear whole (a temporary file renamed when done) is the caller's job,
 * as `tracecat convert` does it.
 */

typedef enum tc_timeline_format {
	TC_TIMELINE_PERFETTO,        /* Perfetto's protobuf trace (.pftrace) */
	TC_TIMELINE_CHROME_JSON      /* Chrome's Trace Event Format (.json) */
} tc_timeline_format;

typedef struct tc_timeline_writer tc_timeline_writer;

/*
 * A writer of the COUNT traces TRACES (which must outlive it) as one
 * timeline in FORMAT, to FD; NAME names it in errors.  Warnings about
 * clocks are ready from here on (tc_timeline_writer_warning).
 */
TC_API int tc_timeline_writer_new(tc_timeline_writer **out, tc_timeline_format format, int fd, const char *name,
                                  tc_trace *const *traces, size_t count);

/* Lets the writer use THREADS threads in all, the caller's included: with
 * two or more, a thread of its own writes the file while the caller's
 * formats what comes next; 1, the default, writes on the caller's thread.
 * The file is the same either way.  Call before the first write. */
TC_API int tc_timeline_writer_set_threads(tc_timeline_writer *w, unsigned threads);

/* Writes MSG, a message of a stream of one of the writer's traces.  The
 * messages of each stream must come in their order; merged by time (a
 * tc_muxer) the file is in time order too, which viewers load best. */
TC_API int tc_timeline_writer_write(tc_timeline_writer *w, const tc_message *msg);

/* Writes what is left: only after it returns 0 is the file complete. */
TC_API int tc_timeline_writer_finish(tc_timeline_writer *w);

/* Bytes made so far (written to the file, or about to be). */
TC_API uint64_t tc_timeline_writer_bytes(const tc_timeline_writer *w);

/* Warning I (from 0), one line without a newline, or NULL past the last:
 * what the output cannot say as the input did. */
TC_API const char *tc_timeline_writer_warning(const tc_timeline_writer *w, size_t i);

TC_API void tc_timeline_writer_free(tc_timeline_writer *w);

/* ------------------------------------------------------------------------
 * trace-cmd report
 *
 * The text `trace-cmd report` prints for a trace.dat file, byte for byte:
 * trace-cmd 3.4's (libtraceevent 1.9 and its plugins) or, with
 * compat.trace_cmd 3.3, Debian 13's 3.3.1's (libtraceevent 1.8) or, with
 * 3.1, 3.1.6's (libtraceevent 1.7.1), whichever libtraceevent the library
 * links.  Each event's print format is compiled
 * into a native plan; libtraceevent prints what the plans leave and loads
 * the plugins, so this part of the library needs it: a library built with
 * `make WITH_TRACEEVENT=0` has no report (tc_report_available()).
 */

/* What the report prints: the events, or one of trace-cmd report's
 * listings (trace-cmd checks them in this order: -f wins over -P, which
 * wins over -E, then --first-event, then --stat). */
typedef enum tc_report_listing {
	TC_REPORT_LIST_NONE = 0,    /* the events */
	TC_REPORT_LIST_FUNCS,       /* -f: kallsyms, "%016llx NAME [MODULE]" by address */
	TC_REPORT_LIST_PRINTK,      /* -P: the printk formats, "%016llx TEXT" by address */
	TC_REPORT_LIST_EVENTS,      /* -E: "SYSTEM:NAME" of every event format, sorted */
	TC_REPORT_LIST_FIRST_EVENT, /* --first-event: each CPU's first time */
	TC_REPORT_LIST_STAT,        /* --stat: the ring buffer statistics the file saved */
} tc_report_listing;

typedef struct tc_report_options {
	tc_report_listing listing;
	/* --first-event: the file's name as the user gave it, for the
	 * heading (NULL: the path) */
	const char *name;
	bool quiet;            /* -q: libtraceevent's warnings silenced */
	bool wakeup;           /* -w: wakeup latencies after sched_switch lines, and a summary */
	bool profile;          /* --profile: per task, the times events took, not the events */
	bool raw;              /* -R: the fields as name=value, not the print format */
	bool nsec;             /* -t: nine fractional digits, no rounding */
	bool no_plugins;       /* -N: load no libtraceevent plugins */
	bool no_sys_plugins;   /* -L: only the user's plugins */
	bool no_irqs;          /* -I: drop events with the hard-IRQ flag */
	bool no_softirqs;      /* -S: drop events with the soft-IRQ flag */
	bool latency;          /* -l: "%8.8s-%-5d %3d" and the latency column */
	bool ts_diff;          /* --ts-diff: the time since the previous line */
	/* --cpu: the CPUs to show, as trace-cmd numbers them: CPU c of the
	 * top buffer is c, CPU c of the k-th instance is c plus the CPU
	 * counts of the buffers before it.  NULL: every CPU. */
	const int *cpus;
	size_t cpu_count;
	/* -F: libtraceevent filter expressions ("sched_switch",
	 * "sched/sched_switch", "sched_switch: prev_pid == 0", ...); those
	 * whose NEGATE flag is set (given after -v) hide what they match. */
	const char *const *filters;
	const bool *filter_negate;
	size_t filter_count;
	/* A check for tests: also have libtraceevent format every event
	 * text a native plan printed, and fail (TC_EINVAL) at the first
	 * difference (so only for the release whose texts the linked
	 * libtraceevent prints: 3.1 with Debian 12's 1.7). */
	bool check_fast_path;
	/* Threads to read on: above 1, the CPUs' pages are read, inflated and
	 * split into records ahead, in batches, on THREADS - 1 workers
	 * (core/prefetch.c) while this thread merges and formats; the text is
	 * the same for every count.  0 or 1: all on this thread. */
	unsigned threads;
	/* whose text: .trace_cmd 3.1 (Debian 12's 3.1.6 with libtraceevent
	 * 1.7) or 3.4 and later (sid's 3.4 with 1.9; a zeroed field is 3.1) */
	tc_compat compat;
} tc_report_options;

/*
 * Writes the report of the trace.dat file PATH to OUT.  Returns 0, or a
 * negative TC_E* code with the error recorded (tc_error_last()):
 * TC_EINVAL for a filter libtraceevent refuses (nothing is written),
 * TC_ENOTFOUND / TC_EUNSUPPORTED / TC_EFORMAT / TC_EIO when the file
 * cannot be read (everything read before the damage is written first),
 * TC_EIO when OUT refuses the text, TC_ENOMEM; TC_EUNSUPPORTED, and
 * nothing written, from a library built without libtraceevent
 * (tc_report_available()).
 */
TC_API int tc_report(FILE *out, const char *path, const tc_report_options *opts);

/* Whether this library was built with libtraceevent, and so has
 * tc_report(). */
TC_API bool tc_report_available(void);

/* ------------------------------------------------------------------------
 * perf script
 */

typedef struct tc_script_options {
	bool ns;             /* --ns: times with nine fractional digits */
	bool show_task_events;   /* --show-task-events: COMM, FORK, EXIT lines */
	bool show_mmap_events;   /* --show-mmap-events: MMAP, MMAP2 lines */
	/* -C/--cpu: only the lines of these CPUs ("0,2-3"; NULL: all); a file
	 * whose events do not record their CPU is refused, as perf refuses it */
	const char *cpus;
} tc_script_options;

/*
 * Writes to OUT what `perf script -i PATH` of perf 6.1 (Debian 12) prints
 * for the perf.data file PATH, byte for byte, by its default fields, for
 * recordings of tracepoints (`perf record -e SYSTEM:EVENT`): comm, tid,
 * CPU, time, event name and the event's text by its print format (the
 * plans `report` uses).  OPTS may be NULL.  Returns 0, or a negative
 * TC_E* code with the error recorded: TC_EUNSUPPORTED at the first sample
 * of another kind of event or with a call chain (their symbols are not
 * resolved yet),
 * TC_ENOTFOUND when PATH is not a perf.data file, TC_EFORMAT for a
 * damaged one (the text of the records before the damage is written
 * first), TC_EIO when OUT refuses the text; TC_EUNSUPPORTED, and nothing
 * written, from a library built without libtraceevent.
 */
TC_API int tc_perf_script(FILE *out, const char *path, const tc_script_options *opts);

#ifdef __cplusplus
}
#endif

#endif /* TRACECAT_H */
