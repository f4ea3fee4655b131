/* SPDX-License-Identifier: MIT */
/*
 * input.c - tc_input: what one path opened into.  Each format reader
 * registers its traces, one iterator per stream, and any state it must free;
 * tc_input_open() gives a file to the trace.dat reader and a folder to
 * tc_open_dir(), which finds every trace below it (dir_scan.c).
 * Also the small model accessors that do not belong to any one format.
 */
#include "core/core.h"
#include "core/formats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Messages per batch of tc_input_stream_next(). */
#define TC_INPUT_BATCH 256

int tc_input_add_trace(tc_input *in, tc_trace *trace)
{
	return tc_ptr_push((void ***)&in->traces, &in->trace_count, trace);
}

int tc_input_add_iter(tc_input *in, tc_stream_iter *it)
{
	it->bytes_read = &in->bytes_read;
	return tc_ptr_push((void ***)&in->iters, &in->iter_count, it);
}

int tc_input_own(tc_input *in, void *obj, void (*free_fn)(void *))
{
	size_t n = in->owned_count;
	if (tc_ptr_push(&in->owned, &in->owned_count, obj) < 0) {
		free_fn(obj);
		return TC_ENOMEM;
	}
	void (**fns)(void *) = realloc(in->owned_free, (n + 1) * sizeof *fns);
	if (!fns) {
		in->owned_count = n;
		free_fn(obj);
		return tc_fail_nomem();
	}
	fns[n] = free_fn;
	in->owned_free = fns;
	return 0;
}

