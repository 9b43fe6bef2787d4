// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the scenario-file parser and printer (parse.c, lex.c,
 * print.c).  TAP 13; exit 1 if any test fails.
 *
 * Every verb is checked field by field against concrete values, every
 * error class against its exact file:line:col and a message substring, and
 * every input that parses (plus the .sc files of scenarios/, when that directory exists)
 * against the round trip parse -> print -> parse.
 *
 * usage: parse-tests [SCENARIO_DIR]   (default: scenarios, then ../scenarios)
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>

#include "lang/scenario.h"

static int ntest, nfailed;

static bool tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		nfailed++;
	return ok;
}

/* Failed comparisons of the current test point, printed as diagnostics. */
static bool cur_ok;

#define EQ(what, exp, got) do {							\
	long e_ = (long)(exp), g_ = (long)(got);				\
	if (e_ != g_) {								\
		printf("#   %s: expected %ld, observed %ld\n", what, e_, g_);	\
		cur_ok = false;							\
	}									\
} while (0)

#define STREQ(what, exp, got) do {						\
	const char *e_ = (exp), *g_ = (got);					\
	if (strcmp(e_, g_)) {							\
		printf("#   %s: expected '%s', observed '%s'\n", what, e_, g_);	\
		cur_ok = false;							\
	}									\
} while (0)

/* Print, parse again, compare; diagnostics on failure. */
static bool round_trip(const struct scenario *sc)
{
	struct scenario sc2;
	struct sc_error err;
	char *text = scenario_print(sc);
	bool ok;

	if (!text)
		return false;
	if (scenario_parse_text("printed", text, strlen(text), true, &sc2, &err)) {
		printf("#   printed text does not parse: %s:%d:%d: %s\n", err.file, err.line,
		       err.col, err.msg);
		free(text);
		return false;
	}
	ok = scenario_equal(sc, &sc2);
	if (!ok)
		printf("#   reparsed scenario differs; printed:\n# %s\n", text);
	free(text);
	scenario_free(&sc2);
	return ok;
}

static int nround;	/* round trips checked as a side effect of other tests */
static int nround_failed;

/* Parse @text; on failure print the error. Every success is round-tripped. */
static bool parse_ok(const char *text, struct scenario *sc)
{
	struct sc_error err;

	if (scenario_parse_text("t.sc", text, strlen(text), true, sc, &err)) {
		printf("#   unexpected error: %s:%d:%d: %s\n", err.file, err.line, err.col,
		       err.msg);
		return false;
	}
	nround++;
	if (!round_trip(sc))
		nround_failed++;
	return true;
}

/* @s with newlines as "; ", for a test point's name. */
static const char *one_line(const char *s)
{
	static char buf[512];
	size_t i, j;

	for (i = j = 0; s[i] && j + 3 < sizeof(buf); i++) {
		if (s[i] == '\n') {
			buf[j++] = ';';
			buf[j++] = ' ';
		} else {
			buf[j++] = s[i];
		}
	}
	buf[j] = '\0';
	return buf;
}

static const char *const defs =
	"process a threads 2\n"
	"process b parent a\n"
	"tracer T\n"
	"thread th in b\n";

/* @defs followed by @line: the last statement of the result is the one tested. */
static const struct stmt *last(struct scenario *sc, const char *line)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s\n", defs, line);
	if (!parse_ok(buf, sc) || sc->nstmts < 5)
		return NULL;
	return &sc->stmts[sc->nstmts - 1];
}

#define VERB_TEST(line, checks) do {						\
	struct scenario sc_;							\
	const struct stmt *st;							\
	cur_ok = true;								\
	st = last(&sc_, line);							\
	if (st) {								\
		checks;								\
		scenario_free(&sc_);						\
	} else {								\
		cur_ok = false;							\
	}									\
	tap(cur_ok, "verb: %s", one_line(line));				\
} while (0)

