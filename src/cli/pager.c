/* SPDX-License-Identifier: MIT */
/*
 * pager.c - `tracecat replay`'s pager on a terminal, chosen and started
 * as uftrace starts its own (utils/pager.c): $PAGER, else /usr/bin/pager,
 * else /usr/bin/less, none when that is empty or "cat"; run with `sh -c`,
 * LESS=FRSX unless LESS is set (less then keeps the colours, quits when
 * the text fits the screen).  Standard output (and standard error, when
 * it is a terminal too) go to it until cli_pager_end().
 */
#include "cli/cli.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The pager's command, NULL for none. */
static const char *pager_command(void)
{
	const char *pager = getenv("PAGER");
	if (!pager && access("/usr/bin/pager", X_OK) == 0)
		pager = "/usr/bin/pager";
	if (!pager && access("/usr/bin/less", X_OK) == 0)
		pager = "/usr/bin/less";
	if (!pager || !*pager || !strcmp(pager, "cat"))
		return NULL;
	return pager;
}

void cli_pager_start(cli_pager *pg)
{
	const char *cmd = pager_command();
	int fds[2];
	pg->pid = 0;
	if (!cmd || pipe(fds) < 0)
		return;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", "FRSX", 0);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO)) {
		pg->saved_stderr = dup(STDERR_FILENO);
		dup2(fds[1], STDERR_FILENO);
	} else {
		pg->saved_stderr = -1;
	}
	close(fds[1]);
	pg->pid = pid;
}

void cli_pager_end(cli_pager *pg)
{
	if (!pg->pid)
		return;
	/* the pager sees the end of its input, then is waited for */
	fflush(stdout);
	fflush(stderr);
	/* standard output stays open (on /dev/null) for the exit's flush */
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		close(null);
	} else {
		close(STDOUT_FILENO);
	}
	if (pg->saved_stderr >= 0) {
		dup2(pg->saved_stderr, STDERR_FILENO);
		close(pg->saved_stderr);
	}
	int status;
	waitpid(pg->pid, &status, 0);
	pg->pid = 0;
}
