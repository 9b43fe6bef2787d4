// SPDX-License-Identifier: GPL-2.0
/*
 * The tracer verbs (verbs.h): seize, attach, traceme, interrupt, listen,
 * cont, syscall, singlestep, detach, ptrace-kill, race-attach; and what
 * every step leaves for the tracers (exit stops, group-stop traps).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "engine/diff.h"
#include "engine/verbs.h"
#include "lib/links.h"

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
	if (o & O_TRACEVFORKDONE)
		r |= PTRACE_O_TRACEVFORKDONE;
	return r;
}

static bool fails_ok(const struct stmt *s, int err)
{
	int i;

	for (i = 0; i < s->nfails; i++)
		if (s->fails[i] == err)
			return true;
	return false;
}

static const char *err_or_ok(int err)
{
	return err ? errno_name(err) : "success";
}

bool outcome(struct engine *e, const struct stmt *s, struct m_pred p,
	     const struct agent_reply *rep, const char *what, int task)
{
	int got = rep->ok ? 0 : rep->err;
	char exp[96];
	int k;

	e->st.checks++;
	if (s->nfails) {
		/* The scenario's own expectation is an oracle too. */
		if (fails_ok(s, got)) {
			/* ... and so is the model: both must agree with the kernel. */
			if (got == p.err)
				return got == 0;
			report(e, &(struct fdesc){ .check = "outcome", .rule = p.rule,
						   .ntasks = 1, .tasks = { task },
						   .expected = err_or_ok(p.err),
						   .observed = err_or_ok(got) },
			       "%s: %s, as the scenario says, but the model predicts %s: %s", what,
			       err_or_ok(got), err_or_ok(p.err), rep->msg);
			return false;
		}
		k = snprintf(exp, sizeof(exp), "fails %s", errno_name(s->fails[0]));
		for (int i = 1; i < s->nfails && k > 0 && (size_t)k < sizeof(exp); i++)
			k += snprintf(exp + k, sizeof(exp) - k, "|%s", errno_name(s->fails[i]));
		/*
		 * Rule "none" only when the model agrees with the kernel: then the
		 * clause alone is wrong (a minimizer's candidate whose steps no
		 * longer lead to it, say), which is no finding of the kernel's;
		 * else the model's rule, so that the two never share a signature.
		 */
		report(e, &(struct fdesc){ .check = "fails",
					   .rule = got == p.err ? R_NONE : p.rule, .ntasks = 1,
					   .tasks = { task }, .expected = exp,
					   .observed = err_or_ok(got) },
		       "%s: the scenario expects it to fail, the kernel says %s%s: %s", what,
		       err_or_ok(got), got == p.err ? ", as the model predicts" : "", rep->msg);
		return false;
	}
	if (got == p.err) {
		if (got)
			tap_diag("%s:%d: %s failed with %s, as the model predicts", s->loc.file,
				 s->loc.line, what, errno_name(got));
		return got == 0;
	}
	report(e, &(struct fdesc){ .check = "outcome", .rule = p.rule, .ntasks = 1,
				   .tasks = { task }, .expected = err_or_ok(p.err),
				   .observed = err_or_ok(got) },
	       "%s: expected %s, observed %s: %s", what, err_or_ok(p.err), err_or_ok(got),
	       rep->msg);
	return false;
}

bool sig_supported(int sig)
{
	return sig == 0 || sig == SIGKILL || sig == SIGTERM || sig == SIGUSR1 || sig == SIGUSR2 ||
	       sig == SIGSTOP || sig == SIGCONT;
}

/* Can agent @tr name task @x?  A tracer inside a pid namespace sees it and those nested in it. */
static int reachable(struct engine *e, int tr, int x)
{
	if (m_ns_within(&e->m, T(e, x)->ns, T(e, tr)->ns))
		return 0;
	refuse(e, "%s is inside a pid namespace and %s is not: ptrace() looks pids up in the "
	       "caller's namespace (find_get_task_by_vpid()), where it has none", tname(e, tr),
	       tname(e, x));
	return -1;
}

/* ---- what a step leaves for the tracers ---- */

