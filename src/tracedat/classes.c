/* SPDX-License-Identifier: MIT */
/*
 * classes.c - event format texts (doc/formats/tracedat.md §9) as tracecat
 * field classes, with the plan stream.c follows to decode each field.
 *
 * Sizes and offsets come from the format's numbers, never from type names
 * (§9.2: syscalls declare `int` with size 8); a type name only says
 * whether an array holds text and, when the size cannot, how wide its
 * elements are.  The common fields (the first block of every format) must
 * be the same in all formats: they become the stream event context.
 */
#include "tracedat/model.h"

#include <inttypes.h>
#include <string.h>

/* Ids index a table; common_type is 16 bits on every kernel. */
#define MAX_EVENT_ID 0xFFFFu

static tc_field_class *new_class(td_trace *t, tc_field_kind kind)
{
	return tc_pool_new_class(&t->pool, kind, 8);
}

static tc_field_class *int_class(td_trace *t, uint32_t bytes, bool is_signed)
{
	tc_field_class *c = new_class(t, TC_FIELD_INT);
	if (c) {
		c->size = bytes * 8;
		c->is_signed = is_signed;
		c->byte_order = tracedat_meta_of(t->file)->big_endian ? TC_BIG_ENDIAN : TC_LITTLE_ENDIAN;
		c->base = 10;
	}
	return c;
}

/* TYPE without __data_loc/__rel_loc, qualifiers and "[]": the element's
 * type name, e.g. "unsigned long", "u32", "char *". */
static void base_type(const char *type, char *out, size_t size)
{
	static const char *const drop[] = { "__data_loc", "__rel_loc", "const", "volatile", "signed", "unsigned" };
	size_t n = 0;
	for (const char *p = type; *p;) {
		while (*p == ' ' || *p == '[' || *p == ']')
			p++;
		const char *w = p;
		while (*p && *p != ' ' && *p != '[' && *p != ']')
			p++;
		size_t len = (size_t)(p - w);
		bool skip = len == 0;
		for (size_t i = 0; i < sizeof drop / sizeof drop[0] && !skip; i++)
			skip = strlen(drop[i]) == len && memcmp(w, drop[i], len) == 0;
		if (skip || n + len + 2 > size)
			continue;
		if (n)
			out[n++] = ' ';
		memcpy(out + n, w, len);
		n += len;
	}
	out[n] = '\0';
}

/* libtraceevent's rule: an array whose type mentions char is text. */
static bool is_text(const char *base)
{
	return strstr(base, "char") && !strchr(base, '*');
}

/* Bytes of one element of BASE, 0 if the name does not say. */
static uint32_t type_size(const char *base, unsigned long_size)
{
	static const struct {
		const char *name;
		uint32_t size;   /* 0: a kernel long */
	} sizes[] = {
		{ "char", 1 }, { "u8", 1 }, { "s8", 1 }, { "__u8", 1 }, { "__s8", 1 }, { "bool", 1 }, { "_Bool", 1 },
		{ "short", 2 }, { "short int", 2 }, { "u16", 2 }, { "s16", 2 }, { "__u16", 2 }, { "__s16", 2 },
		{ "__le16", 2 }, { "__be16", 2 },
		{ "int", 4 }, { "u32", 4 }, { "s32", 4 }, { "__u32", 4 }, { "__s32", 4 }, { "__le32", 4 },
		{ "__be32", 4 }, { "pid_t", 4 }, { "uid_t", 4 }, { "gid_t", 4 },
		{ "long long", 8 }, { "long long int", 8 }, { "u64", 8 }, { "s64", 8 }, { "__u64", 8 },
		{ "__s64", 8 }, { "__le64", 8 }, { "__be64", 8 },
		{ "long", 0 }, { "long int", 0 }, { "size_t", 0 }, { "ssize_t", 0 },
	};
	if (strchr(base, '*'))
		return long_size;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(base, sizes[i].name) == 0)
			return sizes[i].size ? sizes[i].size : long_size;
	return 0;
}

static bool is_int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* The plan and class of field FD; TO_END: FD's values run to the end of
 * the record whatever its format says (see plan_struct). */
