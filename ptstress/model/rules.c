// SPDX-License-Identifier: GPL-2.0
/*
 * The rule registry (rules.def), the perturbation of one rule
 * (--wrong-model), and the SIGCHLD notices the kernel sends.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

static const struct {
	const char *id;		/* "reaper-subreaper" */
	const char *text;	/* what the kernel must do */
	const char *cite;	/* where 6.1.192 does it */
} rules[R_NR] = {
#define RULE(id_, name, text_, cite_) [R_##id_] = { name, text_, cite_ },
#include "model/rules.def"
#undef RULE
};

const char *m_rule_id(int rule)
{
	return rule >= 0 && rule < R_NR ? rules[rule].id : "none";
}

const char *m_rule_text(int rule)
{
	return rule >= 0 && rule < R_NR ? rules[rule].text : "";
}

const char *m_rule_cite(int rule)
{
	return rule >= 0 && rule < R_NR ? rules[rule].cite : "";
}

int m_rule_find(const char *id)
{
	int r;

	for (r = 0; r < R_NR; r++)
		if (!strcmp(rules[r].id, id))
			return r;
	return R_NONE;
}

bool m_wrong(const struct model *m, int rule)
{
	return m->wrong == rule && rule != R_NONE;
}

/* ---- who may send whom SIGCHLD ---- */

static unsigned long long rel_key(int from, int lead)
{
	return ((unsigned long long)(unsigned int)from << 32) | (unsigned int)lead;
}

static unsigned int rel_hash(unsigned long long k, int cap)
{
	k ^= k >> 31;
	k *= 0x9E3779B97F4A7C15ULL;
	return (unsigned int)(k >> 33) & (unsigned int)(cap - 1);
}

void m_relate(struct model *m, int from, int to)
{
	unsigned long long k, *old;
	int lead, i, ocap;
	unsigned int h;

	if (from < 0 || to < 0)
		return;
	lead = m->t[to].leader;
	if (m->nrel * 2 >= m->rel_cap) {
		old = m->rel;
		ocap = m->rel_cap;
		m->rel_cap = ocap ? ocap * 2 : 1024;
		m->rel = calloc(m->rel_cap, sizeof(*m->rel));
		if (!m->rel)
			abort();
		m->nrel = 0;
		for (i = 0; i < ocap; i++) {
			if (!old[i])
				continue;
			h = rel_hash(old[i], m->rel_cap);
			while (m->rel[h])
				h = (h + 1) & (m->rel_cap - 1);
			m->rel[h] = old[i];
			m->nrel++;
		}
		free(old);
	}
	k = rel_key(from, lead) + 1;	/* 0 marks a free slot */
	for (h = rel_hash(k, m->rel_cap); m->rel[h]; h = (h + 1) & (m->rel_cap - 1))
		if (m->rel[h] == k)
			return;
	m->rel[h] = k;
	m->nrel++;
}

bool m_was_notifier(const struct model *m, int from, int lead)
{
	unsigned long long k = rel_key(from, lead) + 1;
	unsigned int h;

	if (!m->rel_cap)
		return false;
	for (h = rel_hash(k, m->rel_cap); m->rel[h]; h = (h + 1) & (m->rel_cap - 1))
		if (m->rel[h] == k)
			return true;
	return false;
}

int m_find_pid_seen_by(const struct model *m, pid_t pid, int lead)
{
	int ns = m->t[lead].ns, i;

	/* Newest first: a reused pid names the newest task. */
	for (i = m->n - 1; i >= 0; i--)
		if (m_pid_in(m, i, ns) == pid)
			return i;
	return -1;
}

int m_pids_seen_by(const struct model *m, pid_t pid, int lead, int *out, int max)
{
	int ns = m->t[lead].ns, i, n = 0;

	for (i = m->n - 1; i >= 0 && n < max; i--)
		if (m_pid_in(m, i, ns) == pid || m_old_pid_in(m, i, ns) == pid)
			out[n++] = i;
	return n;
}

/* ---- notices ---- */

