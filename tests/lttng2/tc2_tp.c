/* SPDX-License-Identifier: MIT */
/*
 * tc2_tp.c - instantiates the "tc2" tracepoint provider (probes and the
 * tracepoint definitions) in exactly one translation unit of tc2_app.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tc2_tp.h"
