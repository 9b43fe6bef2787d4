# execve() resets the exit signal; the parent's execve() turns it into SIGCHLD.
#
# Pins down: de_thread() sets the execing thread's exit_signal to SIGCHLD,
# for a leader's exec and for a non-leader's that takes the leader's place
# ("we have changed execution domain", fs/exec.c:1145,1169); and
# do_notify_parent() sends SIGCHLD instead of a child's own exit signal
# when its parent thread exec'd since the fork (->parent_exec_id against
# the parent's ->self_exec_id, kernel/signal.c:2062-2068, bumped by
# begin_new_exec(), fs/exec.c:1403), though exit_signal itself stays.
# Seen through ptrace_links' exit_signal (guest) and the parent's SIGCHLD
# log: the parents here are agents, which log every SIGCHLD they get.
scenario exec_exit_signal
timeout 90
process A
process B parent A exit-signal SIGRTMAX threads 1
exec B.t1
check
exit B 5
reap A B
check
process C parent A exit-signal SIGRTMAX
exec C
check
exit C 6
reap A C
check
process D parent A exit-signal SIGRTMAX
exec A
check
exit D 7
reap A D
check
# A thread of a process that exec'd: its self_exec_id is the execing thread's.
process F parent A exit-signal none
exit F 8
reap A F
check
exit A
reap R A
