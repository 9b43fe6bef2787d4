// SPDX-License-Identifier: GPL-2.0
/*
 * What a non-blocking wait finds: do_wait() with its flags, task by task.
 *
 * __do_wait() (kernel/exit.c:1594-1636) walks, for the caller's thread
 * and, without __WNOTHREAD, every other thread of its group, that
 * thread's ->children (wait_consider_task(ptrace=0)) and its ->ptraced
 * (ptrace=1); a P_PID wait looks at the one task instead
 * (do_wait_pid(), :1564-1590), under the same is_effectively_child()
 * test.  Each task it considers is eligible or not (eligible_child()),
 * and an eligible one is either reported (wait_task_zombie()) or only
 * clears ->notask_error: the wait would block, and WNOHANG returns 0.
 * When nothing eligible was seen the result is -ECHILD.
 *
 * The engine never calls this while a stop report the wait would return
 * first is due (m_wait_consider() says MW_RACY): stop reports belong to
 * the tracer verbs.  WSTOPPED and WCONTINUED are not modelled yet.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "model/model.h"

/* is_effectively_child(): @who is the caller, or its group without __WNOTHREAD. */
static bool effectively(const struct model *m, int waiter, int who, int flags)
{
	if (who < 0)
		return false;
	if (who == waiter)
		return true;
	if ((flags & __WNOTHREAD) && !m_wrong(m, R_WAIT_NOTHREAD))
		return false;
	return m_same_group(m, who, waiter);
}

/*
 * eligible_child() for the ->children walk (ptrace == 0): the exit signal
 * decides unless __WALL.  A thread is never on a ->children list (only
 * leaders are linked there, copy_process() kernel/fork.c:2509).
 */
static bool clone_eligible(const struct model *m, int c, int flags)
{
	const struct mtask *t = &m->t[c];

	if ((flags & __WALL) || m_wrong(m, R_WAIT_CLONE))
		return true;
	return (t->exit_signal != SIGCHLD) == !!(flags & __WCLONE);
}

/* A task that waits behind something (live, delayed, hidden): MW_PENDING or MW_RACY. */
static enum m_wstate waits_behind(const struct mtask *t, bool ptrace)
{
	/*
	 * A due group-stop report would come first (wait_task_stopped()
	 * with ptrace: "regardless of options"); a zombie the namespace's
	 * init reaps in zap_pid_ns_processes() may go at any moment.
	 */
	if ((ptrace && t->life == ML_ALIVE && t->stop_report) || t->zap_reaped)
		return MW_RACY;
	return MW_PENDING;
}

static enum m_wstate consider(const struct model *m, int waiter, int c, int flags, int *rule,
			      enum m_wkind *kind)
{
	const struct mtask *t = &m->t[c];
	bool child = false, tracee = false, as_tracer, upgraded, same;
	int cc;

