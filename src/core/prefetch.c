/* SPDX-License-Identifier: MIT */
/*
 * prefetch.c - decoding streams ahead of the thread that reads them in
 * time order, so that a merge can use every core: worker threads fill
 * batches of messages (tc_batch) while the caller merges and formats the
 * batches decoded before.
 *
 * Each stream has a small ring of batches: the one the caller holds, those
 * decoded and waiting, and the one being filled.  Streams with a free
 * slot wait in a queue, in the order their slots came free (the order the
 * caller reads them), and a worker fills one batch of the first, which
 * then goes to the back if it still has room: the cost per batch does not
 * grow with the number of streams.  The caller never waits idle for a
 * stream nobody is filling: it
 * fills it itself, which is also all that happens with no worker.  A
 * stream's batches come out in the order they were filled, so the merge
 * sees exactly the messages a single thread would; at most PF_SLOTS
 * batches per stream are alive, so memory stays bounded.
 *
 * Iterators without fill (the message valid only until the next call) are
 * read on the caller's thread only, one message a batch, without the lock.
 *
 * Handing batches from one core to another is not always worth it: on
 * some virtual machines, for minutes at a time, the caller reading what a
 * worker decoded costs more than decoding it itself (print -j 2 took 1.5x
 * the time of -j 1).  So the caller times its reading in epochs
 * (PF_EPOCH_NS) and now and then spends one epoch filling every batch
 * itself, the workers idle; whichever way read faster goes on.  Batches
 * are filled in the same order either way: only the speed changes.
 */
#include "core/core.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define PF_SLOTS 4
/* Messages per batch: enough to make the lock taken per batch cheap, few
 * enough that the batches in flight stay in the caches. */
#define PF_BATCH_MAX 256
#define PF_BATCH_MIN 4
#define PF_MESSAGES_IN_FLIGHT 16384
/* How many times a thread with nothing to do yields the processor while
 * it watches for a change, before it sleeps: waking a sleeping thread (on
 * a virtual machine above all) takes longer than decoding a batch, about
 * 10 microseconds.  Yielding, not spinning: when the threads share one
 * processor (a busy machine) the one being waited for runs at once. */
#define PF_SPINS 100
/* How long a timed epoch lasts, long enough that waking a thread does not
 * count; how long after a change of way the batches filled the way before
 * are left out; how often (in epochs) the way not taken is tried again (a
 * try that loses by far waits twice as long before the next, up to
 * PF_PROBE_MAX). */
#define PF_EPOCH_NS 20000000u
#define PF_SETTLE_NS 2000000u
#define PF_PROBE_MIN 8
#define PF_PROBE_MAX 64

typedef struct pf_slot {
	tc_batch batch;
	int rc;                  /* what fill returned */
} pf_slot;

typedef struct pf_stream {
	tc_stream_iter *it;
	pf_slot slots[PF_SLOTS];
	/* In ring order from `head`: `ready` slots decoded and waiting, then
	 * the one being filled.  The one the caller holds is just before
	 * `head`. */
	unsigned head, ready;
	bool held, filling;
	bool queued;             /* in tc_prefetch.queue */
	bool produced_last;      /* a slot with rc <= 0 is in the ring or read */
	bool finished;           /* the caller has read that last slot */
	/* the last slot's error, when its rc < 0: recorded by the thread that
	 * filled it (no slot is filled after it) */
	tc_error error;
} pf_stream;

struct tc_prefetch {
	pf_stream *streams;
	size_t count;
	size_t batch_cap;
	pthread_mutex_t lock;
	/* the streams a worker may fill, a ring of `count` places */
	size_t *queue;
	size_t queue_head, queue_len;
	pthread_cond_t work;     /* workers: a slot came free */
	pthread_cond_t done;     /* the caller: a batch was filled */
	size_t workers_asleep;   /* on `work` */
	size_t caller_asleep;    /* on `done`: 0 or 1 */
	atomic_uint changes;     /* counts slots filled and freed */
	bool quit;
	bool alone;              /* the caller fills every batch (see above) */
	pthread_t *workers;
	size_t worker_count;
	/* the caller's timing, without the lock */
	struct {
		uint64_t start_ns;       /* of the epoch; 0 before the first */
		size_t messages;
		unsigned epoch;          /* epochs since the last try */
		unsigned probe_every;
		bool probing;
		double cost[2];          /* ns per message, with workers and alone */
	} timing;
};

static bool can_prefetch(const pf_stream *s)
{
	return s->it->ops->fill != NULL;
}

/* With the lock: waits until another thread reports a change with
 * note_change(), watching for it a while before sleeping on COND. */
static void wait_for_change(tc_prefetch *p, pthread_cond_t *cond, size_t *asleep)
{
	unsigned seen = atomic_load_explicit(&p->changes, memory_order_relaxed);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < PF_SPINS && atomic_load_explicit(&p->changes, memory_order_relaxed) == seen; i++)
		sched_yield();
	pthread_mutex_lock(&p->lock);
	if (atomic_load_explicit(&p->changes, memory_order_relaxed) == seen && !p->quit) {
		(*asleep)++;
		pthread_cond_wait(cond, &p->lock);
		(*asleep)--;
	}
}

