// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's lowest layer (core.h): names, the step log, findings and
 * calls to agents.  Nothing here knows a verb.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/core.h"
#include "engine/diff.h"
#include "lib/json.h"
#include "lib/links.h"

/*
 * name -> model index; open addressing, newest binding overwrites. Grows
 * at half load: a long stress run names a new task every few rounds.
 */
struct name_table {
	struct binding {
		char name[SC_NAME_LEN];	/* "" = free */
		int idx;		/* model index */
	} *b;
	unsigned int size;		/* buckets, a power of two */
	unsigned int used;		/* buckets holding a name */
};

struct name_table *names_new(void)
{
	struct name_table *nt = calloc(1, sizeof(*nt));

	if (!nt)
		return NULL;
	nt->size = 1 << 12;
	nt->b = calloc(nt->size, sizeof(*nt->b));
	if (!nt->b) {
		free(nt);
		return NULL;
	}
	return nt;
}

void names_free(struct name_table *nt)
{
	if (nt)
		free(nt->b);
	free(nt);
}

static unsigned int hash(const char *s)
{
	unsigned int h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct binding *slot(struct binding *b, unsigned int size, const char *name)
{
	unsigned int h = hash(name) & (size - 1);

	while (b[h].name[0] && strcmp(b[h].name, name))
		h = (h + 1) & (size - 1);
	return &b[h];
}

static int names_grow(struct name_table *nt)
{
	unsigned int size = nt->size * 2, i;
	struct binding *b = calloc(size, sizeof(*b));

	if (!b)
		return -ENOMEM;
	for (i = 0; i < nt->size; i++)
		if (nt->b[i].name[0])
			*slot(b, size, nt->b[i].name) = nt->b[i];
	free(nt->b);
	nt->b = b;
	nt->size = size;
	return 0;
}

void bind_name(struct engine *e, const char *name, int i)
{
	struct name_table *nt = e->names;
	struct binding *b;

	if (nt->used >= nt->size / 2 && names_grow(nt) < 0) {
		harness_err(e, "out of memory for the name '%s'", name);
		return;
	}
	b = slot(nt->b, nt->size, name);
	if (!b->name[0])
		nt->used++;
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->idx = i;
}

int task_of(struct engine *e, const char *name)
{
	struct binding *b = slot(e->names->b, e->names->size, name);

	if (b->name[0])
		return b->idx;
	harness_err(e, "name '%s' is not bound to a task", name);
	return -1;
}

const char *tname(struct engine *e, int i)
{
	static __thread char buf[4][80];
	static __thread int k;

	if (i < 0 || i >= e->m.n)
		return m_name(&e->m, i);
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s (tid %d)", m_name(&e->m, i), (int)e->m.t[i].tid);
	return buf[k];
}

bool etask_grow(struct engine *e)
{
	struct etask *x;
	int i;

	if (e->e_cap >= e->m.cap)
		return true;
	x = realloc(e->e, e->m.cap * sizeof(*x));
	if (!x)
		return false;
	for (i = e->e_cap; i < e->m.cap; i++) {
		memset(&x[i], 0, sizeof(x[i]));
		x[i].fd = -1;
		x[i].session = -1;
		x[i].pidfd = -1;
		x[i].status.fd = -1;
		x[i].links.fd = -1;
	}
	e->e = x;
	e->e_cap = e->m.cap;
	return true;
}

pid_t pid_for(struct engine *e, int waiter, int t)
{
	/* The pid the agent's own namespace gives @t (0: none; callers refused that). */
	return m_pid_in(&e->m, t, e->m.t[waiter].ns);
}

bool alive(struct engine *e, int i)
{
	return e->m.t[i].life == ML_ALIVE && !e->m.t[i].exited;
}

int calling_thread(struct engine *e, int x, const char *what)
{
	int w = e->m.t[x].leader != x ? x : m_alive_thread(&e->m, x);

	if (w == M_NONE || !alive(e, w) || e->m.t[w].in_exit || e->m.t[w].stop != MS_RUNNING ||
	    e->e[w].fd < 0) {
		refuse(e, "%s has no running thread to %s", tname(e, x), what);
		return -1;
	}
	return w;
}

void logf_(struct engine *e, const char *fmt, ...)
{
	va_list ap;

	if (!e->log)
		return;
	va_start(ap, fmt);
	vfprintf(e->log, fmt, ap);
	va_end(ap);
	fputc('\n', e->log);
}

/* ---- findings ---- */

static const char *const kind_name[] = {
	[FK_FINDING] = "finding", [FK_HARNESS] = "harness", [FK_REFUSED] = "refused",
};

static void where(struct engine *e, char *buf, size_t len)
{
	if (e->cur)
		snprintf(buf, len, "%s:%d", e->cur->loc.file, e->cur->loc.line);
	else
		snprintf(buf, len, "%s", e->file ? e->file : "?");
}

/* Where a finding's kernel-named rule comes from (fdesc.krule). */
static const char *krule_cite(const struct fdesc *d)
{
	if (d->check && !strcmp(d->check, "taint"))
		return "the taint flags the scenario did not start with: taint_flags[], "
		       "kernel/panic.c";
	return "the series' kernel/ptrace_check.c (patch 2)";
}

/* The finding as one JSON line: tests and fuzz signatures read this, never prose. */
static void finding_json(struct engine *e, FILE *f, const struct fdesc *d, const char *loc,
			 const char *msg)
{
	struct timespec now;
	struct json j;
	int k;

	if (!f)
		return;
	json_start(&j, f);
	json_str(&j, "type", "finding");
	json_str(&j, "kind", kind_name[d->kind]);
	json_str(&j, "scenario", e->file);
	json_str(&j, "where", loc);
	if (e->cur) {
		json_str(&j, "file", e->cur->loc.file);
		json_int(&j, "line", e->cur->loc.line);
		json_str(&j, "verb", sc_verb_name(e->cur->verb));
	}
	json_str(&j, "check", d->check ? d->check : "other");
	if (d->rule != R_NONE) {
		json_str(&j, "rule", m_rule_id(d->rule));
		json_str(&j, "cites", m_rule_cite(d->rule));
	} else if (d->krule) {
		json_str(&j, "rule", d->krule);
		json_str(&j, "cites", krule_cite(d));
	}
	json_array(&j, "tasks");
	for (k = 0; k < d->ntasks; k++) {
		const struct mtask *t;

		if (d->tasks[k] < 0 || d->tasks[k] >= e->m.n)
			continue;
		t = &e->m.t[d->tasks[k]];
		json_object(&j, NULL);
		json_str(&j, "name", m_name(&e->m, d->tasks[k]));
		json_int(&j, "pid", e->m.t[t->leader].tid);
		json_int(&j, "tid", t->tid);
		json_close(&j);
	}
	json_close(&j);
	if (d->expected)
		json_str(&j, "expected", d->expected);
	if (d->observed)
		json_str(&j, "observed", d->observed);
	json_str(&j, "message", msg);
	json_str(&j, "report_dir", e->dir);
	/* since the scenario's start: fuzz's time to a finding even if nothing follows */
	clock_gettime(CLOCK_MONOTONIC, &now);
	json_double(&j, "seconds", (now.tv_sec - e->started.tv_sec) +
		    (now.tv_nsec - e->started.tv_nsec) / 1e9);
	if (json_end(&j) < 0) {
		/* A finding nobody can read is our failure too. */
		tap_diag("could not write a finding record: %s", strerror(-j.err));
		e->harness = true;
	}
}

void report(struct engine *e, const struct fdesc *d, const char *fmt, ...)
{
	static const char *const what[] = { "", "harness error: ", "scenario cannot run: " };
	char msg[1024], loc[PATH_MAX + 16];
	va_list ap;
	int k;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/*
	 * A failure of ours after the kernel reported in this scenario (an
	 * oops killed an agent mid-request, say) is the kernel's finding: its
	 * side first.  Not a Ctrl-C: that is the user's; nor after the
	 * scenario's first finding, which may be that report.
	 */
	if (d->kind == FK_HARNESS && e->kernel_first && !ps_stop_signal && !e->stop) {
		int (*first)(struct engine *e, const char *msg) = e->kernel_first;

		e->kernel_first = NULL;	/* its own harness errors are ours */
		k = first(e, msg);
		e->kernel_first = first;
		if (k > 0)
			return;
	}
	/*
	 * R was stopped and continued since the scenario began (ps_continued,
	 * lib/procs.c): a Ctrl-Z stopped the agents too, and every deadline
	 * ran on.  What the engine sees now is ours.  The kernel's own
	 * reports (its taint, the link checker) are findings still.
	 */
	if (d->kind == FK_FINDING && ps_continued != e->conts0 &&
	    !(d->check && (!strcmp(d->check, "taint") || !strcmp(d->check, "kernel")))) {
		struct fdesc h = *d;

		h.kind = FK_HARNESS;
		h.check = "job-control";
		report(e, &h, "R was stopped and continued (SIGCONT) during the scenario, its "
		       "agents and deadlines with it: not the kernel's doing: %s", msg);
		return;
	}
	where(e, loc, sizeof(loc));
	if (d->kind == FK_REFUSED)
		fprintf(stderr, "%s: %s\n", loc, msg);
	tap_result(false, "%s: %s%s", loc, what[d->kind], msg);
	if (d->rule != R_NONE)
		tap_diag("  rule: %s (%s): %s", m_rule_id(d->rule), m_rule_cite(d->rule),
			 m_rule_text(d->rule));
	else if (d->krule)
		tap_diag("  rule: %s (%s)", d->krule, krule_cite(d));
	for (k = 0; k < d->ntasks; k++)
		if (d->tasks[k] >= 0 && d->tasks[k] < e->m.n)
			tap_diag("  task: %s", tname(e, d->tasks[k]));
	if (d->expected)
		tap_diag("  expected: %s", d->expected);
	if (d->observed)
		tap_diag("  observed: %s", d->observed);
	logf_(e, "%s %s: %s", kind_name[d->kind], loc, msg);
	/*
	 * The record first: after a kernel report (a taint finding) the dump
	 * below may never finish, and the record must not go with it (m04
	 * in the kill matrix: after its oops, taint D, the guest did no more
	 * I/O).
	 */
	finding_json(e, e->findings, d, loc, msg);
	finding_json(e, e->json, d, loc, msg);
	/* Before anything moves: the kernel's view, the guest frozen under gdb. */
	if (d->kind == FK_FINDING && e->opts && e->opts->gdb_on_failure)
		kernel_view(e, d);
	if (d->kind == FK_FINDING)
		e->st.findings++;
	else
		e->harness = true;
	e->stop = true;
}

#define SIMPLE(fn, k)							\
void fn(struct engine *e, const char *fmt, ...)				\
{									\
	char msg[1024];							\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	vsnprintf(msg, sizeof(msg), fmt, ap);				\
	va_end(ap);							\
	report(e, &(struct fdesc){ .kind = (k), .rule = R_NONE }, "%s", msg); \
}
SIMPLE(finding, FK_FINDING)
SIMPLE(harness_err, FK_HARNESS)
SIMPLE(refuse, FK_REFUSED)
#undef SIMPLE

/* ---- agents ---- */

void step_deadline(struct engine *e, struct deadline *dl, int extra)
{
	deadline_start(dl, (e->cur_timeout ? e->cur_timeout : e->step_timeout) + extra);
}

int start_call(struct engine *e, int i, const struct agent_req *req)
{
	struct agent_req q = *req;
	char buf[96];
	int r;

	/* The agent's waits take the step's deadline: "within", else step-timeout. */
	if (!q.timeout)
		q.timeout = e->cur_timeout ? e->cur_timeout : e->step_timeout;
	agent_req_str(&q, buf, sizeof(buf));
	logf_(e, "  -> %s: %s", tname(e, i), buf);
	if (e->e[i].fd < 0) {
		harness_err(e, "%s has no command channel (request '%s')", tname(e, i), buf);
		return -EBADF;
	}
	r = agent_send(e->e[i].fd, &q);
	if (r < 0)
		harness_err(e, "%s: %s", tname(e, i), ps_last_error());
	return r;
}

/* The first line of a small /proc file into @buf; 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

/*
 * Agent @i did not answer in time: is it asleep in the kernel, in D
 * (TASK_UNINTERRUPTIBLE, TASK_KILLABLE)?  Our own code never sleeps there
 * between requests, so it is then stuck in a system call the kernel does
 * not finish -- a lost wakeup, a wait_on_bit() nobody clears: the kernel's
 * doing, a finding.  Anything else (running, S in its recv(), gone) stays
 * ours.  @what: "State D, syscall N, wchan W".
 */
static bool stuck_in_kernel(struct engine *e, int i, char *what, size_t len)
{
	pid_t tgid = e->m.t[e->m.t[i].leader].tid, tid = e->m.t[i].tid;
	struct proc_status st;
	struct parse_error perr;
	char path[64], sc[64] = "?", wchan[64] = "?";
	int k;

	/* Twice, a second apart: a D seen once may be a page fault on its way. */
	for (k = 0; k < 2; k++) {
		if (status_read(tgid, tid, &st, &perr) < 0 || st.state != 'D')
			return false;
		if (!k)
			sleep(1);
	}
	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)tgid, (int)tid);
	if (read_small(path, sc, sizeof(sc)) < 0)
		snprintf(sc, sizeof(sc), "?");
	sc[strcspn(sc, " \n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/task/%d/wchan", (int)tgid, (int)tid);
	if (read_small(path, wchan, sizeof(wchan)) < 0)
		snprintf(wchan, sizeof(wchan), "?");
	wchan[strcspn(wchan, "\n")] = '\0';
	snprintf(what, len, "State D, syscall %s, wchan %s", sc, wchan);
	return true;
}

