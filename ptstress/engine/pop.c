// SPDX-License-Identifier: GPL-2.0
/*
 * Populations: processes (R's children or an agent's), trees, threads.
 *
 * A task created by a traced task with the matching PTRACE_O_TRACE* option
 * is auto-attached (ptrace_init_task() via copy_process()): its creator
 * stops in PTRACE_EVENT_FORK/CLONE and the new task in its first stop, so
 * the tracer has to "follow" before the creator can even reply.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include "engine/engine.h"

pid_t pid_for(int waiter, int t)
{
	const struct mtask *w = &eng.m.t[waiter], *x = &eng.m.t[t];

	/* Only one namespace level below R's: inside it, pids are ns_tid. */
	if (w->ns == M_NONE)
		return x->tid;
	return x->ns_tid;
}

/* The tracer that must follow a creation by @creator, or M_NONE. */
static int follower(int creator, unsigned long opt)
{
	const struct mtask *c = &eng.m.t[creator];

	if (c->tracer == M_NONE || !(c->ptrace_opts & opt))
		return M_NONE;
	return c->tracer;
}

/*
 * Let @creator handle @req ("fork F" or "thread"), following it with its
 * tracer if it is traced with @opt.  Reads the new task's hello.  Returns
 * the new task's fd and fills in *tid, *ns_tid and *tracer (M_NONE: not
 * auto-attached).
 */
