// SPDX-License-Identifier: GPL-2.0
/*
 * selftest: seize, reparent, detach, exit, checked through /proc status,
 * ptrace_links (when the kernel has it) and the wait reports.
 *
 *   R (ptstress, subreaper) ── T (tracer, command loop over a socketpair)
 *                           └─ P ── C
 *
 * 1. T seizes C.         C: PPid P, TracerPid T; links parent T, real_parent P.
 * 2. P exits, R reaps.   C reparented to R (forget_original_parent(),
 *                        find_new_reaper()) before R can see P's zombie.
 * 3. T detaches C.       __ptrace_unlink(): parent = real_parent = R.
 * 4. C exits 42.         R gets exactly one report.
 * 5. T quits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "links.h"
#include "tracer.h"

#define C_EXIT_CODE	42
#define SKIP_NO_LINKS	"kernel without ptrace_links (unpatched host kernel)"

static struct tracee tr_t, tr_p, tr_c;	/* T, P and C */
static pid_t self;			/* R */
static bool have_links;			/* the running kernel has ptrace_links */
static bool harness_error;		/* our own setup failed: exit 3 */

/* Role name of a pid we know, for the TAP names and messages. */
static const char *who(pid_t pid)
{
	if (pid == 0)
		return "none";
	if (pid == self)
		return "R";
	if (pid == tr_t.pid)
		return "T";
	if (pid == tr_p.pid)
		return "P";
	if (pid == tr_c.pid)
		return "C";
	return "?";
}

static int harness(const char *what)
{
	harness_error = true;
	tap_bail("harness error: %s: %s", what, ps_last_error());
	return -1;
}

static __attribute__((noreturn)) void child_main(int cmd_r, int ready_w)
{
	char c = 0;

	/* Yama ptrace_scope=1 would stop T, which is not C's ancestor. */
	if (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) < 0 && errno != EINVAL)
		_exit(PS_EXIT_HARNESS);
	if (write(ready_w, "r", 1) != 1)
		_exit(PS_EXIT_HARNESS);
	close(ready_w);
	/* A ptrace trap interrupts this read; it restarts (-ERESTARTSYS). */
	while (read(cmd_r, &c, 1) < 0 && errno == EINTR)
		;
	_exit(c == 'x' ? C_EXIT_CODE : PS_EXIT_HARNESS);
}

static __attribute__((noreturn)) void parent_main(int cmd_r, int rep_w, int c_cmd_r)
{
	int ready[2], keep[2];
	pid_t pid = -1;
	ssize_t n;
	char c;

	if (pipe(ready) < 0)
		goto tell;
	pid = ps_fork(false);
	if (pid == 0) {
		keep[0] = c_cmd_r;
		keep[1] = ready[1];
		close_fds_except(keep, 2);
		child_main(c_cmd_r, ready[1]);
	}
	close(c_cmd_r);
	close(ready[1]);
	if (pid > 0) {
		/* R must not ask T to seize C before C's PR_SET_PTRACER. */
		do {
			n = read(ready[0], &c, 1);
		} while (n < 0 && errno == EINTR);
		if (n != 1)
			pid = -1;
	}
tell:
	if (write_full(rep_w, &pid, sizeof(pid)) < 0 || pid < 0)
		_exit(PS_EXIT_HARNESS);
	do {
		n = read(cmd_r, &c, 1);
	} while (n < 0 && errno == EINTR);
	/* EOF means R died: exit, C keeps waiting for R's pipe and then exits. */
	_exit(n == 1 && c == 'x' ? 0 : PS_EXIT_HARNESS);
}

