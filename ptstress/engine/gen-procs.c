// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of new tasks (gen.h): a process -- its parent, namespace,
 * threads, exit signal, clone flags -- and a tracer.  Moved out of gen.c
 * as it grew past the size of a file.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>

#include "engine/gen.h"

/* A namespace init whose namespace still takes new pids: a setns target. */
static bool live_ns_init(struct engine *e, int i)
{
	return T(e, i)->ns == i && alive(e, i) && !T(e, i)->group_exit;
}

/*
 * A vfork by @p's thread: untraced, traced without PTRACE_O_TRACEVFORK
 * (nobody follows the child), or seized without PTRACE_O_TRACEEXEC (the
 * auto-attached child's exec does not stop it).
 */
static bool vfork_followable(struct engine *e, int p)
{
	const struct mtask *t = T(e, p);

	if (t->tracer == M_NONE || !(t->ptrace_opts & PTRACE_O_TRACEVFORK))
		return true;
	return t->seized && !(t->ptrace_opts & PTRACE_O_TRACEEXEC);
}

/* No thread of @p's group traced (R's, @p <= 0, never is). */
static bool group_untraced(struct engine *e, int p)
{
	int k;

	if (p <= 0)
		return true;
	for (k = T(e, p)->first; k <= T(e, p)->last; k++)
		if (T(e, k)->leader == p && T(e, k)->life == ML_ALIVE && T(e, k)->tracer != M_NONE)
			return false;
	return true;
}

/* The statement, and the index of its parent task (-1: R). */
static int draw_process(struct engine *e, struct gen *g, struct stmt *st)
{
	int p = gen_rnd(g, 4) ? gen_pick(e, g, gen_is_proc) : -1;
	int pns = p > 0 ? T(e, p)->ns : M_NONE, x;

	memset(st, 0, sizeof(*st));
	st->verb = V_PROCESS;
	st->nnames = 1;
	snprintf(st->name[0], SC_NAME_LEN, "p%d", g->nproc++);
	if (p > 0)
		snprintf(st->parent, sizeof(st->parent), "%s", T(e, p)->name);
	st->threads = g->threads;
	if (!gen_rnd(g, 8))
		st->opts |= O_SUBREAPER;
	/*
	 * A pid namespace, nested up to 3 levels.  Its init gets threads
	 * only where no tracer follows its creation (a traced parent's
	 * TRACEFORK, or strace -f, would trace it and TRACECLONE its
	 * threads): of a threaded init, which thread zaps is racy, and with a
	 * traced one so is the order of the reports (the engine refuses
	 * that); threaded_init() keeps tracers away later.  Such an init's
	 * leader may exit alone (g_exit()): the namespace's child_reaper
	 * then moves to a live thread (find_child_reaper(), kernel/exit.c:
	 * 588-616), which fuzz did not reach before (session 21's coverage).
	 */
	if (!gen_rnd(g, 12) && m_ns_level(&e->m, pns) < 3) {
		st->opts |= O_PIDNS;
		if (!group_untraced(e, p))
			st->threads = 0;
		return p;
	}
	/* setns()+fork() into a namespace nested in (or equal to) the parent's */
	if (!gen_rnd(g, 6)) {
		x = gen_pick(e, g, live_ns_init);
		if (x > 0 && m_ns_within(&e->m, x, pns) && x != p)
			snprintf(st->setns, sizeof(st->setns), "%s", T(e, x)->name);
	}
	if (p <= 0 || st->setns[0])
		return p;
	/*
	 * Another exit signal (SIGRTMAX, which agents keep blocked, or
	 * none): reparent_leader() must turn it into SIGCHLD for a new
	 * parent in another group, and only __WALL/__WCLONE waits see such
	 * a child (eligible_child()).  spawn_process() needs a parent other
	 * than R.
	 */
	x = (int)gen_rnd(g, 16);
	if (x == 0)
		st->exitsig = SIGRTMAX;
	else if (x == 1)
		st->exitsig = -1;
	/*
	 * clone(CLONE_PARENT): a sibling of p with p's group leader's exit
	 * signal (copy_process()); not by a namespace init (EINVAL there)
	 * nor when p's real parent is outside the scenario.
	 */
	else if (x == 2 && T(e, p)->ns != T(e, p)->leader &&
		 T(e, T(e, p)->leader)->real_parent >= 0)
		st->opts |= O_CLONE_PARENT;
	/*
	 * fork() by one of p's other threads: the child is on that thread's
	 * ->children, and when the thread exits find_new_reaper() gives it
	 * to a live thread of the same group first (find_alive_thread()),
	 * without a notification, exit signal and all, but with its pdeath
	 * signal (forget_original_parent()).
	 */
	if (!(st->opts & O_CLONE_PARENT) && !gen_rnd(g, 4)) {
		int k, nt = 0, th[GEN_THREADS];

		/* one walk over the tasks: a draw of a fork is frequent */
		for (k = 0; k < e->m.n && nt < GEN_THREADS; k++)
			if (T(e, k)->leader == p && k != p && gen_is_member(e, k))
				th[nt++] = k;
		if (nt) {
			p = th[gen_rnd(g, nt)];
			snprintf(st->parent, sizeof(st->parent), "%s", T(e, p)->name);
		}
	}
	/*
	 * Fuzzing, one fork in 6 is a vfork (clone(CLONE_VM|CLONE_VFORK)):
	 * the parent thread sleeps in wait_for_vfork_done() until the child
	 * execs (kernel/fork.c:1458-1476, kernel_clone() :2812-2817).  Only
	 * with SIGCHLD and no subreaper, and from a tracee only when the
	 * engine can follow its PTRACE_EVENT_VFORK child through its exec:
	 * the refusals of spawn_process().
	 */
	if (g->fuzz && !gen_rnd(g, 6) && st->exitsig == 0 && !(st->opts & O_CLONE_PARENT) &&
	    !(st->opts & O_SUBREAPER) && vfork_followable(e, p))
		st->opts |= O_VFORK;
	return p;
}

