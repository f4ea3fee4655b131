#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs.sh - the man page (doc/tracecat.1) and the bash completion
# (completion/tracecat.bash) against the help the binary prints:
#   - groff -ww and mandoc -T lint find nothing to say about the man page,
#     its .TH version is TRACECAT_VERSION, and option hyphens are escaped;
#   - every option `BIN help CMD` shows (and the global ones of `BIN help`)
#     appears in the man page's subsection of that command, as rendered;
#   - the completion, run as bash runs it (COMP_WORDS split at "=" and ":"),
#     offers every one of those options after `tracecat CMD -`, and no
#     other, and completes option values, commands and paths.
#
# usage (from the repository root): bash tests/live/docs.sh BIN
#
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.  SKIP only when
# groff or mandoc is missing.
set -uo pipefail

bin=${1:?usage: $0 BIN}
root=$(pwd)
case $bin in /*) ;; *) bin=$root/$bin ;; esac
man=$root/doc/tracecat.1
comp=$root/completion/tracecat.bash
commands="print info report script replay convert help"

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-docs.XXXXXX")
trap 'rm -rf "$work"' EXIT

pass() { echo "PASS docs/$1"; }
fail() { echo "FAIL docs/$1: $2"; }
# one line of at most 300 characters, for a FAIL line
oneline() { tr '\n' ' ' | head -c 300; }

for f in "$man" "$comp"; do
	if [ ! -f "$f" ]; then
		fail files "${f#"$root"/} is missing"
		exit 0
	fi
done
if [ ! -x "$bin" ]; then
	fail files "$bin is not an executable"
	exit 0
fi

# ---- the man page as groff and mandoc see it ----
if command -v groff >/dev/null; then
	out=$(groff -ww -z -man "$man" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || [ -n "$out" ]; then
		fail man-groff "groff -ww -z -man (exit $rc): $(echo "$out" | oneline)"
	else
		pass man-groff
	fi
else
	echo "SKIP docs/man-groff: groff is not installed"
fi
if command -v mandoc >/dev/null; then
	out=$(mandoc -T lint "$man" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || [ -n "$out" ]; then
		fail man-mandoc "mandoc -T lint (exit $rc): $(echo "$out" | oneline)"
	else
		pass man-mandoc
	fi
else
	echo "SKIP docs/man-mandoc: mandoc is not installed"
fi

want=$(sed -n 's/^#define TRACECAT_VERSION "\(.*\)"$/\1/p' "$root/include/tracecat.h")
have=$(sed -n 's/^\.TH .*"tracecat \([^"]*\)".*/\1/p' "$man")
if [ -n "$want" ] && [ "$want" = "$have" ]; then
	pass man-version
else
	fail man-version ".TH says \"$have\", include/tracecat.h \"$want\""
fi

# Option-like words must use \- (a plain "-" may print as a hyphen, which
# cannot be copied into a shell): no "-x" or "--x" after a blank, bracket,
# comma or "=", and no plain "-" inside an escaped option.
bad=$(grep -v '^\.\\"' "$man" | grep -nE '(^|[][[:space:](|,=])-[-A-Za-z]|\\-[A-Za-z0-9]+-' | head -3)
if [ -n "$bad" ]; then
	fail man-escapes "unescaped hyphens: $(echo "$bad" | oneline)"
else
	pass man-escapes
fi

# The rendered text, one long line per paragraph (no line breaks inside an
# option), the minus sign of \- as "-"; an unescaped "-" stays a hyphen
# where groff renders it so.
rendered=$work/tracecat.txt
if command -v groff >/dev/null; then
	groff -man -Tutf8 -P-cbou -rLL=1000n "$man" 2>/dev/null
elif command -v mandoc >/dev/null; then
	mandoc -T utf8 -O width=1000 "$man" 2>/dev/null
fi | sed 's/.\x08//g; s/\xe2\x88\x92/-/g' >"$rendered"

# The options of a help text: the first column of its "  -x, --long=ARG"
# lines.
help_options() {
	sed -nE 's/^  (-[A-Za-z0-9]|--[a-zA-Z][-a-zA-Z]*)(, (--[a-zA-Z][-a-zA-Z]*))?.*/\1 \3/p' | tr ' ' '\n' | sed '/^$/d'
}

# The rendered text of the man page's subsection TITLE.
man_section() {
	awk -v t="$1" '
		$0 == "   " t { on = 1; next }
		on && /^ ? ?[^ ]/ { exit }
		on { print }' "$rendered"
}

