# tests/lttng/sessiond.sh - stopping exactly the session daemon a recording
# script started (sourced by tests/lttng/record.sh and tests/lttng2/record.sh,
# which keep its pid in $sessiond_pid): no pgrep, nothing else touched.

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
