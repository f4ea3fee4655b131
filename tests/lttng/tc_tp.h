/* SPDX-License-Identifier: MIT */
/*
 * tc_tp.h - LTTng-UST tracepoint provider "tc" used to record tracecat's
 * CTF test fixtures and benchmark traces (see record.sh).
 *
 * The events are chosen so that one short recording exercises every field
 * class LTTng-UST can emit and every corner of babeltrace2's text output we
 * must reproduce: integer sizes/signedness/bases/byte orders, float
 * special values, string escaping, enum label lookup (ranges, overlaps,
 * unmapped values), arrays and sequences (plain, hex, text, network), an
 * empty payload, log levels and an EMF URI.  tc:bench is deliberately lean
 * so that benchmark traces measure decoding speed, not payload size.
 *
 * Written against the LTTng-UST 2.13 API (lttng_ust_field_*); the older
 * ctf_* names map 1:1 onto these.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tc

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tc_tp.h"

#if !defined(TC_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TC_TP_H

#include <lttng/tracepoint.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Signed enum: plain values, a range, an auto value that must continue
 * after the range's end (10), a negative value and a range overlapping
 * another one so that a value maps to two labels.
 */
LTTNG_UST_TRACEPOINT_ENUM(tc, state,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("IDLE", 0)
		lttng_ust_field_enum_value("RUNNING", 1)
		lttng_ust_field_enum_range("RESERVED", 2, 9)
		lttng_ust_field_enum_auto("AFTER_RANGE")
		lttng_ust_field_enum_value("NEGATIVE", -3)
		lttng_ust_field_enum_range("OVERLAP", 5, 6)
	)
)

/* Unsigned 64-bit enum, to reach values that do not fit in int64. */
LTTNG_UST_TRACEPOINT_ENUM(tc, size_class,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("ZERO", 0)
		lttng_ust_field_enum_range("SMALL", 1, 255)
		lttng_ust_field_enum_auto("AUTO_256")
		lttng_ust_field_enum_value("MAX", UINT64_MAX)
	)
)

/*
 * The tracepoint macros take at most 10 arguments, hence the value
 * arrays: s[] and u[] hold the 8/16/32/64-bit signed and unsigned values.
 * Network-order fields take their argument already in big-endian byte
 * order: the tracer copies the bytes and only the metadata says "be".
 */
LTTNG_UST_TRACEPOINT_EVENT(tc, ints,
	LTTNG_UST_TP_ARGS(const int64_t *, s, const uint64_t *, u,
		uint16_t, be16, uint32_t, be32, uint64_t, be64),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int8_t, s8, s[0])
		lttng_ust_field_integer(int16_t, s16, s[1])
		lttng_ust_field_integer(int32_t, s32, s[2])
		lttng_ust_field_integer(int64_t, s64, s[3])
		lttng_ust_field_integer(uint8_t, u8, u[0])
		lttng_ust_field_integer(uint16_t, u16, u[1])
		lttng_ust_field_integer(uint32_t, u32, u[2])
		lttng_ust_field_integer(uint64_t, u64, u[3])
		lttng_ust_field_integer_hex(int8_t, s8_hex, s[0])
		lttng_ust_field_integer_hex(int16_t, s16_hex, s[1])
		lttng_ust_field_integer_hex(int32_t, s32_hex, s[2])
		lttng_ust_field_integer_hex(int64_t, s64_hex, s[3])
		lttng_ust_field_integer_hex(uint8_t, u8_hex, u[0])
		lttng_ust_field_integer_hex(uint16_t, u16_hex, u[1])
		lttng_ust_field_integer_hex(uint32_t, u32_hex, u[2])
		lttng_ust_field_integer_hex(uint64_t, u64_hex, u[3])
		lttng_ust_field_integer_network(uint16_t, net_u16, be16)
		lttng_ust_field_integer_network(int32_t, net_s32, (int32_t) be32)
		lttng_ust_field_integer_network(uint64_t, net_u64, be64)
		lttng_ust_field_integer_network_hex(uint16_t, net_u16_hex, be16)
		lttng_ust_field_integer_network_hex(uint32_t, net_u32_hex, be32)
		lttng_ust_field_integer_network_hex(int64_t, net_s64_hex, (int64_t) be64)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc, floats,
	LTTNG_UST_TP_ARGS(const float *, f, const double *, d),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_float(float, f0, f[0])
		lttng_ust_field_float(float, f1, f[1])
		lttng_ust_field_float(float, f2, f[2])
		lttng_ust_field_float(float, f3, f[3])
		lttng_ust_field_float(double, d0, d[0])
		lttng_ust_field_float(double, d1, d[1])
		lttng_ust_field_float(double, d2, d[2])
		lttng_ust_field_float(double, d3, d[3])
		lttng_ust_field_float(double, d4, d[4])
	)
)

