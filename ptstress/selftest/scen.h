/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selftest scenarios share: the processes of one scenario, R's
 * checks of them (scen.c) and the P/C helper family (family.c).
 *
 * Every scenario runs under R (ptstress, the child subreaper) and starts
 * with no process of an earlier scenario left: the driver in selftest.c
 * kills and reaps them all (ps_cleanup()) between two scenarios.
 */
#ifndef PTSTRESS_SCEN_H
#define PTSTRESS_SCEN_H

#include <stdbool.h>

#include "lib/links.h"
#include "lib/ptstress.h"

#define SKIP_NO_LINKS	"kernel without ptrace_links (unpatched host kernel)"
/* exit_state of a zombie in ptrace_links (include/linux/sched.h). */
#define EXIT_ZOMBIE_STATE	0x20

/* The processes of the running scenario; reset by scen_begin(). */
extern struct tracee tr_t, tr_p, tr_c;	/* T (tracer), P (real parent), C (child) */
extern pid_t w_tid;			/* thread-reaper: P's thread W that forks C; 0 */
extern pid_t self;			/* R */
extern bool have_links;			/* the running kernel has ptrace_links */
extern bool harness_error;		/* our own setup failed: exit 3 */

/* ---- scen.c: R's side ---- */

/* Start a scenario: TAP prefix @name, fresh struct tracees. */
void scen_begin(const char *name);
/* End it: close R's channels, kill and reap everything.  <0: could not. */
int scen_end(void);
/* Role name of a pid (or tid) of the scenario: "R", "T", "P", "W", "C". */
const char *who(pid_t pid);
/* Record a harness error (exit 3) as a TAP "Bail out!"; returns -1. */
int harness(const char *what);
/* Write one command byte to @t's ctl_fd. */
int tell(struct tracee *t, char cmd);
/* One request to T, one TAP line; false if the scenario must stop. */
bool tracer_step(const char *req, const char *name, bool *ok);
/* Sleep --pause seconds (after a seize); -EINTR on a stop signal. */
int pause_if_asked(void);

/* /proc status of a live @t: Tgid, PPid == exp_real_parent, TracerPid == exp_tracer. */
void check_status_of(struct tracee *t, const char *step);
/* ptrace_links of a live @t against its struct tracee; @ptraced: its ->ptraced length. */
void check_links_of(struct tracee *t, const char *step, unsigned long ptraced);
/*
 * ptrace_links of thread @tid of @pid: its ->children has @n entries (@which
 * names them).  @role names the thread.
 */
void check_links_children(pid_t pid, pid_t tid, const char *role, unsigned long n,
			  const char *which, const char *step);
/* Start a links check: false if already reported (SKIP or unreadable). */
bool links_begin(pid_t pid, pid_t tid, bool zombie, struct check *c, struct ptrace_links *l,
		 const char *name);

/*
 * Poll /proc/<pid>/task/<tid>/status until State is @state (@equal) or is
 * not (!@equal).  Returns 0 with *st filled in, -ETIMEDOUT naming @what,
 * -EINTR, or -errno of the read, with ps_last_error() set.
 */
int wait_state(pid_t pid, pid_t tid, char state, bool equal, struct proc_status *st,
	       const char *what);
/* Poll until /proc/<pid>/task/<tid> is gone (release_task()).  0 or -errno. */
int wait_thread_gone(pid_t pid, pid_t tid, const char *what);

/*
 * Wait for @t's one exit report to R: exited(@code), or killed(@sig) if
 * @sig; then check waitpid() says ECHILD.  @what names the event for a
 * timeout (NULL: "exit report of ROLE (pid N) to R").  Two TAP points.
 * Returns 0, or <0 if the scenario must stop.
 */
int expect_exit(struct tracee *t, int code, int sig, const char *step, const char *what);
/* Does @ev say exited(@code) (@sig == 0) or killed(@sig)? */
bool report_is(const struct wait_event *ev, int code, int sig);
/* "exited(5)" or "killed(SIGKILL)". */
const char *want_str(char *buf, size_t len, int code, int sig);

/* ---- family.c: the helper processes P and C ---- */

/* How P and C behave. */
enum family_mode {
	FAM_PLAIN,	/* P forks C; C exits with the code byte R writes to it */
	FAM_C_EXITS,	/* C exits at once with the given code; P leaves it a zombie */
	FAM_THREAD,	/* P's thread W forks C; W exits when R sends P 'e' */
};

/*
 * Fork P (a child of R) which forks C; fills in and registers tr_p and
 * tr_c (and w_tid).  C has called PR_SET_PTRACER when this returns.
 * P's commands, one byte each: 'x' exit 0, 'w' wait for C and report
 * (family_expect_reap()), 'e' end thread W.  Returns 0 or -1.
 */
int family_spawn(enum family_mode mode, int c_exit_code);
/* Spawn T, then P and C (FAM_PLAIN); print who is who.  0, -EINTR or -1. */
int spawn_t_p_c(void);
/*
 * P exits and R reaps it exactly once; C must then have R as real parent
 * (forget_original_parent() runs before P is a zombie): checks C's status
 * and links under @step.  0 or the error of the failed step.
 */
int parent_exits_to_r(const char *step);
/* Tell P to exit and expect exactly one exit report of it with code 0. */
int p_exits(void);
/*
 * T seizes C (with PTRACE_O_EXITKILL if @exitkill): __ptrace_link() makes T
 * C's ->parent.  Checks C's and T's status and links under "seize", then
 * honours --pause.  0, -1 if the seize failed, or a negative error.
 */
int t_seizes_c(bool exitkill);
/*
 * Tell P to wait for C, then check P's report: exactly one, exited(@code)
 * or killed(@sig).  @how says why C died, for the test point names.  Two
 * TAP points.  Returns 0, or <0 if the scenario must stop.
 */
int family_expect_reap(int code, int sig, const char *step, const char *how);

/* ---- the scenarios; each returns 0, -EINTR or <0 after a failure ---- */

int scen_reparent(void);		/* selftest.c */
int scen_orphan(void);			/* scen-orphan.c */
int scen_zombie_orphan(void);
int scen_thread_reaper(void);
int scen_tracer_exit(void);		/* scen-tracer.c */
int scen_tracer_exit_stopped(void);
int scen_tracer_exitkill(void);

#endif /* PTSTRESS_SCEN_H */
