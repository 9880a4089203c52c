/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest tests: which kernel they run on, and slab
 * memory as /proc/meminfo reports it.
 */
#ifndef FCTEST_H
#define FCTEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel under test, from fctest.kernel= on the command line. */
static inline bool fctest_kernel_is(const char *name)
{
	const char *kernel = getenv("FCTEST_KERNEL");

	return kernel && !strcmp(kernel, name);
}

/*
 * Every kernel but the stock one carries the series: there a missing
 * feature is a failure, not a reason to skip.
 */
static inline bool fctest_kernel_has_series(void)
{
	return !fctest_kernel_is("stock");
}

/* "Slab:" in bytes, or a negative number if it cannot be read. */
static inline long slab_bytes(void)
{
	char line[128];
	long kb = -1;
	FILE *f;

	/* Let freed objects settle first: RCU-freed files, per-CPU slabs. */
	sync();
	usleep(200000);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Slab: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

#endif /* FCTEST_H */
