#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/live/threads.sh BIN - `print`, `info`, `convert` and `report` give
# the same whatever -j/--jobs: worker threads decode ahead while the merge
# and the text stay on one thread (print, report), count streams apart
# (info), or write each stream's file from one thread (convert).  For every committed
# fixture of every format (valid ones, damaged ones that stop with an error
# after some output; and a uftrace recording of two tasks with arguments,
# made from one), and for all the CTF fixtures merged in one run, the
# standard output, the error output and the exit status of -j 1 and -j 4
# are compared, and convert's outputs (every event re-encoded as CTF 1.8
# and 2, Perfetto, Chrome JSON) file for file; `report` runs on every
# trace.dat fixture and corpus file (tests/corpus/trace-dat, or that of
# $TRACECAT_CORPUS) with each of a
# set of its options.  The same commands at -j 4 (convert to CTF and to
# Chrome JSON, whose file a thread of its own writes) then run under
# ThreadSanitizer (build/tsan/tracecat, made by `make sanitize`): any
# report fails.  Needs no peer tool.
# Prints PASS/FAIL lines for tests/run.sh; exits 0.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
F=$ROOT/tests/fixtures
CORPUS=${TRACECAT_CORPUS:-$ROOT/tests/corpus}

# same_streams LABEL: whether the standard output, the errors and the
# status of the -j 1 and -j 4 runs ($tmp/1.* and $tmp/4.*) agree; says
# what differs when not.
same_streams() {
	local what
	for what in out err rc; do
		if ! cmp -s "$tmp/1.$what" "$tmp/4.$what"; then
			echo "FAIL threads/$1: -j 4 differs from -j 1 ($what)"
			return 1
		fi
	done
}

# run NAME ARGS...: BIN ARGS with -j 1 and with -j 4, compared.
run() {
	local name=$1 cmd=$2 j
	shift 2
	for j in 1 4; do
		"$BIN" "$cmd" -j $j "$@" >"$tmp/$j.out" 2>"$tmp/$j.err"
		echo $? >"$tmp/$j.rc"
	done
	same_streams "$cmd/$name" && echo "PASS threads/$cmd/$name"
}

# convert_both NAME ARGS...: convert ARGS -o OUT with -j 1 and -j 4, the
# folders compared (the messages name them: the same temporary paths).
convert_both() {
	local name=$1 j
	shift
	for j in 1 4; do
		rm -rf "$tmp/c$j" "$tmp/o"
		"$BIN" convert -j $j "$@" -o "$tmp/o" >"$tmp/$j.out" 2>"$tmp/$j.err"
		echo $? >"$tmp/$j.rc"
		[ -e "$tmp/o" ] && mv "$tmp/o" "$tmp/c$j"
	done
	same_streams "convert/$name" || return
	if { [ -e "$tmp/c1" ] || [ -e "$tmp/c4" ]; } && ! diff -r "$tmp/c1" "$tmp/c4" >/dev/null 2>&1; then
		echo "FAIL threads/convert/$name: -j 4 wrote other files than -j 1"
		return
	fi
	echo "PASS threads/convert/$name"
}

# timeline_both NAME EXT ARGS...: convert ARGS -o OUT.EXT (Perfetto or
# Chrome JSON, streams merged by time) with -j 1 and -j 4, the files compared.
timeline_both() {
	local name=$1 ext=$2 j
	shift 2
	for j in 1 4; do
		rm -f "$tmp/t$j.$ext"
		"$BIN" convert -j $j "$@" -o "$tmp/t$j.$ext" >"$tmp/$j.out" 2>"$tmp/$j.err"
		echo $? >"$tmp/$j.rc"
	done
	sed -i "s|$tmp/t[14]|OUT|g" "$tmp/1.err" "$tmp/4.err"
	same_streams "convert-$ext/$name" || return
	if { [ -e "$tmp/t1.$ext" ] || [ -e "$tmp/t4.$ext" ]; } && ! cmp -s "$tmp/t1.$ext" "$tmp/t4.$ext"; then
		echo "FAIL threads/convert-$ext/$name: -j 4 wrote another file than -j 1"
		return
	fi
	echo "PASS threads/convert-$ext/$name"
}

