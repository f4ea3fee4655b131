/* SPDX-License-Identifier: MIT */
/*
 * label_order.h - where babeltrace2 2.1 prints each mapping label when
 * several match a value (doc/formats/ctf.md §4.5).
 */
#ifndef TC_CTF_LABEL_ORDER_H
#define TC_CTF_LABEL_ORDER_H

#include "tracecat.h"

/* Sets the print_rank of FC's labels (in declaration order, each label
 * once) to their place in babeltrace2 2.1's std::unordered_map after
 * MAPS maps, each filled one key at a time from the previous one's
 * iteration order (the first from declaration order): 1 for TSDL
 * enumerations, 2 for CTF 2 mappings (§4.5).  0, or TC_ENOMEM (recorded). */
int ctf_rank_labels(tc_field_class *fc, unsigned maps);

#endif /* TC_CTF_LABEL_ORDER_H */
