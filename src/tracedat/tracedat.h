/* SPDX-License-Identifier: MIT */
/*
 * tracedat.h - the raw trace.dat reader (trace-cmd file versions 6 and 7),
 * layer 1 of tracecat's trace.dat support.  Private to the library.
 *
 * This layer knows the container and nothing of tracecat's event model: it
 * hands out the metadata exactly as the file stores it (format texts,
 * kallsyms, printk formats, saved cmdlines, options) and, per buffer and
 * CPU, the ring-buffer records with their reconstructed timestamps.  The
 * event model (layer 2, model.c and stream.c) and `tracecat report` (which
 * feeds the texts to libtraceevent) are both built on it.
 *
 *   file.c      initial header, v6 inline metadata, v7 sections and the
 *               options chain, buffers: everything tracedat_open() reads
 *   compress.c  zstd and zlib blocks, decompressed into growing buffers
 *   cursor.c    per-CPU record cursors: pages, chunks, event headers, and
 *               the timestamp-to-nanosecond rule of trace-cmd report
 *   batch.c     a cursor's records in batches, for reading CPUs ahead on
 *               worker threads (core/prefetch.c)
 *   fields.c    the field lines of format texts (header_page and events)
 *
 * The format is trace-cmd's trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5);
 * doc/formats/tracedat.md says how tracecat reads it, and its section 12
 * where the bytes trace-cmd 3.1.6 writes disagree with those pages (the
 * code says so next to the place, citing that section).
 *
 * Usage:
 *
 *   tracedat_file *f;
 *   if (tracedat_open(&f, "trace.dat") < 0) { tc_error_last() says why }
 *   const tracedat_meta *m = tracedat_meta_of(f);
 *   for (size_t b = 0; b < m->buffer_count; b++)
 *       for (size_t i = 0; i < m->buffers[b].cpu_data_count; i++) {
 *           tracedat_cursor *c;
 *           tracedat_record rec;
 *           tracedat_cursor_open(f, b, m->buffers[b].cpu_data[i].cpu, &c);
 *           while ((rc = tracedat_cursor_next(c, &rec)) > 0)
 *               ... rec.data, rec.size: the event, for tep_record ...
 *           tracedat_cursor_close(c);
 *       }
 *   tracedat_close(f);
 *
 * Trust: every size, offset and count read from the file is checked
 * against the bytes that remain (of the file, or of a decompressed
 * section) before anything is allocated or read; decompression grows its
 * output as real bytes come out, never to a size the file merely claims.
 * Errors are recorded with tc_fail(code, path, byte offset, message);
 * nothing here prints.
 *
 * Threads: once open, a tracedat_file is only read.  Cursors of the same
 * file may run on different threads at the same time (each has its own
 * buffers and decompression state and reads with pread()).
 */
#ifndef TC_TRACEDAT_H
#define TC_TRACEDAT_H

#include "core/core.h"

/* ------------------------------------------------------------------------
 * Opening and metadata
 */

typedef struct tracedat_file tracedat_file;

/* A byte string from the file, exactly as stored; a NUL follows the LEN
 * bytes (not part of them) so text can be used as a C string. */
typedef struct tracedat_blob {
	const char *data;      /* never NULL: "" when absent */
	size_t len;
	/* Where the bytes are: their file offset, or when COMPRESSED the
	 * offset of the header of the section they were inflated from.  -1
	 * when absent. */
	int64_t offset;
	bool compressed;
} tracedat_blob;

/* One event format text (§3.2, §3.3). */
typedef struct tracedat_format_text {
	const char *system;    /* "ftrace" for the built-in ftrace events */
	tracedat_blob text;
} tracedat_format_text;

/* One option as stored (§6), for what the accessors below do not
 * interpret.  In a v6 file the DONE terminator is not listed. */
typedef struct tracedat_option {
	uint16_t id;
	uint32_t size;
	const uint8_t *data;   /* SIZE bytes, then a NUL */
	int64_t offset;        /* file offset of the payload, or of the
	                          OPTIONS section header when compressed */
} tracedat_option;

