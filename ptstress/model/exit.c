// SPDX-License-Identifier: GPL-2.0
/*
 * Exits in the model: do_exit() and exit_notify() of one thread, group
 * exits, PTRACE_EVENT_EXIT stops, pid namespace teardown and
 * execve()'s de_thread().  Each rule is a row of rules.def.
 *
 * The order of do_exit() matters and is kept: synchronize_group_exit()
 * (kernel/exit.c:821), the PTRACE_EVENT_EXIT stop (:829) while the thread
 * is not yet PF_EXITING and so still a reaper candidate, exit_signals()
 * (:834), then exit_notify() (:899): exit_ptrace(), find_child_reaper()
 * (which may zap the namespace and sleep), the reparenting, and only then
 * exit_state and the parent's notification.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "model/model.h"

/* Everything in @init's namespace is released but init's leader and its zapper. */
bool m_ns_drained(const struct model *m, int init)
{
	int i, k;

	M_FOR_UNREL(m, k, i) {
		const struct mtask *t = &m->t[i];

		/*
		 * Every pid of the namespace: tasks of nested namespaces have
		 * one in it too (free_pid() decrements each level's
		 * pid_allocated, kernel/pid.c:112-130), a nested init's zapper
		 * included; only this init's own leader and zapper are
		 * init_pids (:171).
		 */
		if (t->life == ML_DEAD || !m_ns_within(m, t->ns, init))
			continue;
		if (t->leader == init && (i == init || t->zapper || t->zap_cand))
			continue;
		/* perturbed: a nested namespace's pids do not hold the init */
		if (t->ns != init && m_wrong(m, R_ZAP_NESTED))
			continue;
		/* The init group's own threads hold pids too (pid_allocated, :245-267). */
		if (m_wrong(m, R_ZAPPER_SLEEPS) && t->leader == init)
			continue;	/* perturbed: init's threads do not count */
		return false;
	}
	return true;
}

bool m_zapping(const struct model *m, int task)
{
	const struct mtask *t = &m->t[task];

	return (t->zapper || t->zap_cand) && t->life != ML_DEAD &&
	       !m_ns_drained(m, m->t[task].leader);
}

/*
 * release_task() of a non-leader: the last one notifies a zombie leader's
 * parent (kernel/exit.c:277-281), who may reap it (an ignored SIGCHLD).
 */
void m_release_thread(struct model *m, int i, int rule)
{
	int lead = m->t[i].leader, n = m->nnotices;
	const struct mtask *l = &m->t[lead];

	m_set_life(m, i, ML_DEAD, rule);
	if (lead == i || l->life != ML_ZOMBIE || l->zapper || !m_group_empty(m, lead))
		return;
	/* release_task() :277-281: the leader may reap itself then */
	if (!l->zap_reaped) {
		if (m_notify(m, lead, l->tracer != M_NONE ? l->tracer : l->real_parent,
			     l->exit_signal, R_NOTIFY_PARENT))
			m_autoreap(m, lead, R_SIGCHLD_AUTOREAP);
		return;
	}
	/*
	 * A leader a dying namespace's init reaps (zap_reaped) notifies too
	 * when it is traced: do_notify_parent() writes to ->parent, its
	 * tracer, not the init whose SIGCHLD zap_pid_ns_processes() ignores
	 * (on kernels after 6.1 with the group's code: the zap's SIGKILL).
	 * With the exit signal it had when the zap began, unless its real
	 * parent, killed by the same zap, reparented it first
	 * (reparent_leader() sets SIGCHLD, kernel/exit.c:671): which one comes
	 * first is the zap's race (guest fuzz seed 2: "exit-signal none"),
	 * settled by zap_ns() where it can be.  Where it is not, and only one
	 * of the two sends SIGCHLD (do_notify_parent() may turn the other
	 * into SIGCHLD too, m_notify()), the notice matches a SIGCHLD but none
	 * is owed.  m_notify() appends at most one notice.
	 */
	if (l->tracer == M_NONE)
		return;
	m_notify(m, lead, l->tracer, l->zap_sig, R_NOTIFY_PARENT);
	if (l->zap_sig_sure || m->nnotices > n)
		return;
	m_notify(m, lead, l->tracer, SIGCHLD, R_NOTIFY_PARENT);
	if (m->nnotices > n)
		m->notices[m->nnotices - 1].maybe = true;
}

