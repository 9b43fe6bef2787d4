// SPDX-License-Identifier: GPL-2.0
/*
 * The verbs.  Each one: check that the scenario asks something the engine
 * can do (else exit 2: the scenario is wrong, not the kernel), predict the
 * outcome from the model (an attach to a traced task fails with EPERM, a
 * request to a task that is not our stopped tracee with ESRCH), perform it
 * through the agents, compare, and tell the model what happened.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"

static unsigned long ptrace_opts(unsigned int o)
{
	unsigned long r = 0;

	if (o & O_EXITKILL)
		r |= PTRACE_O_EXITKILL;
	if (o & O_SYSGOOD)
		r |= PTRACE_O_TRACESYSGOOD;
	if (o & O_TRACECLONE)
		r |= PTRACE_O_TRACECLONE;
	if (o & O_TRACEFORK)
		r |= PTRACE_O_TRACEFORK;
	if (o & O_TRACEVFORK)
		r |= PTRACE_O_TRACEVFORK;
	if (o & O_TRACEEXEC)
		r |= PTRACE_O_TRACEEXEC;
	if (o & O_TRACEEXIT)
		r |= PTRACE_O_TRACEEXIT;
	return r;
}

static struct mtask *T(int i)
{
	return &eng.m.t[i];
}

static bool alive(int i)
{
	return T(i)->life == ML_ALIVE && !T(i)->exited;
}

/*
 * Compare an agent's outcome with the expected errno (0 = success).  True
 * if the step did what it should *and* succeeded (the caller then updates
 * the model); false otherwise, with a finding when it was not expected.
 */
static bool outcome(const struct stmt *s, int expect, const struct agent_reply *rep,
		    const char *what)
{
	int got = rep->ok ? 0 : rep->err;

	if (s->nfails)
		expect = outcome_ok(s, got) ? got : s->fails[0];
	eng.st.checks++;
	if (got == expect && got && !s->nfails)
		tap_diag("%s:%d: %s failed with %s, as the model predicts", s->loc.file,
			 s->loc.line, what, errno_name(got));
	if (got == expect)
		return got == 0;
	if (expect == 0)
		finding("%s: expected success, observed %s: %s", what, errno_name(got), rep->msg);
	else if (got == 0)
		finding("%s: expected %s, but it succeeded: %s", what, errno_name(expect), rep->msg);
	else
		finding("%s: expected %s, observed %s: %s", what, errno_name(expect),
			errno_name(got), rep->msg);
	return false;
}

/* The signals a step may deliver, and what they do to an untraced group. */
static bool sig_supported(int sig)
{
	return sig == 0 || sig == SIGKILL || sig == SIGTERM || sig == SIGUSR1 || sig == SIGUSR2 ||
	       sig == SIGSTOP || sig == SIGCONT;
}

static void group_stop_state(int proc, enum m_stop st)
{
	int i, lead = T(proc)->leader;

	for (i = 0; i < eng.m.n; i++) {
		if (T(i)->leader == lead && alive(i) && T(i)->tracer == M_NONE)
			m_set_stop(&eng.m, i, st);
	}
}

/* A signal reached @task's group (delivered, not stopped on): model its effect. */
static void signal_effect(int task, int sig)
{
	if (sig == SIGKILL || sig == SIGTERM)
		m_group_exit(&eng.m, task, 0, sig);
	else if (sig == SIGSTOP)
		group_stop_state(task, MS_GROUP);
	else if (sig == SIGCONT)
		group_stop_state(task, MS_RUNNING);
}

static bool group_traced(int proc)
{
	int i, lead = T(proc)->leader;

	for (i = 0; i < eng.m.n; i++) {
		if (T(i)->leader == lead && alive(i) && T(i)->tracer != M_NONE)
			return true;
	}
	return false;
}