/* Where one CPU's data of a buffer is (§4.3, §5.5, §5.9). */
typedef struct tracedat_cpu_data {
	int cpu;               /* CPU id as stored (v7 ids can be sparse) */
	uint64_t offset;       /* absolute file offset of the pages or chunk list */
	/* The size as stored.  For compressed data trace-cmd 3.1.6 stores 4
	 * less than the chunk list occupies (§12.1); the cursor walks
	 * the chunk list and does not use it. */
	uint64_t size;
} tracedat_cpu_data;

/* One ring buffer: the top one (name "") or an ftrace instance. */
typedef struct tracedat_buffer {
	const char *name;      /* "" for the top buffer */
	const char *clock;     /* its trace clock, e.g. "local"; "" if unknown */
	uint32_t page_size;    /* bytes per ring-buffer page */
	uint32_t cpu_count;    /* CPUs of the machine for this buffer */
	bool compressed;       /* CPU data are chunk lists (v7 only) */
	/* CPUs with data, in file order: v6 lists every CPU (size 0 when
	 * empty), v7 only those with data (§12.3). */
	const tracedat_cpu_data *cpu_data;
	size_t cpu_data_count;
	int64_t offset;        /* v7: BUFFER section header; v6: "flyrecord" tag */
} tracedat_buffer;

/* TIME_SHIFT samples of one CPU (§10.5), sorted by time, duplicate
 * times dropped, as trace-cmd uses them. */
typedef struct tracedat_shift_cpu {
	size_t count;
	int64_t *times, *offsets, *scalings, *fractions;
} tracedat_shift_cpu;

typedef struct tracedat_meta {
	const char *path;
	uint64_t file_size;
	int version;                 /* 6 or 7 */
	bool big_endian;
	unsigned file_long_size;     /* header byte 13: the writer's sizeof(long) */
	unsigned kernel_long_size;   /* size of header_page's commit field (4 or 8) */
	uint32_t page_size;          /* from the initial header */
	const char *compression;     /* "none", "zstd" or "zlib" */
	const char *compression_version; /* "" when none */

	/* Page layout, from header_page (§3.1, §8.1). */
	uint32_t page_ts_offset;     /* u64 timestamp */
	uint32_t page_commit_offset; /* kernel long: length and flags */
	uint32_t page_data_offset;   /* first event */

	/* Metadata, raw (§3). */
	tracedat_blob header_page, header_event;
	const tracedat_format_text *ftrace_formats;
	size_t ftrace_format_count;
	const tracedat_format_text *event_formats;   /* every system but ftrace */
	size_t event_format_count;
	tracedat_blob kallsyms, printk_formats, cmdlines;

	/* Options, interpreted (§6).  Strings are "" when absent. */
	const tracedat_option *options;   /* every option, in file order */
	size_t option_count;
	const char *trace_clock_option;   /* TRACECLOCK text, e.g. "[local] global ...\n" */
	const char *trace_clock;          /* the selected clock ("local"), "" if unknown */
	uint32_t cpu_count;               /* CPUCOUNT, else the v6 header count */
	const char *uname;                /* "Linux vm 6.18.44 x86_64" */
	const char *tracer_version;       /* VERSION: "3.1.6 not-a-git-repo" */
	bool has_trace_id;
	uint64_t trace_id;
	bool has_tsc2nsec;
	uint32_t tsc2nsec_mult, tsc2nsec_shift;
	uint64_t tsc2nsec_offset;         /* written as 0, unused by trace-cmd */
	bool has_ts_offset;               /* OFFSET options were present */
	int64_t ts_offset_ns;             /* their sum */
	bool has_date;                    /* DATE options were present */
	int64_t date_offset_us;           /* their sum, in microseconds */
	bool has_time_shift;              /* TIME_SHIFT: a guest's file */
	uint64_t time_shift_peer_id;
	uint32_t time_shift_flags;        /* bit 0: interpolate */
	const tracedat_shift_cpu *time_shift_cpus;
	size_t time_shift_cpu_count;

	/* Buffers: the top one first when present, then instances. */
	const tracedat_buffer *buffers;
	size_t buffer_count;
} tracedat_meta;