/* With the lock: tells the threads waiting on COND that something changed. */
static void note_change(tc_prefetch *p, pthread_cond_t *cond, size_t asleep)
{
	atomic_fetch_add_explicit(&p->changes, 1, memory_order_relaxed);
	if (asleep)
		pthread_cond_signal(cond);
}

/* Fills SLOT of S on the calling thread, without the lock. */
static void fill_slot(tc_prefetch *p, pf_stream *s, pf_slot *slot)
{
	tc_batch *b = &slot->batch;
	if (!b->msgs) {
		b->cap = p->batch_cap;
		b->msgs = malloc(b->cap * sizeof *b->msgs);
		if (!b->msgs) {
			slot->rc = tc_fail_nomem();
			s->error = *tc_error_last();
			return;
		}
	}
	slot->rc = s->it->ops->fill(s->it, b);
	if (slot->rc < 0)
		s->error = *tc_error_last();
}

/* With the lock: fills the next slot of S, dropping the lock meanwhile. */
static void fill_next(tc_prefetch *p, pf_stream *s)
{
	pf_slot *slot = &s->slots[(s->head + s->ready) % PF_SLOTS];
	s->filling = true;
	pthread_mutex_unlock(&p->lock);
	fill_slot(p, s, slot);
	pthread_mutex_lock(&p->lock);
	s->filling = false;
	s->ready++;
	if (slot->rc <= 0)
		s->produced_last = true;
	note_change(p, &p->done, p->caller_asleep);
}

/* With the lock: whether a batch of S may be filled ahead now. */
static bool wants_fill(const pf_stream *s)
{
	return can_prefetch(s) && !s->filling && !s->produced_last && s->ready + s->held < PF_SLOTS;
}

/* With the lock: puts S at the back of the queue if it wants a fill and
 * is not there yet. */
static void enqueue(tc_prefetch *p, pf_stream *s)
{
	if (s->queued || p->alone || !wants_fill(s))
		return;
	p->queue[(p->queue_head + p->queue_len++) % p->count] = (size_t)(s - p->streams);
	s->queued = true;
}

