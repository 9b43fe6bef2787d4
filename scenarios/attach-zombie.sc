# PTRACE_ATTACH / PTRACE_SEIZE of a zombie.
#
# Pins down: ptrace_attach() refuses a task with ->exit_state set (EPERM):
# a zombie process, a zombie leader whose threads still run (it exited
# alone; its threads stay attachable); the zombie keeps its PPid and its
# exit report goes to its parent exactly once. Attaching to one's own
# thread group is EPERM too (same_thread_group()); to a task that is
# already traced, EPERM. man 2 ptrace, "EPERM"; gdb's leader-exit-attach.
#
# Not expressed: attaching to an exiting task that is not yet a zombie
# (PF_EXITING, e.g. a pid namespace init waiting in
# zap_pid_ns_processes()): the kernel lets PTRACE_ATTACH succeed there
# (only ->exit_state is checked), the engine predicts EPERM -- see the
# report.
scenario attach_zombie
timeout 60
tracer T
tracer U
process z
exit z 7
expect state z zombie
attach T z fails EPERM
seize T z fails EPERM
expect tracer z none
reap R z
# A zombie leader with live threads.
process p threads 2
exit p thread
expect state p zombie
attach T p fails EPERM
seize T p fails EPERM
seize T p.t1
attach U p.t2
attach U p.t1 fails EPERM
check
# Own thread group, and a zombie traced thread.
thread T2 in T
attach T2 T fails EPERM
process q threads 1
seize U q.t1
exit q.t1 4
expect state q.t1 zombie
attach T q.t1 fails EPERM
exit q 4
check
