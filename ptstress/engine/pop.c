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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <unistd.h>

#include "engine/pop.h"
#include "lib/links.h"

/*
 * No run may fill the machine: a scenario asking for more live tasks than
 * the largest population the tool claims (a 20000-task tree or stress run)
 * is refused before it forks, not when fork() starts failing.  Memory is
 * the other limit: an agent costs about 130 kB (its stack, page tables,
 * task_struct and socket; measured in the 2 GiB guest, docs/benchmarks.md),
 * and a guest driven into reclaim under TCG shows soft lockups and then
 * the OOM killer, which would read as kernel findings.  So creations stop
 * while MemAvailable still holds an eighth of memory (at least 256 MiB):
 * our limit, a harness error, never the kernel's.
 */
#define MEM_CHECK_EVERY	32	/* creations between two looks at /proc/meminfo */

static int live_cap(struct engine *e, const char *name)
{
	static int cap;
	long total, avail, floor;
	const char *env;

	/* PTSTRESS_MAX_TASKS lowers the cap (tests); it never raises it. */
	if (!cap) {
		env = getenv("PTSTRESS_MAX_TASKS");
		cap = env && atoi(env) > 0 && atoi(env) < MAX_LIVE_TASKS ? atoi(env) :
		      MAX_LIVE_TASKS;
	}
	if (e->m.nlive >= cap) {
		refuse(e, "creating %s: %d tasks are alive, the engine's cap (%d): the largest "
		       "population a scenario may have", name, e->m.nlive, cap);
		return -1;
	}
	if (e->m.nlive % MEM_CHECK_EVERY || meminfo_read(&total, &avail) < 0)
		return 0;
	floor = total / 8 > 256 * 1024 ? total / 8 : 256 * 1024;
	/* PTSTRESS_MEM_FLOOR_KB raises the floor (tests); it never lowers it. */
	env = getenv("PTSTRESS_MEM_FLOOR_KB");
	if (env && atol(env) > floor)
		floor = atol(env);
	if (avail >= floor)
		return 0;
	refuse(e, "creating %s: %d tasks are alive and MemAvailable is %ld kB, below the "
	       "floor of %ld kB (of %ld kB): more would drive the machine into reclaim",
	       name, e->m.nlive, avail, floor, total);
	return -1;
}

/* The tracer that must follow a creation by @creator, or M_NONE. */
static int follower(struct engine *e, int creator, unsigned long opt)
{
	const struct mtask *c = &e->m.t[creator];

	if (c->tracer == M_NONE || !(c->ptrace_opts & opt))
		return M_NONE;
	return c->tracer;
}

static int vfork_done(struct engine *e, int creator, int tracer);

/*
 * A traced vfork, past PTRACE_EVENT_VFORK with the new task @child (a pid
 * as @tracer sees it) held in its first stop: @creator's thread must sleep
 * in wait_for_vfork_done() (D) until the child execs; @tracer resumes the
 * child, and with PTRACE_O_TRACEVFORKDONE gets PTRACE_EVENT_VFORK_DONE of
 * @creator once it exec'd.
 */
static int follow_vfork(struct engine *e, int creator, int tracer, pid_t child)
{
	struct agent_reply rep;
	struct proc_status st = { 0 };
	struct parse_error perr;
	unsigned int delay = 0;
	struct deadline dl;
	bool want_d;
	int r;

	e->st.checks++;
	want_d = m_vfork_parent_waits(&e->m);
	/*
	 * D is what the kernel promises, awaited up to the step's deadline.
	 * A model that says "running on" (only the perturbed one, the
	 * oracle's self-test) is held against the parent for 2 s: its way
	 * into D is then seen, not raced by a single read.
	 */
	if (want_d)
		step_deadline(e, &dl, 0);
	else
		deadline_start(&dl, 2);
	while ((r = status_read(T(e, creator)->tid, T(e, creator)->tid, &st, &perr)) == 0 &&
	       st.state != 'D' && !deadline_expired(&dl) && !ps_stop_signal)
		backoff_sleep(&delay);
	if (ps_stop_signal) {
		harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
		return -1;
	}
	if (r < 0 || (st.state == 'D') != want_d) {
		char got[32];

		snprintf(got, sizeof(got), r < 0 ? "no status" : "State %c", st.state);
		report(e, &(struct fdesc){ .check = "proc", .rule = R_VFORK, .ntasks = 2,
					   .tasks = { creator, tracer },
					   .expected = want_d ? "State D" : "not D", .observed = got },
		       "%s: vfork parent in %s while its child is stopped, the model says %s",
		       tname(e, creator), got, want_d ? "D" : "running on");
		return -1;
	}
	if (call(e, tracer, REQ(OP_CONT, child, 0, 0), &rep, NULL) < 0)
		return -1;
	if (!rep.ok) {
		harness_err(e, "%s could not resume the vfork child %d: %s", tname(e, tracer),
			    (int)child, rep.msg);
		return -1;
	}
	return (T(e, creator)->ptrace_opts & PTRACE_O_TRACEVFORKDONE) ?
	       vfork_done(e, creator, tracer) : 0;
}

