# A traced leader killed by a sibling's execve(), while its tracer has a
# SIGCHLD pending: the notification is dropped, and the pid's next
# SIGCHLD is the new process's own exit.
#
# Pins down: de_thread() kills the leader (zap_other_threads()); the
# leader, traced, notifies its tracer with SIGCHLD although its group is
# not empty (exit_notify(), kernel/exit.c:745-750), with exit code 0
# (do_group_exit() while ->group_exec_task is set). The exec'ing thread
# then takes over the leader's pid (exchange_tids(), fs/exec.c:1134).
# SIGCHLD is a legacy signal: one sent while another is pending is
# dropped (legacy_queue(), kernel/signal.c:1079, 1105), so a tracer that
# has not dequeued Q's CLD_STOPPED never sees the old leader's exit. The
# next SIGCHLD with P's pid is then P's exit with 3, which is not the
# old leader's notification with a wrong status.
#
# Found by fuzz on the clean kernel (docs/fuzz.md, session 18): the
# engine took the new leader's exit for the old leader's and reported a
# wrong status. The second part is the same without a pending SIGCHLD.
scenario exec_pending_sigchld
timeout 60
tracer T
process P threads 1
process Q
# Q's group stop, seized: T gets CLD_STOPPED and leaves it pending.
kill Q SIGSTOP
seize T Q
expect state Q traced
# The leader traced, the untraced thread execs: the old leader is gone,
# the new leader untraced.
seize T P
exec P.t1
expect tracer P none
expect ppid P R
attach T P exitkill
exit P 3
check
# Again with nothing pending: the old leader's SIGCHLD (status 0) and the
# exit's (status 3) both come.
detach T Q
process S threads 2
seize T S
exec S.t2
expect tracer S none
attach T S
exit S 5
check
