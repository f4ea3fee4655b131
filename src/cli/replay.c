/*
 * replay.c - `tracecat replay [OPTIONS] DIR`: a uftrace record directory
 * as `uftrace replay -d DIR` prints it.  Options are uftrace's, with the
 * same spelling; `-d DIR` is accepted as well as a plain DIR.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: tracecat replay [OPTIONS] DIR    (or -d DIR; DIR defaults to uftrace.data)\n"
	      "  the text of `uftrace replay`, byte for byte\n", f);
}

int cli_replay(int argc, char **argv)
{
	const char *dir = NULL, *v;
	tc_replay_options o = { 0 };
	int *tids = NULL;
	size_t ntids = 0, nf = 0, nn = 0;
	const char **filters = calloc((size_t)argc, sizeof *filters);
	const char **notrace = calloc((size_t)argc, sizeof *notrace);
	if (!filters || !notrace) {
		free(filters);
		free(notrace);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (cli_opt_value(argc, argv, &i, "--data", "-d", &v)) {
			dir = v;
		} else if (cli_opt_value(argc, argv, &i, "--output-fields", "-f", &v)) {
			o.fields = v;
		} else if (cli_opt_value(argc, argv, &i, "--filter", "-F", &v)) {
			filters[nf++] = v;
		} else if (cli_opt_value(argc, argv, &i, "--notrace", "-N", &v)) {
			notrace[nn++] = v;
		} else if (cli_opt_value(argc, argv, &i, "--depth", "-D", &v)) {
			o.depth = atoi(v);
		} else if (cli_opt_value(argc, argv, &i, "--time-filter", "-t", &v)) {
			char *end;
			double t = strtod(v, &end);
			double scale = !strcmp(end, "us") ? 1e3 : !strcmp(end, "ms") ? 1e6 : !strcmp(end, "s") ? 1e9
			               : !strcmp(end, "m") ? 6e10 : 1;
			if (end == v || t < 0 || (*end && scale == 1 && strcmp(end, "ns"))) {
				fprintf(stderr, "tracecat: replay: --time-filter expects a time such as 1us, got \"%s\"\n", v);
				return 2;
			}
			o.time_filter = (uint64_t)(t * scale);
		} else if (!strcmp(a, "--no-args")) {
			o.no_args = true;
		} else if (!strcmp(a, "--no-merge")) {
			o.no_merge = true;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--auto-args")) {
			/* recorded arguments are shown already */
		} else if (cli_opt_value(argc, argv, &i, "--tid", NULL, &v)) {
			/* a list, and the option may be repeated */
			for (const char *s = v; *s;) {
				char *end;
				long tid = strtol(s, &end, 10);
				if (end == s || tid <= 0) {
					fprintf(stderr, "tracecat: replay: --tid expects thread ids, got \"%s\"\n", v);
					free(tids);
					return 2;
				}
				int *more = realloc(tids, (ntids + 1) * sizeof *more);
				if (!more) {
					free(tids);
					return 1;
				}
				tids = more;
				tids[ntids++] = (int)tid;
				s = *end == ',' ? end + 1 : end;
				if (*end && *end != ',')
					break;
			}
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "tracecat: replay: unknown option %s\n", a);
			return 2;
		} else {
			dir = a;
		}
	}
	if (!dir)
		dir = "uftrace.data";
	o.tids = tids;
	o.tid_count = ntids;
	o.filters = filters;
	o.filter_count = nf;
	o.notrace = notrace;
	o.notrace_count = nn;
	int rc = tc_uftrace_replay(dir, &o, stdout);
	free(tids);
	free(filters);
	free(notrace);
	if (rc < 0) {
		cli_report_error();
		return rc == TC_EINVAL ? 2 : 1;
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "tracecat: cannot write the output\n");
		return 1;
	}
	return 0;
}
