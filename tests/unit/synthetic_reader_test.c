/* SPDX-License-Identifier: MIT */
/*
 * synthetic_reader_test.c - proof that the writers need nothing but the
 * model (include/tracecat.h): a reader of a made-up text format, "synth",
 * built here outside the library, fills a tc_trace (a clock that says
 * which system clock it is, a task table, an event whose payload has a
 * sequence and a variant with resolved tc_field_path references) and
 * hands its messages to the public writers: CTF 1.8, CTF 2, Perfetto and
 * Chrome JSON.  The CTF results are read back with tracecat (and the CTF
 * 1.8 one printed by babeltrace2 when installed); the timelines must name
 * the tasks and hold the values.
 *
 * The format, one record a line:
 *   task TID NAME                the task table
 *   ev CYCLES TID V,V,... i:N    an event: its values, then the variant's
 *   ev CYCLES TID V,V,... s:TEXT option (an integer or a text)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static const char synth[] = "task 101 worker-a\n"
                            "task 102 worker-b\n"
                            "ev 1000 101 1,2,3 i:42\n"
                            "ev 2500 102 7 s:hello\n"
                            "ev 4000 101  i:-5\n";

#define MAX_EVENTS 8
#define MAX_VALUES 8

/* ---- the reader ---- */

static tc_clock clock_ = { .name = "monotonic", .freq = 1000000000, .offset_s = 1700000000,
                           .origin_is_unix_epoch = true, .system = TC_CLOCK_MONOTONIC };
static tc_clock *clocks[] = { &clock_ };
static tc_enum_range r_int = { 0, 0 }, r_str = { 1, 1 };
static tc_enum_label sel_labels[] = { { "num", &r_int, 1, 0 }, { "text", &r_str, 1, 0 } };
static tc_field_class u32 = { .kind = TC_FIELD_INT, .align = 8, .size = 32, .base = 10 };
static tc_field_class s64 = { .kind = TC_FIELD_INT, .align = 8, .size = 64, .is_signed = true, .base = 10 };
static tc_field_class str = { .kind = TC_FIELD_STRING, .align = 8 };
static tc_field_class sel = { .kind = TC_FIELD_ENUM, .align = 8, .size = 8, .base = 10, .labels = sel_labels,
                              .label_count = 2 };
static const uint16_t to_n[] = { 1 }, to_sel[] = { 3 };
static tc_field_class vals = { .kind = TC_FIELD_SEQUENCE, .align = 8, .element = &u32, .length_ref = "n",
                               .ref = { TC_SCOPE_PAYLOAD, to_n, 1, &u32 } };
static tc_member options[] = { { "num", "num", &s64 }, { "text", "text", &str } };
/* a variant without labels: the option named as the selector's label */
static tc_field_class pick = { .kind = TC_FIELD_VARIANT, .align = 8, .members = options, .member_count = 2,
                               .tag_ref = "sel", .ref = { TC_SCOPE_PAYLOAD, to_sel, 1, &sel } };
static tc_member members[] = { { "tid", "tid", &u32 }, { "n", "n", &u32 }, { "vals", "vals", &vals },
                               { "sel", "sel", &sel }, { "pick", "pick", &pick } };
static tc_field_class payload = { .kind = TC_FIELD_STRUCT, .align = 8, .members = members, .member_count = 5 };
static tc_member ctx_members[] = { { "cpu_id", "cpu_id", &u32 } };
static tc_field_class packet_context = { .kind = TC_FIELD_STRUCT, .align = 8, .members = ctx_members, .member_count = 1 };
static tc_event_class sample = { .id = 0, .name = "synth:sample", .loglevel = -1, .payload = &payload };
static tc_event_class *event_classes[] = { &sample };
static tc_stream_class stream_class = { .clock = &clock_, .packet_context = &packet_context,
                                        .event_classes = event_classes, .event_class_count = 1 };
static tc_stream_class *stream_classes[] = { &stream_class };
static tc_stream stream = { .stream_class = &stream_class, .name = "synth", .cpu = 0 };
static tc_stream *streams[] = { &stream };
static tc_task tasks[2];
static tc_env_entry env[] = { { TC_ENV_HOSTNAME, false, 0, "synth-host" }, { TC_ENV_DOMAIN, false, 0, "kernel" } };
static tc_trace trace = { .name = "synth", .path = "synth", .dir_in_input = "", .domain = TC_DOMAIN_KERNEL,
                          .env = env, .env_count = 2, .clocks = clocks, .clock_count = 1,
                          .stream_classes = stream_classes, .stream_class_count = 1, .streams = streams,
                          .stream_count = 1, .tasks = tasks };

