/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model: what the kernel must show for every task a run created.
 *
 * Pure logic, no system calls: the engine tells it what happened (a fork,
 * a seize, an exit, an exit report received) and asks it what /proc,
 * ptrace_links, wait() and SIGCHLD must say and which errno a request must
 * get.  Every rule is a row of the registry (rules.def) citing the 6.1.192
 * function and line it comes from; every prediction remembers the rule
 * behind it, so a finding names it, and --wrong-model=RULE perturbs one.
 *
 *   model.c    tasks, tracers, reapers, exit reports
 *   exit.c     exits: exit_notify(), group exits, exit stops, pid
 *              namespaces, exec
 *   signal.c   kill() and tgkill(), SIGCONT's traps, group stops
 *   predict.c  what /proc and ptrace_links must show; request outcomes
 *   rules.c    the registry, the perturbation, SIGCHLD notices
 *   wait.c     what a non-blocking wait with flags finds
 *   pgrp.c     process groups, sessions, orphaned groups
 *
 * Tasks are threads.  A process is its leader task; every task records its
 * leader.  The real parent is a *thread* (->real_parent); /proc's PPid
 * shows its thread group.
 */
#ifndef PTSTRESS_MODEL_H
#define PTSTRESS_MODEL_H

#include <stdbool.h>
#include <sys/types.h>

#define M_NONE	(-1)	/* no task (no tracer, no parent) */
#define M_INIT	(-2)	/* the real init (pid 1): a reaper outside the model */
/* Pid namespaces nested below R's that the engine follows (the kernel's: 32). */
#define M_NS_DEPTH	4

/* The rules (rules.def): R_FORK_PARENT, ... */
enum m_rule {
	R_NONE = -1,
#define RULE(id, name, text, cite) R_##id,
#include "model/rules.def"
#undef RULE
	R_NR
};

const char *m_rule_id(int rule);	/* "reaper-subreaper"; "none" */
const char *m_rule_text(int rule);
const char *m_rule_cite(int rule);
/* The rule named @id, or R_NONE. */
int m_rule_find(const char *id);

/* Where a task is in its life, as /proc and wait() show it. */
enum m_life {
	ML_ALIVE,	/* running or stopped, possibly inside do_exit() */
	ML_ZOMBIE,	/* exited, not released: /proc shows Z, wait() may report it */
	ML_DEAD,	/* released: no /proc entry, nothing more to report */
};

/* Stop state of a live task. */
enum m_stop {
	MS_RUNNING,	/* not stopped (R/S/D in /proc) */
	MS_TRACED,	/* in a ptrace stop (t) */
	MS_GROUP,	/* group-stopped, untraced (T) */
};

/* Which ptrace stop a MS_TRACED task is in (what its tracer's wait said). */
enum m_trap {
	TRAP_NONE,
	TRAP_SIGNAL,	/* signal-delivery-stop (incl. the single-step SIGTRAP) */
	TRAP_SYSCALL,	/* syscall-enter/exit stop */
	TRAP_EVENT_STOP,/* PTRACE_EVENT_STOP: interrupt, a seized tracee's group stop */
	TRAP_GROUP,	/* group-stop trap of an attached (not seized) tracee */
	TRAP_EVENT,	/* PTRACE_EVENT_FORK/CLONE/EXEC/... */
	TRAP_EXIT,	/* PTRACE_EVENT_EXIT */
};

