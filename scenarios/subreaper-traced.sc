# Subreaper reparenting of traced children and grandchildren.
#
# Pins down: find_new_reaper() walks up ->real_parent to the nearest
# live PR_SET_CHILD_SUBREAPER ancestor (here S, several levels up), not
# to init; traced orphans move there like untraced ones, their TracerPid
# stays; a subreaper switched on later in the middle of the tree catches
# its own descendants; when the subreaper itself exits, its children go
# to the next subreaper (R) (kernel/exit.c find_new_reaper(),
# is_child_reaper(); man 2 prctl PR_SET_CHILD_SUBREAPER; rr's
# orphan_process). Variants: an unthreaded tree and a threaded one.
scenario subreaper_traced
timeout 120
process S subreaper
tree t depth 3 fanout 2 parent S
tracer T
seize T t.1.1
seize T t.1.2.1
attach T t.2.2.2
seize T t.2.1 exitkill
exit t.1.2
reap t.1 t.1.2
expect ppid t.1.2.1 S
expect tracer t.1.2.1 T
exit t.1
reap t t.1
expect ppid t.1.1 S
expect ppid t.1.1.2 t.1.1
subreaper t.2 on
exit t.2.2
reap t.2 t.2.2
expect ppid t.2.2.2 t.2
exit t
reap S t
expect ppid t.2 S
check
# The subreaper goes: everything it adopted moves to R.
exit S
reap R S
expect ppid t.1.1 R
expect ppid t.1.2.1 R
expect tracer t.1.2.1 T
expect ppid t.2 R
expect ppid t.2.2.2 t.2
check
# Threaded tree: threads of a dying middle node do not keep its children.
process S2 subreaper
tree u depth 2 fanout 2 parent S2 threads 1
seize T u.1.2
seize T u.1.t1
exit u.1
# u.1.t1's report is T's first: u.1 stays an undelayed zombie until then.
expect state u.1 zombie
expect ppid u.1.1 S2
expect ppid u.1.2 S2
expect tracer u.1.2 T
check
