// SPDX-License-Identifier: GPL-2.0
/*
 * The model's hand-worked cases for a non-blocking wait with flags
 * (model/wait.c): every expected value worked out from the 6.1.192
 * function cited next to it.
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "model-tests.h"

static int rule;

static int waitid_(int waiter, int task, int flags)
{
	return m_predict_waitid(&m, waiter, task, flags, &rule);
}

/*
 * __do_wait() (kernel/exit.c:1601,1631-1635): ECHILD with no eligible
 * task; a live child clears notask_error (:1473): nothing yet, 0; its
 * zombie is reported (wait_task_zombie()), with WNOWAIT again and again.
 */
TEST(wait_echild_pending_ready)
{
	int p, c;

	setup();
	p = proc(0, "P", 3001);
	EXPECT_EQ(waitid_(p, -1, 0), -ECHILD);
	EXPECT_EQ(rule, R_WAIT_ECHILD);
	c = proc(p, "C", 3002);
	EXPECT_EQ(waitid_(p, -1, 0), 0);
	EXPECT_EQ(waitid_(p, c, 0), 0);
	EXPECT_EQ(waitid_(c, p, 0), -ECHILD);	/* a parent is no child */
	m_group_exit(&m, c, 3, 0);
	EXPECT_EQ(waitid_(p, -1, WNOWAIT), c);
	EXPECT_EQ(waitid_(p, c, 0), c);
	EXPECT_EQ(m_report(&m, p, c), 0);
	EXPECT_EQ(waitid_(p, -1, 0), -ECHILD);
}

/*
 * eligible_child() (kernel/exit.c:1082-1094): a child with exit signal
 * SIGRTMAX is a "clone" child: only __WCLONE or __WALL see it; with no
 * other child a plain wait says ECHILD, naming the filter.
 */
TEST(wait_clone_filter)
{
	int p, d;

	setup();
	p = proc(0, "P", 3001);
	d = proc(p, "D", 3002);
	m_set_exit_signal(&m, d, SIGRTMAX);
	EXPECT_EQ(waitid_(p, -1, 0), -ECHILD);
	EXPECT_EQ(rule, R_WAIT_CLONE);
	EXPECT_EQ(waitid_(p, -1, __WCLONE), 0);
	m_group_exit(&m, d, 4, 0);
	EXPECT_EQ(waitid_(p, d, 0), -ECHILD);
	EXPECT_EQ(waitid_(p, -1, __WCLONE), d);
	EXPECT_EQ(waitid_(p, -1, __WALL), d);
	/* exit signal none is a clone child too */
	m_set_exit_signal(&m, p, 0);
	EXPECT_EQ(waitid_(0, p, 0), -ECHILD);
	EXPECT_EQ(waitid_(0, p, __WCLONE), 0);
}

/*
 * A tracer waits for its tracee whatever the exit signal (eligible_child()
 * with ptrace, :1082); __WNOTHREAD limits the walk to the caller's own
 * ->ptraced and ->children (:1624, is_effectively_child() :1557).
 */
TEST(wait_nothread_and_tracees)
{
	int t, w, q, qt1, e, g;

	setup();
	t = proc(0, "T", 3001);
	w = thread(t, "W", 3002);
	q = proc(0, "Q", 3003);
	qt1 = thread(q, "Q.t1", 3004);
	e = proc(qt1, "E", 3005);
	EXPECT_EQ(waitid_(q, -1, __WNOTHREAD), -ECHILD);
	EXPECT_EQ(rule, R_WAIT_NOTHREAD);
	EXPECT_EQ(waitid_(qt1, -1, __WNOTHREAD), 0);
	EXPECT_EQ(waitid_(q, -1, 0), 0);
	m_group_exit(&m, e, 7, 0);
	EXPECT_EQ(waitid_(q, -1, __WNOTHREAD), -ECHILD);
	EXPECT_EQ(waitid_(q, -1, 0), e);
	g = proc(q, "G", 3006);
	m_set_exit_signal(&m, g, SIGRTMAX);
	seize(t, g, 0);
	EXPECT_EQ(waitid_(w, g, __WNOTHREAD), -ECHILD);
	EXPECT_EQ(waitid_(w, g, 0), 0);
	m_group_exit(&m, g, 8, 0);
	/* the tracer first: the real parent waits behind it, not ECHILD */
	EXPECT_EQ(waitid_(w, g, 0), g);
	EXPECT_EQ(waitid_(q, g, __WCLONE), 0);
	EXPECT_EQ(waitid_(q, g, 0), -ECHILD);
	EXPECT_EQ(m_report(&m, w, g), 0);
	EXPECT_EQ(waitid_(q, g, __WCLONE), g);
}