# What the completion offers for the command line LINE (the cursor at its
# end), one candidate a line, run in the work folder as bash would run it.
complete_line() {
	(cd "$work/cwd" && bash --norc --noprofile -c '
		source "$1" || exit 1
		line=$2
		# bash splits words at blanks and apart from runs of "=" and ":"
		COMP_WORDS=()
		read -ra ws <<<"$line"
		for w in "${ws[@]}"; do
			while [[ $w =~ ^([^=:]*)([=:]+)(.*)$ ]]; do
				[[ -n ${BASH_REMATCH[1]} ]] && COMP_WORDS+=("${BASH_REMATCH[1]}")
				COMP_WORDS+=("${BASH_REMATCH[2]}")
				w=${BASH_REMATCH[3]}
			done
			[[ -n $w ]] && COMP_WORDS+=("$w")
		done
		[[ $line == *[[:space:]] ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE=$line
		COMP_POINT=${#line}
		COMPREPLY=()
		_tracecat || exit 1
		[ ${#COMPREPLY[@]} -gt 0 ] && printf "%s\n" "${COMPREPLY[@]}"
		exit 0
	' docs "$comp" "$1") 2>"$work/comp.err"
}

mkdir -p "$work/cwd/adir" "$work/cwd/bdir"
: >"$work/cwd/afile"

if ! command -v bash >/dev/null; then
	echo "SKIP docs/completion: bash is not installed"
fi

# ---- every option of every command, in the man page and the completion ----
check_options() {
	local name=$1 section=$2 line=$3 opts=$4 missing o text got
	if [ -s "$rendered" ]; then
		text=$(man_section "$section")
		missing=
		for o in $opts; do
			grep -qE -- "(^|[^-A-Za-z0-9])$o([^-A-Za-z0-9]|\$)" <<<"$text" || missing+=" $o"
		done
		if [ -z "$text" ]; then
			fail "man-options-$name" "no subsection \"$section\" in the rendered man page"
		elif [ -n "$missing" ]; then
			fail "man-options-$name" "not in the man page's \"$section\":$missing"
		else
			pass "man-options-$name"
		fi
	else
		echo "SKIP docs/man-options-$name: neither groff nor mandoc is installed"
	fi
	[ -n "$line" ] || return 0
	if ! got=$(complete_line "$line") || [ -s "$work/comp.err" ]; then
		fail "completion-options-$name" "\"$line\": $(oneline <"$work/comp.err")"
		return 0
	fi
	# "--names=" is --names
	# shellcheck disable=SC2001
	got=$(sed 's/=$//' <<<"$got" | sort -u)
	missing=
	for o in $opts; do
		grep -qxF -- "$o" <<<"$got" || missing+=" $o"
	done
	local extra
	extra=$(comm -13 <(tr ' ' '\n' <<<"$opts" | sed '/^$/d' | sort -u) <(echo "$got") | tr '\n' ' ')
	if [ -n "$missing" ]; then
		fail "completion-options-$name" "\"$line\" does not offer:$missing"
	elif [ -n "${extra// /}" ]; then
		fail "completion-options-$name" "\"$line\" offers options the help does not show: $extra"
	else
		pass "completion-options-$name"
	fi
}

for cmd in $commands; do
	if ! helptext=$("$bin" help "$cmd" 2>&1); then
		fail "help-$cmd" "$bin help $cmd failed: $(echo "$helptext" | oneline)"
		continue
	fi
	opts=$(help_options <<<"$helptext" | tr '\n' ' ')
	if [ -z "$opts" ] && [ "$cmd" != help ]; then
		fail "help-$cmd" "no options found in \`tracecat help $cmd\`"
		continue
	fi
	line="tracecat $cmd -"
	[ "$cmd" = help ] && line=   # help takes a command, not options
	check_options "$cmd" "$cmd" "$line" "$opts"
done

# The global options: in the man page, and offered as the first word.
# Options there may also be print's (tracecat [OPTIONS] PATH...).
if helptext=$("$bin" help 2>&1); then
	opts=$(help_options <<<"$helptext" | tr '\n' ' ')
	popts=$("$bin" help print | help_options | tr '\n' ' ')
	check_options global "Global options" "" "$opts"
	got=$(complete_line "tracecat -" | sed 's/=$//' | sort -u)
	missing=
	for o in $opts $popts; do
		grep -qxF -- "$o" <<<"$got" || missing+=" $o"
	done
	if [ -s "$work/comp.err" ]; then
		fail completion-options-global "$(oneline <"$work/comp.err")"
	elif [ -n "$missing" ]; then
		fail completion-options-global "\"tracecat -\" does not offer:$missing"
	else
		pass completion-options-global
	fi
else
	fail help "$bin help failed"
fi

# ---- values, commands and paths ----
# check NAME LINE EXPECTED... : the candidates are exactly EXPECTED.
check_exact() {
	local name=$1 line=$2 got want
	shift 2
	got=$(complete_line "$line" | sort)
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	if [ -s "$work/comp.err" ]; then
		fail "completion-$name" "\"$line\": $(oneline <"$work/comp.err")"
	elif [ "$got" != "$want" ]; then
		fail "completion-$name" "\"$line\" offers [$(echo "$got" | oneline)], expected [$(echo "$want" | oneline)]"
	else
		pass "completion-$name"
	fi
}

# shellcheck disable=SC2086  # the command list is words
check_exact commands-first "tracecat " $commands adir afile bdir
# shellcheck disable=SC2086
check_exact help-commands "tracecat help " $commands
check_exact help-prefix "tracecat help re" report replay
check_exact color "tracecat print --color=" never auto always
check_exact color-prefix "tracecat print --color=al" always
check_exact color-short "tracecat print -c " never auto always
check_exact names-list "tracecat print --names=payload,c" payload,context
check_exact names-short "tracecat print -n payload,h" payload,header
check_exact names-shorthand "tracecat --names=sc" scope
check_exact fields-colon "tracecat print --fields=trace:ho" hostname
check_exact fields-list "tracecat print -f loglevel,e" loglevel,emf
check_exact output-fields "tracecat replay --output-fields=tid,el" tid,elapsed
check_exact output-fields-short "tracecat replay -f d" duration delta
check_exact report-input "tracecat report -i a" adir afile
check_exact replay-data "tracecat replay --data=" adir bdir
check_exact convert-output "tracecat convert -o " adir afile bdir
check_exact convert-output-long "tracecat convert --output=a" adir afile
check_exact convert-format "tracecat convert --format=" ctf perfetto json
check_exact print-paths "tracecat print --clock-gmt a" adir afile
check_exact after-dashdash "tracecat print -- -" 
check_exact free-value "tracecat print --begin " 

exit 0
