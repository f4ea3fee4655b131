/*
 * formats.h - the table of format readers tc_input_open() tries in turn.
 * A reader's open() returns TC_ENOTFOUND when the path is not its format,
 * so the next one gets a chance; any other error is final.
 */
#ifndef TC_FORMATS_H
#define TC_FORMATS_H

#include "core/core.h"

typedef struct tc_format {
	const char *name;
	int (*open)(tc_input *in, const char *path, const tc_open_options *opts);
} tc_format;

extern const tc_format tc_format_ctf;
extern const tc_format tc_format_tracedat;
extern const tc_format tc_format_uftrace;
extern const tc_format tc_format_lttng_legacy;

#endif /* TC_FORMATS_H */
