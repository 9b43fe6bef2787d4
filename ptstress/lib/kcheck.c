// SPDX-License-Identifier: GPL-2.0
/*
 * check: one-shot consistency check of the whole system through the kernel's
 * own link checker (patch 2 of the series, kernel/ptrace_check.c).
 *
 * Reading <debugfs>/ptrace_links/check makes the kernel walk every thread
 * under tasklist_lock and check the link rules; <debugfs>/ptrace_links/
 * violations counts every violation since boot, including those the local
 * checks in __ptrace_link(), __ptrace_unlink(), exit_ptrace(),
 * forget_original_parent() and release_task() found.  Both must be 0.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kcheck.h"


/*
 * Read a "key:\tvalue" file (the series' format) into @kv, at most @max
 * entries.  Returns the number of entries, or -errno.
 */
int kv_read(const char *path, struct kv *kv, int max)
{
	char line[256];
	int n = 0, err;
	char *colon, *end;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon || colon == line || (size_t)(colon - line) >= sizeof(kv[n].key))
			continue;
		memcpy(kv[n].key, line, (size_t)(colon - line));
		kv[n].key[colon - line] = '\0';
		errno = 0;
		kv[n].value = strtol(colon + 1, &end, 0);
		if (errno || end == colon + 1)
			continue;
		n++;
	}
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	return err ? err : n;
}

/* The value of @key in @kv[0..n), or @missing. */
long kv_get(const struct kv *kv, int n, const char *key, long missing)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	}
	return missing;
}

/*
 * The message of /dev/kmsg record @rec, after its "PRI,SEQ,TS,FLAGS;"
 * prefix (ends at the first ';', before the message's first ':'), or @rec
 * itself without one.  NULL for a record user space wrote: its facility is
 * never 0 (devkmsg_write() enforces LOG_USER unless a "<N>" names another
 * one, kernel/printk/printk.c:693 of 6.1), so PRI >= 8, and no program
 * can pass for the kernel.
 */
static const char *kmsg_kernel_text(const char *rec)
{
	const char *semi = strchr(rec, ';'), *colon = strchr(rec, ':');
	char *end;
	long pri;

	if (!semi || (colon && colon < semi))
		return rec;
	errno = 0;
	pri = strtol(rec, &end, 10);
	if (!errno && end != rec && *end == ',' && pri >= 8)
		return NULL;
	return semi + 1;
}

bool kmsg_checker_record(const char *rec, char *rule, size_t len, pid_t *pid)
{
	static const char prefix[] = "ptrace_links_check: ";
	const char *p, *r;
	char *end;
	long v;

	rec = kmsg_kernel_text(rec);
	if (!rec || strncmp(rec, prefix, sizeof(prefix) - 1))
		return false;
	r = rec + sizeof(prefix) - 1;
	p = strstr(r, ": pid ");
	if (!p || p == r || (size_t)(p - r) >= len || memchr(r, ' ', (size_t)(p - r)))
		return false;
	errno = 0;
	v = strtol(p + strlen(": pid "), &end, 10);
	if (errno || end == p + strlen(": pid ") || v <= 0 || v > INT32_MAX || *end != ' ')
		return false;
	memcpy(rule, r, (size_t)(p - r));
	rule[p - r] = '\0';
	*pid = (pid_t)v;
	return true;
}

/* A decimal number >= @min that fits a pid, then a space, at @s; its end in @end. */
static bool num_field(const char *s, long min, pid_t *v, const char **end)
{
	char *e;
	long n;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtol(s, &e, 10);
	if (errno || n < min || n > INT32_MAX || *e != ' ')
		return false;
	*v = (pid_t)n;
	*end = e;
	return true;
}

bool kmsg_report_pid(const char *rec, pid_t *pid)
{
	static const char warn[] = "WARNING: ", cpu[] = "CPU: ", field[] = " PID: ";
	const char *p = kmsg_kernel_text(rec);
	pid_t c;

	if (!p)
		return false;
	if (!strncmp(p, warn, sizeof(warn) - 1))
		p += sizeof(warn) - 1;
	if (strncmp(p, cpu, sizeof(cpu) - 1) || !num_field(p + sizeof(cpu) - 1, 0, &c, &p) ||
	    strncmp(p, field, sizeof(field) - 1))
		return false;
	return num_field(p + sizeof(field) - 1, 1, pid, &p);
}

void taint_letters(unsigned long flags, char *buf, size_t len)
{
	/* taint_flags[] in kernel/panic.c, by bit: 'P' for a set bit 0 */
	static const char letters[] = "PFSRMBUDAWCIOELKXTN";
	size_t i, n = 0;

	if (!len)
		return;
	for (i = 0; i < sizeof(unsigned long) * 8 && n + 1 < len; i++)
		if (flags & (1UL << i))
			buf[n++] = i < sizeof(letters) - 1 ? letters[i] : '?';
	buf[n] = '\0';
}

bool kcheck_supported(void)
{
	struct kv kv[8];

	return kv_read(KCHECK_DIR "violations", kv, 8) > 0;
}

int cmd_check(enum kernel_mode mode)
{
	struct kv walk[8], viol[32], work[16];
	int nw, nv, nc, i;
	long threads, found, total;
	struct check c;

	tap_begin();
	nw = kv_read(KCHECK_DIR "check", walk, 8);
	nv = kv_read(KCHECK_DIR "violations", viol, 32);
	if (nw < 0 || nv < 0) {
		if (mode == KERNEL_REQUIRE) {
			tap_bail("--kernel=require: no %s (kernel without the link checker, "
				 "or debugfs not mounted)", KCHECK_DIR);
			return PS_EXIT_HARNESS;
		}
		tap_skip("kernel without the ptrace link checker",
			 "kernel link checker: full walk");
		tap_skip("kernel without the ptrace link checker",
			 "kernel link checker: violations since boot");
		tap_end();
		return tap_exit_code(false);
	}
	threads = kv_get(walk, nw, "threads", -1);
	found = kv_get(walk, nw, "violations", -1);
	check_init(&c);
	if (threads < 1)
		check_fail(&c, "threads: expected >= 1, observed %ld", threads);
	check_eq(&c, "violations in this walk", 0, found);
	check_done(&c, "kernel link checker: full walk over %ld threads finds no violation",
		   threads);

	total = kv_get(viol, nv, "total", -1);
	check_init(&c);
	check_eq(&c, "violations since boot", 0, total);
	for (i = 0; i < nv; i++) {
		if (strcmp(viol[i].key, "total") && viol[i].value)
			check_fail(&c, "rule %s: %ld violations (see the kernel log)",
				   viol[i].key, viol[i].value);
	}
	check_done(&c, "kernel link checker: no violation since boot");

	nc = kv_read(KCHECK_DIR "counters", work, 16);
	for (i = 0; i < nc; i++)
		tap_diag("exit work %s: %ld", work[i].key, work[i].value);
	tap_end();
	return tap_exit_code(false);
}
