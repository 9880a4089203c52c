// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfclog: a file parameter as a command line gives it, "KEY=VALUE", as
 * the fsconfig() call that gives it; see fclog_parse_file_param() in
 * fclog.h.  The tools share it, so that they take one syntax; a program
 * parses its whole command line before it opens a context, so that a
 * malformed argument never reaches the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <linux/mount.h>

#include "fclog.h"

/*
 * The decimal fd at @s, into *@fd; the first byte after it, or NULL if
 * there is none or it is out of range.  No sign, no space: strtol() would
 * take "-1" and " 1".
 */
static const char *parse_fd(const char *s, int *fd)
{
	long n = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	for (; *s >= '0' && *s <= '9'; s++) {
		n = n * 10 + (*s - '0');
		if (n > INT_MAX)
			return NULL;
	}
	*fd = n;
	return s;
}

int fclog_parse_file_param(const char *arg, struct fclog_file_param *out)
{
	struct fclog_file_param p = { .cmd = FSCONFIG_SET_PATH, .aux = AT_FDCWD };
	const char *eq = strchr(arg, '='), *rest;

	/* An empty PATH names nothing: the fd N itself is "@N:". */
	if (!eq || eq == arg || !eq[1])
		goto bad;
	p.keylen = eq - arg;
	p.value = eq + 1;
	if (*p.value == '@') {
		rest = parse_fd(p.value + 1, &p.aux);
		if (!rest || (*rest && *rest != ':'))
			goto bad;
		p.value = *rest ? rest + 1 : NULL;
		p.cmd = !p.value ? FSCONFIG_SET_FD :
			*p.value ? FSCONFIG_SET_PATH : FSCONFIG_SET_PATH_EMPTY;
	}
	*out = p;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}
