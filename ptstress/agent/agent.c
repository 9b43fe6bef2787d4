// SPDX-License-Identifier: GPL-2.0
/*
 * The agent side: the command loop every task of a population runs (one
 * per thread), and R's helpers to talk to it.  See agent.h.
 *
 * An agent never writes to stdout: everything goes back in its reply and R
 * prints it, which keeps the TAP stream in one writer's order.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/tracer-ops.h"

static void agent_loop(int fd) __attribute__((noreturn));

static void nop_handler(int sig)
{
	(void)sig;
}

/* Signals a scenario sends that must not kill an agent by default. */
static void agent_signals(void)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = nop_handler;
	/* SA_RESTART: the command loop's recv() goes on after a handled signal. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The model takes the default action for these (SIGHUP of an
	 * orphaned process group, kill_orphaned_pgrp(); the job-control
	 * stops): an ignored disposition inherited from the environment
	 * (nohup, a shell's background job) survives fork and exec and
	 * would read as a kernel finding.
	 */
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	signal(SIGTTOU, SIG_DFL);
	/*
	 * A traced task stops for every signal it dequeues, even an ignored
	 * SIGCHLD (sig_ignored() is false for ptraced tasks): a child's exit
	 * would leave a traced agent in a signal-delivery-stop no tracer
	 * expects.  Blocked, SIGCHLD stays pending and is never dequeued;
	 * agents learn of their children through waitpid() only.  The same
	 * for SIGRTMAX, the exit signal a scenario may give a child
	 * ("exit-signal", do_notify_parent() sends it instead of SIGCHLD).
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGRTMAX);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/* Say hello on @fd: our ids, with SCM_CREDENTIALS so that R gets them translated. */
static int send_hello(int fd)
{
	struct agent_hello h = { .magic = AGENT_MAGIC, .tid = gettid(), .tgid = getpid() };
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = &h, .iov_len = sizeof(h) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	struct ucred cr;

	/*
	 * A tid is a pid the kernel can translate into R's namespace; only
	 * CAP_SYS_ADMIN may send one that is not the tgid (__scm_send()).
	 */
	h.creds_tid = 1;
	cr.pid = h.tid;
	cr.uid = getuid();
	cr.gid = getgid();
	memset(&u, 0, sizeof(u));
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	cm->cmsg_len = CMSG_LEN(sizeof(cr));
	memcpy(CMSG_DATA(cm), &cr, sizeof(cr));
	if (sendmsg(fd, &mh, MSG_NOSIGNAL) == sizeof(h))
		return 0;
	if (errno != EPERM)
		return -1;
	/* Unprivileged: the default credentials carry the tgid. */
	h.creds_tid = 0;
	mh.msg_control = NULL;
	mh.msg_controllen = 0;
	return sendmsg(fd, &mh, MSG_NOSIGNAL) == sizeof(h) ? 0 : -1;
}

static __attribute__((noreturn)) void agent_start(int fd)
{
	agent_signals();
	/* Yama ptrace_scope=1 would stop tracers that are not our ancestors. */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	if (send_hello(fd) < 0)
		_exit(PS_EXIT_HARNESS);
	agent_loop(fd);
}

/* Send @rep, and @passfd (if >= 0) with SCM_RIGHTS. */
static void send_reply(int fd, const struct agent_reply *rep, int passfd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)rep, .iov_len = sizeof(*rep) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (passfd >= 0) {
		memset(&u, 0, sizeof(u));
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &passfd, sizeof(int));
	}
	if (sendmsg(fd, &mh, MSG_NOSIGNAL) < 0)
		_exit(PS_EXIT_HARNESS);
}

/* ---- creating tasks ---- */

static int child_fd;	/* in a freshly cloned agent: its socket */
static int child_flags;	/* ... and its AGENT_FORK_* flags */

static int agent_child(void *arg)
{
	(void)arg;
	ps_stop_signal = 0;
	wait_forget_signalfd();
	if (child_flags & AGENT_FORK_SUBREAPER)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	close_fds_except(&child_fd, 1);
	agent_start(child_fd);
}

