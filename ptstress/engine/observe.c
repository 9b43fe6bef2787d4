// SPDX-License-Identifier: GPL-2.0
/*
 * Quiescence and the comparisons.
 *
 * A check never reads a state the kernel has not promised yet: it polls
 * each task's /proc status until it matches the model or the step timeout
 * passes, and only then reports the difference.  What the kernel promises
 * (an exit completes, forget_original_parent() reparents before the exiting
 * task becomes a zombie, a stop the tracer waited for is visible) is what
 * makes a lasting difference a finding.  A failure to read that is ours
 * (our fd or memory limit) is a harness error, never a finding.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/observe.h"
#include "lib/kcheck.h"
#include "lib/links.h"
#include "lib/unwind.h"

/*
 * For a task that must die the wait is for an event the kernel promises
 * (the whole step timeout).  A live task is checked after every exit of
 * the step has completed, and forget_original_parent() and exit_ptrace()
 * run before an exiting task becomes a zombie: what may still lag is only
 * a wakeup (ttwu on another CPU after PTRACE_CONT) or a signal's delivery,
 * so a short grace suffices, and a wrong kernel is reported in seconds.
 */
#define ALIVE_GRACE_SEC	5

/* Our own resource limits, not the kernel's doing. */
static bool ours(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM;
}

static int cur_sec(struct engine *e)
{
	return e->cur_timeout ? e->cur_timeout : e->step_timeout;
}

/* /proc State letters the model's state allows; @want is what to print. */
static bool state_ok(struct engine *e, int i, char st, const char **want)
{
	const char *w = m_state_letters(&e->m, i);

	if (e->e[i].any_state && e->m.t[i].life == ML_ALIVE)
		w = "RSDtT";
	if (want)
		*want = w;
	return st && strchr(w, st) != NULL;
}

/* Has task @i begun its exit (PF_EXITING)?  A zapping init looks asleep otherwise. */
static bool exiting(struct engine *e, int i)
{
	const struct mtask *t = &e->m.t[i];
	unsigned long flags = 0;

	return stat_flags(e->m.t[t->leader].tid, t->tid, &flags) == 0 && (flags & PS_PF_EXITING);
}

struct obs {
	int r;			/* status_read(): 0 or -errno */
	struct proc_status ps;	/* its fields, if r == 0 */
};

