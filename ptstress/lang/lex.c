// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario files, the bottom half: the arena, the line reader, the
 * tokenizer, numbers, signals, errnos, name syntax and the name table.
 *
 * Every input must end in a clean error or a scenario, never a crash, an
 * unbounded allocation or minutes of work: the fuzz harness feeds this.
 * Hence fixed-size line buffers (a 10 MB line is counted, not stored), and
 * the name table's limits (scenario-int.h).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang/scenario-int.h"

/* ---- arena ---- */

struct sc_chunk {
	struct sc_chunk *next;
	max_align_t data[];
};

struct sc_arena {
	struct sc_chunk *head;
};

struct sc_arena *sc_arena_new(void)
{
	return calloc(1, sizeof(struct sc_arena));
}

void *sc_arena_alloc(struct sc_arena *a, size_t size)
{
	struct sc_chunk *c = calloc(1, sizeof(*c) + size);

	if (!c)
		return NULL;
	c->next = a->head;
	a->head = c;
	return c->data;
}

char *sc_arena_strndup(struct sc_arena *a, const char *s, size_t len)
{
	char *p = sc_arena_alloc(a, len + 1);

	if (p)
		memcpy(p, s, len);
	return p;
}

void sc_arena_free(struct sc_arena *a)
{
	struct sc_chunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

/* ---- errors ---- */

int sc_err(struct sc_error *err, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;

	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->col = col;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void sc_error_print(const struct sc_error *err)
{
	if (err->line > 0 && err->col > 0)
		fprintf(stderr, "%s:%d:%d: %s\n", err->file, err->line, err->col, err->msg);
	else if (err->line > 0)
		fprintf(stderr, "%s:%d: %s\n", err->file, err->line, err->msg);
	else
		fprintf(stderr, "%s: %s\n", err->file, err->msg);
}

/* ---- lines and tokens ---- */

int sc_read_line(struct sc_src *src, struct sc_line *l, struct sc_error *err)
{
	size_t total = 0;
	int last = -1;

	if (src->f) {
		int c;
		bool any = false;

		while ((c = getc_unlocked(src->f)) != EOF) {
			any = true;
			if (c == '\n')
				break;
			if (total < sizeof(l->buf))
				l->buf[total] = (char)c;
			total++;
			last = c;
		}
		if (ferror(src->f))
			return sc_err(err, src->name, src->line + 1, 0, "read error: %s",
				      strerror(errno));
		if (!any)
			return 0;
	} else {
		const char *nl;

		if (src->p >= src->end)
			return 0;
		nl = memchr(src->p, '\n', (size_t)(src->end - src->p));
		total = (size_t)((nl ? nl : src->end) - src->p);
		if (total)
			last = (unsigned char)src->p[total - 1];
		if (total <= SC_MAX_LINE + 1)
			memcpy(l->buf, src->p, total > SC_MAX_LINE ? SC_MAX_LINE : total);
		src->p = nl ? nl + 1 : src->end;
	}
	src->line++;
	if (last == '\r')
		total--;	/* CRLF */
	if (total > SC_MAX_LINE)
		return sc_err(err, src->name, src->line, 1, "line too long (%zu bytes, max %d)",
			      total, SC_MAX_LINE);
	l->len = (int)total;
	l->buf[total] = '\0';
	return 1;
}

/* Length of the UTF-8 sequence at @s (at most @n bytes), 0 if it is not one. */
static int utf8_len(const unsigned char *s, int n)
{
	int len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

int sc_tokenize(struct sc_src *src, struct sc_line *l, struct sc_error *err)
{
	const unsigned char *b = (const unsigned char *)l->buf;
	int i = 0, n = l->len;

	l->ntok = 0;
	l->endcol = 1;
	while (i < n) {
		struct sc_tok *t;
		int start = i;

		if (b[i] == ' ' || b[i] == '\t') {
			i++;
			continue;
		}
		if (b[i] == '#')
			break;
		if (l->ntok == SC_MAX_TOKS)
			return sc_err(err, src->name, src->line, i + 1,
				      "too many arguments (more than %d words on a line)",
				      SC_MAX_TOKS);
		t = &l->tok[l->ntok++];
		t->col = i + 1;
		t->quoted = b[i] == '"';
		if (t->quoted)
			i++;
		while (i < n) {
			int u;

			if (t->quoted ? b[i] == '"' :
			    (b[i] == ' ' || b[i] == '\t' || b[i] == '#'))
				break;
			if (b[i] < 0x20 || b[i] == 0x7f)
				return sc_err(err, src->name, src->line, i + 1,
					      "binary data (byte 0x%02x)", b[i]);
			if (b[i] < 0x80) {
				i++;
				continue;
			}
			u = utf8_len(b + i, n - i);
			if (!u)
				return sc_err(err, src->name, src->line, i + 1,
					      "binary data (byte 0x%02x is not UTF-8)", b[i]);
			i += u;
		}
		if (t->quoted) {
			if (i >= n)
				return sc_err(err, src->name, src->line, start + 1,
					      "unterminated string");
			t->s = l->buf + start + 1;
			t->len = i - start - 1;
			i++;
			if (i < n && b[i] != ' ' && b[i] != '\t' && b[i] != '#')
				return sc_err(err, src->name, src->line, i + 1,
					      "expected a space after the closing quote");
		} else {
			t->s = l->buf + start;
			t->len = i - start;
		}
		l->endcol = i + 1;
	}
	return 0;
}

bool sc_tok_is(const struct sc_tok *t, const char *word)
{
	return !t->quoted && (int)strlen(word) == t->len && !memcmp(t->s, word, (size_t)t->len);
}

/* ---- numbers, signals, errnos ---- */

static int no_quotes(struct sc_src *src, const struct sc_tok *t, struct sc_error *err)
{
	if (t->quoted)
		return sc_err(err, src->name, src->line, t->col,
			      "a quoted string is only allowed as an include path");
	return 0;
}

/* Decimal digits to @out; 1 if not all digits, 2 on overflow. */
static int digits(const char *s, int len, unsigned long max, unsigned long *out)
{
	unsigned long v = 0;
	int i;

	if (len <= 0)
		return 1;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (d > 9)
			return 1;
		if (v > (max - d) / 10)
			return 2;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int sc_tok_num(struct sc_src *src, const struct sc_tok *t, const char *what, long min, long max,
	       long *out, struct sc_error *err)
{
	bool neg = t->len > 1 && t->s[0] == '-';
	unsigned long v = 0;
	int r;

	if (no_quotes(src, t, err))
		return -1;
	r = digits(t->s + neg, t->len - neg, LONG_MAX, &v);
	if (r == 1)
		return sc_err(err, src->name, src->line, t->col,
			      "%s: expected a number, got '%.*s'", what, t->len > 40 ? 40 : t->len,
			      t->s);
	if (r == 2 || neg || (long)v < min || (long)v > max)
		return sc_err(err, src->name, src->line, t->col,
			      "%s %.*s out of range (%ld..%ld)", what,
			      t->len > 40 ? 40 : t->len, t->s, min, max);
	*out = (long)v;
	return 0;
}

int sc_tok_ulong(struct sc_src *src, const struct sc_tok *t, const char *what,
		 unsigned long *out, struct sc_error *err)
{
	int r;

	if (no_quotes(src, t, err))
		return -1;
	r = digits(t->s, t->len, ULONG_MAX, out);
	if (r == 1)
		return sc_err(err, src->name, src->line, t->col,
			      "%s: expected a number, got '%.*s'", what, t->len > 40 ? 40 : t->len,
			      t->s);
	if (r == 2)
		return sc_err(err, src->name, src->line, t->col,
			      "%s %.*s out of range (0..%lu)", what,
			      t->len > 40 ? 40 : t->len, t->s, ULONG_MAX);
	return 0;
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static char sig_names[65][16];		/* "SIGKILL"; "" if glibc has no name */
#define MAX_ERRNO 200
static const char *errno_names[MAX_ERRNO + 1];

static void tables_init(void)
{
	int i;

	for (i = 1; i <= 64; i++) {
		const char *a = sigabbrev_np(i);

		if (a)
			snprintf(sig_names[i], sizeof(sig_names[i]), "SIG%s", a);
	}
	for (i = 1; i <= MAX_ERRNO; i++)
		errno_names[i] = strerrorname_np(i);
}

const char *sc_sig_name(int sig)
{
	pthread_once(&tables_once, tables_init);
	if (sig < 1 || sig > 64 || !sig_names[sig][0])
		return NULL;
	return sig_names[sig];
}

const char *sc_errno_name(int e)
{
	pthread_once(&tables_once, tables_init);
	if (e < 1 || e > MAX_ERRNO)
		return NULL;
	return errno_names[e];
}

/* 0 and @out, or -1 not a signal, -2 a number out of range. */
static int sig_lookup(const struct sc_tok *t, int *out)
{
	static const struct { const char *name; int sig; } aliases[] = {
		{ "IOT", SIGABRT }, { "POLL", SIGIO }, { "CLD", SIGCHLD },
	};
	char buf[32];
	unsigned long v = 0;
	const char *s = t->s;
	int len = t->len, i, r;

	if (t->quoted)
		return -1;
	r = digits(s, len, 1000, &v);
	if (r != 1) {
		if (r == 2 || v < 1 || v > 64)
			return -2;
		*out = (int)v;
		return 0;
	}
	if (len > 3 && !memcmp(s, "SIG", 3)) {
		s += 3;
		len -= 3;
	}
	if (len >= (int)sizeof(buf))
		return -1;
	memcpy(buf, s, (size_t)len);
	buf[len] = '\0';
	pthread_once(&tables_once, tables_init);
	for (i = 1; i <= 64; i++)
		if (sig_names[i][0] && !strcmp(sig_names[i] + 3, buf)) {
			*out = i;
			return 0;
		}
	for (i = 0; i < (int)(sizeof(aliases) / sizeof(aliases[0])); i++)
		if (!strcmp(aliases[i].name, buf)) {
			*out = aliases[i].sig;
			return 0;
		}
	/* RTMIN, RTMIN+n, RTMAX, RTMAX-n: glibc's values, not the kernel's 32 */
	if (!strncmp(buf, "RTMIN", 5) || !strncmp(buf, "RTMAX", 5)) {
		bool min = buf[4] == 'N';
		int base = min ? SIGRTMIN : SIGRTMAX;

		if (!buf[5]) {
			*out = base;
			return 0;
		}
		if (buf[5] != (min ? '+' : '-') || digits(buf + 6, len - 6, 64, &v))
			return -1;
		base = min ? base + (int)v : base - (int)v;
		if (base < SIGRTMIN || base > SIGRTMAX)
			return -2;
		*out = base;
		return 0;
	}
	return -1;
}

bool sc_tok_looks_sig(const struct sc_tok *t)
{
	int sig;

	return sig_lookup(t, &sig) != -1;
}

int sc_tok_sig(struct sc_src *src, const struct sc_tok *t, int *out, struct sc_error *err)
{
	int r = sig_lookup(t, out);

	if (r == -2)
		return sc_err(err, src->name, src->line, t->col,
			      "signal %.*s out of range (1..64)", t->len > 40 ? 40 : t->len, t->s);
	if (r)
		return sc_err(err, src->name, src->line, t->col, "unknown signal '%.*s'",
			      t->len > 40 ? 40 : t->len, t->s);
	return 0;
}

int sc_tok_errno(struct sc_src *src, const struct sc_tok *t, int *out, struct sc_error *err)
{
	static const struct { const char *name; int err; } aliases[] = {
		{ "EWOULDBLOCK", EWOULDBLOCK }, { "EDEADLOCK", EDEADLOCK }, { "ENOTSUP", ENOTSUP },
	};
	int i;

	if (no_quotes(src, t, err))
		return -1;
	pthread_once(&tables_once, tables_init);
	for (i = 1; i <= MAX_ERRNO; i++)
		if (errno_names[i] && sc_tok_is(t, errno_names[i])) {
			*out = i;
			return 0;
		}
	for (i = 0; i < (int)(sizeof(aliases) / sizeof(aliases[0])); i++)
		if (sc_tok_is(t, aliases[i].name)) {
			*out = aliases[i].err;
			return 0;
		}
	return sc_err(err, src->name, src->line, t->col, "unknown errno '%.*s'",
		      t->len > 40 ? 40 : t->len, t->s);
}

/* ---- names ---- */

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

int sc_tok_name(struct sc_src *src, const struct sc_tok *t, char *out, struct sc_error *err)
{
	int i;
	bool part_start = true;

	if (no_quotes(src, t, err))
		return -1;
	for (i = 0; i < t->len; i++) {
		char c = t->s[i];

		if (c == '.' && !part_start && i > 0) {
			part_start = true;
			continue;
		}
		if (!word_char(c) || (i == 0 && c >= '0' && c <= '9'))
			break;
		part_start = false;
	}
	if (i < t->len || part_start)
		return sc_err(err, src->name, src->line, t->col,
			      "bad name '%.*s' (a name is [A-Za-z_][A-Za-z0-9_]* "
			      "with optional .parts)", t->len > 60 ? 60 : t->len, t->s);
	if (t->len >= SC_NAME_LEN)
		return sc_err(err, src->name, src->line, t->col,
			      "name too long (%d characters, max %d)", t->len, SC_NAME_LEN - 1);
	memcpy(out, t->s, (size_t)t->len);
	out[t->len] = '\0';
	return 0;
}

const char *sc_kind_name(enum sc_kind k)
{
	switch (k) {
	case K_PROC: return "process";
	case K_THREAD: return "thread";
	case K_SESSION: return "session";
	default: return "nothing";
	}
}

/*
 * The name table: open addressing.  The threads a "threads N" option
 * defines are not entries: NAME.tK is a thread while NAME has threads >= K,
 * so "tree x depth 12 fanout 2 threads 1000" costs 8191 entries, not 8
 * million.  min_nt remembers the smallest K such that NAME.tK was defined
 * as something else, so that "threads N" can refuse to redefine it in O(1).
 */
struct sc_nent {
	char name[SC_NAME_LEN];
	unsigned char kind;		/* enum sc_kind; K_NONE: only a min_nt holder */
	bool used;
	int threads;
	int min_nt;
};

struct sc_names {
	struct sc_nent *tab;
	size_t cap, used;
	long defs;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static struct sc_nent *names_find(struct sc_names *n, const char *name)
{
	size_t i = name_hash(name) & (n->cap - 1);

	while (n->tab[i].used) {
		if (!strcmp(n->tab[i].name, name))
			return &n->tab[i];
		i = (i + 1) & (n->cap - 1);
	}
	return NULL;
}

/* The free slot for @name, which is not in the table. */
static struct sc_nent *names_insert_slot(struct sc_names *n, const char *name)
{
	size_t i = name_hash(name) & (n->cap - 1);

	while (n->tab[i].used)
		i = (i + 1) & (n->cap - 1);
	return &n->tab[i];
}

/* NULL and @msg on ENOMEM or too many names. */
static struct sc_nent *names_insert(struct sc_names *n, const char *name, char *msg)
{
	struct sc_nent *e = names_find(n, name);
	size_t i;

	if (e)
		return e;
	if (n->used >= SC_MAX_NAMES_TOTAL) {
		snprintf(msg, SC_ERRMSG, "too many names (max %d)", SC_MAX_NAMES_TOTAL);
		return NULL;
	}
	if ((n->used + 1) * 2 > n->cap) {
		struct sc_nent *old = n->tab;
		size_t oldcap = n->cap;

		n->tab = calloc(oldcap * 2, sizeof(*n->tab));
		if (!n->tab) {
			n->tab = old;
			snprintf(msg, SC_ERRMSG, "out of memory");
			return NULL;
		}
		n->cap = oldcap * 2;
		for (i = 0; i < oldcap; i++)
			if (old[i].used)
				*names_insert_slot(n, old[i].name) = old[i];
		free(old);
	}
	e = names_insert_slot(n, name);
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->used = true;
	e->min_nt = INT_MAX;
	n->used++;
	return e;
}

struct sc_names *sc_names_new(void)
{
	struct sc_names *n = calloc(1, sizeof(*n));
	char msg[SC_ERRMSG];
	struct sc_nent *r;

	if (!n)
		return NULL;
	n->cap = 64;
	n->tab = calloc(n->cap, sizeof(*n->tab));
	r = n->tab ? names_insert(n, "R", msg) : NULL;
	if (!r) {
		sc_names_free(n);
		return NULL;
	}
	r->kind = K_PROC;
	return n;
}

void sc_names_free(struct sc_names *n)
{
	if (!n)
		return;
	free(n->tab);
	free(n);
}

/* If @name is BASE.tK (K >= 1, no leading zero): K, and BASE in @base. */
static int thread_suffix(const char *name, char *base)
{
	const char *dot = strrchr(name, '.');
	unsigned long k;

	if (!dot || dot[1] != 't' || dot[2] == '0' ||
	    digits(dot + 2, (int)strlen(dot + 2), INT_MAX, &k) || k < 1)
		return 0;
	memcpy(base, name, (size_t)(dot - name));
	base[dot - name] = '\0';
	return (int)k;
}

enum sc_kind sc_names_kind(struct sc_names *n, const char *name)
{
	struct sc_nent *e = names_find(n, name);
	char base[SC_NAME_LEN];
	int k;

	if (e && e->kind != K_NONE)
		return e->kind;
	k = thread_suffix(name, base);
	if (k) {
		e = names_find(n, base);
		if (e && e->kind == K_PROC && e->threads >= k)
			return K_THREAD;
	}
	return K_NONE;
}

int sc_names_define(struct sc_names *n, const char *name, enum sc_kind kind, int threads,
		    char *msg)
{
	static const char *const reserved[] = { "init", "none", "fails", "within" };
	char base[SC_NAME_LEN];
	enum sc_kind cur;
	struct sc_nent *e;
	size_t i;
	int k;

	if (++n->defs > SC_MAX_DEFS) {
		snprintf(msg, SC_ERRMSG, "too many name definitions (max %d)", SC_MAX_DEFS);
		return -1;
	}
	if (!strcmp(name, "R")) {
		snprintf(msg, SC_ERRMSG, "R is predefined (the controller), not redefinable");
		return -1;
	}
	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(name, reserved[i])) {
			snprintf(msg, SC_ERRMSG, "'%s' is a reserved word, not a name", name);
			return -1;
		}
	cur = sc_names_kind(n, name);
	if (cur != K_NONE && cur != kind) {
		snprintf(msg, SC_ERRMSG, "%s is a %s, cannot be redefined as a %s", name,
			 sc_kind_name(cur), sc_kind_name(kind));
		return -1;
	}
	if (threads > 0 && strlen(name) + 2 + (size_t)snprintf(NULL, 0, "%d", threads) >=
	    SC_NAME_LEN) {
		snprintf(msg, SC_ERRMSG, "thread name %s.t%d too long (max %d characters)", name,
			 threads, SC_NAME_LEN - 1);
		return -1;
	}
	e = names_find(n, name);
	if (threads > 0 && e && e->min_nt <= threads) {
		char tn[SC_NAME_LEN + 16];
		struct sc_nent *te;

		snprintf(tn, sizeof(tn), "%s.t%d", name, e->min_nt);
		te = names_find(n, tn);
		snprintf(msg, SC_ERRMSG, "%s is a %s, cannot be redefined as a thread", tn,
			 sc_kind_name(te ? te->kind : K_PROC));
		return -1;
	}
	k = kind == K_THREAD ? 0 : thread_suffix(name, base);
	if (k) {
		/* remember that BASE.tK may not become an implicit thread */
		e = names_insert(n, base, msg);
		if (!e)
			return -1;
		if (k < e->min_nt)
			e->min_nt = k;
	}
	e = names_insert(n, name, msg);
	if (!e)
		return -1;
	e->kind = (unsigned char)kind;
	if (threads > e->threads)
		e->threads = threads;
	return 0;
}
