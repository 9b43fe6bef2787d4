// SPDX-License-Identifier: GPL-2.0
/*
 * ptstress tput: how many cycles per second ptstress's own tracer T manages
 * when driven through its command channel (an agent, agent/agent.h: one
 * typed request and one reply per step), beside the same cycles without
 * the channel (--bare).
 * bench/ptput gives the bare-syscall limit; this gives what our machinery
 * costs on top of it.
 *
 *   R (this process, child subreaper) ─┬─ T_i     an agent (agent_spawn())
 *                                      ├─ S_i     sleeping target, attach
 *                                      └─ D_i     driver: runs the loop
 *                                          └─ K   kill+reap: a fresh target
 *
 * attach+detach: D_i asks T_i "seize S_i", "stop S_i" (PTRACE_INTERRUPT and
 * its PTRACE_EVENT_STOP), then "detach S_i": the requests the scenario
 * engine sends for seize and detach.
 * kill+reap: D_i forks K, asks T_i "seize K", SIGKILLs K, asks T_i
 * "wait-tracee K" (T collects the kill report), then reaps K itself, as its
 * real parent.
 * --bare: no T; D_i makes the very calls T makes (tracee_seize(),
 * tracee_interrupt(), wait_event_for(), tracee_resume()), so the two
 * figures differ by the channel alone.  In kill+reap D_i is then tracer
 * and parent, and one wait reaps K.
 *
 * The loops are processes, not threads of R: ps_error() keeps its message
 * in one static buffer (report.c) and the cleanup registry (procs.c) has no
 * lock, and a process per loop keeps both private without changing them.
 *
 * A benchmark: it prints figures and never fails on them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent/agent.h"
#include "lib/ptstress.h"
#include "cmd/tput.h"

/* Two registry entries per tracer (T_i and S_i); procs.c has room for 16. */
#define MAX_TRACERS	8
#define MAX_SECONDS	3600

static const char usage_line[] =
	"usage: ptstress tput [--tracers N] [--seconds S] [--what attach|kill|both] [--bare]\n";

enum tput_what {
	TPUT_ATTACH	= 1,	/* attach+detach cycles */
	TPUT_KILL	= 2,	/* kill+reap cycles */
};

/* The command line. */
struct tput_opts {
	int tracers;		/* --tracers: loops running at once, each with its own T */
	double seconds;		/* --seconds: length of each loop */
	unsigned int what;	/* --what: TPUT_ATTACH and/or TPUT_KILL bits */
	bool bare;		/* --bare: no T and no channel, the driver does T's calls */
};

/* One driver's outcome: one pipe write below PIPE_BUF, so never interleaved. */
struct tput_result {
	int idx;		/* which tracer, 0-based */
	int ok;			/* 1 if the loop ran to its end without an error */
	long cycles;		/* cycles completed */
	double elapsed;		/* seconds from the start signal to the end of the last cycle */
	char msg[640];		/* the error that stopped the loop, if !ok */
};

/* What R keeps per tracer; static, because the cleanup registry points into it. */
struct tput_slot {
	struct tracee t;	/* T_i and its command channel; unused with --bare */
	struct tracee target;	/* S_i, the attach+detach target; unused for kill+reap */
	pid_t driver;		/* D_i, R's child; 0 before it is forked */
	struct tput_result res;	/* D_i's result, once have_res */
	bool have_res;		/* D_i's result arrived */
};

static struct tput_slot slots[MAX_TRACERS];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Fork a target that sleeps in pause() and may be traced by anyone
 * (PR_SET_PTRACER_ANY: with Yama's ptrace_scope=1 T, which is not its
 * ancestor, could not seize it otherwise; EINVAL without Yama is harmless).  It says so with one
 * byte on @ready, which this waits for, so that no seize can come first.
 * @reg: put it on R's cleanup list (its pid is in @t before the wait).
 * Returns 0 or -errno with ps_last_error() set.
 */