static int plan_field(td_trace *t, const char *path, int64_t where, const tracedat_field *fd, bool to_end,
                      td_field_plan *p)
{
	const tracedat_meta *m = tracedat_meta_of(t->file);
	char base[128];
	base_type(fd->type, base, sizeof base);
	uint32_t named = type_size(base, m->kernel_long_size);
	memset(p, 0, sizeof *p);
	p->offset = fd->offset;
	p->size = fd->size;
	p->is_signed = fd->is_signed;
	tc_field_kind kind = TC_FIELD_INT;
	if (fd->is_data_loc || fd->is_rel_loc) {
		/* 16 bits of offset, 16 of length (§9.4); kernels old
		 * enough to store a bare 16-bit offset are not read. */
		if (fd->size != 4)
			return tc_fail(TC_EUNSUPPORTED, path, where, "field %s: dynamic field of %" PRIu32 " bytes (only 4 is known)", fd->name, fd->size);
		p->relative = fd->is_rel_loc;
		if (is_text(base)) {
			p->how = TD_LOC_TEXT;
			kind = TC_FIELD_STRING;
		} else {
			p->how = TD_LOC_ARRAY;
			p->elem_size = is_int_size(named) ? named : 1;
			kind = TC_FIELD_SEQUENCE;
		}
	} else if (fd->is_array && is_text(base)) {
		p->how = TD_TEXT;
		p->tail = fd->is_flexible || fd->size == 0;
		kind = TC_FIELD_STRING;
	} else if (fd->is_array && (fd->is_flexible || fd->size == 0 || to_end)) {
		p->how = TD_TAIL_ARRAY;
		p->elem_size = is_int_size(named) ? named : 1;
		kind = TC_FIELD_SEQUENCE;
	} else if (fd->is_array || !is_int_size(fd->size)) {
		/* The count in brackets when it divides the size, else the
		 * type's width, else bytes. */
		uint32_t elem = 1;
		if (fd->array_len && fd->size % fd->array_len == 0 && is_int_size(fd->size / fd->array_len))
			elem = fd->size / fd->array_len;
		else if (is_int_size(named) && fd->size % named == 0)
			elem = named;
		p->how = TD_ARRAY;
		p->elem_size = elem;
		p->count = fd->size / elem;
		kind = TC_FIELD_ARRAY;
	} else {
		p->how = TD_INT;
		p->elem_size = fd->size;
	}
	tc_field_class *c;
	if (kind == TC_FIELD_INT) {
		c = int_class(t, p->elem_size, p->is_signed);
	} else if (kind == TC_FIELD_STRING) {
		c = new_class(t, TC_FIELD_STRING);
	} else {
		c = new_class(t, kind);
		if (c && !(c->element = int_class(t, p->elem_size, p->is_signed)))
			c = NULL;
		if (c)
			c->length = p->count;
	}
	if (!c)
		return TC_ENOMEM;
	p->cls = c;
	return 0;
}

/* NAME with one '_' before it: LTTng's spelling, which readers show as NAME. */
static char *underscored(td_trace *t, const char *name)
{
	size_t len = strlen(name) + 2;
	char *s = tc_pool_alloc(&t->pool, len);
	if (s)
		snprintf(s, len, "_%s", name);
	return s;
}

/* A structure class of FIELDS, their plans into *PLANS (*COUNT of them),
 * the fields of SYSTEM's EVENT (SYSTEM NULL: the common fields).
 * A sequence gets a length member before it, as CTF needs one: it is
 * named as LTTng names them, __NAME_length, shown as _NAME_length.
 * The last field of an ftrace-internal event (system "ftrace"), when a
 * static array, is one too, holding what the record holds: those formats
 * describe the kernel's trace_entries.h structures, whose last array is
 * nominal.  kernel_stack declares caller[8] and records hold `size`
 * frames, 27 or more (libtraceevent's stack printing, as trace-cmd report
 * shows it, walks the record to its end); user_stack's caller[8] is read
 * the same way.
 * With LTTng's conventions, names and values change as lttng.c says. */