/* One task (thread) of the run. */
struct mtask {
	char name[48];		/* scenario name; "" for tasks the scenario did not name */
	pid_t tid;		/* global tid (R's pid namespace) */
	pid_t ns_tid;		/* tid in its own pid namespace (== tid outside one) */
	pid_t old_tid, old_ns_tid;	/* de_thread(): the released old leader's tids, or a
					 * non-leader execer's own former ones */
	/*
	 * Its tid in each pid namespace between R's and its own, by level
	 * (m_ns_level()): [0] is tid, [its own level] ns_tid; the levels in
	 * between are filled for tasks of nested namespaces only
	 * (m_set_nspid(), from /proc's NSpid).  old_nspid: old_tid's.
	 */
	pid_t nspid[M_NS_DEPTH + 1];
	pid_t old_nspid[M_NS_DEPTH + 1];
	int leader;		/* index of its thread group leader (itself for a leader) */
	int first, last;	/* a leader's: the lowest and highest index of a task of
				 * its group (an exec'd-away old leader's among them); the
				 * group's scans (m_alive_thread(), m_group_empty()) go
				 * from first to last, not over every task */
	int real_parent;	/* leaders: index of the ->real_parent thread; M_NONE for R */
	int tracer;		/* index of the tracer thread; M_NONE if untraced */
	unsigned long ptrace_opts; /* PTRACE_O_* of the seize/attach (inherited by auto-attach) */
	bool seized;		/* PTRACE_SEIZE rather than PTRACE_ATTACH/TRACEME */
	enum m_life life;	/* see enum m_life */
	enum m_stop stop;	/* see enum m_stop; MS_RUNNING unless ML_ALIVE */
	enum m_trap trap;	/* MS_TRACED: which stop */
	bool listening;		/* PTRACE_LISTEN: ptrace_freeze_traced() refuses requests */
	bool stepping;		/* its tracer's last resume was PTRACE_SINGLESTEP: TIF_SINGLESTEP
				 * (x86: TF) stays set until another resume or a detach */
	bool stop_pending;	/* traced and already stopped when a group stop began:
				 * JOBCTL_STOP_PENDING, it traps again when resumed */
	bool stop_report;	/* in a group-stop trap its tracer has not waited for yet */
	bool notify_trap;	/* ... that trap is JOBCTL_TRAP_NOTIFY's (a SIGCONT):
				 * PTRACE_EVENT_STOP with SIGTRAP, no group stop */
	bool cont_queued;	/* a SIGCONT queued for it (its group's only thread):
				 * a signal-delivery-stop at its tracer's next resume */
	bool cont_untraced;	/* ... and then untraced, running: the SIGCONT stays
				 * pending until it runs and ignores it (the engine
				 * waits for that, settle_stops()) */
	bool subreaper;		/* leaders: PR_SET_CHILD_SUBREAPER is on */
	int ns;			/* index of its pid namespace's init; M_NONE: R's namespace */
	int ns_parent;		/* ns init leaders: the namespace its own is nested in
				 * (copy_pid_ns(): current's pid_ns_for_children) */
	bool in_exit;		/* entered do_exit() (out of signal->quick_threads) */
	bool exited;		/* PF_EXITING: no reaper candidate any more */
	bool exit_stop;		/* held in PTRACE_EVENT_EXIT until its tracer resumes it */
	int exit_code;		/* its own exit code (do_exit()'s) ... */
	int exit_sig;		/* ... or killing signal if non-zero */
	/* leaders: the thread group's signal_struct */
	bool group_exit;	/* SIGNAL_GROUP_EXIT */
	int group_code;		/* group_exit_code: exit code ... */
	int group_sig;		/* ... or signal */
	bool gstop;		/* a group stop is in effect or in progress */
	int gstop_code;		/* ->group_exit_code of a completed group stop that no
				 * WSTOPPED wait took yet (SIGNAL_STOP_STOPPED); 0 */
	bool cont_report;	/* SIGNAL_STOP_CONTINUED: a WCONTINUED report is due */
	bool jobctl_unknown;	/* a stop or continue met a traced thread: when the
				 * group stop completes is the tracers' timing */
	/* reports */
	int owed_tracer;	/* exit reports its tracer must still receive (0 or 1) */
	int owed_parent;	/* exit reports its real parent's group must still receive */
	int reports;		/* exit reports received so far, by anyone */
	/* pid namespaces */
	bool zap_reaped;	/* in a dying pid namespace: its init reaps it, no one else */
	bool zap_sig_sure;	/* zap_reaped leaders: the release notifies with zap_sig,
				 * not SIGCHLD if a dying real parent reparented it first */
	int zap_sig;		/* zap_reaped leaders: ->exit_signal when the zap began */
	bool detach_dead;	/* a zombie thread __ptrace_detach() let go at its tracer's
				 * exit: released at the end of that exit (exit_ptrace()'s
				 * dead list, release_task() after exit_notify()) */
	int ns_reaper;		/* ns init leaders: the thread that is pid_ns->child_reaper */
	bool zapper;		/* the init thread sleeping in zap_pid_ns_processes() */
	bool zap_cand;		/* may be that thread: which one is racy on a group exit */
	/* exit signals and the parent-death signal */
	int exit_signal;	/* leaders: ->exit_signal (SIGCHLD, another, 0: none); -1 threads */
	unsigned int self_exec_id;	/* ->self_exec_id: copied at creation, +1 per execve() */
	unsigned int parent_exec_id;	/* leaders: the forking thread's self_exec_id then */
	int pdeath_signal;	/* PR_SET_PDEATHSIG of this thread; 0: none (fork resets it) */
	/* leaders: the group's SIGCHLD disposition (sighand, copied at fork) */
	bool sigchld_ign;	/* SIG_IGN: children reap themselves, no SIGCHLD */
	bool sigchld_nocldwait;	/* SA_NOCLDWAIT: children reap themselves, SIGCHLD sent */
	/* leaders: job control (copy_process() copies current's, setsid()/setpgid()) */
	int pgrp;		/* process group: index of its leader process; 0: R's */
	int session;		/* session: index of its leader process; 0: R's */
	/* the rule behind each prediction, for findings (enum m_rule) */
	int why_parent;		/* real_parent */
	int why_tracer;		/* tracer and ptrace flags */
	int why_state;		/* life and stop */
	int why_code;		/* the status its report must carry */
	int why_owed;		/* who must collect its report */
	int why_exitsig;	/* its exit_signal */
};

