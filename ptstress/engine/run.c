// SPDX-License-Identifier: GPL-2.0
/*
 * `ptstress run FILE...`: parse every scenario first (a bad file is exit 2
 * before anything runs), then run them one after the other, each in a
 * fresh struct engine, with TAP on stdout, JSON lines (--json) and a
 * report directory per scenario that is kept when something failed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/diff.h"
#include "engine/run.h"
#include "engine/stress.h"
#include "lib/json.h"
#include "lib/kcheck.h"
#include "lib/links.h"

/*
 * A task survived SIGKILL: every later scenario would wait for it again in
 * its teardown, and the kernel is broken beyond what they could add.
 */
static bool unkillable;

static double elapsed(struct engine *e)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - e->started.tv_sec) + (now.tv_nsec - e->started.tv_nsec) / 1e9;
}

/* What mark_dirty() compares of a task: a small copy, as every step takes one. */
static void snap_of(const struct mtask *t, struct tsnap *s)
{
	s->life = (unsigned char)t->life;
	s->stop = (unsigned char)t->stop;
	s->listening = t->listening;
	s->zapper = t->zapper;
	s->tracer = t->tracer;
	s->real_parent = t->real_parent;
	s->leader = t->leader;
	s->tid = t->tid;
}

/*
 * A task released before the step stays released (ML_DEAD is final: an
 * exec's old leader is released, the execing thread keeps its own index),
 * so its snapshot from then on never changes and neither the step's
 * snapshot nor mark_dirty() reads its model entry again.  A long run
 * has released most of its tasks (a 60-s host fuzz some 20 000 of
 * 21 000), whose entries both passes read at every step: about 5 % of R's
 * rate at the end of such a run.  The model's other walks over every task
 * still slow a long run down (docs/fuzz.md, session 24).
 */
static bool released_before(const struct engine *e, int i)
{
	return i < e->before_n && e->before[i].life == ML_DEAD;
}

/* The model before the running step. */
static bool snapshot(struct engine *e)
{
	struct tsnap *b;
	int i, k;

	if (e->before_cap < e->m.n) {
		/* realloc(): the released tasks' entries are kept, not taken again */
		b = realloc(e->before, e->m.cap * sizeof(*e->before));
		if (!b) {
			harness_err(e, "out of memory");
			return false;
		}
		e->before = b;
		e->before_cap = e->m.cap;
	}
	/*
	 * m.unrel holds every task unreleased at the last snapshot (it was
	 * compacted then) and every task made since: the tasks that are not
	 * released_before().  Compacted now, it holds those mark_dirty() and
	 * count_states() look at after the step.
	 */
	M_FOR_UNREL(&e->m, k, i)
		if (!released_before(e, i))
			snap_of(&e->m.t[i], &e->before[i]);
	e->before_n = e->m.n;
	m_unrel_compact(&e->m);
	return true;
}

/* Tasks the step changed in the model are checked against the kernel. */
static void mark_dirty(struct engine *e)
{
	struct tsnap now;
	int i, k;

	M_FOR_UNREL(&e->m, k, i) {
		if (released_before(e, i))
			continue;
		snap_of(&e->m.t[i], &now);
		if (i >= e->before_n || memcmp(&now, &e->before[i], sizeof(now)))
			e->e[i].dirty = true;
	}
}

/* The kinds of task state a run reached, counted at every step (stress prints them). */
static void count_states(struct engine *e)
{
	int i, k;

	/* a released task counts for nothing: m.unrel has the others */
	M_FOR_UNREL(&e->m, k, i) {
		const struct mtask *t = &e->m.t[i];

		if (!i || !e->e[i].dirty || e->e[i].external)
			continue;
		if (t->life == ML_ZOMBIE)
			e->st.states[ST_N_ZOMBIE]++;
		else if (t->life != ML_ALIVE)
			continue;
		else if (t->listening)
			e->st.states[ST_N_LISTENING]++;
		else if (t->stop == MS_TRACED)
			e->st.states[ST_N_TRACED_STOP]++;
		else if (t->stop == MS_GROUP)
			e->st.states[ST_N_GROUP_STOP]++;
		else if (t->tracer != M_NONE)
			e->st.states[ST_N_TRACED_RUNNING]++;
		else
			e->st.states[ST_N_RUNNING]++;
	}
}

/* R's open files (/proc/self/fd, less the directory's own); -1 unknown. */
static long count_open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	long n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

