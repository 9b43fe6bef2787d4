# A real parent's WSTOPPED and WCONTINUED reports of an untraced child.
#
# Pins down: a completed group stop leaves ->group_exit_code (SIGSTOP)
# with SIGNAL_STOP_STOPPED (do_signal_stop() kernel/signal.c:2437-2438,
# task_participate_group_stop()); a WSTOPPED wait reports it to the real
# parent once, WNOWAIT leaves it (wait_task_stopped(), task_stopped_code()
# kernel/exit.c:1235-1329).  SIGCONT of a stopped group sets
# SIGNAL_STOP_CONTINUED and zeroes group_exit_code, so a stop report not
# taken yet is gone (prepare_signal() kernel/signal.c:955-972); WCONTINUED
# reports the continue once (wait_task_continued() kernel/exit.c:1337-1378);
# a new stop clears it (signal_set_stop_flags()), and so does a group exit
# (SIGNAL_GROUP_EXIT).  A leader zombie whose thread is stopped gives its
# stop report through the zombie (wait_consider_task() :1445-1467).
scenario wait_stopped
timeout 120
process P
process C parent P threads 1
waitid P C stopped
kill C SIGSTOP
expect state C stopped
waitid P C continued
waitid P C stopped nowait
waitid P stopped
waitid P C stopped
kill C SIGCONT
expect state C running
waitid P C continued nowait
waitid P continued
waitid P C continued stopped
check
# SIGCONT voids a stop report nobody took.
kill C SIGSTOP
kill C SIGCONT
waitid P C stopped
waitid P C continued
# A new stop clears a continue nobody took.
kill C SIGSTOP
kill C SIGCONT
kill C SIGSTOP
waitid P C continued
waitid P C stopped
check
# A group exit clears them both: the exit report comes.
kill C SIGCONT
kill C SIGSTOP
kill C SIGKILL
waitid P C stopped continued
waitid P fails ECHILD
check
# Through a leader zombie whose thread is stopped.
process D parent P threads 1
exit D 0 thread
expect state D zombie
kill D SIGSTOP
expect state D.t1 stopped
waitid P D stopped
waitid P D stopped
kill D SIGCONT
waitid P D continued
exit D.t1 0
waitid P D
check
exit P
reap R P
check