/*
 * Opens PATH and reads everything but the CPU data: the initial header,
 * the metadata, the options and the buffer tables.  Returns 0, or
 * TC_ENOTFOUND (with an error recorded) when PATH does not start with the
 * trace.dat magic, TC_EUNSUPPORTED for latency (text) files, unknown
 * versions or compressions, TC_EFORMAT for damaged files, TC_EIO, TC_ENOMEM.
 */
int tracedat_open(tracedat_file **out, const char *path);
void tracedat_close(tracedat_file *f);

/*
 * Opens the SIZE bytes at OFFSET of PATH as perf's tracing data (a
 * perf.data file's HEADER_TRACING_DATA feature section): the same
 * metadata as a v6 file's (formats, kallsyms, printk formats, cmdlines),
 * no buffers.  Errors as tracedat_open()'s, at their byte in PATH.
 */
int tracedat_open_tracing_data(tracedat_file **out, const char *path, uint64_t offset, uint64_t size);

const tracedat_meta *tracedat_meta_of(const tracedat_file *f);

/* True if the first bytes of PATH are the trace.dat magic (0x17 0x08 0x44
 * "tracing"); no error is recorded either way. */
bool tracedat_has_magic(const char *path);

/* Reads an unsigned integer of SIZE bytes (1, 2, 4 or 8) in the file's
 * byte order. */
uint64_t tracedat_read_uint(const tracedat_file *f, const void *p, unsigned size);

/* ------------------------------------------------------------------------
 * Records
 */

typedef struct tracedat_record {
	/* Raw time in clock units: the page timestamp plus the deltas, time
	 * extends, absolute stamps and padding deltas before it (§8.4). */
	uint64_t ts;
	int cpu;
	/* The event: common_type onward, as libtraceevent's tep_record.data
	 * and .size expect.  SIZE is the length the ring buffer reserved
	 * (rounded up to 4, may hold slack bytes that are not zero).  Valid
	 * until the next call on the cursor. */
	const void *data;
	uint32_t size;
	/* Events were lost before this one (the page's missed-events flag,
	 * §8.2); COUNT is how many, 0 when the kernel did not say. */
	bool missed_events;
	uint64_t missed_count;
	/* Where the record is: its file offset for uncompressed data, the
	 * file offset of its chunk header for compressed data. */
	uint64_t offset;
} tracedat_record;

typedef struct tracedat_cursor tracedat_cursor;

/*
 * A cursor over the records of CPU of buffer BUFFER_INDEX, in file order
 * (which is time order within one CPU).  A CPU without data gives a
 * cursor that ends at once; a CPU the buffer cannot have is TC_EINVAL.
 * Memory stays bounded: pages are read a window at a time and compressed
 * data a chunk at a time.
 */
int tracedat_cursor_open(const tracedat_file *f, size_t buffer_index, int cpu, tracedat_cursor **out);
/* 1 and *REC filled, 0 at the end, < 0 on an error (recorded, with the
 * byte offset); after an error every call returns and records the same
 * error, on whatever thread. */
int tracedat_cursor_next(tracedat_cursor *c, tracedat_record *rec);
void tracedat_cursor_close(tracedat_cursor *c);
/* For a compressed CPU, fresh from tracedat_cursor_open(): the bytes its
 * chunks inflate to, as their headers say (trace-cmd's size of the CPU's
 * data, `report --stat`); 0 for uncompressed data.  Walks the chunk
 * headers only; the cursor is spent.  0, or < 0 (recorded). */
