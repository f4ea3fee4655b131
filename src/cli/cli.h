/* SPDX-License-Identifier: MIT */
/*
 * cli.h - the tracecat command-line tool's commands.  The CLI is the only
 * part of tracecat that writes to the terminal: the library returns errors,
 * and the CLI prints them as one line and exits with status 1.
 */
#ifndef TC_CLI_H
#define TC_CLI_H

#include "tracecat.h"

#if defined(__GNUC__)
#define TC_CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TC_CLI_PRINTF(a, b)
#endif

int cli_print(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_report_command(int argc, char **argv);
int cli_script(int argc, char **argv);

/* Prints ERR (or the library's last error) as "tracecat: PATH: at byte N: MSG". */
void cli_report(const tc_error *err);
void cli_report_error(void);
/* Reports, once however often called, that a write to standard output
 * failed with the system's ERRNUM: "tracecat: standard output: No space
 * left on device" (nothing for EPIPE: the reader has gone, as after `|
 * head`).  Returns 1, the exit status.  main() checks the last flush and
 * the close of standard output with it, for every command. */
int cli_stdout_failed(int errnum);
/* Whether ERR, from a library function given stdout, is a failed write to
 * it; if so it is reported as cli_stdout_failed() does. */
bool cli_stdout_error(const tc_error *err);

/* Opens every path of PATHS into INPUTS (caller frees them); 0 or 1 (error
 * shown, as by cli_report_open_error). */
int cli_open_inputs(const char *command, char **paths, int count, const tc_open_options *opts, tc_input ***inputs);
/* Prints the last error of opening PATH for COMMAND and, when PATH (or the
 * directory around it) is a trace another command reads, which one:
 * "tracecat: t.dat: a file, not a uftrace record directory; try: tracecat
 * report t.dat". */
void cli_report_open_error(const char *command, const char *path);

/* Help texts (help.c).  cli_help() prints COMMAND's help and returns false
 * for an unknown command. */
void cli_help_overview(FILE *f);
bool cli_help(const char *command, FILE *f);
bool cli_is_help_option(const char *arg);
/* Prints "tracecat: MESSAGE (see tracecat help COMMAND)" and returns 2, the
 * exit status of a usage error. */
int cli_usage_error(const char *command, const char *fmt, ...) TC_CLI_PRINTF(2, 3);
void cli_free_inputs(tc_input **inputs, int count);

/* Matches "--name=V", "--name V" (or "-s V" for SHORT_NAME); sets *VAL and
 * advances *I past a separate value (exits with status 2 if it is missing). */
bool cli_opt_value(int argc, char **argv, int *i, const char *name, const char *short_name, const char **val);

/* A whole decimal number V from LO to HI into *OUT; false otherwise. */
bool cli_parse_int(const char *v, long long lo, long long hi, long long *out);

/* -j/--jobs N: the threads a command decodes on, the online CPUs unless
 * given (exits with status 2 on a malformed value). */
unsigned cli_default_jobs(void);
bool cli_jobs_option(int argc, char **argv, int *i, const char *command, unsigned *jobs);
/* The value V of -j/--jobs (exits with status 2 when malformed). */
unsigned cli_jobs_value(const char *command, const char *v);

/* replay's pager on a terminal (pager.c): cli_pager_start() sends
 * standard output to it when there is one to run (PG->pid 0 otherwise);
 * cli_pager_end() closes its input and waits for it. */
typedef struct cli_pager {
	int pid;
	int saved_stderr;
} cli_pager;
void cli_pager_start(cli_pager *pg);
void cli_pager_end(cli_pager *pg);

/* The peer releases whose text COMMAND writes (or, for info and convert,
 * whose reading of traces it follows): tc_compat_default(), then
 * TRACECAT_COMPAT when set, for scripts.  Exits with status 2, naming the
 * variable, when it is malformed. */
tc_compat cli_compat_default(const char *command);
/* --compat SPEC: the releases SPEC names replace those in *C (exits with
 * status 2 when malformed). */
bool cli_compat_option(int argc, char **argv, int *i, const char *command, tc_compat *c);
/* The same for a value V already taken by getopt. */
void cli_compat_value(const char *command, const char *v, tc_compat *c);

/* Calls READ(state, I) for every stream I of IN, on up to JOBS threads
 * (the caller's first), each thread with its own of the JOBS states of
 * STATE_SIZE bytes at STATES (the first for the calling thread).  READ
 * returns 0, -1 (error recorded) or less to stop its thread.  Returns 0,
 * or the code of the lowest-numbered stream that failed, its error in
 * *ERR.  Needs no order between streams (streams.c). */
int cli_read_streams(tc_input *in, unsigned jobs, int (*read)(void *state, size_t stream), void *states,
                     size_t state_size, tc_error *err);

/* --begin, --end (or --timerange), --events, --cpu as given; built once every option is
 * known, since --clock-gmt decides the time zone of --begin and --end. */
typedef struct cli_filter_args {
	const char *begin, *end, *events, *cpus;
	bool begin_given, end_given;   /* by --begin, --end themselves */
} cli_filter_args;

/* Takes argv[*I] if it is a filter option. */
bool cli_filter_option(int argc, char **argv, int *i, cli_filter_args *fa);
/* 0, or 2 after reporting a malformed value. */
int cli_filter_build(const cli_filter_args *fa, bool gmt, tc_filter **out);
/* Whether FILTER (a tc_filter) keeps events of class EC: what `print`
 * and `convert` tell tc_input_want_values, so that the events they leave
 * out get no values built. */
bool cli_filter_keeps_class(void *filter, const tc_event_class *ec);
/* --stream-intersection: gives F, for every trace of INPUTS, the time
 * range all its streams cover (babeltrace2's rule); with VERBOSE, says
 * each range on stderr.  0, or 1 after reporting a trace without one.
 * Runs before any message is read. */
int cli_stream_intersection(tc_input **inputs, int count, tc_filter *f, bool verbose);

int cli_convert(int argc, char **argv);
int cli_replay(int argc, char **argv);

#endif /* TC_CLI_H */
