/* SPDX-License-Identifier: MIT */
/*
 * output_path.c - where `tracecat convert` may write, decided before any
 * input is read (convert.c does the writing).
 *
 * Paths are compared by what they name, device and inode, symbolic links
 * followed, never by their text: `-o ./k.dat`, a link to an input, an
 * output folder holding an input and an output inside an input folder are
 * all the same danger.  The output may not exist yet, so its place is
 * judged by the folder that would hold it.
 *
 * --force replaces only what convert writes: a regular file for a
 * Perfetto or JSON output, and for a CTF output a directory whose every
 * file belongs to a CTF trace (a folder with a metadata file, as
 * CTF 1.8 §2 and §7.1 and CTF2-FS-1.0 lay a trace out), or an empty
 * one.  A symbolic
 * link is never replaced: rename() would replace the link, not the file
 * the user sees through it, and writing through it would lose the
 * all-or-nothing rename.
 */
#include "cli/output_path.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* known_extensions as the usage error lists them */
const char cli_output_extensions[] = ".pftrace, .perfetto-trace, .json, .ctf";

static const struct {
	const char *ext;
	cli_out_format format;
} known_extensions[] = {
	{ ".pftrace", CLI_OUT_PERFETTO },
	{ ".perfetto-trace", CLI_OUT_PERFETTO },
	{ ".json", CLI_OUT_JSON },
	{ ".ctf", CLI_OUT_CTF },   /* a folder named for what it holds */
};

bool cli_output_format_of_name(const char *out, cli_out_format *format)
{
	*format = CLI_OUT_CTF;
	const char *base = strrchr(out, '/');
	base = base ? base + 1 : out;
	/* "x/" names a folder; ".hidden" has a name, not an extension, and
	 * neither has "trace-2.6": an extension starts with a letter */
	const char *dot = strrchr(base, '.');
	if (!*base || !dot || dot == base || !isalpha((unsigned char)dot[1]))
		return true;
	for (size_t i = 0; i < sizeof known_extensions / sizeof known_extensions[0]; i++) {
		if (strcasecmp(dot, known_extensions[i].ext) == 0) {
			*format = known_extensions[i].format;
			return true;
		}
	}
	return false;
}

typedef struct file_id {
	dev_t dev;
	ino_t ino;
} file_id;

static bool id_of(const char *path, file_id *id, bool *is_dir)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return false;
	if (id)
		*id = (file_id){ st.st_dev, st.st_ino };
	if (is_dir)
		*is_dir = S_ISDIR(st.st_mode);
	return true;
}

/* Where PATH lies: the identities of PATH itself and of every folder
 * around it up to "/", nearest first.  A PATH that does not exist yet
 * lies where its folder does: its chain starts with that folder, and
 * `exists` is false.  An empty chain when not even the folder exists. */
typedef struct place {
	file_id chain[PATH_MAX / 2];
	int depth;
	bool exists;
} place;

static void place_of(const char *path, place *p)
{
	char real[PATH_MAX];
	p->depth = 0;
	p->exists = realpath(path, real) != NULL;
	if (!p->exists) {
		char parent[PATH_MAX];
		const char *slash = strrchr(path, '/');
		if (snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		             slash ? path : ".") >= (int)sizeof parent || !realpath(parent, real))
			return;
	}
	/* realpath() gives an absolute path: "/a/b", then "/a", then "/" */
	for (;;) {
		if (id_of(real, &p->chain[p->depth], NULL))
			p->depth++;
		if (real[1] == '\0')
			return;
		/* up one folder: "/a/b" to "/a", and "/a" to "/" */
		char *slash = strrchr(real, '/');
		slash[slash == real] = '\0';
	}
}

/* Whether ID is the path of P (1), a folder around it (2), or neither (0). */
static int lies_in(const place *p, const file_id *id)
{
	for (int i = 0; i < p->depth; i++)
		if (p->chain[i].dev == id->dev && p->chain[i].ino == id->ino)
			return i == 0 && p->exists ? 1 : 2;
	return 0;
}

void cli_drop_repeated_inputs(char **paths, int *count)
{
	/* Each input's identity: the same one twice is one input.  A folder
	 * input reads every trace below it, so a folder given inside another
	 * is one too, but a file inside a folder is read only when given. */
	int n = *count, kept = 0;
	file_id *ids = calloc((size_t)n + 1, sizeof *ids);
	bool *is_dir = calloc((size_t)n + 1, sizeof *is_dir), *known = calloc((size_t)n + 1, sizeof *known);
	place *p = malloc(sizeof *p);
	if (!ids || !is_dir || !known || !p)
		goto done;   /* the inputs stay as given */
	for (int i = 0; i < n; i++)
		known[i] = id_of(paths[i], &ids[i], &is_dir[i]);
	for (int j = 0; j < n; j++) {
		int same = -1, inside = -1;
		for (int i = 0; i < kept && same < 0; i++)
			if (known[i] && known[j] && ids[i].dev == ids[j].dev && ids[i].ino == ids[j].ino)
				same = i;
		if (same < 0 && known[j] && is_dir[j]) {
			place_of(paths[j], p);
			for (int i = 0; i < n && inside < 0; i++)
				if (i != j && known[i] && is_dir[i] && lies_in(p, &ids[i]) == 2)
					inside = i;
		}
		if (same >= 0 && strcmp(paths[same], paths[j]) == 0)
			fprintf(stderr, "tracecat: warning: %s given twice; read once\n", paths[j]);
		else if (same >= 0)
			fprintf(stderr, "tracecat: warning: %s and %s are the same; read once\n", paths[same], paths[j]);
		else if (inside >= 0)
			fprintf(stderr, "tracecat: warning: %s lies inside %s, given too; read once\n", paths[j], paths[inside]);
		if (same >= 0 || inside >= 0)
			continue;
		paths[kept] = paths[j];
		ids[kept] = ids[j];
		is_dir[kept] = is_dir[j];
		known[kept++] = known[j];
	}
	*count = kept;
done:
	free(ids);
	free(is_dir);
	free(known);
	free(p);
}

