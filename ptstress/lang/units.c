// SPDX-License-Identifier: GPL-2.0
/*
 * The tasks of a scenario as units, for the minimizer (lang/units.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/scenario-int.h"
#include "lang/units.h"

/* Building state: the units so far, a hash of their names, the growing lists. */
struct ub {
	struct sc_units *u;
	int cap;		/* of u->name */
	int *hash;		/* open addressing over unit indices, -1 empty */
	int hcap;		/* a power of two, at least twice u->n */
	int len, lcap;		/* of u->unit and u->def */
};

static unsigned int name_hash(const char *s, size_t len)
{
	unsigned int h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The length of @name's base: up to the first '.' or '#'. */
static size_t base_len(const char *name)
{
	return strcspn(name, ".#");
}

static int lookup(const struct sc_units *u, const int *hash, int hcap, const char *name)
{
	size_t len = base_len(name);
	unsigned int h;

	if (!hcap)
		return -1;
	for (h = name_hash(name, len) & (hcap - 1); hash[h] >= 0; h = (h + 1) & (hcap - 1))
		if (strlen(u->name[hash[h]]) == len && !strncmp(u->name[hash[h]], name, len))
			return hash[h];
	return -1;
}

/* Put unit @k (named @name) in the first free slot of its probe sequence. */
static void place(int *hash, int hcap, const char *name, int k)
{
	unsigned int j;

	for (j = name_hash(name, strlen(name)) & (hcap - 1); hash[j] >= 0; j = (j + 1) & (hcap - 1))
		;
	hash[j] = k;
}

static int rehash(struct ub *b, int hcap)
{
	int *h = malloc(hcap * sizeof(*h)), k;

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, hcap * sizeof(*h));
	for (k = 0; k < b->u->n; k++)
		place(h, hcap, b->u->name[k], k);
	free(b->hash);
	b->hash = h;
	b->hcap = hcap;
	return 0;
}

/* The unit of @name, added if new; -1 for "R" or "", -ENOMEM. */
static int unit_add(struct ub *b, const char *name)
{
	struct sc_units *u = b->u;
	size_t len = base_len(name);
	int k = lookup(u, b->hash, b->hcap, name);

	if (k >= 0 || !len || (len == 1 && name[0] == 'R'))
		return k >= 0 ? k : -1;
	if (u->n == b->cap) {
		void *p = realloc(u->name, (b->cap * 2 + 16) * sizeof(*u->name));

		if (!p)
			return -ENOMEM;
		u->name = p;
		b->cap = b->cap * 2 + 16;
	}
	snprintf(u->name[u->n], SC_NAME_LEN, "%.*s", (int)len, name);
	u->n++;
	if (2 * u->n > b->hcap) {
		/* rehash() places every unit, the new one too */
		if (rehash(b, b->hcap ? 2 * b->hcap : 64))
			return -ENOMEM;
	} else {
		place(b->hash, b->hcap, u->name[u->n - 1], u->n - 1);
	}
	return u->n - 1;
}

/* Add @name's unit to the current statement's list (once); 0 or -ENOMEM. */
static int push(struct ub *b, int from, const char *name, bool def)
{
	struct sc_units *u = b->u;
	int k = unit_add(b, name), i;

	if (k == -ENOMEM)
		return k;
	if (k < 0)
		return 0;
	for (i = from; i < b->len; i++)
		if (u->unit[i] == k) {
			u->def[i] |= def;
			return 0;
		}
	if (b->len == b->lcap) {
		int *pu = realloc(u->unit, (b->lcap * 2 + 64) * sizeof(*pu));
		bool *pd;

		if (!pu)
			return -ENOMEM;
		u->unit = pu;
		pd = realloc(u->def, (b->lcap * 2 + 64) * sizeof(*pd));
		if (!pd)
			return -ENOMEM;
		u->def = pd;
		b->lcap = b->lcap * 2 + 64;
	}
	u->unit[b->len] = k;
	u->def[b->len++] = def;
	return 0;
}

static bool defines(enum sc_verb v)
{
	switch (sc_verbdefs[v].shape) {
	case SH_DEF:
	case SH_TREE:
	case SH_THREAD:
	case SH_SESSION_TASKS:
	case SH_SESSION_PROC:
		return true;
	default:
		return false;
	}
}

/* The units of @st (and of its body), into the list from @from. */
static int stmt_units(struct ub *b, int from, const struct stmt *st)
{
	int i, r = 0;

	/* the definition first: "process a" inside a repeat that uses a later */
	for (i = 0; i < st->nnames && !r; i++)
		r = push(b, from, st->name[i], i == 0 && defines(st->verb));
	for (i = 0; i < st->ntargets && !r; i++)
		r = push(b, from, st->targets[i], false);
	if (!r && st->parent[0])
		r = push(b, from, st->parent, false);
	if (!r && st->setns[0])
		r = push(b, from, st->setns, false);
	for (i = 0; i < st->nbody && !r; i++)
		r = stmt_units(b, from, &st->body[i]);
	return r;
}

int sc_units_build(const struct scenario *sc, struct sc_units *u)
{
	struct ub b = { .u = u };
	int i, r = 0;

	memset(u, 0, sizeof(*u));
	u->nstmts = sc->nstmts;
	u->off = calloc(sc->nstmts + 1, sizeof(*u->off));
	if (!u->off)
		return -ENOMEM;
	for (i = 0; i < sc->nstmts && !r; i++) {
		u->off[i] = b.len;
		r = stmt_units(&b, b.len, &sc->stmts[i]);
	}
	u->off[sc->nstmts] = b.len;
	free(b.hash);
	/* the lookup of sc_unit_of() is linear: it runs once per finding */
	if (r)
		sc_units_free(u);
	return r;
}

