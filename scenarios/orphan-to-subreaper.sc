# An untraced child whose parent exits goes to the subreaper R.
#
# Pins down: forget_original_parent() sets both ->real_parent and
# ->parent of an untraced child to the new reaper (find_new_reaper(),
# kernel/exit.c:635-656: R, a child subreaper), which puts it on R's
# ->children (ptrace_links children of R is not checked, C's
# real_parent/parent are); C's exit is then reported to R exactly once.
# The retired selftest's "orphan" case; its other cases live in
# parent-exits-traced-child (reparent), orphaned-zombie (zombie-orphan,
# with the SIGCHLD reparent_leader() sends), tracer-exit-running
# (tracer-exit), tracer-exit-stopped, exitkill (tracer-exitkill) and
# nonleader-forks-exits (thread-reaper).
scenario orphan_to_subreaper
timeout 60
process P
process C parent P
exit P
reap R P
expect ppid C R
expect tracer C none
exit C 7
reap R C
check
