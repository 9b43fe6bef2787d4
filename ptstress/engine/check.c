// SPDX-License-Identifier: GPL-2.0
/*
 * Quiescence and the comparisons.
 *
 * A check never reads a state the kernel has not promised yet: it polls
 * each task's /proc status until it matches the model or the step timeout
 * passes, and only then reports the difference.  What the kernel promises
 * (an exit completes, forget_original_parent() reparents before the exiting
 * task becomes a zombie, a stop the tracer waited for is visible) is what
 * makes a lasting difference a finding.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"
#include "lib/kcheck.h"
#include "lib/links.h"
#include "lib/unwind.h"


/* The /proc State letters a model state allows. */
static bool state_ok(int i, const struct mtask *t, char st)
{
	/* zap_pid_ns_processes() sleeps until its namespace is empty. */
	if (t->life == ML_ZOMBIE && m_zapping(&eng.m, i))
		return st == 'S' || st == 'D' || st == 'Z';
	if (t->life == ML_ZOMBIE)
		return st == 'Z';
	if (!t->stop_known)
		return st != 'Z' && st != 'X';
	switch (t->stop) {
	case MS_TRACED:
		return st == 't';
	case MS_GROUP:
		return st == 'T';
	case MS_RUNNING:
		return st == 'R' || st == 'S' || st == 'D';
	}
	return false;
}

static const char *state_want(const struct mtask *t)
{
	if (t->life == ML_ZOMBIE)
		return "Z";
	if (!t->stop_known)
		return "alive";
	return t->stop == MS_TRACED ? "t" : t->stop == MS_GROUP ? "T" : "R/S/D";
}

/* Does /proc agree with the model about task @i?  @why is filled on no. */
static bool agrees(int i, const struct proc_status *ps, int r, char *why, size_t len)
{
	const struct mtask *t = &eng.m.t[i];
	pid_t tgid = eng.m.t[t->leader].tid;

	if (t->life == ML_DEAD) {
		if (r == -ESRCH)
			return true;
		snprintf(why, len, "  %s: expected gone (released), observed State %c, PPid %d",
			 tname(i), r == 0 ? ps->state : '?', r == 0 ? (int)ps->ppid : -1);
		return false;
	}
	if (r < 0) {
		snprintf(why, len, "  %s: expected State %s, PPid %d, TracerPid %d; observed no "
			 "/proc/%d/task/%d (%s)", tname(i), state_want(t), (int)m_ppid(&eng.m, i),
			 (int)m_tracer_pid(&eng.m, i), (int)tgid, (int)t->tid, strerror(-r));
		return false;
	}
	if (ps->tgid == tgid && ps->ppid == m_ppid(&eng.m, i) && state_ok(i, t, ps->state) &&
	    (eng.e[i].uncertain || ps->tracer_pid == m_tracer_pid(&eng.m, i)))
		return true;
	snprintf(why, len, "  %s: expected Tgid %d PPid %d (%s) TracerPid %d (%s) State %s;\n"
		 "  %*s  observed Tgid %d PPid %d TracerPid %d State %c", tname(i), (int)tgid,
		 (int)m_ppid(&eng.m, i), m_name(&eng.m, m_ppid_task(&eng.m, i)),
		 (int)m_tracer_pid(&eng.m, i), m_name(&eng.m, t->tracer), state_want(t),
		 (int)strlen(tname(i)), "", (int)ps->tgid, (int)ps->ppid, (int)ps->tracer_pid,
		 ps->state);
	return false;
}

/*
 * Poll task @i until /proc agrees with the model or @sec pass.  For a task
 * that must die the wait is for an event the kernel promises (the whole
 * step timeout).  A live task is checked after every exit of the step has
 * completed, and forget_original_parent() and exit_ptrace() run before an
 * exiting task becomes a zombie: what may still lag is only a wakeup
 * (ttwu on another CPU after PTRACE_CONT) or a signal's delivery, so a
 * short grace suffices, and a wrong kernel is reported in seconds.
 */
#define ALIVE_GRACE_SEC	5

