#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# convert-safety.sh BIN - what `tracecat convert` does around the
# conversion itself (the refusals one line each are rows of
# tests/cli/errors.txt; what the output holds is convert.sh's):
#   - --force: replaces a trace directory or a file it wrote, saying so;
#     never a directory of other files, a symbolic link, or an input
#     (the input is byte for byte what it was);
#   - one layout: the same files whatever the filters, for a CTF input
#     below its session folder, a trace.dat, and several inputs; the
#     output's extension matched in any case;
#   - an input given twice is read once (no event written twice);
#   - -o -: JSON and Perfetto on standard output, the same bytes as the
#     file; a full standard output reported as such;
#   - a signal (INT, TERM, HUP) ends convert with the signal's status, no
#     output and no work folder left; KILL leaves no partial output;
#   - write errors name the output, never the work folder: a file size
#     limit, and a full file system (a 64 KiB tmpfs, mounted in a mount
#     namespace of its own: needs root or user namespaces);
#   - the progress line: on a terminal (a pty from script(1)), for a
#     JSON and a Perfetto output (every input merged by time), with a
#     percentage of the input read, below 100% along the way and 100% at
#     the end; never when standard error is a file.
# Uses only BIN and tests/fixtures.  Prints PASS/FAIL/SKIP lines for
# tests/run.sh; exits 0.
set -u
BIN=$1
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$ROOT/tests/fixtures/tracedat/syscalls-v7-zstd.dat
ctf=$ROOT/tests/fixtures/ctf/sample
pass() { echo "PASS convert-safety/$1"; }
fail() { echo "FAIL convert-safety/$1: $2"; }
# The files below DIR, one relative path a line.
files() { (cd "$1" && find . -type f | sort); }
work_left() { find "$tmp" -maxdepth 2 -name '.*tracecat-*' | head -1; }

# ---- --force
cd "$tmp" || exit 0
cp "$src" k.dat
mkdir notes && echo keep >notes/file
if "$BIN" convert --force k.dat -o notes 2>err; then
	fail force-other-directory "a directory of other files was replaced"
elif [ "$(cat notes/file 2>/dev/null)" != keep ]; then
	fail force-other-directory "the directory was changed"
else
	pass force-other-directory
fi
"$BIN" convert k.dat -o trace 2>/dev/null
if (umask 022 && "$BIN" convert --force --ctf-version 2 k.dat -o trace 2>err) &&
	[ "$(cat err)" = "tracecat: replacing trace (a CTF trace directory)" ] &&
	grep -q '"type"' trace/metadata && "$BIN" print trace >/dev/null 2>&1; then
	pass force-trace-directory
else
	fail force-trace-directory "$(head -c 300 err)"
fi
# The trace folder gets the permissions the umask gives, not the private
# ones of the work folder it was.
if [ "$(stat -c %a trace)" = 755 ]; then pass permissions; else fail permissions "mode $(stat -c %a trace) with umask 022"; fi
"$BIN" convert k.dat -o k.json 2>/dev/null
if "$BIN" convert --force --format perfetto k.dat -o k.json 2>err &&
	[ "$(cat err)" = "tracecat: replacing k.json (a file)" ] && ! grep -q traceEvents k.json; then
	pass force-file
else
	fail force-file "$(head -c 300 err)"
fi
ln -s k.json link.json
if ! "$BIN" convert --force k.dat -o link.json 2>/dev/null && [ -L link.json ]; then
	pass force-symlink
else
	fail force-symlink "the symbolic link was replaced"
fi
for out in k.dat ./k.dat "$tmp/k.dat" link.dat; do
	[ "$out" = link.dat ] && ln -sf k.dat link.dat
	if ! "$BIN" convert --force --format json k.dat -o "$out" 2>err && cmp -s k.dat "$src" &&
		grep -q "is the input k.dat" err; then
		pass "input-kept/${out//\//_}"
	else
		fail "input-kept/${out//\//_}" "$(head -c 300 err)"
	fi
	cp "$src" k.dat
done

# ---- one layout, whatever the filters
layout_ok=1
set -f    # the filters' * are words
for args in "" "--events *" "--cpu 0" "--events tc:ints"; do
	rm -rf lay
	# shellcheck disable=SC2086  # the filter is words
	"$BIN" convert $args "$ctf" -o lay 2>/dev/null
	# a stream the filter empties has no file: where the trace is counts
	got=$(files lay | grep metadata)
	if [ "$got" != ./ust/uid/0/64-bit/metadata ]; then
		fail "layout/ctf${args:+ $args}" "$got"
		layout_ok=0
	fi