static int plan_struct(td_trace *t, const char *path, int64_t where, const char *system, const char *event,
                       const tracedat_field *fields, size_t n, td_field_plan **plans_out, size_t *count,
                       tc_field_class **out)
{
	/* room for a length before every field; most have none */
	tc_field_class *s = new_class(t, TC_FIELD_STRUCT);
	tc_member *members = tc_pool_alloc(&t->pool, (n ? 2 * n : 1) * sizeof *members);
	td_field_plan *plans = tc_pool_alloc(&t->pool, (n ? 2 * n : 1) * sizeof *plans);
	if (!s || !members || !plans)
		return TC_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < n; i++, k++) {
		td_lttng_field lf = { fields[i].name, TD_X_NONE, false };
		if (t->lttng && system)
			lf = td_lttng_field_of(system, event, fields[i].name);
		else if (t->lttng)
			lf = (td_lttng_field){ "tid", TD_X_NONE, strcmp(fields[i].name, "common_pid") != 0 };
		if (lf.drop) {
			k--;
			continue;
		}
		bool to_end = system && strcmp(system, "ftrace") == 0 && i == n - 1;
		int rc = plan_field(t, path, where, &fields[i], to_end, &plans[k]);
		if (rc < 0)
			return rc;
		/* trace-cmd's kernel_stack handler (lib/trace-cmd/trace-ftrace.c)
		 * stops there: x86 kernels before 5.2 ended a saved stack with
		 * ULONG_MAX. */
		plans[k].end_mark = to_end && plans[k].how == TD_TAIL_ARRAY && strcmp(event, "kernel_stack") == 0;
		if (plans[k].end_mark)   /* kernel code, which kallsyms names */
			((tc_field_class *)plans[k].cls)->element->flags |= TC_FIELD_CODE_ADDRESS;
		plans[k].transform = lf.transform;
		if (lf.transform == TD_X_RWBS && !(plans[k].cls = int_class(t, 4, false)))
			return TC_ENOMEM;
		tc_field_class *cls = (tc_field_class *)plans[k].cls;
		if (cls->kind == TC_FIELD_SEQUENCE) {
			size_t len = strlen(fields[i].name) + 10;
			char *name = tc_pool_alloc(&t->pool, len);
			if (!name)
				return TC_ENOMEM;
			snprintf(name, len, "__%s_length", fields[i].name);
			plans[k + 1] = plans[k];
			memset(&plans[k], 0, sizeof plans[k]);
			plans[k].how = TD_LENGTH;
			if (!(plans[k].cls = int_class(t, 4, false)))
				return TC_ENOMEM;
			members[k].name = name;
			members[k].display_name = name + 1;
			members[k].cls = (tc_field_class *)plans[k].cls;
			cls->length_ref = name;
			k++;
		}
		/* Shown as the kernel names them (CTF's leading-underscore rule
		 * would turn __syscall_nr into _syscall_nr), or as LTTng does. */
		members[k].name = t->lttng ? underscored(t, lf.name) : fields[i].name;
		members[k].display_name = lf.name;
		members[k].cls = cls;
		if (!members[k].name)
			return TC_ENOMEM;
	}
	s->members = members;
	s->member_count = k;
	*plans_out = plans;
	*count = k;
	*out = s;
	return 0;
}

/* Bytes a payload needs for the scalar fields of PLANS; arrays and text
 * are cut to what the record holds (ftrace formats are approximate,
 * §9.6). */
static uint32_t scalar_end(const td_field_plan *plans, size_t n)
{
	uint32_t end = 0;
	for (size_t i = 0; i < n; i++)
		if ((plans[i].how == TD_INT || plans[i].how == TD_LOC_TEXT || plans[i].how == TD_LOC_ARRAY) &&
		    plans[i].offset + plans[i].size > end)
			end = plans[i].offset + plans[i].size;
	return end;
}

/* The common fields, from the first format that has an ID. */
static int plan_common(td_trace *t, const char *path, const tracedat_blob *text, const tracedat_format *fmt)
{
	int rc = plan_struct(t, path, text->offset, NULL, NULL, fmt->fields, fmt->common_count, &t->common_fields,
	                     &t->common_count, &t->common);
	if (rc < 0)
		return rc;
	t->common_fmt = fmt->fields;
	t->common_fmt_count = fmt->common_count;
	t->common_size = 0;
	for (size_t i = 0; i < fmt->common_count; i++)
		if (fmt->fields[i].offset + fmt->fields[i].size > t->common_size)
			t->common_size = fmt->fields[i].offset + fmt->fields[i].size;
	for (size_t i = 0; i < fmt->common_count; i++) {
		const tracedat_field *f = &fmt->fields[i];
		if (strcmp(f->name, "common_type") == 0 && !f->is_array && !f->is_data_loc && !f->is_rel_loc &&
		    (f->size == 1 || f->size == 2 || f->size == 4)) {
			t->type_offset = f->offset;
			t->type_size = f->size;
			return 0;
		}
	}
	return tc_fail(TC_EUNSUPPORTED, path, text->offset, "event %s has no common_type field of 1 to 4 bytes", fmt->name);
}

