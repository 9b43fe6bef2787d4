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
#include <time.h>
#include <unistd.h>

#include "engine/stress.h"
#include "lib/json.h"

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

/* Live tracer processes (the return) and other live processes (*procs). */
static int count_live(struct engine *e, int *procs)
{
	int i, k, tracers = 0;

	*procs = 0;
	M_FOR_UNREL(&e->m, k, i) {
		if (!i || e->m.t[i].leader != i || e->m.t[i].life != ML_ALIVE ||
		    e->m.t[i].exited)
			continue;
		if (!strncmp(e->m.t[i].name, "tr", 2))
			tracers++;
		else
			(*procs)++;
	}
	return tracers;
}

/*
 * A verb with a generator; the FUZZ(w) rows of verbs.def are fuzz's only:
 * the stress statement of the library keeps the draws it always had.
 */
static bool drawable(const struct gen *g, int v)
{
	return verb_impl[v].gen && (g->fuzz || !sc_verb_fuzz_only((enum sc_verb)v));
}

/* Draw a verb by weight among those the table can generate. */
static enum sc_verb draw(struct gen *g)
{
	int total = 0, v, r;

	for (v = 0; v < V_NR_VERBS; v++)
		if (drawable(g, v))
			total += sc_verb_weight((enum sc_verb)v);
	r = (int)gen_rnd(g, (unsigned int)total);
	for (v = 0; v < V_NR_VERBS; v++) {
		if (!drawable(g, v))
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
	int procs, tracers;

	/*
	 * Fuzzing, the population drifts: a quarter of the processes that go
	 * are not replaced (below), one round in 16 adds one (up to
	 * max_live tasks), and a population that ran dry of tracers or
	 * processes gets one back.
	 */
	if (g->fuzz) {
		tracers = count_live(e, &procs);
		if (!tracers || (tracers < g->max_tracers && !gen_rnd(g, 64))) {
			gen_tracer(g, &st);
			return gen_step(e, out, &st);
		}
		if (procs < 2 || (e->m.nlive < g->max_live && !gen_rnd(g, 16))) {
			gen_process(e, g, &st);
			return gen_step(e, out, &st);
		}
		/*
		 * At max_live, a zombie is reaped before anything else is
		 * drawn.  Otherwise zombies pile up past the cap: gone
		 * processes are replaced (below) while their zombies wait for
		 * a drawn reap, most of them R's (a host soak: 2 826 of
		 * 2 909 processes after 50 s, 3 741 tasks at 60 s and growing
		 * by 50 a second, each one more /proc read per check and past
		 * 9 000 more fds than RLIMIT_NOFILE).  Below the cap nothing
		 * changes: a seed draws what it drew before.
		 */
		if (e->m.nlive >= g->max_live) {
			memset(&st, 0, sizeof(st));
			st.verb = V_REAP;
			if (g_reap(e, g, &st))
				return gen_step(e, out, &st);
		}
	}
	memset(&st, 0, sizeof(st));
	st.verb = v;
	if (!verb_impl[v].gen(e, g, &st))
		return 0;
	/* The population keeps its size: a process that goes is replaced. */
	proc_gone = ((v == V_KILL && st.sig == SIGKILL) || v == V_EXIT) &&
		    T(e, task_of(e, st.name[0]))->leader == task_of(e, st.name[0]);
	if (g->fuzz && proc_gone && !gen_rnd(g, 4))
		proc_gone = false;
	/* nor replaced at the cap (see above) */
	if (g->fuzz && e->m.nlive >= g->max_live)
		proc_gone = false;
	if (gen_step(e, out, &st) < 0)
		return -1;
	/* a setsid's chain towards an orphaned group (gen-jobs.c) */
	while (g->job_next != JOB_NONE && gen_job_next(e, g, &st))
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
	/* gdb's session ends before the next draw: see g_gdb(). */
	if (v == V_GDB) {
		char name[SC_NAME_LEN];

		snprintf(name, sizeof(name), "%s", st.name[0]);
		memset(&st, 0, sizeof(st));
		st.verb = V_WAIT;
		st.nnames = 1;
		snprintf(st.name[0], SC_NAME_LEN, "%s", name);
		return gen_step(e, out, &st);
	}
	return 0;
}

/* Is @prog an executable file in a directory of $PATH? */
static bool in_path(const char *prog)
{
	const char *p = getenv("PATH"), *end;
	char file[PATH_MAX];
	int len;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		len = (int)(end - p);
		if (snprintf(file, sizeof(file), "%.*s/%s", len, p, prog) < (int)sizeof(file) &&
		    access(file, X_OK) == 0)
			return true;
	}
	return false;
}

