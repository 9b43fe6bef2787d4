# A process group orphaned by a reparenting: its stopped member and the
# others get SIGHUP and SIGCONT.
#
# Pins down: reparent_leader() (kernel/exit.c:682) calls
# kill_orphaned_pgrp(p, father) for each child of the dying father that
# moves to another thread group: father S2 is the session leader, its
# child X2 leads group {X2, Y2} in S2's session, and once X2's real
# parent is R (another session) no member has a real parent in another
# group of the same session (will_become_orphaned_pgrp() :331-349); Y2 is
# stopped (has_stopped_jobs() :361-371), so both die of SIGHUP
# (kill_orphaned_pgrp() :378-401).  The 2002 patch's exit_notify()
# carried this duty; mutant m22 removes the call.  The exit case (the
# group's own last thread) is orphaned-pgrp.sc.
#
# 6.1 only: on the host's 6.18.44-fc (a vendor build) the stopped Y2
# dies of SIGHUP, but X2, sleeping with SIGHUP at SIG_DFL, stays alive
# (a plain C program outside ptstress shows it too; with a handler, X2
# sees SIGCONT twice and SIGHUP last), while the exit case behaves as in
# 6.1.  kill_orphaned_pgrp() and reparent_leader() read the same in a
# 6.18-era kernel/exit.c as in 6.1; the cause was not found.
scenario orphaned_pgrp_reparent
kernel 6.1 "the host's 6.18.44-fc leaves the group's running member alive when a reparenting orphans it"
timeout 120
process S2
setsid S2
process X2 parent S2
setpgid X2
process Y2 parent X2
kill Y2 SIGSTOP
expect state Y2 stopped
exit S2 0
reap R S2
expect state X2 zombie
expect state Y2 zombie
reap R X2
reap R Y2
check