static int run_stmts(struct engine *e, const struct stmt *s, int n);

/* One statement as a checked step: run.c's e->step (stress calls it too). */
static int run_step(struct engine *e, const struct stmt *s)
{
	long long t0;
	long k;

	if (ps_stop_signal) {
		harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
		return -1;
	}
	if (s->verb == V_REPEAT) {
		for (k = 0; k < s->num && !e->stop; k++)
			run_stmts(e, s->body, s->nbody);
		return e->stop ? -1 : 0;
	}
	e->cur = s;
	if (elapsed(e) > e->scen_timeout) {
		/* The scenario's own budget: not a promise of the kernel. */
		refuse(e, "the scenario's timeout (%d s) ran out", e->scen_timeout);
		return -1;
	}
	e->cur_timeout = s->within ? s->within : 0;
	e->st.steps++;
	e->st.verb_steps[s->verb]++;
	if (e->m.nlive > e->st.live_max)
		e->st.live_max = e->m.nlive;
	logf_(e, "%s:%d: %s", s->loc.file, s->loc.line, sc_verb_name(s->verb));
	if (!snapshot(e))
		return -1;
	if (s->verb == V_STRESS) {
		run_stress(e, s);
		e->cur = s;
	} else {
		t0 = ps_now_ns();
		run_verb(e, s);
		e->st.verb_ns[s->verb] += ps_now_ns() - t0;
	}
	if (!e->stop && e->m.unpredictable)
		refuse(e, "%s", e->m.unpredictable);
	if (!e->stop && s->verb != V_STRESS && s->verb != V_CHECK && s->verb != V_EXPECT) {
		t0 = ps_now_ns();
		/* Exit stops and group-stop traps are the tracers' to take, as a debugger would. */
		settle_stops(e);
		/* strace and gdb reap their tracees' exits as they come. */
		if (!e->stop)
			collect_reports(e, false);
		/* Every step ends at a quiescent point for what it touched. */
		if (!e->stop) {
			mark_dirty(e);
			count_states(e);
			check_tasks(e, false, "after this step");
		}
		e->st.after_ns += ps_now_ns() - t0;
	}
	/*
	 * Last: a model finding of the same step (m03's detach, which its
	 * checker WARNs in too) names the rule; the flags name only a report.
	 */
	if (!e->stop)
		check_taint(e, "after this step");
	e->cur_timeout = 0;
	if (e->opts->pause_ms > 0 && !e->stop) {
		struct stmt pause = { .verb = V_SLEEP, .num = e->opts->pause_ms };

		v_sleep(e, &pause);
	}
	return e->stop ? -1 : 0;
}

static int run_stmts(struct engine *e, const struct stmt *s, int n)
{
	int i;

	for (i = 0; i < n && !e->stop; i++)
		run_step(e, &s[i]);
	return e->stop ? -1 : 0;
}

/* The spawner: a small agent that forks R's children for R (agent.h). */
static int start_spawner(struct engine *e)
{
	struct deadline dl;
	pid_t tid, ns_tid;

	e->spawner_pid = agent_spawn(0, &e->spawner);
	if (e->spawner_pid < 0) {
		ps_error("fork: %s", strerror(errno));
		return -1;
	}
	deadline_start(&dl, e->opts->timeout_sec);
	return agent_hello(e->spawner, &tid, &ns_tid, &dl);
}

/* Kill and reap everything the scenario created; R has no child left after. */
static void teardown(struct engine *e)
{
	int i;

	if (e->spawner_pid > 0)
		kill(e->spawner_pid, SIGKILL);
	if (e->spawner >= 0)
		close(e->spawner);
	e->spawner = -1;
	ext_teardown(e);
	for (i = 1; i < e->m.n; i++) {
		struct mtask *t = &e->m.t[i];

		if (t->leader == i && t->life != ML_DEAD && t->tid > 0)
			kill(t->tid, SIGKILL);
		task_files_close(e, i);
		if (i < e->e_cap && e->e[i].pidfd >= 0) {
			close(e->e[i].pidfd);
			e->e[i].pidfd = -1;
		}
	}
	if (ps_cleanup() < 0) {
		e->cur = NULL;
		report(e, &(struct fdesc){ .check = "teardown", .rule = R_NONE },
		       "teardown: a task of the scenario survived SIGKILL (listed above); no "
		       "further scenario runs on this kernel");
		unkillable = true;
	}
}