/* A NULL string argument is recorded by the tracer as "(null)". */
LTTNG_UST_TRACEPOINT_EVENT(tc, strings,
	LTTNG_UST_TP_ARGS(const char *, a, const char *, b, const char *, maybe_null),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(str_a, a)
		lttng_ust_field_string(str_b, b)
		lttng_ust_field_string(str_maybe_null, maybe_null)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc, enums,
	LTTNG_UST_TP_ARGS(int, st0, int, st1, uint64_t, sz0, uint64_t, sz1),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(tc, state, int, state0, st0)
		lttng_ust_field_enum(tc, state, int, state1, st1)
		lttng_ust_field_enum(tc, size_class, uint64_t, size0, sz0)
		lttng_ust_field_enum(tc, size_class, uint64_t, size1, sz1)
		/* the raw value next to its enum makes the output easy to check */
		lttng_ust_field_integer(int, state0_raw, st0)
	)
)

/*
 * Text arrays copy exactly their length in bytes: the caller passes
 * buffers of that size, which may hold embedded NULs.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc, arrays,
	LTTNG_UST_TP_ARGS(const int32_t *, s32, const uint8_t *, u8,
		const uint16_t *, u16, const int64_t *, s64,
		const uint32_t *, be32, const char *, text),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array(int32_t, arr_s32, s32, 4)
		lttng_ust_field_array(uint8_t, arr_u8, u8, 3)
		lttng_ust_field_array_hex(uint16_t, arr_u16_hex, u16, 3)
		lttng_ust_field_array_hex(int64_t, arr_s64_hex, s64, 2)
		lttng_ust_field_array_network(uint32_t, arr_net_u32, be32, 2)
		lttng_ust_field_array_network_hex(uint32_t, arr_net_u32_hex, be32, 2)
		lttng_ust_field_array_text(char, arr_text, text, 8)
	)
)

/*
 * Each sequence gets a length field of the given type, which readers show
 * as an ordinary "_<name>_length" field; the length types differ on
 * purpose.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc, seqs,
	LTTNG_UST_TP_ARGS(const int16_t *, s16, const uint32_t *, u32,
		const uint64_t *, u64, const uint16_t *, be16, size_t, len,
		const char *, text, size_t, text_len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(int16_t, seq_s16, s16, size_t, len)
		lttng_ust_field_sequence_hex(uint32_t, seq_u32_hex, u32, unsigned int, len)
		lttng_ust_field_sequence(uint64_t, seq_u64, u64, uint8_t, len)
		lttng_ust_field_sequence_network(uint16_t, seq_net_u16, be16, uint16_t, len)
		lttng_ust_field_sequence_network_hex(uint16_t, seq_net_u16_hex, be16, size_t, len)
		lttng_ust_field_sequence_text(char, seq_text, text, size_t, text_len)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc, empty,
	LTTNG_UST_TP_ARGS(),
	LTTNG_UST_TP_FIELDS()
)

/* Benchmark event: a few integers and a short string, nothing else. */
LTTNG_UST_TRACEPOINT_EVENT(tc, bench,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int32_t, worker, uint32_t, flags, const char *, tag),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int32_t, worker, worker)
		lttng_ust_field_integer_hex(uint32_t, flags, flags)
		lttng_ust_field_string(tag, tag)
	)
)

