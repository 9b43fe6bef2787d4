// SPDX-License-Identifier: GPL-2.0
/*
 * The model's nested pid namespaces and setns()+fork() (model/pidns.c,
 * zap_ns() and m_ns_drained() in model/exit.c), worked by hand from 6.1:
 * alloc_pid() gives a pid at every level, zap_pid_ns_processes()
 * (kernel/pid_namespace.c:199-248) kills and waits for every pid of its
 * namespace, nested ones and setns children included.
 */
#include <signal.h>
#include <string.h>

#include "model-tests.h"

/* A (init), x in A, B (init of a namespace nested in A's), b in B traced by T outside. */
static void nested(pid_t base, int *a, int *x, int *b, int *bb, int *t)
{
	*a = m_fork(&m, 0, "A", base, 1, false, true);
	*x = m_fork(&m, *a, "x", base + 1, 2, false, false);
	*b = m_fork(&m, *x, "B", base + 2, 1, false, true);
	*bb = m_fork(&m, *b, "b", base + 3, 2, false, false);
	*t = proc(0, "T", base + 4);
	seize(*t, *bb, 0);
}

/* N (init), P outside its namespace, and P's child C forked into it (setns()+fork()). */
static void setns_child(pid_t base, int *n, int *p, int *c)
{
	*n = m_fork(&m, 0, "N", base, 1, false, true);
	*p = proc(0, "P", base + 1);
	*c = proc(*p, "C", base + 2);
	m_fork_into(&m, *c, *n);
}

/* Pids by level: R's tid, then each namespace's own; 0 where it has none. */
TEST(pidns_nested_pids_by_level)
{
	pid_t v[3] = { 5003, 7, 1 };
	int a, b, bb;

	setup();
	a = m_fork(&m, 0, "A", 5001, 1, false, true);
	b = m_fork(&m, a, "B", 5003, 1, false, true);
	EXPECT_EQ(m_ns_level(&m, m.t[b].ns), 2);
	EXPECT_TRUE(m_ns_within(&m, m.t[b].ns, m.t[a].ns));
	EXPECT_FALSE(m_ns_within(&m, m.t[a].ns, m.t[b].ns));
	EXPECT_EQ(m_set_nspid(&m, b, v, 2), -1);	/* not its depth */
	EXPECT_EQ(m_set_nspid(&m, b, v, 3), 0);
	EXPECT_EQ(m_pid_in(&m, b, M_NONE), 5003);
	EXPECT_EQ(m_pid_in(&m, b, a), 7);
	EXPECT_EQ(m_pid_in(&m, b, b), 1);
	EXPECT_EQ(m_pid_in(&m, a, b), 0);	/* task_pid_nr_ns(): none there */
	bb = m_fork(&m, b, "b", 5004, 2, false, false);
	EXPECT_EQ(m_find_pid_seen_by(&m, 1, bb), b);
	EXPECT_EQ(m_find_pid_seen_by(&m, 7, a), b);
}

/*
 * A setns child C of P (outside N's namespace): N's zap kills it, but its
 * zombie is P's; N sleeps until P reaps it (:222-248), then is a zombie.
 */
TEST(pidns_zap_waits_for_setns_child)
{
	int n, p, c;
	bool tr;

	setup();
	setns_child(5101, &n, &p, &c);
	EXPECT_EQ(m_ppid(&m, c), 5102);
	m_group_exit(&m, n, 7, 0);
	EXPECT_STREQ(m_state_letters(&m, c), "Z");
	EXPECT_EQ(collector(c, &tr), p);
	EXPECT_FALSE(tr);
	EXPECT_STREQ(m_state_letters(&m, n), "RSID");
	EXPECT_EQ(collector(n, &tr), -9);
	EXPECT_EQ(m_report(&m, p, c), 0);
	EXPECT_STREQ(m_state_letters(&m, n), "Z");
	EXPECT_EQ(collector(n, &tr), 0);
	EXPECT_EQ(status(n), EXITED(7));
}

