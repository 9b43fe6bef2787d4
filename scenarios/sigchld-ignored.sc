# A parent that ignores SIGCHLD: its children reap themselves.
#
# Pins down: do_notify_parent() tells an untraced child to reap itself
# (no zombie, no report) when its parent's group has SIGCHLD at SIG_IGN
# or with SA_NOCLDWAIT; SIG_IGN sends no signal, SA_NOCLDWAIT still sends
# SIGCHLD (kernel/signal.c:2107-2133).  That holds at exit_notify(), at
# release_task() for a leader whose last thread goes (kernel/exit.c:277:
# by its own exit, or released by its tracer's wait or exit),
# and at the tracer's wait for a traced child (wait_task_zombie(),
# :1210); a traced child never reaps itself at its exit.  A tracer thread
# in the real parent's group that exits lets its zombie tracee go: released
# at once if the group ignores SIGCHLD (__ptrace_detach(),
# kernel/ptrace.c:578-588).  fork copies the disposition (copy_sighand());
# execve() keeps SIG_IGN and clears SA_NOCLDWAIT (flush_signal_handlers(),
# kernel/signal.c:540-554).
scenario sigchld_ignored
timeout 120
tracer T
process A threads 1
sigchld A ignore
process B parent A
exit B 3
expect state B gone
# A leader waits for its last thread: released when that one goes.
process C parent A threads 1
exit C 0 thread
expect state C zombie
exit C.t1
expect state C gone
check
# Traced: a zombie for its tracer first, then it reaps itself.
process G parent A
seize T G
exit G 7
expect state G zombie
reap T G
expect state G gone
# A tracer thread of A itself lets its zombie go when it exits: A's group
# decides, not H's own disposition (H inherited SIG_IGN: reset it).
process H parent A
sigchld H
seize A.t1 H
exit H 2
expect state H zombie
exit A.t1
expect state H gone
check
# SA_NOCLDWAIT: no zombie, but SIGCHLD is sent.
sigchld A nocldwait
process D parent A
exit D 4
expect state D gone
check
# Inherited: B2 has A's SA_NOCLDWAIT; after execve() it is gone.
process B2 parent A
process E parent B2
exit E 5
expect state E gone
exec B2
process F parent B2
exit F 6
expect state F zombie
reap B2 F
# SIG_IGN survives execve().
sigchld B2 ignore
exec B2
process K parent B2
exit K
expect state K gone
check
# The last thread of a zombie leader released by its tracer, not by its
# own exit: by the tracer's wait (wait_task_zombie(), :1216) or at the
# tracer's exit (exit_ptrace()'s dead list, released at the end of
# exit_notify(), :768-771).  release_task() notifies the leader's parent
# either way, and an ignoring parent lets it go.
tracer T2
process M parent A threads 1
seize T2 M.t1
kill M SIGKILL
expect state M zombie
reap T2 M.t1
expect state M gone
process N parent A threads 1
seize T2 N.t1
kill N SIGKILL
expect state N zombie
quit T2
expect state N gone
check
# Back to SIG_DFL: zombies again.
sigchld A
process L parent A
exit L 8
reap A L
exit B2
reap A B2
exit A
reap R A
check