/*
 * delay_group_leader() (wait_consider_task() :1436,1466): a leader zombie
 * whose thread lives is not reported, and the wait has something to wait
 * for: 0, not ECHILD.  A traced thread's zombie is its tracer's alone.
 */
TEST(wait_delayed_leader)
{
	int p, f, ft1, t;

	setup();
	p = proc(0, "P", 3001);
	f = proc(p, "F", 3002);
	ft1 = thread(f, "F.t1", 3003);
	t = proc(0, "T", 3004);
	seize(t, ft1, 0);
	m_thread_exit(&m, f, 5, 0);
	EXPECT_EQ(m.t[f].life, ML_ZOMBIE);
	EXPECT_EQ(waitid_(p, -1, 0), 0);
	EXPECT_EQ(waitid_(p, f, 0), 0);
	EXPECT_EQ(waitid_(p, ft1, 0), -ECHILD);	/* a thread is no child */
	EXPECT_EQ(waitid_(t, ft1, 0), 0);
	m_thread_exit(&m, ft1, 5, 0);
	EXPECT_EQ(waitid_(t, -1, 0), ft1);
	EXPECT_EQ(waitid_(p, f, 0), 0);		/* behind the traced thread's zombie */
	EXPECT_EQ(m_report(&m, t, ft1), 0);
	EXPECT_EQ(waitid_(p, -1, 0), f);
}

/*
 * pidfd_prepare() (kernel/fork.c:2043-2048): a leader's pid only;
 * thread_group_exited() (kernel/exit.c:1915-1926): gone, or a zombie
 * whose every other thread is released -- a traced thread's zombie
 * keeps the group from being empty until its tracer collects it.
 */
TEST(pidfd_open_and_poll)
{
	int p, pt1, t, rule_;

	setup();
	p = proc(0, "P", 3001);
	pt1 = thread(p, "P.t1", 3002);
	t = proc(0, "T", 3003);
	EXPECT_EQ(m_predict_pidfd_open(&m, pt1).err, EINVAL);
	EXPECT_EQ(m_predict_pidfd_open(&m, p).err, 0);
	EXPECT_FALSE(m_pidfd_readable(&m, p, &rule_));
	EXPECT_EQ(rule_, R_PIDFD_POLL);
	m_thread_exit(&m, p, 0, 0);
	EXPECT_FALSE(m_pidfd_readable(&m, p, &rule_));	/* P.t1 lives */
	seize(t, pt1, 0);
	m_thread_exit(&m, pt1, 3, 0);
	EXPECT_EQ(m.t[pt1].life, ML_ZOMBIE);
	EXPECT_FALSE(m_pidfd_readable(&m, p, &rule_));	/* P.t1's zombie waits */
	EXPECT_EQ(m_report(&m, t, pt1), 0);
	EXPECT_TRUE(m_pidfd_readable(&m, p, &rule_));
	EXPECT_EQ(m_report(&m, 0, p), 0);
	EXPECT_TRUE(m_pidfd_readable(&m, p, &rule_));	/* released */
	EXPECT_TRUE(m_pidfd_readable(&m, M_NONE, &rule_));
}

