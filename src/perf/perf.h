/* SPDX-License-Identifier: MIT */
/*
 * perf.h - private structures of the perf.data reader (file and pipe
 * modes, as files), after Linux's
 * tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h; doc/formats/perf.md says how tracecat
 * reads them, section by section.
 *
 *   header.c   the file header, the attributes and their ids, and the
 *              feature sections tracecat reads (hostname, osrelease,
 *              version, arch, nrcpus, cpudesc, cmdline, event_desc, and
 *              where the tracing data are)
 *   records.c  record headers, SAMPLE records and the sample_id trailer
 *              of the others, each length checked against its record
 *   order.c    records in time order (rounds, as perf sorts them)
 *   stream.c   one stream's records as messages of the event model
 *   model.c    the file as tracecat's event model (tc_format_perf)
 *
 * The whole file is mapped read-only; records and the values decoded from
 * them point into the mapping, which lives as long as the trace.  Every
 * offset, size and count read from the file is checked against the file's
 * size (or the record's) before it is used; errors carry the byte offset
 * where the damage is (tc_error); nothing here prints.
 *
 * The event model (model.c; doc/formats/perf.md §7):
 *   - one tc_trace per file, named after its base name, format
 *     TC_INPUT_PERF, domain kernel; environment: hostname, sysname,
 *     kernel_release, machine, tracer_name "perf", tracer_version,
 *     perf_cmdline, nr_cpus_online, nr_cpus_available, cpu_desc;
 *   - one clock, "perf", at 1 GHz (perf's sample times are nanoseconds of
 *     perf_clock, or of the clock -k chose), origin unknown;
 *   - one stream class with packet context { cpu_id }; one stream per CPU
 *     that records name (id = CPU), and one with id 2^32 and CPU -1 for
 *     records that name none (a recording without -a samples no CPU);
 *   - an event class per attribute (id = its index): a tracepoint's is
 *     named as its ftrace format ("sched_switch") with the format's fields
 *     as payload, as trace.dat's events are; the others are named as
 *     perf's event_desc names them ("cpu-clock").  Their context holds the
 *     tracepoint's common_* fields, then what the sample_type records of
 *     ip, pid, tid, addr and period; the call chain (CALLCHAIN) ends the
 *     payload, after the format's fields: a sequence of addresses,
 *     perf's context markers (PERF_CONTEXT_KERNEL, _USER) included, after
 *     its length __callchain_length.  (In the payload, not the context:
 *     babeltrace2 2.0.4 fails an assertion on a sequence in an event's
 *     own context.)
 *   - event classes perf_comm, perf_fork, perf_exit, perf_mmap and
 *     perf_mmap2 for the task records; a LOST record is a
 *     discarded-events message;
 *   - the trace's tasks: one per COMM record, in file order.
 */
#ifndef TC_PERF_H
#define TC_PERF_H

#include "core/core.h"
#include "tracedat/model.h"

/* Record types (perf_event.h's and perf's own, tools/perf/util/event.h). */
enum {
	PERF_REC_MMAP = 1,
	PERF_REC_LOST = 2,
	PERF_REC_COMM = 3,
	PERF_REC_EXIT = 4,
	PERF_REC_FORK = 7,
	PERF_REC_SAMPLE = 9,
	PERF_REC_MMAP2 = 10,
	PERF_REC_USER_FIRST = 64,   /* perf's own records: no sample_id */
	PERF_REC_HEADER_ATTR = 64,
	PERF_REC_HEADER_TRACING_DATA = 66,
	PERF_REC_FINISHED_ROUND = 68,
	PERF_REC_AUXTRACE = 71,
	PERF_REC_HEADER_FEATURE = 80,
	PERF_REC_COMPRESSED = 81
};

/* sample_type bits (perf_event.h, enum perf_event_sample_format). */
enum {
	PERF_S_IP = 1u << 0,
	PERF_S_TID = 1u << 1,
	PERF_S_TIME = 1u << 2,
	PERF_S_ADDR = 1u << 3,
	PERF_S_READ = 1u << 4,
	PERF_S_CALLCHAIN = 1u << 5,
	PERF_S_ID = 1u << 6,
	PERF_S_CPU = 1u << 7,
	PERF_S_PERIOD = 1u << 8,
	PERF_S_STREAM_ID = 1u << 9,
	PERF_S_RAW = 1u << 10,
	PERF_S_IDENTIFIER = 1u << 16
};

#define PERF_TYPE_TRACEPOINT 2
#define PERF_NO_CPU ((uint64_t)1 << 32)   /* the stream of records without a CPU */