/*
 * zap_pid_ns_processes(): the namespace's last init thread SIGKILLs every
 * other pid of it, live threads of a group whose leader is a zombie
 * included; its kernel_wait4() loop reaps them (after their tracers
 * outside the namespace did), so none is owed to a real parent.
 */
static void zap_ns(struct model *m, int init)
{
	int i;

	/* SIGCHLD is set to SIG_IGN first (pid_namespace.c:182-184): its zombies autoreap. */
	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];
		int rp = m->t[t->leader].real_parent;

		if (!m_ns_within(m, t->ns, init) || t->leader == init || m_wrong(m, R_ZAP_REAPED))
			continue;
		/*
		 * A process whose real parent is outside the namespace
		 * (setns()+fork(), :222-244) is no zombie of init's: it stays
		 * its parent's, and init waits for that parent to reap it.
		 */
		if (!(rp >= 0 && m_ns_within(m, m->t[rp].ns, init)) &&
		    !m_wrong(m, R_ZAP_SETNS_CHILD))
			continue;
		t->owed_parent = 0;
		t->zap_reaped = true;
		/*
		 * The exit signal its release notifies with (m_release_thread()):
		 * this one for sure if SIGCHLD already, or if its real parent is
		 * the zapping thread, which reparents only after the drain.
		 */
		t->zap_sig = t->exit_signal;
		t->zap_sig_sure = t->exit_signal == SIGCHLD || (rp >= 0 && m->t[rp].zapper);
		t->why_owed = R_ZAP_REAPED;
	}
	for (i = 0; i < m->n; i++) {
		/* the idr walk (:199-208) meets nested namespaces' tasks too */
		if (!m_ns_within(m, m->t[i].ns, init) || m->t[i].leader != i || i == init)
			continue;
		/* perturbed: a group whose leader already exited is spared */
		if (m_wrong(m, R_ZAP_NS) && m->t[i].life != ML_ALIVE)
			continue;
		if (m_alive_thread(m, i) != M_NONE)
			m_group_exit(m, i, 0, SIGKILL);
	}
}

/* The part of exit_notify() after the reparenting: exit_state and the notification. */
static void exit_complete(struct model *m, int i)
{
	struct mtask *t = &m->t[i];
	int parent = m->t[t->leader].real_parent;

	t->zapper = false;
	if (t->leader == i) {
		/* A leader stays a zombie until its parent (or tracer) waits. */
		m_set_life(m, i, m_wrong(m, R_LEADER_ZOMBIE) ? ML_DEAD : ML_ZOMBIE,
			   R_LEADER_ZOMBIE);
		/* perturbed: the real parent is owed nothing */
		t->owed_parent = parent != M_INIT && !t->zap_reaped && !m_wrong(m, R_REPORT_PARENT);
		t->why_owed = R_REPORT_PARENT;
		/* ptrace_reparented(): one report for the tracer first. */
		t->owed_tracer = t->tracer != M_NONE && !m_same_group(m, t->tracer, parent);
		if (t->owed_tracer)
			t->why_owed = R_REPORT_TRACER_FIRST;
		else if (t->tracer != M_NONE)
			t->why_owed = R_REPORT_SAME_GROUP_ONCE;
		if (m_wrong(m, R_REPORT_TRACER_FIRST) && t->owed_tracer)
			t->owed_tracer = 0;	/* perturbed: the real parent gets it first */
		if (m_wrong(m, R_REPORT_SAME_GROUP_ONCE) && t->tracer != M_NONE)
			t->owed_tracer = 1;	/* perturbed: two reports in the same group */
		/*
		 * exit_notify(): the exit_signal goes to an untraced leader's
		 * real parent, and to a tracer in the real parent's group
		 * (!ptrace_reparented()) once the group is empty; SIGCHLD
		 * otherwise.
		 */
		if (t->tracer != M_NONE)
			m_notify(m, i, t->tracer, m_group_empty(m, i) &&
				 m_same_group(m, t->tracer, parent) ? t->exit_signal : SIGCHLD,
				 R_NOTIFY_TRACER);
		else if (m_group_empty(m, i) && parent != M_INIT &&
			 m_notify(m, i, parent, t->exit_signal, R_NOTIFY_PARENT))
			m_autoreap(m, i, R_SIGCHLD_AUTOREAP);
	} else if (t->tracer != M_NONE) {
		/* A traced thread is a zombie for its tracer only. */
		if (m_wrong(m, R_TRACED_THREAD_ZOMBIE)) {
			m_release_thread(m, i, R_TRACED_THREAD_ZOMBIE);
			return;
		}
		m_set_life(m, i, ML_ZOMBIE, R_TRACED_THREAD_ZOMBIE);
		t->owed_tracer = 1;
		t->why_owed = R_TRACED_THREAD_ZOMBIE;
		m_notify(m, i, t->tracer, SIGCHLD, R_NOTIFY_TRACER);
	} else if (m_wrong(m, R_THREAD_AUTOREAP)) {
		m_set_life(m, i, ML_ZOMBIE, R_THREAD_AUTOREAP);	/* perturbed: not reaped */
	} else if (t->zap_cand && !m_ns_drained(m, t->ns)) {
		/*
		 * One init thread of a group exit: released now if another
		 * thread zaps, asleep in zap_pid_ns_processes() until the
		 * drain if it is the last one out -- the kernel's choice
		 * (find_child_reaper()).  Kept as a candidate until the drain
		 * (m_settle() releases it then); either is accepted meanwhile.
		 */
		m_set_life(m, i, ML_ZOMBIE, R_CHILD_REAPER_MOVES);
	} else {
		/* exit_notify(): autoreap of an untraced sub-thread. */
		m_release_thread(m, i, R_THREAD_AUTOREAP);
	}
}

