// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of valid statements (gen.h), one per verb the stress
 * generator draws.  "Valid" means: the engine can run it
 * deterministically on the model's current state (it would not refuse
 * it), so every generated step is checked like a written one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "engine/gen.h"

/* xorshift64*: small, seedable, the same sequence on every machine. */
unsigned int gen_rnd(struct gen *g, unsigned int n)
{
	g->rng ^= g->rng >> 12;
	g->rng ^= g->rng << 25;
	g->rng ^= g->rng >> 27;
	return n ? (unsigned int)((g->rng * 2685821657736338717ULL) >> 33) % n : 0;
}

void gen_seed(struct gen *g, unsigned long seed)
{
	g->rng = seed ? seed * 0x9E3779B97F4A7C15ULL : 0x2545F4914F6CDD1DULL;
}

/* A random model task satisfying @ok, or -1 after a bounded search. */
int gen_pick(struct engine *e, struct gen *g, gen_pred *ok)
{
	int tries, i;

	if (e->m.n < 2)
		return -1;
	for (tries = 0; tries < 64; tries++) {
		i = 1 + (int)gen_rnd(g, (unsigned int)e->m.n - 1);
		if (ok(e, i))
			return i;
	}
	for (i = 1; i < e->m.n; i++) {
		if (ok(e, i))
			return i;
	}
	return -1;
}

bool gen_usable(struct engine *e, int i)
{
	return alive(e, i) && !e->e[i].external && e->e[i].fd >= 0;
}

static bool is_tracer(struct engine *e, int i)
{
	return gen_usable(e, i) && T(e, i)->leader == i && !strncmp(T(e, i)->name, "tr", 2) &&
	       T(e, i)->stop == MS_RUNNING;
}

static bool is_member(struct engine *e, int i)
{
	return gen_usable(e, i) && strncmp(T(e, i)->name, "tr", 2) && T(e, i)->stop == MS_RUNNING;
}

bool gen_is_member(struct engine *e, int i)
{
	return is_member(e, i);
}

static bool is_proc(struct engine *e, int i)
{
	return is_member(e, i) && T(e, i)->leader == i;
}

bool gen_is_proc(struct engine *e, int i)
{
	return is_proc(e, i);
}

/*
 * A task of a namespace init's group with more than one live thread
 * (draw_process() gives a new init threads when no tracer can follow its
 * creation).  No tracer may take one of them: which thread of such a
 * group zaps the namespace at its group exit is the kernel's choice
 * (find_child_reaper(), kernel/exit.c:588-616), and with a traced one
 * the order of the reports is too (m_group_exit() calls that
 * unpredictable).  Threads are never added to an init later
 * (thread_adder()), so once one is left it may be traced.
 */
static bool threaded_init(struct engine *e, int i)
{
	int lead = T(e, i)->leader;

	return T(e, lead)->ns == lead && m_live_threads(&e->m, lead) > 1;
}

/* Not outside R's group: no tracer there (gen-jobs.c). */
static bool untraced_proc(struct engine *e, int i)
{
	return is_proc(e, i) && T(e, i)->tracer == M_NONE && !gen_in_job(e, i) &&
	       !threaded_init(e, i);
}

static bool traced_by_ours(struct engine *e, int i)
{
	int tr = T(e, i)->tracer;

	return alive(e, i) && tr > 0 && !e->e[tr].external && is_tracer(e, tr);
}

/* A seized tracee PTRACE_INTERRUPT can stop: running, or listening. */
static bool traced_running(struct engine *e, int i)
{
	return traced_by_ours(e, i) && T(e, i)->seized &&
	       (T(e, i)->stop == MS_RUNNING || T(e, i)->listening);
}

/* A seized tracee in a PTRACE_EVENT_STOP: PTRACE_LISTEN takes it. */
static bool listenable(struct engine *e, int i)
{
	return traced_by_ours(e, i) && T(e, i)->stop == MS_TRACED && T(e, i)->seized &&
	       T(e, i)->trap == TRAP_EVENT_STOP && !T(e, i)->listening && !T(e, i)->cont_queued;
}

