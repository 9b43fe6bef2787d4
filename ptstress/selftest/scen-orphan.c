// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios about reparenting without a tracer.
 *
 * [orphan]         R ── P ── C      P exits: C goes to R (find_new_reaper()),
 *                                   both ->real_parent and ->parent (untraced,
 *                                   forget_original_parent()); C exits 7 to R.
 * [zombie-orphan]  R ── P ── C(Z)   C exits 9, P does not reap it, P exits:
 *                                   reparent_leader() must tell R about the
 *                                   zombie (SIGCHLD, then one report of 9).
 * [thread-reaper]  R ── P ─┬ main  W forks C, W exits: find_new_reaper() must
 *                          └ W ── C give C to P's main thread (a live thread of
 *                                   the same group), not to R; P reaps C.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "selftest/scen.h"

#define ORPHAN_EXIT_CODE	7
#define ZOMBIE_EXIT_CODE	9
#define THREAD_C_EXIT_CODE	11
#define SIGCHLD_SLICE_NS	100000000L

int scen_orphan(void)
{
	int r;

	if (family_spawn(FAM_PLAIN, 0) < 0)
		return ps_stop_signal ? -EINTR : harness("spawning P and C");
	tap_diag("R %d (subreaper), P %d, C %d", (int)self, (int)tr_p.pid, (int)tr_c.pid);
	check_status_of(&tr_c, "fork");
	check_links_of(&tr_c, "fork", 0);

	/*
	 * P exits.  forget_original_parent() runs before P is a zombie, so
	 * once R has reaped P, C's real_parent is R and, C being untraced,
	 * so is its ->parent.
	 */
	r = parent_exits_to_r("reparent");
	if (r < 0)
		return r;
	check_links_children(self, self, "R", 1, "C", "reparent");

	r = tell(&tr_c, ORPHAN_EXIT_CODE);
	if (r < 0)
		return r;
	return expect_exit(&tr_c, ORPHAN_EXIT_CODE, 0, "C exits", NULL);
}

/* /proc status of the zombie C: State Z, PPid @ppid, untraced. */
static void check_zombie_status(pid_t ppid, const char *step)
{
	struct proc_status st;
	struct parse_error pe;
	struct check c;

	check_init(&c);
	if (status_read(tr_c.pid, tr_c.pid, &st, &pe) < 0) {
		check_fail(&c, "%s", pe.msg);
	} else {
		check_eq(&c, "PPid", ppid, st.ppid);
		check_eq(&c, "TracerPid", 0, st.tracer_pid);
		if (st.state != 'Z')
			check_fail(&c, "State: expected Z, observed %c", st.state);
	}
	check_done(&c, "%s: /proc status of zombie C (pid %d): State Z, PPid == %s, "
		   "TracerPid == none", step, (int)tr_c.pid, who(ppid));
}

/* Links of the zombie C: still on @parent's ->children, EXIT_ZOMBIE. */
static void check_zombie_links(pid_t parent, const char *step)
{
	struct ptrace_links l;
	struct check c;
	char name[200];

	snprintf(name, sizeof(name), "%s: ptrace_links of zombie C (pid %d): parent == "
		 "real_parent == %s, exit_state EXIT_ZOMBIE, tracer none", step, (int)tr_c.pid,
		 who(parent));
	if (!links_begin(tr_c.pid, tr_c.pid, true, &c, &l, name))
		return;
	check_eq(&c, "parent", parent, l.parent);
	check_eq(&c, "real_parent", parent, l.real_parent);
	check_eq(&c, "tracer", 0, l.tracer);
	check_eq(&c, "ptrace", 0, (long)l.ptrace);
	check_eq(&c, "exit_signal", SIGCHLD, l.exit_signal);
	check_done(&c, "%s", name);
}

/*
 * Tell P to exit with SIGCHLD blocked in R, reap P, and return in *si the
 * SIGCHLD that is pending then (si_signo 0 if none came by the deadline).
 *
 * In exit_notify(), forget_original_parent() -> reparent_leader() notifies
 * R of the zombie C (do_notify_parent()) before P's own do_notify_parent().
 * SIGCHLD is not queued twice (legacy_queue()), so the one pending is C's.
 * R's default SIG_DFL does not autoreap, and a blocked signal is never
 * ignored (sig_ignored()), so it stays pending for sigtimedwait().
 */
