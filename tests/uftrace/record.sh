#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# record.sh - record the uftrace scenarios of tests/uftrace and store
# `uftrace replay`'s output for every option set beside each recording.
#
# usage: tests/uftrace/record.sh OUTDIR [NAME...]
#
# Builds the programs of tests/uftrace (gcc -pg -O0; -g for args.c, whose
# argument specs come from DWARF; -pthread for threads.c, lifecycle.c and
# names.c)
# in a temporary folder, records each scenario NAME (default: all of them) into
# OUTDIR/NAME with `uftrace record`, deletes the programs (so that replay
# takes every symbol from the recording's .sym/.dbg files, as a reader
# without the binaries must), then writes
#   OUTDIR/NAME.replay.txt        `uftrace replay -d OUTDIR/NAME` stdout
#   OUTDIR/NAME.OPTS.replay.txt   `uftrace replay ARGS -d OUTDIR/NAME` stdout
# for every option set of tests/uftrace/option-sets.txt that applies to the
# scenario (OPTS is the set's reversible NAME, e.g. depth=2 for -D 2;
# tid=12345 for --tid with the recording's main thread).  stdout is a file,
# so uftrace uses no colour and no pager.  Each OPTS output is also checked
# against uftrace's output for the long spelling OPTS decodes to
# (--depth=2), so that the file names can be turned back into arguments.
#
# Scenarios (program, `uftrace record` options, program arguments):
#   single      single.c                    nested calls, loop of leaves,
#                                           recursion, deep chain, libc calls
#   nolibcall   single.c  --no-libcall      no PLT hooks
#   depth       single.c  -D 3              depth limit at record time
#   timefilter  single.c  -t 1us            writes default.opts "-t 1us",
#                                           which replay applies by default
#   threads     threads.c                   main + 2 workers, barrier, mutex
#   fork        forks.c                     fork, child returns, parent waits
#   forkexec    forks.c   (argument exec)   fork, child execs itself: two
#                                           sessions, one tid
#   args        args.c    -a                DWARF and libc auto-arguments
#   argspec     args.c    --no-libcall -A/-R explicit specs (i32, x32, u8,
#                                           x16, s, c, i64, fparg, f64,
#                                           e:color, retval formats)
#   lifecycle   lifecycle.c                 sleeps from 30 us to 12 ms,
#                                           2 threads, a fork: scheduler
#                                           events around every -t threshold
#   names       names.c                     main and a thread rename
#                                           themselves (linux:task-name)
#   cxx         cxx.cc                      C++ names for --demangle
#                                           (built with $CXX, default g++;
#                                           left out of the default list,
#                                           with a note, when there is none)
#
# Needs uftrace (0.13 was used for the fixtures; tests/live/uftrace019.sh
# runs this script in the sid root with uftrace 0.19 and CC=gcc-16) and
# gcc.  Records as any user; as root, or with a permissive
# kernel.perf_event_paranoid, uftrace also records scheduler events
# (perf-cpu*.dat).  Prints one summary line
# per scenario on stderr.  Exits 1 with a message if anything fails.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/uftrace/lib.sh
. "$here/lib.sh"

all_scenarios=(single nolibcall depth timefilter threads fork forkexec args argspec lifecycle names cxx)

die() {
	echo "record.sh: $*" >&2
	exit 1
}

