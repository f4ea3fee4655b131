/* SPDX-License-Identifier: MIT */
/*
 * convert.c - `tracecat convert INPUT... -o OUT`: any input to CTF (1.8 or
 * 2), or to one Perfetto or Chrome JSON file (--format, or OUT's
 * extension: .pftrace, .perfetto-trace, .json).
 *
 * Every trace read becomes an output trace.  Unfiltered CTF is copied
 * packet for packet (tc_ctf_copy); everything else goes through the
 * writer, and traces of different inputs that share a clock (and a
 * hostname) go into one writer, so into one trace, unless they could be
 * copied; traces found in one input stay apart, as they were.  Each gets
 * the folder it had below its input (prefixed by the input's name when
 * there are several inputs), copied or not: a filter never moves a trace.
 * Where the output may go, and what --force replaces, is output_path.c's.
 *
 * Streams are read and written on -j threads at once (the writer takes
 * messages of different streams from different threads): what each
 * stream's file holds does not depend on which thread wrote it.
 *
 * Nothing is written at OUTDIR until the end: the work goes into a hidden
 * folder beside it, renamed into place once complete, so an error, ^C or
 * a kill leaves no half trace.  An existing OUTDIR is replaced only with
 * --force, and only once the new trace is complete.  Errors name OUTDIR,
 * never the hidden folder; after a signal, convert removes its work and
 * dies by the signal.
 *
 * A Perfetto or JSON file holds every input on one timeline: the inputs
 * are merged by time (a muxer) into one tc_timeline_writer writing a
 * hidden file beside OUT, renamed into place the same way, or to the
 * standard output (-o -).
 */
#include "cli/cli.h"
#include "cli/output_path.h"
#include "cli/progress.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The signal that asked convert to stop, 0 for none: once the half
 * written output is removed, convert dies by it (die_by_signal). */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

/* A signal ignored from the start stays ignored: `nohup tracecat
 * convert` goes on after a hangup. */
