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
# waitid(P_PIDFD) waits for the pidfd's pid as P_PID does; the agent
# opens it PIDFD_NONBLOCK and calls waitid() without WNOHANG, so nothing
# to report yet is EAGAIN, not si_pid 0 (kernel_waitid()
# kernel/exit.c:1699-1723): last section.
scenario pidfd
timeout 120
process P threads 1
pidfd P
exit P 0 thread
expect state P zombie
pidfd P
tracer T
seize T P.t1
# The same code as P's own: the SIGCHLD that reap T P.t1 makes
# release_task() send for P carries P's code on 6.1 and the group's
# (the last thread's) on later kernels (last-thread-code.sc pins that).
exit P.t1 0
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
# waitid(P_PIDFD): EAGAIN while the leader lives, while it waits behind
# its thread, and while that thread's zombie waits for its tracer;
# ECHILD for a waiter that is not the parent (pidfd-thread.sc: a
# thread has no pidfd to wait through).
process A
process V parent A threads 1
waitid A V pidfd fails EAGAIN
tracer W
seize W V.t1
waitid W V pidfd fails ECHILD
exit V 5 thread
waitid A V pidfd fails EAGAIN
waitid A V fails ECHILD wclone
exit V.t1 6
expect state V.t1 zombie
waitid A V pidfd fails EAGAIN
waitid W V.t1
waitid A V pidfd nowait
waitid A V pidfd
expect state V gone
exit W
reap R W
exit A
reap R A
check