static void test_verbs(void)
{
	struct scenario sc;
	const struct stmt *st;

	cur_ok = true;
	if (parse_ok("scenario x\nprocess p parent R threads 3 subreaper pidns within 7\n", &sc)) {
		EQ("nstmts", 1, sc.nstmts);
		st = &sc.stmts[0];
		EQ("verb", V_PROCESS, st->verb);
		STREQ("name", "p", st->name[0]);
		EQ("nnames", 1, st->nnames);
		STREQ("parent", "R", st->parent);
		EQ("threads", 3, st->threads);
		EQ("opts", O_SUBREAPER | O_PIDNS, st->opts);
		EQ("within", 7, st->within);
		EQ("line", 2, st->loc.line);
		EQ("col", 1, st->loc.col);
		STREQ("file", "t.sc", st->loc.file);
		scenario_free(&sc);
	} else {
		cur_ok = false;
	}
	tap(cur_ok, "verb: process with every option, after scenario");

	VERB_TEST("tree t depth 2 fanout 3 parent a threads 4",
		  EQ("verb", V_TREE, st->verb); STREQ("name", "t", st->name[0]);
		  EQ("depth", 2, st->depth); EQ("fanout", 3, st->fanout);
		  STREQ("parent", "a", st->parent); EQ("threads", 4, st->threads));
	VERB_TEST("thread x in a fails EAGAIN",
		  EQ("verb", V_THREAD, st->verb); STREQ("name", "x", st->name[0]);
		  STREQ("in", "a", st->name[1]); EQ("nnames", 2, st->nnames);
		  EQ("nfails", 1, st->nfails); EQ("fails[0]", EAGAIN, st->fails[0]));
	VERB_TEST("tracer U parent b",
		  EQ("verb", V_TRACER, st->verb); STREQ("name", "U", st->name[0]);
		  STREQ("parent", "b", st->parent));
	VERB_TEST("seize T a.t2 exitkill sysgood traceclone tracefork tracevfork traceexec "
		  "traceexit fails EPERM|ESRCH|EBUSY within 3",
		  EQ("verb", V_SEIZE, st->verb); STREQ("tracer", "T", st->name[0]);
		  STREQ("task", "a.t2", st->name[1]); EQ("nnames", 2, st->nnames);
		  EQ("opts", O_EXITKILL | O_SYSGOOD | O_TRACECLONE | O_TRACEFORK |
		     O_TRACEVFORK | O_TRACEEXEC | O_TRACEEXIT, st->opts);
		  EQ("nfails", 3, st->nfails); EQ("fails[0]", EPERM, st->fails[0]);
		  EQ("fails[1]", ESRCH, st->fails[1]); EQ("fails[2]", EBUSY, st->fails[2]);
		  EQ("within", 3, st->within));
	VERB_TEST("attach th b traceexec",
		  EQ("verb", V_ATTACH, st->verb); STREQ("tracer", "th", st->name[0]);
		  STREQ("task", "b", st->name[1]); EQ("opts", O_TRACEEXEC, st->opts));
	VERB_TEST("traceme b", EQ("verb", V_TRACEME, st->verb); STREQ("p", "b", st->name[0]);
		  EQ("nnames", 1, st->nnames));
	VERB_TEST("interrupt T a", EQ("verb", V_INTERRUPT, st->verb);
		  STREQ("t", "T", st->name[0]); STREQ("a", "a", st->name[1]));
	VERB_TEST("listen T a", EQ("verb", V_LISTEN, st->verb); EQ("nnames", 2, st->nnames));
	VERB_TEST("cont T a", EQ("verb", V_CONT, st->verb); EQ("sig", 0, st->sig));
	VERB_TEST("cont T a SIGSTOP within 2", EQ("verb", V_CONT, st->verb);
		  EQ("sig", SIGSTOP, st->sig); EQ("within", 2, st->within));
	VERB_TEST("syscall T a", EQ("verb", V_SYSCALL, st->verb));
	VERB_TEST("singlestep T a.t1", EQ("verb", V_SINGLESTEP, st->verb);
		  STREQ("task", "a.t1", st->name[1]));
	VERB_TEST("detach T a 10", EQ("verb", V_DETACH, st->verb); EQ("sig", SIGUSR1, st->sig));
	VERB_TEST("ptrace-kill T a", EQ("verb", V_PTRACE_KILL, st->verb));
	VERB_TEST("race-attach T th a", EQ("verb", V_RACE_ATTACH, st->verb);
		  EQ("nnames", 3, st->nnames); STREQ("t1", "T", st->name[0]);
		  STREQ("t2", "th", st->name[1]); STREQ("task", "a", st->name[2]));
	VERB_TEST("kill a KILL", EQ("verb", V_KILL, st->verb); EQ("sig", SIGKILL, st->sig));
	VERB_TEST("tkill th SIGRTMIN+2", EQ("verb", V_TKILL, st->verb);
		  EQ("sig", SIGRTMIN + 2, st->sig); STREQ("task", "th", st->name[0]));
	VERB_TEST("exit a", EQ("verb", V_EXIT, st->verb); EQ("code", 0, st->num));
	VERB_TEST("exit th 255 within 9", EQ("verb", V_EXIT, st->verb); EQ("code", 255, st->num);
		  EQ("within", 9, st->within));
	VERB_TEST("exec a.t1", EQ("verb", V_EXEC, st->verb); STREQ("task", "a.t1", st->name[0]));
	VERB_TEST("subreaper a on", EQ("verb", V_SUBREAPER, st->verb); EQ("opts", O_ON, st->opts));
	VERB_TEST("subreaper a off", EQ("verb", V_SUBREAPER, st->verb); EQ("opts", 0, st->opts));
	VERB_TEST("reap a b", EQ("verb", V_REAP, st->verb); EQ("nnames", 2, st->nnames);
		  STREQ("child", "b", st->name[1]));
	VERB_TEST("reap a fails ECHILD", EQ("verb", V_REAP, st->verb); EQ("nnames", 1, st->nnames);
		  EQ("fails[0]", ECHILD, st->fails[0]));
	VERB_TEST("quit T", EQ("verb", V_QUIT, st->verb); STREQ("tracer", "T", st->name[0]));
	VERB_TEST("strace s a th b", EQ("verb", V_STRACE, st->verb); STREQ("s", "s", st->name[0]);
		  EQ("ntargets", 3, st->ntargets); STREQ("t0", "a", st->targets[0]);
		  STREQ("t1", "th", st->targets[1]); STREQ("t2", "b", st->targets[2]));
	VERB_TEST("gdb g a quit", EQ("verb", V_GDB, st->verb); STREQ("s", "g", st->name[0]);
		  STREQ("proc", "a", st->name[1]); EQ("opts", O_GDB_QUIT, st->opts));
	VERB_TEST("gdb g a\nstop g", EQ("verb", V_STOP, st->verb); STREQ("s", "g", st->name[0]));
	VERB_TEST("gdb g a\nwait g within 30", EQ("verb", V_WAIT, st->verb);
		  EQ("within", 30, st->within));
	VERB_TEST("check", EQ("verb", V_CHECK, st->verb); EQ("nnames", 0, st->nnames));
	VERB_TEST("expect ppid b a", EQ("verb", V_EXPECT, st->verb); EQ("what", E_PPID, st->what);
		  STREQ("task", "b", st->name[0]); STREQ("value", "a", st->name[1]));
	VERB_TEST("expect ppid b init", EQ("what", E_PPID, st->what);
		  STREQ("value", "init", st->name[1]));
	VERB_TEST("expect tracer a th", EQ("what", E_TRACER, st->what);
		  STREQ("value", "th", st->name[1]));
	VERB_TEST("expect tracer a none", EQ("what", E_TRACER, st->what);
		  STREQ("value", "none", st->name[1]));
	VERB_TEST("expect state a.t2 traced", EQ("what", E_STATE, st->what);
		  EQ("state", ST_TRACED, st->state); EQ("nnames", 1, st->nnames));
	VERB_TEST("sleep 250", EQ("verb", V_SLEEP, st->verb); EQ("ms", 250, st->num));
	VERB_TEST("stress tasks 300 tracers 8 rounds 1000 threads 64 seed 18446744073709551615",
		  EQ("verb", V_STRESS, st->verb); EQ("tasks", 300, st->tasks);
		  EQ("tracers", 8, st->tracers); EQ("rounds", 1000, st->rounds);
		  EQ("threads", 64, st->threads); EQ("seed high bit", 1, st->seed >> 63));
	VERB_TEST("timeout 86400", EQ("verb", V_TIMEOUT, st->verb); EQ("sec", 86400, st->num));
	VERB_TEST("step-timeout 1", EQ("verb", V_STEP_TIMEOUT, st->verb); EQ("sec", 1, st->num));

	cur_ok = true;
	if (parse_ok("repeat 3\n\tprocess z\n\trepeat 2\n\t\tkill z 15\n\tend\nend\nkill z TERM\n",
		     &sc)) {
		EQ("nstmts", 2, sc.nstmts);
		EQ("verb", V_REPEAT, sc.stmts[0].verb);
		EQ("count", 3, sc.stmts[0].num);
		EQ("nbody", 2, sc.stmts[0].nbody);
		EQ("body[0]", V_PROCESS, sc.stmts[0].body[0].verb);
		EQ("inner count", 2, sc.stmts[0].body[1].num);
		EQ("inner nbody", 1, sc.stmts[0].body[1].nbody);
		EQ("inner sig", SIGTERM, sc.stmts[0].body[1].body[0].sig);
		EQ("inner line", 4, sc.stmts[0].body[1].body[0].loc.line);
		EQ("inner col", 3, sc.stmts[0].body[1].body[0].loc.col);
		EQ("after: z still defined", V_KILL, sc.stmts[1].verb);
		scenario_free(&sc);
	} else {
		cur_ok = false;
	}
	tap(cur_ok, "verb: nested repeat ... end; names defined inside stay defined");

	cur_ok = true;
	if (parse_ok("tree t depth 2 fanout 2 threads 2\nkill t.2.1.t2 9\nexpect ppid t.1.2 t.1\n"
		     "process p threads 1000\nkill p.t1000 9\ntree u depth 0 fanout 64\n", &sc)) {
		EQ("nstmts", 6, sc.nstmts);
		STREQ("tree thread", "t.2.1.t2", sc.stmts[1].name[0]);
		EQ("depth 0", 0, sc.stmts[5].depth);
		scenario_free(&sc);
	} else {
		cur_ok = false;
	}
	tap(cur_ok, "names: tree nodes and .tK threads are defined");

	cur_ok = true;
	if (parse_ok("", &sc)) {
		EQ("nstmts", 0, sc.nstmts);
		scenario_free(&sc);
	} else {
		cur_ok = false;
	}
	if (parse_ok("# only a comment\n\n   \t\n# \x01\xff binary in a comment is fine\n", &sc)) {
		EQ("nstmts", 0, sc.nstmts);
		scenario_free(&sc);
	} else {
		cur_ok = false;
	}
	tap(cur_ok, "empty and comment-only files are empty scenarios");

	cur_ok = true;
	if (parse_ok("process a\r\nkill a SIGKILL\t# comment\r\n", &sc)) {
		EQ("nstmts", 2, sc.nstmts);
		EQ("sig", SIGKILL, sc.stmts[1].sig);
		scenario_free(&sc);
	} else {
		cur_ok = false;
	}
	tap(cur_ok, "CRLF line ends and trailing comments");
}

