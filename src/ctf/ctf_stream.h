/* SPDX-License-Identifier: MIT */
/*
 * ctf_stream.h - the state of one CTF stream being read (stream.c), shared
 * with trace discovery (ctf.c), which peeks at each file's first packet to
 * group files into streams before any iteration starts.
 */
#ifndef TC_CTF_STREAM_H
#define TC_CTF_STREAM_H

#include "ctf/ctf.h"

typedef struct ctf_file {
	char *path;
	const char *rel_dir;      /* its folder relative to the path opened */
	uint64_t class_id;
	bool has_instance_id;
	uint64_t instance_id;
	bool has_ts_begin;
	uint64_t ts_begin;
	int cpu;
} ctf_file;

typedef struct ctf_stream {
	tc_stream pub;
} ctf_stream;

typedef struct ctf_packet {
	uint64_t offset;          /* in the file, bytes */
	uint64_t packet_bits, content_bits;
	bool has_ts_begin, has_ts_end, has_discarded, has_seq, has_instance_id;
	uint64_t ts_begin, ts_end, discarded, seq, instance_id;
	int cpu;
	tc_field *context;        /* visible packet context, or NULL */
} ctf_packet;

/* A stream file mapped whole.  Events point into it, so it stays mapped
 * while the iterator reads it or a batch of its events is in use. */
typedef struct ctf_mapping ctf_mapping;

typedef struct ctf_stream_iter {
	tc_stream_iter base;
	ctf_trace *trace;
	ctf_stream_class *sc;
	ctf_stream *stream;
	ctf_file *files;          /* in reading order */
	size_t file_count, cur_file;
	bool file_open;
	ctf_mapping *mapping;
	const uint8_t *map;       /* the mapping's bytes */
	uint64_t map_size, offset, dontneed_mark;
	bool in_packet;
	ctf_packet pkt;
	ctf_decoder dec;
	ctf_arena packet_arena;   /* discovery's packet peeks */
	uint64_t clock_value;
	uint64_t last_event_cycles;
	/* Events' times: at 1 GHz, cycles are nanoseconds after the clock's
	 * cycle 0, whose time is worked out once. */
	bool clock_is_1ghz;
	tc_time clock_origin;
	/* the previous packet, for discarded-item reports */
	bool have_prev;
	uint64_t prev_end, prev_discarded, prev_seq;
	tc_message pending[2];
	int pending_count, pending_next;
	/* tc_input_want_values: per event class of the stream's class, in
	 * its order, whether its values are built; NULL: all are. */
	const bool *values_wanted;
	tc_stream_failure failure;
} ctf_stream_iter;

extern const tc_stream_iter_ops ctf_stream_ops;

/* Reads F's first packet header and context into F's fields (stream class,
 * instance id, beginning time).  S supplies the trace and scratch state. */
int ctf_peek_first_packet(ctf_stream_iter *s, ctf_file *f);

/* babeltrace2 2.1.2 reads the header and context of every packet of a CTF
 * 2 trace before it shows any event, so a packet of an unknown class or
 * with sizes that do not fit stops it with nothing shown: the same check,
 * leaving S ready to iterate. */
int ctf_check_packets(ctf_stream_iter *s);

#endif /* TC_CTF_STREAM_H */
