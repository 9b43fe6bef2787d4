// SPDX-License-Identifier: GPL-2.0
/*
 * The task verbs (kill, tkill, exit, quit, exec, subreaper, reap) and the
 * control verbs (check, expect, sleep, timeout, step-timeout); verbs.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/verbs.h"

static bool group_traced(struct engine *e, int proc)
{
	int i, lead = T(e, proc)->leader;

	for (i = 0; i < e->m.n; i++) {
		if (T(e, i)->leader == lead && alive(e, i) && T(e, i)->tracer != M_NONE)
			return true;
	}
	return false;
}

/* A traced task's tracer must pass the signal-delivery-stop a signal causes. */
int pass_signal(struct engine *e, int x, int sig)
{
	struct agent_reply rep;
	struct wait_event ev;
	int tr = T(e, x)->tracer;

	if (call(e, tr, REQ(OP_PASS, pid_for(e, tr, x), 0, PASS_DELIVER), &rep, NULL) < 0)
		return -1;
	ev = classify_wait_status(rep.status);
	e->st.checks++;
	if (!rep.ok || ev.kind != WK_SIGNAL_STOP || ev.sig != sig) {
		report(e, &(struct fdesc){ .check = "event", .rule = R_SIGNAL_DELIVERY,
					   .ntasks = 2, .tasks = { x, tr },
					   .expected = "a signal-delivery-stop",
					   .observed = rep.msg },
		       "%s: expected the signal-delivery-stop of %s to %s", tname(e, tr),
		       sig_name(sig), tname(e, x));
		return -1;
	}
	return 0;
}

/*
 * SIGCONT to a traced process the model can follow: the group's only live
 * thread, seized by an agent, listening or running, with no trap due and
 * no SIGCONT queued (rule sigcont-notify-retraps).  In a threaded group
 * the thread that dequeues it is the kernel's choice; a tracee in another
 * ptrace stop traps only once resumed.  That thread is the leader: kill()
 * queues a SIG_DFL SIGCONT only when the task its pid names is traced
 * (sig_ignored(), kernel/signal.c:101-120, from prepare_signal() :975).
 * With the leader a zombie, a traced last thread gets the trap
 * prepare_signal() asks for (ptrace_trap_notify()) but no signal at all
 * (fuzz on the host, seed 1: "exit P thread", seize P.t1, kill P SIGCONT).
 */
bool sigcont_to_seized(struct engine *e, int x)
{
	int lead = T(e, x)->leader, t = m_alive_thread(&e->m, lead);

	if (t != lead || m_live_threads(&e->m, lead) != 1)
		return false;
	return T(e, t)->seized && T(e, t)->tracer != M_NONE && !e->e[T(e, t)->tracer].external &&
	       !T(e, t)->in_exit && !T(e, t)->stop_report && !T(e, t)->cont_queued &&
	       (T(e, t)->stop == MS_RUNNING || (T(e, t)->stop == MS_TRACED && T(e, t)->listening));
}

