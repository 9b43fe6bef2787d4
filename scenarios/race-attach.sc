# Two tracers race to attach to the same tracee.
#
# Pins down: ptrace_attach() decides under cred_guard_mutex and
# tasklist_lock: exactly one PTRACE_ATTACH wins, the other gets EPERM
# (->ptrace already set), never both, never a half-linked task
# (kernel/ptrace.c ptrace_attach(); rr's ptrace_attach_*). The winner's
# TracerPid stays; the tracee is killed and its report goes to the winner
# first, then to R, once each. Variants: a process, a non-leader thread,
# racing tracer threads of one process (same-group tracers), and a
# winner that detaches at once ("detach", as fuzz draws it: what follows
# does not depend on who won), leaving the tracee untraced and running.
scenario race_attach
timeout 120
tracer T
tracer U
tracer V
thread V2 in V
repeat 20
	process x threads 1
	race-attach T U x
	race-attach U T x.t1
	kill x SIGKILL
	process y
	race-attach V V2 y
	kill y SIGKILL
	process z
	race-attach T U z detach
	expect tracer z none
	expect state z running
	kill z SIGKILL
end
check
