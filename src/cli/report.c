/* SPDX-License-Identifier: MIT */
/*
 * report.c - `tracecat report`: what `trace-cmd report` prints for a
 * trace.dat file, byte for byte, with trace-cmd's spelling of the options
 * it shares:
 *
 *   tracecat report [-R] [-t] [-l] [--ts-diff] [-N] [-L] [-I] [-S]
 *                   [--cpu LIST] [-F FILTER]... [-v] [-q] [-w] [--profile]
 *                   [-f | -P | -E | --first-event | --stat]
 *                   [-i FILE [--ts-offset N]] [-j N]
 *                   [--compat trace-cmd=3.1|3.3|3.4] [FILE]
 *
 * FILE defaults to trace.dat.  As in trace-cmd, options come before FILE
 * (parsing stops at the first operand), -F takes a libtraceevent filter
 * ("sched_switch", "sched/sched_switch", "sched_switch: prev_pid == 0"),
 * -v makes the -F after it hide what they match, and --cpu takes a list
 * of CPUs and ranges ("0", "0,2-3"), may be repeated, and counts the CPUs
 * of instance buffers after those of the top buffer.  -j/--jobs N, not
 * trace-cmd's, sets the threads the CPUs' pages are read on (the online
 * CPUs by default; the text is the same).  -f, -P, -E, --first-event and
 * --stat print a listing instead of the events (src/tracedat/report_list.c;
 * with several, the first of that order); -w adds wakeup latencies
 * (report_wakeup.c); --profile prints trace-cmd's per-task profile
 * instead of the events (report_profile.c); -q silences libtraceevent's
 * warnings.
 *
 * Exit status: 0; 1 when the file is damaged or unreadable (after the
 * lines read before the damage); 2 for a usage error, a bad filter
 * included.
 */
#include "cli/cli.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct int_list {
	int *v;
	size_t n, cap;
} int_list;

static int list_push(int_list *l, int x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		int *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return -1;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = x;
	return 0;
}

/* trace-cmd's parse_cpulist(): "N", "A-B", separated by ',' or ':'. */
static int parse_cpus(const char *arg, int_list *cpus)
{
	const char *s = arg;
	do {
		while (isspace((unsigned char)*s))
			s++;
		if (!isdigit((unsigned char)*s)) {
			fprintf(stderr, "tracecat: invalid character '%c' in cpu string '%s'\n", *s, arg);
			return -1;
		}
		char *e;
		unsigned long a = strtoul(s, &e, 10), b = a;
		s = e;
		if (*s == '-') {
			s++;
			while (isspace((unsigned char)*s))
				s++;
			if (!isdigit((unsigned char)*s)) {
				fprintf(stderr, "tracecat: invalid character '%c' in cpu string '%s'\n", *s, arg);
				return -1;
			}
			b = strtoul(s, &e, 10);
			s = e;
		}
		if (a > b) {
			fprintf(stderr, "tracecat: range of cpu numbers must be lower to greater: '%s'\n", arg);
			return -1;
		}
		if (b > 65535) {
			fprintf(stderr, "tracecat: cpu %lu is out of range in '%s'\n", b, arg);
			return -1;
		}
		for (unsigned long c = a; c <= b; c++)
			if (list_push(cpus, (int)c) < 0) {
				fprintf(stderr, "tracecat: out of memory\n");
				return -1;
			}
		if (*s == ',' || *s == ':')
			s++;
	} while (*s != '\0');
	return 0;
}

enum { OPT_CPU = 256, OPT_COMPAT, OPT_TS_DIFF, OPT_TS_OFFSET, OPT_FIRST_EVENT, OPT_STAT, OPT_PROFILE };

