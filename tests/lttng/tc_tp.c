/* SPDX-License-Identifier: MIT */
/*
 * tc_tp.c - instantiates the "tc" tracepoint provider (probes and the
 * tracepoint definitions) in exactly one translation unit of tc_app.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tc_tp.h"