static int spawn_target(struct tracee *t, const int ready[2], bool reg)
{
	struct deadline dl;
	char c = 0;
	pid_t pid;

	pid = ps_fork(true);
	if (pid < 0) {
		int err = errno;

		ps_error("fork of a target: %s", strerror(err));
		return -err;
	}
	if (pid == 0) {
		/*
		 * R's long-lived targets must not hold T's channels or R's pipes.
		 * A driver's K lives for one cycle, and closing up to 65536 fds
		 * in each would be most of what kill+reap measures.
		 */
		if (reg)
			close_fds_except(&ready[1], 1);
		prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
		if (write(ready[1], &c, 1) != 1)
			_exit(PS_EXIT_HARNESS);
		for (;;)
			pause();
	}
	t->pid = pid;
	t->state = TS_RUNNING;
	t->exp_real_parent = getpid();
	if (reg)
		ps_register(t);
	deadline_start(&dl, ps_config.timeout_sec);
	return read_full_deadline(ready[0], &c, 1, &dl);
}

/* T_i: an agent, R's child, on R's cleanup list; its hello is read here. */
static int spawn_tracer(struct tracee *t)
{
	struct deadline dl;
	pid_t tid, ns_tid;
	pid_t pid = agent_spawn(0, &t->ctl_fd);

	if (pid < 0) {
		int err = errno;

		ps_error("fork of a tracer agent: %s", strerror(err));
		return -err;
	}
	t->pid = pid;
	t->state = TS_RUNNING;
	ps_register(t);
	deadline_start(&dl, ps_config.timeout_sec);
	return agent_hello(t->ctl_fd, &tid, &ns_tid, &dl);
}

/* One request to T; 0 if T did it, else -errno with the reason in @msg. */
static int call(struct tracee *tr, const struct agent_req *req, char *msg, size_t len)
{
	struct agent_reply rep;
	struct deadline dl;
	char buf[96];
	int fd = -1, r;

	r = agent_send(tr->ctl_fd, req);
	if (r == 0) {
		deadline_start(&dl, ps_config.timeout_sec + REPLY_GRACE_SEC);
		r = agent_reply(tr->ctl_fd, &rep, &fd, &dl);
		if (fd >= 0)
			close(fd);
	}
	if (r < 0) {
		snprintf(msg, len, "%s", ps_last_error());
		return r;
	}
	if (!rep.ok) {
		snprintf(msg, len, "T (pid %d) could not '%s': %s", (int)tr->pid,
			 agent_req_str(req, buf, sizeof(buf)), rep.msg);
		return rep.err ? -rep.err : -EPROTO;
	}
	return 0;
}

/*
 * --bare: what T's stop_tracee() does, in the driver: PTRACE_INTERRUPT, wait
 * for PTRACE_EVENT_STOP, deliver a signal that comes first.
 */
static int bare_stop(struct tracee *t, char *msg, size_t len)
{
	struct wait_event ev;
	struct deadline dl;
	char what[160], evs[96];
	int r;

	r = tracee_interrupt(t);
	if (r < 0)
		goto err;
	snprintf(what, sizeof(what), "PTRACE_EVENT_STOP of pid %d to tracer D (pid %d)",
		 (int)t->pid, (int)getpid());
	deadline_start(&dl, ps_config.timeout_sec);
	for (;;) {
		r = wait_event_for(t->pid, &ev, &dl, what);
		if (r < 0)
			goto err;
		t->last = ev;
		if (ev.kind == WK_EVENT_STOP && ev.event == PTRACE_EVENT_STOP)
			break;
		if (ev.kind != WK_SIGNAL_STOP) {
			snprintf(msg, len, "pid %d: expected %s, observed %s", (int)t->pid,
				 "ptrace-event-stop(PTRACE_EVENT_STOP, SIGTRAP)",
				 wait_event_str(&ev, evs, sizeof(evs)));
			return -EPROTO;
		}
		t->state = TS_STOPPED;
		r = tracee_resume(t, RESUME_CONT, ev.sig);
		if (r < 0)
			goto err;
	}
	t->state = TS_STOPPED;
	return 0;
err:
	snprintf(msg, len, "%s", ps_last_error());
	return r;
}

/* Wait for @t's SIGKILL report, as its parent (and, with --bare, its tracer). */
static int reap_killed(struct tracee *t, char *msg, size_t len)
{
	struct wait_event ev;
	struct deadline dl;
	char what[96], evs[96];
	int r;

	snprintf(what, sizeof(what), "kill report of pid %d to its parent D (pid %d)",
		 (int)t->pid, (int)getpid());
	deadline_start(&dl, ps_config.timeout_sec);
	r = wait_event_for(t->pid, &ev, &dl, what);
	if (r < 0) {
		snprintf(msg, len, "%s", ps_last_error());
		return r;
	}
	if (ev.kind != WK_KILLED || ev.sig != SIGKILL) {
		snprintf(msg, len, "pid %d: expected killed(SIGKILL), observed %s", (int)t->pid,
			 wait_event_str(&ev, evs, sizeof(evs)));
		return -EPROTO;
	}
	t->state = TS_REAPED;
	return 0;
}