/* An untraced process whose threads are all untraced: SIGSTOP/SIGCONT may go to it. */
static bool untraced_group(struct engine *e, int i)
{
	int k;

	if (!alive(e, i) || e->e[i].external || T(e, i)->leader != i || e->e[i].fd < 0 ||
	    !strncmp(T(e, i)->name, "tr", 2) || T(e, i)->ns == i)
		return false;
	/*
	 * Nor a group a gdb session had: its State is no longer checked
	 * (gdb may leave a SIGSTOP behind, v_wait()), so the engine could
	 * not wait for a group stop to complete, and a seize or attach of
	 * the "stopped" group would race it (host soak, seed 12).
	 */
	for (k = T(e, i)->first; k <= T(e, i)->last; k++)	/* its group's range */
		if (T(e, k)->leader == i && alive(e, k) &&
		    (T(e, k)->tracer != M_NONE || e->e[k].any_state))
			return false;
	return true;
}

bool gen_untraced_group(struct engine *e, int i)
{
	return untraced_group(e, i);
}

static bool traced_stopped(struct engine *e, int i)
{
	return traced_by_ours(e, i) && T(e, i)->stop == MS_TRACED;
}

static bool sub_thread(struct engine *e, int i)
{
	return is_member(e, i) && T(e, i)->leader != i;
}

void gen_names(struct stmt *st, int n, const char *a, const char *b)
{
	st->nnames = n;
	snprintf(st->name[0], SC_NAME_LEN, "%s", a);
	if (n > 1)
		snprintf(st->name[1], SC_NAME_LEN, "%s", b);
}

/* "TRACER TASK" of tracee @b. */
static bool tracer_task(struct engine *e, struct stmt *st, int b)
{
	if (b < 0)
		return false;
	gen_names(st, 2, T(e, T(e, b)->tracer)->name, T(e, b)->name);
	return true;
}

/* A group-stopped task no one traces: seize and attach re-trap it. */
static bool stopped_untraced(struct engine *e, int i)
{
	return gen_usable(e, i) && strncmp(T(e, i)->name, "tr", 2) && T(e, i)->stop == MS_GROUP &&
	       T(e, i)->tracer == M_NONE && !m_zapping(&e->m, i) && !gen_in_job(e, i) &&
	       !threaded_init(e, i);
}

/* A running member thread that nobody traces: it may trace. */
static bool member_tracer(struct engine *e, int i)
{
	return is_member(e, i) && T(e, i)->tracer == M_NONE && !T(e, i)->in_exit;
}

/*
 * The thread that forked @b, if it may trace @b; else -1.  See g_seize().
 * Not when @b's exit signal is another than SIGCHLD: the tracer, in the
 * real parent's group, gets that signal when the leader's group is empty
 * at its exit_notify(), and SIGCHLD when another thread is still there
 * (kernel/exit.c:745-750); the exit signal follows with the last thread's
 * release_task().  Which of a killed group's threads goes last is the
 * scheduler's choice, so whether the tracer sees a SIGCHLD is too.
 */
static int parent_group_tracer(struct engine *e, int b)
{
	int rp = T(e, T(e, b)->leader)->real_parent;

	if (T(e, T(e, b)->leader)->exit_signal != SIGCHLD)
		return -1;
	return rp > 0 && member_tracer(e, rp) ? rp : -1;
}

/*
 * A task a PTRACE_ATTACH or PTRACE_SEIZE gets EPERM for: a zombie, or
 * traced by a tracer that is not exiting itself (its exit_ptrace() may
 * be unlinking it), or by a real debugger.
 */
static bool attach_eperm(struct engine *e, int i)
{
	const struct mtask *t = T(e, i);
	int tr = t->tracer;

	if (t->life == ML_DEAD || e->e[i].external || m_zapping(&e->m, i))
		return false;
	if (t->life == ML_ZOMBIE && !t->zapper)
		return true;
	return tr != M_NONE && (e->e[tr].external || (alive(e, tr) && !T(e, tr)->in_exit));
}

/*
 * Fuzzing, one seize or attach in 10 is one the kernel refuses with
 * EPERM (ptrace_attach(): same_thread_group() kernel/ptrace.c:429,
 * task->exit_state :450, task->ptrace :452): of a thread of the tracer's
 * own group, of a zombie (a leader waiting for its threads too), of a
 * task another tracer or a real debugger holds.  The statement's
 * "fails" clause is m_predict_attach()'s answer, so a model that
 * predicts success here (--wrong-model=attach-eperm) is caught.  A
 * released task is never drawn: its pid may be another task's.
 */
/* Not released: a thread of the tracer's own group, zombie or not (g_refused_seize()). */
static bool not_released(struct engine *e, int i)
{
	return T(e, i)->life != ML_DEAD;
}

