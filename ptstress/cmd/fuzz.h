/* SPDX-License-Identifier: GPL-2.0 */
/* ptstress fuzz and ptstress minimize (main.c, minimize.c). */
#ifndef PTSTRESS_CMD_FUZZ_H
#define PTSTRESS_CMD_FUZZ_H

#include <stdio.h>

#include "engine/run.h"

struct fuzz_args {
	/* fuzz */
	unsigned long seed;	/* --seed: the generator's (and the report directory's name) */
	long steps;		/* --steps: rounds to draw; 0 unbounded */
	int duration;		/* --duration SEC: stop drawing after it */
	int tasks, tracers, threads;	/* the starting population */
	/* minimize */
	int confirm;		/* --confirm K: the result must replay K out of K times */
	int max_replays;	/* --max-replays: bound on delta debugging's replays */
	const char *signature;	/* --signature: check/rule/verb to keep; default the input's */
	const char *out;	/* --out FILE: the minimized scenario */
	const char *memo;	/* --memo FILE: replay results kept across boots */
	const char *finding_tasks; /* --finding-tasks A,B: the finding's tasks, when the
				    * caller knows them (the input's replay may not tell:
				    * it can kill the guest before its record) */
	const char *oracle;	/* --oracle CMD: replays run `CMD --timeout SEC FILE JSON`
				 * instead of `ptstress run` (differential mode: CMD
				 * runs FILE on the reference, then against it) */
	bool batch;		/* --batch: each ddmin round's candidates in one oracle
				 * call (cmd/min-batch.c), not one call each */
};

/*
 * `ptstress minimize FILE`: each replay is `ptstress run --first-finding` of
 * a candidate in a child process, with @run's options.  Exit 0 when the
 * result replays --confirm times out of as many, 2 when FILE does not end
 * in a finding (or bad usage), 3 otherwise (a flaky result, our error),
 * 5 when the kernel changed (tainted, or its checker counted a violation):
 * go on in a fresh boot.  With --memo FILE every replay's result is
 * appended to FILE ("1 KEY", "0 KEY"; "? KEY" before it starts), and a
 * later run on the same input with the same FILE takes the results from
 * it: delta debugging is deterministic, so it goes on where the last boot
 * stopped.  A "?" nobody resolved (the guest died in that replay; guest/fuzz
 * writes "1 KEY" when the console shows the signature) counts as 0.
 */
int cmd_minimize(int nargs, char **args, const struct run_opts *run, const char *json,
		 const struct fuzz_args *f);

#endif
