/* SPDX-License-Identifier: MIT */
/*
 * compat_test.c - tc_compat_default and tc_compat_parse: the releases each
 * request names, the peers it leaves alone, and the message of every kind
 * of bad request, which must leave the releases as they were.  Then the
 * two babeltrace2 texts of a CTF 1.8 enumeration read from TSDL: the
 * labels in babeltrace2 2.1.2's order (what it printed for these traces,
 * doc/formats/ctf.md §4.5), or 2.0.4's declaration order; and the two
 * uftrace replay texts (doc/formats/uftrace.md §9.1).  Run from the
 * repository root.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

static void check_release(const char *name, unsigned got, unsigned want)
{
	check(got == want, name, "release %u, want %u", got, want);
}

/* SPEC parsed over the defaults: each peer's release afterwards. */
static void check_spec(const char *name, const char *spec, unsigned bt, unsigned tcmd, unsigned uft)
{
	tc_compat c = tc_compat_default();
	int rc = tc_compat_parse(&c, spec);
	char sub[128];
	check(rc == 0, name, "\"%s\": %d (%s)", spec, rc, rc ? tc_error_last()->message : "");
	snprintf(sub, sizeof sub, "%s.babeltrace2", name);
	check_release(sub, c.babeltrace2, bt);
	snprintf(sub, sizeof sub, "%s.trace-cmd", name);
	check_release(sub, c.trace_cmd, tcmd);
	snprintf(sub, sizeof sub, "%s.uftrace", name);
	check_release(sub, c.uftrace, uft);
}

/* SPEC refused with TC_EINVAL and MESSAGE, the releases untouched. */
static void check_bad(const char *name, const char *spec, const char *message)
{
	tc_compat c = tc_compat_default(), before = c;
	int rc = tc_compat_parse(&c, spec);
	check(rc == TC_EINVAL, name, "\"%s\": %d, want TC_EINVAL", spec, rc);
	const tc_error *e = tc_error_last();
	check(rc == TC_EINVAL && strcmp(e->message, message) == 0, name, "message \"%s\", want \"%s\"",
	      e->message, message);
	check(memcmp(&c, &before, sizeof c) == 0, name, "the releases changed");
}

/* Whether the text the trace at PATH prints with BABELTRACE2's text
 * holds WANT. */
static void check_trace_text(const char *name, const char *path, unsigned babeltrace2, const char *want)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	tc_input *in = NULL;
	tc_text_printer *p = NULL;
	tc_text_options o;
	tc_text_options_default(&o);
	o.compat.babeltrace2 = babeltrace2;
	tc_open_options oo = { .compat = &o.compat };
	const tc_message *m;
	int rc = tc_input_open(&in, path, &oo);
	if (rc == 0)
		rc = tc_text_printer_new(&p, &o, f, f);
	while (rc == 0 && (rc = tc_input_next(in, &m)) > 0)
		rc = tc_text_printer_print(p, m) < 0 ? -1 : 0;
	tc_text_printer_free(p);
	tc_input_free(in);
	fclose(f);
	check(rc == 0 && text && strstr(text, want), name, "%s (rc %d) does not print %s", path, rc, want);
	free(text);
}

/* The first two lines `replay` prints for the recording at PATH with
 * OPTS (NULL: zeroed options) are WANT. */
static void check_replay_text(const char *name, const char *path, const tc_replay_options *opts, const char *want)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc = f ? tc_uftrace_replay(path, opts, f) : -1;
	if (f)
		fclose(f);
	char *second = text ? strchr(text, '\n') : NULL;
	char *end = second ? strchr(second + 1, '\n') : NULL;
	if (end)
		end[1] = '\0';
	check(rc == 0 && text && strcmp(text, want) == 0, name, "%s (rc %d) prints \"%s\"", path, rc,
	      text ? text : "");
	free(text);
}

