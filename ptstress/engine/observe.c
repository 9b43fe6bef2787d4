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

#include "engine/diff.h"
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

/*
 * Not even that grace for a live task's PPid, once every exit the model
 * knows of has been seen complete (a zombie's Z, a released task's
 * ESRCH): real_parent is written only by copy_process()
 * (kernel/fork.c:2501-2508) and by forget_original_parent()
 * (kernel/exit.c:709), which runs in the exiting parent's exit_notify()
 * under tasklist_lock before its exit_state is set (kernel/exit.c:737-743).
 * So a PPid that differs then is final: it is read twice, PPID_FINAL_READS,
 * and reported at once rather than after the grace (each replay of a
 * reaper finding in the minimizer waited it out).
 */
#define PPID_FINAL_READS	2

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

/* Does the read @o of live task @i differ from the model in its PPid alone? */
static bool ppid_only(struct engine *e, int i, const struct obs *o)
{
	const struct mtask *t = &e->m.t[i];

	return o->r == 0 && o->ps.tgid == e->m.t[t->leader].tid &&
	       o->ps.ppid != m_ppid(&e->m, i) && state_ok(e, i, o->ps.state, NULL) &&
	       (e->e[i].uncertain || o->ps.tracer_pid == m_tracer_pid(&e->m, i));
}

/*
 * Have all exits the model knows of been seen complete (etask.exit_seen),
 * none of them a namespace init still draining (m_zapping(): its
 * exit_notify() is still to come)?  Then no live task's PPid can move.
 */
static bool exits_seen(struct engine *e)
{
	/* a task off e->chk is external, an exec's old leader, or seen gone */
	for (int k = 0; k < e->nchk; k++) {
		int i = e->chk[k];
		const struct mtask *t = &e->m.t[i];

		if (!i || e->e[i].external || t->tid <= 0)
			continue;
		if (m_zapping(&e->m, i))
			return false;
		if (t->life != ML_ALIVE && !e->e[i].exit_seen)
			return false;
	}
	return true;
}

/*
 * Poll task @i until /proc agrees with the model or @sec pass (@ppid_final:
 * a PPid that differs is final, see PPID_FINAL_READS).  Returns 0,
 * -ETIMEDOUT (a finding, described in @d), -EINTR, or -errno of a read
 * failure that is ours (harness).
 */
static int settle(struct engine *e, int i, int sec, bool ppid_final, struct fdesc *d, char *exp,
		  char *got, size_t len, struct obs *last, bool *final_out)
{
	const struct mtask *t = &e->m.t[i];
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	struct obs o = { .r = -ESRCH };
	int r, final = 0;

	deadline_start(&dl, sec);
	for (;;) {
		o.r = status_read_cached(e->m.t[t->leader].tid, t->tid, &e->e[i].status, &o.ps,
					 &pe);
		if (o.r < 0 && ours(-o.r)) {
			snprintf(got, len, "%s", pe.msg);
			r = o.r;
			break;
		}
		if (o.r == -ESRCH && t->life == ML_DEAD && t->tid <= 0) {
			r = 0;
			break;
		}
		if (agrees(e, i, &o, d, exp, got, len)) {
			r = 0;
			break;
		}
		/* PPID_FINAL_READS: only the PPid differs, and nothing can move it */
		final = ppid_final && ppid_only(e, i, &o) ? final + 1 : 0;
		if (final >= PPID_FINAL_READS) {
			*final_out = true;
			r = -ETIMEDOUT;
			break;
		}
		if (ps_stop_signal) {
			r = -EINTR;
			break;
		}
		if (deadline_expired(&dl)) {
			r = -ETIMEDOUT;
			break;
		}
		backoff_sleep(&delay);
	}
	/* The read the verdict is about: differential mode compares that one. */
	*last = o;
	return r;
}

/*
 * Compare the links file once: 1 agrees, 0 differs (the differences in
 * @exp/@got), -errno when we could not read it for a reason of ours.
 */
static int links_match(struct engine *e, int i, int *rule, char *exp, char *got, size_t len,
		       struct ptrace_links *out, bool *read)
{
	const struct mtask *t = &e->m.t[i];
	struct ptrace_links l;
	struct m_links w;
	struct parse_error pe;
	size_t ne = 0, ng = 0;
	int r, rp;

