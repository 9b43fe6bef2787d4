// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of the steps that make and unmake threads (gen.h): exec,
 * whose de_thread() kills every other thread of the group, new threads
 * in live groups, and signals to one thread (tkill), zombie ones too.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>

#include "engine/gen.h"

/*
 * exec P: execve() by a thread of a group no tracer watches (the leader,
 * or in fuzz another thread: g_exec()), every other thread running:
 * de_thread() SIGKILLs them, they reap themselves
 * (their children go to the leader, find_new_reaper()), and no tracer has
 * an exec stop or a PTRACE_EVENT_EXIT to take.  The execer's exit signal
 * becomes SIGCHLD (de_thread(), fs/exec.c:1145,1169), its ->self_exec_id
 * goes up (begin_new_exec() :1403), which makes its children's other exit
 * signals SIGCHLD (do_notify_parent()), and SA_NOCLDWAIT goes
 * (flush_signal_handlers()).  A traced exec: traced_execer(), in fuzz.
 */
static bool untraced_execer(struct engine *e, int i)
{
	int k;

	if (!gen_is_proc(e, i) || T(e, i)->in_exit || T(e, i)->group_exit)
		return false;
	for (k = 1; k < e->m.n; k++) {
		const struct mtask *t = T(e, k);

		if (t->leader != i || t->life == ML_DEAD)
			continue;
		if (t->life != ML_ALIVE || t->tracer != M_NONE || t->stop != MS_RUNNING ||
		    t->in_exit)
			return false;
	}
	return true;
}

/*
 * A tracer that takes its tracee's exec stop and its zombie threads'
 * reports now: one of ours, running and not exiting (nor in a namespace
 * whose init's zap is under way, gen_debuggable()), or a strace session
 * still running (gen_strace_live()).
 */
static bool exec_tracer_ready(struct engine *e, int tr)
{
	const struct mtask *t = T(e, tr);

	if (e->e[tr].external)
		return gen_strace_live(e, tr);
	return e->e[tr].fd >= 0 && t->life == ML_ALIVE && t->stop == MS_RUNNING &&
	       !t->in_exit && !t->group_exit && !m_zapping(&e->m, tr);
}

/*
 * Fuzzing, a traced process may exec too, every live thread running
 * and not exiting, each untraced or traced by a tracer that can take its
 * stops now (exec_tracer_ready()).  The execer traced with
 * PTRACE_O_TRACEEXEC stops in PTRACE_EVENT_EXEC, attached without options
 * it gets the legacy SIGTRAP (exec_binprm()'s ptrace_event(
 * PTRACE_EVENT_EXEC), fs/exec.c:1841; ptrace_event() sends SIGTRAP to a
 * PT_PTRACED task that is not seized), seized without the option
 * nothing; v_exec() swallows it (strace passes its own).  The tracer
 * stays (exec does not touch ->ptrace), and the rest is as untraced
 * (m_exec_done()).
 *
 * With other threads, de_thread() (fs/exec.c:1047-1106) waits for them:
 * zap_other_threads() SIGKILLs them, one traced with PTRACE_O_TRACEEXIT
 * stops in PTRACE_EVENT_EXIT first (do_exit(), kernel/exit.c:829;
 * v_exec()'s settle_stops() lets it go), and a traced one stays a zombie
 * until its tracer has its report: exit_notify()'s do_notify_parent()
 * does not autoreap a traced task (kernel/signal.c:2107), and the count
 * de_thread() waits on drops in __exit_signal() (kernel/exit.c:168), at
 * release_task(); collect_group_tracees() collects those reports.  A
 * traced old leader stays a zombie its tracer cannot reap
 * (delay_group_leader(), wait_consider_task() kernel/exit.c:1436) and is
 * released without a report (fs/exec.c:1161).  These are the paths of
 * the library's exec-traceexit.sc and strace-nonleader-exec.sc.
 */
static bool traced_execer(struct engine *e, int i)
{
	bool traced = false;
	int k, tr;

	if (!gen_is_proc(e, i) || T(e, i)->in_exit || T(e, i)->group_exit || m_zapping(&e->m, i))
		return false;
	for (k = 1; k < e->m.n; k++) {
		const struct mtask *t = T(e, k);

		if (t->leader != i || t->life == ML_DEAD)
			continue;
		if (t->life != ML_ALIVE || t->stop != MS_RUNNING || t->in_exit || t->exited ||
		    e->e[k].uncertain)
			return false;
		tr = t->tracer;
		if (tr == M_NONE)
			continue;
		if (!exec_tracer_ready(e, tr))
			return false;
		traced = true;
	}
	return traced;
}

static bool fuzz_execer(struct engine *e, int i)
{
	return untraced_execer(e, i) || traced_execer(e, i);
}

/*
 * Fuzzing, half the execs are by another thread than the leader:
 * de_thread() then also waits for the leader's death, and the execer
 * takes over its pid and its place in the parent's ->children
 * (exchange_tids(), transfer_pid(), list_replace_init() of ->sibling,
 * fs/exec.c:1134-1140) before release_task() of the old leader (:1161); the
 * old leader's children go to a live thread, the execer at the end
 * (forget_original_parent()).  The scenario's name of the process then
 * names the execer (v_exec()).
 */
static bool live_thread(struct engine *e, int i)
{
	return T(e, i)->life == ML_ALIVE;
}