/* A SIGCHLD the kernel sends (do_notify_parent()), for the SIGCHLD check. */
struct m_notice {
	int to_lead;		/* the notified process (leader index; 0 for R) */
	int from;		/* the task whose exit it reports */
	int code;		/* si_code: CLD_EXITED or CLD_KILLED */
	int status;		/* si_status: the task's *own* exit code or signal */
	int rule;		/* which do_notify_parent() call (or the rule behind its signal) */
	int alt_code;		/* the si_code and si_status a kernel after 6.1 sends ... */
	int alt_status;		/* ... instead (m_notify()); alt_code 0: none */
	bool checked;		/* counted by a SIGCHLD check */
	bool seen;		/* matched by a logged SIGCHLD */
	bool maybe;		/* the kernel may send none for it (a race): it
				 * matches a SIGCHLD, but none is owed */
};

/* The whole model. */
struct model {
	struct mtask *t;	/* the tasks; index 0 is R */
	int n;			/* tasks in use */
	int cap;		/* allocated */
	int nlive;		/* tasks not released */
	int ndetach_dead;	/* tasks with detach_dead: exit_notify() walks the
				 * tasks for them only when there is one */
	int ncont_untraced;	/* tasks with cont_untraced: settle_stops() walks the
				 * tasks only when there is one */
	int wrong;		/* --wrong-model: the perturbed rule; R_NONE */
	struct m_notice *notices;	/* SIGCHLDs sent since the last check */
	int nnotices, notices_cap;
	unsigned long long *rel;	/* hash set of (task, process) "may notify" pairs */
	int rel_cap, nrel;
	const char *unpredictable;	/* a step the rules cannot predict: why; NULL */
	long step_kills;	/* tracees a tracer's exit left single-stepping, to die of
				 * SIGTRAP (tracer-exit-keeps-singlestep) */
	long reaper_moves;	/* a namespace's child_reaper thread exited and the
				 * role moved to a live thread of init's group
				 * (find_child_reaper()) */
	int *pdeath;		/* signals sent under tasklist_lock, not yet delivered:
				 * (task, sig) pairs: pdeath signals, EXITKILL's SIGKILL */
	int npdeath, pdeath_cap;
	/*
	 * m_links_freeze(): each task's ->ptraced and ->children sizes, counted
	 * in one walk for a check of many tasks (m_links() would walk every
	 * task for each).  Valid only while nothing changes the model:
	 * m_links_thaw() ends it.
	 */
	unsigned long *lk_ptraced, *lk_children;
	int lk_cap;		/* their size */
	bool lk_frozen;		/* they hold the counts: m_links() reads them */
	/*
	 * Ascending indexes of every task not released at the last
	 * m_unrel_compact(), and of every task made since: a superset of the
	 * unreleased tasks, in index order.  A walk whose body skips
	 * released tasks goes over it (M_FOR_UNREL) and does exactly what a
	 * walk over all n does, in the same order, without the thousands of
	 * released tasks of a long run (host fuzz: a third of R's samples
	 * were such walks after 60 s).
	 */
	int *unrel;
	int nunrel, unrel_cap;
};

/*
 * for each task @i that may be unreleased, in index order (@k the position
 * in m->unrel; a task made during the walk is reached too, as with n)
 */
#define M_FOR_UNREL(m, k, i) \
	for ((k) = 0; (k) < (m)->nunrel && ((i) = (m)->unrel[(k)], 1); (k)++)