static void free_engine(struct engine *e)
{
	if (e->kmsg >= 0)
		close(e->kmsg);
	if (e->taint_fd >= 0)
		close(e->taint_fd);
	free(e->e);
	free(e->chk);
	free(e->before);
	names_free(e->names);
	model_free(&e->m);
	free(e);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static const char *const state_names[ST_N] = {
	[ST_N_RUNNING] = "running", [ST_N_TRACED_RUNNING] = "traced_running",
	[ST_N_TRACED_STOP] = "traced_stopped", [ST_N_GROUP_STOP] = "group_stopped",
	[ST_N_LISTENING] = "listening", [ST_N_ZOMBIE] = "zombie",
};

static const char *const check_part_names[CHECK_PART_N] = {
	[CHECK_PART_TASKS] = "tasks", [CHECK_PART_SIGCHLD] = "sigchld",
	[CHECK_PART_PENDING] = "pending", [CHECK_PART_KERNEL] = "kernel",
};

/* The scenario's JSON line: figures and where its report is.  0 or -1 (write failed). */
static int summary_json(struct engine *e, FILE *f, int verdict, bool kept)
{
	static const char *const res[] = { "pass", "finding", "usage", "harness" };
	struct json j;
	int v;

	if (!f)
		return 0;
	json_start(&j, f);
	json_str(&j, "type", "scenario");
	json_str(&j, "scenario", e->file);
	json_str(&j, "result", verdict <= 3 ? res[verdict] : "?");
	json_int(&j, "steps", e->st.steps);
	json_int(&j, "checks", e->st.checks);
	json_int(&j, "reports", e->st.reports);
	json_int(&j, "sigchld", e->st.sigchld);
	json_int(&j, "findings", e->st.findings);
	json_double(&j, "seconds", elapsed(e));
	json_str(&j, "report_dir", kept ? e->dir : "");
	if (e->opts->wrong_rule != R_NONE)
		json_str(&j, "wrong_model", m_rule_id(e->opts->wrong_rule));
	json_object(&j, "verbs");
	for (v = 0; v < V_NR_VERBS; v++)
		if (e->st.verb_steps[v])
			json_int(&j, sc_verb_name((enum sc_verb)v), e->st.verb_steps[v]);
	json_close(&j);
	json_object(&j, "states");
	for (v = 0; v < ST_N; v++)
		json_int(&j, state_names[v], e->st.states[v]);
	json_close(&j);
	json_profile(&j);
	/* json_profile() closed its object: these are the engine's shares. */
	json_object(&j, "verb_s");
	for (v = 0; v < V_NR_VERBS; v++)
		if (e->st.verb_ns[v])
			json_double(&j, sc_verb_name((enum sc_verb)v), e->st.verb_ns[v] / 1e9);
	json_close(&j);
	json_double(&j, "after_step_s", e->st.after_ns / 1e9);
	json_object(&j, "check_s");
	for (v = 0; v < CHECK_PART_N; v++)
		json_double(&j, check_part_names[v], e->st.check_ns[v] / 1e9);
	json_close(&j);
	json_int(&j, "exec_stops", e->st.exec_stops);
	json_int(&j, "group_execs", e->st.group_execs);
	json_int(&j, "debugger_execs", e->st.debugger_execs);
	json_int(&j, "debugger_births", e->st.debugger_births);
	json_int(&j, "leader_exits", e->st.leader_exits);
	json_int(&j, "exited_tkills", e->st.exited_tkills);
	json_int(&j, "signal_conts", e->st.signal_conts);
	json_int(&j, "signal_restops", e->st.signal_restops);
	json_int(&j, "open_fds", e->st.open_fds);
	json_int(&j, "live_end", e->st.live_end);
	json_int(&j, "live_max", e->st.live_max);
	json_int(&j, "step_kills", e->m.step_kills);
	json_int(&j, "reaper_moves", e->m.reaper_moves);
	json_int(&j, "probes", e->st.probes);
	json_int(&j, "probes_skipped", e->st.probes_skipped);
	if (json_end(&j) < 0) {
		tap_bail("could not write the JSON summary: %s", strerror(-j.err));
		return -1;
	}
	return 0;
}

static void print_counts(struct engine *e)
{
	char buf[1024];
	size_t n = 0;
	int v;

	for (v = 0; v < V_NR_VERBS && n < sizeof(buf); v++)
		if (e->st.verb_steps[v])
			n += snprintf(buf + n, sizeof(buf) - n, " %s=%ld",
				      sc_verb_name((enum sc_verb)v), e->st.verb_steps[v]);
	tap_diag("steps by verb:%s", buf);
	for (v = 0, n = 0; v < ST_N && n < sizeof(buf); v++)
		n += snprintf(buf + n, sizeof(buf) - n, " %s=%ld", state_names[v],
			      e->st.states[v]);
	tap_diag("task states seen after steps:%s", buf);
}

/*
 * "kernel 6.1 ..." statements: the scenario pins down that version's
 * behaviour; on another kernel it is skipped with the statement's reason.
 * Returns the statement that does not match the running kernel, or NULL.
 */
static const struct stmt *kernel_skip(const struct scenario *sc, char *running, size_t len)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;
	int i;

	if (uname(&u) == 0)
		sscanf(u.release, "%u.%u", &major, &minor);
	snprintf(running, len, "%u.%u", major, minor);
	for (i = 0; i < sc->nstmts; i++)
		if (sc->stmts[i].verb == V_KERNEL && sc->stmts[i].num != (long)major * 1000 + minor)
			return &sc->stmts[i];
	return NULL;
}

