// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files, the frame: repeat blocks, lines, includes and the entry
 * points (parse.c does the statements).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/parse-int.h"

/* ---- blocks, lines, includes ---- */

/*
 * Open a scenario file for reading: 0, or an errno (EINVAL: not a regular
 * file).  O_NONBLOCK: opening a FIFO must not wait for a writer, and a
 * FIFO or /dev/zero would never end, so only regular files are read.
 */
static int open_regular(const char *path, FILE **f, struct stat *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r;

	*f = NULL;
	if (fd < 0)
		return errno;
	r = fstat(fd, sb) ? errno : S_ISDIR(sb->st_mode) ? EISDIR :
	    !S_ISREG(sb->st_mode) ? EINVAL : 0;
	if (!r) {
		*f = fdopen(fd, "r");
		if (!*f)
			r = errno;
	}
	if (r)
		close(fd);
	return r;
}

static int err_loc(struct parser *P, const struct sc_loc *loc, const char *msg)
{
	return sc_err(P->err, loc->file, loc->line, loc->col, "%s", msg);
}

static int append(struct parser *P, const struct stmt *st)
{
	struct block *b = &P->blocks[P->nblocks - 1];

	if (b->n == b->cap) {
		int cap = b->cap ? b->cap * 2 : 16;
		struct stmt *v = realloc(b->v, (size_t)cap * sizeof(*v));

		if (!v)
			return err_loc(P, &st->loc, "out of memory");
		b->v = v;
		b->cap = cap;
	}
	b->v[b->n++] = *st;
	return 0;
}

/* Move the top block's statements into the arena; they become @out. */
static int close_block(struct parser *P, struct stmt **out, int *n)
{
	struct block *b = &P->blocks[--P->nblocks];

	*out = NULL;
	*n = b->n;
	if (b->n) {
		*out = sc_arena_alloc(P->arena, (size_t)b->n * sizeof(**out));
		if (*out)
			memcpy(*out, b->v, (size_t)b->n * sizeof(**out));
	}
	free(b->v);
	b->v = NULL;
	if (b->n && !*out)
		return err_loc(P, &b->head.loc, "out of memory");
	return 0;
}

static int parse_src(struct parser *P, struct sc_src *src);

static int do_include(struct parser *P, struct sc_src *src, const struct sc_tok *t)
{
	struct sc_src inc = { 0 };
	const char *slash = strrchr(src->name, '/');
	struct stat sb;
	char *path;
	size_t dlen;
	int i, r;

	if (P->depth + 1 > SC_MAX_DEPTH)
		return sc_err(P->err, src->name, src->line, t->col,
			      "nesting deeper than %d (repeat blocks and includes)", SC_MAX_DEPTH);
	/* relative to the including file; a text's includes to the current directory */
	dlen = (t->s[0] != '/' && src->f && slash) ? (size_t)(slash - src->name) + 1 : 0;
	path = sc_arena_alloc(P->arena, dlen + (size_t)t->len + 1);
	if (!path)
		return sc_err(P->err, src->name, src->line, t->col, "out of memory");
	memcpy(path, src->name, dlen);
	memcpy(path + dlen, t->s, (size_t)t->len);
	if (memchr(t->s, '\0', (size_t)t->len) || !t->len)
		return sc_err(P->err, src->name, src->line, t->col, "bad include path");
	inc.name = path;
	r = open_regular(path, &inc.f, &sb);
	if (r == EINVAL || r == EISDIR)
		return sc_err(P->err, src->name, src->line, t->col, "cannot include '%s': %s",
			      path, r == EINVAL ? "not a regular file (a FIFO, a device?)" :
			      strerror(r));
	if (r)
		return sc_err(P->err, src->name, src->line, t->col, "cannot open include '%s': %s",
			      path, strerror(r));
	for (i = 0; i < P->nfiles; i++) {
		if (!P->files[i].id || P->files[i].dev != sb.st_dev || P->files[i].ino != sb.st_ino)
			continue;
		fclose(inc.f);
		sc_err(P->err, src->name, src->line, t->col, "include cycle: ");
		for (; i < P->nfiles; i++) {
			size_t len = strlen(P->err->msg);

			snprintf(P->err->msg + len, sizeof(P->err->msg) - len, "%s -> ",
				 P->files[i].name);
		}
		r = (int)strlen(P->err->msg);
		snprintf(P->err->msg + r, sizeof(P->err->msg) - (size_t)r, "%s", path);
		return -1;
	}
	P->files[P->nfiles].name = path;
	P->files[P->nfiles].dev = sb.st_dev;
	P->files[P->nfiles].ino = sb.st_ino;
	P->files[P->nfiles].id = true;
	P->nfiles++;
	P->depth++;
	r = parse_src(P, &inc);
	P->depth--;
	P->nfiles--;
	fclose(inc.f);
	return r;
}

