/* SPDX-License-Identifier: GPL-2.0 */
/* Populations (pop.c): processes, trees, threads, tracers. */
#ifndef PTSTRESS_ENGINE_POP_H
#define PTSTRESS_ENGINE_POP_H

#include "engine/observe.h"

/* Live tasks a run may have at once: above the largest population claimed (20000). */
#define MAX_LIVE_TASKS	25000

/*
 * Create a process named @name, child of thread @parent; its index or -1.
 * @exitsig: its exit signal (SIGCHLD; SIGRTMAX or 0 need a parent other than R);
 * @clone_parent: clone(CLONE_PARENT) by @parent, a child of @parent's real parent.
 */
int spawn_process(struct engine *e, const char *name, int parent, bool subreaper, bool pidns,
		  int threads, int exitsig, bool clone_parent);
int v_process(struct engine *e, const struct stmt *s);
int v_tree(struct engine *e, const struct stmt *s);
int v_thread(struct engine *e, const struct stmt *s);

#endif
