# The real parent exits while its child is traced by someone else.
#
# Pins down: forget_original_parent()/find_new_reaper() move the child to
# the nearest subreaper (here R) -- PPid changes -- while the ptrace link
# (->parent, TracerPid) stays with the tracer: reparenting only touches
# ->real_parent (kernel/exit.c: reparent_leader(); man 2 ptrace "Real
# parent" in strace's README-linux-ptrace; NetBSD t_ptrace_topology_wait:
# the tracee keeps seeing its tracer). The parent's own exit report goes
# to R exactly once, the tracee's exit goes to the tracer first, then to
# its new real parent R (ptrace_reparented(), wait_task_zombie()).
# Variants: seized and attached tracee, a threaded child with every
# thread traced, and a threaded parent whose leader forked the child.
# It covers the retired selftest's "reparent" case.
scenario parent_exits_traced_child
timeout 60

# Unthreaded, seized.
process P
process C parent P
tracer T
seize T C
exit P 3
reap R P
expect ppid C R
expect tracer C T
expect state C running
exit C 4
check

# Attached (PTRACE_ATTACH + SIGSTOP, resumed), parent killed.
process P2
process C2 parent P2
tracer T2
attach T2 C2
kill P2 SIGKILL
reap R P2
expect ppid C2 R
expect tracer C2 T2
check

# Threaded child: every thread traced; threaded parent.
process P3 threads 2
process C3 parent P3 threads 2
tracer T3
seize T3 C3
seize T3 C3.t1
seize T3 C3.t2
exit P3
reap R P3
expect ppid C3 R
expect ppid C3.t2 R
expect tracer C3.t1 T3
exit C3 9
check
