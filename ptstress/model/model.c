// SPDX-License-Identifier: GPL-2.0
/*
 * The model of what the kernel must show: real parents by the reaper
 * rules, tracers, life and stop state, and who is owed which exit report.
 * See model.h; every rule names the 6.1 function it comes from.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "model/model.h"

#define M_INIT	(-2)	/* the real init (pid 1): a reaper outside the model */

void model_init(struct model *m, pid_t self)
{
	memset(m, 0, sizeof(*m));
	m->cap = 64;
	m->t = calloc(m->cap, sizeof(*m->t));
	if (!m->t)
		abort();
	m->n = 1;
	strcpy(m->t[0].name, "R");
	m->t[0].tid = self;
	m->t[0].ns_tid = self;
	m->t[0].leader = 0;
	m->t[0].real_parent = M_NONE;
	m->t[0].tracer = M_NONE;
	m->t[0].subreaper = true;	/* main() sets PR_SET_CHILD_SUBREAPER */
	m->t[0].ns = M_NONE;
	m->t[0].stop_known = true;
}

void model_free(struct model *m)
{
	free(m->t);
	memset(m, 0, sizeof(*m));
}

static int m_new(struct model *m, const char *name, pid_t tid, pid_t ns_tid)
{
	struct mtask *t;

	if (m->n == m->cap) {
		t = realloc(m->t, 2 * m->cap * sizeof(*t));
		if (!t)
			return -1;
		m->t = t;
		m->cap *= 2;
	}
	t = &m->t[m->n];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->tid = tid;
	t->ns_tid = ns_tid;
	t->real_parent = M_NONE;
	t->tracer = M_NONE;
	t->stop_known = true;
	return m->n++;
}

static bool same_group(const struct model *m, int a, int b)
{
	return a >= 0 && b >= 0 && m->t[a].leader == m->t[b].leader;
}

int m_fork(struct model *m, int parent, const char *name, pid_t tid, pid_t ns_tid,
	   bool subreaper, bool new_ns)
{
	int i = m_new(m, name, tid, ns_tid);

	if (i < 0)
		return -1;
	m->t[i].leader = i;
	/* copy_process() without CLONE_PARENT: ->real_parent is current (a thread). */
	m->t[i].real_parent = parent;
	m->t[i].subreaper = subreaper;
	m->t[i].ns = new_ns ? i : m->t[parent].ns;
	m->t[i].ns_reaper = i;	/* pid_ns->child_reaper: the init's leader at first */
	return i;
}

int m_thread(struct model *m, int creator, const char *name, pid_t tid, pid_t ns_tid)
{
	int i = m_new(m, name, tid, ns_tid);

	if (i < 0)
		return -1;
	m->t[i].leader = m->t[creator].leader;
	m->t[i].ns = m->t[creator].ns;
	return i;
}

void m_trace(struct model *m, int tracer, int task, unsigned long opts, bool seized)
{
	m->t[task].tracer = tracer;
	m->t[task].ptrace_opts = opts;
	m->t[task].seized = seized;
}

void m_auto_attach(struct model *m, int child, int tracer, unsigned long opts, bool seized)
{
	m_trace(m, tracer, child, opts, seized);
}

void m_untrace(struct model *m, int task)
{
	m->t[task].tracer = M_NONE;
	m->t[task].ptrace_opts = 0;
	m->t[task].seized = false;
	m->t[task].listening = false;
	if (m->t[task].life == ML_ALIVE && m->t[task].stop == MS_TRACED) {
		/*
		 * __ptrace_unlink() wakes a ptrace-stopped task unless a group
		 * stop is in effect, which we do not know here.
		 */
		m->t[task].stop = MS_RUNNING;
		m->t[task].stop_known = false;
	}
}

void m_set_stop(struct model *m, int task, enum m_stop stop)
{
	m->t[task].stop = stop;
	m->t[task].stop_known = true;
}

void m_set_subreaper(struct model *m, int proc, bool on)
{
	m->t[m->t[proc].leader].subreaper = on;
}

bool m_group_alive(const struct model *m, int leader)
{
	return m_alive_thread(m, leader) != M_NONE;
}

/* find_alive_thread(): the first thread of the group without PF_EXITING. */
int m_alive_thread(const struct model *m, int proc)
{
	int lead = m->t[proc].leader, i;

	for (i = 0; i < m->n; i++) {
		if (m->t[i].leader == lead && m->t[i].life == ML_ALIVE && !m->t[i].exited)
			return i;
	}
	return M_NONE;
}

