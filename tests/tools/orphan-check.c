// SPDX-License-Identifier: GPL-2.0
/*
 * orphan-check: run a command as a child subreaper and report, in a form a
 * test can read, every process of it that outlives it.
 *
 * usage: orphan-check [--grace MS] [--pidfile F] [--out F] -- CMD [ARG...]
 *
 * Everything CMD leaves behind is reparented to us (PR_SET_CHILD_SUBREAPER,
 * find_new_reaper()), so after CMD has ended, our remaining children are
 * exactly its leftovers: no pid is guessed from anybody's prose.  Zombies
 * among them are reaped (a process that already exited is not left over);
 * live ones are waited for up to --grace (default 2000 ms), then reported,
 * SIGKILLed by pid and reaped, so the test itself leaves nothing behind.
 *
 * --pidfile F: CMD's pid, written before CMD runs (to signal it).
 * --out F: machine-readable result, one "key value" line each:
 *     rc N            CMD's exit code, or 128+signal if a signal ended it
 *     left N          processes still alive after the grace
 *     pid P S COMM    one line per such process: pid, State letter, comm
 * SIGINT and SIGTERM sent to orphan-check are forwarded to CMD.
 * Exit: CMD's rc if nothing was left, 1 otherwise (2 usage, 3 our error).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t child;

static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* Our children, from /proc/self/task/<tid>/children of every thread. */
static int children(pid_t *out, int max)
{
	char path[300], buf[65536];
	int n = 0;
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d)) && n < max) {
		FILE *f;
		char *p, *end;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		for (p = buf; n < max; p = end) {
			long v = strtol(p, &end, 10);

			if (end == p)
				break;
			out[n++] = (pid_t)v;
		}
	}
	closedir(d);
	return n;
}

static void describe(pid_t pid, char *state, char *comm, size_t len)
{
	char path[64], buf[512], *l, *r;
	FILE *f;

	*state = '?';
	snprintf(comm, len, "?");
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		l = strchr(buf, '(');
		r = strrchr(buf, ')');
		if (l && r && r > l && r[1] == ' ') {
			*r = '\0';
			snprintf(comm, len, "%s", l + 1);
			*state = r[2];
		}
	}
	fclose(f);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
	const char *pidfile = NULL, *outfile = NULL;
	long grace = 2000, end;
	pid_t kids[4096];
	int i, n, left, status, rc;
	struct sigaction sa;
	FILE *out = NULL;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && i + 1 < argc) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--grace") && i + 1 < argc) {
			grace = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--pidfile") && i + 1 < argc) {
			pidfile = argv[++i];
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			outfile = argv[++i];
		} else {
			fprintf(stderr, "usage: orphan-check [--grace MS] [--pidfile F] [--out F] "
				"-- CMD [ARG...]\n");
			return 2;
		}
	}
	if (i >= argc || grace < 0) {
		fprintf(stderr, "orphan-check: no command\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		perror("orphan-check: PR_SET_CHILD_SUBREAPER");
		return 3;
	}
	if (outfile) {
		out = fopen(outfile, "w");
		if (!out) {
			perror(outfile);
			return 3;
		}
	}
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("orphan-check: fork");
		return 3;
	}
	if (child == 0) {
		execvp(argv[i], argv + i);
		fprintf(stderr, "orphan-check: %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (!f || fprintf(f, "%d\n", (int)child) < 0 || fclose(f)) {
			perror(pidfile);
			kill(child, SIGKILL);
		}
	}
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR) {
			perror("orphan-check: waitpid");
			return 3;
		}
	}
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	/* Leftovers: reap the ones that exit, give the others the grace. */
	end = now_ms() + grace;
	for (;;) {
		while (waitpid(-1, &status, WNOHANG | __WALL) > 0)
			;
		n = children(kids, 4096);
		if (n <= 0 || now_ms() >= end)
			break;
		usleep(20000);
	}
	if (n < 0)
		n = 0;
	if (out)
		fprintf(out, "rc %d\nleft %d\n", rc, n);
	for (int k = 0; k < n; k++) {
		char st, comm[64];

		describe(kids[k], &st, comm, sizeof(comm));
		fprintf(stderr, "orphan-check: left pid %d State %c comm %s\n", (int)kids[k], st,
			comm);
		if (out)
			fprintf(out, "pid %d %c %s\n", (int)kids[k], st, comm);
	}
	left = n;
	/* Kill and reap them, and whatever they had reparented to us meanwhile. */
	for (end = now_ms() + 5000; n > 0 && now_ms() < end;) {
		for (int k = 0; k < n; k++)
			kill(kids[k], SIGKILL);
		usleep(10000);
		while (waitpid(-1, &status, WNOHANG | __WALL) > 0)
			;
		n = children(kids, 4096);
	}
	if (out && fclose(out)) {
		perror(outfile);
		return 3;
	}
	return left ? 1 : rc;
}