/* The errno a ptrace request from @tr on @x must get, by ptrace_check_attach(). */
static int predict_stopped_tracee(int tr, int x)
{
	/* ptrace_freeze_traced() refuses a tracee in JOBCTL_LISTENING too. */
	if (!alive(x) || T(x)->tracer != tr || T(x)->stop != MS_TRACED || T(x)->listening)
		return ESRCH;
	return 0;
}

/* Tracers that would see PTRACE_EVENT_EXIT stops if @proc's group were killed. */
static bool group_traceexit(int proc)
{
	int i, lead = T(proc)->leader;

	for (i = 0; i < eng.m.n; i++) {
		if (T(i)->leader == lead && alive(i) && T(i)->tracer != M_NONE &&
		    !eng.e[T(i)->tracer].external && (T(i)->ptrace_opts & PTRACE_O_TRACEEXIT))
			return true;
	}
	return false;
}

/*
 * A fatal signal to a group with traceexit tracees: whether each thread
 * stops in PTRACE_EVENT_EXIT with SIGKILL pending changed across kernels
 * (ptrace_stop() and __fatal_signal_pending()); the engine does not guess.
 */
static int refuse_traceexit_kill(int proc)
{
	if (!group_traceexit(proc))
		return 0;
	bad_scenario("a fatal signal to %s, which has threads traced with traceexit, is not "
		     "supported (exit it instead)", tname(proc));
	return -1;
}

/* ptrace_attach(): who may not attach. */
static int predict_attach(int tr, int x)
{
	if (T(x)->life == ML_DEAD)
		return ESRCH;
	/* exit_state set (also a leader waiting for its threads), already traced, our group. */
	if (T(x)->exited || T(x)->tracer != M_NONE || T(tr)->leader == T(x)->leader)
		return EPERM;
	return 0;
}

static int v_trace(const struct stmt *s, int tr, int x)
{
	bool seize = s->verb == V_SEIZE;
	unsigned long opts = ptrace_opts(s->opts);
	struct agent_reply rep;

	/*
	 * ptrace_attach() re-traps a group-stopped task (JOBCTL_TRAP_STOP) and
	 * does not check PF_EXITING: the first would need its own stop
	 * bookkeeping, the second never stops at all.
	 */
	if (alive(x) && T(x)->stop == MS_GROUP) {
		bad_scenario("%s of the group-stopped %s is not supported", sc_verb_name(s->verb),
			     tname(x));
		return -1;
	}
	if (m_zapping(&eng.m, x)) {
		bad_scenario("%s of %s, which sleeps in zap_pid_ns_processes(), is not supported",
			     sc_verb_name(s->verb), tname(x));
		return -1;
	}
	struct agent_req *req = REQ(seize ? OP_SEIZE : OP_ATTACH, pid_for(tr, x), 0, (long)opts);

	if (call(tr, req, &rep, NULL) < 0)
		return -1;
	if (outcome(s, predict_attach(tr, x), &rep, agent_op_name(req->op))) {
		m_trace(&eng.m, tr, x, opts, seize);
		m_set_stop(&eng.m, x, MS_RUNNING);
	}
	return 0;
}

static int v_traceme(int x)
{
	struct agent_reply rep;
	int parent = T(T(x)->leader)->real_parent;

	if (parent <= 0 || eng.e[parent].fd < 0) {
		bad_scenario("traceme: the real parent of %s must be an agent, not R", tname(x));
		return -1;
	}
	if (call(x, REQ(OP_TRACEME, 0, 0, 0), &rep, NULL) < 0)
		return -1;
	if (outcome(eng.cur, T(x)->tracer != M_NONE ? EPERM : 0, &rep, "PTRACE_TRACEME"))
		m_trace(&eng.m, parent, x, 0, false);
	return 0;
}