/* No other thread of @i's group is still before its exit_notify() (group_dead). */
static bool group_dead(const struct model *m, int i)
{
	int k;

	for (k = 0; k < m->n; k++)
		if (k != i && m->t[k].leader == m->t[i].leader && m->t[k].life == ML_ALIVE &&
		    !m->t[k].exited)
			return false;
	return true;
}

/*
 * The zombie threads exit_ptrace() let go (its dead list): released once
 * tasklist_lock is dropped, at the end of exit_notify() (kernel/exit.c:
 * 768-771), or before the zap in find_child_reaper() (:608-611).
 */
static void release_detached(struct model *m)
{
	int i;

	for (i = 0; i < m->n && m->ndetach_dead; i++) {
		if (!m->t[i].detach_dead)
			continue;
		m->t[i].detach_dead = false;
		m->ndetach_dead--;
		m_release_thread(m, i, R_DETACH_ZOMBIE_THREAD);
	}
}

/* exit_notify() for thread @i, PF_EXITING and past any PTRACE_EVENT_EXIT stop. */
static void exit_notify(struct model *m, int i)
{
	struct mtask *t = &m->t[i];
	struct mtask *l = &m->t[t->leader];

	t->exited = true;
	t->exit_stop = false;
	t->stop = MS_RUNNING;
	t->trap = TRAP_NONE;
	t->listening = false;
	t->stop_pending = false;
	m_exit_ptrace(m, i);
	/*
	 * find_child_reaper(): the namespace's child_reaper thread moves to a
	 * live thread of init's group; the last one zaps the namespace and
	 * sleeps in zap_pid_ns_processes() until it has drained.
	 */
	if (l->ns == t->leader && l->ns_reaper == i) {
		int th = m_alive_thread(m, t->leader);

		if (th != M_NONE && !m_wrong(m, R_CHILD_REAPER_MOVES)) {
			l->ns_reaper = th;
			m->reaper_moves++;
		} else if (th == M_NONE) {
			release_detached(m);
			/* EXITKILL tracees die while the zapper sleeps (exit_ptrace() first) */
			m_deliver_pdeath(m);
			t->zapper = true;
			zap_ns(m, t->leader);
		}
	}
	if (t->zapper) {
		/*
		 * Still in do_exit(), sleeping until the namespace is empty
		 * (exit_state 0): find_child_reaper() zaps before
		 * forget_original_parent() reparents, so its children stay its
		 * own until the drain (m_settle()).
		 */
		m_set_life(m, i, ML_ZOMBIE, R_ZAPPER_SLEEPS);
		release_detached(m);
		return;
	}
	m_reparent_children(m, i);
	/* exit_notify(): the last thread out checks its own process group */
	if (group_dead(m, i))
		m_orphan_check(m, t->leader, M_NONE);
	exit_complete(m, i);
	release_detached(m);
	m_deliver_pdeath(m);
}

