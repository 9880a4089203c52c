// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-mount: mount with the new mount API and show everything the kernel
 * says about it.
 *
 *   fclog-mount -t TYPE [-o OPTS] [--exclusive] [--json] SOURCE TARGET
 *
 * OPTS is comma-separated: "key=value" is set as a string, "key" as a flag.
 * SOURCE "none" sets no source.  After each step every record of the
 * context's log is printed, human-readably (the level coloured on a tty) or
 * with --json as one JSON object per line.  The context's log is structured
 * where the kernel supports it and legacy otherwise.
 *
 * Exit status: 0 mounted; 1 usage; 2 fsopen() failed; 3 an option was
 * refused; 4 the superblock could not be created; 5 fsmount() or
 * move_mount() failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fclog.h"
#include "mount_api.h"

enum { EXIT_USAGE = 1, EXIT_OPEN, EXIT_OPTION, EXIT_CREATE, EXIT_MOUNT };

/* --help: on standard output; a usage error: on standard error. */
static void usage(FILE *f)
{
	fprintf(f, "usage: fclog-mount -t TYPE [-o OPTS] [--exclusive] [--json] SOURCE TARGET\n"
		"  -t TYPE        the filesystem type\n"
		"  -o OPTS        comma-separated options: key=value (a string), key (a flag)\n"
		"      --exclusive  create with FSCONFIG_CMD_CREATE_EXCL\n"
		"      --json     the kernel's records as one JSON object per line\n"
		"      --help     this text\n"
		"SOURCE \"none\" sets no source.  Exit status: 0 mounted, 1 usage, 2 fsopen()\n"
		"failed, 3 an option refused, 4 create failed, 5 fsmount()/move_mount() failed.\n");
}

static unsigned int print_flags;

/*
 * Print every record now in the log.  Reading it empty leaves errno
 * ENODATA: a caller saves the errno it reports before it drains.
 */
static void drain(fclog_t *log)
{
	struct fclog_record *rec;
	int r;

	while ((r = fclog_next(log, &rec)) != 0) {
		if (r > 0)
			fclog_print(stdout, rec, print_flags);
		else
			fprintf(stderr, "fclog-mount: %s\n", fclog_error(log));
		fclog_record_free(rec);
	}
}

/* Set every option of @opts; return 0 or the errno of the first refusal. */
static int set_options(int fd, fclog_t *log, char *opts)
{
	char *opt, *value, *save = NULL;
	int ret, err;

	for (opt = strtok_r(opts, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		value = strchr(opt, '=');
		if (value)
			*value++ = '\0';
		ret = value ? sys_fsconfig(fd, FSCONFIG_SET_STRING, opt, value, 0) :
			      sys_fsconfig(fd, FSCONFIG_SET_FLAG, opt, NULL, 0);
		err = errno;
		drain(log);
		if (ret) {
			fprintf(stderr, "fclog-mount: option %s: %s\n", opt,
				strerror(err));
			return err;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "exclusive", no_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *type = NULL, *source, *target;
	char *opts = NULL;
	bool exclusive = false;
	int fd, mfd, c, err, status = 0;
	fclog_t *log;

	while ((c = getopt_long(argc, argv, "t:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 't': type = optarg; break;
		case 'o': opts = optarg; break;
		case 'x': exclusive = true; break;
		case 'j': print_flags |= FCLOG_PRINT_JSON; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (!type || argc - optind != 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (isatty(STDOUT_FILENO))
		print_flags |= FCLOG_PRINT_COLOUR;
	source = argv[optind];
	target = argv[optind + 1];

	fd = sys_fsopen(type, FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);
	if (fd < 0 && errno == EINVAL)
		fd = sys_fsopen(type, FSOPEN_CLOEXEC);	/* a stock kernel */
	if (fd < 0) {
		fprintf(stderr, "fclog-mount: fsopen %s: %s\n", type,
			strerror(errno));
		return EXIT_OPEN;
	}
	log = fclog_new(fd);
	if (!log)
		return EXIT_OPEN;

	if (strcmp(source, "none") &&
	    sys_fsconfig(fd, FSCONFIG_SET_STRING, "source", source, 0)) {
		err = errno;
		drain(log);
		fprintf(stderr, "fclog-mount: source: %s\n", strerror(err));
		status = EXIT_OPTION;
	} else if (opts && set_options(fd, log, opts)) {
		status = EXIT_OPTION;
	} else if (sys_fsconfig(fd, exclusive ? FSCONFIG_CMD_CREATE_EXCL :
				FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = errno;
		drain(log);
		fprintf(stderr, "fclog-mount: create: %s\n", strerror(err));
		status = EXIT_CREATE;
	} else {
		drain(log);
		mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
		if (mfd < 0 || sys_move_mount(mfd, "", AT_FDCWD, target,
					      MOVE_MOUNT_F_EMPTY_PATH)) {
			fprintf(stderr, "fclog-mount: mount on %s: %s\n", target,
				strerror(errno));
			status = EXIT_MOUNT;
		}
		drain(log);
		if (mfd >= 0)
			close(mfd);
	}
	fclog_free(log);
	close(fd);
	return status;
}
