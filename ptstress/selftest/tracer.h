/* SPDX-License-Identifier: GPL-2.0 */
/*
 * T, the tracer process, and R's side of its command channel.
 *
 * The tracer must be a process of its own: only the tracer may wait for its
 * tracees' ptrace-stops, and R must stay the plain (real) parent/reaper so
 * that the two roles can be checked apart.
 */
#ifndef PTSTRESS_TRACER_H
#define PTSTRESS_TRACER_H

#include "lib/ptstress.h"

/* T's answer to one request; one SOCK_SEQPACKET message. */
struct tracer_reply {
	int ok;			/* 1 if the request did what it should */
	int err;		/* errno behind the outcome (wait-none: ECHILD expected) */
	char msg[400];		/* what T did and saw, for TAP diagnostics */
};

/* Fork T as a child of R; fills in and registers @tr. Returns 0 or -errno. */
int tracer_spawn(struct tracee *tr);
/*
 * Send one request and wait for the reply.  Requests: "seize PID",
 * "seize-exitkill PID" (PTRACE_O_EXITKILL), "interrupt PID" (stop it in
 * PTRACE_EVENT_STOP and leave it there), "detach PID" (stop it unless
 * stopped, then PTRACE_DETACH), "reap PID" (wait for the exit or kill
 * report of a tracee someone else kills, then forget it), "wait-none",
 * "quit" (exit without detaching).  Returns 0 (then see rep->ok) or a -errno channel failure
 * (-ETIMEDOUT, -EPIPE, -EINTR) with ps_last_error() set.
 */
int tracer_call(struct tracee *tr, const char *req, struct tracer_reply *rep);

#endif /* PTSTRESS_TRACER_H */
