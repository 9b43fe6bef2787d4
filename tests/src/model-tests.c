// SPDX-License-Identifier: GPL-2.0
/*
 * The model's hand-worked cases (ptstress/model/): real parents, tracers,
 * /proc states, exit reports, SIGCHLD notices and request outcomes by the
 * rules of Linux 6.1.192.
 *
 * Every expected value is worked out from the kernel function cited next
 * to it, and written as a literal: a PPid or TracerPid as a tid, a State
 * as its /proc letters, a report as exited(N)/killed(SIG), who collects it
 * as a task.  Only what the engine reads from the model is checked
 * (m_ppid, m_tracer_pid, m_state_letters, m_report_status, the collector,
 * m_report, the predictions, the notices), never a field the model sets by
 * construction.  The last tests are negative controls: perturbed rules
 * (--wrong-model) must change those answers.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "model-tests.h"

struct model m;

void setup(void)
{
	model_free(&m);
	model_init(&m, R_TID);
}

int proc(int parent, const char *name, pid_t tid)
{
	return m_fork(&m, parent, name, tid, tid, false, false);
}

static int subreaper(int parent, const char *name, pid_t tid)
{
	return m_fork(&m, parent, name, tid, tid, true, false);
}

int thread(int creator, const char *name, pid_t tid)
{
	return m_thread(&m, creator, name, tid, tid);
}

void seize(int tracer, int task, unsigned long opts)
{
	m_trace(&m, tracer, task, opts, true, R_ATTACH_LINK);
}

int collector(int task, bool *tr)
{
	int c = m_next_collector(&m, task, tr);

	return c == M_NONE ? -9 : c;
}

int status(int task)
{
	int code, sig;

	m_report_status(&m, task, &code, &sig);
	return sig ? sig : code << 8;
}


/* ---- real parents: forget_original_parent() / find_new_reaper() ---- */

/*
 * find_new_reaper() (kernel/exit.c:631-633): a child of a thread that
 * exits alone goes to the first live thread of its group (PPid stays the
 * group's tgid); with the whole group gone, to the subreaper R.
 */
TEST(reaper_sibling_thread_then_subreaper)
{
	int p, w, c;
	bool tr;

	setup();
	p = proc(0, "P", 1001);
	w = thread(p, "P.w", 1002);
	c = proc(w, "C", 1003);
	EXPECT_EQ(m_ppid(&m, c), 1001);
	m_thread_exit(&m, w, 0, 0);
	/* exit_notify() :754-755: an untraced sub-thread is released at once. */
	EXPECT_STREQ(m_state_letters(&m, w), "");
	EXPECT_EQ(m_ppid(&m, c), 1001);
	m_group_exit(&m, p, 3, 0);
	EXPECT_EQ(m_ppid(&m, c), R_TID);
	EXPECT_STREQ(m_state_letters(&m, c), "RSD");
	EXPECT_STREQ(m_state_letters(&m, p), "Z");
	EXPECT_EQ(status(p), EXITED(3));
	EXPECT_EQ(collector(p, &tr), 0);
	EXPECT_FALSE(tr);
	EXPECT_EQ(m_report(&m, 0, p), 0);
	EXPECT_STREQ(m_state_letters(&m, p), "");
	EXPECT_EQ(m_report(&m, 0, p), -1);
}

/* find_new_reaper() :635-656: the nearest subreaper ancestor with a live thread. */
TEST(reaper_nested_subreapers)
{
	int s1, s2, a, b;
	bool tr;

	setup();
	s1 = subreaper(0, "S1", 1101);
	s2 = subreaper(s1, "S2", 1102);
	a = proc(s2, "A", 1103);
	b = proc(a, "B", 1104);
	m_group_exit(&m, a, 0, 0);
	EXPECT_EQ(m_ppid(&m, b), 1102);
	EXPECT_EQ(collector(a, &tr), s2);
	m_group_exit(&m, s2, 0, 0);
	EXPECT_EQ(m_ppid(&m, b), 1101);
	/* reparent_leader(): the unreaped zombie A moves with the others, to S1. */
	EXPECT_EQ(m_ppid(&m, a), 1101);
	EXPECT_EQ(collector(a, &tr), s1);
	m_set_subreaper(&m, s1, false);
	m_group_exit(&m, s1, 0, 0);
	EXPECT_EQ(m_ppid(&m, b), R_TID);
	EXPECT_EQ(collector(a, &tr), 0);
	EXPECT_EQ(collector(s1, &tr), 0);
}

