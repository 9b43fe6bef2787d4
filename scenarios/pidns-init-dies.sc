# A pid namespace's init dies while a tracer outside the namespace holds
# tasks inside it.
#
# Pins down: zap_pid_ns_processes() SIGKILLs every task of the namespace
# and waits (init stays in do_exit(), State S/D) until all are reaped;
# traced ones are reported to their outside tracer first (killed by
# SIGKILL, once), only then can init's kernel_wait4() release them, and
# only then does init become a zombie reported to its parent. A tracer
# that exits without reaping hands them back to init (exit_ptrace()).
# Historical bugs: zap_pid_ns_processes() not waiting for every zombie (a
# tracer outside the namespace let one escape); 950bbabb5a80 (child_reaper
# not switched when the init's main thread exits). man 7 pid_namespaces;
# kselftests pid_namespace/; rr's pid_ns_*. Variants: threaded tasks
# inside, one tracer that reaps and one that dies without reaping, the
# init's leader thread exiting first.
scenario pidns_init_dies
timeout 120
tracer T
tracer U
process n pidns
process a parent n
process b parent n threads 2
process c parent a
seize T a
seize T b.t1
seize U c
expect tracer a T
exit n 5
expect state n running
check
# U dies without reaping c: c goes back to init's kernel_wait4().
quit U
reap R U
check
# The end collects T's reports (a, b.t1), then n's report to R.

# Threaded init: its leader exits first, the namespace lives on
# (950bbabb5a80); the last init thread's exit zaps it.
process m pidns threads 1
process x parent m threads 1
seize T x.t1
exit m thread
expect ppid x m
expect tracer x.t1 T
check
# Not expressed: exit m.t1 while x.t1 is still traced. m.t1 then waits in
# zap_pid_ns_processes() for T's report, the engine models it released at
# once -- see the report.
detach T x.t1
exit m.t1
check