static void *worker_run(void *arg)
{
	tc_prefetch *p = arg;
	pthread_mutex_lock(&p->lock);
	while (!p->quit) {
		if (p->queue_len == 0) {
			wait_for_change(p, &p->work, &p->workers_asleep);
			continue;
		}
		pf_stream *s = &p->streams[p->queue[p->queue_head]];
		p->queue_head = (p->queue_head + 1) % p->count;
		p->queue_len--;
		s->queued = false;
		if (wants_fill(s)) {
			fill_next(p, s);
			enqueue(p, s);
		}
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int tc_prefetch_new(tc_prefetch **out, tc_stream_iter *const *iters, size_t count, unsigned threads, size_t batch_cap)
{
	tc_prefetch *p = calloc(1, sizeof *p);
	if (!p || !(p->streams = calloc(count ? count : 1, sizeof *p->streams)) ||
	    !(p->queue = calloc(count ? count : 1, sizeof *p->queue))) {
		if (p)
			free(p->streams);
		free(p);
		return tc_fail_nomem();
	}
	p->count = count;
	/* the first try comes sooner: a short read gains most from it */
	p->timing.probe_every = PF_PROBE_MIN;
	p->timing.epoch = PF_PROBE_MIN / 2;
	atomic_init(&p->changes, 0);
	for (size_t i = 0; i < count; i++)
		p->streams[i].it = iters[i];
	size_t cap = PF_MESSAGES_IN_FLIGHT / (count ? count : 1);
	p->batch_cap = batch_cap ? batch_cap : cap > PF_BATCH_MAX ? PF_BATCH_MAX : cap < PF_BATCH_MIN ? PF_BATCH_MIN : cap;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	for (size_t i = 0; i < count; i++)
		enqueue(p, &p->streams[i]);
	if (threads > 1 && p->queue_len && (p->workers = calloc(threads - 1, sizeof *p->workers))) {
		/* Fewer workers than asked for is still correct: the caller
		 * fills what they do not. */
		while (p->worker_count < threads - 1 &&
		       pthread_create(&p->workers[p->worker_count], NULL, worker_run, p) == 0)
			p->worker_count++;
	}
	*out = p;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void tc_prefetch_set_alone(tc_prefetch *p, bool alone)
{
	pthread_mutex_lock(&p->lock);
	p->alone = alone;
	if (!alone) {
		for (size_t i = 0; i < p->count; i++)
			enqueue(p, &p->streams[i]);
		/* every worker: several streams may want a fill now */
		note_change(p, &p->work, 0);
		if (p->workers_asleep)
			pthread_cond_broadcast(&p->work);
	}
	pthread_mutex_unlock(&p->lock);
}

/* Counts a batch of N messages handed to the caller; at the end of an
 * epoch, records how fast it went and picks the next epoch's way. */
static void time_batch(tc_prefetch *p, size_t n)
{
	if (!p->worker_count)
		return;
	uint64_t now = now_ns();
	if (!p->timing.start_ns)
		p->timing.start_ns = now + PF_SETTLE_NS;   /* starting up */
	if (now < p->timing.start_ns)
		return;
	p->timing.messages += n;
	if (now - p->timing.start_ns < PF_EPOCH_NS)
		return;
	bool was_alone = p->alone;
	double cost = (double)(now - p->timing.start_ns) / (double)p->timing.messages;
	p->timing.cost[was_alone] = cost;
	p->timing.start_ns = now;
	p->timing.messages = 0;
	bool alone = was_alone;
	if (p->timing.probing) {
		/* the try is over: keep the faster way */
		p->timing.probing = false;
		alone = p->timing.cost[1] < p->timing.cost[0];
		if (alone == was_alone)
			p->timing.probe_every = PF_PROBE_MIN;
		else if (cost > 1.5 * p->timing.cost[alone] && p->timing.probe_every < PF_PROBE_MAX)
			p->timing.probe_every *= 2;
	} else if (++p->timing.epoch >= p->timing.probe_every) {
		p->timing.epoch = 0;
		p->timing.probing = true;
		alone = !was_alone;
	}
	if (alone != was_alone) {
		tc_prefetch_set_alone(p, alone);
		p->timing.start_ns = now + PF_SETTLE_NS;
	}
}

/* The next message of S, whose iterator has no fill, as a batch of one:
 * no worker ever reads such a stream, so neither does the lock. */
static int next_alone(pf_stream *s, const tc_batch **out)
{
	tc_batch *b = &s->slots[0].batch;
	if (!b->msgs) {
		if (!(b->msgs = malloc(sizeof *b->msgs)))
			return tc_fail_nomem();
		b->cap = 1;
	}
	int rc = s->it->ops->next(s->it, &b->msgs[0]);
	b->count = rc > 0;
	*out = b;
	return rc;
}

int tc_prefetch_next(tc_prefetch *p, size_t i, const tc_batch **out)
{
	pf_stream *s = &p->streams[i];
	if (!can_prefetch(s))
		return next_alone(s, out);
	if (s->held) {
		/* The slot is the caller's alone until it says otherwise. */
		pf_slot *slot = &s->slots[(s->head + PF_SLOTS - 1) % PF_SLOTS];
		s->it->ops->release(s->it, &slot->batch);
	}
	if (s->finished) {
		/* The slot read last says how the stream ended. */
		int rc = s->slots[(s->head + PF_SLOTS - 1) % PF_SLOTS].rc;
		if (rc < 0)
			tc_error_restore(&s->error);
		return rc;
	}
	pthread_mutex_lock(&p->lock);
	if (s->held) {
		s->held = false;
		enqueue(p, s);
		note_change(p, &p->work, p->workers_asleep);
	}
	while (s->ready == 0) {
		if (!s->filling) {
			fill_next(p, s);
		} else {
			wait_for_change(p, &p->done, &p->caller_asleep);
		}
	}
	pf_slot *slot = &s->slots[s->head];
	s->head = (s->head + 1) % PF_SLOTS;
	s->ready--;
	s->held = slot->rc > 0;
	/* With the lock: workers read the flags beside it. */
	s->finished = slot->rc <= 0;
	pthread_mutex_unlock(&p->lock);
	if (slot->rc <= 0) {
		if (slot->rc < 0)
			tc_error_restore(&s->error);
		return slot->rc;
	}
	time_batch(p, slot->batch.count);
	*out = &slot->batch;
	return 1;
}

void tc_prefetch_free(tc_prefetch *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	atomic_fetch_add_explicit(&p->changes, 1, memory_order_relaxed);
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (size_t i = 0; i < p->worker_count; i++)
		pthread_join(p->workers[i], NULL);
	free(p->workers);
	for (size_t i = 0; i < p->count; i++) {
		pf_stream *s = &p->streams[i];
		const tc_stream_iter_ops *ops = s->it->ops;
		/* The held batch and those waiting still point into the reader's
		 * data: release them before their storage goes. */
		unsigned alive = s->ready + s->held;
		for (unsigned k = 0; k < alive; k++) {
			pf_slot *slot = &s->slots[(s->head + PF_SLOTS - s->held + k) % PF_SLOTS];
			if (ops->fill && slot->rc > 0)
				ops->release(s->it, &slot->batch);
		}
		for (unsigned k = 0; k < PF_SLOTS; k++) {
			if (ops->fill && s->slots[k].batch.store)
				ops->free_store(s->slots[k].batch.store);
			free(s->slots[k].batch.msgs);
		}
	}
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	free(p->queue);
	free(p->streams);
	free(p);
}
