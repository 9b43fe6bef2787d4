# PTRACE_LISTEN's preconditions, and what a listening tracee shows.
#
# Pins down: ptrace_request() PTRACE_LISTEN (kernel/ptrace.c:1162-1186): EIO
# unless the tracee was seized and its stop is a PTRACE_EVENT_STOP (an
# attached one, a signal-delivery-stop, a syscall stop are EIO); a
# listening tracee stays in TASK_TRACED (State t) and refuses other
# requests (ptrace_freeze_traced(), :194-211: ESRCH) until
# PTRACE_INTERRUPT ends the listening.  (Issue 11, case 8.)
scenario listen_eio
timeout 60
tracer T
process A
attach T A
interrupt T A
listen T A fails EIO
cont T A
process B
seize T B sysgood
interrupt T B
syscall T B
listen T B fails EIO
cont T B
interrupt T B
listen T B
expect state B traced
cont T B fails ESRCH
interrupt T B
cont T B
check
