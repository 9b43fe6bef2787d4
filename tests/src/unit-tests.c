// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pure parts: the ptrace_links parser, the status parser,
 * the wait-status classifier (lib/links.c, lib/wait.c) and the JSON-lines
 * writer (lib/json.c).  TAP 13 through harness.h; exit 1 if any test fails.
 *
 * Every expectation compares with a concrete expected value, so that a
 * parser that returns zeros, or a classifier that always says "exited",
 * fails here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "lib/ddmin.h"
#include "lib/json.h"
#include "lib/kcheck.h"
#include "lib/links.h"
#include "lib/ptstress.h"

/* ---- ptrace_links ---- */

static const char good_links[] =
	"tid:\t123\n"
	"tgid:\t123\n"
	"leader:\t123\n"
	"parent:\t120\n"
	"real_parent:\t118\n"
	"ptrace:\t0x10001\n"
	"tracer:\t120\n"
	"ptraced:\t0\n"
	"children:\t3\n"
	"sibling_linked:\t1\n"
	"exit_state:\t0\n"
	"exit_signal:\t17\n"
	"exiting:\t0\n";

/* good_links with the line starting with @key replaced by @repl (may be ""). */
static const char *edit_links(const char *key, const char *repl)
{
	static char out[1024];
	const char *p = strstr(good_links, key);
	const char *nl = strchr(p, '\n') + 1;

	snprintf(out, sizeof(out), "%.*s%s%s", (int)(p - good_links), good_links, repl, nl);
	return out;
}

/* ---- ddmin (lib/ddmin.c) ---- */

struct dd_case {
	const int *need;	/* the items the "failure" needs */
	int nneed;
	int fail_at;		/* the test errors out at this call (0: never) */
	int calls;
};

static int dd_needs(const bool *keep, int n, void *arg)
{
	struct dd_case *c = arg;
	int i;

	(void)n;
	if (++c->calls == c->fail_at)
		return -5;
	for (i = 0; i < c->nneed; i++)
		if (!keep[c->need[i]])
			return 0;
	return 1;
}

/* 100 items, the failure needs 3 of them: exactly those stay. */
TEST(ddmin_finds_the_needed_items)
{
	static const int need[] = { 3, 57, 98 };
	struct dd_case c = { need, 3, 0, 0 };
	struct ddmin_stats st;
	bool keep[100];
	int i, kept;

	for (i = 0; i < 100; i++)
		keep[i] = true;
	kept = ddmin(keep, 100, dd_needs, &c, 10000, &st);
	EXPECT_EQ(kept, 3);
	for (i = 0; i < 100; i++)
		EXPECT_EQ(keep[i], i == 3 || i == 57 || i == 98);
	EXPECT_EQ(st.tests, c.calls);
	EXPECT_TRUE(st.tests < 100);	/* fewer replays than one per item */
}

/* Items not kept on entry stay out; nothing needed: everything goes. */
TEST(ddmin_respects_input_and_empty_need)
{
	struct dd_case c = { NULL, 0, 0, 0 };
	struct ddmin_stats st;
	bool keep[8] = { true, false, true, true, false, true, true, true };

	int i;

	EXPECT_EQ(ddmin(keep, 8, dd_needs, &c, 100, &st), 0);
	for (i = 0; i < 8; i++)
		EXPECT_FALSE(keep[i]);
	EXPECT_TRUE(st.hits >= 2 && st.tests <= 6);	/* halves, not one by one */
}

/* ddmin_batched(): each round's candidates told first, then tested in that order. */
struct dd_batch {
	struct dd_case c;	/* the test's case */
	bool cands[64 * 100];	/* the last batch */
	int m, next;		/* its size, and the next test's position in it */
	int batches, told, matched, beyond;
};

