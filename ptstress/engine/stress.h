/* SPDX-License-Identifier: GPL-2.0 */
/* `stress tasks N tracers K rounds R [threads M] [seed S]` (stress.c). */
#ifndef PTSTRESS_ENGINE_STRESS_H
#define PTSTRESS_ENGINE_STRESS_H

#include "engine/table.h"

int run_stress(struct engine *e, const struct stmt *s);

#endif