/* thread_group_empty(): only the leader is left on the thread list. */
static bool group_empty(const struct model *m, int lead)
{
	int i;

	for (i = 0; i < m->n; i++) {
		if (i != lead && m->t[i].leader == lead && m->t[i].life != ML_DEAD)
			return false;
	}
	return true;
}

/* Everything in @init's namespace but init's own group is released. */
static bool ns_drained(const struct model *m, int init)
{
	int i;

	for (i = 0; i < m->n; i++) {
		if (m->t[i].ns == init && m->t[i].leader != init && m->t[i].life != ML_DEAD)
			return false;
	}
	return true;
}

/*
 * find_new_reaper(): a live sibling thread; else the nearest subreaper
 * ancestor with a live thread, not leaving the pid namespace (the walk
 * stops at pid level changes); else the namespace's child_reaper.
 */
static int find_new_reaper(const struct model *m, int father)
{
	int lead = m->t[father].leader;
	int ns = m->t[father].ns;
	int r, th;

	th = m_alive_thread(m, lead);
	if (th != M_NONE)
		return th;
	/* father is the namespace's init: zap_pid_ns_processes() empties it. */
	if (ns == lead)
		return lead;
	for (r = m->t[lead].real_parent; r >= 0; r = m->t[m->t[r].leader].real_parent) {
		int rl = m->t[r].leader;

		if (m->t[rl].ns != ns || rl == ns)
			break;
		if (!m->t[rl].subreaper)
			continue;
		th = m_alive_thread(m, rl);
		if (th != M_NONE)
			return th;
	}
	if (ns == M_NONE)
		return M_INIT;
	th = m_alive_thread(m, ns);
	return th != M_NONE ? th : ns;
}

static void kill_group(struct model *m, int proc, int sig);
static void settle(struct model *m);

/*
 * exit_ptrace(): every tracee of thread @tracer is unlinked; EXITKILL ones
 * get SIGKILL; a zombie tracee is handed to its real parent
 * (__ptrace_detach(): a leader with an empty group is reported to the
 * real parent unless that is the tracer's own group; a thread is released).
 */
static void exit_ptrace(struct model *m, int tracer)
{
	int i;

	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];
		bool exitkill;

		if (t->tracer != tracer || t->life == ML_DEAD)
			continue;
		exitkill = t->ptrace_opts & PTRACE_O_EXITKILL;
		if (t->life == ML_ZOMBIE) {
			t->owed_tracer = 0;
			if (t->leader != i)
				t->life = ML_DEAD;
		}
		m_untrace(m, i);
		if (exitkill && t->life == ML_ALIVE && !t->exited)
			kill_group(m, i, SIGKILL);
	}
}

/* forget_original_parent(): @father's children move to the new reaper. */
static void reparent_children(struct model *m, int father)
{
	int reaper = -3, i;

	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];

		if (t->leader != i || t->real_parent != father || t->life == ML_DEAD || i == father)
			continue;
		if (reaper == -3)
			reaper = find_new_reaper(m, father);
		t->real_parent = reaper;
		/*
		 * A traced zombie that lands in its tracer's own group owes one
		 * report, not two: wait_task_zombie() decides EXIT_TRACE by
		 * ptrace_reparented() at wait time, and reparent_leader() does
		 * not notify for a ptraced zombie.
		 */
		if (t->owed_tracer && same_group(m, t->tracer, reaper))
			t->owed_tracer = 0;
		if (reaper == M_INIT) {
			/* Out of our hands: init reaps it when it likes. */
			t->owed_parent = 0;
		}
	}
}

/* exit_notify() for one thread that has run do_exit() up to there. */
static void notify(struct model *m, int i, int code, int sig)
{
	struct mtask *t = &m->t[i];
	bool leader = t->leader == i;
	int parent = m->t[t->leader].real_parent;
	struct mtask *l = &m->t[t->leader];

	/*
	 * find_child_reaper(): the namespace's child_reaper thread moves to a
	 * live thread of init's group; the last one zaps the namespace and
	 * sleeps in zap_pid_ns_processes() until it has drained.
	 */
	if (l->ns == t->leader && l->ns_reaper == i) {
		int th = m_alive_thread(m, t->leader);

		if (th != M_NONE)
			l->ns_reaper = th;
		else
			t->zapper = true;
	}

	t->exit_code = code;
	t->exit_sig = sig;
	t->stop = MS_RUNNING;
	t->stop_known = true;
	exit_ptrace(m, i);
	reparent_children(m, i);
	if (leader) {
		/* A leader stays a zombie until its parent (or tracer) waits. */
		t->life = ML_ZOMBIE;
		t->owed_parent = parent != M_INIT;
		/* ptrace_reparented(): one report for the tracer first. */
		t->owed_tracer = t->tracer != M_NONE && !same_group(m, t->tracer, parent);
	} else if (t->tracer != M_NONE) {
		/* A traced thread is a zombie for its tracer only. */
		t->life = ML_ZOMBIE;
		t->owed_tracer = 1;
	} else if (t->zapper) {
		/* Still in do_exit(), sleeping until the namespace is empty. */
		t->life = ML_ZOMBIE;
	} else {
		/* exit_notify(): autoreap of an untraced sub-thread. */
		t->life = ML_DEAD;
	}
}

