# Real gdb is killed while attached (no detach), beside ptstress tracers.
#
# Pins down: the debugger's death runs exit_ptrace(): every thread it
# held is unlinked and woken (TracerPid 0); the SIGSTOPs its
# PTRACE_ATTACH queued may leave the group stopped, and a SIGCONT resumes
# it (kernel/ptrace.c exit_ptrace(), __ptrace_detach(); man 2 ptrace,
# "Death under ptrace"). Meanwhile T's EXITKILL tracee dies with T and
# another real parent exits. rr's ptracer_death; gdb's kill while
# attached.
scenario gdb_quit_attached
timeout 300
tracer T
process P threads 2
process Q
process C parent Q
seize T C exitkill
gdb G P quit
exit Q 1
reap R Q
expect ppid C R
wait G
expect tracer P none
expect tracer P.t2 none
check
quit T
reap R T
reap R C
exit P 2
reap R P
check