static int run_one(const struct scenario *sc, const char *dir, const struct run_opts *o,
		   FILE *json)
{
	struct engine *e = calloc(1, sizeof(*e));
	char *text;
	char path[PATH_MAX + 32];
	int verdict, r;
	bool keep;

	const struct stmt *k;
	char running[32];

	if (!e)
		return PS_EXIT_HARNESS;
	k = kernel_skip(sc, running, sizeof(running));
	e->after_61 = strcmp(running, "6.1") != 0;
	if (k) {
		char why[320];

		snprintf(why, sizeof(why), "pins down Linux %ld.%ld behaviour, this is %s: %s",
			 k->num / 1000, k->num % 1000, running, k->text);
		tap_skip(why, "%s", sc->path);
		free(e);
		return PS_EXIT_ALL_SKIPPED;
	}
	model_init(&e->m, getpid());
	e->m.wrong = o->wrong_rule;
	e->opts = o;
	e->spawner = -1;
	e->kmsg = -1;
	e->taint_fd = -1;
	e->names = names_new();
	if (!e->names || !etask_grow(e)) {
		tap_bail("out of memory");
		free_engine(e);
		return PS_EXIT_HARNESS;
	}
	bind_name(e, "R", 0);
	if (start_spawner(e) < 0) {
		tap_bail("cannot start the spawner: %s", ps_last_error());
		teardown(e);
		free_engine(e);
		return PS_EXIT_HARNESS;
	}
	/* SIGCHLDs of an earlier scenario's teardown are no one's to check here. */
	{
		struct sigchld_rec old[64];
		int lost;

		while (sigchld_log_take(old, 64, &lost) == 64)
			;
	}
	e->file = sc->path;
	e->json = json;
	e->step = run_step;
	e->step_timeout = o->timeout_sec;
	/* ptstress fuzz: its --duration bounds it, with a margin for the end checks */
	e->scen_timeout = !o->fuzz ? 600 : o->fuzz_duration ? o->fuzz_duration + 600 : 86400 * 7;
	e->have_links = links_supported();
	e->have_kcheck = kcheck_supported();
	/*
	 * From its end now: the link checker's records that name tasks
	 * (check_kernel()) are this scenario's.  Not there, not ours to read
	 * (not root), or naming pids of another namespace than ours: the
	 * finding names no task.
	 */
	e->kmsg = e->have_kcheck && ps_in_init_pid_ns() ?
		  open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (e->kmsg >= 0 && lseek(e->kmsg, 0, SEEK_END) < 0) {
		close(e->kmsg);
		e->kmsg = -1;
	}
	/* The taint flags from now: a report they show comes of this scenario. */
	taint_begin(e);
	e->kernel_first = taint_explains;
	clock_gettime(CLOCK_MONOTONIC, &e->started);
	e->conts0 = ps_continued;
	ps_prof_start();	/* this scenario's own */
	snprintf(e->dir, sizeof(e->dir), "%s", dir);
	if (mkdir(e->dir, 0755) < 0 && errno != EEXIST) {
		tap_bail("cannot create report directory %s: %s", e->dir, strerror(errno));
		teardown(e);
		free_engine(e);
		return PS_EXIT_HARNESS;
	}
	text = scenario_print(sc);
	if (text) {
		write_file(e->dir, "scenario.sc", text);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/steps.log", e->dir);
	e->log = fopen(path, "we");
	if (e->log)
		setvbuf(e->log, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/findings.jsonl", e->dir);
	e->findings = fopen(path, "we");
	tap_diag("scenario %s (report directory %s)", sc->path, e->dir);
	if (!e->have_links)
		tap_diag("no ptrace_links: /proc status, SIGCHLD and wait reports only");

	diff_begin(e);
	if (!e->stop)
		run_stmts(e, sc->stmts, sc->nstmts);
	e->cur = NULL;
	if (ps_stop_signal && !e->stop)
		harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
	if (!e->stop) {
		/* The end is a quiescent point: everything owed must arrive. */
		r = collect_reports(e, true);
		if (!r)
			r = check_tasks(e, true, "end of scenario");
		if (!r)
			r = check_sigchld(e, "end of scenario");
		if (!r)
			r = check_pending(e, "end of scenario");
		if (!r)
			r = check_kernel(e, "end of scenario");
		if (!r)
			r = check_taint(e, "end of scenario");
		if (!r)
			diff_end(e);
	}
	if (e->st.verb_steps[V_STRESS])
		print_counts(e);
	if (!e->stop)
		tap_result(true, "%s: %ld steps, %ld comparisons, %ld exit reports, %ld SIGCHLDs "
			   "as the model says", sc->path, e->st.steps, e->st.checks, e->st.reports,
			   e->st.sigchld);
	/*
	 * The steps are over, the teardown (SIGKILL to everything left)
	 * comes next: a kernel that dies after this line died in the
	 * teardown, not in a step (guest/fuzz's minimization reads it).
	 */
	if (json) {
		fprintf(json, "{\"type\":\"steps-done\",\"findings\":%d}\n", e->st.findings);
		fflush(json);
	}
	e->st.open_fds = count_open_fds();
	e->st.live_end = e->m.nlive;
	teardown(e);
	/* A finding seen before the harness broke is still a finding (tap_exit_code()). */
	verdict = e->st.findings ? PS_EXIT_FINDING : e->harness ? PS_EXIT_HARNESS : PS_EXIT_PASS;
	keep = verdict || o->keep_reports;
	if (summary_json(e, json, verdict, keep) < 0)
		verdict = PS_EXIT_HARNESS;
	if (e->log)
		fclose(e->log);
	if (e->findings)
		fclose(e->findings);
	if (!keep) {
		r = rm_tree(e->dir);
		if (r < 0)
			tap_diag("could not remove %s: %s", e->dir, strerror(-r));
	} else {
		tap_diag("report directory kept: %s", e->dir);
	}
	free_engine(e);
	return verdict;
}

/*
 * R holds one socket per agent: thousands of them in a stress run, past
 * the usual soft limit of 1024.  Root may raise the hard limit too, up to
 * fs.nr_open.
 */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	char buf[32] = "";
	long nr_open = 0;
	FILE *f;

	f = fopen("/proc/sys/fs/nr_open", "re");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			nr_open = atol(buf);
		fclose(f);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (nr_open > 65536)
		nr_open = 65536;
	if ((rlim_t)nr_open > rl.rlim_max) {
		struct rlimit up = { (rlim_t)nr_open, (rlim_t)nr_open };

		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			return;
	}
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
}

/* Is R itself traced (run under strace -f or gdb)?  Its tracer would trace every agent. */
static pid_t own_tracer(void)
{
	struct proc_status ps;
	struct parse_error pe;

	if (status_read(getpid(), getpid(), &ps, &pe) < 0)
		return 0;
	return ps.tracer_pid;
}

/* mkdir -p: every missing directory of @path, no shell. */
static int mkdir_p(const char *path)
{
	char p[PATH_MAX];
	size_t i;

	snprintf(p, sizeof(p), "%s", path);
	for (i = 1; p[i]; i++) {
		if (p[i] != '/')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		p[i] = '/';
	}
	return mkdir(p, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* Report directories: BASE/NAME, with .2, .3 ... when two files share a name. */
static void report_dirs(const char *base, struct scenario *scs, int n, char (*dirs)[PATH_MAX])
{
	char b[PATH_MAX];
	int i, k, same;

	for (i = 0; i < n; i++) {
		snprintf(b, sizeof(b), "%s", scs[i].path);
		snprintf(dirs[i], PATH_MAX, "%s/%s", base, basename(b));
		for (k = 0, same = 1; k < i; k++)
			if (!strncmp(dirs[k], dirs[i], strlen(dirs[i])) &&
			    (dirs[k][strlen(dirs[i])] == '\0' || dirs[k][strlen(dirs[i])] == '.'))
				same++;
		if (same > 1) {
			size_t l = strlen(dirs[i]);

			snprintf(dirs[i] + l, PATH_MAX - l, ".%d", same);
		}
	}
}

int cmd_run(struct scenario *scs, int n, struct run_opts *o, FILE *json)
{
	char defbase[PATH_MAX / 2], (*dirs)[PATH_MAX];
	const char *base = o->report_base, *tmpdir;
	int i, worst = 0, r, skipped = 0;
	pid_t tracer = own_tracer();
	struct obs_stream obs;

	if (tracer) {
		tap_begin();
		tap_bail("ptstress runs under a tracer (pid %d, strace or gdb?): every agent it "
			 "forks would be traced by it too; run it untraced", (int)tracer);
		return PS_EXIT_HARNESS;
	}
	dirs = calloc(n, PATH_MAX);
	if (!dirs)
		return PS_EXIT_HARNESS;
	if (!base) {
		/* $TMPDIR's, as mktemp(1) and the minimizer's scratch directory */
		tmpdir = getenv("TMPDIR");
		if (!tmpdir || tmpdir[0] != '/')
			tmpdir = "/tmp";
		if (snprintf(defbase, sizeof(defbase), "%s/ptstress-report.%d", tmpdir,
			     (int)getpid()) >= (int)sizeof(defbase)) {
			fprintf(stderr, "ptstress run: TMPDIR %s: too long\n", tmpdir);
			free(dirs);
			return PS_EXIT_USAGE;
		}
		base = defbase;
	}
	if (mkdir_p(base) < 0) {
		fprintf(stderr, "ptstress run: report directory %s: %s\n", base, strerror(errno));
		free(dirs);
		return PS_EXIT_USAGE;
	}
	report_dirs(base, scs, n, dirs);
	if (o->record_path || o->against_path) {
		r = obs_open(&obs, o->record_path, o->against_path);
		if (r < 0) {
			fprintf(stderr, "ptstress: %s: %s\n", o->against_path && !obs.rec ?
				o->against_path : o->record_path, strerror(-r));
			rmdir(base);	/* made above, empty: no scenario ran */
			free(dirs);
			return PS_EXIT_USAGE;
		}
		o->obs = &obs;
	}
	raise_fd_limit();
	/* Every SIGCHLD R dequeues is logged (wait.c) and checked (observe.c). */
	block_sigchld();
	tap_begin();
	if (o->kernel == KERNEL_REQUIRE && !links_supported()) {
		tap_bail("--kernel=require: this kernel has no ptrace_links (wrong kernel booted)");
		if (o->obs)
			obs_close(o->obs);
		rmdir(base);
		free(dirs);
		return PS_EXIT_HARNESS;
	}
	for (i = 0; i < n && !ps_stop_signal; i++) {
		if (o->first_finding && worst == PS_EXIT_FINDING) {
			tap_diag("--first-finding: %d scenarios not run", n - i);
			break;
		}
		if (unkillable) {
			tap_skip("an earlier scenario left a task that survived SIGKILL", "%s",
				 scs[i].path);
			continue;
		}
		r = run_one(&scs[i], dirs[i], o, json);
		if (r == PS_EXIT_ALL_SKIPPED)
			skipped++;
		else if (r == PS_EXIT_FINDING || (r == PS_EXIT_HARNESS && worst != PS_EXIT_FINDING))
			worst = r;
	}
	if (o->obs && obs_close(&obs) < 0 && !worst) {
		tap_diag("could not write the observations to %s", o->record_path);
		worst = PS_EXIT_HARNESS;
	}
	o->obs = NULL;
	tap_end();
	/* The base directory goes if every scenario passed (it is then empty). */
	rmdir(base);
	if (worst)
		tap_diag("reports under %s", base);
	free(dirs);
	if (ps_stop_signal)
		return PS_EXIT_HARNESS;
	return !worst && skipped == n ? PS_EXIT_ALL_SKIPPED : worst;
}
