/* SPDX-License-Identifier: MIT */
/*
 * elfsyms.c - a module's symbols read from its ELF file, for record
 * directories that lack the module's .sym file.  uftrace does the same in
 * that case (utils/symbol.c, load_module_symtab(): the .sym file first,
 * then the binary the maps name), so replay names what uftrace names.
 *
 * The table is the one uftrace 0.13 writes into .sym files at record time
 * and loads from binaries at replay time:
 *
 *   - .symtab, or .dynsym when the file has none (stripped libraries):
 *     defined functions (STT_FUNC, STT_GNU_IFUNC) and data objects with
 *     a size, one name per address (make_table());
 *   - on x86-64, PLT entries ('P'), one per .rela.plt (.rel.plt)
 *     relocation with a named symbol, 16 bytes apart after the PLT's
 *     first entry: a relocation without a name takes no slot (uftrace's
 *     reckoning); binaries linked with -z now (no .rela.plt) get none,
 *     where uftrace reads their .plt.got;
 *   - addresses relative to the first PT_LOAD segment (SYM_REL_ADDR), so
 *     that a PIE, a library or a fixed-address executable all resolve as
 *     address - module start.
 *
 * Names are copied into the directory's pool; M's table is replaced.
 * libelf (elfutils) parses the file: ELF(5) and the System V gABI,
 * "Symbol Table" and "Relocation".
 */
#include "uftrace/uftrace.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define X86_64_PLT_ENTRY 16

/* A symbol with its place in the reading order, which settles the
 * choice among symbols of one address as uftrace's (stable) sort does. */
typedef struct read_sym {
	uft_symbol sym;
	size_t order;
} read_sym;

typedef struct sym_list {
	read_sym *syms;
	size_t count, cap;
} sym_list;

static int add_sym(uft_data *d, sym_list *l, uint64_t addr, uint64_t size, char type, const char *name)
{
	int rc = tc_array_reserve(&l->syms, &l->cap, l->count, sizeof *l->syms, 256);
	if (rc < 0)
		return rc;
	const char *shown = uft_demangled(d, name);
	size_t len = strlen(shown);
	const char *copy = shown != name ? shown : tc_pool_strndup(&d->pool, name, len);
	if (!copy)
		return TC_ENOMEM;
	l->syms[l->count] = (read_sym){ { .addr = addr, .size = size, .type = type, .name_len = (uint32_t)len, .name = copy },
		                        l->count };
	l->count++;
	return 0;
}

/* nm's letters, as uftrace's .sym files use them */
static char sym_type(const GElf_Sym *s)
{
	bool func = GELF_ST_TYPE(s->st_info) != STT_OBJECT;
	switch (GELF_ST_BIND(s->st_info)) {
	case STB_LOCAL: return func ? 't' : 'd';
	case STB_GLOBAL: return func ? 'T' : 'D';
	case STB_WEAK: return func ? 'w' : 'v';
	default: return func ? 'T' : 'D';
	}
}

static int load_symbols(uft_data *d, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t bias, sym_list *l)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = data && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF || s.st_size == 0)
			continue;
		int type = GELF_ST_TYPE(s.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
			continue;
		const char *name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name)
			continue;
		int rc = add_sym(d, l, s.st_value - bias, s.st_size, sym_type(&s), name);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The PLT's entries named after the symbols their relocations bind. */
