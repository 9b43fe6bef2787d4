// SPDX-License-Identifier: GPL-2.0
/*
 * The ptrace requests an agent performs as a tracer (agent.h lists them).
 * Each request is stateless on the agent's side: R's model knows whether a
 * tracee is stopped and sends the requests in a valid order; the agent
 * reports what the kernel said.  Resumes go through tracee_resume(), wait
 * statuses through classify_wait_status() (wait_event_for()).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent/tracer-ops.h"

static void tracee_of(struct tracee *t, pid_t pid)
{
	tracee_init(t, "tracee");
	t->pid = pid;
	t->state = TS_STOPPED;
}

/* Wait for the next report of @pid; 0 with *ev, or -errno with @rep set. */
static int next_report(pid_t pid, struct wait_event *ev, const char *what,
		       struct agent_reply *rep)
{
	struct deadline dl;
	char w[160];
	int r;

	snprintf(w, sizeof(w), "%s of pid %d to tracer %d", what, (int)pid, (int)gettid());
	deadline_start(&dl, agent_timeout);
	r = wait_event_for(pid, ev, &dl, w);
	if (r < 0) {
		agent_set(rep, 0, -r, "%s", ps_last_error());
		return r;
	}
	rep->pid = pid;
	rep->status = ev->status;
	return 0;
}

static bool is_exit(const struct wait_event *ev)
{
	return ev->kind == WK_EXITED || ev->kind == WK_KILLED;
}

/*
 * Wait until @pid is in a stop that @want accepts.  A signal-delivery-stop
 * that is not wanted is resumed with its signal (as a debugger must, or the
 * signal would be lost), and any stop on the way is resumed @how: a
 * PTRACE_CONT there would drop the syscall tracing or the single step
 * (ptrace_resume(), kernel/ptrace.c:858-880) and the stop waited for
 * would never come.  An exit ends the wait with -ESRCH.
 */
static int wait_stop_how(pid_t pid, bool (*want)(const struct wait_event *), const char *what,
			 enum resume_how how, struct wait_event *ev, struct agent_reply *rep)
{
	struct tracee t;
	char evs[96];
	int r;

	for (;;) {
		r = next_report(pid, ev, what, rep);
		if (r < 0)
			return r;
		if (want(ev))
			return 0;
		wait_event_str(ev, evs, sizeof(evs));
		if (is_exit(ev)) {
			agent_set(rep, 0, ESRCH, "pid %d died while waiting for %s: %s", (int)pid,
				  what, evs);
			return -ESRCH;
		}
		tracee_of(&t, pid);
		r = tracee_resume(&t, how, ev->kind == WK_SIGNAL_STOP ? ev->sig : 0);
		if (r < 0) {
			agent_set(rep, 0, -r, "%s (after %s)", ps_last_error(), evs);
			return r;
		}
	}
}

static int wait_stop(pid_t pid, bool (*want)(const struct wait_event *), const char *what,
		     struct wait_event *ev, struct agent_reply *rep)
{
	return wait_stop_how(pid, want, what, RESUME_CONT, ev, rep);
}

/* Resume @pid with no signal; false with the failure in @rep. */
static bool cont0(pid_t pid, struct agent_reply *rep)
{
	struct tracee t;
	int r;

	tracee_of(&t, pid);
	r = tracee_resume(&t, RESUME_CONT, 0);
	if (r < 0)
		agent_set(rep, 0, -r, "%s", ps_last_error());
	return r == 0;
}

static bool want_interrupt(const struct wait_event *ev)
{
	/*
	 * do_jobctl_trap() (kernel/signal.c:2527-2533): SIGTRAP, or the
	 * group's stop signal while a group stop is in effect or under way
	 * (a seized tracee resumed inside a stopped group): both are the
	 * PTRACE_EVENT_STOP of the interrupt.
	 */
	return (ev->kind == WK_EVENT_STOP && ev->event == PTRACE_EVENT_STOP) ||
	       ev->kind == WK_GROUP_STOP;
}

static bool want_sigstop(const struct wait_event *ev)
{
	/* A seized tracee's group-stop is WK_GROUP_STOP; an attached one's is this. */
	return (ev->kind == WK_SIGNAL_STOP && ev->sig == SIGSTOP) ||
	       (ev->kind == WK_GROUP_STOP && ev->sig == SIGSTOP);
}

static bool want_syscall(const struct wait_event *ev)
{
	return ev->kind == WK_SYSCALL_STOP || (ev->kind == WK_SIGNAL_STOP && ev->sig == SIGTRAP);
}

