/* SPDX-License-Identifier: MIT */
/*
 * linked_tep.h - which libtraceevent the unit tests are linked with, for
 * the tests that hold the native print-format plans to it
 * (report_test.c, printfmt_test.c): the plans write either release's text
 * whatever is linked (printfmt.h, pf_set_tep19()), so a test compares the
 * text of the release it links.  The Makefile passes the version
 * pkg-config reports as TEST_LIBTRACEEVENT_VERSION ("1.7.1").
 */
#ifndef TC_TESTS_LINKED_TEP_H
#define TC_TESTS_LINKED_TEP_H

#include <stdbool.h>
#include <stdio.h>

#ifndef TEST_LIBTRACEEVENT_VERSION
#define TEST_LIBTRACEEVENT_VERSION "1.7"
#endif

/* Whether the linked libtraceevent prints 1.8's and later texts (the
 * sched_switch states of the kernel, " (0xADDR)" after a -R function
 * name): trace-cmd 3.3 and 3.4's, not 3.1.6's. */
static inline bool linked_tep_is_newer(void)
{
	unsigned major = 0, minor = 0;
	sscanf(TEST_LIBTRACEEVENT_VERSION, "%u.%u", &major, &minor);
	return major > 1 || (major == 1 && minor >= 8);
}

#endif /* TC_TESTS_LINKED_TEP_H */