/* Bring tracee @x of @tr into a ptrace-stop (PTRACE_INTERRUPT or SIGSTOP). */
static int stop_tracee(const struct stmt *s, int tr, int x, bool check)
{
	struct agent_reply rep;
	int expect;

	struct agent_req *req = REQ(OP_STOP, pid_for(tr, x), 0, T(x)->seized);
	/* PTRACE_INTERRUPT only needs the tracee to be ours, stopped or not. */
	expect = alive(x) && T(x)->tracer == tr ? 0 : ESRCH;
	/* PTRACE_INTERRUPT ends PTRACE_LISTEN: the tracee re-traps. */
	if (T(x)->stop == MS_TRACED && !expect && !T(x)->listening) {
		bad_scenario("%s is already stopped by %s", tname(x), tname(tr));
		return -1;
	}
	if (!expect && !T(x)->seized && T(x)->stop != MS_RUNNING) {
		bad_scenario("%s: cannot stop an attached tracee that is not running", tname(x));
		return -1;
	}
	if (call(tr, req, &rep, NULL) < 0)
		return -1;
	if (!check && !rep.ok) {
		finding("stopping %s before the detach: %s", tname(x), rep.msg);
		return -1;
	}
	if (check && !outcome(s, expect, &rep, "interrupt"))
		return -1;
	m_set_stop(&eng.m, x, MS_TRACED);
	T(x)->listening = false;
	/* A signal given to the resume is delivered from a signal-delivery-stop only. */
	eng.e[x].deliver_sig = WIFSTOPPED(rep.status) && (rep.status >> 16) == 0 &&
			       (WSTOPSIG(rep.status) & 0x7f) != SIGTRAP;
	return 0;
}

static int v_resume(const struct stmt *s, int tr, int x, enum agent_op op)
{
	const char *verb = agent_op_name(op);
	struct agent_req *req;
	struct agent_reply rep;
	int sig = s->sig;
	bool deliver;

	if (!sig_supported(sig) || (sig == SIGSTOP && s->verb != V_DETACH) || sig == SIGCONT) {
		bad_scenario("%s with %s is not supported", verb, sig_name(sig));
		return -1;
	}
	if (s->verb == V_DETACH && alive(x) && T(x)->tracer == tr && T(x)->stop != MS_TRACED) {
		/* PTRACE_DETACH needs a ptrace-stop (ptrace_check_attach()). */
		if (stop_tracee(s, tr, x, false) < 0)
			return -1;
	}
	if ((sig == SIGKILL || sig == SIGTERM) && refuse_traceexit_kill(x) < 0)
		return -1;
	deliver = eng.e[x].deliver_sig;
	req = REQ(op, pid_for(tr, x), sig, 0);
	if (start_call(tr, req) < 0)
		return -1;
	/*
	 * An idle agent sits in recv(): the syscall-exit-stop or the step
	 * trap only comes when that returns, so give it a message it does
	 * not answer.
	 */
	if ((s->verb == V_SYSCALL || s->verb == V_SINGLESTEP) && alive(x) &&
	    eng.e[x].fd >= 0 && agent_send(eng.e[x].fd, REQ(OP_NOP, 0, 0, 0)) < 0) {
		harness_err("%s: %s", tname(x), ps_last_error());
		return -1;
	}
	if (finish(tr, req, &rep, NULL) < 0)
		return -1;
	if (!outcome(s, predict_stopped_tracee(tr, x), &rep, verb))
		return 0;
	if (s->verb == V_DETACH) {
		m_untrace(&eng.m, x);
	} else if (s->verb == V_LISTEN) {
		T(x)->listening = true;
		T(x)->stop_known = false;	/* listening: 't', but not promised */
	}
	if (s->verb == V_SYSCALL || s->verb == V_SINGLESTEP)
		/* ptrace_report_syscall() and the step's SIGTRAP deliver a resume signal. */
		eng.e[x].deliver_sig = true;
	if (s->verb != V_LISTEN && s->verb != V_SYSCALL && s->verb != V_SINGLESTEP)
		m_set_stop(&eng.m, x, MS_RUNNING);
	/* From PTRACE_EVENT_STOP the signal is dropped (ptrace_do_notify()). */
	if (sig && deliver)
		signal_effect(x, sig);
	else if (sig)
		tap_diag("%s:%d: %s is dropped: %s was not in a signal-delivery-stop",
			 s->loc.file, s->loc.line, sig_name(sig), tname(x));
	return 0;
}

