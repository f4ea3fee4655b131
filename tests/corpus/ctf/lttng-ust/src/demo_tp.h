/* SPDX-License-Identifier: MIT */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER demo

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./demo_tp.h"

#if !defined(_DEMO_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define _DEMO_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>
#include <arpa/inet.h>

LTTNG_UST_TRACEPOINT_ENUM(demo, color_enum,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_value("RED", 0)
		lttng_ust_field_enum_value("GREEN", 1)
		lttng_ust_field_enum_range("BLUEISH", 10, 19)
		lttng_ust_field_enum_auto("AUTO_AFTER_RANGE")
		lttng_ust_field_enum_value("NEG", -5)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(demo, all_types,
	LTTNG_UST_TP_ARGS(int, i, const char *, s, double, d, float, f,
		const uint16_t *, seq, size_t, seq_len, int, color, uint64_t, big),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, int_dec, i)
		lttng_ust_field_integer(int8_t, int8_neg, -i)
		lttng_ust_field_integer_hex(int, int_hex, i * 4096 + 10)
		lttng_ust_field_integer_hex(int16_t, int16_hex_neg, -i)
		lttng_ust_field_integer(uint64_t, u64, big)
		lttng_ust_field_integer_network(uint32_t, net32, htonl(0x12345678 + i))
		lttng_ust_field_integer_network_hex(uint16_t, net16_hex, htons(0xABCD))
		lttng_ust_field_string(str, s)
		lttng_ust_field_float(double, dbl, d)
		lttng_ust_field_float(float, flt, f)
		lttng_ust_field_enum(demo, color_enum, int, color, color)
		lttng_ust_field_sequence(uint16_t, seq16, seq, size_t, seq_len)
		lttng_ust_field_sequence_hex(uint16_t, seq16_hex, seq, size_t, seq_len)
		lttng_ust_field_array(uint16_t, arr3, seq, 3)
		lttng_ust_field_array_text(char, text_arr, s, 8)
		lttng_ust_field_sequence_text(char, text_seq, s, size_t, seq_len)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(demo, empty_event,
	LTTNG_UST_TP_ARGS(),
	LTTNG_UST_TP_FIELDS()
)

#endif /* _DEMO_TP_H */

#include <lttng/tracepoint-event.h>
