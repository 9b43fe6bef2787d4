// SPDX-License-Identifier: GPL-2.0
/*
 * Deadlines, the wait-status classifier and the one polling wait.
 *
 * Every wait polls waitpid(WNOHANG | __WALL) instead of blocking, so that a
 * report the kernel promised but never delivered becomes a timeout that
 * names the missing event, not a hung test, and so that SIGINT/SIGTERM are
 * noticed between polls.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/ptrace.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>

#include "lib/ptstress.h"

/*
 * Start at 50 us (the default timer slack): most stops and exits arrive
 * within microseconds, and a first sleep of 1 ms capped a tracer at about
 * 500 attach+detach cycles a second (ptstress tput).
 */
#define BACKOFF_MIN_US	50
#define BACKOFF_MAX_US	20000

struct ps_prof ps_prof;

void ps_cpu_seconds(double *user, double *sys)
{
	struct rusage ru;

	*user = *sys = -1;
	if (getrusage(RUSAGE_SELF, &ru))
		return;
	*user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
	*sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

void ps_prof_start(void)
{
	memset(&ps_prof, 0, sizeof(ps_prof));
	ps_cpu_seconds(&ps_prof.user0_s, &ps_prof.sys0_s);
}

long long ps_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * 1000000000LL + now.tv_nsec;
}

void deadline_start(struct deadline *dl, int sec)
{
	clock_gettime(CLOCK_MONOTONIC, &dl->end);
	dl->end.tv_sec += sec;
	dl->sec = sec;
}

bool deadline_expired(const struct deadline *dl)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec != dl->end.tv_sec)
		return now.tv_sec > dl->end.tv_sec;
	return now.tv_nsec >= dl->end.tv_nsec;
}

void backoff_sleep(unsigned int *delay_us)
{
	struct timespec ts;
	long long t0;

	if (*delay_us < BACKOFF_MIN_US)
		*delay_us = BACKOFF_MIN_US;
	ts.tv_sec = 0;
	ts.tv_nsec = (long)*delay_us * 1000;
	t0 = ps_now_ns();
	/* EINTR is fine: the caller re-checks ps_stop_signal and its deadline. */
	nanosleep(&ts, NULL);
	ps_prof.poll_ns += ps_now_ns() - t0;
	ps_prof.polls++;
	*delay_us *= 2;
	if (*delay_us > BACKOFF_MAX_US)
		*delay_us = BACKOFF_MAX_US;
}

/*
 * Decode the status word built by wait_task_zombie()/wait_task_stopped()/
 * ptrace_do_notify() in the kernel: low 7 bits 0 = exited (code in bits
 * 8..15), 0x7f = stopped (signal in bits 8..15, PTRACE_EVENT_* in bits
 * 16..23), 0xffff = continued, otherwise killed by the signal in the low 7
 * bits (bit 7 = core dumped).
 */
struct wait_event classify_wait_status(int status)
{
	struct wait_event ev = { .kind = WK_INVALID, .status = status };
	int stopsig;

	if (WIFEXITED(status)) {
		ev.kind = WK_EXITED;
		ev.code = WEXITSTATUS(status);
		/* Only bits 8..15 may be set: anything above is not from the kernel. */
		if (status & ~0xff00)
			ev.kind = WK_INVALID;
		return ev;
	}
	if (WIFCONTINUED(status)) {
		ev.kind = WK_CONTINUED;
		ev.sig = SIGCONT;
		return ev;
	}
	if (WIFSIGNALED(status)) {
		ev.kind = WK_KILLED;
		ev.sig = WTERMSIG(status);
		ev.core = WCOREDUMP(status);
		if (status & ~0xff)
			ev.kind = WK_INVALID;
		return ev;
	}
	if (!WIFSTOPPED(status) || (status & ~0xffffff))
		return ev;

	stopsig = WSTOPSIG(status);
	ev.event = (status >> 16) & 0xff;
	if (stopsig == (SIGTRAP | 0x80)) {
		/* ptrace_report_syscall() with PTRACE_O_TRACESYSGOOD; never has an event. */
		ev.kind = ev.event ? WK_INVALID : WK_SYSCALL_STOP;
		ev.sig = SIGTRAP;
		return ev;
	}
	ev.sig = stopsig;
	if (ev.event == PTRACE_EVENT_STOP && stopsig != SIGTRAP) {
		/*
		 * do_jobctl_trap() reports a seized tracee whose group is stopped
		 * with the stop signal instead of SIGTRAP: that is a group-stop.
		 */
		ev.kind = WK_GROUP_STOP;
		return ev;
	}
	if (ev.event) {
		/* ptrace_event(): always SIGTRAP. */
		ev.kind = stopsig == SIGTRAP ? WK_EVENT_STOP : WK_INVALID;
		return ev;
	}
	/*
	 * A plain stop.  For a tracee attached with PTRACE_ATTACH a group-stop
	 * looks the same and only PTRACE_GETSIGINFO (EINVAL) tells them apart
	 * (ptrace(2)); ptstress always seizes, so this is signal-delivery-stop.
	 */
	ev.kind = WK_SIGNAL_STOP;
	return ev;
}

