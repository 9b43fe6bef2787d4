// SPDX-License-Identifier: GPL-2.0
/*
 * --gdb-on-failure: at a finding, before anything of the scenario is torn
 * down, the kernel's own view of the tasks it names.  guest/gdb-dump asks
 * the host (guest/run) to stop the VM under gdb and run ptstress-task
 * (guest/gdb/ptstress.py) on their tids (with their leaders, real
 * parents and tracers as modelled and as /proc says, and their tracees); the dump lands in the report
 * directory as kernel-view.txt, next to the step log (the /proc view the
 * checks read) and findings.jsonl (the model's expectation).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/core.h"
#include "lib/links.h"

#define KV_MAX	32

static void add(pid_t *v, int *n, pid_t p)
{
	int i;

	if (p <= 0 || *n >= KV_MAX)
		return;
	for (i = 0; i < *n; i++)
		if (v[i] == p)
			return;
	v[(*n)++] = p;
}

/* guest/gdb-dump next to this binary's directory (ptstress/../guest). */
static int dump_script(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (r <= 0)
		return -1;
	exe[r] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return snprintf(buf, len, "%s/../guest/gdb-dump", exe) < (int)len ? 0 : -1;
}

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "r"), *out;
	char buf[4096];
	size_t k;
	int rc = 0;

	if (!in)
		return -errno;
	out = fopen(to, "w");
	if (!out) {
		rc = -errno;
		fclose(in);
		return rc;
	}
	while ((k = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, k, out) != k)
			rc = -EIO;
	fclose(in);
	if (fclose(out) < 0 && !rc)
		rc = -errno;
	return rc;
}

void kernel_view(struct engine *e, const struct fdesc *d)
{
	char script[PATH_MAX], cmd[PATH_MAX + KV_MAX * 12 + 16], path[PATH_MAX];
	char dst[PATH_MAX + 32];
	pid_t pids[KV_MAX];
	int n = 0, k, len, rc;
	FILE *p;

	/*
	 * The tasks named, their leaders, both views of their parents and
	 * tracers, and their tracees (what a tracer stuck in ptrace() waits on).
	 */
	for (k = 0; k < d->ntasks; k++) {
		const struct mtask *t;
		struct proc_status ps;
		struct parse_error pe;
		int rp, i;

		if (d->tasks[k] < 0 || d->tasks[k] >= e->m.n)
			continue;
		t = &e->m.t[d->tasks[k]];
		add(pids, &n, t->tid);
		add(pids, &n, e->m.t[t->leader].tid);
		rp = e->m.t[t->leader].real_parent;
		add(pids, &n, rp >= 0 ? e->m.t[rp].tid : getpid());
		if (t->tracer >= 0)
			add(pids, &n, e->m.t[t->tracer].tid);
		if (t->life != ML_DEAD &&
		    status_read(e->m.t[t->leader].tid, t->tid, &ps, &pe) == 0) {
			add(pids, &n, ps.ppid);
			add(pids, &n, ps.tracer_pid);
		}
		for (i = 1; i < e->m.n; i++)
			if (e->m.t[i].tracer == d->tasks[k] && e->m.t[i].life != ML_DEAD)
				add(pids, &n, e->m.t[i].tid);
	}
	/* A finding that names no task (the kernel checker's): every task of the scenario. */
	for (k = 1; !d->ntasks && k < e->m.n; k++)
		if (e->m.t[k].life != ML_DEAD && !e->e[k].external)
			add(pids, &n, e->m.t[k].tid);
	/* ... and if none is left, R: its ->children and ->ptraced show what remains. */
	if (!n)
		add(pids, &n, getpid());
	if (!e->dir[0])
		return;
	if (dump_script(script, sizeof(script)) < 0) {
		tap_diag("  kernel view: cannot find guest/gdb-dump");
		return;
	}
	len = snprintf(cmd, sizeof(cmd), "'%s'", script);
	for (k = 0; k < n && len > 0 && (size_t)len < sizeof(cmd); k++)
		len += snprintf(cmd + len, sizeof(cmd) - len, " %d", (int)pids[k]);
	fflush(NULL);
	p = popen(cmd, "r");
	if (!p) {
		tap_diag("  kernel view: popen(%s): %s", script, strerror(errno));
		return;
	}
	path[0] = 0;
	if (!fgets(path, sizeof(path), p))
		path[0] = 0;
	rc = pclose(p);
	path[strcspn(path, "\n")] = 0;
	if (rc != 0 || !path[0]) {
		tap_diag("  kernel view: guest/gdb-dump failed (status %d)", rc);
		return;
	}
	snprintf(dst, sizeof(dst), "%s/kernel-view.txt", e->dir);
	rc = copy_file(path, dst);
	if (rc < 0)
		tap_diag("  kernel view: copying %s: %s", path, strerror(-rc));
	else
		tap_diag("  kernel view: %s (gdb ptstress-task, the guest frozen at the finding)",
			 dst);
	logf_(e, "kernel view of %d tasks: %s", n, dst);
}
