#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uftrace019.sh - `tracecat replay`'s default text against Debian sid's
# uftrace 0.19 (doc/reading.md, "Peer releases"; doc/formats/uftrace.md
# §9.1), byte for byte.
#
# usage (from anywhere): bash tests/live/uftrace019.sh BIN [SUITE]
#
# With SUITE trixie (tests/live/trixie-peers.sh), the same against Debian
# 13's uftrace 0.17 from the trixie root (scripts/debian-root.sh trixie),
# its gcc as CC, and `--compat uftrace=0.17`'s text (TRACECAT_COMPAT names
# it), the test names starting uftrace017: what is said of sid and 0.19
# below is then said of trixie and 0.17.
#
# In the Debian sid root of the newer peers (scripts/sid-root.sh), in a
# mount namespace of this test's own (unshare -m) so that the shared root
# never sees the scratch folder bound on its /mnt:
#   - tests/uftrace/record.sh, run with gcc-16 and uftrace 0.19, builds
#     the programs of tests/uftrace (threads, sleeps, a fork, an exec, -a
#     and -A/-R arguments, ...), records every scenario and stores `uftrace
#     replay`'s output for the option sets of tests/uftrace/option-sets.txt;
#   - uftrace 0.19 also replays every scenario, and every recording of
#     tests/fixtures/uftrace and tests/corpus/uftrace (made with 0.13), with
#     no option, -f all, --no-merge, -t 10us, --demangle=full and =no and
#     --color=yes (the C++ scenario, when the root has no C++ compiler, is
#     recorded by the host's uftrace and g++ and replayed so);
#   - and copies of the scenario single with a time that goes back and
#     with LOST records (tests/uftrace/damage.py, when python3 is
#     installed), with -f tid, -f tid,addr,task,module, --no-merge -f tid.
# Then   BIN replay ARGS DIR   must print exactly what uftrace 0.19
# printed, TRACECAT_COMPAT unset; one default output once more with
# TRACECAT_COMPAT=uftrace=0.19 and with --compat uftrace=0.19 overriding
# TRACECAT_COMPAT=uftrace=0.13, which alone must print something else.
# Every check also runs build/sanitize/tracecat (beside BIN) when it is
# built.
#
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.  SKIP only when
# not root (chroot, mounts) or when there is no sid root with uftrace 0.19
# and gcc-16.  Takes about 15 s, 30 s with the sanitizer build.
set -uo pipefail

bin=${1:-}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
case ${2:-sid} in
sid) ver=0.19 peer=${TRACECAT_SID_ROOT:-/var/cache/tracecat/sid-root} cc=gcc-16 cxx=g++-16 make_root=scripts/sid-root.sh ;;
trixie) ver=0.17 peer=${TRACECAT_TRIXIE_ROOT:-/var/cache/tracecat/trixie-root} cc=gcc cxx=g++ make_root="scripts/debian-root.sh trixie" ;;
*) echo "FAIL uftrace019: usage: $0 BIN [sid|trixie]"; exit 0 ;;
esac
prefix=uftrace${ver/./}
[ -n "$bin" ] || { echo "FAIL $prefix: usage: $0 BIN"; exit 0; }
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
[ -x "$bin" ] || { echo "FAIL $prefix: $bin is not an executable"; exit 0; }

if [ "$(id -u)" != 0 ]; then
	echo "SKIP $prefix: needs root (chroot and bind mounts)"
	exit 0
fi
# The root is used as it is, never built here (scripts/debian-root.sh
# does, as .ci/run before the tests).
if [ ! -x "$peer/usr/bin/uftrace" ] || [ ! -x "$peer/usr/bin/$cc" ]; then
	echo "SKIP $prefix: no ${2:-sid} root with uftrace $ver and $cc ($peer; $make_root builds it)"
	exit 0
fi
# shellcheck source=tests/uftrace/lib.sh
. "$root/tests/uftrace/lib.sh"
# The release's text: the default for 0.19.
if [ "$ver" = 0.19 ]; then
	unset TRACECAT_COMPAT