/* Drop released tasks from m->unrel: never inside an M_FOR_UNREL walk. */
void m_unrel_compact(struct model *m);
/* The first position in m->unrel whose task index is >= @from. */
int m_unrel_from(const struct model *m, int from);

void model_init(struct model *m, pid_t self);
void model_free(struct model *m);

/* ---- what happened ---- */

/*
 * Pid namespaces: @ns is an init's index or M_NONE (R's).  within: @ns is
 * @outer or nested in it (its tasks have pids in @outer).  level: 0 for
 * R's.  m_pid_in(): @task's tid as seen in @ns (task_pid_nr_ns()), 0 if it
 * has none there; m_old_pid_in(): the same for old_tid.
 */
bool m_ns_within(const struct model *m, int ns, int outer);
int m_ns_level(const struct model *m, int ns);
pid_t m_pid_in(const struct model *m, int task, int ns);
pid_t m_old_pid_in(const struct model *m, int task, int ns);
/* @task's NSpid from /proc (@n levels, R's first): fills nspid[]; -1 if @n is not its depth. */
int m_set_nspid(struct model *m, int task, const pid_t *nspid, int n);
/*
 * The process @i was just forked by a thread whose pid_ns_for_children
 * was @ns's (setns(CLONE_NEWPID)): it lives in @ns (or its own new
 * namespace is nested in @ns), its real parent outside (copy_process(),
 * alloc_pid(p->nsproxy->pid_ns_for_children)).
 */
void m_fork_into(struct model *m, int i, int ns);

/* A process forked by thread @parent (a new leader); returns its index or -1 (ENOMEM). */
int m_fork(struct model *m, int parent, const char *name, pid_t tid, pid_t ns_tid,
	   bool subreaper, bool new_ns);
/*
 * clone(CLONE_PARENT) by thread @creator: a process whose real parent is
 * @creator's; its exit_signal is @creator's group leader's.  Its index or -1.
 */
int m_clone_parent(struct model *m, int creator, const char *name, pid_t tid, pid_t ns_tid,
		   bool subreaper);
/* A thread created by thread @creator: joins @creator's group. */
int m_thread(struct model *m, int creator, const char *name, pid_t tid, pid_t ns_tid);
/* A task auto-attached by @tracer (PTRACE_O_TRACEFORK/CLONE/VFORK of its parent). */
void m_auto_attach(struct model *m, int child, int tracer, unsigned long opts, bool seized);
/* PTRACE_SEIZE/ATTACH/TRACEME: @tracer traces @task. */
void m_trace(struct model *m, int tracer, int task, unsigned long opts, bool seized, int rule);
/* PTRACE_DETACH, or a tracer's exit let @task go (__ptrace_unlink()). */
void m_untrace(struct model *m, int task, int rule);
/*
 * @task was group-stopped when its new tracer seized it: ptrace_attach()
 * woke it with JOBCTL_TRAP_STOP and waited until it trapped; its tracer
 * has the trap to wait for (stop_report).
 */
void m_seized_stopped(struct model *m, int task);
/* @task enters a PTRACE_EVENT_STOP trap whose report its tracer must collect (@why). */
void m_event_trap_due(struct model *m, int task, int why);
/*
 * @task was group-stopped when its new tracer PTRACE_ATTACHed it: the
 * re-trap and the queued SIGSTOP's stop came and went (op_attach()), and
 * it runs.  False if the model (perturbed) expects no re-trap at all.
 */
bool m_attached_stopped(struct model *m, int task);
/* @task is in ptrace stop @trap (its tracer waited for it). */
void m_trapped(struct model *m, int task, enum m_trap trap);
/* The tracer waited for @task's group-stop trap (stop_report). */
void m_stop_collected(struct model *m, int task);
/*
 * @task was resumed by its tracer (CONT/SYSCALL/SINGLESTEP/LISTEN).  True
 * if it traps again at once into a group stop (stop_report is then set).
 */
