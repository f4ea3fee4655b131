/* SPDX-License-Identifier: MIT */
/*
 * replay_filter.c - the function rules of `uftrace replay`: -F, -N, -C,
 * -H and -T, matched by name as uftrace matches them (uftrace-replay(1),
 * FILTERS and TRIGGERS; utils/filter.c).  replay.c asks which rules name
 * a function (uft_rules_match) and acts on the answer as uftrace's
 * fstack does; records.c applies the ones uftrace applies while it reads
 * (-C, time=, size=: uft_read_filter).
 */
#include "uftrace/uftrace.h"

#include <fnmatch.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* One pattern: an exact name, or a regular expression (--match=regex,
 * uftrace's default) or a glob (--match=glob) when it has the
 * characters that make one. */
typedef struct pattern {
	char *text;
	bool is_regex, is_glob;
	regex_t re;
} pattern;

typedef struct rule {
	pattern pat;
	uft_trigger tr;            /* what the rule sets on the functions it names */
} rule;

struct uft_rules {
	rule *rules;
	size_t count;
	bool filter_in;            /* some -F (or @filter) names a function */
	bool caller;               /* some -C (or @caller) names a function */
};

static void pattern_free(pattern *pt)
{
	if (pt->is_regex)
		regfree(&pt->re);
	free(pt->text);
}

static int pattern_compile(pattern *pt, const char *text, size_t len, bool glob)
{
	if (!(pt->text = malloc(len + 1)))
		return tc_fail_nomem();
	memcpy(pt->text, text, len);
	pt->text[len] = 0;
	if (glob)
		pt->is_glob = strpbrk(pt->text, "*?[") != NULL;
	else
		pt->is_regex = strpbrk(pt->text, ".?*+-^$|()[]{}") &&
		               regcomp(&pt->re, pt->text, REG_EXTENDED | REG_NOSUB) == 0;
	return 0;
}

static bool pattern_matches(const pattern *pt, const char *name)
{
	if (pt->is_regex)
		return regexec(&pt->re, name, 0, NULL, 0) == 0;
	if (pt->is_glob)
		return fnmatch(pt->text, name, 0) == 0;
	return strcmp(pt->text, name) == 0;
}

bool tc_uftrace_parse_time(const char *text, size_t len, uint64_t *ns)
{
	char buf[64];
	if (len >= sizeof buf)
		return false;
	memcpy(buf, text, len);
	buf[len] = 0;
	char *end;
	double t = strtod(buf, &end);
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "m", 6e10 } };
	if (end == buf || !(t >= 0))
		return false;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(end, units[i].unit)) {
			double v = t * units[i].scale;
			if (!(v < 18446744073709551616.0))
				return false;
			*ns = (uint64_t)v;
			return true;
		}
	return false;
}

/* The actions of a -T rule after its "@": depth=N, time=T, size=N,
 * filter, notrace, caller, hide, trace, trace_on, trace_off (also spelt
 * trace-on, trace-off), comma-separated (uftrace-replay(1), TRIGGERS). */
static int parse_actions(const char *spec, const char *s, uft_trigger *tr)
{
	while (*s) {
		size_t n = strcspn(s, ",");
		const char *eq = memchr(s, '=', n);
		size_t key = eq ? (size_t)(eq - s) : n;
		const char *val = eq ? eq + 1 : NULL;
		size_t vlen = eq ? n - key - 1 : 0;
#define IS(k) (key == strlen(k) && !strncmp(s, k, key))
		if (IS("depth") && val) {
			char *end;
			long d = strtol(val, &end, 10);
			if (end != val + vlen || d < 0 || d > 65535)
				goto bad;
			tr->flags |= UFT_TR_DEPTH;
			tr->depth = (int)d;
		} else if (IS("time") && val) {
			if (!tc_uftrace_parse_time(val, vlen, &tr->time))
				goto bad;
			tr->flags |= UFT_TR_TIME;
		} else if (IS("size") && val) {
			char *end;
			unsigned long long z = strtoull(val, &end, 10);
			if (end != val + vlen)
				goto bad;
			tr->flags |= UFT_TR_SIZE;
			tr->size = z;
		} else if (IS("filter") && !val) {
			tr->flags = (tr->flags | UFT_TR_FILTER) & ~UFT_TR_NOTRACE;
		} else if (IS("notrace") && !val) {
			tr->flags |= UFT_TR_FILTER | UFT_TR_NOTRACE;
		} else if (IS("caller") && !val) {
			tr->flags |= UFT_TR_CALLER;
		} else if (IS("hide") && !val) {
			tr->flags |= UFT_TR_HIDE;
		} else if (IS("trace") && !val) {
			tr->flags |= UFT_TR_TRACE;
		} else if ((IS("trace_on") || IS("trace-on")) && !val) {
			tr->flags |= UFT_TR_TRACE_ON;
		} else if ((IS("trace_off") || IS("trace-off")) && !val) {
			tr->flags |= UFT_TR_TRACE_OFF;
		} else {
			goto bad;
		}
#undef IS
		s += n + (s[n] == ',');
	}
	return 0;
bad:
	return tc_fail(TC_EINVAL, NULL, -1,
	               "unknown trigger action in \"%s\" (depth=N, time=T, size=N, filter, notrace, caller, hide, trace, "
	               "trace_on, trace_off)",
	               spec);
}

