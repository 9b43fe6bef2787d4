// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the scenario-file parser and printer (lang/parse.c, lex.c,
 * print.c).  TAP 13 through harness.h; exit 1 if any test fails.
 *
 * Every verb is checked field by field against concrete values, every
 * error class against its exact file:line:col and a message substring, and
 * every input that parses (plus the .sc files of the scenario library)
 * against the round trip parse -> print -> parse.  A failure names the
 * input that failed (the "-- ..." of its message).
 *
 * The error classes and the size limits are in parse-tests-errors.c, the
 * second file of this program.
 *
 * usage: parse-tests [SCENARIO_DIR]   (default: scenarios, then ../scenarios)
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "parse-tests.h"
#include "lang/scenario.h"

#define N_OF(a)		(sizeof(a) / sizeof((a)[0]))


static int nround;	/* inputs that parse_ok() round-tripped */

/* @s on one line, for failure messages: newlines as "; ", other odd bytes as \xNN. */
const char *one_line(const char *s)
{
	static char buf[512];
	const unsigned char *p = (const unsigned char *)s;
	size_t j = 0;

	for (; *p && j + 5 < sizeof(buf); p++) {
		if (*p == '\n')
			j += (size_t)sprintf(buf + j, "%s", p[1] ? "; " : "");
		else if (*p < 0x20 || *p >= 0x7f)
			j += (size_t)sprintf(buf + j, "\\x%02x", *p);
		else
			buf[j++] = (char)*p;
	}
	buf[j] = '\0';
	return buf;
}

/* Print, parse again, compare. */
static bool round_trip(struct th_test *_th, const struct scenario *sc)
{
	struct scenario sc2;
	struct sc_error err;
	char *text = scenario_print(sc);
	bool ok;

	if (!text) {
		TH_FAIL("scenario_print() failed");
		return false;
	}
	if (scenario_parse_text("printed", text, strlen(text), true, &sc2, &err)) {
		TH_FAIL("printed text does not parse: %s:%d:%d: %s", err.file, err.line, err.col,
			err.msg);
		free(text);
		return false;
	}
	ok = scenario_equal(sc, &sc2);
	if (!ok)
		TH_FAIL("reparsed scenario differs; printed: %s", one_line(text));
	free(text);
	scenario_free(&sc2);
	return ok;
}

/* Parse @text; an error fails the test.  Every success is round-tripped. */
bool parse_ok(struct th_test *_th, const char *text, struct scenario *sc)
{
	struct sc_error err;

	if (scenario_parse_text("t.sc", text, strlen(text), true, sc, &err)) {
		TH_FAIL("unexpected error: %s:%d:%d: %s", err.file, err.line, err.col, err.msg);
		return false;
	}
	nround++;
	round_trip(_th, sc);
	return true;
}

static const char *const defs =
	"process a threads 2\n"
	"process b parent a\n"
	"tracer T\n"
	"thread th in b\n";

/* @defs followed by @line: the last statement of the result is the one tested. */
static const struct stmt *last(struct th_test *_th, struct scenario *sc, const char *line)
{
	static char buf[4096];

	TH_NOTE("%s", one_line(line));
	snprintf(buf, sizeof(buf), "%s%s\n", defs, line);
	if (!parse_ok(_th, buf, sc))
		return NULL;
	if (sc->nstmts < 5) {
		TH_FAIL("%d statements, expected at least 5", sc->nstmts);
		scenario_free(sc);
		return NULL;
	}
	return &sc->stmts[sc->nstmts - 1];
}

/* Parse defs + @line, then run @checks (EXPECT_*s on st, its last statement). */
#define VERB_CASE(line, checks) do {						\
	struct scenario sc_;							\
	const struct stmt *st = last(_th, &sc_, line);				\
	if (st) {								\
		checks;								\
		scenario_free(&sc_);						\
	}									\
} while (0)

TEST(process_every_option)
{
	struct scenario sc;
	const struct stmt *st;

	if (!parse_ok(_th, "scenario x\nprocess p parent R threads 3 subreaper pidns within 7\n",
		      &sc))
		return;
	EXPECT_EQ(sc.nstmts, 1);
	st = &sc.stmts[0];
	EXPECT_EQ(st->verb, V_PROCESS);
	EXPECT_STREQ(st->name[0], "p");
	EXPECT_EQ(st->nnames, 1);
	EXPECT_STREQ(st->parent, "R");
	EXPECT_EQ(st->threads, 3);
	EXPECT_EQ(st->opts, O_SUBREAPER | O_PIDNS);
	EXPECT_EQ(st->within, 7);
	EXPECT_EQ(st->loc.line, 2);
	EXPECT_EQ(st->loc.col, 1);
	EXPECT_STREQ(st->loc.file, "t.sc");
	scenario_free(&sc);
}