static int dd_batch_fn(const bool *cands, int m, int n, void *arg)
{
	struct dd_batch *b = arg;

	if (m > 64 || n != 100)
		return -7;
	memcpy(b->cands, cands, (size_t)m * n * sizeof(*cands));
	b->m = m;
	b->next = 0;
	b->batches++;
	b->told += m;
	return 0;
}

static int dd_batch_test(const bool *keep, int n, void *arg)
{
	struct dd_batch *b = arg;

	if (b->next < b->m && !memcmp(keep, b->cands + (size_t)b->next * n, n * sizeof(*keep)))
		b->matched++;
	else
		b->beyond++;	/* a round of one candidate: not batched */
	b->next++;
	return dd_needs(keep, n, &b->c);
}

TEST(ddmin_batched_same_result_same_order)
{
	static const int need[] = { 3, 57, 58, 98 };
	static struct dd_batch b;
	struct dd_case c = { need, 4, 0, 0 };
	struct ddmin_stats st, st2;
	bool keep[100], keep2[100];
	int i;

	b = (struct dd_batch){ .c = { need, 4, 0, 0 } };
	for (i = 0; i < 100; i++)
		keep[i] = keep2[i] = true;
	EXPECT_EQ(ddmin(keep, 100, dd_needs, &c, 10000, &st), 4);
	EXPECT_EQ(ddmin_batched(keep2, 100, dd_batch_test, dd_batch_fn, &b, 10000, &st2), 4);
	EXPECT_TRUE(!memcmp(keep, keep2, sizeof(keep)));
	EXPECT_EQ(st.tests, st2.tests);
	EXPECT_EQ(st.hits, st2.hits);
	/* every test was of the round's batch, in its order */
	EXPECT_EQ(b.matched, st2.tests);
	EXPECT_EQ(b.beyond, 0);
	EXPECT_TRUE(b.batches > 1 && b.batches < st2.tests && b.told >= st2.tests);
	/* a batch that gives up ends it with its error */
	for (i = 0; i < 100; i++)
		keep2[i] = true;
	b = (struct dd_batch){ .c = { need, 4, 0, 0 } };
	EXPECT_EQ(ddmin_batched(keep2, 50, dd_batch_test, dd_batch_fn, &b, 10000, &st2), -7);
}

