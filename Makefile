# SPDX-License-Identifier: MIT
# tracecat - build, test, install.
#
#   make               build/tracecat, build/libtracecat.a and build/libtracecat.so.*
#   make check         installs what the tests use when missing (scripts/deps.sh),
#                      then every test, plain and sanitizer builds;
#                      ends "N passed, N failed, N skipped"
#   make sanitize      build/sanitize/tracecat with ASan and UBSan, and
#                      build/tsan/tracecat with ThreadSanitizer
#   make demo          installs what the build needs when missing, then prints
#                      the bundled sample trace
#   make install PREFIX=/usr/local [DESTDIR=/stage]

CC      ?= cc
PREFIX  ?= /usr/local
CFLAGS  ?= -O2 -g
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# libzstd and zlib inflate trace.dat sections; libtraceevent renders ftrace
# print formats as trace-cmd does; json-c parses CTF 2 metadata; libelf
# reads symbols from binaries for uftrace directories without .sym files.
# `make WITH_TRACEEVENT=0` builds everything but `report` (report*.c and
# printfmt*.c, the only users of libtraceevent) for a machine without it;
# tc_report() then says it is not there (no_report.c).
WITH_TRACEEVENT ?= 1
ifeq ($(WITH_TRACEEVENT),0)
DEPS    := libzstd zlib json-c libelf
DEP_LIBS_FALLBACK := -lzstd -lz -ljson-c -lelf
else
DEPS    := libzstd zlib libtraceevent json-c libelf
DEP_LIBS_FALLBACK := -lzstd -lz -ltraceevent -ljson-c -lelf
endif
DEP_CFLAGS := $(shell pkg-config --cflags $(DEPS) 2>/dev/null)
DEP_LIBS   := $(shell pkg-config --libs $(DEPS) 2>/dev/null || echo $(DEP_LIBS_FALLBACK))
BASEFLAGS := -std=c11 -pthread -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iinclude -Isrc $(DEP_CFLAGS) $(WARN)
LDLIBS  := $(DEP_LIBS) -lm -pthread

VERSION := $(shell sed -n 's/^\#define TRACECAT_VERSION "\(.*\)"/\1/p' include/tracecat.h)
MAJOR   := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libtracecat.so.$(MAJOR)

