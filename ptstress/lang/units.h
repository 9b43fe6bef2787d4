/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tasks of a scenario as units, for the minimizer (cmd/minimize.c).
 *
 * A fuzz slice is thousands of statements over a hundred or more tasks, and
 * a finding usually needs a handful of them.  Delta debugging over the
 * statements replays candidates that still hold most of the slice (a replay
 * of 3000 statements takes a minute under TCG); over the tasks, dropping a
 * task drops every statement that names it, so each step of the search
 * halves the work of the next replay.
 *
 * A unit is a base name: the part before the first '.', so a process's
 * threads ("p2.t1") and a tree's nodes ("t.1.2") go with it.  "R" (ptstress
 * itself) is never a unit.  A statement defines the unit of its first name
 * if its verb defines a name (process, tree, thread, tracer, strace, gdb)
 * and uses the units of every other name it has (parent, setns, positional
 * names, strace's targets; a repeat block: those of its body).
 */
#ifndef PTSTRESS_LANG_UNITS_H
#define PTSTRESS_LANG_UNITS_H

#include <stdbool.h>

#include "lang/scenario.h"

struct sc_units {
	int n;				/* units */
	char (*name)[SC_NAME_LEN];	/* unit k's base name */
	int nstmts;			/* statements of the scenario */
	int *off;			/* statement i's units: unit[off[i] .. off[i + 1]) */
	int *unit;			/* ... unit indices */
	bool *def;			/* ... parallel to unit[]: defined (not used) there */
};

/* The units of @sc's top-level statements; 0 or -ENOMEM. */
int sc_units_build(const struct scenario *sc, struct sc_units *u);
void sc_units_free(struct sc_units *u);
/* The unit of @name ("p2.t1", "p2#3": p2); -1 if none. */
int sc_unit_of(const struct sc_units *u, const char *name);
/*
 * The statements a set of units keeps: @keep[i] is @base[i] and every unit
 * of statement i is in @ukeep and, for the units it uses, defined by a kept
 * statement before it.  So a dropped process takes its children's
 * definitions along, and with them every statement on the children.
 * Returns the number of statements kept.
 */
int sc_units_select(const struct sc_units *u, const bool *ukeep, const bool *base, bool *keep);
/*
 * The units a finding about @names (its tasks) most likely needs: theirs,
 * every unit a statement on one of them names too (their tracers, parents,
 * children, waiters), then, to a fixpoint, the units the definitions of
 * those use (parents, namespaces): @ukeep.  Returns how many.
 */
int sc_units_related(const struct sc_units *u, const char (*names)[SC_NAME_LEN], int nnames,
		     bool *ukeep);

/*
 * The minimizer's last pass: simpler variants of one statement, each one
 * option, flag or size less.  Writes the @k-th variant of @st (k = 0, 1,
 * ...) to @out, a copy of @st with one change: a ptrace option or another
 * optional flag dropped (exitkill, tracefork, subreaper, pidns, clone-parent,
 * a wait flag, ...), "threads N" / "exit-signal" / "setns" / a process's
 * "parent" / an exit code gone, a stress statement's tasks, tracers or
 * rounds halved.  Returns 1, or 0 when @st has no @k-th variant.
 */
int sc_stmt_simplify(const struct stmt *st, int k, struct stmt *out);

/*
 * The statement pass's candidates keep a debugger session's statements
 * together: `wait gN` stays exactly when its `gdb gN` does (without the
 * wait, gdb's own timing would decide what the next steps meet; without
 * the gdb the wait is refused), and `stop sN` only with its `strace sN`.
 * The partner is the nearest session start of that name before it.
 * Adjusts @keep (one flag per top-level statement of @sc) in place.
 */
void sc_pair_sessions(const struct scenario *sc, bool *keep);

#endif