/* exit-signal: a signal, or none (exit_signal 0); a missing or bad value is an error. */
TEST(process_exit_signal)
{
	VERB_CASE("process p parent a exit-signal SIGRTMAX",
		  EXPECT_EQ(st->exitsig, SIGRTMAX); EXPECT_STREQ(st->parent, "a"));
	VERB_CASE("process p exit-signal none", EXPECT_EQ(st->exitsig, -1));
	VERB_CASE("process p", EXPECT_EQ(st->exitsig, 0));
	VERB_CASE("pdeathsig a.t1 KILL", EXPECT_EQ(st->verb, V_PDEATHSIG);
		  EXPECT_STREQ(st->name[0], "a.t1"); EXPECT_EQ(st->sig, SIGKILL));
	expect_error(_th, "process p exit-signal\n", 21, 1, 22,
		     "too few arguments: 'exit-signal' needs a value");
	expect_error(_th, "process p exit-signal SIGNOPE\n", 29, 1, 23,
		     "unknown signal 'SIGNOPE'");
	expect_error(_th, "process p\npdeathsig p\n", 22, 2, 12, "SIG");
	VERB_CASE("sigchld a nocldwait ignore", EXPECT_EQ(st->verb, V_SIGCHLD);
		  EXPECT_EQ(st->opts, O_IGNORE | O_NOCLDWAIT));
	expect_error(_th, "process p\nsigchld p off\n", 24, 2, 11, "unknown option 'off'");
}

TEST(verbs_tree_thread_tracer)
{
	VERB_CASE("tree t depth 2 fanout 3 parent a threads 4",
		  EXPECT_EQ(st->verb, V_TREE); EXPECT_STREQ(st->name[0], "t");
		  EXPECT_EQ(st->depth, 2); EXPECT_EQ(st->fanout, 3);
		  EXPECT_STREQ(st->parent, "a"); EXPECT_EQ(st->threads, 4));
	/* thread takes within, no longer fails (clauses_rejected) */
	VERB_CASE("thread x in a within 4",
		  EXPECT_EQ(st->verb, V_THREAD); EXPECT_STREQ(st->name[0], "x");
		  EXPECT_STREQ(st->name[1], "a"); EXPECT_EQ(st->nnames, 2);
		  EXPECT_EQ(st->within, 4); EXPECT_EQ(st->nfails, 0));
	VERB_CASE("tracer U parent b",
		  EXPECT_EQ(st->verb, V_TRACER); EXPECT_STREQ(st->name[0], "U");
		  EXPECT_STREQ(st->parent, "b"));
}

TEST(verbs_seize_attach_traceme)
{
	VERB_CASE("seize T a.t2 exitkill sysgood traceclone tracefork tracevfork traceexec "
		  "traceexit fails EPERM|ESRCH|EBUSY within 3",
		  EXPECT_EQ(st->verb, V_SEIZE); EXPECT_STREQ(st->name[0], "T");
		  EXPECT_STREQ(st->name[1], "a.t2"); EXPECT_EQ(st->nnames, 2);
		  EXPECT_EQ(st->opts, O_EXITKILL | O_SYSGOOD | O_TRACECLONE | O_TRACEFORK |
			    O_TRACEVFORK | O_TRACEEXEC | O_TRACEEXIT);
		  EXPECT_EQ(st->nfails, 3); EXPECT_EQ(st->fails[0], EPERM);
		  EXPECT_EQ(st->fails[1], ESRCH); EXPECT_EQ(st->fails[2], EBUSY);
		  EXPECT_EQ(st->within, 3));
	VERB_CASE("attach th b traceexec",
		  EXPECT_EQ(st->verb, V_ATTACH); EXPECT_STREQ(st->name[0], "th");
		  EXPECT_STREQ(st->name[1], "b"); EXPECT_EQ(st->opts, O_TRACEEXEC));
	VERB_CASE("traceme b", EXPECT_EQ(st->verb, V_TRACEME); EXPECT_STREQ(st->name[0], "b");
		  EXPECT_EQ(st->nnames, 1));
}

