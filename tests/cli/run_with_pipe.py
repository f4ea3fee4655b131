#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""run_with_pipe.py - runs a command with its standard output on a pipe in
one of the states tests/cli/errors.txt names, for tests/live/cli-errors.sh:

  pipe          the pipe's reader is gone before the command starts, and
                SIGPIPE has its default action (`tracecat print BIG | head`)
  pipe-ignored  the same with SIGPIPE ignored (inherited ignored, as under
                some service managers): writes fail with EPIPE instead
  sigint        the pipe, shrunk to one page, is never read; once the
                command has filled it (it is then blocked writing), it gets
                SIGINT as from Ctrl-C

usage: run_with_pipe.py STATE COMMAND [ARG...]

The command's standard error is this script's.  Exits with the command's
status as a shell reports it: its exit code, or 128 + the signal that
ended it.  Nothing is timed: the only wait is for the pipe to fill, with a
generous bound (a command that ends first is reported as it ended).
"""
import fcntl
import os
import signal
import sys
import termios
import time

F_SETPIPE_SZ = 1031      # <linux/fcntl.h>; not in Python's fcntl before 3.10


def main():
    state, argv = sys.argv[1], sys.argv[2:]
    if state not in ('pipe', 'pipe-ignored', 'sigint') or not argv:
        sys.exit('usage: run_with_pipe.py pipe|pipe-ignored|sigint COMMAND [ARG...]')
    r, w = os.pipe()
    if state == 'sigint':
        capacity = fcntl.fcntl(w, F_SETPIPE_SZ, 4096)
    else:
        os.close(r)
    pid = os.fork()
    if pid == 0:
        os.dup2(w, 1)
        os.close(w)
        if state == 'sigint':
            os.close(r)
        # Python ignores SIGPIPE itself; a child gets the default back
        # unless the state says otherwise.
        signal.signal(signal.SIGPIPE, signal.SIG_IGN if state == 'pipe-ignored' else signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execvp(argv[0], argv)
    os.close(w)
    ended, status = 0, 0
    if state == 'sigint':
        deadline = time.monotonic() + 60
        buffered = bytearray(4)
        while not ended and time.monotonic() < deadline:
            fcntl.ioctl(r, termios.FIONREAD, buffered)
            if int.from_bytes(buffered, sys.byteorder) >= capacity:
                break
            ended, status = os.waitpid(pid, os.WNOHANG)
            time.sleep(0.01)
        if not ended:
            os.kill(pid, signal.SIGINT)
    if not ended:
        _, status = os.waitpid(pid, 0)
    sys.exit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))


if __name__ == '__main__':
    main()
