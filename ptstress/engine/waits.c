// SPDX-License-Identifier: GPL-2.0
/*
 * waitid PROC [TASK] [nowait] [nothread] [wclone] [wall] [pidfd]: one
 * non-blocking waitid(P_ALL or P_PID, WEXITED|WNOHANG|flags) by a thread
 * of PROC (the thread named, or one the model picks), checked against
 * model/wait.c: ECHILD, nothing yet (si_pid 0), or a report the model has
 * due to that thread, with its status.  With pidfd: waitid(P_PIDFD) of a
 * PIDFD_NONBLOCK pidfd the agent opens, without WNOHANG (nothing yet is
 * EAGAIN: kernel_waitid()).
 *
 * pidfd TASK: R's pidfd of TASK's pid (opened by the first pidfd step),
 * polled once: readable or not, as the model says.  verbs.h.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/verbs.h"

static int wait_flags(const struct stmt *s)
{
	return (s->opts & O_NOWAIT ? WNOWAIT : 0) | (s->opts & O_NOTHREAD ? __WNOTHREAD : 0) |
	       (s->opts & O_WCLONE ? __WCLONE : 0) | (s->opts & O_WALL ? __WALL : 0) |
	       (s->opts & O_WSTOPPED ? WSTOPPED : 0) | (s->opts & O_WCONTINUED ? WCONTINUED : 0);
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
	bool via_pidfd = s->opts & O_PIDFD;
	struct m_pred open = { 0, R_NONE };
	struct agent_reply rep;
	char want[48], got[64];
	enum m_wkind kind;
	bool as_tracer;

	/* A thread named waits itself; for a process, the model picks one. */
	if (p < 0 || (w = calling_thread(e, p, "wait")) < 0)
		return -1;
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
		if (!m_ns_within(&e->m, T(e, c)->ns, T(e, w)->ns)) {
			refuse(e, "waitid: %s has no pid in %s's namespace", tname(e, c),
			       tname(e, w));
			return -1;
		}
	}
	if (via_pidfd && c < 0) {
		refuse(e, "waitid %s pidfd: names no task to open a pidfd of", tname(e, w));
		return -1;
	}
	pred = m_predict_waitid(&e->m, w, c, flags, &rule);
	if (pred == -EAGAIN) {
		refuse(e, "waitid by %s: a stop report or a namespace init's reaping comes first; "
		       "the model cannot say which report the wait returns", tname(e, w));
		return -1;
	}
	if (via_pidfd)
		open = m_predict_pidfd_open(&e->m, c);
	if (call(e, w, REQ(OP_WAITID, c >= 0 ? pid_for(e, w, c) : 0, 0,
			   flags | (via_pidfd ? AGENT_WAITID_PIDFD : 0)), &rep, NULL) < 0)
		return -1;
	if (via_pidfd && (open.err || (!rep.ok && rep.msg_val == 1))) {
		/* EMFILE, ENFILE, ENOMEM: the agent's limits, not the kernel's verdict */
		if (!rep.ok && rep.msg_val == 1 &&
		    (rep.err == EMFILE || rep.err == ENFILE || rep.err == ENOMEM)) {
			harness_err(e, "%s: %s", tname(e, w), rep.msg);
			return -1;
		}
		outcome(e, s, open, &rep, "pidfd_open", c);
		return 0;
	}
	if (!outcome(e, s, via_pidfd ? m_waitid_pidfd(&e->m, pred, rule) :
		     (struct m_pred){ pred == -ECHILD ? ECHILD : 0, rule },
		     &rep, "waitid", c >= 0 ? c : w))
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
	kind = m_wait_kind(&e->m, w, x, flags);
	if (kind != MWK_EXIT) {
		/* stopped(SIGSTOP) or continued, as waitid() says it */
		bool ok = kind == MWK_STOP ? rep.status == ((SIGSTOP << 8) | 0x7f) :
			  rep.status == 0xffff;

		if (!ok) {
			snprintf(got, sizeof(got), "status %#x", rep.status);
			report(e, &(struct fdesc){ .check = "report", .rule = rule, .ntasks = 2,
						   .tasks = { x, w }, .expected = kind == MWK_STOP ?
						   "stopped(SIGSTOP)" : "continued",
						   .observed = rep.msg },
			       "waitid: the report of %s to %s is not its %s (%s)", tname(e, x),
			       tname(e, w), kind == MWK_STOP ? "group stop" : "continue", got);
			return 0;
		}
		if (!(flags & WNOWAIT) || m_wrong(&e->m, R_WAIT_NOWAIT))
			m_wait_took(&e->m, x, kind);
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

/*
 * The task that holds pid @pid now, @x's own or taken over by a thread
 * of its group that exec'd (exchange_tids()); M_NONE once none does.
 */
static int pid_holder(struct engine *e, int x, pid_t pid)
{
	int i;

	if (T(e, x)->life != ML_DEAD && T(e, x)->tid == pid)
		return x;
	for (i = 1; i < e->m.n; i++) {
		if (T(e, i)->life != ML_DEAD && T(e, i)->tid == pid &&
		    m_same_group(&e->m, i, x))
			return i;
	}
	return M_NONE;
}

int v_pidfd(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), fd, holder, rule, r;
	struct agent_reply rep;
	struct pollfd pfd;
	bool want;

	if (x < 0)
		return -1;
	if (e->e[x].external) {
		refuse(e, "pidfd: %s is a debugger session, outside the model", tname(e, x));
		return -1;
	}
	if (e->e[x].pidfd < 0) {
		if (T(e, x)->life == ML_DEAD) {
			refuse(e, "pidfd: %s is released: its pid may name another task",
			       tname(e, x));
			return -1;
		}
		memset(&rep, 0, sizeof(rep));
		fd = (int)syscall(SYS_pidfd_open, T(e, x)->tid, 0);
		rep.ok = fd >= 0;
		rep.err = fd < 0 ? errno : 0;
		snprintf(rep.msg, sizeof(rep.msg), "pidfd_open(%d) = %d%s%s", (int)T(e, x)->tid,
			 fd, fd < 0 ? " " : "", fd < 0 ? errno_name(errno) : "");
		if (fd < 0 && (rep.err == EMFILE || rep.err == ENFILE || rep.err == ENOMEM)) {
			/* EMFILE, ENFILE, ENOMEM: our limits, not the kernel's verdict */
			harness_err(e, "%s", rep.msg);
			return -1;
		}
		if (!outcome(e, s, m_predict_pidfd_open(&e->m, x), &rep, "pidfd_open", x)) {
			if (fd >= 0)
				close(fd);
			return 0;
		}
		e->e[x].pidfd = fd;
		e->e[x].pidfd_pid = T(e, x)->tid;
	} else if (s->nfails) {
		refuse(e, "pidfd: %s's pidfd is open already; only the first pidfd step opens it "
		       "and may fail", tname(e, x));
		return -1;
	}
	holder = pid_holder(e, x, e->e[x].pidfd_pid);
	want = m_pidfd_readable(&e->m, holder, &rule);
	pfd.fd = e->e[x].pidfd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	do {
		r = poll(&pfd, 1, 0);
	} while (r < 0 && errno == EINTR);
	if (r < 0) {
		harness_err(e, "poll(pidfd of %s): %s", tname(e, x), strerror(errno));
		return -1;
	}
	e->st.checks++;
	if (!!(pfd.revents & POLLIN) != want)
		report(e, &(struct fdesc){ .check = "pidfd", .rule = rule, .ntasks = 1,
					   .tasks = { holder == M_NONE ? x : holder },
					   .expected = want ? "POLLIN" : "not readable",
					   .observed = pfd.revents & POLLIN ? "POLLIN" :
					   "not readable" },
		       "pidfd of %s: poll says %s, the model %s", tname(e, x),
		       pfd.revents & POLLIN ? "readable" : "not readable",
		       want ? "readable (the group exited)" : "not readable");
	return 0;
}
