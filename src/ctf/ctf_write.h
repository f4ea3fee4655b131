/* SPDX-License-Identifier: MIT */
/*
 * ctf_write.h - private pieces of the CTF writer:
 *
 *   tsdl_write.c  a trace's classes as CTF 1.8 metadata text
 *   json_write.c  a trace's classes as CTF 2 metadata
 *   copy.c        a CTF trace copied packet for packet (nothing filtered)
 *   writer.c      messages encoded into new packets (tc_ctf_writer)
 */
#ifndef TC_CTF_WRITE_H
#define TC_CTF_WRITE_H

#include "core/core.h"

/* Appends the metadata text of T (classes, environment, clocks) to B. */
int ctf_tsdl_write(const tc_trace *t, tc_buf *b);
/* The same as CTF 2: a JSON text sequence (json_write.c). */
int ctf_json_write(const tc_trace *t, tc_buf *b);

/* NAME made a TSDL identifier (other characters become '_'), as the
 * metadata names the clock. */
void ctf_clock_identifier(const char *name, char *out, size_t size);

/* Whether C can be in a TSDL identifier (FIRST: as its first character). */
bool ctf_tsdl_ident_char(char c, bool first);
/* Whether S is a TSDL keyword, which cannot name a field. */
bool ctf_tsdl_is_keyword(const char *s);

/* Writes the bytes of B to DIR/NAME; errors carry the file's path. */
int ctf_write_file(const char *dir, const char *name, const void *data, size_t len);

#endif /* TC_CTF_WRITE_H */
