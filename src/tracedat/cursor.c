/* SPDX-License-Identifier: MIT */
/*
 * cursor.c - the records of one CPU of one buffer (doc/formats/tracedat.md
 * §8), and the rule that turns their timestamps into trace-cmd report's
 * nanoseconds (§10).
 *
 * A CPU's data is a run of fixed-size pages: in the file itself, or
 * inflated from a list of compressed chunks.  The cursor holds a window of
 * them at a time (a few hundred KiB read with pread(), or one chunk plus
 * whatever part of a page the previous chunk left), so memory does not
 * grow with the trace.
 *
 * Records point into that window.  A reader on another thread may keep
 * the window alive past the cursor's next call (tracedat_cursor_keep(),
 * for batches decoded ahead: batch.c): the window is then shared, and the
 * cursor leaves it to its holders and reads on into a new one rather than
 * moving or overwriting its bytes.
 *
 * Each page starts with a timestamp and a commit word (length of its event
 * data and the missed-events flags); then come records, each a 32-bit
 * header (type_len, time_delta) and a body.  Times run from the page's
 * timestamp: data events, padding and time extends add their delta, and a
 * TIME_STAMP replaces the low 59 bits.  Every record is checked to lie
 * within the page's committed data before it is read.
 */
#include "tracedat/internal.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_BYTES (256u << 10)  /* uncompressed data read at a time */

/* The commit word (§8.2). */
#define COMMIT_LENGTH_MASK 0x07FFFFFFu
#define COMMIT_MISSED_EVENTS (1u << 31)
#define COMMIT_MISSED_STORED (1u << 30)

/* type_len values with a meaning of their own (§8.3). */
#define TYPE_LONG_FORM 0
#define TYPE_DATA_MAX 28
#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define TIME_STAMP_KEPT_BITS 0xF800000000000000u

struct tracedat_cursor {
	const tracedat_file *f;
	const tracedat_buffer *buf;
	const tracedat_cpu_data *cd;   /* NULL: the CPU has no data */
	uint32_t page_size;
	tc_stream_failure failure;     /* sticky error */

	/* Where the next bytes come from.  Uncompressed: the file range
	 * [next_off, end_off).  Compressed: the chunk header at next_off,
	 * chunks_left of them. */
	uint64_t next_off, end_off;
	bool chunks_started;
	uint32_t chunk_count, chunks_left;
	td_codec codec;
	uint8_t *chunk_in;             /* one chunk's compressed bytes */
	size_t chunk_in_cap;

	/* Bytes of pages not yet decoded: DATA[data_pos..len).  Their file
	 * offset: data_off + index (uncompressed); the chunk they were
	 * inflated from: chunk_off (compressed). */
	tc_buf data;
	size_t data_pos;
	uint64_t data_off, chunk_off;
	tracedat_pages *shared;        /* DATA's bytes, when kept by others */

	/* The page being decoded. */
	const uint8_t *page;           /* NULL: take the next one */
	uint64_t page_off;             /* its file offset, or its chunk's */
	uint32_t pos, len;             /* in its event data */
	uint64_t ts;
	bool missed;                   /* to report with the next event */
	uint64_t missed_count;
	atomic_uint_least64_t *bytes_read;  /* tracedat_cursor_count_into() */
	uint64_t counted;              /* added to it so far */
};

/* A window's bytes, freed by whoever lets them go last: the cursor or a
 * batch of records pointing into them. */
struct tracedat_pages {
	atomic_uint refs;
	char *bytes;
};

tracedat_pages *tracedat_cursor_keep(tracedat_cursor *c)
{
	if (!c->shared) {
		if (!(c->shared = malloc(sizeof *c->shared))) {
			tc_fail_nomem();
			return NULL;
		}
		atomic_init(&c->shared->refs, 1);
		c->shared->bytes = c->data.data;
	}
	atomic_fetch_add_explicit(&c->shared->refs, 1, memory_order_relaxed);
	return c->shared;
}

bool tracedat_cursor_kept(const tracedat_cursor *c, const tracedat_pages *p)
{
	return c->shared == p;
}

void tracedat_pages_drop(tracedat_pages *p)
{
	/* Release: the holder's reads of the bytes come before the free. */
	if (p && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1) {
		free(p->bytes);
		free(p);
	}
}

