# SIGTERM to a pid namespace's init, from outside it, is dropped.
#
# Pins down: SIGNAL_UNKILLABLE (copy_process() kernel/fork.c:2553-2556):
# sig_task_ignored() (kernel/signal.c:89-91) drops a SIG_DFL signal to the
# init unless it is forced and kernel-only; from the parent namespace only
# SIGKILL and SIGSTOP are forced (send_signal_locked() :1257-1260).  A
# traced init stops for the SIGTERM (sig_ignored() :116-117) and its
# tracer passes it, but get_signal() drops it (:2810-2812).  SIGKILL still
# ends the init.  (Issue 11, case 3.)
scenario pidns_init_sigterm
timeout 60
process N pidns
kill N SIGTERM
check
tracer T
process M pidns
seize T M
tkill M SIGTERM
check
detach T M
kill N SIGKILL
kill M SIGKILL
reap R N
reap R M
check