bool m_resumed(struct model *m, int task, bool listen);
/* Every unreleased thread of group @lead: its state and report status come from @rule. */
void m_why_group(struct model *m, int lead, int rule);
/* @task was resumed with PTRACE_SINGLESTEP (@on) or PTRACE_SYSCALL and took the trap. */
void m_stepped(struct model *m, int task, bool on);
/* m_exit_ptrace()'s part for single steps (step.c) */
bool m_step_exitkill_race(const struct model *m, int tracer);
/* ... or one inside a pid namespace whose init the same exit kills (step.c). */
bool m_step_zap_race(const struct model *m, int tracer);
void m_step_untraced(struct model *m, int tracer, int x);
void m_set_subreaper(struct model *m, int proc, bool on);
/* A process's exit signal as its clone() gave it (copy_process()); SIGCHLD by default. */
void m_set_exit_signal(struct model *m, int proc, int sig);
/*
 * kernel_clone(): the PTRACE_O_TRACE* option that auto-attaches a child
 * forked with exit signal @exitsig (FORK for SIGCHLD, else CLONE).
 */
unsigned long m_fork_trace_opt(const struct model *m, int exitsig);
/* sigaction(SIGCHLD) by a thread of @proc: SIG_IGN if @ign, SA_NOCLDWAIT if @nocldwait. */
void m_set_sigchld(struct model *m, int proc, bool ign, bool nocldwait);
/* setsid() by a thread of @proc: its own session and group; EPERM if it leads a group. */
struct m_pred m_predict_setsid(const struct model *m, int proc);
void m_setsid(struct model *m, int proc);
/* setpgid(0, 0) by a thread of @proc: its own group; EPERM for a session leader. */
struct m_pred m_predict_setpgid(const struct model *m, int proc);
void m_setpgid(struct model *m, int proc);
/*
 * kill_orphaned_pgrp(): the group of process @proc becomes orphaned with a
 * stopped member, by @proc's exit (@father M_NONE) or by its reparenting
 * away from thread @father: every member gets SIGHUP and SIGCONT.
 */
void m_orphan_check(struct model *m, int proc, int father);
/* PR_SET_PDEATHSIG @sig by thread @task. */
void m_set_pdeath_signal(struct model *m, int task, int sig);
/* A signal reached @task's group untraced (delivered): its effect (kill, stop, continue). */
void m_signal(struct model *m, int task, int sig);
/* tgkill() of @sig to thread @task: as m_signal(), unless @task exited. */
void m_signal_thread(struct model *m, int task, int sig);
/* The SIGCONT queued for @task came as a signal-delivery-stop and was delivered. */
void m_sigcont_delivered(struct model *m, int task);
/* The untraced @task dequeued (ignored) the SIGCONT queued while it was traced. */
void m_sigcont_ignored(struct model *m, int task);
/*
 * Thread @task entered do_exit() on its own (SYS_exit): exited with @code,
 * or killed by @sig if non-zero.  It may stop in PTRACE_EVENT_EXIT first
 * (m_exit_stopped()); otherwise its exit completes.
 */
void m_thread_exit(struct model *m, int task, int code, int sig);
/* Every thread of @proc's group exits (exit_group(), a fatal signal). */
void m_group_exit(struct model *m, int proc, int code, int sig);
/* The next task held in PTRACE_EVENT_EXIT, from index @from on; M_NONE if none. */
int m_next_exit_stop(const struct model *m, int from);
/* @task's tracer resumed it from PTRACE_EVENT_EXIT: its exit completes. */
void m_exit_stop_passed(struct model *m, int task);
/*
 * Thread @task execve()s: de_thread() ends the other threads (their tracers
 * see exited(0)); they may stop in PTRACE_EVENT_EXIT first.
 */
void m_exec(struct model *m, int task);
/* ... once the other threads are released: @task takes the leader's place. */
void m_exec_done(struct model *m, int task);
/*
 * @waiter's wait() reported @task's exit.  Returns 0 if that report was
 * owed to @waiter (as tracer or as real parent), -1 if it was not (a
 * duplicate or a report to the wrong task: a finding).
 */
int m_report(struct model *m, int waiter, int task);

/* ---- what the kernel must show (predict.c) ---- */