/*
 * kernel_waitid() (kernel/exit.c:1699-1708, :1718-1723): P_PIDFD is the
 * P_PID wait of the pidfd's pid; a PIDFD_NONBLOCK pidfd makes nothing
 * yet EAGAIN; ECHILD and a report stay what they are.
 */
TEST(waitid_pidfd)
{
	int p, f, ft1;
	struct m_pred r;

	setup();
	p = proc(0, "P", 3001);
	f = proc(p, "F", 3002);
	ft1 = thread(f, "F.t1", 3003);
	r = m_waitid_pidfd(&m, waitid_(p, f, 0), rule);
	EXPECT_EQ(r.err, EAGAIN);
	EXPECT_EQ(r.rule, R_WAITID_PIDFD);
	EXPECT_EQ(m_waitid_pidfd(&m, waitid_(f, p, 0), rule).err, ECHILD);
	EXPECT_EQ(rule, R_WAIT_ECHILD);
	EXPECT_EQ(m_predict_pidfd_open(&m, ft1).err, EINVAL);
	m_thread_exit(&m, f, 5, 0);
	EXPECT_EQ(m_waitid_pidfd(&m, waitid_(p, f, 0), rule).err, EAGAIN);
	m_thread_exit(&m, ft1, 6, 0);
	EXPECT_EQ(waitid_(p, f, 0), f);
	EXPECT_EQ(m_waitid_pidfd(&m, f, rule).err, 0);
	/* the perturbation: a kernel that returns 0 (si_pid 0) instead */
	m.wrong = R_WAITID_PIDFD;
	EXPECT_EQ(m_waitid_pidfd(&m, 0, R_WAIT_ECHILD).err, 0);
}

/*
 * ptrace_attach() (kernel/ptrace.c:481-485,503): a group-stopped task
 * seized moves to a PTRACE_EVENT_STOP trap whose report its tracer must
 * collect; its sibling stays group-stopped; a non-blocking wait by the
 * tracer would return that stop first (MW_RACY: the engine refuses it).
 */
TEST(seize_group_stopped_retraps)
{
	int p, pt1, t;

	setup();
	p = proc(0, "P", 3001);
	pt1 = thread(p, "P.t1", 3002);
	t = proc(0, "T", 3003);
	m_signal(&m, p, SIGSTOP);
	EXPECT_EQ(m.t[pt1].stop, MS_GROUP);
	seize(t, pt1, 0);
	m_seized_stopped(&m, pt1);
	EXPECT_EQ(m.t[pt1].stop, MS_TRACED);
	EXPECT_EQ(m.t[pt1].trap, TRAP_EVENT_STOP);
	EXPECT_TRUE(m.t[pt1].stop_report);
	EXPECT_EQ(m.t[p].stop, MS_GROUP);
	EXPECT_EQ(m_wait_consider(&m, t, pt1, 0, &rule), MW_RACY);
	EXPECT_EQ(m_predict_waitid(&m, t, -1, 0, &rule), -EAGAIN);
	m_stop_collected(&m, pt1);
	EXPECT_EQ(m_predict_waitid(&m, t, -1, 0, &rule), 0);
	EXPECT_FALSE(m_resumed(&m, pt1, false));
	EXPECT_EQ(m.t[pt1].stop, MS_RUNNING);
}

/*
 * ptrace_attach() (kernel/ptrace.c:459-460,481-485): PTRACE_ATTACH of a
 * group-stopped thread: the re-trap and the queued SIGSTOP are the attach
 * op's; the thread then runs inside its stopped group (nothing sets
 * JOBCTL_STOP_PENDING again); let go, it stops again (__ptrace_unlink()).
 */
