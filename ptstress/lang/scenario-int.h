/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the scenario lexer (lex.c), parser (parse.c) and
 * printer (print.c).  Not part of the engine's contract: use scenario.h.
 */
#ifndef PTSTRESS_SCENARIO_INT_H
#define PTSTRESS_SCENARIO_INT_H

#include <stdio.h>
#include <sys/types.h>

#include "lang/scenario.h"

/*
 * Limits beyond scenario.h's, so that a hostile or fuzzed file cannot make
 * the parser run for minutes or eat gigabytes: a "tree" statement alone can
 * define 20000 process names.
 */
#define SC_MAX_TOKS		160	/* tokens of one line */
#define SC_MAX_TARGETS		64	/* strace tasks */
#define SC_MAX_NAMES_TOTAL	200000	/* distinct names of one scenario */
#define SC_MAX_DEFS		4000000	/* name definitions, redefinitions included */
#define SC_MAX_TREE		20000	/* processes of one tree */

/* Keyword options, in the order the printer writes them. */
enum sc_optid {
	OPT_DEPTH, OPT_FANOUT, OPT_TASKS, OPT_TRACERS, OPT_ROUNDS,
	OPT_PARENT, OPT_THREADS, OPT_SEED,
	OPT_SUBREAPER, OPT_PIDNS, OPT_SETNS, OPT_EXITSIG, OPT_CLONE_PARENT, OPT_VFORK,
	OPT_EXITKILL, OPT_SYSGOOD, OPT_TRACECLONE, OPT_TRACEFORK, OPT_TRACEVFORK,
	OPT_TRACEEXEC, OPT_TRACEEXIT, OPT_TRACEVFORKDONE,
	OPT_QUIT,
	OPT_THREADONLY,
	OPT_IGNORE, OPT_NOCLDWAIT,
	OPT_NOWAIT, OPT_NOTHREAD, OPT_WCLONE, OPT_WALL, OPT_WSTOPPED, OPT_WCONTINUED,
	OPT_PIDFD,
	OPT_DETACH,
	OPT_FAILS, OPT_WITHIN,
	OPT_NR
};

#define OPTB(o)		(1ull << (o))
/* The option masks are 64 bits wide. */
_Static_assert(OPT_NR <= 64, "OPTB() masks are 64 bits wide");
#define CL_FAILS	OPTB(OPT_FAILS)
#define CL_WITHIN	OPTB(OPT_WITHIN)
#define OPTS_CLAUSES	(CL_FAILS | CL_WITHIN)

/* The positional arguments of a verb (verbs.def). */
enum sc_shape {
	SH_NONE,		/* no positional argument */
	SH_DEF,			/* NAME: defines a process */
	SH_TREE,		/* NAME: defines a tree of processes */
	SH_THREAD,		/* NAME in PROC: defines a thread */
	SH_PROC,		/* PROC */
	SH_PROC_ONOFF,		/* PROC on|off */
	SH_PROC_PROC,		/* PROC [TASK] */
	SH_TR_TASK,		/* TRACER TASK */
	SH_TR_TASK_SIG,		/* TRACER TASK [SIG] */
	SH_TR_TR_TASK,		/* TRACER TRACER TASK */
	SH_TASK,		/* TASK */
	SH_TASK_SIG,		/* TASK SIG */
	SH_TASK_CODE,		/* TASK [CODE] */
	SH_TRACER,		/* TRACER */
	SH_SESSION_TASKS,	/* SESSION TASK... : defines a session */
	SH_SESSION_PROC,	/* SESSION PROC: defines a session */
	SH_SESSION,		/* SESSION */
	SH_EXPECT,		/* ppid|tracer|state TASK VALUE */
	SH_NUM,			/* N in [nmin, nmax] */
	SH_KERNEL,		/* MAJOR.MINOR "reason" */
};

enum sc_opttype { OT_FLAG, OT_NUM, OT_NAME, OT_ERRS, OT_SIG };

struct sc_optdef {
	const char *word;
	enum sc_opttype type;
	unsigned int bit;	/* OT_FLAG: the enum sc_opt bit */
	long min, max;		/* OT_NUM */
};

