/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptstress: a ptrace/exit stress-tester mini-debugger.
 *
 * Everything shared between the objects: exit codes, the run's settings,
 * deadlines, the per-process bookkeeping (struct tracee), the wait-status
 * classifier, the ptrace chokepoint, error helpers and TAP output.
 */
#ifndef PTSTRESS_H
#define PTSTRESS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define PS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))

/* Process exit codes; the guest harness maps them, so they are an ABI. */
enum ps_exit {
	PS_EXIT_PASS		= 0,	/* every check that ran passed */
	PS_EXIT_FINDING		= 1,	/* a check failed or a promised event never came */
	PS_EXIT_USAGE		= 2,	/* bad command line or bad input (e.g. no such TID) */
	PS_EXIT_HARNESS		= 3,	/* our own setup failed, or wrong kernel booted */
	PS_EXIT_ALL_SKIPPED	= 4,	/* nothing could be checked on this kernel */
	PS_EXIT_FRESH_BOOT	= 5,	/* minimize: the kernel got tainted or its checker
					 * counted a violation; the best so far is written,
					 * go on from it in a fresh boot */
};

/* What to do when the kernel has no ptrace_links file. */
enum kernel_mode {
	KERNEL_AUTO,		/* skip the links checks, run the rest */
	KERNEL_REQUIRE,		/* the patched kernel must be running: exit 3 otherwise */
};

/* Settings from the command line, inherited by every forked helper. */
struct ps_config {
	int timeout_sec;		/* default deadline of a wait (--timeout); agents
					 * get each step's own with its request */
	enum kernel_mode kernel;	/* --kernel=auto|require */
};
extern struct ps_config ps_config;

/* ---- deadlines (wait.c) ---- */

/* A point on CLOCK_MONOTONIC after which a wait gives up. */
struct deadline {
	struct timespec end;	/* absolute CLOCK_MONOTONIC expiry time */
	int sec;		/* the length it was started with, for messages */
};

/*
 * A helper's own waits use the full timeout; R waits this much longer for
 * the helper's reply, so that the helper's report naming the missing event
 * wins over R's "no reply".
 */
#define REPLY_GRACE_SEC	10

void deadline_start(struct deadline *dl, int sec);
bool deadline_expired(const struct deadline *dl);
/* Sleep *delay_us, then grow it (50 us .. 20 ms), for polling loops. */
void backoff_sleep(unsigned int *delay_us);

/*
 * Where a process's wall time goes, for the throughput figures (issue:
 * "where the command channel, quiescence polling or /proc reads
 * dominate, say so"): asleep in polling loops (backoff_sleep() and the
 * SIGCHLD poll: waiting for a state the kernel promises), blocked on an
 * agent's reply (wait_readable(): the command channel's round trip), and
 * reading /proc files.  Per process (R's are the ones reported).
 */
struct ps_prof {
	long long poll_ns;	/* asleep in polling loops */
	long long reply_ns;	/* in poll() for an agent's reply */
	long long agent_ns;	/* of that, the agents' own time on the requests
				 * (their ptrace calls and waits for the kernel's
				 * events; the rest is the channel and scheduling) */
	long long proc_ns;	/* in open/read/close of /proc files */
	long polls;		/* polling sleeps */
	long replies;		/* waits for a reply */
	long proc_reads;	/* /proc files read */
	double user0_s, sys0_s;	/* this process's CPU time when the profile started */
};
extern struct ps_prof ps_prof;
/* Start the profile anew (a scenario's own): zero it, note the CPU time so far. */
void ps_prof_start(void);
/* This process's own user and system CPU seconds (getrusage()); -1 if unknown. */
void ps_cpu_seconds(double *user, double *sys);
/* CLOCK_MONOTONIC in ns. */
long long ps_now_ns(void);

/* ---- signals, forking and cleanup (procs.c) ---- */

/* Set by the SIGINT/SIGTERM handler; every polling loop checks it. */
extern volatile sig_atomic_t ps_stop_signal;

/*
 * SIGCONTs another process sent R: R was stopped by job control (Ctrl-Z,
 * then fg or bg) or kill -STOP/-CONT.  The engine reports no finding after
 * one (engine/core.c, report()).
 */
extern volatile sig_atomic_t ps_continued;

void ps_install_signal_handlers(void);
/*
 * Flush stdout, fork; in the child undo R's handlers and forget R's registry.
 * @die_with_parent: PR_SET_PDEATHSIG(SIGKILL), a safety net for R's direct
 * helpers if R itself is SIGKILLed.
 */
pid_t ps_fork(bool die_with_parent);
/* In a freshly forked helper: close every fd >= 3 that is not in keep[]. */
void close_fds_except(const int *keep, int n);
/* Poll @fd until readable, the deadline or a stop signal.  0 or -errno. */
int wait_readable(int fd, const struct deadline *dl);
/*
 * One read() (one message on a SOCK_SEQPACKET socket), giving up at the
 * deadline or on a stop signal.  Returns bytes read, -EPIPE at end of file,
 * -ETIMEDOUT, -EINTR or -errno, with ps_last_error() set.
 */