done
[ $layout_ok = 1 ] && pass layout/ctf
for args in "" "--cpu 0"; do
	rm -rf lay
	# shellcheck disable=SC2086
	"$BIN" convert $args k.dat -o lay 2>/dev/null
	if [ "$(files lay | grep -c '^./metadata$')" = 1 ]; then pass "layout/tracedat${args:+-filtered}"
	else fail "layout/tracedat${args:+-filtered}" "$(files lay | head -3)"; fi
done
cp "$src" k2.dat
for args in "" "--events *"; do
	rm -rf lay
	# shellcheck disable=SC2086
	"$BIN" convert $args "$ctf" k.dat -o lay 2>/dev/null
	if [ -f lay/sample/ust/uid/0/64-bit/metadata ] && [ -f lay/k.dat/metadata ]; then
		pass "layout/two-inputs${args:+-filtered}"
	else
		fail "layout/two-inputs${args:+-filtered}" "$(files lay | head -5)"
	fi
done
set +f

# The extensions, in any case: a folder for .CTF, a file for .PFTRACE;
# "trace-2.6" has none (an extension starts with a letter).
if "$BIN" convert k.dat -o lay.CTF 2>err && [ -f lay.CTF/metadata ] &&
	"$BIN" convert k.dat -o trace-2.6 2>>err && [ -f trace-2.6/metadata ] &&
	"$BIN" convert k.dat -o up.PFTRACE 2>>err && [ -f up.PFTRACE ] && ! grep -q traceEvents up.PFTRACE; then
	pass extensions-any-case
else
	fail extensions-any-case "$(head -c 300 err)"
fi

# ---- the same input twice: read once
rm -rf once twice
"$BIN" convert k.dat -o once 2>/dev/null
if "$BIN" convert k.dat ./k.dat -o twice 2>err && [ "$(cat err)" = "tracecat: warning: k.dat and ./k.dat are the same; read once" ] &&
	[ "$("$BIN" print twice | wc -l)" = "$("$BIN" print once | wc -l)" ]; then
	pass input-twice
else
	fail input-twice "$(head -c 300 err)"
fi
if "$BIN" convert k.dat k.dat -o twice.json 2>err && [ "$(cat err)" = "tracecat: warning: k.dat given twice; read once" ]; then
	pass input-twice-json
else
	fail input-twice-json "$(head -c 300 err)"
fi

# ---- -o -
for format in json perfetto; do
	rm -f file.out
	"$BIN" convert --format $format k.dat -o file.out 2>/dev/null
	if "$BIN" convert --format $format k.dat -o - >stdout.out 2>err && [ ! -s err ] && cmp -s stdout.out file.out; then
		pass "stdout/$format"
	else
		fail "stdout/$format" "$(head -c 300 err)"
	fi
	if [ -w /dev/full ]; then
		"$BIN" convert --format $format k.dat -o - >/dev/full 2>err
		rc=$?
		if [ $rc = 1 ] && [ "$(cat err)" = "tracecat: standard output: No space left on device" ]; then
			pass "stdout-full/$format"
		else
			fail "stdout-full/$format" "exit $rc: $(head -c 300 err)"
		fi
	fi
done

# ---- write errors name the output
rm -rf out
(ulimit -f 16; trap '' XFSZ; "$BIN" convert k.dat -o out 2>err)
rc=$?
if [ $rc = 1 ] && [ ! -e out ] && [ -z "$(work_left)" ] && [ "$(cat err)" = "tracecat: out: File too large" ]; then
	pass write-error
else
	fail write-error "exit $rc: $(head -c 300 err) $(work_left)"
fi
# A full file system: the script below runs in a mount namespace of its
# own, as root or through a user namespace.
cat >full.sh <<'EOF'
set -u
mkdir -p "$2/full" && mount -t tmpfs -o size=64k none "$2/full" || exit 99
cd "$2/full" || exit 99
"$1" convert "${@:3}" -o out 2>"$2/full-out.err"
echo "out $? $(ls -A | tr '\n' ' ')"
# one input (JSON of several would warn of their unrelated clocks)
"$1" convert "$3" -o out.json 2>"$2/full-out.json.err"
echo "out.json $? $(ls -A | tr '\n' ' ')"
EOF
# four inputs merged into one trace: more than the 64 KiB
many=()
for i in 1 2 3 4; do cp "$src" "k$i.dat"; many+=("$tmp/k$i.dat"); done
full=""
for ns in "unshare -m" "unshare -rm"; do
	# shellcheck disable=SC2086  # the command is words
	full=$($ns bash full.sh "$BIN" "$tmp" "${many[@]}" 2>/dev/null) && break
	full=""
