# PTRACE_SEIZE of a group-stopped task: the re-trap.
#
# Pins down: ptrace_attach() finds a task in TASK_STOPPED, sets
# JOBCTL_TRAP_STOP | JOBCTL_TRAPPING and wakes it, and waits until the
# task has trapped (kernel/ptrace.c:466-485,495-505): when PTRACE_SEIZE
# returns, the task is in a ptrace stop (t), and its tracer's wait reports
# group-stop(SIGSTOP) with PTRACE_EVENT_STOP, the group stop being in
# effect (do_jobctl_trap() kernel/signal.c:2522-2533).  Only the seized
# thread moves: its siblings stay group-stopped (T).  Resumed, it runs
# while its group stays stopped; let go, it stops again with its group
# (__ptrace_unlink(), the group-stop rules).
scenario seize_group_stopped
timeout 120
process P threads 1
kill P SIGSTOP
expect state P stopped
expect state P.t1 stopped
tracer T
seize T P.t1
expect state P.t1 traced
expect state P stopped
check
cont T P.t1
expect state P.t1 running
expect state P stopped
check
detach T P.t1
expect state P.t1 stopped
check
seize T P
expect state P traced
check
detach T P
expect state P stopped
kill P SIGCONT
expect state P running
expect state P.t1 running
check
kill P SIGKILL
reap R P
exit T
reap R T
check
