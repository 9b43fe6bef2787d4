# The parent-death signal: per thread, on every exit of the parent thread.
#
# Pins down: forget_original_parent() sends each thread's pdeath_signal to
# its process (group_send_sig_info(PIDTYPE_TGID)) for every child of the
# exiting *thread*, whoever adopts it -- a sibling thread of the dead one
# too (kernel/exit.c:708-716); copy_process() clears it in every new task
# (kernel/fork.c:2449), so children and threads do not inherit it; the
# tracer's exit is no parent's death.  The 2002 patch's reparent_thread()
# carries the same duty.  A namespace init ignores the SIGTERM
# (SIGNAL_UNKILLABLE, sig_task_ignored(), kernel/signal.c:89-91); SIGKILL
# from the parent namespace is forced.
scenario pdeathsig
timeout 120
process A threads 1
process B parent A
pdeathsig B SIGKILL
process C parent A.t1
pdeathsig C SIGTERM
process D parent A threads 2
pdeathsig D.t1 SIGKILL
process E parent A
# C's parent thread exits; its sibling A adopts C and C still dies.
exit A.t1
reap A C
check
# A exits: B and the whole of D die on the way to R; E has no pdeath signal.
exit A 1
reap R A
reap R B
reap R D
expect state E running
expect ppid E R
check
# Not inherited: G's parent F has one, G and F.t1 do not.
process F
pdeathsig F SIGKILL
process G parent F threads 1
exit F
reap R F
expect state G running
check
# A tracer's exit is no parent's death.
tracer T
process H
process K parent H
pdeathsig K SIGKILL
seize T K
exit T
reap R T
expect state K running
check
# Namespace inits: SIGTERM dropped, SIGKILL forced.
process P
process N parent P pidns
pdeathsig N SIGTERM
process M parent P pidns
pdeathsig M SIGKILL
exit P
reap R P
reap R M
expect state N running
check
exit N
reap R N
exit E
reap R E
exit G
reap R G
exit K 3
reap H K
exit H
reap R H
check
