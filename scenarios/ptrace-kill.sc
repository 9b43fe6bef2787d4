# PTRACE_KILL versus kill(SIGKILL).
#
# Pins down: PTRACE_KILL works on a running or stopped tracee
# (ptrace_check_attach() ignores the state for PTRACE_KILL) and, since
# 5.19, just sends SIGKILL (kernel/ptrace.c ptrace_request(); historical
# bug 0666fb51b148: wake_up_process() instead of
# wake_up_state(__TASK_TRACED) made pause() return -514 after
# PTRACE_KILL). Either way the whole thread group dies; the tracer that
# is not the real parent gets killed(SIGKILL) first, then the real parent
# gets it once (ptrace_reparented(), wait_task_zombie()). PTRACE_KILL by a
# tracer that does not trace the task is ESRCH. CVE-2013-0871: a ptrace
# request racing with SIGKILL.
scenario ptrace_kill
timeout 60
tracer T
tracer U
process A
process B
process C threads 2
process D threads 1
seize T A
seize T B
interrupt T B
ptrace-kill T A
ptrace-kill T B
ptrace-kill U C fails ESRCH
seize T C.t1
ptrace-kill T C.t1
seize U D
kill D SIGKILL
check
# A stopped tracee killed by kill(): the SIGKILL wakes it from 't'.
process E
attach U E
interrupt U E
kill E SIGKILL
check
# A PTRACE_KILL of an untraced task: ESRCH.
process F
ptrace-kill T F fails ESRCH
exit F
reap R F
