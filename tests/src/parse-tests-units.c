// SPDX-License-Identifier: GPL-2.0
/*
 * The tasks of a scenario as units (lang/units.c), the minimizer's first
 * pass: which statements a set of tasks keeps, and which tasks a finding's
 * tasks relate to.  Part of parse-tests.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "lang/units.h"

static const char units_text[] =
	"tracer tr0\n"				/* 0 */
	"tracer tr1\n"				/* 1 */
	"process a threads 1\n"			/* 2 */
	"process b parent a pidns\n"		/* 3 */
	"process c parent b\n"			/* 4 */
	"process d setns b\n"			/* 5 */
	"process e\n"				/* 6 */
	"thread w in e\n"			/* 7 */
	"seize tr0 c\n"				/* 8 */
	"seize tr1 e\n"				/* 9 */
	"exit a.t1 3\n"				/* 10 */
	"kill b SIGKILL\n"			/* 11 */
	"reap R a\n"				/* 12 */
	"check\n"				/* 13 */
	"exit w\n"				/* 14 */
	"repeat 2\n\tprocess f parent e\n\treap e f\nend\n"	/* 15 */
	"detach tr0 c\n";			/* 16 */

/* units_text parsed, and its units; false if either fails. */
static bool parse_units(struct scenario *sc, struct sc_units *u)
{
	struct sc_error err;

	if (scenario_parse_text("units.sc", units_text, strlen(units_text), true, sc, &err))
		return false;
	if (sc->nstmts == 17 && !sc_units_build(sc, u))
		return true;
	scenario_free(sc);
	return false;
}

/* Units are base names: a.t1 is a's, w is its own; R and "check" have none. */
TEST(units_are_base_names)
{
	struct scenario sc;
	struct sc_units u;
	int i;

	ASSERT_TRUE(parse_units(&sc, &u));
	EXPECT_EQ(u.n, 9);	/* tr0 tr1 a b c d e w f */
	EXPECT_EQ(sc_unit_of(&u, "a.t1"), sc_unit_of(&u, "a"));
	EXPECT_EQ(sc_unit_of(&u, "a#2"), sc_unit_of(&u, "a"));
	EXPECT_NE(sc_unit_of(&u, "w"), sc_unit_of(&u, "e"));
	EXPECT_EQ(sc_unit_of(&u, "R"), -1);
	EXPECT_EQ(sc_unit_of(&u, "zz"), -1);
	EXPECT_EQ(u.off[13], u.off[14]);	/* check: none */
	EXPECT_EQ(u.off[13] - u.off[12], 1);	/* reap R a: a only */
	/* process c parent b: defines c, uses b */
	ASSERT_EQ(u.off[5] - u.off[4], 2);
	for (i = u.off[4]; i < u.off[5]; i++)
		EXPECT_EQ(u.def[i], u.unit[i] == sc_unit_of(&u, "c"));
	/* the repeat: f defined in its body, e used */
	EXPECT_EQ(u.off[16] - u.off[15], 2);
	sc_units_free(&u);
	scenario_free(&sc);
}

/* Dropping b drops its children's definitions (c, d) and every statement on them. */
TEST(units_select_takes_descendants_along)
{
	static const bool want[17] = { 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0 };
	struct scenario sc;
	struct sc_units u;
	bool ukeep[16], base[17], keep[17];
	int i;

	ASSERT_TRUE(parse_units(&sc, &u));
	for (i = 0; i < u.n; i++)
		ukeep[i] = i != sc_unit_of(&u, "b");
	for (i = 0; i < 17; i++)
		base[i] = true;
	EXPECT_EQ(sc_units_select(&u, ukeep, base, keep), 11);
	for (i = 0; i < 17; i++) {
		TH_NOTE("statement %d", i);
		EXPECT_EQ(keep[i], want[i]);
	}
	/* a statement the base drops defines nothing: without e's definition, w goes */
	for (i = 0; i < u.n; i++)
		ukeep[i] = true;
	base[6] = false;
	sc_units_select(&u, ukeep, base, keep);
	EXPECT_FALSE(keep[7] || keep[9] || keep[14] || keep[15]);
	EXPECT_TRUE(keep[8] && keep[16]);
	sc_units_free(&u);
	scenario_free(&sc);
}

/* c's finding: c, whoever acts on c (tr0), and its ancestry (b, a). */
TEST(units_related_to_a_finding)
{
	static const char names[1][SC_NAME_LEN] = { "c" };
	static const char names2[2][SC_NAME_LEN] = { "w", "nosuch" };
	struct scenario sc;
	struct sc_units u;
	bool ukeep[16];
	int i;

	ASSERT_TRUE(parse_units(&sc, &u));
	EXPECT_EQ(sc_units_related(&u, names, 1, ukeep), 4);
	for (i = 0; i < u.n; i++) {
		TH_NOTE("unit %s", u.name[i]);
		EXPECT_EQ(ukeep[i], !strcmp(u.name[i], "c") || !strcmp(u.name[i], "tr0") ||
			  !strcmp(u.name[i], "b") || !strcmp(u.name[i], "a"));
	}
	/* w: itself, the process it is a thread of (e); an unknown name adds nothing */
	EXPECT_EQ(sc_units_related(&u, names2, 2, ukeep), 2);
	EXPECT_TRUE(ukeep[sc_unit_of(&u, "e")] && ukeep[sc_unit_of(&u, "w")]);
	sc_units_free(&u);
	scenario_free(&sc);
}

