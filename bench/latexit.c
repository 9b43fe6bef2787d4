// SPDX-License-Identifier: GPL-2.0
/*
 * latexit: the 2002 O(1)-exit benchmark on today's kernel, both columns in
 * one run.
 *
 * For each count N of idle tasks (separate processes sleeping in pause(), or
 * with -t threads of one process), checked asleep before measuring:
 *   fork+exit    lmbench lat_proc: fork, child _exit(0), parent waitpid(pid)
 *   thread+exit  pthread_create of a thread that returns, pthread_join
 * each with the list-based hand-over (today) and with the 2.5.31 full-task
 * scan added to every exit (sysctl kernel.ptrace_links_scan=1, patch 4 of
 * the series): REPS repetitions of ITER iterations, per-iteration cost from
 * CLOCK_MONOTONIC (under QEMU -icount shift=0 one guest ns is one
 * instruction), and the kernel's exit work counters (patch 3): list entries
 * and scanned threads per exit.
 *
 * The idle tasks belong to a holder process (its children, or its threads
 * with -t), so that the measuring process stays small and childless.
 *
 * usage: latexit [-t] [-r REPS] [-i ITER] N...
 * Prints one CSV line per cell (header first). A benchmark: it never fails
 * on a number; exit 3 if the series' interfaces are missing, 2 on usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
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
#define CHECK		"/sys/kernel/debug/ptrace_links/check"
#define SCAN		"/proc/sys/kernel/ptrace_links_scan"
#define MAX_REPS	32

/* The exit work counters of patch 3, summed over all CPUs by the kernel. */
struct work {
	long exits;		/* forget_original_parent() calls */
	long list_visits;	/* children_visited + threads_reparented + ptraced_visited */
	long scan_exits;	/* exits that ran the 2002 scan */
	long scan_visited;	/* threads those scans visited */
};

static long key_value(const char *path, const char *want, struct work *w)
{
	char key[64];
	long val, found = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (w)
		memset(w, 0, sizeof(*w));
	while (fscanf(f, " %63[^:]: %ld", key, &val) == 2) {
		if (want && !strcmp(key, want))
			found = val;
		if (!w)
			continue;
		if (!strcmp(key, "exits"))
			w->exits = val;
		else if (!strcmp(key, "children_visited") || !strcmp(key, "threads_reparented") ||
			 !strcmp(key, "ptraced_visited"))
			w->list_visits += val;
		else if (!strcmp(key, "scan_exits"))
			w->scan_exits = val;
		else if (!strcmp(key, "scan_visited"))
			w->scan_visited = val;
	}
	fclose(f);
	return w ? 0 : found;
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(s, f) < 0 || fclose(f)) {
		fprintf(stderr, "latexit: writing %s: %s\n", path, strerror(errno));
		exit(3);
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *returns(void *arg)
{
	return arg;
}

static void *sleeps(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void fork_exit(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		perror("latexit: fork/waitpid");
		exit(3);
	}
}

static void thread_exit(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, returns, NULL) || pthread_join(t, NULL)) {
		fprintf(stderr, "latexit: pthread_create/join failed\n");
		exit(3);
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * How many idle tasks of @holder are not asleep yet: its threads (other than
 * the one in read()) or its children, from /proc.
 */
static int not_asleep(pid_t holder, int n, int threads)
{
	char path[320], line[256];
	int busy = 0, seen = 0;
	struct dirent *de;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task", holder);
	d = opendir(threads ? path : "/proc");
	if (!d)
		return n;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (threads)
			snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", holder, de->d_name);
		else
			snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f)) {
			char *p = strrchr(line, ')');
			int ppid = p ? atoi(p + 4) : 0;

			if (threads || ppid == holder) {
				seen++;
				if (!p || p[2] != 'S')
					busy++;
			}
		}
		fclose(f);
	}
	closedir(d);
	/* Threads: the holder's own main thread sleeps in read() too. */
	return busy + (seen < n ? n - seen : 0);
}

/*
 * The holder: make @n idle tasks, write how many to @ready_w, sleep until
 * @done_r reads EOF, then kill and reap them (reaped, not left as zombies
 * that would count as tasks in the next measurement).
 */