bool g_exec(struct engine *e, struct gen *g, struct stmt *st)
{
	int a = gen_pick(e, g, g->fuzz ? fuzz_execer : untraced_execer), t;

	if (a < 0)
		return false;
	if (g->fuzz && gen_rnd(g, 2)) {
		t = gen_thread_of(e, g, a, a, live_thread);
		if (t > 0)
			a = t;
	}
	gen_names(st, 1, T(e, a)->name, NULL);
	return true;
}


/*
 * thread P.wN in P: clone(CLONE_THREAD) by P's first live thread
 * (m_alive_thread(), the leader while it lives: add_thread()), so that
 * groups grow as well as shrink.  Traced from birth when that thread's
 * tracer follows clones (PTRACE_O_TRACECLONE, PTRACE_EVENT_CLONE:
 * kernel_clone() kernel/fork.c:2770, ptrace_init_task() :2545) by one of
 * ours that takes the new thread's first stop now, or by strace -f, which
 * takes it itself (pop.c's create()).  Not while a group stop is in
 * effect (gstop), even with every thread resumed by its tracer:
 * copy_process() makes a new thread join a group stop under way or
 * completed (task_join_group_stop(), :2577; SIGNAL_STOP_STOPPED stays
 * until SIGCONT), and it would stop before its first word (fuzz seed 14).
 * Every live thread of P running and none exiting: copy_process() fails
 * with EINTR when a fatal signal is pending (:2530), as in a group exit
 * or a de_thread().
 * Not in a namespace init (a threaded init's group exit is racy:
 * draw_process()), nor in a namespace that no longer takes new pids
 * (PIDNS_ADDING, :2524).
 */
static bool thread_adder(struct engine *e, int i)
{
	int k, n = 0, c, ns = T(e, i)->ns;

	if (!gen_is_proc(e, i) || ns == i || T(e, i)->group_exit || T(e, i)->gstop ||
	    m_zapping(&e->m, i))
		return false;
	if (ns != M_NONE && (!alive(e, ns) || T(e, ns)->group_exit || T(e, ns)->in_exit))
		return false;
	for (k = 1; k < e->m.n; k++) {
		const struct mtask *t = T(e, k);

		if (t->leader != i || t->life != ML_ALIVE)
			continue;
		if (t->stop != MS_RUNNING || t->in_exit || t->exited || e->e[k].uncertain)
			return false;
		n++;
	}
	c = m_alive_thread(&e->m, i);
	if (n >= GEN_THREADS - 1 || c == M_NONE || !gen_is_member(e, c))
		return false;
	return gen_can_follow(e, c, PTRACE_O_TRACECLONE);
}

bool g_thread(struct engine *e, struct gen *g, struct stmt *st)
{
	int a;

	/*
	 * Up to the population's bound, as new processes (one_round()):
	 * without it a guest run grew from 270 live tasks to 780 in 4
	 * minutes, and its rate halved.
	 */
	if (e->m.nlive >= g->max_live)
		return false;
	a = gen_pick(e, g, thread_adder);
	if (a < 0)
		return false;
	gen_names(st, 2, "", T(e, a)->name);
	snprintf(st->name[0], SC_NAME_LEN, "%.32s.w%d", T(e, a)->name, g->nthread++);
	return true;
}

/*
 * A zombie thread with a live sibling, whose pid stays until its live
 * siblings or its tracer let it go: a leader that exited first, or a
 * traced thread one of our tracers has not reaped (strace reaps its own
 * at any time, and a tgkill() after that is ESRCH).
 */
static bool zombie_with_siblings(struct engine *e, int i)
{
	const struct mtask *t = T(e, i);
	int tr = t->tracer;

	if (t->life != ML_ZOMBIE || t->zap_cand || m_zapping(&e->m, i) ||
	    m_alive_thread(&e->m, t->leader) == M_NONE || T(e, t->leader)->group_exit)
		return false;
	return t->leader == i || (tr > 0 && !e->e[tr].external && t->owed_tracer);
}

/*
 * tgkill() of one thread (fuzz only).  SIGKILL to a running thread kills
 * its group as kill() does (complete_signal(): a fatal signal takes the
 * whole group, kernel/signal.c:1043-1066); SIGSTOP or SIGCONT to a thread
 * of an untraced group stops or continues the group.  SIGKILL to a
 * zombie thread that still has live siblings does nothing
 * (m_signal_thread(), rule tkill-exited-thread).
 */
/* A live agent thread not exiting, stopped ones too (for SIGCONT). */
static bool signallable(struct engine *e, int i)
{
	return gen_usable(e, i) && !T(e, i)->in_exit;
}

bool g_tkill(struct engine *e, struct gen *g, struct stmt *st)
{
	int a, t;

	if (gen_rnd(g, 3) == 0)
		return gen_signal_to(e, g, st, zombie_with_siblings, SIGKILL);
	if (gen_rnd(g, 3) == 0) {
		a = gen_pick(e, g, gen_untraced_group);
		t = a < 0 ? -1 : gen_thread_of(e, g, a, -1, signallable);
		if (t < 0)
			return false;
		gen_names(st, 1, T(e, t)->name, NULL);
		st->sig = T(e, a)->gstop ? SIGCONT : SIGSTOP;
		return true;
	}
	return gen_signal_to(e, g, st, gen_is_member, SIGKILL);
}
