// SPDX-License-Identifier: GPL-2.0
/*
 * waitid PROC [TASK] [nowait] [nothread] [wclone] [wall]: one
 * non-blocking waitid(P_ALL or P_PID, WEXITED|WNOHANG|flags) by a thread
 * of PROC (the thread named, or one the model picks), checked against
 * model/wait.c: ECHILD, nothing yet (si_pid 0), or a report the model has
 * due to that thread, with its status.  verbs.h.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/wait.h>

#include "engine/verbs.h"

static int wait_flags(const struct stmt *s)
{
	return (s->opts & O_NOWAIT ? WNOWAIT : 0) | (s->opts & O_NOTHREAD ? __WNOTHREAD : 0) |
	       (s->opts & O_WCLONE ? __WCLONE : 0) | (s->opts & O_WALL ? __WALL : 0);
}

/* The task a reported si_pid names for waiter @w, among those due to it; -1. */
static int reported_task(struct engine *e, int w, pid_t pid, int flags)
{
	int cand[8], n, i, rule;

	n = m_pids_seen_by(&e->m, pid, T(e, w)->leader, cand, 8);
	for (i = 0; i < n; i++) {
		if (m_wait_consider(&e->m, w, cand[i], flags, &rule) == MW_READY)
			return cand[i];
	}
	return -1;
}

int v_waitid(struct engine *e, const struct stmt *s)
{
	int p = task_of(e, s->name[0]), w, c = -1, x, flags = wait_flags(s), pred, rule;
	struct agent_reply rep;
	char want[48], got[64];
	bool as_tracer;

	if (p < 0)
		return -1;
	/* A thread named waits itself; for a process, the model picks one. */
	w = T(e, p)->leader != p ? p : m_alive_thread(&e->m, p);
	if (w == M_NONE || !alive(e, w) || T(e, w)->in_exit || T(e, w)->stop != MS_RUNNING ||
	    e->e[w].fd < 0) {
		refuse(e, "%s has no running thread to wait", tname(e, p));
		return -1;
	}
	/* strace/gdb collect their tracees' exits on their own, first. */
	if (collect_reports(e, false) < 0)
		return -1;
	if (s->nnames > 1) {
		c = task_of(e, s->name[1]);
		if (c < 0)
			return -1;
		/* Its pid may be another task's by now (the attach rule's reason too). */
		if (T(e, c)->life == ML_DEAD) {
			refuse(e, "waitid: %s is released: its pid may name another task",
			       tname(e, c));
			return -1;
		}
		if (T(e, w)->ns != M_NONE && T(e, c)->ns != T(e, w)->ns) {
			refuse(e, "waitid: %s has no pid in %s's namespace", tname(e, c),
			       tname(e, w));
			return -1;
		}
	}
	pred = m_predict_waitid(&e->m, w, c, flags, &rule);
	if (pred == -EAGAIN) {
		refuse(e, "waitid by %s: a stop report or a namespace init's reaping comes first; "
		       "the model cannot say which report the wait returns", tname(e, w));
		return -1;
	}
	if (call(e, w, REQ(OP_WAITID, c >= 0 ? pid_for(e, w, c) : 0, 0, flags), &rep, NULL) < 0)
		return -1;
	if (!outcome(e, s, (struct m_pred){ pred == -ECHILD ? ECHILD : 0, rule }, &rep, "waitid",
		     c >= 0 ? c : w))
		return 0;
	e->st.checks++;
	if (rep.pid == 0) {
		if (pred > 0)
			report(e, &(struct fdesc){ .check = "report", .rule = rule, .ntasks = 2,
						   .tasks = { pred, w },
						   .expected = "a report", .observed = rep.msg },
			       "waitid by %s returned nothing, but the report of %s is due to it",
			       tname(e, w), tname(e, pred));
		return 0;
	}
	x = reported_task(e, w, rep.pid, flags);
	if (x < 0 || (c >= 0 && x != c)) {
		report(e, &(struct fdesc){ .check = "report", .rule = rule, .ntasks = 1,
					   .tasks = { w }, .expected = pred > 0 ? "a report" :
					   pred == 0 ? "nothing yet (si_pid 0)" : "ECHILD",
					   .observed = rep.msg },
		       "waitid by %s reported pid %d, whose report the model does not have due to "
		       "it", tname(e, w), (int)rep.pid);
		return 0;
	}
	if (!report_matches(e, x, rep.status, want, sizeof(want))) {
		snprintf(got, sizeof(got), "status %#x", rep.status);
		report(e, &(struct fdesc){ .check = "report", .rule = T(e, x)->why_code,
					   .ntasks = 2, .tasks = { x, w }, .expected = want,
					   .observed = got },
		       "waitid: the report of %s to %s has the wrong status (%s)", tname(e, x),
		       tname(e, w), got);
		return 0;
	}
	if ((flags & WNOWAIT) && !m_wrong(&e->m, R_WAIT_NOWAIT)) {
		/* The zombie stays: the next /proc check and wait must still see it. */
		e->e[x].dirty = true;
		return 0;
	}
	m_next_collector(&e->m, x, &as_tracer);
	return collect_reply(e, w, x, &rep, as_tracer);
}
