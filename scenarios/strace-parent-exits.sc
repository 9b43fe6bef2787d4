# Real `strace -f -p` on a process whose real parent exits, beside
# ptstress's own tracers.
#
# Pins down: strace's PTRACE_SEIZE of every thread shows in TracerPid
# while PPid follows the real-parent rules (forget_original_parent():
# the orphan goes to the subreaper R, strace stays its tracer); strace
# -f follows a fork of its tracee (PTRACE_O_TRACEFORK: the child is born
# traced, ptrace_init_task()); the exits strace collects are printed
# "+++ exited with N +++"; on SIGINT strace detaches and everything left
# runs untraced. Meanwhile T traces another orphan. strace's
# doc/README-linux-ptrace "Real parent"; strace-D test (PPid vs TracerPid).
scenario strace_parent_exits
timeout 300
tracer T
process P
process C parent P threads 2
process D parent P
seize T D
strace S C
process G parent C
exit P 2
reap R P
expect ppid C R
expect ppid D R
expect tracer D T
expect ppid G C
exit G 6
reap C G
exit C.t1
check
stop S
expect tracer C none
expect tracer C.t2 none
expect state C running
check
exit C 3
reap R C
detach T D
exit D
reap R D
check
