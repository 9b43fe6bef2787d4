// SPDX-License-Identifier: GPL-2.0
/*
 * Real debuggers in the run: Debian's strace and gdb, started on tasks of
 * the population while ptstress's own tracers work on others.  The model
 * treats them as tracers; what they print is checked where it can be:
 * strace's "+++ exited with N +++" for tasks it followed to their end, and
 * gdb's thread count against the model's.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/ext.h"
#include "lib/links.h"

/* A session step's deadline: its "within", else the debuggers' own. */
static int session_sec(const struct engine *e)
{
	return e->cur_timeout ? e->cur_timeout : DEBUGGER_SEC;
}

static struct session *new_session(struct engine *e, const char *name, bool gdb)
{
	struct session *ss;
	int i;

	/* The slot of a session that ended (its debugger reaped, released) is free again. */
	for (i = 0; i < e->nsessions && !e->sessions[i].done; i++)
		;
	if (i == (int)(sizeof(e->sessions) / sizeof(e->sessions[0]))) {
		refuse(e, "more than %d debugger sessions at once", MAX_SESSIONS);
		return NULL;
	}
	ss = &e->sessions[i];
	memset(ss, 0, sizeof(*ss));
	ss->done = true;	/* a free slot until start() has the debugger running */
	snprintf(ss->name, sizeof(ss->name), "%s", name);
	ss->is_gdb = gdb;
	if (snprintf(ss->out, sizeof(ss->out), "%.3800s/%s-%s.txt", e->dir, gdb ? "gdb" : "strace",
		     name) >= (int)sizeof(ss->out)) {
		refuse(e, "the report directory's name is too long");
		return NULL;
	}
	return ss;
}

