// SPDX-License-Identifier: GPL-2.0
/*
 * Differential mode: observations of one kernel, compared with another's
 * (diff.h).  The steps are the same on both (the reference's executed
 * steps, replayed by `ptstress run`), so the engine's path through them is
 * the same until the kernels differ, and the observations line up one to
 * one.  What is left out, because the kernel's contract lets it differ
 * between two correct kernels or two runs of one:
 *
 *   - raw pids (pid allocation): every pid is the scenario's name, "?"
 *     for a pid that is no task of the scenario;
 *   - R, S, D and I of /proc's State (where a running task happens to be
 *     when it is read): all are "run";
 *   - the SIGCHLD log (standard signals coalesce: how many a process
 *     dequeued depends on when it ran, kernel/signal.c legacy_queue());
 *   - the agent's message text (it carries raw pids);
 *   - what the model itself leaves open: the State of a task a real
 *     debugger stops and resumes on its own (any_state), the tracer of a
 *     task a debugger session may trace (uncertain), and the group of a
 *     namespace init whose threads race for the zap (zap_race():
 *     find_child_reaper() picks the thread);
 *   - which tracer wins a race-attach (ptrace_attach()'s locks decide):
 *     its replies, the winner's included, give way to one observation of
 *     how many won (v_race_attach()).  Without "detach" the winner stays
 *     the tracer, and the tasks' observations after it still differ.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ptrace.h>

#include "engine/core.h"
#include "engine/diff.h"
#include "lib/links.h"

int obs_open(struct obs_stream *o, const char *record, const char *against)
{
	memset(o, 0, sizeof(*o));
	if (record) {
		o->rec = fopen(record, "we");
		if (!o->rec)
			return -errno;
	}
	if (against) {
		o->ref = fopen(against, "re");
		if (!o->ref) {
			int err = errno;

			if (o->rec)
				fclose(o->rec);
			o->rec = NULL;
			return -err;
		}
		o->ref_path = against;
	}
	return 0;
}

int obs_close(struct obs_stream *o)
{
	int r = 0;

	if (o->rec && fclose(o->rec))
		r = -errno;
	if (o->ref)
		fclose(o->ref);
	o->rec = o->ref = NULL;
	return r;
}

bool diff_on(const struct engine *e)
{
	const struct obs_stream *o = e->opts ? e->opts->obs : NULL;

	return o && (o->rec || o->ref);
}

bool zap_race(struct engine *e, int proc)
{
	int lead = e->m.t[proc].leader, k;

	if (e->m.t[lead].ns != lead)
		return false;
	for (k = 0; k < e->m.n; k++)
		if (e->m.t[k].leader == lead && e->m.t[k].zap_cand && m_zapping(&e->m, k))
			return true;
	return false;
}

/* Compare @ours with the recording's next line; report the difference. */
static int compare(struct engine *e, struct obs_stream *o, int task, const char *ours)
{
	char ref[1024], exp[1100], got[1100];
	size_t len;

	o->ref_line++;
	if (!fgets(ref, sizeof(ref), o->ref))
		snprintf(ref, sizeof(ref), "(the recording ends)");
	len = strlen(ref);
	if (len && ref[len - 1] == '\n')
		ref[--len] = '\0';
	e->st.checks++;
	if (!strcmp(ref, ours))
		return 0;
	snprintf(exp, sizeof(exp), "%s (%s:%ld)", ref, o->ref_path, o->ref_line);
	snprintf(got, sizeof(got), "%s", ours);
	report(e, &(struct fdesc){ .check = "differential", .rule = R_NONE,
				   .ntasks = task >= 0 ? 1 : 0, .tasks = { task },
				   .expected = exp, .observed = got },
	       "the kernel under test differs from the reference at observation %ld", o->n);
	return -1;
}

int diff_obs(struct engine *e, int task, const char *fmt, ...)
{
	struct obs_stream *o = e->opts ? e->opts->obs : NULL;
	char text[1024];
	va_list ap;

	if (!o || (!o->rec && !o->ref))
		return 0;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	o->n++;
	if (o->rec)
		fprintf(o->rec, "%s\n", text);
	return o->ref ? compare(e, o, task, text) : 0;
}

/* The name of the task agent @viewer calls @pid (its namespace's pids). */
static const char *pid_name(struct engine *e, int viewer, pid_t pid)
{
	int x;

	if (pid <= 0)
		return pid ? "-1" : "0";
	for (x = e->m.n - 1; x >= 0; x--)
		if (e->m.t[x].life != ML_DEAD && pid_for(e, viewer, x) == pid)
			return m_name(&e->m, x);
	return pid == 1 ? "init" : "?";
}

