#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/run.sh - tracecat's whole test suite, data-driven: every case is an
# input plus the expected output beside it.  `make check` runs it after
# building the plain and the sanitizer binaries.  Ends with the line
# "N passed, N failed, N skipped"; exits 1 if anything failed.
#
# A check that cannot run here (a peer tool, the corpus, root or tracefs
# missing) prints "SKIP name: reason" and is counted as skipped.  Under
# CI=true (CI services set it; .ci/run installs every tool first) a skip
# counts as a failure instead: "FAIL name (skipped under CI: reason)".
# Lines "NOTE ..." of the live tests (documented differences, not checks)
# are not counted; VERBOSE=1 shows them with the PASS lines.
#
#   1. committed fixtures: tests/fixtures/ctf/NAME/ with NAME.bt2.txt (and
#      NAME.OPTS.bt2.txt for other babeltrace2 options, OPTS being the
#      options without "--", joined by "+")
#   2. error cases: tests/fixtures/ctf-bad/NAME/ with NAME.partial.txt (what
#      must be printed before the error, may be empty); legacy LTTng traces
#      tests/fixtures/lttng-legacy/NAME/ with NAME.expected
#   3. the CTF corpus: tests/corpus/ctf, babeltrace's test traces
#      (scripts/babeltrace-traces.sh) and $TRACECAT_CORPUS when set: every
#      .bt2.txt (.bt21.txt for CTF 2) must match byte for byte; every
#      .bt2.err trace is either invalid (exit 1 after the .bt2.partial.txt
#      output) or one babeltrace2 wrongly refuses (read in full, exit 0)
#   4. unit test programs build/tests/*_test
#   5. live comparisons tests/live/*.sh against the installed peer tools
#   6. damaged copies of every fixture through the sanitizer build
#      (tests/damaged_input.py): exit 0 or 1, no sanitizer report, no hang
#   7. inputs that once failed a fuzz target, when clang is installed
#
# Each CTF case runs with both build/tracecat and build/sanitize/tracecat.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
BINS=("$ROOT/build/tracecat" "$ROOT/build/sanitize/tracecat")
VERBOSE=${VERBOSE:-0}
export TZ=UTC
# The CTF 1.8 references (.bt2.txt) and the live comparisons are Debian
# 12's babeltrace2 2.0.4's text; CTF 2 prints as 2.1.2 does whatever this
# says, and tests/live/babeltrace21-ctf1.sh checks the default, 2.1.2's.
# The trace.dat references are Debian 12's trace-cmd 3.1.6's text;
# tests/live/tracecmd34.sh checks the default, trace-cmd 3.4's.
# The uftrace references are Debian 12's uftrace 0.13's replay text;
# tests/live/uftrace019.sh checks the default, 0.19's.
export TRACECAT_COMPAT=babeltrace2=2.0,trace-cmd=3.1,uftrace=0.13
# On a host whose peers are other releases than Debian 12's, the live tests
# run Debian 12's from a bookworm root instead (tests/lib.sh, peers_debian12).
# shellcheck source=tests/lib.sh
. tests/lib.sh
peers_debian12
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

pass=0
fail=0
skip=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ok() { pass=$((pass + 1)); [ "$VERBOSE" = 1 ] && echo "PASS $1"; return 0; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; return 0; }
# skipped "NAME: REASON"
skipped() {
	if [ "${CI:-}" = true ]; then
		fail=$((fail + 1))
		case $1 in
		*': '*) echo "FAIL ${1%%: *} (skipped under CI: ${1#*: })" ;;
		*) echo "FAIL $1 (skipped under CI)" ;;
		esac
	else
		skip=$((skip + 1))
		echo "SKIP $1"
	fi
	return 0
}

