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
 * Exits after SECONDS without a record (default: never), on a read error,
 * or once the context has failed for good (poll reports POLLHUP: nothing
 * more will be logged) and what was left has been printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
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
		"0, or 1 on a usage error.\n");
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
	int c, r, got;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': pfd.fd = atoi(optarg); break;
		case 'i': idle = atof(optarg); break;
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
		if (poll(&pfd, 1, 100) < 0 && errno != EINTR)
			break;
		got = 0;
		while ((r = fclog_next(log, &rec)) != 0) {
			if (r < 0 && errno != EBADMSG)
				goto out;	/* a read error, not a bad record */
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
			fclog_record_free(rec);
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
	}
out:
	fclog_free(log);
	return 0;
}