int cli_report_command(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "compat", required_argument, NULL, OPT_COMPAT },
		{ "ts-diff", no_argument, NULL, OPT_TS_DIFF },
		{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
		{ "first-event", no_argument, NULL, OPT_FIRST_EVENT },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "profile", no_argument, NULL, OPT_PROFILE },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	tc_report_options o = { .threads = cli_default_jobs(), .compat = cli_compat_default("report") };
	int_list cpus = { 0 };
	const char **filters = NULL;
	bool *negate = NULL, neg = false, have_cpus = false;
	bool funcs = false, printk = false, events = false, first_event = false, stat = false;
	size_t nfilters = 0;
	const char *input = NULL;
	int status = 2, c;

	filters = calloc((size_t)argc + 1, sizeof *filters);
	negate = calloc((size_t)argc + 1, sizeof *negate);
	if (!filters || !negate) {
		fprintf(stderr, "tracecat: out of memory\n");
		goto out;
	}
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:hi:RtF:vNLISlj:qEPfw", longs, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_help("report", stdout);
			status = 0;
			goto out;
		case 'i':
			if (input) {
				status = cli_usage_error("report", "report reads one file");
				goto out;
			}
			input = optarg;
			break;
		case 'R':
			o.raw = true;
			break;
		case 't':
			o.nsec = true;
			break;
		case 'F':
			negate[nfilters] = neg;
			filters[nfilters++] = optarg;
			break;
		case 'v':
			if (neg) {
				status = cli_usage_error("report", "only one -v can be used");
				goto out;
			}
			neg = true;
			break;
		case 'N':
			o.no_plugins = true;
			break;
		case 'L':
			o.no_sys_plugins = true;
			break;
		case 'I':
			o.no_irqs = true;
			break;
		case 'S':
			o.no_softirqs = true;
			break;
		case 'l':
			o.latency = true;
			break;
		case OPT_TS_DIFF:
			o.ts_diff = true;
			break;
		case OPT_TS_OFFSET:
			/* trace-cmd gives the offset to the input files after
			 * the first (-i A -i B --ts-offset N shifts B); for the
			 * first it is taken when -i names it and never applied:
			 * with one file, as here, the text does not change. */
			if (!input) {
				status = cli_usage_error("report", "--ts-offset must come after -i");
				goto out;
			}
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'w':
			o.wakeup = true;
			break;
		case 'f':
			funcs = true;
			break;
		case 'P':
			printk = true;
			break;
		case 'E':
			events = true;
			break;
		case OPT_FIRST_EVENT:
			first_event = true;
			break;
		case OPT_STAT:
			stat = true;
			break;
		case OPT_PROFILE:
			o.profile = true;
			break;
		case 'j':
			o.threads = cli_jobs_value("report", optarg);
			break;
		case OPT_COMPAT:
			cli_compat_value("report", optarg, &o.compat);
			break;
		case OPT_CPU:
			have_cpus = true;
			if (parse_cpus(optarg, &cpus) < 0)
				goto out;
			break;
		case ':':
			if (optopt == OPT_CPU)
				status = cli_usage_error("report", "option --cpu needs a value");
			else if (optopt == OPT_COMPAT)
				status = cli_usage_error("report", "option --compat needs a value");
			else if (optopt == OPT_TS_OFFSET)
				status = cli_usage_error("report", "option --ts-offset needs a value");
			else if (optopt == 'j' && strncmp(argv[optind - 1], "--", 2) == 0)
				status = cli_usage_error("report", "option --jobs needs a value");
			else
				status = cli_usage_error("report", "option -%c needs a value", optopt);
			goto out;
		default:
			if (optopt && optopt < 256)
				status = cli_usage_error("report", "unknown option -%c", optopt);
			else
				status = cli_usage_error("report", "unknown option %s", argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		if (input || argc - optind > 1) {
			status = cli_usage_error("report", "report reads one file (options go before it)");
			goto out;
		}
		input = argv[optind];
	}
	if (!input)
		input = "trace.dat";

	/* trace-cmd's order: the first of these it finds wins */
	o.listing = funcs ? TC_REPORT_LIST_FUNCS
	          : printk ? TC_REPORT_LIST_PRINTK
	          : events ? TC_REPORT_LIST_EVENTS
	          : first_event ? TC_REPORT_LIST_FIRST_EVENT
	          : stat ? TC_REPORT_LIST_STAT
	          : TC_REPORT_LIST_NONE;
	o.name = input;
	o.filters = filters;
	o.filter_negate = negate;
	o.filter_count = nfilters;
	if (have_cpus) {
		o.cpus = cpus.v;
		o.cpu_count = cpus.n;
	}
	/* Tests set TRACECAT_REPORT_CHECK to compare the native event texts
	 * with libtraceevent's on every event. */
	const char *check = getenv("TRACECAT_REPORT_CHECK");
	o.check_fast_path = check && *check && strcmp(check, "0") != 0;
	int rc = tc_report(stdout, input, &o);
	if (rc < 0 && cli_stdout_error(tc_error_last())) {
		status = 1;
	} else if (rc < 0) {
		cli_report_open_error("report", input);
		status = rc == TC_EINVAL ? 2 : 1;
	} else {
		status = 0;
	}
out:
	free(cpus.v);
	free(filters);
	free(negate);
	return status;
}