/*
 * The pdeath signals forget_original_parent() sent (model.c pdeath_send()):
 * a process-directed signal to each group, taking effect after the exit
 * that orphaned it.  SIGKILL ends the group (unless a group exit is under
 * way: complete_signal()); another signal to a traced group stops some
 * thread in a signal-delivery-stop, which one is the kernel's choice.
 */
void m_deliver_pdeath(struct model *m)
{
	/* FIFO, and re-entrant: a death may orphan more pdeath receivers. */
	while (m->npdeath) {
		int task = m->pdeath[0], sig = m->pdeath[1];
		int lead = m->t[task].leader, w = m_alive_thread(m, lead), i;

		m->npdeath -= 2;
		memmove(m->pdeath, m->pdeath + 2, m->npdeath * sizeof(*m->pdeath));
		if (w == M_NONE || m->t[lead].group_exit)
			continue;
		/* SIGTRAP: the single step's, forced on its own thread (m_exit_ptrace()) */
		for (i = 0; i < m->n && sig != SIGKILL && sig != SIGTRAP; i++)
			if (m->t[i].leader == lead && m->t[i].life == ML_ALIVE &&
			    m->t[i].tracer != M_NONE && !m->unpredictable)
				m->unpredictable = "a pdeath signal other than SIGKILL to a "
						   "traced process: which thread stops for it is "
						   "the kernel's choice";
		m_signal(m, w, sig);
	}
}

/*
 * Zombies in a dying namespace are reaped by its init (kernel_wait4() in
 * zap_pid_ns_processes()) as soon as they are reportable: no tracer report
 * pending and, for a leader, no other thread left (delay_group_leader()).
 * The zapper finishes its exit once its namespace drained.
 */
void m_settle(struct model *m)
{
	bool again = true;
	int i;

	while (again) {
		again = false;
		for (i = 0; i < m->n; i++) {
			struct mtask *t = &m->t[i];

			if (t->zap_cand && m_ns_drained(m, t->ns)) {
				t->zap_cand = false;
				/* a candidate that did not zap was released long ago */
				if (t->leader != i && t->life == ML_ZOMBIE && !t->zapper &&
				    t->tracer == M_NONE) {
					m_release_thread(m, i, R_THREAD_AUTOREAP);
					again = true;
					continue;
				}
			}
			if (t->life == ML_ZOMBIE && t->zapper && m_ns_drained(m, t->leader)) {
				m_reparent_children(m, i);
				/* exit_notify() after the zap, as for any last thread */
				if (group_dead(m, i))
					m_orphan_check(m, t->leader, M_NONE);
				exit_complete(m, i);
				m_deliver_pdeath(m);
				again = true;
				continue;
			}
			/* a nested namespace's sleeping zapper is reaped once it is a zombie */
			if (t->life != ML_ZOMBIE || !t->zap_reaped || t->owed_tracer || t->zapper ||
			    t->zap_cand)
				continue;
			if (t->leader == i && !m_group_empty(m, i))
				continue;
			if (t->leader == i)
				m_set_life(m, i, ML_DEAD, R_ZAP_REAPED);
			else
				m_release_thread(m, i, R_ZAP_REAPED);
			again = true;
		}
	}
}

/*
 * A thread past synchronize_group_exit(): it stops in PTRACE_EVENT_EXIT if
 * traced with TRACEEXIT (still not PF_EXITING: a reaper candidate), else
 * its exit goes on.  Returns true if it stopped.
 */
static bool exit_stop(struct model *m, int i)
{
	struct mtask *t = &m->t[i];

	if (t->tracer == M_NONE || !(t->ptrace_opts & PTRACE_O_TRACEEXIT) ||
	    m_wrong(m, R_EXIT_STOP))
		return false;
	t->exit_stop = true;
	t->stop = MS_TRACED;
	t->trap = TRAP_EXIT;
	t->listening = false;
	t->why_state = R_EXIT_STOP;
	return true;
}

int m_next_exit_stop(const struct model *m, int from)
{
	int i, k;

	for (k = m_unrel_from(m, from < 0 ? 0 : from); k < m->nunrel; k++) {
		i = m->unrel[k];
		if (m->t[i].life == ML_ALIVE && m->t[i].exit_stop)
			return i;
	}
	return M_NONE;
}

