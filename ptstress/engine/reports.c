// SPDX-License-Identifier: GPL-2.0
/*
 * Exit reports and SIGCHLD (observe.h): collecting the reports the model
 * says are due and checking each; no waitable report the model does not
 * owe; every process notified of an exit got a SIGCHLD, from a task that
 * could send it, with the status do_notify_parent() sends.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "engine/observe.h"
#include "lib/links.h"

/* ---- SIGCHLD ---- */

/*
 * May a SIGCHLD from @from reach the group of @to at all?  Its children
 * and its tracees send them: exits (do_notify_parent()), stops and
 * continues (do_notify_parent_cldstop()).
 */
static bool may_notify(struct engine *e, int from, int lead)
{
	const struct mtask *f = &e->m.t[from];
	int rp = e->m.t[f->leader].real_parent;

	return (f->tracer >= 0 && e->m.t[f->tracer].leader == lead) ||
	       (rp >= 0 && e->m.t[rp].leader == lead) || m_was_notifier(&e->m, from, lead);
}

/* The SIGCHLDs group @lead dequeued since the last look; n or -1 (reported). */
static int take_log(struct engine *e, int lead, struct agent_reply *rep)
{
	int w;

	memset(rep, 0, sizeof(*rep));
	if (lead == 0) {
		rep->nsigchld = sigchld_log_take(rep->sigchld, AGENT_SIGCHLD_MAX,
						 &rep->sigchld_lost);
		return rep->nsigchld;
	}
	w = m_alive_thread(&e->m, lead);
	if (w == M_NONE || e->e[w].fd < 0 || e->m.t[w].stop != MS_RUNNING)
		return -2;	/* nobody to ask: it is checked at the next look */
	if (call(e, w, REQ(OP_SIGCHLD_LOG, 0, 0, 0), rep, NULL) < 0)
		return -1;
	return rep->nsigchld;
}

/* Notice @no has SIGCHLD @s's code and status (or, after 6.1, its alternative). */
static bool notice_matches(const struct engine *e, const struct m_notice *no,
			   const struct sigchld_rec *s)
{
	/*
	 * Whether a SIGTRAP death dumps core (CLD_DUMPED) is RLIMIT_CORE's
	 * and core_pattern's call (do_coredump()), not a rule's.
	 */
	if (no->code == CLD_KILLED && s->code == CLD_DUMPED && no->status == SIGTRAP &&
	    s->status == SIGTRAP)
		return true;
	return (no->code == s->code && no->status == s->status) ||
	       (e->after_61 && no->alt_code && no->alt_code == s->code &&
		no->alt_status == s->status);
}

/*
 * The unseen exit notice to group @lead that SIGCHLD @s stands for: from
 * one of the @nc tasks its si_pid may name, with its si_code and si_status
 * if one has them, else the oldest (a wrong status); -1 for none.
 *
 * SIGCHLD is a legacy signal: one sent while another is still pending
 * is dropped (legacy_queue(), kernel/signal.c:1079, 1105), and agents dequeue
 * theirs only when they sleep (wait.c).  So any notice may have no
 * SIGCHLD of its own.  When one pid named two notifiers -- an old
 * leader de_thread() killed, then the thread that exec'd and took its
 * pid (exchange_tids(), fs/exec.c:1134) -- the old leader's SIGCHLD may
 * be the one dropped, and the pid's next SIGCHLD is the new leader's.
 */
static int exit_notice(const struct engine *e, int lead, const struct sigchld_rec *s,
		       const int *cand, int nc)
{
	const struct m_notice *no;
	int j, c, first = -1;

	for (j = 0; j < e->m.nnotices; j++) {
		no = &e->m.notices[j];
		if (no->to_lead != lead || no->seen)
			continue;
		for (c = 0; c < nc && no->from != cand[c]; c++)
			;
		if (c == nc)
			continue;
		if (notice_matches(e, no, s))
			return j;
		if (first < 0)
			first = j;
	}
	return first;
}

