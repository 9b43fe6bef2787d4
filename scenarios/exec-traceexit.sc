# execve() by a thread whose leader and siblings are traced with TRACEEXIT.
#
# Pins down: de_thread() (fs/exec.c:1047-1106) kills the other threads;
# each one traced with PTRACE_O_TRACEEXIT stops in PTRACE_EVENT_EXIT
# (do_exit() kernel/exit.c:829; get_signal() dropped the SIGKILL at
# kernel/signal.c:2720-2725, so ptrace_stop() :2251 does stop) and the exec
# waits until its tracer lets it go; then the old leader is released with
# no report and the thread takes its pid.  Every thread killed by SIGKILL,
# exit_group() or namespace teardown stops there too.  (Issue 11, cases 6
# and 7.)
scenario exec_traceexit
timeout 60
tracer T
process P threads 2
seize T P traceexit
seize T P.t2 traceexit
exec P.t1
check
process B threads 2
seize T B traceexit
seize T B.t1 traceexit
kill B SIGKILL
reap T B.t1
reap T B
reap R B
process N pidns
process A parent N threads 1
seize T A traceexit
exit N
reap T A
reap R N
check