void m_exit_stop_passed(struct model *m, int task)
{
	if (!m->t[task].exit_stop)
		return;
	m->t[task].exit_stop = false;
	exit_notify(m, task);
	m_settle(m);
}

/*
 * The threads marked in @entering entered do_exit() together: the
 * ones not held in PTRACE_EVENT_EXIT become PF_EXITING first (a group exit
 * makes them all exit before any notification matters), then notify.
 */
static void exit_threads(struct model *m, const bool *entering)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (entering[i] && !exit_stop(m, i))
			m->t[i].exited = true;
	for (i = 0; i < m->n; i++)
		if (entering[i] && m->t[i].exited && m->t[i].life == ML_ALIVE)
			exit_notify(m, i);
}

/* Live threads of @lead's group not yet in do_exit(), marked in @entering. */
static int enter_exit(struct model *m, int lead, bool *entering, int code, int sig)
{
	int i, n = 0;

	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];

		entering[i] = t->leader == lead && t->life == ML_ALIVE && !t->in_exit;
		/* perturbed: only the thread that exits, not its siblings */
		if (m_wrong(m, R_GROUP_EXIT) && i != lead)
			entering[i] = false;
		if (!entering[i])
			continue;
		t->in_exit = true;
		t->exit_code = code;
		t->exit_sig = sig;
		t->why_code = R_GROUP_EXIT;
		n++;
	}
	return n;
}

/* Thread @i, entering do_exit() now, goes on to exit_notify() at once (no exit stop). */
static bool exits_now(const struct model *m, const bool *entering, int i)
{
	const struct mtask *t = &m->t[i];

	return entering[i] && (t->tracer == M_NONE || !(t->ptrace_opts & PTRACE_O_TRACEEXIT));
}

/*
 * A group exit whose threads' exit_notify() order decides a zombie's
 * fate: thread X of a group that ignores SIGCHLD traces a zombie leader
 * Z whose real parent is another thread Y of that group (a subreaper's
 * adoption puts an orphan on the first live thread, find_new_reaper()),
 * and both exit now.  If X's exit_ptrace() comes first, Z's real parent
 * is in the tracer's group: __ptrace_detach() releases it
 * (ignoring_children(), kernel/ptrace.c:567-589).  If Y's
 * forget_original_parent() comes first and finds no thread of the group
 * without PF_EXITING, Z goes to the next reaper, and X's exit_ptrace()
 * notifies that one: Z is its zombie.  Neither thread waits for the
 * other (complete_signal() wakes them all), so which comes first is the
 * scheduler's choice.  (Host soak, seed 211.)
 */
static const char *detach_race(const struct model *m, int lead, const bool *entering)
{
	const struct mtask *l = &m->t[lead];
	int i, x, y;

	if (!l->sigchld_ign && !l->sigchld_nocldwait)
		return NULL;
	for (i = 0; i < m->n; i++) {
		const struct mtask *z = &m->t[i];

		x = z->tracer;
		y = z->real_parent;
		if (z->life != ML_ZOMBIE || z->leader != i || !m_group_empty(m, i) || x < 0 ||
		    y < 0 || x == y || m->t[x].leader != lead || m->t[y].leader != lead)
			continue;
		/*
		 * Both go on now, or both stop in PTRACE_EVENT_EXIT first and
		 * are let go one after the other (pass_exit_stops(), or a
		 * strace session): nothing orders their exit_notify().  One
		 * stopped and one going on is ordered: the stopped one is not
		 * PF_EXITING yet, so it keeps Z in the group either way.
		 */
		if (entering[x] && entering[y] &&
		    exits_now(m, entering, x) == exits_now(m, entering, y))
			return "a group that ignores SIGCHLD exits with a tracer thread and "
			       "another thread that is its zombie tracee's real parent: the "
			       "order of their exit_notify() decides whether the zombie is "
			       "released or the next reaper's (__ptrace_detach())";
	}
	return NULL;
}

