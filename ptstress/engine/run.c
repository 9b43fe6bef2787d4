// SPDX-License-Identifier: GPL-2.0
/*
 * `ptstress run FILE...`: parse every scenario first (a bad file is exit 2
 * before anything runs), then run them one after the other, each in a
 * fresh model, with TAP on stdout, a JSON-lines summary and a report
 * directory that is kept when something failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "lib/kcheck.h"
#include "lib/links.h"

#define NAME_BUCKETS	(1 << 17)	/* > 4 x the most tasks a run may name */

struct engine eng;
/*
 * A task survived SIGKILL: every later scenario would wait for it again in
 * its teardown, and the kernel is broken beyond what they could add.
 */
static bool unkillable;

/* name -> model index; open addressing, newest binding overwrites. */
static struct binding {
	char name[SC_NAME_LEN];	/* "" = free */
	int idx;		/* model index */
} *names;

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

void bind_name(const char *name, int i)
{
	unsigned int h = hash(name) & (NAME_BUCKETS - 1);

	while (names[h].name[0] && strcmp(names[h].name, name))
		h = (h + 1) & (NAME_BUCKETS - 1);
	snprintf(names[h].name, sizeof(names[h].name), "%s", name);
	names[h].idx = i;
}

int task_of(const char *name)
{
	unsigned int h = hash(name) & (NAME_BUCKETS - 1);

	while (names[h].name[0]) {
		if (!strcmp(names[h].name, name))
			return names[h].idx;
		h = (h + 1) & (NAME_BUCKETS - 1);
	}
	harness_err("name '%s' is not bound to a task", name);
	return -1;
}

const char *tname(int i)
{
	static __thread char buf[4][80];
	static __thread int k;

	if (i < 0 || i >= eng.m.n)
		return m_name(&eng.m, i);
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s (tid %d)", m_name(&eng.m, i), (int)eng.m.t[i].tid);
	return buf[k];
}

bool etask_grow(void)
{
	struct etask *e;
	int i;

	if (eng.e_cap >= eng.m.cap)
		return true;
	e = realloc(eng.e, eng.m.cap * sizeof(*e));
	if (!e)
		return false;
	for (i = eng.e_cap; i < eng.m.cap; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].fd = -1;
		e[i].session = -1;
	}
	eng.e = e;
	eng.e_cap = eng.m.cap;
	return true;
}

static void where(char *buf, size_t len)
{
	if (eng.cur)
		snprintf(buf, len, "%s:%d", eng.cur->loc.file, eng.cur->loc.line);
	else
		snprintf(buf, len, "%s", eng.file ? eng.file : "?");
}

void logf_(const char *fmt, ...)
{
	va_list ap;

	if (!eng.log)
		return;
	va_start(ap, fmt);
	vfprintf(eng.log, fmt, ap);
	va_end(ap);
	fputc('\n', eng.log);
}

/* What went wrong at the running statement: a finding, our harness, the scenario. */
enum failure { F_FINDING, F_HARNESS, F_SCENARIO };

static void fail(enum failure kind, const char *fmt, va_list ap)
{
	static const char *const what[] = { "", "harness error: ", "scenario cannot run: " };
	static const char *const tag[] = { "FINDING", "HARNESS", "BAD" };
	char msg[1024], loc[300];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	where(loc, sizeof(loc));
	if (kind == F_SCENARIO)
		fprintf(stderr, "%s: %s\n", loc, msg);
	tap_result(false, "%s: %s%s", loc, what[kind], msg);
	logf_("%s %s: %s", tag[kind], loc, msg);
	if (kind == F_FINDING)
		eng.st.findings++;
	else
		eng.harness = true;
	eng.stop = true;
}

void finding(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail(F_FINDING, fmt, ap);
	va_end(ap);
}

void harness_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail(F_HARNESS, fmt, ap);
	va_end(ap);
}

void bad_scenario(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail(F_SCENARIO, fmt, ap);
	va_end(ap);
}

bool outcome_ok(const struct stmt *s, int err)
{
	int i;

	if (!s->nfails)
		return err == 0;
	for (i = 0; i < s->nfails; i++) {
		if (s->fails[i] == err)
			return true;
	}
	return false;
}

int start_call(int i, const struct agent_req *req)
{
	char buf[96];
	int r;

	agent_req_str(req, buf, sizeof(buf));
	logf_("  -> %s: %s", tname(i), buf);
	if (eng.e[i].fd < 0) {
		harness_err("%s has no command channel (request '%s')", tname(i), buf);
		return -EBADF;
	}
	r = agent_send(eng.e[i].fd, req);
	if (r < 0)
		harness_err("%s: %s", tname(i), ps_last_error());
	return r;
}

int finish(int i, const struct agent_req *req, struct agent_reply *rep, int *newfd)
{
	struct deadline dl;
	char buf[96];
	int fd, r;

	/* The agent's own wait uses the step timeout: give it time to say so. */
	deadline_start(&dl, eng.step_timeout + REPLY_GRACE_SEC);
	r = agent_reply(eng.e[i].fd, rep, newfd ? newfd : &fd, &dl);
	if (r < 0) {
		harness_err("no reply of %s to '%s': %s", tname(i),
			    agent_req_str(req, buf, sizeof(buf)), ps_last_error());
		return r;
	}
	if (!newfd && fd >= 0)
		close(fd);
	logf_("  <- %s: ok=%d err=%s %s", tname(i), rep->ok, rep->err ? errno_name(rep->err) : "0",
	      rep->msg);
	return 0;
}

