// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pure parts: the ptrace_links parser, the status parser
 * and the wait-status classifier.  TAP 13; exit 1 if any test fails.
 *
 * Every assertion compares with a concrete expected value, so that a
 * parser that returns zeros, or a classifier that always says "exited",
 * fails here.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>

#include "lib/links.h"
#include "lib/ptstress.h"

struct ps_config ps_config = { .timeout_sec = 30 };

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
static void edit_links(char *out, size_t len, const char *key, const char *repl)
{
	const char *p = strstr(good_links, key);
	const char *nl = strchr(p, '\n') + 1;

	snprintf(out, len, "%.*s%s%s", (int)(p - good_links), good_links, repl, nl);
}

static void test_links(void)
{
	struct ptrace_links l;
	struct parse_error pe;
	struct check c;
	char buf[1024];
	int r;

	check_init(&c);
	r = links_parse(good_links, &l, &pe);
	check_eq(&c, "return", 0, r);
	check_eq(&c, "tid", 123, l.tid);
	check_eq(&c, "tgid", 123, l.tgid);
	check_eq(&c, "leader", 123, l.leader);
	check_eq(&c, "parent", 120, l.parent);
	check_eq(&c, "real_parent", 118, l.real_parent);
	check_eq(&c, "ptrace", 0x10001, (long)l.ptrace);
	check_eq(&c, "tracer", 120, l.tracer);
	check_eq(&c, "ptraced", 0, (long)l.ptraced);
	check_eq(&c, "children", 3, (long)l.children);
	check_eq(&c, "sibling_linked", 1, l.sibling_linked);
	check_eq(&c, "exit_state", 0, l.exit_state);
	check_eq(&c, "exit_signal", 17, l.exit_signal);
	check_eq(&c, "exiting", 0, l.exiting);
	check_done(&c, "links: good sample parses to the expected values");

	check_init(&c);
	edit_links(buf, sizeof(buf), "tracer:", "");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return", -EINVAL, r);
	check_eq(&c, "line", 0, pe.line);
	check_eq(&c, "msg names the key", 1, strstr(pe.msg, "'tracer'") != NULL);
	check_done(&c, "links: missing key 'tracer' is an error naming it");

	check_init(&c);
	edit_links(buf, sizeof(buf), "parent:", "parent:\t12x\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return", -EINVAL, r);
	check_eq(&c, "line", 4, pe.line);
	check_done(&c, "links: malformed number '12x' is an error at line 4");

	check_init(&c);
	edit_links(buf, sizeof(buf), "ptraced:", "ptraced:\t-1\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return", -EINVAL, r);
	check_eq(&c, "line", 8, pe.line);
	check_done(&c, "links: negative count 'ptraced: -1' is an error at line 8");

	check_init(&c);
	edit_links(buf, sizeof(buf), "exiting:", "exiting:\t0\nfuture_key:\tsomething odd\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return", 0, r);
	check_eq(&c, "exiting", 0, l.exiting);
	check_eq(&c, "children", 3, (long)l.children);
	check_done(&c, "links: an unknown key is ignored");

	check_init(&c);
	r = links_parse("", &l, &pe);
	check_eq(&c, "return", -EINVAL, r);
	check_eq(&c, "line", 0, pe.line);
	check_done(&c, "links: empty input is an error");

	check_init(&c);
	edit_links(buf, sizeof(buf), "tgid:", "tgid 123\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return", -EINVAL, r);
	check_eq(&c, "line", 2, pe.line);
	check_done(&c, "links: a line without ':' is an error at line 2");

	check_init(&c);
	edit_links(buf, sizeof(buf), "ptrace:", "ptrace:\t0x7fffffff\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return 0x7fffffff", 0, r);
	check_eq(&c, "ptrace 0x7fffffff", 0x7fffffffL, (long)l.ptrace);
	edit_links(buf, sizeof(buf), "ptrace:", "ptrace:\t0\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return 0", 0, r);
	check_eq(&c, "ptrace 0", 0, (long)l.ptrace);
	edit_links(buf, sizeof(buf), "ptrace:", "ptrace:\t10001\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return for '10001' (no 0x)", -EINVAL, r);
	check_eq(&c, "line for '10001'", 6, pe.line);
	edit_links(buf, sizeof(buf), "ptrace:", "ptrace:\t0xg\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return for '0xg'", -EINVAL, r);
	check_done(&c, "links: ptrace is hex as %%#x prints it ('0' or '0x...')");

	check_init(&c);
	edit_links(buf, sizeof(buf), "tracer:", "tracer:\t-1\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "return", 0, r);
	check_eq(&c, "tracer", -1, l.tracer);
	edit_links(buf, sizeof(buf), "tid:", "tid:\t1\ntid:\t2\n");
	r = links_parse(buf, &l, &pe);
	check_eq(&c, "duplicate tid: return", -EINVAL, r);
	check_eq(&c, "duplicate tid: line", 2, pe.line);
	check_done(&c, "links: tracer -1 parses, a duplicate key is an error");
}

static void test_status(void)
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
	struct check c;
	int r;

	check_init(&c);
	r = status_parse(sample, &st, &pe);
	check_eq(&c, "return", 0, r);
	check_eq(&c, "state", 't', st.state);
	check_eq(&c, "tgid", 4242, st.tgid);
	check_eq(&c, "ppid", 4100, st.ppid);
	check_eq(&c, "tracer_pid", 4000, st.tracer_pid);
	check_done(&c, "status: sample parses to State t, Tgid 4242, PPid 4100, TracerPid 4000");

	check_init(&c);
	r = status_parse("Name:\tx\nState:\tS (sleeping)\nTgid:\t1\nPPid:\t0\n", &st, &pe);
	check_eq(&c, "return", -EINVAL, r);
	check_eq(&c, "msg names TracerPid", 1, strstr(pe.msg, "TracerPid") != NULL);
	r = status_parse("State:\tS (sleeping)\nTgid:\t1\nPPid:\tx\nTracerPid:\t0\n", &st, &pe);
	check_eq(&c, "bad PPid: return", -EINVAL, r);
	check_eq(&c, "bad PPid: line", 3, pe.line);
	check_done(&c, "status: missing TracerPid and malformed PPid are errors");
}

