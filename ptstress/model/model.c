// SPDX-License-Identifier: GPL-2.0
/*
 * The model of what the kernel must show: tasks, tracers, real parents by
 * the reaper rules, and who is owed which exit report.  See model.h; every
 * rule is a row of rules.def, named where it is coded as R_<ID>, and each
 * such site says what --wrong-model=<id> makes of it ("perturbed: ...").
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "model/model.h"

void model_init(struct model *m, pid_t self)
{
	memset(m, 0, sizeof(*m));
	m->wrong = R_NONE;
	m->cap = 64;
	m->t = calloc(m->cap, sizeof(*m->t));
	if (!m->t)
		abort();
	m->n = 1;
	m->nlive = 1;
	m->unrel_cap = 64;
	m->unrel = malloc(m->unrel_cap * sizeof(*m->unrel));
	if (!m->unrel)
		abort();
	m->unrel[0] = 0;
	m->nunrel = 1;
	strcpy(m->t[0].name, "R");
	m->t[0].tid = self;
	m->t[0].ns_tid = self;
	m->t[0].leader = 0;
	m->t[0].real_parent = M_NONE;
	m->t[0].tracer = M_NONE;
	m->t[0].subreaper = true;	/* `ptstress run` sets PR_SET_CHILD_SUBREAPER */
	m->t[0].exit_signal = SIGCHLD;
	m->t[0].ns = M_NONE;
	m->t[0].ns_parent = M_NONE;
	m->t[0].nspid[0] = self;
	m->t[0].why_parent = m->t[0].why_tracer = m->t[0].why_state = R_NONE;
	m->t[0].why_code = m->t[0].why_owed = R_NONE;
}

void model_free(struct model *m)
{
	free(m->t);
	free(m->notices);
	free(m->rel);
	free(m->pdeath);
	free(m->lk_ptraced);
	free(m->lk_children);
	free(m->unrel);
	memset(m, 0, sizeof(*m));
}

void m_unrel_compact(struct model *m)
{
	int k, w = 0;

	for (k = 0; k < m->nunrel; k++)
		if (m->t[m->unrel[k]].life != ML_DEAD)
			m->unrel[w++] = m->unrel[k];
	m->nunrel = w;
}

int m_unrel_from(const struct model *m, int from)
{
	int lo = 0, hi = m->nunrel;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m->unrel[mid] < from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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
	if (m->nunrel == m->unrel_cap) {
		int *u = realloc(m->unrel, 2 * m->unrel_cap * sizeof(*u));

		if (!u)
			return -1;
		m->unrel = u;
		m->unrel_cap *= 2;
	}
	m->unrel[m->nunrel++] = m->n;
	t = &m->t[m->n];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->tid = tid;
	t->ns_tid = ns_tid;
	t->nspid[0] = tid;
	t->ns_parent = M_NONE;
	t->real_parent = M_NONE;
	t->tracer = M_NONE;
	t->why_parent = R_FORK_PARENT;
	t->why_tracer = R_NONE;
	t->why_state = R_NONE;
	t->why_code = R_EXIT_CODE_OWN;
	t->why_owed = R_NONE;
	t->exit_signal = -1;
	t->why_exitsig = R_LINKS_EXIT_SIGNAL;
	m->nlive++;
	return m->n++;
}

bool m_same_group(const struct model *m, int a, int b)
{
	return a >= 0 && b >= 0 && m->t[a].leader == m->t[b].leader;
}

void m_set_life(struct model *m, int task, enum m_life life, int rule)
{
	struct mtask *t = &m->t[task];

	if (t->life != ML_DEAD && life == ML_DEAD)
		m->nlive--;
	t->life = life;
	t->why_state = rule;
	if (life != ML_ALIVE) {
		t->stop = MS_RUNNING;
		t->trap = TRAP_NONE;
		t->listening = false;
		t->exit_stop = false;
	}
}

