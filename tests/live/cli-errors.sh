#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli-errors.sh - what every command says when it cannot read a path or
# write its output, or is interrupted, and its help: the table
# tests/cli/errors.txt (how it runs, arguments, exit status, the one stderr
# line) run in a work folder laid out as that file describes; the lines
# tests/cli/info.txt says `tracecat info` prints; and `tracecat help CMD`,
# `tracecat CMD --help` and `-h`, which must print the same text on stdout
# and exit 0.
#
# usage (from the repository root): bash tests/live/cli-errors.sh BIN
#
# The permission cells need a user the files are closed to: run as root,
# they run as user 65534 through setpriv (util-linux); run as anyone else,
# as that user.  The full file system is a 16 KiB tmpfs mounted in a mount
# namespace of its own (unshare, util-linux; a user namespace too when not
# root).  The pipe cells run through tests/cli/run_with_pipe.py (python3).
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.
set -uo pipefail

bin=${1:?usage: $0 BIN}
root=$(pwd)
case $bin in /*) ;; *) bin=$root/$bin ;; esac
table=$root/tests/cli/errors.txt

work=$(mktemp -d "${TMPDIR:-/tmp}/tc-cli-errors.XXXXXX")
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
# The binary and the folder are opened to every user, so that the cells
# run as another user reach them wherever the repository lies.
chmod 755 "$work"
cp "$bin" "$work/tracecat"
mkdir "$work/w" "$work/w/empty" "$work/w/notrace" "$work/w/locked"
cd "$work/w" || exit 0
cp "$root/tests/fixtures/tracedat/top-v7-zstd.dat" trace.dat
cp -r "$root/tests/fixtures/ctf/sample" ctf
cp -r "$root/tests/fixtures/uftrace/threads" uftrace.data
cp -r "$root/tests/fixtures/ctf2/merged-traces" ctf2
cp -r "$root/tests/fixtures/lttng-legacy/v26-le-lost" legacy
cp -r "$root/tests/fixtures/ctf-valid/time-backwards" counter
sed -i 's/ offset_s = 1600000000;//' counter/metadata
echo "notes" >notes.txt
ln -s trace.dat link.dat
ln -s notes.txt link.json
cp notes.txt notrace/
cp trace.dat locked.dat
cp trace.dat locked/
chmod -R a+rX .
chmod 600 locked.dat
chmod 700 locked

# shellcheck source=tests/lib.sh
. "$root/tests/lib.sh"
live_as_nobody

# A tmpfs can be mounted here, in a mount namespace that ends with the
# command: a file system that fills up under it.
mkdir "$work/fs"
full_fs=(unshare -m)
[ "$(id -u)" = 0 ] || full_fs=(unshare -r -m)
# shellcheck disable=SC2016  # expanded by the shell in the namespace
mount_fs='mount -t tmpfs -o size=16k tracecat-full "$0" || exit 125'
if ! "${full_fs[@]}" sh -c "$mount_fs" "$work/fs" 2>/dev/null; then
	full_fs=(missing-mount-namespace)
fi

n=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	n=$((n + 1))
	user=${line%% | *}
	rest=${line#* | }
	want_rc=${rest%% | *}
	rest=${rest#* | }
	args=${rest%% | *}
	want_err=${rest#* | }
	name="cli-errors/$(echo "$args" | tr ' /' '_-')"
	run=()
	out=$work/out
	case $user in
	me) ;;
	nobody)
		if [ "${#as_nobody[@]}" -gt 0 ] && [ "${as_nobody[0]}" = missing-setpriv ]; then
			echo "SKIP $name: setpriv (util-linux) is not installed"
			continue
		fi
		run=("${as_nobody[@]}")
		;;
	full) out=/dev/full ;;
	full-fs)
		if [ "${full_fs[0]}" = missing-mount-namespace ]; then
			echo "SKIP full-fs:$name: cannot mount a tmpfs in a mount namespace here (unshare -m)"
			continue
		fi
		# shellcheck disable=SC2016  # expanded by the inner shell
		run=("${full_fs[@]}" sh -c "$mount_fs"'; exec "$@" >"$0/out"' "$work/fs")
		;;
	pipe | pipe-ignored | sigint) run=(python3 "$root/tests/cli/run_with_pipe.py" "$user") ;;
	*)
		echo "FAIL $name: unknown way to run \"$user\" in $table"
		continue
		;;
	esac
	[ "$user" = me ] || [ "$user" = nobody ] || name=${name/cli-errors\//cli-errors/$user:}
	rm -rf out
	: >"$work/out"
	# shellcheck disable=SC2086  # the table's arguments are words
	"${run[@]}" "$work/tracecat" $args >"$out" 2>"$work/err" </dev/null
	rc=$?
	if [ "$rc" != "$want_rc" ]; then
		echo "FAIL $name: exit $rc, expected $want_rc: $(head -c 300 "$work/err")"
	elif [ -s "$work/out" ]; then
		echo "FAIL $name: printed on stdout: $(head -c 200 "$work/out")"
	elif [ "$want_err" = "(nothing)" ] && [ -s "$work/err" ]; then
		echo "FAIL $name: stderr was: $(head -c 400 "$work/err")"
	elif [ "$want_err" != "(nothing)" ] &&
		{ [ "$(cat "$work/err")" != "$want_err" ] || [ "$(wc -l <"$work/err")" != 1 ]; }; then
		echo "FAIL $name: stderr was: $(head -c 400 "$work/err")"
	elif [ -e out ]; then
		echo "FAIL $name: left an output directory"
	else
		echo "PASS $name"
	fi
done <"$table"
[ "$n" -gt 50 ] || echo "FAIL cli-errors/table: only $n cases read from $table"

# info: lines it must print (tests/cli/info.txt: the path in the work
# folder, " | ", the line).
k=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	k=$((k + 1))
	path=${line%% | *}
	want=${line#* | }
	name="cli-info/$k-${path##*/}"
	if ! "$work/tracecat" info "$path" >"$work/info" 2>"$work/err"; then
		echo "FAIL $name: exit $?: $(head -c 300 "$work/err")"
	elif grep -qxF -- "$want" "$work/info"; then
		echo "PASS $name"
	else
		echo "FAIL $name: no line \"$want\" in: $(grep -F -- "${want%%:*}" "$work/info" | head -c 300)"
	fi