/* W* layout: exited = code << 8, killed = sig, stopped = sig << 8 | 0x7f. */
static void expect_wait(int status, enum wait_kind kind, int code, int sig, int event,
			const char *name)
{
	struct wait_event ev = classify_wait_status(status);
	struct check c;

	check_init(&c);
	check_eq(&c, "kind", kind, ev.kind);
	check_eq(&c, "code", code, ev.code);
	check_eq(&c, "sig", sig, ev.sig);
	check_eq(&c, "event", event, ev.event);
	check_done(&c, "classify 0x%04x: %s", (unsigned int)status, name);
}

static void test_classifier(void)
{
	char buf[96];
	struct wait_event ev;
	struct check c;

	expect_wait(0, WK_EXITED, 0, 0, 0, "exited(0)");
	expect_wait(42 << 8, WK_EXITED, 42, 0, 0, "exited(42)");
	expect_wait(SIGKILL, WK_KILLED, 0, SIGKILL, 0, "killed(SIGKILL)");
	expect_wait(SIGSTOP << 8 | 0x7f, WK_SIGNAL_STOP, 0, SIGSTOP, 0,
		    "signal-delivery-stop(SIGSTOP)");
	expect_wait((SIGTRAP | PTRACE_EVENT_STOP << 8) << 8 | 0x7f, WK_EVENT_STOP, 0, SIGTRAP,
		    PTRACE_EVENT_STOP, "ptrace-event-stop(PTRACE_EVENT_STOP, SIGTRAP)");
	expect_wait((SIGSTOP | PTRACE_EVENT_STOP << 8) << 8 | 0x7f, WK_GROUP_STOP, 0, SIGSTOP,
		    PTRACE_EVENT_STOP, "group-stop(SIGSTOP) of a seized tracee");
	expect_wait((SIGTRAP | 0x80) << 8 | 0x7f, WK_SYSCALL_STOP, 0, SIGTRAP, 0,
		    "syscall-stop");
	expect_wait((SIGTRAP | PTRACE_EVENT_EXIT << 8) << 8 | 0x7f, WK_EVENT_STOP, 0, SIGTRAP,
		    PTRACE_EVENT_EXIT, "ptrace-event-stop(PTRACE_EVENT_EXIT, SIGTRAP)");
	expect_wait(0xffff, WK_CONTINUED, 0, SIGCONT, 0, "continued");
	expect_wait(SIGSEGV | 0x80, WK_KILLED, 0, SIGSEGV, 0, "killed(SIGSEGV, core dumped)");
	expect_wait(1 << 24, WK_INVALID, 0, 0, 0, "bits above 15 without a stop are invalid");

	check_init(&c);
	ev = classify_wait_status(SIGSEGV | 0x80);
	check_eq(&c, "core", 1, ev.core);
	ev = classify_wait_status(SIGKILL);
	check_eq(&c, "core of SIGKILL", 0, ev.core);
	ev = classify_wait_status((SIGTRAP | PTRACE_EVENT_STOP << 8) << 8 | 0x7f);
	wait_event_str(&ev, buf, sizeof(buf));
	check_eq(&c, "str of event stop", 0,
		 strcmp(buf, "ptrace-event-stop(PTRACE_EVENT_STOP, SIGTRAP)"));
	ev = classify_wait_status(42 << 8);
	wait_event_str(&ev, buf, sizeof(buf));
	check_eq(&c, "str of exited(42)", 0, strcmp(buf, "exited(42)"));
	check_done(&c, "classify: core flag and rendering");
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_begin();
	test_links();
	test_status();
	test_classifier();
	tap_end();
	return tap_exit_code(false);
}