static int load_plt(uft_data *d, Elf *e, Elf_Scn *rel, const GElf_Shdr *rel_sh, Elf_Scn *dynsym, const GElf_Shdr *dyn_sh,
                    uint64_t plt_addr, sym_list *l)
{
	Elf_Data *rd = elf_getdata(rel, NULL), *dd = elf_getdata(dynsym, NULL);
	size_t n = rd && rel_sh->sh_entsize ? rel_sh->sh_size / rel_sh->sh_entsize : 0;
	uint64_t addr = plt_addr;
	for (size_t i = 0; dd && i < n; i++) {
		size_t index;
		if (rel_sh->sh_type == SHT_RELA) {
			GElf_Rela r;
			if (!gelf_getrela(rd, (int)i, &r))
				continue;
			index = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;
			if (!gelf_getrel(rd, (int)i, &r))
				continue;
			index = GELF_R_SYM(r.r_info);
		}
		GElf_Sym s;
		const char *name = gelf_getsym(dd, (int)index, &s) ? elf_strptr(e, dyn_sh->sh_link, s.st_name) : NULL;
		if (!name || !*name)
			continue;
		addr += X86_64_PLT_ENTRY;
		int rc = add_sym(d, l, addr, X86_64_PLT_ENTRY, 'P', name);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int cmp_addr(const void *a, const void *b)
{
	const read_sym *x = a, *y = b;
	if (x->sym.addr != y->sym.addr)
		return (x->sym.addr > y->sym.addr) - (x->sym.addr < y->sym.addr);
	return (x->order > y->order) - (x->order < y->order);
}

/* L sorted by address, one symbol per address, as a table; L is given
 * up.  Of the names at one address the last one read wins, unless it
 * starts with '_' and an earlier one does not: what the .sym files of
 * uftrace 0.13 hold for all 835 such addresses of the libraries a
 * recording here loads (libc, libm, libgcc_s, libelf, libstdc++ ...). */
static int make_table(sym_list *l, uft_symtab *out)
{
	uft_symbol *syms = l->count ? malloc(l->count * sizeof *syms) : NULL;
	if (l->count && !syms) {
		free(l->syms);
		return tc_fail_nomem();
	}
	qsort(l->syms, l->count, sizeof *l->syms, cmp_addr);
	size_t n = 0;
	for (size_t i = 0; i < l->count;) {
		size_t k = i + 1;
		const uft_symbol *best = &l->syms[i].sym;
		for (; k < l->count && l->syms[k].sym.addr == best->addr; k++)
			if (l->syms[k].sym.name[0] != '_' || best->name[0] == '_')
				best = &l->syms[k].sym;
		syms[n] = l->syms[k - 1].sym;
		syms[n].name = best->name;
		syms[n].name_len = best->name_len;
		n++;
		i = k;
	}
	free(l->syms);
	free(out->syms);
	out->syms = syms;
	out->count = n;
	return 0;
}

static int read_elf(uft_data *d, Elf *e, uft_module *m, const char **why)
{
	size_t phnum, shstrndx;
	uint64_t bias = 0;
	GElf_Ehdr eh;
	if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh) || elf_getphdrnum(e, &phnum) != 0 ||
	    elf_getshdrstrndx(e, &shstrndx) != 0) {
		*why = "not an ELF file";
		return 1;
	}
	/* PLT entries are reckoned for x86-64 only, whose PLT layout the
	 * test recordings have */
	bool x86_64 = eh.e_machine == EM_X86_64;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD) {
			bias = ph.p_vaddr;
			break;
		}
	}
	/* data without SYM_REL_ADDR keeps absolute addresses (see uft_resolve) */
	if (!(d->feat_mask & 0x20))
		bias -= m->start;
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL, *rel = NULL;
	GElf_Shdr sh, symtab_sh = { 0 }, dynsym_sh = { 0 }, rel_sh = { 0 };
	uint64_t plt = 0;
	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(e, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symtab_sh = sh;
		} else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dynsym_sh = sh;
		} else if (name && (!strcmp(name, ".rela.plt") || !strcmp(name, ".rel.plt"))) {
			rel = scn;
			rel_sh = sh;
		} else if (name && !strcmp(name, ".plt")) {
			plt = sh.sh_addr - bias;
		}
	}
	if (!symtab && !dynsym) {
		*why = "it has no symbol table";
		return 1;
	}
	sym_list l = { 0 };
	int rc = symtab ? load_symbols(d, e, symtab, &symtab_sh, bias, &l) : load_symbols(d, e, dynsym, &dynsym_sh, bias, &l);
	if (rc == 0 && rel && dynsym && plt && x86_64)
		rc = load_plt(d, e, rel, &rel_sh, dynsym, &dynsym_sh, plt, &l);
	if (rc < 0) {
		free(l.syms);
		return rc;
	}
	return make_table(&l, &m->syms);
}

int uft_elf_symbols(uft_data *d, uft_module *m, const char **why)
{
	*why = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		*why = "libelf is out of date";
		return 1;
	}
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*why = strerror(errno);
		return 1;
	}
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int rc;
	if (!e) {
		*why = elf_errmsg(-1);
		rc = 1;
	} else {
		rc = read_elf(d, e, m, why);
		elf_end(e);
	}
	close(fd);
	return rc;
}