const char *wait_kind_name(enum wait_kind kind)
{
	switch (kind) {
	case WK_EXITED:		return "exited";
	case WK_KILLED:		return "killed";
	case WK_GROUP_STOP:	return "group-stop";
	case WK_SIGNAL_STOP:	return "signal-delivery-stop";
	case WK_EVENT_STOP:	return "ptrace-event-stop";
	case WK_SYSCALL_STOP:	return "syscall-stop";
	case WK_CONTINUED:	return "continued";
	case WK_INVALID:	break;
	}
	return "invalid";
}

static const char *ptrace_event_name(int event)
{
	switch (event) {
	case PTRACE_EVENT_FORK:		return "PTRACE_EVENT_FORK";
	case PTRACE_EVENT_VFORK:	return "PTRACE_EVENT_VFORK";
	case PTRACE_EVENT_CLONE:	return "PTRACE_EVENT_CLONE";
	case PTRACE_EVENT_EXEC:		return "PTRACE_EVENT_EXEC";
	case PTRACE_EVENT_VFORK_DONE:	return "PTRACE_EVENT_VFORK_DONE";
	case PTRACE_EVENT_EXIT:		return "PTRACE_EVENT_EXIT";
	case PTRACE_EVENT_SECCOMP:	return "PTRACE_EVENT_SECCOMP";
	case PTRACE_EVENT_STOP:		return "PTRACE_EVENT_STOP";
	}
	return "PTRACE_EVENT_?";
}

char *wait_event_str(const struct wait_event *ev, char *buf, size_t len)
{
	const char *kind = wait_kind_name(ev->kind);

	switch (ev->kind) {
	case WK_EXITED:
		snprintf(buf, len, "%s(%d)", kind, ev->code);
		break;
	case WK_KILLED:
		snprintf(buf, len, "%s(%s%s)", kind, sig_name(ev->sig),
			 ev->core ? ", core dumped" : "");
		break;
	case WK_EVENT_STOP:
		snprintf(buf, len, "%s(%s, %s)", kind, ptrace_event_name(ev->event),
			 sig_name(ev->sig));
		break;
	case WK_GROUP_STOP:
	case WK_SIGNAL_STOP:
		snprintf(buf, len, "%s(%s)", kind, sig_name(ev->sig));
		break;
	case WK_SYSCALL_STOP:
	case WK_CONTINUED:
		snprintf(buf, len, "%s", kind);
		break;
	case WK_INVALID:
		snprintf(buf, len, "%s(status %#x)", kind, (unsigned int)ev->status);
		break;
	}
	return buf;
}

/*
 * A thread that blocks SIGCHLD (every agent, agent.c) can sleep on a
 * signalfd instead of a timer: the kernel sends the tracer SIGCHLD for
 * every stop and exit it may wait for (do_notify_parent_cldstop(),
 * do_notify_parent()), so the wait wakes at once.  Under TCG a timer sleep
 * idles the vCPU for milliseconds; polling every 50 us..20 ms capped a
 * tracer at a few hundred cycles a second.  SIGCHLD is process-directed:
 * another thread of the same agent may read it first, so the sleep is
 * still bounded by the backoff; the wait never depends on the signal.
 * -2: not set up yet in this thread, -1: SIGCHLD not blocked here.
 *
 * Reading the signalfd dequeues the SIGCHLD, which is evidence the engine
 * checks (do_notify_parent() must have sent one): every siginfo read is
 * kept in a per-process log that sigchld_log_take() hands out.
 */
static __thread int chld_fd = -2;

#define SIGCHLD_LOG	64
static struct {
	pthread_mutex_t lock;
	struct sigchld_rec rec[SIGCHLD_LOG];	/* oldest first */
	int n;					/* entries in rec[] */
	int lost;				/* dropped: rec[] was full */
} chld_log = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void log_siginfo(const struct signalfd_siginfo *si)
{
	pthread_mutex_lock(&chld_log.lock);
	if (chld_log.n < SIGCHLD_LOG) {
		chld_log.rec[chld_log.n].pid = (pid_t)si->ssi_pid;
		chld_log.rec[chld_log.n].code = si->ssi_code;
		chld_log.rec[chld_log.n].status = si->ssi_status;
		chld_log.n++;
	} else {
		chld_log.lost++;
	}
	pthread_mutex_unlock(&chld_log.lock);
}

