// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the model (model.c): hand-worked cases of Linux 6.1's rules
 * for real parents, tracers and exit reports.  TAP 13; exit 1 if any test
 * fails.
 *
 * Every expected value below was worked out by hand from the kernel
 * functions named in the test, not read back from the model: PPid as a
 * literal tid, TracerPid as a literal tid, the life of a task, the thread
 * that must collect the next exit report (and whether as tracer), and
 * what m_report() returns for each wait.  A few negative controls prove
 * that a wrong expectation is detected.
 *
 * usage: model-tests                 the suite; known model bugs are SKIPped
 *        model-tests --known-bugs    only the known-bug cases (they fail
 *                                    until model.c is fixed)
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>

#include "model/model.h"
#include "lib/ptstress.h"

#define R_TID	100	/* R, index 0 */

/* A check that also counts its mismatches (the negative controls need it). */
struct mc {
	struct check c;
	struct model *m;
	int bad;		/* comparisons that did not match */
};

static void mc_init(struct mc *mc, struct model *m)
{
	check_init(&mc->c);
	mc->m = m;
	mc->bad = 0;
}

static int mc_eq(struct mc *mc, long want, long got, const char *fmt, ...) PS_PRINTF(4, 5);

static int mc_eq(struct mc *mc, long want, long got, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	check_eq(&mc->c, what, want, got);
	if (want != got) {
		mc->bad++;
		return 1;
	}
	return 0;
}

static const char *nm(const struct mc *mc, int task)
{
	return m_name(mc->m, task);
}

/* @task's PPid is the tgid of @want (an index, M_NONE for none), which is @pid. */
static int ex_ppid(struct mc *mc, int task, int want, pid_t pid)
{
	return mc_eq(mc, want, m_ppid_task(mc->m, task), "%s: m_ppid_task", nm(mc, task)) +
	       mc_eq(mc, pid, m_ppid(mc->m, task), "%s: m_ppid", nm(mc, task));
}

static int ex_tracer(struct mc *mc, int task, pid_t pid)
{
	return mc_eq(mc, pid, m_tracer_pid(mc->m, task), "%s: m_tracer_pid", nm(mc, task));
}

static int ex_life(struct mc *mc, int task, enum m_life life)
{
	return mc_eq(mc, life, mc->m->t[task].life, "%s: life (0 alive, 1 zombie, 2 dead)",
		     nm(mc, task));
}

/* The next report of @task is due to thread @want (M_NONE: none), as tracer or not. */
static int ex_collector(struct mc *mc, int task, int want, bool as_tracer)
{
	bool at = !as_tracer;
	int c = m_next_collector(mc->m, task, &at);
	int bad = mc_eq(mc, want, c, "%s: m_next_collector", nm(mc, task));

	if (want != M_NONE)
		bad += mc_eq(mc, as_tracer, at, "%s: as_tracer", nm(mc, task));
	return bad;
}

static int ex_owed(struct mc *mc, int waiter, int task, bool want)
{
	return mc_eq(mc, want, m_owed_to(mc->m, waiter, task), "m_owed_to(%s, %s)",
		     nm(mc, waiter), nm(mc, task));
}

/* @waiter's wait() reports @task: m_report() must return @want (0 owed, -1 not). */
static int ex_report(struct mc *mc, int waiter, int task, int want)
{
	return mc_eq(mc, want, m_report(mc->m, waiter, task), "m_report(%s, %s)",
		     nm(mc, waiter), nm(mc, task));
}

static int ex_status(struct mc *mc, int task, int code, int sig)
{
	return mc_eq(mc, code, mc->m->t[task].exit_code, "%s: exit_code", nm(mc, task)) +
	       mc_eq(mc, sig, mc->m->t[task].exit_sig, "%s: exit_sig", nm(mc, task));
}

static int fork_(struct model *m, int parent, const char *name, pid_t tid)
{
	return m_fork(m, parent, name, tid, tid, false, false);
}

static int subreaper_(struct model *m, int parent, const char *name, pid_t tid)
{
	return m_fork(m, parent, name, tid, tid, true, false);
}