/* A subreaper whose every thread is PF_EXITING is passed over (find_alive_thread()). */
TEST(reaper_skips_exiting_subreaper)
{
	int s, a, b;

	setup();
	s = subreaper(0, "S", 1301);
	thread(s, "S.t1", 1302);
	a = proc(s, "A", 1303);
	b = proc(a, "B", 1304);
	seize(s, a, PTRACE_O_EXITKILL);
	EXPECT_EQ(m_tracer_pid(&m, a), 1301);
	/* S's exit_ptrace() SIGKILLs A (EXITKILL) while both of S's threads exit. */
	m_group_exit(&m, s, 0, 0);
	EXPECT_EQ(m_ppid(&m, b), R_TID);
	EXPECT_STREQ(m_state_letters(&m, a), "Z");
	EXPECT_EQ(status(a), KILLED(SIGKILL));
	EXPECT_EQ(m_tracer_pid(&m, a), 0);
	EXPECT_EQ(m_ppid(&m, a), R_TID);
}

/* ... and one whose leader exited but a thread lives is not. */
TEST(reaper_subreaper_live_thread)
{
	int s, a, b;

	setup();
	s = subreaper(0, "S", 1351);
	thread(s, "S.t1", 1352);
	a = proc(s, "A", 1353);
	b = proc(a, "B", 1354);
	m_thread_exit(&m, s, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, s), "Z");
	m_group_exit(&m, a, 0, 0);
	EXPECT_EQ(m_ppid(&m, b), 1351);
}

/* ---- pid namespaces ---- */

/*
 * find_new_reaper() never leaves the namespace (:646); the init's exit
 * zaps it (zap_pid_ns_processes() pid_namespace.c:199-208) and sleeps
 * (R/S/I, :245-267) until every other pid is freed: Y's tracer T outside
 * holds Y's pid until it collects Y.
 */
TEST(pidns_zap_waits_for_outside_tracer)
{
	int n, x, y, t;
	bool tr;

	setup();
	n = m_fork(&m, 0, "N", 1401, 1, false, true);
	x = m_fork(&m, n, "X", 1402, 2, false, false);
	y = m_fork(&m, x, "Y", 1403, 3, false, false);
	t = proc(0, "T", 1404);
	seize(t, y, 0);
	m_group_exit(&m, x, 0, 0);
	EXPECT_EQ(m_ppid(&m, y), 1401);
	m_group_exit(&m, n, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, x), "");
	EXPECT_STREQ(m_state_letters(&m, y), "Z");
	EXPECT_EQ(status(y), KILLED(SIGKILL));
	EXPECT_EQ(collector(y, &tr), t);
	EXPECT_TRUE(tr);
	EXPECT_STREQ(m_state_letters(&m, n), "RSID");
	EXPECT_EQ(collector(n, &tr), -9);
	EXPECT_EQ(m_report(&m, t, y), 0);
	/* The zapper ignores SIGCHLD: Y is released, not owed to N. */
	EXPECT_STREQ(m_state_letters(&m, y), "");
	EXPECT_STREQ(m_state_letters(&m, n), "Z");
	EXPECT_EQ(collector(n, &tr), 0);
	EXPECT_EQ(m_report(&m, 0, n), 0);
}

/* B2: zap kills every pid, live threads of a group whose leader is a zombie included. */
TEST(pidns_zap_kills_threads_of_zombie_leader)
{
	int n, a, at1;

	setup();
	n = m_fork(&m, 0, "N", 1451, 1, false, true);
	a = m_fork(&m, n, "A", 1452, 2, false, false);
	at1 = thread(a, "A.t1", 1453);
	m_thread_exit(&m, a, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, a), "Z");
	EXPECT_STREQ(m_state_letters(&m, at1), "RSD");
	m_group_exit(&m, n, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, at1), "");
	EXPECT_STREQ(m_state_letters(&m, a), "");
	EXPECT_STREQ(m_state_letters(&m, n), "Z");
}

/* B3: SIGTERM (SIG_DFL) to a namespace init is dropped (sig_task_ignored() signal.c:89-91). */
TEST(pidns_init_ignores_sigterm)
{
	int n;

	setup();
	n = m_fork(&m, 0, "N", 1461, 1, false, true);
	m_signal(&m, n, SIGTERM);
	EXPECT_STREQ(m_state_letters(&m, n), "RSD");
	m_signal(&m, n, SIGKILL);
	EXPECT_STREQ(m_state_letters(&m, n), "Z");
	EXPECT_EQ(status(n), KILLED(SIGKILL));
}

