# An unreaped zombie whose real parent exits is handed, still a zombie, to
# the new reaper, which must get its exit report exactly once.
#
# Pins down: forget_original_parent() -> reparent_leader(): a zombie child
# with an empty thread group that is not ptraced is re-notified to its new
# parent (do_notify_parent()); it is released (EXIT_DEAD) only if that
# parent ignores SIGCHLD, which no agent and not R does (man 2 wait, NOTES:
# "A child that terminates, but has not been waited for becomes a zombie
# ... if a parent process terminates, then its zombie children are adopted
# by init"). Variants: the reaper is R (the child subreaper) or a nearer
# subreaper; the parent is threaded; the zombie's group had threads.
# It covers the retired selftest's "zombie-orphan" case.
scenario orphaned_zombie
timeout 120
# Plain: C's zombie goes to R.
process P
process C parent P
exit C 9
expect state C zombie
exit P
reap R P
expect ppid C R
expect state C zombie
check
reap R C
expect state C gone
# A subreaper takes two zombies of a threaded parent, one of them threaded.
process S subreaper
process Q parent S threads 2
process Z parent Q threads 1
process Y parent Q
exit Z 4
exit Y 5
expect state Z zombie
exit Q 1
expect ppid Z S
expect ppid Y S
expect state Z zombie
expect state Y zombie
check
reap S Q
reap S Z
reap S Y
# The zombie's parent is a thread that exits alone: it stays in the group.
process G threads 1
process K parent G.t1
exit K 3
exit G.t1
expect ppid K G
expect state K zombie
reap G K
exit G
reap R G
check
