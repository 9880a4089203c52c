// SPDX-License-Identifier: GPL-2.0
/*
 * Superblock reuse and FSCONFIG_CMD_CREATE_EXCL (merged in 6.6): CREATE may
 * hand back an existing superblock, CREATE_EXCL refuses to with EBUSY.  The
 * guest's /init has already mounted debugfs and tracefs, and mqueue's
 * superblock for the initial IPC namespace exists from boot.
 *
 * FSCONFIG_CMD_CREATE_COMPATIBLE (the series) shares one only if what the
 * context set matches it, as far as the filesystem can tell: one that does
 * not compare has the superblock in use refused (EBUSY); a kernel without
 * the command refuses it with EOPNOTSUPP before it looks at the context,
 * saying nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fctest.h"
#include "mount_api.h"
#include "kselftest_harness.h"

/* Configure nothing, run @cmd; return 0 or the errno, log left in *@fdp. */
static int create(const char *fstype, unsigned int cmd, int *fdp)
{
	int fd = sys_fsopen(fstype, FSOPEN_CLOEXEC);

	*fdp = fd;
	if (fd < 0)
		return -1;
	if (sys_fsconfig(fd, cmd, NULL, NULL, 0) == 0)
		return 0;
	return errno;
}

/*
 * CREATE on @fstype, then fsmount.  Returns the mount fd, which the caller
 * keeps open while it compares devices: closing it may free the superblock
 * and let the next one reuse its anonymous device number.
 */
static int created_mount(const char *fstype, dev_t *dev)
{
	struct stat st;
	int fd, mfd = -1;

	*dev = 0;
	if (create(fstype, FSCONFIG_CMD_CREATE, &fd) == 0)
		mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	if (mfd >= 0 && fstat(mfd, &st) == 0)
		*dev = st.st_dev;
	if (fd >= 0)
		close(fd);
	return mfd;
}

static dev_t path_dev(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_dev;
}

FIXTURE(single) {
	char buf[256];
};

FIXTURE_VARIANT(single) {
	const char *fstype;
	const char *mountpoint;
};

FIXTURE_VARIANT_ADD(single, debugfs) {
	.fstype = "debugfs",
	.mountpoint = "/sys/kernel/debug",
};

FIXTURE_VARIANT_ADD(single, tracefs) {
	.fstype = "tracefs",
	.mountpoint = "/sys/kernel/tracing",
};

FIXTURE_SETUP(single)
{
}

FIXTURE_TEARDOWN(single)
{
}

TEST_F(single, create_excl_is_ebusy_with_a_warning)
{
	char want[128];
	ssize_t n;
	int fd;

	ASSERT_EQ(EBUSY, create(variant->fstype, FSCONFIG_CMD_CREATE_EXCL, &fd));
	snprintf(want, sizeof(want),
		 "w %s: reusing existing filesystem not allowed\n",
		 variant->fstype);
	n = read(fd, self->buf, sizeof(self->buf));
	ASSERT_EQ((ssize_t)strlen(want), n);
	ASSERT_EQ(0, memcmp(self->buf, want, n));
	close(fd);
}

TEST_F(single, create_reuses_the_mounted_superblock)
{
	dev_t mounted = path_dev(variant->mountpoint), dev;
	int mfd = created_mount(variant->fstype, &dev);

	ASSERT_GE(mfd, 0);
	ASSERT_NE(0, mounted);
	ASSERT_EQ(mounted, dev);
	close(mfd);
}

/* A context of @fstype with mode=@mode set; -1 if it cannot be had. */
static int with_mode(const char *fstype, const char *mode)
{
	int fd = sys_fsopen(fstype, FSOPEN_CLOEXEC);

	if (fd >= 0 && sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", mode, 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* fsmount @fd: the mount's device, 0 if it failed. */
static dev_t mounted_dev(int fd)
{
	struct stat st;
	dev_t dev = 0;
	int mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);

	if (mfd >= 0 && fstat(mfd, &st) == 0)
		dev = st.st_dev;
	if (mfd >= 0)
		close(mfd);
	return dev;
}

static int mode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

/*
 * The superblock in use, given mode=0700 by a plain CREATE (which applies
 * it): CREATE_COMPATIBLE asking mode=700 shares it; asking 0755 it is
 * refused with EBUSY and a warning, the superblock keeps its mode, and the
 * context (legacy) has failed as on stock; a new one asking 0700 shares
 * it.  On a kernel without the command: EOPNOTSUPP, nothing logged, and
 * the context still creates.
 */
TEST_F(single, create_compatible_shares_only_what_matches)
{
	dev_t mounted = path_dev(variant->mountpoint);
	char want[128];
	ssize_t n;
	int fd, ret;

	ASSERT_NE(0, mounted);
	fd = with_mode(variant->fstype, "0700");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
	close(fd);
	ASSERT_EQ(0700, mode_of(variant->mountpoint));

	fd = with_mode(variant->fstype, "700");
	ASSERT_LE(0, fd);
	ret = sys_fsconfig(fd, FSCONFIG_CMD_CREATE_COMPATIBLE, NULL, NULL, 0);
	if (ret && errno == EOPNOTSUPP) {
		EXPECT_FALSE(fctest_kernel_has_structured());
		EXPECT_EQ(-1, read(fd, self->buf, sizeof(self->buf)));
		EXPECT_EQ(ENODATA, errno);
		ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0));
		EXPECT_EQ(mounted, mounted_dev(fd));
		close(fd);
		return;
	}
	ASSERT_EQ(0, ret) TH_LOG("create_compatible: %s", strerror(errno));
	EXPECT_EQ(mounted, mounted_dev(fd));
	close(fd);

	fd = with_mode(variant->fstype, "0755");
	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_COMPATIBLE, NULL,
				   NULL, 0));
	ASSERT_EQ(EBUSY, errno);
	snprintf(want, sizeof(want),
		 "w %s: reusing existing filesystem not allowed, its settings differ\n",
		 variant->fstype);
	n = read(fd, self->buf, sizeof(self->buf));
	ASSERT_EQ((ssize_t)strlen(want), n);
	EXPECT_EQ(0, memcmp(self->buf, want, n));
	EXPECT_EQ(0700, mode_of(variant->mountpoint));
	/*
	 * A legacy context fails as it would without the series, whatever
	 * the filesystem declares: a second chance is a structured one's.
	 */
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_SET_STRING, "mode", "0700", 0));
	ASSERT_EQ(EBUSY, errno);
	close(fd);
	fd = with_mode(variant->fstype, "0700");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_COMPATIBLE, NULL,
				  NULL, 0));
	EXPECT_EQ(mounted, mounted_dev(fd));
	close(fd);
}