TEST(verbs_tracer_requests)
{
	VERB_CASE("interrupt T a", EXPECT_EQ(st->verb, V_INTERRUPT);
		  EXPECT_STREQ(st->name[0], "T"); EXPECT_STREQ(st->name[1], "a"));
	VERB_CASE("listen T a", EXPECT_EQ(st->verb, V_LISTEN); EXPECT_EQ(st->nnames, 2));
	VERB_CASE("cont T a", EXPECT_EQ(st->verb, V_CONT); EXPECT_EQ(st->sig, 0));
	VERB_CASE("cont T a SIGSTOP within 2", EXPECT_EQ(st->verb, V_CONT);
		  EXPECT_EQ(st->sig, SIGSTOP); EXPECT_EQ(st->within, 2));
	VERB_CASE("syscall T a", EXPECT_EQ(st->verb, V_SYSCALL));
	VERB_CASE("singlestep T a.t1", EXPECT_EQ(st->verb, V_SINGLESTEP);
		  EXPECT_STREQ(st->name[1], "a.t1"));
	VERB_CASE("detach T a 10", EXPECT_EQ(st->verb, V_DETACH); EXPECT_EQ(st->sig, SIGUSR1));
	VERB_CASE("ptrace-kill T a", EXPECT_EQ(st->verb, V_PTRACE_KILL));
	VERB_CASE("race-attach T th a", EXPECT_EQ(st->verb, V_RACE_ATTACH);
		  EXPECT_EQ(st->nnames, 3); EXPECT_STREQ(st->name[0], "T");
		  EXPECT_STREQ(st->name[1], "th"); EXPECT_STREQ(st->name[2], "a"));
}

TEST(verbs_kill_exit_exec_subreaper)
{
	VERB_CASE("kill a KILL", EXPECT_EQ(st->verb, V_KILL); EXPECT_EQ(st->sig, SIGKILL));
	VERB_CASE("tkill th SIGRTMIN+2", EXPECT_EQ(st->verb, V_TKILL);
		  EXPECT_EQ(st->sig, SIGRTMIN + 2); EXPECT_STREQ(st->name[0], "th"));
	VERB_CASE("exit a", EXPECT_EQ(st->verb, V_EXIT); EXPECT_EQ(st->num, 0);
		  EXPECT_EQ(st->opts, 0));
	VERB_CASE("exit th 255 within 9", EXPECT_EQ(st->verb, V_EXIT); EXPECT_EQ(st->num, 255);
		  EXPECT_EQ(st->within, 9));
	VERB_CASE("exit a 3 thread", EXPECT_EQ(st->verb, V_EXIT); EXPECT_EQ(st->num, 3);
		  EXPECT_EQ(st->opts, O_THREAD_ONLY));
	VERB_CASE("exec a.t1", EXPECT_EQ(st->verb, V_EXEC); EXPECT_STREQ(st->name[0], "a.t1"));
	VERB_CASE("subreaper a on", EXPECT_EQ(st->verb, V_SUBREAPER); EXPECT_EQ(st->opts, O_ON));
	VERB_CASE("subreaper a off", EXPECT_EQ(st->verb, V_SUBREAPER); EXPECT_EQ(st->opts, 0));
}

/* reap PROC [TASK]: the second name may be a thread (a tracee's report). */
TEST(verbs_reap_quit)
{
	VERB_CASE("reap a b", EXPECT_EQ(st->verb, V_REAP); EXPECT_EQ(st->nnames, 2);
		  EXPECT_STREQ(st->name[1], "b"));
	VERB_CASE("reap a th", EXPECT_EQ(st->verb, V_REAP); EXPECT_EQ(st->nnames, 2);
		  EXPECT_STREQ(st->name[1], "th"));
	VERB_CASE("reap T a.t2", EXPECT_EQ(st->verb, V_REAP); EXPECT_STREQ(st->name[0], "T");
		  EXPECT_STREQ(st->name[1], "a.t2"));
	/* reap takes within, no longer fails (clauses_rejected) */
	VERB_CASE("reap a within 2", EXPECT_EQ(st->verb, V_REAP); EXPECT_EQ(st->nnames, 1);
		  EXPECT_EQ(st->within, 2); EXPECT_EQ(st->nfails, 0));
	VERB_CASE("quit T", EXPECT_EQ(st->verb, V_QUIT); EXPECT_STREQ(st->name[0], "T"));
}

