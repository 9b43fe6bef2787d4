// SPDX-License-Identifier: GPL-2.0
/*
 * Generators of the waits (gen.h): waitid and pidfd, with the model's
 * answer as their expected outcome.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>

#include "engine/gen.h"

/* A running agent thread that can call waitid(): a member or a tracer. */
static bool can_wait(struct engine *e, int i)
{
	return gen_usable(e, i) && T(e, i)->stop == MS_RUNNING && !T(e, i)->in_exit;
}

static bool unreleased(struct engine *e, int i)
{
	return T(e, i)->life != ML_DEAD && !e->e[i].external;
}

/*
 * Is a report of another task than @r due to waiter @w too?  Then which
 * one a wait for any child returns is the order of @w's ->children and
 * ->ptraced lists, and processes killed together land there in the order
 * they exit (forget_original_parent()): differential mode (--record)
 * does not draw such a wait, whose replay on another kernel could take
 * the other report and go on from there with other tasks.
 */
static bool several_due(struct engine *e, int w, int r, int flags)
{
	int k, rule;

	for (k = 1; k < e->m.n; k++)
		if (k != r && T(e, k)->life != ML_DEAD && !e->e[k].external &&
		    m_ns_within(&e->m, T(e, k)->ns, T(e, w)->ns) &&
		    m_predict_waitid(&e->m, w, k, flags, &rule) > 0)
			return true;
	return false;
}

#define GEN_WAITEES	64	/* children and tracees a waitee is drawn from */

/* An unreleased child (of a thread) or tracee of @w's group, or -1. */
static int pick_waitee(struct engine *e, struct gen *g, int w)
{
	int lead = T(e, w)->leader, k, n = 0, c[GEN_WAITEES], rp, tr;

	for (k = 1; k < e->m.n && n < GEN_WAITEES; k++) {
		if (!unreleased(e, k))
			continue;
		rp = T(e, T(e, k)->leader)->real_parent;
		tr = T(e, k)->tracer;
		if ((rp >= 0 && T(e, rp)->leader == lead) || (tr >= 0 && T(e, tr)->leader == lead))
			c[n++] = k;
	}
	return n ? c[gen_rnd(g, n)] : -1;
}

static bool waitid_of(struct engine *e, struct gen *g, struct stmt *st, int a, int w, int c,
		      unsigned int f);

/* A process whose group has a stop or continue report for its real parent, in the model. */
static bool job_report_due(struct engine *e, int i)
{
	const struct mtask *l = T(e, i);
	int rp = l->real_parent, w;

	if (l->leader != i || !unreleased(e, i) || (!l->cont_report && !l->gstop_code) || rp <= 0)
		return false;
	w = m_alive_thread(&e->m, T(e, rp)->leader);
	return w > 0 && can_wait(e, w) && m_ns_within(&e->m, l->ns, T(e, w)->ns);
}

/*
 * waitid W [c] [flags]: W a running thread (the model's pick of a
 * process's threads, as v_waitid() makes it), c any task not released
 * (in W's pid namespace) or none; the flags at random.  The model's
 * answer decides the "fails ECHILD" clause; a wait whose first report
 * the model cannot name (MW_RACY) is not drawn.
 */