done <"$root/tests/cli/info.txt"

# Help: the same text in every spelling, on stdout, exit 0.
"$work/tracecat" help >"$work/help" 2>&1 || echo "FAIL cli-help/help: exit $?"
for spelling in --help -h; do
	if "$work/tracecat" "$spelling" 2>&1 | cmp -s - "$work/help"; then echo "PASS cli-help/$spelling"
	else echo "FAIL cli-help/$spelling: differs from tracecat help"; fi
done
for cmd in print info report replay convert help; do
	grep -q "^  $cmd " "$work/help" || echo "FAIL cli-help/$cmd: not listed by tracecat help"
	if ! "$work/tracecat" help "$cmd" >"$work/help-$cmd" 2>"$work/err" || [ -s "$work/err" ] ||
		! head -1 "$work/help-$cmd" | grep -q "^usage: tracecat $cmd"; then
		echo "FAIL cli-help/$cmd: tracecat help $cmd: $(head -c 200 "$work/err" "$work/help-$cmd")"
		continue
	fi
	ok=1
	for spelling in --help -h; do
		# help's own: `tracecat help --help`, as `tracecat print --help`
		"$work/tracecat" "$cmd" "$spelling" 2>&1 | cmp -s - "$work/help-$cmd" || ok=0
	done
	if [ $ok = 1 ]; then echo "PASS cli-help/$cmd"
	else echo "FAIL cli-help/$cmd: --help or -h differs from tracecat help $cmd"; fi
done
exit 0
