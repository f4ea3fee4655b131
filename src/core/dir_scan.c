/* SPDX-License-Identifier: MIT */
/*
 * dir_scan.c - every trace below a folder given to tc_input_open(), of
 * every format, read into one input as if each had been named on the
 * command line: a folder holding a trace.dat file, a uftrace record
 * directory and CTF traces gives all of them, merged by time, instead of
 * the CTF traces alone (issue 21).
 *
 *   1. The CTF reader finds its own traces, every folder holding a
 *      `metadata` file (doc/formats/ctf.md §2): it must see them all at
 *      once to merge those of one UUID.
 *   2. This scan walks the rest, not looking inside CTF traces: a folder
 *      holding an `info` file is offered to the uftrace reader, every
 *      other folder to the legacy LTTng reader (which takes one holding
 *      tracefiles, NAME_CPU, with its subfolders:
 *      doc/formats/lttng-legacy.md §2), and every
 *      regular file outside those to the perf.data and trace.dat readers,
 *      which take it by its magic whatever its name.  Each takes what is its own and
 *      answers TC_ENOTFOUND for the rest.
 *
 * A trace found below the folder keeps its place in it (dir_in_input), so
 * that convert writes it at the same place below its output folder.  A
 * folder reached again through a symbolic link is not read twice.  An
 * entry that cannot be looked at (a symbolic link loop, a folder that
 * cannot be listed, a file that cannot be opened) is an error, as it is
 * for the CTF reader: it may be or hold a trace.
 */
#include "core/core.h"
#include "core/formats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Opens PATH with FORMAT into IN; the traces it adds lie at REL below the
 * folder scanned.  0, TC_ENOTFOUND when PATH is not FORMAT's, or an error. */
static int open_below(tc_input *in, const tc_format *format, const char *path, const char *rel,
                      const tc_open_options *opts)
{
	size_t first = in->trace_count;
	int rc = format->open(in, path, opts);
	if (rc < 0 || !rel[0])
		return rc;
	char *place = strdup(rel);
	if (!place)
		return tc_fail_nomem();
	if ((rc = tc_input_own(in, place, free)) < 0)
		return rc;
	for (size_t i = first; i < in->trace_count; i++)
		in->traces[i]->dir_in_input = place;
	return 0;
}

/* The type (S_IFREG, S_IFDIR...) of DIR's entry NAME into *TYPE, 0 when
 * there is none; FOLLOW: of what a symbolic link leads to (0 for a broken
 * one), else of the entry itself.  0 or TC_ENOMEM. */
static int entry_type(const char *dir, const char *name, bool follow, mode_t *type)
{
	char *path = tc_path_join(dir, name);
	/* Set on failure too: gcc 16 cannot tell that callers read it only
	 * on success, and warns. */
	*type = 0;
	if (!path)
		return tc_fail_nomem();
	struct stat st;
	*type = (follow ? stat(path, &st) : lstat(path, &st)) == 0 ? st.st_mode & S_IFMT : 0;
	free(path);
	return 0;
}

/* A regular file to the perf.data and trace.dat readers, which would take
 * one they cannot open for no trace at all. */
static int offer_file(tc_input *in, const char *path, const char *rel, const tc_open_options *opts)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return tc_fail_open(path);
	close(fd);
	int rc = open_below(in, &tc_format_perf, path, rel, opts);
	if (rc == TC_ENOTFOUND)
		rc = open_below(in, &tc_format_tracedat, path, rel, opts);
	return rc == TC_ENOTFOUND ? 0 : rc;
}

/* Where scan() is in its walk, for scan_entry(). */
typedef struct folder_scan {
	tc_input *in;
	tc_buf *seen;
	int depth;
	const tc_open_options *opts;
} folder_scan;

static int scan_entry(void *ctx, const char *path, const char *rel, const struct stat *st);

static int scan(tc_input *in, tc_buf *seen, const char *dir, const char *rel, int depth, const tc_open_options *opts)
{
	mode_t metadata, info;
	int rc = entry_type(dir, "metadata", true, &metadata);
	if (rc < 0 || metadata == S_IFREG)
		return rc;
	if ((rc = entry_type(dir, "info", true, &info)) < 0)
		return rc;
	if (info == S_IFREG && (rc = open_below(in, &tc_format_uftrace, dir, rel, opts)) != TC_ENOTFOUND)
		return rc;
	if ((rc = open_below(in, &tc_format_lttng_legacy, dir, rel, opts)) != TC_ENOTFOUND)
		return rc;
	if (depth >= TC_MAX_DIR_DEPTH)
		return 0;
	return tc_visit_entries(seen, dir, rel, scan_entry, &(folder_scan){ in, seen, depth, opts });
}

static int scan_entry(void *ctx, const char *path, const char *rel, const struct stat *st)
{
	const folder_scan *s = ctx;
	if (S_ISDIR(st->st_mode))
		return scan(s->in, s->seen, path, rel, s->depth + 1, s->opts);
	return offer_file(s->in, path, rel, s->opts);
}

int tc_open_dir(tc_input *in, const char *path, const tc_open_options *opts)
{
	/* A folder named on its own that holds uftrace's `info` (and no CTF
	 * metadata) is a record directory, whatever state its files are in:
	 * the uftrace reader says what is wrong with them, and the search
	 * below does not walk its files (a .sym file uftrace can do without
	 * is no error for a search that never needed it). */
	mode_t metadata, info = 0;
	int rc = entry_type(path, "metadata", true, &metadata);
	if (rc == 0 && metadata != S_IFREG)
		rc = entry_type(path, "info", false, &info);
	if (rc < 0)
		return rc;
	if (info)
		return tc_format_uftrace.open(in, path, opts);
	rc = tc_format_ctf.open(in, path, opts);
	if (rc < 0 && rc != TC_ENOTFOUND)
		return rc;
	struct stat st;
	tc_buf seen = { 0 };
	if (stat(path, &st) < 0)
		return tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
	if ((rc = tc_dir_first_visit(&seen, &st)) > 0)
		rc = scan(in, &seen, path, "", 0, opts);
	tc_buf_free(&seen);
	if (rc < 0)
		return rc;
	return in->trace_count ? 0 : TC_ENOTFOUND;
}
