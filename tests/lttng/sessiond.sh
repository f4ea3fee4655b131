# SPDX-License-Identifier: MIT
# tests/lttng/sessiond.sh - starting a session daemon for a recording script
# and stopping exactly that one (sourced by tests/lttng/record.sh and
# tests/lttng2/record.sh; its pid is kept in $sessiond_pid): no pgrep,
# nothing else touched.

# descendants PID: the pids of PID's children, theirs, and so on.
descendants() {
	local p
	# shellcheck disable=SC2013  # the files hold blank-separated pids
	for p in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$p"
		descendants "$p"
	done
}

# stop_sessiond: TERM to $sessiond_pid, then wait until it and the
# processes it spawned (run-as helper, consumer daemons: its descendants,
# read before) have ended; KILL after 10 s.
stop_sessiond() {
	local kids k i alive
	kids=$(descendants "$sessiond_pid")
	kill -TERM "$sessiond_pid" 2>/dev/null || true
	for i in $(seq 100) kill; do
		alive=0
		for k in "$sessiond_pid" $kids; do
			if kill -0 "$k" 2>/dev/null; then
				alive=1
				[ "$i" != kill ] || kill -KILL "$k" 2>/dev/null || true
			fi
		done
		[ "$alive" = 1 ] || break
		[ "$i" = kill ] || sleep 0.1
	done
	wait "$sessiond_pid" 2>/dev/null || true
	sessiond_pid=
}

# start_sessiond BIN LOG: starts the session daemon BIN (user space only,
# --no-kernel: no module probing) in the background, keeps its pid in
# $sessiond_pid and waits until it says it is ready (SIGUSR1, --sig-parent);
# exits 3 with the reason (from LOG) when it does not come up within 30 s.
start_sessiond() {
	local bin=$1 log=$2 why _
	ready=0
	trap 'ready=1' USR1
	"$bin" --no-kernel --sig-parent >"$log" 2>&1 &
	sessiond_pid=$!
	for _ in $(seq 300); do
		if [ "$ready" = 1 ] || ! kill -0 "$sessiond_pid" 2>/dev/null; then break; fi
		sleep 0.1
	done
	if [ "$ready" = 0 ]; then
		# the first line that is not about the open files limit
		why=$(grep -v -m 1 'open files limit' "$log" || true)
		kill -0 "$sessiond_pid" 2>/dev/null && why="not ready after 30 s"
		echo "record.sh: cannot start lttng-sessiond: ${why:-it exited}" >&2
		exit 3
	fi
}