/* A row of verbs.def, as the language sees it. */
struct sc_verbdef {
	const char *name;
	enum sc_shape shape;	/* its positional arguments */
	unsigned long long opts;	/* OPTB() of the options and clauses it takes */
	unsigned long long required;	/* OPTB() of the options it must have */
	unsigned int not_r;	/* bit k: positional name k may not be R */
	long nmin, nmax;	/* SH_NUM, SH_TASK_CODE: the number's range */
	int weight;		/* stress/fuzz frequency; 0 never drawn; W_FUZZ_ONLY */
};

extern const struct sc_optdef sc_optdefs[OPT_NR];
extern const struct sc_verbdef sc_verbdefs[V_NR_VERBS];

/* The value of numeric option @o of @st, and whether the printer writes it. */
const char *sc_opt_name(const struct stmt *st, enum sc_optid o);
long sc_opt_get(const struct stmt *st, enum sc_optid o);
bool sc_opt_present(const struct stmt *st, enum sc_optid o);
/* Set numeric option @o: @v, or @uv for OPT_SEED. */
void sc_opt_set(struct stmt *st, enum sc_optid o, long v, unsigned long uv);

/* ---- arena (lex.c): every allocation a scenario owns ---- */
struct sc_arena;
struct sc_arena *sc_arena_new(void);
void *sc_arena_alloc(struct sc_arena *a, size_t size);	/* zeroed; NULL on ENOMEM */
char *sc_arena_strndup(struct sc_arena *a, const char *s, size_t len);
void sc_arena_free(struct sc_arena *a);

/* ---- line reader and tokenizer (lex.c) ---- */
struct sc_src {
	const char *name;	/* interned path, for messages and sc_loc */
	FILE *f;		/* a file, or NULL: the bytes p..end */
	const char *p, *end;
	int line;		/* of the last line read */
	dev_t dev;		/* of a file, for include cycles */
	ino_t ino;
};

struct sc_tok {
	const char *s;		/* not NUL-terminated */
	int len;
	int col;		/* 1-based */
	bool quoted;		/* "...": s and len are inside the quotes */
};

struct sc_line {
	char buf[SC_MAX_LINE + 1];
	int len;
	struct sc_tok tok[SC_MAX_TOKS];
	int ntok;
	int endcol;		/* column just after the last token */
};

/* Fill @err with "src:line:col: fmt...". Returns -1 for "return sc_err(...)". */
int sc_err(struct sc_error *err, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Read the next line: 1, 0 at the end, -1 with @err set. */
int sc_read_line(struct sc_src *src, struct sc_line *l, struct sc_error *err);
/* Split @l into tokens: 0, or -1 with @err set (binary data, bad quotes). */
int sc_tokenize(struct sc_src *src, struct sc_line *l, struct sc_error *err);
bool sc_tok_is(const struct sc_tok *t, const char *word);

/* Token conversions: 0, or -1 with @err set at the token. */
int sc_tok_num(struct sc_src *src, const struct sc_tok *t, const char *what, long min, long max,
	       long *out, struct sc_error *err);
int sc_tok_ulong(struct sc_src *src, const struct sc_tok *t, const char *what,
		 unsigned long *out, struct sc_error *err);
int sc_tok_sig(struct sc_src *src, const struct sc_tok *t, int *out, struct sc_error *err);
/* Like sc_tok_sig() but only answers whether @t is a signal. */
bool sc_tok_looks_sig(const struct sc_tok *t);
int sc_tok_errno(struct sc_src *src, const struct sc_tok *t, int *out, struct sc_error *err);
/* Check the name syntax and copy it to @out (SC_NAME_LEN bytes). */
int sc_tok_name(struct sc_src *src, const struct sc_tok *t, char *out, struct sc_error *err);

/* ---- names (lex.c) ---- */
struct sc_names;
struct sc_names *sc_names_new(void);
void sc_names_free(struct sc_names *n);
/* The kind @name has now: an explicit definition or an implicit NAME.tK. */
enum sc_kind sc_names_kind(struct sc_names *n, const char *name);
/*
 * Define @name as @kind; @threads > 0 also defines @name.t1 .. @name.tN.
 * 0, or -1 with @msg (SC_ERRMSG bytes) saying why.
 */
#define SC_ERRMSG 200
int sc_names_define(struct sc_names *n, const char *name, enum sc_kind kind, int threads,
		    char *msg);
const char *sc_kind_name(enum sc_kind k);

#endif /* PTSTRESS_SCENARIO_INT_H */
