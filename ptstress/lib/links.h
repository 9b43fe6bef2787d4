/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers for /proc/<pid>/task/<tid>/ptrace_links (patched kernels only)
 * and /proc/<pid>/task/<tid>/status.
 */
#ifndef PTSTRESS_LINKS_H
#define PTSTRESS_LINKS_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * One ptrace_links file, as printed by proc_tid_ptrace_links(): every id is
 * a thread id in the reader's pid namespace, 0 if none or not visible.
 */
struct ptrace_links {
	pid_t tid;		/* the thread itself */
	pid_t tgid;		/* its thread group */
	pid_t leader;		/* ->group_leader */
	pid_t parent;		/* ->parent: the tracer while traced, else ->real_parent */
	pid_t real_parent;	/* ->real_parent: who gets the exit report when untraced */
	unsigned long ptrace;	/* ->ptrace flags (PT_PTRACED, PT_SEIZED, ...); 0 if untraced */
	pid_t tracer;		/* owner of the ->ptraced list we are on; 0 none; -1 orphan list */
	unsigned long ptraced;	/* entries on this thread's own ->ptraced list */
	unsigned long children;	/* entries on this thread's ->children list */
	int sibling_linked;	/* ->sibling is on some ->children list */
	int exit_state;		/* EXIT_ZOMBIE (0x20), EXIT_DEAD (0x10) or 0 */
	int exit_signal;	/* signal sent to ->real_parent on exit; -1 for threads */
	int exiting;		/* PF_EXITING is set */
};

/* Where and why a parse failed. */
struct parse_error {
	int line;		/* 1-based line number; 0 = the input as a whole */
	char msg[320];		/* what was wrong, naming the key and the file */
};

/*
 * Parse the text of one ptrace_links file.  Every key is required, unknown
 * keys are ignored (newer kernels may add some).  Returns 0 or -EINVAL.
 */
int links_parse(const char *buf, struct ptrace_links *out, struct parse_error *err);

/*
 * Read and parse /proc/<pid>/task/<tid>/ptrace_links.  Returns 0, -ENOENT if
 * the thread exists but the kernel has no such file, -ESRCH if the thread
 * does not exist, -EINVAL if malformed, or another -errno.
 */
int links_read(pid_t pid, pid_t tid, struct ptrace_links *out, struct parse_error *err);

/* A task's /proc file kept open between reads (the *_read_cached() calls). */
struct proc_fd {
	int fd;			/* open /proc/PID/task/TID/FILE, or -1 */
	pid_t pid, tid;		/* the numbers it was opened for */
};
/*
 * links_read() through @c: the file opened once (again when @pid/@tid
 * change) and read from its start each time, which saves the open, the
 * close and the path walk of every check.  The open file stays with the
 * task it was opened for, so the first read after its release is ESRCH
 * (its pid may be another's by then).  A read that fails closes it; past
 * PROC_FD_MAX open files, and when open() fails, the read is by path.
 */
int links_read_cached(pid_t pid, pid_t tid, struct proc_fd *c, struct ptrace_links *out,
		      struct parse_error *err);
void proc_fd_close(struct proc_fd *c);

/* Does the running kernel provide ptrace_links?  (Probes our own thread.) */
bool links_supported(void);

/* The fields of /proc/<pid>/task/<tid>/status that ptstress checks. */
struct proc_status {
	char state;		/* State: letter (R, S, D, T, t, Z, X, ...) */
	pid_t tgid;		/* Tgid: */
	pid_t ppid;		/* PPid: ->real_parent's tgid (0 if none visible) */
	pid_t tracer_pid;	/* TracerPid: tgid of ptrace_parent(), 0 if untraced */
};

int status_parse(const char *buf, struct proc_status *out, struct parse_error *err);
/* Returns 0, -ESRCH if the thread does not exist, -EINVAL or -errno. */
int status_read(pid_t pid, pid_t tid, struct proc_status *out, struct parse_error *err);
/* status_read() through @c, as links_read_cached(). */
int status_read_cached(pid_t pid, pid_t tid, struct proc_fd *c, struct proc_status *out,
		       struct parse_error *err);


/*
 * /proc/<tid>/status's NSpid: the tid in each pid namespace from /proc's
 * down to its own, into @out.  The count, -ESRCH, -ERANGE or -errno.
 */
int status_nspid(pid_t tid, pid_t *out, int max);

/*
 * The signals pending for the thread, SigPnd | ShdPnd of its status (bit
 * N-1 for signal N).  0, -ESRCH, -EINVAL or -errno.
 */
int status_pending(pid_t pid, pid_t tid, unsigned long long *mask);

/* The flags field of /proc/<pid>/task/<tid>/stat (PF_*).  0, -ESRCH or -errno. */
int stat_flags(pid_t pid, pid_t tid, unsigned long *flags);
#define PS_PF_EXITING	0x00000004	/* include/linux/sched.h: PF_EXITING */

/*
 * /proc/<pid>/syscall (proc_pid_syscall()): the number of the system call
 * the task is blocked in, into *@nr; -1 when it is blocked outside one,
 * PS_SYSCALL_RUNNING when it runs.  0, -ESRCH, -EINVAL or -errno.
 */
int syscall_parse(const char *buf, long *nr);
int syscall_read(pid_t pid, long *nr);
#define PS_SYSCALL_RUNNING	(-2L)

/* MemTotal and MemAvailable of /proc/meminfo, in kB.  0 or -errno. */
int meminfo_read(long *total_kb, long *avail_kb);

#endif /* PTSTRESS_LINKS_H */
