// SPDX-License-Identifier: GPL-2.0
/*
 * R's side of every selftest scenario: the checks of /proc status,
 * ptrace_links and wait reports, and the channels to the helpers.
 *
 * A check names what it expected and what it saw; a wait for something the
 * kernel promised has a deadline and, when it expires, names the event that
 * never came (a finding, exit 1), never hangs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest/scen.h"
#include "selftest/tracer.h"

struct tracee tr_t, tr_p, tr_c;
pid_t w_tid;
pid_t self;
bool have_links;
bool harness_error;

void scen_begin(const char *name)
{
	tap_set_prefix(name);
	tracee_init(&tr_t, "T");
	tracee_init(&tr_p, "P");
	tracee_init(&tr_c, "C");
	w_tid = 0;
}

static void close_channels(struct tracee *t)
{
	if (t->reply_fd >= 0 && t->reply_fd != t->ctl_fd)
		close(t->reply_fd);
	if (t->ctl_fd >= 0)
		close(t->ctl_fd);
	t->ctl_fd = -1;
	t->reply_fd = -1;
}

int scen_end(void)
{
	/* EOF on their channels makes the helpers exit by themselves, too. */
	close_channels(&tr_t);
	close_channels(&tr_p);
	close_channels(&tr_c);
	tap_set_prefix(NULL);
	return ps_cleanup();
}

const char *who(pid_t pid)
{
	if (pid == 0)
		return "none";
	if (pid == self)
		return "R";
	if (pid == tr_t.pid)
		return "T";
	if (pid == tr_p.pid)
		return "P";
	if (pid == w_tid)
		return "W";
	if (pid == tr_c.pid)
		return "C";
	return "?";
}

int harness(const char *what)
{
	harness_error = true;
	tap_bail("harness error: %s: %s", what, ps_last_error());
	return -1;
}

int tell(struct tracee *t, char cmd)
{
	char what[64];

	if (write_full(t->ctl_fd, &cmd, 1) < 0) {
		snprintf(what, sizeof(what), "sending a command to %s (pid %d)", t->role,
			 (int)t->pid);
		return harness(what);
	}
	return 0;
}

bool tracer_step(const char *req, const char *name, bool *ok)
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

int pause_if_asked(void)
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

/* /proc/<pid>/task/<pid>/status: PPid and TracerPid are thread-group ids. */
void check_status_of(struct tracee *t, const char *step)
{
	struct proc_status st;
	struct parse_error pe;
	struct check c;

	check_init(&c);
	if (status_read(t->pid, t->pid, &st, &pe) < 0) {
		check_fail(&c, "%s", pe.msg);
	} else {
		check_eq(&c, "Tgid", t->pid, st.tgid);
		check_eq(&c, "PPid", ps_config.wrong == WRONG_PPID && t->exp_real_parent == self ?
			 1 : t->exp_real_parent, st.ppid);
		check_eq(&c, "TracerPid", t->exp_tracer, st.tracer_pid);
		if (st.state == 'Z' || st.state == 'X')
			check_fail(&c, "State: expected alive, observed %c", st.state);
	}
	check_done(&c, "%s: /proc status of %s (pid %d): PPid == %s, TracerPid == %s", step,
		   t->role, (int)t->pid, who(t->exp_real_parent), who(t->exp_tracer));
}

/*
 * The checks common to every links file of a single-threaded process (or of
 * thread @tid of @pid): live, or a zombie that exit_notify() has marked
 * EXIT_ZOMBIE after setting PF_EXITING in do_exit().
 */
bool links_begin(pid_t pid, pid_t tid, bool zombie, struct check *c, struct ptrace_links *l,
		 const char *name)
{
	struct parse_error pe;

	if (!have_links) {
		tap_skip(SKIP_NO_LINKS, "%s", name);
		return false;
	}
	check_init(c);
	if (links_read(pid, tid, l, &pe) < 0) {
		check_fail(c, "%s", pe.msg);
		check_done(c, "%s", name);
		return false;
	}
	check_eq(c, "tid", tid, l->tid);
	check_eq(c, "tgid", pid, l->tgid);
	check_eq(c, "leader", pid, l->leader);
	/* copy_process() puts only a group leader on its parent's ->children. */
	check_eq(c, "sibling_linked", tid == pid, l->sibling_linked);
	check_eq(c, "exit_state", zombie ? EXIT_ZOMBIE_STATE : 0, l->exit_state);
	check_eq(c, "exiting", zombie, l->exiting);
	return true;
}