ssize_t read_deadline(int fd, void *buf, size_t len, const struct deadline *dl);
/* Read exactly len bytes, same rules. Returns 0 or -errno. */
int read_full_deadline(int fd, void *buf, size_t len, const struct deadline *dl);
int write_full(int fd, const void *buf, size_t len);
/* Remove @path and everything under it, symlinks not followed (fs.c).  0 or -errno. */
int rm_tree(const char *path);

/* ---- wait statuses (wait.c) ---- */

/* What a wait status means to a tracer; modelled on rr's WaitStatus::Type. */
enum wait_kind {
	WK_EXITED,		/* _exit(code): WIFEXITED */
	WK_KILLED,		/* terminated by sig: WIFSIGNALED */
	WK_GROUP_STOP,		/* seized tracee in group-stop: PTRACE_EVENT_STOP, sig != SIGTRAP */
	WK_SIGNAL_STOP,		/* signal-delivery-stop (or a non-seized group-stop, see wait.c) */
	WK_EVENT_STOP,		/* PTRACE_EVENT_* stop, incl. PTRACE_EVENT_STOP for INTERRUPT */
	WK_SYSCALL_STOP,	/* syscall-enter/exit-stop under PTRACE_O_TRACESYSGOOD */
	WK_CONTINUED,		/* WIFCONTINUED */
	WK_INVALID,		/* a bit pattern no kernel produces */
};

/* One classified wait status. */
struct wait_event {
	enum wait_kind kind;	/* which of the cases above */
	int status;		/* the raw status, for diagnostics */
	int code;		/* WK_EXITED: exit code; otherwise 0 */
	int sig;		/* killing or stopping signal; 0 if none */
	int event;		/* WK_EVENT_STOP/WK_GROUP_STOP: PTRACE_EVENT_*; otherwise 0 */
	bool core;		/* WK_KILLED: a core dump was written */
};

struct wait_event classify_wait_status(int status);
const char *wait_kind_name(enum wait_kind kind);
/* Render an event as e.g. "exited(42)" or "event-stop(PTRACE_EVENT_STOP, SIGTRAP)". */
char *wait_event_str(const struct wait_event *ev, char *buf, size_t len);
/*
 * Poll waitpid(pid, WNOHANG | __WALL) until a report arrives.  Returns 0 with
 * *ev filled in, -ETIMEDOUT (with a diagnostic naming @what), -EINTR on a
 * stop signal, or -errno of waitpid() (ECHILD: nothing left to wait for).
 */
int wait_event_for(pid_t pid, struct wait_event *ev, const struct deadline *dl,
		   const char *what);
/*
 * An exit report this process could collect now, left in place (waitid()
 * with WNOWAIT): its pid, 0 if none (ECHILD too), -1 on an error; *status
 * as waitpid() would say it.
 */
pid_t wait_pending(int *status);
/*
 * Block SIGCHLD in this thread: wait_event_for() then sleeps on a signalfd
 * and wakes at each stop or exit report (wait.c).  Only for a process that
 * learns of its children through waitpid() alone.
 */
void block_sigchld(void);
/* In a freshly forked child: forget this thread's SIGCHLD signalfd and log (wait.c). */
void wait_forget_signalfd(void);

/* One SIGCHLD this process dequeued: its siginfo. */
struct sigchld_rec {
	pid_t pid;		/* si_pid, in this process's pid namespace */
	int code;		/* si_code: CLD_EXITED, CLD_KILLED, CLD_STOPPED, ... */
	int status;		/* si_status: exit code or signal */
};

/*
 * Move up to @max logged SIGCHLDs (oldest first) to @out, after dequeuing
 * the pending one (the rest stay for the next call); *lost: how many were
 * dropped since the last call because the log was full.  -1 if SIGCHLD is
 * not blocked in this thread (nothing logged: an unblocked SIGCHLD with
 * SIG_DFL is discarded by the kernel).
 */
int sigchld_log_take(struct sigchld_rec *out, int max, int *lost);

/* ---- per-process bookkeeping and the ptrace chokepoint (ptrace.c) ---- */

/* Where a process stands, as far as we know. */
enum tracee_state {
	TS_UNBORN,		/* not forked yet, pid is 0 */
	TS_RUNNING,		/* alive and not in a ptrace-stop we know of */
	TS_STOPPED,		/* in a ptrace-stop that we, its tracer, saw in a wait */
	TS_GONE,		/* ptrace said ESRCH: dead, or no longer ours */
	TS_REAPED,		/* a wait reported its death: its pid may be reused */
};

/*
 * One process created by the run (every one may be traced at some point),
 * like strace's struct tcb.  R keeps one per helper; T keeps one per process
 * it seized.
 */
