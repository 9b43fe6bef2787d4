// SPDX-License-Identifier: GPL-2.0
/*
 * ptstress's command line: run, fuzz, minimize, links, check, rules, verbs,
 * tput, --help.
 * Every command accepts exactly the options it implements; anything else
 * is a usage error (exit 2).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/agent.h"
#include "cmd/cmds.h"
#include "cmd/fuzz.h"
#include "cmd/tput.h"
#include "engine/run.h"
#include "lib/json.h"
#include "lib/kcheck.h"
#include "lib/links.h"

#define MAX_TIMEOUT_SEC		3600
#define MAX_PAUSE_MS		3600000

static const char usage_text[] =
	"usage: ptstress run [--kernel=auto|require] [--timeout SEC] [--report-dir DIR]\n"
	"                    [--json FILE] [--keep-reports] [--pause MS] [--wrong-model=RULE]\n"
	"                    [--first-finding] [--gdb-on-failure] [--record OBS]\n"
	"                    [--against OBS [--wrong-reply=OP]] FILE...\n"
	"       ptstress fuzz [run's options] [--seed N] [--steps N] [--duration SEC]\n"
	"                     [--tasks N] [--tracers N] [--threads N]\n"
	"       ptstress minimize [run's options] [--confirm K] [--max-replays N]\n"
	"                     [--signature SIG] [--memo FILE] [--finding-tasks A,B]\n"
	"                     [--oracle CMD [--batch]]\n"
	"                     --out FILE FILE\n"
	"       ptstress links [--kernel=auto|require] TID...\n"
	"       ptstress check [--kernel=auto|require]\n"
	"       ptstress rules [--json]\n"
	"       ptstress verbs\n"
	"       ptstress tput [--tracers N] [--seconds S] [--what attach|kill|both] [--bare]\n"
	"       ptstress --help\n";

static const char help_text[] =
	"\n"
	"  run       run scenario files (docs/scenario-format.md): populations, tracers\n"
	"            and verbs, each step checked against the model of what the kernel\n"
	"            must show; a report directory is kept for failures\n"
	"  fuzz      draw steps from the verb table (by weight, valid by the model)\n"
	"            over a population that grows and shrinks, each checked as run\n"
	"            checks it, until --steps, --duration (default 60 s) or a finding;\n"
	"            progress every 10 s; the executed steps are stress.sc in its\n"
	"            report directory (docs/fuzz.md)\n"
	"  minimize  shrink a scenario that ends in a finding (delta debugging over\n"
	"            its statements) to one that still ends in the same signature\n"
	"            (check/rule/verb), confirmed K times (default 3); writes --out\n"
	"  links     parse /proc/TID/task/TID/ptrace_links of each TID and check it\n"
	"  check     the kernel link checker: a full walk finds no violation, and\n"
	"            none was counted since boot (<debugfs>/ptrace_links/)\n"
	"  rules     the model's rule registry: id, citation, statement\n"
	"  verbs     the verb table: name, clauses, weight\n"
	"  tput      attach+detach and kill+reap cycles/s of ptstress's tracer through\n"
	"            its command channel (--bare: the same calls without it)\n"
	"\n"
	"  --kernel=auto     no ptrace_links file: SKIP those checks (default)\n"
	"  --kernel=require  no ptrace_links file: exit 3 (wrong kernel booted)\n"
	"  --timeout SEC     deadline of each wait for a promised event (default 30)\n"
	"  --report-dir DIR  where each scenario's report directory goes\n"
	"                    (default $TMPDIR/ptstress-report.PID, TMPDIR default /tmp)\n"
	"  --json FILE       one JSON line per finding and per scenario\n"
	"  --keep-reports    keep the report directories of passing scenarios too\n"
	"  --first-finding   run no scenario after the first one with a finding\n"
	"  --gdb-on-failure  in guest/run: at each finding, freeze the guest and save\n"
	"                    the kernel's view of its tasks (gdb) as kernel-view.txt\n"
	"  --pause MS        sleep after every step (to look at the tasks)\n"
	"  --wrong-model=RULE  the oracle's self-test: perturb one rule of the model\n"
	"                    (ptstress rules lists them); a correct kernel must fail\n"
	"  --record OBS      differential mode: write what this kernel showed (every\n"
	"                    reply, /proc status and ptrace_links, pids as names)\n"
	"  --against OBS     differential mode (run only): the same steps must show\n"
	"                    what the recording OBS says; the first difference is a\n"
	"                    finding of check \"differential\"\n"
	"  --wrong-reply=OP  differential mode's self-test (with --against): every\n"
	"                    reply to agent op OP reads as failed (EIO), a kernel\n"
	"                    that differs where the model has no rule\n"
	"  --oracle CMD      minimize: each candidate is `CMD --timeout SEC FILE JSON`\n"
	"                    (exit 1 and run's JSON: a finding; 3: our error), not\n"
	"                    `ptstress run` (guest/diff-oracle: differential mode)\n"
	"  --batch           minimize --oracle: a round of candidates in one call,\n"
	"                    `CMD --timeout SEC --batch LIST VERDICTS` (docs/fuzz.md)\n"
	"\n"
	"exit: 0 pass, 1 kernel finding, 2 usage/bad input, 3 harness error,\n"
	"      4 everything skipped; 130/143 interrupted by SIGINT/SIGTERM\n";

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "ptstress%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_text);
	return PS_EXIT_USAGE;
}

/* A decimal in [min, max], nothing else. */
static bool parse_int(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!*s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

/* The options a command takes. */
enum {
	OK_KERNEL = 1,		/* --kernel=auto|require */
	OK_RUN = 2,		/* --timeout --report-dir --json --keep-reports --pause
				 * --wrong-model --first-finding */
	OK_JSON = 4,		/* --json (a flag) */
	OK_FUZZ = 8,		/* --seed --steps --duration --tasks --tracers --threads */
	OK_MIN = 16,		/* --confirm --max-replays --signature --out --memo
				 * --finding-tasks --oracle --batch */
};

struct cmdline {
	const char *cmd;
	unsigned int allowed;
	char **args;		/* positional arguments */
	int nargs;
	struct run_opts run;
	const char *json;	/* run: --json FILE */
	bool json_flag;		/* rules: --json */
	struct fuzz_args fz;	/* fuzz, minimize */
};

/* Parse the options of @c->cmd (argv[0] is the command).  0 or an exit code. */
static int parse_cmdline(int argc, char **argv, struct cmdline *c)
{
	bool missing = false;
	const char *v;
	long n;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			while (++i < argc)
				c->args[c->nargs++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			c->args[c->nargs++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("%s%s", usage_text, help_text);
			return -1;
		}
		if ((c->allowed & OK_KERNEL) && !strcmp(a, "--kernel=auto")) {
			ps_config.kernel = KERNEL_AUTO;
		} else if ((c->allowed & OK_KERNEL) && !strcmp(a, "--kernel=require")) {
			ps_config.kernel = KERNEL_REQUIRE;
		} else if ((c->allowed & OK_RUN) &&
			   (v = opt_value(argc, argv, &i, "--timeout", &missing))) {
			if (!parse_int(v, 1, MAX_TIMEOUT_SEC, &n))
				return usage_error(c->cmd, "bad --timeout '%s' (1..3600 seconds)",
						   v);
			ps_config.timeout_sec = (int)n;
		} else if ((c->allowed & OK_RUN) &&
			   (v = opt_value(argc, argv, &i, "--pause", &missing))) {
			if (!parse_int(v, 0, MAX_PAUSE_MS, &n))
				return usage_error(c->cmd, "bad --pause '%s' (0..3600000 ms)", v);
			c->run.pause_ms = (int)n;
		} else if ((c->allowed & OK_RUN) &&
			   (v = opt_value(argc, argv, &i, "--report-dir", &missing))) {
			if (!*v || strlen(v) > PATH_MAX - 512)
				return usage_error(c->cmd, "bad --report-dir '%s'", v);
			c->run.report_base = v;
		} else if ((c->allowed & OK_RUN) &&
			   (v = opt_value(argc, argv, &i, "--json", &missing))) {
			c->json = v;
		} else if ((c->allowed & OK_RUN) &&
			   (v = opt_value(argc, argv, &i, "--record", &missing))) {
			c->run.record_path = v;
		} else if ((c->allowed & OK_RUN) && strcmp(c->cmd, "fuzz") &&
			   (v = opt_value(argc, argv, &i, "--against", &missing))) {
			/* fuzz draws by what this kernel shows: replay its steps with run */
			c->run.against_path = v;
		} else if ((c->allowed & OK_RUN) && !strcmp(a, "--keep-reports")) {
			c->run.keep_reports = true;
		} else if ((c->allowed & OK_MIN) && !strcmp(a, "--batch")) {
			c->fz.batch = true;
		} else if ((c->allowed & OK_RUN) && !strcmp(a, "--first-finding")) {
			c->run.first_finding = true;
		} else if ((c->allowed & OK_RUN) && !strcmp(a, "--gdb-on-failure")) {
			/* guest/gdb-dump asks guest/run's host side: only there */
			if (!getenv("PTSTRESS_OUT") || strcmp(getenv("PTSTRESS_GUEST") ?: "", "1"))
				return usage_error(c->cmd, "%s works inside guest/run only "
						   "(no PTSTRESS_OUT)", a);
			c->run.gdb_on_failure = true;
		} else if ((c->allowed & OK_RUN) &&
			   (v = opt_value(argc, argv, &i, "--wrong-model", &missing))) {
			c->run.wrong_rule = m_rule_find(v);
			if (c->run.wrong_rule == R_NONE)
				return usage_error(c->cmd,
						   "unknown rule '%s' (ptstress rules lists them)", v);
		} else if ((c->allowed & OK_RUN) && !strcmp(c->cmd, "run") &&
			   (v = opt_value(argc, argv, &i, "--wrong-reply", &missing))) {
			c->run.wrong_reply = agent_op_find(v);
			if (c->run.wrong_reply < 0)
				return usage_error(c->cmd, "unknown agent op '%s' (as the step "
						   "log names them: seize, detach, ...)", v);
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--oracle", &missing))) {
			if (!*v)
				return usage_error(c->cmd, "bad --oracle '%s'", v);
			c->fz.oracle = v;
		} else if ((c->allowed & OK_FUZZ) &&
			   (v = opt_value(argc, argv, &i, "--seed", &missing))) {
			if (!parse_int(v, 0, LONG_MAX, &n))
				return usage_error(c->cmd, "bad --seed '%s'", v);
			c->fz.seed = (unsigned long)n;
		} else if ((c->allowed & OK_FUZZ) &&
			   (v = opt_value(argc, argv, &i, "--steps", &missing))) {
			if (!parse_int(v, 1, 1000000000, &n))
				return usage_error(c->cmd, "bad --steps '%s'", v);
			c->fz.steps = n;
		} else if ((c->allowed & OK_FUZZ) &&
			   (v = opt_value(argc, argv, &i, "--duration", &missing))) {
			if (!parse_int(v, 1, 7 * 86400, &n))
				return usage_error(c->cmd, "bad --duration '%s' (seconds)", v);
			c->fz.duration = (int)n;
		} else if ((c->allowed & OK_FUZZ) &&
			   (v = opt_value(argc, argv, &i, "--tasks", &missing))) {
			if (!parse_int(v, 1, 20000, &n))
				return usage_error(c->cmd, "bad --tasks '%s' (1..20000)", v);
			c->fz.tasks = (int)n;
		} else if ((c->allowed & OK_FUZZ) &&
			   (v = opt_value(argc, argv, &i, "--tracers", &missing))) {
			if (!parse_int(v, 1, 64, &n))
				return usage_error(c->cmd, "bad --tracers '%s' (1..64)", v);
			c->fz.tracers = (int)n;
		} else if ((c->allowed & OK_FUZZ) &&
			   (v = opt_value(argc, argv, &i, "--threads", &missing))) {
			if (!parse_int(v, 0, 64, &n))
				return usage_error(c->cmd, "bad --threads '%s' (0..64)", v);
			c->fz.threads = (int)n;
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--confirm", &missing))) {
			if (!parse_int(v, 0, 100, &n))
				return usage_error(c->cmd, "bad --confirm '%s' (0..100)", v);
			c->fz.confirm = (int)n;
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--max-replays", &missing))) {
			if (!parse_int(v, 1, 1000000, &n))
				return usage_error(c->cmd, "bad --max-replays '%s'", v);
			c->fz.max_replays = (int)n;
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--signature", &missing))) {
			c->fz.signature = v;
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--out", &missing))) {
			c->fz.out = v;
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--memo", &missing))) {
			c->fz.memo = v;
		} else if ((c->allowed & OK_MIN) &&
			   (v = opt_value(argc, argv, &i, "--finding-tasks", &missing))) {
			c->fz.finding_tasks = v;
		} else if ((c->allowed & OK_JSON) && !strcmp(a, "--json")) {
			c->json_flag = true;
		} else if (missing) {
			return usage_error(c->cmd, "%s needs a value", a);
		} else {
			return usage_error(c->cmd, "unknown option '%s'", a);
		}
	}
	return 0;
}

/* Scenario files are regular files: a FIFO or /dev/zero would never end. */
static int parse_scenarios(char **files, int n, struct scenario *scs)
{
	struct sc_error err;
	int i;

	for (i = 0; i < n; i++) {
		if (scenario_parse_file(files[i], &scs[i], &err) < 0) {
			sc_error_print(&err);
			return PS_EXIT_USAGE;
		}
	}
	return 0;
}

struct run_args {
	struct scenario *scs;
	int n;
	struct run_opts *o;
	FILE *json;
};

static int run_body(void *arg)
{
	struct run_args *ra = arg;

	return cmd_run(ra->scs, ra->n, ra->o, ra->json);
}

/* Open --json, run under the watchdog, close it: run's and fuzz's common end. */
static int run_watched(struct cmdline *c, struct run_args *ra)
{
	int r;

	if (c->json) {
		ra->json = fopen(c->json, "we");
		if (!ra->json) {
			fprintf(stderr, "ptstress %s: --json %s: %s\n", c->cmd, c->json,
				strerror(errno));
			return PS_EXIT_USAGE;
		}
	}
	r = ps_watchdog(run_body, ra);
	if (ra->json && fclose(ra->json) && !r)
		r = PS_EXIT_HARNESS;
	return r;
}

static int do_run(struct cmdline *c)
{
	struct run_args ra = { .n = c->nargs, .o = &c->run };
	int r, i;

	if (!c->nargs)
		return usage_error("run", "%s", "no scenario FILE");
	if (c->run.wrong_reply >= 0 && !c->run.against_path)
		return usage_error("run", "%s", "--wrong-reply needs --against");
	c->run.timeout_sec = ps_config.timeout_sec;
	c->run.kernel = ps_config.kernel;
	ra.scs = calloc(c->nargs, sizeof(*ra.scs));
	if (!ra.scs)
		return PS_EXIT_HARNESS;
	/* Bad input loses nothing: all files are checked before anything runs. */
	r = parse_scenarios(c->args, c->nargs, ra.scs);
	if (r)
		return r;
	r = run_watched(c, &ra);
	for (i = 0; i < c->nargs; i++)
		scenario_free(&ra.scs[i]);
	free(ra.scs);
	return r;
}

/*
 * ptstress fuzz: one stress statement, its limits from the command line,
 * run as `run` runs a scenario; its report directory is always kept (its
 * stress.sc is the executed steps, the replayable product).
 */
static int do_fuzz(struct cmdline *c)
{
	static char name[64];
	char path[] = "/tmp/ptstress-fuzz.XXXXXX";
	struct fuzz_args *f = &c->fz;
	struct stmt *st = NULL;
	struct run_args ra = { .n = 1, .o = &c->run };
	struct scenario sc;
	struct sc_error err;
	FILE *fp;
	int fd, r, i;

	if (c->nargs)
		return usage_error("fuzz", "takes no FILE, got '%s'", c->args[0]);
	fd = mkstemp(path);
	fp = fd < 0 ? NULL : fdopen(fd, "w");
	if (!fp)
		return PS_EXIT_HARNESS;
	fprintf(fp, "stress tasks %d tracers %d rounds 1 threads %d seed %lu\n", f->tasks,
		f->tracers, f->threads, f->seed);
	fclose(fp);
	r = scenario_parse_file(path, &sc, &err);
	unlink(path);
	if (r < 0) {
		sc_error_print(&err);
		return PS_EXIT_HARNESS;
	}
	snprintf(name, sizeof(name), "fuzz-seed-%lu.sc", f->seed);
	sc.path = name;
	for (i = 0; i < sc.nstmts; i++) {
		sc.stmts[i].loc.file = name;
		if (sc.stmts[i].verb == V_STRESS)
			st = &sc.stmts[i];
	}
	if (!st) {
		scenario_free(&sc);
		return PS_EXIT_HARNESS;
	}
	/* The parser caps rounds at 10^6; --steps counts rounds, unbounded without it. */
	st->rounds = f->steps ? (int)f->steps : INT_MAX;
	c->run.fuzz = true;
	c->run.fuzz_duration = f->steps && !f->duration ? 0 : f->duration ? f->duration : 60;
	c->run.keep_reports = true;
	c->run.first_finding = true;
	c->run.timeout_sec = ps_config.timeout_sec;
	c->run.kernel = ps_config.kernel;
	ra.scs = &sc;
	r = run_watched(c, &ra);
	scenario_free(&sc);
	return r;
}

static int do_minimize(struct cmdline *c)
{
	c->run.timeout_sec = ps_config.timeout_sec;
	int rc;

	c->run.kernel = ps_config.kernel;
	if (c->fz.batch && !c->fz.oracle)
		return usage_error(c->cmd, "%s needs --oracle (ptstress run has no batches)",
				   "--batch");
	/*
	 * SIGINT/SIGTERM end the replay under way and the minimization, and
	 * the scratch directory goes with them; then die of the signal.
	 */
	ps_install_signal_handlers();
	rc = cmd_minimize(c->nargs, c->args, &c->run, c->json, &c->fz);
	ps_die_of_stop_signal();
	return rc;
}

int main(int argc, char **argv)
{
	struct cmdline c = { .run = { .wrong_rule = R_NONE, .wrong_reply = -1 },
			     .fz = { .tasks = 200, .tracers = 8, .threads = 1, .seed = 1,
				     .confirm = 3, .max_replays = 500 } };
	int rc;

	/* Before any fork: children must not inherit unflushed TAP lines. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* An agent that execve()d comes back here (agent.c). */
	if (argc > 1 && !strcmp(argv[1], "agent"))
		return agent_exec_main(argc, argv);
	if (argc < 2)
		return usage_error(NULL, "%s", "no command given");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		printf("%s%s", usage_text, help_text);
		return PS_EXIT_PASS;
	}
	/* tput parses its own options. */
	if (!strcmp(argv[1], "tput")) {
		rc = cmd_tput(argc - 1, argv + 1);
		ps_die_of_stop_signal();
		return rc;
	}
	c.cmd = argv[1];
	c.args = calloc((size_t)argc + 1, sizeof(*c.args));
	if (!c.args)
		return PS_EXIT_HARNESS;
	if (!strcmp(c.cmd, "run"))
		c.allowed = OK_KERNEL | OK_RUN;
	else if (!strcmp(c.cmd, "fuzz"))
		c.allowed = OK_KERNEL | OK_RUN | OK_FUZZ;
	else if (!strcmp(c.cmd, "minimize"))
		c.allowed = OK_KERNEL | OK_RUN | OK_MIN;
	else if (!strcmp(c.cmd, "links") || !strcmp(c.cmd, "check"))
		c.allowed = OK_KERNEL;
	else if (!strcmp(c.cmd, "rules"))
		c.allowed = OK_JSON;
	else if (strcmp(c.cmd, "verbs"))
		return usage_error(NULL, "unknown command '%s'", c.cmd);
	rc = parse_cmdline(argc - 1, argv + 1, &c);
	if (rc)
		return rc < 0 ? PS_EXIT_PASS : rc;
	if (!strcmp(c.cmd, "run"))
		rc = do_run(&c);
	else if (!strcmp(c.cmd, "fuzz"))
		rc = do_fuzz(&c);
	else if (!strcmp(c.cmd, "minimize"))
		rc = do_minimize(&c);
	else if (!strcmp(c.cmd, "links"))
		rc = cmd_links(c.nargs, c.args);
	else if (!strcmp(c.cmd, "check"))
		rc = c.nargs ? usage_error("check", "takes no argument, got '%s'", c.args[0]) :
		     cmd_check(ps_config.kernel);
	else if (!strcmp(c.cmd, "rules"))
		rc = c.nargs ? usage_error("rules", "takes no argument, got '%s'", c.args[0]) :
		     cmd_rules(c.json_flag);
	else
		rc = c.nargs ? usage_error("verbs", "takes no argument, got '%s'", c.args[0]) :
		     cmd_verbs();
	free(c.args);
	return rc;
}