static int thread_(struct model *m, int creator, const char *name, pid_t tid)
{
	return m_thread(m, creator, name, tid, tid);
}

static void seize(struct model *m, int tracer, int task, unsigned long opts)
{
	m_trace(m, tracer, task, opts, true);
}

/* ---- real parents: forget_original_parent() / find_new_reaper() ---- */

/*
 * find_new_reaper(): find_alive_thread(father) first, so a child of a
 * thread that exits alone goes to a sibling thread (PPid unchanged: the
 * group's tgid); when the whole group is gone, to R (a child subreaper).
 */
static void test_thread_reaper(void)
{
	struct model m;
	struct mc c;
	int p, w, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 1001);
	w = thread_(&m, p, "P.w", 1002);
	ch = fork_(&m, w, "C", 1003);
	ex_ppid(&c, ch, p, 1001);
	mc_eq(&c, w, m.t[ch].real_parent, "C: real_parent is the thread W");
	m_thread_exit(&m, w, 0, 0);
	/* exit_notify(): an untraced sub-thread autoreaps. */
	ex_life(&c, w, ML_DEAD);
	ex_collector(&c, w, M_NONE, false);
	ex_ppid(&c, ch, p, 1001);
	mc_eq(&c, p, m.t[ch].real_parent, "C: real_parent is the leader M after W exits");
	ex_life(&c, p, ML_ALIVE);
	m_group_exit(&m, p, 3, 0);
	ex_ppid(&c, ch, 0, R_TID);
	ex_life(&c, ch, ML_ALIVE);
	ex_life(&c, p, ML_ZOMBIE);
	ex_status(&c, p, 3, 0);
	ex_collector(&c, p, 0, false);
	ex_report(&c, 0, p, 0);
	ex_life(&c, p, ML_DEAD);
	ex_report(&c, 0, p, -1);
	check_done(&c.c, "reaper: W exits alone -> C to M's group (PPid P); P exits -> C to R");
	model_free(&m);
}

/* The walk of find_new_reaper() stops at the nearest ->is_child_subreaper with a live thread. */
static void test_nested_subreapers(void)
{
	struct model m;
	struct mc c;
	int s1, s2, a, b;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	s1 = subreaper_(&m, 0, "S1", 1101);
	s2 = subreaper_(&m, s1, "S2", 1102);
	a = fork_(&m, s2, "A", 1103);
	b = fork_(&m, a, "B", 1104);
	m_group_exit(&m, a, 0, 0);
	ex_ppid(&c, b, s2, 1102);
	ex_collector(&c, a, s2, false);
	m_group_exit(&m, s2, 0, 0);
	ex_ppid(&c, b, s1, 1101);
	/* reparent_leader(): the unreaped zombie A moves with them, owed to S1. */
	ex_ppid(&c, a, s1, 1101);
	ex_collector(&c, a, s1, false);
	ex_collector(&c, s2, s1, false);
	m_set_subreaper(&m, s1, false);
	m_group_exit(&m, s1, 0, 0);
	ex_ppid(&c, b, 0, R_TID);
	ex_collector(&c, a, 0, false);
	ex_collector(&c, s2, 0, false);
	ex_collector(&c, s1, 0, false);
	ex_life(&c, b, ML_ALIVE);
	check_done(&c.c, "subreapers: A exits -> B to S2; S2 exits -> B to S1; S1 exits -> B to R");
	model_free(&m);
}

/* A subreaper that turned PR_SET_CHILD_SUBREAPER off is passed over by the walk. */
static void test_subreaper_off(void)
{
	struct model m;
	struct mc c;
	int s1, s2, a, b, d;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	s1 = subreaper_(&m, 0, "S1", 1201);
	s2 = subreaper_(&m, s1, "S2", 1202);
	a = fork_(&m, s2, "A", 1203);
	b = fork_(&m, a, "B", 1204);
	d = fork_(&m, b, "D", 1205);
	m_set_subreaper(&m, s2, false);
	m_group_exit(&m, a, 0, 0);
	/* S2 is alive but no longer a subreaper: the walk continues to S1. */
	ex_ppid(&c, b, s1, 1201);
	ex_life(&c, s2, ML_ALIVE);
	m_set_subreaper(&m, s1, false);
	m_group_exit(&m, b, 0, 0);
	ex_ppid(&c, d, 0, R_TID);
	ex_collector(&c, b, s1, false);
	check_done(&c.c, "subreapers: S2 off -> B skips S2 to S1; S1 off -> D skips S1 to R");
	model_free(&m);
}

