/* SPDX-License-Identifier: MIT */
/*
 * decode.c - turns the bytes of one packet into tc_field trees, following
 * the plans metadata.c compiled (CTF 1.8 §4: alignment, bit packing in both
 * byte orders, strings, arrays, sequences, variants), and CTF 2's kinds
 * (CTF2-SPEC-2.0's field classes; doc/formats/ctf.md §5.2: booleans, bit
 * arrays, reversed bit order, LEB128 integers, UTF-16/32 strings, BLOBs,
 * optionals, variants selected by integer ranges).  Those all take the
 * general path (MEMBER_OTHER): the fixed-layout runs of CTF 1.8 structures
 * are unchanged.
 *
 * Fields go into an arena of slots that the caller empties for every
 * batch of events (stream.c); a compound reserves its children's slots
 * before decoding them, so each struct's members are contiguous and a
 * length or tag found earlier can be reached by index.  When the arena is
 * too small the decode reports CTF_ARENA_RETRY and the caller either ends
 * the batch before the event or, for a batch's first event, grows the
 * arena and decodes the event again: no pointer into the arena is ever
 * invalidated while in use.
 *
 * Every read is checked against the decoder's limit (the packet's content
 * size) before it happens; element counts are checked against the bits
 * that remain before any slot is reserved.  Arrays and sequences of
 * fixed-layout numbers that fit are filled by one loop of their kind
 * (fill_numbers), on the general path as in the specialised plans.
 *
 * UTF-16 and UTF-32 strings are converted to UTF-8 into blocks of text
 * owned by the arena (see ctf_arena): blocks are chained, never moved, so
 * a string keeps its address for as long as its field.
 */
#include "ctf/ctf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EMPTY_ELEMENTS (1u << 20)
#define MAX_DEPTH 64          /* nesting levels decoded before giving up */
#define TEXT_BLOCK_MIN 4096

struct ctf_text_block {
	ctf_text_block *next;
	size_t cap, used;
	char data[];
};

int ctf_arena_grow(ctf_arena *a)
{
	size_t cap = a->cap ? a->cap * 2 : 256;
	tc_field *s = realloc(a->slots, cap * sizeof *s);
	if (!s)
		return tc_fail_nomem();
	a->slots = s;
	a->cap = cap;
	return 0;
}

void ctf_arena_free(ctf_arena *a)
{
	free(a->slots);
	a->slots = NULL;
	a->cap = a->used = 0;
	for (ctf_text_block *b = a->text, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	a->text = a->text_cur = NULL;
}

/* Every block free again: only when no field of the arena is in use. */
static inline void text_reset(ctf_arena *a)
{
	a->text_cur = a->text;
	if (a->text)
		a->text->used = 0;
}

/* N bytes of text in arena A, NULL when out of memory.  Blocks before
 * text_cur (and it) are in use, those after it are free: a block that
 * becomes the current one starts empty. */
static char *text_take(ctf_arena *a, size_t n)
{
	ctf_text_block *b = a->text_cur;
	while (b && b->cap - b->used < n) {
		b = b->next;
		if (b)
			b->used = 0;
	}
	if (!b) {
		size_t cap = a->text_cur && a->text_cur->cap < SIZE_MAX / 4 ? a->text_cur->cap * 2 : TEXT_BLOCK_MIN;
		if (cap < n)
			cap = n;
		if (cap > SIZE_MAX - sizeof *b || !(b = malloc(sizeof *b + cap)))
			return NULL;
		b->cap = cap;
		b->used = 0;
		if (a->text_cur) {
			b->next = a->text_cur->next;
			a->text_cur->next = b;
		} else {
			b->next = a->text;
			a->text = b;
		}
	}
	a->text_cur = b;
	char *p = b->data + b->used;
	b->used += n;
	return p;
}

/* Reserves N slots at *OUT; false when the arena is full. */
static inline bool arena_take(ctf_decoder *d, uint64_t n, tc_field **out)
{
	ctf_arena *a = d->arena;
	if (n > a->cap - a->used)
		return false;
	*out = a->slots + a->used;
	a->used += (size_t)n;
	return true;
}

/* The same for the root of a scope: in an empty arena no field points into
 * its text any more, so the text is free again too. */
static inline bool arena_take_root(ctf_decoder *d, uint64_t n, tc_field **out)
{
	if (d->arena->used == 0)
		text_reset(d->arena);
	return arena_take(d, n, out);
}

static int derr(ctf_decoder *d, const char *fmt, ...) TC_PRINTF(2, 3);
static int derr(ctf_decoder *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_vfail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + d->pos / 8), fmt, ap);
	va_end(ap);
	return TC_EFORMAT;
}

/* The same at byte BYTE of the packet. */
static int derr_at(ctf_decoder *d, uint64_t byte, const char *fmt, ...) TC_PRINTF(3, 4);
static int derr_at(ctf_decoder *d, uint64_t byte, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tc_vfail(TC_EFORMAT, d->path, (int64_t)(d->packet_offset + byte), fmt, ap);
	va_end(ap);
	return TC_EFORMAT;
}

static inline uint64_t bswap_n(uint64_t v, unsigned bytes)
{
	switch (bytes) {
	case 2: return __builtin_bswap16((uint16_t)v);
	case 4: return __builtin_bswap32((uint32_t)v);
	case 8: return __builtin_bswap64(v);
	default: return v;
	}
}