int m_fork(struct model *m, int parent, const char *name, pid_t tid, pid_t ns_tid,
	   bool subreaper, bool new_ns)
{
	int i = m_new(m, name, tid, ns_tid);

	if (i < 0)
		return -1;
	m->t[i].leader = i;
	m->t[i].first = i;
	m->t[i].last = i;
	/* copy_process() without CLONE_PARENT: ->real_parent is current (a thread). */
	m->t[i].real_parent = parent;
	m->t[i].subreaper = subreaper;
	m->t[i].ns = new_ns ? i : m->t[parent].ns;
	/* create_pid_namespace(): a child of the creator's pid_ns_for_children */
	m->t[i].ns_parent = new_ns ? m->t[parent].ns : M_NONE;
	m->t[i].ns_reaper = i;	/* pid_ns->child_reaper: the init's leader at first */
	m->t[i].exit_signal = SIGCHLD;
	/* copy_process(): current's process group and session (kernel/fork.c:2476-2477) */
	m->t[i].pgrp = m->t[m->t[parent].leader].pgrp;
	m->t[i].session = m->t[m->t[parent].leader].session;
	/*
	 * dup_task_struct() copies ->self_exec_id; copy_process() records the
	 * forking thread's as ->parent_exec_id (kernel/fork.c:2509).  R's
	 * children come through the spawner with CLONE_PARENT, which copies
	 * the spawner's ->parent_exec_id: R's, which never changes.
	 */
	m->t[i].self_exec_id = m->t[parent].self_exec_id;
	m->t[i].parent_exec_id = m->t[parent].self_exec_id;
	/* copy_sighand(): the child starts with its parent's dispositions. */
	if (!m_wrong(m, R_SIGHAND_FORK_EXEC)) {
		m->t[i].sigchld_ign = m->t[m->t[parent].leader].sigchld_ign;
		m->t[i].sigchld_nocldwait = m->t[m->t[parent].leader].sigchld_nocldwait;
	}
	m_relate(m, i, parent);
	return i;
}

void m_set_sigchld(struct model *m, int proc, bool ign, bool nocldwait)
{
	int lead = m->t[proc].leader, k;
	struct mtask *l = &m->t[lead];

	l->sigchld_ign = ign;
	l->sigchld_nocldwait = nocldwait;
	/*
	 * do_sigaction() (kernel/signal.c:4158-4175): SIG_IGN, and SIG_DFL
	 * for SIGCHLD (ignored by default), discard a pending SIGCHLD: the
	 * notices sent so far may never be seen.
	 */
	for (k = 0; k < m->nnotices; k++)
		if (m->notices[k].to_lead == lead)
			m->notices[k].checked = true;
}

/* A zombie that reaps itself (do_notify_parent() said so): released, owed to nobody. */
void m_autoreap(struct model *m, int task, int rule)
{
	struct mtask *t = &m->t[task];

	t->owed_parent = 0;
	t->owed_tracer = 0;
	t->why_owed = rule;
	m_set_life(m, task, ML_DEAD, rule);
}

int m_clone_parent(struct model *m, int creator, const char *name, pid_t tid, pid_t ns_tid,
		   bool subreaper)
{
	/* Copied first: m_fork() may move m->t (realloc). */
	const struct mtask cl = m->t[m->t[creator].leader];
	int i = m_fork(m, creator, name, tid, ns_tid, subreaper, false);

	if (i < 0)
		return -1;
	/* perturbed: CLONE_PARENT ignored, the caller is the parent */
	if (m_wrong(m, R_CLONE_PARENT))
		return i;
	/* ->real_parent and ->parent_exec_id are the caller's (threads share them) */
	m->t[i].real_parent = cl.real_parent;
	m->t[i].parent_exec_id = cl.parent_exec_id;
	m->t[i].why_parent = R_CLONE_PARENT;
	m->t[i].exit_signal = cl.exit_signal;
	m->t[i].why_exitsig = R_CLONE_PARENT;
	if (cl.real_parent >= 0)
		m_relate(m, i, cl.real_parent);
	return i;
}