/* Index of the task whose tgid /proc PPid must show, M_NONE for R's, M_INIT. */
int m_ppid_task(const struct model *m, int task);
/* Expected PPid and TracerPid values (global pids). */
pid_t m_ppid(const struct model *m, int task);
pid_t m_tracer_pid(const struct model *m, int task);
/* The /proc State letters @task may show now ("t", "RSD", ...). */
const char *m_state_letters(const struct model *m, int task);
/* ->ptrace flags as ptrace_links prints them (PT_PTRACED | PT_SEIZED | options). */
unsigned long m_ptrace_flags(const struct model *m, int task);
/* What @task's ptrace_links file must say (patch 0001), every field the kernel prints. */
struct m_links {
	pid_t tid, tgid, leader;	/* the thread, its group, ->group_leader */
	pid_t real_parent;		/* the exact ->real_parent thread; 1: init */
	pid_t parent;			/* ->parent: the tracer, else the real parent */
	pid_t tracer;			/* owner of the ->ptraced list it is on; 0 */
	unsigned long ptrace;		/* ->ptrace flags */
	unsigned long ptraced;		/* entries of its own ->ptraced list */
	unsigned long children;		/* entries of its ->children list */
	int sibling_linked;		/* on a ->children list (leaders only) */
	int exit_state;			/* EXIT_ZOMBIE (0x20) or 0 */
	int exit_signal;		/* SIGCHLD for a process, -1 for a thread */
	int exiting;			/* PF_EXITING */
};
void m_links(const struct model *m, int task, struct m_links *w);
/*
 * Count every task's list sizes at once, for m_links() calls until
 * m_links_thaw(), between which the model must not change.  -ENOMEM
 * leaves it unfrozen (m_links() then walks, as before).
 */
int m_links_freeze(struct model *m);
void m_links_thaw(struct model *m);
/* The status @task's exit report must carry: exited(*code) or killed(*sig). */
void m_report_status(const struct model *m, int task, int *code, int *sig);

/* The ptrace requests the engine predicts the outcome of. */
enum m_req {
	MR_CONT,	/* PTRACE_CONT */
	MR_SYSCALL,	/* PTRACE_SYSCALL */
	MR_SINGLESTEP,	/* PTRACE_SINGLESTEP */
	MR_DETACH,	/* PTRACE_DETACH */
	MR_LISTEN,	/* PTRACE_LISTEN */
	MR_INTERRUPT,	/* PTRACE_INTERRUPT (seized), or the tkill(SIGSTOP) an attached one needs */
	MR_KILL,	/* PTRACE_KILL */
};

/* An outcome: the errno (0: success) and the rule that says so. */
struct m_pred {
	int err;
	int rule;
};

struct m_pred m_predict_attach(const struct model *m, int tracer, int task);
struct m_pred m_predict_traceme(const struct model *m, int task);
struct m_pred m_predict_request(const struct model *m, int tracer, int task, enum m_req req);
/* Is a resume signal given to @task delivered (signal-delivery or syscall stop)? */
bool m_delivers_signal(const struct model *m, int task);
/* A signal given to PTRACE_CONT of @task comes back as a signal-delivery-stop. */
bool m_signal_restops(const struct model *m, int task, int sig);
/* ... and it is in that signal-delivery-stop. */
void m_signal_restopped(struct model *m, int task);

/* Does a vfork()ing thread sleep (D) until its child execs?  (rule vfork-parent-waits) */
bool m_vfork_parent_waits(const struct model *m);
/* pidfd_open() of @task's pid: success, or EINVAL for a thread that leads no group. */
struct m_pred m_predict_pidfd_open(const struct model *m, int task);
/*
 * Does a pidfd of the pid @task holds poll readable (POLLIN)?  @task is
 * M_NONE when no task holds that pid any more.  *rule: the rule.
 */
bool m_pidfd_readable(const struct model *m, int task, int *rule);

/* ---- who reports to whom ---- */

/* Is @task's exit report owed to @waiter now (not blocked behind a tracer)? */
bool m_owed_to(const struct model *m, int waiter, int task);
/* Index of the thread that must collect @task's next report; M_NONE if none is due. */
int m_next_collector(const struct model *m, int task, bool *as_tracer);
/* @task is a namespace init thread still waiting for its namespace to drain. */
bool m_zapping(const struct model *m, int task);
/* What a non-blocking wait by one thread finds of one task (wait.c). */
enum m_wstate {
	MW_NOT,		/* not eligible: not a child or tracee of the waiter, or filtered */
	MW_PENDING,	/* eligible, nothing to report yet: the wait would block */
	MW_READY,	/* its exit report is due to the waiter */
	MW_RACY,	/* what comes first is not the model's to say (a stop report) */
};
/*
 * waitid(P_PID @c, WEXITED|WNOHANG|@flags) by thread @waiter, as
 * wait_consider_task() sees @c; *rule: the rule behind the answer.
 * @flags: the kernel's __WNOTHREAD, __WCLONE, __WALL, WSTOPPED, WCONTINUED.
 */
