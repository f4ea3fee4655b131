#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# extract.sh - save ftrace instances into a trace.dat file with
# `trace-cmd extract`, without touching the top-level tracing buffer.
#
# usage: tests/tracefs/extract.sh OUT.dat TOP [NAME=INSTANCE]...
#
#   TOP            an existing instance (under /sys/kernel/tracing/instances)
#                  to store as the file's top buffer, or "-" for a file with
#                  no top buffer (only the named buffers, as
#                  `trace-cmd extract -B` writes them)
#   NAME=INSTANCE  store the existing instance INSTANCE as the extra buffer
#                  called NAME (trace-cmd report prefixes its lines "NAME:")
#
# Why: trace-cmd 3.1.6's extract, even with only -B INSTANCE, writes "0" to
# the top buffer's tracing_on and events/enable, resets every
# events/*/filter and truncates the top `trace` (it clears the whole
# machine's default tracing state), and it removes the instances it read.
# This script runs it in a private mount namespace (unshare -m) in which
# /sys/kernel/tracing is a tmpfs that only looks like tracefs: the files
# trace-cmd reads for the data (per_cpu/, trace, tracing_on, trace_options,
# trace_clock, ...) are bind mounts of the chosen instances' files, and the
# metadata (events/**/format, header_page, header_event, saved_cmdlines,
# printk_formats) are copies.  Everything trace-cmd writes outside the
# instances lands in that tmpfs and vanishes with the namespace; the
# instances stay (the caller removes them).
#
# Environment:
#   TC_METADATA  reduced (default): store only the formats of the ftrace
#                system and of TC_FORMATS, and a 20-line excerpt of
#                /proc/kallsyms (enough for the `print` events'
#                tracing_mark_write); keeps small files small.
#                full: every format of the machine (~2 MB) and the whole
#                /proc/kallsyms (~5 MB), as a plain `trace-cmd extract`.
#   TC_FORMATS   with reduced metadata: the event systems or SYSTEM/EVENT
#                names whose formats to store besides ftrace (default
#                "sched irq syscalls/sys_enter_openat syscalls/sys_exit_openat")
#   TC_EXTRACT_ARGS  extra trace-cmd extract options (e.g. "--compression none")
#
# Must run as root.  Prints trace-cmd's own messages on stderr.
set -euo pipefail

T=/sys/kernel/tracing

if [ "${1:-}" = --in-namespace ]; then
	shift
	work=$1 out=$2 top=$3
	shift 3
	real=$work/real
	mkdir -p "$real" "$work/facade"
	mount --bind "$T" "$real"
	mount -t tmpfs -o mode=0755 tc-tracefs-facade "$T"
	F=$T

	# --- metadata: copies (tracefs files report size 0: copy with cat)
	mkdir -p "$F/events"
	cat "$real/events/header_page" >"$F/events/header_page"
	cat "$real/events/header_event" >"$F/events/header_event"
	: >"$F/events/enable"
	copy_event() { # SYSTEM/EVENT
		[ -f "$real/events/$1/format" ] || return 0
		mkdir -p "$F/events/$1"
		cat "$real/events/$1/format" >"$F/events/$1/format"
		: >"$F/events/$1/enable"
		: >"$F/events/$1/filter"
		: >"$F/events/${1%%/*}/enable"
		: >"$F/events/${1%%/*}/filter"
	}
	copy_system() { # SYSTEM
		local d
		for d in "$real/events/$1"/*/; do
			[ -f "$d/format" ] && copy_event "$1/$(basename "$d")"
		done
		return 0
	}
	if [ "${TC_METADATA:-reduced}" = full ]; then
		for s in "$real/events"/*/; do copy_system "$(basename "$s")"; done
	else
		copy_system ftrace
		for f in ${TC_FORMATS:-sched irq syscalls/sys_enter_openat syscalls/sys_exit_openat}; do
			case $f in */*) copy_event "$f" ;; *) copy_system "$f" ;; esac
		done
		# The first lines of kallsyms, the symbols around the two
		# trace_marker write functions, and one module symbol.
		{
			head -n 5 /proc/kallsyms
			grep -B 3 -A 3 -E ' (tracing_mark_write|tracing_mark_raw_write)$' /proc/kallsyms || true
			grep -m 1 -F '[' /proc/kallsyms || true
		} | awk '!seen[$0]++' >"$work/kallsyms"
		mount --bind "$work/kallsyms" /proc/kallsyms
	fi
	cat "$real/saved_cmdlines" >"$F/saved_cmdlines"
	cat "$real/printk_formats" >"$F/printk_formats"
	if [ -e "$real/saved_tgids" ]; then cat "$real/saved_tgids" >"$F/saved_tgids"; fi

	# --- a buffer: bind mounts of an instance's files into DIR
	present() { # DIR INSTANCE
		local dir=$1 inst=$real/instances/$2 f
		[ -d "$inst" ] || { echo "extract.sh: no instance $2" >&2; exit 1; }
		mkdir -p "$dir/per_cpu"
		mount --bind "$inst/per_cpu" "$dir/per_cpu"
		for f in trace tracing_on trace_options trace_clock buffer_size_kb \
			buffer_subbuf_size_kb buffer_percent timestamp_mode tracing_cpumask; do
			[ -e "$inst/$f" ] || continue
			: >"$dir/$f"
			mount --bind "$inst/$f" "$dir/$f"
		done
		: >"$dir/set_ftrace_pid"
		mkdir -p "$dir/events"
		: >"$dir/events/enable"
	}
	args=()
	if [ "$top" = - ]; then
		# A top buffer with no data: trace-cmd still writes its
		# control files, which are plain tmpfs files here.
		# trace-cmd opens the top's per-CPU files even with only -B:
		# empty files read as empty buffers.
		for c in "$real/per_cpu"/cpu*; do
			mkdir -p "$F/per_cpu/${c##*/}"
			: >"$F/per_cpu/${c##*/}/trace_pipe_raw"
			: >"$F/per_cpu/${c##*/}/trace"
			printf '%s\n' "entries: 0" "overrun: 0" "commit overrun: 0" "bytes: 0" \
				"oldest event ts:     0.000000" "now ts:     0.000000" \
				"dropped events: 0" "read events: 0" >"$F/per_cpu/${c##*/}/stats"
		done
		for f in trace tracing_on trace_options; do : >"$F/$f"; done
		echo 0 >"$F/tracing_on"
		cat "$real/trace_clock" >"$F/trace_clock"
		: >"$F/set_ftrace_pid"
	else
		present "$F" "$top"
		if [ $# -gt 0 ]; then args+=(-t); fi
	fi
	for spec in "$@"; do
		present "$F/instances/${spec%%=*}" "${spec#*=}"
		args+=(-B "${spec%%=*}")
	done
	# shellcheck disable=SC2086  # TC_EXTRACT_ARGS is a list of options
	exec trace-cmd extract ${TC_EXTRACT_ARGS:-} "${args[@]}" -o "$out"
fi

[ $# -ge 2 ] || { echo "usage: $0 OUT.dat TOP|- [NAME=INSTANCE]..." >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "extract.sh: must run as root" >&2; exit 1; }
[ -d "$T/instances" ] || { echo "extract.sh: tracefs is not mounted at $T" >&2; exit 1; }
out=$1
case $out in /*) ;; *) out=$PWD/$out ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/tc-extract.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The namespace's mounts (all under $T, /proc/kallsyms and $work/real)
# disappear when its last process exits; --propagation private keeps them
# from ever reaching the rest of the machine.
unshare --mount --propagation private -- bash "${BASH_SOURCE[0]}" --in-namespace "$work" "$out" "${@:2}"
