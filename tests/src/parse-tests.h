/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the two files of the parser's tests: one_line() and parse_ok()
 * are in parse-tests.c, expect_err_at() and expect_error() in
 * parse-tests-errors.c.
 */
#ifndef PTSTRESS_PARSE_TESTS_H
#define PTSTRESS_PARSE_TESTS_H

#include "harness.h"
#include "lang/scenario.h"

/* @s up to its first newline, for messages. */
const char *one_line(const char *s);
/* Parse @text; it must parse, and print/reparse to an equal tree. */
bool parse_ok(struct th_test *_th, const char *text, struct scenario *sc);
/* @err is "file:line:col: ...msg...". */
void expect_err_at(struct th_test *_th, const struct sc_error *err, const char *file, int line,
		   int col, const char *msg);
/* Parsing @text must fail at @line:@col with @msg in the message. */
void expect_error(struct th_test *_th, const char *text, size_t len, int line, int col,
		  const char *msg);

#endif
