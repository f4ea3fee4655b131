/* SPDX-License-Identifier: MIT */
/*
 * args.h - uftrace's argument and return-value specs
 * (doc/formats/uftrace.md §2.4, §4.5, §5.4-§5.7): which items the
 * recorder stored for a function, how many bytes they take in a .dat
 * file, and how `uftrace replay` prints them.
 *
 * A payload's length is not stored in the file: a reader must find the
 * same item list the recorder used (explicit argspec/retspec first, then,
 * with auto-args, the module's .dbg A:/R: lines or the built-in
 * argauto/retauto lists) to step over it.
 */
#ifndef TC_UFTRACE_ARGS_H
#define TC_UFTRACE_ARGS_H

#include "core/core.h"

typedef struct ua_specs ua_specs;

/* The function a record resolved to. */
typedef struct ua_function {
	const char *name;        /* symbol name as in the .sym file */
	const char *module;      /* basename of the module's path ("libc.so.6"), NULL if unknown */
	bool is_main_module;     /* the traced executable */
	bool is_plt;             /* a 'P' (PLT) symbol */
	uint64_t sym_addr;       /* the symbol's module-relative start (.dbg "F:" lines) */
} ua_function;

/*
 * Reads the specs from the text lines of the info file (everything after
 * its 40-byte header; INFO_LEN bytes): argspec:, retspec:, argauto:,
 * retauto:, enumauto:, auto-args:1, pattern_type:.  WORD_SIZE is 4 or 8
 * (elf_class), BIG_ENDIAN the header's byte order.  PATH names the info
 * file in errors.  A trace recorded without arguments gets empty specs.
 */
int ua_specs_new(ua_specs **out, const char *info_text, size_t info_len, unsigned word_size, bool big_endian,
                 const char *path);

/* Adds the .dbg file of module MODULE (a basename, as ua_function.module):
 * its E: enums and per-function A:/R: specs.  TEXT is LEN bytes. */
int ua_specs_add_dbg(ua_specs *s, const char *module, const char *text, size_t len, const char *path);

void ua_specs_free(ua_specs *s);

/* The items recorded for one function, arguments or return value. */
typedef struct ua_list ua_list;

/* The items the recorder used for F's arguments (RETVAL false) or return
 * value (true), or NULL when it stored none.  Results are cached by
 * (name, module), so the pointer stays valid until ua_specs_free(). */
const ua_list *ua_lookup(ua_specs *s, const ua_function *f, bool retval);

/*
 * The bytes a payload of LIST occupies at DATA (AVAIL bytes readable):
 * items at 4-byte aligned offsets, strings sized by their u16 length, the
 * whole padded to 8.  Returns 0 and sets *SIZE, or TC_EFORMAT (with an
 * error naming PATH and OFFSET) when it runs past AVAIL or a string is
 * longer than uftrace ever stores.
 */
int ua_payload_size(const ua_list *l, const uint8_t *data, size_t avail, size_t *size, const char *path,
                    int64_t offset);

/* The name of the symbol at ADDR for the `p` format ("&name"), or NULL. */
typedef const char *(*ua_symbolize)(void *ctx, uint64_t addr);

/*
 * Appends PAYLOAD as `uftrace replay` prints it: for arguments the whole
 * "(v1, v2)" list; for a return value the value alone ("-1", "0x55d9...",
 * "\"match\"", "RED").  F gives the module whose .dbg enums apply; SYM,
 * when not NULL, names pointers.  COLOR: with the terminal colours of
 * `uftrace replay --color=yes`.
 */
int ua_format(const ua_specs *s, const ua_list *l, const uint8_t *payload, size_t len, const ua_function *f,
              ua_symbolize sym, void *ctx, bool color, tc_buf *out);

#endif /* TC_UFTRACE_ARGS_H */
