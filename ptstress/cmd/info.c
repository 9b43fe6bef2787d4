// SPDX-License-Identifier: GPL-2.0
/*
 * The small commands: links (one ptrace_links file, parsed and checked for
 * self-consistency), rules (the model's registry) and verbs (the verb
 * table), the last two machine-readable for tests and docs.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "lang/scenario.h"
#include "lib/json.h"
#include "lib/links.h"
#include "lib/ptstress.h"
#include "model/model.h"

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
int cmd_links(int ntids, char **tids)
{
	bool bad_input = false, require = ps_config.kernel == KERNEL_REQUIRE;
	struct ptrace_links l;
	struct parse_error pe;
	struct check c;
	long tid;
	int i, r;
	bool untraced;

	if (!ntids) {
		fprintf(stderr, "ptstress links: needs at least one TID\n");
		return PS_EXIT_USAGE;
	}
	for (i = 0; i < ntids; i++) {
		char *end;

		errno = 0;
		tid = strtol(tids[i], &end, 10);
		if (errno || *end || tid < 1 || tid > INT_MAX || *tids[i] < '0' || *tids[i] > '9') {
			fprintf(stderr, "ptstress links: bad TID '%s'\n", tids[i]);
			return PS_EXIT_USAGE;
		}
	}
	tap_begin();
	for (i = 0; i < ntids; i++) {
		tid = strtol(tids[i], NULL, 10);
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
		fprintf(stderr, "ptstress links: some TID does not exist (see the TAP output)\n");
		return PS_EXIT_USAGE;
	}
	return tap_exit_code(false);
}

int cmd_rules(bool json)
{
	struct json j;
	int r;

	for (r = 0; r < R_NR; r++) {
		if (!json) {
			printf("%s\t%s\t%s\n", m_rule_id(r), m_rule_cite(r), m_rule_text(r));
			continue;
		}
		json_start(&j, stdout);
		json_str(&j, "id", m_rule_id(r));
		json_str(&j, "cites", m_rule_cite(r));
		json_str(&j, "text", m_rule_text(r));
		if (json_end(&j) < 0)
			return PS_EXIT_HARNESS;
	}
	return fflush(stdout) ? PS_EXIT_HARNESS : PS_EXIT_PASS;
}

int cmd_verbs(void)
{
	int v;

	/* name, "fails" honoured, "within" honoured, weight, who draws it */
	for (v = 0; v < V_NR_VERBS; v++)
		printf("%s\t%s\t%s\t%d\t%s\n", sc_verb_name((enum sc_verb)v),
		       sc_verb_takes_fails((enum sc_verb)v) ? "fails" : "-",
		       sc_verb_takes_within((enum sc_verb)v) ? "within" : "-",
		       sc_verb_weight((enum sc_verb)v),
		       !sc_verb_weight((enum sc_verb)v) ? "-" :
		       sc_verb_fuzz_only((enum sc_verb)v) ? "fuzz" : "stress,fuzz");
	return fflush(stdout) ? PS_EXIT_HARNESS : PS_EXIT_PASS;
}
