/* SPDX-License-Identifier: MIT */
/*
 * ctf_batch_test.c - how many field values a batch of CTF events holds
 * (stream.c): events with long arrays (LTTng-UST's 1-4 KiB byte
 * sequences, a field value each) end a batch once it holds a bounded
 * number of values, so that its fields stay in the caches and the
 * batches in flight stay small, where a batch of 256 such events once
 * held 150 MiB of values.  A CTF 1.8 trace of such events, and small
 * ones between them, is written to a temporary folder and read batch by
 * batch through the stream's iterator: every event comes out once, in
 * order, with its values, and the events of a batch but its last hold
 * fewer values than the bound.
 */
#include "check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char metadata[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"clock { name = \"c\"; freq = 1000000000; offset = 0; };\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := clk64_t;\n"
	"trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint32_t magic; }; };\n"
	"stream { event.header := struct { uint8_t id; clk64_t ts; }; };\n"
	"event { name = \"blob\"; id = 0; fields := struct { uint32_t n; uint16_t len; uint8_t data[len]; }; };\n"
	"event { name = \"small\"; id = 1; fields := struct { uint32_t n; }; };\n";

#define EVENTS 600
/* values a batch's events but its last may hold: well above what
 * stream.c allows, well below the 256 events of 1-4 Ki values a batch
 * of as many messages would hold */
#define MAX_BATCH_VALUES 32768u

static uint64_t rng = 0x2545F4914F6CDD1Du;

static void put_le(FILE *f, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

/* Event N's array length (0 for a small event) and byte I of it. */
static unsigned len_of(unsigned n)
{
	return n % 4 == 3 ? 0 : 1024 + (n * 2654435761u) % 3073;
}

static uint8_t byte_of(unsigned n, unsigned i)
{
	return (uint8_t)(n * 31 + i);
}

static int write_trace(const char *dir)
{
	char path[512];
	if (mkdir(dir, 0700) < 0)
		return -1;
	snprintf(path, sizeof path, "%s/metadata", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(metadata, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/stream_0", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	put_le(f, 0xc1fc1fc1, 4);
	uint64_t ts = 1000;
	for (unsigned n = 0; n < EVENTS; n++) {
		unsigned len = len_of(n);
		ts += check_random(&rng) % 5000;
		put_le(f, len ? 0 : 1, 1);
		put_le(f, ts, 8);
		put_le(f, n, 4);
		if (len) {
			put_le(f, len, 2);
			for (unsigned i = 0; i < len; i++)
				put_le(f, byte_of(n, i), 1);
		}
	}
	return fclose(f) == 0 ? 0 : -1;
}

/* Whether message M is event N with its values; WHY says what is not. */
static bool event_ok(const tc_message *m, unsigned n, char *why, size_t why_len)
{
	const tc_field *p = m->payload;
	unsigned len = len_of(n);
	if (m->kind != TC_MSG_EVENT || !p || p->v.compound.items[0].v.u != n ||
	    p->v.compound.count != (len ? 3u : 1u)) {
		snprintf(why, why_len, "event %u is not there", n);
		return false;
	}
	if (!len)
		return true;
	const tc_field *data = &p->v.compound.items[2];
	if (data->v.compound.count != len) {
		snprintf(why, why_len, "event %u holds %zu values, not %u", n, data->v.compound.count, len);
		return false;
	}
	for (unsigned i = 0; i < len; i++)
		if (data->v.compound.items[i].v.u != byte_of(n, i)) {
			snprintf(why, why_len, "event %u: value %u is %" PRIu64, n, i, data->v.compound.items[i].v.u);
			return false;
		}
	return true;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	char dir[] = "/tmp/tc-ctf-batch-XXXXXX";
	if (!mkdtemp(dir)) {
		check(false, "temporary_folder", "mkdtemp failed");
		return 1;
	}
	char trace[64];
	snprintf(trace, sizeof trace, "%s/t", dir);
	tc_input *in = NULL;
	int rc = write_trace(trace);
	check(rc == 0, "trace_written", "cannot write %s", trace);
	if (rc == 0)
		rc = tc_input_open(&in, trace, NULL);
	check(rc == 0 && in && in->iter_count == 1, "trace_opened", "%s", rc < 0 ? tc_error_last()->message : "not one stream");
	if (rc == 0 && in->iter_count == 1) {
		tc_stream_iter *it = in->iters[0];
		tc_message msgs[256];
		tc_batch b = { .msgs = msgs, .cap = 256 };
		unsigned next = 0;
		uint64_t most = 0;
		char why[200] = "";
		bool ok = true;
		while (ok && (rc = it->ops->fill(it, &b)) > 0) {
			uint64_t values = 0;
			for (size_t i = 0; i < b.count && ok; i++) {
				ok = event_ok(&b.msgs[i], next, why, sizeof why);
				if (i + 1 < b.count)
					values += len_of(next) + 3;
				next++;
			}
			if (values > most)
				most = values;
			it->ops->release(it, &b);
		}
		if (b.store)
			it->ops->free_store(b.store);
		check(ok && rc == 0 && next == EVENTS, "every_event_once_in_order", "%s (rc %d, %u events)", why, rc, next);
		check(most < MAX_BATCH_VALUES, "batches_bounded", "a batch's events but its last hold %" PRIu64 " values",
		      most);
	}
	tc_input_free(in);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		check(false, "cleanup", "cannot remove %s", dir);
	return n_fail ? 1 : 0;
}
