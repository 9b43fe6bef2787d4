// SPDX-License-Identifier: GPL-2.0
/*
 * The helper family of the selftest scenarios: P, a real parent driven by R
 * over a pipe, and C, P's child, which waits for the exit code R writes to
 * it.  In FAM_THREAD mode P has a second thread W that forks C, so that C's
 * real_parent is a thread that is not the group leader.
 *
 *   R ── P ── C               (FAM_PLAIN, FAM_C_EXITS)
 *   R ── P ─┬ main thread     (FAM_THREAD)
 *           └ W ── C
 *
 * Only R writes to stdout: P answers R over its reply pipe and R prints.
 * C and W never say anything but their pids.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "selftest/scen.h"
#include "selftest/tracer.h"

/* P's first message to R. */
struct p_hello {
	pid_t c;		/* C's pid; -1 if it could not be forked or died early */
	pid_t w;		/* tid of the thread that forked C if not P's main one; 0 */
};

/* P's answer to 'w': what its waits for C said. */
struct p_report {
	int err;		/* 0, or the -errno of P's wait_event_for() */
	int status;		/* raw status of the first report, when err == 0 */
	int again;		/* return value of a second waitpid(C, WNOHANG|__WALL) */
	int again_errno;	/* its errno when again == -1 */
	int again_status;	/* its status when again > 0 */
	char msg[320];		/* P's ps_last_error() when err != 0 */
};

/* P's own state; only P (both threads in FAM_THREAD) uses it. */
static struct {
	enum family_mode mode;	/* how to behave */
	int c_exit_code;	/* FAM_C_EXITS: C's exit code */
	int cmd_r;		/* commands from R */
	int rep_w;		/* hello and reports to R */
	int c_cmd_r;		/* read end of C's command pipe, for C only */
	int quit_r, quit_w;	/* FAM_THREAD: the main thread tells W to exit */
	pid_t c;		/* C's pid once forked (set by W in FAM_THREAD) */
} pc;

static __attribute__((noreturn)) void child_main(int cmd_r, int ready_w, int exit_now)
{
	unsigned char code = 0;
	ssize_t n;

	/* Yama ptrace_scope=1 would stop T, which is not C's ancestor. */
	if (prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0) < 0 && errno != EINVAL)
		_exit(PS_EXIT_HARNESS);
	if (write(ready_w, "r", 1) != 1)
		_exit(PS_EXIT_HARNESS);
	close(ready_w);
	if (exit_now >= 0)
		_exit(exit_now);
	/* A ptrace trap interrupts this read; it restarts (-ERESTARTSYS). */
	do {
		n = read(cmd_r, &code, 1);
	} while (n < 0 && errno == EINTR);
	/* EOF means R is gone. */
	_exit(n == 1 ? code : PS_EXIT_HARNESS);
}

/* Fork C and wait until it has called PR_SET_PTRACER.  C's pid, or -1. */
static pid_t fork_c(int exit_now)
{
	int ready[2], keep[2];
	pid_t pid;
	ssize_t n;
	char c;

	if (pipe(ready) < 0)
		return -1;
	pid = ps_fork(false);
	if (pid == 0) {
		keep[0] = pc.c_cmd_r;
		keep[1] = ready[1];
		close_fds_except(keep, 2);
		child_main(pc.c_cmd_r, ready[1], exit_now);
	}
	close(ready[1]);
	/* Only C may hold the read end: R's close must reach C as EOF. */
	close(pc.c_cmd_r);
	if (pid > 0) {
		/* R must not ask T to seize C before C's PR_SET_PTRACER. */
		do {
			n = read(ready[0], &c, 1);
		} while (n < 0 && errno == EINTR);
		if (n != 1)
			pid = -1;
	}
	close(ready[0]);
	return pid;
}

/*
 * W: fork C, so that C is on W's ->children and W is its real_parent
 * (copy_process() with CLONE_PARENT unset takes current, not the leader),
 * then wait for the word to pthread_exit().  W's exit_notify() then runs
 * forget_original_parent(), whose find_new_reaper() must pick a live
 * thread of the same group, here P's main thread.
 */