/*
 * find_alive_thread() skips PF_EXITING threads: a subreaper whose threads
 * are all exiting is passed over.  S's exit_ptrace() SIGKILLs its EXITKILL
 * tracee A (S's child) while both of S's threads are exiting: A's child B
 * must go past S to R.
 */
static void test_subreaper_exiting(void)
{
	struct model m;
	struct mc c;
	int s, st1, a, b;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	s = subreaper_(&m, 0, "S", 1301);
	st1 = thread_(&m, s, "S.t1", 1302);
	a = fork_(&m, s, "A", 1303);
	b = fork_(&m, a, "B", 1304);
	seize(&m, s, a, PTRACE_O_EXITKILL);
	ex_tracer(&c, a, 1301);
	m_group_exit(&m, s, 0, 0);
	ex_ppid(&c, b, 0, R_TID);
	ex_life(&c, st1, ML_DEAD);
	ex_life(&c, a, ML_ZOMBIE);
	ex_status(&c, a, 0, SIGKILL);
	ex_tracer(&c, a, 0);
	ex_ppid(&c, a, 0, R_TID);
	ex_collector(&c, a, 0, false);
	check_done(&c.c, "subreapers: S with every thread exiting is skipped -> B to R");
	model_free(&m);
}

/* ... and one with a live thread is not, even when its leader is gone. */
static void test_subreaper_live_thread(void)
{
	struct model m;
	struct mc c;
	int s, st1, a, b;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	s = subreaper_(&m, 0, "S", 1351);
	st1 = thread_(&m, s, "S.t1", 1352);
	a = fork_(&m, s, "A", 1353);
	b = fork_(&m, a, "B", 1354);
	m_thread_exit(&m, s, 0, 0);
	ex_life(&c, s, ML_ZOMBIE);
	/* S's own child A goes to S.t1 (same group: PPid unchanged). */
	ex_ppid(&c, a, s, 1351);
	mc_eq(&c, st1, m.t[a].real_parent, "A: real_parent is S.t1");
	m_group_exit(&m, a, 0, 0);
	ex_ppid(&c, b, s, 1351);
	mc_eq(&c, st1, m.t[b].real_parent, "B: real_parent is S.t1");
	check_done(&c.c, "subreapers: S whose leader exited but S.t1 lives -> B to S.t1");
	model_free(&m);
}

/* ---- pid namespaces: the walk stops at the namespace, zap_pid_ns_processes() ---- */

static void test_pidns(void)
{
	struct model m;
	struct mc c;
	int n, x, y, t;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	n = m_fork(&m, 0, "N", 1401, 1, false, true);
	x = m_fork(&m, n, "X", 1402, 2, false, false);
	y = m_fork(&m, x, "Y", 1403, 3, false, false);
	t = fork_(&m, 0, "T", 1404);
	seize(&m, t, y, 0);
	m_group_exit(&m, x, 0, 0);
	/* find_new_reaper() does not leave the namespace for R, a subreaper. */
	ex_ppid(&c, y, n, 1401);
	ex_collector(&c, x, n, false);
	m_group_exit(&m, n, 0, 0);
	/* zap_pid_ns_processes(): SIGKILL to all, init reaps (SIGCHLD ignored). */
	ex_life(&c, x, ML_DEAD);
	ex_life(&c, y, ML_ZOMBIE);
	ex_status(&c, y, 0, SIGKILL);
	ex_collector(&c, y, t, true);
	ex_owed(&c, n, y, false);
	mc_eq(&c, 1, m_zapping(&m, n), "N: m_zapping before T collects Y");
	ex_collector(&c, n, M_NONE, false);
	ex_report(&c, 0, n, -1);
	ex_report(&c, t, y, 0);
	/* wait_task_zombie(): EXIT_TRACE, then the parent (N) ignores SIGCHLD: released. */
	ex_life(&c, y, ML_DEAD);
	ex_collector(&c, y, M_NONE, false);
	ex_report(&c, n, y, -1);
	mc_eq(&c, 0, m_zapping(&m, n), "N: m_zapping after T collects Y");
	ex_collector(&c, n, 0, false);
	ex_report(&c, 0, n, 0);
	ex_life(&c, n, ML_DEAD);
	ex_report(&c, 0, n, -1);
	check_done(&c.c, "pidns: Y to N, not R; N exits: zap, T keeps Y's report, then N to R");
	model_free(&m);
}

