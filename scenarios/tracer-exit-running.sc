# The tracer exits (without detaching) while its tracees run.
#
# Pins down: exit_ptrace() -> __ptrace_detach() -> __ptrace_unlink() lets
# every tracee go: TracerPid 0, ->parent back to ->real_parent, the tracees
# keep running and are reported to their real parent only (man 2 ptrace,
# "Death under ptrace": "If the tracer dies, all tracees are automatically
# detached and restarted"). rr's ptracer_death. Variants: seized and
# attached, a threaded tracee with all threads traced, a tracer that
# traces tasks of two processes.
# It covers the retired selftest's "tracer-exit" case.
scenario tracer_exit_running
timeout 60
process A
process B threads 2
tracer T
seize T A
attach T B
seize T B.t1
attach T B.t2
quit T
reap R T
expect tracer A none
expect tracer B.t1 none
expect state A running
expect state B.t2 running
check
# They live on untraced: their exits go to R, once.
exit B.t1 1
exit A 2
reap R A
exit B 5
reap R B
check