static int add_rule(uft_rules *r, const char *spec, unsigned flags, bool glob)
{
	rule *ru = &r->rules[r->count];
	memset(ru, 0, sizeof *ru);
	const char *at = flags ? NULL : strchr(spec, '@');
	if (!flags && !at)
		return tc_fail(TC_EINVAL, NULL, -1, "a trigger is FUNC@ACTION[,ACTION...], got \"%s\"", spec);
	int rc = pattern_compile(&ru->pat, spec, at ? (size_t)(at - spec) : strlen(spec), glob);
	if (rc < 0)
		return rc;
	r->count++;
	ru->tr.flags = flags;
	return at ? parse_actions(spec, at + 1, &ru->tr) : 0;
}

void uft_rules_match(const uft_rules *r, const char *name, uft_trigger *tr)
{
	memset(tr, 0, sizeof *tr);
	for (size_t i = 0; r && i < r->count; i++) {
		const rule *ru = &r->rules[i];
		if (!pattern_matches(&ru->pat, name))
			continue;
		/* a later rule on the same function adds to what it has, its
		 * filter mode and values replacing the earlier ones */
		if (ru->tr.flags & UFT_TR_FILTER)
			tr->flags &= ~UFT_TR_NOTRACE;
		tr->flags |= ru->tr.flags;
		if (ru->tr.flags & UFT_TR_DEPTH)
			tr->depth = ru->tr.depth;
		if (ru->tr.flags & UFT_TR_TIME)
			tr->time = ru->tr.time;
		if (ru->tr.flags & UFT_TR_SIZE)
			tr->size = ru->tr.size;
	}
}

static bool module_named(const uft_rules *r, const uft_module *m, size_t first, size_t last, unsigned flags)
{
	for (size_t k = 0; m && k < m->syms.count; k++)
		for (size_t f = first; f < last; f++)
			if ((!flags || (r->rules[f].tr.flags & flags)) && pattern_matches(&r->rules[f].pat, m->syms.syms[k].name))
				return true;
	return false;
}

/* Whether rules [FIRST, LAST) name some function of a module the
 * recording maps, in any session (uftrace counts the functions its
 * filters name in all of them: libraries' too, read from the binaries
 * when they have no .sym file), with a trigger having one of FLAGS (any
 * trigger: 0).  The traced program's own first, which usually answers. */
static bool rules_name_any(uft_rules *r, uft_data *d, size_t first, size_t last, unsigned flags)
{
	for (size_t i = 0; i < d->session_count; i++)
		if (module_named(r, uft_session_main_module(d, d->sessions[i]), first, last, flags))
			return true;
	for (size_t i = 0; i < d->session_count; i++) {
		const uft_module *m;
		for (size_t k = 0; (m = uft_session_module(d, d->sessions[i], k)); k++)
			if (!m->is_main && module_named(r, m, first, last, flags))
				return true;
	}
	return false;
}

bool uft_rules_filter_in(const uft_rules *r)
{
	return r && r->filter_in;
}

bool uft_rules_caller(const uft_rules *r)
{
	return r && r->caller;
}

void uft_rules_free(uft_rules *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->count; i++)
		pattern_free(&r->rules[i].pat);
	free(r->rules);
	free(r);
}

/* uftrace's message when a kind of rule names nothing: the rules as it
 * joined them ("-F a -N b" as "a;!b"), kinds apart with " or ". */