int call(int i, const struct agent_req *req, struct agent_reply *rep, int *newfd)
{
	int r = start_call(i, req);

	return r < 0 ? r : finish(i, req, rep, newfd);
}

static double elapsed(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - eng.started.tv_sec) + (now.tv_nsec - eng.started.tv_nsec) / 1e9;
}

static struct mtask *before;	/* the model before the running step */
static int before_n, before_cap;

static bool snapshot(void)
{
	if (before_cap < eng.m.n) {
		free(before);
		before_cap = eng.m.cap;
		before = malloc(before_cap * sizeof(*before));
		if (!before) {
			before_cap = 0;
			harness_err("out of memory");
			return false;
		}
	}
	memcpy(before, eng.m.t, eng.m.n * sizeof(*before));
	before_n = eng.m.n;
	return true;
}

/* Tasks the step changed in the model are checked against the kernel. */
static void mark_dirty(void)
{
	int i;

	for (i = 0; i < eng.m.n; i++) {
		const struct mtask *a = &before[i], *b = &eng.m.t[i];

		if (i >= before_n || a->life != b->life || a->tracer != b->tracer ||
		    a->real_parent != b->real_parent || a->stop != b->stop ||
		    a->stop_known != b->stop_known || a->leader != b->leader ||
		    a->tid != b->tid)
			eng.e[i].dirty = true;
	}
}

/* Run @n statements; repeat bodies recurse. */
static int run_stmts(const struct stmt *s, int n)
{
	int i;
	long k;

	for (i = 0; i < n && !eng.stop; i++) {
		if (ps_stop_signal) {
			harness_err("interrupted by %s", sig_name(ps_stop_signal));
			return -1;
		}
		if (elapsed() > eng.scen_timeout) {
			eng.cur = &s[i];
			finding("scenario timeout: %d s passed", eng.scen_timeout);
			return -1;
		}
		if (s[i].verb == V_REPEAT) {
			for (k = 0; k < s[i].num && !eng.stop; k++)
				run_stmts(s[i].body, s[i].nbody);
			continue;
		}
		eng.cur = &s[i];
		eng.st.steps++;
		logf_("%s:%d: %s", s[i].loc.file, s[i].loc.line, sc_verb_name(s[i].verb));
		if (!snapshot())
			return -1;
		run_verb(&s[i]);
		if (eng.stop || s[i].verb == V_STRESS || s[i].verb == V_CHECK ||
		    s[i].verb == V_EXPECT)
			continue;
		/* strace and gdb reap their tracees' exits as they come. */
		collect_reports(false);
		/* Every step ends at a quiescent point for what it touched. */
		mark_dirty();
		check_tasks(false, "after this step");
	}
	return eng.stop ? -1 : 0;
}

/* Kill and reap everything the scenario created; R has no child left after. */
static void teardown(void)
{
	int i;

	ext_teardown();
	for (i = 1; i < eng.m.n; i++) {
		struct mtask *t = &eng.m.t[i];

		if (t->leader == i && t->life != ML_DEAD && t->tid > 0)
			kill(t->tid, SIGKILL);
		if (i < eng.e_cap && eng.e[i].fd >= 0) {
			close(eng.e[i].fd);
			eng.e[i].fd = -1;
		}
	}
	if (ps_cleanup() < 0) {
		eng.cur = NULL;
		finding("teardown: a task of the scenario survived SIGKILL (listed above); "
			"no further scenario runs on this kernel");
		unkillable = true;
	}
}

