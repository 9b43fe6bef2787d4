// SPDX-License-Identifier: GPL-2.0
/*
 * PTRACE_SYSCALL and PTRACE_SINGLESTEP: the step a tracer leaves set, and
 * what becomes of a tracee left single-stepping when its tracer exits
 * (rule tracer-exit-keeps-singlestep).
 */
#include <signal.h>
#include <sys/ptrace.h>

#include "model/model.h"

void m_why_group(struct model *m, int lead, int rule)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (m->t[i].leader == lead && m->t[i].life != ML_DEAD)
			m->t[i].why_state = m->t[i].why_code = rule;
}

void m_stepped(struct model *m, int task, bool on)
{
	/*
	 * ptrace_resume() (kernel/ptrace.c:870-880): PTRACE_SINGLESTEP sets
	 * the step, PTRACE_SYSCALL clears it; either way the agent waited
	 * for the trap that followed.
	 */
	m_trapped(m, task, on ? TRAP_SIGNAL : TRAP_SYSCALL);
	m->t[task].stepping = on;
}

/*
 * Does @j's exit_ptrace() run together with that of exiting thread
 * @tracer?  @tracer itself, and every thread of its group that entered
 * do_exit() in the same step and has not notified yet: a group exit or
 * de_thread() marks them all exited before the first exit_notify()
 * (exit_threads(), model/exit.c), and in the kernel each runs its own
 * do_exit() -> exit_notify() -> exit_ptrace() (kernel/exit.c:730-731) in
 * the scheduler's order, not in the model's.  A thread held in its
 * PTRACE_EVENT_EXIT stop is not one: it notifies when its tracer says.
 */
static bool exits_with(const struct model *m, int tracer, int j)
{
	return j == tracer ||
	       (j >= 0 && m->t[j].leader == m->t[tracer].leader && m->t[j].life == ML_ALIVE &&
		m->t[j].exited);
}

/*
 * A tracee of @tracer left single-stepping, not EXITKILL itself, with a
 * live sibling thread that is an EXITKILL tracee of @tracer, or of a
 * thread exiting with it (exits_with()): both lose their tracer
 * together, and whether the SIGTRAP or the SIGKILL takes the group first
 * is the scheduler's.  Looked at before exit_ptrace() unlinks anyone.
 */
bool m_step_exitkill_race(const struct model *m, int tracer)
{
	int x, i, lead;

	for (x = 0; x < m->n; x++) {
		if (!exits_with(m, tracer, m->t[x].tracer) || !m->t[x].stepping ||
		    (m->t[x].ptrace_opts & PTRACE_O_EXITKILL))
			continue;
		lead = m->t[x].leader;
		for (i = m->t[lead].first; i <= m->t[lead].last; i++)
			if (i != x && m->t[i].leader == lead &&
			    m->t[i].life == ML_ALIVE && exits_with(m, tracer, m->t[i].tracer) &&
			    (m->t[i].ptrace_opts & PTRACE_O_EXITKILL))
				return true;
	}
	return false;
}

/* Does the exit of @tracer kill namespace init @k's group too (see below)? */
static bool init_dies_with(const struct model *m, int tracer, int k)
{
	int i;

	/* every task of the group lies in first..last (m_alive_thread()) */
	for (i = m->t[k].first; i <= m->t[k].last; i++) {
		const struct mtask *o = &m->t[i];

		if (o->leader != k || o->life != ML_ALIVE)
			continue;
		if (exits_with(m, tracer, o->tracer) &&
		    (o->stepping || (o->ptrace_opts & PTRACE_O_EXITKILL)))
			return true;
		if (o->pdeath_signal && exits_with(m, tracer, m->t[k].real_parent))
			return true;
	}
	return false;
}

/*
 * A tracee of @tracer (or of a thread exiting with it: exits_with()) left
 * single-stepping, inside a pid namespace whose init (or an enclosing
 * one's) the same exits kill: a thread of the init's group left
 * single-stepping or EXITKILL by one of them, or its pdeath signal.  That
 * init's find_child_reaper() zaps the namespace (kernel/exit.c:588-616,
 * zap_pid_ns_processes()), and the zap's SIGKILL races with the tracee's
 * own SIGTRAP: which one the group dies of is the scheduler's (host fuzz
 * seed 35: killed(SIGKILL), the model said SIGTRAP).  Looked at before
 * exit_ptrace() unlinks anyone.
 */
bool m_step_zap_race(const struct model *m, int tracer)
{
	int x, lead, k;

	for (x = 0; x < m->n; x++) {
		if (!exits_with(m, tracer, m->t[x].tracer) || !m->t[x].stepping ||
		    m->t[x].life != ML_ALIVE || (m->t[x].ptrace_opts & PTRACE_O_EXITKILL))
			continue;
		lead = m->t[x].leader;
		/* an init's own zap spares its group: start at the namespace above */
		k = m->t[lead].ns == lead ? m->t[lead].ns_parent : m->t[lead].ns;
		for (; k != M_NONE; k = m->t[k].ns_parent)
			if (k != lead && init_dies_with(m, tracer, k))
				return true;
	}
	return false;
}

/*
 * Tracee @x of the exiting thread @tracer was left in its PTRACE_SINGLESTEP
 * trap.  exit_ptrace() -> __ptrace_detach() unlinks and wakes it without
 * ptrace_disable() (kernel/ptrace.c:567-589, 623-634; ptrace_detach() calls
 * it, :598): back in user space with TF still set it traps after one
 * instruction, and the SIGTRAP, untraced, is forced to SIG_DFL
 * (force_sig_info_to_task(), kernel/signal.c:1330-1357): the group dies of
 * it (a core dump if RLIMIT_CORE allows: CLD_DUMPED).  Queued like an
 * EXITKILL: the tracee cannot run to its trap before the tracer's
 * exit_notify() drops tasklist_lock.  Where another fatal signal races
 * with it the outcome is the scheduler's: unpredictable.
 */
void m_step_untraced(struct model *m, int tracer, int x)
{
	const struct mtask *t = &m->t[x];
	int lead = t->leader, i;

	if (t->life != ML_ALIVE || t->in_exit)
		return;
	if (m_wrong(m, R_STEP_TRACER_EXIT)) {
		/* perturbed: the group runs on, and a finding names the rule */
		m_why_group(m, t->leader, R_STEP_TRACER_EXIT);
		return;
	}
	if (t->stop != MS_RUNNING) {
		m->unpredictable = "a tracee left single-stepping is untraced into a group stop: "
				   "it dies of SIGTRAP only once continued";
		return;
	}
	for (i = 0; i < m->n; i++) {
		const struct mtask *o = &m->t[i];

		if (o->leader != lead || o->life != ML_ALIVE)
			continue;
		/* forget_original_parent() after exit_ptrace(), the same exit */
		if (o->pdeath_signal && m->t[lead].real_parent == tracer)
			m->unpredictable = "a tracee left single-stepping gets a pdeath signal "
					   "from its tracer's exit: which kills it first is a race";
	}
	/* find_child_reaper() -> zap_pid_ns_processes(): a SIGKILL racing with the trap */
	if (t->ns != M_NONE && t->ns == m->t[tracer].leader)
		m->unpredictable = "a tracee left single-stepping in the namespace its tracer "
				   "inits: the zap's SIGKILL and the SIGTRAP race";
	m_queue_signal(m, x, SIGTRAP);
	m->step_kills++;
}