	*rule = t->why_owed;
	if (c == 0 || t->life == ML_DEAD)
		return MW_NOT;	/* EXIT_DEAD, or gone: wait_consider_task() :1398 */
	/* ->children of the real parent thread: leaders only */
	if (t->leader == c && effectively(m, waiter, t->real_parent, flags)) {
		if (clone_eligible(m, c, flags))
			child = true;
		else
			*rule = R_WAIT_CLONE;
	}
	/* ->ptraced of the tracer thread: any thread, any exit signal */
	if (t->tracer != M_NONE && effectively(m, waiter, t->tracer, flags))
		tracee = true;
	if (!child && !tracee) {
		/* Name the flag that hid it, if one did. */
		if (*rule != R_WAIT_CLONE)
			*rule = (flags & __WNOTHREAD) &&
				(effectively(m, waiter, t->tracer, flags & ~__WNOTHREAD) ||
				 (t->leader == c &&
				  effectively(m, waiter, t->real_parent, flags & ~__WNOTHREAD))) ?
				R_WAIT_NOTHREAD : R_NONE;
		return MW_NOT;
	}
	/*
	 * A child traced by its real parent's group is looked at as by its
	 * tracer (wait_consider_task() :1417-1431).
	 */
	upgraded = child && t->tracer != M_NONE && m_same_group(m, t->tracer, t->real_parent);
	/*
	 * Traced by a thread of its real parent's group, a leader owes one
	 * report, its real parent's (exit_notify(), !ptrace_reparented()),
	 * and that tracer thread's ->ptraced walk finds it as well, with
	 * ptrace == 1: whatever its exit signal (eligible_child() kernel/exit.c:1083-1084)
	 * and whichever thread forked it; wait_task_zombie() reaps it
	 * (EXIT_DEAD, :1129-1130).
	 */
	same = tracee && t->leader == c &&
	       m_same_group(m, t->tracer, m->t[t->leader].real_parent);
	/* Whose report is due now (delay_group_leader(), a tracer first). */
	*kind = MWK_EXIT;
	cc = m_next_collector(m, c, &as_tracer);
	if (cc != M_NONE) {
		if (as_tracer ? (tracee || upgraded) : (child || same)) {
			*rule = t->why_owed;
			return MW_READY;
		}
	}
	/*
	 * A tracer's WCONTINUED: wait_task_continued() runs for ptrace == 1
	 * too ("the ptracer can consume it which can confuse the real
	 * parent", wait_consider_task() :1484-1489), on a delayed zombie leader as on a
	 * live task; whether SIGNAL_STOP_CONTINUED is set while a tracer
	 * holds the group is not modelled.
	 */
	if ((tracee || upgraded) && (flags & WCONTINUED))
		return MW_RACY;
	/*
	 * Not reaped: a group stop or continue of the child's group
	 * (->signal), for its real parent only: wait_task_stopped() and
	 * wait_task_continued() with ptrace == 0 (:1276-1280,1343-1347).
	 * A traced group's stop completes at its tracers' pace: not modelled.
	 */
	if (child && !upgraded && (flags & (WSTOPPED | WCONTINUED))) {
		const struct mtask *l = &m->t[t->leader];
		int i;

		if (l->jobctl_unknown)
			return MW_RACY;
		for (i = 0; i < m->n; i++)
			if (m->t[i].leader == t->leader && m->t[i].life == ML_ALIVE &&
			    m->t[i].tracer != M_NONE)
				return MW_RACY;
		if ((flags & WSTOPPED) && l->gstop_code) {
			*rule = R_WAIT_STOPPED;
			*kind = MWK_STOP;
			return MW_READY;
		}
		if ((flags & WCONTINUED) && l->cont_report) {
			*rule = R_WAIT_CONTINUED;
			*kind = MWK_CONT;
			return MW_READY;
		}
	}
	*rule = R_WAIT_ECHILD;
	return waits_behind(t, tracee || upgraded);
}

enum m_wstate m_wait_consider(const struct model *m, int waiter, int c, int flags, int *rule)
{
	enum m_wkind kind;

	return consider(m, waiter, c, flags, rule, &kind);
}

enum m_wkind m_wait_kind(const struct model *m, int waiter, int c, int flags)
{
	enum m_wkind kind = MWK_EXIT;
	int rule;

	consider(m, waiter, c, flags, &rule, &kind);
	return kind;
}

void m_wait_took(struct model *m, int c, enum m_wkind kind)
{
	struct mtask *l = &m->t[m->t[c].leader];

	if (kind == MWK_STOP)
		l->gstop_code = 0;	/* wait_task_stopped(): *p_code = 0 */
	else if (kind == MWK_CONT)
		l->cont_report = false;	/* SIGNAL_STOP_CONTINUED cleared */
}

int m_predict_waitid(const struct model *m, int waiter, int task, int flags, int *rule)
{
	enum m_wstate s, best = MW_NOT;
	int i, r, ready = M_NONE;

	*rule = R_WAIT_ECHILD;
	for (i = task >= 0 ? task : 1; i < m->n && (task < 0 || i == task); i++) {
		s = m_wait_consider(m, waiter, i, flags, &r);
		if (s == MW_RACY)
			return -EAGAIN;
		if (s > best || (s == MW_NOT && best == MW_NOT && r != R_NONE)) {
			best = s;
			*rule = r;
		}
		if (s == MW_READY && ready == M_NONE)
			ready = i;
	}
	if (best == MW_READY)
		return ready;
	/* Nothing to report: 0 while something eligible may still report. */
	if ((best == MW_PENDING) != m_wrong(m, R_WAIT_ECHILD))
		return 0;
	return -ECHILD;
}

struct m_pred m_waitid_pidfd(const struct model *m, int pred, int rule)
{
	/* kernel_waitid(): O_NONBLOCK adds WNOHANG; !ret && !WNOHANG -> -EAGAIN */
	if (pred == 0 && !m_wrong(m, R_WAITID_PIDFD))
		return (struct m_pred){ EAGAIN, R_WAITID_PIDFD };
	return (struct m_pred){ pred == -ECHILD ? ECHILD : 0, pred == 0 ? R_WAITID_PIDFD : rule };
}