int v_kill(struct engine *e, const struct stmt *s)
{
	bool thread = s->verb == V_TKILL;
	int x = task_of(e, s->name[0]), sig = s->sig, r;
	struct agent_reply rep = { .ok = 1 };

	if (x < 0)
		return -1;
	if (!sig_supported(sig) || !sig) {
		refuse(e, "%s is not supported by %s (SIGKILL, SIGTERM, SIGUSR1, SIGUSR2, "
		       "SIGSTOP, SIGCONT)", sig_name(sig), sc_verb_name(s->verb));
		return -1;
	}
	if (sig != SIGKILL && group_traced(e, x) && (!thread || sig == SIGSTOP || sig == SIGCONT) &&
	    (thread || sig != SIGCONT || !sigcont_to_seized(e, x))) {
		/* Which thread takes a process-directed signal is the kernel's choice. */
		refuse(e, "%s %s of a traced process: only SIGKILL, tkill with SIGUSR1, "
		       "SIGUSR2 or SIGTERM, or kill SIGCONT of a group whose leader, its only "
		       "live thread, is seized and listens or runs", sc_verb_name(s->verb),
		       sig_name(sig));
		return -1;
	}
	if (T(e, x)->life == ML_DEAD) {
		refuse(e, "%s is gone: its pid may have been reused", tname(e, x));
		return -1;
	}
	/*
	 * pass_signal() waits for the signal-delivery-stop at once.  A tracee
	 * in a ptrace stop dequeues the signal only once resumed, a pending
	 * group stop or trap comes first (get_signal(), kernel/signal.c
	 * :2730-2737), and a queued lower-numbered signal is dequeued before
	 * it (next_signal(), :207-250): the stop would name another signal.
	 */
	if (thread && sig != SIGKILL && T(e, x)->tracer != M_NONE && T(e, x)->life == ML_ALIVE &&
	    (T(e, x)->stop != MS_RUNNING || T(e, x)->stop_pending || T(e, x)->cont_queued ||
	     T(e, x)->in_exit)) {
		refuse(e, "tkill %s of %s: a tracee takes it in a signal-delivery-stop only "
		       "while it runs with no stop or signal before it (cont it first)",
		       sig_name(sig), tname(e, x));
		return -1;
	}
	if (thread)
		r = syscall(SYS_tgkill, T(e, T(e, x)->leader)->tid, T(e, x)->tid, sig);
	else
		r = kill(T(e, x)->tid, sig);
	if (r < 0)
		agent_set(&rep, 0, errno, "%s(%s, %s): %s", sc_verb_name(s->verb), tname(e, x),
			  sig_name(sig), strerror(errno));
	else
		agent_set(&rep, 1, 0, "%s %s to %s", sc_verb_name(s->verb), sig_name(sig),
			  tname(e, x));
	/* A live or zombie task takes a signal (kill_pid_info() finds its pid). */
	if (!outcome(e, s, (struct m_pred){ 0, R_NONE }, &rep, sc_verb_name(s->verb), x))
		return 0;
	if (sig != SIGKILL && thread && T(e, x)->tracer != M_NONE && alive(e, x) &&
	    !e->e[T(e, x)->tracer].external && pass_signal(e, x, sig) < 0)
		return -1;
	if (thread && T(e, x)->life == ML_ZOMBIE)
		e->st.exited_tkills++;
	if (thread)
		m_signal_thread(&e->m, x, sig);
	else
		m_signal(&e->m, x, sig);
	return 0;
}

static int do_exit(struct engine *e, const struct stmt *s, int x, bool group)
{
	int ex = group ? m_alive_thread(&e->m, x) : x;

	if (ex == M_NONE || !alive(e, ex)) {
		refuse(e, "%s has no live thread to exit", tname(e, x));
		return -1;
	}
	if (T(e, x)->leader == x && group && alive(e, x))
		ex = x;
	if (T(e, ex)->stop != MS_RUNNING) {
		refuse(e, "%s is stopped: it cannot exit (cont it first)", tname(e, ex));
		return -1;
	}
	if (start_call(e, ex, REQ(group ? OP_EXIT_GROUP : OP_EXIT, 0, 0, s->num)) < 0)
		return -1;
	/* Exit stops on the way (TRACEEXIT) are passed by settle_stops() after the step. */
	if (group) {
		m_group_exit(&e->m, ex, (int)s->num, 0);
	} else {
		if (T(e, ex)->leader == ex && m_live_threads(&e->m, ex) > 1)
			e->st.leader_exits++;
		m_thread_exit(&e->m, ex, (int)s->num, 0);
	}
	return 0;
}

int v_exit(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]);

	if (x < 0)
		return -1;
	/* A process name means the process, unless "thread" says its leader. */
	return do_exit(e, s, x, T(e, x)->leader == x && !(s->opts & O_THREAD_ONLY));
}

int v_quit(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]);

	return x < 0 ? -1 : do_exit(e, s, x, true);
}

/* The tracers of @x's group's zombie threads collect their reports. */
static int collect_group_tracees(struct engine *e, int x)
{
	struct agent_reply rep;
	bool as_tracer;
	int i, c;

	for (i = 0; i < e->m.n && !e->stop; i++) {
		if (T(e, i)->leader != T(e, x)->leader || i == x || T(e, i)->life != ML_ZOMBIE)
			continue;
		c = m_next_collector(&e->m, i, &as_tracer);
		if (c == M_NONE || !as_tracer || e->e[c].external)
			continue;
		if (call(e, c, REQ(OP_WAIT_TRACEE, pid_for(e, c, i), 0, 0), &rep, NULL) < 0 ||
		    collect_reply(e, c, i, &rep, true) < 0)
			return -1;
	}
	return e->stop ? -1 : 0;
}

