# PTRACE_DETACH (and PTRACE_CONT) with a signal.
#
# Pins down: the data argument of PTRACE_DETACH/PTRACE_CONT given in a
# signal-delivery-stop (here the SIGSTOP stop of an attached tracee) or in
# a syscall-stop is delivered to the tracee (ptrace_detach() sets
# ->exit_code, ptrace_signal() returns it; ptrace_report_syscall() sends it
# with send_sig()): a handled SIGUSR1 leaves it running, SIGTERM kills the
# whole group, reported killed(SIGTERM) to the real parent (man 2 ptrace,
# "Signal injection and suppression"). Detach with 0 suppresses it.
#
# Not expressed: the same from a PTRACE_EVENT_STOP of a seized tracee --
# the kernel ignores the signal there (ptrace_do_notify() drops
# ptrace_stop()'s return), the engine models it delivered -- see the report.
scenario detach_signal
timeout 60
tracer T
process A
attach T A
detach T A SIGUSR1
expect state A running
expect tracer A none
process B threads 2
attach T B
detach T B SIGTERM
reap R B
check
# From a syscall-stop: the signal is sent with send_sig().
process C
seize T C
interrupt T C
syscall T C
expect state C traced
detach T C SIGTERM
reap R C
# Continue with a signal, then detach with none.
process D threads 1
attach T D
interrupt T D
cont T D SIGUSR2
interrupt T D
detach T D
expect state D running
tkill D.t1 SIGUSR1
check
exit A
exit D
reap R A
reap R D