/* The tracer of @x is an agent that can act now; else refuse (or -2: not ours). */
static int tracer_ready(struct engine *e, int x)
{
	int tr = T(e, x)->tracer;

	if (tr >= 0 && e->e[tr].external)
		return -2;
	if (tr < 0 || !alive(e, tr) || T(e, tr)->stop != MS_RUNNING || e->e[tr].fd < 0) {
		refuse(e, "%s is stopped in ptrace and its tracer %s cannot resume it now",
		       tname(e, x), tname(e, tr));
		return -1;
	}
	return tr;
}

/* PTRACE_EVENT_EXIT stops: every one is passed by its tracer, as a debugger does. */
static int pass_exit_stops(struct engine *e, bool *progress)
{
	struct agent_reply rep;
	struct wait_event ev;
	int x, tr;

	while ((x = m_next_exit_stop(&e->m, 0)) != M_NONE && !e->stop) {
		*progress = true;
		tr = tracer_ready(e, x);
		if (tr == -1)
			return -1;
		if (tr == -2) {
			/* strace/gdb pass it on their own. */
			m_exit_stop_passed(&e->m, x);
			continue;
		}
		if (call(e, tr, REQ(OP_PASS, pid_for(e, tr, x), 0, PASS_EXIT_STOP), &rep, NULL) < 0)
			return -1;
		ev = classify_wait_status(rep.status);
		e->st.checks++;
		if (!rep.ok || ev.kind != WK_EVENT_STOP || ev.event != PTRACE_EVENT_EXIT) {
			report(e, &(struct fdesc){ .check = "event", .rule = R_EXIT_STOP,
						   .ntasks = 2, .tasks = { x, tr },
						   .expected = "PTRACE_EVENT_EXIT stop",
						   .observed = rep.msg },
			       "%s: no PTRACE_EVENT_EXIT stop of %s", tname(e, tr), tname(e, x));
			return -1;
		}
		m_exit_stop_passed(&e->m, x);
	}
	return e->stop ? -1 : 0;
}

/* Group-stop traps: the tracer waits for each, and it must be the kind the model says. */
static int collect_group_traps(struct engine *e, bool *progress)
{
	struct agent_reply rep;
	struct wait_event ev;
	int x, k, tr;
	bool ok;

	M_FOR_UNREL(&e->m, k, x) {
		if (e->stop)
			break;
		if (!x || !T(e, x)->stop_report || T(e, x)->life != ML_ALIVE)
			continue;
		*progress = true;
		tr = tracer_ready(e, x);
		if (tr == -1)
			return -1;
		if (tr == -2) {
			m_stop_collected(&e->m, x);
			continue;
		}
		if (call(e, tr, REQ(OP_WAIT_STOP, pid_for(e, tr, x), 0, 0), &rep, NULL) < 0)
			return -1;
		ev = classify_wait_status(rep.status);
		e->st.checks++;
		/*
		 * do_jobctl_trap(): seized, PTRACE_EVENT_STOP with the stop
		 * signal; else a plain stop.
		 */
		ok = rep.ok && (T(e, x)->notify_trap ?
				ev.kind == WK_EVENT_STOP && ev.event == PTRACE_EVENT_STOP &&
				ev.sig == SIGTRAP :
				T(e, x)->seized ? ev.kind == WK_GROUP_STOP && ev.sig == SIGSTOP :
				ev.kind == WK_SIGNAL_STOP && ev.sig == SIGSTOP && !ev.event);
		if (!ok && T(e, x)->notify_trap) {
			report(e, &(struct fdesc){ .check = "event", .rule = R_SIGCONT_NOTIFY,
						   .ntasks = 2, .tasks = { x, tr },
						   .expected = "PTRACE_EVENT_STOP with SIGTRAP",
						   .observed = rep.msg },
			       "%s: no SIGCONT re-trap (JOBCTL_TRAP_NOTIFY) of %s", tname(e, tr),
			       tname(e, x));
			return -1;
		}
		if (!ok) {
			report(e, &(struct fdesc){ .check = "event", .rule = R_GROUP_STOP,
						   .ntasks = 2, .tasks = { x, tr },
						   .expected = T(e, x)->seized ?
						   "group-stop(SIGSTOP) with PTRACE_EVENT_STOP" :
						   "a SIGSTOP stop without an event",
						   .observed = rep.msg },
			       "%s: no group-stop trap of %s", tname(e, tr), tname(e, x));
			return -1;
		}
		m_stop_collected(&e->m, x);
	}
	return e->stop ? -1 : 0;
}