/* The vfork child's execve() arguments, written by the parent before clone(). */
static char vfork_fdarg[16];
static char *vfork_argv[] = { "ptstress", "agent", vfork_fdarg, NULL };

/*
 * The vfork child (AGENT_FORK_VFORK): on its own stack, it reads
 * vfork_argv and calls execve(); nothing else until the exec or _exit.
 */
static int vfork_child(void *arg)
{
	(void)arg;
	syscall(SYS_execve, "/proc/self/exe", vfork_argv, environ);
	syscall(SYS_exit, PS_EXIT_HARNESS);
	return 0;
}

pid_t agent_spawn(int flags, int *rfd)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));
	int sv[2], err;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0)
		return -1;
	child_fd = sv[1];
	child_flags = flags;
	fflush(stdout);
	fflush(stderr);
	if (flags & AGENT_FORK_VFORK) {
		static char vstack[16 * 1024] __attribute__((aligned(16)));

		/* The exec'd agent keeps its socket: "ptstress agent FD" (agent_exec_main()). */
		snprintf(vfork_fdarg, sizeof(vfork_fdarg), "%d", sv[1]);
		pid = clone(vfork_child, vstack + sizeof(vstack), CLONE_VM | CLONE_VFORK | SIGCHLD,
			    NULL);
	} else if (flags & (AGENT_FORK_PIDNS | AGENT_FORK_SIBLING | AGENT_FORK_CSIGNAL)) {
		/*
		 * clone(CLONE_NEWPID): the child is the namespace's init (its
		 * child_reaper); clone(CLONE_PARENT): the child is our parent's
		 * (the spawner's, R's: see agent.h).  Its own stack: it never
		 * returns into our frames, and the parent does not run until
		 * clone() returns.  Not fork(): R asks one thing at a time, so
		 * the agent's other threads sit in recv() or a wait, holding
		 * no lock the child needs.  An exit signal other than SIGCHLD
		 * ("exit-signal") needs clone() too: fork() cannot give one.
		 */
		pid = clone(agent_child, stack + sizeof(stack),
			    (flags & AGENT_FORK_PIDNS ? CLONE_NEWPID : 0) |
			    (flags & AGENT_FORK_SIBLING ? CLONE_PARENT : 0) |
			    (flags & AGENT_FORK_CSIGNAL ? AGENT_FORK_SIG(flags) : SIGCHLD), NULL);
	} else {
		pid = fork();
		if (pid == 0) {
			/* R's handlers must not survive into an agent. */
			ps_stop_signal = 0;
			agent_child(NULL);
		}
	}
	err = errno;
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		errno = err;
		return -1;
	}
	*rfd = sv[0];
	return pid;
}

/* setns(CLONE_NEWPID) through a pidfd of @pid: pidns_install() checks the rest. */
static int setns_pid(pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0), r, err;

	if (fd < 0)
		return -1;
	r = setns(fd, CLONE_NEWPID);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

static void op_fork(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	int flags = (int)req->arg, err;
	pid_t pid;

	if ((flags & AGENT_FORK_SETNS) && setns_pid(req->pid) < 0) {
		agent_set(rep, 0, errno, "setns(pidfd of %d, CLONE_NEWPID): %s", (int)req->pid,
			  strerror(errno));
		return;
	}
	pid = agent_spawn(flags, passfd);
	err = errno;
	/* back to our own: getpid() is our tgid in our active namespace */
	if ((flags & AGENT_FORK_SETNS) && setns_pid(getpid()) < 0) {
		agent_set(rep, 0, errno, "setns back to our own pid namespace: %s",
			  strerror(errno));
		return;
	}
	if (pid < 0) {
		agent_set(rep, 0, err, "fork%s: %s", flags & AGENT_FORK_PIDNS ?
			  " (clone CLONE_NEWPID)" : "", strerror(err));
		return;
	}
	rep->pid = pid;
	agent_set(rep, 1, 0, "forked pid %d", (int)pid);
}