static int v_ptrace_kill(const struct stmt *s, int tr, int x)
{
	struct agent_reply rep;
	int expect = alive(x) && T(x)->tracer == tr ? 0 : ESRCH;

	if (!expect && refuse_traceexit_kill(x) < 0)
		return -1;
	if (call(tr, REQ(OP_PTRACE_KILL, pid_for(tr, x), 0, 0), &rep, NULL) < 0)
		return -1;
	/* 6.1: PTRACE_KILL sends SIGKILL (ptrace_request(), since 5.19). */
	if (outcome(s, expect, &rep, "ptrace-kill"))
		m_group_exit(&eng.m, x, 0, SIGKILL);
	return 0;
}

static int v_race_attach(const struct stmt *s)
{
	int t1 = task_of(s->name[0]), t2 = task_of(s->name[1]), x = task_of(s->name[2]);
	struct agent_reply r1, r2;
	int w, pred;

	if (t1 < 0 || t2 < 0 || x < 0)
		return -1;
	struct agent_req *q1 = REQ(OP_ATTACH, pid_for(t1, x), 0, 0);
	struct agent_req *q2 = REQ(OP_ATTACH, pid_for(t2, x), 0, 0);

	if (start_call(t1, q1) < 0 || start_call(t2, q2) < 0 || finish(t1, q1, &r1, NULL) < 0 ||
	    finish(t2, q2, &r2, NULL) < 0)
		return -1;
	eng.st.checks++;
	pred = predict_attach(t1, x);
	if (pred) {
		/* Nobody may win: both get the model's errno. */
		if (r1.ok || r2.ok || r1.err != pred || r2.err != pred)
			finding("race-attach: expected %s for both, observed %s / %s: %s | %s",
				errno_name(pred), r1.ok ? "ok" : errno_name(r1.err),
				r2.ok ? "ok" : errno_name(r2.err), r1.msg, r2.msg);
		return 0;
	}
	/* ptrace_attach() under cred_guard and tasklist_lock: exactly one wins. */
	if (r1.ok + r2.ok != 1 || (!r1.ok && r1.err != EPERM) || (!r2.ok && r2.err != EPERM)) {
		finding("race-attach: expected one success and one EPERM, observed %s / %s: "
			"%s | %s", r1.ok ? "ok" : errno_name(r1.err),
			r2.ok ? "ok" : errno_name(r2.err), r1.msg, r2.msg);
		return 0;
	}
	w = r1.ok ? t1 : t2;
	m_trace(&eng.m, w, x, 0, false);
	m_set_stop(&eng.m, x, MS_RUNNING);
	logf_("  race won by %s", tname(w));
	return 0;
}

/* A traced task's tracer must pass the stop a signal causes. */
static int pass_signal(int x, int sig)
{
	struct agent_reply rep;
	int tr = T(x)->tracer;

	if (call(tr, REQ(OP_PASS, pid_for(tr, x), 0, PASS_DELIVER), &rep, NULL) < 0)
		return -1;
	eng.st.checks++;
	if (!rep.ok || !WIFSTOPPED(rep.status) || WSTOPSIG(rep.status) != sig) {
		finding("%s: expected the signal-delivery-stop of %s to %s, observed: %s",
			tname(tr), sig_name(sig), tname(x), rep.msg);
		return -1;
	}
	return 0;
}