void m_set_exit_signal(struct model *m, int proc, int sig)
{
	m->t[proc].exit_signal = sig;
	m->t[proc].why_exitsig = R_LINKS_EXIT_SIGNAL;
}

unsigned long m_fork_trace_opt(const struct model *m, int exitsig)
{
	/* perturbed: every fork is a PTRACE_EVENT_FORK */
	if (exitsig == SIGCHLD || m_wrong(m, R_CLONE_EVENT))
		return PTRACE_O_TRACEFORK;
	return PTRACE_O_TRACECLONE;
}

void m_set_pdeath_signal(struct model *m, int task, int sig)
{
	m->t[task].pdeath_signal = sig;
}

int m_thread(struct model *m, int creator, const char *name, pid_t tid, pid_t ns_tid)
{
	int i = m_new(m, name, tid, ns_tid);

	if (i < 0)
		return -1;
	m->t[i].leader = m->t[creator].leader;
	m->t[m->t[i].leader].last = i;	/* m_new() appends: the highest index */
	m->t[i].ns = m->t[creator].ns;
	/* CLONE_THREAD copies both (kernel/fork.c:2500-2504). */
	m->t[i].self_exec_id = m->t[creator].self_exec_id;
	m->t[i].parent_exec_id = m->t[creator].parent_exec_id;
	return i;
}

void m_trace(struct model *m, int tracer, int task, unsigned long opts, bool seized, int rule)
{
	struct mtask *t = &m->t[task];

	/* perturbed: the model forgets the link */
	if (m_wrong(m, rule))
		return;
	t->tracer = tracer;
	t->ptrace_opts = opts;
	t->seized = seized;
	t->why_tracer = rule;
	/* a group stop now completes at the tracer's pace (wait.c refuses WSTOPPED) */
	if (m->t[t->leader].gstop)
		m->t[t->leader].jobctl_unknown = true;
	m_relate(m, task, tracer);
}

void m_auto_attach(struct model *m, int child, int tracer, unsigned long opts, bool seized)
{
	/* ptrace_init_task(): the creator's tracer and ->ptrace flags; it starts in a stop. */
	m_trace(m, tracer, child, opts, seized, R_AUTO_ATTACH);
}

void m_trapped(struct model *m, int task, enum m_trap trap)
{
	struct mtask *t = &m->t[task];

	t->stop = MS_TRACED;
	t->trap = trap;
	t->listening = false;
	t->stop_report = false;
	t->why_state = trap == TRAP_GROUP || (trap == TRAP_EVENT_STOP && t->stop_pending) ?
		       R_GROUP_STOP : R_TRACEE_STOP;
	if (trap == TRAP_GROUP || trap == TRAP_EVENT_STOP)
		t->stop_pending = false;
}

void m_signal_restopped(struct model *m, int task)
{
	m_trapped(m, task, TRAP_SIGNAL);
	m->t[task].why_state = R_SYSCALL_SIGNAL_STOP;
}

void m_seized_stopped(struct model *m, int task)
{
	/* perturbed: the model thinks it stays group-stopped (T) */
	if (m_wrong(m, R_SEIZE_RETRAPS))
		return;
	/* do_jobctl_trap(): seized, SIGNAL_STOP_STOPPED: PTRACE_EVENT_STOP with SIGSTOP */
	m_event_trap_due(m, task, R_SEIZE_RETRAPS);
}

void m_event_trap_due(struct model *m, int task, int why)
{
	struct mtask *t = &m->t[task];

	t->stop = MS_TRACED;
	t->trap = TRAP_EVENT_STOP;
	t->listening = false;
	t->stop_pending = false;
	t->stop_report = true;
	t->why_state = why;
}

