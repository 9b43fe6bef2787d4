/* SPDX-License-Identifier: GPL-2.0 */
/* The small commands (info.c): links, rules, verbs. */
#ifndef PTSTRESS_CMD_CMDS_H
#define PTSTRESS_CMD_CMDS_H

#include <stdbool.h>

/* `ptstress links TID...`: parse and check each TID's ptrace_links file. */
int cmd_links(int ntids, char **tids);
/* `ptstress rules [--json]`: the model's rule registry. */
int cmd_rules(bool json);
/* `ptstress verbs`: the verb table, one verb a line. */
int cmd_verbs(void);

#endif
