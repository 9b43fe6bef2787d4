// SPDX-License-Identifier: GPL-2.0
/*
 * Process groups and sessions, and the one duty of exit and reparenting
 * they carry: a process group that the exit orphans, with a stopped
 * member, gets SIGHUP and SIGCONT (kill_orphaned_pgrp(), kernel/exit.c
 * :378-401, called by exit_notify() :741-742 and reparent_leader() :682 --
 * the "B. Check to see if any process groups have become orphaned" of
 * the 2002 patch's exit_notify()).
 *
 * R's own group and session are index 0.  The engine keeps them out of
 * reach: a process of R's group never gets a parent outside it (see
 * engine/jobs.c), so kill_orphaned_pgrp() never looks at R's group, whose
 * outside connections (R's parent, the CI runner) the model cannot know.
 */
#include <errno.h>
#include <signal.h>

#include "model/model.h"

struct m_pred m_predict_setsid(const struct model *m, int proc)
{
	const struct mtask *l = &m->t[m->t[proc].leader];
	int lead = m->t[proc].leader, i;

	/* ksys_setsid() kernel/sys.c:1226-1234: a session leader, or a group
	 * whose id is our pid (we lead one, or once led one that lives on) */
	if (l->session == lead)
		return (struct m_pred){ EPERM, R_SETSID };
	for (i = 1; i < m->n; i++)
		if (m->t[i].leader == i && m->t[i].life != ML_DEAD && m->t[i].pgrp == lead &&
		    !m_wrong(m, R_SETSID))
			return (struct m_pred){ EPERM, R_SETSID };
	return (struct m_pred){ 0, R_SETSID };
}

void m_setsid(struct model *m, int proc)
{
	struct mtask *l = &m->t[m->t[proc].leader];

	l->session = l->pgrp = m->t[proc].leader;	/* set_special_pids() */
}

struct m_pred m_predict_setpgid(const struct model *m, int proc)
{
	const struct mtask *l = &m->t[m->t[proc].leader];

	/* setpgid() kernel/sys.c:1108-1110: a session leader may not move */
	if (l->session == m->t[proc].leader && !m_wrong(m, R_SETSID))
		return (struct m_pred){ EPERM, R_SETSID };
	return (struct m_pred){ 0, R_SETSID };
}

void m_setpgid(struct model *m, int proc)
{
	struct mtask *l = &m->t[m->t[proc].leader];

	l->pgrp = m->t[proc].leader;
}

static int pgrp_of(const struct model *m, int task)
{
	return task == M_INIT ? -1 : m->t[m->t[task].leader].pgrp;
}

static int session_of(const struct model *m, int task)
{
	return task == M_INIT ? -1 : m->t[m->t[task].leader].session;
}

/*
 * will_become_orphaned_pgrp() :331-349: no member (but @ignored, a zombie
 * whose threads are gone, or a child of the global init) has its real
 * parent in another group of its own session.  An init asleep in
 * zap_pid_ns_processes() is no zombie there: its exit_state is still 0
 * (exit_notify() comes after the zap), and a zap candidate leader either
 * is that thread or has it in its group (not thread_group_empty()).
 */
static bool orphaned(const struct model *m, int pgrp, int ignored)
{
	int i, rp;

	for (i = 1; i < m->n; i++) {
		const struct mtask *t = &m->t[i];

		if (t->leader != i || t->life == ML_DEAD || t->pgrp != pgrp || i == ignored)
			continue;
		if (t->life == ML_ZOMBIE && !t->zapper && !t->zap_cand && m_group_empty(m, i))
			continue;
		rp = t->real_parent;
		if (rp == M_INIT)
			continue;
		if (pgrp_of(m, rp) != pgrp &&
		    (session_of(m, rp) == t->session || m_wrong(m, R_ORPHANED_PGRP)))
			return false;
	}
	return true;
}

void m_orphan_check(struct model *m, int proc, int father)
{
	int lead = m->t[proc].leader, pgrp = m->t[lead].pgrp, parent, i, k;
	bool stopped = false;

	if (pgrp == 0)
		return;		/* R's group: kept out of reach (see above) */
	/* exit: "our father is in a different pgrp"; reparent: "our child is" */
	parent = father == M_NONE ? m->t[lead].real_parent : father;
	if (parent == M_INIT || pgrp_of(m, parent) == pgrp ||
	    session_of(m, parent) != m->t[lead].session ||
	    !orphaned(m, pgrp, father == M_NONE ? lead : M_NONE))
		return;
	/* has_stopped_jobs() :361-371: SIGNAL_STOP_STOPPED in a member */
	for (i = 1; i < m->n; i++) {
		const struct mtask *t = &m->t[i];

		if (t->leader != i || t->life == ML_DEAD || t->pgrp != pgrp || !t->gstop)
			continue;
		if (t->jobctl_unknown) {
			m->unpredictable = "a process group orphaned with a traced member's "
					   "group stop: whether it counts as stopped is the "
					   "tracer's timing";
			return;
		}
		stopped = true;
	}
	if (!stopped)
		return;
	/*
	 * __kill_pgrp_info(SIGHUP) then SIGCONT to every member: SIGCONT
	 * wakes a stopped group at once (prepare_signal()), the pending
	 * SIGHUP (default action: terminate) kills it when it runs.
	 */
	for (i = 1; i < m->n; i++) {
		const struct mtask *t = &m->t[i];

		if (t->leader != i || t->life == ML_DEAD || t->pgrp != pgrp)
			continue;
		for (k = 0; k < m->n; k++)
			if (m->t[k].leader == i && m->t[k].life == ML_ALIVE &&
			    m->t[k].tracer != M_NONE && !m->unpredictable)
				m->unpredictable = "SIGHUP to an orphaned group with a traced "
						   "member: which thread stops for it is the "
						   "kernel's choice";
		m_signal(m, i, SIGCONT);
		m_queue_signal(m, i, SIGHUP);
	}
}
