/* SPDX-License-Identifier: MIT */
/*
 * field_path.c - resolved references for readers whose lengths and
 * selectors are earlier members of the same structure (trace.dat's
 * dynamic arrays, legacy LTTng's sequences): each such class gets its
 * tc_field_class.ref, the path babeltrace2 would give it, so that writers
 * read locations from the model instead of matching names.  The CTF
 * front ends resolve their own (src/ctf/plan.c).
 */
#include "core/core.h"

#define MAX_STEPS 64

typedef struct walk {
	tc_pool *pool;
	tc_scope scope;
	uint16_t steps[MAX_STEPS];
	size_t len;
} walk;

static int resolve(walk *w, tc_field_class *fc);

/* FC's child CLS, reached by STEP. */
static int descend(walk *w, uint16_t step, tc_field_class *cls)
{
	if (!cls)
		return 0;
	if (w->len >= MAX_STEPS)
		return tc_fail(TC_EUNSUPPORTED, NULL, -1, "fields nested more than %d deep", MAX_STEPS);
	w->steps[w->len++] = step;
	int rc = resolve(w, cls);
	w->len--;
	return rc;
}

/* Member I of structure S refers by NAME to an earlier member: its ref. */
static int resolve_sibling(walk *w, const tc_field_class *s, size_t i, const char *name)
{
	tc_field_class *fc = s->members[i].cls;
	for (size_t k = 0; k < i; k++) {
		if (!s->members[k].name || strcmp(s->members[k].name, name) != 0)
			continue;
		uint16_t *steps = tc_pool_alloc(w->pool, (w->len + 1) * sizeof *steps);
		if (!steps)
			return TC_ENOMEM;
		memcpy(steps, w->steps, w->len * sizeof *steps);
		steps[w->len] = (uint16_t)k;
		fc->ref = (tc_field_path){ w->scope, steps, w->len + 1, s->members[k].cls };
		return 0;
	}
	return 0;
}

static int resolve(walk *w, tc_field_class *fc)
{
	int rc = 0;
	switch (fc->kind) {
	case TC_FIELD_STRUCT:
		for (size_t i = 0; i < fc->member_count && i < TC_PATH_SELECTED && rc == 0; i++) {
			const tc_field_class *m = fc->members[i].cls;
			const char *ref = m->kind == TC_FIELD_VARIANT || m->kind == TC_FIELD_OPTIONAL ? m->tag_ref : m->length_ref;
			if (ref && !m->ref.len)
				rc = resolve_sibling(w, fc, i, ref);
			if (rc == 0)
				rc = descend(w, (uint16_t)i, fc->members[i].cls);
		}
		return rc;
	case TC_FIELD_VARIANT:
		for (size_t i = 0; i < fc->member_count && i < TC_PATH_SELECTED && rc == 0; i++)
			rc = descend(w, (uint16_t)i, fc->members[i].cls);
		return rc;
	case TC_FIELD_ARRAY:
	case TC_FIELD_SEQUENCE:
		return descend(w, TC_PATH_ELEMENT, fc->element);
	case TC_FIELD_OPTIONAL:
		return descend(w, TC_PATH_SELECTED, fc->element);
	default:
		return 0;
	}
}

int tc_resolve_sibling_refs(tc_pool *pool, tc_field_class *root, tc_scope scope)
{
	walk w = { .pool = pool, .scope = scope };
	return root ? resolve(&w, root) : 0;
}
