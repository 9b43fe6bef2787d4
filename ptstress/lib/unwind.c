// SPDX-License-Identifier: GPL-2.0
/*
 * User-space backtrace of a stuck task, for a failure report (unwind.h).
 *
 * libunwind-ptrace reads the registers and memory of a ptrace-stopped
 * tracee, so we must briefly be the tracer: PTRACE_SEIZE (no options: no
 * event stops we did not ask for, and no SIGSTOP that would turn into a
 * group-stop), PTRACE_INTERRUPT to stop it wherever it is, then detach.
 * When the task cannot be traced by us, the /proc files that say where it
 * sleeps in the kernel are the next best thing.
 *
 * Self-contained (libc and libunwind only) so that unwind-test can link it
 * without the rest of ptstress.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libunwind-ptrace.h>

#include "lib/unwind.h"

/* Enough for any real stack we care about; a loop in the unwind stops here. */
#define UNWIND_MAX_FRAMES	64
#define POLL_MIN_US		1000
#define POLL_MAX_US		50000
#define PROC_BUF		8192

/* The report being written: appends never overflow and keep the NUL. */
struct sink {
	char *buf;		/* the caller's buffer */
	size_t len;		/* its size; 0 means nothing can be written */
	size_t pos;		/* bytes written so far, excluding the NUL */
};

/* What /proc status said before we touched the task. */
struct task_status {
	char state_line[64];	/* "S (sleeping)": the State: value, for the report */
	char state;		/* its letter */
	pid_t ppid;		/* PPid: whether an exit we reap was meant for us */
	pid_t tracer_pid;	/* TracerPid: 0 if untraced */
};

static void emit(struct sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->pos + 1 >= s->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->pos, s->len - s->pos, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s->pos += (size_t)n;
	if (s->pos >= s->len)
		s->pos = s->len - 1;	/* truncated: vsnprintf kept the NUL */
}

/* Read /proc/@tgid/task/@tid/@name into @buf (NUL-terminated); bytes or -errno. */
static ssize_t read_proc(pid_t tgid, pid_t tid, const char *name, char *buf, size_t size)
{
	char path[96];
	ssize_t n, total = 0;
	int fd, err;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)tgid, (int)tid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total + 1 < size) {
		n = read(fd, buf + total, size - 1 - total);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		total += n;
	}
	buf[total] = '\0';
	close(fd);
	return total;
}

static int read_status(pid_t tgid, pid_t tid, struct task_status *st)
{
	char buf[PROC_BUF], *p;
	ssize_t n;
	size_t k;

	memset(st, 0, sizeof(*st));
	n = read_proc(tgid, tid, "status", buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	p = strstr(buf, "\nState:\t");
	if (p) {
		p += strlen("\nState:\t");
		for (k = 0; p[k] && p[k] != '\n' && k + 1 < sizeof(st->state_line); k++)
			st->state_line[k] = p[k];
		st->state = p[0];
	}
	p = strstr(buf, "\nPPid:\t");
	if (p)
		st->ppid = atoi(p + strlen("\nPPid:\t"));
	p = strstr(buf, "\nTracerPid:\t");
	if (p)
		st->tracer_pid = atoi(p + strlen("\nTracerPid:\t"));
	if (!st->state)
		return -EINVAL;
	return 0;
}

/* The kernel's view, for when we have no user-space one: where it sleeps. */
static void emit_proc_files(struct sink *s, pid_t tgid, pid_t tid)
{
	char buf[PROC_BUF];
	ssize_t n;

	n = read_proc(tgid, tid, "syscall", buf, sizeof(buf));
	if (n >= 0)
		emit(s, "syscall: %s%s", buf, n && buf[n - 1] == '\n' ? "" : "\n");
	else
		emit(s, "syscall: unreadable: %s\n", strerror((int)-n));
	n = read_proc(tgid, tid, "wchan", buf, sizeof(buf));
	if (n >= 0)
		emit(s, "wchan: %s\n", n ? buf : "0");
	else
		emit(s, "wchan: unreadable: %s\n", strerror((int)-n));
	/* Root only (and a kernel with CONFIG_STACKTRACE): optional. */
	n = read_proc(tgid, tid, "stack", buf, sizeof(buf));
	if (n > 0)
		emit(s, "kernel stack:\n%s%s", buf, buf[n - 1] == '\n' ? "" : "\n");
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);	/* EINTR: the loop re-checks its deadline */
}

