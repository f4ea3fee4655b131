/* SPDX-License-Identifier: MIT */
/*
 * output_path.h - where `tracecat convert` may write (output_path.c): the
 * format an output's name asks for, and the checks made before anything
 * is read, so that no input is ever at risk and --force replaces only
 * what convert itself would have written there.
 */
#ifndef TC_CLI_OUTPUT_PATH_H
#define TC_CLI_OUTPUT_PATH_H

#include <stdbool.h>

typedef enum cli_out_format { CLI_OUT_CTF, CLI_OUT_PERFETTO, CLI_OUT_JSON } cli_out_format;

/* The extensions convert knows, as its usage error lists them. */
extern const char cli_output_extensions[];

/* The format OUT's name asks for: the format of its extension (the
 * last '.' of its name and what follows, which starts with a letter),
 * matched case-insensitively, or CTF (a directory) for a name without
 * one or ending in '/'.  False for an extension convert does not know. */
bool cli_output_format_of_name(const char *out, cli_out_format *format);

/* Drops from PATHS (*COUNT of them) the inputs another one already
 * reads: the same file or directory given twice (by any path), or a
 * directory inside another directory given, saying so on stderr.  As
 * babeltrace2 does, such an input is read once. */
void cli_drop_repeated_inputs(char **paths, int *count);

/* 0, or 1 after saying on stderr why OUT may not be written: it is an
 * input, lies inside one or holds one (with or without FORCE), or holds
 * something convert would not have written there (a file for a file
 * output, IS_DIR false; for a directory output a directory holding only
 * CTF traces, or nothing), or FORCE is not given.  When FORCE replaces
 * what is there, *REPLACING says what it is ("a file", "a CTF trace
 * directory", "an empty directory"), else it is NULL. */
int cli_check_output(const char *out, bool is_dir, char **inputs, int count, bool force, const char **replacing);

#endif /* TC_CLI_OUTPUT_PATH_H */