bin_tag() { case "$1" in */sanitize/*) echo "asan";; *) echo "plain";; esac; }

# opts_from_name "no-delta+names=all" -> "--no-delta --names=all"
opts_from_name() {
	local IFS=+ out=() o
	for o in $1; do out+=("--$o"); done
	echo "${out[@]}"
}

# Expected: exit 0 and stdout equal to $expected.
check_output() {
	local name=$1 dir=$2 trace=$3 expected=$4; shift 4
	local bin tag
	for bin in "${BINS[@]}"; do
		tag=$(bin_tag "$bin")
		(cd "$dir" && timeout 120 "$bin" print --clock-gmt "$@" "$trace" >"$TMP/out" 2>"$TMP/err")
		local rc=$?
		if [ $rc -ne 0 ]; then
			bad "$name [$tag]: exit $rc: $(head -c 300 "$TMP/err")"
		elif ! cmp -s "$TMP/out" "$expected"; then
			bad "$name [$tag]: output differs at $(cmp "$TMP/out" "$expected" 2>&1 | head -1 | sed 's/.*differ: //')"
		elif grep -q -e "runtime error" -e "AddressSanitizer" -e "LeakSanitizer" "$TMP/err"; then
			bad "$name [$tag]: sanitizer report: $(grep -m1 -e 'runtime error' -e Sanitizer "$TMP/err")"
		else
			ok "$name [$tag]"
		fi
	done
}

# Expected: exit 1, stdout equal to $partial (or empty), one stderr line.
check_error() {
	local name=$1 dir=$2 trace=$3 partial=$4
	local bin tag
	for bin in "${BINS[@]}"; do
		tag=$(bin_tag "$bin")
		(cd "$dir" && timeout 120 "$bin" print --clock-gmt "$trace" >"$TMP/out" 2>"$TMP/err")
		local rc=$?
		if [ -f "$partial" ]; then cp "$partial" "$TMP/exp"; else : >"$TMP/exp"; fi
		if [ $rc -ne 1 ]; then
			bad "$name [$tag]: exit $rc, expected 1: $(head -c 300 "$TMP/err")"
		elif ! cmp -s "$TMP/out" "$TMP/exp"; then
			bad "$name [$tag]: partial output differs from babeltrace2's"
		elif [ "$(wc -l <"$TMP/err")" -ne 1 ] || ! grep -q '^tracecat: ' "$TMP/err"; then
			bad "$name [$tag]: expected one error line, got: $(head -c 300 "$TMP/err")"
		else
			ok "$name [$tag]"
		fi
	done
}

# Expected: exit 0 (a trace babeltrace2 2.0.4 refuses but which is valid).
check_reads() {
	local name=$1 dir=$2 trace=$3 expected=${4:-}
	local bin tag
	for bin in "${BINS[@]}"; do
		tag=$(bin_tag "$bin")
		(cd "$dir" && timeout 120 "$bin" print --clock-gmt "$trace" >"$TMP/out" 2>"$TMP/err")
		local rc=$?
		if [ $rc -ne 0 ]; then
			bad "$name [$tag]: exit $rc, expected 0: $(head -c 300 "$TMP/err")"
		elif [ -n "$expected" ] && ! cmp -s "$TMP/out" "$expected"; then
			bad "$name [$tag]: output differs from $expected"
		elif grep -q -e "runtime error" -e "Sanitizer" "$TMP/err"; then
			bad "$name [$tag]: sanitizer report"
		else
			ok "$name [$tag]"
		fi
	done
}

# Where babeltrace2 2.1.2 crashes: exit 0 (read in full) or 1 with one
# error line, and no sanitizer report.
check_no_crash() {
	local name=$1 dir=$2 trace=$3
	local bin tag rc
	for bin in "${BINS[@]}"; do
		tag=$(bin_tag "$bin")
		(cd "$dir" && timeout 120 "$bin" print --clock-gmt "$trace" >"$TMP/out" 2>"$TMP/err")
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
			bad "$name [$tag]: exit $rc: $(head -c 300 "$TMP/err")"
		elif [ $rc -eq 1 ] && { [ "$(wc -l <"$TMP/err")" -ne 1 ] || ! grep -q '^tracecat: ' "$TMP/err"; }; then
			bad "$name [$tag]: expected one error line, got: $(head -c 300 "$TMP/err")"
		elif grep -q -e "runtime error" -e "Sanitizer" "$TMP/err"; then
			bad "$name [$tag]: sanitizer report"
		else
			ok "$name [$tag]"
		fi
	done
}

# Expected: exit 1, stdout equal to $want_out (how=partial: the events
# before the defect) or to its start (how=intact: $want_out is the intact
# trace's lines), and stderr equal to $want_err.  The rest are the print
# options and the trace, run in $dir.
check_damaged() {
	local name=$1 dir=$2 how=$3 want_out=$4 want_err=$5; shift 5
	local bin tag rc what=error
	[ "$how" = partial ] && what="error line"
	for bin in "${BINS[@]}"; do
		tag=$(bin_tag "$bin")
		(cd "$dir" && timeout 120 "$bin" print "$@" >"$TMP/out" 2>"$TMP/err")
		rc=$?
		if [ $rc -ne 1 ]; then
			bad "$name [$tag]: exit $rc, expected 1"
		elif [ "$how" = partial ] && ! cmp -s "$TMP/out" "$want_out"; then
			bad "$name [$tag]: output before the error differs"
		elif [ "$how" = intact ] && ! head -c "$(wc -c <"$TMP/out")" "$want_out" | cmp -s - "$TMP/out"; then
			bad "$name [$tag]: the lines before the error are not those of the intact trace"
		elif ! cmp -s "$TMP/err" "$want_err"; then
			bad "$name [$tag]: $what differs: $(head -c 300 "$TMP/err")"
		else
			ok "$name [$tag]"
		fi
	done
}

# Every NAME[.OPTS].SUFFIX (expected text) in DIR, as check_output.
check_text_fixtures() {
	local tag=$1 dir=$2 suffix=$3 exp base trace opts
	for exp in "$dir"/*."$suffix"; do
		[ -e "$exp" ] || continue
		base=$(basename "$exp" ".$suffix")
		trace=${base%%.*}
		opts=""
		[ "$base" != "$trace" ] && opts=$(opts_from_name "${base#*.}")
		case $exp in /*) ;; *) exp=$ROOT/$exp ;; esac
		# shellcheck disable=SC2086
		check_output "$tag/$base" "$dir" "$trace" "$exp" $opts
	done
}

# CTF 2 traces babeltrace2 2.1.2 refuses only because it cannot relate
# their clocks across traces or stream classes; tracecat merges them as it
# does CTF 1.8 traces (README: "Where tracecat differs").
CTF2_VALID_REFUSED="mux-clock-and-no-clock two-traces-different-origins two-traces-unrelated-clocks"
# A packet whose context ends past its content size: babeltrace2 2.1.2
# prints an event read beyond the content before it fails; tracecat
# refuses the packet before any event.
CTF2_REFUSED_SOONER="content-before-context-end"

# ---- 1 and 2: committed fixtures ----
check_text_fixtures fixture tests/fixtures/ctf bt2.txt
# CTF 2: hand-made traces (tests/ctf2/mktraces.py), CTF 1.8 fixtures
# converted by babeltrace2 2.1.2, and LTTng 2.15 recordings
# (tests/lttng2/record.sh), with 2.1.2's text; the traces it refuses
# (NAME.bt21.err, output before the error NAME.bt21.partial.txt) and those
# it crashes on (NAME.expect-error): exit 1 and one line.
if ! command -v python3 >/dev/null; then
	skipped "fixture-ctf2/generated: python3 is not installed"
elif python3 tests/ctf2/mktraces.py "$TMP/ctf2gen" >"$TMP/ctf2gen.log" 2>&1 &&
	diff -r -x '*.bt21.*' -x '*.md' -x '*.expect-error' "$TMP/ctf2gen/ctf2" tests/fixtures/ctf2 >"$TMP/ctf2gen.diff" &&
	diff -r -x '*.bt21.*' -x '*.md' -x '*.expect-error' "$TMP/ctf2gen/ctf2-bad" tests/fixtures/ctf2-bad >>"$TMP/ctf2gen.diff"; then
	ok "fixture-ctf2/generated"
else
	bad "fixture-ctf2/generated: tests/ctf2/mktraces.py does not reproduce tests/fixtures/ctf2*: $(head -c 300 "$TMP/ctf2gen.log" "$TMP/ctf2gen.diff")"
fi
check_text_fixtures fixture-ctf2 tests/fixtures/ctf2 bt21.txt
# The same traces in the release-candidate 7.0 dialect, which babeltrace2
# 2.1.2 refuses (tests/ctf2/mkrc.py), must print the same.
if ! command -v python3 >/dev/null; then
	skipped "fixture-ctf2-rc: python3 is not installed"
elif python3 tests/ctf2/mkrc.py tests/fixtures/ctf2 "$TMP/ctf2-rc" 2>"$TMP/ctf2-rc.log"; then
	check_text_fixtures fixture-ctf2-rc "$TMP/ctf2-rc" bt21.txt
else
	bad "fixture-ctf2-rc: tests/ctf2/mkrc.py failed: $(head -c 300 "$TMP/ctf2-rc.log")"
fi
check_text_fixtures fixture-ctf2-from-ctf1 tests/fixtures/ctf2-from-ctf1 bt21.txt
check_text_fixtures fixture-ctf2-lttng tests/fixtures/ctf2-lttng bt21.txt
for d in tests/fixtures/ctf2-bad/*/; do
	[ -d "$d" ] || continue
	n=$(basename "$d")
	if [ -f "tests/fixtures/ctf2-bad/$n.expect-error" ]; then
		check_no_crash "fixture-ctf2-crash/$n" tests/fixtures/ctf2-bad "$n"
	elif printf '%s\n' $CTF2_VALID_REFUSED | grep -qx "$n"; then
		check_reads "fixture-ctf2-valid/$n" tests/fixtures/ctf2-bad "$n"
	elif printf '%s\n' $CTF2_REFUSED_SOONER | grep -qx "$n"; then
		check_error "fixture-ctf2-bad/$n" tests/fixtures/ctf2-bad "$n" /dev/null
	else
		check_error "fixture-ctf2-bad/$n" tests/fixtures/ctf2-bad "$n" "$ROOT/tests/fixtures/ctf2-bad/$n.bt21.partial.txt"
	fi
done
for d in tests/fixtures/ctf-bad/*/; do
	[ -d "$d" ] || continue
	n=$(basename "$d")
	check_error "fixture-bad/$n" tests/fixtures/ctf-bad "$n" "$ROOT/tests/fixtures/ctf-bad/$n.partial.txt"
done
# Damaged trace.dat files: the events before the defect, then exactly the
# expected error line (tests/fixtures/tracedat-bad/README.md).
for f in tests/fixtures/tracedat-bad/*.dat; do
	[ -f "$f" ] || continue
	n=${f%.dat}
	check_damaged "fixture-bad/$(basename "$f")" . partial "$n.partial.txt" "$n.err" --clock-gmt "$f"
done
# `report` on them: exit status 1 and the same error line, after the same
# lines whether the CPUs are read on this thread (-j 1) or ahead on
# workers (-j 4).
for f in tests/fixtures/tracedat-bad/*.dat; do
	[ -f "$f" ] || continue
	for bin in "${BINS[@]}"; do
		tag=$(bin_tag "$bin")
		for j in 1 4; do
			timeout 120 "$bin" report -j $j "$f" >"$TMP/report$j.out" 2>"$TMP/report$j.err"
			echo $? >"$TMP/report$j.rc"
		done
		name="fixture-bad/report/$(basename "$f") [$tag]"
		if [ "$(cat "$TMP/report1.rc") $(cat "$TMP/report4.rc")" != "1 1" ]; then
			bad "$name: exit $(cat "$TMP/report1.rc") at -j 1 and $(cat "$TMP/report4.rc") at -j 4, expected 1"
		elif ! cmp -s "$TMP/report1.err" "${f%.dat}.err" || ! cmp -s "$TMP/report4.err" "${f%.dat}.err"; then
			bad "$name: error line differs: $(head -c 300 "$TMP/report4.err")"
		elif ! cmp -s "$TMP/report1.out" "$TMP/report4.out"; then
			bad "$name: the lines before the error differ between -j 1 and -j 4"
		else
			ok "$name"
		fi
	done
done
# Legacy LTTng traces built from the spec's rules by an independent
# generator (tests/lttng_legacy/mktrace.py): NAME.expected is the event
# lines, NAME.first-wall the first event's wall-clock time in nanoseconds,
# NAME.lost the number of lost events the trace reports (none without it).
# The suite builds them anew and they must come out as committed.
if ! command -v python3 >/dev/null; then
	skipped "fixture-legacy/generated: python3 is not installed"
elif [ -d tests/fixtures/lttng-legacy ]; then
	if python3 tests/lttng_legacy/mktrace.py "$TMP/legacy" >"$TMP/legacy.log" 2>&1 &&
		diff -r -x README.md "$TMP/legacy" tests/fixtures/lttng-legacy >"$TMP/legacy.diff" &&
		python3 tests/lttng_legacy/mkbad.py "$TMP/legacy" "$TMP/legacy-bad" >>"$TMP/legacy.log" 2>&1 &&
		diff -r -x README.md -x '*.err' "$TMP/legacy-bad" tests/fixtures/lttng-legacy-bad >>"$TMP/legacy.diff"; then
		ok "fixture-legacy/generated"
	else
		bad "fixture-legacy/generated: mktrace.py does not reproduce tests/fixtures/lttng-legacy: $(head -c 300 "$TMP/legacy.log" "$TMP/legacy.diff")"
	fi
fi
for exp in tests/fixtures/lttng-legacy/*.expected; do
	[ -e "$exp" ] || continue
	n=$(basename "$exp" .expected)
	d=tests/fixtures/lttng-legacy
	check_output "fixture-legacy/$n" "$d" "$n" "$ROOT/$exp" --clock-cycles --no-delta
	# One more run for the first wall-clock time (stdout) and the lost
	# events (the discarded-events warnings on stderr).
	build/tracecat print --clock-seconds "$d/$n" >"$TMP/legacy.out" 2>"$TMP/legacy.err"
	if [ -f "$d/$n.first-wall" ]; then
		got=$(head -1 "$TMP/legacy.out" | sed 's/^\[\([0-9]*\)\.\([0-9]*\)\].*/\1\2/;s/^0*//')
		if [ "$got" = "$(tr -d ' \n' <"$d/$n.first-wall")" ]; then ok "fixture-legacy/$n/wall-clock"
		else bad "fixture-legacy/$n/wall-clock: got $got ns, expected $(cat "$d/$n.first-wall")"; fi
	fi
	lost=0
	[ -f "$d/$n.lost" ] && lost=$(tr -d ' \n' <"$d/$n.lost")
	got=$(sed -n 's/.*Tracer discarded \([0-9]*\) events.*/\1/p' "$TMP/legacy.err" | awk '{ s += $1 } END { printf "%.0f", s }')
	if [ "$got" = "$lost" ]; then ok "fixture-legacy/$n/lost"
	else bad "fixture-legacy/$n/lost: got $got lost events, expected $lost"; fi
done
# Flight-recorder traces name their files flight-CHANNEL_CPU (spec §2).
if [ -d tests/fixtures/lttng-legacy/v26-le-lost ]; then
	cp -r tests/fixtures/lttng-legacy/v26-le-lost "$TMP/flight"
	for f in "$TMP/flight"/*; do mv "$f" "$TMP/flight/flight-$(basename "$f")"; done
	check_output "fixture-legacy/flight-prefix" "$TMP" flight "$ROOT/tests/fixtures/lttng-legacy/v26-le-lost.expected" \
		--clock-cycles --no-delta
fi
# Damaged copies of them (tests/lttng_legacy/mkbad.py): a prefix of the
# intact trace's lines, then exactly the expected error, exit 1.
for src in tests/fixtures/lttng-legacy-bad/*.source; do
	[ -e "$src" ] || continue
	n=$(basename "$src" .source)
	d=tests/fixtures/lttng-legacy-bad
	intact=tests/fixtures/lttng-legacy/$(cat "$src").expected
	check_damaged "fixture-legacy-bad/$n" "$d" intact "$intact" "$d/$n.err" --clock-cycles --no-delta "$n"
done
for d in tests/fixtures/ctf-valid/*/; do
	[ -d "$d" ] || continue
	n=$(basename "$d")
	check_reads "fixture-valid/$n" tests/fixtures/ctf-valid "$n" "$ROOT/tests/fixtures/ctf-valid/$n.expect.txt"
done

# ---- 3: the CTF corpus ----
# The project's own traces (tests/corpus/ctf), babeltrace's test traces
# (tests/third_party/babeltrace-ctf-traces) with the references the peers
# write beside them (scripts/babeltrace-traces.sh, cached after the first
# run), and the
# CTF traces of an external corpus when TRACECAT_CORPUS names one.
# Traces babeltrace2 2.0.4 refuses or crashes on although CTF 1.8 allows
# them; tracecat reads them in full (README: "Where tracecat differs").
# Expected outputs live in tests/corpus-expect/GROUP/NAME.txt when known.
VALID_REFUSED="succeed/meta-ctx-sequence succeed/def-clk-freq synthetic/clock-nofreq synthetic/variant-tag-absolute
synthetic/clk-backwards synthetic/ev-after-end synthetic/ev-before-begin synthetic/pkt-overlap
synthetic/mux-noclock"
BT_TRACES=$(scripts/babeltrace-traces.sh 2>"$TMP/bt-traces.log")
case $? in
0) ;;
2) skipped "corpus-babeltrace: some references are missing: $(grep -m1 'not there' "$TMP/bt-traces.log")" ;;
*) skipped "corpus-babeltrace: no babeltrace test traces: $(tail -1 "$TMP/bt-traces.log")"; BT_TRACES="" ;;
esac
# "KEY DIR" lines: a CTF 1.8 group directory and the prefix of its names.
ctf_groups=("lttng-ust $ROOT/tests/corpus/ctf/lttng-ust" "synthetic $ROOT/tests/corpus/ctf/synthetic")
ctf2_groups=()
for base in ${BT_TRACES:+"$BT_TRACES"} ${TRACECAT_CORPUS:+"$TRACECAT_CORPUS"}; do
	for group in succeed fail intersection packet-seq-num deterministic-ordering; do
		[ -d "$base/ctf/babeltrace/$group" ] && ctf_groups+=("$group $base/ctf/babeltrace/$group")
	done
	for group in succeed intersection fail; do
		[ -d "$base/ctf2/babeltrace/$group" ] && ctf2_groups+=("$group $base/ctf2/babeltrace/$group")
	done
