/* SPDX-License-Identifier: MIT */
/*
 * ahead.h - real numbers' text, formatted on the decoding threads for the
 * text printer (ahead.c writes it, pretty.c copies it).
 */
#ifndef TC_TEXT_AHEAD_H
#define TC_TEXT_AHEAD_H

#include <stdint.h>

#include "tracecat.h"
#include "core/core.h"

/* One real field's "%g" text (at most 13 bytes: "-1.23457e-308"), in a
 * run of them a message's `prepared` points to, in the order the printer
 * meets the fields; the run ends with a record whose field is NULL. */
typedef struct tc_ahead_real {
	const tc_field *field;
	char text[16];
	uint8_t len;
} tc_ahead_real;

/* What a muxer's workers run for a text printer (tc_muxer_set_prepare). */
extern const tc_prepare tc_ahead_prepare;

#endif /* TC_TEXT_AHEAD_H */
