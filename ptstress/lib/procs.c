// SPDX-License-Identifier: GPL-2.0
/*
 * Forking helpers, control-channel I/O, signal handling and cleanup.
 *
 * No process the run created may outlive it.  R is a child subreaper
 * (PR_SET_CHILD_SUBREAPER, set in main()), so find_new_reaper() hands every
 * orphaned descendant to R instead of to init; cleanup therefore only has to
 * kill what it knows by pid, kill whatever /proc says is now R's child, and
 * reap until waitpid() says ECHILD.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/ptstress.h"

#define MAX_REGISTERED		16
#define CLEANUP_SEC		10
#define POLL_SLICE_MS		100

volatile sig_atomic_t ps_stop_signal;

/* The command line's settings (cmd/main.c fills them in). */
struct ps_config ps_config = {
	.timeout_sec = 30,
	.kernel = KERNEL_AUTO,
};

static struct tracee *registry[MAX_REGISTERED];
static int nregistered;

static void stop_handler(int sig)
{
	ps_stop_signal = sig;
}

volatile sig_atomic_t ps_continued;

/*
 * A SIGCONT that a process sent (si_code <= 0: kill(), a shell's fg or bg)
 * tells R it was stopped.  Ctrl-Z at a terminal stops the whole foreground
 * process group, R's agents with it (they share R's group, model/pgrp.c):
 * a traced agent's SIGTSTP is a signal-delivery-stop no scenario asked for,
 * and R's deadlines ran on meanwhile.  The kernel's own SIGCONT
 * (kill_orphaned_pgrp(), SEND_SIG_PRIV: si_code SI_KERNEL) is not counted:
 * that one would be the kernel's doing.
 */
static void cont_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code <= 0)
		ps_continued++;
}

void ps_install_signal_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	/* No SA_RESTART: a blocked poll()/read() must return EINTR to notice. */
	sa.sa_handler = stop_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* SA_RESTART: a continue interrupts nothing that need not be. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = cont_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCONT, &sa, NULL);
	/* A helper that died must show up as EPIPE on our side, not kill R. */
	signal(SIGPIPE, SIG_IGN);
}

pid_t ps_fork(bool die_with_parent)
{
	pid_t parent = getpid();
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid != 0)
		return pid;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
	/* R blocks SIGCHLD to log it (wait.c); a debugger it starts must get it. */
	{
		sigset_t none;

		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
	}
	ps_stop_signal = 0;
	wait_forget_signalfd();
	/* The child must never kill R's other helpers in a cleanup of its own. */
	nregistered = 0;
	if (die_with_parent) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* R may have died before the prctl: then nobody would tell us. */
		if (getppid() != parent)
			_exit(PS_EXIT_HARNESS);
	}
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

void close_fds_except(const int *keep, int n)
{
	int sorted[16], i, from = 3;

	/*
	 * A helper holding a stray write end would keep a pipe from reaching
	 * EOF, and EOF is how helpers notice that R is gone.  close_range()
	 * (5.9): a loop of close() up to RLIMIT_NOFILE, which `run` raises to
	 * 65536, is 65536 system calls per new agent — minutes under strace
	 * in a TCG guest.
	 */
	if (n > 16)
		n = 16;
	if (n > 0)
		memcpy(sorted, keep, n * sizeof(int));
	qsort(sorted, n, sizeof(int), cmp_int);
	for (i = 0; i < n; i++) {
		if (sorted[i] < from)
			continue;
		if (sorted[i] > from)
			close_range(from, sorted[i] - 1, 0);
		from = sorted[i] + 1;
	}
	close_range(from, ~0U, 0);
}

int wait_readable(int fd, const struct deadline *dl)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long t0 = ps_now_ns();
	int r;

	ps_prof.replies++;
	for (;;) {
		if (ps_stop_signal) {
			ps_error("interrupted by %s", sig_name(ps_stop_signal));
			return -EINTR;
		}
		if (deadline_expired(dl)) {
			ps_error("no reply on fd %d within %d s", fd, dl->sec);
			return -ETIMEDOUT;
		}
		r = poll(&pfd, 1, POLL_SLICE_MS);
		if (r > 0) {
			ps_prof.reply_ns += ps_now_ns() - t0;
			return 0;
		}
		if (r < 0 && errno != EINTR) {
			int err = errno;

			ps_error("poll(fd %d): %s", fd, strerror(err));
			return -err;
		}
	}
}

