# vfork: the parent thread waits for its child's exec; a tracer sees both
# events.
#
# Pins down: clone(CLONE_VM | CLONE_VFORK) puts the calling thread to
# sleep, killable, in wait_for_vfork_done() (kernel/fork.c:1458-1476, /proc
# State D) until the child execs or exits (mm_release() :1517-1522); only
# that thread waits, its siblings go on.  kernel_clone() (:2767-2768,
# 2812-2817) reports CLONE_VFORK as PTRACE_EVENT_VFORK -- PTRACE_O_TRACEVFORK
# auto-attaches the child, PTRACE_O_TRACEFORK does not -- and, once the
# child has exec'd, PTRACE_EVENT_VFORK_DONE, with PTRACE_O_TRACEVFORKDONE
# only (ptrace_event_pid() asks ptrace_event_enabled()), with or without
# TRACEVFORK.  The engine holds the
# auto-attached child in its first stop and checks that the parent thread
# is in D meanwhile.  The child is an ordinary process afterwards (its
# real parent the vfork()ing thread, exit signal SIGCHLD).
scenario vfork
timeout 120
process P threads 1
process C parent P vfork
expect ppid C P
process C1 parent P.t1 vfork
check
tracer T
seize T P tracevfork tracevforkdone
process D parent P vfork
expect tracer D T
expect ppid D P
check
detach T P
seize T P tracefork
process E parent P vfork
expect tracer E none
detach T P
seize T P tracevforkdone
process F parent P.t1 vfork
expect tracer F none
detach T P
seize T P tracevfork
process G parent P vfork
expect tracer G T
check
exit D 3
reap T D
reap P D
exit C 4
reap P C
exit C1 5
reap P.t1 C1
exit E 6
reap P E
exit F 7
reap P F
exit G 8
reap T G
reap P G
detach T P
exit P
reap R P
exit T
reap R T
check
