/* SPDX-License-Identifier: MIT */
/*
 * progress.c - the progress line of a long `tracecat convert`: events
 * read, megabytes written, seconds taken and, since the size of the
 * inputs is known before the work starts, how much of them is done and
 * the time left at the pace so far.  It is redrawn in place ("\r") on
 * standard error, only when that is a terminal; convert.c says how much
 * of the input is consumed.
 */
#include "cli/progress.h"

#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* nftw() gives its callback no context: the sum being made, on the one
 * thread that starts a conversion. */
static uint64_t tree_bytes;

static int add_file(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F && S_ISREG(st->st_mode))
		tree_bytes += (uint64_t)st->st_size;
	return 0;
}

/* The bytes of input PATH's files. */
static uint64_t input_bytes(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	tree_bytes = 0;
	nftw(path, add_file, 16, FTW_PHYS);
	return tree_bytes;
}

void cli_progress_start(cli_progress *p, char *const *paths, int count)
{
	*p = (cli_progress){ .tty = isatty(STDERR_FILENO) };
	for (int i = 0; i < count && p->tty; i++)
		p->total += input_bytes(paths[i]);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

/* "7 s", "3 min 05 s", "2 h 07 min": as precise as an estimate deserves. */
static int time_text(char *buf, size_t size, double seconds)
{
	unsigned long s = (unsigned long)(seconds + 0.5);
	if (s < 60)
		return snprintf(buf, size, "%lu s", s);
	if (s < 3600)
		return snprintf(buf, size, "%lu min %02lu s", s / 60, s % 60);
	return snprintf(buf, size, "%lu h %02lu min", s / 3600, s / 60 % 60);
}

/* Appends what FMT makes to BUF (SIZE bytes, *LEN of them used), cut
 * short when it must be. */
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	if (*len + 1 >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

size_t cli_progress_text(char *buf, size_t size, uint64_t events, uint64_t written, double seconds, uint64_t done,
                         uint64_t total)
{
	size_t len = 0;
	if (size)
		buf[0] = '\0';
	add(buf, size, &len, "tracecat: converting: ");
	if (total > 0) {
		/* 100% only once every byte is done, however close */
		double percent = done >= total ? 100.0 : (double)done * 100.0 / (double)total;
		add(buf, size, &len, "%u%%, ", done >= total ? 100u : percent >= 99.0 ? 99u : (unsigned)percent);
	}
	add(buf, size, &len, "%llu events, %.1f MB written, %.1f s", (unsigned long long)events, (double)written / 1e6,
	    seconds);
	/* the pace so far, once there is one to go by */
	if (total > 0 && done > 0 && done < total && seconds >= 1.0) {
		char left[32];
		time_text(left, sizeof left, seconds * (double)(total - done) / (double)done);
		add(buf, size, &len, ", %s left", left);
	}
	return len;
}

void cli_progress_draw(cli_progress *p, bool force, uint64_t events, uint64_t written, uint64_t done)
{
	if (!p->tty)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double seconds = since(&p->start, &now);
	if (seconds < 1.0 || (!force && since(&p->last, &now) < 0.25))
		return;
	p->last = now;
	p->shown = true;
	char line[256];
	size_t len = cli_progress_text(line, sizeof line, events, written, seconds, done, p->total);
	/* blanks over what a longer line before left */
	fprintf(stderr, "\r%s%*s", line, p->width > len ? (int)(p->width - len) : 0, "");
	p->width = len;
}

void cli_progress_end(cli_progress *p)
{
	if (p->shown)
		fputc('\n', stderr);
	p->shown = false;
}
