// SPDX-License-Identifier: GPL-2.0
/*
 * The model's hand-worked cases for exit signals and the parent-death
 * signal (model-tests.c has the rest): every expected value worked out from
 * the 6.1.192 function cited next to it.
 */
#include <signal.h>
#include <sys/ptrace.h>

#include "model-tests.h"

/* The notices of @from to process @lead: how many. */
static int notices(int from, int lead)
{
	int k, n = 0;

	for (k = 0; k < m.nnotices; k++)
		if (m.notices[k].from == from && m.notices[k].to_lead == lead)
			n++;
	return n;
}

/*
 * reparent_leader() (kernel/exit.c:671), called only across groups
 * (:718-719): exit_signal becomes SIGCHLD for an orphan adopted by R, not
 * for one adopted by a sibling thread; exit_notify() (:751-753) notifies
 * with the exit_signal, and only SIGCHLD is a notice.
 */
TEST(exit_signal_reset_across_groups_only)
{
	struct m_links w;
	int a, at1, b, c;

	setup();
	a = proc(0, "A", 3001);
	at1 = thread(a, "A.t1", 3002);
	b = proc(a, "B", 3003);
	c = proc(a, "C", 3004);
	m_set_exit_signal(&m, b, SIGRTMAX);
	m_set_exit_signal(&m, c, SIGRTMAX);
	m_thread_exit(&m, a, 0, 0);
	m_links(&m, b, &w);
	EXPECT_EQ(w.exit_signal, SIGRTMAX);	/* adopted by A.t1 as it is */
	m_group_exit(&m, c, 1, 0);
	EXPECT_EQ(notices(c, a), 0);		/* SIGRTMAX to A: no SIGCHLD */
	m_thread_exit(&m, at1, 0, 0);
	m_links(&m, b, &w);
	EXPECT_EQ(w.exit_signal, SIGCHLD);	/* adopted by R */
	EXPECT_EQ(m_ppid(&m, b), R_TID);
	m_group_exit(&m, b, 3, 0);
	EXPECT_EQ(notices(b, 0), 1);
}

/*
 * de_thread() (fs/exec.c:1145,1169) resets the execing process's
 * exit_signal; do_notify_parent() (kernel/signal.c:2062-2068) sends
 * SIGCHLD once the parent exec'd (self_exec_id, fs/exec.c:1403).
 */
TEST(exit_signal_exec_resets)
{
	struct m_links w;
	int a, b, bt1, d;

	setup();
	a = proc(0, "A", 3101);
	b = proc(a, "B", 3102);
	m_set_exit_signal(&m, b, SIGRTMAX);
	bt1 = thread(b, "B.t1", 3103);
	m_exec(&m, bt1);
	m_exec_done(&m, bt1);
	m_links(&m, bt1, &w);
	EXPECT_EQ(w.exit_signal, SIGCHLD);
	d = proc(a, "D", 3104);
	m_set_exit_signal(&m, d, SIGRTMAX);
	m_exec(&m, a);
	m_exec_done(&m, a);
	m_links(&m, d, &w);
	EXPECT_EQ(w.exit_signal, SIGRTMAX);	/* exit_signal itself stays */
	m_group_exit(&m, d, 7, 0);
	EXPECT_EQ(notices(d, a), 1);		/* but the notice is SIGCHLD */
	EXPECT_EQ(m_fork_trace_opt(&m, SIGRTMAX), (unsigned long)PTRACE_O_TRACECLONE);
	EXPECT_EQ(m_fork_trace_opt(&m, SIGCHLD), (unsigned long)PTRACE_O_TRACEFORK);
}

/*
 * forget_original_parent() (kernel/exit.c:708-716): the exit of the
 * parent *thread* sends each orphaned thread's pdeath_signal to its
 * process, a sibling reaper or not; copy_process() (kernel/fork.c:2449)
 * starts every task without one.
 */
TEST(pdeath_signal_per_thread)
{
	int a, at1, b, c, ct1, g;

	setup();
	a = proc(0, "A", 3201);
	at1 = thread(a, "A.t1", 3202);
	b = proc(at1, "B", 3203);
	m_set_pdeath_signal(&m, b, SIGKILL);
	c = proc(a, "C", 3204);
	ct1 = thread(c, "C.t1", 3205);
	m_set_pdeath_signal(&m, ct1, SIGKILL);
	g = proc(c, "G", 3206);
	m_thread_exit(&m, at1, 0, 0);		/* A adopts B, and B dies */
	EXPECT_EQ(m_ppid(&m, b), 3201);
	EXPECT_EQ(status(b), KILLED(SIGKILL));
	EXPECT_STREQ(m_state_letters(&m, c), "RSD");
	m_group_exit(&m, a, 0, 0);		/* C.t1's setting kills C */
	EXPECT_EQ(status(c), KILLED(SIGKILL));
	EXPECT_STREQ(m_state_letters(&m, g), "RSD");	/* G inherited nothing */
	EXPECT_EQ(m_ppid(&m, g), R_TID);
}

