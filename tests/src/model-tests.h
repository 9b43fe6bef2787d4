/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files of the model's tests: the model under test and the
 * helpers that build populations in it (model-tests.c).
 */
#ifndef PTSTRESS_MODEL_TESTS_H
#define PTSTRESS_MODEL_TESTS_H

#include "harness.h"
#include "model/model.h"

#define R_TID	100	/* R, index 0 */

extern struct model m;

/* A fresh model with R only. */
void setup(void);
/* A process forked by thread @parent; a thread created by @creator. */
int proc(int parent, const char *name, pid_t tid);
int thread(int creator, const char *name, pid_t tid);
/* @tracer seizes @task with @opts. */
void seize(int tracer, int task, unsigned long opts);
/* The collector of @task's next report, -9 for "none"; *tr: as tracer. */
int collector(int task, bool *tr);
/* exited(code) as the wait status encodes it, or killed(sig). */
int status(int task);

#define EXITED(n)	((n) << 8)
#define KILLED(s)	(s)

#endif
