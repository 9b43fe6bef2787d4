# The tracer is a sibling thread of the real parent: exactly one exit
# report.
#
# Pins down: when the tracer is in the real parent's thread group,
# ptrace_reparented() is false, so the tracee's exit produces one report
# only (exit_notify(), wait_task_zombie()); a second waitpid() must say
# ECHILD. Historical bug 0347e1773909 (2012): wait4 succeeded twice for
# one dead child when a sibling thread of the parent was its tracer.
# Variants: the tracer is a non-leader thread; the tracer is the leader
# and the child was forked by a non-leader thread; a threaded tracee;
# the tracer thread exits first (the tracee goes on untraced); waits
# that find the report on the tracer thread's ->ptraced only.
scenario sibling_thread_tracer
timeout 60
process p threads 1
process c parent p
seize p.t1 c
expect tracer c p.t1
expect ppid c p
exit c 5
reap p c
check
# Forked by the sub-thread, traced by the leader; killed.
process d parent p.t1
attach p d
kill d SIGKILL
reap p d
check
# Threaded tracee, its leader traced by the sibling; group exit with a
# PTRACE_EVENT_EXIT stop of the exiting leader.
process e parent p threads 2
seize p.t1 e traceexit
exit e 3
reap p e
check
# The tracer thread exits: the tracee is untraced, still p's child.
thread p2 in p
process f parent p
seize p2 f
exit p2
expect tracer f none
expect ppid f p
exit f 8
reap p f
check
# The one report is on the tracer thread's ->ptraced as well, where
# ptrace_do_wait() looks at it with ptrace == 1 (eligible_child(),
# kernel/exit.c:1083-1084): a __WCLONE wait of the group finds this
# SIGCHLD child, and so does the tracer thread's __WNOTHREAD wait
# although the leader forked it.
process h parent p
seize p.t1 h
exit h 4
waitid p.t1 h nothread nowait
waitid p.t1 nothread wclone nowait
waitid p h wclone
waitid p wall fails ECHILD
check
# Every thread traced by the sibling: the traced threads' zombies are the
# tracer's (collected at the end, once each), the leader's report is one.
process g parent p threads 2
seize p.t1 g
seize p.t1 g.t1
seize p.t1 g.t2
# (A zombie's status is read at wait time: after the group exit it is
# the group's code, wait_task_zombie(); so both say 3.)
exit g.t2 3
exit g 3
check