static int settle(int i, int sec, char *why, size_t len)
{
	const struct mtask *t = &eng.m.t[i];
	struct proc_status ps;
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	int r;

	deadline_start(&dl, sec);
	for (;;) {
		r = status_read(eng.m.t[t->leader].tid, t->tid, &ps, &pe);
		if (r == -ESRCH && t->life == ML_DEAD && t->tid <= 0)
			return 0;
		if (agrees(i, &ps, r, why, len))
			return 0;
		if (ps_stop_signal)
			return -EINTR;
		if (deadline_expired(&dl))
			return -ETIMEDOUT;
		backoff_sleep(&delay);
	}
}

/* The links file agrees: tracer, ->parent and ->real_parent's group. */
static bool links_agree(int i, char *why, size_t len)
{
	const struct mtask *t = &eng.m.t[i];
	struct ptrace_links l;
	struct parse_error pe;
	int rp, want_rp, r;
	pid_t tr = m_tracer_pid(&eng.m, i);

	r = links_read(eng.m.t[t->leader].tid, t->tid, &l, &pe);
	if (r < 0)
		return true;	/* gone meanwhile: the status check covers it */
	want_rp = m_ppid_task(&eng.m, i);
	rp = m_find_tid(&eng.m, l.real_parent);
	if (rp >= 0)
		rp = eng.m.t[rp].leader;
	if ((want_rp >= 0 && rp != want_rp) || l.tracer != tr ||
	    l.parent != (tr ? tr : l.real_parent) || (!tr) != (!l.ptrace)) {
		snprintf(why, len, "  %s: ptrace_links: expected real_parent in %s, tracer %d, "
			 "parent %d; observed real_parent %d, tracer %d, parent %d, ptrace %#lx",
			 tname(i), m_name(&eng.m, want_rp), (int)tr, (int)(tr ? tr : l.real_parent),
			 (int)l.real_parent, (int)l.tracer, (int)l.parent, l.ptrace);
		return false;
	}
	return true;
}

void snapshot_task(int i)
{
	const struct mtask *t = &eng.m.t[i];
	static const char *const files[] = { "status", "stat", "wchan", "stack", "ptrace_links" };
	char src[128], dst[512], buf[8192];
	size_t k;
	ssize_t n;
	int in, out;

	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		snprintf(src, sizeof(src), "/proc/%d/task/%d/%s", (int)eng.m.t[t->leader].tid,
			 (int)t->tid, files[k]);
		snprintf(dst, sizeof(dst), "%s/proc-%d-%s", eng.dir, (int)t->tid, files[k]);
		in = open(src, O_RDONLY);
		if (in < 0)
			continue;
		out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out >= 0) {
			while ((n = read(in, buf, sizeof(buf))) > 0)
				if (write(out, buf, n) != n)
					break;
			close(out);
		}
		close(in);
	}
	/* Where a stuck task stands in user space (libunwind-ptrace), or why not. */
	if (t->life == ML_ALIVE) {
		char bt[4096];
		FILE *f;

		unwind_task(eng.m.t[t->leader].tid, t->tid, bt, sizeof(bt));
		snprintf(dst, sizeof(dst), "%s/proc-%d-backtrace", eng.dir, (int)t->tid);
		f = fopen(dst, "w");
		if (f) {
			fputs(bt, f);
			fclose(f);
		}
		tap_diag("backtrace of %s:", tname(i));
		for (char *l = strtok(bt, "\n"); l; l = strtok(NULL, "\n"))
			tap_diag("  %s", l);
	}
}

