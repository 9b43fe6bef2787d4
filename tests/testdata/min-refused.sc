# tests/host/fuzz: a minimization input whose first candidate has a step the
# engine refuses.  With --wrong-model=reaper-subreaper, p19's reparenting
# to R (a subreaper) at "kill p16" is the finding.  Its related tasks are
# p19, p16 and q (p19's child), not tr, so that candidate keeps "reap p19 q"
# without the exitkill tracer's quit that killed q: the reap would block,
# and the engine refuses it.  Without it, the candidate reproduces.
process p16
process p19 parent p16
process q parent p19
tracer tr
seize tr q exitkill
quit tr
reap p19 q
kill p16 SIGKILL