int main(void)
{
	tc_compat d = tc_compat_default();
	check_release("default.babeltrace2", d.babeltrace2, TC_RELEASE(2, 1));
	check_release("default.trace-cmd", d.trace_cmd, TC_RELEASE(3, 4));
	check_release("default.uftrace", d.uftrace, TC_RELEASE(0, 19));
	check(TC_RELEASE(2, 1) == 201 && TC_RELEASE(0, 13) == 13, "release-number", "%u %u", TC_RELEASE(2, 1),
	      TC_RELEASE(0, 13));

	check_spec("bt20", "babeltrace2=2.0", 200, 304, 19);
	check_spec("bt21-patch", "babeltrace2=2.1.2", 201, 304, 19);
	check_spec("bt20-patch", "babeltrace2=2.0.4", 200, 304, 19);
	check_spec("tc31-patch", "trace-cmd=3.1.6", 201, 301, 19);
	check_spec("tc34", "trace-cmd=3.4.0", 201, 304, 19);
	check_spec("all", "trace-cmd=3.1,uftrace=0.13,babeltrace2=2.0", 200, 301, 13);
	check_spec("last-wins", "babeltrace2=2.0,babeltrace2=2.1", 201, 304, 19);
	check_spec("uftrace-0.13", "uftrace=0.13", 201, 304, 13);
	check_spec("uftrace-0.19-patch", "uftrace=0.13,uftrace=0.19.0", 201, 304, 19);
	/* Debian 13's: trace-cmd 3.3 is a release of its own, uftrace 0.17
	 * prints 0.19's text and is stored as 0.19 */
	check_spec("tc33-patch", "trace-cmd=3.3.1", 201, 303, 19);
	check_spec("uftrace-0.17-as-0.19", "uftrace=0.13,uftrace=0.17", 201, 304, 19);

	const char *known = "known: babeltrace2 (2.0, 2.1), trace-cmd (3.1, 3.3, 3.4), uftrace (0.13, 0.17, 0.19)";
	char want[256];
	snprintf(want, sizeof want, "unknown peer \"lttng\"; %s", known);
	check_bad("unknown-peer", "lttng=2.13", want);
	snprintf(want, sizeof want, "unknown peer \"Babeltrace2\"; %s", known);
	check_bad("peer-case", "Babeltrace2=2.0", want);
	snprintf(want, sizeof want, "\"babeltrace2\" is not PEER=VERSION; %s", known);
	check_bad("no-version", "babeltrace2", want);
	snprintf(want, sizeof want, "\"\" is not PEER=VERSION; %s", known);
	check_bad("empty", "", want);
	check_bad("trailing-comma", "babeltrace2=2.0,", want);
	check_bad("unknown-release", "babeltrace2=1.5", "babeltrace2 1.5: unknown release; known: 2.0, 2.1");
	check_bad("between-releases", "trace-cmd=3.2", "trace-cmd 3.2: unknown release; known: 3.1, 3.3, 3.4");
	check_bad("uftrace-release", "uftrace=0.18.1", "uftrace 0.18: unknown release; known: 0.13, 0.17, 0.19");
	check_bad("major-only", "babeltrace2=2", "babeltrace2: \"2\" is not a version X.Y or X.Y.Z; known: 2.0, 2.1");
	check_bad("four-parts", "babeltrace2=2.1.2.3",
	          "babeltrace2: \"2.1.2.3\" is not a version X.Y or X.Y.Z; known: 2.0, 2.1");
	check_bad("letters", "babeltrace2=2.x", "babeltrace2: \"2.x\" is not a version X.Y or X.Y.Z; known: 2.0, 2.1");
	check_bad("empty-version", "uftrace=", "uftrace: \"\" is not a version X.Y or X.Y.Z; known: 0.13, 0.17, 0.19");
	/* a bad item after a good one leaves both undone */
	check_bad("partial", "babeltrace2=2.0,uftrace=9.9", "uftrace 9.9: unknown release; known: 0.13, 0.17, 0.19");
	check(tc_compat_parse(NULL, "babeltrace2=2.0") == TC_EINVAL, "null", "a NULL tc_compat is accepted");

	/* what tc_text_options_default sets */
	tc_text_options o;
	tc_text_options_default(&o);
	check(memcmp(&o.compat, &d, sizeof d) == 0, "text-options-default", "not tc_compat_default()");

	check_trace_text("ust-types.2.1", "tests/fixtures/ctf/ust-types", TC_RELEASE(2, 1),
	                 "state1 = ( { \"OVERLAP\", \"RESERVED\" } : container = 5 )");
	check_trace_text("ust-types.2.0", "tests/fixtures/ctf/ust-types", TC_RELEASE(2, 0),
	                 "state1 = ( \"RESERVED\", \"OVERLAP\" : container = 5 )");
	check_trace_text("types-le.2.1", "tests/corpus/ctf/synthetic/types-le", TC_RELEASE(2, 1),
	                 "e1 = ( { \"OVER\", \"RANGE2\", \"quoted label\" } : container = 25 )");
	check_trace_text("types-le.2.0", "tests/corpus/ctf/synthetic/types-le", TC_RELEASE(2, 0),
	                 "e1 = ( \"quoted label\", \"RANGE2\", \"OVER\" : container = 25 )");

	/* replay: 0.19's task id column is one wider than 0.13's; zeroed
	 * options are the oldest release's */
	tc_replay_options r = { 0 };
	r.compat = d;
	check_replay_text("replay.0.19", "tests/fixtures/uftrace/single", &r,
	                  "# DURATION     TID      FUNCTION\n   1.776 us [    575] | __monstartup();\n");
	r.compat.uftrace = TC_RELEASE(0, 13);
	check_replay_text("replay.0.13", "tests/fixtures/uftrace/single", &r,
	                  "# DURATION     TID     FUNCTION\n   1.776 us [   575] | __monstartup();\n");
	check_replay_text("replay.zeroed", "tests/fixtures/uftrace/single", NULL,
	                  "# DURATION     TID     FUNCTION\n   1.776 us [   575] | __monstartup();\n");

	printf("%d failed\n", n_fail);
	return n_fail != 0;
}
