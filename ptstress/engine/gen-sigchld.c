// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of SIGCHLD dispositions and parent-death signals (fuzz and
 * stress), and what keeps a group that ignores SIGCHLD out of the races
 * whose outcome the model cannot predict (see g_sigchld()).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>

#include "engine/gen.h"

/* Task @i's group ignores SIGCHLD (SIG_IGN or SA_NOCLDWAIT): its children reap themselves. */
bool gen_ignores_sigchld(struct engine *e, int i)
{
	const struct mtask *l = T(e, T(e, i)->leader);

	return l->sigchld_ign || l->sigchld_nocldwait;
}

/*
 * A thread of @i's group other than its leader traces someone.  A
 * subreaper's adoption puts an orphan on the group's first live thread
 * (find_new_reaper(): the leader while it lives), so an orphan that such
 * a tracer followed there (TRACEFORK, TRACEVFORK) has its real parent
 * in the tracer's group but is not the tracer's child.  When that group
 * ignores SIGCHLD and dies, whether the zombie is released is a race
 * (model/exit.c, detach_race(); host soak, seed 211).  So a group is
 * never all three: ignoring (g_sigchld()), a subreaper (g_subreaper())
 * and following forks from a non-leader thread (g_seize()).
 */
bool gen_nonleader_traces(struct engine *e, int i)
{
	int lead = T(e, i)->leader, k, x;

	for (k = 1; k < e->m.n; k++) {
		x = T(e, k)->tracer;
		if (T(e, k)->life != ML_DEAD && x > 0 && x != lead && T(e, x)->leader == lead)
			return true;
	}
	return false;
}

/*
 * Some thread of @i's group dies with another group when it dies: it is
 * an EXITKILL tracee (its tracer's exit SIGKILLs it with the tracer's
 * other tracees, exit_ptrace()), or one left single-stepping (killed by
 * the same exit: gen_stepping()), or has a pdeath signal (its parent's exit
 * kills it, forget_original_parent(), while that exit's EXITKILL
 * tracees die too).  See g_sigchld().
 */
static bool dies_with_others(struct engine *e, int i)
{
	int lead = T(e, i)->leader, k;

	for (k = 1; k < e->m.n; k++) {
		const struct mtask *t = T(e, k);

		if (t->leader != lead || t->life == ML_DEAD)
			continue;
		/* a zombie's pdeath signal still goes out: see child_with_pdeath() */
		if (t->pdeath_signal || (t->life == ML_ALIVE && t->tracer != M_NONE &&
					 ((t->ptrace_opts & PTRACE_O_EXITKILL) || t->stepping)))
			return true;
	}
	return false;
}

/*
 * A child process of @i's group has a thread with a pdeath signal.  See
 * g_sigchld().  A zombie thread counts: a leader that exited alone stays
 * on its group's thread list, and forget_original_parent() sends every
 * thread's pdeath signal to the whole group (group_send_sig_info() with
 * PIDTYPE_TGID, kernel/exit.c:713-715), so its live siblings die of it
 * (host soak, seed 161; an EXITKILL SIGKILL goes to the zombie alone,
 * exit_ptrace() by send_sig_info(), and is lost).
 */
static bool child_with_pdeath(struct engine *e, int i)
{
	int lead = T(e, i)->leader, k, rp;

	for (k = 1; k < e->m.n; k++) {
		const struct mtask *t = T(e, k);

		if (t->life == ML_DEAD || !t->pdeath_signal || t->leader == lead)
			continue;
		rp = T(e, t->leader)->real_parent;
		if (rp >= 0 && T(e, rp)->leader == lead)
			return true;
	}
	return false;
}

/*
 * sigchld P [ignore|nocldwait]: SIG_IGN, SA_NOCLDWAIT or back to SIG_DFL.
 *
 * A group that ignores SIGCHLD never dies together with one of its
 * children.  When both are SIGKILLed at once (one tracer's exit kills
 * several EXITKILL tracees, exit_ptrace(); or a parent's exit kills an
 * orphan by its pdeath signal while its EXITKILL tracees die), their
 * exits run in an order the kernel does not fix: a child whose
 * exit_notify() comes first sees its parent's group ignore SIGCHLD and
 * reaps itself (do_notify_parent(), kernel/signal.c:2107-2133); one that
 * comes after its parent's forget_original_parent() is the new reaper's
 * zombie.  The model would have to adopt the observed outcome.  So the
 * generator keeps the two apart: no SIG_IGN or SA_NOCLDWAIT for a group
 * with an EXITKILL tracee or a pdeath signal among its threads
 * (dies_with_others()), no EXITKILL seize of (g_seize()) and no pdeath
 * signal for (g_pdeathsig()) a group that ignores.  Children inherit the
 * disposition (copy_sighand()) but not a pdeath signal, and a traced
 * parent's EXITKILL (an auto-attach) only goes to children of a group
 * that does not ignore.
 *
 * Nor does a child with a pdeath signal have a parent group that
 * ignores (child_with_pdeath(), g_pdeathsig()): when that group exits,
 * its dying threads may hand the child to one another first
 * (find_alive_thread() takes a thread not yet PF_EXITING) and each
 * reparenting sends the pdeath signal, so the child may die while its
 * parent is still in the ignoring group, and reap itself, or after it
 * went to the next reaper, and be its zombie.  (Host soak, seeds 18 and
 * 19.)  Other deaths come one group at a time, and an orphan with a
 * pdeath signal has left its dead parent's group before it dies.
 */
bool g_sigchld(struct engine *e, struct gen *g, struct stmt *st)
{
	int a = gen_pick(e, g, gen_is_proc), w;
	unsigned int k = gen_rnd(g, 3);

	if (a < 0)
		return false;
	w = m_alive_thread(&e->m, a);
	if (w == M_NONE || T(e, w)->stop != MS_RUNNING)
		return false;
	if (k && (dies_with_others(e, a) || child_with_pdeath(e, a)))
		k = 0;
	if (k && T(e, T(e, a)->leader)->subreaper && gen_nonleader_traces(e, a))
		k = 0;	/* see gen_nonleader_traces() */
	gen_names(st, 1, T(e, a)->name, NULL);
	st->opts = k == 1 ? O_IGNORE : k == 2 ? O_NOCLDWAIT : 0;
	return true;
}

/*
 * pdeathsig T SIGKILL: SIGKILL only; another signal to a traced group
 * stops a thread the kernel chooses, which the engine refuses.
 */
bool g_pdeathsig(struct engine *e, struct gen *g, struct stmt *st)
{
	int a = gen_pick(e, g, gen_is_member), rp;

	/* not into a group left single-stepping: see single_steppable() (gen.c) */
	if (a < 0 || T(e, a)->in_exit || gen_ignores_sigchld(e, a) || gen_in_job(e, a) ||
	    gen_stepping(e, a))
		return false;
	/* nor under a parent group that ignores SIGCHLD: see g_sigchld() */
	rp = T(e, T(e, a)->leader)->real_parent;
	if (rp >= 0 && gen_ignores_sigchld(e, rp))
		return false;
	/* nor to a namespace init whose parent's exit would zap a single step */
	if (gen_ns_steps_under(e, T(e, a)->leader, rp))
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	st->sig = SIGKILL;
	return true;
}
