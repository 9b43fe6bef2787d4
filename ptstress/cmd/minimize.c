// SPDX-License-Identifier: GPL-2.0
/*
 * ptstress minimize: shrink a scenario that ends in a finding to a short
 * one that ends in the same finding (cmd/fuzz.h).
 *
 * The signature of a finding is check/rule/verb of its JSON record (never
 * its prose): "proc/untraced-thread-autoreap/exit".  Each candidate is a
 * subset of the input's statements, printed canonically; a candidate that
 * names a task no kept statement defines does not parse, and the
 * statement at the error's line is dropped too (repeatedly), so removing
 * a process takes the steps on it along.  A candidate replays in a child
 * process (`ptstress run --first-finding`): a crash or a hang of one
 * replay is that replay's, and the child's own watchdog bounds it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/fuzz.h"
#include "lang/units.h"
#include "lib/ddmin.h"
#include "lib/kcheck.h"

#include "cmd/minimize-int.h"

#define MIN_INPUT_TRIES	3	/* replays of the input before "does not reproduce" */

/* FNV-1a over the kept bitmap and its length: a candidate's name in the memo. */
static unsigned long long memo_key(const bool *keep, int n)
{
	unsigned long long h = 1469598103934665603ULL;
	int i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned long long)(keep[i] ? 0x5bu : 0xa4u) + (unsigned int)i;
		h *= 1099511628211ULL;
	}
	return h ^ (unsigned long long)n;
}

/* Task names separated by spaces (a memo's "T" line) or commas into c->tasks. */
static void read_task_names(struct mctx *c, const char *p)
{
	int w;

	for (c->ntasks = 0; c->ntasks < MAX_FINDING_TASKS; c->ntasks++) {
		p += strspn(p, " ,\n");
		w = (int)strcspn(p, " ,\n");
		if (!w || w >= SC_NAME_LEN)
			break;
		snprintf(c->tasks[c->ntasks], SC_NAME_LEN, "%.*s", w, p);
		p += w;
	}
}

/* Remember @key's result @r (1 or 0; refused at @line) in memory; 0 or -ENOMEM. */
static int memo_set(struct mctx *c, unsigned long long key, int r, int line)
{
	struct memo_ent *m;
	int i;

	for (i = 0; i < c->nknown && c->known[i].key != key; i++)
		;
	if (i == c->nknown) {
		m = realloc(c->known, (c->nknown + 1) * sizeof(*m));
		if (!m)
			return -ENOMEM;
		c->known = m;
		c->nknown++;
	}
	c->known[i] = (struct memo_ent){ key, r, line };
	return 0;
}

/*
 * Read @path's results (the last line of a key wins; "?" is 0); 0 or -errno.
 * The input's replays without its finding add up in c->input_tries: "0 KEY
 * N" is N of them, a plain "0 KEY" one (an older binary's one replay, or a
 * boot that died in it).
 */
static int memo_load(struct mctx *c, const char *path)
{
	char line[128], r;
	unsigned long long key;
	FILE *f = fopen(path, "re");
	int at;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "T ", 2)) {
			read_task_names(c, line + 2);
			continue;
		}
		if (!strncmp(line, "P ", 2)) {	/* prefix_cut()'s line */
			c->cut_line = atoi(line + 2);
			continue;
		}
		at = 0;
		if (sscanf(line, "%c %llx %d", &r, &key, &at) < 2 || !strchr("01?r", r))
			continue;
		if (key == c->input_key && r == '0')
			c->input_tries += at > 0 ? at : 1;
		if (memo_set(c, key, r == '1', r == 'r' ? at : 0)) {
			fclose(f);
			return -ENOMEM;
		}
	}
	fclose(f);
	return 0;
}

/* The remembered result of @key: 1, 0 (refused at *@line, or 0), or -1 (not known). */
int memo_get(const struct mctx *c, unsigned long long key, int *line)
{
	int i;

	*line = 0;
	if (c->no_memo)
		return -1;
	for (i = 0; i < c->nknown; i++)
		if (c->known[i].key == key) {
			*line = c->known[i].line;
			return c->known[i].r;
		}
	return -1;
}