static bool want_trap(const struct wait_event *ev)
{
	return ev->kind == WK_SIGNAL_STOP && ev->sig == SIGTRAP;
}

static bool want_vfork_done(const struct wait_event *ev)
{
	return ev->kind == WK_EVENT_STOP && ev->event == PTRACE_EVENT_VFORK_DONE;
}

static bool want_fork(const struct wait_event *ev)
{
	return ev->kind == WK_EVENT_STOP && (ev->event == PTRACE_EVENT_FORK ||
					     ev->event == PTRACE_EVENT_VFORK ||
					     ev->event == PTRACE_EVENT_CLONE);
}

static bool want_exit_stop(const struct wait_event *ev)
{
	return ev->kind == WK_EVENT_STOP && ev->event == PTRACE_EVENT_EXIT;
}

static bool want_any_stop(const struct wait_event *ev)
{
	return !is_exit(ev);
}

static bool want_exit(const struct wait_event *ev)
{
	return is_exit(ev);
}

static void done(struct agent_reply *rep, const char *what, pid_t pid,
		 const struct wait_event *ev)
{
	char evs[96] = "";

	if (ev)
		wait_event_str(ev, evs, sizeof(evs));
	agent_set(rep, 1, 0, "tracer %d: %s pid %d%s%s", (int)gettid(), what, (int)pid,
		  ev ? ": " : "", evs);
}

/*
 * PTRACE_ATTACH of a group-stopped task has just returned: ptrace_attach()
 * waited in wait_on_bit(JOBCTL_TRAPPING) until the re-trap completed, so
 * its stop is reportable now (a WNOWAIT peek).  If not, the reply says so
 * (ok, msg_val without ATTACH_SAW_TRAPPED) and the attach op ends there,
 * with the task traced and still stopped: false.
 */
static bool trapped_at_return(pid_t pid, struct agent_reply *rep)
{
	siginfo_t si;
	int r;

	memset(&si, 0, sizeof(si));
	do {
		r = waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG | WNOWAIT | __WALL);
	} while (r < 0 && errno == EINTR);
	rep->msg_val = 0;
	if (r == 0 && si.si_pid == pid) {
		rep->msg_val = ATTACH_SAW_TRAPPED;
		return true;
	}
	agent_set(rep, 1, 0, "PTRACE_ATTACH(%d) returned, but no stop of it is reportable: %s",
		  (int)pid, r < 0 ? strerror(errno) : "waitid(WNOHANG|WNOWAIT) found nothing");
	return false;
}

/*
 * PTRACE_ATTACH of a group-stopped task, stopped in its first report:
 * ptrace_attach() sent SIGSTOP, then re-trapped the task (JOBCTL_TRAP_STOP),
 * and do_jobctl_trap() reports an attached tracee's group stop as a plain
 * SIGSTOP stop with no siginfo (ptrace_stop(signr, CLD_STOPPED, 0, NULL)).
 * Resumed, the task dequeues the SIGSTOP: a signal-delivery-stop with its
 * siginfo, which stops in *ev for the caller to resume with 0.  Records
 * what it saw in rep->msg_val (ATTACH_SAW_*); false with @rep set on an
 * error or when the second stop is not the SIGSTOP's.
 */
static bool group_trap_then_sigstop(pid_t pid, struct wait_event *ev, struct agent_reply *rep)
{
	siginfo_t si;

	if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) < 0 && errno == EINVAL)
		rep->msg_val |= ATTACH_SAW_GROUP_TRAP;
	if (!cont0(pid, rep))
		return false;
	if (wait_stop(pid, want_sigstop, "the queued SIGSTOP's stop after the group-stop re-trap",
		      ev, rep) < 0)
		return false;
	if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0 && si.si_signo == SIGSTOP)
		rep->msg_val |= ATTACH_SAW_SIGSTOP;
	return true;
}

void op_attach(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	unsigned long opts = (unsigned long)req->arg;
	struct wait_event ev;

	(void)passfd;
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0) {
		ps_ptrace_error(PTRACE_ATTACH, pid, 0, errno, "attach");
		agent_set(rep, 0, errno, "%s", ps_last_error());
		return;
	}
	if (req->sig == ATTACH_GROUP_STOPPED && !trapped_at_return(pid, rep))
		return;
	/* ptrace_attach() queues SIGSTOP: its stop is the first report. */
	if (wait_stop(pid, want_sigstop, "the SIGSTOP stop after PTRACE_ATTACH", &ev, rep) < 0)
		return;
	if (req->sig == ATTACH_GROUP_STOPPED && !group_trap_then_sigstop(pid, &ev, rep))
		return;
	if (opts && ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(uintptr_t)opts) < 0) {
		agent_set(rep, 0, errno, "PTRACE_SETOPTIONS(%d, %#lx): %s", (int)pid, opts,
			  strerror(errno));
		return;
	}
	/* Resume with 0: the SIGSTOP was ours, not the program's. */
	if (!cont0(pid, rep))
		return;
	done(rep, "attached", pid, &ev);
}