/*
 * A tracee untraced with a SIGCONT queued (a detach, or its tracer's exit:
 * exit_ptrace()) dequeues it untraced, and its default action ignores it
 * (get_signal(), kernel/signal.c) -- but only once it runs: a tracer that
 * seizes it before that gets the SIGCONT's signal-delivery-stop.  Wait for
 * the dequeue (SigPnd | ShdPnd without SIGCONT), which the wakeup in
 * __ptrace_unlink() promises.  0, or -1 (a finding, or our error).
 */
static int sigcont_dequeued(struct engine *e, int x)
{
	unsigned long long mask = 0;
	unsigned int delay = 0;
	struct deadline dl;
	int r;

	step_deadline(e, &dl, 0);
	for (;;) {
		r = status_pending(T(e, T(e, x)->leader)->tid, T(e, x)->tid, &mask);
		if (r == -ESRCH || (r == 0 && !(mask & (1ULL << (SIGCONT - 1)))))
			return 0;
		if (r < 0) {
			harness_err(e, "%s: cannot read its pending signals: %s", tname(e, x),
				    strerror(-r));
			return -1;
		}
		if (ps_stop_signal)
			return -1;
		if (deadline_expired(&dl))
			break;
		backoff_sleep(&delay);
	}
	report(e, &(struct fdesc){ .check = "proc", .rule = R_UNLINK_WAKE, .ntasks = 1,
				   .tasks = { x }, .expected = "SIGCONT dequeued",
				   .observed = "SIGCONT still pending" },
	       "%s: untraced with a SIGCONT queued, which it never dequeued", tname(e, x));
	return -1;
}

int settle_stops(struct engine *e)
{
	bool progress = true;
	int i;

	while (progress && !e->stop) {
		progress = false;
		if (pass_exit_stops(e, &progress) < 0 || collect_group_traps(e, &progress) < 0)
			return -1;
	}
	/*
	 * Only a task that runs dequeues it: one stopped again, exiting or
	 * gone (a zombie keeps its pending set) has nothing to wait for.
	 */
	for (i = 0; i < e->m.n && e->m.ncont_untraced && !e->stop; i++) {
		if (!T(e, i)->cont_untraced)
			continue;
		if (alive(e, i) && !T(e, i)->in_exit && T(e, i)->stop == MS_RUNNING &&
		    sigcont_dequeued(e, i) < 0)
			return -1;
		m_sigcont_ignored(&e->m, i);
	}
	return e->stop ? -1 : 0;
}

/* ---- seize, attach, traceme ---- */

/* Attaches the engine does not run; true (and the run refused) for those. */
static bool attach_refused(struct engine *e, const struct stmt *s, int x)
{
	/* A released task's pid may name another process by now: never attach to it. */
	if (T(e, x)->life == ML_DEAD) {
		refuse(e, "%s of %s, which is gone: its pid may have been reused",
		       sc_verb_name(s->verb), tname(e, x));
		return true;
	}
	/* race-attach's op takes one plain SIGSTOP stop, not the re-trap and the SIGSTOP */
	if (alive(e, x) && T(e, x)->stop == MS_GROUP && s->verb == V_RACE_ATTACH) {
		refuse(e, "race-attach of the group-stopped %s is not supported (attach and "
		       "seize are)", tname(e, x));
		return true;
	}
	if (m_zapping(&e->m, x)) {
		refuse(e, "%s of %s, which may sleep in zap_pid_ns_processes(), is not supported",
		       sc_verb_name(s->verb), tname(e, x));
		return true;
	}
	return false;
}

/*
 * PTRACE_ATTACH of the group-stopped @x by @tr: op_attach() found it
 * trapped when the attach returned, took that group-stop re-trap (no
 * siginfo), then the queued SIGSTOP's signal-delivery-stop, and resumed
 * it with 0 (attach-retraps-group-stopped).
 */
static void attached_stopped(struct engine *e, int tr, int x, const struct agent_reply *rep)
{
	unsigned long want = m_attached_stopped(&e->m, x) ? ATTACH_SAW_ALL : 0;

	e->st.checks++;
	if (want && rep->msg_val != want)
		report(e, &(struct fdesc){ .check = "event", .rule = R_ATTACH_RETRAPS,
					   .ntasks = 2, .tasks = { x, tr },
					   .expected = "a group-stop re-trap (no siginfo), then "
					   "SIGSTOP's signal-delivery-stop",
					   .observed = rep->msg },
		       "%s: PTRACE_ATTACH of the group-stopped %s: %s", tname(e, tr),
		       tname(e, x), !(rep->msg_val & ATTACH_SAW_TRAPPED) ?
		       "not trapped when the attach returned" :
		       !(rep->msg_val & ATTACH_SAW_GROUP_TRAP) ?
		       "the first stop had siginfo (no group-stop re-trap)" :
		       "the second stop was not the queued SIGSTOP's");
}