int check_tasks(bool all, const char *why)
{
	char diff[1024];
	int i, r, sec;

	/* The dead and the zombies first: their exits reparent the living. */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 1; i < eng.m.n && !eng.stop; i++) {
			const struct mtask *t = &eng.m.t[i];
			bool settled = t->life != ML_ALIVE;

			if ((pass == 0) != settled || eng.e[i].external)
				continue;
			if (!all && !eng.e[i].dirty)
				continue;
			if (t->tid <= 0 || eng.e[i].gone_ok)
				continue;
			eng.st.checks++;
			sec = pass == 0 || eng.step_timeout < ALIVE_GRACE_SEC ?
			      eng.step_timeout : ALIVE_GRACE_SEC;
			r = settle(i, sec, diff, sizeof(diff));
			if (r == -EINTR) {
				harness_err("interrupted");
				return -1;
			}
			if (r < 0) {
				snapshot_task(i);
				finding("%s: /proc disagrees with the model after %d s:\n%s", why,
					sec, diff);
				return -1;
			}
			if (t->life == ML_DEAD) {
				eng.e[i].gone_ok = true;
				continue;
			}
			if (eng.have_links && !eng.e[i].uncertain &&
			    !links_agree(i, diff, sizeof(diff))) {
				snapshot_task(i);
				finding("%s: ptrace_links disagrees with the model:\n%s", why, diff);
				return -1;
			}
		}
	}
	for (i = 0; i < eng.m.n; i++)
		eng.e[i].dirty = false;
	return 0;
}

int check_kernel(const char *why)
{
	struct kv walk[8], viol[32];
	int nw, nv;
	long found, total;

	if (!eng.have_kcheck)
		return 0;
	nw = kv_read(KCHECK_DIR "check", walk, 8);
	nv = kv_read(KCHECK_DIR "violations", viol, 32);
	if (nw < 0 || nv < 0) {
		harness_err("%s: cannot read the kernel checker", why);
		return -1;
	}
	found = kv_get(walk, nw, "violations", -1);
	total = kv_get(viol, nv, "total", -1);
	eng.st.checks++;
	if (found || total) {
		finding("%s: kernel link checker: %ld violations in a full walk, %ld since boot "
			"(see the kernel log)", why, found, total);
		return -1;
	}
	return 0;
}

static bool report_matches(const struct mtask *t, int status)
{
	if (t->exit_sig)
		return WIFSIGNALED(status) && WTERMSIG(status) == t->exit_sig;
	return WIFEXITED(status) && WEXITSTATUS(status) == t->exit_code;
}

static const char *want_report(const struct mtask *t, char *buf, size_t len)
{
	if (t->exit_sig)
		snprintf(buf, len, "killed(%s)", sig_name(t->exit_sig));
	else
		snprintf(buf, len, "exited(%d)", t->exit_code);
	return buf;
}

int collect_reply(int w, int c, const struct agent_reply *rep, bool as_tracer)
{
	struct mtask *t = &eng.m.t[c];
	char want[48];

	eng.st.checks++;
	if (!rep->ok) {
		finding("exit report of %s to %s%s: %s", tname(c), tname(w),
			as_tracer ? " (its tracer)" : "", rep->msg);
		return -1;
	}
	if (!report_matches(t, rep->status)) {
		finding("exit report of %s to %s: expected %s, observed %s", tname(c), tname(w),
			want_report(t, want, sizeof(want)), rep->msg);
		return -1;
	}
	/* Exactly once: the same pid must now be unknown to this waiter. */
	if (rep->second != -1 || rep->second_errno != ECHILD) {
		finding("exit report of %s to %s came twice or the pid stayed waitable: second "
			"waitpid() = %d (%s)", tname(c), tname(w), rep->second,
			rep->second < 0 ? errno_name(rep->second_errno) : "a report");
		return -1;
	}
	if (m_report(&eng.m, w, c) < 0) {
		finding("%s received an exit report of %s that the model does not owe it",
			tname(w), tname(c));
		return -1;
	}
	eng.st.reports++;
	eng.e[c].dirty = true;
	return 0;
}

int r_collects(int c, struct agent_reply *rep)
{
	struct wait_event ev;
	struct deadline dl;
	char what[128];
	int r, status;

	memset(rep, 0, sizeof(*rep));
	snprintf(what, sizeof(what), "exit report of %s to R", tname(c));
	deadline_start(&dl, eng.step_timeout);
	r = wait_event_for(eng.m.t[c].tid, &ev, &dl, what);
	if (r < 0) {
		snprintf(rep->msg, sizeof(rep->msg), "%s", ps_last_error());
		if (r == -EINTR)
			harness_err("interrupted");
		return r == -EINTR ? r : 0;
	}
	rep->ok = 1;
	rep->status = ev.status;
	rep->second = waitpid(eng.m.t[c].tid, &status, WNOHANG | __WALL);
	rep->second_errno = rep->second < 0 ? errno : 0;
	wait_event_str(&ev, rep->msg, sizeof(rep->msg));
	return 0;
}