/* B5: the zapper waits for its own group's traced zombie thread too. */
TEST(pidns_zapper_waits_for_own_traced_thread)
{
	int n, nt1, t;
	bool tr;

	setup();
	n = m_fork(&m, 0, "N", 1471, 1, false, true);
	nt1 = thread(n, "N.t1", 1472);
	t = proc(0, "T", 1473);
	seize(t, nt1, 0);
	m_thread_exit(&m, nt1, 3, 0);
	EXPECT_STREQ(m_state_letters(&m, nt1), "Z");
	m_group_exit(&m, n, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, n), "RSID");
	EXPECT_EQ(collector(nt1, &tr), t);
	EXPECT_EQ(m_report(&m, t, nt1), 0);
	EXPECT_STREQ(m_state_letters(&m, n), "Z");
}

/*
 * B9: after a non-leader's exec the namespace's child_reaper is the
 * execing thread (find_child_reaper() :597-603): its exit zaps.
 */
TEST(pidns_exec_keeps_child_reaper)
{
	int n, nt1, a, t;

	setup();
	n = m_fork(&m, 0, "N", 1481, 1, false, true);
	nt1 = thread(n, "N.t1", 1482);
	a = m_fork(&m, n, "A", 1483, 2, false, false);
	t = proc(0, "T", 1484);
	seize(t, a, 0);
	m_exec(&m, nt1);
	m_exec_done(&m, nt1);
	EXPECT_EQ(m_ppid(&m, a), 1481);
	m_group_exit(&m, nt1, 0, 0);
	/* A is killed by the zap; N.t1 (now pid 1481) sleeps until T collects A. */
	EXPECT_STREQ(m_state_letters(&m, a), "Z");
	EXPECT_STREQ(m_state_letters(&m, nt1), "RSID");
	EXPECT_EQ(m_report(&m, t, a), 0);
	EXPECT_STREQ(m_state_letters(&m, nt1), "Z");
}

/* B10: a traced non-leader zapper is a zombie for its tracer only after the drain. */
TEST(pidns_traced_thread_zapper_reports_after_drain)
{
	int n, nt1, a, t, u;
	bool tr;

	setup();
	n = m_fork(&m, 0, "N", 1491, 1, false, true);
	nt1 = thread(n, "N.t1", 1492);
	a = m_fork(&m, n, "A", 1493, 2, false, false);
	t = proc(0, "T", 1494);
	u = proc(0, "U", 1495);
	seize(t, nt1, 0);
	seize(u, a, 0);
	m_thread_exit(&m, n, 0, 0);
	m_thread_exit(&m, nt1, 0, 0);
	EXPECT_STREQ(m_state_letters(&m, nt1), "RSID");
	EXPECT_EQ(collector(nt1, &tr), -9);
	EXPECT_EQ(m_report(&m, u, a), 0);
	EXPECT_STREQ(m_state_letters(&m, nt1), "Z");
	EXPECT_EQ(collector(nt1, &tr), t);
	EXPECT_TRUE(tr);
}

/* ---- exit_ptrace(): a tracer's exit ---- */

TEST(tracer_exit_untraces)
{
	int t, c;
	bool tr;

	setup();
	t = proc(0, "T", 1501);
	c = proc(0, "C", 1502);
	seize(t, c, 0);
	EXPECT_EQ(m_tracer_pid(&m, c), 1501);
	m_group_exit(&m, t, 0, 0);
	EXPECT_EQ(m_tracer_pid(&m, c), 0);
	EXPECT_STREQ(m_state_letters(&m, c), "RSD");
	EXPECT_EQ(collector(t, &tr), 0);
}

TEST(tracer_exit_exitkill)
{
	int p, t, c, ct1;
	bool tr;

	setup();
	p = proc(0, "P", 1601);
	c = proc(p, "C", 1602);
	ct1 = thread(c, "C.t1", 1603);
	t = proc(0, "T", 1604);
	seize(t, c, PTRACE_O_EXITKILL);
	m_group_exit(&m, t, 0, 0);
	EXPECT_EQ(m_tracer_pid(&m, c), 0);
	EXPECT_STREQ(m_state_letters(&m, c), "Z");
	EXPECT_STREQ(m_state_letters(&m, ct1), "");
	EXPECT_EQ(status(c), KILLED(SIGKILL));
	EXPECT_EQ(collector(c, &tr), p);
	EXPECT_EQ(m_report(&m, t, c), -1);
	EXPECT_EQ(m_report(&m, p, c), 0);
	EXPECT_EQ(m_report(&m, p, c), -1);
}