static void *thread_main(void *arg)
{
	int fd = (int)(long)arg;

	if (send_hello(fd) < 0)
		_exit(PS_EXIT_HARNESS);
	agent_loop(fd);
}

static void op_thread(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pthread_attr_t attr;
	pthread_t th;
	int sv[2], r;

	(void)req;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) < 0) {
		agent_set(rep, 0, errno, "socketpair: %s", strerror(errno));
		return;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	r = pthread_create(&th, &attr, thread_main, (void *)(long)sv[1]);
	pthread_attr_destroy(&attr);
	if (r) {
		agent_set(rep, 0, r, "pthread_create: %s", strerror(r));
		close(sv[0]);
		close(sv[1]);
		return;
	}
	*passfd = sv[0];
	agent_set(rep, 1, 0, "created a thread");
}

__thread int agent_timeout = 30;
static __thread int cmd_fd;	/* this thread's socket to R (the exec'd agent keeps it) */

static void op_exec(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	char fdarg[16];
	char *argv[] = { "ptstress", "agent", fdarg, NULL };

	(void)req;
	(void)passfd;
	snprintf(fdarg, sizeof(fdarg), "%d", cmd_fd);
	/*
	 * Our socket must survive the exec; every other fd goes
	 * (agent_exec_main()).  /proc/thread-self: /proc/self is the thread
	 * group's leader, whose exe link is gone once it exited alone (a
	 * zombie has no mm), while this thread's is not.
	 */
	execv("/proc/thread-self/exe", argv);
	agent_set(rep, 0, errno, "execv(/proc/thread-self/exe): %s", strerror(errno));
}

/* waitpid(@pid) as a real parent, then once more with WNOHANG. */
static void op_reap(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t pid = req->pid;
	struct wait_event ev;
	struct deadline dl;
	char what[96], evs[96];
	int r, status;

	(void)passfd;
	snprintf(what, sizeof(what), "exit report of pid %d to its parent %d", (int)pid,
		 (int)gettid());
	deadline_start(&dl, agent_timeout);
	r = wait_event_for(pid, &ev, &dl, what);
	if (r < 0) {
		agent_set(rep, 0, -r, "%s", ps_last_error());
		return;
	}
	rep->pid = pid;
	rep->status = ev.status;
	do {
		rep->second = waitpid(pid, &status, WNOHANG | __WALL);
	} while (rep->second < 0 && errno == EINTR);
	rep->second_errno = rep->second < 0 ? errno : 0;
	agent_set(rep, 1, 0, "waitpid(%d) = %s", (int)pid, wait_event_str(&ev, evs, sizeof(evs)));
}

/*
 * One waitid(WEXITED|WNOHANG|@req->arg) of P_PID @req->pid (P_ALL for 0):
 * rep->pid is si_pid (0: nothing to report yet), rep->status its status
 * as waitpid() would give it.  After a report that reaped (no WNOWAIT),
 * a second waitpid(si_pid, WNOHANG|__WALL), which must find nothing.
 * With AGENT_WAITID_PIDFD: waitid(P_PIDFD) of a PIDFD_NONBLOCK pidfd of
 * @req->pid, without WNOHANG (nothing yet is EAGAIN); a failed
 * pidfd_open() is reported with msg_val 1.
 */
