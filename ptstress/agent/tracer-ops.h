/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracer requests of an agent (tracer-ops.c), one handler per op of
 * ops.def's tracer section; agent.c's dispatch table points at them.
 */
#ifndef PTSTRESS_TRACER_OPS_H
#define PTSTRESS_TRACER_OPS_H

#include "agent/agent.h"

/* The running request's timeout (agent_req.timeout), per agent thread. */
extern __thread int agent_timeout;

typedef void agent_op_fn(const struct agent_req *req, struct agent_reply *rep, int *passfd);

agent_op_fn op_seize, op_attach, op_stop, op_listen, op_cont, op_syscall, op_singlestep,
	op_detach, op_ptrace_kill, op_pass, op_wait_stop, op_follow, op_wait_tracee;

#endif
