#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# citations.sh - what the code and the tests cite about a format can be
# opened by a reader of the repository:
#   - every `doc/formats/PAGE.md §N` cited under src/, include/, tools/ and
#     tests/ names a page that exists and a section that is one of its
#     headings ("## N.", "### N.N", ...); so does a bare §N in a file that
#     names exactly one such page, which it then refers to;
#   - no tracked file there or in doc/formats/ cites a specs/ folder, or a
#     section of a note by its bare name ("ctf2.md §7", "babeltrace-text
#     §8.3"): a page cited with a section must be one of doc/formats/;
#   - no tracked file at all (third-party copies aside) names a sibling
#     folder of the checkout through "..", or the absolute path of the
#     folder that holds the checkout: the clone must be the whole project.
#
# Under tests/, third-party copies (tests/third_party/), recorded traces
# (tests/corpus/) and the trace files of tests/fixtures/ are data, not
# text the project writes, and are left out; the READMEs of tests/fixtures/
# are checked.
#
# usage (from the repository root): bash tests/live/citations.sh BIN
# BIN is accepted for the protocol and not used.
#
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.  SKIP outside a
# git checkout or without python3.
set -uo pipefail
cd "$(dirname "$0")/../.."

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "SKIP citations: not a git checkout"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "SKIP citations: python3 is not installed"
	exit 0
fi

# What the checks read: the project's own text, data left out (see above),
# and this script, which names the patterns it looks for, left out too.
mapfile -t scope < <(
	git ls-files -- src include tools doc/formats tests ':!tests/third_party' \
		':!tests/corpus' ':!tests/fixtures' ':!tests/live/citations.sh'
	git ls-files -- 'tests/fixtures/*.md')

out=$(git grep -nE '(^|[^[:alnum:]_])specs/' -- "${scope[@]}")
# The folder holding the checkout, as the files would name it (none to
# look for when the checkout sits at the top of the file system).
parent=$(dirname "$PWD")
[ "$parent" = / ] && parent='' || parent=$parent/
out+=$(git grep -n -e '\.\./shared' -- . ':!tests/third_party')
# Only where a path starts: a parent such as /src/ also ends other paths
# ("plugins/ctf/common/src/" in babeltrace2's messages).
parent_re=$(printf '%s' "$parent" | sed 's/[][\.*^$+?(){}|]/\\&/g')
[ -n "$parent" ] && out+=$(git grep -n -E -e "(^|[^[:alnum:]_./-])$parent_re" -- . ':!tests/third_party')
if [ -n "$out" ]; then
	echo "FAIL citations/outside-paths: $(echo "$out" | head -3 | tr '\n' ' ' | head -c 300)"
else
	echo "PASS citations/outside-paths"
fi

# A page named with a section that is not under doc/formats/: a ".md"
# name not preceded by doc/formats/, or a note's name without its ".md".
out=$(git grep -nE '(^|[^/[:alnum:]_.-])[[:alnum:]_-]+\.md`?[[:space:]]*(§|[0-9])|(^|[^/[:alnum:]_.-])(ctf2|babeltrace-text|lttng-conventions|trace-dat)[[:space:]]+§' -- "${scope[@]}")
if [ -n "$out" ]; then
	echo "FAIL citations/note-names: $(echo "$out" | head -3 | tr '\n' ' ' | head -c 300)"
else
	echo "PASS citations/note-names"
fi

# doc/formats/ itself is read for its headings, not checked as a citer.
printf '%s\0' "${scope[@]}" | grep -zv '^doc/formats/' | python3 -c '
import re, sys, os
files = [f for f in sys.stdin.read().split("\0") if f]
heads = {}
def sections(page):
    if page not in heads:
        got = set()
        path = "doc/formats/" + page + ".md"
        if os.path.exists(path):
            for line in open(path, encoding="utf-8"):
                m = re.match(r"#{2,6} ([0-9]+(?:\.[0-9]+)*)\.? ", line)
                if m:
                    got.add(m.group(1))
        heads[page] = got if os.path.exists(path) else None
    return heads[page]
# "doc/formats/X.md", then comment continuation, then a list of sections
cite = re.compile(r"doc/formats/([A-Za-z0-9_-]+)\.md((?:[\s*/`]*(?:§[0-9.]*[0-9](?:-§?[0-9.]*[0-9])?)(?:,| and)?)*)")
sec = re.compile(r"§([0-9]+(?:\.[0-9]+)*)(?:-§?([0-9]+(?:\.[0-9]+)*))?")
bad, count = [], 0
for f in files:
    try:
        text = open(f, encoding="utf-8").read()
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    pages = set()
    spans = []
    for m in cite.finditer(text):
        page = m.group(1)
        pages.add(page)
        spans.append((m.start(), m.end()))
        got = sections(page)
        line = text.count("\n", 0, m.start()) + 1
        if got is None:
            bad.append("%s:%d: doc/formats/%s.md does not exist" % (f, line, page))
            continue
        for s in sec.finditer(m.group(2)):
            for n in s.groups():
                if n:
                    count += 1
                    if n not in got:
                        bad.append("%s:%d: doc/formats/%s.md has no section %s" % (f, line, page, n))
    if len(pages) != 1:
        continue
    page = pages.pop()
    got = sections(page) or set()
    for s in sec.finditer(text):
        if any(a <= s.start() < b for a, b in spans):
            continue
        # CTF 1.8 and the other specifications keep their own numbers
        before = text[max(0, s.start() - 40):s.start()]
        if re.search(r"(CTF 1\.8|CTF2-[A-Z]+-[0-9.]+|RFC [0-9]+)[^()\n]*$", before):
            continue
        line = text.count("\n", 0, s.start()) + 1
        for n in s.groups():
            if n:
                count += 1
                if n not in got:
                    bad.append("%s:%d: doc/formats/%s.md has no section %s (bare §)" % (f, line, page, n))
if bad:
    print("FAIL citations/sections: " + "; ".join(bad)[:300])
    sys.exit(0)
print("PASS citations/sections (%d cited)" % count)
'
