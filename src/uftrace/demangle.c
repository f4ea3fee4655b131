/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - C++ names as `uftrace replay --demangle` shows them
 * (uftrace-replay(1), --demangle): "full" is the C++ runtime's
 * demangling, "simple" (uftrace's default) the same without argument
 * lists, template arguments and return types ("std::vector::push_back").
 *
 * The full form comes from the C++ runtime's __cxa_demangle(), looked up
 * in libstdc++ when first needed, so that the library does not depend on
 * it: without it, names stay mangled (uft_demangle() returns NULL).
 */
#include "uftrace/uftrace.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*cxa_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn cxa_demangle;

static void lookup(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (h)
		*(void **)&cxa_demangle = dlsym(h, "__cxa_demangle");
}

/* The end of the bracketed group starting at S[I] ('<' or '('). */
static size_t group_end(const char *s, size_t i, size_t n)
{
	int depth = 0;
	for (; i < n; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && --depth == 0)
			return i + 1;
	}
	return n;
}

/* After "operator" at S[I]: the end of the operator's own characters
 * ("<<", "()", " new", "[]"), which are no brackets. */
static size_t operator_end(const char *s, size_t i, size_t n)
{
	i += 8;
	if (i + 2 <= n && !strncmp(s + i, "()", 2))
		return i + 2;
	if (i + 2 <= n && !strncmp(s + i, "[]", 2))
		return i + 2;
	/* the longest operator spelt there: "operator-<int*>" is
	 * operator- with a template argument */
	static const char *const ops[] = { "<<=", ">>=", "<=>", "->*", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
		                           "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "&=", "|=", "->", "+",
		                           "-", "*", "/", "%", "^", "&", "|", "~", "!", "=", "<", ">", "," };
	for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		size_t len = strlen(ops[k]);
		if (i + len <= n && !strncmp(s + i, ops[k], len))
			return i + len;
	}
	return i;
}

/* The simple form of the full demangling FULL into OUT (room for 16
 * bytes more than FULL), as
 * uftrace's own demangler spells it: "(anonymous namespace)" as
 * "_GLOBAL__N_1", the Nth lambda of a scope as "$_<N-1>", a conversion
 * operator as "operator(cast)". */
static void simplify(const char *full, char *out)
{
	size_t n = strlen(full), o = 0;
	for (size_t i = 0; i < n;) {
		if (!strncmp(full + i, "operator", 8) && (i == 0 || strchr(" :", full[i - 1]))) {
			size_t e = operator_end(full, i, n);
			if (e == i + 8 && full[e] == ' ' && strncmp(full + e, " new", 4) && strncmp(full + e, " delete", 7)) {
				memcpy(out + o, "operator(cast)", 14);
				o += 14;
				/* the type converted to runs up to the argument list */
				i = e;
				while (i < n && full[i] != '(')
					i = full[i] == '<' ? group_end(full, i, n) : i + 1;
				i = group_end(full, i, n);
				break;
			}
			memcpy(out + o, full + i, e - i);
			o += e - i;
			i = e;
		} else if (full[i] == '{') {
			/* "{lambda(int)#2}" */
			size_t e = i;
			int depth = 0;
			for (; e < n; e++)
				if (full[e] == '{' || full[e] == '(' || full[e] == '<')
					depth++;
				else if ((full[e] == '}' || full[e] == ')' || full[e] == '>') && --depth == 0)
					break;
			const char *hash = memchr(full + i, '#', e - i);
			char tmp[32];
			int len = snprintf(tmp, sizeof tmp, "$_%ld", hash ? strtol(hash + 1, NULL, 10) - 1 : 0L);
			memcpy(out + o, tmp, (size_t)len);
			o += (size_t)len;
			i = e < n ? e + 1 : n;
		} else if (full[i] == '<') {
			i = group_end(full, i, n);
		} else if (full[i] == '(') {
			/* "(anonymous namespace)" is part of the name; any
			 * other group is an argument list */
			size_t e = group_end(full, i, n);
			if (!strncmp(full + i, "(anonymous namespace)", e - i)) {
				memcpy(out + o, "_GLOBAL__N_1", 12);
				o += 12;
				i = e;
				continue;
			}
			i = e;
			/* what follows a list that is not a function's ends here */
			if (i >= n || full[i] != ':')
				break;
		} else if (full[i] == ' ' && strncmp(full + i + 1, "const", 5) && strncmp(full + i + 1, "[", 1) &&
		           (i < 8 || strncmp(full + i - 8, "operator", 8))) {
			/* a return type before the name */
			o = 0;
			i++;
		} else {
			out[o++] = full[i++];
		}
	}
	out[o] = 0;
}

/* The C++ runtime's demangling of NAME, simplified when SIMPLE (to
 * free); NULL when NAME is no mangled C++ name or cannot be read. */
static char *demangle(const char *name, bool simple)
{
	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	pthread_once(&lookup_once, lookup);
	if (!cxa_demangle)
		return NULL;
	int status = -1;
	char *full = cxa_demangle(name, NULL, NULL, &status);
	if (status != 0 || !full)
		return NULL;
	if (!simple)
		return full;
	char *out = malloc(strlen(full) + 16);
	if (out)
		simplify(full, out);
	free(full);
	return out;
}

const char *uft_demangled(uft_data *d, const char *name)
{
	if (d->demangle == UFT_DEMANGLE_NO)
		return name;
	char *text = demangle(name, d->demangle == UFT_DEMANGLE_SIMPLE);
	if (!text)
		return name;
	const char *copy = tc_pool_strndup(&d->pool, text, strlen(text));
	free(text);
	return copy ? copy : name;
}