int tracedat_cursor_inflated_size(tracedat_cursor *c, uint64_t *size);
/* Has C add the file bytes it reads to *BYTES_READ (tc_input_bytes_read()):
 * each page as it starts decoding it, or each compressed chunk (and the
 * chunk count before them) as it inflates it; in all, the CPU's size as
 * stored (tracedat_cpu_data), once it has read to the end. */
void tracedat_cursor_count_into(tracedat_cursor *c, atomic_uint_least64_t *bytes_read);

/*
 * Records that outlive the next call: the bytes the cursor's last record
 * points into (its page and the rest of the window read with it) stay
 * where they are until every reference to them is dropped, whatever the
 * cursor reads next.  tracedat_cursor_keep() takes a reference (NULL when
 * out of memory); tracedat_cursor_kept() says whether the cursor still
 * reads the bytes of P, so that its next record needs no new reference;
 * tracedat_pages_drop() may run on any thread, while the cursor reads on.
 */
typedef struct tracedat_pages tracedat_pages;
tracedat_pages *tracedat_cursor_keep(tracedat_cursor *c);
bool tracedat_cursor_kept(const tracedat_cursor *c, const tracedat_pages *p);
void tracedat_pages_drop(tracedat_pages *p);

/*
 * An iterator that fills batches (tc_batch) with the records of cursor C,
 * which it borrows, for the prefetcher (tc_prefetch_new()): each batch's
 * records, tracedat_batch_records(B), B->count of them, stay valid, pages
 * and all, until the batch is released.  It has no `next`: batches only.
 */
int tracedat_batch_iter_new(tracedat_cursor *c, tc_stream_iter **out);
const tracedat_record *tracedat_batch_records(const tc_batch *b);

/* ------------------------------------------------------------------------
 * Time (§10)
 */

/*
 * A record's raw timestamp in nanoseconds, as trace-cmd converts it before
 * adding offsets: the guest-to-host correction of TIME_SHIFT for CPU, then
 * TSC2NSEC.  Unchanged when neither is present.
 */
uint64_t tracedat_ts_to_ns(const tracedat_file *f, int cpu, uint64_t ts);

/* The nanoseconds trace-cmd report shows for TS: tracedat_ts_to_ns() plus
 * the OFFSET options and 1000 x the DATE options, in unsigned 64-bit
 * arithmetic as trace-cmd does. */
uint64_t tracedat_report_ns(const tracedat_file *f, int cpu, uint64_t ts);

/* Whether trace-cmd report prints times of CLOCK as seconds (nanosecond
 * clocks) rather than raw counts; its quirks included (§10.6). */
bool tracedat_clock_is_ns(const tracedat_file *f, const char *clock);

/* ------------------------------------------------------------------------
 * Field lines of format texts (§3.1, §9)
 */

typedef struct tracedat_field {
	char *name;            /* the last identifier of the declaration */
	char *type;            /* what precedes it: "unsigned short", "const char *",
	                          "__data_loc char[]" */
	uint32_t offset, size; /* bytes */
	bool is_signed;
	bool is_array;         /* "[...]" follows the name */
	bool is_flexible;      /* "[]" follows the name: runs to the payload's end */
	uint32_t array_len;    /* the number inside "[...]", 0 if none or not a number */
	bool is_data_loc;      /* __data_loc: offset from the payload start */
	bool is_rel_loc;       /* __rel_loc: offset from the end of the field */
} tracedat_field;

typedef struct tracedat_format {
	char *name;            /* "sched_switch"; "" for header_page */
	bool has_id;
	uint32_t id;
	tracedat_field *fields;   /* common fields first */
	size_t field_count;
	size_t common_count;      /* fields of the first block */
} tracedat_format;

/*
 * Parses a format text (an event's or header_page's) into *OUT, strings
 * and arrays in POOL.  Errors name BLOB's place in the file (PATH).
 */
int tracedat_parse_format(tc_pool *pool, const char *path, const tracedat_blob *blob, tracedat_format *out);

#endif /* TC_TRACEDAT_H */