/* Check group @lead's SIGCHLDs against the notices the model has for it. */
static int sigchld_of(struct engine *e, int lead, const char *why)
{
	struct agent_reply rep;
	char exp[256], got[512];
	struct m_notice *no;
	int n, k, j, first = -1, nno = 0;
	size_t g = 0;

	n = take_log(e, lead, &rep);
	if (n == -2)
		return 0;
	if (n < 0) {
		if (!e->stop)
			harness_err(e, "%s: SIGCHLD is not logged in %s", why, tname(e, lead));
		return -1;
	}
	got[0] = '\0';
	for (k = 0; k < n; k++) {
		const struct sigchld_rec *s = &rep.sigchld[k];
		int cand[8], nc, c, from = -1;

		/* A pid may have named several tasks: reused, or taken over by exec. */
		nc = m_pids_seen_by(&e->m, s->pid, lead, cand, 8);
		for (c = 0; c < nc && from < 0; c++)
			if (may_notify(e, cand[c], lead))
				from = cand[c];
		e->st.sigchld++;
		if (g < sizeof(got))
			g += snprintf(got + g, sizeof(got) - g, "%ssi_pid %d code %d status %d",
				      k ? "; " : "", (int)s->pid, s->code, s->status);
		/*
		 * A SIGCHLD from a task that is neither child nor tracee of the
		 * group.  A debugger's own children (gdb's "shell") are beyond
		 * the model: orphaned, they come to R, so R accepts pids it
		 * never knew once a session ran.
		 */
		if (!nc && lead == 0 && e->nsessions)
			continue;
		if (from < 0) {
			report(e, &(struct fdesc){ .check = "sigchld", .rule = R_NOTIFY_PARENT,
						   .ntasks = 1, .tasks = { lead },
						   .observed = got },
			       "%s: %s got a SIGCHLD from pid %d, which is neither its child nor "
			       "its tracee", why, tname(e, lead), (int)s->pid);
			return -1;
		}
		if (s->code != CLD_EXITED && s->code != CLD_KILLED && s->code != CLD_DUMPED)
			continue;
		/* An exit notice: si_status as do_notify_parent() sends it. */
		j = exit_notice(e, lead, s, cand, nc);
		if (j < 0)
			continue;
		no = &e->m.notices[j];
		if (!notice_matches(e, no, s)) {
			snprintf(exp, sizeof(exp), "si_code %d si_status %d", no->code,
				 no->status);
			report(e, &(struct fdesc){ .check = "sigchld", .rule = no->rule,
						   .ntasks = 2, .tasks = { no->from, lead },
						   .expected = exp, .observed = got },
			       "%s: SIGCHLD of %s to %s has the wrong status", why,
			       tname(e, no->from), tname(e, lead));
			return -1;
		}
		no->seen = true;
	}
	/* The notices since the last look: at least one SIGCHLD must have come. */
	for (j = 0; j < e->m.nnotices; j++) {
		no = &e->m.notices[j];
		if (no->to_lead != lead || no->checked)
			continue;
		no->checked = true;
		if (no->maybe)
			continue;
		if (first < 0)
			first = j;
		nno++;
	}
	if (nno && !n && !rep.sigchld_lost) {
		no = &e->m.notices[first];
		snprintf(exp, sizeof(exp), "at least one SIGCHLD, from %s%s",
			 tname(e, no->from), nno > 1 ? " or another notifier" : "");
		report(e, &(struct fdesc){ .check = "sigchld", .rule = no->rule, .ntasks = 2,
					   .tasks = { no->from, lead }, .expected = exp,
					   .observed = "none" },
		       "%s: %s was notified of %d exit%s but received no SIGCHLD", why,
		       tname(e, lead), nno, nno > 1 ? "s" : "");
		return -1;
	}
	return 0;
}

/*
 * Group @lead's SIGCHLDs now: before its execve(), which loses the ones
 * its agent dequeued into its log (a pending one survives the exec).
 */
int check_sigchld_group(struct engine *e, int lead, const char *why)
{
	if (!m_has_notices(&e->m, lead) || e->e[lead].external)
		return 0;
	return sigchld_of(e, lead, why);
}

int check_sigchld(struct engine *e, const char *why)
{
	int i;

	for (i = 0; i < e->m.n && !e->stop; i++) {
		if (e->m.t[i].leader != i || !m_group_alive(&e->m, i) || e->e[i].external)
			continue;
		if (!m_has_notices(&e->m, i))
			continue;
		if (sigchld_of(e, i, why) < 0)
			return -1;
	}
	m_notices_gc(&e->m);
	return e->stop ? -1 : 0;
}