/* The scenario record's counts of traced execs (fuzz's reach, docs/fuzz.md). */
static void count_exec(struct engine *e, int x)
{
	int i;

	if (T(e, x)->tracer != M_NONE && e->e[T(e, x)->tracer].external)
		e->st.debugger_execs++;
	for (i = 0; i < e->m.n; i++) {
		if (i != x && T(e, i)->leader == T(e, x)->leader && T(e, i)->life == ML_ALIVE &&
		    T(e, i)->tracer != M_NONE) {
			e->st.group_execs++;
			return;
		}
	}
}

int v_exec(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), lead, tr, r;
	char pname[SC_NAME_LEN];
	struct agent_reply rep;
	struct deadline dl;
	pid_t tid, ns_tid;

	if (x < 0)
		return -1;
	lead = T(e, x)->leader;
	tr = T(e, x)->tracer;
	if (!alive(e, x) || T(e, x)->stop != MS_RUNNING) {
		refuse(e, "%s must be running to exec", tname(e, x));
		return -1;
	}
	snprintf(pname, sizeof(pname), "%s", T(e, lead)->name);
	if (check_sigchld_group(e, lead, "before exec") < 0)
		return -1;
	count_exec(e, x);
	if (start_call(e, x, REQ(OP_EXEC, 0, 0, 0)) < 0)
		return -1;
	m_exec(&e->m, x);
	/*
	 * de_thread() waits until every other thread is released: one traced
	 * with TRACEEXIT stops in PTRACE_EVENT_EXIT first, a traced one is a
	 * zombie until its tracer has its report.
	 */
	if (settle_stops(e) < 0 || collect_group_tracees(e, x) < 0)
		return -1;
	m_exec_done(&e->m, x);
	if (tr != M_NONE && !e->e[tr].external &&
	    ((T(e, x)->ptrace_opts & PTRACE_O_TRACEEXEC) || !T(e, x)->seized)) {
		/*
		 * PTRACE_EVENT_EXEC, or the legacy SIGTRAP after exec: swallowed.
		 * It comes under the thread group id: de_thread() gave the
		 * execing thread the leader's pid (exchange_tids()).
		 */
		if (call(e, tr, REQ(OP_PASS, pid_for(e, tr, x), 0, x == lead ? PASS_SWALLOW :
				    PASS_EXEC_TGID), &rep, NULL) < 0)
			return -1;
		if (!rep.ok) {
			report(e, &(struct fdesc){ .check = "event", .rule = R_EXEC_TAKEOVER,
						   .ntasks = 2, .tasks = { x, tr },
						   .expected = "the exec stop",
						   .observed = rep.msg },
			       "%s: no exec stop of %s", tname(e, tr), tname(e, x));
			return -1;
		}
		e->st.exec_stops++;
	}
	step_deadline(e, &dl, 0);
	r = agent_hello(e->e[x].fd, &tid, &ns_tid, &dl);
	if (r == -ECANCELED) {
		/* execve() itself failed and said so: our resources, not de_thread(). */
		harness_err(e, "exec of %s: %s", tname(e, x), ps_last_error());
		return -1;
	}
	if (r < 0) {
		snapshot_task(e, x);
		report(e, &(struct fdesc){ .check = "event", .rule = R_DE_THREAD, .ntasks = 1,
					   .tasks = { x }, .expected = "execve() completes",
					   .observed = ps_last_error() },
		       "%s did not come back from execve()", tname(e, x));
		return -1;
	}
	e->st.checks++;
	if (tid != T(e, x)->tid) {
		char exp[32], got[32];

		snprintf(exp, sizeof(exp), "tid %d", (int)T(e, x)->tid);
		snprintf(got, sizeof(got), "tid %d", (int)tid);
		report(e, &(struct fdesc){ .check = "event", .rule = R_EXEC_TAKEOVER, .ntasks = 1,
					   .tasks = { x }, .expected = exp, .observed = got },
		       "after execve() %s does not have the thread group id", tname(e, x));
		return -1;
	}
	/*
	 * The process's name now means the task that took over the pid, and
	 * is its name in messages and generated steps: "p3.t1" after its
	 * exec is a process, which the language names "p3" (a generated
	 * "sigchld p3.t1" would not parse).
	 */
	bind_name(e, pname, x);
	snprintf(T(e, x)->name, sizeof(T(e, x)->name), "%s", pname);
	return 0;
}