/* Whether the file PATH starts as CTF metadata does: TSDL text (which
 * every writer starts with the comment "CTF 1.8"), a metadata packet's magic
 * 0x75d11d57 in either byte order (CTF 1.8 §7.1), or CTF 2's JSON
 * text sequence, whose records start with RS (CTF2-SPEC-2.0, metadata
 * stream; RFC 7464). */
static bool is_ctf_metadata(const char *path)
{
	unsigned char head[4] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, head, sizeof head);
	close(fd);
	if (n >= 1 && head[0] == 0x1e)
		return true;
	return n == 4 && (memcmp(head, "/* C", 4) == 0 || memcmp(head, "\x57\x1d\xd1\x75", 4) == 0 ||
	                  memcmp(head, "\x75\xd1\x1d\x57", 4) == 0);
}

/* Whether every file below the folder PATH (LEN bytes, room for PATH_MAX)
 * lies in a CTF trace, one of its folders or one below it (an LTTng
 * trace's index/ folder); IN_TRACE: a folder above is a trace.  Counts
 * the traces in *TRACES. */
static bool holds_only_traces(char *path, size_t len, bool in_trace, int depth, unsigned *traces)
{
	struct stat st;
	if (depth > 32 || snprintf(path + len, PATH_MAX - len, "/metadata") >= (int)(PATH_MAX - len))
		return false;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && is_ctf_metadata(path)) {
		in_trace = true;
		(*traces)++;
	}
	path[len] = '\0';
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool ok = true;
	for (struct dirent *e; ok && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t sub = len + 1 + strlen(e->d_name);
		if (sub >= PATH_MAX || snprintf(path + len, PATH_MAX - len, "/%s", e->d_name) < 0 || lstat(path, &st) < 0)
			ok = false;
		else if (S_ISDIR(st.st_mode))
			ok = holds_only_traces(path, sub, in_trace, depth + 1, traces);
		else
			ok = S_ISREG(st.st_mode) && in_trace;
		path[len] = '\0';
	}
	closedir(d);
	return ok;
}

/* What convert would replace at OUT, which exists: the words for it, or
 * NULL when it is something else, *WHAT then saying what. */
static const char *replaceable(const char *out, bool is_dir, const char **what)
{
	struct stat st;
	if (lstat(out, &st) < 0)
		return *what = "something convert cannot look into", NULL;
	if (S_ISLNK(st.st_mode))
		return *what = "a symbolic link", NULL;
	if (!is_dir)
		return S_ISREG(st.st_mode) ? "a file" : (*what = S_ISDIR(st.st_mode) ? "a directory" : "a special file", NULL);
	if (!S_ISDIR(st.st_mode))
		return *what = S_ISREG(st.st_mode) ? "a file" : "a special file", NULL;
	char path[PATH_MAX];
	unsigned traces = 0;
	snprintf(path, sizeof path, "%s", out);
	if (!holds_only_traces(path, strlen(path), false, 0, &traces))
		return *what = "a directory holding other files than CTF traces", NULL;
	/* an empty one holds nothing to lose (mkdir OUT, then convert) */
	return traces ? "a CTF trace directory" : "an empty directory";
}

int cli_check_output(const char *out, bool is_dir, char **inputs, int count, bool force, const char **replacing)
{
	*replacing = NULL;
	place *out_place = malloc(sizeof *out_place), *in_place = malloc(sizeof *in_place);
	if (!out_place || !in_place) {
		free(out_place);
		free(in_place);
		fprintf(stderr, "tracecat: out of memory\n");
		return 1;
	}
	place_of(out, out_place);
	file_id o = { 0 };
	bool out_is_dir = false, out_exists = id_of(out, &o, &out_is_dir);
	const char *relation = NULL, *input = NULL;
	for (int i = 0; i < count && !relation; i++) {
		file_id in;
		if (!id_of(inputs[i], &in, NULL))
			continue;   /* opening it will say why */
		input = inputs[i];
		int where = lies_in(out_place, &in);
		if (where == 1)
			relation = "is the input %s; convert never writes over its input";
		else if (where == 2)
			relation = "lies inside the input %s; convert never writes into its input";
		else if (out_exists && out_is_dir && (place_of(input, in_place), lies_in(in_place, &o)))
			relation = "holds the input %s; convert never replaces its input";
	}
	free(out_place);
	free(in_place);
	if (relation) {
		fprintf(stderr, "tracecat: %s: ", out);
		fprintf(stderr, relation, input);
		fputc('\n', stderr);
		return 1;
	}
	struct stat st;
	if (lstat(out, &st) < 0)
		return 0;
	const char *what = NULL, *kind = replaceable(out, is_dir, &what);
	if (!kind) {
		fprintf(stderr, "tracecat: %s: already exists as %s, which convert does not replace (only %s)\n", out, what,
		        is_dir ? "a CTF trace directory" : "a file");
		return 1;
	}
	if (!force) {
		fprintf(stderr, "tracecat: %s: already exists (--force replaces it)\n", out);
		return 1;
	}
	*replacing = kind;
	return 0;
}
