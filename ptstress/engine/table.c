// SPDX-License-Identifier: GPL-2.0
/* The engine's side of the verb table: lang/verbs.def's handler and generator columns. */
#include "engine/table.h"

/* repeat and stress run statements themselves: run.c and stress.c do them. */
#define v_repeat	NULL
#define v_stress	NULL
#define none		NULL

const struct verb_impl verb_impl[V_NR_VERBS] = {
#define VERB(id, name, shape, opts, req, cl, not_r, nmin, nmax, w, handler, gen) \
	[V_##id] = { handler, gen },
#include "lang/verbs.def"
#undef VERB
};

int run_verb(struct engine *e, const struct stmt *s)
{
	if ((unsigned int)s->verb >= V_NR_VERBS || !verb_impl[s->verb].handler) {
		harness_err(e, "verb %s has no handler here", sc_verb_name(s->verb));
		return -1;
	}
	return verb_impl[s->verb].handler(e, s);
}