typedef struct synth_event {
	tc_message msg;
	tc_field root, items[5], values[MAX_VALUES], option, cpu, cpu_items[1];
	char text[32];
} synth_event;

static synth_event events[MAX_EVENTS];
static size_t event_count;

static void read_synth(void)
{
	stream_class.trace = stream.trace = &trace;
	sample.stream_class = &stream_class;
	char line[128];
	FILE *f = fmemopen((void *)synth, sizeof synth - 1, "r");
	while (f && fgets(line, sizeof line, f)) {
		char name[32], list[64] = "", choice[32];
		unsigned long long cycles;
		unsigned tid;
		if (sscanf(line, "task %u %31s", &tid, name) == 2) {
			tc_task *t = &tasks[trace.task_count++];
			*t = (tc_task){ .tid = tid, .pid = tid, .name = strdup(name) };
			continue;
		}
		if (sscanf(line, "ev %llu %u %63[0-9,] %31s", &cycles, &tid, list, choice) != 4 &&
		    sscanf(line, "ev %llu %u %31s", &cycles, &tid, choice) != 3)
			continue;
		synth_event *e = &events[event_count++];
		size_t n = 0;
		for (char *p = strtok(list, ","); p && n < MAX_VALUES; p = strtok(NULL, ","))
			e->values[n++] = (tc_field){ .cls = &u32, .v.u = strtoull(p, NULL, 10) };
		bool is_int = choice[0] == 'i';
		snprintf(e->text, sizeof e->text, "%s", choice + 2);
		e->option = is_int ? (tc_field){ .cls = &s64, .v.s = strtoll(e->text, NULL, 10) }
		                   : (tc_field){ .cls = &str, .v.str = { e->text, strlen(e->text) } };
		e->items[0] = (tc_field){ .cls = &u32, .v.u = tid };
		e->items[1] = (tc_field){ .cls = &u32, .v.u = n };
		e->items[2] = (tc_field){ .cls = &vals, .v.compound = { e->values, n } };
		e->items[3] = (tc_field){ .cls = &sel, .v.u = is_int ? 0 : 1 };
		e->items[4] = (tc_field){ .cls = &pick, .v.compound = { &e->option, 1 }, .option = is_int ? 0 : 1 };
		e->root = (tc_field){ .cls = &payload, .v.compound = { e->items, 5 } };
		e->cpu_items[0] = (tc_field){ .cls = &u32, .v.u = 0 };
		e->cpu = (tc_field){ .cls = &packet_context, .v.compound = { e->cpu_items, 1 } };
		e->msg = (tc_message){ .kind = TC_MSG_EVENT, .stream = &stream, .has_time = true, .cycles = cycles,
		                       .event_class = &sample, .packet_context = &e->cpu, .payload = &e->root };
		tc_clock_cycles_to_time(&clock_, cycles, &e->msg.time);
	}
	if (f)
		fclose(f);
}

/* ---- the writers, and what the outputs say ---- */

/* What `tracecat print` would show of the trace in DIR, as babeltrace2. */
static char *print_back(const char *dir, const tc_trace **out_trace, tc_input **in)
{
	char *text = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&text, &len);
	tc_text_options opts;
	tc_text_options_default(&opts);
	opts.clock_gmt = opts.clock_date = true;
	opts.field_hostname = false;
	tc_text_printer *p = NULL;
	const tc_message *msg;
	if (tc_input_open(in, dir, NULL) == 0 && tc_text_printer_new(&p, &opts, o, o) == 0)
		while (tc_input_next(*in, &msg) > 0)
			tc_text_printer_print(p, msg);
	tc_text_printer_free(p);
	fclose(o);
	*out_trace = *in ? tc_input_trace(*in, 0) : NULL;
	return text;
}

/* Whether TEXT, babeltrace2's text, has the events as the reader gave them. */
static bool has_events(const char *text)
{
	static const char *const lines[] = {
		"synth:sample: { cpu_id = 0 }, { tid = 101, n = 3, vals = [ [0] = 1, [1] = 2, [2] = 3 ], "
		"sel = ( \"num\" : container = 0 ), pick = { 42 } }\n",
		"synth:sample: { cpu_id = 0 }, { tid = 102, n = 1, vals = [ [0] = 7 ], "
		"sel = ( \"text\" : container = 1 ), pick = { \"hello\" } }\n",
		"synth:sample: { cpu_id = 0 }, { tid = 101, n = 0, vals = [ ], "
		"sel = ( \"num\" : container = 0 ), pick = { -5 } }\n",
	};
	for (size_t i = 0; i < 3; i++)
		if (!strstr(text, lines[i]))
			return false;
	return true;
}

