/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenario files: the language users write and fuzz mode prints.
 *
 * One statement per line: a verb, positional arguments, keyword options,
 * then optional trailing clauses; '#' starts a comment.  The grammar and an
 * example per verb are in docs/scenario-format.md.  The parser (parse.c)
 * reads a file into a tree of struct stmt with includes expanded and names
 * resolved; the printer (print.c) writes the canonical text of that tree, so
 * that parse(print(parse(f))) == parse(f) (scenario_equal()).
 *
 * Names: [A-Za-z_][A-Za-z0-9_]* with optional ".suffix" parts of the same
 * characters or digits ("a", "tree.1.2", "p.t3").  "R" is predefined: the
 * controller (ptstress itself, a child subreaper).  Every name a statement
 * uses must have been defined by an earlier statement (in file order,
 * repeat bodies included); a name may be defined again, with the same kind,
 * by a later statement (e.g. inside a repeat body): it then names the newest
 * task, and the engine keeps the older one in its model under "name#N".
 */
#ifndef PTSTRESS_SCENARIO_H
#define PTSTRESS_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>

#define SC_NAME_LEN	48	/* longest name + NUL */
#define SC_MAX_NAMES	3	/* positional names of one statement */
#define SC_MAX_ERRS	4	/* errnos of one "fails" clause */
#define SC_MAX_DEPTH	16	/* nested repeat blocks and includes */
#define SC_MAX_STMTS	100000	/* statements of one file after includes */
#define SC_MAX_LINE	4096	/* longer lines are an error (not a crash) */

/* What a name stands for; the parser checks each use against the kind. */
enum sc_kind {
	K_NONE,
	K_PROC,		/* a process (its name also names its leader thread) */
	K_THREAD,	/* a non-leader thread of a process */
	K_SESSION,	/* a strace or gdb session */
};

/* The verbs, one per row of verbs.def (V_PROCESS, V_SEIZE, ...). */
enum sc_verb {
#define VERB(id, name, shape, opts, req, cl, not_r, nmin, nmax, w, handler, gen) V_##id,
#include "lang/verbs.def"
#undef VERB
	V_NR_VERBS
};

/* Keyword options and flags (a bit each in struct stmt.opts). */
enum sc_opt {
	/* ptrace options of seize/attach: PTRACE_O_* */
	O_EXITKILL	= 1u << 0,	/* exitkill */
	O_SYSGOOD	= 1u << 1,	/* sysgood: PTRACE_O_TRACESYSGOOD */
	O_TRACECLONE	= 1u << 2,	/* traceclone */
	O_TRACEFORK	= 1u << 3,	/* tracefork */
	O_TRACEVFORK	= 1u << 4,	/* tracevfork */
	O_TRACEEXEC	= 1u << 5,	/* traceexec */
	O_TRACEEXIT	= 1u << 6,	/* traceexit */
	O_TRACEVFORKDONE = 1u << 7,	/* tracevforkdone */
	/* process/tracer */
	O_SUBREAPER	= 1u << 8,	/* subreaper: PR_SET_CHILD_SUBREAPER at birth */
	O_PIDNS		= 1u << 9,	/* pidns: init of a new pid namespace */
	/* subreaper PROC on|off */
	O_ON		= 1u << 10,	/* on (absent: off) */
	/* gdb SESSION PROC quit */
	O_GDB_QUIT	= 1u << 11,	/* quit without detaching */
	/* exit PROC [CODE] thread: only the leader thread exits (SYS_exit) */
	O_THREAD_ONLY	= 1u << 12,
	/* sigchld PROC [ignore] [nocldwait]: SIGCHLD's sa_handler and sa_flags */
	O_IGNORE	= 1u << 13,	/* SIG_IGN (absent: SIG_DFL) */
	O_NOCLDWAIT	= 1u << 14,	/* SA_NOCLDWAIT */
	/* process NAME parent P clone-parent: clone(CLONE_PARENT) by P */
	O_CLONE_PARENT	= 1u << 15,
	/* waitid PROC [TASK] ...: the wait's flags */
	O_NOWAIT	= 1u << 16,	/* WNOWAIT: report, leave the zombie waitable */
	O_NOTHREAD	= 1u << 17,	/* __WNOTHREAD: the calling thread's children only */
	O_WCLONE	= 1u << 18,	/* __WCLONE: children with another exit signal only */
	O_WALL		= 1u << 19,	/* __WALL: every child, whatever its exit signal */
	O_WSTOPPED	= 1u << 20,	/* WSTOPPED: a child's completed group stop too */
	O_WCONTINUED	= 1u << 21,	/* WCONTINUED: a child's continue too */
	/* process NAME parent P vfork: clone(CLONE_VM | CLONE_VFORK) by P */
	O_VFORK		= 1u << 22,
	/* waitid PROC TASK pidfd: waitid(P_PIDFD) on a PIDFD_NONBLOCK pidfd */
	O_PIDFD		= 1u << 23,
	/* race-attach T U TASK detach: the winner detaches within the step */
	O_RACE_DETACH	= 1u << 24,
};

