# Real gdb attaches to a threaded process, lists its threads and
# detaches, while ptstress tracers work and real parents exit elsewhere.
#
# Pins down: gdb's PTRACE_ATTACH of every thread (SIGSTOP to each, the
# stops collected, "info threads" lists exactly the live threads), then
# PTRACE_DETACH of each: the process is untraced and running again,
# PPid unchanged (man 2 ptrace "Attaching and detaching"; 95a3540da9c8
# and its revert edaba2c53344: PTRACE_DETACH without a wakeup broke gdb;
# gdb's process-dies-while-detaching, main-thread-exit-during-detach).
scenario gdb_detach_beside_tracers
timeout 300
tracer T
process P threads 3
process A
process B parent A threads 1
seize T B
seize T B.t1
gdb G P
exit A 4
reap R A
expect ppid B R
expect tracer B.t1 T
wait G
expect tracer P none
expect state P running
expect tracer P.t3 none
check
exit P.t3 1
gdb H P
wait H
check
exit P
reap R P
detach T B
detach T B.t1
exit B
reap R B