static void op_waitid(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	int flags = WEXITED | WNOHANG | (int)req->arg, status, fd = -1, e;
	siginfo_t si;
	int r;

	(void)passfd;
	memset(&si, 0, sizeof(si));
	if (flags & AGENT_WAITID_PIDFD) {
		flags &= ~(AGENT_WAITID_PIDFD | WNOHANG);
		fd = (int)syscall(SYS_pidfd_open, req->pid, O_NONBLOCK /* PIDFD_NONBLOCK */);
		if (fd < 0) {
			rep->msg_val = 1;
			agent_set(rep, 0, errno, "pidfd_open(%d, PIDFD_NONBLOCK): %s",
				  (int)req->pid, strerror(errno));
			return;
		}
	}
	do {
		if (fd >= 0)
			r = waitid((idtype_t)3 /* P_PIDFD */, (id_t)fd, &si, flags);
		else
			r = waitid(req->pid ? P_PID : P_ALL, (id_t)req->pid, &si, flags);
	} while (r < 0 && errno == EINTR);
	e = errno;
	if (fd >= 0)
		close(fd);
	if (r < 0) {
		agent_set(rep, 0, e, "waitid(%s%d, %#x): %s", fd >= 0 ? "pidfd of " : "",
			  (int)req->pid, (unsigned int)flags, strerror(e));
		return;
	}
	rep->pid = si.si_pid;
	if (si.si_code == CLD_EXITED)
		rep->status = (si.si_status & 0xff) << 8;
	else if (si.si_code == CLD_DUMPED)
		rep->status = (si.si_status & 0x7f) | 0x80;
	else if (si.si_code == CLD_STOPPED || si.si_code == CLD_TRAPPED)
		rep->status = ((si.si_status & 0xff) << 8) | 0x7f;
	else if (si.si_code == CLD_CONTINUED)
		rep->status = 0xffff;
	else if (si.si_pid)
		rep->status = si.si_status & 0x7f;
	rep->second = 0;
	rep->second_errno = 0;
	if (si.si_pid && !(flags & WNOWAIT) &&
	    (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)) {
		do {
			rep->second = waitpid(si.si_pid, &status, WNOHANG | __WALL);
		} while (rep->second < 0 && errno == EINTR);
		rep->second_errno = rep->second < 0 ? errno : 0;
	}
	agent_set(rep, 1, 0, "waitid(%s%d, %#x) by %d: si_pid %d si_code %d si_status %d",
		  fd >= 0 ? "pidfd of " : "", (int)req->pid, (unsigned int)flags, (int)gettid(),
		  (int)si.si_pid, si.si_code, si.si_status);
}

static void op_ping(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)req;
	(void)passfd;
	agent_set(rep, 1, 0, "pong from %d", (int)gettid());
}

static void op_exit(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)rep;
	(void)passfd;
	syscall(SYS_exit, (int)req->arg);
}

static void op_exit_group(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)rep;
	(void)passfd;
	_exit((int)req->arg);
}

static void op_subreaper(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	if (prctl(PR_SET_CHILD_SUBREAPER, (unsigned long)req->arg, 0, 0, 0) < 0)
		agent_set(rep, 0, errno, "PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	else
		agent_set(rep, 1, 0, "subreaper %lld", (long long)req->arg);
}

static void op_setsid(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	pid_t r;

	(void)req;
	(void)passfd;
	r = setsid();
	if (r < 0)
		agent_set(rep, 0, errno, "setsid(): %s", strerror(errno));
	else
		agent_set(rep, 1, 0, "setsid() = %d", (int)r);
}

static void op_setpgid(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)req;
	(void)passfd;
	if (setpgid(0, 0) < 0)
		agent_set(rep, 0, errno, "setpgid(0, 0): %s", strerror(errno));
	else
		agent_set(rep, 1, 0, "setpgid(0, 0): pgid %d", (int)getpgid(0));
}

static void op_sigchld_act(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	struct sigaction sa;

	(void)passfd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = req->arg & SIGCHLD_IGNORE ? SIG_IGN : SIG_DFL;
	sa.sa_flags = req->arg & SIGCHLD_NOCLDWAIT ? SA_NOCLDWAIT : 0;
	if (sigaction(SIGCHLD, &sa, NULL) < 0)
		agent_set(rep, 0, errno, "sigaction(SIGCHLD): %s", strerror(errno));
	else
		agent_set(rep, 1, 0, "SIGCHLD %s%s in %d", req->arg & SIGCHLD_IGNORE ?
			  "SIG_IGN" : "SIG_DFL", req->arg & SIGCHLD_NOCLDWAIT ?
			  " SA_NOCLDWAIT" : "", (int)getpid());
}

static void op_pdeathsig(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)passfd;
	if (prctl(PR_SET_PDEATHSIG, (unsigned long)req->sig, 0, 0, 0) < 0)
		agent_set(rep, 0, errno, "PR_SET_PDEATHSIG %d: %s", (int)req->sig,
			  strerror(errno));
	else
		agent_set(rep, 1, 0, "pdeathsig %d of %d", (int)req->sig, (int)gettid());
}

