// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel must show now (model.h): PPid, TracerPid, /proc State,
 * ->ptrace flags, the status of an exit report, and the errno of a ptrace
 * request.  Pure functions of the model; perturbations as in model.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "model/model.h"

#define PT_PTRACED		0x00000001	/* include/linux/ptrace.h:32 */
#define PT_SEIZED		0x00010000	/* include/linux/ptrace.h:31 */
#define PT_OPT_FLAG_SHIFT	3		/* include/linux/ptrace.h:34 */

int m_ppid_task(const struct model *m, int task)
{
	const struct mtask *l = &m->t[m->t[task].leader];
	int p = l->real_parent;

	/* perturbed: a forked child's PPid is taken to be R's */
	if (m_wrong(m, R_FORK_PARENT) && l->why_parent == R_FORK_PARENT && p > 0)
		return 0;
	return p < 0 ? p : m->t[p].leader;
}

pid_t m_ppid(const struct model *m, int task)
{
	int p = m_ppid_task(m, task);

	if (p == M_INIT)
		return 1;
	return p < 0 ? 0 : m->t[p].tid;
}

pid_t m_tracer_pid(const struct model *m, int task)
{
	int tr = m->t[task].tracer;

	/* proc_pid_status(): TracerPid is task_pid_nr_ns() of the tracer thread. */
	return tr < 0 ? 0 : m->t[tr].tid;
}

const char *m_state_letters(const struct model *m, int task)
{
	const struct mtask *t = &m->t[task];

	/*
	 * zap_pid_ns_processes(): kernel_wait4() sleeps interruptibly (S),
	 * then TASK_IDLE (I) until the namespace's pids are freed; exit_state
	 * is 0 all along.  A candidate that may have zapped instead of
	 * another init thread may also be where a non-zapper ends (Z, gone).
	 */
	if (m_zapping(m, task)) {
		if (m_wrong(m, R_ZAPPER_SLEEPS))
			return "Z";	/* perturbed: a plain zombie */
		return t->zap_cand && t->life == ML_ZOMBIE ? "RSIDZ" : "RSID";
	}
	switch (t->life) {
	case ML_DEAD:
		return "";
	case ML_ZOMBIE:
		return "Z";
	case ML_ALIVE:
		break;
	}
	if (t->exit_stop)
		return "t";
	switch (t->stop) {
	case MS_TRACED:
		return m_wrong(m, R_TRACEE_STOP) ? "T" : "t";	/* perturbed: T */
	case MS_GROUP:
		return "T";
	case MS_RUNNING:
		break;
	}
	return "RSD";
}

unsigned long m_ptrace_flags(const struct model *m, int task)
{
	const struct mtask *t = &m->t[task];
	unsigned long f;

	if (t->tracer == M_NONE)
		return 0;
	/*
	 * ptrace_attach(): PT_PTRACED, and for PTRACE_SEIZE PT_SEIZED with the
	 * options; PTRACE_SETOPTIONS after an attach sets the options too;
	 * ptrace_init_task() copies the creator's flags; TRACEME: PT_PTRACED.
	 */
	f = PT_PTRACED | (t->ptrace_opts << PT_OPT_FLAG_SHIFT);
	if (t->seized && !m_wrong(m, R_ATTACH_LINK))
		f |= PT_SEIZED;
	return f;
}

#define EXIT_ZOMBIE_STATE	0x20	/* include/linux/sched.h: EXIT_ZOMBIE */