/*
 * Found by fuzz (seed 13): Z, an init zapping its namespace, sleeps until
 * P's setns child C is reaped; P's own exit moves Z to N without a
 * SIGCHLD (no zombie yet: exit_notify() sets exit_state after
 * forget_original_parent(), kernel/exit.c:739,744), and Z notifies N once
 * the drain lets it finish.
 */
TEST(pidns_zapper_reparented_notifies_after_drain)
{
	int n, p, q, z, c, k, to_n = 0;

	setup();
	n = m_fork(&m, 0, "N", 5301, 1, false, true);
	p = m_fork(&m, n, "P", 5302, 2, false, false);
	q = m_fork(&m, n, "Q", 5303, 3, false, false);
	z = m_fork(&m, p, "Z", 5304, 1, false, true);
	c = m_fork(&m, q, "C", 5305, 4, false, false);
	m_fork_into(&m, c, z);
	m_group_exit(&m, z, 0, SIGKILL);
	EXPECT_STREQ(m_state_letters(&m, z), "RSID");
	m.nnotices = 0;
	m_group_exit(&m, p, 3, 0);
	EXPECT_EQ(m_ppid(&m, z), 5301);
	for (k = 0; k < m.nnotices; k++)
		to_n += m.notices[k].from == z;
	EXPECT_EQ(to_n, 0);
	EXPECT_EQ(m_report(&m, q, c), 0);
	EXPECT_STREQ(m_state_letters(&m, z), "Z");
	for (k = 0; k < m.nnotices; k++)
		to_n += m.notices[k].from == z && m.notices[k].to_lead == n;
	EXPECT_EQ(to_n, 1);
}

/* An orphaned setns child goes to its parent's reaper (R), not to N (:635-655). */
TEST(pidns_setns_orphan_leaves_namespace_reaper)
{
	int n, p, c;

	setup();
	setns_child(5201, &n, &p, &c);
	m_group_exit(&m, p, 0, 0);
	EXPECT_EQ(m_ppid(&m, c), R_TID);
	EXPECT_STREQ(m_state_letters(&m, n), "RSD");
}

/*
 * A's zap kills B's nested namespace too; a pid two levels down (b, held
 * by its tracer T outside) keeps B and, through B, A in their zaps.
 */
TEST(pidns_zap_reaches_nested)
{
	int a, x, b, bb, t;
	bool tr;

	setup();
	nested(5301, &a, &x, &b, &bb, &t);
	m_group_exit(&m, a, 5, 0);
	EXPECT_STREQ(m_state_letters(&m, bb), "Z");
	EXPECT_EQ(collector(bb, &tr), t);
	EXPECT_STREQ(m_state_letters(&m, b), "RSID");
	EXPECT_STREQ(m_state_letters(&m, a), "RSID");
	EXPECT_STREQ(m_state_letters(&m, x), "");
	EXPECT_EQ(m_report(&m, t, bb), 0);
	/* B drains, is autoreaped by the zapping A (SIGCHLD ignored), A is a zombie. */
	EXPECT_STREQ(m_state_letters(&m, b), "");
	EXPECT_STREQ(m_state_letters(&m, a), "Z");
}

/* Negative controls: the two rules' perturbations change those answers. */
TEST(pidns_nested_negative_controls)
{
	int n, p, c, a, x, b, bb, t;
	bool tr;

	setup();
	m.wrong = R_ZAP_SETNS_CHILD;
	setns_child(5401, &n, &p, &c);
	m_group_exit(&m, n, 0, 0);
	EXPECT_NE(collector(c, &tr), p);
	setup();
	m.wrong = R_ZAP_NESTED;
	nested(5501, &a, &x, &b, &bb, &t);
	m_group_exit(&m, a, 0, 0);
	EXPECT_FALSE(!strcmp(m_state_letters(&m, a), "RSID"));
	m.wrong = R_NONE;
}
