# Many short-lived threads while a tracer attaches and detaches.
#
# Pins down: threads come and go (clone, SYS_exit, autoreap) while a
# tracer seizes/attaches and detaches their siblings and the threads
# themselves; with PTRACE_O_TRACECLONE new threads are auto-attached
# (ptrace_init_task() from copy_process(), PTRACE_EVENT_CLONE) and a
# traced thread's exit is a zombie for its tracer only, reported once;
# untraced threads are released at once (exit_notify() autoreap); PPid of
# every thread stays the process's parent. gdb's
# attach-many-short-lived-threads; strace's attach-f-p.
scenario short_lived_threads
timeout 300
tracer T
tracer U
process p threads 2
process q threads 1
repeat 40
	thread w in p
	seize T w
	detach T w
	exit w
	attach U p.t1
	thread v in p
	exit v 1
	detach U p.t1
	seize T p traceclone
	thread u in p
	expect tracer u T
	detach T u
	exit u
	detach T p
end
check
# Auto-attached threads that exit traced: zombies for T, collected at the end.
seize T q traceclone
repeat 20
	thread s in q
	exit s 2
end
check
