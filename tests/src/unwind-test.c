// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-test: unwind_task() on tasks whose stacks we know.  TAP 13 through
 * harness.h; exit 0 pass, 1 fail, 3 harness error.  Built -O0
 * -fno-omit-frame-pointer so that deep3() -> deep2() -> deep1() are real
 * frames; they are static: libunwind names them from the executable's
 * .symtab, no -rdynamic needed.
 *
 * After every unwind the task must be as we found it: not traced
 * (TracerPid 0), sleeping where it slept, and its exit report still ours.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "lib/unwind.h"

#define OUT_LEN		16384
#define SPIN_UNWINDS	30

/* The pipe a child writes its "ready" word (a pid or tid) to. */
static int ready_fd[2] = { -1, -1 };

/* Fail the test unless @ok: @what at @line, then @diag's lines as diagnostics. */
static void check_at(struct th_test *t, int line, bool ok, const char *what, const char *diag)
{
	const char *p, *nl;

	if (ok)
		return;
	th_fail(t, __FILE__, line, "%s", what);
	for (p = diag; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			printf("#     %s\n", p);
			break;
		}
		printf("#     %.*s\n", (int)(nl - p), p);
	}
}

#define CHECK(ok, what, diag)	check_at(_th, __LINE__, (ok), (what), (diag))

/* The harness cannot go on: exit 3. */
static void bail(const char *what)
{
	TH_BAIL("%s: %s", what, strerror(errno));
}

static void say_ready(int word)
{
	if (write(ready_fd[1], &word, sizeof(word)) != sizeof(word))
		_exit(3);
}

static int wait_ready(void)
{
	int word;

	if (read(ready_fd[0], &word, sizeof(word)) != sizeof(word))
		bail("child did not get ready");
	return word;
}

static __attribute__((noinline)) int deep1(void)
{
	say_ready(getpid());
	for (;;)
		pause();
	return 1;
}

static __attribute__((noinline)) int deep2(void)
{
	return deep1() + 1;
}

static __attribute__((noinline)) int deep3(void)
{
	return deep2() + 1;
}

static __attribute__((noinline)) void *thread_deep1(void *arg)
{
	(void)arg;
	say_ready((int)gettid());
	for (;;)
		pause();
	return NULL;
}

static __attribute__((noinline)) void *thread_deep2(void *arg)
{
	return thread_deep1(arg);
}

/* Counted in the handler: a signal our unwinder swallowed shows as a gap. */
static volatile sig_atomic_t handled;
static volatile sig_atomic_t spin_stop;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

static void on_usr2(int sig)
{
	(void)sig;
	spin_stop = 1;
}

/* Raise SIGUSR1 in a loop: the unwinder meets signal-delivery-stops. */
static __attribute__((noinline)) int spin_raise(void)
{
	sig_atomic_t sent = 0;

	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	say_ready(getpid());
	while (!spin_stop) {
		sent++;
		raise(SIGUSR1);	/* its handler runs before raise() returns */
		if (handled != sent)
			return 5;
	}
	return 0;
}

static pid_t fork_child(int (*fn)(void))
{
	pid_t pid;

	if (ready_fd[0] < 0 && pipe(ready_fd) < 0)
		bail("pipe");
	pid = fork();
	if (pid < 0)
		bail("fork");
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(fn());
	}
	return pid;
}

static int thread_child(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, thread_deep2, NULL))
		return 3;
	for (;;)
		pause();
	return 0;
}

static int exit_at_once(void)
{
	say_ready(getpid());
	return 7;
}

/* State letter and TracerPid of @tgid/@tid; false if unreadable. */
static bool task_status(pid_t tgid, pid_t tid, char *state, int *tracer)
{
	char path[96], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)tgid, (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	*state = '?';
	*tracer = -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "State:\t", 7))
			*state = line[7];
		else if (!strncmp(line, "TracerPid:\t", 11))
			*tracer = atoi(line + 11);
	}
	fclose(f);
	return true;
}

/* Wait up to 2 s for @tid to be in @want with TracerPid @tracer. */
static bool settle(pid_t tgid, pid_t tid, char want, int tracer, char *diag, size_t len)
{
	char st = '?';
	int tp = -1;

	for (int i = 0; i < 200; i++) {
		if (task_status(tgid, tid, &st, &tp) && st == want && tp == tracer)
			return true;
		usleep(10000);
	}
	snprintf(diag, len, "tid %d: State %c TracerPid %d, want %c and %d", (int)tid, st, tp,
		 want, tracer);
	return false;
}

