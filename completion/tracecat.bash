# SPDX-License-Identifier: MIT
# bash completion for tracecat(1)                          -*- shell-script -*-
#
# Installed as $(PREFIX)/share/bash-completion/completions/tracecat; it may
# also be sourced directly.  It needs nothing from the bash-completion
# package (it uses _filedir for paths when that is loaded).  The options
# are those of `tracecat help CMD` (src/cli/help.c); tests/live/docs.sh
# checks that every one of them is offered here.

# Options of each command: flags, then options that take a value.  Long
# options with a value are offered as "--name=".
_tracecat_flags_print='--clock-gmt --clock-seconds --clock-date --clock-cycles --no-delta --lttng-names --stream-intersection -v --verbose -h --help'
_tracecat_values_print='-n --names -f --fields -c --color --clock-offset --clock-offset-ns -i --input-format -b --begin -e --end --timerange --events --cpu -j --jobs --compat'
_tracecat_flags_info='-h --help'
_tracecat_values_info='-j --jobs'
_tracecat_flags_report='-R -t -l --ts-diff -v -I -S -N -L -q -w --profile -f -P -E --first-event --stat -h --help'
_tracecat_values_report='-i -F --cpu --ts-offset -j --jobs --compat'
_tracecat_flags_replay='--no-args --no-merge --flat --column-view --task-newline --no-pager --no-event --no-sched --no-sched-preempt --event-full -a --auto-args -l --nest-libcall -h --help'
_tracecat_values_replay='-d --data -f --output-fields --tid -D --depth -F --filter -N --notrace -H --hide -C --caller-filter -T --trigger --match --demangle -t --time-filter -Z --size-filter -r --time-range --column-offset --color -E --Event --compat'
_tracecat_flags_convert='--force --ftrace-names --clock-gmt -h --help'
_tracecat_values_convert='-o --output --format --ctf-version --packet-size -j --jobs -b --begin -e --end --timerange --events --cpu'
_tracecat_flags_script='--ns --show-task-events --show-mmap-events -h --help'
_tracecat_values_script='-i --input -C --cpu'
_tracecat_commands=(print info report script replay convert help)

# The words of the line up to the cursor, with the words bash split at
# COMP_WORDBREAKS characters ("--names=a,b", "trace:vpid") joined again:
# sets _tracecat_words and _tracecat_cword.
_tracecat_reassemble()
{
	local line=${COMP_LINE:0:COMP_POINT} i w j=-1 blank
	_tracecat_words=()
	_tracecat_cword=0
	for ((i = 0; i <= COMP_CWORD && i < ${#COMP_WORDS[@]}; i++)); do
		w=${COMP_WORDS[i]}
		blank=${line%%[![:space:]]*}
		line=${line#"$blank"}
		if ((i == COMP_CWORD)); then
			# only what lies before the cursor
			w=$line
		else
			line=${line#"$w"}
		fi
		if ((j >= 1)) && [[ -z $blank ]] &&
			[[ $w =~ ^[=:]+$ || ${_tracecat_words[j]} =~ [=:]$ ]]; then
			_tracecat_words[j]+=$w
		else
			_tracecat_words[++j]=$w
		fi
		((i == COMP_CWORD)) && _tracecat_cword=$j
	done
	((j < 0)) && _tracecat_words=('')
	return 0
}

# Completes the comma-separated list VALUE from the items after it:
# "payload,c" gives "payload,context".  Items already listed are left out.
_tracecat_list()
{
	local value=$1 head='' last item
	shift
	if [[ $value == *,* ]]; then
		head=${value%,*},
		last=${value##*,}
	else
		last=$value
	fi
	for item; do
		[[ $item == "$last"* ]] || continue
		[[ ,$head == *,"$item",* ]] && continue
		_tracecat_reply+=("$head$item")
	done
}

# Completes one item of WORDS.
_tracecat_choice()
{
	local value=$1 item
	shift
	for item; do
		[[ $item == "$value"* ]] && _tracecat_reply+=("$item")
	done
}

# The value of option OPT (of command CMD) begun as VALUE; nothing for
# free-form values.  Paths are completed at once into COMPREPLY.
_tracecat_value()
{
	local cmd=$1 opt=$2 value=$3
	case $cmd:$opt in
	print:-n | print:--names)
		_tracecat_list "$value" payload context scope header all none ;;
	print:-f | print:--fields)
		_tracecat_list "$value" trace trace:hostname trace:domain trace:procname \
			trace:vpid loglevel emf callsite all ;;
	print:-c | print:--color)
		_tracecat_choice "$value" never auto always ;;
	print:-i | print:--input-format)
		_tracecat_choice "$value" ctf trace.dat uftrace lttng-legacy perf.data ;;
	*:--compat)
		# every peer's known releases (src/core/compat.c)
		_tracecat_list "$value" babeltrace2=2.0 babeltrace2=2.1 trace-cmd=3.1 trace-cmd=3.3 trace-cmd=3.4 uftrace=0.13 uftrace=0.17 uftrace=0.19 ;;
	convert:--ctf-version)
		_tracecat_choice "$value" 1.8 2 ;;
	convert:--format)
		_tracecat_choice "$value" ctf perfetto json ;;
	replay:--match)
		_tracecat_choice "$value" regex glob ;;
	replay:--demangle)
		_tracecat_choice "$value" simple full no ;;
	replay:--color)
		_tracecat_choice "$value" auto yes no ;;
	replay:-f | replay:--output-fields)
		_tracecat_list "$value" duration tid addr time delta elapsed task module all none ;;
	report:-i | script:-i | script:--input | convert:-o | convert:--output)
		_tracecat_paths -f "$value"; return 1 ;;
	replay:-d | replay:--data)
		_tracecat_paths -d "$value"; return 1 ;;
	esac
	return 0
}

