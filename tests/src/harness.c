// SPDX-License-Identifier: GPL-2.0
/* The unit tests' harness (harness.h): registration, TAP, exit codes. */
#include <stdarg.h>
#include <unistd.h>

#include "harness.h"

struct th_test *th_tests[TH_MAX_TESTS];
int th_ntests;
int th_argc;
char **th_argv;

void th_register(struct th_test *t)
{
	if (th_ntests == TH_MAX_TESTS) {
		printf("Bail out! more than %d tests\n", TH_MAX_TESTS);
		exit(3);
	}
	th_tests[th_ntests++] = t;
}

void th_fail(struct th_test *t, const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	t->failed++;
	printf("#   %s:%d: %s%s%s\n", file, line, msg, t->note[0] ? " -- " : "", t->note);
}

/* Constructors run in file order: keep it, whatever the linker did. */
static int by_place(const void *a, const void *b)
{
	const struct th_test *x = *(const struct th_test *const *)a;
	const struct th_test *y = *(const struct th_test *const *)b;
	int c = strcmp(x->file, y->file);

	return c ? c : x->line - y->line;
}

int th_main(int argc, char **argv)
{
	const char *only = NULL;
	int i, n = 0, failed = 0, skipped = 0, opt;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "+lt:")) != -1) {
		switch (opt) {
		case 'l':
			for (i = 0; i < th_ntests; i++)
				printf("%s\n", th_tests[i]->name);
			return 0;
		case 't':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-l] [-t NAME] [ARGS...]\n", argv[0]);
			return 2;
		}
	}
	th_argc = argc - optind;
	th_argv = argv + optind;
	qsort(th_tests, th_ntests, sizeof(th_tests[0]), by_place);
	printf("TAP version 13\n");
	for (i = 0; i < th_ntests; i++) {
		struct th_test *t = th_tests[i];

		if (only && !strstr(t->name, only))
			continue;
		n++;
		t->failed = 0;
		t->skipped = false;
		t->note[0] = '\0';
		t->fn(t);
		if (t->failed) {
			failed++;
			printf("not ok %d - %s\n", n, t->name);
		} else if (t->skipped) {
			skipped++;
			printf("ok %d - %s # SKIP %s\n", n, t->name, t->skip_reason);
		} else {
			printf("ok %d - %s\n", n, t->name);
		}
	}
	printf("1..%d\n", n);
	printf("# pass %d, fail %d, skip %d\n", n - failed - skipped, failed, skipped);
	if (failed)
		return 1;
	return n && skipped == n ? 4 : 0;
}