/* Does /proc agree with the model about task @i?  @d and the texts are filled on no. */
static bool agrees(struct engine *e, int i, const struct obs *o, struct fdesc *d,
		   char *exp, char *got, size_t len)
{
	const struct mtask *t = &e->m.t[i];
	pid_t tgid = e->m.t[t->leader].tid;
	const char *want;
	bool st_ok;

	d->kind = FK_FINDING;
	d->check = "proc";
	d->ntasks = 1;
	d->tasks[0] = i;
	if (t->life == ML_DEAD) {
		if (o->r == -ESRCH)
			return true;
		/* A zap candidate the model released may be the one that zaps. */
		if (o->r == 0 && m_zapping(&e->m, i) && state_ok(e, i, o->ps.state, NULL) &&
		    exiting(e, i))
			return true;
		d->rule = t->why_state;
		snprintf(exp, len, "gone (released)");
		snprintf(got, len, "State %c PPid %d", o->r == 0 ? o->ps.state : '?',
			 o->r == 0 ? (int)o->ps.ppid : -1);
		return false;
	}
	/* A candidate zapper the model keeps may be released already (another thread zapped). */
	if (o->r == -ESRCH && t->zap_cand && m_zapping(&e->m, i) && t->leader != i)
		return true;
	if (o->r < 0) {
		d->rule = t->why_state;
		snprintf(exp, len, "State %s PPid %d TracerPid %d", m_state_letters(&e->m, i),
			 (int)m_ppid(&e->m, i), (int)m_tracer_pid(&e->m, i));
		snprintf(got, len, "no /proc/%d/task/%d (%s)", (int)tgid, (int)t->tid,
			 strerror(-o->r));
		return false;
	}
	st_ok = state_ok(e, i, o->ps.state, &want);
	/*
	 * A zapping init sleeps (S, I) like a live task does in recv():
	 * only PF_EXITING says it has begun its exit, which the kernel
	 * promises, so a check must not pass before it (the next step's
	 * order depends on it).
	 */
	if (st_ok && m_zapping(&e->m, i) && !strchr("Z", o->ps.state) && !exiting(e, i)) {
		st_ok = false;
		want = "R/S/I/D with PF_EXITING";
	}
	if (o->ps.tgid == tgid && o->ps.ppid == m_ppid(&e->m, i) && st_ok &&
	    (e->e[i].uncertain || o->ps.tracer_pid == m_tracer_pid(&e->m, i)))
		return true;
	/* The rule behind the first field that differs. */
	if (o->ps.ppid != m_ppid(&e->m, i))
		d->rule = t->why_parent;
	else if (!e->e[i].uncertain && o->ps.tracer_pid != m_tracer_pid(&e->m, i))
		d->rule = t->why_tracer;
	else if (!st_ok)
		d->rule = t->why_state;
	else
		d->rule = R_NONE;
	snprintf(exp, len, "Tgid %d PPid %d (%s) TracerPid %d (%s) State %s", (int)tgid,
		 (int)m_ppid(&e->m, i), m_name(&e->m, m_ppid_task(&e->m, i)),
		 (int)m_tracer_pid(&e->m, i), m_name(&e->m, t->tracer), want);
	snprintf(got, len, "Tgid %d PPid %d TracerPid %d State %c", (int)o->ps.tgid,
		 (int)o->ps.ppid, (int)o->ps.tracer_pid, o->ps.state);
	return false;
}

/*
 * Poll task @i until /proc agrees with the model or @sec pass.  Returns 0,
 * -ETIMEDOUT (a finding, described in @d), -EINTR, or -errno of a read
 * failure that is ours (harness).
 */
static int settle(struct engine *e, int i, int sec, struct fdesc *d, char *exp, char *got,
		  size_t len)
{
	const struct mtask *t = &e->m.t[i];
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	struct obs o;

	deadline_start(&dl, sec);
	for (;;) {
		o.r = status_read(e->m.t[t->leader].tid, t->tid, &o.ps, &pe);
		if (o.r < 0 && ours(-o.r)) {
			snprintf(got, len, "%s", pe.msg);
			return o.r;
		}
		if (o.r == -ESRCH && t->life == ML_DEAD && t->tid <= 0)
			return 0;
		if (agrees(e, i, &o, d, exp, got, len))
			return 0;
		if (ps_stop_signal)
			return -EINTR;
		if (deadline_expired(&dl))
			return -ETIMEDOUT;
		backoff_sleep(&delay);
	}
}

/* Compare the links file once; false with the differences in @exp/@got. */
static bool links_match(struct engine *e, int i, int *rule, char *exp, char *got, size_t len)
{
	const struct mtask *t = &e->m.t[i];
	struct ptrace_links l;
	struct m_links w;
	struct parse_error pe;
	size_t ne = 0, ng = 0;
	int r;

	r = links_read(e->m.t[t->leader].tid, t->tid, &l, &pe);
	if (r < 0)
		return true;	/* gone meanwhile: the status check covers it */
	m_links(&e->m, i, &w);
	*rule = R_NONE;
#define FIELD(f, fmt, rl)							\
	do {									\
		if (w.f == l.f)							\
			break;							\
		if (*rule == R_NONE)						\
			*rule = (rl);						\
		if (ne < len)							\
			ne += snprintf(exp + ne, len - ne, "%s" #f " " fmt, ne ? ", " : "", \
				       w.f);					\
		if (ng < len)							\
			ng += snprintf(got + ng, len - ng, "%s" #f " " fmt, ng ? ", " : "", \
				       l.f);					\
	} while (0)
	FIELD(tid, "%d", R_NONE);
	FIELD(tgid, "%d", R_NONE);
	FIELD(leader, "%d", R_EXEC_TAKEOVER);
	FIELD(real_parent, "%d", t->why_parent);
	FIELD(tracer, "%d", t->why_tracer);
	FIELD(parent, "%d", t->why_tracer);
	/* A real debugger picks its own options (strace's change with its version). */
	if (t->tracer < 0 || !e->e[t->tracer].external)
		FIELD(ptrace, "%#lx", t->why_tracer);
	FIELD(ptraced, "%lu", R_LINKS_LISTS);
	FIELD(children, "%lu", R_LINKS_LISTS);
	FIELD(sibling_linked, "%d", R_LINKS_LISTS);
	FIELD(exit_state, "%#x", t->why_state);
	FIELD(exit_signal, "%d", R_LINKS_EXIT_SIGNAL);
	FIELD(exiting, "%d", t->why_state);
#undef FIELD
	return ne == 0;
}

