// SPDX-License-Identifier: GPL-2.0
/*
 * record_format: the size and the cost of a structured record, for the
 * JSON vs binary question of the structured cover (issue 42, item 6).
 * Run as /bench/fc_log_cost under "qemu/boot icount" (set-aside/tlv-sketch/
 * README says how), once on the series' kernel (JSON) and once on the
 * throwaway sketch that encodes the same fields as TLV: the clock counts
 * guest instructions.  For three records, an unknown key (tmpfs "nosuch"),
 * a bad value (tmpfs "size=abc") and an sb_shared with three parameters
 * (debugfs mode, uid, gid against the mounted superblock), it prints
 *
 *   RECORD <name> bytes <read size> line <line bytes> object <object bytes>
 *   COST <name> read <insn per read()> log_read <insn per log + read()>
 *
 * each a median of BATCHES batches of BURST, net of an empty batch's cost.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "mount_api.h"

#define BATCHES	9
#define BURST	8

static char buf[65536];

static void die(const char *what)
{
	printf("# record_format: %s: %s\n", what, strerror(errno));
	fflush(stdout);
	exit(1);
}

static long long clock_insn(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long median(long long *v)
{
	qsort(v, BATCHES, sizeof(*v), cmp_ll);
	return v[BATCHES / 2];
}

static int open_structured(const char *fstype)
{
	int fd = sys_fsopen(fstype, FSOPEN_CLOEXEC | FSOPEN_STRUCTURED_LOG);

	if (fd < 0)
		die("fsopen");
	return fd;
}

static void log_unknown(int fd)
{
	if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, "nosuch", NULL, 0) != -1)
		die("fsconfig nosuch accepted");
}

static void log_bad_value(int fd)
{
	if (sys_fsconfig(fd, FSCONFIG_SET_STRING, "size", "abc", 0) != -1)
		die("fsconfig size=abc accepted");
}

/* A context of debugfs with three parameters, created: sb_shared. */
static int shared_debugfs(void)
{
	int fd = open_structured("debugfs");

	if (sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", "0700", 0) ||
	    sys_fsconfig(fd, FSCONFIG_SET_STRING, "uid", "0", 0) ||
	    sys_fsconfig(fd, FSCONFIG_SET_STRING, "gid", "0", 0) ||
	    sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		die("debugfs create");
	return fd;
}

/* Every record of @fd: its sizes, and its line (to tell which is which). */
static void report_records(const char *name, int fd)
{
	int size;
	ssize_t n;
	size_t line;

	for (;;) {
		if (ioctl(fd, FIONREAD, &size))
			die("FIONREAD");
		if (!size)
			break;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0 || n != size)
			die("read the record");
		line = strnlen(buf, n);
		printf("RECORD %s bytes %zd line %zu object %zd # %.*s\n", name,
		       n, line, n - (ssize_t)line - 1,
		       (int)(line && buf[line - 1] == '\n' ? line - 1 : line),
		       buf);
	}
	fflush(stdout);
}

/* Per read() of the first record of each of BURST contexts, made by @make. */
static long long cost_read(int (*make)(void))
{
	long long t[BATCHES], empty[BATCHES], t0;
	int fds[BURST], b, i;

	for (b = 0; b < BATCHES; b++) {
		for (i = 0; i < BURST; i++)
			fds[i] = make();
		t0 = clock_insn();
		for (i = 0; i < BURST; i++)
			if (read(fds[i], buf, sizeof(buf)) <= 0)
				die("timed read");
		t[b] = clock_insn() - t0;
		t0 = clock_insn();
		for (i = 0; i < BURST; i++)
			asm volatile("" ::: "memory");
		empty[b] = clock_insn() - t0;
		for (i = 0; i < BURST; i++)
			close(fds[i]);
	}
	return (median(t) - median(empty)) / BURST;
}

static int make_unknown(void)
{
	int fd = open_structured("tmpfs");

	log_unknown(fd);
	return fd;
}

static int make_bad_value(void)
{
	int fd = open_structured("tmpfs");

	log_bad_value(fd);
	return fd;
}

/* Per fsconfig() that logs + read() of its record, on one context. */
static long long cost_log_read(void (*log)(int))
{
	long long t[BATCHES], t0;
	int fd = open_structured("tmpfs"), b, i;

	for (b = 0; b < BATCHES; b++) {
		t0 = clock_insn();
		for (i = 0; i < BURST; i++) {
			log(fd);
			if (read(fd, buf, sizeof(buf)) <= 0)
				die("read after log");
		}
		t[b] = clock_insn() - t0;
	}
	close(fd);
	return median(t) / BURST;
}

int main(void)
{
	int fd, mnt;

	/* The superblock the next debugfs contexts share. */
	fd = open_structured("debugfs");
	if (sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		die("first debugfs");
	mnt = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	if (mnt < 0)
		die("fsmount debugfs");
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);

	fd = make_unknown();
	report_records("unknown_key", fd);
	close(fd);
	fd = make_bad_value();
	report_records("bad_value", fd);
	close(fd);
	fd = shared_debugfs();
	report_records("sb_shared", fd);
	close(fd);

	printf("COST unknown_key read %lld log_read %lld\n",
	       cost_read(make_unknown), cost_log_read(log_unknown));
	printf("COST bad_value read %lld log_read %lld\n",
	       cost_read(make_bad_value), cost_log_read(log_bad_value));
	printf("COST sb_shared read %lld\n", cost_read(shared_debugfs));
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
	close(mnt);
	return 0;
}
