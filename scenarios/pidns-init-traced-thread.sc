# A namespace's init waits for its own traced zombie thread.
#
# Pins down: zap_pid_ns_processes() (kernel/pid_namespace.c:245-267) sleeps
# (TASK_IDLE, State I; S in kernel_wait4() before) until pid_allocated is
# down to the init's own pids; a traced thread of the init's group that
# exited is a zombie for its tracer (exit_notify()) and keeps its pid
# until the tracer's wait (release_task()): only then does the init become
# a zombie for its parent.  (Issue 11, case 5.)
scenario pidns_init_traced_thread
timeout 60
tracer T
process N pidns threads 1
seize T N.t1
exit N.t1 3
expect state N.t1 zombie
exit N
check
reap T N.t1
expect state N zombie
reap R N
check