/*
 * The links file must come to agree: the lists of other tasks (a child
 * being released by a namespace's init, say) may still be moving, so it
 * is polled like /proc status, with the live tasks' grace.
 */
static bool links_agree(struct engine *e, int i, int *rule, char *exp, char *got, size_t len)
{
	unsigned int delay = 0;
	struct deadline dl;

	deadline_start(&dl, cur_sec(e) < ALIVE_GRACE_SEC ? cur_sec(e) : ALIVE_GRACE_SEC);
	while (!links_match(e, i, rule, exp, got, len)) {
		if (deadline_expired(&dl) || ps_stop_signal)
			return false;
		backoff_sleep(&delay);
	}
	return true;
}

void snapshot_task(struct engine *e, int i)
{
	const struct mtask *t = &e->m.t[i];
	static const char *const files[] = { "status", "stat", "wchan", "stack", "ptrace_links" };
	char src[128], dst[PATH_MAX + 64], buf[8192];
	size_t k;
	ssize_t n;
	int in, out;

	for (k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		snprintf(src, sizeof(src), "/proc/%d/task/%d/%s", (int)e->m.t[t->leader].tid,
			 (int)t->tid, files[k]);
		snprintf(dst, sizeof(dst), "%s/proc-%d-%s", e->dir, (int)t->tid, files[k]);
		in = open(src, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			continue;
		out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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

		unwind_task(e->m.t[t->leader].tid, t->tid, bt, sizeof(bt));
		snprintf(dst, sizeof(dst), "%s/proc-%d-backtrace", e->dir, (int)t->tid);
		f = fopen(dst, "we");
		if (f) {
			fputs(bt, f);
			fclose(f);
		}
		tap_diag("backtrace of %s:", tname(e, i));
		for (char *l = strtok(bt, "\n"); l; l = strtok(NULL, "\n"))
			tap_diag("  %s", l);
	}
}

int check_tasks(struct engine *e, bool all, const char *why)
{
	char exp[512], got[512];
	struct fdesc d;
	int i, r, sec;

	/* The dead and the zombies first: their exits reparent the living. */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 1; i < e->m.n && !e->stop; i++) {
			const struct mtask *t = &e->m.t[i];
			bool settled = t->life != ML_ALIVE;

			if ((pass == 0) != settled || e->e[i].external)
				continue;
			if (!all && !e->e[i].dirty)
				continue;
			if (t->tid <= 0 || e->e[i].gone_ok)
				continue;
			e->st.checks++;
			sec = cur_sec(e);
			if (pass == 1 && sec > ALIVE_GRACE_SEC)
				sec = ALIVE_GRACE_SEC;
			memset(&d, 0, sizeof(d));
			r = settle(e, i, sec, &d, exp, got, sizeof(exp));
			if (r == -EINTR) {
				harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
				return -1;
			}
			if (r < 0 && r != -ETIMEDOUT) {
				harness_err(e, "%s: reading /proc for %s: %s (our resource limit, "
					    "not the kernel's doing)", why, tname(e, i), got);
				return -1;
			}
			if (r < 0) {
				snapshot_task(e, i);
				d.expected = exp;
				d.observed = got;
				report(e, &d, "%s: /proc disagrees with the model after %d s: %s",
				       why, sec, tname(e, i));
				return -1;
			}
			if (t->life == ML_DEAD) {
				e->e[i].gone_ok = true;
				continue;
			}
			if (e->have_links && !e->e[i].uncertain &&
			    !links_agree(e, i, &d.rule, exp, got, sizeof(exp))) {
				snapshot_task(e, i);
				d.check = "links";
				d.expected = exp;
				d.observed = got;
				report(e, &d, "%s: ptrace_links of %s disagrees with the model",
				       why, tname(e, i));
				return -1;
			}
		}
	}
	for (i = 0; i < e->m.n; i++)
		e->e[i].dirty = false;
	return 0;
}