int diff_reply(struct engine *e, int i, const struct agent_req *req,
	       const struct agent_reply *rep)
{
	char extra[160] = "";
	int n = 0;

	if (!diff_on(e) || req->op == OP_SIGCHLD_LOG || e->diff_quiet)
		return 0;
	switch (req->op) {
	case OP_FORK:
	case OP_THREAD:
		/* The new task's pid: it gets its name after this reply. */
		break;
	case OP_PENDING:
	case OP_WAITID:
		/*
		 * Which of several due reports a wait for any child finds is
		 * the order of ->children and ->ptraced, and children land
		 * there in the order they exit (forget_original_parent() of
		 * processes killed together): only whether one was found.
		 */
		if (req->op == OP_PENDING || req->pid <= 0) {
			snprintf(extra, sizeof(extra), " found=%d", rep->pid > 0);
			break;
		}
		/* fall through */
	default:
		if (rep->pid || rep->status)
			n = snprintf(extra, sizeof(extra), " pid=%s status=%#x",
				     pid_name(e, i, rep->pid), rep->status);
		/* PTRACE_EVENT_EXIT's message is the exit code; other events' are pids. */
		if (n >= 0 && (size_t)n < sizeof(extra) && (rep->status >> 16) == PTRACE_EVENT_EXIT)
			snprintf(extra + n, sizeof(extra) - n, " msg=%#lx", rep->msg_val);
		break;
	case OP_REAP:
		n = snprintf(extra, sizeof(extra), " pid=%s status=%#x second=%s/%s",
			     pid_name(e, i, rep->pid), rep->status,
			     rep->second > 0 ? pid_name(e, i, rep->second) : rep->second ? "-1" : "0",
			     rep->second_errno ? errno_name(rep->second_errno) : "0");
		break;
	}
	/* --wrong-reply: the kernel under test "fails" every such request */
	if (e->opts->obs->ref && e->opts->wrong_reply == (int)req->op)
		return diff_obs(e, -1, "reply %s %s ok=0 err=EIO%s", m_name(&e->m, i),
				agent_op_name(req->op), extra);
	return diff_obs(e, -1, "reply %s %s ok=%d err=%s%s", m_name(&e->m, i),
			agent_op_name(req->op), rep->ok, rep->err ? errno_name(rep->err) : "0",
			extra);
}

/* State as a class: where a running task is when /proc is read is timing. */
static const char *state_class(char st)
{
	switch (st) {
	case 'R': case 'S': case 'D': case 'I':
		return "run";
	case 't':
		return "t";
	case 'T':
		return "T";
	case 'Z':
		return "Z";
	case 'X':
		return "X";
	default:
		return "other";
	}
}

int diff_task(struct engine *e, int i, int r, const struct proc_status *ps,
	      const struct ptrace_links *l)
{
	const struct mtask *t = &e->m.t[i];
	pid_t tgid = e->m.t[t->leader].tid;
	struct ptrace_links fresh;
	struct parse_error pe;
	char st[160], ln[400] = "";
	int rp;

	if (!diff_on(e))
		return 0;
	rp = e->m.t[t->leader].real_parent;
	/* The zap's races, as the model leaves them open (observe.c). */
	if (m_zapping(&e->m, i) || t->zap_cand || zap_race(e, i) || (rp >= 0 && zap_race(e, rp)))
		return 0;
	if (r == -ESRCH)
		return diff_obs(e, i, "task %s gone", m_name(&e->m, i));
	if (r < 0)
		return diff_obs(e, i, "task %s unreadable %s", m_name(&e->m, i), errno_name(-r));
	snprintf(st, sizeof(st), "state=%s tgid=%s ppid=%s tracer=%s",
		 e->e[i].any_state && ps->state != 'Z' ? "any" : state_class(ps->state),
		 pid_name(e, 0, ps->tgid), pid_name(e, 0, ps->ppid),
		 e->e[i].uncertain ? "any" : pid_name(e, 0, ps->tracer_pid));
	if (!l && e->have_links && !e->e[i].uncertain &&
	    links_read(tgid, t->tid, &fresh, &pe) == 0)
		l = &fresh;
	if (l) {
		bool ext = t->tracer >= 0 && e->e[t->tracer].external;

		snprintf(ln, sizeof(ln), " leader=%s parent=%s real_parent=%s tracer=%s "
			 "ptrace=%#lx ptraced=%lu children=%lu sibling=%d exit_state=%#x "
			 "exit_signal=%d exiting=%d",
			 pid_name(e, 0, l->leader), pid_name(e, 0, l->parent),
			 pid_name(e, 0, l->real_parent),
			 l->tracer < 0 ? "orphans" : pid_name(e, 0, l->tracer),
			 ext ? 0 : l->ptrace, l->ptraced, l->children,
			 l->sibling_linked, l->exit_state, l->exit_signal, l->exiting);
	}
	return diff_obs(e, i, "task %s %s%s", m_name(&e->m, i), st, ln);
}

int diff_begin(struct engine *e)
{
	/* Not its file's name: the reference ran the steps as `fuzz`, we as a file. */
	return diff_obs(e, -1, "scenario");
}

int diff_end(struct engine *e)
{
	struct obs_stream *o = e->opts ? e->opts->obs : NULL;
	char ref[1024];
	long pos;

	if (!o || !o->ref || e->stop)
		return 0;
	/* The next scenario's observations begin with its "scenario" line. */
	pos = ftell(o->ref);
	if (!fgets(ref, sizeof(ref), o->ref) || !strcmp(ref, "scenario\n")) {
		if (pos >= 0)
			fseek(o->ref, pos, SEEK_SET);
		return 0;
	}
	if (pos >= 0)
		fseek(o->ref, pos, SEEK_SET);
	return compare(e, o, -1, "(the scenario ends)");
}