TEST(attach_group_stopped_runs)
{
	int p, pt1, t;

	setup();
	p = proc(0, "P", 3001);
	pt1 = thread(p, "P.t1", 3002);
	t = proc(0, "T", 3003);
	m_signal(&m, p, SIGSTOP);
	m_trace(&m, t, pt1, 0, false, R_ATTACH_LINK);
	EXPECT_TRUE(m_attached_stopped(&m, pt1));
	EXPECT_EQ(m.t[pt1].stop, MS_RUNNING);
	EXPECT_EQ(m.t[pt1].why_state, R_ATTACH_RETRAPS);
	EXPECT_FALSE(m.t[pt1].stop_report);
	EXPECT_EQ(m.t[p].stop, MS_GROUP);
	EXPECT_TRUE(m.t[p].gstop);
	m_untrace(&m, pt1, R_DETACH_UNLINK);
	EXPECT_EQ(m.t[pt1].stop, MS_GROUP);
	/* perturbed: no re-trap, it would stay T */
	m_signal(&m, p, SIGCONT);
	m_signal(&m, p, SIGSTOP);
	m_trace(&m, t, pt1, 0, false, R_ATTACH_LINK);
	m.wrong = R_ATTACH_RETRAPS;
	EXPECT_FALSE(m_attached_stopped(&m, pt1));
	EXPECT_EQ(m.t[pt1].stop, MS_GROUP);
}

/*
 * prepare_signal() (kernel/signal.c:932-946), ptrace_trap_notify()
 * (:892-898), do_jobctl_trap() (:2522-2533): SIGCONT re-traps a listening
 * or running seized tracee with PTRACE_EVENT_STOP(SIGTRAP) and queues the
 * SIGCONT for its only thread; a tracee in another stop is left alone.
 */
TEST(sigcont_notify_retraps)
{
	int p, q, qt1, t;

	setup();
	p = proc(0, "P", 3001);
	t = proc(0, "T", 3002);
	m_signal(&m, p, SIGSTOP);
	seize(t, p, 0);
	m_seized_stopped(&m, p);
	m_stop_collected(&m, p);
	m_resumed(&m, p, true);			/* PTRACE_LISTEN */
	EXPECT_TRUE(m.t[p].listening);
	m_signal(&m, p, SIGCONT);
	EXPECT_FALSE(m.t[p].gstop);
	EXPECT_EQ(m.t[p].stop, MS_TRACED);
	EXPECT_EQ(m.t[p].trap, TRAP_EVENT_STOP);
	EXPECT_TRUE(m.t[p].stop_report);
	EXPECT_TRUE(m.t[p].notify_trap);
	EXPECT_TRUE(m.t[p].cont_queued);
	EXPECT_FALSE(m.t[p].listening);
	EXPECT_EQ(m.t[p].why_state, R_SIGCONT_NOTIFY);
	m_stop_collected(&m, p);
	EXPECT_FALSE(m.t[p].notify_trap);
	EXPECT_FALSE(m_resumed(&m, p, false));
	m_sigcont_delivered(&m, p);
	EXPECT_FALSE(m.t[p].cont_queued);
	/* running: traps too; let go, the queued SIGCONT goes with it */
	m_signal(&m, p, SIGCONT);
	EXPECT_EQ(m.t[p].stop, MS_TRACED);
	EXPECT_TRUE(m.t[p].cont_queued);
	m_untrace(&m, p, R_DETACH_UNLINK);
	EXPECT_EQ(m.t[p].stop, MS_RUNNING);
	EXPECT_FALSE(m.t[p].cont_queued);
	/* ... but still pending until it runs: the engine waits for that */
	EXPECT_TRUE(m.t[p].cont_untraced);
	m_sigcont_ignored(&m, p);
	EXPECT_FALSE(m.t[p].cont_untraced);
	/* the same through its tracer's exit (exit_ptrace()) */
	seize(t, p, 0);
	m_signal(&m, p, SIGCONT);
	EXPECT_TRUE(m.t[p].cont_queued);
	m_group_exit(&m, t, 0, 0);
	EXPECT_EQ(m.t[p].tracer, M_NONE);
	EXPECT_EQ(m.t[p].stop, MS_RUNNING);
	EXPECT_TRUE(m.t[p].cont_untraced);
	/* a threaded group: the trap, but no thread known to dequeue it */
	q = proc(0, "Q", 3003);
	qt1 = thread(q, "Q.t1", 3004);
	seize(t, qt1, 0);
	m_signal(&m, q, SIGCONT);
	EXPECT_TRUE(m.t[qt1].notify_trap);
	EXPECT_FALSE(m.t[qt1].cont_queued);
	EXPECT_EQ(m.t[q].stop, MS_RUNNING);
}

