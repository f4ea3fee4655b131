#!/usr/bin/env bash
# tests/live/threads.sh BIN - `print` and `info` say the same whatever
# -j/--jobs: worker threads only decode ahead, the merge and the text stay
# on one thread.  For every committed fixture of every format (valid ones,
# damaged ones that stop with an error after some output), and for all the
# CTF fixtures merged in one run, the standard output, the error output
# and the exit status of -j 1 and -j 4 are compared.  Needs no peer tool.
# Prints PASS/FAIL lines for tests/run.sh; exits 0.
set -u
BIN=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export TZ=UTC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
F=$ROOT/tests/fixtures

# run NAME ARGS...: BIN ARGS with -j 1 and with -j 4, compared.
run() {
	local name=$1 cmd=$2
	shift 2
	"$BIN" "$cmd" -j 1 "$@" >"$tmp/1.out" 2>"$tmp/1.err"
	echo $? >"$tmp/1.rc"
	"$BIN" "$cmd" -j 4 "$@" >"$tmp/4.out" 2>"$tmp/4.err"
	echo $? >"$tmp/4.rc"
	local what
	for what in out err rc; do
		if ! cmp -s "$tmp/1.$what" "$tmp/4.$what"; then
			echo "FAIL threads/$cmd/$name: -j 4 differs from -j 1 ($what)"
			return
		fi
	done
	echo "PASS threads/$cmd/$name"
}

traces=()
for t in "$F"/ctf/*/ "$F"/ctf-valid/*/ "$F"/ctf-bad/*/ "$F"/ctf2/*/ "$F"/ctf2-lttng/*/ "$F"/ctf2-from-ctf1/*/ \
	"$F"/lttng-legacy/*/ "$F"/lttng-legacy-bad/*/ "$F"/uftrace/*/ "$F"/tracedat/*.dat "$F"/tracedat-bad/*.dat; do
	[ -e "$t" ] || continue
	t=${t%/}
	traces+=("$t")
done
for t in "${traces[@]}"; do
	name=${t#"$F"/}
	run "$name" print --clock-gmt "$t"
	run "$name" info "$t"
done
ctf=()
for t in "${traces[@]}"; do
	case $t in "$F"/ctf/* | "$F"/ctf2-lttng/* | "$F"/ctf2-from-ctf1/*) ctf+=("$t") ;; esac
done
run all-ctf-merged print --clock-gmt "${ctf[@]}"
