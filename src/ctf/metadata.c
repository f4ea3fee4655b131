/* SPDX-License-Identifier: MIT */
/*
 * metadata.c - from a CTF trace's `metadata` file to its classes: reads the
 * file, tells CTF 2 (a JSON text sequence, json_meta.c) from CTF 1.8, and
 * for CTF 1.8 takes the TSDL text out of the file (plain text, or
 * packetized: 37-byte headers around text), parses it (tsdl_parse.c) and
 * has tsdl_meta.c build the classes from the tree.
 */
#include "ctf/json_meta.h"
#include "ctf/tsdl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PMETA_MAGIC 0x75D11D57u
#define PMETA_HEADER_BYTES 37

/* ---- reading the metadata stream ---- */

static uint32_t load_u32(const uint8_t *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
	          : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int unpacketize(const char *path, const uint8_t *data, size_t len, bool be, tc_buf *text)
{
	size_t off = 0;
	uint8_t uuid[16];
	while (off < len) {
		/* babeltrace2 ignores a tail too short for a header after the
		 * first packet (its test trace succeed/meta-trailing-byte). */
		if (len - off < PMETA_HEADER_BYTES && off > 0)
			break;
		if (len - off < PMETA_HEADER_BYTES)
			return tc_fail(TC_EFORMAT, path, (int64_t)off, "truncated metadata packet header (%zu bytes left, 37 expected)", len - off);
		const uint8_t *h = data + off;
		if (load_u32(h, be) != PMETA_MAGIC)
			return tc_fail(TC_EFORMAT, path, (int64_t)off, "bad metadata packet magic 0x%08" PRIx32 " (expected 0x75d11d57)", load_u32(h, be));
		if (off == 0)
			memcpy(uuid, h + 4, 16);
		else if (memcmp(uuid, h + 4, 16) != 0)
			return tc_fail(TC_EFORMAT, path, (int64_t)off + 4, "metadata packet UUID differs from the first packet's");
		uint32_t checksum = load_u32(h + 20, be);
		uint32_t content_bits = load_u32(h + 24, be), packet_bits = load_u32(h + 28, be);
		if (checksum != 0 || h[32] || h[33] || h[34])
			return tc_fail(TC_EUNSUPPORTED, path, (int64_t)off + 20, "metadata packet uses a checksum, compression or encryption scheme (not supported)");
		if (h[35] != 1 || h[36] != 8)
			return tc_fail(TC_EFORMAT, path, (int64_t)off + 35, "metadata packet version %u.%u (expected 1.8)", h[35], h[36]);
		if (content_bits % 8 || packet_bits % 8 || content_bits < PMETA_HEADER_BYTES * 8 ||
		    content_bits > packet_bits)
			return tc_fail(TC_EFORMAT, path, (int64_t)off + 24, "bad metadata packet sizes (content %" PRIu32 " bits, packet %" PRIu32 " bits)", content_bits, packet_bits);
		if (packet_bits / 8 > len - off)
			return tc_fail(TC_EFORMAT, path, (int64_t)off + 28, "metadata packet of %" PRIu32 " bytes runs past the end of the file", packet_bits / 8);
		if (tc_buf_append(text, h + PMETA_HEADER_BYTES, content_bits / 8 - PMETA_HEADER_BYTES) < 0)
			return TC_ENOMEM;
		off += packet_bits / 8;
	}
	return tc_buf_reserve(text, 1);
}

/* The TSDL text of the metadata stream DATA (LEN bytes, NUL-terminated,
 * malloc'd; this takes it over): plain text, or packets around text.
 * Plain text opens with the signature comment "CTF 1.8" (CTF 1.8 §7.1) when
 * SIGNED: babeltrace2 2.0 requires it, 2.1 reads the text without it. */
static int metadata_text(const char *path, char *data, size_t len, bool signed_text, tc_buf *text)
{
	const uint8_t *u = (const uint8_t *)data;
	int rc;
	if (len >= 4 && (load_u32(u, false) == PMETA_MAGIC || load_u32(u, true) == PMETA_MAGIC)) {
		rc = unpacketize(path, u, len, load_u32(u, true) == PMETA_MAGIC, text);
		free(data);
		return rc;
	}
	unsigned major = 0, minor = 0;
	if (signed_text && sscanf(data, "/* CTF %u.%u", &major, &minor) != 2) {
		free(data);
		return tc_fail(TC_EFORMAT, path, 0, "plain-text metadata must start with the signature \"/* CTF 1.8\"");
	}
	if (signed_text && (major != 1 || minor != 8)) {
		free(data);
		return tc_fail(TC_EUNSUPPORTED, path, 0, "metadata signature says CTF %u.%u (only 1.8 is read)", major, minor);
	}
	text->data = data;
	text->len = len;
	text->cap = len + 1;
	return 0;
}

int ctf_metadata_parse(ctf_trace **out, const char *dir, char *data, size_t len, const tc_open_options *opts)
{
	ctf_trace *t = calloc(1, sizeof *t);
	if (!t) {
		free(data);
		return tc_fail_nomem();
	}
	tc_pool_init(&t->pool);
	t->pub.format = TC_INPUT_CTF;
	tc_buf path = { 0 };
	int rc = tc_buf_printf(&path, "%s/metadata", dir);
	if (rc < 0 || !(t->metadata_path = tc_pool_strdup(&t->pool, path.data)) ||
	    !(t->pub.path = tc_pool_strdup(&t->pool, dir))) {
		tc_buf_free(&path);
		ctf_trace_free(t);
		free(data);
		return tc_fail_nomem();
	}
	tc_buf_free(&path);
	/* CTF 2: a JSON text sequence, told by its first byte
	 * (doc/formats/ctf.md §4.1). */
	if (len > 0 && data[0] == 0x1E) {
		ctf_build cb = { .t = t, .pool = &t->pool, .path = t->metadata_path, .opts = opts };
		rc = ctf2_metadata_build(&cb, data, len);
		free(data);
		if (rc < 0) {
			ctf_trace_free(t);
			return rc;
		}
		*out = t;
		return 0;
	}
	tc_buf text = { 0 };
	/* babeltrace2 2.1 no longer checks the signature (doc/formats/ctf.md §3.1) */
	tc_compat compat = opts && opts->compat ? *opts->compat : tc_compat_default();
	rc = metadata_text(t->metadata_path, data, len, compat.babeltrace2 < TC_RELEASE(2, 1), &text);
	if (rc == 0) {
		tsdl_doc doc;
		rc = tsdl_parse(&doc, text.data ? text.data : "", text.len, t->metadata_path);
		if (rc == 0) {
			ctf_build cb = { .t = t, .pool = &t->pool, .path = t->metadata_path, .opts = opts };
			rc = ctf1_metadata_build(&cb, &doc);
		}
		/* The model's names point into the parse tree's pool. */
		if (rc == 0)
			tc_pool_adopt(&t->pool, &doc.pool);
		tsdl_doc_free(&doc);
	}
	tc_buf_free(&text);
	if (rc < 0) {
		ctf_trace_free(t);
		return rc;
	}
	t->pub.ctf_major = t->pub.format_major = 1;
	t->pub.format_minor = 8;
	t->pub.layout = TC_LAYOUT_CTF1;
	/* babeltrace2 2.1 says nothing of a first packet's discard counter,
	 * in CTF 1.8 as in CTF 2; 2.0 reports "may have discarded" events
	 * (doc/formats/ctf.md §9.11) */
	t->quirks.quiet_first_discards = compat.babeltrace2 >= TC_RELEASE(2, 1);
	*out = t;
	return 0;
}

int ctf_metadata_load(ctf_trace **out, const char *dir, const tc_open_options *opts)
{
	tc_buf path = { 0 };
	char *data;
	size_t len;
	if (tc_buf_printf(&path, "%s/metadata", dir) < 0)
		return TC_ENOMEM;
	int rc = tc_read_file(path.data, METADATA_MAX_BYTES, &data, &len);
	tc_buf_free(&path);
	return rc < 0 ? rc : ctf_metadata_parse(out, dir, data, len, opts);
}

void ctf_trace_free(ctf_trace *t)
{
	if (!t)
		return;
	free(t->pub.clocks);
	free(t->pub.env);
	for (size_t i = 0; i < t->pub.stream_class_count; i++)
		free(t->pub.stream_classes[i]->event_classes);
	free(t->pub.stream_classes);
	for (size_t i = 0; i < t->pub.stream_count; i++)
		free(t->pub.streams[i]);
	free(t->pub.streams);
	tc_pool_free(&t->pool);
	free(t);
}