/* ---- exit reports ---- */

/*
 * @busy[lead]: may group @lead have a report due?  Not when the last
 * check_tasks() read every thread of it that is not released and found
 * each one's ->children and ->ptraced empty (and in agreement with the
 * model): a waitid() of the group then finds nothing by construction, as
 * do_wait() looks only at those two lists of each thread of the group
 * (do_wait_thread() and ptrace_do_wait(), kernel/exit.c), and a check
 * step reads them just before its probes, at quiescence.  One pass over
 * the tasks for all groups.
 */
static void groups_busy(struct engine *e, bool *busy)
{
	bool known = e->have_links && e->tasks_gen;
	int i, k;

	for (i = 0; i < e->m.n; i++)
		busy[i] = !known;
	if (!known)
		return;
	M_FOR_UNREL(&e->m, k, i)
		if (e->m.t[i].life != ML_DEAD && e->e[i].empty_gen != e->tasks_gen)
			busy[e->m.t[i].leader] = true;
}

/* The thread of group @lead that probes for a due report, or M_NONE: none can now. */
static int prober_of(struct engine *e, int lead, bool busy)
{
	int w;

	if (e->m.t[lead].leader != lead || e->e[lead].external || !m_group_alive(&e->m, lead))
		return M_NONE;
	if (lead == 0)
		return 0;	/* R's own waitid(), no round trip */
	w = m_alive_thread(&e->m, lead);
	if (w == M_NONE || e->e[w].fd < 0 || T(e, w)->stop != MS_RUNNING ||
	    m_zapping(&e->m, lead))
		return M_NONE;
	if (!busy) {
		e->st.probes_skipped++;
		return M_NONE;
	}
	return w;
}

/*
 * An exit report the kernel would give group @lead now (waitid() with
 * WNOWAIT, so nothing is collected: @rep) must be one the model owes that
 * group: a zombie the model says is nobody's yet (delay_group_leader(), a
 * tracer first, released) must not be waitable.
 */
static int pending_of(struct engine *e, int lead, struct agent_reply *rep, const char *why)
{
	char got[96];
	bool as_tracer;
	int x, c;

	if (!rep->ok) {
		harness_err(e, "%s: waitid(WNOWAIT) in %s failed: %s", why, tname(e, lead),
			    rep->msg);
		return -1;
	}
	if (rep->pid <= 0)
		return 0;
	e->st.checks++;
	x = m_find_pid_seen_by(&e->m, rep->pid, lead);
	/* A debugger's own children, orphaned to R, are beyond the model. */
	if (x < 0 && lead == 0 && e->nsessions)
		return 0;
	/*
	 * A debugger ends on its own: gdb -batch after its commands, strace
	 * when its last tracee is gone.  "stop" and "wait" reap it and check
	 * how it ended.
	 */
	if (x >= 0 && e->e[x].external)
		return 0;
	c = x >= 0 ? m_next_collector(&e->m, x, &as_tracer) : M_NONE;
	if (c >= 0 && m_same_group(&e->m, c, lead))
		return 0;
	snprintf(got, sizeof(got), "pid %d is waitable (status %#x)", (int)rep->pid, rep->status);
	report(e, &(struct fdesc){ .check = "report", .rule = x >= 0 ? T(e, x)->why_owed : R_NONE,
				   .ntasks = 2, .tasks = { x, lead },
				   .expected = c >= 0 ? tname(e, c) : "no report due to it",
				   .observed = got },
	       "%s: %s can collect an exit report of %s that the model does not owe it", why,
	       tname(e, lead), x >= 0 ? tname(e, x) : "an unknown pid");
	return -1;
}

/*
 * Every group's probe goes out before any reply is read: the agents answer
 * concurrently, so a check of N groups waits about one round trip rather
 * than N (these probes were more than half of all requests in a fuzz run,
 * one per live group every 50 rounds).  Replies are read and judged in
 * group order, as before, which keeps differential mode's observations in
 * the same order on both kernels; after a finding or an error the other
 * replies are still read, so no answer is left on a channel.
 */
