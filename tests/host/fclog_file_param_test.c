// SPDX-License-Identifier: GPL-2.0
/*
 * fclog_parse_file_param() on the host: each form of VALUE gives the
 * fsconfig() command, value and aux of fclog.h's table, and each malformed
 * argument is refused with EINVAL, leaving the caller's struct as it was.
 * The tools' use of it (command-line order, usage errors, nothing sent to
 * the kernel) is tested with them, in fclog_mount_test and
 * fclog_retry_test.  TAP, with a closing summary line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <linux/mount.h>

#include "fclog.h"

static int n, failures;

static void check(int ok, const char *name, const char *why)
{
	n++;
	if (!ok) {
		printf("# %s\n", why ? why : "");
		failures++;
	}
	printf("%sok %d %s\n", ok ? "" : "not ", n, name);
}

static const char *cmd_name(unsigned int cmd)
{
	switch (cmd) {
	case FSCONFIG_SET_PATH: return "set_path";
	case FSCONFIG_SET_PATH_EMPTY: return "set_path_empty";
	case FSCONFIG_SET_FD: return "set_fd";
	default: return "?";
	}
}

static void valid(void)
{
	static const struct {
		const char *arg, *key;
		unsigned int cmd;
		const char *value;	/* NULL: none */
		int aux;
	} cases[] = {
		{ "upperdir=/srv/upper", "upperdir", FSCONFIG_SET_PATH,
		  "/srv/upper", AT_FDCWD },
		{ "lowerdir+=lower", "lowerdir+", FSCONFIG_SET_PATH, "lower",
		  AT_FDCWD },
		{ "lowerdir+=@3:lower", "lowerdir+", FSCONFIG_SET_PATH, "lower", 3 },
		{ "upperdir=@12:", "upperdir", FSCONFIG_SET_PATH_EMPTY, "", 12 },
		{ "workdir=@0", "workdir", FSCONFIG_SET_FD, NULL, 0 },
		/* A path that begins with '@', from the working directory. */
		{ "datadir+=./@odd", "datadir+", FSCONFIG_SET_PATH, "./@odd",
		  AT_FDCWD },
		/* After "@N:", the path is the path, '@' or ':' included. */
		{ "k=@7:@x", "k", FSCONFIG_SET_PATH, "@x", 7 },
		{ "k=@3:a:b", "k", FSCONFIG_SET_PATH, "a:b", 3 },
		{ "k=a=b", "k", FSCONFIG_SET_PATH, "a=b", AT_FDCWD },
		{ "k=@007", "k", FSCONFIG_SET_FD, NULL, 7 },
		{ "journal_path=@2147483647", "journal_path", FSCONFIG_SET_FD,
		  NULL, 2147483647 },
	};
	struct fclog_file_param p;
	char name[96], why[256];
	size_t i;
	int ok;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ok = !fclog_parse_file_param(cases[i].arg, &p) &&
		     p.keylen == strlen(cases[i].key) &&
		     !strncmp(cases[i].arg, cases[i].key, p.keylen) &&
		     p.cmd == cases[i].cmd && p.aux == cases[i].aux &&
		     (cases[i].value ? p.value && !strcmp(p.value, cases[i].value) :
				       !p.value);
		snprintf(name, sizeof(name), "%s: %s", cases[i].arg,
			 cmd_name(cases[i].cmd));
		snprintf(why, sizeof(why), "keylen %zu, %s, value %s%s%s, aux %d",
			 p.keylen, cmd_name(p.cmd), p.value ? "\"" : "",
			 p.value ?: "NULL", p.value ? "\"" : "", p.aux);
		check(ok, name, why);
	}
}

static void malformed(void)
{
	static const char *const args[] = {
		"upperdir",		/* no '=' */
		"=/srv/upper",		/* no KEY */
		"upperdir=",		/* no VALUE: "@N:" names fd N itself */
		"upperdir=@",
		"upperdir=@x",
		"upperdir=@-1",
		"upperdir=@+1",
		"upperdir=@ 1",
		"upperdir=@12abc",
		"upperdir=@:lower",
		"upperdir=@2147483648",	/* past INT_MAX */
		"upperdir=@99999999999999999999999",
		"",
	};
	const struct fclog_file_param sentinel = {
		.keylen = 99, .cmd = 99, .value = "untouched", .aux = 99,
	};
	struct fclog_file_param p;
	char name[96];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		p = sentinel;
		errno = 0;
		ret = fclog_parse_file_param(args[i], &p);
		snprintf(name, sizeof(name), "\"%s\" is refused (EINVAL)", args[i]);
		check(ret == -1 && errno == EINVAL && p.keylen == 99 &&
		      p.cmd == 99 && p.value == sentinel.value && p.aux == 99,
		      name, NULL);
	}
}

int main(void)
{
	printf("TAP version 13\n");
	valid();
	malformed();
	printf("1..%d\n# %d passed, %d failed\n", n, n - failures, failures);
	return failures ? 1 : 0;
}