/* PTRACE_O_TRACEVFORKDONE: @creator stops in PTRACE_EVENT_VFORK_DONE; @tracer resumes it. */
static int vfork_done(struct engine *e, int creator, int tracer)
{
	struct agent_reply rep;

	if (call(e, tracer, REQ(OP_PASS, pid_for(e, tracer, creator), 0, PASS_VFORK_DONE), &rep,
		 NULL) < 0)
		return -1;
	e->st.checks++;
	if (!rep.ok) {
		report(e, &(struct fdesc){ .check = "event", .rule = R_VFORK, .ntasks = 2,
					   .tasks = { creator, tracer },
					   .expected = "PTRACE_EVENT_VFORK_DONE", .observed = rep.msg },
		       "%s: no vfork-done stop of %s after its child's exec", tname(e, tracer),
		       tname(e, creator));
		return -1;
	}
	return 0;
}

/*
 * Let @creator handle @req ("fork F" or "thread"), following it with its
 * tracer if it is traced with @opt.  Reads the new task's hello.  Returns
 * the new task's fd and fills in *tid, *ns_tid and *tracer (M_NONE: not
 * auto-attached).
 */
static int create(struct engine *e, int creator, const struct agent_req *req, unsigned long opt,
		  pid_t *tid, pid_t *ns_tid, int *tracer)
{
	bool vf = req->op == OP_FORK && (req->arg & AGENT_FORK_VFORK);
	struct agent_reply rep, frep;
	struct deadline dl;
	int fd = -1, r;

	*tracer = follower(e, creator, opt);
	if (e->m.t[creator].stop != MS_RUNNING) {
		refuse(e, "%s is stopped: it cannot %s (cont it first)", tname(e, creator),
		       agent_op_name(req->op));
		return -1;
	}
	if (start_call(e, creator, req) < 0)
		return -1;
	if (*tracer != M_NONE && !e->e[*tracer].external) {
		/*
		 * kernel_clone(): FORK for SIGCHLD, CLONE for a thread or another
		 * exit signal, VFORK for CLONE_VFORK -- whose new task stays
		 * stopped while we look at the parent (follow_vfork()).
		 */
		if (call(e, *tracer, REQ(OP_FOLLOW, pid_for(e, *tracer, creator), 0,
					 vf ? PTRACE_EVENT_VFORK | FOLLOW_HOLD :
					 opt == PTRACE_O_TRACEFORK ? PTRACE_EVENT_FORK :
					 PTRACE_EVENT_CLONE), &frep, NULL) < 0)
			return -1;
		if (!frep.ok) {
			report(e, &(struct fdesc){ .check = "event", .rule = R_AUTO_ATTACH,
						   .ntasks = 2, .tasks = { creator, *tracer },
						   .observed = frep.msg },
			       "%s could not follow the %s of %s", tname(e, *tracer),
			       agent_op_name(req->op), tname(e, creator));
			return -1;
		}
		if (vf && follow_vfork(e, creator, *tracer, (pid_t)frep.msg_val) < 0)
			return -1;
	} else if (vf && e->m.t[creator].tracer != M_NONE &&
		   !e->e[e->m.t[creator].tracer].external &&
		   (e->m.t[creator].ptrace_opts & PTRACE_O_TRACEVFORKDONE)) {
		/* VFORKDONE without VFORK: no child to follow, the done stop only */
		if (vfork_done(e, creator, e->m.t[creator].tracer) < 0)
			return -1;
	}
	if (finish(e, creator, req, &rep, &fd) < 0)
		return -1;
	if (!rep.ok || fd < 0) {
		harness_err(e, "%s: '%s' failed: %s", tname(e, creator), agent_op_name(req->op),
			    rep.msg);
		return -1;
	}
	step_deadline(e, &dl, 0);
	r = agent_hello(fd, tid, ns_tid, &dl);
	if (r < 0) {
		harness_err(e, "no hello from the task %s created: %s", tname(e, creator),
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
static int adopt(struct engine *e, int i, int fd, const char *name, int creator, int tracer)
{
	if (i < 0 || !etask_grow(e)) {
		harness_err(e, "out of memory");
		close(fd);
		return -1;
	}
	e->e[i].fd = fd;
	e->e[i].dirty = true;
	if (tracer != M_NONE)
		m_auto_attach(&e->m, i, tracer, e->m.t[creator].ptrace_opts,
			      e->m.t[creator].seized);
	/* strace -f stops and resumes it on its own, as its other tracees (v_strace()) */
	if (tracer != M_NONE && e->e[tracer].external) {
		e->e[i].any_state = true;
		e->st.debugger_births++;
	}
	bind_name(e, name, i);
	return i;
}

/*
 * A task two or more namespaces below R's has pids in between that
 * neither R (its tid) nor its hello (its own) tell: /proc's NSpid has
 * them all, R's namespace first (/proc is R's).
 */
static int fill_nspid(struct engine *e, int i)
{
	pid_t v[M_NS_DEPTH + 8];
	int lv = m_ns_level(&e->m, T(e, i)->ns), n;

	if (lv < 2)
		return 0;
	n = status_nspid(T(e, i)->tid, v, (int)(sizeof(v) / sizeof(v[0])));
	/* /proc may be an ancestor namespace's: its extra levels come first */
	if (n < lv + 1 || m_set_nspid(&e->m, i, v + n - (lv + 1), lv + 1) < 0) {
		harness_err(e, "%s (tid %d): /proc's NSpid (%d levels) does not match its "
			    "%d pid namespace levels", tname(e, i), (int)T(e, i)->tid, n, lv);
		return -1;
	}
	return 0;
}

static int add_thread(struct engine *e, const char *name, int proc)
{
	int creator = m_alive_thread(&e->m, proc);
	int tracer, fd, i;
	pid_t tid, ns_tid;

	if (creator == M_NONE) {
		refuse(e, "%s has no live thread to create %s", tname(e, proc), name);
		return -1;
	}
	if (live_cap(e, name) < 0)
		return -1;
	fd = create(e, creator, REQ(OP_THREAD, 0, 0, 0), PTRACE_O_TRACECLONE, &tid, &ns_tid,
		    &tracer);
	if (fd < 0)
		return -1;
	i = adopt(e, m_thread(&e->m, creator, name, tid, ns_tid), fd, name, creator, tracer);
	if (i < 0 || fill_nspid(e, i) < 0)
		return -1;
	logf_(e, "  thread %s = tid %d in %s", name, (int)tid, tname(e, proc));
	return i;
}

/*
 * "setns X": @parent's thread setns()es its pid_ns_for_children to X's
 * namespace before the fork and back after it.  pidns_install()
 * (kernel/pid_namespace.c:412-419) allows only the caller's active
 * namespace or one nested in it; a namespace whose init is gone allocates
 * no pid any more (disable_pid_allocation(): fork fails with ENOMEM).
 * A nested namespace from there is no option: copy_pid_ns() refuses.
 * Returns the namespace, or -2 (refused).
 */
static int setns_target(struct engine *e, const char *name, int parent, int x, bool pidns)
{
	int lead = T(e, x)->leader, ns = T(e, lead)->ns;

	if (!m_ns_within(&e->m, ns, T(e, parent)->ns)) {
		refuse(e, "%s: setns into %s's pid namespace, not %s's nor nested in it, is "
		       "EINVAL (pidns_install())", name, tname(e, x), tname(e, parent));
		return -2;
	}
	if (!alive(e, lead) || (ns != M_NONE && m_alive_thread(&e->m, ns) == M_NONE)) {
		refuse(e, "%s: setns needs %s's leader alive (a pidfd of it) and its "
		       "namespace's init too", name, tname(e, x));
		return -2;
	}
	if (pidns) {
		refuse(e, "%s: setns with pidns: clone(CLONE_NEWPID) is EINVAL while "
		       "pid_ns_for_children is not the active namespace (copy_pid_ns(), "
		       "kernel/pid_namespace.c:147-148)", name);
		return -2;
	}
	return ns;
}

int spawn_process(struct engine *e, const char *name, int parent, bool subreaper, bool pidns,
		  int threads, int exitsig, unsigned int how, int setns)
{
	bool clone_parent = how & O_CLONE_PARENT, vfork = how & O_VFORK;
	int flags = (subreaper ? AGENT_FORK_SUBREAPER : 0) | (pidns ? AGENT_FORK_PIDNS : 0);
	unsigned long follow;
	int tracer = M_NONE, fd, i, k, into = M_NONE;
	pid_t tid, ns_tid, setns_pid = 0;
	char tn[SC_NAME_LEN + 8];

	if (live_cap(e, name) < 0)
		return -1;
	if (setns != M_NONE) {
		into = setns_target(e, name, parent, setns, pidns);
		if (into == -2)
			return -1;
		if (clone_parent || vfork) {
			refuse(e, "%s: setns with clone-parent or vfork is not supported", name);
			return -1;
		}
		flags |= AGENT_FORK_SETNS;
		/* the pidfd is the leader's: pidfd_open() takes a tgid */
		setns_pid = pid_for(e, parent, T(e, setns)->leader);
	} else if (pidns && m_ns_level(&e->m, T(e, parent)->ns) >= M_NS_DEPTH) {
		refuse(e, "%s: more than %d pid namespaces below R's", name, M_NS_DEPTH);
		return -1;
	}
	if (clone_parent) {
		int rp = parent ? e->m.t[e->m.t[parent].leader].real_parent : M_NONE;

		/*
		 * R's parent is the watchdog, outside the model; a namespace
		 * init gets EINVAL (copy_process(), kernel/fork.c:2153-2155).
		 */
		if (parent == 0 || rp < 0 || pidns) {
			refuse(e, "%s: clone-parent needs a parent other than R whose own real "
			       "parent is in the scenario, and no pidns", name);
			return -1;
		}
		if (e->m.t[e->m.t[parent].leader].ns == e->m.t[parent].leader) {
			refuse(e, "%s: clone-parent by a namespace init is EINVAL "
			       "(copy_process())", name);
			return -1;
		}
		flags |= AGENT_FORK_SIBLING;
	}
	if (exitsig != SIGCHLD) {
		/*
		 * R's children come from the spawner with CLONE_PARENT, which
		 * gives them the spawner's own exit signal (copy_process(),
		 * kernel/fork.c:2506).  Agents and R keep SIGRTMAX blocked:
		 * another signal would stop a traced parent in a
		 * signal-delivery-stop nobody expects, or kill R.
		 */
		if (parent == 0) {
			refuse(e, "%s: exit-signal needs a parent other than R", name);
			return -1;
		}
		if (exitsig != 0 && exitsig != SIGRTMAX) {
			refuse(e, "%s: exit-signal %s is not supported (SIGCHLD, SIGRTMAX or none: "
			       "agents keep SIGRTMAX blocked)", name, sig_name(exitsig));
			return -1;
		}
		flags |= AGENT_FORK_CSIGNAL | exitsig << 8;
	}
	follow = m_fork_trace_opt(&e->m, exitsig);
	if (vfork) {
		/* kernel_clone(): CLONE_VFORK is PTRACE_EVENT_VFORK, whatever the signal */
		follow = PTRACE_O_TRACEVFORK;
		if (parent == 0 || pidns || clone_parent || exitsig != SIGCHLD || subreaper) {
			refuse(e, "%s: vfork needs a parent other than R, and no pidns, "
			       "clone-parent, exit-signal or subreaper", name);
			return -1;
		}
		if (follower(e, parent, follow) != M_NONE &&
		    (!e->m.t[parent].seized ||
		     (e->m.t[parent].ptrace_opts & PTRACE_O_TRACEEXEC))) {
			refuse(e, "%s: vfork by a tracee needs a seized tracer without traceexec "
			       "(the auto-attached child's exec would stop it)", name);
			return -1;
		}
		flags |= AGENT_FORK_VFORK;
	}
	if (parent == 0) {
		struct agent_reply rep;
		struct agent_req *req = REQ(OP_FORK, setns_pid, 0, flags | AGENT_FORK_SIBLING);
		struct deadline dl;

		/* R's children come from the spawner (agent.h: AGENT_FORK_SIBLING). */
		if (e->spawner < 0 || agent_send(e->spawner, req) < 0) {
			harness_err(e, "no spawner to create %s: %s", name, ps_last_error());
			return -1;
		}
		step_deadline(e, &dl, REPLY_GRACE_SEC);
		fd = -1;
		if (agent_reply(e->spawner, &rep, &fd, &dl) < 0) {
			harness_err(e, "no reply of the spawner to create %s: %s", name,
				    ps_last_error());
			if (fd >= 0)
				close(fd);
			return -1;
		}
		if (!rep.ok || fd < 0) {
			harness_err(e, "the spawner could not create %s: %s", name, rep.msg);
			if (fd >= 0)
				close(fd);
			return -1;
		}
		step_deadline(e, &dl, 0);
		if (agent_hello(fd, &tid, &ns_tid, &dl) < 0) {
			harness_err(e, "no hello from %s (pid %d): %s", name, (int)rep.pid,
				    ps_last_error());
			close(fd);
			return -1;
		}
	} else {
		fd = create(e, parent, REQ(OP_FORK, setns_pid, 0, flags), follow, &tid, &ns_tid,
			    &tracer);
		if (fd < 0)
			return -1;
	}
	i = adopt(e, clone_parent ? m_clone_parent(&e->m, parent, name, tid, ns_tid, subreaper) :
		  m_fork(&e->m, parent, name, tid, ns_tid, subreaper, pidns), fd, name, parent,
		  tracer);
	if (i < 0)
		return -1;
	if (setns != M_NONE)
		m_fork_into(&e->m, i, into);
	if (fill_nspid(e, i) < 0)
		return -1;
	if (!clone_parent)
		m_set_exit_signal(&e->m, i, exitsig);
	/* The vfork child exec'd a fresh agent before the parent went on. */
	if (vfork)
		m_exec_done(&e->m, i);
	logf_(e, "  process %s = pid %d (ns pid %d), parent %s", name, (int)tid, (int)ns_tid,
	      tname(e, parent));
	for (k = 1; k <= threads && !e->stop; k++) {
		snprintf(tn, sizeof(tn), "%s.t%d", name, k);
		if (add_thread(e, tn, i) < 0)
			return -1;
	}
	return e->stop ? -1 : i;
}

static int parent_of(struct engine *e, const struct stmt *s)
{
	return s->parent[0] ? task_of(e, s->parent) : 0;
}

int v_process(struct engine *e, const struct stmt *s)
{
	int p = parent_of(e, s), x = M_NONE;

	if (p < 0 || (s->setns[0] && (x = task_of(e, s->setns)) < 0))
		return -1;
	return spawn_process(e, s->name[0], p, s->opts & O_SUBREAPER, s->opts & O_PIDNS,
			     s->threads, s->exitsig < 0 ? 0 : s->exitsig ? s->exitsig : SIGCHLD,
			     s->opts & (O_CLONE_PARENT | O_VFORK), x) < 0 ? -1 : 0;
}

int v_thread(struct engine *e, const struct stmt *s)
{
	int p = task_of(e, s->name[1]);

	return p < 0 ? -1 : (add_thread(e, s->name[0], p) < 0 ? -1 : 0);
}

/* Breadth first: NAME, NAME.1 .. NAME.F, NAME.1.1 ... (names as the parser defines them). */
static int tree_level(struct engine *e, const char *name, int node, int depth,
		      const struct stmt *s)
{
	char cn[SC_NAME_LEN];
	int kids[64], k;

	if (depth == 0)
		return 0;
	for (k = 0; k < s->fanout; k++) {
		snprintf(cn, sizeof(cn), "%s.%d", name, k + 1);
		kids[k] = spawn_process(e, cn, node, false, false, s->threads, SIGCHLD, 0, M_NONE);
		if (kids[k] < 0)
			return -1;
	}
	for (k = 0; k < s->fanout; k++) {
		snprintf(cn, sizeof(cn), "%s.%d", name, k + 1);
		if (tree_level(e, cn, kids[k], depth - 1, s) < 0)
			return -1;
	}
	return 0;
}

int v_tree(struct engine *e, const struct stmt *s)
{
	int p = parent_of(e, s), root;

	if (p < 0)
		return -1;
	root = spawn_process(e, s->name[0], p, false, false, s->threads, SIGCHLD, 0,
			     M_NONE);
	if (root < 0)
		return -1;
	return tree_level(e, s->name[0], root, s->depth, s);
}
