// SPDX-License-Identifier: GPL-2.0
/*
 * parse-tests, second part: every error class of the scenario parser at its
 * exact file:line:col with a substring of its message, and the size limits
 * (both sides of each).  One program with parse-tests.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "parse-tests.h"
#include "lang/scenario.h"

#define N_OF(a)		(sizeof(a) / sizeof((a)[0]))


/* ---- errors ---- */

struct err_case {
	const char *text;
	int line, col;
	const char *msg;	/* a substring of the message */
};

/* @err is at @file:@line:@col and its message contains @msg. */
void expect_err_at(struct th_test *_th, const struct sc_error *err, const char *file, int line,
		   int col, const char *msg)
{
	EXPECT_STREQ(err->file, file);
	EXPECT_EQ(err->line, line);
	EXPECT_EQ(err->col, col);
	EXPECT_CONTAINS(err->msg, msg);
}

/* @len bytes of @text fail to parse, at t.sc:@line:@col with @msg, leaving nothing. */
void expect_error(struct th_test *_th, const char *text, size_t len, int line, int col,
		  const char *msg)
{
	struct scenario sc;
	struct sc_error err;

	if (!scenario_parse_text("t.sc", text, len, true, &sc, &err)) {
		TH_FAIL("parsed, expected an error '%s'", msg);
		scenario_free(&sc);
		return;
	}
	if (sc.arena || sc.stmts || sc.nstmts)
		TH_FAIL("an error left a scenario behind");
	expect_err_at(_th, &err, "t.sc", line, col, msg);
}

static void expect_errors(struct th_test *_th, const struct err_case *c, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++, c++) {
		/* the one case with a NUL byte: length from the case, not strlen */
		len = strlen(c->text) + (strstr(c->msg, "0x00") ? 2 : 0);
		TH_NOTE("%s", one_line(c->text));
		expect_error(_th, c->text, len, c->line, c->col, c->msg);
	}
}

/* A test of the error cases given as its arguments, one TH_NOTE() each. */
#define ERRORS_TEST(name, ...)							\
	TEST(name)								\
	{									\
		static const struct err_case cases[] = { __VA_ARGS__ };	\
		expect_errors(_th, cases, N_OF(cases));				\
	}

ERRORS_TEST(errors_verbs_and_arity,
	{ "check\nfrobnicate a\n", 2, 1, "unknown verb 'frobnicate'" },
	{ "process\n", 1, 8, "too few arguments: process needs NAME" },
	{ "process a\nkill a\n", 2, 7, "too few arguments: kill needs SIG" },
	{ "process a\nkill a 9 9\n", 2, 10, "too many arguments: unexpected '9'" },
	{ "check now\n", 1, 7, "too many arguments: unexpected 'now'" },
	{ "repeat 2\nend now\n", 2, 5, "too many arguments" },
	{ "tree t depth 2\n", 1, 15, "too few arguments: tree needs 'fanout N'" },
	{ "stress tracers 1 rounds 1\n", 1, 26, "too few arguments: stress needs 'tasks N'" },
	{ "process a\nstrace s\n", 2, 9, "too few arguments: strace needs TASK" },
	{ "expect tracer R\n", 1, 16, "too few arguments: expect needs TRACER or none" },
)

ERRORS_TEST(errors_numbers_and_signals,
	{ "sleep x\n", 1, 7, "MS: expected a number, got 'x'" },
	{ "sleep 600001\n", 1, 7, "MS 600001 out of range (0..600000)" },
	{ "sleep 99999999999999999999999\n", 1, 7, "out of range (0..600000)" },
	{ "sleep -1\n", 1, 7, "MS -1 out of range" },
	{ "process a\nexit a 256\n", 2, 8, "exit code 256 out of range (0..255)" },
	{ "process a\nkill a SIGFOO\n", 2, 8, "unknown signal 'SIGFOO'" },
	{ "process a\nkill a 65\n", 2, 8, "signal 65 out of range (1..64)" },
	{ "repeat 0\nend\n", 1, 8, "N 0 out of range (1..1000000)" },
	{ "tree t depth 13 fanout 1\n", 1, 14, "depth 13 out of range (0..12)" },
	{ "stress tasks 1 tracers 1 rounds 1 threads 65\n", 1, 43,
	  "threads 65 out of range (0..64)" },
	{ "process a threads 1001\n", 1, 19, "threads 1001 out of range (0..1000)" },
)

