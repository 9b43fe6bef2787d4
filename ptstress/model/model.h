/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model: what the kernel must show for every task a run created.
 *
 * Pure logic, no system calls: the engine tells it what happened (a fork,
 * a seize, an exit, an exit report received) and asks it what /proc and
 * wait() must say.  The rules are 6.1's, each cited where it is coded:
 * forget_original_parent()/find_new_reaper() for real parents,
 * exit_ptrace()/__ptrace_detach() for tracer exit, exit_notify() and
 * wait_task_zombie() for who receives which exit report.
 *
 * Tasks are threads.  A process is its leader task; every task records its
 * leader.  The real parent is a *thread* (->real_parent), but /proc's PPid
 * shows its thread group, so that is what the model predicts.
 */
#ifndef PTSTRESS_MODEL_H
#define PTSTRESS_MODEL_H

#include <stdbool.h>
#include <sys/types.h>

#define M_NONE	(-1)	/* no task (no tracer, no parent) */

/* Where a task is in its life, as /proc and wait() show it. */
enum m_life {
	ML_ALIVE,	/* running or stopped */
	ML_ZOMBIE,	/* exited, not released: /proc shows Z (a leader), wait() may report it */
	ML_DEAD,	/* released: no /proc entry, nothing more to report */
};

/* Stop state of a live task. */
enum m_stop {
	MS_RUNNING,	/* not stopped (R/S/D in /proc) */
	MS_TRACED,	/* in a ptrace-stop its tracer waited for (t) */
	MS_GROUP,	/* group-stopped, untraced (T) */
};

/* One task (thread) of the run. */
struct mtask {
	char name[48];		/* scenario name; "" for tasks the scenario did not name */
	pid_t tid;		/* global tid (R's pid namespace) */
	pid_t ns_tid;		/* tid in its own pid namespace (== tid outside one) */
	int leader;		/* index of its thread group leader (itself for a leader) */
	int real_parent;	/* leaders: index of the ->real_parent thread; M_NONE for R */
	int tracer;		/* index of the tracer thread; M_NONE if untraced */
	unsigned long ptrace_opts; /* PTRACE_O_* of the seize/attach (inherited by auto-attach) */
	bool seized;		/* PTRACE_SEIZE rather than PTRACE_ATTACH/TRACEME */
	enum m_life life;	/* see enum m_life */
	enum m_stop stop;	/* see enum m_stop; MS_RUNNING unless ML_ALIVE */
	bool stop_known;	/* the model is sure of @stop (else /proc State is not checked) */
	bool subreaper;		/* leaders: PR_SET_CHILD_SUBREAPER is on */
	int ns;			/* index of its pid namespace's init; M_NONE: R's namespace */
	bool exited;		/* has run do_exit() (a zombie leader waiting for threads too) */
	int exit_code;		/* exited(code) ... */
	int exit_sig;		/* ... or killed(sig) if non-zero */
	int owed_tracer;	/* exit reports its tracer must still receive (0 or 1) */
	int owed_parent;	/* exit reports its real parent's group must still receive */
	int reports;		/* exit reports received so far, by anyone */
	bool zap_reaped;	/* in a dying pid namespace: its init reaps it, no one else */
	int ns_reaper;		/* ns init leaders: the thread that is pid_ns->child_reaper */
	bool zapper;		/* the init thread that runs zap_pid_ns_processes() */
	bool listening;		/* PTRACE_LISTEN: ptrace_freeze_traced() refuses requests */
};

/* The whole model. */
struct model {
	struct mtask *t;	/* the tasks; index 0 is R */
	int n;			/* tasks in use */
	int cap;		/* allocated */
};

void model_init(struct model *m, pid_t self);
void model_free(struct model *m);

/* ---- what happened ---- */

/* A process forked by thread @parent (a new leader); returns its index or -1 (ENOMEM). */
int m_fork(struct model *m, int parent, const char *name, pid_t tid, pid_t ns_tid,
	   bool subreaper, bool new_ns);
/* A thread created by thread @creator: joins @creator's group. */
int m_thread(struct model *m, int creator, const char *name, pid_t tid, pid_t ns_tid);
/* A task auto-attached by @tracer (PTRACE_O_TRACEFORK/CLONE/VFORK of its parent). */
void m_auto_attach(struct model *m, int child, int tracer, unsigned long opts, bool seized);
/* PTRACE_SEIZE/ATTACH/TRACEME: @tracer traces @task. */
void m_trace(struct model *m, int tracer, int task, unsigned long opts, bool seized);
/* PTRACE_DETACH, or a tracer's exit let @task go (__ptrace_unlink()). */
void m_untrace(struct model *m, int task);
void m_set_stop(struct model *m, int task, enum m_stop stop);
void m_set_subreaper(struct model *m, int proc, bool on);
/*
 * Thread @task ran do_exit() on its own (SYS_exit of one thread): its
 * tracees are let go (and killed with EXITKILL, which the model follows
 * through), its children move to their new reaper, its exit report
 * becomes owed.  Exited with @code, or killed by @sig if non-zero.
 */
void m_thread_exit(struct model *m, int task, int code, int sig);
/* Every thread of @proc's group exits (exit_group(), a fatal signal). */
void m_group_exit(struct model *m, int proc, int code, int sig);
/*
 * Thread @task execve()s: de_thread() ends the other threads (their tracers
 * see exited(0)), the old leader is released without a report and @task
 * takes over its pid.  @task is the leader afterwards.
 */
void m_exec(struct model *m, int task);
/*
 * @waiter's wait() reported @task's exit.  Returns 0 if that report was
 * owed to @waiter (as tracer or as real parent), -1 if it was not (a
 * duplicate or a report to the wrong task: a finding).
 */
int m_report(struct model *m, int waiter, int task);

/* ---- what the kernel must show ---- */

/* Index of the task whose tgid /proc PPid must show, M_NONE for R's. */
int m_ppid_task(const struct model *m, int task);
/* Expected PPid and TracerPid values (global pids). */
pid_t m_ppid(const struct model *m, int task);
pid_t m_tracer_pid(const struct model *m, int task);
/* Is @task's exit report owed to @waiter now (not blocked behind a tracer)? */
bool m_owed_to(const struct model *m, int waiter, int task);
/* Index of the thread that must collect @task's next report; M_NONE if none is due. */
int m_next_collector(const struct model *m, int task, bool *as_tracer);
/* @task is a dead namespace init still waiting for its namespace to drain. */
bool m_zapping(const struct model *m, int task);
/* Does @task's group still have a live thread? */
bool m_group_alive(const struct model *m, int leader);
/* A thread of @proc's group that is alive; M_NONE if none. */
int m_alive_thread(const struct model *m, int proc);
int m_find_name(const struct model *m, const char *name);
int m_find_tid(const struct model *m, pid_t tid);
const char *m_name(const struct model *m, int task);

#endif /* PTSTRESS_MODEL_H */