/*
 * wait_task_stopped()/wait_task_continued() (kernel/exit.c:1265-1378),
 * prepare_signal() (kernel/signal.c:955-972): the stop report once, a
 * SIGCONT voids an untaken one and makes a continue report, a group
 * exit clears both; a traced group's stop is the tracers' (MW_RACY).
 */
TEST(wait_stopped_continued)
{
	int p, c, t;

	setup();
	p = proc(0, "P", 3001);
	c = proc(p, "C", 3002);
	thread(c, "C.t1", 3003);
	EXPECT_EQ(waitid_(p, c, WSTOPPED), 0);
	m_signal(&m, c, SIGSTOP);
	EXPECT_EQ(waitid_(p, c, WSTOPPED), c);
	EXPECT_EQ(rule, R_WAIT_STOPPED);
	EXPECT_EQ(m_wait_kind(&m, p, c, WSTOPPED), MWK_STOP);
	EXPECT_EQ(waitid_(p, c, WCONTINUED), 0);
	m_wait_took(&m, c, MWK_STOP);
	EXPECT_EQ(waitid_(p, c, WSTOPPED), 0);
	m_signal(&m, c, SIGCONT);
	EXPECT_EQ(waitid_(p, c, WCONTINUED), c);
	EXPECT_EQ(m_wait_kind(&m, p, c, WCONTINUED | WSTOPPED), MWK_CONT);
	m_signal(&m, c, SIGSTOP);			/* clears the continue */
	EXPECT_EQ(waitid_(p, c, WCONTINUED), 0);
	m_signal(&m, c, SIGCONT);			/* voids the stop */
	EXPECT_EQ(waitid_(p, c, WSTOPPED), 0);
	m_group_exit(&m, c, 0, SIGKILL);		/* the exit report, only */
	EXPECT_EQ(m_wait_kind(&m, p, c, WCONTINUED), MWK_EXIT);
	EXPECT_EQ(m_report(&m, p, c), 0);
	c = proc(p, "D", 3004);
	t = proc(0, "T", 3005);
	seize(t, c, 0);
	m_signal(&m, c, SIGSTOP);
	EXPECT_EQ(m_wait_consider(&m, p, c, WSTOPPED, &rule), MW_RACY);
}

/*
 * kill_orphaned_pgrp() (kernel/exit.c:331-401): a group whose only
 * connection in its session dies, with a stopped member, is hung up:
 * through exit_notify() (the member's father exits) and through
 * reparent_leader() (the group's outside parent exits).  Without a
 * stopped member nothing happens; setsid()/setpgid() EPERM
 * (kernel/sys.c:1226-1234,1108-1110).
 */
