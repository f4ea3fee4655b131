/* SPDX-License-Identifier: MIT */
/*
 * no_script.c - tc_perf_script() of a library built without libtraceevent
 * (`make WITH_TRACEEVENT=0`, which leaves out script.c with report*.c):
 * the entry point stays, and says the script text is not there.
 */
#include "core/core.h"

int tc_perf_script(FILE *out, const char *path, const tc_script_options *opts)
{
	(void)out;
	(void)opts;
	return tc_fail(TC_EUNSUPPORTED, path, -1,
	               "this tracecat was built without libtraceevent (make WITH_TRACEEVENT=0): no script");
}