int check_kernel(struct engine *e, const char *why)
{
	struct kv walk[8], viol[32];
	int nw, nv;
	long found, total;

	if (!e->have_kcheck)
		return 0;
	nw = kv_read(KCHECK_DIR "check", walk, 8);
	nv = kv_read(KCHECK_DIR "violations", viol, 32);
	if (nw < 0 || nv < 0) {
		harness_err(e, "%s: cannot read the kernel checker", why);
		return -1;
	}
	found = kv_get(walk, nw, "violations", -1);
	total = kv_get(viol, nv, "total", -1);
	e->st.checks++;
	if (found || total) {
		char got[96];

		snprintf(got, sizeof(got), "%ld in a full walk, %ld since boot", found, total);
		report(e, &(struct fdesc){ .check = "kernel", .rule = R_NONE, .expected = "0",
					   .observed = got },
		       "%s: kernel link checker: %s (see the kernel log)", why, got);
		return -1;
	}
	return 0;
}

/* ---- SIGCHLD ---- */

/*
 * May a SIGCHLD from @from reach the group of @to at all?  Its children
 * and its tracees send them: exits (do_notify_parent()), stops and
 * continues (do_notify_parent_cldstop()).
 */
static bool may_notify(struct engine *e, int from, int lead)
{
	const struct mtask *f = &e->m.t[from];
	int rp = e->m.t[f->leader].real_parent;

	return (f->tracer >= 0 && e->m.t[f->tracer].leader == lead) ||
	       (rp >= 0 && e->m.t[rp].leader == lead) || m_was_notifier(&e->m, from, lead);
}

/* The SIGCHLDs group @lead dequeued since the last look; n or -1 (reported). */
static int take_log(struct engine *e, int lead, struct agent_reply *rep)
{
	int w;

	memset(rep, 0, sizeof(*rep));
	if (lead == 0) {
		rep->nsigchld = sigchld_log_take(rep->sigchld, AGENT_SIGCHLD_MAX,
						 &rep->sigchld_lost);
		return rep->nsigchld;
	}
	w = m_alive_thread(&e->m, lead);
	if (w == M_NONE || e->e[w].fd < 0 || e->m.t[w].stop != MS_RUNNING)
		return -2;	/* nobody to ask: it is checked at the next look */
	if (call(e, w, REQ(OP_SIGCHLD_LOG, 0, 0, 0), rep, NULL) < 0)
		return -1;
	return rep->nsigchld;
}

