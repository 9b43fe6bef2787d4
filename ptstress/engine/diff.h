/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differential mode (diff.c): what one kernel showed, step by step, as a
 * stream of observations; a second kernel replaying the same steps must
 * show the same, whether or not the model has a rule for it.
 *
 * An observation is one line of text with every pid mapped to the
 * scenario's name for the task: an agent's reply (the chokepoint finish())
 * and a checked task's /proc status and ptrace_links (check_tasks()).
 * `--record FILE` writes them, `--against FILE` compares them one by one
 * with a recording; the first that differs is a finding of check
 * "differential".  Observations that are races by the kernel's contract
 * are not made (docs/fuzz.md lists them).
 */
#ifndef PTSTRESS_ENGINE_DIFF_H
#define PTSTRESS_ENGINE_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/ptstress.h"

struct engine;
struct agent_req;
struct agent_reply;

/* One run's observation stream, shared by its scenarios. */
struct obs_stream {
	FILE *rec;		/* --record: observations are written here */
	FILE *ref;		/* --against: the recording they must match */
	const char *ref_path;	/* its name, for messages */
	long n;			/* observations made so far */
	long ref_line;		/* lines of the recording read so far */
};

/* Open the files of --record / --against (either may be NULL).  0 or -errno. */
int obs_open(struct obs_stream *o, const char *record, const char *against);
/* Close them; -errno if the recording could not be written. */
int obs_close(struct obs_stream *o);
/* Is the engine recording or comparing? */
bool diff_on(const struct engine *e);
/*
 * Make observation @text (printf-style): write it, or compare it with the
 * recording's next line.  Returns 0, or -1 after reporting a differential
 * finding (task @task, -1 none).
 */
int diff_obs(struct engine *e, int task, const char *fmt, ...) PS_PRINTF(3, 4);
/* The reply of agent @i to @req. 0 or -1 (finding). */
int diff_reply(struct engine *e, int i, const struct agent_req *req,
	       const struct agent_reply *rep);
/*
 * Task @i's /proc status and ptrace_links: the reads the model's check
 * judged (@r: status_read()'s result, @ps its fields; @l NULL if the
 * links were not read, then they are read now).  Reading again would see
 * a task that moved on since (a signal's delivery after a seize, say): a
 * race the model's check did not judge.  0 or -1 (finding).
 */
struct proc_status;
struct ptrace_links;
int diff_task(struct engine *e, int i, int r, const struct proc_status *ps,
	      const struct ptrace_links *l);
/*
 * The threads of a namespace init's group exit while its namespace cannot
 * drain at once: which one is the last out and sleeps in
 * zap_pid_ns_processes() is the kernel's choice (find_child_reaper(),
 * kernel/exit.c:597-613), and with it which thread's ->children the
 * group's children end on (find_new_reaper(): a live sibling thread) and
 * which thread is a zombie by now.  True while @proc's group is so.
 */
bool zap_race(struct engine *e, int proc);
/* The start of a scenario, and its end (recording lines left over differ). 0 or -1. */
int diff_begin(struct engine *e);
int diff_end(struct engine *e);

#endif