static int cfail(tracedat_cursor *c, int64_t off, const char *fmt, ...) TC_PRINTF(3, 4);
static int cfail(tracedat_cursor *c, int64_t off, const char *fmt, ...)
{
	char msg[640];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	const char *name = c->buf->name;
	c->failure.rc = tc_fail(TC_EFORMAT, c->f->meta.path, off, "%s%s%sCPU %d: %s", name[0] ? "buffer \"" : "",
	                        name, name[0] ? "\", " : "", c->cd->cpu, msg);
	return c->failure.rc;
}

int tracedat_cursor_open(const tracedat_file *f, size_t buffer_index, int cpu, tracedat_cursor **out)
{
	const tracedat_meta *m = &f->meta;
	if (buffer_index >= m->buffer_count)
		return tc_fail(TC_EINVAL, m->path, -1, "no buffer %zu", buffer_index);
	const tracedat_buffer *buf = &m->buffers[buffer_index];
	const tracedat_cpu_data *cd = NULL;
	for (size_t i = 0; i < buf->cpu_data_count; i++)
		if (buf->cpu_data[i].cpu == cpu)
			cd = &buf->cpu_data[i];
	if (!cd && (cpu < 0 || (uint32_t)cpu >= buf->cpu_count))
		return tc_fail(TC_EINVAL, m->path, -1, "buffer \"%s\" has no CPU %d", buf->name, cpu);
	tracedat_cursor *c = calloc(1, sizeof *c);
	if (!c)
		return tc_fail_nomem();
	c->f = f;
	c->buf = buf;
	c->page_size = buf->page_size;
	/* An empty v6 entry (size 0) has nothing, whatever its offset. */
	c->cd = cd && cd->size ? cd : NULL;
	if (c->cd) {
		c->next_off = cd->offset;
		c->end_off = cd->offset + cd->size;
		if (buf->compressed && td_codec_init(&c->codec, f->compression) < 0) {
			free(c);
			return TC_ENOMEM;
		}
	}
	*out = c;
	return 0;
}

void tracedat_cursor_count_into(tracedat_cursor *c, atomic_uint_least64_t *bytes_read)
{
	c->bytes_read = bytes_read;
}

/* Counts N more bytes read, up to the CPU's size as stored, which the
 * opener counts the rest of the file against (the size of compressed
 * data is not always the chunk list's: tracedat.h). */
static void count_read(tracedat_cursor *c, uint64_t n)
{
	uint64_t room = c->cd && c->cd->size > c->counted ? c->cd->size - c->counted : 0;
	if (n > room)
		n = room;
	c->counted += n;
	tc_count_read(c->bytes_read, n);
}

void tracedat_cursor_close(tracedat_cursor *c)
{
	if (!c)
		return;
	td_codec_free(&c->codec);
	free(c->chunk_in);
	if (c->shared)
		tracedat_pages_drop(c->shared);
	else
		tc_buf_free(&c->data);
	free(c);
}

/* Bytes of pages left to decode. */
static size_t data_left(const tracedat_cursor *c)
{
	return c->data.len - c->data_pos;
}

/* Moves the bytes not yet decoded to the front of DATA, so that more can
 * be appended behind them; returns how many there are, or TC_ENOMEM.  A
 * shared window keeps its bytes: they are copied to a new one. */
static int64_t compact(tracedat_cursor *c)
{
	size_t keep = data_left(c);
	if (c->shared) {
		tc_buf fresh = { 0 };
		/* As large as the last (reserve gives one byte more than
		 * asked): the next window is of the same size. */
		size_t want = c->data.cap > keep ? c->data.cap - 1 : keep;
		if (tc_buf_reserve(&fresh, want) < 0)
			return c->failure.rc = tc_fail_nomem();
		memcpy(fresh.data, c->data.data + c->data_pos, keep);
		fresh.len = keep;
		tracedat_pages_drop(c->shared);
		c->shared = NULL;
		c->data = fresh;
		c->data_pos = 0;
		return (int64_t)keep;
	}
	if (keep)
		memmove(c->data.data, c->data.data + c->data_pos, keep);
	c->data.len = keep;
	c->data_pos = 0;
	return (int64_t)keep;
}