#define REQ(op_, pid_) (&(struct agent_req){ .op = (op_), .pid = (pid_) })

/* One attach+detach cycle on @s->target. */
static int attach_cycle(struct tput_slot *s, bool bare, char *msg, size_t len)
{
	pid_t pid = s->target.pid;
	int r;

	if (!bare) {
		r = call(&s->t, REQ(OP_SEIZE, pid), msg, len);
		if (r == 0)
			r = call(&s->t, &(struct agent_req){ .op = OP_STOP, .pid = pid, .arg = 1 },
				 msg, len);
		return r < 0 ? r : call(&s->t, REQ(OP_DETACH, pid), msg, len);
	}
	r = tracee_seize(&s->target, 0);
	if (r < 0) {
		snprintf(msg, len, "%s", ps_last_error());
		return r;
	}
	r = bare_stop(&s->target, msg, len);
	if (r < 0)
		return r;
	r = tracee_resume(&s->target, RESUME_DETACH, 0);
	if (r < 0)
		snprintf(msg, len, "%s", ps_last_error());
	return r;
}

/*
 * One kill+reap cycle on a fresh child of the driver.  If it fails halfway
 * the child is left alive: the driver then exits, PR_SET_PDEATHSIG kills
 * the child and R, the subreaper, reaps it in ps_cleanup().
 */
static int kill_cycle(struct tput_slot *s, bool bare, const int ready[2], char *msg,
		      size_t len)
{
	struct tracee k;
	int r;

	tracee_init(&k, "K");
	r = spawn_target(&k, ready, false);
	if (r < 0) {
		snprintf(msg, len, "%s", ps_last_error());
		return r;
	}
	if (bare) {
		r = tracee_seize(&k, 0);
		if (r < 0) {
			snprintf(msg, len, "%s", ps_last_error());
			return r;
		}
	} else {
		r = call(&s->t, REQ(OP_SEIZE, k.pid), msg, len);
		if (r < 0)
			return r;
	}
	kill(k.pid, SIGKILL);
	if (!bare) {
		/* Until T has collected it, the zombie is not ours to reap. */
		r = call(&s->t, REQ(OP_WAIT_TRACEE, k.pid), msg, len);
		if (r < 0)
			return r;
	}
	return reap_killed(&k, msg, len);
}

/*
 * D_i: wait for the start (R closes the write end of @go_fd once every
 * driver is forked), run @what for the given seconds, send the result.
 */
static __attribute__((noreturn)) void driver_main(int idx, const struct tput_opts *o,
						  enum tput_what what, int go_fd, int res_fd)
{
	struct tput_result res = { .idx = idx };
	struct tput_slot *s = &slots[idx];
	char c;
	int ready[2] = { -1, -1 };
	double start, end;
	struct deadline dl;
	ssize_t n;
	int r = 0;

	/* Its waits (bare mode, and the target's reap) sleep on SIGCHLD. */
	block_sigchld();

	if (what == TPUT_KILL && pipe(ready) < 0) {
		snprintf(res.msg, sizeof(res.msg), "pipe: %s", strerror(errno));
		goto out;
	}
	deadline_start(&dl, ps_config.timeout_sec + REPLY_GRACE_SEC);
	n = read_deadline(go_fd, &c, 1, &dl);
	if (n != -EPIPE) {
		snprintf(res.msg, sizeof(res.msg), "no start signal from R: %s",
			 n < 0 ? ps_last_error() : "a byte instead of end of file");
		goto out;
	}
	start = now();
	end = start + o->seconds;
	do {
		if (what == TPUT_ATTACH)
			r = attach_cycle(s, o->bare, res.msg, sizeof(res.msg));
		else
			r = kill_cycle(s, o->bare, ready, res.msg, sizeof(res.msg));
		if (r < 0)
			break;
		res.cycles++;
	} while (now() < end);
	res.elapsed = now() - start;
	res.ok = r == 0;
out:
	if (write_full(res_fd, &res, sizeof(res)) < 0)
		_exit(PS_EXIT_HARNESS);
	_exit(res.ok ? PS_EXIT_PASS : PS_EXIT_HARNESS);
}

