/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generators (gen.c): for a verb drawn by the stress generator (or fuzz
 * mode), pick arguments the model says are valid now, and write them into
 * a statement.  Generation depends only on the seed and on the model,
 * never on timing, so the same seed gives the same steps.
 */
#ifndef PTSTRESS_ENGINE_GEN_H
#define PTSTRESS_ENGINE_GEN_H

#include "engine/verbs.h"

/* The next link of a job-control chain (gen-jobs.c); JOB_NONE: none. */
enum job_link { JOB_NONE, JOB_FORK, JOB_SETPGID, JOB_STOP, JOB_ORPHAN };

/* The state of one generated run. */
struct gen {
	unsigned long long rng;	/* xorshift64* state */
	int nproc;		/* process names handed out: p0, p1, ... */
	int ntracer;		/* tracer names handed out: tr0, tr1, ... */
	int nthread;		/* new-thread names handed out: pN.w0, pM.w1, ... */
	int threads;		/* extra threads of every new process */
	bool fuzz;		/* ptstress fuzz: populations grow and shrink */
	int max_live;		/* ... up to this many live tasks */
	int max_tracers;	/* ... and this many tracers */
	bool sessions;		/* fuzz with strace and gdb in PATH: debugger sessions */
	int nsession;		/* session names handed out: s0, g1, ... */
	char targets[2][SC_NAME_LEN];	/* a generated strace statement's targets */
	enum job_link job_next;	/* the job-control chain's next link */
	char job[2][SC_NAME_LEN];	/* ... its session leader and its child */
};

/* More than a process's threads can be: fuzz's --threads is 0..64. */
#define GEN_THREADS	65

/* Fill @st (its verb set) with valid arguments; false if none exist now. */
typedef bool gen_fn(struct engine *e, struct gen *g, struct stmt *st);

gen_fn g_seize, g_interrupt, g_listen, g_cont, g_detach, g_kill, g_exit, g_subreaper, g_reap,
	g_quit, g_waitid, g_pidfd, g_sigchld, g_pdeathsig, g_exec, g_strace, g_stop, g_gdb,
	g_setsid, g_setpgid, g_thread, g_ptrace_kill, g_tkill, g_traceme, g_step,
	g_race_attach, g_tree;

/* Helpers the generators' files share (gen.c). */
typedef bool gen_pred(struct engine *e, int i);
/* A random model task satisfying @ok, or -1 after a bounded search. */
int gen_pick(struct engine *e, struct gen *g, gen_pred *ok);
/* A random thread of group @lead, not @skip, satisfying @ok; -1 if none. */
int gen_thread_of(struct engine *e, struct gen *g, int lead, int skip, gen_pred *ok);
/* Fill @st with signal @sig to a task satisfying @ok; false if none. */
bool gen_signal_to(struct engine *e, struct gen *g, struct stmt *st, gen_pred *ok, int sig);
/* Set @st's first @n positional names to @a (and @b). */
void gen_names(struct stmt *st, int n, const char *a, const char *b);
/* A live agent task (not R, not a debugger): R can send it requests. */
bool gen_usable(struct engine *e, int i);
/* @tr is a running strace session's task (gen-sessions.c). */
bool gen_strace_live(struct engine *e, int tr);
/* A process a real debugger may take now (gen-sessions.c). */
bool gen_debuggable(struct engine *e, int i);
/* No tracer follows @p's clone with @opt, or one that takes the new task's stop now. */
bool gen_can_follow(struct engine *e, int p, unsigned long opt);
/* A running member process (not a tracer process) R can send requests. */
bool gen_is_proc(struct engine *e, int i);
/* A running member thread (not a tracer process's) R can send requests. */
bool gen_is_member(struct engine *e, int i);
/* Task @i's group ignores SIGCHLD (gen-sigchld.c). */
bool gen_ignores_sigchld(struct engine *e, int i);
/* A live thread of @i's group was left single-stepping (a PTRACE_SINGLESTEP trap). */
bool gen_stepping(struct engine *e, int i);
/* A task inside init @k's namespace is left single-stepping by @tr's group (gen-steps.c). */
bool gen_ns_steps_under(struct engine *e, int k, int tr);
/* "TRACER TASK" of tracee @b into @st; false for b < 0. */
bool gen_tracer_task(struct engine *e, struct stmt *st, int b);
/* A tracee of one of our tracers in a ptrace stop. */
bool gen_traced_stopped(struct engine *e, int i);
/* "cont TRACER @b", in fuzz maybe with a signal where it counts (gen-steps.c); false for b < 0. */
bool gen_cont(struct engine *e, struct gen *g, struct stmt *st, int b);
/* A thread of @i's group other than its leader traces someone (gen-sigchld.c). */
bool gen_nonleader_traces(struct engine *e, int i);
/* A member process whose threads all run untraced, not a namespace init. */
bool gen_untraced_group(struct engine *e, int i);
/* Task @i's process is outside R's process group (gen-jobs.c). */
bool gen_in_job(struct engine *e, int i);
/* Task @p's process may fork: R's group, or a session leader's own group. */
bool gen_job_forker(struct engine *e, int p);
/* Fill @st with the job-control chain's next link; false: the chain ended. */
bool gen_job_next(struct engine *e, struct gen *g, struct stmt *st);

/* A number in [0, n). */
unsigned int gen_rnd(struct gen *g, unsigned int n);
void gen_seed(struct gen *g, unsigned long seed);
/* New population statements: "process pN [parent pM] threads T [subreaper]", "tracer trN". */
void gen_process(struct engine *e, struct gen *g, struct stmt *st);
void gen_tracer(struct gen *g, struct stmt *st);

#endif