[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [NAME...]   (NAME: ${all_scenarios[*]})" >&2; exit 2; }
outdir=$1
shift
scenarios=("$@")
cxx=${CXX:-g++}
if [ ${#scenarios[@]} -eq 0 ]; then
	for s in "${all_scenarios[@]}"; do
		if [ "$s" = cxx ] && ! command -v "$cxx" >/dev/null 2>&1; then
			echo "record.sh: note: no C++ compiler ($cxx): scenario cxx left out" >&2
			continue
		fi
		scenarios+=("$s")
	done
fi
for s in "${scenarios[@]}"; do
	case " ${all_scenarios[*]} " in
	*" $s "*) ;;
	*) die "unknown scenario '$s' (known: ${all_scenarios[*]})" ;;
	esac
done

command -v uftrace >/dev/null 2>&1 || die "uftrace is not installed (Debian: apt-get install uftrace)"
command -v "${CC:-gcc}" >/dev/null 2>&1 || die "${CC:-gcc} is not installed (Debian: apt-get install gcc)"
cc=${CC:-gcc}

mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
build=$(mktemp -d "${TMPDIR:-/tmp}/tc-uftrace-build.XXXXXX")
trap 'rm -rf "$build"' EXIT

# scenario NAME: sets prog, rec_opts (array) and prog_args (array).
scenario() {
	prog=single
	rec_opts=()
	prog_args=()
	case $1 in
	single) ;;
	nolibcall) rec_opts=(--no-libcall) ;;
	depth) rec_opts=(-D 3) ;;
	timefilter) rec_opts=(-t 1us) ;;
	threads) prog=threads ;;
	fork) prog=forks ;;
	forkexec) prog=forks prog_args=(exec) ;;
	args) prog=args rec_opts=(-a) ;;
	lifecycle) prog=lifecycle ;;
	names) prog=names ;;
	cxx) prog=cxx ;;
	argspec)
		prog=args
		rec_opts=(--no-libcall
			-A 'add@arg1/i32,arg2/x32' -A 'greet@arg1/s,arg2/c'
			-A 'scale@arg1/i64,fparg1/64' -A 'average@fparg1/32,fparg2/64'
			-A 'many@arg1/u8,arg7/i32,arg8/x16' -A 'big@arg1/u64'
			-A '^paint$@arg1/e:color'
			-R 'greet@retval/s' -R 'scale@retval/x64' -R 'average@retval/f64'
			-R 'neg@retval/i16' -R 'paint@retval/e:color' -R 'upper@retval/c')
		;;
	esac
}

# ---- build
declare -A built=()
for s in "${scenarios[@]}"; do
	scenario "$s"
	[ -n "${built[$prog]:-}" ] && continue
	flags=(-pg -O0 -Wall)
	case $prog in
	args) flags+=(-g) ;;
	threads | lifecycle | names) flags+=(-pthread) ;;
	esac
	if [ "$prog" = cxx ]; then
		"$cxx" "${flags[@]}" -o "$build/$prog" "$here/$prog.cc" || die "cannot build $prog.cc"
	else
		"$cc" "${flags[@]}" -o "$build/$prog" "$here/$prog.c" || die "cannot build $prog.c"
	fi
	built[$prog]=1
done

# ---- record
for s in "${scenarios[@]}"; do
	scenario "$s"
	rm -rf "${outdir:?}/$s" "$outdir/$s".*replay.txt
	# From OUTDIR, so that info's cmdline line reads "uftrace record -d NAME ...".
	if ! (cd "$outdir" && uftrace record -d "$s" "${rec_opts[@]}" "$build/$prog" "${prog_args[@]}") \
		>"$build/$s.log" 2>&1; then
		cat "$build/$s.log" >&2
		die "uftrace record failed for scenario $s"
	fi
	ls "$outdir/$s"/*.dat >/dev/null 2>&1 || die "scenario $s: no .dat file recorded"
done

# ---- replay, without the programs
rm -rf "$build"
for s in "${scenarios[@]}"; do
	dir=$outdir/$s
	uftrace replay -d "$dir" >"$outdir/$s.replay.txt" 2>"$outdir/$s.err" ||
		{ cat "$outdir/$s.err" >&2; rm -f "$outdir/$s.err"; die "uftrace replay failed on $dir"; }
	[ -s "$outdir/$s.replay.txt" ] || die "uftrace replay printed nothing for $dir"
	sets=0
	while IFS=$'\t' read -r _ name args; do
		out=$outdir/$s.$name.replay.txt
		# shellcheck disable=SC2086  # args is a blank-separated list
		uftrace replay $args -d "$dir" >"$out" 2>"$outdir/$s.err" ||
			{ cat "$outdir/$s.err" >&2; rm -f "$outdir/$s.err"; die "uftrace replay $args failed on $dir"; }
		mapfile -t long < <(uft_decode "$name")
		if ! uftrace replay "${long[@]}" -d "$dir" 2>/dev/null | cmp -s - "$out"; then
			rm -f "$outdir/$s.err"
			die "option set $name: 'uftrace replay ${long[*]}' differs from 'uftrace replay $args'"
		fi
		sets=$((sets + 1))
	done < <(uft_option_sets "$dir")
	rm -f "$outdir/$s.err"
	tids=$(tr -c '[:print:]\n' '\n' <"$dir/info" | sed -n 's/^taskinfo:tids=//p')
	echo "recorded $s: tids $tids, $(cat "$dir"/[0-9]*.dat | wc -c) bytes of task .dat," \
		"$(du -sk "$dir" | cut -f1) KB, $((sets + 1)) replay outputs" >&2
done
