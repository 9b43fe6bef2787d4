// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of real debugger sessions (gen.h): strace and gdb in fuzz's
 * populations, at most GEN_SESSIONS at once (the engine's sessions[]
 * reuses the slots of ended ones), on targets gen_debuggable() allows.
 */
#include <signal.h>
#include <stdio.h>

#include "engine/gen.h"

#define GEN_SESSIONS	2

/*
 * strace sN P [Q]: `strace -f -p` of one or two processes.  While it
 * runs, the other generators leave its tracees to it as they leave other
 * tracers' (traced_by_ours() is false for them), except the deaths:
 * exit and SIGKILL of its tracees, whose reports strace collects
 * (collect_reports()) and prints ("stop" checks its output).  A fork or
 * a new thread of one of its tracees is born traced by strace
 * (PTRACE_O_TRACEFORK, PTRACE_O_TRACECLONE: ptrace_init_task()), which
 * takes its first stop itself (gen_process(), g_thread()); a tracee
 * execs under it too (g_exec()).  strace may end on its own when its
 * last tracee is gone; "stop" accepts that.
 *
 * A session's start and stop cost 40 ms on the host and seconds under
 * TCG, where every strace draw going ahead (and every stop) cut a clean
 * guest slice to 19.8 steps/s (s11, without sessions: 50.3): one strace
 * draw in 8 goes ahead and one stop in 4, so a session is rarer and lives
 * longer (about 200 rounds), seeing more of its tracees' deaths.
 *
 * Only a process whose exit signal is SIGCHLD (straceable()): when a
 * zombie leader's last other thread is released, release_task() sends
 * the leader's exit signal to its ->parent, the tracer, ptrace-reparented
 * or not (kernel/exit.c:270-277; do_notify_parent() makes it SIGCHLD
 * only if the parent_exec_id differs, kernel/signal.c:2067).  strace
 * leaves SIGRTMAX at its default action and dies of it; ptstress's own
 * tracers keep it blocked.  (Host soak, seed 9: strace killed by signal
 * 64.)  An exit signal only ever becomes SIGCHLD later (reparent_leader(),
 * de_thread()).
 */
static bool straceable(struct engine *e, int i)
{
	int k;

	if (!gen_debuggable(e, i) || T(e, i)->exit_signal != SIGCHLD)
		return false;
	/* Not a group a gdb session had: "stop" would check its State again. */
	for (k = 1; k < e->m.n; k++)
		if (T(e, k)->leader == i && T(e, k)->life == ML_ALIVE && e->e[k].any_state)
			return false;
	return true;
}

bool g_strace(struct engine *e, struct gen *g, struct stmt *st)
{
	int a, b;

	/* the draw first: with or without debuggers, the same sequence until one starts */
	if (gen_rnd(g, 8) || !g->sessions || live_sessions(e) >= GEN_SESSIONS)
		return false;
	a = gen_pick(e, g, straceable);
	if (a < 0)
		return false;
	b = gen_rnd(g, 3) ? -1 : gen_pick(e, g, straceable);
	gen_names(st, 1, "", NULL);
	snprintf(st->name[0], SC_NAME_LEN, "s%d", g->nsession++);
	snprintf(g->targets[0], SC_NAME_LEN, "%s", T(e, a)->name);
	st->ntargets = 1;
	if (b >= 0 && b != a) {
		snprintf(g->targets[1], SC_NAME_LEN, "%s", T(e, b)->name);
		st->ntargets = 2;
	}
	st->targets = g->targets;
	return true;
}

/*
 * @tr is a strace session still running: strace -f passes its tracees'
 * stops and reaps their deaths itself, and follows their forks, clones
 * and execs (v_strace()'s options).  gdb holds its tasks only inside its
 * own step.
 */
bool gen_strace_live(struct engine *e, int tr)
{
	int k = e->e[tr].session;

	return e->e[tr].external && k >= 0 && !e->sessions[k].done && !e->sessions[k].is_gdb &&
	       T(e, tr)->life == ML_ALIVE;
}

/* stop sN: a strace session still running (or ended on its own, not yet stopped). */
bool g_stop(struct engine *e, struct gen *g, struct stmt *st)
{
	int i, n = 0, s[MAX_SESSIONS];

	if (gen_rnd(g, 4))
		return false;
	for (i = 0; i < e->nsessions; i++)
		if (!e->sessions[i].done && !e->sessions[i].is_gdb)
			s[n++] = i;
	if (!n)
		return false;
	gen_names(st, 1, e->sessions[s[gen_rnd(g, (unsigned int)n)]].name, NULL);
	return true;
}

/*
 * gdb gN P [quit]: gdb -batch -p P, "info threads", then detach (or its
 * own SIGKILL while attached: exit_ptrace()).  stress.c's one_round()
 * follows it at once with "wait gN": while gdb holds P's threads, what a
 * step on them does is gdb's timing (its SIGSTOPs, its stops).  A gdb
 * session costs 0.8 s on the host (strace's start and stop: 40 ms) and
 * many seconds under TCG: with one draw in 4 going ahead, 31 gdb
 * sessions took a large part of a 20-minute guest run (12 493 steps
 * against 41 745 without sessions); one in 64 goes ahead.  quit
 * only for a child of R: the SIGSTOPs gdb's attach queued and no detach
 * consumed stop the group until v_wait()'s SIGCONT, and a real parent
 * other than R would get CLD_STOPPED and CLD_CONTINUED reports
 * (do_notify_parent_cldstop()) the model does not have.
 */
bool g_gdb(struct engine *e, struct gen *g, struct stmt *st)
{
	int a;

	if (gen_rnd(g, 64) || !g->sessions || live_sessions(e) >= GEN_SESSIONS)
		return false;
	a = gen_pick(e, g, gen_debuggable);
	if (a < 0)
		return false;
	gen_names(st, 2, "", T(e, a)->name);
	snprintf(st->name[0], SC_NAME_LEN, "g%d", g->nsession++);
	if (T(e, a)->real_parent == 0 && gen_rnd(g, 2))
		st->opts = O_GDB_QUIT;
	return true;
}