int v_subreaper(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), w;
	struct agent_reply rep;

	if (x < 0)
		return -1;
	w = m_alive_thread(&e->m, x);
	if (w == M_NONE || T(e, w)->stop != MS_RUNNING) {
		refuse(e, "%s has no running thread to call prctl()", tname(e, x));
		return -1;
	}
	if (call(e, w, REQ(OP_SUBREAPER, 0, 0, !!(s->opts & O_ON)), &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, (struct m_pred){ 0, R_NONE }, &rep, "subreaper", x))
		m_set_subreaper(&e->m, x, s->opts & O_ON);
	return 0;
}

/*
 * sigchld PROC [ignore] [nocldwait]: sigaction(SIGCHLD) by a running thread
 * of PROC, for the whole group (the sighand is shared).
 */
int v_sigchld(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), w;
	struct agent_reply rep;
	int arg = (s->opts & O_IGNORE ? SIGCHLD_IGNORE : 0) |
		  (s->opts & O_NOCLDWAIT ? SIGCHLD_NOCLDWAIT : 0);

	if (x < 0)
		return -1;
	w = m_alive_thread(&e->m, x);
	if (w == M_NONE || T(e, w)->stop != MS_RUNNING) {
		refuse(e, "%s has no running thread to call sigaction()", tname(e, x));
		return -1;
	}
	if (call(e, w, REQ(OP_SIGCHLD_ACT, 0, 0, arg), &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, (struct m_pred){ 0, R_NONE }, &rep, "sigchld", x))
		m_set_sigchld(&e->m, x, s->opts & O_IGNORE, s->opts & O_NOCLDWAIT);
	return 0;
}

/*
 * pdeathsig TASK SIG: PR_SET_PDEATHSIG by that very thread (the parent-death
 * signal is per thread: forget_original_parent() looks at every thread of
 * an orphaned process).  SIGKILL and SIGTERM, whose effect the model knows.
 */
int v_pdeathsig(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]);
	struct agent_reply rep;

	if (x < 0)
		return -1;
	if (s->sig != SIGKILL && s->sig != SIGTERM) {
		refuse(e, "pdeathsig %s is not supported (SIGKILL or SIGTERM)", sig_name(s->sig));
		return -1;
	}
	if (!alive(e, x) || T(e, x)->stop != MS_RUNNING || T(e, x)->in_exit) {
		refuse(e, "%s must be running to call prctl()", tname(e, x));
		return -1;
	}
	if (call(e, x, REQ(OP_PDEATHSIG, 0, s->sig, 0), &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, (struct m_pred){ 0, R_NONE }, &rep, "pdeathsig", x))
		m_set_pdeath_signal(&e->m, x, s->sig);
	return 0;
}

/*
 * reap PROC [TASK]: PROC's thread that the model names waits for TASK's
 * exit report (as its real parent's group, or as its tracer: any zombie
 * whose report is owed to PROC's group), or for the next report due.
 */