TEST(orphaned_pgrp_hup)
{
	int s, x, y, s2, x2, y2;

	setup();
	s = proc(0, "S", 3001);
	EXPECT_EQ(m_predict_setsid(&m, s).err, 0);
	m_setsid(&m, s);
	EXPECT_EQ(m_predict_setsid(&m, s).err, EPERM);
	EXPECT_EQ(m_predict_setpgid(&m, s).err, EPERM);
	x = proc(s, "X", 3002);
	EXPECT_EQ(m.t[x].session, s);
	EXPECT_EQ(m_predict_setpgid(&m, x).err, 0);
	m_setpgid(&m, x);
	EXPECT_EQ(m_predict_setsid(&m, x).err, EPERM);
	y = proc(x, "Y", 3003);
	EXPECT_EQ(m.t[y].pgrp, x);
	m_signal(&m, y, SIGSTOP);
	m_group_exit(&m, x, 0, 0);
	EXPECT_EQ(m.t[y].life, ML_ZOMBIE);
	EXPECT_EQ(status(y), KILLED(SIGHUP));
	s2 = proc(0, "S2", 3004);
	m_setsid(&m, s2);
	x2 = proc(s2, "X2", 3005);
	m_setpgid(&m, x2);
	y2 = proc(x2, "Y2", 3006);
	m_group_exit(&m, s2, 0, 0);		/* nothing stopped: nothing happens */
	EXPECT_EQ(m.t[x2].life, ML_ALIVE);
	EXPECT_EQ(m.t[y2].stop, MS_RUNNING);
	/*
	 * The group was orphaned when S2 died; X2's exit orphans nothing new:
	 * its parent R is in another session, Y2 shares X2's group.
	 */
	m_signal(&m, y2, SIGSTOP);
	m_group_exit(&m, x2, 0, 0);
	EXPECT_EQ(m.t[y2].stop, MS_GROUP);
	EXPECT_EQ(m_ppid(&m, y2), R_TID);
}

/*
 * SIGNAL_GROUP_EXIT replaces the signal_struct's flags (complete_signal()
 * for SIGKILL, do_group_exit(), synchronize_group_exit() for the last
 * thread, kernel/exit.c:805-810): a group stop and a due continue report
 * end with the group, so has_stopped_jobs() no longer counts it.
 */
TEST(group_exit_ends_stop_flags)
{
	int x, xt1, y, yt1;

	setup();
	x = proc(0, "X", 3201);
	xt1 = thread(x, "X.t1", 3202);
	m_signal(&m, x, SIGSTOP);
	EXPECT_TRUE(m.t[x].gstop);
	m_group_exit(&m, x, 0, SIGKILL);
	EXPECT_FALSE(m.t[x].gstop);
	EXPECT_FALSE(m.t[x].cont_report);
	EXPECT_EQ(m.t[x].gstop_code, 0);
	EXPECT_EQ(m.t[xt1].life, ML_DEAD);	/* a thread reaps itself */
	EXPECT_EQ(m.t[x].life, ML_ZOMBIE);
	y = proc(0, "Y", 3203);
	yt1 = thread(y, "Y.t1", 3204);
	m_signal(&m, y, SIGSTOP);
	m_signal(&m, y, SIGCONT);
	EXPECT_TRUE(m.t[y].cont_report);
	m_thread_exit(&m, yt1, 0, 0);
	EXPECT_TRUE(m.t[y].cont_report);	/* a thread's exit alone keeps it */
	m_thread_exit(&m, y, 0, 0);
	EXPECT_FALSE(m.t[y].cont_report);	/* the last thread's takes it */
}

/*
 * A member asleep in zap_pid_ns_processes() (its namespace's init, held
 * by a setns child of P outside) still has exit_state 0, so
 * will_become_orphaned_pgrp() (kernel/exit.c:337-339) counts its real
 * parent S (group S, same session) as the group's connection: X's exit
 * orphans nothing, the stopped Y is not hung up.  The language cannot
 * build this (setsid/setpgid are refused inside a pid namespace and for a
 * process with children); the kernel can, with setpgid(Z, X) from S.
 */
