/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verb table's engine side (table.c): the handler and the generator of
 * every row of lang/verbs.def.
 */
#ifndef PTSTRESS_ENGINE_TABLE_H
#define PTSTRESS_ENGINE_TABLE_H

#include "engine/gen.h"

struct verb_impl {
	verb_fn *handler;	/* runs the verb; NULL: run.c runs it (repeat, stress) */
	gen_fn *gen;		/* picks valid arguments; NULL: never generated */
};

extern const struct verb_impl verb_impl[V_NR_VERBS];

/* Run the handler of @s's verb.  0 or -1 (a failure was reported). */
int run_verb(struct engine *e, const struct stmt *s);

#endif
