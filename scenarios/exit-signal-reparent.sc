# An orphan's exit signal becomes SIGCHLD when another process adopts it.
#
# Pins down: a child cloned with an exit signal other than SIGCHLD
# (SIGRTMAX here, or none) keeps it while its parent lives, and notifies
# its parent with it (exit_notify(), kernel/exit.c:744-753).  When its
# parent thread dies, forget_original_parent() hands it to the new reaper;
# only for a reaper in another thread group does it call reparent_leader(),
# which sets exit_signal to SIGCHLD -- "We don't want people slaying init"
# (kernel/exit.c:671,718-719), the duty the 2002 patch's reparent_thread()
# spells out.  A sibling thread of the dead parent adopts it as it is.  R
# then gets SIGCHLD for its exit, whatever clone() said.  Also:
# kernel_clone() makes such a child a PTRACE_EVENT_CLONE, so a tracer with
# TRACEFORK alone does not follow it, one with TRACECLONE does
# (kernel/fork.c:2764-2772).  Seen through ptrace_links' exit_signal
# (guest), R's SIGCHLD log and the fork event the tracer waits for.
scenario exit_signal_reparent
timeout 90
process A threads 1
process B parent A exit-signal SIGRTMAX
process C parent A exit-signal none
process E parent A.t1 exit-signal SIGRTMAX
check
# A's leader thread exits alone: A.t1, a sibling, adopts B and C unchanged.
exit A 0 thread
expect ppid B A
check
# A.t1 goes too: B, C and E move to R and get SIGCHLD.
exit A.t1
reap R A
expect ppid B R
check
exit B 3
reap R B
check
exit C 4
reap R C
exit E 5
reap R E
check
# The fork event: CLONE for an exit signal other than SIGCHLD.
tracer T
process P
seize T P tracefork
process Q parent P exit-signal SIGRTMAX
expect tracer Q none
detach T P
seize T P traceclone
process S parent P exit-signal SIGRTMAX
expect tracer S T
check
exit P
reap T P
reap R P
exit S 6
reap T S
reap R S
exit Q
reap R Q
check
