// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs and tracefs apply their mount options even when the mount reuses
 * the existing superblock (the 6.12 fixes "debugfs: fix mount options not
 * being applied" and "tracing: Fix tracefs mount options").  Each test
 * mounts the filesystem again with new options, checks them, and restores
 * the defaults through another mount, checking those too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mount_api.h"
#include "kselftest_harness.h"

#define TEST_UID 1234
#define TEST_GID 4321

/*
 * Mount @fstype at @target with "key=value" pairs from @opts (NULL ended).
 * Returns 0 or an errno; the caller asserts.
 */
static int mount_with(const char *fstype, const char *target,
		      const char * const *opts)
{
	int fd, mfd, err = 0;

	fd = sys_fsopen(fstype, FSOPEN_CLOEXEC);
	if (fd < 0)
		return errno;
	for (; *opts; opts += 2) {
		if (sys_fsconfig(fd, FSCONFIG_SET_STRING, opts[0], opts[1], 0)) {
			err = errno;
			goto out;
		}
	}
	if (sys_fsconfig(fd, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = errno;
		goto out;
	}
	mfd = sys_fsmount(fd, FSMOUNT_CLOEXEC, 0);
	if (mfd < 0) {
		err = errno;
		goto out;
	}
	if (sys_move_mount(mfd, "", AT_FDCWD, target, MOVE_MOUNT_F_EMPTY_PATH))
		err = errno;
	close(mfd);
out:
	close(fd);
	return err;
}

FIXTURE(remount) {
	char dir[64];
};

FIXTURE_SETUP(remount)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/remount.%d", getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0755));
}

FIXTURE_TEARDOWN(remount)
{
	umount2(self->dir, MNT_DETACH);
	rmdir(self->dir);
}

static int check_owner(struct __test_metadata *_metadata, const char *path,
		       uid_t uid, gid_t gid, mode_t mode)
{
	struct stat st;

	if (stat(path, &st)) {
		TH_LOG("stat %s: %s", path, strerror(errno));
		return -1;
	}
	if (st.st_uid != uid || st.st_gid != gid ||
	    (mode && (st.st_mode & 07777) != mode)) {
		TH_LOG("%s: uid %u gid %u mode %04o, want %u %u %04o", path,
		       st.st_uid, st.st_gid, st.st_mode & 07777, uid, gid,
		       mode);
		return -1;
	}
	return 0;
}

TEST_F(remount, debugfs_mode_uid_gid_apply_on_reuse)
{
	const char * const opts[] = { "mode", "0750", "uid", "1234",
				      "gid", "4321", NULL };
	const char * const defaults[] = { "mode", "0700", "uid", "0",
					  "gid", "0", NULL };

	ASSERT_EQ(0, mount_with("debugfs", self->dir, opts));
	EXPECT_EQ(0, check_owner(_metadata, self->dir, TEST_UID, TEST_GID,
				 0750));
	/* One superblock: the boot-time mount sees the same root. */
	EXPECT_EQ(0, check_owner(_metadata, "/sys/kernel/debug", TEST_UID,
				 TEST_GID, 0750));
	ASSERT_EQ(0, umount2(self->dir, 0));

	ASSERT_EQ(0, mount_with("debugfs", self->dir, defaults));
	EXPECT_EQ(0, check_owner(_metadata, "/sys/kernel/debug", 0, 0, 0700));
}

TEST_F(remount, tracefs_gid_applies_to_every_file_and_new_instances)
{
	static const char * const paths[] = {
		"", "/events", "/events/sched", "/events/sched/sched_switch",
		"/events/sched/sched_switch/enable", "/trace",
	};
	const char * const opts[] = { "gid", "4321", NULL };
	const char * const defaults[] = { "gid", "0", NULL };
	char path[256], instance[128];
	size_t i;

	ASSERT_EQ(0, mount_with("tracefs", self->dir, opts));
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", self->dir, paths[i]);
		EXPECT_EQ(0, check_owner(_metadata, path, 0, TEST_GID, 0));
	}

	/* An instance made after the mount inherits the group too. */
	snprintf(instance, sizeof(instance), "%s/instances/gid-test",
		 self->dir);
	ASSERT_EQ(0, mkdir(instance, 0755));
	EXPECT_EQ(0, check_owner(_metadata, instance, 0, TEST_GID, 0));
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/enable",
		 instance);
	EXPECT_EQ(0, check_owner(_metadata, path, 0, TEST_GID, 0));
	ASSERT_EQ(0, rmdir(instance));
	ASSERT_EQ(0, umount2(self->dir, 0));

	ASSERT_EQ(0, mount_with("tracefs", self->dir, defaults));
	EXPECT_EQ(0, check_owner(_metadata, "/sys/kernel/tracing/events", 0, 0,
				 0));
}

TEST_HARNESS_MAIN
