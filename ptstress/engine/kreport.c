// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own reports as findings: the series' link checker (its
 * violations, at a `check` and at the scenario's end) and the kernel's
 * taint flags (after every step).
 *
 * A WARN_ON(), an oops that did not kill the guest, the checker's local
 * checks (which WARN once per rule): each sets a taint flag (add_taint()
 * in __warn(), oops_end()), and the console shows the report.  Before,
 * only the host's console scan saw it, once the guest had ended, and
 * ptstress went on running steps after the one the kernel reported in; a
 * fuzz slice then gave the minimizer the wrong step's tasks and no line
 * to cut its prefix at.  Read after every step, the flags end the run at
 * the step that set them, with a finding record.  Its signature is still
 * the console's: the record's check is "taint", which guest/fuzz leaves to
 * the console's title (signature(), guest/fuzz-lib.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/observe.h"
#include "lib/kcheck.h"

/*
 * The scenario's tasks the link checker named in the kernel log since the
 * scenario began (ptrace_check_report(): "RULE: pid P (COMM)"), into
 * @d->tasks; a pid the model never had (a debugger, the spawner) is left
 * out.  A released task is still named: its pid is the last task's that
 * had it.  With @first, also the task each report ran in ("PID: P" of a
 * WARNING's or an oops' first lines), and the first such line, without
 * /dev/kmsg's prefix, into @first ("" if none).
 */
static void kernel_tasks(struct engine *e, struct fdesc *d, char *first, size_t flen)
{
	char rec[8192], rule[48];
	bool reports = first != NULL;
	int max = (int)(sizeof(d->tasks) / sizeof(d->tasks[0])), i, k;
	pid_t pid;
	ssize_t n;

	if (first && flen)
		*first = '\0';
	while (e->kmsg >= 0) {
		n = read(e->kmsg, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten before we read them */
		if (n <= 0)
			break;		/* EAGAIN: none left */
		rec[n] = '\0';
		if (!kmsg_checker_record(rec, rule, sizeof(rule), &pid)) {
			if (!reports || !kmsg_report_pid(rec, &pid))
				continue;
			if (!*first) {
				const char *m = strchr(rec, ';');

				snprintf(first, flen, "%.*s", (int)strcspn(m ? m + 1 : rec, "\n"),
					 m ? m + 1 : rec);
			}
		}
		i = m_find_tid_any(&e->m, pid);
		for (k = 0; k < d->ntasks && d->tasks[k] != i; k++)
			;
		if (i >= 0 && k == d->ntasks && d->ntasks < max)
			d->tasks[d->ntasks++] = i;
	}
}

int check_kernel(struct engine *e, const char *why)
{
	struct kv walk[8], viol[32];
	int nw, nv, i;
	long found, total;

	if (!e->have_kcheck)
		return 0;
	nw = kv_read(KCHECK_DIR "check", walk, 8);
	nv = kv_read(KCHECK_DIR "violations", viol, 32);
	if (nw < 0 || nv < 0) {
		harness_err(e, "%s: cannot read the kernel checker", why);
		return -1;
	}
	found = kv_get(walk, nw, "violations", -1);
	total = kv_get(viol, nv, "total", -1);
	e->st.checks++;
	if (found || total) {
		struct fdesc d = { .check = "kernel", .rule = R_NONE, .expected = "0" };
		char got[512];
		size_t len;

		len = (size_t)snprintf(got, sizeof(got), "%ld in a full walk, %ld since boot",
				       found, total);
		/* The rules with a count, in the kernel's order; the first is the signature's. */
		for (i = 0; i < nv; i++) {
			if (!strcmp(viol[i].key, "total") || viol[i].value <= 0 ||
			    len >= sizeof(got))
				continue;
			if (!d.krule)
				d.krule = viol[i].key;
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s %ld",
						d.krule == viol[i].key ? ": " : ", ", viol[i].key,
						viol[i].value);
		}
		d.observed = got;
		kernel_tasks(e, &d, NULL, 0);
		report(e, &d, "%s: kernel link checker: %s (see the kernel log)", why, got);
		return -1;
	}
	return 0;
}

/* The flags now: /proc/sys/kernel/tainted (proc_taint()) is read anew at offset 0. */
static int taint_read(struct engine *e, unsigned long *flags)
{
	char buf[32], *end;
	ssize_t n;

	n = pread(e->taint_fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0) {
		errno = n < 0 ? errno : EIO;
		return -1;
	}
	buf[n] = '\0';
	errno = 0;
	*flags = strtoul(buf, &end, 10);
	if (errno || end == buf) {
		errno = errno ? errno : EINVAL;
		return -1;
	}
	return 0;
}

/*
 * Only with the series' checker: in the guest, where nothing but the
 * scenario runs.  A host kernel's flags change for reasons no scenario
 * has (a driver, a module), and its log is not ours to map.
 */
void taint_begin(struct engine *e)
{
	e->taint_fd = -1;
	e->taint0 = 0;
	if (!e->have_kcheck)
		return;
	e->taint_fd = open("/proc/sys/kernel/tainted", O_RDONLY | O_CLOEXEC);
	if (e->taint_fd >= 0 && taint_read(e, &e->taint0) < 0) {
		close(e->taint_fd);
		e->taint_fd = -1;
	}
}

/* The taint finding: the flags @now gained, and @then (a harness error it explains) or NULL. */
static void taint_finding(struct engine *e, const char *why, unsigned long now, const char *then)
{
	char letters[32], exp[48], got[800], line[200];
	struct fdesc d = { .check = "taint", .rule = R_NONE, .krule = letters,
			   .expected = exp, .observed = got };
	unsigned long gained = now & ~e->taint0;

	taint_letters(gained, letters, sizeof(letters));
	snprintf(exp, sizeof(exp), "taint %#lx (as at the start)", e->taint0);
	kernel_tasks(e, &d, line, sizeof(line));
	/* the report's own line, for the reader: the signature is the console's */
	snprintf(got, sizeof(got), "taint %#lx: %s gained%s%s%s%s", now, letters,
		 *line ? "; the log: " : "", line, then ? "; then: " : "", then ? then : "");
	report(e, &d, "%s: the kernel's taint flags gained %s (%#lx): a kernel report "
	       "(see the kernel log)", why, letters, gained);
}

int check_taint(struct engine *e, const char *why)
{
	unsigned long now;

	if (e->taint_fd < 0)
		return 0;
	if (taint_read(e, &now) < 0) {
		harness_err(e, "%s: cannot read /proc/sys/kernel/tainted: %s", why,
			    strerror(errno));
		return -1;
	}
	e->st.checks++;
	/* a flag that was set at the start says nothing of this scenario */
	if (!(now & ~e->taint0))
		return 0;
	taint_finding(e, why, now, NULL);
	return -1;
}

int taint_explains(struct engine *e, const char *msg)
{
	unsigned long now;

	if (e->taint_fd < 0 || taint_read(e, &now) < 0 || !(now & ~e->taint0))
		return 0;
	taint_finding(e, "in this step, before a harness error", now, msg);
	return 1;
}