/* fails/within values (cont and kill: verbs whose rows take both clauses). */
ERRORS_TEST(errors_clause_values,
	{ "process a\ntracer t\ncont t a fails EPERM|EFOO\n", 3, 22, "unknown errno 'EFOO'" },
	{ "process a\ntracer t\ncont t a fails EPERM|\n", 3, 22, "unknown errno ''" },
	{ "process a\nkill a 9 fails EPERM|ESRCH|EINTR|EIO|ECHILD\n", 2, 38,
	  "too many errnos after 'fails' (max 4)" },
	{ "process a\nkill a 9 fails EPERM|EPERM\n", 2, 22, "duplicate errno 'EPERM'" },
	{ "process a\nkill a 9 within\n", 2, 16, "too few arguments: 'within' needs a value" },
	{ "process a\nkill a 9 within 0\n", 2, 17, "within 0 out of range (1..86400)" },
)

/*
 * A clause the verb's row does not list.  reap, exit and strace have an
 * optional positional argument where the clause word stands, so today
 * they say "undefined name 'fails'" / "exit code: expected a number, got
 * 'fails'" (at the clause's column) rather than "takes no 'fails' clause".
 */
ERRORS_TEST(clauses_rejected,
	{ "process a\nthread x in a fails EAGAIN\n", 2, 15, "thread takes no 'fails' clause" },
	{ "process a fails EPERM\n", 1, 11, "process takes no 'fails' clause" },
	{ "tree t depth 1 fanout 1 fails EPERM\n", 1, 25, "tree takes no 'fails' clause" },
	{ "tracer t fails EPERM\n", 1, 10, "tracer takes no 'fails' clause" },
	{ "tracer t\ntracer u\nprocess a\nrace-attach t u a fails EPERM\n", 4, 19,
	  "race-attach takes no 'fails' clause" },
	{ "process a\nexec a fails EPERM\n", 2, 8, "exec takes no 'fails' clause" },
	{ "process a\nquit a fails EPERM\n", 2, 8, "quit takes no 'fails' clause" },
	{ "process a\ngdb g a fails EPERM\n", 2, 9, "gdb takes no 'fails' clause" },
	{ "process a\ngdb g a\nstop g fails EPERM\n", 3, 8, "stop takes no 'fails' clause" },
	{ "process a\ngdb g a\nwait g fails EPERM\n", 3, 8, "wait takes no 'fails' clause" },
	{ "process a\nexpect state a zombie fails EPERM\n", 2, 23,
	  "expect takes no 'fails' clause" },
	{ "check fails EPERM\n", 1, 7, "check takes no 'fails' clause" },
	{ "sleep 1 fails EPERM\n", 1, 9, "sleep takes no 'fails' clause" },
	{ "sleep 5 within 3\n", 1, 9, "sleep takes no 'within' clause" },
	{ "check within 3\n", 1, 7, "check takes no 'within' clause" },
	{ "timeout 5 within 3\n", 1, 11, "timeout takes no 'within' clause" },
	{ "step-timeout 5 within 3\n", 1, 16, "step-timeout takes no 'within' clause" },
	{ "repeat 2 within 3\nend\n", 1, 10, "repeat takes no 'within' clause" },
	{ "stress tasks 1 tracers 1 rounds 1 within 4\n", 1, 35,
	  "stress takes no 'within' clause" },
	{ "process a\nreap a fails ECHILD\n", 2, 8, "'fails'" },
	{ "process a\nexit a fails EPERM\n", 2, 8, "'fails'" },
	{ "process a\nstrace s a fails EPERM\n", 2, 12, "'fails'" },
)

