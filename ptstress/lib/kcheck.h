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
/*
 * One /dev/kmsg record of the kernel (with its prefix or without) that
 * names the task a report ran in: __warn()'s "WARNING: CPU: N PID: P at
 * ..." or dump_stack_print_info()'s "CPU: N PID: P Comm: ..." (6.1's
 * kernel/panic.c, lib/dump_stack.c).  @pid: P, in the initial pid
 * namespace (current->pid).  False for any other record, and for one that
 * user space wrote.
 */
bool kmsg_report_pid(const char *rec, pid_t *pid);
/*
 * The letters of taint @flags in bit order (taint_flags[], kernel/panic.c
 * of 6.1: bit 9 is W, a WARN; 7 D, an oops; 5 B, a bad page), '?' for a
 * bit 6.1 does not name, into @buf.
 */
void taint_letters(unsigned long flags, char *buf, size_t len);
/* `ptstress check`: the kernel's full walk and violation counters, as TAP. */
int cmd_check(enum kernel_mode mode);

#endif