/* What "expect" checks. */
enum sc_expect {
	E_PPID,		/* expect ppid TASK PROC|init: PPid is PROC's tgid (init: 1) */
	E_TRACER,	/* expect tracer TASK TRACER|none */
	E_STATE,	/* expect state TASK running|stopped|traced|zombie|gone */
};

/* The task states "expect state" names. */
enum sc_state {
	ST_RUNNING,	/* R or S or D */
	ST_STOPPED,	/* T: group-stop */
	ST_TRACED,	/* t: ptrace-stop */
	ST_ZOMBIE,	/* Z */
	ST_GONE,	/* no /proc entry */
};

/* Where a statement came from, for runtime messages "file:line:col". */
struct sc_loc {
	const char *file;	/* path as given (interned; lives as long as the scenario) */
	int line;		/* 1-based */
	int col;		/* 1-based column of the verb */
};

/* One statement.  Fields a verb does not use are zero / empty. */
struct stmt {
	enum sc_verb verb;
	struct sc_loc loc;
	/* positional names, in the order the verb's synopsis gives them */
	char name[SC_MAX_NAMES][SC_NAME_LEN];
	int nnames;
	/* V_STRACE: the traced tasks after SESSION (any number) */
	char (*targets)[SC_NAME_LEN];
	int ntargets;
	unsigned int opts;	/* enum sc_opt bits */
	int sig;		/* signal argument (kill/tkill/cont/detach); 0 = none */
	long num;		/* exit code, repeat count, sleep ms, timeout sec */
	char parent[SC_NAME_LEN]; /* "parent PROC"; empty = R */
	char setns[SC_NAME_LEN]; /* "setns TASK": fork into TASK's pid namespace; empty */
	int threads;		/* "threads N": extra threads (process, tree, stress) */
	int exitsig;		/* "exit-signal SIG|none": the clone exit signal of a
				 * process; 0 not given (SIGCHLD), -1 none (0) */
	int depth, fanout;	/* tree */
	enum sc_expect what;	/* V_EXPECT */
	enum sc_state state;	/* V_EXPECT state: the value */
	/* stress */
	int tasks, tracers, rounds;
	unsigned long seed;
	/* trailing clauses, on the verbs whose row (verbs.def) honours them */
	int fails[SC_MAX_ERRS];	/* "fails EPERM|ESRCH": the step must fail so */
	int nfails;
	int within;		/* "within SEC": this step's deadline; 0 = default */
	/* V_KERNEL: the reason (num is MAJOR * 1000 + MINOR); interned */
	const char *text;
	/* V_REPEAT */
	struct stmt *body;
	int nbody;
};

/* A parsed scenario file with includes expanded. */
struct scenario {
	const char *path;	/* the top file */
	struct stmt *stmts;
	int nstmts;
	void *arena;		/* owner of interned strings and arrays; internal */
};

/* A parse error, "file:line:col: message". */
struct sc_error {
	char file[256];
	int line, col;		/* 1-based; 0 if not applicable */
	char msg[256];
};

/*
 * Parse @path (includes relative to the including file's directory).
 * Returns 0, or -1 with @err filled in; never crashes on any input.
 */
int scenario_parse_file(const char *path, struct scenario *sc, struct sc_error *err);
/*
 * Parse @len bytes of text named @name (for messages).  Includes are read
 * from the file system relative to the current directory, unless
 * @no_includes (the fuzz harness), when "include" is an error.
 */
int scenario_parse_text(const char *name, const char *text, size_t len, bool no_includes,
			struct scenario *sc, struct sc_error *err);
void scenario_free(struct scenario *sc);
/* "file:line:col: message" on stderr. */
void sc_error_print(const struct sc_error *err);

/* Canonical text of @sc: one statement a line, repeat bodies indented by a tab. */
char *scenario_print(const struct scenario *sc);	/* malloc()ed; NULL on ENOMEM */
/* Same statements, ignoring locations. */
bool scenario_equal(const struct scenario *a, const struct scenario *b);

const char *sc_verb_name(enum sc_verb v);
/* A verbs.def weight with this bit (FUZZ(w)) is drawn by fuzz mode only. */
#define W_FUZZ_ONLY	0x10000
/* The verb's stress/fuzz weight, from its row of verbs.def (0: never drawn). */
int sc_verb_weight(enum sc_verb v);
/* Whether only fuzz mode draws the verb (FUZZ(w) in verbs.def). */
bool sc_verb_fuzz_only(enum sc_verb v);
/* Does the verb's row honour "fails" / "within"? */
bool sc_verb_takes_fails(enum sc_verb v);
bool sc_verb_takes_within(enum sc_verb v);
/* Canonical signal name ("SIGKILL") and errno name ("EPERM"); NULL if unknown. */
const char *sc_sig_name(int sig);
const char *sc_errno_name(int err);

#endif /* PTSTRESS_SCENARIO_H */
