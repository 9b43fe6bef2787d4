# A tracer that exits while its tracee sits in a PTRACE_SINGLESTEP trap
# kills the tracee: the step stays set.
#
# Pins down: exit_ptrace() -> __ptrace_detach() unlinks and wakes each
# tracee without ptrace_disable() (kernel/ptrace.c:567-589, 623-634);
# PTRACE_DETACH calls it (ptrace_detach(), :598) and every resume other
# than a step clears the step (ptrace_resume(), :870-880).  So a tracee
# left in its single-step trap goes back to user space untraced with TF
# still set, traps after one instruction, and the SIGTRAP, forced to
# SIG_DFL now that nobody traces it (force_sig_info_to_task(),
# kernel/signal.c:1330-1357), kills the whole group (a core dump where
# RLIMIT_CORE allows).  The same on this host's 6.18 (a C program outside
# ptstress shows it too).  Variants: a leader, a non-leader thread of a
# threaded group (the whole group dies), a tracer thread that exits alone,
# and the cases that live on: a detach, a cont or a syscall after the
# step, and an EXITKILL tracee (SIGKILL first).
scenario tracer_exit_singlestep
timeout 60
tracer T
process A
seize T A
interrupt T A
singlestep T A
expect state A traced
singlestep T A
quit T
check
reap R T
expect state A zombie
reap R A
check
# A thread of a threaded group: the group dies of it.
tracer U
process B threads 2
attach U B.t1
interrupt U B.t1
singlestep U B.t1
kill U SIGKILL
reap R U
expect state B.t1 gone
expect state B zombie
reap R B
check
# A tracer thread exits alone; its group lives on.
tracer V
thread V2 in V
process C
seize V2 C
interrupt V2 C
singlestep V2 C
exit V2 0 thread
expect state C zombie
reap R C
check
# These live on: a detach, a cont or a syscall after the step.
tracer W
process D
process E
process F
seize W D
interrupt W D
singlestep W D
detach W D
seize W E
interrupt W E
singlestep W E
cont W E
seize W F
interrupt W F
singlestep W F
syscall W F
quit W
reap R W
expect state D running
expect state E running
expect state F running
check
# EXITKILL: the SIGKILL is queued before the wakeup; it dies of that.
tracer X
process G
seize X G exitkill
interrupt X G
singlestep X G
quit X
reap R X
reap R G
exit D 1
reap R D
exit E 2
reap R E
exit F 3
reap R F
check
