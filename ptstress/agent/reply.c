// SPDX-License-Identifier: GPL-2.0
/* The protocol's names and the reply helper, shared by both ends (agent.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agent/agent.h"

static const struct {
	const char *name;	/* as in the step log */
	const char *fields;	/* which request fields it reads: P pid, S sig, A arg */
} ops[OP_NR] = {
#define AGENT_OP(id, nm, fl) [OP_##id] = { nm, fl },
#include "agent/ops.def"
#undef AGENT_OP
};

const char *agent_op_name(unsigned int op)
{
	return op < OP_NR ? ops[op].name : "?";
}

int agent_op_find(const char *name)
{
	int op;

	for (op = 0; op < OP_NR; op++)
		if (!strcmp(ops[op].name, name))
			return op;
	return -1;
}

char *agent_req_str(const struct agent_req *req, char *buf, size_t len)
{
	const char *f = req->op < OP_NR ? ops[req->op].fields : "";
	int n;

	n = snprintf(buf, len, "%s", agent_op_name(req->op));
	if (strchr(f, 'P') && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, " pid=%d", (int)req->pid);
	if (strchr(f, 'S') && req->sig && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - n, " sig=%s", sig_name(req->sig));
	if (strchr(f, 'A') && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " arg=%#llx", (unsigned long long)req->arg);
	return buf;
}

void agent_set(struct agent_reply *rep, int ok, int err, const char *fmt, ...)
{
	va_list ap;

	rep->ok = ok;
	rep->err = err;
	va_start(ap, fmt);
	vsnprintf(rep->msg, sizeof(rep->msg), fmt, ap);
	va_end(ap);
}