/*
 * zap_pid_ns_processes(): the init of namespace @init is gone, so every
 * other task in it gets SIGKILL; init's kernel_wait4() loop reaps them
 * (after their tracers outside the namespace did), so none is owed to
 * a real parent.
 */
static void zap_ns(struct model *m, int init)
{
	int i;

	for (i = 0; i < m->n; i++) {
		if (m->t[i].ns == init && m->t[i].leader == i && i != init &&
		    m->t[i].life == ML_ALIVE && m_alive_thread(m, i) != M_NONE)
			kill_group(m, i, SIGKILL);
	}
	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];

		if (t->ns != init || t->leader == init)
			continue;
		t->owed_parent = 0;
		t->zap_reaped = true;
	}
}

/*
 * Zombies in a dying namespace are reaped by its init (kernel_wait4() in
 * zap_pid_ns_processes()) as soon as they are reportable: no tracer report
 * pending and, for a leader, no other thread left (delay_group_leader()).
 */
static void settle(struct model *m)
{
	bool again = true;
	int i;

	while (again) {
		again = false;
		for (i = 0; i < m->n; i++) {
			struct mtask *t = &m->t[i];

			/* A non-leader zapper is released once its namespace drained. */
			if (t->life == ML_ZOMBIE && t->zapper && t->leader != i && !t->owed_tracer &&
			    ns_drained(m, t->leader)) {
				t->life = ML_DEAD;
				again = true;
				continue;
			}
			if (t->life != ML_ZOMBIE || !t->zap_reaped || t->owed_tracer)
				continue;
			if (t->leader == i && !group_empty(m, i))
				continue;
			t->life = ML_DEAD;
			again = true;
		}
	}
}

bool m_zapping(const struct model *m, int task)
{
	const struct mtask *t = &m->t[task];

	return t->zapper && !ns_drained(m, t->leader);
}

static void group_exit(struct model *m, int proc, int code, int sig)
{
	int lead = m->t[proc].leader, i;
	bool any = false;

	/* zap_other_threads()/do_group_exit(): every thread is PF_EXITING first. */
	for (i = 0; i < m->n; i++) {
		if (m->t[i].leader == lead && m->t[i].life == ML_ALIVE && !m->t[i].exited) {
			m->t[i].exited = true;
			any = true;
		}
	}
	if (!any)
		return;
	/*
	 * SIGNAL_GROUP_EXIT: wait_task_zombie() reports group_exit_code for
	 * every thread, also one that exited on its own before.
	 */
	for (i = 0; i < m->n; i++) {
		if (m->t[i].leader == lead && m->t[i].life == ML_ZOMBIE) {
			m->t[i].exit_code = code;
			m->t[i].exit_sig = sig;
		}
	}
	for (i = 0; i < m->n; i++) {
		if (m->t[i].leader == lead && m->t[i].exited && m->t[i].life == ML_ALIVE)
			notify(m, i, code, sig);
	}
	if (m->t[lead].ns == lead)
		zap_ns(m, lead);
}

static void kill_group(struct model *m, int proc, int sig)
{
	group_exit(m, proc, 0, sig);
}

void m_group_exit(struct model *m, int proc, int code, int sig)
{
	group_exit(m, proc, code, sig);
	settle(m);
}

void m_thread_exit(struct model *m, int task, int code, int sig)
{
	int lead = m->t[task].leader;

	if (m->t[task].life != ML_ALIVE || m->t[task].exited)
		return;
	m->t[task].exited = true;
	notify(m, task, code, sig);
	/* The last thread of an ns init: the namespace dies with it. */
	if (m->t[lead].ns == lead && !m_group_alive(m, lead))
		zap_ns(m, lead);
	settle(m);
}

