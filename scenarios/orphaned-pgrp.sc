# An orphaned process group with a stopped member gets SIGHUP and SIGCONT.
#
# Pins down: kill_orphaned_pgrp() (kernel/exit.c:378-401): when an exit
# (exit_notify() :741-742, the group's last thread) or a reparenting
# (reparent_leader() :682, the dying father's children; that case is in
# orphaned-pgrp-reparent.sc, 6.1 only) leaves a process
# group with no member whose real parent is in another group of the same
# session (will_become_orphaned_pgrp() :331-349), and a member is stopped
# (has_stopped_jobs() :361-371), every member gets SIGHUP then SIGCONT:
# the stopped ones wake and die of SIGHUP.  The 2002 patch's exit_notify()
# carried this duty ("B. Check to see if any process groups have become
# orphaned as a result of our exiting").  R, the new reaper, is in another
# session (setsid), so it is no connection.  Also: setsid() fails with
# EPERM for a group leader, setpgid(0, 0) for a session leader
# (kernel/sys.c:1226-1234,1108-1110).
scenario orphaned_pgrp
timeout 120
# Through the exit: S's session holds group X = {X, Y}; X's exit leaves
# Y (now R's, another session) without a connection; Y is stopped.
process S
setsid S
setsid S fails EPERM
setpgid S fails EPERM
process X parent S
setpgid X
setsid X fails EPERM
process Y parent X
kill Y SIGSTOP
expect state Y stopped
exit X 0
reap S X
expect state Y zombie
reap R Y
check
# No stopped member: nothing happens.
process S3
setsid S3
process X3 parent S3
setpgid X3
process Y3 parent X3
exit X3 0
reap S3 X3
expect state Y3 running
expect ppid Y3 R
exit Y3 2
reap R Y3
exit S
reap R S
exit S3
reap R S3
check