static inline bool host_is_le(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

static inline uint16_t load_u16(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t load_u32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t load_u64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* An 8, 16, 32 or 64-bit value at a byte boundary. */
static inline uint64_t load_whole(const uint8_t *p, unsigned size, tc_byte_order bo)
{
	uint64_t v;
	switch (size) {
	case 8: return *p;
	case 16: v = load_u16(p); break;
	case 32: v = load_u32(p); break;
	default: v = load_u64(p); break;
	}
	if ((bo == TC_LITTLE_ENDIAN) != host_is_le())
		v = bswap_n(v, size / 8);
	return v;
}

/* Bits [pos, pos+size) in the given byte order (CTF 1.8 §4.1.5). */
static uint64_t read_bits(const uint8_t *buf, uint64_t pos, unsigned size, tc_byte_order bo)
{
	if ((pos & 7) == 0 && (size == 8 || size == 16 || size == 32 || size == 64))
		return load_whole(buf + pos / 8, size, bo);
	uint64_t v = 0;
	unsigned done = 0;
	while (done < size) {
		uint8_t byte = buf[pos >> 3];
		unsigned bit = (unsigned)(pos & 7);
		unsigned take = 8 - bit;
		if (take > size - done)
			take = size - done;
		uint64_t mask = (1u << take) - 1;
		if (bo == TC_LITTLE_ENDIAN) {
			v |= (uint64_t)((byte >> bit) & mask) << done;
		} else {
			v = (v << take) | ((byte >> (8 - bit - take)) & mask);
		}
		done += take;
		pos += take;
	}
	return v;
}

/* POS moved up to a multiple of ALIGN, a power of two. */
static inline uint64_t align_up(uint64_t pos, unsigned align)
{
	return (pos + align - 1) & -(uint64_t)align;
}

static inline int align_to(ctf_decoder *d, unsigned align)
{
	uint64_t p = align_up(d->pos, align);
	if (p > d->limit)
		return derr(d, "alignment to %u bits runs past the end of the packet content", align);
	d->pos = p;
	return 0;
}

static int read_bit_array(ctf_decoder *d, const tc_field_class *fc, uint64_t *out)
{
	if (align_to(d, fc->align) < 0)
		return TC_EFORMAT;
	if (d->limit - d->pos < fc->size)
		return derr(d, "a %u-bit field runs past the end of the packet content (%" PRIu64 " bits left)",
		            fc->size, d->limit - d->pos);
	if (d->last_bo >= 0 && d->last_bo != (int)fc->byte_order && (d->pos & 7))
		return derr(d, "byte order changes in the middle of a byte");
	d->last_bo = (int)fc->byte_order;
	*out = read_bits(d->buf, d->pos, fc->size, fc->byte_order);
	d->pos += fc->size;
	return 0;
}

static inline void update_clock(ctf_decoder *d, uint64_t v, unsigned size)
{
	uint64_t *cur = d->clock_value;
	if (size == 64) {
		*cur = v;
		return;
	}
	/* A narrower value replaces the low bits, assuming at most one wrap
	 * since the last full value (CTF 1.8 §8; doc/formats/ctf.md §6.2). */
	uint64_t mask = ((uint64_t)1 << size) - 1;
	if (v < (*cur & mask))
		*cur += mask + 1;
	*cur = (*cur & ~mask) | v;
}

/* The field a length, tag or selector refers to: PL's path from its
 * scope's root.  A step into an array or sequence (PATH_ELEMENT) is the
 * element being decoded (or the last one decoded); into a variant its
 * selected option (CTF 1.8: the step names it, CTF 2: PATH_SELECTED);
 * into a CTF 2 optional (PATH_SELECTED) its field.  A path ending on a
 * variant (CTF 2: all its options are integers) gives the selected
 * option's field. */
static int lookup_ref(ctf_decoder *d, const ctf_plan *pl, const tc_field **out)
{
	const tc_field *f = d->roots[pl->ref_scope];
	if (!f)
		return derr(d, "a length or tag refers to a scope that was not decoded");
	for (size_t i = 0; i < pl->ref_len; i++) {
		uint16_t step = pl->ref_path[i];
		tc_field_kind kind = f->cls->kind;
		if (kind == TC_FIELD_VARIANT) {
			if (step < PATH_SELECTED && f->option != step)
				return derr(d, "a length or tag lies in a variant option that was not selected");
			f = &f->v.compound.items[0];
		} else if (step >= PATH_SELECTED || TC_UNLIKELY(kind == TC_FIELD_OPTIONAL)) {
			size_t k = kind == TC_FIELD_OPTIONAL ? 0 : f->option;
			if (TC_UNLIKELY(k >= f->v.compound.count))
				return derr(d, "a length or tag lies in an empty array or an absent optional");
			f = &f->v.compound.items[k];
		} else {
			f = &f->v.compound.items[step];
		}
	}
	while (TC_UNLIKELY(f->cls->kind == TC_FIELD_VARIANT))
		f = &f->v.compound.items[0];
	*out = f;
	return 0;
}

/* The option of variant PL that tag value V of enumeration TAG selects: the
 * first label, in declaration order, that has an option and a range
 * holding V.  -1 when none. */
static inline int32_t select_option(const ctf_plan *pl, const tc_field_class *tag, uint64_t v)
{
	const ctf_plan *tp = plan_of(tag);
	if (tag->is_signed)
		v ^= (uint64_t)1 << 63;
	for (size_t r = 0; r < tp->label_range_count; r++) {
		const ctf_label_range *lr = &tp->label_ranges[r];
		if (v - lr->lo <= lr->span && pl->label_option[lr->label] >= 0)
			return pl->label_option[lr->label];
	}
	return -1;
}

static inline void store_float(tc_field *out, uint64_t bits, unsigned size)
{
	if (size == 32) {
		uint32_t u = (uint32_t)bits;
		float f;
		memcpy(&f, &u, 4);
		out->v.f = f;
	} else {
		memcpy(&out->v.f, &bits, 8);
	}
}

/* What reading an integer with a role or a clock means: an event id, a
 * special packet field, a clock update (of the low WIDTH bits: the
 * integer's size, 7 bits a byte for a CTF 2 LEB128 one). */
static inline void apply_meaning(ctf_decoder *d, tc_field_role role, bool moves_clock, uint64_t v, unsigned width)
{
	if (role == TC_ROLE_EVENT_ID) {
		d->have_id = true;
		d->id = v;
	} else if (role != TC_ROLE_NONE) {
		d->have_role[role] = true;
		d->role_value[role] = v;
	}
	if (moves_clock)
		update_clock(d, v, width);
}

static inline void apply_special(ctf_decoder *d, const tc_field_class *fc, uint64_t v, unsigned width)
{
	tc_field_role role = plan_of(fc)->role;
	/* timestamp_end is read but does not move the clock. */
	apply_meaning(d, role, role != TC_ROLE_TS_END && fc->clock && fc->clock == d->clock, v, width);
}

static inline void apply_special_int(ctf_decoder *d, const tc_field_class *fc, uint64_t v)
{
	apply_special(d, fc, v, fc->size);
}

static inline bool is_special_int(const tc_field_class *fc)
{
	return fc->clock || plan_of(fc)->role != TC_ROLE_NONE;
}

/* Stores an integer's value, sign-extended, and applies its meaning. */
static inline void store_int(ctf_decoder *d, const tc_field_class *fc, tc_field *out, uint64_t v)
{
	if (fc->is_signed && fc->size < 64 && (v >> (fc->size - 1)) & 1)
		v |= ~(uint64_t)0 << fc->size;
	out->v.u = v;
	if (TC_UNLIKELY(is_special_int(fc)))
		apply_special_int(d, fc, v);
}

/* Where the first zero byte of the 8-byte word at P is: 0-7, or 8 when
 * there is none. */
static inline unsigned zero_byte_in_word(const char *p)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	uint64_t w;
	memcpy(&w, p, 8);
	if (!host_is_le())
		w = __builtin_bswap64(w);
	/* The lowest high bit set marks the first zero byte (borrows only
	 * reach bytes above it). */
	uint64_t zero = (w - ones) & ~w & highs;
	return zero ? (unsigned)__builtin_ctzll(zero) / 8 : 8;
}

/* The length of the text in the N bytes at P: up to the first NUL.
 * Word by word, without a call: such texts are short. */
static inline size_t text_len(const char *p, size_t n)
{
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		unsigned z = zero_byte_in_word(p + i);
		if (z < 8)
			return i + z;
	}
	for (; i < n; i++)
		if (p[i] == '\0')
			return i;
	return n;
}

/* The first NUL in the N bytes at P, or NULL.  Most strings are short:
 * the first two words are searched inline before calling memchr. */
static inline const char *find_nul(const char *p, size_t n)
{
	size_t i = 0;
	for (; i < 16 && n - i >= 8; i += 8) {
		unsigned z = zero_byte_in_word(p + i);
		if (z < 8)
			return p + i + z;
	}
	return memchr(p + i, '\0', n - i);
}

/* Where the run starting with member plan RUN would start from the
 * current position: false if it would not be aligned as its plan assumes
 * or would not fit.  Positions stay below the file's size in bits and runs
 * below 2^32 bits: the sum cannot wrap. */