static double since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * ptstress fuzz's progress, every FUZZ_PROGRESS_SEC: a line for people and
 * a JSON line (type "fuzz-batch") for tools.  Checks per step stand next
 * to steps per second, so that a faster rate cannot come from checking
 * less.
 */
#define FUZZ_PROGRESS_SEC	10

static double pct(long long ns, double secs)
{
	return secs > 0 ? ns / 1e7 / secs : 0;
}

static void fuzz_progress(struct engine *e, double secs, long round)
{
	int procs, tracers = count_live(e, &procs);
	double cps = e->st.steps ? (double)e->st.checks / e->st.steps : 0;
	const char *kc = e->have_kcheck ? "on" : "off";
	struct json j;

	tap_diag("fuzz: %.0f s, %ld rounds, %ld steps, %.1f steps/s, %.1f checks/step, "
		 "%d tasks alive, %d tracers, %d findings, kernel checker %s; wall: "
		 "%.0f%% polling, %.0f%% agent replies (%.0f%% the agents' own), %.0f%% /proc "
		 "reads", secs, round, e->st.steps, secs > 0 ? e->st.steps / secs : 0, cps,
		 e->m.nlive, tracers, e->st.findings, kc, pct(ps_prof.poll_ns, secs),
		 pct(ps_prof.reply_ns, secs), pct(ps_prof.agent_ns, secs),
		 pct(ps_prof.proc_ns, secs));
	if (!e->json)
		return;
	json_start(&j, e->json);
	json_str(&j, "type", "fuzz-batch");
	json_double(&j, "seconds", secs);
	json_int(&j, "rounds", round);
	json_int(&j, "steps", e->st.steps);
	json_int(&j, "checks", e->st.checks);
	json_double(&j, "steps_per_sec", secs > 0 ? e->st.steps / secs : 0);
	json_double(&j, "checks_per_step", cps);
	json_int(&j, "alive", e->m.nlive);
	json_int(&j, "tracers", tracers);
	json_int(&j, "findings", e->st.findings);
	json_str(&j, "kernel_checker", kc);
	json_profile(&j);
	json_end(&j);
}

int run_stress(struct engine *e, const struct stmt *s)
{
	char path[PATH_MAX + 16];
	struct gen g = { .threads = s->threads, .fuzz = e->opts->fuzz,
			 .max_live = 4 * (s->tasks + s->tracers) + 64,
			 .max_tracers = 2 * s->tracers };
	double next_progress = FUZZ_PROGRESS_SEC, secs;
	struct stmt st;
	int k, r = 0, nprocs = s->tasks / (1 + s->threads);
	long round;
	FILE *out;

	gen_seed(&g, s->seed);
	/*
	 * Without strace or gdb (guest/deps installs both) fuzz draws no
	 * session at all, and says so: a seed's steps are then the same as
	 * with them only until the first session would have started.
	 */
	if (g.fuzz) {
		g.sessions = in_path("strace") && in_path("gdb");
		if (!g.sessions)
			tap_diag("fuzz: strace or gdb is not in PATH: no debugger sessions");
	}
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
		if (g.fuzz) {
			secs = since(&e->started);
			if (secs >= next_progress) {
				fuzz_progress(e, secs, round);
				next_progress = secs + FUZZ_PROGRESS_SEC;
			}
			if (e->opts->fuzz_duration && secs >= e->opts->fuzz_duration)
				break;
		}
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
	if (g.fuzz)
		fuzz_progress(e, since(&e->started), round);
	if (r == 0 && !e->stop)
		tap_diag("%s:%d: stress: %ld rounds over %d tasks, seed %lu", s->loc.file,
			 s->loc.line, round, e->m.n, s->seed);
	return e->stop ? -1 : r;
}
