/* SPDX-License-Identifier: MIT */
/*
 * compat.c - which release of each peer tool tracecat's text follows
 * (tc_compat): the newest by default, an older one still shipped by
 * Debian 12 or 13 on request ("babeltrace2=2.0,trace-cmd=3.1").  The
 * writers read the release at each place where two releases print
 * different text; this file only names the releases and parses requests.
 * A release that prints what another known one prints (Debian 13's uftrace
 * 0.17, 0.19's text) is accepted and stored as that one, so the writers
 * never hear of it.
 */
#include "tracecat.h"
#include "core/core.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct peer_release {
	unsigned named;    /* what a request may name */
	unsigned stored;   /* what tc_compat gets: the release whose text it prints */
} peer_release;

typedef struct peer {
	const char *name;
	size_t offset;             /* of its field in tc_compat */
	const peer_release *releases;   /* known, oldest first, ending with { 0, 0 } */
	const char *known;         /* the named ones, for messages */
} peer;

#define SAME(major, minor) { TC_RELEASE(major, minor), TC_RELEASE(major, minor) }

static const peer_release babeltrace2_releases[] = { SAME(2, 0), SAME(2, 1), { 0, 0 } };
/* 3.3.1 (libtraceevent 1.8) prints 3.4's text but for flag 0x02's letter. */
static const peer_release trace_cmd_releases[] = { SAME(3, 1), SAME(3, 3), SAME(3, 4), { 0, 0 } };
/* 0.17 prints 0.19's text, the task id's wider column included. */
static const peer_release uftrace_releases[] = {
	SAME(0, 13), { TC_RELEASE(0, 17), TC_RELEASE(0, 19) }, SAME(0, 19), { 0, 0 }
};

static const peer peers[] = {
	{ "babeltrace2", offsetof(tc_compat, babeltrace2), babeltrace2_releases, "2.0, 2.1" },
	{ "trace-cmd", offsetof(tc_compat, trace_cmd), trace_cmd_releases, "3.1, 3.3, 3.4" },
	{ "uftrace", offsetof(tc_compat, uftrace), uftrace_releases, "0.13, 0.17, 0.19" },
};

#define KNOWN_PEERS "babeltrace2 (2.0, 2.1), trace-cmd (3.1, 3.3, 3.4), uftrace (0.13, 0.17, 0.19)"

tc_compat tc_compat_default(void)
{
	return (tc_compat){
		.babeltrace2 = TC_RELEASE(2, 1),
		.trace_cmd = TC_RELEASE(3, 4),
		.uftrace = TC_RELEASE(0, 19),
	};
}

/* A decimal number of at most 4 digits at *S, which moves past it. */
static bool version_part(const char **s, const char *end, unsigned *out)
{
	const char *p = *s;
	unsigned v = 0;
	while (p < end && *p >= '0' && *p <= '9' && p - *s < 4)
		v = v * 10 + (unsigned)(*p++ - '0');
	if (p == *s)
		return false;
	*s = p;
	*out = v;
	return true;
}

/* "X.Y" or "X.Y.Z" in [S, END) as TC_RELEASE(X, Y); false when malformed. */
static bool parse_version(const char *s, const char *end, unsigned *out)
{
	unsigned major, minor, patch;
	if (!version_part(&s, end, &major) || s == end || *s++ != '.' || !version_part(&s, end, &minor) || minor > 99)
		return false;
	if (s < end && (*s++ != '.' || !version_part(&s, end, &patch)))
		return false;
	if (s != end)
		return false;
	*out = TC_RELEASE(major, minor);
	return true;
}

int tc_compat_parse(tc_compat *c, const char *spec)
{
	if (!c || !spec)
		return tc_fail(TC_EINVAL, NULL, -1, "no compatibility request");
	tc_compat next = *c;
	const char *item = spec;
	for (;;) {
		const char *end = strchr(item, ',');
		if (!end)
			end = item + strlen(item);
		const char *eq = memchr(item, '=', (size_t)(end - item));
		if (!eq)
			return tc_fail(TC_EINVAL, NULL, -1, "\"%.*s\" is not PEER=VERSION; known: " KNOWN_PEERS,
			               (int)(end - item), item);
		const peer *pr = NULL;
		for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++)
			if (strlen(peers[i].name) == (size_t)(eq - item) && memcmp(peers[i].name, item, (size_t)(eq - item)) == 0)
				pr = &peers[i];
		if (!pr)
			return tc_fail(TC_EINVAL, NULL, -1, "unknown peer \"%.*s\"; known: " KNOWN_PEERS,
			               (int)(eq - item), item);
		unsigned release;
		if (!parse_version(eq + 1, end, &release))
			return tc_fail(TC_EINVAL, NULL, -1, "%s: \"%.*s\" is not a version X.Y or X.Y.Z; known: %s",
			               pr->name, (int)(end - eq - 1), eq + 1, pr->known);
		size_t k = 0;
		while (pr->releases[k].named && pr->releases[k].named != release)
			k++;
		if (!pr->releases[k].named)
			return tc_fail(TC_EINVAL, NULL, -1, "%s %u.%u: unknown release; known: %s", pr->name,
			               release / 100, release % 100, pr->known);
		*(unsigned *)((char *)&next + pr->offset) = pr->releases[k].stored;
		if (!*end)
			break;
		item = end + 1;
	}
	*c = next;
	return 0;
}
