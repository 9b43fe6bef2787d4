// SPDX-License-Identifier: GPL-2.0
/*
 * T: a tracer with a command loop, driven by R over a SOCK_SEQPACKET
 * socketpair (one message per request and per reply, so no framing).
 *
 * T never writes to stdout: everything it has to say goes back in the reply
 * and R prints it, which keeps the TAP stream in one writer's order.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest/tracer.h"

#define MAX_SEIZED	8

/* T's tracees; a slot is free when its pid is 0. */
static struct tracee seized[MAX_SEIZED];

static struct tracee *find_seized(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_SEIZED; i++) {
		if (seized[i].pid == pid && pid > 0)
			return &seized[i];
	}
	return NULL;
}

static void reply_set(struct tracer_reply *rep, int ok, int err, const char *fmt, ...)
	PS_PRINTF(4, 5);

static void reply_set(struct tracer_reply *rep, int ok, int err, const char *fmt, ...)
{
	va_list ap;

	rep->ok = ok;
	rep->err = err;
	va_start(ap, fmt);
	vsnprintf(rep->msg, sizeof(rep->msg), fmt, ap);
	va_end(ap);
}

/* PTRACE_SEIZE with @options: 0, or PTRACE_O_EXITKILL for "seize-exitkill". */
static void do_seize(pid_t pid, unsigned long options, struct tracer_reply *rep)
{
	struct tracee *t;
	int r;

	if (find_seized(pid)) {
		reply_set(rep, 0, EEXIST, "T already traces pid %d", (int)pid);
		return;
	}
	for (t = seized; t < seized + MAX_SEIZED && t->pid; t++)
		;
	if (t == seized + MAX_SEIZED) {
		reply_set(rep, 0, ENOSPC, "T: no free tracee slot for pid %d", (int)pid);
		return;
	}
	tracee_init(t, "tracee");
	t->pid = pid;
	t->exp_tracer = getpid();
	/* Options only where a scenario is about them: the rest is about links. */
	r = tracee_seize(t, options);
	if (r < 0) {
		reply_set(rep, 0, -r, "%s", ps_last_error());
		t->pid = 0;
		return;
	}
	reply_set(rep, 1, 0, "T (pid %d) seized pid %d with options %#lx", (int)getpid(),
		  (int)pid, options);
}

/*
 * PTRACE_INTERRUPT @t and wait for the resulting PTRACE_EVENT_STOP trap
 * (do_jobctl_trap()); @t is then in TASK_TRACED ('t' in /proc).  Returns 0
 * with the stop described in @evs, or -errno with @rep filled in.
 */
static int stop_tracee(struct tracee *t, struct tracer_reply *rep, char *evs, size_t len)
{
	struct wait_event ev;
	struct deadline dl;
	char what[160];
	pid_t pid = t->pid;
	int r;

	r = tracee_interrupt(t);
	if (r < 0) {
		reply_set(rep, 0, -r, "%s", ps_last_error());
		return r;
	}
	snprintf(what, sizeof(what), "PTRACE_EVENT_STOP of pid %d to tracer T (pid %d)",
		 (int)pid, (int)getpid());
	deadline_start(&dl, ps_config.timeout_sec);
	for (;;) {
		r = wait_event_for(pid, &ev, &dl, what);
		if (r < 0) {
			reply_set(rep, 0, -r, "%s", ps_last_error());
			return r;
		}
		t->last = ev;
		wait_event_str(&ev, evs, len);
		if (ev.kind == WK_EVENT_STOP && ev.event == PTRACE_EVENT_STOP)
			break;
		if (ev.kind == WK_SIGNAL_STOP) {
			/*
			 * A signal got there first: deliver it, as a debugger
			 * would; the interrupt trap stays pending (JOBCTL_TRAP_STOP).
			 */
			t->state = TS_STOPPED;
			r = tracee_resume(t, RESUME_CONT, ev.sig);
			if (r < 0) {
				reply_set(rep, 0, -r, "%s", ps_last_error());
				return r;
			}
			continue;
		}
		if (ev.kind == WK_EXITED || ev.kind == WK_KILLED) {
			t->state = TS_REAPED;
			t->pid = 0;
			reply_set(rep, 0, ESRCH, "pid %d died before the interrupt trap: %s",
				  (int)pid, evs);
			return -ESRCH;
		}
		reply_set(rep, 0, EPROTO, "pid %d: expected %s, observed %s", (int)pid,
			  "ptrace-event-stop(PTRACE_EVENT_STOP, SIGTRAP)", evs);
		return -EPROTO;
	}
	t->state = TS_STOPPED;
	return 0;
}

