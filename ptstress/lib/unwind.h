/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A user-space backtrace of one thread for a failure report: when a task
 * does not reach the state the model expects ("stuck tracee"), the report
 * should say where in user space it is, not only its /proc state.
 */
#ifndef PTSTRESS_UNWIND_H
#define PTSTRESS_UNWIND_H

#include <stddef.h>
#include <sys/types.h>

/* How long unwind_task() waits for the thread to stop for it. */
#define UNWIND_STOP_SEC		5

/*
 * Write a report on thread @tid of thread group @tgid into @out (always
 * NUL-terminated, truncated to @len).  The first line names the thread and
 * its State: from /proc status as it was before we touched it.
 *
 * The caller becomes the thread's tracer for the duration of the call
 * (PTRACE_SEIZE without options, PTRACE_INTERRUPT, a poll of
 * waitpid(WNOHANG | __WALL) for the PTRACE_EVENT_STOP for up to
 * UNWIND_STOP_SEC, re-injecting any signal-delivery-stop on the way),
 * unwinds it with libunwind-ptrace, one "#N 0xIP name+0xOFF" line a frame,
 * and detaches.  The thread is left as it was found: running, sleeping, or
 * in the group-stop it was in.
 *
 * Returns:
 *   0        a backtrace;
 *   1        no backtrace, but /proc text in its place: the thread is traced
 *            by someone else (PTRACE_SEIZE said EPERM), a zombie, in an
 *            uninterruptible sleep (it could not stop for us), in our own
 *            thread group, or libunwind found no frame.  The text has the
 *            reason ("traced by TracerPid N: no user-space unwind", ...),
 *            then /proc/TGID/task/TID/syscall, wchan and, if readable,
 *            stack (the kernel stack);
 *   -errno   failure, with @out saying why: -ESRCH the thread does not exist
 *            or exited during the call, -ETIMEDOUT it did not stop in time,
 *            -EINVAL bad arguments, or PTRACE_SEIZE's error.
 *
 * Caveats, for the caller:
 *  - The caller is often the thread's real parent or its subreaper.  A
 *    waitpid(tid) by the parent could consume the exit report meant for the
 *    engine's model, so this function only ever polls with
 *    WNOHANG | __WALL while it is the tracer, never blocks, and if what it
 *    reaps is an exit report, returns -ESRCH with "exited during the
 *    unwind" in @out: if the caller was the parent of a thread-group
 *    leader, that exit status has been consumed here, and the caller's
 *    own wait for it will not see it.  The caller reports a finding for
 *    the thread anyway.
 *  - The caller gets SIGCHLD for the stops it causes.
 *  - A ptrace tracee can only be detached while stopped.  If the thread
 *    never stops (it went into an uninterruptible sleep between our State
 *    check and the seize), -ETIMEDOUT says it is still traced by the
 *    caller; it is untraced when the caller exits.
 */
int unwind_task(pid_t tgid, pid_t tid, char *out, size_t len);

#endif /* PTSTRESS_UNWIND_H */
