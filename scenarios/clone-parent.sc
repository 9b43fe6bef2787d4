# clone(CLONE_PARENT): a sibling, with the caller's group leader's exit signal.
#
# Pins down: copy_process() gives a CLONE_PARENT child the caller's
# ->real_parent (and ->parent_exec_id), so it is the caller's sibling, and
# the exit_signal of the caller's *group leader*, whatever clone() asked
# (kernel/fork.c:2499-2506): a clone-parent child cannot choose the signal
# its new parent gets -- "slaying init" again, the hole closed upstream in
# 2012.  From a non-leader thread it is the same real parent (threads
# share it) and the leader's exit_signal.  A tracer of the caller follows
# it by the signal clone() asked for: FORK for SIGCHLD (kernel_clone(),
# kernel/fork.c:2764-2772).  Seen through PPid, ptrace_links' exit_signal
# and the real parent's SIGCHLD log.
scenario clone_parent
timeout 90
process X
process A parent X
process B parent A clone-parent
expect ppid B X
check
# It asks for SIGRTMAX and gets A's SIGCHLD: X is sent SIGCHLD.
process C parent A clone-parent exit-signal SIGRTMAX
check
exit C 3
reap X C
check
# A2's leader has SIGRTMAX: a clone-parent child of its thread gets that.
process A2 parent X exit-signal SIGRTMAX threads 1
process D parent A2.t1 clone-parent
expect ppid D X
check
exit D 4
reap X D
check
# Followed as a fork (SIGCHLD asked) by the caller's tracer.
tracer T
seize T A tracefork
process E parent A clone-parent
expect tracer E T
expect ppid E X
check
exit E 5
reap T E
reap X E
detach T A
exit B
reap X B
exit A
reap X A
exit A2
reap X A2
exit X
reap R X
check
