// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-probe: ask the kernel whether a filesystem takes options, without
 * mounting anything.
 *
 *   fclog-probe -t TYPE [--json] KEY[=VALUE]...
 *
 * Each option is set on a context of its own that is never created
 * (fclog_probe_option()): "KEY=VALUE" as a string, "KEY" as a flag.  One
 * context for all would let an option the kernel accepted, or a
 * filesystem that keeps part of a refused value, change the answer for
 * the next one (a second "source" is refused as a duplicate; tmpfs checks
 * some values against others), and a stock kernel's log of 8 messages
 * could lose the records of the first options; a fresh context answers
 * for the option alone, at the cost of an fsopen() each.
 *
 * It prints one line per option: supported, unknown to TYPE, known to
 * TYPE but refused (with the kernel's cause), or cannot tell (a kernel
 * without structured logs refused it, or the kernel gave no cause), then
 * the kernel's own line.  With --json, one object per option.
 *
 * Exit status: 0 every option supported; 1 usage; 2 no context could be
 * opened (no such filesystem type, no privilege); 3 at least one option is
 * unknown or refused; 4 none is, but the kernel could not tell for at
 * least one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "fclog.h"

enum { EXIT_USAGE = 1, EXIT_OPEN, EXIT_UNSUPPORTED, EXIT_CANNOT_TELL };

static void usage(FILE *f)
{
	fprintf(f, "usage: fclog-probe -t TYPE [--json] KEY[=VALUE]...\n"
		"  -t, --type TYPE  the filesystem type to ask (tmpfs, ext4, ...)\n"
		"      --json       one JSON object per option\n"
		"      --help       this text, on standard output\n"
		"Each KEY=VALUE is set as a string, each KEY as a flag, on a context of its\n"
		"own that is never created.  Exit status: 0 all supported, 1 usage, 2 no\n"
		"context (unknown type, no privilege), 3 one unknown or refused, 4 one\n"
		"the kernel cannot tell.\n");
}

static const char *errname(int err)
{
	return strerrorname_np(err) ?: "?";
}

static void print_text(const char *type, const char *arg,
		       const struct fclog_probe *p)
{
	printf("%s: ", arg);
	switch (p->answer) {
	case FCLOG_PROBE_SUPPORTED:
		printf("supported%s", p->deprecated ? " (deprecated)" : "");
		break;
	case FCLOG_PROBE_UNKNOWN:
		printf("unknown to %s", type);
		break;
	case FCLOG_PROBE_REFUSED:
		printf("known to %s, refused (%s", type, p->cause_name);
		if (p->expected != FCLOG_OP_NONE)
			printf(", expects %s", fclog_op_name(p->expected) ?: "?");
		printf(", %s)", errname(p->errnum));
		break;
	case FCLOG_PROBE_CANNOT_TELL:
		printf("cannot tell (%s, %s)", errname(p->errnum),
		       !p->structured ? "this kernel's log gives no cause" :
		       *p->cause_name ? "a cause this tool does not know" :
		       "the kernel gave no cause");
		break;
	}
	if (*p->msg && p->answer != FCLOG_PROBE_SUPPORTED)
		printf(": %s", p->msg);
	putchar('\n');
}

static void print_json(const char *arg, const char *key, const char *value,
		       const struct fclog_probe *p)
{
	json_t *obj;

	obj = json_pack("{s:s, s:s, s:s?, s:s, s:b, s:b}", "option", arg,
			"key", key, "value", value,
			"answer", fclog_probe_answer_name(p->answer),
			"structured", p->structured, "deprecated", p->deprecated);
	if (!obj)
		return;
	if (p->errnum)
		json_object_set_new(obj, "errno", json_integer(p->errnum));
	if (*p->cause_name)
		json_object_set_new(obj, "cause", json_string(p->cause_name));
	if (fclog_op_name(p->expected))
		json_object_set_new(obj, "expected",
				    json_string(fclog_op_name(p->expected)));
	if (*p->msg)
		json_object_set_new(obj, "msg", json_string(p->msg));
	json_dumpf(obj, stdout, JSON_COMPACT);
	putchar('\n');
	json_decref(obj);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "type", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	bool json_out = false, unsupported = false, unsure = false;
	const char *type = NULL;
	struct fclog_probe p;
	char *key, *value;
	int c, i;

	while ((c = getopt_long(argc, argv, "t:", longopts, NULL)) != -1) {
		switch (c) {
		case 't': type = optarg; break;
		case 'j': json_out = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (!type || optind == argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (i = optind; i < argc; i++) {
		key = strdup(argv[i]);
		if (!key)
			return EXIT_OPEN;
		value = strchr(key, '=');
		if (value)
			*value++ = '\0';
		if (!*key) {
			fprintf(stderr, "fclog-probe: %s: no key\n", argv[i]);
			return EXIT_USAGE;
		}
		if (fclog_probe_option(type, key, value, 0, &p)) {
			fprintf(stderr, "fclog-probe: fsopen %s: %s\n", type,
				strerror(errno));
			return EXIT_OPEN;
		}
		if (json_out)
			print_json(argv[i], key, value, &p);
		else
			print_text(type, argv[i], &p);
		unsupported |= p.answer == FCLOG_PROBE_UNKNOWN ||
			       p.answer == FCLOG_PROBE_REFUSED;
		unsure |= p.answer == FCLOG_PROBE_CANNOT_TELL;
		free(key);
	}
	return unsupported ? EXIT_UNSUPPORTED : unsure ? EXIT_CANNOT_TELL : 0;
}