bool m_attached_stopped(struct model *m, int task)
{
	/* perturbed: the model thinks it stays group-stopped (T), untrapped */
	if (m_wrong(m, R_ATTACH_RETRAPS))
		return false;
	/*
	 * ptrace_attach(): SIGSTOP queued, JOBCTL_TRAP_STOP; do_jobctl_trap()
	 * of an attached tracee: ptrace_stop(SIGSTOP, CLD_STOPPED, 0, NULL);
	 * resumed, it dequeues the SIGSTOP (a signal-delivery-stop) and,
	 * resumed with 0, runs: nothing sets JOBCTL_STOP_PENDING again while
	 * it is traced, though its group stays SIGNAL_STOP_STOPPED.
	 */
	m_resumed(m, task, false);
	m->t[task].why_state = R_ATTACH_RETRAPS;
	return true;
}

void m_stop_collected(struct model *m, int task)
{
	m->t[task].stop_report = false;
	m->t[task].notify_trap = false;
}

bool m_resumed(struct model *m, int task, bool listen)
{
	struct mtask *t = &m->t[task];

	if (listen) {
		/* PTRACE_LISTEN: JOBCTL_LISTENING, still TASK_TRACED. */
		t->listening = true;
		t->why_state = R_LISTEN_TRACED;
		if (m_wrong(m, R_LISTEN_TRACED))
			t->stop = MS_RUNNING;	/* perturbed: the model thinks it runs */
		return false;
	}
	t->listening = false;
	/* ptrace_resume(): any request but a single step clears it (kernel/ptrace.c:879) */
	t->stepping = false;
	if (t->stop_pending) {
		/* JOBCTL_STOP_PENDING: get_signal() -> do_signal_stop() -> do_jobctl_trap(). */
		t->stop = MS_TRACED;
		t->trap = t->seized ? TRAP_EVENT_STOP : TRAP_GROUP;
		t->stop_report = true;
		t->why_state = R_GROUP_STOP;
		return true;
	}
	t->stop = MS_RUNNING;
	t->trap = TRAP_NONE;
	t->why_state = R_RESUME_RUNS;
	if (m_wrong(m, R_RESUME_RUNS))
		t->stop = MS_TRACED;	/* perturbed: still stopped */
	return false;
}

/* The state a task takes when nobody traces it any more (__ptrace_unlink()). */
static void untraced_state(struct model *m, int task)
{
	struct mtask *t = &m->t[task];
	bool gstop = m->t[t->leader].gstop;

	if (t->life != ML_ALIVE || t->in_exit)
		return;
	if (m_wrong(m, R_UNLINK_WAKE))
		gstop = !gstop;		/* perturbed: the group stop is forgotten/invented */
	/*
	 * __ptrace_unlink(): with SIGNAL_STOP_STOPPED or a group stop under
	 * way and not PF_EXITING, JOBCTL_STOP_PENDING and a wakeup: it stops
	 * again, untraced (T); otherwise a ptrace-stopped task is woken.
	 */
	t->stop = gstop ? MS_GROUP : MS_RUNNING;
	t->trap = TRAP_NONE;
	t->stop_pending = false;
	t->stop_report = false;
	t->notify_trap = false;
	/*
	 * Delivered untraced: SIGCONT's default is to ignore it (get_signal()),
	 * but only once the woken task runs; a seize before that still sees
	 * its signal-delivery-stop.
	 */
	if (t->cont_queued && t->stop == MS_RUNNING && !t->cont_untraced) {
		t->cont_untraced = true;
		m->ncont_untraced++;
	}
	t->cont_queued = false;
	t->why_state = R_UNLINK_WAKE;
}

/* The engine saw the untraced task dequeue its SIGCONT (or it is gone). */
void m_sigcont_ignored(struct model *m, int task)
{
	if (m->t[task].cont_untraced)
		m->ncont_untraced--;
	m->t[task].cont_untraced = false;
}