int v_trace(struct engine *e, const struct stmt *s)
{
	int tr = task_of(e, s->name[0]), x = task_of(e, s->name[1]);
	bool seize = s->verb == V_SEIZE, stopped;
	unsigned long opts = ptrace_opts(s->opts);
	struct agent_reply rep;
	struct agent_req *req;
	struct m_pred p;

	if (tr < 0 || x < 0 || reachable(e, tr, x) < 0 || attach_refused(e, s, x))
		return -1;
	stopped = alive(e, x) && T(e, x)->stop == MS_GROUP;
	p = m_predict_attach(&e->m, tr, x);
	/* A group-stopped task: op_attach() takes the re-trap, then the queued SIGSTOP. */
	req = REQ(seize ? OP_SEIZE : OP_ATTACH, pid_for(e, tr, x),
		  stopped && !seize ? ATTACH_GROUP_STOPPED : 0, (long)opts);
	if (call(e, tr, req, &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, p, &rep, sc_verb_name(s->verb), x)) {
		m_trace(&e->m, tr, x, opts, seize, R_ATTACH_LINK);
		if (stopped && seize)
			m_seized_stopped(&e->m, x);	/* settle_stops() waits for the trap */
		else if (stopped)
			attached_stopped(e, tr, x, &rep);
		else
			/* op_attach() resumed it after its SIGSTOP stop; a seized one never stopped. */
			m_resumed(&e->m, x, false);
	}
	return 0;
}

int v_traceme(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), parent;
	struct agent_reply rep;

	if (x < 0)
		return -1;
	parent = T(e, T(e, x)->leader)->real_parent;
	if (parent <= 0 || e->e[parent].fd < 0) {
		refuse(e, "traceme: the real parent of %s must be an agent, not R", tname(e, x));
		return -1;
	}
	if (call(e, x, REQ(OP_TRACEME, 0, 0, 0), &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, m_predict_traceme(&e->m, x), &rep, "PTRACE_TRACEME", x))
		m_trace(&e->m, parent, x, 0, false, R_TRACEME_LINK);
	return 0;
}

/* ---- interrupt, and the resumes ---- */

/* Bring tracee @x of @tr into a ptrace stop; @s NULL: the engine's own, before a detach. */
static int stop_tracee(struct engine *e, const struct stmt *s, int tr, int x)
{
	struct m_pred p = m_predict_request(&e->m, tr, x, MR_INTERRUPT);
	bool seized = T(e, x)->seized, nowait = false;
	struct agent_reply rep;

	if (p.err) {
		/*
		 * Not our tracee: the request itself must fail. PTRACE_INTERRUPT
		 * answers for either kind (ptrace_check_attach() comes first); a
		 * tkill(SIGSTOP) would stop someone else's task behind the model.
		 */
		seized = nowait = true;
	} else if (T(e, x)->life != ML_ALIVE) {
		/* An exited tracee: PTRACE_INTERRUPT is 0 and no stop follows (B11). */
		if (!seized) {
			refuse(e, "interrupt of the exited, attached %s: nothing would stop",
			       tname(e, x));
			return -1;
		}
		nowait = true;
	} else if (!p.err) {
		/* PTRACE_INTERRUPT ends PTRACE_LISTEN: the tracee re-traps. */
		if (T(e, x)->stop == MS_TRACED && !T(e, x)->listening) {
			refuse(e, "%s is already stopped by %s", tname(e, x), tname(e, tr));
			return -1;
		}
		if (!seized && T(e, x)->stop != MS_RUNNING) {
			refuse(e, "%s: cannot stop an attached tracee that is not running",
			       tname(e, x));
			return -1;
		}
	}
	if (call(e, tr, REQ(OP_STOP, pid_for(e, tr, x), 0, (seized ? STOP_SEIZED : 0) |
			    (nowait ? STOP_NOWAIT : 0)), &rep, NULL) < 0)
		return -1;
	if (!s && !rep.ok) {
		report(e, &(struct fdesc){ .check = "event", .rule = R_INTERRUPT_ANY, .ntasks = 1,
					   .tasks = { x }, .observed = rep.msg },
		       "stopping %s before the detach failed", tname(e, x));
		return -1;
	}
	if (s && !outcome(e, s, p, &rep, "interrupt", x))
		return -1;
	if (!nowait)
		/* Seized: PTRACE_EVENT_STOP; attached: the SIGSTOP's signal-delivery-stop. */
		m_trapped(&e->m, x, seized ? TRAP_EVENT_STOP : TRAP_SIGNAL);
	return 0;
}