/*
 * tc:bench with a double and a float (bench/ctf-float.sh): how much the
 * two floating-point fields add to printing; tc:bench is its twin
 * without them.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc, bench_float,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int32_t, worker, uint32_t, flags, const char *, tag,
		double, ratio, float, level),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int32_t, worker, worker)
		lttng_ust_field_integer_hex(uint32_t, flags, flags)
		lttng_ust_field_string(tag, tag)
		lttng_ust_field_float(double, ratio, ratio)
		lttng_ust_field_float(float, level, level)
	)
)

/*
 * The payload mixes of bench/ctf-mixes.sh (tc_app's mix-* modes): each
 * mode records one or two of these classes, so that the bench measures
 * layouts other than tc:bench's.  No fixture or live test enables them.
 */

/* mix-ints: integers only, of every size and both signs, one in hex. */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_ints,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int32_t, worker),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int32_t, worker, worker)
		lttng_ust_field_integer(uint8_t, u8, (uint8_t) seq)
		lttng_ust_field_integer(int16_t, s16, (int16_t) -(int16_t) seq)
		lttng_ust_field_integer(uint32_t, u32, (uint32_t) (seq * 2654435761u))
		lttng_ust_field_integer(int64_t, s64, (int64_t) seq * -1000003)
		lttng_ust_field_integer_hex(uint64_t, u64_hex, seq << 20)
	)
)

/*
 * mix-kernel: shaped like the kernel's sched_switch (two 16-byte text
 * arrays and five integers) and sched_process_exec (an integer and a
 * string), the payloads LTTng kernel traces are made of.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_switch,
	LTTNG_UST_TP_ARGS(const char *, prev_comm, int32_t, prev_tid, int32_t, prev_prio,
		int64_t, prev_state, const char *, next_comm, int32_t, next_tid, int32_t, next_prio),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_array_text(char, prev_comm, prev_comm, 16)
		lttng_ust_field_integer(int32_t, prev_tid, prev_tid)
		lttng_ust_field_integer(int32_t, prev_prio, prev_prio)
		lttng_ust_field_integer(int64_t, prev_state, prev_state)
		lttng_ust_field_array_text(char, next_comm, next_comm, 16)
		lttng_ust_field_integer(int32_t, next_tid, next_tid)
		lttng_ust_field_integer(int32_t, next_prio, next_prio)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc, mix_exec,
	LTTNG_UST_TP_ARGS(int32_t, pid, const char *, filename),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int32_t, pid, pid)
		lttng_ust_field_string(filename, filename)
	)
)

/* mix-floats: floats and doubles, values of every magnitude. */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_floats,
	LTTNG_UST_TP_ARGS(float, f0, float, f1, double, d0, double, d1),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_float(float, f0, f0)
		lttng_ust_field_float(float, f1, f1)
		lttng_ust_field_float(double, d0, d0)
		lttng_ust_field_float(double, d1, d1)
	)
)

/* mix-seqs: sequences of numbers and of text, 0 to 8 and 0 to 16 long... */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_seq,
	LTTNG_UST_TP_ARGS(const int32_t *, vals, size_t, len, const char *, text, size_t, text_len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(int32_t, vals, vals, uint8_t, len)
		lttng_ust_field_sequence_text(char, text, text, uint16_t, text_len)
	)
)

/* ...and, in turn with them, enumerations (a value, a range, unmapped). */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_enum,
	LTTNG_UST_TP_ARGS(int, st, uint64_t, sz, uint32_t, id),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(tc, state, int, state, st)
		lttng_ust_field_enum(tc, size_class, uint64_t, size, sz)
		lttng_ust_field_integer(uint32_t, id, id)
	)
)

/* mix-tiny: the smallest event, one byte of payload. */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_tiny,
	LTTNG_UST_TP_ARGS(uint8_t, v),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint8_t, v, v)
	)
)

/* mix-large: a byte sequence of 1 to 4 KiB. */
LTTNG_UST_TRACEPOINT_EVENT(tc, mix_blob,
	LTTNG_UST_TP_ARGS(uint32_t, id, const uint8_t *, data, size_t, len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, id, id)
		lttng_ust_field_sequence(uint8_t, data, data, uint16_t, len)
	)
)

/* Non-default log levels and an EMF URI show up with `-f all`/`-f loglevel`. */
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc, ints, LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO)
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc, strings, LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING)
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc, empty, LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG)
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc, bench, LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc, bench_float, LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(tc, floats, "http://example.com/tracecat/floats")

#endif /* TC_TP_H */

#include <lttng/tracepoint-event.h>