	*rule = R_NONE;
	*read = false;
	r = links_read_cached(e->m.t[t->leader].tid, t->tid, &e->e[i].links, &l, &pe);
	if (r == 0) {
		*out = l;
		*read = true;
	}
	if (r == -ESRCH)
		return 1;	/* gone meanwhile: the status check covers it */
	if (r < 0) {
		snprintf(got, len, "%s", pe.msg);
		if (ours(-r))
			return r;
		/* A file the kernel garbles (or withholds) is the kernel's. */
		snprintf(exp, len, "a well-formed ptrace_links");
		return 0;
	}
	m_links(&e->m, i, &w);
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
	rp = e->m.t[t->leader].real_parent;
	if (rp < 0 || !zap_race(e, rp)) {
		FIELD(real_parent, "%d", t->why_parent);
		FIELD(parent, "%d", t->why_tracer);
	} else if (t->tracer != M_NONE) {
		FIELD(parent, "%d", t->why_tracer);
	}
	FIELD(tracer, "%d", t->why_tracer);
	/* A real debugger picks its own options (strace's change with its version). */
	if (t->tracer < 0 || !e->e[t->tracer].external)
		FIELD(ptrace, "%#lx", t->why_tracer);
	FIELD(ptraced, "%lu", R_LINKS_LISTS);
	if (!zap_race(e, i)) {
		FIELD(children, "%lu", R_LINKS_LISTS);
		FIELD(exit_state, "%#x", t->why_state);
		FIELD(exiting, "%d", t->why_state);
	}
	FIELD(sibling_linked, "%d", R_LINKS_LISTS);
	FIELD(exit_signal, "%d", t->why_exitsig);
#undef FIELD
	return ne == 0;
}

/*
 * The links file must come to agree: the lists of other tasks (a child
 * being released by a namespace's init, say) may still be moving, so it
 * is polled like /proc status, with the live tasks' grace. 1 agrees,
 * 0 does not, -EINTR interrupted, another -errno our own failure.
 */
static int links_agree(struct engine *e, int i, int *rule, char *exp, char *got, size_t len,
		       struct ptrace_links *last, bool *read)
{
	unsigned int delay = 0;
	struct deadline dl;
	int r;