/* A test that gives up ends ddmin with its error; a test budget bounds it. */
TEST(ddmin_error_and_budget)
{
	static const int need[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct dd_case c = { need, 1, 2, 0 };
	struct ddmin_stats st;
	bool keep[16];
	int i;

	for (i = 0; i < 16; i++)
		keep[i] = true;
	EXPECT_EQ(ddmin(keep, 16, dd_needs, &c, 100, &st), -5);
	for (i = 0; i < 16; i++)
		keep[i] = true;
	c = (struct dd_case){ need, 8, 0, 0 };
	ddmin(keep, 16, dd_needs, &c, 3, &st);
	EXPECT_EQ(st.tests, 3);
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(keep[need[i]]);	/* never drops a needed item */
}

/*
 * One broken rule after one verb, read through /proc status or through
 * ptrace_links, is one finding (m28's reproducer replayed as links/ while
 * minimized as proc/); other checks, rule "none" or another verb are not.
 */
TEST(ddmin_same_finding_state_reads)
{
	EXPECT_TRUE(ddmin_same_finding("proc/zapper-sleeps-until-drained/exit",
				       "links/zapper-sleeps-until-drained/exit"));
	EXPECT_TRUE(ddmin_same_finding("links/leader-zombie/exit", "proc/leader-zombie/exit"));
	EXPECT_TRUE(ddmin_same_finding("event/group-stop/seize", "event/group-stop/seize"));
	EXPECT_FALSE(ddmin_same_finding("proc/leader-zombie/exit", "proc/leader-zombie/kill"));
	EXPECT_FALSE(ddmin_same_finding("proc/leader-zombie/exit", "report/leader-zombie/exit"));
	EXPECT_FALSE(ddmin_same_finding("links/none/kill", "proc/none/kill"));
	EXPECT_FALSE(ddmin_same_finding("proc/a/exit", "links/b/exit"));
	EXPECT_FALSE(ddmin_same_finding("procs/a/exit", "links/a/exit"));
}

TEST(links_good_sample)
{
	struct ptrace_links l;
	struct parse_error pe;

	ASSERT_EQ(links_parse(good_links, &l, &pe), 0);
	EXPECT_EQ(l.tid, 123);
	EXPECT_EQ(l.tgid, 123);
	EXPECT_EQ(l.leader, 123);
	EXPECT_EQ(l.parent, 120);
	EXPECT_EQ(l.real_parent, 118);
	EXPECT_EQ(l.ptrace, 0x10001);
	EXPECT_EQ(l.tracer, 120);
	EXPECT_EQ(l.ptraced, 0);
	EXPECT_EQ(l.children, 3);
	EXPECT_EQ(l.sibling_linked, 1);
	EXPECT_EQ(l.exit_state, 0);
	EXPECT_EQ(l.exit_signal, 17);
	EXPECT_EQ(l.exiting, 0);
}

TEST(links_missing_key_named)
{
	struct ptrace_links l;
	struct parse_error pe;

	EXPECT_EQ(links_parse(edit_links("tracer:", ""), &l, &pe), -EINVAL);
	EXPECT_EQ(pe.line, 0);
	EXPECT_CONTAINS(pe.msg, "'tracer'");
}

/* Malformed lines: -EINVAL at the line of the bad value. */
TEST(links_malformed_lines)
{
	static const struct {
		const char *key, *repl, *what;
		int line;
	} cases[] = {
		{ "parent:", "parent:\t12x\n", "parent: 12x (not a number)", 4 },
		{ "ptraced:", "ptraced:\t-1\n", "ptraced: -1 (negative count)", 8 },
		{ "tgid:", "tgid 123\n", "tgid 123 (no ':')", 2 },
		{ "tid:", "tid:\t1\ntid:\t2\n", "tid twice (duplicate key)", 2 },
	};
	struct ptrace_links l;
	struct parse_error pe;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TH_NOTE("%s", cases[i].what);
		EXPECT_EQ(links_parse(edit_links(cases[i].key, cases[i].repl), &l, &pe), -EINVAL);
		EXPECT_EQ(pe.line, cases[i].line);
	}
}

TEST(links_unknown_key_ignored)
{
	struct ptrace_links l;
	struct parse_error pe;

	ASSERT_EQ(links_parse(edit_links("exiting:", "exiting:\t0\nfuture_key:\tsomething odd\n"),
			      &l, &pe), 0);
	EXPECT_EQ(l.exiting, 0);
	EXPECT_EQ(l.children, 3);
}

/*
 * The link checker's kernel log records name a rule and a pid
 * (ptrace_check_report(), patch 2): with /dev/kmsg's prefix or without.
 */
TEST(kmsg_checker_records)
{
	static const char *const bad[] = {
		"4,812,3301234,-;WARNING: CPU: 0 PID: 64 at kernel/ptrace.c:120",
		"3,900,1,-;ptrace_links_check: untraced-entry: pid x (sh): y",
		"3,900,1,-;ptrace_links_check: untraced-entry: pid 0 (sh): y",
		"3,900,1,-;ptrace_links_check: untraced-entry: pid 12(sh): y",
		"3,900,1,-;ptrace_links_check: : pid 12 (sh): y",
		"3,900,1,-;ptrace_links_check: two words: pid 12 (sh): y",
		"3,900,1,-;ptrace_links_check: an-overly-long-rule-name-that-does-not-fit-in-48-b: "
		"pid 12 (sh): y",
		"6,1,2,-;random: crng init done",
		/* user space wrote it (facility LOG_USER): not the kernel's */
		"11,900,1,-;ptrace_links_check: untraced-entry: pid 12 (sh): y",
		"",
	};
	char rule[48];
	pid_t pid = 0;
	size_t i;

	ASSERT_TRUE(kmsg_checker_record("3,915,74081234,-;ptrace_links_check: untraced-entry: "
					"pid 64 (ptstress): still on a ptraced list after "
					"__ptrace_unlink()\n SUBSYSTEM=x\n",
					rule, sizeof(rule), &pid));
	EXPECT_STREQ(rule, "untraced-entry");
	EXPECT_EQ(pid, 64);
	ASSERT_TRUE(kmsg_checker_record("ptrace_links_check: reaper: pid 4194303 (a: b; c): d",
					rule, sizeof(rule), &pid));
	EXPECT_STREQ(rule, "reaper");
	EXPECT_EQ(pid, 4194303);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_FALSE(kmsg_checker_record(bad[i], rule, sizeof(rule), &pid));
}