struct err_case {
	const char *text;
	int line, col;
	const char *msg;	/* a substring of the message */
};

static const struct err_case err_cases[] = {
	{ "check\nfrobnicate a\n", 2, 1, "unknown verb 'frobnicate'" },
	{ "process\n", 1, 8, "too few arguments: process needs NAME" },
	{ "process a\nkill a\n", 2, 7, "too few arguments: kill needs SIG" },
	{ "process a\nkill a 9 9\n", 2, 10, "too many arguments: unexpected '9'" },
	{ "check now\n", 1, 7, "too many arguments: unexpected 'now'" },
	{ "repeat 2\nend now\n", 2, 5, "too many arguments" },
	{ "sleep x\n", 1, 7, "MS: expected a number, got 'x'" },
	{ "sleep 600001\n", 1, 7, "MS 600001 out of range (0..600000)" },
	{ "sleep 99999999999999999999999\n", 1, 7, "out of range (0..600000)" },
	{ "sleep -1\n", 1, 7, "MS -1 out of range" },
	{ "process a\nexit a 256\n", 2, 8, "exit code 256 out of range (0..255)" },
	{ "process a\nkill a SIGFOO\n", 2, 8, "unknown signal 'SIGFOO'" },
	{ "process a\nkill a 65\n", 2, 8, "signal 65 out of range (1..64)" },
	{ "process a\ncont R a fails EPERM|EFOO\n", 2, 22, "unknown errno 'EFOO'" },
	{ "process a\ncont R a fails EPERM|\n", 2, 22, "unknown errno ''" },
	{ "process a\nkill a 9 fails EPERM|ESRCH|EINTR|EIO|ECHILD\n", 2, 38,
	  "too many errnos after 'fails' (max 4)" },
	{ "process a\nkill a 9 fails EPERM|EPERM\n", 2, 22, "duplicate errno 'EPERM'" },
	{ "process a\nkill a 9 within\n", 2, 16, "too few arguments: 'within' needs a value" },
	{ "process a\nkill a 9 within 0\n", 2, 17, "within 0 out of range (1..86400)" },
	{ "kill nobody 9\n", 1, 6, "undefined name 'nobody'" },
	{ "process a threads 1\nreap a.t1\n", 2, 6, "a.t1 is a thread, expected a process" },
	{ "process a threads 1\nreap a.t2\n", 2, 6, "undefined name 'a.t2'" },
	{ "process a\nstop a\n", 2, 6, "a is a process, expected a session" },
	{ "process a\ngdb g a\nkill g 9\n", 3, 6, "g is a session, expected a process or thread" },
	{ "process a\nthread t in a\nprocess t\n", 3, 9,
	  "t is a thread, cannot be redefined as a process" },
	{ "process a threads 2\nprocess a.t2\n", 2, 9,
	  "a.t2 is a thread, cannot be redefined as a process" },
	{ "process a.t3\nprocess a threads 4\n", 2, 9,
	  "a.t3 is a process, cannot be redefined as a thread" },
	{ "process a\nseize R a exitkill exitkill\n", 2, 20, "duplicate option 'exitkill'" },
	{ "process a\nprocess b frob\n", 2, 11, "unknown option 'frob' for process" },
	{ "process a\nprocess b parent\n", 2, 17, "too few arguments: 'parent' needs a value" },
	{ "process a\ngdb g a detach\n", 2, 9, "unknown option 'detach' for gdb" },
	{ "sleep 5 within 3\n", 1, 9, "sleep takes no 'within' clause" },
	{ "check fails EPERM\n", 1, 7, "check takes no 'fails' clause" },
	{ "check\nend\n", 2, 1, "end without repeat" },
	{ "check\nrepeat 2\n  check\n", 2, 1, "repeat without end" },
	{ "repeat 2\n\trepeat 3\n\tend\n", 1, 1, "repeat without end" },
	{ "repeat 0\nend\n", 1, 8, "N 0 out of range (1..1000000)" },
	{ "process a\0\n", 1, 10, "binary data (byte 0x00)" },
	{ "process \xff\n", 1, 9, "binary data (byte 0xff is not UTF-8)" },
	{ "process a\x1b[0m\n", 1, 10, "binary data (byte 0x1b)" },
	{ "process a\rb\n", 1, 10, "binary data (byte 0x0d)" },
	{ "process \xc3\xa9t\xc3\xa9\n", 1, 9, "bad name" },
	{ "include \"x.sc\"\n", 1, 1, "include is not allowed here" },
	{ "include \"x.sc\n", 1, 9, "unterminated string" },
	{ "include \"x\"y\n", 1, 12, "expected a space after the closing quote" },
	{ "process \"a\"\n", 1, 9, "a quoted string is only allowed as an include path" },
	{ "tree t depth 12 fanout 3\n", 1, 6, "tree t: too many processes (more than 20000)" },
	{ "tree t depth 13 fanout 1\n", 1, 14, "depth 13 out of range (0..12)" },
	{ "tree t depth 2\n", 1, 15, "too few arguments: tree needs 'fanout N'" },
	{ "tree abcdefghijklmnopqrstuvwxyzabcdefghijklmno depth 3 fanout 10\n", 1, 6,
	  "deepest names are too long (50 characters, max 47)" },
	{ "stress tasks 1 tracers 1 rounds 1 threads 65\n", 1, 43,
	  "threads 65 out of range (0..64)" },
	{ "stress tracers 1 rounds 1\n", 1, 26, "too few arguments: stress needs 'tasks N'" },
	{ "process a threads 1001\n", 1, 19, "threads 1001 out of range (0..1000)" },
	{ "process R\n", 1, 9, "R is predefined" },
	{ "process init\n", 1, 9, "'init' is a reserved word" },
	{ "tracer within\n", 1, 8, "'within' is a reserved word" },
	{ "process 1a\n", 1, 9, "bad name '1a'" },
	{ "process a..b\n", 1, 9, "bad name 'a..b'" },
	{ "process a.\n", 1, 9, "bad name 'a.'" },
	{ "process abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv\n", 1, 9,
	  "name too long (48 characters, max 47)" },
	{ "process abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqr threads 10\n", 1, 9,
	  "thread name abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqr.t10 too long" },
	{ "expect color R red\n", 1, 8, "expect: unknown check 'color'" },
	{ "expect state R asleep\n", 1, 16, "unknown state 'asleep'" },
	{ "expect ppid R none\n", 1, 15, "undefined name 'none'" },
	{ "expect tracer R\n", 1, 16, "too few arguments: expect needs TRACER or none" },
	{ "subreaper R maybe\n", 1, 13, "expected on or off, got 'maybe'" },
	{ "thread x of R\n", 1, 10, "expected 'in', got 'of'" },
	{ "scenario x\ncheck\nscenario y\n", 3, 1, "scenario must be the first statement" },
	{ "process a\nstrace s\n", 2, 9, "too few arguments: strace needs TASK" },
	{ "process a\nstrace s a b\n", 2, 12, "undefined name 'b'" },
	{ "process a\nstrace a a\n", 2, 8, "a is a process, cannot be redefined as a session" },
};

