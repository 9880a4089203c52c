// SPDX-License-Identifier: GPL-2.0
/*
 * The fs_context message log as a legacy reader sees it: the behaviour
 * every existing consumer (util-linux among them) relies on.  It must hold
 * byte for byte on the stock kernel and on the patched one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "mount_api.h"
#include "kselftest_harness.h"

#define UNKNOWN_X "e tmpfs: Unknown parameter 'x'\n"

FIXTURE(tmpfs_ctx) {
	int fd;
	char buf[1024];
};

FIXTURE_SETUP(tmpfs_ctx)
{
	self->fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
	ASSERT_GE(self->fd, 0);
}

FIXTURE_TEARDOWN(tmpfs_ctx)
{
	close(self->fd);
}

/* Log "Unknown parameter '<key>'" by setting a flag tmpfs does not have. */
static int log_unknown(int fd, const char *key)
{
	if (sys_fsconfig(fd, FSCONFIG_SET_FLAG, key, NULL, 0) == 0)
		return 0;
	return errno;
}

TEST_F(tmpfs_ctx, unknown_parameter_text_is_byte_exact)
{
	ssize_t n;

	ASSERT_EQ(EINVAL, log_unknown(self->fd, "x"));
	n = read(self->fd, self->buf, sizeof(self->buf));
	ASSERT_EQ((ssize_t)strlen(UNKNOWN_X), n);
	ASSERT_EQ(0, memcmp(self->buf, UNKNOWN_X, n));
}

TEST_F(tmpfs_ctx, empty_log_reads_enodata)
{
	ASSERT_EQ(-1, read(self->fd, self->buf, sizeof(self->buf)));
	ASSERT_EQ(ENODATA, errno);
}

TEST_F(tmpfs_ctx, one_message_per_read_in_order)
{
	static const char * const keys[] = { "a", "bb", "ccc" };
	char want[64];
	ssize_t n;
	int i;

	for (i = 0; i < 3; i++)
		ASSERT_EQ(EINVAL, log_unknown(self->fd, keys[i]));
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want),
			 "e tmpfs: Unknown parameter '%s'\n", keys[i]);
		n = read(self->fd, self->buf, sizeof(self->buf));
		ASSERT_EQ((ssize_t)strlen(want), n);
		ASSERT_EQ(0, memcmp(self->buf, want, n));
	}
	ASSERT_EQ(-1, read(self->fd, self->buf, sizeof(self->buf)));
	ASSERT_EQ(ENODATA, errno);
}

TEST_F(tmpfs_ctx, short_buffer_is_emsgsize_and_keeps_message)
{
	size_t len = strlen(UNKNOWN_X);
	ssize_t n;

	ASSERT_EQ(EINVAL, log_unknown(self->fd, "x"));
	ASSERT_EQ(-1, read(self->fd, self->buf, len - 1));
	ASSERT_EQ(EMSGSIZE, errno);
	ASSERT_EQ(-1, read(self->fd, self->buf, 1));
	ASSERT_EQ(EMSGSIZE, errno);
	/* Exactly the message's length is enough: no terminator is written. */
	memset(self->buf, '#', sizeof(self->buf));
	n = read(self->fd, self->buf, len);
	ASSERT_EQ((ssize_t)len, n);
	ASSERT_EQ(0, memcmp(self->buf, UNKNOWN_X, len));
	ASSERT_EQ('#', self->buf[len]);
}

TEST_F(tmpfs_ctx, dup_fds_share_one_queue)
{
	int dupfd = dup(self->fd);
	ssize_t n;

	ASSERT_GE(dupfd, 0);
	ASSERT_EQ(EINVAL, log_unknown(self->fd, "x"));
	n = read(dupfd, self->buf, sizeof(self->buf));
	ASSERT_EQ((ssize_t)strlen(UNKNOWN_X), n);
	ASSERT_EQ(-1, read(self->fd, self->buf, sizeof(self->buf)));
	ASSERT_EQ(ENODATA, errno);
	close(dupfd);
}

TEST(fspick_contexts_have_their_own_logs)
{
	char buf[256];
	int a, b;

	/* The guest's /init mounts a tmpfs on /tmp. */
	a = sys_fspick(AT_FDCWD, "/tmp", FSPICK_CLOEXEC);
	ASSERT_GE(a, 0);
	b = sys_fspick(AT_FDCWD, "/tmp", FSPICK_CLOEXEC);
	ASSERT_GE(b, 0);

	ASSERT_EQ(EINVAL, log_unknown(a, "x"));
	ASSERT_EQ(-1, read(b, buf, sizeof(buf)));
	ASSERT_EQ(ENODATA, errno);
	ASSERT_EQ((ssize_t)strlen(UNKNOWN_X), read(a, buf, sizeof(buf)));
	ASSERT_EQ(0, memcmp(buf, UNKNOWN_X, strlen(UNKNOWN_X)));
	close(a);
	close(b);
}

TEST_HARNESS_MAIN
