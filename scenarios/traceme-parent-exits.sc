# PTRACE_TRACEME, then the parent (the tracer) exits.
#
# Pins down: ptrace_traceme() links the task to its ->real_parent thread
# (TracerPid = that thread, PPid unchanged); when that thread exits,
# exit_ptrace() unlinks the tracee (it runs on, untraced) and
# forget_original_parent() moves it to the next reaper: a live sibling
# thread of the parent (same PPid) or the subreaper R (man 2 ptrace
# "PTRACE_TRACEME"; CVE-2019-13272 -- TRACEME recording the wrong ptracer
# credentials; LTP ptrace01). A second PTRACE_TRACEME is EPERM. Variants:
# parent process exits; parent *thread* (the child's creator) exits alone.
scenario traceme_parent_exits
timeout 60
process P
process C parent P
traceme C
expect tracer C P
expect ppid C P
traceme C fails EPERM
exit P 6
reap R P
expect tracer C none
expect ppid C R
check
exit C
reap R C
# The creating thread is the tracer: only it exits.
process Q threads 1
process D parent Q.t1 threads 1
traceme D
expect tracer D Q.t1
exit Q.t1
expect tracer D none
expect ppid D Q
expect state D running
check
# Traced by TRACEME, its exit goes to the parent once (tracer == parent).
exit D 5
reap Q D
exit Q
reap R Q
check