/* __ptrace_detach() (ptrace.c:578-588): a zombie leader goes to its real parent, a thread goes. */
TEST(tracer_exit_zombie_tracees)
{
	int p, t, c, d, dt1;
	bool tr;

	setup();
	p = proc(0, "P", 1701);
	c = proc(p, "C", 1702);
	d = proc(0, "D", 1703);
	dt1 = thread(d, "D.t1", 1704);
	t = proc(0, "T", 1705);
	seize(t, c, 0);
	seize(t, dt1, 0);
	m_group_exit(&m, c, 7, 0);
	m_thread_exit(&m, dt1, 5, 0);
	EXPECT_EQ(collector(c, &tr), t);
	EXPECT_TRUE(tr);
	EXPECT_FALSE(m_owed_to(&m, p, c));
	EXPECT_STREQ(m_state_letters(&m, dt1), "Z");
	m_group_exit(&m, t, 0, 0);
	EXPECT_EQ(m_tracer_pid(&m, c), 0);
	EXPECT_EQ(collector(c, &tr), p);
	EXPECT_EQ(status(c), EXITED(7));
	EXPECT_STREQ(m_state_letters(&m, dt1), "");
	EXPECT_STREQ(m_state_letters(&m, d), "RSD");
}

/* ---- exit reports ---- */

/* ptrace_reparented(): the tracer first (EXIT_TRACE, exit.c:1129-1131), then the parent. */
TEST(report_tracer_then_parent)
{
	int p, t, c;
	bool tr;

	setup();
	p = proc(0, "P", 1901);
	c = proc(p, "C", 1902);
	t = proc(0, "T", 1903);
	seize(t, c, 0);
	m_group_exit(&m, c, 9, 0);
	EXPECT_EQ(collector(c, &tr), t);
	EXPECT_TRUE(tr);
	EXPECT_EQ(m_report(&m, p, c), -1);
	EXPECT_EQ(m_report(&m, t, c), 0);
	EXPECT_STREQ(m_state_letters(&m, c), "Z");
	EXPECT_EQ(m_tracer_pid(&m, c), 0);
	EXPECT_EQ(collector(c, &tr), p);
	EXPECT_EQ(m_report(&m, t, c), -1);
	EXPECT_EQ(m_report(&m, p, c), 0);
	EXPECT_EQ(m_report(&m, p, c), -1);
}

/* 0347e1773909: a tracer in the real parent's group gets the one report (:1417-1430). */
TEST(report_tracer_in_parent_group_once)
{
	int p, pt1, c, pass;
	bool tr;

	for (pass = 0; pass < 2; pass++) {
		setup();
		TH_NOTE("collected by %s", pass ? "P" : "P.t1");
		p = proc(0, "P", 2001);
		pt1 = thread(p, "P.t1", 2002);
		c = proc(p, "C", 2003);
		seize(pt1, c, 0);
		m_group_exit(&m, c, 1, 0);
		EXPECT_EQ(collector(c, &tr), p);
		EXPECT_FALSE(tr);
		EXPECT_EQ(m_report(&m, pass ? p : pt1, c), 0);
		EXPECT_STREQ(m_state_letters(&m, c), "");
		EXPECT_EQ(m_report(&m, p, c), -1);
		EXPECT_EQ(m_report(&m, pt1, c), -1);
	}
}

/* delay_group_leader() (:1436): a zombie leader waits for its threads. */
TEST(report_delayed_leader_traced_thread)
{
	int c, ct1, t;
	bool tr;

	setup();
	c = proc(0, "C", 2251);
	ct1 = thread(c, "C.t1", 2252);
	t = proc(0, "T", 2253);
	seize(t, ct1, 0);
	m_group_exit(&m, c, 8, 0);
	EXPECT_STREQ(m_state_letters(&m, ct1), "Z");
	EXPECT_EQ(collector(c, &tr), -9);
	EXPECT_EQ(m_report(&m, 0, ct1), -1);
	EXPECT_EQ(m_report(&m, t, ct1), 0);
	EXPECT_EQ(collector(c, &tr), 0);
	EXPECT_EQ(status(c), EXITED(8));
}

