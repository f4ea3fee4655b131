/* SPDX-License-Identifier: MIT */
/*
 * main.c - tracecat's entry point: picks the command.  `tracecat PATH...`
 * is short for `tracecat print PATH...`, as `babeltrace2 PATH` is for its
 * convert command.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

/* "tracecat: PATH: at byte N: MSG", then HINT (when not NULL): "; try: tracecat HINT". */
static void report_with_hint(const tc_error *err, const char *hint_command, const char *hint_path)
{
	char line[6144];
	tc_error_format(err, line, sizeof line);
	fflush(stdout);
	if (hint_command)
		fprintf(stderr, "tracecat: %s; try: tracecat %s %s\n", line, hint_command, hint_path);
	else
		fprintf(stderr, "tracecat: %s\n", line);
}

void cli_report(const tc_error *err)
{
	report_with_hint(err, NULL, NULL);
}

void cli_report_error(void)
{
	cli_report(tc_error_last());
}

int cli_open_inputs(const char *command, char **paths, int count, const tc_open_options *opts, tc_input ***inputs)
{
	*inputs = calloc((size_t)count + 1, sizeof **inputs);
	if (!*inputs) {
		fprintf(stderr, "tracecat: out of memory\n");
		return 1;
	}
	for (int i = 0; i < count; i++) {
		if (tc_input_open(&(*inputs)[i], paths[i], opts) < 0) {
			cli_report_open_error(command, paths[i]);
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

/* Which command reads the trace at PATH ("print", "report", "replay" or
 * "script"), or NULL when PATH holds none. */
static const char *command_reading(const char *path)
{
	tc_input *in;
	if (tc_input_open(&in, path, NULL) < 0)
		return NULL;
	const tc_trace *t = tc_input_trace(in, 0);
	tc_input_format format = t ? t->format : TC_INPUT_OTHER;
	const char *cmd = format == TC_INPUT_TRACE_DAT ? "report" : format == TC_INPUT_UFTRACE ? "replay"
	                : format == TC_INPUT_PERF ? "script" : "print";
	tc_input_free(in);
	return cmd;
}

/* The command that reads what lies at PATH: a trace itself (looked at only
 * when TRY_PATH: a command that reads every format already failed on it),
 * or a file of the CTF or uftrace directory around it (then TARGET is that
 * directory).  NULL when it is no trace at all. */
static const char *command_for(const char *path, bool try_path, char *target, size_t size)
{
	struct stat st;
	const char *cmd = try_path ? command_reading(path) : NULL;
	if (cmd || stat(path, &st) < 0 || !S_ISREG(st.st_mode) || strlen(path) >= size) {
		snprintf(target, size, "%s", path);
		return cmd;
	}
	strcpy(target, path);
	char *slash = strrchr(target, '/');
	if (!slash)
		strcpy(target, ".");
	else if (slash == target)
		target[1] = '\0';
	else
		*slash = '\0';
	char probe[PATH_MAX + 16];
	snprintf(probe, sizeof probe, "%s/metadata", target);
	bool ctf = stat(probe, &st) == 0;
	snprintf(probe, sizeof probe, "%s/info", target);
	return ctf || stat(probe, &st) == 0 ? command_reading(target) : NULL;
}

void cli_report_open_error(const char *command, const char *path)
{
	/* Copied first: finding the right command opens the path again. */
	tc_error err = *tc_error_last();
	char target[PATH_MAX];
	/* print, info and convert read every format: only the path was wrong. */
	bool any_format = strcmp(command, "report") != 0 && strcmp(command, "replay") != 0 && strcmp(command, "script") != 0;
	const char *right = err.code == TC_ENOTFOUND ? command_for(path, !any_format, target, sizeof target) : NULL;
	if (right && any_format)
		right = command;
	if (right && strcmp(right, command) == 0 && strcmp(target, path) == 0)
		right = NULL;
	report_with_hint(&err, right, target);
}

static bool stdout_failure_reported;

int cli_stdout_failed(int errnum)
{
	/* EPIPE: the reader went away, as when `| head` has read its lines;
	 * SIGPIPE, when not ignored, ends the command as silently. */
	if (!stdout_failure_reported && errnum != EPIPE) {
		fprintf(stderr, "tracecat: standard output: %s\n", strerror(errnum ? errnum : EIO));
		fflush(stderr);
	}
	stdout_failure_reported = true;
	return 1;
}

bool cli_stdout_error(const tc_error *err)
{
	if (err->code != TC_EIO || !ferror(stdout))
		return false;
	cli_stdout_failed(err->sys_errno);
	return true;
}

/* STATUS, or 1 once a write to standard output has failed: stdio tells of
 * a failure only when it writes, which for a short text (help, --version,
 * info) is at the last flush, or at the close on some file systems. */
static int close_stdout(int status)
{
	bool failed = fflush(stdout) != 0 || ferror(stdout);
	int errnum = failed ? errno : 0;
	if (fclose(stdout) != 0 && !failed) {
		failed = true;
		errnum = errno;
	}
	return failed || stdout_failure_reported ? cli_stdout_failed(errnum) : status;
}

static int run(int argc, char **argv)
{
	if (argc < 2) {
		cli_help_overview(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (cli_is_help_option(cmd)) {
		cli_help_overview(stdout);
		return 0;
	}
	if (!strcmp(cmd, "help")) {
		if (argc == 2) {
			cli_help_overview(stdout);
			return 0;
		}
		/* `help --help` and `help help` alike: the help of help. */
		if (argc == 3 && cli_help(cli_is_help_option(argv[2]) ? "help" : argv[2], stdout))
			return 0;
		if (argc > 3)
			return cli_usage_error("", "help takes one command");
		return cli_usage_error("", "%s: unknown command", argv[2]);
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("tracecat %s\n", tc_version());
		return 0;
	}
	if (!strcmp(cmd, "print"))
		return cli_print(argc - 1, argv + 1);
	if (!strcmp(cmd, "info"))
		return cli_info(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return cli_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "convert"))
		return cli_convert(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cli_report_command(argc - 1, argv + 1);
	if (!strcmp(cmd, "script"))
		return cli_script(argc - 1, argv + 1);
	/* `tracecat PATH...` is print's shorthand; a word that is neither a
	 * command nor a path (nor an option) is a mistyped command. */
	struct stat st;
	if (cmd[0] != '-' && !strchr(cmd, '/') && lstat(cmd, &st) < 0)
		return cli_usage_error("", "%s: unknown command, and no file or directory of that name", cmd);
	return cli_print(argc, argv);
}

int main(int argc, char **argv)
{
	return close_stdout(run(argc, argv));
}
