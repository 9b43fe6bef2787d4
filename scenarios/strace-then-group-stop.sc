# A group stop after a real strace session ended, then tracers that
# re-trap the stopped process.
#
# Pins down: strace's SIGINT cleanup detaches its tracees running
# (PTRACE_INTERRUPT, PTRACE_DETACH, no SIGSTOP), so their State is
# checked again from then on: a SIGSTOP's group stop must complete (T)
# before the next step, and PTRACE_SEIZE of the stopped process then
# re-traps it with a group-stop trap (ptrace_attach(): task_is_stopped(),
# JOBCTL_TRAP_STOP | JOBCTL_TRAPPING, kernel/ptrace.c:481-485), an attach
# with the re-trap and its SIGSTOP.  ptstress once left the strace's
# tracees unchecked for good, and the seize raced the group stop (fuzz,
# host soak seeds 2 and 14: "no group-stop trap", "not trapped when the
# attach returned").
scenario strace_then_group_stop
timeout 300
tracer T
tracer U
process P threads 1
exit P.t1
repeat 8
  strace S P
  stop S
  kill P SIGSTOP
  seize U P
  cont U P
  detach U P
  attach T P
  detach T P
  kill P SIGCONT
end
check
exit P 3
reap R P