/* What is left when no whole page is: nothing, or an error. */
static int end_of_data(tracedat_cursor *c)
{
	size_t left = data_left(c);
	if (c->buf->compressed) {
		if (left == 0)
			return 0;
		return cfail(c, (int64_t)c->chunk_off, "the chunks end with %zu bytes, not a whole %" PRIu32 "-byte page",
		             left, c->page_size);
	}
	/* A file cut short was refused when it was opened (file.c,
	 * first_cut_cpu). */
	if (left == 0)
		return 0;
	return cfail(c, (int64_t)(c->data_off + c->data_pos), "data size %" PRIu64 " is not a whole number of %" PRIu32 "-byte pages", c->cd->size, c->page_size);
}

/* Reads the next window of uncompressed pages. */
static int fill_uncompressed(tracedat_cursor *c)
{
	uint64_t size = c->f->meta.file_size;
	uint64_t want = c->end_off - c->next_off, in_file = c->next_off < size ? size - c->next_off : 0;
	size_t window = WINDOW_BYTES > c->page_size ? WINDOW_BYTES - WINDOW_BYTES % c->page_size : c->page_size;
	if (want > window)
		want = window;
	/* Sizes beyond the end of a truncated file cost no memory. */
	if (want > in_file)
		want = in_file;
	/* Keep a partial page (only ever at the end) in front. */
	int64_t kept = compact(c);
	if (kept < 0)
		return (int)kept;
	size_t keep = (size_t)kept;
	if (tc_buf_reserve(&c->data, (size_t)want) < 0)
		return TC_ENOMEM;
	int64_t got = td_pread(c->f, c->data.data + keep, (size_t)want, c->next_off);
	if (got < 0)
		return c->failure.rc = (int)got;
	c->data_off = c->next_off - keep;
	c->data.len += (size_t)got;
	/* At the end of the file nothing more will come. */
	c->next_off = (uint64_t)got < want || got == 0 ? c->end_off : c->next_off + (uint64_t)got;
	return 0;
}

/* The chunk count in front of a compressed CPU's chunk list (§5.5). */
static int start_chunks(tracedat_cursor *c)
{
	uint8_t b[4];
	int64_t got = td_pread(c->f, b, 4, c->next_off);
	if (got < 0)
		return c->failure.rc = (int)got;
	if (got < 4)
		return cfail(c, (int64_t)c->next_off, "the file ends before the chunk count");
	uint32_t n = (uint32_t)tracedat_read_uint(c->f, b, 4);
	uint64_t room = c->f->meta.file_size - c->next_off - 4;
	/* trace-cmd 3.1.6 writes this count in the writer's byte order, not
	 * the file's (§5.5, §12.4): take the swapped value when only it
	 * can fit in the file. */
	uint32_t swapped = __builtin_bswap32(n);
	if ((uint64_t)n * 8 > room && (uint64_t)swapped * 8 <= room)
		n = swapped;
	if ((uint64_t)n * 8 > room)
		return cfail(c, (int64_t)c->next_off, "%" PRIu32 " chunks cannot fit in the %" PRIu64 " bytes left in the file", n, room);
	c->chunk_count = c->chunks_left = n;
	c->chunks_started = true;
	c->next_off += 4;
	count_read(c, 4);
	return 0;
}

/* The header of the chunk at AT (doc/formats/tracedat.md §7): its
 * compressed and inflated sizes. */
static int read_chunk_header(tracedat_cursor *c, uint64_t at, uint32_t *csize, uint32_t *usize)
{
	uint8_t h[8];
	int64_t got = td_pread(c->f, h, 8, at);
	if (got < 0)
		return c->failure.rc = (int)got;
	if (got < 8)
		return cfail(c, (int64_t)at, "the file ends inside a chunk header (%" PRIu32 " chunks still to come)", c->chunks_left);
	*csize = (uint32_t)tracedat_read_uint(c->f, h, 4);
	*usize = (uint32_t)tracedat_read_uint(c->f, h + 4, 4);
	return 0;
}

/* trace-cmd's file_size for compressed data: what the chunk headers say
 * the chunks inflate to (tracecmd_load_chunks_info()). */