/*
 * The task a kernel report ran in: __warn()'s and dump_stack_print_info()'s
 * "CPU: N PID: P" (6.1), never a record user space wrote.
 */
TEST(kmsg_report_pids)
{
	static const char *const bad[] = {
		"12,5,1,-;WARNING: CPU: 0 PID: 64 at kernel/ptrace.c:120 x+0x1/0x2",
		"4,5,1,-;WARNING: CPU: 0 PID: 0 at kernel/ptrace.c:120",
		"4,5,1,-;WARNING: CPU: 0 PID: x at kernel/ptrace.c:120",
		"4,5,1,-;WARNING: CPU: 0 PID: 64",
		"4,5,1,-;WARNING: CPU: x PID: 64 at y",
		"4,5,1,-;WARNING: at kernel/ptrace.c:120 PID: 64 x",
		"4,5,1,-;ptrace_links_check: reaper: pid 64 (sh): y",
		"4,5,1,-; CPU: 0 PID: 64 Comm: sh",
		"PID: 64 Comm: sh",
		"",
	};
	pid_t pid = 0;
	size_t i;

	ASSERT_TRUE(kmsg_report_pid("4,812,3301234,-;WARNING: CPU: 0 PID: 64 at "
				    "kernel/ptrace.c:120 __ptrace_unlink+0x1/0x2\n", &pid));
	EXPECT_EQ(pid, 64);
	ASSERT_TRUE(kmsg_report_pid("4,813,3301240,c;CPU: 13 PID: 4194303 Comm: strace "
				    "Tainted: G        W 6.1.0 #1", &pid));
	EXPECT_EQ(pid, 4194303);
	ASSERT_TRUE(kmsg_report_pid("CPU: 1 PID: 70 Comm: a", &pid));
	EXPECT_EQ(pid, 70);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT_FALSE(kmsg_report_pid(bad[i], &pid));
}

/* taint_flags[]'s letters, kernel/panic.c of 6.1, in bit order. */
TEST(taint_flag_letters)
{
	char buf[40];

	taint_letters(1UL << 9, buf, sizeof(buf));
	EXPECT_STREQ(buf, "W");
	taint_letters((1UL << 7) | (1UL << 9) | 1UL, buf, sizeof(buf));
	EXPECT_STREQ(buf, "PDW");
	taint_letters((1UL << 18) | (1UL << 19), buf, sizeof(buf));
	EXPECT_STREQ(buf, "N?");
	taint_letters(0, buf, sizeof(buf));
	EXPECT_STREQ(buf, "");
	taint_letters(0x3ff, buf, 4);
	EXPECT_STREQ(buf, "PFS");
}

TEST(links_empty_input)
{
	struct ptrace_links l;
	struct parse_error pe;

	EXPECT_EQ(links_parse("", &l, &pe), -EINVAL);
	EXPECT_EQ(pe.line, 0);
}

