/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Agents: every task of a scenario's population (process or thread) runs a
 * small command loop on a SOCK_SEQPACKET socket to R, so R can make that
 * very task fork, create a thread, exit, exec, wait for a child, or act as
 * a tracer (ptrace requests must come from the tracer thread itself).
 *
 * The protocol is typed: R sends one struct agent_req per message (an op
 * of ops.def and its fields); the agent answers with one struct
 * agent_reply, carrying a file descriptor (SCM_RIGHTS) when it created a
 * task: R's end of the new task's socket.  A new task's first message on
 * its socket is a struct agent_hello with SCM_CREDENTIALS, from which R
 * learns its tid in R's pid namespace (the kernel translates the pid).
 * Both ends dispatch through tables indexed by the op; text exists only
 * for the step log (agent_req_str()).
 */
#ifndef PTSTRESS_AGENT_H
#define PTSTRESS_AGENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/ptstress.h"

#define AGENT_MAGIC	0x70747374	/* "ptst" */

enum agent_op {
#define AGENT_OP(id, name, fields) OP_##id,
#include "agent/ops.def"
#undef AGENT_OP
	OP_NR
};

/* One request. */
struct agent_req {
	uint32_t magic;		/* AGENT_MAGIC */
	uint32_t op;		/* enum agent_op */
	int32_t pid;		/* the task it is about, as the agent sees it; 0 none */
	int32_t sig;		/* a signal to deliver (cont, detach); 0 none */
	int64_t arg;		/* op-specific: options, flags, exit code, "pass" mode */
	int32_t timeout;	/* seconds the agent's own waits may take (the step's) */
};

/* "pass" modes (agent_req.arg). */
#define PASS_DELIVER	0	/* a signal-delivery-stop is resumed with its signal */
#define PASS_SWALLOW	1	/* ... with 0 (the SIGTRAP after a legacy traced exec) */
#define PASS_EXEC_TGID	2	/* swallow, and the stop comes under the tgid after
				 * de_thread(): ECHILD until then */
#define PASS_EXIT_STOP	3	/* the PTRACE_EVENT_EXIT stop, resumed with 0 */
#define PASS_VFORK_DONE	4	/* the PTRACE_EVENT_VFORK_DONE stop, resumed with 0 */

/* OP_FOLLOW (agent_req.arg): the event | FOLLOW_HOLD: leave the new task stopped. */
#define FOLLOW_HOLD	0x10000

/*
 * OP_ATTACH's sig: ATTACH_GROUP_STOPPED, the task is in a group stop.
 * ptrace_attach() then queues SIGSTOP and re-traps the task: its first
 * stop is the group stop's (PTRACE_GETSIGINFO: EINVAL), and once resumed
 * the SIGSTOP's signal-delivery-stop follows, resumed with 0.  The reply's
 * msg_val says what was seen: ATTACH_SAW_* bits.
 */
#define ATTACH_GROUP_STOPPED	1
#define ATTACH_SAW_GROUP_TRAP	1	/* the first stop had no siginfo */
#define ATTACH_SAW_SIGSTOP	2	/* then a SIGSTOP signal-delivery-stop */
#define ATTACH_SAW_TRAPPED	4	/* the first stop was there when PTRACE_ATTACH returned */
#define ATTACH_SAW_ALL		7

/* Flags of OP_STOP (agent_req.arg). */
#define STOP_SEIZED	1	/* PTRACE_INTERRUPT (else tkill(SIGSTOP)) */
#define STOP_NOWAIT	2	/* an exited tracee: no stop follows */

/* OP_SIGCHLD_ACT (agent_req.arg): SIGCHLD's disposition; neither: SIG_DFL. */
#define SIGCHLD_IGNORE		1	/* SIG_IGN */
#define SIGCHLD_NOCLDWAIT	2	/* SA_NOCLDWAIT */

/* Flags of OP_FORK. */
#define AGENT_FORK_SUBREAPER	1	/* PR_SET_CHILD_SUBREAPER at birth */
#define AGENT_FORK_PIDNS	2	/* clone(CLONE_NEWPID): the init of a new namespace */
/*
 * clone(CLONE_PARENT): the new task is the asking agent's sibling, a child
 * of its parent.  R forks one small agent per scenario, the spawner, and
 * asks it for every process whose parent is R: R's own fork would copy
 * R's address space and thousands of sockets into every agent, a cost that
 * grows with the population (issue 15); the spawner's stays small.
 */
#define AGENT_FORK_SIBLING	4
/*
 * clone() with exit signal AGENT_FORK_SIG(flags) instead of SIGCHLD
 * ("process ... exit-signal"): flags | AGENT_FORK_CSIGNAL | (sig << 8).
 */