struct tracee {
	pid_t pid;			/* tid == tgid: every helper is single-threaded */
	const char *role;		/* "T" (tracer), "P" (parent), "C" (child), ... */
	pid_t exp_real_parent;		/* tgid /proc PPid should show; links real_parent too */
	pid_t exp_real_parent_tid;	/* links real_parent if not that leader (a tid); 0 */
	pid_t exp_tracer;		/* who TracerPid and links tracer should show; 0 none */
	enum tracee_state state;	/* see enum tracee_state */
	struct wait_event last;		/* the last wait report we got for it */
	unsigned int exit_reports;	/* exit/kill reports seen; the kernel promises 1 */
	int ctl_fd;			/* R's end of its command channel; -1 if none */
	int reply_fd;			/* R reads its replies here (may equal ctl_fd); -1 */
	bool registered;		/* on the cleanup list (procs.c) */
};

void tracee_init(struct tracee *t, const char *role);
/* Put @t on the list that ps_cleanup() kills and reaps. */
void ps_register(struct tracee *t);
/*
 * Kill (SIGKILL, by pid) and reap everything the run created.  Idempotent.
 * Returns 0 once R has no child left, and then empties the list (every
 * registered process is reaped, so the next scenario may reuse the structs);
 * -ETIMEDOUT if a process survived SIGKILL for CLEANUP_SEC (a kernel finding:
 * the list is kept), -1 if waitpid() itself failed.
 */
int ps_cleanup(void);
/*
 * Whether we are in the initial pid namespace, whose pids the kernel log
 * names: there pid 2 is kthreadd, with no parent (PPid 0).
 */
bool ps_in_init_pid_ns(void);

/* How tracee_resume() lets a tracee go. */
enum resume_how {
	RESUME_CONT,		/* PTRACE_CONT */
	RESUME_SYSCALL,		/* PTRACE_SYSCALL */
	RESUME_SINGLESTEP,	/* PTRACE_SINGLESTEP */
	RESUME_LISTEN,		/* PTRACE_LISTEN: stay group-stopped, but report events */
	RESUME_DETACH,		/* PTRACE_DETACH */
};

/*
 * The only function that resumes a tracee.  Returns 0, -ESRCH when the
 * tracee is gone (a normal event: it died or was detached behind our back;
 * t->state becomes TS_GONE), or another -errno with ps_last_error() set.
 */
int tracee_resume(struct tracee *t, enum resume_how how, int sig);
int tracee_seize(struct tracee *t, unsigned long options);
int tracee_interrupt(struct tracee *t);
const char *ptrace_request_name(long req);

/* ---- error helpers and TAP (report.c) ---- */

/* Remember an error message; the caller decides where it goes (TAP or reply). */
void ps_error(const char *fmt, ...) PS_PRINTF(1, 2);
/* The same for a failed ptrace(): names the request, the pid and the signal. */
void ps_ptrace_error(long req, pid_t pid, int sig, int err, const char *fmt, ...)
	PS_PRINTF(5, 6);
const char *ps_last_error(void);
const char *sig_name(int sig);
const char *errno_name(int err);
/*
 * Command lines: "--name VALUE" or "--name=VALUE" at argv[*i] (advancing
 * *i past a separate VALUE); NULL if it is not --name, or *missing set
 * when VALUE is missing.
 */
const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing);

void tap_begin(void);
void tap_diag(const char *fmt, ...) PS_PRINTF(1, 2);
bool tap_result(bool ok, const char *fmt, ...) PS_PRINTF(2, 3);
void tap_skip(const char *reason, const char *fmt, ...) PS_PRINTF(2, 3);
void tap_bail(const char *fmt, ...) PS_PRINTF(1, 2);
void tap_end(void);
/*
 * A finding beats a harness error beats a pass (a finding seen before the
 * harness broke is still a finding); all-skipped is 4.
 */
int tap_exit_code(bool harness_error);

/*
 * A multi-field check that becomes one TAP line: every comparison is
 * recorded, and on failure all of them are printed as "expected vs observed".
 */
struct check {
	bool ok;		/* all comparisons so far matched */
	size_t len;		/* bytes used in text */
	char text[2048];	/* "#   what: expected X, observed Y" lines */
};

void check_init(struct check *c);
void check_eq(struct check *c, const char *what, long expected, long observed);
void check_nonzero(struct check *c, const char *what, long observed);
void check_fail(struct check *c, const char *fmt, ...) PS_PRINTF(2, 3);
bool check_done(struct check *c, const char *fmt, ...) PS_PRINTF(2, 3);

/*
 * Run @fn(@arg) in a child R under a watchdog: this process is a child
 * subreaper that forwards SIGINT/SIGTERM to R, and R gets SIGTERM when
 * this process dies (PR_SET_PDEATHSIG), so whichever of the two is killed,
 * even by SIGKILL, every task of the run is killed by pid and reaped:
 * R's orphans come to this process.  Returns R's exit code, or dies of
 * the signal that killed R.
 */
int ps_watchdog(int (*fn)(void *), void *arg);
/* If a SIGINT/SIGTERM ended the run, die of it now (after the cleanup). */
void ps_die_of_stop_signal(void);

#endif /* PTSTRESS_H */