void m_exec(struct model *m, int task)
{
	int lead = m->t[task].leader, i;

	/* de_thread(): the other threads exit with group_exec_task set: exited(0). */
	for (i = 0; i < m->n; i++) {
		if (i != task && m->t[i].leader == lead && m->t[i].life == ML_ALIVE &&
		    !m->t[i].exited)
			m->t[i].exited = true;
	}
	for (i = 0; i < m->n; i++) {
		if (i != task && m->t[i].leader == lead && m->t[i].exited &&
		    m->t[i].life == ML_ALIVE)
			notify(m, i, 0, 0);
	}
	if (task == lead)
		return;
	/*
	 * The old leader is released without any report (exit_state =
	 * EXIT_DEAD, release_task()), its tracer loses it; @task takes its
	 * pid (exchange_tids()) and its place as leader.
	 */
	m->t[task].real_parent = m->t[lead].real_parent;
	m->t[task].subreaper = m->t[lead].subreaper;
	m->t[task].tid = m->t[lead].tid;
	m->t[task].ns_tid = m->t[lead].ns_tid;
	m->t[lead].life = ML_DEAD;
	m->t[lead].owed_parent = 0;
	m->t[lead].owed_tracer = 0;
	m->t[lead].tracer = M_NONE;
	m->t[lead].tid = 0;
	for (i = 0; i < m->n; i++) {
		if (m->t[i].leader == lead)
			m->t[i].leader = task;
		if (m->t[i].ns == lead)
			m->t[i].ns = task;
		if (m->t[i].real_parent == lead)
			m->t[i].real_parent = task;
		if (m->t[i].tracer == lead)
			m->t[i].tracer = M_NONE;
	}
}

int m_next_collector(const struct model *m, int task, bool *as_tracer)
{
	const struct mtask *t = &m->t[task];
	int parent;

	*as_tracer = false;
	if (t->life != ML_ZOMBIE)
		return M_NONE;
	if (t->leader == task) {
		/* delay_group_leader(): not before the other threads are released. */
		if (!group_empty(m, task))
			return M_NONE;
		/* An ns init is a zombie only once its namespace drained. */
		if (t->ns == task && !ns_drained(m, task))
			return M_NONE;
	}
	if (t->owed_tracer) {
		*as_tracer = true;
		return t->tracer;
	}
	if (!t->owed_parent)
		return M_NONE;
	parent = m->t[task].real_parent;
	if (parent < 0)
		return M_NONE;
	/* Any thread of the parent's group may wait (do_wait() walks them all). */
	parent = m_alive_thread(m, parent);
	return parent;
}

bool m_owed_to(const struct model *m, int waiter, int task)
{
	bool as_tracer;
	int c = m_next_collector(m, task, &as_tracer);

	if (c == M_NONE)
		return false;
	return as_tracer ? c == waiter : same_group(m, c, waiter);
}

int m_report(struct model *m, int waiter, int task)
{
	struct mtask *t = &m->t[task];

	if (!m_owed_to(m, waiter, task))
		return -1;
	t->reports++;
	if (t->owed_tracer) {
		t->owed_tracer = 0;
		/* wait_task_zombie(): EXIT_TRACE unlinks a leader, a thread goes. */
		if (t->leader != task)
			t->life = ML_DEAD;
		m_untrace(m, task);
		if (t->leader == task && !t->owed_parent && !t->zap_reaped)
			t->life = ML_DEAD;
		settle(m);
		return 0;
	}
	t->owed_parent = 0;
	t->life = ML_DEAD;
	if (t->tracer != M_NONE)
		m_untrace(m, task);
	settle(m);
	return 0;
}

int m_ppid_task(const struct model *m, int task)
{
	int p = m->t[m->t[task].leader].real_parent;

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

int m_find_name(const struct model *m, const char *name)
{
	int i;

	for (i = m->n - 1; i >= 0; i--) {
		if (!strcmp(m->t[i].name, name))
			return i;
	}
	return M_NONE;
}

int m_find_tid(const struct model *m, pid_t tid)
{
	int i;

	for (i = m->n - 1; i >= 0; i--) {
		if (m->t[i].tid == tid && m->t[i].life != ML_DEAD)
			return i;
	}
	return M_NONE;
}

const char *m_name(const struct model *m, int task)
{
	if (task == M_INIT)
		return "init";
	if (task < 0 || task >= m->n)
		return "none";
	return m->t[task].name[0] ? m->t[task].name : "(unnamed)";
}
