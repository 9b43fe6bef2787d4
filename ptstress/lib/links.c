// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers for ptrace_links and status.  The parsers are pure functions of a
 * string so that the unit tests can feed them any text; the readers only add
 * the file I/O and the ENOENT-vs-ESRCH distinction.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/links.h"
#include "lib/ptstress.h"

#define PROC_FILE_MAX	8192

enum field_type {
	FT_PID,		/* pid_t, decimal, may be negative (tracer: -1) */
	FT_INT,		/* int, decimal, may be negative (exit_signal: -1) */
	FT_ULONG,	/* unsigned long, decimal */
	FT_HEX,		/* unsigned long as "%#x" prints it: "0" or "0x..." */
};

/* One "key:\tvalue" line the parser knows. */
struct field {
	const char *key;	/* the text before the ':' */
	enum field_type type;	/* how to parse the value */
	size_t offset;		/* where the value goes in the output struct */
};

#define LF(name, type) { #name, type, offsetof(struct ptrace_links, name) }

/* The keys proc_tid_ptrace_links() prints, all of which we require. */
static const struct field links_fields[] = {
	LF(tid, FT_PID),
	LF(tgid, FT_PID),
	LF(leader, FT_PID),
	LF(parent, FT_PID),
	LF(real_parent, FT_PID),
	LF(ptrace, FT_HEX),
	LF(tracer, FT_PID),
	LF(ptraced, FT_ULONG),
	LF(children, FT_ULONG),
	LF(sibling_linked, FT_INT),
	LF(exit_state, FT_INT),
	LF(exit_signal, FT_INT),
	LF(exiting, FT_INT),
};

#define NFIELDS (sizeof(links_fields) / sizeof(links_fields[0]))

