# Seeded random stress: seize/attach/detach/interrupt/kill/exit rounds over
# a large threaded population with 8 tracers (ptstress/engine/stress.c);
# every generated step is checked against the model like a written one,
# and the steps are written to stress.sc in the report directory, so a
# failure replays from the same seed. The whole of the model's rules
# (exit_ptrace(), forget_original_parent(), wait_task_zombie(), exactly
# one report per exit) under volume. The host runs a smaller copy.
scenario stress
timeout 3600
stress tasks 1200 tracers 8 rounds 2000 threads 2 seed 1