/*
 * Append "R KEY" and get it to the host (a 9p share) before anything else
 * runs.  A result is remembered in memory too, with or without --memo: after
 * its repairs a candidate of one pass is often one the other pass tried.
 */
void memo_put(struct mctx *c, char r, unsigned long long key, int line)
{
	if (c->no_memo)
		return;
	if (r != '?')	/* ENOMEM: it replays again, no more */
		memo_set(c, key, r == '1', r == 'r' ? line : 0);
	if (!c->memo)
		return;
	if (r == 'r' || (r == '0' && line > 0))	/* refused at LINE; the input's replays */
		fprintf(c->memo, "%c %016llx %d\n", r, key, line);
	else
		fprintf(c->memo, "%c %016llx\n", r, key);
	fflush(c->memo);
	fsync(fileno(c->memo));
}

/*
 * The kernel's taint flags and the link checker's violations since boot:
 * a candidate that WARNs, oopses or trips the checker leaves a kernel on
 * which later candidates prove nothing, so minimization stops there
 * (exit 5) and guest/fuzz goes on from the best so far in a fresh boot.
 */
void kernel_state(char *buf, size_t len)
{
	struct kv kv[8];
	char taint[32] = "?";
	FILE *f = fopen("/proc/sys/kernel/tainted", "re");
	long viol = -1;
	int n;

	if (f) {
		if (!fgets(taint, sizeof(taint), f))
			snprintf(taint, sizeof(taint), "?");
		taint[strcspn(taint, "\n")] = '\0';
		fclose(f);
	}
	n = kv_read(KCHECK_DIR "violations", kv, 8);
	if (n > 0)
		viol = kv_get(kv, n, "total", -1);
	snprintf(buf, len, "tainted %s, checker violations %ld", taint, viol);
}

/* Print the kept statements to @path; *lines[i]: the line statement i starts at. */
static int write_subset(const struct scenario *sc, const bool *keep, const char *path,
			const char *header, int *first_line)
{
	FILE *f = fopen(path, "we");
	int i, line = 1;

	if (!f)
		return -errno;
	if (header)
		for (const char *p = header; *p; p++)
			line += *p == '\n';
	if (header)
		fputs(header, f);
	for (i = 0; i < sc->nstmts; i++) {
		struct scenario one = { .stmts = &sc->stmts[i], .nstmts = 1 };
		char *text;

		first_line[i] = 0;
		if (!keep[i])
			continue;
		text = scenario_print(&one);
		if (!text) {
			fclose(f);
			return -ENOMEM;
		}
		first_line[i] = line;
		for (const char *p = text; *p; p++)
			line += *p == '\n';
		fputs(text, f);
		free(text);
	}
	return fclose(f) ? -errno : 0;
}

/* From the first "finding" record of a --json file: check/rule/verb; false if none. */
bool read_signature(const char *path, char *sig, size_t len)
{
	static const char *const keys[] = { "\"check\":\"", "\"rule\":\"", "\"verb\":\"" };
	char line[8192];
	FILE *f = fopen(path, "re");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		size_t n = 0;
		int k;

		if (!strstr(line, "\"type\":\"finding\"") || !strstr(line, "\"kind\":\"finding\""))
			continue;
		for (k = 0; k < 3; k++) {
			const char *p = strstr(line, keys[k]);
			size_t w = 0;

			if (p) {
				p += strlen(keys[k]);
				while (p[w] && p[w] != '"')
					w++;
			}
			n += snprintf(sig + n, len > n ? len - n : 0, "%s%.*s", k ? "/" : "",
				      p ? (int)w : 4, p ? p : "none");
		}
		found = true;
	}
	fclose(f);
	return found;
}

/*
 * The tasks of the first finding of a --json file ("tasks":[{"name":...}]),
 * into c->tasks, and into the memo (a "T" line) so that a later boot, which
 * does not replay the input again, starts the unit pass from them too.
 */
