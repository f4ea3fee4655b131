#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install.sh - tracecat as a packager and a library user get it:
# `make install` into a temporary prefix (and staged with DESTDIR), then
# doc/library.md's API example (the C block after "api-example: count.c")
# compiled with `pkg-config --cflags --libs tracecat`, shared and -static,
# and run on fixtures of every format; its event counts must equal what
# `tracecat info` shows.  Also: the shared library exports only tc_
# symbols, has its soname and symlinks, the installed files are exactly
# those doc/library.md lists, and the install-and-link commands README.md
# and doc/library.md show (the sh blocks after "install-example") run as
# written, so that a reader who copies them gets a working program.
#
# usage (from the repository root): bash tests/live/install.sh BIN
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.
set -uo pipefail

bin=${1:?usage: $0 BIN}
root=$(pwd)
case $bin in /*) ;; *) bin=$root/$bin ;; esac
for tool in cc pkg-config nm readelf; do
	command -v "$tool" >/dev/null || { echo "SKIP install: $tool is not installed"; exit 0; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
version=$(sed -n 's/^#define TRACECAT_VERSION "\(.*\)"/\1/p' include/tracecat.h)
major=${version%%.*}

if ! make -s --no-print-directory install PREFIX="$prefix" >"$work/make.log" 2>&1; then
	echo "FAIL install/make: $(tail -c 400 "$work/make.log")"
	exit 0
fi
echo "PASS install/make"

# What was installed, as doc/library.md lists it: "PREFIX/path", and
# " -> target" for a symbolic link.
(cd "$prefix" && find . ! -type d | sed 's|^\./||' | sort | while IFS= read -r f; do
	if [ -L "$f" ]; then echo "PREFIX/$f -> $(readlink "$f")"; else echo "PREFIX/$f"; fi
done) >"$work/installed"
awk '/<!-- installed-files/ { want = 1; next } want && /^```text/ { on = 1; next } on && /^```/ { exit } on' \
	doc/library.md | sort >"$work/listed"
if [ ! -s "$work/listed" ]; then
	echo "FAIL install/files: no text block after <!-- installed-files --> in doc/library.md"
elif cmp -s "$work/installed" "$work/listed"; then
	echo "PASS install/files: $(wc -l <"$work/installed") files and links, as doc/library.md lists them"
else
	echo "FAIL install/files: make install and doc/library.md differ (< installed, > listed):" \
		"$(diff "$work/installed" "$work/listed" | grep '^[<>]' | tr '\n' ' ' | head -c 400)"
fi
[ "$(readlink "$prefix/lib/libtracecat.so.$major")" = "libtracecat.so.$version" ] ||
	echo "FAIL install/links: lib/libtracecat.so.$major does not name libtracecat.so.$version"

so=$prefix/lib/libtracecat.so.$version
soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = "libtracecat.so.$major" ]; then echo "PASS install/soname"
else echo "FAIL install/soname: '$soname', expected libtracecat.so.$major"; fi
others=$(nm -D --defined-only "$so" | awk '{ print $3 }' | grep -v '^tc_')
count=$(nm -D --defined-only "$so" | grep -c ' tc_')
if [ -z "$others" ] && [ "$count" -gt 20 ]; then echo "PASS install/exports: $count tc_ symbols, nothing else"
else echo "FAIL install/exports: $count tc_ symbols; also exported: $(echo $others | head -c 300)"; fi

# DESTDIR stages the same tree without changing the paths inside it.
if make -s --no-print-directory install PREFIX=/usr DESTDIR="$work/stage" >"$work/make.log" 2>&1 &&
	[ -x "$work/stage/usr/bin/tracecat" ] && grep -qx 'prefix=/usr' "$work/stage/usr/lib/pkgconfig/tracecat.pc"; then
	echo "PASS install/destdir"
else
	echo "FAIL install/destdir: $(tail -c 300 "$work/make.log")"
fi

# c_block PAGE NAME: the C block after <!-- api-example: NAME --> in PAGE.
c_block() {
	awk -v n="$2" 'index($0, "<!-- api-example: " n " ") == 1 { want = 1; next }
		want && /^```c/ { on = 1; next } on && /^```/ { exit } on' "$1"
}

# static_libelf_broken LOG: whether a static link failed in LOG only for
# Debian 13's elfutils 0.192, whose libelf.a needs libeu's search trees
# and comes without a libeu.a: no program links libelf statically there,
# so the static builds are a NOTE on such a system (the shared ones run).
static_libelf_note="this system's static libelf cannot be linked (libelf.a needs eu_search_tree_init, which no static library provides)"
static_libelf_broken() {
	grep -q "undefined reference to .eu_search_tree" "$1"
}

# doc/library.md's example, as a user would take it.
c_block doc/library.md count.c >"$work/count.c"
if [ ! -s "$work/count.c" ]; then
	echo "FAIL install/api-example: no C block after <!-- api-example: count.c --> in doc/library.md"
	exit 0
fi
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046  # pkg-config's output is a list of words
if ! cc -std=c11 -Wall -Wextra -Werror -o "$work/count-shared" "$work/count.c" \
	$(pkg-config --cflags --libs tracecat) >"$work/cc.log" 2>&1; then
	echo "FAIL install/api-example-shared: $(head -c 400 "$work/cc.log")"
elif ! readelf -d "$work/count-shared" | grep -q "NEEDED.*libtracecat.so.$major"; then
	echo "FAIL install/api-example-shared: not linked with libtracecat.so.$major"
else
	echo "PASS install/api-example-shared: compiled"
fi
# shellcheck disable=SC2046
if ! cc -std=c11 -Wall -Wextra -Werror -static -o "$work/count-static" "$work/count.c" \
	$(pkg-config --static --cflags --libs tracecat) >"$work/cc.log" 2>&1; then
	if static_libelf_broken "$work/cc.log"; then
		echo "NOTE install/api-example-static: $static_libelf_note"
	else
		echo "FAIL install/api-example-static: $(head -c 400 "$work/cc.log")"
	fi
elif readelf -d "$work/count-static" 2>/dev/null | grep -q NEEDED; then
	echo "FAIL install/api-example-static: still needs shared libraries"
else
	echo "PASS install/api-example-static: compiled"
fi

# tc_version() of the installed library is the release the CLI says.
printf '#include <stdio.h>\n#include <tracecat.h>\nint main(void) { printf("tracecat %%s\\n", tc_version()); return 0; }\n' \
	>"$work/version.c"
# shellcheck disable=SC2046
if ! cc -std=c11 -Wall -Wextra -Werror -o "$work/version" "$work/version.c" \
	$(pkg-config --cflags --libs tracecat) >"$work/cc.log" 2>&1; then
	echo "FAIL install/version: $(head -c 400 "$work/cc.log")"
elif [ "$(LD_LIBRARY_PATH=$prefix/lib "$work/version")" = "$("$bin" --version)" ]; then
	echo "PASS install/version: tc_version() is \"$("$bin" --version)\""
else
	echo "FAIL install/version: tc_version() says \"$(LD_LIBRARY_PATH=$prefix/lib "$work/version")\", the CLI \"$("$bin" --version)\""
fi

# Each build counts the events of a fixture of every format; the counts per
# event name must be those `tracecat info` gives.
tally() { awk '{ c = $1; sub(/^ *[0-9]+ /, ""); n[$0] += c } END { for (k in n) print n[k] "\t" k }' | sort; }
for trace in tests/fixtures/ctf/sample tests/fixtures/tracedat/top-v7-zstd.dat tests/fixtures/uftrace/args \
	tests/fixtures/lttng-legacy/v26-le-lost; do
	[ -e "$trace" ] || { echo "FAIL install/run: fixture $trace is missing"; continue; }
	"$bin" info "$trace" | sed -n 's/^ *\([0-9][0-9]*\)  [^ ]* [^ ]*  [^ ]* [^ ]*  \(.*\)/\1 \2/p' | tally >"$work/want"
	for kind in shared static; do
		exe=$work/count-$kind
		[ -x "$exe" ] || continue
		if ! LD_LIBRARY_PATH=$prefix/lib "$exe" "$trace" >"$work/got.raw" 2>"$work/err"; then
			echo "FAIL install/run-$kind/$(basename "$trace"): $(head -c 300 "$work/err")"
			continue
		fi
		tally <"$work/got.raw" >"$work/got"
		if [ -s "$work/got" ] && cmp -s "$work/got" "$work/want"; then
			echo "PASS install/run-$kind/$(basename "$trace"): $(awk '{ s += $1 } END { print s }' "$work/got") events"
		else
			echo "FAIL install/run-$kind/$(basename "$trace"): counts differ from tracecat info: $(diff "$work/got" "$work/want" | head -c 300)"
		fi
	done
done

# The shared build really is what runs: without the prefix it cannot load.
on_system_path=
ldconfig -p 2>/dev/null | grep -q libtracecat && on_system_path=yes
if [ -z "$on_system_path" ] && env -u LD_LIBRARY_PATH "$work/count-shared" tests/fixtures/ctf/sample >/dev/null 2>&1; then
	echo "FAIL install/api-example-shared: ran without libtracecat.so on the library path"
fi

# ---- the pages' install-and-link commands, as written ----
# Each block runs with bash -e in a scratch folder that holds the page's C
# files and a link to each top-level entry of the repository (so that
# `make install` and the fixture paths work as from the root), HOME a
# scratch folder (the pages install into $HOME/.local), and no
# PKG_CONFIG_PATH or LD_LIBRARY_PATH but what the block sets.  Each program
# a line runs (./NAME) must count the events of tests/fixtures/ctf/sample
# as tracecat info does; one linked with libtracecat.so must not load
# without the way the page gives, and a static one must run with the
# prefix gone.
sample_events=$("$bin" info tests/fixtures/ctf/sample | sed -n 's/^  events: //p')
blocks=0
for page in README.md doc/library.md; do
	[ -f "$page" ] || continue
	rm -f "$work"/block*.sh
	awk -v dir="$work" '/^<!-- install-example/ { want = 1; next }
		want && /^```sh$/ { on = 1; want = 0; k++; printf "" > (dir "/block" k ".sh"); next }
		on && /^```$/ { on = 0; next } on { print >> (dir "/block" k ".sh") }' "$page"
	k=1
	while [ -f "$work/block$k.sh" ]; do
		blocks=$((blocks + 1))
		name=install/page-commands/$page#$k
		run=$work/run$blocks
		mkdir -p "$run" "$run.home"
		cp "$work/block$k.sh" "$run.sh"
		k=$((k + 1))
		bad=
		# the C files first: a name that is a path could write through
		# the links into the checkout
		while IFS= read -r c; do
			case $c in
			*/* | .* | "") bad+=" api-example name \"$c\" is not a plain file name;" ;;
			*) c_block "$page" "$c" >"$run/$c" ;;
			esac
		done < <(sed -n 's/^<!-- api-example: \([^ ]*\) .*/\1/p' "$page")
		for e in "$root"/* "$root"/.[!.]*; do
			[ -e "$e" ] && [ ! -e "$run/${e##*/}" ] && ln -s "$e" "$run/"
		done
		if [ -n "$bad" ]; then
			echo "FAIL $name:$bad"
			continue
		fi
		if ! (cd "$run" && env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH HOME="$run.home" bash -e "$run.sh") \
			>"$run.out" 2>"$run.err"; then
			if static_libelf_broken "$run.err"; then
				echo "NOTE $name: $static_libelf_note"
			else
				echo "FAIL $name: $(tail -c 400 "$run.err" | tr '\n' ' ')"
			fi
			continue
		fi
		progs=$(grep -oE '(^| )\./[-A-Za-z0-9_.]+' "$run.sh" | sed 's/^ //' | sort -u)
		if [ -z "$progs" ]; then
			echo "FAIL $name: no line runs a program it built"
			continue
		fi
		for p in $progs; do
			exe=$run/${p#./}
			# the line again alone, for its output apart from make's
			line=$(grep -E "(^| )$p( |\$)" "$run.sh" | head -n 1)
			if ! out=$(cd "$run" && env -u LD_LIBRARY_PATH HOME="$run.home" bash -c "$line" 2>&1); then
				bad+=" \`$line\` failed: $(head -c 200 <<<"$out");"
				continue
			fi
			# "N events", or count.c's "N CLASS" lines
			total=$(awk '/^[0-9]+ events$/ { s += $1; next } /^ *[0-9]+ / { s += $1 } END { print s + 0 }' <<<"$out")
			[ "$total" = "$sample_events" ] || bad+=" $p counted $total events, tracecat info $sample_events;"
			if readelf -d "$exe" 2>/dev/null | grep -q 'NEEDED.*libtracecat'; then
				if [ -z "$on_system_path" ] && ! readelf -d "$exe" | grep -qE 'R(UN)?PATH' &&
					(cd "$run" && env -u LD_LIBRARY_PATH "$exe" tests/fixtures/ctf/sample >/dev/null 2>&1); then
					bad+=" $p ran without the prefix's library path;"
				fi
			elif readelf -d "$exe" 2>/dev/null | grep -q NEEDED; then
				bad+=" $p is neither linked with libtracecat.so nor fully static;"
			fi
		done
		mv "$run.home" "$run.gone"
		for p in $progs; do
			exe=$run/${p#./}
			readelf -d "$exe" 2>/dev/null | grep -q NEEDED && continue
			(cd "$run" && "$exe" tests/fixtures/ctf/sample >/dev/null 2>&1) ||
				bad+=" $p (fully static) failed once the prefix was removed;"
		done
		mv "$run.gone" "$run.home"
		if [ -n "$bad" ]; then
			echo "FAIL $name:$bad"
		else
			echo "PASS $name: $(tr '\n' ' ' <<<"$progs")built and ran"
		fi
	done
done
[ "$blocks" -gt 0 ] || echo "FAIL install/page-commands: no sh block after <!-- install-example --> in README.md or doc/library.md"
exit 0
