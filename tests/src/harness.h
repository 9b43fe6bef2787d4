/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit tests' harness, in the style of the kernel's
 * tools/testing/selftests/kselftest_harness.h, cut down to what the tests
 * here use:
 *
 *	TEST(name) { ... EXPECT_EQ(a, b); ASSERT_TRUE(x); ... }
 *	TEST_MAIN()
 *
 * Tests register themselves (a constructor per TEST), run in file order,
 * and print TAP 13: "ok N - name" or "not ok N - name" with the failed
 * expectations as "#" lines naming the file, the line, both expressions
 * and both values.  EXPECT_* records a failure and goes on; ASSERT_*
 * ends the test.  SKIP(reason) ends it as "ok N - name # SKIP reason".
 * TH_NOTE() adds context to every later failure message of the test.
 *
 * Exit: 0 every test passed, 1 one failed, 4 all were skipped, 3 the
 * harness itself failed (TH_BAIL()).
 *
 * Options of the test program: -l lists the tests, -t NAME runs only the
 * tests whose name contains NAME, and anything else goes to the tests
 * (th_argc/th_argv).
 */
#ifndef PTSTRESS_TEST_HARNESS_H
#define PTSTRESS_TEST_HARNESS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TH_MAX_TESTS	512

struct th_test {
	const char *name;
	void (*fn)(struct th_test *t);
	const char *file;
	int line;
	/* per run */
	int failed;		/* expectations that failed */
	bool skipped;		/* SKIP() was called */
	char skip_reason[160];
	char note[200];		/* TH_NOTE(): context for failure messages */
};

extern struct th_test *th_tests[TH_MAX_TESTS];
extern int th_ntests;
extern int th_argc;
extern char **th_argv;

void th_register(struct th_test *t);
void th_fail(struct th_test *t, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int th_main(int argc, char **argv);

#define TEST(name_)								\
	static void th_fn_##name_(struct th_test *_th);			\
	static struct th_test th_t_##name_ = {					\
		.name = #name_, .fn = th_fn_##name_, .file = __FILE__, .line = __LINE__ }; \
	__attribute__((constructor)) static void th_reg_##name_(void)		\
	{									\
		th_register(&th_t_##name_);					\
	}									\
	static void th_fn_##name_(struct th_test *_th)

#define TEST_MAIN()								\
	int main(int argc, char **argv)						\
	{									\
		return th_main(argc, argv);					\
	}

/* Context for the test's later failure messages (a printf format). */
#define TH_NOTE(...)	snprintf(_th->note, sizeof(_th->note), __VA_ARGS__)

#define TH_CMP_(kind, a, op, b, fatal)						\
	do {									\
		long long _a = (long long)(a), _b = (long long)(b);		\
		if (!(_a op _b)) {						\
			th_fail(_th, __FILE__, __LINE__,			\
				kind "(%s, %s): %lld vs %lld", #a, #b, _a, _b);	\
			if (fatal)						\
				return;						\
		}								\
	} while (0)

#define EXPECT_EQ(a, b)		TH_CMP_("EXPECT_EQ", a, ==, b, 0)
#define EXPECT_NE(a, b)		TH_CMP_("EXPECT_NE", a, !=, b, 0)
#define EXPECT_LT(a, b)		TH_CMP_("EXPECT_LT", a, <, b, 0)
#define EXPECT_GE(a, b)		TH_CMP_("EXPECT_GE", a, >=, b, 0)
#define ASSERT_EQ(a, b)		TH_CMP_("ASSERT_EQ", a, ==, b, 1)
#define ASSERT_NE(a, b)		TH_CMP_("ASSERT_NE", a, !=, b, 1)
#define ASSERT_GE(a, b)		TH_CMP_("ASSERT_GE", a, >=, b, 1)
#define EXPECT_TRUE(x)		TH_CMP_("EXPECT_TRUE", !!(x), ==, 1, 0)
#define EXPECT_FALSE(x)		TH_CMP_("EXPECT_FALSE", !!(x), ==, 0, 0)
#define ASSERT_TRUE(x)		TH_CMP_("ASSERT_TRUE", !!(x), ==, 1, 1)
#define ASSERT_FALSE(x)		TH_CMP_("ASSERT_FALSE", !!(x), ==, 0, 1)

#define TH_STR_(kind, a, b, fatal)						\
	do {									\
		const char *_a = (a), *_b = (b);				\
		if (!_a || !_b || strcmp(_a, _b)) {				\
			th_fail(_th, __FILE__, __LINE__, kind "(%s, %s): \"%s\" vs \"%s\"", \
				#a, #b, _a ? _a : "(null)", _b ? _b : "(null)");	\
			if (fatal)						\
				return;						\
		}								\
	} while (0)

#define EXPECT_STREQ(a, b)	TH_STR_("EXPECT_STREQ", a, b, 0)
#define ASSERT_STREQ(a, b)	TH_STR_("ASSERT_STREQ", a, b, 1)
/* @hay contains @needle. */
#define EXPECT_CONTAINS(hay, needle)						\
	do {									\
		const char *_h = (hay), *_n = (needle);				\
		if (!_h || !strstr(_h, _n))					\
			th_fail(_th, __FILE__, __LINE__,			\
				"EXPECT_CONTAINS(%s, %s): \"%s\" lacks \"%s\"", #hay, #needle, \
				_h ? _h : "(null)", _n);			\
	} while (0)

/* A failure of the test's own making, with a message. */
#define TH_FAIL(...)	th_fail(_th, __FILE__, __LINE__, __VA_ARGS__)

#define SKIP(...)								\
	do {									\
		_th->skipped = true;						\
		snprintf(_th->skip_reason, sizeof(_th->skip_reason), __VA_ARGS__); \
		return;								\
	} while (0)

/* The harness cannot go on (a fixture could not be built): exit 3. */
#define TH_BAIL(...)								\
	do {									\
		printf("Bail out! ");						\
		printf(__VA_ARGS__);						\
		printf("\n");							\
		exit(3);							\
	} while (0)

/* The running test, for helpers that report on its behalf. */
#define TH_SELF		_th

#endif
