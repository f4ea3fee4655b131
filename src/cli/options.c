/* SPDX-License-Identifier: MIT */
/*
 * options.c - command-line pieces the commands share: option values in
 * both spellings, -j/--jobs, --compat and TRACECAT_COMPAT, and the filter
 * options of `print` and `convert`.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool cli_opt_value(int argc, char **argv, int *i, const char *name, const char *short_name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) == 0 && a[n] == '=') {
		*val = a + n + 1;
		return true;
	}
	if (strcmp(a, name) == 0 || (short_name && strcmp(a, short_name) == 0)) {
		if (*i + 1 >= argc) {
			exit(cli_usage_error("", "option %s needs a value", a));
		}
		*val = argv[++*i];
		return true;
	}
	return false;
}

bool cli_parse_int(const char *v, long long lo, long long hi, long long *out)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (!*v || *end || n < lo || n > hi)
		return false;
	*out = n;
	return true;
}

unsigned cli_default_jobs(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 ? (unsigned)(cpus > 256 ? 256 : cpus) : 1;
}

unsigned cli_jobs_value(const char *command, const char *v)
{
	long long n;
	if (!cli_parse_int(v, 1, 256, &n))
		exit(cli_usage_error(command, "--jobs expects a number of threads from 1 to 256, got \"%s\"", v));
	return (unsigned)n;
}

bool cli_jobs_option(int argc, char **argv, int *i, const char *command, unsigned *jobs)
{
	const char *v;
	if (!cli_opt_value(argc, argv, i, "--jobs", "-j", &v))
		return false;
	*jobs = cli_jobs_value(command, v);
	return true;
}

tc_compat cli_compat_default(const char *command)
{
	tc_compat c = tc_compat_default();
	const char *env = getenv("TRACECAT_COMPAT");
	if (env && *env && tc_compat_parse(&c, env) < 0)
		exit(cli_usage_error(command, "TRACECAT_COMPAT: %s", tc_error_last()->message));
	return c;
}

void cli_compat_value(const char *command, const char *v, tc_compat *c)
{
	if (tc_compat_parse(c, v) < 0)
		exit(cli_usage_error(command, "--compat: %s", tc_error_last()->message));
}

bool cli_compat_option(int argc, char **argv, int *i, const char *command, tc_compat *c)
{
	const char *v;
	if (!cli_opt_value(argc, argv, i, "--compat", NULL, &v))
		return false;
	cli_compat_value(command, v, c);
	return true;
}

bool cli_filter_option(int argc, char **argv, int *i, cli_filter_args *fa)
{
	const char *v;
	if (cli_opt_value(argc, argv, i, "--begin", "-b", &v))
		fa->begin = v;
	else if (cli_opt_value(argc, argv, i, "--end", "-e", &v))
		fa->end = v;
	else if (cli_opt_value(argc, argv, i, "--events", NULL, &v))
		fa->events = v;
	else if (cli_opt_value(argc, argv, i, "--cpu", NULL, &v))
		fa->cpus = v;
	else
		return false;
	return true;
}

int cli_filter_build(const cli_filter_args *fa, bool gmt, tc_filter **out)
{
	tc_filter *f;
	if (tc_filter_new(&f) < 0 || (fa->begin && tc_filter_set_begin(f, fa->begin, gmt) < 0) ||
	    (fa->end && tc_filter_set_end(f, fa->end, gmt) < 0) || (fa->events && tc_filter_add_events(f, fa->events) < 0) ||
	    (fa->cpus && tc_filter_add_cpus(f, fa->cpus) < 0)) {
		cli_report_error();
		tc_filter_free(f);
		return 2;
	}
	*out = f;
	return 0;
}

bool cli_filter_keeps_class(void *filter, const tc_event_class *ec)
{
	return tc_filter_match_class(filter, ec);
}
