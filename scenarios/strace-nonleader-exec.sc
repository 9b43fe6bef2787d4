# A non-leader thread execs under real `strace -f`.
#
# Pins down: de_thread() under a real tracer that follows every thread:
# strace sees the other threads exit and the exec'ing thread come back
# with the leader's pid (PTRACE_EVENT_EXEC, PTRACE_GETEVENTMSG's former
# tid); the process keeps its PPid, stays traced by strace until SIGINT,
# and runs untraced after. Historical: the exec of a multithreaded traced
# process deadlocking under `strace -f` (2020, de_thread() vs
# cred_guard_mutex); 247284481ca4; strace's threads-execve. Beside it, a
# ptstress tracer on another process whose real parent exits.
scenario strace_nonleader_exec
timeout 300
tracer T
process Q
process X parent Q
seize T X
process P threads 3
strace S P
exec P.t2
check
exit Q
reap R Q
expect ppid X R
expect tracer X T
stop S
expect tracer P none
expect ppid P R
check
exit P 5
reap R P
detach T X
exit X
reap R X