void m_group_exit(struct model *m, int proc, int code, int sig)
{
	int lead = m->t[proc].leader, i, live = 0;
	struct mtask *l = &m->t[lead];
	bool *entering = calloc(m->n, sizeof(bool));

	if (!entering)
		abort();
	/* A namespace init with several threads: which one zaps is racy (find_child_reaper()). */
	if (l->ns == lead && !l->group_exit) {
		for (i = 0; i < m->n; i++)
			live += m->t[i].leader == lead && m->t[i].life == ML_ALIVE &&
				!m->t[i].in_exit;
	}
	if (enter_exit(m, lead, entering, code, sig) == 0) {
		free(entering);
		return;
	}
	/* SIGNAL_GROUP_EXIT: wait_task_zombie() reports group_exit_code for every thread. */
	if (!l->group_exit) {
		l->group_exit = true;
		l->group_code = code;
		l->group_sig = sig;
		/*
		 * signal->flags = SIGNAL_GROUP_EXIT, group_stop_count = 0
		 * (complete_signal(), do_group_exit()): the stop and continue
		 * flags go, so has_stopped_jobs() no longer counts the group
		 * (kill_orphaned_pgrp() at its own exit_notify()).
		 */
		l->gstop = false;
		l->gstop_code = 0;
		l->cont_report = false;
	}
	for (i = 0; i < m->n; i++) {
		if (live > 1 && entering[i]) {
			m->t[i].zap_cand = true;
			/*
			 * A traced candidate is a zombie for its tracer before
			 * the drain if another thread zaps, after it if it
			 * zaps itself: the order of reports is the kernel's choice.
			 */
			if (m->t[i].tracer != M_NONE && !m->unpredictable)
				m->unpredictable =
					"a group exit of a pid namespace's init with several "
					"threads, one of them traced: which thread zaps the "
					"namespace is racy (find_child_reaper())";
		}
		if (m->t[i].leader == lead)
			m->t[i].why_code = R_GROUP_EXIT_CODE;
	}
	if (!m->unpredictable)
		m->unpredictable = detach_race(m, lead, entering);
	exit_threads(m, entering);
	free(entering);
	m_settle(m);
}

void m_thread_exit(struct model *m, int task, int code, int sig)
{
	struct mtask *t = &m->t[task];
	struct mtask *l = &m->t[t->leader];
	int i;

	if (t->life != ML_ALIVE || t->in_exit)
		return;
	t->in_exit = true;
	t->exit_code = code;
	t->exit_sig = sig;
	t->why_code = R_EXIT_CODE_OWN;
	/*
	 * synchronize_group_exit(): the last thread of the group to enter
	 * do_exit() sets SIGNAL_GROUP_EXIT and group_exit_code to its code.
	 */
	for (i = 0; i < m->n; i++)
		if (m->t[i].leader == t->leader && m->t[i].life == ML_ALIVE && !m->t[i].in_exit)
			break;
	if (i == m->n && !l->group_exit && !m_wrong(m, R_LAST_THREAD_CODE)) {
		/* signal->flags = SIGNAL_GROUP_EXIT: as m_group_exit() (exit.c:805-810) */
		l->group_exit = true;
		l->group_code = code;
		l->group_sig = sig;
		l->gstop = false;
		l->gstop_code = 0;
		l->cont_report = false;
		for (i = 0; i < m->n; i++)
			if (m->t[i].leader == t->leader)
				m->t[i].why_code = R_LAST_THREAD_CODE;
	}
	if (!exit_stop(m, task)) {
		t->exited = true;
		exit_notify(m, task);
	}
	m_settle(m);
}

void m_exec(struct model *m, int task)
{
	int lead = m->t[task].leader, i;
	bool *entering = calloc(m->n, sizeof(bool));

	if (!entering)
		abort();
	/*
	 * de_thread(): the other threads are SIGKILLed with group_exec_task
	 * set: they exit with 0, no SIGNAL_GROUP_EXIT, and the execing thread
	 * never enters do_exit(), so no synchronize_group_exit() either.
	 */
	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];

		entering[i] = i != task && t->leader == lead && t->life == ML_ALIVE && !t->in_exit;
		if (!entering[i])
			continue;
		t->in_exit = true;
		/* perturbed: they exit with 1 */
		t->exit_code = m_wrong(m, R_DE_THREAD) ? 1 : 0;
		t->exit_sig = 0;
		t->why_code = R_DE_THREAD;
	}
	exit_threads(m, entering);
	free(entering);
	m_settle(m);
}