static int mkreportdir(const char *base, const char *file)
{
	char b[256];

	snprintf(b, sizeof(b), "%s", file);
	snprintf(eng.dir, sizeof(eng.dir), "%s/%s", base, basename(b));
	if (mkdir(base, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (mkdir(eng.dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

static void rm_dir(const char *dir)
{
	char cmd[600];

	/* Our own directory of plain files; no user input reaches the shell. */
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", dir);
}

static int run_one(const struct scenario *sc, const char *base, FILE *json)
{
	char *text;
	char logpath[512];
	int verdict;

	memset(&eng, 0, sizeof(eng));
	model_init(&eng.m, getpid());
	if (!etask_grow())
		return PS_EXIT_HARNESS;
	memset(names, 0, NAME_BUCKETS * sizeof(*names));
	bind_name("R", 0);
	eng.file = sc->path;
	eng.step_timeout = ps_config.timeout_sec;
	eng.scen_timeout = 600;
	eng.have_links = links_supported();
	eng.have_kcheck = kcheck_supported();
	clock_gettime(CLOCK_MONOTONIC, &eng.started);
	if (mkreportdir(base, sc->path) < 0) {
		tap_bail("cannot create report directory %s: %s", eng.dir, strerror(errno));
		return PS_EXIT_HARNESS;
	}
	text = scenario_print(sc);
	if (text) {
		write_file(eng.dir, "scenario.txt", text);
		free(text);
	}
	snprintf(logpath, sizeof(logpath), "%s/steps.log", eng.dir);
	eng.log = fopen(logpath, "w");
	if (eng.log)
		setvbuf(eng.log, NULL, _IOLBF, 0);
	tap_diag("scenario %s (report directory %s)", sc->path, eng.dir);
	if (!eng.have_links)
		tap_diag("no ptrace_links: /proc status and wait reports only");

	run_stmts(sc->stmts, sc->nstmts);
	eng.cur = NULL;
	if (ps_stop_signal && !eng.stop)
		harness_err("interrupted by %s", sig_name(ps_stop_signal));
	if (!eng.stop) {
		/* The end is a quiescent point: everything owed must arrive. */
		collect_reports(true);
		if (!eng.stop)
			check_tasks(true, "end of scenario");
		if (!eng.stop)
			check_kernel("end of scenario");
	}
	if (!eng.stop)
		tap_result(true, "%s: %ld steps, %ld comparisons, %ld exit reports as the model "
			   "says", sc->path, eng.st.steps, eng.st.checks, eng.st.reports);
	teardown();
	verdict = eng.harness ? PS_EXIT_HARNESS : eng.st.findings ? PS_EXIT_FINDING : PS_EXIT_PASS;
	if (json)
		fprintf(json, "{\"scenario\":\"%s\",\"result\":\"%s\",\"steps\":%ld,"
			"\"checks\":%ld,\"reports\":%ld,\"findings\":%d,\"seconds\":%.2f,"
			"\"report_dir\":\"%s\"}\n", sc->path,
			verdict == 0 ? "pass" : verdict == 1 ? "finding" : "harness",
			eng.st.steps, eng.st.checks, eng.st.reports, eng.st.findings, elapsed(),
			verdict ? eng.dir : "");
	if (eng.log)
		fclose(eng.log);
	if (verdict == 0)
		rm_dir(eng.dir);
	else
		tap_diag("report directory kept: %s", eng.dir);
	free(eng.e);
	model_free(&eng.m);
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

	f = fopen("/proc/sys/fs/nr_open", "r");
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

static const char run_usage[] =
	"usage: ptstress run [--kernel=auto|require] [--timeout SEC] [--report-dir DIR]\n"
	"                    [--json FILE] FILE...\n";

int cmd_run(int argc, char **argv)
{
	struct scenario *scs;
	struct sc_error err;
	const char *base = NULL, *jpath = NULL;
	char defbase[64];
	FILE *json = NULL;
	int i, n = 0, worst = 0, r;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--report-dir") && i + 1 < argc) {
			base = argv[++i];
		} else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
			jpath = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "ptstress run: unknown option %s\n%s", argv[i], run_usage);
			return PS_EXIT_USAGE;
		} else {
			argv[n++] = argv[i];
		}
	}
	if (!n) {
		fprintf(stderr, "ptstress run: no scenario file\n%s", run_usage);
		return PS_EXIT_USAGE;
	}
	scs = calloc(n, sizeof(*scs));
	names = calloc(NAME_BUCKETS, sizeof(*names));
	if (!scs || !names)
		return PS_EXIT_HARNESS;
	/* Bad input loses nothing: all files are checked before anything runs. */
	for (i = 0; i < n; i++) {
		if (scenario_parse_file(argv[i], &scs[i], &err) < 0) {
			sc_error_print(&err);
			return PS_EXIT_USAGE;
		}
	}
	if (!base) {
		snprintf(defbase, sizeof(defbase), "/tmp/ptstress-report.%d", (int)getpid());
		base = defbase;
	}
	if (jpath) {
		json = fopen(jpath, "w");
		if (!json) {
			fprintf(stderr, "ptstress run: %s: %s\n", jpath, strerror(errno));
			return PS_EXIT_USAGE;
		}
		setvbuf(json, NULL, _IOLBF, 0);
	}
	raise_fd_limit();
	if (ps_config.kernel == KERNEL_REQUIRE && !links_supported()) {
		tap_begin();
		tap_bail("--kernel=require: this kernel has no ptrace_links (wrong kernel booted)");
		return PS_EXIT_HARNESS;
	}
	tap_begin();
	for (i = 0; i < n && !ps_stop_signal; i++) {
		if (unkillable) {
			tap_skip("an earlier scenario left a task that survived SIGKILL", "%s",
				 scs[i].path);
			scenario_free(&scs[i]);
			continue;
		}
		r = run_one(&scs[i], base, json);
		if (r == PS_EXIT_HARNESS || (r == PS_EXIT_FINDING && worst != PS_EXIT_HARNESS))
			worst = r;
		scenario_free(&scs[i]);
	}
	tap_end();
	if (json)
		fclose(json);
	/* The base directory goes if every scenario passed (it is then empty). */
	rmdir(base);
	if (worst)
		tap_diag("reports under %s", base);
	free(scs);
	free(names);
	return ps_stop_signal ? PS_EXIT_HARNESS : worst;
}