traces=()
for t in "$F"/ctf/*/ "$F"/ctf-valid/*/ "$F"/ctf-bad/*/ "$F"/ctf2/*/ "$F"/ctf2-lttng/*/ "$F"/ctf2-from-ctf1/*/ \
	"$F"/lttng-legacy/*/ "$F"/lttng-legacy-bad/*/ "$F"/uftrace/*/ "$F"/tracedat/*.dat "$F"/tracedat-bad/*.dat; do
	[ -e "$t" ] || continue
	t=${t%/}
	traces+=("$t")
done
# Two tasks that both record arguments, so that their streams are decoded
# on two threads at once: the args recording with its task copied.
two=$tmp/uftrace-args-two-tasks
cp -r "$F/uftrace/args" "$two"
cp "$two/614.dat" "$two/615.dat"
printf '\nTASK timestamp=10627.172478900 tid=615 pid=614' >>"$two/task.txt"
sed -i 's/^taskinfo:nr_tid=1$/taskinfo:nr_tid=2/; s/^taskinfo:tids=614$/taskinfo:tids=614,615/' "$two/info"
traces+=("$two")
# label T: the name of trace T in the results
label() {
	local name=${1#"$F"/}
	name=${name#"$CORPUS"/}
	echo "${name#"$tmp"/}"
}
for t in "${traces[@]}"; do
	name=$(label "$t")
	run "$name" print --clock-gmt "$t"
	run "$name" info "$t"
	convert_both "$name" --events '*' "$t"
	convert_both "$name/ctf2" --events '*' --ctf-version 2 "$t"
	timeline_both "$name" pftrace "$t"
	timeline_both "$name" json "$t"
done
ctf=()
for t in "${traces[@]}"; do
	case $t in "$F"/ctf/* | "$F"/ctf2-lttng/* | "$F"/ctf2-from-ctf1/*) ctf+=("$t") ;; esac
done
run all-ctf-merged print --clock-gmt "${ctf[@]}"

# report's option sets (words split at spaces), each on every trace.dat.
report_opts=("" "-R" "-t" "-N" "-L" "-I -S" "--cpu 0" "--cpu 1,3" "-F sched_switch" "-v -F sched_switch"
	"-F sched_switch -v -F sched_wakeup" "-R -t -N --cpu 1" "-l --ts-diff" "-l -R --compat trace-cmd=3.1")
tracedats=()
for t in "$F"/tracedat/*.dat "$F"/tracedat-bad/*.dat "$CORPUS"/trace-dat/*.dat; do
	[ -e "$t" ] && tracedats+=("$t")
done
# The corpus is committed: no file there is a broken checkout.
compgen -G "$CORPUS/trace-dat/*.dat" >/dev/null ||
	echo "FAIL threads/corpus: no .dat file in $CORPUS/trace-dat"
for t in "${tracedats[@]}"; do
	name=$(label "$t")
	for o in "${report_opts[@]}"; do
		# shellcheck disable=SC2086
		run "$name${o:+/$o}" report $o "$t"
	done
	run "$name/-F expression" report -F 'sched_switch: prev_pid == 0' "$t"
done

TSAN_BIN=$ROOT/build/tsan/tracecat
if [ ! -x "$TSAN_BIN" ]; then
	echo "SKIP threads/tsan: $TSAN_BIN not built (make sanitize)"
	exit 0
fi
# tsan NAME ARGS...: BIN ARGS under ThreadSanitizer.
tsan() {
	local name=$1
	shift
	rm -rf "$tmp/o"
	TSAN_OPTIONS="halt_on_error=0 exitcode=66" "$TSAN_BIN" "$@" >/dev/null 2>"$tmp/tsan.err"
	if grep -q "ThreadSanitizer" "$tmp/tsan.err"; then
		echo "FAIL threads/tsan/$name: $(grep -m1 'SUMMARY: ThreadSanitizer' "$tmp/tsan.err")"
	else
		echo "PASS threads/tsan/$name"
	fi
}
for t in "${traces[@]}"; do
	name=$(label "$t")
	tsan "print/$name" print -j 4 "$t"
	tsan "info/$name" info -j 4 "$t"
	tsan "convert/$name" convert -j 4 --events '*' "$t" -o "$tmp/o"
	tsan "convert-json/$name" convert -j 4 --force "$t" -o "$tmp/o.json"
done
tsan print/all-ctf-merged print -j 4 "${ctf[@]}"
for t in "${tracedats[@]}"; do
	name=$(label "$t")
	tsan "report/$name" report -j 4 "$t"
	tsan "report/$name/-R" report -j 4 -R "$t"
done
