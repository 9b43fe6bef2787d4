// SPDX-License-Identifier: GPL-2.0
/*
 * The tree generator (fuzz only): a small tree of processes at once.
 */
#include "engine/gen.h"

/*
 * tree P depth D fanout F [parent Q] [threads N]: the root is forked as
 * gen_process() would fork a plain process (its parent chosen under the
 * same rules: job control, strace's and our tracers' fork following),
 * then each node forks F children down to D levels (1 or 2, F 1 or 2: at
 * most 7 processes).  Plain forks only (SIGCHLD, no namespace, subreaper,
 * CLONE_PARENT or vfork): chains of real parents, which a death in the
 * middle hands to a reaper (forget_original_parent()) generations at a
 * time.
 */
bool g_tree(struct engine *e, struct gen *g, struct stmt *st)
{
	gen_process(e, g, st);
	if (st->exitsig || st->setns[0] ||
	    (st->opts & (O_PIDNS | O_CLONE_PARENT | O_VFORK | O_SUBREAPER)))
		return false;
	st->verb = V_TREE;
	st->depth = 1 + (int)gen_rnd(g, 2);
	st->fanout = 1 + (int)gen_rnd(g, 2);
	return true;
}
