/* SPDX-License-Identifier: MIT */
/*
 * progress.h - the progress line of a long `tracecat convert`
 * (progress.c): drawn on standard error, and only when it is a terminal,
 * so that logs and pipes never see it.
 */
#ifndef TC_CLI_PROGRESS_H
#define TC_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct cli_progress {
	bool tty;                  /* standard error is a terminal */
	bool shown;                /* a line was drawn: end it with a newline */
	size_t width;              /* of the line drawn last, to blank its rest */
	struct timespec start, last;
	uint64_t total;            /* bytes of the inputs' files */
} cli_progress;

/* Starts the clock, and adds up the sizes of the files of the COUNT
 * inputs PATHS (every file below a directory). */
void cli_progress_start(cli_progress *p, char *const *paths, int count);

/* Draws the line once the work has taken a second, four times a second
 * (or now, FORCE), for EVENTS read, WRITTEN bytes written, and DONE of
 * the inputs' bytes consumed (0 when not known). */
void cli_progress_draw(cli_progress *p, bool force, uint64_t events, uint64_t written, uint64_t done);

/* Ends a line drawn. */
void cli_progress_end(cli_progress *p);

/* The text of the line, without "\r": events, megabytes written, seconds
 * taken and, when DONE and TOTAL are known, the percentage and the time
 * left at the pace so far.  Into BUF (SIZE bytes); returns its length. */
size_t cli_progress_text(char *buf, size_t size, uint64_t events, uint64_t written, double seconds, uint64_t done,
                         uint64_t total);

#endif /* TC_CLI_PROGRESS_H */
