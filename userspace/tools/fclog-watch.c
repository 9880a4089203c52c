// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fclog-watch: stream the records of a filesystem context's log as they
 * arrive (a marker stands where records were lost), and say when another
 * reader of the same log took some.
 *
 *   fclog-watch [--fd N] [--idle SECONDS] [--json]
 *
 * Watches fd N (default 3), a context fd inherited from the program that
 * configures the context.  It waits in poll(2), which on an fc_log v2
 * kernel wakes exactly when a record is stored (on an older kernel the fd
 * always polls readable and the watcher falls back to a 100 ms tick).
 * Exits after SECONDS without a record (default: never), on a read error
 * (exit status 2, the error on standard error), or once the context has
 * failed for good (poll reports POLLHUP: nothing more will be logged) and
 * what was left has been printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fclog.h"

/* --help: on standard output; a usage error: on standard error. */
static void usage(FILE *f)
{
	fprintf(f, "usage: fclog-watch [--fd N] [--idle SECONDS] [--json]\n"
		"      --fd N          the context fd to watch (default 3, inherited)\n"
		"      --idle SECONDS  stop after SECONDS without a record (default: never)\n"
		"      --json          one JSON object per record\n"
		"      --help          this text\n"
		"It also stops once the context has failed for good (POLLHUP).  Exit status:\n"
		"0 when it stops, 1 on a usage error, 2 on a read error.\n");
}

/* How long to wait between reads when poll() cannot be trusted. */
#define TICK_MS 100

/* @s as an fd: a decimal number, all of it, from 0 to INT_MAX. */
static int parse_fd(const char *s, int *fd)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		return -1;
	*fd = v;
	return 0;
}

/* @s as seconds: a finite decimal number above 0, all of it. */
static int parse_seconds(const char *s, double *seconds)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0)
		return -1;
	*seconds = v;
	return 0;
}

/* A usage error: @arg, given to @opt, is not a number @opt takes. */
static int bad_number(const char *opt, const char *arg)
{
	fprintf(stderr, "fclog-watch: %s: not a valid number: '%s'\n", opt, arg);
	usage(stderr);
	return 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "fd", required_argument, NULL, 'f' },
		{ "idle", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	unsigned int flags = isatty(STDOUT_FILENO) ? FCLOG_PRINT_COLOUR : 0;
	struct pollfd pfd = { .fd = 3, .events = POLLIN };
	double idle = 0, last;
	uint64_t unseen = 0;
	struct fclog_record *rec;
	fclog_t *log;
	int c, r, got, ready, status = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (parse_fd(optarg, &pfd.fd))
				return bad_number("--fd", optarg);
			break;
		case 'i':
			if (parse_seconds(optarg, &idle))
				return bad_number("--idle", optarg);
			break;
		case 'j': flags = FCLOG_PRINT_JSON; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 1;
	}
	log = fclog_new(pfd.fd);
	if (!log)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	last = now();
	for (;;) {
		ready = poll(&pfd, 1, TICK_MS);
		if (ready < 0 && errno != EINTR) {
			fprintf(stderr, "fclog-watch: poll: %s\n", strerror(errno));
			status = 2;
			break;
		}
		got = 0;
		while ((r = fclog_next(log, &rec)) != 0) {
			if (r < 0 && errno != EBADMSG) {
				/* A read error, not a bad record: say so. */
				fprintf(stderr, "fclog-watch: %s\n",
					fclog_error(log)[0] ? fclog_error(log) :
					strerror(errno));
				status = 2;
				goto out;
			}
			if (r < 0) {
				fprintf(stderr, "fclog-watch: %s\n", fclog_error(log));
				continue;
			}
			if (fclog_unseen(log) > unseen)
				printf("-- %llu records read by another reader before seq %llu\n",
				       (unsigned long long)(fclog_unseen(log) - unseen),
				       (unsigned long long)rec->seq);
			unseen = fclog_unseen(log);
			fclog_print(stdout, rec, flags);
			fclog_record_unref(rec);
			got = 1;
		}
		if (pfd.revents & POLLHUP) {
			printf("-- the context failed: nothing more will be logged\n");
			break;
		}
		if (got)
			last = now();
		else if (idle && now() - last >= idle)
			break;
		/*
		 * Readable, yet nothing to read: a kernel without the series,
		 * whose context fd always polls readable.  Without this pause
		 * the loop would spin on poll() and read(); with it, it reads
		 * every TICK_MS as the man page says.
		 */
		if (ready > 0 && !got)
			poll(NULL, 0, TICK_MS);
	}
out:
	fclog_free(log);
	return status;
}