/*
 * sysfs does not compare its superblocks.  With the structured posting
 * CREATE_COMPATIBLE refuses the one mounted on /sys as it cannot vouch for
 * it (EBUSY and the warning a refused superblock gives; nothing of the
 * structured-only records in this legacy log), and sysfs declares no
 * retry: the context has failed.  A kernel without the command refuses it
 * with EOPNOTSUPP, logging nothing, the context untouched: CREATE then
 * shares the superblock.
 */
TEST(sysfs_create_compatible_refuses_what_it_cannot_compare)
{
	static const char want[] =
		"w sysfs: reusing existing filesystem not allowed, its settings cannot be compared\n";
	char buf[256];
	int fd = sys_fsopen("sysfs", FSOPEN_CLOEXEC), err;
	ssize_t n;

	ASSERT_LE(0, fd);
	ASSERT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE_COMPATIBLE, NULL,
				   NULL, 0));
	err = errno;
	n = read(fd, buf, sizeof(buf));
	if (fctest_kernel_has_structured()) {
		ASSERT_EQ(EBUSY, err);
		ASSERT_EQ((ssize_t)strlen(want), n) TH_LOG("read: %zd", n);
		EXPECT_EQ(0, memcmp(buf, want, n));
	} else {
		ASSERT_EQ(EOPNOTSUPP, err);
		EXPECT_EQ(-1, n);
		EXPECT_EQ(ENODATA, errno);
	}
	EXPECT_EQ(-1, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(ENODATA, errno);
	if (fctest_kernel_has_structured()) {
		EXPECT_EQ(-1, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL,
					   0));
		EXPECT_EQ(EBUSY, errno);
	} else {
		ASSERT_EQ(0, sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL,
					  0))
			TH_LOG("create after EOPNOTSUPP: %s", strerror(errno));
		EXPECT_EQ(path_dev("/sys"), mounted_dev(fd));
	}
	close(fd);
}

/* mqueue is keyed by IPC namespace; the initial one has a superblock. */
TEST(mqueue_keyed_create_excl_is_ebusy_create_reuses)
{
	dev_t first, second;
	int fd, m1, m2;

	ASSERT_EQ(EBUSY, create("mqueue", FSCONFIG_CMD_CREATE_EXCL, &fd));
	close(fd);
	m1 = created_mount("mqueue", &first);
	m2 = created_mount("mqueue", &second);
	ASSERT_GE(m1, 0);
	ASSERT_GE(m2, 0);
	ASSERT_NE(0, first);
	ASSERT_EQ(first, second);
	close(m1);
	close(m2);
}

/* tmpfs is nodev: every create is a new superblock, EXCL changes nothing. */
TEST(tmpfs_create_and_create_excl_are_equivalent)
{
	struct stat st;
	int fd, mfd, ma, mb;
	dev_t a, b;

	ASSERT_EQ(0, create("tmpfs", FSCONFIG_CMD_CREATE_EXCL, &fd));
	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	ASSERT_GE(mfd, 0);
	ASSERT_EQ(0, fstat(mfd, &st));
	close(fd);

	ma = created_mount("tmpfs", &a);
	mb = created_mount("tmpfs", &b);
	ASSERT_GE(ma, 0);
	ASSERT_GE(mb, 0);
	ASSERT_NE(a, b);
	ASSERT_NE(st.st_dev, a);
	ASSERT_NE(st.st_dev, b);
	close(ma);
	close(mb);
	close(mfd);
}

TEST_HARNESS_MAIN