static bool g_refused_seize(struct engine *e, struct gen *g, struct stmt *st)
{
	int a, b = -1, n;

	if (gen_rnd(g, 3)) {
		a = gen_pick(e, g, is_tracer);
		b = gen_pick(e, g, attach_eperm);
	} else {
		a = gen_pick(e, g, member_tracer);
		if (a > 0)
			b = gen_thread_of(e, g, T(e, a)->leader, a, not_released);
	}
	if (a < 0 || b < 0 || !m_ns_within(&e->m, T(e, b)->ns, T(e, a)->ns))
		return false;
	gen_names(st, 2, T(e, a)->name, T(e, b)->name);
	n = m_predict_attach(&e->m, a, b).err;
	if (n) {
		st->nfails = 1;
		st->fails[0] = n;
	}
	return true;
}

bool g_seize(struct engine *e, struct gen *g, struct stmt *st)
{
	int a, b;

	if (g->fuzz && !gen_rnd(g, 10))
		return g_refused_seize(e, g, st);

	/*
	 * Fuzzing, one seize in 6 is by a thread of the tracee's real
	 * parent's own group (a supervisor that traces its children from a
	 * helper thread): that tracer gets the exit report with the
	 * tracee's own exit signal (exit_notify(), !ptrace_reparented()),
	 * its group's waits see the tracee as a tracee (wait_consider_task()),
	 * and when the tracer exits with the zombie, __ptrace_detach()
	 * (kernel/ptrace.c:567-589) sends nothing and releases it if that
	 * group ignores SIGCHLD.  The tracer is the very thread that forked
	 * the tracee: when its group dies, another thread's
	 * forget_original_parent() could otherwise move the zombie out of
	 * the group before the tracer's exit_ptrace() lets it go, and with
	 * SIGCHLD ignored the two orders end differently (released, or the
	 * next reaper's zombie).  The real parent thread's own exit_ptrace()
	 * comes before its forget_original_parent() (kernel/exit.c:698-699).
	 * No EXITKILL: that group dying would kill its own child with it,
	 * and when it ignores SIGCHLD whether the child reaps itself is a
	 * race (see g_sigchld()).
	 */
	if (g->fuzz && !gen_rnd(g, 6)) {
		b = gen_pick(e, g, untraced_proc);
		a = b < 0 ? -1 : parent_group_tracer(e, b);
		if (a < 0)
			return false;
		gen_names(st, 2, T(e, a)->name, T(e, b)->name);
		st->opts = gen_rnd(g, 4) ? 0 : O_TRACEFORK;
	} else {
		a = gen_pick(e, g, is_tracer);
		b = gen_rnd(g, 4) ? gen_pick(e, g, untraced_proc) :
				    gen_pick(e, g, stopped_untraced);
		if (a < 0 || b < 0)
			return false;
		gen_names(st, 2, T(e, a)->name, T(e, b)->name);
		st->opts = (gen_rnd(g, 3) ? 0 : O_EXITKILL) | (gen_rnd(g, 4) ? 0 : O_TRACEFORK);
		/*
		 * not into a group that ignores SIGCHLD: see g_sigchld(); nor
		 * into one with a thread left single-stepping, which would
		 * then die of SIGTRAP or SIGKILL at a common tracer's exit
		 * (m_exit_ptrace()), nor into a namespace init with one inside
		 */
		if ((st->opts & O_EXITKILL) &&
		    (gen_ignores_sigchld(e, b) || gen_stepping(e, b) ||
		     gen_ns_steps_under(e, T(e, b)->leader, a)))
			st->opts &= ~O_EXITKILL;
	}
	/*
	 * Fuzzing, a seize follows vforks too: the engine then checks that
	 * the vfork()ing thread sleeps in D while its child is held in its
	 * first stop (follow_vfork()).  Only seize: an attached tracee's
	 * auto-attached vfork child would stop in its exec's SIGTRAP, which
	 * the engine refuses (spawn_process()).
	 */
	if (g->fuzz && st->verb == V_SEIZE && !gen_rnd(g, 3))
		st->opts |= O_TRACEVFORK;
	/*
	 * And one seize in 4 asks for PTRACE_EVENT_EXEC: a traced exec
	 * (g_exec()) then stops in it rather than running on (a seized
	 * tracee without the option gets no SIGTRAP either: ptrace_event()).
	 */
	if (g->fuzz && st->verb == V_SEIZE && !gen_rnd(g, 4))
		st->opts |= O_TRACEEXEC;
	/* no forks followed by a non-leader of an ignoring subreaper: see gen_nonleader_traces() */
	if (T(e, a)->leader != a && gen_ignores_sigchld(e, a) && T(e, T(e, a)->leader)->subreaper)
		st->opts &= ~(O_TRACEFORK | O_TRACEVFORK);
	return true;
}

