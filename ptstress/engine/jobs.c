// SPDX-License-Identifier: GPL-2.0
/*
 * setsid PROC, setpgid PROC: a running thread of PROC calls setsid() or
 * setpgid(0, 0); the model (model/pgrp.c) predicts EPERM or success and
 * from then on the orphaned-group SIGHUP of kill_orphaned_pgrp().
 *
 * Refused for a process that has children: that way a process of R's own
 * group never has a parent outside it, so no exit in the run can make the
 * kernel look at R's group -- whose outside connections (R's parent, a
 * CI runner's session) the model cannot know, and whose SIGHUP would hit
 * R and whoever runs it.  Refused in a pid namespace too (the zapper's
 * order of events is not modelled with process groups).  verbs.h.
 */
#include <errno.h>
#include <stdio.h>

#include "engine/verbs.h"

/* The running thread of @x's process that makes the call; -1 (refused). */
static int caller(struct engine *e, const struct stmt *s, int x)
{
	int lead = T(e, x)->leader, i;
	char what[32];

	if (T(e, lead)->ns != M_NONE) {
		refuse(e, "%s of %s: process groups inside a pid namespace are not supported",
		       sc_verb_name(s->verb), tname(e, x));
		return -1;
	}
	for (i = 1; i < e->m.n; i++) {
		if (T(e, i)->leader == i && T(e, i)->life != ML_DEAD &&
		    T(e, i)->real_parent >= 0 && T(e, T(e, i)->real_parent)->leader == lead) {
			refuse(e, "%s of %s, which has a child (%s): a process of R's group must "
			       "never get a parent outside it", sc_verb_name(s->verb),
			       tname(e, x), tname(e, i));
			return -1;
		}
	}
	snprintf(what, sizeof(what), "call %s()", sc_verb_name(s->verb));
	return calling_thread(e, x, what);
}

int v_setsid(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), w;
	struct agent_reply rep;

	if (x < 0 || (w = caller(e, s, x)) < 0)
		return -1;
	if (call(e, w, REQ(OP_SETSID, 0, 0, 0), &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, m_predict_setsid(&e->m, x), &rep, "setsid", x))
		m_setsid(&e->m, x);
	return 0;
}

int v_setpgid(struct engine *e, const struct stmt *s)
{
	int x = task_of(e, s->name[0]), w;
	struct agent_reply rep;

	if (x < 0 || (w = caller(e, s, x)) < 0)
		return -1;
	if (call(e, w, REQ(OP_SETPGID, 0, 0, 0), &rep, NULL) < 0)
		return -1;
	if (outcome(e, s, m_predict_setpgid(&e->m, x), &rep, "setpgid", x))
		m_setpgid(&e->m, x);
	return 0;
}