int stop_for_detach(struct engine *e, int tr, int x)
{
	return stop_tracee(e, NULL, tr, x);
}

int v_interrupt(struct engine *e, const struct stmt *s)
{
	int tr = task_of(e, s->name[0]), x = task_of(e, s->name[1]);

	if (tr < 0 || x < 0 || reachable(e, tr, x) < 0)
		return -1;
	return stop_tracee(e, s, tr, x);
}

static enum m_req req_of(enum sc_verb v, enum agent_op *op)
{
	switch (v) {
	case V_LISTEN:
		*op = OP_LISTEN;
		return MR_LISTEN;
	case V_SYSCALL:
		*op = OP_SYSCALL;
		return MR_SYSCALL;
	case V_SINGLESTEP:
		*op = OP_SINGLESTEP;
		return MR_SINGLESTEP;
	case V_DETACH:
		*op = OP_DETACH;
		return MR_DETACH;
	default:
		*op = OP_CONT;
		return MR_CONT;
	}
}

/*
 * The signal-delivery-stop a signal given at a syscall-stop comes back as
 * (m_signal_restops()): its tracer waits for it, and leaves it stopped.
 */
static int collect_restop(struct engine *e, int tr, int x, int sig)
{
	struct agent_reply rep;
	struct wait_event ev;
	char want[64];

	if (call(e, tr, REQ(OP_WAIT_STOP, pid_for(e, tr, x), 0, 0), &rep, NULL) < 0)
		return -1;
	ev = classify_wait_status(rep.status);
	e->st.checks++;
	if (!rep.ok || ev.kind != WK_SIGNAL_STOP || ev.sig != sig || ev.event) {
		snprintf(want, sizeof(want), "a signal-delivery-stop with %s", sig_name(sig));
		report(e, &(struct fdesc){ .check = "event", .rule = R_SYSCALL_SIGNAL_STOP,
					   .ntasks = 2, .tasks = { x, tr }, .expected = want,
					   .observed = rep.msg },
		       "%s: %s given at a syscall-stop of %s did not stop it again", tname(e, tr),
		       sig_name(sig), tname(e, x));
		return -1;
	}
	m_signal_restopped(&e->m, x);
	e->st.signal_restops++;
	return 0;
}