static inline bool run_fits(const ctf_decoder *d, const ctf_member_plan *run, uint64_t *p)
{
	uint64_t at = (d->pos + run->lead_mask) & ~(uint64_t)run->lead_mask;
	*p = at;
	return (at & run->align_mask) == 0 && at + run->run_bits <= d->limit;
}

/* ---- CTF 2 strings in UTF-16 and UTF-32 (CTF2-SPEC-2.0, string field
 * classes' encoding) ---- */

static inline unsigned unit_bytes(tc_string_encoding enc)
{
	return enc == TC_UTF16LE || enc == TC_UTF16BE ? 2 : 4;
}

static const char *encoding_name(tc_string_encoding enc)
{
	switch (enc) {
	case TC_UTF16LE: return "UTF-16LE";
	case TC_UTF16BE: return "UTF-16BE";
	case TC_UTF32LE: return "UTF-32LE";
	case TC_UTF32BE: return "UTF-32BE";
	default: return "UTF-8";
	}
}

/* How many of the N code units of US bytes at P come before the first
 * all-zero one: N when there is none. */
static size_t units_before_nul(const uint8_t *p, size_t n, unsigned us)
{
	for (size_t i = 0; i < n; i++, p += us)
		if (p[0] == 0 && p[1] == 0 && (us == 2 || (p[2] == 0 && p[3] == 0)))
			return i;
	return n;
}

/* The N code units at P (byte AT of the packet), in encoding ENC, as UTF-8
 * text of D's arena, into OUT (of class FC).  A lone surrogate, or a
 * UTF-32 unit that is no Unicode scalar value, is an error (babeltrace2
 * stops on what iconv refuses). */
static int convert_text(ctf_decoder *d, const tc_field_class *fc, const uint8_t *p, size_t n, uint64_t at,
                        tc_field *out)
{
	tc_string_encoding enc = fc->encoding;
	unsigned us = unit_bytes(enc);
	tc_byte_order bo = enc == TC_UTF16LE || enc == TC_UTF32LE ? TC_LITTLE_ENDIAN : TC_BIG_ENDIAN;
	out->cls = fc;
	out->option = 0;
	out->v.str.ptr = "";
	out->v.str.len = 0;
	if (n == 0)
		return 0;
	/* At most 3 bytes a UTF-16 unit (4 for a pair), 4 a UTF-32 one. */
	if (n > SIZE_MAX / 4)
		return derr_at(d, at, "a %s string too long to convert", encoding_name(enc));
	size_t room = n * (us == 2 ? 3 : 4);
	char *o = text_take(d->arena, room), *start = o;
	if (!o)
		return tc_fail_nomem();
	for (size_t i = 0; i < n; i++) {
		uint32_t c = (uint32_t)load_whole(p + i * us, us * 8, bo);
		if (us == 2 && c >= 0xD800 && c <= 0xDFFF) {
			uint32_t lo = i + 1 < n ? (uint32_t)load_whole(p + (i + 1) * us, us * 8, bo) : 0;
			if (c >= 0xDC00 || lo < 0xDC00 || lo > 0xDFFF)
				return derr_at(d, at + i * us, "invalid %s string: unpaired surrogate 0x%04" PRIX32,
				               encoding_name(enc), c);
			c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
			i++;
		} else if (us == 4 && (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))) {
			return derr_at(d, at + i * us, "invalid %s string: 0x%" PRIX32 " is not a Unicode scalar value",
			               encoding_name(enc), c);
		}
		if (c < 0x80) {
			*o++ = (char)c;
		} else if (c < 0x800) {
			*o++ = (char)(0xC0 | c >> 6);
			*o++ = (char)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			*o++ = (char)(0xE0 | c >> 12);
			*o++ = (char)(0x80 | ((c >> 6) & 0x3F));
			*o++ = (char)(0x80 | (c & 0x3F));
		} else {
			*o++ = (char)(0xF0 | c >> 18);
			*o++ = (char)(0x80 | ((c >> 12) & 0x3F));
			*o++ = (char)(0x80 | ((c >> 6) & 0x3F));
			*o++ = (char)(0x80 | (c & 0x3F));
		}
	}
	/* Hand back what the text did not need: text_take's block is the
	 * current one. */
	d->arena->text_cur->used -= room - (size_t)(o - start);
	out->v.str.ptr = start;
	out->v.str.len = (size_t)(o - start);
	return 0;
}

/* A null-terminated UTF-16/32 string: code units up to and including the
 * first all-zero one, searched at unit boundaries. */
static __attribute__((noinline)) int decode_wide_string(ctf_decoder *d, const tc_field_class *fc, tc_field *out)
{
	if (align_to(d, 8) < 0)
		return TC_EFORMAT;
	unsigned us = unit_bytes(fc->encoding);
	const uint8_t *p = d->buf + d->pos / 8;
	size_t units = (size_t)((d->limit - d->pos) / 8) / us;
	size_t n = units_before_nul(p, units, us);
	if (n == units)
		return derr(d, "%s string without a terminating NUL code unit before the end of the packet content",
		            encoding_name(fc->encoding));
	int rc = convert_text(d, fc, p, n, d->pos / 8, out);
	if (rc)
		return rc;
	d->pos += (uint64_t)(n + 1) * us * 8;
	return 0;
}

/* A static- or dynamic-length UTF-16/32 string of BYTES bytes (checked to
 * fit): the text stops at the first all-zero code unit; without one, the
 * bytes must be whole units. */
static __attribute__((noinline)) int decode_wide_text(ctf_decoder *d, const tc_field_class *fc, tc_field *out,
                                                      uint64_t bytes)
{
	unsigned us = unit_bytes(fc->encoding);
	const uint8_t *p = d->buf + d->pos / 8;
	size_t units = (size_t)bytes / us;
	size_t n = units_before_nul(p, units, us);
	if (n == units && bytes % us)
		return derr_at(d, d->pos / 8 + units * us, "a %s string of %" PRIu64 " bytes ends in the middle of a code unit",
		               encoding_name(fc->encoding), bytes);
	int rc = convert_text(d, fc, p, n, d->pos / 8, out);
	if (rc)
		return rc;
	d->pos += bytes * 8;
	return 0;
}

static int decode_field(ctf_decoder *d, const tc_field_class *fc, tc_field *out, int depth);

/* A null-terminated UTF-8 string: the callers send the others to
 * decode_wide_string. */
static inline int decode_string(ctf_decoder *d, const tc_field_class *fc, tc_field *out)
{
	if (align_to(d, 8) < 0)
		return TC_EFORMAT;
	const char *p = (const char *)d->buf + d->pos / 8;
	size_t avail = (size_t)((d->limit - d->pos) / 8);
	const char *nul = find_nul(p, avail);
	if (!nul)
		return derr(d, "string without a terminating NUL before the end of the packet content");
	out->cls = fc;
	out->option = 0;
	out->v.str.ptr = p;
	out->v.str.len = (size_t)(nul - p);
	d->pos += (out->v.str.len + 1) * 8;
	return 0;
}

/* The fixed-layout integer of kind K (MEMBER_U8 to MEMBER_U64_SWAPPED) at
 * AT, sign-extended.  Always inlined: with K known where it is called, it
 * is one load. */
