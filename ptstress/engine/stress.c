// SPDX-License-Identifier: GPL-2.0
/*
 * `stress tasks N tracers K rounds R [threads M] [seed S]`: a seeded
 * generator of verbs over a large population.  It builds statements and
 * runs them through run_verb(), so every generated step is checked exactly
 * like a written one, and writes them as scenario text (stress.scn in the
 * report directory): the same seed gives the same steps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* xorshift64*: small, seedable, the same sequence on every machine. */
static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return n ? (unsigned int)((rng * 2685821657736338717ULL) >> 33) % n : 0;
}

static FILE *scn;	/* the generated steps as scenario text */
static int nproc, ntracer;	/* names handed out so far */

static bool alive(int i)
{
	return eng.m.t[i].life == ML_ALIVE && !eng.m.t[i].exited && !eng.e[i].external;
}

/* A random model task satisfying @ok, or -1 after a bounded search. */
static int pick(bool (*ok)(int))
{
	int tries, i;

	for (tries = 0; tries < 64; tries++) {
		i = 1 + (int)rnd((unsigned int)eng.m.n - 1);
		if (ok(i))
			return i;
	}
	for (i = 1; i < eng.m.n; i++) {
		if (ok(i))
			return i;
	}
	return -1;
}

static bool is_tracer(int i)
{
	return alive(i) && eng.m.t[i].leader == i && !strncmp(eng.m.t[i].name, "tr", 2);
}

static bool is_member(int i)
{
	return alive(i) && strncmp(eng.m.t[i].name, "tr", 2) && eng.m.t[i].stop == MS_RUNNING;
}

static bool is_proc(int i)
{
	return is_member(i) && eng.m.t[i].leader == i;
}

static bool untraced_proc(int i)
{
	return is_proc(i) && eng.m.t[i].tracer == M_NONE;
}

static bool traced_by_ours(int i)
{
	int tr = eng.m.t[i].tracer;

	return alive(i) && tr > 0 && !eng.e[tr].external && is_tracer(tr);
}

static bool traced_running(int i)
{
	return traced_by_ours(i) && eng.m.t[i].stop == MS_RUNNING && eng.m.t[i].seized;
}

static bool traced_stopped(int i)
{
	return traced_by_ours(i) && eng.m.t[i].stop == MS_TRACED;
}

static bool sub_thread(int i)
{
	return is_member(i) && eng.m.t[i].leader != i;
}

/* Run one generated statement; write it out first (a crash still leaves it). */
static int gen(struct stmt *st, enum sc_verb v)
{
	struct scenario one = { .stmts = st, .nstmts = 1 };
	char *text;

	st->verb = v;
	st->loc = eng.cur->loc;
	text = scenario_print(&one);
	if (text) {
		fputs(text, scn);
		fflush(scn);
		free(text);
	}
	eng.st.steps++;
	run_verb(st);
	if (!eng.stop)
		check_tasks(false, "after a stress step");
	return eng.stop ? -1 : 0;
}

static void set_names(struct stmt *st, int n, const char *a, const char *b)
{
	st->nnames = n;
	snprintf(st->name[0], SC_NAME_LEN, "%s", a);
	if (n > 1)
		snprintf(st->name[1], SC_NAME_LEN, "%s", b);
}

static int new_tracer(void)
{
	struct stmt st;
	char n[SC_NAME_LEN];

	memset(&st, 0, sizeof(st));
	snprintf(n, sizeof(n), "tr%d", ntracer++);
	set_names(&st, 1, n, NULL);
	return gen(&st, V_TRACER);
}

static int new_process(int threads)
{
	struct stmt st;
	char n[SC_NAME_LEN];
	int p = rnd(4) ? pick(is_proc) : -1;

	memset(&st, 0, sizeof(st));
	snprintf(n, sizeof(n), "p%d", nproc++);
	set_names(&st, 1, n, NULL);
	if (p > 0)
		snprintf(st.parent, sizeof(st.parent), "%s", eng.m.t[p].name);
	st.threads = threads;
	if (!rnd(8))
		st.opts |= O_SUBREAPER;
	return gen(&st, V_PROCESS);
}

