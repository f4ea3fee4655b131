/* SPDX-License-Identifier: MIT */
/*
 * tc2_tp.h - LTTng-UST 2.15 tracepoint provider "tc2", used by record.sh to
 * record tracecat's LTTng CTF 2 fixtures (tests/fixtures/ctf2-lttng/).
 *
 * Every field macro lttng-ust 2.15 offers (the same set as 2.13; 2.15 only
 * adds a compile-time check that sequence length types are unsigned) and
 * the corners of babeltrace2 2.1.2's text output: integer sizes,
 * signedness, bases and byte orders; C types whose size or signedness is
 * implicit (bool, char, long); float special values; string escaping and
 * empty strings; enumerations (CTF 2: integers with "mappings") with
 * ranges, auto values, negative and full-range mappings, values matching
 * one, two or three labels, unmapped values and odd labels; static and
 * dynamic arrays (plain, hex, network, text) including zero-length ones;
 * every unsigned sequence length type; _nowrite and unused fields (which
 * must not appear); an empty payload; log levels and EMF URIs.
 *
 * lttng-ust cannot describe structures, variants, optionals or BLOBs in a
 * payload: the only compound types are arrays and sequences of integers.
 *
 * The tracepoint macros take at most 10 arguments, hence the pointers to
 * value arrays.  Network-order fields take their argument already in
 * big-endian byte order: the tracer copies the bytes, only the metadata
 * says "big-endian".
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tc2

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tc2_tp.h"

#if !defined(TC2_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TC2_TP_H

#include <lttng/tracepoint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Signed enum: plain values, a range, an auto value that continues after
 * the range's end (10), a negative value and a range overlapping another
 * one, so that 5 and 6 map to two labels.
 */
LTTNG_UST_TRACEPOINT_ENUM(tc2, state,
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
LTTNG_UST_TRACEPOINT_ENUM(tc2, size_class,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("ZERO", 0)
		lttng_ust_field_enum_range("SMALL", 1, 255)
		lttng_ust_field_enum_auto("AUTO_256")
		lttng_ust_field_enum_value("MAX", UINT64_MAX)
	)
)

/* 3 matches labels A, B and C; 2, 4 and 5 two labels each. */
LTTNG_UST_TRACEPOINT_ENUM(tc2, flags8,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_range("A", 0, 3)
		lttng_ust_field_enum_range("B", 2, 5)
		lttng_ust_field_enum_value("C", 3)
		lttng_ust_field_enum_range("D", 4, 4)
		lttng_ust_field_enum_range("HIGH", 200, 255)
	)
)

/* Signed 8-bit container, the whole range covered. */
LTTNG_UST_TRACEPOINT_ENUM(tc2, sign8,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("MIN", -128)
		lttng_ust_field_enum_range("NEG", -127, -1)
		lttng_ust_field_enum_value("ZERO", 0)
		lttng_ust_field_enum_range("POS", 1, 127)
	)
)

/* Full signed 64-bit range, overlapping every other label. */
LTTNG_UST_TRACEPOINT_ENUM(tc2, wide,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("MIN", INT64_MIN)
		lttng_ust_field_enum_range("ALL", INT64_MIN, INT64_MAX)
		lttng_ust_field_enum_value("MAX", INT64_MAX)
	)
)

/*
 * Labels that TSDL had to quote or that CTF 1.8 readers rewrote: an auto
 * value first (0), a leading underscore, spaces, quotes, a backslash,
 * UTF-8.
 */
LTTNG_UST_TRACEPOINT_ENUM(tc2, odd_labels,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_auto("FIRST_AUTO")
		lttng_ust_field_enum_value("_leading_underscore", 1)
		lttng_ust_field_enum_value("with space", 2)
		lttng_ust_field_enum_value("quote\" back\\slash", 3)
		lttng_ust_field_enum_value("caf\xc3\xa9", 4)
		lttng_ust_field_enum_range("big range", 1000, 65535)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc2, ints,
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

/*
 * C types with implicit size or signedness (char is signed on x86-64,
 * bool is an unsigned byte), an 8-bit field right after a 64-bit one and
 * before a 16-bit one (alignment padding), and fields that are not
 * recorded: _nowrite ones (filter-only) and unused ones.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc2, ctypes,
	LTTNG_UST_TP_ARGS(int, k),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(bool, b, k % 2 == 0)
		lttng_ust_field_integer(char, c, (char) (k % 2 ? -100 : 'A'))
		lttng_ust_field_integer(unsigned char, uc, (unsigned char) (250 + k))
		lttng_ust_field_integer(short, sh, (short) (-300 * (k + 1)))
		lttng_ust_field_integer(long, l, (long) k * -100000000000L)
		lttng_ust_field_integer(unsigned long long, ull, 1ULL << (63 - k % 64))
		lttng_ust_field_integer(uint8_t, after64, (uint8_t) k)
		lttng_ust_field_integer_hex(uint16_t, then16, (uint16_t) (0xab00 + k))
		lttng_ust_field_integer_nowrite(int, not_recorded, k)
		lttng_ust_field_string_nowrite(not_recorded_str, "never")
		lttng_ust_field_unused(k)
		lttng_ust_field_integer(size_t, sz, (size_t) k)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc2, floats,
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
LTTNG_UST_TRACEPOINT_EVENT(tc2, strings,
	LTTNG_UST_TP_ARGS(const char *, a, const char *, b, const char *, maybe_null),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(str_a, a)
		lttng_ust_field_string(str_b, b)
		lttng_ust_field_string(str_maybe_null, maybe_null)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc2, enums,
	LTTNG_UST_TP_ARGS(int, st, uint64_t, sz, uint8_t, fl, int8_t, s8,
		int64_t, w, unsigned int, odd),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_enum(tc2, state, int, state, st)
		/* the same enumeration with a narrower container */
		lttng_ust_field_enum(tc2, state, int8_t, state8, (int8_t) st)
		lttng_ust_field_enum(tc2, size_class, uint64_t, size, sz)
		lttng_ust_field_enum(tc2, flags8, uint8_t, flags, fl)
		lttng_ust_field_enum(tc2, sign8, int8_t, sign, s8)
		lttng_ust_field_enum(tc2, wide, int64_t, wide, w)
		lttng_ust_field_enum(tc2, odd_labels, uint16_t, odd, (uint16_t) odd)
		/* the raw value next to an enum makes the output easy to check */
		lttng_ust_field_integer(int, state_raw, st)
	)
)

