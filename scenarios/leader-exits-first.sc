# The thread group leader exits (SYS_exit, alone) before its threads,
# while traced.
#
# Pins down: the leader becomes a zombie at once (exit_notify(): State Z)
# but its exit report is delayed until the group is empty
# (delay_group_leader(), wait_consider_task()); a traced leader's report
# goes to its tracer first, then to the real parent, each once; the live
# threads keep PPid and TracerPid; attaching to the zombie leader is EPERM
# (ptrace_attach(): ->exit_state) while its live threads can be attached.
# rr's main_thread_exit; gdb's leader-exit-attach and
# process-exit-status-is-leader-exit-status.
scenario leader_exits_first
timeout 60
tracer T
tracer U
# Traced leader and threads.
process P threads 2
seize T P
seize T P.t1
exit P thread
expect state P zombie
expect tracer P.t1 T
expect ppid P.t2 R
attach U P fails EPERM
attach U P.t2
check
exit P.t1 3
detach U P.t2
exit P.t2 0
check
# Untraced leader (exit code 2), tracers attach to the orphaned threads;
# the threads end with SYS_exit 3 and 5: no group exit, but the last
# thread's exit sets the group's code (synchronize_group_exit(),
# kernel/exit.c:798-812), so R gets exited(5) for Q.
process Q threads 2
exit Q 2 thread
seize T Q.t1
seize U Q.t2
quit T
reap R T
expect tracer Q.t1 none
exit Q.t1 3
detach U Q.t2
exit Q.t2 5
reap R Q
check