static int one_round(const struct stmt *s)
{
	struct stmt st;
	int a, b;

	memset(&st, 0, sizeof(st));
	switch (rnd(12)) {
	case 0: case 1: case 2:		/* seize (or attach) */
		a = pick(is_tracer);
		b = pick(untraced_proc);
		if (a < 0 || b < 0)
			return 0;
		set_names(&st, 2, eng.m.t[a].name, eng.m.t[b].name);
		st.opts = (rnd(3) ? 0 : O_EXITKILL) | (rnd(4) ? 0 : O_TRACEFORK);
		return gen(&st, rnd(4) ? V_SEIZE : V_ATTACH);
	case 3:				/* interrupt */
		b = pick(traced_running);
		if (b < 0)
			return 0;
		set_names(&st, 2, eng.m.t[eng.m.t[b].tracer].name, eng.m.t[b].name);
		return gen(&st, V_INTERRUPT);
	case 4:				/* cont a stopped tracee */
		b = pick(traced_stopped);
		if (b < 0)
			return 0;
		set_names(&st, 2, eng.m.t[eng.m.t[b].tracer].name, eng.m.t[b].name);
		return gen(&st, V_CONT);
	case 5:				/* detach, running or stopped */
		b = pick(traced_by_ours);
		if (b < 0 || (!eng.m.t[b].seized && eng.m.t[b].stop != MS_TRACED &&
			      eng.m.t[b].stop != MS_RUNNING))
			return 0;
		set_names(&st, 2, eng.m.t[eng.m.t[b].tracer].name, eng.m.t[b].name);
		return gen(&st, V_DETACH);
	case 6:				/* a real parent (with whatever it has) exits */
		a = pick(is_proc);
		if (a < 0)
			return 0;
		set_names(&st, 1, eng.m.t[a].name, NULL);
		st.num = rnd(4);
		if (gen(&st, V_EXIT) < 0)
			return -1;
		return new_process(s->threads);
	case 7:				/* a sub-thread exits */
		a = pick(sub_thread);
		if (a < 0)
			return 0;
		set_names(&st, 1, eng.m.t[a].name, NULL);
		return gen(&st, V_EXIT);
	case 8:				/* a tracer exits with its tracees; a new one comes */
		if (rnd(3))
			return 0;
		a = pick(is_tracer);
		if (a < 0)
			return 0;
		set_names(&st, 1, eng.m.t[a].name, NULL);
		if (gen(&st, V_QUIT) < 0)
			return -1;
		return new_tracer();
	case 9:				/* SIGKILL */
		a = pick(is_proc);
		if (a < 0)
			return 0;
		set_names(&st, 1, eng.m.t[a].name, NULL);
		st.sig = SIGKILL;
		if (gen(&st, V_KILL) < 0)
			return -1;
		return new_process(s->threads);
	case 10:			/* subreaper toggles */
		a = pick(is_proc);
		if (a < 0)
			return 0;
		set_names(&st, 1, eng.m.t[a].name, NULL);
		if (!eng.m.t[a].subreaper)
			st.opts = O_ON;
		return gen(&st, V_SUBREAPER);
	default:			/* the zombies get reaped */
		return collect_reports(true);
	}
}

int run_stress(const struct stmt *s)
{
	char path[512];
	int k, r = 0;
	long round;
	int nprocs = s->tasks / (1 + s->threads);

	rng = s->seed ? s->seed * 0x9E3779B97F4A7C15ULL : 0x2545F4914F6CDD1DULL;
	snprintf(path, sizeof(path), "%s/stress.scn", eng.dir);
	scn = fopen(path, "w");
	if (!scn) {
		harness_err("cannot write %s", path);
		return -1;
	}
	fprintf(scn, "# stress tasks %d tracers %d rounds %d threads %d seed %lu\n", s->tasks,
		s->tracers, s->rounds, s->threads, s->seed);
	nproc = ntracer = 0;
	for (k = 0; k < s->tracers && r == 0; k++)
		r = new_tracer();
	for (k = 0; k < (nprocs ? nprocs : 1) && r == 0; k++)
		r = new_process(s->threads);
	if (r == 0)
		tap_diag("stress: %d tracers, %d processes of %d threads, %d tasks in the model",
			 s->tracers, nprocs, 1 + s->threads, eng.m.n);
	for (round = 0; round < s->rounds && r == 0; round++) {
		r = one_round(s);
		if (r == 0 && round % 50 == 49)
			r = check_tasks(true, "stress: periodic full check");
		if (ps_stop_signal)
			r = -1;
	}
	fclose(scn);
	if (r == 0)
		r = collect_reports(true);
	if (r == 0)
		tap_result(true, "%s:%d: stress: %ld rounds over %d tasks, seed %lu",
			   s->loc.file, s->loc.line, round, eng.m.n, s->seed);
	return r;
}
