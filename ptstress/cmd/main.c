// SPDX-License-Identifier: GPL-2.0
/*
 * ptstress command line: selftest, links, check, --help.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "agent/agent.h"
#include "engine/engine.h"
#include "lib/kcheck.h"
#include "cmd/tput.h"
#include "lib/links.h"
#include "lib/ptstress.h"

#define DEFAULT_TIMEOUT_SEC	30
#define MAX_TIMEOUT_SEC		3600

struct ps_config ps_config = {
	.timeout_sec = DEFAULT_TIMEOUT_SEC,
	.kernel = KERNEL_AUTO,
};

static const char usage_text[] =
	"usage: ptstress selftest [--kernel=auto|require] [--timeout SEC] [--pause SEC]\n"
	"                        [--only NAME] [--wrong-model=ppid|reports]\n"
	"       ptstress links [--kernel=auto|require] TID...\n"
	"       ptstress check [--kernel=auto|require]\n"
	"       ptstress run [--kernel=auto|require] [--timeout SEC] [--report-dir DIR]\n"
	"                    [--json FILE] FILE...\n"
	"       ptstress tput [--tracers N] [--seconds S] [--what attach|kill|both] [--bare]\n"
	"       ptstress --help\n";

static const char help_text[] =
	"\n"
	"  selftest  the reparent/ptrace-exit scenarios, one after the other, checked\n"
	"            via /proc status, ptrace_links and wait reports; TAP 13 on stdout\n"
	"  links     parse /proc/TID/task/TID/ptrace_links of each TID and check it\n"
	"  tput      attach+detach and kill+reap cycles/s of ptstress's tracer through\n"
	"            its command channel (--bare: the same calls without it)\n"
	"  run       run scenario files (docs/scenario-format.md): populations, tracers\n"
	"            and verbs, each step checked against the model of what the kernel\n"
	"            must show; a report directory is kept for failures\n"
	"  check     the kernel link checker: a full walk finds no violation, and\n"
	"            none was counted since boot (<debugfs>/ptrace_links/)\n"
	"\n"
	"  --kernel=auto     no ptrace_links file: SKIP those checks (default)\n"
	"  --kernel=require  no ptrace_links file: exit 3 (wrong kernel booted)\n"
	"  --timeout SEC     deadline of each wait (default 30)\n"
	"  --pause SEC       selftest: sleep SEC seconds after each seize\n"
	"  --wrong-model=ppid|reports  oracle self-test: expect init as reaper, or\n"
	"                    one exit report too many; a correct kernel must fail\n"
	"  --only NAME       selftest: run only scenario NAME (reparent, orphan,\n"
	"                    zombie-orphan, tracer-exit, tracer-exit-stopped,\n"
	"                    tracer-exitkill, thread-reaper)\n"
	"\n"
	"exit: 0 pass, 1 kernel finding, 2 usage/bad input, 3 harness error,\n"
	"      4 everything skipped\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptstress: ");
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

static void print_links(const struct ptrace_links *l)
{
	tap_diag("tid: %d", (int)l->tid);
	tap_diag("tgid: %d", (int)l->tgid);
	tap_diag("leader: %d", (int)l->leader);
	tap_diag("parent: %d", (int)l->parent);
	tap_diag("real_parent: %d", (int)l->real_parent);
	tap_diag("ptrace: %#lx", l->ptrace);
	tap_diag("tracer: %d", (int)l->tracer);
	tap_diag("ptraced: %lu", l->ptraced);
	tap_diag("children: %lu", l->children);
	tap_diag("sibling_linked: %d", l->sibling_linked);
	tap_diag("exit_state: %d", l->exit_state);
	tap_diag("exit_signal: %d", l->exit_signal);
	tap_diag("exiting: %d", l->exiting);
}

/*
 * Self-consistency of one links file.  While traced, __ptrace_link() has
 * set ->parent to the tracer and put the task on its ->ptraced list; once
 * untraced, __ptrace_unlink() has restored ->parent = ->real_parent and
 * taken it off.  So ptrace == 0 exactly when parent == real_parent and no
 * list holds it; tracer == -1 (a list nobody owns) is always wrong.
 */
static int cmd_links(int ntids, char **tids)
{
	bool bad_input = false, require = ps_config.kernel == KERNEL_REQUIRE;
	struct ptrace_links l;
	struct parse_error pe;
	struct check c;
	long tid;
	int i, r;
	bool untraced;

	tap_begin();
	for (i = 0; i < ntids; i++) {
		tid = 0;
		parse_int(tids[i], 1, INT_MAX, &tid);
		r = links_read((pid_t)tid, (pid_t)tid, &l, &pe);
		if (r == -ESRCH) {
			tap_diag("tid %ld: no such thread", tid);
			bad_input = true;
			continue;
		}
		if (r == -ENOENT) {
			if (require) {
				tap_bail("--kernel=require: %s (wrong kernel booted)", pe.msg);
				return PS_EXIT_HARNESS;
			}
			tap_skip("kernel without ptrace_links (unpatched host kernel)",
				 "ptrace_links of tid %ld", tid);
			continue;
		}
		check_init(&c);
		if (r < 0) {
			check_fail(&c, "%s", pe.msg);
		} else {
			print_links(&l);
			check_eq(&c, "tid", tid, l.tid);
			untraced = l.parent == l.real_parent && l.tracer == 0;
			if ((l.ptrace == 0) != untraced)
				check_fail(&c, "ptrace == 0 <=> parent == real_parent && tracer == 0: "
					   "ptrace %#lx, parent %d, real_parent %d, tracer %d",
					   l.ptrace, (int)l.parent, (int)l.real_parent, (int)l.tracer);
			if (l.tracer == -1)
				check_fail(&c, "tracer: expected != -1, observed -1 (on a ->ptraced "
					   "list nobody owns)");
		}
		check_done(&c, "ptrace_links of tid %ld parses and is self-consistent", tid);
	}
	tap_end();
	if (bad_input) {
		fprintf(stderr, "ptstress: links: some TID does not exist (see the TAP output)\n%s",
			usage_text);
		return PS_EXIT_USAGE;
	}
	return tap_exit_code(false);
}

