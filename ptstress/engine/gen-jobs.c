// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of job control (fuzz only): `setsid P`, `setpgid P`, and a
 * chain that builds the case kill_orphaned_pgrp() exists for.
 *
 * A process group that an exit or a reparenting orphans, with a stopped
 * member, gets SIGHUP and SIGCONT (kill_orphaned_pgrp(), kernel/exit.c
 * :378-401, from exit_notify() :741-742 and reparent_leader() :682).  To
 * reach it, one setsid draw in 2 goes on (each link drawn again, with
 * the model's say-so): the session leader S forks X, X calls setpgid()
 * (X's group, in S's session, is connected through S), X is group-stopped
 * by SIGSTOP, and S exits or is killed.  reparent_leader(S, X) then finds
 * X's group orphaned with a stopped member (mutant m22 drops that call).
 *
 * What keeps every such step predictable (model/pgrp.c marks the rest
 * unpredictable, and a refusal ends a fuzz run):
 * - a process outside R's group (gen_in_job()) is never traced nor given
 *   to strace or gdb (SIGHUP to an orphaned group with a traced member
 *   stops a thread the kernel chooses), nor given a pdeath signal (see
 *   job_candidate());
 * - setsid and setpgid are drawn for a process with no children (the
 *   engine's rule, engine/jobs.c: R's group never gets a parent outside
 *   it), outside pid namespaces, whose threads all run untraced, with no
 *   stop or continue that met a tracer (jobctl_unknown) and no pdeath
 *   signal;
 * - only R's group and a session leader's own group fork
 *   (gen_job_forker()), so a group setpgid made has one process; and
 *   plain forks (gen_process()): a pid namespace's init, a setns child, a
 *   CLONE_PARENT sibling or a vfork would bring in rules the model keeps
 *   apart from process groups (engine/jobs.c refuses setsid and setpgid
 *   inside a pid namespace: the zap's order of events is not modelled
 *   with them), and another exit signal changes nothing here.  On the
 *   host's 6.18 a reparenting that orphans a group leaves its sleeping
 *   members alive (docs/fuzz.md); a group of one stopped process dies of
 *   SIGHUP on both kernels.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "engine/gen.h"

bool gen_in_job(struct engine *e, int i)
{
	return T(e, T(e, i)->leader)->pgrp != 0;
}

bool gen_job_forker(struct engine *e, int p)
{
	int lead = T(e, p)->leader;
	const struct mtask *l = T(e, lead);

	return l->pgrp == 0 || (l->session == lead && l->pgrp == lead);
}

/* A live process whose real parent is a thread of @lead's group. */
static bool has_child(struct engine *e, int lead)
{
	int i, k, rp;

	M_FOR_UNREL(&e->m, k, i) {
		if (!i || T(e, i)->leader != i || T(e, i)->life == ML_DEAD)
			continue;
		rp = T(e, i)->real_parent;
		if (rp >= 0 && T(e, rp)->leader == lead)
			return true;
	}
	return false;
}

/* A process that may call setsid() or setpgid() now (see the top). */
static bool job_candidate(struct engine *e, int i)
{
	int k;

	if (!gen_is_proc(e, i) || !gen_untraced_group(e, i) || T(e, i)->ns != M_NONE ||
	    T(e, i)->jobctl_unknown || T(e, i)->in_exit || T(e, i)->group_exit)
		return false;
	/*
	 * A pdeath signal is sent (forget_original_parent()) just before
	 * reparent_leader()'s kill_orphaned_pgrp(): a SIGKILL there ends the
	 * group's stop first (SIGNAL_GROUP_EXIT), so no SIGHUP follows.  The
	 * model queues pdeath signals and delivers them after the exit
	 * (m_queue_signal()), so its orphan check would still see the group
	 * stopped.  Left out rather than modelled.
	 */
	for (k = T(e, i)->first; k <= T(e, i)->last; k++)	/* its group's range */
		if (k && T(e, k)->leader == i && T(e, k)->life == ML_ALIVE &&
		    T(e, k)->pdeath_signal)
			return false;
	return !has_child(e, i);
}

/* ... in a session a setsid made, not leading a group yet: setpgid's case. */
static bool session_member(struct engine *e, int i)
{
	return job_candidate(e, i) && T(e, i)->session != 0 && T(e, i)->pgrp != i;
}

/* Live processes outside R's group (the return) and all live processes (*procs). */
static int count_jobs(struct engine *e, int *procs)
{
	int i, n = 0;

	*procs = 0;
	for (i = 1; i < e->m.n; i++) {
		if (T(e, i)->leader != i || T(e, i)->life != ML_ALIVE)
			continue;
		(*procs)++;
		n += gen_in_job(e, i);
	}
	return n;
}

/* The model's errno for the step, as its "fails" clause. */
static void fails_as_predicted(struct stmt *st, int err)
{
	st->nfails = err ? 1 : 0;
	st->fails[0] = err;
}

bool g_setsid(struct engine *e, struct gen *g, struct stmt *st)
{
	int a, procs, jobs = count_jobs(e, &procs);

	/* most of the population stays traceable */
	if (jobs > 4 && jobs * 8 > procs)
		return false;
	a = gen_pick(e, g, job_candidate);
	if (a < 0)
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	fails_as_predicted(st, m_predict_setsid(&e->m, a).err);
	g->job_next = !st->nfails && !gen_rnd(g, 2) ? JOB_FORK : JOB_NONE;
	snprintf(g->job[0], SC_NAME_LEN, "%s", T(e, a)->name);
	return true;
}

bool g_setpgid(struct engine *e, struct gen *g, struct stmt *st)
{
	int a = gen_rnd(g, 2) ? gen_pick(e, g, session_member) : -1;

	if (a < 0)
		a = gen_pick(e, g, job_candidate);
	if (a < 0)
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	fails_as_predicted(st, m_predict_setpgid(&e->m, a).err);
	return true;
}

/* The chain's task named @name, if it is alive; else -1. */
static int chain_task(struct engine *e, const char *name)
{
	int i;

	for (i = 1; i < e->m.n; i++)
		if (T(e, i)->life == ML_ALIVE && !strcmp(T(e, i)->name, name))
			return i;
	return -1;
}

bool gen_job_next(struct engine *e, struct gen *g, struct stmt *st)
{
	int s = chain_task(e, g->job[0]), x = g->job_next >= JOB_SETPGID ?
					      chain_task(e, g->job[1]) : -1;
	enum job_link link = g->job_next;

	g->job_next = JOB_NONE;
	memset(st, 0, sizeof(*st));
	switch (link) {
	case JOB_NONE:
		return false;
	case JOB_FORK:
		/*
		 * The session leader forks X: X is in S's group and session.
		 * Whatever the population's size (a replacement fork does not
		 * ask either): fuzz keeps it near max_live, where asking cut
		 * 9 chains in 10 (host soak, seed 10: 17 forks after 291 setsids).
		 */
		if (s < 0 || !gen_is_proc(e, s) || !gen_job_forker(e, s) || T(e, s)->session != s)
			return false;
		st->verb = V_PROCESS;
		st->nnames = 1;
		snprintf(st->name[0], SC_NAME_LEN, "p%d", g->nproc++);
		snprintf(st->parent, sizeof(st->parent), "%s", T(e, s)->name);
		st->threads = g->threads;
		snprintf(g->job[1], SC_NAME_LEN, "%s", st->name[0]);
		g->job_next = JOB_SETPGID;
		return true;
	case JOB_SETPGID:
		if (x < 0 || !session_member(e, x) || gen_rnd(g, 4) == 0)
			return false;
		gen_names(st, 1, T(e, x)->name, NULL);
		st->verb = V_SETPGID;
		fails_as_predicted(st, m_predict_setpgid(&e->m, x).err);
		g->job_next = st->nfails ? JOB_NONE : JOB_STOP;
		return true;
	case JOB_STOP:
		if (x < 0 || !gen_untraced_group(e, x) || T(e, x)->gstop || gen_rnd(g, 4) == 0)
			return false;
		gen_names(st, 1, T(e, x)->name, NULL);
		st->verb = V_KILL;
		st->sig = SIGSTOP;
		g->job_next = JOB_ORPHAN;
		return true;
	case JOB_ORPHAN:
		/* else S dies when the population's draws say so */
		if (s < 0 || !gen_is_proc(e, s) || gen_rnd(g, 2))
			return false;
		gen_names(st, 1, T(e, s)->name, NULL);
		if (gen_rnd(g, 2)) {
			st->verb = V_EXIT;
			st->num = gen_rnd(g, 4);
		} else {
			st->verb = V_KILL;
			st->sig = SIGKILL;
		}
		return true;
	}
	return false;
}
