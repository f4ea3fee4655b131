/* SPDX-License-Identifier: MIT */
/*
 * no_report.c - tc_report() of a library built without libtraceevent
 * (`make WITH_TRACEEVENT=0`, which leaves out report*.c and printfmt*.c):
 * the entry points stay, so that a program linked with either build runs,
 * and say the report is not there.
 */
#include "core/core.h"

bool tc_report_available(void)
{
	return false;
}

int tc_report(FILE *out, const char *path, const tc_report_options *opts)
{
	(void)out;
	(void)opts;
	return tc_fail(TC_EUNSUPPORTED, path, -1,
	               "this tracecat was built without libtraceevent (make WITH_TRACEEVENT=0): no report");
}
