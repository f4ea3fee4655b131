/* SPDX-License-Identifier: MIT */
/*
 * values_wanted_test.c - tc_input_want_values: events whose values nobody
 * wants are read as fully as the others.  A CTF 1.8 trace is written to a
 * temporary folder with a fixed-layout event class (which the decoder can
 * pass over without building fields) and one whose sequence takes its
 * length from the event header (which needs the header's fields, so the
 * header passed over must be decoded again).  Read wanting every value,
 * none, or one class's, each message must show the same class and time,
 * the wanted classes the same text, the unwanted fixed-layout class no
 * fields; a copy cut inside its last event must fail with the same error
 * after the same messages.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char metadata[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"clock { name = \"c\"; freq = 1000000000; offset = 0; };\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := clk64_t;\n"
	"trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint32_t magic; }; };\n"
	"stream { event.header := struct { uint8_t id; uint8_t len; clk64_t ts; }; };\n"
	"event { name = \"fixed\"; id = 0; fields := struct { uint32_t a; string s; }; };\n"
	"event { name = \"byhdr\"; id = 1; fields := struct { uint8_t v[stream.event.header.len]; }; };\n";

#define EVENTS 3000
#define SEED 0x2545F4914F6CDD1Du   /* the whole trace's and the cut one's */

static uint64_t rng;

static void put_le(FILE *f, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		fputc((int)(v >> (8 * i)) & 0xff, f);
}

/* The trace in DIR, its stream cut CUT bytes short; 0 or -1. */
static int write_trace(const char *dir, size_t cut)
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
	char *bytes;
	size_t len;
	f = open_memstream(&bytes, &len);
	put_le(f, 0xc1fc1fc1, 4);
	uint64_t ts = 1000;
	for (int n = 0; n < EVENTS; n++) {
		bool fixed = check_random(&rng) % 3 != 0;
		unsigned seq_len = (unsigned)(check_random(&rng) % 9);
		ts += check_random(&rng) % 5000;
		put_le(f, fixed ? 0 : 1, 1);
		put_le(f, seq_len, 1);
		put_le(f, ts, 8);
		if (fixed) {
			put_le(f, check_random(&rng), 4);
			fprintf(f, "s%u", (unsigned)(check_random(&rng) % 1000));
			fputc(0, f);
		} else {
			for (unsigned i = 0; i < seq_len; i++)
				put_le(f, check_random(&rng), 1);
		}
	}
	fclose(f);
	snprintf(path, sizeof path, "%s/stream_0", dir);
	FILE *out = fopen(path, "w");
	int rc = out && fwrite(bytes, 1, len - cut, out) == len - cut ? 0 : -1;
	if (out)
		fclose(out);
	free(bytes);
	return rc;
}

typedef struct wanted_set {
	bool fixed, byhdr;
} wanted_set;

static bool wants(void *ctx, const tc_event_class *ec)
{
	const wanted_set *w = ctx;
	return strcmp(ec->name, "fixed") == 0 ? w->fixed : w->byhdr;
}

static bool is_wanted(const wanted_set *w, const tc_message *m)
{
	return wants((void *)w, m->event_class);
}

/* What reading DIR shows of the classes in SHOWN: the text of their events,
 * the class and time of the others; then the error.  ASK says what the
 * input is told it wants (NULL: nothing).  *UNBUILT counts unwanted
 * fixed-layout events whose fields were left unbuilt. */
static char *read_text(const char *dir, const wanted_set *shown, const wanted_set *ask, int *unbuilt)
{
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	tc_text_options o;
	tc_text_options_default(&o);
	o.clock_gmt = true;
	tc_text_printer *printer = NULL;
	tc_input *in = NULL;
	*unbuilt = 0;
	if (tc_input_open(&in, dir, NULL) < 0 || (ask && tc_input_want_values(in, wants, (void *)ask) < 0) ||
	    tc_text_printer_new(&printer, &o, f, f) < 0) {
		fprintf(f, "ERROR opening\n");
	} else {
		const tc_message *m;
		int rc;
		while ((rc = tc_input_next(in, &m)) > 0) {
			if (m->kind != TC_MSG_EVENT || is_wanted(shown, m)) {
				tc_text_printer_print(printer, m);
				continue;
			}
			tc_text_printer_flush(printer);
			fprintf(f, "%s at %lld.%09u\n", m->event_class->name, (long long)m->time.sec, m->time.nsec);
			if (strcmp(m->event_class->name, "fixed") == 0 && !m->payload)
				++*unbuilt;
		}
		tc_text_printer_flush(printer);
		if (rc < 0) {
			char line[600];
			tc_error_format(tc_error_last(), line, sizeof line);
			fprintf(f, "ERROR %s\n", line);
		}
	}
	tc_text_printer_free(printer);
	tc_input_free(in);
	fclose(f);
	return text;
}

static void compare(const char *dir, const char *name, wanted_set ask, bool cut)
{
	int unbuilt, reference_unbuilt;
	char *reference = read_text(dir, &ask, NULL, &reference_unbuilt);
	char *text = read_text(dir, &ask, &ask, &unbuilt);
	char check_name[100];
	snprintf(check_name, sizeof check_name, "%s_same_as_all_values", name);
	size_t at = 0;
	while (reference[at] && reference[at] == text[at])
		at++;
	check(strcmp(reference, text) == 0 && !strstr(text, "ERROR opening"), check_name, "differs at byte %zu: \"%.60s\" against \"%.60s\"", at,
	      reference + at, text + at);
	snprintf(check_name, sizeof check_name, "%s_fixed_fields_%s", name, ask.fixed ? "built" : "left_unbuilt");
	check(ask.fixed ? unbuilt == 0 : unbuilt > EVENTS / 2, check_name, "%d fixed-layout events unbuilt", unbuilt);
	if (cut) {
		snprintf(check_name, sizeof check_name, "%s_error_found", name);
		check(strstr(text, "ERROR") != NULL, check_name, "no error reading a cut stream");
	}
	free(reference);
	free(text);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	char tmp[] = "/tmp/tc-values-XXXXXX", whole[600], cut[600];
	if (!mkdtemp(tmp)) {
		check(false, "temporary_folder", "mkdtemp failed");
		return 1;
	}
	snprintf(whole, sizeof whole, "%s/whole", tmp);
	snprintf(cut, sizeof cut, "%s/cut", tmp);
	rng = SEED;
	bool written = write_trace(whole, 0) == 0;
	rng = SEED;
	written = written && write_trace(cut, 3) == 0;
	check(written, "traces_written", "in %s", tmp);
	const struct {
		const char *name;
		wanted_set ask;
	} modes[] = {
		{ "no_values", { false, false } },
		{ "fixed_values", { true, false } },
		{ "header_length_values", { false, true } },
		{ "all_values", { true, true } },
	};
	for (size_t i = 0; written && i < sizeof modes / sizeof modes[0]; i++) {
		char name[80];
		compare(whole, modes[i].name, modes[i].ask, false);
		snprintf(name, sizeof name, "cut_%s", modes[i].name);
		compare(cut, name, modes[i].ask, true);
	}
	char command[700];
	snprintf(command, sizeof command, "rm -rf '%s'", tmp);
	if (system(command) != 0)
		check(false, "cleanup", "%s", command);
	return n_fail ? 1 : 0;
}
