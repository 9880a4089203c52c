// SPDX-License-Identifier: GPL-2.0
/*
 * A refused tmpfs value must not replace the value accepted before it
 * (series/fixes/0001): "nr_inodes=100" then the refused "nr_inodes=lots"
 * must leave a filesystem of 100 inodes, not an unlimited one.  A program
 * that retries a mount without what the kernel refused relies on it.
 *
 * Stock kernels store the value before checking it.  There the test
 * asserts that they still do, so that the day mainline fixes it, the stock
 * run fails and says that fixes/0001 is no longer needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

FIXTURE(refused) {
	int fd;
};

/* A parameter, and the statfs figure that shows its value. */
FIXTURE_VARIANT(refused) {
	const char *key;
	unsigned long long (*figure)(const struct statfs *sfs);
};

static unsigned long long files(const struct statfs *sfs)
{
	return sfs->f_files;
}

/* tmpfs's blocks are pages, as statfs counts them. */
static unsigned long long blocks(const struct statfs *sfs)
{
	return sfs->f_blocks;
}

FIXTURE_VARIANT_ADD(refused, nr_inodes) {
	.key = "nr_inodes",
	.figure = files,
};

FIXTURE_VARIANT_ADD(refused, nr_blocks) {
	.key = "nr_blocks",
	.figure = blocks,
};

FIXTURE_SETUP(refused)
{
	self->fd = sys_fsopen("tmpfs", FSOPEN_CLOEXEC);
	ASSERT_GE(self->fd, 0) TH_LOG("fsopen(tmpfs): %s", strerror(errno));
}

FIXTURE_TEARDOWN(refused)
{
	close(self->fd);
}

/* 100, then "lots" (refused: EINVAL), then create and look. */
TEST_F(refused, keeps_the_accepted_value)
{
	struct statfs sfs;
	int mfd;

	ASSERT_EQ(0, sys_fsconfig(self->fd, FSCONFIG_SET_STRING, variant->key,
				  "100", 0));
	ASSERT_EQ(-1, sys_fsconfig(self->fd, FSCONFIG_SET_STRING,
				   variant->key, "lots", 0));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(0, sys_fsconfig(self->fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		TH_LOG("create: %s", strerror(errno));
	mfd = sys_fsmount(self->fd, FSMOUNT_CLOEXEC, 0);
	ASSERT_GE(mfd, 0) TH_LOG("fsmount: %s", strerror(errno));
	ASSERT_EQ(0, fstatfs(mfd, &sfs));
	close(mfd);

	if (fctest_kernel_has_series()) {
		EXPECT_EQ(100, variant->figure(&sfs));
		return;
	}
	/* 0: unlimited, the refused value's memparse() of "lots". */
	EXPECT_EQ(0, variant->figure(&sfs))
		TH_LOG("stock kept %s=100 (%llu): mainline fixed what fixes/0001 fixes; drop that patch",
		       variant->key, variant->figure(&sfs));
	TH_LOG("stock: the refused %s=lots replaced 100 (0: unlimited), the bug fixes/0001 fixes",
	       variant->key);
}

TEST_HARNESS_MAIN
