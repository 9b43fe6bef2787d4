// SPDX-License-Identifier: GPL-2.0
/*
 * ptstress minimize --batch: ddmin's round of candidates goes to the
 * oracle in one call, `CMD --timeout SEC --batch LIST VERDICTS`.  LIST has
 * one line per candidate, "FILE JSON"; the oracle writes each decided
 * candidate's JSON (as for one candidate) and a line "J V" to VERDICTS (J
 * the candidate's line in LIST from 0, V 1 reproduced or 0 not), and
 * exits 0; 3 when it could not run them (the minimization stops).  A
 * candidate it leaves out is undecided and replays alone when ddmin gets
 * to it.
 *
 * Why: differential mode's oracle (guest/diff-oracle) boots the reference
 * and the kernel under test for each call, two boots a candidate; a
 * round of N candidates then costs two boots, not 2N.  The verdicts only
 * fill the memo: ddmin still tests one by one in its order and takes the
 * first that reproduces, so the reproducer is the one the single calls
 * give, for fewer boots (tests/host/diff compares the two).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lang/units.h"
#include "lib/ddmin.h"
#include "lib/ptstress.h"

#include "cmd/minimize-int.h"

/* Candidate j's JSON in the batch. */
static void batch_json(const struct mctx *c, int j, char *buf, size_t len)
{
	snprintf(buf, len, "%s/b%d.json", c->dir, j);
}

int batch_begin(struct mctx *c, struct batch *b, int cap)
{
	int n = c->sc->nstmts;

	*b = (struct batch){ .cap = cap };
	snprintf(b->list, sizeof(b->list), "%s/batch.list", c->dir);
	snprintf(b->verdicts, sizeof(b->verdicts), "%s/batch.verdicts", c->dir);
	b->keys = malloc((size_t)(cap ? cap : 1) * sizeof(*b->keys));
	b->cand = malloc((n ? n : 1) * sizeof(*b->cand));
	b->first = malloc((n ? n : 1) * sizeof(*b->first));
	if (!b->keys || !b->cand || !b->first) {
		batch_end(b);
		return -ENOMEM;
	}
	b->f = fopen(b->list, "we");
	if (b->f)
		return 0;
	batch_end(b);
	return -errno;
}

int batch_add(struct mctx *c, struct batch *b, const bool *keep)
{
	int n = c->sc->nstmts, k, line, r;
	char path[PATH_MAX], json[PATH_MAX];
	unsigned long long key;

	if (b->nb >= b->cap)
		return 0;
	memcpy(b->cand, keep, n * sizeof(*b->cand));
	sc_pair_sessions(c->sc, b->cand);
	snprintf(path, sizeof(path), "%s/b%d.sc", c->dir, b->nb);
	r = candidate_prepare(c, b->cand, b->first, path, &key);
	if (r <= 0 || memo_get(c, key, &line) >= 0)
		return r < 0 ? r : 0;
	/* two chunks whose removal leaves the same parsable candidate */
	for (k = 0; k < b->nb && b->keys[k] != key; k++)
		;
	if (k < b->nb)
		return 0;
	b->keys[b->nb] = key;
	batch_json(c, b->nb, json, sizeof(json));
	unlink(json);
	fprintf(b->f, "%s %s\n", path, json);
	b->nb++;
	return 1;
}

void batch_end(struct batch *b)
{
	if (b->f)
		fclose(b->f);
	b->f = NULL;
	free(b->keys);
	free(b->cand);
	free(b->first);
	b->keys = NULL;
	b->cand = NULL;
	b->first = NULL;
}

/* The oracle's verdicts into the memo; -EIO when the file is not the protocol's. */
static int batch_read(struct mctx *c, const struct batch *b)
{
	char line[64], json[PATH_MAX], sig[256];
	FILE *f = fopen(b->verdicts, "re");
	int j, v, r, at;

	if (!f)
		return -EIO;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %d", &j, &v) != 2 || j < 0 || j >= b->nb ||
		    (v != 0 && v != 1)) {
			fprintf(stderr, "ptstress minimize: %s: bad verdict line '%s'\n",
				b->verdicts, line);
			fclose(f);
			return -EIO;
		}
		batch_json(c, j, json, sizeof(json));
		r = v == 1 && read_signature(json, sig, sizeof(sig)) &&
		    ddmin_same_finding(sig, c->target);
		/* a step this candidate cannot run: test_candidate() repairs it */
		at = r ? 0 : record_line(json, "refused", NULL);
		memo_put(c, at ? 'r' : r ? '1' : '0', b->keys[j], at);
		c->replays++;
		c->batched++;
	}
	fclose(f);
	return 0;
}

int batch_run(struct mctx *c, struct batch *b)
{
	char tmo[16], now[96], *argv[8];
	int r, status;

	r = fclose(b->f) ? -errno : 0;
	b->f = NULL;
	/* one candidate left: its own call costs the same */
	if (r < 0 || b->nb < 2)
		goto out;
	unlink(b->verdicts);
	snprintf(tmo, sizeof(tmo), "%d", c->run->timeout_sec);
	argv[0] = (char *)c->oracle;
	argv[1] = "--timeout";
	argv[2] = tmo;
	argv[3] = "--batch";
	argv[4] = b->list;
	argv[5] = b->verdicts;
	argv[6] = NULL;
	c->batches++;
	r = spawn_wait(c->oracle, true, argv, &status);
	if (r < 0)
		goto out;
	/* The oracle could not run them (a guest that did not boot): stop. */
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "ptstress minimize: the oracle's batch of %d candidates "
			"(%s): exit %d\n", b->nb, b->list,
			WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		r = -EIO;
		goto out;
	}
	r = batch_read(c, b);
	if (r < 0)
		goto out;
	/* as after one replay: a kernel that changed proves nothing more */
	kernel_state(now, sizeof(now));
	if (strcmp(now, c->state0)) {
		printf("# minimize: the kernel changed (%s, was %s): go on in a fresh boot\n",
		       now, c->state0);
		c->spoiled = true;
		r = -EAGAIN;
	}
out:
	batch_end(b);
	return r < 0 ? r : 0;
}

int prefetch_candidates(const bool *cands, int m, int n, void *arg)
{
	struct mctx *c = arg;
	struct batch b;
	int j, r;

	if (!batching(c) || m < 2)
		return 0;
	r = batch_begin(c, &b, m);
	for (j = 0; r >= 0 && j < m; j++)
		r = batch_add(c, &b, cands + (size_t)j * n);
	if (r < 0) {
		batch_end(&b);
		return r;
	}
	return batch_run(c, &b);
}
