// SPDX-License-Identifier: GPL-2.0
/*
 * ptput: ptrace throughput, the bare-syscall limit.
 *
 * attach+detach: one cycle is PTRACE_SEIZE, PTRACE_INTERRUPT, waitpid() for
 * the PTRACE_EVENT_STOP, PTRACE_DETACH, on a child sleeping in pause();
 * kill+reap: one cycle is fork() of a child that pauses, kill(SIGKILL),
 * waitpid().  Each runs for SECONDS in 1 and in N tracer processes at once
 * (each with its own tracee: ptrace requests come from the attaching
 * thread), and prints cycles per second.  Then one tracer seizes M sleeping
 * children and the rise of Slab + KernelStack in /proc/meminfo per tracee
 * is printed (the cost of being traced beyond being a process).
 *
 * usage: ptput [-s SECONDS] [-n TRACERS] [-m TRACEES]
 * A benchmark: it prints figures and never fails on them; exit 3 if a
 * syscall fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what, pid_t pid)
{
	fprintf(stderr, "ptput: %s (pid %d): %s\n", what, (int)pid, strerror(errno));
	exit(3);
}

static pid_t sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	if (pid < 0)
		die("fork", 0);
	return pid;
}

/* Cycles of @kind in @secs seconds, in this process. */
static long run(int kind, double secs)
{
	double end = now() + secs;
	long cycles = 0;
	int status;
	pid_t c = kind == 0 ? sleeper() : 0;

	while (now() < end) {
		if (kind == 0) {
			if (ptrace(PTRACE_SEIZE, c, 0, 0))
				die("PTRACE_SEIZE", c);
			if (ptrace(PTRACE_INTERRUPT, c, 0, 0))
				die("PTRACE_INTERRUPT", c);
			if (waitpid(c, &status, __WALL) != c)
				die("waitpid", c);
			if (ptrace(PTRACE_DETACH, c, 0, 0))
				die("PTRACE_DETACH", c);
		} else {
			c = sleeper();
			kill(c, SIGKILL);
			if (waitpid(c, &status, 0) != c)
				die("waitpid", c);
		}
		cycles++;
	}
	if (kind == 0) {
		kill(c, SIGKILL);
		waitpid(c, &status, 0);
	}
	return cycles;
}

/* Total cycles per second of @n processes running @kind at once. */
static double parallel(int kind, int n, double secs)
{
	int fds[2], i, status;
	long total = 0, c;

	if (pipe(fds))
		die("pipe", 0);
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			c = run(kind, secs);
			if (write(fds[1], &c, sizeof(c)) != sizeof(c))
				_exit(3);
			_exit(0);
		}
		if (pid < 0)
			die("fork", 0);
	}
	close(fds[1]);
	while (read(fds[0], &c, sizeof(c)) == sizeof(c))
		total += c;
	close(fds[0]);
	while (wait(&status) > 0)
		;
	return total / secs;
}

static long meminfo_kb(void)
{
	char key[64];
	long val, sum = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fscanf(f, " %63[^:]: %ld kB", key, &val) == 2)
		if (!strcmp(key, "Slab") || !strcmp(key, "KernelStack"))
			sum += val;
	fclose(f);
	return sum;
}

int main(int argc, char **argv)
{
	int opt, n = 4, m = 1000, i, status;
	double secs = 5;
	long before, untraced, traced;
	pid_t *kids;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "s:n:m:")) != -1) {
		switch (opt) {
		case 's': secs = atof(optarg); break;
		case 'n': n = atoi(optarg); break;
		case 'm': m = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: ptput [-s SECONDS] [-n TRACERS] [-m TRACEES]\n");
			return 2;
		}
	}
	printf("# bare-syscall ptrace throughput, %.0f s per figure\n", secs);
	printf("attach+detach cycles/s, 1 tracer:  %.0f\n", parallel(0, 1, secs));
	printf("attach+detach cycles/s, %d tracers: %.0f\n", n, parallel(0, n, secs));
	printf("kill+reap cycles/s, 1 process:     %.0f\n", parallel(1, 1, secs));
	printf("kill+reap cycles/s, %d processes:   %.0f\n", n, parallel(1, n, secs));

	kids = calloc((size_t)m, sizeof(*kids));
	if (!kids)
		return 3;
	before = meminfo_kb();
	for (i = 0; i < m; i++)
		kids[i] = sleeper();
	sleep(1);
	untraced = meminfo_kb();
	for (i = 0; i < m; i++)
		if (ptrace(PTRACE_SEIZE, kids[i], 0, 0))
			die("PTRACE_SEIZE", kids[i]);
	sleep(1);
	traced = meminfo_kb();
	printf("kernel memory (Slab+KernelStack) per sleeping process: %.2f kB\n",
	       (double)(untraced - before) / m);
	printf("kernel memory added by PTRACE_SEIZE, per tracee:       %.2f kB\n",
	       (double)(traced - untraced) / m);
	for (i = 0; i < m; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < m; i++)
		waitpid(kids[i], &status, __WALL);
	return 0;
}