/*
 * B1: synchronize_group_exit() (exit.c:798-812): the last thread to enter
 * do_exit() sets the group exit code: wait says exited(6), while the
 * SIGCHLD do_notify_parent() sends carries the leader's own 4 (signal.c
 * :2095-2103, from release_task() :266-281).
 */
TEST(report_last_thread_sets_group_code)
{
	int p, pt1, k;
	bool found = false;

	setup();
	p = proc(0, "P", 2271);
	pt1 = thread(p, "P.t1", 2272);
	m_thread_exit(&m, p, 4, 0);
	m_thread_exit(&m, pt1, 6, 0);
	EXPECT_EQ(status(p), EXITED(6));
	for (k = 0; k < m.nnotices; k++) {
		if (m.notices[k].from != p)
			continue;
		found = true;
		EXPECT_EQ(m.notices[k].to_lead, 0);
		EXPECT_EQ(m.notices[k].code, CLD_EXITED);
		EXPECT_EQ(m.notices[k].status, 4);
	}
	EXPECT_TRUE(found);
}

/* A thread reaped after the last thread's exit reports the group code too (:1199). */
TEST(report_traced_thread_after_group_code)
{
	int p, pt1, t;

	setup();
	p = proc(0, "P", 2281);
	pt1 = thread(p, "P.t1", 2282);
	t = proc(0, "T", 2283);
	seize(t, pt1, 0);
	m_thread_exit(&m, pt1, 5, 0);
	EXPECT_EQ(status(pt1), EXITED(5));
	m_thread_exit(&m, p, 7, 0);
	EXPECT_EQ(status(pt1), EXITED(7));
}

/* ---- exit stops: PTRACE_EVENT_EXIT (B6, B7) ---- */

/*
 * get_signal() drops SIGKILL before do_exit() (signal.c:2720-2725): every
 * TRACEEXIT tracee stops.
 */
TEST(exit_stop_on_sigkill)
{
	int c, ct1, t;

	setup();
	c = proc(0, "C", 2301);
	ct1 = thread(c, "C.t1", 2302);
	t = proc(0, "T", 2303);
	seize(t, c, PTRACE_O_TRACEEXIT);
	seize(t, ct1, PTRACE_O_TRACEEXIT);
	m_signal(&m, c, SIGKILL);
	EXPECT_STREQ(m_state_letters(&m, c), "t");
	EXPECT_STREQ(m_state_letters(&m, ct1), "t");
	EXPECT_EQ(m_next_exit_stop(&m, 0), c);
	m_exit_stop_passed(&m, c);
	m_exit_stop_passed(&m, ct1);
	EXPECT_EQ(m_next_exit_stop(&m, 0), M_NONE);
	EXPECT_STREQ(m_state_letters(&m, ct1), "Z");
	EXPECT_EQ(status(ct1), KILLED(SIGKILL));
}

/* A thread held in PTRACE_EVENT_EXIT is not PF_EXITING yet (exit.c:829 before :834): a reaper. */
TEST(exit_stop_holder_is_reaper)
{
	int p, pt1, c, t;

	setup();
	p = proc(0, "P", 2311);
	pt1 = thread(p, "P.t1", 2312);
	c = proc(p, "C", 2313);
	t = proc(0, "T", 2314);
	seize(t, pt1, PTRACE_O_TRACEEXIT);
	m_group_exit(&m, p, 0, 0);
	EXPECT_EQ(m_ppid(&m, c), 2311);
	m_exit_stop_passed(&m, pt1);
	EXPECT_EQ(m_ppid(&m, c), R_TID);
}

/* B6: de_thread()'s other threads stop in PTRACE_EVENT_EXIT too, and exit with 0. */
TEST(exec_stops_traceexit_leader)
{
	int p, pt1, t;
	bool tr;

	setup();
	p = proc(0, "P", 2321);
	pt1 = thread(p, "P.t1", 2322);
	t = proc(0, "T", 2323);
	seize(t, p, PTRACE_O_TRACEEXIT);
	m_exec(&m, pt1);
	EXPECT_EQ(m_next_exit_stop(&m, 0), p);
	m_exit_stop_passed(&m, p);
	m_exec_done(&m, pt1);
	EXPECT_STREQ(m_state_letters(&m, p), "");
	EXPECT_EQ(collector(p, &tr), -9);
	EXPECT_STREQ(m_state_letters(&m, pt1), "RSD");
	EXPECT_EQ(m_ppid(&m, pt1), R_TID);
}

