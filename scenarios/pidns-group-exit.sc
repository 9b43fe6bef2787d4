# A pid namespace's init with several threads ends with exit_group().
#
# Pins down: each init thread reaches exit_notify() on its own; the one
# holding pid_ns->child_reaper when no thread is left without PF_EXITING
# zaps the namespace (find_child_reaper(), kernel/exit.c:597-613): which
# one is up to the scheduler, so the model accepts any of them as the
# sleeping zapper; the end is the same (the init's leader a zombie for
# its parent, its child killed and reaped).  (Issue 11, case 12.)
scenario pidns_group_exit
timeout 60
process N pidns threads 2
process A parent N
exit N
check
reap R N
check