int tracedat_cursor_inflated_size(tracedat_cursor *c, uint64_t *size)
{
	*size = 0;
	if (!c->cd || !c->buf->compressed)
		return 0;
	int rc;
	if (!c->chunks_started && (rc = start_chunks(c)) < 0)
		return rc;
	for (; c->chunks_left; c->chunks_left--) {
		uint64_t at = c->next_off;
		uint32_t csize, usize;
		if ((rc = read_chunk_header(c, at, &csize, &usize)) < 0)
			return rc;
		*size += usize;
		c->next_off = at + 8 + csize;
	}
	return 0;
}

/* Inflates the next chunk behind the bytes not yet decoded. */
static int fill_compressed(tracedat_cursor *c)
{
	const tracedat_meta *m = &c->f->meta;
	uint64_t at = c->next_off;
	uint32_t csize, usize;
	int64_t got = read_chunk_header(c, at, &csize, &usize);
	if (got < 0)
		return (int)got;
	if ((uint64_t)csize > m->file_size - at - 8)
		return cfail(c, (int64_t)at, "chunk of %" PRIu32 " compressed bytes runs past the end of the file (%" PRIu64 " bytes left)",
		             csize, m->file_size - at - 8);
	if (csize > c->chunk_in_cap) {
		uint8_t *p = realloc(c->chunk_in, csize);
		if (!p)
			return c->failure.rc = tc_fail_nomem();
		c->chunk_in = p;
		c->chunk_in_cap = csize;
	}
	if ((got = td_pread(c->f, c->chunk_in, csize, at + 8)) < 0)
		return c->failure.rc = (int)got;
	if ((uint64_t)got < csize)
		return cfail(c, (int64_t)at, "the file ends inside a chunk");
	int64_t kept = compact(c);
	if (kept < 0)
		return (int)kept;
	int rc = td_decompress(&c->codec, c->chunk_in, csize, usize, &c->data, m->path, at);
	if (rc == TC_EFORMAT) {
		/* Say whose chunk it is. */
		char msg[sizeof tc_error_last()->message];
		snprintf(msg, sizeof msg, "%s", tc_error_last()->message);
		return cfail(c, (int64_t)at, "chunk %" PRIu32 " of %" PRIu32 ": %s", c->chunk_count - c->chunks_left + 1, c->chunk_count, msg);
	}
	if (rc < 0)
		return c->failure.rc = rc;
	c->chunk_off = at;
	c->next_off = at + 8 + csize;
	c->chunks_left--;
	/* the file's bytes, not the pages inflated from them */
	count_read(c, 8 + (uint64_t)csize);
	return 0;
}

/* Makes a whole page available at data_pos: 1, or 0 at the end. */
static int next_page_bytes(tracedat_cursor *c)
{
	while (data_left(c) < c->page_size) {
		int rc;
		if (!c->buf->compressed) {
			if (c->next_off >= c->end_off)
				return end_of_data(c);
			rc = fill_uncompressed(c);
		} else {
			if (!c->chunks_started && (rc = start_chunks(c)) < 0)
				return rc;
			if (c->chunks_left == 0)
				return end_of_data(c);
			rc = fill_compressed(c);
		}
		if (rc < 0)
			return rc;
	}
	return 1;
}

/* Reads the page header of the page at data_pos (§8.1, §8.2). */
static int start_page(tracedat_cursor *c)
{
	const tracedat_meta *m = &c->f->meta;
	const uint8_t *p = (const uint8_t *)c->data.data + c->data_pos;
	c->page = p;
	c->page_off = c->buf->compressed ? c->chunk_off : c->data_off + c->data_pos;
	c->data_pos += c->page_size;
	if (!c->buf->compressed)
		count_read(c, c->page_size);
	c->ts = tracedat_read_uint(c->f, p + m->page_ts_offset, 8);
	uint64_t commit = tracedat_read_uint(c->f, p + m->page_commit_offset, m->kernel_long_size);
	uint32_t room = c->page_size - m->page_data_offset;
	c->len = (uint32_t)(commit & COMMIT_LENGTH_MASK);
	c->pos = 0;
	if (c->len > room)
		return cfail(c, (int64_t)c->page_off, "page claims %" PRIu32 " bytes of events, it has room for %" PRIu32, c->len, room);
	if (commit & COMMIT_MISSED_EVENTS) {
		/* The count, when stored, follows the last event (kernel long). */
		c->missed = true;
		c->missed_count = 0;
		if ((commit & COMMIT_MISSED_STORED) && room - c->len >= m->kernel_long_size)
			c->missed_count = tracedat_read_uint(c->f, p + m->page_data_offset + c->len, m->kernel_long_size);
	}
	return 0;
}

