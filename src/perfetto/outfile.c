/* SPDX-License-Identifier: MIT */
/*
 * outfile.c - the bytes a timeline writer makes, written to its output
 * file: on the caller's thread, or, when the writer may use a second
 * thread (tc_timeline_writer_set_threads), on a thread of its own, so
 * that the kernel's copying of the bytes into the file (a sixth of a
 * conversion to Chrome JSON) overlaps the formatting of the next ones.
 *
 * With the thread, two buffers take turns: the writer formats into one
 * while the thread writes the other.  A failed write is reported by the
 * flush after it, on the caller's thread (errors are per thread).
 */
#include "perfetto/timeline.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tl_outfile {
	int fd;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;    /* a buffer was handed over, or written */
	pb_buf pending;            /* the thread's to write while `busy` */
	bool busy, quit;
	/* the first failed write: its errno (0: none, -1: nothing written)
	 * and the file offset where it failed */
	int error;
	uint64_t error_at;
	uint64_t written;          /* by the thread */
};

/* Writes the LEN bytes at P to FD, whose offset is *AT: 0, or the
 * failure as in tl_outfile.error, *AT then where it failed. */
static int write_all(int fd, const uint8_t *p, size_t len, uint64_t *at)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : -1;
		done += (size_t)n;
		*at += (uint64_t)n;
	}
	return 0;
}

static int fail_write(tl_ctx *c, int error, uint64_t at)
{
	if (error > 0)
		return tc_fail_write_at(error, c->name, (int64_t)at, NULL);
	return tc_fail(TC_EIO, c->name, (int64_t)at, "nothing written");
}

static void *write_run(void *arg)
{
	tl_outfile *f = arg;
	pthread_mutex_lock(&f->lock);
	for (;;) {
		while (!f->busy && !f->quit)
			pthread_cond_wait(&f->changed, &f->lock);
		if (!f->busy)
			break;
		pthread_mutex_unlock(&f->lock);
		/* after a failure nothing more is written: the file is lost */
		uint64_t at = f->written;
		int error = f->error ? 0 : write_all(f->fd, f->pending.data, f->pending.len, &at);
		pthread_mutex_lock(&f->lock);
		f->written = at;
		if (error) {
			f->error = error;
			f->error_at = at;
		}
		f->pending.len = 0;
		f->busy = false;
		pthread_cond_broadcast(&f->changed);
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

int tl_outfile_start(tl_ctx *c)
{
	if (c->file)
		return 0;
	tl_outfile *f = calloc(1, sizeof *f);
	if (!f)
		return tc_fail_nomem();
	f->fd = c->fd;
	f->written = c->written;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->changed, NULL);
	if (pthread_create(&f->thread, NULL, write_run, f) != 0) {
		/* the caller's thread writes, as with one thread */
		pthread_cond_destroy(&f->changed);
		pthread_mutex_destroy(&f->lock);
		free(f);
		return 0;
	}
	c->file = f;
	return 0;
}

/* With F's lock: waits until its thread has written what it was given;
 * 0, or its failure recorded. */
static int wait_written(tl_ctx *c, tl_outfile *f)
{
	while (f->busy)
		pthread_cond_wait(&f->changed, &f->lock);
	return f->error ? fail_write(c, f->error, f->error_at) : 0;
}

int tl_flush_out(tl_ctx *c, size_t limit)
{
	if (c->out.failed)
		return tc_fail_nomem();
	tl_outfile *f = c->file;
	if (!f) {
		uint64_t at = c->written;
		int error = write_all(c->fd, c->out.data, c->out.len, &at);
		c->written = at;
		c->out.len = 0;
		return error ? fail_write(c, error, at) : 0;
	}
	pthread_mutex_lock(&f->lock);
	int rc = wait_written(c, f);
	if (rc == 0 && c->out.len) {
		pb_buf spare = f->pending;
		f->pending = c->out;
		c->out = spare;
		c->written += f->pending.len;
		f->busy = true;
		pthread_cond_broadcast(&f->changed);
		/* the last bytes: the file is complete only once written */
		if (limit == 0)
			rc = wait_written(c, f);
	}
	pthread_mutex_unlock(&f->lock);
	return rc;
}

void tl_outfile_stop(tl_ctx *c)
{
	tl_outfile *f = c->file;
	if (!f)
		return;
	pthread_mutex_lock(&f->lock);
	f->quit = true;
	pthread_cond_broadcast(&f->changed);
	pthread_mutex_unlock(&f->lock);
	pthread_join(f->thread, NULL);
	pthread_cond_destroy(&f->changed);
	pthread_mutex_destroy(&f->lock);
	pb_free(&f->pending);
	free(f);
	c->file = NULL;
}