	deadline_start(&dl, cur_sec(e) < ALIVE_GRACE_SEC ? cur_sec(e) : ALIVE_GRACE_SEC);
	while ((r = links_match(e, i, rule, exp, got, len, last, read)) == 0) {
		if (ps_stop_signal)
			return -EINTR;
		if (deadline_expired(&dl))
			return 0;
		backoff_sleep(&delay);
	}
	return r;
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

/*
 * The files R keeps for task @i, closed once the kernel has released it
 * (its check agreed: gone_ok) or at the teardown: its cached /proc files
 * and its agent's command channel.  A long run's open files then follow
 * its live population, not every task it ever had (host fuzz seed 42:
 * 15 051 agent sockets open for 3 739 live tasks after 60 s, then EMFILE
 * at an RLIMIT_NOFILE of 20 000, a harness error).  Nothing calls a
 * released task's agent again: an exec keeps the execing thread's index
 * and channel, the old leader is the one released.  Its pidfd stays:
 * `pidfd` polls a released pid on; the teardown closes it.
 */
void task_files_close(struct engine *e, int i)
{
	if (i >= e->e_cap)
		return;
	if (e->e[i].fd >= 0) {
		close(e->e[i].fd);
		e->e[i].fd = -1;
	}
	proc_fd_close(&e->e[i].status);
	proc_fd_close(&e->e[i].links);
}

static int check_tasks_frozen(struct engine *e, bool all, const char *why)
{
	char exp[512], got[512], lexp[512], lgot[512];
	struct ptrace_links l;
	struct fdesc d;
	struct obs o;
	int i, k, r, rl, lrule, sec;
	bool have_l, ppid_final = false, final;

	e->tasks_gen++;
	/* The dead and the zombies first: their exits reparent the living. */
	for (int pass = 0; pass < 2; pass++) {
		/* the live ones once the settled ones passed: are all exits seen? */
		if (pass == 1)
			ppid_final = exits_seen(e);
		for (k = 0; k < e->nchk && !e->stop; k++) {
			const struct mtask *t;
			bool settled;

			i = e->chk[k];
			if (!i)
				continue;
			t = &e->m.t[i];
			settled = t->life != ML_ALIVE;

			if ((pass == 0) != settled || e->e[i].external)
				continue;
			if (!all && !e->e[i].dirty)
				continue;
			if (t->tid <= 0 || e->e[i].gone_ok) {
				/* an old leader an exec released (tid 0) */
				task_files_close(e, i);
				continue;
			}
			e->st.checks++;
			sec = cur_sec(e);
			if (pass == 1 && sec > ALIVE_GRACE_SEC)
				sec = ALIVE_GRACE_SEC;
			memset(&d, 0, sizeof(d));
			final = false;
			r = settle(e, i, sec, ppid_final, &d, exp, got, sizeof(exp), &o, &final);
			if (r == -EINTR) {
				harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
				return -1;
			}
			if (r < 0 && r != -ETIMEDOUT) {
				harness_err(e, "%s: reading /proc for %s: %s (our resource limit, "
					    "not the kernel's doing)", why, tname(e, i), got);
				return -1;
			}
			rl = 1;
			have_l = false;
			if (!r && t->life != ML_DEAD && e->have_links && !e->e[i].uncertain) {
				rl = links_agree(e, i, &lrule, lexp, lgot, sizeof(lexp), &l,
						 &have_l);
				if (rl == -EINTR) {
					harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
					return -1;
				}
				if (rl < 0) {
					harness_err(e, "%s: %s (our resource limit, not the kernel's "
						    "doing)", why, lgot);
					return -1;
				}
			}
			/*
			 * Differential mode: what the reference kernel showed
			 * comes before the model's verdict, so a kernel that
			 * differs from it is a differential finding even where
			 * the model has a rule too.
			 */
			if (diff_task(e, i, o.r, &o.ps, have_l ? &l : NULL) < 0)
				return -1;
			if (r < 0) {
				snapshot_task(e, i);
				d.expected = exp;
				d.observed = got;
				if (final)
					report(e, &d, "%s: /proc disagrees with the model: %s (its "
					       "PPid, after every exit was seen complete)", why,
					       tname(e, i));
				else
					report(e, &d, "%s: /proc disagrees with the model after %d s: "
					       "%s", why, sec, tname(e, i));
				return -1;
			}
			/* its exit_notify() is over: a Z, or released (ESRCH) */
			if (pass == 0 && (o.r == -ESRCH ||
					  (o.r == 0 && o.ps.state && strchr("ZX", o.ps.state))))
				e->e[i].exit_seen = true;
			if (t->life == ML_DEAD) {
				e->e[i].gone_ok = true;
				task_files_close(e, i);
				continue;
			}
			/* groups_busy(): nothing for this thread's waitid() to look at */
			if (rl == 1 && have_l && !l.children && !l.ptraced && !zap_race(e, i))
				e->e[i].empty_gen = e->tasks_gen;
			if (rl == 0) {
				snapshot_task(e, i);
				d.rule = lrule;
				d.check = "links";
				d.expected = lexp;
				d.observed = lgot;
				report(e, &d, "%s: ptrace_links of %s disagrees with the model",
				       why, tname(e, i));
				return -1;
			}
		}
	}
	for (k = 0; k < e->nchk; k++)
		e->e[e->chk[k]].dirty = false;
	return 0;
}

/* Does R keep a file of task @i open (task_files_close())? */
static bool files_open(const struct engine *e, int i)
{
	return e->e[i].fd >= 0 || e->e[i].status.fd >= 0 || e->e[i].links.fd >= 0;
}

/*
 * e->chk: the tasks made since the last check joined, the ones nothing is
 * left to do for leave.  A task left out is one every check skips: a
 * debugger's (external), or one whose files are closed and which is an
 * exec's released old leader (tid 0) or was seen gone (gone_ok) with its
 * exit (exit_seen, which exits_seen() reads).  Its dirty flag stays as it
 * is: only count_states() reads it again, for live tasks and zombies.
 */
static int chk_update(struct engine *e)
{
	int k, w = 0;

	for (k = 0; k < e->nchk; k++) {
		int i = e->chk[k];

		if (i && (e->e[i].external ||
			  (!files_open(e, i) && (e->m.t[i].tid <= 0 ||
						 (e->e[i].gone_ok && e->e[i].exit_seen)))))
			continue;
		e->chk[w++] = i;
	}
	e->nchk = w;
	if (e->nchk + (e->m.n - e->chk_seen) > e->chk_cap) {
		int cap = 2 * (e->nchk + (e->m.n - e->chk_seen)) + 64;
		int *c = realloc(e->chk, cap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		e->chk = c;
		e->chk_cap = cap;
	}
	while (e->chk_seen < e->m.n)
		e->chk[e->nchk++] = e->chk_seen++;
	return 0;
}

/*
 * A check reads the model and never changes it: the list sizes every
 * ptrace_links comparison predicts are counted once for all the tasks it
 * checks (m_links_freeze()), not in a walk over every task per task.
 */
int check_tasks(struct engine *e, bool all, const char *why)
{
	int r;

	if (chk_update(e) < 0) {
		harness_err(e, "%s: out of memory", why);
		return -1;
	}
	if (e->have_links)
		m_links_freeze(&e->m);	/* -ENOMEM: m_links() walks */
	r = check_tasks_frozen(e, all, why);
	m_links_thaw(&e->m);
	return r;
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
		if (ps_stop_signal) {
			harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
			return -1;
		}
		if (deadline_expired(&dl))
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
