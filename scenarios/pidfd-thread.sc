# pidfd_open() of a thread that leads no group.
#
# Pins down: pidfd_prepare() accepts only a pid with a thread-group task
# (pid_has_task(pid, PIDTYPE_TGID), kernel/fork.c:2043-2048, called from
# pidfd_open() kernel/pid.c:624-643): a non-leader's tid gives EINVAL, a
# leader's works, live or zombie (pidfd.sc has the poll side).  Later
# kernels answer a non-leader differently (the host's gives ENOENT and
# has PIDFD_THREAD), so this runs on 6.1 only.  The same holds for
# waitid(P_PIDFD): a tracer waits for its tracee thread by P_PID only.
scenario pidfd_thread
kernel 6.1 "later kernels answer pidfd_open() of a non-leader with ENOENT"
timeout 60
process P threads 1
pidfd P.t1 fails EINVAL
pidfd P
exit P 0 thread
pidfd P
tracer T
seize T P.t1
waitid T P.t1 pidfd fails EINVAL
exit P.t1 4
expect state P.t1 zombie
process Q threads 1
exit Q 0 thread
pidfd Q.t1 fails EINVAL
exit Q.t1 5
reap R Q
reap T P.t1
reap R P
pidfd P
exit T
reap R T
check