__attribute__((always_inline))
static inline uint64_t load_int_kind(ctf_member_kind k, const uint8_t *at)
{
	switch (k) {
	case MEMBER_U8: return at[0];
	case MEMBER_S8: return (uint64_t)(int8_t)at[0];
	case MEMBER_U16: return load_u16(at);
	case MEMBER_S16: return (uint64_t)(int16_t)load_u16(at);
	case MEMBER_U32: return load_u32(at);
	case MEMBER_S32: return (uint64_t)(int32_t)load_u32(at);
	case MEMBER_U64: return load_u64(at);
	case MEMBER_U16_SWAPPED: return __builtin_bswap16(load_u16(at));
	case MEMBER_S16_SWAPPED: return (uint64_t)(int16_t)__builtin_bswap16(load_u16(at));
	case MEMBER_U32_SWAPPED: return __builtin_bswap32(load_u32(at));
	case MEMBER_S32_SWAPPED: return (uint64_t)(int32_t)__builtin_bswap32(load_u32(at));
	case MEMBER_U64_SWAPPED: return __builtin_bswap64(load_u64(at));
	default: __builtin_unreachable();   /* callers pass integer kinds */
	}
}

/* Decodes fixed-layout member M, planned by MP, into O: its run starts at
 * BASE.  Always inlined: it is the hot path of decoding.  Its byte order is
 * not recorded in d->last_bo: a whole-byte read leaves the position on a
 * byte boundary, where the byte order may change (see read_bit_array). */
__attribute__((always_inline))
static inline void decode_fixed_member(ctf_decoder *d, const ctf_member_plan *mp, const tc_field_class *m,
                                       tc_field *o, const uint8_t *base)
{
	const uint8_t *at = base + mp->offset;
	o->cls = m;
	o->option = 0;
	switch ((ctf_member_kind)mp->kind) {
	case MEMBER_FLOAT:
		store_float(o, load_whole(at, m->size, m->byte_order), m->size);
		return;
	case MEMBER_TEXT:
		o->v.str.ptr = (const char *)at;
		o->v.str.len = text_len((const char *)at, (size_t)m->length);
		return;
	default:
		break;
	}
	uint64_t v = load_int_kind((ctf_member_kind)mp->kind, at);
	o->v.u = v;
	if (TC_UNLIKELY(is_special_int(m)))
		apply_special_int(d, m, v);
}

/* Fills the N slots ITEMS with the elements of array or sequence FC, fixed-
 * layout numbers (its plan's numbers) whose bytes start at P: one loop
 * for their kind, each element loaded from its bytes and nothing else
 * asked: the callers leave elements with a role or a clock to the
 * general path. */
static void fill_numbers(tc_field *items, const tc_field_class *fc, const uint8_t *p, size_t n)
{
	const ctf_plan *pl = plan_of(fc);
	const tc_field_class *el = fc->element;
	size_t stride = pl->element_stride;
#define FILL_INTS(k) \
	for (size_t i = 0; i < n; i++, p += stride) \
		items[i] = (tc_field){ .cls = el, .v.u = load_int_kind(k, p) }; \
	break
	switch ((ctf_member_kind)pl->element_kind) {
	case MEMBER_U8: FILL_INTS(MEMBER_U8);
	case MEMBER_S8: FILL_INTS(MEMBER_S8);
	case MEMBER_U16: FILL_INTS(MEMBER_U16);
	case MEMBER_S16: FILL_INTS(MEMBER_S16);
	case MEMBER_U32: FILL_INTS(MEMBER_U32);
	case MEMBER_S32: FILL_INTS(MEMBER_S32);
	case MEMBER_U64: FILL_INTS(MEMBER_U64);
	case MEMBER_U16_SWAPPED: FILL_INTS(MEMBER_U16_SWAPPED);
	case MEMBER_S16_SWAPPED: FILL_INTS(MEMBER_S16_SWAPPED);
	case MEMBER_U32_SWAPPED: FILL_INTS(MEMBER_U32_SWAPPED);
	case MEMBER_S32_SWAPPED: FILL_INTS(MEMBER_S32_SWAPPED);
	case MEMBER_U64_SWAPPED: FILL_INTS(MEMBER_U64_SWAPPED);
	default:
		for (size_t i = 0; i < n; i++, p += stride) {
			items[i] = (tc_field){ .cls = el };
			store_float(&items[i], load_whole(p, el->size, el->byte_order), el->size);
		}
		break;
	}
#undef FILL_INTS
}

/* The bytes of N elements of array or sequence FC of numbers: the last
 * one needs no padding after it.  N * stride must not overflow. */
static inline uint64_t numbers_bytes(const tc_field_class *fc, uint64_t n)
{
	return n ? (n - 1) * plan_of(fc)->element_stride + fc->element->size / 8 : 0;
}

static int decode_struct(ctf_decoder *d, const tc_field_class *fc, tc_field *out, tc_field *items, int depth);

/* Whether one of L's ranges holds V, compared as signed when IS_SIGNED. */
static bool ranges_hold(const tc_enum_label *l, bool is_signed, uint64_t v)
{
	for (size_t r = 0; r < l->range_count; r++) {
		const tc_enum_range *x = &l->ranges[r];
		if (is_signed ? (int64_t)x->lo <= (int64_t)v && (int64_t)v <= (int64_t)x->hi : x->lo <= v && v <= x->hi)
			return true;
	}
	return false;
}

/* The option of CTF 2 variant FC that selector field SEL selects: the one
 * whose ranges (labels[i]) hold its value; -1 (error recorded) when none
 * does. */
static __attribute__((noinline)) int32_t select_ranged_option(ctf_decoder *d, const tc_field_class *fc,
                                                              const tc_field *sel)
{
	while (sel->cls->kind == TC_FIELD_VARIANT)
		sel = &sel->v.compound.items[0];
	bool is_signed = sel->cls->is_signed;
	for (size_t o = 0; o < fc->label_count && o < fc->member_count; o++)
		if (ranges_hold(&fc->labels[o], is_signed, sel->v.u))
			return (int32_t)o;
	if (is_signed)
		derr(d, "no variant field option selected by the selector value %" PRId64, sel->v.s);
	else
		derr(d, "no variant field option selected by the selector value %" PRIu64, sel->v.u);
	return -1;
}

static inline int decode_variant(ctf_decoder *d, const tc_field_class *fc, const tc_field *tag, tc_field *out,
                                 int depth);

/* Decodes member M, planned by MP, of a structure at nesting DEPTH into O,
 * one of ITEMS, when it is not fixed-layout. */
__attribute__((always_inline))
static inline int decode_loose_member(ctf_decoder *d, const ctf_member_plan *mp, const tc_field_class *m,
                                      tc_field *o, tc_field *items, int depth)
{
	switch ((ctf_member_kind)mp->kind) {
	case MEMBER_STRING:
		return decode_string(d, m, o);
	case MEMBER_SIBLING_VARIANT:
		return decode_variant(d, m, &items[mp->tag_member], o, depth + 1);
	default:
		return decode_field(d, m, o, depth + 1);
	}
}

/* A simple structure (see ctf_plan): the common case, without the general
 * member loop of decode_struct and its register pressure. */