/* Kill @pid with @sig and check that its exit report is still ours. */
static void kill_and_reap(struct th_test *_th, pid_t pid, int sig, const char *name)
{
	char diag[128];
	int status = 0;
	pid_t r;

	kill(pid, sig);
	r = waitpid(pid, &status, 0);
	snprintf(diag, sizeof(diag), "waitpid: %d, status %#x", (int)r, status);
	CHECK(r == pid && WIFSIGNALED(status) && WTERMSIG(status) == sig, name, diag);
}

TEST(backtrace_sleeping_child)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(deep3);
	int r;

	wait_ready();
	if (!settle(pid, pid, 'S', 0, diag, sizeof(diag)))
		bail("child never slept");
	r = unwind_task(pid, pid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	CHECK(r == 0, "backtrace of a sleeping child: returns 0", diag);
	CHECK(strstr(out, "State: S") != NULL, "first line has State: S", diag);
	CHECK(strstr(out, " deep1+0x") && strstr(out, " deep2+0x") && strstr(out, " deep3+0x"),
	      "frames deep1, deep2, deep3 named", diag);
	CHECK(strstr(out, "#0 0x") != NULL, "frames are \"#N 0xIP name+off\"", diag);
	printf("# unwind_task(%d):\n", (int)pid);
	for (char *p = strtok(out, "\n"); p; p = strtok(NULL, "\n"))
		printf("#   %s\n", p);
	CHECK(settle(pid, pid, 'S', 0, diag, sizeof(diag)),
	      "afterwards: not traced (TracerPid 0) and sleeping (State S)", diag);
	kill_and_reap(_th, pid, SIGTERM, "afterwards: its exit report still reaches its parent");
}

TEST(nonleader_thread)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(thread_child);
	pid_t tid = wait_ready();
	int r;

	if (!settle(pid, tid, 'S', 0, diag, sizeof(diag)))
		bail("thread never slept");
	r = unwind_task(pid, tid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	CHECK(r == 0 && strstr(out, " thread_deep1+0x") && strstr(out, " thread_deep2+0x"),
	      "backtrace of a non-leader thread names thread_deep1, thread_deep2", diag);
	CHECK(settle(pid, tid, 'S', 0, diag, sizeof(diag)) &&
	      settle(pid, pid, 'S', 0, diag, sizeof(diag)),
	      "afterwards: thread and leader not traced and sleeping", diag);
	kill_and_reap(_th, pid, SIGTERM, "afterwards: the process's exit report still ours");
}

/* A group-stopped child: unwound in place, and left in its group-stop. */
TEST(group_stopped_child)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(deep3);
	int r;

	wait_ready();
	kill(pid, SIGSTOP);
	if (!settle(pid, pid, 'T', 0, diag, sizeof(diag)))
		bail("child did not stop");
	r = unwind_task(pid, pid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	CHECK(r == 0 && strstr(out, "State: T") && strstr(out, " deep1+0x"),
	      "group-stopped child: State T, backtrace through deep1", diag);
	CHECK(settle(pid, pid, 'T', 0, diag, sizeof(diag)),
	      "afterwards: still in its group-stop, not traced", diag);
	kill(pid, SIGCONT);
	CHECK(settle(pid, pid, 'S', 0, diag, sizeof(diag)), "SIGCONT: sleeping again", diag);
	kill_and_reap(_th, pid, SIGTERM, "group-stopped child's exit report still ours");
}

/* The vfork() parent waits in TASK_KILLABLE ("D"): it could never stop for us. */
static int vfork_parent(void)
{
	pid_t pid = vfork();

	if (pid == 0) {
		say_ready(getpid());
		for (;;)
			pause();
	}
	for (;;)
		pause();
	return 0;
}

TEST(vfork_parent_uninterruptible)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(vfork_parent);
	pid_t vchild = wait_ready();
	int r;

	if (!settle(pid, pid, 'D', 0, diag, sizeof(diag)))
		bail("vfork parent not in D");
	r = unwind_task(pid, pid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	CHECK(r == 1 && strstr(out, "State: D") &&
	      strstr(out, "uninterruptible sleep (it cannot stop): no user-space unwind"),
	      "vfork parent in D: returns 1 without seizing it", diag);
	CHECK(settle(pid, pid, 'D', 0, diag, sizeof(diag)), "afterwards: not traced", diag);
	kill(vchild, SIGKILL);
	kill_and_reap(_th, pid, SIGKILL, "vfork parent's exit report still ours");
}