/* ptrace is hex as %#x prints it: "0" or "0x...". */
TEST(links_ptrace_hex)
{
	struct ptrace_links l;
	struct parse_error pe;

	EXPECT_EQ(links_parse(edit_links("ptrace:", "ptrace:\t0x7fffffff\n"), &l, &pe), 0);
	EXPECT_EQ(l.ptrace, 0x7fffffffL);
	EXPECT_EQ(links_parse(edit_links("ptrace:", "ptrace:\t0\n"), &l, &pe), 0);
	EXPECT_EQ(l.ptrace, 0);
	TH_NOTE("ptrace '10001' (no 0x)");
	EXPECT_EQ(links_parse(edit_links("ptrace:", "ptrace:\t10001\n"), &l, &pe), -EINVAL);
	EXPECT_EQ(pe.line, 6);
	TH_NOTE("ptrace '0xg'");
	EXPECT_EQ(links_parse(edit_links("ptrace:", "ptrace:\t0xg\n"), &l, &pe), -EINVAL);
}

TEST(links_tracer_minus_one)
{
	struct ptrace_links l;
	struct parse_error pe;

	EXPECT_EQ(links_parse(edit_links("tracer:", "tracer:\t-1\n"), &l, &pe), 0);
	EXPECT_EQ(l.tracer, -1);
}

/* ---- /proc/PID/status ---- */

TEST(status_sample)
{
	static const char sample[] =
		"Name:\tcat\n"
		"Umask:\t0022\n"
		"State:\tt (tracing stop)\n"
		"Tgid:\t4242\n"
		"Ngid:\t0\n"
		"Pid:\t4243\n"
		"PPid:\t4100\n"
		"TracerPid:\t4000\n"
		"Uid:\t0\t0\t0\t0\n"
		"Groups:\t\n"
		"SigQ:\t0/63542\n";
	struct proc_status st;
	struct parse_error pe;

	ASSERT_EQ(status_parse(sample, &st, &pe), 0);
	EXPECT_EQ(st.state, 't');
	EXPECT_EQ(st.tgid, 4242);
	EXPECT_EQ(st.ppid, 4100);
	EXPECT_EQ(st.tracer_pid, 4000);
}

TEST(status_errors)
{
	struct proc_status st;
	struct parse_error pe;

	TH_NOTE("TracerPid missing");
	EXPECT_EQ(status_parse("Name:\tx\nState:\tS (sleeping)\nTgid:\t1\nPPid:\t0\n", &st, &pe),
		  -EINVAL);
	EXPECT_CONTAINS(pe.msg, "TracerPid");
	TH_NOTE("PPid malformed");
	EXPECT_EQ(status_parse("State:\tS (sleeping)\nTgid:\t1\nPPid:\tx\nTracerPid:\t0\n", &st,
			       &pe), -EINVAL);
	EXPECT_EQ(pe.line, 3);
}

/*
 * /proc/<pid>/syscall (proc_pid_syscall(), fs/proc/base.c): how
 * session_collects() tells a debugger that waits from a stuck one.
 */
TEST(syscall_parse)
{
	long nr;

	EXPECT_EQ(syscall_parse("61 0xffffffff 0x7ffd 0x40000000 0x0 0x0 0x0 0x7ffd 0x7f12\n",
				&nr), 0);
	EXPECT_EQ(nr, 61);
	EXPECT_EQ(syscall_parse("running\n", &nr), 0);
	EXPECT_EQ(nr, PS_SYSCALL_RUNNING);
	EXPECT_EQ(syscall_parse("-1 0x7ffd 0x7f12\n", &nr), 0);
	EXPECT_EQ(nr, -1);
	EXPECT_EQ(syscall_parse("", &nr), -EINVAL);
	EXPECT_EQ(syscall_parse("wait4 0x0\n", &nr), -EINVAL);
	EXPECT_EQ(syscall_parse("-5 0x0\n", &nr), -EINVAL);
}

