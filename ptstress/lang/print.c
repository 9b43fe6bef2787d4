// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files: the verb and option tables, the canonical printer and
 * structural equality.
 *
 * The printer writes what the parser reads back into an equal tree
 * (scenario_equal()); the fuzz harness checks exactly that on every input
 * that parses.  Canonical: one space between words, options in table
 * order, signals by name, defaults left out.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/scenario-int.h"

const struct sc_optdef sc_optdefs[OPT_NR] = {
	[OPT_DEPTH]	= { "depth", OT_NUM, 0, 0, 12 },
	[OPT_FANOUT]	= { "fanout", OT_NUM, 0, 1, 64 },
	[OPT_TASKS]	= { "tasks", OT_NUM, 0, 1, 20000 },
	[OPT_TRACERS]	= { "tracers", OT_NUM, 0, 1, 64 },
	[OPT_ROUNDS]	= { "rounds", OT_NUM, 0, 1, 1000000 },
	[OPT_PARENT]	= { "parent", OT_NAME, 0, 0, 0 },
	[OPT_THREADS]	= { "threads", OT_NUM, 0, 0, 1000 },	/* stress: 0..64 */
	[OPT_SEED]	= { "seed", OT_NUM, 0, 0, 0 },		/* any unsigned long */
	[OPT_SUBREAPER]	= { "subreaper", OT_FLAG, O_SUBREAPER, 0, 0 },
	[OPT_PIDNS]	= { "pidns", OT_FLAG, O_PIDNS, 0, 0 },
	[OPT_SETNS]	= { "setns", OT_NAME, 0, 0, 0 },
	[OPT_EXITSIG]	= { "exit-signal", OT_SIG, 0, 0, 0 },	/* a signal or none */
	[OPT_CLONE_PARENT] = { "clone-parent", OT_FLAG, O_CLONE_PARENT, 0, 0 },
	[OPT_VFORK]	= { "vfork", OT_FLAG, O_VFORK, 0, 0 },
	[OPT_EXITKILL]	= { "exitkill", OT_FLAG, O_EXITKILL, 0, 0 },
	[OPT_SYSGOOD]	= { "sysgood", OT_FLAG, O_SYSGOOD, 0, 0 },
	[OPT_TRACECLONE] = { "traceclone", OT_FLAG, O_TRACECLONE, 0, 0 },
	[OPT_TRACEFORK]	= { "tracefork", OT_FLAG, O_TRACEFORK, 0, 0 },
	[OPT_TRACEVFORK] = { "tracevfork", OT_FLAG, O_TRACEVFORK, 0, 0 },
	[OPT_TRACEEXEC]	= { "traceexec", OT_FLAG, O_TRACEEXEC, 0, 0 },
	[OPT_TRACEEXIT]	= { "traceexit", OT_FLAG, O_TRACEEXIT, 0, 0 },
	[OPT_TRACEVFORKDONE] = { "tracevforkdone", OT_FLAG, O_TRACEVFORKDONE, 0, 0 },
	[OPT_QUIT]	= { "quit", OT_FLAG, O_GDB_QUIT, 0, 0 },
	[OPT_THREADONLY] = { "thread", OT_FLAG, O_THREAD_ONLY, 0, 0 },
	[OPT_IGNORE]	= { "ignore", OT_FLAG, O_IGNORE, 0, 0 },
	[OPT_NOCLDWAIT]	= { "nocldwait", OT_FLAG, O_NOCLDWAIT, 0, 0 },
	[OPT_NOWAIT]	= { "nowait", OT_FLAG, O_NOWAIT, 0, 0 },
	[OPT_NOTHREAD]	= { "nothread", OT_FLAG, O_NOTHREAD, 0, 0 },
	[OPT_WCLONE]	= { "wclone", OT_FLAG, O_WCLONE, 0, 0 },
	[OPT_WALL]	= { "wall", OT_FLAG, O_WALL, 0, 0 },
	[OPT_WSTOPPED]	= { "stopped", OT_FLAG, O_WSTOPPED, 0, 0 },
	[OPT_WCONTINUED] = { "continued", OT_FLAG, O_WCONTINUED, 0, 0 },
	[OPT_PIDFD]	= { "pidfd", OT_FLAG, O_PIDFD, 0, 0 },
	[OPT_DETACH]	= { "detach", OT_FLAG, O_RACE_DETACH, 0, 0 },
	[OPT_FAILS]	= { "fails", OT_ERRS, 0, 0, 0 },
	[OPT_WITHIN]	= { "within", OT_NUM, 0, 1, 86400 },
};

