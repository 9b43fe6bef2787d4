# A non-leader thread execve()s while the process is traced.
#
# Pins down: de_thread() kills the other threads, the old leader is
# released without an exit report (EXIT_DEAD, release_task()), the
# exec'ing thread takes over the leader's pid (exchange_tids()) and keeps
# PPid; its tracer sees PTRACE_EVENT_EXEC (or the legacy SIGTRAP) under
# the thread group id (fs/exec.c
# de_thread(); man 2 ptrace, "execve(2) under ptrace"; rr's
# exec_from_other_thread, strace's threads-execve). Historical bugs:
# de12a7878c11 (old leader left on the lists), 247284481ca4 (a ptraced
# zombie lost on exec), dbb5afad100a (PTRACE_CONT to the old leader resumes
# the new thread).
#
# Not expressed: a traced sibling thread besides the exec'ing one.
# de_thread() waits until every other sub-thread is released
# (__exit_signal() counts down ->notify_count), and a traced one is a
# zombie until its tracer reaps it; the engine's tracer only waits for the
# exec stop, so the exec never finishes -- see the report.
scenario nonleader_exec
timeout 60
tracer T
# Leader and exec'ing thread traced, exec event; an untraced sibling.
process P threads 2
seize T P traceexec
seize T P.t1 traceexec
exec P.t1
expect ppid P R
expect tracer P T
check
# Only the exec'ing thread traced, legacy PTRACE_ATTACH: SIGTRAP after exec.
process Q parent P threads 2
attach T Q.t2
exec Q.t2
expect ppid Q P
check
# Untraced, the exec'ing thread is the last one created.
process S threads 3
exec S.t3
check
# A parent that exec'd from a thread still reaps its child once.
detach T Q
exit Q 4
reap P Q
exit S
reap R S
detach T P
exit P
reap R P
check