int finish(struct engine *e, int i, const struct agent_req *req, struct agent_reply *rep,
	   int *newfd)
{
	struct deadline dl;
	char buf[96];
	int fd, r;

	/* The agent's own wait uses the step timeout: give it time to say so. */
	step_deadline(e, &dl, REPLY_GRACE_SEC);
	r = agent_reply(e->e[i].fd, rep, newfd ? newfd : &fd, &dl);
	if (r < 0) {
		char what[160];

		if (r == -ETIMEDOUT && stuck_in_kernel(e, i, what, sizeof(what))) {
			int x, tgt = -1;

			/* The request's target too: a hang in ptrace() waits on its tracee. */
			for (x = 1; req->pid > 0 && x < e->m.n && tgt < 0; x++)
				if (e->m.t[x].life != ML_DEAD && pid_for(e, i, x) == req->pid)
					tgt = x;
			report(e, &(struct fdesc){ .check = "hang", .rule = R_NONE,
						   .ntasks = tgt >= 0 ? 2 : 1, .tasks = { i, tgt },
						   .expected = "a reply", .observed = what },
			       "%s never answered '%s': it sleeps in the kernel (%s)", tname(e, i),
			       agent_req_str(req, buf, sizeof(buf)), what);
			return r;
		}
		harness_err(e, "no reply of %s to '%s': %s", tname(e, i),
			    agent_req_str(req, buf, sizeof(buf)), ps_last_error());
		return r;
	}
	if (!newfd && fd >= 0)
		close(fd);
	logf_(e, "  <- %s: ok=%d err=%s %s", tname(e, i), rep->ok,
	      rep->err ? errno_name(rep->err) : "0", rep->msg);
	/* Differential mode: the reply as the reference kernel gave it, first. */
	return diff_reply(e, i, req, rep);
}

int call(struct engine *e, int i, const struct agent_req *req, struct agent_reply *rep,
	 int *newfd)
{
	int r = start_call(e, i, req);

	return r < 0 ? r : finish(e, i, req, rep, newfd);
}

int live_sessions(const struct engine *e)
{
	int i, n = 0;

	for (i = 0; i < e->nsessions; i++)
		n += !e->sessions[i].done;
	return n;
}