else
	export TRACECAT_COMPAT=uftrace=$ver
fi
export TZ=UTC ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-uftrace019.XXXXXX")
# shellcheck disable=SC2317  # only ever called from the EXIT trap
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 0' INT TERM HUP PIPE

# The scratch folder is what the root sees on /mnt: the scripts and
# programs of tests/uftrace, the 0.13 recordings, and what is made there.
mkdir -p "$work/tmp" "$work/old"
cp -r "$root/tests/uftrace" "$work/uftrace"
for d in "$root"/tests/fixtures/uftrace/*/ "$root"/tests/corpus/uftrace/*/; do
	d=${d%/}
	[ -f "$d.replay.txt" ] || continue
	case $d in */fixtures/*) kind=fixture ;; *) kind=corpus ;; esac
	cp -r "$d" "$work/old/$kind-${d##*/}"
done

# The extra option sets, as LABEL:ARGS: every recording gets them; the
# damaged copies get theirs (their durations are left out: around a time
# that goes back or lost records, uftrace's differ from tracecat's, in
# 0.13 as in 0.19).
extra=("default:" "all:-f all" "no-merge:--no-merge" "t10us:-t 10us" "demangle-full:--demangle=full"
	"demangle-no:--demangle=no" "color:--color=yes")
damaged=("tid:-f tid" "fields:-f tid,addr,task,module" "no-merge:--no-merge -f tid")

# in_root COMMAND...: COMMAND in the root, from /mnt, $cc as CC and $cxx
# as CXX, in a mount namespace of its own; its output goes to the log.
in_root() {
	# shellcheck disable=SC2016  # expanded by the inner shell
	timeout 600 unshare -m bash -c '
		set -e
		mount --make-rprivate /
		mount --bind "$1" "$2/mnt"
		mount --rbind /dev "$2/dev"
		mount --bind /proc "$2/proc"
		mount --bind /sys "$2/sys"
		cc=$3 cxx=$4
		shift 4
		chroot "$0" env -i PATH=/usr/bin:/bin LC_ALL=C.UTF-8 TMPDIR=/mnt/tmp CC="$cc" CXX="$cxx" \
			sh -c "cd /mnt && \"\$@\"" sh "$@"
	' "$peer" "$work" "$peer" "$cc" "$cxx" "$@" >>"$work/log" 2>&1
}
# replay.sh DIRS SET...: uftrace replay with every SET (LABEL:ARGS) on each
# of the blank-separated DIRS (patterns), into DIR.peer-LABEL.txt.
cat >"$work/replay.sh" <<'EOF'
set -e
dirs=$1
shift
for dir in $dirs; do
	[ -d "$dir" ] || continue
	for set in "$@"; do
		# shellcheck disable=SC2086  # the arguments are blank-separated
		uftrace replay ${set#*:} -d "$dir" >"$dir.peer-${set%%:*}.txt"
	done
done
EOF

fail_root() {
	echo "FAIL $prefix/$1: $version: $(grep -v '^recorded ' "$work/log" | tail -n 3 | tr '\n' ' ' | head -c 300)"
	exit 0
}
version=$(chroot "$peer" uftrace --version 2>/dev/null | head -n 1)
case $version in
*"v$ver"*) ;;
*) echo "FAIL $prefix/record: the ${2:-sid} root's uftrace is not $ver: $version"; exit 0 ;;
esac
in_root bash uftrace/record.sh /mnt/rec </dev/null || fail_root record
# Without a C++ compiler in the root, the C++ scenario is recorded here
# by the host's uftrace (0.13, as the fixtures are), when it has both.
if [ ! -d "$work/rec/cxx" ] && command -v uftrace >/dev/null && command -v "${CXX:-g++}" >/dev/null; then
	bash "$root/tests/uftrace/record.sh" "$work/old" cxx >>"$work/log" 2>&1 </dev/null || fail_root record-cxx
	mv "$work/old/cxx" "$work/old/host-cxx"
	rm -f "$work/old/cxx".*
