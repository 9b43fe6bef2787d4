# A non-blocking wait and its flags: ECHILD or nothing yet, WNOWAIT,
# __WCLONE and __WALL, __WNOTHREAD, and what hides a zombie.
#
# Pins down, each "waitid" being one waitid(P_ALL or P_PID,
# WEXITED|WNOHANG|flags) checked against the model:
# - ECHILD only when nothing eligible exists; a live child, a leader
#   zombie whose threads live (delay_group_leader()) or a zombie its
#   tracer must collect first leaves the wait with nothing, si_pid 0
#   (wait_consider_task(), kernel/exit.c:1405-1474; __do_wait() :1601,
#   1631-1635);
# - WNOWAIT reports the zombie and leaves it waitable (wait_task_zombie()
#   :1115-1124);
# - without __WALL a real parent waits only for children whose exit
#   signal is SIGCHLD, with __WCLONE only for the others; a tracer for its
#   tracees whatever their exit signal (eligible_child() :1082-1094);
# - __WNOTHREAD: only the caller's own children and tracees
#   (__do_wait() :1615-1626, is_effectively_child() :1550-1558).
scenario wait_flags
timeout 120
process P
waitid P fails ECHILD
process C parent P
waitid P
waitid P C
exit C 3
waitid P C nowait
waitid P nowait
expect state C zombie
waitid P
waitid P fails ECHILD
check
# A clone child (exit signal SIGRTMAX): invisible to a plain wait.
process D parent P exit-signal SIGRTMAX
waitid P fails ECHILD
waitid P wclone
exit D 4
waitid P fails ECHILD
waitid P D wclone nowait
waitid P wall
check
# A leader zombie whose thread lives: nothing yet, not ECHILD.
process F parent P threads 1
exit F 5 thread
expect state F zombie
waitid P
waitid P F
exit F.t1 5
waitid P F
check
# __WNOTHREAD: the child of P.t1 is not the leader's.
process Q threads 1
process E parent Q.t1
waitid Q nothread fails ECHILD
waitid Q.t1 nothread
waitid Q
exit E 7
waitid Q nothread fails ECHILD
waitid Q.t1 nothread nowait
waitid Q nothread wall fails ECHILD
waitid Q.t1 E nothread
check
# A tracee: its tracer's thread sees it only without __WNOTHREAD; the
# real parent not before the tracer collected it.
tracer T
thread W in T
process G parent P exit-signal SIGRTMAX
seize T G
waitid W G nothread fails ECHILD
waitid W G
exit G 8
waitid P G wclone
waitid W G nowait
waitid T G
waitid P G wclone
waitid P fails ECHILD
check
exit P
reap R P
exit Q
reap R Q
exit T
reap R T
check