/* ---- exit_ptrace(): a tracer's exit ---- */

static void test_tracer_exit_plain(void)
{
	struct model m;
	struct mc c;
	int t, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	t = fork_(&m, 0, "T", 1501);
	ch = fork_(&m, 0, "C", 1502);
	seize(&m, t, ch, 0);
	ex_tracer(&c, ch, 1501);
	m_group_exit(&m, t, 0, 0);
	ex_tracer(&c, ch, 0);
	ex_life(&c, ch, ML_ALIVE);
	ex_ppid(&c, ch, 0, R_TID);
	ex_collector(&c, ch, M_NONE, false);
	ex_collector(&c, t, 0, false);
	check_done(&c.c, "exit_ptrace: no EXITKILL -> the tracee is untraced and lives");
	model_free(&m);
}

static void test_tracer_exit_exitkill(void)
{
	struct model m;
	struct mc c;
	int p, t, ch, ct1;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 1601);
	ch = fork_(&m, p, "C", 1602);
	ct1 = thread_(&m, ch, "C.t1", 1603);
	t = fork_(&m, 0, "T", 1604);
	seize(&m, t, ch, PTRACE_O_EXITKILL);
	m_group_exit(&m, t, 0, 0);
	ex_tracer(&c, ch, 0);
	ex_life(&c, ch, ML_ZOMBIE);
	ex_life(&c, ct1, ML_DEAD);
	ex_status(&c, ch, 0, SIGKILL);
	ex_collector(&c, ch, p, false);
	ex_report(&c, t, ch, -1);
	ex_report(&c, p, ch, 0);
	ex_life(&c, ch, ML_DEAD);
	ex_report(&c, p, ch, -1);
	mc_eq(&c, 1, m.t[ch].reports, "C: reports");
	check_done(&c.c, "exit_ptrace: EXITKILL -> C's group killed(SIGKILL), reported to P once");
	model_free(&m);
}

/* __ptrace_detach(): a zombie leader goes back to its real parent (do_notify_parent()). */
static void test_tracer_exit_zombie_leader(void)
{
	struct model m;
	struct mc c;
	int p, t, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 1701);
	ch = fork_(&m, p, "C", 1702);
	t = fork_(&m, 0, "T", 1703);
	seize(&m, t, ch, 0);
	m_group_exit(&m, ch, 7, 0);
	ex_collector(&c, ch, t, true);
	ex_owed(&c, p, ch, false);
	m_group_exit(&m, t, 0, 0);
	ex_tracer(&c, ch, 0);
	ex_life(&c, ch, ML_ZOMBIE);
	ex_status(&c, ch, 7, 0);
	ex_collector(&c, ch, p, false);
	ex_report(&c, t, ch, -1);
	ex_report(&c, p, ch, 0);
	ex_report(&c, p, ch, -1);
	mc_eq(&c, 1, m.t[ch].reports, "C: reports");
	check_done(&c.c, "exit_ptrace: zombie leader C -> its report moves to P, once");
	model_free(&m);
}