static int v_kill(const struct stmt *s, int x)
{
	bool thread = s->verb == V_TKILL;
	int sig = s->sig, r;

	if (!sig_supported(sig) || !sig) {
		bad_scenario("signal %s is not supported by %s", sig_name(sig),
			     sc_verb_name(s->verb));
		return -1;
	}
	if (sig != SIGKILL && group_traced(x) && (!thread || sig == SIGSTOP || sig == SIGCONT)) {
		/* Which thread takes a process-directed signal is the kernel's choice. */
		bad_scenario("%s %s of a traced process: only SIGKILL, or tkill with SIGUSR1, "
			     "SIGUSR2 or SIGTERM", sc_verb_name(s->verb), sig_name(sig));
		return -1;
	}
	if (T(x)->life == ML_DEAD) {
		bad_scenario("%s is gone: its pid may have been reused", tname(x));
		return -1;
	}
	if ((sig == SIGKILL || sig == SIGTERM) && refuse_traceexit_kill(x) < 0)
		return -1;
	if (thread)
		r = syscall(SYS_tgkill, T(T(x)->leader)->tid, T(x)->tid, sig);
	else
		r = kill(T(x)->tid, sig);
	eng.st.checks++;
	if (r < 0) {
		finding("%s(%s, %s): %s", sc_verb_name(s->verb), tname(x), sig_name(sig),
			strerror(errno));
		return -1;
	}
	if (sig != SIGKILL && thread && T(x)->tracer != M_NONE && alive(x) &&
	    !eng.e[T(x)->tracer].external && pass_signal(x, sig) < 0)
		return -1;
	signal_effect(x, sig);
	return 0;
}

/* Tracers waiting in PTRACE_EVENT_EXIT stops of @proc's exiting threads. */
static int pass_exit_stops(int executor)
{
	struct agent_reply rep;
	int tr = T(executor)->tracer;

	/*
	 * Only the thread that calls exit stops: the others are SIGKILLed
	 * (zap_other_threads()) and ptrace_stop() does not stop a task with
	 * a fatal signal pending.
	 */
	if (tr == M_NONE || !(T(executor)->ptrace_opts & PTRACE_O_TRACEEXIT) ||
	    eng.e[tr].external)
		return 0;
	if (call(tr, REQ(OP_PASS, pid_for(tr, executor), 0, PASS_DELIVER), &rep, NULL) < 0)
		return -1;
	if (!rep.ok) {
		finding("%s: no PTRACE_EVENT_EXIT stop of %s: %s", tname(tr), tname(executor),
			rep.msg);
		return -1;
	}
	return 0;
}

static int v_exit(const struct stmt *s, int x, bool group)
{
	int ex = group ? m_alive_thread(&eng.m, x) : x;
	bool r;

	if (ex == M_NONE || !alive(ex)) {
		bad_scenario("%s has no live thread to exit", tname(x));
		return -1;
	}
	if (T(x)->leader == x && group && alive(x))
		ex = x;
	if (T(ex)->stop != MS_RUNNING) {
		bad_scenario("%s is stopped: it cannot exit (cont it first)", tname(ex));
		return -1;
	}
	if (group) {
		int saved = T(ex)->tracer;

		/* The executor's own EVENT_EXIT stop is passed below; its siblings get SIGKILL. */
		T(ex)->tracer = M_NONE;
		r = group_traceexit(ex);
		T(ex)->tracer = saved;
		if (r && refuse_traceexit_kill(x) < 0)
			return -1;
	}
	if (start_call(ex, REQ(group ? OP_EXIT_GROUP : OP_EXIT, 0, 0, s->num)) < 0)
		return -1;
	if (pass_exit_stops(ex) < 0)
		return -1;
	if (group)
		m_group_exit(&eng.m, ex, (int)s->num, 0);
	else
		m_thread_exit(&eng.m, ex, (int)s->num, 0);
	return 0;
}

