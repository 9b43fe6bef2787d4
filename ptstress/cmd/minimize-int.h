/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptstress minimize's internals, shared by minimize.c (the command, the
 * replays, the memo) and min-passes.c (the passes over tasks and options).
 */
#ifndef PTSTRESS_CMD_MINIMIZE_INT_H
#define PTSTRESS_CMD_MINIMIZE_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine/run.h"
#include "lang/scenario.h"

#define MAX_FINDING_TASKS 8	/* the tasks of a finding the unit pass starts from */
#define MAX_RUN_FIXES	8	/* refused steps dropped from one candidate */

/* One minimization. */
struct mctx {
	const struct scenario *sc;	/* the input (statements: work) */
	const struct run_opts *run;	/* run's options for the replays */
	char dir[256];			/* scratch directory ($TMPDIR/ptstress-min.XXXXXX) */
	char target[256];		/* the signature to keep */
	bool *best;			/* the last candidate that reproduced, repaired */
	int replays;			/* child runs */
	int prior;			/* --memo's replays, by earlier runs (boots) */
	char state0[96];		/* the kernel's state at the start (kernel_state()) */
	bool spoiled;			/* it changed: go on in a fresh boot */
	FILE *memo;			/* --memo: results appended, "? KEY" before each */
	struct memo_ent *known;		/* --memo's results read at the start */
	int nknown;			/* ... how many */
	bool no_memo;			/* the confirmations: replay whatever is known */
	char json_path[PATH_MAX];	/* --memo's directory/replay.json; "" without */
	const char *input;		/* the input file's name, for the header */
	const char *out;		/* --out: rewritten with each better candidate */
	const char *oracle;		/* --oracle CMD: replays it, not `ptstress run` */
	bool batch;			/* --batch: ddmin's rounds go to the oracle whole */
	int batches;			/* ... oracle calls with a batch (a ddmin
					 * round, the option pass's variants) */
	int batched;			/* ... candidates they decided */
	const char *kernel;		/* the kernel's image key, or its release */
	char tasks[MAX_FINDING_TASKS][SC_NAME_LEN]; /* the input's finding's tasks */
	int ntasks;			/* ... how many (0: not known) */
	int units, related, units_kept;	/* the unit pass: tasks, related, kept */
	bool related_hit;		/* ... the related tasks' candidate reproduced */
	struct stmt *work;		/* sc's statements, simplified by the option pass */
	unsigned long long variant;	/* the option pass's changes, hashed (0: none) */
	int simplified;			/* ... how many it kept */
	int refused;			/* statements dropped after the engine refused them */
	unsigned long long input_key;	/* memo_key() of the whole input */
	int input_tries;		/* --memo: its replays without the finding, so far */
	int cut_line;			/* the input's finding came in its statement at this
					 * line: none after it ran (prefix_cut()); 0 unknown */
};

/* One remembered replay: the candidate's key and whether it reproduced. */
struct memo_ent {
	unsigned long long key;		/* memo_key() of the replayed statements */
	int r;				/* 1 reproduced, 0 not (or never resolved) */
	int line;			/* 0, or the line the engine refused to run ("r KEY LINE") */
};

/*
 * Make @cand (a copy of a candidate) one that parses, written to @path:
 * statements naming undefined tasks dropped (first[i]: the line statement
 * i starts at).  1 and its memo *@key, 0 if nothing of it parses, -errno.
 */
int candidate_prepare(struct mctx *c, bool *cand, int *first, const char *path,
		      unsigned long long *key);
/* The remembered result of @key: 1, 0 (refused at *@line, or 0), or -1 (not known). */
int memo_get(const struct mctx *c, unsigned long long key, int *line);
/* Remember @key's result @r ('1', '0', 'r' refused at @line, '?' unresolved). */
void memo_put(struct mctx *c, char r, unsigned long long key, int line);
/* The kernel's taint and the link checker's violations, as text. */
void kernel_state(char *buf, size_t len);
/* From the first "finding" record of a --json file: check/rule/verb; false if none. */
bool read_signature(const char *path, char *sig, size_t len);
/*
 * Run @prog (found in $PATH if @search) with @argv, its output to
 * /dev/null, and wait for it; a signal to us is passed on once.  0 and
 * *@status, -EINTR when we were told to stop, -errno.
 */
int spawn_wait(const char *prog, bool search, char **argv, int *status);
/* A batch of candidates for the oracle (--batch, cmd/min-batch.c). */
struct batch {
	unsigned long long *keys;	/* the memo key of LIST's line j */
	int nb;				/* LIST's lines */
	int cap;			/* ... at most */
	FILE *f;			/* LIST, open for batch_add() */
	bool *cand;			/* scratch: a candidate being prepared */
	int *first;			/* ... its statements' first lines */
	char list[PATH_MAX];		/* c->dir/batch.list */
	char verdicts[PATH_MAX];	/* c->dir/batch.verdicts */
};

/* Whether candidates go to the oracle in batches (not the confirmations). */
static inline bool batching(const struct mctx *c)
{
	return c->oracle && c->batch && !c->no_memo;
}

/* Start a batch of at most @cap candidates (its LIST file open); 0 or -errno. */
int batch_begin(struct mctx *c, struct batch *b, int cap);
/*
 * Add @keep, as c->work and c->variant now make it, unless the memo or
 * the batch knows it already: 1 added, 0 not, -errno.
 */
int batch_add(struct mctx *c, struct batch *b, const bool *keep);
/*
 * Run the batch (two candidates at least: one goes alone) and fill the
 * memo from its verdicts; ends it.  0, or negative: stop (-EAGAIN spoiled).
 */
int batch_run(struct mctx *c, struct batch *b);
/* Free a batch that will not run. */
void batch_end(struct batch *b);
/*
 * ddmin's batch (lib/ddmin.h, --batch): the round's candidates not yet
 * known go to the oracle at once, and their verdicts into the memo, from
 * which test_candidate() then answers.  0, or negative: stop.
 */
int prefetch_candidates(const bool *cands, int m, int n, void *arg);

/*
 * Replay the candidate @keep (with statements naming undefined tasks, or
 * refused by the engine, dropped): 1 if it ends in the target signature
 * (c->best is then that candidate), 0 if not, negative on our error or
 * -EAGAIN when the kernel changed (c->spoiled).  ddmin's test.
 */
int test_candidate(const bool *keep, int n, void *arg);
/* The pass over tasks (lang/units.h); @keep becomes c->best.  Tests or error. */
int unit_pass(struct mctx *c, bool *keep, int max_tests);
/*
 * The line of the first record of kind @kind ("finding", "refused") in the
 * replay JSON @path that has one; 0 if none, or if @file is given and the
 * record is of another file.
 */
int record_line(const char *path, const char *kind, const char *file);
/* Leave out of @keep the statements after c->cut_line's; how many. */
int prefix_cut(const struct mctx *c, bool *keep);
/* The pass over each kept statement's options and sizes.  Tests or error. */
int option_pass(struct mctx *c, bool *keep, int max_tests);

#endif
