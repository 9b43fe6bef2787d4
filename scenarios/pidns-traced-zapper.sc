# The thread that tears a pid namespace down is traced.
#
# Pins down: the last init thread runs zap_pid_ns_processes() inside
# exit_notify() (kernel/exit.c:739 -> :702 -> :613) before it has an
# exit_state: it sleeps (State S/I, TracerPid its tracer) until the
# namespace drained, and only then is a zombie for its tracer (:744-750).
# The namespace's other task, traced from outside, must be collected by
# its tracer first.  (Issue 11, case 10.)
scenario pidns_traced_zapper
timeout 60
tracer T
tracer U
process N pidns threads 1
process A parent N
seize T N.t1
seize U A
exit N thread
exit N.t1
check
reap U A
expect state N.t1 zombie
reap T N.t1
reap R N
check
