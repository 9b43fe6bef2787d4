// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files, the statements: arguments by the verb table's shapes,
 * options, clauses and name resolution (parse-file.c does blocks, lines and
 * includes; lex.c tokens and the name table).
 *
 * Each statement is checked completely here, so that the engine never
 * meets an undefined name, a name of the wrong kind or a value out of
 * range at run time, minutes into a scenario.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lang/parse-int.h"

/* Masks of name kinds, for the message "x is a thread, expected a process". */
#define KM(k)		(1u << (k))
#define KM_PROC		KM(K_PROC)
#define KM_TASK		(KM(K_PROC) | KM(K_THREAD))
#define KM_SESSION	KM(K_SESSION)

int err_at(struct sp *s, int col, const char *fmt, ...)
{
	struct sc_error *e = s->P->err;
	va_list ap;

	sc_err(e, s->src->name, s->src->line, col, "%s", "");
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static const struct sc_tok *peek(struct sp *s)
{
	return s->i < s->L->ntok ? &s->L->tok[s->i] : NULL;
}

/* The next token, or NULL with "too few arguments" at the end of the line. */
const struct sc_tok *need(struct sp *s, const char *what)
{
	if (s->i < s->L->ntok)
		return &s->L->tok[s->i++];
	err_at(s, s->L->endcol, "too few arguments: %s needs %s", s->verb, what);
	return NULL;
}

/*
 * Is @t one of this verb's option words, or a clause word of any verb (it
 * ends optional positionals, so that a clause the verb does not honour is
 * reported as such)?
 */
static bool is_opt_word(struct sp *s, const struct sc_tok *t)
{
	unsigned long long allowed = sc_verbdefs[s->st->verb].opts | OPTS_CLAUSES;
	int o;

	for (o = 0; o < OPT_NR; o++)
		if ((allowed & OPTB(o)) && sc_tok_is(t, sc_optdefs[o].word))
			return true;
	return false;
}

static bool more_positional(struct sp *s)
{
	const struct sc_tok *t = peek(s);

	return t && !is_opt_word(s, t);
}

static const char *kinds_name(unsigned int mask)
{
	if (mask == KM_PROC)
		return "a process";
	if (mask == KM_SESSION)
		return "a session";
	return "a process or thread";
}

/* A use of a name: it must be defined, with a kind in @mask. */
static int use_name(struct sp *s, const struct sc_tok *t, unsigned int mask, char *out)
{
	enum sc_kind k;
	int j;

	for (j = 0; j < SC_MAX_NAMES; j++)
		if (out == s->st->name[j])
			s->ncol[j] = t->col;
	if (sc_tok_name(s->src, t, out, s->P->err))
		return -1;
	k = sc_names_kind(s->P->names, out);
	if (k == K_NONE)
		return err_at(s, t->col, "undefined name '%s'", out);
	if (!(mask & KM(k)))
		return err_at(s, t->col, "%s is a %s, expected %s", out, sc_kind_name(k),
			      kinds_name(mask));
	return 0;
}

static int need_use(struct sp *s, const char *what, unsigned int mask, char *out)
{
	const struct sc_tok *t = need(s, what);

	return t ? use_name(s, t, mask, out) : -1;
}

static int define(struct sp *s, const struct sc_tok *t, const char *name, enum sc_kind kind,
		  int threads)
{
	char msg[SC_ERRMSG];

	if (sc_names_define(s->P->names, name, kind, threads, msg))
		return err_at(s, t->col, "%s", msg);
	return 0;
}

static int parse_fails(struct sp *s, const struct sc_tok *t)
{
	struct stmt *st = s->st;
	int off = 0;

	for (;;) {
		struct sc_tok part = *t;
		const char *bar = memchr(t->s + off, '|', (size_t)(t->len - off));
		int e, j;

		part.s = t->s + off;
		part.len = (int)((bar ? bar : t->s + t->len) - part.s);
		part.col = t->col + off;
		if (st->nfails == SC_MAX_ERRS)
			return err_at(s, part.col, "too many errnos after 'fails' (max %d)",
				      SC_MAX_ERRS);
		if (sc_tok_errno(s->src, &part, &e, s->P->err))
			return -1;
		for (j = 0; j < st->nfails; j++)
			if (st->fails[j] == e)
				return err_at(s, part.col, "duplicate errno '%.*s'", part.len,
					      part.s);
		st->fails[st->nfails++] = e;
		if (!bar)
			return 0;
		off = (int)(bar - t->s) + 1;
	}
}

/* Keyword options and trailing clauses, in any order, up to the end of the line. */
static int parse_opts(struct sp *s)
{
	const struct sc_verbdef *vd = &sc_verbdefs[s->st->verb];
	unsigned long long seen = 0, missing;
	const struct sc_tok *t;

	while ((t = peek(s))) {
		const struct sc_optdef *od;
		const struct sc_tok *v;
		unsigned long uv = 0;
		long n = 0;
		int o;

		for (o = 0; o < OPT_NR; o++)
			if (sc_tok_is(t, sc_optdefs[o].word))
				break;
		if (o < OPT_NR && !(vd->opts & OPTB(o)) && (OPTS_CLAUSES & OPTB(o)))
			return err_at(s, t->col, "%s takes no '%s' clause", s->verb,
				      sc_optdefs[o].word);
		if (o == OPT_NR || !(vd->opts & OPTB(o))) {
			if (vd->opts & ~OPTS_CLAUSES)
				return err_at(s, t->col, "unknown option '%.*s' for %s",
					      t->len > 40 ? 40 : t->len, t->s, s->verb);
			return err_at(s, t->col, "too many arguments: unexpected '%.*s'",
				      t->len > 40 ? 40 : t->len, t->s);
		}
		if (seen & OPTB(o))
			return err_at(s, t->col, "duplicate option '%s'", sc_optdefs[o].word);
		seen |= OPTB(o);
		s->i++;
		od = &sc_optdefs[o];
		if (od->type == OT_FLAG) {
			s->st->opts |= od->bit;
			continue;
		}
		v = peek(s);
		if (!v)
			return err_at(s, s->L->endcol, "too few arguments: '%s' needs a value",
				      od->word);
		s->i++;
		switch (od->type) {
		case OT_NAME:
			/* A thread may be the parent: its children are its own (->children). */
			if (use_name(s, v, KM_TASK, o == OPT_SETNS ? s->st->setns : s->st->parent))
				return -1;
			break;
		case OT_ERRS:
			if (parse_fails(s, v))
				return -1;
			break;
		case OT_SIG:
			/* "none": exit_signal 0, no notification at all (copy_process()) */
			if (sc_tok_is(v, "none"))
				s->st->exitsig = -1;
			else if (sc_tok_sig(s->src, v, &s->st->exitsig, s->P->err))
				return -1;
			break;
		default:
			if (o == OPT_SEED) {
				if (sc_tok_ulong(s->src, v, od->word, &uv, s->P->err))
					return -1;
			} else if (sc_tok_num(s->src, v, od->word, od->min,
					      o == OPT_THREADS && s->st->verb == V_STRESS ? 64 :
					      od->max, &n, s->P->err)) {
				return -1;
			}
			sc_opt_set(s->st, (enum sc_optid)o, n, uv);
		}
	}
	missing = vd->required & ~seen;
	if (missing) {
		int o = __builtin_ctzll(missing);

		return err_at(s, s->L->endcol, "too few arguments: %s needs '%s N'", s->verb,
			      sc_optdefs[o].word);
	}
	return 0;
}

static int parse_num_arg(struct sp *s, const char *what, long min, long max, long *out)
{
	const struct sc_tok *t = need(s, what);

	return t ? sc_tok_num(s->src, t, what, min, max, out, s->P->err) : -1;
}

/* Define the tree's processes: @buf holds the name of a node of @level. */
static int tree_define(struct sp *s, const struct sc_tok *t, char *buf, int level)
{
	size_t len = strlen(buf);
	int c;

	if (define(s, t, buf, K_PROC, s->st->threads))
		return -1;
	if (level == s->st->depth)
		return 0;
	for (c = 1; c <= s->st->fanout; c++) {
		snprintf(buf + len, SC_NAME_LEN - len, ".%d", c);
		if (tree_define(s, t, buf, level + 1))
			return -1;
	}
	buf[len] = '\0';
	return 0;
}

static int parse_tree(struct sp *s, const struct sc_tok *nt)
{
	struct stmt *st = s->st;
	long total = 0, pow = 1;
	char buf[SC_NAME_LEN];
	int i, width;

	for (i = 0; i <= st->depth && total <= SC_MAX_TREE; i++) {
		total += pow;
		pow *= st->fanout;
	}
	if (total > SC_MAX_TREE)
		return err_at(s, nt->col, "tree %s: too many processes (more than %d)", st->name[0],
			      SC_MAX_TREE);
	width = (int)strlen(st->name[0]) + st->depth * (1 + (st->fanout >= 10 ? 2 : 1));
	if (width >= SC_NAME_LEN)
		return err_at(s, nt->col, "tree %s: its deepest names are too long "
			      "(%d characters, max %d)", st->name[0], width, SC_NAME_LEN - 1);
	snprintf(buf, sizeof(buf), "%s", st->name[0]);
	return tree_define(s, nt, buf, 0);
}

static int parse_expect(struct sp *s)
{
	static const char *const states[] = {
		[ST_RUNNING] = "running", [ST_STOPPED] = "stopped", [ST_TRACED] = "traced",
		[ST_ZOMBIE] = "zombie", [ST_GONE] = "gone",
	};
	struct stmt *st = s->st;
	const struct sc_tok *w = need(s, "ppid, tracer or state"), *v;
	int i;

	if (!w)
		return -1;
	if (sc_tok_is(w, "ppid"))
		st->what = E_PPID;
	else if (sc_tok_is(w, "tracer"))
		st->what = E_TRACER;
	else if (sc_tok_is(w, "state"))
		st->what = E_STATE;
	else
		return err_at(s, w->col, "expect: unknown check '%.*s' (ppid, tracer or state)",
			      w->len > 40 ? 40 : w->len, w->s);
	if (need_use(s, "TASK", KM_TASK, st->name[0]))
		return -1;
	st->nnames = 1;
	v = need(s, st->what == E_PPID ? "PROC or init" :
		 st->what == E_TRACER ? "TRACER or none" : "a state");
	if (!v)
		return -1;
	if (st->what == E_STATE) {
		for (i = 0; i < (int)(sizeof(states) / sizeof(states[0])); i++)
			if (sc_tok_is(v, states[i])) {
				st->state = (enum sc_state)i;
				return 0;
			}
		return err_at(s, v->col, "unknown state '%.*s' "
			      "(running, stopped, traced, zombie or gone)",
			      v->len > 40 ? 40 : v->len, v->s);
	}
	st->nnames = 2;
	if (sc_tok_is(v, st->what == E_PPID ? "init" : "none")) {
		strcpy(st->name[1], st->what == E_PPID ? "init" : "none");
		return 0;
	}
	return use_name(s, v, st->what == E_PPID ? KM_PROC : KM_TASK, st->name[1]);
}

/*
 * kernel MAJOR.MINOR "reason": the scenario pins down behaviour of that
 * kernel version which changed after it; on another one it is skipped,
 * with the reason.
 */
static int parse_kernel(struct sp *s)
{
	const struct sc_tok *v = need(s, "MAJOR.MINOR"), *r;
	unsigned int major, minor;
	char buf[16], tail;

	if (!v)
		return -1;
	if (v->quoted || v->len >= (int)sizeof(buf))
		return err_at(s, v->col, "kernel: expected a version like 6.1");
	memcpy(buf, v->s, (size_t)v->len);
	buf[v->len] = '\0';
	if (sscanf(buf, "%3u.%3u%c", &major, &minor, &tail) != 2 || buf[0] < '0' || buf[0] > '9')
		return err_at(s, v->col, "kernel: expected a version like 6.1, got '%s'", buf);
	s->st->num = (long)major * 1000 + minor;
	r = need(s, "a \"reason\"");
	if (!r)
		return -1;
	if (!r->quoted || !r->len || r->len > 200)
		return err_at(s, r->col, "kernel: the reason is a quoted string of 1 to 200 "
			      "characters");
	s->st->text = sc_arena_strndup(s->P->arena, r->s, (size_t)r->len);
	return s->st->text ? 0 : err_at(s, r->col, "out of memory");
}

/* R is ptstress itself: names that the verb's row (not_r) keeps from it. */
static int check_not_r(struct sp *s)
{
	const struct sc_verbdef *vd = &sc_verbdefs[s->st->verb];
	static const char *const role[] = { "first", "second", "third" };
	int k;

	for (k = 0; k < s->st->nnames && k < 3; k++) {
		if (!(vd->not_r & (1u << k)) || strcmp(s->st->name[k], "R"))
			continue;
		return err_at(s, s->ncol[k], "%s: R (ptstress itself) cannot be its %s name",
			      s->verb, role[k]);
	}
	return 0;
}

/* The positional arguments of @st->verb (its row's shape), its options, then definitions. */
int parse_args(struct sp *s)
{
	const struct sc_verbdef *vd = &sc_verbdefs[s->st->verb];
	struct stmt *st = s->st;
	const struct sc_tok *nt = NULL, *t;
	char targets[SC_MAX_TARGETS][SC_NAME_LEN];

	switch (vd->shape) {
	case SH_DEF:
	case SH_TREE:
	case SH_THREAD:
		nt = need(s, "NAME");
		if (!nt || sc_tok_name(s->src, nt, st->name[0], s->P->err))
			return -1;
		st->nnames = 1;
		if (vd->shape != SH_THREAD)
			break;
		t = need(s, "'in PROC'");
		if (!t)
			return -1;
		if (!sc_tok_is(t, "in"))
			return err_at(s, t->col, "expected 'in', got '%.*s'",
				      t->len > 40 ? 40 : t->len, t->s);
		if (need_use(s, "PROC", KM_PROC, st->name[1]))
			return -1;
		st->nnames = 2;
		break;
	case SH_PROC:
	case SH_PROC_ONOFF:
	case SH_PROC_PROC:
		/* reap T.t1 C: the very thread that waits (any thread of the group may) */
		if (need_use(s, "PROC", vd->shape == SH_PROC_PROC ? KM_TASK : KM_PROC,
			     st->name[0]))
			return -1;
		st->nnames = 1;
		if (vd->shape == SH_PROC_ONOFF) {
			t = need(s, "on or off");
			if (!t)
				return -1;
			if (sc_tok_is(t, "on"))
				st->opts |= O_ON;
			else if (!sc_tok_is(t, "off"))
				return err_at(s, t->col, "expected on or off, got '%.*s'",
					      t->len > 40 ? 40 : t->len, t->s);
		} else if (vd->shape == SH_PROC_PROC && more_positional(s)) {
			/* reap P T: a tracee thread's report goes to its tracer's group. */
			if (use_name(s, &s->L->tok[s->i++], KM_TASK, st->name[1]))
				return -1;
			st->nnames = 2;
		}
		break;
	case SH_TR_TR_TASK:
		if (need_use(s, "TRACER", KM_TASK, st->name[st->nnames++]))
			return -1;
		/* fall through */
	case SH_TR_TASK:
	case SH_TR_TASK_SIG:
		if (need_use(s, "TRACER", KM_TASK, st->name[st->nnames++]) ||
		    need_use(s, "TASK", KM_TASK, st->name[st->nnames++]))
			return -1;
		if (vd->shape == SH_TR_TASK_SIG && more_positional(s) &&
		    sc_tok_sig(s->src, &s->L->tok[s->i++], &st->sig, s->P->err))
			return -1;
		break;
	case SH_TASK:
	case SH_TASK_SIG:
	case SH_TASK_CODE:
	case SH_TRACER:
		if (need_use(s, vd->shape == SH_TRACER ? "TRACER" : "TASK", KM_TASK, st->name[0]))
			return -1;
		st->nnames = 1;
		if (vd->shape == SH_TASK_SIG) {
			t = need(s, "SIG");
			if (!t || sc_tok_sig(s->src, t, &st->sig, s->P->err))
				return -1;
		} else if (vd->shape == SH_TASK_CODE && more_positional(s)) {
			if (sc_tok_num(s->src, &s->L->tok[s->i++], "exit code", vd->nmin, vd->nmax,
				       &st->num, s->P->err))
				return -1;
		}
		break;
	case SH_SESSION_TASKS:
	case SH_SESSION_PROC:
		nt = need(s, "SESSION");
		if (!nt || sc_tok_name(s->src, nt, st->name[0], s->P->err))
			return -1;
		st->nnames = 1;
		if (vd->shape == SH_SESSION_PROC) {
			if (need_use(s, "PROC", KM_PROC, st->name[1]))
				return -1;
			st->nnames = 2;
			break;
		}
		while (st->ntargets == 0 || more_positional(s)) {
			t = st->ntargets ? &s->L->tok[s->i++] : need(s, "TASK");
			if (!t)
				return -1;
			if (st->ntargets == SC_MAX_TARGETS)
				return err_at(s, t->col, "too many tasks for strace (max %d)",
					      SC_MAX_TARGETS);
			if (use_name(s, t, KM_TASK, targets[st->ntargets++]))
				return -1;
			if (!strcmp(targets[st->ntargets - 1], "R"))
				return err_at(s, t->col, "%s: R (ptstress itself) cannot be traced",
					      s->verb);
		}
		/* exactly as many as there are: a file may have 100000 of these */
		st->targets = sc_arena_alloc(s->P->arena, (size_t)st->ntargets * SC_NAME_LEN);
		if (!st->targets)
			return err_at(s, nt->col, "out of memory");
		memcpy(st->targets, targets, (size_t)st->ntargets * SC_NAME_LEN);
		break;
	case SH_SESSION:
		if (need_use(s, "SESSION", KM_SESSION, st->name[0]))
			return -1;
		st->nnames = 1;
		break;
	case SH_EXPECT:
		if (parse_expect(s))
			return -1;
		break;
	case SH_NUM:
		if (parse_num_arg(s, st->verb == V_SLEEP ? "MS" :
				  st->verb == V_REPEAT ? "N" : "SEC", vd->nmin, vd->nmax,
				  &st->num))
			return -1;
		break;
	case SH_KERNEL:
		if (parse_kernel(s))
			return -1;
		break;
	case SH_NONE:
		break;
	}
	if (check_not_r(s) || parse_opts(s))
		return -1;

	/* Definitions last: "process a parent a" must not find this a. */
	switch (vd->shape) {
	case SH_DEF:
		return define(s, nt, st->name[0], K_PROC, st->threads);
	case SH_TREE:
		return parse_tree(s, nt);
	case SH_THREAD:
		return define(s, nt, st->name[0], K_THREAD, 0);
	case SH_SESSION_TASKS:
	case SH_SESSION_PROC:
		return define(s, nt, st->name[0], K_SESSION, 0);
	default:
		return 0;
	}
}