static int spawn_p_and_c(void)
{
	int p_cmd[2], p_rep[2], c_cmd[2], keep[3];
	struct deadline dl;
	pid_t cpid;
	pid_t pid;

	if (pipe2(p_cmd, O_CLOEXEC) < 0 || pipe2(p_rep, O_CLOEXEC) < 0 ||
	    pipe2(c_cmd, O_CLOEXEC) < 0) {
		ps_error("pipe2: %s", strerror(errno));
		return -1;
	}
	pid = ps_fork(true);
	if (pid < 0) {
		ps_error("fork of P: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		keep[0] = p_cmd[0];
		keep[1] = p_rep[1];
		keep[2] = c_cmd[0];
		close_fds_except(keep, 3);
		parent_main(p_cmd[0], p_rep[1], c_cmd[0]);
	}
	tr_p.pid = pid;
	tr_p.state = TS_RUNNING;
	tr_p.exp_real_parent = self;
	ps_register(&tr_p);
	close(p_cmd[0]);
	close(p_rep[1]);
	close(c_cmd[0]);
	tr_p.ctl_fd = p_cmd[1];
	tr_p.reply_fd = p_rep[0];
	tr_c.ctl_fd = c_cmd[1];

	deadline_start(&dl, ps_config.timeout_sec);
	if (read_full_deadline(tr_p.reply_fd, &cpid, sizeof(cpid), &dl) < 0)
		return -1;
	if (cpid <= 0) {
		ps_error("P (pid %d) could not fork C or C died before PR_SET_PTRACER", (int)pid);
		return -1;
	}
	tr_c.pid = cpid;
	tr_c.state = TS_RUNNING;
	tr_c.exp_real_parent = pid;
	ps_register(&tr_c);
	return 0;
}

/* /proc/<pid>/task/<pid>/status: PPid and TracerPid are thread-group ids. */
static void check_status_of(struct tracee *t, const char *step)
{
	struct proc_status st;
	struct parse_error pe;
	struct check c;

	check_init(&c);
	if (status_read(t->pid, t->pid, &st, &pe) < 0) {
		check_fail(&c, "%s", pe.msg);
	} else {
		check_eq(&c, "Tgid", t->pid, st.tgid);
		check_eq(&c, "PPid", t->exp_real_parent, st.ppid);
		check_eq(&c, "TracerPid", t->exp_tracer, st.tracer_pid);
		if (st.state == 'Z' || st.state == 'X')
			check_fail(&c, "State: expected alive, observed %c", st.state);
	}
	check_done(&c, "%s: /proc status of %s (pid %d): PPid == %s, TracerPid == %s", step,
		   t->role, (int)t->pid, who(t->exp_real_parent), who(t->exp_tracer));
}

/*
 * Start a ptrace_links check of a live, single-threaded process; the checks
 * common to every such process are done here.  Returns false if the check
 * is already reported (skipped, or the file could not be read).
 */
static bool links_begin(pid_t pid, struct check *c, struct ptrace_links *l, const char *name)
{
	struct parse_error pe;

	if (!have_links) {
		tap_skip(SKIP_NO_LINKS, "%s", name);
		return false;
	}
	check_init(c);
	if (links_read(pid, pid, l, &pe) < 0) {
		check_fail(c, "%s", pe.msg);
		check_done(c, "%s", name);
		return false;
	}
	check_eq(c, "tid", pid, l->tid);
	check_eq(c, "tgid", pid, l->tgid);
	check_eq(c, "leader", pid, l->leader);
	check_eq(c, "sibling_linked", 1, l->sibling_linked);
	check_eq(c, "exit_state", 0, l->exit_state);
	check_eq(c, "exiting", 0, l->exiting);
	return true;
}

/* Links of C (or any helper) against what its struct tracee expects. */
static void check_links_of(struct tracee *t, const char *step, unsigned long ptraced)
{
	struct ptrace_links l;
	struct check c;
	char name[256];
	pid_t parent = t->exp_tracer ? t->exp_tracer : t->exp_real_parent;

	snprintf(name, sizeof(name), "%s: ptrace_links of %s (pid %d): parent == %s, "
		 "real_parent == %s, tracer == %s, ptrace %s 0, ptraced == %lu", step, t->role,
		 (int)t->pid, who(parent), who(t->exp_real_parent), who(t->exp_tracer),
		 t->exp_tracer ? "!=" : "==", ptraced);
	if (!links_begin(t->pid, &c, &l, name))
		return;
	/* __ptrace_link() points ->parent at the tracer; __ptrace_unlink() undoes it. */
	check_eq(&c, "parent", parent, l.parent);
	check_eq(&c, "real_parent", t->exp_real_parent, l.real_parent);
	check_eq(&c, "tracer", t->exp_tracer, l.tracer);
	if (t->exp_tracer)
		check_nonzero(&c, "ptrace", (long)l.ptrace);
	else
		check_eq(&c, "ptrace", 0, (long)l.ptrace);
	check_eq(&c, "ptraced", (long)ptraced, (long)l.ptraced);
	check_eq(&c, "children", 0, (long)l.children);
	check_eq(&c, "exit_signal", SIGCHLD, l.exit_signal);
	check_done(&c, "%s", name);
}

/* R's own ->children after P is gone: T and the reparented C. */
static void check_links_of_r(const char *step)
{
	struct ptrace_links l;
	struct check c;
	char name[160];

	snprintf(name, sizeof(name), "%s: ptrace_links of R (pid %d): children == 2 (T, C)", step,
		 (int)self);
	if (!links_begin(self, &c, &l, name))
		return;
	check_eq(&c, "children", 2, (long)l.children);
	check_done(&c, "%s", name);
}

/* One request to T, one TAP line.  Returns false if the scenario must stop. */
static bool tracer_step(const char *req, const char *name, bool *ok)
{
	struct tracer_reply rep;
	int r;

	*ok = false;
	r = tracer_call(&tr_t, req, &rep);
	if (r == -EINTR)
		return false;
	if (r < 0) {
		tap_result(false, "%s", name);
		tap_diag("expected: a reply from T to '%s'\nobserved: %s", req, ps_last_error());
		return false;
	}
	*ok = rep.ok;
	if (!tap_result(rep.ok, "%s", name))
		tap_diag("expected: '%s' succeeds\nobserved: %s: %s", req,
			 errno_name(rep.err), rep.msg);
	return true;
}

/*
 * Wait for @t's exit report to R and check it is exited(@code), then that
 * there is no second one: release_task() has unhashed the pid, so waitpid()
 * must say ECHILD.  Returns 0, or <0 if the scenario must stop.
 */
static int expect_exit(struct tracee *t, int code, const char *step)
{
	struct wait_event ev;
	struct deadline dl;
	struct check c;
	char what[160], evs[96];
	int r, status;
	pid_t r2;

	snprintf(what, sizeof(what), "exit report of %s (pid %d) to R (pid %d)", t->role,
		 (int)t->pid, (int)self);
	deadline_start(&dl, ps_config.timeout_sec);
	r = wait_event_for(t->pid, &ev, &dl, what);
	if (r == -EINTR)
		return r;
	check_init(&c);
	if (r < 0) {
		check_fail(&c, "%s", ps_last_error());
	} else {
		t->last = ev;
		if (ev.kind == WK_EXITED || ev.kind == WK_KILLED) {
			t->exit_reports++;
			t->state = TS_REAPED;
		}
		if (ev.kind != WK_EXITED || ev.code != code)
			check_fail(&c, "report: expected exited(%d), observed %s", code,
				   wait_event_str(&ev, evs, sizeof(evs)));
	}
	check_done(&c, "%s: exit report of %s (pid %d) to R: exited(%d)", step, t->role,
		   (int)t->pid, code);
	if (r < 0)
		return r;

	check_init(&c);
	r2 = waitpid(t->pid, &status, WNOHANG | __WALL);
	if (r2 != -1 || errno != ECHILD) {
		if (r2 > 0) {
			ev = classify_wait_status(status);
			t->exit_reports++;
		}
		check_fail(&c, "second waitpid(%d, WNOHANG|__WALL): expected -1 ECHILD, "
			   "observed %d %s", (int)t->pid, (int)r2,
			   r2 > 0 ? wait_event_str(&ev, evs, sizeof(evs)) :
			   r2 < 0 ? errno_name(errno) : "(still waitable)");
	}
	check_done(&c, "%s: exactly one exit report of %s: waitpid(%d, WNOHANG|__WALL) gives "
		   "ECHILD", step, t->role, (int)t->pid);
	return 0;
}

static int tell(struct tracee *t, char cmd)
{
	if (write_full(t->ctl_fd, &cmd, 1) < 0)
		return harness("telling a helper to exit");
	return 0;
}

static int pause_if_asked(void)
{
	unsigned int delay = 0;
	struct deadline dl;

	if (!ps_config.pause_sec)
		return 0;
	tap_diag("pausing %d s (--pause)", ps_config.pause_sec);
	deadline_start(&dl, ps_config.pause_sec);
	while (!deadline_expired(&dl)) {
		if (ps_stop_signal)
			return -EINTR;
		backoff_sleep(&delay);
	}
	return 0;
}

static int scenario(void)
{
	char req[64], name[160];
	bool ok;
	int r;

	if (tracer_spawn(&tr_t) < 0)
		return harness("spawning T");
	if (spawn_p_and_c() < 0)
		return ps_stop_signal ? -EINTR : harness("spawning P and C");
	tap_diag("R %d (subreaper), T %d, P %d, C %d", (int)self, (int)tr_t.pid, (int)tr_p.pid,
		 (int)tr_c.pid);

	/* 1. T seizes C: __ptrace_link() moves C's ->parent to T. */
	snprintf(req, sizeof(req), "seize %d", (int)tr_c.pid);
	snprintf(name, sizeof(name), "seize: T (pid %d) seizes C (pid %d) with PTRACE_SEIZE",
		 (int)tr_t.pid, (int)tr_c.pid);
	if (!tracer_step(req, name, &ok) || !ok)
		return -1;
	tr_c.exp_tracer = tr_t.pid;
	check_status_of(&tr_c, "seize");
	check_links_of(&tr_c, "seize", 0);
	check_links_of(&tr_t, "seize", 1);
	r = pause_if_asked();
	if (r < 0)
		return r;

	/*
	 * 2. P exits.  exit_notify() calls forget_original_parent() before it
	 * sets EXIT_ZOMBIE, so once R has reaped P, C's real_parent must be
	 * R, the subreaper find_new_reaper() picks; C's ->parent stays T.
	 */
	r = tell(&tr_p, 'x');
	if (r < 0)
		return r;
	r = expect_exit(&tr_p, 0, "P exits");
	if (r < 0)
		return r;
	tr_c.exp_real_parent = self;
	check_status_of(&tr_c, "reparent");
	check_links_of(&tr_c, "reparent", 0);
	check_links_of_r("reparent");

	/* 3. T detaches C: __ptrace_unlink() sets ->parent = ->real_parent (R). */
	snprintf(req, sizeof(req), "detach %d", (int)tr_c.pid);
	snprintf(name, sizeof(name), "detach: T interrupts C, waits for PTRACE_EVENT_STOP and "
		 "detaches it");
	if (!tracer_step(req, name, &ok) || !ok)
		return -1;
	tr_c.exp_tracer = 0;
	check_status_of(&tr_c, "detach");
	check_links_of(&tr_c, "detach", 0);
	check_links_of(&tr_t, "detach", 0);
	if (!tracer_step("wait-none", "detach: T gets no report: waitpid(-1) in T gives ECHILD",
			 &ok))
		return -1;

	/* 4. C exits; its only parent now is R. */
	r = tell(&tr_c, 'x');
	if (r < 0)
		return r;
	r = expect_exit(&tr_c, C_EXIT_CODE, "C exits");
	if (r < 0)
		return r;

	/* 5. T quits. */
	if (!tracer_step("quit", "quit: T acknowledges quit", &ok) || !ok)
		return -1;
	return expect_exit(&tr_t, 0, "T quits");
}

int cmd_selftest(void)
{
	int r;

	self = getpid();
	tracee_init(&tr_t, "T");
	tracee_init(&tr_p, "P");
	tracee_init(&tr_c, "C");
	have_links = links_supported();
	tap_begin();
	if (!have_links && ps_config.kernel == KERNEL_REQUIRE) {
		tap_bail("--kernel=require: no /proc/%d/task/%d/ptrace_links (wrong kernel booted)",
			 (int)self, (int)gettid());
		return PS_EXIT_HARNESS;
	}
	tap_diag("timeout %d s per wait; ptrace_links %s", ps_config.timeout_sec,
		 have_links ? "present" : "absent");
	r = scenario();
	if (r == -EINTR || ps_stop_signal)
		tap_diag("interrupted by %s: killing and reaping every process of the run",
			 sig_name(ps_stop_signal ? ps_stop_signal : SIGINT));
	else if (r < 0)
		tap_diag("scenario stopped after the failure above: later checks did not run");
	ps_cleanup();
	tap_end();
	return tap_exit_code(harness_error);
}
