# A traced leader that exited alone loses its last thread to a pid
# namespace's zap.
#
# Pins down: release_task() of the last thread notifies the zombie
# leader's ->parent (kernel/exit.c:268-280), here its tracer from outside
# the namespace, not the init whose SIGCHLD zap_pid_ns_processes()
# ignores.  With an exit signal other than SIGCHLD whether that SIGCHLD
# is sent is the zap's race: the leader's real parent, killed by the same
# zap, may or may not have reparented it first (reparent_leader() sets
# SIGCHLD, :671); the model must owe none then, and accept one
# (guest fuzz seed 2 found it owing one).  The tracer collects the
# leader, whose wait report says the zap's SIGKILL (wait_task_zombie()
# takes group_exit_code, :1199-1200; the namespace's init reaps nothing
# it does not have).
scenario pidns_zap_traced_lone_leader
timeout 60
tracer T
process P pidns
process A parent P threads 1
process Q parent A.t1 threads 1 exit-signal none
seize T Q
exit Q 3 thread
check
kill P SIGKILL
check
reap T Q
# The same with SIGCHLD as the exit signal: a SIGCHLD is owed at the
# release, on 6.1 with the leader's own code (do_notify_parent(), signal.c
# :2095-2103), on later kernels the group's.
process P2 pidns
process B parent P2 threads 1
attach T B
exit B 2 thread
check
kill P2 SIGKILL
check
reap T B
check
