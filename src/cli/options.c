/* SPDX-License-Identifier: MIT */
/*
 * options.c - command-line pieces the commands share: option values in
 * both spellings, -j/--jobs, --compat and TRACECAT_COMPAT, and the filter
 * options of `print` and `convert`, --stream-intersection's among them.
 */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
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

/* babeltrace2-convert(1)'s --timerange=BEGIN,END, also "[BEGIN,END]":
 * the two bounds are cut out of the argument in place (argv strings are
 * the program's to change).  Exits with status 2 when a bound is
 * missing. */
static void timerange(const char *arg, cli_filter_args *fa)
{
	char *p = (char *)arg + (arg[0] == '[');
	char *comma = strchr(p, ',');
	char *close = comma ? strchr(comma + 1, ']') : NULL;
	if (!comma || comma == p || !comma[1] || close == comma + 1)
		exit(cli_usage_error("", "--timerange expects BEGIN,END or [BEGIN,END], got \"%s\"", arg));
	if (close)
		*close = '\0';
	*comma = '\0';
	fa->begin = p;
	fa->end = comma + 1;
}

bool cli_filter_option(int argc, char **argv, int *i, cli_filter_args *fa)
{
	const char *v;
	/* babeltrace2 refuses a second --begin or --end, and --timerange after
	 * either; a later option replaces what --timerange set. */
	if (cli_opt_value(argc, argv, i, "--begin", "-b", &v)) {
		if (fa->begin_given)
			exit(cli_usage_error("", "--begin given twice"));
		fa->begin = v;
		fa->begin_given = true;
	} else if (cli_opt_value(argc, argv, i, "--timerange", NULL, &v)) {
		if (fa->begin_given || fa->end_given)
			exit(cli_usage_error("", "--timerange after --begin or --end"));
		timerange(v, fa);
	} else if (cli_opt_value(argc, argv, i, "--end", "-e", &v)) {
		if (fa->end_given)
			exit(cli_usage_error("", "--end given twice"));
		fa->end = v;
		fa->end_given = true;
	} else if (cli_opt_value(argc, argv, i, "--events", NULL, &v)) {
		fa->events = v;
	} else if (cli_opt_value(argc, argv, i, "--cpu", NULL, &v)) {
		fa->cpus = v;
	} else {
		return false;
	}
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

/* One trace's stream intersection: the latest beginning and the earliest
 * end of its streams' ranges.  babeltrace2's CLI asks source.ctf.fs for
 * them (`babeltrace.trace-infos` query) and stops when a stream has none
 * or one is negative; a trimmer with the range then goes on each stream
 * of the trace (babeltrace2-convert(1), --stream-intersection). */
static int trace_intersection(tc_input *in, const tc_trace *t, tc_filter *f, bool verbose)
{
	tc_time begin = { 0 }, end = { 0 };
	size_t streams = 0;
	for (size_t i = 0; i < tc_input_stream_count(in); i++) {
		const tc_stream *st = tc_input_stream(in, i);
		tc_time b, e;
		if (st->trace != t)
			continue;
		int rc = tc_input_stream_time_range(in, i, &b, &e);
		if (rc < 0)
			return cli_report_error(), 1;
		if (rc == 0 || b.sec < 0 || tc_time_cmp(e, b) < 0) {
			fprintf(stderr, "tracecat: %s: --stream-intersection: %s\n", st->name,
			        rc == 0 ? "no time range known for the stream (only CTF packets with beginning and end times give one)"
			                : "the stream's time range is negative or reversed");
			return 1;
		}
		if (streams == 0 || tc_time_cmp(b, begin) > 0)
			begin = b;
		if (streams == 0 || tc_time_cmp(e, end) < 0)
			end = e;
		streams++;
	}
	if (streams == 0) {
		fprintf(stderr, "tracecat: %s: --stream-intersection: the trace has no stream\n", t->path);
		return 1;
	}
	if (tc_time_cmp(begin, end) > 0) {
		fprintf(stderr, "tracecat: %s: --stream-intersection: the trace's streams have no time in common\n", t->path);
		return 1;
	}
	if (verbose)
		fprintf(stderr, "tracecat: %s: stream intersection %" PRId64 ".%09" PRIu32 " to %" PRId64 ".%09" PRIu32
		        " (seconds from the clock origin; %zu streams)\n", t->path, begin.sec, begin.nsec, end.sec, end.nsec, streams);
	if (tc_filter_set_trace_range(f, t, begin, end) < 0)
		return cli_report_error(), 1;
	return 0;
}

int cli_stream_intersection(tc_input **inputs, int count, tc_filter *f, bool verbose)
{
	for (int i = 0; i < count; i++)
		for (size_t j = 0; j < tc_input_trace_count(inputs[i]); j++)
			if (trace_intersection(inputs[i], tc_input_trace(inputs[i], j), f, verbose))
				return 1;
	return 0;
}
