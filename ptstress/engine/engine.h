/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine: runs a parsed scenario against the kernel.  R (ptstress)
 * drives agents (agent.h), keeps the model (model.h) in step with every
 * verb, and at quiescent points compares the model with /proc, the
 * ptrace_links files, the kernel checker and the wait reports received.
 *
 *   engine.c        the run: statements, names, TAP, report directory
 *   engine-pop.c    populations: process, tree, thread, tracer
 *   engine-verbs.c  ptrace and task verbs
 *   engine-check.c  quiescence and the comparisons
 *   engine-ext.c    real strace and gdb sessions
 *   engine-stress.c the seeded stress generator
 */
#ifndef PTSTRESS_ENGINE_H
#define PTSTRESS_ENGINE_H

#include <stdio.h>

#include "agent/agent.h"
#include "model/model.h"
#include "lang/scenario.h"

/* R's side of one model task (same index as in struct model). */
struct etask {
	int fd;			/* R's end of the agent's socket; -1: R, external or gone */
	bool external;		/* a strace/gdb process, not an agent */
	bool uncertain;		/* a debugger session may trace it now: skip TracerPid */
	bool dirty;		/* touched since the last check */
	bool gone_ok;		/* seen released: never look at its (reusable) pid again */
	bool deliver_sig;	/* its ptrace-stop delivers a resume signal (not EVENT_STOP) */
	int session;		/* for external tasks: index in eng.sessions; -1 */
};

/* A real strace or gdb run. */
struct session {
	char name[SC_NAME_LEN];	/* the scenario's name for it */
	bool is_gdb;		/* gdb, else strace */
	bool gdb_quit;		/* gdb: killed while attached, not detached */
	int task;		/* model index of the debugger process */
	pid_t pid;		/* its pid (R's child) */
	int proc;		/* gdb: the process it attaches to */
	int targets[64];	/* strace: the processes it follows */
	int ntargets;
	char out[400];		/* its output file, in the report directory */
	bool done;		/* stopped/waited */
	struct {
		pid_t tid;	/* a process strace followed to its end */
		int code, sig;	/* how it ended, as strace must print it */
	} seen[64];
	int nseen;		/* entries of seen[] */
};

/* One step outcome counter set. */
struct estats {
	long steps;		/* statements executed */
	long checks;		/* comparisons made */
	long reports;		/* exit reports received and matched */
	int findings;		/* not ok lines */
};

struct engine {
	struct model m;		/* what the kernel must show */
	struct etask *e;	/* parallel to m.t; e_cap entries */
	int e_cap;
	struct session sessions[16];
	int nsessions;
	bool have_links;	/* ptrace_links files exist */
	bool have_kcheck;	/* <debugfs>/ptrace_links/ exists */
	bool harness;		/* our own failure: exit 3 */
	bool stop;		/* a finding or harness error ends the scenario */
	int step_timeout;	/* deadline of each promised event, seconds */
	int scen_timeout;	/* the whole scenario, seconds */
	struct timespec started;	/* the scenario's start */
	const struct stmt *cur;	/* the statement running, for messages */
	const char *file;	/* scenario file */
	char dir[256];		/* report directory */
	FILE *log;		/* step log in the report directory */
	struct estats st;	/* counters of this scenario */
};

extern struct engine eng;

/* ---- engine.c ---- */
/* A finding: "not ok" naming the statement; ends the scenario. */
void finding(const char *fmt, ...) PS_PRINTF(1, 2);
/* A harness error: Bail out; ends the scenario with exit 3. */
void harness_err(const char *fmt, ...) PS_PRINTF(1, 2);
/* A scenario the engine cannot run (e.g. exit of a stopped task): exit 3. */
void bad_scenario(const char *fmt, ...) PS_PRINTF(1, 2);
void logf_(const char *fmt, ...) PS_PRINTF(1, 2);
/* Model index of a scenario name ("R" is 0); -1 with a harness error if unknown. */
int task_of(const char *name);
/* Bind @name to model index @i (the newest binding wins). */
void bind_name(const char *name, int i);
/* Make sure e[] covers the model; false on ENOMEM. */
bool etask_grow(void);
const char *tname(int i);
/* Does the statement's "fails" clause accept @err (0: success expected)? */
bool outcome_ok(const struct stmt *s, int err);

/* A request to an agent: REQ(OP_SEIZE, pid, sig, arg). */
#define REQ(op_, pid_, sig_, arg_) \
	(&(struct agent_req){ .op = (op_), .pid = (pid_), .sig = (sig_), .arg = (arg_) })
/* One request to agent @i and its reply; 0 or -errno (harness error set). */
int call(int i, const struct agent_req *req, struct agent_reply *rep, int *newfd);
/* Send only; the reply is read by finish(). */
int start_call(int i, const struct agent_req *req);
int finish(int i, const struct agent_req *req, struct agent_reply *rep, int *newfd);

/* ---- engine-pop.c ---- */
int pop_process(const struct stmt *s);
int pop_tree(const struct stmt *s);
int pop_thread(const struct stmt *s);
/* Create a process named @name, child of thread @parent; its index or -1. */
int spawn_process(const char *name, int parent, bool subreaper, bool pidns, int threads);
/* The pid by which agent @waiter must name task @t (pid namespaces). */
pid_t pid_for(int waiter, int t);

/* ---- engine-verbs.c ---- */
int run_verb(const struct stmt *s);
/*
 * Collect every exit report that is due (@all), or only those owed to
 * strace/gdb, which collect them by themselves.
 */
int collect_reports(bool all);
/* R waits for @c's exit report itself (R is the parent or the subreaper). */
int r_collects(int c, struct agent_reply *rep);
/* Check one agent's wait reply for task @c's exit report; 0 or -1 (finding). */
int collect_reply(int w, int c, const struct agent_reply *rep, bool as_tracer);

/* ---- engine-check.c ---- */
/* Wait for quiescence of the dirty tasks (or all), then compare. 0 or -1. */
int check_tasks(bool all, const char *why);
int check_expect(const struct stmt *s);
/* Kernel checker: full walk and violation counter. */
int check_kernel(const char *why);
/* Snapshot /proc of @i into the report directory. */
void snapshot_task(int i);

/* ---- engine-ext.c ---- */
int ext_strace(const struct stmt *s);
int ext_gdb(const struct stmt *s);
int ext_stop(const struct stmt *s);
int ext_wait(const struct stmt *s);
/* strace collected @task's exit: its output must say so. */
void ext_saw_exit(int tracer, int task);
/* End every session still running (teardown). */
void ext_teardown(void);

/* ---- engine-stress.c ---- */
int run_stress(const struct stmt *s);

/* `ptstress run FILE...` */
int cmd_run(int argc, char **argv);

#endif /* PTSTRESS_ENGINE_H */