void m_untrace(struct model *m, int task, int rule)
{
	if (m->t[m->t[task].leader].gstop)
		m->t[m->t[task].leader].jobctl_unknown = true;
	struct mtask *t = &m->t[task];

	/* perturbed: the model keeps the tracer (detach, tracer exit, tracer's wait) */
	if (m_wrong(m, rule) && (t->life == ML_ALIVE || rule == R_REPORT_UNLINK))
		return;
	t->tracer = M_NONE;
	t->ptrace_opts = 0;
	t->seized = false;
	t->listening = false;
	/* ptrace_detach() -> ptrace_disable(); exit_ptrace() does not (m_exit_ptrace()) */
	t->stepping = false;
	t->why_tracer = rule;
	if (t->life == ML_ALIVE && t->exit_stop) {
		/* Woken from PTRACE_EVENT_EXIT: the exit goes on (exit.c). */
		m_exit_stop_passed(m, task);
		return;
	}
	if (t->life == ML_ALIVE && (t->stop == MS_TRACED || m->t[t->leader].gstop))
		untraced_state(m, task);
}

void m_set_subreaper(struct model *m, int proc, bool on)
{
	m->t[m->t[proc].leader].subreaper = on;
}

int m_live_threads(const struct model *m, int lead)
{
	int i, n = 0;

	/* every task of the group lies in first..last (m_alive_thread()) */
	for (i = m->t[lead].first; i <= m->t[lead].last; i++)
		n += m->t[i].leader == lead && m->t[i].life == ML_ALIVE;
	return n;
}

bool m_group_alive(const struct model *m, int leader)
{
	return m_alive_thread(m, leader) != M_NONE;
}

/* find_alive_thread(): the first thread of the group without PF_EXITING. */
int m_alive_thread(const struct model *m, int proc)
{
	int lead = m->t[proc].leader, i;

	if (m->t[lead].life == ML_ALIVE && !m->t[lead].exited)
		return lead;
	/* every task of the group lies in first..last (m_thread(), m_exec()) */
	for (i = m->t[lead].first; i <= m->t[lead].last; i++) {
		if (m->t[i].leader == lead && m->t[i].life == ML_ALIVE && !m->t[i].exited)
			return i;
	}
	return M_NONE;
}

/* thread_group_empty(): only the leader is left on the thread list. */
bool m_group_empty(const struct model *m, int lead)
{
	int i;

	for (i = m->t[lead].first; i <= m->t[lead].last; i++) {
		if (i != lead && m->t[i].leader == lead && m->t[i].life != ML_DEAD)
			return false;
	}
	return true;
}

/*
 * pid_ns->child_reaper as find_child_reaper() returns it to
 * forget_original_parent() (kernel/exit.c:592-594): the thread that holds
 * the role, whatever its state.  After the init's leader exited alone it
 * is the live thread the role moved to (:597-600), not the leader; during
 * a zap it is the exiting zapper, asleep in zap_pid_ns_processes() (:602-
 * 616), and the orphans of the namespace's dying tasks go to it (fuzz seed
 * 13: the zapper p18.t1 took p285 in the kernel, the model gave it to the
 * zombie leader p18).  A released holder (none should be) falls back to a
 * live thread of the init, then to its leader.
 */
static int ns_child_reaper(const struct model *m, int ns)
{
	int th = m->t[ns].ns_reaper;

	if (th >= 0 && m->t[th].life != ML_DEAD)
		return th;
	th = m_alive_thread(m, ns);
	return th != M_NONE ? th : ns;
}

/*
 * find_new_reaper(): a live sibling thread; else the nearest subreaper
 * ancestor with a live thread, not leaving the pid namespace (the walk
 * stops at pid level changes); else the namespace's child_reaper.
 * *rule: which of the three.
 */