int v_resume(struct engine *e, const struct stmt *s)
{
	int tr = task_of(e, s->name[0]), x = task_of(e, s->name[1]), sig = s->sig;
	const char *verb = sc_verb_name(s->verb);
	struct agent_reply rep;
	struct agent_req *req;
	enum agent_op op;
	enum m_req mr = req_of(s->verb, &op);
	struct m_pred p;
	bool deliver, restop, retrap = false;

	if (tr < 0 || x < 0 || reachable(e, tr, x) < 0)
		return -1;
	if (!sig_supported(sig) || (sig == SIGSTOP && s->verb != V_DETACH) || sig == SIGCONT) {
		refuse(e, "%s with %s is not supported", verb, sig_name(sig));
		return -1;
	}
	/* A queued SIGCONT's stop comes first: only a plain cont or detach lets it by. */
	if (T(e, x)->cont_queued && (sig || (s->verb != V_CONT && s->verb != V_DETACH))) {
		refuse(e, "%s of %s with a SIGCONT queued: only cont or detach, without a signal",
		       verb, tname(e, x));
		return -1;
	}
	/* PTRACE_DETACH needs a ptrace stop (ptrace_check_attach()): stop it first. */
	if (s->verb == V_DETACH && alive(e, x) && T(e, x)->tracer == tr &&
	    T(e, x)->stop != MS_TRACED && stop_tracee(e, NULL, tr, x) < 0)
		return -1;
	p = m_predict_request(&e->m, tr, x, mr);
	deliver = m_delivers_signal(&e->m, x);
	restop = s->verb == V_CONT && !p.err && deliver && m_signal_restops(&e->m, x, sig);
	/* JOBCTL_STOP_PENDING: a group-stop trap would come first, the signal's at the next resume. */
	if (restop && T(e, x)->stop_pending) {
		refuse(e, "cont of %s with %s at a syscall-stop while a group stop is pending: "
		       "two stops would follow", tname(e, x), sig_name(sig));
		return -1;
	}
	req = REQ(op, pid_for(e, tr, x), sig, 0);
	if (start_call(e, tr, req) < 0)
		return -1;
	/*
	 * An idle agent sits in recv(): the syscall-exit-stop or the step
	 * trap only comes when that returns, so give it a message it does
	 * not answer.
	 */
	if ((s->verb == V_SYSCALL || s->verb == V_SINGLESTEP) && !p.err && e->e[x].fd >= 0 &&
	    agent_send(e->e[x].fd, REQ(OP_NOP, 0, 0, 0)) < 0) {
		harness_err(e, "%s: %s", tname(e, x), ps_last_error());
		return -1;
	}
	if (finish(e, tr, req, &rep, NULL) < 0)
		return -1;
	if (!outcome(e, s, p, &rep, verb, x))
		return 0;
	switch (s->verb) {
	case V_DETACH:
		/* a queued SIGCONT's dequeue is waited for by settle_stops() */
		m_untrace(&e->m, x, R_DETACH_UNLINK);
		break;
	case V_LISTEN:
		m_resumed(&e->m, x, true);
		break;
	case V_SYSCALL:
		/* The agent waited for the syscall stop; ptrace_report_syscall() delivers. */
		m_stepped(&e->m, x, false);
		break;
	case V_SINGLESTEP:
		/* ... for the step's SIGTRAP; the step stays set (tracer-exit-keeps-singlestep) */
		m_stepped(&e->m, x, true);
		break;
	default:
		retrap = m_resumed(&e->m, x, false);
		/* The SIGCONT kill queued: its signal-delivery-stop, delivered. */
		if (T(e, x)->cont_queued && !retrap) {
			if (pass_signal(e, x, SIGCONT) < 0)
				return -1;
			m_sigcont_delivered(&e->m, x);
		}
		break;
	}
	if (sig && deliver && s->verb == V_CONT)
		e->st.signal_conts++;
	if (restop)
		return collect_restop(e, tr, x, sig) < 0 ? -1 : 0;
	/* From PTRACE_EVENT_STOP and other event stops the signal is dropped. */
	if (sig && deliver)
		m_signal(&e->m, x, sig);
	else if (sig)
		tap_diag("%s:%d: %s is dropped: %s was not in a signal-delivery or syscall stop",
			 s->loc.file, s->loc.line, sig_name(sig), tname(e, x));
	(void)retrap;	/* the trap is collected by settle_stops() */
	return 0;
}

/* ---- ptrace-kill, race-attach ---- */

int v_ptrace_kill(struct engine *e, const struct stmt *s)
{
	int tr = task_of(e, s->name[0]), x = task_of(e, s->name[1]), lead;
	struct agent_reply rep;
	struct m_pred p;

	if (tr < 0 || x < 0 || reachable(e, tr, x) < 0)
		return -1;
	p = m_predict_request(&e->m, tr, x, MR_KILL);
	if (call(e, tr, REQ(OP_PTRACE_KILL, pid_for(e, tr, x), 0, 0), &rep, NULL) < 0)
		return -1;
	if (!outcome(e, s, p, &rep, "ptrace-kill", x) || !alive(e, x))
		return 0;	/* an exited tracee: 0 and nothing happens (complete_signal()) */
	/*
	 * 6.1: PTRACE_KILL sends SIGKILL (SEND_SIG_NOINFO); into a namespace
	 * init it is only forced when the tracer is outside the namespace.
	 */
	lead = T(e, x)->leader;
	if (T(e, lead)->ns == lead && T(e, tr)->ns == lead)
		return 0;
	m_group_exit(&e->m, x, 0, SIGKILL);
	return 0;
}

/*
 * "race-attach T U a detach": the winner (T if @first) detaches at once, as the
 * detach verb does (a stop first, then PTRACE_DETACH with 0).  What
 * follows the step then does not depend on who won, which is the
 * scheduler's choice: fuzz draws it so, and its steps replay exactly.
 */
