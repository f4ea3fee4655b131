/* SPDX-License-Identifier: MIT */
/* forks.c - fork and wait (no argument), or fork and exec of itself
 * ("exec"; the new image runs with "child").
 * Traced by tests/uftrace/record.sh (scenarios fork, forkexec). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int leaf(int x)
{
	return x * 3;
}

static int child_work(int n)
{
	return leaf(n) + 1;
}

static int parent_work(int n)
{
	return leaf(n) - 1;
}

int main(int argc, char *argv[])
{
	int exec_child = argc > 1 && !strcmp(argv[1], "exec");
	int status = 0;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child_work(10) == 31 ? 0 : 1; /* the exec'ed image */

	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		child_work(1);
		if (exec_child) {
			execl(argv[0], argv[0], "child", (char *)NULL);
			_exit(127);
		}
		return 0;
	}
	parent_work(2);
	waitpid(pid, &status, 0);
	leaf(status);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