void op_stop(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	bool seized = req->arg & STOP_SEIZED;
	struct wait_event ev;
	struct tracee t;
	int r;

	(void)passfd;
	tracee_of(&t, pid);
	if (seized) {
		r = tracee_interrupt(&t);
	} else {
		/* PTRACE_INTERRUPT is for seized tracees only: stop it the old way. */
		r = syscall(SYS_tkill, pid, SIGSTOP) < 0 ? -errno : 0;
		if (r < 0)
			ps_error("tkill(%d, SIGSTOP): %s", (int)pid, strerror(-r));
	}
	if (r < 0) {
		agent_set(rep, 0, -r, "%s", ps_last_error());
		return;
	}
	/* An exited tracee takes PTRACE_INTERRUPT and never stops (ptrace_request()). */
	if (req->arg & STOP_NOWAIT) {
		done(rep, "interrupted (no stop to wait for)", pid, NULL);
		return;
	}
	if (wait_stop(pid, seized ? want_interrupt : want_sigstop,
		      seized ? "PTRACE_EVENT_STOP" : "the SIGSTOP stop", &ev, rep) < 0)
		return;
	done(rep, "stopped", pid, &ev);
}

static void resume(pid_t pid, enum resume_how how, int sig, const char *what,
		   struct agent_reply *rep)
{
	struct tracee t;
	int r;

	tracee_of(&t, pid);
	r = tracee_resume(&t, how, sig);
	if (r < 0) {
		agent_set(rep, 0, -r, "%s", ps_last_error());
		return;
	}
	done(rep, what, pid, NULL);
}

static void step(pid_t pid, enum resume_how how, struct agent_reply *rep)
{
	struct wait_event ev;
	bool sysc = how == RESUME_SYSCALL;
	struct tracee t;
	int r;

	tracee_of(&t, pid);
	r = tracee_resume(&t, how, 0);
	if (r < 0) {
		agent_set(rep, 0, -r, "%s", ps_last_error());
		return;
	}
	if (wait_stop_how(pid, sysc ? want_syscall : want_trap,
			  sysc ? "a syscall-stop" : "the single-step SIGTRAP", how, &ev, rep) < 0)
		return;
	done(rep, sysc ? "syscall-stopped" : "single-stepped", pid, &ev);
}

/*
 * A stop of any kind, resumed so that the tracee goes on: a signal is
 * delivered unless @swallow (the SIGTRAP after a legacy traced exec).
 */
void op_pass(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	int mode = (int)req->arg;
	unsigned int delay = 0;
	struct wait_event ev;
	struct deadline dl;
	struct tracee t;
	int r;

	(void)passfd;
	if (mode == PASS_VFORK_DONE) {
		/* kernel_clone(): after the child's exec or exit, PTRACE_EVENT_VFORK_DONE */
		if (wait_stop(pid, want_vfork_done, "the PTRACE_EVENT_VFORK_DONE stop", &ev,
			      rep) < 0)
			return;
		if (!cont0(pid, rep))
			return;
		done(rep, "passed the vfork-done stop of", pid, &ev);
		return;
	}
	if (mode == PASS_EXIT_STOP) {
		/* Signal stops on the way are delivered; the exit stop is resumed with 0. */
		if (wait_stop(pid, want_exit_stop, "the PTRACE_EVENT_EXIT stop", &ev, rep) < 0)
			return;
		if (!cont0(pid, rep))
			return;
		done(rep, "passed the exit stop of", pid, &ev);
		return;
	}
	/*
	 * PASS_EXEC_TGID: the exec stop of a non-leader thread comes under the
	 * thread group id, which is not our tracee until de_thread() has run:
	 * ECHILD until then.
	 */
	deadline_start(&dl, agent_timeout);
	while ((r = next_report(pid, &ev, "a stop", rep)) == -ECHILD && mode == PASS_EXEC_TGID &&
	       !deadline_expired(&dl))
		backoff_sleep(&delay);
	if (r < 0)
		return;
	if (!is_exit(&ev)) {
		tracee_of(&t, pid);
		r = tracee_resume(&t, RESUME_CONT,
				  ev.kind == WK_SIGNAL_STOP && mode == PASS_DELIVER ? ev.sig : 0);
		if (r < 0) {
			agent_set(rep, 0, -r, "%s", ps_last_error());
			return;
		}
	}
	done(rep, "passed a stop of", pid, &ev);
}

