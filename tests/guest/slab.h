/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slab memory as /proc/meminfo reports it, for the guest tests that check
 * what logs cost.
 */
#ifndef FCTEST_SLAB_H
#define FCTEST_SLAB_H

#include <stdio.h>
#include <unistd.h>

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

#endif /* FCTEST_SLAB_H */