void m_links(const struct model *m, int task, struct m_links *w)
{
	const struct mtask *t = &m->t[task];
	int rp = m->t[t->leader].real_parent, k;

	memset(w, 0, sizeof(*w));
	w->tid = t->tid;
	w->tgid = m->t[t->leader].tid;
	w->leader = w->tgid;
	/* ->real_parent is a thread: the exact one, not its group (PPid shows that). */
	w->real_parent = rp == M_INIT ? 1 : rp >= 0 ? m->t[rp].tid : 0;
	w->tracer = m_tracer_pid(m, task);
	w->parent = w->tracer ? w->tracer : w->real_parent;
	w->ptrace = m_ptrace_flags(m, task);
	if (m->lk_frozen) {
		w->ptraced = m->lk_ptraced[task];
		w->children = m->lk_children[task];
	}
	for (k = 0; !m->lk_frozen && k < m->n; k++) {
		const struct mtask *x = &m->t[k];

		if (x->life == ML_DEAD)
			continue;
		/* __ptrace_link(): on the tracer thread's ->ptraced list. */
		if (x->tracer == task)
			w->ptraced++;
		/* copy_process(): only leaders go on ->real_parent's ->children. */
		if (x->leader == k && x->real_parent == task)
			w->children++;
	}
	if (m_wrong(m, R_LINKS_LISTS))
		w->children++;		/* perturbed: one child too many */
	w->sibling_linked = t->leader == task;
	w->exit_state = t->life == ML_ZOMBIE && !t->zapper ? EXIT_ZOMBIE_STATE : 0;
	/*
	 * copy_process(): the clone()'s exit signal for a process (SIGCHLD
	 * unless "exit-signal"; reparent_leader() and de_thread() reset it),
	 * -1 for a thread.
	 */
	w->exit_signal = t->leader == task ? t->exit_signal : -1;
	if (m_wrong(m, R_LINKS_EXIT_SIGNAL))
		w->exit_signal = 0;	/* perturbed */
	w->exiting = t->life != ML_ALIVE || t->exited;
}