/* R is ptstress itself: not where the verb's row has a not_r bit. */
#define NOT_R(verb, nth)	verb ": R (ptstress itself) cannot be its " nth " name"
ERRORS_TEST(r_cannot_be_named,
	{ "process a\nseize R a\n", 2, 7, NOT_R("seize", "first") },
	{ "process a\ntracer t\nseize t R exitkill\n", 3, 9, NOT_R("seize", "second") },
	{ "process a\nattach R a\n", 2, 8, NOT_R("attach", "first") },
	{ "traceme R\n", 1, 9, NOT_R("traceme", "first") },
	{ "tracer t\ninterrupt t R\n", 2, 13, NOT_R("interrupt", "second") },
	{ "process a\nlisten a R\n", 2, 10, NOT_R("listen", "second") },
	{ "process a\ncont a R SIGCONT\n", 2, 8, NOT_R("cont", "second") },
	{ "detach R R\n", 1, 8, NOT_R("detach", "first") },
	{ "process a\ntracer t\nrace-attach t R a\n", 3, 15, NOT_R("race-attach", "second") },
	{ "tracer t\ntracer u\nrace-attach t u R\n", 3, 17, NOT_R("race-attach", "third") },
	{ "process a\nkill R SIGKILL\n", 2, 6, NOT_R("kill", "first") },
	{ "kill R 9 fails EPERM\n", 1, 6, NOT_R("kill", "first") },
	{ "tkill R 9\n", 1, 7, NOT_R("tkill", "first") },
	{ "exit R\n", 1, 6, NOT_R("exit", "first") },
	{ "exec R\n", 1, 6, NOT_R("exec", "first") },
	{ "subreaper R on\n", 1, 11, NOT_R("subreaper", "first") },
	{ "process a\nreap a R\n", 2, 8, NOT_R("reap", "second") },
	{ "quit R\n", 1, 6, NOT_R("quit", "first") },
	{ "thread x in R\n", 1, 13, NOT_R("thread", "second") },
	{ "gdb g R\n", 1, 7, NOT_R("gdb", "second") },
	{ "expect state R running\n", 1, 14, NOT_R("expect", "first") },
	{ "expect tracer R none\n", 1, 15, NOT_R("expect", "first") },
	{ "process a\nstrace s a R\n", 2, 12, "strace: R (ptstress itself) cannot be traced" },
	{ "strace s R\n", 1, 10, "strace: R (ptstress itself) cannot be traced" },
)

ERRORS_TEST(errors_name_kinds,
	{ "kill nobody 9\n", 1, 6, "undefined name 'nobody'" },
	{ "process a threads 1\nsubreaper a.t1 on\n", 2, 11, "a.t1 is a thread, expected a process" },
	{ "process a threads 1\nreap a.t2\n", 2, 6, "undefined name 'a.t2'" },
	{ "process a\nstop a\n", 2, 6, "a is a process, expected a session" },
	{ "process a\ngdb g a\nkill g 9\n", 3, 6, "g is a session, expected a process or thread" },
	{ "process a\nthread t in a\nprocess t\n", 3, 9,
	  "t is a thread, cannot be redefined as a process" },
	{ "process a threads 2\nprocess a.t2\n", 2, 9,
	  "a.t2 is a thread, cannot be redefined as a process" },
	{ "process a.t3\nprocess a threads 4\n", 2, 9,
	  "a.t3 is a process, cannot be redefined as a thread" },
	{ "process a\nstrace s a b\n", 2, 12, "undefined name 'b'" },
	{ "process a\nstrace a a\n", 2, 8, "a is a process, cannot be redefined as a session" },
	{ "expect ppid R none\n", 1, 15, "undefined name 'none'" },
)

ERRORS_TEST(errors_name_syntax,
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
	{ "tree t depth 12 fanout 3\n", 1, 6, "tree t: too many processes (more than 20000)" },
	{ "tree abcdefghijklmnopqrstuvwxyzabcdefghijklmno depth 3 fanout 10\n", 1, 6,
	  "deepest names are too long (50 characters, max 47)" },
)

ERRORS_TEST(errors_options_and_words,
	{ "process a\ntracer t\nseize t a exitkill exitkill\n", 3, 20,
	  "duplicate option 'exitkill'" },
	{ "process a\nprocess b frob\n", 2, 11, "unknown option 'frob' for process" },
	{ "process a\nprocess b parent\n", 2, 17, "too few arguments: 'parent' needs a value" },
	{ "process a\ngdb g a detach\n", 2, 9, "unknown option 'detach' for gdb" },
	{ "expect color R red\n", 1, 8, "expect: unknown check 'color'" },
	{ "expect state R asleep\n", 1, 16, "unknown state 'asleep'" },
	{ "subreaper R maybe\n", 1, 13, "expected on or off, got 'maybe'" },
	{ "thread x of R\n", 1, 10, "expected 'in', got 'of'" },
)

ERRORS_TEST(errors_blocks_and_includes,
	{ "check\nend\n", 2, 1, "end without repeat" },
	{ "check\nrepeat 2\n  check\n", 2, 1, "repeat without end" },
	{ "repeat 2\n\trepeat 3\n\tend\n", 1, 1, "repeat without end" },
	{ "scenario x\ncheck\nscenario y\n", 3, 1, "scenario must be the first statement" },
	{ "include \"x.sc\"\n", 1, 1, "include is not allowed here" },
	{ "include \"x.sc\n", 1, 9, "unterminated string" },
	{ "include \"x\"y\n", 1, 12, "expected a space after the closing quote" },
	{ "process \"a\"\n", 1, 9, "a quoted string is only allowed as an include path" },
)

