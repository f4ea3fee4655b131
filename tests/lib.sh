# SPDX-License-Identifier: MIT
# tests/lib.sh - what the live tests (tests/live/*.sh) share: sourced, not
# run (tests/run.sh runs tests/live/*.sh only).
#
#   . "$(dirname "$0")/../lib.sh"
#   live_setup NAME "$1"     root, bin, bins, work; TZ and sanitizer options
#   live_as_nobody           as_nobody: the prefix that runs as user 65534

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