/* The tracers of @x's group's zombie threads collect their reports. */
static int collect_group_tracees(int x)
{
	struct agent_reply rep;
	bool as_tracer;
	int i, c;

	for (i = 0; i < eng.m.n; i++) {
		if (T(i)->leader != T(x)->leader || i == x || T(i)->life != ML_ZOMBIE)
			continue;
		c = m_next_collector(&eng.m, i, &as_tracer);
		if (c == M_NONE || !as_tracer || eng.e[c].external)
			continue;
		if (call(c, REQ(OP_WAIT_TRACEE, pid_for(c, i), 0, 0), &rep, NULL) < 0 || collect_reply(c, i, &rep, true) < 0)
			return -1;
	}
	return 0;
}

static int v_exec(int x)
{
	int lead = T(x)->leader, tr = T(x)->tracer, r;
	char pname[SC_NAME_LEN];
	struct agent_reply rep;
	struct deadline dl;
	pid_t tid, ns_tid;

	if (!alive(x) || T(x)->stop != MS_RUNNING) {
		bad_scenario("%s must be running to exec", tname(x));
		return -1;
	}
	snprintf(pname, sizeof(pname), "%s", T(lead)->name);
	if (start_call(x, REQ(OP_EXEC, 0, 0, 0)) < 0)
		return -1;
	m_exec(&eng.m, x);
	/*
	 * de_thread() waits until every other thread is released: a traced
	 * one is a zombie until its tracer has its report.
	 */
	if (collect_group_tracees(x) < 0)
		return -1;
	if (tr != M_NONE && !eng.e[tr].external && ((T(x)->ptrace_opts & PTRACE_O_TRACEEXEC) || !T(x)->seized)) {
		/*
		 * PTRACE_EVENT_EXEC, or the legacy SIGTRAP after exec: swallowed.
		 * It comes under the thread group id: de_thread() gave the
		 * execing thread the leader's pid (exchange_tids()).
		 */
		if (call(tr, REQ(OP_PASS, pid_for(tr, x), 0, x == lead ? PASS_SWALLOW :
				 PASS_EXEC_TGID), &rep, NULL) < 0)
			return -1;
		if (!rep.ok) {
			finding("%s: no exec stop of %s: %s", tname(tr), tname(x), rep.msg);
			return -1;
		}
	}
	deadline_start(&dl, eng.step_timeout);
	r = agent_hello(eng.e[x].fd, &tid, &ns_tid, &dl);
	if (r < 0) {
		finding("%s did not come back from execve(): %s", tname(x), ps_last_error());
		return -1;
	}
	eng.st.checks++;
	if (tid != T(x)->tid) {
		finding("after execve() %s has tid %d, expected the thread group id %d",
			tname(x), (int)tid, (int)T(x)->tid);
		return -1;
	}
	/* The process's name now means the task that took over the pid. */
	bind_name(pname, x);
	return 0;
}

static int v_reap(const struct stmt *s, int p)
{
	int w = m_alive_thread(&eng.m, p), c = -1, i;
	struct agent_reply rep;
	bool as_tracer;

	if (w == M_NONE) {
		bad_scenario("%s has no live thread to wait", tname(p));
		return -1;
	}
	/* strace/gdb collect their tracees' exits on their own, first. */
	if (collect_reports(false) < 0)
		return -1;
	if (s->nnames > 1) {
		c = task_of(s->name[1]);
		if (c < 0)
			return -1;
	} else {
		for (i = 1; i < eng.m.n && c < 0; i++) {
			if (m_owed_to(&eng.m, w, i) && (m_next_collector(&eng.m, i, &as_tracer),
							!as_tracer))
				c = i;
		}
	}
	if (c < 0 || !m_owed_to(&eng.m, w, c)) {
		bad_scenario("reap: the model has no exit report due to %s%s%s: the wait would "
			     "block", tname(p), c < 0 ? "" : " for ", c < 0 ? "" : tname(c));
		return -1;
	}
	if (w == 0) {
		if (r_collects(c, &rep) < 0)
			return -1;
		return collect_reply(0, c, &rep, false);
	}
	if (call(w, REQ(OP_REAP, pid_for(w, c), 0, 0), &rep, NULL) < 0)
		return -1;
	return collect_reply(w, c, &rep, false);
}