/* Check @err against the expected place and message; diagnostics on failure. */
static bool err_matches(const struct sc_error *err, const char *file, int line, int col,
			const char *msg)
{
	cur_ok = true;
	STREQ("file", file, err->file);
	EQ("line", line, err->line);
	EQ("col", col, err->col);
	if (!strstr(err->msg, msg)) {
		printf("#   message: expected to contain '%s', observed '%s'\n", msg, err->msg);
		cur_ok = false;
	}
	return cur_ok;
}

static bool expect_error(const char *text, size_t len, bool no_includes, int line, int col,
			 const char *msg)
{
	struct scenario sc;
	struct sc_error err;

	if (!scenario_parse_text("t.sc", text, len, no_includes, &sc, &err)) {
		printf("#   parsed, expected an error '%s'\n", msg);
		scenario_free(&sc);
		return false;
	}
	if (sc.arena || sc.stmts || sc.nstmts) {
		printf("#   an error left a scenario behind\n");
		return false;
	}
	return err_matches(&err, "t.sc", line, col, msg);
}

static void test_errors(void)
{
	char *big, *p;
	size_t i;
	int n;

	for (i = 0; i < sizeof(err_cases) / sizeof(err_cases[0]); i++) {
		const struct err_case *c = &err_cases[i];
		/* the one case with a NUL byte: length from the case, not strlen */
		size_t len = strstr(c->msg, "0x00") ? strlen(c->text) + 2 : strlen(c->text);

		tap(expect_error(c->text, len, true, c->line, c->col, c->msg),
		    "error: t.sc:%d:%d: %s", c->line, c->col, c->msg);
	}

	big = malloc(10 * 1024 * 1024 + 64);
	if (!big)
		exit(3);

	/* strace: 64 tasks fine, the 65th is one too many */
	p = big + sprintf(big, "process a\nstrace s");
	for (n = 0; n < 64; n++)
		p += sprintf(p, " a");
	strcpy(p, "\n");
	cur_ok = true;
	{
		struct scenario sc;

		if (parse_ok(big, &sc)) {
			EQ("ntargets", 64, sc.stmts[1].ntargets);
			scenario_free(&sc);
		} else {
			cur_ok = false;
		}
	}
	tap(cur_ok, "strace with 64 tasks parses");
	strcpy(p, " a\n");
	tap(expect_error(big, strlen(big), true, 2, 10 + 64 * 2,
			 "too many tasks for strace (max 64)"), "error: strace with 65 tasks");

	/* nesting: 16 repeats fine, the 17th is too deep */
	p = big;
	for (n = 0; n < 16; n++)
		p += sprintf(p, "repeat 2\n");
	for (n = 0; n < 16; n++)
		p += sprintf(p, "end\n");
	{
		struct scenario sc;

		tap(parse_ok(big, &sc), "16 nested repeat blocks parse");
		scenario_free(&sc);
	}
	p = big;
	for (n = 0; n < 17; n++)
		p += sprintf(p, "%*srepeat 2\n", n, "");
	for (n = 0; n < 17; n++)
		p += sprintf(p, "end\n");
	tap(expect_error(big, strlen(big), true, 17, 17, "nesting deeper than 16"),
	    "error: 17 nested repeat blocks");

	/* statements: AST nodes, a repeat body counts once */
	p = big + sprintf(big, "repeat 1000000\n");
	for (n = 0; n < SC_MAX_STMTS - 1; n++)
		p += sprintf(p, "check\n");
	p += sprintf(p, "end\n");
	{
		struct scenario sc;
		struct sc_error err;

		cur_ok = true;
		if (scenario_parse_text("t.sc", big, strlen(big), true, &sc, &err)) {
			printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
			cur_ok = false;
		} else {
			EQ("nstmts", 1, sc.nstmts);
			EQ("nbody", SC_MAX_STMTS - 1, sc.stmts[0].nbody);
			scenario_free(&sc);
		}
		tap(cur_ok, "%d statements (a repeat of %d) parse", SC_MAX_STMTS, SC_MAX_STMTS - 1);
	}
	sprintf(p, "check\n");
	tap(expect_error(big, strlen(big), true, SC_MAX_STMTS + 2, 1,
			 "more than 100000 statements"),
	    "error: %d statements", SC_MAX_STMTS + 1);

	/* lines: SC_MAX_LINE bytes are fine, one more is an error */
	memset(big, ' ', SC_MAX_LINE);
	memcpy(big + SC_MAX_LINE - 5, "check", 5);
	strcpy(big + SC_MAX_LINE, "\r\n");
	{
		struct scenario sc;

		tap(parse_ok(big, &sc), "a line of %d bytes (and CRLF) parses", SC_MAX_LINE);
		scenario_free(&sc);
	}
	strcpy(big + SC_MAX_LINE, " \n");
	tap(expect_error(big, strlen(big), true, 1, 1, "line too long (4097 bytes, max 4096)"),
	    "error: a line of %d bytes", SC_MAX_LINE + 1);
	free(big);
}

