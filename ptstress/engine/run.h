/* SPDX-License-Identifier: GPL-2.0 */
/* `ptstress run` (run.c): the scenarios, one after the other. */
#ifndef PTSTRESS_ENGINE_RUN_H
#define PTSTRESS_ENGINE_RUN_H

#include "engine/stress.h"

/*
 * Run the parsed scenarios @scs[0..n) with the settings @o; JSON lines go
 * to @json (NULL: none).  Returns an enum ps_exit value.
 */
int cmd_run(struct scenario *scs, int n, struct run_opts *o, FILE *json);

#endif
