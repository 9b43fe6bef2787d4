# A group stop with a traced sibling thread.
#
# Pins down: do_signal_stop() (kernel/signal.c:2402-2503): the SIGSTOP
# delivered by PTRACE_DETACH (ptrace_detach(), ptrace_signal()) starts a
# group stop; the untraced threads stop (State T), a traced running sibling
# is woken and traps (do_jobctl_trap() :2522-2536): State t, its tracer
# sees PTRACE_EVENT_STOP with SIGSTOP when seized.  When its tracer lets
# it go, __ptrace_unlink() (kernel/ptrace.c:145-168) sees the group stop in
# effect: it stops untraced, State T, not running.  SIGCONT wakes them all.
# (Issue 11, case 4, and the state after an untrace.)
scenario group_stop_traced_sibling
timeout 60
tracer T
tracer U
process B threads 2
attach T B
seize U B.t1
detach T B SIGSTOP
expect state B stopped
expect state B.t1 traced
expect state B.t2 stopped
check
detach U B.t1
expect state B.t1 stopped
check
kill B SIGCONT
check
exit B 0
reap R B
check
