# execve() by a thread whose leader already exited on its own.
#
# Pins down: de_thread() (fs/exec.c:1094-1161) finds the old leader a
# zombie already (exit_state set: no wait), takes its pid and its place and
# releases it without a report; the zombie is never reported to anyone.
# With the exec'ing thread traced, its tracer gets the exec stop under the
# thread group id.  The agent execs /proc/thread-self/exe: /proc/self/exe
# names the zombie leader, which has no mm any more (issue 15).
scenario exec_after_leader_exit
timeout 60
process C threads 1
exit C thread
expect state C zombie
exec C.t1
check
tracer T
process D threads 1
seize T D.t1
exit D thread
exec D.t1
expect tracer D T
check