void block_sigchld(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	/*
	 * SIGRTMAX too: a scenario's "exit-signal" child notifies its parent
	 * with it, and a kernel that does not reset it to SIGCHLD when the
	 * child is reparented to R (reparent_leader()) must not kill R.
	 */
	sigaddset(&set, SIGRTMAX);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}

void wait_forget_signalfd(void)
{
	/* A forked child closes its fds: the number may be reused for anything. */
	chld_fd = -2;
	/* Its parent's log is not its own: pthread_mutex_init(), as after fork(). */
	pthread_mutex_init(&chld_log.lock, NULL);
	chld_log.n = 0;
	chld_log.lost = 0;
}

/* This thread's SIGCHLD signalfd, or -1 if SIGCHLD is not blocked here. */
static int sigchld_fd(void)
{
	sigset_t cur, chld;

	if (chld_fd == -2) {
		chld_fd = -1;
		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		if (pthread_sigmask(SIG_BLOCK, NULL, &cur) == 0 && sigismember(&cur, SIGCHLD))
			chld_fd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
	}
	return chld_fd;
}

/* Dequeue every pending SIGCHLD into the log. */
static void drain_sigchld(int fd)
{
	struct signalfd_siginfo si;

	while (read(fd, &si, sizeof(si)) == sizeof(si))
		log_siginfo(&si);
}

int sigchld_log_take(struct sigchld_rec *out, int max, int *lost)
{
	int fd = sigchld_fd(), n, k;

	if (fd < 0)
		return -1;
	drain_sigchld(fd);
	pthread_mutex_lock(&chld_log.lock);
	n = chld_log.n < max ? chld_log.n : max;
	memcpy(out, chld_log.rec, (size_t)n * sizeof(*out));
	*lost = chld_log.lost;
	for (k = n; k < chld_log.n; k++)
		chld_log.rec[k - n] = chld_log.rec[k];
	chld_log.n -= n;
	chld_log.lost = 0;
	pthread_mutex_unlock(&chld_log.lock);
	return n;
}

static void wait_for_sigchld(unsigned int *delay_us)
{
	struct pollfd pfd;
	int fd = sigchld_fd();
	long long t0;

	if (fd < 0) {
		backoff_sleep(delay_us);
		return;
	}
	if (*delay_us < BACKOFF_MIN_US)
		*delay_us = BACKOFF_MIN_US;
	pfd.fd = fd;
	pfd.events = POLLIN;
	pfd.revents = 0;
	t0 = ps_now_ns();
	/* One pending SIGCHLD stands for any number of events: drain it all. */
	if (poll(&pfd, 1, (int)((*delay_us + 999) / 1000)) > 0)
		drain_sigchld(fd);
	ps_prof.poll_ns += ps_now_ns() - t0;
	ps_prof.polls++;
	*delay_us *= 2;
	if (*delay_us > BACKOFF_MAX_US)
		*delay_us = BACKOFF_MAX_US;
}

pid_t wait_pending(int *status)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	*status = 0;
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) < 0)
		return errno == ECHILD ? 0 : -1;
	if (si.si_code == CLD_EXITED)
		*status = (si.si_status & 0xff) << 8;
	else if (si.si_pid)
		*status = si.si_status & 0x7f;
	return si.si_pid;
}

int wait_event_for(pid_t pid, struct wait_event *ev, const struct deadline *dl,
		   const char *what)
{
	unsigned int delay = 0;
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG | __WALL);
		if (r > 0) {
			*ev = classify_wait_status(status);
			return 0;
		}
		if (r < 0 && errno != EINTR) {
			int err = errno;

			ps_error("waitpid(%d, WNOHANG|__WALL) waiting for %s: %s (%s)",
				 (int)pid, what, errno_name(err), strerror(err));
			return -err;
		}
		if (ps_stop_signal) {
			ps_error("interrupted by %s while waiting for %s",
				 sig_name(ps_stop_signal), what);
			return -EINTR;
		}
		if (deadline_expired(dl)) {
			ps_error("timed out after %d s: %s did not arrive", dl->sec, what);
			return -ETIMEDOUT;
		}
		wait_for_sigchld(&delay);
	}
}
