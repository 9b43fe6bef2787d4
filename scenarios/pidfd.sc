# A pidfd polls readable when the whole thread group has exited.
#
# Pins down: pidfd_poll() reports POLLIN only once thread_group_exited():
# the task holding the pid is gone, or a zombie (exit_state set) whose
# thread group is empty -- every other thread released (pidfd_poll()
# kernel/fork.c:1940-1956, thread_group_exited() kernel/exit.c:1915-1926).
# A leader that exited before its threads does not make it readable,
# "similar to the wait(2) family" (delay_group_leader()); nor does the
# last thread's zombie while its tracer has not collected it (a traced
# thread stays on ->thread_group until release_task()).  pidfd_open()
# needs a thread-group leader, live or zombie (pidfd_prepare()
# kernel/fork.c:2043-2048); pidfd-thread.sc has the non-leader case.
scenario pidfd
timeout 120
process P threads 1
pidfd P
exit P 0 thread
expect state P zombie
pidfd P
tracer T
seize T P.t1
exit P.t1 3
expect state P.t1 zombie
pidfd P
reap T P.t1
pidfd P
reap R P
pidfd P
check
# A group exit: readable at once; opened on a zombie, too.
process Q threads 2
pidfd Q
kill Q SIGKILL
pidfd Q
process U
exit U 1
pidfd U
reap R Q
reap R U
pidfd U
pidfd Q
exit T
reap R T
check
