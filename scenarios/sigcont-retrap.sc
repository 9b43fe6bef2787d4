# SIGCONT to a process whose only thread is a seized tracee: the re-trap.
#
# Pins down: prepare_signal() calls ptrace_trap_notify() for every seized
# thread on SIGCONT (kernel/signal.c:932-946): JOBCTL_TRAP_NOTIFY, and a
# wakeup of a tracee in PTRACE_LISTEN (:892-898).  A listening or running
# tracee traps at once, and do_jobctl_trap() -- no group stop in effect
# now -- reports PTRACE_EVENT_STOP with SIGTRAP, not the group-stop form
# (:2522-2533).  The SIGCONT itself is queued (a traced task ignores
# nothing, sig_ignored() :116) and comes as a signal-delivery-stop when
# the tracer resumes it (get_signal() :2772); let go instead, it is
# delivered untraced (and ignored, SIGCONT's default) once it runs.  The
# PTRACE_LISTEN/SIGCONT path of ptrace(2)'s "group-stop" section.
# Single-threaded only: which thread of a threaded group dequeues the
# SIGCONT is the kernel's choice.
scenario sigcont_retrap
timeout 120
process P
kill P SIGSTOP
expect state P stopped
tracer T
seize T P
expect state P traced
listen T P
expect state P traced
check
kill P SIGCONT
expect state P traced
check
cont T P
expect state P running
check
# a running tracee traps too, with no group stop before
kill P SIGCONT
expect state P traced
check
detach T P
expect state P running
expect tracer P none
check
# Let go with the SIGCONT queued and seized again at once: every step
# that untraced a task with a SIGCONT queued ends once the tracee
# dequeued it untraced (its /proc status no longer shows it pending); a
# seize before that would see the SIGCONT's signal-delivery-stop instead
# of a running tracee.
seize T P
kill P SIGCONT
expect state P traced
detach T P
seize T P
expect state P running
check
detach T P
# stopped again, listened, continued; its tracer exits with the SIGCONT
# queued (exit_ptrace() untraces it), and another tracer seizes it at once
tracer T2
kill P SIGSTOP
expect state P stopped
seize T P
listen T P
kill P SIGCONT
expect state P traced
exit T
seize T2 P
expect state P running
expect tracer P T2
reap R T
check
detach T2 P
expect tracer P none
check
kill P SIGKILL
reap R P
check