static int p_exit_first_sigchld(siginfo_t *si)
{
	struct timespec zero = { 0, 0 }, slice = { 0, SIGCHLD_SLICE_NS };
	struct deadline dl;
	sigset_t chld, old;
	int r;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	while (sigtimedwait(&chld, si, &zero) > 0)
		;
	memset(si, 0, sizeof(*si));
	r = tell(&tr_p, 'x');
	if (r == 0)
		r = expect_exit(&tr_p, 0, 0, "P exits", NULL);
	deadline_start(&dl, ps_config.timeout_sec);
	while (r == 0) {
		if (sigtimedwait(&chld, si, &slice) == SIGCHLD)
			break;
		if (ps_stop_signal) {
			r = -EINTR;
		} else if (deadline_expired(&dl)) {
			memset(si, 0, sizeof(*si));
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return r;
}

int scen_zombie_orphan(void)
{
	struct proc_status st;
	struct check c;
	char what[200];
	siginfo_t si;
	int r;

	if (family_spawn(FAM_C_EXITS, ZOMBIE_EXIT_CODE) < 0)
		return ps_stop_signal ? -EINTR : harness("spawning P and C");
	tap_diag("R %d (subreaper), P %d, C %d (exits %d at once)", (int)self, (int)tr_p.pid,
		 (int)tr_c.pid, ZOMBIE_EXIT_CODE);

	/* P never waits: exit_notify() leaves C EXIT_ZOMBIE on P's ->children. */
	snprintf(what, sizeof(what), "C (pid %d) becoming a zombie (State Z)", (int)tr_c.pid);
	r = wait_state(tr_c.pid, tr_c.pid, 'Z', true, &st, what);
	if (r == -EINTR)
		return r;
	if (!tap_result(r == 0, "C exits: C (pid %d) becomes a zombie child of P", (int)tr_c.pid))
		tap_diag("expected: State Z within %d s\nobserved: %s", ps_config.timeout_sec,
			 ps_last_error());
	if (r < 0)
		return r;
	check_zombie_status(tr_p.pid, "C exits");
	check_zombie_links(tr_p.pid, "C exits");

	r = p_exit_first_sigchld(&si);
	if (r < 0)
		return r;
	check_init(&c);
	if (si.si_signo != SIGCHLD) {
		check_fail(&c, "timed out after %d s: SIGCHLD for zombie C reparented to R did "
			   "not arrive", ps_config.timeout_sec);
	} else {
		check_eq(&c, "si_pid", tr_c.pid, si.si_pid);
		check_eq(&c, "si_code (CLD_EXITED 1)", CLD_EXITED, si.si_code);
		check_eq(&c, "si_status", ZOMBIE_EXIT_CODE, si.si_status);
	}
	check_done(&c, "P exits: reparent_leader() notifies R of zombie C: R's pending SIGCHLD "
		   "has si_pid == C, CLD_EXITED, si_status %d", ZOMBIE_EXIT_CODE);

	/* Not reaped by anyone yet: C must now hang on R, still a zombie. */
	check_zombie_status(self, "reparent");
	check_zombie_links(self, "reparent");
	check_links_children(self, self, "R", 1, "zombie C", "reparent");
	snprintf(what, sizeof(what), "exit report of zombie C (pid %d) reparented to R (pid %d)",
		 (int)tr_c.pid, (int)self);
	return expect_exit(&tr_c, ZOMBIE_EXIT_CODE, 0, "reparent", what);
}

int scen_thread_reaper(void)
{
	char what[200];
	pid_t w;
	int r;

	if (family_spawn(FAM_THREAD, 0) < 0)
		return ps_stop_signal ? -EINTR : harness("spawning P (with thread W) and C");
	w = w_tid;
	tap_diag("R %d (subreaper), P %d (main thread), W %d (P's thread), C %d", (int)self,
		 (int)tr_p.pid, (int)w, (int)tr_c.pid);

	/*
	 * copy_process() makes the forking thread W the real_parent, and
	 * children are per thread: W's ->children holds C, P's main does not.
	 * PPid is the real_parent's tgid, P, either way.
	 */
	check_status_of(&tr_c, "fork");
	check_links_of(&tr_c, "fork", 0);
	check_links_children(tr_p.pid, w, "W", 1, "C", "fork");
	check_links_children(tr_p.pid, tr_p.pid, "P's main thread", 0, "none", "fork");

	r = tell(&tr_p, 'e');
	if (r < 0)
		return r;
	/* The task is released (release_task()) after exit_notify() reparented C. */
	snprintf(what, sizeof(what), "exit of P's thread W (tid %d): /proc/%d/task/%d going away",
		 (int)w, (int)tr_p.pid, (int)w);
	r = wait_thread_gone(tr_p.pid, w, what);
	if (r == -EINTR)
		return r;
	if (!tap_result(r == 0, "W exits: thread W (tid %d) of P is gone", (int)w))
		tap_diag("expected: /proc/%d/task/%d gone within %d s\nobserved: %s",
			 (int)tr_p.pid, (int)w, ps_config.timeout_sec, ps_last_error());
	if (r < 0)
		return r;

	/* find_new_reaper(): find_alive_thread(W) is P's main thread; never R. */
	tr_c.exp_real_parent_tid = 0;
	check_status_of(&tr_c, "W exits");
	check_links_of(&tr_c, "W exits", 0);
	check_links_children(tr_p.pid, tr_p.pid, "P's main thread", 1, "C", "W exits");
	check_status_of(&tr_p, "W exits");

	r = tell(&tr_c, THREAD_C_EXIT_CODE);
	if (r < 0)
		return r;
	r = family_expect_reap(THREAD_C_EXIT_CODE, 0, "C exits", "exited after W's exit");
	if (r < 0)
		return r;
	return p_exits();
}