static void failed_message(const tc_replay_options *o, tc_buf *msg)
{
	tc_buf_printf(msg, "Usage: failed to set filter or trigger: ");
	size_t n = 0;
	for (size_t f = 0; f < o->filter_count; f++)
		tc_buf_printf(msg, "%s%s", n++ ? ";" : "", o->filters[f]);
	for (size_t f = 0; f < o->notrace_count; f++)
		tc_buf_printf(msg, "%s!%s", n++ ? ";" : "", o->notrace[f]);
	const struct {
		const char *const *list;
		size_t count;
	} kinds[] = { { o->triggers, o->trigger_count }, { o->callers, o->caller_count }, { o->hides, o->hide_count } };
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		if (!kinds[k].count)
			continue;
		tc_buf_printf(msg, "%s", n ? " or " : "");
		for (size_t f = 0; f < kinds[k].count; f++)
			tc_buf_printf(msg, "%s%s", f ? ";" : "", kinds[k].list[f]);
		n++;
	}
	tc_buf_append(msg, "\n", 1);
}

int uft_rules_new(uft_rules **out, const tc_replay_options *o, uft_data *d, tc_buf *msg)
{
	*out = NULL;
	size_t total = o->filter_count + o->notrace_count + o->trigger_count + o->caller_count + o->hide_count;
	if (!total)
		return 0;
	uft_rules *r = calloc(1, sizeof *r);
	if (!r || !(r->rules = calloc(total, sizeof *r->rules))) {
		free(r);
		return tc_fail_nomem();
	}
	bool glob = o->match_glob;
	int rc = 0;
	/* uftrace sets the kinds up in this order and stops at the first
	 * that names nothing: the later kinds are then left out.  Argument
	 * specs count as filters to it: -F and -N then never fail. */
	size_t start = 0;
	for (size_t i = 0; rc == 0 && i < o->filter_count; i++)
		rc = add_rule(r, o->filters[i], UFT_TR_FILTER, glob);
	for (size_t i = 0; rc == 0 && i < o->notrace_count; i++)
		rc = add_rule(r, o->notrace[i], UFT_TR_FILTER | UFT_TR_NOTRACE, glob);
	bool failed = false;
	if (rc == 0 && r->count > start) {
		bool any = rules_name_any(r, d, start, r->count, 0);
		failed = !any && !(d->feat_mask & 0x18); /* ARGUMENT | RETVAL: specs */
		if (!any) {
			for (size_t i = start; i < r->count; i++)
				pattern_free(&r->rules[i].pat);
			r->count = start;
		}
	}
	const struct {
		const char *const *list;
		size_t count;
		unsigned flags;
	} kinds[] = { { o->triggers, o->trigger_count, 0 },
		      { o->callers, o->caller_count, UFT_TR_CALLER },
		      { o->hides, o->hide_count, UFT_TR_HIDE } };
	for (size_t k = 0; rc == 0 && !failed && k < sizeof kinds / sizeof kinds[0]; k++) {
		start = r->count;
		for (size_t i = 0; rc == 0 && i < kinds[k].count; i++)
			rc = add_rule(r, kinds[k].list[i], kinds[k].flags, glob);
		if (rc < 0 || !kinds[k].count || rules_name_any(r, d, start, r->count, kinds[k].flags))
			continue;
		for (size_t i = start; i < r->count; i++)
			pattern_free(&r->rules[i].pat);
		r->count = start;
		/* argument specs count as triggers for uftrace, so that a
		 * trigger naming nothing goes unsaid; uftrace 0.13 keeps
		 * quiet about callers too (seen: 0.13 and 0.19 differ) */
		bool specs = d->feat_mask & 0x18; /* ARGUMENT | RETVAL */
		failed = !(specs && (k == 0 || (k == 1 && o->compat.uftrace < TC_RELEASE(0, 19))));
	}
	if (rc < 0) {
		uft_rules_free(r);
		return rc;
	}
	if (failed)
		failed_message(o, msg);
	for (size_t i = 0; i < r->count; i++) {
		/* opt-in mode needs an opt-in rule that names something */
		if ((r->rules[i].tr.flags & (UFT_TR_FILTER | UFT_TR_NOTRACE)) == UFT_TR_FILTER && !r->filter_in)
			r->filter_in = rules_name_any(r, d, i, i + 1, 0);
		if (r->rules[i].tr.flags & UFT_TR_CALLER)
			r->caller = true;
	}
	*out = r;
	return 0;
}