# Files and directories (-f) or directories only (-d) beginning with CUR.
_tracecat_paths()
{
	local kind=$1 cur=$2
	if declare -F _filedir >/dev/null 2>&1; then
		local IFS=$' \t\n'
		COMPREPLY=()
		if [[ $kind == -d ]]; then
			_filedir -d
		else
			_filedir
		fi
		return
	fi
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen "$kind" -- "$cur")
}

_tracecat()
{
	local _tracecat_words _tracecat_cword _tracecat_reply=()
	_tracecat_reassemble
	local words=("${_tracecat_words[@]}") cword=$_tracecat_cword
	local cur=${words[cword]} prev='' cmd opt i first=2
	((cword > 0)) && prev=${words[cword - 1]}
	COMPREPLY=()

	# the command, or print's shorthand (tracecat [OPTIONS] PATH...)
	if ((cword == 1)); then
		if [[ $cur != -* ]]; then
			_tracecat_paths -f "$cur"
			_tracecat_choice "$cur" "${_tracecat_commands[@]}"
			COMPREPLY+=("${_tracecat_reply[@]}")
			return 0
		fi
		[[ $cur == *=* ]] || _tracecat_choice "$cur" -h --help -V --version
		cmd=print
	else
		cmd=${words[1]}
	fi
	case " ${_tracecat_commands[*]} " in
	*" $cmd "*) ;;
	*)
		case $cmd in
		-h | --help | -V | --version) return 0 ;;
		esac
		cmd=print first=1
		;;
	esac
	if [[ $cmd == help ]]; then
		((cword == 2)) && _tracecat_choice "$cur" "${_tracecat_commands[@]}"
		COMPREPLY=("${_tracecat_reply[@]}")
		return 0
	fi

	# after "--", only paths (print and info read it so)
	for ((i = first; i < cword; i++)); do
		if [[ ${words[i]} == -- && ($cmd == print || $cmd == info) ]]; then
			_tracecat_paths -f "$cur"
			return 0
		fi
	done

	local flags values
	eval "flags=\$_tracecat_flags_$cmd values=\$_tracecat_values_$cmd"
	if [[ $cur == --*=* ]]; then
		# --name=VALUE
		opt=${cur%%=*}
		[[ " $values " == *" $opt "* ]] || return 0
		local value=${cur#*=}
		if ! _tracecat_value "$cmd" "$opt" "$value"; then
			# paths: bash replaces the text after the "="
			return 0
		fi
		# candidates as the whole word, then cut to what bash replaces
		_tracecat_reply=("${_tracecat_reply[@]/#/$opt=}")
	elif [[ $prev == -* && $prev != *=* && " $values " == *" $prev "* ]] &&
		((cword > 1)); then
		# -n VALUE, --names VALUE
		_tracecat_value "$cmd" "$prev" "$cur" || return 0
	elif [[ $cur == -* ]]; then
		local o
		for o in $flags; do
			[[ $o == "$cur"* ]] && _tracecat_reply+=("$o")
		done
		for o in $values; do
			[[ $o == --* ]] && o+='='
			[[ $o == "$cur"* ]] && _tracecat_reply+=("$o")
		done
		COMPREPLY=("${_tracecat_reply[@]}")
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	else
		case $cmd in
		replay) _tracecat_paths -d "$cur" ;;
		*) _tracecat_paths -f "$cur" ;;
		esac
		return 0
	fi

	# bash replaces only the text after the last COMP_WORDBREAKS character
	# of the word ("=" or ":"), so that much is cut from every candidate.
	local cut='' k
	for ((k = ${#cur} - 1; k >= 0; k--)); do
		if [[ ${cur:k:1} == [=:] && $COMP_WORDBREAKS == *"${cur:k:1}"* ]]; then
			cut=${cur:0:k+1}
			break
		fi
	done
	[[ -n $cut ]] && _tracecat_reply=("${_tracecat_reply[@]#"$cut"}")
	COMPREPLY=("${_tracecat_reply[@]}")
	return 0
}

complete -F _tracecat tracecat