static const char *what_name(enum tput_what what)
{
	return what == TPUT_ATTACH ? "attach+detach" : "kill+reap";
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Read every driver's result; 0, or -errno with the reason on stderr. */
static int collect(const struct tput_opts *o, int res_fd)
{
	struct tput_result rr;
	struct deadline dl;
	int i, r;

	/* A driver's own waits end after its loop plus the timeout; wait longer. */
	deadline_start(&dl, (int)o->seconds + 1 + ps_config.timeout_sec + 2 * REPLY_GRACE_SEC);
	for (i = 0; i < o->tracers; i++) {
		r = read_full_deadline(res_fd, &rr, sizeof(rr), &dl);
		if (r < 0) {
			/* Interrupted: cmd_tput() says so once. */
			if (r != -EINTR)
				fprintf(stderr, "ptstress tput: results of the drivers: %s\n",
					ps_last_error());
			return r;
		}
		if (rr.idx < 0 || rr.idx >= o->tracers || slots[rr.idx].have_res) {
			fprintf(stderr, "ptstress tput: a result for tracer %d out of place\n",
				rr.idx + 1);
			return -EPROTO;
		}
		rr.msg[sizeof(rr.msg) - 1] = '\0';
		slots[rr.idx].res = rr;
		slots[rr.idx].have_res = true;
	}
	return 0;
}

/* Print the per-tracer lines and the figure; -EPROTO if a loop failed. */
static int report(const struct tput_opts *o, enum tput_what what)
{
	double secs = 0;
	long cycles = 0;
	int i, r = 0;

	for (i = 0; i < o->tracers; i++) {
		const struct tput_slot *s = &slots[i];

		if (!s->res.ok) {
			fprintf(stderr, "ptstress tput: %s, tracer %d: %s\n", what_name(what), i + 1,
				s->res.msg);
			r = -EPROTO;
			continue;
		}
		printf("# tput tracer=%d driver=%d T=%d target=%d cycles=%ld seconds=%.2f\n",
		       i + 1, (int)s->driver, (int)s->t.pid, (int)s->target.pid, s->res.cycles,
		       s->res.elapsed);
		cycles += s->res.cycles;
		if (s->res.elapsed > secs)
			secs = s->res.elapsed;
	}
	if (r < 0)
		return r;
	/* All loops ran at once, so the longest of them is the run's length. */
	printf("tput %s%s tracers=%d cycles=%ld seconds=%.2f rate=%.0f/s\n",
	       o->bare ? "bare " : "", what_name(what), o->tracers, cycles, secs,
	       secs > 0 ? (double)cycles / secs : 0.0);
	return 0;
}

/*
 * One figure: set up T_i (and S_i), fork the drivers, start them at once,
 * collect, print, clean up.  Returns an enum ps_exit value.
 */
static int run_phase(const struct tput_opts *o, enum tput_what what)
{
	int go[2] = { -1, -1 }, res[2] = { -1, -1 }, ready[2] = { -1, -1 };
	int i, r = 0, rc = PS_EXIT_PASS;
	pid_t pid;

	memset(slots, 0, sizeof(slots));
	for (i = 0; i < o->tracers; i++) {
		tracee_init(&slots[i].t, "T");
		tracee_init(&slots[i].target, "S");
	}
	for (i = 0; i < o->tracers && !o->bare && r == 0; i++)
		r = spawn_tracer(&slots[i].t);
	if (r == 0 && what == TPUT_ATTACH) {
		if (pipe(ready) < 0) {
			r = -errno;
			ps_error("pipe: %s", strerror(errno));
		}
		for (i = 0; i < o->tracers && r == 0; i++)
			r = spawn_target(&slots[i].target, ready, true);
	}
	if (r == 0 && (pipe(go) < 0 || pipe(res) < 0)) {
		r = -errno;
		ps_error("pipe: %s", strerror(errno));
	}
	if (r < 0) {
		fprintf(stderr, "ptstress tput: setup: %s\n", ps_last_error());
		rc = PS_EXIT_HARNESS;
		goto cleanup;
	}
	for (i = 0; i < o->tracers; i++) {
		pid = ps_fork(true);
		if (pid < 0) {
			fprintf(stderr, "ptstress tput: fork of a driver: %s\n", strerror(errno));
			rc = PS_EXIT_HARNESS;
			goto cleanup;
		}
		if (pid == 0) {
			/* Only R may hold the start pipe open, or nobody would start. */
			close(go[1]);
			close(res[0]);
			driver_main(i, o, what, go[0], res[1]);
		}
		slots[i].driver = pid;
	}
	close_fd(&go[1]);
	close_fd(&res[1]);
	if (collect(o, res[0]) < 0 || report(o, what) < 0)
		rc = PS_EXIT_HARNESS;
cleanup:
	/* R never reaps a driver before ps_cleanup(), so these pids are still theirs. */
	for (i = 0; i < o->tracers; i++) {
		if (slots[i].driver > 0)
			kill(slots[i].driver, SIGKILL);
	}
	r = ps_cleanup();
	if (r < 0) {
		fprintf(stderr, "ptstress tput: cleanup: %s\n", r == -ETIMEDOUT ?
			"a process survived SIGKILL (a kernel finding)" : "waitpid failed");
		rc = r == -ETIMEDOUT ? PS_EXIT_FINDING : PS_EXIT_HARNESS;
	}
	for (i = 0; i < o->tracers; i++)
		close_fd(&slots[i].t.ctl_fd);
	close_fd(&go[0]);
	close_fd(&go[1]);
	close_fd(&res[0]);
	close_fd(&res[1]);
	close_fd(&ready[0]);
	close_fd(&ready[1]);
	return rc;
}

static bool usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "ptstress tput: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_line);
	return false;
}