static void read_finding_tasks(struct mctx *c, const char *path)
{
	char line[8192];
	FILE *f = fopen(path, "re");
	const char *p, *end;
	int w;

	c->ntasks = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "\"type\":\"finding\"") || !strstr(line, "\"kind\":\"finding\""))
			continue;
		p = strstr(line, "\"tasks\":[");
		end = p ? strchr(p, ']') : NULL;
		while (end && c->ntasks < MAX_FINDING_TASKS && (p = strstr(p, "\"name\":\"")) &&
		       p < end) {
			p += strlen("\"name\":\"");
			w = (int)strcspn(p, "\"");
			if (w > 0 && w < SC_NAME_LEN)
				snprintf(c->tasks[c->ntasks++], SC_NAME_LEN, "%.*s", w, p);
			p += w;
		}
		break;
	}
	if (f)
		fclose(f);
	if (c->memo && c->ntasks) {
		fputs("T", c->memo);
		for (w = 0; w < c->ntasks; w++)
			fprintf(c->memo, " %s", c->tasks[w]);
		fputs("\n", c->memo);
		fflush(c->memo);
		fsync(fileno(c->memo));
	}
}

/* Where a replay writes its JSON records. */
static void replay_json(const struct mctx *c, char *buf, size_t len)
{
	if (c->json_path[0])
		snprintf(buf, len, "%s", c->json_path);
	else
		snprintf(buf, len, "%s/replay.json", c->dir);
}

/* `ptstress run --first-finding ...` of @path into @argv (NULL-terminated). */
static void run_argv(const struct mctx *c, const char *path, char *json, char *tmo, char *rep,
		     char *wm, size_t wmlen, char **argv)
{
	int argc = 0;

	argv[argc++] = "ptstress";
	argv[argc++] = "run";
	argv[argc++] = "--first-finding";
	argv[argc++] = c->run->kernel == KERNEL_REQUIRE ? "--kernel=require" : "--kernel=auto";
	argv[argc++] = "--timeout";
	argv[argc++] = tmo;
	argv[argc++] = "--report-dir";
	argv[argc++] = rep;
	argv[argc++] = "--json";
	argv[argc++] = json;
	if (c->run->wrong_rule != R_NONE) {
		snprintf(wm, wmlen, "--wrong-model=%s", m_rule_id(c->run->wrong_rule));
		argv[argc++] = wm;
	}
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
}

int spawn_wait(const char *prog, bool search, char **argv, int *status)
{
	bool forwarded = false;
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (search)
			execvp(prog, argv);
		else
			execv(prog, argv);
		_exit(PS_EXIT_HARNESS);
	}
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
		/* A signal to minimize alone: the replay tears its tasks down first. */
		if (ps_stop_signal && !forwarded)
			forwarded = kill(pid, ps_stop_signal) == 0;
	}
	return ps_stop_signal ? -EINTR : 0;
}

/* Replay @path once: 1 and *sig filled on a finding, 0 on none, -errno on our error. */
static int replay(struct mctx *c, const char *path, char *sig, size_t len)
{
	char rep[PATH_MAX], json[PATH_MAX], tmo[16], wm[96], self[PATH_MAX], *argv[16];
	int argc = 0, status, r;
	ssize_t n;

	snprintf(rep, sizeof(rep), "%s/rep", c->dir);
	/*
	 * With --memo, the replay's JSON lies beside the memo: when a replay
	 * kills the guest, the host reads there whether the scenario had
	 * ended (a crash in the teardown is not the finding).
	 */
	replay_json(c, json, sizeof(json));
	snprintf(tmo, sizeof(tmo), "%d", c->run->timeout_sec);
	unlink(json);
	if (c->oracle) {
		/* Its own deadlines, kernels and JSON: only the timeout is ours. */
		argv[argc++] = (char *)c->oracle;
		argv[argc++] = "--timeout";
		argv[argc++] = tmo;
		argv[argc++] = (char *)path;
		argv[argc++] = json;
		argv[argc] = NULL;
	} else {
		run_argv(c, path, json, tmo, rep, wm, sizeof(wm), argv);
		/*
		 * By its real path, not /proc/self/exe: the tasks' name is then
		 * "ptstress" as in the run that found it, not "exe" (a kernel
		 * report may name them).
		 */
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0)
			self[n] = '\0';
		else
			snprintf(self, sizeof(self), "/proc/self/exe");
	}
	c->replays++;
	r = spawn_wait(c->oracle ? c->oracle : self, !!c->oracle, argv, &status);
	rm_tree(rep);
	if (r < 0)
		return r;
	/* The oracle could not run it (a guest that did not boot): not a "no". */
	if (c->oracle && (!WIFEXITED(status) || WEXITSTATUS(status) == PS_EXIT_HARNESS))
		return -EIO;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != PS_EXIT_FINDING)
		return 0;
	return read_signature(json, sig, len) ? 1 : 0;
}

