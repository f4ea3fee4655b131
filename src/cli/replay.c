/* SPDX-License-Identifier: MIT */
/*
 * replay.c - `tracecat replay [OPTIONS] DIR`: a uftrace record directory
 * as `uftrace replay -d DIR` prints it.  Options are uftrace's, with the
 * same spelling; `-d DIR` is accepted as well as a plain DIR.
 */
#include "cli/cli.h"

#include <ctype.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* One bound of -r, a timestamp as -f time shows it ("502716.387320101");
 * an empty one is open (0).  Elapsed bounds ("40us") are refused: where
 * uftrace counts them from is not known yet. */
static bool parse_bound(const char *v, size_t len, uint64_t *out)
{
	char buf[64];
	if (len >= sizeof buf)
		return false;
	memcpy(buf, v, len);
	buf[len] = 0;
	*out = 0;
	if (!len)
		return true;
	char *end;
	unsigned long long sec = strtoull(buf, &end, 10);
	if (end == buf || !isdigit((unsigned char)buf[0]) || sec > 18446744072ull)
		return false;
	uint64_t ns = 0;
	if (*end == '.') {
		int digits = 0;
		for (end++; isdigit((unsigned char)*end) && digits < 9; end++, digits++)
			ns = ns * 10 + (uint64_t)(*end - '0');
		for (; digits < 9; digits++)
			ns *= 10;
	}
	if (*end)
		return false;
	*out = sec * 1000000000ull + ns;
	return true;
}

/* -r START~STOP into O. */
static bool parse_range(const char *v, tc_replay_options *o)
{
	const char *tilde = strchr(v, '~');
	return tilde && parse_bound(v, (size_t)(tilde - v), &o->range_start) &&
	       parse_bound(tilde + 1, strlen(tilde + 1), &o->range_stop);
}

/* Appends the tids of LIST ("1,2") to *TIDS; false when malformed. */
static bool parse_tids(const char *list, int **tids, size_t *n)
{
	for (const char *s = list; *s;) {
		char *end;
		long tid = strtol(s, &end, 10);
		if (end == s || tid <= 0 || tid > INT32_MAX || (*end && *end != ','))
			return false;
		int *more = realloc(*tids, (*n + 1) * sizeof *more);
		if (!more)
			return false;
		*tids = more;
		(*tids)[(*n)++] = (int)tid;
		s = *end ? end + 1 : end;
	}
	return true;
}

static void print_warning(void *arg, const char *message)
{
	fprintf(stderr, "tracecat: warning: %s\n", message);
}

/* The arguments of a repeatable option, in the order given. */
typedef struct list {
	const char **items;
	size_t count;
} list;

