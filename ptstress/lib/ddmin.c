// SPDX-License-Identifier: GPL-2.0
/*
 * ddmin over a kept-set (lib/ddmin.h).  Only the complement tests of the
 * original algorithm: a scenario's steps depend on the ones before them
 * (a process must exist to be traced), so a chunk on its own rarely
 * reproduces and trying it would only cost replays.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/ddmin.h"

static int count(const bool *keep, int n)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += keep[i];
	return c;
}

/* Round's candidate @k of @parts over the @len kept items idx[] of @keep, into @cand. */
static void complement(const bool *keep, const int *idx, int n, int len, int parts, int k,
		       bool *cand)
{
	int lo = k * len / parts, hi = (k + 1) * len / parts, i;

	memcpy(cand, keep, n * sizeof(*cand));
	for (i = lo; i < hi; i++)
		cand[idx[i]] = false;
}

int ddmin(bool *keep, int n, ddmin_test_fn *test, void *arg, int max_tests,
	  struct ddmin_stats *st)
{
	return ddmin_batched(keep, n, test, NULL, arg, max_tests, st);
}

int ddmin_batched(bool *keep, int n, ddmin_test_fn *test, ddmin_batch_fn *batch, void *arg,
		  int max_tests, struct ddmin_stats *st)
{
	int *idx = malloc((n ? n : 1) * sizeof(*idx));
	bool *cand = malloc((n ? n : 1) * sizeof(*cand)), *all = NULL;
	int parts = 2, len, i, k, m, r = 0;

	st->tests = st->hits = 0;
	if (!idx || !cand) {
		free(idx);
		free(cand);
		return -1;
	}
	while ((len = count(keep, n)) >= 1 && st->tests < max_tests) {
		bool reduced = false;

		/* The kept items, in order: chunk c is idx[c*len/parts .. (c+1)*len/parts). */
		for (i = 0, k = 0; i < n; i++)
			if (keep[i])
				idx[k++] = i;
		if (parts > len)
			parts = len;
		/* the tests this round can still make, told to @batch first */
		m = parts < max_tests - st->tests ? parts : max_tests - st->tests;
		if (batch && m > 1) {
			free(all);
			all = malloc((size_t)m * (n ? n : 1) * sizeof(*all));
			if (!all) {
				r = -1;
				goto out;
			}
			for (k = 0; k < m; k++)
				complement(keep, idx, n, len, parts, k, all + (size_t)k * n);
			r = batch(all, m, n, arg);
			if (r < 0)
				goto out;
		}
		for (k = 0; k < parts && st->tests < max_tests; k++) {
			complement(keep, idx, n, len, parts, k, cand);
			st->tests++;
			r = test(cand, n, arg);
			if (r < 0)
				goto out;
			if (r == 1) {
				st->hits++;
				memcpy(keep, cand, n * sizeof(*keep));
				reduced = true;
				break;
			}
		}
		r = 0;
		if (reduced) {
			/* Keep the granularity, but at least two chunks (ddmin: n - 1). */
			parts = parts > 2 ? parts - 1 : 2;
			continue;
		}
		if (parts >= len)
			break;	/* no single item can go: 1-minimal */
		parts = 2 * parts < len ? 2 * parts : len;
	}
out:
	free(idx);
	free(cand);
	free(all);
	return r < 0 ? r : count(keep, n);
}

/* The check of @sig ("check/rule/verb") if it is proc or links, and its rest. */
static const char *state_check_rest(const char *sig)
{
	if (!strncmp(sig, "proc/", 5))
		return sig + 5;
	if (!strncmp(sig, "links/", 6))
		return sig + 6;
	return NULL;
}

bool ddmin_same_finding(const char *a, const char *b)
{
	const char *ra = state_check_rest(a), *rb = state_check_rest(b);

	if (!strcmp(a, b))
		return true;
	/* a rule of its own: "none" is any disagreement, not one contract */
	return ra && rb && strncmp(ra, "none/", 5) && !strcmp(ra, rb);
}
