// SPDX-License-Identifier: GPL-2.0
/*
 * `stress tasks N tracers K rounds R [threads M] [seed S]`: a seeded
 * generator of verbs over a large population.  Each round draws a verb by
 * the weights of the verb table (lang/verbs.def) among those with a
 * generator, which picks arguments valid by the model; the statement runs
 * through e->step(), so every generated step is checked exactly like a
 * written one, and is written to stress.sc in the report directory first:
 * the same seed gives the same steps, and the file replays them.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stress.h"

static struct sc_loc stress_loc;	/* the stress statement's: every generated step's */

/* Run one generated statement; write it out first (a crash still leaves it). */
static int gen_step(struct engine *e, FILE *out, struct stmt *st)
{
	struct scenario one = { .stmts = st, .nstmts = 1 };
	char *text;
	int r;

	st->loc = stress_loc;
	text = scenario_print(&one);
	if (text) {
		fputs(text, out);
		fflush(out);
		free(text);
	}
	r = e->step(e, st);
	/* @st goes out of scope: messages after the step name the stress statement. */
	e->cur = NULL;
	return r;
}

/* Draw a verb by weight among those the table can generate. */
static enum sc_verb draw(struct gen *g)
{
	int total = 0, v, r;

	for (v = 0; v < V_NR_VERBS; v++)
		if (verb_impl[v].gen)
			total += sc_verb_weight((enum sc_verb)v);
	r = (int)gen_rnd(g, (unsigned int)total);
	for (v = 0; v < V_NR_VERBS; v++) {
		if (!verb_impl[v].gen)
			continue;
		r -= sc_verb_weight((enum sc_verb)v);
		if (r < 0)
			break;
	}
	return (enum sc_verb)v;
}

static int one_round(struct engine *e, struct gen *g, FILE *out)
{
	struct stmt st;
	enum sc_verb v = draw(g);
	bool proc_gone;

	memset(&st, 0, sizeof(st));
	st.verb = v;
	if (!verb_impl[v].gen(e, g, &st))
		return 0;
	/* The population keeps its size: a process that goes is replaced. */
	proc_gone = ((v == V_KILL && st.sig == SIGKILL) || v == V_EXIT) &&
		    T(e, task_of(e, st.name[0]))->leader == task_of(e, st.name[0]);
	if (gen_step(e, out, &st) < 0)
		return -1;
	if (proc_gone) {
		gen_process(e, g, &st);
		return gen_step(e, out, &st);
	}
	if (v == V_QUIT) {
		gen_tracer(g, &st);
		return gen_step(e, out, &st);
	}
	return 0;
}

int run_stress(struct engine *e, const struct stmt *s)
{
	char path[PATH_MAX + 16];
	struct gen g = { .threads = s->threads };
	struct stmt st;
	int k, r = 0, nprocs = s->tasks / (1 + s->threads);
	long round;
	FILE *out;

	gen_seed(&g, s->seed);
	stress_loc = s->loc;
	snprintf(path, sizeof(path), "%s/stress.sc", e->dir);
	out = fopen(path, "we");
	if (!out) {
		harness_err(e, "cannot write %s", path);
		return -1;
	}
	fprintf(out, "# stress tasks %d tracers %d rounds %d threads %d seed %lu\n", s->tasks,
		s->tracers, s->rounds, s->threads, s->seed);
	for (k = 0; k < s->tracers && r == 0; k++) {
		gen_tracer(&g, &st);
		r = gen_step(e, out, &st);
	}
	for (k = 0; k < (nprocs ? nprocs : 1) && r == 0; k++) {
		gen_process(e, &g, &st);
		r = gen_step(e, out, &st);
	}
	if (r == 0)
		tap_diag("stress: %d tracers, %d processes of %d threads, %d tasks in the model",
			 s->tracers, nprocs, 1 + s->threads, e->m.n);
	for (round = 0; round < s->rounds && r == 0 && !e->stop; round++) {
		r = one_round(e, &g, out);
		if (r == 0 && round % 50 == 49) {
			memset(&st, 0, sizeof(st));
			st.verb = V_CHECK;
			r = gen_step(e, out, &st);
		}
		if (ps_stop_signal)
			r = -1;
	}
	fclose(out);
	if (r == 0 && !e->stop)
		tap_diag("%s:%d: stress: %ld rounds over %d tasks, seed %lu", s->loc.file,
			 s->loc.line, round, e->m.n, s->seed);
	return e->stop ? -1 : r;
}
