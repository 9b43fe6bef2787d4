/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON-lines writer: every string is escaped (quotes, backslashes,
 * control bytes, bytes that are not UTF-8 become \u00XX), every write is
 * checked, and a line is written whole or the error is reported.
 *
 *	struct json j;
 *	json_start(&j, f);		one object per line
 *	json_str(&j, "scenario", path);
 *	json_int(&j, "steps", n);
 *	json_array(&j, "tasks"); json_object(&j, NULL); ... json_close(&j); json_close(&j);
 *	if (json_end(&j) < 0) ...	writes "}\n" and flushes; -errno of the first failure
 */
#ifndef PTSTRESS_JSON_H
#define PTSTRESS_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_DEPTH	8

struct json {
	FILE *f;		/* where the line goes */
	int err;		/* first errno of a failed write; 0 */
	int depth;		/* open objects and arrays, the line's own included */
	bool first[JSON_DEPTH];	/* no member written yet at this depth */
	char close[JSON_DEPTH];	/* '}' or ']' */
};

void json_start(struct json *j, FILE *f);
/* Members: @key is NULL inside an array. */
void json_str(struct json *j, const char *key, const char *val);
void json_int(struct json *j, const char *key, long long val);
void json_double(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key);
void json_close(struct json *j);
/* Close everything, end the line, flush.  0, or -errno of the first failure. */
int json_end(struct json *j);
/*
 * Member "profile": where this process's wall time went (struct ps_prof):
 * poll_s, reply_s, agent_s, proc_s (seconds) and polls, replies, proc_reads;
 * self_user_s, self_sys_s: this process's own CPU time since ps_prof_start().
 */
void json_profile(struct json *j);
/* Escape @s into @out (for a caller that builds JSON text itself); returns @out. */
char *json_escape(const char *s, char *out, size_t len);

#endif