enum m_wstate m_wait_consider(const struct model *m, int waiter, int c, int flags, int *rule);
/* Which report a MW_READY task gives (WSTOPPED/WCONTINUED flags considered). */
enum m_wkind { MWK_EXIT, MWK_STOP, MWK_CONT };
enum m_wkind m_wait_kind(const struct model *m, int waiter, int c, int flags);
/* A wait without WNOWAIT took @c's group-stop or continued report. */
void m_wait_took(struct model *m, int c, enum m_wkind kind);
/*
 * waitid(P_ALL, or P_PID @task if >= 0, WEXITED|WNOHANG|@flags) by
 * @waiter: the index of a task whose report it may return (> 0; any task
 * that m_wait_consider() calls MW_READY may come), 0 if it returns nothing
 * yet, -ECHILD, or -EAGAIN if the model cannot say (MW_RACY).
 */
int m_predict_waitid(const struct model *m, int waiter, int task, int flags, int *rule);
/*
 * waitid(P_PIDFD) of a PIDFD_NONBLOCK pidfd of @task without WNOHANG, given
 * the P_PID wait's prediction @pred and its @rule (m_predict_waitid()):
 * the same wait, but nothing yet fails with EAGAIN (kernel_waitid()).
 * The errno (0: a report comes) and the rule behind it.  pidfd_open()'s
 * own outcome is m_predict_pidfd_open().
 */
struct m_pred m_waitid_pidfd(const struct model *m, int pred, int rule);

/* How many threads of @lead's group are alive (ML_ALIVE, exiting or not). */
int m_live_threads(const struct model *m, int lead);
/* Does @task's group still have a live thread? */
bool m_group_alive(const struct model *m, int leader);
/* find_alive_thread(): a thread of @proc's group not PF_EXITING; M_NONE if none. */
int m_alive_thread(const struct model *m, int proc);
int m_find_name(const struct model *m, const char *name);
int m_find_tid(const struct model *m, pid_t tid);
/*
 * m_find_tid(), else the last released task that had @tid (the kernel log
 * names tasks gone since); M_NONE.
 */
int m_find_tid_any(const struct model *m, pid_t tid);
const char *m_name(const struct model *m, int task);

/* ---- SIGCHLD (rules.c) ---- */

/* Record that @from may send SIGCHLD to the process of @to (child, tracee). */
void m_relate(struct model *m, int from, int to);
/* Could @from ever have sent SIGCHLD to process @lead? */
bool m_was_notifier(const struct model *m, int from, int lead);
/* The task whose pid, as process @lead sees it, is @pid; -1 if none. */
int m_find_pid_seen_by(const struct model *m, pid_t pid, int lead);
/* Every task the pid @pid may have named for process @lead, newest first: up to @max. */
int m_pids_seen_by(const struct model *m, pid_t pid, int lead, int *out, int max);
/* Are there notices to process @lead not yet checked? */
bool m_has_notices(const struct model *m, int lead);
/* Forget the checked notices. */
void m_notices_gc(struct model *m);
/*
 * do_notify_parent(@from, @sig) to thread @to (->parent): @sig is the
 * exit_signal, or SIGCHLD where the caller passes that; a notice is
 * recorded if the signal sent is SIGCHLD.  True if @from reaps itself
 * (its parent's group ignores SIGCHLD): the caller releases it.
 */
bool m_notify(struct model *m, int from, int to, int sig, int rule);

/* ---- internal to model/ ---- */
bool m_wrong(const struct model *m, int rule);
bool m_same_group(const struct model *m, int a, int b);
bool m_group_empty(const struct model *m, int lead);
bool m_ns_drained(const struct model *m, int init);
void m_settle(struct model *m);
void m_reparent_children(struct model *m, int father);
void m_deliver_pdeath(struct model *m);
/* A signal sent now to @task's group, taking effect at m_deliver_pdeath(). */
void m_queue_signal(struct model *m, int task, int sig);
void m_autoreap(struct model *m, int task, int rule);
/*
 * release_task() of thread @i (a leader's other thread as well): when it
 * was the last, a zombie leader's parent is notified now and may reap it.
 */
void m_release_thread(struct model *m, int i, int rule);
void m_exit_ptrace(struct model *m, int tracer);
void m_set_life(struct model *m, int task, enum m_life life, int rule);

#endif /* PTSTRESS_MODEL_H */
