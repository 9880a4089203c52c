/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the guest tests and the benchmark (tests/bench): which
 * kernel they run on, a clock, contexts by the thousand, slab memory as
 * /proc/meminfo reports it, and writing a file whole.
 */
#ifndef FCTEST_H
#define FCTEST_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "mount_api.h"

/* The kernel under test, from fctest.kernel= on the command line. */
static inline bool fctest_kernel_is(const char *name)
{
	const char *kernel = getenv("FCTEST_KERNEL");

	return kernel && !strcmp(kernel, name);
}

/*
 * Every kernel but the stock one carries the series, or its first
 * postings: there a missing feature is a failure, not a reason to skip.
 * The "fc-log" kernel is 7.3 with the fixes and fc-log postings alone
 * (series/postings): the bounded log, loss markers and poll(), no
 * structured records; the others carry every posting.
 */
static inline bool fctest_kernel_has_series(void)
{
	return !fctest_kernel_is("stock");
}

/* The structured posting: FSOPEN_STRUCTURED_LOG, reports, FIONREAD. */
static inline bool fctest_kernel_has_structured(void)
{
	return fctest_kernel_has_series() && !fctest_kernel_is("fc-log");
}

/* Why a test that needs the structured posting skips where it is not. */
#define FCTEST_NEEDS_STRUCTURED \
	"needs the structured posting (series/structured), not on this kernel"

/*
 * The buffer of a test that reads a record into a fixed buffer: larger
 * than any record the kernel makes.  The kernel's bound on a record is its
 * own, not ABI (fclog(7)); a test about sizing a read uses FIONREAD.
 */
#define FCTEST_READ_MAX		65536

/* CLOCK_MONOTONIC, in seconds. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* @n idle tmpfs contexts into @fds; -1 (errno set) if one cannot be opened. */
static inline int open_contexts(int *fds, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fds[i] = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

/* Read everything back so that closing reports nothing, then close. */
static inline void close_all(int *fds, int n)
{
	char buf[2048];
	int i;

	for (i = 0; i < n; i++) {
		while (read(fds[i], buf, sizeof(buf)) > 0)
			;
		close(fds[i]);
	}
}

/*
 * Keep the calling thread on the CPU it runs on now.  "Slab:" counts every
 * CPU's partial slabs: a thread that allocates on one CPU and frees on the
 * other fills both CPUs' lists, a couple of hundred KiB that belong to no
 * log.  Memory measurements pin themselves first.
 */
static inline int pin_to_this_cpu(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A /proc/meminfo slab figure in bytes, or a negative number if it cannot
 * be read: "Slab" for everything a context costs (its file's dentry is
 * reclaimable), "SUnreclaim" where only kmalloc()ed records matter, which
 * leaves out the dentry and inode caches that the rest of the system moves
 * by tens of KiB.
 */
static inline long slab_bytes_of(const char *field)
{
	char line[128], name[32];
	long kb = -1, n;
	FILE *f;

	/* Let freed objects settle first: RCU-freed files, per-CPU slabs. */
	sync();
	usleep(200000);
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31[^:]: %ld kB", name, &n) == 2 &&
		    !strcmp(name, field)) {
			kb = n;
			break;
		}
	fclose(f);
	return kb * 1024;
}

static inline long slab_bytes(void)
{
	return slab_bytes_of("Slab");
}

/*
 * Write @text to @path in one write(), creating it if need be (a /proc
 * file, such as uid_map, takes its whole value in one write); 0 or -1.
 */
static inline int fctest_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * Become uid and gid 65534, unprivileged, in a user and mount namespace of
 * one's own (and an ipc namespace, where the kernel has them), mapped to
 * root there; 0 or -1.  A child does this: there is no way back.
 */
static inline int fctest_enter_userns(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return -1;
	/* A change of uid makes /proc/self root's: take it back. */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return -1;
	/* Without ipc namespaces (CONFIG_IPC_NS), share the guest's. */
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC) &&
	    (errno != EINVAL || unshare(CLONE_NEWUSER | CLONE_NEWNS)))
		return -1;
	if (fctest_write_file("/proc/self/setgroups", "deny") ||
	    fctest_write_file("/proc/self/uid_map", "0 65534 1") ||
	    fctest_write_file("/proc/self/gid_map", "0 65534 1"))
		return -1;
	return 0;
}

#endif /* FCTEST_H */