/*
 * Wait for the PTRACE_EVENT_STOP our PTRACE_INTERRUPT asked for.  Polls
 * waitpid(WNOHANG | __WALL), never blocks: see the caveat in unwind.h.
 * A signal-delivery-stop is the tracee's own signal that we happened to
 * intercept: it is re-injected, and since any ptrace stop clears a pending
 * INTERRUPT trap (ptrace_stop()), the interrupt is sent again.  A group-stop
 * of a seized tracee is a PTRACE_EVENT_STOP too: fine, it is stopped.
 * Returns 0 stopped, -ESRCH exited (said in @s), -ETIMEDOUT, or -errno.
 */
static int wait_for_stop(struct sink *s, pid_t tgid, pid_t tid, const struct task_status *before)
{
	long deadline = now_us() + UNWIND_STOP_SEC * 1000000L;
	long delay = POLL_MIN_US;
	int status, sig;
	pid_t r;

	for (;;) {
		r = waitpid(tid, &status, WNOHANG | __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			emit(s, "waitpid(%d): %s\n", (int)tid, strerror(errno));
			return -errno;
		}
		if (r == tid && (WIFEXITED(status) || WIFSIGNALED(status))) {
			if (WIFEXITED(status))
				emit(s, "exited during the unwind: exit code %d\n",
				     WEXITSTATUS(status));
			else
				emit(s, "exited during the unwind: killed by signal %d\n",
				     WTERMSIG(status));
			if (tid == tgid && before->ppid == getpid())
				emit(s, "(reaped here, by its parent: its wait won't see it)\n");
			return -ESRCH;
		}
		if (r == tid && WIFSTOPPED(status)) {
			if (status >> 16 == PTRACE_EVENT_STOP)
				return 0;
			/* Any other stop is a signal-delivery-stop: not ours. */
			sig = WSTOPSIG(status);
			if (ptrace(PTRACE_CONT, tid, 0L, (long)sig) == 0)
				ptrace(PTRACE_INTERRUPT, tid, 0L, 0L);
			continue;	/* ESRCH: killed meanwhile; waitpid says so */
		}
		if (now_us() >= deadline) {
			emit(s, "did not stop within %d s of PTRACE_INTERRUPT\n", UNWIND_STOP_SEC);
			return -ETIMEDOUT;
		}
		sleep_us(delay);
		delay = delay * 2 > POLL_MAX_US ? POLL_MAX_US : delay * 2;
	}
}

/* Unwind the stopped tracee @tid; the number of frames written or -errno. */
static int backtrace_stopped(struct sink *s, pid_t tid)
{
	unw_addr_space_t as;
	unw_cursor_t c;
	unw_word_t ip, off;
	char name[256];
	void *upt;
	int n = 0, r;

	as = unw_create_addr_space(&_UPT_accessors, 0);
	if (!as) {
		emit(s, "libunwind: unw_create_addr_space failed\n");
		return -ENOMEM;
	}
	upt = _UPT_create(tid);
	if (!upt) {
		emit(s, "libunwind: _UPT_create failed\n");
		unw_destroy_addr_space(as);
		return -ENOMEM;
	}
	r = unw_init_remote(&c, as, upt);
	if (r < 0) {
		emit(s, "libunwind: unw_init_remote: %s\n", unw_strerror(r));
		goto out;
	}
	do {
		if (unw_get_reg(&c, UNW_REG_IP, &ip) < 0 || (n > 0 && ip == 0))
			break;
		/* -UNW_ENOMEM is a truncated name: still worth printing. */
		r = unw_get_proc_name(&c, name, sizeof(name), &off);
		if (r == 0 || r == -UNW_ENOMEM)
			emit(s, "#%d 0x%016lx %s+0x%lx\n", n, (unsigned long)ip, name,
			     (unsigned long)off);
		else
			emit(s, "#%d 0x%016lx ??\n", n, (unsigned long)ip);
		n++;
		r = unw_step(&c);
		if (r < 0)
			emit(s, "libunwind: unw_step: %s\n", unw_strerror(r));
	} while (r > 0 && n < UNWIND_MAX_FRAMES);
	if (n == UNWIND_MAX_FRAMES && r > 0)
		emit(s, "(stopped after %d frames)\n", UNWIND_MAX_FRAMES);
out:
	_UPT_destroy(upt);
	unw_destroy_addr_space(as);
	return n;
}