static int find_new_reaper(const struct model *m, int father, int *rule)
{
	int lead = m->t[father].leader;
	int ns = m->t[father].ns;
	int r, th;

	th = m_alive_thread(m, lead);
	*rule = R_REAPER_SIBLING;
	/* perturbed: the exiting thread's siblings are skipped */
	if (th != M_NONE && !m_wrong(m, R_REAPER_SIBLING))
		return th;
	/*
	 * father is a thread of the namespace's init: no subreaper walk
	 * leaves the namespace, so child_reaper takes them (the zapper
	 * itself when father zaps: zap_pid_ns_processes() empties it).
	 */
	*rule = R_REAPER_NS_INIT;
	if (ns == lead)
		return ns_child_reaper(m, ns);
	*rule = R_REAPER_SUBREAPER;
	for (r = m->t[lead].real_parent; r >= 0 && !m_wrong(m, R_REAPER_SUBREAPER);
	     r = m->t[m->t[r].leader].real_parent) {
		int rl = m->t[r].leader;

		if (m->t[rl].ns != ns || rl == ns)
			break;
		if (!m->t[rl].subreaper)
			continue;
		th = m_alive_thread(m, rl);
		if (th != M_NONE)
			return th;
	}
	if (ns == M_NONE) {
		*rule = R_REAPER_INIT;
		/* perturbed: R takes them (R is a subreaper, so this is never reached) */
		return m_wrong(m, R_REAPER_INIT) ? 0 : M_INIT;
	}
	*rule = R_REAPER_NS_INIT;
	if (m_wrong(m, R_REAPER_NS_INIT))
		return M_INIT;	/* perturbed: the namespace's orphans go to the global init */
	return ns_child_reaper(m, ns);
}

void m_queue_signal(struct model *m, int task, int sig)
{
	if (m->npdeath + 2 > m->pdeath_cap) {
		int cap = m->pdeath_cap ? 2 * m->pdeath_cap : 32;
		int *q = realloc(m->pdeath, cap * sizeof(*q));

		if (!q)
			abort();
		m->pdeath = q;
		m->pdeath_cap = cap;
	}
	m->pdeath[m->npdeath++] = task;
	m->pdeath[m->npdeath++] = sig;
}

/*
 * forget_original_parent(): every thread of the orphaned process @proc
 * whose pdeath_signal is set sends it to the process (group_send_sig_info()
 * with PIDTYPE_TGID), whoever the new reaper is, a sibling thread of the
 * exiting one included.  Queued: the kernel sends it under tasklist_lock,
 * the process dies after the exit that orphaned it (m_deliver_pdeath()).
 */
static void pdeath_send(struct model *m, int proc)
{
	int k;

	for (k = 0; k < m->n; k++) {
		const struct mtask *t = &m->t[k];

		if (t->leader != proc || t->life == ML_DEAD || !t->pdeath_signal)
			continue;
		/* perturbed: only the leader's pdeath_signal counts */
		if (m_wrong(m, R_PDEATH_SIGNAL) && k != proc)
			continue;
		m_queue_signal(m, k, t->pdeath_signal);
	}
}

/* forget_original_parent()/reparent_leader(): @father's children move to the new reaper. */
void m_reparent_children(struct model *m, int father)
{
	int reaper = -3, rule = R_NONE, i;

	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];

		if (t->leader != i || t->real_parent != father || t->life == ML_DEAD || i == father)
			continue;
		if (reaper == -3)
			reaper = find_new_reaper(m, father, &rule);
		t->real_parent = reaper;
		t->why_parent = rule;
		if (reaper >= 0)
			m_relate(m, i, reaper);
		pdeath_send(m, i);
		/*
		 * reparent_leader(), only for a reaper in another group: "We
		 * don't want people slaying init" -- the exit_signal is SIGCHLD
		 * from now on.  A sibling thread adopts it as it is.
		 */
		if (!m_same_group(m, father, reaper) && !m_wrong(m, R_REPARENT_EXIT_SIGNAL)) {
			t->exit_signal = SIGCHLD;
			t->why_exitsig = R_REPARENT_EXIT_SIGNAL;
		}
		/*
		 * A traced zombie that lands in its tracer's own group owes one
		 * report, not two: wait_task_zombie() decides EXIT_TRACE by
		 * ptrace_reparented() at wait time, and reparent_leader() does
		 * not notify for a ptraced zombie.
		 */
		if (t->owed_tracer && m_same_group(m, t->tracer, reaper) &&
		    !m_wrong(m, R_REPARENT_TRACED_ZOMBIE)) {
			t->owed_tracer = 0;
			t->why_owed = R_REPARENT_TRACED_ZOMBIE;
		}
		if (reaper == M_INIT) {
			/* Out of our hands: init reaps it when it likes. */
			t->owed_parent = 0;
			continue;
		}
		/*
		 * reparent_leader(): an untraced zombie with an empty group that
		 * moves to another group is notified to its new parent
		 * (kernel/exit.c:674-679).  A namespace init asleep in
		 * zap_pid_ns_processes() is no zombie yet: exit_notify() sets
		 * exit_state only after forget_original_parent() returns
		 * (:739,744), and then notifies its parent of the moment, the
		 * new one (m_settle()).
		 */
		if (t->life == ML_ZOMBIE && !t->zapper && !t->zap_cand && t->tracer == M_NONE &&
		    m_group_empty(m, i) &&
		    !m_same_group(m, father, reaper) &&
		    m_notify(m, i, reaper, t->exit_signal, R_NOTIFY_REPARENTED_ZOMBIE))
			m_autoreap(m, i, R_SIGCHLD_AUTOREAP);
		/* reparent_leader() ends with kill_orphaned_pgrp(p, father) */
		if (!m_same_group(m, father, reaper))
			m_orphan_check(m, i, father);
	}
}

