// SPDX-License-Identifier: GPL-2.0
/*
 * Error helpers and TAP 13 output.
 *
 * Errors are formatted into one buffer instead of being printed, because the
 * same code runs in R (which prints them as TAP diagnostics) and in the
 * agents (which send them back to R over their sockets, so that only R ever
 * writes to stdout and the TAP stream stays in order).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/ptstress.h"

/* Per thread: agents run one command loop per thread (agent.c). */
static __thread char last_error[512];

static struct {
	int run;	/* TAP test points emitted so far */
	int pass;	/* "ok" without SKIP */
	int fail;	/* "not ok" */
	int skip;	/* "ok ... # SKIP" */
} tap;

const char *sig_name(int sig)
{
	static __thread char buf[16];
	const char *abbrev;

	if (sig == 0)
		return "0";
	abbrev = sigabbrev_np(sig);
	if (!abbrev) {
		snprintf(buf, sizeof(buf), "signal %d", sig);
		return buf;
	}
	snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	return buf;
}

const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "E?";
}

void ps_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

void ps_ptrace_error(long req, pid_t pid, int sig, int err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(last_error, sizeof(last_error), "ptrace(%s, pid %d, sig %s): %s (%s): %s",
		 ptrace_request_name(req), (int)pid, sig_name(sig), errno_name(err),
		 strerror(err), what);
}

const char *ps_last_error(void)
{
	return last_error;
}

void tap_begin(void)
{
	printf("TAP version 13\n");
}

/* A point's name on one line: a newline would end the TAP line early. */
static void point_name(char *buf, size_t len, const char *fmt, va_list ap)
{
	char *p;

	vsnprintf(buf, len, fmt, ap);
	for (p = buf; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

static void vdiag(const char *fmt, va_list ap)
{
	char buf[4096];
	char *line, *save = NULL;

	/* Every line of a multi-line message must carry its own "# ". */
	vsnprintf(buf, sizeof(buf), fmt, ap);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("# %s\n", line);
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag(fmt, ap);
	va_end(ap);
}

bool tap_result(bool ok, const char *fmt, ...)
{
	char name[560];
	va_list ap;

	va_start(ap, fmt);
	point_name(name, sizeof(name), fmt, ap);
	va_end(ap);
	tap.run++;
	if (ok)
		tap.pass++;
	else
		tap.fail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", tap.run, name);
	return ok;
}

void tap_skip(const char *reason, const char *fmt, ...)
{
	char name[560];
	va_list ap;

	va_start(ap, fmt);
	point_name(name, sizeof(name), fmt, ap);
	va_end(ap);
	tap.run++;
	tap.skip++;
	printf("ok %d - %s # SKIP %s\n", tap.run, name, reason);
}

void tap_bail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printf("Bail out! %s\n", msg);
}

void tap_end(void)
{
	/* The plan comes last: how many points run depends on how far we got. */
	printf("1..%d\n", tap.run);
	printf("# pass %d, fail %d, skip %d\n", tap.pass, tap.fail, tap.skip);
}

int tap_exit_code(bool harness_error)
{
	/* A finding seen before the harness broke is still a finding. */
	if (tap.fail)
		return PS_EXIT_FINDING;
	if (harness_error)
		return PS_EXIT_HARNESS;
	if (!tap.pass && tap.skip)
		return PS_EXIT_ALL_SKIPPED;
	return PS_EXIT_PASS;
}

void check_init(struct check *c)
{
	c->ok = true;
	c->len = 0;
	c->text[0] = '\0';
}

static void check_line(struct check *c, bool ok, const char *fmt, ...) PS_PRINTF(3, 4);

static void check_line(struct check *c, bool ok, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!ok)
		c->ok = false;
	if (c->len >= sizeof(c->text) - 1)
		return;
	n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "  %s ",
		     ok ? "  " : "!!");
	if (n > 0)
		c->len += n;
	if (c->len >= sizeof(c->text) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->text + c->len, sizeof(c->text) - c->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		c->len += n;
	if (c->len < sizeof(c->text) - 1) {
		c->text[c->len++] = '\n';
		c->text[c->len] = '\0';
	} else {
		c->len = sizeof(c->text) - 1;
	}
}

void check_eq(struct check *c, const char *what, long expected, long observed)
{
	check_line(c, expected == observed, "%s: expected %ld, observed %ld", what, expected,
		   observed);
}

void check_nonzero(struct check *c, const char *what, long observed)
{
	check_line(c, observed != 0, "%s: expected non-zero, observed %#lx", what, observed);
}

void check_fail(struct check *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	check_line(c, false, "%s", msg);
}

bool check_done(struct check *c, const char *fmt, ...)
{
	char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	tap_result(c->ok, "%s", name);
	/* Only a failure prints the comparisons: "!!" marks the ones that differ. */
	if (!c->ok && c->len)
		tap_diag("%s", c->text);
	return c->ok;
}

const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
	size_t len = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, len))
		return NULL;
	if (a[len] == '=')
		return a + len + 1;
	if (a[len])
		return NULL;
	if (*i + 1 == argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}
