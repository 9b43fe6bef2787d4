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
 * @how: O_CLONE_PARENT: clone(CLONE_PARENT) by @parent, a child of @parent's
 * real parent; O_VFORK: clone(CLONE_VM | CLONE_VFORK), the child execs a
 * fresh agent while @parent's thread waits.  @setns: a task whose pid
 * namespace the child is forked into (setns()+fork()), or M_NONE.
 */
int spawn_process(struct engine *e, const char *name, int parent, bool subreaper, bool pidns,
		  int threads, int exitsig, unsigned int how, int setns);
int v_process(struct engine *e, const struct stmt *s);
int v_tree(struct engine *e, const struct stmt *s);
int v_thread(struct engine *e, const struct stmt *s);

#endif
