/* SPDX-License-Identifier: MIT */
/*
 * replay.c - `tracecat replay [OPTIONS] DIR`: a uftrace record directory
 * as `uftrace replay -d DIR` prints it.  Options are uftrace's, with the
 * same spelling; `-d DIR` is accepted as well as a plain DIR.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

/* "1us", "2.5ms", "100" (ns) as nanoseconds; false when malformed or
 * beyond 64-bit nanoseconds. */
static bool parse_time(const char *v, uint64_t *out)
{
	char *end;
	double t = strtod(v, &end);
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 6e10 } };
	if (end == v || !(t >= 0))
		return false;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(end, units[i].unit)) {
			double ns = t * units[i].scale;
			if (!(ns < 18446744073709551616.0))
				return false;
			*out = (uint64_t)ns;
			return true;
		}
	return false;
}

/* Appends the tids of LIST ("1,2") to *TIDS; false when malformed. */
static bool parse_tids(const char *list, int **tids, size_t *n)
{
	for (const char *s = list; *s;) {
		char *end;
		long tid = strtol(s, &end, 10);
		if (end == s || tid <= 0 || tid > INT32_MAX || (*end && *end != ','))
			return false;
		int *more = realloc(*tids, (*n + 1) * sizeof *more);
		if (!more)
			return false;
		*tids = more;
		(*tids)[(*n)++] = (int)tid;
		s = *end ? end + 1 : end;
	}
	return true;
}

static void print_warning(void *arg, const char *message)
{
	fprintf(stderr, "tracecat: warning: %s\n", message);
}

int cli_replay(int argc, char **argv)
{
	const char *dir = NULL, *v;
	tc_replay_options o = { 0 };
	int *tids = NULL, status = 0;
	size_t ntids = 0, nf = 0, nn = 0;
	const char **filters = calloc((size_t)argc, sizeof *filters);
	const char **notrace = calloc((size_t)argc, sizeof *notrace);
	if (!filters || !notrace) {
		status = 1;
		goto out;
	}
	o.compat = cli_compat_default("replay");
	for (int i = 1; i < argc && status == 0; i++) {
		const char *a = argv[i];
		if (cli_compat_option(argc, argv, &i, "replay", &o.compat)) {
		} else if (cli_opt_value(argc, argv, &i, "--data", "-d", &v)) {
			dir = v;
		} else if (cli_opt_value(argc, argv, &i, "--output-fields", "-f", &v)) {
			o.fields = v;
		} else if (cli_opt_value(argc, argv, &i, "--filter", "-F", &v)) {
			filters[nf++] = v;
		} else if (cli_opt_value(argc, argv, &i, "--notrace", "-N", &v)) {
			notrace[nn++] = v;
		} else if (cli_opt_value(argc, argv, &i, "--depth", "-D", &v)) {
			long long depth = 0;
			if (!cli_parse_int(v, 0, INT32_MAX, &depth))
				status = cli_usage_error("replay", "--depth expects a number of levels, got \"%s\"", v);
			o.depth = (int)depth;
		} else if (cli_opt_value(argc, argv, &i, "--time-filter", "-t", &v)) {
			if (!parse_time(v, &o.time_filter)) {
				status = cli_usage_error("replay", "--time-filter expects a time such as 1us, got \"%s\"", v);
			}
		} else if (cli_opt_value(argc, argv, &i, "--tid", NULL, &v)) {
			if (!parse_tids(v, &tids, &ntids)) {
				status = cli_usage_error("replay", "--tid expects thread ids, got \"%s\"", v);
			}
		} else if (!strcmp(a, "--no-args")) {
			o.no_args = true;
		} else if (!strcmp(a, "--no-merge")) {
			o.no_merge = true;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--auto-args")) {
			/* recorded arguments are shown already */
		} else if (cli_is_help_option(a)) {
			cli_help("replay", stdout);
			goto out;
		} else if (!strcmp(a, "--") && i + 1 < argc) {
			dir = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			status = cli_usage_error("replay", "unknown option %s", a);
		} else {
			dir = a;
		}
	}
	if (status)
		goto out;
	o.tids = tids;
	o.tid_count = ntids;
	o.filters = filters;
	o.filter_count = nf;
	o.notrace = notrace;
	o.notrace_count = nn;
	o.warning = print_warning;
	dir = dir ? dir : "uftrace.data";
	int rc = tc_uftrace_replay(dir, &o, stdout);
	if (rc < 0 && cli_stdout_error(tc_error_last())) {
		status = 1;
	} else if (rc < 0) {
		cli_report_open_error("replay", dir);
		status = rc == TC_EINVAL ? 2 : 1;
	}
out:
	free(tids);
	free(filters);
	free(notrace);
	return status;
}
