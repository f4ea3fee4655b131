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
 * CTF 1.8 section 7 and CTF 2 section 4 lay a trace out), or an empty
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

/* Whether PATH, or a folder it lies in, is ID: 0 no, 1 PATH itself, 2 a
 * folder around it.  A PATH that does not exist yet lies where its folder
 * does. */
static int lies_in(const char *path, const file_id *id)
{
	char real[PATH_MAX];
	int self = 1;
	if (!realpath(path, real)) {
		/* not there yet: its folder, resolved, is where it would be */
		char parent[PATH_MAX];
		const char *slash = strrchr(path, '/');
		if (snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		             slash ? path : ".") >= (int)sizeof parent || !realpath(parent, real))
			return 0;
		self = 2;
	}
	for (;;) {
		file_id here;
		if (id_of(real, &here, NULL) && here.dev == id->dev && here.ino == id->ino)
			return self;
		char *slash = strrchr(real, '/');
		if (!slash || slash == real) {
			if (real[1] == '\0')
				return 0;
			real[1] = '\0';       /* then "/" itself */
		} else {
			*slash = '\0';
		}
		self = 2;
	}
}

/* Whether reading input A reads input B too: 0 no, 1 B is A, 2 B is a
 * folder below the folder A (an input reads every trace below its folder,
 * but a file inside it only when given). */
static int covers(const char *a, const char *b)
{
	file_id id;
	bool a_dir, b_dir;
	if (!id_of(a, &id, &a_dir) || !id_of(b, NULL, &b_dir))
		return 0;
	int where = lies_in(b, &id);
	return where == 2 && !(a_dir && b_dir) ? 0 : where;
}

void cli_drop_repeated_inputs(char **paths, int *count)
{
	for (int j = 1; j < *count; j++) {
		for (int i = 0; i < j; i++) {
			int drop = j, kept = i, how = covers(paths[i], paths[j]);
			if (!how && covers(paths[j], paths[i]) == 2)
				drop = i, kept = j, how = 2;
			if (!how)
				continue;
			if (how == 1 && strcmp(paths[i], paths[j]) == 0)
				fprintf(stderr, "tracecat: warning: %s given twice; read once\n", paths[j]);
			else if (how == 1)
				fprintf(stderr, "tracecat: warning: %s and %s are the same; read once\n", paths[i], paths[j]);
			else
				fprintf(stderr, "tracecat: warning: %s lies inside %s, given too; read once\n", paths[drop],
				        paths[kept]);
			memmove(&paths[drop], &paths[drop + 1], (size_t)(*count - drop - 1) * sizeof *paths);
			(*count)--;
			j = 0;   /* the list changed: look again from its start */
			break;
		}
	}
}

/* Whether the file PATH starts as CTF metadata does: TSDL text (which
 * every writer starts with the comment "CTF 1.8"), a metadata packet's magic
 * 0x75d11d57 in either byte order (CTF 1.8 section 7.1), or CTF 2's JSON
 * text sequence, whose records start with RS (CTF 2 section 4, RFC 7464). */
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
	for (int i = 0; i < count; i++) {
		file_id in, o;
		bool out_is_dir;
		if (!id_of(inputs[i], &in, NULL))
			continue;   /* opening it will say why */
		int where = lies_in(out, &in);
		if (where == 1) {
			fprintf(stderr, "tracecat: %s: is the input %s; convert never writes over its input\n", out, inputs[i]);
			return 1;
		}
		if (where == 2) {
			fprintf(stderr, "tracecat: %s: lies inside the input %s; convert never writes into its input\n", out,
			        inputs[i]);
			return 1;
		}
		if (id_of(out, &o, &out_is_dir) && out_is_dir && lies_in(inputs[i], &o)) {
			fprintf(stderr, "tracecat: %s: holds the input %s; convert never replaces its input\n", out, inputs[i]);
			return 1;
		}
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
