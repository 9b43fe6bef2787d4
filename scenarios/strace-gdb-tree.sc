# strace and gdb at once on two processes of a tree whose inner nodes
# exit, with a ptstress tracer on a third.
#
# Pins down: several real tracers and ptstress's own in one run never see
# each other's tracees (each TracerPid is its own tracer; a second
# debugger on a traced process would get EPERM, ptrace_attach()); nodes of
# a tree whose parent exits go to the subreaper R (find_new_reaper())
# while traced by strace/gdb/T; strace's exit lines for what it reaped.
scenario strace_gdb_tree
timeout 300
tracer T
tree t depth 2 fanout 2 threads 1
strace S t.1.1 t.1.2
gdb G t.2.1
seize T t.2.2
exit t.1
reap t t.1
expect ppid t.1.1 R
expect ppid t.1.2 R
exit t.1.2 7
wait G
exit t.2
reap t t.2
expect ppid t.2.1 R
expect tracer t.2.2 T
check
stop S
expect tracer t.1.1 none
check
exit t.1.1
reap R t.1.1
exit t.2.1
reap R t.2.1
detach T t.2.2
exit t.2.2
reap R t.2.2