void m_exec_done(struct model *m, int task)
{
	int lead = m->t[task].leader, i;
	struct mtask *t = &m->t[task], *l = &m->t[lead];
	int old_sig = l->exit_signal;

	/*
	 * de_thread() sets the execing thread's exit_signal to SIGCHLD ("we
	 * have changed execution domain", fs/exec.c:1145,1169), the leader's
	 * own too; begin_new_exec() bumps its ->self_exec_id (:1403).
	 */
	t->self_exec_id++;
	t->exit_signal = m_wrong(m, R_EXEC_EXIT_SIGNAL) ? old_sig : SIGCHLD;
	t->why_exitsig = R_EXEC_EXIT_SIGNAL;
	/*
	 * flush_signal_handlers(me, 0) (fs/exec.c:1404, kernel/signal.c:
	 * 540-554): SIG_IGN stays, every sa_flags is cleared.
	 */
	t->sigchld_ign = l->sigchld_ign;
	t->sigchld_nocldwait = m_wrong(m, R_SIGHAND_FORK_EXEC) && l->sigchld_nocldwait;
	if (task == lead)
		return;
	l->exit_signal = -1;
	/*
	 * The old leader is released without any report (exit_state =
	 * EXIT_DEAD, release_task()), its tracer loses it; @task takes its
	 * pid (exchange_tids()), its real parent and its place as leader.
	 */
	t->real_parent = l->real_parent;
	t->why_parent = R_EXEC_TAKEOVER;
	t->subreaper = l->subreaper;
	/*
	 * Its own former tid (the old leader's struct pid now, released with
	 * it) still names it in what it sent before: a SIGCHLD to its tracer
	 * (si_pid), dequeued after the exec.
	 */
	t->old_tid = t->tid;
	t->old_ns_tid = t->ns_tid;
	memcpy(t->old_nspid, t->nspid, sizeof(t->old_nspid));
	t->tid = l->tid;
	t->ns_tid = l->ns_tid;
	memcpy(t->nspid, l->nspid, sizeof(t->nspid));
	t->ns_parent = l->ns_parent;
	/*
	 * The signal_struct is the group's, not the old leader's: its stop
	 * and continue state (a WCONTINUED report due since a SIGCONT before
	 * the exec stays due), and the process group and session, which
	 * follow the pid (exchange_tids() swaps the tasks' PIDTYPE_PID only;
	 * transfer_pid() moves PIDTYPE_TGID/PGID/SID to the execer, fs/exec.c
	 * :1134-1137).  Groups and sessions are named by their leader's
	 * index: the loop below renames those the old leader led.
	 */
	t->group_exit = l->group_exit;
	t->group_code = l->group_code;
	t->group_sig = l->group_sig;
	t->gstop = l->gstop;
	t->gstop_code = l->gstop_code;
	t->cont_report = l->cont_report;
	t->jobctl_unknown = l->jobctl_unknown;
	t->pgrp = l->pgrp;
	t->session = l->session;
	/* The namespace's child_reaper ends at the execing thread (find_child_reaper()). */
	t->ns_reaper = task;
	l->owed_parent = 0;
	l->owed_tracer = 0;
	l->tracer = M_NONE;
	l->old_tid = l->tid;
	l->old_ns_tid = l->ns_tid;
	memcpy(l->old_nspid, l->nspid, sizeof(l->old_nspid));
	l->tid = 0;
	m_set_life(m, lead, ML_DEAD, R_DE_THREAD);
	/* the execer leads the old leader's tasks, the old leader among them */
	t->first = l->first;
	t->last = l->last;
	for (i = 0; i < m->n; i++) {
		if (m->t[i].leader == lead)
			m->t[i].leader = task;
		if (m->t[i].ns == lead)
			m->t[i].ns = task;
		if (m->t[i].ns_parent == lead)
			m->t[i].ns_parent = task;
		if (m->t[i].real_parent == lead)
			m->t[i].real_parent = task;
		if (m->t[i].tracer == lead)
			m->t[i].tracer = M_NONE;
		if (m->t[i].pgrp == lead)
			m->t[i].pgrp = task;
		if (m->t[i].session == lead)
			m->t[i].session = task;
	}
	if (m_wrong(m, R_EXEC_TAKEOVER))
		t->real_parent = task;	/* perturbed: the exec'd thread keeps its own place */
}