/*
 * race-attach T U P detach (fuzz only): two tracers attach to a running,
 * untraced process at once; exactly one wins (ptrace_attach() under
 * cred_guard_mutex and tasklist_lock, kernel/ptrace.c:438-454) and
 * detaches within the step, so what is drawn next does not depend on
 * which one.  Not a group-stopped process (the engine's race takes one
 * plain SIGSTOP stop) nor one that may sleep in a namespace's zap.
 */
static bool race_target(struct engine *e, int i)
{
	return untraced_proc(e, i) && T(e, i)->stop == MS_RUNNING && !T(e, i)->in_exit &&
	       !m_zapping(&e->m, i);
}

bool g_race_attach(struct engine *e, struct gen *g, struct stmt *st)
{
	int a = gen_pick(e, g, is_tracer), b = gen_pick(e, g, is_tracer);
	int x = gen_pick(e, g, race_target);

	if (a < 0 || b < 0 || a == b || x < 0)
		return false;
	gen_names(st, 2, T(e, a)->name, T(e, b)->name);
	snprintf(st->name[2], SC_NAME_LEN, "%s", T(e, x)->name);
	st->nnames = 3;
	st->opts = O_RACE_DETACH;
	return true;
}

/*
 * PTRACE_TRACEME (fuzz only): the tracer is the real parent thread
 * (ptrace_traceme(), kernel/ptrace.c:516-537: ptrace_link() to
 * current->real_parent), an attached-style tracer with no options.  The
 * same pairs as g_seize()'s tracer in the real parent's group, for the
 * same reasons (parent_group_tracer()): the process is untraced and
 * leads its group, the real parent thread is a running member agent,
 * and the exit signal is SIGCHLD.
 */
bool g_traceme(struct engine *e, struct gen *g, struct stmt *st)
{
	int b = gen_pick(e, g, untraced_proc);

	if (b < 0 || parent_group_tracer(e, b) < 0)
		return false;
	gen_names(st, 1, T(e, b)->name, NULL);
	return true;
}

bool g_interrupt(struct engine *e, struct gen *g, struct stmt *st)
{
	return tracer_task(e, st, gen_pick(e, g, traced_running));
}

bool g_listen(struct engine *e, struct gen *g, struct stmt *st)
{
	return tracer_task(e, st, gen_pick(e, g, listenable));
}

bool g_cont(struct engine *e, struct gen *g, struct stmt *st)
{
	return gen_cont(e, g, st, gen_pick(e, g, traced_stopped));
}

bool gen_tracer_task(struct engine *e, struct stmt *st, int b)
{
	return tracer_task(e, st, b);
}

bool gen_traced_stopped(struct engine *e, int i)
{
	return traced_stopped(e, i);
}

bool g_detach(struct engine *e, struct gen *g, struct stmt *st)
{
	int b = gen_pick(e, g, traced_by_ours);

	/* An attached tracee is stopped with SIGSTOP first: it must be running then. */
	if (b >= 0 && !T(e, b)->seized && T(e, b)->stop != MS_TRACED &&
	    T(e, b)->stop != MS_RUNNING)
		return false;
	return tracer_task(e, st, b);
}

/*
 * A tracee of one of our tr processes, live and not exiting, or a
 * zombie: PTRACE_KILL, which 6.1 turns into a SIGKILL whatever the
 * tracee's state (ptrace_check_attach() with ignore_state,
 * kernel/ptrace.c:1301; send_sig_info(), :1230-1232): the group dies as
 * of kill SIGKILL, and a zombie is left as it is (complete_signal(): a
 * thread-directed signal no live thread wants).  Not one exiting: held
 * in PTRACE_EVENT_EXIT, the SIGKILL would end the stop whose release the
 * engine waits for.
 */
