// SPDX-License-Identifier: GPL-2.0
/*
 * ptstress minimize's passes over tasks and over options (minimize-int.h);
 * the statement pass is lib/ddmin.c's over test_candidate().
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/minimize-int.h"
#include "lang/units.h"
#include "lib/ddmin.h"

/* ddmin's test over units: the statements they keep (sc_units_select()). */
struct utest {
	struct mctx *c;
	const struct sc_units *u;
	const bool *base;		/* the statements kept before the unit pass */
	bool *stmts;			/* scratch: the candidate's statements */
};

static int test_units(const bool *ukeep, int nu, void *arg)
{
	struct utest *x = arg;

	(void)nu;
	if (sc_units_select(x->u, ukeep, x->base, x->stmts) < 0)
		return -ENOMEM;
	return test_candidate(x->stmts, x->u->nstmts, x->c);
}

/* ddmin's batch over units: each candidate's statements to prefetch_candidates(). */
static int batch_units(const bool *ucands, int m, int nu, void *arg)
{
	struct utest *x = arg;
	int n = x->u->nstmts, j, r;
	bool *all;

	if (!batching(x->c))
		return 0;
	all = malloc((size_t)m * (n ? n : 1) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (j = 0; j < m; j++) {
		r = sc_units_select(x->u, ucands + (size_t)j * nu, x->base, all + (size_t)j * n);
		if (r < 0) {
			free(all);
			return -ENOMEM;
		}
	}
	r = prefetch_candidates(all, m, n, x->c);
	free(all);
	return r;
}

int record_line(const char *path, const char *kind, const char *file)
{
	char line[8192], type[64], want[PATH_MAX + 16];
	FILE *f = fopen(path, "re");
	const char *p;
	int at = 0;

	snprintf(type, sizeof(type), "\"type\":\"finding\",\"kind\":\"%s\"", kind);
	snprintf(want, sizeof(want), "\"file\":\"%s\",", file ? file : "");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, type) || !(p = strstr(line, "\"line\":")))
			continue;
		if (!file || strstr(line, want))
			at = atoi(p + strlen("\"line\":"));
		break;
	}
	if (f)
		fclose(f);
	return at > 0 ? at : 0;
}

/*
 * The prefix pass (syzkaller's minimizer cuts a program after its
 * crashing call first): a replay stops at its first finding, so the
 * input's statements after the one its finding came in never ran, and
 * every candidate leaves them out from the start.  The statement is the
 * last top-level one at or before the finding's line (a repeat body's
 * lines follow its own); nothing is cut if some statement comes from
 * another file (an include) or the line is unknown.
 */
int prefix_cut(const struct mctx *c, bool *keep)
{
	const struct scenario *sc = c->sc;
	int i, at = -1, n = 0;

	if (c->cut_line <= 0)
		return 0;
	for (i = 0; i < sc->nstmts; i++) {
		if (strcmp(sc->stmts[i].loc.file, sc->stmts[0].loc.file))
			return 0;
		if (sc->stmts[i].loc.line <= c->cut_line)
			at = i;
	}
	for (i = at + 1; at >= 0 && i < sc->nstmts; i++)
		if (keep[i]) {
			keep[i] = false;
			n++;
		}
	return n;
}

/*
 * Before delta debugging over statements, the same over tasks (units,
 * lang/units.h): first one candidate of only the tasks related to the
 * finding's own, then ddmin over the units left.  On return @keep is the
 * best candidate so far (c->best).  Returns the replays' tests or the
 * test's negative error.
 */
int unit_pass(struct mctx *c, bool *keep, int max_tests)
{
	struct sc_units u;
	struct ddmin_stats st = { 0, 0 };
	struct utest x = { .c = c, .u = &u, .base = keep };
	bool *ukeep = NULL, *rel = NULL;
	int n = c->sc->nstmts, r, tests = 0, k, i, j;

	if (sc_units_build(c->sc, &u))
		return -ENOMEM;
	x.stmts = malloc((n + 1) * sizeof(*x.stmts));
	ukeep = malloc((u.n + 1) * sizeof(*ukeep));
	rel = malloc((u.n + 1) * sizeof(*rel));
	r = -ENOMEM;
	if (!x.stmts || !ukeep || !rel)
		goto out;
	/*
	 * Only the units with a statement still in @keep are candidates:
	 * the rest (all theirs cut by prefix_cut()) would only make ddmin
	 * test the same statements again.
	 */
	for (k = 0; k < u.n; k++)
		ukeep[k] = false;
	for (i = 0; i < n; i++)
		for (j = u.off[i]; keep[i] && j < u.off[i + 1]; j++)
			ukeep[u.unit[j]] = true;
	r = c->ntasks ? sc_units_related(&u, (const char (*)[SC_NAME_LEN])c->tasks, c->ntasks,
					 rel) : 0;
	if (r < 0)
		goto out;
	c->related = r;
	if (r > 0 && r < u.n) {
		printf("# minimize: %d of %d tasks relate to the finding's (%s...)\n", r, u.n,
		       c->tasks[0]);
		tests++;
		r = test_units(rel, u.n, &x);
		if (r < 0)
			goto out;
		c->related_hit = r == 1;
		if (r == 1)
			memcpy(ukeep, rel, u.n * sizeof(*ukeep));
	}
	r = ddmin_batched(ukeep, u.n, test_units, batch_units, &x, max_tests - tests, &st);
	if (r < 0)
		goto out;
	for (r = 0, k = 0; k < u.n; k++)
		r += ukeep[k];
	printf("# minimize: tasks: %d of %d kept in %d tests\n", r, u.n, tests + st.tests);
	c->units = u.n;
	c->units_kept = r;
	r = tests + st.tests;
out:
	memcpy(keep, c->best, n * sizeof(*keep));
	sc_units_free(&u);
	free(x.stmts);
	free(ukeep);
	free(rel);
	return r;
}