static void op_traceme(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)req;
	(void)passfd;
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		agent_set(rep, 0, errno, "PTRACE_TRACEME: %s", strerror(errno));
	else
		agent_set(rep, 1, 0, "PTRACE_TRACEME by %d", (int)gettid());
}

/* The SIGCHLDs this process dequeued since the last ask (wait.c keeps them). */
static void op_sigchld_log(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)req;
	(void)passfd;
	rep->nsigchld = sigchld_log_take(rep->sigchld, AGENT_SIGCHLD_MAX, &rep->sigchld_lost);
	agent_set(rep, 1, 0, "%d SIGCHLDs logged by %d", rep->nsigchld, (int)getpid());
}

/*
 * An exit report this process could collect now, without collecting it
 * (WNOWAIT): rep->pid (0 if none) and si_code/si_status in msg_val.
 */
static void op_pending(const struct agent_req *req, struct agent_reply *rep, int *passfd)
{
	(void)req;
	(void)passfd;
	rep->pid = wait_pending(&rep->status);
	if (rep->pid < 0)
		agent_set(rep, 0, errno, "waitid(P_ALL, WNOWAIT): %s", strerror(errno));
	else
		agent_set(rep, 1, 0, "pending: %d", (int)rep->pid);
}

/* The agent's side of ops.def: one handler per request. */
static agent_op_fn *const handlers[OP_NR] = {
	[OP_PING] = op_ping,
	[OP_FORK] = op_fork,
	[OP_THREAD] = op_thread,
	[OP_EXIT] = op_exit,
	[OP_EXIT_GROUP] = op_exit_group,
	[OP_EXEC] = op_exec,
	[OP_SUBREAPER] = op_subreaper,
	[OP_SETSID] = op_setsid,
	[OP_SETPGID] = op_setpgid,
	[OP_SIGCHLD_ACT] = op_sigchld_act,
	[OP_PDEATHSIG] = op_pdeathsig,
	[OP_TRACEME] = op_traceme,
	[OP_REAP] = op_reap,
	[OP_WAITID] = op_waitid,
	[OP_SIGCHLD_LOG] = op_sigchld_log,
	[OP_PENDING] = op_pending,
	[OP_SEIZE] = op_seize,
	[OP_ATTACH] = op_attach,
	[OP_STOP] = op_stop,
	[OP_LISTEN] = op_listen,
	[OP_CONT] = op_cont,
	[OP_SYSCALL] = op_syscall,
	[OP_SINGLESTEP] = op_singlestep,
	[OP_DETACH] = op_detach,
	[OP_PTRACE_KILL] = op_ptrace_kill,
	[OP_PASS] = op_pass,
	[OP_WAIT_STOP] = op_wait_stop,
	[OP_FOLLOW] = op_follow,
	[OP_WAIT_TRACEE] = op_wait_tracee,
};