/* __ptrace_detach(): a zombie sub-thread is released (dead = !thread_group_leader(p)). */
static void test_tracer_exit_zombie_thread(void)
{
	struct model m;
	struct mc c;
	int ch, ct1, t;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	ch = fork_(&m, 0, "C", 1801);
	ct1 = thread_(&m, ch, "C.t1", 1802);
	t = fork_(&m, 0, "T", 1803);
	seize(&m, t, ct1, 0);
	ex_tracer(&c, ct1, 1803);
	ex_tracer(&c, ch, 0);
	m_thread_exit(&m, ct1, 5, 0);
	ex_life(&c, ct1, ML_ZOMBIE);
	ex_collector(&c, ct1, t, true);
	m_group_exit(&m, t, 0, 0);
	ex_life(&c, ct1, ML_DEAD);
	ex_collector(&c, ct1, M_NONE, false);
	ex_report(&c, t, ct1, -1);
	ex_report(&c, 0, ct1, -1);
	ex_life(&c, ch, ML_ALIVE);
	check_done(&c.c, "exit_ptrace: a zombie traced sub-thread is released, no report");
	model_free(&m);
}

/* ---- exit reports: exit_notify() / wait_task_zombie() ---- */

/* ptrace_reparented(): the tracer first (EXIT_TRACE), then the real parent. */
static void test_report_tracer_then_parent(void)
{
	struct model m;
	struct mc c;
	int p, t, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 1901);
	ch = fork_(&m, p, "C", 1902);
	t = fork_(&m, 0, "T", 1903);
	seize(&m, t, ch, 0);
	m_group_exit(&m, ch, 9, 0);
	ex_collector(&c, ch, t, true);
	ex_owed(&c, t, ch, true);
	ex_owed(&c, p, ch, false);
	ex_report(&c, p, ch, -1);
	ex_life(&c, ch, ML_ZOMBIE);
	ex_report(&c, t, ch, 0);
	ex_life(&c, ch, ML_ZOMBIE);
	ex_tracer(&c, ch, 0);
	ex_collector(&c, ch, p, false);
	ex_report(&c, t, ch, -1);
	ex_report(&c, p, ch, 0);
	ex_life(&c, ch, ML_DEAD);
	ex_report(&c, p, ch, -1);
	ex_report(&c, t, ch, -1);
	mc_eq(&c, 2, m.t[ch].reports, "C: reports");
	check_done(&c.c, "reports: traced leader -> T first, then P; P before T is refused");
	model_free(&m);
}

/*
 * Commit 0347e1773909: a tracer in the real parent's thread group gets the
 * one and only report, which any thread of that group may collect.
 */
static void test_report_tracer_in_parent_group(void)
{
	struct model m;
	struct mc c;
	int p, pt1, ch, pass;

	for (pass = 0; pass < 2; pass++) {
		model_init(&m, R_TID);
		mc_init(&c, &m);
		p = fork_(&m, 0, "P", 2001);
		pt1 = thread_(&m, p, "P.t1", 2002);
		ch = fork_(&m, p, "C", 2003);
		seize(&m, pt1, ch, 0);
		ex_tracer(&c, ch, 2002);
		ex_ppid(&c, ch, p, 2001);
		m_group_exit(&m, ch, 1, 0);
		mc_eq(&c, 0, m.t[ch].owed_tracer, "C: owed_tracer");
		mc_eq(&c, 1, m.t[ch].owed_parent, "C: owed_parent");
		ex_collector(&c, ch, p, false);
		ex_owed(&c, p, ch, true);
		ex_owed(&c, pt1, ch, true);
		ex_report(&c, pass ? p : pt1, ch, 0);
		ex_life(&c, ch, ML_DEAD);
		ex_tracer(&c, ch, 0);
		ex_report(&c, p, ch, -1);
		ex_report(&c, pt1, ch, -1);
		mc_eq(&c, 1, m.t[ch].reports, "C: reports");
		check_done(&c.c, "reports: tracer P.t1 in P's group -> one report, to %s, once",
			   pass ? "P" : "P.t1 (the tracer)");
		model_free(&m);
	}
}

/* PTRACE_TRACEME: the tracer is the real parent thread itself. */
static void test_report_traceme(void)
{
	struct model m;
	struct mc c;
	int p, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 2101);
	ch = fork_(&m, p, "C", 2102);
	m_trace(&m, p, ch, 0, false);
	ex_tracer(&c, ch, 2101);
	m_group_exit(&m, ch, 2, 0);
	ex_collector(&c, ch, p, false);
	ex_report(&c, p, ch, 0);
	ex_life(&c, ch, ML_DEAD);
	ex_report(&c, p, ch, -1);
	mc_eq(&c, 1, m.t[ch].reports, "C: reports");
	check_done(&c.c, "reports: traceme (tracer == real parent) -> one report");
	model_free(&m);
}