/* Fork and exec @argv with stdout and stderr to @out; the model gets the process. */
static int start(struct engine *e, struct session *ss, char **argv)
{
	pid_t pid;
	int fd, i;

	pid = ps_fork(false);
	if (pid < 0) {
		harness_err(e, "fork for %s: %s", argv[0], strerror(errno));
		return -1;
	}
	if (pid == 0) {
		fd = open(ss->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		close_fds_except(NULL, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	ss->pid = pid;
	ss->done = false;
	i = m_fork(&e->m, 0, ss->name, pid, pid, false, false);
	if (i < 0 || !etask_grow(e)) {
		harness_err(e, "out of memory");
		return -1;
	}
	e->e[i].external = true;
	e->e[i].session = (int)(ss - e->sessions);
	ss->task = i;
	bind_name(e, ss->name, i);
	if (ss - e->sessions == e->nsessions)
		e->nsessions++;
	logf_(e, "  %s started as pid %d, output in %s", argv[0], (int)pid, ss->out);
	return 0;
}

/*
 * Wait until every live thread of @proc shows TracerPid of @ss.  strace
 * itself failing (not installed, refused by the kernel's rules for a
 * reason of ours) is a harness error; a live strace whose attach never
 * shows is the kernel's.
 */
static int wait_traced(struct engine *e, struct session *ss, int proc)
{
	struct proc_status ps;
	struct parse_error pe;
	unsigned int delay = 0;
	struct deadline dl;
	int i, lead = e->m.t[proc].leader, status;
	pid_t pid = ss->pid;

	deadline_start(&dl, session_sec(e));
	for (i = 0; i < e->m.n; i++) {
		if (e->m.t[i].leader != lead || e->m.t[i].life != ML_ALIVE)
			continue;
		for (;;) {
			if (status_read(e->m.t[lead].tid, e->m.t[i].tid, &ps, &pe) == 0 &&
			    ps.tracer_pid == pid)
				break;
			if (waitpid(pid, &status, WNOHANG) == pid) {
				ss->done = true;
				harness_err(e, "strace (pid %d) ended (status %#x) before it "
					    "traced %s: see %s", (int)pid, status, tname(e, i),
					    ss->out);
				return -1;
			}
			if (ps_stop_signal) {
				harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
				return -1;
			}
			if (deadline_expired(&dl)) {
				report(e, &(struct fdesc){ .check = "event", .rule = R_NONE,
							   .ntasks = 1, .tasks = { i } },
				       "strace (pid %d) did not attach to %s within %d s", (int)pid,
				       tname(e, i), session_sec(e));
				return -1;
			}
			backoff_sleep(&delay);
		}
	}
	return 0;
}

int v_strace(struct engine *e, const struct stmt *s)
{
	char *argv[8 + 2 * 64], pids[64][16];
	struct session *ss = new_session(e, s->name[0], false);
	int n = 0, k, i, x;

	if (!ss)
		return -1;
	argv[n++] = "strace";
	argv[n++] = "-f";
	argv[n++] = "-q";
	/* No syscall lines: exits and signals are what the model can check. */
	argv[n++] = "-e";
	argv[n++] = "trace=none";
	argv[n++] = "-o";
	argv[n++] = ss->out;
	for (k = 0; k < s->ntargets && k < 64; k++) {
		x = task_of(e, s->targets[k]);
		if (x < 0)
			return -1;
		x = e->m.t[x].leader;
		for (i = 0; i < e->m.n; i++) {
			if (e->m.t[i].leader == x && e->m.t[i].life == ML_ALIVE &&
			    e->m.t[i].tracer != M_NONE) {
				refuse(e, "strace: %s is already traced", tname(e, i));
				return -1;
			}
		}
		ss->targets[ss->ntargets++] = x;
		snprintf(pids[k], sizeof(pids[k]), "%d", (int)e->m.t[x].tid);
		argv[n++] = "-p";
		argv[n++] = pids[k];
	}
	argv[n] = NULL;
	/* strace -o writes the file itself; our redirect catches its own errors. */
	snprintf(ss->out + strlen(ss->out) - 4, 5, ".log");
	argv[6] = ss->out;
	if (start(e, ss, argv) < 0)
		return -1;
	for (k = 0; k < ss->ntargets; k++) {
		x = ss->targets[k];
		if (wait_traced(e, ss, x) < 0)
			return -1;
		for (i = 0; i < e->m.n; i++) {
			if (e->m.t[i].leader != x || e->m.t[i].life != ML_ALIVE)
				continue;
			/*
			 * strace -f: PTRACE_SEIZE with SYSGOOD, FORK, VFORK, CLONE, EXEC
			 * and EXIT (Debian 12's strace 6.1, as its ptrace_links show); it
			 * passes the exit stops itself.
			 */
			m_trace(&e->m, ss->task, i, PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE |
				PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC |
				PTRACE_O_TRACEEXIT, true, R_ATTACH_LINK);
			/* strace stops and resumes it on its own: 't' comes and goes. */
			e->e[i].any_state = true;
			e->e[i].dirty = true;
		}
	}
	return 0;
}

static struct session *find_session(struct engine *e, const char *name)
{
	int i;

	for (i = 0; i < e->nsessions; i++) {
		if (!strcmp(e->sessions[i].name, name) && !e->sessions[i].done)
			return &e->sessions[i];
	}
	refuse(e, "no running debugger session '%s'", name);
	return NULL;
}

/* R reaps the debugger; *status its wait status.  0 or -1. */
static int reap_debugger(struct engine *e, struct session *ss, int *status)
{
	struct wait_event ev;
	struct deadline dl;
	char what[96];
	int i;

	snprintf(what, sizeof(what), "the end of %s session %s (pid %d)",
		 ss->is_gdb ? "gdb" : "strace", ss->name, (int)ss->pid);
	deadline_start(&dl, session_sec(e));
	if (wait_event_for(ss->pid, &ev, &dl, what) < 0) {
		if (ps_stop_signal)
			harness_err(e, "interrupted by %s", sig_name(ps_stop_signal));
		else
			finding(e, "%s", ps_last_error());
		return -1;
	}
	*status = ev.status;
	ss->done = true;
	m_group_exit(&e->m, ss->task, WIFEXITED(ev.status) ? WEXITSTATUS(ev.status) : 0,
		     WIFSIGNALED(ev.status) ? WTERMSIG(ev.status) : 0);
	m_report(&e->m, 0, ss->task);
	/*
	 * Its SIGCHLD to R came when it ended, which may be long before this
	 * step (strace ends on its own when its last tracee is gone) and
	 * checked then as a child's: the notice the model makes now has
	 * nothing left to match.
	 */
	for (i = 0; i < e->m.nnotices; i++)
		if (e->m.notices[i].from == ss->task)
			e->m.notices[i].checked = e->m.notices[i].seen = true;
	return 0;
}

/* Tasks the session traced are its tracees no more (exit_ptrace()). */
static void untrace_all(struct engine *e, struct session *ss)
{
	int i;

	for (i = 0; i < e->m.n; i++) {
		if (e->m.t[i].tracer == ss->task)
			m_untrace(&e->m, i, R_EXIT_PTRACE);
		/* gdb may leave a SIGSTOP behind: its tasks' state stays unchecked. */
		if (e->e[i].uncertain && ss->is_gdb && e->m.t[i].leader == ss->proc)
			e->e[i].uncertain = false;
	}
}

/* Every exit strace collected must be in its output, as strace prints them. */
static int check_strace_output(struct engine *e, struct session *ss)
{
	char line[512], want[96];
	bool found;
	FILE *f;
	int k;

	for (k = 0; k < ss->nseen; k++) {
		if (ss->seen[k].sig)
			snprintf(want, sizeof(want), "+++ killed by SIG%s",
				 sigabbrev_np(ss->seen[k].sig));
		else
			snprintf(want, sizeof(want), "+++ exited with %d +++", ss->seen[k].code);
		f = fopen(ss->out, "r");
		if (!f) {
			harness_err(e, "strace output %s: %s", ss->out, strerror(errno));
			return -1;
		}
		found = false;
		/* strace -f -o FILE: "PID   +++ exited with N +++". */
		while (fgets(line, sizeof(line), f) && !found)
			found = atoi(line) == ss->seen[k].tid && strstr(line, want);
		fclose(f);
		e->st.checks++;
		if (!found) {
			finding(e, "strace session %s: no '%d %s' line for an exit it collected "
				"(output in %s)", ss->name, (int)ss->seen[k].tid, want, ss->out);
			return -1;
		}
	}
	return 0;
}

int v_stop(struct engine *e, const struct stmt *s)
{
	struct session *ss = find_session(e, s->name[0]);
	int status, i;

	if (!ss || ss->is_gdb) {
		if (ss)
			refuse(e, "stop is for strace sessions; use wait for gdb");
		return -1;
	}
	/*
	 * strace's SIGINT cleanup detaches every tracee running
	 * (PTRACE_INTERRUPT, then PTRACE_DETACH) and sends no SIGSTOP: from
	 * here on their State is the model's again.  (Before the reap: the
	 * model's exit of strace unlinks them, exit_ptrace().)  Left as "any
	 * State", a later SIGSTOP's group stop went unwaited for and the next
	 * attach raced it (host soaks, seeds 2 and 14).
	 */
	for (i = 0; i < e->m.n; i++) {
		if (e->m.t[i].tracer == ss->task) {
			e->e[i].any_state = false;
			e->e[i].dirty = true;
		}
	}
	kill(ss->pid, SIGINT);
	if (reap_debugger(e, ss, &status) < 0)
		return -1;
	untrace_all(e, ss);
	e->st.checks++;
	/* strace detaches, then dies of the signal it got (strace.c: cleanup()). */
	if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) &&
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		finding(e, "strace session %s: expected killed(SIGINT) or exited(0), status %#x "
			"(output in %s)", ss->name, status, ss->out);
		return -1;
	}
	return check_strace_output(e, ss);
}

int v_gdb(struct engine *e, const struct stmt *s)
{
	struct session *ss = new_session(e, s->name[0], true);
	char pid[16];
	char *argv[] = { "gdb", "-nx", "-q", "-batch", "-p", pid, "-ex", "info threads", "-ex",
			 NULL, NULL };
	int x = task_of(e, s->name[1]), i;

	if (!ss || x < 0)
		return -1;
	x = e->m.t[x].leader;
	for (i = 0; i < e->m.n; i++) {
		if (e->m.t[i].leader == x && e->m.t[i].life == ML_ALIVE &&
		    e->m.t[i].tracer != M_NONE) {
			refuse(e, "gdb: %s is already traced", tname(e, i));
			return -1;
		}
	}
	snprintf(pid, sizeof(pid), "%d", (int)e->m.t[x].tid);
	ss->proc = x;
	ss->gdb_quit = s->opts & O_GDB_QUIT;
	/* "quit" without detaching: gdb is SIGKILLed while attached (exit_ptrace()). */
	argv[9] = ss->gdb_quit ? "shell kill -9 $PPID" : "detach";
	if (start(e, ss, argv) < 0)
		return -1;
	for (i = 0; i < e->m.n; i++) {
		if (e->m.t[i].leader == x && e->m.t[i].life == ML_ALIVE) {
			e->e[i].uncertain = true;
			e->e[i].any_state = true;
		}
	}
	return 0;
}

int v_wait(struct engine *e, const struct stmt *s)
{
	struct session *ss = find_session(e, s->name[0]);
	int status, threads = 0, want = 0, i;
	char line[512];
	FILE *f;

	if (!ss || !ss->is_gdb) {
		if (ss)
			refuse(e, "wait is for gdb sessions; use stop for strace");
		return -1;
	}
	if (reap_debugger(e, ss, &status) < 0)
		return -1;
	untrace_all(e, ss);
	if (ss->gdb_quit)
		kill(e->m.t[ss->proc].tid, SIGCONT);	/* a SIGSTOP gdb left pending */
	e->st.checks++;
	if (ss->gdb_quit ? !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) :
	    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		finding(e, "gdb session %s: expected %s, status %#x (output in %s)", ss->name,
			ss->gdb_quit ? "killed(SIGKILL)" : "exited(0)", status, ss->out);
		return -1;
	}
	f = fopen(ss->out, "r");
	if (!f) {
		harness_err(e, "gdb output %s: %s", ss->out, strerror(errno));
		return -1;
	}
	/* "info threads": one line per thread, "  2    Thread 0x... (LWP 123) ...". */
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "(LWP ") && (line[0] == '*' || line[0] == ' '))
			threads++;
	}
	fclose(f);
	for (i = 0; i < e->m.n; i++)
		if (e->m.t[i].leader == ss->proc && e->m.t[i].life == ML_ALIVE &&
		    !e->m.t[i].exited)
			want++;
	e->st.checks++;
	if (threads != want) {
		finding(e, "gdb session %s: 'info threads' listed %d threads, the model has %d "
			"(output in %s)", ss->name, threads, want, ss->out);
		return -1;
	}
	return 0;
}

void ext_teardown(struct engine *e)
{
	int i;

	for (i = 0; i < e->nsessions; i++) {
		if (!e->sessions[i].done && e->sessions[i].pid > 0)
			kill(e->sessions[i].pid, SIGKILL);
	}
}
