# A namespace's zapper that is not its init's leader takes the orphans of
# the tasks it kills.
#
# Pins down: after the init's leader exits alone, pid_ns->child_reaper is
# the live thread the role moved to (find_child_reaper(), kernel/exit.c:
# 597-600).  When that thread exits last it zaps the namespace (:602-616)
# and sleeps with exit_state 0; the orphans of the tasks the zap kills are
# reparented to it, child_reaper, and not to the zombie leader
# (forget_original_parent() :692-693, find_new_reaper() :658).  Here B, the
# init of a nested namespace, loses its parent A in the zap and waits in
# its own zap for C, which T traces from outside: the state stays until T
# reaps C.  /proc's PPid cannot tell N from N.t1 (the same tgid); the
# guest's ptrace_links can (B's real_parent, N.t1's children).  (Fuzz
# seed 13, session 24: the model gave the orphan to the leader.)
scenario pidns_zapper_thread_adopts
timeout 60
tracer T
process N pidns threads 1
process A parent N
process B parent A pidns
process C parent B
seize T C
exit N thread
expect ppid A N
check
exit N.t1
check
expect ppid B N
reap T C
check
reap R N
check
