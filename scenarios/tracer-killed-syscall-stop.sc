# The tracer is killed while a tracee is in a syscall-stop.
#
# Pins down: a SIGKILLed tracer's exit_ptrace() unlinks a tracee sitting
# in a syscall-enter/exit-stop (TASK_TRACED) and wakes it
# (__ptrace_unlink(): ptrace_signal_wake_up()); the tracee completes its
# syscall and runs on untraced, TracerPid 0; with PTRACE_O_EXITKILL it is
# SIGKILLed instead. The tracer's own exit report goes to R once.
# Historical: CVE-2013-0871 (a ptrace request racing with SIGKILL waking a
# tracee not in TASK_TRACED); rr's ptracer_death. Variants: a process, a
# non-leader thread, a tracer thread of a threaded tracer, EXITKILL.
# (Only syscall-enter stops: the agent's next syscall, recv(), blocks, so
# a second PTRACE_SYSCALL's exit stop would not come.)
scenario tracer_killed_syscall_stop
timeout 60
tracer T
process A
process B threads 2
seize T A
interrupt T A
syscall T A
expect state A traced
attach T B.t1
interrupt T B.t1
syscall T B.t1
kill T SIGKILL
reap R T
expect tracer A none
expect state A running
expect state B.t1 running
check
# A tracer thread holds it; the tracer process is killed.
tracer U
thread U2 in U
process C
seize U2 C exitkill
interrupt U2 C
syscall U2 C
kill U SIGKILL
reap R U
reap R C
# The tracees live on: their exits go to R.
exit A 3
reap R A
exit B.t1 1
exit B 4
reap R B
check
