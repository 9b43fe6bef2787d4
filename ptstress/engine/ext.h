/* SPDX-License-Identifier: GPL-2.0 */
/* Real strace and gdb sessions in a run (ext.c). */
#ifndef PTSTRESS_ENGINE_EXT_H
#define PTSTRESS_ENGINE_EXT_H

#include "engine/pop.h"

int v_strace(struct engine *e, const struct stmt *s);
int v_gdb(struct engine *e, const struct stmt *s);
int v_stop(struct engine *e, const struct stmt *s);
int v_wait(struct engine *e, const struct stmt *s);
/* End every session still running (teardown). */
void ext_teardown(struct engine *e);

#endif