/* Formats with other common fields would need a context per event. */
static int same_common(const td_trace *t, const char *path, const tracedat_blob *text, const tracedat_format *fmt)
{
	bool same = fmt->common_count == t->common_fmt_count;
	for (size_t i = 0; same && i < fmt->common_count; i++) {
		const tracedat_field *f = &fmt->fields[i], *g = &t->common_fmt[i];
		same = strcmp(f->name, g->name) == 0 && f->offset == g->offset && f->size == g->size &&
		       f->is_signed == g->is_signed && f->is_array == g->is_array;
	}
	if (!same)
		return tc_fail(TC_EUNSUPPORTED, path, text->offset, "event %s has common fields unlike the other events'", fmt->name);
	return 0;
}

static int add_plan(td_trace *t, const char *path, const tracedat_format_text *ft)
{
	const tracedat_blob *text = &ft->text;
	tracedat_format fmt;
	int rc = tracedat_parse_format(&t->pool, path, text, &fmt);
	if (rc < 0 || !fmt.has_id)
		return rc;   /* without an ID no record can refer to it */
	rc = t->plan_count == 0 ? plan_common(t, path, text, &fmt) : same_common(t, path, text, &fmt);
	if (rc < 0)
		return rc;
	td_event_plan *p = &t->plans[t->plan_count];
	size_t n = fmt.field_count - fmt.common_count;
	p->name = t->lttng ? td_lttng_event_name(t, ft->system, fmt.name) : fmt.name;
	if (t->lttng && strcmp(ft->system, "raw_syscalls") == 0)
		p->raw_syscall = strcmp(fmt.name, "sys_enter") == 0 ? 1 : strcmp(fmt.name, "sys_exit") == 0 ? 2 : 0;
	p->id = fmt.id;
	if (!p->name)
		return TC_ENOMEM;
	if (t->lttng && strcmp(ft->system, "sched") == 0 && strcmp(fmt.name, "sched_switch") == 0) {
		const char *pf = memmem(text->data, text->len, "print fmt:", 10);
		if (pf)
			td_lttng_read_states(t, pf, text->len - (size_t)(pf - text->data));
	}
	if (n && (rc = plan_struct(t, path, text->offset, ft->system, fmt.name, fmt.fields + fmt.common_count, n,
	                           &p->fields, &p->field_count, &p->payload)) < 0)
		return rc;
	uint32_t end = scalar_end(p->fields, p->field_count);
	p->min_size = end > t->common_size ? end : t->common_size;
	t->plan_count++;
	return 0;
}

int td_build_classes(td_trace *t)
{
	const tracedat_meta *m = tracedat_meta_of(t->file);
	size_t total = m->ftrace_format_count + m->event_format_count;
	size_t room = total + (t->lttng ? td_lttng_extra_plans() : 0);
	if (room && !(t->plans = tc_pool_alloc(&t->pool, room * sizeof *t->plans)))
		return TC_ENOMEM;
	int rc = 0;
	for (size_t i = 0; i < total && rc == 0; i++) {
		const tracedat_format_text *ft = i < m->ftrace_format_count ? &m->ftrace_formats[i]
		                                                            : &m->event_formats[i - m->ftrace_format_count];
		rc = add_plan(t, m->path, ft);
	}
	if (rc < 0 || t->plan_count == 0)
		return rc;
	if (t->lttng && (rc = td_lttng_add_syscalls(t)) < 0)
		return rc;
	/* id -> plan, ids above 16 bits being unreachable. */
	uint32_t max_id = 0;
	for (size_t i = 0; i < t->plan_count; i++)
		if (t->plans[i].id <= MAX_EVENT_ID && t->plans[i].id > max_id)
			max_id = t->plans[i].id;
	t->id_limit = (size_t)max_id + 1;
	if (!(t->plan_by_id = tc_pool_alloc(&t->pool, t->id_limit * sizeof *t->plan_by_id)))
		return TC_ENOMEM;
	for (size_t i = 0; i < t->plan_count; i++) {
		uint32_t id = t->plans[i].id;
		if (id > MAX_EVENT_ID)
			continue;
		if (t->plan_by_id[id])
			return tc_fail(TC_EFORMAT, m->path, -1, "events %s and %s have the same ID %" PRIu32,
			               t->plans[t->plan_by_id[id] - 1].name, t->plans[i].name, id);
		t->plan_by_id[id] = (uint32_t)i + 1;
	}
	return 0;
}
