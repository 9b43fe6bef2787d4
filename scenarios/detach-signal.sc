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
# PTRACE_CONT with a signal from a syscall-stop is another matter: the
# signal is sent (send_sig()), and a tracee that stays traced dequeues it
# and stops for it again, a signal-delivery-stop its tracer waits for
# (get_signal() -> ptrace_signal()); continued with it from there, it is
# delivered -- to a thread, and SIGTERM kills the whole group.
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
# PTRACE_CONT with a signal from a syscall-stop: it stops again for it.
process E
seize T E
interrupt T E
syscall T E
cont T E SIGUSR1
expect state E traced
check
cont T E SIGUSR1
expect state E running
process F threads 2
attach T F.t1
interrupt T F.t1
syscall T F.t1
cont T F.t1 SIGTERM
expect state F.t1 traced
check
cont T F.t1 SIGTERM
reap T F.t1
reap R F
check
exit A
exit D
reap R A
reap R D