ERRORS_TEST(errors_binary_bytes,
	{ "process a\0\n", 1, 10, "binary data (byte 0x00)" },
	{ "process \xff\n", 1, 9, "binary data (byte 0xff is not UTF-8)" },
	{ "process a\x1b[0m\n", 1, 10, "binary data (byte 0x1b)" },
	{ "process a\rb\n", 1, 10, "binary data (byte 0x0d)" },
	{ "process \xc3\xa9t\xc3\xa9\n", 1, 9, "bad name" },
)

/* ---- limits ---- */

static char *alloc_text(size_t len)
{
	char *p = malloc(len);

	if (!p)
		TH_BAIL("malloc(%zu) failed", len);
	return p;
}

/* strace: 64 tasks fine, the 65th is one too many. */
TEST(strace_task_limit)
{
	char *big = alloc_text(1024), *p;
	struct scenario sc;
	int n;

	p = big + sprintf(big, "process a\nstrace s");
	for (n = 0; n < 64; n++)
		p += sprintf(p, " a");
	strcpy(p, "\n");
	TH_NOTE("strace with 64 tasks");
	if (parse_ok(_th, big, &sc)) {
		EXPECT_EQ(sc.stmts[1].ntargets, 64);
		scenario_free(&sc);
	}
	strcpy(p, " a\n");
	TH_NOTE("strace with 65 tasks");
	expect_error(_th, big, strlen(big), 2, 10 + 64 * 2, "too many tasks for strace (max 64)");
	free(big);
}

/* 16 nested repeat blocks parse, the 17th is too deep. */
TEST(repeat_nesting_limit)
{
	char *big = alloc_text(4096), *p = big;
	struct scenario sc;
	int n;

	for (n = 0; n < 16; n++)
		p += sprintf(p, "repeat 2\n");
	for (n = 0; n < 16; n++)
		p += sprintf(p, "end\n");
	TH_NOTE("16 nested repeats");
	if (parse_ok(_th, big, &sc))
		scenario_free(&sc);
	p = big;
	for (n = 0; n < 17; n++)
		p += sprintf(p, "%*srepeat 2\n", n, "");
	for (n = 0; n < 17; n++)
		p += sprintf(p, "end\n");
	TH_NOTE("17 nested repeats");
	expect_error(_th, big, strlen(big), 17, 17, "nesting deeper than 16");
	free(big);
}

/* Statements are AST nodes, a repeat body counts once: 100000 fine, 100001 not. */
TEST(statement_limit)
{
	char *big = alloc_text(16 + (SC_MAX_STMTS + 2) * 6), *p;
	struct scenario sc;
	struct sc_error err;
	int n;

	p = big + sprintf(big, "repeat 1000000\n");
	for (n = 0; n < SC_MAX_STMTS - 1; n++)
		p += sprintf(p, "check\n");
	p += sprintf(p, "end\n");
	TH_NOTE("%d statements (a repeat of %d)", SC_MAX_STMTS, SC_MAX_STMTS - 1);
	if (scenario_parse_text("t.sc", big, strlen(big), true, &sc, &err)) {
		TH_FAIL("%s:%d:%d: %s", err.file, err.line, err.col, err.msg);
	} else {
		EXPECT_EQ(sc.nstmts, 1);
		EXPECT_EQ(sc.stmts[0].nbody, SC_MAX_STMTS - 1);
		scenario_free(&sc);
	}
	sprintf(p, "check\n");
	TH_NOTE("%d statements", SC_MAX_STMTS + 1);
	expect_error(_th, big, strlen(big), SC_MAX_STMTS + 2, 1, "more than 100000 statements");
	free(big);
}

/* Lines: SC_MAX_LINE bytes are fine, one more is an error. */
TEST(line_length_limit)
{
	char *big = alloc_text(SC_MAX_LINE + 8);
	struct scenario sc;

	memset(big, ' ', SC_MAX_LINE);
	memcpy(big + SC_MAX_LINE - 5, "check", 5);
	strcpy(big + SC_MAX_LINE, "\r\n");
	TH_NOTE("a line of %d bytes (and CRLF)", SC_MAX_LINE);
	if (parse_ok(_th, big, &sc))
		scenario_free(&sc);
	strcpy(big + SC_MAX_LINE, " \n");
	TH_NOTE("a line of %d bytes", SC_MAX_LINE + 1);
	expect_error(_th, big, strlen(big), 1, 1, "line too long (4097 bytes, max 4096)");
	free(big);
}
