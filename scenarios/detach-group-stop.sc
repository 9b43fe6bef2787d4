# Detach while the tracee is in (or is put into) a group stop.
#
# Pins down: PTRACE_DETACH with SIGSTOP from a SIGSTOP signal-delivery-stop
# of an attached tracee delivers the SIGSTOP after the unlink: the untraced
# process enters a real group stop (State T, every thread), from which only
# SIGCONT wakes it (kernel/ptrace.c ptrace_detach() sets ->exit_code to the
# signal, kernel/signal.c ptrace_signal()/do_signal_stop(); man 2 ptrace,
# "Attaching and detaching": "detach ... with SIGSTOP leaves the tracee
# stopped"; strace's detach-stopped, gdb's "detach" of a stopped
# inferior). A group-stopped untraced process keeps its stop and its
# PPid/TracerPid; a SIGCONT resumes every thread.
#
# Not expressed: seizing an already group-stopped process and detaching
# it (__ptrace_unlink() reinstating JOBCTL_STOP_PENDING): the engine models
# a freshly seized task as running, the kernel re-traps it (State t,
# ptrace_attach(): JOBCTL_TRAP_STOP) -- see the report.
scenario detach_group_stop
timeout 60
process A
tracer T
attach T A
detach T A SIGSTOP
expect tracer A none
expect state A stopped
check
kill A SIGCONT
expect state A running
# Threaded: detaching the leader with SIGSTOP stops the whole group.
process B threads 2
attach T B
detach T B SIGSTOP
expect state B stopped
expect state B.t1 stopped
expect state B.t2 stopped
check
kill B SIGCONT
expect state B.t2 running
# An untraced group stop, resumed: nothing else changes.
process C threads 1
kill C SIGSTOP
expect state C.t1 stopped
expect ppid C R
kill C SIGCONT
check
exit A
exit B 2
exit C 3
reap R A
reap R B
reap R C
check
