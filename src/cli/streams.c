/* SPDX-License-Identifier: MIT */
/*
 * streams.c - reading the streams of an input on several threads, for the
 * commands to which time order does not matter (`info` counts, `convert`
 * writes each stream's file): each thread takes the next unread stream
 * until none is left.  A damaged stream does not stop the others, so what
 * the command ends with does not depend on which thread read which stream;
 * the error reported is that of the lowest-numbered failed stream.
 */
#include "cli/cli.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct reader_thread {
	tc_input *in;
	atomic_size_t *next_stream;   /* shared: the next stream to take */
	int (*read)(void *state, size_t stream);
	void *state;
	int rc;                       /* the first failure's, 0 for none */
	size_t failed_stream;
	tc_error error;               /* the library's error record is per thread */
} reader_thread;

static void *reader_run(void *arg)
{
	reader_thread *t = arg;
	size_t n = tc_input_stream_count(t->in);
	for (size_t s; (s = atomic_fetch_add(t->next_stream, 1)) < n;) {
		int rc = t->read(t->state, s);
		if (rc < 0 && t->rc == 0) {
			t->rc = rc;
			t->failed_stream = s;
			t->error = *tc_error_last();
		}
		if (rc < -1)
			break;
	}
	return NULL;
}

int cli_read_streams(tc_input *in, unsigned jobs, int (*read)(void *state, size_t stream), void *states,
                     size_t state_size, tc_error *err)
{
	size_t n = tc_input_stream_count(in);
	atomic_size_t next_stream = 0;
	if (jobs > n)
		jobs = n ? (unsigned)n : 1;
	reader_thread *threads = calloc(jobs, sizeof *threads);
	pthread_t *ids = calloc(jobs, sizeof *ids);
	if (!threads || !ids) {
		free(threads);
		free(ids);
		*err = (tc_error){ TC_ENOMEM, "", -1, "out of memory", 0 };
		return -1;
	}
	unsigned started = 1;
	for (unsigned k = 0; k < jobs; k++) {
		threads[k] = (reader_thread){ in, &next_stream, read, (char *)states + k * state_size, 0, 0, { 0 } };
		/* The calling thread is the first; others only if they start. */
		if (k > 0) {
			if (pthread_create(&ids[k], NULL, reader_run, &threads[k]) != 0)
				break;
			started = k + 1;
		}
	}
	reader_run(&threads[0]);
	const reader_thread *failed = NULL;
	for (unsigned k = 0; k < started; k++) {
		if (k > 0)
			pthread_join(ids[k], NULL);
		if (threads[k].rc && (!failed || threads[k].failed_stream < failed->failed_stream))
			failed = &threads[k];
	}
	int rc = failed ? failed->rc : 0;
	if (failed)
		*err = failed->error;
	free(threads);
	free(ids);
	return rc;
}
