/* SPDX-License-Identifier: MIT */
#include <lttng/tracef.h>
#include <unistd.h>

int main(void)
{
	int i;

	for (i = 0; i < 5; i++) {
		tracef("iteration %d: value=%x, str=%s", i, i * 255, "hello\tworld\n");
		usleep(1000);
	}
	tracef("a quote \" and a backslash \\ and a question mark ?");
	tracef("%f", 3.14159);
	return 0;
}
