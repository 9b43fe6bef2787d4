// SPDX-License-Identifier: GPL-2.0
/*
 * The ptrace chokepoint: every request that lets a tracee run again goes
 * through tracee_resume(), so that the bookkeeping in struct tracee and the
 * ESRCH rule live in one place.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>

#include "lib/ptstress.h"

void tracee_init(struct tracee *t, const char *role)
{
	memset(t, 0, sizeof(*t));
	t->role = role;
	t->state = TS_UNBORN;
	t->ctl_fd = -1;
	t->reply_fd = -1;
}

const char *ptrace_request_name(long req)
{
	switch (req) {
	case PTRACE_CONT:	return "PTRACE_CONT";
	case PTRACE_SYSCALL:	return "PTRACE_SYSCALL";
	case PTRACE_SINGLESTEP:	return "PTRACE_SINGLESTEP";
	case PTRACE_DETACH:	return "PTRACE_DETACH";
	case PTRACE_LISTEN:	return "PTRACE_LISTEN";
	case PTRACE_SEIZE:	return "PTRACE_SEIZE";
	case PTRACE_INTERRUPT:	return "PTRACE_INTERRUPT";
	case PTRACE_ATTACH:	return "PTRACE_ATTACH";
	case PTRACE_KILL:	return "PTRACE_KILL";
	case PTRACE_GETSIGINFO:	return "PTRACE_GETSIGINFO";
	case PTRACE_GETEVENTMSG: return "PTRACE_GETEVENTMSG";
	}
	return "PTRACE_?";
}

static long how_to_request(enum resume_how how)
{
	switch (how) {
	case RESUME_CONT:	return PTRACE_CONT;
	case RESUME_SYSCALL:	return PTRACE_SYSCALL;
	case RESUME_SINGLESTEP:	return PTRACE_SINGLESTEP;
	case RESUME_LISTEN:	return PTRACE_LISTEN;
	case RESUME_DETACH:	return PTRACE_DETACH;
	}
	return -1;
}

int tracee_resume(struct tracee *t, enum resume_how how, int sig)
{
	long req = how_to_request(how);
	long r;

	if (req < 0) {
		ps_error("tracee_resume(%s, pid %d): bad resume kind %d", t->role, (int)t->pid,
			 (int)how);
		return -EINVAL;
	}
	/*
	 * PTRACE_LISTEN takes no signal (ptrace_resume() is not even called
	 * for it); passing one would be a bug of ours, not the kernel's.
	 */
	if (how == RESUME_LISTEN && sig) {
		ps_ptrace_error(req, t->pid, sig, EINVAL, "%s: LISTEN cannot inject a signal",
				t->role);
		return -EINVAL;
	}
	r = ptrace(req, t->pid, NULL, (void *)(uintptr_t)sig);
	if (r < 0) {
		int err = errno;

		/*
		 * ESRCH: ptrace_check_attach() found the tracee not stopped, not
		 * ours, or gone (SIGKILL wakes a tracee out of any stop).  The
		 * caller learns the truth from its next wait.
		 */
		if (err == ESRCH)
			t->state = TS_GONE;
		ps_ptrace_error(req, t->pid, sig, err, "resuming %s", t->role);
		return -err;
	}
	if (how == RESUME_DETACH) {
		/* __ptrace_detach() -> __ptrace_unlink(): no longer ours. */
		t->exp_tracer = 0;
		t->state = TS_GONE;
	} else if (how != RESUME_LISTEN) {
		t->state = TS_RUNNING;
	}
	return 0;
}

int tracee_seize(struct tracee *t, unsigned long options)
{
	if (ptrace(PTRACE_SEIZE, t->pid, NULL, (void *)(uintptr_t)options) < 0) {
		int err = errno;

		ps_ptrace_error(PTRACE_SEIZE, t->pid, 0, err, "seizing %s with options %#lx",
				t->role, options);
		return -err;
	}
	/* Seizing does not stop the tracee (ptrace_attach() with PTRACE_SEIZE). */
	t->state = TS_RUNNING;
	return 0;
}

int tracee_interrupt(struct tracee *t)
{
	if (ptrace(PTRACE_INTERRUPT, t->pid, NULL, NULL) < 0) {
		int err = errno;

		if (err == ESRCH)
			t->state = TS_GONE;
		ps_ptrace_error(PTRACE_INTERRUPT, t->pid, 0, err, "interrupting %s", t->role);
		return -err;
	}
	return 0;
}
