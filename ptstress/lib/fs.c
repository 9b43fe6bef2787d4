// SPDX-License-Identifier: GPL-2.0
/* Removing a report directory without a shell (no string reaches a command). */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

#include "lib/ptstress.h"

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT)
		return errno;
	return 0;
}

int rm_tree(const char *path)
{
	int r;

	/* FTW_PHYS: a symlink is removed, never followed; FTW_DEPTH: contents first. */
	r = nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	if (r < 0)
		return errno == ENOENT ? 0 : -errno;
	return -r;
}
