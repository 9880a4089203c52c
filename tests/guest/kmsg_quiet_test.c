// SPDX-License-Identifier: GPL-2.0
/*
 * Closing a filesystem context with messages unread puts nothing into the
 * kernel log, on every kernel the harness builds.  Whoever opens a context
 * chooses what it logs and how often, in a user namespace of its own too,
 * and programs that probe parameters close their contexts unread by
 * design (systemd's mount_option_supported()): a kernel-log line per
 * unread message would be a line of the caller's choosing, at the
 * caller's rate.  Stock 7.3 frees unread messages silently, and so must
 * the series.
 *
 * The kernel log is read with klogctl(), which sees every level: these
 * lines would sit below a quiet console's level.  Each test first writes
 * a line of its own to /dev/kmsg and finds it, so that a log it cannot
 * read (or one that rotated it away) fails instead of passing empty.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mount_api.h"
#include "fctest.h"
#include "kselftest_harness.h"

/* DEFAULT_RATELIMIT_INTERVAL is 5 s: a round in a window of its own. */
#define ROUND_GAP_SECONDS	6

FIXTURE(kmsg) {};
FIXTURE_SETUP(kmsg) {}
FIXTURE_TEARDOWN(kmsg) {}

/* The whole kernel log, NUL-terminated, or NULL. */
static char *kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* How many times @needle is in the kernel log; -1 if it cannot be read. */
static int kernel_log_count(const char *needle)
{
	char *log = kernel_log(), *p;
	int n = 0;

	if (!log)
		return -1;
	for (p = log; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	free(log);
	return n;
}

/* The kernel log is readable, and a line written now is found in it. */
static int kernel_log_works(void)
{
	char canary[64];

	snprintf(canary, sizeof(canary), "kmsg_quiet_test: reading %d\n",
		 getpid());
	/* As userspace writes to the kernel log. */
	if (fctest_write_file("/dev/kmsg", canary))
		return -1;
	canary[strlen(canary) - 1] = '\0';
	return kernel_log_count(canary) == 1 ? 0 : -1;
}

/*
 * Open @count tmpfs contexts, have each log an error about a key built
 * from @prefix, and close it unread.  Returns 0 if every key was refused.
 */
static int close_unread(const char *prefix, int count)
{
	char key[256];
	int i, fd, ret = 0;

	for (i = 0; i < count && !ret; i++) {
		/* 255 bytes, the longest key fsconfig() takes. */
		snprintf(key, sizeof(key), "%s%04d%0*d", prefix, i,
			 (int)(255 - strlen(prefix) - 4), 0);
		fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
		if (fd < 0)
			return -1;
		if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0) == 0 ||
		    errno != EINVAL)
			ret = -1;
		close(fd);
	}
	return ret;
}

/*
 * Uid 65534 in its own user namespace closes 200 contexts unread, each
 * with an error about a 255-byte key of its choosing; again in the next
 * ratelimit window.  None of it reaches the kernel log.
 */
TEST_F_TIMEOUT(kmsg, unprivileged_user_closes_unread, 120)
{
	char prefix[64];
	int round, status;
	pid_t pid;

	ASSERT_EQ(0, kernel_log_works());
	snprintf(prefix, sizeof(prefix), "kmsgquiet%d_", getpid());
	for (round = 0; round < 2; round++) {
		if (round)
			sleep(ROUND_GAP_SECONDS);
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(fctest_enter_userns() ? 10 :
			      close_unread(prefix, 200) ? 11 : 0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
		EXPECT_EQ(0, kernel_log_count(prefix))
			TH_LOG("round %d: lines carrying the user's key", round);
	}
}

/*
 * systemd's mount_option_supported(), as root: fsopen(), the canary
 * SET_FD that tells a converted filesystem (EINVAL) from one that is not
 * (EOPNOTSUPP), the real SET_STRING, close() unread.  A hundred probes
 * leave nothing in the kernel log.
 */
TEST_F_TIMEOUT(kmsg, systemd_option_probe_closes_unread, 120)
{
	static const char canary[] = "adefinitelynotexistingmountoption";
	char option[64];
	int i, fd, before;

	ASSERT_EQ(0, kernel_log_works());
	before = kernel_log_count(canary);
	snprintf(option, sizeof(option), "kmsgquiet%d_probe", getpid());
	/* A ratelimit window of its own, whatever ran before. */
	sleep(ROUND_GAP_SECONDS);
	for (i = 0; i < 100; i++) {
		fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
		ASSERT_GE(fd, 0);
		EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_FD, canary, NULL, fd));
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_STRING, option, "1", 0));
		EXPECT_EQ(EINVAL, errno);
		close(fd);
	}
	EXPECT_EQ(before, kernel_log_count(canary));
	EXPECT_EQ(0, kernel_log_count(option));
}

TEST_HARNESS_MAIN