static void check_ctf(const char *tmp, int version)
{
	char dir[4200], name[64];
	snprintf(dir, sizeof dir, "%s/ctf%d", tmp, version);
	tc_ctf_writer_options o = { .ctf_version = version };
	tc_ctf_writer *w = NULL;
	tc_trace *list[] = { &trace };
	int rc = mkdir(dir, 0755) == 0 ? tc_ctf_writer_new(&w, dir, list, 1, &o) : TC_EIO;
	for (size_t i = 0; rc == 0 && i < event_count; i++)
		rc = tc_ctf_writer_write(w, &events[i].msg);
	if (rc == 0)
		rc = tc_ctf_writer_finish(w);
	tc_ctf_writer_free(w);
	snprintf(name, sizeof name, "ctf%d/write", version);
	check(rc == 0, name, "%s", tc_error_last()->message);
	tc_input *in = NULL;
	const tc_trace *t;
	char *text = print_back(dir, &t, &in);
	snprintf(name, sizeof name, "ctf%d/clock", version);
	check(t && t->clock_count == 1 && strcmp(t->clocks[0]->name, "monotonic") == 0 &&
	      t->clocks[0]->system == TC_CLOCK_MONOTONIC && t->clocks[0]->offset_s == 1700000000,
	      name, "the clock read back differs");
	snprintf(name, sizeof name, "ctf%d/values", version);
	check(text && strstr(text, "[2023-11-14 22:13:20.000001000] ") && has_events(text), name, "read back:\n%s",
	      text ? text : "(nothing)");
	free(text);
	tc_input_free(in);
	if (version != 1)
		return; /* Debian 12's babeltrace2 2.0 reads CTF 1.8 only */
	char cmd[4400], out[4096] = "";
	snprintf(cmd, sizeof cmd, "command -v babeltrace2 >/dev/null && babeltrace2 '%s' 2>&1", dir);
	FILE *p = popen(cmd, "r");
	size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
	out[n] = 0;
	if (!p || pclose(p) != 0 || !n) {
		printf("SKIP ctf1/babeltrace2: babeltrace2 is not installed or failed: %s\n", out);
		return;
	}
	check(has_events(out), "ctf1/babeltrace2", "babeltrace2 printed:\n%s", out);
}

/* The timeline file of FORMAT, malloc'ed (*LEN bytes). */
static char *timeline(const char *tmp, tc_timeline_format format, size_t *len)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/out.%d", tmp, (int)format);
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);
	tc_timeline_writer *w = NULL;
	tc_trace *list[] = { &trace };
	int rc = fd >= 0 ? tc_timeline_writer_new(&w, format, fd, path, list, 1) : TC_EIO;
	for (size_t i = 0; rc == 0 && i < event_count; i++)
		rc = tc_timeline_writer_write(w, &events[i].msg);
	if (rc == 0)
		rc = tc_timeline_writer_finish(w);
	tc_timeline_writer_free(w);
	char *data = calloc(1, 1 << 16);
	*len = fd >= 0 && rc == 0 ? (size_t)pread(fd, data, (1 << 16) - 1, 0) : 0;
	if (fd >= 0)
		close(fd);
	return data;
}

static bool contains(const char *data, size_t len, const char *s)
{
	return memmem(data, len, s, strlen(s)) != NULL;
}

int main(void)
{
	read_synth();
	char tmp[] = "/tmp/synth-XXXXXX";
	if (!mkdtemp(tmp))
		return 1;
	check_ctf(tmp, 1);
	check_ctf(tmp, 2);
	size_t len;
	char *pf = timeline(tmp, TC_TIMELINE_PERFETTO, &len);
	check(contains(pf, len, "worker-a") && contains(pf, len, "worker-b") && contains(pf, len, "synth:sample") &&
	      contains(pf, len, "hello"), "perfetto", "the task names or values are missing (%zu bytes)", len);
	free(pf);
	char *js = timeline(tmp, TC_TIMELINE_CHROME_JSON, &len);
	check(contains(js, len, "\"name\":\"worker-a\"") && contains(js, len, "\"name\":\"worker-b\"") &&
	      contains(js, len, "\"vals\":[1,2,3]") && contains(js, len, "hello"), "json", "%s", js);
	free(js);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (getenv("SYNTH_KEEP"))
		printf("kept %s\n", tmp);
	else if (system(cmd) != 0)
		return 1;
	for (size_t i = 0; i < trace.task_count; i++)
		free(tasks[i].name);
	return n_fail ? 1 : 0;
}
