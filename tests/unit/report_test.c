/* SPDX-License-Identifier: MIT */
/*
 * report_test.c - `tracecat report`'s own text against libtraceevent's.
 * For every trace.dat file of tests/fixtures/tracedat and of the corpus's
 * trace-dat folder (tests/corpus, or $TRACECAT_CORPUS when set; both are
 * committed, so an empty or missing one fails):
 *   - the report of every record, with each event text a native plan
 *     (printfmt.h) writes also made by libtraceevent and compared;
 *   - the time column of random times, in its three forms.
 * Random records of every event format: tests/unit/printfmt_test.c.
 * One line per check, "PASS name" or "FAIL name: ..."; exit status 0 when
 * everything passed.  Run from the repository root.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tracedat/report.h"
#include "linked_tep.h"

static int n_fail;

static void report_error(const char *name)
{
	char msg[6144];
	tc_error_format(tc_error_last(), msg, sizeof msg);
	printf("FAIL %s: %s\n", name, msg);
	n_fail++;
}

static void check_file(const char *path)
{
	char name[4096];
	FILE *sink = fopen("/dev/null", "w");
	if (!sink) {
		printf("FAIL report/%s: cannot open /dev/null\n", path);
		n_fail++;
		return;
	}
	/* The texts of the libtraceevent linked here, to compare the plans
	 * with: 1.7's are trace-cmd 3.1.6's, later ones 3.4's. */
	tc_report_options o = { .check_fast_path = true, .compat = tc_compat_default() };
	o.compat.trace_cmd = linked_tep_is_newer() ? TC_RELEASE(3, 4) : TC_RELEASE(3, 1);
	snprintf(name, sizeof name, "report/check-fast-path/%s", path);
	if (tc_report(sink, path, &o) < 0)
		report_error(name);
	else
		printf("PASS %s\n", name);
	fclose(sink);

	snprintf(name, sizeof name, "report/time-column/%s", path);
	if (tracedat_report_time_selfcheck(path, 2000, 0x7261636563617421ULL) < 0)
		report_error(name);
	else
		printf("PASS %s\n", name);
}

static void check_dir(const char *dir, bool required)
{
	DIR *d = opendir(dir);
	if (!d) {
		if (required) {
			printf("FAIL report/%s: cannot open the folder\n", dir);
			n_fail++;
		}
		return;
	}
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".dat") == 0) {
			char **nn = realloc(names, (n + 1) * sizeof *names);
			if (!nn)
				break;
			names = nn;
			size_t plen = strlen(dir) + len + 2;
			names[n] = malloc(plen);
			if (!names[n])
				break;
			snprintf(names[n], plen, "%s/%s", dir, e->d_name);
			n++;
		}
	}
	closedir(d);
	if (n == 0 && required) {
		printf("FAIL report/%s: no .dat file in the folder\n", dir);
		n_fail++;
	}
	for (size_t i = 0; i < n; i++) {
		check_file(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(void)
{
	check_dir("tests/fixtures/tracedat", true);
	const char *corpus = getenv("TRACECAT_CORPUS");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/trace-dat", corpus ? corpus : "tests/corpus");
	check_dir(dir, true);
	return n_fail ? 1 : 0;
}
