# The namespace's teardown kills the live threads of a group whose leader
# already exited.
#
# Pins down: zap_pid_ns_processes() (kernel/pid_namespace.c:199-208) sends
# SIGKILL to every pid number of the namespace, threads included; a
# group whose leader is a zombie but whose thread lives is killed through
# that thread's pid (complete_signal() finds it, kernel/signal.c:1022-1037)
# and the init's kernel_wait4() then reaps both.  (Issue 11, case 2.)
scenario pidns_zap_zombie_leader
timeout 60
process N pidns
process A parent N threads 1
exit A thread
expect state A zombie
exit N
expect state A.t1 gone
reap R N
check
