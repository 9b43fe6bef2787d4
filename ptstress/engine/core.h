/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's context and its lowest layer (core.c): names, the step
 * log, findings, calls to agents.  One struct engine per scenario, passed
 * explicitly to every function of the engine: a scenario's settings
 * (step-timeout, timeout) live in it and die with it.
 *
 * The engine's files, each depending only on the ones above it
 * (tests/unit/layers checks it on the objects):
 *
 *   core.c      context, names, step log, findings, agent calls
 *   observe.c   quiescence, /proc and ptrace_links comparisons, the
 *               kernel checker, expect
 *   reports.c   exit reports, SIGCHLD, waitable reports
 *   pop.c       populations: process, tree, thread, tracer
 *   ext.c       real strace and gdb sessions
 *   verbs.c     the tracer verbs; tasks.c the task and control verbs
 *   gen.c       generators: arguments valid by the model, for stress and fuzz;
 *               gen-waits.c those of the waits, gen-sessions.c strace and gdb
 *   table.c     the verb table's engine side: handler and generator per verb
 *   stress.c    the seeded stress generator
 *   run.c       `ptstress run`: files, steps, report directory, JSON, teardown
 */
#ifndef PTSTRESS_ENGINE_CORE_H
#define PTSTRESS_ENGINE_CORE_H

#include <limits.h>
#include <stdio.h>
#include <time.h>

#include "agent/agent.h"
#include "lang/scenario.h"
#include "lib/links.h"
#include "lib/ptstress.h"
#include "model/model.h"

#define MAX_SESSIONS	16
#define DEBUGGER_SEC	120	/* a session step's deadline: gdb under TCG takes its time */

/* R's side of one model task (same index as in struct model). */
struct etask {
	int fd;			/* R's end of the agent's socket; -1: R, external or gone */
	bool external;		/* a strace/gdb process, not an agent */
	bool uncertain;		/* a debugger session may trace it now: skip TracerPid */
	bool any_state;		/* a debugger stopped and resumed it on its own: any live
				 * State is accepted (strace, gdb) */
	bool dirty;		/* touched since the last check */
	bool gone_ok;		/* seen released: never look at its (reusable) pid again */
	struct proc_fd status;	/* its /proc status kept open for the checks (fd -1: not) */
	struct proc_fd links;	/* ... and its ptrace_links */
	bool exit_seen;		/* seen a zombie or released: its exit_notify() is over,
				 * its children reparented (observe.c, PPID_FINAL_READS) */
	int session;		/* for external tasks: index in sessions[]; -1 */
	int pidfd;		/* R's pidfd_open() of its pid (the pidfd verb); -1 */
	pid_t pidfd_pid;	/* the pid that pidfd was opened for (R's namespace) */
	unsigned long empty_gen;	/* the check_tasks() run (engine.tasks_gen) whose
					 * ptrace_links read of it agreed with the model and
					 * showed no children and nothing ptraced; 0: none */
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
	int ntargets;		/* entries of targets[] */
	char out[PATH_MAX];	/* its output file, in the report directory */
	bool done;		/* stopped/waited */
	struct {
		pid_t tid;	/* a process strace followed to its end */
		int code, sig;	/* how it ended, as strace must print it */
	} seen[64];
	int nseen;		/* entries of seen[] */
};

/* Kinds of task state, counted after every step (stress and fuzz print them). */
enum {
	ST_N_RUNNING,		/* untraced, running */
	ST_N_TRACED_RUNNING,	/* traced, running */
	ST_N_TRACED_STOP,	/* in a ptrace stop */
	ST_N_GROUP_STOP,	/* group-stopped, untraced */
	ST_N_LISTENING,		/* PTRACE_LISTEN */
	ST_N_ZOMBIE,		/* zombie */
	ST_N
};

/* The parts of a check step, timed apart (v_check(), the JSON's "check_s"). */
enum { CHECK_PART_TASKS, CHECK_PART_SIGCHLD, CHECK_PART_PENDING, CHECK_PART_KERNEL, CHECK_PART_N };

