/* SPDX-License-Identifier: MIT */
/*
 * print.c - `tracecat print`: babeltrace2's default text output.  Options
 * are babeltrace2's, with the same meaning and spelling (both `--opt=V`
 * and `--opt V`), so a command line can be switched from one tool to the
 * other unchanged.
 */
#include "cli/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int parse_names(const char *list, tc_text_options *o)
{
	bool first = true;
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -1;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		bool all = strcmp(item, "all") == 0, none = strcmp(item, "none") == 0;
		if (first && !all && !none)
			o->names_payload = o->names_context = o->names_scope = o->names_header = false;
		first = false;
		if (all || none) {
			o->names_payload = o->names_context = o->names_scope = o->names_header = all;
		} else if (!strcmp(item, "payload") || !strcmp(item, "args") || !strcmp(item, "arg")) {
			o->names_payload = true;
		} else if (!strcmp(item, "context") || !strcmp(item, "ctx")) {
			o->names_context = true;
		} else if (!strcmp(item, "scope")) {
			o->names_scope = true;
		} else if (!strcmp(item, "header")) {
			o->names_header = true;
		} else {
			cli_usage_error("print", "unknown --names item \"%s\"", item);
			free(copy);
			return -1;
		}
	}
	free(copy);
	return 0;
}

static int parse_fields(const char *list, tc_text_options *o)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -1;
	o->field_trace = o->field_hostname = o->field_domain = o->field_procname = o->field_vpid =
		o->field_loglevel = o->field_emf = o->field_callsite = false;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		if (!strcmp(item, "all"))
			o->field_trace = o->field_hostname = o->field_domain = o->field_procname =
				o->field_vpid = o->field_loglevel = o->field_emf = o->field_callsite = true;
		else if (!strcmp(item, "trace"))
			o->field_trace = true;
		else if (!strcmp(item, "trace:hostname"))
			o->field_hostname = true;
		else if (!strcmp(item, "trace:domain"))
			o->field_domain = true;
		else if (!strcmp(item, "trace:procname"))
			o->field_procname = true;
		else if (!strcmp(item, "trace:vpid"))
			o->field_vpid = true;
		else if (!strcmp(item, "loglevel"))
			o->field_loglevel = true;
		else if (!strcmp(item, "emf"))
			o->field_emf = true;
		else if (!strcmp(item, "callsite"))
			o->field_callsite = true;
		else {
			cli_usage_error("print", "unknown --fields item \"%s\"", item);
			free(copy);
			return -1;
		}
	}
	free(copy);
	return 0;
}

/* -i/--input-format, the option babeltrace2 keeps from babeltrace 1
 * (babeltrace2-convert(1), "Legacy options"): `ctf` there, any format
 * tracecat reads here, and every trace found must be of it.  Returns 0,
 * or 1 after saying which trace is not. */
static int check_input_format(const char *format, tc_input **inputs, int count)
{
	for (int i = 0; i < count; i++)
		for (size_t j = 0; j < tc_input_trace_count(inputs[i]); j++) {
			const tc_trace *t = tc_input_trace(inputs[i], j);
			const char *name = tc_input_format_name(t->format);
			if (strcmp(name, format) != 0) {
				fprintf(stderr, "tracecat: %s: a %s trace, not %s (--input-format)\n", t->path, name, format);
				return 1;
			}
		}
	return 0;
}

static int input_format_value(const char *v)
{
	static const char *const known[] = { "ctf", "trace.dat", "uftrace", "lttng-legacy", "perf.data" };
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strcmp(v, known[i]))
			return 0;
	if (!strcmp(v, "lttng-live"))
		return cli_usage_error("print", "--input-format lttng-live: tracecat does not connect to LTTng live "
		                       "sessions; print the session's trace folder instead");
	return cli_usage_error("print", "unknown --input-format \"%s\" (known: ctf, trace.dat, uftrace, lttng-legacy, perf.data)", v);
}

/* -v/--verbose: babeltrace2 turns its log level to INFO, a flood of
 * library lines on stderr.  Here: what was read and what was kept, on
 * stderr, so that stdout stays the same text. */
static void say_inputs(char **paths, tc_input **inputs, int count)
{
	for (int i = 0; i < count; i++)
		for (size_t j = 0; j < tc_input_trace_count(inputs[i]); j++) {
			const tc_trace *t = tc_input_trace(inputs[i], j);
			fprintf(stderr, "tracecat: %s: %s trace %s (%zu streams)\n", paths[i], tc_input_format_name(t->format),
			        t->name ? t->name : t->path, t->stream_count);
		}
}

/* babeltrace2's test for a terminal that shows colours: a capable TERM on
 * both stdout and stderr, overridable with BABELTRACE_TERM_COLOR.  Its
 * --color=auto uses it, and so do its warnings whatever --color says. */
static bool terminal_has_colors(void)
{
	const char *force = getenv("BABELTRACE_TERM_COLOR");
	if (force && !strcmp(force, "always"))
		return true;
	if (force && !strcmp(force, "never"))
		return false;
	const char *term = getenv("TERM");
	static const char *const capable[] = { "xterm", "rxvt", "konsole", "gnome", "screen", "tmux", "putty" };
	bool ok = false;
	for (size_t i = 0; term && i < sizeof capable / sizeof capable[0]; i++)
		if (!strncmp(term, capable[i], strlen(capable[i])))
			ok = true;
	return ok && isatty(1) && isatty(2);
}