bool g_waitid(struct engine *e, struct gen *g, struct stmt *st)
{
	int a, w, c = -1;
	unsigned int f;

	/*
	 * Fuzzing, one wait in 8 is by the real parent of a group with a
	 * stop or continue report due, for that child, with WSTOPPED or
	 * WCONTINUED (and the other flags at random): waits drawn from all
	 * waiters and flags met a pending CLD_CONTINUED in none of 17 997
	 * WCONTINUED waits (coverage, session 12: wait_task_continued(),
	 * kernel/exit.c:1357-1383).  The waiter is the thread the model
	 * picks for the parent's group (find_alive_thread()), named itself.
	 */
	if (g->fuzz && !gen_rnd(g, 8)) {
		c = gen_pick(e, g, job_report_due);
		if (c < 0)
			return false;
		w = m_alive_thread(&e->m, T(e, T(e, c)->real_parent)->leader);
		f = gen_rnd(g, 64) | (T(e, c)->cont_report ? 32 : 16);
		return waitid_of(e, g, st, w, w, c, f);
	}
	a = gen_pick(e, g, can_wait);
	f = gen_rnd(g, 64);
	if (a < 0)
		return false;
	w = T(e, a)->leader == a ? m_alive_thread(&e->m, a) : a;
	if (w != a)
		return false;
	if (gen_rnd(g, 2)) {
		/*
		 * Half of them for a child or tracee of W's group: a task drawn
		 * from all is seldom one, and only those have reports (or
		 * nothing yet: EAGAIN for a pidfd wait).
		 */
		c = gen_rnd(g, 2) ? pick_waitee(e, g, w) : gen_pick(e, g, unreleased);
		if (c < 0 || !m_ns_within(&e->m, T(e, c)->ns, T(e, w)->ns))
			return false;
	}
	return waitid_of(e, g, st, a, w, c, f);
}

/* The statement of waiter @a (thread @w) for @c (-1: any) with flag bits @f. */
static bool waitid_of(struct engine *e, struct gen *g, struct stmt *st, int a, int w, int c,
		      unsigned int f)
{
	int flags, r, rule;

	/*
	 * WSTOPPED/WCONTINUED: a group stop or continue of a child's group
	 * (wait_task_stopped(), wait_task_continued() with ptrace == 0); the
	 * model calls the report racy while its group has a traced thread.
	 */
	st->opts = (f & 1 ? O_NOWAIT : 0) | (f & 2 ? O_NOTHREAD : 0) |
		   (f & 4 ? O_WCLONE : 0) | (f & 8 && !(f & 4) ? O_WALL : 0) |
		   (f & 16 ? O_WSTOPPED : 0) | (f & 32 ? O_WCONTINUED : 0);
	flags = (f & 1 ? WNOWAIT : 0) | (f & 2 ? __WNOTHREAD : 0) | (f & 4 ? __WCLONE : 0) |
		(f & 8 && !(f & 4) ? __WALL : 0) | (f & 16 ? WSTOPPED : 0) |
		(f & 32 ? WCONTINUED : 0);
	r = m_predict_waitid(&e->m, w, c, flags, &rule);
	if (r == -EAGAIN)
		return false;
	if (c < 0 && r > 0 && e->opts->record_path && several_due(e, w, r, flags))
		return false;
	gen_names(st, c < 0 ? 1 : 2, T(e, a)->name, c < 0 ? NULL : T(e, c)->name);
	/*
	 * waitid(P_PIDFD) of a PIDFD_NONBLOCK pidfd: nothing yet is EAGAIN.
	 * Of a leader only: a non-leader's pidfd_open() error is 6.1's
	 * EINVAL, later kernels' ENOENT (pidfd-thread.sc has it).
	 */
	if (c >= 0 && T(e, c)->leader == c && !gen_rnd(g, 3)) {
		int err = m_waitid_pidfd(&e->m, r, rule).err;

		st->opts |= O_PIDFD;
		if (err)
			r = -err;
	}
	if (r < 0) {
		st->nfails = 1;
		st->fails[0] = -r;
	}
	return true;
}

#define GEN_PIDFDS	64	/* pidfds R keeps open at most in a generated run */

/* pidfd c: a leader, whose pidfd_open() answer is the same on every kernel. */
bool g_pidfd(struct engine *e, struct gen *g, struct stmt *st)
{
	int i, open = 0, c = gen_pick(e, g, unreleased);

	for (i = 1; i < e->m.n; i++)
		open += e->e[i].pidfd >= 0;
	if (c < 0 || T(e, c)->leader != c || (e->e[c].pidfd < 0 && open >= GEN_PIDFDS))
		return false;
	gen_names(st, 1, T(e, c)->name, NULL);
	return true;
}