int check_pending(struct engine *e, const char *why)
{
	const struct agent_req *req = REQ(OP_PENDING, 0, 0, 0);
	struct agent_reply rep;
	int i, k, r = 0, *w;
	bool *busy;

	w = malloc(sizeof(*w) * (size_t)(e->m.n ? e->m.n : 1));
	busy = malloc(sizeof(*busy) * (size_t)(e->m.n ? e->m.n : 1));
	if (!w || !busy) {
		free(w);
		free(busy);
		harness_err(e, "%s: no memory for %d probes", why, e->m.n);
		return -1;
	}
	groups_busy(e, busy);
	for (i = 0; i < e->m.n; i++)
		w[i] = M_NONE;
	/*
	 * A released task leads no live group (a leader is released after
	 * its threads, an exec's old leader leads nothing): no prober.
	 */
	M_FOR_UNREL(&e->m, k, i) {
		if (e->m.t[i].life == ML_DEAD)
			continue;
		w[i] = r < 0 || e->stop ? M_NONE : prober_of(e, i, busy[i]);
		if (w[i] > 0)
			e->st.probes++;
		if (w[i] > 0 && start_call(e, w[i], req) < 0) {
			w[i] = M_NONE;
			r = -1;
		}
	}
	M_FOR_UNREL(&e->m, k, i) {
		if (w[i] == M_NONE)
			continue;
		memset(&rep, 0, sizeof(rep));
		if (w[i] == 0) {
			rep.pid = wait_pending(&rep.status);
			rep.ok = rep.pid >= 0;
		} else if (finish(e, w[i], req, &rep, NULL) < 0) {
			r = -1;
			continue;
		}
		if (r == 0 && !e->stop && pending_of(e, i, &rep, why) < 0)
			r = -1;
	}
	free(w);
	free(busy);
	return r < 0 || e->stop ? -1 : 0;
}

