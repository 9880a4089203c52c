// SPDX-License-Identifier: GPL-2.0
/*
 * fc_log_memory: what a filesystem context and its log cost in slab memory,
 * read from /proc/meminfo around thousands of contexts.
 *
 *   idle      a context that has logged nothing;
 *   full      the extra cost of a log filled with typical messages
 *             ("Unknown parameter 'kNN'"), 100 per context;
 *   longest   the same with the longest message a key can make (255 bytes).
 *
 * The figures are printed on both kernels ("# memory: ..."), for the README
 * and the cover letter.  On the patched kernel a full log must stay within
 * the documented bound, FC_LOG_MAX_BYTES (32 KiB), plus slab slack.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mount_api.h"
#include "fctest.h"

#define IDLE_CONTEXTS	3000
#define FULL_CONTEXTS	300
#define MESSAGES	100
#define LOG_BOUND	(32 * 1024)
/* Slab pages are not filled to the byte; allow for it. */
#define SLACK		(LOG_BOUND / 8)

static void fill(int fd, size_t keylen)
{
	char key[256];
	int i;

	/* Unique keys of exactly @keylen digits. */
	for (i = 0; i < MESSAGES; i++) {
		snprintf(key, sizeof(key), "%0*d", (int)keylen, i);
		sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0);
	}
}

/* Extra slab bytes per context for logs filled with keys of @keylen. */
static long full_log_bytes(int *fds, size_t keylen, long idle)
{
	long before, after;
	int i;

	before = slab_bytes();
	if (open_contexts(fds, FULL_CONTEXTS))
		return -1;
	for (i = 0; i < FULL_CONTEXTS; i++)
		fill(fds[i], keylen);
	after = slab_bytes();
	close_all(fds, FULL_CONTEXTS);
	return (after - before) / FULL_CONTEXTS - idle;
}

int main(void)
{
	struct rlimit rl = { IDLE_CONTEXTS + 64, IDLE_CONTEXTS + 64 };
	/* The bound is the fc-log posting's; debug kernels pad objects. */
	bool patched = fctest_kernel_is("patched") || fctest_kernel_is("fc-log");
	long before, after, idle, full, longest;
	static int fds[IDLE_CONTEXTS];

	printf("TAP version 13\n1..2\n");
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		printf("not ok 1 setrlimit: %s\n", strerror(errno));
		return 1;
	}

	if (pin_to_this_cpu()) {
		printf("not ok 1 sched_setaffinity: %s\n", strerror(errno));
		return 1;
	}
	before = slab_bytes();
	if (open_contexts(fds, IDLE_CONTEXTS)) {
		printf("not ok 1 fsopen: %s\n", strerror(errno));
		return 1;
	}
	after = slab_bytes();
	close_all(fds, IDLE_CONTEXTS);
	idle = (after - before) / IDLE_CONTEXTS;
	printf("# memory: idle_context_bytes=%ld\n", idle);
	printf("%sok 1 idle_context_measured\n", idle > 0 ? "" : "not ");

	full = full_log_bytes(fds, 4, idle);
	longest = full_log_bytes(fds, 255, idle);
	printf("# memory: full_log_bytes=%ld (%d messages of 33 bytes)\n",
	       full, MESSAGES);
	printf("# memory: longest_log_bytes=%ld (%d messages of 284 bytes)\n",
	       longest, MESSAGES);
	if (!patched)
		printf("ok 2 full_log_within_bound # SKIP checked on the patched and fc-log kernels only (stock has no bound; debug kernels pad objects)\n");
	else
		printf("%sok 2 full_log_within_bound (%d + %d bytes)\n",
		       full > 0 && longest > 0 && longest <= LOG_BOUND + SLACK ?
		       "" : "not ", LOG_BOUND, SLACK);
	return 0;
}
