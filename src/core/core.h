/* SPDX-License-Identifier: MIT */
/*
 * core.h - private helpers shared by every reader: error recording, a
 * bump-allocated memory pool that owns a trace's model, a growable byte
 * buffer, checked arithmetic, and the stream-iterator interface through
 * which format readers hand messages to the muxer.
 *
 * Nothing here is public; include/tracecat.h is the API.
 */
#ifndef TC_CORE_H
#define TC_CORE_H

#include "tracecat.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define TC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define TC_LIKELY(x) __builtin_expect(!!(x), 1)
#define TC_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define TC_PRINTF(a, b)
#define TC_LIKELY(x) (x)
#define TC_UNLIKELY(x) (x)
#endif

/* Records an error for tc_error_last() and returns CODE, so a reader can
 * write `return tc_fail(TC_EFORMAT, path, off, "...")`.  OFFSET < 0: none. */
int tc_fail(int code, const char *path, int64_t offset, const char *fmt, ...) TC_PRINTF(4, 5);
int tc_vfail(int code, const char *path, int64_t offset, const char *fmt, va_list ap);
int tc_fail_nomem(void);
/* Records TC_EIO "cannot open: strerror(errno)" for PATH, from the errno
 * of the call that just failed; returns TC_EIO. */
int tc_fail_open(const char *path);
/* Records TC_EIO for a write that failed with the system's ERRNUM, kept
 * in sys_errno so the caller can tell the user's terms apart: the message
 * is "WHAT: strerror(ERRNUM)", or strerror(ERRNUM) alone when WHAT is
 * NULL.  tc_fail_write() is for the caller's own stream (no path). */
int tc_fail_write_at(int errnum, const char *path, int64_t offset, const char *what);
int tc_fail_write(int errnum, const char *what);
/* Makes E this thread's last error: an error met on a worker thread is
 * handed to the thread that reports it. */
void tc_error_restore(const tc_error *e);

/* The error that ended a stream, returned again by every later call,
 * which may come from another thread (batches filled ahead). */
typedef struct tc_stream_failure {
	int rc;              /* 0: none */
	tc_error error;
} tc_stream_failure;

/* Returns RC; an error is kept in F first, with this thread's last error. */
static inline int tc_failure_keep(tc_stream_failure *f, int rc)
{
	if (rc < 0) {
		f->rc = rc;
		f->error = *tc_error_last();
	}
	return rc;
}

/* F's error made this thread's last again: its code, or 0 when none. */
static inline int tc_failure_again(const tc_stream_failure *f)
{
	if (f->rc)
		tc_error_restore(&f->error);
	return f->rc;
}

/* ---- memory pool: many small allocations freed together ---- */

typedef struct tc_pool_chunk tc_pool_chunk;
typedef struct tc_pool {
	tc_pool_chunk *head;
	size_t used, cap;
} tc_pool;

void tc_pool_init(tc_pool *pool);
void tc_pool_free(tc_pool *pool);
/* Zeroed memory owned by the pool; NULL (with error set) on failure. */
void *tc_pool_alloc(tc_pool *pool, size_t size);
/* A field class of KIND aligned to ALIGN bits, every other member zero, in
 * POOL; NULL when memory runs out (recorded). */
tc_field_class *tc_pool_new_class(tc_pool *pool, tc_field_kind kind, unsigned align);
char *tc_pool_strdup(tc_pool *pool, const char *s);
/* Moves every allocation of SRC into DST (SRC is left empty). */
void tc_pool_adopt(tc_pool *dst, tc_pool *src);
char *tc_pool_strndup(tc_pool *pool, const char *s, size_t n);

/* Sets tc_field_class.ref (paths in POOL) of every class below ROOT, the
 * root of SCOPE, whose length_ref or tag_ref names an earlier member of
 * its structure and that has none yet (field_path.c). */
int tc_resolve_sibling_refs(tc_pool *pool, tc_field_class *root, tc_scope scope);

/* ---- growable arrays of pointers, sized by doubling ---- */

/* Appends ITEM to *ARRAY (of *COUNT items); returns 0 or TC_ENOMEM. */
int tc_ptr_push(void ***array, size_t *count, void *item);

