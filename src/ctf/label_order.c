/* SPDX-License-Identifier: MIT */
/*
 * label_order.c - the order in which babeltrace2 2.1 prints several
 * mapping labels matching one value (doc/formats/ctf.md §4.5), for both
 * metadata readers.  babeltrace2 2.1's CTF plugin keeps an integer
 * class's mappings in a std::unordered_map keyed by label and hands them
 * to the trace IR in that map's iteration order, which the text sink
 * keeps.  The order is libstdc++'s, emulated here: its string hash and
 * its bucket list.
 */
#include "ctf/label_order.h"
#include "core/core.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* libstdc++'s std::hash<std::string> on 64-bit (_Hash_bytes, seed
 * 0xc70f6907): babeltrace2 keeps mapping labels in unordered maps, and
 * prints several matching labels in their iteration order. */
static uint64_t stdlib_string_hash(const char *s, size_t len)
{
	const uint64_t m = 0xc6a4a7935bd1e995ull;
	uint64_t h = 0xc70f6907ull ^ (len * m);
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t d = 0;
		for (int k = 7; k >= 0; k--)
			d = d << 8 | p[i + (size_t)k];
		d *= m;
		d ^= d >> 47;
		d *= m;
		h ^= d;
		h *= m;
	}
	if (len - i) {
		uint64_t d = 0;
		for (size_t k = len - i; k-- > 0;)
			d = d << 8 | p[i + k];
		h ^= d;
		h *= m;
	}
	h ^= h >> 47;
	h *= m;
	h ^= h >> 47;
	return h;
}

static bool is_prime(uint64_t n)
{
	if (n < 2)
		return false;
	for (uint64_t d = 2; d * d <= n; d++)
		if (n % d == 0)
			return false;
	return true;
}

/* Inserts keys ORDER[0..N) (indexes into HASH; NULL: 0..N) into an empty
 * std::unordered_map and writes its iteration order to OUT
 * (doc/formats/ctf.md §4.5: buckets 1, then 13, then the next prime of at
 * least twice as many; a key goes just before the first key of its bucket,
 * else first).  Exact up to 257 labels; libstdc++'s prime list skips
 * primes beyond. */
static void unordered_map_order(const uint64_t *hash, const size_t *order, size_t n, size_t *out)
{
	size_t len = 0;
	uint64_t buckets = 1, threshold = 0;
	for (size_t k = 0; k < n; k++) {
		if (k + 1 > threshold) {
			uint64_t want = buckets == 1 ? 13 : (k + 2 > 2 * buckets ? k + 2 : 2 * buckets);
			while (buckets != 1 && !is_prime(want))
				want++;
			buckets = want;
			threshold = buckets;
			/* rehash: walk the old list from its head */
			size_t old[len ? len : 1];
			memcpy(old, out, len * sizeof *out);
			size_t rebuilt = 0;
			for (size_t i = 0; i < len; i++) {
				size_t key = old[i], pos = 0;
				bool found = false;
				for (size_t j = 0; j < rebuilt && !found; j++)
					if (hash[out[j]] % buckets == hash[key] % buckets) {
						pos = j;
						found = true;
					}
				memmove(out + pos + 1, out + pos, (rebuilt - pos) * sizeof *out);
				out[pos] = key;
				rebuilt++;
			}
		}
		size_t key = order ? order[k] : k, pos = 0;
		for (size_t j = 0; j < len; j++)
			if (hash[out[j]] % buckets == hash[key] % buckets) {
				pos = j;
				break;
			}
		memmove(out + pos + 1, out + pos, (len - pos) * sizeof *out);
		out[pos] = key;
		len++;
	}
}

int ctf_rank_labels(tc_field_class *fc, unsigned maps)
{
	size_t n = fc->label_count;
	if (n == 0)
		return 0;
	uint64_t *hash = calloc(n, sizeof *hash);
	size_t *from = calloc(n, sizeof *from), *to = calloc(n, sizeof *to);
	int rc = hash && from && to ? 0 : tc_fail_nomem();
	for (size_t k = 0; rc == 0 && k < n; k++)
		hash[k] = stdlib_string_hash(fc->labels[k].label, strlen(fc->labels[k].label));
	for (unsigned m = 0; rc == 0 && m < maps; m++) {
		unordered_map_order(hash, m ? from : NULL, n, to);
		memcpy(from, to, n * sizeof *to);
	}
	for (size_t k = 0; rc == 0 && k < n; k++)
		fc->labels[from[k]].print_rank = (unsigned)k;
	free(hash);
	free(from);
	free(to);
	return rc;
}
