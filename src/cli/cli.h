/*
 * cli.h - the tracecat command-line tool's commands.  The CLI is the only
 * part of tracecat that writes to the terminal: the library returns errors,
 * and the CLI prints them as one line and exits with status 1.
 */
#ifndef TC_CLI_H
#define TC_CLI_H

#include "tracecat.h"

int cli_print(int argc, char **argv);
int cli_info(int argc, char **argv);
int cli_report_command(int argc, char **argv);

/* Prints ERR (or the library's last error) as "tracecat: PATH: at byte N: MSG". */
void cli_report(const tc_error *err);
void cli_report_error(void);

/* Opens every path of PATHS into INPUTS (caller frees them); 0 or 1 (error shown). */
int cli_open_inputs(char **paths, int count, const tc_open_options *opts, tc_input ***inputs);
void cli_free_inputs(tc_input **inputs, int count);

#endif /* TC_CLI_H */