int v_reap(struct engine *e, const struct stmt *s)
{
	int p = task_of(e, s->name[0]), w, c = -1, cc, i, named = -1;
	struct agent_reply rep;
	bool as_tracer = false;

	if (p < 0)
		return -1;
	/* A thread named waits itself; for a process, the model picks one. */
	if (T(e, p)->leader != p) {
		named = p;
		p = T(e, p)->leader;
	}
	w = named >= 0 ? named : m_alive_thread(&e->m, p);
	if (w == M_NONE || !alive(e, w) || T(e, w)->in_exit || T(e, w)->stop != MS_RUNNING) {
		refuse(e, "%s has no running thread to wait", tname(e, named >= 0 ? named : p));
		return -1;
	}
	/* strace/gdb collect their tracees' exits on their own, first. */
	if (collect_reports(e, false) < 0)
		return -1;
	if (s->nnames > 1) {
		c = task_of(e, s->name[1]);
		if (c < 0)
			return -1;
		cc = m_next_collector(&e->m, c, &as_tracer);
		/*
		 * A tracee's report: the tracer thread waits, unless another
		 * thread of its group was named (is_effectively_child()).  That
		 * one cannot resume a stop on the way: the report must be due.
		 */
		if (cc >= 0 && as_tracer && m_same_group(&e->m, cc, p) && named < 0)
			w = cc;
		if (as_tracer && w != cc && (T(e, c)->life != ML_ZOMBIE || T(e, c)->stop_report)) {
			refuse(e, "reap: %s is not a zombie: only its tracer thread may wait "
			       "through its stops", tname(e, c));
			return -1;
		}
	} else {
		for (i = 1; i < e->m.n && c < 0; i++) {
			if (m_owed_to(&e->m, w, i) && (m_next_collector(&e->m, i, &as_tracer),
						       !as_tracer))
				c = i;
		}
	}
	if (c < 0 || !m_owed_to(&e->m, w, c)) {
		refuse(e, "reap: the model has no exit report due to %s%s%s: the wait would "
		       "block (a tracer collects first; threads are not reaped)", tname(e, w),
		       c < 0 ? "" : " for ", c < 0 ? "" : tname(e, c));
		return -1;
	}
	if (w != 0 && (T(e, w)->stop != MS_RUNNING || e->e[w].fd < 0)) {
		refuse(e, "reap: %s cannot wait now", tname(e, w));
		return -1;
	}
	if (w == 0) {
		if (r_collects(e, c, &rep) < 0)
			return -1;
		return collect_reply(e, 0, c, &rep, false);
	}
	if (call(e, w, REQ(as_tracer ? OP_WAIT_TRACEE : OP_REAP, pid_for(e, w, c), 0, 0), &rep,
		 NULL) < 0)
		return -1;
	return collect_reply(e, w, c, &rep, as_tracer);
}

/* ---- control ---- */

/* Add the time since *@t0 to the check part @part; *@t0 = now. */
static void check_part(struct engine *e, int part, long long *t0)
{
	long long now = ps_now_ns();

	e->st.check_ns[part] += now - *t0;
	*t0 = now;
}

int v_check(struct engine *e, const struct stmt *s)
{
	long long t0 = ps_now_ns();
	int r;

	(void)s;
	r = check_tasks(e, true, "check");
	check_part(e, CHECK_PART_TASKS, &t0);
	if (r == 0) {
		r = check_sigchld(e, "check");
		check_part(e, CHECK_PART_SIGCHLD, &t0);
	}
	if (r == 0) {
		r = check_pending(e, "check");
		check_part(e, CHECK_PART_PENDING, &t0);
	}
	if (r == 0) {
		check_kernel(e, "check");
		check_part(e, CHECK_PART_KERNEL, &t0);
	}
	return 0;
}

int v_expect(struct engine *e, const struct stmt *s)
{
	return check_expect(e, s);
}

int v_sleep(struct engine *e, const struct stmt *s)
{
	struct deadline dl;
	unsigned int delay = 0;

	(void)e;
	/* In slices: SIGINT must end the run, not the sleep only. */
	dl.sec = 0;
	clock_gettime(CLOCK_MONOTONIC, &dl.end);
	dl.end.tv_sec += s->num / 1000;
	dl.end.tv_nsec += (s->num % 1000) * 1000000L;
	if (dl.end.tv_nsec >= 1000000000L) {
		dl.end.tv_sec++;
		dl.end.tv_nsec -= 1000000000L;
	}
	while (!deadline_expired(&dl) && !ps_stop_signal)
		backoff_sleep(&delay);
	return 0;
}

int v_timeout(struct engine *e, const struct stmt *s)
{
	e->scen_timeout = (int)s->num;
	return 0;
}

int v_step_timeout(struct engine *e, const struct stmt *s)
{
	/* This scenario's; agents get it with each request (agent_req.timeout). */
	e->step_timeout = (int)s->num;
	return 0;
}

int v_kernel(struct engine *e, const struct stmt *s)
{
	/* run.c looked at it before the first step (kernel_skip()). */
	(void)e;
	(void)s;
	return 0;
}