/*
 * exit_ptrace(): every tracee of thread @tracer is unlinked; EXITKILL ones
 * get SIGKILL; a zombie tracee is handed to its real parent
 * (__ptrace_detach(): a leader with an empty group is reported to the
 * real parent unless that is the tracer's own group; a thread is released).
 */
void m_exit_ptrace(struct model *m, int tracer)
{
	int i;

	if (m_step_exitkill_race(m, tracer))
		m->unpredictable = "a tracee left single-stepping and an EXITKILL tracee of its "
				   "group lose their tracer together: SIGTRAP or SIGKILL first "
				   "is a race";
	else if (m_step_zap_race(m, tracer) && !m_wrong(m, R_STEP_TRACER_EXIT))
		m->unpredictable = "a tracee left single-stepping in a pid namespace whose init "
				   "dies of the same tracer exit: the zap's SIGKILL and the "
				   "SIGTRAP race";

	for (i = 0; i < m->n; i++) {
		struct mtask *t = &m->t[i];
		bool exitkill, stepping;

		if (t->tracer != tracer || t->life == ML_DEAD)
			continue;
		exitkill = (t->ptrace_opts & PTRACE_O_EXITKILL) && !m_wrong(m, R_EXITKILL);
		/*
		 * A zapper asleep in zap_pid_ns_processes() has exit_state 0:
		 * __ptrace_detach() only unlinks it (kernel/ptrace.c:571-574);
		 * its exit_notify() later reports to the real parent alone.
		 */
		if (t->life == ML_ZOMBIE && !t->zapper) {
			t->owed_tracer = 0;
			if (t->leader != i && !m_wrong(m, R_DETACH_ZOMBIE_THREAD)) {
				/* released after the tracer's exit_notify() (exit.c) */
				t->detach_dead = true;
				m->ndetach_dead++;
			} else if (t->leader == i && m_group_empty(m, i) && !t->zap_reaped &&
				   !m_same_group(m, tracer, m->t[i].real_parent)) {
				t->why_owed = R_DETACH_ZOMBIE_LEADER;
				/* __ptrace_unlink() comes first: untraced, it may reap itself */
				t->tracer = M_NONE;
				if (m_notify(m, i, t->real_parent, t->exit_signal,
					     R_NOTIFY_DETACHED_ZOMBIE))
					m_autoreap(m, i, R_SIGCHLD_AUTOREAP);
				t->tracer = tracer;
			} else if (t->leader == i && m_group_empty(m, i) && !t->zap_reaped &&
				   (m->t[m->t[tracer].leader].sigchld_ign ||
				    m->t[m->t[tracer].leader].sigchld_nocldwait) &&
				   !m_wrong(m, R_DETACH_IGNORING)) {
				/* __ptrace_detach(): the tracer's group, its parent's, ignores it */
				m_autoreap(m, i, R_DETACH_IGNORING);
			}
			/* perturbed: nobody is owed the let-go zombie leader */
			if (t->leader == i && m_wrong(m, R_DETACH_ZOMBIE_LEADER))
				t->owed_parent = 0;
		}
		stepping = t->stepping;
		m_untrace(m, i, R_EXIT_PTRACE);
		if (stepping && !exitkill)
			m_step_untraced(m, tracer, i);
		/*
		 * send_sig_info(SIGKILL) under tasklist_lock: complete_signal()
		 * dooms the group now (not for a PF_EXITING thread: wants_signal()),
		 * but the tracee's own exit_notify() runs after the tracer's
		 * forget_original_parent() has reparented its children.  Queued
		 * with the pdeath signals, delivered in that order.
		 */
		if (exitkill && t->life == ML_ALIVE && !t->in_exit)
			m_queue_signal(m, i, SIGKILL);
	}
}