void gen_process(struct engine *e, struct gen *g, struct stmt *st)
{
	int p = draw_process(e, g, st);

	/* Outside R's group only a session leader forks, plainly: see gen-jobs.c. */
	if (p > 0 && gen_in_job(e, p)) {
		if (!gen_job_forker(e, p))
			p = -1;
		st->setns[0] = '\0';
		st->exitsig = 0;
		st->opts &= ~(O_PIDNS | O_CLONE_PARENT | O_VFORK);
		if (p < 0)
			st->parent[0] = '\0';
	}

	/*
	 * A fork by a tracee of strace -f is born traced by strace
	 * (PTRACE_O_TRACEFORK: ptrace_init_task(), kernel/fork.c:2545): a
	 * plain fork() only.  Its exit signal SIGCHLD, as straceable()'s
	 * (gen-sessions.c), so its own forks are plain ones too; no new pid
	 * namespace (no strace on a namespace init: gen_debuggable()); no
	 * CLONE_PARENT, setns or vfork, paths strace's tracees never took.
	 */
	if (p > 0 && T(e, p)->tracer != M_NONE && e->e[T(e, p)->tracer].external) {
		st->setns[0] = '\0';
		st->exitsig = 0;
		st->opts &= ~(O_PIDNS | O_CLONE_PARENT | O_VFORK);
	}
	/*
	 * A tracer that follows p's fork must take the new task's first stop
	 * then: when it cannot (a member thread that traces, stopped by its
	 * own tracer or in its group's stop), R forks instead.
	 */
	if (p > 0 && !gen_can_follow(e, p, st->opts & O_VFORK ? PTRACE_O_TRACEVFORK :
				 m_fork_trace_opt(&e->m, st->exitsig == 0 ? SIGCHLD :
						  st->exitsig < 0 ? 0 : st->exitsig))) {
		st->parent[0] = '\0';
		st->setns[0] = '\0';
		st->exitsig = 0;
		st->opts &= ~(O_CLONE_PARENT | O_VFORK);
	}
}

void gen_tracer(struct gen *g, struct stmt *st)
{
	memset(st, 0, sizeof(*st));
	st->verb = V_TRACER;
	st->nnames = 1;
	snprintf(st->name[0], SC_NAME_LEN, "tr%d", g->ntracer++);
}
