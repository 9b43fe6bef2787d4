# PTRACE_KILL and PTRACE_INTERRUPT on an exited tracee.
#
# Pins down: sys_ptrace() passes ignore_state for KILL and INTERRUPT
# (kernel/ptrace.c:1301-1302): ptrace_check_attach() only wants our tracee,
# and a zombie thread still is one until its tracer's wait, so both return
# 0: PTRACE_KILL's SIGKILL goes nowhere (complete_signal(), kernel/signal.c
# :1016-1021), PTRACE_INTERRUPT of a seized exiting task does nothing
# (task_set_jobctl_pending() :290-291).  After the tracer's wait: ESRCH.
# (Issue 11, case 11.)
scenario ptrace_kill_zombie
timeout 60
tracer T
process P threads 1
seize T P.t1
exit P.t1 3
expect state P.t1 zombie
ptrace-kill T P.t1
interrupt T P.t1
check
reap T P.t1
ptrace-kill T P.t1 fails ESRCH
check