static void *w_main(void *arg)
{
	struct p_hello h = { .c = -1, .w = gettid() };
	ssize_t n;
	char c;

	(void)arg;
	h.c = fork_c(-1);
	__atomic_store_n(&pc.c, h.c, __ATOMIC_RELEASE);
	if (write_full(pc.rep_w, &h, sizeof(h)) < 0 || h.c < 0)
		_exit(PS_EXIT_HARNESS);
	do {
		n = read(pc.quit_r, &c, 1);
	} while (n < 0 && errno == EINTR);
	return NULL;
}

/* 'w': wait for C with the deadline, then make sure there is no second report. */
static void p_wait_c(struct p_report *rep)
{
	pid_t c = __atomic_load_n(&pc.c, __ATOMIC_ACQUIRE);
	struct wait_event ev;
	struct deadline dl;
	char what[128];
	int status;

	memset(rep, 0, sizeof(*rep));
	/*
	 * do_wait() looks at the ->children of every thread of the group
	 * (no __WNOTHREAD), so the main thread sees C wherever it hangs.
	 */
	snprintf(what, sizeof(what), "exit report of C (pid %d) to P (pid %d)", (int)c,
		 (int)getpid());
	deadline_start(&dl, ps_config.timeout_sec);
	rep->err = wait_event_for(c, &ev, &dl, what);
	if (rep->err < 0) {
		snprintf(rep->msg, sizeof(rep->msg), "%s", ps_last_error());
		return;
	}
	rep->status = ev.status;
	rep->again = waitpid(c, &status, WNOHANG | __WALL);
	rep->again_errno = rep->again < 0 ? errno : 0;
	rep->again_status = rep->again > 0 ? status : 0;
}

static __attribute__((noreturn)) void parent_main(void)
{
	struct p_hello h = { .c = -1 };
	bool w_started = false;
	struct p_report rep;
	pthread_t th;
	int q[2];
	ssize_t n;
	char cmd;

	if (pc.mode != FAM_THREAD) {
		h.c = fork_c(pc.mode == FAM_C_EXITS ? pc.c_exit_code : -1);
		pc.c = h.c;
	} else if (pipe(q) == 0) {
		pc.quit_r = q[0];
		pc.quit_w = q[1];
		/* W writes the hello; the main thread only serves R's commands. */
		w_started = !pthread_create(&th, NULL, w_main, NULL);
		if (w_started)
			pthread_detach(th);
	}
	if (!w_started && (write_full(pc.rep_w, &h, sizeof(h)) < 0 || h.c < 0))
		_exit(PS_EXIT_HARNESS);
	for (;;) {
		n = read(pc.cmd_r, &cmd, 1);
		if (n < 0 && errno == EINTR)
			continue;
		/* EOF means R died: exit; R's PR_SET_PDEATHSIG would kill us anyway. */
		if (n != 1)
			_exit(PS_EXIT_HARNESS);
		switch (cmd) {
		case 'x':
			_exit(0);
		case 'w':
			p_wait_c(&rep);
			if (write_full(pc.rep_w, &rep, sizeof(rep)) < 0)
				_exit(PS_EXIT_HARNESS);
			break;
		case 'e':
			if (pc.mode != FAM_THREAD || write(pc.quit_w, "e", 1) != 1)
				_exit(PS_EXIT_HARNESS);
			break;
		default:
			_exit(PS_EXIT_HARNESS);
		}
	}
}

int spawn_t_p_c(void)
{
	if (tracer_spawn(&tr_t) < 0)
		return harness("spawning T");
	if (family_spawn(FAM_PLAIN, 0) < 0)
		return ps_stop_signal ? -EINTR : harness("spawning P and C");
	tap_diag("R %d (subreaper), T %d, P %d, C %d", (int)self, (int)tr_t.pid, (int)tr_p.pid,
		 (int)tr_c.pid);
	return 0;
}

int p_exits(void)
{
	int r = tell(&tr_p, 'x');

	return r < 0 ? r : expect_exit(&tr_p, 0, 0, "P exits", NULL);
}

int parent_exits_to_r(const char *step)
{
	int r;

	r = p_exits();
	if (r < 0)
		return r;
	tr_c.exp_real_parent = self;
	check_status_of(&tr_c, step);
	check_links_of(&tr_c, step, 0);
	return 0;
}