int run_verb(const struct stmt *s)
{
	int a = -1, b = -1;

	switch (s->verb) {
	case V_SEIZE: case V_ATTACH: case V_INTERRUPT: case V_LISTEN: case V_CONT:
	case V_SYSCALL: case V_SINGLESTEP: case V_DETACH: case V_PTRACE_KILL:
		a = task_of(s->name[0]);
		b = task_of(s->name[1]);
		if (a < 0 || b < 0)
			return -1;
		break;
	case V_TRACEME: case V_KILL: case V_TKILL: case V_EXIT: case V_EXEC: case V_SUBREAPER:
	case V_REAP: case V_QUIT:
		a = task_of(s->name[0]);
		if (a < 0)
			return -1;
		break;
	default:
		break;
	}
	switch (s->verb) {
	case V_PROCESS:
	case V_TRACER:
		return pop_process(s);
	case V_TREE:
		return pop_tree(s);
	case V_THREAD:
		return pop_thread(s);
	case V_SEIZE:
	case V_ATTACH:
		return v_trace(s, a, b);
	case V_TRACEME:
		return v_traceme(a);
	case V_INTERRUPT:
		return stop_tracee(s, a, b, true);
	case V_LISTEN:
		return v_resume(s, a, b, OP_LISTEN);
	case V_CONT:
		return v_resume(s, a, b, OP_CONT);
	case V_SYSCALL:
		return v_resume(s, a, b, OP_SYSCALL);
	case V_SINGLESTEP:
		return v_resume(s, a, b, OP_SINGLESTEP);
	case V_DETACH:
		return v_resume(s, a, b, OP_DETACH);
	case V_PTRACE_KILL:
		return v_ptrace_kill(s, a, b);
	case V_RACE_ATTACH:
		return v_race_attach(s);
	case V_KILL:
	case V_TKILL:
		return v_kill(s, a);
	case V_EXIT:
		/* A process name means the process, unless "thread" says its leader. */
		return v_exit(s, a, T(a)->leader == a && !(s->opts & O_THREAD_ONLY));
	case V_QUIT:
		return v_exit(s, a, true);
	case V_EXEC:
		return v_exec(a);
	case V_SUBREAPER: {
		struct agent_reply rep;
		int w = m_alive_thread(&eng.m, a);

		if (w == M_NONE || call(w, REQ(OP_SUBREAPER, 0, 0, !!(s->opts & O_ON)), &rep,
					NULL) < 0)
			return -1;
		if (outcome(s, 0, &rep, "subreaper"))
			m_set_subreaper(&eng.m, a, s->opts & O_ON);
		return 0;
	}
	case V_REAP:
		return v_reap(s, a);
	case V_STRACE:
		return ext_strace(s);
	case V_GDB:
		return ext_gdb(s);
	case V_STOP:
		return ext_stop(s);
	case V_WAIT:
		return ext_wait(s);
	case V_CHECK:
		if (check_tasks(true, "check") == 0)
			check_kernel("check");
		return 0;
	case V_EXPECT:
		return check_expect(s);
	case V_SLEEP: {
		struct deadline dl;
		unsigned int delay = 0;

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
		if (ps_stop_signal)
			harness_err("interrupted by %s", sig_name(ps_stop_signal));
		return 0;
	}
	case V_STRESS:
		return run_stress(s);
	case V_TIMEOUT:
		eng.scen_timeout = (int)s->num;
		return 0;
	case V_STEP_TIMEOUT:
		eng.step_timeout = (int)s->num;
		/* Agents created from now on inherit it with ps_config. */
		ps_config.timeout_sec = (int)s->num;
		return 0;
	case V_REPEAT:
	case V_NR_VERBS:
		break;
	}
	return 0;
}