static int fail(struct parse_error *err, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parse_error *err, int line, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Parse the whole of [s, s+len) as one number; no sign for unsigned types. */
static bool parse_value(const char *s, size_t len, enum field_type type, void *dst)
{
	char tmp[32], *end;
	long sv;
	unsigned long uv;

	if (len == 0 || len >= sizeof(tmp))
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	switch (type) {
	case FT_PID:
	case FT_INT:
		if (tmp[0] != '-' && (tmp[0] < '0' || tmp[0] > '9'))
			return false;
		sv = strtol(tmp, &end, 10);
		if (errno || *end || sv < INT_MIN || sv > INT_MAX)
			return false;
		if (type == FT_PID)
			*(pid_t *)dst = (pid_t)sv;
		else
			*(int *)dst = (int)sv;
		return true;
	case FT_ULONG:
		if (tmp[0] < '0' || tmp[0] > '9')
			return false;
		uv = strtoul(tmp, &end, 10);
		break;
	case FT_HEX:
		/* "%#x" prints zero as "0" and everything else with "0x". */
		if (strcmp(tmp, "0") == 0) {
			*(unsigned long *)dst = 0;
			return true;
		}
		if (strncmp(tmp, "0x", 2) != 0 || !tmp[2] || !strchr("0123456789abcdefABCDEF",
								   tmp[2]))
			return false;
		uv = strtoul(tmp + 2, &end, 16);
		break;
	default:
		return false;
	}
	if (errno || *end)
		return false;
	*(unsigned long *)dst = uv;
	return true;
}

int links_parse(const char *buf, struct ptrace_links *out, struct parse_error *err)
{
	bool seen[NFIELDS] = { false };
	const char *line = buf, *nl, *colon, *val;
	size_t i, keylen, linelen;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	err->line = 0;
	err->msg[0] = '\0';
	while (*line) {
		lineno++;
		nl = strchr(line, '\n');
		linelen = nl ? (size_t)(nl - line) : strlen(line);
		colon = memchr(line, ':', linelen);
		if (!colon)
			return fail(err, lineno, "line without ':'");
		keylen = (size_t)(colon - line);
		val = colon + 1;
		while (val < line + linelen && (*val == '\t' || *val == ' '))
			val++;
		for (i = 0; i < NFIELDS; i++) {
			if (strlen(links_fields[i].key) == keylen &&
			    !memcmp(links_fields[i].key, line, keylen))
				break;
		}
		/* Unknown keys are ignored: a newer kernel may print more. */
		if (i < NFIELDS) {
			if (seen[i])
				return fail(err, lineno, "duplicate key '%s'", links_fields[i].key);
			if (!parse_value(val, (size_t)(line + linelen - val), links_fields[i].type,
					 (char *)out + links_fields[i].offset))
				return fail(err, lineno, "malformed value for '%s': '%.*s'",
					    links_fields[i].key, (int)(line + linelen - val), val);
			seen[i] = true;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (lineno == 0)
		return fail(err, 0, "empty input");
	for (i = 0; i < NFIELDS; i++) {
		if (!seen[i])
			return fail(err, 0, "missing key '%s'", links_fields[i].key);
	}
	return 0;
}

/* Read a whole /proc file into buf (NUL-terminated).  -ENOENT/-ESRCH as is. */
static int read_proc_file(const char *path, char *buf, size_t size)
{
	long long t0 = ps_now_ns();
	size_t used = 0;
	ssize_t n;
	int fd;

	ps_prof.proc_reads++;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ps_prof.proc_ns += ps_now_ns() - t0;
		return -errno;
	}
	while (used < size - 1) {
		n = read(fd, buf + used, size - 1 - used);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	ps_prof.proc_ns += ps_now_ns() - t0;
	return 0;
}

/*
 * Read the /proc file open at @fd again, from its start (a seq_file
 * makes its text anew at offset 0): no path walk, no open or close.  The
 * open file stays with the task it was opened for (its struct pid), so
 * a released task reads ESRCH even once its pid is another's.
 */
static int reread_proc_fd(int fd, char *buf, size_t size)
{
	long long t0 = ps_now_ns();
	size_t used = 0;
	ssize_t n;

	ps_prof.proc_reads++;
	while (used < size - 1) {
		n = pread(fd, buf + used, size - 1 - used, (off_t)used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ps_prof.proc_ns += ps_now_ns() - t0;
			return -errno;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	buf[used] = '\0';
	ps_prof.proc_ns += ps_now_ns() - t0;
	return 0;
}

static int thread_exists(pid_t pid, pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
	return access(path, F_OK) == 0;
}

/*
 * Put @path in front of a failure's message: "path: strerror" for a read,
 * "path:LINE: message" for a parse error (@parsed).  Returns @r.
 */
static int located(const char *path, int r, bool parsed, struct parse_error *err)
{
	char msg[sizeof(err->msg)];

	if (parsed)
		snprintf(msg, sizeof(msg), "%s:%d: %.200s", path, err->line, err->msg);
	else
		snprintf(msg, sizeof(msg), "%s: %s", path, strerror(-r));
	memcpy(err->msg, msg, sizeof(msg));
	return r;
}

int links_read(pid_t pid, pid_t tid, struct ptrace_links *out, struct parse_error *err)
{
	char path[80], buf[PROC_FILE_MAX];
	int r;

	err->line = 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/ptrace_links", (int)pid, (int)tid);
	r = read_proc_file(path, buf, sizeof(buf));
	if (r == -ENOENT && !thread_exists(pid, tid))
		r = -ESRCH;
	if (r < 0)
		return located(path, r, false, err);
	r = links_parse(buf, out, err);
	return r < 0 ? located(path, r, true, err) : r;
}

bool links_supported(void)
{
	char path[80];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/ptrace_links", (int)getpid(),
		 (int)gettid());
	return access(path, F_OK) == 0;
}

int status_parse(const char *buf, struct proc_status *out, struct parse_error *err)
{
	/* The numeric keys we need; State is special-cased below. */
	static const struct field keys[] = {
		{ "Tgid", FT_PID, offsetof(struct proc_status, tgid) },
		{ "PPid", FT_PID, offsetof(struct proc_status, ppid) },
		{ "TracerPid", FT_PID, offsetof(struct proc_status, tracer_pid) },
	};
	const char *line = buf, *nl, *colon, *val;
	bool seen[3] = { false }, seen_state = false;
	size_t i, keylen, linelen;
	int lineno = 0;

	memset(out, 0, sizeof(*out));
	err->line = 0;
	err->msg[0] = '\0';
	while (*line) {
		lineno++;
		nl = strchr(line, '\n');
		linelen = nl ? (size_t)(nl - line) : strlen(line);
		colon = memchr(line, ':', linelen);
		/* status has many keys we do not need; only ours are validated. */
		if (colon) {
			keylen = (size_t)(colon - line);
			val = colon + 1;
			while (val < line + linelen && (*val == '\t' || *val == ' '))
				val++;
			if (keylen == 5 && !memcmp(line, "State", 5)) {
				/* "S (sleeping)": the letter, then a space or the end. */
				if (val >= line + linelen || *val < 'A' || *val > 'z' ||
				    (val + 1 < line + linelen && val[1] != ' '))
					return fail(err, lineno, "malformed State");
				out->state = *val;
				seen_state = true;
			}
			for (i = 0; i < 3; i++) {
				if (strlen(keys[i].key) != keylen ||
				    memcmp(keys[i].key, line, keylen))
					continue;
				if (!parse_value(val, (size_t)(line + linelen - val), keys[i].type,
						 (char *)out + keys[i].offset))
					return fail(err, lineno, "malformed value for '%s'",
						    keys[i].key);
				seen[i] = true;
			}
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (!seen_state)
		return fail(err, 0, "missing key 'State'");
	for (i = 0; i < 3; i++) {
		if (!seen[i])
			return fail(err, 0, "missing key '%s'", keys[i].key);
	}
	return 0;
}

int status_read(pid_t pid, pid_t tid, struct proc_status *out, struct parse_error *err)
{
	char path[80], buf[PROC_FILE_MAX];
	int r;

	err->line = 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	r = read_proc_file(path, buf, sizeof(buf));
	if (r == -ENOENT)
		r = -ESRCH;
	if (r < 0)
		return located(path, r, false, err);
	r = status_parse(buf, out, err);
	return r < 0 ? located(path, r, true, err) : r;
}

/*
 * At most this many files kept open: R's agent sockets need theirs (one
 * per task, up to pop.h's cap, under run.c's raised RLIMIT_NOFILE of at
 * most 65536); past it a task's file is read by its path, as before.
 */
#define PROC_FD_MAX	8192
static int proc_fds;	/* kept open now */

/*
 * Open @path into @c unless it holds the file of @pid/@tid already.  0,
 * or -errno of open(), or -EMFILE past PROC_FD_MAX: the caller reads by
 * path then.
 */
static int proc_fd_open(struct proc_fd *c, const char *path, pid_t pid, pid_t tid)
{
	if (c->fd >= 0 && (c->pid != pid || c->tid != tid))
		proc_fd_close(c);
	if (c->fd >= 0)
		return 0;
	if (proc_fds >= PROC_FD_MAX)
		return -EMFILE;
	c->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0)
		return -errno;
	proc_fds++;
	c->pid = pid;
	c->tid = tid;
	return 0;
}

/*
 * The text of /proc/@pid/task/@tid/@file read through @c into @buf (its
 * path into @path, for messages): 0; 1 when it is not kept open (the
 * caller reads it by path, which says ENOENT or our own limit); -errno
 * of the read, the file then closed.
 */
static int cached_text(struct proc_fd *c, pid_t pid, pid_t tid, const char *file, char *path,
		       size_t plen, char *buf, size_t size)
{
	int r;

	snprintf(path, plen, "/proc/%d/task/%d/%s", (int)pid, (int)tid, file);
	if (proc_fd_open(c, path, pid, tid) < 0)
		return 1;
	r = reread_proc_fd(c->fd, buf, size);
	if (r < 0)
		proc_fd_close(c);
	return r == -ENOENT ? -ESRCH : r;
}

int status_read_cached(pid_t pid, pid_t tid, struct proc_fd *c, struct proc_status *out,
		       struct parse_error *err)
{
	char path[80], buf[PROC_FILE_MAX];
	int r;

	err->line = 0;
	r = cached_text(c, pid, tid, "status", path, sizeof(path), buf, sizeof(buf));
	if (r == 1)
		return status_read(pid, tid, out, err);
	if (r < 0)
		return located(path, r, false, err);
	r = status_parse(buf, out, err);
	return r < 0 ? located(path, r, true, err) : r;
}

int links_read_cached(pid_t pid, pid_t tid, struct proc_fd *c, struct ptrace_links *out,
		      struct parse_error *err)
{
	char path[80], buf[PROC_FILE_MAX];
	int r;

	err->line = 0;
	r = cached_text(c, pid, tid, "ptrace_links", path, sizeof(path), buf, sizeof(buf));
	if (r == 1)
		return links_read(pid, tid, out, err);
	if (r < 0)
		return located(path, r, false, err);
	r = links_parse(buf, out, err);
	return r < 0 ? located(path, r, true, err) : r;
}

void proc_fd_close(struct proc_fd *c)
{
	if (c->fd >= 0) {
		close(c->fd);
		proc_fds--;
	}
	c->fd = -1;
}

int status_nspid(pid_t tid, pid_t *out, int max)
{
	char path[80], buf[PROC_FILE_MAX], *p, *end;
	int r, n = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	r = read_proc_file(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	p = strstr(buf, "\nNSpid:");
	if (!p)
		return -ENOENT;
	p += 7;
	end = strchr(p, '\n');
	if (end)
		*end = 0;	/* one line: strtol() would skip the newline */
	for (;;) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		if (n == max || v <= 0)
			return -ERANGE;
		out[n++] = (pid_t)v;
		p = end;
	}
	return n;
}

int stat_flags(pid_t pid, pid_t tid, unsigned long *flags)
{
	char path[80], buf[PROC_FILE_MAX], *p;
	int r, field;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	r = read_proc_file(path, buf, sizeof(buf));
	if (r == -ENOENT)
		r = -ESRCH;
	if (r < 0)
		return r;
	/* comm may hold ") ": the fields start after the last ')'; flags is field 9. */
	p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	for (field = 2; field < 9 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -EINVAL;
	*flags = strtoul(p + 1, NULL, 10);
	return 0;
}

int status_pending(pid_t pid, pid_t tid, unsigned long long *mask)
{
	static const char *const keys[] = { "\nSigPnd:", "\nShdPnd:" };
	char path[80], buf[PROC_FILE_MAX], *p;
	int r, k;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	r = read_proc_file(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	*mask = 0;
	for (k = 0; k < 2; k++) {
		p = strstr(buf, keys[k]);
		if (!p)
			return -EINVAL;
		*mask |= strtoull(p + strlen(keys[k]), NULL, 16);
	}
	return 0;
}

int syscall_parse(const char *buf, long *nr)
{
	char *end;

	if (!strncmp(buf, "running", 7)) {
		*nr = PS_SYSCALL_RUNNING;
		return 0;
	}
	errno = 0;
	*nr = strtol(buf, &end, 10);
	if (errno || end == buf || (*end != ' ' && *end != '\n' && *end != '\0') || *nr < -1)
		return -EINVAL;
	return 0;
}

int syscall_read(pid_t pid, long *nr)
{
	char path[64], buf[PROC_FILE_MAX];
	int r;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	r = read_proc_file(path, buf, sizeof(buf));
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	return syscall_parse(buf, nr);
}

int meminfo_read(long *total_kb, long *avail_kb)
{
	char buf[PROC_FILE_MAX], *p;
	int r;

	r = read_proc_file("/proc/meminfo", buf, sizeof(buf));
	if (r < 0)
		return r;
	p = strstr(buf, "MemTotal:");
	*total_kb = p ? strtol(p + 9, NULL, 10) : 0;
	p = strstr(buf, "MemAvailable:");
	*avail_kb = p ? strtol(p + 13, NULL, 10) : 0;
	return *total_kb > 0 && p ? 0 : -EINVAL;
}
