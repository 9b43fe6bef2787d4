// SPDX-License-Identifier: GPL-2.0
/*
 * Signals in the model: kill() and tgkill() of a task (a fatal one ends
 * the group through m_group_exit() of exit.c), SIGCONT's wake-ups and the
 * traps of seized tracees, and group stops.  Each rule is a row of
 * rules.def.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "model/model.h"

/* Is a live thread of @lead's group traced? */
static bool group_has_tracee(const struct model *m, int lead)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (m->t[i].leader == lead && m->t[i].life == ML_ALIVE && m->t[i].tracer != M_NONE)
			return true;
	return false;
}

/*
 * SIGCONT and a seized tracee @i of the signalled group: prepare_signal()
 * calls ptrace_trap_notify() for every seized thread (kernel/signal.c:
 * 932-946), which sets JOBCTL_TRAP_NOTIFY and wakes it if it listens
 * (:892-898).  A running or listening one traps at once:
 * do_jobctl_trap() with no group stop in effect is PTRACE_EVENT_STOP with
 * SIGTRAP (:2522-2533).  The SIGCONT itself is queued (a traced task
 * ignores nothing, sig_ignored() :116) and, for a group's only thread,
 * dequeued at the next resume: a signal-delivery-stop (get_signal()
 * :2772).  A tracee in another ptrace stop traps only once resumed: the
 * engine refuses SIGCONT then.
 */
static void sigcont_notify(struct model *m, int i, bool only_thread)
{
	struct mtask *t = &m->t[i];

	if (m_wrong(m, R_SIGCONT_NOTIFY) || (t->stop == MS_TRACED && !t->listening))
		return;
	m_event_trap_due(m, i, R_SIGCONT_NOTIFY);
	t->notify_trap = true;
	t->cont_queued = only_thread;
}

void m_sigcont_delivered(struct model *m, int task)
{
	m->t[task].cont_queued = false;
}

void m_signal(struct model *m, int task, int sig)
{
	int lead = m->t[task].leader, i;
	struct mtask *l = &m->t[lead];

	/* SIGNAL_UNKILLABLE: a namespace init drops SIG_DFL SIGTERM even from outside. */
	if (l->ns == lead && (sig == SIGTERM || sig == SIGHUP) &&
	    !m_wrong(m, R_NS_INIT_UNKILLABLE))
		return;
	switch (sig) {
	case SIGKILL:
	case SIGTERM:
	case SIGHUP:
		m_group_exit(m, task, 0, sig);
		break;
	case SIGTRAP:
		/* a step trap forced at SIG_DFL: a core dump (m_step_untraced(), step.c) */
		m_group_exit(m, task, 0, sig);
		m_why_group(m, lead, R_STEP_TRACER_EXIT);
		break;
	case SIGSTOP:
		/* do_signal_stop(): untraced threads stop (T), traced ones trap (t). */
		if (!l->gstop && !l->group_exit) {
			/*
			 * group_exit_code = SIGSTOP; SIGNAL_STOP_STOPPED (which
			 * clears SIGNAL_STOP_CONTINUED) once every thread took
			 * part: at once for an untraced group, at the tracers'
			 * pace otherwise.
			 */
			l->gstop_code = SIGSTOP;
			l->cont_report = false;
			l->jobctl_unknown |= group_has_tracee(m, lead);
		}
		l->gstop = true;
		for (i = 0; i < m->n; i++) {
			struct mtask *t = &m->t[i];

			if (t->leader != lead || t->life != ML_ALIVE || t->in_exit)
				continue;
			if (t->tracer == M_NONE) {
				t->stop = MS_GROUP;
				t->why_state = R_GROUP_STOP;
			} else if (t->stop == MS_TRACED && !t->listening) {
				/* TASK_TRACED is not woken: it traps when its tracer resumes it */
				t->stop_pending = true;
			} else if (!m_wrong(m, R_GROUP_STOP)) {
				t->stop_report = true;
				t->stop = MS_TRACED;
				t->trap = t->seized ? TRAP_EVENT_STOP : TRAP_GROUP;
				t->listening = false;
				t->why_state = R_GROUP_STOP;
			}
		}
		break;
	case SIGCONT: {
		/* the queued SIGCONT's taker is known only for a group of one live thread */
		bool only_thread = m_live_threads(m, lead) == 1;

		/* prepare_signal(): a stopped group is continued; group_exit_code = 0 */
		if (l->gstop) {
			l->cont_report = !m_wrong(m, R_WAIT_CONTINUED);
			if (!m_wrong(m, R_WAIT_STOPPED))
				l->gstop_code = 0;
			l->jobctl_unknown |= group_has_tracee(m, lead);
		}
		l->gstop = false;
		for (i = 0; i < m->n; i++) {
			if (m->t[i].leader == lead && m->t[i].stop == MS_GROUP) {
				m->t[i].stop = MS_RUNNING;
				m->t[i].why_state = R_GROUP_STOP;
			}
			if (m->t[i].leader == lead)
				m->t[i].stop_pending = false;
			if (m->t[i].leader == lead && m->t[i].life == ML_ALIVE && !m->t[i].in_exit &&
			    m->t[i].tracer != M_NONE && m->t[i].seized)
				sigcont_notify(m, i, only_thread);
		}
		break;
	}
	}
}

void m_signal_thread(struct model *m, int task, int sig)
{
	/*
	 * A thread that exited (a zombie: PF_EXITING since exit_signals())
	 * still has its pid until release_task(), so tgkill() finds it
	 * (do_send_specific()) and says 0.  The signal goes to its own
	 * pending set (PIDTYPE_PID), and complete_signal() wakes nobody else:
	 * wants_signal() is false with PF_EXITING, and a PIDTYPE_PID signal
	 * is never handed to a sibling (kernel/signal.c:991-992, 1015-1021).
	 * Nobody dequeues it, so even SIGKILL leaves a zombie leader's live
	 * threads alone, where kill() of the same pid (PIDTYPE_TGID) would
	 * find one of them.  SIGCONT is the exception: prepare_signal()
	 * continues the whole group before the signal is queued
	 * (:932-973).
	 */
	if (m->t[task].life == ML_ZOMBIE && sig != SIGCONT && !m_wrong(m, R_TKILL_EXITED))
		return;
	m_signal(m, task, sig);
}