/* Counters of one scenario. */
struct estats {
	long steps;		/* statements executed */
	long checks;		/* comparisons made */
	long reports;		/* exit reports received and matched */
	long sigchld;		/* SIGCHLD records checked */
	int findings;		/* not ok lines */
	long verb_steps[V_NR_VERBS];	/* steps of each verb */
	/*
	 * Where the steps' wall time goes (the JSON's "profile"): each
	 * verb's own execution, and what follows every step (the tracers'
	 * stops settled, the debuggers' reports collected, the checks).
	 */
	long long verb_ns[V_NR_VERBS];	/* in run_verb() for this verb */
	long long after_ns;		/* settle, collect and check after steps */
	long long check_ns[CHECK_PART_N];	/* a check step's parts: CHECK_PART_* */
	long states[ST_N];	/* task states seen after steps */
	long exec_stops;	/* exec stops our tracers took (v_exec()) */
	long group_execs;	/* execs whose de_thread() killed a traced thread */
	long debugger_execs;	/* execs by a thread a real debugger traced */
	long debugger_births;	/* tasks born traced by a real debugger (strace -f) */
	long leader_exits;	/* leaders that exited alone, live threads behind them */
	long exited_tkills;	/* tgkill()s of a zombie thread (tkill-exited-thread) */
	long signal_conts;	/* conts whose signal took effect: delivered or sent */
	long signal_restops;	/* ... sent from a syscall-stop, stopped for again
				 * (syscall-stop-signal-restops) */
	long open_fds;		/* R's open files when the steps ended (task_files_close()) */
	long live_end;		/* ... and the tasks not released then */
	long live_max;		/* the most tasks not released before a step
				 * (fuzz reaps at its cap, one_round()) */
	long probes;		/* pending-report probes sent (check_pending()) */
	long probes_skipped;	/* probes left out: ptrace_links showed the group's
				 * wait lists empty (prober_of()) */
};

/* The command line's settings for a run (cmd/ fills them in). */
struct run_opts {
	int timeout_sec;	/* --timeout: default step timeout */
	enum kernel_mode kernel;	/* --kernel=auto|require */
	int wrong_rule;		/* --wrong-model=RULE: the model rule perturbed; -1 none */
	const char *report_base;	/* --report-dir */
	bool keep_reports;	/* --keep-reports: keep passing scenarios' directories too */
	int pause_ms;		/* --pause MS: sleep after every step (to look at the tasks) */
	bool first_finding;	/* --first-finding: no scenario after the first finding */
	bool gdb_on_failure;	/* --gdb-on-failure: a finding freezes the guest for gdb */
	/* ptstress fuzz: its stress statement runs until a limit or a finding */
	bool fuzz;		/* the population grows and shrinks; progress lines */
	int fuzz_duration;	/* --duration SEC: stop drawing after it; 0 none */
	/* --record / --against: differential mode's observations (diff.h); NULL none */
	const char *record_path, *against_path;
	struct obs_stream *obs;	/* their stream, opened by cmd_run() */
	int wrong_reply;	/* --wrong-reply=OP: differential mode's self-test, a
				 * kernel that differs where the model has no rule:
				 * with --against, each reply to agent op OP reads
				 * as failed with EIO; -1 none */
};

struct name_table;
struct obs_stream;

/* What a step may change of a task, for finding the tasks it touched. */
struct tsnap {
	unsigned char life, stop, listening, zapper;	/* enum m_life, enum m_stop, flags */
	int tracer, real_parent, leader;	/* model indexes */
	pid_t tid;		/* changes when an exec takes over the leader's pid */
};

struct engine {
	struct model m;		/* what the kernel must show */
	struct etask *e;	/* parallel to m.t; e_cap entries */
	int e_cap;
	struct session sessions[MAX_SESSIONS];	/* strace/gdb runs */
	int nsessions;
	struct name_table *names;	/* scenario names -> model index */
	int spawner;		/* R's end of the spawner's socket (agent.h); -1 */
	pid_t spawner_pid;	/* the spawner, R's child outside the model */
	const struct run_opts *opts;	/* the command line */
	/* this scenario's settings */
	int step_timeout;	/* deadline of each promised event, seconds (step-timeout) */
	int scen_timeout;	/* the whole scenario, seconds (timeout) */
	int cur_timeout;	/* the running step's deadline: its "within", else step_timeout */
	bool have_links;	/* ptrace_links files exist */
	bool have_kcheck;	/* <debugfs>/ptrace_links/ exists */
	int kmsg;		/* /dev/kmsg from the scenario's start: the link checker's
				 * records name a finding's tasks; -1 */
	int taint_fd;		/* /proc/sys/kernel/tainted, read after each step where
				 * the checker is (the guest); -1 */
	unsigned long taint0;	/* its flags at the scenario's start */
	bool after_61;		/* the running kernel is not 6.1: a SIGCHLD may carry what
				 * a later kernel sends (m_notice.alt_code) */
	unsigned long tasks_gen;	/* check_tasks() runs so far (etask.empty_gen) */
	/*
	 * The tasks check_tasks() may still look at, ascending: it drops a
	 * task once nothing is left to check or close (external, or its
	 * release seen and its files closed), and takes the tasks the model
	 * made since its last run (chk_seen: m.n then).
	 */
	int *chk;
	int nchk, chk_cap, chk_seen;
	/* how it is going */
	bool harness;		/* our own failure: exit 3 */
	bool diff_quiet;	/* a race-attach runs: its replies name the winner, the
				 * scheduler's choice, and are not compared (diff.c) */
	bool stop;		/* a finding or harness error ends the scenario */
	struct timespec started;	/* the scenario's start */
	int conts0;		/* ps_continued at the start: R stopped since if not */
	const struct stmt *cur;	/* the statement running, for messages */
	const char *file;	/* scenario file */
	char dir[PATH_MAX];	/* report directory */
	FILE *log;		/* step log in the report directory */
	FILE *findings;		/* findings.jsonl in the report directory */
	FILE *json;		/* --json stream, or NULL */
	struct estats st;	/* counters of this scenario */
	/* the model before the running step, to find what it touched */
	struct tsnap *before;
	int before_n, before_cap;
	/* runs one statement as a checked step (run.c): stress uses it */
	int (*step)(struct engine *e, const struct stmt *s);
	/*
	 * Looks at the kernel's side of harness error @msg first (run.c sets
	 * taint_explains(), kreport.c): 1 when it reported the kernel's
	 * report as the finding instead; NULL while it runs.
	 */
	int (*kernel_first)(struct engine *e, const char *msg);
};

