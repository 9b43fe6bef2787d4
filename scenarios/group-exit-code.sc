# Which exit code a zombie thread's report carries.
#
# Pins down: wait_task_zombie() (kernel/exit.c:1199-1200) reports
# group_exit_code once SIGNAL_GROUP_EXIT is set, else the task's own
# exit_code.  A traced thread that exits on its own (SYS_exit 5) and is
# collected by its tracer before anything else happens reports exited(5);
# one that exits with 3 and is collected after its group's exit_group(7)
# reports exited(7) (do_group_exit() :1016-1025); a process's last thread
# exiting alone sets the group's code (synchronize_group_exit() :798-812).
scenario group_exit_code
timeout 60
tracer T
process P threads 2
seize T P.t1
seize T P.t2
exit P.t1 5
reap T P.t1
exit P.t2 3
exit P 7
reap T P.t2
reap R P
process Q threads 1
exit Q 2 thread
exit Q.t1 9
reap R Q
check
