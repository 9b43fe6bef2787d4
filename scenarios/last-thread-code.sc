# The last thread to enter do_exit() sets the group's exit code.
#
# Pins down: synchronize_group_exit() (kernel/exit.c:798-812, called first
# in do_exit() :821): when the group's last live thread exits on its own,
# SIGNAL_GROUP_EXIT is set and group_exit_code is its code, so
# wait_task_zombie() (:1199-1200) reports every zombie of the group reaped
# afterwards with that code: the leader that exited with 4 is exited(6).
# The SIGCHLD release_task() sends for the leader (:266-281) carries the
# leader's own exit_code (do_notify_parent(), kernel/signal.c:2095-2103):
# 4, which the SIGCHLD check compares.  A traced thread reaped by its
# tracer before the last exit reports its own code; one reaped after, the
# group's.  (Issue 11, case 1.)  A later kernel changed the SIGCHLD: the
# host's 6.18 sends the group's code, 6, for the delayed leader.
scenario last_thread_code
kernel 6.1 "a delayed leader's SIGCHLD carries the group's exit code after 6.1 (6.18: 6)"
timeout 60
process P threads 1
exit P 4 thread
expect state P zombie
exit P.t1 6
reap R P
check
tracer T
process Q threads 2
seize T Q.t1
seize T Q.t2
exit Q.t1 5
reap T Q.t1
exit Q.t2 3
exit Q 7 thread
reap T Q.t2
reap R Q
check