/* tracedat_cursor_next() before the error is made sticky. */
static int read_record(tracedat_cursor *c, tracedat_record *rec)
{
	if (!c->cd)
		return 0;
	const tracedat_meta *m = &c->f->meta;
	for (;;) {
		if (!c->page) {
			int rc = next_page_bytes(c);
			if (rc <= 0)
				return rc;
			if ((rc = start_page(c)) < 0)
				return rc;
		}
		const uint8_t *d = c->page + m->page_data_offset;
		uint32_t left = c->len - c->pos;
		if (left == 0) {
			c->page = NULL;
			continue;
		}
		int64_t at = c->buf->compressed ? (int64_t)c->page_off : (int64_t)(c->page_off + m->page_data_offset + c->pos);
		if (left < 4)
			return cfail(c, at, "%" PRIu32 " bytes at the end of a page's events, too few for an event header", left);
		uint32_t w = (uint32_t)tracedat_read_uint(c->f, d + c->pos, 4);
		/* C bit-fields type_len:5, time_delta:27 land on opposite ends
		 * of the word in the two byte orders (§8.3). */
		unsigned type_len = m->big_endian ? w >> 27 : w & 0x1F;
		uint32_t delta = m->big_endian ? w & 0x07FFFFFF : w >> 5;
		if (type_len == TYPE_PADDING && delta == 0) {
			/* Null padding: the rest of the page is empty, maybe
			 * too short even for the length word. */
			c->page = NULL;
			continue;
		}
		uint32_t array0 = left >= 8 ? (uint32_t)tracedat_read_uint(c->f, d + c->pos + 4, 4) : 0;
		if (type_len > TYPE_DATA_MAX && left < 8)
			return cfail(c, at, "record of type %u needs 8 bytes, %" PRIu32 " are left in the page", type_len, left);
		uint32_t body, size;
		switch (type_len) {
		case TYPE_PADDING:
			/* A discarded event: its delta still counts, as in
			 * libtraceevent's kbuffer.  One that claims to run past
			 * the events ends the page, as there too. */
			c->ts += delta;
			if (array0 > left - 4) {
				c->page = NULL;
				continue;
			}
			c->pos += 4 + array0;
			continue;
		case TYPE_TIME_EXTEND:
			c->ts += ((uint64_t)array0 << 27) + delta;
			c->pos += 8;
			continue;
		case TYPE_TIME_STAMP:
			/* 59 bits stored; the top five stay (§8.5). */
			c->ts = (c->ts & TIME_STAMP_KEPT_BITS) | ((uint64_t)array0 << 27) | delta;
			c->pos += 8;
			continue;
		case TYPE_LONG_FORM:
			if (left < 8)
				return cfail(c, at, "long event header needs 8 bytes, %" PRIu32 " are left in the page", left);
			if (array0 < 4)
				return cfail(c, at, "long event of length %" PRIu32 " (at least 4)", array0);
			body = 8;
			size = ((array0 - 4) + 3) & ~3u;
			break;
		default:
			body = 4;
			size = type_len * 4;
			break;
		}
		if (size > left - body)
			return cfail(c, at, "event of %" PRIu32 " bytes runs past the page's %" PRIu32 " bytes of events", size, c->len);
		c->ts += delta;
		rec->ts = c->ts;
		rec->cpu = c->cd->cpu;
		rec->data = d + c->pos + body;
		rec->size = size;
		rec->missed_events = c->missed;
		rec->missed_count = c->missed_count;
		rec->offset = (uint64_t)at;
		c->missed = false;
		c->pos += body + size;
		return 1;
	}
}

int tracedat_cursor_next(tracedat_cursor *c, tracedat_record *rec)
{
	/* again on another thread, maybe (batches filled ahead, batch.c) */
	if (c->failure.rc)
		return tc_failure_again(&c->failure);
	int rc = read_record(c, rec);
	/* every byte of the CPU's size read, whatever the chunks made of it */
	if (rc == 0)
		count_read(c, UINT64_MAX);
	return tc_failure_keep(&c->failure, rc);
}