static bool ptrace_killable(struct engine *e, int i)
{
	const struct mtask *t = T(e, i);

	if (t->tracer <= 0 || e->e[t->tracer].external || !is_tracer(e, t->tracer) ||
	    m_zapping(&e->m, i))
		return false;
	return t->life == ML_ZOMBIE || (t->life == ML_ALIVE && !t->in_exit && !t->group_exit);
}

bool g_ptrace_kill(struct engine *e, struct gen *g, struct stmt *st)
{
	return tracer_task(e, st, gen_pick(e, g, ptrace_killable));
}

/*
 * @x has no tracer, or one that can act now.  A member thread that traces
 * (g_seize()) may itself be stopped by its own tracer or in its group's
 * stop; a tr process is always running.
 */
static bool tracer_can_act(struct engine *e, int x)
{
	int tr = T(e, x)->tracer;

	return tr == M_NONE ||
	       (gen_usable(e, tr) && T(e, tr)->stop == MS_RUNNING && !T(e, tr)->in_exit);
}

/*
 * No tracer follows @p's clone with @opt, or one that can act now: one of
 * ours, or a running strace session, which takes the new task's first
 * stop itself (pop.c's create()).
 */
bool gen_can_follow(struct engine *e, int p, unsigned long opt)
{
	int tr = T(e, p)->tracer;

	if (!(T(e, p)->ptrace_opts & opt))
		return true;
	return tr != M_NONE && e->e[tr].external ? gen_strace_live(e, tr) :
	       tracer_can_act(e, p);
}

int gen_thread_of(struct engine *e, struct gen *g, int lead, int skip, gen_pred *ok)
{
	int th[GEN_THREADS], n = 0, k;

	for (k = 1; k < e->m.n && n < GEN_THREADS; k++)
		if (T(e, k)->leader == lead && k != skip && ok(e, k))
			th[n++] = k;
	return n ? th[gen_rnd(g, (unsigned int)n)] : -1;
}

bool gen_signal_to(struct engine *e, struct gen *g, struct stmt *st, gen_pred *ok, int sig)
{
	int a = gen_pick(e, g, ok);

	if (a < 0)
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	st->sig = sig;
	return true;
}

bool g_kill(struct engine *e, struct gen *g, struct stmt *st)
{
	int a;

	/* SIGCONT to a process whose only thread is seized, listening or running. */
	if (gen_rnd(g, 6) == 0) {
		a = gen_pick(e, g, sigcont_to_seized);
		/* its tracer takes the SIGCONT's signal-delivery-stop */
		if (a < 0 || !tracer_can_act(e, m_alive_thread(&e->m, T(e, a)->leader)))
			return false;
		gen_names(st, 1, T(e, T(e, a)->leader)->name, NULL);
		st->sig = SIGCONT;
		return true;
	}
	/* A group stop and its end, on a group no tracer watches; else SIGKILL. */
	if (gen_rnd(g, 3) == 0) {
		a = gen_pick(e, g, untraced_group);
		if (a < 0)
			return false;
		gen_names(st, 1, T(e, a)->name, NULL);
		st->sig = T(e, a)->gstop ? SIGCONT : SIGSTOP;
		return true;
	}
	return gen_signal_to(e, g, st, is_proc, SIGKILL);
}

/*
 * A running leader with a live sibling: it may exit alone (fuzz only).
 * Not one a debugger session traces: strace, told to stop, never exits
 * while a zombie leader it traces still has live threads (its detach
 * waits for a report the kernel delays until the group is empty; host
 * soak seed 1, and the 4 steps "process P threads 1", "strace s P",
 * "exit P thread", "stop s").
 */
static bool leader_with_siblings(struct engine *e, int i)
{
	int tr = T(e, i)->tracer;

	return is_proc(e, i) && m_live_threads(&e->m, i) > 1 &&
	       (tr == M_NONE || !e->e[tr].external);
}

