/* SPDX-License-Identifier: MIT */
/*
 * script.c - `tracecat script`: what `perf script` prints for a perf.data
 * file, byte for byte (tc_perf_script()), with perf script's spelling of
 * the options it shares:
 *
 *   tracecat script [--ns] [--show-task-events] [--show-mmap-events]
 *                   [-C LIST] [-i FILE] [FILE]
 *
 * FILE defaults to perf.data, as in perf.  Exit status: 0; 1 when the file
 * is damaged, unreadable or holds what script does not print yet (after
 * the lines before it); 2 for a usage error.
 */
#include "cli/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

enum { OPT_NS = 256, OPT_TASK, OPT_MMAP };

int cli_script(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "ns", no_argument, NULL, OPT_NS },
		{ "show-task-events", no_argument, NULL, OPT_TASK },
		{ "show-mmap-events", no_argument, NULL, OPT_MMAP },
		{ "input", required_argument, NULL, 'i' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	tc_script_options o = { 0 };
	const char *input = NULL;
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:i:C:h", longs, NULL)) != -1) {
		switch (c) {
		case OPT_NS:
			o.ns = true;
			break;
		case OPT_TASK:
			o.show_task_events = true;
			break;
		case OPT_MMAP:
			o.show_mmap_events = true;
			break;
		case 'i':
			input = optarg;
			break;
		case 'C':
			o.cpus = optarg;
			break;
		case 'h':
			cli_help("script", stdout);
			return 0;
		case ':':
			return cli_usage_error("script", "%s needs a value", argv[optind - 1]);
		default:
			return cli_usage_error("script", "%s: unknown option", argv[optind - 1]);
		}
	}
	if (optind < argc && input)
		return cli_usage_error("script", "give the file with -i or as an operand, not both");
	if (argc - optind > 1)
		return cli_usage_error("script", "reads one file");
	const char *path = optind < argc ? argv[optind] : input ? input : "perf.data";
	if (tc_perf_script(stdout, path, &o) < 0) {
		if (!cli_stdout_error(tc_error_last())) {
			fflush(stdout);
			cli_report_open_error("script", path);
		}
		return 1;
	}
	return 0;
}