/* Check group @lead's SIGCHLDs against the notices the model has for it. */
static int sigchld_of(struct engine *e, int lead, const char *why)
{
	struct agent_reply rep;
	char exp[256], got[512];
	struct m_notice *no;
	int n, k, j, first = -1, nno = 0, hit = -1;
	size_t g = 0;

	n = take_log(e, lead, &rep);
	if (n == -2)
		return 0;
	if (n < 0) {
		if (!e->stop)
			harness_err(e, "%s: SIGCHLD is not logged in %s", why, tname(e, lead));
		return -1;
	}
	got[0] = '\0';
	for (k = 0; k < n; k++) {
		const struct sigchld_rec *s = &rep.sigchld[k];
		int cand[8], nc, c, from = -1;

		/* A pid may have named several tasks: reused, or taken over by exec. */
		nc = m_pids_seen_by(&e->m, s->pid, lead, cand, 8);
		for (c = 0; c < nc && from < 0; c++)
			if (may_notify(e, cand[c], lead))
				from = cand[c];
		e->st.sigchld++;
		if (g < sizeof(got))
			g += snprintf(got + g, sizeof(got) - g, "%ssi_pid %d code %d status %d",
				      k ? "; " : "", (int)s->pid, s->code, s->status);
		/*
		 * A SIGCHLD from a task that is neither child nor tracee of the
		 * group.  A debugger's own children (gdb's "shell") are beyond
		 * the model: orphaned, they come to R, so R accepts pids it
		 * never knew once a session ran.
		 */
		if (!nc && lead == 0 && e->nsessions)
			continue;
		if (from < 0) {
			report(e, &(struct fdesc){ .check = "sigchld", .rule = R_NOTIFY_PARENT,
						   .ntasks = 1, .tasks = { lead },
						   .observed = got },
			       "%s: %s got a SIGCHLD from pid %d, which is neither its child nor "
			       "its tracee", why, tname(e, lead), (int)s->pid);
			return -1;
		}
		/* An exit notice: si_status as do_notify_parent() sends it. */
		for (j = 0; j < e->m.nnotices; j++) {
			no = &e->m.notices[j];
			for (c = 0; c < nc && no->from != cand[c]; c++)
				;
			if (no->to_lead != lead || c == nc || no->seen ||
			    (s->code != CLD_EXITED && s->code != CLD_KILLED &&
			     s->code != CLD_DUMPED))
				continue;
			if (no->code != s->code || no->status != s->status) {
				snprintf(exp, sizeof(exp), "si_code %d si_status %d", no->code,
					 no->status);
				report(e, &(struct fdesc){ .check = "sigchld", .rule = no->rule,
							   .ntasks = 2, .tasks = { no->from, lead },
							   .expected = exp, .observed = got },
				       "%s: SIGCHLD of %s to %s has the wrong status", why,
				       tname(e, no->from), tname(e, lead));
				return -1;
			}
			no->seen = true;
			hit = j;
			break;
		}
	}
	/* The notices since the last look: at least one SIGCHLD must have come. */
	for (j = 0; j < e->m.nnotices; j++) {
		no = &e->m.notices[j];
		if (no->to_lead != lead || no->checked)
			continue;
		if (first < 0)
			first = j;
		nno++;
		no->checked = true;
	}
	if (nno && !n && !rep.sigchld_lost) {
		no = &e->m.notices[first];
		snprintf(exp, sizeof(exp), "at least one SIGCHLD, from %s%s",
			 tname(e, no->from), nno > 1 ? " or another notifier" : "");
		report(e, &(struct fdesc){ .check = "sigchld", .rule = no->rule, .ntasks = 2,
					   .tasks = { no->from, lead }, .expected = exp,
					   .observed = "none" },
		       "%s: %s was notified of %d exit%s but received no SIGCHLD", why,
		       tname(e, lead), nno, nno > 1 ? "s" : "");
		return -1;
	}
	(void)hit;
	return 0;
}

int check_sigchld(struct engine *e, const char *why)
{
	int i;

	for (i = 0; i < e->m.n && !e->stop; i++) {
		if (e->m.t[i].leader != i || !m_group_alive(&e->m, i) || e->e[i].external)
			continue;
		if (!m_has_notices(&e->m, i))
			continue;
		if (sigchld_of(e, i, why) < 0)
			return -1;
	}
	m_notices_gc(&e->m);
	return e->stop ? -1 : 0;
}

/* ---- exit reports ---- */

/*
 * An exit report the kernel would give group @lead now (waitid() with
 * WNOWAIT, so nothing is collected) must be one the model owes that group:
 * a zombie the model says is nobody's yet (delay_group_leader(), a tracer
 * first, released) must not be waitable.
 */