bool g_exit(struct engine *e, struct gen *g, struct stmt *st)
{
	/* A real parent (with whatever it has) exits, or one thread. */
	int a = gen_rnd(g, 2) ? gen_pick(e, g, is_proc) : gen_pick(e, g, sub_thread);
	bool alone = false;

	/*
	 * Or, in fuzz, a leader alone (`exit P N thread`): a zombie at once,
	 * its report delayed until its group is empty (wait_consider_task(),
	 * kernel/exit.c:1436; delay_group_leader()), its children
	 * to a sibling thread (find_alive_thread(), :577-586), a namespace's
	 * child_reaper moving to one (find_child_reaper(), :588-616).
	 */
	if (g->fuzz && gen_rnd(g, 4) == 0) {
		a = gen_pick(e, g, leader_with_siblings);
		alone = true;
	}
	if (a < 0)
		return false;
	/*
	 * Not a traced thread with a pdeath signal: its zombie stays on the
	 * thread list (forget_original_parent() sends its signal) until
	 * release_task().  When its tracer exits, that release comes after
	 * the tracer drops tasklist_lock (exit_notify()), while the tracer's
	 * EXITKILL tracees die, the group's parent maybe among them: whether
	 * the group is killed is then the scheduler's choice.  (Host soak,
	 * seed 10: killed in 1 of 3 runs of the same steps.)
	 */
	if ((T(e, a)->leader != a || alone) && T(e, a)->pdeath_signal &&
	    T(e, a)->tracer != M_NONE)
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	st->num = gen_rnd(g, 4);
	if (alone)
		st->opts |= O_THREAD_ONLY;
	return true;
}

/* A verb whose one argument is a task satisfying @ok. */
static bool one_task(struct engine *e, struct gen *g, struct stmt *st, gen_pred *ok)
{
	int a = gen_pick(e, g, ok);

	if (a < 0)
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	return true;
}

bool g_quit(struct engine *e, struct gen *g, struct stmt *st)
{
	return one_task(e, g, st, is_tracer);
}

bool g_subreaper(struct engine *e, struct gen *g, struct stmt *st)
{
	int a = gen_pick(e, g, is_proc);

	if (a < 0)
		return false;
	gen_names(st, 1, T(e, a)->name, NULL);
	if (!T(e, T(e, a)->leader)->subreaper) {
		/* see gen_nonleader_traces() */
		if (gen_ignores_sigchld(e, a) && gen_nonleader_traces(e, a))
			return false;
		st->opts = O_ON;
	}
	return true;
}

/* A zombie whose report an agent (or R) may collect now. */
static bool collectable(struct engine *e, int i)
{
	bool as_tracer;
	int c = m_next_collector(&e->m, i, &as_tracer), w;

	if (c <= 0)
		return c == 0;
	/*
	 * "reap P c" names the collector's process, and v_reap() has the
	 * model's thread of it wait (find_alive_thread()): that one must run
	 * too, not only the collector thread (host soak, seed 15: a leader
	 * held by its tracer, the child's parent thread running).
	 */
	w = m_alive_thread(&e->m, T(e, c)->leader);
	return gen_usable(e, c) && T(e, c)->stop == MS_RUNNING && w != M_NONE && alive(e, w) &&
	       !T(e, w)->in_exit && T(e, w)->stop == MS_RUNNING;
}

bool g_reap(struct engine *e, struct gen *g, struct stmt *st)
{
	int i = gen_pick(e, g, collectable), c;
	bool as_tracer;

	if (i < 0)
		return false;
	c = m_next_collector(&e->m, i, &as_tracer);
	gen_names(st, 2, T(e, T(e, c)->leader)->name, T(e, i)->name);
	return true;
}

/*
 * A target of a real debugger session (gen-sessions.c).  It is a
 * process whose every thread runs untraced (v_strace() and v_gdb() refuse
 * a traced one; a second tracer would get EPERM, ptrace_attach()),
 * neither exiting nor stopped: gdb's PTRACE_ATTACH of a zombie leader is
 * EPERM (ptrace_attach(): task->exit_state), and a group stop under a
 * debugger ends where the debugger says.  Not a namespace init: the
 * SIGSTOP gdb's attach sends it comes from an ancestor namespace, and
 * strace's exit stops of a dying init would stand between
 * zap_pid_ns_processes() and the namespace's other tasks.
 */
bool gen_debuggable(struct engine *e, int i)
{
	int k;

	if (!is_proc(e, i) || T(e, i)->ns == i || T(e, i)->in_exit || T(e, i)->group_exit ||
	    m_zapping(&e->m, i) || gen_in_job(e, i))
		return false;
	for (k = 1; k < e->m.n; k++) {
		const struct mtask *t = T(e, k);

		if (t->leader != i || t->life == ML_DEAD)
			continue;
		if (t->life != ML_ALIVE || t->exited || t->tracer != M_NONE ||
		    t->stop != MS_RUNNING || t->in_exit || e->e[k].uncertain)
			return false;
	}
	return true;
}