#define AGENT_FORK_CSIGNAL	8
#define AGENT_FORK_SIG(flags)	(((flags) >> 8) & 0xff)
/*
 * clone(CLONE_VM | CLONE_VFORK): the asking thread sleeps until the child
 * has exec'd a fresh agent ("process ... vfork").  The child shares our
 * memory until then, so it runs on a stack of its own, which no thread of
 * ours ever uses, and only calls execve() (and _exit() if that fails): it
 * writes nothing its parent reads.
 */
#define AGENT_FORK_VFORK	16
/*
 * setns(CLONE_NEWPID) to the active pid namespace of agent_req.pid (a
 * tgid as the asking agent sees it) for this one fork, then back: the
 * child lives in that namespace, its real parent outside ("process ...
 * setns X").  Our own threads need it back: clone(CLONE_THREAD) is EINVAL
 * while pid_ns_for_children is not the active one (copy_process(),
 * kernel/fork.c:2161-2164).
 */
#define AGENT_FORK_SETNS	32

/* A new task introduces itself. */
struct agent_hello {
	int magic;		/* AGENT_MAGIC */
	pid_t tid;		/* gettid() in its own pid namespace */
	pid_t tgid;		/* getpid() in its own pid namespace */
	int creds_tid;		/* the SCM_CREDENTIALS pid is the tid (else the tgid) */
};

/*
 * OP_WAITID's arg: besides the wait flags, wait through a pidfd: the
 * agent opens pidfd_open(pid, PIDFD_NONBLOCK) and calls waitid(P_PIDFD)
 * without WNOHANG, so the pidfd's O_NONBLOCK is what keeps it from
 * blocking (kernel_waitid()).  A bit no waitid flag uses.
 */
#define AGENT_WAITID_PIDFD	0x00100000
#define AGENT_SIGCHLD_MAX	24	/* SIGCHLD records of one OP_SIGCHLD_LOG reply */

/* An agent's answer to one request. */
struct agent_reply {
	int ok;			/* 1: the request did what it should */
	int err;		/* errno behind a failure (ESRCH, EPERM, ...) */
	pid_t pid;		/* fork/thread: the new task's pid as the agent sees it;
				 * waits: the pid the report came for */
	int status;		/* waits: the raw wait status */
	int second;		/* reap: a second waitpid(pid, WNOHANG) right after: */
	int second_errno;	/*   its return value and errno (ECHILD: nothing left) */
	unsigned long msg_val;	/* PTRACE_GETEVENTMSG where one was read */
	int nsigchld;		/* OP_SIGCHLD_LOG: records in sigchld[]; -1 not logged */
	int sigchld_lost;	/* OP_SIGCHLD_LOG: dropped by a full log */
	struct sigchld_rec sigchld[AGENT_SIGCHLD_MAX];	/* OP_SIGCHLD_LOG, oldest first */
	char msg[360];		/* what the agent did and saw, for diagnostics */
	long long busy_ns;	/* the agent's time on it, request received to reply
				 * sent (ps_prof.agent_ns) */
};

/* The name of @op ("seize"), "?" if unknown. */
const char *agent_op_name(unsigned int op);
/* The op named @name, or -1. */
int agent_op_find(const char *name);
/* "seize pid=12 arg=0x100000" for the step log; returns @buf. */
char *agent_req_str(const struct agent_req *req, char *buf, size_t len);
/* Fill in a reply: ok, errno and a message. */
void agent_set(struct agent_reply *rep, int ok, int err, const char *fmt, ...) PS_PRINTF(4, 5);

/*
 * Create an agent process (fork, or clone(CLONE_NEWPID) with
 * AGENT_FORK_PIDNS); *rfd is the caller's end of its socket.  The child's
 * hello follows on it.  Returns the pid as the caller sees it, or -1.
 */
pid_t agent_spawn(int flags, int *rfd);
/* Send one request.  0 or -errno with ps_last_error() set. */
int agent_send(int fd, const struct agent_req *req);
/* Read one reply (and a passed fd into *newfd, or -1).  0 or -errno. */
int agent_reply(int fd, struct agent_reply *rep, int *newfd, const struct deadline *dl);
/*
 * Read a new task's hello; *tid = its tid in R's namespace.  0 or -errno;
 * -ECANCELED when the task answered with a failure instead (a failed
 * execve(): ours, not the kernel's), with the agent's errno in the message.
 */
int agent_hello(int fd, pid_t *tid, pid_t *ns_tid, const struct deadline *dl);
/* main() of "ptstress agent FD" after an exec. */
int agent_exec_main(int argc, char **argv);

#endif /* PTSTRESS_AGENT_H */