TEST(verbs_strace_gdb)
{
	VERB_CASE("strace s a th b", EXPECT_EQ(st->verb, V_STRACE);
		  EXPECT_STREQ(st->name[0], "s"); EXPECT_EQ(st->ntargets, 3);
		  EXPECT_STREQ(st->targets[0], "a"); EXPECT_STREQ(st->targets[1], "th");
		  EXPECT_STREQ(st->targets[2], "b"));
	VERB_CASE("gdb g a quit", EXPECT_EQ(st->verb, V_GDB); EXPECT_STREQ(st->name[0], "g");
		  EXPECT_STREQ(st->name[1], "a"); EXPECT_EQ(st->opts, O_GDB_QUIT));
	VERB_CASE("gdb g a\nstop g", EXPECT_EQ(st->verb, V_STOP); EXPECT_STREQ(st->name[0], "g"));
	VERB_CASE("gdb g a\nwait g within 30", EXPECT_EQ(st->verb, V_WAIT);
		  EXPECT_EQ(st->within, 30));
}

TEST(verbs_check_expect)
{
	VERB_CASE("check", EXPECT_EQ(st->verb, V_CHECK); EXPECT_EQ(st->nnames, 0));
	VERB_CASE("expect ppid b a", EXPECT_EQ(st->verb, V_EXPECT); EXPECT_EQ(st->what, E_PPID);
		  EXPECT_STREQ(st->name[0], "b"); EXPECT_STREQ(st->name[1], "a"));
	VERB_CASE("expect ppid b init", EXPECT_EQ(st->what, E_PPID);
		  EXPECT_STREQ(st->name[1], "init"));
	VERB_CASE("expect tracer a th", EXPECT_EQ(st->what, E_TRACER);
		  EXPECT_STREQ(st->name[1], "th"));
	VERB_CASE("expect tracer a none", EXPECT_EQ(st->what, E_TRACER);
		  EXPECT_STREQ(st->name[1], "none"));
	VERB_CASE("expect state a.t2 traced", EXPECT_EQ(st->what, E_STATE);
		  EXPECT_EQ(st->state, ST_TRACED); EXPECT_EQ(st->nnames, 1));
}

TEST(verbs_sleep_stress_timeouts)
{
	VERB_CASE("sleep 250", EXPECT_EQ(st->verb, V_SLEEP); EXPECT_EQ(st->num, 250));
	VERB_CASE("stress tasks 300 tracers 8 rounds 1000 threads 64 seed 18446744073709551615",
		  EXPECT_EQ(st->verb, V_STRESS); EXPECT_EQ(st->tasks, 300);
		  EXPECT_EQ(st->tracers, 8); EXPECT_EQ(st->rounds, 1000);
		  EXPECT_EQ(st->threads, 64); EXPECT_EQ(st->seed >> 63, 1));
	VERB_CASE("timeout 86400", EXPECT_EQ(st->verb, V_TIMEOUT); EXPECT_EQ(st->num, 86400));
	VERB_CASE("step-timeout 1", EXPECT_EQ(st->verb, V_STEP_TIMEOUT); EXPECT_EQ(st->num, 1));
}

/* Every verb whose row lists CL_WITHIN (and only those) takes "within". */
TEST(within_accepted)
{
	static const char *const lines[] = {
		"process y within 7", "tree u depth 1 fanout 1 within 7",
		"thread y in a within 7", "tracer y within 7", "seize T a within 7",
		"attach T a within 7", "traceme b within 7", "interrupt T a within 7",
		"listen T a within 7", "cont T a within 7", "syscall T a within 7",
		"singlestep T a within 7", "detach T a within 7", "ptrace-kill T a within 7",
		"race-attach T th a within 7", "kill a 9 within 7", "tkill th 9 within 7",
		"exit a within 7", "exec a within 7", "subreaper a on within 7",
		"reap a within 7", "waitid a within 7", "pdeathsig a SIGKILL within 7", "sigchld a ignore within 7", "quit T within 7", "strace s a within 7", "gdb g a within 7",
		"gdb g a\nstop g within 7", "gdb g a\nwait g within 7",
		"expect state a running within 7",
	};
	bool seen[V_NR_VERBS] = { false };
	size_t i;
	int v;

	for (i = 0; i < N_OF(lines); i++)
		VERB_CASE(lines[i], EXPECT_EQ(st->within, 7);
			  EXPECT_TRUE(sc_verb_takes_within(st->verb)); seen[st->verb] = true);
	TH_NOTE("verbs.def");
	for (v = 0; v < V_NR_VERBS; v++)
		if (sc_verb_takes_within((enum sc_verb)v) && !seen[v])
			TH_FAIL("%s takes 'within' but has no case here",
				sc_verb_name((enum sc_verb)v));
}

