# setns()+fork(): a process forked into a pid namespace by a parent outside it.
#
# Pins down: setns(pidfd, CLONE_NEWPID) sets the caller's
# pid_ns_for_children (pidns_install(), kernel/pid_namespace.c:412-422);
# the child lives in that namespace with its real parent outside
# (copy_process() kernel/fork.c:2500-2510).  When the namespace dies its
# zap kills the child, but the child's zombie stays its parent's: the
# init's kernel_wait4() cannot reap it, so the init sleeps in
# zap_pid_ns_processes() until that parent does (:222-248, the comment
# there names exactly this case).  An orphaned setns child goes to its
# dead parent's reaper (find_new_reaper() walks only its own level,
# kernel/exit.c:635-655), not into the namespace it lives in.  A setns
# child may create a namespace nested in the one it lives in (setns then
# clone(CLONE_NEWPID) at once is EINVAL: copy_pid_ns()).  A thread does
# one setns, as a thread: nsproxy is per thread.
scenario pidns_setns
timeout 120
process P threads 1
process N pidns
process n parent N
process C parent P setns N
process C2 parent P.t1 setns n
expect ppid C P
expect ppid C2 P
check
# N dies: n, C and C2 are killed; C and C2 stay P's zombies, N sleeps
# in the zap until P reaps them.
exit N 7
expect state C zombie
check
reap P C
check
reap P.t1 C2
check
reap R N
check
# A setns child whose parent exits: to the parent's reaper (R).
process M pidns
process Q
process D parent Q setns M
exit Q
expect ppid D R
check
reap R Q
exit M
check
# A nested namespace made by a setns child: q lives in A's namespace,
# its parent Q2 outside; q's child B is the init of a namespace nested in
# A's.  A's death kills q, B and b (the zap reaches the nested pids); B
# goes to A's init when q dies and is autoreaped; q stays Q2's zombie and
# A sleeps until Q2 reaps it.
process A pidns
process Q2
process q parent Q2 setns A
process B parent q pidns
process b parent B
expect ppid B q
exit A
check
reap Q2 q
check
reap R A
check
# The zapping init's tracer exits while the zap waits for a setns child
# (found by ptstress fuzz, seed 3, minimized from 611 statements): the
# sleeping zapper has exit_state 0, so __ptrace_detach() only unlinks it
# (kernel/ptrace.c:571-574) and notifies nobody; its parent hears of it
# once the drain lets it become a zombie.
tracer T
process K pidns
process L
process k parent L setns K
attach T K exitkill
exit K 3
quit T
check
reap R T
reap L k
check
reap R K
check
# The zapping init's parent exits while the zap waits for a setns child
# (found by ptstress fuzz, seed 13 on the host, minimized from 686
# statements to 12): the sleeping zapper has exit_state 0, so
# reparent_leader() moves it to the reaper, N, without a notification
# (kernel/exit.c:674-679); it notifies N when the drain lets it finish
# exit_notify() (:739-753).  Untraced, P's own exit sends N a SIGCHLD
# that hides a missing one (signals coalesce); traced and threaded, as
# fuzz found it, P2's exit notifies T2 alone, and N2's only SIGCHLD is
# Z2's, after the drain.
process N pidns
process P parent N
process Pq parent N
process Z parent P pidns
process z parent Pq setns Z
kill Z SIGKILL
exit P 3
expect ppid Z N
check
reap Pq z
check
reap N Z
check
tracer T2
process N2 pidns
process P2 parent N2 threads 2
process P2q parent N2
process Z2 parent P2 pidns
process z2 parent P2q setns Z2
seize T2 P2
kill Z2 SIGKILL
exit P2 3
check
reap P2q z2
check
reap N2 Z2
check