/* A live child blocked in wait4() for its own sleeping child reads as SYS_wait4. */
TEST(syscall_read_wait4)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long nr = PS_SYSCALL_RUNNING;
	pid_t pid;
	int k, st;

	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		pid_t self = getpid(), c = fork();

		if (c == 0) {
			/* gone with its parent: no stray holds the TAP pipe */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != self)
				_exit(0);
			pause();
			_exit(0);
		}
		waitpid(c, NULL, 0);
		_exit(0);
	}
	/* until it blocks (a TCG guest may take a while to get there) */
	for (k = 0; k < 1000 && (syscall_read(pid, &nr) < 0 || nr != SYS_wait4); k++)
		nanosleep(&ts, NULL);
	EXPECT_EQ(nr, SYS_wait4);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	EXPECT_EQ(syscall_read(pid, &nr), -ESRCH);
}

/* ---- wait statuses ---- */

/* W* layout: exited = code << 8, killed = sig, stopped = sig << 8 | 0x7f. */
TEST(classify_wait_statuses)
{
	static const struct {
		int status;
		enum wait_kind kind;
		int code, sig, event;
		const char *name;
	} cases[] = {
		{ 0, WK_EXITED, 0, 0, 0, "exited(0)" },
		{ 42 << 8, WK_EXITED, 42, 0, 0, "exited(42)" },
		{ SIGKILL, WK_KILLED, 0, SIGKILL, 0, "killed(SIGKILL)" },
		{ SIGSTOP << 8 | 0x7f, WK_SIGNAL_STOP, 0, SIGSTOP, 0,
		  "signal-delivery-stop(SIGSTOP)" },
		{ (SIGTRAP | PTRACE_EVENT_STOP << 8) << 8 | 0x7f, WK_EVENT_STOP, 0, SIGTRAP,
		  PTRACE_EVENT_STOP, "ptrace-event-stop(PTRACE_EVENT_STOP, SIGTRAP)" },
		{ (SIGSTOP | PTRACE_EVENT_STOP << 8) << 8 | 0x7f, WK_GROUP_STOP, 0, SIGSTOP,
		  PTRACE_EVENT_STOP, "group-stop(SIGSTOP) of a seized tracee" },
		{ (SIGTRAP | 0x80) << 8 | 0x7f, WK_SYSCALL_STOP, 0, SIGTRAP, 0, "syscall-stop" },
		{ (SIGTRAP | PTRACE_EVENT_EXIT << 8) << 8 | 0x7f, WK_EVENT_STOP, 0, SIGTRAP,
		  PTRACE_EVENT_EXIT, "ptrace-event-stop(PTRACE_EVENT_EXIT, SIGTRAP)" },
		{ 0xffff, WK_CONTINUED, 0, SIGCONT, 0, "continued" },
		{ SIGSEGV | 0x80, WK_KILLED, 0, SIGSEGV, 0, "killed(SIGSEGV, core dumped)" },
		{ 1 << 24, WK_INVALID, 0, 0, 0, "bits above 15 without a stop are invalid" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct wait_event ev = classify_wait_status(cases[i].status);

		TH_NOTE("status %#06x: %s", (unsigned int)cases[i].status, cases[i].name);
		EXPECT_EQ(ev.kind, cases[i].kind);
		EXPECT_EQ(ev.code, cases[i].code);
		EXPECT_EQ(ev.sig, cases[i].sig);
		EXPECT_EQ(ev.event, cases[i].event);
	}
}

TEST(classify_core_and_rendering)
{
	struct wait_event ev;
	char buf[96];

	EXPECT_EQ(classify_wait_status(SIGSEGV | 0x80).core, 1);
	EXPECT_EQ(classify_wait_status(SIGKILL).core, 0);
	ev = classify_wait_status((SIGTRAP | PTRACE_EVENT_STOP << 8) << 8 | 0x7f);
	EXPECT_STREQ(wait_event_str(&ev, buf, sizeof(buf)),
		     "ptrace-event-stop(PTRACE_EVENT_STOP, SIGTRAP)");
	ev = classify_wait_status(42 << 8);
	EXPECT_STREQ(wait_event_str(&ev, buf, sizeof(buf)), "exited(42)");
}

/* ---- JSON lines ---- */

/* @s with the bytes outside ' '..'~' as \xNN, for failure messages. */
static const char *visible(const char *s)
{
	static char buf[128];
	size_t j = 0;

	for (; *s && j + 5 < sizeof(buf); s++) {
		if (*s >= ' ' && *s <= '~')
			buf[j++] = *s;
		else
			j += (size_t)sprintf(buf + j, "\\x%02x", (unsigned char)*s);
	}
	buf[j] = '\0';
	return buf;
}

/* json_escape() of each input is exactly the expected text. */
static void expect_escapes(struct th_test *_th, const char *const (*cases)[2], size_t n)
{
	char out[256];
	size_t i;

	for (i = 0; i < n; i++) {
		TH_NOTE("input \"%s\"", visible(cases[i][0]));
		EXPECT_STREQ(json_escape(cases[i][0], out, sizeof(out)), cases[i][1]);
	}
}

TEST(json_escape_quotes_backslashes_newlines)
{
	static const char *const cases[][2] = {
		{ "plain text 123", "plain text 123" },
		{ "", "" },
		{ "say \"hi\"", "say \\\"hi\\\"" },
		{ "C:\\dir\\", "C:\\\\dir\\\\" },
		{ "\\\"", "\\\\\\\"" },
		{ "a\nb", "a\\nb" },
		{ "\t\r\n", "\\t\\r\\n" },
		{ "/", "/" },
	};

	expect_escapes(_th, cases, sizeof(cases) / sizeof(cases[0]));
}

TEST(json_escape_control_bytes)
{
	static const char *const cases[][2] = {
		{ "\x01", "\\u0001" },
		{ "a\x1b[0m", "a\\u001b[0m" },
		{ "\x1f", "\\u001f" },
		{ "\b\f", "\\u0008\\u000c" },
		{ " \x7f~", " \x7f~" },		/* DEL is valid in a JSON string */
	};

	expect_escapes(_th, cases, sizeof(cases) / sizeof(cases[0]));
}

TEST(json_escape_invalid_utf8)
{
	static const char *const cases[][2] = {
		{ "\xff", "\\u00ff" },
		{ "x\x80y", "x\\u0080y" },			/* lone continuation byte */
		{ "\xc3", "\\u00c3" },				/* truncated at the end */
		{ "\xc3(", "\\u00c3(" },			/* bad continuation */
		{ "\xc0\xaf", "\\u00c0\\u00af" },		/* overlong '/' */
		{ "\xe2\x82", "\\u00e2\\u0082" },		/* 3-byte sequence cut short */
		{ "\xf5\x80\x80\x80", "\\u00f5\\u0080\\u0080\\u0080" },	/* above U+10FFFF */
		{ "\xe0\x80\xaf", "\\u00e0\\u0080\\u00af" },	/* overlong 3-byte '/' */
		{ "\xed\xa0\x80", "\\u00ed\\u00a0\\u0080" },	/* surrogate U+D800 */
		{ "\xf0\x80\x80\xaf", "\\u00f0\\u0080\\u0080\\u00af" },	/* overlong 4-byte */
		{ "\xf4\x90\x80\x80", "\\u00f4\\u0090\\u0080\\u0080" },	/* U+110000 */
	};

	expect_escapes(_th, cases, sizeof(cases) / sizeof(cases[0]));
}

TEST(json_escape_valid_utf8_passes)
{
	static const char *const cases[][2] = {
		{ "\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9" },		/* é: 2 bytes */
		{ "\xe2\x82\xac 5", "\xe2\x82\xac 5" },			/* €: 3 bytes */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },		/* U+1F600: 4 bytes */
		{ "\xe0\xa0\x80", "\xe0\xa0\x80" },	/* U+0800, the first 3-byte one */
		{ "\xed\x9f\xbf", "\xed\x9f\xbf" },	/* U+D7FF, below the surrogates */
		{ "\xf0\x90\x80\x80", "\xf0\x90\x80\x80" },	/* U+10000 */
		{ "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf" },	/* U+10FFFF, the last */
		{ "\xc3\xa9\xff\xc3\xa9", "\xc3\xa9\\u00ff\xc3\xa9" },	/* mixed */
	};

	expect_escapes(_th, cases, sizeof(cases) / sizeof(cases[0]));
}

