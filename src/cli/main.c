/*
 * main.c - tracecat's entry point: picks the command.  `tracecat PATH...`
 * is short for `tracecat print PATH...`, as `babeltrace2 PATH` is for its
 * convert command.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: tracecat [print] [OPTIONS] PATH...   print events as babeltrace2 does\n"
	      "       tracecat info [-j N] PATH...       summary: environment, clocks, streams, event counts\n"
	      "       tracecat report [OPTIONS] [FILE]   a trace.dat file as trace-cmd report prints it (report --help)\n"
	      "       tracecat convert [OPTIONS] INPUT... -o OUTDIR   any input to CTF 1.8 (convert --help)\n"
	      "       tracecat replay [OPTIONS] DIR      a uftrace record directory as uftrace replay prints it\n"
	      "       tracecat --version\n"
	      "\n"
	      "print options (babeltrace2's): --clock-gmt --clock-seconds --clock-date --clock-cycles\n"
	      "  --no-delta -n/--names=LIST -f/--fields=LIST --clock-offset=SEC --clock-offset-ns=NS\n"
	      "  --color=never|auto|always --lttng-names (trace.dat as convert writes it)\n"
	      "filters (print and convert): -b/--begin TIME -e/--end TIME --events PATTERN[,PATTERN] --cpu LIST\n", f);
}

void cli_report(const tc_error *err)
{
	char line[6144];
	tc_error_format(err, line, sizeof line);
	fflush(stdout);
	fprintf(stderr, "tracecat: %s\n", line);
}

void cli_report_error(void)
{
	cli_report(tc_error_last());
}

int cli_open_inputs(char **paths, int count, const tc_open_options *opts, tc_input ***inputs)
{
	*inputs = calloc((size_t)count + 1, sizeof **inputs);
	if (!*inputs) {
		fprintf(stderr, "tracecat: out of memory\n");
		return 1;
	}
	for (int i = 0; i < count; i++) {
		if (tc_input_open(&(*inputs)[i], paths[i], opts) < 0) {
			cli_report_error();
			cli_free_inputs(*inputs, i);
			*inputs = NULL;
			return 1;
		}
	}
	return 0;
}

void cli_free_inputs(tc_input **inputs, int count)
{
	if (!inputs)
		return;
	for (int i = 0; i < count; i++)
		tc_input_free(inputs[i]);
	free(inputs);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
		printf("tracecat %s\n", TRACECAT_VERSION);
		return 0;
	}
	if (strcmp(cmd, "print") == 0)
		return cli_print(argc - 1, argv + 1);
	if (strcmp(cmd, "info") == 0)
		return cli_info(argc - 1, argv + 1);
	if (strcmp(cmd, "replay") == 0)
		return cli_replay(argc - 1, argv + 1);
	if (strcmp(cmd, "convert") == 0)
		return cli_convert(argc - 1, argv + 1);
	if (strcmp(cmd, "report") == 0)
		return cli_report_command(argc - 1, argv + 1);
	/* Anything else: the print shorthand. */
	return cli_print(argc, argv);
}