/* ------------------------------------------------------------------------
 * Time (§10)
 */

/* a * mul >> shift without overflowing 64 bits, as the kernel and
 * trace-cmd compute it for TSC2NSEC (§10.3); shift <= 32. */
static uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned shift)
{
	uint64_t lo = (uint32_t)a, hi = a >> 32;
	uint64_t ns = (lo * mul) >> shift;
	if (hi)
		ns += (hi * mul) << (32 - shift);
	return ns;
}

/* trace-cmd's guest-to-host correction between samples LO and LO + 1
 * (§10.5), in its wrapping 64-bit arithmetic. */
static uint64_t shift_between(const tracedat_meta *m, const tracedat_shift_cpu *s, size_t lo, uint64_t ts)
{
	int64_t scaling, correction;
	if (m->time_shift_flags & 1) {
		size_t hi = lo + 1;
		int64_t span = s->times[hi] - s->times[lo];
		int64_t grow = (int64_t)(((uint64_t)ts - (uint64_t)s->times[lo]) * (uint64_t)(s->offsets[hi] - s->offsets[lo]));
		scaling = (s->scalings[lo] + s->scalings[hi]) / 2;
		correction = s->offsets[lo] + (grow + span / 2) / span;
	} else {
		scaling = s->scalings[lo];
		correction = s->offsets[lo];
	}
	ts = (ts * (uint64_t)scaling) >> s->fractions[lo];
	return ts + (uint64_t)correction;
}

static uint64_t time_shift(const tracedat_meta *m, int cpu, uint64_t ts)
{
	if (cpu < 0 || (size_t)cpu >= m->time_shift_cpu_count)
		return ts;
	const tracedat_shift_cpu *s = &m->time_shift_cpus[cpu];
	if (s->count == 0)
		return ts;
	if (s->count == 1)
		return ts + (uint64_t)s->offsets[0];
	/* The pair around TS; the first or last pair outside the samples.
	 * Times compare unsigned, as in trace-cmd. */
	size_t lo = 0, n = s->count;
	if (ts >= (uint64_t)s->times[n - 1]) {
		lo = n - 2;
	} else if (ts > (uint64_t)s->times[0]) {
		size_t a = 0, b = n - 1;   /* times[a] <= ts < times[b] */
		while (b - a > 1) {
			size_t mid = a + (b - a) / 2;
			if ((uint64_t)s->times[mid] <= ts)
				a = mid;
			else
				b = mid;
		}
		lo = a;
	}
	return shift_between(m, s, lo, ts);
}

uint64_t tracedat_ts_to_ns(const tracedat_file *f, int cpu, uint64_t ts)
{
	const tracedat_meta *m = &f->meta;
	if (m->has_time_shift)
		ts = time_shift(m, cpu, ts);
	if (m->has_tsc2nsec && m->tsc2nsec_mult)
		ts = mul_u64_u32_shr(ts, m->tsc2nsec_mult, m->tsc2nsec_shift);
	return ts;
}

uint64_t tracedat_report_ns(const tracedat_file *f, int cpu, uint64_t ts)
{
	const tracedat_meta *m = &f->meta;
	return tracedat_ts_to_ns(f, cpu, ts) + (uint64_t)m->ts_offset_ns + (uint64_t)m->date_offset_us * 1000u;
}

bool tracedat_clock_is_ns(const tracedat_file *f, const char *clock)
{
	static const char *const ns_clocks[] = { "local", "global", "perf", "uptime", "tai", "tsc2nsec" };
	/* No clock known: trace-cmd assumes nanoseconds.  Its list counts
	 * "uptime" (jiffies) and leaves out "boot" (§10.6, §12.5). */
	if (f->meta.has_tsc2nsec || clock[0] == '\0' || strncmp(clock, "mono", 4) == 0)
		return true;
	for (size_t i = 0; i < sizeof ns_clocks / sizeof ns_clocks[0]; i++)
		if (strcmp(clock, ns_clocks[i]) == 0)
			return true;
	return false;
}