/* ---- de_thread() ---- */

/*
 * The kernel log names a task by pid, perhaps one released since
 * (check_kernel()): the live task with that pid, else the last released
 * one that had it.
 */
TEST(find_tid_any_released_and_reused)
{
	int p, q;

	setup();
	p = proc(0, "P", 2501);
	EXPECT_EQ(m_find_tid_any(&m, 2501), p);
	m_group_exit(&m, p, 0, 0);
	EXPECT_EQ(m_report(&m, 0, p), 0);
	EXPECT_STREQ(m_state_letters(&m, p), "");
	EXPECT_EQ(m_find_tid(&m, 2501), M_NONE);
	EXPECT_EQ(m_find_tid_any(&m, 2501), p);
	q = proc(0, "Q", 2501);	/* the pid reused */
	EXPECT_EQ(m_find_tid_any(&m, 2501), q);
	EXPECT_EQ(m_find_tid_any(&m, 2599), M_NONE);
}

TEST(exec_non_leader)
{
	int p, pt1, pt2, pt3, t1, t2, c;
	bool tr;

	setup();
	p = proc(0, "P", 2401);
	pt1 = thread(p, "P.t1", 2402);
	pt2 = thread(p, "P.t2", 2403);
	pt3 = thread(p, "P.t3", 2404);
	c = proc(p, "C", 2405);
	t1 = proc(0, "T1", 2406);
	t2 = proc(0, "T2", 2407);
	seize(t1, pt2, 0);
	seize(t2, p, 0);
	m_exec(&m, pt1);
	/* The traced P.t2 exited(0); de_thread() waits for T1's wait (fs/exec.c:1069). */
	EXPECT_STREQ(m_state_letters(&m, pt2), "Z");
	EXPECT_EQ(status(pt2), EXITED(0));
	EXPECT_EQ(collector(pt2, &tr), t1);
	EXPECT_EQ(m_report(&m, t1, pt2), 0);
	m_exec_done(&m, pt1);
	/* exchange_tids(): the execing thread has the old pid and P's parent. */
	EXPECT_EQ(m_find_tid(&m, 2401), pt1);
	EXPECT_EQ(m_ppid(&m, pt1), R_TID);
	EXPECT_STREQ(m_state_letters(&m, p), "");
	EXPECT_EQ(m_report(&m, t2, p), -1);
	EXPECT_STREQ(m_state_letters(&m, pt3), "");
	/* The old leader's child hangs on the execing thread. */
	EXPECT_EQ(m_ppid(&m, c), 2401);
}

/* ---- requests ---- */

TEST(predict_attach)
{
	int a, b, bt1, t;

	setup();
	a = proc(0, "A", 2501);
	b = proc(0, "B", 2502);
	bt1 = thread(b, "B.t1", 2503);
	t = proc(0, "T", 2504);
	EXPECT_EQ(m_predict_attach(&m, t, a).err, 0);
	/* ptrace_attach(): own group (:429), traced (:451), exit_state (:449). */
	EXPECT_EQ(m_predict_attach(&m, bt1, b).err, EPERM);
	seize(t, a, 0);
	EXPECT_EQ(m_predict_attach(&m, b, a).err, EPERM);
	m_thread_exit(&m, b, 0, 0);
	EXPECT_EQ(m_predict_attach(&m, t, b).err, EPERM);
	m_thread_exit(&m, bt1, 0, 0);
	EXPECT_EQ(m_report(&m, 0, b), 0);
	EXPECT_EQ(m_predict_attach(&m, t, b).err, ESRCH);
}

