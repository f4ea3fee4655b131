#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run.sh - run every benchmark script in bench/ (all *.sh but this one), in
# name order.  Used by `make bench`.  Benchmarks only report numbers; a
# script that cannot run at all still lets the others run, and makes this
# exit non-zero at the end so the breakage is not missed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
failed=0
for script in "$here"/*.sh; do
	case "$(basename "$script")" in run.sh | lib.sh) continue ;; esac
	if ! bash "$script"; then
		echo "bench: $(basename "$script") failed" >&2
		failed=$((failed + 1))
	fi
	echo
done
exit $((failed > 0))
