#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# licence.sh - the project's licence where a packager looks for it: LICENSE
# at the top, and an SPDX-License-Identifier line in the first three lines
# of every source, header, script and build file the project wrote (C, shell,
# Python, the Makefile, CI, completion, man page, pkg-config template).
# Data (tests/fixtures/, tests/corpus/, whose traced programs stay as they
# were recorded, fuzz regressions) and third-party files (a folder holding
# its own LICENSE or COPYING under tests/) keep what they have.
#
# usage (from the repository root): bash tests/live/licence.sh BIN
#
# Protocol of tests/run.sh: PASS/FAIL/SKIP lines, exit 0.  SKIP only outside
# a git checkout (an unpacked release has no file list to go by).
set -uo pipefail
cd "$(dirname "$0")/../.."

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "SKIP licence: not a git checkout"
	exit 0
fi
if grep -q '^MIT License' LICENSE 2>/dev/null; then
	echo "PASS licence/LICENSE"
else
	echo "FAIL licence/LICENSE: no MIT licence text in LICENSE"
fi

# Folders of third-party files: those holding their upstream licence.
third_party=$(git ls-files -- 'tests/**/LICENSE*' 'tests/**/COPYING*' | xargs -r -n1 dirname | sort -u)

missing=()
while IFS= read -r f; do
	case $f in
	tests/fixtures/* | tests/corpus/* | tests/fuzz/regressions/*) continue ;;
	*.c | *.h | *.sh | *.py | *.bash | *.cjs | *.mjs | *.js | *.1 | *.pc.in | Makefile | .ci/run | .gitignore) ;;
	*) continue ;;
	esac
	for d in $third_party; do
		case $f in "$d"/*) continue 2 ;; esac
	done
	head -n 3 -- "$f" | grep -q 'SPDX-License-Identifier: ' || missing+=("$f")
done < <(git ls-files)
if [ ${#missing[@]} -eq 0 ]; then
	echo "PASS licence/spdx-lines"
else
	echo "FAIL licence/spdx-lines: no SPDX-License-Identifier line in ${#missing[@]} files: ${missing[*]:0:10}"
fi
exit 0