/* A 10 MB line, in a text and in a file: rejected in well under a second. */
static void test_huge_line(const char *dir)
{
	size_t len = 10 * 1024 * 1024;
	char *big = malloc(len + 16), path[4096];
	struct scenario sc;
	struct sc_error err;
	struct timespec t0, t1;
	double secs;
	FILE *f;

	if (!big)
		exit(3);
	memcpy(big, "check\n", 6);
	memset(big + 6, 'x', len);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tap(expect_error(big, len + 6, true, 2, 1, "line too long (10485760 bytes, max 4096)"),
	    "error: a 10 MB line in a text");
	snprintf(path, sizeof(path), "%s/huge.sc", dir);
	f = fopen(path, "w");
	if (!f || fwrite(big, 1, len + 6, f) != len + 6 || fclose(f))
		exit(3);
	cur_ok = !scenario_parse_file(path, &sc, &err);
	if (cur_ok)
		scenario_free(&sc);
	tap(!cur_ok && err_matches(&err, path, 2, 1, "line too long (10485760 bytes, max 4096)"),
	    "error: a 10 MB line in a file");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap(secs < 2.0, "a 10 MB line is rejected fast (%.3f s, both)", secs);
	unlink(path);
	free(big);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		printf("Bail out! cannot write %s: %s\n", path, strerror(errno));
		exit(3);
	}
}