done
if [ -n "${TRACECAT_CORPUS:-}" ]; then
	for group in lttng-ust synthetic; do
		[ -d "$TRACECAT_CORPUS/ctf/$group" ] && ctf_groups+=("$group $TRACECAT_CORPUS/ctf/$group")
	done
fi
ctf_total=0
ctf_same=0
for entry in "${ctf_groups[@]}"; do
	group=${entry%% *}
	gdir=${entry#* }
	for t in "$gdir"/*/; do
		n=$(basename "$t")
		case "$n" in gen|src) continue;; esac
		key="$group/$n"
		if [ -f "$gdir/$n.bt2.txt" ]; then
			ctf_total=$((ctf_total + 1))
			before=$fail
			check_output "corpus/$key" "$gdir" "$n" "$gdir/$n.bt2.txt"
			[ $fail -eq $before ] && ctf_same=$((ctf_same + 1))
		elif [ -f "$gdir/$n.bt2.err" ]; then
			if printf '%s\n' $VALID_REFUSED | grep -qx "$key"; then
				exp="$ROOT/tests/corpus-expect/$key.txt"
				[ -f "$exp" ] || exp=""
				check_reads "corpus-valid/$key" "$gdir" "$n" "$exp"
			else
				check_error "corpus-invalid/$key" "$gdir" "$n" "$gdir/$n.bt2.partial.txt"
			fi
		fi
	done
done
echo "corpus: $ctf_same/$ctf_total CTF traces byte-identical to babeltrace2 (both builds)"
# CTF 2 (babeltrace2 2.1.2's text): every .bt21.txt byte for byte, every
# .bt21.err trace refused with the output before the error.
ctf2_total=0
ctf2_same=0
for entry in "${ctf2_groups[@]}"; do
	group=${entry%% *}
	gdir=${entry#* }
	for t in "$gdir"/*/; do
		n=$(basename "$t")
		if [ -f "$gdir/$n.bt21.txt" ]; then
			ctf2_total=$((ctf2_total + 1))
			before=$fail
			check_output "corpus-ctf2/$group/$n" "$gdir" "$n" "$gdir/$n.bt21.txt"
			[ $fail -eq $before ] && ctf2_same=$((ctf2_same + 1))
		elif [ -f "$gdir/$n.bt21.err" ]; then
			check_error "corpus-ctf2/$group/$n" "$gdir" "$n" "$gdir/$n.bt21.partial.txt"
		fi
	done
done
echo "corpus: $ctf2_same/$ctf2_total CTF 2 traces byte-identical to babeltrace2 2.1.2 (both builds)"

# ---- 4: unit test programs ----
# A program that dies (a sanitizer report, a signal) without a FAIL line
# fails as a whole.
for u in build/tests/*_test; do
	[ -x "$u" ] || continue
	unit_failed=0
	while IFS= read -r line; do
		case "$line" in
		PASS*) ok "unit/$(basename "$u"): ${line#PASS }";;
		FAIL*) bad "unit/$(basename "$u"): ${line#FAIL }"; unit_failed=1;;
		SKIP*) skipped "unit/$(basename "$u"): ${line#SKIP }";;
		"EXIT 0") ;;
		EXIT*) [ $unit_failed = 1 ] || bad "unit/$(basename "$u"): exited with status ${line#EXIT }";;
		esac
	done < <("$u" 2>&1; echo "EXIT $?")
done

# ---- 5: live comparisons with peer tools ----
for s in tests/live/*.sh; do
	[ -f "$s" ] || continue
	while IFS= read -r line; do
		case "$line" in
		PASS*) ok "live/${line#PASS }";;
		FAIL*) bad "live/${line#FAIL }";;
		SKIP*) skipped "live/${line#SKIP }";;
		NOTE*) [ "$VERBOSE" = 1 ] && echo "$line";;
		esac
	done < <(timeout 600 bash "$s" "$ROOT/build/tracecat" 2>&1)
done

# ---- 6: damaged input ----
if command -v python3 >/dev/null; then
	while IFS= read -r line; do
		case "$line" in
		PASS*) ok "${line#PASS }";;
		FAIL*) bad "${line#FAIL }";;
		esac
	done < <(python3 tests/damaged_input.py "$ROOT/build/sanitize/tracecat" 60 2>&1)
else
	skipped "damaged-input: python3 is not installed"
fi

# ---- 7: inputs that once failed a fuzz target ----
# tests/fuzz/regressions/TARGET/NAME, each run once by build/fuzz/TARGET
# (built by make check when clang is installed): clang's sanitizers see
# undefined behaviour gcc's miss (a null pointer plus 0, a float cast out
# of range).
for dir in tests/fuzz/regressions/*/; do
	[ -d "$dir" ] || continue
	t=$(basename "$dir")
	if [ ! -x "build/fuzz/$t" ]; then
		skipped "fuzz-regressions/$t: build/fuzz/$t not built (clang is not installed)"
		continue
	fi
	for input in "$dir"*; do
		if timeout 60 "build/fuzz/$t" -artifact_prefix="$TMP/" "$input" >"$TMP/fuzz.log" 2>&1; then
			ok "fuzz-regressions/$t/$(basename "$input")"
		else
			bad "fuzz-regressions/$t/$(basename "$input"): $(grep -m1 -e 'runtime error' -e ERROR "$TMP/fuzz.log")"
		fi
	done
done

echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