static int decode_simple_struct(ctf_decoder *d, const tc_field_class *fc, tc_field *out, tc_field *items,
                                int depth)
{
	const ctf_member_plan *mp = plan_of(fc)->members;
	size_t n = fc->member_count, lead = mp->run_len;
	/* The run, if any, starts where the structure does (see compile_runs);
	 * run_bits is 0 without one.  Positions stay below the file's size
	 * in bits and runs below 2^32 bits: the sum cannot wrap. */
	uint64_t p = align_up(d->pos, fc->align);
	if (TC_UNLIKELY(depth > MAX_DEPTH || p + mp->run_bits > d->limit))
		return decode_struct(d, fc, out, items, depth);   /* to report the error */
	out->cls = fc;
	out->option = 0;
	out->v.compound.items = items;
	out->v.compound.count = n;
	const uint8_t *base = d->buf + p / 8;
	d->pos = p + mp->run_bits;
	const tc_member *mem = fc->members;
	for (size_t i = 0; i < lead; i++)
		decode_fixed_member(d, &mp[i], mem[i].cls, &items[i], base);
	if (lead == n)
		return 0;
	return decode_loose_member(d, &mp[lead], mem[lead].cls, &items[lead], items, depth);
}

/* Any structure. */
static inline int decode_any_struct(ctf_decoder *d, const tc_field_class *fc, tc_field *out, tc_field *items,
                                    int depth)
{
	if (plan_of(fc)->simple)
		return decode_simple_struct(d, fc, out, items, depth);
	return decode_struct(d, fc, out, items, depth);
}

/* Decodes CHILD, the one field of variant or optional OUT at nesting
 * DEPTH, into a slot it reserves (with its members' if it is a
 * structure), and makes OUT's items that slot. */
__attribute__((always_inline))
static inline int decode_only_child(ctf_decoder *d, const tc_field_class *child, tc_field *out, int depth)
{
	bool is_struct = child->kind == TC_FIELD_STRUCT;
	tc_field *item;
	if (!arena_take(d, 1 + (is_struct ? child->member_count : 0), &item))
		return CTF_ARENA_RETRY;
	out->v.compound.items = item;
	out->v.compound.count = 1;
	if (is_struct)
		return decode_any_struct(d, child, item, item + 1, depth + 1);
	return decode_field(d, child, item, depth + 1);
}

/* Decodes variant FC, whose tag field TAG was already decoded.  Inlined
 * where variants are met, most often as the last member of a simple
 * structure, which then loops on its option instead of calling. */
__attribute__((always_inline))
static inline int decode_variant(ctf_decoder *d, const tc_field_class *fc, const tc_field *tag, tc_field *out, int depth)
{
	const ctf_plan *pl = plan_of(fc);
	if (depth > MAX_DEPTH)
		return derr(d, "fields nested too deeply");
	int32_t opt;
	if (TC_UNLIKELY(fc->labels != NULL)) {
		/* CTF 2: options by selector ranges */
		if ((opt = select_ranged_option(d, fc, tag)) < 0)
			return TC_EFORMAT;
	} else if ((opt = select_option(pl, pl->ref_cls, tag->v.u)) < 0) {
		if (pl->ref_cls->is_signed)
			return derr(d, "variant tag value %" PRId64 " selects no option", tag->v.s);
		return derr(d, "variant tag value %" PRIu64 " selects no option", tag->v.u);
	}
	out->cls = fc;
	out->option = (uint32_t)opt;
	return decode_only_child(d, fc->members[opt].cls, out, depth);
}

/* Decodes structure FC into OUT, and its members into ITEMS, the slots the
 * caller reserved for them (with its own when it could). */
static int decode_struct(ctf_decoder *d, const tc_field_class *fc, tc_field *out, tc_field *items, int depth)
{
	if (TC_UNLIKELY(depth > MAX_DEPTH))
		return derr(d, "fields nested too deeply");
	if (TC_UNLIKELY(align_to(d, fc->align) < 0))
		return TC_EFORMAT;
	size_t n = fc->member_count;
	out->cls = fc;
	out->option = 0;
	out->v.compound.items = items;
	out->v.compound.count = n;
	const ctf_member_plan *mp = plan_of(fc)->members, *end = mp + n;
	const tc_member *mem = fc->members;
	tc_field *o = items;
	const uint8_t *base = NULL;    /* where the current run starts */
	for (; mp < end; mp++, mem++, o++) {
		const tc_field_class *m = mem->cls;
		int rc;
		if (mp->run_len) {
			uint64_t p;
			if (TC_UNLIKELY(!run_fits(d, mp, &p))) {
				/* Misplaced or cut short: member by member, each
				 * with its own checks. */
				uint32_t len = mp->run_len;
				for (uint32_t k = 0; k < len; k++)
					if ((rc = decode_field(d, mem[k].cls, &o[k], depth + 1)) != 0)
						return rc;
				mp += len - 1;
				mem += len - 1;
				o += len - 1;
				continue;
			}
			base = d->buf + p / 8;
			d->pos = p + mp->run_bits;
		}
		if (MEMBER_IS_FIXED(mp->kind))
			decode_fixed_member(d, mp, m, o, base);
		else if ((rc = decode_loose_member(d, mp, m, o, items, depth)) != 0)
			return rc;
	}
	return 0;
}

