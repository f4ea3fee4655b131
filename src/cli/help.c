/* SPDX-License-Identifier: MIT */
/*
 * help.c - the text of `tracecat help [COMMAND]`, `tracecat COMMAND --help`
 * and `-h`: one entry per command, each listing every option that command
 * takes.  The man page (doc/tracecat.1) and the bash completion
 * (completion/tracecat.bash) say the same; tests/live/docs.sh checks that every
 * option shown here appears in both.
 */
#include "cli/cli.h"

#include <stdarg.h>
#include <string.h>

typedef struct command_help {
	const char *name;
	const char *summary;
	const char *text;
} command_help;

static const command_help commands[] = {
	{ "print", "print events as babeltrace2 does (the default command)",
	  "usage: tracecat print [OPTIONS] PATH...\n"
	  "       tracecat PATH...\n"
	  "Print the events of every trace found at PATH (a CTF trace directory or any\n"
	  "directory above traces, a trace.dat file, a uftrace record directory, a legacy\n"
	  "LTTng trace directory), merged by time, exactly as babeltrace2 prints them.\n"
	  "\n"
	  "Options (babeltrace2's, but -c):\n"
	  "  --clock-gmt              times of day in UTC, not local time\n"
	  "  --clock-seconds          times as seconds.nanoseconds\n"
	  "  --clock-date             show the date too\n"
	  "  --clock-cycles           times as clock cycles\n"
	  "  --clock-offset=SEC       add SEC seconds to every clock's offset\n"
	  "  --clock-offset-ns=NS     add NS nanoseconds to every clock's offset\n"
	  "  --no-delta               do not show the time since the previous event\n"
	  "  -n, --names=LIST         show field names of: payload (or args), context\n"
	  "                           (or ctx), scope, header, all, none\n"
	  "                           (default: payload,context)\n"
	  "  -f, --fields=LIST        show these instead of the default\n"
	  "                           (trace:hostname,trace:procname,trace:vpid):\n"
	  "                           trace, trace:hostname, trace:domain,\n"
	  "                           trace:procname, trace:vpid, loglevel, emf,\n"
	  "                           callsite, all\n"
	  "  -c, --color=WHEN         never, auto (default) or always\n"
	  "  --lttng-names            trace.dat with LTTng's kernel names, as convert\n"
	  "                           writes it\n"
	  "  -j, --jobs=N             decode on N threads, 1 to 256 (default: the online\n"
	  "                           CPUs); the output is the same\n"
	  "  --compat=PEER=VER[,...]  print as this release of the peer does, e.g.\n"
	  "                           babeltrace2=2.0 (default: babeltrace2=2.1; CTF 2\n"
	  "                           always as 2.1; also TRACECAT_COMPAT)\n"
	  "  -i, --input-format=FMT   every trace found must be FMT: ctf, trace.dat,\n"
	  "                           uftrace, lttng-legacy\n"
	  "  -v, --verbose            say on stderr what was read and kept; stdout\n"
	  "                           does not change\n"
	  "Filters:\n"
	  "  -b, --begin=TIME         drop events before TIME (YYYY-MM-DD HH:MM[:SS[.N]]\n"
	  "                           with a space or T, HH:MM[:SS[.N]] or\n"
	  "                           [-]SECONDS[.N])\n"
	  "  -e, --end=TIME           drop events after TIME\n"
	  "  --timerange=BEGIN,END    --begin=BEGIN --end=END; also [BEGIN,END]\n"
	  "  --stream-intersection    per trace, only the time all its streams cover\n"
	  "                           (CTF packet times, as babeltrace2)\n"
	  "  --events=PATTERN[,...]   only events whose name matches a shell pattern\n"
	  "  --cpu=LIST               only these CPUs (\"0,2-3\")\n"
	  "  -h, --help               show this help\n"
	  "  --                       every argument after it is a PATH\n" },
	{ "info", "summarise traces: environment, clocks, streams, event counts",
	  "usage: tracecat info [OPTIONS] PATH...\n"
	  "Read and check every event of the traces at PATH and summarise them: format,\n"
	  "environment, clocks, streams (with discarded events and packets) and, per\n"
	  "event class, the number of events and their first and last time.\n"
	  "\n"
	  "Options:\n"
	  "  -j, --jobs=N             decode streams on N threads (default: the online\n"
	  "                           CPUs; 1 to 256)\n"
	  "  -h, --help               show this help\n"
	  "  --                       every argument after it is a PATH\n" },
	{ "report", "print a trace.dat file as trace-cmd report does",
	  "usage: tracecat report [OPTIONS] [FILE]\n"
	  "Print a trace.dat file exactly as `trace-cmd report` does.  FILE defaults to\n"
	  "trace.dat; options come before it.\n"
	  "\n"
	  "Options (trace-cmd report's):\n"
	  "  -i FILE                  the trace.dat file to read\n"
	  "  -R                       raw format: the event fields, not the print format\n"
	  "  -t                       full nanosecond timestamps\n"
	  "  -l                       latency format: short task, CPU and the flags\n"
	  "  --ts-diff                the time since the previous line after the time\n"
	  "  -F FILTER                show the events FILTER matches (libtraceevent syntax:\n"
	  "                           sched_switch, sched/sched_switch,\n"
	  "                           'sched_switch: prev_pid == 0'); may be repeated\n"
	  "  -v                       the -F options after it hide what they match\n"
	  "  --cpu=LIST               only these CPUs (\"0\", \"0,2-3\"); may be repeated\n"
	  "  -I                       hide events with the hard-IRQ flag\n"
	  "  -S                       hide events with the soft-IRQ flag\n"
	  "  -N                       load no libtraceevent plugins\n"
	  "  -L                       load only the user's libtraceevent plugins\n"
	  "  -q                       no libtraceevent warnings\n"
	  "  -w                       wakeup latencies after sched_switch lines, and\n"
	  "                           their average, maximum and minimum at the end\n"
	  "  --profile                per task, how long its events took (scheduling,\n"
	  "                           wakeups, interrupts, ...) and their stack traces,\n"
	  "                           instead of the events (top buffer only)\n"
	  "  --ts-offset N            after -i FILE: trace-cmd's offset for later input\n"
	  "                           files; with one file the text does not change\n"
	  "Listings instead of the events (with several, the first of this list):\n"
	  "  -f                       the kallsyms functions, by address\n"
	  "  -P                       the printk formats, by address\n"
	  "  -E                       the event formats stored, as SYSTEM:NAME\n"
	  "  --first-event            each CPU's first event time\n"
	  "  --stat                   the ring buffer statistics saved at recording\n"
	  "Options of tracecat's own:\n"
	  "  -j, --jobs=N             read CPUs' pages on N threads, 1 to 256 (default:\n"
	  "                           the online CPUs); the output is the same\n"
	  "  --compat=PEER=VER[,...]  print as this release of the peer does:\n"
	  "                           trace-cmd=3.1 (Debian 12), trace-cmd=3.3 (Debian\n"
	  "                           13) or trace-cmd=3.4 (the default) (also\n"
	  "                           TRACECAT_COMPAT)\n"
	  "  -h, --help               show this help\n" },
	{ "replay", "print a uftrace record directory as uftrace replay does",
	  "usage: tracecat replay [OPTIONS] [DIR]\n"
	  "Print a uftrace record directory exactly as `uftrace replay` does.  DIR\n"
	  "defaults to uftrace.data.\n"
	  "\n"
	  "Options (uftrace's):\n"
	  "  -d, --data=DIR           the record directory (the same as DIR)\n"
	  "  -f, --output-fields=LIST\n"
	  "                           a list of duration, tid, addr, time, delta,\n"
	  "                           elapsed, task, module; +LIST for the default\n"
	  "                           ones and LIST; all or none (default:\n"
	  "                           duration,tid)\n"
	  "  --tid=TID[,TID...]       only these threads\n"
	  "  -D, --depth=N            only calls up to depth N (0: every depth)\n"
	  "  -F, --filter=FUNC        only FUNC and what it calls; may be repeated\n"
	  "  -N, --notrace=FUNC       hide FUNC and what it calls; may be repeated\n"
	  "  -H, --hide=FUNC          hide FUNC only, not what it calls; may be repeated\n"
	  "  -C, --caller-filter=FUNC only the calls leading to FUNC, shown as a leaf;\n"
	  "                           may be repeated\n"
	  "  -T, --trigger=FUNC@ACT[,ACT...]\n"
	  "                           actions on FUNC: depth=N, time=T, size=N, filter,\n"
	  "                           notrace, caller, hide, trace, trace_on, trace_off\n"
	  "  --match=regex|glob       how FUNC patterns match (default: regex)\n"
	  "  --demangle=simple|full|no\n"
	  "                           C++ names, as shown and matched (default: simple)\n"
	  "  -t, --time-filter=TIME   hide calls shorter than TIME (100, 100ns, 1us,\n"
	  "                           2.5ms, 1s, 1m; default: the recording's\n"
	  "                           default.opts)\n"
	  "  -Z, --size-filter=SIZE   hide functions of fewer than SIZE bytes\n"
	  "  -r, --time-range=START~STOP\n"
	  "                           only records between these timestamps (as -f time\n"
	  "                           shows them; either may be left out)\n"
	  "  --no-event               hide events\n"
	  "  --no-sched               hide scheduler events\n"
	  "  --no-sched-preempt       hide the scheduler events of pre-emptions\n"
	  "  --event-full             show events outside functions too\n"
	  "  --no-args                do not show arguments and return values\n"
	  "  --no-merge               do not merge leaf functions\n"
	  "  --flat                   one numbered line per record\n"
	  "  --column-view            each task in a column of its own\n"
	  "  --column-offset=N        a column's width in levels (default: 8)\n"
	  "  --task-newline           an empty line where the task changes\n"
	  "  --color=auto|yes|no      uftrace's colours (auto: on a terminal)\n"
	  "  --no-pager               on a terminal, no pager ($PAGER, else less)\n"
	  "  -a, --auto-args          accepted; recorded arguments are always shown\n"
	  "  -E, --Event=EVENT        accepted (events are chosen when recording);\n"
	  "                           voids --no-event, as in uftrace\n"
	  "  -l, --nest-libcall       accepted (a recording option)\n"
	  "Options of tracecat's own:\n"
	  "  --compat=PEER=VER[,...]  print as this release of the peer does:\n"
	  "                           uftrace=0.19 (default; 0.17, Debian 13's, prints\n"
	  "                           the same) or uftrace=0.13 (Debian 12) (also\n"
	  "                           TRACECAT_COMPAT)\n"
	  "  -h, --help               show this help\n"
	  "  --                       the argument after it is DIR\n" },
	{ "convert", "write any input as CTF (1.8 or 2), Perfetto or Chrome JSON",
	  "usage: tracecat convert [OPTIONS] INPUT... -o OUT\n"
	  "Write every trace read from INPUT as CTF under the folder OUT, or all of them\n"
	  "merged by time as one Perfetto trace or Chrome JSON file OUT (OUT ending in\n"
	  ".pftrace, .perfetto-trace or .json, in any case, or --format; a folder name\n"
	  "has no extension or ends in .ctf).  OUT appears only once complete, and is\n"
	  "never an input, inside one or holding one.\n"
	  "\n"
	  "Options:\n"
	  "  -o, --output=OUT         where the output goes (refused if it exists); - for\n"
	  "                           standard output (needs --format json or perfetto)\n"
	  "  --format=F               ctf, perfetto or json (default: from OUT's\n"
	  "                           extension, else ctf)\n"
	  "  --ctf-version=V          1.8 (the default: Trace Compass and babeltrace 1.5\n"
	  "                           read only that) or 2\n"
	  "  --force                  replace OUT once the new one is complete, if it is\n"
	  "                           what convert writes (a file, a CTF trace folder);\n"
	  "                           never an input or a symbolic link\n"
	  "  --ftrace-names           trace.dat to CTF: keep ftrace's event and field\n"
	  "                           names (default: LTTng kernel conventions)\n"
	  "  --packet-size=N          CTF bytes per packet, 4096 to 1073741824 (default\n"
	  "                           262144)\n"
	  "  -j, --jobs=N             read and write streams on N threads, 1 to 256\n"
	  "                           (default: the online CPUs); the output is the same\n"
	  "  --clock-gmt              --begin and --end dates and times of day are in UTC\n"
	  "Filters:\n"
	  "  -b, --begin=TIME         drop events before TIME\n"
	  "  -e, --end=TIME           drop events after TIME\n"
	  "  --timerange=BEGIN,END    --begin=BEGIN --end=END; also [BEGIN,END]\n"
	  "  --events=PATTERN[,...]   only events whose name matches a shell pattern\n"
	  "  --cpu=LIST               only these CPUs (\"0,2-3\")\n"
	  "  -h, --help               show this help\n"
	  "  --                       every argument after it is an INPUT\n" },
	{ "script", "print a perf.data file as perf script does",
	  "usage: tracecat script [OPTIONS] [FILE]\n"
	  "Print a perf.data file exactly as `perf script` of perf 6.1 does, by its\n"
	  "default fields, for recordings of tracepoints.  FILE defaults to perf.data.\n"
	  "\n"
	  "Options (perf script's):\n"
	  "  -i, --input=FILE         the perf.data file to read\n"
	  "  --ns                     times with nanoseconds\n"
	  "  --show-task-events       the COMM, FORK and EXIT records too\n"
	  "  --show-mmap-events       the MMAP and MMAP2 records too\n"
	  "  -C, --cpu=LIST           only the lines of these CPUs (\"0,2-3\")\n"
	  "  -h, --help               show this help\n" },
	{ "help", "show the help of tracecat or of one command",
	  "usage: tracecat help [COMMAND]\n"
	  "Show the list of commands, or every option of COMMAND: the same as\n"
	  "`tracecat COMMAND --help`.  `tracecat help --help` shows this help.\n" },
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

void cli_help_overview(FILE *f)
{
	fputs("usage: tracecat COMMAND [OPTIONS] ARGS...\n"
	      "       tracecat [OPTIONS] PATH...  (the same as tracecat print [OPTIONS] PATH...)\n"
	      "\n"
	      "Commands:\n", f);
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		fprintf(f, "  %-9s%s\n", commands[i].name, commands[i].summary);
	fputs("\n"
	      "Options:\n"
	      "  -h, --help       show this help\n"
	      "  -V, --version    show tracecat's version\n"
	      "\n"
	      "`tracecat help COMMAND` or `tracecat COMMAND --help` lists a command's options.\n", f);
}

bool cli_help(const char *command, FILE *f)
{
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		if (!strcmp(commands[i].name, command)) {
			fputs(commands[i].text, f);
			return true;
		}
	return false;
}

bool cli_is_help_option(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fflush(stdout);
	fputs("tracecat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see tracecat help%s%s)\n", *command ? " " : "", command);
	va_end(ap);
	return 2;
}
