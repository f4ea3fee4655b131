/* SPDX-License-Identifier: MIT */
/*
 * progress_test.c - the text of `tracecat convert`'s progress line
 * (src/cli/progress.c): a table of figures (events, bytes written,
 * seconds, input bytes done and in all) and the line each must give.
 * That the line is drawn only on a terminal is tests/live/convert-safety.sh's.
 * The CLI is not part of the library the unit tests link, so the file
 * under test is compiled in here.
 */
#include "../../src/cli/progress.c"

#include <string.h>

#include "check.h"

static const struct {
	uint64_t events, written;
	double seconds;
	uint64_t done, total;
	const char *line;
} cases[] = {
	/* size unknown: no percentage, no time left */
	{ 1234, 5600000, 1.25, 0, 0, "tracecat: converting: 1234 events, 5.6 MB written, 1.2 s" },
	{ 1234, 5600000, 1.25, 10, 0, "tracecat: converting: 1234 events, 5.6 MB written, 1.2 s" },
	/* nothing done yet: a percentage, but no pace to go by */
	{ 0, 0, 2.0, 0, 1000, "tracecat: converting: 0%, 0 events, 0.0 MB written, 2.0 s" },
	/* a quarter in 3 s: 9 s left */
	{ 10, 1000000, 3.0, 250, 1000, "tracecat: converting: 25%, 10 events, 1.0 MB written, 3.0 s, 9 s left" },
	/* minutes with their seconds, hours with their minutes */
	{ 7, 0, 10.0, 1, 20, "tracecat: converting: 5%, 7 events, 0.0 MB written, 10.0 s, 3 min 10 s left" },
	{ 7, 0, 100.0, 1, 100, "tracecat: converting: 1%, 7 events, 0.0 MB written, 100.0 s, 2 h 45 min left" },
	/* under a second of work: no pace yet */
	{ 7, 0, 0.5, 1, 2, "tracecat: converting: 50%, 7 events, 0.0 MB written, 0.5 s" },
	/* 99.96% is not done: 99% until every byte is */
	{ 9, 0, 4.0, 9996, 10000, "tracecat: converting: 99%, 9 events, 0.0 MB written, 4.0 s, 0 s left" },
	{ 9, 0, 4.0, 10000, 10000, "tracecat: converting: 100%, 9 events, 0.0 MB written, 4.0 s" },
	/* more than the inputs' size (an estimate): done, nothing left */
	{ 9, 0, 4.0, 12000, 10000, "tracecat: converting: 100%, 9 events, 0.0 MB written, 4.0 s" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char line[256], name[64];
		size_t len = cli_progress_text(line, sizeof line, cases[i].events, cases[i].written, cases[i].seconds,
		                               cases[i].done, cases[i].total);
		snprintf(name, sizeof name, "progress/line-%zu", i);
		check(strcmp(line, cases[i].line) == 0 && len == strlen(line), name, "got \"%s\" (%zu bytes), want \"%s\"",
		      line, len, cases[i].line);
	}
	/* a buffer too small gets the start of the line, NUL-terminated */
	char small[16];
	size_t len = cli_progress_text(small, sizeof small, 1, 2, 3.0, 4, 5);
	check(len == sizeof small - 1 && strncmp(small, "tracecat: conve", sizeof small) == 0, "progress/short-buffer",
	      "got \"%s\" (%zu bytes)", small, len);
	return n_fail ? 1 : 0;
}