static int race_winner_detaches(struct engine *e, const struct stmt *s, bool first)
{
	struct stmt d = *s;

	d.verb = V_DETACH;
	d.nnames = 2;
	memcpy(d.name[0], s->name[first ? 0 : 1], sizeof(d.name[0]));
	memcpy(d.name[1], s->name[2], sizeof(d.name[1]));
	d.opts = 0;
	d.sig = 0;
	d.nfails = 0;
	return v_resume(e, &d);
}

static int race_attach(struct engine *e, const struct stmt *s, int *won)
{
	int t1 = task_of(e, s->name[0]), t2 = task_of(e, s->name[1]), x = task_of(e, s->name[2]);
	struct agent_reply r1, r2;
	struct agent_req *q1, *q2;
	struct m_pred p1, p2;
	char want[64], got[64];
	bool ok;
	int w;

	if (t1 < 0 || t2 < 0 || x < 0 || reachable(e, t1, x) < 0 || reachable(e, t2, x) < 0 ||
	    attach_refused(e, s, x))
		return -1;
	q1 = REQ(OP_ATTACH, pid_for(e, t1, x), 0, 0);
	q2 = REQ(OP_ATTACH, pid_for(e, t2, x), 0, 0);
	if (start_call(e, t1, q1) < 0 || start_call(e, t2, q2) < 0 ||
	    finish(e, t1, q1, &r1, NULL) < 0 || finish(e, t2, q2, &r2, NULL) < 0)
		return -1;
	e->st.checks++;
	*won = r1.ok + r2.ok;
	snprintf(got, sizeof(got), "%s / %s", r1.ok ? "ok" : errno_name(r1.err),
		 r2.ok ? "ok" : errno_name(r2.err));
	/*
	 * Each tracer's own refusal (gone, exiting, its own group) comes
	 * before the race; the race, under cred_guard_mutex and
	 * tasklist_lock in ptrace_attach(), lets exactly one of those the
	 * model lets through win: the other sees PT_PTRACED (EPERM).
	 */
	p1 = m_predict_attach(&e->m, t1, x);
	p2 = m_predict_attach(&e->m, t2, x);
	if (p1.err && p2.err) {
		snprintf(want, sizeof(want), "%s / %s", errno_name(p1.err), errno_name(p2.err));
		ok = !r1.ok && !r2.ok && r1.err == p1.err && r2.err == p2.err;
	} else if (p1.err || p2.err) {
		snprintf(want, sizeof(want), "%s / %s", p1.err ? errno_name(p1.err) : "ok",
			 p2.err ? errno_name(p2.err) : "ok");
		ok = p1.err ? !r1.ok && r1.err == p1.err && r2.ok :
			      !r2.ok && r2.err == p2.err && r1.ok;
	} else {
		snprintf(want, sizeof(want), "one success, one EPERM");
		ok = r1.ok + r2.ok == 1 && (r1.ok || r1.err == EPERM) && (r2.ok || r2.err == EPERM);
	}
	if (!ok) {
		report(e, &(struct fdesc){ .check = "outcome",
					   .rule = p1.err ? p1.rule : p2.err ? p2.rule :
					   R_ATTACH_EPERM,
					   .ntasks = 1, .tasks = { x }, .expected = want,
					   .observed = got },
		       "race-attach: %s | %s", r1.msg, r2.msg);
		return 0;
	}
	if (!r1.ok && !r2.ok)
		return 0;
	w = r1.ok ? t1 : t2;
	m_trace(&e->m, w, x, 0, false, R_ATTACH_LINK);
	m_resumed(&e->m, x, false);
	logf_(e, "  race won by %s", tname(e, w));
	if (s->opts & O_RACE_DETACH)
		return race_winner_detaches(e, s, w == t1);
	return 0;
}

/*
 * Differential mode compares none of the race's replies (they name the
 * winner, the scheduler's choice), only how many attaches won.
 */
int v_race_attach(struct engine *e, const struct stmt *s)
{
	int won = -1, r;

	e->diff_quiet = true;
	r = race_attach(e, s, &won);
	e->diff_quiet = false;
	if (r < 0 || won < 0)
		return r;
	return diff_obs(e, -1, "race-attach %s won=%d", s->name[2], won);
}