static int pending_of(struct engine *e, int lead, const char *why)
{
	struct agent_reply rep;
	char got[96];
	bool as_tracer;
	int w, x, c;

	memset(&rep, 0, sizeof(rep));
	if (lead == 0) {
		rep.pid = wait_pending(&rep.status);
		rep.ok = rep.pid >= 0;
	} else {
		w = m_alive_thread(&e->m, lead);
		if (w == M_NONE || e->e[w].fd < 0 || T(e, w)->stop != MS_RUNNING ||
		    m_zapping(&e->m, lead))
			return 0;
		if (call(e, w, REQ(OP_PENDING, 0, 0, 0), &rep, NULL) < 0)
			return -1;
	}
	if (!rep.ok) {
		harness_err(e, "%s: waitid(WNOWAIT) in %s failed: %s", why, tname(e, lead),
			    rep.msg);
		return -1;
	}
	if (rep.pid <= 0)
		return 0;
	e->st.checks++;
	x = m_find_pid_seen_by(&e->m, rep.pid, lead);
	/* A debugger's own children, orphaned to R, are beyond the model. */
	if (x < 0 && lead == 0 && e->nsessions)
		return 0;
	c = x >= 0 ? m_next_collector(&e->m, x, &as_tracer) : M_NONE;
	if (c >= 0 && m_same_group(&e->m, c, lead))
		return 0;
	snprintf(got, sizeof(got), "pid %d is waitable (status %#x)", (int)rep.pid, rep.status);
	report(e, &(struct fdesc){ .check = "report", .rule = x >= 0 ? T(e, x)->why_owed : R_NONE,
				   .ntasks = 2, .tasks = { x, lead },
				   .expected = c >= 0 ? tname(e, c) : "no report due to it",
				   .observed = got },
	       "%s: %s can collect an exit report of %s that the model does not owe it", why,
	       tname(e, lead), x >= 0 ? tname(e, x) : "an unknown pid");
	return -1;
}

int check_pending(struct engine *e, const char *why)
{
	int i;

	for (i = 0; i < e->m.n && !e->stop; i++) {
		if (e->m.t[i].leader != i || e->e[i].external || !m_group_alive(&e->m, i))
			continue;
		if (pending_of(e, i, why) < 0)
			return -1;
	}
	return e->stop ? -1 : 0;
}