/* B8, B11: LISTEN needs a seized tracee in PTRACE_EVENT_STOP; KILL/INTERRUPT take zombies. */
TEST(predict_requests)
{
	int a, b, bt1, t;

	setup();
	a = proc(0, "A", 2601);
	b = proc(0, "B", 2602);
	bt1 = thread(b, "B.t1", 2603);
	t = proc(0, "T", 2604);
	m_trace(&m, t, a, 0, false, R_ATTACH_LINK);
	EXPECT_EQ(m_predict_request(&m, t, a, MR_CONT).err, ESRCH);
	m_trapped(&m, a, TRAP_SIGNAL);
	EXPECT_EQ(m_predict_request(&m, t, a, MR_CONT).err, 0);
	EXPECT_EQ(m_predict_request(&m, t, a, MR_LISTEN).err, EIO);
	EXPECT_TRUE(m_delivers_signal(&m, a));
	seize(t, bt1, 0);
	m_trapped(&m, bt1, TRAP_EVENT_STOP);
	EXPECT_FALSE(m_delivers_signal(&m, bt1));
	EXPECT_EQ(m_predict_request(&m, t, bt1, MR_LISTEN).err, 0);
	m_resumed(&m, bt1, true);
	EXPECT_STREQ(m_state_letters(&m, bt1), "t");
	EXPECT_EQ(m_predict_request(&m, t, bt1, MR_CONT).err, ESRCH);
	m_resumed(&m, bt1, false);
	m_thread_exit(&m, bt1, 0, 0);
	EXPECT_EQ(m_predict_request(&m, t, bt1, MR_KILL).err, 0);
	EXPECT_EQ(m_predict_request(&m, t, bt1, MR_INTERRUPT).err, 0);
	EXPECT_EQ(m_predict_request(&m, t, bt1, MR_CONT).err, ESRCH);
	EXPECT_EQ(m_predict_request(&m, a, bt1, MR_KILL).err, ESRCH);
}

/* B4: SIGSTOP stops untraced threads (T) and traps traced ones (t). */
TEST(group_stop_traps_tracees)
{
	int b, bt1, u;

	setup();
	b = proc(0, "B", 2701);
	bt1 = thread(b, "B.t1", 2702);
	u = proc(0, "U", 2703);
	seize(u, bt1, 0);
	m_signal(&m, b, SIGSTOP);
	EXPECT_STREQ(m_state_letters(&m, b), "T");
	EXPECT_STREQ(m_state_letters(&m, bt1), "t");
	/* __ptrace_unlink() with the group stop in effect (ptrace.c:145-168): T, not running. */
	m_untrace(&m, bt1, R_DETACH_UNLINK);
	EXPECT_STREQ(m_state_letters(&m, bt1), "T");
	m_signal(&m, b, SIGCONT);
	EXPECT_STREQ(m_state_letters(&m, b), "RSD");
	EXPECT_STREQ(m_state_letters(&m, bt1), "RSD");
}

/* ---- SIGCHLD notices ---- */

/* reparent_leader() (:674-679): an untraced zombie moving to another group notifies it. */
TEST(notice_reparented_zombie)
{
	int p, c, k, n = 0;

	setup();
	p = proc(0, "P", 2801);
	c = proc(p, "C", 2802);
	m_group_exit(&m, c, 9, 0);
	m_group_exit(&m, p, 0, 0);
	for (k = 0; k < m.nnotices; k++)
		if (m.notices[k].from == c && m.notices[k].to_lead == 0)
			n++;
	EXPECT_EQ(n, 1);
	EXPECT_EQ(m_ppid(&m, c), R_TID);
}

/* ---- negative controls: perturbed rules change the answers ---- */

TEST(negative_controls)
{
	int p, c, t, r;
	bool tr;

	for (r = 0; r < 4; r++) {
		setup();
		m.wrong = r == 0 ? R_REAPER_SUBREAPER : r == 1 ? R_REPORT_TRACER_FIRST :
			  r == 2 ? R_LAST_THREAD_CODE : R_REPARENT_EXIT_SIGNAL;
		TH_NOTE("perturbed %s", m_rule_id(m.wrong));
		p = proc(0, "P", 2901);
		c = proc(p, "C", 2902);
		t = proc(0, "T", 2903);
		if (r == 0) {
			m_group_exit(&m, p, 0, 0);
			EXPECT_EQ(m_ppid(&m, c), 1);	/* the correct model says R */
		} else if (r == 1) {
			seize(t, c, 0);
			m_group_exit(&m, c, 0, 0);
			EXPECT_EQ(collector(c, &tr), p);	/* the correct model says T */
		} else if (r == 3) {
			struct m_links w;

			m_set_exit_signal(&m, c, SIGRTMAX);
			m_group_exit(&m, p, 0, 0);
			m_links(&m, c, &w);
			EXPECT_EQ(w.exit_signal, SIGRTMAX);	/* the correct model says SIGCHLD */
		} else {
			int ct1 = thread(c, "C.t1", 2904);

			m_thread_exit(&m, c, 4, 0);
			m_thread_exit(&m, ct1, 6, 0);
			EXPECT_EQ(status(c), EXITED(4));	/* the correct model says 6 */
		}
	}
	m.wrong = R_NONE;
	EXPECT_EQ(m_rule_find("reaper-subreaper"), R_REAPER_SUBREAPER);
	EXPECT_EQ(m_rule_find("no-such-rule"), R_NONE);
}