TEST(json_escape_bounded)
{
	char out[8];

	memset(out, 'X', sizeof(out));
	json_escape("\"\"\"\"\"\"\"\"", out, 5);
	EXPECT_LT(strlen(out), 5);
	EXPECT_EQ(out[5], 'X');
	EXPECT_STREQ(json_escape("abc", out, 1), "");
}

TEST(json_nested_line)
{
	struct json j;
	size_t len;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_TRUE(f);
	json_start(&j, f);
	json_str(&j, "scenario", "a \"b\"");
	json_int(&j, "steps", -42);
	json_object(&j, "o");
	json_array(&j, "k");
	json_int(&j, NULL, 1);
	json_str(&j, "ignored in an array", "two");
	json_bool(&j, NULL, true);
	json_null(&j, NULL);
	json_object(&j, NULL);
	json_bool(&j, "z", false);
	json_close(&j);
	json_close(&j);
	json_double(&j, "d", 1.5);
	json_close(&j);
	json_array(&j, "e");
	json_close(&j);
	json_str(&j, "k\n", NULL);
	EXPECT_EQ(json_end(&j), 0);
	fclose(f);
	EXPECT_STREQ(buf, "{\"scenario\":\"a \\\"b\\\"\",\"steps\":-42,"
		     "\"o\":{\"k\":[1,\"two\",true,null,{\"z\":false}],\"d\":1.500},"
		     "\"e\":[],\"k\\n\":\"\"}\n");
	free(buf);
}

