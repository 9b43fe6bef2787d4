# A traced leader that exited alone loses its last thread to a pid
# namespace's zap.
#
# Pins down: release_task() of the last thread notifies the zombie
# leader's ->parent (kernel/exit.c:266-281), here its tracer from outside
# the namespace, not the init whose SIGCHLD zap_pid_ns_processes()
# ignores.  With an exit signal other than SIGCHLD whether that SIGCHLD
# is sent is the zap's race: the leader's real parent, killed by the same
# zap, may or may not have reparented it first (reparent_leader() sets
# SIGCHLD, :671); the model must owe none then, and accept one
# (guest fuzz seed 2 found it owing one).  The tracer collects the
# leader, whose report says its own exit code (the namespace's init
# reaps nothing it does not have).
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
# The same with SIGCHLD as the exit signal: a SIGCHLD may come at the
# release, on 6.1 with the leader's own code, later kernels the group's.
process P2 pidns
process B parent P2 threads 1
attach T B
exit B 2 thread
check
kill P2 SIGKILL
check
reap T B
check
