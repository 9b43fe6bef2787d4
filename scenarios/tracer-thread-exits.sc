# A tracer *thread* exits while its process lives on.
#
# Pins down: ptrace links are per thread (->parent is the tracer thread,
# TracerPid its tid): when the tracing thread exits alone, exit_notify()
# -> exit_ptrace() lets its tracees go (and SIGKILLs EXITKILL ones) even
# though the tracer process still has live threads; tracees of the other
# threads keep their tracer (kernel/exit.c exit_notify(); rr's
# ptracer_death_multithread(_peer)). A tracee's zombie held by the
# exiting thread is handed to its real parent.
scenario tracer_thread_exits
timeout 60
tracer T
thread T1 in T
thread T2 in T
process a
process b threads 1
process c
process z parent a
seize T1 a
seize T1 b.t1
seize T2 c
seize T1 z
exit z 6
exit T1
expect tracer a none
expect tracer b.t1 none
expect tracer c T2
expect state a running
reap a z
check
# The leader thread traces; it exits alone, its sibling still traces.
seize T a
exit T thread
expect tracer a none
expect tracer c T2
detach T2 c
check
exit a
reap R a
exit b
reap R b
exit c
reap R c
exit T2
reap R T
check