int m_next_collector(const struct model *m, int task, bool *as_tracer)
{
	const struct mtask *t = &m->t[task];
	int parent;

	*as_tracer = false;
	if (t->life != ML_ZOMBIE || t->zapper)
		return M_NONE;
	if (t->leader == task) {
		/* delay_group_leader(): not before the other threads are released. */
		if (!m_group_empty(m, task) && !m_wrong(m, R_DELAY_GROUP_LEADER))
			return M_NONE;
		/* An ns init is a zombie only once its namespace drained. */
		if (t->ns == task && !m_ns_drained(m, task))
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
	return m_alive_thread(m, parent);
}

bool m_owed_to(const struct model *m, int waiter, int task)
{
	bool as_tracer;
	int c = m_next_collector(m, task, &as_tracer);

	if (c == M_NONE)
		return false;
	/*
	 * is_effectively_child(): without __WNOTHREAD any thread of the
	 * tracer's (or real parent's) group waits for it.
	 */
	if (as_tracer && m_wrong(m, R_WAIT_ANY_THREAD))
		return c == waiter;	/* perturbed: the tracer thread only */
	return m_same_group(m, c, waiter);
}

int m_report(struct model *m, int waiter, int task)
{
	struct mtask *t = &m->t[task];

	if (!m_owed_to(m, waiter, task))
		return -1;
	t->reports++;
	if (t->owed_tracer) {
		t->owed_tracer = 0;
		/*
		 * wait_task_zombie(): EXIT_TRACE unlinks a leader, a thread goes
		 * (release_task(), which may notify its zombie leader's parent
		 * now: untraced first, as __exit_signal() unlinks it).
		 */
		m_untrace(m, task, R_REPORT_UNLINK);
		if (t->leader != task)
			m_release_thread(m, task, R_TRACED_THREAD_ZOMBIE);
		if (t->leader == task && !t->owed_parent && !t->zap_reaped)
			m_set_life(m, task, ML_DEAD, R_REPORT_ONCE);
		else if (t->leader == task && t->owed_parent) {
			/* ... and notifies the real parent (wait_task_zombie() EXIT_TRACE). */
			t->why_owed = R_REPORT_PARENT;
			if (m_notify(m, task, t->real_parent, t->exit_signal,
				     R_NOTIFY_AFTER_TRACER))
				m_autoreap(m, task, R_SIGCHLD_AUTOREAP);
		}
		m_settle(m);
		return 0;
	}
	t->owed_parent = 0;
	/* perturbed: the collected zombie stays */
	if (!m_wrong(m, R_REPORT_ONCE))
		m_set_life(m, task, ML_DEAD, R_REPORT_ONCE);
	if (t->tracer != M_NONE)
		m_untrace(m, task, R_REPORT_UNLINK);
	m_settle(m);
	return 0;
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

int m_find_tid_any(const struct model *m, pid_t tid)
{
	int i = m_find_tid(m, tid);

	if (i != M_NONE)
		return i;
	for (i = m->n - 1; i >= 0; i--)
		if (m->t[i].tid == tid)
			return i;
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