/*
 * do_notify_parent() (kernel/signal.c:2107-2133): an untraced child of a
 * group that ignores SIGCHLD reaps itself; a traced one only after its
 * tracer's wait (wait_task_zombie(), kernel/exit.c:1210); SA_NOCLDWAIT
 * still sends SIGCHLD, SIG_IGN does not; fork copies the disposition
 * (copy_sighand()), execve() drops SA_NOCLDWAIT (flush_signal_handlers()).
 */
TEST(sigchld_ignored_autoreaps)
{
	bool tr;
	int a, b, g, t, d, e;

	setup();
	a = proc(0, "A", 3301);
	t = proc(0, "T", 3302);
	m_set_sigchld(&m, a, true, false);
	b = proc(a, "B", 3303);
	m_group_exit(&m, b, 3, 0);
	EXPECT_STREQ(m_state_letters(&m, b), "");	/* gone */
	EXPECT_EQ(notices(b, a), 0);
	g = proc(a, "G", 3304);
	seize(t, g, 0);
	m_group_exit(&m, g, 7, 0);
	EXPECT_STREQ(m_state_letters(&m, g), "Z");
	EXPECT_EQ(collector(g, &tr), t);
	EXPECT_EQ(m_report(&m, t, g), 0);
	EXPECT_STREQ(m_state_letters(&m, g), "");	/* then it reaps itself */
	m_set_sigchld(&m, a, false, true);
	d = proc(a, "D", 3305);
	e = proc(d, "E", 3306);			/* D inherited SA_NOCLDWAIT */
	m_group_exit(&m, e, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, e), "");
	EXPECT_EQ(notices(e, d), 1);		/* SIGCHLD still sent */
	m_exec(&m, d);
	m_exec_done(&m, d);
	e = proc(d, "E2", 3307);
	m_group_exit(&m, e, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, e), "Z");	/* execve() dropped it */
}

/*
 * copy_process() (kernel/fork.c:2499-2506): a CLONE_PARENT child is its
 * caller's sibling and takes the exit_signal of the caller's group leader.
 */
TEST(clone_parent_sibling_and_leader_exit_signal)
{
	struct m_links w;
	int x, a, at1, b;

	setup();
	x = proc(0, "X", 3401);
	a = proc(x, "A", 3402);
	m_set_exit_signal(&m, a, SIGRTMAX);
	at1 = thread(a, "A.t1", 3403);
	b = m_clone_parent(&m, at1, "B", 3404, 3404, false);
	EXPECT_EQ(m_ppid(&m, b), 3401);
	m_links(&m, b, &w);
	EXPECT_EQ(w.exit_signal, SIGRTMAX);
	EXPECT_EQ(w.real_parent, 3401);
	m_group_exit(&m, b, 0, 0);
	EXPECT_EQ(notices(b, x), 0);		/* X is sent SIGRTMAX */
}

/* m_clone_parent() when the task array must grow: the caller's values survive the realloc. */
TEST(clone_parent_when_the_model_grows)
{
	struct m_links w;
	int x, a, b, k;

	setup();
	x = proc(0, "X", 3601);
	a = proc(x, "A", 3602);
	m_set_exit_signal(&m, a, SIGRTMAX);
	for (k = 0; m.n < m.cap; k++)
		thread(x, "X.t", 3700 + k);
	b = m_clone_parent(&m, a, "B", 3603, 3603, false);
	EXPECT_EQ(m_ppid(&m, b), 3601);
	m_links(&m, b, &w);
	EXPECT_EQ(w.exit_signal, SIGRTMAX);
}

/*
 * exit_ptrace() sends the EXITKILL SIGKILL under tasklist_lock
 * (kernel/ptrace.c:627-629), but the tracee's exit_notify() waits for
 * that lock: the dying tracer's forget_original_parent() has moved it to
 * R by then, so its report is R's, though the tracer ignored SIGCHLD.
 */
TEST(exitkill_after_reparent)
{
	int e, f;

	setup();
	e = proc(0, "E", 3001);
	f = proc(e, "F", 3002);
	m_set_sigchld(&m, e, true, false);
	seize(e, f, PTRACE_O_EXITKILL);
	m_group_exit(&m, e, 0, 0);
	EXPECT_EQ(m.t[f].life, ML_ZOMBIE);
	EXPECT_EQ(m_ppid(&m, f), R_TID);
	EXPECT_EQ(status(f), KILLED(SIGKILL));
	EXPECT_EQ(notices(f, 0), 1);
}

/*
 * A group that ignores SIGCHLD dies with a tracer thread (A.t1) whose
 * zombie tracee's real parent is another thread (A, the subreaper that
 * adopted it, find_new_reaper()): whether __ptrace_detach() releases it
 * (kernel/ptrace.c:567-589) depends on the order of the two threads'
 * exit_notify(), so the model calls it unpredictable (k 0), also when
 * both stop in PTRACE_EVENT_EXIT first (k 4: let go one after the other).
 * Not when the tracer is the real parent itself (k 1: its exit_ptrace()
 * comes before its forget_original_parent()), nor when the group does
 * not ignore SIGCHLD (k 2), nor when only one of them stops there (k 3:
 * not PF_EXITING, it keeps the zombie in the group either way).
 */