int collect_reports(bool all)
{
	struct agent_reply rep;
	bool progress = true, as_tracer;
	int i, c, round;

	while (progress && !eng.stop) {
		progress = false;
		/* Tracer reports first: they unblock the real parents' ones. */
		for (round = 0; round < 2 && !eng.stop; round++) {
			for (i = 1; i < eng.m.n && !eng.stop; i++) {
				c = m_next_collector(&eng.m, i, &as_tracer);
				if (c == M_NONE || as_tracer != (round == 0))
					continue;
				if (!all && !eng.e[c].external)
					continue;
				if (c == 0) {
					if (r_collects(i, &rep) < 0)
						return -1;
				} else if (eng.e[c].external) {
					/* strace waits by itself; its output is checked at stop. */
					if (as_tracer)
						ext_saw_exit(c, i);
					m_report(&eng.m, c, i);
					eng.e[i].dirty = true;
					progress = true;
					continue;
				} else if (eng.m.t[c].stop != MS_RUNNING || eng.e[c].fd < 0) {
					continue;
				} else {
					if (call(c, REQ(as_tracer ? OP_WAIT_TRACEE : OP_REAP,
							    pid_for(c, i), 0, 0), &rep, NULL) < 0)
						return -1;
				}
				if (collect_reply(c, i, &rep, as_tracer) < 0)
					return -1;
				progress = true;
			}
		}
	}
	return eng.stop ? -1 : 0;
}

int check_expect(const struct stmt *s)
{
	int x = task_of(s->name[0]), v = -1;
	const struct mtask *t;
	struct proc_status ps;
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	pid_t want = 0;
	int r;

	if (x < 0)
		return -1;
	t = &eng.m.t[x];
	if (s->what != E_STATE && strcmp(s->name[1], "init") && strcmp(s->name[1], "none")) {
		v = task_of(s->name[1]);
		if (v < 0)
			return -1;
		want = s->what == E_PPID ? eng.m.t[eng.m.t[v].leader].tid : eng.m.t[v].tid;
	} else if (!strcmp(s->name[1], "init")) {
		want = 1;
	}
	deadline_start(&dl, s->within ? s->within : eng.step_timeout);
	eng.st.checks++;
	for (;;) {
		bool ok;

		r = status_read(eng.m.t[t->leader].tid, t->tid, &ps, &pe);
		if (s->what == E_STATE) {
			ok = s->state == ST_GONE ? r == -ESRCH :
			     r == 0 && (s->state == ST_ZOMBIE ? ps.state == 'Z' :
					s->state == ST_TRACED ? ps.state == 't' :
					s->state == ST_STOPPED ? ps.state == 'T' :
					strchr("RSD", ps.state) != NULL);
		} else if (s->what == E_PPID) {
			ok = r == 0 && ps.ppid == want;
		} else {
			ok = r == 0 && ps.tracer_pid == want;
		}
		if (ok)
			return 0;
		if (deadline_expired(&dl) || ps_stop_signal)
			break;
		backoff_sleep(&delay);
	}
	snapshot_task(x);
	finding("expect %s %s %s: observed%s PPid %d TracerPid %d State %c (model: PPid %d "
		"TracerPid %d)", s->what == E_PPID ? "ppid" : s->what == E_TRACER ? "tracer" :
		"state", s->name[0], s->name[1][0] ? s->name[1] : "(state)",
		r == 0 ? "" : " no such task,", r == 0 ? (int)ps.ppid : 0,
		r == 0 ? (int)ps.tracer_pid : 0, r == 0 ? ps.state : '-', (int)m_ppid(&eng.m, x),
		(int)m_tracer_pid(&eng.m, x));
	return -1;
}
