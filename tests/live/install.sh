#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# install.sh - tracecat as a packager and a library user get it:
# `make install` into a temporary prefix (and staged with DESTDIR), then
# the README's API example (the C block after "api-example") compiled with
# `pkg-config --cflags --libs tracecat`, shared and --static, and run on
# fixtures of every format; its event counts must equal what
# `tracecat print` shows.  Also: the shared library exports only tc_
# symbols, has its soname and symlinks, and every installed file is there.
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

missing=
for f in bin/tracecat lib/libtracecat.a "lib/libtracecat.so.$version" include/tracecat.h \
	lib/pkgconfig/tracecat.pc share/man/man1/tracecat.1 share/bash-completion/completions/tracecat; do
	[ -f "$prefix/$f" ] || missing="$missing $f"
done
[ "$(readlink "$prefix/lib/libtracecat.so.$major")" = "libtracecat.so.$version" ] || missing="$missing lib/libtracecat.so.$major"
[ "$(readlink "$prefix/lib/libtracecat.so")" = "libtracecat.so.$major" ] || missing="$missing lib/libtracecat.so"
if [ -z "$missing" ]; then echo "PASS install/files"; else echo "FAIL install/files: missing or wrong:$missing"; fi

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

# The README's example, as a user would take it.
awk '/<!-- api-example/ { want = 1; next } want && /^```c/ { on = 1; next } on && /^```/ { exit } on' \
	README.md >"$work/count.c"
if [ ! -s "$work/count.c" ]; then
	echo "FAIL install/api-example: no C block after <!-- api-example --> in README.md"
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
	echo "FAIL install/api-example-static: $(head -c 400 "$work/cc.log")"
elif readelf -d "$work/count-static" 2>/dev/null | grep -q NEEDED; then
	echo "FAIL install/api-example-static: still needs shared libraries"
else
	echo "PASS install/api-example-static: compiled"
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
if env -u LD_LIBRARY_PATH "$work/count-shared" tests/fixtures/ctf/sample >/dev/null 2>&1 &&
	! ldconfig -p 2>/dev/null | grep -q libtracecat; then
	echo "FAIL install/api-example-shared: ran without libtracecat.so on the library path"
fi
exit 0
