#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# profile-order.sh - `trace-cmd report --profile` text with each task's
# event blocks in one fixed order, for comparing tracecat's profile with
# trace-cmd's where trace-cmd's order is not its own to repeat.
#
# usage: tests/tracefs/profile-order.sh <PROFILE.txt >SORTED.txt
#
# trace-cmd sorts a task's events by type, event id and total time; events
# equal in all three (one event with several values, none timed: e.g.
# sched_migrate_task by its first field) come in the order of its hash
# buckets, whose keys mix in heap addresses, so the same trace-cmd prints
# them in another order from one run to the next (address space layout
# randomization).  A block is an "  Event:" line and the stack tree lines
# under it; the blocks of each task (between empty lines) are sorted here,
# everything else is left as it is.  Used by tests/live/tracedat-report.sh
# and tests/live/tracecmd34.sh when the texts differ: equal once sorted,
# they differ only in that order.
set -u
LC_ALL=C awk '
function flush(   i, j, t) {
	# insertion sort of the blocks: a task has few
	for (i = 1; i < n; i++) {
		t = blk[i]
		for (j = i - 1; j >= 0 && blk[j] > t; j--)
			blk[j + 1] = blk[j]
		blk[j + 1] = t
	}
	for (i = 0; i < n; i++)
		printf "%s", blk[i]
	n = 0
	inblk = 0
}
/^  Event: / { blk[n++] = $0 "\n"; inblk = 1; next }
/^$/ || /^task: / || !inblk { flush(); print; next }
{ blk[n - 1] = blk[n - 1] $0 "\n" }
END { flush() }
'