static void agent_loop(int fd)
{
	struct agent_reply rep;
	struct agent_req req;
	long long t0;
	ssize_t n;
	int passfd;

	cmd_fd = fd;
	for (;;) {
		n = recv(fd, &req, sizeof(req), 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* EOF: R is gone; the whole process goes with it. */
		if (n <= 0)
			_exit(PS_EXIT_HARNESS);
		/* A kick to end a recv() (syscall, singlestep): no reply. */
		if (n == sizeof(req) && req.magic == AGENT_MAGIC && req.op == OP_NOP)
			continue;
		t0 = ps_now_ns();
		memset(&rep, 0, sizeof(rep));
		passfd = -1;
		if (n != sizeof(req) || req.magic != AGENT_MAGIC || req.op >= OP_NR ||
		    !handlers[req.op]) {
			agent_set(&rep, 0, EINVAL, "agent %d: bad request (%zd bytes, op %u)",
				  (int)gettid(), n, n == sizeof(req) ? req.op : 0u);
		} else {
			agent_timeout = req.timeout > 0 ? req.timeout : ps_config.timeout_sec;
			handlers[req.op](&req, &rep, &passfd);
		}
		rep.busy_ns = ps_now_ns() - t0;
		send_reply(fd, &rep, passfd);
		if (passfd >= 0)
			close(passfd);
	}
}

int agent_exec_main(int argc, char **argv)
{
	char *end;
	int keep;
	long fd;

	if (argc != 3)
		return PS_EXIT_USAGE;
	fd = strtol(argv[2], &end, 10);
	if (*end || fd < 3)
		return PS_EXIT_USAGE;
	keep = (int)fd;
	close_fds_except(&keep, 1);
	agent_start(keep);
}

/* ---- R's side ---- */

int agent_send(int fd, const struct agent_req *req)
{
	struct agent_req r = *req;
	char buf[96];

	r.magic = AGENT_MAGIC;
	if (send(fd, &r, sizeof(r), MSG_NOSIGNAL) < 0) {
		int err = errno;

		ps_error("sending '%s' on fd %d: %s", agent_req_str(&r, buf, sizeof(buf)), fd,
			 strerror(err));
		return -err;
	}
	return 0;
}

/* One message with an optional fd or credentials, at the deadline at most. */
static ssize_t recv_msg(int fd, void *buf, size_t len, int *passfd, struct ucred *cr,
			const struct deadline *dl)
{
	union {
		char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	ssize_t n;
	int r;

	r = wait_readable(fd, dl);
	if (r < 0)
		return r;
	memset(&u, 0, sizeof(u));
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	do {
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		int err = errno;

		ps_error("recvmsg(fd %d): %s", fd, strerror(err));
		return -err;
	}
	if (n == 0) {
		ps_error("fd %d: end of file (the agent died)", fd);
		return -EPIPE;
	}
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET)
			continue;
		if (cm->cmsg_type == SCM_RIGHTS && passfd)
			memcpy(passfd, CMSG_DATA(cm), sizeof(int));
		if (cm->cmsg_type == SCM_CREDENTIALS && cr)
			memcpy(cr, CMSG_DATA(cm), sizeof(*cr));
	}
	return n;
}

int agent_reply(int fd, struct agent_reply *rep, int *newfd, const struct deadline *dl)
{
	ssize_t n;

	*newfd = -1;
	n = recv_msg(fd, rep, sizeof(*rep), newfd, NULL, dl);
	if (n < 0)
		return (int)n;
	if ((size_t)n != sizeof(*rep)) {
		ps_error("agent reply on fd %d: %zd bytes, expected %zu", fd, n, sizeof(*rep));
		return -EPROTO;
	}
	rep->msg[sizeof(rep->msg) - 1] = '\0';
	ps_prof.agent_ns += rep->busy_ns;
	return 0;
}

int agent_hello(int fd, pid_t *tid, pid_t *ns_tid, const struct deadline *dl)
{
	struct agent_hello h;
	struct ucred cr = { 0 };
	union {
		struct agent_hello h;
		struct agent_reply rep;	/* a failed execve() answers instead */
	} u;
	int one = 1;
	ssize_t n;

	/* Credentials travel with every message; SO_PASSCRED shows them. */
	setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));

	n = recv_msg(fd, &u, sizeof(u), NULL, &cr, dl);
	if (n < 0)
		return (int)n;
	if ((size_t)n == sizeof(u.rep) && !u.rep.ok) {
		u.rep.msg[sizeof(u.rep.msg) - 1] = '\0';
		ps_error("the agent answered instead of saying hello: %s", u.rep.msg);
		return -ECANCELED;
	}
	if ((size_t)n != sizeof(h) || u.h.magic != AGENT_MAGIC) {
		ps_error("agent hello on fd %d: %zd bytes, not a hello", fd, n);
		return -EPROTO;
	}
	h = u.h;
	*ns_tid = h.tid;
	if (h.creds_tid || h.tid == h.tgid)
		*tid = cr.pid;
	else
		*tid = h.tid;	/* unprivileged, hence R's namespace */
	return 0;
}