/* Leave @pid in PTRACE_EVENT_STOP: the tracer-exit-stopped scenario quits then. */
static void do_interrupt(pid_t pid, struct tracer_reply *rep)
{
	struct tracee *t = find_seized(pid);
	char evs[96];

	if (!t) {
		reply_set(rep, 0, EINVAL, "T does not trace pid %d", (int)pid);
		return;
	}
	if (t->state == TS_STOPPED) {
		reply_set(rep, 0, EALREADY, "T: pid %d is already stopped", (int)pid);
		return;
	}
	if (stop_tracee(t, rep, evs, sizeof(evs)) < 0)
		return;
	reply_set(rep, 1, 0, "T (pid %d) stopped pid %d: %s", (int)getpid(), (int)pid, evs);
}

/*
 * Detach the way a debugger must: PTRACE_DETACH needs the tracee in a
 * ptrace-stop (ptrace_check_attach()), so stop it first unless it already
 * is (a second PTRACE_INTERRUPT of a trapped tracee would never report).
 */
static void do_detach(pid_t pid, struct tracer_reply *rep)
{
	struct tracee *t = find_seized(pid);
	char evs[96] = "an earlier stop";
	int r;

	if (!t) {
		reply_set(rep, 0, EINVAL, "T does not trace pid %d", (int)pid);
		return;
	}
	if (t->state != TS_STOPPED && stop_tracee(t, rep, evs, sizeof(evs)) < 0)
		return;
	r = tracee_resume(t, RESUME_DETACH, 0);
	if (r < 0) {
		reply_set(rep, 0, -r, "%s", ps_last_error());
		return;
	}
	t->pid = 0;
	reply_set(rep, 1, 0, "T (pid %d) detached pid %d from %s", (int)getpid(), (int)pid,
		  evs);
}

/*
 * "reap PID": collect the exit or kill report of a tracee that someone else
 * (R, or tput's driver) is killing.  T is not its real parent, so
 * wait_task_zombie() gives T the status first and then, as the tracer of a
 * reparented task, unlinks it and notifies the real parent, which reaps it.
 * A stop reported on the way (a signal that came before the SIGKILL) is
 * resumed, with its signal, so that the death can go on.
 */
static void do_reap(pid_t pid, struct tracer_reply *rep)
{
	struct tracee *t = find_seized(pid);
	struct wait_event ev;
	struct deadline dl;
	char what[160], evs[96];
	int r;

	if (!t) {
		reply_set(rep, 0, EINVAL, "T does not trace pid %d", (int)pid);
		return;
	}
	snprintf(what, sizeof(what), "exit report of pid %d to tracer T (pid %d)", (int)pid,
		 (int)getpid());
	deadline_start(&dl, ps_config.timeout_sec);
	for (;;) {
		r = wait_event_for(pid, &ev, &dl, what);
		if (r < 0) {
			reply_set(rep, 0, -r, "%s", ps_last_error());
			return;
		}
		t->last = ev;
		wait_event_str(&ev, evs, sizeof(evs));
		if (ev.kind == WK_EXITED || ev.kind == WK_KILLED)
			break;
		if (ev.kind == WK_INVALID || ev.kind == WK_CONTINUED) {
			reply_set(rep, 0, EPROTO, "pid %d: expected an exit report, observed %s",
				  (int)pid, evs);
			return;
		}
		t->state = TS_STOPPED;
		r = tracee_resume(t, RESUME_CONT, ev.kind == WK_SIGNAL_STOP ? ev.sig : 0);
		/* ESRCH: SIGKILL got there first; its report is next. */
		if (r < 0 && r != -ESRCH) {
			reply_set(rep, 0, -r, "%s", ps_last_error());
			return;
		}
	}
	t->exit_reports++;
	t->state = TS_REAPED;
	t->pid = 0;
	reply_set(rep, 1, 0, "T (pid %d) reaped pid %d: %s", (int)getpid(), (int)pid, evs);
}

/*
 * After the detach, __ptrace_detach() has taken the tracee off T's
 * ->ptraced list and T has no children, so do_wait() has nothing to look
 * at and must fail with ECHILD; 0 would mean a task still counts as T's.
 */