/* Parse the command line and run the command; args has room for argc entries. */
static int dispatch(int argc, char **argv, char **args)
{
	const char *cmd = NULL;
	int nargs = 0, i;
	long v;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			printf("%s%s", usage_text, help_text);
			return PS_EXIT_PASS;
		} else if (!strcmp(a, "--kernel=auto")) {
			ps_config.kernel = KERNEL_AUTO;
		} else if (!strcmp(a, "--kernel=require")) {
			ps_config.kernel = KERNEL_REQUIRE;
		} else if (!strcmp(a, "--timeout") || !strcmp(a, "--pause")) {
			if (i + 1 == argc)
				return usage_error("%s needs a value", a);
			if (!parse_int(argv[++i], a[2] == 't' ? 1 : 0, MAX_TIMEOUT_SEC, &v))
				return usage_error("bad number of seconds '%s'", argv[i]);
			if (a[2] == 't')
				ps_config.timeout_sec = (int)v;
			else
				ps_config.pause_sec = (int)v;
		} else if (!strncmp(a, "--timeout=", 10)) {
			if (!parse_int(a + 10, 1, MAX_TIMEOUT_SEC, &v))
				return usage_error("bad number of seconds '%s'", a + 10);
			ps_config.timeout_sec = (int)v;
		} else if (!strcmp(a, "--only")) {
			if (i + 1 == argc)
				return usage_error("%s needs a value", a);
			ps_config.only = argv[++i];
		} else if (!strncmp(a, "--only=", 7)) {
			ps_config.only = a + 7;
		} else if (!strncmp(a, "--pause=", 8)) {
			if (!parse_int(a + 8, 0, MAX_TIMEOUT_SEC, &v))
				return usage_error("bad number of seconds '%s'", a + 8);
			ps_config.pause_sec = (int)v;
		} else if (!strcmp(a, "--wrong-model=ppid")) {
			ps_config.wrong = WRONG_PPID;
		} else if (!strcmp(a, "--wrong-model=reports")) {
			ps_config.wrong = WRONG_REPORTS;
		} else if ((!strcmp(a, "--report-dir") || !strcmp(a, "--json")) && cmd &&
			   !strcmp(cmd, "run")) {
			if (i + 1 == argc)
				return usage_error("%s needs a value", a);
			args[nargs++] = argv[i];
			args[nargs++] = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (!cmd && !strcmp(a, "tput")) {
			/* tput parses the rest itself: its options are its own. */
			return cmd_tput(argc - i, argv + i);
		} else if (!cmd) {
			cmd = a;
		} else {
			args[nargs++] = argv[i];
		}
	}
	if (!cmd)
		return usage_error("%s", "no command given");

	if (!strcmp(cmd, "links")) {
		if (!nargs)
			return usage_error("%s", "links needs at least one TID");
		for (i = 0; i < nargs; i++) {
			if (!parse_int(args[i], 1, INT_MAX, &v))
				return usage_error("bad TID '%s'", args[i]);
		}
		return cmd_links(nargs, args);
	}
	if (!strcmp(cmd, "check")) {
		if (nargs)
			return usage_error("check takes no argument, got '%s'", args[0]);
		return cmd_check(ps_config.kernel);
	}
	if (!strcmp(cmd, "run")) {
		if (!nargs)
			return usage_error("%s", "run needs at least one scenario FILE");
		ps_install_signal_handlers();
		if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
			fprintf(stderr, "ptstress: PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
			return PS_EXIT_HARNESS;
		}
		return cmd_run(nargs, args);
	}
	if (!strcmp(cmd, "selftest")) {
		if (nargs)
			return usage_error("selftest takes no argument, got '%s'", args[0]);
		if (ps_config.only && !selftest_known(ps_config.only)) {
			fprintf(stderr, "ptstress: scenarios: %s\n", selftest_names());
			return usage_error("unknown scenario '%s'", ps_config.only);
		}
		ps_install_signal_handlers();
		/* Orphans of the run must come back to us, not go to init. */
		if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
			fprintf(stderr, "ptstress: PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
			return PS_EXIT_HARNESS;
		}
		return cmd_selftest();
	}
	return usage_error("unknown command '%s'", cmd);
}

int main(int argc, char **argv)
{
	char **args;
	int rc;

	/* Before any fork: children must not inherit unflushed TAP lines. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* An agent that execve()d comes back here (agent.c). */
	if (argc > 1 && !strcmp(argv[1], "agent"))
		return agent_exec_main(argc, argv);

	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		return PS_EXIT_HARNESS;
	rc = dispatch(argc, argv, args);
	free(args);
	if (ps_stop_signal) {
		/* Everything is reaped: now die of the signal, as the shell expects. */
		signal(ps_stop_signal, SIG_DFL);
		raise(ps_stop_signal);
	}
	return rc;
}