/* delay_group_leader(): a zombie leader is not reaped before its threads are released. */
static void test_delayed_leader(void)
{
	struct model m;
	struct mc c;
	int ch, ct1;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	ch = fork_(&m, 0, "C", 2201);
	ct1 = thread_(&m, ch, "C.t1", 2202);
	m_thread_exit(&m, ch, 4, 0);
	ex_life(&c, ch, ML_ZOMBIE);
	ex_life(&c, ct1, ML_ALIVE);
	mc_eq(&c, 1, m_group_alive(&m, ch), "C: m_group_alive");
	ex_collector(&c, ch, M_NONE, false);
	ex_owed(&c, 0, ch, false);
	ex_report(&c, 0, ch, -1);
	m_thread_exit(&m, ct1, 6, 0);
	ex_life(&c, ct1, ML_DEAD);
	ex_collector(&c, ch, 0, false);
	/* No SIGNAL_GROUP_EXIT: wait_task_zombie() reports the leader's own code. */
	ex_status(&c, ch, 4, 0);
	ex_report(&c, 0, ch, 0);
	ex_life(&c, ch, ML_DEAD);
	check_done(&c.c, "delay_group_leader: zombie leader C waits for C.t1, then to R");
	model_free(&m);
}

/* A traced zombie sub-thread (not yet released) also holds the leader back. */
static void test_delayed_leader_traced_thread(void)
{
	struct model m;
	struct mc c;
	int ch, ct1, t;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	ch = fork_(&m, 0, "C", 2251);
	ct1 = thread_(&m, ch, "C.t1", 2252);
	t = fork_(&m, 0, "T", 2253);
	seize(&m, t, ct1, 0);
	m_group_exit(&m, ch, 8, 0);
	ex_life(&c, ct1, ML_ZOMBIE);
	ex_collector(&c, ct1, t, true);
	ex_collector(&c, ch, M_NONE, false);
	/* A traced sub-thread's report goes to its tracer only. */
	ex_report(&c, 0, ct1, -1);
	ex_report(&c, t, ct1, 0);
	ex_life(&c, ct1, ML_DEAD);
	ex_collector(&c, ch, 0, false);
	ex_report(&c, 0, ch, 0);
	check_done(&c.c, "delay_group_leader: traced zombie C.t1 -> T only; then C to R");
	model_free(&m);
}

/* ---- de_thread() ---- */

static void test_exec_non_leader(void)
{
	struct model m;
	struct mc c;
	int p, pt1, pt2, pt3, t1, t2, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 2301);
	pt1 = thread_(&m, p, "P.t1", 2302);
	pt2 = thread_(&m, p, "P.t2", 2303);
	pt3 = thread_(&m, p, "P.t3", 2304);
	ch = fork_(&m, p, "C", 2305);
	t1 = fork_(&m, 0, "T1", 2306);
	t2 = fork_(&m, 0, "T2", 2307);
	seize(&m, t1, pt2, 0);
	seize(&m, t2, p, 0);
	m_exec(&m, pt1);
	/* exchange_tids(): the execing thread is the leader, with the old pid. */
	mc_eq(&c, 2301, m.t[pt1].tid, "P.t1: tid after exec");
	mc_eq(&c, pt1, m.t[pt1].leader, "P.t1: leader");
	mc_eq(&c, pt1, m_find_tid(&m, 2301), "m_find_tid(2301)");
	ex_ppid(&c, pt1, 0, R_TID);
	ex_life(&c, pt1, ML_ALIVE);
	/* The old leader: EXIT_DEAD, release_task(), no report to T2 or R. */
	ex_life(&c, p, ML_DEAD);
	ex_collector(&c, p, M_NONE, false);
	ex_report(&c, t2, p, -1);
	ex_report(&c, 0, p, -1);
	/* The other threads: exited(0) (do_group_exit() with group_exec_task). */
	ex_life(&c, pt3, ML_DEAD);
	ex_life(&c, pt2, ML_ZOMBIE);
	ex_status(&c, pt2, 0, 0);
	ex_collector(&c, pt2, t1, true);
	ex_report(&c, t1, pt2, 0);
	ex_life(&c, pt2, ML_DEAD);
	ex_report(&c, t1, pt2, -1);
	/* The old leader's child now hangs on the execing thread. */
	ex_ppid(&c, ch, pt1, 2301);
	ex_life(&c, ch, ML_ALIVE);
	check_done(&c.c, "de_thread: P.t1 execs -> tid 2301, P dead silently, P.t2 owes T1");
	model_free(&m);
}