LIB_SRC := $(sort $(wildcard src/core/*.c src/ctf/*.c src/tracedat/*.c src/uftrace/*.c src/lttng_legacy/*.c src/text/*.c src/perfetto/*.c src/perf/*.c))
# What needs libtraceevent: trace-cmd report's text and perf script's
# (src/perf/script.c); without it no_report.c and no_script.c say so.
REPORT_SRC := $(filter src/tracedat/report% src/tracedat/printfmt% src/perf/script.c,$(LIB_SRC))
ifeq ($(WITH_TRACEEVENT),0)
LIB_SRC := $(filter-out $(REPORT_SRC),$(LIB_SRC))
else
LIB_SRC := $(filter-out src/tracedat/no_report.c src/perf/no_script.c,$(LIB_SRC))
endif
CLI_SRC := $(sort $(wildcard src/cli/*.c))

BUILD   := build
SAN     := $(BUILD)/sanitize
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TSAN    := $(BUILD)/tsan
TSANFLAGS := -O1 -g -fsanitize=thread

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SAN_LIB_OBJ := $(LIB_SRC:%.c=$(SAN)/obj/%.o)
SAN_CLI_OBJ := $(CLI_SRC:%.c=$(SAN)/obj/%.o)
TSAN_OBJ := $(LIB_SRC:%.c=$(TSAN)/obj/%.o) $(CLI_SRC:%.c=$(TSAN)/obj/%.o)

UNIT_SRC := $(sort $(wildcard tests/unit/*_test.c))
ifeq ($(WITH_TRACEEVENT),0)
UNIT_SRC := $(filter-out tests/unit/report_test.c tests/unit/printfmt_test.c,$(UNIT_SRC))
endif
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all check run-check sanitize demo install clean unit bench fuzz

all: $(BUILD)/tracecat $(BUILD)/libtracecat.a $(BUILD)/libtracecat.so.$(VERSION)

# The library's objects serve both the static and the shared library:
# position-independent, and every symbol hidden but the tc_ API that
# include/tracecat.h marks TC_API.
LIBFLAGS := -fPIC -fvisibility=hidden -DTRACECAT_BUILDING_LIBRARY
$(LIB_OBJ): BASEFLAGS += $(LIBFLAGS)

# Each object depends on the headers it includes, as the compiler lists
# them (-MMD) beside it in a .d file; -MP adds an empty rule per header, so
# that removing a header does not stop the build.
DEPFLAGS := -MMD -MP

# Objects also depend on the flags they were compiled with: a change of
# flags (or of the packages pkg-config reports) rebuilds them.
FLAGS_STAMP := $(BUILD)/compile-flags
FLAGS_TEXT  := $(CC) $(BASEFLAGS) $(LIBFLAGS) $(CFLAGS) $(SANFLAGS) $(TSANFLAGS) $(DEPFLAGS)
$(shell mkdir -p $(BUILD) && echo '$(FLAGS_TEXT)' | cmp -s - $(FLAGS_STAMP) || echo '$(FLAGS_TEXT)' >$(FLAGS_STAMP))

$(BUILD)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) $(DEPFLAGS) -c $< -o $@

$(SAN)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SANFLAGS) $(DEPFLAGS) -c $< -o $@

$(TSAN)/obj/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(TSANFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/libtracecat.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libtracecat.so.$(VERSION): $(LIB_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $@ $^ $(LDLIBS)
	ln -sf libtracecat.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libtracecat.so

$(BUILD)/tracecat: $(CLI_OBJ) $(BUILD)/libtracecat.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libtracecat.a $(LDLIBS)

$(SAN)/libtracecat.a: $(SAN_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(SAN)/tracecat: $(SAN_CLI_OBJ) $(SAN)/libtracecat.a
	$(CC) $(SANFLAGS) -o $@ $(SAN_CLI_OBJ) $(SAN)/libtracecat.a $(LDLIBS)

# tests/live/threads.sh runs it on every fixture with several threads.
$(TSAN)/tracecat: $(TSAN_OBJ)
	$(CC) $(TSANFLAGS) -o $@ $(TSAN_OBJ) $(LDLIBS)

sanitize: $(SAN)/tracecat $(TSAN)/tracecat

# The tests that hold the print-format plans to libtraceevent compare the
# text of the release linked (tests/unit/linked_tep.h).
TEP_VERSION := $(shell pkg-config --modversion libtraceevent 2>/dev/null)
$(BUILD)/tests/%_test: tests/unit/%_test.c $(SAN)/libtracecat.a
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SANFLAGS) $(DEPFLAGS) -DTEST_LIBTRACEEVENT_VERSION='"$(TEP_VERSION)"' \
		-o $@ $< $(SAN)/libtracecat.a $(LDLIBS)

unit: $(UNIT_BIN)

# With clang there, `make check` also builds the libFuzzer targets, and
# tests/run.sh replays the inputs that once failed them.
HAVE_CLANG := $(shell command -v clang >/dev/null 2>&1 && echo yes)

# check and demo first install what is missing, then run make again: the
# compiler flags above come from pkg-config, which needs the packages.
# check also builds (once, cached) the Debian sid root of the newer peers
# (scripts/sid-root.sh) and the trixie root of Debian 13's
# (scripts/debian-root.sh trixie), and on a host whose peers are not
# Debian 12's releases the bookworm root of those (tests/lib.sh,
# peers_debian12); as another user than root, with no root built yet, it
# says what to run and the tests that need it fail.
check:
	@bash scripts/deps.sh test
	@bash scripts/sid-root.sh || true
	@bash scripts/debian-root.sh trixie || true
	@bash -c '. tests/lib.sh && peers_debian12 && [ "$$TRACECAT_PEERS" = host ]' || bash scripts/debian-root.sh bookworm || true
	@$(MAKE) --no-print-directory run-check

run-check: all sanitize unit $(if $(HAVE_CLANG),fuzz)
	@bash tests/run.sh

demo:
	@bash scripts/deps.sh build
	@$(MAKE) --no-print-directory all
	TZ=UTC ./$(BUILD)/tracecat print --clock-gmt tests/fixtures/ctf/sample

# libFuzzer targets (clang), one per reader entry point: tests/fuzz/fuzz_*.c.
FUZZ     := $(BUILD)/fuzz
FUZZFLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ)/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ)/obj/%.o)

$(FUZZ)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(BASEFLAGS) $(FUZZFLAGS) $(DEPFLAGS) -c $< -o $@

$(FUZZ)/libtracecat.a: $(FUZZ_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FUZZ)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ)/libtracecat.a
	clang $(BASEFLAGS) $(FUZZFLAGS) -fsanitize=fuzzer $(DEPFLAGS) -o $@ $< $(FUZZ)/libtracecat.a $(LDLIBS)

fuzz: $(FUZZ_BIN)

bench: all
	@bash bench/run.sh

LIBDIR  ?= $(PREFIX)/lib
MANDIR  ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 $(BUILD)/tracecat $(DESTDIR)$(PREFIX)/bin/tracecat
	install -m 644 $(BUILD)/libtracecat.a $(DESTDIR)$(LIBDIR)/libtracecat.a
	install -m 755 $(BUILD)/libtracecat.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libtracecat.so.$(VERSION)
	ln -sf libtracecat.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libtracecat.so
	install -m 644 include/tracecat.h $(DESTDIR)$(PREFIX)/include/tracecat.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
		-e 's|@REQUIRES@|$(DEPS)|g' -e 's|@REPORT@|$(if $(filter 0,$(WITH_TRACEEVENT)),no,yes)|g' \
		tracecat.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/tracecat.pc
	install -m 644 doc/tracecat.1 $(DESTDIR)$(MANDIR)/man1/tracecat.1
	install -m 644 completion/tracecat.bash $(DESTDIR)$(BASHCOMPDIR)/tracecat

clean:
	rm -rf $(BUILD)

-include $(wildcard $(BUILD)/obj/src/*/*.d $(SAN)/obj/src/*/*.d $(TSAN)/obj/src/*/*.d $(FUZZ)/obj/src/*/*.d \
	$(BUILD)/tests/*.d $(FUZZ)/*.d)
