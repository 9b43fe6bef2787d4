// SPDX-License-Identifier: GPL-2.0
/*
 * exitwork: the 2002 claim "exit is O(1) in the number of tasks" as numbers,
 * read from the kernel's own exit work counters (patch 3 of the series).
 *
 * For each count N of idle tasks (separate sleeping processes): N idle
 * processes are started and checked asleep; then ITER times fork a child
 * that _exit()s at once and waitpid() it (lmbench's lat_proc fork+exit),
 * and ITER times pthread_create() a thread that returns at once and join it.
 * Each loop runs twice: with the list-based hand-over only, and with the
 * 2.5.31 full-task scan on (sysctl kernel.ptrace_links_scan = 1). After each
 * loop <debugfs>/ptrace_links/counters gives the list entries visited per
 * exit (children_visited + threads_reparented + ptraced_visited) and the
 * threads the scan visited per exit.
 *
 * usage: exitwork [-i ITER] N...      (in the patched guest, as root)
 * Prints a table; exit 0, or 3 if the counters are missing (wrong kernel).
 * A benchmark: it never fails on a number.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COUNTERS	"/sys/kernel/debug/ptrace_links/counters"
#define SCAN		"/proc/sys/kernel/ptrace_links_scan"

struct work {
	long exits, children_visited, threads_reparented, ptraced_visited;
	long scan_exits, scan_visited;
};

static int read_work(struct work *w)
{
	char key[64];
	long val;
	FILE *f = fopen(COUNTERS, "r");

	if (!f)
		return -1;
	memset(w, 0, sizeof(*w));
	while (fscanf(f, " %63[^:]: %ld", key, &val) == 2) {
		if (!strcmp(key, "exits"))
			w->exits = val;
		else if (!strcmp(key, "children_visited"))
			w->children_visited = val;
		else if (!strcmp(key, "threads_reparented"))
			w->threads_reparented = val;
		else if (!strcmp(key, "ptraced_visited"))
			w->ptraced_visited = val;
		else if (!strcmp(key, "scan_exits"))
			w->scan_exits = val;
		else if (!strcmp(key, "scan_visited"))
			w->scan_visited = val;
	}
	fclose(f);
	return 0;
}

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(s, f);
	return fclose(f);
}

static void *thread_fn(void *arg)
{
	return arg;
}

static void loop_fork(int iter)
{
	int i, status;
	pid_t pid;

	for (i = 0; i < iter; i++) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			perror("exitwork: fork/waitpid");
			exit(3);
		}
	}
}

static void loop_thread(int iter)
{
	pthread_t t;
	int i;

	for (i = 0; i < iter; i++) {
		if (pthread_create(&t, NULL, thread_fn, NULL) || pthread_join(t, NULL)) {
			fprintf(stderr, "exitwork: pthread_create/join failed\n");
			exit(3);
		}
	}
}

/* Wait until every idle process sleeps (State S) in pause(). */
static void wait_asleep(const pid_t *idle, int n)
{
	char path[64], line[128];
	int i, tries;
	FILE *f;

	for (i = 0; i < n; i++) {
		for (tries = 0; tries < 10000; tries++) {
			snprintf(path, sizeof(path), "/proc/%d/stat", idle[i]);
			f = fopen(path, "r");
			if (!f)
				break;
			line[0] = '\0';
			if (!fgets(line, sizeof(line), f))
				line[0] = '\0';
			fclose(f);
			if (strstr(line, ") S "))
				break;
			usleep(1000);
		}
	}
}

static long count_threads(void)
{
	char key[64];
	long val, threads = -1;
	FILE *f = fopen("/sys/kernel/debug/ptrace_links/check", "r");

	if (!f)
		return -1;
	while (fscanf(f, " %63[^:]: %ld", key, &val) == 2)
		if (!strcmp(key, "threads"))
			threads = val;
	fclose(f);
	return threads;
}

static void measure(const char *what, void (*loop)(int), int iter, int scan, double *list_per,
		    double *scan_per, long *exits)
{
	struct work w;

	write_file(SCAN, scan ? "1" : "0");
	write_file(COUNTERS, "0");
	loop(iter);
	write_file(SCAN, "0");
	read_work(&w);
	(void)what;
	*exits = w.exits;
	*list_per = w.exits ? (double)(w.children_visited + w.threads_reparented +
				       w.ptraced_visited) / w.exits : 0;
	*scan_per = w.scan_exits ? (double)w.scan_visited / w.scan_exits : 0;
}

int main(int argc, char **argv)
{
	int iter = 200, i, j, n, first = 1;
	struct work w;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 && !strcmp(argv[1], "-i")) {
		iter = atoi(argv[2]);
		first = 3;
	}
	if (first >= argc || iter <= 0) {
		fprintf(stderr, "usage: exitwork [-i ITER] N...\n");
		return 2;
	}
	if (read_work(&w) || access(SCAN, W_OK)) {
		fprintf(stderr, "exitwork: no %s or %s: not the patched kernel\n", COUNTERS, SCAN);
		return 3;
	}
	printf("# exit work per exit, from <debugfs>/ptrace_links/counters; %d iterations\n", iter);
	printf("# %-8s %-8s | %-26s | %-26s\n", "", "", "fork+exit (lat_proc)", "thread create+exit");
	printf("# %-8s %-8s | %-12s %-13s | %-12s %-13s\n", "idle", "threads", "lists/exit",
	       "2002scan/exit", "lists/exit", "2002scan/exit");
	for (i = first; i < argc; i++) {
		double fl, fs, tl, ts, dummy;
		long exits;
		pid_t *idle;

		n = atoi(argv[i]);
		idle = calloc((size_t)n + 1, sizeof(*idle));
		if (!idle)
			return 3;
		for (j = 0; j < n; j++) {
			idle[j] = fork();
			if (idle[j] == 0) {
				for (;;)
					pause();
			}
			if (idle[j] < 0) {
				perror("exitwork: fork idle");
				n = j;
				break;
			}
		}
		wait_asleep(idle, n);
		measure("fork", loop_fork, iter, 0, &fl, &dummy, &exits);
		measure("fork", loop_fork, iter, 1, &dummy, &fs, &exits);
		measure("thread", loop_thread, iter, 0, &tl, &dummy, &exits);
		measure("thread", loop_thread, iter, 1, &dummy, &ts, &exits);
		printf("  %-8d %-8ld | %-12.2f %-13.1f | %-12.2f %-13.1f\n", n, count_threads(),
		       fl, fs, tl, ts);
		for (j = 0; j < n; j++)
			kill(idle[j], SIGKILL);
		for (j = 0; j < n; j++)
			waitpid(idle[j], NULL, 0);
		free(idle);
	}
	return 0;
}
