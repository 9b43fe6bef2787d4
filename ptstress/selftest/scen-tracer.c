// SPDX-License-Identifier: GPL-2.0
/*
 * Scenarios where the tracer exits without PTRACE_DETACH.
 *
 *   R (ptstress, subreaper) ── T (tracer)
 *                           └─ P ── C       (P stays alive throughout)
 *
 * [tracer-exit]          T seizes C, T exits while C runs: exit_ptrace()
 *                        must detach C (__ptrace_detach()): TracerPid 0,
 *                        parent == real_parent == P; C exits 5 to P.
 * [tracer-exit-stopped]  the same, but T first stops C in PTRACE_EVENT_STOP
 *                        ('t'): __ptrace_unlink() must wake C up, out of
 *                        TASK_TRACED; C exits 5 to P.
 * [tracer-exitkill]      T seizes with PTRACE_O_EXITKILL: exit_ptrace()
 *                        must SIGKILL C; P gets one killed(SIGKILL) report.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>

#include "selftest/scen.h"
#include "selftest/tracer.h"

#define TRACER_EXIT_C_CODE	5

/* T stops C with PTRACE_INTERRUPT; /proc must then show TASK_TRACED ('t'). */
static int stop_c(void)
{
	struct proc_status st;
	struct parse_error pe;
	struct check c;
	char req[64], name[160];
	bool ok;

	snprintf(req, sizeof(req), "interrupt %d", (int)tr_c.pid);
	snprintf(name, sizeof(name), "interrupt: T interrupts C (pid %d) and sees "
		 "PTRACE_EVENT_STOP", (int)tr_c.pid);
	if (!tracer_step(req, name, &ok) || !ok)
		return -1;
	/* T saw the trap in a wait, so ptrace_stop() has set TASK_TRACED already. */
	check_init(&c);
	if (status_read(tr_c.pid, tr_c.pid, &st, &pe) < 0)
		check_fail(&c, "%s", pe.msg);
	else if (st.state != 't')
		check_fail(&c, "State: expected t, observed %c", st.state);
	check_done(&c, "interrupt: /proc status of C (pid %d): State t (tracing stop)",
		   (int)tr_c.pid);
	return 0;
}

static int tracer_exit(bool stop_first, bool exitkill)
{
	struct proc_status st;
	char what[200];
	bool ok;
	int r;

	r = spawn_t_p_c();
	if (r < 0)
		return r;

	r = t_seizes_c(exitkill);
	if (r < 0)
		return r;
	if (stop_first && stop_c() < 0)
		return -1;

	/*
	 * T exits with C still on its ->ptraced list.  exit_notify() ->
	 * forget_original_parent() -> exit_ptrace() detaches every tracee
	 * (and SIGKILLs those with PT_EXITKILL) before T is a zombie, so
	 * once R has reaped T, C must be untraced.
	 */
	if (!tracer_step("quit", "T exits: T quits without detaching C", &ok) || !ok)
		return -1;
	r = expect_exit(&tr_t, 0, 0, "T exits", NULL);
	if (r < 0)
		return r;
	tr_c.exp_tracer = 0;

	if (exitkill) {
		r = family_expect_reap(0, SIGKILL, "T exits", "SIGKILL from exit_ptrace() for "
				       "PTRACE_O_EXITKILL");
		if (r < 0)
			return r;
	} else {
		if (stop_first) {
			/* __ptrace_unlink(): task_is_traced() -> ptrace_signal_wake_up(). */
			snprintf(what, sizeof(what), "C (pid %d) leaving the tracing stop "
				 "(State t) after T's exit", (int)tr_c.pid);
			r = wait_state(tr_c.pid, tr_c.pid, 't', false, &st, what);
			if (r == -EINTR)
				return r;
			if (!tap_result(r == 0, "T exits: C (pid %d) leaves the tracing stop: "
					"State != t", (int)tr_c.pid))
				tap_diag("expected: State != t within %d s\nobserved: %s",
					 ps_config.timeout_sec, ps_last_error());
			if (r < 0)
				return r;
		}
		check_status_of(&tr_c, "T exits");
		check_links_of(&tr_c, "T exits", 0);

		/* C is untraced and runs: it exits on command, to P alone. */
		r = tell(&tr_c, TRACER_EXIT_C_CODE);
		if (r < 0)
			return r;
		r = family_expect_reap(TRACER_EXIT_C_CODE, 0, "C exits",
				       "exited on command after T's exit");
		if (r < 0)
			return r;
	}
	return p_exits();
}

int scen_tracer_exit(void)
{
	return tracer_exit(false, false);
}

int scen_tracer_exit_stopped(void)
{
	return tracer_exit(true, false);
}

int scen_tracer_exitkill(void)
{
	return tracer_exit(false, true);
}
