#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# no-traceevent.sh - `make WITH_TRACEEVENT=0`: the library and the CLI
# without libtraceevent, for a machine that has none (only `report` needs
# it).  Builds into a temporary folder with the compiler told nothing of
# libtraceevent (no include path, no library: a source that still included
# its headers would not compile, one that called it would not link), then:
#   - neither tracecat nor libtracecat.so needs libtraceevent;
#   - `make install` writes a tracecat.pc that says report=no and does not
#     require libtraceevent;
#   - the library's unit tests of that build pass (all but the report's
#     and the print-format compiler's, which are libtraceevent's);
#   - `print` and `info` of a fixture of each format print what the full
#     build prints, and `report` and `script` exit 1 with one line saying
#     why.
#
# usage (from the repository root): bash tests/live/no-traceevent.sh BIN
# Protocol of tests/run.sh: PASS/FAIL lines, exit 0.
set -uo pipefail

bin=${1:?usage: $0 BIN}
root=$(pwd)
case $bin in /*) ;; *) bin=$root/$bin ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-no-traceevent.XXXXXX")
trap 'rm -rf "$work"' EXIT
build=$work/build
export TZ=UTC TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0,trace-cmd=3.1,uftrace=0.13}

if ! make -s --no-print-directory -j2 BUILD="$build" WITH_TRACEEVENT=0 all unit >"$work/make.log" 2>&1; then
	echo "FAIL no-traceevent/build: $(grep -m3 -e error -e Error "$work/make.log" | head -c 400)"
	exit 0
fi
# The compiler's warnings ("FILE:LINE:COL: warning: ..."), not make's own
# (under `make check`, "-j2 forced in submake").
if grep -v '^make' "$work/make.log" | grep -q ': warning: '; then
	echo "FAIL no-traceevent/build: warnings: $(grep -v '^make' "$work/make.log" | grep -m1 ': warning: ')"
else
	echo "PASS no-traceevent/build"
fi

for f in "$build/tracecat" "$build/libtracecat.so"; do
	if readelf -d "$f" | grep -q 'NEEDED.*libtraceevent'; then
		echo "FAIL no-traceevent/needed/$(basename "$f"): links libtraceevent"
	else
		echo "PASS no-traceevent/needed/$(basename "$f")"
	fi
done

if make -s --no-print-directory BUILD="$build" WITH_TRACEEVENT=0 install PREFIX="$work/prefix" \
	>"$work/install.log" 2>&1; then
	pc=$work/prefix/lib/pkgconfig/tracecat.pc
	if grep -qx 'report=no' "$pc" && ! grep '^Requires' "$pc" | grep -q traceevent; then
		echo "PASS no-traceevent/pkg-config: report=no, no libtraceevent"
	else
		echo "FAIL no-traceevent/pkg-config: $(grep -e '^report' -e Requires "$pc" | tr '\n' ' ')"
	fi
else
	echo "FAIL no-traceevent/install: $(tail -c 300 "$work/install.log")"
fi

units=0
for t in "$build"/tests/*_test; do
	[ -x "$t" ] || continue
	units=$((units + 1))
	if "$t" >"$work/unit.log" 2>&1; then
		echo "PASS no-traceevent/unit/$(basename "$t")"
	else
		echo "FAIL no-traceevent/unit/$(basename "$t"): $(grep -m1 FAIL "$work/unit.log" | head -c 300)"
	fi
done
[ "$units" -gt 0 ] || echo "FAIL no-traceevent/unit: no unit test was built"

for trace in tests/fixtures/ctf/sample tests/fixtures/tracedat/top-v7-zstd.dat tests/fixtures/uftrace/args \
	tests/fixtures/lttng-legacy/v26-le-lost; do
	for cmd in print info; do
		if cmp -s <("$bin" "$cmd" "$trace" 2>&1) <("$build/tracecat" "$cmd" "$trace" 2>&1); then
			echo "PASS no-traceevent/$cmd/$trace"
		else
			echo "FAIL no-traceevent/$cmd/$trace: differs from the full build's"
		fi
	done
done

# (script's stub answers before it looks at the file)
for cmd in report script; do
	"$build/tracecat" $cmd tests/fixtures/tracedat/top-v7-zstd.dat >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" = 1 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q 'without libtraceevent' "$work/err"; then
		echo "PASS no-traceevent/$cmd: $(cat "$work/err")"
	else
		echo "FAIL no-traceevent/$cmd: exit $rc: $(head -c 300 "$work/err")"
	fi
done
exit 0