/* Every verb whose row lists CL_FAILS takes "fails". */
TEST(fails_accepted)
{
	static const char *const lines[] = {
		"seize T a fails EPERM|ESRCH", "attach T a fails EPERM|ESRCH",
		"traceme b fails EPERM|ESRCH", "interrupt T a fails EPERM|ESRCH",
		"listen T a fails EPERM|ESRCH", "cont T a fails EPERM|ESRCH",
		"syscall T a fails EPERM|ESRCH", "singlestep T a fails EPERM|ESRCH",
		"detach T a 9 fails EPERM|ESRCH", "ptrace-kill T a fails EPERM|ESRCH",
		"kill a 9 fails EPERM|ESRCH", "tkill th SIGCONT fails EPERM|ESRCH",
		"subreaper a off fails EPERM|ESRCH", "waitid a b nowait stopped continued fails EPERM|ESRCH",
		"pidfd a fails EPERM|ESRCH", "setsid a fails EPERM|ESRCH",
		"setpgid a fails EPERM|ESRCH",
	};
	bool seen[V_NR_VERBS] = { false };
	size_t i;
	int v;

	for (i = 0; i < N_OF(lines); i++)
		VERB_CASE(lines[i], EXPECT_EQ(st->nfails, 2); EXPECT_EQ(st->fails[0], EPERM);
			  EXPECT_EQ(st->fails[1], ESRCH);
			  EXPECT_TRUE(sc_verb_takes_fails(st->verb)); seen[st->verb] = true);
	TH_NOTE("verbs.def");
	for (v = 0; v < V_NR_VERBS; v++)
		if (sc_verb_takes_fails((enum sc_verb)v) && !seen[v])
			TH_FAIL("%s takes 'fails' but has no case here",
				sc_verb_name((enum sc_verb)v));
}

/* R (ptstress itself) where a verb's row does not keep it out. */
TEST(r_may_be_named)
{
	VERB_CASE("reap R a", EXPECT_EQ(st->verb, V_REAP); EXPECT_STREQ(st->name[0], "R");
		  EXPECT_STREQ(st->name[1], "a"));
	VERB_CASE("expect ppid a R", EXPECT_EQ(st->what, E_PPID);
		  EXPECT_STREQ(st->name[1], "R"));
	VERB_CASE("process x parent R", EXPECT_EQ(st->verb, V_PROCESS);
		  EXPECT_STREQ(st->parent, "R"));
}

TEST(nested_repeat)
{
	struct scenario sc;

	if (!parse_ok(_th, "repeat 3\n\tprocess z\n\trepeat 2\n\t\tkill z 15\n\tend\nend\n"
		      "kill z TERM\n", &sc))
		return;
	EXPECT_EQ(sc.nstmts, 2);
	EXPECT_EQ(sc.stmts[0].verb, V_REPEAT);
	EXPECT_EQ(sc.stmts[0].num, 3);
	ASSERT_EQ(sc.stmts[0].nbody, 2);
	EXPECT_EQ(sc.stmts[0].body[0].verb, V_PROCESS);
	EXPECT_EQ(sc.stmts[0].body[1].num, 2);
	ASSERT_EQ(sc.stmts[0].body[1].nbody, 1);
	EXPECT_EQ(sc.stmts[0].body[1].body[0].sig, SIGTERM);
	EXPECT_EQ(sc.stmts[0].body[1].body[0].loc.line, 4);
	EXPECT_EQ(sc.stmts[0].body[1].body[0].loc.col, 3);
	/* names defined inside stay defined */
	EXPECT_EQ(sc.stmts[1].verb, V_KILL);
	scenario_free(&sc);
}

TEST(tree_nodes_and_threads_defined)
{
	struct scenario sc;

	if (!parse_ok(_th, "tree t depth 2 fanout 2 threads 2\nkill t.2.1.t2 9\n"
		      "expect ppid t.1.2 t.1\nprocess p threads 1000\nkill p.t1000 9\n"
		      "tree u depth 0 fanout 64\n", &sc))
		return;
	EXPECT_EQ(sc.nstmts, 6);
	EXPECT_STREQ(sc.stmts[1].name[0], "t.2.1.t2");
	EXPECT_EQ(sc.stmts[5].depth, 0);
	scenario_free(&sc);
}