typedef struct perf_attr {
	uint32_t type;
	uint64_t config, sample_type, read_format;
	bool sample_id_all;
	bool use_clockid;
	int32_t clockid;
	const char *name;           /* event_desc's name, or "TYPE:CONFIG" */
	uint32_t id_trailer;        /* bytes of the sample_id trailer */
	/* the model's (model.c) */
	const td_event_plan *plan;  /* a tracepoint's format, NULL if none */
	tc_event_class *ec;
	size_t field_count;         /* members of ec->context */
	size_t format_count;        /* members of ec->payload from the format */
} perf_attr;

typedef struct perf_id {
	uint64_t id;
	uint32_t attr;
} perf_id;

typedef struct perf_file {
	const char *path;
	const uint8_t *map;
	uint64_t size;
	bool swap;                  /* the writer's byte order is not ours */
	bool pipe;                  /* pipe mode: a 16-byte header, then records */
	bool big_endian;
	uint64_t data_offset, data_end;
	perf_attr *attrs;
	size_t attr_count;
	perf_id *ids;               /* sorted by id */
	size_t id_count;
	uint64_t features[4];
	/* feature sections; strings "" when absent */
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cmdline;
	bool has_nrcpus;
	uint32_t nr_cpus_available, nr_cpus_online;
	bool has_tracing_data;
	uint64_t tracing_offset, tracing_size;
	tc_pool pool;               /* owns every string and array above */
} perf_file;

/* Maps PATH and reads its header, attributes, ids and features: 0,
 * TC_ENOTFOUND when it does not start with perf.data's magic, or an
 * error. */
int perf_open(perf_file *f, const char *path);
void perf_close(perf_file *f);
/* The u16/u32/u64 at P, in the file's byte order. */
uint64_t perf_u64(const perf_file *f, const uint8_t *p);
uint32_t perf_u32(const perf_file *f, const uint8_t *p);
uint16_t perf_u16(const perf_file *f, const uint8_t *p);

/* One record: its type, misc and SIZE bytes at OFFSET of the file (header
 * included), and where the next one starts. */
typedef struct perf_record {
	uint32_t type;
	uint16_t misc;
	uint64_t offset, size, next;
	const uint8_t *p;
} perf_record;

/* The record at OFF of the data section: 1, 0 at its end, or an error
 * when its size leaves it or is too small. */
int perf_record_at(const perf_file *f, uint64_t off, perf_record *r);

/* What a SAMPLE record, or the sample_id trailer of another, says. */
typedef struct perf_sample {
	const perf_attr *attr;      /* NULL: no attribute (perf's own records) */
	bool has_time, has_cpu;
	uint64_t ip, time, addr, period;
	uint32_t pid, tid, cpu;
	const uint8_t *callchain;   /* nr addresses */
	uint64_t callchain_nr;
	const uint8_t *raw;
	uint32_t raw_size;
	int64_t raw_offset;
} perf_sample;

/* Decodes R's sample (SAMPLE) or sample_id trailer (the kernel's other
 * records) into *S: 0, or TC_EFORMAT at the byte that is wrong. */
int perf_parse_sample(const perf_file *f, const perf_record *r, perf_sample *s);

/* Whether the streams hand out records of TYPE (samples, task records,
 * LOST); the others are skipped. */
bool perf_record_is_event(uint32_t type);

/* The stream key of a record's sample: its CPU, or PERF_NO_CPU. */
static inline uint64_t perf_stream_key(const perf_sample *s)
{
	return s->has_cpu ? s->cpu : PERF_NO_CPU;
}

/* ---- records in time order (order.c) ---- */

#define PERF_ANY_KEY UINT64_MAX   /* every stream's records */

typedef struct perf_pending {
	uint64_t time, offset;
} perf_pending;

typedef struct perf_order {
	const perf_file *f;
	uint64_t key;
	uint64_t pos;                /* the next record to look at */
	perf_pending *queue;         /* [next, ready): sorted, final */
	size_t count, cap, ready, next;
	uint64_t round_limit, max_time;
	bool at_end;
} perf_order;

/* The records of F whose stream key (perf_stream_key()) is KEY, or all of
 * perf_record_is_event()'s for PERF_ANY_KEY, one by one in time order:
 * perf_order_next() gives the offset of the next: 1, 0 at the end, or an
 * error. */
void perf_order_init(perf_order *o, const perf_file *f, uint64_t key);
int perf_order_next(perf_order *o, uint64_t *offset);
void perf_order_free(perf_order *o);

/* ---- the model ---- */

typedef struct perf_trace {
	tc_trace pub;
	tc_pool pool;
	perf_file file;
	td_trace td;                /* the tracing data's formats and plans
	                               (td.file NULL: the file has none) */
	tc_time origin;
	tc_field_class *packet_context;
	/* the task records' classes, in the order of their record types */
	tc_event_class *comm, *fork, *exit, *mmap, *mmap2;
} perf_trace;

/* Adds to IN the iterator of STREAM, whose records have the key KEY. */
int perf_stream_iter_add(tc_input *in, perf_trace *t, tc_stream *stream, uint64_t key);

#endif /* TC_PERF_H */
