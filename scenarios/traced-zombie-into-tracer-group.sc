# A traced zombie is reparented into its tracer's own thread group.
#
# Pins down: S, a subreaper, traces its grandchild C; C exits while its
# real parent P lives, so two reports are owed (the tracer first, then P:
# ptrace_reparented()).  P exits: forget_original_parent() gives the zombie
# C to S (find_new_reaper(), kernel/exit.c:635-656) and reparent_leader()
# does not notify for a traced zombie (:674-679).  Now C's real parent is in
# its tracer's group: wait_task_zombie() decides EXIT_DEAD, not EXIT_TRACE,
# by ptrace_reparented() at wait time (:1129-1131), so S's one wait releases
# C and nothing is left for anyone (the second waitpid() is ECHILD, and no
# process can wait for C any more).
scenario traced_zombie_into_tracer_group
timeout 60
process S subreaper
process P parent S
process C parent P
seize S C
exit C 4
expect state C zombie
exit P
reap S P
expect ppid C S
reap S C
check