fi
in_root sh replay.sh "/mnt/rec/* /mnt/old/*" "${extra[@]}" </dev/null || fail_root replay
# The damaged copies are made here (python3), then replayed there.
damage_kinds=()
if command -v python3 >/dev/null 2>&1; then
	mkdir -p "$work/dmg"
	for kind in inverted lost0 lost3; do
		python3 "$root/tests/uftrace/damage.py" "$work/rec/single" "$work/dmg/$kind" $kind >>"$work/log" 2>&1 ||
			fail_root "damage/$kind"
		damage_kinds+=("$kind")
	done
	in_root sh replay.sh "/mnt/dmg/*" "${damaged[@]}" </dev/null || fail_root replay-damaged
else
	echo "SKIP $prefix/damaged: python3 is not installed"
fi

# check NAME EXPECTED ARGS...: BIN replay ARGS must print EXPECTED; so
# must the sanitizer build beside BIN when it is built, without a report.
bins=("$bin")
[ -x "$(dirname "$bin")/sanitize/tracecat" ] && bins+=("$(dirname "$bin")/sanitize/tracecat")
check() {
	local name=$1 exp=$2 b rc tag
	shift 2
	for b in "${bins[@]}"; do
		rc=0
		tag=
		case $b in */sanitize/*) tag=" [asan]" ;; esac
		timeout 60 "$b" replay "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			echo "FAIL $name$tag: tracecat replay did not finish within 60 s"
		elif [ "$rc" != 0 ]; then
			echo "FAIL $name$tag: exit status $rc: $(head -n 1 "$work/err" | cut -c 1-120)"
		elif ! cmp -s "$exp" "$work/out"; then
			echo "FAIL $name$tag: $(uft_describe_diff "$exp" "$work/out")"
		elif grep -q -e 'runtime error' -e 'AddressSanitizer' -e 'LeakSanitizer' "$work/err"; then
			echo "FAIL $name$tag: sanitizer report: $(grep -m 1 -e 'runtime error' -e Sanitizer "$work/err" | cut -c 1-120)"
		else
			echo "PASS $name$tag"
		fi
	done
}

for dir in "$work"/rec/*/; do
	dir=${dir%/}
	s=${dir##*/}
	check "$prefix/rec/$s" "$dir.replay.txt" "$dir"
	while IFS=$'\t' read -r label name args; do
		# shellcheck disable=SC2086  # args is a blank-separated list
		check "$prefix/rec/$s.$label" "$dir.$name.replay.txt" $args "$dir"
	done < <(uft_option_sets "$dir")
done
while IFS= read -r dir; do
	label=${dir#"$work"/}
	for set in "${extra[@]}"; do
		# shellcheck disable=SC2086  # the arguments are blank-separated
		check "$prefix/$label.${set%%:*}" "$dir.peer-${set%%:*}.txt" ${set#*:} "$dir"
	done
done < <(find "$work/rec" "$work/old" -mindepth 1 -maxdepth 1 -type d | sort)

for kind in "${damage_kinds[@]}"; do
	for set in "${damaged[@]}"; do
		# shellcheck disable=SC2086  # the arguments are blank-separated
		check "$prefix/damaged/$kind.${set%%:*}" "$work/dmg/$kind.peer-${set%%:*}.txt" ${set#*:} "$work/dmg/$kind"
	done
done

# The request: the environment naming the release, the option overriding
# an environment naming 0.13; and 0.13's text is another one.
first=$work/rec/single
TRACECAT_COMPAT=uftrace=$ver check "$prefix/compat/env-$ver" "$first.replay.txt" "$first"
TRACECAT_COMPAT=babeltrace2=2.0,uftrace=0.13 check "$prefix/compat/option-overrides-env" "$first.replay.txt" \
	--compat "uftrace=$ver.0" "$first"
if TRACECAT_COMPAT=uftrace=0.13 "$bin" replay "$first" 2>/dev/null | cmp -s - "$first.replay.txt"; then
	echo "FAIL $prefix/compat/0.13-differs: TRACECAT_COMPAT=uftrace=0.13 prints $ver's text"
else
	echo "PASS $prefix/compat/0.13-differs"
fi
exit 0
