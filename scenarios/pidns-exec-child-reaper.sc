# execve() by a non-leader thread of a pid namespace's init.
#
# Pins down: the old leader's exit in de_thread() moves pid_ns->child_reaper
# to a live thread (find_child_reaper(), kernel/exit.c:597-603), which ends
# at the execing thread; exchange_tids() gives it pid 1 of the namespace:
# its later exit zaps the namespace (and the orphans of the old leader are
# its own children already).  (Issue 11, case 9.)
scenario pidns_exec_child_reaper
timeout 60
tracer T
process N pidns threads 1
process A parent N
seize T A
exec N.t1
expect ppid A N
check
exit N
check
reap T A
reap R N
check