TEST(empty_and_comment_only_files)
{
	static const char *const texts[] = {
		"", "# only a comment\n\n   \t\n# \x01\xff binary in a comment is fine\n",
	};
	struct scenario sc;
	size_t i;

	for (i = 0; i < N_OF(texts); i++) {
		TH_NOTE("text %zu", i);
		if (parse_ok(_th, texts[i], &sc)) {
			EXPECT_EQ(sc.nstmts, 0);
			scenario_free(&sc);
		}
	}
}

TEST(crlf_and_trailing_comments)
{
	struct scenario sc;

	if (!parse_ok(_th, "process a\r\nkill a SIGKILL\t# comment\r\n", &sc))
		return;
	EXPECT_EQ(sc.nstmts, 2);
	EXPECT_EQ(sc.stmts[1].sig, SIGKILL);
	scenario_free(&sc);
}

/* ---- files ---- */

static char tmp_dir[] = "/tmp/parse-tests.XXXXXX";

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tmp_dir(void)
{
	nftw(tmp_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The test files' directory, made at the first call, removed at exit. */
static const char *tmp(void)
{
	static bool made;

	if (!made) {
		if (!mkdtemp(tmp_dir))
			TH_BAIL("mkdtemp: %s", strerror(errno));
		made = true;
		atexit(rm_tmp_dir);
	}
	return tmp_dir;
}

static void write_file(const char *name, const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp(), name);
	f = fopen(path, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		TH_BAIL("cannot write %s: %s", path, strerror(errno));
}

/* A 10 MB line, in a text and in a file: rejected in well under a second. */
TEST(huge_line_rejected_fast)
{
	size_t len = 10 * 1024 * 1024;
	char *big = malloc(len + 16), path[4096];
	struct scenario sc;
	struct sc_error err;
	struct timespec t0, t1;
	double secs;

	if (!big)
		TH_BAIL("malloc: %s", strerror(errno));
	memcpy(big, "check\n", 6);
	memset(big + 6, 'x', len);
	snprintf(path, sizeof(path), "%s/huge.sc", tmp());
	write_file("huge.sc", big, len + 6);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	TH_NOTE("a 10 MB line in a text");
	expect_error(_th, big, len + 6, 2, 1, "line too long (10485760 bytes, max 4096)");
	TH_NOTE("a 10 MB line in a file");
	if (!scenario_parse_file(path, &sc, &err)) {
		TH_FAIL("parsed, expected an error");
		scenario_free(&sc);
	} else {
		expect_err_at(_th, &err, path, 2, 1, "line too long (10485760 bytes, max 4096)");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	TH_NOTE("both took %.3f s", secs);
	EXPECT_LT(secs * 1000, 2000);
	unlink(path);
	free(big);
}

static const char *const include_files[][2] = {
	{ "top.sc", "process a\nrepeat 2\n  include \"sub/inc.sc\"\nend\nkill b 9\n" },
	{ "sub/inc.sc", "# comment\ninclude inc2.sc\nprocess b parent a\n" },
	{ "sub/inc2.sc", "scenario included\ntracer T\n" },
	{ "c1.sc", "check\ninclude c2.sc\n" },
	{ "c2.sc", "include \"c1.sc\"\n" },
	{ "self.sc", "include self.sc\n" },
	{ "nf.sc", "check\ninclude missing.sc\n" },
	{ "bad.sc", "include sub/badinc.sc\n" },
	{ "sub/badinc.sc", "check\nkill x 9\n" },
	{ "split.sc", "repeat 2\ninclude sub/end.sc\n" },
	{ "sub/end.sc", "check\nend\n" },
	{ "dir.sc", "include sub\n" },
};

/* The include files under tmp(), written at the first call. */
static const char *include_dir(void)
{
	static bool made;
	char path[4096];
	size_t i;
	int n;

	if (made)
		return tmp();
	snprintf(path, sizeof(path), "%s/sub", tmp());
	if (mkdir(path, 0700))
		TH_BAIL("mkdir %s: %s", path, strerror(errno));
	for (i = 0; i < N_OF(include_files); i++)
		write_file(include_files[i][0], include_files[i][1], strlen(include_files[i][1]));
	for (n = 0; n <= 17; n++) {
		char name[32], body[64];

		snprintf(name, sizeof(name), "d%d.sc", n);
		snprintf(body, sizeof(body), n < 17 ? "include d%d.sc\n" : "check\n", n + 1);
		write_file(name, body, strlen(body));
	}
	made = true;
	return tmp();
}

/* Relative to the including file, inside a repeat; round trip. */
TEST(include_relative_in_repeat)
{
	const char *dir = include_dir();
	char path[4096], inc[4096], inc2[4096];
	struct scenario sc;
	struct sc_error err;

	snprintf(path, sizeof(path), "%s/top.sc", dir);
	snprintf(inc, sizeof(inc), "%s/sub/inc.sc", dir);
	snprintf(inc2, sizeof(inc2), "%s/sub/inc2.sc", dir);
	if (scenario_parse_file(path, &sc, &err)) {
		TH_FAIL("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
		return;
	}
	EXPECT_EQ(sc.nstmts, 3);
	EXPECT_STREQ(sc.path, path);
	EXPECT_EQ(sc.stmts[1].nbody, 2);
	if (sc.stmts[1].nbody == 2) {
		EXPECT_EQ(sc.stmts[1].body[0].verb, V_TRACER);
		EXPECT_STREQ(sc.stmts[1].body[0].loc.file, inc2);
		EXPECT_EQ(sc.stmts[1].body[0].loc.line, 2);
		EXPECT_EQ(sc.stmts[1].body[1].verb, V_PROCESS);
		EXPECT_STREQ(sc.stmts[1].body[1].loc.file, inc);
		EXPECT_EQ(sc.stmts[1].body[1].loc.line, 3);
	}
	/* kill b after the repeat */
	EXPECT_EQ(sc.stmts[2].verb, V_KILL);
	EXPECT_STREQ(sc.stmts[2].loc.file, path);
	round_trip(_th, &sc);
	scenario_free(&sc);
}

/* "@" in a message stands for the directory of the include files. */
static const struct {
	const char *top, *file;
	int line, col;
	const char *msg;
} include_errs[] = {
	{ "c1.sc", "c2.sc", 1, 9, "include cycle: @/c1.sc -> @/c2.sc -> @/c1.sc" },
	{ "self.sc", "self.sc", 1, 9, "include cycle: @/self.sc -> @/self.sc" },
	{ "nf.sc", "nf.sc", 2, 9, "cannot open include '@/missing.sc': No such file or directory" },
	{ "dir.sc", "dir.sc", 1, 9, "Is a directory" },
	/* in an included file, named by the included file */
	{ "bad.sc", "sub/badinc.sc", 2, 6, "undefined name 'x'" },
	/* an end in an included file does not close the includer's repeat */
	{ "split.sc", "sub/end.sc", 2, 1, "end without repeat" },
	{ "d0.sc", "d16.sc", 1, 9, "nesting deeper than 16" },
	{ "nonexistent.sc", "nonexistent.sc", 0, 0, "cannot open: No such file or directory" },
};

TEST(include_errors)
{
	const char *dir = include_dir();
	char path[4096], fpath[4096], msg[1024];
	struct scenario sc;
	struct sc_error err;
	size_t i;

	for (i = 0; i < N_OF(include_errs); i++) {
		const char *m = include_errs[i].msg;	/* "@": the directory */

		TH_NOTE("%s", include_errs[i].top);
		for (msg[0] = '\0'; *m; m++)
			snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), "%.*s",
				 *m == '@' ? (int)strlen(dir) : 1, *m == '@' ? dir : m);
		snprintf(path, sizeof(path), "%s/%s", dir, include_errs[i].top);
		snprintf(fpath, sizeof(fpath), "%s/%s", dir, include_errs[i].file);
		if (!scenario_parse_file(path, &sc, &err)) {
			TH_FAIL("parsed, expected an error '%s'", msg);
			scenario_free(&sc);
			continue;
		}
		expect_err_at(_th, &err, fpath, include_errs[i].line, include_errs[i].col, msg);
	}
}

/* A text's includes: relative to the current directory (absolute here). */
TEST(include_from_text)
{
	char text[4200];
	struct scenario sc;
	struct sc_error err;

	snprintf(text, sizeof(text), "include \"%s/sub/inc2.sc\"\nkill T 9\n", include_dir());
	if (scenario_parse_text("t.sc", text, strlen(text), false, &sc, &err)) {
		TH_FAIL("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
		return;
	}
	EXPECT_EQ(sc.nstmts, 2);
	scenario_free(&sc);
}

/* ---- round trips ---- */

static const char *const samples[] = {
	"scenario sample\n"
	"process a threads 2 subreaper\nprocess b parent a pidns within 4\n"
	"tree t depth 2 fanout 3 parent a threads 1\nthread th in b\ntracer T parent a\n"
	"seize T a exitkill traceexit sysgood fails EPERM|ESRCH within 5\nattach T b\n"
	"attach T a.t2\ntraceme b\ninterrupt T a\nlisten T a\ncont T a SIGSTOP\ncont T a 40\n"
	"detach T t.2.3 9\nsyscall T a\nsinglestep T th\nptrace-kill T a\n"
	"race-attach T a.t1 t.1\nkill a KILL\ntkill a.t1 SIGUSR1\nexit a 3\nexit b 0\n"
	"exec th\nsubreaper a on\nsubreaper a off\nreap a b\nreap a\nquit T\n"
	"strace s a b t.3.3\ngdb g a quit\nstop s\nwait g\ncheck\nexpect ppid b a\n"
	"expect ppid b init\nexpect tracer a T\nexpect tracer a none\nexpect state a zombie\n"
	"sleep 100\nstress tasks 100 tracers 4 rounds 10 seed 42\ntimeout 60\nstep-timeout 5\n"
	"repeat 3\n\tprocess z\n\trepeat 2\n\t\tkill z SIGTERM\n\tend\nend\nkill z 15\n",
	"process   x\tthreads 0\ntracer y\nseize y x within 1 fails EINVAL sysgood\n"
	"cont y x SIGRTMIN\ndetach y x 64\nkill x 32\n",
	"repeat 1\nend\n",
	"process fails_not\nprocess a.t1\nprocess a threads 0\nkill a.t1 1\n",
	"process a\nprocess b parent a exit-signal SIGRTMAX\nprocess c parent a exit-signal none\n"
	"process d parent a exit-signal 17 threads 1\npdeathsig b KILL\npdeathsig d.t1 SIGTERM\n"
	"sigchld a ignore nocldwait\nsigchld d nocldwait\nsigchld b\n"
	"process e parent b clone-parent exit-signal SIGRTMAX\nreap d.t1 b\n",
	"process a threads 1\nprocess v parent a.t1 vfork\ntracer t\n"
	"seize t a tracevforkdone tracevfork\nwaitid a v nowait nothread wclone stopped continued\n"
	"waitid a wall fails ECHILD\nwaitid a v pidfd fails EAGAIN\npidfd v\nsetsid v\nsetpgid a fails EPERM\n",
};

TEST(round_trip_samples)
{
	struct scenario sc;
	struct sc_error err;
	size_t i;

	for (i = 0; i < N_OF(samples); i++) {
		TH_NOTE("sample %zu", i + 1);
		if (scenario_parse_text("sample", samples[i], strlen(samples[i]), true, &sc,
					&err)) {
			TH_FAIL("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
			continue;
		}
		round_trip(_th, &sc);
		scenario_free(&sc);
	}
	printf("# and %d inputs of the tests before, each in its own test\n", nround);
}

static int is_sc(const struct dirent *de)
{
	size_t len = strlen(de->d_name);

	return len >= 4 && !strcmp(de->d_name + len - 3, ".sc");
}

/* Every .sc file of the scenario library (the argument, else scenarios/). */
TEST(round_trip_library)
{
	const char *sdir = th_argc > 0 ? th_argv[0] : NULL;
	struct dirent **de;
	struct scenario sc;
	struct sc_error err;
	struct stat sb;
	int i, n;

	if (!sdir)
		sdir = !stat("scenarios", &sb) ? "scenarios" :
		       !stat("../scenarios", &sb) ? "../scenarios" : NULL;
	if (!sdir)
		SKIP("no scenario directory (give it as the argument)");
	n = scandir(sdir, &de, is_sc, alphasort);
	if (n < 0) {
		TH_FAIL("%s: %s", sdir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", sdir, de[i]->d_name);
		TH_NOTE("%.190s", path);
		if (scenario_parse_file(path, &sc, &err)) {
			TH_FAIL("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
		} else {
			round_trip(_th, &sc);
			scenario_free(&sc);
		}
		free(de[i]);
	}
	free(de);
	printf("# %d files under %s\n", n, sdir);
	TH_NOTE("%s", sdir);
	EXPECT_GE(n, 1);
}

TEST_MAIN()