static void __attribute__((noreturn)) hold(int n, int threads, int ready_w, int done_r)
{
	pid_t *pids = calloc((size_t)n + 1, sizeof(*pids));
	pthread_attr_t attr;
	pthread_t t;
	int made, i;
	char c;

	if (!pids)
		_exit(3);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (made = 0; made < n; made++) {
		if (threads) {
			if (pthread_create(&t, &attr, sleeps, NULL))
				break;
		} else {
			pids[made] = fork();
			if (pids[made] == 0)
				sleeps(NULL);
			if (pids[made] < 0)
				break;
		}
	}
	if (write(ready_w, &made, sizeof(made)) != sizeof(made))
		_exit(3);
	while (read(done_r, &c, 1) > 0)
		;
	for (i = 0; !threads && i < made; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; !threads && i < made; i++)
		waitpid(pids[i], NULL, 0);
	_exit(0);
}

int main(int argc, char **argv)
{
	int reps = 3, iter = 200, threads = 0, opt, a, i, j, r, scan, mode;
	static const char * const mode_name[] = { "fork+exit", "thread+exit" };
	double t[MAX_REPS];
	struct work w;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "tr:i:")) != -1) {
		switch (opt) {
		case 't': threads = 1; break;
		case 'r': reps = atoi(optarg); break;
		case 'i': iter = atoi(optarg); break;
		default: goto usage;
		}
	}
	if (optind >= argc || reps < 1 || reps > MAX_REPS || iter < 1)
		goto usage;
	if (key_value(COUNTERS, NULL, &w) || access(SCAN, W_OK)) {
		fprintf(stderr, "latexit: no %s or %s: not the patched kernel\n", COUNTERS, SCAN);
		return 3;
	}
	printf("idle_kind,idle,threads,mode,scan,min_ns,median_ns,max_ns,"
	       "list_visits_per_exit,scan_visits_per_exit\n");
	/*
	 * a == optind - 1 is a warm-up with the first N, not printed: the first
	 * cell measured on a fresh guest is ~20% cheaper than every later one,
	 * whatever its N (measured: 1000 then 200 gives 286k then 366k
	 * instructions per fork+exit, 200 then 1000 the reverse), a one-time
	 * change of state after the first holder's tasks come and go.
	 */
	for (a = optind - 1; a < argc; a++) {
		int n = atoi(argv[a < optind ? optind : a]), ready[2], done[2], made;
		int warmup = a < optind;
		pid_t holder;

		/*
		 * The idle tasks belong to a holder process, not to us: our own
		 * fork must not copy 32000 thread stacks, and waitpid() must not
		 * sit beside 32000 children.  The holder reports how many it made
		 * once they exist, then waits for us to close its pipe.
		 */
		if (pipe(ready) < 0 || pipe(done) < 0) {
			perror("latexit: pipe");
			return 3;
		}
		holder = fork();
		if (holder < 0) {
			perror("latexit: fork holder");
			return 3;
		}
		if (holder == 0) {
			close(ready[0]);
			close(done[1]);
			hold(n, threads, ready[1], done[0]);
		}
		close(ready[1]);
		close(done[0]);
		if (read(ready[0], &made, sizeof(made)) != sizeof(made)) {
			fprintf(stderr, "latexit: holder of %d idle tasks failed\n", n);
			return 3;
		}
		if (made < n)
			fprintf(stderr, "latexit: only %d of %d idle tasks\n", made, n);
		for (i = 0; i < 100000 && not_asleep(holder, made, threads); i++)
			usleep(1000);
		for (mode = 0; mode < 2; mode++) {
			for (scan = 0; scan < 2; scan++) {
				write_file(SCAN, scan ? "1" : "0");
				for (r = 0; r < reps; r++) {
					double t0;

					if (r == reps - 1)
						write_file(COUNTERS, "0");
					t0 = now_ns();
					for (j = 0; j < iter; j++)
						mode ? thread_exit() : fork_exit();
					t[r] = (now_ns() - t0) / iter;
				}
				write_file(SCAN, "0");
				key_value(COUNTERS, NULL, &w);
				qsort(t, (size_t)reps, sizeof(t[0]), cmp_double);
				if (warmup)
					continue;
				printf("%s,%d,%ld,%s,%s,%.0f,%.0f,%.0f,%.2f,%.1f\n",
				       threads ? "threads" : "processes", made,
				       key_value(CHECK, "threads", NULL), mode_name[mode],
				       scan ? "2002-scan" : "lists", t[0], t[reps / 2],
				       t[reps - 1], w.exits ? (double)w.list_visits / w.exits : 0,
				       w.scan_exits ? (double)w.scan_visited / w.scan_exits : 0);
			}
		}
		close(done[1]);		/* the holder ends its idle tasks and exits */
		close(ready[0]);
		waitpid(holder, NULL, 0);
	}
	return 0;
usage:
	fprintf(stderr, "usage: latexit [-t] [-r REPS] [-i ITER] N...\n"
			"  -t  idle tasks are threads of one holder process\n");
	return 2;
}