/* json_end() closes what is still open; two lines in a row. */
TEST(json_end_closes_open)
{
	struct json j;
	size_t len;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	ASSERT_TRUE(f);
	json_start(&j, f);
	json_array(&j, "a");
	json_object(&j, NULL);
	json_int(&j, "n", 0);
	EXPECT_EQ(json_end(&j), 0);
	json_start(&j, f);
	EXPECT_EQ(json_end(&j), 0);
	fclose(f);
	EXPECT_STREQ(buf, "{\"a\":[{\"n\":0}]}\n{}\n");
	free(buf);
}

TEST(json_errors)
{
	struct json j;
	size_t len;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	int i;

	ASSERT_TRUE(f);
	TH_NOTE("deeper than JSON_DEPTH");
	json_start(&j, f);
	for (i = 1; i <= JSON_DEPTH; i++)
		json_object(&j, "x");
	EXPECT_EQ(json_end(&j), -E2BIG);
	fclose(f);
	free(buf);
	TH_NOTE("no stream");
	json_start(&j, NULL);
	json_int(&j, "n", 1);
	EXPECT_EQ(json_end(&j), -EBADF);
}

/* A full disk: the failure reaches json_end() as a negative errno. */
TEST(json_dev_full)
{
	FILE *f = fopen("/dev/full", "w");
	struct json j;
	int r;

	if (!f)
		SKIP("no /dev/full: %s", strerror(errno));
	json_start(&j, f);
	json_str(&j, "key", "value");
	r = json_end(&j);
	EXPECT_LT(r, 0);
	EXPECT_EQ(r, -ENOSPC);
	fclose(f);
}

TEST_MAIN()
