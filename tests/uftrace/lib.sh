# SPDX-License-Identifier: MIT
# tests/uftrace/lib.sh - helpers shared by tests/uftrace/record.sh and
# tests/live/uftrace-replay.sh (sourced, not run).  Option sets and the
# file naming: tests/uftrace/option-sets.txt.

# shellcheck shell=bash
uft_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# uft_main_tid DIR: the recording's main thread id (pid of the first SESS
# line of task.txt; the lowest tid of info's taskinfo:tids otherwise).
# (No pipeline here ends early: under pipefail a writer killed by SIGPIPE
# would make the whole pipeline fail at random.)
uft_main_tid() {
	local tid
	tid=$(sed -n '/^SESS .* pid=[0-9]/{s/^SESS .* pid=\([0-9][0-9]*\) .*/\1/p;q;}' "$1/task.txt" 2>/dev/null)
	if [ -z "$tid" ]; then
		tid=$(grep -a -o '^taskinfo:tids=[0-9]*' "$1/info" 2>/dev/null | sed -n '1s/.*=//p')
	fi
	echo "$tid"
}

# uft_time_after DIR NS: the timestamp (SEC.NSEC, as -f time shows it) NS
# nanoseconds after the first record of DIR's main thread (the first 8
# bytes of its .dat file: doc/formats/uftrace.md §5).
uft_time_after() {
	local t
	t=$(od -An -t u8 -N 8 "$1/$(uft_main_tid "$1").dat" 2>/dev/null | tr -d ' ')
	[ -n "$t" ] || t=0
	t=$((t + $2))
	printf '%d.%09d\n' $((t / 1000000000)) $((t % 1000000000))
}

# uft_has_args DIR: true when the recording was made with -a, -A or -R.
uft_has_args() {
	grep -a -q '^argspec:' "$1/info" 2>/dev/null
}

# uft_has_sched DIR: true when the recording has scheduler events.
uft_has_sched() {
	compgen -G "$1/perf-cpu*.dat" >/dev/null
}

# uft_option_sets DIR: the option sets that apply to the recording DIR, one
# per line, tab-separated: the set's NAME as written in option-sets.txt (a
# label that stays the same between recordings), NAME and the arguments
# (separated by single spaces) with %TID% replaced by DIR's main thread id.
uft_option_sets() {
	local dir=$1 tid args=0 sched=0 name scope rest from to file
	tid=$(uft_main_tid "$dir")
	from=$(uft_time_after "$dir" 30000)
	to=$(uft_time_after "$dir" 300000)
	uft_has_args "$dir" && args=1
	uft_has_sched "$dir" && sched=1
	while read -r name scope rest; do
		case $name in '' | '#'*) continue ;; esac
		case $scope:$args:$sched in all:* | args:1:* | sched:*:1) ;; *) continue ;; esac
		# shellcheck disable=SC2086  # rest is a blank-separated list
		set -- $rest
		rest="$*"
		rest=${rest//%FROM%/$from}
		rest=${rest//%TO%/$to}
		file=${name//%FROM%/$from}
		file=${file//%TO%/$to}
		printf '%s\t%s\t%s\n' "$name" "${file//%TID%/$tid}" "${rest//%TID%/$tid}"
	done <"$uft_dir/option-sets.txt"
}

# uft_decode NAME: the long-form arguments NAME stands for, one per line
# ("depth=2+no-merge" -> "--depth=2" and "--no-merge"; "T=f@depth=1" ->
# "-T" and "f@depth=1").
uft_decode() {
	local IFS=+ part
	for part in $1; do
		case $part in
		# a short option, for those uftrace 0.13 has no long form of
		?=*) printf -- '-%s\n%s\n' "${part%%=*}" "${part#*=}" ;;
		*) printf -- '--%s\n' "$part" ;;
		esac
	done
}

# uft_describe_diff EXPECTED ACTUAL: the first differing line, shortened.
uft_describe_diff() {
	local n exp act
	[ -f "$1" ] || { echo "no reference output $1"; return; }
	n=$(cmp "$1" "$2" 2>/dev/null | sed -n 's/.* line \([0-9][0-9]*\)$/\1/p')
	if [ -z "$n" ]; then
		# cmp said EOF: one output is a prefix of the other
		n=$(($(wc -l <"$1") < $(wc -l <"$2") ? $(wc -l <"$1") + 1 : $(wc -l <"$2") + 1))
	fi
	exp=$(sed -n "${n}{p;q}" "$1" | cut -c 1-90 | tr -d '\n' | tr -c '[:print:]' '?')
	act=$(sed -n "${n}{p;q}" "$2" | cut -c 1-90 | tr -d '\n' | tr -c '[:print:]' '?')
	[ "$n" -le "$(wc -l <"$1")" ] || exp="(end of output)"
	[ "$n" -le "$(wc -l <"$2")" ] || act="(end of output)"
	echo "line $n: expected '$exp', got '$act'"
}