/* ---- negative controls: a wrong expectation is detected ---- */

static void test_negative_controls(void)
{
	struct model m;
	struct mc c, wrong;
	int p, ch, t;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	p = fork_(&m, 0, "P", 2401);
	ch = fork_(&m, p, "C", 2402);
	t = fork_(&m, 0, "T", 2403);
	seize(&m, t, ch, 0);

	mc_init(&wrong, &m);
	ex_tracer(&wrong, ch, 0);			/* C is traced by T (2403) */
	mc_eq(&c, 1, wrong.bad, "wrong TracerPid 0 for a tracee: mismatches");

	m_group_exit(&m, p, 0, 0);
	mc_init(&wrong, &m);
	ex_ppid(&wrong, ch, p, 2401);			/* P is gone: C is R's */
	mc_eq(&c, 2, wrong.bad, "wrong PPid P after P exited: mismatches");

	m_group_exit(&m, ch, 0, 0);
	mc_init(&wrong, &m);
	ex_collector(&wrong, ch, t, false);		/* T collects as tracer */
	mc_eq(&c, 1, wrong.bad, "wrong as_tracer: mismatches");
	mc_init(&wrong, &m);
	ex_collector(&wrong, ch, 0, false);		/* R comes second */
	mc_eq(&c, 2, wrong.bad, "R as the first collector: mismatches");
	mc_init(&wrong, &m);
	ex_life(&wrong, ch, ML_DEAD);			/* a zombie */
	mc_eq(&c, 1, wrong.bad, "wrong life: mismatches");

	ex_report(&c, t, ch, 0);
	ex_report(&c, 0, ch, 0);
	mc_init(&wrong, &m);
	ex_report(&wrong, 0, ch, 0);			/* a second report to R */
	mc_eq(&c, 1, wrong.bad, "a duplicate report expected to be owed: mismatches");

	/* And the check machinery itself: a wrong expectation fails the check. */
	mc_eq(&c, 0, wrong.c.ok, "struct check of the wrong expectation: ok");
	check_done(&c.c, "negative controls: each wrong expectation is detected");
	model_free(&m);
}

/*
 * A traced zombie reparented into its tracer's thread group.  S (a
 * subreaper) traces its grandchild C; C exits (two reports owed: C's real
 * parent P is not S's group); then P exits and C is reparented to S.  Now
 * ptrace_reparented(C) is false, so wait_task_zombie() takes state
 * EXIT_DEAD, not EXIT_TRACE: S's one wait releases C, nothing is left for
 * the real parent (a second waitpid() is ECHILD).
 */
static void test_reparented_into_tracer_group(void)
{
	struct model m;
	struct mc c;
	int s, p, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	s = subreaper_(&m, 0, "S", 2501);
	p = fork_(&m, s, "P", 2502);
	ch = fork_(&m, p, "C", 2503);
	seize(&m, s, ch, 0);
	m_group_exit(&m, ch, 0, 0);
	m_group_exit(&m, p, 0, 0);
	ex_ppid(&c, ch, s, 2501);
	ex_tracer(&c, ch, 2501);
	ex_report(&c, s, ch, 0);
	ex_life(&c, ch, ML_DEAD);
	ex_collector(&c, ch, M_NONE, false);
	ex_report(&c, s, ch, -1);
	mc_eq(&c, 1, m.t[ch].reports, "C: reports");
	check_done(&c.c, "zombie C reparented into its tracer S's group: 1 report");
	model_free(&m);
}