const struct sc_verbdef sc_verbdefs[V_NR_VERBS] = {
#define VERB(id, nm, shape, opts, req, cl, notr, lo, hi, w, handler, gen) \
	[V_##id] = { nm, shape, (opts) | (cl), req, notr, lo, hi, w },
#include "lang/verbs.def"
#undef VERB
};

const char *sc_verb_name(enum sc_verb v)
{
	return (unsigned int)v < V_NR_VERBS ? sc_verbdefs[v].name : "?";
}

int sc_verb_weight(enum sc_verb v)
{
	return (unsigned int)v < V_NR_VERBS ? sc_verbdefs[v].weight & ~W_FUZZ_ONLY : 0;
}

bool sc_verb_fuzz_only(enum sc_verb v)
{
	return (unsigned int)v < V_NR_VERBS && (sc_verbdefs[v].weight & W_FUZZ_ONLY);
}

bool sc_verb_takes_fails(enum sc_verb v)
{
	return (unsigned int)v < V_NR_VERBS && (sc_verbdefs[v].opts & CL_FAILS);
}

bool sc_verb_takes_within(enum sc_verb v)
{
	return (unsigned int)v < V_NR_VERBS && (sc_verbdefs[v].opts & CL_WITHIN);
}

long sc_opt_get(const struct stmt *st, enum sc_optid o)
{
	switch (o) {
	case OPT_DEPTH:
		return st->depth;
	case OPT_FANOUT:
		return st->fanout;
	case OPT_TASKS:
		return st->tasks;
	case OPT_TRACERS:
		return st->tracers;
	case OPT_ROUNDS:
		return st->rounds;
	case OPT_THREADS:
		return st->threads;
	case OPT_SEED:
		return (long)st->seed;
	case OPT_WITHIN:
		return st->within;
	default:
		return 0;
	}
}

void sc_opt_set(struct stmt *st, enum sc_optid o, long v, unsigned long uv)
{
	switch (o) {
	case OPT_DEPTH:
		st->depth = (int)v;
		break;
	case OPT_FANOUT:
		st->fanout = (int)v;
		break;
	case OPT_TASKS:
		st->tasks = (int)v;
		break;
	case OPT_TRACERS:
		st->tracers = (int)v;
		break;
	case OPT_ROUNDS:
		st->rounds = (int)v;
		break;
	case OPT_THREADS:
		st->threads = (int)v;
		break;
	case OPT_SEED:
		st->seed = uv;
		break;
	case OPT_WITHIN:
		st->within = (int)v;
		break;
	default:
		break;
	}
}

/* The name an OT_NAME option holds: "parent PROC", "setns TASK". */
const char *sc_opt_name(const struct stmt *st, enum sc_optid o)
{
	return o == OPT_SETNS ? st->setns : st->parent;
}

/* Required options always; others unless they have their default (0, empty). */
bool sc_opt_present(const struct stmt *st, enum sc_optid o)
{
	const struct sc_optdef *od = &sc_optdefs[o];

	if (!(sc_verbdefs[st->verb].opts & OPTB(o)))
		return false;
	if (sc_verbdefs[st->verb].required & OPTB(o))
		return true;
	switch (od->type) {
	case OT_FLAG:
		return st->opts & od->bit;
	case OT_NAME:
		return sc_opt_name(st, o)[0];
	case OT_ERRS:
		return st->nfails;
	case OT_SIG:
		return st->exitsig;
	default:
		return sc_opt_get(st, o);
	}
}

static void print_sig(FILE *f, int sig)
{
	const char *n = sc_sig_name(sig);

	if (n)
		fprintf(f, " %s", n);
	else
		fprintf(f, " %d", sig);
}

static void print_stmt(FILE *f, const struct stmt *st, int indent)
{
	static const char *const what[] = { "ppid", "tracer", "state" };
	static const char *const states[] = { "running", "stopped", "traced", "zombie", "gone" };
	int i, o;

	for (i = 0; i < indent; i++)
		fputc('\t', f);
	fputs(sc_verb_name(st->verb), f);
	switch (sc_verbdefs[st->verb].shape) {
	case SH_THREAD:
		fprintf(f, " %s in %s", st->name[0], st->name[1]);
		break;
	case SH_EXPECT:
		fprintf(f, " %s %s", what[st->what], st->name[0]);
		if (st->what == E_STATE)
			fprintf(f, " %s", states[st->state]);
		else
			fprintf(f, " %s", st->name[1]);
		break;
	case SH_SESSION_TASKS:
		fprintf(f, " %s", st->name[0]);
		for (i = 0; i < st->ntargets; i++)
			fprintf(f, " %s", st->targets[i]);
		break;
	case SH_PROC_ONOFF:
		fprintf(f, " %s %s", st->name[0], st->opts & O_ON ? "on" : "off");
		break;
	case SH_NUM:
		fprintf(f, " %ld", st->num);
		break;
	case SH_KERNEL:
		fprintf(f, " %ld.%ld \"%s\"", st->num / 1000, st->num % 1000, st->text);
		break;
	default:
		for (i = 0; i < st->nnames; i++)
			fprintf(f, " %s", st->name[i]);
		if (st->sig)
			print_sig(f, st->sig);
		if (sc_verbdefs[st->verb].shape == SH_TASK_CODE && st->num)
			fprintf(f, " %ld", st->num);
	}
	for (o = 0; o < OPT_NR; o++) {
		const struct sc_optdef *od = &sc_optdefs[o];

		if (!sc_opt_present(st, (enum sc_optid)o))
			continue;
		fprintf(f, " %s", od->word);
		if (od->type == OT_NAME) {
			fprintf(f, " %s", sc_opt_name(st, (enum sc_optid)o));
		} else if (od->type == OT_ERRS) {
			for (i = 0; i < st->nfails; i++)
				fprintf(f, "%c%s", i ? '|' : ' ', sc_errno_name(st->fails[i]));
		} else if (od->type == OT_SIG) {
			if (st->exitsig < 0)
				fputs(" none", f);
			else
				print_sig(f, st->exitsig);
		} else if (o == OPT_SEED) {
			fprintf(f, " %lu", st->seed);
		} else if (od->type == OT_NUM) {
			fprintf(f, " %ld", sc_opt_get(st, (enum sc_optid)o));
		}
	}
	fputc('\n', f);
	if (st->verb == V_REPEAT) {
		for (i = 0; i < st->nbody; i++)
			print_stmt(f, &st->body[i], indent + 1);
		for (i = 0; i < indent; i++)
			fputc('\t', f);
		fputs("end\n", f);
	}
}

char *scenario_print(const struct scenario *sc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	if (!f)
		return NULL;
	for (i = 0; i < sc->nstmts; i++)
		print_stmt(f, &sc->stmts[i], 0);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool stmts_equal(const struct stmt *a, const struct stmt *b, int n)
{
	int i, j;

	for (i = 0; i < n; i++, a++, b++) {
		if (a->verb != b->verb || a->nnames != b->nnames || a->ntargets != b->ntargets ||
		    a->opts != b->opts || a->sig != b->sig || a->num != b->num ||
		    strcmp(a->parent, b->parent) || strcmp(a->setns, b->setns) ||
		    a->threads != b->threads ||
		    a->exitsig != b->exitsig ||
		    a->depth != b->depth || a->fanout != b->fanout || a->what != b->what ||
		    a->state != b->state || a->tasks != b->tasks || a->tracers != b->tracers ||
		    a->rounds != b->rounds || a->seed != b->seed || a->nfails != b->nfails ||
		    a->within != b->within || a->nbody != b->nbody ||
		    !a->text != !b->text || (a->text && strcmp(a->text, b->text)))
			return false;
		for (j = 0; j < a->nnames; j++)
			if (strcmp(a->name[j], b->name[j]))
				return false;
		for (j = 0; j < a->ntargets; j++)
			if (strcmp(a->targets[j], b->targets[j]))
				return false;
		for (j = 0; j < a->nfails; j++)
			if (a->fails[j] != b->fails[j])
				return false;
		if (!stmts_equal(a->body, b->body, a->nbody))
			return false;
	}
	return true;
}

bool scenario_equal(const struct scenario *a, const struct scenario *b)
{
	return a->nstmts == b->nstmts && stmts_equal(a->stmts, b->stmts, a->nstmts);
}