int tc_input_open(tc_input **out, const char *path, const tc_open_options *opts)
{
	static const tc_open_options no_opts;
	tc_input *in = calloc(1, sizeof *in);
	if (!in)
		return tc_fail_nomem();
	int kind = tc_path_kind(path), rc = kind;
	if (!opts)
		opts = &no_opts;
	in->babeltrace2 = (opts->compat ? *opts->compat : tc_compat_default()).babeltrace2;
	/* Of the formats, only trace.dat and perf.data are single files. */
	if (kind == TC_PATH_DIR)
		rc = tc_open_dir(in, path, opts);
	else if (kind == TC_PATH_FILE && (rc = tc_format_perf.open(in, path, opts)) == TC_ENOTFOUND)
		rc = tc_format_tracedat.open(in, path, opts);
	if (rc == TC_ENOTFOUND && kind == TC_PATH_DIR)
		tc_fail(TC_ENOTFOUND, path, -1, "no trace in this directory or below it (expected a CTF trace, a uftrace record directory or a legacy LTTng trace)");
	else if (rc == TC_ENOTFOUND && kind == TC_PATH_FILE)
		tc_fail(TC_ENOTFOUND, path, -1, "not a trace file (expected a trace.dat or perf.data file, or a directory holding a CTF, uftrace or legacy LTTng trace)");
	size_t readers_size = (in->iter_count ? in->iter_count : 1) * sizeof *in->readers;
	if (rc == 0 && !(in->readers = aligned_alloc(64, readers_size)))
		rc = tc_fail_nomem();
	if (in->readers)
		memset(in->readers, 0, readers_size);
	if (rc < 0) {
		tc_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}

void tc_input_free(tc_input *in)
{
	if (!in)
		return;
	for (size_t i = 0; in->readers && i < in->iter_count; i++) {
		tc_stream_iter *it = in->iters[i];
		tc_batch *b = &in->readers[i].batch;
		if (b->count)
			it->ops->release(it, b);
		if (b->store)
			it->ops->free_store(b->store);
		free(b->msgs);
	}
	if (!in->taken)
		for (size_t i = 0; i < in->iter_count; i++)
			in->iters[i]->ops->free(in->iters[i]);
	free(in->iters);
	free(in->readers);
	for (size_t i = in->owned_count; i-- > 0;)
		in->owned_free[i](in->owned[i]);
	free(in->owned);
	free(in->owned_free);
	free(in->traces);
	free(in);
}

uint64_t tc_input_bytes_read(const tc_input *in)
{
	return atomic_load_explicit(&in->bytes_read, memory_order_relaxed);
}

size_t tc_input_stream_count(const tc_input *in)
{
	return in->iter_count;
}

const tc_stream *tc_input_stream(const tc_input *in, size_t i)
{
	return i < in->iter_count ? in->iters[i]->stream : NULL;
}

int tc_input_stream_time_range(tc_input *in, size_t i, tc_time *begin, tc_time *end)
{
	if (i >= in->iter_count)
		return tc_fail(TC_EINVAL, NULL, -1, "no stream %zu", i);
	tc_stream_iter *it = in->iters[i];
	return it->ops->time_range ? it->ops->time_range(it, begin, end) : 0;
}

int tc_input_stream_next(tc_input *in, size_t i, const tc_message **msg)
{
	if (in->taken)
		return tc_fail(TC_EINVAL, NULL, -1, "input belongs to a muxer");
	if (i >= in->iter_count)
		return tc_fail(TC_EINVAL, NULL, -1, "no stream %zu", i);
	/* Allocated when the input is opened (tc_input_open), so that threads
	 * reading different streams share nothing here. */
	tc_stream_iter *it = in->iters[i];
	struct tc_stream_reader *r = &in->readers[i];
	if (!it->ops->fill) {
		int rc = it->ops->next(it, &r->msg);
		if (rc > 0)
			*msg = &r->msg;
		return rc;
	}
	tc_batch *b = &r->batch;
	if (r->batch_next == b->count) {
		if (b->count)
			it->ops->release(it, b);
		b->count = r->batch_next = 0;
		if (!b->msgs) {
			b->cap = TC_INPUT_BATCH;
			if (!(b->msgs = malloc(b->cap * sizeof *b->msgs)))
				return tc_fail_nomem();
		}
		int rc = it->ops->fill(it, b);
		if (rc <= 0)
			return rc;
	}
	*msg = &b->msgs[r->batch_next++];
	return 1;
}

int tc_input_next(tc_input *in, const tc_message **msg)
{
	while (in->next_iter < in->iter_count) {
		int rc = tc_input_stream_next(in, in->next_iter, msg);
		if (rc != 0)
			return rc;
		in->next_iter++;
	}
	return 0;
}

/* What WANTED answers for each event class of SC, into *OUT, owned by IN;
 * NULL when it wants every one.  0 or TC_ENOMEM. */
static int class_values_wanted(tc_input *in, const tc_stream_class *sc, tc_values_wanted_fn wanted, void *ctx,
                               const bool **out)
{
	size_t n = sc->event_class_count;
	bool *w = malloc(n ? n : 1), all = true;
	*out = NULL;
	if (!w)
		return tc_fail_nomem();
	for (size_t i = 0; i < n; i++) {
		w[i] = wanted(ctx, sc->event_classes[i]);
		all &= w[i];
	}
	if (all) {
		free(w);
		return 0;
	}
	if (tc_input_own(in, w, free) < 0)
		return TC_ENOMEM;
	*out = w;
	return 0;
}

int tc_input_want_values(tc_input *in, tc_values_wanted_fn wanted, void *ctx)
{
	for (size_t t = 0; t < in->trace_count; t++) {
		const tc_trace *tr = in->traces[t];
		for (size_t k = 0; k < tr->stream_class_count; k++) {
			const tc_stream_class *sc = tr->stream_classes[k];
			const bool *flags = NULL;
			int rc = wanted ? class_values_wanted(in, sc, wanted, ctx, &flags) : 0;
			if (rc < 0)
				return rc;
			for (size_t i = 0; i < in->iter_count; i++) {
				tc_stream_iter *it = in->iters[i];
				if (it->ops->want_values && it->stream && it->stream->stream_class == sc)
					it->ops->want_values(it, flags);
			}
		}
	}
	return 0;
}

size_t tc_input_trace_count(const tc_input *in)
{
	return in->trace_count;
}

tc_trace *tc_input_trace(const tc_input *in, size_t i)
{
	return i < in->trace_count ? in->traces[i] : NULL;
}

int tc_trace_env_add(tc_trace *trace, tc_pool *pool, const char *key, const char *str, int64_t num)
{
	tc_env_entry *env = realloc(trace->env, (trace->env_count + 1) * sizeof *env);
	if (!env)
		return tc_fail_nomem();
	trace->env = env;
	tc_env_entry *e = &env[trace->env_count];
	*e = (tc_env_entry){ (char *)key, str == NULL, num, NULL };
	if (str && !(e->str_value = tc_pool_strdup(pool, str)))
		return TC_ENOMEM;
	trace->env_count++;
	return 0;
}

const char *tc_input_format_name(tc_input_format format)
{
	switch (format) {
	case TC_INPUT_CTF: return "ctf";
	case TC_INPUT_TRACE_DAT: return "trace.dat";
	case TC_INPUT_UFTRACE: return "uftrace";
	case TC_INPUT_LTTNG_LEGACY: return "lttng-legacy";
	case TC_INPUT_PERF: return "perf.data";
	default: return "other";
	}
}

const tc_env_entry *tc_trace_env(const tc_trace *trace, const char *key)
{
	/* The last definition of a key wins, as in babeltrace2. */
	for (size_t i = trace->env_count; i-- > 0;)
		if (strcmp(trace->env[i].key, key) == 0)
			return &trace->env[i];
	return NULL;
}

bool tc_trace_symbol(const tc_trace *trace, uint64_t addr, tc_symbol *out)
{
	return trace->symbol_at && trace->symbol_at(trace, addr, out);
}

/*
 * babeltrace2 converts cycles with a double-precision division unless the
 * clock runs at exactly 1 GHz; matching it to the nanosecond needs the same
 * formula, truncated toward zero.
 */
static bool cycles_to_ns_part(uint64_t freq, uint64_t cycles, uint64_t *ns)
{
	if (freq == 1000000000u) {
		*ns = cycles;
		return true;
	}
	double d = (1e9 * (double)cycles) / (double)freq;
	if (!(d < 18446744073709551616.0))
		return false;
	*ns = (uint64_t)d;
	return true;
}

bool tc_clock_origin_time(const tc_clock *clk, tc_time *out)
{
	uint64_t off_ns;
	tc_time base = { clk->offset_s, 0 };
	return cycles_to_ns_part(clk->freq, clk->offset, &off_ns) && tc_time_add_ns(base, off_ns, out);
}

bool tc_clock_set_offset_ns(tc_clock *clk, __int128 ns)
{
	__int128 s = ns / 1000000000, rem = ns % 1000000000;
	if (rem < 0) {
		s--;
		rem += 1000000000;
	}
	if (s > INT64_MAX || s < INT64_MIN)
		return false;
	clk->offset_s = (int64_t)s;
	clk->offset = (uint64_t)rem;
	return true;
}

tc_field_class *tc_cpu_packet_context(tc_pool *pool)
{
	tc_field_class *s = tc_pool_alloc(pool, sizeof *s), *cpu = tc_pool_alloc(pool, sizeof *cpu);
	tc_member *mem = tc_pool_alloc(pool, sizeof *mem);
	if (!s || !cpu || !mem)
		return NULL;
	*cpu = (tc_field_class){ .kind = TC_FIELD_INT, .align = 8, .size = 32, .base = 10 };
	*mem = (tc_member){ "cpu_id", "cpu_id", cpu };
	*s = (tc_field_class){ .kind = TC_FIELD_STRUCT, .align = 8, .members = mem, .member_count = 1 };
	return s;
}

bool tc_clock_cycles_to_time(const tc_clock *clk, uint64_t cycles, tc_time *t)
{
	uint64_t val_ns;
	tc_time origin;
	return tc_clock_origin_time(clk, &origin) && cycles_to_ns_part(clk->freq, cycles, &val_ns) &&
	       tc_time_add_ns(origin, val_ns, t);
}