int cli_print(int argc, char **argv)
{
	tc_text_options o;
	tc_text_options_default(&o);
	o.compat = cli_compat_default("print");
	tc_open_options oo = { 0 };
	char **paths = calloc((size_t)argc, sizeof *paths);
	int npaths = 0;
	const char *color = "auto";
	cli_filter_args fa = { 0 };
	unsigned jobs = cli_default_jobs();
	bool intersect = false, verbose = false;
	const char *input_format = NULL;
	if (!paths)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		long long n;
		if (!strcmp(a, "--clock-gmt"))
			o.clock_gmt = true;
		else if (!strcmp(a, "--clock-seconds"))
			o.clock_seconds = true;
		else if (!strcmp(a, "--clock-cycles"))
			o.clock_cycles = true;
		else if (!strcmp(a, "--clock-date"))
			o.clock_date = true;
		else if (!strcmp(a, "--no-delta"))
			o.no_delta = true;
		else if (cli_opt_value(argc, argv, &i, "--names", "-n", &v)) {
			if (parse_names(v, &o) < 0)
				return free(paths), 2;
		} else if (cli_opt_value(argc, argv, &i, "--fields", "-f", &v)) {
			if (parse_fields(v, &o) < 0)
				return free(paths), 2;
		} else if (cli_opt_value(argc, argv, &i, "--clock-offset", NULL, &v)) {
			if (!cli_parse_int(v, INT64_MIN, INT64_MAX, &n))
				return free(paths), cli_usage_error("print", "--clock-offset expects whole seconds, got \"%s\"", v);
			oo.clock_offset_s = n;
		} else if (cli_opt_value(argc, argv, &i, "--clock-offset-ns", NULL, &v)) {
			if (!cli_parse_int(v, INT64_MIN, INT64_MAX, &n))
				return free(paths), cli_usage_error("print", "--clock-offset-ns expects nanoseconds, got \"%s\"", v);
			oo.clock_offset_ns = n;
		} else if (cli_opt_value(argc, argv, &i, "--color", "-c", &v)) {
			color = v;
		} else if (cli_filter_option(argc, argv, &i, &fa)) {
		} else if (!strcmp(a, "--stream-intersection")) {
			intersect = true;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			verbose = true;
		} else if (cli_opt_value(argc, argv, &i, "--input-format", "-i", &v)) {
			if (input_format_value(v))
				return free(paths), 2;
			input_format = v;
		} else if (cli_jobs_option(argc, argv, &i, "print", &jobs)) {
		} else if (cli_compat_option(argc, argv, &i, "print", &o.compat)) {
		} else if (!strcmp(a, "--lttng-names")) {
			oo.lttng_names = true;
		} else if (cli_is_help_option(a)) {
			cli_help("print", stdout);
			return free(paths), 0;
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				paths[npaths++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			return free(paths), cli_usage_error("print", "unknown option %s", a);
		} else {
			paths[npaths++] = argv[i];
		}
	}
	if (npaths == 0) {
		return free(paths), cli_usage_error("print", "no trace path given");
	}
	o.color_warnings = terminal_has_colors();
	if (!strcmp(color, "always"))
		o.color = true;
	else if (!strcmp(color, "auto"))
		o.color = o.color_warnings;
	else if (strcmp(color, "never") != 0) {
		return free(paths), cli_usage_error("print", "--color expects never, auto or always, got \"%s\"", color);
	}

	tc_filter *filter;
	if (cli_filter_build(&fa, o.clock_gmt, &filter))
		return free(paths), 2;
	tc_input **inputs;
	oo.compat = &o.compat;
	if (cli_open_inputs("print", paths, npaths, &oo, &inputs))
		return tc_filter_free(filter), free(paths), 1;
	if (verbose)
		say_inputs(paths, inputs, npaths);
	/* Both say what they refuse themselves. */
	bool refused = (input_format && check_input_format(input_format, inputs, npaths)) ||
	               (intersect && cli_stream_intersection(inputs, npaths, filter, verbose));
	int status = refused;
	bool filtering = !tc_filter_is_empty(filter);
	tc_muxer *mux = NULL;
	tc_text_printer *printer = NULL;
	if (!status && (tc_muxer_new(&mux) < 0 || tc_muxer_set_threads(mux, jobs) < 0 ||
	                tc_text_printer_new(&printer, &o, stdout, stderr) < 0))
		status = 1;
	for (int i = 0; i < npaths && !status; i++)
		if ((filtering && tc_input_want_values(inputs[i], cli_filter_keeps_class, filter) < 0) ||
		    tc_muxer_add_input(mux, inputs[i]) < 0)
			status = 1;
	if (status && !refused)
		cli_report_error();
	const tc_message *msg;
	tc_message clipped;
	int rc = 0, write_rc = 0;
	uint64_t printed = 0;
	while (!status && (rc = tc_muxer_next(mux, &msg)) > 0) {
		if (filtering && !tc_filter_match(filter, msg))
			continue;
		if (filtering)
			msg = tc_filter_clip(filter, msg, &clipped);
		if ((write_rc = tc_text_printer_print(printer, msg)) < 0)
			break;
		printed += msg->kind == TC_MSG_EVENT;
	}
	tc_error read_error = *tc_error_last();
	/* What was read before an error is printed before the error line. */
	if (printer && write_rc == 0)
		write_rc = tc_text_printer_flush(printer);
	if (write_rc < 0) {
		if (!cli_stdout_error(tc_error_last()))
			cli_report_error();
		status = 1;
	} else if (rc < 0) {
		cli_report(&read_error);
		status = 1;
	}
	tc_text_printer_free(printer);
	if (verbose && !status)
		fprintf(stderr, "tracecat: %" PRIu64 " events printed\n", printed);
	/* On a terminal that shows colours babeltrace2 resets them on both
	 * streams when it ends, whatever --color says. */
	if (o.color_warnings) {
		fputs("\033[0m", stdout);
		fputs("\033[0m", stderr);
	}
	tc_muxer_free(mux);
	cli_free_inputs(inputs, npaths);
	tc_filter_free(filter);
	free(paths);
	return status;
}