/* ---- names ---- */
struct name_table *names_new(void);
void names_free(struct name_table *nt);
/* Bind @name to model index @i (the newest binding wins). */
void bind_name(struct engine *e, const char *name, int i);
/* Model index of a scenario name ("R" is 0); -1 with a harness error if unknown. */
int task_of(struct engine *e, const char *name);
/* "name (tid N)" for messages; one of 4 rotating buffers. */
const char *tname(struct engine *e, int i);
/* Make sure e->e covers the model; false on ENOMEM. */
bool etask_grow(struct engine *e);
/* The pid by which agent @waiter must name task @t (pid namespaces). */
pid_t pid_for(struct engine *e, int waiter, int t);
/* Is the model task @i alive and not exiting? */
bool alive(struct engine *e, int i);
/* Debugger sessions still running (started, not stopped or waited). */
int live_sessions(const struct engine *e);
/*
 * The thread that makes a call for @x: @x itself if it is a thread, else
 * the model's live thread of the process; it must be running and have a
 * channel.  Else the step is refused ("X has no running thread to @what").
 */
int calling_thread(struct engine *e, int x, const char *what);
static inline struct mtask *T(struct engine *e, int i)
{
	return &e->m.t[i];
}

/* ---- the step log ---- */
void logf_(struct engine *e, const char *fmt, ...) PS_PRINTF(2, 3);

/* ---- findings ---- */
enum fkind {
	FK_FINDING,		/* the kernel disagrees with the model or the scenario: exit 1 */
	FK_HARNESS,		/* our own failure: exit 3 */
	FK_REFUSED,		/* a step the engine cannot run deterministically: exit 3 */
};

/*
 * One finding, as tests, fuzz signatures and the report directory read it:
 * which check failed on which rule (or the scenario's own expectation),
 * the statement, the tasks involved, expected and observed.
 */
struct fdesc {
	enum fkind kind;
	const char *check;	/* "proc", "links", "outcome", "fails", "report",
				 * "sigchld", "expect", "kernel", "taint", "event",
				 * "teardown";
				 * NULL: "other" */
	int rule;		/* enum m_rule behind the expectation; R_NONE */
	int tasks[4];		/* model indexes of the tasks involved */
	int ntasks;
	const char *expected;	/* what the model (or the scenario) expected; NULL */
	const char *observed;	/* what the kernel showed; NULL */
	const char *krule;	/* check "kernel": the link checker's rule, "taint": the
				 * flags' letters; in the JSON's "rule" and so in the
				 * signature; NULL */
};

/* Report a finding: TAP "not ok" + diagnostics, JSON, step log; ends the scenario. */
void report(struct engine *e, const struct fdesc *d, const char *fmt, ...) PS_PRINTF(3, 4);
/* --gdb-on-failure: kernel-view.txt of @d's tasks (engine/kview.c). */
void kernel_view(struct engine *e, const struct fdesc *d);
/* The three kinds without details. */
void finding(struct engine *e, const char *fmt, ...) PS_PRINTF(2, 3);
void harness_err(struct engine *e, const char *fmt, ...) PS_PRINTF(2, 3);
void refuse(struct engine *e, const char *fmt, ...) PS_PRINTF(2, 3);

/* ---- agents ---- */
/* A request to an agent: REQ(OP_SEIZE, pid, sig, arg). */
#define REQ(op_, pid_, sig_, arg_) \
	(&(struct agent_req){ .op = (op_), .pid = (pid_), .sig = (sig_), .arg = (arg_) })
/* One request to agent @i and its reply; 0 or -errno (harness error set). */
int call(struct engine *e, int i, const struct agent_req *req, struct agent_reply *rep,
	 int *newfd);
/* Send only; the reply is read by finish(). */
int start_call(struct engine *e, int i, const struct agent_req *req);
int finish(struct engine *e, int i, const struct agent_req *req, struct agent_reply *rep,
	   int *newfd);
/* A deadline of the running step's timeout (plus @extra seconds). */
void step_deadline(struct engine *e, struct deadline *dl, int extra);

#endif /* PTSTRESS_ENGINE_CORE_H */
