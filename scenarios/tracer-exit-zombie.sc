# The tracer exits while a tracee is a zombie whose report it never
# collected.
#
# Pins down: exit_ptrace() -> __ptrace_detach(): a zombie leader tracee
# whose real parent is another process is handed back to the real parent
# (do_notify_parent(), its report now owed to the real parent, exactly
# once); a traced zombie sub-thread is released (it was a zombie for its
# tracer only). kernel/ptrace.c __ptrace_detach(); historical bug: a
# traced CLONE_THREAD zombie kept alive after the tracer was killed (2004).
scenario tracer_exit_zombie
timeout 60
process P
process Z parent P
process W threads 2
tracer T
seize T Z
seize T W.t1
seize T W.t2
exit Z 7
expect state Z zombie
exit W.t1 3
expect state W.t1 zombie
# T dies without waiting: Z goes to P, W.t1 is released.
kill T SIGKILL
reap R T
expect state W.t1 gone
expect tracer W.t2 none
reap P Z
check
exit W 4
reap R W
exit P
reap R P
check