void sc_units_free(struct sc_units *u)
{
	free(u->name);
	free(u->off);
	free(u->unit);
	free(u->def);
	memset(u, 0, sizeof(*u));
}

int sc_unit_of(const struct sc_units *u, const char *name)
{
	size_t len = base_len(name);
	int k;

	for (k = 0; k < u->n; k++)
		if (strlen(u->name[k]) == len && !strncmp(u->name[k], name, len))
			return k;
	return -1;
}

int sc_units_select(const struct sc_units *u, const bool *ukeep, const bool *base, bool *keep)
{
	bool *defined = calloc(u->n + 1, sizeof(*defined));
	int i, j, kept = 0;

	if (!defined)
		return -ENOMEM;
	for (i = 0; i < u->nstmts; i++) {
		keep[i] = base[i];
		for (j = u->off[i]; j < u->off[i + 1] && keep[i]; j++)
			keep[i] = ukeep[u->unit[j]] && (u->def[j] || defined[u->unit[j]]);
		if (!keep[i])
			continue;
		kept++;
		for (j = u->off[i]; j < u->off[i + 1]; j++)
			defined[u->unit[j]] |= u->def[j];
	}
	free(defined);
	return kept;
}

int sc_units_related(const struct sc_units *u, const char (*names)[SC_NAME_LEN], int nnames,
		     bool *ukeep)
{
	bool *seed = calloc(u->n + 1, sizeof(*seed));
	bool grew = true;
	int i, j, k, n = 0;

	if (!seed)
		return -ENOMEM;
	memset(ukeep, 0, u->n * sizeof(*ukeep));
	for (i = 0; i < nnames; i++) {
		k = sc_unit_of(u, names[i]);
		if (k >= 0)
			seed[k] = ukeep[k] = true;
	}
	/* every unit a statement on a finding's task names: one level */
	for (i = 0; i < u->nstmts; i++) {
		for (j = u->off[i]; j < u->off[i + 1] && !seed[u->unit[j]]; j++)
			;
		if (j == u->off[i + 1])
			continue;
		for (j = u->off[i]; j < u->off[i + 1]; j++)
			ukeep[u->unit[j]] = true;
	}
	/* what the kept units' definitions use, to a fixpoint */
	while (grew) {
		grew = false;
		for (i = 0; i < u->nstmts; i++) {
			for (j = u->off[i]; j < u->off[i + 1]; j++)
				if (u->def[j] && ukeep[u->unit[j]])
					break;
			if (j == u->off[i + 1])
				continue;
			for (j = u->off[i]; j < u->off[i + 1]; j++)
				if (!ukeep[u->unit[j]])
					grew = ukeep[u->unit[j]] = true;
		}
	}
	for (k = 0; k < u->n; k++)
		n += ukeep[k];
	free(seed);
	return n;
}

/* Flags whose absence is the simpler statement (not on/off, ignore: other meanings). */
#define SIMPLER_WITHOUT	(O_EXITKILL | O_SYSGOOD | O_TRACECLONE | O_TRACEFORK | O_TRACEVFORK | \
			 O_TRACEEXEC | O_TRACEEXIT | O_TRACEVFORKDONE | O_SUBREAPER | O_PIDNS | \
			 O_GDB_QUIT | O_THREAD_ONLY | O_NOCLDWAIT | O_CLONE_PARENT | O_NOWAIT | \
			 O_NOTHREAD | O_WCLONE | O_WALL | O_WSTOPPED | O_WCONTINUED | O_VFORK | \
			 O_PIDFD)

int sc_stmt_simplify(const struct stmt *st, int k, struct stmt *out)
{
	unsigned int bits = st->opts & SIMPLER_WITHOUT, b;

	*out = *st;
	for (b = 1; b; b <<= 1) {
		if (!(bits & b))
			continue;
		if (k-- == 0) {
			out->opts &= ~b;
			return 1;
		}
	}
	if (st->verb == V_STRESS) {
		int *n[] = { &out->tasks, &out->tracers, &out->rounds };
		unsigned int i;

		for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
			if (*n[i] > 1 && k-- == 0) {
				*n[i] /= 2;
				return 1;
			}
	}
	if (st->threads > 0 && k-- == 0) {
		out->threads = 0;
		return 1;
	}
	if (st->exitsig && k-- == 0) {
		out->exitsig = 0;
		return 1;
	}
	if (st->setns[0] && k-- == 0) {
		out->setns[0] = '\0';
		return 1;
	}
	if (st->verb == V_PROCESS && st->parent[0] && k-- == 0) {
		out->parent[0] = '\0';
		return 1;
	}
	if (st->verb == V_EXIT && st->num && k-- == 0) {
		out->num = 0;
		return 1;
	}
	return 0;
}

void sc_pair_sessions(const struct scenario *sc, bool *keep)
{
	int i, j;

	for (i = 0; i < sc->nstmts; i++) {
		enum sc_verb v = sc->stmts[i].verb, start = v == V_WAIT ? V_GDB : V_STRACE;

		if (v != V_WAIT && v != V_STOP)
			continue;
		for (j = i - 1; j >= 0; j--)
			if (sc->stmts[j].verb == start &&
			    !strcmp(sc->stmts[j].name[0], sc->stmts[i].name[0]))
				break;
		if (j < 0)
			continue;
		if (v == V_WAIT)
			keep[i] = keep[j];
		else
			keep[i] = keep[i] && keep[j];
	}
}