static int decode_elements(ctf_decoder *d, const tc_field_class *fc, tc_field *out, uint64_t n, int depth)
{
	const tc_field_class *el = fc->element;
	out->cls = fc;
	out->option = 0;
	out->v.compound.count = 0;
	/* CTF 2 arrays may be aligned more than their elements, even when
	 * empty (CTF2-SPEC-2.0, array field classes' minimum-alignment);
	 * ctf_layout_update makes fc->align at least el->align.  Text is
	 * byte-aligned: TSDL text elements are, and CTF 2 strings say so by
	 * kind. */
	if (align_to(d, fc->align) < 0)
		return TC_EFORMAT;
	uint64_t left = d->limit - d->pos;
	if (fc->flags & TC_FIELD_TEXT) {
		if (n > left / 8)
			return derr(d, "a text array of %" PRIu64 " bytes runs past the end of the packet content", n);
		if (TC_UNLIKELY(fc->encoding != TC_UTF8))
			return decode_wide_text(d, fc, out, n);
		const char *p = (const char *)d->buf + d->pos / 8;
		out->v.str.ptr = p;
		out->v.str.len = text_len(p, (size_t)n);
		d->pos += n * 8;
		return 0;
	}
	uint64_t min = plan_of(el)->min_bits;
	if ((min && n > left / min) || (!min && n > MAX_EMPTY_ELEMENTS))
		return derr(d, "an array of %" PRIu64 " elements cannot fit in the %" PRIu64 " bits left in the packet", n, left);
	tc_field *items;
	if (!arena_take(d, n, &items))
		return CTF_ARENA_RETRY;
	out->v.compound.items = items;
	out->v.compound.count = (size_t)n;
	const ctf_plan *pl = plan_of(fc);
	/* Numbers that all fit, in one step; else element by element, each
	 * with its own checks (and error). */
	if (pl->numbers && !is_special_int(el) && n <= left / 8 / pl->element_stride) {
		fill_numbers(items, fc, d->buf + d->pos / 8, (size_t)n);
		d->pos += numbers_bytes(fc, n) * 8;
		out->option = n ? (uint32_t)(n - 1) : 0;
		return 0;
	}
	for (uint64_t i = 0; i < n; i++) {
		out->option = (uint32_t)i;
		int rc = decode_field(d, el, &items[i], depth + 1);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- CTF 2 numbers, BLOBs, optionals ---- */

/* The low N (1..64) bits of V in the reverse order (CTF2-SPEC-2.0,
 * fixed-length bit array field class: bit order). */
static inline uint64_t reverse_bits(uint64_t v, unsigned n)
{
	v = ((v >> 1) & UINT64_C(0x5555555555555555)) | ((v & UINT64_C(0x5555555555555555)) << 1);
	v = ((v >> 2) & UINT64_C(0x3333333333333333)) | ((v & UINT64_C(0x3333333333333333)) << 2);
	v = ((v >> 4) & UINT64_C(0x0F0F0F0F0F0F0F0F)) | ((v & UINT64_C(0x0F0F0F0F0F0F0F0F)) << 4);
	return __builtin_bswap64(v) >> (64 - n);
}

/* A LEB128 integer (CTF2-SPEC-2.0, variable-length integer field class)
 * into *OUT, sign-extended when FC is
 * signed; *WIDTH gets its bits (7 a byte, at most 64).  At most 10 bytes,
 * the 10th the last and holding exactly what fits in 64 bits, as
 * babeltrace2 requires. */
static int read_varlen(ctf_decoder *d, const tc_field_class *fc, uint64_t *out, unsigned *width)
{
	if (align_to(d, 8) < 0)
		return TC_EFORMAT;
	const uint8_t *p = d->buf + d->pos / 8;
	uint64_t avail = (d->limit - d->pos) / 8, v = 0;
	unsigned n = 0;
	for (;;) {
		if (n == avail)
			return derr(d, "a variable-length integer runs past the end of the packet content");
		uint8_t b = p[n];
		if (n == 9) {
			uint8_t last = b & 0x7F;
			if ((b & 0x80) || (fc->is_signed ? last != 0 && last != 0x7F : last != 1))
				return derr(d, "unsupported oversized (more than 64 bits of data) variable-length integer field");
			v |= (uint64_t)last << 63;
			n++;
			break;
		}
		v |= (uint64_t)(b & 0x7F) << (7 * n);
		n++;
		if (!(b & 0x80))
			break;
	}
	unsigned bits = 7 * n;
	if (fc->is_signed && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~(uint64_t)0 << bits;
	d->pos += (uint64_t)n * 8;
	*out = v;
	*width = bits < 64 ? bits : 64;
	return 0;
}

/* A CTF 2 integer that is LEB128 or read in reversed bit order. */
static __attribute__((noinline)) int decode_int_ctf2(ctf_decoder *d, const tc_field_class *fc, tc_field *out)
{
	uint64_t v = 0;
	unsigned width = fc->size;
	if (!(fc->flags & TC_FIELD_VARLEN)) {
		if (read_bit_array(d, fc, &v) < 0)
			return TC_EFORMAT;
		out->cls = fc;
		out->option = 0;
		store_int(d, fc, out, reverse_bits(v, fc->size));
		return 0;
	}
	if (read_varlen(d, fc, &v, &width) < 0)
		return TC_EFORMAT;
	out->cls = fc;
	out->option = 0;
	out->v.u = v;
	if (is_special_int(fc))
		apply_special(d, fc, v, width);
	return 0;
}

/* A boolean (0 or 1) or a bit array, in either bit order. */
static int decode_bits(ctf_decoder *d, const tc_field_class *fc, tc_field *out)
{
	uint64_t v;
	if (read_bit_array(d, fc, &v) < 0)
		return TC_EFORMAT;
	if (fc->kind == TC_FIELD_BOOL)
		v = v != 0;   /* any bit set, whatever their order */
	else if (fc->flags & TC_FIELD_BIT_REVERSED)
		v = reverse_bits(v, fc->size);
	out->cls = fc;
	out->option = 0;
	out->v.u = v;
	return 0;
}

/* Bytes: LENGTH of them, or as many as the length field says. */
static int decode_blob(ctf_decoder *d, const tc_field_class *fc, tc_field *out)
{
	uint64_t n = fc->length;
	if (fc->length_ref) {
		const tc_field *len;
		if (lookup_ref(d, plan_of(fc), &len) < 0)
			return TC_EFORMAT;
		n = len->v.u;
	}
	if (align_to(d, 8) < 0)
		return TC_EFORMAT;
	uint64_t left = (d->limit - d->pos) / 8;
	if (n > left)
		return derr(d, "a BLOB of %" PRIu64 " bytes runs past the end of the packet content (%" PRIu64 " bytes left)",
		            n, left);
	out->cls = fc;
	out->option = 0;
	out->v.str.ptr = (const char *)d->buf + d->pos / 8;
	out->v.str.len = (size_t)n;
	d->pos += n * 8;
	return 0;
}

/* Whether optional FC's selector field SEL makes it present: a boolean
 * that is true, or an integer in its ranges (labels[0]). */
static bool optional_present(const tc_field_class *fc, const tc_field *sel)
{
	if (sel->cls->kind == TC_FIELD_BOOL || !fc->labels || !fc->label_count)
		return sel->v.u != 0;
	return ranges_hold(&fc->labels[0], sel->cls->is_signed, sel->v.u);
}

/* An optional: count 1 and its field when the selector says so, else
 * count 0 and no bits. */
static int decode_optional(ctf_decoder *d, const tc_field_class *fc, tc_field *out, int depth)
{
	const tc_field *sel;
	if (depth > MAX_DEPTH)
		return derr(d, "fields nested too deeply");
	if (lookup_ref(d, plan_of(fc), &sel) < 0)
		return TC_EFORMAT;
	out->cls = fc;
	out->option = 0;
	out->v.compound.items = NULL;
	out->v.compound.count = 0;
	if (!optional_present(fc, sel))
		return 0;
	return decode_only_child(d, fc->element, out, depth);
}

/* Any field, at nesting DEPTH. */
static int decode_field(ctf_decoder *d, const tc_field_class *fc, tc_field *out, int depth)
{
	const ctf_plan *pl = plan_of(fc);
	switch (fc->kind) {
	case TC_FIELD_INT:
	case TC_FIELD_ENUM: {
		uint64_t v;
		/* Byte-aligned and in bounds: a byte order change is allowed here. */
		if (pl->whole_bytes && (d->pos & (fc->align - 1)) == 0 && d->limit - d->pos >= fc->size) {
			v = load_whole(d->buf + d->pos / 8, fc->size, fc->byte_order);
			d->pos += fc->size;
		} else if (TC_UNLIKELY(fc->flags & (TC_FIELD_VARLEN | TC_FIELD_BIT_REVERSED))) {
			return decode_int_ctf2(d, fc, out);
		} else if (read_bit_array(d, fc, &v) < 0) {
			return TC_EFORMAT;
		}
		out->cls = fc;
		out->option = 0;
		store_int(d, fc, out, v);
		return 0;
	}
	case TC_FIELD_FLOAT: {
		uint64_t v;
		if (read_bit_array(d, fc, &v) < 0)
			return TC_EFORMAT;
		if (TC_UNLIKELY(fc->flags & TC_FIELD_BIT_REVERSED))
			v = reverse_bits(v, fc->size);
		out->cls = fc;
		out->option = 0;
		store_float(out, v, fc->size);
		return 0;
	}
	case TC_FIELD_STRING:
		if (TC_UNLIKELY(fc->encoding != TC_UTF8))
			return decode_wide_string(d, fc, out);
		return decode_string(d, fc, out);
	case TC_FIELD_STRUCT: {
		tc_field *items;
		if (!arena_take(d, fc->member_count, &items))
			return CTF_ARENA_RETRY;
		return decode_any_struct(d, fc, out, items, depth);
	}
	case TC_FIELD_ARRAY:
		return decode_elements(d, fc, out, fc->length, depth);
	case TC_FIELD_SEQUENCE: {
		const tc_field *len;
		if (lookup_ref(d, pl, &len) < 0)
			return TC_EFORMAT;
		return decode_elements(d, fc, out, len->v.u, depth);
	}
	case TC_FIELD_VARIANT: {
		const tc_field *tag;
		if (lookup_ref(d, pl, &tag) < 0)
			return TC_EFORMAT;
		return decode_variant(d, fc, tag, out, depth);
	}
	case TC_FIELD_BOOL:
	case TC_FIELD_BIT_ARRAY:
		return decode_bits(d, fc, out);
	case TC_FIELD_BLOB:
		return decode_blob(d, fc, out);
	case TC_FIELD_OPTIONAL:
		return decode_optional(d, fc, out, depth);
	}
	return derr(d, "unknown field kind");
}

int ctf_decode_scope(ctf_decoder *d, ctf_scope scope, const tc_field_class *cls, tc_field **root)
{
	/* The root's slot, and its members' if it is a structure. */
	bool is_struct = cls->kind == TC_FIELD_STRUCT;
	tc_field *slot;
	if (!arena_take_root(d, 1 + (is_struct ? cls->member_count : 0), &slot))
		return CTF_ARENA_RETRY;
	d->roots[scope] = slot;
	*root = slot;
	if (is_struct)
		return decode_any_struct(d, cls, slot, slot + 1, 0);
	return decode_field(d, cls, slot, 0);
}

/* ---- specialised plans (event_plan.c) ---- */

/* The value of integer FI at BASE (see ctf_fixed_int): no branch on its
 * size, sign or byte order. */
static inline uint64_t fixed_int_value(const ctf_fixed_int *fi, const uint8_t *base)
{
	uint64_t raw = load_u64(base + fi->offset);
	uint64_t x = (fi->swap ? __builtin_bswap64(raw) : raw) << fi->lshift;
	uint64_t u = x >> fi->rshift;
	uint64_t s = (uint64_t)((int64_t)x >> fi->rshift);
	return fi->is_signed ? s : u;
}

/* The value of integer FI at BASE, one with a meaning (event id, clock),
 * after applying that meaning. */
static inline uint64_t fixed_meaning_value(ctf_decoder *d, const ctf_fixed_int *fi, const uint8_t *base)
{
	uint64_t v = fixed_int_value(fi, base);
	apply_meaning(d, (tc_field_role)fi->role, fi->moves_clock, v, 64u - fi->rshift);
	return v;
}

/* Applies the meanings of plan P's integers at BASE, building no field. */
static inline void apply_fixed_meanings(ctf_decoder *d, const ctf_event_plan *p, const uint8_t *base)
{
	const ctf_fixed_int *fi = p->ints + p->plain_int_count + p->float32_count, *end = p->ints + p->int_count;
	for (; fi < end; fi++)
		fixed_meaning_value(d, fi, base);
}

/* Fills the roots of plan P among SLOTS. */
__attribute__((always_inline)) static inline void fill_roots(ctf_decoder *d, const ctf_event_plan *p, tc_field *slots)
{
	for (const ctf_fixed_root *r = p->roots, *end = r + p->root_count; r < end; r++) {
		tc_field *root = slots + r->slot;
		*root = (tc_field){ .cls = r->cls, .v.compound = { root + 1, r->cls->member_count } };
		if (r->scope >= 0)
			d->roots[r->scope] = root;
	}
}

/* Fills the slots, among SLOTS, of the members of run R whose bytes start
 * at BASE (the string ending it aside), and applies their meanings. */
__attribute__((always_inline)) static inline void fill_run(ctf_decoder *d, const ctf_event_plan *r, tc_field *slots, const uint8_t *base)
{
	const ctf_fixed_int *fi = r->ints, *plain_end = fi + r->plain_int_count;
	const ctf_fixed_int *float32_end = plain_end + r->float32_count, *end = fi + r->int_count;
	/* A 64-bit real's bits are its double's: the union's v.u is v.f. */
	for (; fi < plain_end; fi++)
		slots[fi->slot] = (tc_field){ .cls = fi->cls, .v.u = fixed_int_value(fi, base) };
	for (; fi < float32_end; fi++) {
		uint32_t bits = (uint32_t)fixed_int_value(fi, base);
		float f;
		memcpy(&f, &bits, sizeof f);
		slots[fi->slot] = (tc_field){ .cls = fi->cls, .v.f = f };
	}
	for (; fi < end; fi++)
		slots[fi->slot] = (tc_field){ .cls = fi->cls, .v.u = fixed_meaning_value(d, fi, base) };
	for (const ctf_fixed_other *fo = r->others, *others_end = fo + r->other_count; fo < others_end; fo++) {
		tc_field *o = &slots[fo->slot];
		const uint8_t *at = base + fo->offset;
		*o = (tc_field){ .cls = fo->cls,
		                 .v.str = { (const char *)at, text_len((const char *)at, (size_t)fo->cls->length) } };
	}
}

/* Where plan P starts from bit position POS, if its fixed-layout part and
 * the 7 bytes its integer loads may read past it fit the packet content. */
static inline bool fixed_fits(const ctf_decoder *d, const ctf_event_plan *p, uint64_t pos, uint64_t *start)
{
	*start = align_up(pos, p->align);
	return *start <= d->limit && (d->limit - *start) / 8 >= (uint64_t)p->bytes + 8;
}

/* Where a run of an event plan lies in one event. */
typedef struct run_place {
	const uint8_t *base;       /* its fixed-layout part */
	const uint8_t *tail;       /* its tail's bytes, if any */
	/* the tail's size: a string's bytes before its NUL, a text
	 * sequence's bytes, the elements of numbers */
	uint64_t count;
} run_place;

/* Where the tail, other than a string, of run R lies when the run ends at
 * *POS, into PLACE (PLACES[0] the first run's), and *POS moved past it.
 * False when it runs past the content. */
static inline bool tail_extent(const ctf_decoder *d, const ctf_event_plan *r, const run_place *places,
                               run_place *place, uint64_t *pos)
{
	const tc_field_class *c = r->tail_cls;
	uint64_t n = r->tail_len ? fixed_int_value(r->tail_len, places[r->tail_len_run].base) : c->length;
	uint64_t at = align_up(*pos, c->align);
	if (TC_UNLIKELY(at > d->limit))
		return false;
	uint64_t left = (d->limit - at) / 8, bytes = n, strides;
	if (r->tail == TAIL_NUMBERS) {
		/* a product, not a division: this runs for every event */
		if (TC_UNLIKELY(!tc_mul_u64(n, plan_of(c)->element_stride, &strides) || strides > left))
			return false;
		bytes = numbers_bytes(c, n);
	} else if (TC_UNLIKELY(n > left)) {
		return false;
	}
	place->tail = d->buf + at / 8;
	place->count = n;
	*pos = at + bytes * 8;
	return true;
}

/* Where the runs of the event of plan P at d->pos lie, into PLACES (one
 * per run), the event's end, into *END, and how many elements its numbers
 * hold, into *ELEMENTS.  False when the general path must decode it: it
 * runs past the content, or a string has no NUL there. */
static inline bool fixed_event_extent(const ctf_decoder *d, const ctf_event_plan *p, run_place *places, uint64_t *end,
                                      uint64_t *elements)
{
	uint64_t pos = d->pos;
	run_place *place = places;
	*elements = 0;
	for (const ctf_event_plan *r = p; r; r = r->next_run, place++) {
		uint64_t start;
		if (TC_UNLIKELY(!fixed_fits(d, r, pos, &start)))
			return false;
		place->base = d->buf + start / 8;
		pos = start + (uint64_t)r->bytes * 8;
		if (r->tail == TAIL_STRING) {
			const char *str = (const char *)place->base + r->bytes;
			const char *nul = find_nul(str, (size_t)((d->limit - start) / 8 - r->bytes));
			if (TC_UNLIKELY(!nul))
				return false;
			place->tail = (const uint8_t *)str;
			place->count = (size_t)(nul - str);
			pos += (place->count + 1) * 8;
		} else if (r->tail != TAIL_NONE) {
			if (!tail_extent(d, r, places, place, &pos))
				return false;
			if (r->tail == TAIL_NUMBERS)
				*elements += place->count;
		}
	}
	*end = pos;
	return true;
}

/* Fills the slot of run R's tail, at PLACE, among SLOTS; numbers fill
 * *ELEMENTS, which moves past them. */
static inline void fill_tail(const ctf_event_plan *r, const run_place *place, tc_field *slots, tc_field **elements)
{
	tc_field *o = &slots[r->tail_slot];
	const char *text = (const char *)place->tail;
	switch ((ctf_tail_kind)r->tail) {
	case TAIL_NONE:
		break;
	case TAIL_STRING:
		*o = (tc_field){ .cls = r->tail_cls, .v.str = { text, (size_t)place->count } };
		break;
	case TAIL_TEXT:
		*o = (tc_field){ .cls = r->tail_cls, .v.str = { text, text_len(text, (size_t)place->count) } };
		break;
	case TAIL_NUMBERS: {
		size_t n = (size_t)place->count;
		fill_numbers(*elements, r->tail_cls, place->tail, n);
		/* the general path leaves the last element's index there */
		*o = (tc_field){ .cls = r->tail_cls, .v.compound = { *elements, n }, .option = n ? (uint32_t)(n - 1) : 0 };
		*elements += n;
		break;
	}
	}
}

int ctf_decode_fixed_event(ctf_decoder *d, const ctf_event_plan *p, tc_message *m)
{
	run_place places[CTF_PLAN_MAX_RUNS];
	uint64_t end, elements;
	if (!fixed_event_extent(d, p, places, &end, &elements))
		return CTF_FIXED_FALLBACK;
	tc_field *slots;
	if (!arena_take_root(d, p->slot_count + elements, &slots))
		return CTF_ARENA_RETRY;
	fill_roots(d, p, slots);
	tc_field *element = slots + p->slot_count;
	const run_place *at = places;
	for (const ctf_event_plan *r = p; r; r = r->next_run, at++) {
		fill_run(d, r, slots, at->base);
		fill_tail(r, at, slots, &element);
	}
	const tc_field **const shown[3] = { &m->stream_event_context, &m->event_context, &m->payload };
	for (int i = 0; i < 3; i++)
		*shown[i] = NULL;
	for (const ctf_fixed_root *r = p->roots, *rend = r + p->root_count; r < rend; r++)
		if (r->shown)
			*shown[r->scope - SCOPE_STREAM_EVENT_CONTEXT] = slots + r->slot;
	d->pos = end;
	return 0;
}

int ctf_pass_fixed_event(ctf_decoder *d, const ctf_event_plan *p, tc_message *m)
{
	run_place places[CTF_PLAN_MAX_RUNS];
	uint64_t end, elements;
	if (!fixed_event_extent(d, p, places, &end, &elements))
		return CTF_FIXED_FALLBACK;
	const run_place *at = places;
	for (const ctf_event_plan *r = p; r; r = r->next_run, at++)
		apply_fixed_meanings(d, r, at->base);
	m->stream_event_context = m->event_context = m->payload = NULL;
	d->pos = end;
	return 0;
}

/* Where the header of plan H at d->pos lies: its lead at *BASE, then, when
 * it ends with a variant, the option selected, *OPTION, at *OPTION_BASE;
 * the header's end at *END.  False when the general path must decode it:
 * it runs past the content, or selects an option without a plan. */
__attribute__((always_inline))
static inline bool fixed_header_extent(const ctf_decoder *d, const ctf_header_plan *h, const uint8_t **base,
                                       const ctf_option_range **option, const uint8_t **option_base, uint64_t *end)
{
	const ctf_event_plan *lead = &h->lead;
	uint64_t start;
	if (TC_UNLIKELY(!fixed_fits(d, lead, d->pos, &start)))
		return false;
	*base = d->buf + start / 8;
	*end = start + (uint64_t)lead->bytes * 8;
	*option = NULL;
	if (!h->variant)
		return true;
	uint64_t tag = fixed_int_value(&lead->ints[h->tag_int], *base) ^ h->tag_bias, ostart;
	const ctf_option_range *r = h->ranges, *rend = r + h->range_count;
	while (r < rend && tag - r->lo > r->span)
		r++;
	if (TC_UNLIKELY(r == rend || !r->plan || !fixed_fits(d, r->plan, *end, &ostart)))
		return false;
	*option = r;
	*option_base = d->buf + ostart / 8;
	*end = ostart + (uint64_t)r->plan->bytes * 8;
	return true;
}

int ctf_decode_fixed_header(ctf_decoder *d, const ctf_header_plan *h, tc_field **root)
{
	const ctf_event_plan *lead = &h->lead;
	const ctf_option_range *r;
	const uint8_t *base, *obase = NULL;
	uint64_t end;
	if (!fixed_header_extent(d, h, &base, &r, &obase, &end))
		return CTF_FIXED_FALLBACK;
	tc_field *slots;
	if (!arena_take_root(d, lead->slot_count + (r ? r->plan->slot_count : 0), &slots))
		return CTF_ARENA_RETRY;
	fill_roots(d, lead, slots);
	fill_run(d, lead, slots, base);
	if (r) {
		tc_field *child = slots + lead->slot_count;
		fill_roots(d, r->plan, child);
		fill_run(d, r->plan, child, obase);
		slots[h->variant_slot] = (tc_field){ .cls = h->variant, .v.compound = { child, 1 }, .option = r->option };
	}
	d->pos = end;
	*root = slots;
	return 0;
}

int ctf_pass_fixed_header(ctf_decoder *d, const ctf_header_plan *h)
{
	const ctf_option_range *r;
	const uint8_t *base, *obase = NULL;
	uint64_t end;
	if (!fixed_header_extent(d, h, &base, &r, &obase, &end))
		return CTF_FIXED_FALLBACK;
	apply_fixed_meanings(d, &h->lead, base);
	if (r)
		apply_fixed_meanings(d, r->plan, obase);
	d->pos = end;
	return 0;
}
