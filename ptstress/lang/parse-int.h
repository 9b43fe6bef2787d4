/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of the parser, shared by parse.c (statements) and
 * parse-file.c (blocks, lines, includes, the entry points).
 */
#ifndef PTSTRESS_PARSE_INT_H
#define PTSTRESS_PARSE_INT_H

#include "lang/scenario-int.h"

/* A statement list being built: the file's top level or a repeat body. */
struct block {
	struct stmt *v;
	int n, cap;
	struct stmt head;	/* the repeat statement whose body this is */
};

struct parser {
	struct sc_arena *arena;
	struct sc_names *names;
	struct sc_error *err;
	bool no_includes;
	struct block blocks[SC_MAX_DEPTH + 2];
	int nblocks;
	int depth;		/* open repeat blocks + includes */
	long nstmts;
	struct {
		const char *name;
		dev_t dev;
		ino_t ino;
		bool id;
	} files[SC_MAX_DEPTH + 2];
	int nfiles;
	struct sc_line line;	/* one buffer: an include's line is done with when it recurses */
};

/* One statement being parsed: a cursor over the line's tokens. */
struct sp {
	struct parser *P;
	struct sc_src *src;
	struct sc_line *L;
	int i;
	struct stmt *st;
	const char *verb;
	int ncol[SC_MAX_NAMES];	/* column of each positional name, for messages */
};

/* "file:line:col: fmt..." at column @col of the statement's line.  -1. */
int err_at(struct sp *s, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The next token, or NULL with "too few arguments" at the end of the line. */
const struct sc_tok *need(struct sp *s, const char *what);
/* The positional arguments of @s->st->verb, its options, then definitions. */
int parse_args(struct sp *s);

#endif