/*
 * is_effectively_child() (kernel/exit.c:1551-1563): without __WNOTHREAD a
 * sibling of the tracer thread collects the tracee's report too, and any
 * thread of the real parent's group collects a child's.
 */
TEST(wait_from_sibling_thread)
{
	int t, tt1, p, c;

	setup();
	t = proc(0, "T", 3501);
	tt1 = thread(t, "T.t1", 3502);
	p = proc(0, "P", 3503);
	c = proc(p, "C", 3504);
	seize(t, c, 0);
	m_group_exit(&m, c, 3, 0);
	EXPECT_TRUE(m_owed_to(&m, tt1, c));
	EXPECT_EQ(m_report(&m, tt1, c), 0);
	EXPECT_TRUE(m_owed_to(&m, p, c));	/* then its real parent */
	setup();
	m.wrong = R_WAIT_ANY_THREAD;
	t = proc(0, "T", 3501);
	tt1 = thread(t, "T.t1", 3502);
	c = proc(0, "C", 3504);
	seize(t, c, 0);
	m_group_exit(&m, c, 3, 0);
	EXPECT_FALSE(m_owed_to(&m, tt1, c));	/* perturbed: the tracer thread only */
	m.wrong = R_NONE;
}

/*
 * After a non-leader's exec its former tid still names it: a SIGCHLD its
 * tracer dequeues later carries that si_pid (fuzz host soak, seed 12: "a
 * SIGCHLD from a pid which is neither its child nor its tracee").  The
 * released old leader keeps its own tid, which the execer now has.
 */
TEST(exec_keeps_execer_former_tid)
{
	int t, p, pt1, cand[8], n;

	setup();
	t = proc(0, "T", 3601);
	p = proc(0, "P", 3602);
	pt1 = thread(p, "P.t1", 3603);
	seize(t, pt1, 0);
	m_untrace(&m, pt1, R_DETACH_UNLINK);
	m_exec(&m, pt1);
	m_exec_done(&m, pt1);
	EXPECT_EQ(m.t[pt1].tid, 3602);
	n = m_pids_seen_by(&m, 3603, t, cand, 8);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(cand[0], pt1);
	EXPECT_TRUE(m_was_notifier(&m, pt1, t));
	n = m_pids_seen_by(&m, 3602, t, cand, 8);
	EXPECT_EQ(n, 2);	/* the execer now, the released old leader before */
}

/*
 * A non-leader's exec takes over the group's signal_struct and its pid's
 * process group and session (de_thread(): transfer_pid() of PIDTYPE_PGID
 * and PIDTYPE_SID, fs/exec.c:1136-1137): the process still leads its
 * group (setsid() is EPERM), a group it leads is still found orphaned
 * when its session leader dies, and a WCONTINUED report due before the
 * exec stays due (fuzz host soak, seed 1: "setsid: expected success,
 * observed EPERM" after `setpgid P`, `exec P.t1`, `setsid P`).
 */
TEST(exec_keeps_group_and_session)
{
	int s, x, xt1, p, pt1;

	setup();
	s = proc(0, "S", 3701);
	m_setsid(&m, s);
	x = proc(s, "X", 3702);
	xt1 = thread(x, "X.t1", 3703);
	m_setpgid(&m, x);
	m_exec(&m, xt1);
	m_exec_done(&m, xt1);
	EXPECT_EQ(m.t[xt1].pgrp, xt1);
	EXPECT_EQ(m.t[xt1].session, s);
	EXPECT_EQ(m_predict_setsid(&m, xt1).err, EPERM);
	m_signal(&m, xt1, SIGSTOP);
	m_group_exit(&m, s, 0, 0);
	EXPECT_EQ(m.t[xt1].life, ML_ZOMBIE);
	EXPECT_EQ(status(xt1), KILLED(SIGHUP));
	p = proc(0, "P", 3704);
	pt1 = thread(p, "P.t1", 3705);
	m_signal(&m, p, SIGSTOP);
	m_signal(&m, p, SIGCONT);
	m_exec(&m, pt1);
	m_exec_done(&m, pt1);
	EXPECT_TRUE(m.t[pt1].cont_report);
}

TEST_MAIN()