/* Room in *ITEMS (void ** in disguise: the address of a T *) for one
 * more item of SIZE bytes after COUNT, doubling *CAP from FIRST; returns
 * 0 or TC_ENOMEM (recorded), *ITEMS untouched then. */
int tc_array_reserve(void *items, size_t *cap, size_t count, size_t size, size_t first);
/* The same with room for NEED items in all, doubling as often as it takes. */
int tc_array_reserve_n(void *items, size_t *cap, size_t need, size_t size, size_t first);

/* ---- byte buffer ---- */

typedef struct tc_buf {
	char *data;
	size_t len, cap;
} tc_buf;

/* Room for EXTRA more bytes and a NUL; the slow path of tc_buf_reserve. */
int tc_buf_grow(tc_buf *b, size_t extra);

/* Inline: writers append a few bytes at a time, millions of times. */
static inline int tc_buf_reserve(tc_buf *b, size_t extra)
{
	return b->cap - b->len > extra ? 0 : tc_buf_grow(b, extra);
}

static inline int tc_buf_append(tc_buf *b, const void *data, size_t n)
{
	if (tc_buf_reserve(b, n) < 0)
		return TC_ENOMEM;
	memcpy(b->data + b->len, data, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}
int tc_buf_printf(tc_buf *b, const char *fmt, ...) TC_PRINTF(2, 3);
void tc_buf_free(tc_buf *b);

/* ---- checked arithmetic: false on overflow ---- */

static inline bool tc_add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}

static inline bool tc_mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

static inline bool tc_add_i64(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}

/* ---- byte order ---- */

/* The N-byte (N <= 8) unsigned integer at P, stored big- or little-endian. */
static inline uint64_t tc_load_uint(const uint8_t *p, size_t n, bool big_endian)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[big_endian ? n - 1 - i : i] << (8 * i);
	return v;
}

/* V as 8 little-endian bytes at P, in one store (compilers keep a byte
 * loop as it is). */
