// SPDX-License-Identifier: GPL-2.0
/*
 * selftest: the scenario driver, and the first scenario [reparent]: seize,
 * reparent, detach, exit, checked through /proc status, ptrace_links (when
 * the kernel has it) and the wait reports.
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
 *
 * The other scenarios are in scen-orphan.c and scen-tracer.c; all of them
 * run in one TAP stream, each point prefixed with its scenario's name.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "selftest/scen.h"
#include "selftest/tracer.h"

#define C_EXIT_CODE	42

/* One scenario: its --only name and what it is about. */
struct scenario {
	const char *name;	/* TAP prefix and --only NAME */
	const char *what;	/* one line for the TAP diagnostics */
	int (*run)(void);	/* 0, -EINTR, or <0 after a failure that stops it */
};

static const struct scenario scenarios[] = {
	{ "reparent", "seize, real parent exits, reparent to R, detach, exit",
	  scen_reparent },
	{ "orphan", "untraced C: parent exits, C goes to R, exits to R", scen_orphan },
	{ "zombie-orphan", "zombie C: parent exits, R must be told about C",
	  scen_zombie_orphan },
	{ "tracer-exit", "tracer exits without detaching a running tracee",
	  scen_tracer_exit },
	{ "tracer-exit-stopped", "tracer exits without detaching a stopped tracee",
	  scen_tracer_exit_stopped },
	{ "tracer-exitkill", "tracer with PTRACE_O_EXITKILL exits: tracee is killed",
	  scen_tracer_exitkill },
	{ "thread-reaper", "thread that forked C exits: C goes to its group, not R",
	  scen_thread_reaper },
};

#define NSCENARIOS	(sizeof(scenarios) / sizeof(scenarios[0]))

bool selftest_known(const char *name)
{
	size_t i;

	for (i = 0; i < NSCENARIOS; i++) {
		if (!strcmp(scenarios[i].name, name))
			return true;
	}
	return false;
}

const char *selftest_names(void)
{
	static char buf[256];
	size_t i, len = 0;

	for (i = 0; i < NSCENARIOS && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "",
					scenarios[i].name);
	return buf;
}

int scen_reparent(void)
{
	char req[64], name[160];
	bool ok;
	int r;

	r = spawn_t_p_c();
	if (r < 0)
		return r;

	/* 1. T seizes C: __ptrace_link() moves C's ->parent to T. */
	r = t_seizes_c(false);
	if (r < 0)
		return r;

	/*
	 * 2. P exits.  exit_notify() calls forget_original_parent() before it
	 * sets EXIT_ZOMBIE, so once R has reaped P, C's real_parent must be
	 * R, the subreaper find_new_reaper() picks; C's ->parent stays T.
	 */
	r = parent_exits_to_r("reparent");
	if (r < 0)
		return r;
	check_links_children(self, self, "R", 2, "T, C", "reparent");

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
	r = tell(&tr_c, C_EXIT_CODE);
	if (r < 0)
		return r;
	r = expect_exit(&tr_c, C_EXIT_CODE, 0, "C exits", NULL);
	if (r < 0)
		return r;

	/* 5. T quits. */
	if (!tracer_step("quit", "quit: T acknowledges quit", &ok) || !ok)
		return -1;
	return expect_exit(&tr_t, 0, 0, "T quits", NULL);
}

int cmd_selftest(void)
{
	const struct scenario *s;
	int r = 0;

	self = getpid();
	have_links = links_supported();
	tap_begin();
	if (!have_links && ps_config.kernel == KERNEL_REQUIRE) {
		tap_bail("--kernel=require: no /proc/%d/task/%d/ptrace_links (wrong kernel booted)",
			 (int)self, (int)gettid());
		return PS_EXIT_HARNESS;
	}
	tap_diag("timeout %d s per wait; ptrace_links %s", ps_config.timeout_sec,
		 have_links ? "present" : "absent");
	for (s = scenarios; s < scenarios + NSCENARIOS; s++) {
		if (ps_config.only && strcmp(ps_config.only, s->name))
			continue;
		tap_diag("---- scenario %s: %s", s->name, s->what);
		scen_begin(s->name);
		r = s->run();
		if (r == -EINTR || ps_stop_signal)
			tap_diag("interrupted by %s: killing and reaping every process of the run",
				 sig_name(ps_stop_signal ? ps_stop_signal : SIGINT));
		else if (r < 0)
			tap_diag("scenario %s stopped after the failure above: its later checks "
				 "did not run", s->name);
		/* The next scenario must not meet a process of this one. */
		r = scen_end();
		if (r == -ETIMEDOUT) {
			tap_result(false, "%s: teardown: every process is reaped after SIGKILL",
				   s->name);
			break;
		} else if (r < 0) {
			ps_error("processes of scenario %s could not be reaped", s->name);
			harness("cleanup");
			break;
		}
		if (harness_error || ps_stop_signal || r == -EINTR)
			break;
	}
	tap_end();
	return tap_exit_code(harness_error);
}
