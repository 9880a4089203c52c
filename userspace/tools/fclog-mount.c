// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-mount: mount with the new mount API and show everything the kernel
 * says about it.
 *
 *   fclog-mount -t TYPE [-o OPTS]... [--file KEY=VALUE]... [--exclusive]
 *               [--json] SOURCE TARGET
 *
 * OPTS is comma-separated: "key=value" is set as a string, "key" as a flag.
 * --file gives a file parameter (an overlayfs layer, an ext4 journal) by a
 * path, a path from an inherited fd N, fd N itself or the file it holds:
 * VALUE is PATH, @N:PATH, @N: or @N (fclog_parse_file_param()).  Options
 * and files are set in the order given, after SOURCE ("none": no source).
 * After each step every record of the context's log is printed,
 * human-readably (the level coloured on a tty) or with --json as one JSON
 * object per line.  The context's log is structured where the kernel
 * supports it and legacy otherwise.
 *
 * Exit status: 0 mounted; 1 usage (a --file that does not parse too); 2
 * fsopen() failed; 3 the source, an option or a file was refused; 4 the
 * superblock could not be created; 5 fsmount() or move_mount() failed.
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
	fprintf(f, "usage: fclog-mount -t TYPE [-o OPTS]... [--file KEY=VALUE]... [--exclusive]\n"
		"                   [--json] SOURCE TARGET\n"
		"  -t TYPE        the filesystem type\n"
		"  -o OPTS        comma-separated options: key=value (a string), key (a flag)\n"
		"      --file KEY=VALUE  a file parameter; VALUE is PATH (from the working\n"
		"                 directory), @N:PATH (from the inherited fd N), @N: (fd N\n"
		"                 itself) or @N (the open file fd N holds); ./@... for a PATH\n"
		"                 that begins with @\n"
		"      --exclusive  create with FSCONFIG_CMD_CREATE_EXCL\n"
		"      --json     the kernel's records as one JSON object per line\n"
		"      --help     this text\n"
		"Options and files are set in the order given.  SOURCE \"none\" sets no source.\n"
		"Exit status: 0 mounted, 1 usage, 2 fsopen() failed, 3 an option refused,\n"
		"4 create failed, 5 fsmount()/move_mount() failed.\n");
}

static unsigned int print_flags;

/* An -o string or a --file parameter: set in command-line order. */
struct step {
	char *opts;			/* -o, or NULL */
	char *key;			/* --file's KEY... */
	struct fclog_file_param param;	/* ...and VALUE, parsed */
};

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
		fclog_record_unref(rec);
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

/*
 * Set the file parameter of @st; 0 or the errno of its refusal.  EBADF is
 * also what a closed fd gets: the cause says when the fd was an O_PATH one.
 */
static int set_file(int fd, fclog_t *log, const struct step *st)
{
	const struct fclog_file_param *p = &st->param;
	const struct fclog_record *rej;
	int ret, err;

	fclog_reset(log);
	ret = sys_fsconfig(fd, p->cmd, st->key, p->value, p->aux);
	err = errno;
	drain(log);
	if (!ret)
		return 0;
	rej = fclog_rejected(log, st->key);
	if (rej && rej->cause == FCLOG_CAUSE_O_PATH)
		fprintf(stderr, "fclog-mount: file %s: fd %d is an O_PATH fd (%s): give it as %s=@%d:\n",
			st->key, p->aux, strerror(err), st->key, p->aux);
	else
		fprintf(stderr, "fclog-mount: file %s: %s\n", st->key,
			strerror(err));
	return err;
}

/* Set every step, in order; return 0 or the errno of the first refusal. */
static int configure(int fd, fclog_t *log, struct step *steps, int nsteps)
{
	int i, err = 0;

	for (i = 0; i < nsteps && !err; i++)
		err = steps[i].key ? set_file(fd, log, &steps[i]) :
				     set_options(fd, log, steps[i].opts);
	return err;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "exclusive", no_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *type = NULL, *source, *target;
	struct step *steps;
	bool exclusive = false;
	int fd, mfd, c, err, nsteps = 0, status = 0;
	fclog_t *log;

	/* At most one step per argument. */
	steps = calloc(argc, sizeof(*steps));
	if (!steps)
		return EXIT_USAGE;
	while ((c = getopt_long(argc, argv, "t:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 't': type = optarg; break;
		case 'o': steps[nsteps++].opts = optarg; break;
		case 'f':
			/* Refused here, before anything reaches the kernel. */
			if (fclog_parse_file_param(optarg, &steps[nsteps].param)) {
				fprintf(stderr, "fclog-mount: --file %s: not KEY=PATH, KEY=@N:PATH, KEY=@N: or KEY=@N\n",
					optarg);
				usage(stderr);
				return EXIT_USAGE;
			}
			steps[nsteps].key = strndup(optarg,
						    steps[nsteps].param.keylen);
			if (!steps[nsteps++].key)
				return EXIT_USAGE;
			break;
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
	} else if (configure(fd, log, steps, nsteps)) {
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