done
if [ -z "$full" ]; then
	echo "SKIP convert-safety/full-disk: cannot mount a tmpfs in a mount namespace here"
else
	for out in out out.json; do
		line=$(grep "^$out " <<<"$full")
		if [ "$line" = "$out 1 " ] && [ "$(cat "full-$out.err")" = "tracecat: $out: No space left on device" ]; then
			pass "full-disk/$out"
		else
			fail "full-disk/$out" "$line: $(head -c 300 "full-$out.err")"
		fi
	done
fi

# ---- signals: a conversion long enough to be caught at work
big=()
for i in $(seq 1 400); do cp "$src" "big$i.dat"; big+=("big$i.dat"); done
set -m    # background jobs of their own, which SIGINT reaches
# convert leaves a signal its caller ignores ignored (as nohup expects), and
# a suite run in the background inherits SIGINT and SIGHUP ignored: the
# conversions start with every disposition at its default.
dfl=(env --default-signal=INT,TERM,HUP)
for sig in INT TERM HUP KILL; do
	for out in sig sig.json; do
		rm -rf "$out"
		"${dfl[@]}" "$BIN" convert -j 1 "${big[@]}" -o "$out" 2>/dev/null &
		pid=$!
		for _ in $(seq 1 1000); do
			[ -n "$(work_left)" ] && break
			sleep 0.01
		done
		kill -s $sig $pid 2>/dev/null
		wait $pid 2>/dev/null
		rc=$?
		want=$((128 + $(kill -l $sig)))
		if [ $rc != $want ]; then
			fail "signal-$sig/$out" "exit $rc, expected $want"
		elif [ -e "$out" ]; then
			fail "signal-$sig/$out" "an output was left"
		elif [ $sig != KILL ] && [ -n "$(work_left)" ]; then
			fail "signal-$sig/$out" "the work folder $(work_left) was left"
		else
			pass "signal-$sig/$out"
		fi
		find "$tmp" -maxdepth 1 -name '.*tracecat-*' -exec rm -rf {} +
	done
done
# To standard output, held back by a pipe not read yet: SIGINT ends it
# there, with its status.
rm -f conv.pid conv.rc
("${dfl[@]}" sh -c 'echo $$ >conv.pid; exec "$0" convert --format json "$@" -o -' "$BIN" "${big[@]}" 2>/dev/null
	echo $? >conv.rc) | (sleep 2; cat >/dev/null) &
for _ in $(seq 1 500); do [ -s conv.pid ] && break; sleep 0.01; done
sleep 0.3
kill -s INT "$(cat conv.pid)"
wait
if [ "$(cat conv.rc)" = 130 ]; then pass signal-INT/stdout; else fail signal-INT/stdout "exit $(cat conv.rc)"; fi
set +m

# ---- progress: on a terminal only.  The line comes once the work has
# taken a second: standard output, a pipe read only after 1.5 s, holds
# the conversion back that long whatever the machine's speed.  (Its text,
# percentage and time left: tests/unit/progress_test.c.)
slow_reader='(sleep 1.5; cat >/dev/null)'
"$BIN" convert --format json "${big[@]}" -o - 2>err | (sleep 1.5; cat >/dev/null)
if grep -q converting err; then fail progress-not-a-terminal "$(head -c 200 err)"; else pass progress-not-a-terminal; fi
if command -v script >/dev/null; then
	for format in json perfetto; do
		script -qec "'$BIN' convert --format $format ${big[*]} -o - | $slow_reader" /dev/null >pty.txt 2>&1
		lines=$(tr '\r' '\n' <pty.txt | grep 'converting:')
		last=$(tail -1 <<<"$lines")
		if ! grep -q '^tracecat: converting: 100%, [0-9]* events, [0-9.]* MB written, [0-9.]* s *$' <<<"$last"; then
			fail "progress-terminal/$format" "last line: $last"
		elif ! grep -q '^tracecat: converting: [0-9]\{1,2\}%, [0-9]* events, .* s, [0-9].* left *$' <<<"$lines"; then
			fail "progress-terminal/$format" "no line with a percentage below 100% and the time left: $lines"
		else
			pass "progress-terminal/$format"
		fi
	done
else
	echo "SKIP convert-safety/progress-terminal: script (util-linux) is not installed"
fi
exit 0
