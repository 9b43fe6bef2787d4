# The tracer exits while its tracees sit in a ptrace-stop.
#
# Pins down: __ptrace_unlink() wakes a TASK_TRACED tracee when no group
# stop is in effect (ptrace_signal_wake_up(child, true)): a seized tracee
# in PTRACE_EVENT_STOP (PTRACE_INTERRUPT) runs again (man 2 ptrace,
# "Death under ptrace": tracees are "automatically detached and
# restarted"). An attached tracee stopped in a SIGSTOP
# signal-delivery-stop is woken too; whether the SIGSTOP it stopped on is
# then delivered (a group stop, T) depends on ->exit_code surviving
# exit_ptrace() (kernel/signal.c ptrace_signal()): the host kernel does
# not deliver it, so the scenario does not assert either and sends a
# SIGCONT, after which it must run in both cases. rr's ptracer_death,
# strace's detach-stopped. Variants: unthreaded and threaded tracees.
# It covers the retired selftest's "tracer-exit-stopped" case.
scenario tracer_exit_stopped
timeout 60
process A
process B threads 1
process C
tracer T
seize T A
interrupt T A
seize T B.t1
interrupt T B.t1
attach T C
interrupt T C
expect state A traced
expect state B.t1 traced
expect state C traced
quit T
reap R T
expect tracer A none
expect state A running
expect state B.t1 running
expect tracer C none
# Running or group-stopped by the SIGSTOP it was stopped on: SIGCONT.
kill C SIGCONT
expect state C running
check
exit A
exit B
exit C
reap R A
reap R B
reap R C
check