TEST(traced_by_another)
{
	char out[OUT_LEN], diag[OUT_LEN + 256], want[64];
	pid_t pid = fork_child(deep3), helper;
	int r, status;

	wait_ready();
	helper = fork();
	if (helper < 0)
		bail("fork");
	if (helper == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (ptrace(PTRACE_SEIZE, pid, 0L, 0L) < 0)
			_exit(3);
		say_ready(getpid());
		for (;;)
			pause();
	}
	wait_ready();
	if (!settle(pid, pid, 'S', helper, diag, sizeof(diag)))
		bail("helper did not seize the child");
	r = unwind_task(pid, pid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	snprintf(want, sizeof(want), "traced by TracerPid %d: no user-space unwind", (int)helper);
	CHECK(r == 1, "child traced by another process: returns 1 (fallback)", diag);
	CHECK(strstr(out, "State: S") && strstr(out, want),
	      "fallback text: State, and \"traced by TracerPid <helper>\"", diag);
	CHECK(strstr(out, "\nsyscall: ") && strstr(out, "\nwchan: "),
	      "fallback text: syscall and wchan", diag);
	CHECK(settle(pid, pid, 'S', helper, diag, sizeof(diag)),
	      "afterwards: still traced by the helper only, sleeping", diag);
	kill(helper, SIGKILL);
	waitpid(helper, &status, 0);
	CHECK(settle(pid, pid, 'S', 0, diag, sizeof(diag)),
	      "helper gone: the child is untraced and sleeping", diag);
	kill_and_reap(_th, pid, SIGTERM, "fallback child's exit report still ours");
}

TEST(zombie_not_reaped)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(exit_at_once);
	int r, status = 0;

	wait_ready();
	if (!settle(pid, pid, 'Z', 0, diag, sizeof(diag)))
		bail("child did not become a zombie");
	r = unwind_task(pid, pid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	CHECK(r == 1 && strstr(out, "State: Z") && strstr(out, "zombie: no user-space unwind"),
	      "zombie: returns 1, says zombie", diag);
	r = waitpid(pid, &status, WNOHANG);
	snprintf(diag, sizeof(diag), "waitpid: %d, status %#x", r, status);
	CHECK(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 7,
	      "zombie's exit report not consumed by the unwinder", diag);
}

TEST(gone_task_and_bad_buffer)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(exit_at_once);
	int r, status;

	wait_ready();
	waitpid(pid, &status, 0);
	r = unwind_task(pid, pid, out, sizeof(out));
	snprintf(diag, sizeof(diag), "returned %d:\n%s", r, out);
	CHECK(r == -ESRCH && out[0], "no such task: -ESRCH and a text", diag);
	r = unwind_task(pid, pid, out, 0);
	CHECK(r == -EINVAL, "zero-length buffer: -EINVAL", NULL);
}

/*
 * A child that raises signals in a loop: some unwinds meet a
 * signal-delivery-stop first, and must re-inject it (the child checks that
 * every signal reached its handler, and exits 5 if one did not).
 */
TEST(signal_delivery_stops_reinjected)
{
	char out[OUT_LEN], diag[OUT_LEN + 256];
	pid_t pid = fork_child(spin_raise);
	int r, i, ok = 0, status = 0;
	char st;
	int tp;

	wait_ready();
	diag[0] = '\0';
	for (i = 0; i < SPIN_UNWINDS; i++) {
		r = unwind_task(pid, pid, out, sizeof(out));
		if (r == 0 && strstr(out, " spin_raise+0x"))
			ok++;
		else
			snprintf(diag, sizeof(diag), "unwind %d returned %d:\n%s", i, r, out);
		if (!task_status(pid, pid, &st, &tp) || tp != 0) {
			snprintf(diag, sizeof(diag), "after unwind %d: TracerPid %d", i, tp);
			break;
		}
	}
	CHECK(ok == SPIN_UNWINDS, "30 unwinds of a child raising signals: all name spin_raise",
	      diag);
	kill(pid, SIGUSR2);
	r = waitpid(pid, &status, 0);
	snprintf(diag, sizeof(diag), "waitpid: %d, status %#x (exit 5: a signal was lost)",
		 r, status);
	CHECK(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "every signal reached the handler (re-injected), child exits 0", diag);
}

TEST_MAIN()
