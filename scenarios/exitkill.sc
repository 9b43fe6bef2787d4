# PTRACE_O_EXITKILL: the tracer's exit SIGKILLs its tracees.
#
# Pins down: exit_ptrace() sends SIGKILL to every tracee with PT_EXITKILL
# before __ptrace_detach() (kernel/ptrace.c, since 3.8, 992fb6e170639);
# the whole thread group dies even if only one thread was seized with the
# option; tracees seized without it live on. The killed tracees' reports go
# to their real parents (killed by SIGKILL), once. Variants: a tracer
# process that quits, a tracer *thread* that exits alone (ptrace links are
# per thread: its group's other threads do not matter), threaded tracees,
# and the tracer's own child in a group that ignores SIGCHLD: the SIGKILL
# is sent under tasklist_lock in exit_ptrace(), but the child's
# exit_notify() runs after forget_original_parent() moved it to R, so it
# is R's zombie, not reaped by its dying parent's SIG_IGN.
# It covers the retired selftest's "tracer-exitkill" case.
scenario exitkill
timeout 60
process A
process B threads 2
process K
tracer T
seize T A exitkill
seize T B.t2 exitkill
seize T K
quit T
reap R T
expect state A zombie
reap R A
reap R B
expect tracer K none
expect state K running
check
# A tracer thread exits alone: its EXITKILL tracee dies, the tracer
# process lives on.
tracer U
thread Ut in U
process D threads 1
seize Ut D.t1 exitkill
exit Ut
reap R D
expect state U running
check
exit K
reap R K
process E
process F parent E
sigchld E ignore
seize E F exitkill
exit E
reap R E
expect ppid F R
expect state F zombie
reap R F
check