static void do_wait_none(struct tracer_reply *rep)
{
	char evs[96];
	int status;
	pid_t r;

	do {
		r = waitpid(-1, &status, WNOHANG | __WALL);
	} while (r < 0 && errno == EINTR);
	if (r < 0 && errno == ECHILD) {
		reply_set(rep, 1, ECHILD, "T: waitpid(-1, WNOHANG|__WALL) = -1 ECHILD");
	} else if (r < 0) {
		int err = errno;

		reply_set(rep, 0, err, "T: waitpid(-1, WNOHANG|__WALL) = -1 %s", errno_name(err));
	} else if (r == 0) {
		reply_set(rep, 0, 0, "T: waitpid(-1, WNOHANG|__WALL) = 0: T still has a "
			  "child or tracee with nothing to report");
	} else {
		struct wait_event ev = classify_wait_status(status);

		reply_set(rep, 0, 0, "T: waitpid(-1, WNOHANG|__WALL) = %d: %s", (int)r,
			  wait_event_str(&ev, evs, sizeof(evs)));
	}
}

static __attribute__((noreturn)) void tracer_main(int fd)
{
	struct tracer_reply rep;
	char req[64], *end, *sp;
	ssize_t n;
	long pid;
	bool quit;

	block_sigchld();
	for (;;) {
		n = recv(fd, req, sizeof(req) - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* EOF: R is gone; exiting detaches our tracees (exit_ptrace()). */
		if (n <= 0)
			_exit(PS_EXIT_HARNESS);
		req[n] = '\0';
		memset(&rep, 0, sizeof(rep));
		quit = false;
		pid = 0;
		/* "REQUEST PID" or "REQUEST". */
		sp = strchr(req, ' ');
		if (sp) {
			pid = strtol(sp + 1, &end, 10);
			if (*end || pid <= 0) {
				reply_set(&rep, 0, EINVAL, "T: bad pid in request '%s'", req);
				goto send;
			}
			*sp = '\0';
		}
		if (sp && !strcmp(req, "seize")) {
			do_seize((pid_t)pid, 0, &rep);
		} else if (sp && !strcmp(req, "seize-exitkill")) {
			do_seize((pid_t)pid, PTRACE_O_EXITKILL, &rep);
		} else if (sp && !strcmp(req, "interrupt")) {
			do_interrupt((pid_t)pid, &rep);
		} else if (sp && !strcmp(req, "detach")) {
			do_detach((pid_t)pid, &rep);
		} else if (sp && !strcmp(req, "reap")) {
			do_reap((pid_t)pid, &rep);
		} else if (!sp && !strcmp(req, "wait-none")) {
			do_wait_none(&rep);
		} else if (!sp && !strcmp(req, "quit")) {
			/* Without detaching: exit_ptrace() must let the tracees go. */
			quit = true;
			reply_set(&rep, 1, 0, "T (pid %d) quits", (int)getpid());
		} else {
			reply_set(&rep, 0, EINVAL, "T: unknown request '%s'", req);
		}
send:
		if (send(fd, &rep, sizeof(rep), MSG_NOSIGNAL) < 0)
			_exit(PS_EXIT_HARNESS);
		if (quit)
			_exit(0);
	}
}

int tracer_spawn(struct tracee *tr)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		int err = errno;

		ps_error("socketpair(AF_UNIX, SOCK_SEQPACKET): %s", strerror(err));
		return -err;
	}
	pid = ps_fork(true);
	if (pid < 0) {
		int err = errno;

		ps_error("fork of T: %s", strerror(err));
		close(sv[0]);
		close(sv[1]);
		return -err;
	}
	if (pid == 0) {
		close_fds_except(&sv[1], 1);
		tracer_main(sv[1]);
	}
	tr->pid = pid;
	tr->state = TS_RUNNING;
	tr->exp_real_parent = getpid();
	ps_register(tr);
	close(sv[1]);
	tr->ctl_fd = sv[0];
	tr->reply_fd = sv[0];
	return 0;
}

int tracer_call(struct tracee *tr, const char *req, struct tracer_reply *rep)
{
	struct deadline dl;
	ssize_t n;

	if (send(tr->ctl_fd, req, strlen(req), MSG_NOSIGNAL) < 0) {
		int err = errno;

		ps_error("sending '%s' to T (pid %d): %s", req, (int)tr->pid, strerror(err));
		return -err;
	}
	deadline_start(&dl, ps_config.timeout_sec + REPLY_GRACE_SEC);
	n = read_deadline(tr->reply_fd, rep, sizeof(*rep), &dl);
	if (n < 0) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", ps_last_error());
		ps_error("reply of T (pid %d) to '%s': %s", (int)tr->pid, req, msg);
		return (int)n;
	}
	if ((size_t)n != sizeof(*rep)) {
		ps_error("reply of T (pid %d) to '%s': %zd bytes, expected %zu", (int)tr->pid,
			 req, n, sizeof(*rep));
		return -EPROTO;
	}
	rep->msg[sizeof(rep->msg) - 1] = '\0';
	return 0;
}
