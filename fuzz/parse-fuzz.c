// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of the scenario parser: any input must parse or fail
 * cleanly (ASan/UBSan/LSan watch), and whatever parses must print to text
 * that parses back into an equal scenario.  Includes are off: the fuzzer
 * must not read the file system.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario sc, sc2;
	struct sc_error err;
	char *text;

	if (scenario_parse_text("fuzz", (const char *)data, size, true, &sc, &err)) {
		/* an error names a place on a line that exists */
		if (err.line < 0 || err.col < 0 || !err.msg[0])
			abort();
		scenario_free(&sc);
		return 0;
	}
	text = scenario_print(&sc);
	if (!text)
		abort();
	if (scenario_parse_text("printed", text, strlen(text), true, &sc2, &err)) {
		fprintf(stderr, "printed text does not parse: %s:%d:%d: %s\n%s", err.file,
			err.line, err.col, err.msg, text);
		abort();
	}
	if (!scenario_equal(&sc, &sc2)) {
		fprintf(stderr, "round trip changed the scenario:\n%s", text);
		abort();
	}
	free(text);
	scenario_free(&sc);
	scenario_free(&sc2);
	return 0;
}
