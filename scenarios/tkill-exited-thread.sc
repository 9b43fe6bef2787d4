# tgkill() of a thread that already exited: the signal is taken and
# never dequeued, so the thread's live siblings go on, even with SIGKILL.
#
# Pins down: a zombie thread keeps its pid until release_task(), so
# tgkill() finds it (do_send_specific()) and returns 0; the signal goes
# to the zombie's own pending set (PIDTYPE_PID), and complete_signal()
# wakes no one: wants_signal() is false with PF_EXITING and a
# thread-directed signal is never handed to a sibling (kernel/signal.c:
# 991-992, 1015-1021). kill() of the same pid (PIDTYPE_TGID) does find a
# live thread and kills the group. SIGCONT is the exception: it acts in
# prepare_signal() (:932-973), before anything is queued. Two zombies
# stay behind with live siblings: a leader that exited first
# (leader-exits-first.sc) and a traced thread its tracer has not reaped
# (exit_notify(), kernel/exit.c:745-750).
scenario tkill_exited_thread
timeout 60
tracer T
# The leader exited first; SIGKILL and SIGTERM to it, then SIGSTOP.
process P threads 1
exit P 3 thread
expect state P zombie
tkill P SIGKILL
tkill P SIGTERM
tkill P SIGSTOP
expect state P.t1 running
check
# The live thread still takes signals: SIGSTOP stops the group, SIGCONT
# continues it.
tkill P.t1 SIGSTOP
expect state P.t1 stopped
tkill P.t1 SIGCONT
expect state P.t1 running
check
# kill() of the group's pid finds the live thread: the group dies.
kill P SIGKILL
expect state P.t1 gone
reap R P
# A traced thread's zombie, waiting for its tracer: SIGKILL to it.
process Q threads 1
seize T Q.t1
exit Q.t1 4
expect state Q.t1 zombie
tkill Q.t1 SIGKILL
expect state Q running
check
# Its end: T collects Q.t1, then R collects Q (exit 5).
detach T Q
exit Q 5
check
