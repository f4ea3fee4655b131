#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/sid-root.sh - build, once, the Debian sid root of the newer peers
# (/var/cache/tracecat/sid-root, or TRACECAT_SID_ROOT): scripts/debian-root.sh
# for sid, kept under this name for the wrappers, tests and CI that call it.
exec bash "$(dirname "$0")/debian-root.sh" sid "$@"