/* The variant hash after one more change: option @k of statement @i. */
static unsigned long long variant_mix(unsigned long long h, int i, int k)
{
	h ^= ((unsigned long long)i << 24 | (unsigned long long)k) + 0x9e3779b97f4a7c15ULL;
	h *= 1099511628211ULL;
	return h ? h : 1;
}

#define OPTION_BATCH	16	/* variants simulated for one batch, at most */

/*
 * --batch: the option pass's next tests from statement @i's variant @k
 * on, as they come if every variant reproduces (a simpler option rarely
 * loses a difference: all 6 of session 26's guest run did not), in one
 * oracle call.  A variant that does not reproduce makes the tests after
 * it other candidates, which the next call sends.  c->work and
 * c->variant come back as they were.  0, or negative: stop.
 */
static int option_batch(struct mctx *c, const bool *keep, int i, int k, unsigned long long h)
{
	int n = c->sc->nstmts, steps = 0, r;
	unsigned long long variant = c->variant;
	struct stmt *saved, v;
	struct batch b;

	if (!batching(c))
		return 0;
	saved = malloc((n ? n : 1) * sizeof(*saved));
	if (!saved)
		return -ENOMEM;
	memcpy(saved, c->work, n * sizeof(*saved));
	r = batch_begin(c, &b, OPTION_BATCH);
	for (; r >= 0 && i < n && steps < OPTION_BATCH; i++, k = 0) {
		/* a kept variant: the statement's later ones move up (option_pass()) */
		while (r >= 0 && keep[i] && steps < OPTION_BATCH &&
		       sc_stmt_simplify(&c->work[i], k, &v)) {
			c->work[i] = v;
			h = variant_mix(h, i, k);
			c->variant = h;
			r = batch_add(c, &b, keep);
			/*
			 * The test about to run is known (an earlier batch
			 * had it, as it had the ones after it): no batch.
			 */
			if (r == 0 && !steps)
				r = -ENOENT;
			steps++;
		}
	}
	memcpy(c->work, saved, n * sizeof(*saved));
	c->variant = variant;
	free(saved);
	if (r < 0) {
		batch_end(&b);
		return r == -ENOENT ? 0 : r;
	}
	return batch_run(c, &b);
}

/*
 * The last pass: each kept statement's simpler variants (sc_stmt_simplify():
 * an option, a flag, a size less), one at a time; a variant that still
 * reproduces stays.  The memo tells variants apart by c->variant, a hash
 * of the changes kept so far and the one on trial, so a later boot goes
 * through the same sequence.  Returns the tests made or the test's error.
 */
int option_pass(struct mctx *c, bool *keep, int max_tests)
{
	int n = c->sc->nstmts, i, k, r, tests = 0;
	unsigned long long base = c->variant;
	struct stmt v, saved;

	for (i = 0; i < n; i++) {
		for (k = 0; keep[i] && tests < max_tests && sc_stmt_simplify(&c->work[i], k, &v);
		     k++) {
			r = option_batch(c, keep, i, k, base);
			if (r < 0)
				return r;
			saved = c->work[i];
			c->work[i] = v;
			c->variant = variant_mix(base, i, k);
			tests++;
			r = test_candidate(keep, n, c);
			if (r == 1) {
				/* kept: the statement's later variants move up one */
				base = c->variant;
				memcpy(keep, c->best, n * sizeof(*keep));
				c->simplified++;
				k--;
				continue;
			}
			c->work[i] = saved;
			c->variant = base;
			if (r < 0)
				return r;
		}
	}
	return tests;
}

