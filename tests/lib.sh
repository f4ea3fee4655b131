# SPDX-License-Identifier: MIT
# tests/lib.sh - what the live tests (tests/live/*.sh) share: sourced, not
# run (tests/run.sh runs tests/live/*.sh only).
#
#   . "$(dirname "$0")/../lib.sh"
#   live_setup NAME "$1"     root, bin, bins, work; TZ and sanitizer options
#   live_as_nobody           as_nobody: the prefix that runs as user 65534
#   peer_compare ...         `BIN print` against babeltrace2, PASS/FAIL/NOTE
#   peers_debian12           Debian 12's peers first on PATH where the host's differ

# live_setup NAME BIN: ROOT is the checkout; BIN made absolute; BINS is BIN
# and, when it is built, build/sanitize/tracecat; WORK a fresh folder
# (tc-NAME.*) removed with all in it on exit, read-only parts included.
live_setup() {
	root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	bin=$2
	case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
	bins=("$bin")
	[ -x "$root/build/sanitize/tracecat" ] && bins+=("$root/build/sanitize/tracecat")
	export TZ=UTC ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
	# babeltrace2 2.0.4's CTF 1.8 text, trace-cmd 3.1.6's and uftrace 0.13's,
	# the suite's references (tests/run.sh)
	export TRACECAT_COMPAT=${TRACECAT_COMPAT-babeltrace2=2.0,trace-cmd=3.1,uftrace=0.13}
	work=$(mktemp -d "${TMPDIR:-/tmp}/tc-$1.XXXXXX")
	trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
}

# live_as_nobody: AS_NOBODY runs a command as user 65534, since root reads
# what permissions deny; empty when the test does not run as root, and a
# command that fails (missing-setpriv) when setpriv is not installed.
live_as_nobody() {
	as_nobody=()
	if [ "$(id -u)" = 0 ]; then
		if command -v setpriv >/dev/null; then
			as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		else
			as_nobody=(missing-setpriv)
		fi
	fi
}

# peer_compare LABEL PEER-NAME PEER-COMMAND... -- TRACECAT-ARGS...: runs the
# peer's command and `$BIN print TRACECAT-ARGS...` (files in $tmp), and
# prints PASS when the exit status, the standard output and the WARNING
# lines of the error stream are the same, FAIL otherwise, and NOTE when the
# peer dies of a signal or refuses what tracecat reads (doc/reading.md
# lists those cases).
# shellcheck disable=SC2154 # BIN and tmp are the caller's
peer_compare() {
	local label=$1 peer=$2 brc trc reason
	shift 2
	local cmd=()
	while [ "$1" != -- ]; do
		cmd+=("$1")
		shift
	done
	shift
	"${cmd[@]}" >"$tmp/bt.out" 2>"$tmp/bt.err"
	brc=$?
	"$BIN" print "$@" >"$tmp/tc.out" 2>"$tmp/tc.err"
	trc=$?
	if [ $brc -ge 128 ]; then
		reason=$(sed -n '/ Error is:$/{n;s/^.* [a-z_]*@[^ ]* //p;q}' "$tmp/bt.err" | sed 's/: [a-z-]*-addr=.*//' | head -c 160)
		echo "NOTE $label: $peer dies of signal $((brc - 128))${reason:+: $reason}"
	elif [ $brc -ne 0 ] && [ $trc -eq 0 ]; then
		echo "NOTE $label: $peer refuses what tracecat reads (doc/reading.md): $(grep -m1 -A1 '^CAUSED BY' "$tmp/bt.err" |
			tail -n 1 | sed 's/^ *//; s/[:,] [a-z-]*-addr=.*//' | head -c 120)"
	elif [ $brc -ne $trc ]; then
		echo "FAIL $label: exit $trc, $peer $brc"
	elif ! cmp -s "$tmp/bt.out" "$tmp/tc.out"; then
		echo "FAIL $label: stdout differs from $peer's: $(diff "$tmp/bt.out" "$tmp/tc.out" | head -n 3 | head -c 300)"
	elif ! diff -q <(grep '^WARNING\|^\[warning\]' "$tmp/bt.err") <(grep '^WARNING\|^\[warning\]' "$tmp/tc.err") >/dev/null; then
		echo "FAIL $label: warnings differ from $peer's: $(diff <(grep '^WARNING\|^\[warning\]' "$tmp/bt.err") \
			<(grep '^WARNING\|^\[warning\]' "$tmp/tc.err") | head -n 3 | head -c 300)"
	else
		echo "PASS $label"
	fi
}

# peers_debian12: the suite's references and live comparisons are the texts
# of Debian 12's peers, babeltrace2 2.0, babeltrace 1.5, trace-cmd 3.1 and
# uftrace 0.13.  On a host that has one of them at another release (Debian
# 13, sid), puts tests/peers/debian12 first on PATH, whose wrappers run all
# four from a bookworm root (tests/peers/README.md); on Debian 12 nothing
# changes.  TRACECAT_PEERS=host or TRACECAT_PEERS=debian12 decides instead;
# it is exported with the choice, so the tests started from here do not
# ask the peers again.
peers_debian12() {
	local dir
	dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/peers/debian12
	if [ -z "${TRACECAT_PEERS:-}" ]; then
		TRACECAT_PEERS=host
		peer_release babeltrace2 --version 'Babeltrace 2.0.' &&
			peer_release babeltrace -h 'BabelTrace Trace Viewer and Converter 1.5.' &&
			peer_release trace-cmd -h 'trace-cmd version 3.1.' &&
			peer_release uftrace --version 'uftrace v0.13 ' ||
			TRACECAT_PEERS=debian12
	fi
	export TRACECAT_PEERS
	if [ "$TRACECAT_PEERS" = debian12 ]; then
		case :$PATH: in *":$dir:"*) ;; *) export PATH=$dir:$PATH ;; esac
	fi
}

# peer_release PROGRAM OPTION START: true when PROGRAM is not installed or
# a line of what `PROGRAM OPTION` prints starts with START (their exit
# status says nothing: trace-cmd -h's is 1).
peer_release() {
	local out
	command -v "$1" >/dev/null || return 0
	out=$("$1" "$2" 2>&1) || true
	[[ $'\n'$out == *$'\n'"$3"* ]]
}
