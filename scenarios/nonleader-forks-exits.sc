# A non-leader thread that forked children exits alone.
#
# Pins down: ->real_parent is a thread; when it exits, its children move
# to a live thread of the same group (find_new_reaper(): the
# find_alive_thread() step comes before any subreaper), so PPid does not
# change and their exits still go to that process, once; only when the
# whole group dies do they go to the subreaper R. Tracing does not change
# this: a tracee forked by the exiting thread keeps its tracer; a tracee
# traced by the exiting thread itself is let go (exit_ptrace()).
# Historical bug: children reparented to zombie tasks (2.5 era,
# history.git 5dd6a6e5cdad). Variants: untraced child, child traced by an
# outside tracer, child traced by its creating thread, threaded children.
# It covers the retired selftest's "thread-reaper" case.
scenario nonleader_forks_exits
timeout 60
tracer T
process p threads 2
process c parent p.t1
process d parent p.t1 threads 2
process e parent p.t1
seize T d
seize T d.t2
seize p.t1 e
exit p.t1
expect ppid c p
expect ppid d.t1 p
expect tracer d T
expect tracer e none
check
exit c 3
reap p c
# The next creator exits too; the leader is the last reaper in the group.
process f parent p.t2
exit p.t2
expect ppid f p
exit p 4
reap R p
expect ppid d R
expect ppid f R
expect ppid e R
expect tracer d.t2 T
check
exit e
reap R e
exit f
reap R f
detach T d
detach T d.t2
exit d
reap R d
check