/* "seed N" of the input's stress header comment, if it has one; 0. */
static unsigned long input_seed(const char *file)
{
	char line[512], *p;
	unsigned long seed = 0;
	FILE *f = fopen(file, "re");

	while (f && fgets(line, sizeof(line), f))
		if (line[0] == '#' && (p = strstr(line, " seed ")) && strstr(line, "stress")) {
			seed = strtoul(p + 6, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return seed;
}

/*
 * Write the best candidate so far to --out with its header (@ok of
 * @confirm replays confirmed it).  Done at each better candidate too, so
 * a run whose machine dies in a later replay leaves its best behind.
 */
static int write_best(struct mctx *c, int ok, int confirm)
{
	int n = c->sc->nstmts, kept = 0, i, r;
	int *first = calloc(n + 1, sizeof(*first));
	char header[1024], orc[300] = "";

	if (!first)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		kept += c->best[i];
	/* whose replays said yes: `ptstress run`'s, or another program's */
	if (c->oracle)
		snprintf(orc, sizeof(orc), "# oracle: %s\n", c->oracle);
	snprintf(header, sizeof(header),
		 "# ptstress minimize: a reproducer of %s\n"
		 "# signature: %s\n# seed: %lu\n# kernel: %s\n# wrong-model: %s\n%s"
		 "# replayed: %d/%d\n# size: %d statements, minimized from %d (%d replays)\n",
		 c->input, c->target, input_seed(c->input), c->kernel,
		 c->run->wrong_rule != R_NONE ? m_rule_id(c->run->wrong_rule) : "none", orc, ok,
		 confirm, kept, n, c->prior + c->replays);
	r = write_subset(c->sc, c->best, c->out, header, first);
	free(first);
	return r;
}

int candidate_prepare(struct mctx *c, bool *cand, int *first, const char *path,
		      unsigned long long *key)
{
	int n = c->sc->nstmts, tries, i, r;
	struct scenario sc;
	struct sc_error err;

	for (tries = 0; tries <= n; tries++) {
		r = write_subset(c->sc, cand, path, NULL, first);
		if (r < 0)
			return r;
		if (scenario_parse_file(path, &sc, &err) == 0) {
			scenario_free(&sc);
			*key = memo_key(cand, n) ^ c->variant;
			return 1;
		}
		/* drop the statement the error is in (the last one starting at or before it) */
		for (i = n - 1; i >= 0; i--)
			if (cand[i] && first[i] && first[i] <= err.line)
				break;
		if (i < 0)
			return 0;
		cand[i] = false;
	}
	return 0;
}

/* The candidate, with statements naming undefined tasks dropped; 1 if it reproduces. */
int test_candidate(const bool *keep, int n, void *arg)
{
	struct mctx *c = arg;
	bool *cand = malloc(n * sizeof(*cand));
	int *first = malloc(n * sizeof(*first));
	char path[PATH_MAX], sig[256], json[PATH_MAX];
	unsigned long long key;
	int r = 0, i, line, fixes = 0;

	if (!cand || !first) {
		free(cand);
		free(first);
		return -ENOMEM;
	}
	memcpy(cand, keep, n * sizeof(*cand));
	sc_pair_sessions(c->sc, cand);
	snprintf(path, sizeof(path), "%s/cand.sc", c->dir);
again:
	r = candidate_prepare(c, cand, first, path, &key);
	if (r <= 0)
		goto out;
	r = memo_get(c, key, &line);
	if (r < 0) {
		memo_put(c, '?', key, 0);
		r = replay(c, path, sig, sizeof(sig));
		if (r == 1 && !ddmin_same_finding(sig, c->target))
			r = 0;	/* another finding: not this signature's reproducer */
		line = 0;
		if (r == 0) {
			replay_json(c, json, sizeof(json));
			/* a step this candidate cannot run (a reap of a process
			 * no longer killed, its kill statement gone) */
			line = record_line(json, "refused", NULL);
		}
		if (r >= 0) {
			char now[96];

			kernel_state(now, sizeof(now));
			if (strcmp(now, c->state0)) {
				/*
				 * A replay that found nothing here but changed the
				 * kernel (a WARN, the checker's report) stays "?":
				 * its console, which the host reads, says whether it
				 * reproduced a kernel report's signature.
				 */
				if (r == 1)
					memo_put(c, '1', key, 0);
				printf("# minimize: the kernel changed (%s, was %s): go on in a "
				       "fresh boot\n", now, c->state0);
				c->spoiled = true;
				r = -EAGAIN;
				goto out;
			}
			memo_put(c, line ? 'r' : r ? '1' : '0', key, line);
		}
	}
	/*
	 * A step the engine refused: the candidate without it is the one to
	 * try (a few times: each costs a replay up to the refusal).
	 */
	if (r == 0 && line && !c->no_memo && ++fixes <= MAX_RUN_FIXES) {
		for (i = n - 1; i >= 0; i--)
			if (cand[i] && first[i] && first[i] <= line)
				break;
		if (i >= 0) {
			cand[i] = false;
			c->refused++;
			goto again;
		}
	}
	if (r == 1 && !c->no_memo) {
		memcpy(c->best, cand, n * sizeof(*cand));
		write_best(c, 0, 0);
	}
out:
	free(cand);
	free(first);
	return r;
}

int cmd_minimize(int nargs, char **args, const struct run_opts *run, const char *json,
		 const struct fuzz_args *f)
{
	struct mctx c = { .run = run, .oracle = f->oracle, .batch = f->batch };
	struct ddmin_stats st = { 0, 0 }, st2;
	struct scenario sc, work;
	struct sc_error err;
	struct utsname u;
	unsigned long long all;
	char sig[256];
	const char *p;
	const char *key = getenv("PTSTRESS_KERNEL_KEY"), *tmpdir;
	bool *keep = NULL, hit = false;
	int i, k, kept, cut, ok = 0, r, rc = PS_EXIT_HARNESS, budget = 0;
	bool made = false;	/* mkdtemp() made the scratch directory */

	if (nargs != 1 || !f->out) {
		fprintf(stderr, "ptstress minimize: needs one FILE and --out FILE\n");
		return PS_EXIT_USAGE;
	}
	/* the scratch directory: $TMPDIR's, as mktemp(1) does */
	tmpdir = getenv("TMPDIR");
	if (!tmpdir || tmpdir[0] != '/')
		tmpdir = "/tmp";
	if (snprintf(c.dir, sizeof(c.dir), "%s/ptstress-min.XXXXXX", tmpdir) >=
	    (int)sizeof(c.dir)) {
		fprintf(stderr, "ptstress minimize: TMPDIR %s: too long\n", tmpdir);
		return PS_EXIT_USAGE;
	}
	if (scenario_parse_file(args[0], &sc, &err) < 0) {
		sc_error_print(&err);
		return PS_EXIT_USAGE;
	}
	c.input = args[0];
	c.out = f->out;
	uname(&u);
	c.kernel = key ? key : u.release;

	/* the passes read the working copy; the option pass changes its statements */
	work = sc;
	c.work = malloc((sc.nstmts + 1) * sizeof(*c.work));
	if (!c.work)
		goto out;
	memcpy(c.work, sc.stmts, sc.nstmts * sizeof(*c.work));
	work.stmts = c.work;
	c.sc = &work;
	keep = calloc(sc.nstmts + 1, sizeof(*keep));
	c.best = calloc(sc.nstmts + 1, sizeof(*c.best));
	if (!keep || !c.best || !mkdtemp(c.dir))
		goto out;
	made = true;
	for (i = 0; i < sc.nstmts; i++)
		keep[i] = c.best[i] = true;
	if (f->memo) {
		if (!f->signature) {
			fprintf(stderr, "ptstress minimize: --memo needs --signature\n");
			rc = PS_EXIT_USAGE;
			goto out;
		}
		c.input_key = memo_key(keep, sc.nstmts);
		r = memo_load(&c, f->memo);
		c.prior = c.nknown;
		c.memo = fopen(f->memo, "ae");
		p = strrchr(f->memo, '/');
		snprintf(c.json_path, sizeof(c.json_path), "%.*sreplay.json",
			 p ? (int)(p - f->memo + 1) : 0, f->memo);
		if (r < 0 || !c.memo) {
			fprintf(stderr, "ptstress minimize: --memo %s: %s\n", f->memo,
				strerror(r < 0 ? -r : errno));
			goto out;
		}
	}
	if (f->finding_tasks)
		read_task_names(&c, f->finding_tasks);	/* over any memo's */
	/*
	 * The input's own signature first: it must end in a finding at all
	 * (unless the memo says it did: then its --signature is the target).
	 */
	all = memo_key(keep, sc.nstmts);
	r = memo_get(&c, all, &i);
	/* fewer replays than MIN_INPUT_TRIES (an older binary made one): the rest now */
	if (r == 0 && c.input_tries < MIN_INPUT_TRIES)
		r = -1;
	if (r == 1) {
		snprintf(sig, sizeof(sig), "%s", f->signature);
	} else if (r == 0) {
		/* MIN_INPUT_TRIES replays without its finding, over all runs on the memo */
		fprintf(stderr, "ptstress minimize: %s did not reproduce (--memo %s)\n", args[0],
			f->memo);
		rc = PS_EXIT_USAGE;
		goto out;
	} else {
		char json[PATH_MAX], pre[96], now[96];

		/*
		 * A finding that a race decides may not come in every replay
		 * (a lost wakeup, a zap's wait loop): the input gets
		 * MIN_INPUT_TRIES, and if it reproduces at all, the passes
		 * keep what still does.
		 */
		memo_put(&c, '?', all, 0);
		for (k = c.input_tries; k < MIN_INPUT_TRIES; k++) {
			kernel_state(pre, sizeof(pre));
			r = replay(&c, args[0], sig, sizeof(sig));
			kernel_state(now, sizeof(now));
			/* another finding than --signature's is a replay without it */
			hit = r == 1 && (!f->signature || ddmin_same_finding(sig, f->signature));
			if (r < 0 || hit || strcmp(now, pre))
				break;
			if (k + 1 < MIN_INPUT_TRIES)
				printf("# minimize: %s did not end in %s in replay %d of %d\n",
				       args[0], r ? "its finding" : "a finding", k + 1,
				       MIN_INPUT_TRIES);
		}
		replay_json(&c, json, sizeof(json));
		if (hit && !f->finding_tasks)
			read_finding_tasks(&c, json);
		if (hit && sc.nstmts)
			c.cut_line = record_line(json, "finding", sc.stmts[0].loc.file);
		if (hit && c.memo && c.cut_line) {
			fprintf(c.memo, "P %d\n", c.cut_line);
			fflush(c.memo);
			fsync(fileno(c.memo));
		}
		if (r >= 0 && !hit && c.memo && strcmp(now, pre)) {
			/*
			 * Not its finding here, but the kernel reported something
			 * (a finding whose signature is a kernel report's, which
			 * only the console shows): "?" stays for the host to
			 * resolve, after the count of this run's replays before.
			 */
			if (k > c.input_tries) {
				memo_put(&c, '0', all, k - c.input_tries);
				memo_put(&c, '?', all, 0);
			}
			printf("# minimize: the kernel changed (%s, was %s) in the input's "
			       "replay: go on in a fresh boot\n", now, pre);
			rc = PS_EXIT_FRESH_BOOT;
			goto out;
		}
		if (hit)
			memo_put(&c, '1', all, 0);
		else if (r >= 0)	/* "0 KEY N": this run's N replays (memo_load()) */
			memo_put(&c, '0', all, k - c.input_tries);
	}
	if (r < 0)
		goto out;
	if (r == 0) {
		fprintf(stderr, "ptstress minimize: %s does not end in a finding here\n", args[0]);
		rc = PS_EXIT_USAGE;
		goto out;
	}
	snprintf(c.target, sizeof(c.target), "%s", f->signature ? f->signature : sig);
	if (!ddmin_same_finding(sig, c.target)) {
		fprintf(stderr, "ptstress minimize: %s ends in %s, not %s\n", args[0], sig,
			c.target);
		rc = PS_EXIT_USAGE;
		goto out;
	}
	/* After the input's own replay: a finding that taints does so every time. */
	kernel_state(c.state0, sizeof(c.state0));
	printf("# minimize: %s: %d statements, signature %s\n", args[0], sc.nstmts, c.target);
	cut = prefix_cut(&c, keep);
	/* what reproduced so far, as far as a replay can tell: they never ran */
	memcpy(c.best, keep, sc.nstmts * sizeof(*keep));
	if (cut)
		printf("# minimize: the finding came at line %d: the %d statements after it "
		       "never ran\n", c.cut_line, cut);
	kept = unit_pass(&c, keep, f->max_replays);
	if (kept >= 0) {
		budget = f->max_replays - kept;
		kept = ddmin_batched(keep, sc.nstmts, test_candidate, prefetch_candidates, &c,
				     budget, &st);
	}
	if (kept >= 0) {
		budget -= st.tests;
		kept = option_pass(&c, keep, budget);
		/* a simpler statement may have made others unneeded */
		if (kept >= 0 && c.simplified) {
			budget -= kept;
			st2 = st;
			kept = ddmin_batched(keep, sc.nstmts, test_candidate,
					     prefetch_candidates, &c, budget, &st);
			st.tests += st2.tests;
			st.hits += st2.hits;
		}
	}
	if (kept < 0 && !c.spoiled)
		goto out;
	/* What reproduced last, with its repairs (a subset of keep). */
	for (kept = 0, i = 0; i < sc.nstmts; i++)
		kept += c.best[i];
	c.no_memo = true;	/* confirmations replay, whatever the memo knows */
	for (i = 0; i < f->confirm && !ps_stop_signal && !c.spoiled; i++) {
		r = test_candidate(c.best, sc.nstmts, &c);
		if (r < 0 && !c.spoiled)
			goto out;
		ok += r > 0;
	}
	r = write_best(&c, ok, f->confirm);
	if (r < 0) {
		fprintf(stderr, "ptstress minimize: %s: %s\n", f->out, strerror(-r));
		goto out;
	}
	printf("# minimize: %d -> %d statements in %d replays (%d ddmin tests, %d of the "
	       "replays in %d batches), replayed %d/%d: %s\n", sc.nstmts, kept,
	       c.prior + c.replays, st.tests, c.batched, c.batches, ok, f->confirm, f->out);
	if (json) {
		FILE *j = fopen(json, "ae");

		if (j) {
			fprintf(j, "{\"type\":\"minimized\",\"input\":\"%s\",\"out\":\"%s\","
				"\"signature\":\"%s\",\"original\":%d,\"minimized\":%d,"
				"\"replays\":%d,\"confirmed\":%d,\"confirm\":%d,\"tasks\":%d,"
				"\"tasks_related\":%d,\"tasks_kept\":%d,\"replays_here\":%d,"
				"\"simplified\":%d,\"refused_dropped\":%d,\"related_hit\":%s,"
				"\"cut_line\":%d,\"cut\":%d,\"batches\":%d,\"batched\":%d}\n",
				args[0], f->out, c.target, sc.nstmts, kept, c.prior + c.replays, ok,
				f->confirm, c.units, c.related, c.units_kept, c.replays,
				c.simplified, c.refused, c.related_hit ? "true" : "false",
				c.cut_line, cut, c.batches, c.batched);
			fclose(j);
		}
	}
	rc = c.spoiled ? PS_EXIT_FRESH_BOOT : ok == f->confirm ? PS_EXIT_PASS : PS_EXIT_HARNESS;
out:
	if (c.memo)
		fclose(c.memo);
	free(c.known);
	/* not by the name's last letter: mkdtemp()'s may be an X too */
	if (made)
		rm_tree(c.dir);
	free(keep);
	free(c.best);
	free(c.work);
	scenario_free(&sc);
	return rc;
}