int cli_replay(int argc, char **argv)
{
	const char *dir = NULL, *v;
	tc_replay_options o = { 0 };
	int *tids = NULL, status = 0;
	size_t ntids = 0;
	enum { L_FILTER, L_NOTRACE, L_TRIGGER, L_CALLER, L_HIDE, L_COUNT };
	list lists[L_COUNT] = { 0 };
	for (int k = 0; k < L_COUNT; k++)
		if (!(lists[k].items = calloc((size_t)argc, sizeof *lists[k].items)))
			status = 1;
	/* --color=auto and the pager: on a terminal, as uftrace does */
	int color = -1;
	bool pager = true;
	o.compat = cli_compat_default("replay");
	for (int i = 1; i < argc && status == 0; i++) {
		const char *a = argv[i];
		static const struct {
			const char *name, *short_name;
		} list_opts[L_COUNT] = { { "--filter", "-F" }, { "--notrace", "-N" }, { "--trigger", "-T" },
			                 { "--caller-filter", "-C" }, { "--hide", "-H" } };
		bool listed = false;
		for (int k = 0; k < L_COUNT && !listed; k++)
			if (cli_opt_value(argc, argv, &i, list_opts[k].name, list_opts[k].short_name, &v)) {
				lists[k].items[lists[k].count++] = v;
				listed = true;
			}
		if (listed) {
		} else if (cli_compat_option(argc, argv, &i, "replay", &o.compat)) {
		} else if (cli_opt_value(argc, argv, &i, "--data", "-d", &v)) {
			dir = v;
		} else if (cli_opt_value(argc, argv, &i, "--output-fields", "-f", &v)) {
			o.fields = v;
		} else if (cli_opt_value(argc, argv, &i, "--depth", "-D", &v)) {
			long long depth = 0;
			if (!cli_parse_int(v, 0, INT32_MAX, &depth))
				status = cli_usage_error("replay", "--depth expects a number of levels, got \"%s\"", v);
			o.depth = (int)depth;
		} else if (cli_opt_value(argc, argv, &i, "--time-filter", "-t", &v)) {
			if (!tc_uftrace_parse_time(v, strlen(v), &o.time_filter)) {
				status = cli_usage_error("replay", "--time-filter expects a time such as 1us, got \"%s\"", v);
			}
		} else if (cli_opt_value(argc, argv, &i, "--size-filter", "-Z", &v)) {
			long long size = 0;
			if (!cli_parse_int(v, 0, INT64_MAX, &size))
				status = cli_usage_error("replay", "--size-filter expects a number of bytes, got \"%s\"", v);
			o.size_filter = (uint64_t)size;
		} else if (cli_opt_value(argc, argv, &i, "--time-range", "-r", &v)) {
			if (!parse_range(v, &o))
				status = cli_usage_error("replay", "--time-range expects START~STOP, timestamps as -f time shows them (elapsed times are not supported), got \"%s\"", v);
		} else if (cli_opt_value(argc, argv, &i, "--match", NULL, &v)) {
			if (strcmp(v, "regex") && strcmp(v, "glob"))
				status = cli_usage_error("replay", "--match expects regex or glob, got \"%s\"", v);
			o.match_glob = !strcmp(v, "glob");
		} else if (cli_opt_value(argc, argv, &i, "--demangle", NULL, &v)) {
			if (!strcmp(v, "simple"))
				o.demangle = TC_DEMANGLE_SIMPLE;
			else if (!strcmp(v, "full"))
				o.demangle = TC_DEMANGLE_FULL;
			else if (!strcmp(v, "no"))
				o.demangle = TC_DEMANGLE_NO;
			else
				status = cli_usage_error("replay", "--demangle expects full, simple or no, got \"%s\"", v);
		} else if (cli_opt_value(argc, argv, &i, "--column-offset", NULL, &v)) {
			long long off = 0;
			if (!cli_parse_int(v, 0, 1000, &off))
				status = cli_usage_error("replay", "--column-offset expects a number of levels, got \"%s\"", v);
			o.column_offset = (int)off;
		} else if (cli_opt_value(argc, argv, &i, "--color", NULL, &v)) {
			if (!strcmp(v, "yes") || !strcmp(v, "no") || !strcmp(v, "auto"))
				color = !strcmp(v, "auto") ? -1 : !strcmp(v, "yes");
			else
				status = cli_usage_error("replay", "--color expects yes, no or auto, got \"%s\"", v);
		} else if (cli_opt_value(argc, argv, &i, "--tid", NULL, &v)) {
			if (!parse_tids(v, &tids, &ntids)) {
				status = cli_usage_error("replay", "--tid expects thread ids, got \"%s\"", v);
			}
		} else if (cli_opt_value(argc, argv, &i, "--Event", "-E", &v)) {
			/* events are chosen when recording; replay only notes it */
			o.events = true;
		} else if (!strcmp(a, "-l") || !strcmp(a, "--nest-libcall")) {
			/* a recording option: replay shows what was recorded */
		} else if (!strcmp(a, "--no-event")) {
			o.no_event = true;
		} else if (!strcmp(a, "--no-sched")) {
			o.no_sched = true;
		} else if (!strcmp(a, "--no-sched-preempt")) {
			o.no_sched_preempt = true;
		} else if (!strcmp(a, "--event-full")) {
			o.event_full = true;
		} else if (!strcmp(a, "--no-args")) {
			o.no_args = true;
		} else if (!strcmp(a, "--no-merge")) {
			o.no_merge = true;
		} else if (!strcmp(a, "--flat")) {
			o.flat = true;
		} else if (!strcmp(a, "--column-view")) {
			o.column_view = true;
		} else if (!strcmp(a, "--task-newline")) {
			o.task_newline = true;
		} else if (!strcmp(a, "--no-pager")) {
			pager = false;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--auto-args")) {
			/* recorded arguments are shown already */
		} else if (cli_is_help_option(a)) {
			cli_help("replay", stdout);
			goto out;
		} else if (!strcmp(a, "--") && i + 1 < argc) {
			dir = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			status = cli_usage_error("replay", "unknown option %s", a);
		} else {
			dir = a;
		}
	}
	if (status)
		goto out;
	o.tids = tids;
	o.tid_count = ntids;
	o.filters = lists[L_FILTER].items;
	o.filter_count = lists[L_FILTER].count;
	o.notrace = lists[L_NOTRACE].items;
	o.notrace_count = lists[L_NOTRACE].count;
	o.triggers = lists[L_TRIGGER].items;
	o.trigger_count = lists[L_TRIGGER].count;
	o.callers = lists[L_CALLER].items;
	o.caller_count = lists[L_CALLER].count;
	o.hides = lists[L_HIDE].items;
	o.hide_count = lists[L_HIDE].count;
	o.warning = print_warning;
	bool tty = isatty(STDOUT_FILENO);
	/* auto: on a terminal that is not TERM=dumb (utils/debug.c,
	 * setup_color()) */
	const char *term = getenv("TERM");
	o.color = color < 0 ? tty && !(term && !strcmp(term, "dumb")) : color;
	dir = dir ? dir : "uftrace.data";
	cli_pager pg = { 0 };
	if (pager && tty)
		cli_pager_start(&pg);
	int rc = tc_uftrace_replay(dir, &o, stdout);
	if (rc < 0 && cli_stdout_error(tc_error_last())) {
		status = 1;
	} else if (rc < 0) {
		cli_report_open_error("replay", dir);
		status = rc == TC_EINVAL ? 2 : 1;
	}
	cli_pager_end(&pg);
out:
	free(tids);
	for (int k = 0; k < L_COUNT; k++)
		free(lists[k].items);
	return status;
}