TEST(ignoring_group_exit_detach_race)
{
	for (int k = 0; k < 5; k++) {
		int a, at1, b, z, t;

		setup();
		a = proc(0, "A", 3801);
		at1 = thread(a, "A.t1", 3802);
		t = proc(0, "T", 3805);
		if (k >= 3)
			seize(t, at1, PTRACE_O_TRACEEXIT);
		if (k == 4)
			seize(t, a, PTRACE_O_TRACEEXIT);
		m_set_subreaper(&m, a, true);
		b = proc(at1, "B", 3803);
		z = proc(k == 1 ? at1 : b, "Z", 3804);
		seize(at1, z, 0);
		m_group_exit(&m, b, 0, 0);
		EXPECT_EQ(m.t[z].real_parent, k == 1 ? at1 : a);
		m_set_sigchld(&m, a, false, k != 2);
		m_group_exit(&m, z, 0, 0);
		EXPECT_EQ(m.t[z].life, ML_ZOMBIE);
		EXPECT_EQ(m.unpredictable == NULL, true);
		m_group_exit(&m, a, 0, SIGKILL);
		EXPECT_EQ(m.unpredictable != NULL, k == 0 || k == 4);
		if (k == 3) {
			/* A's exit left Z with A.t1; A.t1's exit_ptrace() releases it */
			EXPECT_EQ(m.t[z].real_parent, at1);
			m_exit_stop_passed(&m, at1);
			EXPECT_EQ(m.t[z].life, ML_DEAD);
		}
	}
}

/*
 * exit_ptrace() -> __ptrace_detach() wakes a tracee without
 * ptrace_disable() (kernel/ptrace.c:567-589, 623-634): one left in its
 * PTRACE_SINGLESTEP trap runs untraced with TF set and dies of the next
 * trap's SIGTRAP, its whole group (k 0; k 5 a non-leader thread).  Not
 * after a cont (k 1) or a syscall (k 2), which clear the step
 * (ptrace_resume(), :870-880), nor after a detach (k 3, ptrace_detach()
 * :598); an EXITKILL tracee dies of the SIGKILL sent first (k 4); with an
 * EXITKILL sibling tracee of the same tracer which signal wins is a race
 * (k 6), and so it is when that sibling's tracer is another thread of the
 * tracer's group exiting with it (k 7: their exit_ptrace()s run in the
 * scheduler's order).  That thread exiting alone races with nothing: its
 * SIGKILL ends the group, the stepping tracee still traced (k 8).
 */
TEST(tracer_exit_keeps_singlestep)
{
	for (int k = 0; k < 9; k++) {
		int t, t1 = -1, a, a1, x;

		setup();
		t = proc(0, "T", 3901);
		a = proc(0, "A", 3902);
		a1 = thread(a, "A.t1", 3903);
		if (k >= 7)
			t1 = thread(t, "T.t1", 3904);
		x = k == 5 ? a1 : a;
		seize(t, x, k == 4 ? PTRACE_O_EXITKILL : 0);
		if (k == 6)
			seize(t, a1, PTRACE_O_EXITKILL);
		if (k >= 7)
			seize(t1, a1, PTRACE_O_EXITKILL);
		m_trapped(&m, x, TRAP_EVENT_STOP);
		m_stepped(&m, x, true);
		EXPECT_EQ(m.t[x].stop, MS_TRACED);
		if (k == 1)
			m_resumed(&m, x, false);
		if (k == 2)
			m_stepped(&m, x, false);
		if (k == 3)
			m_untrace(&m, x, R_DETACH_UNLINK);
		if (k == 8) {
			m_thread_exit(&m, t1, 0, 0);
			EXPECT_EQ(m.unpredictable == NULL, true);
			EXPECT_EQ(m.t[a].tracer, t);
			EXPECT_EQ(m.t[a].group_exit, true);
			EXPECT_EQ(m.step_kills, 0);
			continue;
		}
		m_group_exit(&m, t, 0, SIGKILL);
		EXPECT_EQ(m.unpredictable != NULL, k == 6 || k == 7);
		if (k == 6 || k == 7)
			continue;
		EXPECT_EQ(m.t[x].tracer, M_NONE);
		EXPECT_EQ(m.t[a].life, k == 0 || k == 4 || k == 5 ? ML_ZOMBIE : ML_ALIVE);
		EXPECT_EQ(m.step_kills, k == 0 || k == 5 ? 1 : 0);
		if (k == 0 || k == 5) {
			EXPECT_EQ(status(a), KILLED(SIGTRAP));
			EXPECT_EQ(m.t[a].why_state, R_STEP_TRACER_EXIT);
		} else if (k == 4) {
			EXPECT_EQ(status(a), KILLED(SIGKILL));
		} else {
			EXPECT_EQ(m.t[x].stop, MS_RUNNING);
			EXPECT_EQ(m.t[x].stepping, false);
		}
	}
}