/* The next stop of @pid, left stopped (a group-stop after SIGSTOP was passed). */
void op_wait_stop(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	struct wait_event ev;

	(void)passfd;
	if (next_report(pid, &ev, "a stop", rep) < 0)
		return;
	if (is_exit(&ev)) {
		agent_set(rep, 0, ESRCH, "pid %d exited instead of stopping", (int)pid);
		return;
	}
	done(rep, "saw a stop of", pid, &ev);
}

void op_follow(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	struct wait_event ev, cev;
	unsigned long msg = 0;
	pid_t child;
	bool hold;

	(void)passfd;
	if (wait_stop(pid, want_fork, "the fork/clone event stop", &ev, rep) < 0)
		return;
	hold = req->arg & FOLLOW_HOLD;
	if (ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg) < 0) {
		agent_set(rep, 0, errno, "PTRACE_GETEVENTMSG(%d): %s", (int)pid, strerror(errno));
		return;
	}
	child = (pid_t)msg;
	/* The auto-attached child starts with a stop (SIGSTOP, or EVENT_STOP if seized). */
	if (wait_stop(child, want_any_stop, "the first stop of an auto-attached task", &cev,
		      rep) < 0)
		return;
	/* FOLLOW_HOLD: the caller looks at the vfork parent first, then resumes the child. */
	if ((!hold && !cont0(child, rep)) || !cont0(pid, rep))
		return;
	rep->msg_val = msg;
	/* Which event it was (kernel_clone(): CLONE for an exit signal other than SIGCHLD). */
	if ((req->arg & ~FOLLOW_HOLD) && ev.event != (req->arg & ~FOLLOW_HOLD)) {
		agent_set(rep, 0, 0, "the creation of %d stopped its creator %d in "
			  "PTRACE_EVENT %d, not %d", (int)child, (int)pid, ev.event,
			  (int)(req->arg & ~FOLLOW_HOLD));
		rep->pid = pid;
		return;
	}
	done(rep, "followed a fork/clone to new task", child, &cev);
	rep->pid = pid;
}

/* The tracee's exit report; stops on the way (PTRACE_EVENT_EXIT) are resumed. */
void op_wait_tracee(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	struct wait_event ev = { .kind = WK_INVALID };
	int status;

	(void)passfd;
	/*
	 * want_exit() accepts every exit, so wait_stop() fails only when no
	 * report came (timeout, ECHILD, a failed resume): then ev holds
	 * nothing and the failure stands as wait_stop() set it.
	 */
	if (wait_stop(pid, want_exit, "the exit report", &ev, rep) < 0)
		return;
	do {
		rep->second = waitpid(pid, &status, WNOHANG | __WALL);
	} while (rep->second < 0 && errno == EINTR);
	rep->second_errno = rep->second < 0 ? errno : 0;
	done(rep, "collected the exit of", pid, &ev);
}

void op_seize(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	struct tracee t;
	int r;

	(void)passfd;
	tracee_of(&t, req->pid);
	r = tracee_seize(&t, (unsigned long)req->arg);
	if (r < 0)
		agent_set(rep, 0, -r, "%s", ps_last_error());
	else
		done(rep, "seized", req->pid, NULL);
}

void op_listen(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	resume(req->pid, RESUME_LISTEN, 0, "listened to", rep);
}

void op_cont(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	resume(req->pid, RESUME_CONT, req->sig, "continued", rep);
}

void op_detach(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	resume(req->pid, RESUME_DETACH, req->sig, "detached", rep);
}

void op_syscall(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	step(req->pid, RESUME_SYSCALL, rep);
}

void op_singlestep(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	step(req->pid, RESUME_SINGLESTEP, rep);
}

void op_ptrace_kill(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	if (ptrace(PTRACE_KILL, req->pid, NULL, NULL) < 0) {
		ps_ptrace_error(PTRACE_KILL, req->pid, 0, errno, "tracer %d", (int)gettid());
		agent_set(rep, 0, errno, "%s", ps_last_error());
	} else {
		done(rep, "PTRACE_KILLed", req->pid, NULL);
	}
}