/* The status @c's report must carry (m_report_status()), and whether @status is it. */
static bool report_matches(struct engine *e, int c, int status, char *want, size_t len)
{
	int code, sig;

	m_report_status(&e->m, c, &code, &sig);
	if (sig)
		snprintf(want, len, "killed(%s)", sig_name(sig));
	else
		snprintf(want, len, "exited(%d)", code);
	if (sig)
		return WIFSIGNALED(status) && WTERMSIG(status) == sig;
	return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

int collect_reply(struct engine *e, int w, int c, const struct agent_reply *rep, bool as_tracer)
{
	struct mtask *t = &e->m.t[c];
	char want[48], got[64];
	bool match;

	e->st.checks++;
	match = report_matches(e, c, rep->status, want, sizeof(want));
	if (!rep->ok) {
		report(e, &(struct fdesc){ .check = "report", .rule = t->why_owed, .ntasks = 2,
					   .tasks = { c, w }, .expected = want,
					   .observed = rep->msg },
		       "exit report of %s to %s%s did not come", tname(e, c), tname(e, w),
		       as_tracer ? " (its tracer)" : "");
		return -1;
	}
	if (!match) {
		snprintf(got, sizeof(got), "status %#x", rep->status);
		report(e, &(struct fdesc){ .check = "report", .rule = t->why_code, .ntasks = 2,
					   .tasks = { c, w }, .expected = want,
					   .observed = rep->msg },
		       "exit report of %s to %s has the wrong status (%s)", tname(e, c),
		       tname(e, w), got);
		return -1;
	}
	/* Exactly once: the same pid must now be unknown to this waiter. */
	if (rep->second != -1 || rep->second_errno != ECHILD) {
		snprintf(got, sizeof(got), "second waitpid() = %d (%s)", rep->second,
			 rep->second < 0 ? errno_name(rep->second_errno) : "a report");
		report(e, &(struct fdesc){ .check = "report", .rule = R_REPORT_ONCE, .ntasks = 2,
					   .tasks = { c, w }, .expected = "-1 (ECHILD)",
					   .observed = got },
		       "exit report of %s to %s came twice or the pid stayed waitable",
		       tname(e, c), tname(e, w));
		return -1;
	}
	if (m_report(&e->m, w, c) < 0) {
		report(e, &(struct fdesc){ .check = "report", .rule = t->why_owed, .ntasks = 2,
					   .tasks = { c, w } },
		       "%s received an exit report of %s that the model does not owe it",
		       tname(e, w), tname(e, c));
		return -1;
	}
	e->st.reports++;
	e->e[c].dirty = true;
	return 0;
}

int r_collects(struct engine *e, int c, struct agent_reply *rep)
{
	struct wait_event ev;
	struct deadline dl;
	char what[128];
	int r, status;

	memset(rep, 0, sizeof(*rep));
	snprintf(what, sizeof(what), "exit report of %s to R", tname(e, c));
	step_deadline(e, &dl, 0);
	r = wait_event_for(e->m.t[c].tid, &ev, &dl, what);
	if (r < 0) {
		snprintf(rep->msg, sizeof(rep->msg), "%s", ps_last_error());
		if (r == -EINTR)
			harness_err(e, "interrupted");
		return r == -EINTR ? r : 0;
	}
	rep->ok = 1;
	rep->status = ev.status;
	rep->second = waitpid(e->m.t[c].tid, &status, WNOHANG | __WALL);
	rep->second_errno = rep->second < 0 ? errno : 0;
	wait_event_str(&ev, rep->msg, sizeof(rep->msg));
	return 0;
}

/* A strace session collected @task's exit: its output must say so at "stop". */
static void session_saw_exit(struct engine *e, int tracer, int task)
{
	const struct mtask *t = &e->m.t[task];
	struct session *ss;

	if (e->e[tracer].session < 0)
		return;
	ss = &e->sessions[e->e[tracer].session];
	if (ss->nseen == (int)(sizeof(ss->seen) / sizeof(ss->seen[0])) || t->leader != task)
		return;
	ss->seen[ss->nseen].tid = t->tid;
	ss->seen[ss->nseen].code = t->exit_code;
	ss->seen[ss->nseen].sig = t->exit_sig;
	ss->nseen++;
}

int collect_reports(struct engine *e, bool all)
{
	struct agent_reply rep;
	bool progress = true, as_tracer;
	int i, c, round;

	while (progress && !e->stop) {
		progress = false;
		/* Tracer reports first: they unblock the real parents' ones. */
		for (round = 0; round < 2 && !e->stop; round++) {
			for (i = 1; i < e->m.n && !e->stop; i++) {
				c = m_next_collector(&e->m, i, &as_tracer);
				if (c == M_NONE || as_tracer != (round == 0))
					continue;
				if (!all && !e->e[c].external)
					continue;
				if (c == 0) {
					if (r_collects(e, i, &rep) < 0)
						return -1;
				} else if (e->e[c].external) {
					/* strace waits by itself; its output is checked at stop. */
					if (as_tracer)
						session_saw_exit(e, c, i);
					m_report(&e->m, c, i);
					e->e[i].dirty = true;
					progress = true;
					continue;
				} else if (e->m.t[c].stop != MS_RUNNING || e->e[c].fd < 0) {
					continue;
				} else {
					if (call(e, c, REQ(as_tracer ? OP_WAIT_TRACEE : OP_REAP,
							   pid_for(e, c, i), 0, 0), &rep, NULL) < 0)
						return -1;
				}
				if (collect_reply(e, c, i, &rep, as_tracer) < 0)
					return -1;
				progress = true;
			}
		}
	}
	return e->stop ? -1 : 0;
}

/* ---- expect ---- */

/* Does the model predict what "expect" @s asks of task @x (@want: the pid)? */
static bool expect_agrees_model(struct engine *e, const struct stmt *s, int x, pid_t want)
{
	static const char *const letters[] = { "RSDI", "T", "t", "Z", "" };
	const char *m = m_state_letters(&e->m, x);

	switch (s->what) {
	case E_PPID:
		return m_ppid(&e->m, x) == want;
	case E_TRACER:
		return m_tracer_pid(&e->m, x) == want;
	case E_STATE:
		if (s->state == ST_GONE)
			return e->m.t[x].life == ML_DEAD;
		return e->m.t[x].life != ML_DEAD && strpbrk(m, letters[s->state]) != NULL;
	}
	return true;
}

int check_expect(struct engine *e, const struct stmt *s)
{
	static const char *const states[] = { "running", "stopped", "traced", "zombie", "gone" };
	int x = task_of(e, s->name[0]), v = -1;
	const struct mtask *t;
	struct proc_status ps;
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	char exp[160], got[160];
	pid_t want = 0;
	int r;

	if (x < 0)
		return -1;
	t = &e->m.t[x];
	if (s->what != E_STATE && strcmp(s->name[1], "init") && strcmp(s->name[1], "none")) {
		v = task_of(e, s->name[1]);
		if (v < 0)
			return -1;
		want = s->what == E_PPID ? e->m.t[e->m.t[v].leader].tid : e->m.t[v].tid;
	} else if (!strcmp(s->name[1], "init")) {
		want = 1;
	}
	/*
	 * When the model already disagrees with the expectation, the kernel
	 * has had every step's check to agree with the model: only a lagging
	 * wakeup can still change anything, so the live tasks' grace is the
	 * deadline, not the whole step timeout.
	 */
	if (!expect_agrees_model(e, s, x, want) && cur_sec(e) > ALIVE_GRACE_SEC)
		deadline_start(&dl, ALIVE_GRACE_SEC);
	else
		step_deadline(e, &dl, 0);
	e->st.checks++;
	for (;;) {
		bool ok;

		r = status_read(e->m.t[t->leader].tid, t->tid, &ps, &pe);
		if (r < 0 && ours(-r)) {
			harness_err(e, "expect: %s (our resource limit)", pe.msg);
			return -1;
		}
		if (s->what == E_STATE) {
			ok = s->state == ST_GONE ? r == -ESRCH :
			     r == 0 && (s->state == ST_ZOMBIE ? ps.state == 'Z' :
					s->state == ST_TRACED ? ps.state == 't' :
					s->state == ST_STOPPED ? ps.state == 'T' :
					strchr("RSDI", ps.state) != NULL);
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
	snapshot_task(e, x);
	if (s->what == E_STATE)
		snprintf(exp, sizeof(exp), "state %s", states[s->state]);
	else
		snprintf(exp, sizeof(exp), "%s %s (%d)", s->what == E_PPID ? "PPid" : "TracerPid",
			 s->name[1], (int)want);
	if (r == 0)
		snprintf(got, sizeof(got), "PPid %d TracerPid %d State %c", (int)ps.ppid,
			 (int)ps.tracer_pid, ps.state);
	else
		snprintf(got, sizeof(got), "no such task");
	report(e, &(struct fdesc){ .check = "expect", .rule = R_NONE, .ntasks = 1,
				   .tasks = { x }, .expected = exp, .observed = got },
	       "expect %s %s %s: the kernel shows otherwise (the model says PPid %d "
	       "TracerPid %d State %s)", s->what == E_PPID ? "ppid" : s->what == E_TRACER ?
	       "tracer" : "state", s->name[0], s->what == E_STATE ? states[s->state] :
	       s->name[1], (int)m_ppid(&e->m, x), (int)m_tracer_pid(&e->m, x),
	       m_state_letters(&e->m, x));
	return -1;
}