/* The status @c's report must carry (m_report_status()), and whether @status is it. */
bool report_matches(struct engine *e, int c, int status, char *want, size_t len)
{
	int code, sig;

	m_report_status(&e->m, c, &code, &sig);
	if (sig)
		snprintf(want, len, "killed(%s)", sig_name(sig));
	else
		snprintf(want, len, "exited(%d)", code);
	if (sig)
		return WIFSIGNALED(status) && WTERMSIG(status) == sig;
	return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

int collect_reply(struct engine *e, int w, int c, const struct agent_reply *rep, bool as_tracer)
{
	struct mtask *t = &e->m.t[c];
	char want[48], got[64];
	bool match;

	e->st.checks++;
	match = report_matches(e, c, rep->status, want, sizeof(want));
	if (!rep->ok) {
		report(e, &(struct fdesc){ .check = "report", .rule = t->why_owed, .ntasks = 2,
					   .tasks = { c, w }, .expected = want,
					   .observed = rep->msg },
		       "exit report of %s to %s%s did not come", tname(e, c), tname(e, w),
		       as_tracer ? " (its tracer)" : "");
		return -1;
	}
	if (!match) {
		snprintf(got, sizeof(got), "status %#x", rep->status);
		report(e, &(struct fdesc){ .check = "report", .rule = t->why_code, .ntasks = 2,
					   .tasks = { c, w }, .expected = want,
					   .observed = rep->msg },
		       "exit report of %s to %s has the wrong status (%s)", tname(e, c),
		       tname(e, w), got);
		return -1;
	}
	/* Exactly once: the same pid must now be unknown to this waiter. */
	if (rep->second != -1 || rep->second_errno != ECHILD) {
		snprintf(got, sizeof(got), "second waitpid() = %d (%s)", rep->second,
			 rep->second < 0 ? errno_name(rep->second_errno) : "a report");
		report(e, &(struct fdesc){ .check = "report", .rule = R_REPORT_ONCE, .ntasks = 2,
					   .tasks = { c, w }, .expected = "-1 (ECHILD)",
					   .observed = got },
		       "exit report of %s to %s came twice or the pid stayed waitable",
		       tname(e, c), tname(e, w));
		return -1;
	}
	if (m_report(&e->m, w, c) < 0) {
		report(e, &(struct fdesc){ .check = "report", .rule = t->why_owed, .ntasks = 2,
					   .tasks = { c, w } },
		       "%s received an exit report of %s that the model does not owe it",
		       tname(e, w), tname(e, c));
		return -1;
	}
	e->st.reports++;
	e->e[c].dirty = true;
	return 0;
}

int r_collects(struct engine *e, int c, struct agent_reply *rep)
{
	struct wait_event ev;
	struct deadline dl;
	char what[128];
	int r, status;

	memset(rep, 0, sizeof(*rep));
	snprintf(what, sizeof(what), "exit report of %s to R", tname(e, c));
	step_deadline(e, &dl, 0);
	r = wait_event_for(e->m.t[c].tid, &ev, &dl, what);
	if (r < 0) {
		snprintf(rep->msg, sizeof(rep->msg), "%s", ps_last_error());
		if (r == -EINTR)
			harness_err(e, "interrupted");
		return r == -EINTR ? r : 0;
	}
	rep->ok = 1;
	rep->status = ev.status;
	rep->second = waitpid(e->m.t[c].tid, &status, WNOHANG | __WALL);
	rep->second_errno = rep->second < 0 ? errno : 0;
	wait_event_str(&ev, rep->msg, sizeof(rep->msg));
	return 0;
}

/* What debugger_waits() saw of the debugger. */
enum dbg_look { DBG_WAITS, DBG_ELSEWHERE, DBG_UNKNOWN };

/*
 * Is the debugger @pid waiting for a report, or does it go back to
 * waiting (asleep in wait4() or waitid() in one of 10 looks over a
 * second)?  A debugger that is not has a reason of its own (blocked
 * writing its output, stopped, gone): a harness error.  One that waits
 * and gets no report of a zombie tracee is the kernel's: do_wait() must
 * find it on the tracer's ->ptraced (wait_consider_task()).  State S
 * too: a wait4() that a stop signal interrupted still shows in
 * /proc/PID/syscall (task_current_syscall(), lib/syscall.c).  When
 * /proc/PID/syscall cannot be read at all (Yama ptrace_scope 2), the
 * kernel's side is not cleared: DBG_UNKNOWN.
 */
static enum dbg_look debugger_waits(pid_t pid)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	struct proc_status ps;
	struct parse_error pe;
	bool readable = false;
	long nr;
	int k;

	for (k = 0; k < 10; k++) {
		if (syscall_read(pid, &nr) == 0) {
			readable = true;
			if ((nr == SYS_wait4 || nr == SYS_waitid) &&
			    status_read(pid, pid, &ps, &pe) == 0 && ps.state == 'S')
				return DBG_WAITS;
		}
		nanosleep(&ts, NULL);
	}
	return readable ? DBG_ELSEWHERE : DBG_UNKNOWN;
}

/*
 * strace collects its tracee @i's exit report by itself, whenever it gets
 * to its wait4(): the model takes the report as collected only once the
 * kernel shows it, or a real parent's WNOHANG waitid and the /proc checks
 * after it would race strace.  Collected means untraced, or released:
 * wait_task_zombie() unlinks a leader (EXIT_TRACE: ptrace_unlink(), then
 * the real parent's do_notify_parent(), under one tasklist_lock) and
 * releases another thread (EXIT_DEAD).  The pid of a released task is
 * never another tracee of strace's (gen_process(): R forks for its
 * tracees).
 */
