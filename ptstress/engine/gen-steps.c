// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of the resumes fuzz draws beyond a plain cont: cont with a
 * signal, syscall and singlestep, and what a tracee left single-stepping
 * keeps other generators from drawing.
 */
#include <signal.h>

#include "engine/gen.h"

/*
 * Where a resume signal takes effect (m_delivers_signal()): a
 * signal-delivery-stop delivers it (ptrace_signal(), kernel/signal.c:
 * 2597-2627), a syscall-stop sends it and the tracee stops for it again
 * (m_signal_restops()).  Not with a group stop pending (a group-stop trap
 * comes first: v_resume() refuses that at a syscall-stop, the model has
 * the trap at a signal-delivery-stop, but the signal would not count) or
 * a SIGCONT queued (its signal-delivery-stop comes first: refused too).
 */
static bool resume_signal_counts(struct engine *e, int i)
{
	const struct mtask *t = T(e, i);

	return (t->trap == TRAP_SIGNAL || t->trap == TRAP_SYSCALL) && !t->stop_pending &&
	       !t->cont_queued;
}

bool gen_cont(struct engine *e, struct gen *g, struct stmt *st, int b)
{
	/*
	 * SIGUSR1/2: the agent's handler runs; SIGTERM: SIG_DFL, the group
	 * dies, but a namespace init drops it (SIGNAL_UNKILLABLE, get_signal(),
	 * kernel/signal.c:2811-2813).  None is blocked by an agent.
	 */
	static const int sigs[] = { SIGUSR1, SIGUSR2, SIGTERM };

	if (!gen_tracer_task(e, st, b))
		return false;
	/* In fuzz, half the time a signal where it counts (stress draws as it did). */
	if (g->fuzz && resume_signal_counts(e, b) && gen_rnd(g, 2))
		st->sig = sigs[gen_rnd(g, 3)];
	return true;
}

/*
 * A live thread of @i's group was left in its PTRACE_SINGLESTEP trap: its
 * tracer's exit kills the group (m_exit_ptrace(), rule
 * tracer-exit-keeps-singlestep), so it dies with others as an EXITKILL
 * tracee does (dies_with_others(), g_sigchld()).
 */
bool gen_stepping(struct engine *e, int i)
{
	int k, lead = T(e, i)->leader;

	for (k = 1; k < e->m.n; k++)
		if (T(e, k)->leader == lead && T(e, k)->life == ML_ALIVE && T(e, k)->stepping)
			return true;
	return false;
}

/*
 * Does a live task of namespace init @k's namespace, outside @k's group,
 * wait in a single step that a thread of @tr's group left it in?  Then
 * the exit of @tr that kills @k's group (EXITKILL, its own single step,
 * a pdeath signal) has the zap's SIGKILL race with that task's SIGTRAP
 * (m_step_zap_race(), host fuzz seed 35).  @k < 0: none.
 */
bool gen_ns_steps_under(struct engine *e, int k, int tr)
{
	int i;

	if (k < 0 || T(e, k)->ns != k || tr < 0)
		return false;
	for (i = 1; i < e->m.n; i++) {
		const struct mtask *t = T(e, i);

		if (t->life == ML_ALIVE && t->stepping && t->tracer != M_NONE && t->leader != k &&
		    m_same_group(&e->m, t->tracer, tr) &&
		    m_ns_within(&e->m, T(e, t->leader)->ns, k))
			return true;
	}
	return false;
}

/*
 * The other way round: is @i inside the namespace of an init (its own
 * group's excepted) that a thread of @tr's group traces, or whose pdeath
 * signal @tr's group would send?  A single step of @i by @tr could then
 * race with that init's zap at @tr's exit.
 */
static bool under_init_of(struct engine *e, int i, int tr)
{
	int lead = T(e, i)->leader, k, j;

	k = T(e, lead)->ns == lead ? T(e, lead)->ns_parent : T(e, lead)->ns;
	for (; k != M_NONE; k = T(e, k)->ns_parent) {
		for (j = T(e, k)->first; j <= T(e, k)->last; j++) {
			const struct mtask *o = T(e, j);

			if (o->leader != k || o->life != ML_ALIVE)
				continue;
			if ((o->tracer != M_NONE && m_same_group(&e->m, o->tracer, tr)) ||
			    (o->pdeath_signal && T(e, k)->real_parent >= 0 &&
			     m_same_group(&e->m, T(e, k)->real_parent, tr)))
				return true;
		}
	}
	return false;
}

/*
 * syscall and singlestep (fuzz only): a tracee of one of our tr processes
 * in a stop its tracer took, which the resume leaves at once and for
 * good -- a signal-delivery, syscall, or group-stop trap, or an
 * interrupt's PTRACE_EVENT_STOP, with no stop, SIGCONT or exit pending
 * and no group stop in effect -- and an agent, which the engine gives a
 * message so that its recv() returns (v_resume()).  The syscall-stop or
 * the step's SIGTRAP follows.  A single step also needs a group that
 * dies alone when the step kills it at its tracer's exit: the only
 * traced thread of its group, with no pdeath signal among its threads,
 * not ignoring SIGCHLD (see g_sigchld()), and not in a namespace its
 * tracer inits (the zap's SIGKILL would race with the SIGTRAP:
 * m_exit_ptrace()).
 */
static bool steppable(struct engine *e, int i)
{
	const struct mtask *t = T(e, i), *l = T(e, t->leader);

	return gen_traced_stopped(e, i) && e->e[i].fd >= 0 && !t->listening && !t->stop_pending &&
	       !t->stop_report && !t->notify_trap && !t->cont_queued && !t->in_exit &&
	       !t->exit_stop && !l->gstop && !l->jobctl_unknown && !l->group_exit &&
	       !m_zapping(&e->m, i) &&
	       (t->trap == TRAP_SIGNAL || t->trap == TRAP_SYSCALL || t->trap == TRAP_GROUP ||
		t->trap == TRAP_EVENT_STOP);
}

static bool single_steppable(struct engine *e, int i)
{
	int k, lead = T(e, i)->leader;

	if (!steppable(e, i) || gen_ignores_sigchld(e, i) ||
	    (T(e, lead)->ns != M_NONE && T(e, lead)->ns == T(e, T(e, i)->tracer)->leader))
		return false;
	for (k = 1; k < e->m.n; k++)
		if (T(e, k)->leader == lead && T(e, k)->life != ML_DEAD &&
		    (T(e, k)->pdeath_signal || (k != i && T(e, k)->tracer != M_NONE)))
			return false;
	return true;
}

bool g_step(struct engine *e, struct gen *g, struct stmt *st)
{
	int b = gen_pick(e, g, st->verb == V_SINGLESTEP ? single_steppable : steppable);

	/*
	 * Not a single step that one exit could end with the zap of a
	 * namespace around it, or of the namespace it inits (see
	 * gen_ns_steps_under()).  Checked on the pick alone, so that the
	 * draws stay those of earlier seeds where neither is the case.
	 */
	if (b > 0 && st->verb == V_SINGLESTEP &&
	    (under_init_of(e, b, T(e, b)->tracer) ||
	     gen_ns_steps_under(e, T(e, b)->leader, T(e, b)->tracer)))
		return false;
	return gen_tracer_task(e, st, b);
}