TEST(orphaned_pgrp_zapper_is_a_member)
{
	int s, x, y, z, p, c;

	setup();
	s = proc(0, "S", 3101);
	m_setsid(&m, s);
	x = proc(s, "X", 3102);
	m_setpgid(&m, x);
	y = proc(x, "Y", 3103);
	z = m_fork(&m, s, "Z", 3104, 1, false, true);
	m.t[z].pgrp = x;		/* setpgid(Z, X) by its parent S */
	p = proc(0, "P", 3105);
	c = proc(p, "C", 3106);
	m_fork_into(&m, c, z);
	m_group_exit(&m, z, 0, SIGKILL);
	EXPECT_STREQ(m_state_letters(&m, z), "RSID");	/* the zapper sleeps */
	m_signal(&m, y, SIGSTOP);
	m_group_exit(&m, x, 0, 0);
	EXPECT_EQ(m.t[y].life, ML_ALIVE);
	EXPECT_EQ(m.t[y].stop, MS_GROUP);
	/*
	 * Once P reaps C, Z's exit_notify() runs: its father S is outside
	 * the group and nobody else connects it (Y's parent is R now, another
	 * session), so the stopped Y gets SIGHUP and SIGCONT and dies.
	 */
	EXPECT_EQ(m_report(&m, p, c), 0);
	EXPECT_STREQ(m_state_letters(&m, z), "Z");
	EXPECT_EQ(m.t[y].life, ML_ZOMBIE);
	EXPECT_EQ(status(y), KILLED(SIGHUP));
}

/*
 * vfork: the child exec'd a fresh agent before its parent went on
 * (begin_new_exec(): ->self_exec_id + 1, flush_signal_handlers() drops
 * SA_NOCLDWAIT), and the parent thread's wait is D (wait_for_vfork_done()
 * kernel/fork.c:1458-1476).
 */
TEST(vfork_child_execd)
{
	int p, c;

	setup();
	p = proc(0, "P", 3001);
	m_set_sigchld(&m, p, false, true);
	c = proc(p, "C", 3002);
	EXPECT_TRUE(m.t[c].sigchld_nocldwait);
	m_exec_done(&m, c);
	EXPECT_EQ(m.t[c].self_exec_id, m.t[p].self_exec_id + 1);
	EXPECT_FALSE(m.t[c].sigchld_nocldwait);
	EXPECT_EQ(m.t[c].exit_signal, SIGCHLD);
	EXPECT_TRUE(m_vfork_parent_waits(&m));
}

/*
 * m_links_freeze(): a check's one walk counts every task's ->ptraced and
 * ->children as m_links() walks for each (engine/observe.c's check),
 * here over tracers with several tracees, a thread tracer, a process with
 * children, a released child and a zombie, a reparented orphan.
 */
TEST(links_frozen_counts)
{
	struct m_links a, b;
	int p, c1, c2, c3, t, tt1, k, i;

	setup();
	p = proc(0, "P", 3101);
	c1 = proc(p, "C1", 3102);
	c2 = proc(p, "C2", 3103);
	c3 = proc(c1, "C3", 3104);
	t = proc(0, "T", 3105);
	tt1 = thread(t, "T.t1", 3106);
	seize(t, c1, 0);
	seize(t, c2, 0);
	seize(tt1, c3, 0);
	m_group_exit(&m, c2, 3, 0);		/* a traced zombie */
	m_group_exit(&m, c1, 0, 0);		/* C3 reparented, C1 a zombie */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < m.n; i++) {
			m_links(&m, i, &a);
			EXPECT_EQ(m_links_freeze(&m), 0);
			m_links(&m, i, &b);
			m_links_thaw(&m);
			EXPECT_EQ(a.ptraced, b.ptraced);
			EXPECT_EQ(a.children, b.children);
			EXPECT_EQ(memcmp(&a, &b, sizeof(a)), 0);
		}
		/* released ones leave the lists: the counts follow */
		if (!k)
			EXPECT_EQ(m_report(&m, t, c2), 0);
	}
	m_links_freeze(&m);
	m_links(&m, t, &b);
	m_links_thaw(&m);
	EXPECT_EQ(b.ptraced, 1);	/* C1's zombie, still traced: C2 was reaped */
	m_links(&m, p, &b);
	EXPECT_EQ(b.children, 2);	/* C1 and C2 (C2 goes back to P's list, detached) */
}