static int session_collects(struct engine *e, int c, int i)
{
	const struct mtask *t = &e->m.t[i];
	pid_t pid = e->m.t[c].tid;
	struct proc_status ps;
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	char what[64];
	/* strace's pace, whatever "within" the step that made the exit has */
	int r, sec = e->cur_timeout > DEBUGGER_SEC ? e->cur_timeout : DEBUGGER_SEC;
	/* at the deadline, what strace does; -1 until then */
	int look = -1;

	deadline_start(&dl, sec);
	for (;;) {
		/* after the look too: it takes a second, strace may have collected it */
		r = status_read(e->m.t[t->leader].tid, t->tid, &ps, &pe);
		if (r == -ESRCH || (r == 0 && ps.tracer_pid != pid))
			return 0;
		if (ps_stop_signal) {
			harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
			return -1;
		}
		if (look < 0 && deadline_expired(&dl)) {
			look = debugger_waits(pid);
			continue;
		}
		if (look == DBG_ELSEWHERE) {
			/* strace never asked: no report it was owed went unanswered */
			harness_err(e, "strace (pid %d) did not collect the exit report of %s "
				    "within %d s, and it is not asleep in wait4() "
				    "(/proc/%d/syscall): a stuck debugger, not the kernel's",
				    (int)pid, tname(e, i), sec, (int)pid);
			return -1;
		}
		if (look >= 0) {
			snprintf(what, sizeof(what), "TracerPid %d", (int)pid);
			report(e, &(struct fdesc){ .check = "report", .rule = t->why_owed,
						   .ntasks = 2, .tasks = { i, c },
						   .expected = "untraced or released",
						   .observed = r == 0 ? what : "unreadable" },
			       "strace (pid %d) did not collect the exit report of %s "
			       "within %d s%s", (int)pid, tname(e, i), sec, look == DBG_UNKNOWN ?
			       " (whether it waits is unknown: /proc/PID/syscall unreadable)" :
			       ", asleep in wait4()");
			return -1;
		}
		backoff_sleep(&delay);
	}
}

/* A strace session collected @task's exit: its output must say so at "stop". */
static void session_saw_exit(struct engine *e, int tracer, int task)
{
	const struct mtask *t = &e->m.t[task];
	struct session *ss;

	if (e->e[tracer].session < 0)
		return;
	ss = &e->sessions[e->e[tracer].session];
	if (ss->nseen == (int)(sizeof(ss->seen) / sizeof(ss->seen[0])) || t->leader != task)
		return;
	ss->seen[ss->nseen].tid = t->tid;
	ss->seen[ss->nseen].code = t->exit_code;
	ss->seen[ss->nseen].sig = t->exit_sig;
	ss->nseen++;
}

int collect_reports(struct engine *e, bool all)
{
	struct agent_reply rep;
	bool progress = true, as_tracer;
	int i, c, round;

	/*
	 * After each step only strace's and gdb's reports are collected:
	 * without a session there is none, and the walk below asks the
	 * model for every zombie's collector (O(tasks) each), which was a
	 * third of fuzz's CPU time on the host (perf, docs/fuzz.md).
	 */
	if (!all && !live_sessions(e))
		return 0;
	while (progress && !e->stop) {
		progress = false;
		/* Tracer reports first: they unblock the real parents' ones. */
		for (round = 0; round < 2 && !e->stop; round++) {
			for (i = 1; i < e->m.n && !e->stop; i++) {
				/*
				 * After a step only a debugger's tracee can have one:
				 * a debugger is no task's real parent (R forks for its
				 * tracees), so skip the model's O(tasks) walk for the
				 * others while a session runs.
				 */
				if (!all && (e->m.t[i].tracer < 0 ||
					     !e->e[e->m.t[i].tracer].external))
					continue;
				c = m_next_collector(&e->m, i, &as_tracer);
				if (c == M_NONE || as_tracer != (round == 0))
					continue;
				if (!all && !e->e[c].external)
					continue;
				if (c == 0) {
					if (r_collects(e, i, &rep) < 0)
						return -1;
				} else if (e->e[c].external) {
					/* strace waits by itself; its output is checked at stop. */
					if (as_tracer) {
						if (session_collects(e, c, i) < 0)
							return -1;
						session_saw_exit(e, c, i);
					}
					m_report(&e->m, c, i);
					e->e[i].dirty = true;
					progress = true;
					continue;
				} else if (e->m.t[c].stop != MS_RUNNING || e->e[c].fd < 0) {
					continue;
				} else {
					if (call(e, c, REQ(as_tracer ? OP_WAIT_TRACEE : OP_REAP,
							   pid_for(e, c, i), 0, 0), &rep, NULL) < 0)
						return -1;
				}
				if (collect_reply(e, c, i, &rep, as_tracer) < 0)
					return -1;
				progress = true;
			}
		}
	}
	return e->stop ? -1 : 0;
}