/* Each variant is one option, flag or size less; then there are no more. */
TEST(units_statement_variants)
{
	static const char text[] =
		"tracer tr0\n"
		"process b\n"
		"process c parent b threads 2 exit-signal SIGUSR1 setns b subreaper\n"
		"seize tr0 c exitkill tracefork\n"
		"exit c 3\n"
		"stress tasks 8 tracers 1 rounds 3 threads 1 seed 5\n"
		"check\n";
	struct scenario sc;
	struct sc_error err;
	struct stmt v;
	const struct stmt *p, *z, *x, *s;

	ASSERT_EQ(scenario_parse_text("v.sc", text, strlen(text), true, &sc, &err), 0);
	p = &sc.stmts[2];
	z = &sc.stmts[3];
	x = &sc.stmts[4];
	s = &sc.stmts[5];
	/* seize: exitkill, then tracefork */
	ASSERT_EQ(sc_stmt_simplify(z, 0, &v), 1);
	EXPECT_EQ(v.opts, (unsigned int)O_TRACEFORK);
	ASSERT_EQ(sc_stmt_simplify(z, 1, &v), 1);
	EXPECT_EQ(v.opts, (unsigned int)O_EXITKILL);
	EXPECT_EQ(sc_stmt_simplify(z, 2, &v), 0);
	/* process: subreaper, threads, exit-signal, setns, parent; one at a time */
	ASSERT_EQ(sc_stmt_simplify(p, 0, &v), 1);
	EXPECT_EQ(v.opts & O_SUBREAPER, 0u);
	EXPECT_EQ(v.threads, 2);
	ASSERT_EQ(sc_stmt_simplify(p, 1, &v), 1);
	EXPECT_EQ(v.threads, 0);
	EXPECT_TRUE(v.opts & O_SUBREAPER);
	ASSERT_EQ(sc_stmt_simplify(p, 2, &v), 1);
	EXPECT_EQ(v.exitsig, 0);
	ASSERT_EQ(sc_stmt_simplify(p, 3, &v), 1);
	EXPECT_STREQ(v.setns, "");
	EXPECT_STREQ(v.parent, "b");
	ASSERT_EQ(sc_stmt_simplify(p, 4, &v), 1);
	EXPECT_STREQ(v.parent, "");
	EXPECT_STREQ(v.setns, "b");
	EXPECT_EQ(sc_stmt_simplify(p, 5, &v), 0);
	/* exit: the code */
	ASSERT_EQ(sc_stmt_simplify(x, 0, &v), 1);
	EXPECT_EQ(v.num, 0);
	EXPECT_EQ(sc_stmt_simplify(x, 1, &v), 0);
	/* stress: tasks halved (tracers 1 cannot be), rounds halved, threads gone */
	ASSERT_EQ(sc_stmt_simplify(s, 0, &v), 1);
	EXPECT_EQ(v.tasks, 4);
	ASSERT_EQ(sc_stmt_simplify(s, 1, &v), 1);
	EXPECT_EQ(v.rounds, 1);
	EXPECT_EQ(v.tasks, 8);
	ASSERT_EQ(sc_stmt_simplify(s, 2, &v), 1);
	EXPECT_EQ(v.threads, 0);
	EXPECT_EQ(sc_stmt_simplify(s, 3, &v), 0);
	EXPECT_EQ(sc_stmt_simplify(&sc.stmts[6], 0, &v), 0);	/* check */
	EXPECT_EQ(sc_stmt_simplify(&sc.stmts[0], 0, &v), 0);	/* tracer */
	scenario_free(&sc);
}

/*
 * The statement pass's candidates keep a gdb session's start and its wait
 * together, and a strace's stop only with its start (the nearest start of
 * that name: g1 is started twice).
 */
TEST(units_pair_sessions)
{
	static const char text[] =
		"process p\n"			/* 0 */
		"gdb g1 p\n"			/* 1 */
		"wait g1\n"			/* 2 */
		"strace s2 p\n"		/* 3 */
		"gdb g1 p\n"			/* 4 */
		"wait g1\n"			/* 5 */
		"stop s2\n";			/* 6 */
	static const struct {
		bool in[7], out[7];
	} cases[] = {
		/* a gdb keeps its wait */
		{ { 1, 1, 0, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1, 1, 1 } },
		/* a wait goes with its gdb */
		{ { 1, 0, 1, 1, 1, 1, 1 }, { 1, 0, 0, 1, 1, 1, 1 } },
		/* the nearest g1 */
		{ { 1, 1, 1, 1, 0, 1, 1 }, { 1, 1, 1, 1, 0, 0, 1 } },
		/* a stop goes with its strace */
		{ { 1, 1, 1, 0, 1, 1, 1 }, { 1, 1, 1, 0, 1, 1, 0 } },
		/* a strace may go on alone */
		{ { 1, 1, 1, 1, 1, 1, 0 }, { 1, 1, 1, 1, 1, 1, 0 } },
	};
	struct scenario sc;
	struct sc_error err;
	bool keep[7];
	unsigned int k;
	int i;

	ASSERT_EQ(scenario_parse_text("pairs.sc", text, strlen(text), true, &sc, &err), 0);
	ASSERT_EQ(sc.nstmts, 7);
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memcpy(keep, cases[k].in, sizeof(keep));
		sc_pair_sessions(&sc, keep);
		for (i = 0; i < 7; i++) {
			TH_NOTE("case %u, statement %d", k, i);
			EXPECT_EQ(keep[i], cases[k].out[i]);
		}
	}
	scenario_free(&sc);
}
