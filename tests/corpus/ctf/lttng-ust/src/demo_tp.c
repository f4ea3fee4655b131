/* SPDX-License-Identifier: MIT */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "demo_tp.h"