int t_seizes_c(bool exitkill)
{
	char req[64], name[200];
	bool ok;

	snprintf(req, sizeof(req), "%s %d", exitkill ? "seize-exitkill" : "seize",
		 (int)tr_c.pid);
	snprintf(name, sizeof(name), "seize: T (pid %d) seizes C (pid %d) with PTRACE_SEIZE%s",
		 (int)tr_t.pid, (int)tr_c.pid, exitkill ? " and PTRACE_O_EXITKILL" : "");
	if (!tracer_step(req, name, &ok) || !ok)
		return -1;
	tr_c.exp_tracer = tr_t.pid;
	check_status_of(&tr_c, "seize");
	check_links_of(&tr_c, "seize", 0);
	check_links_of(&tr_t, "seize", 1);
	return pause_if_asked();
}

int family_spawn(enum family_mode mode, int c_exit_code)
{
	int p_cmd[2], p_rep[2], c_cmd[2], keep[3];
	struct p_hello h;
	struct deadline dl;
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
		pc.mode = mode;
		pc.c_exit_code = c_exit_code;
		pc.cmd_r = p_cmd[0];
		pc.rep_w = p_rep[1];
		pc.c_cmd_r = c_cmd[0];
		parent_main();
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
	if (read_full_deadline(tr_p.reply_fd, &h, sizeof(h), &dl) < 0)
		return -1;
	if (h.c <= 0) {
		ps_error("P (pid %d) could not fork C or C died before PR_SET_PTRACER", (int)pid);
		return -1;
	}
	tr_c.pid = h.c;
	tr_c.state = TS_RUNNING;
	tr_c.exp_real_parent = pid;
	tr_c.exp_real_parent_tid = h.w;
	w_tid = h.w;
	ps_register(&tr_c);
	return 0;
}

int family_expect_reap(int code, int sig, const char *step, const char *how)
{
	struct p_report rep;
	struct wait_event ev;
	struct deadline dl;
	struct check c;
	char want[48], evs[96];
	int r;

	r = tell(&tr_p, 'w');
	if (r < 0)
		return r;
	want_str(want, sizeof(want), code, sig);
	/* P's own wait has the timeout; its report of a timeout must reach us. */
	deadline_start(&dl, ps_config.timeout_sec + REPLY_GRACE_SEC);
	r = read_full_deadline(tr_p.reply_fd, &rep, sizeof(rep), &dl);
	if (r == -EINTR)
		return r;
	rep.msg[sizeof(rep.msg) - 1] = '\0';
	check_init(&c);
	if (r < 0) {
		check_fail(&c, "no report from P (pid %d) about C: %s", (int)tr_p.pid,
			   ps_last_error());
	} else if (rep.err < 0) {
		check_fail(&c, "%s", rep.msg);
	} else {
		ev = classify_wait_status(rep.status);
		tr_c.last = ev;
		if (ev.kind == WK_EXITED || ev.kind == WK_KILLED) {
			tr_c.exit_reports++;
			tr_c.state = TS_REAPED;
		}
		if (!report_is(&ev, code, sig))
			check_fail(&c, "report: expected %s, observed %s", want,
				   wait_event_str(&ev, evs, sizeof(evs)));
	}
	check_done(&c, "%s: exit report of C (pid %d, %s) to P: %s", step, (int)tr_c.pid, how,
		   want);
	if (r < 0 || rep.err < 0)
		return -1;

	check_init(&c);
	if (rep.again != -1 || rep.again_errno != ECHILD) {
		if (rep.again > 0) {
			ev = classify_wait_status(rep.again_status);
			tr_c.exit_reports++;
		}
		check_fail(&c, "P's second waitpid(%d, WNOHANG|__WALL): expected -1 ECHILD, "
			   "observed %d %s", (int)tr_c.pid, rep.again,
			   rep.again > 0 ? wait_event_str(&ev, evs, sizeof(evs)) :
			   rep.again < 0 ? errno_name(rep.again_errno) : "(still waitable)");
	}
	check_done(&c, "%s: exactly one exit report of C to P: P's second waitpid(%d, "
		   "WNOHANG|__WALL) gives ECHILD", step, (int)tr_c.pid);
	return 0;
}
