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
	local dir=$1 tid args=0 sched=0 name scope rest
	tid=$(uft_main_tid "$dir")
	uft_has_args "$dir" && args=1
	uft_has_sched "$dir" && sched=1
	while read -r name scope rest; do
		case $name in '' | '#'*) continue ;; esac
		case $scope:$args:$sched in all:* | args:1:* | sched:*:1) ;; *) continue ;; esac
		# shellcheck disable=SC2086  # rest is a blank-separated list
		set -- $rest
		rest="$*"
		printf '%s\t%s\t%s\n' "$name" "${name//%TID%/$tid}" "${rest//%TID%/$tid}"
	done <"$uft_dir/option-sets.txt"
}

# uft_decode NAME: the long-form arguments NAME stands for, one per line
# ("depth=2+no-merge" -> "--depth=2" and "--no-merge").
uft_decode() {
	local IFS=+ part
	for part in $1; do
		printf -- '--%s\n' "$part"
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