/* Fill in @o; false after a usage message on stderr. */
static bool parse_args(int argc, char **argv, struct tput_opts *o)
{
	bool missing = false;
	const char *v;
	char *end;
	long n;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--bare")) {
			o->bare = true;
		} else if ((v = opt_value(argc, argv, &i, "--tracers", &missing))) {
			errno = 0;
			n = strtol(v, &end, 10);
			if (*v < '0' || *v > '9' || *end || errno || n < 1 || n > MAX_TRACERS)
				return usage_error("bad number of tracers '%s' (1..8)", v);
			o->tracers = (int)n;
		} else if ((v = opt_value(argc, argv, &i, "--seconds", &missing))) {
			errno = 0;
			o->seconds = strtod(v, &end);
			if (*v < '0' || *v > '9' || *end || errno || !(o->seconds > 0) ||
			    o->seconds > MAX_SECONDS)
				return usage_error("bad number of seconds '%s' (more than 0, at most 3600)",
						   v);
		} else if ((v = opt_value(argc, argv, &i, "--what", &missing))) {
			if (!strcmp(v, "attach"))
				o->what = TPUT_ATTACH;
			else if (!strcmp(v, "kill"))
				o->what = TPUT_KILL;
			else if (!strcmp(v, "both"))
				o->what = TPUT_ATTACH | TPUT_KILL;
			else
				return usage_error("bad --what '%s' (attach, kill or both)", v);
		} else if (missing) {
			return usage_error("%s needs a value", a);
		} else if (a[0] == '-') {
			return usage_error("unknown option '%s'", a);
		} else {
			return usage_error("unexpected argument '%s'", a);
		}
	}
	return true;
}

int cmd_tput(int argc, char **argv)
{
	struct tput_opts o = { .tracers = 1, .seconds = 5,
			       .what = TPUT_ATTACH | TPUT_KILL };
	int i, rc = PS_EXIT_PASS;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s", usage_line);
			return PS_EXIT_PASS;
		}
	}
	if (!parse_args(argc, argv, &o))
		return PS_EXIT_USAGE;
	ps_install_signal_handlers();
	/* Orphans of a failed driver (its K) must come back to us, not go to init. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		fprintf(stderr, "ptstress tput: PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
		return PS_EXIT_HARNESS;
	}
	if (o.what & TPUT_ATTACH)
		rc = run_phase(&o, TPUT_ATTACH);
	if (rc == PS_EXIT_PASS && !ps_stop_signal && (o.what & TPUT_KILL))
		rc = run_phase(&o, TPUT_KILL);
	if (ps_stop_signal) {
		fprintf(stderr, "ptstress tput: interrupted by %s\n", sig_name(ps_stop_signal));
		if (rc == PS_EXIT_PASS)
			rc = PS_EXIT_HARNESS;
	}
	return rc;
}