static int create(int creator, const struct agent_req *req, unsigned long opt, pid_t *tid, pid_t *ns_tid,
		  int *tracer)
{
	struct agent_reply rep, frep;
	struct deadline dl;

	int fd = -1, r;

	*tracer = follower(creator, opt);
	if (eng.m.t[creator].stop != MS_RUNNING) {
		bad_scenario("%s is stopped: it cannot %s (cont it first)", tname(creator),
			     agent_op_name(req->op));
		return -1;
	}
	if (start_call(creator, req) < 0)
		return -1;
	if (*tracer != M_NONE && !eng.e[*tracer].external) {
		if (call(*tracer, REQ(OP_FOLLOW, pid_for(*tracer, creator), 0, 0), &frep, NULL) < 0)
			return -1;
		if (!frep.ok) {
			finding("%s could not follow the %s of %s: %s", tname(*tracer),
				agent_op_name(req->op),
				tname(creator), frep.msg);
			return -1;
		}
	}
	if (finish(creator, req, &rep, &fd) < 0)
		return -1;
	if (!rep.ok || fd < 0) {
		harness_err("%s: '%s' failed: %s", tname(creator), agent_op_name(req->op), rep.msg);
		return -1;
	}
	deadline_start(&dl, eng.step_timeout);
	r = agent_hello(fd, tid, ns_tid, &dl);
	if (r < 0) {
		harness_err("no hello from the task %s created: %s", tname(creator),
			    ps_last_error());
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Model task @i (or -1: no memory) was just created by @creator: give it
 * its channel @fd and @name; auto-attached to @tracer unless M_NONE, with
 * the creator's options (ptrace_init_task() copies them).
 */
static int adopt(int i, int fd, const char *name, int creator, int tracer)
{
	if (i < 0 || !etask_grow()) {
		harness_err("out of memory");
		close(fd);
		return -1;
	}
	eng.e[i].fd = fd;
	eng.e[i].dirty = true;
	if (tracer != M_NONE)
		m_auto_attach(&eng.m, i, tracer, eng.m.t[creator].ptrace_opts,
			      eng.m.t[creator].seized);
	bind_name(name, i);
	return i;
}

static int add_thread(const char *name, int proc)
{
	int creator = m_alive_thread(&eng.m, proc);
	int tracer, fd, i;
	pid_t tid, ns_tid;

	if (creator == M_NONE) {
		bad_scenario("%s has no live thread to create %s", tname(proc), name);
		return -1;
	}
	fd = create(creator, REQ(OP_THREAD, 0, 0, 0), PTRACE_O_TRACECLONE, &tid, &ns_tid, &tracer);
	if (fd < 0)
		return -1;
	i = adopt(m_thread(&eng.m, creator, name, tid, ns_tid), fd, name, creator, tracer);
	if (i < 0)
		return -1;
	logf_("  thread %s = tid %d in %s", name, (int)tid, tname(proc));
	return i;
}

int spawn_process(const char *name, int parent, bool subreaper, bool pidns, int threads)
{
	int flags = (subreaper ? AGENT_FORK_SUBREAPER : 0) | (pidns ? AGENT_FORK_PIDNS : 0);
	int tracer = M_NONE, fd, i, k;
	pid_t tid, ns_tid;
	char tn[SC_NAME_LEN + 8];

	if (parent == 0) {
		struct deadline dl;
		pid_t pid = agent_spawn(flags, &fd);

		if (pid < 0) {
			harness_err("R could not create %s: %s", name, strerror(errno));
			return -1;
		}
		deadline_start(&dl, eng.step_timeout);
		if (agent_hello(fd, &tid, &ns_tid, &dl) < 0) {
			harness_err("no hello from %s (pid %d): %s", name, (int)pid,
				    ps_last_error());
			close(fd);
			return -1;
		}
	} else {
		if (eng.m.t[parent].ns != M_NONE && pidns) {
			bad_scenario("nested pid namespaces are not supported");
			return -1;
		}
		fd = create(parent, REQ(OP_FORK, 0, 0, flags), PTRACE_O_TRACEFORK, &tid, &ns_tid, &tracer);
		if (fd < 0)
			return -1;
	}
	i = adopt(m_fork(&eng.m, parent, name, tid, ns_tid, subreaper, pidns), fd, name, parent,
		  tracer);
	if (i < 0)
		return -1;
	logf_("  process %s = pid %d (ns pid %d), parent %s", name, (int)tid, (int)ns_tid,
	      tname(parent));
	for (k = 1; k <= threads && !eng.stop; k++) {
		snprintf(tn, sizeof(tn), "%s.t%d", name, k);
		if (add_thread(tn, i) < 0)
			return -1;
	}
	return eng.stop ? -1 : i;
}

static int parent_of(const struct stmt *s)
{
	return s->parent[0] ? task_of(s->parent) : 0;
}

int pop_process(const struct stmt *s)
{
	int p = parent_of(s);

	if (p < 0)
		return -1;
	return spawn_process(s->name[0], p, s->opts & O_SUBREAPER, s->opts & O_PIDNS,
			     s->threads) < 0 ? -1 : 0;
}

int pop_thread(const struct stmt *s)
{
	int p = task_of(s->name[1]);

	return p < 0 ? -1 : (add_thread(s->name[0], p) < 0 ? -1 : 0);
}

/* Breadth first: NAME, NAME.1 .. NAME.F, NAME.1.1 ... (names as the parser defines them). */
static int tree_level(const char *name, int node, int depth, const struct stmt *s)
{
	char cn[SC_NAME_LEN];
	int kids[64], k;

	if (depth == 0)
		return 0;
	for (k = 0; k < s->fanout; k++) {
		snprintf(cn, sizeof(cn), "%s.%d", name, k + 1);
		kids[k] = spawn_process(cn, node, false, false, s->threads);
		if (kids[k] < 0)
			return -1;
	}
	for (k = 0; k < s->fanout; k++) {
		snprintf(cn, sizeof(cn), "%s.%d", name, k + 1);
		if (tree_level(cn, kids[k], depth - 1, s) < 0)
			return -1;
	}
	return 0;
}

int pop_tree(const struct stmt *s)
{
	int p = parent_of(s), root;

	if (p < 0)
		return -1;
	root = spawn_process(s->name[0], p, false, false, s->threads);
	if (root < 0)
		return -1;
	return tree_level(s->name[0], root, s->depth, s);
}