/*
 * Text arrays copy exactly their length in bytes: the caller passes
 * buffers of that size, which may hold embedded NULs.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc2, arrays,
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
		/* zero-length arrays are legal and take no room */
		lttng_ust_field_array(int64_t, arr_none, s64, 0)
		lttng_ust_field_array_text(char, arr_text_none, text, 0)
		lttng_ust_field_array(uint8_t, arr_u8_after, u8, 1)
	)
)

/*
 * Each sequence gets its own length field, which readers show as an
 * ordinary "_<name>_length" field; every unsigned length type is used.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc2, seqs,
	LTTNG_UST_TP_ARGS(const int16_t *, s16, const uint32_t *, u32,
		const uint64_t *, u64, const uint16_t *, be16, size_t, len,
		const char *, text, size_t, text_len),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(int16_t, seq_s16, s16, size_t, len)
		lttng_ust_field_sequence_hex(uint32_t, seq_u32_hex, u32, unsigned int, len)
		lttng_ust_field_sequence(uint64_t, seq_u64, u64, uint8_t, len)
		lttng_ust_field_sequence(uint8_t, seq_u8, (const uint8_t *) u32, uint64_t, len)
		lttng_ust_field_sequence_network(uint16_t, seq_net_u16, be16, uint16_t, len)
		lttng_ust_field_sequence_network_hex(uint16_t, seq_net_u16_hex, be16, uint32_t, len)
		lttng_ust_field_sequence_text(char, seq_text, text, size_t, text_len)
		lttng_ust_field_sequence_text(char, seq_text_u8len, text, uint8_t, text_len)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(tc2, empty,
	LTTNG_UST_TP_ARGS(),
	LTTNG_UST_TP_FIELDS()
)

/* Log-level and EMF URI carriers for `-f loglevel,emf` (mode "log"). */
LTTNG_UST_TRACEPOINT_EVENT(tc2, log_both,
	LTTNG_UST_TP_ARGS(int, n),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, n, n))
)
LTTNG_UST_TRACEPOINT_EVENT(tc2, log_emf_only,
	LTTNG_UST_TP_ARGS(int, n),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, n, n))
)
LTTNG_UST_TRACEPOINT_EVENT(tc2, log_debug_line,
	LTTNG_UST_TP_ARGS(int, n),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, n, n))
)
LTTNG_UST_TRACEPOINT_EVENT(tc2, log_none,
	LTTNG_UST_TP_ARGS(int, n),
	LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(int, n, n))
)

/*
 * Mode "lost": tc2:burst goes to a small discard-mode channel and
 * tc2:ring to a small overwrite-mode one, both faster than the consumer.
 */
LTTNG_UST_TRACEPOINT_EVENT(tc2, burst,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int, worker),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int, worker, worker)
		lttng_ust_field_string(pad, "0123456789abcdef0123456789abcdef")
	)
)
LTTNG_UST_TRACEPOINT_EVENT(tc2, ring,
	LTTNG_UST_TP_ARGS(uint64_t, seq, int, worker),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(int, worker, worker)
		lttng_ust_field_string(pad, "0123456789abcdef0123456789abcdef")
	)
)

/* Non-default log levels and EMF URIs show up with `-f all`/`-f loglevel,emf`. */
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc2, ints, LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO)
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc2, strings, LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING)
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc2, empty, LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(tc2, floats, "http://example.com/tracecat/floats")
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc2, log_both, LTTNG_UST_TRACEPOINT_LOGLEVEL_CRIT)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(tc2, log_both, "urn:tracecat:log_both \"quoted\"")
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(tc2, log_emf_only, "http://example.com/emf?only=1&x=caf\xc3\xa9")
LTTNG_UST_TRACEPOINT_LOGLEVEL(tc2, log_debug_line, LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE)

#endif /* TC2_TP_H */

#include <lttng/tracepoint-event.h>