ssize_t read_deadline(int fd, void *buf, size_t len, const struct deadline *dl)
{
	ssize_t n;
	int r;

	for (;;) {
		r = wait_readable(fd, dl);
		if (r < 0)
			return r;
		n = read(fd, buf, len);
		if (n > 0)
			return n;
		if (n == 0) {
			ps_error("fd %d: end of file (the other side closed it or died)", fd);
			return -EPIPE;
		}
		if (errno != EINTR && errno != EAGAIN) {
			int err = errno;

			ps_error("read(fd %d): %s", fd, strerror(err));
			return -err;
		}
	}
}

int read_full_deadline(int fd, void *buf, size_t len, const struct deadline *dl)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read_deadline(fd, p, len, dl);
		if (n < 0)
			return (int)n;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			ps_error("write(fd %d): %s", fd, strerror(err));
			return -err;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void ps_register(struct tracee *t)
{
	if (t->registered)
		return;
	if (nregistered == MAX_REGISTERED) {
		/* Cannot happen with the fixed scenarios; the /proc sweep still finds it. */
		fprintf(stderr, "ptstress: too many processes to register %s\n", t->role);
		return;
	}
	registry[nregistered++] = t;
	t->registered = true;
}

/* PPid of @pid from /proc/<pid>/stat, or -1. */
static pid_t stat_ppid(const char *pid)
{
	char path[64], buf[512];
	char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* comm may contain ") ", so the fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (!p || strlen(p) < 5)
		return -1;
	return (pid_t)strtol(p + 4, NULL, 10);
}

/*
 * Kill every process whose parent is R.  Such a process cannot be reaped
 * by anyone but R, so its pid cannot be reused before we kill it.  This
 * catches descendants R never learnt the pid of, e.g. C when R was
 * interrupted before P sent C's pid: after P dies, forget_original_parent()
 * gives C to R, the subreaper.
 */
static void kill_children_of_self(void)
{
	pid_t self = getpid();
	struct dirent *de;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (stat_ppid(de->d_name) == self)
			kill((pid_t)atoi(de->d_name), SIGKILL);
	}
	closedir(d);
}

/* Read a small /proc file into @buf (NUL-terminated; "" if unreadable). */
static void read_small(const char *path, char *buf, size_t len)
{
	ssize_t n = -1;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

/*
 * For a teardown that failed: name each child of R still there, with its
 * state and where it sleeps, so that a task SIGKILL cannot end (stuck in
 * a ptrace-stop nobody will end, say) is reported, not just counted.
 */
static void describe_children_of_self(void)
{
	char path[300], stat[512], wchan[64];
	pid_t self = getpid();
	struct dirent *de;
	char *p;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9' || stat_ppid(de->d_name) != self)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		read_small(path, stat, sizeof(stat));
		p = strrchr(stat, ')');
		snprintf(path, sizeof(path), "/proc/%s/wchan", de->d_name);
		read_small(path, wchan, sizeof(wchan));
		tap_diag("still there after SIGKILL: pid %s, state %c, wchan %s", de->d_name,
			 p && p[1] && p[2] ? p[2] : '?', wchan[0] ? wchan : "?");
	}
	closedir(d);
}

static void mark_reaped(pid_t pid, int status)
{
	int i;

	for (i = 0; i < nregistered; i++) {
		if (registry[i]->pid == pid && registry[i]->state != TS_REAPED) {
			registry[i]->state = TS_REAPED;
			registry[i]->last = classify_wait_status(status);
		}
	}
}

