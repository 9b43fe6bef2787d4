/* SPDX-License-Identifier: GPL-2.0 */
/* The tracer requests of an agent (tracer-ops.c); see agent.h for the list. */
#ifndef PTSTRESS_TRACER_OPS_H
#define PTSTRESS_TRACER_OPS_H

#include <stdbool.h>

#include "agent/agent.h"

/*
 * Perform tracer request @req ("seize", "stop", ...) on @pid with argument
 * @arg; false if @req is not a tracer request.
 */
bool tracer_op(const char *req, pid_t pid, long arg, struct agent_reply *rep);
/* Fill in a reply: ok, errno and a message. */
void agent_set(struct agent_reply *rep, int ok, int err, const char *fmt, ...)
	PS_PRINTF(4, 5);

#endif
