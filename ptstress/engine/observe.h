/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine observes (observe.c): quiescence and the comparisons of
 * /proc status, ptrace_links, exit reports and SIGCHLDs with the model,
 * the kernel checker, and the scenario's own "expect" statements.
 */
#ifndef PTSTRESS_ENGINE_OBSERVE_H
#define PTSTRESS_ENGINE_OBSERVE_H

#include "engine/core.h"

/* Close task @i's agent channel and cached /proc files (its pidfd stays). */
void task_files_close(struct engine *e, int i);
/* Wait for quiescence of the dirty tasks (or all), then compare. 0 or -1. */
int check_tasks(struct engine *e, bool all, const char *why);
/* SIGCHLD: every process the model says was notified got one, from a notifier. */
int check_sigchld(struct engine *e, const char *why);
int check_sigchld_group(struct engine *e, int lead, const char *why);
/* No process can collect an exit report the model does not owe it (WNOWAIT). */
int check_pending(struct engine *e, const char *why);
/* Kernel checker: full walk and violation counter (kreport.c). */
int check_kernel(struct engine *e, const char *why);
/* The kernel's taint flags as at the scenario's start (taint_begin()); else a finding. */
int check_taint(struct engine *e, const char *why);
/*
 * Harness error @msg came after the taint flags gained one: report that
 * as the finding (with @msg in its observed text) and return 1; else 0.
 */
int taint_explains(struct engine *e, const char *msg);
/* Open /proc/sys/kernel/tainted and keep its flags, on a kernel with the checker. */
void taint_begin(struct engine *e);
/* "expect ppid|tracer|state": poll until it holds or the step's deadline. */
int check_expect(struct engine *e, const struct stmt *s);
/* Snapshot /proc of @i into the report directory (and a backtrace). */
void snapshot_task(struct engine *e, int i);

/*
 * Collect every exit report that is due (@all), or only those owed to
 * strace/gdb, which collect them by themselves.
 */
int collect_reports(struct engine *e, bool all);
/* R waits for @c's exit report itself (R is the parent or the subreaper). */
int r_collects(struct engine *e, int c, struct agent_reply *rep);
/* Check one agent's wait reply for task @c's exit report; 0 or -1 (finding). */
int collect_reply(struct engine *e, int w, int c, const struct agent_reply *rep,
		  bool as_tracer);
/* Does wait status @status carry @c's report (m_report_status())?  @want: what it must say. */
bool report_matches(struct engine *e, int c, int status, char *want, size_t len);

#endif
