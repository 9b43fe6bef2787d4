# Nested pid namespaces: three levels below R's, a tracer in the middle one.
#
# Pins down: a task has a pid in its own namespace and in every ancestor
# (alloc_pid(), kernel/pid.c); a tracer or parent inside a namespace names
# a task of a nested one by the pid of its own level (find_get_task_by_vpid(),
# task_pid_vnr()), here the middle levels that neither R nor the task
# itself see.  A nested init's death zaps only its own namespace and the
# ones nested in it: zap_pid_ns_processes()'s idr walk reaches every pid of
# the namespace, nested tasks included (kernel/pid_namespace.c:199-208),
# and the init sleeps until they are all freed, nested ones counted at
# every level (free_pid() kernel/pid.c:133-143; :245-248).  The nested
# init is then its parent's zombie like any process (its parent here a
# plain process of the outer namespace, not its init).
scenario pidns_nested
timeout 120
tracer T
process A pidns
tracer U parent A
process a parent A
process B parent a pidns
process b parent B threads 1
process C parent b pidns
process c parent C
# U sits in A's namespace: b and c are named by their pids there.
seize U b
seize U c
seize T C
expect ppid C b
expect tracer c U
check
# B's namespace dies: b, C and c with it; A, a and U live on.  Their
# tracers collect them first (c before its init C can finish), then C
# (b's orphan, autoreaped by the zapping B) and b go, and B is a's zombie.
exit B 3
check
reap U c
reap T C
reap U b
check
reap a B
expect state a running
check
# Now the outer namespace, with a fresh nested one inside it whose init
# is a child of A's init itself; T, outside, holds d.  A's zap kills D and
# d; D waits for T's collection of d, and A for D: a pid two levels down
# keeps the outer init in its zap.
process D parent A pidns threads 1
process d parent D
seize T d
exit A 5
check
reap T d
check
reap R A
check
