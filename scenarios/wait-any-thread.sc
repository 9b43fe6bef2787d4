# Any thread of the tracer's or of the real parent's group may wait.
#
# Pins down: waitpid(pid) without __WNOTHREAD finds a child or a tracee of
# any thread of the caller's group (is_effectively_child(), do_wait_pid(),
# kernel/exit.c:1551-1587; do_wait() walks every thread's ->children and
# ->ptraced, :1611-1626).  So a sibling of the tracer thread collects the
# tracer's report of a traced zombie (leader or thread), a sibling of the
# real parent thread the parent's, and the leader a child its thread forked.
scenario wait_any_thread
timeout 90
tracer T
thread W in T
process P threads 1
process C parent P
seize T C
exit C 3
reap W C
reap P.t1 C
check
process D parent P.t1
exit D 4
reap P D
process E threads 1
seize T E.t1
exit E.t1 5
reap W E.t1
check
exit E
reap R E
exit P
reap R P
exit T
reap R T
check
