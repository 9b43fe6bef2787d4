// SPDX-License-Identifier: GPL-2.0
/*
 * Pid namespaces in the model: nesting, and a task's pid at each level.
 *
 * A namespace is named by its init's index (M_NONE: R's); ->ns_parent
 * chains an init's namespace to the one it was created in
 * (create_pid_namespace(), kernel/pid_namespace.c: ->parent, ->level).
 * A task has a pid in its own namespace and in every ancestor
 * (alloc_pid(), kernel/pid.c: ->numbers[0..level]); task_pid_nr_ns()
 * gives 0 where it has none, which is what m_pid_in() returns.
 */
#include "model/model.h"

bool m_ns_within(const struct model *m, int ns, int outer)
{
	for (;;) {
		if (ns == outer)
			return true;
		if (ns < 0)
			return false;
		ns = m->t[ns].ns_parent;
	}
}

int m_ns_level(const struct model *m, int ns)
{
	int l = 0;

	for (; ns >= 0; ns = m->t[ns].ns_parent)
		l++;
	return l;
}

static pid_t pid_in(const struct model *m, int task, int ns, pid_t tid, pid_t ns_tid,
		    const pid_t *nspid)
{
	const struct mtask *t = &m->t[task];
	int lv, own;

	if (!m_ns_within(m, t->ns, ns))
		return 0;	/* task_pid_nr_ns(): no pid at that level */
	lv = m_ns_level(m, ns);
	own = m_ns_level(m, t->ns);
	return lv == 0 ? tid : lv == own ? ns_tid : nspid[lv];
}

pid_t m_pid_in(const struct model *m, int task, int ns)
{
	const struct mtask *t = &m->t[task];

	return pid_in(m, task, ns, t->tid, t->ns_tid, t->nspid);
}

pid_t m_old_pid_in(const struct model *m, int task, int ns)
{
	const struct mtask *t = &m->t[task];

	return pid_in(m, task, ns, t->old_tid, t->old_ns_tid, t->old_nspid);
}

int m_set_nspid(struct model *m, int task, const pid_t *nspid, int n)
{
	struct mtask *t = &m->t[task];
	int lv = m_ns_level(m, t->ns), i;

	if (n != lv + 1 || lv > M_NS_DEPTH || nspid[0] != t->tid || nspid[lv] != t->ns_tid)
		return -1;
	for (i = 0; i <= lv; i++)
		t->nspid[i] = nspid[i];
	return 0;
}

void m_fork_into(struct model *m, int i, int ns)
{
	struct mtask *t = &m->t[i];

	if (t->ns == i)
		t->ns_parent = ns;
	else
		t->ns = ns;
}