/* No user-space unwind: the reason, then the kernel's view.  Returns 1. */
static int fallback(struct sink *s, pid_t tgid, pid_t tid, const char *why)
{
	emit(s, "%s: no user-space unwind\n", why);
	emit_proc_files(s, tgid, tid);
	return 1;
}

int unwind_task(pid_t tgid, pid_t tid, char *out, size_t len)
{
	struct sink s = { .buf = out, .len = len, .pos = 0 };
	struct task_status st, now;
	char why[128];
	int r, err, frames;

	if (!out || !len)
		return -EINVAL;
	out[0] = '\0';
	if (tgid <= 0 || tid <= 0) {
		emit(&s, "unwind: bad tgid %d / tid %d\n", (int)tgid, (int)tid);
		return -EINVAL;
	}
	r = read_status(tgid, tid, &st);
	if (r < 0) {
		emit(&s, "tid %d (tgid %d): status: %s\n", (int)tid, (int)tgid, strerror(-r));
		return r;
	}
	emit(&s, "tid %d (tgid %d) State: %s\n", (int)tid, (int)tgid, st.state_line);

	/* Cases where PTRACE_SEIZE fails or could never be undone: don't try. */
	if (st.tracer_pid) {
		snprintf(why, sizeof(why), "traced by TracerPid %d", (int)st.tracer_pid);
		return fallback(&s, tgid, tid, why);
	}
	if (st.state == 'Z' || st.state == 'X')
		return fallback(&s, tgid, tid, "zombie");
	/*
	 * D: it will not stop before the sleep ends, and a tracee can only be
	 * detached while stopped; seizing it could leave it traced by us.
	 */
	if (st.state == 'D')
		return fallback(&s, tgid, tid, "uninterruptible sleep (it cannot stop)");
	if (tgid == getpid())
		return fallback(&s, tgid, tid, "a thread of the unwinder itself");

	if (ptrace(PTRACE_SEIZE, tid, 0L, 0L) < 0) {
		err = errno;
		if (err == ESRCH) {
			emit(&s, "PTRACE_SEIZE: %s: gone\n", strerror(err));
			return -ESRCH;
		}
		if (err != EPERM) {
			emit(&s, "PTRACE_SEIZE: %s\n", strerror(err));
			return -err;
		}
		/* Lost a race with another tracer or with its exit: say which. */
		r = read_status(tgid, tid, &now);
		if (r == 0 && now.tracer_pid)
			snprintf(why, sizeof(why), "traced by TracerPid %d", (int)now.tracer_pid);
		else if (r == 0 && now.state == 'Z')
			snprintf(why, sizeof(why), "zombie");
		else
			snprintf(why, sizeof(why), "PTRACE_SEIZE: %s (TracerPid 0)",
				 strerror(err));
		return fallback(&s, tgid, tid, why);
	}
	/* From here on we are the tracer: every path below ends in a detach. */
	if (ptrace(PTRACE_INTERRUPT, tid, 0L, 0L) < 0) {
		/* Only if it is already dead and waiting to be reaped: wait says. */
		emit(&s, "PTRACE_INTERRUPT: %s\n", strerror(errno));
	}
	r = wait_for_stop(&s, tgid, tid, &st);
	if (r == -ESRCH)
		return r;	/* exited and reaped: nothing left to detach */
	frames = 0;
	if (r == 0) {
		frames = backtrace_stopped(&s, tid);
		if (frames <= 0) {
			r = 1;	/* explained by backtrace_stopped(); the kernel's view follows */
			emit_proc_files(&s, tgid, tid);
		}
	}
	if (ptrace(PTRACE_DETACH, tid, 0L, 0L) < 0) {
		err = errno;
		if (r == 0)
			r = -err;
		emit(&s, "PTRACE_DETACH: %s: still traced by pid %d until we exit\n",
		     strerror(err), (int)getpid());
	}
	if (r == -ETIMEDOUT && read_status(tgid, tid, &now) == 0)
		emit(&s, "State now: %s\n", now.state_line);
	return r;
}
