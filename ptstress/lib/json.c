// SPDX-License-Identifier: GPL-2.0
/* The JSON-lines writer (json.h). */
#include <errno.h>
#include <string.h>

#include "lib/json.h"
#include "lib/ptstress.h"

static void put(struct json *j, const char *s, size_t n)
{
	if (j->err || !n)
		return;
	if (fwrite(s, 1, n, j->f) != n)
		j->err = errno ? errno : EIO;
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, k;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0 && s[0] >= 0xc2)
		len = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3;
	else if ((s[0] & 0xf8) == 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (k = 1; k < len; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	/* Overlong forms, UTF-16 surrogates (U+D800..DFFF), above U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;
	return len;
}

/* Append the escaped form of @s through @emit. */
static void escape(const char *s, void (*emit)(void *, const char *, size_t), void *arg)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), l;
	char buf[8];

	while (n) {
		l = utf8_len(p, n);
		if (l == 1 && *p >= 0x20 && *p != '"' && *p != '\\') {
			emit(arg, (const char *)p, 1);
		} else if (l > 1) {
			emit(arg, (const char *)p, l);
		} else {
			switch (*p) {
			case '"': emit(arg, "\\\"", 2); break;
			case '\\': emit(arg, "\\\\", 2); break;
			case '\n': emit(arg, "\\n", 2); break;
			case '\t': emit(arg, "\\t", 2); break;
			case '\r': emit(arg, "\\r", 2); break;
			default:
				snprintf(buf, sizeof(buf), "\\u%04x", *p);
				emit(arg, buf, 6);
			}
			l = 1;
		}
		p += l;
		n -= l;
	}
}

static void emit_file(void *arg, const char *s, size_t n)
{
	put(arg, s, n);
}

static void quoted(struct json *j, const char *s)
{
	put(j, "\"", 1);
	escape(s ? s : "", emit_file, j);
	put(j, "\"", 1);
}

/* The separator and key of the next member. */
static void member(struct json *j, const char *key)
{
	if (j->depth < 1)
		return;
	if (!j->first[j->depth - 1])
		put(j, ",", 1);
	j->first[j->depth - 1] = false;
	if (key && j->close[j->depth - 1] == '}') {
		quoted(j, key);
		put(j, ":", 1);
	}
}

static void open_(struct json *j, const char *key, char o, char c)
{
	member(j, key);
	if (j->depth == JSON_DEPTH) {
		j->err = j->err ? j->err : E2BIG;
		return;
	}
	put(j, &o, 1);
	j->first[j->depth] = true;
	j->close[j->depth] = c;
	j->depth++;
}

void json_start(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	if (!f)
		j->err = EBADF;
	open_(j, NULL, '{', '}');
}

void json_str(struct json *j, const char *key, const char *val)
{
	member(j, key);
	quoted(j, val);
}

void json_int(struct json *j, const char *key, long long val)
{
	char buf[32];

	member(j, key);
	put(j, buf, (size_t)snprintf(buf, sizeof(buf), "%lld", val));
}

void json_double(struct json *j, const char *key, double val)
{
	char buf[48];

	member(j, key);
	put(j, buf, (size_t)snprintf(buf, sizeof(buf), "%.3f", val));
}

void json_bool(struct json *j, const char *key, bool val)
{
	member(j, key);
	put(j, val ? "true" : "false", val ? 4 : 5);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	put(j, "null", 4);
}

void json_object(struct json *j, const char *key)
{
	open_(j, key, '{', '}');
}

void json_array(struct json *j, const char *key)
{
	open_(j, key, '[', ']');
}

void json_close(struct json *j)
{
	if (j->depth < 2)
		return;
	j->depth--;
	put(j, &j->close[j->depth], 1);
}

int json_end(struct json *j)
{
	while (j->depth > 1)
		json_close(j);
	if (j->depth == 1) {
		j->depth = 0;
		put(j, "}\n", 2);
	}
	if (!j->err && j->f && fflush(j->f))
		j->err = errno ? errno : EIO;
	return -j->err;
}

struct sbuf {
	char *p;
	size_t len, used;
};

static void emit_buf(void *arg, const char *s, size_t n)
{
	struct sbuf *b = arg;

	if (b->used + n + 1 > b->len)
		return;
	memcpy(b->p + b->used, s, n);
	b->used += n;
}

char *json_escape(const char *s, char *out, size_t len)
{
	struct sbuf b = { out, len, 0 };

	if (!len)
		return out;
	escape(s, emit_buf, &b);
	out[b.used] = '\0';
	return out;
}

void json_profile(struct json *j)
{
	double user, sys;

	json_object(j, "profile");
	json_double(j, "poll_s", ps_prof.poll_ns / 1e9);
	json_double(j, "reply_s", ps_prof.reply_ns / 1e9);
	json_double(j, "agent_s", ps_prof.agent_ns / 1e9);
	json_double(j, "proc_s", ps_prof.proc_ns / 1e9);
	json_int(j, "polls", ps_prof.polls);
	json_int(j, "replies", ps_prof.replies);
	json_int(j, "proc_reads", ps_prof.proc_reads);
	/*
	 * This process's own CPU since the profile started (its children's
	 * not counted): under TCG, the wall time the shares above leave out
	 * is either this CPU or waiting on something they do not time.
	 */
	ps_cpu_seconds(&user, &sys);
	if (user >= 0 && ps_prof.user0_s >= 0) {
		json_double(j, "self_user_s", user - ps_prof.user0_s);
		json_double(j, "self_sys_s", sys - ps_prof.sys0_s);
	}
	json_close(j);
}