int m_links_freeze(struct model *m)
{
	int k;

	if (m->lk_cap < m->n) {
		int cap = m->n * 2;
		unsigned long *p = realloc(m->lk_ptraced, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->lk_ptraced = p;
		p = realloc(m->lk_children, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		m->lk_children = p;
		m->lk_cap = cap;
	}
	memset(m->lk_ptraced, 0, m->n * sizeof(*m->lk_ptraced));
	memset(m->lk_children, 0, m->n * sizeof(*m->lk_children));
	/* m_links()'s walk, for every task at once */
	for (k = 0; k < m->n; k++) {
		const struct mtask *x = &m->t[k];

		if (x->life == ML_DEAD)
			continue;
		if (x->tracer >= 0)
			m->lk_ptraced[x->tracer]++;
		if (x->leader == k && x->real_parent >= 0)
			m->lk_children[x->real_parent]++;
	}
	m->lk_frozen = true;
	return 0;
}

void m_links_thaw(struct model *m)
{
	m->lk_frozen = false;
}

void m_report_status(const struct model *m, int task, int *code, int *sig)
{
	const struct mtask *t = &m->t[task], *l = &m->t[t->leader];

	/* wait_task_zombie(): SIGNAL_GROUP_EXIT ? group_exit_code : exit_code (exit.c:1199). */
	if (l->group_exit && !m_wrong(m, R_GROUP_EXIT_CODE)) {
		*code = l->group_code;
		*sig = l->group_sig;
		return;
	}
	*code = t->exit_code + (m_wrong(m, R_EXIT_CODE_OWN) ? 1 : 0);
	*sig = t->exit_sig;
}

static struct m_pred pred(int err, int rule)
{
	return (struct m_pred){ .err = err, .rule = rule };
}

struct m_pred m_predict_attach(const struct model *m, int tracer, int task)
{
	const struct mtask *t = &m->t[task];

	if (t->life == ML_DEAD)
		return pred(m_wrong(m, R_ATTACH_ESRCH) ? EPERM : ESRCH, R_ATTACH_ESRCH);
	/* exit_state set (a leader waiting for its threads too), already traced, our group. */
	if ((t->life == ML_ZOMBIE && !t->zapper) || t->tracer != M_NONE ||
	    m->t[tracer].leader == t->leader)
		return pred(m_wrong(m, R_ATTACH_EPERM) ? 0 : EPERM, R_ATTACH_EPERM);
	return pred(0, R_ATTACH_LINK);
}

struct m_pred m_predict_traceme(const struct model *m, int task)
{
	if (m->t[task].tracer != M_NONE)
		return pred(m_wrong(m, R_TRACEME_EPERM) ? 0 : EPERM, R_TRACEME_EPERM);
	return pred(0, R_TRACEME_LINK);
}

bool m_vfork_parent_waits(const struct model *m)
{
	/* kernel_clone(): wait_for_vfork_done(), TASK_UNINTERRUPTIBLE|TASK_KILLABLE */
	return !m_wrong(m, R_VFORK);	/* perturbed: the parent runs on */
}

struct m_pred m_predict_pidfd_open(const struct model *m, int task)
{
	/* pidfd_prepare(): pid_has_task(pid, PIDTYPE_TGID), a leader's pid only */
	if (m->t[task].leader != task && !m_wrong(m, R_PIDFD_OPEN))
		return pred(EINVAL, R_PIDFD_OPEN);
	return pred(0, R_PIDFD_OPEN);
}

bool m_pidfd_readable(const struct model *m, int task, int *rule)
{
	const struct mtask *t;
	bool exited;

	*rule = R_PIDFD_POLL;
	/* thread_group_exited(): !task || (exit_state && thread_group_empty()) */
	if (task == M_NONE)
		return true;
	t = &m->t[task];
	if (t->life == ML_DEAD)
		return true;
	/* an ns init sleeping in zap_pid_ns_processes() has no exit_state yet */
	exited = t->life == ML_ZOMBIE && !t->zapper;
	/* ->thread_group: a thread leaves it when released (__unhash_process()) */
	if (exited && !m_wrong(m, R_PIDFD_POLL))
		exited = m_group_empty(m, task);
	return exited;
}

struct m_pred m_predict_request(const struct model *m, int tracer, int task, enum m_req req)
{
	const struct mtask *t = &m->t[task];

	/* ptrace_check_attach(): ours, and (but for KILL/INTERRUPT) stopped. */
	if (t->tracer != tracer || t->life == ML_DEAD)
		return pred(ESRCH, R_REQUEST_STOPPED);
	/* perturbed: an exited tracee is taken to be gone */
	if (req == MR_KILL)
		return pred(m_wrong(m, R_PTRACE_KILL_ANY) && t->life != ML_ALIVE ? ESRCH : 0,
			    R_PTRACE_KILL_ANY);
	if (req == MR_INTERRUPT)
		return pred(m_wrong(m, R_INTERRUPT_ANY) && t->life != ML_ALIVE ? ESRCH : 0,
			    R_INTERRUPT_ANY);
	/* ptrace_freeze_traced() refuses a tracee in JOBCTL_LISTENING too. */
	if (t->life != ML_ALIVE || t->stop != MS_TRACED || t->listening)
		return pred(m_wrong(m, R_REQUEST_STOPPED) ? 0 : ESRCH, R_REQUEST_STOPPED);
	/* PTRACE_LISTEN: seized, and the stop is a PTRACE_EVENT_STOP. */
	if (req == MR_LISTEN && (!t->seized || t->trap != TRAP_EVENT_STOP))
		return pred(m_wrong(m, R_LISTEN_EIO) ? 0 : EIO, R_LISTEN_EIO);
	return pred(0, req == MR_LISTEN ? R_LISTEN_TRACED : req == MR_DETACH ? R_DETACH_UNLINK :
		    R_RESUME_RUNS);
}

bool m_delivers_signal(const struct model *m, int task)
{
	const struct mtask *t = &m->t[task];
	bool d = t->trap == TRAP_SIGNAL || t->trap == TRAP_SYSCALL;

	return m_wrong(m, R_SIGNAL_DELIVERY) ? !d : d;
}

bool m_signal_restops(const struct model *m, int task, int sig)
{
	/*
	 * ptrace_report_syscall() send_sig()s the resume signal to the
	 * tracee (include/linux/ptrace.h:432-433); traced, it is never
	 * ignored (sig_ignored(), kernel/signal.c:116, even SIG_DFL SIGTERM
	 * of a namespace init), so get_signal() dequeues it and
	 * ptrace_signal() stops again (:2772): a signal-delivery-stop with
	 * that signal.  SIGKILL kills at once (complete_signal()).
	 */
	return !m_wrong(m, R_SYSCALL_SIGNAL_STOP) && m->t[task].trap == TRAP_SYSCALL && sig &&
	       sig != SIGKILL;
}
