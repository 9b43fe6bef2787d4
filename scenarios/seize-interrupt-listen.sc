# PTRACE_SEIZE, PTRACE_INTERRUPT and PTRACE_LISTEN.
#
# Pins down: PTRACE_SEIZE does not stop the tracee (no SIGSTOP, unlike
# PTRACE_ATTACH); PTRACE_INTERRUPT traps a running seized tracee in a
# PTRACE_EVENT_STOP (State t); PTRACE_LISTEN on that stop leaves it
# traced ("listening"), and a tracer exit wakes it (man 2 ptrace,
# "PTRACE_SEIZE", "PTRACE_LISTEN"; kernel/ptrace.c ptrace_request(),
# kernel/signal.c do_jobctl_trap()). Historical bug: the PTRACE_LISTEN
# race corrupting the task state (2017). Threaded: interrupts of single
# threads leave their siblings running.
# PTRACE_SINGLESTEP and a second PTRACE_SYSCALL (the syscall-exit-stop):
# the engine kicks the agent out of its recv() so the trap comes. A
# listening tracee refuses PTRACE_CONT/DETACH with ESRCH
# (ptrace_freeze_traced() checks JOBCTL_LISTENING) until PTRACE_INTERRUPT
# re-traps it.
scenario seize_interrupt_listen
timeout 60
process A
process B threads 2
tracer T
seize T A
expect state A running
expect tracer A T
interrupt T A
expect state A traced
cont T A
expect state A running
interrupt T A
syscall T A
expect state A traced
syscall T A
singlestep T A
singlestep T A
expect state A traced
cont T A
sleep 50
expect state A running
# Listening: cont and detach are refused until an interrupt re-traps it.
interrupt T A
listen T A
cont T A fails ESRCH
detach T A fails ESRCH
interrupt T A
cont T A
# Threads: one interrupted, the others run.
seize T B
seize T B.t1
seize T B.t2
interrupt T B.t1
expect state B.t1 traced
expect state B running
expect state B.t2 running
cont T B.t1
interrupt T B
interrupt T B.t2
detach T B
detach T B.t2
expect tracer B none
expect state B running
# Listen, then the tracer goes: the listener is let go and runs.
interrupt T A
listen T A
expect state A traced
interrupt T B.t1
listen T B.t1
quit T
reap R T
expect tracer A none
expect state A running
expect state B.t1 running
check
exit A
reap R A
exit B
reap R B
