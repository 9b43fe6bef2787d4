/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verbs' handlers: verbs.c the tracer verbs, tasks.c the task and
 * control verbs, waits.c the waits with flags, jobs.c sessions and groups.  Each handler: check that the scenario asks something the
 * engine can run deterministically (else refuse(): exit 3, the scenario is
 * not the kernel's fault), predict the outcome from the model, perform it
 * through the agents, compare (outcome()), and tell the model.
 */
#ifndef PTSTRESS_ENGINE_VERBS_H
#define PTSTRESS_ENGINE_VERBS_H

#include "engine/ext.h"

/* One handler per verb (lang/verbs.def names them). */
typedef int verb_fn(struct engine *e, const struct stmt *s);

verb_fn v_trace, v_traceme, v_interrupt, v_resume, v_ptrace_kill, v_race_attach;
verb_fn v_kill, v_exit, v_quit, v_exec, v_subreaper, v_pdeathsig, v_sigchld, v_reap;
verb_fn v_waitid, v_pidfd, v_setsid, v_setpgid;
verb_fn v_check, v_expect, v_sleep, v_timeout, v_step_timeout, v_kernel;

/*
 * Compare an agent's outcome with the model's prediction @p and the
 * statement's "fails" clause.  True if the step succeeded as it should
 * (the caller then updates the model); false otherwise, with a finding
 * when it was not expected.
 */
bool outcome(struct engine *e, const struct stmt *s, struct m_pred p,
	     const struct agent_reply *rep, const char *what, int task);
/*
 * What a step leaves for the tracers to do, done as a debugger does it:
 * PTRACE_EVENT_EXIT stops passed, group-stop traps waited for.  0 or -1.
 */
int settle_stops(struct engine *e);
/* Tracee @x's tracer waits for its signal-delivery-stop of @sig and delivers it. */
int pass_signal(struct engine *e, int x, int sig);
/* May `kill x SIGCONT` go to the traced process of @x (its only thread seized)? */
bool sigcont_to_seized(struct engine *e, int x);
/* The signals a step may deliver. */
bool sig_supported(int sig);
/* Stop tracee @x of @tr before a detach (PTRACE_INTERRUPT or SIGSTOP). */
int stop_for_detach(struct engine *e, int tr, int x);

#endif
