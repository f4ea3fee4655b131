/* SPDX-License-Identifier: MIT */
/*
 * json_meta.h - the CTF 2 metadata front end (CTF2-SPEC-2.0), beside the
 * TSDL one in tsdl_meta.c, feeding the same classes and plans (plan.h).
 *
 *   json_text.c   the JSON text sequence into fragments (json-c values)
 *   json_meta.c   fragments into the trace's classes, roles, locations
 *   json_rc.c     the release-candidate 7.0 dialect rewritten as final CTF 2
 */
#ifndef TC_CTF_JSON_META_H
#define TC_CTF_JSON_META_H

#include "ctf/plan.h"

#include <json-c/json.h>

typedef struct ctf2_fragment {
	json_object *value;    /* a JSON object */
	size_t offset;         /* its first byte in the metadata file */
} ctf2_fragment;

/* Splits DATA at record separators (0x1E) and parses each fragment. */
int ctf2_split(const char *path, const char *data, size_t len, ctf2_fragment **out, size_t *count);
void ctf2_fragments_free(ctf2_fragment *frags, size_t count);

/* True when the fragments use the release-candidate 7.0 dialect
 * (doc/formats/ctf.md §4.6); ctf2_normalize_rc() then rewrites them in
 * place as final CTF 2. */
bool ctf2_is_rc(ctf2_fragment *frags, size_t count);
int ctf2_normalize_rc(ctf2_fragment *frags, size_t count);

/* Builds B->t's classes from the metadata bytes DATA (first byte 0x1E). */
int ctf2_metadata_build(ctf_build *b, const char *data, size_t len);

#endif /* TC_CTF_JSON_META_H */