/* ---- known model bugs: SKIPped unless --known-bugs ---- */

/*
 * Nested pid namespaces: zap_pid_ns_processes(N) SIGKILLs every pid in
 * N's idr, which holds the pids of N2 (init of a namespace inside N) and
 * of everything below it.  N2 dies, zaps its own namespace, and N waits
 * for all of them (pid_allocated) before it becomes a zombie.  The model
 * has one ns index per task (N2's is N2 itself), so zap_ns(N) misses N2.
 * Latent: the engine refuses nested pid namespaces ("not supported").
 */
static void bug_nested_pidns(void)
{
	struct model m;
	struct mc c;
	int n, n2, z;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	n = m_fork(&m, 0, "N", 2601, 1, false, true);
	n2 = m_fork(&m, n, "N2", 2602, 2, false, true);
	z = m_fork(&m, n2, "Z", 2603, 2, false, false);
	m_group_exit(&m, n, 0, 0);
	ex_life(&c, n2, ML_DEAD);
	ex_life(&c, z, ML_DEAD);
	ex_status(&c, n2, 0, SIGKILL);
	ex_status(&c, z, 0, SIGKILL);
	ex_collector(&c, n, 0, false);
	check_done(&c.c, "known bug: nested pid namespace N2 inside N is zapped with N");
	model_free(&m);
}

/*
 * do_wait() walks ptrace_do_wait() for every thread of the waiter's group
 * (unless __WNOTHREAD; the agents never pass it), so a sibling thread of
 * the tracer thread may collect the tracer's report too.
 */
static void bug_tracer_sibling_waits(void)
{
	struct model m;
	struct mc c;
	int t, tt1, ch;

	model_init(&m, R_TID);
	mc_init(&c, &m);
	t = fork_(&m, 0, "T", 2701);
	tt1 = thread_(&m, t, "T.t1", 2702);
	ch = fork_(&m, 0, "C", 2703);
	seize(&m, tt1, ch, 0);
	m_group_exit(&m, ch, 0, 0);
	ex_collector(&c, ch, tt1, true);
	ex_owed(&c, tt1, ch, true);
	ex_owed(&c, t, ch, true);
	ex_report(&c, t, ch, 0);
	ex_collector(&c, ch, 0, false);
	check_done(&c.c, "known bug: T, the tracer T.t1's sibling, may collect C's report");
	model_free(&m);
}

static const struct {
	void (*fn)(void);
	const char *name;
} known_bugs[] = {
	{ bug_nested_pidns,
	  "nested pid namespaces are zapped with the outer one (latent: the engine refuses them)" },
	{ bug_tracer_sibling_waits, "a sibling thread of the tracer may collect its report" },
	{ NULL, NULL }
};

int main(int argc, char **argv)
{
	bool bugs = argc > 1 && !strcmp(argv[1], "--known-bugs");
	int i;

	if (argc > 2 || (argc == 2 && !bugs)) {
		fprintf(stderr, "usage: %s [--known-bugs]\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_begin();
	if (!bugs) {
		test_thread_reaper();
		test_nested_subreapers();
		test_subreaper_off();
		test_subreaper_exiting();
		test_subreaper_live_thread();
		test_pidns();
		test_tracer_exit_plain();
		test_tracer_exit_exitkill();
		test_tracer_exit_zombie_leader();
		test_tracer_exit_zombie_thread();
		test_report_tracer_then_parent();
		test_report_tracer_in_parent_group();
		test_report_traceme();
		test_delayed_leader();
		test_delayed_leader_traced_thread();
		test_exec_non_leader();
		test_negative_controls();
		test_reparented_into_tracer_group();
	}
	for (i = 0; known_bugs[i].fn; i++) {
		if (bugs)
			known_bugs[i].fn();
		else
			tap_skip("known model bug, see model-tests --known-bugs", "%s",
				 known_bugs[i].name);
	}
	tap_end();
	return tap_exit_code(false);
}