bool ps_in_init_pid_ns(void)
{
	char comm[32] = "";
	FILE *f;

	/* elsewhere pid 2 is a user task, with a parent in view or named otherwise */
	if (stat_ppid("2") != 0)
		return false;
	f = fopen("/proc/2/comm", "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strcmp(comm, "kthreadd\n");
}

int ps_cleanup(void)
{
	unsigned int delay = 0;
	struct deadline dl;
	int i, status;
	pid_t r;

	for (i = 0; i < nregistered; i++) {
		struct tracee *t = registry[i];

		/* A reaped pid may already belong to someone else: never signal it. */
		if (t->pid > 0 && t->state != TS_REAPED)
			kill(t->pid, SIGKILL);
	}
	deadline_start(&dl, CLEANUP_SEC);
	for (;;) {
		r = waitpid(-1, &status, WNOHANG | __WALL);
		if (r > 0) {
			mark_reaped(r, status);
			continue;
		}
		if (r < 0 && errno == ECHILD)
			break;
		if (r < 0 && errno != EINTR) {
			fprintf(stderr, "ptstress: cleanup: waitpid: %s\n", strerror(errno));
			return -1;
		}
		if (deadline_expired(&dl)) {
			/* SIGKILL must end any task (do_exit() runs): a kernel finding. */
			describe_children_of_self();
			return -ETIMEDOUT;
		}
		/* Each reaped process may have handed us its own children. */
		kill_children_of_self();
		backoff_sleep(&delay);
	}
	/*
	 * ECHILD: R has no child, so no descendant is left either (R is the
	 * subreaper every orphan of the run goes to), and no registered pid
	 * may be signalled again.
	 */
	for (i = 0; i < nregistered; i++)
		registry[i]->registered = false;
	nregistered = 0;
	return 0;
}

void ps_die_of_stop_signal(void)
{
	sigset_t set;

	if (!ps_stop_signal)
		return;
	/* Everything is reaped: now die of the signal, as the shell expects (130, 143). */
	fflush(stdout);
	fflush(stderr);
	signal(ps_stop_signal, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, ps_stop_signal);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(ps_stop_signal);
}

/* ---- the watchdog ---- */

static volatile pid_t watched;	/* R, in the watchdog */

static void forward_signal(int sig)
{
	if (watched > 0)
		kill(watched, sig);
}

int ps_watchdog(int (*fn)(void *), void *arg)
{
	pid_t self = getpid(), r, engine;
	struct sigaction sa;
	int status, left = 0;
	unsigned int delay = 0;
	struct deadline dl;

	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		fprintf(stderr, "ptstress: PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
		return PS_EXIT_HARNESS;
	}
	fflush(stdout);
	fflush(stderr);
	r = fork();
	if (r < 0) {
		fprintf(stderr, "ptstress: fork: %s\n", strerror(errno));
		return PS_EXIT_HARNESS;
	}
	if (r == 0) {
		/* R: if the watchdog dies, even of SIGKILL, R tears the run down. */
		ps_install_signal_handlers();
		/* R stays the subreaper of everything the run creates. */
		if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
			_exit(PS_EXIT_HARNESS);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != self)
			raise(SIGTERM);
		status = fn(arg);
		ps_die_of_stop_signal();
		_exit(status);
	}
	watched = engine = r;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	while (waitpid(r, &status, 0) < 0) {
		if (errno != EINTR) {
			fprintf(stderr, "ptstress: waitpid(%d): %s\n", (int)r, strerror(errno));
			status = PS_EXIT_HARNESS << 8;
			break;
		}
	}
	watched = 0;
	/*
	 * R reaps everything before it exits; what is left came to us because
	 * R was killed: R's orphans, whatever their state (stopped, traced).
	 */
	deadline_start(&dl, CLEANUP_SEC);
	for (;;) {
		r = waitpid(-1, NULL, WNOHANG | __WALL);
		if (r > 0) {
			left++;
			continue;
		}
		if (r < 0 && errno == ECHILD)
			break;
		if (r < 0 && errno != EINTR)
			break;
		if (deadline_expired(&dl)) {
			describe_children_of_self();
			fprintf(stderr, "ptstress: a task of the run survived SIGKILL\n");
			status = PS_EXIT_FINDING << 8;
			break;
		}
		kill_children_of_self();
		backoff_sleep(&delay);
	}
	if (left)
		fprintf(stderr, "ptstress: the engine (pid %d) ended by %s; %d tasks of the run "
			"killed and reaped\n", (int)engine, WIFSIGNALED(status) ?
			sig_name(WTERMSIG(status)) : "exiting", left);
	if (WIFSIGNALED(status)) {
		fflush(stdout);
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}