static bool expect_file_error(const char *dir, const char *top, const char *file, int line,
			      int col, const char *msg)
{
	char path[4096], fpath[4096];
	struct scenario sc;
	struct sc_error err;

	snprintf(path, sizeof(path), "%s/%s", dir, top);
	snprintf(fpath, sizeof(fpath), "%s/%s", dir, file);
	if (!scenario_parse_file(path, &sc, &err)) {
		printf("#   parsed, expected an error '%s'\n", msg);
		scenario_free(&sc);
		return false;
	}
	return err_matches(&err, fpath, line, col, msg);
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

static void test_includes(const char *dir)
{
	char path[4096], msg[1024], text[4200];
	struct scenario sc;
	struct sc_error err;
	size_t i;
	int n;

	snprintf(path, sizeof(path), "%s/sub", dir);
	if (mkdir(path, 0700)) {
		printf("Bail out! mkdir %s: %s\n", path, strerror(errno));
		exit(3);
	}
	for (i = 0; i < sizeof(include_files) / sizeof(include_files[0]); i++)
		write_file(dir, include_files[i][0], include_files[i][1]);
	for (n = 0; n <= 17; n++) {
		char name[32], body[64];

		snprintf(name, sizeof(name), "d%d.sc", n);
		snprintf(body, sizeof(body), n < 17 ? "include d%d.sc\n" : "check\n", n + 1);
		write_file(dir, name, body);
	}

	cur_ok = true;
	snprintf(path, sizeof(path), "%s/top.sc", dir);
	if (scenario_parse_file(path, &sc, &err)) {
		printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
		cur_ok = false;
	} else {
		char inc[4096], inc2[4096];

		snprintf(inc, sizeof(inc), "%s/sub/inc.sc", dir);
		snprintf(inc2, sizeof(inc2), "%s/sub/inc2.sc", dir);
		EQ("nstmts", 3, sc.nstmts);
		STREQ("path", path, sc.path);
		EQ("repeat nbody", 2, sc.stmts[1].nbody);
		if (sc.stmts[1].nbody == 2) {
			EQ("body[0]", V_TRACER, sc.stmts[1].body[0].verb);
			STREQ("body[0] file", inc2, sc.stmts[1].body[0].loc.file);
			EQ("body[0] line", 2, sc.stmts[1].body[0].loc.line);
			EQ("body[1]", V_PROCESS, sc.stmts[1].body[1].verb);
			STREQ("body[1] file", inc, sc.stmts[1].body[1].loc.file);
			EQ("body[1] line", 3, sc.stmts[1].body[1].loc.line);
		}
		EQ("kill b after the repeat", V_KILL, sc.stmts[2].verb);
		STREQ("kill file", path, sc.stmts[2].loc.file);
		if (!round_trip(&sc))
			cur_ok = false;
		scenario_free(&sc);
	}
	tap(cur_ok, "include: relative to the including file, inside a repeat, round trip");

	snprintf(msg, sizeof(msg), "include cycle: %s/c1.sc -> %s/c2.sc -> %s/c1.sc", dir, dir,
		 dir);
	tap(expect_file_error(dir, "c1.sc", "c2.sc", 1, 9, msg), "error: include cycle of two");
	snprintf(msg, sizeof(msg), "include cycle: %s/self.sc -> %s/self.sc", dir, dir);
	tap(expect_file_error(dir, "self.sc", "self.sc", 1, 9, msg),
	    "error: a file including itself");
	snprintf(msg, sizeof(msg), "cannot open include '%s/missing.sc': No such file or directory",
		 dir);
	tap(expect_file_error(dir, "nf.sc", "nf.sc", 2, 9, msg), "error: include not found");
	tap(expect_file_error(dir, "dir.sc", "dir.sc", 1, 9, "Is a directory"),
	    "error: include of a directory");
	tap(expect_file_error(dir, "bad.sc", "sub/badinc.sc", 2, 6, "undefined name 'x'"),
	    "error: in an included file, named by the included file");
	tap(expect_file_error(dir, "split.sc", "sub/end.sc", 2, 1, "end without repeat"),
	    "error: end in an included file does not close the includer's repeat");
	tap(expect_file_error(dir, "d0.sc", "d16.sc", 1, 9, "nesting deeper than 16"),
	    "error: includes nested 17 deep");

	snprintf(path, sizeof(path), "%s/nonexistent.sc", dir);
	cur_ok = !scenario_parse_file(path, &sc, &err);
	tap(!cur_ok && err_matches(&err, path, 0, 0, "cannot open: No such file or directory"),
	    "error: top file not found");

	/* a text's includes: relative to the current directory (absolute here) */
	snprintf(text, sizeof(text), "include \"%s/sub/inc2.sc\"\nkill T 9\n", dir);
	cur_ok = true;
	if (scenario_parse_text("t.sc", text, strlen(text), false, &sc, &err)) {
		printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
		cur_ok = false;
	} else {
		EQ("nstmts", 2, sc.nstmts);
		scenario_free(&sc);
	}
	tap(cur_ok, "include from a text when includes are allowed");

	for (i = 0; i < sizeof(include_files) / sizeof(include_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, include_files[i][0]);
		unlink(path);
	}
	for (n = 0; n <= 17; n++) {
		snprintf(path, sizeof(path), "%s/d%d.sc", dir, n);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
}

/* Round trips of samples, and of scenarios/ if someone has written it. */
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
};

static void test_round_trips(const char *sdir)
{
	struct scenario sc;
	struct sc_error err;
	struct dirent *de;
	size_t i;
	DIR *d;
	int n = 0;

	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		cur_ok = true;
		if (scenario_parse_text("sample", samples[i], strlen(samples[i]), true, &sc,
					&err)) {
			printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
			cur_ok = false;
		} else {
			cur_ok = round_trip(&sc);
			scenario_free(&sc);
		}
		tap(cur_ok, "round trip: sample %zu", i + 1);
	}
	tap(nround > 40 && !nround_failed, "round trip: %d other test inputs (%d failed)",
	    nround, nround_failed);

	d = sdir ? opendir(sdir) : NULL;
	if (!d) {
		printf("# no scenarios/ directory: round trips of the samples only\n");
		return;
	}
	while ((de = readdir(d))) {
		char path[4096];
		size_t len = strlen(de->d_name);

		if (len < 4 || strcmp(de->d_name + len - 3, ".sc"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", sdir, de->d_name);
		cur_ok = true;
		if (scenario_parse_file(path, &sc, &err)) {
			printf("#   %s:%d:%d: %s\n", err.file, err.line, err.col, err.msg);
			cur_ok = false;
		} else {
			cur_ok = round_trip(&sc);
			scenario_free(&sc);
		}
		tap(cur_ok, "round trip: %s", path);
		n++;
	}
	closedir(d);
	printf("# %d files under %s\n", n, sdir);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/parse-tests.XXXXXX";
	const char *sdir = argc > 1 ? argv[1] : NULL;
	struct stat sb;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 3;
	}
	if (!sdir)
		sdir = !stat("scenarios", &sb) ? "scenarios" :
		       !stat("../scenarios", &sb) ? "../scenarios" : NULL;
	test_verbs();
	test_errors();
	test_huge_line(dir);
	test_includes(dir);
	test_round_trips(sdir);
	rmdir(dir);
	printf("1..%d\n", ntest);
	return nfailed ? 1 : 0;
}