static int parse_line(struct parser *P, struct sc_src *src, int base, bool first)
{
	struct sc_line *L = &P->line;
	const struct sc_tok *t0 = &L->tok[0];
	struct stmt st = { 0 };
	struct sp s = { .P = P, .src = src, .L = L, .i = 1, .st = &st };
	int v;

	if (sc_tok_is(t0, "scenario") || sc_tok_is(t0, "end") || sc_tok_is(t0, "include")) {
		s.verb = sc_tok_is(t0, "end") ? "end" : sc_tok_is(t0, "include") ? "include" :
			 "scenario";
		if (L->ntok > 2 || (L->ntok > 1 && s.verb[0] == 'e'))
			return err_at(&s, L->tok[L->ntok - 1].col,
				      "too many arguments: unexpected '%.*s'",
				      L->tok[L->ntok - 1].len > 40 ? 40 : L->tok[L->ntok - 1].len,
				      L->tok[L->ntok - 1].s);
		if (s.verb[0] == 'e') {
			struct block *b = &P->blocks[P->nblocks - 1];

			if (P->nblocks <= base)
				return err_at(&s, t0->col, "end without repeat");
			b->head.body = NULL;
			if (close_block(P, &b->head.body, &b->head.nbody))
				return -1;
			P->depth--;
			return append(P, &b->head);
		}
		if (!need(&s, s.verb[0] == 'i' ? "a path" : "NAME"))
			return -1;
		if (s.verb[0] == 's') {
			/* a title for people; not stored, so not part of scenario_equal() */
			if (!first)
				return err_at(&s, t0->col, "scenario must be the first statement");
			return sc_tok_name(src, &L->tok[1], st.name[0], P->err);
		}
		if (P->no_includes)
			return err_at(&s, t0->col, "include is not allowed here");
		return do_include(P, src, &L->tok[1]);
	}

	for (v = 0; v < V_NR_VERBS; v++)
		if (sc_tok_is(t0, sc_verbdefs[v].name))
			break;
	if (v == V_NR_VERBS)
		return err_at(&s, t0->col, "unknown verb '%.*s'", t0->len > 40 ? 40 : t0->len,
			      t0->s);
	st.verb = (enum sc_verb)v;
	st.loc.file = src->name;
	st.loc.line = src->line;
	st.loc.col = t0->col;
	s.verb = sc_verbdefs[v].name;
	if (++P->nstmts > SC_MAX_STMTS)
		return err_at(&s, t0->col, "more than %d statements", SC_MAX_STMTS);
	if (parse_args(&s))
		return -1;
	if (st.verb != V_REPEAT)
		return append(P, &st);
	if (P->depth + 1 > SC_MAX_DEPTH)
		return err_at(&s, t0->col, "nesting deeper than %d (repeat blocks and includes)",
			      SC_MAX_DEPTH);
	P->depth++;
	memset(&P->blocks[P->nblocks], 0, sizeof(P->blocks[0]));
	P->blocks[P->nblocks++].head = st;
	return 0;
}

static int parse_src(struct parser *P, struct sc_src *src)
{
	int base = P->nblocks, r;
	bool first = true;

	for (;;) {
		r = sc_read_line(src, &P->line, P->err);
		if (r <= 0)
			break;
		if (sc_tokenize(src, &P->line, P->err))
			return -1;
		if (!P->line.ntok)
			continue;
		if (parse_line(P, src, base, first))
			return -1;
		first = false;
	}
	if (r < 0)
		return -1;
	if (P->nblocks > base)
		return err_loc(P, &P->blocks[P->nblocks - 1].head.loc, "repeat without end");
	return 0;
}

static int parse(const char *name, struct sc_src *src, bool no_includes, struct scenario *sc,
		 struct sc_error *err)
{
	struct parser *P = calloc(1, sizeof(*P));
	int r = -1, i;

	memset(sc, 0, sizeof(*sc));
	memset(err, 0, sizeof(*err));
	if (!P)
		return sc_err(err, name, 0, 0, "out of memory");
	P->err = err;
	P->no_includes = no_includes;
	P->arena = sc_arena_new();
	P->names = sc_names_new();
	if (P->arena)
		src->name = sc_arena_strndup(P->arena, name, strlen(name));
	if (!P->arena || !P->names || !src->name) {
		sc_err(err, name, 0, 0, "out of memory");
		goto out;
	}
	P->files[0].name = src->name;
	P->files[0].dev = src->dev;
	P->files[0].ino = src->ino;
	P->files[0].id = src->f != NULL;
	P->nfiles = 1;
	P->nblocks = 1;
	if (parse_src(P, src) || close_block(P, &sc->stmts, &sc->nstmts))
		goto out;
	sc->path = src->name;
	sc->arena = P->arena;
	P->arena = NULL;
	r = 0;
out:
	for (i = 0; i < P->nblocks; i++)
		free(P->blocks[i].v);
	if (r) {
		sc->stmts = NULL;
		sc->nstmts = 0;
	}
	sc_arena_free(P->arena);
	sc_names_free(P->names);
	free(P);
	return r;
}

int scenario_parse_file(const char *path, struct scenario *sc, struct sc_error *err)
{
	struct sc_src src = { 0 };
	struct stat sb;
	int r;

	r = open_regular(path, &src.f, &sb);
	if (r == EINVAL) {
		memset(sc, 0, sizeof(*sc));
		return sc_err(err, path, 0, 0, "not a regular file (a FIFO, a device?)");
	}
	if (r) {
		memset(sc, 0, sizeof(*sc));
		return sc_err(err, path, 0, 0, "cannot open: %s", strerror(r));
	}
	src.dev = sb.st_dev;
	src.ino = sb.st_ino;
	r = parse(path, &src, false, sc, err);
	fclose(src.f);
	return r;
}

int scenario_parse_text(const char *name, const char *text, size_t len, bool no_includes,
			struct scenario *sc, struct sc_error *err)
{
	struct sc_src src = { .p = text, .end = text + len };

	return parse(name ? name : "<text>", &src, no_includes, sc, err);
}

void scenario_free(struct scenario *sc)
{
	sc_arena_free(sc->arena);
	memset(sc, 0, sizeof(*sc));
}
