/* SPDX-License-Identifier: MIT */
/*
 * formats.h - the format readers tc_input_open() and the folder scan
 * (dir_scan.c) offer paths to.  A reader's open() returns TC_ENOTFOUND
 * when the path is not its format, so that another gets a chance; any
 * other error is final.
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
extern const tc_format tc_format_perf;

/* Opens into IN every trace below the folder PATH, of every format
 * (dir_scan.c): 0, TC_ENOTFOUND when there is none, or an error. */
int tc_open_dir(tc_input *in, const char *path, const tc_open_options *opts);

#endif /* TC_FORMATS_H */