bool m_notify(struct model *m, int from, int to, int sig, int rule)
{
	const struct mtask *f = &m->t[from], *pl;
	bool autoreap = false;
	struct m_notice *n;

	if (to < 0)
		return false;
	m_relate(m, from, to);
	/*
	 * do_notify_parent(): another exit signal than SIGCHLD turns into
	 * SIGCHLD when the parent thread exec'd since the fork
	 * (kernel/signal.c:2062-2068).  Only SIGCHLD is logged by agents;
	 * SIGRTMAX stays blocked, 0 sends nothing.
	 */
	if (sig != SIGCHLD && f->parent_exec_id != m->t[to].self_exec_id &&
	    !m_wrong(m, R_EXIT_SIGNAL_NOTIFY)) {
		sig = SIGCHLD;
		rule = R_EXIT_SIGNAL_NOTIFY;
	}
	/* perturbed: every exit is notified with SIGCHLD */
	if (m_wrong(m, R_EXIT_SIGNAL_NOTIFY))
		sig = SIGCHLD;
	if (sig != SIGCHLD)
		return false;
	/* The zapping init ignores SIGCHLD (zap_pid_ns_processes() sets SIG_IGN). */
	if (m->t[m->t[to].leader].zapper || m->t[to].zapper)
		return false;
	/*
	 * do_notify_parent() (kernel/signal.c:2107-2133): an untraced child
	 * whose parent's group ignores SIGCHLD (SIG_IGN or SA_NOCLDWAIT)
	 * reaps itself; SIG_IGN sends nothing, SA_NOCLDWAIT still SIGCHLD.
	 */
	pl = &m->t[m->t[to].leader];
	if (f->tracer == M_NONE && (pl->sigchld_ign || pl->sigchld_nocldwait) &&
	    !m_wrong(m, R_SIGCHLD_AUTOREAP)) {
		autoreap = true;
		if (pl->sigchld_ign)
			return true;
	}
	if (m->nnotices == m->notices_cap) {
		int cap = m->notices_cap ? m->notices_cap * 2 : 64;

		n = realloc(m->notices, cap * sizeof(*n));
		if (!n)
			abort();
		m->notices = n;
		m->notices_cap = cap;
	}
	n = &m->notices[m->nnotices++];
	memset(n, 0, sizeof(*n));
	n->to_lead = m->t[to].leader;
	n->from = from;
	/* do_notify_parent(): si_status is tsk->exit_code, its own (signal.c:2095-2103). */
	n->code = f->exit_sig ? CLD_KILLED : CLD_EXITED;
	n->status = f->exit_sig ? f->exit_sig : f->exit_code;
	/* perturbed: the wrong si_status */
	if (m_wrong(m, rule))
		n->status++;
	n->rule = rule;
	/*
	 * A leader whose group exit came after its own exit (it exited first
	 * alone, then the group died): 6.1 sends its own exit_code, later
	 * kernels the group's, what its wait report says (the host's 6.18,
	 * scenarios/last-thread-code.sc).  The engine accepts that one only
	 * on a kernel other than 6.1.
	 */
	if (f->leader == from) {
		int code, sig;

		m_report_status(m, from, &code, &sig);
		if (sig != f->exit_sig || (!sig && code != f->exit_code)) {
			n->alt_code = sig ? CLD_KILLED : CLD_EXITED;
			/* perturbed: that one is wrong too */
			n->alt_status = (sig ? sig : code) + (m_wrong(m, rule) ? 1 : 0);
		}
	}
	return autoreap;
}

bool m_has_notices(const struct model *m, int lead)
{
	int i;

	for (i = 0; i < m->nnotices; i++)
		if (m->notices[i].to_lead == lead && !m->notices[i].checked)
			return true;
	return false;
}

void m_notices_gc(struct model *m)
{
	int i, k = 0;

	for (i = 0; i < m->nnotices; i++) {
		/* A notice to a process that is gone is nobody's to check. */
		if (m->notices[i].checked || !m_group_alive(m, m->notices[i].to_lead))
			continue;
		m->notices[k++] = m->notices[i];
	}
	m->nnotices = k;
}
