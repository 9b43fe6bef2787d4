# PTRACE_ATTACH of a group-stopped task: the re-trap, then the SIGSTOP.
#
# Pins down: ptrace_attach() queues SIGSTOP for a PTRACE_ATTACH
# (kernel/ptrace.c:459-460), finds the task in TASK_STOPPED, sets
# JOBCTL_TRAP_STOP | JOBCTL_TRAPPING and wakes it (:481-485), and waits
# for the trap (:503): the stop is reportable when the attach returns.  For an attached (not seized) tracee
# do_jobctl_trap() reports the group stop as a plain SIGSTOP stop with no
# siginfo (ptrace_stop(signr, CLD_STOPPED, 0, NULL), kernel/signal.c:
# 2534-2536; PTRACE_GETSIGINFO says EINVAL, ptrace_getsiginfo() :713).
# Resumed, the task dequeues the queued SIGSTOP: a signal-delivery-stop
# with siginfo (get_signal() :2772); resumed with 0, it runs although its
# group stays stopped -- nothing sets JOBCTL_STOP_PENDING again while it
# is traced.  The attach op takes both stops (PTRACE_ATTACH's classic
# "the second SIGSTOP" a debugger must swallow).  Let go -- by detach or
# by its tracer's exit -- it stops again with its group (__ptrace_unlink()).
# Threads and leaders, a threaded and a single-threaded group.
scenario attach_group_stopped
timeout 120
process P threads 1
kill P SIGSTOP
expect state P stopped
expect state P.t1 stopped
tracer T
attach T P.t1
expect tracer P.t1 T
expect state P.t1 running
expect state P stopped
check
detach T P.t1
expect state P.t1 stopped
check
attach T P
expect state P running
expect state P.t1 stopped
check
interrupt T P
expect state P traced
cont T P
expect state P running
check
detach T P
expect state P stopped
kill P SIGCONT
expect state P running
expect state P.t1 running
check
# a single-threaded group, let go by its tracer's exit
process Q
kill Q SIGSTOP
expect state Q stopped
tracer U
attach U Q
expect state Q running
check
exit U
reap R U
expect tracer Q none
expect state Q stopped
check
kill Q SIGKILL
reap R Q
kill P SIGKILL
reap R P
exit T
reap R T
check
