/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's link checker and exit work counters (<debugfs>/ptrace_links/). */
#ifndef PTSTRESS_KCHECK_H
#define PTSTRESS_KCHECK_H

#include <stddef.h>
#include <sys/types.h>

#include "lib/ptstress.h"

/* The series' debugfs directory (patches 0002, 0003). */
#define KCHECK_DIR	"/sys/kernel/debug/ptrace_links/"

/* One "key:\tvalue" line of the series' debugfs files. */
struct kv {
	char key[48];	/* the name before the colon */
	long value;	/* the number after it (decimal or 0x hex) */
};

int kv_read(const char *path, struct kv *kv, int max);
long kv_get(const struct kv *kv, int n, const char *key, long missing);
/* The kernel has <debugfs>/ptrace_links/ (and debugfs is mounted). */
bool kcheck_supported(void);
/*
 * One /dev/kmsg record (after its "PRI,SEQ,TS,FLAGS;" prefix or with it) of
 * the link checker, ptrace_check_report() in patch 2: "ptrace_links_check:
 * RULE: pid P (COMM): ...".  Fills @rule (the checker's rule name) and
 * @pid (the task's pid in the initial pid namespace); false for any other
 * record.
 */
bool kmsg_checker_record(const char *rec, char *rule, size_t len, pid_t *pid);
/* `ptstress check`: the kernel's full walk and violation counters, as TAP. */
int cmd_check(enum kernel_mode mode);

#endif