static void catch_signals(void)
{
	static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
		struct sigaction was, sa = { .sa_handler = on_signal };
		if (sigaction(signals[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
			sigaction(signals[i], &sa, NULL);
	}
}

/* Ends convert as the signal that interrupted it would have, so that the
 * shell sees 128 + its number (130 for ^C) and a loop of conversions
 * stops, as it does for `print`. */
static void die_by_signal(void)
{
	if (!interrupted)
		return;
	signal(interrupted, SIG_DFL);
	raise(interrupted);
}

/* Reports ERR; a failure of a file in WORK, a path the user never sees
 * (the hidden work folder or file, or the writer's name for its output),
 * is reported as one of SHOWN, the output the user named: "tracecat: OUT:
 * No space left on device". */
/* How errors name -o -; report_output_error() knows it by its address. */
static const char stdout_name[] = "standard output";

static void report_output_error(const tc_error *err, const char *work, const char *shown)
{
	size_t n = strlen(work);
	bool outputs = strncmp(err->path, work, n) == 0 && (err->path[n] == '\0' || err->path[n] == '/');
	/* standard output's failures are told as every command tells them */
	if (outputs && shown == stdout_name && err->sys_errno)
		cli_stdout_failed(err->sys_errno);
	else if (outputs)
		fprintf(stderr, "tracecat: %s: %s\n", shown, err->message);
	else
		cli_report(err);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *path)
{
	nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* One output trace: a copy of one CTF trace, or a writer of several. */
typedef struct job {
	tc_input *copy_from;     /* copy job */
	tc_trace **traces;       /* the traces it holds */
	size_t trace_count;
	char dir[PATH_MAX];
	tc_ctf_writer *writer;
	int input;               /* the input of its first trace */
} job;

typedef struct convert_state {
	job *jobs;
	size_t count;
	tc_timeline_writer *timeline;   /* Perfetto or JSON output */
	int ctf_version;         /* of the output: 1 or 2 */
	cli_progress progress;
	atomic_uint_least64_t events;
	/* The inputs' bytes consumed: those copied, and those the readers
	 * have read (tc_input_bytes_read), on whatever thread. */
	uint64_t bytes_copied;
	tc_input **inputs;
	int input_count;
} convert_state;

static uint64_t bytes_written(const convert_state *cs)
{
	uint64_t n = cs->bytes_copied + (cs->timeline ? tc_timeline_writer_bytes(cs->timeline) : 0);
	for (size_t i = 0; i < cs->count; i++)
		if (cs->jobs[i].writer)
			n += tc_ctf_writer_bytes(cs->jobs[i].writer);
	return n;
}

/* The progress line; COMPLETE: the last one, of a conversion that ended well. */
static void progress(convert_state *cs, bool force, bool complete)
{
	uint64_t done = cs->bytes_copied;
	for (int i = 0; i < cs->input_count; i++)
		done += tc_input_bytes_read(cs->inputs[i]);
	/* The count leaves out the files no reader looks at (a CTF index),
	 * and a copied stream's first packet may be read as well as copied:
	 * it is done when the conversion is, not before. */
	if (complete)
		done = cs->progress.total;
	else if (cs->progress.total && done >= cs->progress.total)
		done = cs->progress.total - 1;
	cli_progress_draw(&cs->progress, force, atomic_load_explicit(&cs->events, memory_order_relaxed),
	                  bytes_written(cs), done);
}

/* Counts an event in a thread's own *EVENTS, and into the total the
 * threads share once in 65536 events (an atomic add for every event
 * costs as much as writing it): true then, time for progress.  The
 * thread adds what is left with counted_rest() at its end. */
static bool count_event(convert_state *cs, uint64_t *events)
{
	if ((++*events & 0xffff) != 0)
		return false;
	atomic_fetch_add_explicit(&cs->events, 0x10000, memory_order_relaxed);
	return true;
}

static void counted_rest(convert_state *cs, uint64_t events)
{
	atomic_fetch_add_explicit(&cs->events, events & 0xffff, memory_order_relaxed);
}

/* Clocks are shared when every clock of A has an identical one in B
 * (same name, frequency, offset and UUID). */
static bool same_clock(const tc_clock *a, const tc_clock *b)
{
	return strcmp(a->name, b->name) == 0 && a->freq == b->freq && a->offset_s == b->offset_s &&
	       a->offset == b->offset && a->has_uuid == b->has_uuid && (!a->has_uuid || !memcmp(a->uuid, b->uuid, 16));
}

static bool share_clocks(const tc_trace *a, const tc_trace *b)
{
	if (a->clock_count == 0 || a->clock_count != b->clock_count)
		return false;
	for (size_t i = 0; i < a->clock_count; i++) {
		bool found = false;
		for (size_t j = 0; j < b->clock_count && !found; j++)
			found = same_clock(a->clocks[i], b->clocks[j]);
		if (!found)
			return false;
	}
	/* and so does the machine, or the second would show the first's name */
	const tc_env_entry *ha = tc_trace_env(a, "hostname"), *hb = tc_trace_env(b, "hostname");
	return a->format == b->format && (!ha) == (!hb) &&
	       (!ha || (!ha->is_int && !hb->is_int && strcmp(ha->str_value, hb->str_value) == 0));
}

static int add_trace(job *j, tc_trace *t)
{
	tc_trace **n = realloc(j->traces, (j->trace_count + 1) * sizeof *n);
	if (!n)
		return -1;
	n[j->trace_count++] = t;
	j->traces = n;
	return 0;
}

static const char *base_name(const char *path)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	const char *b = path + len;
	while (b > path && b[-1] != '/')
		b--;
	return b;
}

/* Plans the output traces of INPUTS. */
static int plan_jobs(convert_state *cs, tc_input **inputs, char **paths, int n, bool filtering, const char *tmp)
{
	size_t total = 0;
	for (int i = 0; i < n; i++)
		total += tc_input_trace_count(inputs[i]);
	if (!(cs->jobs = calloc(total ? total : 1, sizeof *cs->jobs)))
		return -1;
	for (int i = 0; i < n; i++) {
		for (size_t k = 0; k < tc_input_trace_count(inputs[i]); k++) {
			tc_trace *t = tc_input_trace(inputs[i], k);
			job *j = NULL;
			/* A trace that can be copied is a trace of its own even when
			 * a filter has the writer encode it: a filter changes which
			 * events are written, never where. */
			bool copyable = tc_ctf_can_copy(t, cs->ctf_version);
			for (size_t q = 0; q < cs->count && !j && !copyable; q++)
				if (!tc_ctf_can_copy(cs->jobs[q].traces[0], cs->ctf_version) && cs->jobs[q].input != i &&
				    share_clocks(cs->jobs[q].traces[0], t))
					j = &cs->jobs[q];
			if (!j) {
				j = &cs->jobs[cs->count++];
				if (copyable && !filtering)
					j->copy_from = inputs[i];
			}
			if (add_trace(j, t) < 0)
				return -1;
			if (j->trace_count > 1)
				continue;
			j->input = i;
			/* Its folder, from its input's name and its place in it. */
			char rel[PATH_MAX];
			/* a copy keeps its files' places below the input */
			const char *in_dir = j->copy_from || !t->dir_in_input ? "" : t->dir_in_input;
			if (n > 1)
				snprintf(rel, sizeof rel, "%s%s%s", base_name(paths[i]), *in_dir ? "/" : "", in_dir);
			else
				snprintf(rel, sizeof rel, "%s", in_dir);
			if (snprintf(j->dir, sizeof j->dir, "%s%s%s", tmp, *rel ? "/" : "", rel) >= (int)sizeof j->dir)
				return -1;
		}
	}
	/* Traces do not share folders: of several, one that would be OUTDIR
	 * itself (the traces of a trace.dat file and its instances, say) gets
	 * one of its own. */
	for (size_t a = 0; a < cs->count && cs->count > 1; a++)
		if (strcmp(cs->jobs[a].dir, tmp) == 0 &&
		    (!cs->jobs[a].traces[0]->dir_in_input || !*cs->jobs[a].traces[0]->dir_in_input))
			if (snprintf(cs->jobs[a].dir, sizeof cs->jobs[a].dir, "%s/trace-%zu", tmp, a) >= (int)sizeof cs->jobs[a].dir)
				return -1;
	for (size_t a = 0; a < cs->count; a++) {
		for (size_t b = 0; b < a && !cs->jobs[a].copy_from; b++) {
			if (strcmp(cs->jobs[a].dir, cs->jobs[b].dir) != 0)
				continue;
			size_t len = strlen(cs->jobs[a].dir);
			snprintf(cs->jobs[a].dir + len, sizeof cs->jobs[a].dir - len, "-%zu", a);
			b = (size_t)-1;
		}
	}
	return 0;
}

/* mkdir -p for the folders below the temporary one. */
static int make_dirs(const char *dir)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", dir);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static job *job_of(convert_state *cs, const tc_trace *t)
{
	for (size_t i = 0; i < cs->count; i++)
		for (size_t k = 0; k < cs->jobs[i].trace_count; k++)
			if (cs->jobs[i].traces[k] == t)
				return &cs->jobs[i];
	return NULL;
}

/* What one thread writing streams needs (cli_read_streams). */
typedef struct stream_writer {
	convert_state *cs;
	tc_input *in;
	const tc_filter *filter;     /* NULL: keep everything */
	bool shows_progress;         /* on one thread only */
} stream_writer;

/* Feeds the writers every message of stream S of the input of writer
 * STATE: 0, -1 (error recorded) or -2 (interrupted). */
static int write_stream(void *state, size_t s)
{
	const stream_writer *w = state;
	convert_state *cs = w->cs;
	const tc_message *msg;
	int rc;
	job *j = NULL;
	uint64_t events = 0;
	if (interrupted)
		return -2;
	while ((rc = tc_input_stream_next(w->in, s, &msg)) > 0) {
		if (!j && !(j = job_of(cs, msg->stream->trace)))
			return -1;
		if (!j->writer)
			return 0;   /* copied whole, and counted as copied */
		if (w->filter && !tc_filter_match((tc_filter *)w->filter, msg))
			continue;
		if (tc_ctf_writer_write(j->writer, msg) < 0)
			return -1;
		if (msg->kind == TC_MSG_EVENT && count_event(cs, &events)) {
			if (w->shows_progress)
				progress(cs, false, false);
			if (interrupted)
				return -2;
		}
	}
	counted_rest(cs, events);
	/* and at a stream's end, for inputs of many small streams */
	if (w->shows_progress)
		progress(cs, false, false);
	return rc < 0 ? -1 : 0;
}

/* Feeds the writers every message of IN, its streams on JOBS threads:
 * 0, -1 (the error in *ERR) or -2 (interrupted). */
static int write_input(convert_state *cs, tc_input *in, const tc_filter *filter, unsigned jobs, tc_error *err)
{
	stream_writer *writers = calloc(jobs, sizeof *writers);
	if (!writers) {
		*err = (tc_error){ TC_ENOMEM, "", -1, "out of memory", 0 };
		return -1;
	}
	for (unsigned k = 0; k < jobs; k++)
		writers[k] = (stream_writer){ cs, in, filter, k == 0 };
	int rc = cli_read_streams(in, jobs, write_stream, writers, sizeof *writers, err);
	free(writers);
	return rc;
}

/* The first message's time over all inputs, for --begin/--end given as a
 * time of day (the inputs are opened again, since this reads them). */
static int first_time(char **paths, int n, const tc_open_options *oo, tc_filter *filter)
{
	tc_input **again;
	if (cli_open_inputs("convert", paths, n, oo, &again))
		return -1;
	tc_muxer *mux = NULL;
	int rc = tc_muxer_new(&mux);
	for (int i = 0; i < n && rc == 0; i++)
		rc = tc_muxer_add_input(mux, again[i]);
	const tc_message *msg;
	while (rc >= 0 && (rc = tc_muxer_next(mux, &msg)) > 0) {
		if (msg->has_time) {
			tc_filter_set_first_time(filter, msg->time);
			rc = 0;
			break;
		}
	}
	if (rc < 0)
		cli_report_error();
	tc_muxer_free(mux);
	cli_free_inputs(again, n);
	return rc < 0 ? -1 : 0;
}

/* Every input merged by time into one timeline file at OUT: a hidden
 * file beside it, renamed into place once complete (over the file
 * REPLACING describes, when not NULL); or, for OUT "-", standard output.
 * 0 or 1. */
static int write_timeline(convert_state *cs, tc_input **inputs, int n, tc_filter *filter, bool filtering,
                          tc_timeline_format format, const char *out, const char *replacing, unsigned jobs)
{
	bool to_stdout = strcmp(out, "-") == 0;
	const char *shown = to_stdout ? stdout_name : out;
	char tmp[PATH_MAX] = "";
	const char *base = base_name(out);
	int fd = STDOUT_FILENO;
	if (!to_stdout) {
		if (snprintf(tmp, sizeof tmp, "%.*s.%s.tracecat-XXXXXX", (int)(base - out), out, base) >= (int)sizeof tmp) {
			fprintf(stderr, "tracecat: %s: %s\n", out, strerror(ENAMETOOLONG));
			return 1;
		}
		/* its failure is the output's: a missing or closed folder */
		if ((fd = mkstemp(tmp)) < 0) {
			fprintf(stderr, "tracecat: %s: %s\n", out, strerror(errno));
			return 1;
		}
		/* mkstemp made it private; the file gets the usual permissions */
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	size_t trace_count = 0;
	for (int i = 0; i < n; i++)
		trace_count += tc_input_trace_count(inputs[i]);
	tc_trace **traces = calloc(trace_count ? trace_count : 1, sizeof *traces);
	tc_muxer *mux = NULL;
	int status = 0;
	if (!traces || tc_muxer_new(&mux) < 0 || tc_muxer_set_threads(mux, jobs) < 0) {
		fprintf(stderr, "tracecat: out of memory\n");
		status = 1;
	}
	for (int i = 0, k = 0; i < n && !status; i++) {
		for (size_t t = 0; t < tc_input_trace_count(inputs[i]); t++)
			traces[k++] = tc_input_trace(inputs[i], t);
		if (tc_muxer_add_input(mux, inputs[i]) < 0)
			status = 1, cli_report_error();
	}
	if (!status && (tc_timeline_writer_new(&cs->timeline, format, fd, shown, traces, trace_count) < 0 ||
	                tc_timeline_writer_set_threads(cs->timeline, jobs) < 0))
		status = 1, report_output_error(tc_error_last(), shown, shown);
	for (size_t i = 0; !status && tc_timeline_writer_warning(cs->timeline, i); i++)
		fprintf(stderr, "tracecat: warning: %s\n", tc_timeline_writer_warning(cs->timeline, i));
	const tc_message *msg;
	int rc = 0;
	uint64_t events = 0;
	while (!status && (rc = tc_muxer_next(mux, &msg)) > 0) {
		if (filtering && !tc_filter_match(filter, msg))
			continue;
		if (tc_timeline_writer_write(cs->timeline, msg) < 0) {
			status = 1, report_output_error(tc_error_last(), shown, shown);
			break;
		}
		if (msg->kind == TC_MSG_EVENT && count_event(cs, &events)) {
			progress(cs, false, false);
			if (interrupted)
				status = 1;
		}
	}
	counted_rest(cs, events);
	if (rc < 0)
		status = 1, cli_report_error();
	if (!status && tc_timeline_writer_finish(cs->timeline) < 0)
		status = 1, report_output_error(tc_error_last(), shown, shown);
	if (cs->progress.shown) {
		progress(cs, true, !status);
		cli_progress_end(&cs->progress);
	}
	/* before the file is closed: after an error its thread may still be
	 * writing to it */
	tc_timeline_writer_free(cs->timeline);
	cs->timeline = NULL;
	if (!to_stdout) {
		if (close(fd) < 0 && !status) {
			fprintf(stderr, "tracecat: %s: %s\n", out, strerror(errno));
			status = 1;
		}
		if (interrupted && status)
			fprintf(stderr, "tracecat: interrupted; nothing written at %s\n", out);
		if (!status && replacing)
			fprintf(stderr, "tracecat: replacing %s (%s)\n", out, replacing);
		/* rename() replaces a file at OUT only once the new one is whole */
		if (!status && rename(tmp, out) < 0) {
			fprintf(stderr, "tracecat: %s: %s\n", out, strerror(errno));
			status = 1;
		}
		if (status)
			unlink(tmp);
	}
	tc_muxer_free(mux);
	free(traces);
	return status;
}

int cli_convert(int argc, char **argv)
{
	char **paths = calloc((size_t)argc, sizeof *paths);
	int npaths = 0;
	const char *out = NULL;
	bool force = false, gmt = false, ftrace_names = false;
	cli_out_format format = CLI_OUT_CTF;
	bool format_given = false;
	const char *ctf_only = NULL;     /* a CTF option given */
	tc_open_options oo = { 0 };
	tc_ctf_writer_options wo = { .ctf_version = 1 };
	cli_filter_args fa = { 0 };
	unsigned jobs = cli_default_jobs();
	if (!paths)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (cli_opt_value(argc, argv, &i, "--output", "-o", &v))
			out = v;
		else if (!strcmp(a, "--force"))
			force = true;
		else if (!strcmp(a, "--ftrace-names"))
			ftrace_names = true;
		else if (cli_opt_value(argc, argv, &i, "--format", NULL, &v)) {
			if (!strcmp(v, "ctf"))
				format = CLI_OUT_CTF;
			else if (!strcmp(v, "perfetto"))
				format = CLI_OUT_PERFETTO;
			else if (!strcmp(v, "json"))
				format = CLI_OUT_JSON;
			else
				return free(paths), cli_usage_error("convert", "--format expects ctf, perfetto or json, got \"%s\"", v);
			format_given = true;
		}
		else if (!strcmp(a, "--clock-gmt"))
			gmt = true;
		else if (cli_filter_option(argc, argv, &i, &fa) || cli_jobs_option(argc, argv, &i, "convert", &jobs))
			;
		else if (cli_opt_value(argc, argv, &i, "--packet-size", NULL, &v)) {
			long long size;
			if (!cli_parse_int(v, 4096, 1 << 30, &size))
				return free(paths), cli_usage_error("convert", "--packet-size expects bytes from 4096 to 1073741824, got \"%s\"", v);
			wo.packet_size = (size_t)size;
			ctf_only = "--packet-size";
		} else if (cli_opt_value(argc, argv, &i, "--ctf-version", NULL, &v)) {
			if (strcmp(v, "1") && strcmp(v, "1.8") && strcmp(v, "2"))
				return free(paths), cli_usage_error("convert", "--ctf-version expects 1.8 or 2, got \"%s\"", v);
			wo.ctf_version = v[0] == '2' ? 2 : 1;
			ctf_only = "--ctf-version";
		} else if (cli_is_help_option(a)) {
			cli_help("convert", stdout);
			return free(paths), 0;
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				paths[npaths++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			return free(paths), cli_usage_error("convert", "unknown option %s", a);
		} else {
			paths[npaths++] = argv[i];
		}
	}
	if (npaths == 0)
		return free(paths), cli_usage_error("convert", "no input given");
	if (!out || !*out)
		return free(paths), cli_usage_error("convert", "no output given (-o OUT)");
	bool to_stdout = strcmp(out, "-") == 0;
	/* a CTF trace is a folder: standard output takes one file's bytes */
	if (to_stdout && (!format_given || format == CLI_OUT_CTF))
		return free(paths), cli_usage_error("convert", "-o - (standard output) needs --format json or --format perfetto");
	if (!format_given && !cli_output_format_of_name(out, &format))
		return free(paths), cli_usage_error("convert", "%s: unknown output extension %s (known: %s; none for a CTF directory)",
		                                    out, strrchr(out, '.'), cli_output_extensions);
	if (format != CLI_OUT_CTF && ctf_only)
		return free(paths), cli_usage_error("convert", "%s is for CTF output, not %s", ctf_only,
		                                    format == CLI_OUT_PERFETTO ? "Perfetto" : "JSON");
	cli_drop_repeated_inputs(paths, &npaths);
	/* The output named as the user would: "out/" is the folder "out". */
	char out_path[PATH_MAX];
	size_t olen = strlen(out);
	while (olen > 1 && out[olen - 1] == '/')
		olen--;
	if (olen >= sizeof out_path)
		return free(paths), fprintf(stderr, "tracecat: %s: %s\n", out, strerror(ENAMETOOLONG)), 1;
	snprintf(out_path, sizeof out_path, "%.*s", (int)olen, out);
	out = out_path;
	const char *replacing = NULL;
	if (!to_stdout && cli_check_output(out, format == CLI_OUT_CTF, paths, npaths, force, &replacing))
		return free(paths), 1;
	/* The clock of the progress line starts with the wait. */
	cli_progress started;
	cli_progress_start(&started, paths, npaths);
	/* LTTng's kernel names are for CTF readers; Perfetto knows ftrace's */
	oo.lttng_names = format == CLI_OUT_CTF && !ftrace_names;
	tc_filter *filter;
	if (cli_filter_build(&fa, gmt, &filter))
		return free(paths), 2;
	bool filtering = !tc_filter_is_empty(filter);
	/* traces read as `print` reads them under the same TRACECAT_COMPAT */
	tc_compat compat = cli_compat_default("convert");
	oo.compat = &compat;
	if ((fa.begin || fa.end) && first_time(paths, npaths, &oo, filter) < 0)
		return tc_filter_free(filter), free(paths), 1;
	tc_input **inputs;
	if (cli_open_inputs("convert", paths, npaths, &oo, &inputs))
		return tc_filter_free(filter), free(paths), 1;
	for (int i = 0; i < npaths && filtering; i++) {
		if (tc_input_want_values(inputs[i], cli_filter_keeps_class, filter) < 0) {
			cli_report_error();
			cli_free_inputs(inputs, npaths);
			tc_filter_free(filter);
			return free(paths), 1;
		}
	}

	if (format != CLI_OUT_CTF) {
		/* standard output has nothing to clean up: a signal ends it at once */
		if (!to_stdout)
			catch_signals();
		convert_state cs = { .progress = started, .inputs = inputs, .input_count = npaths };
		int status = write_timeline(&cs, inputs, npaths, filter, filtering,
		                            format == CLI_OUT_PERFETTO ? TC_TIMELINE_PERFETTO : TC_TIMELINE_CHROME_JSON, out,
		                            replacing, jobs);
		cli_free_inputs(inputs, npaths);
		tc_filter_free(filter);
		free(paths);
		die_by_signal();
		return status;
	}

	/* The hidden work folder, beside OUTDIR so that rename() moves it. */
	char tmp[PATH_MAX];
	const char *ob = base_name(out);
	int status = 0;
	if (snprintf(tmp, sizeof tmp, "%.*s.%s.tracecat-XXXXXX", (int)(ob - out), out, ob) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		status = 1;
	}
	/* before the work folder exists, so that no signal leaves it */
	catch_signals();
	/* its failure is the output's: a missing or closed folder */
	if (status || !mkdtemp(tmp)) {
		fprintf(stderr, "tracecat: %s: %s\n", out, strerror(errno));
		cli_free_inputs(inputs, npaths);
		tc_filter_free(filter);
		free(paths);
		return 1;
	}
	/* mkdtemp made it private; the trace gets the usual permissions */
	mode_t mask = umask(0);
	umask(mask);
	chmod(tmp, 0777 & ~mask);

	convert_state cs = { .ctf_version = wo.ctf_version, .progress = started, .inputs = inputs, .input_count = npaths };
	if (plan_jobs(&cs, inputs, paths, npaths, filtering, tmp) < 0) {
		fprintf(stderr, "tracecat: %s: out of memory or paths too long\n", out);
		status = 1;
	}
	for (size_t i = 0; i < cs.count && !status; i++) {
		job *j = &cs.jobs[i];
		if (make_dirs(j->dir) < 0) {
			fprintf(stderr, "tracecat: %s: %s\n", out, strerror(errno));
			status = 1;
		} else if (j->copy_from) {
			if (tc_ctf_copy(j->copy_from, j->traces[0], j->dir, cs.ctf_version, &cs.bytes_copied) < 0)
				status = 1, report_output_error(tc_error_last(), tmp, out);
			progress(&cs, false, false);
		} else if (tc_ctf_writer_new(&j->writer, j->dir, j->traces, j->trace_count, &wo) < 0) {
			status = 1, report_output_error(tc_error_last(), tmp, out);
		}
		if (interrupted)
			status = 1;
	}
	for (int i = 0; i < npaths && !status; i++) {
		tc_error err;
		int rc = write_input(&cs, inputs[i], filtering ? filter : NULL, jobs, &err);
		if (rc == -1)
			report_output_error(&err, tmp, out);
		if (rc < 0)
			status = 1;
	}
	for (size_t i = 0; i < cs.count && !status; i++)
		if (cs.jobs[i].writer && tc_ctf_writer_finish(cs.jobs[i].writer) < 0)
			status = 1, report_output_error(tc_error_last(), tmp, out);
	if (cs.progress.shown) {
		progress(&cs, true, !status);
		cli_progress_end(&cs.progress);
	}
	if (interrupted && status)
		fprintf(stderr, "tracecat: interrupted; nothing written at %s\n", out);

	/* Into place: what --force replaces leaves only once the new trace is
	 * complete, and comes back if the new one cannot take its place. */
	char old[PATH_MAX] = "";
	struct stat st;
	if (!status && lstat(out, &st) == 0) {
		if (!replacing) {
			/* made while convert ran: not looked at, so not replaced */
			fprintf(stderr, "tracecat: %s: already exists (--force replaces it)\n", out);
			status = 1;
		} else if (snprintf(old, sizeof old, "%s.old", tmp) >= (int)sizeof old || rename(out, old) < 0) {
			fprintf(stderr, "tracecat: %s: cannot replace it: %s\n", out, strerror(errno));
			status = 1;
			old[0] = '\0';
		} else {
			fprintf(stderr, "tracecat: replacing %s (%s)\n", out, replacing);
		}
	}
	if (!status && rename(tmp, out) < 0) {
		fprintf(stderr, "tracecat: %s: %s\n", out, strerror(errno));
		status = 1;
		if (old[0] && rename(old, out) == 0)
			old[0] = '\0';
	}
	if (status)
		remove_tree(tmp);
	if (old[0])
		remove_tree(old);
	for (size_t i = 0; i < cs.count; i++) {
		tc_ctf_writer_free(cs.jobs[i].writer);
		free(cs.jobs[i].traces);
	}
	free(cs.jobs);
	cli_free_inputs(inputs, npaths);
	tc_filter_free(filter);
	free(paths);
	die_by_signal();
	return status;
}