void check_links_of(struct tracee *t, const char *step, unsigned long ptraced)
{
	struct ptrace_links l;
	struct check c;
	char name[256];
	pid_t real = t->exp_real_parent_tid ? t->exp_real_parent_tid : t->exp_real_parent;
	pid_t parent = t->exp_tracer ? t->exp_tracer : real;

	snprintf(name, sizeof(name), "%s: ptrace_links of %s (pid %d): parent == %s, "
		 "real_parent == %s, tracer == %s, ptrace %s 0, ptraced == %lu", step, t->role,
		 (int)t->pid, who(parent), who(real), who(t->exp_tracer),
		 t->exp_tracer ? "!=" : "==", ptraced);
	if (!links_begin(t->pid, t->pid, false, &c, &l, name))
		return;
	/* __ptrace_link() points ->parent at the tracer; __ptrace_unlink() undoes it. */
	check_eq(&c, "parent", parent, l.parent);
	check_eq(&c, "real_parent", real, l.real_parent);
	check_eq(&c, "tracer", t->exp_tracer, l.tracer);
	if (t->exp_tracer)
		check_nonzero(&c, "ptrace", (long)l.ptrace);
	else
		check_eq(&c, "ptrace", 0, (long)l.ptrace);
	check_eq(&c, "ptraced", (long)ptraced, (long)l.ptraced);
	check_eq(&c, "children", 0, (long)l.children);
	/* reparent_leader() resets it to SIGCHLD; fork() set it from clone's. */
	check_eq(&c, "exit_signal", SIGCHLD, l.exit_signal);
	check_done(&c, "%s", name);
}

void check_links_children(pid_t pid, pid_t tid, const char *role, unsigned long n,
			  const char *which, const char *step)
{
	struct ptrace_links l;
	struct check c;
	char name[200];

	snprintf(name, sizeof(name), "%s: ptrace_links of %s (tid %d): children == %lu (%s)",
		 step, role, (int)tid, n, which);
	if (!links_begin(pid, tid, false, &c, &l, name))
		return;
	check_eq(&c, "children", (long)n, (long)l.children);
	check_done(&c, "%s", name);
}

/*
 * Poll /proc status of @tid until its State is (@equal) or is not (!@equal)
 * @state, or, with @state == 0, until the thread is gone (ESRCH).  One loop
 * for every wait on a state the kernel promises, with the run's deadline.
 */
static int poll_status(pid_t pid, pid_t tid, char state, bool equal, struct proc_status *st,
		       const char *what)
{
	unsigned int delay = 0;
	struct parse_error pe;
	struct deadline dl;
	int r;

	deadline_start(&dl, ps_config.timeout_sec);
	for (;;) {
		r = status_read(pid, tid, st, &pe);
		if (r == -ESRCH && !state)
			return 0;
		if (r < 0) {
			ps_error("waiting for %s: %s", what, pe.msg);
			return r;
		}
		if (state && (st->state == state) == equal)
			return 0;
		if (ps_stop_signal) {
			ps_error("interrupted by %s while waiting for %s",
				 sig_name(ps_stop_signal), what);
			return -EINTR;
		}
		if (deadline_expired(&dl)) {
			ps_error("timed out after %d s: %s did not happen (State still %c)",
				 dl.sec, what, st->state);
			return -ETIMEDOUT;
		}
		backoff_sleep(&delay);
	}
}

int wait_state(pid_t pid, pid_t tid, char state, bool equal, struct proc_status *st,
	       const char *what)
{
	return poll_status(pid, tid, state, equal, st, what);
}

int wait_thread_gone(pid_t pid, pid_t tid, const char *what)
{
	struct proc_status st;

	return poll_status(pid, tid, 0, true, &st, what);
}

bool report_is(const struct wait_event *ev, int code, int sig)
{
	if (sig)
		return ev->kind == WK_KILLED && ev->sig == sig;
	return ev->kind == WK_EXITED && ev->code == code;
}

const char *want_str(char *buf, size_t len, int code, int sig)
{
	if (sig)
		snprintf(buf, len, "killed(%s)", sig_name(sig));
	else
		snprintf(buf, len, "exited(%d)", code);
	return buf;
}

/*
 * The second half of every exit check: release_task() has unhashed the
 * pid, so waitpid() must say ECHILD; a second report would be a task
 * reaped twice (or never released).
 */
static void expect_no_second(struct tracee *t, const char *step)
{
	struct wait_event ev;
	struct check c;
	char evs[96];
	int status;
	pid_t r2;

	check_init(&c);
	r2 = waitpid(t->pid, &status, WNOHANG | __WALL);
	if (ps_config.wrong == WRONG_REPORTS && r2 == -1 && errno == ECHILD) {
		check_fail(&c, "--wrong-model=reports: expected a second exit report of %d, "
			   "observed ECHILD", (int)t->pid);
	} else if (r2 != -1 || errno != ECHILD) {
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
}

int expect_exit(struct tracee *t, int code, int sig, const char *step, const char *what)
{
	struct wait_event ev;
	struct deadline dl;
	struct check c;
	char dflt[160], evs[96], want[48];
	int r;

	if (!what) {
		snprintf(dflt, sizeof(dflt), "exit report of %s (pid %d) to R (pid %d)", t->role,
			 (int)t->pid, (int)self);
		what = dflt;
	}
	want_str(want, sizeof(want), code, sig);
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
		if (!report_is(&ev, code, sig))
			check_fail(&c, "report: expected %s, observed %s", want,
				   wait_event_str(&ev, evs, sizeof(evs)));
	}
	check_done(&c, "%s: exit report of %s (pid %d) to R: %s", step, t->role, (int)t->pid,
		   want);
	if (r < 0)
		return r;
	expect_no_second(t, step);
	return 0;
}
