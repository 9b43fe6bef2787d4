/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Agents: every task of a scenario's population (process or thread) runs a
 * small command loop on a SOCK_SEQPACKET socket to R, so R can make that
 * very task fork, create a thread, exit, exec, wait for a child, or act as
 * a tracer (ptrace requests must come from the tracer thread itself).
 *
 * R sends one text request per message; the agent answers with one struct
 * agent_reply, carrying a file descriptor (SCM_RIGHTS) when it created a
 * task: R's end of the new task's socket.  A new task's first message on
 * its socket is a struct agent_hello with SCM_CREDENTIALS, from which R
 * learns its tid in R's pid namespace (the kernel translates the pid).
 */
#ifndef PTSTRESS_AGENT_H
#define PTSTRESS_AGENT_H

#include <stdbool.h>
#include <sys/types.h>

#include "lib/ptstress.h"

#define AGENT_MAGIC	0x70747374	/* "ptst" */

/* A new task introduces itself. */
struct agent_hello {
	int magic;		/* AGENT_MAGIC */
	pid_t tid;		/* gettid() in its own pid namespace */
	pid_t tgid;		/* getpid() in its own pid namespace */
	int creds_tid;		/* the SCM_CREDENTIALS pid is the tid (else the tgid) */
};

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
	char msg[360];		/* what the agent did and saw, for diagnostics */
};

/* Agent flags of "fork". */
#define AGENT_FORK_SUBREAPER	1
#define AGENT_FORK_PIDNS	2

/*
 * Requests (PID: as the agent sees it; SIG: a number, 0 none):
 *   fork FLAGS          fork (FLAGS: AGENT_FORK_*), reply with pid + fd
 *   thread              pthread_create(), reply with tid + fd
 *   exit CODE           this thread exits (SYS_exit); no reply
 *   exit-group CODE     the process exits (exit_group); no reply
 *   exec                execve() of ptstress as agent; the hello comes again
 *   subreaper 0|1       PR_SET_CHILD_SUBREAPER
 *   traceme             PTRACE_TRACEME
 *   reap PID            waitpid(PID, __WALL), then once more WNOHANG
 *   wait-tracee PID     waitpid(PID, __WALL) for a tracee's exit report
 *   seize PID OPTS      PTRACE_SEIZE with options OPTS
 *   attach PID OPTS     PTRACE_ATTACH, wait for its stop, SETOPTIONS, CONT 0
 *   stop PID SEIZED     PTRACE_INTERRUPT (seized) or tgkill(SIGSTOP), and
 *                       wait for the stop; signals that get there first are
 *                       delivered
 *   listen PID          PTRACE_LISTEN
 *   cont PID SIG        PTRACE_CONT
 *   syscall PID         PTRACE_SYSCALL, wait for the syscall-stop
 *   singlestep PID      PTRACE_SINGLESTEP, wait for the SIGTRAP stop
 *   detach PID SIG      PTRACE_DETACH (the tracee must be stopped)
 *   ptrace-kill PID     PTRACE_KILL
 *   pass PID SWALLOW    wait for a stop of PID; a signal-delivery-stop is
 *                       resumed with its signal (0 if SWALLOW), others with 0
 *   wait-stop PID       wait for a stop of PID and leave it stopped
 *   follow PID          wait for PID's fork/clone event stop, then for the
 *                       new task's first stop; resume both; msg_val = new pid
 *   ping                reply ok
 */
/*
 * Create an agent process (fork, or clone(CLONE_NEWPID) with
 * AGENT_FORK_PIDNS); *rfd is the caller's end of its socket.  The child's
 * hello follows on it.  Returns the pid as the caller sees it, or -1.
 */
pid_t agent_spawn(int flags, int *rfd);
int agent_request(int fd, const char *req);
/* Read one reply (and a passed fd into *newfd, or -1).  0 or -errno. */
int agent_reply(int fd, struct agent_reply *rep, int *newfd, const struct deadline *dl);
/* Read a new task's hello; *tid = its tid in R's namespace.  0 or -errno. */
int agent_hello(int fd, pid_t *tid, pid_t *ns_tid, const struct deadline *dl);
/* main() of "ptstress agent FD" after an exec. */
int agent_exec_main(int argc, char **argv);

#endif /* PTSTRESS_AGENT_H */