static inline void tc_store_le64(uint8_t *p, uint64_t v)
{
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

/* ---- hashing ---- */

/* A hash of pointer P in [0, CAP), CAP a power of two (for open addressing). */
static inline size_t tc_ptr_hash(const void *p, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

/* ---- times ---- */

/* BASE plus NS nanoseconds into *OUT; false if the seconds overflow. */
static inline bool tc_time_add_ns(tc_time base, uint64_t ns, tc_time *out)
{
	uint64_t nsec = base.nsec + ns % 1000000000u;
	int64_t sec;
	if (!tc_add_i64(base.sec, (int64_t)(ns / 1000000000u) + (nsec >= 1000000000u), &sec))
		return false;
	out->sec = sec;
	out->nsec = (uint32_t)(nsec >= 1000000000u ? nsec - 1000000000u : nsec);
	return true;
}

/* The time of cycle 0 of CLK; false if it overflows. */
bool tc_clock_origin_time(const tc_clock *clk, tc_time *out);

/* Sets the offset of CLK, a 1 GHz clock, to NS nanoseconds from its origin
 * (whole seconds, floored, and the nanoseconds left); false if the seconds
 * overflow 64 bits. */
bool tc_clock_set_offset_ns(tc_clock *clk, __int128 ns);

/* The packet context { cpu_id } of readers with a stream per CPU, in POOL. */
tc_field_class *tc_cpu_packet_context(tc_pool *pool);

/* ---- CPU lists ---- */

/* CPUs a list names are below this. */
#define TC_CPU_LIST_MAX 65536

/* Sets CPUS[c] (TC_CPU_LIST_MAX of them) for every CPU c of LIST, "0,2-3",
 * and raises *LIMIT above the highest: 0, or TC_EINVAL recorded for a
 * malformed list (filter.c; `--cpu`, `script -C`). */
int tc_cpu_list_add(bool *cpus, size_t *limit, const char *list);

/* ---- UUIDs ---- */

bool tc_uuid_parse(const char *text, uint8_t out[16]);

/* ---- file helpers ---- */

/* Reads a whole file into a NUL-terminated malloc'd buffer, refusing files
 * above MAX bytes. */
int tc_read_file(const char *path, size_t max, char **data, size_t *len);

/* How many folder levels a search for traces goes down (the CTF reader's
 * and the folder scan's alike): deeper than any trace layout, shallow
 * enough that a runaway walk ends. */
#define TC_MAX_DIR_DEPTH 32

struct stat;

/* stat() of PATH, an entry listed in a folder, into *ST: 0, or TC_EIO
 * recorded for one that cannot be looked at (a symbolic link loop or to
 * nothing): a folder walk reports it rather than quietly leave it out. */
int tc_stat_entry(const char *path, struct stat *st);

/* A and B joined by one '/' (malloc'd), NULL when memory ran out. */
char *tc_path_join(const char *a, const char *b);

/* The entry names of DIR but . and .., sorted (malloc'd, freed with
 * tc_free_names): 0, or an error when DIR cannot be listed. */
int tc_list_dir(const char *dir, char ***names, size_t *count);
void tc_free_names(char **names, size_t count);

/* Whether the folder ST describes is new to SEEN (a list of folder
 * identities the caller frees with tc_buf_free): 1, and it is added; 0 when
 * it was seen already, by a symbolic link to it or to a folder above it,
 * which a folder walk must not enter again (two links to "." would make
 * it endless); TC_ENOMEM. */
int tc_dir_first_visit(tc_buf *seen, const struct stat *st);

/* The walk below a folder that the folder scan and the CTF reader share:
 * VISIT(CTX, PATH, REL, ST) for each entry of DIR, in name order, that is
 * a regular file or a folder not in SEEN yet (it is added), REL naming it
 * from the walk's start as REL names DIR.  An entry that cannot be looked
 * at is an error (tc_stat_entry).  Stops at the first error, of the walk
 * or of VISIT, and returns it; 0 otherwise. */
typedef int (*tc_entry_visit)(void *ctx, const char *path, const char *rel, const struct stat *st);
int tc_visit_entries(tc_buf *seen, const char *dir, const char *rel, tc_entry_visit visit, void *ctx);

/* What PATH is, checked before a reader looks inside, so that the error a
 * user sees is the true one (the system's "No such file or directory" or
 * "Permission denied", an empty folder) rather than a format's "not mine".
 * Returns TC_PATH_FILE for a regular file that opens, TC_PATH_DIR for a
 * folder that lists and is not empty, or a negative code with the reason
 * recorded. */
enum { TC_PATH_FILE = 1, TC_PATH_DIR = 2 };
int tc_path_kind(const char *path);

/* ---- stream iterators: how a format reader feeds the muxer ---- */

typedef struct tc_stream_iter tc_stream_iter;

/*
 * A run of consecutive messages of one stream whose fields, and the bytes
 * they point to, stay valid until the batch is released, whatever the
 * iterator does meanwhile: what lets a worker thread decode a stream ahead
 * of the thread that merges and prints it (prefetch.c).
 */
typedef struct tc_batch {
	tc_message *msgs;
	size_t count, cap;
	void *store;         /* the reader's storage for the messages' fields */
} tc_batch;

/* An iterator hands out messages one by one (next), or in batches (fill,
 * release and free_store), which lets its stream be decoded ahead. */
typedef struct tc_stream_iter_ops {
	/* Fills *msg with the next message: 1, 0 at the end, < 0 on error.
	 * The message stays valid until the next call on the same iterator. */
	int (*next)(tc_stream_iter *it, tc_message *msg);
	void (*free)(tc_stream_iter *it);
	/* fill decodes the following messages into B (at most B->cap): 1
	 * with B->count > 0, 0 at the end, < 0 on an error (one met after
	 * some messages is returned by the next call, once they are in a
	 * batch).  release says B's messages are no longer used; it may run
	 * on another thread, at the same time as a fill of another batch.
	 * free_store frees what fill put in B->store. */
	int (*fill)(tc_stream_iter *it, tc_batch *b);
	void (*release)(tc_stream_iter *it, tc_batch *b);
	void (*free_store)(void *store);
	/* Optional (tc_input_want_values): whether each event class of the
	 * stream's class, in its order, has its values built (NULL: every
	 * one).  WANTED belongs to the input and outlives the iterator. */
	void (*want_values)(tc_stream_iter *it, const bool *wanted);
	/* Optional (tc_input_stream_time_range): the stream's time range where
	 * the reader knows it without decoding events; 1, 0 when unknown, < 0
	 * on an error.  Runs before any message is read. */
	int (*time_range)(tc_stream_iter *it, tc_time *begin, tc_time *end);
} tc_stream_iter_ops;

struct tc_stream_iter {
	const tc_stream_iter_ops *ops;
	tc_stream *stream;
	/* Where the iterator adds the input bytes it has read, for
	 * tc_input_bytes_read(): its input's count (tc_input_add_iter), or
	 * NULL for an iterator of no input. */
	atomic_uint_least64_t *bytes_read;
};

/* Adds N bytes read to the count at SINK (NULL: none).  Readers count
 * once per packet, page or chunk: an atomic add per event would cost as
 * much as decoding it, and relaxed order is enough for a progress
 * figure read from another thread. */
static inline void tc_count_read(atomic_uint_least64_t *sink, uint64_t n)
{
	if (sink)
		atomic_fetch_add_explicit(sink, n, memory_order_relaxed);
}

/* tc_input_stream_next()'s state for one stream, on cache lines of its
 * own since threads write it for every message. */
struct tc_stream_reader {
	_Alignas(64) tc_message msg;   /* from next */
	tc_batch batch;                 /* from fill */
	size_t batch_next;
};

/* What a format reader registers in a tc_input. */
struct tc_input {
	tc_trace **traces;
	size_t trace_count;
	tc_stream_iter **iters;
	size_t iter_count;
	/* Per-format state freed with the input (after the iterators). */
	void **owned;
	void (**owned_free)(void *);
	size_t owned_count;
	bool taken;  /* the iterators belong to a muxer now */
	/* The babeltrace2 release (tc_compat) whose muxer orders this input's
	 * messages of equal times (muxer.c). */
	unsigned babeltrace2;
	size_t next_iter;      /* tc_input_next(): the stream being read */
	struct tc_stream_reader *readers;  /* tc_input_stream_next(), per stream */
	/* tc_input_bytes_read(): added to by the iterators, on whichever
	 * thread decodes them, and by a reader's open for what it reads
	 * whole there. */
	atomic_uint_least64_t bytes_read;
};

int tc_input_add_trace(tc_input *in, tc_trace *trace);

/* Appends KEY = STR (copied into POOL), or KEY = NUM when STR is NULL, to
 * TRACE's environment, which the caller frees with free(trace->env). */
int tc_trace_env_add(tc_trace *trace, tc_pool *pool, const char *key, const char *str, int64_t num);
int tc_input_add_iter(tc_input *in, tc_stream_iter *it);
/* Has IN free OBJ with FREE_FN when IN is freed; on failure (TC_ENOMEM,
 * recorded) frees OBJ at once, so that a caller never frees it. */
int tc_input_own(tc_input *in, void *obj, void (*free_fn)(void *));

/* ---- decoding ahead on worker threads (prefetch.c) ---- */

typedef struct tc_prefetch tc_prefetch;

/* Reads the COUNT streams ITERS in batches of at most BATCH_CAP messages
 * (0: as many as memory allows for COUNT streams), decoding ahead of the
 * caller on THREADS - 1 worker threads (none for 1) the streams whose
 * iterators can fill batches; the others are read on the caller's
 * thread. */
int tc_prefetch_new(tc_prefetch **out, tc_stream_iter *const *iters, size_t count, unsigned threads, size_t batch_cap);
/* The next batch of stream I, after releasing the one handed out before:
 * 1, 0 at the end of the stream, or < 0 with the error recorded. */
int tc_prefetch_next(tc_prefetch *p, size_t i, const tc_batch **out);
/* Whether the caller fills every batch itself, the workers idle (ALONE),
 * or the workers fill ahead: the prefetcher switches by itself, timing
 * how fast either way reads (prefetch.c); tests switch by hand.  Call
 * from the caller's thread. */
void tc_prefetch_set_alone(tc_prefetch *p, bool alone);
/* Stops the workers and releases every batch; the iterators stay. */
void tc_prefetch_free(tc_prefetch *p);

#endif /* TC_CORE_H */
