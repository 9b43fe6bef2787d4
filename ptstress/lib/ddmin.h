/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating
 * Failure-Inducing Input", 2002): shrink a set of items to a 1-minimal
 * one for which a test still fails.  Pure logic, no I/O: the caller's
 * test replays a candidate (ptstress minimize: a scenario file of the
 * kept statements).
 */
#ifndef PTSTRESS_LIB_DDMIN_H
#define PTSTRESS_LIB_DDMIN_H

#include <stdbool.h>

/*
 * The test: 1 if the candidate (@keep[i] for each of @n items) still
 * reproduces, 0 if not, negative to give up (an error of ours).
 */
typedef int ddmin_test_fn(const bool *keep, int n, void *arg);

struct ddmin_stats {
	int tests;	/* calls of the test */
	int hits;	/* ... that reproduced */
};

/*
 * Shrink @keep (in: the items of a failing input, true; out: a subset for
 * which @test returned 1 last) by removing chunks, halving the chunk size
 * when no chunk can go (ddmin's complement step), then single items, until
 * no single kept item can be removed or @max_tests calls were made.  The
 * full input is not retested.  Returns the number of items kept, or the
 * test's negative value.
 */
int ddmin(bool *keep, int n, ddmin_test_fn *test, void *arg, int max_tests,
	  struct ddmin_stats *st);

/*
 * The candidates of one round, before ddmin tests them one by one in this
 * order: @m of them, candidate j at @cands[j * @n .. (j + 1) * @n).  The
 * caller may run them all at once (differential mode's oracle: one boot
 * of each kernel for the round, not two per candidate) and answer the
 * tests from what it learnt; negative to give up.  It changes nothing
 * ddmin decides: the tests still come one by one, and the first that
 * reproduces is taken.
 */
typedef int ddmin_batch_fn(const bool *cands, int m, int n, void *arg);

/* ddmin() with @batch told each round's candidates first (@batch NULL: ddmin()). */
int ddmin_batched(bool *keep, int n, ddmin_test_fn *test, ddmin_batch_fn *batch, void *arg,
		  int max_tests, struct ddmin_stats *st);

/*
 * Whether finding signatures @a and @b ("check/rule/verb") name the same
 * finding for the minimizer: equal, or a task's state that broke one named
 * rule after one verb, read through /proc status in one replay and
 * through ptrace_links in the other ("proc" and "links": which read sees
 * a transition first is timing, the broken rule is not).
 */
bool ddmin_same_finding(const char *a, const char *b);

#endif
